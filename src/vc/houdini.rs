//! Loop invariants for `--loops havoc`: the user's ACSL comments
//! (`/*@ loop invariant E; */` before a loop) and Houdini candidates (the
//! engine keeps the largest inductive subset, `solve.rs`).
//!
//! Candidates per loop: its exit tests, weakened to hold at the head
//! (`i < n` gives `i <= n`); the conditions of assertions in its procedure;
//! orderings between a variable the loop writes and the scalars it reads or
//! writes, and their signs.

use super::Invariant;
use crate::diag::Diag;
use crate::facts::Analysis;
use crate::ir::cond::BoolExpr;
use crate::ir::*;
use std::collections::BTreeSet;

/// At most this many candidates per loop.
const MAX_PER_LOOP: usize = 120;

fn var_expr(v: VarId, span: crate::syntax::source::Span) -> Expr {
    Expr {
        kind: ExprKind::Var(v),
        span,
    }
}

fn atom(lhs: Expr, op: RelOp, rhs: Expr) -> Atom {
    Atom { lhs, op, rhs }
}

/// Is the expression free of array accesses and divisions (so it cannot
/// fail, and means the same at every point)?
fn plain(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Var(_) => true,
        ExprKind::Neg(x) | ExprKind::Conv(_, x) => plain(x),
        ExprKind::Arith(_, a, b) => plain(a) && plain(b),
        ExprKind::Elem(..) | ExprKind::Div { .. } | ExprKind::Checked { .. } => false,
    }
}

pub fn candidates(p: &Program, a: &Analysis) -> Vec<Invariant> {
    let mut out = Vec::new();
    for l in &a.loops {
        if !a.reachable_procs.contains(&l.proc) {
            continue;
        }
        let span = p.node(l.head).span;
        let scalar = |v: &VarId| {
            let var = p.var(*v);
            var.len.is_none() && (var.proc == Some(l.proc) || var.is_global_storage())
        };
        let written: BTreeSet<VarId> = l.modifies.iter().copied().filter(scalar).collect();
        let mut read: BTreeSet<VarId> = BTreeSet::new();
        for n in &l.body {
            read.extend(a.uses[n.index()].iter().copied().filter(scalar));
        }
        let mut atoms: Vec<Atom> = Vec::new();
        // Exit tests, weakened; assertion conditions of the procedure.
        for &n in &a.proc_nodes[l.proc.index()] {
            let NodeKind::Branch {
                cond: Cond::Atom(at),
                then_,
                else_,
            } = &p.node(n).kind
            else {
                continue;
            };
            if !plain(&at.lhs) || !plain(&at.rhs) {
                continue;
            }
            let is_error = |m: &NodeId| matches!(p.node(*m).kind, NodeKind::Error { .. });
            if is_error(else_) {
                atoms.push(at.clone());
            } else if is_error(then_) {
                atoms.push(atom(at.lhs.clone(), at.op.negate(), at.rhs.clone()));
            }
            if l.body.contains(&n) && (l.body.contains(then_) != l.body.contains(else_)) {
                let stay = if l.body.contains(then_) { at.op } else { at.op.negate() };
                let weak = match stay {
                    RelOp::Lt => Some(RelOp::Le),
                    RelOp::Gt => Some(RelOp::Ge),
                    RelOp::Le | RelOp::Ge => Some(stay),
                    RelOp::Ne | RelOp::Eq => None,
                };
                if let Some(op) = weak {
                    atoms.push(atom(at.lhs.clone(), op, at.rhs.clone()));
                }
            }
        }
        // Orderings and signs.
        for &x in &written {
            let zero = Expr {
                kind: ExprKind::Const(0),
                span,
            };
            atoms.push(atom(var_expr(x, span), RelOp::Ge, zero.clone()));
            atoms.push(atom(var_expr(x, span), RelOp::Le, zero));
            for &y in written.iter().chain(read.iter()) {
                if y != x {
                    atoms.push(atom(var_expr(x, span), RelOp::Le, var_expr(y, span)));
                    atoms.push(atom(var_expr(x, span), RelOp::Ge, var_expr(y, span)));
                    atoms.push(atom(var_expr(x, span), RelOp::Eq, var_expr(y, span)));
                }
            }
        }
        let mut seen = BTreeSet::new();
        for at in atoms.into_iter().take(MAX_PER_LOOP * 4) {
            let text = show_atom(p, &at);
            // Only variables of the loop's procedure and global storage.
            let mut vs = Vec::new();
            expr_vars(&at.lhs, &mut vs);
            expr_vars(&at.rhs, &mut vs);
            if !vs.iter().all(scalar) || !seen.insert(text.clone()) {
                continue;
            }
            out.push(Invariant {
                head: l.head,
                expr: BoolExpr::Atom(at),
                text,
                user: false,
            });
            if seen.len() >= MAX_PER_LOOP {
                break;
            }
        }
    }
    out
}

/// The user's `/*@ loop invariant E; */` comments (`ir::contract`), as
/// conditions on the state at the loop head. Those this engine cannot read
/// (a quantifier, `\old`, a label no loop goes back to) are an error: the
/// contract engine (`verify --vcs`) reads them.
pub fn user_invariants(p: &Program, a: &Analysis) -> Result<Vec<Invariant>, Vec<Diag>> {
    let mut out = Vec::new();
    let mut diags = Vec::new();
    for inv in &p.contracts.invariants {
        for &c in &inv.clauses {
            let cl = p.contracts.clause(c);
            match cl.pred.to_bool_expr(cl.span) {
                Some(expr) if a.loop_at.contains_key(&inv.at) => out.push(Invariant {
                    head: inv.at,
                    expr,
                    text: cl.text.clone(),
                    user: true,
                }),
                _ => diags.push(
                    Diag::error(
                        crate::diag::Class::Semantic,
                        cl.span,
                        format!("the invariant `{}` is read by the contract engine only", cl.text),
                    )
                    .with_label("not a plain condition at a loop head")
                    .with_note("run `focuscheck verify --vcs`"),
                ),
            }
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}
