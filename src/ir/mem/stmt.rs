//! Declarations, statements and functions with pointers and structs, as
//! Cimple: each declaration becomes its leaves, taken storage global.

use super::expr::*;
use super::*;
use crate::syntax::ast::{Block, Cond, Init, Param, Stmt, StmtKind, VarDecl};

impl Mem {
    pub(super) fn run(&mut self, p: &ast::Program) -> ast::Program {
        let recursive = super::call::recursive_functions(p);
        let mut items = Vec::new();
        for it in &p.items {
            match it {
                ast::Item::Struct(_) => {}
                ast::Item::Globals(ds) => {
                    let out = self.global_decls(ds);
                    items.push(ast::Item::Globals(out));
                }
                ast::Item::Function(f) => {
                    let out = self.function(f, recursive.contains(&f.name.name));
                    // Every call of an allocation wrapper allocates itself.
                    if !self.wrappers.contains_key(&f.name.name) {
                        items.push(ast::Item::Function(out));
                    }
                }
                ast::Item::Prototype(pr) => items.push(ast::Item::Prototype(self.prototype(pr))),
                ast::Item::Skipped(s) => items.push(ast::Item::Skipped(s.clone())),
            }
        }
        let extra = std::mem::take(&mut self.extra_globals);
        if !extra.is_empty() {
            items.insert(0, ast::Item::Globals(extra));
        }
        ast::Program {
            items,
            ..ast::Program::default()
        }
    }

    /// A new declaration of `name`: its number, whether its address is
    /// taken, and the name its value goes by.
    fn declared(&mut self, name: &str) -> (usize, bool, String) {
        let decl = self.new_local(name);
        let taken = self.taken.contains(&decl);
        let out = if taken {
            self.storage_name(name, decl)
        } else {
            name.to_string()
        };
        (decl, taken, out)
    }

    pub(super) fn new_decl(&mut self) -> usize {
        self.next_decl += 1;
        self.next_decl
    }

    /// Declarations of the leaves of `d` (named `out` + leaf path).
    pub(super) fn leaf_decls(&mut self, d: &VarDecl, out: &str, init: Option<Vec<Init>>) -> Vec<VarDecl> {
        let leaves = match self.types.leaves(&d.ctype) {
            Ok(l) => l,
            Err(msg) => {
                self.unsupported(d.span, msg);
                return vec![];
            }
        };
        let mut lens = Vec::new();
        for l in &leaves {
            match super::types::Types::storage_len(d.array.as_ref(), l) {
                Ok(n) => lens.push(n),
                Err(msg) => {
                    self.unsupported(d.span, msg);
                    return vec![];
                }
            }
        }
        leaves
            .iter()
            .zip(lens)
            .enumerate()
            .map(|(k, (l, len))| VarDecl {
                ty: l.ty,
                ctype: CType::Int(l.ty),
                name: ast::Ident {
                    name: format!("{out}{}", l.path),
                    span: d.name.span,
                },
                array: len,
                init: init.as_ref().and_then(|i| i.get(k).cloned()),
                span: d.span,
                is_static: d.is_static,
                // A scalar's one leaf is the object itself.
                is_const: d.is_const && l.path.is_empty(),
                arbitrary: d.arbitrary,
            })
            .collect()
    }

