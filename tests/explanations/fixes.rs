//! `check --fixes`: the fix candidates of confirmed errors, on mutants of
//! small correct programs.
//!
//! Three correct programs in SV-COMP's style (written here) are mutated by
//! this test's own mutator, independent of the tool's edits: one operator
//! swapped (`<`/`<=`, `>`/`>=`, `==`/`!=`, `+`/`-`, written with blanks
//! around them) or one decimal constant off by one, never on the lines of
//! the harness, the inputs or the assertions (the specification). On every
//! mutant whose error `check` confirms (some condition `unsafe`):
//!
//! - the changed line is among the lines the search tried (`searched`);
//! - the change back (at the changed line and column, from the mutant's
//!   token to the original's) is among the fixes, unless a limit cut the
//!   search;
//! - every fix proved `safe`, applied to the mutant, leaves a program the VC
//!   engine alone does not find unsafe.
//!
//! Then: the text report names the fix region, the fixes in the JSON are the
//! same with one job and with two (and on copies of a file), and the SARIF
//! log carries them as SARIF `fixes`.
//!
//! Without `--fixes`, a single file gets a small search by default: on
//! mutants of each kind (an operator, a constant off by one, a wrong
//! variable, a shifted index) the default localisation (the NEST where
//! Reduce narrows it, else the fix region) holds the changed line; fixes
//! that only hide the error rank after those that mend and say so;
//! `--no-fixes` turns the search off; `--timeout` cuts it.

use serde_json::Value;
use std::path::{Path, PathBuf};

use crate::cli;
use cli::focuscheck;

pub(crate) const HEADER: &str = "extern int __VERIFIER_nondet_int(void);
void reach_error(void);
void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }
";

/// A counter that follows an input up to a bound.
const COUNTER: &str = "
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 20) return 0;
  int s = 0;
  for (int i = 0; i < 10; i++) {
    if (s < n) s = s + 1;
  }
  __VERIFIER_assert(s <= 10);
  __VERIFIER_assert(s <= n);
  return 0;
}
";

/// A step function iterated: it ends in the cycle 8, 7, 6, 5.
const STEP: &str = "
int step(int x) {
  if (x < 5) return x + 2;
  if (x == 5) return 8;
  return x - 1;
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x < 0 || x > 9) return 0;
  int k = 0;
  int sum = 0;
  while (k < 6) {
    x = step(x);
    sum = sum + x;
    k = k + 1;
  }
  __VERIFIER_assert(x >= 5);
  __VERIFIER_assert(x <= 8);
  __VERIFIER_assert(k == 6);
  __VERIFIER_assert(sum >= 32);
  __VERIFIER_assert(sum <= 41);
  return 0;
}
";

/// A clamp, and a loop that adds up while the clamped value is positive.
const CLAMP: &str = "
int clamp(int v, int lo, int hi) {
  if (v < lo) return lo;
  if (v > hi) return hi;
  return v;
}

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  if (a < 0 || a > 20) return 0;
  if (b < 0 || b > 20) return 0;
  int c = clamp(a - b, 0, 10);
  int t = 0;
  for (int j = 0; j < 5; j++) {
    if (c > 0) t = t + 2;
  }
  __VERIFIER_assert(c >= 0);
  __VERIFIER_assert(c <= 10);
  __VERIFIER_assert(t <= 10);
  __VERIFIER_assert(t == 0 || c > 0);
  return 0;
}
";

const PROGRAMS: [(&str, &str); 3] = [("counter", COUNTER), ("step", STEP), ("clamp", CLAMP)];

/// Mutants checked in all (spread evenly over the list), to bound the time.
const MAX_MUTANTS: usize = 40;

/// Operators swapped, either way (written with blanks around them).
const SWAPS: [[&str; 2]; 4] = [[" < ", " <= "], [" > ", " >= "], [" == ", " != "], [" + ", " - "]];

/// Lines left alone: the harness, the inputs and their guards, the
/// assertions.
const UNTOUCHED: [&str; 6] = ["__VERIFIER", "reach_error", "assert", "nondet", "#", "return 0"];

/// One single-token change of a program.
struct Mutant {
    text: String,
    /// 1-based line and column (in bytes) of the changed token.
    line: u64,
    column: u64,
    /// The token in the mutant, and in the original.
    from: String,
    to: String,
}

