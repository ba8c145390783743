//! Exact models of a path in bit-vectors, for the paths the linear search
//! of `refine.rs` cannot settle (it pins both operands of a bitwise
//! operation at their model values, so a path through `a >> 8`, `& 255`
//! and casts to `unsigned char` of inputs is seldom solved that way).
//!
//! Every symbol is a bit-vector with its range asserted (its type's,
//! narrowed by the path's bounds on it alone), and the width is enough
//! that no linear expression of the path wraps (so each keeps its integer
//! meaning); an operation's symbol is defined by the operation
//! itself, in 64 bits or in its C type's width, as `AlphaDef::eval` does
//! it. Z3 decides the whole path at once, within a resource limit (the
//! answer does not depend on the machine's load). A model is believed only
//! after `refine::check` has redone its operations; "no model" is believed
//! only where every operation on the path is total (a conversion, a
//! bitwise operation, a shift by a constant, a division by a constant):
//! elsewhere a run could leave the encoding (an overflowing product) and
//! the answer stays open.

use super::lp;
use super::refine::{self, Exact, Exactness};
use super::value::{AlphaDef, Cmp, Constraint, LinExpr, Sym};
use crate::ir::{BitOp, IntType};
use std::collections::BTreeMap;
use z3::ast::{Bool, BV};
use z3::{SatResult, Solver};

/// Z3's resource limit for one path (its deterministic `rlimit` count):
/// half the VC engine's per query. A path is one conjunction without
/// quantifiers, which Z3 bit-blasts: SV-COMP's `byte_add` paths (about 150
/// constraints over bytes cut out of two inputs) took 60 to 130 ms each.
const RLIMIT: u32 = 2_000_000;

/// Searches for a model of `cons` whose operations `alphas` are exact.
pub fn exact_model(cons: &[Constraint], alphas: &[(Sym, AlphaDef)], range: &dyn Fn(Sym) -> (i64, i64)) -> Exact {
    let relevant = refine::relevant(cons, alphas);
    let defs: Vec<&(Sym, AlphaDef)> = alphas.iter().filter(|(s, _)| relevant.contains(s)).collect();
    if defs.iter().any(|(_, d)| multiplies_unknowns(d)) {
        return Exact::Unknown("a product or a division of unknowns (left to the linear search)");
    }
    let def_of: BTreeMap<Sym, &AlphaDef> = defs.iter().map(|(s, d)| (*s, d)).collect();
    let typed = |s: Sym| typed_range(s, def_of.get(&s).copied(), range);
    let narrowed = lp::bounds(cons.iter(), &typed);
    let bounds = |s: Sym| narrowed.get(&s).copied().unwrap_or_else(|| typed(s));
    let width = width(
        cons.iter()
            .map(|c| &c.e)
            .chain(defs.iter().flat_map(|(_, d)| operands(d))),
        &|s| {
            let (lo, hi) = bounds(s);
            (lo as f64).abs().max((hi as f64).abs())
        },
    );
    let mut enc = Encoding {
        width,
        syms: BTreeMap::new(),
        facts: Vec::new(),
        total: true,
    };
    for c in cons {
        let e = enc.lin(&c.e);
        let zero = BV::from_i64(0, width);
        let f = match c.cmp {
            Cmp::Le => e.bvsle(&zero),
            Cmp::Eq => e.eq(&zero),
            Cmp::Ne => e.eq(&zero).not(),
        };
        enc.facts.push(f);
    }
    for (s, def) in &defs {
        if *def == AlphaDef::Quotient {
            continue;
        }
        let v = enc.sym(*s);
        match enc.define(def) {
            Some(d) => {
                let f = v.eq(&d);
                enc.facts.push(f);
            }
            None => enc.total = false,
        }
    }
    let syms: Vec<Sym> = enc.syms.keys().copied().collect();
    for s in &syms {
        let (lo, hi) = bounds(*s);
        let v = enc.sym(*s);
        let f = Bool::and(&[v.bvsge(BV::from_i64(lo, width)), v.bvsle(BV::from_i64(hi, width))]);
        enc.facts.push(f);
    }
    let floats = defs.iter().any(|(_, d)| matches!(d, AlphaDef::Float(..)));
    let solver = Solver::new_for_logic(if floats { "QF_FPBV" } else { "QF_BV" }).unwrap_or_default();
    let mut params = z3::Params::new();
    params.set_u32("rlimit", RLIMIT);
    solver.set_params(&params);
    for f in &enc.facts {
        solver.assert(f);
    }
    match solver.check() {
        SatResult::Unsat if enc.total => Exact::Infeasible,
        SatResult::Unsat => Exact::Unknown("a path through an operation that may overflow has no model in bit-vectors"),
        SatResult::Unknown => Exact::Unknown("the bit-vector solver reached its resource limit"),
        SatResult::Sat => {
            let Some(m) = solver.get_model() else {
                return Exact::Unknown("the bit-vector solver gave no model");
            };
            let mut model = BTreeMap::new();
            for (s, v) in &enc.syms {
                let low = if enc.width == 64 { v.clone() } else { v.extract(63, 0) };
                let Some(x) = m.eval(&low, true).and_then(|x| x.as_u64()) else {
                    return Exact::Unknown("the bit-vector solver gave no model");
                };
                model.insert(*s, x as i64);
            }
            let value = |s: Sym| {
                let (lo, hi) = range(s);
                model.get(&s).copied().unwrap_or(0).clamp(lo, hi)
            };
            // Helper symbols are never asked for: the model is exact or not.
            let mut fresh = |s: Sym| s;
            match refine::check(&model, &value, alphas, cons, &mut fresh) {
                Exactness::Exact => Exact::Model(model),
                _ => Exact::Unknown("the bit-vector model did not check out"),
            }
        }
    }
}

