//! Ordinary C programs using the C library (`programs/c/lib/`), checked as
//! written (prototypes declared in each file until the headers ship), and
//! what a user checks of the library models: verdicts, the line of an
//! error, its message.

use std::path::Path;

use crate::cli;
use cli::focuscheck;

/// `check --verbose` (safe conditions listed too) of a file of
/// `programs/c/lib/` (or a temporary one), its stdout then its stderr.
fn check(path: &str, extra: &[&str]) -> (i32, String) {
    let mut args = vec!["check", "--verbose", "--timeout", "60"];
    args.extend_from_slice(extra);
    args.push(path);
    let (code, out, err) = focuscheck(&args);
    (code, format!("{out}{err}"))
}

#[test]
fn every_library_program_gets_the_verdict_its_header_states() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/c/lib");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("programs/c/lib")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    assert!(files.len() >= 6, "{files:?}");
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable");
        let header = &text[..text.find("*/").expect("a header comment")];
        let name = f.file_name().and_then(|n| n.to_str()).expect("a name");
        let (code, out) = check(f.to_str().expect("utf-8"), &[]);
        let summary = out.lines().find(|l| l.contains(" conditions: ")).unwrap_or("");
        if header.contains("Correct:") {
            assert_eq!(code, 0, "{name}:\n{out}");
            assert!(summary.contains(" 0 unsafe, 0 unknown"), "{name}:\n{out}");
            continue;
        }
        // `Bug: ... (line N)`: an error reported at line N.
        let line = header
            .rsplit("(line ")
            .next()
            .and_then(|r| r.split(')').next())
            .and_then(|n| n.parse::<usize>().ok())
            .unwrap_or_else(|| panic!("{name}: the header must give the bug's line"));
        assert_eq!(code, 1, "{name}:\n{out}");
        assert!(
            out.contains(&format!("--> programs/c/lib/{name}:{line}:")) || out.contains(&format!("{name}:{line}:")),
            "{name}: no error at line {line}:\n{out}"
        );
    }
}

/// A program in a temporary file, checked.
fn check_text(text: &str, extra: &[&str]) -> (i32, String) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let f = dir.path().join("t.c");
    std::fs::write(&f, text).expect("write");
    check(f.to_str().expect("utf-8"), extra)
}

