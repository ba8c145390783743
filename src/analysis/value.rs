//! Symbolic values: integers, linear expressions over symbols, and linear
//! constraints over them.
//!
//! A symbol is an input of the run, a non-deterministic draw, or an
//! *abstraction symbol* (alpha): a value the analysis chose not to track
//! exactly (a non-linear result, a variable widened at a loop head).

use crate::ir::float::FloatOp;
use crate::ir::{BitOp, IntType};
use crate::ir::{NodeId, ProcId, RelOp};
use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

/// Why an abstraction symbol exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AlphaKey {
    /// The result of a non-linear operation at a node.
    Op(NodeId),
    /// A variable slot widened at a loop head.
    Widen(NodeId, u32),
    /// A parameter or global widened at a deep recursive call.
    Recursion(ProcId, u32),
}

/// What an abstraction symbol made for an operation stands for, so an exact
/// execution can tell its true value once the symbols below it have values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum AlphaDef {
    /// `a * b`.
    Mul(LinExpr, LinExpr),
    /// `num / den`, or `num % den` when `rem` (C: truncating).
    Div { num: LinExpr, den: LinExpr, rem: bool },
    /// A C conversion of `arg` to an integer type (modulo 2^bits).
    Conv(LinExpr, IntType),
    /// `a op b` in a type (`BitOp::apply`, where defined).
    Bit(BitOp, IntType, LinExpr, LinExpr),
    /// A helper the path's constraints pin down (the quotient `q` of a
    /// conversion's `r = v - 2^bits * q`): any value they allow is exact.
    Quotient,
    /// Not an operation the executor can redo (an overflow).
    Opaque,
    /// A floating-point operation (`float::apply`) on its operands' values
    /// (bit patterns); `true` when it is a checked conversion, defined
    /// on the path (its undefined case stops the run).
    Float(FloatOp, IntType, Vec<LinExpr>, bool),
}

impl AlphaDef {
    /// The symbols the operation reads.
    pub fn syms(&self) -> Vec<Sym> {
        match self {
            AlphaDef::Mul(a, b) | AlphaDef::Div { num: a, den: b, .. } | AlphaDef::Bit(_, _, a, b) => {
                a.syms().chain(b.syms()).collect()
            }
            AlphaDef::Conv(a, _) => a.syms().collect(),
            AlphaDef::Float(_, _, args, _) => args.iter().flat_map(LinExpr::syms).collect(),
            AlphaDef::Quotient | AlphaDef::Opaque => Vec::new(),
        }
    }

