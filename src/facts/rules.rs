//! Runs the static rules (`rules/static.rs`, Ascent) on the input facts and
//! returns the derived relations, each sorted.

use super::input::InputFacts;
use crate::ir::{NodeId, ProcId, VarId};
use ascent::{ascent_run, Lattice};
use std::cmp::Ordering;

/// Every derived relation of the static rules (see `rules/static.rs` for
/// each one's meaning), rows sorted.
#[derive(Clone, Debug, Default)]
pub struct Derived {
    pub reachable_proc: Vec<ProcId>,
    pub same_scc: Vec<(ProcId, ProcId)>,
    pub recursive: Vec<ProcId>,
    pub proc_may_def: Vec<(ProcId, VarId)>,
    pub proc_may_use: Vec<(ProcId, VarId)>,
    pub defs: Vec<(NodeId, VarId)>,
    pub uses: Vec<(NodeId, VarId)>,
    pub end_point: Vec<NodeId>,
    pub can_exit: Vec<NodeId>,
    pub can_reach_error: Vec<NodeId>,
    pub ipdom: Vec<(NodeId, NodeId)>,
    pub control_dep: Vec<(NodeId, NodeId, bool)>,
    pub loop_modifies: Vec<(NodeId, VarId)>,
}

/// A set that shrinks by intersection: the postdominators of a point. Sets
/// share structure, so adding a point to a successor's set is cheap.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PostdomSet(im::OrdSet<NodeId>);

impl PostdomSet {
    fn one(p: NodeId) -> PostdomSet {
        PostdomSet(im::OrdSet::unit(p))
    }
    fn with(&self, p: NodeId) -> PostdomSet {
        PostdomSet(self.0.update(p))
    }
    fn contains(&self, p: &NodeId) -> bool {
        self.0.contains(p)
    }
}

impl PartialOrd for PostdomSet {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        subset_order(&self.0, &other.0).map(Ordering::reverse)
    }
}

impl Lattice for PostdomSet {
    fn meet_mut(&mut self, other: Self) -> bool {
        let before = self.0.len();
        self.0 = std::mem::take(&mut self.0).union(other.0);
        self.0.len() != before
    }
    fn join_mut(&mut self, other: Self) -> bool {
        let new = self.0.clone().intersection(other.0);
        let changed = new.len() != self.0.len();
        self.0 = new;
        changed
    }
}

fn subset_order<T: Ord + Clone>(a: &im::OrdSet<T>, b: &im::OrdSet<T>) -> Option<Ordering> {
    if a == b {
        Some(Ordering::Equal)
    } else if a.is_subset(b) {
        Some(Ordering::Less)
    } else if b.is_subset(a) {
        Some(Ordering::Greater)
    } else {
        None
    }
}

fn sorted<T: Ord>(rows: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut v: Vec<T> = rows.into_iter().collect();
    v.sort();
    v
}

// Ascent's rules name ignored columns `_`, which clippy takes for a
// variable named by underscores only.
#[allow(clippy::just_underscores_and_digits)]
pub fn run(input: &InputFacts) -> Derived {
    let res = include!("../../rules/static.rs");
    let ones = |v: Vec<(NodeId,)>| sorted(v.into_iter().map(|(x,)| x));
    Derived {
        reachable_proc: sorted(res.reachable_proc.into_iter().map(|(f,)| f)),
        same_scc: sorted(res.same_scc),
        recursive: sorted(res.recursive.into_iter().map(|(f,)| f)),
        proc_may_def: sorted(res.proc_may_def),
        proc_may_use: sorted(res.proc_may_use),
        defs: sorted(res.defs),
        uses: sorted(res.uses),
        end_point: ones(res.end_point),
        can_exit: ones(res.can_exit),
        can_reach_error: ones(res.can_reach_error),
        ipdom: sorted(res.ipdom),
        control_dep: sorted(res.control_dep),
        loop_modifies: sorted(res.loop_modifies),
    }
}
