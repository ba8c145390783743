//! `float::apply` over sets of values: intervals, for proving that no
//! input of a box satisfies a floating condition (the Datalog engine's
//! `float_box.rs`). Every result holds every value `float::apply` gives on
//! operands drawn from the argument sets; where that is not easy to know
//! (a NaN, an infinity, a division by an interval holding zero) the result
//! is `Iv::Top`, which refutes nothing.
//!
//! Bounds are exact, not widened: each operation below is monotone in each
//! operand on the sets it is applied to (IEEE 754 rounds every operation
//! correctly, and round-to-nearest is monotone), so its extremes over a
//! box are the rounded operation at the box's corners, and the corners are
//! computed by `float::apply` itself. Signed zeros are one value here: an
//! interval's bounds compare as C compares (`-0.0 == 0.0`); the one
//! operation where the sign of a zero changes a value, division, gives up
//! when the divisor's interval holds zero.

use super::{apply, FloatOp, MathFn};
use crate::ir::RelOp;
use crate::syntax::ast::IntType;

/// A set of values of an operand or a result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Iv {
    /// The integers `lo..=hi`.
    Int(i128, i128),
    /// Floating values: the non-NaN ones in `lo..=hi` (none when `range`
    /// is `None`), and NaN when `nan`.
    Float { range: Option<(f64, f64)>, nan: bool },
    /// Any value.
    Top,
}

impl Iv {
    /// The value of `bits` in `ty`, alone.
    pub fn point(ty: IntType, bits: i64) -> Iv {
        let v = value(ty, bits);
        if v.is_nan() {
            Iv::Float { range: None, nan: true }
        } else {
            Iv::Float {
                range: Some((v, v)),
                nan: false,
            }
        }
    }

    /// The non-NaN range of a set that holds no NaN and no infinity.
    fn finite(self) -> Option<(f64, f64)> {
        match self {
            Iv::Float {
                range: Some((lo, hi)),
                nan: false,
            } if lo.is_finite() && hi.is_finite() => Some((lo, hi)),
            _ => None,
        }
    }

    /// Whether `0` (an integer, or a floating `false`) may be the value.
    pub fn may_be_zero(self) -> bool {
        match self {
            Iv::Int(lo, hi) => lo <= 0 && 0 <= hi,
            _ => true,
        }
    }
}

/// The value of bits `bits` in `ty` (a `float`'s exactly, as an `f64`).
pub fn value(ty: IntType, bits: i64) -> f64 {
    if ty == IntType::Float {
        f32::from_bits(bits as u32) as f64
    } else {
        f64::from_bits(bits as u64)
    }
}

/// The bits of `v` in `ty` (`v` a value of `ty`).
pub fn bits(ty: IntType, v: f64) -> i64 {
    if ty == IntType::Float {
        (v as f32).to_bits() as i64
    } else {
        v.to_bits() as i64
    }
}

/// The greatest ordinal of `ty` (its infinity's): `ordinal` numbers the
/// non-NaN values of `ty` in order, `-ordinal_max(ty) - 1` to
/// `ordinal_max(ty)`, `-0.0` just below `+0.0`.
pub fn ordinal_max(ty: IntType) -> i64 {
    if ty == IntType::Float {
        0x7f80_0000
    } else {
        0x7ff0_0000_0000_0000
    }
}

/// The place of the non-NaN `bits` in `ty`'s order of values.
pub fn ordinal(ty: IntType, bits: i64) -> i64 {
    let (sign, magnitude) = if ty == IntType::Float {
        let b = bits as u32;
        (b >> 31 == 1, (b & 0x7fff_ffff) as i64)
    } else {
        let b = bits as u64;
        (b >> 63 == 1, (b & 0x7fff_ffff_ffff_ffff) as i64)
    };
    if sign {
        -magnitude - 1
    } else {
        magnitude
    }
}

/// The bits of the value at place `o` (`ordinal`'s inverse).
pub fn from_ordinal(ty: IntType, o: i64) -> i64 {
    let (magnitude, sign) = if o < 0 { (-(o + 1), true) } else { (o, false) };
    if ty == IntType::Float {
        (magnitude as u32 | if sign { 0x8000_0000 } else { 0 }) as i64
    } else {
        (magnitude as u64 | if sign { 1 << 63 } else { 0 }) as i64
    }
}

