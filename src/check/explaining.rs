//! The explanation phase of one file's check: each confirmed
//! counterexample's own FSS first (linear in its run), then further FSSs
//! through the explored graph under a budget of steps, then what still has
//! none (a widened loop explored again, the VC engine's runs).

use super::from_vc;
use crate::analysis::explore::{self, Explored, Graph};
use crate::analysis::run::{MEMORY_LIMIT, TIME_LIMIT};
use crate::analysis::{CheckOptions, CondReport, Verdict};
use crate::context::conditions::CondId;
use crate::context::Context;
use crate::explain::{self, ExplainLimits, ExplainStats, Explanation};
use crate::facts::Analysis;
use crate::ir::cond::UserCond;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Runs needing more loop iterations (or call depth) than this are not
/// explored again to explain them.
const RETRY_UNROLL: u32 = 200;

/// The least budget of backward steps for further FSSs through the graph,
/// and the steps granted per explored state beyond it: what the search
/// may spend grows with what the exploration did, so explaining costs about
/// as much as deciding (docs/explanations.md, "Budgets").
pub const MORE_FSS_STEPS: u64 = 200_000;
pub const MORE_FSS_STEPS_PER_STATE: u64 = 8;

/// What the phase works on.
pub(super) struct Phase<'a> {
    pub cx: &'a Context<'a>,
    pub a: &'a Analysis,
    pub explored: Explored<'a>,
    pub graph: &'a Graph,
    pub users: &'a [UserCond],
    pub opts: &'a CheckOptions,
    pub explore_time: Duration,
    /// The graph search's and the re-exploration's deadline (a share of
    /// `--timeout`).
    pub deadline: Option<Instant>,
    /// The runs' own explanations' deadline (the whole `--timeout`).
    pub run_deadline: Option<Instant>,
}

/// What the phase gives the report.
pub(super) struct Explained {
    pub explanations: BTreeMap<CondId, Explanation>,
    pub stats: ExplainStats,
    /// The graph search was left out: too little time was left.
    pub skipped: bool,
}

impl Phase<'_> {
    fn limits(&self, backward_steps: u64, deadline: Option<Instant>) -> ExplainLimits {
        ExplainLimits {
            witness_steps: self.opts.search_steps / 4,
            revisits: self.opts.revisits,
            backward_steps,
            deadline,
        }
    }

    fn localise(&self) -> impl Fn(u32) -> bool + '_ {
        |lo: u32| self.opts.localise.is_empty() || self.opts.localise.iter().any(|r| r.contains(&lo))
    }

    fn counterpart(&self) -> Option<&dyn Fn(&str) -> String> {
        self.opts.counterpart.as_ref().map(|f| f as &dyn Fn(&str) -> String)
    }

    /// The budget of the graph search for further FSSs: `--explain-steps`
    /// when given, else `MORE_FSS_STEPS` and `MORE_FSS_STEPS_PER_STATE`
    /// per explored state.
    fn more_fss_steps(&self) -> u64 {
        self.opts.explain_steps.unwrap_or_else(|| {
            let states = self.graph.states as u64;
            MORE_FSS_STEPS.saturating_add(states.saturating_mul(MORE_FSS_STEPS_PER_STATE))
        })
    }
}

