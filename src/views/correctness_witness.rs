//! A safe program as an SV-COMP correctness witness (format 2.0, YAML): one
//! `invariant_set` entry with a `loop_invariant` at the `while`/`for`/`do`
//! keyword of each loop the VC engine proved invariants of, their
//! conjunction as a C expression over the program's own variables.
//!
//! Only what C and a validator can read is stated: plain comparisons of
//! variables in scope at the keyword (no loop-entry values, no casts, no
//! temporaries of the lowering); a loop with no such invariant gets none
//! (an empty set is a witness too). The one exception to C is a fact over
//! more array elements than C states one by one: an ACSL `\forall` of
//! its own (`format: acsl_expression`, as format 2.1 allows).

use super::waypoints;
use super::witness_entry::{self, location, Meta};
use crate::facts::Analysis;
use crate::ir::cond::BoolExpr;
use crate::ir::*;
use crate::vc::Invariant;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The invariant of one loop: at its keyword (an offset), in its function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopInvariant {
    pub at: u32,
    pub function: String,
    /// The conjunction in C (empty: none).
    pub value: String,
    /// Facts over the elements the loop passed, in ACSL
    /// (`loop_entry::quantified`), each an invariant of its own.
    pub quantified: Vec<String>,
}

/// The offset of the `while`/`for`/`do` keyword of the loop whose head is
/// `head` (its condition; a `do` loop's head is its body's start, where
/// each iteration begins), if it has one in the program's own file.
pub fn loop_keyword(p: &Program, head: NodeId) -> Option<u32> {
    let is_keyword = |at: u32| {
        let rest = p
            .source
            .slice(crate::syntax::source::Span::new(at as usize, at as usize + 6));
        ["while", "for", "do"].iter().any(|k| {
            rest.strip_prefix(k)
                .is_some_and(|r| !r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
        })
    };
    // The head, or the condition it goes on to.
    let mut n = head;
    for _ in 0..8 {
        let node = p.node(n);
        if p.source.resolve(node.span).0 == 0 && is_keyword(node.span.lo) {
            return Some(node.span.lo);
        }
        match node.kind {
            NodeKind::Skip { next } => n = next,
            NodeKind::Branch { .. } => return waypoints::condition_keyword(p, node.unit).filter(|&at| is_keyword(at)),
            _ => return None,
        }
    }
    None
}

/// Is `e` what C and the witness reader both read the same way: constants,
/// variables, `+ - *`, negation, `/` and `%` by a positive constant?
pub(super) fn plain_c(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Var(_) => true,
        ExprKind::Neg(x) => plain_c(x),
        ExprKind::Checked { value, .. } => plain_c(value),
        ExprKind::Arith(_, a, b) => plain_c(a) && plain_c(b),
        // `x % m`, `x / m` by a positive constant (never a division by 0).
        ExprKind::Div { num, den, .. } => plain_c(num) && matches!(den.kind, ExprKind::Const(c) if c > 0),
        // An element at a constant index (of an array `in_scope` declares).
        ExprKind::Elem(_, i, _) => matches!(i.kind, ExprKind::Const(c) if c >= 0),
        ExprKind::Conv(..) | ExprKind::Bit { .. } | ExprKind::Float { .. } => false,
    }
}

fn atoms<'a>(e: &'a BoolExpr, out: &mut Vec<&'a Atom>) {
    match e {
        BoolExpr::Atom(a) => out.push(a),
        BoolExpr::Not(x) => atoms(x, out),
        BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
            atoms(a, out);
            atoms(b, out);
        }
    }
}

