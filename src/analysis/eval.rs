//! Symbolic evaluation of IR expressions.
//!
//! Where a value is not known, evaluation *splits*: an array index becomes
//! one outcome per element it may name plus the out-of-bounds cases, a
//! divisor becomes zero or not. Each outcome records its decisions and the
//! constraints under which it happens.
//!
//! The same code serves two masters: the abstract step (`Mode::All`, every
//! outcome) and the exact execution of one path (`Mode::Follow`, the outcome
//! the path's recorded decisions name).

mod bits;

use super::state::Decision;
use super::value::{AlphaDef, Constraint, LinExpr, Sym, Truth, Value};
use crate::ir::float;
use crate::ir::*;

/// Reads variables and makes fresh abstraction symbols.
pub trait SymEnv {
    /// Element `index` of `var` (0 for a scalar); the index is in bounds.
    fn read(&self, var: VarId, index: u32) -> Value;
    /// A fresh abstraction symbol for a non-linear result at `node`, and
    /// the operation it stands for.
    fn fresh_alpha(&mut self, node: NodeId, def: AlphaDef) -> Sym;
    /// The bounds the path gave symbol `s` (`bounds.rs`), if it keeps any.
    fn bound(&self, _s: Sym) -> Option<super::bounds::Bounds> {
        None
    }
}

pub enum Mode<'a> {
    /// Every outcome.
    All,
    /// The outcome named by the decisions, consumed from the cursor on.
    Follow(&'a [Decision], &'a mut usize),
}

/// One way an evaluation can go.
#[derive(Clone, Debug)]
pub struct Outcome<T> {
    pub decisions: Vec<Decision>,
    pub constraints: Vec<Constraint>,
    /// The value, or the error site that stops the run.
    pub result: Result<T, SiteId>,
}

impl<T> Outcome<T> {
    fn ok(t: T) -> Self {
        Outcome {
            decisions: Vec::new(),
            constraints: Vec::new(),
            result: Ok(t),
        }
    }
}

pub struct Evaluator<'a, 'b> {
    pub p: &'a Program,
    pub env: &'b mut dyn SymEnv,
    pub mode: Mode<'b>,
    pub node: NodeId,
}

/// A resolved place: the variable and the element index.
pub type Slot = (VarId, u32);

impl Evaluator<'_, '_> {
    /// Outcomes of `f` applied after `first`'s outcomes; errors pass through.
    fn then<A: Clone, B>(
        &mut self,
        first: Vec<Outcome<A>>,
        mut f: impl FnMut(&mut Self, A) -> Vec<Outcome<B>>,
    ) -> Vec<Outcome<B>> {
        let mut out = Vec::new();
        for o in first {
            match o.result {
                Err(site) => out.push(Outcome {
                    decisions: o.decisions,
                    constraints: o.constraints,
                    result: Err(site),
                }),
                Ok(a) => {
                    for mut o2 in f(self, a) {
                        let mut d = o.decisions.clone();
                        d.append(&mut o2.decisions);
                        let mut c = o.constraints.clone();
                        c.append(&mut o2.constraints);
                        out.push(Outcome {
                            decisions: d,
                            constraints: c,
                            result: o2.result,
                        });
                    }
                }
            }
        }
        out
    }

    /// The recorded decision for `site`, if the path has one: next, as a
    /// path the analysis recorded has them (in evaluation order), or
    /// further on (a run's record has one for every checked operation,
    /// some the evaluation decides without asking; each names its site).
    fn follow(&mut self, matches: impl Fn(&Decision) -> bool) -> Option<Option<Decision>> {
        match &mut self.mode {
            Mode::All => None,
            Mode::Follow(ds, cur) => match ds.get(**cur..).and_then(|rest| rest.iter().position(&matches)) {
                Some(0) => {
                    **cur += 1;
                    Some(Some(ds[**cur - 1]))
                }
                Some(j) => Some(Some(ds[**cur + j])),
                None => Some(None),
            },
        }
    }

