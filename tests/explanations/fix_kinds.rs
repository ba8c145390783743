//! The default localisation on two kinds of mutants whose fixes the search
//! once told apart badly: an operator in a branch that a wrong variable in
//! the branch's condition can make never taken (that edit hides the error:
//! it must not be the region), and a wrong variable in the branch that
//! leads to the check (its change back leaves the counterexample short of
//! the check, as any fix there does, yet other runs still reach it: a
//! mend, rechecked like the others).

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
fn check(tag: &str, body: &str) -> (String, Value) {
    let dir = temp_dir(tag);
    let src = format!("{HEADER}{body}");
    let path = write(&dir, &format!("{tag}.c"), &src);
    let (code, out, err) = focuscheck(&["check", "--format", "json", "--timeout", "300", &path]);
    assert_eq!(code, 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
    (src, serde_json::from_str(&out).expect("JSON"))
}

fn line_of(src: &str, s: &str) -> u64 {
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