/// Is `var` declared as a plain scalar (no `*` before its name, no `[`
/// after it), or, for an array, with one dimension (`[N]`, no second)?
/// The memory model turns pointers into scalars too, and a comparison of
/// those is not C's. A field of a struct variable (`s.len`, `s.in.n`) is
/// C as its name says when the struct is declared so (no `*`, no `[`) and
/// the field is an integer (`field_path`).
fn plain_declarator(p: &Program, var: &Var) -> bool {
    // A floating variable's value is its bits: no integer relation is C's.
    if var.ty.is_float() {
        return false;
    }
    let (root, field) = match var.name.split_once('.') {
        Some((root, _)) if field_path(p, var) => (root, true),
        Some(_) => return false,
        // A pointer behind a `typedef` (no `*` at its name): its offset.
        None if p
            .vars
            .iter()
            .any(|w| w.proc == var.proc && w.name == format!("{}.off", var.name)) =>
        {
            return false
        }
        None => (var.name.as_str(), false),
    };
    let all = p.source.text.as_str();
    let (lo, hi) = (var.span.lo as usize, (var.span.hi as usize).min(all.len()));
    let b = all.as_bytes();
    let word = |i: usize| i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_');
    all[lo..hi].match_indices(root).any(|(i, _)| {
        let (start, end) = (lo + i, lo + i + root.len());
        let before = all[..start].trim_end();
        let after = all[end..].trim_start();
        let whole = !word(end) && (start == 0 || !word(start - 1));
        let one_dimension = || {
            let rest = after.strip_prefix('[').and_then(|r| r.split_once(']'));
            rest.is_some_and(|(_, r)| !r.trim_start().starts_with('['))
        };
        // A field with elements: of an array of structs (`struct S s[N]`,
        // its elements `s[k].n`), never an array inside a struct: one
        // element per struct, as many as the declaration says.
        let structs = |n: u32| {
            let count = after.strip_prefix('[').and_then(|r| r.split_once(']'));
            count.is_some_and(|(c, _)| c.trim().parse::<u32>() == Ok(n))
        };
        let shape = match var.len {
            Some(n) if field => one_dimension() && structs(n),
            Some(_) => one_dimension(),
            None => !after.starts_with('['),
        };
        whole && !before.ends_with('*') && shape
    })
}

/// Is `var` (named `s.f...`) an integer field of a struct variable: each
/// part a name, not a pointer's leaf (a pointer is stored as its object's
/// tag `s.p` and offset `s.p.off`), in a program without unions (a union
/// member's storage is named as the union, which C does not compare)?
fn field_path(p: &Program, var: &Var) -> bool {
    let ident = |x: &str| {
        x.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
            && x.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !x.starts_with("__")
    };
    let sibling = |name: &str| p.vars.iter().any(|w| w.name == name && w.proc == var.proc);
    let pointer_part = var.name.strip_suffix(".off").is_some_and(sibling) || sibling(&format!("{}.off", var.name));
    var.name.split('.').all(ident) && !pointer_part && !mentions_union(p)
}

/// Does the program's text use the word `union`?
fn mentions_union(p: &Program) -> bool {
    let t = p.source.text.as_str();
    let b = t.as_bytes();
    let word = |i: usize| i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_');
    t.match_indices("union")
        .any(|(i, _)| !word(i + 5) && (i == 0 || !word(i - 1)))
}

/// Is `v` a variable of the source in scope at offset `at` of a loop in
/// `proc`: a global, or a parameter or local of `proc` declared before
/// `at` in a block that is still open there, or in the loop's `for` clause?
fn in_scope(p: &Program, v: VarId, proc: ProcId, at: u32) -> bool {
    let var = p.var(v);
    let named = var.name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && var
            .name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
        && !var.name.starts_with("__");
    if !named || !plain_declarator(p, var) {
        return false;
    }
    match var.kind {
        VarKind::Global => true,
        VarKind::Param => var.proc == Some(proc),
        VarKind::Local if var.proc == Some(proc) || var.is_static => {
            let decl = var.span.lo;
            if p.source.resolve(var.span).0 != 0 {
                return false;
            }
            // Declared in the loop's own `for` clause: in scope at its head
            // (C11 6.8.5.3), where a loop invariant holds.
            if decl >= at {
                let end = crate::ir::contract::for_clause_end(&p.source.text, at as usize);
                return end.is_some_and(|end| decl < end);
            }
            // Declared in an earlier `for`'s clause: in scope in its body only.
            if let Some(inside) = in_for_body(&p.source.text, decl as usize, at as usize) {
                return inside;
            }
            // No `}` between the declaration and the loop closes its block.
            let between = p.text(crate::syntax::source::Span::new(decl as usize, at as usize));
            let mut depth = 0i64;
            between.chars().all(|c| {
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    _ => {}
                }
                depth >= 0
            })
        }
        _ => false,
    }
}