/// Every mutant of `src`, in the order of their places.
fn mutants(src: &str) -> Vec<Mutant> {
    let lines: Vec<&str> = src.split('\n').collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if UNTOUCHED.iter().any(|s| line.contains(s)) {
            continue;
        }
        // (byte offset, original token, mutated token)
        let mut edits: Vec<(usize, String, String)> = Vec::new();
        for [x, y] in SWAPS {
            for (a, b) in [(x, y), (y, x)] {
                for (at, _) in line.match_indices(a) {
                    edits.push((at + 1, a.trim().to_string(), b.trim().to_string()));
                }
            }
        }
        // Decimal constants: words of digits alone.
        let mut start = None;
        for (j, c) in line.char_indices().chain([(line.len(), ' ')]) {
            if c.is_ascii_alphanumeric() || c == '_' {
                start = start.or(Some(j));
            } else if let Some(s) = start.take() {
                let word = &line[s..j];
                if let (Ok(k), false) = (word.parse::<u64>(), c == '.') {
                    for v in [Some(k + 1), k.checked_sub(1)].into_iter().flatten() {
                        edits.push((s, word.to_string(), v.to_string()));
                    }
                }
            }
        }
        edits.sort_by_key(|e| e.0);
        for (at, original, mutated) in edits {
            let new_line = format!("{}{}{}", &line[..at], mutated, &line[at + original.len()..]);
            let mut changed = lines.clone();
            changed[i] = &new_line;
            out.push(Mutant {
                text: changed.join("\n"),
                line: i as u64 + 1,
                column: at as u64 + 1,
                from: mutated,
                to: original,
            });
        }
    }
    out
}

/// At most `n` of `items`, spread evenly over them.
fn spread<T>(items: Vec<T>, n: usize) -> Vec<T> {
    let len = items.len();
    let keep = |i: usize| i * n / len != (i + 1) * n / len;
    items
        .into_iter()
        .enumerate()
        .filter(|(i, _)| keep(*i))
        .map(|(_, x)| x)
        .collect()
}

/// A fresh directory outside the project.
pub(crate) fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("focuscheck-fixes-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub(crate) fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// `check --format json --timeout 20 EXTRA FILES`, parsed.
fn check(files: &[&str], extra: &[&str]) -> Value {
    let mut args = vec!["check", "--format", "json", "--timeout", "20"];
    args.extend_from_slice(extra);
    args.extend_from_slice(files);
    let (code, out, err) = focuscheck(&args);
    assert!(matches!(code, 0 | 1 | 3), "{args:?}: exit {code}\n{err}");
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}):\n{out}\n{err}"))
}

pub(crate) fn unsafe_conditions(doc: &Value) -> Vec<&Value> {
    let conditions = doc["conditions"].as_array().expect("conditions");
    conditions.iter().filter(|c| c["verdict"] == "unsafe").collect()
}

fn lines_of(v: &Value) -> Vec<u64> {
    v.as_array()
        .expect("lines")
        .iter()
        .map(|l| l.as_u64().expect("a line"))
        .collect()
}

/// `text` with `fix` applied: its `from` replaced by its `to` at its line and
/// (1-based, in bytes) column.
fn apply(text: &str, fix: &Value) -> String {
    let line = fix["line"].as_u64().expect("line") as usize;
    let at = fix["column"].as_u64().expect("column") as usize - 1;
    let (from, to) = (fix["from"].as_str().expect("from"), fix["to"].as_str().expect("to"));
    let mut lines: Vec<String> = text.split('\n').map(String::from).collect();
    let l = &mut lines[line - 1];
    assert_eq!(
        l.get(at..at + from.len()),
        Some(from),
        "fix {fix} is not at line {line}: {l}"
    );
    l.replace_range(at..at + from.len(), to);
    lines.join("\n")
}

/// The first mutant of `program` whose mutated text contains `marker`.
fn mutant_with(program: &str, marker: &str) -> Mutant {
    let m = mutants(&format!("{HEADER}{program}"))
        .into_iter()
        .find(|m| m.text.contains(marker));
    m.unwrap_or_else(|| panic!("no mutant has `{marker}`"))
}

