//! `check --witness FILE|DIR`: an SV-COMP violation witness
//! (`views::violation_witness`) of the first unsafe condition that has
//! one, or the reason there is none, said per error; for a program whose
//! every condition is safe, a correctness witness
//! (`views::correctness_witness`) of the loop invariants the VC engine
//! proves. A violation witness is kept only if the interpreter, following
//! its waypoints, confirms it; a correctness witness only if the VC
//! engine, given its invariants only, proves the program
//! (`validate_witness`).

use crate::analysis::CondReport;
use crate::analysis::Verdict;
use crate::check::Report;
use crate::interp;
use crate::ir::lower::LowerOptions;
use crate::ir::{NodeKind, Program, UnitId};
use crate::vc;
use crate::views::{correctness_witness, testcomp, violation_witness, witness_entry};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Where the witness of `file` goes: `to`, or in the directory `to` the
/// file's path with its folders joined by `.` and `.witness.yml`.
fn target(to: &Path, file: &Path) -> PathBuf {
    if to.is_dir() {
        to.join(super::harness::harness_name(file, 0).replace(".0.harness.c", ".witness.yml"))
    } else {
        to.to_path_buf()
    }
}

/// The condition units of the branches the top FSS of `res` holds (the
/// FSS whose witness run is the top counterexample); none without one.
fn held_conditions(p: &Program, report: &Report, res: &CondReport) -> HashSet<UnitId> {
    let top = (report.explanations.get(&res.id)).and_then(|e| e.fss.iter().find(|f| f.witness.is_some()));
    let Some(top) = top else {
        return HashSet::new();
    };
    (top.fss.iter())
        .filter(|ev| matches!(p.node(ev.node).kind, NodeKind::Branch { .. }))
        .map(|ev| p.node(ev.node).unit)
        .collect()
}

/// Whether the witness written at `path`, read back and followed by the
/// interpreter (as `run --witness` does), is confirmed.
fn confirmed(p: &Program, path: &Path) -> Result<(), String> {
    let loaded = super::follow_witness::load(p, path, 0)?;
    let cfg = interp::Config::default();
    let (run, at) = interp::run_following(p, &cfg, &loaded.follow)
        .map_err(|_| "the run that follows the witness cannot be made".to_string())?;
    match super::follow_witness::verdict(p, path, &loaded, &run, &at) {
        (_, super::EXIT_ERROR_FOUND) => Ok(()),
        (said, _) => Err(format!(
            "the run that follows its waypoints (other values 0) does not confirm it ({})",
            said.trim_start_matches("witness: ")
        )),
    }
}

/// Writes the witness of `report`'s first unsafe condition that has one;
/// the lines that say where it went, or why an error has none.
pub fn write(to: &Path, file: &Path, p: &Program, report: &Report, lower: &LowerOptions) -> String {
    let name = file.display().to_string();
    let sha256 = std::fs::read(file)
        .map(|b| testcomp::sha256_hex(&b))
        .unwrap_or_default();
    let created = super::harness::creation_time();
    let meta = witness_entry::Meta {
        program: &name,
        sha256: &sha256,
        created: &created,
    };
    if report.results.iter().all(|r| r.verdict == Verdict::Safe) {
        return correctness(to, file, p, report, lower, &meta);
    }
    let mut out = String::new();
    for res in report.results.iter().filter(|r| r.verdict == Verdict::Unsafe) {
        let c = report.condition(res);
        let at = match c.site() {
            Some(s) => format!("{name}:{}", p.source.start(p.site(s).span).line),
            None => format!("{name}: {}", c.describe(p)),
        };
        let cx = report.top_counterexample(res);
        let made = match (c.site(), cx) {
            (Some(s), Some(cx)) => violation_witness::value(p, s, cx, &held_conditions(p, report, res), &meta),
            (_, None) => Err("no counterexample was kept".into()),
            (None, _) => Err("the error is not at a statement of the program".into()),
        };
        let path = target(to, file);
        let written = made.and_then(|v| {
            std::fs::write(&path, witness_entry::yaml(&v))
                .map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
            confirmed(p, &path).inspect_err(|_| {
                let _ = std::fs::remove_file(&path);
            })
        });
        match written {
            Ok(()) => return format!("{out}{at}: violation witness {}\n", path.display()),
            Err(why) => out.push_str(&format!("{at}: no violation witness: {why}\n")),
        }
    }
    out
}

