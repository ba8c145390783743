//! Cheap refutation of linear constraints, before any LP: bounds on single
//! symbols and on differences of two (`x - y <= d`), closed under
//! transitivity, with the values `!=` excludes. Most infeasible path
//! constraints are of this kind (`x == 0` then `x != 0`; `x < y` then
//! `y <= x`), and constraints come one at a time, so a path can be stopped
//! at the constraint that makes it infeasible.
//!
//! Sound, not complete: "contradiction" means no integer assignment within
//! the symbols' ranges satisfies the constraints seen; anything else
//! (other coefficients, three symbols) is left to the LP.

use super::value::{Cmp, Constraint, Sym};

/// No bound.
const INF: i128 = i128::MAX / 4;

/// Difference bounds over the symbols seen, node 0 standing for zero:
/// `ub[i][j]` bounds `v_i - v_j` from above. Paths have few symbols, so
/// the table is small and looked up in a list.
#[derive(Clone, Default)]
pub struct Refuter {
    /// The symbol of node i + 1.
    syms: Vec<Sym>,
    ub: Vec<Vec<i128>>,
    /// `v_i - v_j != d`.
    ne: Vec<(usize, usize, i128)>,
    contradiction: bool,
}

impl Refuter {
    pub fn new() -> Refuter {
        Refuter {
            ub: vec![vec![0]],
            ..Refuter::default()
        }
    }

    /// Adds `c` (symbols within `range`); returns false once the
    /// constraints added so far are contradictory.
    pub fn add(&mut self, c: &Constraint, range: &dyn Fn(Sym) -> (i64, i64)) -> bool {
        if self.contradiction {
            return false;
        }
        // `k*x + l*y + c0 cmp 0` with k, l in {1, -1}: as `v_i - v_j cmp -c0`.
        let (i, j, d) = match c.e.terms[..] {
            [(x, k)] if k == 1 || k == -1 => {
                let x = self.symbol(x, range);
                if k == 1 {
                    (x, 0, -(c.e.c as i128))
                } else {
                    (0, x, -(c.e.c as i128))
                }
            }
            [(x, k), (y, l)] if (k, l) == (1, -1) || (k, l) == (-1, 1) => {
                let (x, y) = (self.symbol(x, range), self.symbol(y, range));
                if k == 1 {
                    (x, y, -(c.e.c as i128))
                } else {
                    (y, x, -(c.e.c as i128))
                }
            }
            _ => return !self.contradiction,
        };
        match c.cmp {
            Cmp::Le => self.bound(i, j, d),
            Cmp::Eq => {
                self.bound(i, j, d);
                self.bound(j, i, -d);
            }
            Cmp::Ne => self.ne.push((i, j, d)),
        }
        self.settle_ne();
        !self.contradiction
    }

    /// The node of a symbol, made with the bounds of its range.
    fn symbol(&mut self, s: Sym, range: &dyn Fn(Sym) -> (i64, i64)) -> usize {
        if let Some(k) = self.syms.iter().position(|&t| t == s) {
            return k + 1;
        }
        let n = self.ub.len();
        self.syms.push(s);
        for row in &mut self.ub {
            row.push(INF);
        }
        let mut row = vec![INF; n + 1];
        row[n] = 0;
        self.ub.push(row);
        // Every bound through the new node is closed over from here on.
        let (lo, hi) = range(s);
        if hi != i64::MAX {
            self.bound(n, 0, hi as i128);
        }
        if lo != i64::MIN {
            self.bound(0, n, -(lo as i128));
        }
        n
    }

    /// Adds `v_i - v_j <= d` and closes the bounds over it.
    fn bound(&mut self, i: usize, j: usize, d: i128) {
        if self.contradiction || d >= self.ub[i][j] {
            return;
        }
        // With v_j - v_i <= ub[j][i]: 0 <= d + ub[j][i].
        if self.ub[j][i] < INF && d + self.ub[j][i] < 0 {
            self.contradiction = true;
            return;
        }
        // v_a - v_b <= (v_a - v_i) + (v_i - v_j) + (v_j - v_b).
        // Row j is read while rows are written; it changes only where a
        // bound through (i, j) improves on it, and 0 <= d + ub[j][i]
        // (checked above) means it does not.
        let from_j = std::mem::take(&mut self.ub[j]);
        for a in 0..self.ub.len() {
            let ai = if a == j { from_j[i] } else { self.ub[a][i] };
            if ai >= INF || a == j {
                continue;
            }
            let row = &mut self.ub[a];
            for (b, &jb) in from_j.iter().enumerate() {
                if jb < INF && ai + d + jb < row[b] {
                    row[b] = ai + d + jb;
                }
            }
        }
        self.ub[j] = from_j;
    }

