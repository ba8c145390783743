//! One transition of the explored graph as the backward transfer
//! (`explain/transfer.rs`) sees it: locations are the variable slots of the
//! state before it, an index the state does not know (nor the step's
//! decisions) names every element of its array.

use super::{Backward, ESet};
use crate::analysis::state::*;
use crate::explain::transfer::Step;
use crate::ir::*;
use std::collections::BTreeSet;
use std::sync::Arc;

pub(super) struct SymStep<'b, 'e> {
    pub bw: &'b Backward<'e>,
    pub node: &'b Node,
    pub val: Arc<Valuation>,
    pub label: Arc<Label>,
    /// The Error set after the step, made the one before it.
    pub set: ESet,
    pub at: (NodeId, LabelId),
    /// What a written place's index reads (`writes` finds it).
    pub index_reads: BTreeSet<VarSlot>,
}

impl Step for SymStep<'_, '_> {
    type Loc = VarSlot;

    fn outcome(&self) -> Option<bool> {
        match self.label.0.last() {
            Some(Decision::Branch(b)) => Some(*b),
            _ => None,
        }
    }

    fn writes(&mut self) -> (Vec<VarSlot>, bool) {
        let place = match &self.node.kind {
            NodeKind::Assign { place, .. } | NodeKind::Havoc { place, .. } => place,
            _ => return (Vec::new(), true),
        };
        let mut reads = BTreeSet::new();
        let written = self
            .bw
            .writes(self.node.proc, &self.val, place, &self.label, &mut reads);
        self.index_reads = reads;
        written
    }

    fn reads(&mut self) -> Vec<VarSlot> {
        let mut out = std::mem::take(&mut self.index_reads);
        let (bw, proc, val, label) = (self.bw, self.node.proc, &self.val, &self.label);
        match &self.node.kind {
            NodeKind::Assign { value, .. } => bw.reads(proc, val, value, label, &mut out),
            NodeKind::Branch {
                cond: Cond::Atom(a), ..
            } => {
                bw.reads(proc, val, &a.lhs, label, &mut out);
                bw.reads(proc, val, &a.rhs, label, &mut out);
            }
            NodeKind::Return { value: Some(e), .. } => bw.reads(proc, val, e, label, &mut out),
            _ => {}
        }
        out.into_iter().collect()
    }

    fn loc(&self, v: VarId) -> VarSlot {
        self.bw.e.frames.slot_of(v, 0)
    }

    fn matters(&self, l: VarSlot) -> bool {
        self.set.vars.contains(&l)
    }

    fn matters_any(&self, vars: &BTreeSet<VarId>) -> bool {
        let proc = self.node.proc;
        let set: BTreeSet<VarId> = self.set.vars.iter().map(|&sl| self.bw.slot_var(proc, sl)).collect();
        vars.iter().any(|d| set.contains(d))
    }

    fn kill(&mut self, l: VarSlot) {
        self.set.vars.remove(&l);
    }

    fn gen(&mut self, ls: Vec<VarSlot>) {
        self.set.vars.extend(ls);
    }

    fn gen_var(&mut self, v: VarId) {
        let mut all = BTreeSet::new();
        self.bw.all_slots(v, &mut all);
        self.set.vars.extend(all);
    }

    fn pending(&mut self) -> &mut BTreeSet<u32> {
        &mut self.set.pending
    }

    fn passed_return(&mut self) {
        self.set.ret = Some(self.at);
    }
}
