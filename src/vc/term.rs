//! Terms and formulas of the guarded commands, and their meaning in Z3: the
//! one place that says what an operation means (mathematical integers, C's
//! truncating `/` and `%`, arrays as Z3 arrays). A wrap-around or
//! conversion operation belongs here too, translated exactly.

use super::bits::BitCache;
use crate::ir::float::FloatOp;
use crate::ir::{ArithOp, BitOp, IntType, RelOp, VarId};
use z3::ast::{Array, Bool, Int, BV};

/// Variables of the other frames never mix: the frame of global storage.
pub const GLOBAL: u32 = u32::MAX;

/// The frame of quantified variables (`VarId` is the variable's number).
pub const BOUND: u32 = u32::MAX - 1;

/// A variable in one frame (an inlined call), or in global storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarKey {
    pub var: VarId,
    pub frame: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    Const(i64),
    Var(VarKey),
    Select(VarKey, Box<Term>),
    Neg(Box<Term>),
    Arith(ArithOp, Box<Term>, Box<Term>),
    /// `/` (or `%` when `rem`), truncating toward zero as C does.
    Div {
        num: Box<Term>,
        den: Box<Term>,
        rem: bool,
    },
    /// `a op b` in `ty` (`BitOp::apply`, where it is defined): exact, in
    /// linear integer arithmetic over the operands' bits (`bits.rs`).
    Bit {
        op: BitOp,
        ty: IntType,
        a: Box<Term>,
        b: Box<Term>,
    },
    /// A value nothing constrains (numbered: one per draw).
    Fresh(u32),
    /// A C conversion (`IntType::convert`): `lo + (arg - lo) mod 2^bits`.
    Conv {
        arg: Box<Term>,
        lo: i64,
        bits: u32,
    },
    /// A floating-point operation (`float::apply`), in Z3's floating-point
    /// theory over the operands' bits (`ir::float_z3`).
    Float {
        op: FloatOp,
        ty: IntType,
        args: Vec<Term>,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Formula {
    Bool(bool),
    Rel(RelOp, Term, Term),
    Not(Box<Formula>),
    And(Vec<Formula>),
    Or(Vec<Formula>),
    /// Holds when candidate invariant `n` is switched off (Houdini), else
    /// the formula.
    Enabled(usize, Box<Formula>),
    /// `\forall`/`\exists` over an integer variable (a key of the `BOUND`
    /// frame), from contracts.
    Quant {
        forall: bool,
        var: VarKey,
        body: Box<Formula>,
    },
}

impl Term {
    /// When `a op b` in `ty` is defined (`BitOp::apply` is `Some`): a shift
    /// amount in `0..bits`, and for a `strict` `<<` a non-negative value
    /// whose bits above the top `b` are clear (`a >> (bits - 1 - b) == 0`).
    pub fn bit_defined(op: BitOp, ty: IntType, strict: bool, a: &Term, b: &Term) -> Formula {
        if !op.is_shift() {
            return Formula::Bool(true);
        }
        let top = ty.bits() as i64 - 1;
        let mut parts = vec![Formula::in_range(b, (0, top))];
        if strict && op == BitOp::Shl && ty.is_signed() {
            let rest = Term::Arith(ArithOp::Sub, Box::new(Term::Const(top)), Box::new(b.clone()));
            let high = Term::Bit {
                op: BitOp::Shr,
                ty,
                a: Box::new(a.clone()),
                b: Box::new(rest),
            };
            parts.push(Formula::Rel(RelOp::Ge, a.clone(), Term::Const(0)));
            parts.push(Formula::Rel(RelOp::Eq, high, Term::Const(0)));
        }
        Formula::And(parts)
    }
}

impl Term {
    /// The term with the scalar `from` read as `to` (array keys stay).
    pub fn rename(&self, from: VarKey, to: VarKey) -> Term {
        let r = |t: &Term| Box::new(t.rename(from, to));
        match self {
            Term::Var(k) if *k == from => Term::Var(to),
            Term::Const(_) | Term::Var(_) | Term::Fresh(_) => self.clone(),
            Term::Select(a, i) => Term::Select(*a, r(i)),
            Term::Neg(x) => Term::Neg(r(x)),
            Term::Arith(op, a, b) => Term::Arith(*op, r(a), r(b)),
            Term::Div { num, den, rem } => Term::Div {
                num: r(num),
                den: r(den),
                rem: *rem,
            },
            Term::Bit { op, ty, a, b } => Term::Bit {
                op: *op,
                ty: *ty,
                a: r(a),
                b: r(b),
            },
            Term::Conv { arg, lo, bits } => Term::Conv {
                arg: r(arg),
                lo: *lo,
                bits: *bits,
            },
            Term::Float { op, ty, args } => Term::Float {
                op: *op,
                ty: *ty,
                args: args.iter().map(|a| a.rename(from, to)).collect(),
            },
        }
    }
}

impl Formula {
    /// The formula with the scalar `from` read as `to`.
    pub fn rename(&self, from: VarKey, to: VarKey) -> Formula {
        let r = |f: &Formula| f.rename(from, to);
        match self {
            Formula::Bool(_) => self.clone(),
            Formula::Rel(op, a, b) => Formula::Rel(*op, a.rename(from, to), b.rename(from, to)),
            Formula::Not(x) => Formula::Not(Box::new(r(x))),
            Formula::And(xs) => Formula::And(xs.iter().map(r).collect()),
            Formula::Or(xs) => Formula::Or(xs.iter().map(r).collect()),
            Formula::Enabled(n, x) => Formula::Enabled(*n, Box::new(r(x))),
            Formula::Quant { forall, var, body } => Formula::Quant {
                forall: *forall,
                var: *var,
                body: Box::new(if *var == from { (**body).clone() } else { r(body) }),
            },
        }
    }

    /// `lo <= t <= hi`.
    pub fn in_range(t: &Term, (lo, hi): (i64, i64)) -> Formula {
        Formula::And(vec![
            Formula::Rel(RelOp::Ge, t.clone(), Term::Const(lo)),
            Formula::Rel(RelOp::Le, t.clone(), Term::Const(hi)),
        ])
    }

    /// The term and range of an `in_range` formula.
    pub fn as_range(&self) -> Option<(&Term, (i64, i64))> {
        match self {
            Formula::And(parts) => match parts.as_slice() {
                [Formula::Rel(RelOp::Ge, t, Term::Const(lo)), Formula::Rel(RelOp::Le, u, Term::Const(hi))]
                    if t == u =>
                {
                    Some((t, (*lo, *hi)))
                }
                _ => None,
            },
            _ => None,
        }
    }
}

/// A variable's value in Z3: a scalar, an array, or the bits of a
/// floating scalar (32 for a `float`, 64 for a `double`: `float.rs`).
#[derive(Clone)]
pub enum Val {
    Int(Int),
    Arr(Array),
    Bits(BV),
}

impl Val {
    /// As a scalar (an array read as one stands for its element 0).
    pub fn into_int(self) -> Int {
        match self {
            Val::Int(i) => i,
            Val::Arr(a) => a.select(&Int::from_i64(0)).as_int().expect("an integer array"),
            Val::Bits(b) => super::float::to_int(&b),
        }
    }

    /// As 64 bits (`float::bits`).
    pub fn into_bits(self) -> BV {
        match self {
            Val::Bits(b) => super::float::widen(&b),
            v => super::float::of_int(&v.into_int()),
        }
    }

    /// The same Z3 term (no query).
    pub fn same(&self, other: &Val) -> bool {
        match (self, other) {
            (Val::Int(a), Val::Int(b)) => a == b,
            (Val::Arr(a), Val::Arr(b)) => a == b,
            (Val::Bits(a), Val::Bits(b)) => a == b,
            _ => false,
        }
    }

    /// The formula that the two are equal (false for a scalar and an array).
    pub fn equals(&self, other: &Val) -> Bool {
        match (self, other) {
            (Val::Int(a), Val::Int(b)) => a.eq(b),
            (Val::Arr(a), Val::Arr(b)) => a.eq(b),
            (Val::Bits(a), v) | (v, Val::Bits(a)) if !matches!(v, Val::Arr(_)) => {
                let b = super::float::narrow(&v.clone().into_bits(), a.get_size());
                a.eq(&b)
            }
            _ => Bool::from_bool(false),
        }
    }

    /// As an array (a scalar read as one stands for the constant array).
    pub fn into_array(self) -> Array {
        match self {
            Val::Arr(a) => a,
            v => Array::const_array(&z3::Sort::int(), &v.into_int()),
        }
    }
}

/// Where terms find the current value of a variable.
pub trait Env {
    fn int(&mut self, k: VarKey) -> Int;
    /// A scalar's value as 64 bits (`float::bits`).
    fn bits(&mut self, k: VarKey) -> BV {
        super::float::of_int(&self.int(k))
    }
    fn array(&mut self, k: VarKey) -> Array;
    fn fresh(&mut self, n: u32) -> Int;
    /// The switch of candidate invariant `n`.
    fn enabled(&mut self, n: usize) -> Bool;
    /// What is known of values' bits, where drawn bits may be defined for
    /// every path (not inside a quantifier).
    fn bit_cache(&mut self) -> Option<&mut BitCache> {
        None
    }
    /// An index the VC reads an array at (for quantifier instances,
    /// `named.rs`; not inside a quantifier).
    fn index(&mut self, _i: &Int) {}
    /// Element `i` of array `k`.
    fn select(&mut self, k: VarKey, i: &Int) -> Int {
        self.array(k).select(i).as_int().expect("an integer array")
    }
}

pub fn int(t: &Term, env: &mut dyn Env) -> Int {
    match t {
        Term::Const(c) => Int::from_i64(*c),
        Term::Var(k) => env.int(*k),
        Term::Select(k, i) => {
            let i = int(i, env);
            env.index(&i);
            env.select(*k, &i)
        }
        Term::Neg(x) => int(x, env).unary_minus(),
        Term::Arith(op, a, b) => {
            let (a, b) = (int(a, env), int(b, env));
            // Constants fold (an unrolled loop's counter).
            if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
                let v = match op {
                    ArithOp::Add => x.checked_add(y),
                    ArithOp::Sub => x.checked_sub(y),
                    ArithOp::Mul => x.checked_mul(y),
                };
                if let Some(v) = v {
                    return Int::from_i64(v);
                }
            }
            match op {
                ArithOp::Add => Int::add(&[a, b]),
                ArithOp::Sub => Int::sub(&[a, b]),
                ArithOp::Mul => Int::mul(&[a, b]),
            }
        }
        Term::Div { num, den, rem } => {
            let (a, b) = (int(num, env), int(den, env));
            let zero = Int::from_i64(0);
            let abs = |x: &Int| x.ge(&zero).ite(x, &x.unary_minus());
            // |a| div |b| is C's quotient up to the sign (Z3's `div` floors,
            // which is truncation for non-negative operands).
            let q = abs(&a).div(abs(&b));
            let same_sign = a.ge(&zero).iff(b.gt(&zero));
            let quot = same_sign.ite(&q, &q.unary_minus());
            if *rem {
                Int::sub(&[a, Int::mul(&[b, quot])])
            } else {
                quot
            }
        }
        Term::Bit { op, ty, a, b } => {
            let (a, b) = (int(a, env), int(b, env));
            super::bits::bit_int(*op, *ty, &a, &b, env.bit_cache())
        }
        Term::Fresh(n) => env.fresh(*n),
        Term::Conv { arg, lo, bits } => {
            let (signed, lo_c) = (*lo < 0, *lo);
            let lo = Int::from_i64(*lo);
            let half = Int::from_u64(1u64 << (bits / 2));
            let m = Int::mul(&[
                half.clone(),
                if bits % 2 == 0 {
                    half
                } else {
                    Int::mul(&[half, Int::from_i64(2)])
                },
            ]);
            let x = int(arg, env);
            if let Some(c) = x.as_i64() {
                let v = lo_c as i128 + (c as i128 - lo_c as i128).rem_euclid(1i128 << bits);
                if let Ok(v) = i64::try_from(v) {
                    return Int::from_i64(v);
                }
            }
            let shifted = Int::sub(&[x.clone(), lo.clone()]);
            let out = Int::add(&[lo, shifted.modulo(&m)]);
            if let Some(cache) = env.bit_cache() {
                cache.converted(&out, &x, *bits, signed);
            }
            out
        }
        Term::Float { .. } => super::float::value(t, env),
    }
}

