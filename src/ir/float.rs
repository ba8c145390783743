//! IEEE 754 arithmetic on bit patterns: what `float` (binary32) and
//! `double` (binary64) compute in C with `FLT_EVAL_METHOD` 0 (gcc
//! `-msse2 -mfpmath=sse`): each operation in its own type, rounded to
//! nearest even. Rust's `f32`/`f64` are exactly that. The one definition
//! the interpreter and the engines' constant folding share.
//!
//! A `float` value is carried as its `u32` bits, a `double` as its `u64`
//! bits reinterpreted as `i64` (`IntType::range`).

use super::RelOp;
use crate::syntax::ast::IntType;

pub mod interval;

/// The `<math.h>` functions modelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFn {
    Fabs,
    Sqrt,
    Floor,
    Ceil,
    Trunc,
    Round,
    Fmin,
    Fmax,
    IsNan,
    IsInf,
    IsFinite,
    SignBit,
}

impl MathFn {
    /// The function a call names (`fabsf` is `Fabs` on `float`), and the
    /// type it computes in (`None` for the classification macros, which
    /// take either).
    pub fn named(name: &str) -> Option<(MathFn, Option<IntType>)> {
        let (base, ty) = match name.strip_suffix('f') {
            Some(b) if !matches!(name, "isinf" | "isnanf") => (b, Some(IntType::Float)),
            _ => (name, Some(IntType::Double)),
        };
        let f = match base {
            "fabs" => MathFn::Fabs,
            "sqrt" => MathFn::Sqrt,
            "floor" => MathFn::Floor,
            "ceil" => MathFn::Ceil,
            "trunc" => MathFn::Trunc,
            "round" => MathFn::Round,
            "fmin" => MathFn::Fmin,
            "fmax" => MathFn::Fmax,
            _ => {
                let f = match name.trim_start_matches("__builtin_") {
                    "isnan" => MathFn::IsNan,
                    "isinf" => MathFn::IsInf,
                    "isfinite" | "finite" => MathFn::IsFinite,
                    "signbit" => MathFn::SignBit,
                    _ => return None,
                };
                return Some((f, None));
            }
        };
        Some((f, ty))
    }

    pub fn arity(self) -> usize {
        match self {
            MathFn::Fmin | MathFn::Fmax => 2,
            _ => 1,
        }
    }

    /// Whether the result is an `int` (a classification), not a value of
    /// the argument's type.
    pub fn is_predicate(self) -> bool {
        matches!(self, MathFn::IsNan | MathFn::IsInf | MathFn::IsFinite | MathFn::SignBit)
    }

    pub fn c_name(self) -> &'static str {
        match self {
            MathFn::Fabs => "fabs",
            MathFn::Sqrt => "sqrt",
            MathFn::Floor => "floor",
            MathFn::Ceil => "ceil",
            MathFn::Trunc => "trunc",
            MathFn::Round => "round",
            MathFn::Fmin => "fmin",
            MathFn::Fmax => "fmax",
            MathFn::IsNan => "isnan",
            MathFn::IsInf => "isinf",
            MathFn::IsFinite => "isfinite",
            MathFn::SignBit => "signbit",
        }
    }
}

/// A floating-point operation; `ty` in `ExprKind::Float` is the type it
/// computes in (the operands' type, or the result's for `FromInt` and
/// `Resize`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatOp {
    Add,
    Sub,
    Mul,
    Div,
    Neg,
    /// A comparison: `int` 1 or 0 (false whenever an operand is a NaN,
    /// except `!=`).
    Cmp(RelOp),
    /// An integer of this type converted to `ty` (rounded).
    FromInt(IntType),
    /// A `ty` value converted to this integer type, truncated toward
    /// zero; undefined when the result does not fit (or for a NaN).
    ToInt(IntType),
    /// The other floating type converted to `ty`.
    Resize,
    Math(MathFn),
    /// A `ty` value's bits read as the integer of its size (`unsigned
    /// int`, `long long`), unchanged: a union's floating member read as an
    /// integer member.
    ToBits,
    /// An integer of `ty`'s size read as a `ty` value, its bits unchanged.
    FromBits,
}

