//! `--error` conditions are C: generated conditions over globals of every
//! integer type, evaluated by gcc on a run's final globals and by
//! `BoolExpr::eval` on the interpreter's, must agree (the usual arithmetic
//! conversions, the integer promotions, unsigned wrap-around, casts).
//! A condition whose C evaluation overflows a signed type (undefined) is
//! skipped, as gcc's sanitizer reports it.

use crate::gen;

use focuscheck::interp::{self, Config, Outcome};
use focuscheck::ir::cond::parse_user_condition;
use focuscheck::ir::lower::LowerOptions;
use focuscheck::syntax::source::SourceFile;
use gen::Rng;
use std::fmt::Write as _;
use std::process::Command;
use std::sync::Arc;

const TYPES: &[&str] = &[
    "int",
    "unsigned",
    "char",
    "unsigned char",
    "short",
    "unsigned short",
    "long long",
    "_Bool",
];

/// Values assigned to globals (C converts each to the global's type).
const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "-2",
    "7",
    "255",
    "-128",
    "65535",
    "4294967295u",
    "2147483647",
    "(-2147483647 - 1)",
];

const CONSTANTS: &[&str] = &[
    "0",
    "1",
    "-1",
    "2",
    "3",
    "0u",
    "1u",
    "2u",
    "4294967295u",
    "2147483648u",
    "255",
    "65535",
];

const CASTS: &[&str] = &["int", "unsigned", "char", "unsigned char", "short", "long long"];

/// A random integer expression over the globals `g0..gN`.
fn expr(rng: &mut Rng, globals: usize, depth: u32) -> String {
    match rng.below(if depth == 0 { 2 } else { 6 }) {
        0 => format!("g{}", rng.below(globals as u64)),
        1 => rng.pick(CONSTANTS).to_string(),
        2 => format!("({})({})", rng.pick(CASTS), expr(rng, globals, depth - 1)),
        3 => format!("-({})", expr(rng, globals, depth - 1)),
        4 => {
            // Divisors are nonzero constants: a condition has no error.
            let op = rng.pick(&["/", "%"]);
            let d = rng.pick(&["2", "3", "-3", "7u", "255"]);
            format!("({} {op} {d})", expr(rng, globals, depth - 1))
        }
        _ => {
            let op = rng.pick(&["+", "-", "*"]);
            format!(
                "({} {op} {})",
                expr(rng, globals, depth - 1),
                expr(rng, globals, depth - 1)
            )
        }
    }
}

fn condition(rng: &mut Rng, globals: usize) -> String {
    let rel = rng.pick(&["==", "!=", "<", "<=", ">", ">="]);
    let c = format!("{} {rel} {}", expr(rng, globals, 2), expr(rng, globals, 2));
    match rng.below(4) {
        0 => format!("!({c})"),
        1 => format!("({c}) && {} != 0", expr(rng, globals, 1)),
        _ => c,
    }
}

#[test]
fn generated_conditions_agree_with_gcc() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (mut compared, mut skipped, mut held) = (0, 0, 0);
    let mut failures = Vec::new();
    for seed in 0..40u64 {
        let mut rng = Rng::new(seed * 31 + 5);
        let n = 2 + rng.below(3) as usize;
        let mut prog = String::new();
        for k in 0..n {
            let _ = writeln!(prog, "{} g{k};", rng.pick(TYPES));
        }
        prog.push_str("int fc_main(void) {\n");
        for k in 0..n {
            let _ = writeln!(prog, "  g{k} = {};", rng.pick(VALUES));
        }
        prog.push_str("  return 0;\n}\n");
        let conds: Vec<String> = (0..12).map(|_| condition(&mut rng, n)).collect();
        // The interpreter's side: the program with `fc_main` as its entry.
        let opts = LowerOptions {
            entry: "fc_main".into(),
            ..LowerOptions::default()
        };
        let (p, diags) = focuscheck::load(Arc::new(SourceFile::new("cond.c", &prog)), &opts);
        let p = p.unwrap_or_else(|| panic!("rejected: {diags:?}\n{prog}"));
        let cfg = Config {
            max_steps: 1000,
            seed: Some(0),
            ..Config::default()
        };
        let run = interp::run(&p, &cfg).expect("runs");
        assert_eq!(run.outcome, Outcome::Finished, "{prog}");
        let layout = p.layout();
        // gcc's side: one process per condition (a sanitizer report skips it).
        let mut c = format!("#include <stdio.h>\n#include <stdlib.h>\n{prog}int main(int argc, char **argv) {{\n  fc_main();\n  switch (atoi(argv[1])) {{\n");
        for (k, cond) in conds.iter().enumerate() {
            let _ = writeln!(c, "  case {k}: printf(\"%d\\n\", ({cond}) ? 1 : 0); break;");
        }
        c.push_str("  }\n  return 0;\n}\n");
        let src = dir.path().join(format!("cond{seed}.c"));
        let exe = dir.path().join(format!("cond{seed}"));
        std::fs::write(&src, &c).expect("write");
        let out = Command::new("gcc")
            .args([
                "-std=gnu11",
                "-O0",
                "-w",
                "-fsanitize=signed-integer-overflow",
                "-fno-sanitize-recover=all",
                "-o",
            ])
            .arg(&exe)
            .arg(&src)
            .output()
            .expect("gcc runs");
        assert!(
            out.status.success(),
            "gcc: {}\n{c}",
            String::from_utf8_lossy(&out.stderr)
        );
        for (k, cond) in conds.iter().enumerate() {
            let run_c = Command::new(&exe).arg(k.to_string()).output().expect("runs");
            if !run_c.status.success() {
                skipped += 1;
                continue;
            }
            let want = String::from_utf8_lossy(&run_c.stdout).trim() == "1";
            let uc = parse_user_condition(&p, cond).unwrap_or_else(|d| panic!("`{cond}` rejected: {d:?}"));
            let got = uc
                .expr
                .eval(&mut |v, i| Some(run.globals[layout.offset[v.index()] as usize + i as usize]));
            compared += 1;
            held += want as usize;
            if got != Some(want) {
                failures.push(format!("seed {seed}: `{cond}`: gcc {want}, focuscheck {got:?}\n{prog}"));
            }
        }
    }
    println!("{compared} conditions compared ({held} true), {skipped} skipped (signed overflow in C)");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        compared >= 300 && held >= 60 && compared - held >= 60,
        "too little was tested"
    );
}
