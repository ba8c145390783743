//! When a formula holds, and when it fails, evaluated as a run evaluates
//! it (`instrument`): left to right, `&&`, `||`, `==>` and `?:` only as far
//! as they need, a quantifier case by case until one decides. Where that
//! evaluation reads through a pointer at no valid object (`Term::Invalid`)
//! the formula does neither, so a check of it is violated and an
//! assumption of it excludes the run (E-ACSL's reading). The VC engine
//! reads formulas through `defined(true)`, so both engines agree.

use super::{Pred, Term};
use crate::ir::RelOp;

impl Pred {
    /// Does evaluating it possibly read invalid memory?
    fn reads_invalid(&self) -> bool {
        match self {
            Pred::Bool(_) => false,
            Pred::Rel(_, a, b) => a.has_invalid() || b.has_invalid(),
            Pred::Not(x) => x.reads_invalid(),
            Pred::And(xs) | Pred::Or(xs) => xs.iter().any(Pred::reads_invalid),
            Pred::Implies(a, b) | Pred::Iff(a, b) => a.reads_invalid() || b.reads_invalid(),
            Pred::Cond(c, a, b) => c.reads_invalid() || a.reads_invalid() || b.reads_invalid(),
            Pred::Quant { lo, hi, body, .. } => lo.has_invalid() || hi.has_invalid() || body.reads_invalid(),
        }
    }

    /// When the (lifted) formula evaluates to `holds` without reading
    /// invalid memory: the formula itself (or its negation) when it reads
    /// none.
    pub fn defined(&self, holds: bool) -> Pred {
        if !self.reads_invalid() {
            return if holds {
                self.clone()
            } else {
                Pred::Not(Box::new(self.clone()))
            };
        }
        let t = |p: &Pred| p.defined(true);
        let f = |p: &Pred| p.defined(false);
        // The first of `xs` to decide does so with `last`, all before it
        // with `others`.
        let first = |xs: &[Pred], others: bool, last: bool| {
            Pred::Or(
                (0..xs.len())
                    .map(|k| {
                        let mut parts: Vec<Pred> = xs[..k].iter().map(|x| x.defined(others)).collect();
                        parts.push(xs[k].defined(last));
                        Pred::And(parts)
                    })
                    .collect(),
            )
        };
        match self {
            Pred::Bool(b) => Pred::Bool(*b == holds),
            Pred::Rel(..) => Pred::Bool(false),
            Pred::Not(x) => x.defined(!holds),
            Pred::And(xs) if holds => Pred::And(xs.iter().map(t).collect()),
            Pred::And(xs) => first(xs, true, false),
            Pred::Or(xs) if holds => first(xs, false, true),
            Pred::Or(xs) => Pred::And(xs.iter().map(f).collect()),
            Pred::Implies(a, b) if holds => Pred::Or(vec![f(a), Pred::And(vec![t(a), t(b)])]),
            Pred::Implies(a, b) => Pred::And(vec![t(a), f(b)]),
            Pred::Iff(a, b) => Pred::Or(vec![
                Pred::And(vec![t(a), b.defined(holds)]),
                Pred::And(vec![f(a), b.defined(!holds)]),
            ]),
            Pred::Cond(c, a, b) => Pred::Or(vec![
                Pred::And(vec![t(c), a.defined(holds)]),
                Pred::And(vec![f(c), b.defined(holds)]),
            ]),
            Pred::Quant {
                forall,
                var,
                name,
                lo,
                hi,
                body,
            } => {
                if lo.has_invalid() || hi.has_invalid() {
                    return Pred::Bool(false);
                }
                let k = Term::Bound(*var);
                let in_range = |x: &Term, hi: &Term| {
                    Pred::And(vec![
                        Pred::Rel(RelOp::Le, lo.clone(), x.clone()),
                        Pred::Rel(RelOp::Lt, x.clone(), hi.clone()),
                    ])
                };
                // `\forall` that holds, `\exists` that fails: every case
                // goes that way.
                if *forall == holds {
                    return Pred::Quant {
                        forall: true,
                        var: *var,
                        name: name.clone(),
                        lo: lo.clone(),
                        hi: hi.clone(),
                        body: Box::new(Pred::Implies(Box::new(in_range(&k, hi)), Box::new(body.defined(holds)))),
                    };
                }
                // Otherwise some case decides, after every earlier one went
                // the other way.
                let j = *var | (1 << 31);
                let earlier = Pred::Quant {
                    forall: true,
                    var: j,
                    name: format!("{name}'"),
                    lo: lo.clone(),
                    hi: k.clone(),
                    body: Box::new(Pred::Implies(
                        Box::new(in_range(&Term::Bound(j), &k)),
                        Box::new(body.subst(*var, &Term::Bound(j)).defined(!holds)),
                    )),
                };
                Pred::Quant {
                    forall: false,
                    var: *var,
                    name: name.clone(),
                    lo: lo.clone(),
                    hi: hi.clone(),
                    body: Box::new(Pred::And(vec![in_range(&k, hi), body.defined(holds), earlier])),
                }
            }
        }
    }

