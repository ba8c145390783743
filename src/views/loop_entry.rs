//! Proven facts that name loop-entry values, as a correctness witness's C
//! can state them at the loop's head.
//!
//! A relation with entry values (`res + cnt == \at(res + cnt,
//! LoopEntry)`) takes the values the variables were given before the loop
//! (`entry_free`: `res + cnt == a + b` after `res = a; cnt = b;`).
//!
//! A fact about the elements a loop has passed (`\forall k;
//! \at(x, LoopEntry) <= k < x ==> a[k] == e[x := k]`,
//! `vc::candidates::arrays`) as a correctness witness can state it: a C
//! expression has no quantifier and no loop-entry value, but when the
//! counter enters the loop with a constant `c` and a proven bound `x <= u`
//! limits it, the indices are the constants `c..u` and the fact is exactly
//! the conjunction `(x <= c || a[c] == e[c]) && ... && (x <= u - 1 || a[u -
//! 1] == e[u - 1])` (`x >= k` counting down). Each conjunct reads its
//! element only when the counter has passed it, an index the loop wrote,
//! so its evaluation is defined.
//!
//! At most `MAX_ELEMS` indices: the witness grows by a conjunct per element
//! (about 30 bytes), and so do the formulas that prune and validate it. At
//! 256 a fill loop's witness is proved in 1.6 s; at 512 Houdini's pruning
//! query runs out of its Z3 rlimit and drops the fact (no witness). Past
//! that, the conjuncts are those of the constant indices the program names
//! for the array (`a[1023]` after a loop filling 2048): each an instance of
//! the fact and inductive on its own. An array of SV-COMP's usual 100,000
//! elements read at the counter of another loop gets the fact in ACSL
//! (`quantified`, `format: acsl_expression`), which `verify --witness`
//! reads as the contract engine reads a quantified loop invariant.

use crate::facts::Analysis;
use crate::ir::cond::BoolExpr;
use crate::ir::eval::{eval, Width};
use crate::ir::*;
use crate::vc::candidates::arrays::rename;
use crate::vc::Invariant;

/// The most indices a fact over passed elements is written for.
pub const MAX_ELEMS: i64 = 256;

/// The value of `e` once the counter `x` holds `k`: constant parts folded
/// (`(int)k` is `k`, which C's reader takes without a cast).
fn at_index(e: &Expr, x: VarId, k: i64) -> Expr {
    let mut read = |v: VarId, _| (v == x).then_some(k);
    if let Some(c) = eval(e, Width::Wide, &mut read) {
        return Expr {
            kind: ExprKind::Const(c),
            span: e.span,
        };
    }
    let sub = |y: &Expr| Box::new(at_index(y, x, k));
    let kind = match &e.kind {
        ExprKind::Elem(v, i, site) => ExprKind::Elem(*v, sub(i), *site),
        ExprKind::Neg(y) => ExprKind::Neg(sub(y)),
        ExprKind::Conv(t, y) => ExprKind::Conv(*t, sub(y)),
        ExprKind::Checked { value, .. } => return at_index(value, x, k),
        ExprKind::Arith(op, y, z) => ExprKind::Arith(*op, sub(y), sub(z)),
        other => other.clone(),
    };
    Expr { kind, span: e.span }
}

/// The value a node before the loop gives `x`: walking back from `n`
/// through nodes that write neither `x` nor what the value reads (each with
/// one predecessor) to an assignment to `x`.
fn assigned_value(p: &Program, a: &Analysis, mut n: NodeId, x: VarId) -> Option<Expr> {
    let mut written: Vec<VarId> = Vec::new();
    for _ in 0..16 {
        if let NodeKind::Assign { place, value, .. } = &p.node(n).kind {
            if place.var == x && place.index.is_none() {
                let mut reads = Vec::new();
                expr_vars(value, &mut reads);
                return (!reads.iter().any(|v| written.contains(v))).then(|| value.clone());
            }
        }
        if a.defs[n.index()].contains(&x) {
            return None;
        }
        written.extend(&a.defs[n.index()]);
        let [q] = a.preds[n.index()][..] else { return None };
        n = q;
    }
    None
}

/// The value the variable `x` has whenever the loop at `head` is entered,
/// as an expression over what the loop leaves alone (so it means the same
/// at the head), if every way into the loop gives the same one.
fn entry_value(p: &Program, a: &Analysis, head: NodeId, x: VarId) -> Option<Expr> {
    let l = &a.loops[*a.loop_at.get(&head)?];
    let mut value: Option<Expr> = None;
    for &pred in &a.preds[head.index()] {
        if l.body.contains(&pred) {
            continue;
        }
        let e = assigned_value(p, a, pred, x)?;
        let mut reads = Vec::new();
        expr_vars(&e, &mut reads);
        if reads.iter().any(|v| l.modifies.contains(v)) {
            return None;
        }
        if value.as_ref().is_some_and(|v| show_expr(p, v) != show_expr(p, &e)) {
            return None;
        }
        value = Some(e);
    }
    value
}

