//! The whole check of one program: explore, decide verdicts, explain.

use crate::analysis::explore::{self, Explored};
use crate::analysis::run::{MEMORY_LIMIT, STATE_LIMIT, TIME_LIMIT};
use crate::analysis::{self, limits, CheckOptions, CondReport, Verdict};
use crate::context::conditions::{self, CondId, Condition};
use crate::context::Context;
use crate::engines::{Engine, VcCheck, VcPlan, VcStats};
use crate::explain::{self, ExplainStats, Explanation};
use crate::facts::Analysis;
use crate::ir::cond::UserCond;
use crate::ir::Program;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

pub struct Report {
    /// The program's static facts (the views read them too).
    pub analysis: Analysis,
    pub conds: Vec<Condition>,
    /// One per reported condition, in condition order (but a `limit` site
    /// no run reaches: `analysis::limits`).
    pub results: Vec<CondReport>,
    /// Explanations of the conditions that are not safe.
    pub explanations: BTreeMap<CondId, Explanation>,
    pub states: usize,
    pub summaries: usize,
    /// Why exploration stopped early, if it did.
    pub budget_hit: Option<&'static str>,
    /// The time limit left too little time to explain (nothing was).
    pub explain_skipped: bool,
    pub explore_time: Duration,
    /// Deciding verdicts (counterexample search), and explaining.
    pub verdict_time: Duration,
    pub explain_time: Duration,
    pub total_time: Duration,
    pub explain: ExplainStats,
    /// Relation sizes and rule times of the forward rules (`--stats`).
    pub stats: String,
    /// The engine that decided the verdicts, and what the VC engine did.
    pub engine: Engine,
    pub vc: VcStats,
}

impl Report {
    pub fn condition(&self, r: &CondReport) -> &Condition {
        &self.conds[r.id.0 as usize]
    }

    /// Why a condition that is not safe has no FSS (None when it has one,
    /// or was not to be explained: safe, or `--no-explain`).
    pub fn no_fss(&self, r: &CondReport) -> Option<String> {
        if r.verdict == Verdict::Safe {
            return None;
        }
        if self.explain_skipped {
            return Some("the time limit (--timeout) left too little time to explain".to_string());
        }
        let ex = self.explanations.get(&r.id)?;
        if !ex.fss.is_empty() {
            return None;
        }
        // Only the counterexample's run was explained (the VC engine's).
        if let (Some(why), true) = (&ex.run_failed, ex.of_run) {
            return Some(format!("explaining the counterexample's own run: {why}"));
        }
        // Why the counterexample's own run gave none, when it was tried.
        let engine = match &ex.run_failed {
            Some(why) => format!("; explaining the counterexample's own run: {why}"),
            None => String::new(),
        };
        Some(if ex.infeasible > 0 {
            format!(
                "all {} candidate FSS{} the backward rules found were proved infeasible (no run has them){engine}",
                ex.infeasible,
                if ex.infeasible == 1 { "" } else { "s" }
            )
        } else if ex.truncated {
            format!(
                "a limit of the explanation (backward steps or --timeout) was reached before any FSS was found{engine}"
            )
        } else {
            format!(
                "the backward rules found no focus-statement sequence from the program's start to this error \
                 in the Datalog engine's state graph (its loops and recursion are widened to unknown values \
                 after --unroll iterations, and no path to the error was followed back){engine}"
            )
        })
    }
}

/// Runs needing more loop iterations (or call depth) than this are not
/// explored again to explain them.
const RETRY_UNROLL: u32 = 200;

/// The conditions confirmed unsafe whose explanation found no FSS while
/// their counterexample goes around some loop (or recursion) more often
/// than `unroll`, and the unrolling that covers all of their runs (at
/// most `RETRY_UNROLL`).
fn retry_unroll(
    a: &Analysis,
    results: &[CondReport],
    explanations: &BTreeMap<CondId, Explanation>,
    unroll: u32,
) -> Option<(u32, Vec<CondId>)> {
    let mut ids = Vec::new();
    let mut need = 0;
    for r in results {
        let (Some(cx), Some(ex)) = (&r.counterexample, explanations.get(&r.id)) else {
            continue;
        };
        if r.verdict != Verdict::Unsafe || !ex.fss.is_empty() || cx.run.trace.len() > 100_000 {
            continue;
        }
        let n = iterations(a, &cx.run.trace);
        if n >= unroll && n < RETRY_UNROLL {
            ids.push(r.id);
            need = need.max(n + 1);
        }
    }
    (!ids.is_empty()).then_some((need, ids))
}

