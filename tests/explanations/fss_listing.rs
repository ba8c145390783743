//! Bounded listings: a condition with more FSSs than a report lists gets
//! the highest ranked ones and a count of the rest in every format, with
//! `--all-fss` listing them all (the same first ones, in the same order);
//! a NEST snippet too long for a screen keeps its start and end and says
//! where the whole FSS is.

use crate::cli;

use serde_json::Value;

/// Fourteen ways to fail: `x == k` sets `e` for k = 1..14, one FSS each.
fn many_ways() -> String {
    let mut s = String::from("int main(void) {\n  int x = __VERIFIER_nondet_int();\n  int e = 0;\n");
    for k in 1..=14 {
        s.push_str(&format!("  if (x == {k}) e = {k};\n"));
    }
    s.push_str("  __VERIFIER_assert(e == 0);\n  return 0;\n}\n");
    s
}

/// A chain of 150 assignments, every one feeding the failing assertion.
fn long_chain() -> String {
    let mut s = String::from("int main(void) {\n  int x0 = __VERIFIER_nondet_int();\n");
    for k in 1..=150 {
        s.push_str(&format!("  int x{k} = x{} + 1;\n", k - 1));
    }
    s.push_str("  __VERIFIER_assert(x150 != 1000);\n  return 0;\n}\n");
    s
}

fn condition(args: &[&str]) -> Value {
    let (code, out, err) = cli::focuscheck(args);
    assert_eq!(code, 1, "unsafe expected: {err}");
    let doc: Value = serde_json::from_str(&out).expect("JSON");
    doc["conditions"][0].clone()
}

fn ranks(v: &Value) -> Vec<u64> {
    v.as_array()
        .expect("a list")
        .iter()
        .map(|f| f["rank"].as_u64().expect("rank"))
        .collect()
}

#[test]
fn json_lists_the_first_fss_and_counts_the_rest() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = cli::write(dir.path(), "many.c", &many_ways());
    let some = condition(&["check", &file, "--format", "json"]);
    let all = condition(&["check", &file, "--format", "json", "--all-fss"]);
    let found = all["fss"].as_array().expect("fss").len();
    assert_eq!(found, 14, "one FSS per way to fail");
    assert!(all.get("fss_omitted").is_none(), "--all-fss leaves nothing out");
    assert_eq!(ranks(&some["fss"]), (1..=10).collect::<Vec<u64>>());
    assert_eq!(some["fss_omitted"].as_u64(), Some(4));
    // The listed ones are the first of the whole listing, unchanged.
    assert_eq!(
        some["fss"].as_array().unwrap()[..],
        all["fss"].as_array().unwrap()[..10]
    );
    // Reduced FSSs of listed FSSs only; the others counted.
    let reduced = some["reduced"].as_array().expect("reduced");
    assert!(reduced.iter().all(|r| r["rank"].as_u64().unwrap() <= 10));
    assert_eq!(
        reduced.len() as u64 + some["reduced_omitted"].as_u64().unwrap_or(0),
        all["reduced"].as_array().unwrap().len() as u64
    );
}

#[test]
fn sarif_and_text_say_how_many_were_found() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = cli::write(dir.path(), "many.c", &many_ways());
    let (_, out, _) = cli::focuscheck(&["check", &file, "--format", "sarif"]);
    let log: Value = serde_json::from_str(&out).expect("SARIF");
    let result = &log["runs"][0]["results"][0];
    let message = result["message"]["text"].as_str().expect("message");
    assert!(
        message.contains("14 focus-statement sequences, the first 10 in codeFlows"),
        "{message}"
    );
    assert_eq!(result["codeFlows"].as_array().expect("flows").len(), 10);
    let (_, text, _) = cli::focuscheck(&["check", &file, "--view", "fss"]);
    assert!(
        text.contains("FSS 10 of 14") && !text.contains("FSS 11 of 14"),
        "{text}"
    );
    assert!(text.contains("(4 more FSSs of lower rank: `--fss N` shows one, `--all-fss` lists them all)"));
    let (_, text, _) = cli::focuscheck(&["check", &file, "--view", "fss", "--all-fss"]);
    assert!(text.contains("FSS 14 of 14") && !text.contains("more FSSs of lower rank"));
    let (_, text, _) = cli::focuscheck(&["check", &file, "--view", "fss", "--fss", "12"]);
    assert!(
        text.contains("FSS 12 of 14"),
        "an FSS past the listing is still shown by its rank"
    );
}

#[test]
fn a_long_nest_snippet_keeps_its_ends() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = cli::write(dir.path(), "chain.c", &long_chain());
    let (code, text, _) = cli::focuscheck(&["check", &file]);
    assert_eq!(code, 1);
    assert!(text.lines().count() <= 200, "{} lines:\n{text}", text.lines().count());
    assert!(text.contains("lines of this snippet left out (`--view fss --fss 1 --full-trace` lists every statement)"));
    // The error and the input are still in the snippet.
    assert!(
        text.contains("x150 != 1000") && text.contains("x0 = __VERIFIER_nondet_int()"),
        "{text}"
    );
    // The listing it points to has every statement.
    let (_, fss, _) = cli::focuscheck(&["check", &file, "--view", "fss", "--fss", "1", "--full-trace"]);
    for k in [1, 75, 150] {
        assert!(fss.contains(&format!("x{k} = x{} + 1", k - 1)), "x{k} listed");
    }
}
