//! The `assumption` waypoints of a violation witness: the values a
//! counterexample gives uninitialised locals (C leaves them indeterminate,
//! so a validator may choose them; the witness says which). Each is `x ==
//! V` (`a[2] == V`, `s.f == V`; `x != x` for a NaN) at the statement that
//! follows the declaration in the run, in force at the sequence point
//! before it (format 2.0: a statement within a block).

use super::waypoints::statement_start;
use crate::analysis::witness::Counterexample;
use crate::ir::{float, BlockId, NodeKind, Program, VarId, VarKind};
use std::collections::BTreeMap;

/// C's name of element `index` of `v`, when it is a variable the source
/// declares (not a pointer, whose value is the memory model's): `x`,
/// `a[2]`, `s.f`.
fn c_name(p: &Program, v: VarId, index: Option<u32>) -> Option<String> {
    let var = p.var(v);
    let declared = p.text(var.span);
    let mut parts = var.name.split('.');
    let ident = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if parts.next() != Some(declared) || !var.name.split('.').all(ident) {
        return None;
    }
    let before = p
        .source
        .slice(crate::syntax::source::Span::new(0, var.span.lo as usize));
    if before.trim_end().ends_with(['*', '(']) {
        return None;
    }
    Some(match index {
        Some(k) => format!("{}[{k}]", var.name),
        None => var.name.clone(),
    })
}

/// `name == V` as the variable's type reads `value`.
fn equals(p: &Program, v: VarId, name: &str, value: i64) -> String {
    let ty = p.var(v).ty;
    match ty.is_float() {
        true if float::c_text(ty, value) == "NAN" => format!("{name} != {name}"),
        true => format!("{name} == {}", float::c_text(ty, value)),
        false => format!("{name} == {value}"),
    }
}

/// The innermost block of `v`'s function that holds its declaration.
fn block_of(p: &Program, v: VarId) -> Option<BlockId> {
    let s = p.var(v).span;
    (0..p.blocks.len())
        .filter(|&b| Some(p.blocks[b].proc) == p.var(v).proc)
        .filter(|&b| p.blocks[b].span.lo <= s.lo && s.hi <= p.blocks[b].span.hi)
        .min_by_key(|&b| p.blocks[b].span.hi - p.blocks[b].span.lo)
        .map(|b| BlockId(b as u32))
}

/// Per step of the run, the assumptions due before it: each read input
/// that is an uninitialised local of the entry (at the first step after
/// its declaration, in its block), each value a local's declaration draws
/// elsewhere (at the next step of that call). `Err` for an input C gives
/// a value to otherwise (a parameter of the entry, a global).
pub fn due(p: &Program, cx: &Counterexample) -> Result<BTreeMap<usize, Vec<String>>, String> {
    let trace = &cx.run.trace;
    let mut out: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    let slots = p.input_slots();
    let mut unstated = Vec::new();
    for (name, value) in cx.read_inputs() {
        let Some(s) = slots.iter().find(|s| &s.name == name) else {
            unstated.push(name.as_str());
            continue;
        };
        let var = p.var(s.var);
        let c = c_name(p, s.var, s.index).filter(|_| var.kind == VarKind::Local);
        let (Some(c), Some(b)) = (c, block_of(p, s.var)) else {
            unstated.push(name.as_str());
            continue;
        };
        let first = trace.iter().position(|st| {
            let n = p.node(st.node);
            st.depth == 0 && p.block_within(n.block, b) && statement_start(p, st.node).is_some_and(|s| s >= var.span.hi)
        });
        match first {
            Some(j) => out.entry(j).or_default().push(equals(p, s.var, &c, *value)),
            None => unstated.push(name.as_str()),
        }
    }
    let why = "and a witness 2.0 has no waypoint that gives them: replay them with `focuscheck run FILE -- ARGV`";
    if let Some(said) = super::argv_words::reads_arguments(p, &unstated, why) {
        return Err(said);
    }
    if !unstated.is_empty() {
        return Err(format!(
            "the run reads inputs C gives no value to ({})",
            unstated.join(", ")
        ));
    }
    for (i, st) in trace.iter().enumerate() {
        let n = p.node(st.node);
        let NodeKind::Havoc { place, .. } = &n.kind else {
            continue;
        };
        let var = p.var(place.var);
        if place.index.is_some() || var.span != n.span || var.len.is_some() || var.kind != VarKind::Local {
            continue;
        }
        let (Some(c), Some(value)) = (c_name(p, place.var, None), st.value) else {
            continue;
        };
        // A statement after the whole declarator: `a1`'s in `char a0, a1;`
        // starts before `a0` is declared, where a reader has no `a0`.
        let next = (trace[i + 1..].iter().enumerate())
            .take_while(|(_, x)| x.depth >= st.depth)
            .find(|(_, x)| x.depth == st.depth && statement_start(p, x.node).is_some_and(|s| s >= var.span.hi));
        if let Some((j, _)) = next {
            out.entry(i + 1 + j).or_default().push(equals(p, place.var, &c, value));
        }
    }
    Ok(out)
}
