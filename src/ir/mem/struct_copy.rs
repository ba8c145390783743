//! Copying a struct that has array fields (`b = a` with `struct { char
//! name[8]; int n; }`): C copies every byte; here, every field, an array
//! field element by element, as if the program wrote one assignment per
//! element. A struct without array fields is copied as a value (its
//! leaves) where assignments are lowered (`assign.rs`).
//!
//! Both sides are evaluated once per element, so they must have no side
//! effects (names, fields, indexes by names or constants, `*p`, `p->f`);
//! a copy with side effects on either side (`*p++ = a`) is not supported.

use super::expr::*;
use super::*;
use crate::syntax::ast::{Expr, ExprKind};

/// At most this many scalar assignments stand for one struct copy.
const MOST_ELEMENTS: i64 = 4096;

impl Mem {
    /// `lhs = rhs` as one assignment per scalar field when both are
    /// structs of one type with array fields; `None` otherwise (the
    /// assignment is lowered as a value).
    pub(super) fn struct_copy(&mut self, lhs: &Expr, rhs: &Expr, span: Span) -> Option<Val> {
        let ty = self.static_type(lhs)?;
        let CType::Struct(tag) = &ty else {
            return None;
        };
        if tag.starts_with(ast::UNION)
            || !self
                .types
                .leaves(&ty)
                .is_ok_and(|ls| ls.iter().any(|l| l.len.is_some()))
        {
            return None;
        }
        if self.static_type(rhs).as_ref() != Some(&ty) {
            return None;
        }
        if !pure(lhs) || !pure(rhs) {
            self.unsupported(
                span,
                "copying a struct with an array field between expressions with side effects is not supported",
            );
            return Some(Self::int_val(int(0, span)));
        }
        let mut pairs = Vec::new();
        if let Err(msg) = self.copies(&ty, lhs, rhs, &mut pairs) {
            self.unsupported(span, msg);
            return Some(Self::int_val(int(0, span)));
        }
        let mut pre = Vec::new();
        for (l, r) in pairs {
            let v = self.assign_expr(ast::AssignOp::Set, &l, &r, span);
            pre.extend(self.discard(v, span));
        }
        Some(Val {
            pre,
            leaves: vec![],
            ty: CType::Void,
        })
    }

    /// The scalar (or array-free struct) assignments copying `rhs` of type
    /// `ty` into `lhs`.
    fn copies(&self, ty: &CType, lhs: &Expr, rhs: &Expr, out: &mut Vec<(Expr, Expr)>) -> Result<(), String> {
        let simple = !self
            .types
            .leaves(ty)
            .map_err(|e| e.to_string())?
            .iter()
            .any(|l| l.len.is_some());
        let CType::Struct(tag) = ty else {
            out.push((lhs.clone(), rhs.clone()));
            return Ok(());
        };
        if simple || tag.starts_with(ast::UNION) {
            out.push((lhs.clone(), rhs.clone()));
            return Ok(());
        }
        for f in self.types.fields(tag)?.to_vec() {
            let member = |e: &Expr| mk(ExprKind::Member(Box::new(e.clone()), f.name.clone(), false), e.span);
            let (l, r) = (member(lhs), member(rhs));
            let Some(n) = &f.array else {
                self.copies(&f.ty, &l, &r, out)?;
                continue;
            };
            let n = crate::ir::lower::const_eval(n).ok_or("an array field needs a constant size")?;
            if out.len() as i64 + n > MOST_ELEMENTS {
                return Err(format!(
                    "copying a struct with more than {MOST_ELEMENTS} array elements is not supported"
                ));
            }
            for k in 0..n {
                let at = |e: &Expr| mk(ExprKind::IndexOf(Box::new(e.clone()), Box::new(int(k, e.span))), e.span);
                self.copies(&f.ty, &at(&l), &at(&r), out)?;
            }
        }
        Ok(())
    }

    /// The C type of a side-effect-free location expression, when its text
    /// tells it (a name, a field, an element, `*p`).
    pub(super) fn static_type(&self, e: &Expr) -> Option<CType> {
        match &e.kind {
            ExprKind::Var(id) => {
                let v = self.lookup(&id.name)?;
                v.len.is_none().then(|| v.ty.clone())
            }
            ExprKind::Index(id, _) => {
                let v = self.lookup(&id.name)?;
                match (&v.len, &v.ty) {
                    (Some(_), t) => Some(t.clone()),
                    (None, t) => pointee(t).cloned(),
                }
            }
            ExprKind::Deref(x) => pointee(&self.static_pointer(x)?).cloned(),
            ExprKind::Member(x, f, arrow) => {
                let field = self.static_field(x, f, *arrow)?;
                field.array.is_none().then_some(field.ty)
            }
            ExprKind::IndexOf(x, _) => {
                let ExprKind::Member(s, f, arrow) = &x.kind else {
                    return pointee(&self.static_pointer(x)?).cloned();
                };
                let field = self.static_field(s, f, *arrow)?;
                field.array.is_some().then_some(field.ty)
            }
            _ => None,
        }
    }

    /// Field `f` of `s` (`s->f` when `arrow`), when the text tells it.
    fn static_field(&self, s: &Expr, f: &ast::Ident, arrow: bool) -> Option<ast::Field> {
        let of = if arrow {
            pointee(&self.static_pointer(s)?).cloned()?
        } else {
            self.static_type(s)?
        };
        self.types.field(&of, &f.name).ok().cloned()
    }

    /// The pointer type of `e` when it is a pointer variable or field.
    fn static_pointer(&self, e: &Expr) -> Option<CType> {
        let t = match &e.kind {
            ExprKind::Var(id) => {
                let v = self.lookup(&id.name)?;
                match &v.len {
                    Some(_) => return Some(v.ty.clone().ptr()),
                    None => v.ty.clone(),
                }
            }
            _ => self.static_type(e)?,
        };
        matches!(t, CType::Ptr(_)).then_some(t)
    }
}

/// Whether evaluating `e` changes nothing (no call, assignment, `++`).
fn pure(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Int(..) | ExprKind::Var(_) => true,
        ExprKind::Index(_, i) => pure(i),
        ExprKind::IndexOf(a, i) => pure(a) && pure(i),
        ExprKind::Deref(x) | ExprKind::Member(x, _, _) | ExprKind::Cast(_, x) => pure(x),
        ExprKind::Unary(_, x) => pure(x),
        ExprKind::Binary(_, a, b) => pure(a) && pure(b),
        _ => false,
    }
}