#[test]
fn the_change_back_is_a_fix_and_proved_fixes_hold_for_the_vc_engine() {
    let dir = temp_dir("mutants");
    let mut all = Vec::new();
    for (name, body) in PROGRAMS {
        let src = format!("{HEADER}{body}");
        let path = write(&dir, &format!("{name}.c"), &src);
        let doc = check(&[&path], &[]);
        assert!(unsafe_conditions(&doc).is_empty(), "{name} is unsafe: {doc}");
        all.extend(mutants(&src).into_iter().map(|m| (name, m)));
    }
    let chosen = spread(all, MAX_MUTANTS);
    let (mut confirmed, mut proved) = (0, 0);
    let mut failures = Vec::new();
    for (k, (name, m)) in chosen.iter().enumerate() {
        let file = format!("{name}-{k}.c");
        let path = write(&dir, &file, &m.text);
        let doc = check(&[&path], &["--fixes"]);
        let label = format!("{file} (line {}: `{}` for `{}`)", m.line, m.from, m.to);
        let mut fail = |what: String| failures.push(format!("{label}: {what}"));
        let conditions = doc["conditions"].as_array().expect("conditions");
        if conditions
            .iter()
            .any(|c| c["verdict"] != "unsafe" && c.get("fixes").is_some())
        {
            fail("a condition that is not unsafe has `fixes`".into());
        }
        let unsafe_ = unsafe_conditions(&doc);
        confirmed += !unsafe_.is_empty() as usize;
        for fx in unsafe_.iter().map(|c| &c["fixes"]) {
            let Some(fixes) = fx["fixes"].as_array() else {
                fail(format!("an unsafe condition without fixes: {fx}"));
                continue;
            };
            let region = lines_of(&fx["region"]);
            let lines_with_fixes = region.iter().all(|l| fixes.iter().any(|f| f["line"] == *l));
            if !region.is_sorted() || !lines_with_fixes || region.is_empty() != fixes.is_empty() {
                fail(format!("the region is not the sorted lines of fixes: {fx}"));
            }
            if !lines_of(&fx["searched"]).contains(&m.line) {
                fail(format!("the changed line was not searched: {fx}"));
            }
            let back =
                |f: &Value| f["line"] == m.line && f["column"] == m.column && f["from"] == *m.from && f["to"] == *m.to;
            if !fixes.iter().any(back) && fx["cut"] != true {
                fail(format!("the change back is no fix, and the search was not cut: {fx}"));
            }
            for f in fixes.iter().filter(|f| f["proof"] == "safe") {
                proved += 1;
                let fixed = write(&dir, &format!("{name}-{k}-fixed.c"), &apply(&m.text, f));
                if !unsafe_conditions(&check(&[&fixed], &["--engine", "vc"])).is_empty() {
                    fail(format!("{f} is proved safe, but the VC engine finds it unsafe"));
                }
            }
        }
    }
    let n = chosen.len();
    eprintln!("{n} mutants: {confirmed} confirmed, {proved} fixes proved safe");
    assert!(failures.is_empty(), "in {}:\n{}", dir.display(), failures.join("\n"));
    assert!(confirmed >= 10, "only {confirmed} of {n} mutants confirmed");
    assert!(proved >= 10, "only {proved} fixes proved safe");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_text_names_the_fix_region_and_the_fixes_do_not_depend_on_the_jobs() {
    let dir = temp_dir("jobs");
    let a = mutant_with(COUNTER, "i <= 10");
    let b = mutant_with(CLAMP, "j <= 5");
    let path = write(&dir, "a1.c", &a.text);
    let (code, out, err) = focuscheck(&["check", "--fixes", "--timeout", "20", &path]);
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(out.contains("fixes for ") && out.contains("fix region: line"), "{out}");
    write(&dir, "a2.c", &a.text);
    write(&dir, "b1.c", &b.text);
    write(&dir, "b2.c", &b.text);
    // The fixes of each file's unsafe condition.
    let fixes = |jobs: &str| -> Vec<Value> {
        let doc = check(&[dir.to_str().unwrap()], &["--fixes", "--jobs", jobs]);
        let files = doc.as_array().expect("an array of files");
        assert_eq!(files.len(), 4, "{doc:#}");
        let first = |f| unsafe_conditions(f).first().map(|c| c["fixes"].clone());
        files.iter().map(|f| first(f).expect("an unsafe condition")).collect()
    };
    let (one, two) = (fixes("1"), fixes("2"));
    assert_eq!(one, two, "the fixes differ between --jobs 1 and --jobs 2");
    assert!(
        one.iter().all(|f| f["fixes"].as_array().is_some_and(|x| !x.is_empty())),
        "{one:?}"
    );
    assert_eq!(one[0], one[1], "copies of a file have different fixes");
    assert_eq!(one[2], one[3], "copies of a file have different fixes");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_sarif_log_carries_the_fixes() {
    let dir = temp_dir("sarif");
    let m = mutant_with(STEP, "k <= 6");
    let path = write(&dir, "step.c", &m.text);
    let doc = check(&[&path], &["--fixes"]);
    let cond = *unsafe_conditions(&doc).first().expect("the mutant is unsafe");
    let fx = &cond["fixes"];
    let region = lines_of(&fx["region"]);
    let (code, out, err) = focuscheck(&["check", "--fixes", "--format", "sarif", "--timeout", "20", &path]);
    assert_eq!(code, 1, "{err}");
    let log: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}):\n{out}"));
    let results = log["runs"][0]["results"].as_array().expect("results");
    let result = results
        .iter()
        .find(|r| {
            r["properties"]["verdict"] == "unsafe"
                && r["locations"][0]["physicalLocation"]["region"]["startLine"] == cond["line"]
        })
        .unwrap_or_else(|| panic!("no result for the unsafe condition: {log:#}"));
    let change = &result["fixes"][0]["artifactChanges"][0];
    let replacement = &change["replacements"][0];
    let deleted = &replacement["deletedRegion"];
    let line = deleted["startLine"].as_u64().expect("startLine");
    assert!(
        region.contains(&line),
        "line {line} is not in the fix region {region:?}: {result:#}"
    );
    let text = replacement["insertedContent"]["text"]
        .as_str()
        .expect("insertedContent");
    assert!(!text.is_empty(), "{result:#}");
    let uri = change["artifactLocation"]["uri"].as_str().unwrap_or_default();
    assert!(uri.ends_with("step.c"), "{change:#}");
    // The replacement is one of the JSON's fixes: the region its `from`
    // covers (SARIF's endColumn is the column after it), its `to` inserted.
    let same = fx["fixes"].as_array().expect("fixes").iter().any(|f| {
        let from = f["from"].as_str().unwrap_or_default().len() as u64;
        f["line"] == line
            && f["column"] == deleted["startColumn"]
            && deleted["endColumn"].as_u64() == f["column"].as_u64().map(|c| c + from)
            && f["to"] == text
    });
    assert!(same, "the SARIF fix is none of the JSON's: {result:#}\n{fx:#}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Arrays, a maximum and a sum: mutants of every kind can reach the
/// assertions or an access out of bounds.
const ARRAY: &str = "
int main(void) {
  int a[6];
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 5) return 0;
  int lo = 0;
  int hi = n;
  for (int i = 0; i < 6; i++) {
    a[i] = i * 2;
  }
  int m = 0;
  int sum = 0;
  for (int k = lo; k < hi; k++) {
    if (a[k] > m) m = a[k];
    sum = sum + a[k];
  }
  __VERIFIER_assert(m == 2 * (n - 1));
  __VERIFIER_assert(sum == n * (n - 1));
  return 0;
}
";

/// The int locals of the programs, each replaced by another (this test's
/// own list, not the tool's).
const LOCALS: [&str; 11] = ["n", "s", "i", "x", "k", "sum", "lo", "hi", "m", "a", "b"];

/// A mutant's kind, from how it was made.
fn kind(m: &Mutant) -> &'static str {
    if m.from.contains('[') {
        "index"
    } else if m.from.chars().all(|c| c.is_ascii_digit()) {
        "constant"
    } else if m.from.chars().all(|c| c.is_ascii_alphanumeric()) {
        "variable"
    } else {
        "operator"
    }
}