    pub fn expr(&mut self, e: &Expr) -> Vec<Outcome<Value>> {
        match &e.kind {
            ExprKind::Const(c) => vec![Outcome::ok(Value::Const(*c))],
            ExprKind::Var(v) => vec![Outcome::ok(self.env.read(*v, 0))],
            ExprKind::Elem(v, idx, site) => {
                let idx = self.expr(idx);
                let (v, site) = (*v, *site);
                self.then(idx, |ev, i| {
                    ev.index(v, site, i)
                        .into_iter()
                        .map(|o| Outcome {
                            decisions: o.decisions,
                            constraints: o.constraints,
                            result: o.result.map(|k| ev.env.read(v, k)),
                        })
                        .collect()
                })
            }
            ExprKind::Conv(ty, x) => {
                let p = self.p;
                let arg_range = static_range(x, &|v| p.var(v).ty.to_owned());
                let x = self.expr(x);
                let ty = *ty;
                self.then(x, move |ev, v| vec![ev.conv(ty, v, arg_range)])
            }
            ExprKind::Checked { value, ty, site } => {
                let v = self.expr(value);
                let (ty, site) = (*ty, *site);
                self.then(v, move |ev, x| ev.checked(x, ty, site))
            }
            ExprKind::Neg(x) => {
                let x = self.expr(x);
                self.then(x, |ev, a| vec![Outcome::ok(ev.lin_op(a.lin().scale(-1)))])
            }
            ExprKind::Arith(op, a, b) => {
                let a = self.expr(a);
                let b_expr = b.clone();
                let op = *op;
                self.then(a, move |ev, av| {
                    let b = ev.expr(&b_expr);
                    ev.then(b, |ev, bv| vec![Outcome::ok(ev.arith(op, &av, &bv))])
                })
            }
            ExprKind::Bit {
                op,
                ty,
                a,
                b,
                site,
                strict,
            } => {
                let p = self.p;
                let range = |x: &Expr| static_range(x, &|v| p.var(v).ty);
                let case = bits::BitCase {
                    op: *op,
                    ty: *ty,
                    site: *site,
                    strict: *strict,
                    left: range(a),
                    result: range(e),
                };
                let x = self.expr(a);
                let b_expr = b.clone();
                self.then(x, move |ev, xv| {
                    let y = ev.expr(&b_expr);
                    ev.then(y, |ev, yv| ev.bit(&case, &xv, &yv))
                })
            }
            ExprKind::Float { op, ty, args, site } => {
                let (op, ty, site) = (*op, *ty, *site);
                let mut acc: Vec<Outcome<Vec<Value>>> = vec![Outcome::ok(Vec::new())];
                for a in args {
                    let a = a.clone();
                    acc = self.then(acc, move |ev, vals: Vec<Value>| {
                        let x = ev.expr(&a);
                        ev.then(x, |_, v| {
                            let mut vals = vals.clone();
                            vals.push(v);
                            vec![Outcome::ok(vals)]
                        })
                    });
                }
                self.then(acc, move |ev, vals| ev.float(op, ty, site, &vals))
            }
            ExprKind::Div { num, den, rem, site } => {
                let n = self.expr(num);
                let den_expr = den.clone();
                let (rem, site) = (*rem, *site);
                self.then(n, move |ev, nv| {
                    let d = ev.expr(&den_expr);
                    ev.then(d, |ev, dv| ev.div(&nv, &dv, rem, site))
                })
            }
        }
    }

    /// A floating-point operation: exact on constants; otherwise an
    /// abstraction symbol defined by the operation (`AlphaDef::Float`),
    /// and, for a checked conversion, a split on whether it is defined
    /// (`Decision::Overflow`: 0 defined, 1 not), which the path's exact
    /// model settles.
    fn float(&mut self, op: float::FloatOp, ty: IntType, site: Option<SiteId>, vals: &[Value]) -> Vec<Outcome<Value>> {
        if let Some(cs) = vals.iter().map(Value::as_const).collect::<Option<Vec<i64>>>() {
            return vec![match (float::apply(op, ty, &cs), site) {
                (Ok(v), _) | (Err(v), None) => Outcome::ok(Value::Const(v)),
                (Err(_), Some(s)) => Outcome {
                    decisions: Vec::new(),
                    constraints: Vec::new(),
                    result: Err(s),
                },
            }];
        }
        let def = AlphaDef::Float(op, ty, vals.iter().map(Value::lin).collect(), site.is_some());
        let v = Value::sym(self.env.fresh_alpha(self.node, def));
        let Some(site) = site else {
            return vec![Outcome::ok(v)];
        };
        let wanted = self.follow(|d| matches!(d, Decision::Overflow(s, _) if *s == site));
        [0i8, 1]
            .into_iter()
            .filter(|k| match wanted {
                Some(Some(Decision::Overflow(_, w))) => w == *k,
                _ => true,
            })
            .map(|k| Outcome {
                decisions: vec![Decision::Overflow(site, k)],
                constraints: Vec::new(),
                result: if k == 0 { Ok(v.clone()) } else { Err(site) },
            })
            .collect()
    }