/// A value of either width, for computing.
#[derive(Clone, Copy)]
enum F {
    S(f32),
    D(f64),
}

fn get(ty: IntType, bits: i64) -> F {
    if ty == IntType::Float {
        F::S(f32::from_bits(bits as u32))
    } else {
        F::D(f64::from_bits(bits as u64))
    }
}

fn put(f: F) -> i64 {
    match f {
        F::S(x) => x.to_bits() as i64,
        F::D(x) => x.to_bits() as i64,
    }
}

fn wide(f: F) -> f64 {
    match f {
        F::S(x) => x as f64,
        F::D(x) => x,
    }
}

fn map(f: F, s: impl Fn(f32) -> f32, d: impl Fn(f64) -> f64) -> F {
    match f {
        F::S(x) => F::S(s(x)),
        F::D(x) => F::D(d(x)),
    }
}

fn map2(a: F, b: F, s: impl Fn(f32, f32) -> f32, d: impl Fn(f64, f64) -> f64) -> F {
    match (a, b) {
        (F::S(x), F::S(y)) => F::S(s(x, y)),
        (a, b) => F::D(d(wide(a), wide(b))),
    }
}

/// The other floating type.
pub fn other(ty: IntType) -> IntType {
    if ty == IntType::Float {
        IntType::Double
    } else {
        IntType::Float
    }
}

/// `op` on `args` (bit patterns, or integers for `FromInt`) in `ty`:
/// `Ok` the result, `Err` the value a run gets where C leaves a conversion
/// undefined (x86's "integer indefinite", the lowest value of 32 or 64
/// bits, converted to the target type).
pub fn apply(op: FloatOp, ty: IntType, args: &[i64]) -> Result<i64, i64> {
    let a = || get(ty, args[0]);
    let b = || get(ty, args[1]);
    let v = match op {
        FloatOp::Add => map2(a(), b(), |x, y| x + y, |x, y| x + y),
        FloatOp::Sub => map2(a(), b(), |x, y| x - y, |x, y| x - y),
        FloatOp::Mul => map2(a(), b(), |x, y| x * y, |x, y| x * y),
        FloatOp::Div => map2(a(), b(), |x, y| x / y, |x, y| x / y),
        FloatOp::Neg => map(a(), |x| -x, |x| -x),
        FloatOp::Cmp(r) => {
            // Both widths compare exactly as `f64`.
            let (x, y) = (wide(a()), wide(b()));
            return Ok(r.holds(x, y) as i64);
        }
        FloatOp::FromInt(from) => {
            let n = if from == IntType::ULongLong {
                args[0] as u64 as i128
            } else {
                args[0] as i128
            };
            // One rounding: i128 -> f32/f64 directly.
            if ty == IntType::Float {
                F::S(n as f32)
            } else {
                F::D(n as f64)
            }
        }
        FloatOp::ToInt(to) => return to_int(wide(a()), to),
        FloatOp::Resize => match get(other(ty), args[0]) {
            F::S(x) => F::D(x as f64),
            F::D(x) => F::S(x as f32),
        },
        FloatOp::Math(m) => return Ok(math(m, a(), args.get(1).map(|_| b()))),
        FloatOp::ToBits | FloatOp::FromBits => return Ok(args[0]),
    };
    Ok(if op == FloatOp::Neg { put(v) } else { canonical(v) })
}

