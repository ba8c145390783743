//! Lowering GNU statement expressions `({ ... })`.

use super::*;

impl Cx<'_> {
    /// `({ s1; ...; e; })`: the statements in a block of their own, then
    /// `e`'s value (0 when the last statement is no expression: C gives
    /// such a statement expression no value to use).
    pub(super) fn stmt_expr(&mut self, fl: &mut FnLower, b: &ast::Block, span: Span) -> Expr {
        self.with_block(fl, b.span, |cx, fl| {
            let (last, init) = match b.stmts.split_last() {
                Some((s, init)) if matches!(s.kind, StmtKind::Expr(_)) => (Some(s), init),
                _ => (None, &b.stmts[..]),
            };
            for s in init {
                cx.stmt(fl, s);
            }
            let Some(ast::Stmt {
                kind: StmtKind::Expr(e),
                ..
            }) = last
            else {
                return Expr {
                    kind: ExprKind::Const(0),
                    span,
                };
            };
            // Its type is found outside the block (`Cx::type_of`): a value
            // computed from the block's own locals is left out unless it is
            // one of them.
            let own = |n: &str| {
                b.stmts
                    .iter()
                    .any(|s| matches!(&s.kind, StmtKind::Decl(ds) if ds.iter().any(|d| d.name.name == n)))
            };
            let mut mentions = false;
            expr_walk(e, &mut |x| {
                if let AK::Var(n) | AK::Index(n, _) = &x.kind {
                    mentions |= own(&n.name);
                }
            });
            if mentions && !matches!(e.kind, AK::Var(_)) {
                cx.err(
                    Class::Unsupported,
                    e.span,
                    "the value of a statement expression computed from its own locals is not part of Cimple (end it with one of them: `({ int t = ...; t; })`)",
                    "computed from the block's locals",
                );
            }
            let v = cx.value(fl, e);
            cx.snapshot(fl, v, e.span)
        })
    }
}
