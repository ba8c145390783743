//! `float::apply` as Z3 terms, for the engines that solve (the VC engine,
//! the Datalog engine's bit-vector fallback): IEEE 754 in Z3's
//! floating-point theory (sorts 8/24 and 11/53, round to nearest even),
//! over the values a run holds, each a 64-bit bit-vector (a `float`'s bits
//! zero-extended, a `double`'s bits, an integer sign-extended). Every NaN
//! an operation makes is `float::default_nan`, as in the interpreter.

use super::float::{default_nan, FloatOp, MathFn};
use super::RelOp;
use crate::syntax::ast::IntType;
use z3::ast::{Ast, Bool, Float, RoundingMode, BV};
use z3::Sort;

fn sort(ty: IntType) -> Sort {
    if ty == IntType::Float {
        Sort::float32()
    } else {
        Sort::double()
    }
}

/// A floating value from its bits (the low 32 for a `float`).
fn from_bits(ty: IntType, v: &BV) -> Float {
    let bits = if ty == IntType::Float {
        v.extract(31, 0)
    } else {
        v.clone()
    };
    let ctx = bits.get_ctx();
    // SAFETY: a Z3 call on live terms of one context, its result wrapped
    // at once (as the crate's own constructors do).
    unsafe {
        let ast = z3_sys::Z3_mk_fpa_to_fp_bv(ctx.get_z3_context(), bits.get_z3_ast(), sort(ty).get_z3_sort())
            .expect("Z3 makes a float of bits");
        Float::wrap(ctx, ast)
    }
}

/// An integer (64 bits, signed) rounded to `ty`.
fn from_int(ty: IntType, v: &BV, rm: &RoundingMode) -> Float {
    let ctx = v.get_ctx();
    // SAFETY: as in `from_bits`.
    unsafe {
        let ast = z3_sys::Z3_mk_fpa_to_fp_signed(
            ctx.get_z3_context(),
            rm.get_z3_ast(),
            v.get_z3_ast(),
            sort(ty).get_z3_sort(),
        )
        .expect("Z3 converts an integer");
        Float::wrap(ctx, ast)
    }
}

/// The bits of `f` as a run holds them, a NaN as the default one.
fn to_bits(ty: IntType, f: &Float) -> BV {
    let bits = f.to_ieee_bv();
    let bits = if ty == IntType::Float { bits.zero_ext(32) } else { bits };
    f.is_nan().ite(&BV::from_i64(default_nan(ty), 64), &bits)
}

fn truth(b: &Bool) -> BV {
    b.ite(&BV::from_i64(1, 64), &BV::from_i64(0, 64))
}

/// `float::int_bounds` as floats of `ty`.
fn int_bounds(ty: IntType, to: IntType) -> (Float, Float) {
    let (lo, hi) = super::float::int_bounds(ty, to);
    (
        from_bits(ty, &BV::from_i64(lo, 64)),
        from_bits(ty, &BV::from_i64(hi, 64)),
    )
}

/// When `op` is defined on `args` (only a conversion to an integer type
/// can be undefined: a NaN, or a value out of the type's range).
pub fn defined(op: FloatOp, ty: IntType, args: &[BV]) -> Bool {
    let FloatOp::ToInt(to) = op else {
        return Bool::from_bool(true);
    };
    let x = from_bits(ty, &args[0]).round_to_integral_with_rounding_mode(&RoundingMode::round_towards_zero());
    let (lo, hi) = int_bounds(ty, to);
    Bool::and(&[x.ge(&lo), x.lt(&hi)])
}

/// The value `float::apply(op, ty, args)` gives, as a 64-bit bit-vector
/// (where `defined` fails, the value a run gets: `float::apply`'s `Err`).
pub fn apply(op: FloatOp, ty: IntType, args: &[BV]) -> BV {
    let rne = RoundingMode::round_nearest_ties_to_even();
    let a = || from_bits(ty, &args[0]);
    let b = || from_bits(ty, &args[1]);
    let f = match op {
        FloatOp::Add => a().add_with_rounding_mode(b(), &rne),
        FloatOp::Sub => a().sub_with_rounding_mode(b(), &rne),
        FloatOp::Mul => a().mul_with_rounding_mode(b(), &rne),
        FloatOp::Div => a().div_with_rounding_mode(b(), &rne),
        FloatOp::Neg => return sign_bit_op(ty, &args[0], true),
        FloatOp::Cmp(_) => return truth(&holds(op, ty, args).expect("a comparison")),
        FloatOp::FromInt(_) => from_int(ty, &args[0], &rne),
        FloatOp::Resize => {
            let from = super::float::other(ty);
            from_bits(from, &args[0]).to_fp_with_rounding_mode(&rne, &sort(ty))
        }
        FloatOp::ToInt(to) => return to_int(ty, to, &args[0]),
        FloatOp::Math(m) => return math(m, ty, args),
        // A `float`'s bits zero-extended are those of the `unsigned int`.
        FloatOp::ToBits | FloatOp::FromBits => return args[0].clone(),
    };
    to_bits(ty, &f)
}

