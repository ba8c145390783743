//! Pointers to rows (C11 6.5.6): an array of arrays decays to a pointer
//! to its first row; `a + k`, `p++`, `p += k` move such a pointer by whole
//! rows, `X - Y` counts rows, `*X` is `X[0]`. On the flat array a pointer
//! to rows is a pointer to their first element, moved by `k` times the
//! row's number of elements; the memory model checks the pointer as any
//! other (moved past the array, it is an invalid access where used).

use super::{bin, mk, product, Base, Dims, Flatten};
use crate::syntax::ast::{AssignOp, BinOp, Expr, ExprKind as AK};

impl Flatten<'_> {
    /// The dimensions of a chain's start.
    pub(super) fn dims_of(&self, base: &Base) -> Dims {
        match base {
            Base::Name(n) => self.lookup(&n.name).cloned().expect("a chain's name has dimensions"),
            Base::Rows(_, inner) => Dims {
                first: None,
                inner: inner.clone(),
            },
        }
    }

    /// When `e`'s value is a pointer to rows (an array of arrays decays
    /// to one): the rows' dimensions.
    pub(super) fn row_type(&self, e: &Expr) -> Option<Vec<Expr>> {
        if let Some((base, idx)) = self.chain(e) {
            let d = self.dims_of(&base);
            return (idx.len() < d.inner.len()).then(|| d.inner[idx.len()..].to_vec());
        }
        self.rows_of(e)
    }

    /// The rows' dimensions of arithmetic on a pointer to rows: `X + k`,
    /// `k + X`, `X - k`, `p += k`, `p -= k`, `p++`, `--p`.
    pub(super) fn rows_of(&self, e: &Expr) -> Option<Vec<Expr>> {
        if self.declared.is_empty() {
            // No array of arrays anywhere (the search is not free).
            return None;
        }
        match &e.kind {
            AK::Binary(BinOp::Add, a, b) => self.row_type(a).or_else(|| self.row_type(b)),
            AK::Binary(BinOp::Sub, a, b) if self.row_type(b).is_none() => self.row_type(a),
            AK::Assign(AssignOp::Add | AssignOp::Sub, x, _) | AK::IncDec { target: x, .. } => match &x.kind {
                AK::Var(n) => self
                    .lookup(&n.name)
                    .filter(|d| d.first.is_none() && !d.inner.is_empty())
                    .map(|d| d.inner.clone()),
                _ => None,
            },
            _ => None,
        }
    }

    /// `e` on the flat array when it is arithmetic on pointers to rows.
    pub(super) fn row_arith(&mut self, e: &Expr) -> Option<Expr> {
        let span = e.span;
        match &e.kind {
            AK::Binary(BinOp::Sub, a, b) if self.row_type(b).is_some() => {
                let rows = self.row_type(a)?;
                let diff = mk(
                    AK::Binary(BinOp::Sub, Box::new(self.flat(a)), Box::new(self.flat(b))),
                    span,
                );
                Some(mk(
                    AK::Binary(BinOp::Div, Box::new(diff), Box::new(product(&rows, span))),
                    span,
                ))
            }
            AK::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                let (x, k, rows) = match self.row_type(a) {
                    Some(rows) => (a, b, rows),
                    None if *op == BinOp::Add => (b, a, self.row_type(b)?),
                    None => return None,
                };
                let k = self.scaled(k, &rows);
                Some(mk(AK::Binary(*op, Box::new(self.flat(x)), Box::new(k)), span))
            }
            AK::Assign(op @ (AssignOp::Add | AssignOp::Sub), x, k) => {
                let rows = self.rows_of(e)?;
                Some(mk(AK::Assign(*op, x.clone(), Box::new(self.scaled(k, &rows))), span))
            }
            AK::IncDec { target, inc, prefix } => {
                let rows = self.rows_of(e)?;
                let size = product(&rows, span);
                let op = if *inc { AssignOp::Add } else { AssignOp::Sub };
                let moved = mk(AK::Assign(op, target.clone(), Box::new(size.clone())), span);
                if *prefix {
                    return Some(moved);
                }
                // The value before the move.
                let back = if *inc { BinOp::Sub } else { BinOp::Add };
                Some(mk(AK::Binary(back, Box::new(moved), Box::new(size)), span))
            }
            _ => None,
        }
    }

    /// `x++` or `x--` whose value is not used, on a pointer to rows: the
    /// prefix form (the same effect, no value to restore).
    pub(super) fn unused_value(&self, e: &mut Expr) {
        if self.rows_of(e).is_some() {
            if let AK::IncDec { prefix, .. } = &mut e.kind {
                *prefix = true;
            }
        }
    }

    /// `k` rows as a number of elements.
    fn scaled(&mut self, k: &Expr, rows: &[Expr]) -> Expr {
        let mut k = k.clone();
        self.expr(&mut k);
        let span = k.span;
        bin(BinOp::Mul, k, product(rows, span))
    }

    /// A pointer to rows on the flat array: a pointer to its first element.
    pub(super) fn flat(&mut self, x: &Expr) -> Expr {
        let mut x = x.clone();
        self.expr(&mut x);
        x
    }
}
