//! `realloc(p, n)` as glibc has it (C17 7.22.3.5):
//!
//! - `p` null: `malloc(n)`;
//! - `p` not the start of a live heap object: an invalid free (`deref`),
//!   as `free` says;
//! - `n` zero: `p` freed, the result null (glibc, and AddressSanitizer);
//! - otherwise the call's next instance (`realloc@9#2`, a pool per call as
//!   for `malloc`, `heap.rs`) becomes live with `n` bytes, the elements
//!   wholly inside both blocks are copied, the rest holds arbitrary
//!   values, and `p`'s block is freed: a later use of `p` is a
//!   use-after-free. As `malloc` in this model, it never fails.
//!
//! The copy is one loop over the elements (`n` is rarely a constant), its
//! body a split over the old object and the new instance.

use super::expr::*;
use super::heap::{not_live_start, Site};
use super::*;
use crate::syntax::ast::{BinOp, Expr, ExprKind, Ident, Stmt, StmtKind};

impl Mem {
    /// `realloc`'s old pointer `arg`, its tag and offset bound to
    /// temporaries in `pre` (`None` after an error).
    pub(super) fn realloc_old(&mut self, arg: &ast::Expr, pre: &mut Vec<Stmt>, span: Span) -> Option<(Expr, Expr)> {
        let v = if is_null_constant(arg) {
            Self::null(arg.span)
        } else {
            self.rv(arg)
        };
        if v.leaves.len() != 2 {
            self.unsupported(span, format!("`realloc` of a `{}`", v.ty.c_name()));
            return None;
        }
        pre.extend(v.pre);
        let mut it = v.leaves.into_iter();
        let tag = self.bind_always(pre, it.next().expect("two leaves"), IntType::Int);
        let off = self.bind_always(pre, it.next().expect("two leaves"), IntType::Int);
        Some((tag, off))
    }

    /// The statements of `realloc` at `site` (elements `elem` bytes of type
    /// `ty`) once the old pointer and `bytes` are bound; `alloc` allocates
    /// the new block into temporary `t` (`Mem::allocate`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn realloc_body(
        &mut self,
        site: &Site,
        (elem, ty): (i64, &CType),
        (tag, off): (Expr, Expr),
        bytes: &Expr,
        t: &str,
        alloc: Vec<Stmt>,
        span: Span,
    ) -> Vec<Stmt> {
        let k = self.access(span);
        let invalid = || call(INVALID_ACCESS, vec![int(k, span)], span);
        // `n`: the bytes to copy, 0 unless the old block is of the type.
        let n = self.temp(IntType::LongLong);
        let mut cases = Vec::new();
        let mut copies = Vec::new();
        for base in self.freeable() {
            let Some(o) = self.objects.by_base(&base).cloned() else {
                continue;
            };
            let state = Self::heap_state(&base);
            let bad = not_live_start(&off, &state, span);
            let mut grow = alloc.clone();
            if o.ty == *ty {
                grow.extend(self.copied_bytes(&o, elem, bytes, &n, span));
                copies.push((o.tag, base.clone()));
            }
            let zero = bin(BinOp::Eq, bytes.clone(), int(0, span), span);
            cases.push((
                o.tag,
                vec![
                    if_(bad, vec![invalid()], vec![], span),
                    if_(zero, vec![assign(var(t, span), int(0, span), span)], grow, span),
                    assign(var(&state, span), int(2, span), span),
                ],
            ));
        }
        let split = self.split(&tag, cases, span);
        let mut out = vec![
            assign(var(&n, span), int(0, span), span),
            if_(
                bin(BinOp::Eq, tag.clone(), int(0, span), span),
                alloc,
                vec![split],
                span,
            ),
        ];
        out.extend(self.realloc_copy(site, &copies, (&tag, t), elem, &n, span));
        out
    }

    /// `n` := the bytes of old object `o` to copy: the fewer of its bytes and
    /// `bytes`, never past the elements its storage holds (an entry's
    /// `\valid` array may be longer: what lies past them stays arbitrary).
    fn copied_bytes(&mut self, o: &objects::Obj, elem: i64, bytes: &Expr, n: &str, span: Span) -> Vec<Stmt> {
        let held = match &o.len {
            Some(len) => offset(BinOp::Mul, len.clone(), int(elem, span), span),
            None => int(elem, span),
        };
        let mut out = vec![assign(var(n, span), bytes.clone(), span)];
        for bound in [var(&Self::heap_len(&o.base), span), held] {
            let fewer = bin(BinOp::Lt, bound.clone(), var(n, span), span);
            out.push(if_(fewer, vec![assign(var(n, span), bound, span)], vec![], span));
        }
        out
    }

    /// One loop copying the first `n` bytes (whole elements) of the old
    /// object (`copies`: its tag and name, by `tag`) into the instance of
    /// `site` that `t` points to.
    fn realloc_copy(
        &mut self,
        site: &Site,
        copies: &[(i64, String)],
        (tag, t): (&Expr, &str),
        elem: i64,
        n: &str,
        span: Span,
    ) -> Vec<Stmt> {
        let Some(ty) = site.ty.clone() else {
            return vec![];
        };
        let Ok(leaves) = self.types.leaves(&ty) else {
            return vec![];
        };
        let i = self.temp(IntType::Int);
        // The model's own accesses, inside both objects by `n`: checked as
        // the call's access (`DerefIndex`), no bounds site each.
        let k = self.access(span) as u32;
        let elem_at = |base: &str, path: &str| {
            let id = Ident {
                name: super::file_scope(&format!("{base}{path}")),
                span,
            };
            mk(ExprKind::DerefIndex(id, Box::new(var(&i, span)), k), span)
        };
        let new_tags: Vec<(i64, String)> = (1..=site.instances)
            .map(|j| Self::instance(&site.base, j))
            .filter_map(|b| self.objects.by_base(&b).map(|o| (o.tag, b.clone())))
            .collect();
        let mut by_old: Vec<Stmt> = vec![];
        for (old_tag, old) in copies.iter().rev() {
            let mut by_new: Vec<Stmt> = vec![];
            for (new_tag, new) in new_tags.iter().rev() {
                let body = leaves
                    .iter()
                    .map(|l| assign(elem_at(new, &l.path), elem_at(old, &l.path), span))
                    .collect();
                let is_new = bin(BinOp::Eq, var(t, span), int(*new_tag, span), span);
                by_new = vec![if_(is_new, body, by_new, span)];
            }
            let is_old = bin(BinOp::Eq, tag.clone(), int(*old_tag, span), span);
            by_old = vec![if_(is_old, by_new, by_old, span)];
        }
        by_old.push(assign(
            var(&i, span),
            offset(BinOp::Add, var(&i, span), int(1, span), span),
            span,
        ));
        // Element `i` is inside when `(i + 1) * elem <= n`: no division.
        let wide = mk(ExprKind::Cast(IntType::LongLong, Box::new(var(&i, span))), span);
        let end = offset(
            BinOp::Mul,
            offset(BinOp::Add, wide, int(1, span), span),
            int(elem, span),
            span,
        );
        let inside = bin(BinOp::Le, end, var(n, span), span);
        vec![
            assign(var(&i, span), int(0, span), span),
            stmt(StmtKind::While(ast::Cond::Expr(inside), block(by_old, span)), span),
        ]
    }
}
