//! The paper's figures are the spec (DESIGN §6, §8): exact FSSs, assumption
//! sets, Reduce results and NESTs on the programs of `programs/paper/`,
//! read through `focuscheck check --format json`, plus replay of every
//! FSS's counterexample with `focuscheck run`.

use serde_json::Value;
use std::collections::BTreeSet;
use std::process::Command;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_focuscheck")
}

fn check(file: &str, extra: &[&str]) -> Value {
    let out = Command::new(bin())
        .args(["--color", "never", "check", "--format", "json", file])
        .args(extra)
        .output()
        .expect("run focuscheck");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("bad JSON ({e}): {}", String::from_utf8_lossy(&out.stdout)))
}

fn cond<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["conditions"]
        .as_array()
        .expect("conditions")
        .iter()
        .find(|c| c["condition"] == name)
        .unwrap_or_else(|| panic!("no condition {name} in {doc}"))
}

fn lines(statements: &Value) -> Vec<u64> {
    statements
        .as_array()
        .expect("statements")
        .iter()
        .map(|s| s["line"].as_u64().expect("line"))
        .collect()
}

fn assumptions(v: &Value) -> BTreeSet<String> {
    v.as_array()
        .expect("assumptions")
        .iter()
        .map(|a| a["text"].as_str().expect("text").to_string())
        .collect()
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(|s| s.to_string()).collect()
}

fn fss_list(c: &Value) -> Vec<(Vec<u64>, BTreeSet<String>)> {
    c["fss"]
        .as_array()
        .expect("fss")
        .iter()
        .map(|f| (lines(&f["statements"]), assumptions(&f["assumptions"])))
        .collect()
}

/// Replays an FSS's counterexample with `focuscheck run` and checks that it
/// reaches the error, and that the FSS's lines occur in order in the trace.
fn replays(file: &str, f: &Value, extra: &[&str]) {
    let mut args: Vec<String> = vec![
        "--color".into(),
        "never".into(),
        "run".into(),
        file.into(),
        "--trace".into(),
    ];
    for (k, v) in f["inputs"].as_object().expect("inputs") {
        args.push("--input".into());
        args.push(format!("{k}={v}"));
    }
    let choices: Vec<String> = f["choices"]
        .as_array()
        .expect("choices")
        .iter()
        .map(|c| c.to_string())
        .collect();
    if !choices.is_empty() {
        args.push("--choices".into());
        args.push(choices.join(","));
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    let out = Command::new(bin()).args(&args).output().expect("run focuscheck run");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "the counterexample does not reach an error:\n{stdout}"
    );
    assert!(stdout.contains("result: error"), "{stdout}");
    // The FSS is a subsequence of the trace, by line.
    let trace_lines: Vec<u64> = stdout
        .lines()
        .filter_map(|l| l.trim_start().split(':').next().and_then(|n| n.parse().ok()))
        .collect();
    let mut it = trace_lines.iter();
    for want in lines(&f["statements"]) {
        assert!(
            it.any(|&l| l == want),
            "line {want} of the FSS is not in the trace in order:\n{stdout}"
        );
    }
}

#[test]
fn lock_has_the_papers_two_fss() {
    let doc = check("programs/paper/lock.c", &[]);
    let c = cond(&doc, "error");
    assert_eq!(c["verdict"], "unsafe");
    let fss = fss_list(c);
    assert_eq!(
        fss,
        vec![
            (vec![4, 5, 6, 7, 11, 12, 18, 20], set(&["gotlock == 1"])),
            (
                vec![4, 5, 6, 7, 8, 14, 15, 9, 11, 6, 7, 8, 14, 16],
                set(&["gotlock != 0"])
            ),
        ]
    );
    // Neither contains a statement of bigProcedure (lines 21-22).
    assert!(fss.iter().all(|(l, _)| l.iter().all(|&x| x < 21)));
    assert_eq!(c["fss"][0]["rank"], 1);
    for f in c["fss"].as_array().unwrap() {
        replays("programs/paper/lock.c", f, &[]);
    }
}

