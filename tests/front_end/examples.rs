//! The example programs: every file under `programs/` parses, each example
//! says what it shows and what a checker should find, and concrete runs
//! reach (or avoid) the error that its header comment states.

use std::path::{Path, PathBuf};

fn programs_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("programs")
}

/// Every `.c` file under `dir`, recursively, sorted.
fn c_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).expect("a readable directory") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                todo.push(path);
            } else if path.extension().is_some_and(|e| e == "c") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

use crate::cli;
use cli::focuscheck;

#[test]
fn every_program_parses() {
    let files = c_files(&programs_dir());
    assert!(
        files.len() >= 15,
        "expected the paper's and the example programs, found {files:?}"
    );
    for f in files {
        let path = f.to_str().expect("a UTF-8 path");
        let (code, stdout, stderr) = focuscheck(&["parse", path]);
        assert_eq!(code, 0, "{path} does not parse:\n{stderr}");
        assert!(stdout.contains(": ok: "), "{path}: {stdout}");
        // The examples are clean: no warnings either.
        if f.starts_with(programs_dir().join("examples")) {
            assert!(!stderr.contains("warning"), "{path}:\n{stderr}");
        }
    }
}

#[test]
fn every_example_says_what_a_checker_should_find() {
    let files = c_files(&programs_dir().join("examples"));
    assert!(files.len() >= 8, "{files:?}");
    let (mut correct, mut buggy) = (0, 0);
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let name = f.file_name().unwrap().to_str().unwrap();
        assert!(
            text.starts_with(&format!("/* {name} -- ")),
            "{name} must start with a comment naming it"
        );
        let header = &text[..text.find("*/").expect("a closed header comment")];
        match (header.contains("Correct:"), header.contains("Bug:")) {
            (true, false) => correct += 1,
            (false, true) => buggy += 1,
            _ => panic!("the header of {name} must say either `Correct:` or `Bug:`"),
        }
        let lines = text.lines().count();
        assert!((10..=45).contains(&lines), "{name} has {lines} lines");
    }
    assert!(
        correct >= 3 && buggy >= 3,
        "{correct} correct and {buggy} buggy examples"
    );
}

/// Runs an example with extra arguments and returns its `result:` line.
fn result_line(file: &str, args: &[&str]) -> String {
    let path = format!("programs/examples/{file}");
    let mut all = vec!["run", path.as_str()];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = focuscheck(&all);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("result: "))
        .unwrap_or_else(|| panic!("no result line for {file} {args:?}:\n{stdout}\n{stderr}"))
        .to_string();
    let expected_code = if line.starts_with("result: error") { 1 } else { 0 };
    assert_eq!(code, expected_code, "{line}");
    line
}

fn assert_result(file: &str, args: &[&str], expected: &str) {
    let line = result_line(file, args);
    assert!(
        line.starts_with(expected),
        "{file} {args:?}:\n  got      {line}\n  expected {expected}..."
    );
}

#[test]
fn array_bounds_fails_on_every_run() {
    assert_result(
        "array_bounds.c",
        &["--input", "sum=0"],
        "result: error: index 5 out of bounds for a[5] in `a[i]` at programs/examples/array_bounds.c:16:5",
    );
    assert_result(
        "array_bounds.c",
        &["--seed", "7"],
        "result: error: index 5 out of bounds for a[5]",
    );
}

#[test]
fn division_by_zero_only_for_zero() {
    assert_result(
        "division.c",
        &["--input", "n=0"],
        "result: error: division by zero in `sum / count` at programs/examples/division.c:11:",
    );
    assert_result("division.c", &["--input", "n=3"], "result: finished without error");
}

#[test]
fn goto_error_reaches_reach_error() {
    // Choices: the char, the short, the _Bool.
    assert_result(
        "goto_error.c",
        &["--choices", "121,200,1"],
        "result: error: `reach_error()` is called at programs/examples/goto_error.c:17:",
    );
    assert_result(
        "goto_error.c",
        &["--choices", "121,50,1"],
        "result: finished without error",
    );
    assert_result(
        "goto_error.c",
        &["--choices", "121,200,0"],
        "result: stopped without error",
    );
}

#[test]
fn lock_error_flag() {
    let base = ["--input", "locked=0", "--input", "rounds=0"];
    // Acquire, keep the lock (nondet() = 0), acquire again.
    let args = [&base[..], &["--choices", "1,0,1"]].concat();
    assert_result(
        "lock_nondet.c",
        &args,
        "result: error: condition `error` holds after programs/examples/lock_nondet.c:14:",
    );
    // Acquire, release, leave the loop, acquire once more.
    let args = [&base[..], &["--choices", "1,1,0,1"]].concat();
    assert_result("lock_nondet.c", &args, "result: finished without error");
}

