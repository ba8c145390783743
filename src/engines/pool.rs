//! A small heap pool first: the VC engine's bounded modes on the program
//! lowered again with one instance per allocating call
//! (`--heap-instances 1`), before its modes on the program itself.
//!
//! Every dereference splits over every instance of its type
//! (`crate::ir::mem::heap`), so the VC grows linearly with the pool
//! (`tree-2`: `unroll:1` decides in 0.6 s at 1 instance, gives up at 4).
//! Many errors need one allocation per call. A counterexample found on
//! the small pool is only a vector of inputs and choices: it counts when
//! the interpreter, run on the program itself, reaches a condition's
//! error with it (a run within one instance per call is the same run in
//! both programs; anything else shows in the replay). Nothing is proved
//! safe here.

use super::{key, runs::RUN_STEPS, Decision, VcCheck, VcStats};
use crate::analysis::witness::Counterexample;
use crate::analysis::Verdict;
use crate::context::conditions::CondId;
use crate::facts::Analysis;
use crate::interp;
use crate::ir::lower::LowerOptions;
use crate::ir::{Program, SiteKind};
use crate::vc::{self, gc::CheckKey, Loops, Status};
use std::collections::{BTreeMap, HashSet};

/// The pool of the program lowered again.
const SMALL_POOL: u32 = 1;
/// Its unrolling bounds, in order.
const SMALL_UNROLL: [u32; 2] = [1, 3];

/// Does `p` have an allocating call's `limit` site (not a variable-length
/// array's, not a parameter's elements)?
fn allocates(p: &Program) -> bool {
    p.sites
        .iter()
        .any(|s| s.kind == SiteKind::Limit && !s.vla && !s.past_elements())
}

impl VcCheck<'_> {
    /// Adds to `out` the conditions of `wanted` decided unsafe from the
    /// small pool's counterexamples; false when the clock cut it (what the
    /// cut mode found is dropped, and nothing after it may run: the answer
    /// would depend on the load).
    pub(super) fn small_pool(
        &self,
        wanted: &[CondId],
        out: &mut BTreeMap<CondId, Decision>,
        stats: &mut VcStats,
    ) -> bool {
        let Some(lower) = self.plan.lower.as_ref() else {
            return true;
        };
        if lower.heap_instances <= SMALL_POOL || !allocates(self.p) {
            return true;
        }
        let opts = LowerOptions {
            heap_instances: SMALL_POOL,
            ..lower.clone()
        };
        let (Some(small), _) = crate::ir::load::load(self.p.source.clone(), &opts) else {
            return true;
        };
        let (small, _) = crate::ir::contract::instrument::instrument(&small);
        let a = Analysis::new(&small);
        let names: HashSet<String> = self.p.input_slots().into_iter().map(|s| s.name).collect();
        for bound in SMALL_UNROLL {
            if wanted.iter().all(|id| out.contains_key(id)) {
                break;
            }
            if self.past() {
                stats.cut = true;
                return false;
            }
            let mode = Loops::Unroll(bound);
            let o = vc::Options {
                loops: mode,
                inline_depth: self.plan.inline_depth,
                max_warnings: usize::MAX,
                rlimit: Some(self.plan.query_rlimit),
                timeout: None,
                deadline: self.deadline,
                property: self.property,
                ..vc::Options::default()
            };
            // The user's conditions name the program's variables: only
            // its error sites are checked here.
            let r = vc::solve::run(&small, &a, &[], &[], &o);
            stats.modes.push(format!("{mode} on --heap-instances {SMALL_POOL}"));
            stats.solver_time += r.solver_time;
            if r.clock_cut {
                stats.cut = true;
                return false;
            }
            for w in r.warnings.iter().filter(|w| w.status == Status::Confirmed) {
                if let Some((id, d)) = self.replay(wanted, out, w, &names, mode) {
                    out.insert(id, d);
                }
            }
            if r.outcome == vc::Outcome::Unknown && r.reason.starts_with("Z3:") {
                break;
            }
        }
        true
    }

    /// The program's run on a small-pool warning's inputs and choices,
    /// when it ends at the error of a condition of `wanted` not decided
    /// yet.
    fn replay(
        &self,
        wanted: &[CondId],
        out: &BTreeMap<CondId, Decision>,
        w: &vc::Warning,
        names: &HashSet<String>,
        mode: Loops,
    ) -> Option<(CondId, Decision)> {
        let cfg = interp::Config {
            inputs: w.inputs.iter().filter(|(n, _)| names.contains(n)).cloned().collect(),
            choices: w.choices.clone(),
            max_steps: RUN_STEPS,
            conditions: self.users.to_vec(),
            ..interp::Config::default()
        };
        let run = interp::run(self.p, &cfg).ok()?;
        let reached = match &run.outcome {
            interp::Outcome::Error { site, .. } => CheckKey::Site(*site),
            interp::Outcome::Condition { index, .. } => CheckKey::User(*index),
            _ => return None,
        };
        let id = *wanted
            .iter()
            .find(|&&id| key(self.conds, id) == reached && !out.contains_key(&id))?;
        let decision = Decision {
            verdict: Verdict::Unsafe,
            reason: format!(
                "the VC engine's counterexample (--loops {mode} with --heap-instances {SMALL_POOL}) replays to the error"
            ),
            counterexample: Some(Counterexample {
                path: Vec::new(),
                inputs: run.inputs.clone(),
                choices: run.choices.clone(),
                run,
                seed: None,
            }),
            engine: "vc",
        };
        Some((id, decision))
    }
}
