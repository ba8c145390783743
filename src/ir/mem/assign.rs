//! Assignments, `++`/`--` and initialisers of pointers, structs and
//! storage reached through pointers.

use super::expr::*;
use super::loc::Loc;
use super::*;
use crate::syntax::ast::{BinOp, Expr, ExprKind, Init, Stmt};

impl Mem {
    /// `lhs op= rhs` as a value.
    pub(super) fn assign_expr(&mut self, op: ast::AssignOp, lhs: &ast::Expr, rhs: &ast::Expr, span: Span) -> Val {
        if op == ast::AssignOp::Set {
            if let Some(v) = self.struct_copy(lhs, rhs, span) {
                return v;
            }
        }
        let (mut pre, loc) = self.lv(lhs);
        let ty = Self::loc_ty(&loc);
        let named_int = matches!(&loc, Loc::Named { len: None, .. }) && ty.is_int();
        if named_int {
            // Plain integer storage: C's own assignment, converted by lowering.
            let Loc::Named { base, index, .. } = &loc else {
                unreachable!("checked above")
            };
            let target = Self::named_leaf(base, "", index, span);
            let value = self.int_expr(rhs);
            let e = mk(ExprKind::Assign(op, Box::new(target), Box::new(value)), span);
            return Self::int_val(wrap(pre, e));
        }
        let value = match (op, &ty) {
            (ast::AssignOp::Set, CType::Ptr(_)) if is_null_constant(rhs) => Self::null(span),
            (ast::AssignOp::Set, _) => self.rv(rhs),
            (ast::AssignOp::Add | ast::AssignOp::Sub, CType::Ptr(_)) => {
                let cur = self.read(loc.clone(), span);
                let k = self.int_expr(rhs);
                let arith = if op == ast::AssignOp::Add {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                let mut cur = cur;
                let off = cur.leaves.pop().expect("two leaves");
                let tag = cur.leaves.pop().expect("two leaves");
                let (tag, off) = self.moved(&mut cur.pre, (tag, off), &ty, arith, k, span);
                cur.leaves = vec![tag, off];
                cur
            }
            (_, CType::Int(t)) => {
                // Through a pointer: read, compute, store.
                let cur = self.read(loc.clone(), span);
                let cur = self.int_of(cur, span);
                let t_cur = self.bind_always(&mut pre, cur, *t);
                let k = self.int_expr(rhs);
                let binop = compound_op(op);
                let value = mk(ExprKind::Cast(*t, Box::new(bin(binop, t_cur, k, span))), span);
                Self::int_val(value)
            }
            _ => {
                self.unsupported(span, format!("`{}=` on a value of type `{}`", "op", ty.c_name()));
                Self::int_val(int(0, span))
            }
        };
        let Val {
            pre: vpre,
            leaves,
            ty: vty,
        } = value;
        pre.extend(vpre);
        // The stored value, converted to the location's type, in temporaries.
        let lty = self.types.leaves(&ty).unwrap_or_default();
        if lty.len() != leaves.len() {
            self.unsupported(span, format!("assigning a `{}` to a `{}`", vty.c_name(), ty.c_name()));
            return Self::int_val(int(0, span));
        }
        self.convert_ptr(&vty, &ty, &leaves, span);
        let direct = matches!(loc, Loc::Named { .. }) && leaves.iter().all(is_simple);
        let stored = self.store(&mut pre, &loc, &lty, leaves, direct, span);
        Val {
            pre,
            leaves: stored,
            ty,
        }
    }

    pub(super) fn bind_always(&mut self, pre: &mut Vec<Stmt>, e: Expr, ty: IntType) -> Expr {
        let span = e.span;
        let t = self.temp(ty);
        pre.push(assign(var(&t, span), e, span));
        var(&t, span)
    }

    /// Stores `vals` at `loc` through temporaries of the leaves' types (or
    /// as they are, when `direct`); returns what was stored.
    fn store(
        &mut self,
        pre: &mut Vec<Stmt>,
        loc: &Loc,
        leaves: &[types::Leaf],
        vals: Vec<Expr>,
        direct: bool,
        span: Span,
    ) -> Vec<Expr> {
        let mut stored = Vec::new();
        for (l, v) in leaves.iter().zip(vals) {
            if direct {
                stored.push(v);
                continue;
            }
            let t = self.temp(l.ty);
            pre.push(assign(var(&t, span), v, span));
            stored.push(var(&t, span));
        }
        pre.extend(self.write(loc, &stored, span));
        stored
    }

    pub(super) fn inc_dec(&mut self, target: &ast::Expr, inc: bool, prefix: bool, span: Span) -> Val {
        let (mut pre, loc) = self.lv(target);
        let ty = Self::loc_ty(&loc);
        if matches!(&loc, Loc::Named { len: None, .. }) && ty.is_int() {
            let Loc::Named { base, index, .. } = &loc else {
                unreachable!("checked above")
            };
            let target = Self::named_leaf(base, "", index, span);
            let e = mk(
                ExprKind::IncDec {
                    target: Box::new(target),
                    inc,
                    prefix,
                },
                span,
            );
            return Self::int_val(wrap(pre, e));
        }
        let cur = self.read(loc.clone(), span);
        let Val {
            pre: cpre, leaves: cur, ..
        } = cur;
        pre.extend(cpre);
        let op = if inc { BinOp::Add } else { BinOp::Sub };
        let (old, new): (Vec<Expr>, Vec<Expr>) = match &ty {
            CType::Ptr(_) => {
                let tag = self.bind_always(&mut pre, cur[0].clone(), IntType::Int);
                let off = self.bind_always(&mut pre, cur[1].clone(), IntType::Int);
                let (tag, new_off) = self.moved(&mut pre, (tag, off.clone()), &ty, op, int(1, span), span);
                (vec![tag.clone(), off], vec![tag, new_off])
            }
            CType::Int(t) => {
                let old = self.bind_always(&mut pre, cur[0].clone(), *t);
                let new = mk(
                    ExprKind::Cast(*t, Box::new(bin(op, old.clone(), int(1, span), span))),
                    span,
                );
                (vec![old], vec![new])
            }
            _ => {
                self.unsupported(span, "`++`/`--` on a struct");
                return Self::int_val(int(0, span));
            }
        };
        let lty = self.types.leaves(&ty).unwrap_or_default();
        let stored = self.store(&mut pre, &loc, &lty, new, false, span);
        Val {
            pre,
            leaves: if prefix { stored } else { old },
            ty,
        }
    }

    /// The leaves of an initialiser for storage of type `ty` (one element).
    pub(super) fn init_leaves(&mut self, ty: &CType, e: &ast::Expr) -> Vec<Init> {
        let span = e.span;
        match (ty, &e.kind) {
            (CType::Struct(tag), ExprKind::InitList(items)) if tag.starts_with(ast::UNION) => {
                vec![Init::Expr(self.union_init(tag, items.first(), span))]
            }
            (CType::Struct(tag), ExprKind::InitList(items)) => {
                let fields = match self.types.whole(tag).and_then(|_| self.types.fields(tag)) {
                    Ok(f) => f.to_vec(),
                    Err(msg) => {
                        self.unsupported(span, msg);
                        return vec![];
                    }
                };
                let mut out = Vec::new();
                for (k, f) in fields.iter().enumerate() {
                    let item = items.get(k);
                    match (&f.array, item) {
                        (
                            Some(_),
                            Some(ast::Expr {
                                kind: ExprKind::InitList(xs),
                                span: s,
                            }),
                        ) if f.ty.is_int() => {
                            let xs = xs.iter().map(|x| self.int_expr(x)).collect();
                            out.push(Init::List(xs, *s));
                        }
                        (Some(n), Some(x)) if matches!(f.ty, CType::Int(t) if t.size() == 1) => {
                            match self.string_init(x, crate::ir::lower::const_eval(n)) {
                                Some(cs) => out.push(Init::List(cs, x.span)),
                                None => self.unsupported(span, "this initialiser of an array field is not supported"),
                            }
                        }
                        (Some(_), None) if f.ty.is_int() => out.push(Init::List(vec![], span)),
                        (Some(_), _) => {
                            self.unsupported(span, "this initialiser of an array field is not supported");
                        }
                        (None, Some(x)) => out.extend(self.init_leaves(&f.ty, x)),
                        (None, None) => {
                            let n = self.types.leaves(&f.ty).map_or(0, |l| l.len());
                            out.extend((0..n).map(|_| Init::Expr(int(0, span))));
                        }
                    }
                }
                out
            }
            (CType::Ptr(_), _) if is_null_constant(e) => vec![Init::Expr(int(0, span)), Init::Expr(int(0, span))],
            _ => {
                let v = self.rv(e);
                let n = self.types.leaves(ty).map_or(0, |l| l.len());
                if v.leaves.len() != n {
                    self.unsupported(
                        span,
                        format!("initialising a `{}` with a `{}`", ty.c_name(), v.ty.c_name()),
                    );
                    return vec![];
                }
                self.convert_ptr(&v.ty, ty, &v.leaves, span);
                let mut pre = v.pre;
                let mut out = Vec::new();
                for (k, l) in v.leaves.into_iter().enumerate() {
                    // The statements run in the first leaf's initialiser.
                    let x = if k == 0 { wrap(std::mem::take(&mut pre), l) } else { l };
                    out.push(Init::Expr(x));
                }
                out
            }
        }
    }
}

pub(super) fn compound_op(op: ast::AssignOp) -> BinOp {
    use ast::AssignOp as A;
    match op {
        A::Set | A::Add => BinOp::Add,
        A::Sub => BinOp::Sub,
        A::Mul => BinOp::Mul,
        A::Div => BinOp::Div,
        A::Mod => BinOp::Mod,
        A::BitAnd => BinOp::BitAnd,
        A::BitOr => BinOp::BitOr,
        A::BitXor => BinOp::BitXor,
        A::Shl => BinOp::Shl,
        A::Shr => BinOp::Shr,
    }
}