#[test]
fn sort3_assertion() {
    let run = |a: &str, b: &str, c: &str| {
        let (a, b, c) = (format!("a={a}"), format!("b={b}"), format!("c={c}"));
        result_line("sort3_bug.c", &["--input", &a, "--input", &b, "--input", &c])
    };
    assert!(run("2", "3", "1").starts_with("result: error: assertion"));
    assert!(run("3", "2", "1").contains("sort3_bug.c:22:3"));
    assert!(run("1", "2", "3").starts_with("result: finished without error"));
}

#[test]
fn static_counter_fails_from_the_fourth_round() {
    assert_result(
        "static_counter.c",
        &["--input", "rounds=3"],
        "result: finished without error",
    );
    assert_result(
        "static_counter.c",
        &["--input", "rounds=4"],
        "result: error: `reach_error()` is called at programs/examples/static_counter.c:10:",
    );
}

#[test]
fn clock_fails_in_the_last_minute_of_the_day() {
    assert_result(
        "clock.c",
        &["--input", "t=86339", "--seed", "0"],
        "result: finished without error",
    );
    assert_result(
        "clock.c",
        &["--input", "t=86340", "--seed", "0"],
        "result: error: assertion `__VERIFIER_assert(hours < 24 && minutes < 60)` fails",
    );
    // The checker finds such a t through `/` and `%` done exactly, and says
    // so in source terms.
    let (_, stdout, stderr) = focuscheck(&["check", "--format", "json", "programs/examples/clock.c"]);
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}{stderr}"));
    let c = &doc["conditions"][0];
    assert_eq!(c["verdict"], "unsafe", "{c}");
    let t = c["inputs"]["t"].as_i64().expect("an input t");
    assert!((86340..=86399).contains(&t), "t = {t}");
    let fss = c["fss"].as_array().expect("FSSs");
    assert_eq!(
        fss.len(),
        1,
        "the FSSs that would need t / 3600 >= 24 are infeasible: {c}"
    );
    let texts: Vec<&str> = fss[0]["assumptions"]
        .as_array()
        .expect("assumptions")
        .iter()
        .map(|a| a["text"].as_str().expect("text"))
        .collect();
    assert_eq!(
        texts,
        ["t >= 0", "t <= 86399", "(t % 3600) / 60 == 59", "t / 3600 >= 23"]
    );
}

#[test]
fn correct_examples_run_without_error() {
    for n in ["0", "7", "10"] {
        let input = format!("n={n}");
        assert_result("recursion.c", &["--input", &input], "result: finished without error");
    }
    assert_result("recursion.c", &["--input", "n=11"], "result: stopped without error");
    for (d, i) in [("0", "0"), ("0", "9"), ("5", "1"), ("-30", "-1"), ("200", "3")] {
        let (d, i) = (format!("d={d}"), format!("i={i}"));
        assert_result(
            "short_circuit.c",
            &["--input", &d, "--input", &i],
            "result: finished without error",
        );
    }
    for x in ["-5", "-4", "0", "1", "7"] {
        let x = format!("x={x}");
        assert_result("switch_loop.c", &["--input", &x], "result: finished without error");
    }
    for seed in ["1", "2", "3"] {
        assert_result("int_types.c", &["--seed", seed], "result: finished without error");
    }
    assert_result("abs_safe.c", &["--choices", "-999"], "result: finished without error");
    assert_result("abs_safe.c", &["--choices", "5000"], "result: stopped without error");
}

/// Two draws at one statement (two calls of `f`) are two names in the
/// assumptions, numbered in the order drawn; a draw into a temporary is
/// named by the call.
#[test]
fn draws_at_one_statement_are_told_apart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("shift.c");
    std::fs::write(
        &path,
        "int g0;\nint g1;\nvoid f(void) {\n    g0 = g1;\n    g1 = __VERIFIER_nondet_int();\n}\n\
         int main(void) {\n    f();\n    f();\n    if (__VERIFIER_nondet_int()) {\n        \
         __VERIFIER_assert(g1 <= g0);\n    }\n    return 0;\n}\n",
    )
    .unwrap();
    let (_, stdout, stderr) = focuscheck(&["check", "--format", "json", path.to_str().unwrap()]);
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}{stderr}"));
    let c = &doc["conditions"][0];
    assert_eq!(c["verdict"], "unsafe", "{c}");
    let texts: Vec<&str> = c["fss"][0]["assumptions"]
        .as_array()
        .expect("assumptions")
        .iter()
        .map(|a| a["text"].as_str().expect("text"))
        .collect();
    assert_eq!(texts, ["nondet()@10 != 0", "g1@5#2 > g1@5#1"], "{c}");
}
