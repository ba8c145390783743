//! The default localisation on two kinds of mutants whose fixes the search
//! once told apart badly: an operator in a branch that a wrong variable in
//! the branch's condition can make never taken (that edit hides the error:
//! it must not be the region), and a wrong variable in the branch that
//! leads to the check (its change back leaves the counterexample short of
//! the check, as any fix there does, yet other runs still reach it: a
//! mend, rechecked like the others). Then three kinds of mutants the
//! default localisation once missed: a comparison in the `if` that guards
//! an assertion and falls through to the end (no input guard), a loop
//! bound on which the counterexample's loop runs zero times after the
//! change back (other inputs still go round: not a loop skipped), an
//! update deleted from a loop, which leaves a written value stale, and a
//! numbered variable read for its twin among many of its type, and a lock
//! taken under an `if` whose acquiring assignment was deleted (the release
//! under the same test reads the value set before).

use serde_json::Value;

use crate::cli::focuscheck;
use crate::fixes::{default_localisation, temp_dir, unsafe_conditions, write, HEADER};

/// `k -= up` was `k += up`: on `v == 0` the sum goes below 0.
const BRANCH: &str = "
int main(void) {
  int up = 3;
  int down = 1;
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 3) return 0;
  int k = 0;
  for (int i = 0; i < n; i++) {
    int v = __VERIFIER_nondet_int();
    if (v < 0 || v > 1) return 0;
    if (v == 0)
      k -= up;
    else
      k += down;
  }
  __VERIFIER_assert(k >= 0);
  return 0;
}
";

/// Two locks taken and released in turn; the second release tests `p1`
/// where it should test `p2` (the `test_locks` tasks of SV-COMP).
const LOCKS: &str = "
int main(void) {
  int p1, lk1, p2, lk2;
  while (1) {
    int cond = __VERIFIER_nondet_int();
    if (cond == 0) break;
    lk1 = 0;
    lk2 = 0;
    p1 = __VERIFIER_nondet_int();
    p2 = __VERIFIER_nondet_int();
    if (p1 != 0) {
      lk1 = 1;
    }
    if (p2 != 0) {
      lk2 = 1;
    }
    if (p1 != 0) {
      if (lk1 != 1) reach_error();
      lk1 = 0;
    }
    if (p1 != 0) { // was p2
      if (lk2 != 1) reach_error();
      lk2 = 0;
    }
  }
  return 0;
}
";

/// The default report (a generous `--timeout`: the search's limits are
/// counts, the clock only a guard) of `body` after the header.
pub(crate) fn check(tag: &str, body: &str) -> (String, Value) {
    let dir = temp_dir(tag);
    let src = format!("{HEADER}{body}");
    let path = write(&dir, &format!("{tag}.c"), &src);
    let (code, out, err) = focuscheck(&["check", "--format", "json", "--timeout", "300", &path]);
    assert_eq!(code, 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    (src, serde_json::from_str(&out).expect("JSON"))
}

pub(crate) fn line_of(src: &str, s: &str) -> u64 {
    src.split('\n').position(|l| l.contains(s)).expect("a line") as u64 + 1
}

#[test]
fn an_edit_that_makes_the_faulty_branch_never_taken_hides_the_error() {
    let (src, doc) = check("branch", BRANCH);
    let (guard, fault) = (line_of(&src, "if (v == 0)"), line_of(&src, "k -= up"));
    let cond = *unsafe_conditions(&doc).first().expect("the mutant is unsafe");
    let fixes = cond["fixes"]["fixes"].as_array().expect("the default search ran");
    // `v` -> `up` in the branch's condition: `up == 0` never holds.
    let dead = fixes
        .iter()
        .find(|f| f["line"] == guard && f["from"] == "v" && f["to"] == "up")
        .expect("the edit that kills the branch is a fix");
    assert_eq!(dead["hides"], "statement_skipped", "{fixes:#?}");
    let loc = default_localisation(&doc).expect("a localisation");
    assert!(loc.contains(&fault) && !loc.contains(&guard), "{loc:?}: {fixes:#?}");
}

#[test]
fn the_change_back_in_the_branch_that_leads_to_the_check_is_in_the_region() {
    let (src, doc) = check("locks", LOCKS);
    let fault = line_of(&src, "// was p2");
    let cond = *unsafe_conditions(&doc).first().expect("the mutant is unsafe");
    let fixes = cond["fixes"]["fixes"].as_array().expect("the default search ran");
    let back = fixes
        .iter()
        .find(|f| f["line"] == fault && f["from"] == "p1" && f["to"] == "p2")
        .expect("the change back is a fix");
    assert!(back["hides"].is_null(), "{back}");
    assert_ne!(back["proof"], "runs", "the change back was not rechecked: {fixes:#?}");
    let loc = default_localisation(&doc).expect("a localisation");
    assert!(loc.contains(&fault), "{loc:?}: {fixes:#?}");
}

/// `if (m != 0)` was `if (m == 0)`: `b` is `m + n`, equal to `n` only
/// when `m` is 0. The `if` guards the assertion and falls through to the
/// end of `main`: not an input guard.
const GUARDED: &str = "
int main(void) {
  int n = __VERIFIER_nondet_int();
  int m = __VERIFIER_nondet_int();
  if (n < 0 || n > 50 || m < 0 || m > 50) return 0;
  int a = n;
  int b = m;
  while (a > 0) {
    a = a - 1;
    b = b + 1;
  }
  if (m != 0) { // was ==
    __VERIFIER_assert(b == n);
  }
  return 0;
}
";

/// `i <= k` was `i < k`: on `k == 0` the change back runs the loop zero
/// times, on other inputs it still goes round.
const BOUND: &str = "
int main(void) {
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 1000000) return 0;
  int n = 0;
  for (int i = 0; i <= k; i++) { // was <
    n = n + 1;
  }
  __VERIFIER_assert(n == k);
  return 0;
}
";