    /// The per-leaf initialisers of declaration `d` (an array of structs or
    /// pointers gets one list per leaf).
    pub(super) fn decl_inits(&mut self, d: &VarDecl) -> Option<Vec<Init>> {
        let init = d.init.as_ref()?;
        if d.ctype.is_int() {
            return Some(vec![match init {
                Init::Expr(e) => Init::Expr(self.int_expr(e)),
                Init::List(es, s) => Init::List(es.iter().map(|e| self.int_expr(e)).collect(), *s),
            }]);
        }
        match (init, &d.array) {
            (Init::Expr(e), None) => Some(self.init_leaves(&d.ctype, e)),
            (Init::List(es, s), None) => {
                let e = ast::Expr {
                    kind: ast::ExprKind::InitList(es.clone()),
                    span: *s,
                };
                Some(self.init_leaves(&d.ctype, &e))
            }
            (Init::List(es, s), Some(_)) => {
                let rows: Vec<Option<i64>> = self
                    .types
                    .leaves(&d.ctype)
                    .unwrap_or_default()
                    .iter()
                    .map(|l| l.len.as_ref().and_then(crate::ir::lower::const_eval))
                    .collect();
                let n = rows.len();
                let mut lists: Vec<Vec<ast::Expr>> = vec![Vec::new(); n];
                // An array field's rows, element by element (`rows.rs`).
                let mut by_elem: Vec<Vec<Vec<ast::Expr>>> = vec![Vec::new(); n];
                for e in es {
                    let leaves = self.init_leaves(&d.ctype, e);
                    for (k, l) in leaves.into_iter().enumerate() {
                        match (l, rows.get(k)) {
                            (Init::Expr(x), Some(None)) => lists[k].push(x),
                            (Init::List(xs, _), Some(Some(len))) if xs.len() as i64 <= *len => by_elem[k].push(xs),
                            _ => self.unsupported(e.span, "this initialiser is not supported"),
                        }
                    }
                }
                let elems = d.array.as_ref().and_then(crate::ir::lower::const_eval).unwrap_or(0);
                for (k, len) in rows.iter().enumerate() {
                    if let Some(len) = len {
                        // Column by column, 0 where nothing is given.
                        let at = |i: i64, j: i64| by_elem[k].get(i as usize).and_then(|r| r.get(j as usize)).cloned();
                        lists[k] = (0..*len)
                            .flat_map(|j| (0..elems).map(move |i| (i, j)))
                            .map(|(i, j)| at(i, j).unwrap_or_else(|| int(0, *s)))
                            .collect();
                    }
                }
                Some(lists.into_iter().map(|l| Init::List(l, *s)).collect())
            }
            (Init::Expr(e), Some(_)) => {
                self.unsupported(e.span, "an array needs `{ ... }` to be initialised");
                None
            }
        }
    }

    fn global_decls(&mut self, ds: &[VarDecl]) -> Vec<VarDecl> {
        let mut out = Vec::new();
        self.func.clear();
        self.scopes.clear();
        for d in ds {
            if let Some(prev) = self.globals.get(&d.name.name) {
                if prev.ty != d.ctype {
                    if self.emit {
                        let msg = format!("conflicting types for global `{}`", d.name.name);
                        self.diags
                            .push(Diag::error(Class::Semantic, d.name.span, msg).with_label("second declaration"));
                    }
                    continue;
                }
            }
            let decl = self.new_decl();
            let info = VarInfo {
                out: d.name.name.clone(),
                ty: d.ctype.clone(),
                len: d.array.clone(),
                elems: None,
                decl,
            };
            self.globals.insert(d.name.name.clone(), info);
            if d.ctype.is_int() && d.init.is_none() {
                out.push(d.clone());
                continue;
            }
            let init = self.decl_inits(d);
            let name = &d.name.name;
            for l in self.types.leaves(&d.ctype).unwrap_or_default() {
                let at = match (&d.array, l.index_at) {
                    // Rows of an array field: the storage's own index.
                    (Some(_), _) if l.len.is_some() => continue,
                    (Some(_), _) => name.len(),
                    (None, Some(at)) => name.len() + at,
                    (None, None) => continue,
                };
                if at < name.len() + l.path.len() {
                    self.index_at.insert(format!("{name}{}", l.path), at);
                }
            }
            out.extend(self.leaf_decls(d, &d.name.name.clone(), init));
        }
        for (span, msg) in std::mem::take(&mut self.errors) {
            self.error(span, msg);
        }
        out
    }