/// `name` is declared an `int` in the function `lines` ends in, before it.
fn declared(lines: &[&str], name: &str) -> bool {
    let start = lines
        .iter()
        .rposition(|l| !l.starts_with(' ') && l.ends_with('{'))
        .unwrap_or(0);
    lines[start..].iter().any(|l| {
        l.match_indices(&format!("int {name}"))
            .any(|(j, m)| !l[j + m.len()..].starts_with(|c: char| c.is_ascii_alphanumeric()))
    })
}

/// Mutants `mutants` does not make: a read of a local replaced by another
/// local, an index `[v]` shifted to `[v + 1]` or `[v - 1]`.
fn more_mutants(src: &str) -> Vec<Mutant> {
    let lines: Vec<&str> = src.split('\n').collect();
    let mut out = Vec::new();
    let mut push = |i: usize, at: usize, original: &str, mutated: String| {
        let line: &str = lines[i];
        let new_line = format!("{}{}{}", &line[..at], mutated, &line[at + original.len()..]);
        let mut changed = lines.clone();
        changed[i] = &new_line;
        out.push(Mutant {
            text: changed.join("\n"),
            line: i as u64 + 1,
            column: at as u64 + 1,
            from: mutated,
            to: original.to_string(),
        });
    };
    for (i, line) in lines.iter().enumerate() {
        let declares = line.trim_start().starts_with("int ");
        if UNTOUCHED.iter().any(|s| line.contains(s)) || declares {
            continue;
        }
        let words = line
            .char_indices()
            .filter(|&(j, c)| c.is_ascii_alphabetic() && (j == 0 || !line.as_bytes()[j - 1].is_ascii_alphanumeric()));
        for (j, _) in words {
            let end = line[j..]
                .find(|c: char| !c.is_ascii_alphanumeric())
                .map_or(line.len(), |e| j + e);
            let word = &line[j..end];
            let read = !line[end..].trim_start().starts_with('=') || line[end..].trim_start().starts_with("==");
            if LOCALS.contains(&word) && word != "a" && read {
                for other in LOCALS
                    .iter()
                    .filter(|o| **o != word && **o != "a" && declared(&lines[..i], o))
                {
                    push(i, j, word, other.to_string());
                }
            }
        }
        for (j, _) in line.match_indices('[') {
            let close = j + line[j..].find(']').expect("a closing bracket");
            let inner = &line[j + 1..close];
            for d in ["+ 1", "- 1"] {
                push(i, j, &line[j..=close], format!("[{inner} {d}]"));
            }
        }
    }
    out
}