/// The values `op` in `ty` gives on operands from `args` (`float::apply`
/// over sets).
pub fn apply_iv(op: FloatOp, ty: IntType, args: &[Iv]) -> Iv {
    match op {
        FloatOp::Add | FloatOp::Sub | FloatOp::Mul | FloatOp::Div => arith(op, ty, args[0], args[1]),
        FloatOp::Neg => match args[0] {
            Iv::Float { range, nan } => Iv::Float {
                range: range.map(|(lo, hi)| (-hi, -lo)),
                nan,
            },
            _ => Iv::Top,
        },
        FloatOp::Cmp(r) => compare(r, args[0], args[1]),
        FloatOp::FromInt(from) => from_int(from, ty, args[0]),
        FloatOp::ToInt(to) => to_int(to, ty, args[0]),
        FloatOp::Resize => match args[0] {
            Iv::Float { range, nan } => Iv::Float {
                range: range.map(|(lo, hi)| (resize(ty, lo), resize(ty, hi))),
                nan,
            },
            _ => Iv::Top,
        },
        FloatOp::Math(m) => math(m, ty, args),
        // Bits read as another type: no order kept.
        FloatOp::ToBits | FloatOp::FromBits => Iv::Top,
    }
}

/// `v` (a value of the other type) converted to `ty`, rounded.
fn resize(ty: IntType, v: f64) -> f64 {
    if ty == IntType::Float {
        v as f32 as f64
    } else {
        v
    }
}

/// The binary `op` at the corners `xs` x `ys`: the least and greatest result, or
/// `None` if one is not finite.
fn corners(op: FloatOp, ty: IntType, xs: &[f64], ys: &[f64]) -> Option<(f64, f64)> {
    let mut out: Option<(f64, f64)> = None;
    for &x in xs {
        for &y in ys {
            let r = value(ty, apply(op, ty, &[bits(ty, x), bits(ty, y)]).ok()?);
            if !r.is_finite() {
                return None;
            }
            out = Some(out.map_or((r, r), |(lo, hi)| (lo.min(r), hi.max(r))));
        }
    }
    out
}

fn float(range: Option<(f64, f64)>) -> Iv {
    range.map_or(Iv::Top, |r| Iv::Float {
        range: Some(r),
        nan: false,
    })
}

/// `+ - * /`: finite operands only (a NaN or an infinity gives up), and
/// a divisor away from zero.
fn arith(op: FloatOp, ty: IntType, a: Iv, b: Iv) -> Iv {
    let (Some((a0, a1)), Some((b0, b1))) = (a.finite(), b.finite()) else {
        return Iv::Top;
    };
    if op == FloatOp::Div && b0 <= 0.0 && 0.0 <= b1 {
        return Iv::Top;
    }
    float(corners(op, ty, &[a0, a1], &[b0, b1]))
}

/// A comparison: `Int` within `0..=1`, each value only if some operands
/// give it.
fn compare(r: RelOp, a: Iv, b: Iv) -> Iv {
    let (Iv::Float { range: ra, nan: na }, Iv::Float { range: rb, nan: nb }) = (a, b) else {
        return Iv::Int(0, 1);
    };
    // A NaN operand makes every operator but `!=` false.
    let (mut t, mut f) = if na || nb {
        (r == RelOp::Ne, r != RelOp::Ne)
    } else {
        (false, false)
    };
    if let (Some((a0, a1)), Some((b0, b1))) = (ra, rb) {
        let overlap = a0 <= b1 && b0 <= a1;
        let same_point = a0 == a1 && b0 == b1 && a0 == b0;
        let (can_t, can_f) = match r {
            RelOp::Lt => (a0 < b1, a1 >= b0),
            RelOp::Le => (a0 <= b1, a1 > b0),
            RelOp::Gt => (a1 > b0, a0 <= b1),
            RelOp::Ge => (a1 >= b0, a0 < b1),
            RelOp::Eq => (overlap, !same_point),
            RelOp::Ne => (!same_point, overlap),
        };
        t |= can_t;
        f |= can_f;
    }
    match (f, t) {
        (true, true) => Iv::Int(0, 1),
        (false, true) => Iv::Int(1, 1),
        (true, false) => Iv::Int(0, 0),
        // No operands at all: an empty set, which any set holds.
        (false, false) => Iv::Int(0, 1),
    }
}

/// An integer of type `from` converted to `ty`: monotone.
fn from_int(from: IntType, ty: IntType, a: Iv) -> Iv {
    let Iv::Int(lo, hi) = a else {
        return Iv::Top;
    };
    // An `unsigned long long` above `i64` is carried as a negative `i64`.
    if from == IntType::ULongLong || lo > hi || lo < i64::MIN as i128 || hi > i64::MAX as i128 {
        return Iv::Top;
    }
    let at = |n: i128| apply(FloatOp::FromInt(from), ty, &[n as i64]).map(|b| value(ty, b));
    match (at(lo), at(hi)) {
        (Ok(l), Ok(h)) => Iv::Float {
            range: Some((l, h)),
            nan: false,
        },
        _ => Iv::Top,
    }
}

