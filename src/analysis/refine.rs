//! Exact models of a path with abstraction symbols.
//!
//! A non-linear operation on a path (`x / 3`, `x * y`) leaves a symbol the
//! solver may give any value, so a model can satisfy the path's constraints
//! while the program, run on the model's inputs, goes another way. Here a
//! model is checked by redoing each operation on the model's values; where
//! one is wrong, constraints are added that make it exact for a case the
//! model suggests (division by a constant is linear once the sign of the
//! dividend is fixed; a product is linear once one factor is fixed, at its
//! model value or, failing that, at a small one), and the caller solves
//! again. Every constraint added only narrows the models, so
//! a model that checks out is a run of the path. Where this search gives
//! up, a path with floating operations is decided over boxes of inputs
//! (`float_box.rs`) or at sampled inputs (`float_sample.rs`), and any
//! other, or one they leave open, is solved in bit-vectors (`bv.rs`).

use super::lp::{self, LpOptions, Sat};
use super::value::{AlphaDef, Constraint, LinExpr, Sym, Truth};
use crate::ir::RelOp;
use std::collections::{BTreeMap, BTreeSet};

/// Solver calls one search for an exact model may make.
const MAX_SOLVES: u32 = 64;

/// What the search for an exact model found.
#[derive(Debug)]
pub enum Exact {
    /// A model whose values drive the program down the path.
    Model(BTreeMap<Sym, i64>),
    /// No run follows the path: every case was tried, and none has a model.
    Infeasible,
    /// Neither (the solver gave up, an operation cannot be made exact, or
    /// the cases tried were not all there are).
    Unknown(&'static str),
}

/// Searches for an exact model of the constraints `cons` of a path whose
/// abstraction symbols stand for `alphas`: the linear search below, then,
/// if it gives up, floating paths over intervals and samples, then the
/// path in bit-vectors (`bv.rs`).
pub fn exact_model(
    cons: &[Constraint],
    alphas: &[(Sym, AlphaDef)],
    range: &dyn Fn(Sym) -> (i64, i64),
    first_instance: u32,
    opts: LpOptions,
) -> Exact {
    match linear_model(cons, alphas, range, first_instance, opts) {
        Exact::Unknown(why) => match float_search(cons, alphas, range) {
            Some(found) => found,
            None => match super::bv::exact_model(cons, alphas, range) {
                Exact::Unknown(_) => Exact::Unknown(why),
                found => found,
            },
        },
        found => found,
    }
}

/// A path with floating operations, before Z3 (which seldom settles a
/// polynomial in `float` within its resource limit, and takes seconds to
/// give up): refuted over boxes of inputs (`float_box.rs`), or else a
/// model among sampled inputs (`float_sample.rs`); `None` when neither
/// decides it (or the path has no floating operation).
fn float_search(cons: &[Constraint], alphas: &[(Sym, AlphaDef)], range: &dyn Fn(Sym) -> (i64, i64)) -> Option<Exact> {
    let path = super::float_box::FloatPath::new(cons, alphas)?;
    match path.refute(path.whole(range)) {
        super::float_box::Boxes::Refuted => Some(Exact::Infeasible),
        super::float_box::Boxes::Open(open) => {
            super::float_sample::model(&path, &open, range, alphas).map(Exact::Model)
        }
    }
}

/// Searches for an exact model with the linear solver alone: solve, check
/// the model by redoing the operations, make the first wrong one exact
/// (each case in turn), solve again. `first_instance` numbers helper
/// symbols above every symbol of the path.
pub fn linear_model(
    cons: &[Constraint],
    alphas: &[(Sym, AlphaDef)],
    range: &dyn Fn(Sym) -> (i64, i64),
    first_instance: u32,
    opts: LpOptions,
) -> Exact {
    let mut search = Search {
        alphas,
        range,
        opts,
        next: first_instance,
        solves: 0,
    };
    let mut all = cons.to_vec();
    all.extend(fixed_results(cons, alphas));
    search.from(all)
}

/// The results of operations whose operands the constraints fix (`n == 0`
/// fixes `n * (n + 1)` at 0), as equalities: with them the solver sees a
/// contradiction like `n == 0 && n * (n + 1) != 0` at once, where fixing
/// factors at a few values could not.
fn fixed_results(cons: &[Constraint], alphas: &[(Sym, AlphaDef)]) -> Vec<Constraint> {
    let wide = |_| (i64::MIN, i64::MAX);
    let mut known: BTreeMap<Sym, i64> = lp::bounds(cons.iter(), &wide)
        .into_iter()
        .filter(|(_, (lo, hi))| lo == hi)
        .map(|(s, (v, _))| (s, v))
        .collect();
    let mut out = Vec::new();
    let mut changed = true;
    while changed {
        changed = false;
        for (s, def) in alphas {
            let syms = def.syms();
            if known.contains_key(s) || syms.is_empty() || !syms.iter().all(|t| known.contains_key(t)) {
                continue;
            }
            let Some(v) = def.eval(&mut |t| known[&t]) else {
                continue;
            };
            known.insert(*s, v);
            changed = true;
            if let Some(Truth::Depends(c)) = Constraint::compare(&LinExpr::sym(*s), RelOp::Eq, &LinExpr::constant(v)) {
                out.push(c);
            }
        }
    }
    out
}

struct Search<'s> {
    alphas: &'s [(Sym, AlphaDef)],
    range: &'s dyn Fn(Sym) -> (i64, i64),
    opts: LpOptions,
    next: u32,
    solves: u32,
}

