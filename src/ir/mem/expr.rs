//! Expressions with pointers and structs, as integer expressions: values
//! (`Val`: statements to run first, then pure leaves); locations are in
//! `loc.rs`, assignments in `assign.rs`.

use super::loc::Loc;
use super::*;
use crate::syntax::ast::{BinOp, Expr, ExprKind, Ident, Stmt, StmtKind, UnOp};

/// A value: `pre` runs first, then each leaf is a pure expression (a
/// variable, a temporary, a constant, arithmetic on them).
pub(super) struct Val {
    pub pre: Vec<Stmt>,
    pub leaves: Vec<Expr>,
    pub ty: CType,
}

pub(super) fn mk(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
}

pub(super) fn int(v: i64, span: Span) -> Expr {
    mk(ExprKind::Int(v, IntType::Int), span)
}

pub(super) fn var(name: &str, span: Span) -> Expr {
    mk(
        ExprKind::Var(Ident {
            name: name.into(),
            span,
        }),
        span,
    )
}

pub(super) fn bin(op: BinOp, a: Expr, b: Expr, span: Span) -> Expr {
    mk(ExprKind::Binary(op, Box::new(a), Box::new(b)), span)
}

/// A pointer's offset `off` moved by `k` elements (`op` is `+` or `-`):
/// the model's own arithmetic, exact and never an overflow of the program.
pub(super) fn offset(op: BinOp, off: Expr, k: Expr, span: Span) -> Expr {
    mk(ExprKind::Offset(op, Box::new(off), Box::new(k)), span)
}

pub(super) fn stmt(kind: StmtKind, span: Span) -> Stmt {
    Stmt { kind, span }
}

pub(super) fn assign(lhs: Expr, rhs: Expr, span: Span) -> Stmt {
    let e = mk(ExprKind::Assign(ast::AssignOp::Set, Box::new(lhs), Box::new(rhs)), span);
    stmt(StmtKind::Expr(e), span)
}

pub(super) fn call(name: &str, args: Vec<Expr>, span: Span) -> Stmt {
    let e = mk(
        ExprKind::Call(
            Ident {
                name: name.into(),
                span,
            },
            args,
        ),
        span,
    );
    stmt(StmtKind::Expr(e), span)
}

pub(super) fn block(stmts: Vec<Stmt>, span: Span) -> Box<Stmt> {
    Box::new(stmt(StmtKind::Block(ast::Block { stmts, span }), span))
}

pub(super) fn if_(c: Expr, then_: Vec<Stmt>, else_: Vec<Stmt>, span: Span) -> Stmt {
    let e = (!else_.is_empty()).then(|| block(else_, span));
    stmt(StmtKind::If(ast::Cond::Expr(c), block(then_, span), e), span)
}

/// `({ pre; e; })`, or `e` alone.
pub(super) fn wrap(pre: Vec<Stmt>, e: Expr) -> Expr {
    if pre.is_empty() {
        return e;
    }
    let span = e.span;
    let mut stmts = pre;
    stmts.push(stmt(StmtKind::Expr(e), span));
    mk(ExprKind::Access(ast::Block { stmts, span }), span)
}

pub(super) fn is_simple(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Int(..) | ExprKind::Var(_))
}

pub(super) fn is_null_constant(e: &ast::Expr) -> bool {
    match &e.kind {
        ExprKind::Int(0, _) => true,
        ExprKind::Cast(_, x) | ExprKind::PtrCast(_, x) => is_null_constant(x),
        _ => false,
    }
}

pub(super) fn pointee(ty: &CType) -> Option<&CType> {
    match ty {
        CType::Ptr(t) => Some(t),
        _ => None,
    }
}

impl Mem {
    pub(super) fn int_val(e: Expr) -> Val {
        Val {
            pre: vec![],
            leaves: vec![e],
            ty: CType::Int(IntType::Int),
        }
    }

    pub(super) fn null(span: Span) -> Val {
        Val {
            pre: vec![],
            leaves: vec![int(0, span), int(0, span)],
            ty: CType::Ptr(Box::new(CType::Void)),
        }
    }

