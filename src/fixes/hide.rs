//! Fixes that only hide the error: after them the counterexample no longer
//! reaches the check, a loop the runs went round runs zero times, or the
//! edit is on an input guard or a value only the check reads. They rank
//! after the fixes that mend, and the views say which it is.

use crate::analysis::witness::Counterexample;
use crate::context::conditions::Condition;
use crate::facts::Analysis;
use crate::ir::{NodeKind, Program, SiteKind};
use std::collections::BTreeSet;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Hide {
    /// The counterexample's run no longer reaches the check.
    Unreachable,
    /// A loop the runs went round now runs zero times.
    NoLoop,
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
            Hide::Guard => "input_guard",
            Hide::Oracle => "check_value",
        }
    }

    /// What the views print after "hides the error:".
    pub fn words(name: &str) -> &'static str {
        match name {
            "check_unreachable" => "the check is no longer reached",
            "loop_skipped" => "a loop runs zero times",
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
}

impl Before {
    pub fn new(p: &Program, a: &Analysis, cond: &Condition, cx: &Counterexample) -> Before {
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
                let depth = trace.last().map_or(0, |s| s.depth);
                let guard = (0..trace.len())
                    .rev()
                    .take_while(|&i| trace[i].depth >= depth)
                    .find(|&i| {
                        trace[i].depth == depth && matches!(p.node(trace[i].node).kind, NodeKind::Branch { .. })
                    });
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
        Before { check, loops }
    }

    /// How an edit hides the error, from the lines its runs visit: `cx`
    /// pairs each counterexample's original run with the edited one, `all`
    /// every run (counterexamples and passing runs) alike.
    pub fn judge(&self, cx: &[(&Lines, &Lines)], all: &[(&Lines, &Lines)]) -> Option<Hide> {
        if cx
            .iter()
            .any(|(_, after)| self.check.iter().any(|l| !after.contains(l)))
        {
            return Some(Hide::Unreachable);
        }
        let skipped = |body: &Lines| {
            let went = |run: &Lines| body.iter().any(|l| run.contains(l));
            let round: Vec<_> = all.iter().filter(|(before, _)| went(before)).collect();
            !round.is_empty() && round.iter().all(|(_, after)| !went(after))
        };
        self.loops
            .iter()
            .filter(|b| !b.is_empty())
            .any(skipped)
            .then_some(Hide::NoLoop)
    }
}