/// A product of two unknowns or a division by one: a 64-bit multiplier or
/// divider for the bit-blaster, which on such paths ran into the resource
/// limit (1.3 s each) without an answer, and no "none" could be believed
/// anyway (the operation may overflow or divide by zero).
fn multiplies_unknowns(def: &AlphaDef) -> bool {
    match def {
        AlphaDef::Mul(a, b) => !a.is_const() && !b.is_const(),
        AlphaDef::Div { den, .. } => !den.is_const(),
        _ => false,
    }
}

fn operands(def: &AlphaDef) -> Vec<&LinExpr> {
    match def {
        AlphaDef::Mul(a, b) | AlphaDef::Div { num: a, den: b, .. } | AlphaDef::Bit(_, _, a, b) => vec![a, b],
        AlphaDef::Conv(a, _) => vec![a],
        AlphaDef::Float(_, _, args, _) => args.iter().collect(),
        AlphaDef::Quotient | AlphaDef::Opaque => Vec::new(),
    }
}

/// Bits enough for every expression's value, with each symbol bounded by
/// its range (an operation's by its type's): `|c| + sum |k| * |s|` below
/// `2^(width-1)`, and at least 64 (operands are computed in 64 bits).
fn width<'e>(exprs: impl Iterator<Item = &'e LinExpr>, magnitude: &dyn Fn(Sym) -> f64) -> u32 {
    let mut most: f64 = 1.0;
    for e in exprs {
        let mut bound = (e.c as f64).abs();
        for (s, k) in &e.terms {
            bound += (*k as f64).abs() * magnitude(*s);
        }
        most = most.max(bound);
    }
    (most.log2().ceil() as u32 + 2).max(64)
}

/// The range of a symbol's values: an input's or draw's from `range`, an
/// operation's from its type.
fn typed_range(s: Sym, def: Option<&AlphaDef>, range: &dyn Fn(Sym) -> (i64, i64)) -> (i64, i64) {
    match def {
        None if !s.is_alpha() => range(s),
        Some(AlphaDef::Conv(_, t) | AlphaDef::Bit(_, t, ..)) => t.range(),
        Some(AlphaDef::Float(op, ty, ..)) => crate::ir::float::result_range(*op, *ty),
        _ => (i64::MIN, i64::MAX),
    }
}

