//! What `check` says about every program under `programs/` (paper figures
//! and examples): each condition's verdict, and for each reduced FSS its
//! statement lines, assumptions and NEST. Any change in behaviour shows as
//! a diff of `tests/snapshots/programs.txt`; when the change is intended,
//! update it with `UPDATE_EXPECT=1 cargo test --release --test explanations snapshots`.
//! Timings and state counts are left out (they vary).

use crate::cli;

use serde_json::Value;
use std::fmt::Write as _;

fn lines(items: &Value, key: &str) -> String {
    items
        .as_array()
        .map(|a| {
            a.iter()
                .map(|x| match key {
                    "" => x.to_string(),
                    k => x[k].to_string(),
                })
                .collect::<Vec<_>>()
                .join(",")
        })
        .unwrap_or_default()
}

fn summary(file: &str) -> String {
    // Every statement (`--full-trace`): the explanation itself, not how
    // repetitions are folded for display.
    let (code, out, err) = cli::focuscheck(&["check", file, "--format", "json", "--full-trace"]);
    assert!(matches!(code, 0 | 1 | 3), "{file}: exit {code}\n{err}");
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut s = format!("{file}\n");
    for c in doc["conditions"].as_array().expect("conditions") {
        let _ = writeln!(
            s,
            "  {}:{} {}: {}",
            c["line"],
            c["column"],
            c["condition"].as_str().unwrap_or("?"),
            c["verdict"].as_str().unwrap_or("?")
        );
        for r in c["reduced"].as_array().into_iter().flatten() {
            let assumptions: Vec<String> = r["assumptions"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|a| format!("{} ({})", a["text"].as_str().unwrap_or("?"), a["line"]))
                .collect();
            let _ = writeln!(
                s,
                "    FSS {} <{}> assumes [{}] NEST {}",
                r["rank"],
                lines(&r["statements"], "line"),
                assumptions.join("; "),
                lines(&r["nest"], "")
            );
        }
    }
    s
}

#[test]
fn every_program_gives_its_recorded_explanation() {
    let mut files: Vec<String> = ["programs/paper", "programs/examples"]
        .iter()
        .flat_map(|d| std::fs::read_dir(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(d)).expect("programs/"))
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .map(|p| {
            p.strip_prefix(env!("CARGO_MANIFEST_DIR"))
                .expect("under the crate")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    files.sort();
    let all: String = files.iter().map(|f| summary(f)).collect();
    expect_test::expect_file!["../snapshots/programs.txt"].assert_eq(&all);
}
