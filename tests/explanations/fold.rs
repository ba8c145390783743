//! Folded repetition (`views/fold.rs`) against the real run: on a loop of
//! 100,000 iterations with its bug at the end and on a recursion, the
//! folded trace and FSS unfold to what `--full-trace` prints: every step
//! accounted for, each repetition's runs the same statements as its first,
//! its first and last runs the real ones, its count and value ranges those
//! of the replayed trace; and the default report stays small.

use crate::cli;

use serde_json::Value;

const LOOP: &str = "int main(void) {
  int i = 0;
  int s = 0;
  while (i < 100000) {
    s = s + 3;
    i = i + 1;
  }
  __VERIFIER_assert(s != 300000);
  return 0;
}
";

const RECURSION: &str = "int sum(int n) {
  if (n <= 0)
    return 0;
  return n + sum(n - 1);
}
int main(void) {
  int r = sum(60);
  __VERIFIER_assert(r != 1830);
  return 0;
}
";

fn json(args: &[&str]) -> Value {
    let (code, out, err) = cli::focuscheck(args);
    assert_eq!(code, 1, "unsafe expected: {err}");
    serde_json::from_str(&out).expect("JSON")
}

/// A trace line or statement as `--full-trace` would print it: its
/// position, kind and text.
fn shape(x: &Value) -> (u64, u64, String, String) {
    (
        x["line"].as_u64().unwrap_or(0),
        x["column"].as_u64().unwrap_or(0),
        x["kind"].to_string(),
        x["text"].to_string(),
    )
}

/// Key of a step: where it is and what kind (its values left out).
fn key(x: &Value) -> (u64, u64, String) {
    (
        x["line"].as_u64().unwrap_or(0),
        x["column"].as_u64().unwrap_or(0),
        x["kind"].to_string(),
    )
}

/// The `name = v` values a step's text shows, e.g. `(s = 3)`, `sum(n = 4)`,
/// `Returned from sum with 10` (as `sum()`).
fn values(x: &Value) -> Vec<(String, i64)> {
    let t = x["text"].as_str().unwrap_or("");
    let mut out = Vec::new();
    if let Some(rest) = t.strip_prefix("Returned from ") {
        if let Some((f, v)) = rest.split_once(" with ") {
            out.push((format!("{f}()"), v.parse().expect("a value")));
        }
        return out;
    }
    if t.starts_with("Evaluated") {
        return out;
    }
    if let (Some(open), true) = (t.rfind('('), t.ends_with(')')) {
        for part in t[open + 1..t.len() - 1].split(", ") {
            if let Some((n, v)) = part.split_once(" = ") {
                if let Ok(v) = v.parse() {
                    out.push((n.to_string(), v));
                }
            }
        }
    }
    out
}

/// Checks a folded sequence against the unfolded one from `at`; returns
/// where it ends in `full`.
fn unfolds(folded: &[Value], full: &[Value], mut at: usize) -> usize {
    for x in folded {
        let Some(r) = x.get("repeat") else {
            assert!(x.get("omitted").is_none(), "nothing is left out of these runs");
            assert_eq!(shape(x), shape(&full[at]), "step {at}");
            at += 1;
            continue;
        };
        let first = r["first"].as_array().expect("first");
        let last = r["last"].as_array().expect("last");
        let count = r["count"].as_u64().expect("count");
        let steps = r["steps"].as_u64().expect("steps") as usize;
        let run = full[at..at + first.len()].iter().map(key).collect::<Vec<_>>();
        let start = at;
        // The first run in full, then runs of the same statements, then
        // the last run in full.
        at = unfolds(first, full, at);
        for _ in 2..count {
            let here: Vec<_> = full[at..at + run.len()].iter().map(key).collect();
            assert_eq!(here, run, "a hidden run at step {at} is not the first run's statements");
            at += run.len();
        }
        at = unfolds(last, full, at);
        assert_eq!(at - start, steps, "the repetition's step count");
        // Each range is the least and greatest value of its name over the
        // repetition's steps.
        for range in r["ranges"].as_array().expect("ranges") {
            let name = range["name"].as_str().expect("name");
            let seen: Vec<i64> = full[start..at]
                .iter()
                .flat_map(values)
                .filter(|(n, _)| n == name)
                .map(|(_, v)| v)
                .collect();
            assert!(!seen.is_empty(), "{name} is a value of the run");
            assert_eq!(range["min"].as_i64(), seen.iter().min().copied(), "{name}: {range}");
            assert_eq!(range["max"].as_i64(), seen.iter().max().copied(), "{name}: {range}");
        }
    }
    at
}