/// For a variable declared at `decl` in the first clause of a `for` (`for
/// (int n = 0; ...)`), whose scope is that statement only (C11 6.8.5.3):
/// whether `at` lies within the statement's braced body (a body without
/// braces counts as not, the careful side). `None` for other declarations.
fn in_for_body(text: &str, decl: usize, at: usize) -> Option<bool> {
    let f = text[..decl].rfind("for")?;
    let clause_end = crate::ir::contract::for_clause_end(text, f)? as usize;
    if clause_end < decl {
        return None;
    }
    // The `)` closing the header, then the body.
    let closing = |from: usize, open: char, close: char| {
        let mut depth = 0i64;
        text[from..].char_indices().find_map(|(i, c)| {
            depth += (c == open) as i64 - (c == close) as i64;
            (c == close && depth == 0).then_some(from + i)
        })
    };
    let header = closing(text[f..].find('(')? + f, '(', ')')?;
    let body = header + 1 + text[header + 1..].find(|c: char| !c.is_whitespace())?;
    Some(text[body..].starts_with('{') && closing(body, '{', '}').is_some_and(|end| f < at && at < end))
}

/// The invariants of `proven` a witness can state (at a loop with a
/// keyword, readable in C, over variables in scope there); a fact over the
/// elements a loop has passed as the conjunction over their indices
/// (`loop_entry`), its counter's bound one of `bounds`.
pub fn stateable(p: &Program, a: &Analysis, proven: &[Invariant], bounds: &[Invariant]) -> Vec<Invariant> {
    let ok = |inv: &Invariant| {
        let Some(l) = a.loop_at.get(&inv.head).map(|&i| &a.loops[i]) else {
            return false;
        };
        let Some(at) = loop_keyword(p, inv.head) else {
            return false;
        };
        let mut used = Vec::new();
        atoms(&inv.expr, &mut used);
        // A quantified fact's sides are plain C at each index (checked there).
        let plain = |e: &Expr| inv.visited.is_some() || plain_c(e);
        !inv.entry
            && (inv.visited.is_none() || super::loop_entry::quantified(p, a, inv).is_some())
            && used.iter().all(|x| {
                let mut vs = Vec::new();
                expr_vars(&x.lhs, &mut vs);
                expr_vars(&x.rhs, &mut vs);
                plain(&x.lhs) && plain(&x.rhs) && vs.iter().all(|&v| in_scope(p, v, l.proc, at))
            })
    };
    // A fact over passed elements: their conjunction in C, else (too many
    // indices) the fact itself, stated in ACSL.
    let c_form = |inv: &Invariant| match (inv.visited, inv.entry) {
        (Some(_), _) => super::loop_entry::expanded(p, a, inv, bounds).or_else(|| Some(inv.clone())),
        (None, true) => super::loop_entry::entry_free(p, a, inv),
        (None, false) => Some(inv.clone()),
    };
    proven.iter().filter_map(c_form).filter(|i| ok(i)).collect()
}

/// The most facts a witness states at one loop, and in all: what a person
/// reads at a loop, and what Houdini's pruning queries carry (the explored
/// states may give hundreds of bounds and relations per loop,
/// `head_facts::MAX_PER_LOOP`).
pub const MAX_PER_LOOP: usize = 64;
pub const MAX_FACTS: usize = 512;

/// The most comparisons one fact may have: a fact over passed elements
/// stated index by index has two per index (`loop_entry::MAX_ELEMS`).
pub const MAX_TERMS: usize = 2 * super::loop_entry::MAX_ELEMS as usize;