/// The truth of a comparison or a classification (`isnan`, ...), whose
/// value is `int` 1 or 0; `None` for an operation that makes a value.
pub fn holds(op: FloatOp, ty: IntType, args: &[BV]) -> Option<Bool> {
    let a = || from_bits(ty, &args[0]);
    Some(match op {
        FloatOp::Cmp(r) => compare(r, &a(), &from_bits(ty, &args[1])),
        FloatOp::Math(MathFn::IsNan) => a().is_nan(),
        FloatOp::Math(MathFn::IsInf) => a().is_infinite(),
        FloatOp::Math(MathFn::IsFinite) => (a().is_nan() | a().is_infinite()).not(),
        FloatOp::Math(MathFn::SignBit) => {
            let top = if ty == IntType::Float { 31 } else { 63 };
            args[0].extract(top, top).eq(BV::from_i64(1, 1))
        }
        _ => return None,
    })
}

fn compare(r: RelOp, x: &Float, y: &Float) -> Bool {
    match r {
        RelOp::Eq => x.eq_fpa(y),
        RelOp::Ne => x.eq_fpa(y).not(),
        RelOp::Lt => x.lt(y),
        RelOp::Le => x.le(y),
        RelOp::Gt => x.gt(y),
        RelOp::Ge => x.ge(y),
    }
}

/// `-x` (the sign flipped) or `fabs(x)` (the sign cleared), on the bits.
fn sign_bit_op(ty: IntType, v: &BV, flip: bool) -> BV {
    let sign = if ty == IntType::Float { 1i64 << 31 } else { i64::MIN };
    let mask = BV::from_i64(sign, 64);
    if flip {
        v.bvxor(&mask)
    } else {
        v.bvand(mask.bvnot())
    }
}

fn to_int(ty: IntType, to: IntType, v: &BV) -> BV {
    let rtz = RoundingMode::round_towards_zero();
    let x = from_bits(ty, v);
    let value = if to == IntType::ULongLong {
        x.to_ubv_with_rounding_mode(&rtz, 64)
    } else {
        x.to_sbv_with_rounding_mode(&rtz, 64)
    };
    let undefined = match super::float::apply(FloatOp::ToInt(to), ty, &[default_nan(ty)]) {
        Err(u) | Ok(u) => u,
    };
    defined(FloatOp::ToInt(to), ty, std::slice::from_ref(v)).ite(&value, &BV::from_i64(undefined, 64))
}

fn math(m: MathFn, ty: IntType, args: &[BV]) -> BV {
    let x = from_bits(ty, &args[0]);
    let round = |rm: RoundingMode| to_bits(ty, &x.round_to_integral_with_rounding_mode(&rm));
    match m {
        MathFn::Fabs => sign_bit_op(ty, &args[0], false),
        MathFn::Sqrt => to_bits(
            ty,
            &x.sqrt_with_rounding_mode(&RoundingMode::round_nearest_ties_to_even()),
        ),
        MathFn::Floor => round(RoundingMode::round_towards_negative()),
        MathFn::Ceil => round(RoundingMode::round_towards_positive()),
        MathFn::Trunc => round(RoundingMode::round_towards_zero()),
        MathFn::Round => round(RoundingMode::round_nearest_ties_to_away()),
        MathFn::Fmin | MathFn::Fmax => {
            let y = from_bits(ty, &args[1]);
            let min = m == MathFn::Fmin;
            let (lt, gt) = if min {
                (x.lt(&y), x.gt(&y))
            } else {
                (x.gt(&y), x.lt(&y))
            };
            // As `float::min_max`: a NaN gives the other; of equal values the first.
            let pick_a = x.is_nan().not() & (y.is_nan() | lt | gt.not());
            let (a, b) = (to_bits(ty, &x), to_bits(ty, &y));
            pick_a.ite(&a, &b)
        }
        MathFn::IsNan | MathFn::IsInf | MathFn::IsFinite | MathFn::SignBit => {
            truth(&holds(FloatOp::Math(m), ty, args).expect("a classification"))
        }
    }
}
