//! Summaries change the cost, never the answer (STYLE: a reference variant
//! cross-checked against the optimised one): `check` with procedure
//! summaries and with `--no-summaries` (every call inlined) gives the same
//! verdicts and the same feasible FSSs (statement lines and assumptions) on
//! every program under `programs/` and on generated programs with calls
//! and recursion. A file where either run hit a budget is not compared.

use crate::cli;
use crate::gen;

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

/// Per condition: its place, verdict and FSS set; `None` when a budget cut
/// the run short.
fn outcome(file: &str, extra: &[&str]) -> Option<Vec<(String, String, BTreeSet<String>)>> {
    let mut args = vec![
        "check",
        file,
        "--format",
        "json",
        "--max-states",
        "50000",
        // A file cut by the limit is left out of the comparison; 120 s
        // keeps a slow one from holding the suite for ten minutes.
        "--timeout",
        "120",
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = cli::focuscheck(&args);
    assert!(matches!(code, 0 | 1 | 3), "{file} {extra:?}: exit {code}\n{err}");
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{file}: {e}"));
    if doc["truncated"] == Value::Bool(true) {
        return None;
    }
    let conditions = doc["conditions"].as_array().expect("conditions");
    let mut out = Vec::new();
    for c in conditions {
        if c["truncated"] == Value::Bool(true) {
            return None;
        }
        let fss: BTreeSet<String> = c["fss"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|f| {
                let lines: Vec<String> = f["statements"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|s| s["line"].to_string())
                    .collect();
                let assumptions: BTreeSet<String> = f["assumptions"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|a| a["text"].as_str().unwrap_or("?").to_string())
                    .collect();
                format!("<{}> {:?}", lines.join(","), assumptions)
            })
            .collect();
        out.push((
            format!(
                "{}:{} {}",
                c["line"],
                c["column"],
                c["condition"].as_str().unwrap_or("?")
            ),
            c["verdict"].as_str().unwrap_or("?").to_string(),
            fss,
        ));
    }
    Some(out)
}

/// The disagreements on one file, if any.
fn compare(file: &str, shown: &str) -> Option<String> {
    let with = outcome(file, &[])?;
    let without = outcome(file, &["--no-summaries"])?;
    (with != without).then(|| format!("{shown}:\n  with summaries:    {with:?}\n  without summaries: {without:?}"))
}

#[test]
fn summaries_do_not_change_verdicts_or_fsss_on_programs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = ["programs/paper", "programs/examples"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root.join(d)).expect("programs/"))
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .map(|p| {
            p.strip_prefix(root)
                .expect("under the crate")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    files.sort();
    let diffs: Vec<String> = files.iter().filter_map(|f| compare(f, f)).collect();
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}

#[test]
fn summaries_do_not_change_verdicts_or_fsss_on_generated_programs() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // Without bitwise operators: summaries against inlining is about
    // calls, and exploring bitwise programs without summaries ran to the
    // time limit (minutes each).
    let cfg = gen::GenConfig {
        max_procs: 3,
        bitwise: false,
        ..Default::default()
    };
    let (mut compared, mut diffs) = (0, Vec::new());
    for seed in 0..60 {
        let path = dir.path().join(format!("gen{seed}.c"));
        std::fs::write(&path, gen::program(seed, &cfg)).expect("written");
        let file = path.to_string_lossy().into_owned();
        let with = outcome(&file, &[]);
        let without = outcome(&file, &["--no-summaries"]);
        if let (Some(a), Some(b)) = (with, without) {
            compared += 1;
            if a != b {
                diffs.push(format!(
                    "seed {seed}:\n{}\n  with summaries:    {a:?}\n  without summaries: {b:?}",
                    gen::program(seed, &cfg)
                ));
            }
        }
    }
    assert!(compared >= 40, "only {compared} programs were compared");
    assert!(diffs.is_empty(), "{}", diffs.join("\n"));
}