    fn prototype(&mut self, pr: &ast::Prototype) -> ast::Prototype {
        let mut pr = pr.clone();
        if let Some(ps) = &pr.params {
            let mut out = Vec::new();
            for q in ps {
                match self.types.leaves(&q.ctype) {
                    Ok(ls) if !q.ctype.is_int() && q.ctype != CType::Void => {
                        for l in ls {
                            out.push(Param {
                                ty: l.ty,
                                ctype: CType::Int(l.ty),
                                name: q.name.as_ref().map(|n| ast::Ident {
                                    name: format!("{}{}", n.name, l.path),
                                    span: n.span,
                                }),
                                span: q.span,
                                pointer: false,
                                pointee_const: false,
                            })
                        }
                    }
                    _ => out.push(q.clone()),
                }
            }
            pr.params = Some(out);
        }
        pr
    }

    fn function(&mut self, f: &ast::Function, recursive: bool) -> ast::Function {
        self.func = f.name.name.clone();
        self.fn_seen.clear();
        self.scopes = vec![HashMap::new()];
        self.temps.clear();
        self.heap_temps.clear();
        self.temp_next = 0;
        self.errors.clear();
        let is_entry = f.name.name == self.entry;
        let mut params = Vec::new();
        let mut prologue = Vec::new();
        for q in &f.params {
            let Some(name) = q.name.clone() else {
                params.push(q.clone());
                continue;
            };
            if q.ctype.is_int() || q.pointer {
                let (decl, taken, out) = self.declared(&name.name);
                self.scopes[0].insert(
                    name.name.clone(),
                    VarInfo {
                        out: out.clone(),
                        ty: q.ctype.clone(),
                        len: None,
                        elems: None,
                        decl,
                    },
                );
                if taken && q.ctype.is_int() {
                    let mut q2 = q.clone();
                    let inner = format!("{}.in", name.name);
                    q2.name = Some(ast::Ident {
                        name: inner.clone(),
                        span: name.span,
                    });
                    params.push(q2);
                    self.taken_storage(&out, &q.ctype, None, q.span);
                    prologue.push(assign(var(&out, q.span), var(&inner, q.span), q.span));
                } else {
                    params.push(q.clone());
                }
                continue;
            }
            if is_entry && !self.param_used(f, &name.name) {
                // `char **argv` of `main`, never used.
                let mut q2 = q.clone();
                q2.pointer = true;
                params.push(q2);
                continue;
            }
            if is_entry {
                if let Some(msg) = self.entry_param_refused(q) {
                    self.unsupported(q.span, msg);
                } else if let CType::Ptr(_) = q.ctype {
                    let (decl, taken, out) = self.declared(&name.name);
                    if taken || recursive {
                        let what = if taken {
                            "the address of"
                        } else {
                            "recursive calls with"
                        };
                        self.unsupported(
                            q.span,
                            format!("{what} a pointer parameter of the entry is not supported"),
                        );
                    }
                    let argc = f.params[0]
                        .name
                        .as_ref()
                        .and_then(|a| self.lookup(&a.name))
                        .map(|v| v.out.clone());
                    let built = match argc {
                        Some(argc) if self.argv.as_deref() == Some(name.name.as_str()) => {
                            self.argv_param(&argc, &out, q.span)
                        }
                        _ => self.entry_param(&name.name, &out, q.span),
                    };
                    if let Some((leaves, pro)) = built {
                        params.extend(leaves);
                        prologue.extend(pro);
                    }
                    let ty = q.ctype.clone();
                    self.scopes[0].insert(
                        name.name.clone(),
                        VarInfo {
                            out,
                            ty,
                            len: None,
                            elems: None,
                            decl,
                        },
                    );
                    continue;
                }
            }
            let (decl, taken, out) = self.declared(&name.name);
            let leaves = self.types.leaves(&q.ctype).unwrap_or_default();
            let inner = if taken {
                format!("{}.in", name.name)
            } else {
                name.name.clone()
            };
            for l in &leaves {
                params.push(Param {
                    ty: l.ty,
                    ctype: CType::Int(l.ty),
                    name: Some(ast::Ident {
                        name: format!("{inner}{}", l.path),
                        span: name.span,
                    }),
                    span: q.span,
                    pointer: false,
                    pointee_const: false,
                });
            }
            if taken {
                self.taken_storage(&out, &q.ctype, None, q.span);
                for l in &leaves {
                    prologue.push(assign(
                        var(&format!("{out}{}", l.path), q.span),
                        var(&format!("{inner}{}", l.path), q.span),
                        q.span,
                    ));
                }
            }
            self.scopes[0].insert(
                name.name.clone(),
                VarInfo {
                    out,
                    ty: q.ctype.clone(),
                    len: None,
                    elems: None,
                    decl,
                },
            );
        }
        self.params = f
            .params
            .iter()
            .filter_map(|q| q.name.as_ref().map(|n| n.name.clone()))
            .collect();
        for i in self.contracts_of.get(&self.func).cloned().unwrap_or_default() {
            self.rewrite_annotation(i);
        }
        let owner = self.owners.contains(&self.func) && !is_entry;
        if owner && recursive {
            self.unsupported(
                f.name.span,
                "the address of a local of a recursive function is not supported",
            );
        }
        let mut body = self.block_in(&f.body, false);
        let span = f.body.span;
        let mut stmts = Vec::new();
        for (t, ty) in &self.temps {
            stmts.push(stmt(
                StmtKind::Decl(vec![VarDecl::int(t, *ty, Some(int(0, span)), span)]),
                span,
            ));
        }
        if owner {
            let flag = self.alive_flag(&self.func);
            self.flag_global(&flag, span);
            stmts.push(assign(var(&flag, span), int(1, span), span));
            body.stmts.push(assign(var(&flag, span), int(0, span), span));
        }
        if is_entry {
            // Where `main` ends without a `return`.
            let end = Span::new(span.hi.saturating_sub(1) as usize, span.hi as usize);
            body.stmts.extend(self.leak_checks(end));
        }
        stmts.extend(prologue);
        if let Some(&i) = self.contracts_of.get(&self.func).and_then(|c| c.first()) {
            let at = self.annots[i].comment.span;
            let label = ast::Ident {
                name: super::CONTRACT_START.into(),
                span: at,
            };
            stmts.push(stmt(StmtKind::Labeled(label, Box::new(stmt(StmtKind::Empty, at))), at));
        }
        stmts.append(&mut body.stmts);
        body.stmts = stmts;
        let (ret, ret_mem) = match &f.ret_mem {
            Some(t) => match self.types.leaves(t) {
                Ok(ls) => {
                    for l in ls.iter().skip(1) {
                        let name = super::ret_leaf(&self.func, &l.path);
                        self.leaf_global(&name, l.ty, span);
                    }
                    (ast::RetType::Int(ls[0].ty), None)
                }
                Err(msg) => {
                    self.unsupported(f.name.span, msg);
                    (f.ret, None)
                }
            },
            None => (f.ret, None),
        };
        let mut unsupported = f.unsupported.clone();
        unsupported.extend(std::mem::take(&mut self.errors));
        ast::Function {
            ret,
            ret_mem,
            name: f.name.clone(),
            params,
            body,
            span: f.span,
            unsupported,
        }
    }

