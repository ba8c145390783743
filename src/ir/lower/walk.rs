//! Walks over the AST: every expression, declaration or call of a block.

use crate::ir::{Expr, ExprKind};
use crate::syntax::ast;
use crate::syntax::ast::{ExprKind as AK, StmtKind};

pub(crate) fn block_calls(b: &ast::Block, out: &mut Vec<ast::Ident>) {
    for s in &b.stmts {
        stmt_walk(s, &mut |e| {
            if let AK::Call(name, _) = &e.kind {
                out.push(name.clone());
            }
        });
    }
}

/// Calls `f` on every expression of a block (`crate::ir::mem` reads them).
pub(crate) fn block_exprs(b: &ast::Block, f: &mut dyn FnMut(&ast::Expr)) {
    for s in &b.stmts {
        stmt_walk(s, f);
    }
}

/// Calls `f` on every variable declaration of a block, nested ones too.
pub(crate) fn block_decls(b: &ast::Block, f: &mut dyn FnMut(&ast::VarDecl)) {
    fn walk(s: &ast::Stmt, f: &mut dyn FnMut(&ast::VarDecl)) {
        match &s.kind {
            StmtKind::Decl(ds) => ds.iter().for_each(&mut *f),
            StmtKind::If(_, t, e) => {
                walk(t, f);
                if let Some(e) = e {
                    walk(e, f);
                }
            }
            StmtKind::While(_, b)
            | StmtKind::DoWhile(b, _)
            | StmtKind::Switch(_, b)
            | StmtKind::Case(_, b)
            | StmtKind::Default(b)
            | StmtKind::Labeled(_, b) => walk(b, f),
            StmtKind::For(i, _, _, b) => {
                if let Some(i) = i {
                    walk(i, f);
                }
                walk(b, f);
            }
            StmtKind::Block(b) => b.stmts.iter().for_each(|s| walk(s, f)),
            _ => {}
        }
    }
    for s in &b.stmts {
        walk(s, f);
    }
    // Statement expressions declare locals too.
    block_exprs(b, &mut |e| {
        if let AK::StmtExpr(inner) = &e.kind {
            inner.stmts.iter().for_each(|s| {
                if let StmtKind::Decl(ds) = &s.kind {
                    ds.iter().for_each(&mut *f)
                }
            });
        }
    });
}

pub(crate) fn block_mentions(b: &ast::Block, name: &str) -> bool {
    let mut found = false;
    for s in &b.stmts {
        stmt_walk(s, &mut |e| match &e.kind {
            AK::Var(n) | AK::Index(n, _) | AK::DerefIndex(n, ..) if n.name == name => found = true,
            _ => {}
        });
    }
    found
}

/// Calls `f` on every expression of a statement, outermost first.
pub(crate) fn stmt_walk(s: &ast::Stmt, f: &mut dyn FnMut(&ast::Expr)) {
    let cond = |c: &ast::Cond, f: &mut dyn FnMut(&ast::Expr)| {
        if let ast::Cond::Expr(e) = c {
            expr_walk(e, f)
        }
    };
    match &s.kind {
        StmtKind::Decl(ds) => {
            for d in ds {
                if let Some(a) = &d.array {
                    expr_walk(a, f);
                }
                match &d.init {
                    Some(ast::Init::Expr(e)) => expr_walk(e, f),
                    Some(ast::Init::List(es, _)) => es.iter().for_each(|e| expr_walk(e, f)),
                    None => {}
                }
            }
        }
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => expr_walk(e, f),
        StmtKind::If(c, t, e) => {
            cond(c, f);
            stmt_walk(t, f);
            if let Some(e) = e {
                stmt_walk(e, f);
            }
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
            cond(c, f);
            stmt_walk(b, f);
        }
        StmtKind::For(i, c, st, b) => {
            if let Some(i) = i {
                stmt_walk(i, f);
            }
            if let Some(c) = c {
                cond(c, f);
            }
            if let Some(st) = st {
                expr_walk(st, f);
            }
            stmt_walk(b, f);
        }
        StmtKind::Switch(e, b) | StmtKind::Case(e, b) => {
            expr_walk(e, f);
            stmt_walk(b, f);
        }
        StmtKind::Default(b) | StmtKind::Labeled(_, b) => stmt_walk(b, f),
        StmtKind::Block(b) => b.stmts.iter().for_each(|s| stmt_walk(s, f)),
        StmtKind::Break | StmtKind::Continue | StmtKind::Return(None) | StmtKind::Goto(_) | StmtKind::Empty => {}
    }
}

pub(crate) fn expr_walk(e: &ast::Expr, f: &mut dyn FnMut(&ast::Expr)) {
    f(e);
    match &e.kind {
        AK::Int(..) | AK::Float(..) | AK::Bool(_) | AK::Var(_) => {}
        AK::Index(_, i) | AK::DerefIndex(_, i, _) => expr_walk(i, f),
        // Removed by `crate::mem` before lowering.
        AK::Deref(x) | AK::AddrOf(x) | AK::Member(x, ..) | AK::PtrCast(_, x) => expr_walk(x, f),
        AK::IndexOf(a, b) => {
            expr_walk(a, f);
            expr_walk(b, f);
        }
        AK::SizeOfType(_) => {}
        AK::InitList(xs) => xs.iter().for_each(|x| expr_walk(x, f)),
        AK::Call(_, args) | AK::Comma(args) => args.iter().for_each(|a| expr_walk(a, f)),
        // Removed by `crate::mem` before lowering.
        AK::CallPtr(x, args) => {
            expr_walk(x, f);
            args.iter().for_each(|a| expr_walk(a, f));
        }
        AK::Unary(_, x) | AK::Cast(_, x) | AK::Bits(_, x) | AK::IncDec { target: x, .. } | AK::SizeOf(x) => {
            expr_walk(x, f)
        }
        AK::StmtExpr(b) | AK::Access(b) => b.stmts.iter().for_each(|s| stmt_walk(s, f)),
        AK::Binary(_, a, b) | AK::Assign(_, a, b) | AK::Offset(_, a, b) => {
            expr_walk(a, f);
            expr_walk(b, f);
        }
        AK::Ternary(a, b, c) => {
            expr_walk(a, f);
            expr_walk(b, f);
            expr_walk(c, f);
        }
    }
}

/// Does evaluating the expression have side effects (calls, assignments)?
pub(super) fn has_effects(e: &ast::Expr) -> bool {
    let mut found = false;
    expr_walk(e, &mut |x| {
        if matches!(
            x.kind,
            AK::Call(..) | AK::Assign(..) | AK::IncDec { .. } | AK::StmtExpr(_) | AK::Access(_)
        ) {
            found = true;
        }
    });
    found
}

/// Does evaluating the IR expression check something (bounds, division)?
pub(super) fn has_checks(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Var(_) => false,
        ExprKind::Elem(..) | ExprKind::Div { .. } | ExprKind::Checked { .. } => true,
        ExprKind::Bit { site: Some(_), .. } => true,
        ExprKind::Neg(x) | ExprKind::Conv(_, x) => has_checks(x),
        ExprKind::Arith(_, a, b) | ExprKind::Bit { a, b, .. } => has_checks(a) || has_checks(b),
        ExprKind::Float { args, site, .. } => site.is_some() || args.iter().any(has_checks),
    }
}