    fn lin_op(&mut self, r: Option<LinExpr>) -> Value {
        match r {
            Some(l) => Value::from_lin(l),
            None => Value::sym(self.env.fresh_alpha(self.node, AlphaDef::Opaque)),
        }
    }

    /// `v` converted to `ty`, exactly and linearly: the result `r` is
    /// `v - 2^bits * q` for an integer `q` in the range that `v`'s static
    /// range `arg` allows, with `r` in `ty`'s range. (64-bit types: only
    /// the range, an over-approximation.)
    fn conv(&mut self, ty: IntType, v: Value, arg: (i128, i128)) -> Outcome<Value> {
        if let Some(c) = v.as_const() {
            return Outcome::ok(match i64::try_from(ty.convert(c as i128)) {
                Ok(r) => Value::Const(r),
                Err(_) => Value::sym(self.env.fresh_alpha(self.node, AlphaDef::Opaque)),
            });
        }
        let (lo, hi) = ty.range();
        let arg = self.span(&v.lin()).map_or(arg, |(a, b)| (arg.0.max(a), arg.1.min(b)));
        let m = 1i128 << ty.bits().min(64);
        let (q_lo, q_hi) = ((arg.0 - lo as i128).div_euclid(m), (arg.1 - lo as i128).div_euclid(m));
        let shifted = |q: &LinExpr| i64::try_from(m).ok().and_then(|m| v.lin().combine(1, q, -m));
        if q_lo == q_hi {
            // One case: the result is linear in `v`.
            if let Some(w) = i64::try_from(q_lo).ok().and_then(|q| shifted(&LinExpr::constant(q))) {
                return Outcome::ok(Value::from_lin(w));
            }
        }
        let r = LinExpr::sym(self.env.fresh_alpha(self.node, AlphaDef::Conv(v.lin(), ty)));
        let mut cs = vec![
            Constraint::compare(&r, RelOp::Ge, &LinExpr::constant(lo)),
            Constraint::compare(&r, RelOp::Le, &LinExpr::constant(hi)),
        ];
        if ty.bits() < 64 {
            let q = LinExpr::sym(self.env.fresh_alpha(self.node, AlphaDef::Quotient));
            for (op, b) in [(RelOp::Ge, q_lo), (RelOp::Le, q_hi)] {
                if let Ok(b) = i64::try_from(b) {
                    cs.push(Constraint::compare(&q, op, &LinExpr::constant(b)));
                }
            }
            cs.push(shifted(&q).and_then(|w| Constraint::compare(&r, RelOp::Eq, &w)));
        }
        let constraints = cs
            .into_iter()
            .filter_map(|c| match c {
                Some(Truth::Depends(c)) => Some(c),
                _ => None,
            })
            .collect();
        Outcome {
            decisions: vec![],
            constraints,
            result: Ok(Value::from_lin(r)),
        }
    }

    /// A signed result checked against its type: in range, or an overflow
    /// below or above it (`--property no-overflow`).
    fn checked(&mut self, v: Value, ty: IntType, site: SiteId) -> Vec<Outcome<Value>> {
        let (lo, hi) = ty.range();
        let e = v.lin();
        let cases: [(i8, &[(RelOp, i64)]); 3] = [
            (0, &[(RelOp::Ge, lo), (RelOp::Le, hi)]),
            (-1, &[(RelOp::Lt, lo)]),
            (1, &[(RelOp::Gt, hi)]),
        ];
        let mut possible = Vec::new();
        for (k, bounds) in cases {
            let mut cs = Vec::new();
            let mut ok = true;
            for &(op, b) in bounds {
                match Constraint::compare(&e, op, &LinExpr::constant(b)) {
                    Some(Truth::Known(true)) | None => {}
                    Some(Truth::Known(false)) => ok = false,
                    Some(Truth::Depends(c)) => cs.push(c),
                }
            }
            if ok {
                possible.push((k, cs));
            }
        }
        let split = possible.len() > 1;
        let wanted = self.follow(|d| matches!(d, Decision::Overflow(s, _) if *s == site));
        possible
            .into_iter()
            .filter(|(k, _)| match wanted {
                Some(Some(Decision::Overflow(_, w))) => w == *k,
                _ => true,
            })
            .filter(|(_, cs)| !self.ruled_out(cs))
            .map(|(k, constraints)| Outcome {
                decisions: if split {
                    vec![Decision::Overflow(site, k)]
                } else {
                    vec![]
                },
                constraints,
                result: if k == 0 { Ok(v.clone()) } else { Err(site) },
            })
            .collect()
    }

