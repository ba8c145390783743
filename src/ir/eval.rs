//! The concrete value of a pure expression, written once for every engine
//! that evaluates an `Expr` on known values: the `--error` conditions
//! (`cond.rs`, on a run's or a state's values) and the backward step's
//! element indices (`explain/backward/slots.rs`, on a symbolic state's
//! constants). The interpreter keeps its own evaluation (it is the replay
//! oracle, and records sites as it goes); `tests/engines/eval_agrees.rs`
//! holds this one to it.
//!
//! What the callers differ in is a parameter: how a variable or an element
//! is read (a closure, which may say it does not know), and the `Width` of
//! intermediate values.

use super::*;

/// How wide the intermediate values of an evaluation are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// Mathematical up to 128 bits: only an index, a floating operation's
    /// operand and the result must fit 64 bits (an `unsigned long long`
    /// product wraps at its `Conv`, as C computes it).
    Wide,
    /// Every intermediate value, and every operation, in 64-bit signed
    /// arithmetic (`i64::MIN % -1` overflows): a value past that is
    /// unknown.
    Narrow,
}

/// The value of `e`, `read(var, index)` giving a variable's element (index
/// 0 for a scalar; `None`: not known, or no such element). `None` on a
/// division by zero, a failed check (`Checked` out of range, an undefined
/// shift, a checked float-to-integer conversion out of range), an unknown
/// read, or a value past the `Width`.
pub fn eval(e: &Expr, width: Width, read: &mut dyn FnMut(VarId, i64) -> Option<i64>) -> Option<i64> {
    i64::try_from(value(e, width, read)?).ok()
}

fn value(e: &Expr, width: Width, read: &mut dyn FnMut(VarId, i64) -> Option<i64>) -> Option<i128> {
    let v = match &e.kind {
        ExprKind::Const(c) => *c as i128,
        ExprKind::Var(v) => read(*v, 0)?.into(),
        ExprKind::Elem(v, i, _) => {
            let i = eval(i, width, read)?;
            read(*v, i)?.into()
        }
        ExprKind::Neg(x) => value(x, width, read)?.checked_neg()?,
        ExprKind::Conv(t, x) => t.convert(value(x, width, read)?),
        ExprKind::Checked { value: x, ty, .. } => {
            let v = value(x, width, read)?;
            let (lo, hi) = ty.c_range();
            (lo..=hi).contains(&v).then_some(v)?
        }
        ExprKind::Arith(op, a, b) => {
            let (a, b) = (value(a, width, read)?, value(b, width, read)?);
            match op {
                ArithOp::Add => a.checked_add(b)?,
                ArithOp::Sub => a.checked_sub(b)?,
                ArithOp::Mul => a.checked_mul(b)?,
            }
        }
        ExprKind::Bit {
            op, ty, a, b, strict, ..
        } => {
            let (a, b) = (value(a, width, read)?, value(b, width, read)?);
            op.apply(*ty, a, b, *strict)?
        }
        ExprKind::Div { num, den, rem, .. } => {
            let (a, b) = (value(num, width, read)?, value(den, width, read)?);
            match (width, rem) {
                (Width::Wide, false) => a.checked_div(b)?,
                (Width::Wide, true) => a.checked_rem(b)?,
                // Both fit (checked below as they were computed).
                (Width::Narrow, false) => (a as i64).checked_div(b as i64)?.into(),
                (Width::Narrow, true) => (a as i64).checked_rem(b as i64)?.into(),
            }
        }
        ExprKind::Float { op, ty, args, site } => {
            let vals = args
                .iter()
                .map(|a| eval(a, width, read))
                .collect::<Option<Vec<i64>>>()?;
            match super::float::apply(*op, *ty, &vals) {
                Ok(v) => v.into(),
                Err(v) => site.is_none().then_some(v)?.into(),
            }
        }
    };
    match width {
        Width::Wide => Some(v),
        Width::Narrow => i64::try_from(v).ok().map(i128::from),
    }
}