/// The most times a run goes around one loop without leaving it, or the
/// deepest call.
fn iterations(a: &Analysis, trace: &[crate::interp::Step]) -> u32 {
    let mut most = 0;
    // (call depth, loop, visits of its head) of the loops the run is in.
    let mut inside: Vec<(u32, usize, u32)> = Vec::new();
    for s in trace {
        most = most.max(s.depth);
        inside.retain(|&(d, l, _)| d < s.depth || (d == s.depth && a.loops[l].body.contains(&s.node)));
        if let Some(&l) = a.loop_at.get(&s.node) {
            match inside.iter_mut().find(|(d, x, _)| *d == s.depth && *x == l) {
                Some(e) => {
                    e.2 += 1;
                    most = most.max(e.2);
                }
                None => inside.push((s.depth, l, 1)),
            }
        }
    }
    most
}

/// A counterexample of the VC engine: explained from its run alone.
fn from_vc(r: &CondReport) -> bool {
    r.from_a_run() && r.counterexample.is_some()
}

/// Explains each condition confirmed unsafe whose explanation has no FSS
/// from its counterexample's run (`explain::explain_run`): its FSSs replace
/// the empty explanation; if it finds none either, the explanation says why.
fn explain_runs(
    cx: &Context,
    users: &[UserCond],
    opts: &CheckOptions,
    results: &[CondReport],
    explanations: &mut BTreeMap<CondId, Explanation>,
    deadline: Option<Instant>,
) {
    let limits = explain::ExplainLimits {
        witness_steps: opts.search_steps / 4,
        revisits: opts.revisits,
        backward_steps: opts.explain_steps,
        deadline,
    };
    let localise = |lo: u32| opts.localise.is_empty() || opts.localise.iter().any(|r| r.contains(&lo));
    for r in results {
        let Some(run) = r.counterexample.as_ref().filter(|_| r.verdict == Verdict::Unsafe) else {
            continue;
        };
        if explanations.get(&r.id).is_some_and(|e| !e.fss.is_empty()) {
            continue;
        }
        let ex = explain::explain_run(
            cx,
            &opts.engine,
            users,
            r.id,
            run,
            limits,
            &localise,
            opts.counterpart.as_ref().map(|f| f as &dyn Fn(&str) -> String),
        );
        if !ex.fss.is_empty() {
            explanations.insert(r.id, ex);
            continue;
        }
        let cut = ex.truncated;
        let why = ex.run_failed.unwrap_or_else(|| {
            if ex.truncated {
                "a limit of the explanation (backward steps or --timeout) was reached first".to_string()
            } else {
                "the backward rules over it found no FSS".to_string()
            }
        });
        let ex = explanations.entry(r.id).or_default();
        // Not explained from the Datalog engine's graph: only the run was.
        ex.of_run |= from_vc(r);
        ex.run_failed = Some(why);
        // A cut explanation (a step budget, or the clock: then the document
        // depends on the load) says so.
        ex.truncated |= cut;
    }
}

/// Checks every error condition of a program with the Datalog engine and
/// explains the unsafe ones.
pub fn check(p: &Program, users: &[UserCond], opts: &CheckOptions) -> Report {
    check_with(p, users, opts, Engine::Fsum, &VcPlan::default(), Instant::now())
}

/// Shares of `--timeout` (from the start of the file's check) after which
/// exploration, the counterexample search and the explanation stop. What
/// follows a cut exploration (indexing its graph, the first steps of every
/// later phase, which no deadline interrupts) grows with the graph, so
/// each phase stops early enough for the whole check to end within the
/// limit (measured: about half the exploration time again on programs
/// whose exploration is cut). Under `--engine auto` the Datalog engine's
/// two phases end earlier (`AUTO_*`) and the VC engine runs until
/// `VC_SHARE`.
const EXPLORE_SHARE: f64 = 0.5;
const VERDICT_SHARE: f64 = 0.75;
const AUTO_EXPLORE_SHARE: f64 = 0.4;
const AUTO_VERDICT_SHARE: f64 = 0.5;
const VC_SHARE: f64 = 0.75;
const EXPLAIN_SHARE: f64 = 0.9;

/// `auto`'s first share of states (see `check_in_context`): most
/// programs' whole state space is smaller (the largest in `programs/`
/// outside seed 004's 256-element arrays has about 10,000 states).
pub const PROBE_STATES: u64 = 50_000;

