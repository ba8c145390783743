//! Bad input: every file outside Cimple (or not C at all) gets a clear error
//! at the right `file:line:col`, exit code 2, and never a panic. Also the
//! positive side: a function outside the subset that the entry cannot reach
//! is only a warning.

use std::path::Path;
use std::process::Command;

use crate::shared;

/// What one run of the binary printed.
struct Outcome {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `focuscheck --color never ARGS` in `dir`.
fn focuscheck(dir: &Path, args: &[&str]) -> Outcome {
    let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .arg("--color")
        .arg("never")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs");
    let outcome = Outcome {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    };
    assert!(
        !outcome.stderr.contains("panicked"),
        "the tool panicked:\n{}",
        outcome.stderr
    );
    outcome
}

/// Writes `bytes` to `name` in a fresh temporary directory and runs
/// `focuscheck parse name` there, so messages name the file as `name`.
fn parse_bytes(name: &str, bytes: &[u8], extra: &[&str]) -> Outcome {
    let dir = tempfile::tempdir().expect("a temporary directory");
    std::fs::write(dir.path().join(name), bytes).expect("the file is written");
    let mut args = vec!["parse", name];
    args.extend_from_slice(extra);
    focuscheck(dir.path(), &args)
}

fn parse(name: &str, text: &str) -> Outcome {
    parse_bytes(name, text.as_bytes(), &[])
}

/// Asserts that some error's first line is `error: NAME:LOC: ...` and
/// contains every one of `words`.
fn assert_error_at(out: &Outcome, name: &str, loc: &str, words: &[&str]) {
    let head = format!("error: {name}:{loc}: ");
    let found = out
        .stderr
        .lines()
        .filter(|l| l.starts_with(&head))
        .any(|l| words.iter().all(|w| l.contains(w)));
    assert!(
        found,
        "no error at {name}:{loc} mentioning {words:?}; stderr was:\n{}",
        out.stderr
    );
}

/// The file is rejected (exit 2) with an error at `loc` mentioning `words`.
fn assert_bad(name: &str, text: &str, loc: &str, words: &[&str]) -> Outcome {
    let out = parse(name, text);
    assert_eq!(out.code, 2, "exit code for {name}; stderr:\n{}", out.stderr);
    assert_error_at(&out, name, loc, words);
    out
}

/// How many errors (not warnings) were reported.
fn error_count(out: &Outcome) -> usize {
    out.stderr.lines().filter(|l| l.starts_with("error: ")).count()
}

// ---- files that cannot be read ----

#[test]
fn missing_file() {
    let dir = tempfile::tempdir().unwrap();
    let out = focuscheck(dir.path(), &["parse", "nowhere.c"]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("error: cannot read `nowhere.c`: no such file"),
        "{}",
        out.stderr
    );
}

#[test]
fn directory_instead_of_file() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("d.c")).unwrap();
    let out = focuscheck(dir.path(), &["parse", "d.c"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("cannot read `d.c`"), "{}", out.stderr);
}

#[test]
fn empty_file() {
    assert_bad("empty.c", "", "1:1", &["the file defines nothing"]);
}

#[test]
fn non_utf8_bytes() {
    let out = parse_bytes("bytes.c", b"int main() {\n  int x = 1;\xff\n  return x;\n}\n", &[]);
    assert_eq!(out.code, 2);
    assert_error_at(&out, "bytes.c", "2:13", &["not valid UTF-8"]);
    assert!(out.stderr.contains("0xff"), "{}", out.stderr);
}

/// A binary file given as C (an executable, an object file): one line
/// naming it binary, on stderr, for every command; never its bytes.
#[test]
fn binary_file_prints_no_raw_bytes() {
    let mut bytes = b"\x7fELF\x01\x01\x01\x00\x00".to_vec();
    bytes.extend((0..2000u32).map(|i| (i * 37 % 256) as u8));
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("prog.c"), &bytes).unwrap();
    for cmd in ["parse", "check", "verify"] {
        let out = focuscheck(dir.path(), &[cmd, "prog.c"]);
        assert_eq!(out.code, 2, "{cmd}");
        assert_error_at(&out, "prog.c", "1:1", &["binary, not C source"]);
        let printed = format!("{}{}", out.stdout, out.stderr);
        assert!(printed.len() < 400, "{cmd} printed {} bytes:\n{printed}", printed.len());
        assert!(
            !printed.contains('\u{fffd}') && !printed.chars().any(|c| c.is_control() && c != '\n'),
            "{cmd} printed raw bytes:\n{printed}"
        );
    }
}

