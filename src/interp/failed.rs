//! What a run keeps where a check fails, for the report's fact: the
//! values the failed check read (without marking them read: what the run
//! reads, and so every slice, is unchanged), the reads of its operand for
//! a recording run, and the last conversions that changed a value.

use super::{Machine, Step, Wrap, WRAPS_KEPT};
use crate::ir::*;

impl Machine<'_> {
    /// At a stop at run-time check `site`: what its operand reads.
    pub(super) fn record_operand(&mut self, operand: Option<&dyn Fn(NodeId, SiteId) -> Option<Expr>>, site: SiteId) {
        let Some(e) = operand.and_then(|o| o(self.pc_node, site)) else {
            return;
        };
        let Some(r) = &self.rec else { return };
        let before = r.borrow().log_reads();
        let _ = self.eval(&e);
        let mut r = r.borrow_mut();
        r.log.failed_operand = r.take_reads(before);
        r.log.failed_node = Some(self.pc_node);
    }

    /// The values of the scalar variables the branch just taken reads (the
    /// check that failed), looked at without marking them read: what the
    /// run reads is not changed by reporting it.
    pub(super) fn branch_values(&self, last: Option<&Step>) -> Vec<(VarId, i64)> {
        let Some(NodeKind::Branch {
            cond: Cond::Atom(a), ..
        }) = last.map(|s| &self.p.node(s.node).kind)
        else {
            return Vec::new();
        };
        self.values_of(&[&a.lhs, &a.rhs])
    }

    /// The values of the scalar variables `exprs` read, looked at without
    /// marking them read.
    pub(super) fn values_of(&self, exprs: &[&Expr]) -> Vec<(VarId, i64)> {
        let mut vars = Vec::new();
        for e in exprs {
            expr_vars(e, &mut vars);
        }
        let mut seen = std::collections::HashSet::new();
        vars.retain(|v| seen.insert(*v));
        vars.into_iter()
            .filter(|&v| self.p.var(v).len.is_none())
            .map(|v| {
                let off = self.layout.offset[v.index()] as usize;
                let value = if self.p.var(v).is_global_storage() {
                    self.globals[off]
                } else {
                    self.frame().locals[off]
                };
                (v, value)
            })
            .collect()
    }

    /// A conversion that changed a value; the last `WRAPS_KEPT` are kept.
    pub(super) fn note_wrap(&self, w: Wrap) {
        let mut wraps = self.wraps.borrow_mut();
        if wraps.len() == WRAPS_KEPT {
            wraps.pop_front();
        }
        wraps.push_back(w);
    }
}
