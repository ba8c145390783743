//! `focuscheck check DIR`: a batch of files found in directories, checked
//! in parallel, reported in a fixed order with a summary table; a bad file
//! is reported and the batch goes on.

use std::path::Path;
use std::process::{Command, Output};

fn check(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("check")
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A directory with safe, unsafe and bad files, one of them nested, and a
/// file that is not Cimple source.
fn batch_dir() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let w = |rel: &str, body: &str| {
        let p = d.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, body).unwrap();
    };
    w(
        "a_unsafe.c",
        "int main() {\n  int x;\n  bool error = false;\n  if (x > 3)\n    error = true;\n  return 0;\n}\n",
    );
    w("b_bad.c", "int main() {\n  int y = 1\n  return y;\n}\n");
    w(
        "c_safe.c",
        "int main() {\n  int x;\n  bool error = false;\n  if (x > 3 && x < 2)\n    error = true;\n  return 0;\n}\n",
    );
    w(
        "sub/d_div.cimple",
        "int main() {\n  int n;\n  int a[4];\n  a[0] = 8 / n;\n  return 0;\n}\n",
    );
    w("sub/notes.txt", "not a program");
    d
}

/// The report without its timings (they differ from run to run).
fn without_times(s: &str) -> String {
    s.lines()
        .filter(|l| !l.contains("wall time"))
        .map(|l| {
            l.split_whitespace()
                .map(|t| {
                    let core = t.trim_end_matches([')', ',']);
                    match core.strip_suffix('s') {
                        Some(n) if n.parse::<f64>().is_ok() => "T",
                        _ => t,
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn table_rows(stdout: &str) -> Vec<String> {
    let start = stdout.find("\nsummary:").expect("no summary table");
    stdout[start..].lines().skip(3).map(String::from).collect()
}

#[test]
fn a_directory_is_checked_in_order_whatever_the_jobs() {
    let d = batch_dir();
    let dir = d.path().to_str().unwrap();
    let one = check(&[dir, "--jobs", "1"]);
    let two = check(&[dir, "--jobs", "2", "--color", "never"]);
    let (out1, out2) = (text(&one.stdout), text(&two.stdout));
    // A bad file does not hide the bug found in another: the batch exits 1,
    // and the others are still checked.
    assert_eq!(one.status.code(), Some(1), "{out1}\n{}", text(&one.stderr));
    assert_eq!(two.status.code(), Some(1));
    assert_eq!(without_times(&out1), without_times(&out2));

    // Reports in file order: a, (b is bad), c, then sub/d.
    let a = out1.find("a_unsafe.c: 1 condition").expect(&out1);
    let c = out1.find("c_safe.c: 1 condition").expect(&out1);
    let dd = out1.find("d_div.cimple: ").expect(&out1);
    assert!(a < c && c < dd, "{out1}");
    assert!(!out1.contains("notes.txt"), "{out1}");

    // The bad file is named in the report, in file order; its error, which
    // says where, on stderr.
    let bad = out1.find("b_bad.c: not checked").expect(&out1);
    assert!(a < bad && bad < c, "{out1}");
    let err1 = text(&one.stderr);
    assert!(err1.contains("b_bad.c:2:12: expected `;`"), "{err1}");
    assert!(!out1.contains("expected `;`"), "{out1}");

    let rows = table_rows(&out1);
    let cells = |name: &str| -> Vec<String> {
        let row = rows
            .iter()
            .find(|r| r.contains(name))
            .unwrap_or_else(|| panic!("no row {name}: {rows:?}"));
        row.split_whitespace().skip(1).map(String::from).collect()
    };
    // conds, safe, unsafe, unknown, FSSs
    assert_eq!(cells("a_unsafe.c")[..4], ["1", "0", "1", "0"]);
    assert_eq!(cells("c_safe.c")[..5], ["1", "1", "0", "0", "0"]);
    assert_eq!(cells("d_div.cimple")[2], "1", "{rows:?}");
    assert!(cells("b_bad.c").join(" ").contains("not accepted"), "{rows:?}");
    let total = rows.iter().find(|r| r.starts_with("total")).unwrap();
    let t: Vec<&str> = total.split_whitespace().collect();
    assert_eq!(t[1..4], ["3", "1", "2"], "{total}");
    let last = out1.lines().last().unwrap();
    assert!(
        last.starts_with("1 file not checked; wall time") && last.ends_with("with 1 job"),
        "{last}"
    );
}

#[test]
fn jsonl_gives_one_document_per_file() {
    let d = batch_dir();
    let out = check(&[d.path().to_str().unwrap(), "--format", "jsonl", "--jobs", "2"]);
    let lines: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    let files: Vec<String> = lines
        .iter()
        .map(|v| {
            let f = v["file"].as_str().unwrap();
            Path::new(f).file_name().unwrap().to_str().unwrap().to_string()
        })
        .collect();
    // The file that does not parse is there too, with its errors.
    assert_eq!(files, ["a_unsafe.c", "b_bad.c", "c_safe.c", "d_div.cimple"]);
    assert_eq!(lines[1]["status"], "rejected");
    let e = &lines[1]["errors"][0];
    assert_eq!((e["line"].as_u64(), e["column"].as_u64()), (Some(2), Some(12)), "{e}");
    assert!(e["message"].as_str().unwrap().contains("expected `;`"), "{e}");
    assert!(lines
        .iter()
        .all(|l| l["status"] != "rejected" || l["conditions"] == serde_json::json!([])));
    // The same schema as a single file's JSON.
    let single: serde_json::Value =
        serde_json::from_slice(&check(&[d.path().join("a_unsafe.c").to_str().unwrap(), "--format", "json"]).stdout)
            .unwrap();
    let keys = |v: &serde_json::Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(&lines[0]), keys(&single));
    assert_eq!(lines[0]["conditions"][0]["verdict"], "unsafe");
}

#[test]
fn a_runaway_file_becomes_unknown_and_the_batch_goes_on() {
    let d = tempfile::tempdir().unwrap();
    // Unbounded state space in the budget given: stopped, never hung.
    std::fs::write(
        d.path().join("loop.c"),
        "int main() {\n  int n; int i = 0; int s = 0; bool error = false;\n  while (i < n) { s = s + i * i; i++; }\n  if (s == 7) error = true;\n  return 0;\n}\n",
    )
    .unwrap();
    std::fs::write(
        d.path().join("ok.c"),
        "int main() {\n  int x = 1;\n  bool error = false;\n  if (x == 2) error = true;\n  return 0;\n}\n",
    )
    .unwrap();
    let out = check(&[d.path().to_str().unwrap(), "--max-states", "50", "--unroll", "40"]);
    let stdout = text(&out.stdout);
    // Nothing found, something unknown: exit 3.
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    let rows = table_rows(&stdout);
    assert!(
        rows.iter()
            .any(|r| r.contains("loop.c") && r.split_whitespace().nth(4) == Some("1")),
        "{rows:?}"
    );
    assert!(
        rows.iter()
            .any(|r| r.contains("ok.c") && r.split_whitespace().nth(2) == Some("1")),
        "{rows:?}"
    );
}

#[test]
fn deep_nesting_neither_overflows_nor_takes_the_batch_down() {
    let d = tempfile::tempdir().unwrap();
    let w = |name: &str, body: String| std::fs::write(d.path().join(name), body).unwrap();
    let ifs: String = (0..500).map(|i| format!("if (x > {i}) {{\n")).collect();
    w(
        "a_ifs.c",
        format!(
            "int main() {{\n  int x;\n{ifs}assert(x < 0);\n{}  return 0;\n}}\n",
            "}\n".repeat(500)
        ),
    );
    let parens = |n: usize| format!("{}x{}", "(".repeat(n), ")".repeat(n));
    w(
        "b_parens.c",
        format!(
            "int main() {{\n  int x;\n  int y = {};\n  assert(y != 3);\n  return 0;\n}}\n",
            parens(1000)
        ),
    );
    // Deeper than the documented limit: a located error, not a crash.
    w(
        "c_too_deep.c",
        format!(
            "int main() {{\n  int x;\n  int y = {};\n  return y;\n}}\n",
            parens(20_000)
        ),
    );
    w(
        "d_ok.c",
        "int main() {\n  int x;\n  assert(x != 2);\n  return 0;\n}\n".into(),
    );
    let out = check(&[
        d.path().to_str().unwrap(),
        "--no-explain",
        "--jobs",
        "2",
        "--color",
        "never",
    ]);
    let stdout = text(&out.stdout);
    // Bugs found in the deep files: exit 1 although one file was refused.
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{}", text(&out.stderr));
    let rows = table_rows(&stdout);
    let row = |name: &str| rows.iter().find(|r| r.contains(name)).cloned().unwrap_or_default();
    // conds safe unsafe: both deep files are checked and unsafe.
    for name in ["a_ifs.c", "b_parens.c", "d_ok.c"] {
        assert_eq!(row(name).split_whitespace().nth(3), Some("1"), "{name}: {rows:?}");
    }
    assert!(row("c_too_deep.c").contains("not accepted"), "{rows:?}");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("c_too_deep.c:3:10010: brackets are nested more than"),
        "{}",
        stderr
            .lines()
            .filter(|l| l.contains("nested"))
            .collect::<Vec<_>>()
            .join("\n")
    );
}