// ---- lexical and syntax errors ----

#[test]
fn unterminated_comment() {
    let text = "int main() {\n  /* no end\n  return 0;\n}\n";
    assert_bad("comment.c", text, "2:3", &["unterminated comment"]);
}

#[test]
fn unterminated_string() {
    let text = "int main() {\n  int c = \"abc;\n  return c;\n}\n";
    assert_bad("string.c", text, "2:11", &["unterminated string literal"]);
}

#[test]
fn stray_character() {
    let text = "int main() {\n  int x = 1 @ 2;\n  return x;\n}\n";
    let out = assert_bad("stray.c", text, "2:13", &["unexpected character", "`@`"]);
    assert!(!out.stderr.contains("undeclared"), "{}", out.stderr);
}

#[test]
fn missing_semicolon_at_line_end() {
    // The `;` is shown right after `1`, and the next line still parses.
    let text = "int main() {\n  int x = 1\n  x = 2;\n  return x;\n}\n";
    let out = assert_bad("semi.c", text, "2:12", &["expected `;`", "found `x`"]);
    assert_eq!(error_count(&out), 1, "{}", out.stderr);
}

#[test]
fn missing_semicolon_inside_a_line() {
    let text = "int main() {\n  int x = 1; x = 2 return x;\n}\n";
    assert_bad("semi2.c", text, "2:19", &["expected `;`", "found `return`"]);
}

#[test]
fn missing_open_paren_after_if() {
    let text = "int main() {\n  int x;\n  if x { x = 1; }\n  return x;\n}\n";
    assert_bad("if.c", text, "3:6", &["expected `(` after `if`"]);
}

#[test]
fn unclosed_block() {
    let text = "int main() {\n  int x = 1;\n  if (x) {\n    x = 2;\n  return x;\n}\n";
    assert_bad("open.c", text, "7:1", &["expected `}`", "end of file"]);
}

#[test]
fn else_without_if() {
    assert_bad(
        "else.c",
        "int main() {\n  else return 0;\n}\n",
        "2:3",
        &["`else` without a matching `if`"],
    );
}

// ---- constructs outside Cimple ----

#[test]
fn pointer_to_integer_cast() {
    let text = "int main() {\n  int x = 0;\n  int *p = &x;\n  return (int)p;\n}\n";
    assert_bad(
        "ptr.c",
        text,
        "4:10",
        &["converting a pointer to an integer is not supported"],
    );
}

#[test]
fn pointer_cast_between_types() {
    let text = "int main() {\n  int x = 0;\n  char *p = (char *)&x;\n  return *p;\n}\n";
    assert_bad(
        "pcast.c",
        text,
        "3:13",
        &["a conversion from `int *` to `char *` is not supported"],
    );
}

#[test]
fn pointer_assigned_across_types() {
    let text = "int main() {\n  char c = 0;\n  int *p = &c;\n  return *p;\n}\n";
    assert_bad(
        "pconv.c",
        text,
        "3:12",
        &["a conversion from `char *` to `int *` is not supported"],
    );
}

#[test]
fn void_pointer_carrying_two_types() {
    let text = "int main() {\n  char c = 0;\n  void *v = &c;\n  int *p = v;\n  return *p;\n}\n";
    assert_bad("pvoid.c", text, "4:12", &["`void *` converted to `int *`"]);
}

#[test]
fn struct_never_defined() {
    let text = "int main() {\n  struct s v;\n  return 0;\n}\n";
    assert_bad("struct2.c", text, "2:3", &["`struct s` is used but never defined"]);
}

