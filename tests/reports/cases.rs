//! Data-driven cases: every `tests/cases/NAME.c` is checked as a user
//! would (`focuscheck check tests/cases/NAME.c`, plus the options on a
//! first-lines comment `// args: ...`), and what the tool says is compared
//! with the recorded files beside it: `NAME.txt` (the exit code, the text
//! report and the errors), `NAME.json` and `NAME.sarif`. Times are masked.
//! A new case is a new `.c` file; `UPDATE_EXPECT=1 cargo test --release
//! --test reports cases` writes the files, which are then read and
//! committed like code (see docs/development.md).

use crate::cli;

use serde_json::Value;
use std::path::{Path, PathBuf};

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases")
}

/// The options of a case: its `// args: ...` line, if any.
fn case_args(source: &str) -> Vec<String> {
    source
        .lines()
        .take_while(|l| l.starts_with("//"))
        .find_map(|l| l.strip_prefix("// args:"))
        .map(|a| a.split_whitespace().map(String::from).collect())
        .unwrap_or_default()
}

/// `0.07s`, `1.5 s` and the like as `…s`: times vary from run to run.
fn mask_times(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(|c: char| c.is_ascii_digit()) {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let num = tail
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(tail.len());
        let after = &tail[num..];
        let unit = after.strip_prefix(' ').unwrap_or(after);
        let is_time = tail[..num].contains('.') && unit.starts_with('s') && !unit[1..].starts_with(char::is_alphabetic);
        let word_start = out.chars().last().is_none_or(|c| !c.is_alphanumeric());
        if is_time && word_start {
            out.push('…');
            rest = &tail[num..];
        } else {
            out.push_str(&tail[..num]);
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// Every number under a key that names a time (`seconds`, `timings`) as 0.
fn mask_json_times(v: &mut Value, timed: bool) {
    match v {
        Value::Number(_) if timed => *v = Value::from(0),
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                mask_json_times(x, timed || k.contains("seconds") || k == "timings");
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| mask_json_times(x, timed)),
        _ => {}
    }
}

fn json_view(out: &str, err: &str) -> String {
    let mut doc: Value = serde_json::from_str(out).unwrap_or_else(|e| panic!("not JSON ({e}):\n{out}\n{err}"));
    mask_json_times(&mut doc, false);
    serde_json::to_string_pretty(&doc).expect("JSON") + "\n"
}

/// The three views of one case, by the extension of their recorded file.
fn views(rel: &str, args: &[String]) -> Vec<(&'static str, String)> {
    let run = |format: &str| {
        let mut all: Vec<&str> = vec!["check", rel, "--format", format];
        all.extend(args.iter().map(String::as_str));
        cli::focuscheck(&all)
    };
    let (code, out, err) = run("text");
    let text = mask_times(&format!("exit {code}\n--- stdout\n{out}--- stderr\n{err}"));
    let (_, json_out, json_err) = run("json");
    let (_, sarif_out, sarif_err) = run("sarif");
    vec![
        ("txt", text),
        ("json", json_view(&json_out, &json_err)),
        ("sarif", json_view(&sarif_out, &sarif_err)),
    ]
}

#[test]
fn masking_leaves_everything_but_times() {
    assert_eq!(mask_times("(302 states, 0.07s)"), "(302 states, …s)");
    assert_eq!(
        mask_times("took 1.5 s, line 3.4 steps 12s"),
        "took … s, line 3.4 steps 12s"
    );
    assert_eq!(mask_times("x = 5.000978f; 0.5f"), "x = 5.000978f; 0.5f");
    assert_eq!(mask_times("v2.1s"), "v2.1s");
}

#[test]
fn every_case_gives_its_recorded_views() {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .expect("tests/cases")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 10, "the cases are found: {cases:?}");
    let mut failed = Vec::new();
    for case in &cases {
        let name = case.file_stem().and_then(|s| s.to_str()).expect("a name");
        let rel = format!("tests/cases/{name}.c");
        let args = case_args(&std::fs::read_to_string(case).expect("read the case"));
        for (ext, actual) in views(&rel, &args) {
            let expected = case.with_extension(ext);
            let compare = std::panic::catch_unwind(|| expect_test::expect_file![&expected].assert_eq(&actual));
            if compare.is_err() {
                failed.push(format!("{name}.{ext}"));
            }
        }
    }
    assert!(
        failed.is_empty(),
        "views that differ from their recorded files (each diff above; \
         `UPDATE_EXPECT=1` records the new ones, to be read before committing): {failed:?}"
    );
}