    /// An integer expression for a value of integer type.
    pub(super) fn int_of(&mut self, v: Val, span: Span) -> Expr {
        if v.leaves.len() != 1 {
            self.unsupported(span, format!("a value of type `{}` used as an integer", v.ty.c_name()));
            return int(0, span);
        }
        let e = v.leaves.into_iter().next().expect("one leaf");
        wrap(v.pre, e)
    }

    /// `e` as an integer expression.
    pub(super) fn int_expr(&mut self, e: &ast::Expr) -> Expr {
        let v = self.rv(e);
        self.int_of(v, e.span)
    }

    /// `e` as a truth value: a pointer is true when not null.
    pub(super) fn cond_expr(&mut self, e: &ast::Expr) -> Expr {
        let v = self.rv(e);
        if matches!(v.ty, CType::Ptr(_)) {
            let tag = v.leaves[0].clone();
            return wrap(v.pre, bin(BinOp::Ne, tag, int(0, e.span), e.span));
        }
        self.int_of(v, e.span)
    }

    /// Binds a leaf to a temporary unless it is a variable or constant.
    pub(super) fn bind(&mut self, pre: &mut Vec<Stmt>, e: Expr, ty: IntType) -> Expr {
        if is_simple(&e) {
            return e;
        }
        let span = e.span;
        let t = self.temp(ty);
        pre.push(assign(var(&t, span), e, span));
        var(&t, span)
    }