/// `&a` of an array of arrays as a whole and `&p` of a pointer to arrays
/// stay outside (arithmetic on pointers to rows is in).
#[test]
fn address_of_an_array_of_arrays_as_a_whole() {
    let text = "int a[3][4];\nint main(void) {\n  void *w = &a;\n  int (*p)[4] = a + 1;\n  void *q = &p;\n  return w == q;\n}\n";
    let out = assert_bad(
        "whole2.c",
        text,
        "3:13",
        &["not modelled yet", "array of arrays `a` as a whole", "`&a`"],
    );
    assert_error_at(
        &out,
        "whole2.c",
        "5:13",
        &["not modelled yet", "`p`, a pointer to arrays", "`&p`"],
    );
    assert_eq!(error_count(&out), 2, "{}", out.stderr);
}

/// A typedef of a variable-length array and a cast to an array typedef's
/// pointer stay outside, named where they are written.
#[test]
fn array_typedefs_outside_the_model() {
    let text = "typedef int row[4];\nint g[8];\nint main(void) {\n  int n = 3;\n  typedef int vrow[n];\n  row *p = (row *)g;\n  vrow v;\n  return (*p)[1];\n}\n";
    let out = assert_bad(
        "rows.c",
        text,
        "6:13",
        &["casts to an array typedef", "not modelled yet"],
    );
    assert_error_at(
        &out,
        "rows.c",
        "7:3",
        &["`vrow`", "variable-length array", "not modelled yet"],
    );
}

#[test]
fn long_double_type() {
    assert_bad(
        "float.c",
        "long double f;\nint main() {\n  return 0;\n}\n",
        "1:1",
        &["`long double`", "not part of Cimple", "use `double`"],
    );
}

#[test]
fn long_double_literal() {
    let text = "int main() {\n  double x = 1.5L;\n  return x;\n}\n";
    assert_bad("float2.c", text, "2:14", &["`long double` literal `1.5L`"]);
}

#[test]
fn float_operands_of_integer_operators() {
    let text = "int main() {\n  double x = 1.5;\n  return x % 2;\n}\n";
    assert_bad("float3.c", text, "3:10", &["invalid operands to `%`", "floating"]);
}

// The preprocessor reads `#if` and function-like macros (C11 6.10); what
// it rejects is said at the directive.

#[test]
fn error_directive() {
    let text = "#ifndef N\n#error N must be defined\n#endif\nint main() {\n  return 0;\n}\n";
    assert_bad("err.c", text, "2:1", &["#error N must be defined"]);
}

#[test]
fn unterminated_conditional() {
    let text = "#ifdef X\nint x;\nint main() {\n  return 0;\n}\n";
    assert_bad("ifdef.c", text, "1:1", &["unterminated conditional directive"]);
    let text = "int x;\n#endif\nint main() {\n  return 0;\n}\n";
    assert_bad("endif.c", text, "2:1", &["`#endif` without `#if`"]);
}

#[test]
fn macro_called_with_the_wrong_number_of_arguments() {
    let text = "#define MAX(a,b) ((a)>(b)?(a):(b))\nint main() {\n  return MAX(1);\n}\n";
    assert_bad("macro.c", text, "3:10", &["macro `MAX` takes 2 arguments, 1 given"]);
}

#[test]
fn missing_header() {
    let text = "#include <pthread.h>\nint main() {\n  return 0;\n}\n";
    assert_bad("hdr.c", text, "1:1", &["cannot find the header <pthread.h>"]);
}

#[test]
fn unknown_type_names_the_header() {
    let text = "int main() {\n  size_t n = 1;\n  return 0;\n}\n";
    assert_bad("type.c", text, "2:3", &["unknown type `size_t`: include <stddef.h>"]);
    let text = "struct S { int a; }\nint main() {\n  return 0;\n}\n";
    assert_bad("semi.c", text, "2:1", &["expected `;`", "before `int`"]);
}

// ---- names, types and arity ----

#[test]
fn undeclared_variable() {
    let text = "int main() {\n  int x = 1;\n  return x + y;\n}\n";
    assert_bad("undecl.c", text, "3:14", &["undeclared variable `y`"]);
}