impl Search<'_> {
    fn from(&mut self, cons: Vec<Constraint>) -> Exact {
        if self.solves >= MAX_SOLVES {
            return Exact::Unknown("too many cases of non-linear operations");
        }
        self.solves += 1;
        let model = match lp::solve(&cons, self.range, self.opts) {
            Sat::Yes(m) => m,
            Sat::No => return Exact::Infeasible,
            Sat::Unknown(why) => return Exact::Unknown(why),
        };
        if self.alphas.is_empty() {
            return Exact::Model(model);
        }
        let range = self.range;
        let value = |s: Sym| {
            let (lo, hi) = range(s);
            model.get(&s).copied().unwrap_or(0).clamp(lo, hi)
        };
        let next = &mut self.next;
        let mut fresh = |s: Sym| {
            *next += 1;
            s.with_instance(*next - 1)
        };
        let (alts, complete) = match check(&model, &value, self.alphas, &cons, &mut fresh) {
            Exactness::Exact => return Exact::Model(model),
            Exactness::Stuck => return Exact::Unknown("a non-linear operation could not be made exact"),
            Exactness::Refine { alts, complete } => (alts, complete),
        };
        let mut why = None;
        for extra in alts {
            let mut all = cons.clone();
            all.extend(extra);
            match self.from(all) {
                Exact::Model(m) => return Exact::Model(m),
                Exact::Infeasible => {}
                Exact::Unknown(w) => why = why.or(Some(w)),
            }
        }
        match why {
            None if complete => Exact::Infeasible,
            None => Exact::Unknown("a product or a divisor was fixed at a few values only"),
            Some(w) => Exact::Unknown(w),
        }
    }
}

/// The symbols the constraints read, directly or through an operation
/// (`alphas` in the order they were made).
pub fn relevant(cons: &[Constraint], alphas: &[(Sym, AlphaDef)]) -> BTreeSet<Sym> {
    let mut out: BTreeSet<Sym> = cons.iter().flat_map(|c| c.e.syms()).collect();
    for (s, def) in alphas.iter().rev() {
        if out.contains(s) {
            out.extend(def.syms());
        }
    }
    out
}

/// What a model says about a path's abstraction symbols.
#[derive(Debug)]
pub enum Exactness {
    /// Redoing the operations on the model's values satisfies every
    /// constraint of the path.
    Exact,
    /// The first wrong operation, made exact: alternative sets of
    /// constraints, the most promising first; `complete` when every run
    /// satisfies one of them.
    Refine { alts: Vec<Vec<Constraint>>, complete: bool },
    /// A wrong operation that cannot be made exact (an overflow, a result
    /// the executor does not redo).
    Stuck,
}

