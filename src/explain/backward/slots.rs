//! The variable slots an expression reads or a place writes at a state,
//! with the elements its array indices name.

use super::Backward;
use crate::analysis::state::*;
use crate::ir::*;
use std::collections::BTreeSet;

impl Backward<'_> {
    pub(super) fn slot_var(&self, proc: ProcId, s: VarSlot) -> VarId {
        match s {
            VarSlot::Global(g) => self.global_var[g as usize],
            VarSlot::Local(l) => self.local_var[proc.index()][l as usize],
        }
    }

    pub(super) fn all_slots(&self, var: VarId, out: &mut impl Extend<VarSlot>) {
        for k in 0..self.e.cx.p.var(var).slots() {
            out.extend([self.e.frames.slot_of(var, k)]);
        }
    }

    /// The value of a pure expression if it is a known constant: the
    /// shared evaluation (`ir::eval`) in 64-bit steps, an element past its
    /// array unknown.
    pub(super) fn value_of(&self, proc: ProcId, val: &Valuation, e: &Expr) -> Option<i64> {
        let p = self.e.cx.p;
        let mut read = |v: VarId, k: i64| {
            let k = u32::try_from(k).ok().filter(|&k| k < p.var(v).slots())?;
            self.e.read(proc, val, v, k).as_const()
        };
        eval::eval(e, eval::Width::Narrow, &mut read)
    }

    /// The element an index names at this state: known, recorded in the
    /// step's decisions, or unknown.
    pub(super) fn element(
        &self,
        proc: ProcId,
        val: &Valuation,
        idx: &Expr,
        site: SiteId,
        label: &Label,
    ) -> Option<u32> {
        let k = self.value_of(proc, val, idx).or_else(|| {
            label.0.iter().find_map(|d| match d {
                Decision::Index(s, k) if *s == site => Some(*k),
                _ => None,
            })
        })?;
        (k >= 0).then_some(k as u32)
    }

    /// The slots an expression reads at this state.
    pub(super) fn reads(&self, proc: ProcId, val: &Valuation, e: &Expr, label: &Label, out: &mut impl Extend<VarSlot>) {
        match &e.kind {
            ExprKind::Const(_) => {}
            ExprKind::Var(v) => {
                out.extend([self.e.frames.slot_of(*v, 0)]);
            }
            ExprKind::Elem(v, i, site) => {
                self.reads(proc, val, i, label, out);
                match self.element(proc, val, i, *site, label) {
                    Some(k) if k < self.e.cx.p.var(*v).slots() => {
                        out.extend([self.e.frames.slot_of(*v, k)]);
                    }
                    _ => self.all_slots(*v, out),
                }
            }
            ExprKind::Neg(x) | ExprKind::Conv(_, x) | ExprKind::Checked { value: x, .. } => {
                self.reads(proc, val, x, label, out)
            }
            ExprKind::Arith(_, a, b) | ExprKind::Bit { a, b, .. } => {
                self.reads(proc, val, a, label, out);
                self.reads(proc, val, b, label, out);
            }
            ExprKind::Div { num, den, .. } => {
                self.reads(proc, val, num, label, out);
                self.reads(proc, val, den, label, out);
            }
            ExprKind::Float { args, .. } => {
                for a in args {
                    self.reads(proc, val, a, label, out);
                }
            }
        }
    }

    /// The slots a place writes (`exact`: one slot, known), and what its
    /// index reads.
    pub(super) fn writes(
        &self,
        proc: ProcId,
        val: &Valuation,
        pl: &Place,
        label: &Label,
        reads: &mut impl Extend<VarSlot>,
    ) -> (Vec<VarSlot>, bool) {
        match &pl.index {
            None => match self.e.cx.p.var(pl.var).len {
                // A whole array (a havoc of an uninitialised local array).
                Some(_) => {
                    let mut all = BTreeSet::new();
                    self.all_slots(pl.var, &mut all);
                    (all.into_iter().collect(), true)
                }
                None => (vec![self.e.frames.slot_of(pl.var, 0)], true),
            },
            Some((i, site)) => {
                self.reads(proc, val, i, label, reads);
                match self.element(proc, val, i, *site, label) {
                    Some(k) if k < self.e.cx.p.var(pl.var).slots() => (vec![self.e.frames.slot_of(pl.var, k)], true),
                    _ => {
                        let mut all = BTreeSet::new();
                        self.all_slots(pl.var, &mut all);
                        (all.into_iter().collect(), false)
                    }
                }
            }
        }
    }
}