#[test]
fn unknown_function() {
    let text = "int main() {\n  int x = foo(1);\n  return x;\n}\n";
    assert_bad("unknown.c", text, "2:11", &["implicit declaration of function `foo`"]);
}

#[test]
fn declared_but_not_defined() {
    // An unknown function: its result is an input, and the call is named.
    let text = "int f(int a);\nint main() {\n  return f(1);\n}\n";
    let out = parse("proto.c", text);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let warning = "warning: proto.c:3:10: `f` is not defined: modelled as returning any value";
    assert!(out.stderr.contains(warning), "{}", out.stderr);
    // A pointer it may store through a `T **` is not modelled yet.
    let text = "void g(int **p);\nint main() {\n  int x = 0;\n  int *q = &x;\n  g(&q);\n  return x;\n}\n";
    assert_bad(
        "proto2.c",
        text,
        "5:3",
        &[
            "`g` is not defined and may change the `int *` its argument 1 points to",
            "not modelled yet",
        ],
    );
}

#[test]
fn wrong_arity() {
    let text = "int f(int a, int b) {\n  return a + b;\n}\nint main() {\n  return f(1);\n}\n";
    assert_bad("arity.c", text, "5:10", &["`f` takes 2 arguments but 1 was given"]);
}

#[test]
fn wrong_arity_of_a_builtin() {
    let text = "int main() {\n  __VERIFIER_assert(1, 2);\n  return 0;\n}\n";
    assert_bad(
        "arity2.c",
        text,
        "2:3",
        &["`__VERIFIER_assert` takes 1 argument but 2 were given"],
    );
}

#[test]
fn prototype_disagrees_with_definition() {
    let text = "int f(int a);\nint f(int a, int b) {\n  return a;\n}\nint main() {\n  return f(1, 2);\n}\n";
    assert_bad(
        "proto2.c",
        text,
        "1:5",
        &["prototype of `f` has 1 parameter but", "has 2"],
    );
}

#[test]
fn non_constant_array_size() {
    // A variable-length array is of block scope only, and never `static`.
    let text = "int n = 3;\nint a[n];\nint main() {\n  return a[0];\n}\n";
    assert_bad("size.c", text, "2:7", &["size of array `a` is not a constant"]);
    let text = "int main() {\n  int n = 3;\n  static int a[n];\n  return 0;\n}\n";
    assert_bad("vla.c", text, "3:14", &["variable-length array `a` `static`"]);
}

#[test]
fn array_size_out_of_range() {
    assert_bad(
        "size0.c",
        "int a[0];\nint main() {\n  return 0;\n}\n",
        "1:7",
        &["array size 0 is out of range"],
    );
}

#[test]
fn duplicate_variable_in_one_block() {
    let text = "int main() {\n  int x = 1;\n  int x = 2;\n  return x;\n}\n";
    assert_bad("dup.c", text, "3:7", &["`x` is already declared in this block"]);
}

#[test]
fn array_without_index() {
    let text = "int a[3];\nint main() {\n  int x = a;\n  return x;\n}\n";
    assert_bad("noindex.c", text, "3:11", &["array `a` used without an index"]);
}

#[test]
fn indexing_a_non_array() {
    let text = "int main() {\n  int b;\n  b[0] = 1;\n  return 0;\n}\n";
    assert_bad("index.c", text, "3:3", &["`b` is not an array"]);
}

#[test]
fn return_value_from_void_function() {
    let text = "void f() {\n  return 5;\n}\nint main() {\n  f();\n  return 0;\n}\n";
    assert_bad("retvoid.c", text, "2:10", &["`void` function cannot return a value"]);
}

#[test]
fn return_nothing_from_int_function() {
    let text = "int f() {\n  return;\n}\nint main() {\n  return f();\n}\n";
    assert_bad("retint.c", text, "2:3", &["must return a value"]);
}

#[test]
fn value_of_void_function() {
    let text = "void f() {\n}\nint main() {\n  int x = f();\n  return x;\n}\n";
    assert_bad("voidval.c", text, "4:11", &["`f` returns nothing"]);
}