impl Term {
    /// When a floating operation is defined (`float::defined_by`: a
    /// conversion to an integer type, of a value in its range).
    pub fn float_defined(op: FloatOp, ty: IntType, arg: &Term) -> Formula {
        let FloatOp::ToInt(to) = op else {
            return Formula::Bool(true);
        };
        let (lo, hi) = crate::ir::float::int_bounds(ty, to);
        let whole = Term::Float {
            op: FloatOp::Math(crate::ir::float::MathFn::Trunc),
            ty,
            args: vec![arg.clone()],
        };
        let cmp = |r: RelOp, bound: i64| {
            let t = Term::Float {
                op: FloatOp::Cmp(r),
                ty,
                args: vec![whole.clone(), Term::Const(bound)],
            };
            Formula::Rel(RelOp::Eq, t, Term::Const(1))
        };
        Formula::And(vec![cmp(RelOp::Ge, lo), cmp(RelOp::Lt, hi)])
    }
}

pub fn formula(f: &Formula, env: &mut dyn Env) -> Bool {
    match f {
        Formula::Bool(b) => Bool::from_bool(*b),
        Formula::Rel(op, a, b) => {
            if let Some(f) = super::float::relation(*op, a, b, env) {
                return f;
            }
            let (a, b) = (int(a, env), int(b, env));
            // Constants fold (an unrolled loop's condition): the passive
            // form drops what follows a literal `false` (`passive::merge`).
            if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
                return Bool::from_bool(op.holds(x, y));
            }
            if matches!(op, RelOp::Eq | RelOp::Ne) {
                if let Some(same) = env.bit_cache().and_then(|c| c.equal(&a, &b)) {
                    return if *op == RelOp::Eq { same } else { same.not() };
                }
            }
            match op {
                RelOp::Eq => a.eq(&b),
                RelOp::Ne => a.eq(&b).not(),
                RelOp::Lt => a.lt(&b),
                RelOp::Le => a.le(&b),
                RelOp::Gt => a.gt(&b),
                RelOp::Ge => a.ge(&b),
            }
        }
        Formula::Not(x) => {
            let x = formula(x, env);
            match x.as_bool() {
                Some(b) => Bool::from_bool(!b),
                None => x.not(),
            }
        }
        Formula::And(xs) => {
            let xs: Vec<Bool> = xs.iter().map(|x| formula(x, env)).collect();
            Bool::and(&xs)
        }
        Formula::Or(xs) => {
            let xs: Vec<Bool> = xs.iter().map(|x| formula(x, env)).collect();
            Bool::or(&xs)
        }
        Formula::Enabled(n, x) => {
            let on = env.enabled(*n);
            on.implies(formula(x, env))
        }
        Formula::Quant { forall, var, body } => {
            let x = Int::fresh_const("q");
            let b = formula(
                body,
                &mut Binder {
                    env,
                    var: *var,
                    val: x.clone(),
                },
            );
            if *forall {
                z3::ast::forall_const(&[&x], &[], &b)
            } else {
                z3::ast::exists_const(&[&x], &[], &b)
            }
        }
    }
}

/// `body` with the bound `var` read as `val` (an instance of a quantifier).
pub fn instance(body: &Formula, var: VarKey, val: &Int, env: &mut dyn Env) -> Bool {
    formula(
        body,
        &mut Binder {
            env,
            var,
            val: val.clone(),
        },
    )
}

/// The environment inside a quantifier: its variable is bound.
struct Binder<'e> {
    env: &'e mut dyn Env,
    var: VarKey,
    val: Int,
}

impl Env for Binder<'_> {
    fn int(&mut self, k: VarKey) -> Int {
        if k == self.var {
            self.val.clone()
        } else {
            self.env.int(k)
        }
    }

    fn bits(&mut self, k: VarKey) -> BV {
        if k == self.var {
            super::float::of_int(&self.val)
        } else {
            self.env.bits(k)
        }
    }

    fn array(&mut self, k: VarKey) -> Array {
        self.env.array(k)
    }

    fn fresh(&mut self, n: u32) -> Int {
        self.env.fresh(n)
    }

    fn enabled(&mut self, n: usize) -> Bool {
        self.env.enabled(n)
    }
}
