//! Floating terms in Z3. A `float` variable is a 32-bit bit-vector and a
//! `double` one a 64-bit one (`term::Val::Bits`), and an operation on
//! them goes through Z3's floating-point theory on those bits
//! (`ir::float_z3`), so a condition over floats is a QF_FPBV question;
//! only where an integer meets a floating value (a conversion, an array
//! element, an integer read of the bits) does a term cross between
//! integers and bit-vectors. Kept as integers throughout, every operation
//! was `int2bv`/`bv2int` around the floating one, which Z3 rarely decided
//! within its resource limit.

use super::term::{self, Env, Term};
use crate::ir::float::{self, FloatOp};
use crate::ir::{IntType, RelOp};
use z3::ast::{Bool, Int, BV};

/// A 64-bit term's bits as a number, when Z3 folded it to one.
pub fn numeral(b: &BV) -> Option<i64> {
    b.as_u64().map(|v| v as i64)
}

/// The bits of an integer value (64, two's complement), a numeral folded.
pub fn of_int(x: &Int) -> BV {
    match x.as_i64() {
        Some(c) => BV::from_i64(c, 64),
        None => BV::from_int(x, 64),
    }
}

/// A variable's bits widened to the 64 the operations take (a `float`'s
/// 32 zero-extended, as `float::apply` holds them).
pub fn widen(b: &BV) -> BV {
    match (b.get_size(), b.as_u64()) {
        (64, _) => b.clone(),
        (_, Some(v)) => BV::from_u64(v, 64),
        (n, None) => b.zero_ext(64 - n),
    }
}

/// A value of `bits` bits (32 or 64) as the integer the IR holds: a
/// `float`'s bits unsigned, a `double`'s signed.
pub fn to_int(b: &BV) -> Int {
    let signed = b.get_size() == 64;
    match b.as_u64() {
        Some(v) if signed => Int::from_i64(v as i64),
        Some(v) => Int::from_u64(v),
        None => b.to_int(signed),
    }
}

/// `t` as 64 bits (an integer sign-extended, a `float` zero-extended).
pub fn bits(t: &Term, env: &mut dyn Env) -> BV {
    match t {
        Term::Const(c) => BV::from_i64(*c, 64),
        Term::Var(k) => env.bits(*k),
        Term::Float { op, ty, args } => {
            let xs: Vec<BV> = args.iter().map(|a| bits(a, env)).collect();
            if let Some(cs) = xs.iter().map(numeral).collect::<Option<Vec<i64>>>() {
                let (Ok(v) | Err(v)) = float::apply(*op, *ty, &cs);
                return BV::from_i64(v, 64);
            }
            crate::ir::float_z3::apply(*op, *ty, &xs)
        }
        _ => of_int(&term::int(t, env)),
    }
}

/// The value of `Term::Float` as an integer: a comparison's or
/// classification's truth as 1 or 0 (no bits in between), else its bits.
pub fn value(t: &Term, env: &mut dyn Env) -> Int {
    if let Some(b) = truth(t, env) {
        return match b.as_bool() {
            Some(v) => Int::from_i64(v as i64),
            None => b.ite(&Int::from_i64(1), &Int::from_i64(0)),
        };
    }
    let b = bits(t, env);
    match numeral(&b) {
        Some(v) => Int::from_i64(v),
        None => b.to_int(true),
    }
}

/// The truth of a comparison or classification (`None` for other terms).
pub fn truth(t: &Term, env: &mut dyn Env) -> Option<Bool> {
    let Term::Float { op, ty, args } = t else {
        return None;
    };
    if !is_truth(*op) {
        return None;
    }
    let xs: Vec<BV> = args.iter().map(|a| bits(a, env)).collect();
    if let Some(cs) = xs.iter().map(numeral).collect::<Option<Vec<i64>>>() {
        let (Ok(v) | Err(v)) = float::apply(*op, *ty, &cs);
        return Some(Bool::from_bool(v != 0));
    }
    crate::ir::float_z3::holds(*op, *ty, &xs)
}

fn is_truth(op: FloatOp) -> bool {
    match op {
        FloatOp::Cmp(_) => true,
        FloatOp::Math(m) => m.is_predicate(),
        _ => false,
    }
}

/// `a op b` where one side is a comparison's truth (0 or 1) and the other
/// a constant, as the truth itself: a branch on `x < y` is `(x < y) != 0`.
pub fn relation(op: RelOp, a: &Term, b: &Term, env: &mut dyn Env) -> Option<Bool> {
    let (t, holds): (&Term, Box<dyn Fn(i64) -> bool>) = match (a, b) {
        (t @ Term::Float { op: f, .. }, Term::Const(c)) if is_truth(*f) => {
            let c = *c;
            (t, Box::new(move |v| op.holds(v, c)))
        }
        (Term::Const(c), t @ Term::Float { op: f, .. }) if is_truth(*f) => {
            let c = *c;
            (t, Box::new(move |v| op.holds(c, v)))
        }
        _ => return None,
    };
    let truth = truth(t, env)?;
    Some(match (holds(1), holds(0)) {
        (true, true) => Bool::from_bool(true),
        (false, false) => Bool::from_bool(false),
        (true, false) => truth,
        (false, true) => truth.not(),
    })
}

/// The width of a variable of type `ty` kept as bits (`None`: an integer).
pub fn width(ty: IntType) -> Option<u32> {
    match ty {
        IntType::Float => Some(32),
        IntType::Double => Some(64),
        _ => None,
    }
}

/// `v` (64 bits) cut to a variable's `width`.
pub fn narrow(v: &BV, width: u32) -> BV {
    match (width, v.as_u64()) {
        (64, _) => v.clone(),
        (_, Some(c)) => BV::from_u64(c & ((1u64 << width) - 1), width),
        (_, None) => v.extract(width - 1, 0),
    }
}