    fn arith(&mut self, op: ArithOp, a: &Value, b: &Value) -> Value {
        match op {
            ArithOp::Add => {
                let r = a.lin().combine(1, &b.lin(), 1);
                self.lin_op(r)
            }
            ArithOp::Sub => {
                let r = a.lin().combine(1, &b.lin(), -1);
                self.lin_op(r)
            }
            ArithOp::Mul => match (a.as_const(), b.as_const()) {
                (Some(k), _) => {
                    let r = b.lin().scale(k);
                    self.lin_op(r)
                }
                (_, Some(k)) => {
                    let r = a.lin().scale(k);
                    self.lin_op(r)
                }
                // Non-linear: not tracked.
                _ => Value::sym(self.env.fresh_alpha(self.node, AlphaDef::Mul(a.lin(), b.lin()))),
            },
        }
    }

    fn div(&mut self, n: &Value, d: &Value, rem: bool, site: SiteId) -> Vec<Outcome<Value>> {
        let zero = LinExpr::constant(0);
        let truth = Constraint::compare(&d.lin(), RelOp::Eq, &zero);
        let def = || AlphaDef::Div {
            num: n.lin(),
            den: d.lin(),
            rem,
        };
        let value_if_nonzero = |ev: &mut Self| match (n.as_const(), d.as_const()) {
            (Some(a), Some(b)) if b != 0 => {
                let r = if rem { a.checked_rem(b) } else { a.checked_div(b) };
                match r {
                    Some(v) => Value::Const(v),
                    None => Value::sym(ev.env.fresh_alpha(ev.node, AlphaDef::Opaque)),
                }
            }
            _ if d.as_const() == Some(1) && !rem => n.clone(),
            _ => Value::sym(ev.env.fresh_alpha(ev.node, def())),
        };
        match truth {
            Some(Truth::Known(true)) => vec![Outcome {
                decisions: vec![],
                constraints: vec![],
                result: Err(site),
            }],
            Some(Truth::Known(false)) => {
                // Known non-zero; a path that recorded otherwise is infeasible.
                match self.follow(|x| matches!(x, Decision::DivZero(s, _) if *s == site)) {
                    Some(Some(Decision::DivZero(_, true))) => vec![],
                    _ => vec![Outcome::ok(value_if_nonzero(self))],
                }
            }
            Some(Truth::Depends(c)) => {
                let neg = c.negate();
                let wanted = self.follow(|x| matches!(x, Decision::DivZero(s, _) if *s == site));
                let mut out = Vec::new();
                for zero in [true, false] {
                    if let Some(Some(Decision::DivZero(_, z))) = wanted {
                        if z != zero {
                            continue;
                        }
                    }
                    let case = if zero { c.clone() } else { neg.clone() };
                    if self.ruled_out(std::slice::from_ref(&case)) {
                        continue;
                    }
                    let result = if zero { Err(site) } else { Ok(value_if_nonzero(self)) };
                    out.push(Outcome {
                        decisions: vec![Decision::DivZero(site, zero)],
                        constraints: vec![if zero { c.clone() } else { neg.clone() }],
                        result,
                    });
                }
                out
            }
            None => vec![Outcome::ok(Value::sym(
                self.env.fresh_alpha(self.node, AlphaDef::Opaque),
            ))],
        }
    }

    /// A comparison's truth, decided by the bounds of its symbols where
    /// they decide it. Only branch tests and index splits settle: `Exec`
    /// follows the graph's decisions there (`bounds.rs`).
    fn settle(&self, t: Truth) -> Truth {
        match &t {
            Truth::Depends(c) => match super::bounds::decide(c, &|s| self.env.bound(s)) {
                Some(b) => Truth::Known(b),
                None => t,
            },
            Truth::Known(_) => t,
        }
    }

    /// The values `e` may take within the bounds of its symbols.
    fn span(&self, e: &LinExpr) -> Option<(i128, i128)> {
        super::bounds::span(e, &|s| self.env.bound(s))
    }

