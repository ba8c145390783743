//! Bitwise operations in Z3, exactly and in linear integer arithmetic. A
//! value's bits are Booleans: a constant's are known; a result of a
//! bitwise operation, a shift by a constant or a conversion keeps the bits
//! it was built from (`BitCache`), so a chain of them never reads a bit
//! back out of an integer; any other value's bits are drawn once, fresh,
//! with one definition `x = sum of bits + 2^w * high` (any integer has
//! exactly one such reading). A result is the sum of its bits, the top bit
//! of a signed type weighing `-2^(bits-1)`. A shift by a variable amount is
//! one case per amount. Without a cache (inside a quantifier) bit `i` of
//! `x` is `(x div 2^i) mod 2`, as before. An exclusive or of drawn bits is
//! kept as the set of them (`BitVal::Xor`): equal sets are the same bit,
//! so `a ^ b ^ c` equals `c ^ a ^ b` by construction, not by a search Z3
//! gives up on (SV-COMP's `xor1`: a 100-element xor, permuted).
//!
//! Measured: `int2bv` on integer terms was far slower (a constant `-4 >>
//! n` with `n` in `1..2` did not finish in 20 s); reading bits by `div`
//! and `mod` made SV-COMP's `interleave_bits` (16 shifts and masks of two
//! 16-bit values, then 8 more) exceed Z3's resource limit.

use crate::ir::fixed_hash::FixedMap;
use crate::ir::{BitOp, IntType};
use std::rc::Rc;
use z3::ast::{Ast, Bool, Int};

/// 2^k as a Z3 integer (k up to 64).
fn pow2(k: u32) -> Int {
    if k < 63 {
        Int::from_i64(1i64 << k)
    } else {
        Int::mul(&[Int::from_i64(1i64 << (k - 2)), Int::from_i64(4)])
    }
}

/// One bit: known, the exclusive or of drawn bits, or a formula.
#[derive(Clone)]
enum BitVal {
    Known(bool),
    /// The drawn bits' numbers (sorted, each once), negated when `flip`.
    Xor(Rc<Vec<u32>>, bool),
    Sym(Bool),
}

impl BitVal {
    fn not(&self) -> BitVal {
        match self {
            BitVal::Known(b) => BitVal::Known(!b),
            BitVal::Xor(s, f) => BitVal::Xor(s.clone(), !f),
            BitVal::Sym(s) => BitVal::Sym(s.not()),
        }
    }
}

/// The bits of an integer, lowest first.
#[derive(Clone)]
struct Bits {
    bits: Vec<BitVal>,
    /// Read in two's complement (the top bit negative).
    signed: bool,
    /// The value is exactly the bits read (else only modulo `2^len`).
    exact: bool,
}

/// What one encoding knows of its integers' bits, and the definitions of
/// the bits it drew (true of every value: the owner asserts them where
/// any path starts).
#[derive(Default)]
pub struct BitCache {
    known: FixedMap<Int, Bits>,
    /// Ranges the values are assumed to be in where they are read (an
    /// input's type): their bits are drawn as few and exact.
    ranges: FixedMap<Int, (i64, i64)>,
    pub defs: Vec<Bool>,
    drawn: u32,
    /// The drawn bits, by number.
    atoms: Vec<Bool>,
    /// Values equal to another whose bits are not drawn yet: they get
    /// its bits when they are (`alias`).
    same: FixedMap<Int, Int>,
}

impl BitCache {
    /// `to` is equal to `from` wherever `to` is read (a passive form's
    /// assignment): it has the same bits, and the same range.
    pub fn alias(&mut self, to: &Int, from: &Int) {
        if let Some(b) = self.known.get(from).cloned() {
            self.known.insert(to.clone(), b);
        } else if from.as_i64().is_none() {
            // Drawn later, once, for both: two draws equal only by their
            // sums would leave Z3 to find that their bits are equal.
            self.same.insert(to.clone(), from.clone());
        }
        if let Some(&r) = self.ranges.get(from) {
            self.ranges.insert(to.clone(), r);
        }
    }