    /// Global storage for a taken local or parameter (second pass).
    pub(super) fn taken_storage(&mut self, out: &str, ty: &CType, len: Option<&ast::Expr>, span: Span) {
        if !self.emit {
            return;
        }
        let d = VarDecl {
            ty: IntType::Int,
            ctype: ty.clone(),
            name: ast::Ident { name: out.into(), span },
            array: len.cloned(),
            init: None,
            span,
            is_static: false,
            is_const: false,
            arbitrary: false,
        };
        let leaves = self.leaf_decls(&d, out, None);
        self.extra_globals.extend(leaves);
    }

    fn leaf_global(&mut self, name: &str, ty: IntType, span: Span) {
        if self.extra_globals.iter().any(|d| d.name.name == name) {
            return;
        }
        self.extra_globals.push(VarDecl::int(name, ty, None, span));
    }

    /// A global `int` of the model's own, 0 at the start.
    pub(super) fn flag_global(&mut self, name: &str, span: Span) {
        self.zero_global(name, IntType::Int, span)
    }

    /// A global of the model's own that starts with any value.
    pub(super) fn input_global(&mut self, name: &str, ty: IntType, span: Span) {
        self.extra_globals.push(VarDecl {
            arbitrary: true,
            ..VarDecl::int(name, ty, None, span)
        });
    }