/// The report of the VC engine's verdicts (`vc`, or `auto` once the VC
/// engine decided everything): unsafe conditions are explained from their
/// counterexamples' runs. `explored` is what an exploration before it
/// took: its states and time.
#[allow(clippy::too_many_arguments)]
fn vc_report(
    p: &Program,
    a: Analysis,
    conds: Vec<Condition>,
    users: &[UserCond],
    opts: &CheckOptions,
    which: Engine,
    results: Vec<CondReport>,
    vc: VcStats,
    explored: (usize, Duration),
    start: Instant,
) -> Report {
    let verdict_time = start.elapsed() - explored.1;
    let mut results = results;
    limits::apply(p, &conds, &mut results);
    let mut explanations = BTreeMap::new();
    let at = |share: f64| opts.engine.timeout.map(|t| start + t.mul_f64(share));
    if opts.explain {
        let cx = Context::new(p, &a, &conds);
        explain_runs(&cx, users, opts, &results, &mut explanations, at(EXPLAIN_SHARE));
    }
    Report {
        analysis: a,
        verdict_time,
        explain_time: start.elapsed() - explored.1 - verdict_time,
        states: explored.0,
        summaries: 0,
        budget_hit: None,
        explain_skipped: false,
        explore_time: explored.1,
        total_time: start.elapsed(),
        stats: String::new(),
        explain: ExplainStats::default(),
        results,
        explanations,
        conds,
        engine: which,
        vc,
    }
}

/// `check` with a choice of engine (`engines.rs`), the time limit counted
/// from `start` (when the file was read: parsing and lowering count too).
/// `vc` decides every verdict with the VC engine (nothing is explored or
/// explained); `auto` lets it decide what the Datalog engine leaves
/// unknown, before the explanation.
///
/// Z3 runs in a context of its own for the file: in a context shared with
/// earlier files (a worker thread's), its terms' numbering and so its
/// choices and models would depend on which files the thread checked
/// before, that is on `--jobs`.
pub fn check_with(
    p: &Program,
    users: &[UserCond],
    opts: &CheckOptions,
    which: Engine,
    plan: &VcPlan,
    start: Instant,
) -> Report {
    z3::with_z3_config(&z3::Config::new(), || {
        check_in_context(p, users, opts, which, plan, start)
    })
}

