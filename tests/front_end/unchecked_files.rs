//! Reports that hide nothing: a file that does not parse, or whose check
//! crashes, appears in every format (text with its errors and in the
//! summary table, JSON and JSONL entries with its errors, SARIF
//! notifications with locations and `executionSuccessful: false`, the
//! HTML report), and every SARIF result has a location.
//!
//! The crash is injected with `FOCUSCHECK_PANIC_IN=NAME` (a panic while
//! checking the file whose path ends with NAME), so the test does not
//! depend on a bug that may be fixed.

use serde_json::Value;
use std::process::{Command, Output};

use crate::shared;

/// A directory with a good file, one that does not parse and one whose
/// check crashes.
fn batch() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let w = |name: &str, text: &str| std::fs::write(d.path().join(name), text).unwrap();
    w("a_ok.c", "int main() {\n  int x;\n  assert(x != 2);\n  return 0;\n}\n");
    w("b_bad.c", "int main() {\n  int y = 1\n  return y;\n}\n");
    w(
        "c_crash.c",
        "int main() {\n  int x;\n  assert(x != 3);\n  return 0;\n}\n",
    );
    // A safe user condition: its SARIF result still has a location.
    w(
        "d_flag.c",
        "int main() {\n  int x = 1;\n  bool error = false;\n  if (x == 2) error = true;\n  return 0;\n}\n",
    );
    d
}

fn check(dir: &tempfile::TempDir, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .current_dir(dir.path())
        .env("FOCUSCHECK_PANIC_IN", "c_crash.c")
        .args(["--color", "never", "check", "."])
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn text_prints_the_errors_and_the_table_lists_every_file() {
    let d = batch();
    let out = check(&d, &["--jobs", "2"]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    // The bug of a_ok.c is not hidden by the files that were not checked.
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("./b_bad.c: not checked"), "{stdout}");
    // The errors, with where they are, on stderr.
    for needle in [
        "error: ./b_bad.c:2:12: expected `;`",
        "internal error while checking `./c_crash.c`",
    ] {
        assert!(stderr.contains(needle), "{needle}:\n{stderr}");
    }
    let table = &stdout[stdout.find("\nsummary:").expect(&stdout)..];
    for (name, says) in [
        ("a_ok.c", "1"),
        ("b_bad.c", "not accepted"),
        ("c_crash.c", "internal error"),
        ("d_flag.c", "1"),
    ] {
        let row = table.lines().find(|l| l.contains(name)).expect(table);
        assert!(row.contains(says), "{row}");
    }
    assert!(table.contains("2 files not checked"), "{table}");
}

#[test]
fn json_and_jsonl_have_an_entry_per_file_with_its_errors() {
    let d = batch();
    let out = check(&d, &["--format", "json"]);
    let docs: Value = serde_json::from_slice(&out.stdout).unwrap();
    let lines: Vec<Value> = text(&check(&d, &["--format", "jsonl"]).stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    for list in [docs.as_array().unwrap().clone(), lines] {
        let by_name = |n: &str| list.iter().find(|d| d["file"].as_str().unwrap().ends_with(n)).cloned();
        assert_eq!(list.len(), 4, "{list:?}");
        assert_eq!(by_name("a_ok.c").unwrap()["status"], "checked");
        let bad = by_name("b_bad.c").unwrap();
        assert_eq!(bad["status"], "rejected");
        assert_eq!(bad["errors"][0]["line"], 2);
        assert_eq!(bad["errors"][0]["column"], 12);
        let crash = by_name("c_crash.c").unwrap();
        assert_eq!(crash["status"], "internal_error");
        assert!(
            crash["errors"][0]["message"]
                .as_str()
                .unwrap()
                .contains("FOCUSCHECK_PANIC_IN"),
            "{crash}"
        );
    }
}

#[test]
fn sarif_has_notifications_and_a_location_for_every_result() {
    let d = batch();
    let out = check(&d, &["--format", "sarif"]);
    let log: Value = serde_json::from_slice(&out.stdout).unwrap();
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(shared::shared("schemas/sarif-schema-2.1.0.json")).unwrap())
            .unwrap();
    let v = jsonschema::draft4::new(&schema).unwrap();
    let errors: Vec<String> = v.iter_errors(&log).take(5).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    let run = &log["runs"][0];
    let inv = &run["invocations"][0];
    assert_eq!(inv["executionSuccessful"], false);
    let notes = inv["toolExecutionNotifications"].as_array().unwrap();
    let uri_of = |n: &Value| {
        n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let bad = notes.iter().find(|n| uri_of(n).ends_with("b_bad.c")).expect("b_bad.c");
    assert_eq!(bad["level"], "error");
    assert_eq!(bad["locations"][0]["physicalLocation"]["region"]["startLine"], 2);
    let crash = notes
        .iter()
        .find(|n| uri_of(n).ends_with("c_crash.c"))
        .expect("c_crash.c");
    assert_eq!(crash["level"], "error");
    // Each notification's artifact is listed.
    let artifacts: Vec<&str> = run["artifacts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["location"]["uri"].as_str().unwrap())
        .collect();
    assert_eq!(artifacts.len(), 4, "{artifacts:?}");
    let results = run["results"].as_array().unwrap();
    assert!(results.len() >= 2);
    for r in results {
        assert!(
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].is_string(),
            "{r}"
        );
    }
    // The safe user condition is located where its variable is declared.
    let flag = results
        .iter()
        .find(|r| r["ruleId"] == "user")
        .expect("the user condition");
    assert_eq!(flag["locations"][0]["physicalLocation"]["region"]["startLine"], 3);

    // All checked: the execution was successful.
    let ok = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .current_dir(d.path())
        .args(["check", "a_ok.c", "--format", "sarif"])
        .output()
        .unwrap();
    let log: Value = serde_json::from_slice(&ok.stdout).unwrap();
    assert_eq!(log["runs"][0]["invocations"][0]["executionSuccessful"], true);
}

#[test]
fn html_lists_unchecked_files_with_their_errors() {
    let d = batch();
    let html = d.path().join("report");
    let out = check(&d, &["--html", html.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let index = std::fs::read_to_string(html.join("index.html")).unwrap();
    for name in ["a_ok.c", "b_bad.c", "c_crash.c", "d_flag.c"] {
        assert!(index.contains(name), "{name}: {index}");
    }
    assert!(index.contains("not checked"), "{index}");
    let pages: Vec<String> = std::fs::read_dir(html.join("files"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    let bad = pages
        .iter()
        .find(|p| p.contains("b_bad.c") && p.contains("not checked"))
        .expect("b_bad.c's page");
    assert!(bad.contains("expected `;`") && bad.contains("href=\"#L2\""), "{bad}");
    let crash = pages
        .iter()
        .find(|p| p.contains("c_crash.c"))
        .expect("c_crash.c's page");
    assert!(crash.contains("internal error"), "{crash}");
}
