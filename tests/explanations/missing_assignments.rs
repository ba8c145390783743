//! A deleted assignment in the default report: no FSS and no one-token edit
//! can hold a statement that is not there, so where the error reads a
//! local of `main` no statement of its run wrote, the report says so and
//! names where the assignment belongs (`fixes.missing`, its lines in the
//! fix region).
//!
//! Small correct programs (written here) are mutated by this test's own
//! mutator: each assignment statement of the logic, one at a time, left as
//! `;`. For every confirmed mutant whose deleted assignment was the only
//! one of its variable written in the program, the default localisation
//! (the fix region) holds the deleted line, and `missing` names the
//! variable, its declaration before the line and its read after it. A
//! mutant that changes an operator reads nothing unwritten: no `missing`.

use serde_json::Value;

use crate::cli::focuscheck;

const HEADER: &str = "extern int __VERIFIER_nondet_int(void);
void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
";

/// An array filled by a loop, then read at an input index.
const FILL: &str = "int main(void) {
  int a[8];
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 7) return 0;
  for (int i = 0; i < 8; i++) {
    a[i] = 3;
  }
  int k;
  k = n;
  __VERIFIER_assert(a[k] == 3);
  return 0;
}
";

/// A copy loop.
const COPY: &str = "int main(void) {
  int src[6];
  int dst[6];
  for (int i = 0; i < 6; i++) {
    src[i] = __VERIFIER_nondet_int();
  }
  for (int j = 0; j < 6; j++) {
    dst[j] = src[j];
  }
  int x = __VERIFIER_nondet_int();
  if (x < 0 || x > 5) return 0;
  __VERIFIER_assert(dst[x] == src[x]);
  return 0;
}
";

/// A sum by counting (SV-COMP's hhk2008 in small).
const COUNT: &str = "int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  if (a < 0 || a > 100 || b < 0 || b > 100) return 0;
  int res, cnt;
  res = a;
  cnt = b;
  while (cnt > 0) {
    cnt = cnt - 1;
    res = res + 1;
  }
  __VERIFIER_assert(res == a + b);
  return 0;
}
";

/// Elements set on two branches of a loop's body.
const BRANCHES: &str = "int main(void) {
  int d[5];
  int s = __VERIFIER_nondet_int();
  if (s < 0 || s > 4) return 0;
  for (int i = 0; i < 5; i++) {
    if (i == s) {
      d[i] = 0;
    } else {
      d[i] = 100;
    }
  }
  int t = __VERIFIER_nondet_int();
  if (t < 0 || t > 4) return 0;
  __VERIFIER_assert(d[t] >= 0);
  return 0;
}
";

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("focuscheck-missing-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The assigned variable of an assignment statement line (`x = e;`,
/// `a[i] = e;`), not a declaration, a `for` or the harness.
fn assigned(line: &str) -> Option<&str> {
    let t = line.trim();
    let (lhs, rhs) = t.split_once(" = ")?;
    let name = lhs.split('[').next()?;
    let plain = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !name.is_empty();
    (plain && t.ends_with(';') && !rhs.contains("nondet")).then_some(name)
}

/// Lines of `text` (1-based) that assign `name`.
fn writes_of(text: &str, name: &str) -> usize {
    text.lines().filter(|l| assigned(l) == Some(name)).count()
}

/// The first unsafe condition's JSON, and the SARIF and text reports.
fn check(path: &str) -> Option<(Value, Value, String)> {
    let run = |format: &str| {
        let (code, out, err) = focuscheck(&["check", "--format", format, "--timeout", "20", path]);
        assert!(matches!(code, 0 | 1 | 3), "{path}: exit {code}\n{err}");
        out
    };
    let doc: Value = serde_json::from_str(&run("json")).expect("JSON");
    let cond = doc["conditions"]
        .as_array()
        .expect("conditions")
        .iter()
        .find(|c| c["verdict"] == "unsafe")?
        .clone();
    let sarif: Value = serde_json::from_str(&run("sarif")).expect("SARIF");
    Some((cond, sarif, run("text")))
}

fn lines(v: &Value) -> Vec<u64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_u64).collect())
        .unwrap_or_default()
}

