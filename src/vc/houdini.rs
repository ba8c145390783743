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
use crate::ir::cond::{self, BoolExpr};
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

/// The user's `/*@ loop invariant E; */` comments: each belongs to the
/// first loop that starts after it. Names are those of the loop's
/// procedure (its locals first, then globals).
pub fn user_invariants(p: &Program, a: &Analysis) -> Result<Vec<Invariant>, Vec<Diag>> {
    let text = &p.source.text;
    let mut out = Vec::new();
    let mut diags = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find("/*@") {
        let start = from + i;
        let Some(j) = text[start..].find("*/") else { break };
        let end = start + j + 2;
        from = end;
        let body = &text[start + 3..end - 2];
        let mut heads: Vec<NodeId> = a
            .loops
            .iter()
            .map(|l| l.head)
            .filter(|&h| p.node(h).span.lo as usize >= end)
            .collect();
        heads.sort_by_key(|&h| p.node(h).span.lo);
        for clause in body.split(';') {
            let words: Vec<&str> = clause.split_whitespace().collect();
            if words.len() < 3 || words[0] != "loop" || words[1] != "invariant" {
                continue;
            }
            let expr_text = words[2..].join(" ");
            let Some(&head) = heads.first() else {
                diags.push(Diag::error(
                    crate::diag::Class::Semantic,
                    crate::syntax::source::Span::new(start, end),
                    "a loop invariant with no loop after it",
                ));
                continue;
            };
            let proc = p.node(head).proc;
            let qualified = qualify(p, proc, &expr_text);
            match cond::parse_user_condition(p, &qualified) {
                Ok(c) => out.push(Invariant {
                    head,
                    expr: c.expr,
                    text: expr_text,
                    user: true,
                }),
                Err(mut d) => {
                    for x in &mut d {
                        x.message = format!("in loop invariant `{expr_text}`: {}", x.message);
                        x.span = crate::syntax::source::Span::new(start, end);
                    }
                    diags.extend(d);
                }
            }
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}

/// Writes `x` as `f::x` for every local `x` of `f` (when `f` is not the
/// entry), so that conditions resolve in the loop's procedure.
fn qualify(p: &Program, proc: ProcId, text: &str) -> String {
    let locals: BTreeSet<&str> = p.proc(proc).locals.iter().map(|&v| p.var(v).name.as_str()).collect();
    let name = &p.proc(proc).name;
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if !word.is_empty() {
            let starts_alpha = word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
            if starts_alpha && locals.contains(word.as_str()) && !out.ends_with("::") {
                out.push_str(&format!("{name}::{word}"));
            } else {
                out.push_str(word);
            }
            word.clear();
        }
    };
    for ch in text.chars() {
        if ch.is_ascii_alphanumeric() || ch == '_' {
            word.push(ch);
        } else {
            flush(&mut word, &mut out);
            out.push(ch);
        }
    }
    flush(&mut word, &mut out);
    out
}
