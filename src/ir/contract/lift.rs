//! Conditional terms taken out of relations: a relation over `c ? a : b`
//! (how the memory model reads through a pointer: by cases on the object
//! it points to) is `if c then` the relation over `a` `else` over `b`.
//! Both engines read formulas lifted so: the checks a run makes branch on
//! `c` as C's `?:` does, and the VC engine's terms need no conditional.

use super::{Pred, Term};

impl Term {
    /// The first conditional in the term: its condition, and the term
    /// with it replaced by each of its two branches.
    fn split_ite(&self) -> Option<(Pred, Term, Term)> {
        let one = |x: &Term, rebuild: &dyn Fn(Term) -> Term| x.split_ite().map(|(c, a, b)| (c, rebuild(a), rebuild(b)));
        let two = |x: &Term, y: &Term, rebuild: &dyn Fn(Term, Term) -> Term| {
            one(x, &|t| rebuild(t, y.clone())).or_else(|| one(y, &|t| rebuild(x.clone(), t)))
        };
        match self {
            Term::Ite(c, a, b) => Some(((**c).clone(), (**a).clone(), (**b).clone())),
            Term::Const(_) | Term::Var { .. } | Term::Result | Term::Bound(_) | Term::Invalid => None,
            Term::Elem {
                var,
                old,
                index,
                guarded,
            } => one(index, &|i| Term::Elem {
                var: *var,
                old: *old,
                index: Box::new(i),
                guarded: *guarded,
            }),
            Term::Neg(x) => one(x, &|t| Term::Neg(Box::new(t))),
            Term::Arith(op, a, b) => two(a, b, &|a, b| Term::Arith(*op, Box::new(a), Box::new(b))),
            Term::Bit { op, ty, a, b } => two(a, b, &|a, b| Term::Bit {
                op: *op,
                ty: *ty,
                a: Box::new(a),
                b: Box::new(b),
            }),
            Term::Div { num, den, rem } => two(num, den, &|num, den| Term::Div {
                num: Box::new(num),
                den: Box::new(den),
                rem: *rem,
            }),
        }
    }

    /// Does the term read through a pointer where no object is valid?
    pub fn has_invalid(&self) -> bool {
        match self {
            Term::Invalid => true,
            Term::Const(_) | Term::Var { .. } | Term::Result | Term::Bound(_) => false,
            Term::Elem { index, .. } => index.has_invalid(),
            Term::Neg(x) => x.has_invalid(),
            Term::Arith(_, a, b) | Term::Bit { a, b, .. } => a.has_invalid() || b.has_invalid(),
            Term::Div { num, den, .. } => num.has_invalid() || den.has_invalid(),
            Term::Ite(_, a, b) => a.has_invalid() || b.has_invalid(),
        }
    }
}

