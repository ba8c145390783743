//! Proof that no input drives a run down a path with floating operations,
//! tried before Z3's floating-point theory (`bv.rs`), which seldom settles
//! a polynomial in `float` within its resource limit: the path's operations evaluated over boxes of input values
//! (`float::interval`), a box refuted when some constraint holds for none
//! of its values, any other box split in two at the middle of its widest
//! input, up to a fixed number of boxes (a count, not a clock: the same
//! path gives the same answer on any machine).
//!
//! A float input's interval is a range of `interval::ordinal`s (the
//! values in order), so halving it halves the values a binade at a time
//! near zero and evenly within one; a NaN is split off first. An
//! operation that is not floating, or an operand that is not a constant
//! or a symbol alone (bits in a linear expression), is any value: it
//! refutes nothing, so the proof only gets weaker.

use super::refine;
use super::value::{AlphaDef, Cmp, Constraint, LinExpr, Sym};
use crate::ir::float::interval::{self, apply_iv, Iv};
use crate::ir::float::{self, FloatOp};
use crate::ir::IntType;
use std::collections::{BTreeMap, VecDeque};

/// Boxes one path may evaluate (each box one evaluation of the path's
/// operations over sets): the safe `floats-cdfpl` tasks are proved within
/// it, the whole check under 0.05 s each.
const MAX_BOXES: usize = 20_000;

/// A free symbol's values in a box: ordinals (a float's) or integers
/// `lo..=hi` (none when `lo > hi`), and NaN when `nan`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dim {
    pub lo: i64,
    pub hi: i64,
    pub nan: bool,
}

impl Dim {
    /// How many non-NaN values it holds.
    pub fn width(&self) -> i128 {
        (self.hi as i128 - self.lo as i128 + 1).max(0)
    }
}

/// A path's constraints and the operations they read, ready to be
/// evaluated over boxes.
pub struct FloatPath<'p> {
    pub cons: &'p [Constraint],
    /// The operations the constraints read, in the order they were made.
    pub defs: Vec<&'p (Sym, AlphaDef)>,
    /// The symbols no operation defines (inputs, draws, helpers), with the
    /// floating type an operation reads each as (`None`: an integer).
    pub free: Vec<(Sym, Option<IntType>)>,
}

/// What the search over boxes found.
pub enum Boxes {
    /// No box holds a run of the path.
    Refuted,
    /// The boxes not refuted when the budget ran out (or single points).
    Open(Vec<Vec<Dim>>),
}

/// The type an operation reads its `i`-th operand as (`None`: integer).
pub fn operand_type(op: FloatOp, ty: IntType) -> Option<IntType> {
    match op {
        FloatOp::FromInt(_) | FloatOp::FromBits => None,
        FloatOp::Resize => Some(float::other(ty)),
        _ => Some(ty),
    }
}

/// The symbol `e` is, alone (`1 * s + 0`).
pub fn lone_sym(e: &LinExpr) -> Option<Sym> {
    match e.terms.as_slice() {
        [(s, 1)] if e.c == 0 => Some(*s),
        _ => None,
    }
}

