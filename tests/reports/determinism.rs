//! Output is deterministic (ARCHITECTURE.md, invariants): `check` with
//! `--jobs 1` and with `--jobs 2` prints the same JSON apart from timings,
//! on every program under `programs/` (explained) and every SV-COMP task in
//! `../shared` (verdicts and counterexamples, `--no-explain`, to keep the
//! test's cost down). The Datalog engine's budgets are counted in states
//! (a wall-clock limit far away), so nothing that is cut depends on the
//! machine's load. The default engine (`auto`, with Z3 bounded by its
//! resource count) gives the same JSON too, also while other threads keep
//! the cores busy, on every file that the `--timeout` guard does not cut
//! (`truncated`).

use crate::cli;
use crate::shared;

use serde_json::Value;

/// The document with its timings removed.
fn without_timings(mut v: Value) -> Value {
    match &mut v {
        Value::Object(map) => {
            // `seconds`, `timings`, and the VC engine's `solver_seconds`.
            map.retain(|k, _| k != "timings" && !k.ends_with("seconds"));
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
    // The Datalog engine alone, on every file (its budgets are states);
    // the default engine is compared below.
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
    assert!(matches!(code, 0 | 1 | 3), "exit {code}\n{err}");
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

/// `check` with the default engine: the documents of the files, by name.
fn run_default(files: &[String], jobs: &str, extra: &[&str]) -> Vec<Value> {
    let mut args = vec!["check", "--format", "json", "--jobs", jobs];
    args.extend_from_slice(extra);
    args.extend(files.iter().map(String::as_str));
    let (code, out, err) = cli::focuscheck(&args);
    assert!(matches!(code, 0 | 1 | 3), "exit {code}\n{err}");
    let v = without_timings(serde_json::from_str(&out).expect("JSON"));
    v.as_array().expect("an array").clone()
}

/// Keeps every core busy (one spinning thread per core, and one more)
/// while `f` runs.
fn loaded<T>(f: impl FnOnce() -> T) -> T {
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = AtomicBool::new(false);
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|s| {
        for _ in 0..=cores {
            s.spawn(|| {
                let mut x = 0u64;
                while !stop.load(Ordering::Relaxed) {
                    x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
                }
            });
        }
        let r = f();
        stop.store(true, Ordering::Relaxed);
        r
    })
}

/// Runs the default engine on `files` with one job, and two jobs on a
/// loaded machine; fails with the files whose documents differ
/// among the runs that none of them cut short. Returns how many files
/// were compared.
fn assert_same_default(files: &[String], extra: &[&str]) -> usize {
    // Two jobs on a loaded machine differ from one job on both counts.
    let runs = [
        run_default(files, "1", extra),
        loaded(|| run_default(files, "2", extra)),
    ];
    for r in &runs {
        assert_eq!(r.len(), files.len(), "a file is missing from the JSON");
    }
    let mut compared = 0;
    let mut differing = Vec::new();
    for i in 0..files.len() {
        let docs: Vec<&Value> = runs.iter().map(|r| &r[i]).collect();
        if docs.iter().any(|d| d["truncated"] == Value::Bool(true)) {
            continue;
        }
        compared += 1;
        if let Some(d) = docs.iter().find(|d| **d != docs[0]) {
            differing.push(format!("{}\n  {}", files[i], first_difference(docs[0], d)));
        }
    }
    assert!(
        differing.is_empty(),
        "the default engine's JSON differs between --jobs 1 and --jobs 2 on a loaded machine on:\n{}",
        differing.join("\n")
    );
    compared
}

/// Where two documents first differ: a path and the two values (so that a
/// failure on another machine says what changed).
fn first_difference(a: &Value, b: &Value) -> String {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) if v == w => {}
                    Some(w) => return format!(".{k}{}", first_difference(v, w)),
                    None => return format!(".{k}: only in the first"),
                }
            }
            "keys differ".to_string()
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            let i = x.iter().zip(y).position(|(v, w)| v != w).unwrap_or(0);
            format!("[{i}]{}", first_difference(&x[i], &y[i]))
        }
        _ => format!(": {a} vs {b}"),
    }
}