/// Candidate loop invariants read off the Datalog engine's states at each
/// loop head (`analysis::head_facts`), within `EXACT_STATES` states.
fn state_facts(p: &Program, report: &Report) -> Vec<vc::Invariant> {
    let cx = crate::context::Context::new(p, &report.analysis, &report.conds);
    let facts = crate::analysis::head_facts::loop_head_facts(&cx, crate::analysis::explore::EXACT_STATES);
    facts
        .into_iter()
        .map(|(head, expr)| vc::Invariant {
            head,
            text: match &expr {
                crate::ir::cond::BoolExpr::Atom(a) => crate::ir::show_atom(p, a),
                _ => String::new(),
            },
            expr,
            user: false,
            entry: false,
            visited: None,
        })
        .collect()
}

/// The loop invariants a correctness witness of `p` states: those
/// `--loops havoc` proves (Houdini's, and the user's), when its inference
/// finishes (what the VC engine's proofs, k-induction's too, rest on),
/// that C can state at the loop's keyword, and those read off the explored
/// states (`state_facts`); of those, the largest subset
/// inductive on its own (Houdini again: some of them may have rested on
/// loop-entry relations a witness cannot state).
fn proven_invariants(p: &Program, report: &Report, with_states: bool) -> Vec<vc::Invariant> {
    let a = &report.analysis;
    let users = vc::houdini::user_invariants(p, a).unwrap_or_default();
    let opts = vc::Options {
        loops: vc::Loops::Havoc,
        property: crate::context::conditions::Property::UnreachCall,
        ..vc::Options::default()
    };
    let proven = vc::solve::havoc(p, a, &[], &users, &opts).proven.unwrap_or_default();
    let mut stated = correctness_witness::stateable(p, a, &proven);
    if with_states {
        stated.extend(correctness_witness::stateable(p, a, &state_facts(p, report)));
    }
    stated.iter_mut().for_each(|i| i.user = false);
    let alone = vc::Options { infer: false, ..opts };
    vc::solve::run(p, a, &[], &stated, &alone).proven.unwrap_or_default()
}

/// Writes the correctness witness of a safe program; the line that says
/// where it went, or why it has none.
fn correctness(
    to: &Path,
    file: &Path,
    p: &Program,
    report: &Report,
    lower: &LowerOptions,
    meta: &witness_entry::Meta,
) -> String {
    let name = file.display().to_string();
    let path = target(to, file);
    // With the invariants read off the states first; when that set is not
    // confirmed (one of them is not C the reader takes, e.g. a pointer
    // declared through a typedef, or Z3 gives up on more of them), with
    // Houdini's alone, as before them (the reason said is that one's).
    let mut why = String::new();
    for with_states in [true, false] {
        let proven = proven_invariants(p, report, with_states);
        let loops = correctness_witness::loop_invariants(p, &report.analysis, &proven);
        let v = correctness_witness::value(p, &loops, meta);
        if let Err(e) = std::fs::write(&path, witness_entry::yaml(&v)) {
            return format!(
                "{name}: no correctness witness: cannot write `{}`: {e}\n",
                path.display()
            );
        }
        match super::validate_witness::validate(file, lower, &path) {
            Ok(Ok(_)) => return format!("{name}: correctness witness {}\n", path.display()),
            Ok(Err(w)) => why = format!("the VC engine, given its invariants only, does not prove the program ({w})"),
            Err(super::validate_witness::Malformed(w)) => why = format!("it cannot be read back ({w})"),
        }
    }
    let _ = std::fs::remove_file(&path);
    format!("{name}: no correctness witness: {why}\n")
}
