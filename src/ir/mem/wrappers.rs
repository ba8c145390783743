//! Allocation wrappers: a function returning `void *` whose whole body is
//! `return malloc(e);` or `return calloc(e1, e2);` (after `(void)param;`
//! statements), as `kzalloc`, `xmalloc` or `my_alloc` are written.
//!
//! Each allocating call is an object of the type its result is converted to
//! (`heap.rs`); one `malloc` inside a wrapper would be one object for every
//! caller, of as many types as the callers convert it to. So a call of a
//! wrapper is an allocating call itself: its arguments are evaluated into
//! temporaries of the parameters' types (as a call passes them) and the
//! wrapper's `malloc`/`calloc` is made at the call, with the parameters
//! replaced by them. A run is the same as through the call; the trace shows
//! the call's line, not the wrapper's. The wrapper itself, called nowhere
//! else, is left out of the program.

use super::expr::*;
use super::*;
use crate::syntax::ast::{Expr, ExprKind};

/// A wrapper's parameters (name, type) and the allocation it returns.
#[derive(Clone, Debug)]
pub(super) struct Wrapper {
    params: Vec<(String, IntType)>,
    alloc: &'static str,
    args: Vec<Expr>,
}

/// The allocation wrappers of `p` other than the entry (`defined`: every
/// function defined).
pub(super) fn find(p: &ast::Program, defined: &HashSet<String>, entry: &str) -> HashMap<String, Wrapper> {
    let mut out = HashMap::new();
    for it in &p.items {
        let ast::Item::Function(f) = it else { continue };
        if f.name.name == entry || f.ret_mem != Some(CType::Ptr(Box::new(CType::Void))) || !f.unsupported.is_empty() {
            continue;
        }
        let mut params = Vec::new();
        for q in &f.params {
            let (CType::Int(t), Some(n)) = (&q.ctype, &q.name) else {
                break;
            };
            params.push((n.name.clone(), *t));
        }
        if params.len() != f.params.len() {
            continue;
        }
        let named = |e: &Expr| matches!(&e.kind, ExprKind::Var(id) if params.iter().any(|(n, _)| *n == id.name));
        let Some((last, init)) = f.body.stmts.split_last() else {
            continue;
        };
        let discards = init.iter().all(|s| match &s.kind {
            ast::StmtKind::Expr(e) => named(e),
            ast::StmtKind::Empty => true,
            _ => false,
        });
        let ast::StmtKind::Return(Some(e)) = &last.kind else {
            continue;
        };
        let Some((alloc, args)) = allocation(e, defined) else {
            continue;
        };
        let pure = args.iter().all(|a| {
            let mut ok = true;
            crate::ir::lower::expr_walk(a, &mut |x| {
                ok &= match &x.kind {
                    ExprKind::Var(_) => named(x),
                    ExprKind::Int(..)
                    | ExprKind::SizeOfType(_)
                    | ExprKind::SizeOf(_)
                    | ExprKind::Binary(..)
                    | ExprKind::Unary(..)
                    | ExprKind::Cast(..)
                    | ExprKind::Ternary(..) => true,
                    _ => false,
                }
            });
            ok
        });
        if discards && pure {
            let args = args.to_vec();
            out.insert(f.name.name.clone(), Wrapper { params, alloc, args });
        }
    }
    out
}

/// `malloc(...)` or `calloc(...)` of the C library, under casts.
fn allocation<'a>(e: &'a Expr, defined: &HashSet<String>) -> Option<(&'static str, &'a [Expr])> {
    match &e.kind {
        ExprKind::PtrCast(CType::Ptr(t), x) if **t == CType::Void => allocation(x, defined),
        ExprKind::Call(name, args) if !defined.contains(&name.name) => match name.name.as_str() {
            "malloc" => Some(("malloc", args)),
            "calloc" => Some(("calloc", args)),
            _ => None,
        },
        _ => None,
    }
}

/// `e` with each parameter replaced by the temporary holding it.
fn subst(e: &Expr, temps: &HashMap<String, String>) -> Expr {
    let b = |x: &Expr| Box::new(subst(x, temps));
    let kind = match &e.kind {
        ExprKind::Var(id) => return var(&temps[&id.name], e.span),
        ExprKind::SizeOf(x) => ExprKind::SizeOf(b(x)),
        ExprKind::Binary(op, x, y) => ExprKind::Binary(*op, b(x), b(y)),
        ExprKind::Unary(op, x) => ExprKind::Unary(*op, b(x)),
        ExprKind::Cast(t, x) => ExprKind::Cast(*t, b(x)),
        ExprKind::Ternary(c, x, y) => ExprKind::Ternary(b(c), b(x), b(y)),
        k => k.clone(),
    };
    mk(kind, e.span)
}

impl Mem {
    /// A call of allocation wrapper `name` at `span`: an allocating call.
    pub(super) fn wrapper_call(&mut self, name: &str, args: &[ast::Expr], span: Span) -> Option<Val> {
        let w = self.wrappers.get(name)?.clone();
        if args.len() != w.params.len() {
            let msg = format!("`{name}` takes {} argument(s)", w.params.len());
            self.unsupported(span, msg);
            return Some(Self::null(span));
        }
        let mut pre = Vec::new();
        let mut temps = HashMap::new();
        for ((p, ty), a) in w.params.iter().zip(args) {
            let x = self.int_expr(a);
            let t = self.bind_always(&mut pre, x, *ty);
            let ExprKind::Var(id) = t.kind else {
                unreachable!("a temporary")
            };
            temps.insert(p.clone(), id.name);
        }
        let args: Vec<Expr> = w.args.iter().map(|a| subst(a, &temps)).collect();
        let mut v = self.heap_call(w.alloc, name, &args, span);
        pre.append(&mut v.pre);
        v.pre = pre;
        Some(v)
    }
}
