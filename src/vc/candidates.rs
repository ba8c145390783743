//! Houdini's candidate loop invariants (`--loops havoc`; the engine keeps
//! the largest inductive subset, `solve.rs`). Per loop, over the scalars of
//! its procedure and global storage, in this order (the first
//! `MAX_PER_LOOP` are kept):
//!
//! - its exit tests, weakened to hold at the head (`i < n` gives `i <= n`),
//!   and the conditions of assertions in its procedure;
//! - relations with loop-entry values (`\at(e, LoopEntry)`): each written
//!   variable against its entry value (`x >= \at(x, LoopEntry)`, and its
//!   parity), and the linear combinations of two written variables that
//!   their constant updates keep (`x += 2; y += 1` keeps `x - 2*y`; any two
//!   keep `x - y` or `x + y` when they move by the same step);
//! - the conditions the procedure tests, both ways, over a written variable;
//! - orderings between a written variable and the scalars the loop reads or
//!   writes, and their signs;
//! - "still in the loop, or the condition holds": a test of the loop's
//!   exit, or a condition the procedure tests (what holds when the loop
//!   is left).

pub mod arrays;

use super::Invariant;
use crate::facts::analysis::Loop;
use crate::facts::Analysis;
use crate::ir::cond::BoolExpr;
use crate::ir::*;
use crate::syntax::source::Span;
use std::collections::{BTreeMap, BTreeSet};

/// At most this many candidates per loop.
const MAX_PER_LOOP: usize = 160;

fn expr(kind: ExprKind, span: Span) -> Expr {
    Expr { kind, span }
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
        ExprKind::Bit { a, b, site: None, .. } => plain(a) && plain(b),
        ExprKind::Elem(..)
        | ExprKind::Div { .. }
        | ExprKind::Checked { .. }
        | ExprKind::Bit { .. }
        | ExprKind::Float { .. } => false,
    }
}

/// The constant a node adds to `x` (`x = x + c`, `x = x - c`, `x++`, with
/// C's conversions around it).
fn increment(value: &Expr, x: VarId) -> Option<i64> {
    match &value.kind {
        ExprKind::Conv(_, e) | ExprKind::Checked { value: e, .. } => increment(e, x),
        ExprKind::Arith(op, a, b) => {
            let strip = |e: &Expr| match &e.kind {
                ExprKind::Conv(_, i) => (**i).clone(),
                _ => e.clone(),
            };
            match (op, &strip(a).kind, &strip(b).kind) {
                (ArithOp::Add, ExprKind::Var(v), ExprKind::Const(c))
                | (ArithOp::Add, ExprKind::Const(c), ExprKind::Var(v))
                    if *v == x =>
                {
                    Some(*c)
                }
                (ArithOp::Sub, ExprKind::Var(v), ExprKind::Const(c)) if *v == x => c.checked_neg(),
                _ => None,
            }
        }
        _ => None,
    }
}

/// One candidate: a condition, and whether its atom's right-hand side is
/// the loop-entry value.
struct Cand {
    expr: BoolExpr,
    entry: bool,
}

fn show(p: &Program, e: &BoolExpr) -> String {
    match e {
        BoolExpr::Atom(a) => show_atom(p, a),
        BoolExpr::Not(x) => format!("!({})", show(p, x)),
        BoolExpr::And(a, b) => format!("({} && {})", show(p, a), show(p, b)),
        BoolExpr::Or(a, b) => format!("{} || {}", show(p, a), show(p, b)),
    }
}

