//! Narrowing at a branch: on the side where a comparison pins an input or
//! a draw to one value (`x == 5` taken, `x != 5` not taken), the variables
//! the comparison reads hold that value from then on.
//!
//! The abstract step (`step.rs`) narrows under `Options::narrow`; a path of
//! a graph explored that way is re-executed by `path::Exec` narrowing the
//! same variables at the same branches, so that every decision the graph
//! took on a narrowed value (none, for `a[6]`) is the one the execution
//! takes. One function decides what is narrowed, for both.

use super::value::{Cmp, Constraint, LinExpr, Sym, Value};
use crate::context::Context;
use crate::ir::*;

/// The symbol a branch outcome pins, its value, and the variables to
/// narrow: those the atom reads directly (not through an index) that
/// another node reads too (the temporary of `if (nondet())` is left as it
/// is: narrowing it would only split states that differ in a dead value).
pub fn pins(cx: &Context, a: &Atom, t: &Constraint, taken: bool) -> Option<(Sym, i64, Vec<VarId>)> {
    let (s, k) = match (t.cmp, taken, t.e.terms.as_slice()) {
        (Cmp::Eq, true, &[(s, 1)]) | (Cmp::Ne, false, &[(s, 1)]) if !s.is_alpha() => (s, -t.e.c),
        _ => return None,
    };
    let (lo, hi) = s.range(cx);
    if k < lo || k > hi {
        return None;
    }
    let mut vars = Vec::new();
    scalar_reads(&a.lhs, &mut vars);
    scalar_reads(&a.rhs, &mut vars);
    vars.retain(|v| cx.a.readers[v.index()] > 1);
    Some((s, k, vars))
}

/// `v` with `s` replaced by `k`; `None` when `v` does not hold `s` in a
/// linear expression (then it is left as it is).
pub fn substitute(v: &Value, s: Sym, k: i64) -> Option<Value> {
    let Value::Lin(e) = v else {
        return None;
    };
    e.substitute(&mut |x| (x == s).then(|| LinExpr::constant(k)))
        .map(Value::from_lin)
}

/// The variables `e` reads as scalars (not through an index).
fn scalar_reads(e: &Expr, out: &mut Vec<VarId>) {
    match &e.kind {
        ExprKind::Var(v) => out.push(*v),
        ExprKind::Const(_) | ExprKind::Elem(..) | ExprKind::Float { .. } => {}
        ExprKind::Neg(x) | ExprKind::Conv(_, x) | ExprKind::Checked { value: x, .. } => scalar_reads(x, out),
        ExprKind::Arith(_, x, y) | ExprKind::Bit { a: x, b: y, .. } => {
            scalar_reads(x, out);
            scalar_reads(y, out);
        }
        ExprKind::Div { num, den, .. } => {
            scalar_reads(num, out);
            scalar_reads(den, out);
        }
    }
}