struct Encoding {
    width: u32,
    syms: BTreeMap<Sym, BV>,
    facts: Vec<Bool>,
    /// Every operation is encoded for all its operands (no run leaves it).
    total: bool,
}

impl Encoding {
    fn sym(&mut self, s: Sym) -> BV {
        let width = self.width;
        let n = self.syms.len();
        self.syms
            .entry(s)
            .or_insert_with(|| BV::new_const(format!("s{n}"), width))
            .clone()
    }

    fn lin(&mut self, e: &LinExpr) -> BV {
        let mut v = BV::from_i64(e.c, self.width);
        for &(s, k) in &e.terms {
            let t = self.sym(s).bvmul(BV::from_i64(k, self.width));
            v = v.bvadd(&t);
        }
        v
    }

    /// `e` as a 64-bit value, with the fact that it is one (an operand a
    /// run computes in `i64`, as `AlphaDef::eval` does).
    fn operand(&mut self, e: &LinExpr) -> BV {
        let v = self.lin(e);
        if self.width == 64 {
            return v;
        }
        let low = v.extract(63, 0);
        let f = low.sign_ext(self.width - 64).eq(&v);
        self.facts.push(f);
        low
    }

    /// A 64-bit value, widened.
    fn widen(&self, v: &BV, signed: bool) -> BV {
        let by = self.width - v.get_size();
        if by == 0 {
            v.clone()
        } else if signed {
            v.sign_ext(by)
        } else {
            v.zero_ext(by)
        }
    }

    /// The value of an operation, or `None` for an opaque one.
    fn define(&mut self, def: &AlphaDef) -> Option<BV> {
        let k64 = |k: i64| BV::from_i64(k, 64);
        match def {
            AlphaDef::Quotient | AlphaDef::Opaque => None,
            AlphaDef::Mul(a, b) => {
                let (x, y) = (self.operand(a), self.operand(b));
                // A run whose product overflows leaves the encoding.
                self.total = false;
                let fits = Bool::and(&[x.bvmul_no_overflow(&y, true), x.bvmul_no_underflow(&y)]);
                self.facts.push(fits);
                Some(self.widen(&x.bvmul(&y), true))
            }
            AlphaDef::Div { num, den, rem } => {
                let (n, d) = (self.operand(num), self.operand(den));
                // `den` is a constant here (`multiplies_unknowns`).
                if den.c == 0 || den.c == -1 {
                    self.total = false;
                }
                let defined = Bool::and(&[
                    d.eq(k64(0)).not(),
                    Bool::and(&[n.eq(k64(i64::MIN)), d.eq(k64(-1))]).not(),
                ]);
                self.facts.push(defined);
                let r = if *rem { n.bvsrem(&d) } else { n.bvsdiv(&d) };
                Some(self.widen(&r, true))
            }
            AlphaDef::Conv(a, t) => {
                let x = self.operand(a);
                Some(self.convert(&x, *t))
            }
            AlphaDef::Bit(op, t, a, b) => {
                let (x, y) = (self.operand(a), self.operand(b));
                self.bit(*op, *t, &x, &y, b.is_const().then_some(b.c))
            }
            AlphaDef::Float(op, ty, args, checked) => {
                if *op == crate::ir::float::FloatOp::ToInt(IntType::ULongLong) {
                    // Beyond `i64`: not a value the analysis holds.
                    self.total = false;
                }
                let xs: Vec<BV> = args.iter().map(|a| self.operand(a)).collect();
                if *checked {
                    let ok = crate::ir::float_z3::defined(*op, *ty, &xs);
                    self.facts.push(ok);
                }
                Some(self.widen(&crate::ir::float_z3::apply(*op, *ty, &xs), true))
            }
        }
    }