/// Checks `model` against the path's constraints `cons`, redoing the
/// operations `alphas` stand for (in the order they were made). `value`
/// gives an input or draw its value as the run will see it; `fresh` makes
/// a helper symbol beside a given one (the quotient of a remainder).
pub fn check(
    model: &BTreeMap<Sym, i64>,
    value: &dyn Fn(Sym) -> i64,
    alphas: &[(Sym, AlphaDef)],
    cons: &[Constraint],
    fresh: &mut dyn FnMut(Sym) -> Sym,
) -> Exactness {
    let relevant = relevant(cons, alphas);
    // True values: symbols the run draws as the model says, operations redone.
    let mut truth: BTreeMap<Sym, i64> = BTreeMap::new();
    let mut first_wrong = None;
    for (s, def) in alphas.iter().filter(|(s, _)| relevant.contains(s)) {
        let mut look = |t: Sym| truth.get(&t).copied().unwrap_or_else(|| value(t));
        match def.eval(&mut look) {
            Some(v) => {
                if first_wrong.is_none() && model.get(s).copied().unwrap_or(0) != v {
                    first_wrong = Some((*s, def));
                }
                truth.insert(*s, v);
            }
            None => {
                // The run would fail or overflow here; an opaque symbol keeps
                // the model's value.
                if !matches!(def, AlphaDef::Quotient | AlphaDef::Opaque) && first_wrong.is_none() {
                    first_wrong = Some((*s, def));
                }
                truth.insert(*s, model.get(s).copied().unwrap_or(0));
            }
        }
    }
    let mut look = |t: Sym| truth.get(&t).copied().unwrap_or_else(|| value(t));
    if cons.iter().all(|c| c.holds(&mut look) == Some(true)) {
        return Exactness::Exact;
    }
    let Some((s, def)) = first_wrong else {
        return Exactness::Stuck;
    };
    let at = |e: &LinExpr| e.eval(&mut |t| model.get(&t).copied().unwrap_or_else(|| value(t)));
    // Division by a constant splits on the sign of the dividend, which
    // covers every run; fixing a factor or a divisor does not.
    let complete = match def {
        AlphaDef::Div { den, .. } => den.is_const(),
        AlphaDef::Conv(_, t) => t.bits() < 64,
        _ => false,
    };
    match make_exact(s, def, &at, fresh) {
        Some(alts) => Exactness::Refine { alts, complete },
        None => Exactness::Stuck,
    }
}

