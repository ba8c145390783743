//! Integer feasibility of linear constraints with good_lp (microlp backend):
//! `!=` is handled by splitting lazily, and every model is checked exactly
//! in integer arithmetic before it is believed.

use super::value::{Cmp, Constraint, Sym};
use good_lp::{variable, Expression, ProblemVariables, SolverModel, Variable};
use std::collections::BTreeMap;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sat {
    /// A model: a value for every symbol of the constraints.
    Yes(BTreeMap<Sym, i64>),
    No,
    /// The solver gave up (time, numbers too large, too many splits).
    Unknown(&'static str),
}

impl Sat {
    pub fn is_yes(&self) -> bool {
        matches!(self, Sat::Yes(_))
    }
}

/// How hard to try.
#[derive(Clone, Copy, Debug, Default)]
pub struct LpOptions {
    /// Prefer small values (readable inputs); costs a little time.
    pub small: bool,
}

/// microlp takes integer bounds within the i32 range only. A symbol whose
/// range is no wider than that is shifted into it (an `unsigned int` in
/// `0..2^32-1` is solved as `x - 2^31`); wider ranges are clipped for the
/// integer search, and a "no" found under clipping is believed only if the
/// LP relaxation with the true ranges agrees.
const CLIP: (i64, i64) = (i32::MIN as i64, i32::MAX as i64);

/// The branch-and-bound nodes one integer solve may open. microlp gives
/// each node a copy of its parent's bound changes, so memory grows with the
/// square of a dive's depth: on constraints through `%` a search within its
/// former 5 s time limit grew to gigabytes (about 12 bytes times the nodes squared; 3,000
/// nodes stay near 100 MB). A node budget also makes the answer
/// independent of the machine's speed.
const NODE_LIMIT: u64 = 3_000;

/// Each symbol's range, narrowed by the constraints on it alone (`x <= 7`,
/// `-x <= 0`).
pub fn bounds<'c>(
    cons: impl Iterator<Item = &'c Constraint>,
    range: &dyn Fn(Sym) -> (i64, i64),
) -> BTreeMap<Sym, (i64, i64)> {
    let mut out: BTreeMap<Sym, (i64, i64)> = BTreeMap::new();
    for c in cons {
        for s in c.e.syms() {
            out.entry(s).or_insert_with(|| range(s));
        }
        let [(s, k)] = c.e.terms[..] else { continue };
        let (lo, hi) = out[&s];
        // k*s + c0 <= 0 (or == 0), i.e. k*s <= b.
        let (k, b) = (k as i128, -(c.e.c as i128));
        let (new_lo, new_hi) = match c.cmp {
            Cmp::Le if k > 0 => (lo as i128, b.div_euclid(k)),
            // s >= b / k, rounded up.
            Cmp::Le => (-(b.div_euclid(-k)), hi as i128),
            Cmp::Eq if b % k == 0 => (b / k, b / k),
            _ => continue,
        };
        let clamp = |v: i128| v.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
        out.insert(s, (lo.max(clamp(new_lo)), hi.min(clamp(new_hi))));
    }
    out
}

/// The shift that brings a range into the solver's, if it fits at all.
fn offset((lo, hi): (i64, i64)) -> i64 {
    if lo >= CLIP.0 && hi <= CLIP.1 {
        0
    } else if (hi as i128 - lo as i128) <= (CLIP.1 - CLIP.0) as i128 {
        lo - CLIP.0
    } else {
        0
    }
}

/// Does `model` satisfy every constraint, within the ranges? (Exact, in
/// integers; a symbol it does not give a value fails.)
pub fn satisfies(cons: &[Constraint], range: &dyn Fn(Sym) -> (i64, i64), model: &BTreeMap<Sym, i64>) -> bool {
    cons.iter().all(|c| {
        let mut missing = false;
        let ok = c.holds(&mut |s| match model.get(&s) {
            Some(&v) => {
                let (lo, hi) = range(s);
                if v < lo || v > hi {
                    missing = true;
                }
                v
            }
            None => {
                missing = true;
                0
            }
        });
        !missing && ok == Some(true)
    })
}

/// Is there an integer assignment, within each symbol's range, satisfying
/// every constraint?
pub fn solve(cons: &[Constraint], range: &dyn Fn(Sym) -> (i64, i64), opts: LpOptions) -> Sat {
    let mut refuter = super::refute::Refuter::new();
    if cons.iter().any(|c| !refuter.add(c, range)) {
        return Sat::No;
    }
    // Bounds alone often give a model (not a readable one: values at their
    // bounds); it is checked like any other.
    if !opts.small {
        if let Some(m) = refuter.model().filter(|m| satisfies(cons, range, m)) {
            return Sat::Yes(m);
        }
    }
    let mut extra: Vec<Constraint> = Vec::new();
    let mut budget = MAX_SOLVES;
    solve_split(cons, &mut extra, range, opts, &mut budget)
}

