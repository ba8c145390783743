//! Candidate runs of a path with floating operations that `float_box.rs`
//! did not refute, tried before Z3's floating-point theory (`bv.rs`): the
//! path's operations
//! computed by `float::apply` (through `AlphaDef::eval`) at chosen input
//! values. First the values the path's constants suggest (each constant
//! converted to the input's type and the floats a few places either side
//! of it, zeros, ones, the middle of the boxes `float_box.rs` could not
//! refute), then a fixed number of pseudo-random points in those boxes
//! from a fixed seed: the same path gives the same candidate on any
//! machine. A candidate that satisfies every constraint is a model only
//! after `refine::check` has redone its operations, and a counterexample
//! only after the interpreter has replayed it (`witness.rs`).

use super::float_box::{operand_type, Dim, FloatPath};
use super::refine::{self, Exactness};
use super::value::{AlphaDef, Sym};
use crate::ir::float::{default_nan, interval};
use crate::ir::IntType;
use std::collections::BTreeMap;

/// Pseudo-random points tried after the chosen values.
const SAMPLES: usize = 4_000;

/// The pseudo-random sequence's start.
const SEED: u64 = 0x0f10_a75e_ed00_0056;

/// Floats tried on either side of a constant.
const ULPS: i64 = 3;

/// Open boxes whose middles are tried.
const MIDDLES: usize = 64;

/// A model of the path among the candidates, its operations redone.
pub fn model(
    path: &FloatPath,
    open: &[Vec<Dim>],
    range: &dyn Fn(Sym) -> (i64, i64),
    alphas: &[(Sym, AlphaDef)],
) -> Option<BTreeMap<Sym, i64>> {
    let chosen: Vec<Vec<i64>> = (0..path.free.len()).map(|i| chosen(path, i, open)).collect();
    let longest = chosen.iter().map(Vec::len).max().unwrap_or(0);
    for k in 0..longest {
        let point: Vec<i64> = chosen.iter().map(|c| c[k % c.len()]).collect();
        if let Some(m) = try_point(path, &point, range, alphas) {
            return Some(m);
        }
    }
    let mut rng = SEED;
    for _ in 0..SAMPLES {
        let b = &open[(next(&mut rng) % open.len() as u64) as usize];
        let point: Vec<i64> = path
            .free
            .iter()
            .zip(b)
            .map(|((_, t), d)| pick(*t, d, &mut rng))
            .collect();
        if let Some(m) = try_point(path, &point, range, alphas) {
            return Some(m);
        }
    }
    None
}

/// splitmix64: a small generator whose sequence is fixed by its seed.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A value of a box side: NaN now and then where it may be one, else an
/// even draw of the ordinals (most of a wide range is near zero) or, half
/// the time, of the values between the ends.
fn pick(t: Option<IntType>, d: &Dim, rng: &mut u64) -> i64 {
    let r = next(rng);
    let Some(ty) = t else {
        return if d.lo > d.hi {
            0
        } else {
            (d.lo as i128 + (r as i128 % d.width().max(1))) as i64
        };
    };
    if d.nan && (d.lo > d.hi || r.is_multiple_of(16)) {
        return default_nan(ty);
    }
    let at = |o: i64| interval::value(ty, interval::from_ordinal(ty, o));
    let (a, b) = (at(d.lo), at(d.hi));
    if r.is_multiple_of(2) && a.is_finite() && b.is_finite() {
        let u = (next(rng) >> 11) as f64 / (1u64 << 53) as f64;
        let v = (a + (b - a) * u).clamp(a, b);
        return interval::bits(ty, v);
    }
    interval::from_ordinal(ty, (d.lo as i128 + (next(rng) as i128 % d.width().max(1))) as i64)
}

/// The values tried first for free symbol `i`, without repeats.
fn chosen(path: &FloatPath, i: usize, open: &[Vec<Dim>]) -> Vec<i64> {
    let mut out: Vec<i64> = Vec::new();
    let middles = open.iter().take(MIDDLES).map(|b| b[i]);
    match path.free[i].1 {
        Some(ty) => {
            let max = interval::ordinal_max(ty);
            let near = |bits: i64| {
                let o = interval::ordinal(ty, bits);
                (-ULPS..=ULPS)
                    .map(move |k| o.saturating_add(k))
                    .filter(move |o| (-max - 1..=max).contains(o))
                    .map(move |o| interval::from_ordinal(ty, o))
            };
            for v in constants(path) {
                if !v.is_nan() {
                    out.extend(near(interval::bits(ty, v)));
                }
            }
            out.extend([0.0, -0.0, 1.0, -1.0].map(|v| interval::bits(ty, v)));
            for d in middles.filter(|d| d.lo <= d.hi) {
                let mid = ((d.lo as i128 + d.hi as i128).div_euclid(2)) as i64;
                out.extend([d.lo, mid, d.hi].map(|o| interval::from_ordinal(ty, o)));
            }
        }
        None => {
            out.extend([0, 1, -1]);
            for d in middles.filter(|d| d.lo <= d.hi) {
                out.extend([d.lo, ((d.lo as i128 + d.hi as i128).div_euclid(2)) as i64, d.hi]);
            }
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    out.retain(|v| seen.insert(*v));
    out
}

/// The floating constants the path's operations read, as values.
fn constants(path: &FloatPath) -> Vec<f64> {
    let mut out = Vec::new();
    for (_, def) in &path.defs {
        if let AlphaDef::Float(op, ty, args, _) = def {
            if let Some(t) = operand_type(*op, *ty) {
                out.extend(args.iter().filter(|a| a.is_const()).map(|a| interval::value(t, a.c)));
            }
        }
    }
    out
}

/// The free symbols at `point`, the operations computed: a model if every
/// constraint holds and `refine::check` agrees.
fn try_point(
    path: &FloatPath,
    point: &[i64],
    range: &dyn Fn(Sym) -> (i64, i64),
    alphas: &[(Sym, AlphaDef)],
) -> Option<BTreeMap<Sym, i64>> {
    let mut model = BTreeMap::new();
    for ((s, _), v) in path.free.iter().zip(point) {
        let (lo, hi) = range(*s);
        if !(lo..=hi).contains(v) {
            return None;
        }
        model.insert(*s, *v);
    }
    for (s, def) in &path.defs {
        let v = def.eval(&mut |t| model.get(&t).copied().unwrap_or(0))?;
        model.insert(*s, v);
    }
    let mut look = |t: Sym| model.get(&t).copied().unwrap_or(0);
    if !path.cons.iter().all(|c| c.holds(&mut look) == Some(true)) {
        return None;
    }
    let value = |s: Sym| {
        let (lo, hi) = range(s);
        model.get(&s).copied().unwrap_or(0).clamp(lo, hi)
    };
    match refine::check(&model, &value, alphas, path.cons, &mut |s| s) {
        Exactness::Exact => Some(model),
        _ => None,
    }
}
