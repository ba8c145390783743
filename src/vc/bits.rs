//! Bitwise operations in Z3, exactly and in linear integer arithmetic:
//! bit `i` of `x` is `(x div 2^i) mod 2` (Z3's `div` floors for a positive
//! divisor, so this reads two's complement for negative `x` too), and a
//! result is the sum of its bits, the top bit of a signed type weighing
//! `-2^(bits-1)`. A shift by a constant is a division or a wrapped
//! product; by a variable amount, one case per amount. (Z3's `int2bv` on
//! integer terms was measured far slower: a constant `-4 >> n` with `n`
//! in `1..2` did not finish in 20 s.)

use crate::ir::{BitOp, IntType};
use z3::ast::{Bool, Int};

/// 2^k as a Z3 integer (k up to 64).
fn pow2(k: u32) -> Int {
    if k < 63 {
        Int::from_i64(1i64 << k)
    } else {
        Int::mul(&[Int::from_i64(1i64 << (k - 2)), Int::from_i64(4)])
    }
}

/// Bit `i` of `x`, known when `x` is a constant.
enum BitVal {
    Known(bool),
    Sym(Bool),
}

fn bit(x: &Int, known: Option<i64>, i: u32) -> BitVal {
    match known {
        Some(c) => BitVal::Known((c as i128 >> i) & 1 == 1),
        None => BitVal::Sym(x.div(pow2(i)).modulo(Int::from_i64(2)).eq(Int::from_i64(1))),
    }
}

/// `a op b` in `ty` where it is defined (`BitOp::apply`).
pub fn bit_int(op: BitOp, ty: IntType, (a, ka): (&Int, Option<i64>), (b, kb): (&Int, Option<i64>)) -> Int {
    let w = ty.bits();
    match op {
        BitOp::Shl | BitOp::Shr => {
            let by = |k: u32| shift_const(op, ty, a, k);
            match kb {
                Some(k) if (0..w as i64).contains(&k) => by(k as u32),
                Some(_) => Int::from_i64(0),
                None => (0..w).rev().fold(Int::from_i64(0), |rest, k| {
                    b.eq(Int::from_i64(k as i64)).ite(&by(k), &rest)
                }),
            }
        }
        BitOp::And if is_low_mask(ka, w) || is_low_mask(kb, w) => {
            // `x & (2^k - 1)` is `x mod 2^k`.
            let (x, m) = if is_low_mask(kb, w) { (a, kb) } else { (b, ka) };
            let k = m.map_or(0, |m| (m + 1).trailing_zeros());
            x.modulo(pow2(k))
        }
        BitOp::And | BitOp::Or | BitOp::Xor => {
            let zero = Int::from_i64(0);
            let mut parts = Vec::new();
            for i in 0..w {
                let weight = if i == w - 1 && ty.is_signed() {
                    pow2(i).unary_minus()
                } else {
                    pow2(i)
                };
                let set = match (bit(a, ka, i), bit(b, kb, i)) {
                    (BitVal::Known(x), BitVal::Known(y)) => BitVal::Known(combine(op, x, y)),
                    (BitVal::Known(k), BitVal::Sym(s)) | (BitVal::Sym(s), BitVal::Known(k)) => match (op, k) {
                        (BitOp::And, false) => BitVal::Known(false),
                        (BitOp::Or, true) => BitVal::Known(true),
                        (BitOp::Xor, true) => BitVal::Sym(s.not()),
                        _ => BitVal::Sym(s),
                    },
                    (BitVal::Sym(x), BitVal::Sym(y)) => BitVal::Sym(match op {
                        BitOp::And => Bool::and(&[x, y]),
                        BitOp::Or => Bool::or(&[x, y]),
                        _ => x.xor(y),
                    }),
                };
                match set {
                    BitVal::Known(true) => parts.push(weight),
                    BitVal::Known(false) => {}
                    BitVal::Sym(s) => parts.push(s.ite(&weight, &zero)),
                }
            }
            if parts.is_empty() {
                zero
            } else {
                Int::add(&parts)
            }
        }
    }
}

/// `2^k - 1` for `0 < k < w`.
fn is_low_mask(m: Option<i64>, w: u32) -> bool {
    m.is_some_and(|m| m > 0 && (m + 1) & m == 0 && (m + 1).trailing_zeros() < w)
}

fn combine(op: BitOp, x: bool, y: bool) -> bool {
    match op {
        BitOp::And => x && y,
        BitOp::Or => x || y,
        _ => x != y,
    }
}

/// `a << k` (the bits shifted, read in `ty`) or `a >> k` (floor division:
/// arithmetic for a negative value, as gcc).
fn shift_const(op: BitOp, ty: IntType, a: &Int, k: u32) -> Int {
    if op == BitOp::Shr {
        return a.div(pow2(k));
    }
    let (lo, _) = ty.range();
    let lo = Int::from_i64(lo);
    let shifted = Int::sub(&[Int::mul(&[a.clone(), pow2(k)]), lo.clone()]);
    Int::add(&[lo, shifted.modulo(pow2(ty.bits()))])
}