impl Pred {
    /// The predicate with no conditional term left: each one becomes a
    /// `Cond` around the smallest formula that holds it.
    pub fn lift(&self) -> Pred {
        let cond = |c: Pred, a: Pred, b: Pred| Pred::Cond(Box::new(c.lift()), Box::new(a.lift()), Box::new(b.lift()));
        match self {
            Pred::Bool(_) => self.clone(),
            Pred::Rel(op, a, b) => {
                if let Some((c, x, y)) = a.split_ite() {
                    return cond(c, Pred::Rel(*op, x, b.clone()), Pred::Rel(*op, y, b.clone()));
                }
                if let Some((c, x, y)) = b.split_ite() {
                    return cond(c, Pred::Rel(*op, a.clone(), x), Pred::Rel(*op, a.clone(), y));
                }
                self.clone()
            }
            Pred::Not(x) => Pred::Not(Box::new(x.lift())),
            Pred::And(xs) => Pred::And(xs.iter().map(Pred::lift).collect()),
            Pred::Or(xs) => Pred::Or(xs.iter().map(Pred::lift).collect()),
            Pred::Implies(a, b) => Pred::Implies(Box::new(a.lift()), Box::new(b.lift())),
            Pred::Iff(a, b) => Pred::Iff(Box::new(a.lift()), Box::new(b.lift())),
            Pred::Cond(c, a, b) => Pred::Cond(Box::new(c.lift()), Box::new(a.lift()), Box::new(b.lift())),
            Pred::Quant {
                forall,
                var,
                name,
                lo,
                hi,
                body,
            } => {
                let with = |lo: Term, hi: Term| Pred::Quant {
                    forall: *forall,
                    var: *var,
                    name: name.clone(),
                    lo,
                    hi,
                    body: body.clone(),
                };
                if let Some((c, x, y)) = lo.split_ite() {
                    return cond(c, with(x, hi.clone()), with(y, hi.clone()));
                }
                if let Some((c, x, y)) = hi.split_ite() {
                    return cond(c, with(lo.clone(), x), with(lo.clone(), y));
                }
                Pred::Quant {
                    forall: *forall,
                    var: *var,
                    name: name.clone(),
                    lo: lo.clone(),
                    hi: hi.clone(),
                    body: Box::new(body.lift()),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{RelOp, VarId};

    fn var(n: u32) -> Term {
        Term::Var {
            var: VarId(n),
            old: false,
        }
    }

    /// Evaluates a predicate over variable values (no arrays, no `\old`).
    fn eval(p: &Pred, vals: &[i64]) -> bool {
        fn term(t: &Term, vals: &[i64]) -> i64 {
            match t {
                Term::Const(c) => *c,
                Term::Var { var, .. } => vals[var.index()],
                Term::Ite(c, a, b) => {
                    if eval(c, vals) {
                        term(a, vals)
                    } else {
                        term(b, vals)
                    }
                }
                Term::Arith(crate::ir::ArithOp::Add, a, b) => term(a, vals) + term(b, vals),
                other => unreachable!("{other:?}"),
            }
        }
        match p {
            Pred::Bool(b) => *b,
            Pred::Rel(op, a, b) => op.holds(term(a, vals), term(b, vals)),
            Pred::Not(x) => !eval(x, vals),
            Pred::And(xs) => xs.iter().all(|x| eval(x, vals)),
            Pred::Or(xs) => xs.iter().any(|x| eval(x, vals)),
            Pred::Cond(c, a, b) => {
                if eval(c, vals) {
                    eval(a, vals)
                } else {
                    eval(b, vals)
                }
            }
            other => unreachable!("{other:?}"),
        }
    }

    fn no_ite(p: &Pred) -> bool {
        match p {
            Pred::Rel(_, a, b) => a.split_ite().is_none() && b.split_ite().is_none(),
            Pred::Not(x) => no_ite(x),
            Pred::And(xs) | Pred::Or(xs) => xs.iter().all(no_ite),
            Pred::Cond(c, a, b) => no_ite(c) && no_ite(a) && no_ite(b),
            _ => true,
        }
    }

    #[test]
    fn lifted_predicates_mean_the_same() {
        // (v0 == 1 ? v1 : (v0 == 2 ? v2 : 7)) + (v3 == 0 ? v1 : v2) < v2 + 1
        let is = |v: u32, k: i64| Box::new(Pred::Rel(RelOp::Eq, var(v), Term::Const(k)));
        let inner = Term::Ite(is(0, 2), Box::new(var(2)), Box::new(Term::Const(7)));
        let first = Term::Ite(is(0, 1), Box::new(var(1)), Box::new(inner));
        let second = Term::Ite(is(3, 0), Box::new(var(1)), Box::new(var(2)));
        let sum = Term::Arith(crate::ir::ArithOp::Add, Box::new(first), Box::new(second));
        let rhs = Term::Arith(crate::ir::ArithOp::Add, Box::new(var(2)), Box::new(Term::Const(1)));
        let p = Pred::Not(Box::new(Pred::Rel(RelOp::Lt, sum, rhs)));
        let lifted = p.lift();
        assert!(no_ite(&lifted), "{lifted:?}");
        for v0 in 0..4 {
            for v1 in -2..3 {
                for v2 in -2..3 {
                    for v3 in 0..2 {
                        let vals = [v0, v1, v2, v3];
                        assert_eq!(eval(&p, &vals), eval(&lifted, &vals), "{vals:?}");
                    }
                }
            }
        }
    }
}
