//! Calls with pointer and struct arguments and results: each argument is
//! passed as its leaves; a result's first leaf is the return value, the
//! others come back in globals `f::(ret).off`, `f::(ret).a`, ... (`ret_leaf`)

use super::expr::*;
use super::*;
use crate::syntax::ast::{Expr, ExprKind, Ident};

impl Mem {
    pub(super) fn call(&mut self, name: &Ident, args: &[ast::Expr], span: Span) -> Val {
        if self.lookup(&name.name).is_some() {
            // A variable: a function pointer.
            let callee = mk(ExprKind::Var(name.clone()), name.span);
            return self.call_ptr(&callee, args, span);
        }
        let mut v = self.call_plain(name, args, span);
        if name.name == "exit" && !self.sigs.contains_key(&name.name) {
            // Its leaks are checked before the call ends the run.
            let checks = self.exit_checks(span);
            v.pre.splice(0..0, checks);
        }
        v
    }

    fn call_plain(&mut self, name: &Ident, args: &[ast::Expr], span: Span) -> Val {
        let library = !self.sigs.contains_key(&name.name);
        if library && name.name == HAVOC_POINTEE {
            return self.havoc_pointee(args, span);
        }
        if library && super::heap::MODELLED.contains(&name.name.as_str()) {
            // The stream `fopen`'s model allocates is `fopen@5#1`.
            let copy = self.func.trim_start_matches(crate::ir::product::REFERENCE_PREFIX);
            let called = match copy.starts_with("fopen@") {
                true => "fopen",
                false => name.name.as_str(),
            };
            return self.heap_call(&name.name, called, args, span);
        }
        if let Some(v) = self.wrapper_call(&name.name, args, span) {
            return v;
        }
        if library && super::heap::UNMODELLED.contains(&name.name.as_str()) {
            self.unsupported(
                span,
                format!(
                    "`{}` is not supported (the heap model has `malloc`, `calloc`, `realloc` and `free`)",
                    name.name
                ),
            );
            // A `void *`, so that the use of the result is no second error.
            return Val {
                pre: vec![],
                leaves: vec![int(0, span), int(0, span)],
                ty: CType::Ptr(Box::new(CType::Void)),
            };
        }
        let sig = self.sigs.get(&name.name).cloned();
        if sig.is_none() && !self.declared.contains(&name.name) && !crate::ir::lower::is_builtin(&name.name) {
            // Never declared: lowering says so (`implicit declaration`).
            self.implicit.push((name.span, name.name.clone()));
        }
        let mut out = Vec::new();
        for (k, a) in args.iter().enumerate() {
            let want = sig.as_ref().and_then(|s| s.params.get(k)).cloned();
            let Val { pre, leaves, .. } = self.argument(a, want.as_ref());
            for (j, l) in leaves.into_iter().enumerate() {
                // The statements run before the first leaf is read.
                out.push(if j == 0 { wrap(pre.clone(), l) } else { l });
            }
        }
        let e = Expr {
            kind: ExprKind::Call(name.clone(), out),
            span,
        };
        let Some(ret) = sig.and_then(|s| s.ret) else {
            return Val {
                pre: vec![],
                leaves: vec![e],
                ty: CType::Int(IntType::Int),
            };
        };
        let leaves = match self.types.leaves(&ret) {
            Ok(l) => l,
            Err(msg) => {
                self.unsupported(span, msg);
                return Val {
                    pre: vec![],
                    leaves: vec![e],
                    ty: CType::Int(IntType::Int),
                };
            }
        };
        let mut pre = Vec::new();
        let mut temps = Vec::new();
        for (k, l) in leaves.iter().enumerate() {
            let t = self.temp(l.ty);
            let src = if k == 0 {
                e.clone()
            } else {
                var(&super::ret_leaf(&name.name, &l.path), span)
            };
            pre.push(assign(var(&t, span), src, span));
            temps.push(var(&t, span));
        }
        Val {
            pre,
            leaves: temps,
            ty: ret,
        }
    }
}