#[test]
fn lock_expanded_rellock_error_and_getlock_error_is_safe() {
    let doc = check(
        "programs/paper/lock_expanded.c",
        &["--error", "rellock::error", "--error", "getlock::error"],
    );
    let rel = cond(&doc, "rellock::error");
    assert_eq!(rel["verdict"], "unsafe");
    assert_eq!(fss_list(rel), vec![(vec![16, 18, 26, 38, 40], set(&["new == old"]))]);
    replays(
        "programs/paper/lock_expanded.c",
        &rel["fss"][0],
        &["--error", "rellock::error"],
    );
    let get = cond(&doc, "getlock::error");
    assert_eq!(get["verdict"], "safe", "{get}");
}

#[test]
fn minmax_three_fss_and_reduce_to_x_greater_than_y() {
    let doc = check("programs/paper/minmax.c", &[]);
    let c = cond(&doc, "error");
    assert_eq!(c["verdict"], "unsafe");
    let fss = fss_list(c);
    assert_eq!(fss.len(), 3, "{fss:?}");
    assert_eq!(fss[0], (vec![3, 6, 6, 7, 8, 9], set(&["x > y", "x <= z"])));
    // The two of equal length differ in which `&&` operand of line 8 failed.
    let rest: BTreeSet<(Vec<u64>, BTreeSet<String>)> = fss[1..].iter().cloned().collect();
    let want: BTreeSet<(Vec<u64>, BTreeSet<String>)> = [
        (vec![3, 6, 6, 7, 7, 8, 9], set(&["x > y", "x > z", "z > y"])),
        (vec![3, 6, 6, 7, 7, 8, 9], set(&["x > y", "x > z", "z <= y"])),
    ]
    .into_iter()
    .collect();
    assert_eq!(rest, want);
    let reduced = c["reduced"].as_array().expect("reduced");
    assert_eq!(reduced.len(), 2, "{reduced:?}");
    for r in reduced {
        assert_eq!(assumptions(&r["assumptions"]), set(&["x > y"]));
        assert!(
            r["nest"].as_array().unwrap().iter().any(|l| l == 6),
            "NEST without line 6: {r}"
        );
    }
    for f in c["fss"].as_array().unwrap() {
        replays("programs/paper/minmax.c", f, &[]);
    }
}

#[test]
fn median_bug14_nests() {
    let doc = check("programs/paper/median_bug14.c", &[]);
    let c = cond(&doc, "error");
    assert_eq!(c["verdict"], "unsafe");
    let nests: BTreeSet<Vec<u64>> = c["reduced"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| lines(&r["statements"]))
        .collect();
    assert_eq!(nests, [vec![13, 14, 15], vec![13, 14, 17]].into_iter().collect());
}

#[test]
fn median_bug14_48_adds_a_third_fss_whose_nest_is_all_of_it() {
    let doc = check("programs/paper/median_bug14_48.c", &[]);
    let c = cond(&doc, "error");
    let reduced = c["reduced"].as_array().unwrap();
    assert_eq!(reduced.len(), 3);
    let nests: Vec<Vec<u64>> = reduced.iter().map(|r| lines(&r["statements"])).collect();
    assert!(nests.contains(&vec![13, 14, 15]));
    assert!(nests.contains(&vec![13, 14, 17]));
    // The third: the paper's <4,6,9,40,41,42,43,44,45,48,62,63> without the
    // `else` keyword line 40 and the overwritten initialisation on line 4.
    let third = vec![6, 9, 41, 42, 43, 44, 45, 48, 62, 63];
    assert!(nests.contains(&third), "{nests:?}");
    let r3 = reduced.iter().find(|r| lines(&r["statements"]) == third).unwrap();
    let f3 = &c["fss"][r3["rank"].as_u64().unwrap() as usize - 1];
    assert_eq!(lines(&f3["statements"]), third);
}

#[test]
fn median_is_safe() {
    let doc = check("programs/paper/median.c", &[]);
    assert_eq!(cond(&doc, "error")["verdict"], "safe");
}