    /// Whether the bounds rule out every constraint of an outcome holding
    /// together (one of them is false within them). An outcome they rule
    /// out is dropped where the decision it records is recorded whatever
    /// the bounds: `Exec`, without bounds, follows the same decisions.
    fn ruled_out(&self, cs: &[Constraint]) -> bool {
        cs.iter()
            .any(|c| super::bounds::decide(c, &|s| self.env.bound(s)) == Some(false))
    }

    /// Resolves an index into `v`: the element, or an out-of-bounds error.
    fn index(&mut self, v: VarId, site: SiteId, i: Value) -> Vec<Outcome<u32>> {
        let len = self.p.var(v).slots() as i64;
        let wanted = self.follow(|x| matches!(x, Decision::Index(s, _) if *s == site));
        if let Some(k) = i.as_const() {
            if let Some(Some(Decision::Index(_, j))) = wanted {
                let in_bounds = |x: i64| (0..len).contains(&x);
                let same = j == k || (!in_bounds(j) && !in_bounds(k) && (j < 0) == (k < 0));
                if !same {
                    return vec![];
                }
            }
            return vec![if (0..len).contains(&k) {
                Outcome::ok(k as u32)
            } else {
                Outcome {
                    decisions: vec![],
                    constraints: vec![],
                    result: Err(site),
                }
            }];
        }
        let e = i.lin();
        let mut out = Vec::new();
        let want_k = match wanted {
            Some(Some(Decision::Index(_, j))) => Some(j),
            Some(_) => return vec![],
            None => None,
        };
        let mut choices: Vec<(i64, RelOp, i64)> = Vec::new();
        match want_k {
            Some(j) if j < 0 => choices.push((-1, RelOp::Lt, 0)),
            Some(j) if j >= len => choices.push((len, RelOp::Ge, len)),
            Some(j) => choices.push((j, RelOp::Eq, j)),
            None => {
                choices.extend((0..len).map(|k| (k, RelOp::Eq, k)));
                choices.push((-1, RelOp::Lt, 0));
                choices.push((len, RelOp::Ge, len));
            }
        }
        for (k, op, bound) in choices {
            match Constraint::compare(&e, op, &LinExpr::constant(bound)).map(|t| self.settle(t)) {
                Some(Truth::Known(false)) => continue,
                Some(Truth::Known(true)) | None => {
                    // Known true only where the path's bounds pin the
                    // index; `None` (overflow) keeps the case, unconstrained.
                    out.push(self.index_outcome(site, k, len, vec![]));
                }
                Some(Truth::Depends(c)) => out.push(self.index_outcome(site, k, len, vec![c])),
            }
        }
        out
    }

    fn index_outcome(&self, site: SiteId, k: i64, len: i64, constraints: Vec<Constraint>) -> Outcome<u32> {
        Outcome {
            decisions: vec![Decision::Index(site, k)],
            constraints,
            result: if (0..len).contains(&k) { Ok(k as u32) } else { Err(site) },
        }
    }

    /// Resolves a place to its slot (splitting a non-constant index).
    pub fn place(&mut self, pl: &Place) -> Vec<Outcome<Slot>> {
        match &pl.index {
            None => vec![Outcome::ok((pl.var, 0))],
            Some((idx, site)) => {
                let i = self.expr(idx);
                let (v, site) = (pl.var, *site);
                self.then(i, |ev, iv| {
                    ev.index(v, site, iv)
                        .into_iter()
                        .map(|o| Outcome {
                            decisions: o.decisions,
                            constraints: o.constraints,
                            result: o.result.map(|k| (v, k)),
                        })
                        .collect()
                })
            }
        }
    }

    /// The truth of an atom.
    pub fn atom(&mut self, a: &Atom) -> Vec<Outcome<Truth>> {
        let l = self.expr(&a.lhs);
        let rhs = a.rhs.clone();
        let op = a.op;
        self.then(l, move |ev, lv| {
            let r = ev.expr(&rhs);
            ev.then(r, |ev, rv| {
                let t = match Constraint::compare(&lv.lin(), op, &rv.lin()) {
                    Some(t) => ev.settle(t),
                    // Overflow while comparing: treat the comparison as unknown.
                    None => {
                        let s = ev.env.fresh_alpha(ev.node, AlphaDef::Opaque);
                        match Constraint::compare(&LinExpr::sym(s), RelOp::Ne, &LinExpr::constant(0)) {
                            Some(t) => t,
                            None => Truth::Known(true),
                        }
                    }
                };
                vec![Outcome::ok(t)]
            })
        })
    }
}