impl<'p> FloatPath<'p> {
    /// The path, if an operation it reads is floating.
    pub fn new(cons: &'p [Constraint], alphas: &'p [(Sym, AlphaDef)]) -> Option<FloatPath<'p>> {
        let relevant = refine::relevant(cons, alphas);
        let defs: Vec<&(Sym, AlphaDef)> = alphas.iter().filter(|(s, _)| relevant.contains(s)).collect();
        if !defs.iter().any(|(_, d)| matches!(d, AlphaDef::Float(..))) {
            return None;
        }
        let mut types: BTreeMap<Sym, Option<IntType>> = BTreeMap::new();
        for (_, def) in &defs {
            if let AlphaDef::Float(op, ty, args, _) = def {
                for s in args.iter().filter_map(lone_sym) {
                    let t = operand_type(*op, *ty);
                    // Read as two types: neither (any value).
                    types
                        .entry(s)
                        .and_modify(|u| *u = u.filter(|u| Some(*u) == t))
                        .or_insert(t);
                }
            }
        }
        let free = relevant
            .iter()
            .filter(|s| !defs.iter().any(|(d, _)| d == *s))
            .map(|s| (*s, types.get(s).copied().flatten()))
            .collect();
        Some(FloatPath { cons, defs, free })
    }

    /// The box of every value each free symbol may take: a float's whole
    /// type (its range unless that is one value), an integer's range.
    pub fn whole(&self, range: &dyn Fn(Sym) -> (i64, i64)) -> Vec<Dim> {
        self.free
            .iter()
            .map(|(s, t)| {
                let (lo, hi) = range(*s);
                match t {
                    Some(ty) if lo == hi => point(*ty, lo),
                    Some(ty) => {
                        let m = interval::ordinal_max(*ty);
                        Dim {
                            lo: -m - 1,
                            hi: m,
                            nan: true,
                        }
                    }
                    None => Dim { lo, hi, nan: false },
                }
            })
            .collect()
    }

    /// Refutes the boxes of `whole` one by one, halving those it cannot.
    pub fn refute(&self, whole: Vec<Dim>) -> Boxes {
        let mut queue = VecDeque::from([whole]);
        let mut open = Vec::new();
        let mut evaluated = 0;
        let floats: Vec<bool> = self.free.iter().map(|(_, t)| t.is_some()).collect();
        while let Some(b) = queue.pop_front() {
            if evaluated == MAX_BOXES {
                open.push(b);
                open.extend(queue);
                break;
            }
            evaluated += 1;
            if self.refuted(&b) {
                continue;
            }
            match split(&floats, &b) {
                Some((x, y)) => {
                    queue.push_back(x);
                    queue.push_back(y);
                }
                None => open.push(b),
            }
        }
        if open.is_empty() {
            Boxes::Refuted
        } else {
            Boxes::Open(open)
        }
    }

    /// Whether some constraint holds for no value of the box.
    fn refuted(&self, b: &[Dim]) -> bool {
        let mut vals: BTreeMap<Sym, Iv> = BTreeMap::new();
        for ((s, t), d) in self.free.iter().zip(b) {
            vals.insert(*s, dim_set(*t, d));
        }
        for (s, def) in &self.defs {
            let v = match def {
                AlphaDef::Float(op, ty, args, _) => {
                    let t = operand_type(*op, *ty);
                    let xs: Vec<Iv> = args.iter().map(|a| operand(a, t, &vals)).collect();
                    apply_iv(*op, *ty, &xs)
                }
                _ => Iv::Top,
            };
            vals.insert(*s, v);
        }
        self.cons.iter().any(|c| match int_set(&c.e, &vals) {
            Some((lo, hi)) => match c.cmp {
                Cmp::Le => lo > 0,
                Cmp::Eq => lo > 0 || hi < 0,
                Cmp::Ne => lo == 0 && hi == 0,
            },
            None => false,
        })
    }
}

/// The one value `bits` of `ty` as a box side.
fn point(ty: IntType, bits: i64) -> Dim {
    if interval::value(ty, bits).is_nan() {
        Dim {
            lo: 0,
            hi: -1,
            nan: true,
        }
    } else {
        let o = interval::ordinal(ty, bits);
        Dim {
            lo: o,
            hi: o,
            nan: false,
        }
    }
}

/// The values of a box side.
pub fn dim_set(t: Option<IntType>, d: &Dim) -> Iv {
    match t {
        Some(ty) => {
            let at = |o: i64| interval::value(ty, interval::from_ordinal(ty, o));
            Iv::Float {
                range: (d.lo <= d.hi).then(|| (at(d.lo), at(d.hi))),
                nan: d.nan,
            }
        }
        None => Iv::Int(d.lo as i128, d.hi as i128),
    }
}

/// The box halved: a NaN apart from the other values first, then the
/// widest float side at its middle (an integer side when none is left:
/// an integer's range is often all of `i64`, and floats are what these
/// paths are about); `None` for a single point.
fn split(floats: &[bool], b: &[Dim]) -> Option<(Vec<Dim>, Vec<Dim>)> {
    let (mut x, mut y) = (b.to_vec(), b.to_vec());
    if let Some(i) = b.iter().position(|d| d.nan && d.lo <= d.hi) {
        x[i].nan = false;
        y[i] = Dim {
            lo: 0,
            hi: -1,
            nan: true,
        };
        return Some((x, y));
    }
    let key = |(i, d): &(usize, &Dim)| (d.width() > 1 && floats[*i], d.width(), std::cmp::Reverse(*i));
    let (i, d) = b.iter().enumerate().max_by_key(key)?;
    if d.width() < 2 {
        return None;
    }
    let mid = ((d.lo as i128 + d.hi as i128).div_euclid(2)) as i64;
    x[i].hi = mid;
    y[i].lo = mid + 1;
    Some((x, y))
}

