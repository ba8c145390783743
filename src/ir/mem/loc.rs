//! Locations (`Loc`): named storage, or storage through a pointer, read
//! and written by a split over the objects the pointer may point to.

use super::expr::*;
use super::rows::Row;
use super::*;
use crate::syntax::ast::{BinOp, Expr, ExprKind, Ident, Stmt};

/// Where a value is stored.
#[derive(Clone)]
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
        /// In an array field of an array's elements (`rows.rs`): `index`
        /// is the element's, or the row's element's in the storage.
        row: Option<Row>,
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
    /// Member `ty` (an integer or floating type) of the union stored at
    /// `of` (`unions.rs`); of an array member of `len` elements, element
    /// `at` once indexed.
    Member {
        of: Box<Loc>,
        ty: IntType,
        len: Option<i64>,
        at: Option<Expr>,
    },
}

impl Mem {
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
                        row: None,
                    },
                ),
                None if self.fn_types.contains_key(&id.name) => {
                    // `*f`: the function, through a pointer to it.
                    let v = self.fn_value(id, span);
                    self.through(v, span)
                }
                None => {
                    let msg = if self.sigs.contains_key(&id.name) {
                        format!(
                            "function `{}` used as a value (a function pointer) is not modelled yet",
                            id.name
                        )
                    } else {
                        format!("`{}` is not declared", id.name)
                    };
                    self.unsupported(span, msg);
                    (vec![], self.dummy_loc(span))
                }
            },
            ExprKind::Index(id, i) => {
                let base = mk(ExprKind::Var(id.clone()), id.span);
                self.index_loc(&base, i, span)
            }
            ExprKind::IndexOf(a, i) => self.index_loc(a, i, span),
            ExprKind::Deref(x) => {
                if let Some((pre, Loc::Member { of, ty, len, .. })) = self.punned(x) {
                    let at = Some(int(0, span));
                    return (pre, Loc::Member { of, ty, len, at });
                }
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

    pub(super) fn dummy_loc(&self, span: Span) -> Loc {
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
    pub(super) fn through(&mut self, v: Val, span: Span) -> (Vec<Stmt>, Loc) {
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
    pub(super) fn index_loc(&mut self, a: &ast::Expr, i: &ast::Expr, span: Span) -> (Vec<Stmt>, Loc) {
        let named_array = match &a.kind {
            ExprKind::Var(id) => self.lookup(&id.name).is_some_and(|v| v.len.is_some()),
            ExprKind::Member(..) => true,
            _ => false,
        };
        let punned = self.punned(a);
        if named_array || punned.is_some() {
            let (mut pre, loc) = punned.unwrap_or_else(|| self.lv(a));
            if let Loc::Member {
                of,
                ty,
                len: Some(n),
                at: None,
            } = loc
            {
                let i = self.int_expr(i);
                let i = self.bind(&mut pre, i, IntType::LongLong);
                pre.extend(self.member_index_check(&i, n, span));
                let at = Some(i);
                return (
                    pre,
                    Loc::Member {
                        of,
                        ty,
                        len: Some(n),
                        at,
                    },
                );
            }
            if let Loc::Named {
                base,
                ty,
                index: Some(elem),
                root,
                row: Some(row @ Row { indexed: false, .. }),
                ..
            } = loc
            {
                let j = self.int_expr(i);
                let (flat, row) = self.row_index(&mut pre, elem, &row, j, span);
                let loc = Loc::Named {
                    base,
                    ty,
                    index: Some(flat),
                    len: None,
                    root,
                    row: Some(row),
                };
                return (pre, loc);
            }
            if let Loc::Named {
                base,
                ty,
                index: None,
                len: Some(_),
                root,
                row: None,
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
                        row: None,
                    },
                );
            }
            let v = self.read(loc, span);
            return self.index_ptr(pre, v, i, span);
        }
        let v = self.rv(a);
        self.index_ptr(vec![], v, i, span)
    }

    pub(super) fn index_ptr(&mut self, mut pre: Vec<Stmt>, v: Val, i: &ast::Expr, span: Span) -> (Vec<Stmt>, Loc) {
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
        let tag = leaves.pop().expect("two leaves");
        let (tag, off) = self.moved(&mut pre, (tag, off), &ty, BinOp::Add, i, span);
        leaves = vec![tag, off];
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
    pub(super) fn field(&mut self, loc: Loc, f: &Ident, span: Span) -> Loc {
        let ty = Self::loc_ty(&loc);
        let field = match self.types.field(&ty, &f.name) {
            Ok(field) => field.clone(),
            Err(msg) => {
                self.unsupported(span, msg);
                return self.dummy_loc(span);
            }
        };
        if let CType::Struct(tag) = &ty {
            match self.types.union_storage(tag) {
                Ok(None) => {}
                Ok(Some(_)) => {
                    let CType::Int(t) = field.ty else {
                        unreachable!("a union's members are integers")
                    };
                    return Loc::Member {
                        of: Box::new(loc),
                        ty: t,
                        len: field.array.as_ref().and_then(crate::ir::lower::const_eval),
                        at: None,
                    };
                }
                Err(msg) => {
                    self.unsupported(span, msg);
                    return self.dummy_loc(span);
                }
            }
        }
        match loc {
            Loc::Named {
                base,
                index,
                len,
                root,
                row,
                ..
            } => {
                if len.is_some() {
                    self.unsupported(span, "a field of an array (index it first)");
                }
                let (index, row) = match (index, &field.array, row) {
                    (Some(i), Some(n), None) => match self.row_of(i, n, &root, span) {
                        Ok((elem, row)) => (Some(elem), Some(row)),
                        Err(msg) => {
                            self.unsupported(span, msg);
                            return self.dummy_loc(span);
                        }
                    },
                    (_, Some(_), Some(_)) => {
                        self.unsupported(span, "an array field of an element of an array field is not supported");
                        return self.dummy_loc(span);
                    }
                    // A field of a row's element: no object of its own.
                    (index, None, _) => (index, None),
                    (None, Some(_), None) => (None, None),
                };
                Loc::Named {
                    base: format!("{base}.{}", f.name),
                    ty: field.ty,
                    index,
                    len: field.array,
                    root,
                    row,
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
            Loc::Member { .. } => unreachable!("a union member is an integer"),
        }
    }

    /// Records that the storage of `root` has its address taken (first
    /// pass), and gives the tag of object `base` (second pass).
    pub(super) fn object_tag(&mut self, base: &str, root: &Option<VarInfo>, span: Span) -> i64 {
        if let Some(r) = root {
            if !self.found.contains_key(&r.decl) && !self.emit && !self.taken.contains(&r.decl) {
                let owner = self.owner_of(r);
                let global = self.globals.get(&r.out).is_some_and(|g| g.decl == r.decl);
                let base = if global {
                    r.out.clone()
                } else {
                    self.storage_name(&r.out, r.decl)
                };
                let alive = if self.life.nested(r.decl) {
                    Some(scopes::scope_flag(&base))
                } else {
                    owner.as_ref().map(|f| self.alive_flag(f))
                };
                self.found.insert(
                    r.decl,
                    Taken {
                        base,
                        ty: r.ty.clone(),
                        len: r.len.clone(),
                        owner,
                        alive,
                        elems: r.elems.clone(),
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
    pub(super) fn owner_of(&self, r: &VarInfo) -> Option<String> {
        let global = self.globals.get(&r.out).is_some_and(|g| g.decl == r.decl);
        (!global && self.func != self.entry).then(|| self.func.clone())
    }

    /// `&loc`.
    pub(super) fn address(&mut self, loc: Loc, span: Span) -> Val {
        match loc {
            Loc::Member { .. } => {
                self.unsupported(span, "the address of a union member is not supported");
                Self::null(span)
            }
            Loc::Named {
                base,
                ty,
                index,
                len,
                root,
                ..
            } => {
                // In rows (`rows.rs`) too, the offset is the storage's index.
                let (obj, off) = match &index {
                    Some(i) => (base.clone(), i.clone()),
                    None => (base.clone(), int(0, span)),
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
                    let Some(sub) = self.objects.by_base(&format!("{}{path}", o.base)).cloned() else {
                        // A field with no object of its own (`objects.rs`):
                        // refused, never a wrong access.
                        let field = path.trim_start_matches('.');
                        let msg = format!(
                            "an array field (`{field}`) of an element of `{}` through a pointer is not supported yet",
                            o.base.trim_start_matches("::")
                        );
                        self.unsupported(span, msg);
                        continue;
                    };
                    let mut body = self.row_start_checks(&o, &sub, &off, span);
                    body.push(assign(var(&t, span), int(sub.tag, span), span));
                    cases.push((o.tag, body));
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
    pub(super) fn access_checks(&mut self, o: &objects::Obj, off: &Expr, span: Span) -> Vec<Stmt> {
        let k = self.access(span);
        let invalid = || vec![call(INVALID_ACCESS, vec![int(k, span)], span)];
        let mut out = Vec::new();
        // The element's index (an offset into rows holds the row's too).
        let elem = &Self::elem_of(o, off, span);
        if let Some(flag) = &o.alive {
            let dead = bin(BinOp::Eq, var(flag, span), int(0, span), span);
            out.push(if_(dead, invalid(), vec![], span));
        }
        if let Some(h) = &o.heap {
            let dead = bin(BinOp::Ne, var(&Self::heap_state(h), span), int(1, span), span);
            out.push(if_(dead, invalid(), vec![], span));
            // The element ends past the allocated bytes.
            let size = self.types.size_align(
                &self
                    .objects
                    .by_base(h)
                    .map_or(CType::Int(IntType::Int), |o| o.ty.clone()),
            );
            let size = size.map_or(1, |(s, _)| s);
            // In `long long`: no overflow check of the model's own.
            let wide = mk(ExprKind::Cast(IntType::LongLong, Box::new(elem.clone())), span);
            let end = bin(
                BinOp::Mul,
                bin(BinOp::Add, wide, int(1, span), span),
                int(size, span),
                span,
            );
            let past = bin(BinOp::Gt, end, var(&Self::heap_len(h), span), span);
            out.push(if_(past, invalid(), vec![], span));
            // Inside the object, past the elements the model holds.
            if let (true, Some(len)) = (self.unbounded.contains(h), &o.len) {
                let leaf = self
                    .types
                    .leaves(&o.ty)
                    .ok()
                    .and_then(|l| l.first().map(|l| l.path.clone()));
                let storage = var(
                    &super::file_scope(&format!("{}{}", o.base, leaf.unwrap_or_default())),
                    span,
                );
                let beyond = vec![call(BEYOND_MODEL, vec![int(o.tag, span), storage], span)];
                out.push(if_(
                    bin(BinOp::Ge, elem.clone(), len.clone(), span),
                    beyond,
                    vec![],
                    span,
                ));
            }
        }
        // A step out of a field of a heap array's element (`arith.rs`):
        // past the object, however long the allocation.
        if o.heap.is_some() && o.stride.is_none() && o.index_at.is_some_and(|at| at < o.base.len()) {
            let past = bin(BinOp::Ge, off.clone(), int(crate::ir::pointers::FIELD_STEP, span), span);
            out.push(if_(past, invalid(), vec![], span));
        }
        if let Some(n) = &o.elems {
            // Inside the storage, past the run's elements.
            let wide = mk(ExprKind::Cast(IntType::LongLong, Box::new(elem.clone())), span);
            let past = bin(BinOp::Ge, wide, var(&super::file_scope(n), span), span);
            out.push(if_(past, invalid(), vec![], span));
        }
        if o.len.is_none() && !matches!(off.kind, ExprKind::Int(0, _)) {
            let bad = bin(BinOp::Ne, off.clone(), int(0, span), span);
            out.push(if_(bad, invalid(), vec![], span));
        }
        out
    }

    /// Leaf `path` of object `o` at offset `off`, as an expression.
    pub(super) fn storage(&mut self, o: &objects::Obj, path: &str, off: &Expr, span: Span) -> Expr {
        let name = super::file_scope(&format!("{}{path}", o.base));
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
    pub(super) fn named_leaf(base: &str, path: &str, index: &Option<Expr>, span: Span) -> Expr {
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
            Loc::Named { ty, len, index, .. } => (ty.clone(), len.is_some() && (index.is_none() || rows::is_row(&loc))),
            Loc::Ptr { ty, len, .. } => (ty.clone(), len.is_some()),
            Loc::Member { of, ty, len, at } => {
                if len.is_some() && at.is_none() {
                    self.unsupported(span, "an array member of a union used as a pointer is not supported");
                    return Self::int_val(int(0, span));
                }
                let at = at.as_ref().map(|i| (i, len.unwrap_or(1)));
                return self.read_member(of, *ty, at, span);
            }
        };
        if is_array || matches!(ty, CType::Func(_)) {
            // A function designator is a pointer to it, as an array is.
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
            Loc::Member { .. } => unreachable!("read above"),
        }
    }

    /// Statements storing leaves `vals` (pure) at `loc`.
    pub(super) fn write(&mut self, loc: &Loc, vals: &[Expr], span: Span) -> Vec<Stmt> {
        if let Loc::Member { of, ty, at, len } = loc {
            let at = at.as_ref().map(|i| (i, len.unwrap_or(1)));
            return self.write_member(of, *ty, at, vals, span);
        }
        let ty = Self::loc_ty(loc);
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
                if len.is_some() {
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
                // A string literal is read-only (gcc puts it in .rodata): a
                // write to it is the invalid case.
                let objs: Vec<_> = self
                    .objects
                    .of_type(obj_ty)
                    .filter(|o| !ast::is_string_literal(&o.base))
                    .cloned()
                    .collect();
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
            Loc::Member { .. } => unreachable!("written above"),
        }
    }

    pub(super) fn loc_ty(loc: &Loc) -> CType {
        match loc {
            Loc::Named { ty, .. } | Loc::Ptr { ty, .. } => ty.clone(),
            Loc::Member { ty, .. } => CType::Int(*ty),
        }
    }
}