/// LP solves one question may take (each `!=` split doubles them at worst).
const MAX_SOLVES: u32 = 64;

fn solve_split(
    cons: &[Constraint],
    extra: &mut Vec<Constraint>,
    range: &dyn Fn(Sym) -> (i64, i64),
    opts: LpOptions,
    budget: &mut u32,
) -> Sat {
    if *budget == 0 {
        return Sat::Unknown("too many `!=` constraints to split");
    }
    *budget -= 1;
    let model = match solve_once(cons.iter().chain(extra.iter()), range, opts) {
        Sat::Yes(m) => m,
        other => return other,
    };
    // The first violated `!=`: try each side.
    let violated = cons
        .iter()
        .find(|c| c.cmp == Cmp::Ne && c.holds(&mut |s| model.get(&s).copied().unwrap_or(0)) == Some(false));
    let Some(ne) = violated else { return Sat::Yes(model) };
    let mut unknown = None;
    for side in [-1i64, 1] {
        // e <= -1, or e >= 1 i.e. -e + 1 <= 0.
        let e = if side < 0 {
            ne.e.combine(1, &super::value::LinExpr::constant(1), 1)
        } else {
            ne.e.scale(-1)
                .and_then(|x| x.combine(1, &super::value::LinExpr::constant(1), 1))
        };
        let Some(e) = e else {
            return Sat::Unknown("numbers too large");
        };
        extra.push(Constraint { e, cmp: Cmp::Le });
        let r = solve_split(cons, extra, range, opts, budget);
        extra.pop();
        match r {
            Sat::Yes(m) => return Sat::Yes(m),
            Sat::Unknown(why) => unknown = Some(why),
            Sat::No => {}
        }
    }
    match unknown {
        Some(why) => Sat::Unknown(why),
        None => Sat::No,
    }
}

fn solve_once<'c>(
    cons: impl Iterator<Item = &'c Constraint> + Clone,
    range: &dyn Fn(Sym) -> (i64, i64),
    opts: LpOptions,
) -> Sat {
    match solve_bounded(cons.clone(), range, opts, true) {
        Sat::No if clipped(cons.clone(), range) => match solve_bounded(cons, range, opts, false) {
            Sat::No => Sat::No,
            _ => Sat::Unknown("a solution may need values beyond 32 bits"),
        },
        other => other,
    }
}

fn clipped<'c>(cons: impl Iterator<Item = &'c Constraint>, range: &dyn Fn(Sym) -> (i64, i64)) -> bool {
    bounds(cons, range).values().any(|&(lo, hi)| {
        let off = offset((lo, hi));
        lo - off < CLIP.0 || hi - off > CLIP.1
    })
}

