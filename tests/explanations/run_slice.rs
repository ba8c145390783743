//! A confirmed run too long to follow symbolically (over 500,000 steps) is
//! explained from a slice of its record: the FSS holds the statements the
//! error depends on through the locations the run used (one element of an
//! array filled in a loop, not all), with its assumptions over the value
//! drawn, and the report says where it came from.

use crate::cli;

/// 200,000 iterations (800,000 steps) before the error; the assertion
/// reads `a[7]` (drawn) and `a[9]` (the loop's tenth write).
const LONG: &str = "extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
void __VERIFIER_assert(int cond) { if (!cond) reach_error(); }
int a[200000];
int main(void) {
  int i;
  for (i = 0; i < 200000; i++)
    a[i] = i;
  a[7] = __VERIFIER_nondet_int();
  int t = a[7] + a[9];
  __VERIFIER_assert(t != 9);
  return 0;
}
";

/// Statements of a folded FSS listing, each repetition's first run with
/// its count.
fn statements(list: &serde_json::Value) -> Vec<(i64, String, u64)> {
    let mut out = Vec::new();
    for s in list.as_array().expect("statements") {
        match s.get("repeat") {
            Some(r) => {
                for x in r["first"].as_array().expect("first run") {
                    out.push((
                        x["line"].as_i64().unwrap_or(0),
                        x["text"].as_str().unwrap_or("").to_string(),
                        r["count"].as_u64().unwrap_or(0),
                    ));
                }
            }
            None => out.push((
                s["line"].as_i64().unwrap_or(0),
                s["text"].as_str().unwrap_or("").to_string(),
                1,
            )),
        }
    }
    out
}

#[test]
fn a_long_run_is_explained_from_its_slice() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = cli::write(dir.path(), "long.c", LONG);
    let (code, out, err) = cli::focuscheck(&["check", file.as_str(), "--format", "json", "--timeout", "30"]);
    assert_eq!(code, 1, "unsafe expected: {err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let c = cli::first_unsafe(&doc);
    assert_eq!(c["explained_from"], "run slice", "{c}");
    assert!(c["no_fss"].is_null(), "{c}");
    let fss = &c["fss"][0];
    let st = statements(&fss["statements"]);
    // The loop writes `a[9]` once for the error; its other writes are not
    // in the FSS (the loop's control is, every iteration: it decides `i`).
    let writes: Vec<_> = st.iter().filter(|s| s.1 == "a[i] = i").collect();
    assert_eq!(writes.len(), 1, "{st:?}");
    assert_eq!(writes[0].2, 1, "{st:?}");
    assert!(st.iter().any(|s| s.0 == 9), "the draw is focus: {st:?}");
    assert!(st.iter().any(|s| s.0 == 10), "{st:?}");
    let assumptions: Vec<&str> = fss["assumptions"]
        .as_array()
        .expect("assumptions")
        .iter()
        .filter_map(|a| a["text"].as_str())
        .collect();
    assert_eq!(assumptions, vec!["a[7]@9 == 0"], "{fss}");
    // And a person reads it on one screen.
    let (_, text, _) = cli::focuscheck(&["check", file.as_str(), "--timeout", "30"]);
    assert!(text.contains("1 FSS"), "{text}");
    assert!(text.lines().count() < 200, "{text}");
}
