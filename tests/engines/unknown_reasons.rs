//! An `unknown` verdict says what limit was hit and which option would
//! help, and never shows an FSS whose assumptions contradict each other
//! (issue: explanations a user can trust).

use crate::cli;

fn conditions(args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let (code, out, err) = cli::focuscheck(&all);
    assert!(matches!(code, 0 | 1 | 3), "exit {code}: {err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    doc["conditions"].as_array().expect("conditions").clone()
}

#[test]
fn a_loop_past_the_unroll_bound_is_unknown_and_names_the_option() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("loop.c");
    std::fs::write(
        &path,
        "int main() {\n  int n;\n  __VERIFIER_assume(n >= 0 && n <= 50);\n  int i = 0;\n  int s = 0;\n  \
         while (i < n) { i++; s = s + 2; }\n  assert(s == 2 * n);\n  return 0;\n}\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    // The Datalog engine's reason (under `auto`, the VC engine proves it).
    let c = &conditions(&[file, "--engine", "fsum"])[0];
    assert_eq!(c["verdict"], "unknown");
    let why = c["reason"].as_str().unwrap();
    assert!(why.contains("a larger --unroll may decide it"), "{why}");
    // And the option does decide it.
    let c = &conditions(&[file, "--engine", "fsum", "--unroll", "60"])[0];
    assert_eq!(c["verdict"], "safe", "{c}");
}

#[test]
fn contradictory_assumptions_are_not_shown() {
    // recursion.c's error paths fix `n` (n == 0, n == 1, ...), which fixes
    // `n * (n + 1)`: each path is infeasible and the program is proved.
    for c in conditions(&["programs/examples/recursion.c"]) {
        assert_eq!(c["verdict"], "safe", "{c}");
        assert!(c["fss"].as_array().is_none_or(|f| f.is_empty()), "{c}");
    }
}