fn check_unfolds(folded: &Value, full: &Value) {
    let full = full.as_array().expect("full");
    let end = unfolds(folded.as_array().expect("folded"), full, 0);
    assert_eq!(end, full.len(), "every step is accounted for");
}

fn repeat_counts(xs: &Value, out: &mut Vec<u64>) {
    for x in xs.as_array().into_iter().flatten() {
        if let Some(r) = x.get("repeat") {
            out.push(r["count"].as_u64().expect("count"));
            repeat_counts(&r["first"], out);
            repeat_counts(&r["last"], out);
        }
    }
}

#[test]
fn a_long_loop_folds_to_its_count_and_ranges_and_unfolds_to_the_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = cli::write(dir.path(), "loop.c", LOOP);
    let args = ["check", file.as_str(), "--engine", "vc", "--format", "json"];
    let folded = json(&args);
    let full = json(&[&args[..], &["--full-trace"]].concat());
    let (f, u) = (&folded["conditions"][0], &full["conditions"][0]);
    assert_eq!(f["verdict"], "unsafe");
    check_unfolds(&f["trace"], &u["trace"]);
    let mut counts = Vec::new();
    repeat_counts(&f["trace"], &mut counts);
    assert_eq!(counts, vec![100_000], "one repetition of every iteration");
    let r = f["trace"]
        .as_array()
        .and_then(|t| t.iter().find_map(|x| x.get("repeat")))
        .expect("a repetition");
    let ranges: Vec<(String, i64, i64)> = r["ranges"]
        .as_array()
        .expect("ranges")
        .iter()
        .map(|x| {
            (
                x["name"].as_str().unwrap_or("").to_string(),
                x["min"].as_i64().unwrap_or(0),
                x["max"].as_i64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(
        ranges,
        vec![("s".to_string(), 3, 300_000), ("i".to_string(), 1, 100_000)]
    );
    // Small by default, whatever the number of iterations.
    let json_size = serde_json::to_string(&folded).expect("text").len();
    assert!(json_size < 20_000, "{json_size} bytes");
    let (_, text, _) = cli::focuscheck(&["check", file.as_str(), "--engine", "vc", "--view", "full"]);
    assert!(text.lines().count() < 60, "{text}");
    assert!(
        text.contains("lines 4-6 × 100000: `s` from 3 to 300000, `i` from 1 to 100000"),
        "{text}"
    );
    assert!(text.contains("... 99998 more runs ..."), "{text}");
    let (_, every, _) = cli::focuscheck(&[
        "check",
        file.as_str(),
        "--engine",
        "vc",
        "--view",
        "full",
        "--full-trace",
    ]);
    assert!(every.lines().count() > 400_000, "--full-trace prints every step");
}

#[test]
fn a_recursion_folds_and_unfolds_to_the_run_in_trace_and_fss() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = cli::write(dir.path(), "rec.c", RECURSION);
    let args = ["check", file.as_str(), "--format", "json"];
    let folded = json(&args);
    let full = json(&[&args[..], &["--full-trace"]].concat());
    let (f, u) = (&folded["conditions"][0], &full["conditions"][0]);
    check_unfolds(&f["trace"], &u["trace"]);
    let mut counts = Vec::new();
    repeat_counts(&f["trace"], &mut counts);
    // 60 calls down (one per n from 60 to 1) and 60 returns up.
    assert_eq!(counts, vec![60, 60], "{}", f["trace"]);
    let fss = f["fss"].as_array().expect("FSSs");
    let full_fss = u["fss"].as_array().expect("FSSs");
    assert!(!fss.is_empty());
    for (a, b) in fss.iter().zip(full_fss) {
        check_unfolds(&a["statements"], &b["statements"]);
        check_unfolds(&a["trace"], &b["trace"]);
        assert!(
            a["statements"].as_array().map_or(0, Vec::len) < 20,
            "{}",
            a["statements"]
        );
    }
    let (_, text, _) = cli::focuscheck(&["check", file.as_str(), "--view", "fss"]);
    assert!(text.contains("×60"), "{text}");
    assert!(text.lines().count() < 60, "{text}");
}

/// A loop testing the same input in every iteration: the test's value is
/// one value, not one per iteration.
const SAME_TEST: &str = "int main(void) {
  unsigned int y = __VERIFIER_nondet_uint();
  unsigned int x = 0;
  while (x < 500) {
    if (y % 3 == 1)
      x += 3;
    else
      x++;
  }
  __VERIFIER_assert(x != 500);
  return 0;
}
";

