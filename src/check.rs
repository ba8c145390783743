//! The whole check of one program: explore, decide verdicts, explain.

use crate::analysis::conditions::{self, Condition};
use crate::analysis::state::CondId;
use crate::analysis::{self, explore, step, CheckOptions, CondReport, Verdict};
use crate::explain::{self, ExplainStats, Explanation};
use crate::facts::Analysis;
use crate::ir::cond::UserCond;
use crate::ir::Program;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

pub struct Report {
    pub conds: Vec<Condition>,
    /// One per reported condition, in condition order.
    pub results: Vec<CondReport>,
    /// Explanations of the conditions that are not safe.
    pub explanations: BTreeMap<CondId, Explanation>,
    pub states: usize,
    pub summaries: usize,
    /// Why exploration stopped early, if it did.
    pub budget_hit: Option<&'static str>,
    pub explore_time: Duration,
    /// Deciding verdicts (counterexample search), and explaining.
    pub verdict_time: Duration,
    pub explain_time: Duration,
    pub total_time: Duration,
    pub explain: ExplainStats,
    /// Relation sizes and rule times of the forward rules (`--stats`).
    pub stats: String,
}

impl Report {
    pub fn condition(&self, r: &CondReport) -> &Condition {
        &self.conds[r.id.0 as usize]
    }
}

/// Checks every error condition of a program and explains the unsafe ones.
pub fn check(p: &Program, users: &[UserCond], opts: &CheckOptions) -> Report {
    let start = Instant::now();
    let a = Analysis::new(p);
    let conds = conditions::conditions(p, &a, users, opts.property, &opts.cut);
    let engine = step::Engine::new(p, &a, &conds, opts.engine.clone());
    let graph = explore::explore(&engine);
    let explore_time = start.elapsed();
    let results = analysis::verdicts(&engine, &graph, users, opts, start);
    let verdict_time = start.elapsed() - explore_time;
    let to_explain: Vec<CondId> = if opts.explain {
        results
            .iter()
            .filter(|r| r.verdict != Verdict::Safe)
            .map(|r| r.id)
            .collect()
    } else {
        Vec::new()
    };
    // The explanation is bounded by steps, and by what is left of
    // `--timeout` if one is given.
    let limits = explain::ExplainLimits {
        witness_steps: opts.search_steps / 4,
        revisits: opts.revisits,
        backward_steps: opts.explain_steps,
        deadline: opts.engine.timeout.map(|t| start + t),
    };
    let localise = |lo: u32| opts.localise.is_empty() || opts.localise.iter().any(|r| r.contains(&lo));
    // Nothing to explain: no backward pass over the graph at all.
    let (explanations, explain_stats) = if to_explain.is_empty() {
        Default::default()
    } else {
        explain::explain(
            &engine,
            &graph,
            users,
            &to_explain,
            limits,
            &localise,
            !opts.localise.is_empty(),
        )
    };
    // A counterexample found for an FSS confirms the condition too.
    let mut results = results;
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
    let explain_time = start.elapsed() - explore_time - verdict_time;
    Report {
        verdict_time,
        explain_time,
        states: graph.states,
        summaries: graph.fsum.values().map(Vec::len).sum(),
        budget_hit: engine.budget.hit.get(),
        explore_time,
        total_time: start.elapsed(),
        stats: graph.stats.clone(),
        explain: explain_stats,
        results,
        explanations,
        conds,
    }
}
