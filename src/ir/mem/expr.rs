//! Expressions with pointers and structs, as integer expressions: values
//! (`Val`: statements to run first, then pure leaves) and locations
//! (`Loc`: named storage, or storage through a pointer).

use super::*;
use crate::syntax::ast::{BinOp, Expr, ExprKind, Ident, Init, Stmt, StmtKind, UnOp};

/// A value: `pre` runs first, then each leaf is a pure expression (a
/// variable, a temporary, a constant, arithmetic on them).
pub(super) struct Val {
    pub pre: Vec<Stmt>,
    pub leaves: Vec<Expr>,
    pub ty: CType,
}

/// Where a value is stored.
pub(super) enum Loc {
    /// Variables named `base` + leaf path, indexed by `index` when the
    /// storage is an array; `len` when the location is an array itself.
    Named {
        base: String,
        ty: CType,
        index: Option<Expr>,
        len: Option<ast::Expr>,
        /// The declaration the storage belongs to (to record it as taken).
        root: Option<VarInfo>,
    },
    /// Through a pointer (`tag`, `off`) to an object of type `obj_ty`, then
    /// down the fields `path`.
    Ptr {
        tag: Expr,
        off: Expr,
        obj_ty: CType,
        path: String,
        ty: CType,
        len: Option<ast::Expr>,
    },
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

fn block(stmts: Vec<Stmt>, span: Span) -> Box<Stmt> {
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

fn is_simple(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Int(..) | ExprKind::Var(_))
}

fn is_null_constant(e: &ast::Expr) -> bool {
    match &e.kind {
        ExprKind::Int(0, _) => true,
        ExprKind::Cast(_, x) | ExprKind::PtrCast(_, x) => is_null_constant(x),
        _ => false,
    }
}

fn pointee(ty: &CType) -> Option<&CType> {
    match ty {
        CType::Ptr(t) => Some(t),
        _ => None,
    }
}

impl Mem {
    fn int_val(e: Expr) -> Val {
        Val {
            pre: vec![],
            leaves: vec![e],
            ty: CType::Int(IntType::Int),
        }
    }

