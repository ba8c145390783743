//! Function pointers: a function whose address is taken is an object of
//! its function type (`objects.rs`), with a tag of its own, so a function
//! pointer is a pointer like any other (tag, offset 0; null is tag 0) and
//! assignment, comparison, struct fields, arrays and parameters need
//! nothing new. A call through a pointer, `p(x)`, is a split over the
//! functions of a compatible type whose address is taken, as `*p` is a
//! split over objects: `if (p == 3) t = inc(x); else if (p == 4) t =
//! dec(x); else invalid;`, the invalid case a `deref` error (null, an
//! offset, a pointer to another type's object). The arguments are
//! evaluated once, before the split.

use super::expr::*;
use super::loc::Loc;
use super::*;
use crate::syntax::ast::{Expr, ExprKind, FnType, Ident, Stmt};

impl Mem {
    /// The type of function `name`, if the program defines it.
    pub(super) fn fn_type(&self, name: &str) -> Option<FnType> {
        self.fn_types.get(name).cloned()
    }

    /// Function `id` as a value: a pointer to it (its object's tag, found
    /// in the first pass).
    pub(super) fn fn_value(&mut self, id: &Ident, span: Span) -> Val {
        let ty = match self.fn_type(&id.name) {
            Some(t) => CType::Func(Box::new(t)),
            None => {
                self.unsupported(
                    span,
                    format!(
                        "the address of function `{}`, which the file does not define, is not modelled",
                        id.name
                    ),
                );
                return Self::null(span);
            }
        };
        if !self.emit {
            self.fn_taken.insert(id.name.clone());
        }
        let tag = self.objects.by_base(&id.name).map_or(0, |o| o.tag);
        Val {
            pre: vec![],
            leaves: vec![int(tag, span), int(0, span)],
            ty: ty.ptr(),
        }
    }

    /// The objects of the functions whose address the first pass found
    /// taken, after the data objects (their tags follow).
    pub(super) fn setup_functions(&mut self, taken: BTreeSet<String>) {
        for f in taken {
            if let Some(t) = self.fn_type(&f) {
                self.objects.add(&self.types, &f, &CType::Func(Box::new(t)), None, None);
            }
        }
    }

    /// `callee(args)` where `callee` is a function pointer.
    pub(super) fn call_ptr(&mut self, callee: &ast::Expr, args: &[ast::Expr], span: Span) -> Val {
        let v = self.rv(callee);
        let ft = match pointee(&v.ty) {
            Some(CType::Func(f)) => (**f).clone(),
            _ => {
                self.unsupported(
                    callee.span,
                    format!("a call of a value of type `{}`, not a function", v.ty.c_name()),
                );
                return Self::int_val(int(0, span));
            }
        };
        if ft.params.as_ref().is_some_and(|ps| ps.len() != args.len()) {
            self.unsupported(
                span,
                format!(
                    "a call with {} argument(s) through a pointer to `{}` (C requires as many as its parameters)",
                    args.len(),
                    CType::Func(Box::new(ft.clone())).c_name()
                ),
            );
        }
        self.fn_calls.insert((span.lo, span.hi));
        let (mut pre, loc) = self.through(v, callee.span);
        let Loc::Ptr { tag, off, .. } = loc else {
            unreachable!("a location through a pointer")
        };
        let actuals = self.ptr_call_args(&mut pre, &ft, args);
        let leaves = match ft.ret {
            CType::Void => vec![],
            ref r => match self.types.leaves(r) {
                Ok(l) => l,
                Err(msg) => {
                    self.unsupported(span, msg);
                    return Self::int_val(int(0, span));
                }
            },
        };
        let temps: Vec<String> = leaves.iter().map(|l| self.temp(l.ty)).collect();
        let targets: Vec<_> = self
            .objects
            .list
            .iter()
            // A function taking another number of arguments than the call
            // passes (through `int (*)()`) is undefined: the invalid case.
            .filter(|o| {
                matches!(&o.ty, CType::Func(g) if g.compatible(&ft)
                    && g.params.as_ref().is_none_or(|ps| ps.len() == args.len()))
            })
            .cloned()
            .collect();
        let mut cases = Vec::new();
        for o in targets {
            let mut body = self.access_checks(&o, &off, span);
            let name = Ident {
                name: o.base.clone(),
                span,
            };
            let e = mk(ExprKind::Call(name, actuals.clone()), span);
            if temps.is_empty() {
                body.push(expr_stmt(e.clone(), span));
            }
            for (k, (t, l)) in temps.iter().zip(&leaves).enumerate() {
                let src = if k == 0 {
                    e.clone()
                } else {
                    var(&super::ret_leaf(&o.base, &l.path), span)
                };
                body.push(assign(var(t, span), src, span));
            }
            cases.push((o.tag, body));
        }
        pre.push(self.split(&tag, cases, span));
        if temps.is_empty() {
            return Val {
                pre,
                leaves: vec![int(0, span)],
                ty: CType::Int(IntType::Int),
            };
        }
        Val {
            pre,
            leaves: temps.iter().map(|t| var(t, span)).collect(),
            ty: ft.ret,
        }
    }

    /// The arguments of a call through a pointer to type `ft`, each leaf
    /// evaluated once into a temporary (their statements go to `pre`).
    fn ptr_call_args(&mut self, pre: &mut Vec<Stmt>, ft: &FnType, args: &[ast::Expr]) -> Vec<Expr> {
        let mut out = Vec::new();
        for (k, a) in args.iter().enumerate() {
            let want = ft.params.as_ref().and_then(|ps| ps.get(k)).cloned();
            let Val { pre: p, leaves, ty } = self.argument(a, want.as_ref());
            pre.extend(p);
            let int_types: Vec<IntType> = match self.types.leaves(&ty) {
                Ok(ls) => ls.iter().map(|l| l.ty).collect(),
                Err(_) => vec![IntType::Int; leaves.len()],
            };
            for (l, t) in leaves.into_iter().zip(int_types) {
                out.push(self.bind(pre, l, t));
            }
        }
        out
    }
}

fn expr_stmt(e: Expr, span: Span) -> Stmt {
    stmt(ast::StmtKind::Expr(e), span)
}

impl Mem {
    /// Whether `e` is the name of a function the file defines (no
    /// variable of that name in scope).
    pub(super) fn names_function(&self, e: &ast::Expr) -> bool {
        matches!(&e.kind, ExprKind::Var(id) if self.lookup(&id.name).is_none() && self.fn_types.contains_key(&id.name))
    }
}
