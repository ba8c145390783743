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

    /// The value of a pure expression if it is a known constant.
    pub(super) fn value_of(&self, proc: ProcId, val: &Valuation, e: &Expr) -> Option<i64> {
        match &e.kind {
            ExprKind::Const(c) => Some(*c),
            ExprKind::Var(v) => self.e.read(proc, val, *v, 0).as_const(),
            ExprKind::Elem(v, i, _) => {
                let k = self.value_of(proc, val, i)?;
                if k < 0 || k >= self.e.cx.p.var(*v).slots() as i64 {
                    return None;
                }
                self.e.read(proc, val, *v, k as u32).as_const()
            }
            ExprKind::Neg(x) => self.value_of(proc, val, x)?.checked_neg(),
            ExprKind::Conv(t, x) => i64::try_from(t.convert(self.value_of(proc, val, x)? as i128)).ok(),
            ExprKind::Checked { value, ty, .. } => {
                let v = self.value_of(proc, val, value)?;
                let (lo, hi) = ty.range();
                (lo..=hi).contains(&v).then_some(v)
            }
            ExprKind::Arith(op, a, b) => {
                let (a, b) = (self.value_of(proc, val, a)?, self.value_of(proc, val, b)?);
                match op {
                    ArithOp::Add => a.checked_add(b),
                    ArithOp::Sub => a.checked_sub(b),
                    ArithOp::Mul => a.checked_mul(b),
                }
            }
            ExprKind::Bit {
                op, ty, a, b, strict, ..
            } => {
                let (a, b) = (self.value_of(proc, val, a)?, self.value_of(proc, val, b)?);
                i64::try_from(op.apply(*ty, a as i128, b as i128, *strict)?).ok()
            }
            ExprKind::Div { num, den, rem, .. } => {
                let (a, b) = (self.value_of(proc, val, num)?, self.value_of(proc, val, den)?);
                if *rem {
                    a.checked_rem(b)
                } else {
                    a.checked_div(b)
                }
            }
            ExprKind::Float { op, ty, args, site } => {
                let vals = args
                    .iter()
                    .map(|a| self.value_of(proc, val, a))
                    .collect::<Option<Vec<i64>>>()?;
                match crate::ir::float::apply(*op, *ty, &vals) {
                    Ok(v) => Some(v),
                    Err(v) => site.is_none().then_some(v),
                }
            }
        }
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