/// A conversion to an integer type: truncation is monotone where it is
/// defined; a set that reaches beyond the type gives up.
fn to_int(to: IntType, ty: IntType, a: Iv) -> Iv {
    let Iv::Float {
        range: Some((lo, hi)),
        nan: false,
    } = a
    else {
        return Iv::Top;
    };
    if to == IntType::Bool || to == IntType::ULongLong {
        return Iv::Top;
    }
    let at = |v: f64| apply(FloatOp::ToInt(to), ty, &[bits(ty, v)]);
    match (at(lo), at(hi)) {
        (Ok(l), Ok(h)) => Iv::Int(l as i128, h as i128),
        _ => Iv::Top,
    }
}

fn math(m: MathFn, ty: IntType, args: &[Iv]) -> Iv {
    let Iv::Float { range, nan } = args[0] else {
        return if m.is_predicate() { Iv::Int(0, 1) } else { Iv::Top };
    };
    if m.is_predicate() {
        return predicate(m, range, nan);
    }
    if nan {
        return Iv::Top;
    }
    let Some((lo, hi)) = range else {
        return Iv::Top;
    };
    let one = |v: f64| value(ty, apply(FloatOp::Math(m), ty, &[bits(ty, v)]).unwrap_or(0));
    let r = match m {
        MathFn::Fabs if lo < 0.0 && hi > 0.0 => (0.0, (-lo).max(hi)),
        MathFn::Fabs if hi <= 0.0 => (one(hi), one(lo)),
        MathFn::Sqrt if lo < 0.0 => return Iv::Top,
        MathFn::Fabs | MathFn::Sqrt | MathFn::Floor | MathFn::Ceil | MathFn::Trunc | MathFn::Round => {
            (one(lo), one(hi))
        }
        MathFn::Fmin | MathFn::Fmax => {
            let Some((b0, b1)) = args.get(1).and_then(|b| b.finite()) else {
                return Iv::Top;
            };
            if !lo.is_finite() || !hi.is_finite() {
                return Iv::Top;
            }
            let pick = |x: f64, y: f64| if m == MathFn::Fmin { x.min(y) } else { x.max(y) };
            (pick(lo, b0), pick(hi, b1))
        }
        _ => return Iv::Top,
    };
    if r.0.is_nan() || r.1.is_nan() {
        return Iv::Top;
    }
    Iv::Float {
        range: Some(r),
        nan: false,
    }
}

