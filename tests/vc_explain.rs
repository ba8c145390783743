//! Counterexamples the VC engine finds are explained from their own runs
//! (`explain::explain_run`), and each explanation is held to the run it
//! explains: every FSS has a witness that the interpreter replays to the
//! same error, its statements are a subsequence of the run's (with the
//! run's branch outcomes), its assumptions over inputs hold on the run's
//! inputs, and Reduce leaves at least one FSS with a NEST. On
//! `programs/vc/deep_bug.c`, `programs/diagnose/late_bug.c`, a loop of 5000
//! iterations where two statements matter (whose FSS must be those two,
//! quickly), and generated programs with loops longer than `--unroll`
//! (`FOCUSCHECK_VCX_PROGRAMS=N` checks more).

#[path = "support/exhaust.rs"]
mod exhaust;
#[path = "support/gen.rs"]
mod gen;

use focuscheck::analysis::value::Sym;
use focuscheck::analysis::{CheckOptions, CondReport, Verdict};
use focuscheck::check::{check_with, Report};
use focuscheck::context::conditions::CondKind;
use focuscheck::engines::{Engine, VcPlan};
use focuscheck::explain::fss::EvKind;
use focuscheck::explain::FssReport;
use focuscheck::interp::{self, Config, Outcome};
use focuscheck::ir::{lower::LowerOptions, NodeId, Program};
use focuscheck::syntax::source::SourceFile;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

const PROGRAMS: u64 = 60;

fn load(name: &str, text: &str) -> Program {
    let (p, diags) = focuscheck::load(Arc::new(SourceFile::new(name, text)), &LowerOptions::default());
    p.unwrap_or_else(|| panic!("{name}: rejected: {diags:?}\n{text}"))
}

fn options() -> CheckOptions {
    let mut o = CheckOptions::default();
    o.engine.timeout = Some(Duration::from_secs(30));
    o
}

fn vc_check(p: &Program, engine: Engine) -> Report {
    let plan = VcPlan {
        unroll: vec![1, 3],
        ..VcPlan::default()
    };
    check_with(p, &[], &options(), engine, &plan, Instant::now())
}

/// Does this run end at condition `c`'s error?
fn reaches(report: &Report, c: &CondReport, run: &interp::Run) -> bool {
    match (&report.condition(c).kind, &run.outcome) {
        (CondKind::Site(s), Outcome::Error { site, .. }) => s == site,
        _ => false,
    }
}

/// The run's steps as (node, branch outcome), with the node whose
/// evaluation failed at the end (the interpreter records no step for it).
fn run_steps(run: &interp::Run) -> Vec<(NodeId, Option<bool>)> {
    let mut steps: Vec<_> = run.trace.iter().map(|s| (s.node, s.outcome)).collect();
    if let Outcome::Error { node, .. } = run.outcome {
        if steps.last().map(|s| s.0) != Some(node) {
            steps.push((node, None));
        }
    }
    steps
}

/// Everything wrong with one FSS of a condition, against the run it
/// explains.
fn check_fss(p: &Program, report: &Report, c: &CondReport, run: &interp::Run, f: &FssReport) -> Vec<String> {
    let mut wrong = Vec::new();
    // Its witness replays to the same error.
    match &f.witness {
        None => wrong.push("no witness".to_string()),
        Some(w) => {
            let replay = interp::run(
                p,
                &Config {
                    inputs: w.inputs.iter().cloned().collect(),
                    choices: w.choices.clone(),
                    ..Config::default()
                },
            );
            if !replay.as_ref().is_ok_and(|r| reaches(report, c, r)) {
                wrong.push(format!(
                    "witness {:?} {:?} does not replay: {:?}",
                    w.inputs,
                    w.choices,
                    replay.map(|r| r.outcome)
                ));
            }
        }
    }
    // Its statements are a subsequence of the run's.
    let steps = run_steps(run);
    let mut at = 0;
    for ev in f.fss.iter() {
        let outcome = match ev.kind {
            EvKind::Branch(b) => Some(b),
            EvKind::Assign | EvKind::Return | EvKind::Error | EvKind::Call => None,
            EvKind::Param(_) | EvKind::Leave | EvKind::Result => continue,
        };
        match steps[at..]
            .iter()
            .position(|&(n, o)| n == ev.node && (outcome.is_none() || o == outcome))
        {
            Some(j) => at += j + 1,
            None => {
                wrong.push(format!(
                    "{} ({:?}) is not in the run after the FSS's previous statements",
                    p.location(p.node(ev.node).span),
                    ev.kind
                ));
                break;
            }
        }
    }
    // Its assumptions over inputs hold on the run's inputs.
    let inputs: BTreeMap<Sym, i64> = p
        .input_slots()
        .iter()
        .enumerate()
        .filter_map(|(i, s)| Some((Sym::Input(i as u32), run.inputs.iter().find(|(n, _)| *n == s.name)?.1)))
        .collect();
    for r in f.raw.iter().filter(|r| !r.definition) {
        if !r.c.e.terms.iter().all(|(s, _)| matches!(s, Sym::Input(_))) {
            continue;
        }
        if r.c.holds(&mut |s| inputs[&s]) != Some(true) {
            wrong.push(format!(
                "assumption {:?} is false of the run's inputs {:?}",
                r.c, run.inputs
            ));
        }
    }
    wrong
}

