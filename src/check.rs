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
    let conds = conditions::conditions(p, &a, users, opts.property);
    let engine = step::Engine::new(p, &a, &conds, opts.engine.clone());
    let graph = explore::explore(&engine);
    let explore_time = start.elapsed();
    let results = analysis::verdicts(&engine, &graph, users, opts, start);
    let to_explain: Vec<CondId> = results
        .iter()
        .filter(|r| r.verdict != Verdict::Safe)
        .map(|r| r.id)
        .collect();
    let limits = explain::ExplainLimits {
        witness_steps: opts.search_steps / 4,
        revisits: opts.revisits,
        deadline: opts.engine.timeout.map(|t| start + t),
    };
    let (explanations, explain_stats) = explain::explain(&engine, &graph, users, &to_explain, limits);
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
    Report {
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
