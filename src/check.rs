//! The whole check of one program: explore, decide verdicts, explain.

mod explaining;
mod portfolio;

pub use explaining::{MORE_FSS_STEPS, MORE_FSS_STEPS_PER_STATE};
pub use portfolio::{Shares, PROBE_SEARCH_STEPS, PROBE_STATES};

use crate::analysis::explore::{self, Explored};
use crate::analysis::run::{HANDOVER_LIMIT, STATE_LIMIT};
use crate::analysis::witness::Counterexample;
use crate::analysis::{self, limits, CheckOptions, CondReport, Verdict};
use crate::context::conditions::{self, CondId, Condition};
use crate::context::Context;
use crate::engines::{Engine, VcCheck, VcPlan, VcStats};
use crate::explain::{ExplainStats, Explanation};
use crate::facts::Analysis;
use crate::ir::cond::UserCond;
use crate::ir::Program;
use explaining::{explain_runs, Phase};
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
    /// The objects per allocating call, when the check grew the heap pool
    /// past the default to decide more (`pipeline::grow`), and the larger
    /// pools tried (the last one decided no more, unless it is that one).
    pub heap_instances: Option<u32>,
    pub pools_tried: Vec<u32>,
}

impl Report {
    pub fn condition(&self, r: &CondReport) -> &Condition {
        &self.conds[r.id.0 as usize]
    }

    /// The top counterexample of a condition: its first FSS's witness,
    /// else the one found while deciding the verdict (what every view,
    /// harness and witness shows).
    pub fn top_counterexample<'a>(&'a self, r: &'a CondReport) -> Option<&'a Counterexample> {
        self.explanations
            .get(&r.id)
            .and_then(|e| e.fss.iter().find_map(|f| f.witness.as_ref()))
            .or(r.counterexample.as_ref())
    }

    /// `--timeout`'s wall clock, not a count, cut the explanation of a
    /// condition that is not safe: on a less loaded machine it may go
    /// further (every other cut of the explanation is a count).
    pub fn explanation_clock(&self, r: &CondReport) -> bool {
        r.verdict != Verdict::Safe && (self.explain_skipped || self.explanations.get(&r.id).is_some_and(|e| e.clock))
    }

    /// Why a condition that is not safe has no FSS (None when it has one,
    /// or was not to be explained: safe, or `--no-explain`).
    pub fn no_fss(&self, r: &CondReport) -> Option<String> {
        if r.verdict == Verdict::Safe {
            return None;
        }
        let ex = self.explanations.get(&r.id);
        if ex.is_some_and(|ex| !ex.fss.is_empty()) {
            return None;
        }
        if self.explain_skipped {
            return Some("the time limit (--timeout) left too little time to explain".to_string());
        }
        let ex = ex?;
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

/// A counterexample of the VC engine: explained from its run alone.
fn from_vc(r: &CondReport) -> bool {
    r.from_a_run() && r.counterexample.is_some()
}

/// Checks every error condition of a program with the Datalog engine and
/// explains the unsafe ones.
pub fn check(p: &Program, users: &[UserCond], opts: &CheckOptions) -> Report {
    check_with(p, users, opts, Engine::Fsum, &VcPlan::default(), Instant::now())
}

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
        explain_runs(
            &cx,
            users,
            opts,
            &results,
            &mut explanations,
            at(Shares::of(which).explain),
        );
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
        heap_instances: None,
        pools_tried: Vec::new(),
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
    let shares = Shares::of(which);
    let (explore_share, verdict_share) = (shares.explore, shares.verdict);
    let cx = Context::new(p, &a, &conds);
    vc_check.deadline = at(shares.vc).or_else(|| Some(Instant::now() + plan.budget));
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
                let full_opts = analysis::step::Options {
                    max_states: opts.handover_states.unwrap_or(opts.engine.max_states),
                    ..opts.engine.clone()
                };
                let mut full = explore::explore_exact_first(&cx, &full_opts, at(explore_share));
                if opts.handover_states.is_some() && full.budget_hit == Some(STATE_LIMIT) {
                    full.budget_hit = Some(HANDOVER_LIMIT);
                }
                full
            }
        }
        _ => explore::explore_exact_first(&cx, &opts.engine, at(explore_share)),
    };
    let explored = Explored {
        cx: &cx,
        frames: &ex.frames,
        t: &ex.t,
        summaries: opts.engine.summaries,
        narrowed: ex.narrowed,
    };
    let graph = &ex.graph;
    let explore_time = start.elapsed();
    // Past the memory limit, Z3 is not started (it would only add to it).
    let memory_hit = ex.budget_hit.is_some_and(|h| h.contains("--max-memory"));
    let search = |o: &CheckOptions, only: Option<&[CondId]>| {
        analysis::verdicts_of(explored, graph, ex.budget_hit, users, o, at(verdict_share), only)
    };
    let mut results = if which == Engine::Auto && !memory_hit {
        portfolio::auto_verdicts(&search, opts, &vc_check, &mut vc, early)
    } else {
        search(opts, None)
    };
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
    let phase = Phase {
        cx: &cx,
        a: &a,
        explored,
        graph,
        users,
        opts,
        explore_time,
        deadline: at(shares.explain),
        run_deadline: at(1.0),
    };
    let done = explaining::explain_phase(&phase, &mut results, &to_explain);
    let (explanations, explain_stats, explain_skipped) = (done.explanations, done.stats, done.skipped);
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
        heap_instances: None,
        pools_tried: Vec::new(),
    }
}