    /// `x` is in `lo..=hi` wherever it is read (a passive form's input or
    /// havocked incarnation, with its range assumed).
    pub fn ranged(&mut self, x: &Int, range: (i64, i64)) {
        self.ranges.insert(x.clone(), range);
    }

    fn signed_of(&self, x: &Int) -> bool {
        self.known.get(x).is_none_or(|k| k.signed)
    }

    /// One more bit than either of two exact values needs (`None` unless
    /// both are exactly their bits, and not both constants).
    fn exact_width(&self, a: &Int, b: &Int) -> Option<u32> {
        let exact = |x: &Int| x.as_i64().is_some() || self.known.get(x).is_some_and(|k| k.exact);
        if !exact(a) || !exact(b) || (a.as_i64().is_some() && b.as_i64().is_some()) {
            return None;
        }
        let width = |x: &Int| self.known.get(x).map_or(64, |k| k.bits.len() as u32);
        Some(width(a).max(width(b)) + 1)
    }

    /// `a == b` bit by bit, when both values are exactly their bits.
    pub fn equal(&mut self, a: &Int, b: &Int) -> Option<Bool> {
        // One more bit than either keeps both values' signs apart.
        let w = self.exact_width(a, b)?;
        let (sa, sb) = (self.signed_of(a), self.signed_of(b));
        let (x, y) = (self.bits(a, w, sa), self.bits(b, w, sb));
        let same: Vec<Bool> = x
            .iter()
            .zip(&y)
            .filter_map(|(x, y)| match self.combine(BitOp::Xor, x, y) {
                BitVal::Known(false) => None,
                BitVal::Known(true) => Some(Bool::from_bool(false)),
                d => Some(self.formula(&d).not()),
            })
            .collect();
        Some(Bool::and(&same))
    }

    /// The low `w` bits of `x` (`signed` says how a value known to have
    /// fewer is extended).
    fn bits(&mut self, x: &Int, w: u32, signed: bool) -> Vec<BitVal> {
        let constant = |c: i64| (0..w).map(|i| BitVal::Known((c as i128 >> i) & 1 == 1)).collect();
        if let Some(c) = x.as_i64() {
            return constant(c);
        }
        if let Some(b) = self.known.get(x) {
            let n = b.bits.len() as u32;
            if n >= w {
                return b.bits[..w as usize].to_vec();
            }
            if b.exact {
                let fill = if b.signed {
                    b.bits[n as usize - 1].clone()
                } else {
                    BitVal::Known(false)
                };
                let mut out = b.bits.clone();
                out.resize(w as usize, fill);
                return out;
            }
        }
        // A constant not yet folded (`(i + 1) mod 2^32` of a known `i`).
        if let Some(c) = x.simplify().as_i64() {
            return constant(c);
        }
        if let Some(from) = self.same.get(x).cloned() {
            self.bits(&from, w, signed);
            if let Some(b) = self.known.get(&from).cloned() {
                self.known.insert(x.clone(), b);
                return self.bits(x, w, signed);
            }
        }
        self.drawn += 1;
        let n = self.drawn;
        // A value in a range of `k` bits is exactly `k` bits.
        let fits = self.ranges.get(x).and_then(|&(lo, hi)| {
            let (lo, hi) = (lo as i128, hi as i128);
            let k = (1..=64u32).find(|&k| (lo >= 0 && hi < 1 << k) || (lo >= -(1 << (k - 1)) && hi < 1 << (k - 1)))?;
            Some((k, lo < 0))
        });
        let (k, drawn_signed) = fits.unwrap_or((w, signed));
        let drawn: Vec<BitVal> = (0..k)
            .map(|i| {
                self.atoms.push(Bool::new_const(format!("bit@{n}.{i}")));
                BitVal::Xor(Rc::new(vec![self.atoms.len() as u32 - 1]), false)
            })
            .collect();
        let read = self.sum(&drawn, drawn_signed);
        self.defs.push(if fits.is_some() {
            x.eq(read)
        } else {
            x.eq(Int::add(&[
                read,
                Int::mul(&[pow2(w), Int::new_const(format!("high@{n}"))]),
            ]))
        });
        self.known.insert(
            x.clone(),
            Bits {
                bits: drawn,
                signed: drawn_signed,
                exact: fits.is_some(),
            },
        );
        self.bits(x, w, signed)
    }