/// The candidates of one loop.
fn loop_candidates(p: &Program, a: &Analysis, l: &Loop) -> Vec<Cand> {
    let span = p.node(l.head).span;
    let scalar = |v: &VarId| {
        let var = p.var(*v);
        var.len.is_none() && (var.proc == Some(l.proc) || var.is_global_storage())
    };
    let var = |v: VarId| expr(ExprKind::Var(v), span);
    let num = |c: i64| expr(ExprKind::Const(c), span);
    let written: BTreeSet<VarId> = l.modifies.iter().copied().filter(scalar).collect();
    let mut read: BTreeSet<VarId> = BTreeSet::new();
    for n in &l.body {
        read.extend(a.uses[n.index()].iter().copied().filter(scalar));
    }
    let mut out: Vec<Cand> = Vec::new();
    let mut push = |expr: BoolExpr, entry: bool| out.push(Cand { expr, entry });

    // Exit tests (weakened, and as they are) and assertion conditions.
    let mut stay: Vec<Atom> = Vec::new();
    let mut tested: Vec<Atom> = Vec::new();
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
            push(BoolExpr::Atom(at.clone()), false);
        } else if is_error(then_) {
            push(
                BoolExpr::Atom(atom(at.lhs.clone(), at.op.negate(), at.rhs.clone())),
                false,
            );
        }
        if l.body.contains(&n) && (l.body.contains(then_) != l.body.contains(else_)) {
            let op = if l.body.contains(then_) { at.op } else { at.op.negate() };
            stay.push(atom(at.lhs.clone(), op, at.rhs.clone()));
            let weak = match op {
                RelOp::Lt => Some(RelOp::Le),
                RelOp::Gt => Some(RelOp::Ge),
                RelOp::Le | RelOp::Ge => Some(op),
                RelOp::Ne | RelOp::Eq => None,
            };
            if let Some(w) = weak {
                push(BoolExpr::Atom(atom(at.lhs.clone(), w, at.rhs.clone())), false);
            }
        }
        let mut vs = Vec::new();
        expr_vars(&at.lhs, &mut vs);
        expr_vars(&at.rhs, &mut vs);
        if vs.iter().any(|v| written.contains(v)) {
            tested.push(at.clone());
        }
    }

    // Relations with loop-entry values.
    let mut steps: BTreeMap<VarId, BTreeSet<i64>> = BTreeMap::new();
    for &n in &l.body {
        if let NodeKind::Assign { place, value, .. } = &p.node(n).kind {
            if place.index.is_none() && written.contains(&place.var) {
                let s = steps.entry(place.var).or_default();
                // A step of 0 marks an update that is not a constant step.
                s.insert(increment(value, place.var).unwrap_or(0));
            }
        }
    }
    let at_entry = |e: Expr, op: RelOp| BoolExpr::Atom(atom(e.clone(), op, e));
    for &x in &written {
        push(at_entry(var(x), RelOp::Ge), true);
        push(at_entry(var(x), RelOp::Le), true);
        let parity = expr(
            ExprKind::Div {
                num: Box::new(var(x)),
                den: Box::new(num(2)),
                rem: true,
                // `2` is never zero: the site is never checked.
                site: SiteId(0),
            },
            span,
        );
        push(at_entry(parity, RelOp::Eq), true);
    }
    let step = |x: VarId| match steps.get(&x).map(|s| s.iter().copied().collect::<Vec<_>>()) {
        Some(s) if s.len() == 1 && s[0] != 0 => Some(s[0]),
        _ => None,
    };
    let ws: Vec<VarId> = written.iter().copied().collect();
    for (i, &x) in ws.iter().enumerate() {
        for &y in &ws[i + 1..] {
            let (mut cx, mut cy) = (step(x).unwrap_or(1), step(y).unwrap_or(1));
            // cy*x - cx*y keeps its value (written with cy > 0).
            if cy < 0 {
                (cx, cy) = (-cx, -cy);
            }
            let times = |c: i64, v: VarId| {
                if c == 1 {
                    var(v)
                } else {
                    expr(ExprKind::Arith(ArithOp::Mul, Box::new(num(c)), Box::new(var(v))), span)
                }
            };
            let (op, c) = if cx < 0 {
                (ArithOp::Add, -cx)
            } else {
                (ArithOp::Sub, cx)
            };
            let kept = expr(ExprKind::Arith(op, Box::new(times(cy, x)), Box::new(times(c, y))), span);
            push(at_entry(kept, RelOp::Eq), true);
            let op = if cx.signum() == cy.signum() {
                ArithOp::Add
            } else {
                ArithOp::Sub
            };
            push(
                at_entry(
                    expr(ExprKind::Arith(op, Box::new(var(x)), Box::new(var(y))), span),
                    RelOp::Eq,
                ),
                true,
            );
        }
    }

    // The conditions the procedure tests.
    for at in &tested {
        push(BoolExpr::Atom(at.clone()), false);
        push(
            BoolExpr::Atom(atom(at.lhs.clone(), at.op.negate(), at.rhs.clone())),
            false,
        );
    }

    // Orderings and signs.
    for &x in &written {
        push(BoolExpr::Atom(atom(var(x), RelOp::Ge, num(0))), false);
        push(BoolExpr::Atom(atom(var(x), RelOp::Le, num(0))), false);
        for &y in written.iter().chain(read.iter()) {
            if y != x {
                for op in [RelOp::Le, RelOp::Ge, RelOp::Eq] {
                    push(BoolExpr::Atom(atom(var(x), op, var(y))), false);
                }
            }
        }
    }

    // Still in the loop, or a condition holds.
    for s in &stay {
        for at in &tested {
            for op in [at.op, at.op.negate()] {
                let holds = atom(at.lhs.clone(), op, at.rhs.clone());
                // `s || !s` says nothing.
                if show_atom(p, &holds) == show_atom(p, &atom(s.lhs.clone(), s.op.negate(), s.rhs.clone())) {
                    continue;
                }
                push(
                    BoolExpr::Or(Box::new(BoolExpr::Atom(s.clone())), Box::new(BoolExpr::Atom(holds))),
                    false,
                );
            }
        }
    }
    out
}

/// The loops of procedures the entry can call.
fn live_loops(a: &Analysis) -> impl Iterator<Item = &Loop> {
    a.loops.iter().filter(|l| a.reachable_procs.contains(&l.proc))
}

pub fn candidates(p: &Program, a: &Analysis) -> Vec<Invariant> {
    let mut out = Vec::new();
    for l in live_loops(a) {
        let scalar = |v: &VarId| {
            let var = p.var(*v);
            var.len.is_none() && (var.proc == Some(l.proc) || var.is_global_storage())
        };
        let mut seen = BTreeSet::new();
        for c in loop_candidates(p, a, l) {
            let mut text = show(p, &c.expr);
            if c.entry {
                if let BoolExpr::Atom(at) = &c.expr {
                    let e = show_expr(p, &at.lhs);
                    text = format!("{e} {} \\at({e}, LoopEntry)", at.op.symbol());
                }
            }
            // Only variables of the loop's procedure and global storage.
            let mut vs = Vec::new();
            atoms_vars(&c.expr, &mut vs);
            if !vs.iter().all(scalar) || !seen.insert(text.clone()) {
                continue;
            }
            out.push(Invariant {
                head: l.head,
                expr: c.expr,
                text,
                user: false,
                entry: c.entry,
                visited: None,
            });
            if seen.len() >= MAX_PER_LOOP {
                break;
            }
        }
    }
    out
}

fn atoms_vars(e: &BoolExpr, out: &mut Vec<VarId>) {
    match e {
        BoolExpr::Atom(a) => {
            expr_vars(&a.lhs, out);
            expr_vars(&a.rhs, out);
        }
        BoolExpr::Not(x) => atoms_vars(x, out),
        BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
            atoms_vars(a, out);
            atoms_vars(b, out);
        }
    }
}