/// `stated` (`stateable` facts, the proven ones first) bounded by counts,
/// so a witness stays small whatever the states gave: each fact once, none
/// of more than `MAX_TERMS` comparisons, the first `MAX_PER_LOOP` of each
/// loop and `MAX_FACTS` in all. Dropping a fact before the pruning keeps
/// the witness sound: what is kept is pruned to a set inductive alone and
/// validated all the same.
pub fn bounded(stated: Vec<Invariant>) -> Vec<Invariant> {
    let mut seen = std::collections::HashSet::new();
    let mut per_loop: BTreeMap<NodeId, usize> = BTreeMap::new();
    let mut total = 0;
    let mut keep = |inv: &Invariant| {
        let mut used = Vec::new();
        atoms(&inv.expr, &mut used);
        let n = per_loop.entry(inv.head).or_default();
        let fits = used.len() <= MAX_TERMS && *n < MAX_PER_LOOP && total < MAX_FACTS;
        if !fits || !seen.insert((inv.head, inv.expr.clone(), format!("{:?}", inv.visited))) {
            return false;
        }
        *n += 1;
        total += 1;
        true
    };
    stated.into_iter().filter(|i| keep(i)).collect()
}

/// The invariants (`stateable` ones) as a witness states them: one
/// conjunction per loop, in the order of the loops' keywords.
pub fn loop_invariants(p: &Program, a: &Analysis, invariants: &[Invariant]) -> Vec<LoopInvariant> {
    type Parts<'i> = (ProcId, Vec<&'i BoolExpr>, Vec<String>);
    let mut by_loop: BTreeMap<u32, Parts> = BTreeMap::new();
    for inv in invariants {
        let (Some(&l), Some(at)) = (a.loop_at.get(&inv.head), loop_keyword(p, inv.head)) else {
            continue;
        };
        let parts = by_loop.entry(at).or_insert((a.loops[l].proc, Vec::new(), Vec::new()));
        match inv.visited {
            None => parts.1.push(&inv.expr),
            Some(_) => parts.2.extend(super::loop_entry::quantified(p, a, inv)),
        }
    }
    by_loop
        .into_iter()
        .map(|(at, (proc, parts, mut quantified))| {
            quantified.dedup();
            LoopInvariant {
                at,
                function: p.proc(proc).name.clone(),
                value: simplified(p, &parts).join(" && "),
                quantified,
            }
        })
        .collect()
}

/// The conjuncts of a loop's invariant as a person would write them: each
/// once, without the disjunctions one of whose sides is a conjunct.
fn simplified(p: &Program, parts: &[&BoolExpr]) -> Vec<String> {
    // Conjunctions apart, so a bound two facts share is said once.
    fn conjuncts<'e>(e: &'e BoolExpr, out: &mut Vec<&'e BoolExpr>) {
        match e {
            BoolExpr::And(a, b) => {
                conjuncts(a, out);
                conjuncts(b, out);
            }
            _ => out.push(e),
        }
    }
    let mut flat = Vec::new();
    parts.iter().for_each(|e| conjuncts(e, &mut flat));
    let parts = &flat[..];
    let texts: Vec<String> = parts.iter().map(|e| show(p, e)).collect();
    let keys: Vec<Option<(RelOp, String, String)>> = parts.iter().map(|e| key(p, e)).collect();
    // `a <= b` (`b >= a`) where `a == b` (`b == a`) is said too.
    let by_equality = |k: &(RelOp, String, String)| {
        let pair = |(x, y): (&String, &String)| {
            if x <= y {
                (x.clone(), y.clone())
            } else {
                (y.clone(), x.clone())
            }
        };
        let (l, r) = pair((&k.1, &k.2));
        k.0 == RelOp::Le && keys.contains(&Some((RelOp::Eq, l, r)))
    };
    let mut out: Vec<String> = Vec::new();
    let mut said: Vec<&(RelOp, String, String)> = Vec::new();
    for ((e, text), k) in parts.iter().zip(&texts).zip(&keys) {
        let implied = match (e, k) {
            (BoolExpr::Or(a, b), _) => [a, b].iter().any(|x| texts.contains(&show(p, x))),
            (_, Some(k)) => said.contains(&k) || by_equality(k),
            _ => false,
        };
        if !implied && !out.contains(text) {
            out.push(text.clone());
            said.extend(k);
        }
    }
    out
}

