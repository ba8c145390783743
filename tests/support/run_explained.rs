//! What a test checks of a counterexample explained from its own run
//! (`explain::explain_run`): every FSS has a witness that the interpreter
//! replays to the same error, its statements are a subsequence of the
//! run's (with the run's branch outcomes), its assumptions over inputs
//! hold on the run's inputs, and Reduce leaves an FSS with a NEST.

use focuscheck::analysis::value::Sym;
use focuscheck::analysis::{CondReport, Verdict};
use focuscheck::check::Report;
use focuscheck::context::conditions::CondKind;
use focuscheck::explain::fss::EvKind;
use focuscheck::explain::FssReport;
use focuscheck::interp::{self, Config, Outcome};
use focuscheck::ir::{NodeId, Program};
use std::collections::BTreeMap;

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
pub fn check_report(p: &Program, report: &Report) -> (usize, usize, Vec<String>) {
    let (mut unsafe_vc, mut explained, mut wrong) = (0, 0, Vec::new());
    for c in &report.results {
        if c.verdict != Verdict::Unsafe || !matches!(c.engine, "vc" | "runs") {
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