#[test]
fn scanf_of_a_string_is_bounded_by_its_width() {
    let text = "extern int scanf(const char *, ...);\nint main(void) {\n  char w[4];\n  char v[4];\n  \
                if (scanf(\"%3s %4s\", w, v) == 2)\n    return w[0];\n  return 0;\n}\n";
    let (code, out) = check_text(text, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("unsafe: pointer access in `scanf(\"%3s %4s\", w, v)`"),
        "{out}"
    );
    assert!(out.contains("t.c:5:7"), "{out}");
    let ok = text.replace("%4s", "%3s");
    let (code, out) = check_text(&ok, &[]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn inputs_of_the_library_take_every_value_they_may() {
    // EOF from getchar, any result of scanf's conversion, rand's range.
    for (cond, verdict) in [
        ("getchar() != -1", "unsafe"),
        ("getchar() <= 255", "safe"),
        ("rand() >= 0", "safe"),
        ("rand() != 2147483647", "unsafe"),
        ("scanf(\"%d\", &x) != -1", "unsafe"),
        ("scanf(\"%d\", &x) <= 1", "safe"),
        ("scanf(\"%u\", &u) != 1 || u != 4294967295u", "unsafe"),
        ("scanf(\"%hhd\", &c) != 1 || c < 128", "safe"),
    ] {
        let text = format!(
            "extern int getchar(void);\nextern int rand(void);\nextern int scanf(const char *, ...);\n\
             int main(void) {{\n  int x = 0;\n  unsigned int u = 0;\n  signed char c = 0;\n  assert({cond});\n  return x + c + (int)u;\n}}\n"
        );
        let (_, out) = check_text(&text, &[]);
        assert!(
            out.lines().any(|l| l.starts_with(&format!("{verdict}: assertion"))
                || l.starts_with(&format!("  {verdict}: assertion"))),
            "`{cond}` should be {verdict}:\n{out}"
        );
    }
}

#[test]
fn abs_of_int_min_overflows_at_the_call() {
    let text = "extern int abs(int);\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  return abs(x);\n}\n";
    let (code, out) = check_text(text, &["--property", "no-overflow"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("unsafe: signed overflow in `abs(x)`"), "{out}");
    assert!(out.contains("t.c:4:10"), "{out}");
}

#[test]
fn exit_ends_the_run_and_an_unknown_function_is_any_value() {
    let text = "extern void exit(int);\nextern int lookup(int key);\nint main(void) {\n  int a[2];\n  \
                int k = lookup(3);\n  if (k < 0 || k > 1)\n    exit(1);\n  a[k] = 1;\n  assert(k != 1);\n  return 0;\n}\n";
    let (code, out) = check_text(text, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("`lookup` is not defined: modelled as returning any value"),
        "{out}"
    );
    assert!(out.contains("safe: array bounds in `a[k]`"), "{out}");
    assert!(out.contains("unsafe: assertion `assert(k != 1)`"), "{out}");
}

#[test]
fn what_is_not_modelled_yet_is_said_at_the_call() {
    for (call, words) in [
        (
            "sprintf(b, \"%f\", 1.0)",
            "`sprintf` with the conversion `%f` is not modelled yet",
        ),
        (
            "printf(b)",
            "with a format that is not a string literal is not modelled yet",
        ),
        ("scanf(\"%s\", b)", "`%s` without a width"),
        (
            "memset(&s, 0, 3)",
            "`memset` on a part of a `struct S` is not modelled yet",
        ),
    ] {
        let text = format!(
            "extern int sprintf(char *, const char *, ...);\nextern int printf(const char *, ...);\n\
             extern int scanf(const char *, ...);\nextern void *memset(void *, int, unsigned int);\n\
             struct S {{ int a; }};\nint main(void) {{\n  char b[8] = \"x\";\n  struct S s;\n  {call};\n  return 0;\n}}\n"
        );
        let (code, out) = check_text(&text, &[]);
        assert_eq!(code, 2, "{call}:\n{out}");
        assert!(out.contains("t.c:9:3") && out.contains(words), "{call}:\n{out}");
    }
}

/// Values the library draws are named as the program sees them (issue 54
/// part 2): what `scanf` stores in `n` as `n@LINE`, what a call returns as
/// `f()@LINE`; never the model's own variables (`r`, `__mem1`).
#[test]
fn assumptions_name_library_values_by_the_call_and_the_variable() {
    let text = "extern int scanf(const char *, ...);\nextern int getchar(void);\nint main(void) {\n  int n;\n  \
                if (scanf(\"%d\", &n) != 1)\n    return 1;\n  int c = getchar();\n  int a[4];\n  \
                if (c == 'x')\n    a[n] = 1;\n  return 0;\n}\n";
    let (code, out) = check_text(text, &["--view", "fss"]);
    assert_eq!(code, 1, "{out}");
    for name in ["scanf()@5 == 1", "n@5 ", "getchar()@7 == 120"] {
        assert!(out.contains(name), "no `{name}` in\n{out}");
    }
    for model in ["r@", "__mem", "c@7"] {
        assert!(!out.contains(model), "the model's `{model}` in\n{out}");
    }
}

/// A record cleared with `memset`, named with `strcpy`, initialised from a
/// string and copied whole (`c = r`): C copies the array field too. The
/// copy is checked as written, and a name one byte too long is found at
/// the user's `strcpy`.
#[test]
fn structs_with_array_fields_are_cleared_copied_and_initialised() {
    let program = |name: &str| {
        format!(
            "#include <string.h>\n#include <assert.h>\nstruct rec {{ char name[8]; int score; int *best; }};\n\
             int main(void) {{\n  struct rec r;\n  memset(&r, 0, sizeof r);\n  strcpy(r.name, \"{name}\");\n  \
             r.score = 7;\n  struct rec c = {{ \"al\", 1, 0 }};\n  assert(c.name[1] == 'l' && c.name[2] == 0);\n  \
             c = r;\n  assert(strcmp(c.name, \"{name}\") == 0 && c.score == 7 && c.best == 0);\n  \
             struct rec d;\n  memcpy(&d, &c, sizeof c);\n  assert(d.score == 7 && d.name[2] == 'b');\n  return 0;\n}}\n"
        )
    };
    let (code, out) = check_text(&program("bob"), &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 unsafe, 0 unknown"), "{out}");
    let (code, out) = check_text(&program("bobbyjoe"), &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("1 unsafe, 0 unknown"), "{out}");
    assert!(out.contains("element 8 of `r.name`, which has 8 elements"), "{out}");
}

/// An array field of an element of an array of structs, reached through a
/// pointer, is refused at the access (it was called an invalid access: a
/// wrong "unsafe" gcc runs without error).
#[test]
fn an_array_field_in_an_array_of_structs_through_a_pointer_is_refused() {
    let text = "struct rec { char name[8]; int score; };\nint main(void) {\n  struct rec all[2];\n  \
                struct rec *p = &all[1];\n  p->name[0] = 'a';\n  return p->name[0] == 'a' ? 0 : 1;\n}\n";
    let (code, out) = check_text(text, &[]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("t.c:5:3: an array field (`name`) of an element of an array of structs (`all`) through a pointer is not supported yet"), "{out}");
    assert!(!out.contains("unsafe"), "{out}");
}
