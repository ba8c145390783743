//! Built-in functions: which calls are built-ins, and their nodes
//! (`reach_error`, `abort`, assertions and assumptions, non-deterministic
//! values, the memory model's invalid access and havoc).

use super::*;

impl Cx<'_> {
    pub(super) fn builtin_for(&self, name: &ast::Ident) -> Option<Builtin> {
        if self.procs.contains_key(&name.name) && !builtin_always(&name.name) {
            return None;
        }
        builtin(&name.name)
    }

    /// A call of a `void` function or of a builtin that returns nothing.
    pub(super) fn is_void_call(&self, e: &ast::Expr) -> bool {
        let AK::Call(name, _) = &e.kind else {
            return false;
        };
        match self.procs.get(&name.name) {
            Some(p) if !builtin_always(&name.name) => self.proc_list[p.index()].ret == ast::RetType::Void,
            _ => matches!(
                self.builtin_for(name),
                Some(Builtin::ReachError | Builtin::Stop | Builtin::Assert | Builtin::Assume | Builtin::Vla)
            ),
        }
    }

    pub(super) fn builtin_call(
        &mut self,
        fl: &mut FnLower,
        b: Builtin,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
        result: Option<Place>,
    ) -> Option<Expr> {
        match b {
            Builtin::ReachError => {
                for a in args {
                    self.value(fl, a);
                }
                let site = self.new_site(SiteKind::ReachError, span, fl.pid, None);
                self.emit(fl, NodeKind::Error { site }, span);
                None
            }
            Builtin::Havoc => {
                if let Some(AK::Var(id)) = args.first().map(|a| &a.kind) {
                    if let Some(var) = self.lookup(fl, id) {
                        let ty = self.vars[var.index()].ty;
                        let place = Place { var, index: None, span };
                        self.emit(fl, NodeKind::Havoc { place, ty, next: NONE }, span);
                    }
                }
                None
            }
            Builtin::InvalidAccess => {
                let k = match args.first().map(|a| &a.kind) {
                    Some(AK::Int(k, _)) => *k as u32,
                    _ => u32::MAX,
                };
                let site = self.access_site(k, span, fl.pid, false);
                self.emit(fl, NodeKind::Error { site }, span);
                None
            }
            b @ (Builtin::BeyondModel | Builtin::BeyondPool) => {
                let k = match args.first().map(|a| &a.kind) {
                    Some(AK::Int(k, _)) => *k as u32,
                    _ => u32::MAX,
                };
                // A second argument names the storage an access reaches past.
                let storage = match args.get(1).map(|a| &a.kind) {
                    Some(AK::Var(id)) => self.lookup(fl, id),
                    _ => None,
                };
                let site = self.limit_site(k, span, fl.pid, storage, b == Builtin::BeyondPool);
                self.emit(fl, NodeKind::Error { site }, span);
                None
            }
            Builtin::Leak => {
                let site = self.new_site(SiteKind::Leak, span, fl.pid, None);
                self.emit(fl, NodeKind::Error { site }, span);
                None
            }
            Builtin::Index => self.index_check(fl, name, args, span),
            Builtin::Vla => {
                self.vla_check(fl, name, args, span);
                None
            }
            Builtin::Stop => {
                for a in args {
                    self.value(fl, a);
                }
                self.emit(fl, NodeKind::Halt, span);
                None
            }
            Builtin::Assert | Builtin::Assume => {
                if !self.check_arity(name, args.len(), 1) {
                    return None;
                }
                let (t, f) = self.cond(fl, &args[0]);
                fl.open = f;
                if b == Builtin::Assert {
                    let site = self.new_site(SiteKind::Assert, span, fl.pid, None);
                    self.emit(fl, NodeKind::Error { site }, span);
                } else {
                    self.emit(fl, NodeKind::Halt, span);
                }
                fl.open = t;
                None
            }
            Builtin::Nondet(ty) => {
                self.check_arity(name, args.len(), 0);
                let place = match result {
                    Some(p) => p,
                    None => {
                        let t = self.temp(fl, ty, span);
                        Place {
                            var: t,
                            index: None,
                            span,
                        }
                    }
                };
                let e = self.place_expr(&place);
                self.emit(fl, NodeKind::Havoc { place, ty, next: NONE }, span);
                Some(e)
            }
        }
    }

    /// `INDEX(i, n)`: `i` evaluated once, checked `0 <= i < n` (a `bounds`
    /// site at the access), then its value.
    fn index_check(&mut self, fl: &mut FnLower, name: &ast::Ident, args: &[ast::Expr], span: Span) -> Option<Expr> {
        if !self.check_arity(name, args.len(), 2) {
            return None;
        }
        let i = self.value(fl, &args[0]);
        let i = if matches!(i.kind, ExprKind::Const(_) | ExprKind::Var(_)) {
            i
        } else {
            self.snapshot(fl, i, args[0].span)
        };
        let n = self.value(fl, &args[1]);
        let zero = Expr {
            kind: ExprKind::Const(0),
            span,
        };
        let site = self.new_site(SiteKind::Bounds, span, fl.pid, None);
        let low = Atom {
            lhs: i.clone(),
            op: RelOp::Ge,
            rhs: zero,
        };
        let (t, mut f) = self.emit_branch(fl, Cond::Atom(low), span);
        fl.open = t;
        let high = Atom {
            lhs: i.clone(),
            op: RelOp::Lt,
            rhs: n,
        };
        let (t, f2) = self.emit_branch(fl, Cond::Atom(high), span);
        f.extend(f2);
        fl.open = f;
        self.emit(fl, NodeKind::Error { site }, span);
        fl.open = t;
        Some(i)
    }

    /// `VLA(n, most)`: a `bounds` error unless `0 < n`, then a `limit`
    /// site unless `n <= most`.
    fn vla_check(&mut self, fl: &mut FnLower, name: &ast::Ident, args: &[ast::Expr], span: Span) {
        if !self.check_arity(name, args.len(), 2) {
            return;
        }
        let n = self.value(fl, &args[0]);
        let most = self.value(fl, &args[1]);
        let zero = Expr {
            kind: ExprKind::Const(0),
            span,
        };
        let positive = Atom {
            lhs: n.clone(),
            op: RelOp::Gt,
            rhs: zero,
        };
        self.vla_site_unless(fl, positive, SiteKind::Bounds, span);
        let fits = Atom {
            lhs: n,
            op: RelOp::Le,
            rhs: most,
        };
        self.vla_site_unless(fl, fits, SiteKind::Limit, span);
    }

    /// An error site of a variable-length array's size, reached where
    /// `holds` is false.
    fn vla_site_unless(&mut self, fl: &mut FnLower, holds: Atom, kind: SiteKind, span: Span) {
        let (t, f) = self.emit_branch(fl, Cond::Atom(holds), span);
        fl.open = f;
        let site = self.new_site(kind, span, fl.pid, None);
        self.sites[site.index()].vla = true;
        self.emit(fl, NodeKind::Error { site }, span);
        fl.open = t;
    }
}

/// The error of a call of `name`, a function neither declared nor defined:
/// C99 removed implicit declarations (gcc 14 rejects them).
pub(crate) fn implicit(name: &str) -> String {
    format!("implicit declaration of function `{name}` (declare it, or include the header that declares it)")
}

/// The class and label of the error of a function's reason to be left out.
pub(super) fn reason_class(msg: &str) -> (Class, &'static str) {
    match msg.starts_with("implicit declaration of function") {
        true => (Class::Semantic, "not declared"),
        false => (Class::Unsupported, "outside the Cimple subset"),
    }
}
