//! `check --engine fsum|vc|auto`: the VC engine (`vc`) deciding conditions
//! for `check`.
//!
//! The VC engine runs as a portfolio, each mode only for what the previous
//! ones left open: `--loops havoc` (Houdini invariants), k-induction on top
//! of the invariants havoc proved, then bounded unrolling with a growing
//! bound. A condition is called safe only by a sound mode (or an unrolling
//! that covers every run, `vc::ProcResult::exhaustive`), and unsafe only
//! when the model's inputs replay in the interpreter to the same error
//! (`Status::Confirmed`); the interpreter's run is the counterexample.
//! Under `auto`, sampled runs of the interpreter (`runs.rs`) come first.

mod pool;
mod runs;

use crate::analysis::witness::Counterexample;
use crate::analysis::{CondReport, Verdict};
use crate::context::conditions::{CondId, CondKind, Condition, Property};
use crate::facts::Analysis;
use crate::interp;
use crate::ir::cond::UserCond;
use crate::ir::Program;
use crate::vc::{self, gc::CheckKey, kinduction, Loops, Status};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Which engine decides the verdicts of `check`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Engine {
    /// The Datalog engine alone (procedure summaries; FSSs explained).
    Fsum,
    /// The VC engine alone (Z3); counterexamples explained from their runs.
    Vc,
    /// The Datalog engine, then the VC engine for what it leaves unknown.
    #[default]
    Auto,
}

impl Engine {
    pub fn name(self) -> &'static str {
        match self {
            Engine::Fsum => "fsum",
            Engine::Vc => "vc",
            Engine::Auto => "auto",
        }
    }
}

/// `--vc-unroll` when not given: the unrolling bounds tried in order.
pub const VC_UNROLL: [u32; 4] = [1, 3, 8, 20];

/// `--vc-k` when not given: the k of the k-induction mode.
pub const VC_K: u32 = 2;

/// How the VC engine runs inside `check`.
#[derive(Clone, Debug)]
pub struct VcPlan {
    pub inline_depth: u32,
    /// The k of the k-induction mode.
    pub k: u32,
    /// The unrolling bounds tried, in order, for counterexamples.
    pub unroll: Vec<u32>,
    /// Z3's resource limit per query (`rlimit`): deterministic, unlike
    /// time, so a query's answer does not depend on the machine's load.
    pub query_rlimit: u32,
    /// The VC engine's time per file when `--timeout` gives none (a guard
    /// only, like `--timeout`: what it cuts is `truncated`).
    pub budget: Duration,
    /// How the program was lowered, to lower it again with a smaller heap
    /// pool first (`pool.rs`); `None`: not done.
    pub lower: Option<crate::ir::lower::LowerOptions>,
}

impl Default for VcPlan {
    fn default() -> Self {
        VcPlan {
            inline_depth: vc::INLINE_DEPTH,
            k: VC_K,
            unroll: VC_UNROLL.to_vec(),
            query_rlimit: vc::QUERY_RLIMIT,
            budget: Duration::from_secs(30),
            lower: None,
        }
    }
}

/// A verdict of the VC engine.
pub struct Decision {
    pub verdict: Verdict,
    pub reason: String,
    pub counterexample: Option<Counterexample>,
    /// `vc`, or `runs` for a sampled run's counterexample.
    pub engine: &'static str,
}

/// What the VC engine did for one file.
#[derive(Clone, Debug, Default)]
pub struct VcStats {
    /// The modes run, in order (`havoc`, `kinduction:2`, `unroll:1`, ...).
    pub modes: Vec<String>,
    /// Sampled runs made before them (`auto`).
    pub runs: u32,
    pub time: Duration,
    pub solver_time: Duration,
    /// The wall-clock guard (`--timeout`) cut the VC engine: what it left
    /// open is `truncated`.
    pub cut: bool,
}

/// The largest unrolling tried for loops whose test compares with a
/// constant (`for (i = 0; i < 100; i++)`).
const MAX_CONSTANT_UNROLL: u32 = 256;

/// An unrolling that may cover every run, past the plan's last bound: one
/// more than the largest constant a loop's first test compares a variable
/// with (so a loop counting from 0 up to it fits), at most
/// `MAX_CONSTANT_UNROLL`. Only a guess: the unrolling's coverage checks
/// decide whether it covers every run (`vc::ProcResult::exhaustive`).
pub fn constant_unroll(p: &Program, a: &Analysis, after: u32) -> Option<u32> {
    let mut best: Option<u32> = None;
    for l in a.loops.iter().filter(|l| a.reachable_procs.contains(&l.proc)) {
        let mut cur = l.head;
        for _ in 0..64 {
            match &p.node(cur).kind {
                crate::ir::NodeKind::Skip { next } => cur = *next,
                _ => break,
            }
        }
        let crate::ir::NodeKind::Branch {
            cond: crate::ir::Cond::Atom(at),
            ..
        } = &p.node(cur).kind
        else {
            continue;
        };
        let c = match (&at.lhs.kind, &at.rhs.kind) {
            (_, crate::ir::ExprKind::Const(c)) | (crate::ir::ExprKind::Const(c), _) => *c,
            _ => continue,
        };
        let k = c.unsigned_abs().saturating_add(1);
        if k > after as u64 && k <= MAX_CONSTANT_UNROLL as u64 {
            best = Some(best.map_or(k as u32, |b: u32| b.max(k as u32)));
        }
    }
    best
}