    /// The concrete value for values of the symbols it reads (`None`: the
    /// operation fails or overflows, or it is opaque).
    pub fn eval(&self, f: &mut dyn FnMut(Sym) -> i64) -> Option<i64> {
        match self {
            AlphaDef::Mul(a, b) => a.eval(f)?.checked_mul(b.eval(f)?),
            AlphaDef::Div { num, den, rem } => {
                let (n, d) = (num.eval(f)?, den.eval(f)?);
                if *rem {
                    n.checked_rem(d)
                } else {
                    n.checked_div(d)
                }
            }
            AlphaDef::Conv(a, t) => i64::try_from(t.convert(a.eval(f)? as i128)).ok(),
            AlphaDef::Bit(op, t, a, b) => {
                i64::try_from(op.apply(*t, a.eval(f)? as i128, b.eval(f)? as i128, false)?).ok()
            }
            AlphaDef::Float(op, ty, args, checked) => {
                let vals = args.iter().map(|a| a.eval(f)).collect::<Option<Vec<i64>>>()?;
                match crate::ir::float::apply(*op, *ty, &vals) {
                    Ok(v) => Some(v),
                    Err(v) => (!checked).then_some(v),
                }
            }
            AlphaDef::Quotient | AlphaDef::Opaque => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sym {
    /// The initial value of input number k (`Program::input_slots` order).
    Input(u32),
    /// A value drawn by `nondet()` (or an uninitialised local) at a node; the
    /// instance tells apart draws alive at the same time.
    Draw(NodeId, u32),
    Alpha(AlphaKey, u32),
}

impl Sym {
    /// The range of the symbol's values: an input's is its type's, a draw
    /// is a value of the type its `Havoc` draws, an abstraction symbol is
    /// unbounded.
    pub fn range(self, cx: &crate::context::Context) -> (i64, i64) {
        match self {
            Sym::Input(k) => cx.input_ranges[k as usize],
            Sym::Draw(n, _) => match &cx.p.node(n).kind {
                crate::ir::NodeKind::Havoc { ty, .. } => ty.range(),
                _ => (i64::MIN, i64::MAX),
            },
            Sym::Alpha(..) => (i64::MIN, i64::MAX),
        }
    }

    pub fn is_alpha(self) -> bool {
        matches!(self, Sym::Alpha(..))
    }

    /// The same symbol with another instance number (inputs have none).
    pub fn with_instance(self, inst: u32) -> Sym {
        match self {
            Sym::Input(k) => Sym::Input(k),
            Sym::Draw(n, _) => Sym::Draw(n, inst),
            Sym::Alpha(k, _) => Sym::Alpha(k, inst),
        }
    }

    pub fn instance(self) -> u32 {
        match self {
            Sym::Input(_) => 0,
            Sym::Draw(_, i) | Sym::Alpha(_, i) => i,
        }
    }

    /// Symbols of one family share all but the instance.
    pub fn family(self) -> Sym {
        self.with_instance(0)
    }
}

/// `c + sum(k_i * s_i)`, terms sorted by symbol, no zero coefficients.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinExpr {
    pub c: i64,
    pub terms: Vec<(Sym, i64)>,
}

/// A value: an integer, or a linear expression over symbols.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Value {
    Const(i64),
    Lin(Arc<LinExpr>),
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Const(c) => write!(f, "{c}"),
            Value::Lin(l) => write!(f, "{l:?}"),
        }
    }
}

impl Default for Value {
    fn default() -> Self {
        Value::Const(0)
    }
}

impl LinExpr {
    pub fn constant(c: i64) -> LinExpr {
        LinExpr { c, terms: Vec::new() }
    }

    pub fn sym(s: Sym) -> LinExpr {
        LinExpr {
            c: 0,
            terms: vec![(s, 1)],
        }
    }

    pub fn is_const(&self) -> bool {
        self.terms.is_empty()
    }

    /// `a*self + b*other`, or `None` on overflow.
    pub fn combine(&self, a: i64, other: &LinExpr, b: i64) -> Option<LinExpr> {
        let mut terms = Vec::with_capacity(self.terms.len() + other.terms.len());
        let (mut i, mut j) = (0, 0);
        while i < self.terms.len() || j < other.terms.len() {
            let next = match (self.terms.get(i), other.terms.get(j)) {
                (Some(&(s, k)), Some(&(t, l))) => match s.cmp(&t) {
                    Ordering::Less => {
                        i += 1;
                        (s, k.checked_mul(a)?)
                    }
                    Ordering::Greater => {
                        j += 1;
                        (t, l.checked_mul(b)?)
                    }
                    Ordering::Equal => {
                        i += 1;
                        j += 1;
                        (s, k.checked_mul(a)?.checked_add(l.checked_mul(b)?)?)
                    }
                },
                (Some(&(s, k)), None) => {
                    i += 1;
                    (s, k.checked_mul(a)?)
                }
                (None, Some(&(t, l))) => {
                    j += 1;
                    (t, l.checked_mul(b)?)
                }
                (None, None) => unreachable!("loop condition"),
            };
            if next.1 != 0 {
                terms.push(next);
            }
        }
        let c = self.c.checked_mul(a)?.checked_add(other.c.checked_mul(b)?)?;
        Some(LinExpr { c, terms })
    }

    pub fn scale(&self, k: i64) -> Option<LinExpr> {
        if k == 0 {
            return Some(LinExpr::constant(0));
        }
        let mut terms = Vec::with_capacity(self.terms.len());
        for &(s, a) in &self.terms {
            terms.push((s, a.checked_mul(k)?));
        }
        Some(LinExpr {
            c: self.c.checked_mul(k)?,
            terms,
        })
    }

