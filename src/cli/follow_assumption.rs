//! The `assumption` waypoints `run --witness` reads: a conjunction of
//! `x == V` (`a[2] == V`, `s.f == V`; `x != x` of a floating `x`, a NaN)
//! over variables in scope at the waypoint's statement, which the replay
//! evaluates there. Any other constraint is not read.

use super::follow_witness::{c_integer, float_constant, unparen};
use crate::interp::follow::Follow;
use crate::ir::{float, Program, VarId, VarInit};
use crate::views::waypoints;
use std::collections::HashMap;

/// The variable a name in scope at offset `at` of `function` is: the local
/// declared last before `at` whose block holds `at`, else the global.
fn resolve(p: &Program, function: Option<&str>, at: u32, name: &str) -> Option<VarId> {
    let proc = function.and_then(|f| p.proc_by_name(f));
    let ids = (0..p.vars.len() as u32).map(VarId);
    let block_of = |v: VarId| {
        let s = p.var(v).span;
        (p.blocks.iter())
            .filter(|b| Some(b.proc) == p.var(v).proc && b.span.lo <= s.lo && s.hi <= b.span.hi)
            .min_by_key(|b| b.span.hi - b.span.lo)
            .map(|b| b.span)
    };
    let local = ids
        .clone()
        .filter(|&v| p.var(v).name == name && p.var(v).proc.is_some() && p.var(v).proc == proc)
        .filter(|&v| p.var(v).span.hi <= at && block_of(v).is_some_and(|b| b.lo <= at && at < b.hi))
        .max_by_key(|&v| p.var(v).span.lo);
    local.or_else(|| {
        ids.into_iter()
            .find(|&v| p.var(v).name == name && p.var(v).proc.is_none())
    })
}

/// One conjunct `NAME == V` (either side), as (variable, element, value).
fn conjunct(p: &Program, function: Option<&str>, at: u32, c: &str) -> Option<(VarId, i64, i64)> {
    let c = unparen(c);
    let named = |s: &str| -> Option<(VarId, i64)> {
        let s = unparen(s);
        let (base, index) = match s.strip_suffix(']').and_then(|r| r.split_once('[')) {
            Some((b, k)) => (b.trim(), c_integer(k)?),
            None => (s, 0),
        };
        let ok = !base.is_empty()
            && base.split('.').all(|w| {
                w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !w.starts_with(|c: char| c.is_ascii_digit())
            });
        let v = resolve(p, function, at, base).filter(|_| ok)?;
        (0..p.var(v).slots() as i64).contains(&index).then_some((v, index))
    };
    if let Some((l, r)) = c.split_once("!=") {
        let (v, k) = named(l).filter(|_| unparen(l) == unparen(r))?;
        let ty = p.var(v).ty;
        return ty.is_float().then(|| (v, k, float::default_nan(ty)));
    }
    let (l, r) = c.split_once("==")?;
    let ((v, k), value) = match named(l) {
        Some(x) => (x, r),
        None => (named(r)?, l),
    };
    let ty = p.var(v).ty;
    if ty.is_float() {
        return Some((v, k, float_constant(ty, value)?));
    }
    let n = c_integer(value)?;
    let (lo, hi) = ty.range();
    // `u == -1` of an `unsigned int` converts -1 as C does.
    let n = match n {
        n if (lo..=hi).contains(&n) => n,
        n if lo == 0 && hi == u32::MAX as i64 && n < 0 && n >= i32::MIN as i64 => n + (1i64 << 32),
        _ => return None,
    };
    Some((v, k, n))
}

/// The conjuncts of an assumption at offset `at` of `function`, or `None`
/// when one is not `NAME == V` over a variable in scope there.
pub fn read(p: &Program, function: Option<&str>, at: u32, c: &str) -> Option<Vec<(VarId, i64, i64)>> {
    unparen(c)
        .split("&&")
        .map(|part| conjunct(p, function, at, part))
        .collect()
}

/// The entry's inputs (its uninitialised locals) an assumption names,
/// each with its first value, as `--input` names them.
pub fn inputs(p: &Program, named: &[(VarId, i64, i64)], into: &mut HashMap<String, i64>) {
    for &(v, k, value) in named {
        let var = p.var(v);
        if var.init == VarInit::Input && var.proc == Some(p.entry) {
            let index = var.len.map(|_| k as u32);
            into.entry(p.input_name(v, index)).or_insert(value);
        }
    }
}

/// Each node's place for assumptions: its statement's start, or anywhere
/// on that line before it (where other tools may put the waypoint).
pub fn places(p: &Program, follow: &mut Follow) {
    for n in p.node_ids() {
        if let Some(s) = waypoints::statement_start(p, n) {
            let line = p.source.line_col(s).line;
            let line_start = p
                .source
                .offset(crate::syntax::source::LineCol { line, col: 1 })
                .unwrap_or(s);
            follow.places.insert(n, (line_start, s));
        }
    }
}