#[test]
fn break_outside_loop() {
    let text = "int main() {\n  int x = 0;\n  break;\n  return x;\n}\n";
    assert_bad("break.c", text, "3:3", &["`break` outside a loop or switch"]);
}

#[test]
fn continue_in_switch_only() {
    let text = "int main() {\n  switch (1) { case 1: continue; }\n  return 0;\n}\n";
    assert_bad("continue.c", text, "2:24", &["`continue` outside a loop"]);
}

#[test]
fn undefined_goto_label() {
    let text = "int main() {\n  goto out;\n  return 0;\n}\n";
    assert_bad("goto.c", text, "2:8", &["label `out` is not defined"]);
}

#[test]
fn duplicate_label() {
    let text = "int main() {\n  a: ;\n  a: ;\n  return 0;\n}\n";
    assert_bad("label.c", text, "3:3", &["label `a` is defined twice"]);
}

#[test]
fn duplicate_case() {
    let text = "int main() {\n  int x = 1;\n  switch (x) {\n  case 1: break;\n  case 2: break;\n  case 1: break;\n  }\n  return 0;\n}\n";
    assert_bad("case.c", text, "6:8", &["duplicate case value 1"]);
}

#[test]
fn duplicate_case_through_a_macro() {
    let text = "#define ONE 1\nint main() {\n  int x = 1;\n  switch (x) {\n  case ONE: break;\n  case 0+1: break;\n  }\n  return 0;\n}\n";
    assert_bad("case2.c", text, "6:8", &["duplicate case value 1"]);
}

#[test]
fn case_outside_switch() {
    assert_bad(
        "case3.c",
        "int main() {\n  case 1: return 0;\n}\n",
        "2:3",
        &["outside a `switch`"],
    );
}

#[test]
fn function_defined_twice() {
    let text = "int main() {\n  return 0;\n}\nint main() {\n  return 1;\n}\n";
    assert_bad("twice.c", text, "4:5", &["function `main` is defined twice"]);
}

#[test]
fn a_global_declared_with_two_types() {
    let text = "int x;\nchar x;\nint main() {\n  return x;\n}\n";
    assert_bad("types.c", text, "2:6", &["conflicting types for global `x`"]);
    let text = "struct A { int a; } s;\nstruct B { int b; } s;\nint main() {\n  return 0;\n}\n";
    assert_bad("stypes.c", text, "2:21", &["conflicting types for global `s`"]);
}

#[test]
fn a_union_with_a_pointer_member() {
    let text = "union V { int i; int *p; };\nint main(void) {\n  union V v;\n  v.i = 1;\n  return v.i;\n}\n";
    assert_bad(
        "union.c",
        text,
        "3:3",
        &[
            "`union V` has a member `p`",
            "only unions of integer and floating members",
        ],
    );
}

#[test]
fn global_initialiser_not_constant() {
    let text = "int y;\nint x = y;\nint main() {\n  return x;\n}\n";
    assert_bad("ginit.c", text, "2:9", &["initialiser of a global must be a constant"]);
}

#[test]
fn assignment_to_a_constant() {
    assert_bad(
        "lvalue.c",
        "int main() {\n  3 = 4;\n  return 0;\n}\n",
        "2:3",
        &["cannot be assigned to"],
    );
}

#[test]
fn no_entry_function() {
    let out = assert_bad(
        "noentry.c",
        "int f() {\n  return 0;\n}\n",
        "1:1",
        &["no function `main`"],
    );
    assert!(out.stderr.contains("--entry"), "{}", out.stderr);
}

// ---- several errors in one file ----

#[test]
fn several_semantic_errors_are_all_reported() {
    let text = "int main() {\n  int x = 1;\n  y = 2;\n  x = foo();\n  break;\n  return z;\n}\n";
    let out = parse("several.c", text);
    assert_eq!(out.code, 2);
    assert_error_at(&out, "several.c", "3:3", &["undeclared variable `y`"]);
    assert_error_at(&out, "several.c", "4:7", &["implicit declaration of function `foo`"]);
    assert_error_at(&out, "several.c", "5:3", &["`break` outside"]);
    assert_error_at(&out, "several.c", "6:10", &["undeclared variable `z`"]);
    assert_eq!(error_count(&out), 4, "{}", out.stderr);
}