    /// The value of `e` (arrays decay to pointers to their first element).
    pub(super) fn rv(&mut self, e: &ast::Expr) -> Val {
        let span = e.span;
        match &e.kind {
            ExprKind::Int(..) | ExprKind::Float(..) | ExprKind::Bool(_) => Self::int_val(e.clone()),
            ExprKind::Var(id) if self.lookup(&id.name).is_none() => {
                if id.name == "NULL" {
                    return Self::null(span);
                }
                if self.fn_types.contains_key(&id.name) {
                    return self.fn_value(id, span);
                }
                Self::int_val(e.clone())
            }
            ExprKind::Var(_)
            | ExprKind::Index(..)
            | ExprKind::IndexOf(..)
            | ExprKind::Deref(_)
            | ExprKind::Member(..) => {
                let (mut pre, loc) = self.lv(e);
                let mut v = self.read(loc, span);
                pre.append(&mut v.pre);
                v.pre = pre;
                v
            }
            ExprKind::AddrOf(x) if self.names_function(x) => {
                let ExprKind::Var(id) = &x.kind else {
                    unreachable!("a function's name")
                };
                self.fn_value(id, span)
            }
            ExprKind::AddrOf(x) => {
                let (mut pre, loc) = self.lv(x);
                let mut v = self.address(loc, span);
                pre.append(&mut v.pre);
                v.pre = pre;
                v
            }
            ExprKind::Call(name, args) => self.call(name, args, span),
            ExprKind::CallPtr(f, args) => self.call_ptr(f, args, span),
            ExprKind::Unary(op, x) => {
                let v = self.rv(x);
                if let (CType::Ptr(_), UnOp::Not) = (&v.ty, op) {
                    let tag = v.leaves[0].clone();
                    return Self::int_val(wrap(v.pre, bin(BinOp::Eq, tag, int(0, span), span)));
                }
                let x = self.int_of(v, span);
                Self::int_val(mk(ExprKind::Unary(*op, Box::new(x)), span))
            }
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, span),
            ExprKind::Ternary(c, a, b) => {
                let c = self.cond_expr(c);
                let (va, vb) = (self.rv_for_ptr(a, b), self.rv_for_ptr(b, a));
                if va.leaves.len() == 1 && vb.leaves.len() == 1 && va.ty.is_int() {
                    let (a, b) = (self.int_of(va, span), self.int_of(vb, span));
                    return Self::int_val(mk(ExprKind::Ternary(Box::new(c), Box::new(a), Box::new(b)), span));
                }
                if va.leaves.len() != vb.leaves.len() {
                    self.unsupported(span, "`?:` with operands of different types");
                    return Self::int_val(int(0, span));
                }
                let leaves = self.types.leaves(&va.ty).unwrap_or_default();
                let temps: Vec<String> = leaves.iter().map(|l| self.temp(l.ty)).collect();
                let arm = |v: Val| {
                    let mut s = v.pre;
                    for (t, x) in temps.iter().zip(v.leaves) {
                        s.push(assign(var(t, span), x, span));
                    }
                    s
                };
                let ty = va.ty.clone();
                let pre = vec![if_(c, arm(va), arm(vb), span)];
                Val {
                    pre,
                    leaves: temps.iter().map(|t| var(t, span)).collect(),
                    ty,
                }
            }
            ExprKind::Assign(op, lhs, rhs) => self.assign_expr(*op, lhs, rhs, span),
            ExprKind::IncDec { target, inc, prefix } => self.inc_dec(target, *inc, *prefix, span),
            ExprKind::Comma(list) => {
                let mut pre = Vec::new();
                let (last, init) = list.split_last().expect("a comma list is not empty");
                for x in init {
                    let v = self.rv(x);
                    pre.extend(self.discard(v, x.span));
                }
                let mut v = self.rv(last);
                pre.append(&mut v.pre);
                v.pre = pre;
                v
            }
            ExprKind::Cast(t, x) => {
                let v = self.rv(x);
                if !v.ty.is_int() && v.leaves.len() == 2 {
                    self.unsupported(span, "converting a pointer to an integer is not supported");
                }
                let x = self.int_of(v, span);
                Self::int_val(mk(ExprKind::Cast(*t, Box::new(x)), span))
            }
            ExprKind::Bits(t, x) => {
                let v = self.rv(x);
                let x = self.int_of(v, span);
                Self::int_val(mk(ExprKind::Bits(*t, Box::new(x)), span))
            }
            ExprKind::PtrCast(t, x) => {
                if is_null_constant(x) {
                    let mut v = Self::null(span);
                    v.ty = t.clone();
                    return v;
                }
                let mut v = self.rv(x);
                let ok = pointee(&v.ty).is_some() && pointee(t).is_some();
                if ok {
                    self.convert_ptr(&v.ty, t, &v.leaves, span);
                } else {
                    self.unsupported(
                        span,
                        format!(
                            "a cast from `{}` to `{}` is not supported (only between equal pointer types and `void *`)",
                            v.ty.c_name(),
                            t.c_name()
                        ),
                    );
                    // Still a pointer's two leaves (`(void *)1` has one),
                    // so what reads it goes on to the next error.
                    v = Self::null(span);
                }
                v.ty = t.clone();
                v
            }
            ExprKind::SizeOf(x) => {
                if let ExprKind::Var(id) = &x.kind {
                    if let Some(info) = self.lookup(&id.name).cloned() {
                        if !info.ty.is_int() {
                            let size = self.size_of(&info.ty, span);
                            return Self::int_val(match info.len {
                                Some(n) => bin(BinOp::Mul, n, size, span),
                                None => size,
                            });
                        }
                        return Self::int_val(mk(ExprKind::SizeOf(Box::new(var(&info.out, span))), span));
                    }
                }
                if let Some(size) = self.array_size(x, span) {
                    return Self::int_val(size);
                }
                if let Some(size) = self.struct_size(x, span) {
                    return Self::int_val(size);
                }
                let v = self.rv(x);
                if v.ty.is_int() {
                    let x = self.int_of(v, span);
                    return Self::int_val(mk(ExprKind::SizeOf(Box::new(x)), span));
                }
                let ty = v.ty.clone();
                Self::int_val(self.size_of(&ty, span))
            }
            ExprKind::SizeOfType(t) => Self::int_val(self.size_of(t, span)),
            ExprKind::StmtExpr(b) => self.stmt_expr(b, span),
            ExprKind::InitList(_) => {
                self.unsupported(span, "an initialiser list here is not supported");
                Self::int_val(int(0, span))
            }
            ExprKind::DerefIndex(..) | ExprKind::Access(_) | ExprKind::Offset(..) => Self::int_val(e.clone()),
        }
    }

    /// The size of `x` when it names a struct (`sizeof *p`), which is
    /// not read (its array fields could not be).
    fn struct_size(&mut self, x: &ast::Expr, span: Span) -> Option<Expr> {
        if !matches!(
            x.kind,
            ExprKind::Deref(_) | ExprKind::Member(..) | ExprKind::Index(..) | ExprKind::IndexOf(..)
        ) {
            return None;
        }
        match Self::loc_ty(&self.lv(x).1) {
            ty @ CType::Struct(_) => Some(self.size_of(&ty, span)),
            _ => None,
        }
    }

    /// The size of `x` when it names an array field or union member
    /// (`sizeof(s.a)`, `sizeof(p->a)`, `sizeof(u.b)`), which its value, a
    /// pointer, would not tell. `sizeof` does not evaluate `x`: the
    /// location's statements are dropped.
    fn array_size(&mut self, x: &ast::Expr, span: Span) -> Option<Expr> {
        if !matches!(x.kind, ExprKind::Member(..) | ExprKind::IndexOf(..)) {
            return None;
        }
        match self.lv(x).1 {
            // An array, or an array field of an array's element (`rows.rs`).
            Loc::Named { ty, len: Some(n), .. } | Loc::Ptr { ty, len: Some(n), .. } => {
                Some(bin(BinOp::Mul, n, self.size_of(&ty, span), span))
            }
            Loc::Member {
                ty,
                len: Some(n),
                at: None,
                ..
            } => Some(int(n * ty.size(), span)),
            _ => None,
        }
    }

    /// `a` as a value, where a null constant becomes a null pointer when
    /// `other` is a pointer.
    pub(super) fn rv_for_ptr(&mut self, a: &ast::Expr, other: &ast::Expr) -> Val {
        if is_null_constant(a) && self.is_pointer(other) {
            return Self::null(a.span);
        }
        self.rv(a)
    }

    /// Whether `e` has a pointer type (a trial translation, not kept).
    pub(super) fn is_pointer(&mut self, e: &ast::Expr) -> bool {
        matches!(self.trial_type(e), CType::Ptr(_))
    }

    /// The type of `e`'s value (a trial translation, not kept).
    fn trial_type(&mut self, e: &ast::Expr) -> CType {
        let saved = (self.temp_next, self.temps.len(), self.errors.len(), self.emit);
        self.emit = false;
        let v = self.rv(e);
        self.temp_next = saved.0;
        self.temps.truncate(saved.1);
        self.errors.truncate(saved.2);
        self.emit = saved.3;
        v.ty
    }

    /// `({ s1; ...; e; })`. An integer value stays a statement expression
    /// (lowering runs it); a pointer or struct `e`, one of the block's own
    /// locals or a value from outside it, is copied to temporaries at the
    /// block's end, and the block runs first.
    fn stmt_expr(&mut self, b: &ast::Block, span: Span) -> Val {
        let (init, e) = match b.stmts.split_last() {
            Some((
                Stmt {
                    kind: StmtKind::Expr(e),
                    ..
                },
                init,
            )) => (init, e),
            _ => return Self::int_val(mk(ExprKind::StmtExpr(self.stmt_expr_block(b)), span)),
        };
        let own = |n: &str| {
            init.iter().rev().find_map(|s| match &s.kind {
                StmtKind::Decl(ds) => ds.iter().find(|d| d.name.name == n && d.array.is_none()),
                _ => None,
            })
        };
        let ty = match &e.kind {
            ExprKind::Var(id) if own(&id.name).is_some() => own(&id.name).map(|d| d.ctype.clone()).expect("own"),
            _ => self.trial_type(e),
        };
        if ty.is_int() {
            return Self::int_val(mk(ExprKind::StmtExpr(self.stmt_expr_block(b)), span));
        }
        self.scopes.push(HashMap::new());
        let mut stmts: Vec<Stmt> = init.iter().flat_map(|s| self.stmt(s)).collect();
        let v = self.rv(e);
        self.scopes.pop();
        stmts.extend(v.pre);
        let leaves = self.types.leaves(&v.ty).unwrap_or_default();
        let mut temps = Vec::new();
        for (l, x) in leaves.iter().zip(v.leaves) {
            let t = self.temp(l.ty);
            stmts.push(assign(var(&t, e.span), x, e.span));
            temps.push(var(&t, e.span));
        }
        Val {
            pre: vec![stmt(StmtKind::Block(ast::Block { stmts, span: b.span }), span)],
            leaves: temps,
            ty: v.ty,
        }
    }

    pub(super) fn size_of(&mut self, t: &CType, span: Span) -> Expr {
        match self.types.size_align(t) {
            Ok((s, _)) => mk(ExprKind::Int(s, IntType::UInt), span),
            Err(msg) => {
                self.unsupported(span, msg);
                int(1, span)
            }
        }
    }

    pub(super) fn binary(&mut self, op: BinOp, a: &ast::Expr, b: &ast::Expr, span: Span) -> Val {
        if op.is_logical() {
            let (a, b) = (self.cond_expr(a), self.cond_expr(b));
            return Self::int_val(bin(op, a, b, span));
        }
        // A null constant is a pointer only where it is compared with one.
        let (va, vb) = if op.is_relational() {
            (self.rv_for_ptr(a, b), self.rv_for_ptr(b, a))
        } else {
            (self.rv(a), self.rv(b))
        };
        let (pa, pb) = (matches!(va.ty, CType::Ptr(_)), matches!(vb.ty, CType::Ptr(_)));
        if !pa && !pb {
            let (a, b) = (self.int_of(va, a.span), self.int_of(vb, b.span));
            return Self::int_val(bin(op, a, b, span));
        }
        match (op, pa, pb) {
            (BinOp::Add | BinOp::Sub, true, false) | (BinOp::Add, false, true) => {
                let (p, k) = if pa { (va, vb) } else { (vb, va) };
                let k = self.int_of(k, span);
                let Val {
                    mut pre,
                    mut leaves,
                    ty,
                } = p;
                let off = leaves.pop().expect("a pointer has two leaves");
                let tag = leaves.pop().expect("a pointer has two leaves");
                let arith = if op == BinOp::Sub { BinOp::Sub } else { BinOp::Add };
                let (tag, off) = self.moved(&mut pre, (tag, off), &ty, arith, k, span);
                Val {
                    pre,
                    leaves: vec![tag, off],
                    ty,
                }
            }
            (BinOp::Sub, true, true) => {
                let mut pre = va.pre;
                pre.extend(vb.pre);
                let p = (va.leaves[0].clone(), va.leaves[1].clone());
                let diff = self.difference(p, vb.leaves[1].clone(), &va.ty, span);
                Self::int_val(wrap(pre, diff))
            }
            (BinOp::Eq | BinOp::Ne, true, true) => {
                let mut pre = va.pre;
                pre.extend(vb.pre);
                // `p != q` as `tag != tag || off != off` (not `!(... == ...)`):
                // each comparison then reads as the source's, so a trace
                // says "`p != 0` is true" where the source does.
                let join = if op == BinOp::Eq { BinOp::And } else { BinOp::Or };
                let e = bin(
                    join,
                    bin(op, va.leaves[0].clone(), vb.leaves[0].clone(), span),
                    bin(op, va.leaves[1].clone(), vb.leaves[1].clone(), span),
                    span,
                );
                Self::int_val(wrap(pre, e))
            }
            (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, true, true) => {
                let mut pre = va.pre;
                pre.extend(vb.pre);
                // In rows (`rows.rs`), addresses are ordered as C lays them out.
                let ty = pointee(&va.ty).cloned().unwrap_or(CType::Void);
                let a = self.address_order(&va.leaves[0], &va.leaves[1], &ty, span);
                let b = self.address_order(&vb.leaves[0], &vb.leaves[1], &ty, span);
                Self::int_val(wrap(pre, bin(op, a, b, span)))
            }
            _ => {
                self.unsupported(span, format!("`{}` on a pointer is not supported", op.symbol()));
                Self::int_val(int(0, span))
            }
        }
    }

    /// Runs a value for its side effects only.
    pub(super) fn discard(&mut self, v: Val, span: Span) -> Vec<Stmt> {
        let mut pre = v.pre;
        for l in v.leaves {
            if !is_simple(&l) {
                pre.push(stmt(StmtKind::Expr(l), span));
            }
        }
        pre
    }
}
