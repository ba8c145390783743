//! Unions of integer and floating members, and arrays of them. A union is
//! stored as one integer as wide as the union (`types.rs`: unsigned up to
//! 4 bytes, `long long` for 8); every member starts at offset 0, so on a
//! little-endian machine (i386, as gcc -m32) a member is the low bytes of
//! that integer, and element `k` of an array member the bytes from
//! `k * sizeof` on:
//!
//! - reading a member takes its bytes (C's conversion to an integer
//!   member's type keeps the low ones, two's complement for a signed one);
//! - writing it replaces its bytes and keeps the others.
//!
//! A floating member is its bit pattern (`ExprKind::Bits`), never a
//! conversion: `u.f` after `u.i = 0x3f800000` is `1.0f`, as in gcc. The
//! bytes are cut with `%` and `/` by powers of two on exact multiples,
//! not with shifts and masks: the engines' arithmetic is linear in them.

use super::expr::*;
use super::loc::Loc;
use super::*;
use crate::syntax::ast::{BinOp, Expr, ExprKind, Stmt};

impl Mem {
    /// The value of member `t` of the union at `of`, of its element `at`
    /// (`len` elements) for an array member.
    pub(super) fn read_member(&mut self, of: &Loc, t: IntType, at: Option<(&Expr, i64)>, span: Span) -> Val {
        let mut v = self.read(of.clone(), span);
        let Some(storage) = v.leaves.pop() else {
            return Self::int_val(int(0, span));
        };
        let mut pre = v.pre;
        let storage = as_storage(&Self::loc_ty(of), storage, span);
        let element = |k: i64, s: Expr| from_storage(above(s, 8 * k * t.size(), span), t, span);
        let value = match at {
            None => element(0, storage),
            Some((i, len)) => match constant(i) {
                Some(k) => element(k, storage),
                None => {
                    let storage = self.bind(&mut pre, storage, self.storage_type(of));
                    choose(i, len, |k| element(k, storage.clone()), span)
                }
            },
        };
        Val {
            pre,
            leaves: vec![value],
            ty: CType::Int(t),
        }
    }

    /// Statements storing `vals` (one pure value of type `t`) in member `t`
    /// of the union at `of` (its element `at` for an array member).
    pub(super) fn write_member(
        &mut self,
        of: &Loc,
        t: IntType,
        at: Option<(&Expr, i64)>,
        vals: &[Expr],
        span: Span,
    ) -> Vec<Stmt> {
        let u = self.storage_type(of);
        let [v] = vals else {
            self.unsupported(span, "assigning to a union member here");
            return vec![];
        };
        let (v, t) = as_integer(v.clone(), t, span);
        if at.is_none() && t.size() >= u.size() {
            let v = of_storage(&Self::loc_ty(of), cast(u, v, span), span);
            return self.write(of, &[v], span);
        }
        let put = |k: i64, cur: Expr| replace(cur, u, 8 * k * t.size(), v.clone(), t, span);
        match at.map(|(i, len)| (i, len, constant(i))) {
            None => self.update_storage(of, |cur| put(0, cur), span),
            Some((_, _, Some(k))) => self.update_storage(of, |cur| put(k, cur), span),
            Some((i, len, None)) => self.update_storage(of, |cur| choose(i, len, |k| put(k, cur.clone()), span), span),
        }
    }

    /// The integer type of the storage of the union at `of` (of the
    /// scalar at `of` read through another type: a floating one's bits).
    fn storage_type(&self, of: &Loc) -> IntType {
        match Self::loc_ty(of) {
            CType::Int(s) if s.is_float() => bits_type(s),
            CType::Int(s) => s,
            CType::Struct(tag) => match self.types.union_storage(&tag) {
                Ok(Some(u)) => u,
                _ => unreachable!("checked when the member was named"),
            },
            _ => unreachable!("a union or a scalar"),
        }
    }

    /// `(T *)&x` for a scalar variable `x` whose type is as wide as `T` or
    /// a multiple of it (`*(unsigned *)&d`, `((unsigned *)&d)[1]`): C's
    /// way to read and write `x`'s bytes as `T`, an array member of `x`'s
    /// own storage, as if `x` were a union (`None` for any other
    /// expression: a pointer conversion the model refuses).
    pub(super) fn punned(&mut self, e: &ast::Expr) -> Option<(Vec<Stmt>, Loc)> {
        let ExprKind::PtrCast(CType::Ptr(to), x) = &e.kind else {
            return None;
        };
        let (ExprKind::AddrOf(x), CType::Int(t)) = (&x.kind, &**to) else {
            return None;
        };
        let ExprKind::Var(id) = &x.kind else { return None };
        let info = self.lookup(&id.name)?;
        let (None, CType::Int(s)) = (&info.len, &info.ty) else {
            return None;
        };
        let fits = |k: IntType| k != IntType::Bool && k != IntType::ULongLong;
        if !fits(*s) || !fits(*t) || s.size() % t.size() != 0 {
            return None;
        }
        let (t, len) = (*t, s.size() / t.size());
        let (pre, of) = self.lv(x);
        let of = Box::new(of);
        Some((
            pre,
            Loc::Member {
                of,
                ty: t,
                len: Some(len),
                at: None,
            },
        ))
    }