#[test]
fn a_test_repeated_in_a_loop_is_one_assumption() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = cli::write(dir.path(), "same.c", SAME_TEST);
    let doc = json(&["check", file.as_str(), "--format", "json"]);
    let c = &doc["conditions"][0];
    assert_eq!(c["verdict"], "unsafe");
    let fss = c["fss"].as_array().expect("FSSs");
    assert!(!fss.is_empty(), "{c}");
    let texts: Vec<&str> = fss[0]["assumptions"]
        .as_array()
        .expect("assumptions")
        .iter()
        .filter_map(|a| a["text"].as_str())
        .collect();
    assert_eq!(texts.len(), 1, "{texts:?}");
    assert!(texts[0].contains("% 3"), "{texts:?}");
    // The run that explains it has such a y (0 % 3 != 1).
    let (_, text, _) = cli::focuscheck(&["check", file.as_str()]);
    assert!(text.lines().all(|l| l.len() < 400), "{text}");
    assert_eq!(text.matches("assumes y@2 % 3").count(), 1, "{text}");
}

/// An input drawn in every iteration: one assumption per draw, shown as
/// one folded line (JSON: `folded`; `--full-trace` lists each).
const DRAWS: &str = "int main(void) {
  int total = 0;
  int i = 0;
  while (i < 30) {
    int v = __VERIFIER_nondet_int();
    if (v < 200 || v > 300) return 0;
    total = total + v;
    i = i + 1;
  }
  if (total > 8000) reach_error();
  return 0;
}
";

#[test]
fn an_input_drawn_in_every_iteration_is_one_folded_assumption() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = cli::write(dir.path(), "draws.c", DRAWS);
    let doc = json(&["check", file.as_str(), "--format", "json"]);
    let c = &doc["conditions"][0];
    let fss = c["fss"].as_array().expect("FSSs");
    assert!(!fss.is_empty(), "{c}");
    let lower: Vec<&str> = fss[0]["assumptions"]
        .as_array()
        .expect("assumptions")
        .iter()
        .filter_map(|a| a["text"].as_str())
        .filter(|t| t.ends_with(">= 200 for the 1st..30th values"))
        .collect();
    assert_eq!(lower.len(), 1, "JSON folds the draws' assumptions: {lower:?}");
    let full = json(&["check", file.as_str(), "--format", "json", "--full-trace"]);
    let each = full["conditions"][0]["fss"][0]["assumptions"]
        .as_array()
        .expect("assumptions")
        .iter()
        .filter_map(|a| a["text"].as_str())
        .filter(|t| t.ends_with(">= 200"))
        .count();
    assert_eq!(each, 30, "--full-trace keeps one per draw");
    let (_, text, _) = cli::focuscheck(&["check", file.as_str()]);
    assert!(text.contains("v@5 >= 200 for the 1st..30th values"), "{text}");
    assert!(text.lines().all(|l| l.len() < 600), "{text}");
    let out = dir.path().join("html");
    let out = out.to_string_lossy();
    cli::focuscheck(&["check", file.as_str(), "--html", &out]);
    let html = std::fs::read_to_string(dir.path().join("html").join("files").join("0001-draws.c.html"))
        .expect("the file's page");
    assert!(html.contains("v@5 &gt;= 200 for the 1st..30th values"), "{html}");
    let (_, sarif, _) = cli::focuscheck(&["check", file.as_str(), "--format", "sarif"]);
    assert!(sarif.contains("v@5 >= 200 for the 1st..30th values"), "{sarif}");
}