    /// `x` (64 bits) converted to `t`, widened (`IntType::convert`).
    fn convert(&mut self, x: &BV, t: IntType) -> BV {
        let one = BV::from_i64(1, self.width);
        let zero = BV::from_i64(0, self.width);
        match t {
            IntType::Bool => x.eq(BV::from_i64(0, 64)).ite(&zero, &one),
            _ if t.bits() < 64 => {
                let low = x.extract(t.bits() - 1, 0);
                self.widen(&low, t.is_signed())
            }
            _ => {
                if !t.is_signed() {
                    // Beyond `i64` as an `unsigned long long`: not a value
                    // the analysis holds.
                    self.total = false;
                }
                self.widen(x, t.is_signed())
            }
        }
    }

    /// `x op y` in `t` (`BitOp::apply`), widened.
    fn bit(&mut self, op: BitOp, t: IntType, x: &BV, y: &BV, amount: Option<i64>) -> Option<BV> {
        if t == IntType::Bool {
            self.total = false;
            return None;
        }
        let bits = t.bits();
        let cut = |v: &BV| v.extract(bits - 1, 0);
        let (a, b) = (cut(x), cut(y));
        let r = match op {
            BitOp::And => a.bvand(&b),
            BitOp::Or => a.bvor(&b),
            BitOp::Xor => a.bvxor(&b),
            BitOp::Shl | BitOp::Shr => {
                if amount.is_none_or(|k| !(0..bits as i64).contains(&k)) {
                    self.total = false;
                }
                let inside = Bool::and(&[y.bvsge(BV::from_i64(0, 64)), y.bvslt(BV::from_i64(bits as i64, 64))]);
                self.facts.push(inside);
                match op {
                    BitOp::Shl => a.bvshl(&b),
                    _ if t.is_signed() => a.bvashr(&b),
                    _ => a.bvlshr(&b),
                }
            }
        };
        if bits == 64 && !t.is_signed() {
            self.total = false;
        }
        Some(self.widen(&r, t.is_signed()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::value::{AlphaKey, Truth};
    use crate::ir::{NodeId, RelOp};
    use proptest::prelude::*;

    fn x() -> Sym {
        Sym::Input(0)
    }

    fn y() -> Sym {
        Sym::Input(1)
    }

    fn alpha(i: u32) -> Sym {
        Sym::Alpha(AlphaKey::Op(NodeId(0)), i)
    }

    fn cmp(e: &LinExpr, op: RelOp, k: i64) -> Constraint {
        match Constraint::compare(e, op, &LinExpr::constant(k)) {
            Some(Truth::Depends(c)) => c,
            t => panic!("{t:?}"),
        }
    }

    fn bit(op: BitOp, t: IntType, a: Sym, b: LinExpr) -> AlphaDef {
        AlphaDef::Bit(op, t, LinExpr::sym(a), b)
    }

    /// Inputs are `unsigned int`s.
    fn uint(_: Sym) -> (i64, i64) {
        (0, u32::MAX as i64)
    }

    #[test]
    fn bytes_cut_out_of_an_input_are_solved_together() {
        // (unsigned char)(x >> 8) == 0x12 && (x & 255) == 0x34 && x < 65536.
        let alphas = [
            (alpha(1), bit(BitOp::Shr, IntType::UInt, x(), LinExpr::constant(8))),
            (alpha(2), AlphaDef::Conv(LinExpr::sym(alpha(1)), IntType::UChar)),
            (alpha(3), bit(BitOp::And, IntType::UInt, x(), LinExpr::constant(255))),
        ];
        let cons = [
            cmp(&LinExpr::sym(alpha(2)), RelOp::Eq, 0x12),
            cmp(&LinExpr::sym(alpha(3)), RelOp::Eq, 0x34),
            cmp(&LinExpr::sym(x()), RelOp::Lt, 65536),
        ];
        let Exact::Model(m) = exact_model(&cons, &alphas, &uint) else {
            panic!("no model");
        };
        assert_eq!(m[&x()], 0x1234);
    }

    #[test]
    fn two_readings_of_one_byte_cannot_disagree() {
        // (x & 255) >= 200 && (unsigned char)x <= 100: no run.
        let alphas = [
            (alpha(1), bit(BitOp::And, IntType::UInt, x(), LinExpr::constant(255))),
            (alpha(2), AlphaDef::Conv(LinExpr::sym(x()), IntType::UChar)),
        ];
        let cons = [
            cmp(&LinExpr::sym(alpha(1)), RelOp::Ge, 200),
            cmp(&LinExpr::sym(alpha(2)), RelOp::Le, 100),
        ];
        let r = exact_model(&cons, &alphas, &uint);
        assert!(matches!(r, Exact::Infeasible), "{r:?}");
    }

    #[test]
    fn products_of_unknowns_are_left_to_the_linear_search() {
        // x * x == 9: a 64-bit multiplier for the bit-blaster, and no
        // "none" could be believed (a product may overflow).
        let alphas = [(alpha(1), AlphaDef::Mul(LinExpr::sym(x()), LinExpr::sym(x())))];
        let r = exact_model(&[cmp(&LinExpr::sym(alpha(1)), RelOp::Eq, 9)], &alphas, &uint);
        assert!(matches!(r, Exact::Unknown(_)), "{r:?}");
    }

    fn int_type() -> impl Strategy<Value = IntType> {
        prop::sample::select(vec![
            IntType::Char,
            IntType::UChar,
            IntType::Short,
            IntType::UShort,
            IntType::Int,
            IntType::UInt,
            IntType::LongLong,
        ])
    }

    fn operation() -> impl Strategy<Value = AlphaDef> {
        let ops = prop::sample::select(vec![BitOp::And, BitOp::Or, BitOp::Xor, BitOp::Shl, BitOp::Shr]);
        prop_oneof![
            (ops.clone(), int_type()).prop_map(|(op, t)| bit(op, t, x(), LinExpr::sym(y()))),
            (ops, int_type(), 0i64..40).prop_map(|(op, t, k)| bit(op, t, x(), LinExpr::constant(k))),
            int_type().prop_map(|t| AlphaDef::Conv(LinExpr::sym(x()), t)),
            (-5i64..5).prop_map(|k| AlphaDef::Div {
                num: LinExpr::sym(x()),
                den: LinExpr::constant(k),
                rem: k % 2 == 0
            }),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The encoding computes what C (`AlphaDef::eval`) does: with the
        /// operands fixed, the result C gives has a model, and where every
        /// operation is total, any other result has none.
        #[test]
        fn the_encoding_agrees_with_c(def in operation(), a in -70_000i64..70_000, b in -3i64..40, off in 1i64..300) {
            let range = |s: Sym| if s == x() { (a, a) } else { (b, b) };
            let alphas = [(alpha(1), def.clone())];
            let r = LinExpr::sym(alpha(1));
            match def.eval(&mut |s| if s == x() { a } else { b }) {
                Some(v) => {
                    let found = exact_model(&[cmp(&r, RelOp::Eq, v)], &alphas, &range);
                    prop_assert!(matches!(found, Exact::Model(_)), "{def:?} on {a}, {b}: {v} not found: {found:?}");
                    let other = exact_model(&[cmp(&r, RelOp::Eq, v.wrapping_add(off))], &alphas, &range);
                    prop_assert!(!matches!(other, Exact::Model(_)), "{def:?} on {a}, {b}: {} has a model", v.wrapping_add(off));
                }
                None => {
                    // C has no value here (a shift out of range, a division
                    // by zero): no model, and not a proof.
                    let found = exact_model(&[cmp(&r, RelOp::Le, i64::MAX - 1)], &alphas, &range);
                    prop_assert!(!matches!(found, Exact::Model(_)), "{def:?} on {a}, {b}: a model where C has no value");
                }
            }
        }
    }
}
