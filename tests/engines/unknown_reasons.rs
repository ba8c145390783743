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
        // The bound is on a sum: with `n <= 50` alone the exact pass keeps
        // `n`'s bounds (`analysis/bounds.rs`) and proves it at once.
        "int main() {\n  int a, b;\n  __VERIFIER_assume(a >= 0 && a <= 25 && b >= 0 && b <= 25);\n  \
         int n = a + b;\n  int i = 0;\n  int s = 0;\n  \
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

/// A string scan `while (s[n] != 0) n++` over a char array: the widened
/// graph reaches `s[n]` past the array, which `--property unreach-call`
/// leaves out. Where the last char is 0 no run gets there, and the
/// condition reported is decided; where it may not be, it stays unknown.
#[test]
fn a_left_out_check_that_cannot_fail_does_not_hide_a_verdict() {
    let program = |guard: &str| {
        format!(
            "extern void reach_error(void);\nextern char __VERIFIER_nondet_char(void);\nint main(void) {{\n  \
             char s[5];\n  for (int i = 0; i < 5; i++) s[i] = __VERIFIER_nondet_char();\n  {guard}\n  \
             unsigned n = 0;\n  while (s[n] != 0) n++;\n  unsigned m = 0;\n  \
             for (unsigned i = 0; i < n; i++) if (s[i] == 'a') m++;\n  if (m > n) reach_error();\n  return 0;\n}}\n"
        )
    };
    let dir = tempfile::tempdir().unwrap();
    for (guard, verdict) in [("if (s[4] != 0) return 0;", "safe"), ("", "unknown")] {
        let path = dir.path().join("scan.c");
        std::fs::write(&path, program(guard)).unwrap();
        let file = path.to_str().unwrap();
        let args = [file, "--engine", "fsum", "--property", "unreach-call"];
        let c = &conditions(&args)[0];
        assert_eq!(c["verdict"], verdict, "guard `{guard}`: {c:#}");
        if verdict == "unknown" {
            let why = c["reason"].as_str().unwrap();
            assert!(why.contains("may fail first"), "{why}");
        }
    }
}

/// Z3 may run out of resources on a large query it decides at once in
/// another context or with another seed (the SV-COMP parser below: 241
/// loop invariants, decided in one context and not in a fresh one). A
/// query out of resources is tried once more with another seed, so the
/// proof does not depend on what ran before it.
#[test]
fn a_query_out_of_resources_is_retried_with_another_seed() {
    let task = crate::shared::shared("corpus/svcomp-fnptr/loops/veris.c_OpenSER_cases1_stripFullBoth_arr.i");
    let file = task.to_str().unwrap();
    let (code, out, err) = cli::focuscheck(&["verify", file, "--property", "unreach-call", "--loops", "kinduction:2"]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("verified: no check can fail: k-induction"), "{out}");
}