    /// The integer the bits make, remembered with them.
    fn value(&mut self, bits: Vec<BitVal>, signed: bool) -> Int {
        if bits.iter().all(|b| matches!(b, BitVal::Known(_))) {
            let w = bits.len();
            let c = bits.iter().enumerate().fold(0i128, |acc, (i, b)| {
                let set = matches!(b, BitVal::Known(true));
                match (set, signed && i == w - 1) {
                    (false, _) => acc,
                    (true, false) => acc + (1i128 << i),
                    (true, true) => acc - (1i128 << i),
                }
            });
            if let Ok(c) = i64::try_from(c) {
                return Int::from_i64(c);
            }
        }
        let v = self.sum(&bits, signed);
        if v.as_i64().is_none() {
            self.known.insert(
                v.clone(),
                Bits {
                    bits,
                    signed,
                    exact: true,
                },
            );
        }
        v
    }

    /// A C conversion's result `to` (`lo + (x - lo) mod 2^w`) has the low
    /// `w` bits of `x`, when `x`'s bits are known.
    pub fn converted(&mut self, to: &Int, x: &Int, w: u32, signed: bool) {
        if to.as_i64().is_some() || !self.known.contains_key(x) {
            return;
        }
        let bits = self.bits(x, w, signed);
        self.known.insert(
            to.clone(),
            Bits {
                bits,
                signed,
                exact: true,
            },
        );
    }
}

impl BitCache {
    /// A bit as a formula.
    fn formula(&self, b: &BitVal) -> Bool {
        match b {
            BitVal::Known(k) => Bool::from_bool(*k),
            BitVal::Sym(s) => s.clone(),
            BitVal::Xor(set, flip) => {
                let mut it = set.iter().map(|&a| self.atoms[a as usize].clone());
                let first = it.next().unwrap_or_else(|| Bool::from_bool(false));
                let x = it.fold(first, |acc, a| acc.xor(&a));
                if *flip {
                    x.not()
                } else {
                    x
                }
            }
        }
    }

    /// `x op y`, bit by bit.
    fn combine(&self, op: BitOp, x: &BitVal, y: &BitVal) -> BitVal {
        match (x, y) {
            (BitVal::Known(x), BitVal::Known(y)) => BitVal::Known(combine(op, *x, *y)),
            (BitVal::Known(k), s) | (s, BitVal::Known(k)) => match (op, k) {
                (BitOp::And, false) => BitVal::Known(false),
                (BitOp::Or, true) => BitVal::Known(true),
                (BitOp::Xor, true) => s.not(),
                _ => s.clone(),
            },
            (BitVal::Xor(a, f), BitVal::Xor(b, g)) if op == BitOp::Xor => {
                // The symmetric difference of two sorted sets.
                let (mut i, mut j, mut out) = (0, 0, Vec::with_capacity(a.len() + b.len()));
                while i < a.len() || j < b.len() {
                    match (a.get(i), b.get(j)) {
                        (Some(x), Some(y)) if x == y => {
                            i += 1;
                            j += 1;
                        }
                        (Some(x), Some(y)) if x < y => {
                            out.push(*x);
                            i += 1;
                        }
                        (Some(x), None) => {
                            out.push(*x);
                            i += 1;
                        }
                        (_, Some(y)) => {
                            out.push(*y);
                            j += 1;
                        }
                        (None, None) => break,
                    }
                }
                if out.is_empty() {
                    BitVal::Known(f != g)
                } else {
                    BitVal::Xor(Rc::new(out), f != g)
                }
            }
            (x, y) => {
                let (x, y) = (self.formula(x), self.formula(y));
                BitVal::Sym(match op {
                    BitOp::And => Bool::and(&[&x, &y]),
                    BitOp::Or => Bool::or(&[&x, &y]),
                    _ => x.xor(&y),
                })
            }
        }
    }