/// A comparison as one form of its meaning: `>`/`>=` turned round to
/// `<`/`<=`, the sides of `==`/`!=` in order (`i <= s` and `s >= i` are
/// one fact).
fn key(p: &Program, e: &BoolExpr) -> Option<(RelOp, String, String)> {
    let BoolExpr::Atom(a) = e else { return None };
    let (l, r) = (show_c(p, &a.lhs), show_c(p, &a.rhs));
    Some(match a.op {
        RelOp::Ge => (RelOp::Le, r, l),
        RelOp::Gt => (RelOp::Lt, r, l),
        RelOp::Lt | RelOp::Le => (a.op, l, r),
        RelOp::Eq | RelOp::Ne if l <= r => (a.op, l, r),
        RelOp::Eq | RelOp::Ne => (a.op, r, l),
    })
}

/// `e` in C, parenthesised where `&&` around it would change its meaning.
fn show(p: &Program, e: &BoolExpr) -> String {
    let atom = |a: &Atom| format!("{} {} {}", show_c(p, &a.lhs), a.op.symbol(), show_c(p, &a.rhs));
    match e {
        BoolExpr::Atom(a) => atom(a),
        BoolExpr::Not(x) => format!("!({})", show(p, x)),
        BoolExpr::And(a, b) => format!("{} && {}", show(p, a), show(p, b)),
        BoolExpr::Or(a, b) => format!("({} || {})", show(p, a), show(p, b)),
    }
}

/// A plain expression (`plain_c`) in C, sums and products in parentheses,
/// parts over constants only folded (`(2 * 0) - 0` of an entry value is `0`).
pub(super) fn show_c(p: &Program, e: &Expr) -> String {
    if let Some(c) = crate::ir::eval::eval(e, crate::ir::eval::Width::Wide, &mut |_, _| None) {
        return c.to_string();
    }
    match &e.kind {
        ExprKind::Checked { value, .. } => show_c(p, value),
        ExprKind::Neg(x) => format!("-{}", show_c(p, x)),
        ExprKind::Arith(op, a, b) => {
            let s = match op {
                ArithOp::Add => "+",
                ArithOp::Sub => "-",
                ArithOp::Mul => "*",
            };
            format!("({} {s} {})", show_c(p, a), show_c(p, b))
        }
        ExprKind::Div { num, den, rem, .. } => {
            format!(
                "({} {} {})",
                show_c(p, num),
                if *rem { "%" } else { "/" },
                show_c(p, den)
            )
        }
        // An element of an array of structs' field (`plain_declarator`):
        // `s[k].n`, as C names it.
        ExprKind::Elem(v, i, _) => match p.var(*v).name.split_once('.') {
            Some((root, field)) => format!("{root}[{}].{field}", show_c(p, i)),
            None => show_expr(p, e),
        },
        _ => show_expr(p, e),
    }
}

/// The error function the program's unreach-call specification names:
/// `__VERIFIER_error` in older tasks that call it and not `reach_error`.
pub fn error_function(p: &Program) -> &'static str {
    let calls = |f: &str| {
        p.sites
            .iter()
            .any(|s| s.kind == SiteKind::ReachError && p.text(s.span).trim_start().starts_with(f))
    };
    if calls("__VERIFIER_error") && !calls("reach_error") {
        "__VERIFIER_error"
    } else {
        "reach_error"
    }
}

/// The witness of a safe program with these loop invariants.
pub fn value(p: &Program, loops: &[LoopInvariant], meta: &Meta) -> Value {
    let item = |l: &LoopInvariant, value: &str, format: &str| {
        json!({"invariant": {
            "type": "loop_invariant",
            "location": location(p, l.at, &l.function),
            "value": value,
            "format": format,
        }})
    };
    let content: Vec<Value> = loops
        .iter()
        .flat_map(|l| {
            let c = (!l.value.is_empty() || l.quantified.is_empty()).then(|| item(l, &l.value, "c_expression"));
            c.into_iter()
                .chain(l.quantified.iter().map(|q| item(l, q, "acsl_expression")))
        })
        .collect();
    let mut v = witness_entry::entry("invariant_set", meta, error_function(p), Value::Array(content));
    // ACSL invariants are format 2.1's (2.0 reads C expressions only).
    if loops.iter().any(|l| !l.quantified.is_empty()) {
        v[0]["metadata"]["format_version"] = json!("2.1");
    }
    v
}
