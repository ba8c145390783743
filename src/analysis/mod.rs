//! The model checker: symbolic forward exploration with procedure summaries
//! (Datalog rules in `rules/`), then counterexample search, feasibility and
//! replay. See ARCHITECTURE.md.

pub mod conditions;
pub mod eval;
pub mod explore;
pub mod lp;
pub mod path;
pub mod state;
pub mod step;
pub mod value;
pub mod witness;

use crate::facts::Analysis;
use crate::ir::cond::UserCond;
use crate::ir::*;
use conditions::{CondKind, Condition, Property};
use state::CondId;
use std::time::{Duration, Instant};
use witness::{Counterexample, Found, SearchLimits, Searcher};

#[derive(Clone, Debug)]
pub struct CheckOptions {
    pub engine: step::Options,
    pub property: Property,
    /// How often one state may repeat on a counterexample path.
    pub revisits: u32,
    /// Steps of the counterexample search, per condition.
    pub search_steps: u64,
}

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            engine: step::Options::default(),
            property: Property::All,
            revisits: 3,
            search_steps: 200_000,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// No error state is reachable in the (over-approximating) state space.
    Safe,
    /// A counterexample whose inputs replay to the error.
    Unsafe,
    /// Error states are reachable but no counterexample was confirmed.
    Unknown,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Safe => "safe",
            Verdict::Unsafe => "unsafe",
            Verdict::Unknown => "unknown",
        }
    }
}

pub struct CondReport {
    pub id: CondId,
    pub verdict: Verdict,
    /// Why the verdict (always set for `unknown`).
    pub reason: String,
    pub counterexample: Option<Counterexample>,
}

pub struct Report {
    pub conds: Vec<Condition>,
    /// One per reported condition, in condition order.
    pub results: Vec<CondReport>,
    pub states: usize,
    pub summaries: usize,
    /// Why exploration stopped early, if it did.
    pub budget_hit: Option<&'static str>,
    pub explore_time: Duration,
    pub total_time: Duration,
    /// Relation sizes and rule times (`--stats`).
    pub stats: String,
}

impl Report {
    pub fn condition(&self, r: &CondReport) -> &Condition {
        &self.conds[r.id.0 as usize]
    }
}

/// Checks every error condition of a program.
pub fn check(p: &Program, users: &[UserCond], opts: &CheckOptions) -> Report {
    let start = Instant::now();
    let a = Analysis::new(p);
    let conds = conditions::conditions(p, &a, users, opts.property);
    let engine = step::Engine::new(p, &a, &conds, opts.engine.clone());
    let graph = explore::explore(&engine);
    let explore_time = start.elapsed();
    let budget_hit = engine.budget.hit.get();
    if std::env::var_os("FOCUSCHECK_DEBUG").is_some() {
        for (k, errs) in &graph.errors {
            for ((c, n, v), l) in errs {
                let ctx = engine.t.ctx(*c);
                eprintln!(
                    "error {k:?} at line {} in {} depth {}: {:?} label {:?}",
                    p.line(p.node(*n).span),
                    p.proc(ctx.proc).name,
                    ctx.depth,
                    engine.t.val(*v),
                    engine.t.label(*l)
                );
            }
        }
    }
    let searcher = Searcher::new(&engine, &graph, users);
    let deadline = opts.engine.timeout.map(|t| start + t);
    // Run-time errors that `--property` leaves out still end paths: where
    // one may happen, nothing after it is known.
    let hidden_failure = conds
        .iter()
        .enumerate()
        .find(|(i, c)| !c.reported && graph.errors.contains_key(&CondId(*i as u32)));
    let mut results = Vec::new();
    for (i, c) in conds.iter().enumerate() {
        if !c.reported {
            continue;
        }
        let id = CondId(i as u32);
        let has_errors = graph.errors.contains_key(&id) || graph.return_errors.contains_key(&id);
        let (verdict, reason, counterexample) = if !has_errors {
            match (budget_hit, hidden_failure) {
                (Some(why), _) => (
                    Verdict::Unknown,
                    format!("no error state was found, but exploration stopped early: {why}"),
                    None,
                ),
                (None, Some((_, hc))) => (
                    Verdict::Unknown,
                    format!(
                        "no error state is reachable, but {} may fail first and what follows is not modelled",
                        hc.describe(p)
                    ),
                    None,
                ),
                (None, None) => (Verdict::Safe, "no error state is reachable".to_string(), None),
            }
        } else {
            let limits = SearchLimits {
                revisits: opts.revisits,
                steps: opts.search_steps,
                deadline,
            };
            match searcher.search(id, limits) {
                Found::Confirmed(cx) => (Verdict::Unsafe, "a counterexample replays to the error".to_string(), Some(*cx)),
                Found::Infeasible if budget_hit.is_none() && hidden_failure.is_none() => (
                    Verdict::Safe,
                    "error states are reachable in the over-approximated state space, but every path to them is infeasible".to_string(),
                    None,
                ),
                Found::Infeasible => (
                    Verdict::Unknown,
                    format!(
                        "every error path found is infeasible, but {}",
                        match budget_hit {
                            Some(b) => format!("exploration stopped early: {b}"),
                            None => "a run-time check left out by --property may fail first".to_string(),
                        }
                    ),
                    None,
                ),
                Found::NotFound(why) => {
                    let why = match budget_hit {
                        Some(b) => format!("{why}; exploration stopped early: {b}"),
                        None => why,
                    };
                    (Verdict::Unknown, why, None)
                }
            }
        };
        results.push(CondReport {
            id,
            verdict,
            reason,
            counterexample,
        });
    }
    if std::env::var_os("FOCUSCHECK_DEBUG").is_some() {
        let bw = crate::explain::backward::Backward::new(&engine);
        let ids: Vec<CondId> = results.iter().map(|r| r.id).collect();
        let cands = crate::explain::bsum::candidates(&bw, &graph, &ids);
        for (k, fs) in &cands.fss {
            for f in fs {
                let lines: Vec<String> = f
                    .iter()
                    .filter(|e| {
                        !matches!(
                            e.kind,
                            crate::explain::fss::EvKind::Leave | crate::explain::fss::EvKind::Param(_)
                        )
                    })
                    .map(|e| {
                        let l = p.line(p.node(e.node).span);
                        match e.kind {
                            crate::explain::fss::EvKind::Branch(b) => format!("{l}{}", if b { "T" } else { "F" }),
                            _ => l.to_string(),
                        }
                    })
                    .collect();
                let run = crate::explain::assume::fss_constraints(&engine, f);
                let (feas, assumptions) = match &run {
                    Ok(r) => {
                        let names = crate::explain::assume::SymNames::new(p);
                        let a = crate::explain::assume::merge(p, &names, &r.raw);
                        (
                            format!("{:?}", crate::explain::assume::feasible(&engine, r)),
                            a.iter().map(|a| a.text.clone()).collect::<Vec<_>>().join(", "),
                        )
                    }
                    Err(e) => (format!("{e:?}"), String::new()),
                };
                eprintln!("fss {k:?} {feas}: <{}> {{{}}}", lines.join(","), assumptions);
            }
        }
        eprintln!("summaries {} tuples {}", cands.summaries, cands.tuples);
    }
    let _ = CondKind::User;
    Report {
        states: graph.states,
        summaries: graph.fsum.values().map(Vec::len).sum(),
        budget_hit,
        explore_time,
        total_time: start.elapsed(),
        stats: graph.stats.clone(),
        results,
        conds,
    }
}