/// `op` in `ty` on operands written `xs`, as C writes it (`bits(x)` for
/// bits read as another type).
pub fn op_text(op: FloatOp, ty: IntType, xs: &[String]) -> String {
    let x = |k: usize| xs.get(k).cloned().unwrap_or_default();
    match op {
        FloatOp::Add => format!("{} + {}", x(0), x(1)),
        FloatOp::Sub => format!("{} - {}", x(0), x(1)),
        FloatOp::Mul => format!("{} * {}", x(0), x(1)),
        FloatOp::Div => format!("{} / {}", x(0), x(1)),
        FloatOp::Neg => format!("-{}", x(0)),
        FloatOp::Cmp(r) => format!("{} {} {}", x(0), r.symbol(), x(1)),
        FloatOp::FromInt(_) | FloatOp::Resize => format!("({}){}", ty.c_name(), x(0)),
        FloatOp::ToInt(t) => format!("({}){}", t.c_name(), x(0)),
        FloatOp::ToBits => format!("bits({})", x(0)),
        FloatOp::FromBits => format!("{}_of_bits({})", ty.c_name(), x(0)),
        FloatOp::Math(m) => format!("{}({})", m.c_name(), xs.join(", ")),
    }
}

/// x86's default NaN ("QNaN floating-point indefinite", the sign set) of
/// `ty`: the one NaN the model's operations make.
pub fn default_nan(ty: IntType) -> i64 {
    if ty == IntType::Float {
        0xFFC0_0000
    } else {
        0xFFF8_0000_0000_0000u64 as i64
    }
}

/// The bits of `f`, a NaN as `default_nan` (SSE propagates an operand's
/// NaN, whose payload the model does not keep apart: docs/cimple.md).
fn canonical(f: F) -> i64 {
    match f {
        F::S(x) if x.is_nan() => default_nan(IntType::Float),
        F::D(x) if x.is_nan() => default_nan(IntType::Double),
        f => put(f),
    }
}

/// The values `op` in `ty` can give (bits, or an integer).
pub fn result_range(op: FloatOp, ty: IntType) -> (i64, i64) {
    match op {
        FloatOp::Cmp(_) => (0, 1),
        FloatOp::Math(m) if m.is_predicate() => (0, 1),
        FloatOp::ToInt(t) => t.range(),
        _ => ty.range(),
    }
}

/// The bits, in `ty`, of the bounds of a conversion to `to`: it is
/// defined where `lo <= trunc(x) < hi` (both powers of two, or zero: exact).
pub fn int_bounds(ty: IntType, to: IntType) -> (i64, i64) {
    let (lo, hi) = to.c_range();
    let f = |v: i128| {
        if ty == IntType::Float {
            (v as f32).to_bits() as i64
        } else {
            (v as f64).to_bits() as i64
        }
    };
    (f(lo), f(hi + 1))
}

fn to_int(x: f64, to: IntType) -> Result<i64, i64> {
    let t = x.trunc();
    let (lo, hi) = to.c_range();
    // Exact: every bound is a power of two or one less, and `t` an integer.
    if x.is_nan() || t < lo as f64 || t > hi as f64 || (hi > 0 && t == (hi + 1) as f64) {
        let indefinite = if to.bits() == 64 { i64::MIN } else { i32::MIN as i64 };
        let v = if to == IntType::Bool {
            1
        } else {
            to.convert(indefinite as i128) as i64
        };
        return Err(v);
    }
    if to == IntType::Bool {
        return Ok((x != 0.0) as i64);
    }
    Ok(if to == IntType::ULongLong {
        t as u64 as i64
    } else {
        t as i64
    })
}

/// `fmin`/`fmax`: a NaN operand gives the other; of equal operands (`-0.0`
/// and `+0.0`, whose order C leaves open) the first, as glibc's libm does.
fn min_max(min: bool, a: F, b: F) -> i64 {
    let (x, y) = (wide(a), wide(b));
    let pick_a = if x.is_nan() {
        false
    } else if y.is_nan() || x == y {
        true
    } else {
        (x < y) == min
    };
    canonical(if pick_a { a } else { b })
}