/// One solve: integer variables with clipped ranges, or (`integer` false)
/// the continuous relaxation with the true ranges.
fn solve_bounded<'c>(
    cons: impl Iterator<Item = &'c Constraint> + Clone,
    range: &dyn Fn(Sym) -> (i64, i64),
    opts: LpOptions,
    integer: bool,
) -> Sat {
    let ranges = bounds(cons.clone(), range);
    if ranges.values().any(|(lo, hi)| lo > hi) {
        return Sat::No;
    }
    let mut vars = ProblemVariables::new();
    let mut var_of: BTreeMap<Sym, Variable> = BTreeMap::new();
    // The solver's position of each symbol's variable (creation order).
    let mut position: BTreeMap<Sym, usize> = BTreeMap::new();
    // The solver's variable for s is s - shift[s].
    let mut shift: BTreeMap<Sym, i64> = BTreeMap::new();
    for (&s, &(lo, hi)) in &ranges {
        let v = if integer {
            let off = offset((lo, hi));
            shift.insert(s, off);
            variable()
                .integer()
                .min((lo - off).max(CLIP.0) as f64)
                .max((hi - off).min(CLIP.1) as f64)
        } else {
            variable().min(lo as f64).max(hi as f64)
        };
        position.insert(s, var_of.len());
        var_of.insert(s, vars.add(v));
    }
    let shift_of = |s: &Sym| shift.get(s).copied().unwrap_or(0);
    // With `small`, minimise the sum of |x| over non-alpha symbols through
    // helpers t >= x, t >= -x.
    let mut objective = Expression::from(0.0);
    let mut abs_pairs: Vec<(Variable, Variable)> = Vec::new();
    if opts.small {
        for (s, &v) in &var_of {
            if !s.is_alpha() {
                let t = vars.add(variable().min(0.0));
                objective += t;
                abs_pairs.push((t, v));
            }
        }
    }
    let mut model = vars.minimise(objective).using(good_lp::microlp);
    for (t, v) in abs_pairs {
        model = model.with((t - v) >> 0.0);
        model = model.with((t + v) >> 0.0);
    }
    for c in cons.clone() {
        let mut e = Expression::from(c.e.c as f64);
        for &(s, k) in &c.e.terms {
            e += var_of[&s] * (k as f64) + (k as f64) * (shift_of(&s) as f64);
        }
        match c.cmp {
            Cmp::Le => model = model.with(e << 0.0),
            Cmp::Eq => model = model.with(e.eq(0.0)),
            Cmp::Ne => {}
        }
    }
    // Solved through microlp itself, which takes a node budget (good_lp
    // passes on only a time limit). No time limit: the answer must not
    // depend on the machine's load.
    let mut limits = microlp::SolveOptions::default();
    limits.node_limit = Some(NODE_LIMIT);
    let values: Vec<f64> = match model.as_inner().solve_with(limits) {
        Ok(microlp::SolveOutcome::Solution(sol)) => sol.iter().map(|(_, v)| v).collect(),
        Ok(microlp::SolveOutcome::Interrupted(_)) => return Sat::Unknown("the integer search reached its node limit"),
        Err(microlp::Error::Infeasible) => return Sat::No,
        Err(microlp::Error::Unbounded) => return Sat::Unknown("unbounded problem"),
        Err(_) => return Sat::Unknown("the solver gave up"),
    };
    if !integer {
        // Only the relaxation's feasibility is asked for.
        return Sat::Yes(BTreeMap::new());
    }
    let model: BTreeMap<Sym, i64> = position
        .iter()
        .map(|(&s, &i)| (s, (values[i].round() as i64).saturating_add(shift_of(&s))))
        .collect();
    // Believe nothing the integers do not confirm.
    for c in cons {
        if c.cmp == Cmp::Ne {
            continue;
        }
        if c.holds(&mut |s| model.get(&s).copied().unwrap_or(0)) != Some(true) {
            return Sat::Unknown("the solver's model does not check out exactly");
        }
    }
    Sat::Yes(model)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::value::LinExpr;
    use crate::ir::NodeId;

    fn le(e: LinExpr) -> Constraint {
        Constraint { e, cmp: Cmp::Le }
    }

    #[test]
    fn clipping_never_turns_a_solution_into_a_no() {
        // x >= 2^32 for an unsigned long long x: beyond the integer search,
        // but not infeasible.
        let x = Sym::Input(0);
        let c = le(LinExpr::sym(x)
            .scale(-1)
            .unwrap()
            .combine(1, &LinExpr::constant(1 << 32), 1)
            .unwrap());
        let r = solve(std::slice::from_ref(&c), &|_| (0, i64::MAX), LpOptions::default());
        match r {
            // The bounds give a model (x at its lower bound).
            Sat::Yes(m) => assert!(satisfies(std::slice::from_ref(&c), &|_| (0, i64::MAX), &m), "{m:?}"),
            Sat::Unknown(_) => {}
            Sat::No => panic!("a solution was lost"),
        }
        // The integer search itself (readable models asked for: no bounds
        // model) cannot say no either.
        let small = LpOptions { small: true };
        let r = solve(&[c], &|_| (0, i64::MAX), small);
        assert!(matches!(r, Sat::Unknown(_)), "got {r:?}");
    }

    #[test]
    fn integer_infeasibility_is_found() {
        // 2x == 1 has no integer solution (the constraint normalises to
        // false, so build it by hand), and x <= 0, x >= 1 neither.
        let x = Sym::Input(0);
        let a = le(LinExpr::sym(x));
        let b = le(LinExpr::sym(x)
            .scale(-1)
            .unwrap()
            .combine(1, &LinExpr::constant(1), 1)
            .unwrap());
        assert_eq!(solve(&[a, b], &|_| (-100, 100), LpOptions::default()), Sat::No);
    }

    #[test]
    fn not_equal_splits_until_a_model_is_found() {
        let x = Sym::Input(0);
        let ne = Constraint {
            e: LinExpr::sym(x),
            cmp: Cmp::Ne,
        };
        let r = solve(&[ne], &|_| (0, 5), LpOptions { small: true });
        assert_eq!(r, Sat::Yes([(x, 1)].into_iter().collect()));
    }

    #[test]
    fn wide_unsigned_ranges_solve() {
        let x = Sym::Draw(NodeId(3), 1);
        // 1024 - x <= 0
        let c = le(LinExpr::sym(x)
            .scale(-1)
            .unwrap()
            .combine(1, &LinExpr::constant(1024), 1)
            .unwrap());
        for small in [false, true] {
            let r = solve(std::slice::from_ref(&c), &|_| (0, u32::MAX as i64), LpOptions { small });
            match r {
                Sat::Yes(m) => assert!(m[&x] >= 1024),
                other => panic!("expected a model, got {other:?}"),
            }
        }
    }
}