    /// Statements replacing the storage of the union at `of` by
    /// `update(storage)`, in place (through one split for a pointer).
    fn update_storage(&mut self, of: &Loc, update: impl Fn(Expr) -> Expr, span: Span) -> Vec<Stmt> {
        let ty = Self::loc_ty(of);
        let update = |cur: Expr| of_storage(&ty, update(as_storage(&ty, cur, span)), span);
        match of {
            Loc::Named { base, index, .. } => {
                let leaf = Self::named_leaf(base, "", index, span);
                vec![assign(leaf.clone(), update(leaf), span)]
            }
            Loc::Ptr {
                tag, off, obj_ty, path, ..
            } => {
                let objs: Vec<_> = self.objects.of_type(obj_ty).cloned().collect();
                let mut cases = Vec::new();
                for o in objs {
                    let mut body = self.access_checks(&o, off, span);
                    let leaf = self.storage(&o, path, off, span);
                    body.push(assign(leaf.clone(), update(leaf), span));
                    cases.push((o.tag, body));
                }
                vec![self.split(tag, cases, span)]
            }
            Loc::Member { .. } => unreachable!("a union member is an integer"),
        }
    }

    /// An index `i` into an array member of `len` elements: outside it,
    /// an invalid access (C's out-of-bounds), reported where it is written.
    pub(super) fn member_index_check(&mut self, i: &Expr, len: i64, span: Span) -> Vec<Stmt> {
        if constant(i).is_some_and(|k| (0..len).contains(&k)) {
            return vec![];
        }
        let k = self.access(span);
        let below = bin(BinOp::Lt, i.clone(), int(0, span), span);
        let past = bin(BinOp::Ge, i.clone(), int(len, span), span);
        let outside = bin(BinOp::Or, below, past, span);
        vec![if_(
            outside,
            vec![call(INVALID_ACCESS, vec![int(k, span)], span)],
            vec![],
            span,
        )]
    }

    /// The storage of a union initialised with `{ x }`: C initialises its
    /// first member, and the bytes past it are zero.
    pub(super) fn union_init(&mut self, tag: &str, first: Option<&ast::Expr>, span: Span) -> Expr {
        let (Ok(Some(u)), Ok(fields)) = (self.types.union_storage(tag), self.types.fields(tag)) else {
            unreachable!("a union's storage was laid out before its initialiser")
        };
        let (Some(x), Some(CType::Int(t)), None) = (
            first,
            fields.first().map(|f| f.ty.clone()),
            fields.first().and_then(|f| f.array.as_ref()),
        ) else {
            return int(0, span);
        };
        let x = mk(ExprKind::Cast(t, Box::new(self.int_expr(x))), span);
        let (x, t) = as_integer(x, t, span);
        if t.size() >= u.size() {
            return mk(ExprKind::Cast(u, Box::new(x)), span);
        }
        mk(ExprKind::Cast(u, Box::new(low(x, 8 * t.size(), span))), span)
    }
}

/// A value `x` of type `ty` as its storage's integer (a floating one's
/// bits).
fn as_storage(ty: &CType, x: Expr, span: Span) -> Expr {
    match ty {
        CType::Int(s) => as_integer(x, *s, span).0,
        _ => x,
    }
}

/// The storage's integer `x` as a value of type `ty`.
fn of_storage(ty: &CType, x: Expr, span: Span) -> Expr {
    match ty {
        CType::Int(s) if s.is_float() => mk(ExprKind::Bits(*s, Box::new(x)), span),
        _ => x,
    }
}

/// The value of a constant index.
fn constant(i: &Expr) -> Option<i64> {
    crate::ir::lower::const_eval(i)
}

/// `i == 0 ? at(0) : i == 1 ? at(1) : ... at(len - 1)` (the index was
/// checked to be in range).
fn choose(i: &Expr, len: i64, at: impl Fn(i64) -> Expr, span: Span) -> Expr {
    (0..len - 1).rev().fold(at(len - 1), |rest, k| {
        let test = bin(BinOp::Eq, i.clone(), int(k, span), span);
        mk(ExprKind::Ternary(Box::new(test), Box::new(at(k)), Box::new(rest)), span)
    })
}