    /// The bits read as an integer.
    fn sum(&self, bits: &[BitVal], signed: bool) -> Int {
        let formulas: Vec<BitVal> = bits
            .iter()
            .map(|b| match b {
                BitVal::Xor(..) => BitVal::Sym(self.formula(b)),
                _ => b.clone(),
            })
            .collect();
        sum(&formulas, signed)
    }
}

/// The bits read as an integer (no `Xor` among them).
fn sum(bits: &[BitVal], signed: bool) -> Int {
    let w = bits.len() as u32;
    let zero = Int::from_i64(0);
    let mut parts = Vec::new();
    for (i, b) in bits.iter().enumerate() {
        let i = i as u32;
        let weight = if signed && i == w - 1 {
            pow2(i).unary_minus()
        } else {
            pow2(i)
        };
        match b {
            BitVal::Known(true) => parts.push(weight),
            BitVal::Known(false) => {}
            BitVal::Sym(s) => parts.push(s.ite(&weight, &zero)),
            BitVal::Xor(..) => unreachable!("read as formulas first"),
        }
    }
    if parts.is_empty() {
        zero
    } else if parts.len() == 1 {
        parts.pop().expect("one part")
    } else {
        Int::add(&parts)
    }
}

/// `a op b` in `ty` where it is defined (`BitOp::apply`).
pub fn bit_int(op: BitOp, ty: IntType, a: &Int, b: &Int, cache: Option<&mut BitCache>) -> Int {
    let w = ty.bits();
    let (ka, kb) = (a.as_i64(), b.as_i64());
    let Some(cache) = cache else {
        return bit_int_divmod(op, ty, (a, ka), (b, kb));
    };
    let signed = ty.is_signed();
    match op {
        BitOp::Shl | BitOp::Shr => match kb {
            Some(k) if (0..w as i64).contains(&k) => {
                let k = k as usize;
                let x = cache.bits(a, w, signed);
                let fill = if op == BitOp::Shr && signed {
                    x[w as usize - 1].clone()
                } else {
                    BitVal::Known(false)
                };
                let out = (0..w as usize)
                    .map(|i| match op {
                        BitOp::Shl if i >= k => x[i - k].clone(),
                        BitOp::Shr if i + k < w as usize => x[i + k].clone(),
                        _ => fill.clone(),
                    })
                    .collect();
                cache.value(out, signed)
            }
            _ => bit_int_divmod(op, ty, (a, ka), (b, kb)),
        },
        BitOp::And | BitOp::Or | BitOp::Xor => {
            let (x, y) = (cache.bits(a, w, signed), cache.bits(b, w, signed));
            let out = x.iter().zip(&y).map(|(x, y)| cache.combine(op, x, y)).collect();
            cache.value(out, signed)
        }
    }
}

/// `x op y` for bits read by division (no drawn bits among them).
fn combine_bits(op: BitOp, x: &BitVal, y: &BitVal) -> BitVal {
    BitCache::default().combine(op, x, y)
}

/// Bit `i` of `x` by division, known when `x` is a constant.
fn bit(x: &Int, known: Option<i64>, i: u32) -> BitVal {
    match known {
        Some(c) => BitVal::Known((c as i128 >> i) & 1 == 1),
        None => BitVal::Sym(x.div(pow2(i)).modulo(Int::from_i64(2)).eq(Int::from_i64(1))),
    }
}

/// `a op b` reading bits by division (no cache: inside a quantifier).
fn bit_int_divmod(op: BitOp, ty: IntType, (a, ka): (&Int, Option<i64>), (b, kb): (&Int, Option<i64>)) -> Int {
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
            let bits: Vec<BitVal> = (0..w)
                .map(|i| combine_bits(op, &bit(a, ka, i), &bit(b, kb, i)))
                .collect();
            sum(&bits, ty.is_signed())
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
