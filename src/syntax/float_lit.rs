//! Floating literals (C11 6.4.4.2): decimal (`1.5`, `1e-3`, `.5`) and
//! hexadecimal (`0x1.8p3`), with the suffix `f` (`float`) or none
//! (`double`), rounded once, to nearest even, to the bit pattern of their
//! type. `l` (`long double`) is refused by the caller.

use super::ast::IntType;

/// Why a literal is not accepted.
pub enum LitError {
    LongDouble,
    Malformed,
}

/// The bit pattern and type of literal `text`.
pub fn parse(text: &str) -> Result<(i64, IntType), LitError> {
    let (body, ty) = match text.as_bytes().last() {
        Some(b'f' | b'F') => (&text[..text.len() - 1], IntType::Float),
        Some(b'l' | b'L') => return Err(LitError::LongDouble),
        _ => (text, IntType::Double),
    };
    let hex = body.len() > 2 && (body.starts_with("0x") || body.starts_with("0X"));
    let value = if hex {
        hex_value(&body[2..], ty)
    } else {
        decimal_value(body, ty)
    };
    value.map(|bits| (bits, ty)).ok_or(LitError::Malformed)
}

fn decimal_value(body: &str, ty: IntType) -> Option<i64> {
    let ok = body
        .bytes()
        .all(|c| c.is_ascii_digit() || matches!(c, b'.' | b'e' | b'E' | b'+' | b'-'))
        && body.bytes().any(|c| c.is_ascii_digit());
    if !ok || body.ends_with(['e', 'E', '+', '-']) {
        return None;
    }
    // Rust's parsers round correctly, each to its own type.
    if ty == IntType::Float {
        body.parse::<f32>().ok().map(|f| f.to_bits() as i64)
    } else {
        body.parse::<f64>().ok().map(|f| f.to_bits() as i64)
    }
}

/// `h.hhhp±d`: the binary exponent is required.
fn hex_value(body: &str, ty: IntType) -> Option<i64> {
    let p = body.find(['p', 'P'])?;
    let (mant, exp) = (&body[..p], &body[p + 1..]);
    let exp: i64 = exp.parse().ok()?;
    let (int, frac) = mant.split_once('.').unwrap_or((mant, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let mut m: u128 = 0;
    let mut e = exp;
    let mut sticky = false;
    for (k, c) in int.chars().chain(frac.chars()).enumerate() {
        let d = c.to_digit(16)? as u128;
        if m >> 120 != 0 {
            // Past 120 bits: only whether a digit is non-zero matters.
            sticky |= d != 0;
            if k < int.len() {
                e += 4;
            }
            continue;
        }
        m = m * 16 + d;
        if k >= int.len() {
            e -= 4;
        }
    }
    Some(round_binary(m, sticky, e, ty))
}

/// `m * 2^e` (plus a sticky bit below `m`) rounded to nearest even in `ty`.
fn round_binary(m: u128, sticky: bool, e: i64, ty: IntType) -> i64 {
    let (mbits, ebits) = if ty == IntType::Float { (23u32, 8u32) } else { (52, 11) };
    let bias = (1i64 << (ebits - 1)) - 1;
    let inf = ((1i64 << ebits) - 1) << mbits;
    if m == 0 {
        return 0;
    }
    // The value is m * 2^e; normalise so the leading bit is at position p.
    let lead = 127 - m.leading_zeros() as i64;
    let exp = lead + e; // unbiased exponent of the leading bit
                        // The lowest exponent a kept bit may have.
    let min_bit = (exp - mbits as i64).max(1 - bias - mbits as i64);
    let shift = min_bit - e; // bits of m to drop
    let (mut q, rest_half, rest_sticky) = if shift <= 0 {
        (m << (-shift) as u32, false, sticky)
    } else if shift > 127 {
        (0, false, true)
    } else {
        let s = shift as u32;
        let half = (m >> (s - 1)) & 1 == 1;
        let low = s > 1 && m & ((1u128 << (s - 1)) - 1) != 0;
        (m >> s, half, low || sticky)
    };
    if rest_half && (rest_sticky || q & 1 == 1) {
        q += 1;
    }
    // q * 2^min_bit; q may have gained a bit.
    let mut min_bit = min_bit;
    if q >> (mbits + 1) != 0 {
        q >>= 1;
        min_bit += 1;
    }
    if q >> mbits == 0 {
        // Subnormal (or zero after rounding).
        return q as i64;
    }
    let biased = min_bit + mbits as i64 + bias;
    if biased >= (1 << ebits) - 1 {
        return inf;
    }
    (biased << mbits) | (q as i64 & ((1i64 << mbits) - 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f64_of(t: &str) -> f64 {
        match parse(t) {
            Ok((b, IntType::Double)) => f64::from_bits(b as u64),
            _ => panic!("{t}"),
        }
    }

    #[test]
    fn literals() {
        assert_eq!(f64_of("0x1p-3"), 0.125);
        assert_eq!(f64_of("0x1.8p3"), 12.0);
        assert_eq!(f64_of("0x.8p1"), 1.0);
        assert_eq!(f64_of("0x1p-1074"), f64::from_bits(1));
        assert_eq!(f64_of("0x1p1024"), f64::INFINITY);
        assert_eq!(f64_of("0x1.fffffffffffff8p0"), 2.0);
        assert_eq!(f64_of("1e-3"), 1e-3);
        assert_eq!(f64_of(".5"), 0.5);
        assert_eq!(parse("0.1f").ok().map(|(b, _)| b), Some(0.1f32.to_bits() as i64));
        assert!(matches!(parse("1.0L"), Err(LitError::LongDouble)));
        assert!(matches!(parse("1e"), Err(LitError::Malformed)));
    }
}
