//! `float` and `double` in lowering: conversions to, from and between the
//! floating types, arithmetic and comparisons in the operands' common type,
//! and the `<math.h>` functions, each an `ExprKind::Float` whose meaning is
//! `ir::float::apply` (folded here when its operands are constants).

use super::*;
use crate::ir::float::{self, FloatOp, MathFn};

/// A constant `v` of type `from` converted to `to` as C does (`None`
/// where the conversion is undefined).
pub(super) fn const_convert(v: i128, from: IntType, to: IntType) -> Option<i128> {
    if !from.is_float() && !to.is_float() {
        return Some(to.convert(v));
    }
    if from == to {
        return Some(v);
    }
    let op = conversion(from, to)?;
    let ty = if to.is_float() { to } else { from };
    // To `_Bool` is `v != 0.0`: the zero is the second operand.
    let args: &[i64] = if op == FloatOp::Cmp(RelOp::Ne) {
        &[i64::try_from(v).ok()?, 0]
    } else {
        &[i64::try_from(v).ok()?]
    };
    float::apply(op, ty, args).ok().map(i128::from)
}

/// The operation converting `from` to `to` (one of them floating; to
/// `_Bool` it is the comparison `!= 0.0`, whose zero the caller adds).
fn conversion(from: IntType, to: IntType) -> Option<FloatOp> {
    Some(match (from.is_float(), to.is_float()) {
        (true, true) => FloatOp::Resize,
        (false, true) => FloatOp::FromInt(from),
        _ if to == IntType::Bool => FloatOp::Cmp(RelOp::Ne),
        _ => FloatOp::ToInt(to),
    })
}

/// A constant `a op b` (or `op a`) on floating operands of type `ty`.
pub(super) fn const_float(op: FloatOp, ty: IntType, args: &[i128]) -> Option<i128> {
    let args: Option<Vec<i64>> = args.iter().map(|a| i64::try_from(*a).ok()).collect();
    float::apply(op, ty, &args?).ok().map(i128::from)
}

/// The floating operation of a C arithmetic operator.
pub(super) fn float_op(op: BinOp) -> Option<FloatOp> {
    Some(match op {
        BinOp::Add => FloatOp::Add,
        BinOp::Sub => FloatOp::Sub,
        BinOp::Mul => FloatOp::Mul,
        BinOp::Div => FloatOp::Div,
        BinOp::Eq => FloatOp::Cmp(RelOp::Eq),
        BinOp::Ne => FloatOp::Cmp(RelOp::Ne),
        BinOp::Lt => FloatOp::Cmp(RelOp::Lt),
        BinOp::Le => FloatOp::Cmp(RelOp::Le),
        BinOp::Gt => FloatOp::Cmp(RelOp::Gt),
        BinOp::Ge => FloatOp::Cmp(RelOp::Ge),
        _ => return None,
    })
}

/// The bits of `v` (0 or 1) as a value of `ty`: `1.0` for a floating type.
pub(super) fn truth_value(v: i64, ty: IntType) -> i64 {
    const_convert(v as i128, IntType::Int, ty).map_or(v, |b| b as i64)
}

impl Cx<'_> {
    /// `e` (of type `from`) converted to `to`, one of them floating.
    pub(super) fn float_convert(&mut self, fl: &FnLower, e: Expr, from: IntType, to: IntType) -> Expr {
        let span = e.span;
        let op = conversion(from, to).expect("a floating conversion");
        let ty = if to.is_float() { to } else { from };
        let mut args = vec![e];
        if op == FloatOp::Cmp(RelOp::Ne) {
            args.push(Expr {
                kind: ExprKind::Const(0),
                span,
            });
        }
        let e = self.float_expr(op, ty, args, None, span);
        match e.kind {
            ExprKind::Float {
                op,
                ty,
                args,
                site: None,
            } if matches!(op, FloatOp::ToInt(_)) && self.overflow_checks => {
                let site = Some(self.new_site(SiteKind::Overflow, span, fl.pid, None));
                Expr {
                    kind: ExprKind::Float { op, ty, args, site },
                    span,
                }
            }
            kind => Expr { kind, span },
        }
    }

    /// An `ExprKind::Float`, folded when its operands are constants and
    /// the result is defined.
    pub(super) fn float_expr(
        &self,
        op: FloatOp,
        ty: IntType,
        args: Vec<Expr>,
        site: Option<SiteId>,
        span: Span,
    ) -> Expr {
        let consts: Option<Vec<i64>> = args
            .iter()
            .map(|a| match a.kind {
                ExprKind::Const(c) => Some(c),
                _ => None,
            })
            .collect();
        if let Some(Ok(v)) = consts.map(|cs| float::apply(op, ty, &cs)) {
            return Expr {
                kind: ExprKind::Const(v),
                span,
            };
        }
        Expr {
            kind: ExprKind::Float { op, ty, args, site },
            span,
        }
    }

    /// `l op r` with a floating common type: arithmetic (`+ - * /`) or a
    /// comparison (`int` 0 or 1). Other operators are not defined on
    /// floating operands in C.
    pub(super) fn float_binary(
        &mut self,
        fl: &FnLower,
        op: BinOp,
        (l, tl): (Expr, IntType),
        (r, tr): (Expr, IntType),
        span: Span,
    ) -> (Expr, IntType) {
        let ty = IntType::common(tl, tr);
        let Some(fop) = float_op(op) else {
            self.err(
                Class::Semantic,
                span,
                format!("invalid operands to `{}`: a floating operand", op.symbol()),
                "not defined on `float` or `double`",
            );
            return (
                Expr {
                    kind: ExprKind::Const(0),
                    span,
                },
                IntType::Int,
            );
        };
        let l = self.convert_from(fl, l, tl, ty);
        let r = self.convert_from(fl, r, tr, ty);
        let result = if matches!(fop, FloatOp::Cmp(_)) {
            IntType::Int
        } else {
            ty
        };
        (self.float_expr(fop, ty, vec![l, r], None, span), result)
    }

    /// A call of a `<math.h>` function the program does not define: its
    /// value and type, or `None` when `name` is not one.
    pub(super) fn math_call(
        &mut self,
        fl: &mut FnLower,
        name: &ast::Ident,
        args: &[ast::Expr],
    ) -> Option<(Expr, IntType)> {
        let (m, ty) = math_for(self, name)?;
        let span = name.span.to(args.last().map_or(name.span, |a| a.span));
        if !self.check_arity(name, args.len(), m.arity()) {
            return Some((
                Expr {
                    kind: ExprKind::Const(0),
                    span,
                },
                IntType::Int,
            ));
        }
        // A classification takes either floating type (an integer as `double`).
        let arg_ty = ty.unwrap_or_else(|| {
            Some(self.type_of(fl, &args[0]))
                .filter(|t| t.is_float())
                .unwrap_or(IntType::Double)
        });
        let mut vals = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let from = self.type_of(fl, a);
            let v = self.value(fl, a);
            let v = self.convert_from(fl, v, from, arg_ty);
            let later = args[i + 1..].iter().any(has_effects);
            vals.push(if later { self.snapshot(fl, v, a.span) } else { v });
        }
        let result = if m.is_predicate() { IntType::Int } else { arg_ty };
        Some((self.float_expr(FloatOp::Math(m), arg_ty, vals, None, span), result))
    }
}

/// The `<math.h>` function a call names, unless the program defines it.
pub(super) fn math_for(cx: &Cx, name: &ast::Ident) -> Option<(MathFn, Option<IntType>)> {
    if cx.procs.contains_key(&name.name) {
        return None;
    }
    MathFn::named(&name.name)
}
