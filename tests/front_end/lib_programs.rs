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
fn an_unknown_function_writes_over_the_whole_object_a_pointer_argument_points_into() {
    // `&a[2]`: C lets the function step back to `a[0]`; a null argument
    // and a string literal (read-only) stay as they were; both engines.
    let text = "int fill(int *buf, int n);\nvoid put(char *s);\nint main(void) {\n  int a[3] = {1, 2, 3};\n  \
                int b[2] = {4, 5};\n  char *s = \"ok\";\n  fill(0, 1);\n  put(s);\n  assert(b[0] == 4);\n  \
                assert(s[0] == 'o');\n  fill(&a[2], 1);\n  assert(a[0] == 1);\n  return 0;\n}\n";
    for engine in ["fsum", "vc"] {
        let (code, out) = check_text(text, &["--engine", engine]);
        let said = |verdict: &str, cond: &str| {
            out.lines()
                .any(|l| l.trim_start().starts_with(&format!("{verdict}: assertion `{cond}`")))
        };
        assert_eq!(code, 1, "{engine}: {out}");
        assert!(said("safe", "assert(b[0] == 4)"), "{engine}: {out}");
        assert!(said("safe", "assert(s[0] == 'o')"), "{engine}: {out}");
        assert!(said("unsafe", "assert(a[0] == 1)"), "{engine}: {out}");
        assert!(
            out.contains("`fill` is not defined: modelled as returning any value and as writing any values over the whole object argument 1 points into"),
            "{engine}: {out}"
        );
    }
}

