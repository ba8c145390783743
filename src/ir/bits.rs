//! Bitwise operators: what `&`, `|`, `^`, `<<` and `>>` compute (gcc on
//! ILP32), the one definition the interpreter and every engine follow.

use super::IntType;

/// A bitwise operator. `~x` needs none: lowering writes it `-1 - x`
/// (converted to `x`'s promoted type), which is its value in C.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BitOp {
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

impl BitOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BitOp::And => "&",
            BitOp::Or => "|",
            BitOp::Xor => "^",
            BitOp::Shl => "<<",
            BitOp::Shr => ">>",
        }
    }

    pub fn is_shift(self) -> bool {
        matches!(self, BitOp::Shl | BitOp::Shr)
    }

    /// gcc's value of `a op b` done in `ty` (ILP32, two's complement), the
    /// one definition every engine follows; `None` where C leaves it
    /// undefined. The operands are taken modulo 2^bits into `ty` (they are
    /// values of `ty` unless a signed overflow came before). `&`, `|`, `^`
    /// act on the bits. A shift by a negative amount or by `ty`'s width or
    /// more is undefined. `>>` of a negative value is arithmetic (gcc).
    /// `<<` gives the bits shifted, read in `ty` (gcc: `-1 << 1 == -2`,
    /// `1 << 31 == INT_MIN`); with `strict` (a signed type under
    /// `--property no-overflow`) it is undefined, as in C99 and gcc's
    /// `-fsanitize=shift`, for a negative value or a result above `ty`'s
    /// maximum.
    pub fn apply(self, ty: IntType, a: i128, b: i128, strict: bool) -> Option<i128> {
        let a = ty.convert(a);
        match self {
            BitOp::And => Some(a & ty.convert(b)),
            BitOp::Or => Some(a | ty.convert(b)),
            BitOp::Xor => Some(a ^ ty.convert(b)),
            BitOp::Shl | BitOp::Shr => {
                if !(0..ty.bits() as i128).contains(&b) {
                    return None;
                }
                if self == BitOp::Shr {
                    return Some(a >> b);
                }
                let shifted = a << b;
                if strict && ty.is_signed() && (a < 0 || shifted > ty.c_range().1) {
                    return None;
                }
                Some(ty.convert(shifted))
            }
        }
    }
}

/// The values `a op b` in `ty` can take for operands in the given ranges.
pub(crate) fn bit_range(op: BitOp, ty: IntType, a: (i128, i128), b: (i128, i128)) -> (i128, i128) {
    let (tlo, thi) = ty.c_range();
    let inside = |(lo, hi): (i128, i128)| tlo <= lo && hi <= thi;
    // Below 2^k for non-negative values below 2^k.
    let ceil = |hi: i128| {
        if hi <= 0 {
            0
        } else {
            (1i128 << (128 - hi.leading_zeros())) - 1
        }
    };
    let nonneg = |r: (i128, i128)| inside(r) && r.0 >= 0;
    match op {
        BitOp::And if nonneg(a) && nonneg(b) => (0, a.1.min(b.1)),
        BitOp::And if nonneg(a) => (0, a.1),
        BitOp::And if nonneg(b) => (0, b.1),
        BitOp::Or | BitOp::Xor if nonneg(a) && nonneg(b) => (0, ceil(a.1.max(b.1)).min(thi)),
        BitOp::Shr if inside(a) && b.0 >= 0 => {
            let k = b.0.min(127) as u32;
            (a.0.min(0) >> k, a.1.max(0) >> k)
        }
        _ => (tlo, thi),
    }
}