#[test]
fn a_deleted_assignment_is_named_where_it_belongs() {
    let dir = temp_dir("deleted");
    let mut checked = 0;
    for (name, body) in [("fill", FILL), ("copy", COPY), ("count", COUNT), ("branches", BRANCHES)] {
        let src = format!("{HEADER}{body}");
        let all: Vec<&str> = src.lines().collect();
        for (i, line) in all.iter().enumerate() {
            let Some(var) = assigned(line) else { continue };
            // The only write of its variable, or an element of an array
            // whose other writes remain (the loop skipped this one).
            let only = writes_of(&src, var) == 1;
            let element = line.contains('[');
            let mut text: Vec<&str> = all.clone();
            text[i] = "    ;";
            let file = dir.join(format!("{name}-{}.c", i + 1));
            std::fs::write(&file, text.join("\n") + "\n").unwrap();
            let path = file.to_str().unwrap();
            let Some((cond, sarif, report)) = check(path) else {
                continue;
            };
            if !(only || element) {
                continue;
            }
            let at = (i + 1) as u64;
            let fixes = &cond["fixes"];
            let missing = fixes["missing"].as_array().unwrap_or_else(|| {
                panic!("{path}: deleting line {at} ({line}) gives no missing assignment:\n{report}")
            });
            let m = missing
                .iter()
                .find(|m| lines(&m["lines"]).contains(&at))
                .unwrap_or_else(|| panic!("{path}: line {at} not where a missing assignment belongs:\n{report}"));
            assert_eq!(m["variable"], var, "{path}");
            let (declared, read) = (m["declared"].as_u64().unwrap(), m["read"].as_u64().unwrap());
            assert!(
                lines(&m["lines"]).iter().all(|&l| declared <= l && l < read),
                "{path}: {m}"
            );
            assert!(
                lines(&fixes["region"]).contains(&at),
                "{path}: region {}",
                fixes["region"]
            );
            assert!(
                report.contains(&format!("missing assignment: `{var}` is read at line {read}")),
                "{path}:\n{report}"
            );
            let results = sarif["runs"][0]["results"].as_array().cloned().unwrap_or_default();
            let related: Vec<Value> = results
                .iter()
                .filter_map(|r| r["relatedLocations"].as_array())
                .flatten()
                .cloned()
                .collect();
            assert!(
                related.iter().any(|r| {
                    r["physicalLocation"]["region"]["startLine"] == at
                        && r["message"]["text"]
                            .as_str()
                            .is_some_and(|t| t.starts_with("missing assignment"))
                }),
                "{path}: no SARIF related location at line {at}"
            );
            checked += 1;
        }
    }
    // Six candidates (fill: a[i] = 3, k = n; copy: dst[j] = src[j];
    // count: res = a, cnt = b; branches: two element writes); at least
    // five are confirmed with the default --timeout 20 on a loaded machine.
    assert!(checked >= 5, "only {checked} deletions confirmed and checked");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_operator_fault_reads_nothing_unwritten() {
    let dir = temp_dir("operator");
    for (name, body, from, to) in [
        ("count", COUNT, "res = res + 1", "res = res + 2"),
        ("copy", COPY, "dst[j] = src[j]", "dst[j] = src[j] + 1"),
    ] {
        let file = dir.join(format!("{name}.c"));
        std::fs::write(&file, format!("{HEADER}{}", body.replace(from, to))).unwrap();
        let path = file.to_str().unwrap();
        let (cond, _, report) = check(path).unwrap_or_else(|| panic!("{path}: not confirmed"));
        assert!(cond["fixes"]["missing"].is_null(), "{path}:\n{report}");
        assert!(!report.contains("missing assignment"), "{path}:\n{report}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