/// The integer type whose leaves hold a floating type's bit pattern.
fn bits_type(t: IntType) -> IntType {
    match t {
        IntType::Float => IntType::UInt,
        _ => IntType::LongLong,
    }
}

/// Member `t` read from union storage `x`: its low bytes, converted to an
/// integer member's type, or the bit pattern of a floating one.
fn from_storage(x: Expr, t: IntType, span: Span) -> Expr {
    if !t.is_float() {
        return mk(ExprKind::Cast(t, Box::new(x)), span);
    }
    let low = mk(ExprKind::Cast(bits_type(t), Box::new(x)), span);
    mk(ExprKind::Bits(t, Box::new(low)), span)
}

/// A value of member type `t` as the integer of its bytes, and that
/// integer's type (a floating value's bit pattern).
fn as_integer(x: Expr, t: IntType, span: Span) -> (Expr, IntType) {
    if !t.is_float() {
        return (x, t);
    }
    (mk(ExprKind::Bits(bits_type(t), Box::new(x)), span), bits_type(t))
}

/// `2^bits` as a `long long` literal.
fn power(bits: i64, span: Span) -> Expr {
    mk(ExprKind::Int(1i64 << bits, IntType::LongLong), span)
}

fn cast(t: IntType, x: Expr, span: Span) -> Expr {
    mk(ExprKind::Cast(t, Box::new(x)), span)
}

/// The low `bits` bits of `x` (`bits` < 64), as a non-negative value:
/// `x mod 2^bits`.
fn low(x: Expr, bits: i64, span: Span) -> Expr {
    let word = cast(IntType::UInt, x.clone(), span);
    match bits {
        0 => int(0, span),
        32 => word,
        1..=31 => bin(BinOp::Mod, word, power(bits, span), span),
        _ => {
            // The low word, then the high word's low bits above it.
            let high = bin(
                BinOp::Div,
                bin(BinOp::Sub, x, word.clone(), span),
                power(32, span),
                span,
            );
            let above_word = bin(BinOp::Mul, low(high, bits - 32, span), power(32, span), span);
            bin(BinOp::Add, cast(IntType::LongLong, word, span), above_word, span)
        }
    }
}

/// `x` without its low `bits` bits, moved down: `floor(x / 2^bits)`, as
/// an exact division of `x - low(x)`.
fn above(x: Expr, bits: i64, span: Span) -> Expr {
    if bits == 0 {
        return x;
    }
    let rest = bin(
        BinOp::Sub,
        cast(IntType::LongLong, x.clone(), span),
        low(x, bits, span),
        span,
    );
    bin(BinOp::Div, rest, power(bits, span), span)
}

/// Storage `cur` (of type `u`) with the `sizeof(t)` bytes from bit `at`
/// replaced by those of `v`: low(cur, at) + bytes(v) * 2^at + the bytes
/// above (their exact multiple of 2^(at + width)). In the top bytes of a
/// `long long` storage `v`'s bytes are signed, below them unsigned: each
/// sum is then within the storage's range.
fn replace(cur: Expr, u: IntType, at: i64, v: Expr, t: IntType, span: Span) -> Expr {
    let width = 8 * t.size();
    let top = at + width >= 8 * u.size();
    let signed = top && u == IntType::LongLong;
    let bytes = cast(IntType::LongLong, cast(sized(t.size(), signed), v, span), span);
    let moved = if at == 0 {
        bytes
    } else {
        bin(BinOp::Mul, bytes, power(at, span), span)
    };
    let mut sum = bin(
        BinOp::Add,
        cast(IntType::LongLong, low(cur.clone(), at, span), span),
        moved,
        span,
    );
    if !top {
        let above_it = bin(
            BinOp::Sub,
            cast(IntType::LongLong, cur.clone(), span),
            low(cur, at + width, span),
            span,
        );
        sum = bin(BinOp::Add, sum, above_it, span);
    }
    cast(u, sum, span)
}

/// The integer type of `size` bytes.
fn sized(size: i64, signed: bool) -> IntType {
    match (size, signed) {
        (1, false) => IntType::UChar,
        (1, true) => IntType::SChar,
        (2, false) => IntType::UShort,
        (2, true) => IntType::Short,
        (4, false) => IntType::UInt,
        (4, true) => IntType::Int,
        _ => IntType::LongLong,
    }
}