/// Checks every unsafe condition the VC engine decided: explained, and
/// each FSS true of the run. Returns how many were explained, and the
/// failures.
fn check_report(p: &Program, report: &Report) -> (usize, usize, Vec<String>) {
    let (mut unsafe_vc, mut explained, mut wrong) = (0, 0, Vec::new());
    for c in &report.results {
        if c.verdict != Verdict::Unsafe || c.engine != "vc" {
            continue;
        }
        unsafe_vc += 1;
        let Some(cx) = &c.counterexample else {
            wrong.push("an unsafe condition without a counterexample".into());
            continue;
        };
        let Some(ex) = report.explanations.get(&c.id) else {
            wrong.push("no explanation".into());
            continue;
        };
        if ex.fss.is_empty() {
            if report.no_fss(c).is_none() {
                wrong.push("no FSS and no reason".into());
            }
            continue;
        }
        explained += 1;
        if !ex.of_run {
            wrong.push("not explained from its run".into());
        }
        for f in &ex.fss {
            wrong.extend(check_fss(p, report, c, &cx.run, f));
        }
        let with_nest = ex.reduced.iter().any(|r| !r.nest.is_empty());
        if !with_nest {
            wrong.push("Reduce left no FSS with a NEST".into());
        }
    }
    (unsafe_vc, explained, wrong)
}

/// The lines of the best FSS's statements.
fn lines(report: &Report, c: &CondReport) -> Vec<u32> {
    report.explanations[&c.id].fss[0]
        .entries
        .iter()
        .map(|e| e.line)
        .collect()
}

#[test]
fn the_vc_engines_counterexamples_on_programs_are_explained_by_their_runs() {
    for file in ["programs/vc/deep_bug.c", "programs/diagnose/late_bug.c"] {
        let text = std::fs::read_to_string(file).expect(file);
        let p = load(file, &text);
        for engine in [Engine::Vc, Engine::Auto] {
            let report = vc_check(&p, engine);
            let (unsafe_vc, explained, wrong) = check_report(&p, &report);
            assert_eq!(
                unsafe_vc,
                1,
                "{file} ({}): one unsafe condition, by the VC engine",
                engine.name()
            );
            assert_eq!(explained, 1, "{file} ({}): explained", engine.name());
            assert!(wrong.is_empty(), "{file} ({}): {wrong:#?}", engine.name());
        }
    }
}

#[test]
fn a_long_run_gets_a_short_fss_quickly() {
    let text = "int main(int x) {
  int i = 0;
  int s = 0;
  while (i < 5000) {
    s = s + i;
    i++;
  }
  if (x == 42)
    assert(0);
  return s;
}
";
    let p = load("long.c", text);
    let start = Instant::now();
    let report = vc_check(&p, Engine::Vc);
    let took = start.elapsed();
    let (unsafe_vc, explained, wrong) = check_report(&p, &report);
    assert_eq!((unsafe_vc, explained), (1, 1));
    assert!(wrong.is_empty(), "{wrong:#?}");
    let c = &report.results[0];
    let run = &c.counterexample.as_ref().expect("a counterexample").run;
    assert!(
        run.trace.len() > 15_000,
        "the run goes around the loop: {} steps",
        run.trace.len()
    );
    // The loop does not matter: the test of `x` and the assertion do.
    assert_eq!(lines(&report, c), vec![8, 9]);
    assert!(took < Duration::from_secs(20), "{took:?}");
}

#[test]
fn generated_programs_with_long_loops() {
    let cfg = gen::GenConfig {
        // Loops longer than `--unroll`: bugs past the Datalog engine's
        // widening, which the VC engine finds.
        loop_bound: 14,
        bitwise: false,
        ..exhaust::small_programs()
    };
    let count = exhaust::env("FOCUSCHECK_VCX_PROGRAMS", PROGRAMS);
    let (mut unsafe_vc, mut explained, mut failures) = (0, 0, Vec::new());
    for seed in 0..count {
        let text = gen::program(seed, &cfg);
        let p = load(&format!("vcx{seed}.c"), &text);
        let report = vc_check(&p, Engine::Vc);
        let (u, e, wrong) = check_report(&p, &report);
        unsafe_vc += u;
        explained += e;
        if !wrong.is_empty() {
            failures.push(format!("seed {seed}: {wrong:#?}\n{text}"));
        }
    }
    println!("{unsafe_vc} unsafe conditions from the VC engine, {explained} explained");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(unsafe_vc >= 10, "too few bugs to test: {unsafe_vc}");
    assert!(explained * 10 >= unsafe_vc * 9, "{explained} of {unsafe_vc} explained");
}