/// Two arrays of inputs compared element by element: runs with every
/// input 0 or 1 pass, the sampled run from seed 1 fails.
const SEEDED: &str = "int main(void) {
  int a[1000];
  int b[1000];
  for (int i = 0; i < 1000; i++) {
    a[i] = __VERIFIER_nondet_int();
    b[i] = __VERIFIER_nondet_int();
  }
  for (int j = 0; j < 1000; j++)
    __VERIFIER_assert(a[j] == b[j]);
  return 0;
}
";

#[test]
fn a_sampled_run_is_replayed_by_its_seed_and_not_listed() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = cli::write(dir.path(), "seeded.c", SEEDED);
    let base = [
        "check",
        file.as_str(),
        "--property",
        "unreach-call",
        "--max-states",
        "500",
    ];
    let (_, text, _) = cli::focuscheck(&base);
    assert!(text.contains("a sampled run (inputs drawn from seed 1)"), "{text}");
    let replay = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("replay: focuscheck "))
        .expect("a replay command");
    assert!(replay.ends_with("--seed 1"), "{replay}");
    let args: Vec<&str> = replay.split_whitespace().collect();
    let (_, run, _) = cli::focuscheck(&args);
    assert!(run.contains("result: error: assertion"), "{run}");
    assert!(text.lines().all(|l| l.len() < 400), "{text}");
    // The FSS's own witness: a few values, then the rest filled.
    assert!(text.contains("--fill 0"), "{text}");
    // The sampled run itself is the condition's counterexample when nothing
    // is explained.
    let doc = json(&[&base[..], &["--format", "json", "--no-explain"]].concat());
    let c = &doc["conditions"][0];
    assert_eq!(c["seed"], 1);
    assert_eq!(c["choices_omitted"], 2000);
    assert_eq!(c["choices"].as_array().map(Vec::len), Some(0));
    assert_eq!(c["unread_inputs"], 2000);
    let size = serde_json::to_string(&doc).expect("text").len();
    assert!(size < 100_000, "{size} bytes");
    let full = json(&[&base[..], &["--format", "json", "--no-explain", "--full-trace"]].concat());
    assert_eq!(full["conditions"][0]["choices"].as_array().map(Vec::len), Some(2000));
    // With `!=`, the run with every choice 0 fails: its choices are all 0.
    let other = cli::write(dir.path(), "filled.c", &SEEDED.replace("a[j] == b[j]", "a[j] != b[j]"));
    let doc = json(&[
        "check",
        other.as_str(),
        "--property",
        "unreach-call",
        "--max-states",
        "500",
        "--no-explain",
        "--format",
        "json",
    ]);
    let c = &doc["conditions"][0];
    assert!(
        c["reason"].as_str().unwrap_or("").contains("every input and choice 0"),
        "{c}"
    );
    assert_eq!(c["choices_omitted"], 2000);
    assert_eq!(c["choices_fill"], 0);
    assert_eq!(c["choices"].as_array().map(Vec::len), Some(0));
}

