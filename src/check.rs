//! The whole check of one program: explore, decide verdicts, explain.

use crate::analysis::conditions::{self, Condition};
use crate::analysis::state::CondId;
use crate::analysis::{self, explore, step, CheckOptions, CondReport, Verdict};
use crate::engines::{Engine, VcCheck, VcPlan, VcStats};
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
    /// The engine that decided the verdicts, and what the VC engine did.
    pub engine: Engine,
    pub vc: VcStats,
}

impl Report {
    pub fn condition(&self, r: &CondReport) -> &Condition {
        &self.conds[r.id.0 as usize]
    }
}

/// Checks every error condition of a program and explains the unsafe ones.
pub fn check(p: &Program, users: &[UserCond], opts: &CheckOptions) -> Report {
    check_with(p, users, opts, Engine::Fsum, &VcPlan::default())
}

/// `check` with a choice of engine (`engines.rs`): `vc` decides every
/// verdict with the VC engine (nothing is explored or explained); `auto`
/// lets it decide what the Datalog engine leaves unknown, before the
/// explanation.
pub fn check_with(p: &Program, users: &[UserCond], opts: &CheckOptions, which: Engine, plan: &VcPlan) -> Report {
    let start = Instant::now();
    let a = Analysis::new(p);
    let conds = conditions::conditions(p, &a, users, opts.property, &opts.cut);
    let deadline = opts.engine.timeout.map(|t| start + t);
    let mut vc = VcStats::default();
    let mut vc_check = VcCheck {
        p,
        users,
        conds: &conds,
        property: opts.property,
        plan,
        deadline: deadline.or_else(|| Some(Instant::now() + plan.budget)),
    };
    if which == Engine::Vc {
        let results = vc_check.verdicts(&mut vc);
        return Report {
            verdict_time: start.elapsed(),
            explain_time: Duration::ZERO,
            states: 0,
            summaries: 0,
            budget_hit: None,
            explore_time: Duration::ZERO,
            total_time: start.elapsed(),
            stats: String::new(),
            explain: ExplainStats::default(),
            results,
            explanations: BTreeMap::new(),
            conds,
            engine: which,
            vc,
        };
    }
    // Under `auto` with a time limit, the Datalog engine gets half of it
    // and the VC engine what is left.
    let fsum_opts = match (which, opts.engine.timeout) {
        (Engine::Auto, Some(t)) => CheckOptions {
            engine: step::Options {
                timeout: Some(t / 2),
                ..opts.engine.clone()
            },
            ..opts.clone()
        },
        _ => opts.clone(),
    };
    let engine = step::Engine::new(p, &a, &conds, fsum_opts.engine.clone());
    let graph = explore::explore(&engine);
    let explore_time = start.elapsed();
    let mut results = analysis::verdicts(&engine, &graph, users, &fsum_opts, start);
    // Past the memory limit, Z3 is not started (it would only add to it).
    let memory_hit = engine.budget.hit.get().is_some_and(|h| h.contains("--max-memory"));
    if which == Engine::Auto && !memory_hit {
        vc_check.deadline = deadline.or_else(|| Some(Instant::now() + plan.budget));
        vc_check.settle(&mut results, &mut vc);
    }
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
    // The explanation gets what is left of `--timeout`, or a fixed budget.
    let explain_deadline = match opts.engine.timeout {
        Some(t) => start + t,
        None => Instant::now() + opts.explain_budget,
    };
    let limits = explain::ExplainLimits {
        witness_steps: opts.search_steps / 4,
        revisits: opts.revisits,
        deadline: Some(explain_deadline),
        explain_deadline: Some(explain_deadline),
    };
    let localise = |n: crate::ir::NodeId| {
        let lo = p.node(n).span.lo;
        opts.localise.is_empty() || opts.localise.iter().any(|r| r.contains(&lo))
    };
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
        engine: which,
        vc,
    }
}
