//! The default localisation is bounded by counts, not by the clock: the
//! same with `--jobs 1` as in a batch's worker, and under a small
//! `--timeout` either the same or said to be cut. Its edits of the
//! branches that lead to the error come first, and those that only hide
//! the error (here a value only the check reads) rank after those that mend.

use serde_json::Value;

use crate::cli::focuscheck;
use crate::fix_kinds::line_of;
use crate::fixes::{default_localisation, temp_dir, unsafe_conditions, write, HEADER};

/// `i <= n` was `i < n`: the loop runs once too often, so `a` passes the
/// limit the check computes (`limit` is read by the check alone).
const LOOP_GUARD: &str = "
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 8) return 0;
  int a = 0;
  int i = 0;
  while (i <= n) { // was <
    a = a + 2;
    i = i + 1;
  }
  int limit = 2 * n;
  if (a > limit) reach_error();
  return 0;
}
";

fn check_json(path: &str, extra: &[&str]) -> Value {
    let mut args = vec!["check", "--format", "json"];
    args.extend_from_slice(extra);
    args.push(path);
    let (code, out, err) = focuscheck(&args);
    assert!(matches!(code, 1 | 3), "{args:?}: exit {code}\n{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}):\n{out}"))
}

/// The fixes of the first unsafe condition, best first.
fn fixes(doc: &Value) -> Vec<Value> {
    let cond = *unsafe_conditions(doc).first().expect("the mutant is unsafe");
    cond["fixes"]["fixes"]
        .as_array()
        .expect("the default search ran")
        .clone()
}

/// The report says that the clock cut it: the check, an explanation or
/// the fix search.
fn said_cut(doc: &Value) -> bool {
    let conds = doc["conditions"].as_array().expect("conditions");
    doc["truncated"] == true
        || conds
            .iter()
            .any(|c| c["fixes"]["clock"] == true || c["truncated"] == true)
}

#[test]
fn the_default_localisation_does_not_depend_on_jobs_and_a_timeout_cut_is_said() {
    let dir = temp_dir("budget");
    let src = format!("{HEADER}{LOOP_GUARD}");
    let path = write(&dir, "loop_guard.c", &src);
    let full = check_json(&path, &["--timeout", "300"]);
    let loc = default_localisation(&full).expect("a localisation");
    assert!(loc.contains(&line_of(&src, "// was")), "{loc:?}");
    let one = check_json(&path, &["--timeout", "300", "--jobs", "1"]);
    assert_eq!(default_localisation(&one), Some(loc.clone()));
    assert_eq!(fixes(&one), fixes(&full));
    for t in ["0.001", "0.05", "0.2", "1"] {
        let doc = check_json(&path, &["--timeout", t]);
        let got = default_localisation(&doc);
        assert!(
            got.as_ref() == Some(&loc) || said_cut(&doc),
            "--timeout {t}: {got:?} against {loc:?}, and no cut said: {doc}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_loop_guard_is_mended_first_and_the_checked_value_edit_ranks_last() {
    let dir = temp_dir("guard_first");
    let src = format!("{HEADER}{LOOP_GUARD}");
    let path = write(&dir, "loop_guard.c", &src);
    let doc = check_json(&path, &["--timeout", "300"]);
    let _ = std::fs::remove_dir_all(&dir);
    let (guard, limit) = (line_of(&src, "// was"), line_of(&src, "int limit"));
    let all = fixes(&doc);
    let best = &all[0];
    assert_eq!(
        (&best["line"], &best["from"], &best["to"]),
        (&guard.into(), &"<=".into(), &"<".into()),
        "{all:#?}"
    );
    assert!(best["hides"].is_null(), "{best}");
    // The check's own value edited hides the error: it is found, labelled
    // and ranked after every fix that mends.
    let hiding = all
        .iter()
        .position(|f| !f["hides"].is_null())
        .expect("a fix that hides");
    assert!(all[hiding..].iter().all(|f| !f["hides"].is_null()), "{all:#?}");
    assert!(
        all.iter().any(|f| f["line"] == limit && f["hides"] == "check_value"),
        "{all:#?}"
    );
}
