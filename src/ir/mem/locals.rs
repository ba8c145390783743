//! Local declarations: a local's storage (global storage when its address
//! is taken), its initialisation, and a declaration that copies a struct
//! with array fields (`struct_copy.rs`).

use super::expr::*;
use super::*;
use crate::syntax::ast::{Init, Stmt, StmtKind, VarDecl};

impl Mem {
    pub(super) fn local_decls(&mut self, ds: &[VarDecl], span: Span) -> Vec<Stmt> {
        let mut kept = Vec::new();
        let mut out = Vec::new();
        for d in ds {
            // `struct T b = a;` with array fields: declared, then copied.
            // Declared as zeros (`{}`), not indeterminate: the copy writes
            // every leaf at once, and an indeterminate value would be a
            // choice of every run and a draw of every engine.
            let copy = self.copied_init(d);
            match &copy {
                Some(_) => {
                    let d = VarDecl {
                        init: Some(Init::List(Vec::new(), d.span)),
                        ..d.clone()
                    };
                    self.local_decl(&d, &mut kept, &mut out, span);
                }
                None => self.local_decl(d, &mut kept, &mut out, span),
            }
            if let Some(v) = copy.and_then(|e| self.struct_copy(&var(&d.name.name, d.name.span), &e, d.span)) {
                if !kept.is_empty() {
                    out.push(stmt(StmtKind::Decl(std::mem::take(&mut kept)), span));
                }
                out.extend(self.discard(v, d.span));
            }
        }
        if !kept.is_empty() {
            out.push(stmt(StmtKind::Decl(kept), span));
        }
        out
    }

    /// Declaration `d` of a local: its storage and initialisation, into
    /// `kept` (declarations not yet out) and `out`.
    fn local_decl(&mut self, d: &VarDecl, kept: &mut Vec<VarDecl>, out: &mut Vec<Stmt>, span: Span) {
        let decl = self.new_local(&d.name.name);
        let in_block = self.declared_in_block(decl);
        if d.is_static && !d.ctype.is_int() {
            self.unsupported(d.span, "`static` locals of pointer or struct type are not supported");
        }
        if self.taken.contains(&decl) && d.is_static {
            self.unsupported(d.span, "the address of a `static` local is not supported");
        }
        if self.taken.contains(&decl) {
            // Global storage: the declaration assigns it.
            if !kept.is_empty() {
                out.push(stmt(StmtKind::Decl(std::mem::take(kept)), span));
            }
            let name = self.storage_name(&d.name.name, decl);
            let info = VarInfo {
                out: name.clone(),
                ty: d.ctype.clone(),
                len: d.array.clone(),
                elems: self.vla_lengths.get(&d.name.span).cloned(),
                decl,
            };
            // Its storage is global, where a size that names a local
            // (a variable-length array) would name a global instead.
            if let Some(ast::ExprKind::Var(id)) = d.array.as_ref().map(|e| &e.kind) {
                if self.scopes.iter().any(|s| s.contains_key(&id.name)) {
                    self.error(
                        id.span,
                        format!("the size of array `{}` is not a constant", d.name.name),
                    );
                }
            }
            self.taken_storage(&name, &d.ctype, d.array.as_ref(), d.span);
            if in_block && self.emit {
                let starts = self.lifetime_starts(&name, d.span);
                out.push(starts);
            }
            self.scopes
                .last_mut()
                .expect("a scope")
                .insert(d.name.name.clone(), info);
            out.extend(self.taken_init(d, &name));
            return;
        }
        let info = VarInfo {
            out: d.name.name.clone(),
            ty: d.ctype.clone(),
            len: d.array.clone(),
            elems: self.vla_lengths.get(&d.name.span).cloned(),
            decl,
        };
        // In scope in its own initialiser (C11 6.2.1p7), as
        // `T *p = malloc(sizeof *p)` needs.
        self.scopes
            .last_mut()
            .expect("a scope")
            .insert(d.name.name.clone(), info);
        let init = self.decl_inits(d);
        if d.ctype.is_int() {
            let mut d2 = d.clone();
            d2.init = init.and_then(|mut i| i.pop());
            kept.push(d2);
        } else {
            kept.extend(self.leaf_decls(d, &d.name.name, init));
        }
    }

    /// The initialiser of `d` when it copies a struct with array fields
    /// (`struct_copy.rs`).
    fn copied_init(&self, d: &VarDecl) -> Option<ast::Expr> {
        let Some(Init::Expr(e)) = &d.init else {
            return None;
        };
        let has_rows = self
            .types
            .leaves(&d.ctype)
            .is_ok_and(|ls| ls.iter().any(|l| l.len.is_some()));
        (d.array.is_none()
            && matches!(d.ctype, CType::Struct(_))
            && has_rows
            && !matches!(e.kind, ast::ExprKind::InitList(_)))
        .then(|| e.clone())
    }
    /// The declaration of taken storage `name`: its initial value, or an
    /// arbitrary one (C: an uninitialised local is indeterminate).
    fn taken_init(&mut self, d: &VarDecl, name: &str) -> Vec<Stmt> {
        let span = d.span;
        let leaves = self.types.leaves(&d.ctype).unwrap_or_default();
        let inits = self.decl_inits(d);
        let mut out = Vec::new();
        for (k, l) in leaves.iter().enumerate() {
            let leaf = format!("{name}{}", l.path);
            match inits.as_ref().and_then(|i| i.get(k)) {
                Some(Init::Expr(e)) => out.push(assign(var(&leaf, span), e.clone(), span)),
                Some(Init::List(es, _)) => {
                    // Elements not given are 0 (C11 6.7.9).
                    let len = super::types::Types::storage_len(d.array.as_ref(), l);
                    let Some(n) = len.ok().flatten().as_ref().and_then(crate::ir::lower::const_eval) else {
                        self.unsupported(span, "an array initialiser needs a constant size");
                        continue;
                    };
                    for i in 0..n {
                        let x = es.get(i as usize).cloned().unwrap_or_else(|| int(0, span));
                        let at = ast::Expr {
                            kind: ast::ExprKind::Index(
                                ast::Ident {
                                    name: leaf.clone(),
                                    span,
                                },
                                Box::new(int(i, span)),
                            ),
                            span,
                        };
                        out.push(assign(at, x, span));
                    }
                }
                None => out.push(call(HAVOC, vec![var(&leaf, span)], span)),
            }
        }
        out
    }
}
