//! Unions of integer members. A union is stored as one unsigned integer as
//! wide as its widest member (`types.rs`); every member starts at offset 0,
//! so on a little-endian machine (i386, as gcc -m32) a member is the low
//! bytes of that integer:
//!
//! - reading member `m` of type `T` converts the storage to `T` (C's
//!   conversion keeps the low bytes, two's complement for a signed `T`);
//! - writing `m` replaces the low `sizeof(T)` bytes and keeps the others.
//!
//! A floating member is its bit pattern (`ExprKind::Bits`), never a
//! conversion: `u.f` after `u.i = 0x3f800000` is `1.0f`, as in gcc.

use super::expr::*;
use super::loc::Loc;
use super::*;
use crate::syntax::ast::{BinOp, Expr, ExprKind, Stmt};

impl Mem {
    /// The value of member `t` of the union at `of`.
    pub(super) fn read_member(&mut self, of: &Loc, t: IntType, span: Span) -> Val {
        let mut v = self.read(of.clone(), span);
        let Some(storage) = v.leaves.pop() else {
            return Self::int_val(int(0, span));
        };
        Val {
            pre: v.pre,
            leaves: vec![from_storage(storage, t, span)],
            ty: CType::Int(t),
        }
    }

    /// Statements storing `vals` (one pure value of type `t`) in member `t`
    /// of the union at `of`.
    pub(super) fn write_member(&mut self, of: &Loc, t: IntType, vals: &[Expr], span: Span) -> Vec<Stmt> {
        let CType::Struct(tag) = Self::loc_ty(of) else {
            unreachable!("a member of a union")
        };
        let Ok(Some(u)) = self.types.union_storage(&tag) else {
            unreachable!("checked when the member was named")
        };
        let [v] = vals else {
            self.unsupported(span, "assigning to a union member here");
            return vec![];
        };
        let (v, t) = &as_integer(v.clone(), t, span);
        let t = *t;
        if t.size() >= u.size() {
            let v = mk(ExprKind::Cast(u, Box::new(v.clone())), span);
            return self.write(of, &[v], span);
        }
        // The bytes past the member's are kept, the member's replaced:
        // storage - low(storage) + low(v), where low(x) is x's low bytes as
        // an `unsigned int` (`%` by a constant, not `&`: the engines'
        // arithmetic is linear in it). The storage is updated in place,
        // through one split for a pointer.
        let update = |cur: Expr| {
            let kept = bin(BinOp::Sub, cur.clone(), low_bytes(cur, t, span), span);
            bin(BinOp::Add, kept, low_bytes(v.clone(), t, span), span)
        };
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

    /// The storage of a union initialised with `{ x }`: C initialises its
    /// first member, and the bytes past it are zero.
    pub(super) fn union_init(&mut self, tag: &str, first: Option<&ast::Expr>, span: Span) -> Expr {
        let (Ok(Some(u)), Ok(fields)) = (self.types.union_storage(tag), self.types.fields(tag)) else {
            unreachable!("a union's storage was laid out before its initialiser")
        };
        let (Some(x), Some(CType::Int(t))) = (first, fields.first().map(|f| f.ty.clone())) else {
            return int(0, span);
        };
        let x = mk(ExprKind::Cast(t, Box::new(self.int_expr(x))), span);
        let (x, t) = as_integer(x, t, span);
        if t.size() >= u.size() {
            return mk(ExprKind::Cast(u, Box::new(x)), span);
        }
        mk(ExprKind::Cast(u, Box::new(low_bytes(x, t, span))), span)
    }
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

/// The low `sizeof(t)` bytes of `x` (`t` narrower than 8 bytes), as a
/// non-negative `unsigned int`.
fn low_bytes(x: Expr, t: IntType, span: Span) -> Expr {
    let x = mk(ExprKind::Cast(IntType::UInt, Box::new(x)), span);
    if t.size() >= 4 {
        return x;
    }
    let modulus = mk(ExprKind::Int(1i64 << (8 * t.size()), IntType::UInt), span);
    bin(BinOp::Mod, x, modulus, span)
}