/// Constraints that pin `s` to the result of `def`, with the operands' model
/// values `at` choosing the case.
fn make_exact(
    s: Sym,
    def: &AlphaDef,
    at: &dyn Fn(&LinExpr) -> Option<i64>,
    fresh: &mut dyn FnMut(Sym) -> Sym,
) -> Option<Vec<Vec<Constraint>>> {
    let mut out = Vec::new();
    // A factor or divisor that is not constant is fixed: at its model value
    // first, then at small values, in case that one leads nowhere.
    let pins = |e: &LinExpr| -> Option<Vec<i64>> {
        let m = at(e)?;
        if e.is_const() {
            return Some(vec![m]);
        }
        let mut v = vec![m];
        for k in [1, -1, 2, -2, 3, -3] {
            if !v.contains(&k) {
                v.push(k);
            }
        }
        Some(v)
    };
    match def {
        AlphaDef::Quotient | AlphaDef::Opaque => return None,
        // s = arg - 2^bits * q in the type's range: exact, one case.
        AlphaDef::Conv(arg, t) => {
            let (lo, hi) = t.range();
            let mut cs = Cons::default();
            cs.add(&LinExpr::sym(s), RelOp::Ge, &LinExpr::constant(lo));
            cs.add(&LinExpr::sym(s), RelOp::Le, &LinExpr::constant(hi));
            if t.bits() >= 64 {
                return None;
            }
            let wrapped = arg.combine(1, &LinExpr::sym(fresh(s)), -(1i64 << t.bits()))?;
            cs.add(&LinExpr::sym(s), RelOp::Eq, &wrapped);
            out.extend(cs.done());
        }
        // Both operands pinned at their model values, the result with them.
        AlphaDef::Bit(op, t, a, b) => {
            let (va, vb) = (at(a)?, at(b)?);
            let r = i64::try_from(op.apply(*t, va as i128, vb as i128, false)?).ok()?;
            let mut cs = Cons::default();
            cs.add(a, RelOp::Eq, &LinExpr::constant(va));
            cs.add(b, RelOp::Eq, &LinExpr::constant(vb));
            cs.add(&LinExpr::sym(s), RelOp::Eq, &LinExpr::constant(r));
            out.extend(cs.done());
        }
        // Every operand pinned at its model value, the result with them.
        AlphaDef::Float(op, ty, args, checked) => {
            let vals = args.iter().map(at).collect::<Option<Vec<i64>>>()?;
            let r = match crate::ir::float::apply(*op, *ty, &vals) {
                Ok(r) => r,
                Err(r) if !checked => r,
                Err(_) => return None,
            };
            let mut cs = Cons::default();
            for (a, v) in args.iter().zip(&vals) {
                cs.add(a, RelOp::Eq, &LinExpr::constant(*v));
            }
            cs.add(&LinExpr::sym(s), RelOp::Eq, &LinExpr::constant(r));
            out.extend(cs.done());
        }
        AlphaDef::Mul(a, b) => {
            let (fixed, other) = if a.is_const() { (b, a) } else { (a, b) };
            for k in pins(fixed)? {
                let mut cs = Cons::default();
                cs.add(fixed, RelOp::Eq, &LinExpr::constant(k));
                match other.scale(k) {
                    Some(prod) => cs.add(&LinExpr::sym(s), RelOp::Eq, &prod),
                    None => continue,
                }
                out.extend(cs.done());
            }
        }
        AlphaDef::Div { num, den, rem } => {
            let quotient = if *rem { fresh(s) } else { s };
            let nonneg = at(num)? >= 0;
            for k in pins(den)?.into_iter().filter(|&k| k != 0) {
                // r = num - k*q lies between 0 and |k|-1 with the sign of num.
                let (Some(r), Some(abs)) = (num.combine(1, &LinExpr::sym(quotient), -k), k.checked_abs()) else {
                    continue;
                };
                for sign in [nonneg, !nonneg] {
                    let mut cs = Cons::default();
                    cs.add(den, RelOp::Eq, &LinExpr::constant(k));
                    if sign {
                        cs.add(num, RelOp::Ge, &LinExpr::constant(0));
                        cs.add(&r, RelOp::Ge, &LinExpr::constant(0));
                        cs.add(&r, RelOp::Le, &LinExpr::constant(abs - 1));
                    } else {
                        cs.add(num, RelOp::Lt, &LinExpr::constant(0));
                        cs.add(&r, RelOp::Le, &LinExpr::constant(0));
                        cs.add(&r, RelOp::Ge, &LinExpr::constant(1 - abs));
                    }
                    if *rem {
                        cs.add(&LinExpr::sym(s), RelOp::Eq, &r);
                    }
                    out.extend(cs.done());
                }
            }
        }
    }
    Some(out)
}

/// A conjunction being built; `None` once a part is known false (or
/// overflows).
struct Cons(Option<Vec<Constraint>>);

impl Default for Cons {
    fn default() -> Self {
        Cons(Some(Vec::new()))
    }
}

impl Cons {
    fn add(&mut self, l: &LinExpr, op: RelOp, r: &LinExpr) {
        let Some(v) = &mut self.0 else { return };
        match Constraint::compare(l, op, r) {
            Some(Truth::Known(true)) => {}
            Some(Truth::Depends(c)) => v.push(c),
            Some(Truth::Known(false)) | None => self.0 = None,
        }
    }