/// The default localisation of a check's JSON: the top NEST where Reduce
/// narrows it (`at` set), else the fix region, else the top NEST.
pub(crate) fn default_localisation(doc: &Value) -> Option<Vec<u64>> {
    let cond = unsafe_conditions(doc)
        .into_iter()
        .find(|c| c["fss"].as_array().is_some_and(|f| !f.is_empty()))?;
    let top = cond["reduced"]
        .as_array()
        .and_then(|r| r.first())
        .unwrap_or(&cond["fss"][0]);
    let nest = lines_of(&top["nest"]);
    if !top["at"].is_null() {
        return Some(nest);
    }
    let region = cond["fixes"]["region"]
        .as_array()
        .map(|_| lines_of(&cond["fixes"]["region"]));
    Some(region.filter(|r| !r.is_empty()).unwrap_or(nest))
}

/// Mutants of each kind per program, at most.
const PER_KIND: usize = 3;

#[test]
fn the_default_localisation_holds_the_changed_line_for_mutants_of_each_kind() {
    let dir = temp_dir("default");
    let mut by_kind: std::collections::BTreeMap<&str, (usize, usize, Vec<String>)> = Default::default();
    for (name, body) in [("counter", COUNTER), ("clamp", CLAMP), ("array", ARRAY)] {
        let src = format!("{HEADER}{body}");
        let mut all = mutants(&src);
        all.extend(more_mutants(&src));
        for k in ["operator", "constant", "variable", "index"] {
            let of_kind: Vec<Mutant> = all
                .iter()
                .filter(|m| kind(m) == k)
                .map(|m| Mutant {
                    text: m.text.clone(),
                    line: m.line,
                    column: m.column,
                    from: m.from.clone(),
                    to: m.to.clone(),
                })
                .collect();
            if of_kind.is_empty() {
                continue;
            }
            for (j, m) in spread(of_kind, PER_KIND).into_iter().enumerate() {
                let file = format!("{name}-{k}-{j}.c");
                let doc = check(&[&write(&dir, &file, &m.text)], &[]);
                let Some(loc) = default_localisation(&doc) else {
                    continue;
                };
                let entry = by_kind.entry(k).or_default();
                entry.0 += 1;
                if loc.contains(&m.line) {
                    entry.1 += 1;
                } else {
                    entry.2.push(format!(
                        "{file}: line {} (`{}` for `{}`) not in {loc:?}",
                        m.line, m.from, m.to
                    ));
                }
            }
        }
    }
    eprintln!("{by_kind:?}");
    // Reduce may narrow to a NEST without the line (a constant of the
    // caller, its NEST in the callee): one miss a kind is allowed, not
    // more than a tenth in all.
    let (mut confirmed_all, mut hit_all) = (0, 0);
    for k in ["operator", "constant", "variable", "index"] {
        let (confirmed, hit, misses) = by_kind.get(k).cloned().unwrap_or_default();
        assert!(confirmed >= 2, "{k}: only {confirmed} mutants confirmed with an FSS");
        assert!(
            hit + 1 >= confirmed,
            "{k}: {hit} of {confirmed} in {}:\n{}",
            dir.display(),
            misses.join("\n")
        );
        (confirmed_all, hit_all) = (confirmed_all + confirmed, hit_all + hit);
    }
    assert!(
        hit_all * 10 >= confirmed_all * 9,
        "{hit_all} of {confirmed_all}: {by_kind:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A fault (`+ 2` for `+ 1`) an input guard or an empty loop can hide.
const HIDE: &str = "
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 1) return 0;
  int s = 0;
  for (int i = 0; i < n; i++) {
    s = s + 2;
  }
  __VERIFIER_assert(s <= n);
  return 0;
}
";

