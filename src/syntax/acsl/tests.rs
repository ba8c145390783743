//! The parser on small annotations.

use super::*;
use crate::diag::Diag;

fn parse_text(text: &str) -> Result<Annotation, Diag> {
    let file = format!("/*@{text}*/");
    let c = Comment {
        span: Span::new(0, file.len()),
        body: Span::new(3, file.len() - 2),
    };
    parse(&file, c)
}

#[test]
fn contract_clauses_and_chains() {
    let a = parse_text(" requires 0 <= n < 10; ensures \\result == \\old(x) + 1; assigns x, a[..]; ").unwrap();
    assert_eq!(a.kind, AnnotKind::Contract);
    assert_eq!(a.clauses.len(), 3);
    assert_eq!(a.clauses[0].text, "0 <= n < 10");
    let ClauseBody::Pred(p) = &a.clauses[0].body else {
        panic!()
    };
    assert!(matches!(p.kind, ExprKind::Binary(BinOp::And, ..)));
    let ClauseBody::Locs(l) = &a.clauses[2].body else {
        panic!()
    };
    assert!(matches!(l[1].0, Loc::Whole(_)));
}

#[test]
fn quantifier_extends_right_and_implication_is_right_associative() {
    let a = parse_text(" loop invariant \\forall int k; 0 <= k < i ==> a[k] == 0 ==> b; ").unwrap();
    let ClauseBody::Pred(p) = &a.clauses[0].body else {
        panic!()
    };
    let ExprKind::Quant { body, .. } = &p.kind else {
        panic!()
    };
    let ExprKind::Binary(BinOp::Implies, _, rhs) = &body.kind else {
        panic!()
    };
    assert!(matches!(rhs.kind, ExprKind::Binary(BinOp::Implies, ..)));
}

#[test]
fn errors_are_located() {
    let e = parse_text(" requires x > ; ").unwrap_err();
    assert!(e.message.contains("expected a term"), "{}", e.message);
    assert_eq!(e.span.lo, 17);
    let e = parse_text(" loop variant n; ").unwrap_err();
    assert!(e.message.contains("not supported"));
    let e = parse_text(" requires x > 0; loop invariant y; ").unwrap_err();
    assert!(e.message.contains("same annotation"));
    let e = parse_text(" requires x > 0 ").unwrap_err();
    assert!(e.message.contains("expected `;`"));
}

#[test]
fn pointer_terms_and_sets_of_locations() {
    let a = parse_text(
        " requires \\valid(p + (0..n-1)) && \\valid_read(&s->f) && \\separated(p, q + (0..2)) && p != \\null;
          ensures *p == \\old(*q) && a[i].f == (c ? 1 : 2);
          assigns *p, q[0..n-1], s->f, a[..]; ",
    )
    .unwrap();
    let ClauseBody::Pred(r) = &a.clauses[0].body else {
        panic!()
    };
    let mut kinds = Vec::new();
    fn walk(e: &Expr, out: &mut Vec<&'static str>) {
        match &e.kind {
            ExprKind::Binary(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
            ExprKind::Valid { read, locs } => {
                out.push(if *read { "valid_read" } else { "valid" });
                walk(locs, out);
            }
            ExprKind::Separated(xs) => {
                out.push("separated");
                xs.iter().for_each(|x| walk(x, out));
            }
            ExprKind::Range(Some(_), Some(_)) => out.push("range"),
            ExprKind::AddrOf(x) => {
                out.push("&");
                walk(x, out);
            }
            ExprKind::Member(_, _, true) => out.push("->"),
            ExprKind::Null => out.push("null"),
            _ => {}
        }
    }
    walk(r, &mut kinds);
    assert_eq!(
        kinds,
        ["valid", "range", "valid_read", "&", "->", "separated", "range", "null"]
    );
    let ClauseBody::Pred(e) = &a.clauses[1].body else {
        panic!()
    };
    let ExprKind::Binary(BinOp::And, lhs, rhs) = &e.kind else {
        panic!("{e:?}")
    };
    assert!(matches!(&lhs.kind, ExprKind::Binary(BinOp::Eq, d, _) if matches!(d.kind, ExprKind::Deref(_))));
    assert!(matches!(&rhs.kind, ExprKind::Binary(BinOp::Eq, m, c)
        if matches!(m.kind, ExprKind::Member(_, _, false)) && matches!(c.kind, ExprKind::Cond(..))));
    let ClauseBody::Locs(l) = &a.clauses[2].body else {
        panic!()
    };
    assert!(matches!(&l[0].0, Loc::Expr(e) if matches!(e.kind, ExprKind::Deref(_))));
    assert!(matches!(&l[1].0, Loc::Range(id, _, _) if id.name == "q"));
    assert!(matches!(&l[2].0, Loc::Expr(e) if matches!(e.kind, ExprKind::Member(..))));
    assert!(matches!(&l[3].0, Loc::Whole(id) if id.name == "a"));
}

#[test]
fn pointer_syntax_errors_are_located() {
    let e = parse_text(" requires \\valid(p, q); ").unwrap_err();
    assert!(e.message.contains("one set of locations"), "{}", e.message);
    let e = parse_text(" requires p->; ").unwrap_err();
    assert!(e.message.contains("a field name"), "{}", e.message);
    let e = parse_text(" ensures c ? 1 2; ").unwrap_err();
    assert!(e.message.contains("`:`"), "{}", e.message);
}

/// C's precedence of the bitwise operators: `|` below `^` below `&`
/// below the comparisons, shifts between the comparisons and `+`, `~`
/// unary; `&&` and `||` are not taken for `&` and `|`.
#[test]
fn bitwise_operators_bind_as_in_c() {
    fn show(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Int(v) => v.to_string(),
            ExprKind::Var(id) => id.name.clone(),
            ExprKind::BitNot(x) => format!("~{}", show(x)),
            ExprKind::Binary(op, a, b) => format!("({} {op:?} {})", show(a), show(b)),
            other => format!("{other:?}"),
        }
    }
    for (text, tree) in [
        ("a | b ^ c & d", "(a BitOr (b BitXor (c BitAnd d)))"),
        ("a & b == c", "(a BitAnd (b Eq c))"),
        ("a << 1 + b < c >> 2", "((a Shl (1 Add b)) Lt (c Shr 2))"),
        ("~a & 0xF0 && b || c", "(((~a BitAnd 240) And b) Or c)"),
    ] {
        let a = parse_text(&format!(" loop invariant {text}; ")).unwrap();
        let ClauseBody::Pred(p) = &a.clauses[0].body else {
            panic!()
        };
        assert_eq!(show(p), tree, "{text}");
    }
}