/// The constant the counter `x` has whenever the loop at `head` is entered.
fn entry_constant(p: &Program, a: &Analysis, head: NodeId, x: VarId) -> Option<i64> {
    eval(&entry_value(p, a, head, x)?, Width::Wide, &mut |_, _| None)
}

/// `e` with each variable the loop at `head` writes replaced by its value
/// on entry (`entry_value`), if each has one.
fn on_entry(p: &Program, a: &Analysis, head: NodeId, e: &Expr) -> Option<Expr> {
    let l = &a.loops[*a.loop_at.get(&head)?];
    let sub = |y: &Expr| on_entry(p, a, head, y).map(Box::new);
    let kind = match &e.kind {
        ExprKind::Var(v) if l.modifies.contains(v) => return entry_value(p, a, head, *v),
        ExprKind::Elem(v, ..) if l.modifies.contains(v) => return None,
        ExprKind::Elem(v, i, site) => ExprKind::Elem(*v, sub(i)?, *site),
        ExprKind::Neg(y) => ExprKind::Neg(sub(y)?),
        ExprKind::Conv(t, y) => ExprKind::Conv(*t, sub(y)?),
        ExprKind::Checked { value, ty, site } => ExprKind::Checked {
            value: sub(value)?,
            ty: *ty,
            site: *site,
        },
        ExprKind::Arith(op, y, z) => ExprKind::Arith(*op, sub(y)?, sub(z)?),
        ExprKind::Const(_) | ExprKind::Var(_) => e.kind.clone(),
        _ => return None,
    };
    Some(Expr { kind, span: e.span })
}

/// A relation with loop-entry values (`res + cnt == \at(res + cnt,
/// LoopEntry)`, `Invariant::entry`) with those values as C sees them at
/// the head: what the variables were assigned before the loop (`res + cnt
/// == a + b` after `res = a; cnt = b;`), when that reads only what the
/// loop leaves alone.
pub fn entry_free(p: &Program, a: &Analysis, inv: &Invariant) -> Option<Invariant> {
    let BoolExpr::Atom(at) = &inv.expr else { return None };
    let rhs = on_entry(p, a, inv.head, &at.rhs)?;
    Some(Invariant {
        expr: BoolExpr::Atom(Atom {
            lhs: at.lhs.clone(),
            op: at.op,
            rhs,
        }),
        entry: false,
        ..inv.clone()
    })
}

/// The bound `proven` gives `x` at `head`: the largest value it may have
/// (`upper`), else the smallest.
fn bound(proven: &[Invariant], head: NodeId, x: VarId, upper: bool) -> Option<i64> {
    let bounds = proven
        .iter()
        .filter(|i| i.head == head && !i.entry && i.visited.is_none());
    let of = |i: &Invariant| {
        let BoolExpr::Atom(at) = &i.expr else { return None };
        let (ExprKind::Var(v), ExprKind::Const(c)) = (&at.lhs.kind, &at.rhs.kind) else {
            return None;
        };
        (*v == x).then_some(())?;
        match (at.op, upper) {
            (RelOp::Le, true) | (RelOp::Ge, false) => Some(*c),
            (RelOp::Lt, true) => Some(c - 1),
            (RelOp::Gt, false) => Some(c + 1),
            _ => None,
        }
    };
    let found = bounds.filter_map(of);
    match upper {
        true => found.min(),
        false => found.max(),
    }
}

/// `inv` (a fact over the elements its loop has passed) as one C
/// expression without a quantifier, if the counter's entry value and a
/// bound are known and at most `MAX_ELEMS` indices lie between them.
pub fn expanded(p: &Program, a: &Analysis, inv: &Invariant, proven: &[Invariant]) -> Option<Invariant> {
    let v = inv.visited?;
    let BoolExpr::Atom(fact) = &inv.expr else { return None };
    let x = v.counter;
    let entry = entry_constant(p, a, inv.head, x)?;
    // The indices passed: entry..x counting up, x+1..=entry counting down.
    let (lo, hi) = match v.step > 0 {
        true => (entry, bound(proven, inv.head, x, true)? - 1),
        false => (bound(proven, inv.head, x, false)? + 1, entry),
    };
    if hi < lo {
        return None;
    }
    // Too many to state all: those the program names by a constant (`a[1023]`
    // after a loop filling 2048), each an instance of the fact (the loop
    // writes the counter's element only, one step at a time, so each
    // conjunct is inductive on its own).
    let indices: Vec<i64> = match hi - lo < MAX_ELEMS {
        true => (lo..=hi).collect(),
        false => {
            let mut arrays = Vec::new();
            expr_vars(&fact.lhs, &mut arrays);
            expr_vars(&fact.rhs, &mut arrays);
            arrays.retain(|&v| p.var(v).len.is_some());
            let named = constant_indices(p, &arrays);
            let within: Vec<i64> = named.range(lo..=hi).copied().collect();
            if within.is_empty() || within.len() as i64 > MAX_ELEMS {
                return None;
            }
            within
        }
    };
    let counter = Expr {
        kind: ExprKind::Var(x),
        span: fact.lhs.span,
    };
    let conjunct = |k: i64| {
        let passed = Atom {
            lhs: counter.clone(),
            op: if v.step > 0 { RelOp::Le } else { RelOp::Ge },
            rhs: Expr {
                kind: ExprKind::Const(k),
                span: fact.lhs.span,
            },
        };
        let holds = Atom {
            lhs: at_index(&fact.lhs, x, k),
            op: fact.op,
            rhs: at_index(&fact.rhs, x, k),
        };
        BoolExpr::Or(Box::new(BoolExpr::Atom(passed)), Box::new(BoolExpr::Atom(holds)))
    };
    let expr = indices
        .into_iter()
        .map(conjunct)
        .reduce(|all, c| BoolExpr::And(Box::new(all), Box::new(c)))?;
    Some(Invariant {
        head: inv.head,
        text: String::new(),
        expr,
        user: false,
        entry: false,
        visited: None,
    })
}