    /// The formula with the quantified variable `var` replaced by `t`.
    fn subst(&self, var: u32, t: &Term) -> Pred {
        let s = |p: &Pred| Box::new(p.subst(var, t));
        match self {
            Pred::Bool(_) => self.clone(),
            Pred::Rel(op, a, b) => Pred::Rel(*op, a.subst(var, t), b.subst(var, t)),
            Pred::Not(x) => Pred::Not(s(x)),
            Pred::And(xs) => Pred::And(xs.iter().map(|x| x.subst(var, t)).collect()),
            Pred::Or(xs) => Pred::Or(xs.iter().map(|x| x.subst(var, t)).collect()),
            Pred::Implies(a, b) => Pred::Implies(s(a), s(b)),
            Pred::Iff(a, b) => Pred::Iff(s(a), s(b)),
            Pred::Cond(c, a, b) => Pred::Cond(s(c), s(a), s(b)),
            Pred::Quant {
                forall,
                var: v,
                name,
                lo,
                hi,
                body,
            } => Pred::Quant {
                forall: *forall,
                var: *v,
                name: name.clone(),
                lo: lo.subst(var, t),
                hi: hi.subst(var, t),
                body: if *v == var { body.clone() } else { s(body) },
            },
        }
    }
}

impl Term {
    fn subst(&self, var: u32, t: &Term) -> Term {
        let s = |x: &Term| Box::new(x.subst(var, t));
        match self {
            Term::Bound(n) if *n == var => t.clone(),
            Term::Const(_) | Term::Var { .. } | Term::Result | Term::Bound(_) | Term::Invalid => self.clone(),
            Term::Elem {
                var: v,
                old,
                index,
                guarded,
            } => Term::Elem {
                var: *v,
                old: *old,
                index: s(index),
                guarded: *guarded,
            },
            Term::Neg(x) => Term::Neg(s(x)),
            Term::Arith(op, a, b) => Term::Arith(*op, s(a), s(b)),
            Term::Bit { op, ty, a, b } => Term::Bit {
                op: *op,
                ty: *ty,
                a: s(a),
                b: s(b),
            },
            Term::Div { num, den, rem } => Term::Div {
                num: s(num),
                den: s(den),
                rem: *rem,
            },
            Term::Ite(c, a, b) => Term::Ite(Box::new(c.subst(var, t)), s(a), s(b)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::VarId;

    /// Evaluates as a run does (`None`: it reads invalid memory), over
    /// variables and one array `a` (element 9 and past: invalid).
    fn run(p: &Pred, vals: &[i64], a: &[i64], bound: &mut Vec<(u32, i64)>) -> Option<bool> {
        fn term(t: &Term, vals: &[i64], a: &[i64], bound: &[(u32, i64)]) -> Option<i64> {
            Some(match t {
                Term::Const(c) => *c,
                Term::Var { var, .. } => vals[var.index()],
                Term::Bound(n) => bound.iter().rev().find(|(m, _)| m == n).map(|(_, v)| *v)?,
                Term::Elem { index, .. } => {
                    let i = term(index, vals, a, bound)?;
                    *a.get(usize::try_from(i).ok()?)?
                }
                Term::Invalid => return None,
                Term::Arith(crate::ir::ArithOp::Add, x, y) => term(x, vals, a, bound)? + term(y, vals, a, bound)?,
                other => unreachable!("{other:?}"),
            })
        }
        Some(match p {
            Pred::Bool(b) => *b,
            Pred::Rel(op, x, y) => op.holds(term(x, vals, a, bound)?, term(y, vals, a, bound)?),
            Pred::Not(x) => !run(x, vals, a, bound)?,
            Pred::And(xs) => {
                for x in xs {
                    if !run(x, vals, a, bound)? {
                        return Some(false);
                    }
                }
                true
            }
            Pred::Or(xs) => {
                for x in xs {
                    if run(x, vals, a, bound)? {
                        return Some(true);
                    }
                }
                false
            }
            Pred::Implies(x, y) => !run(x, vals, a, bound)? || run(y, vals, a, bound)?,
            Pred::Iff(x, y) => run(x, vals, a, bound)? == run(y, vals, a, bound)?,
            Pred::Cond(c, x, y) => {
                if run(c, vals, a, bound)? {
                    run(x, vals, a, bound)?
                } else {
                    run(y, vals, a, bound)?
                }
            }
            Pred::Quant {
                forall,
                var,
                lo,
                hi,
                body,
                ..
            } => {
                let (lo, hi) = (term(lo, vals, a, bound)?, term(hi, vals, a, bound)?);
                let mut out = *forall;
                for k in lo..hi {
                    bound.push((*var, k));
                    let b = run(body, vals, a, bound);
                    bound.pop();
                    if b? != *forall {
                        out = !*forall;
                        break;
                    }
                }
                out
            }
        })
    }

    /// Evaluates a formula with no invalid read, quantifiers over all
    /// their range (as a proof reads them).
    fn holds(p: &Pred, vals: &[i64], a: &[i64]) -> bool {
        run(p, vals, a, &mut Vec::new()).expect("a defined formula reads no invalid memory")
    }

    fn var(n: u32) -> Term {
        Term::Var {
            var: VarId(n),
            old: false,
        }
    }

    /// `a[i]` as the memory model reads it: valid below 9.
    fn read(i: Term) -> Term {
        Term::Ite(
            Box::new(Pred::Rel(RelOp::Lt, i.clone(), Term::Const(9))),
            Box::new(Term::Elem {
                var: VarId(9),
                old: false,
                index: Box::new(i),
                guarded: true,
            }),
            Box::new(Term::Invalid),
        )
    }

    #[test]
    fn defined_formulas_agree_with_runs() {
        let rel = |op, x: Term, y: Term| Pred::Rel(op, x, y);
        let q = |forall: bool, body: Pred| Pred::Quant {
            forall,
            var: 0,
            name: "k".into(),
            lo: Term::Const(0),
            hi: var(1),
            body: Box::new(if forall {
                Pred::Implies(Box::new(rel(RelOp::Lt, Term::Bound(0), var(1))), Box::new(body))
            } else {
                Pred::And(vec![rel(RelOp::Lt, Term::Bound(0), var(1)), body])
            }),
        };
        let formulas = [
            Pred::Or(vec![
                rel(RelOp::Gt, var(0), Term::Const(3)),
                rel(RelOp::Eq, read(var(0)), Term::Const(1)),
            ]),
            Pred::Not(Box::new(Pred::And(vec![
                rel(RelOp::Eq, read(var(0)), Term::Const(0)),
                rel(RelOp::Lt, var(1), Term::Const(2)),
            ]))),
            Pred::Implies(
                Box::new(rel(RelOp::Ge, read(var(1)), Term::Const(0))),
                Box::new(rel(RelOp::Eq, read(var(0)), var(1))),
            ),
            Pred::Iff(
                Box::new(rel(RelOp::Ge, read(var(1)), Term::Const(0))),
                Box::new(rel(RelOp::Lt, var(0), Term::Const(1))),
            ),
            q(true, rel(RelOp::Ge, read(Term::Bound(0)), Term::Const(0))),
            Pred::Not(Box::new(q(true, rel(RelOp::Ge, read(Term::Bound(0)), Term::Const(0))))),
            q(false, rel(RelOp::Lt, read(Term::Bound(0)), Term::Const(0))),
            Pred::Not(Box::new(q(false, rel(RelOp::Lt, read(Term::Bound(0)), Term::Const(0))))),
        ];
        for (n, p) in formulas.iter().enumerate() {
            let p = p.lift();
            let (t, f) = (p.defined(true), p.defined(false));
            for v0 in [0, 3, 8, 9, 12] {
                for v1 in [0, 2, 9, 11] {
                    for a in [
                        [1, -1, 0, 2, 3, 1, 0, 5, 4, 7],
                        [0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
                        [2, 3, -4, 5, 6, 7, 8, 9, 1, -1],
                    ] {
                        let vals = [v0, v1];
                        let expect = run(&p, &vals, &a, &mut Vec::new());
                        let got = (holds(&t, &vals, &a), holds(&f, &vals, &a));
                        let want = (expect == Some(true), expect == Some(false));
                        assert_eq!(got, want, "formula {n} at {vals:?} {a:?}: run {expect:?}");
                    }
                }
            }
        }
    }
}