    pub fn syms(&self) -> impl Iterator<Item = Sym> + '_ {
        self.terms.iter().map(|t| t.0)
    }

    pub fn has_alpha(&self) -> bool {
        self.terms.iter().any(|t| t.0.is_alpha())
    }

    /// Replaces symbols by expressions (`None` in `f`: keep the symbol).
    pub fn substitute(&self, f: &mut dyn FnMut(Sym) -> Option<LinExpr>) -> Option<LinExpr> {
        let mut out = LinExpr::constant(self.c);
        for &(s, k) in &self.terms {
            let e = f(s).unwrap_or_else(|| LinExpr::sym(s));
            out = out.combine(1, &e, k)?;
        }
        Some(out)
    }

    pub fn eval(&self, f: &mut dyn FnMut(Sym) -> i64) -> Option<i64> {
        let mut v = self.c;
        for &(s, k) in &self.terms {
            v = v.checked_add(k.checked_mul(f(s))?)?;
        }
        Some(v)
    }
}

impl Value {
    pub fn from_lin(e: LinExpr) -> Value {
        if e.terms.is_empty() {
            Value::Const(e.c)
        } else {
            Value::Lin(Arc::new(e))
        }
    }

    pub fn sym(s: Sym) -> Value {
        Value::from_lin(LinExpr::sym(s))
    }

    pub fn as_const(&self) -> Option<i64> {
        match self {
            Value::Const(c) => Some(*c),
            Value::Lin(_) => None,
        }
    }

    pub fn lin(&self) -> LinExpr {
        match self {
            Value::Const(c) => LinExpr::constant(*c),
            Value::Lin(l) => (**l).clone(),
        }
    }

    pub fn syms(&self) -> Vec<Sym> {
        match self {
            Value::Const(_) => Vec::new(),
            Value::Lin(l) => l.syms().collect(),
        }
    }

    pub fn has_alpha(&self) -> bool {
        match self {
            Value::Const(_) => false,
            Value::Lin(l) => l.has_alpha(),
        }
    }
}

/// How a constraint compares its expression with zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cmp {
    /// `e <= 0`
    Le,
    /// `e == 0`
    Eq,
    /// `e != 0`
    Ne,
}

/// A linear constraint `e cmp 0`, normalised: coefficients divided by their
/// gcd (bounds tightened over the integers), the first coefficient positive
/// for `==`/`!=`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Constraint {
    pub e: LinExpr,
    pub cmp: Cmp,
}

/// The truth of a comparison: known, or a constraint on symbols.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Truth {
    Known(bool),
    /// The comparison holds exactly when the constraint does.
    Depends(Constraint),
}

fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a as i64
}

impl Constraint {
    /// `lhs op rhs` as a normalised constraint, or its truth if constant.
    pub fn compare(lhs: &LinExpr, op: RelOp, rhs: &LinExpr) -> Option<Truth> {
        let d = lhs.combine(1, rhs, -1)?;
        let (e, cmp) = match op {
            RelOp::Le => (d, Cmp::Le),
            RelOp::Lt => (d.combine(1, &LinExpr::constant(1), 1)?, Cmp::Le),
            RelOp::Ge => (d.scale(-1)?, Cmp::Le),
            RelOp::Gt => (d.scale(-1)?.combine(1, &LinExpr::constant(1), 1)?, Cmp::Le),
            RelOp::Eq => (d, Cmp::Eq),
            RelOp::Ne => (d, Cmp::Ne),
        };
        Constraint { e, cmp }.normalise()
    }

    /// `None` when a number leaves the 64-bit range.
    fn normalise(mut self) -> Option<Truth> {
        if self.e.terms.is_empty() {
            let c = self.e.c;
            return Some(Truth::Known(match self.cmp {
                Cmp::Le => c <= 0,
                Cmp::Eq => c == 0,
                Cmp::Ne => c != 0,
            }));
        }
        let g = self.e.terms.iter().fold(0, |g, t| gcd(g, t.1));
        if g > 1 {
            for t in &mut self.e.terms {
                t.1 /= g;
            }
            match self.cmp {
                // sum + c <= 0  <=>  sum/g <= -c/g  <=>  sum/g + ceil(c/g) <= 0
                Cmp::Le => self.e.c = div_ceil(self.e.c, g),
                Cmp::Eq | Cmp::Ne => {
                    if self.e.c % g != 0 {
                        return Some(Truth::Known(self.cmp == Cmp::Ne));
                    }
                    self.e.c /= g;
                }
            }
        }
        if self.cmp != Cmp::Le && self.e.terms[0].1 < 0 {
            self.e = self.e.scale(-1)?;
        }
        Some(Truth::Depends(self))
    }