    /// A `!=` whose both bounds are tight is a contradiction; one tight
    /// bound moves past the excluded value (repeated until nothing moves).
    fn settle_ne(&mut self) {
        loop {
            let mut moved = false;
            for k in 0..self.ne.len() {
                let (i, j, d) = self.ne[k];
                let (up, down) = (self.ub[i][j] == d, self.ub[j][i] == -d);
                if up && down {
                    self.contradiction = true;
                    return;
                }
                // Each move tightens a bound, so the loop ends.
                if up {
                    self.bound(i, j, d - 1);
                    moved = true;
                } else if down {
                    self.bound(j, i, -d - 1);
                    moved = true;
                }
                if self.contradiction {
                    return;
                }
            }
            if !moved {
                return;
            }
        }
    }
}

impl Refuter {
    /// What the constraints say of `s` alone: its bounds (`None`: none)
    /// and the values excluded by a `!=` against a constant. Two paths on
    /// which a symbol has one description allow it the same values.
    pub fn unary(&self, s: Sym) -> (Option<i128>, Option<i128>, Vec<i128>) {
        let Some(k) = self.syms.iter().position(|&t| t == s) else {
            return (None, None, Vec::new());
        };
        let n = k + 1;
        let finite = |x: i128| (x < INF).then_some(x);
        let mut excluded: Vec<i128> = (self.ne.iter())
            .filter_map(|&(i, j, d)| match (i, j) {
                (i, 0) if i == n => Some(d),
                (0, j) if j == n => Some(-d),
                _ => None,
            })
            .collect();
        excluded.sort_unstable();
        excluded.dedup();
        (finite(self.ub[0][n]).map(|x| -x), finite(self.ub[n][0]), excluded)
    }

