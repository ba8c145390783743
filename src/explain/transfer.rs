//! The backward transfer of focus-statement extraction (seed 001 §2,
//! DESIGN §6) over one step inside an activation, written once for both
//! domains of locations it is applied to: the variable slots of a
//! symbolic state (`backward.rs`, `Backward::update`, which the Datalog
//! rules of `rules/bwd.rs` call on every transition of a graph) and the
//! storage locations a run touched (`slice.rs`). A domain says what a step
//! writes and reads and keeps the Error set (`Step`); the rule below
//! decides focus and the Error set before the step.
//!
//! In Datalog form, for a step `t` at node `n`, with `matter(l)` the Error
//! set after it, `pending(k)` the control-dependence sets a later focus
//! statement left pending, and `matter'`/`pending'` the same before it
//! (a `'` relation holds what the unprimed one does unless a rule kills it):
//!
//! ```text
//! // Facts of the step, in its domain: writes(t, l), exact(t) (all of
//! // them written, not one unknown element), reads(t, l), outcome(t, b),
//! // var(l, x), ret_loc(t, l) (the return variable); of the program:
//! // cd(n, k) (n's controlling branches are set k), holds(k, n),
//! // may_def(n, b, x) (side b of branch n may define x, callees included),
//! // unit_var(n, x) (x in an atom of n's condition, not in n's own).
//! focus(t, assign)  :- assign_or_draw(t), writes(t, l), matter(l).
//! kill(t, l)        :- focus(t, assign), exact(t), writes(t, l).
//! gen(t, l)         :- focus(t, assign), reads(t, l).
//!
//! control(t)        :- branch(t, n), pending(k), holds(k, n).
//! potential(t)      :- branch(t, n), outcome(t, b), may_def(n, !b, x),
//!                      matter(l), var(l, x), !control(t).
//! focus(t, branch(b)) :- outcome(t, b), control(t).
//! focus(t, branch(b)) :- outcome(t, b), potential(t).
//! resolved(t, k)    :- focus(t, branch(_)), pending(k), holds(k, n).
//! gen(t, l)         :- focus(t, branch(_)), reads(t, l).
//! gen(t, l)         :- focus(t, branch(_)), unit_var(n, x), var(l, x).
//!
//! focus(t, return)  :- return_value(t), ret_loc(t, l), matter(l).
//! kill(t, l)        :- focus(t, return), ret_loc(t, l).
//! gen(t, l)         :- focus(t, return), reads(t, l).
//! passed_return(t)  :- return(t), !focus(t, return).
//!
//! matter'(l)        :- matter(l), !kill(t, l).
//! matter'(l)        :- gen(t, l).
//! pending'(k)       :- pending(k), !resolved(t, k).
//! pending'(k)       :- focus(t, _), cd(n, k).
//! ```
//!
//! Calls, exits and the error itself are not steps of this rule: they
//! move between activations, which the two domains keep differently
//! (summaries keyed by Error sets, `backward/calls.rs`; a stack of a run's
//! activations, `slice.rs`).

use super::fss::EvKind;
use crate::context::Context;
use crate::ir::*;
use std::collections::{BTreeSet, HashMap};

/// One step as the transfer sees it, in a domain of locations, with the
/// Error set it updates.
pub(crate) trait Step {
    type Loc: Copy;
    /// The outcome of a branch evaluation (`None`: the step decided none).
    fn outcome(&self) -> Option<bool>;
    /// The locations the step writes, and whether it writes all of them
    /// (false: one element of them, the domain does not know which).
    fn writes(&mut self) -> (Vec<Self::Loc>, bool);
    /// What the step reads: a written place's index and the value, a
    /// branch's atom, a `return`'s value.
    fn reads(&mut self) -> Vec<Self::Loc>;
    /// Element 0 of variable `v` in the step's activation.
    fn loc(&self, v: VarId) -> Self::Loc;
    /// Whether `l` is in the Error set.
    fn matters(&self, l: Self::Loc) -> bool;
    /// Whether a location of one of `vars` is in the Error set.
    fn matters_any(&self, vars: &BTreeSet<VarId>) -> bool;
    fn kill(&mut self, l: Self::Loc);
    fn gen(&mut self, ls: Vec<Self::Loc>);
    /// Every location of `v` joins the Error set.
    fn gen_var(&mut self, v: VarId);
    fn pending(&mut self) -> &mut BTreeSet<u32>;
    /// A written `return` whose value does not matter was passed.
    fn passed_return(&mut self);
}

/// What the rule reads of the program: the control-dependence sets and
/// each unit's variables.
pub(crate) struct Rules {
    pub cds: ControlSets,
    /// Variables of all atoms of each unit (a condition's variables).
    unit_vars: HashMap<UnitId, Vec<VarId>>,
}