fn check_in_context(
    p: &Program,
    users: &[UserCond],
    opts: &CheckOptions,
    which: Engine,
    plan: &VcPlan,
    start: Instant,
) -> Report {
    let a = Analysis::new(p);
    let conds = conditions::conditions(p, &a, users, opts.property, &opts.cut);
    let at = |share: f64| opts.engine.timeout.map(|t| start + t.mul_f64(share));
    let mut vc = VcStats::default();
    let mut vc_check = VcCheck {
        p,
        a: &a,
        users,
        conds: &conds,
        property: opts.property,
        plan,
        deadline: at(1.0).or_else(|| Some(Instant::now() + plan.budget)),
        runs: which == Engine::Auto,
    };
    if which == Engine::Vc {
        let results = vc_check.verdicts(&mut vc);
        return vc_report(p, a, conds, users, opts, which, results, vc, (0, Duration::ZERO), start);
    }
    let (explore_share, verdict_share) = match which {
        Engine::Auto => (AUTO_EXPLORE_SHARE, AUTO_VERDICT_SHARE),
        _ => (EXPLORE_SHARE, VERDICT_SHARE),
    };
    let cx = Context::new(p, &a, &conds);
    vc_check.deadline = at(VC_SHARE).or_else(|| Some(Instant::now() + plan.budget));
    // `auto` as a portfolio: an exploration that outgrows its first share
    // of states hands over to the VC engine (decisive and cheap where
    // state spaces are large); only what that leaves open is explored in
    // full. Both bounds are counts, so the hand-over does not depend on
    // the machine's load.
    let mut early = None;
    let ex = match which {
        Engine::Auto if opts.engine.max_states > PROBE_STATES => {
            let probe_opts = analysis::step::Options {
                max_states: PROBE_STATES,
                ..opts.engine.clone()
            };
            let probe = explore::explore_exact_first(&cx, &probe_opts, at(explore_share));
            if probe.budget_hit != Some(STATE_LIMIT) {
                // Within the share: the exploration in full.
                probe
            } else {
                let wanted = vc_check.reported();
                let decided = vc_check.decide(&wanted, &mut vc);
                if decided.len() == wanted.len() {
                    let results = vc_check.reports(&wanted, decided, &vc);
                    let explored = (probe.graph.states, start.elapsed());
                    drop(probe);
                    return vc_report(p, a, conds, users, opts, which, results, vc, explored, start);
                }
                drop(probe);
                early = Some(decided);
                explore::explore_exact_first(&cx, &opts.engine, at(explore_share))
            }
        }
        _ => explore::explore_exact_first(&cx, &opts.engine, at(explore_share)),
    };
    let explored = Explored {
        cx: &cx,
        frames: &ex.frames,
        t: &ex.t,
        summaries: opts.engine.summaries,
    };
    let graph = &ex.graph;
    let explore_time = start.elapsed();
    let mut results = analysis::verdicts(explored, graph, ex.budget_hit, users, opts, at(verdict_share));
    // Past the memory limit, Z3 is not started (it would only add to it).
    let memory_hit = ex.budget_hit.is_some_and(|h| h.contains("--max-memory"));
    if which == Engine::Auto && !memory_hit {
        match early {
            // The VC engine ran already (after the first share of states).
            Some(decided) => {
                if vc.cut {
                    // Cut by the clock, it may have left open what it
                    // decides alone on a less loaded machine (which then
                    // answers without this exploration): the whole
                    // document depends on the load.
                    results.iter_mut().for_each(|r| r.clock_cut = true);
                }
                vc_check.apply(&mut results, decided, &vc)
            }
            None => vc_check.settle(&mut results, &mut vc),
        }
    }
    let verdict_time = start.elapsed() - explore_time;
    // The VC engine's counterexamples are explained from their own runs
    // (`explain_runs`, below), not from the Datalog engine's graph, where
    // no feasible error path was found. A run beyond the memory model is
    // not explained.
    let to_explain: Vec<CondId> = if opts.explain {
        results
            .iter()
            .filter(|r| r.verdict != Verdict::Safe && !from_vc(r) && !limits::is_limit(p, &conds[r.id.0 as usize]))
            .map(|r| r.id)
            .collect()
    } else {
        Vec::new()
    };
    limits::apply(p, &conds, &mut results);
    // The explanation is bounded by steps, and by its share of `--timeout`
    // if one is given.
    let explain_deadline = at(EXPLAIN_SHARE);
    let limits = explain::ExplainLimits {
        witness_steps: opts.search_steps / 4,
        revisits: opts.revisits,
        backward_steps: opts.explain_steps,
        deadline: explain_deadline,
    };
    let localise = |lo: u32| opts.localise.is_empty() || opts.localise.iter().any(|r| r.contains(&lo));
    // The backward pass starts by indexing the whole graph, which no
    // deadline interrupts and which costs about half of what exploring it
    // did: without that much time left, the explanation is left out.
    let explain_skipped =
        !to_explain.is_empty() && explain_deadline.is_some_and(|d| Instant::now() + explore_time / 2 > d);
    // Nothing to explain: no backward pass over the graph at all.
    let (explanations, explain_stats) = if to_explain.is_empty() || explain_skipped {
        Default::default()
    } else {
        explain::explain(
            explored,
            graph,
            users,
            &to_explain,
            limits,
            &localise,
            opts.counterpart.as_ref().map(|f| f as &dyn Fn(&str) -> String),
        )
    };
    let mut explanations = explanations;
    let retry = retry_unroll(&a, &results, &explanations, opts.engine.unroll);
    if let (Some((unroll, ids)), false) = (retry, explain_skipped) {
        // The error needs more iterations than were explored before
        // widening, and through widened values the backward rules found no
        // FSS: explore again unrolling as far as the confirmed run goes.
        let engine = crate::analysis::step::Options {
            unroll,
            ..opts.engine.clone()
        };
        let again = explore::explore_exact_first(&cx, &engine, explain_deadline);
        if again.budget_hit.is_some_and(|h| h == TIME_LIMIT || h == MEMORY_LIMIT) {
            // Cut by a limit of the machine, not of the input: on a less
            // loaded one it may have found an FSS.
            for id in &ids {
                if let Some(ex) = explanations.get_mut(id) {
                    ex.truncated = true;
                }
            }
        }
        if again.budget_hit.is_none() {
            let explored = Explored {
                cx: &cx,
                frames: &again.frames,
                t: &again.t,
                summaries: opts.engine.summaries,
            };
            let (more, _) = explain::explain(
                explored,
                &again.graph,
                users,
                &ids,
                limits,
                &localise,
                opts.counterpart.as_ref().map(|f| f as &dyn Fn(&str) -> String),
            );
            for (k, ex) in more {
                if !ex.fss.is_empty() {
                    explanations.insert(k, ex);
                }
            }
        }
    }
    // A counterexample found for an FSS confirms the condition too.
    for r in &mut results {
        if r.verdict == Verdict::Unknown {
            if let Some(cx) = explanations
                .get(&r.id)
                .and_then(|e| e.fss.iter().find_map(|f| f.witness.clone()))
            {
                r.verdict = Verdict::Unsafe;
                r.reason = "a counterexample replays to the error".to_string();
                r.counterexample = Some(cx);
            }
        }
    }
    // Every confirmed counterexample still without an FSS (the VC
    // engine's, or one the backward rules found none for) is explained
    // from its own run.
    if opts.explain && !explain_skipped {
        explain_runs(&cx, users, opts, &results, &mut explanations, explain_deadline);
    }
    let explain_time = start.elapsed() - explore_time - verdict_time;
    Report {
        analysis: a,
        verdict_time,
        explain_time,
        states: graph.states,
        summaries: graph.fsum.values().map(Vec::len).sum(),
        budget_hit: ex.budget_hit,
        explain_skipped,
        explore_time,
        total_time: start.elapsed(),
        stats: graph.stats.clone(),
        explain: explain_stats,
        results,
        explanations,
        conds,
        engine: which,
        vc,
    }
}