/// The VC engine's check for a condition (user conditions by their index
/// among the user conditions, as `conditions` lists them).
fn key(conds: &[Condition], id: CondId) -> CheckKey {
    match &conds[id.0 as usize].kind {
        CondKind::Site(s) => CheckKey::Site(*s),
        CondKind::User(_) => CheckKey::User(conds[..id.0 as usize].iter().filter(|c| c.user().is_some()).count()),
    }
}

/// The VC engine on one program's conditions.
pub struct VcCheck<'a> {
    pub p: &'a Program,
    /// The static facts `check` computed already.
    pub a: &'a Analysis,
    pub users: &'a [UserCond],
    pub conds: &'a [Condition],
    pub property: Property,
    pub plan: &'a VcPlan,
    /// Past it, what is open stays unknown.
    pub deadline: Option<Instant>,
    /// Sampled runs first (`auto`).
    pub runs: bool,
}

impl VcCheck<'_> {
    fn past(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Decides what it can of `wanted`.
    pub fn decide(&self, wanted: &[CondId], stats: &mut VcStats) -> BTreeMap<CondId, Decision> {
        let (p, a, users, plan) = (self.p, self.a, self.users, self.plan);
        let start = Instant::now();
        let mut out = BTreeMap::new();
        if self.past() {
            stats.cut = true;
            return out;
        }
        if self.runs {
            out = self.sampled(wanted, &mut stats.runs);
        }
        if !self.small_pool(wanted, &mut out, stats) {
            // Cut by the clock: nothing after it runs.
            stats.time += start.elapsed();
            return out;
        }
        let invariants = vc::houdini::user_invariants(p, a).unwrap_or_default();
        let opts = |loops: Loops| vc::Options {
            loops,
            inline_depth: plan.inline_depth,
            max_warnings: usize::MAX,
            rlimit: Some(plan.query_rlimit),
            timeout: None,
            deadline: self.deadline,
            property: self.property,
            ..vc::Options::default()
        };
        let open = |out: &BTreeMap<CondId, Decision>| wanted.iter().any(|id| !out.contains_key(id));
        let mut havoc = None;
        let mut modes: Vec<Loops> = vec![Loops::Havoc, Loops::KInduction(plan.k)];
        modes.extend(plan.unroll.iter().map(|&k| Loops::Unroll(k)));
        let last = plan.unroll.last().copied().unwrap_or(0);
        modes.extend(constant_unroll(p, a, last).map(Loops::Unroll));
        for mode in modes {
            if !open(&out) {
                break;
            }
            if self.past() {
                stats.cut = true;
                break;
            }
            let o = opts(mode);
            let r = match mode {
                Loops::Havoc => {
                    let r = vc::solve::havoc(p, a, users, &invariants, &o);
                    havoc = Some(r.clone());
                    r
                }
                Loops::KInduction(k) => match havoc.take() {
                    // Not when havoc proved everything already.
                    Some(h) if h.outcome != vc::Outcome::Verified => kinduction::run_after(p, a, users, &o, k, h),
                    _ => continue,
                },
                Loops::Unroll(_) => vc::solve::run(p, a, users, &[], &o),
                // Not a mode of the portfolio (doomed points only).
                Loops::Copies => continue,
            };
            stats.modes.push(mode.to_string());
            stats.solver_time += r.solver_time;
            if r.clock_cut {
                // What a mode cut by the clock decides may differ on a
                // less loaded machine: none of it is kept, and nothing
                // after it runs (the answer stays a function of the input).
                stats.cut = true;
                break;
            }
            for &id in wanted {
                if let std::collections::btree_map::Entry::Vacant(slot) = out.entry(id) {
                    if let Some(d) = self.decision(&r, mode, id) {
                        slot.insert(d);
                    }
                }
            }
            // A larger unrolling holds this one's queries: where Z3 gave
            // up on them, it is not tried (on SV-COMP's `heapsort`,
            // `unroll:20` after `unroll:8` gave up took 4 GB and overran
            // `--timeout` by half).
            if matches!(mode, Loops::Unroll(_)) && r.outcome == vc::Outcome::Unknown && r.reason.starts_with("Z3:") {
                break;
            }
        }
        stats.time += start.elapsed();
        out
    }

    /// What one run of the VC engine says about a condition.
    fn decision(&self, r: &vc::ProcResult, mode: Loops, id: CondId) -> Option<Decision> {
        let k = key(self.conds, id);
        match r.decides(k)? {
            false => {
                let why = match mode {
                    Loops::Unroll(_) => format!("every run stays within {mode} and the inlining depth"),
                    _ => r.reason.trim_start_matches("no check can fail: ").to_string(),
                };
                Some(Decision {
                    verdict: Verdict::Safe,
                    reason: format!("the VC engine proves it (--loops {mode}): {why}"),
                    counterexample: None,
                    engine: "vc",
                })
            }
            true => {
                let w = r
                    .warnings
                    .iter()
                    .find(|w| w.key == k && w.status == Status::Confirmed)?;
                Some(Decision {
                    verdict: Verdict::Unsafe,
                    reason: format!("the VC engine's counterexample (--loops {mode}) replays to the error"),
                    counterexample: Some(self.counterexample(id, w)?),
                    engine: "vc",
                })
            }
        }
    }

    /// The interpreter's run on a confirmed warning's inputs and choices,
    /// when it reaches the condition's error.
    fn counterexample(&self, id: CondId, w: &vc::Warning) -> Option<Counterexample> {
        let watch = match key(self.conds, id) {
            CheckKey::User(i) => Some(i),
            _ => None,
        };
        let cfg = interp::Config {
            inputs: w.inputs.iter().cloned().collect(),
            choices: w.choices.clone(),
            conditions: self.users.to_vec(),
            watch,
            ..interp::Config::default()
        };
        let run = interp::run(self.p, &cfg).ok()?;
        let reached = match (&self.conds[id.0 as usize].kind, &run.outcome) {
            (CondKind::Site(s), interp::Outcome::Error { site, .. }) => s == site,
            (CondKind::User(_), interp::Outcome::Condition { index, .. }) => watch == Some(*index),
            _ => false,
        };
        reached.then(|| Counterexample {
            path: Vec::new(),
            inputs: w.inputs.clone(),
            choices: w.choices.clone(),
            run,
            seed: None,
        })
    }

    /// Gives what the Datalog engine left unknown the VC engine's
    /// decisions (`decided`, taken after its search or earlier).
    pub fn apply(&self, results: &mut [CondReport], mut decided: BTreeMap<CondId, Decision>, stats: &VcStats) {
        for r in results.iter_mut().filter(|r| r.verdict == Verdict::Unknown) {
            match decided.remove(&r.id) {
                Some(d) => {
                    r.reason = format!("{} (the Datalog engine left it unknown: {})", d.reason, r.reason);
                    r.verdict = d.verdict;
                    r.counterexample = d.counterexample;
                    r.engine = d.engine;
                    // The verdict no longer rests on the cut search.
                    r.truncated = false;
                }
                None => {
                    r.reason = format!("{}; {}", r.reason, self.undecided(stats));
                    r.engine = "fsum+vc";
                    r.truncated |= stats.cut;
                    r.clock_cut |= stats.cut;
                }
            }
        }
    }

    fn undecided(&self, stats: &VcStats) -> String {
        let runs = match stats.runs {
            0 => String::new(),
            n => format!("no sampled run reaches it ({n} run{}); ", if n == 1 { "" } else { "s" }),
        };
        if stats.modes.is_empty() {
            return format!("{runs}the VC engine did not run: the time limit was reached");
        }
        format!(
            "{runs}the VC engine did not decide it either ({}{})",
            stats.modes.join(", "),
            if stats.cut { "; the time limit was reached" } else { "" }
        )
    }

    /// `vc`: every reported condition, by the VC engine alone.
    pub fn verdicts(&self, stats: &mut VcStats) -> Vec<CondReport> {
        let wanted = self.reported();
        let decided = self.decide(&wanted, stats);
        self.reports(&wanted, decided, stats)
    }

    /// The conditions `check` reports.
    pub fn reported(&self) -> Vec<CondId> {
        (0..self.conds.len())
            .filter(|&i| self.conds[i].reported)
            .map(|i| CondId(i as u32))
            .collect()
    }

    /// The reports of `wanted` from the VC engine's decisions alone.
    pub fn reports(
        &self,
        wanted: &[CondId],
        mut decided: BTreeMap<CondId, Decision>,
        stats: &VcStats,
    ) -> Vec<CondReport> {
        wanted
            .iter()
            .map(|&id| {
                let truncated = !decided.contains_key(&id) && stats.cut;
                let d = decided.remove(&id).unwrap_or_else(|| Decision {
                    verdict: Verdict::Unknown,
                    reason: self.undecided(stats).replace(" either", ""),
                    counterexample: None,
                    engine: "vc",
                });
                CondReport {
                    id,
                    verdict: d.verdict,
                    reason: d.reason,
                    counterexample: d.counterexample,
                    engine: d.engine,
                    truncated,
                    clock_cut: truncated,
                }
            })
            .collect()
    }
}