fn math(m: MathFn, a: F, b: Option<F>) -> i64 {
    let x = wide(a);
    let truth = |p: bool| p as i64;
    match m {
        MathFn::IsNan => return truth(x.is_nan()),
        MathFn::IsInf => return truth(x.is_infinite()),
        MathFn::IsFinite => return truth(x.is_finite()),
        MathFn::SignBit => return truth(x.is_sign_negative()),
        _ => {}
    }
    let v = match m {
        MathFn::Fabs => map(a, f32::abs, f64::abs),
        MathFn::Sqrt => map(a, f32::sqrt, f64::sqrt),
        MathFn::Floor => map(a, f32::floor, f64::floor),
        MathFn::Ceil => map(a, f32::ceil, f64::ceil),
        MathFn::Trunc => map(a, f32::trunc, f64::trunc),
        MathFn::Round => map(a, f32::round, f64::round),
        MathFn::Fmin | MathFn::Fmax => return min_max(m == MathFn::Fmin, a, b.unwrap_or(a)),
        _ => unreachable!("predicates handled above"),
    };
    if m == MathFn::Fabs {
        put(v)
    } else {
        canonical(v)
    }
}

/// How C would write a value of `ty` with bits `bits`: `0.1`, `-0.0`,
/// `NAN`, `INFINITY`, `-INFINITY` (the shortest text that reads back to
/// the same value, with an `f` suffix for a `float`).
pub fn c_text(ty: IntType, bits: i64) -> String {
    let f = get(ty, bits);
    let x = wide(f);
    if x.is_nan() {
        return "NAN".into();
    }
    if x.is_infinite() {
        return if x < 0.0 { "-INFINITY".into() } else { "INFINITY".into() };
    }
    let mut s = match f {
        F::S(v) => format!("{v:?}"),
        F::D(v) => format!("{v:?}"),
    };
    // `1e308` as `%g` writes it: `1e+308`.
    if let Some(at) = s.find('e').filter(|&at| !s[at + 1..].starts_with('-')) {
        s.insert(at + 1, '+');
    }
    if ty == IntType::Float {
        s.push('f');
    }
    s
}

/// A floating value as `focuscheck run` reads it back (`--choices`,
/// `--input`): `c_text` for a finite value (`1023.0f`, `0.1`), `nanf`,
/// `inf`, `-inff` for the others (a NaN's payload is not kept).
pub fn value_word(ty: IntType, bits: i64) -> String {
    let x = wide(get(ty, bits));
    let suffix = if ty == IntType::Float { "f" } else { "" };
    match () {
        _ if x.is_nan() => format!("nan{suffix}"),
        _ if x.is_infinite() => format!("{}inf{suffix}", if x < 0.0 { "-" } else { "" }),
        _ => c_text(ty, bits),
    }
}