#[test]
fn syntax_and_semantic_errors_are_all_reported() {
    let text =
        "int g(int a) {\n  return a;\n}\nint main() {\n  int x = 1\n  x = g(1, 2);\n  goto nowhere;\n  return q;\n}\n";
    let out = parse("mixed.c", text);
    assert_eq!(out.code, 2);
    assert_error_at(&out, "mixed.c", "5:12", &["expected `;`"]);
    assert_error_at(&out, "mixed.c", "6:7", &["`g` takes 1 argument but 2 were given"]);
    assert_error_at(&out, "mixed.c", "7:8", &["label `nowhere` is not defined"]);
    assert_error_at(&out, "mixed.c", "8:10", &["undeclared variable `q`"]);
}

#[test]
fn several_syntax_errors_are_all_reported() {
    let text = "int main() {\n  int x = ;\n  if x { }\n  x = (1 + );\n  return x;\n}\nint 3;\n";
    let out = parse("syntax.c", text);
    assert_eq!(out.code, 2);
    assert_error_at(&out, "syntax.c", "2:11", &["expected an expression", "found `;`"]);
    assert_error_at(&out, "syntax.c", "3:6", &["expected `(`"]);
    assert_error_at(&out, "syntax.c", "4:12", &["expected an expression", "found `)`"]);
    assert_error_at(&out, "syntax.c", "7:5", &["expected a name"]);
    // `x` is declared even though its initialiser is broken.
    assert!(!out.stderr.contains("undeclared"), "{}", out.stderr);
}

#[test]
fn recovery_after_broken_conditions() {
    // Each broken statement is skipped whole (body and `else` included), so
    // the only other error is the real one on line 6.
    let text = "int main() {\n  int x = 0;\n  for (int i = 0; i < 3) { x++; }\n  if (x == ) { x = 1; } else { x = 2; }\n  if (x < ) x = 1; else x = 2;\n  return y;\n}\n";
    let out = parse("recover.c", text);
    assert_eq!(out.code, 2);
    assert_error_at(
        &out,
        "recover.c",
        "3:24",
        &["expected `;` after the condition of `for`"],
    );
    assert_error_at(&out, "recover.c", "4:12", &["expected an expression", "found `)`"]);
    assert_error_at(&out, "recover.c", "5:11", &["expected an expression", "found `)`"]);
    assert_error_at(&out, "recover.c", "6:10", &["undeclared variable `y`"]);
    assert_eq!(error_count(&out), 4, "{}", out.stderr);
}

#[test]
fn a_bad_file_does_not_stop_the_batch() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.c"), "int main() {\n  return y;\n}\n").unwrap();
    std::fs::write(dir.path().join("good.c"), "int main() {\n  return 0;\n}\n").unwrap();
    let out = focuscheck(dir.path(), &["parse", "bad.c", "good.c"]);
    assert_eq!(out.code, 2);
    assert_error_at(&out, "bad.c", "2:10", &["undeclared variable `y`"]);
    assert!(out.stdout.contains("good.c: ok"), "{}", out.stdout);
}

// ---- left-out functions: a warning unless the entry reaches them ----

#[test]
fn unreachable_function_outside_the_subset_is_a_warning() {
    let text = "int helper(int *p) {\n  return (int)p;\n}\nint main() {\n  return 0;\n}\n";
    let out = parse("unreach.c", text);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr
            .contains("warning: unreach.c:1:5: function `helper` is left out"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("left out"), "{}", out.stderr);
    assert!(!out.stderr.contains("error"), "{}", out.stderr);
    assert!(out.stdout.contains("left out: helper"), "{}", out.stdout);
}

#[test]
fn union_declaration_in_an_unreachable_function_is_a_warning() {
    let text =
        "int f() {\n  union s { int a; int *p; } x;\n  x.a = 1;\n  return x.a;\n}\nint main() {\n  return 0;\n}\n";
    let out = parse("union3.c", text);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr.contains("warning: union3.c:1:5: function `f` is left out"),
        "{}",
        out.stderr
    );
}