    fn null(span: Span) -> Val {
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
            ExprKind::Int(..) | ExprKind::Bool(_) => Self::int_val(e.clone()),
            ExprKind::Var(id) if self.lookup(&id.name).is_none() => {
                if id.name == "NULL" {
                    return Self::null(span);
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
            ExprKind::AddrOf(x) => {
                let (mut pre, loc) = self.lv(x);
                let mut v = self.address(loc, span);
                pre.append(&mut v.pre);
                v.pre = pre;
                v
            }
            ExprKind::Call(name, args) => self.call(name, args, span),
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
            ExprKind::PtrCast(t, x) => {
                if is_null_constant(x) {
                    let mut v = Self::null(span);
                    v.ty = t.clone();
                    return v;
                }
                let mut v = self.rv(x);
                let ok = match (pointee(&v.ty), pointee(t)) {
                    (Some(a), Some(b)) => a == b || *a == CType::Void || *b == CType::Void,
                    _ => false,
                };
                if !ok {
                    self.unsupported(
                        span,
                        format!(
                            "a cast from `{}` to `{}` is not supported (only between equal pointer types and `void *`)",
                            v.ty.c_name(),
                            t.c_name()
                        ),
                    );
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
                let v = self.rv(x);
                if v.ty.is_int() {
                    let x = self.int_of(v, span);
                    return Self::int_val(mk(ExprKind::SizeOf(Box::new(x)), span));
                }
                let ty = v.ty.clone();
                Self::int_val(self.size_of(&ty, span))
            }
            ExprKind::SizeOfType(t) => Self::int_val(self.size_of(t, span)),
            ExprKind::StmtExpr(b) => {
                let b = self.block(b);
                Self::int_val(mk(ExprKind::StmtExpr(b), span))
            }
            ExprKind::InitList(_) => {
                self.unsupported(span, "an initialiser list here is not supported");
                Self::int_val(int(0, span))
            }
            ExprKind::DerefIndex(..) | ExprKind::Access(_) => Self::int_val(e.clone()),
        }
    }

    /// `a` as a value, where a null constant becomes a null pointer when
    /// `other` is a pointer.
    fn rv_for_ptr(&mut self, a: &ast::Expr, other: &ast::Expr) -> Val {
        if is_null_constant(a) && self.is_pointer(other) {
            return Self::null(a.span);
        }
        self.rv(a)
    }

    /// Whether `e` has a pointer type (a trial translation, not kept).
    fn is_pointer(&mut self, e: &ast::Expr) -> bool {
        let saved = (self.temp_next, self.temps.len(), self.errors.len(), self.emit);
        self.emit = false;
        let v = self.rv(e);
        self.temp_next = saved.0;
        self.temps.truncate(saved.1);
        self.errors.truncate(saved.2);
        self.emit = saved.3;
        matches!(v.ty, CType::Ptr(_))
    }

    fn size_of(&mut self, t: &CType, span: Span) -> Expr {
        match self.types.size_align(t) {
            Ok((s, _)) => mk(ExprKind::Int(s, IntType::UInt), span),
            Err(msg) => {
                self.unsupported(span, msg);
                int(1, span)
            }
        }
    }

    fn binary(&mut self, op: BinOp, a: &ast::Expr, b: &ast::Expr, span: Span) -> Val {
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
                let Val { pre, mut leaves, ty } = p;
                let off = leaves.pop().expect("a pointer has two leaves");
                let arith = if op == BinOp::Sub { BinOp::Sub } else { BinOp::Add };
                leaves.push(bin(arith, off, k, span));
                Val { pre, leaves, ty }
            }
            (BinOp::Sub, true, true) => {
                let mut pre = va.pre;
                pre.extend(vb.pre);
                Self::int_val(wrap(
                    pre,
                    bin(BinOp::Sub, va.leaves[1].clone(), vb.leaves[1].clone(), span),
                ))
            }
            (BinOp::Eq | BinOp::Ne, true, true) => {
                let mut pre = va.pre;
                pre.extend(vb.pre);
                let same = bin(
                    BinOp::And,
                    bin(BinOp::Eq, va.leaves[0].clone(), vb.leaves[0].clone(), span),
                    bin(BinOp::Eq, va.leaves[1].clone(), vb.leaves[1].clone(), span),
                    span,
                );
                let e = if op == BinOp::Eq {
                    same
                } else {
                    mk(ExprKind::Unary(UnOp::Not, Box::new(same)), span)
                };
                Self::int_val(wrap(pre, e))
            }
            (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, true, true) => {
                let mut pre = va.pre;
                pre.extend(vb.pre);
                Self::int_val(wrap(pre, bin(op, va.leaves[1].clone(), vb.leaves[1].clone(), span)))
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

    /// The location `e` names.
    pub(super) fn lv(&mut self, e: &ast::Expr) -> (Vec<Stmt>, Loc) {
        let span = e.span;
        match &e.kind {
            ExprKind::Var(id) => match self.lookup(&id.name).cloned() {
                Some(info) => (
                    vec![],
                    Loc::Named {
                        base: info.out.clone(),
                        ty: info.ty.clone(),
                        index: None,
                        len: info.len.clone(),
                        root: Some(info),
                    },
                ),
                None => {
                    self.unsupported(span, format!("`{}` is not declared", id.name));
                    (vec![], self.dummy_loc(span))
                }
            },
            ExprKind::Index(id, i) => {
                let base = mk(ExprKind::Var(id.clone()), id.span);
                self.index_loc(&base, i, span)
            }
            ExprKind::IndexOf(a, i) => self.index_loc(a, i, span),
            ExprKind::Deref(x) => {
                let v = self.rv(x);
                self.through(v, span)
            }
            ExprKind::Member(x, f, arrow) => {
                let (pre, loc) = if *arrow {
                    let v = self.rv(x);
                    self.through(v, span)
                } else {
                    self.lv(x)
                };
                (pre, self.field(loc, f, span))
            }
            _ => {
                self.unsupported(
                    span,
                    "this is not a location that can be assigned or have its address taken",
                );
                (vec![], self.dummy_loc(span))
            }
        }
    }

    fn dummy_loc(&self, span: Span) -> Loc {
        Loc::Ptr {
            tag: int(0, span),
            off: int(0, span),
            obj_ty: CType::Int(IntType::Int),
            path: String::new(),
            ty: CType::Int(IntType::Int),
            len: None,
        }
    }

    /// The location pointed to by pointer value `v`.
    fn through(&mut self, v: Val, span: Span) -> (Vec<Stmt>, Loc) {
        let Some(obj_ty) = pointee(&v.ty).cloned() else {
            self.unsupported(span, format!("`*` on a value of type `{}`", v.ty.c_name()));
            return (v.pre, self.dummy_loc(span));
        };
        if obj_ty == CType::Void {
            self.unsupported(span, "an access through a `void *` pointer");
        }
        let mut pre = v.pre;
        let mut it = v.leaves.into_iter();
        let tag = it.next().expect("a pointer has two leaves");
        let off = it.next().expect("a pointer has two leaves");
        let tag = self.bind(&mut pre, tag, IntType::Int);
        let off = self.bind(&mut pre, off, IntType::Int);
        let loc = Loc::Ptr {
            tag,
            off,
            obj_ty: obj_ty.clone(),
            path: String::new(),
            ty: obj_ty,
            len: None,
        };
        (pre, loc)
    }

    /// `a[i]`: an element of named array storage, or through a pointer.
    fn index_loc(&mut self, a: &ast::Expr, i: &ast::Expr, span: Span) -> (Vec<Stmt>, Loc) {
        let named_array = match &a.kind {
            ExprKind::Var(id) => self.lookup(&id.name).is_some_and(|v| v.len.is_some()),
            ExprKind::Member(..) => true,
            _ => false,
        };
        if named_array {
            let (mut pre, loc) = self.lv(a);
            if let Loc::Named {
                base,
                ty,
                index: None,
                len: Some(_),
                root,
            } = loc
            {
                let i = self.int_expr(i);
                let i = if self.types.leaves(&ty).map_or(1, |l| l.len()) > 1 {
                    self.bind(&mut pre, i, IntType::LongLong)
                } else {
                    i
                };
                return (
                    pre,
                    Loc::Named {
                        base,
                        ty,
                        index: Some(i),
                        len: None,
                        root,
                    },
                );
            }
            let v = self.read(loc, span);
            return self.index_ptr(pre, v, i, span);
        }
        let v = self.rv(a);
        self.index_ptr(vec![], v, i, span)
    }

    fn index_ptr(&mut self, mut pre: Vec<Stmt>, v: Val, i: &ast::Expr, span: Span) -> (Vec<Stmt>, Loc) {
        let Val {
            pre: p2,
            mut leaves,
            ty,
        } = v;
        pre.extend(p2);
        if leaves.len() != 2 {
            self.unsupported(span, format!("indexing a value of type `{}`", ty.c_name()));
            return (pre, self.dummy_loc(span));
        }
        let i = self.int_expr(i);
        let off = leaves.pop().expect("two leaves");
        leaves.push(bin(BinOp::Add, off, i, span));
        let (p3, loc) = self.through(
            Val {
                pre: vec![],
                leaves,
                ty,
            },
            span,
        );
        pre.extend(p3);
        (pre, loc)
    }

    /// Field `f` of a struct location.
    fn field(&mut self, loc: Loc, f: &Ident, span: Span) -> Loc {
        let ty = match &loc {
            Loc::Named { ty, .. } | Loc::Ptr { ty, .. } => ty.clone(),
        };
        let field = match self.types.field(&ty, &f.name) {
            Ok(field) => field.clone(),
            Err(msg) => {
                self.unsupported(span, msg);
                return self.dummy_loc(span);
            }
        };
        match loc {
            Loc::Named {
                base, index, len, root, ..
            } => {
                if len.is_some() {
                    self.unsupported(span, "a field of an array (index it first)");
                }
                if index.is_some() && field.array.is_some() {
                    self.unsupported(span, "an array field of an array element is not supported");
                }
                Loc::Named {
                    base: format!("{base}.{}", f.name),
                    ty: field.ty,
                    index,
                    len: field.array,
                    root,
                }
            }
            Loc::Ptr {
                tag, off, obj_ty, path, ..
            } => Loc::Ptr {
                tag,
                off,
                obj_ty,
                path: format!("{path}.{}", f.name),
                ty: field.ty,
                len: field.array,
            },
        }
    }

    /// Records that the storage of `root` has its address taken (first
    /// pass), and gives the tag of object `base` (second pass).
    fn object_tag(&mut self, base: &str, root: &Option<VarInfo>, span: Span) -> i64 {
        if let Some(r) = root {
            if !self.found.contains_key(&r.decl) && !self.emit && !self.taken.contains(&r.decl) {
                let owner = self.owner_of(r);
                let global = self.globals.get(&r.out).is_some_and(|g| g.decl == r.decl);
                let base = if global {
                    r.out.clone()
                } else {
                    self.storage_name(&r.out)
                };
                self.found.insert(
                    r.decl,
                    Taken {
                        base,
                        ty: r.ty.clone(),
                        len: r.len.clone(),
                        owner,
                    },
                );
            }
        }
        match self.objects.by_base(base) {
            Some(o) => o.tag,
            None => {
                if self.emit {
                    self.unsupported(span, "the address of this storage is not supported");
                }
                0
            }
        }
    }

    /// The function a declaration's storage lives in, unless it is global
    /// or the entry's.
    fn owner_of(&self, r: &VarInfo) -> Option<String> {
        let global = self.globals.get(&r.out).is_some_and(|g| g.decl == r.decl);
        (!global && self.func != self.entry).then(|| self.func.clone())
    }

    /// `&loc`.
    fn address(&mut self, loc: Loc, span: Span) -> Val {
        match loc {
            Loc::Named {
                base,
                ty,
                index,
                len,
                root,
            } => {
                let (obj, off) = match (&index, &len) {
                    (Some(i), _) => (base.clone(), i.clone()),
                    _ => (base.clone(), int(0, span)),
                };
                let tag = self.object_tag(&obj, &root, span);
                let ty = if len.is_some() && index.is_none() {
                    // `&a` of an array: a pointer to its first element
                    // (enough for the uses supported: `*&a` is not).
                    ty.ptr()
                } else {
                    ty.ptr()
                };
                Val {
                    pre: vec![],
                    leaves: vec![int(tag, span), off],
                    ty,
                }
            }
            Loc::Ptr {
                tag,
                off,
                obj_ty,
                path,
                ty,
                ..
            } => {
                if path.is_empty() {
                    return Val {
                        pre: vec![],
                        leaves: vec![tag, off],
                        ty: ty.ptr(),
                    };
                }
                // The sub-object `path` of whichever object `tag` names.
                let t = self.temp(IntType::Int);
                let mut cases = Vec::new();
                let objs: Vec<_> = self.objects.of_type(&obj_ty).cloned().collect();
                for o in objs {
                    let sub = self.objects.by_base(&format!("{}{path}", o.base)).map_or(0, |s| s.tag);
                    cases.push((o.tag, vec![assign(var(&t, span), int(sub, span), span)]));
                }
                let pre = vec![self.split(&tag, cases, span)];
                Val {
                    pre,
                    leaves: vec![var(&t, span), off],
                    ty: ty.ptr(),
                }
            }
        }
    }

    /// `if (tag == k1) s1 else if (tag == k2) s2 ... else invalid`.
    pub(super) fn split(&mut self, tag: &Expr, cases: Vec<(i64, Vec<Stmt>)>, span: Span) -> Stmt {
        let k = self.access(span);
        let mut chain = vec![call(INVALID_ACCESS, vec![int(k, span)], span)];
        for (k, body) in cases.into_iter().rev() {
            chain = vec![if_(bin(BinOp::Eq, tag.clone(), int(k, span), span), body, chain, span)];
        }
        chain.pop().expect("one statement")
    }

    /// The checks for an access to object `o` at offset `off`: alive, and
    /// at offset 0 when it is no array (arrays check their index).
    fn access_checks(&mut self, o: &objects::Obj, off: &Expr, span: Span) -> Vec<Stmt> {
        let k = self.access(span);
        let invalid = || vec![call(INVALID_ACCESS, vec![int(k, span)], span)];
        let mut out = Vec::new();
        if let Some(f) = &o.owner {
            let dead = bin(BinOp::Eq, var(&self.alive_flag(f), span), int(0, span), span);
            out.push(if_(dead, invalid(), vec![], span));
        }
        if o.len.is_none() && !matches!(off.kind, ExprKind::Int(0, _)) {
            let bad = bin(BinOp::Ne, off.clone(), int(0, span), span);
            out.push(if_(bad, invalid(), vec![], span));
        }
        out
    }

    /// Leaf `path` of object `o` at offset `off`, as an expression.
    fn storage(&mut self, o: &objects::Obj, path: &str, off: &Expr, span: Span) -> Expr {
        let name = format!("{}{path}", o.base);
        let k = self.access(span) as u32;
        match o.len {
            Some(_) => mk(
                ExprKind::DerefIndex(Ident { name, span }, Box::new(off.clone()), k),
                span,
            ),
            None => var(&name, span),
        }
    }

    /// Leaf `path` of named storage.
    fn named_leaf(base: &str, path: &str, index: &Option<Expr>, span: Span) -> Expr {
        let id = Ident {
            name: format!("{base}{path}"),
            span,
        };
        match index {
            Some(i) => mk(ExprKind::Index(id, Box::new(i.clone())), span),
            None => mk(ExprKind::Var(id), span),
        }
    }

    /// The value stored at `loc` (an array decays to a pointer).
    pub(super) fn read(&mut self, loc: Loc, span: Span) -> Val {
        let (ty, is_array) = match &loc {
            Loc::Named { ty, len, index, .. } => (ty.clone(), len.is_some() && index.is_none()),
            Loc::Ptr { ty, len, .. } => (ty.clone(), len.is_some()),
        };
        if is_array {
            let mut v = self.address(loc, span);
            v.ty = ty.ptr();
            return v;
        }
        let leaves = match self.types.leaves(&ty) {
            Ok(l) => l,
            Err(msg) => {
                self.unsupported(span, msg);
                return Self::int_val(int(0, span));
            }
        };
        if leaves.iter().any(|l| l.len.is_some()) {
            self.unsupported(span, "copying a struct with an array field is not supported");
            return Self::int_val(int(0, span));
        }
        match loc {
            Loc::Named { base, index, .. } => Val {
                pre: vec![],
                leaves: leaves
                    .iter()
                    .map(|l| Self::named_leaf(&base, &l.path, &index, span))
                    .collect(),
                ty,
            },
            Loc::Ptr {
                tag, off, obj_ty, path, ..
            } => {
                let temps: Vec<String> = leaves.iter().map(|l| self.temp(l.ty)).collect();
                let objs: Vec<_> = self.objects.of_type(&obj_ty).cloned().collect();
                let mut cases = Vec::new();
                for o in objs {
                    let mut body = self.access_checks(&o, &off, span);
                    for (t, l) in temps.iter().zip(&leaves) {
                        let src = self.storage(&o, &format!("{path}{}", l.path), &off, span);
                        body.push(assign(var(t, span), src, span));
                    }
                    cases.push((o.tag, body));
                }
                let pre = vec![self.split(&tag, cases, span)];
                Val {
                    pre,
                    leaves: temps.iter().map(|t| var(t, span)).collect(),
                    ty,
                }
            }
        }
    }

    /// Statements storing leaves `vals` (pure) at `loc`.
    pub(super) fn write(&mut self, loc: &Loc, vals: &[Expr], span: Span) -> Vec<Stmt> {
        let ty = match loc {
            Loc::Named { ty, .. } | Loc::Ptr { ty, .. } => ty.clone(),
        };
        let leaves = match self.types.leaves(&ty) {
            Ok(l) => l,
            Err(msg) => {
                self.unsupported(span, msg);
                return vec![];
            }
        };
        if leaves.len() != vals.len() || leaves.iter().any(|l| l.len.is_some()) {
            self.unsupported(span, format!("assigning to a location of type `{}` here", ty.c_name()));
            return vec![];
        }
        match loc {
            Loc::Named { base, index, len, .. } => {
                if len.is_some() && index.is_none() {
                    self.unsupported(span, "assigning to an array");
                    return vec![];
                }
                leaves
                    .iter()
                    .zip(vals)
                    .map(|(l, v)| assign(Self::named_leaf(base, &l.path, index, span), v.clone(), span))
                    .collect()
            }
            Loc::Ptr {
                tag,
                off,
                obj_ty,
                path,
                len,
                ..
            } => {
                if len.is_some() {
                    self.unsupported(span, "assigning to an array");
                    return vec![];
                }
                let objs: Vec<_> = self.objects.of_type(obj_ty).cloned().collect();
                let mut cases = Vec::new();
                for o in objs {
                    let mut body = self.access_checks(&o, off, span);
                    for (l, v) in leaves.iter().zip(vals) {
                        let dst = self.storage(&o, &format!("{path}{}", l.path), off, span);
                        body.push(assign(dst, v.clone(), span));
                    }
                    cases.push((o.tag, body));
                }
                vec![self.split(tag, cases, span)]
            }
        }
    }

    fn loc_ty(loc: &Loc) -> CType {
        match loc {
            Loc::Named { ty, .. } | Loc::Ptr { ty, .. } => ty.clone(),
        }
    }

    /// `lhs op= rhs` as a value.
    fn assign_expr(&mut self, op: ast::AssignOp, lhs: &ast::Expr, rhs: &ast::Expr, span: Span) -> Val {
        let (mut pre, loc) = self.lv(lhs);
        let ty = Self::loc_ty(&loc);
        let named_int = matches!(&loc, Loc::Named { len: None, .. }) && ty.is_int();
        if named_int {
            // Plain integer storage: C's own assignment, converted by lowering.
            let Loc::Named { base, index, .. } = &loc else {
                unreachable!("checked above")
            };
            let target = Self::named_leaf(base, "", index, span);
            let value = self.int_expr(rhs);
            let e = mk(ExprKind::Assign(op, Box::new(target), Box::new(value)), span);
            return Self::int_val(wrap(pre, e));
        }
        let value = match (op, &ty) {
            (ast::AssignOp::Set, CType::Ptr(_)) if is_null_constant(rhs) => Self::null(span),
            (ast::AssignOp::Set, _) => self.rv(rhs),
            (ast::AssignOp::Add | ast::AssignOp::Sub, CType::Ptr(_)) => {
                let cur = self.read_again(&loc, span);
                let k = self.int_expr(rhs);
                let arith = if op == ast::AssignOp::Add {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                let mut cur = cur;
                let off = cur.leaves.pop().expect("two leaves");
                cur.leaves.push(bin(arith, off, k, span));
                cur
            }
            (_, CType::Int(t)) => {
                // Through a pointer: read, compute, store.
                let cur = self.read_again(&loc, span);
                let cur = self.int_of(cur, span);
                let t_cur = self.bind_always(&mut pre, cur, *t);
                let k = self.int_expr(rhs);
                let binop = compound_op(op);
                let value = mk(ExprKind::Cast(*t, Box::new(bin(binop, t_cur, k, span))), span);
                Self::int_val(value)
            }
            _ => {
                self.unsupported(span, format!("`{}=` on a value of type `{}`", "op", ty.c_name()));
                Self::int_val(int(0, span))
            }
        };
        let Val {
            pre: vpre,
            leaves,
            ty: vty,
        } = value;
        pre.extend(vpre);
        // The stored value, converted to the location's type, in temporaries.
        let lty = self.types.leaves(&ty).unwrap_or_default();
        if lty.len() != leaves.len() {
            self.unsupported(span, format!("assigning a `{}` to a `{}`", vty.c_name(), ty.c_name()));
            return Self::int_val(int(0, span));
        }
        let direct = matches!(loc, Loc::Named { .. }) && leaves.iter().all(is_simple);
        let mut stored = Vec::new();
        for (l, v) in lty.iter().zip(leaves) {
            if direct {
                stored.push(v);
                continue;
            }
            let t = self.temp(l.ty);
            pre.push(assign(var(&t, span), v, span));
            stored.push(var(&t, span));
        }
        pre.extend(self.write(&loc, &stored, span));
        Val {
            pre,
            leaves: stored,
            ty,
        }
    }

    fn bind_always(&mut self, pre: &mut Vec<Stmt>, e: Expr, ty: IntType) -> Expr {
        let span = e.span;
        let t = self.temp(ty);
        pre.push(assign(var(&t, span), e, span));
        var(&t, span)
    }

    /// Reads `loc` again (its tag, offset and index are pure).
    fn read_again(&mut self, loc: &Loc, span: Span) -> Val {
        let copy = match loc {
            Loc::Named {
                base,
                ty,
                index,
                len,
                root,
            } => Loc::Named {
                base: base.clone(),
                ty: ty.clone(),
                index: index.clone(),
                len: len.clone(),
                root: root.clone(),
            },
            Loc::Ptr {
                tag,
                off,
                obj_ty,
                path,
                ty,
                len,
            } => Loc::Ptr {
                tag: tag.clone(),
                off: off.clone(),
                obj_ty: obj_ty.clone(),
                path: path.clone(),
                ty: ty.clone(),
                len: len.clone(),
            },
        };
        self.read(copy, span)
    }

    fn inc_dec(&mut self, target: &ast::Expr, inc: bool, prefix: bool, span: Span) -> Val {
        let (mut pre, loc) = self.lv(target);
        let ty = Self::loc_ty(&loc);
        if matches!(&loc, Loc::Named { len: None, .. }) && ty.is_int() {
            let Loc::Named { base, index, .. } = &loc else {
                unreachable!("checked above")
            };
            let target = Self::named_leaf(base, "", index, span);
            let e = mk(
                ExprKind::IncDec {
                    target: Box::new(target),
                    inc,
                    prefix,
                },
                span,
            );
            return Self::int_val(wrap(pre, e));
        }
        let cur = self.read_again(&loc, span);
        let Val {
            pre: cpre, leaves: cur, ..
        } = cur;
        pre.extend(cpre);
        let op = if inc { BinOp::Add } else { BinOp::Sub };
        let (old, new): (Vec<Expr>, Vec<Expr>) = match &ty {
            CType::Ptr(_) => {
                let tag = self.bind_always(&mut pre, cur[0].clone(), IntType::Int);
                let off = self.bind_always(&mut pre, cur[1].clone(), IntType::Int);
                let new_off = bin(op, off.clone(), int(1, span), span);
                (vec![tag.clone(), off], vec![tag, new_off])
            }
            CType::Int(t) => {
                let old = self.bind_always(&mut pre, cur[0].clone(), *t);
                let new = mk(
                    ExprKind::Cast(*t, Box::new(bin(op, old.clone(), int(1, span), span))),
                    span,
                );
                (vec![old], vec![new])
            }
            _ => {
                self.unsupported(span, "`++`/`--` on a struct");
                return Self::int_val(int(0, span));
            }
        };
        let lty = self.types.leaves(&ty).unwrap_or_default();
        let mut stored = Vec::new();
        for (l, v) in lty.iter().zip(new) {
            let t = self.temp(l.ty);
            pre.push(assign(var(&t, span), v, span));
            stored.push(var(&t, span));
        }
        pre.extend(self.write(&loc, &stored, span));
        Val {
            pre,
            leaves: if prefix { stored } else { old },
            ty,
        }
    }

    /// The leaves of an initialiser for storage of type `ty` (one element).
    pub(super) fn init_leaves(&mut self, ty: &CType, e: &ast::Expr) -> Vec<Init> {
        let span = e.span;
        match (ty, &e.kind) {
            (CType::Struct(tag), ExprKind::InitList(items)) => {
                let fields = match self.types.fields(tag) {
                    Ok(f) => f.to_vec(),
                    Err(msg) => {
                        self.unsupported(span, msg);
                        return vec![];
                    }
                };
                let mut out = Vec::new();
                for (k, f) in fields.iter().enumerate() {
                    let item = items.get(k);
                    match (&f.array, item) {
                        (
                            Some(_),
                            Some(ast::Expr {
                                kind: ExprKind::InitList(xs),
                                span: s,
                            }),
                        ) if f.ty.is_int() => {
                            let xs = xs.iter().map(|x| self.int_expr(x)).collect();
                            out.push(Init::List(xs, *s));
                        }
                        (Some(_), None) if f.ty.is_int() => out.push(Init::List(vec![], span)),
                        (Some(_), _) => {
                            self.unsupported(span, "this initialiser of an array field is not supported");
                        }
                        (None, Some(x)) => out.extend(self.init_leaves(&f.ty, x)),
                        (None, None) => {
                            let n = self.types.leaves(&f.ty).map_or(0, |l| l.len());
                            out.extend((0..n).map(|_| Init::Expr(int(0, span))));
                        }
                    }
                }
                out
            }
            (CType::Ptr(_), _) if is_null_constant(e) => vec![Init::Expr(int(0, span)), Init::Expr(int(0, span))],
            _ => {
                let v = self.rv(e);
                let n = self.types.leaves(ty).map_or(0, |l| l.len());
                if v.leaves.len() != n {
                    self.unsupported(
                        span,
                        format!("initialising a `{}` with a `{}`", ty.c_name(), v.ty.c_name()),
                    );
                    return vec![];
                }
                let mut pre = v.pre;
                let mut out = Vec::new();
                for (k, l) in v.leaves.into_iter().enumerate() {
                    // The statements run in the first leaf's initialiser.
                    let x = if k == 0 { wrap(std::mem::take(&mut pre), l) } else { l };
                    out.push(Init::Expr(x));
                }
                out
            }
        }
    }
}

fn compound_op(op: ast::AssignOp) -> BinOp {
    use ast::AssignOp as A;
    match op {
        A::Set | A::Add => BinOp::Add,
        A::Sub => BinOp::Sub,
        A::Mul => BinOp::Mul,
        A::Div => BinOp::Div,
        A::Mod => BinOp::Mod,
        A::BitAnd => BinOp::BitAnd,
        A::BitOr => BinOp::BitOr,
        A::BitXor => BinOp::BitXor,
        A::Shl => BinOp::Shl,
        A::Shr => BinOp::Shr,
    }
}
