//! The portfolio: which engine decides what, and when each phase of a
//! check (explore, decide, explain) must stop. `Engine` names the three
//! plans (`fsum`, `vc`, `auto`); `Shares` gives each phase its share of
//! `--timeout`, all in this one place; `auto_verdicts` is `auto`'s hand-over
//! between the Datalog engine's search and the VC engine.

use crate::analysis::{CheckOptions, CondReport, Verdict};
use crate::context::conditions::CondId;
use crate::engines::{Decision, Engine, VcCheck, VcStats};
use std::collections::BTreeMap;

/// Shares of `--timeout` (from the start of the file's check) after which
/// each phase stops. What follows a cut exploration (indexing its graph,
/// the first steps of every later phase, which no deadline interrupts)
/// grows with the graph, so each phase stops early enough for the whole
/// check to end within the limit (measured: about half the exploration
/// time again on programs whose exploration is cut). Under `auto` the
/// Datalog engine's two phases end earlier and the VC engine runs until
/// `vc`. A share of 1 is the limit itself.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shares {
    /// The exploration of the state graph.
    pub explore: f64,
    /// The Datalog engine's counterexample search.
    pub verdict: f64,
    /// The VC engine (`auto`, when it runs after the exploration).
    pub vc: f64,
    /// Explaining from the explored graph (a run's own FSS may go on to
    /// the limit).
    pub explain: f64,
}

impl Shares {
    /// The shares of a plan.
    pub fn of(engine: Engine) -> Shares {
        let (explore, verdict) = match engine {
            Engine::Auto => (0.4, 0.5),
            Engine::Fsum | Engine::Vc => (0.5, 0.75),
        };
        Shares {
            explore,
            verdict,
            vc: 0.75,
            explain: 0.9,
        }
    }
}

/// `auto`'s first share of states (see `check_in_context`): most
/// programs' whole state space is smaller (the largest in `programs/`
/// outside seed 004's 256-element arrays has about 10,000 states).
pub const PROBE_STATES: u64 = 50_000;

/// `auto`'s first share of the counterexample search, per condition: a
/// search through a loop the exploration widened can spend its whole
/// budget on infeasible paths (seconds per condition) where the VC engine
/// proves the condition at once.
pub const PROBE_SEARCH_STEPS: u64 = 10_000;

/// The Datalog engine's counterexample search with these options, of the
/// conditions given (all when `None`).
pub(super) type Search<'a> = dyn Fn(&CheckOptions, Option<&[CondId]>) -> Vec<CondReport> + 'a;

/// The verdicts of `auto` once the exploration is done: the Datalog
/// engine's search within its first share of steps, then the VC engine
/// for what that left open (`early`: its decisions taken already, after the
/// first share of states); a search the first share cut and the VC engine
/// did not prove safe is run again with the whole budget, so a
/// counterexample the Datalog engine finds is explained from its graph as
/// before. Both shares are counts: the outcome does not depend on the load.
pub(super) fn auto_verdicts(
    search: &Search,
    opts: &CheckOptions,
    vc_check: &VcCheck,
    vc: &mut VcStats,
    early: Option<BTreeMap<CondId, Decision>>,
) -> Vec<CondReport> {
    let probe = CheckOptions {
        search_steps: opts.search_steps.min(PROBE_SEARCH_STEPS),
        ..opts.clone()
    };
    let mut results = search(&probe, None);
    // Cut by the clock before the exploration, the VC engine may have left
    // open what it decides alone on a less loaded machine (which then
    // answers without this exploration): the whole document depends on
    // the load.
    let load_dependent = early.is_some() && vc.cut;
    let decided = match early {
        Some(decided) => decided,
        None => {
            let wanted: Vec<CondId> = results
                .iter()
                .filter(|r| r.verdict == Verdict::Unknown)
                .map(|r| r.id)
                .collect();
            if wanted.is_empty() {
                BTreeMap::new()
            } else {
                vc_check.decide(&wanted, vc)
            }
        }
    };
    let again: Vec<CondId> = results
        .iter()
        .filter(|r| r.verdict == Verdict::Unknown && r.truncated && !r.clock_cut)
        .filter(|r| decided.get(&r.id).is_none_or(|d| d.verdict != Verdict::Safe))
        .map(|r| r.id)
        .collect();
    if probe.search_steps < opts.search_steps && !again.is_empty() {
        for full in search(opts, Some(&again)) {
            if let Some(r) = results.iter_mut().find(|r| r.id == full.id) {
                *r = full;
            }
        }
    }
    if load_dependent {
        results.iter_mut().for_each(|r| r.clock_cut = true);
    }
    vc_check.apply(&mut results, decided, vc);
    results
}
