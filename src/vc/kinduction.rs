//! k-induction (`--loops kinduction:K`), sound, strengthened by the loop
//! invariants `--loops havoc` proves (Houdini).
//!
//! Where a run enters a loop, the VC offers two continuations (`gc.rs`):
//!
//! - the *base case*: K iterations from the real state, every check
//!   asserted; exits continue after the loop, and the back edge after the
//!   K-th iteration ends the path (no `Unwind` check: the step case covers
//!   what follows);
//! - the *step case*: any state satisfying the loop's proven invariants
//!   (what the loop writes is havocked), then K iterations whose checks are
//!   *assumed* (a run that goes on has passed them) and whose exits end the
//!   path, then one iteration with every check asserted, whose exits
//!   continue after the loop and whose back edge ends the path.
//!
//! Why it covers every run: a run that leaves the loop, or fails a check,
//! at iteration n < K is in the base case; at n >= K, the states at the
//! head at iterations n-K, ..., n are consecutive, the first satisfies the
//! invariants (they hold at every head state), the K iterations between
//! them passed their checks, so the step case starting at iteration n-K
//! contains it. Checks assumed in one instance are asserted in another.
//!
//! The iteration counter of an instance (`gc.rs`) says which case: base
//! iteration `i` is `i`, step iteration `j` is `STEP | j`.

use super::gc::{Check, Cmd};
use super::*;
use crate::facts::Analysis;
use std::time::Instant;

/// Marks step-case iterations in an instance's loop counter.
pub const STEP: u32 = 1 << 31;

/// The counter after following the back edge, or `None` where the path
/// ends (the base case's K-th iteration, the step case's checked one).
pub fn next(it: u32, k: u32) -> Option<u32> {
    if it & STEP == 0 {
        (it + 1 < k).then_some(it + 1)
    } else {
        let j = it & !STEP;
        (j < k).then_some(STEP | (j + 1))
    }
}

/// A step iteration before the checked one.
fn assumed_iteration(it: u32, k: u32) -> bool {
    it & STEP != 0 && it & !STEP < k
}

/// Are the checks of an instance in these loops assumed?
pub fn assumed(loops: &[(NodeId, u32)], k: u32) -> bool {
    loops.iter().any(|&(_, it)| assumed_iteration(it, k))
}

/// Does an edge leave a loop from a step iteration before the checked one
/// (the path ends: another step case covers that exit)?
pub fn leaves_assumed(from: &[(NodeId, u32)], to: &[(NodeId, u32)], k: u32) -> bool {
    from.iter()
        .any(|&(h, it)| assumed_iteration(it, k) && !to.iter().any(|&(g, _)| g == h))
}

/// The iteration a trace shows at a loop head: none in the step case (the
/// state there is any state satisfying the invariants).
pub fn shown_iteration(it: u32) -> Option<u32> {
    (it & STEP == 0).then_some(it)
}

/// Checks become assumptions; the coverage checks (`Depth`) stay, since a
/// havocked call is not covered by any other instance.
pub fn assume_checks(cmds: &mut [Cmd], checks: &[Check]) {
    for c in cmds.iter_mut() {
        if let Cmd::Assert(f, i) = c {
            if !checks[*i].key.is_bound() {
                *c = Cmd::Assume(f.clone());
            }
        }
    }
}

/// Why a k-induction proof holds.
pub fn reason(k: u32, invariants: usize) -> String {
    let with = match invariants {
        0 => String::new(),
        1 => " and 1 inductive loop invariant".to_string(),
        n => format!(" and {n} inductive loop invariants"),
    };
    format!("k-induction with k = {k}{with}")
}

/// `--loops havoc` first (Houdini); when that does not verify the
/// program, k-induction assuming the invariants it proved.
pub fn run(
    p: &Program,
    a: &Analysis,
    users: &[UserCond],
    invariants: &[Invariant],
    opts: &Options,
    k: u32,
) -> ProcResult {
    let havoc = solve::havoc(
        p,
        a,
        users,
        invariants,
        &Options {
            loops: Loops::Havoc,
            ..opts.clone()
        },
    );
    if havoc.outcome == Outcome::Verified {
        return havoc;
    }
    run_after(p, a, users, opts, k, havoc)
}

/// k-induction after `--loops havoc` gave `havoc`.
pub fn run_after(
    p: &Program,
    a: &Analysis,
    users: &[UserCond],
    opts: &Options,
    k: u32,
    havoc: ProcResult,
) -> ProcResult {
    let start = Instant::now();
    let trusted = havoc.proven.clone().unwrap_or_default();
    let mut r = solve::run(
        p,
        a,
        users,
        &trusted,
        &Options {
            loops: Loops::KInduction(k),
            infer: false,
            ..opts.clone()
        },
    );
    r.invariants = trusted
        .iter()
        .map(|inv| (p.line(p.node(inv.head).span), inv.text.clone(), inv.user))
        .collect();
    // The given invariants that are not inductive stay reported, and so do
    // real errors havoc found that the base case is too short to reach.
    for w in havoc.warnings {
        let keep = matches!(w.key, gc::CheckKey::Invariant { .. }) || w.status == Status::Confirmed;
        if keep && !r.warnings.iter().any(|x| x.key == w.key) {
            if r.outcome != Outcome::Warnings {
                r.outcome = Outcome::Warnings;
                r.reason = "every failing check is reported".into();
            }
            r.warnings.push(w);
        }
    }
    r.solver_time += havoc.solver_time;
    r.clock_cut |= havoc.clock_cut;
    r.total_time = havoc.total_time + start.elapsed();
    r
}