impl Rules {
    pub fn new(cx: &Context) -> Rules {
        Rules {
            cds: ControlSets::new(cx.p, cx),
            unit_vars: unit_vars(cx.p),
        }
    }

    /// A focus statement at `n` makes its controlling branches pending.
    pub fn add_cd(&self, n: NodeId, pending: &mut BTreeSet<u32>) {
        if let Some(c) = self.cds.of(n) {
            pending.insert(c);
        }
    }

    /// The rule above over step `s` at node `n`: the Error set `s` holds
    /// becomes the one before the step; the focus event, if it is one.
    pub fn transfer(&self, cx: &Context, n: NodeId, s: &mut impl Step) -> Option<EvKind> {
        let node = cx.p.node(n);
        match &node.kind {
            // A draw is an assignment that reads nothing.
            NodeKind::Assign { .. } | NodeKind::Havoc { .. } => {
                let (written, exact) = s.writes();
                if !written.iter().any(|&w| s.matters(w)) {
                    return None;
                }
                if exact {
                    for w in written {
                        s.kill(w);
                    }
                }
                let reads = s.reads();
                s.gen(reads);
                self.add_cd(n, s.pending());
                Some(EvKind::Assign)
            }
            NodeKind::Branch { cond, .. } => {
                let b = s.outcome()?;
                let control = s.pending().iter().any(|&k| self.cds.holds(k, n));
                if !control && !s.matters_any(cx.a.region_defs(n, !b)) {
                    return None;
                }
                s.pending().retain(|&k| !self.cds.holds(k, n));
                let reads = s.reads();
                s.gen(reads);
                // The whole condition's variables (operands not evaluated
                // on this path included), as in the paper; of this
                // operand's arrays, the elements it read.
                let own = atom_vars(cond);
                for &v in self.unit_vars.get(&node.unit).into_iter().flatten() {
                    if !own.contains(&v) {
                        s.gen_var(v);
                    }
                }
                self.add_cd(n, s.pending());
                Some(EvKind::Branch(b))
            }
            NodeKind::Return { value, .. } => {
                let rv = cx.p.proc(node.proc).ret_var.map(|rv| s.loc(rv));
                match (value, rv) {
                    (Some(_), Some(l)) if s.matters(l) => {
                        s.kill(l);
                        let reads = s.reads();
                        s.gen(reads);
                        self.add_cd(n, s.pending());
                        Some(EvKind::Return)
                    }
                    _ => {
                        s.passed_return();
                        None
                    }
                }
            }
            _ => None,
        }
    }
}

/// The variables a branch's own atom reads.
pub fn atom_vars(cond: &Cond) -> Vec<VarId> {
    let mut vs = Vec::new();
    if let Cond::Atom(a) = cond {
        expr_vars(&a.lhs, &mut vs);
        expr_vars(&a.rhs, &mut vs);
    }
    vs
}

/// The sets of branches each node is control dependent on, numbered.
pub(crate) struct ControlSets {
    /// Each node's set (an index into `sets`; the empty set has one too).
    pub of_node: Vec<u32>,
    pub sets: Vec<Vec<NodeId>>,
}

impl ControlSets {
    pub fn new(p: &Program, cx: &Context) -> ControlSets {
        let mut ids: HashMap<Vec<NodeId>, u32> = HashMap::new();
        let mut sets = Vec::new();
        let mut of_node = Vec::new();
        for n in p.node_ids() {
            let mut bs: Vec<NodeId> = cx.a.control_deps[n.index()].iter().map(|(b, _)| *b).collect();
            bs.sort();
            bs.dedup();
            let id = *ids.entry(bs.clone()).or_insert_with(|| {
                sets.push(bs);
                sets.len() as u32 - 1
            });
            of_node.push(id);
        }
        ControlSets { of_node, sets }
    }

    /// The set of `n`'s controlling branches, unless it has none.
    pub fn of(&self, n: NodeId) -> Option<u32> {
        let id = self.of_node[n.index()];
        (!self.sets[id as usize].is_empty()).then_some(id)
    }

    /// Whether branch `b` is in set `id`.
    pub fn holds(&self, id: u32, b: NodeId) -> bool {
        self.sets[id as usize].contains(&b)
    }
}

/// The variables of all atoms of each unit (a condition's variables).
fn unit_vars(p: &Program) -> HashMap<UnitId, Vec<VarId>> {
    let mut out: HashMap<UnitId, Vec<VarId>> = HashMap::new();
    for n in p.node_ids() {
        if let NodeKind::Branch {
            cond: Cond::Atom(a), ..
        } = &p.node(n).kind
        {
            let vs = out.entry(p.node(n).unit).or_default();
            expr_vars(&a.lhs, vs);
            expr_vars(&a.rhs, vs);
        }
    }
    out
}