#[test]
fn fixes_that_only_hide_the_error_rank_after_those_that_mend_and_say_so() {
    let dir = temp_dir("hide");
    let src = format!("{HEADER}{HIDE}");
    let path = write(&dir, "hide.c", &src);
    let line_of = |s: &str| src.split('\n').position(|l| l.contains(s)).expect("a line") as u64 + 1;
    let (guard, for_, body) = (line_of("n > 1"), line_of("for ("), line_of("s + 2"));
    let doc = check(&[&path], &[]);
    let cond = *unsafe_conditions(&doc).first().expect("the program is unsafe");
    let fixes = cond["fixes"]["fixes"].as_array().expect("the default search ran");
    let hides = |f: &Value| f["hides"].as_str().map(String::from);
    let first_hiding = fixes.iter().position(|f| hides(f).is_some()).expect("a fix that hides");
    assert!(fixes[first_hiding..].iter().all(|f| hides(f).is_some()), "{fixes:#?}");
    assert!(
        fixes[..first_hiding]
            .iter()
            .any(|f| f["line"] == body && f["from"] == "2" && f["to"] == "1"),
        "the mend `2` -> `1` is not before the hiding fixes: {fixes:#?}"
    );
    let kind_at = |line: u64| {
        fixes
            .iter()
            .filter(|f| f["line"] == line)
            .filter_map(hides)
            .collect::<Vec<_>>()
    };
    assert!(
        kind_at(guard).iter().all(|h| h == "input_guard") && !kind_at(guard).is_empty(),
        "{fixes:#?}"
    );
    assert!(kind_at(for_).iter().any(|h| h == "loop_skipped"), "{fixes:#?}");
    assert_eq!(lines_of(&cond["fixes"]["region"]), vec![body], "{fixes:#?}");
    // Each edit is a one-line diff of its line.
    for f in fixes {
        let old = src.split('\n').nth(f["line"].as_u64().unwrap() as usize - 1).unwrap();
        assert_eq!(f["old"], old, "{f}");
        assert_eq!(
            f["new"].as_str(),
            apply(&src, f).split('\n').nth(f["line"].as_u64().unwrap() as usize - 1),
            "{f}"
        );
    }
    // The labels in text (`--fixes`: the default report shows the best
    // three, which mend).
    let (code, out, err) = focuscheck(&["check", "--fixes", "--timeout", "20", &path]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("hides the error: an input guard is changed"), "{out}");
    assert!(out.contains("hides the error: a loop runs zero times"), "{out}");
    assert!(
        out.contains(&format!("hide.c:{body}:13")) && out.contains("- s = s + 2;") && out.contains("+ s = s + 1;"),
        "{out}"
    );
    let (_, out, _) = focuscheck(&["check", "--format", "sarif", "--timeout", "20", &path]);
    let log: Value = serde_json::from_str(&out).expect("SARIF");
    let sarif_fixes = log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .flat_map(|r| r["fixes"].as_array().cloned().unwrap_or_default())
        .collect::<Vec<_>>();
    assert!(
        sarif_fixes.iter().any(|f| f["properties"]["hides"] == "input_guard"),
        "{out}"
    );
    let html = dir.join("html");
    let (code, _, err) = focuscheck(&["check", "--timeout", "20", "--html", html.to_str().unwrap(), &path]);
    assert_eq!(code, 1, "{err}");
    let pages: String = std::fs::read_dir(html.join("files"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap_or_default())
        .collect();
    assert!(pages.contains("hides the error: an input guard is changed") && pages.contains("- s = s + 2;"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_fixes_turns_the_default_search_off_and_a_batch_has_none() {
    let dir = temp_dir("nofixes");
    let path = write(&dir, "hide.c", &format!("{HEADER}{HIDE}"));
    let has_fixes = |doc: &Value| {
        unsafe_conditions(doc)
            .iter()
            .any(|c| c.get("fixes").is_some_and(|f| !f.is_null()))
    };
    assert!(has_fixes(&check(&[&path], &[])));
    assert!(!has_fixes(&check(&[&path], &["--no-fixes"])));
    let (code, out, err) = focuscheck(&["check", "--no-fixes", "--timeout", "20", &path]);
    assert_eq!(code, 1, "{err}");
    assert!(!out.contains("fixes for"), "{out}");
    write(&dir, "copy.c", &format!("{HEADER}{HIDE}"));
    let batch = check(&[dir.to_str().unwrap()], &[]);
    assert!(
        batch.as_array().expect("files").iter().all(|f| !has_fixes(f)),
        "{batch:#}"
    );
    let (code, _, err) = focuscheck(&["check", "--fixes", "--no-fixes", &path]);
    assert_eq!(code, 2, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A bug found at once whose edits are slow to check again (loops of
/// 100,000 iterations).
const SLOW: &str = "
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 0 || n > 100000) return 0;
  int s = 0;
  int t = 0;
  for (int i = 0; i < 100000; i++) {
    if (s < n) s = s + 1;
    if (t < s) t = t + 2;
  }
  __VERIFIER_assert(t <= n);
  return 0;
}
";

#[test]
fn the_timeout_bounds_the_fix_search_and_the_report_says_it_was_cut() {
    let dir = temp_dir("timeout");
    let path = write(&dir, "slow.c", &format!("{HEADER}{SLOW}"));
    let started = std::time::Instant::now();
    let (code, out, err) = focuscheck(&["check", "--format", "json", "--fixes", "--timeout", "3", &path]);
    assert!(matches!(code, 1 | 3), "{err}");
    // The whole check keeps to it: every stage of the search looks at the
    // clock (a search for missing assignments that scanned the 100,000
    // iterations back for each read ran past two minutes). Ten times the
    // timeout leaves room for a loaded machine.
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(30), "--timeout 3 took {took:?}");
    let doc: Value = serde_json::from_str(&out).expect("JSON");
    let cond = *unsafe_conditions(&doc).first().expect("the bug is found");
    let fx = &cond["fixes"];
    assert!(fx["cut"] == true && fx["clock"] == true, "{fx:#}");
    let (_, out, _) = focuscheck(&["check", "--fixes", "--timeout", "3", &path]);
    assert!(out.contains("the search was cut by --timeout"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The edits of a list program (pointer comparisons, a variable of
/// another type put in a pointer's place) never stop the check: an
/// edited comparison of a pointer with an integer was an internal error
/// of the memory model, which cost the file its verdicts once the fix
/// search ran by default.
#[test]
fn edits_of_pointer_comparisons_never_lose_the_report() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/svcomp-heap");
    assert!(root.is_dir(), "../shared/corpus/svcomp-heap is missing");
    for task in ["forester-heap/sll-buckets-2.i", "heap-manipulation/tree-4.i"] {
        let path = root.join(task);
        let (code, out, err) = focuscheck(&["check", "--timeout", "60", path.to_str().expect("utf-8")]);
        assert!(
            !err.contains("internal error") && !out.contains("internal error"),
            "{task}:\n{out}{err}"
        );
        assert_eq!(code, 1, "{task}: the bug is found\n{out}{err}");
        assert!(out.contains("unsafe: call `reach_error()`"), "{task}:\n{out}");
    }
}