#[test]
fn an_unknown_function_returns_null_or_a_new_object() {
    // Read unchecked: `NULL`; checked: one element at least; written and
    // freed as a heap block; one per call, never another object.
    let text = "#include <stdlib.h>\nint *find(int key);\nint main(void) {\n  int x = 7;\n  int *p = find(1);\n  \
                if (p != NULL) {\n    p[0] = 3;\n    free(p);\n  }\n  int *q = find(2);\n  \
                assert(x == 7);\n  return q[0];\n}\n";
    let (code, out) = check_text(text, &[]);
    let said = |verdict: &str, what: &str| {
        out.lines()
            .any(|l| l.trim_start().starts_with(&format!("{verdict}: {what}")))
    };
    assert_eq!(code, 1, "{out}");
    assert!(said("safe", "pointer access in `p[0] = 3`"), "{out}");
    assert!(said("safe", "pointer access in `free(p)`"), "{out}");
    assert!(said("safe", "assertion `assert(x == 7)`"), "{out}");
    assert!(said("unsafe", "pointer access in `q[0]`"), "{out}");
    assert!(
        out.contains("`find` is not defined: modelled as returning `NULL` or a new object of any contents"),
        "{out}"
    );
    // A result holding pointers is refused: nothing may point anywhere.
    let text = "struct node { int v; struct node *next; };\nstruct node *head(void);\nint main(void) {\n  \
                struct node *n = head();\n  return n ? n->v : 0;\n}\n";
    let (code, out) = check_text(text, &[]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains(
            "`head` is not defined and returns a `struct node *`: its pointer field `next` is not modelled yet"
        ),
        "{out}"
    );
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

/// Array fields of the elements of an array of structs and of heap nodes
/// (a roster, a list of tags), by name, through pointers, initialised,
/// copied by `strcpy`: each row is its own array, so a name one byte too
/// long is found at the call (gcc writes it into the next field; C calls
/// it undefined), and every access of the correct program is proved.
#[test]
fn array_fields_of_array_elements_and_heap_nodes_are_their_own_arrays() {
    let program = |name: &str| {
        format!(
            "#include <string.h>\n#include <stdlib.h>\n#include <assert.h>\n\
             struct rec {{ char name[8]; int score; }};\nstruct node {{ char tag[4]; struct node *next; }};\n\
             int main(void) {{\n  struct rec all[3] = {{{{\"ann\", 3}}, {{\"bo\", 5}}}};\n  struct rec *p = &all[1];\n  \
             strcpy(all[2].name, \"{name}\");\n  p->name[0] = 'B';\n  \
             assert(strcmp(all[1].name, \"Bo\") == 0 && all[0].name[2] == 'n' && sizeof all[0].name == 8);\n  \
             char *s = all[0].name;\n  assert(s[3] == 0 && all[2].score == 0);\n  \
             struct node *n = malloc(sizeof *n);\n  if (!n) return 1;\n  strcpy(n->tag, \"abc\");\n  \
             assert(n->tag[2] == 'c');\n  free(n);\n  return 0;\n}}\n"
        )
    };
    let (code, out) = check_text(&program("bobbyjo"), &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 unsafe, 0 unknown"), "{out}");
    let (code, out) = check_text(&program("bobbyjoe"), &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("1 unsafe, 0 unknown"), "{out}");
    assert!(
        out.contains("unsafe: pointer access in `strcpy(all[2].name, \"bobbyjoe\")`"),
        "{out}"
    );
    // Pointers into different rows compare as their addresses do in C
    // (C11 6.5.8p5: a later element's members compare greater).
    let order = "extern void reach_error(void);\nstruct rec { char name[4]; int n; };\nstruct rec a[3];\n\
                 int main(void) {\n  int count = 0;\n  for (char *p = a[0].name; p < a[0].name + 4; p++) count++;\n  \
                 char *q = &a[2].name[1], *r = &a[1].name[3];\n  \
                 if (!(a[0].name + 4 <= a[1].name) || !(r < q) || q <= r || count != 4) reach_error();\n  \
                 if (q - &a[2].name[0] != 1) reach_error();\n  return count;\n}\n";
    let (code, out) = check_text(order, &[]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(" 0 unsafe, 0 unknown"), "{out}");
}

#[test]
fn a_word_longer_than_a_table_read_by_getchar_is_found_and_replays() {
    // A word-length histogram: a word of 10 chars or more overflows
    // `hist`. Drawn chars are rarely spaces and never end; a line of text
    // read to its end reaches the error (`auto`'s sampled runs).
    let text = "#include <stdio.h>\n#include <ctype.h>\nint main(void) {\n  int c, cur = 0;\n  \
                int hist[10] = {0};\n  while ((c = getchar()) != EOF) {\n    if (isspace(c)) {\n      \
                if (cur > 0)\n        hist[cur]++;\n      cur = 0;\n    } else\n      cur++;\n  }\n  \
                return hist[1];\n}\n";
    let dir = tempfile::tempdir().expect("a temporary directory");
    let f = dir.path().join("t.c");
    std::fs::write(&f, text).expect("write");
    let path = f.to_str().expect("utf-8");
    let (code, out, err) = focuscheck(&["check", "--format", "json", "--timeout", "60", path]);
    assert_eq!(code, 1, "{out}{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let c = cli::first_unsafe(&doc);
    assert_eq!(c["line"], 9, "{c}");
    let replay = c["replay"].as_str().expect("a replay command");
    let args: Vec<&str> = replay.split_whitespace().skip(1).collect();
    let (code, run, err) = focuscheck(&args);
    assert_eq!(code, 1, "{replay}: {run}{err}");
    assert!(run.contains("t.c:9:"), "{replay}: {run}");
}

#[test]
fn strdup_copies_into_an_object_of_the_length_plus_one() {
    // POSIX `strdup`, with `<string.h>` as written; `strtol` given `NULL`
    // for its end pointer.
    let text = "#include <string.h>\n#include <stdlib.h>\nint main(void) {\n  \
                char *d = strdup(\"abc\");\n  long v = strtol(d, NULL, 10);\n  \
                d[3] = 'x';\n  char c = d[4];\n  free(d);\n  return c + (int)v;\n}\n";
    let (code, out) = check_text(text, &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("t.c:7:"), "{out}");
    assert!(
        !out.contains("t.c:6:") || !out.contains("unsafe: pointer access in `d[3]"),
        "{out}"
    );
    let ok = text.replace("d[4]", "d[0]");
    let (code, out) = check_text(&ok, &[]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn func_names_the_function_it_is_in() {
    // C11 6.4.2.2 (`__FUNCTION__`, `__PRETTY_FUNCTION__` as gcc spells it).
    let text = "#include <string.h>\nstatic int helper(void) {\n  return (int)strlen(__func__) \
                + (__FUNCTION__[0] == 'h') + (__PRETTY_FUNCTION__[5] == 'r') * 10;\n}\n\
                int main(void) {\n  return helper() * 100 + (int)strlen(__func__);\n}\n";
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = cli::write(dir.path(), "t.c", text);
    let (code, out, err) = focuscheck(&["run", &path]);
    assert_eq!(code, 0, "{out}{err}");
    // "helper": 6 chars, 'h' first, 'r' at 5; "main": 4.
    assert!(out.contains("`main` returned 1704"), "{out}");
}