/// `isnan`, `isinf`, `isfinite`, `signbit` over a set.
fn predicate(m: MathFn, range: Option<(f64, f64)>, nan: bool) -> Iv {
    let (mut t, mut f) = (false, false);
    let mut may = |p: bool| if p { t = true } else { f = true };
    if nan {
        match m {
            // A NaN's sign is its payload's: either.
            MathFn::SignBit => {
                may(true);
                may(false);
            }
            _ => may(m == MathFn::IsNan),
        }
    }
    if let Some((lo, hi)) = range {
        let infinite = lo == f64::NEG_INFINITY || hi == f64::INFINITY;
        // Between two different bounds there is a finite value.
        let finite = lo < hi || lo.is_finite();
        match m {
            MathFn::IsNan => may(false),
            MathFn::IsInf | MathFn::IsFinite => {
                if infinite {
                    may(m == MathFn::IsInf);
                }
                if finite {
                    may(m == MathFn::IsFinite);
                }
            }
            // A zero bound may be either zero.
            _ => {
                if lo <= 0.0 {
                    may(true);
                }
                if hi >= 0.0 {
                    may(false);
                }
            }
        }
    }
    match (f, t) {
        (true, false) => Iv::Int(0, 0),
        (false, true) => Iv::Int(1, 1),
        _ => Iv::Int(0, 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// A non-NaN value of `ty`: often a small or special one.
    fn number(ty: IntType) -> impl Strategy<Value = i64> {
        let m = ordinal_max(ty);
        let small = prop::sample::select(vec![
            0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 3.0, -3.5, 1e-3, 100.0, 1e30, 1e-40,
        ]);
        prop_oneof![
            small.prop_map(move |v| bits(ty, v)),
            (-m - 1..=m).prop_map(move |o| from_ordinal(ty, o)),
            (-1.0e3f64..1.0e3).prop_map(move |v| bits(ty, v)),
        ]
    }

    /// A set of `ty` values and a few of its members (bits).
    fn float_set(ty: IntType) -> impl Strategy<Value = (Iv, Vec<i64>)> {
        (
            number(ty),
            number(ty),
            any::<bool>(),
            prop::collection::vec(0.0f64..=1.0, 3),
        )
            .prop_map(move |(a, b, nan, ts)| {
                let (a, b) = (ordinal(ty, a), ordinal(ty, b));
                let (lo, hi) = (a.min(b), a.max(b));
                let mut members: Vec<i64> = ts
                    .iter()
                    .map(|t| from_ordinal(ty, (lo as i128 + ((hi as i128 - lo as i128) as f64 * t) as i128) as i64))
                    .chain([from_ordinal(ty, lo), from_ordinal(ty, hi)])
                    .collect();
                if nan {
                    members.push(super::super::default_nan(ty));
                }
                let range = Some((value(ty, from_ordinal(ty, lo)), value(ty, from_ordinal(ty, hi))));
                (Iv::Float { range, nan }, members)
            })
    }

    fn int_set() -> impl Strategy<Value = (Iv, Vec<i64>)> {
        (
            -(1i64 << 40)..(1 << 40),
            0i64..(1 << 30),
            prop::collection::vec(0.0f64..=1.0, 3),
        )
            .prop_map(|(lo, w, ts)| {
                let members = ts
                    .iter()
                    .map(|t| lo + (w as f64 * t) as i64)
                    .chain([lo, lo + w])
                    .collect();
                (Iv::Int(lo as i128, (lo + w) as i128), members)
            })
    }

    fn op() -> impl Strategy<Value = FloatOp> {
        let rel = prop::sample::select(vec![RelOp::Eq, RelOp::Ne, RelOp::Lt, RelOp::Le, RelOp::Gt, RelOp::Ge]);
        let math = prop::sample::select(vec![
            MathFn::Fabs,
            MathFn::Sqrt,
            MathFn::Floor,
            MathFn::Ceil,
            MathFn::Trunc,
            MathFn::Round,
            MathFn::Fmin,
            MathFn::Fmax,
            MathFn::IsNan,
            MathFn::IsInf,
            MathFn::IsFinite,
            MathFn::SignBit,
        ]);
        let ints = prop::sample::select(vec![IntType::Char, IntType::Int, IntType::UInt, IntType::LongLong]);
        prop_oneof![
            prop::sample::select(vec![
                FloatOp::Add,
                FloatOp::Sub,
                FloatOp::Mul,
                FloatOp::Div,
                FloatOp::Neg
            ]),
            rel.prop_map(FloatOp::Cmp),
            math.prop_map(FloatOp::Math),
            ints.clone().prop_map(FloatOp::FromInt),
            ints.prop_map(FloatOp::ToInt),
            Just(FloatOp::Resize),
        ]
    }

    /// Whether the set holds the result `r` of `op` in `ty`.
    fn holds(set: Iv, op: FloatOp, ty: IntType, r: i64) -> bool {
        match set {
            Iv::Top => true,
            Iv::Int(lo, hi) => lo <= r as i128 && r as i128 <= hi,
            Iv::Float { range, nan } => {
                let v = value(ty, r);
                assert!(
                    !matches!(op, FloatOp::Cmp(_) | FloatOp::ToInt(_)),
                    "{op:?} gave a float set"
                );
                if v.is_nan() {
                    nan
                } else {
                    range.is_some_and(|(lo, hi)| lo <= v && v <= hi)
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// Every result `float::apply` gives on members of the operand
        /// sets is in the set `apply_iv` gives.
        #[test]
        fn sets_hold_every_concrete_result(
            op in op(),
            double in any::<bool>(),
            seed in any::<u64>(),
        ) {
            let ty = if double { IntType::Double } else { IntType::Float };
            let operand_ty = if op == FloatOp::Resize { super::super::other(ty) } else { ty };
            let arity = match op {
                FloatOp::Add | FloatOp::Sub | FloatOp::Mul | FloatOp::Div | FloatOp::Cmp(_) => 2,
                FloatOp::Math(m) => m.arity(),
                _ => 1,
            };
            let mut runner = proptest::test_runner::TestRunner::new_with_rng(
                ProptestConfig::default(),
                proptest::test_runner::TestRng::from_seed(proptest::test_runner::RngAlgorithm::ChaCha, &{
                    let mut s = [0u8; 32];
                    s[..8].copy_from_slice(&seed.to_le_bytes());
                    s
                }),
            );
            let mut sets = Vec::new();
            for _ in 0..arity {
                let strategy = if matches!(op, FloatOp::FromInt(_)) { int_set().boxed() } else { float_set(operand_ty).boxed() };
                sets.push(strategy.new_tree(&mut runner).expect("a set").current());
            }
            let ivs: Vec<Iv> = sets.iter().map(|(iv, _)| *iv).collect();
            let out = apply_iv(op, ty, &ivs);
            let firsts = &sets[0].1;
            let seconds = sets.get(1).map_or(vec![0], |s| s.1.clone());
            for &x in firsts {
                for &y in &seconds {
                    let args = if arity == 2 { vec![x, y] } else { vec![x] };
                    let r = match apply(op, ty, &args) {
                        Ok(r) => r,
                        // Undefined in C: no value to hold.
                        Err(_) => continue,
                    };
                    prop_assert!(holds(out, op, ty, r), "{op:?} in {ty:?} on {ivs:?}: {out:?} misses {r:#x} (args {args:x?})");
                }
            }
        }
    }
}
