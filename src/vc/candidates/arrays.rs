//! Quantified candidates over the elements a loop has passed. A loop whose
//! counter `x` moves by one each iteration and which writes `a[x] = e`
//! (`e` reading only `x`, constants and what the loop leaves alone) gets
//! the candidate `\forall k; \at(x, LoopEntry) <= k < x ==> a[k] == e[x :=
//! k]` (`x < k <= \at(x, LoopEntry)` counting down). That is the invariant
//! of the loops that fill or copy an array before another loop checks it:
//! no unrolling reaches the end of a 100,000-element array, and no
//! candidate over scalars says what its elements hold.

use super::super::{Invariant, Visited};
use super::increment;
use crate::facts::analysis::Loop;
use crate::facts::Analysis;
use crate::ir::cond::BoolExpr;
use crate::ir::*;
use std::collections::BTreeSet;

/// At most this many per loop.
const MAX_PER_LOOP: usize = 16;

/// The loop's counters: scalars its body writes at one node only, adding
/// 1 or -1.
fn counters(p: &Program, a: &Analysis, l: &Loop) -> Vec<Visited> {
    let mut out = Vec::new();
    for &x in &l.modifies {
        let var = p.var(x);
        if var.len.is_some() || !(var.proc == Some(l.proc) || var.is_global_storage()) {
            continue;
        }
        let writes: Vec<NodeId> = l
            .body
            .iter()
            .copied()
            .filter(|n| a.defs[n.index()].contains(&x))
            .collect();
        let [n] = writes[..] else { continue };
        if let NodeKind::Assign { place, value, .. } = &p.node(n).kind {
            if place.var == x && place.index.is_none() {
                if let Some(step @ (1 | -1)) = increment(value, x) {
                    out.push(Visited { counter: x, step });
                }
            }
        }
    }
    out
}

/// Does `e` mean the same at every iteration once the counter is fixed:
/// constants, the counter, and scalars and arrays the loop does not write
/// (no division or bitwise operation, whose Z3 terms are not made for a
/// bound variable)?
fn fixed(p: &Program, l: &Loop, x: VarId, e: &Expr) -> bool {
    let kept = |v: &VarId| !l.modifies.contains(v) && (p.var(*v).proc == Some(l.proc) || p.var(*v).is_global_storage());
    match &e.kind {
        ExprKind::Const(_) => true,
        ExprKind::Var(v) => *v == x || (kept(v) && p.var(*v).len.is_none()),
        ExprKind::Elem(v, i, _) => kept(v) && fixed(p, l, x, i),
        ExprKind::Neg(y) | ExprKind::Conv(_, y) | ExprKind::Checked { value: y, .. } => fixed(p, l, x, y),
        ExprKind::Arith(op, y, z) => {
            let constant = |e: &Expr| matches!(e.kind, ExprKind::Const(_));
            (*op != ArithOp::Mul || constant(y) || constant(z)) && fixed(p, l, x, y) && fixed(p, l, x, z)
        }
        ExprKind::Bit { .. } | ExprKind::Div { .. } | ExprKind::Float { .. } => false,
    }
}

/// `text` with the identifier `name` written `with`.
pub fn rename(text: &str, name: &str, with: &str) -> String {
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$' || c == '.';
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(name) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + name.len()..].chars().next();
        let whole = !before.is_some_and(ident) && !after.is_some_and(ident);
        out.push_str(&rest[..at]);
        out.push_str(if whole { with } else { name });
        rest = &rest[at + name.len()..];
    }
    out.push_str(rest);
    out
}

pub fn candidates(p: &Program, a: &Analysis) -> Vec<Invariant> {
    let mut out = Vec::new();
    for l in super::live_loops(a) {
        let mut seen = BTreeSet::new();
        for v in counters(p, a, l) {
            for &n in &l.body {
                let NodeKind::Assign { place, value, .. } = &p.node(n).kind else {
                    continue;
                };
                let Some((index, site)) = &place.index else { continue };
                if !matches!(index.kind, ExprKind::Var(i) if i == v.counter) || !fixed(p, l, v.counter, value) {
                    continue;
                }
                let elem = Expr {
                    kind: ExprKind::Elem(place.var, index.clone(), *site),
                    span: place.span,
                };
                let atom = Atom {
                    lhs: elem,
                    op: RelOp::Eq,
                    rhs: value.clone(),
                };
                let x = &p.var(v.counter).name;
                let shown = show_atom(p, &atom);
                // A name the program's text does not use.
                let k = (0..)
                    .map(|i| if i == 0 { "k".to_string() } else { format!("k{i}") })
                    .find(|k| rename(&shown, k, "#") == shown)
                    .expect("a free name");
                let body = rename(&shown, x, &k);
                let range = match v.step > 0 {
                    true => format!("\\at({x}, LoopEntry) <= {k} < {x}"),
                    false => format!("{x} < {k} <= \\at({x}, LoopEntry)"),
                };
                let text = format!("\\forall {k}; {range} ==> {body}");
                if seen.len() < MAX_PER_LOOP && seen.insert(text.clone()) {
                    out.push(Invariant {
                        head: l.head,
                        expr: BoolExpr::Atom(atom),
                        text,
                        user: false,
                        entry: false,
                        visited: Some(v),
                    });
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::rename;

    #[test]
    fn only_whole_names_are_renamed() {
        assert_eq!(rename("a[i] == b[i] + i2 + s.i", "i", "k"), "a[k] == b[k] + i2 + s.i");
    }
}
