//! Array fields of an array's elements: `a[i].name[j]` of `struct S {
//! char name[8]; ... } a[4]`. The field's storage `a.name` holds the
//! elements' rows column by column: `a[i].name[j]` is element `j * 4 + i`.
//! A named access is `a.name[INDEX(j, 8) * 4 + INDEX(i, 4)]`, each index
//! checked against its own size, as for `char a[4][8]` (`crate::ir::dims`).
//! Object `a.name` (`objects.rs`) is every row; a pointer into it has the
//! storage's index as its offset and steps by 4 (its *stride*), so it
//! stays in its row, and a step past the row's end leaves the object (C:
//! the field is the array; gcc reaches the next field there). Every
//! access is linear in the indexes, as the engines want it.

use super::expr::*;
use super::loc::Loc;
use super::*;
use crate::syntax::ast::{BinOp, Expr, ExprKind, Ident, Stmt};

/// A location inside an array field of an array's elements.
#[derive(Clone)]
pub(super) struct Row {
    /// The field's number of elements.
    pub len: i64,
    /// The array's number of elements (the storage's stride).
    pub stride: i64,
    /// Whether the row is indexed (the location is one of its elements).
    pub indexed: bool,
}

fn index_call(i: Expr, n: i64, span: Span) -> Expr {
    let name = Ident {
        name: crate::ir::dims::INDEX.to_string(),
        span,
    };
    mk(ExprKind::Call(name, vec![i, int(n, span)]), span)
}

impl Mem {
    /// Array field (of `len` elements) of element `index` of the array
    /// named by `root`: the element's index (checked) and the row, or why
    /// it is not supported.
    pub(super) fn row_of(
        &self,
        index: Expr,
        len: &ast::Expr,
        root: &Option<VarInfo>,
        span: Span,
    ) -> Result<(Expr, Row), String> {
        let k = crate::ir::lower::const_eval(len).filter(|k| *k > 0);
        let Some(root) = root.as_ref().filter(|r| r.len.is_some()) else {
            return Err("an array field of an element of an array field is not supported yet".into());
        };
        if root.elems.is_some() {
            return Err("an array field of an element of a variable-length array is not supported yet".into());
        }
        match (k, root.len.as_ref().and_then(crate::ir::lower::const_eval)) {
            (Some(k), Some(n)) => Ok((
                index_call(index, n, span),
                Row {
                    len: k,
                    stride: n,
                    indexed: false,
                },
            )),
            _ => Err("an array field of a size not constant in an array of structs is not supported".into()),
        }
    }

    /// `row[j]` of the row of element `elem`: where it is in the storage.
    pub(super) fn row_index(&mut self, pre: &mut Vec<Stmt>, elem: Expr, row: &Row, j: Expr, span: Span) -> (Expr, Row) {
        let elem = self.bind(pre, elem, IntType::Int);
        let j = index_call(j, row.len, span);
        let at = bin(BinOp::Add, bin(BinOp::Mul, j, int(row.stride, span), span), elem, span);
        let row = Row {
            indexed: true,
            ..row.clone()
        };
        (at, row)
    }

    /// The checks that element `off` of object `o`, an array of structs,
    /// has a row in `sub`, one of its strided fields: past the elements
    /// the model holds of an allocation of any length the run is beyond
    /// the model, and outside the array the access is invalid (an offset
    /// into rows holds no element past them).
    pub(super) fn row_start_checks(
        &mut self,
        o: &objects::Obj,
        sub: &objects::Obj,
        off: &Expr,
        span: Span,
    ) -> Vec<Stmt> {
        let Some(n) = sub.stride else {
            return vec![];
        };
        let k = self.access(span);
        let mut out = Vec::new();
        if o.heap.as_ref().is_some_and(|h| self.unbounded.contains(h)) {
            let storage = var(&super::file_scope(&sub.base), span);
            let beyond = vec![call(BEYOND_MODEL, vec![int(o.tag, span), storage], span)];
            out.push(if_(
                bin(BinOp::Ge, off.clone(), int(n, span), span),
                beyond,
                vec![],
                span,
            ));
        }
        let low = bin(BinOp::Lt, off.clone(), int(0, span), span);
        let high = bin(BinOp::Ge, off.clone(), int(n, span), span);
        let invalid = vec![call(INVALID_ACCESS, vec![int(k, span)], span)];
        out.push(if_(bin(BinOp::Or, low, high, span), invalid, vec![], span));
        out
    }

    /// The element's index that offset `off` into object `o` holds.
    pub(super) fn elem_of(o: &objects::Obj, off: &Expr, span: Span) -> Expr {
        match o.stride {
            Some(1) => int(0, span),
            Some(n) => bin(BinOp::Mod, off.clone(), int(n, span), span),
            None => off.clone(),
        }
    }

    /// The objects of type `ty` whose pointers step by more than one
    /// element: their tags and strides.
    pub(super) fn strided(&self, ty: &CType) -> Vec<(i64, i64)> {
        self.objects
            .of_type(ty)
            .filter_map(|o| o.stride.filter(|n| *n > 1).map(|n| (o.tag, n)))
            .collect()
    }

    /// Offset `off` of a pointer with tag `tag` to `ty`, ordered as C lays
    /// out the addresses: in rows, `&a[i].name[j]` is `i * len + j`.
    pub(super) fn address_order(&mut self, tag: &Expr, off: &Expr, ty: &CType, span: Span) -> Expr {
        let strided = self.strided(ty);
        if strided.is_empty() {
            return off.clone();
        }
        let lens: Vec<(i64, i64)> = self
            .objects
            .of_type(ty)
            .filter_map(|o| Some((o.tag, o.len.as_ref().and_then(crate::ir::lower::const_eval)?)))
            .collect();
        let rank = |t: i64, n: i64| {
            let all = lens.iter().find(|(x, _)| *x == t).map_or(n, |(_, l)| *l);
            let elem = bin(BinOp::Mod, off.clone(), int(n, span), span);
            let at = bin(BinOp::Div, off.clone(), int(n, span), span);
            bin(BinOp::Add, bin(BinOp::Mul, elem, int(all / n, span), span), at, span)
        };
        self.by_stride(tag, &strided, rank, off.clone(), span)
    }

    /// `f(tag, stride)` for a pointer with tag `tag` into a strided object,
    /// `other` for the rest (tests of the model's own, at the access's
    /// span, `!=` as `arith.rs` has them).
    pub(super) fn by_stride(
        &mut self,
        tag: &Expr,
        strided: &[(i64, i64)],
        f: impl Fn(i64, i64) -> Expr,
        other: Expr,
        span: Span,
    ) -> Expr {
        let mut e = other;
        for &(t, n) in strided.iter().rev() {
            self.access(span);
            let not = bin(BinOp::Ne, tag.clone(), int(t, span), span);
            e = mk(ExprKind::Ternary(Box::new(not), Box::new(e), Box::new(f(t, n))), span);
        }
        e
    }
}

/// Whether `loc` is a row not yet indexed (`a[i].name`).
pub(super) fn is_row(loc: &Loc) -> bool {
    matches!(
        loc,
        Loc::Named {
            row: Some(Row { indexed: false, .. }),
            ..
        }
    )
}