    fn done(self) -> Option<Vec<Constraint>> {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::value::AlphaKey;
    use crate::ir::NodeId;

    fn x() -> Sym {
        Sym::Input(0)
    }

    fn alpha(i: u32) -> Sym {
        Sym::Alpha(AlphaKey::Op(NodeId(0)), i)
    }

    /// `s == k`.
    fn equals(s: Sym, k: i64) -> Constraint {
        match Constraint::compare(&LinExpr::sym(s), RelOp::Eq, &LinExpr::constant(k)) {
            Some(Truth::Depends(c)) => c,
            t => panic!("{t:?}"),
        }
    }

    fn div(num: Sym, den: i64, rem: bool) -> AlphaDef {
        AlphaDef::Div {
            num: LinExpr::sym(num),
            den: LinExpr::constant(den),
            rem,
        }
    }

    fn solve(cons: &[Constraint], alphas: &[(Sym, AlphaDef)]) -> Exact {
        let range = |_| (-1000, 1000);
        exact_model(cons, alphas, &range, 10, LpOptions::default())
    }

    #[test]
    fn division_and_remainder_truncate_as_c_does() {
        // x / -4 == 2 and x % 5 == -3: x is -8 (C truncates towards zero).
        let alphas = [(alpha(1), div(x(), -4, false)), (alpha(2), div(x(), 5, true))];
        let Exact::Model(m) = solve(&[equals(alpha(1), 2), equals(alpha(2), -3)], &alphas) else {
            panic!("no model");
        };
        assert_eq!(m[&x()], -8);
    }

    #[test]
    fn both_signs_tried_before_infeasible() {
        // x / 3 == 1 and x % 3 == 2 holds for x = 5 only; with x < 0 too, none.
        let alphas = [(alpha(1), div(x(), 3, false)), (alpha(2), div(x(), 3, true))];
        let Exact::Model(m) = solve(&[equals(alpha(1), 1), equals(alpha(2), 2)], &alphas) else {
            panic!("no model");
        };
        assert_eq!(m[&x()], 5);
        let below = match Constraint::compare(&LinExpr::sym(x()), RelOp::Lt, &LinExpr::constant(0)) {
            Some(Truth::Depends(c)) => c,
            t => panic!("{t:?}"),
        };
        let r = solve(&[equals(alpha(1), 1), equals(alpha(2), 2), below], &alphas);
        assert!(matches!(r, Exact::Infeasible), "{r:?}");
    }

    #[test]
    fn operands_fixed_by_bounds_fix_the_product() {
        // 0 <= x <= 0 and x * (x + 1) != 0: infeasible (recursion.c's FSSs
        // were shown with such contradictory assumptions).
        let x_plus_1 = LinExpr::sym(x()).combine(1, &LinExpr::constant(1), 1).unwrap();
        let alphas = [(alpha(1), AlphaDef::Mul(LinExpr::sym(x()), x_plus_1))];
        let cmp = |s: Sym, op, k| match Constraint::compare(&LinExpr::sym(s), op, &LinExpr::constant(k)) {
            Some(Truth::Depends(c)) => c,
            t => panic!("{t:?}"),
        };
        let cons = [
            cmp(x(), RelOp::Ge, 0),
            cmp(x(), RelOp::Le, 0),
            cmp(alpha(1), RelOp::Ne, 0),
        ];
        let r = solve(&cons, &alphas);
        assert!(matches!(r, Exact::Infeasible), "{r:?}");
    }

    #[test]
    fn a_product_is_not_proved_infeasible() {
        // x * x == 2 has no integer solution, but fixing a factor at a few
        // values cannot show it: the answer stays open.
        let alphas = [(alpha(1), AlphaDef::Mul(LinExpr::sym(x()), LinExpr::sym(x())))];
        let r = solve(&[equals(alpha(1), 2)], &alphas);
        assert!(matches!(r, Exact::Unknown(_)), "{r:?}");
        let Exact::Model(m) = solve(&[equals(alpha(1), 9)], &alphas) else {
            panic!("no model for x * x == 9");
        };
        assert_eq!(m[&x()].abs(), 3);
    }
}
