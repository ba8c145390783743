//! Fixes that only hide the error: after them no run reaches the check, a
//! loop the runs went round runs zero times, a statement on the error's
//! path alone no longer runs, or the edit is on an input guard or a value only the
//! check reads. They rank
//! after the fixes that mend, and the views say which it is.

use crate::analysis::witness::Counterexample;
use crate::context::conditions::Condition;
use crate::facts::Analysis;
use crate::ir::{Program, SiteKind};
use std::collections::BTreeSet;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Hide {
    /// The counterexample's run no longer reaches the check, and no other
    /// run does.
    Unreachable,
    /// A loop the runs went round now runs zero times.
    NoLoop,
    /// A statement the error depends on (but the edited one) that only
    /// the counterexamples ran is run by none now: the error's path cut
    /// off, a branch made never taken.
    Skipped,
    /// The edit is on an input guard.
    Guard,
    /// The edit is on a value only the check reads.
    Oracle,
}

impl Hide {
    pub fn name(self) -> &'static str {
        match self {
            Hide::Unreachable => "check_unreachable",
            Hide::NoLoop => "loop_skipped",
            Hide::Skipped => "statement_skipped",
            Hide::Guard => "input_guard",
            Hide::Oracle => "check_value",
        }
    }

    /// What the views print after "hides the error:".
    pub fn words(name: &str) -> &'static str {
        match name {
            "check_unreachable" => "the check is no longer reached",
            "loop_skipped" => "a loop runs zero times",
            "statement_skipped" => "a statement only the failing runs ran no longer runs",
            "input_guard" => "an input guard is changed",
            _ => "a value only the check reads is changed",
        }
    }
}

/// The lines each run visits.
pub type Lines = BTreeSet<u32>;

pub fn lines_of(p: &Program, trace: &[crate::interp::Step]) -> Lines {
    trace.iter().map(|s| p.line(p.node(s.node).span)).collect()
}

/// What the original runs did, to compare the edited runs with.
pub struct Before {
    /// The check: the error's site, or for `reach_error()` the branch that
    /// guards it, and the statement of the entry that led there.
    check: Lines,
    /// Each loop's lines but its head's.
    loops: Vec<Lines>,
    /// The statements the error depends on (the lines the edits are made on).
    depends: Lines,
}

impl Before {
    pub fn new(p: &Program, a: &Analysis, cond: &Condition, cx: &Counterexample, depends: &Lines) -> Before {
        let mut check = Lines::new();
        let trace = &cx.run.trace;
        let line = |i: usize| p.line(p.node(trace[i].node).span);
        let site = cond.site().map(|s| p.site(s));
        // The check: the site's line, or the branch guarding `reach_error()`
        // and the entry's statement that led to it.
        match site {
            Some(s) if s.kind != SiteKind::ReachError => {
                check.insert(p.line(s.span));
            }
            _ => {
                let guard = super::spec::last_branch(p, trace);
                if let Some(g) = guard {
                    check.insert(line(g));
                    check.extend((0..=g).rev().find(|&i| trace[i].depth == 0).map(line));
                }
            }
        }
        let loops = a
            .loops
            .iter()
            .map(|l| {
                let head = p.line(p.node(l.head).span);
                l.body
                    .iter()
                    .map(|&n| p.line(p.node(n).span))
                    .filter(|&x| x != head)
                    .collect()
            })
            .collect();
        Before {
            check,
            loops,
            depends: depends.clone(),
        }
    }

    /// How the edit on `line` hides the error, from the lines its runs
    /// visit: `cx` pairs each counterexample's original run with the edited
    /// one, `passing` each passing run's alike. A fix of the branch that
    /// leads to the check leaves the counterexample short of it, as any fix
    /// there must; it hides the error only when no run reaches the check
    /// any more. A loop the runs went round, or a statement that only the
    /// counterexamples ran (the error's own path), run by none after the
    /// edit, nor by `probe`'s runs of the edited program on other values,
    /// is cut off, not mended (where a probe still goes round, the edit
    /// only changed how often: `i <= 2*k` -> `i < 2*k` on `k == 0`).
    pub fn judge(
        &self,
        cx: &[(&Lines, &Lines)],
        passing: &[(&Lines, &Lines)],
        line: u32,
        probe: impl Fn() -> Vec<Lines>,
    ) -> Option<Hide> {
        let all: Vec<&(&Lines, &Lines)> = cx.iter().chain(passing).collect();
        let reaches = |run: &Lines| self.check.iter().all(|l| run.contains(l));
        if cx.iter().any(|(_, after)| !reaches(after)) && !all.iter().any(|(_, after)| reaches(after)) {
            return Some(Hide::Unreachable);
        }
        let probed = std::cell::OnceCell::new();
        let probes = || probed.get_or_init(&probe);
        let skipped = |body: &Lines| {
            let went = |run: &Lines| body.iter().any(|l| run.contains(l));
            let round: Vec<_> = all.iter().filter(|(before, _)| went(before)).collect();
            !round.is_empty() && round.iter().all(|(_, after)| !went(after))
        };
        let dead = |body: &Lines| skipped(body) && probes().iter().all(|run| body.is_disjoint(run));
        if self.loops.iter().filter(|b| !b.is_empty()).any(dead) {
            return Some(Hide::NoLoop);
        }
        let error_path = |l: &u32| !passing.iter().any(|(before, _)| before.contains(l));
        let cut: Lines = self
            .depends
            .iter()
            .filter(|&&l| l != line && !self.check.contains(&l) && error_path(&l))
            .filter(|&&l| skipped(&Lines::from([l])))
            .copied()
            .collect();
        // Other runs of the edited program (any outcome) may still go
        // there: then the edit only moved the runs known.
        (!cut.is_empty() && probes().iter().all(|run| run.is_disjoint(&cut))).then_some(Hide::Skipped)
    }
}
