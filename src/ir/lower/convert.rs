//! C's types in lowering: the type of an expression (promotions, the usual
//! arithmetic conversions), constant expressions with C's conversions, and
//! the explicit `Conv`/`Checked` nodes put wherever C converts a value or a
//! signed result may overflow (docs/cimple.md, "Types and values").

use super::float::{const_convert, const_float, float_op};
use super::*;
use crate::ir::float::FloatOp;

/// A constant expression's value and C type, with C's conversions.
pub(super) fn const_eval_typed(e: &ast::Expr) -> Option<(i128, IntType)> {
    use IntType::Int;
    let truth = |b: bool| Some((b as i128, Int));
    match &e.kind {
        AK::Int(v, t) | AK::Float(v, t) => Some((*v as i128, *t)),
        AK::Bool(b) => truth(*b),
        AK::Unary(op, x) => {
            let (v, t) = const_eval_typed(x)?;
            if t.is_float() {
                return match op {
                    UnOp::Neg => Some((const_float(FloatOp::Neg, t, &[v])?, t)),
                    UnOp::Plus => Some((v, t)),
                    UnOp::Not => Some((const_convert(v, t, IntType::Bool)? ^ 1, Int)),
                    UnOp::BitNot => None,
                };
            }
            let t = t.promote();
            match op {
                UnOp::Neg => Some((t.convert_arith(-v)?, t)),
                UnOp::Plus => Some((v, t)),
                UnOp::Not => truth(v == 0),
                UnOp::BitNot => Some((t.convert(-1 - v), t)),
            }
        }
        AK::Bits(t, x) => Some((const_eval_typed(x)?.0, *t)),
        AK::Cast(t, x) => {
            let (v, from) = const_eval_typed(x)?;
            Some((const_convert(v, from, *t)?, *t))
        }
        AK::Binary(op, a, b) => {
            let ((a, ta), (b, tb)) = (const_eval_typed(a)?, const_eval_typed(b)?);
            if ta.is_float() || tb.is_float() {
                if op.is_logical() {
                    let (a, b) = (
                        const_convert(a, ta, IntType::Bool)?,
                        const_convert(b, tb, IntType::Bool)?,
                    );
                    return truth(if *op == BinOp::And {
                        a != 0 && b != 0
                    } else {
                        a != 0 || b != 0
                    });
                }
                let t = IntType::common(ta, tb);
                let (a, b) = (const_convert(a, ta, t)?, const_convert(b, tb, t)?);
                let fop = float_op(*op)?;
                let rt = if matches!(fop, FloatOp::Cmp(_)) { Int } else { t };
                return Some((const_float(fop, t, &[a, b])?, rt));
            }
            if op.is_logical() {
                return truth(if *op == BinOp::And {
                    a != 0 && b != 0
                } else {
                    a != 0 || b != 0
                });
            }
            if let Some(bop) = bit_op(*op) {
                let t = if bop.is_shift() {
                    ta.promote()
                } else {
                    IntType::common(ta, tb)
                };
                let b = if bop.is_shift() { b } else { t.convert(b) };
                return Some((bop.apply(t, a, b, false)?, t));
            }
            let t = IntType::common(ta, tb);
            let (a, b) = (t.convert(a), t.convert(b));
            let v = match op {
                BinOp::Add => a + b,
                BinOp::Sub => a - b,
                BinOp::Mul => a.checked_mul(b)?,
                BinOp::Div => a.checked_div(b)?,
                BinOp::Mod => a.checked_rem(b)?,
                BinOp::Eq => return truth(a == b),
                BinOp::Ne => return truth(a != b),
                BinOp::Lt => return truth(a < b),
                BinOp::Le => return truth(a <= b),
                BinOp::Gt => return truth(a > b),
                BinOp::Ge => return truth(a >= b),
                BinOp::And | BinOp::Or => unreachable!("handled above"),
                BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr => unreachable!("handled above"),
            };
            Some((t.convert_arith(v)?, t))
        }
        AK::Ternary(c, a, b) => {
            let ((a, ta), (b, tb)) = (const_eval_typed(a)?, const_eval_typed(b)?);
            let (c, tc) = const_eval_typed(c)?;
            let t = IntType::common(ta, tb);
            let pick = if const_convert(c, tc, IntType::Bool)? != 0 {
                (a, ta)
            } else {
                (b, tb)
            };
            Some((const_convert(pick.0, pick.1, t)?, t))
        }
        _ => None,
    }
}

