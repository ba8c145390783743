//! Bounds of single symbols, carried in the valuations of the exact first
//! pass (`Options::narrow`): a branch `n > 3` taken false gives `n <= 3`, an
//! index split naming element 2 of `a[n - 1]` gives `n == 3`. A later test
//! that the bounds decide (`i < n` with `i == 3`) then has one outcome, and
//! a read at an index they limit splits over the elements they allow only:
//! without them, a loop up to an input `n <= 3` that fills a
//! `malloc(n * sizeof(int))` ran on to the model's last element, and the
//! read after it split over every element (issue 50, item 7).
//!
//! Only branch tests and index splits are decided with bounds. `path::Exec`
//! keeps none: it follows the decisions the graph recorded, and the
//! constraints it adds for them are implied by those that made the bounds.
//! A symbol made fresh forgets its bounds (`Valuation::forget`): a dead
//! draw's number is reused.

use super::value::{Cmp, Constraint, LinExpr, Sym};

/// Inclusive bounds.
pub type Bounds = (i64, i64);

/// Whether `c` holds for every valuation within the bounds (`Some(true)`),
/// for none (`Some(false)`), or depends. Every symbol of `c` must be
/// bounded, else `None`.
pub fn decide(c: &Constraint, bound: &dyn Fn(Sym) -> Option<Bounds>) -> Option<bool> {
    let (lo, hi) = span(&c.e, bound)?;
    match c.cmp {
        Cmp::Le if hi <= 0 => Some(true),
        Cmp::Le if lo > 0 => Some(false),
        Cmp::Eq | Cmp::Ne if lo == 0 && hi == 0 => Some(c.cmp == Cmp::Eq),
        Cmp::Eq | Cmp::Ne if lo > 0 || hi < 0 => Some(c.cmp == Cmp::Ne),
        _ => None,
    }
}

/// The values `e` may take within the bounds of its symbols, when each
/// has bounds.
pub fn span(e: &LinExpr, bound: &dyn Fn(Sym) -> Option<Bounds>) -> Option<(i128, i128)> {
    let (mut lo, mut hi) = (e.c as i128, e.c as i128);
    for &(s, k) in &e.terms {
        let (a, b) = bound(s)?;
        let (x, y) = (k as i128 * a as i128, k as i128 * b as i128);
        lo += x.min(y);
        hi += x.max(y);
    }
    Some((lo, hi))
}

/// The bounds of `s` once `c` holds, if `c` constrains `s` alone (`c` is
/// normalised: `k * s + m cmp 0`); `from` are its bounds before. An empty
/// range (`lo > hi`) says no value is left.
pub fn tighten(c: &Constraint, from: Bounds) -> Option<(Sym, Bounds)> {
    let &[(s, k)] = c.e.terms.as_slice() else {
        return None;
    };
    if s.is_alpha() {
        return None;
    }
    let (k, m) = (k as i128, c.e.c as i128);
    let (mut lo, mut hi) = (from.0 as i128, from.1 as i128);
    match c.cmp {
        // k*s <= -m
        Cmp::Le if k > 0 => hi = hi.min(floor_div(-m, k)),
        Cmp::Le => lo = lo.max(ceil_div(-m, k)),
        Cmp::Eq => {
            if (-m) % k != 0 {
                return Some((s, (1, 0)));
            }
            let v = -m / k;
            (lo, hi) = (lo.max(v), hi.min(v));
        }
        Cmp::Ne => {
            if (-m) % k != 0 {
                return None;
            }
            let v = -m / k;
            if v == lo {
                lo += 1;
            } else if v == hi {
                hi -= 1;
            } else {
                return None;
            }
        }
    }
    let clamp = |x: i128| x.clamp(i64::MIN as i128, i64::MAX as i128) as i64;
    Some((s, (clamp(lo), clamp(hi))))
}

fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

fn ceil_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) == (b < 0)) {
        q + 1
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::value::Truth;
    use crate::ir::RelOp;

    /// `k * s + m op 0`, unless normalising decides it.
    fn c(k: i64, m: i64, op: RelOp) -> Option<Constraint> {
        let e = LinExpr::sym(Sym::Input(0)).scale(k).unwrap();
        match Constraint::compare(&e, op, &LinExpr::constant(-m)) {
            Some(Truth::Depends(c)) => Some(c),
            _ => None,
        }
    }

    /// Every bound `tighten` gives keeps exactly the values of the old range
    /// the constraint allows (or a superset, for `!=` inside the range), and
    /// `decide` agrees with evaluating the constraint at every value.
    #[test]
    fn bounds_keep_exactly_the_values_the_constraint_allows() {
        let ops = [RelOp::Lt, RelOp::Le, RelOp::Gt, RelOp::Ge, RelOp::Eq, RelOp::Ne];
        for k in [-3i64, -2, -1, 1, 2, 3] {
            for m in -7i64..=7 {
                for op in ops {
                    let Some(con) = c(k, m, op) else {
                        continue;
                    };
                    let from = (-5i64, 5i64);
                    let holds = |v: i64| con.holds(&mut |_| v).unwrap();
                    if let Some((_, (lo, hi))) = tighten(&con, from) {
                        for v in from.0..=from.1 {
                            if holds(v) {
                                assert!(lo <= v && v <= hi, "{con:?} {v} in ({lo},{hi})");
                            }
                        }
                        if con.cmp != Cmp::Ne {
                            for v in lo.max(from.0)..=hi.min(from.1) {
                                assert!(holds(v), "{con:?} {v}");
                            }
                        }
                    }
                    for (a, b) in [(-5, 5), (0, 0), (1, 3), (-4, -2)] {
                        let all: Vec<bool> = (a..=b).map(holds).collect();
                        let want = if all.iter().all(|x| *x) {
                            Some(true)
                        } else if all.iter().all(|x| !*x) {
                            Some(false)
                        } else {
                            None
                        };
                        assert_eq!(decide(&con, &|_| Some((a, b))), want, "{con:?} on ({a},{b})");
                    }
                }
            }
        }
    }
}