/// The FSS's witness of `SEEDED` found by the search: a few values, then
/// zeros. JSON lists the values before the zeros and counts the zeros
/// (`choices_fill`), for the condition and its FSS alike, and those values
/// with `--fill` replay the run.
#[test]
fn a_long_run_of_one_value_ends_the_listed_choices() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = cli::write(dir.path(), "seeded.c", SEEDED);
    let doc = json(&[
        "check",
        file.as_str(),
        "--property",
        "unreach-call",
        "--max-states",
        "500",
        "--format",
        "json",
    ]);
    let size = serde_json::to_string(&doc).expect("text").len();
    assert!(size < 100_000, "{size} bytes");
    let c = &doc["conditions"][0];
    for (what, v) in [("condition", c), ("FSS", &c["fss"][0])] {
        let listed: Vec<String> = v["choices"]
            .as_array()
            .unwrap_or_else(|| panic!("{what}: choices in {v}"))
            .iter()
            .map(|x| x.to_string())
            .collect();
        let omitted = v["choices_omitted"].as_u64().unwrap_or(0) as usize;
        assert_eq!(listed.len() + omitted, 2000, "{what}: {v}");
        assert!(listed.len() < 64, "{what}: {} listed", listed.len());
        assert_eq!(v["choices_fill"], 0, "{what}: {v}");
        let joined = listed.join(",");
        let mut args = vec!["run", file.as_str(), "--fill", "0"];
        if !listed.is_empty() {
            args.extend(["--choices", joined.as_str()]);
        }
        let (_, run, err) = cli::focuscheck(&args);
        assert!(run.contains("result: error: assertion"), "{what}: {run}{err}");
    }
}

/// Every value drawn in a loop must equal the first: one assumption per
/// draw, all alike but for the draw number, which counts up. Reports show
/// them as one (`for n = 2..60`, the counter named apart from the
/// program's `k`); JSON says how many it stands for, `--full-trace` lists
/// each.
#[test]
fn assumptions_alike_but_for_a_draw_number_fold() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = cli::write(
        dir.path(),
        "same.c",
        "extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int a[60];
  for (int k = 0; k < 60; k++)
    a[k] = __VERIFIER_nondet_int();
  for (int k = 1; k < 60; k++)
    if (a[k] != a[0])
      return 0;
  reach_error();
  return 0;
}
",
    );
    let unsafe_fss = |doc: &Value| -> Value { cli::first_unsafe(doc)["fss"][0].clone() };
    let doc = json(&["check", file.as_str(), "--format", "json"]);
    let fss = unsafe_fss(&doc);
    let list = fss["assumptions"].as_array().expect("assumptions");
    assert_eq!(list.len(), 1, "{fss:#}");
    assert_eq!(list[0]["folded"], 59, "{fss:#}");
    assert_eq!(list[0]["text"], "a[k]@6#n == a[k]@6#1 for n = 2..60", "{fss:#}");
    let full = json(&["check", file.as_str(), "--format", "json", "--full-trace"]);
    let all = unsafe_fss(&full)["assumptions"]
        .as_array()
        .expect("assumptions")
        .iter()
        .map(|a| a["text"].as_str().unwrap_or("").to_string())
        .collect::<Vec<_>>();
    assert_eq!(
        all,
        (2..=60).map(|k| format!("a[k]@6#{k} == a[k]@6#1")).collect::<Vec<_>>()
    );
    let (_, text, _) = cli::focuscheck(&["check", file.as_str()]);
    assert!(
        text.contains("assumptions left: a[k]@6#n == a[k]@6#1 for n = 2..60"),
        "{text}"
    );
}

/// A loop over two arrays: each visit of `p[k]` accesses `a`, then `b`,
/// the outer loop's 16 times.
const TWO_ARRAYS: &str = "int total(int *p, int n) {
  int s = 0;
  for (int k = 0; k < n; k++)
    s += p[k];
  return s;
}
int main(void) {
  int a[8] = {0};
  int b[8] = {0};
  int s = 0;
  for (int i = 0; i < 16; i++) {
    s += total(a, 2);
    s += total(b, 2);
  }
  __VERIFIER_assert(s == 1);
  return 0;
}
";

#[test]
fn a_label_repeating_a_group_of_visits_shows_it_once_with_its_count() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = cli::write(dir.path(), "two.c", TWO_ARRAYS);
    let (code, text, err) = cli::focuscheck(&["check", file.as_str()]);
    assert_eq!(code, 1, "unsafe expected: {err}");
    assert!(
        text.contains("(accesses `a[...]` ×2, then accesses `b[...]` ×2) ×16"),
        "{text}"
    );
    // The inner loop's test: true twice, then false, per call.
    assert!(text.contains("(true ×2, then false) ×32"), "{text}");
    assert_eq!(text.matches("accesses `a[...]`").count(), 1, "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 200), "{text}");
}