    /// A candidate model: each symbol at its upper bound (or each at its
    /// lower bound), which satisfies every difference bound; `None` when
    /// some bound is missing. Other constraints (`!=`, other coefficients)
    /// may still fail: check it before believing it.
    pub fn model(&self) -> Option<std::collections::BTreeMap<Sym, i64>> {
        let side = |at: &dyn Fn(usize) -> i128| -> Option<std::collections::BTreeMap<Sym, i64>> {
            self.syms
                .iter()
                .enumerate()
                .map(|(k, &s)| {
                    let v = at(k + 1);
                    (v.abs() < INF).then_some(())?;
                    Some((s, i64::try_from(v).ok()?))
                })
                .collect()
        };
        side(&|i| self.ub[i][0]).or_else(|| side(&|i| -self.ub[0][i]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Are the constraints contradictory by [`Refuter`]'s reasoning?
    fn refutes(cons: &[Constraint], range: &dyn Fn(Sym) -> (i64, i64)) -> bool {
        let mut r = Refuter::new();
        cons.iter().any(|c| !r.add(c, range))
    }
    use crate::analysis::value::LinExpr;
    use proptest::prelude::*;

    fn con(terms: &[(u32, i64)], c: i64, cmp: Cmp) -> Constraint {
        Constraint {
            e: LinExpr {
                c,
                terms: terms.iter().map(|&(k, a)| (Sym::Input(k), a)).collect(),
            },
            cmp,
        }
    }

    const R: (i64, i64) = (-2, 2);

    fn range(_: Sym) -> (i64, i64) {
        R
    }

    #[test]
    fn finds_the_usual_contradictions() {
        // x == 0, x != 0
        assert!(refutes(
            &[con(&[(0, 1)], 0, Cmp::Eq), con(&[(0, 1)], 0, Cmp::Ne)],
            &range
        ));
        // x - y + 1 <= 0 (x < y), y - x <= 0 (y <= x)
        assert!(refutes(
            &[con(&[(0, 1), (1, -1)], 1, Cmp::Le), con(&[(0, -1), (1, 1)], 0, Cmp::Le)],
            &range
        ));
        // x == 3, x == 2
        assert!(refutes(
            &[con(&[(0, 1)], -3, Cmp::Eq), con(&[(0, 1)], -2, Cmp::Eq)],
            &range
        ));
        // x < y, y < z, z < x, through transitivity
        assert!(refutes(
            &[
                con(&[(0, 1), (1, -1)], 1, Cmp::Le),
                con(&[(1, 1), (2, -1)], 1, Cmp::Le),
                con(&[(2, 1), (0, -1)], 1, Cmp::Le),
            ],
            &range
        ));
        // x within its range: x >= 5 is out of -2..2
        assert!(refutes(&[con(&[(0, -1)], 5, Cmp::Le)], &range));
        // Satisfiable: x != 0, x <= 0, x >= -1
        assert!(!refutes(
            &[
                con(&[(0, 1)], 0, Cmp::Ne),
                con(&[(0, 1)], 0, Cmp::Le),
                con(&[(0, -1)], -1, Cmp::Le)
            ],
            &range
        ));
    }

    fn arb_con() -> impl Strategy<Value = Constraint> {
        let term = (0u32..3, prop_oneof![Just(1i64), Just(-1), Just(2)]);
        (
            proptest::collection::vec(term, 1..3),
            -3i64..4,
            prop_oneof![Just(Cmp::Le), Just(Cmp::Eq), Just(Cmp::Ne)],
        )
            .prop_map(|(terms, c, cmp)| {
                let mut terms: Vec<(Sym, i64)> = terms.into_iter().map(|(k, a)| (Sym::Input(k), a)).collect();
                terms.sort();
                terms.dedup_by_key(|t| t.0);
                Constraint {
                    e: LinExpr { c, terms },
                    cmp,
                }
            })
    }

    /// Bounds on symbols and differences only (`<=`, `==`).
    fn arb_difference() -> impl Strategy<Value = Constraint> {
        let terms = prop_oneof![
            (0u32..3, prop_oneof![Just(1i64), Just(-1)]).prop_map(|t| vec![t]),
            (0u32..2, prop_oneof![Just(1i64), Just(-1)]).prop_map(|(k, a)| vec![(k, a), (k + 1, -a)]),
        ];
        (terms, -3i64..4, prop_oneof![Just(Cmp::Le), Just(Cmp::Eq)]).prop_map(|(terms, c, cmp)| Constraint {
            e: LinExpr {
                c,
                terms: terms.into_iter().map(|(k, a)| (Sym::Input(k), a)).collect(),
            },
            cmp,
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// On bounds and differences alone the refuter is complete: what
        /// it does not refute, its model satisfies.
        #[test]
        fn difference_bounds_are_refuted_or_solved(cons in proptest::collection::vec(arb_difference(), 1..7)) {
            let mut r = Refuter::new();
            if cons.iter().all(|c| r.add(c, &range)) {
                let m = r.model();
                prop_assert!(m.is_some());
                let m = m.unwrap();
                for c in &cons {
                    prop_assert_eq!(c.holds(&mut |s| m.get(&s).copied().unwrap_or(0)), Some(true), "{:?} fails {:?}", m, c);
                }
            }
        }

        /// A refuted set has no solution: checked against every assignment
        /// of three symbols in their range.
        #[test]
        fn refuted_sets_have_no_solution(cons in proptest::collection::vec(arb_con(), 1..7)) {
            if refutes(&cons, &range) {
                for a in R.0..=R.1 {
                    for b in R.0..=R.1 {
                        for c in R.0..=R.1 {
                            let v = [a, b, c];
                            let all = cons.iter().all(|k| {
                                k.holds(&mut |s| match s {
                                    Sym::Input(i) => v[i as usize],
                                    _ => 0,
                                }) == Some(true)
                            });
                            prop_assert!(!all, "refuted, yet {:?} satisfies {:?}", v, cons);
                        }
                    }
                }
            }
        }
    }
}