/// The C files under `dir`, sorted.
fn c_files(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).expect("a directory").flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(c_files(&p));
        } else if p.extension().is_some_and(|x| x == "c" || x == "i" || x == "cimple") {
            out.push(p.to_string_lossy().into_owned());
        }
    }
    out.sort();
    out
}

#[test]
fn the_default_engine_decides_programs_alike_under_any_load() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    // Seed 004's two 256-element arrays too: `auto` hands them over to the
    // VC engine after its first share of states, a count.
    let files: Vec<String> = c_files(&root.join("programs"));
    assert!(files.len() >= 40, "only {} programs", files.len());
    let compared = assert_same_default(&files, &["--timeout", "30"]);
    assert!(compared >= 40, "only {compared} programs were not cut short");
}

#[test]
fn the_default_engine_decides_the_svcomp_tasks_alike_under_any_load() {
    let files = c_files(&shared::shared("corpus/svcomp"));
    // A short limit keeps the test's cost down: the tasks it cuts are left
    // out, the others must agree.
    let compared = assert_same_default(&files, &["--no-explain", "--timeout", "2"]);
    assert!(compared >= 20, "only {compared} SV-COMP tasks were not cut short");
}

#[test]
fn z3_queries_are_bounded_by_resources() {
    use z3::ast::Int;
    // A hard nonlinear question: with a tiny resource limit Z3 gives up,
    // saying so, and not because of the clock.
    let s = z3::Solver::new();
    focuscheck::vc::solve::set_limits(&s, Some(1), None);
    let (x, y, z) = (Int::new_const("x"), Int::new_const("y"), Int::new_const("z"));
    let cube = |v: &Int| v.clone() * v.clone() * v.clone();
    s.assert((cube(&x) + cube(&y)).eq(cube(&z)));
    s.assert(x.gt(Int::from_i64(1)));
    s.assert(y.gt(Int::from_i64(1)));
    assert_eq!(s.check(), z3::SatResult::Unknown);
    let why = s.get_reason_unknown().unwrap_or_default();
    assert!(!focuscheck::vc::solve::clock_cut(&why, None), "{why}");
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

/// The text a user reads is the same on every run, not only the JSON:
/// the VC engine's counterexample (its `replay:` command) once took the
/// draws in a hash map's order, which changes from process to process, so
/// Z3 was given its constraints in another order and chose other values.
#[test]
fn the_vc_engines_counterexample_is_the_same_on_every_run() {
    let file = "programs/c/lib/copy_name.c";
    let texts: Vec<String> = (0..3)
        .map(|_| {
            let (code, out, err) = cli::focuscheck(&["check", "--engine", "vc", "--no-fixes", file]);
            assert_eq!(code, 1, "{out}{err}");
            // The header's time aside.
            out.lines().skip(1).collect::<Vec<_>>().join("\n")
        })
        .collect();
    assert!(texts[0].contains("replay: focuscheck run"), "{}", texts[0]);
    for t in &texts[1..] {
        assert_eq!(&texts[0], t);
    }
}

/// `diagnose` asks the same questions on every run: the Z3 terms its maps
/// hold are freed in an order fixed by their contents (`ir::fixed_hash`),
/// since Z3 reuses a freed term's id and orders a quantifier
/// elimination's result by id (before, one run in two asked a different
/// ninth question on this file).
#[test]
fn diagnose_asks_the_same_questions_on_every_run() {
    let args = [
        "diagnose",
        "programs/diagnose/foo.c",
        "--no-infer",
        "--default-answer",
        "no",
    ];
    let texts: Vec<String> = (0..6).map(|_| cli::focuscheck(&args).1).collect();
    assert!(texts[0].contains("Q1 "), "{}", texts[0]);
    for t in &texts[1..] {
        assert_eq!(&texts[0], t);
    }
}

/// Every cut of the explanation phase is a count; `--timeout`'s wall clock
/// is only a guard, and a document it cuts says `explanation_clock`. So
/// an explanation cut by its count of backward steps (`--explain-steps`)
/// is the same with one job and two, and with a tiny and a large
/// `--timeout`: the clock far from firing on these cheap files (a tenth of
/// a second each), the count binds (the listing is `truncated`, with fewer
/// FSSs than without the cut).
#[test]
fn a_count_cut_explanation_is_alike_under_any_jobs_and_timeout() {
    let files = ["programs/paper/median_bug14.c", "programs/examples/sort3_bug.c"];
    let run = |jobs: &str, timeout: &str, steps: &str| {
        let mut args = vec!["check", "--format", "json", "--jobs", jobs, "--timeout", timeout];
        args.extend_from_slice(&["--explain-steps", steps]);
        args.extend_from_slice(&files);
        let (code, out, err) = cli::focuscheck(&args);
        assert_eq!(code, 1, "{out}{err}");
        without_timings(serde_json::from_str(&out).expect("JSON"))
    };
    let fss = |doc: &Value| -> Vec<usize> {
        let docs = doc.as_array().expect("an array");
        docs.iter()
            .flat_map(|d| d["conditions"].as_array().expect("conditions").iter())
            .filter(|c| c["verdict"] == "unsafe")
            .map(|c| c["fss"].as_array().map_or(0, Vec::len))
            .collect()
    };
    let cut = run("1", "2", "50");
    for c in cut
        .as_array()
        .expect("an array")
        .iter()
        .flat_map(|d| d["conditions"].as_array().expect("conditions"))
    {
        if c["verdict"] == "unsafe" {
            assert_eq!(c["truncated"], Value::Bool(true), "the count did not bind: {c}");
            assert!(c.get("explanation_clock").is_none(), "the clock cut it: {c}");
        }
    }
    for (jobs, timeout) in [("2", "2"), ("1", "3600"), ("2", "3600")] {
        let other = run(jobs, timeout, "50");
        assert!(
            other == cut,
            "--jobs {jobs} --timeout {timeout} differs from --jobs 1 --timeout 2: {}",
            first_difference(&cut, &other)
        );
    }
    // Without the cut, more FSSs: the count is what shaped the listing.
    let (few, all) = (fss(&cut), fss(&run("1", "3600", "1000000")));
    assert_eq!(few.len(), all.len());
    assert!(
        few.iter().zip(&all).all(|(a, b)| a <= b) && few != all,
        "{few:?} vs {all:?}"
    );
}

/// The other side of the guard: where `--timeout`'s clock cuts the
/// explanation, the report says so. `lock.c`'s search for further FSSs
/// takes about 3 s under its default count of steps, so a limit of 0.2 s
/// cuts it (or, on a slow machine, leaves it out) wherever this runs.
#[test]
fn an_explanation_cut_by_the_clock_says_so() {
    let file = "programs/paper/lock.c";
    let (_, out, err) = cli::focuscheck(&["check", "--format", "json", "--timeout", "0.2", file]);
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let doc = doc.as_array().and_then(|d| d.first()).cloned().unwrap_or(doc);
    let open: Vec<&Value> = doc["conditions"]
        .as_array()
        .expect("conditions")
        .iter()
        .filter(|c| c["verdict"] != "safe")
        .collect();
    assert!(!open.is_empty(), "{doc}");
    for c in open {
        assert_eq!(c["explanation_clock"], Value::Bool(true), "{c}");
        assert_eq!(c["truncated"], Value::Bool(true), "{c}");
    }
    assert_eq!(doc["truncated"], Value::Bool(true));
    let (_, text, _) = cli::focuscheck(&["check", "--timeout", "0.2", file]);
    assert!(text.contains("cut by --timeout"), "{text}");
}