/// The type of a scalar declared at the top of a statement expression.
fn stmt_expr_local(b: &ast::Block, name: &str) -> Option<IntType> {
    b.stmts.iter().rev().find_map(|s| match &s.kind {
        StmtKind::Decl(ds) => ds
            .iter()
            .find(|d| d.name.name == name && d.array.is_none())
            .map(|d| d.ty),
        _ => None,
    })
}

/// The IR operator of a bitwise binary operator.
pub(super) fn bit_op(op: BinOp) -> Option<BitOp> {
    Some(match op {
        BinOp::BitAnd => BitOp::And,
        BinOp::BitOr => BitOp::Or,
        BinOp::BitXor => BitOp::Xor,
        BinOp::Shl => BitOp::Shl,
        BinOp::Shr => BitOp::Shr,
        _ => return None,
    })
}

impl Cx<'_> {
    /// The variable a name refers to here, without reporting anything.
    pub(super) fn peek_var(&self, fl: &FnLower, id: &ast::Ident) -> Option<VarId> {
        if let Some(g) = crate::ir::mem::file_scope_name(&id.name) {
            return self.global_names.get(g).copied();
        }
        fl.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(&id.name).copied())
            .or_else(|| self.global_names.get(&id.name).copied())
    }

    /// The C type of an expression (C11 6.5: promotions and the usual
    /// arithmetic conversions; comparisons and logic are `int`).
    pub(super) fn type_of(&self, fl: &FnLower, e: &ast::Expr) -> IntType {
        match &e.kind {
            AK::Int(_, t) | AK::Float(_, t) | AK::Cast(t, _) | AK::Bits(t, _) => *t,
            AK::Bool(_) | AK::Unary(UnOp::Not, _) => IntType::Int,
            AK::Var(id) | AK::Index(id, _) | AK::DerefIndex(id, ..) => {
                self.peek_var(fl, id).map_or(IntType::Int, |v| self.vars[v.index()].ty)
            }
            AK::Call(name, args) if super::float::math_for(self, name).is_some() => {
                match super::float::math_for(self, name) {
                    Some((m, _)) if m.is_predicate() => IntType::Int,
                    Some((_, Some(t))) => t,
                    _ => args.first().map_or(IntType::Double, |a| self.type_of(fl, a)),
                }
            }
            AK::Call(name, _) => match (self.procs.get(&name.name), self.builtin_for(name)) {
                (_, Some(Builtin::Nondet(t))) => t,
                (Some(p), _) => match self.proc_list[p.index()].ret {
                    ast::RetType::Int(t) => t,
                    ast::RetType::Void => IntType::Int,
                },
                _ => IntType::Int,
            },
            AK::Unary(_, x) => self.type_of(fl, x).promote(),
            AK::Binary(op, ..) if op.is_relational() || op.is_logical() => IntType::Int,
            AK::Binary(op, a, _) if op.is_shift() => self.type_of(fl, a).promote(),
            AK::Binary(_, a, b) | AK::Ternary(_, a, b) => IntType::common(self.type_of(fl, a), self.type_of(fl, b)),
            AK::Assign(_, x, _) | AK::IncDec { target: x, .. } => self.type_of(fl, x),
            AK::Comma(list) => list.last().map_or(IntType::Int, |x| self.type_of(fl, x)),
            AK::SizeOf(_) | AK::SizeOfType(_) => IntType::UInt,
            AK::Offset(..) => IntType::Int,
            // Removed by `crate::mem` before lowering.
            AK::Deref(_)
            | AK::AddrOf(_)
            | AK::Member(..)
            | AK::IndexOf(..)
            | AK::PtrCast(..)
            | AK::InitList(_)
            | AK::CallPtr(..) => IntType::Int,
            AK::StmtExpr(b) | AK::Access(b) => match b.stmts.last().map(|s| &s.kind) {
                Some(StmtKind::Expr(e)) => match &e.kind {
                    // A local of the block: its declared type.
                    AK::Var(id) => stmt_expr_local(b, &id.name).unwrap_or_else(|| self.type_of(fl, e)),
                    _ => self.type_of(fl, e),
                },
                _ => IntType::Int,
            },
        }
    }

    pub(super) fn range_of(&self, e: &Expr) -> (i128, i128) {
        static_range(e, &|v| self.vars[v.index()].ty)
    }

    /// Every value `e` can take is a value of `to`.
    pub(super) fn fits(&self, e: &Expr, to: IntType) -> bool {
        let ((lo, hi), (tlo, thi)) = (self.range_of(e), to.c_range());
        tlo <= lo && hi <= thi
    }

    /// `e` converted to `to` (not `_Bool`, which needs a branch: `store`).
    pub(super) fn convert(&self, e: Expr, to: IntType) -> Expr {
        if self.fits(&e, to) {
            return e;
        }
        let span = e.span;
        let kind = match e.kind {
            ExprKind::Const(c) => match i64::try_from(to.convert(c as i128)) {
                Ok(v) => ExprKind::Const(v),
                Err(_) => ExprKind::Conv(to, Box::new(Expr { kind: e.kind, span })),
            },
            kind => ExprKind::Conv(to, Box::new(Expr { kind, span })),
        };
        Expr { kind, span }
    }

    /// A value of C type `from` used where C converts it to `to`; a value
    /// already of that type is left alone (a signed overflow is undefined in
    /// C: it keeps its mathematical value, see docs/cimple.md).
    pub(super) fn convert_from(&mut self, fl: &FnLower, e: Expr, from: IntType, to: IntType) -> Expr {
        if from == to {
            e
        } else if from.is_float() || to.is_float() {
            self.float_convert(fl, e, from, to)
        } else {
            self.convert(e, to)
        }
    }

    /// The narrowest of `int`, `unsigned int`, `long long` holding every
    /// value of `e` (the type of a temporary that keeps it).
    pub(super) fn type_holding(&self, e: &Expr) -> IntType {
        [IntType::Int, IntType::UInt, IntType::LongLong]
            .into_iter()
            .find(|t| self.fits(e, *t))
            .unwrap_or(IntType::LongLong)
    }

    /// `place = value`, `value` of C type `from`, converted to the place's
    /// type as C does on assignment.
    pub(super) fn store(&mut self, fl: &mut FnLower, place: Place, value: Expr, from: IntType, span: Span) {
        let to = self.vars[place.var.index()].ty;
        if from.is_float() || to.is_float() {
            let value = self.convert_from(fl, value, from, to);
            self.emit_assign(fl, place, value, span);
            return;
        }
        if to == IntType::Bool && !self.fits(&value, to) {
            // C: a conversion to `_Bool` is `value != 0`.
            let zero = Expr {
                kind: ExprKind::Const(0),
                span: value.span,
            };
            let atom = Atom {
                lhs: value,
                op: RelOp::Ne,
                rhs: zero,
            };
            let (t, f) = self.emit_branch(fl, Cond::Atom(atom), span);
            let mut after = Vec::new();
            for (holes, v) in [(t, 1), (f, 0)] {
                fl.open = holes;
                let value = Expr {
                    kind: ExprKind::Const(v),
                    span,
                };
                let next = NONE;
                self.emit(
                    fl,
                    NodeKind::Assign {
                        place: place.clone(),
                        value,
                        next,
                    },
                    span,
                );
                after.append(&mut fl.open);
            }
            fl.open = after;
            return;
        }
        let value = self.convert_from(fl, value, from, to);
        self.emit_assign(fl, place, value, span);
    }

    /// `place = value`, as it is.
    fn emit_assign(&mut self, fl: &mut FnLower, place: Place, value: Expr, span: Span) {
        let next = NONE;
        self.emit(fl, NodeKind::Assign { place, value, next }, span);
    }

    /// `value` (of C type `from`) as a value of type `to`, through a
    /// temporary when `to` is `_Bool`.
    pub(super) fn converted_value(
        &mut self,
        fl: &mut FnLower,
        value: Expr,
        from: IntType,
        to: IntType,
        span: Span,
    ) -> Expr {
        if to != IntType::Bool || from.is_float() || self.fits(&value, to) {
            return self.convert_from(fl, value, from, to);
        }
        let t = self.temp(fl, IntType::Bool, span);
        let place = Place {
            var: t,
            index: None,
            span,
        };
        self.store(fl, place, value, from, span);
        Expr {
            kind: ExprKind::Var(t),
            span,
        }
    }

    /// `l op r` in C: both operands converted to their common type, the
    /// result wrapped when that type is unsigned. Returns the result and
    /// its type.
    pub(super) fn typed_arith(
        &mut self,
        fl: &mut FnLower,
        op: BinOp,
        (l, tl): (Expr, IntType),
        (r, tr): (Expr, IntType),
        span: Span,
    ) -> (Expr, IntType) {
        if tl.is_float() || tr.is_float() {
            return self.float_binary(fl, op, (l, tl), (r, tr), span);
        }
        if let Some(bop) = bit_op(op) {
            return self.bitwise(fl, bop, (l, tl), (r, tr), span);
        }
        let ty = IntType::common(tl, tr);
        let (l, r) = (self.convert_from(fl, l, tl, ty), self.convert_from(fl, r, tr, ty));
        let v = self.arith(fl, op, l, r, span);
        if op == BinOp::Mod && ty.is_signed() {
            self.remainder_check(fl, &v, ty);
        }
        let v = if ty.is_signed() {
            self.overflow_check(fl, v, ty)
        } else {
            self.convert(v, ty)
        };
        (v, ty)
    }

    /// C11 6.5.5p6: `a % b` is undefined when `a / b` is not representable
    /// (`INT_MIN % -1`), though the remainder itself (0) is. When overflow
    /// is checked, the quotient is computed and checked first, in a
    /// temporary (its divisor check is the remainder's own site).
    fn remainder_check(&mut self, fl: &mut FnLower, v: &Expr, ty: IntType) {
        let ExprKind::Div { num, den, site, .. } = &v.kind else {
            return;
        };
        let span = v.span;
        let quotient = Expr {
            kind: ExprKind::Div {
                num: num.clone(),
                den: den.clone(),
                rem: false,
                site: *site,
            },
            span,
        };
        if !self.overflow_checks || self.fits(&quotient, ty) {
            return;
        }
        let value = self.overflow_check(fl, quotient, ty);
        let var = self.temp(fl, ty, span);
        let place = Place { var, index: None, span };
        self.emit_assign(fl, place, value, span);
    }

    /// `l op r` for a bitwise operator: `&`, `|`, `^` in the operands'
    /// common type, a shift in the promoted type of its left operand (the
    /// right one only promoted). Each operand is converted to that type
    /// when its value may not fit (a signed overflow before: gcc wraps).
    fn bitwise(
        &mut self,
        fl: &FnLower,
        op: BitOp,
        (l, tl): (Expr, IntType),
        (r, tr): (Expr, IntType),
        span: Span,
    ) -> (Expr, IntType) {
        let ty = if op.is_shift() {
            tl.promote()
        } else {
            IntType::common(tl, tr)
        };
        let l = self.convert(l, ty);
        let r = self.convert(r, if op.is_shift() { tr.promote() } else { ty });
        let strict = op == BitOp::Shl && self.overflow_checks && ty.is_signed();
        if let (ExprKind::Const(a), ExprKind::Const(b)) = (&l.kind, &r.kind) {
            if let Some(v) = op
                .apply(ty, *a as i128, *b as i128, strict)
                .and_then(|v| i64::try_from(v).ok())
            {
                return (
                    Expr {
                        kind: ExprKind::Const(v),
                        span,
                    },
                    ty,
                );
            }
        }
        let site = op.is_shift().then(|| {
            let site = self.new_site(SiteKind::Shift, span, fl.pid, None);
            // Defined whatever the state: a constant amount in range, and a
            // left operand that cannot overflow a strict `<<`.
            let (lo, hi) = self.range_of(&l);
            let thi = ty.c_range().1;
            self.sites[site.index()].static_ok = matches!(r.kind, ExprKind::Const(k)
                if (0..ty.bits() as i64).contains(&k) && (!strict || (lo >= 0 && hi.saturating_mul(1 << k) <= thi)));
            site
        });
        let kind = ExprKind::Bit {
            op,
            ty,
            a: Box::new(l),
            b: Box::new(r),
            site,
            strict,
        };
        (Expr { kind, span }, ty)
    }

    /// A signed result, checked for overflow when asked to and when it may
    /// leave its type.
    pub(super) fn overflow_check(&mut self, fl: &FnLower, v: Expr, ty: IntType) -> Expr {
        if !self.overflow_checks || self.fits(&v, ty) {
            return v;
        }
        let span = v.span;
        let site = self.new_site(SiteKind::Overflow, span, fl.pid, None);
        Expr {
            kind: ExprKind::Checked {
                value: Box::new(v),
                ty,
                site,
            },
            span,
        }
    }
}