/// Explains the conditions `to_explain` (not safe, found on the graph).
pub(super) fn explain_phase(ph: &Phase, results: &mut [CondReport], to_explain: &[CondId]) -> Explained {
    let localise = ph.localise();
    // The confirmed counterexamples' own FSSs, before anything that grows
    // with the program: a run's explanation is linear in its length.
    let own = if ph.opts.explain {
        own_runs(ph, results, to_explain)
    } else {
        BTreeMap::new()
    };
    // The graph search starts by indexing the whole graph, which no
    // deadline interrupts and which costs about half of what exploring it
    // did: without that much time left, it is left out.
    let skipped = !to_explain.is_empty() && ph.deadline.is_some_and(|d| Instant::now() + ph.explore_time / 2 > d);
    let limits = ph.limits(ph.more_fss_steps(), ph.deadline);
    let (mut explanations, stats) = if to_explain.is_empty() || skipped {
        Default::default()
    } else {
        explain::explain(
            ph.explored,
            ph.graph,
            ph.users,
            to_explain,
            limits,
            &localise,
            ph.counterpart(),
        )
    };
    for (k, run) in own {
        let merged = match explanations.remove(&k) {
            Some(graph) => explain::run_first(ph.explored, run, graph, &localise, ph.counterpart()),
            None => run,
        };
        explanations.insert(k, merged);
    }
    if !skipped {
        retry_widened(ph, results, &mut explanations, limits);
    }
    // A counterexample found for an FSS confirms the condition too.
    for r in results.iter_mut() {
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
    // engine's, or one whose run gave none) is explained from its own run.
    if ph.opts.explain {
        explain_runs(ph.cx, ph.users, ph.opts, results, &mut explanations, ph.deadline);
    }
    Explained {
        explanations,
        stats,
        skipped,
    }
}

/// The explanations of the confirmed counterexamples of `ids` from their
/// own runs, those that found an FSS.
fn own_runs(ph: &Phase, results: &[CondReport], ids: &[CondId]) -> BTreeMap<CondId, Explanation> {
    let localise = ph.localise();
    let limits = ph.limits(RUN_STEPS, ph.run_deadline);
    let mut out = BTreeMap::new();
    for r in results.iter().filter(|r| ids.contains(&r.id)) {
        let Some(run) = r.counterexample.as_ref().filter(|_| r.verdict == Verdict::Unsafe) else {
            continue;
        };
        let ex = explain::explain_run(
            ph.cx,
            &ph.opts.engine,
            ph.users,
            r.id,
            run,
            limits,
            &localise,
            ph.counterpart(),
        );
        if !ex.fss.is_empty() {
            out.insert(r.id, ex);
        }
    }
    out
}

/// Backward steps for explaining one run (its graph is the run's path, so
/// the steps grow with its length; this only stops a pathological one).
const RUN_STEPS: u64 = 2_000_000;

/// Conditions confirmed unsafe without an FSS whose counterexample goes
/// around a loop more often than `--unroll`: through widened values the
/// backward rules found none, so the program is explored again unrolled as
/// far as the run goes, and explained on that graph.
fn retry_widened(
    ph: &Phase,
    results: &[CondReport],
    explanations: &mut BTreeMap<CondId, Explanation>,
    limits: ExplainLimits,
) {
    let Some((unroll, ids)) = retry_unroll(ph.a, results, explanations, ph.opts.engine.unroll) else {
        return;
    };
    let engine = crate::analysis::step::Options {
        unroll,
        ..ph.opts.engine.clone()
    };
    let again = explore::explore_exact_first(ph.cx, &engine, ph.deadline);
    if again.budget_hit.is_some_and(|h| h == TIME_LIMIT || h == MEMORY_LIMIT) {
        // Cut by a limit of the machine, not of the input: on a less
        // loaded one it may have found an FSS.
        for id in &ids {
            if let Some(ex) = explanations.get_mut(id) {
                ex.truncated = true;
                ex.clock |= again.budget_hit == Some(TIME_LIMIT);
            }
        }
    }
    if again.budget_hit.is_some() {
        return;
    }
    let explored = Explored {
        cx: ph.cx,
        frames: &again.frames,
        t: &again.t,
        summaries: ph.opts.engine.summaries,
        narrowed: again.narrowed,
    };
    let localise = ph.localise();
    let (more, _) = explain::explain(
        explored,
        &again.graph,
        ph.users,
        &ids,
        limits,
        &localise,
        ph.counterpart(),
    );
    for (k, ex) in more {
        if !ex.fss.is_empty() {
            explanations.insert(k, ex);
        }
    }
}

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

/// Explains each condition confirmed unsafe whose explanation has no FSS
/// from its counterexample's run (`explain::explain_run`): its FSSs replace
/// the empty explanation; if it finds none either, the explanation says why.
pub(super) fn explain_runs(
    cx: &Context,
    users: &[UserCond],
    opts: &CheckOptions,
    results: &[CondReport],
    explanations: &mut BTreeMap<CondId, Explanation>,
    deadline: Option<Instant>,
) {
    let limits = ExplainLimits {
        witness_steps: opts.search_steps / 4,
        revisits: opts.revisits,
        backward_steps: RUN_STEPS,
        deadline,
    };
    let localise = |lo: u32| opts.localise.is_empty() || opts.localise.iter().any(|r| r.contains(&lo));
    let counterpart = opts.counterpart.as_ref().map(|f| f as &dyn Fn(&str) -> String);
    for r in results {
        let Some(run) = r.counterexample.as_ref().filter(|_| r.verdict == Verdict::Unsafe) else {
            continue;
        };
        if explanations.get(&r.id).is_some_and(|e| !e.fss.is_empty()) {
            continue;
        }
        let ex = explain::explain_run(cx, &opts.engine, users, r.id, run, limits, &localise, counterpart);
        if !ex.fss.is_empty() {
            explanations.insert(r.id, ex);
            continue;
        }
        let (cut, clock) = (ex.truncated, ex.clock);
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
        ex.clock |= clock;
    }
}
