//! C's conversions where the checker once compared mathematical values
//! (each a wrong answer found against gcc): `case` labels converted to the
//! controlling expression's promoted type, `--error` conditions typed like
//! the program's expressions, `INT_MIN % -1` under `no-overflow`, and
//! doomed points no concrete run reaches. Every engine and command must
//! give the answer gcc's runs give.

use crate::cli;

use cli::focuscheck;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Writes `text` to a temporary C file (kept alive with the directory).
fn c_file(name: &str, text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = dir.path().join(name);
    std::fs::write(&path, text).expect("write the program");
    (dir, path)
}

/// The verdicts `check` gives with `--engine ENGINE` and extra arguments.
fn verdicts(path: &Path, engine: &str, extra: &[&str]) -> Vec<String> {
    let p = path.to_str().expect("utf-8 path");
    let mut args = vec!["check", p, "--format", "json", "--engine", engine];
    args.extend_from_slice(extra);
    let (_, out, err) = focuscheck(&args);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (v["conditions"].as_array().into_iter().flatten())
        .map(|c| c["verdict"].as_str().unwrap_or("?").to_string())
        .collect()
}

/// `verify`'s warnings for the file: (status, line) per warning.
fn warnings(path: &Path, extra: &[&str]) -> Vec<(String, u64)> {
    let p = path.to_str().expect("utf-8 path");
    let mut args = vec!["verify", p, "--format", "json"];
    args.extend_from_slice(extra);
    let (_, out, err) = focuscheck(&args);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    (v["procedures"].as_array().into_iter().flatten())
        .flat_map(|p| p["warnings"].as_array().cloned().unwrap_or_default())
        .map(|w| {
            (
                w["status"].as_str().unwrap_or("?").to_string(),
                w["line"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

const ENGINES: [&str; 3] = ["fsum", "vc", "auto"];

const HEAD: &str = "extern unsigned int __VERIFIER_nondet_uint(void);\n\
    extern int __VERIFIER_nondet_int(void);\n\
    extern char __VERIFIER_nondet_char(void);\n\
    extern void reach_error(void);\n";

/// A `switch` whose one reachable label matches only after C's conversion
/// (`reach_error` is reachable), for several controlling types.
#[test]
fn case_labels_are_converted_to_the_promoted_type() {
    let cases = [
        ("unsigned u = __VERIFIER_nondet_uint();", "u", "-1"),
        ("char c = __VERIFIER_nondet_char();", "c", "-1u"),
        ("int x = __VERIFIER_nondet_int();", "x + 0u", "-2"),
        ("int x = __VERIFIER_nondet_int();", "x", "4294967295u"),
        ("unsigned char c = __VERIFIER_nondet_char();", "c", "(char)255 + 256"),
        ("short s = __VERIFIER_nondet_int();", "s", "(short)65535"),
        ("long long l = __VERIFIER_nondet_uint();", "l", "4294967295u"),
        ("_Bool b = __VERIFIER_nondet_int();", "b", "(_Bool)7"),
    ];
    for (decl, scrutinee, label) in cases {
        let text = format!(
            "{HEAD}int main(void) {{\n  {decl}\n  switch ({scrutinee}) {{ case {label}: reach_error(); break; default: break; }}\n  return 0;\n}}\n"
        );
        let (_dir, path) = c_file("sw.c", &text);
        for engine in ENGINES {
            assert_eq!(verdicts(&path, engine, &[]), ["unsafe"], "--engine {engine}:\n{text}");
        }
        let w = warnings(&path, &["--loops", "havoc"]);
        assert_eq!(w, [("confirmed".to_string(), 7)], "verify:\n{text}");
    }
}

/// The mirror image: the label matches every value that gets there, so
/// the error after the `switch` is unreachable (safe, not doomed).
#[test]
fn a_label_that_always_matches_leaves_the_error_unreachable() {
    let text = format!(
        "{HEAD}int main(void) {{\n  unsigned u = __VERIFIER_nondet_uint();\n  if (u != 4294967295u) return 0;\n  switch (u) {{ case -1: return 0; }}\n  reach_error();\n  return 0;\n}}\n"
    );
    let (_dir, path) = c_file("sw.c", &text);
    for engine in ENGINES {
        assert_eq!(verdicts(&path, engine, &[]), ["safe"], "--engine {engine}");
    }
    assert!(warnings(&path, &["--loops", "havoc"]).is_empty());
    let p = path.to_str().expect("utf-8");
    let (code, out, err) = focuscheck(&["doomed", p]);
    assert_eq!(code, 0, "nothing is doomed:\n{out}\n{err}");
}

/// Two versions equal on all 256 inputs: `diff` must say so.
#[test]
fn diff_compares_labels_as_c_does() {
    let old = "int f(unsigned char c) { unsigned u = c - 1; switch (u) { case -1: return 1; default: return 0; } }\n\
        int main(void) { return 0; }\n";
    let new = "int f(unsigned char c) { return c == 0; }\nint main(void) { return 0; }\n";
    let dir = tempfile::tempdir().expect("temporary directory");
    let (a, b) = (dir.path().join("old.c"), dir.path().join("new.c"));
    std::fs::write(&a, old).expect("write");
    std::fs::write(&b, new).expect("write");
    let (code, out, err) = focuscheck(&[
        "diff",
        a.to_str().expect("utf-8"),
        b.to_str().expect("utf-8"),
        "--entry",
        "f",
    ]);
    assert_eq!(code, 0, "equivalent versions:\n{out}\n{err}");
}

/// `unsigned g = 1 - 2` is 4294967295: `g + 1 == 0` and `g == -1` hold in
/// C, `g == 4294967294` does not.
#[test]
fn error_conditions_are_typed_as_c() {
    let text = "extern int __VERIFIER_nondet_int(void);\nunsigned g;\n\
        int main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x == 1) g = x - 2;\n  return 0;\n}\n";
    let (_dir, path) = c_file("g.c", text);
    let cases = [
        ("g + 1 == 0", "unsafe"),
        ("g == -1", "unsafe"),
        ("-g == 1", "unsafe"),
        ("(int)g == -1", "unsafe"),
        ("g * 2 == 4294967294", "unsafe"),
        ("g / 2 == 2147483647", "unsafe"),
        ("g == 4294967294", "safe"),
        ("g > 4294967295", "safe"),
    ];
    for (cond, want) in cases {
        let error = format!("--error={cond}");
        for engine in ENGINES {
            assert_eq!(verdicts(&path, engine, &[&error]), [want], "{cond} --engine {engine}");
        }
    }
    // What cannot be typed is rejected, located in the condition.
    let p = path.to_str().expect("utf-8");
    let (code, out, err) = focuscheck(&["check", p, "--error", "(_Bool)g"]);
    assert_eq!(code, 2, "{err}");
    assert!(format!("{out}{err}").contains("--error:1:1"), "{out}\n{err}");
}

/// `INT_MIN % -1` is undefined (C11 6.5.5p6) although its remainder fits.
#[test]
fn remainder_overflow_is_a_no_overflow_condition() {
    let text = "extern int __VERIFIER_nondet_int(void);\n\
        int main(void) {\n  int x = __VERIFIER_nondet_int();\n  int y = __VERIFIER_nondet_int();\n\
        if (y == 0) return 0;\n  return x % y;\n}\n";
    let (_dir, path) = c_file("m.c", text);
    for engine in ["vc", "auto"] {
        assert_eq!(
            verdicts(&path, engine, &["--property", "no-overflow"]),
            ["unsafe"],
            "--engine {engine}"
        );
    }
    // The Datalog engine alone may not decide `%` of two unknowns, but it
    // never says safe.
    assert_ne!(verdicts(&path, "fsum", &["--property", "no-overflow"]), ["safe"]);
    let w = warnings(&path, &["--property", "no-overflow"]);
    assert_eq!(w, [("confirmed".to_string(), 6)]);
    // A divisor that cannot be -1 is fine.
    let text = text.replace("if (y == 0)", "if (y <= 0)");
    let (_dir, path) = c_file("m.c", &text);
    for engine in ["vc", "auto"] {
        assert_eq!(
            verdicts(&path, engine, &["--property", "no-overflow"]),
            ["safe"],
            "--engine {engine}"
        );
    }
    assert_ne!(verdicts(&path, "fsum", &["--property", "no-overflow"]), ["unsafe"]);
}

/// The loop below is left only through `break` at `i == 3`: its exit
/// through `i < 10` being false is passed by no run, so it is not doomed.
#[test]
fn a_loop_exit_no_run_takes_is_not_doomed() {
    let text = "extern void __VERIFIER_assert(int);\n\
        int f(void) { int i = 0;\n  while (i < 10) { i++; if (i == 3) break; }\n  __VERIFIER_assert(i == 3);\n  return i; }\n\
        int main(void) { return f(); }\n";
    let (_dir, path) = c_file("d.c", text);
    let p = path.to_str().expect("utf-8");
    let (code, out, err) = focuscheck(&["doomed", p]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(!out.contains("doomed:"), "{out}");
    assert!(
        out.contains("passed by no concrete run"),
        "the point left out is said:\n{out}"
    );
    // The same program with the assertion wrong everywhere is doomed.
    let text = text.replace("i == 3", "i == 4").replacen("i == 4", "i == 3", 1);
    let (_dir, path) = c_file("d.c", &text);
    let (code, out, _) = focuscheck(&["doomed", path.to_str().expect("utf-8")]);
    assert_eq!(code, 1, "{out}");
}
