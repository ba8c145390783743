//! The model checker: symbolic forward exploration with procedure summaries
//! (Datalog rules in `rules/`), then counterexample search, feasibility and
//! replay. See ARCHITECTURE.md.

pub mod bounds;
pub mod bv;
pub mod calls;
pub mod eval;
pub mod explore;
pub mod float_box;
pub mod float_sample;
pub mod frames;
pub mod hash;
pub mod head_facts;
pub mod limits;
pub mod lp;
pub mod narrow;
pub mod path;
mod reach;
pub mod refine;
pub mod refute;
pub mod run;
pub mod state;
pub mod step;
pub mod value;
pub mod widen;
pub mod witness;

use crate::context::conditions::{CondId, Property};
use crate::ir::cond::UserCond;
use explore::{Explored, Graph};
use std::time::Instant;
use witness::{Counterexample, Found, SearchLimits, Searcher};

#[derive(Clone, Debug)]
pub struct CheckOptions {
    pub engine: step::Options,
    pub property: Property,
    /// How often one state may repeat on a counterexample path.
    pub revisits: u32,
    /// Steps of the counterexample search, per condition.
    pub search_steps: u64,
    /// Steps of the search for further FSSs through the explored graph
    /// (joins and prunes of FSS suffixes), after each counterexample's own
    /// FSS; a count, so the result does not depend on the machine's load.
    /// `None`: grows with the states explored (`check::MORE_FSS_STEPS`).
    pub explain_steps: Option<u64>,
    /// Explain the conditions that are not safe (FSSs, Reduce, NEST).
    pub explain: bool,
    /// Byte ranges of the source whose run-time failures are assumptions
    /// (the reference version in `diff`).
    pub cut: Vec<std::ops::Range<u32>>,
    /// Byte ranges a NEST may point into (empty: anywhere).
    pub localise: Vec<std::ops::Range<u32>>,
    /// Set when the rest of the program is a reference version of the
    /// localised part (`diff`): a reference name as the localised part
    /// spells it. Reduce then localises where the two part ways.
    pub counterpart: Option<fn(&str) -> String>,
    /// Under `--engine auto`, the state budget of the exploration that
    /// follows the VC engine's turn (`None`: `engine.max_states`, as when
    /// `--max-states` is given): past the probe the state space is large,
    /// and exploring it to two million states rarely decides what the VC
    /// engine left open, at seconds and gigabytes per million.
    pub handover_states: Option<u64>,
}

/// `CheckOptions::handover_states` unless `--max-states` is given (its
/// number is written in `run::HANDOVER_LIMIT` too).
pub const HANDOVER_STATES: u64 = 400_000;

impl Default for CheckOptions {
    fn default() -> Self {
        CheckOptions {
            engine: step::Options::default(),
            property: Property::All,
            revisits: 3,
            search_steps: 200_000,
            explain_steps: None,
            explain: true,
            cut: Vec::new(),
            localise: Vec::new(),
            counterpart: None,
            handover_states: Some(HANDOVER_STATES),
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
    /// A budget cut the search for a counterexample short.
    pub truncated: bool,
    /// The wall-clock guard (`--timeout`) cut a phase of this condition's
    /// check. Even when another engine decides it afterwards, the file
    /// says `truncated`: what was said along the way depends on the load.
    pub clock_cut: bool,
    /// The engine whose verdict this is: `fsum` (this one), `vc`, `runs`
    /// (a sampled run of `auto`), or `fsum+vc` when neither decided.
    pub engine: &'static str,
}

impl CondReport {
    /// Decided by a run found outside this engine (a VC counterexample or
    /// a sampled run of `auto`), replayed: explained from that run alone.
    pub fn from_a_run(&self) -> bool {
        matches!(self.engine, "vc" | "runs")
    }
}

/// The verdict of every reported condition, from the explored graph.
/// `budget_hit` says why exploration stopped early, if it did; the search
/// ends at `deadline`.
pub fn verdicts(
    x: Explored,
    graph: &Graph,
    budget_hit: Option<&'static str>,
    users: &[UserCond],
    opts: &CheckOptions,
    deadline: Option<Instant>,
) -> Vec<CondReport> {
    verdicts_of(x, graph, budget_hit, users, opts, deadline, None)
}

/// `verdicts`, of the conditions in `only` when given.
pub fn verdicts_of(
    x: Explored,
    graph: &Graph,
    budget_hit: Option<&'static str>,
    users: &[UserCond],
    opts: &CheckOptions,
    deadline: Option<Instant>,
    only: Option<&[CondId]>,
) -> Vec<CondReport> {
    let p = x.cx.p;
    let conds = x.cx.conds;
    let searcher = Searcher::new(x, graph, users);
    let limits = SearchLimits {
        revisits: opts.revisits,
        steps: opts.search_steps,
        deadline,
        once: false,
    };
    // Run-time errors that `--property` leaves out still end paths: where
    // one may happen, nothing after it is known. One whose every error path
    // is infeasible cannot happen (the same search that proves a reported
    // condition safe), so it ends no path.
    let hidden_failure = std::cell::OnceCell::new();
    let hidden_failure = || {
        *hidden_failure.get_or_init(|| {
            conds.iter().enumerate().find(|(i, c)| {
                let id = CondId(*i as u32);
                !c.reported
                    && !c.cut
                    && graph.errors.contains_key(&id)
                    && (budget_hit.is_some() || !matches!(searcher.search(id, limits), Found::Infeasible))
            })
        })
    };
    let with_cut = |why: String| match budget_hit {
        Some(b) => format!("{why}; exploration stopped early: {b}"),
        None => why,
    };
    let mut results = Vec::new();
    for (i, c) in conds.iter().enumerate() {
        let id = CondId(i as u32);
        if !c.reported || only.is_some_and(|o| !o.contains(&id)) {
            continue;
        }
        let has_errors = graph.errors.contains_key(&id) || graph.return_errors.contains_key(&id);
        let mut truncated = false;
        let mut clock_cut = false;
        let (verdict, reason, counterexample) = if !has_errors {
            match (budget_hit, hidden_failure()) {
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
            match searcher.search(id, limits) {
                Found::Confirmed(cx) => (Verdict::Unsafe, "a counterexample replays to the error".to_string(), Some(*cx)),
                Found::Infeasible if budget_hit.is_none() && hidden_failure().is_none() => (
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
                Found::NotFound(why) => (Verdict::Unknown, with_cut(why), None),
                Found::OutOfBudget(why) => {
                    truncated = true;
                    (Verdict::Unknown, with_cut(why), None)
                }
                Found::OutOfTime(why) => {
                    truncated = true;
                    clock_cut = true;
                    (Verdict::Unknown, with_cut(why), None)
                }
            }
        };
        results.push(CondReport {
            id,
            verdict,
            reason,
            counterexample,
            truncated,
            clock_cut,
            engine: "fsum",
        });
    }
    results
}
