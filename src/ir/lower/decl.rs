//! Lowering a local declaration: static storage, inputs of the entry, an
//! arbitrary value for the others, initialisers.

use super::*;

impl Cx<'_> {
    pub(super) fn local_decl(&mut self, fl: &mut FnLower, d: &ast::VarDecl) {
        if fl.scopes.last().is_some_and(|s| s.contains_key(&d.name.name)) {
            self.err(
                Class::Semantic,
                d.name.span,
                format!("`{}` is already declared in this block", d.name.name),
                "duplicate declaration",
            );
            return;
        }
        let len = self.array_len(d, &fl.scopes);
        // Static locals are global storage with a constant initial value.
        if d.is_static {
            let init = self.const_init(d, len.unwrap_or(1));
            let v = self.new_var(Var {
                name: d.name.name.clone(),
                proc: Some(fl.pid),
                kind: VarKind::Local,
                ty: d.ty,
                len,
                span: d.name.span,
                init,
                is_static: true,
            });
            self.globals.push(v);
            fl.scopes.last_mut().expect("a scope").insert(d.name.name.clone(), v);
            return;
        }
        let input = fl.is_entry && d.init.is_none();
        let v = self.new_var(Var {
            name: d.name.name.clone(),
            proc: Some(fl.pid),
            kind: VarKind::Local,
            ty: d.ty,
            len,
            span: d.name.span,
            init: if input { VarInit::Input } else { VarInit::Assigned },
            is_static: false,
        });
        fl.locals.push(v);
        let decl_span = Span::new(d.name.span.lo as usize, d.span.hi as usize);
        // In scope from the end of its declarator, as in C: an initialiser
        // that names the variable (`int g = g + 1;`) reads the new,
        // uninitialised one, an arbitrary value.
        fl.scopes.last_mut().expect("a scope").insert(d.name.name.clone(), v);
        let mut self_ref = false;
        let inits: Vec<&ast::Expr> = match &d.init {
            Some(ast::Init::Expr(e)) => vec![e],
            Some(ast::Init::List(es, _)) => es.iter().collect(),
            None => vec![],
        };
        for e in inits {
            expr_walk(e, &mut |x| {
                if let AK::Var(n) | AK::Index(n, _) = &x.kind {
                    self_ref |= n.name == d.name.name;
                }
            });
        }
        if self_ref {
            self.havoc_whole(fl, v, d);
        }
        match &d.init {
            // A non-entry local starts with an arbitrary value each call.
            None if !fl.is_entry => self.havoc_whole(fl, v, d),
            None => {}
            Some(ast::Init::Expr(e)) if len.is_none() => {
                let place = Place {
                    var: v,
                    index: None,
                    span: d.name.span,
                };
                self.assign_value(fl, place, e, decl_span);
            }
            Some(init) => {
                let Some(n) = len else {
                    self.err(
                        Class::Semantic,
                        d.span,
                        "an initialiser list needs an array",
                        "not an array",
                    );
                    return;
                };
                let exprs: Vec<&ast::Expr> = match init {
                    ast::Init::List(es, _) => es.iter().collect(),
                    ast::Init::Expr(e) => vec![e],
                };
                if exprs.len() > n as usize {
                    self.err(
                        Class::Semantic,
                        d.span,
                        format!("too many initialisers for `{}`", d.name.name),
                        "more values than elements",
                    );
                }
                for k in 0..n as usize {
                    let index = Expr {
                        kind: ExprKind::Const(k as i64),
                        span: d.name.span,
                    };
                    let site = self.new_site(SiteKind::Bounds, d.name.span, fl.pid, Some(v));
                    self.sites[site.index()].static_ok = true;
                    let place = Place {
                        var: v,
                        index: Some((Box::new(index), site)),
                        span: d.name.span,
                    };
                    match exprs.get(k) {
                        Some(e) => self.assign_value(fl, place, e, e.span),
                        None => {
                            let zero = Expr {
                                kind: ExprKind::Const(0),
                                span: d.name.span,
                            };
                            self.emit(
                                fl,
                                NodeKind::Assign {
                                    place,
                                    value: zero,
                                    next: NONE,
                                },
                                decl_span,
                            );
                        }
                    }
                }
            }
        }
    }

    /// Gives the declared variable (a whole array too) an arbitrary value.
    fn havoc_whole(&mut self, fl: &mut FnLower, v: VarId, d: &ast::VarDecl) {
        let place = Place {
            var: v,
            index: None,
            span: d.name.span,
        };
        let kind = NodeKind::Havoc {
            place,
            ty: d.ty,
            next: NONE,
        };
        self.emit(fl, kind, d.name.span);
    }
}