#[test]
fn reachable_function_outside_the_subset_is_an_error() {
    let text = "int helper(int x) {\n  long double f = 1.0;\n  return x;\n}\nint main() {\n  return helper(1);\n}\n";
    let out = assert_bad("reach.c", text, "2:3", &["`long double`"]);
    assert!(
        out.stderr.contains("called from the entry `main` (line 6)"),
        "{}",
        out.stderr
    );
}

fn tcas() -> String {
    shared::shared("corpus/tcas/orig/tcas.c").display().to_string()
}

#[test]
fn tcas_with_entry_alt_sep_test_reads_its_knr_main() {
    // `main(argc, argv) int argc; char *argv[];` is a K&R definition.
    let dir = tempfile::tempdir().unwrap();
    let out = focuscheck(dir.path(), &["parse", "--entry", "alt_sep_test", &tcas()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("alt_sep_test, main,"), "{}", out.stdout);
    assert!(!out.stdout.contains("left out"), "{}", out.stdout);
    assert!(!out.stderr.contains("warning: "), "{}", out.stderr);
}

#[test]
fn tcas_with_the_default_entry_models_the_argv_it_reads() {
    // Its K&R `main(argc, argv) int argc; char *argv[];` is read, and the
    // strings of `argv` it passes to `atoi` are the model's (`argv.rs`).
    let dir = tempfile::tempdir().unwrap();
    let out = focuscheck(dir.path(), &["parse", &tcas()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let loc = format!("note: {}:146:1: ", tcas());
    assert!(
        out.stderr
            .lines()
            .any(|l| l.starts_with(&loc) && l.contains("`argv` of `main` points to `argc + 1` pointers")),
        "{}",
        out.stderr
    );
}

/// A `void *` returned by a function carries its type as an assignment
/// does (a return once converted unchecked: `struct b *` then pointed to a
/// `struct a` object, and its accesses could only fail).
#[test]
fn void_pointer_returned_with_another_type() {
    let text = "struct a { int x; };\nstruct b { int y; };\nstruct a g;\nvoid *id(struct a *p) { return p; }\nint main() {\n  struct b *q = id(&g);\n  return q->y;\n}\n";
    assert_bad("pret.c", text, "6:17", &["`void *` converted to `struct b *`"]);
}

/// What an entry's pointer parameter points to is chosen by the tool: a
/// pointee with pointers inside is refused, with its place.
#[test]
fn entry_parameter_pointing_to_pointers() {
    let text = "int f(int **pp) {\n  return **pp;\n}\n";
    let out = parse_bytes("pp.c", text.as_bytes(), &["--entry", "f"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    let words = ["a pointer parameter of the entry pointing to `int *` is not supported"];
    assert_error_at(&out, "pp.c", "1:7", &words);
}

#[test]
fn function_passed_where_an_integer_is_expected() {
    let text = "void h(int i) {\n}\nint f(int x) {\n  return x;\n}\nint main() {\n  return f(h);\n}\n";
    assert_bad(
        "fnvalue.c",
        text,
        "7:12",
        &["passing a `void (*)(int)` where `int` is expected"],
    );
}

#[test]
fn call_of_a_value_that_is_not_a_function() {
    let text = "int main() {\n  int x = 1;\n  return (x + 1)(2);\n}\n";
    assert_bad(
        "notfn.c",
        text,
        "3:10",
        &["a call of a value of type `int`, not a function"],
    );
}

/// An integer other than 0 converted to a pointer inside a comparison is
/// an unsupported cast at its place, not an internal error (the pointer
/// it made had one leaf where the comparison reads two).
#[test]
fn a_comparison_with_an_integer_cast_to_a_pointer() {
    assert_bad(
        "cast.c",
        "int main(void) {\n  int x = 0;\n  int *p = &x;\n  return p != (void *)1;\n}\n",
        "4:15",
        &["a cast from `int` to `void *` is not supported"],
    );
}
