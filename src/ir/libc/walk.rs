//! A walk over a function body that may change its calls: declarations are
//! seen in text order (the names in scope at a call), calls after their
//! arguments.

use crate::syntax::ast::{Block, Cond, Expr, ExprKind as K, Init, Stmt, StmtKind as S, VarDecl};

pub(super) trait Visit {
    fn decl(&mut self, d: &VarDecl);
    /// A call (`e.kind` is `Call`), its arguments already visited.
    fn call(&mut self, e: &mut Expr);
}

pub(super) fn block(b: &mut Block, v: &mut dyn Visit) {
    for s in &mut b.stmts {
        stmt(s, v);
    }
}

fn cond(c: &mut Cond, v: &mut dyn Visit) {
    if let Cond::Expr(e) = c {
        expr(e, v);
    }
}

fn stmt(s: &mut Stmt, v: &mut dyn Visit) {
    match &mut s.kind {
        S::Decl(ds) => {
            for d in ds {
                match &mut d.init {
                    Some(Init::Expr(e)) => expr(e, v),
                    Some(Init::List(es, _)) => es.iter_mut().for_each(|e| expr(e, v)),
                    None => {}
                }
                v.decl(d);
            }
        }
        S::Expr(e) | S::Switch(e, _) | S::Case(e, _) => {
            expr(e, v);
            if let S::Switch(_, b) | S::Case(_, b) = &mut s.kind {
                stmt(b, v);
            }
        }
        S::Return(e) => {
            if let Some(e) = e {
                expr(e, v);
            }
        }
        S::If(c, t, e) => {
            cond(c, v);
            stmt(t, v);
            if let Some(e) = e {
                stmt(e, v);
            }
        }
        S::While(c, b) => {
            cond(c, v);
            stmt(b, v);
        }
        S::DoWhile(b, c) => {
            stmt(b, v);
            cond(c, v);
        }
        S::For(i, c, step, b) => {
            if let Some(i) = i {
                stmt(i, v);
            }
            if let Some(c) = c {
                cond(c, v);
            }
            if let Some(e) = step {
                expr(e, v);
            }
            stmt(b, v);
        }
        S::Default(b) | S::Labeled(_, b) => stmt(b, v),
        S::Block(b) => block(b, v),
        S::Break | S::Continue | S::Goto(_) | S::Empty => {}
    }
}

fn expr(e: &mut Expr, v: &mut dyn Visit) {
    match &mut e.kind {
        K::Int(..) | K::Float(..) | K::Bool(_) | K::Var(_) | K::SizeOfType(_) => {}
        // Not evaluated: a call in it is never made.
        K::SizeOf(_) => {}
        K::Index(_, i) | K::DerefIndex(_, i, _) => expr(i, v),
        K::Call(_, args) => {
            args.iter_mut().for_each(|a| expr(a, v));
            v.call(e);
        }
        K::CallPtr(f, args) => {
            expr(f, v);
            args.iter_mut().for_each(|a| expr(a, v));
        }
        K::Unary(_, a)
        | K::Cast(_, a)
        | K::Bits(_, a)
        | K::Deref(a)
        | K::AddrOf(a)
        | K::Member(a, _, _)
        | K::PtrCast(_, a)
        | K::IncDec { target: a, .. } => expr(a, v),
        K::Binary(_, a, b) | K::Assign(_, a, b) | K::IndexOf(a, b) | K::Offset(_, a, b) => {
            expr(a, v);
            expr(b, v);
        }
        K::Ternary(c, a, b) => {
            expr(c, v);
            expr(a, v);
            expr(b, v);
        }
        K::Comma(es) | K::InitList(es) => es.iter_mut().for_each(|a| expr(a, v)),
        K::StmtExpr(b) | K::Access(b) => block(b, v),
    }
}