    /// A global of the model's own, 0 at the start.
    pub(super) fn zero_global(&mut self, name: &str, ty: IntType, span: Span) {
        if !self.extra_globals.iter().any(|d| d.name.name == name) {
            self.global_with(name, ty, 0, span);
        }
    }

    /// A global of the model's own with initial value `v`.
    pub(super) fn global_with(&mut self, name: &str, ty: IntType, v: i64, span: Span) {
        let init = mk(ast::ExprKind::Int(v, ty), span);
        self.extra_globals.push(VarDecl::int(name, ty, Some(init), span));
    }

    pub(super) fn block(&mut self, b: &Block) -> Block {
        self.block_in(b, true)
    }

    fn block_in(&mut self, b: &Block, scope: bool) -> Block {
        if scope {
            self.open_block();
        }
        let mut stmts = Vec::new();
        for s in &b.stmts {
            stmts.extend(self.stmt(s));
        }
        if scope {
            // The end of the block, where its locals die, when it can be
            // reached by falling through.
            let end = Span::new(b.span.hi.saturating_sub(1) as usize, b.span.hi as usize);
            let ends = self.close_block(end);
            let jumps = |s: &Stmt| {
                matches!(
                    s.kind,
                    StmtKind::Return(_) | StmtKind::Break | StmtKind::Continue | StmtKind::Goto(_)
                )
            };
            if !b.stmts.last().is_some_and(jumps) {
                stmts.extend(ends);
            }
        }
        Block { stmts, span: b.span }
    }

    /// One statement, as one (a block when several).
    pub(super) fn one(&mut self, s: &Stmt) -> Box<Stmt> {
        let mut out = self.stmt(s);
        if out.len() == 1 {
            return Box::new(out.pop().expect("one"));
        }
        Box::new(stmt(
            StmtKind::Block(Block {
                stmts: out,
                span: s.span,
            }),
            s.span,
        ))
    }

    fn cond(&mut self, c: &Cond) -> Cond {
        match c {
            Cond::Expr(e) => Cond::Expr(self.cond_expr(e)),
            Cond::Star(s) => Cond::Star(*s),
        }
    }

