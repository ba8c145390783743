//! Bounded model checking in `check`'s portfolio: the VC engine unrolls
//! every loop 1, 2, 4, ... times up to `--unwind-max`, with unwinding
//! assertions, so a program whose loops are bounded is proved safe, a
//! bound its loops pass is never taken for a proof, and a counterexample
//! within the bound replays. The ring buffers of `programs/vc/`.

#[path = "support/cli.rs"]
mod cli;

use cli::{first_unsafe, focuscheck, fss_lines, write};
use focuscheck::engines::{VcPlan, DOUBLING_MAX, MAX_CONSTANT_UNROLL};
use serde_json::Value;

fn json(args: &[&str]) -> Value {
    let (_, out, err) = focuscheck(args);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"))
}

/// Two bounded loops (6 iterations each) whose sum neither the loop
/// invariants nor k-induction bound: only unrolling them proves it.
const FILL: &str = "extern int __VERIFIER_nondet_int(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *);
void reach_error(void) { __assert_fail(\"0\", \"fill.c\", 3, \"reach_error\"); }
void __VERIFIER_assert(int cond) { if (!cond) { reach_error(); } }
int main(void) {
  int a[6];
  int sum = 0;
  for (int i = 0; i < 6; i++)
    a[i] = __VERIFIER_nondet_int() ? i : 2 * i;
  for (int i = 0; i < 6; i++)
    sum += a[i];
  __VERIFIER_assert(sum >= 15 && sum <= LIMIT);
  return 0;
}
";

fn reach_error(doc: &Value) -> &Value {
    doc["conditions"]
        .as_array()
        .expect("conditions")
        .iter()
        .find(|c| c["kind"] == "reach_error")
        .expect("the reach_error condition")
}

#[test]
fn the_bounds_double_up_to_unwind_max() {
    assert_eq!(VcPlan::default().unroll, vec![1, 2, 4, 8, 16]);
    assert_eq!(VcPlan::default().unwind_max, MAX_CONSTANT_UNROLL);
    assert_eq!(VcPlan::with_unwind_max(5).unroll, vec![1, 2, 4, 5]);
    assert_eq!(VcPlan::with_unwind_max(1).unroll, vec![1]);
    assert_eq!(VcPlan::with_unwind_max(1000).unroll.last(), Some(&DOUBLING_MAX));
}

#[test]
fn bounded_loops_are_proved_by_unrolling_with_unwinding_assertions() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = write(dir.path(), "fill.c", &FILL.replace("LIMIT", "30"));
    let doc = json(&["check", "--engine", "vc", "--format", "json", &path]);
    let c = reach_error(&doc);
    assert_eq!(c["verdict"], "safe", "{c}");
    let reason = c["reason"].as_str().expect("a reason");
    assert!(reason.contains("--loops unroll:8"), "{reason}");
    // A bound the loops pass proves nothing: the unwinding assertion
    // fails, and the condition stays unknown.
    let doc = json(&[
        "check",
        "--engine",
        "vc",
        "--unwind-max",
        "4",
        "--format",
        "json",
        &path,
    ]);
    assert_eq!(reach_error(&doc)["verdict"], "unknown", "{doc}");
}

#[test]
fn a_counterexample_within_the_bound_replays() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = write(dir.path(), "fill.c", &FILL.replace("LIMIT", "29"));
    let doc = json(&["check", "--engine", "vc", "--format", "json", &path]);
    let c = reach_error(&doc);
    assert_eq!(c["verdict"], "unsafe", "{c}");
    // The call of `reach_error()` in `__VERIFIER_assert`.
    assert_eq!(c["line"], 4);
    assert!(
        c["reason"].as_str().expect("a reason").contains("replays to the error"),
        "{c}"
    );
}

#[test]
fn the_ring_buffers_off_by_one_is_found_and_explained() {
    let (code, out, err) = focuscheck(&["check", "programs/vc/ring_buffer_bug.c"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("unsafe: call `reach_error()`"), "{out}");
    let doc = json(&["check", "--format", "json", "programs/vc/ring_buffer_bug.c"]);
    let c = first_unsafe(&doc);
    assert_eq!(c["kind"], "reach_error", "{c}");
    let lines = fss_lines(&c["fss"][0]);
    // The faulty capacity test and the assertion it breaks.
    assert!(lines.contains(&28) && lines.contains(&62), "{lines:?}");
}

#[test]
fn the_correct_ring_buffer_is_never_unsafe() {
    let doc = json(&["check", "--no-explain", "--format", "json", "programs/vc/ring_buffer.c"]);
    for c in doc["conditions"].as_array().expect("conditions") {
        assert_ne!(c["verdict"], "unsafe", "{c}");
    }
}