/// `doubled += 2;` deleted from the loop: `doubled` keeps its first value.
const STALE: &str = "
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100) return 0;
  int doubled = 0;
  for (int i = 0; i < n; i++) {
    ; // was doubled += 2;
  }
  __VERIFIER_assert(doubled == 2 * n);
  return 0;
}
";

/// The default report of the mutant localises its changed line (`was`).
fn localised(tag: &str, body: &str) -> (u64, Value) {
    let (src, doc) = check(tag, body);
    let fault = line_of(&src, "// was");
    let loc = default_localisation(&doc).expect("a localisation");
    let cond = *unsafe_conditions(&doc).first().expect("the mutant is unsafe");
    assert!(
        loc.contains(&fault),
        "{tag}: {loc:?} misses line {fault}: {:#?}",
        cond["fixes"]
    );
    (fault, doc)
}

/// The change back (`from` -> `to` on the changed line) is a fix that
/// mends, not one that hides.
fn change_back_mends(tag: &str, body: &str, from: &str, to: &str) {
    let (fault, doc) = localised(tag, body);
    let cond = *unsafe_conditions(&doc).first().expect("unsafe");
    let back = cond["fixes"]["fixes"]
        .as_array()
        .expect("fixes")
        .iter()
        .find(|f| f["line"] == fault && f["from"] == from && f["to"] == to)
        .expect("the change back is a fix");
    assert!(back["hides"].is_null(), "{back}");
}

#[test]
fn a_fault_in_the_if_that_guards_the_assertion_is_localised() {
    change_back_mends("guarded", GUARDED, "!=", "==");
}

#[test]
fn a_loop_bound_whose_change_back_still_runs_the_loop_is_a_mend() {
    change_back_mends("bound", BOUND, "<=", "<");
}

#[test]
fn a_deleted_update_in_a_loop_is_named_where_it_belongs() {
    let (fault, doc) = localised("stale", STALE);
    let cond = *unsafe_conditions(&doc).first().expect("unsafe");
    let missing = cond["fixes"]["missing"].as_array().expect("a missing update");
    // The input `n` is read as it was drawn: only `doubled` is stale.
    assert_eq!(missing.len(), 1, "{missing:#?}");
    let m = &missing[0];
    assert_eq!(m["variable"], "doubled", "{m}");
    assert!(m["stale"].as_u64().is_some_and(|w| w < fault), "{m}");
    assert!(
        m["lines"].as_array().expect("lines").contains(&Value::from(fault)),
        "{m}"
    );
}

/// Four locks; the first release tests `p4` where it should test `p1`.
/// Seven scalars of its type are declared nearer the read than `p1`: the
/// change back is tried because `p1` is `p4`'s twin.
const TWINS: &str = "
int main(void) {
  int p1, lk1, p2, lk2, p3, lk3, p4, lk4;
  p1 = __VERIFIER_nondet_int();
  p2 = __VERIFIER_nondet_int();
  p3 = __VERIFIER_nondet_int();
  p4 = __VERIFIER_nondet_int();
  while (1) {
    int cond = __VERIFIER_nondet_int();
    if (cond == 0) break;
    lk1 = 0;
    lk2 = 0;
    lk3 = 0;
    lk4 = 0;
    if (p1 != 0) lk1 = 1;
    if (p2 != 0) lk2 = 1;
    if (p3 != 0) lk3 = 1;
    if (p4 != 0) lk4 = 1;
    if (p4 != 0) { // was p1
      if (lk1 != 1) reach_error();
      lk1 = 0;
    }
  }
  return 0;
}
";

#[test]
fn a_numbered_variable_read_for_its_twin_is_localised() {
    change_back_mends("twins", TWINS, "p4", "p1");
}

/// The lock phase's `lk2 = 1` is deleted: the release under the same test
/// reads the `0` written before it. `lk1`'s arm wrote its lock: only
/// `lk2`'s empty arm is named.
const LOCK_PHASE: &str = "
int main(void) {
  int p1 = __VERIFIER_nondet_int();
  int p2 = __VERIFIER_nondet_int();
  int lk1, lk2;
  while (1) {
    int cond = __VERIFIER_nondet_int();
    if (cond == 0) break;
    lk1 = 0;
    lk2 = 0;
    if (p1 != 0) {
      lk1 = 1;
    }
    if (p2 != 0) {
      ; // was lk2 = 1;
    }
    if (p1 != 0) {
      if (lk1 != 1) reach_error();
      lk1 = 0;
    }
    if (p2 != 0) {
      if (lk2 != 1) reach_error();
      lk2 = 0;
    }
  }
  return 0;
}
";

#[test]
fn an_assignment_deleted_from_an_if_whose_test_the_check_repeats_is_named_there() {
    let (fault, doc) = localised("lock_phase", LOCK_PHASE);
    let cond = *unsafe_conditions(&doc).first().expect("unsafe");
    let missing = cond["fixes"]["missing"].as_array().expect("a missing update");
    assert_eq!(missing.len(), 1, "{missing:#?}");
    let m = &missing[0];
    assert_eq!(m["variable"], "lk2", "{m}");
    assert_eq!(m["lines"], serde_json::json!([fault]), "{m}");
    assert_eq!(m["loops"][0]["why"], "same_test", "{m}");
    assert_eq!(m["loops"][0]["line"], fault - 1, "{m}");
}