/// The bits of a floating value written as `value_word` writes it, or as
/// a C floating constant (`0.5f`, `1e-3`, `2.`): `float` with an `f`
/// suffix, else `double`. `None` for anything else (an integer included).
pub fn parse_value_word(s: &str) -> Option<i64> {
    let s = s.trim().to_ascii_lowercase();
    let single = s.ends_with('f') && !s.ends_with("inf");
    let body = if single { &s[..s.len() - 1] } else { &s[..] };
    let mag = body.trim_start_matches(['-', '+']);
    if mag.len() + 1 < body.len() || mag.starts_with("0x") {
        return None;
    }
    let neg = body.starts_with('-');
    let signed = |x: f64| if neg { -x } else { x };
    let x = match mag {
        "nan" => f64::NAN,
        "inf" | "infinity" => signed(f64::INFINITY),
        _ if mag.contains(['.', 'e']) && mag.starts_with(|c: char| c.is_ascii_digit() || c == '.') => {
            if single {
                // Rounded once from the decimal text, as a C `f` constant is.
                let v: f32 = body.parse().ok()?;
                return Some(put(F::S(v)));
            }
            body.parse().ok()?
        }
        _ => return None,
    };
    Some(if single { put(F::S(x as f32)) } else { put(F::D(x)) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(x: f64) -> i64 {
        x.to_bits() as i64
    }

    #[test]
    fn value_words_read_back_to_the_same_bits() {
        for (ty, bits) in [
            (IntType::Float, 1023.0f32.to_bits() as i64),
            (IntType::Float, 0.1f32.to_bits() as i64),
            (IntType::Float, (-0.0f32).to_bits() as i64),
            (IntType::Float, f32::INFINITY.to_bits() as i64),
            (IntType::Float, f32::NEG_INFINITY.to_bits() as i64),
            (IntType::Float, 1e-45f32.to_bits() as i64),
            (IntType::Double, d(0.1)),
            (IntType::Double, d(-1e308)),
            (IntType::Double, d(5e-324)),
            (IntType::Double, d(f64::NEG_INFINITY)),
        ] {
            let w = value_word(ty, bits);
            assert_eq!(parse_value_word(&w), Some(bits), "{w}");
        }
        let nan = parse_value_word(&value_word(IntType::Float, default_nan(IntType::Float))).unwrap();
        assert!(f32::from_bits(nan as u32).is_nan());
        assert_eq!(parse_value_word("nan"), Some(d(f64::NAN)));
        assert_eq!(parse_value_word("0.1f"), Some(0.1f32.to_bits() as i64));
        assert_eq!(parse_value_word("3"), None);
        assert_eq!(parse_value_word("0x10"), None);
        assert_eq!(parse_value_word("f"), None);
    }

    #[test]
    fn semantics() {
        let add = apply(FloatOp::Add, IntType::Double, &[d(0.1), d(0.2)]).unwrap();
        assert_eq!(f64::from_bits(add as u64), 0.30000000000000004);
        let nan = d(f64::NAN);
        assert_eq!(apply(FloatOp::Cmp(RelOp::Eq), IntType::Double, &[nan, nan]), Ok(0));
        assert_eq!(apply(FloatOp::Cmp(RelOp::Ne), IntType::Double, &[nan, nan]), Ok(1));
        assert_eq!(
            apply(FloatOp::Cmp(RelOp::Eq), IntType::Double, &[d(-0.0), d(0.0)]),
            Ok(1)
        );
        assert_eq!(apply(FloatOp::ToInt(IntType::Int), IntType::Double, &[d(-2.9)]), Ok(-2));
        assert!(apply(FloatOp::ToInt(IntType::Int), IntType::Double, &[d(2147483648.0)]).is_err());
        assert_eq!(
            apply(FloatOp::ToInt(IntType::Int), IntType::Double, &[d(2147483647.9)]),
            Ok(2147483647)
        );
        assert_eq!(
            apply(FloatOp::ToInt(IntType::UChar), IntType::Double, &[d(255.5)]),
            Ok(255)
        );
        assert!(apply(FloatOp::ToInt(IntType::UInt), IntType::Double, &[d(-1.0)]).is_err());
        assert_eq!(apply(FloatOp::ToInt(IntType::UInt), IntType::Double, &[d(-0.5)]), Ok(0));
        assert_eq!(c_text(IntType::Double, d(0.1)), "0.1");
        assert_eq!(c_text(IntType::Float, 0.1f32.to_bits() as i64), "0.1f");
        assert_eq!(c_text(IntType::Double, d(1e308)), "1e+308");
        assert_eq!(c_text(IntType::Double, d(-2.5e-300)), "-2.5e-300");
        assert_eq!(c_text(IntType::Double, d(-0.0)), "-0.0");
        assert_eq!(c_text(IntType::Double, d(f64::NEG_INFINITY)), "-INFINITY");
        for x in [1e308, 0.1, -3.0e-5, 1.0 / 3.0, 5e-324, 123456789.0] {
            assert_eq!(c_text(IntType::Double, d(x)).parse::<f64>(), Ok(x));
        }
    }
}
