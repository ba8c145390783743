//! Output is deterministic (ARCHITECTURE.md, invariants): `check` with
//! `--jobs 1` and with `--jobs 2` prints the same JSON apart from timings,
//! on every program under `programs/` (explained) and every SV-COMP task in
//! `../shared` (verdicts and counterexamples, `--no-explain`, to keep the
//! test's cost down). Budgets are counted in states here (a wall-clock
//! limit far away), so nothing that is cut depends on the machine's load.

#[path = "support/cli.rs"]
mod cli;
#[path = "support/shared.rs"]
mod shared;

use serde_json::Value;

/// The document with its timings removed.
fn without_timings(mut v: Value) -> Value {
    match &mut v {
        Value::Object(map) => {
            map.remove("seconds");
            map.remove("timings");
            for (_, x) in map.iter_mut() {
                *x = without_timings(x.take());
            }
        }
        Value::Array(items) => {
            for x in items.iter_mut() {
                *x = without_timings(x.take());
            }
        }
        _ => {}
    }
    v
}

fn run(dirs: &[&str], jobs: &str, extra: &[&str]) -> Value {
    let mut args = vec!["check"];
    args.extend_from_slice(dirs);
    // The Datalog engine: the VC engine's verdicts rest on Z3's time limit
    // per query, which a loaded machine can reach in one run and not the
    // other.
    args.extend_from_slice(&[
        "--engine",
        "fsum",
        "--format",
        "json",
        "--jobs",
        jobs,
        "--timeout",
        "3600",
    ]);
    args.extend_from_slice(extra);
    let (code, out, err) = cli::focuscheck(&args);
    assert!(code == 0 || code == 1, "exit {code}\n{err}");
    without_timings(serde_json::from_str(&out).expect("JSON"))
}

/// Fails with the files whose documents differ between one and two jobs.
fn assert_same(dirs: &[&str], extra: &[&str], at_least: usize) {
    let one = run(dirs, "1", extra);
    let two = run(dirs, "2", extra);
    let (a, b) = (one.as_array().expect("an array"), two.as_array().expect("an array"));
    assert!(a.len() >= at_least, "only {} files were checked", a.len());
    let differing: Vec<String> = a
        .iter()
        .zip(b)
        .filter(|(x, y)| x != y)
        .map(|(x, _)| x["file"].to_string())
        .collect();
    assert!(
        differing.is_empty() && a.len() == b.len(),
        "--jobs 1 and --jobs 2 differ on: {}",
        differing.join(", ")
    );
}

#[test]
fn one_job_and_two_jobs_explain_programs_alike() {
    assert_same(&["programs/paper", "programs/examples"], &["--max-states", "20000"], 15);
}

#[test]
fn one_job_and_two_jobs_decide_the_svcomp_tasks_alike() {
    let svcomp = shared::shared("corpus/svcomp");
    let svcomp = svcomp.to_string_lossy();
    assert_same(&[svcomp.as_ref()], &["--no-explain", "--max-states", "5000"], 40);
}