/// An operation's operand, read as type `t` (`None`: an integer).
fn operand(e: &LinExpr, t: Option<IntType>, vals: &BTreeMap<Sym, Iv>) -> Iv {
    match (t, lone_sym(e)) {
        (Some(ty), None) if e.is_const() => Iv::point(ty, e.c),
        (Some(_), Some(s)) => match vals.get(&s) {
            Some(v @ Iv::Float { .. }) => *v,
            _ => Iv::Top,
        },
        (Some(_), None) => Iv::Top,
        (None, _) => int_set(e, vals).map_or(Iv::Top, |(lo, hi)| Iv::Int(lo, hi)),
    }
}

/// The integer values of `e` over the sets of its symbols, if each is a
/// set of integers.
fn int_set(e: &LinExpr, vals: &BTreeMap<Sym, Iv>) -> Option<(i128, i128)> {
    let (mut lo, mut hi) = (e.c as i128, e.c as i128);
    for (s, k) in &e.terms {
        let Some(Iv::Int(a, b)) = vals.get(s) else {
            return None;
        };
        let k = *k as i128;
        let (x, y) = (a.checked_mul(k)?, b.checked_mul(k)?);
        lo = lo.checked_add(x.min(y))?;
        hi = hi.checked_add(x.max(y))?;
    }
    Some((lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::value::{AlphaKey, Truth};
    use crate::ir::{NodeId, RelOp};
    use proptest::prelude::*;

    fn alpha(i: u32) -> Sym {
        Sym::Alpha(AlphaKey::Op(NodeId(i)), 0)
    }

    fn k(v: f32) -> LinExpr {
        LinExpr::constant(v.to_bits() as i64)
    }

    fn f(op: FloatOp, a: LinExpr, b: LinExpr) -> AlphaDef {
        AlphaDef::Float(op, IntType::Float, vec![a, b], false)
    }

    fn is(s: Sym, v: i64) -> Constraint {
        match Constraint::compare(&LinExpr::sym(s), RelOp::Eq, &LinExpr::constant(v)) {
            Some(Truth::Depends(c)) => c,
            t => panic!("{t:?}"),
        }
    }

    fn rel() -> impl Strategy<Value = RelOp> {
        prop::sample::select(vec![RelOp::Eq, RelOp::Ne, RelOp::Lt, RelOp::Le, RelOp::Gt, RelOp::Ge])
    }

    fn arith() -> impl Strategy<Value = FloatOp> {
        prop::sample::select(vec![FloatOp::Add, FloatOp::Sub, FloatOp::Mul, FloatOp::Div])
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// `lo <= x < hi && (x * x) op1 c op2 t`: where the boxes refute
        /// it, no `float` of the range satisfies it (each of 2 000 spread
        /// over the range computed by `AlphaDef::eval`).
        #[test]
        fn refuted_paths_have_no_run(
            lo in -4.0f32..4.0,
            w in 0.0f32..2.0,
            op1 in arith(),
            c in -3.0f32..3.0,
            op2 in rel(),
            t in -10.0f32..10.0,
            holds in any::<bool>(),
        ) {
            let x = Sym::Input(0);
            let hi = lo + w;
            let alphas = vec![
                (alpha(1), f(FloatOp::Cmp(RelOp::Ge), LinExpr::sym(x), k(lo))),
                (alpha(2), f(FloatOp::Cmp(RelOp::Lt), LinExpr::sym(x), k(hi))),
                (alpha(3), f(FloatOp::Mul, LinExpr::sym(x), LinExpr::sym(x))),
                (alpha(4), f(op1, LinExpr::sym(alpha(3)), k(c))),
                (alpha(5), f(FloatOp::Cmp(op2), LinExpr::sym(alpha(4)), k(t))),
            ];
            let cons = vec![is(alpha(1), 1), is(alpha(2), 1), is(alpha(5), holds as i64)];
            let path = FloatPath::new(&cons, &alphas).expect("a float path");
            let range = |_| (0, u32::MAX as i64);
            if let Boxes::Refuted = path.refute(path.whole(&range)) {
                let (a, b) = (interval::ordinal(IntType::Float, k(lo).c), interval::ordinal(IntType::Float, k(hi).c));
                for i in 0..2_000i64 {
                    let bits = interval::from_ordinal(IntType::Float, a + (b - a) * i / 2_000);
                    let mut vals = BTreeMap::from([(x, bits)]);
                    for (s, d) in &alphas {
                        let v = d.eval(&mut |t| vals[&t]).expect("no checked operation");
                        vals.insert(*s, v);
                    }
                    let run = cons.iter().all(|c| c.holds(&mut |t| vals[&t]) == Some(true));
                    prop_assert!(!run, "refuted, but x = {} is a run", f32::from_bits(bits as u32));
                }
            }
        }
    }
}