    /// The constraint that holds exactly when this one does not.
    pub fn negate(&self) -> Constraint {
        match self.cmp {
            Cmp::Eq => Constraint {
                e: self.e.clone(),
                cmp: Cmp::Ne,
            },
            Cmp::Ne => Constraint {
                e: self.e.clone(),
                cmp: Cmp::Eq,
            },
            // not(e <= 0)  <=>  e >= 1  <=>  -e + 1 <= 0
            Cmp::Le => Constraint {
                e: self
                    .e
                    .scale(-1)
                    .and_then(|x| x.combine(1, &LinExpr::constant(1), 1))
                    .expect("normalised constraints have room to negate"),
                cmp: Cmp::Le,
            },
        }
    }

    pub fn has_alpha(&self) -> bool {
        self.e.has_alpha()
    }

    pub fn holds(&self, f: &mut dyn FnMut(Sym) -> i64) -> Option<bool> {
        let v = self.e.eval(f)?;
        Some(match self.cmp {
            Cmp::Le => v <= 0,
            Cmp::Eq => v == 0,
            Cmp::Ne => v != 0,
        })
    }
}

impl Truth {
    /// The truth of the negated comparison.
    pub fn negate(&self) -> Truth {
        match self {
            Truth::Known(b) => Truth::Known(!b),
            Truth::Depends(c) => Truth::Depends(c.negate()),
        }
    }
}

fn div_ceil(a: i64, b: i64) -> i64 {
    let q = a / b;
    if a % b != 0 && ((a > 0) == (b > 0)) {
        q + 1
    } else {
        q
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn x() -> LinExpr {
        LinExpr::sym(Sym::Input(0))
    }
    fn y() -> LinExpr {
        LinExpr::sym(Sym::Input(1))
    }

    #[test]
    fn strict_and_non_strict_comparisons_normalise_alike() {
        // y < x and x > y are one constraint.
        let a = Constraint::compare(&y(), RelOp::Lt, &x());
        let b = Constraint::compare(&x(), RelOp::Gt, &y());
        assert_eq!(a, b);
        assert!(matches!(a, Some(Truth::Depends(_))));
    }

    #[test]
    fn gcd_tightens_bounds_and_decides_equalities() {
        // 2x <= 3  <=>  x <= 1
        let two_x = x().scale(2).unwrap();
        let c = Constraint::compare(&two_x, RelOp::Le, &LinExpr::constant(3));
        let d = Constraint::compare(&x(), RelOp::Le, &LinExpr::constant(1));
        assert_eq!(c, d);
        // 2x == 3 never holds.
        assert_eq!(
            Constraint::compare(&two_x, RelOp::Eq, &LinExpr::constant(3)),
            Some(Truth::Known(false))
        );
    }

    #[test]
    fn negation_is_exact_over_integers() {
        let Some(Truth::Depends(c)) = Constraint::compare(&x(), RelOp::Gt, &y()) else {
            panic!("x > y depends on x and y")
        };
        let n = c.negate();
        for (a, b) in [(0, 0), (1, 0), (0, 1), (-3, 5)] {
            let mut f = |s: Sym| if s == Sym::Input(0) { a } else { b };
            assert_eq!(c.holds(&mut f), Some(a > b));
            assert_eq!(n.holds(&mut f), Some(a <= b));
        }
    }

    #[test]
    fn constant_comparisons_are_known() {
        let e = x().combine(1, &x(), -1).unwrap();
        assert_eq!(
            Constraint::compare(&e, RelOp::Eq, &LinExpr::constant(0)),
            Some(Truth::Known(true))
        );
    }
}