/// `inv` (a fact over the elements its loop has passed) in ACSL, for a
/// loop passing more indices than `expanded` states one by one:
/// `\forall int k; c <= k < x ==> a[k] == e[x := k]` (`x < k <= c`
/// counting down), `c` the constant the counter enters the loop with, so
/// the range is the one the VC engine proved it over (`\at(x, LoopEntry)
/// <= k < x`). Only where each side is plain C once the counter is a
/// constant (`a[x]`, `b[x + 1] + 2`).
pub fn quantified(p: &Program, a: &Analysis, inv: &Invariant) -> Option<String> {
    let v = inv.visited?;
    let BoolExpr::Atom(fact) = &inv.expr else { return None };
    let x = v.counter;
    let plain = |e: &Expr| super::correctness_witness::plain_c(&at_index(e, x, 0));
    if !plain(&fact.lhs) || !plain(&fact.rhs) {
        return None;
    }
    let c = entry_constant(p, a, inv.head, x)?;
    let show = |e: &Expr| super::correctness_witness::show_c(p, e);
    let shown = format!("{} {} {}", show(&fact.lhs), fact.op.symbol(), show(&fact.rhs));
    let name = &p.var(x).name;
    // A name the fact does not use.
    let k = (0..)
        .map(|i| if i == 0 { "k".to_string() } else { format!("k{i}") })
        .find(|k| rename(&shown, k, "#") == shown)?;
    let range = match v.step > 0 {
        true => format!("{c} <= {k} < {name}"),
        false => format!("{name} < {k} <= {c}"),
    };
    Some(format!("\\forall int {k}; {range} ==> {}", rename(&shown, name, &k)))
}

/// The constant indices at which the program reads or writes an element
/// of one of `arrays` anywhere (`a[1023]`, `a[N - 1]`).
fn constant_indices(p: &Program, arrays: &[VarId]) -> std::collections::BTreeSet<i64> {
    fn walk(e: &Expr, arrays: &[VarId], out: &mut std::collections::BTreeSet<i64>) {
        let parts: Vec<&Expr> = match &e.kind {
            ExprKind::Elem(v, i, _) => {
                if arrays.contains(v) {
                    out.extend(eval(i, Width::Wide, &mut |_, _| None));
                }
                vec![i]
            }
            ExprKind::Neg(x) | ExprKind::Conv(_, x) | ExprKind::Checked { value: x, .. } => vec![x],
            ExprKind::Arith(_, x, y) | ExprKind::Bit { a: x, b: y, .. } => vec![x, y],
            ExprKind::Div { num, den, .. } => vec![num, den],
            ExprKind::Float { args, .. } => args.iter().collect(),
            ExprKind::Const(_) | ExprKind::Var(_) => vec![],
        };
        parts.into_iter().for_each(|x| walk(x, arrays, out));
    }
    let mut out = std::collections::BTreeSet::new();
    let place = |pl: &Place, out: &mut std::collections::BTreeSet<i64>| {
        if let Some((i, _)) = &pl.index {
            if arrays.contains(&pl.var) {
                out.extend(eval(i, Width::Wide, &mut |_, _| None));
            }
            walk(i, arrays, out);
        }
    };
    for n in &p.nodes {
        match &n.kind {
            NodeKind::Assign { place: pl, value, .. } => {
                place(pl, &mut out);
                walk(value, arrays, &mut out);
            }
            NodeKind::Havoc { place: pl, .. } => place(pl, &mut out),
            NodeKind::Branch {
                cond: Cond::Atom(at), ..
            } => {
                walk(&at.lhs, arrays, &mut out);
                walk(&at.rhs, arrays, &mut out);
            }
            NodeKind::Call { args, result, .. } => {
                args.iter().for_each(|x| walk(x, arrays, &mut out));
                result.iter().for_each(|pl| place(pl, &mut out));
            }
            NodeKind::Return { value: Some(x), .. } => walk(x, arrays, &mut out),
            _ => {}
        }
    }
    out
}
