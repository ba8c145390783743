//! `check --witness FILE|DIR`: an SV-COMP violation witness
//! (`views::violation_witness`) of the first unsafe condition that has
//! one, or the reason there is none, said per error; for a program whose
//! every condition is safe, a correctness witness
//! (`views::correctness_witness`) of the loop invariants the VC engine
//! proves. A violation witness is kept only if the interpreter, following
//! its waypoints, confirms it; a correctness witness only if the VC
//! engine, given its invariants only, proves the program
//! (`validate_witness`).

use crate::analysis::witness::Counterexample;
use crate::analysis::CondReport;
use crate::analysis::Verdict;
use crate::check::Report;
use crate::interp;
use crate::ir::lower::LowerOptions;
use crate::ir::{NodeKind, Program, SiteId, UnitId};
use crate::pipeline::Config;
use crate::vc;
use crate::views::{correctness_witness, loop_guard, testcomp, violation_witness, witness_entry};
use std::borrow::Cow;
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The most bytes a witness is written with: past it, none, and the line
/// says why (a count, so the same on any machine; what `correctness_witness`
/// and `violation_witness` bound by their counts stays far below it).
pub const MAX_BYTES: usize = 1_000_000;

/// The share of `--timeout` a check with `--witness` leaves to its
/// witness: the check's phases (an explanation takes all of its share)
/// count to the rest, so a long check still leaves the witness time (a
/// violation witness of a 300,000-draw run replays it about 20 times).
pub const SHARE: f64 = 0.2;

/// `cfg` with its `--timeout` cut to what the check may take when a
/// witness is asked for (`SHARE`), as is otherwise.
pub fn reserving(cfg: &Config, witness: bool) -> Cow<'_, Config> {
    match cfg.check.engine.timeout {
        Some(t) if witness => {
            let mut c = cfg.clone();
            c.check.engine.timeout = Some(t.mul_f64(1.0 - SHARE));
            Cow::Owned(c)
        }
        _ => Cow::Borrowed(cfg),
    }
}

/// Whether `deadline` (the file's `--timeout`, from the instant its check
/// started) has passed.
fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

/// Why a witness the clock stopped is not written.
const TIME_LIMIT: &str = "the time limit (--timeout) was reached before it was confirmed";

/// The YAML of `v`, unless it is longer than `MAX_BYTES`.
fn bounded_yaml(v: &serde_json::Value) -> Result<String, String> {
    let text = witness_entry::yaml(v);
    match text.len() > MAX_BYTES {
        true => Err(format!(
            "it would take {} bytes, more than the {MAX_BYTES} a witness may",
            text.len()
        )),
        false => Ok(text),
    }
}

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

/// The SHA-256 of `file` and the time the witness is made, which its
/// metadata states.
struct Task {
    name: String,
    sha256: String,
    created: String,
}

impl Task {
    fn of(file: &Path) -> Task {
        Task {
            name: file.display().to_string(),
            sha256: std::fs::read(file)
                .map(|b| testcomp::sha256_hex(&b))
                .unwrap_or_default(),
            created: super::harness::creation_time(),
        }
    }

    fn meta(&self) -> witness_entry::Meta<'_> {
        witness_entry::Meta {
            program: &self.name,
            sha256: &self.sha256,
            created: &self.created,
        }
    }
}

/// Writes the violation witness of the run `cx` into the error at `site`
/// (`held`: the condition units that get `branching` waypoints) and keeps
/// it only if the run that follows its waypoints confirms it: where it
/// went, or why there is none. The one writer of `check`, `verify` and
/// `diagnose`; none once `deadline` has passed.
#[allow(clippy::too_many_arguments)]
fn violation(
    to: &Path,
    file: &Path,
    p: &Program,
    site: SiteId,
    cx: &Counterexample,
    held: &HashSet<UnitId>,
    task: &Task,
    deadline: Option<Instant>,
) -> Result<PathBuf, String> {
    let short = shortened(p, site, cx, deadline)?;
    let v = violation_witness::value(p, site, short.as_ref().unwrap_or(cx), held, &task.meta())?;
    let text = bounded_yaml(&v)?;
    let path = target(to, file);
    std::fs::write(&path, text).map_err(|e| format!("cannot write `{}`: {e}", path.display()))?;
    let checked = confirmed(p, &path).and_then(|()| match past(deadline) {
        true => Err(TIME_LIMIT.to_string()),
        false => Ok(()),
    });
    checked.inspect_err(|_| {
        let _ = std::fs::remove_file(&path);
    })?;
    Ok(path)
}

