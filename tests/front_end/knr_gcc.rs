//! Old-style (K&R) definitions, with a return type or none (implicit
//! `int`), as C89 code and TCAS write them, against gcc: generated programs whose functions take
//! parameters of every integer type and pointers, declared in any order or
//! not at all (then `int`), called with arguments the parameter's type
//! must convert. The interpreter's `out` must be gcc's (ASan and UBSan on)
//! on every input, and `check` must prove what every run computes.
//!
//! `FOCUSCHECK_KNR_PROGRAMS=N` runs more seeds.

use crate::lib_gcc::{focuscheck, run_out};
use crate::sanitized_gcc;
use crate::xorshift::Rng;
use std::fmt::Write as _;

const PROGRAMS: u64 = 8;

const TYPES: &[&str] = &[
    "char",
    "signed char",
    "unsigned char",
    "short",
    "unsigned short",
    "int",
    "unsigned",
];

/// A program of three K&R functions and a `main` storing their results.
fn program(seed: u64) -> String {
    let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut s =
        String::from("extern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_assume(int c);\nint out[4];\n");
    let mut calls = Vec::new();
    for f in 0..3 {
        let n = 1 + r.below(3) as usize;
        let names: Vec<String> = (0..n).map(|k| format!("p{k}")).collect();
        // No return type (implicit `int`), or one before the name.
        let ret = ["", "int ", "static int "][r.below(3) as usize];
        let _ = writeln!(s, "{ret}f{f}({}, q)", names.join(", "));
        // Declarations in a shuffled order; some left to default to int.
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, r.below(i as u64 + 1) as usize);
        }
        for &k in &order {
            if r.below(4) != 0 {
                let _ = writeln!(s, "{} p{k};", r.pick(TYPES));
            }
        }
        s.push_str("int *q;\n{\n");
        let sum: Vec<String> = names.iter().map(|p| format!("(int)({p} % 1000)")).collect();
        let _ = writeln!(
            s,
            "  *q = *q + 1;\n  return {} * {};\n}}",
            sum.join(" + "),
            1 + r.below(5)
        );
        let args: Vec<String> = (0..n)
            .map(|_| format!("in * {} - {}", r.below(300), r.below(70000)))
            .collect();
        calls.push(format!("f{f}({}, &count)", args.join(", ")));
    }
    s.push_str(
        "int main(void) {\n  int in = __VERIFIER_nondet_int();\n  __VERIFIER_assume(0 <= in && in <= 2);\n  int count = 0;\n",
    );
    for (k, c) in calls.iter().enumerate() {
        let _ = writeln!(s, "  out[{k}] = {c};");
    }
    s.push_str("  out[3] = count;\n");
    s
}

#[test]
fn generated_knr_definitions_agree_with_gcc() {
    let n = std::env::var("FOCUSCHECK_KNR_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(PROGRAMS);
    let dir = tempfile::tempdir().expect("a temporary directory");
    for seed in 0..n {
        let text = program(seed);
        let name = format!("k{seed}");
        let want: Vec<Vec<i64>> = sanitized_gcc::runs(dir.path(), &name, &text)
            .into_iter()
            .map(|r| r.unwrap_or_else(|e| panic!("seed {seed}: not valid C (sanitizer):\n{text}\n{e}")))
            .collect();
        let file = dir.path().join(format!("{name}.fc.c"));
        let assert_all: String = (0..3)
            .map(|input| {
                let w = &want[input];
                format!(
                    "  if (in == {input}) {{ if (out[0] != {} || out[1] != {} || out[2] != {} || out[3] != {}) reach_error(); }}\n",
                    w[0], w[1], w[2], w[3]
                )
            })
            .collect();
        let full = format!("extern void reach_error(void);\n{text}{assert_all}  return 0;\n}}\n");
        std::fs::write(&file, &full).expect("write");
        let f = file.to_str().expect("utf-8 path");
        for (input, want) in want.iter().enumerate() {
            let (code, ran) = focuscheck(&["run", "--choices", &input.to_string(), f]);
            assert_eq!(code, 0, "seed {seed}: run failed:\n{ran}\n{full}");
            let got = run_out(&ran);
            assert_eq!(
                got.as_ref(),
                Some(want),
                "seed {seed}, input {input}: interpreter != gcc\n{ran}\n{full}"
            );
        }
        // Every run computes gcc's values, so the check of them is safe.
        let (code, checked) = focuscheck(&["check", f]);
        assert_eq!(code, 0, "seed {seed}: not proved safe:\n{checked}\n{full}");
    }
}

/// What gcc rejects in a K&R definition is an error with its place.
#[test]
fn a_knr_declaration_of_no_parameter_is_an_error() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("bad.c");
    std::fs::write(
        &file,
        "f(a) int a; int b; { return a; }\nint main(void) { return f(1); }\n",
    )
    .expect("write");
    let (code, text) = focuscheck(&["check", file.to_str().unwrap()]);
    assert_eq!(code, 2, "{text}");
    assert!(
        text.contains("bad.c:1:17") && text.contains("`b` is not a parameter"),
        "{text}"
    );
}