    pub(super) fn stmt(&mut self, s: &Stmt) -> Vec<Stmt> {
        let span = s.span;
        let kind = match &s.kind {
            StmtKind::Decl(ds) => return self.local_decls(ds, span),
            StmtKind::Expr(e) => {
                let v = self.rv(e);
                if v.leaves.len() == 1 && v.pre.is_empty() {
                    StmtKind::Expr(v.leaves.into_iter().next().expect("one"))
                } else {
                    let stmts = self.discard(v, span);
                    StmtKind::Expr(wrap(stmts, int(0, span)))
                }
            }
            StmtKind::If(c, t, e) => {
                let c = self.cond(c);
                let t = self.one(t);
                let e = e.as_ref().map(|e| self.one(e));
                StmtKind::If(c, t, e)
            }
            StmtKind::While(c, b) => {
                let c = self.cond(c);
                let outside = self.life_depth();
                StmtKind::While(c, self.jump_body(b, outside, true))
            }
            StmtKind::DoWhile(b, c) => {
                let outside = self.life_depth();
                let b = self.jump_body(b, outside, true);
                StmtKind::DoWhile(b, self.cond(c))
            }
            StmtKind::For(i, c, st, b) => {
                // A `for` is a block: a `break` ends its declarations too.
                let outside = self.life_depth();
                self.open_block();
                let i = i.as_ref().map(|i| self.one(i));
                let c = c.as_ref().map(|c| self.cond(c));
                let st = st.as_ref().map(|st| {
                    let v = self.rv(st);
                    let stmts = self.discard(v, st.span);
                    wrap(stmts, int(0, st.span))
                });
                let b = self.jump_body(b, outside, true);
                let mut out = vec![stmt(StmtKind::For(i, c, st, b), span)];
                out.extend(self.close_block(span));
                return out;
            }
            StmtKind::Switch(e, b) => {
                let e = self.int_expr(e);
                let outside = self.life_depth();
                StmtKind::Switch(e, self.jump_body(b, outside, false))
            }
            StmtKind::Case(e, b) => StmtKind::Case(e.clone(), self.one(b)),
            StmtKind::Default(b) => StmtKind::Default(self.one(b)),
            StmtKind::Labeled(l, b) => {
                self.label_here(&l.name);
                if let Some(&i) = self.markers.get(&(l.span.lo, l.span.hi)) {
                    self.rewrite_annotation(i);
                }
                StmtKind::Labeled(l.clone(), self.one(b))
            }
            StmtKind::Block(b) => StmtKind::Block(self.block(b)),
            StmtKind::Return(Some(e)) => return self.ret(e, span),
            StmtKind::Return(None) => {
                let mut out = self.leave(span);
                out.push(s.clone());
                return out;
            }
            k @ (StmtKind::Break | StmtKind::Continue | StmtKind::Goto(_)) => {
                let mut out = self.leaving(k, span);
                out.push(s.clone());
                return out;
            }
            StmtKind::Empty => StmtKind::Empty,
        };
        vec![stmt(kind, span)]
    }

    /// Before the function returns: its taken locals die.
    fn leave(&mut self, span: Span) -> Vec<Stmt> {
        let mut out = self.leaving(&StmtKind::Return(None), span);
        if self.owners.contains(&self.func) && self.func != self.entry {
            let flag = self.alive_flag(&self.func);
            out.push(assign(var(&flag, span), int(0, span), span));
        }
        if self.func == self.entry {
            out.extend(self.leak_checks(span));
        }
        out
    }

    fn ret(&mut self, e: &ast::Expr, span: Span) -> Vec<Stmt> {
        let want = self.sigs.get(&self.func).and_then(|s| s.ret.clone());
        // `return 0;` in a function returning a pointer returns a null
        // pointer, its offset leaf too (not the last call's offset).
        let v = match &want {
            Some(CType::Ptr(_)) if is_null_constant(e) => Self::null(e.span),
            _ => self.rv(e),
        };
        if let Some(ty) = want {
            self.convert_ptr(&v.ty, &ty, &v.leaves, span);
        }
        let leave = self.leave(span);
        let ret = |x| stmt(StmtKind::Return(Some(x)), span);
        if v.leaves.len() == 1 && leave.is_empty() {
            let x = self.int_of(v, span);
            return vec![ret(x)];
        }
        let Val { mut pre, leaves, ty } = v;
        let ls = self.types.leaves(&ty).unwrap_or_default();
        let mut first = None;
        for (k, (x, l)) in leaves.into_iter().zip(&ls).enumerate() {
            if k == 0 {
                let t = self.temp(l.ty);
                pre.push(assign(var(&t, span), x, span));
                first = Some(var(&t, span));
            } else {
                let g = super::ret_leaf(&self.func, &l.path);
                pre.push(assign(var(&g, span), x, span));
            }
        }
        pre.extend(leave);
        pre.push(ret(first.unwrap_or_else(|| int(0, span))));
        vec![stmt(StmtKind::Block(Block { stmts: pre, span }), span)]
    }
}