impl Mem {
    /// `HAVOC_POINTEE(p)`: a split over the objects of `p`'s pointee type,
    /// each case giving every leaf of its object's storage arbitrary
    /// values; no case for null or an invalid tag (nothing changes), none
    /// for a string literal (read-only: gcc puts it in .rodata).
    fn havoc_pointee(&mut self, args: &[ast::Expr], span: Span) -> Val {
        let done = |pre| Val {
            pre,
            leaves: vec![int(0, span)],
            ty: CType::Int(IntType::Int),
        };
        let Some(a) = args.first() else {
            return done(vec![]);
        };
        let v = self.rv(a);
        let Some(to) = pointee(&v.ty).cloned() else {
            self.unsupported(span, format!("`{HAVOC_POINTEE}` on a `{}`", v.ty.c_name()));
            return done(v.pre);
        };
        let mut pre = v.pre;
        let Some(tag) = v.leaves.into_iter().next() else {
            return done(pre);
        };
        let tag = self.bind(&mut pre, tag, IntType::Int);
        let objs: Vec<_> = self
            .objects
            .of_type(&to)
            .filter(|o| !ast::is_string_literal(&o.base))
            .cloned()
            .collect();
        let mut chain = Vec::new();
        for o in objs.iter().rev() {
            let leaves = match self.types.leaves(&o.ty) {
                Ok(l) => l,
                Err(msg) => {
                    self.unsupported(span, msg);
                    return done(pre);
                }
            };
            let body = leaves
                .iter()
                .map(|l| {
                    let storage = super::file_scope(&format!("{}{}", o.base, l.path));
                    call(HAVOC, vec![var(&storage, span)], span)
                })
                .collect();
            let here = bin(ast::BinOp::Eq, tag.clone(), int(o.tag, span), span);
            chain = vec![if_(here, body, chain, span)];
        }
        pre.extend(chain);
        done(pre)
    }

    /// An argument's value for a parameter of type `want` (when known): a
    /// null pointer constant as the parameter's pointer, another pointer
    /// converted to it; a value of another shape is not modelled.
    pub(super) fn argument(&mut self, a: &ast::Expr, want: Option<&CType>) -> Val {
        let v = match want {
            Some(w @ CType::Ptr(_)) if is_null(a) => Val {
                pre: vec![],
                leaves: vec![int(0, a.span), int(0, a.span)],
                ty: w.clone(),
            },
            _ => self.rv(a),
        };
        if let Some(w) = want {
            let n = self.types.leaves(w).map_or(1, |l| l.len());
            if n != v.leaves.len() {
                self.unsupported(
                    a.span,
                    format!("passing a `{}` where `{}` is expected", v.ty.c_name(), w.c_name()),
                );
            }
            self.convert_ptr(&v.ty, w, &v.leaves, a.span);
        }
        v
    }
}

fn is_null(e: &ast::Expr) -> bool {
    match &e.kind {
        ExprKind::Int(0, _) => true,
        ExprKind::Cast(_, x) | ExprKind::PtrCast(_, x) => is_null(x),
        ExprKind::Var(id) => id.name == "NULL",
        _ => false,
    }
}

/// Functions that can call themselves (directly or through others; a
/// call through a function pointer may call any function used as a value).
pub(super) fn recursive_functions(p: &ast::Program) -> HashSet<String> {
    let defined = super::defined_functions(p);
    let mut taken = Vec::new();
    let mut calls: HashMap<String, Vec<String>> = HashMap::new();
    let mut through = Vec::new();
    for it in &p.items {
        if let ast::Item::Function(f) = it {
            let mut out = Vec::new();
            crate::ir::lower::block_calls(&f.body, &mut out);
            let mut out: Vec<String> = out.into_iter().map(|i| i.name).collect();
            crate::ir::lower::block_exprs(&f.body, &mut |e| match &e.kind {
                ExprKind::Var(id) if defined.contains(id.name.as_str()) => taken.push(id.name.clone()),
                ExprKind::CallPtr(..) => through.push(f.name.name.clone()),
                _ => {}
            });
            // A call of a variable (a function pointer parameter or local).
            if out.iter().any(|c| !defined.contains(c.as_str())) {
                through.push(f.name.name.clone());
            }
            out.sort();
            calls.insert(f.name.name.clone(), out);
        }
    }
    // Functions named in global initialisers (tables of them).
    for it in &p.items {
        if let ast::Item::Globals(ds) = it {
            for d in ds {
                let inits: Vec<&ast::Expr> = match &d.init {
                    Some(ast::Init::Expr(e)) => vec![e],
                    Some(ast::Init::List(es, _)) => es.iter().collect(),
                    None => vec![],
                };
                for e in inits {
                    crate::ir::lower::expr_walk(e, &mut |e| {
                        if let ExprKind::Var(id) = &e.kind {
                            if defined.contains(id.name.as_str()) {
                                taken.push(id.name.clone());
                            }
                        }
                    });
                }
            }
        }
    }
    for f in through {
        calls.entry(f).or_default().extend(taken.iter().cloned());
    }
    let mut rec = HashSet::new();
    for f in calls.keys() {
        let mut seen = HashSet::new();
        let mut stack: Vec<&String> = calls[f].iter().collect();
        while let Some(g) = stack.pop() {
            if g == f {
                rec.insert(f.clone());
                break;
            }
            if seen.insert(g.clone()) {
                if let Some(next) = calls.get(g) {
                    stack.extend(next.iter());
                }
            }
        }
    }
    rec
}
