//! What an annotation names and uses, read before the memory model
//! rewrites it: whether it reads pointers or structs, the names its
//! `requires` calls valid, whether it names a parameter.

use crate::syntax::acsl::{self as acsl, ClauseBody, ClauseKind, Expr as AE, ExprKind as AK};

/// Does the formula use pointers or structs (so the memory model must
/// read it, even in a program whose code has none)?
fn uses_memory(e: &AE) -> bool {
    let mut found = false;
    walk(e, &mut |x| {
        found |= matches!(
            x.kind,
            AK::Deref(_) | AK::AddrOf(_) | AK::Member(..) | AK::Null | AK::Valid { .. } | AK::Separated(_)
        )
    });
    found
}

fn walk(e: &AE, f: &mut dyn FnMut(&AE)) {
    f(e);
    match &e.kind {
        AK::Int(_) | AK::Bool(_) | AK::Var(_) | AK::Result | AK::Null | AK::LenOf(_) | AK::Invalid => {}
        AK::Index(a, b) | AK::Binary(_, a, b) => {
            walk(a, f);
            walk(b, f);
        }
        AK::Old(x)
        | AK::Neg(x)
        | AK::BitNot(x)
        | AK::Not(x)
        | AK::Deref(x)
        | AK::AddrOf(x)
        | AK::Member(x, ..)
        | AK::Storage(_, x) => walk(x, f),
        AK::Quant { body, .. } => walk(body, f),
        AK::Range(lo, hi) => lo.iter().chain(hi.iter()).for_each(|x| walk(x, f)),
        AK::Valid { locs, .. } => walk(locs, f),
        AK::Separated(xs) => xs.iter().for_each(|x| walk(x, f)),
        AK::Cond(c, a, b) => {
            walk(c, f);
            walk(a, f);
            walk(b, f);
        }
    }
}

/// The names a contract's `requires` says are valid (`\valid(a + ...)`).
pub(in crate::ir::mem) fn valid_names(a: &acsl::Annotation) -> Vec<String> {
    let mut out = Vec::new();
    for c in a.clauses.iter().filter(|c| c.kind == ClauseKind::Requires) {
        if let ClauseBody::Pred(e) = &c.body {
            walk(e, &mut |x| {
                if let AK::Valid { locs, .. } = &x.kind {
                    walk(locs, &mut |y| {
                        if let AK::Var(id) = &y.kind {
                            out.push(id.name.clone());
                        }
                    });
                }
            });
        }
    }
    out
}

/// Whether an annotation names `name` (a parameter its contract reads).
pub(in crate::ir::mem) fn mentions(a: &acsl::Annotation, name: &str) -> bool {
    let mut found = false;
    let mut in_expr = |e: &AE| {
        walk(e, &mut |x| {
            found |= matches!(&x.kind, AK::Var(id) if id.name == name);
        })
    };
    fn in_loc(l: &acsl::Loc, name: &str, f: &mut dyn FnMut(&AE)) -> bool {
        match l {
            acsl::Loc::Nothing => false,
            acsl::Loc::Var(id) | acsl::Loc::Whole(id) => id.name == name,
            acsl::Loc::Elem(id, e) => {
                f(e);
                id.name == name
            }
            acsl::Loc::Range(id, lo, hi) => {
                f(lo);
                f(hi);
                id.name == name
            }
            acsl::Loc::Expr(e) => {
                f(e);
                false
            }
            acsl::Loc::If(c, l) => {
                f(c);
                in_loc(l, name, f)
            }
        }
    }
    let mut named = false;
    for c in &a.clauses {
        match &c.body {
            ClauseBody::Pred(e) => in_expr(e),
            ClauseBody::Locs(ls) => ls.iter().for_each(|(l, _)| named |= in_loc(l, name, &mut in_expr)),
        }
    }
    found || named
}

/// Whether an annotation uses pointers or structs anywhere.
pub(in crate::ir::mem) fn annotation_uses_memory(a: &acsl::Annotation) -> bool {
    a.clauses.iter().any(|c| match &c.body {
        ClauseBody::Pred(e) => uses_memory(e),
        ClauseBody::Locs(ls) => ls
            .iter()
            .any(|(l, _)| matches!(l, acsl::Loc::Expr(_)) || matches!(l, acsl::Loc::Elem(_, e) if uses_memory(e))),
    })
}