/// A run of `cx`'s that draws more values than a witness states one by
/// one (`violation_witness::MAX_RETURNS`; a sampled run through a
/// 100,000-element loop draws 200,000): the run on the shortest prefix of
/// its choices, every later draw 0, that still reaches the error at
/// `site` (found by halving: about 18 runs of the interpreter), whose
/// witness leaves out the draws of 0 (`violation_witness`'s cap). `None`
/// when `cx` draws few values or no prefix shorter than all of them does;
/// an error once `deadline` passes (no witness: the clock stopped it).
fn shortened(
    p: &Program,
    site: SiteId,
    cx: &Counterexample,
    deadline: Option<Instant>,
) -> Result<Option<Counterexample>, String> {
    let n = cx.choices.len();
    if n <= violation_witness::MAX_RETURNS {
        return Ok(None);
    }
    let run = |k: usize| replayed_with(p, site, &cx.inputs, &cx.choices[..k], Some(0));
    let (mut lo, mut hi) = (0, n);
    let mut best = None;
    while lo < hi {
        if past(deadline) {
            return Err(TIME_LIMIT.to_string());
        }
        let mid = lo + (hi - lo) / 2;
        match run(mid) {
            Some(found) => {
                best = Some(found);
                hi = mid;
            }
            None => lo = mid + 1,
        }
    }
    Ok(best)
}

/// `FILE:LINE` of the error at `site`.
fn site_at(file: &Path, p: &Program, site: SiteId) -> String {
    format!("{}:{}", file.display(), p.source.start(p.site(site).span).line)
}

/// The line that says where the witness of the error at `site` went, or
/// why it has none.
fn said(file: &Path, p: &Program, site: SiteId, written: Result<PathBuf, String>) -> String {
    let at = site_at(file, p, site);
    match written {
        Ok(path) => format!("{at}: violation witness {}\n", path.display()),
        Err(why) => format!("{at}: no violation witness: {why}\n"),
    }
}

/// The interpreter's run on `inputs` and `choices` (a counterexample an
/// engine confirmed: `verify`'s model, `diagnose`'s oracle run), when it
/// ends at the error at `site`.
fn replayed(p: &Program, site: SiteId, inputs: &[(String, i64)], choices: &[i64]) -> Option<Counterexample> {
    replayed_with(p, site, inputs, choices, None)
}

/// `replayed`, the choices past `choices` taking `fill` (none: the run
/// fails if it draws one).
fn replayed_with(
    p: &Program,
    site: SiteId,
    inputs: &[(String, i64)],
    choices: &[i64],
    fill: Option<i64>,
) -> Option<Counterexample> {
    let cfg = interp::Config {
        inputs: inputs.iter().cloned().collect(),
        choices: choices.to_vec(),
        fill,
        ..interp::Config::default()
    };
    let run = interp::run(p, &cfg).ok()?;
    matches!(run.outcome, interp::Outcome::Error { site: s, .. } if s == site).then(|| Counterexample {
        path: Vec::new(),
        inputs: inputs.to_vec(),
        choices: choices.to_vec(),
        run,
        seed: None,
    })
}

/// A counterexample an engine confirmed: the error site, the run's
/// inputs and choices.
pub type Confirmed = (SiteId, Vec<(String, i64)>, Vec<i64>);

