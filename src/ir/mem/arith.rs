//! Pointer arithmetic. An offset counts elements of the object a pointer
//! points into, except in an object that is a field of an array's
//! elements (`a.f` of `struct S a[4]`, pointed into by `&a[1].f`): its
//! offset is the element's index, and one step of the pointer leaves the
//! field, so it moves by `FIELD_STEP` — past every element, outside the
//! object (as `(&s.f)[1]` is for a lone struct) until steps come back.
//! gcc reads the next field there; C calls it undefined. In the rows of
//! an array field of an array's elements, a step is the array's length
//! (`rows.rs`).

use super::expr::*;
use super::*;
use crate::ir::pointers::FIELD_STEP;
use crate::syntax::ast::{BinOp, Expr, ExprKind, Stmt};

impl Mem {
    /// The tags of the objects of type `ty` that are fields of an array's
    /// elements.
    pub(super) fn field_tags(&mut self, ty: &CType, span: Span) -> Vec<i64> {
        let objs: Vec<_> = self
            .objects
            .of_type(ty)
            .filter(|o| o.stride.is_none() && o.index_at.is_some_and(|at| at < o.base.len()))
            .cloned()
            .collect();
        for o in &objs {
            let len = o.len.as_ref().and_then(crate::ir::lower::const_eval);
            if len.is_none_or(|n| n >= FIELD_STEP) {
                self.unsupported(
                    span,
                    format!("a pointer to a field of `{}`, an array of {FIELD_STEP} or more elements or of a size not constant, is not supported", o.base),
                );
            }
        }
        objs.iter().map(|o| o.tag).collect()
    }

    /// Whether `tag` names none of `tags`: a test of the model's own, at an
    /// access's span so that views leave it out (`Program::is_access_branch`;
    /// `!=`, so no view reads it as the case of a split).
    fn tag_not_in(&mut self, tag: &Expr, tags: &[i64], span: Span) -> Expr {
        self.access(span);
        let ne = |k: i64| bin(BinOp::Ne, tag.clone(), int(k, span), span);
        let mut it = tags.iter();
        let first = ne(*it.next().expect("a tag"));
        it.fold(first, |acc, &k| bin(BinOp::And, acc, ne(k), span))
    }

    /// The leaves of pointer (`tag`, `off`) to `ty` moved by `op` (`+`,
    /// `-`) `k` elements; `tag` is read once, into a temporary, before the
    /// offset is computed.
    pub(super) fn moved(
        &mut self,
        pre: &mut Vec<Stmt>,
        ptr: (Expr, Expr),
        ty: &CType,
        op: BinOp,
        k: Expr,
        span: Span,
    ) -> (Expr, Expr) {
        let (tag, off) = ptr;
        let ty = pointee(ty).cloned().unwrap_or(CType::Void);
        let tags = self.field_tags(&ty, span);
        let strided = self.strided(&ty);
        if tags.is_empty() && strided.is_empty() {
            return (tag, offset(op, off, k, span));
        }
        let mut tag = self.bind_always(pre, tag, IntType::Int);
        // At the access's span: a copy lowering makes of it is the model's.
        tag.span = span;
        let k = self.bind(pre, k, IntType::Int);
        let stepped = offset(BinOp::Mul, k.clone(), int(FIELD_STEP, span), span);
        let plain = self.unless_field(&tag, &tags, k.clone(), stepped, span);
        // In rows (`rows.rs`), an element is a stride away.
        let times = |_, n| offset(BinOp::Mul, k.clone(), int(n, span), span);
        let step = self.by_stride(&tag, &strided, times, plain, span);
        // Computed before the pointer's leaves are written (a view shows
        // them together).
        let off = self.bind(pre, offset(op, off, step, span), IntType::Int);
        (tag, off)
    }

    /// `e` for a pointer with tag `tag` outside the field objects `tags`,
    /// else `field` (counted in `FIELD_STEP`s).
    fn unless_field(&mut self, tag: &Expr, tags: &[i64], e: Expr, field: Expr, span: Span) -> Expr {
        if tags.is_empty() {
            return e;
        }
        let not = self.tag_not_in(tag, tags, span);
        mk(ExprKind::Ternary(Box::new(not), Box::new(e), Box::new(field)), span)
    }

    /// `p - q` in elements: the offsets' difference, in a field of an
    /// array's elements counted in steps.
    pub(super) fn difference(&mut self, p: (Expr, Expr), q_off: Expr, ty: &CType, span: Span) -> Expr {
        let (tag, off) = p;
        let diff = bin(BinOp::Sub, off, q_off, span);
        let ty = pointee(ty).cloned().unwrap_or(CType::Void);
        let tags = self.field_tags(&ty, span);
        let strided = self.strided(&ty);
        if tags.is_empty() && strided.is_empty() {
            return diff;
        }
        let mut pre = Vec::new();
        let diff = self.bind(&mut pre, diff, IntType::Int);
        let steps = bin(BinOp::Div, diff.clone(), int(FIELD_STEP, span), span);
        let plain = self.unless_field(&tag, &tags, diff.clone(), steps, span);
        let over = |_, n| bin(BinOp::Div, diff.clone(), int(n, span), span);
        let e = self.by_stride(&tag, &strided, over, plain, span);
        wrap(pre, e)
    }
}