/// `verify`'s and `diagnose`'s witnesses: of the first of `confirmed` (an
/// error site with the inputs and choices of a run an engine confirmed
/// reaches it) whose replay has one; the lines that say where it went, or
/// why an error has none. Nothing when none is confirmed.
pub fn write_confirmed(to: &Path, file: &Path, p: &Program, confirmed: &[Confirmed]) -> String {
    let task = Task::of(file);
    let mut out = String::new();
    for (site, inputs, choices) in confirmed {
        let written = match replayed(p, *site, inputs, choices) {
            Some(cx) => violation(to, file, p, *site, &cx, &HashSet::new(), &task, None),
            None => Err("the interpreter's run on the counterexample's inputs does not reach the error".into()),
        };
        let ok = written.is_ok();
        out.push_str(&said(file, p, *site, written));
        if ok {
            break;
        }
    }
    out
}

/// Writes the witness of `report`'s first unsafe condition that has one;
/// the lines that say where it went, or why an error has none. What is not
/// confirmed by `deadline` (the file's `--timeout`, counted from the
/// instant its check started) is not written.
pub fn write(
    to: &Path,
    file: &Path,
    p: &Program,
    report: &Report,
    lower: &LowerOptions,
    deadline: Option<Instant>,
) -> String {
    let task = Task::of(file);
    if report.results.iter().all(|r| r.verdict == Verdict::Safe) {
        return correctness(to, file, p, report, lower, &task.meta(), deadline);
    }
    let mut out = String::new();
    for res in report.results.iter().filter(|r| r.verdict == Verdict::Unsafe) {
        let c = report.condition(res);
        let Some(site) = c.site() else {
            out.push_str(&format!(
                "{}: {}: no violation witness: the error is not at a statement of the program\n",
                task.name,
                c.describe(p)
            ));
            continue;
        };
        let written = match report.top_counterexample(res) {
            Some(cx) => violation(to, file, p, site, cx, &held_conditions(p, report, res), &task, deadline),
            None => Err("no counterexample was kept".into()),
        };
        let ok = written.is_ok();
        out.push_str(&said(file, p, site, written));
        if ok {
            break;
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

/// What bounds each Z3 query of a witness's proofs: Z3's resource limit
/// (`vc::QUERY_RLIMIT`, deterministic: the same answers on any machine and
/// under any load), and a wall-clock guard far past what that limit takes
/// (4 million units run about 10 s on a loaded machine) for the rare query
/// in which Z3 does not count its work (a bit-vector `%` query ran for 25
/// minutes). A query the guard cuts proves nothing, so a witness loses
/// invariants, never gains a wrong one, and the line that reports it says
/// `truncated`.
pub const GUARD: std::time::Duration = std::time::Duration::from_secs(120);

/// The loop invariants a correctness witness of `p` states: those
/// `--loops havoc` proves (Houdini's, and the user's), when its inference
/// finishes (what the VC engine's proofs, k-induction's too, rest on),
/// that C can state at the loop's keyword, and those read off the explored
/// states (`state_facts`); of those, the largest subset
/// inductive on its own (Houdini again: some of them may have rested on
/// loop-entry relations a witness cannot state). Whether the wall-clock
/// guard cut a query. The candidates are bounded by counts first
/// (`correctness_witness::bounded`), so the witness is too; past
/// `deadline` a query proves nothing (the caller then writes none).
fn proven_invariants(
    p: &Program,
    report: &Report,
    with_states: bool,
    deadline: Option<Instant>,
) -> (Vec<vc::Invariant>, bool) {
    let a = &report.analysis;
    let users = vc::houdini::user_invariants(p, a).unwrap_or_default();
    let opts = vc::Options {
        loops: vc::Loops::Havoc,
        property: crate::context::conditions::Property::UnreachCall,
        rlimit: Some(vc::QUERY_RLIMIT),
        timeout: Some(GUARD),
        deadline,
        ..vc::Options::default()
    };
    let first = vc::solve::havoc(p, a, &[], &users, &opts);
    let mut cut = first.clock_cut;
    let proven = first.proven.unwrap_or_default();
    // A fact over array elements is stated for the indices between the
    // counter's entry value and a bound: a proven one, or one read off the
    // states (the whole is pruned and validated below all the same).
    let states = if with_states {
        state_facts(p, report)
    } else {
        Vec::new()
    };
    let bounds: Vec<vc::Invariant> = proven.iter().chain(&states).cloned().collect();
    let mut stated = correctness_witness::stateable(p, a, &proven, &bounds);
    stated.extend(correctness_witness::stateable(p, a, &states, &bounds));
    stated.iter_mut().for_each(|i| i.user = false);
    let stated = correctness_witness::bounded(stated);
    // Pruned without the quantified facts first: Houdini's queries that
    // drop a scalar fact are far harder for Z3 with a `\forall` among
    // the assumptions; then the quantified ones with what was kept.
    let alone = vc::Options { infer: false, ..opts };
    let (quantified, scalar): (Vec<_>, Vec<_>) = stated.into_iter().partition(|i| i.visited.is_some());
    let pruned = vc::solve::run(p, a, &[], &scalar, &alone);
    cut |= pruned.clock_cut;
    let kept = pruned.proven.unwrap_or_default();
    if quantified.is_empty() {
        return (kept, cut);
    }
    let all: Vec<vc::Invariant> = kept.iter().chain(&quantified).cloned().collect();
    let with = vc::solve::run(p, a, &[], &all, &alone);
    (with.proven.unwrap_or(kept), cut || with.clock_cut)
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
    deadline: Option<Instant>,
) -> String {
    let name = file.display().to_string();
    let path = target(to, file);
    // With the invariants read off the states first; when that set is not
    // confirmed (one of them is not C the reader takes, e.g. a pointer
    // declared through a typedef, or Z3 gives up on more of them), with
    // Houdini's alone, as before them (the reason said is that one's).
    // Each set with the tests of the loops that read through pointers
    // (`loop_guard`) first, when there are such, then without them.
    let mut why = String::new();
    let mut cut = false;
    let stopped = || {
        let _ = std::fs::remove_file(&path);
        format!("{name}: no correctness witness: {TIME_LIMIT}\n")
    };
    for with_states in [true, false] {
        let (proven, clock) = proven_invariants(p, report, with_states, deadline);
        if past(deadline) {
            return stopped();
        }
        cut |= clock;
        let loops = correctness_witness::loop_invariants(p, &report.analysis, &proven);
        let tests = loop_guard::with_tests(p, &report.analysis, &loops);
        for loops in tests.iter().chain([&loops]) {
            let text = match bounded_yaml(&correctness_witness::value(p, loops, meta)) {
                Ok(text) => text,
                Err(big) => {
                    why = big;
                    continue;
                }
            };
            if let Err(e) = std::fs::write(&path, text) {
                return format!(
                    "{name}: no correctness witness: cannot write `{}`: {e}\n",
                    path.display()
                );
            }
            let validated = super::validate_witness::validate(file, lower, &path, deadline);
            if past(deadline) {
                return stopped();
            }
            match validated {
                Ok(Ok(_)) if cut => {
                    return format!(
                        "{name}: correctness witness {} (truncated: the wall-clock guard cut a Z3 query, so it may state fewer invariants than on a less loaded machine)\n",
                        path.display()
                    )
                }
                Ok(Ok(_)) => return format!("{name}: correctness witness {}\n", path.display()),
                Ok(Err(w)) => {
                    why = format!("the VC engine, given its invariants only, does not prove the program ({w})")
                }
                Err(super::validate_witness::Malformed(w)) => why = format!("it cannot be read back ({w})"),
            }
        }
    }
    let _ = std::fs::remove_file(&path);
    let truncated = match cut {
        true => " (truncated: the wall-clock guard cut a Z3 query)",
        false => "",
    };
    format!("{name}: no correctness witness: {why}{truncated}\n")
}
