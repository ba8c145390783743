//! The definitions a NEST's values come from.
//!
//! A NEST names the statements where the fix belongs, but a wrong constant
//! is fixed where it is defined, not where it is read: a threshold table
//! filled by an initialisation routine, a `#define`, a global's
//! initialiser. So the explanation of a NEST also holds:
//! - every `#define` a NEST statement expands (or a definition below does);
//! - the FSS's assignments of a constant to a variable whose value reaches
//!   a NEST statement, following plain copies (`y = x`, parameter passing,
//!   `return x` and the call's result) back from the read;
//! - the declaration of a global whose constant initialiser reaches a NEST
//!   statement that way (no FSS statement wrote it before).
//!
//! Values computed from others (`y = x + 1`) are not followed: such a
//! statement is a computation, not a definition, and it is an FSS
//! statement the NEST already shows or does not need.

use super::entries::Entry;
use super::fss::{EvKind, Fss};
use crate::ir::*;
use crate::syntax::source::Span;
use std::collections::BTreeSet;

/// What a NEST's values come from, beyond its own statements.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Definitions {
    /// FSS entries that assign a constant the NEST reads.
    pub entries: Vec<usize>,
    /// `#define` lines and global declarations (spans in the source).
    pub spans: Vec<Span>,
}

/// The definitions behind the NEST `nest` (entries of `entries`, which
/// group `fss`'s events). `localise_at` says which source positions an
/// explanation may point at (in `diff`, the new version's).
pub fn definitions(
    p: &Program,
    fss: &Fss,
    entries: &[Entry],
    nest: &[usize],
    localise_at: &dyn Fn(u32) -> bool,
) -> Definitions {
    let mut entry_of = vec![usize::MAX; fss.len()];
    for (k, e) in entries.iter().enumerate() {
        for &i in &e.events {
            entry_of[i] = k;
        }
    }
    let in_nest: BTreeSet<usize> = nest.iter().copied().collect();
    let events: Vec<_> = fss.iter().copied().collect();
    let mut wanted: BTreeSet<VarId> = BTreeSet::new();
    let mut found: BTreeSet<usize> = BTreeSet::new();
    let mut spans: BTreeSet<Span> = BTreeSet::new();
    let macro_spans = |node: NodeId, spans: &mut BTreeSet<Span>| {
        let at = p.node(node).span;
        for u in &p.macro_uses {
            if at.lo <= u.at.lo && u.at.hi <= at.hi && localise_at(u.defined.lo) {
                spans.insert(u.defined);
            }
        }
    };
    for i in (0..events.len()).rev() {
        let ev = events[i];
        let entry = entry_of[i];
        let nested = entry != usize::MAX && in_nest.contains(&entry);
        if let Some((var, whole)) = writes(p, ev.node, ev.kind).filter(|(v, _)| wanted.contains(v)) {
            // A scalar has one value: earlier writers do not reach the read.
            // An array's other elements may still be wanted.
            if whole {
                wanted.remove(&var);
            }
            match source(p, ev.node, ev.kind) {
                Source::Constant if !nested && entry != usize::MAX && localise_at(p.node(ev.node).span.lo) => {
                    found.insert(entry);
                    macro_spans(ev.node, &mut spans);
                }
                Source::Copy(from) if !nested => {
                    wanted.insert(from);
                }
                _ => {}
            }
        }
        if nested {
            wanted.extend(reads(p, ev.node, ev.kind));
            macro_spans(ev.node, &mut spans);
        }
    }
    for v in wanted {
        let var = p.var(v);
        if var.is_global_storage() && matches!(var.init, VarInit::Values(_)) && localise_at(var.span.lo) {
            spans.insert(var.span);
        }
    }
    Definitions {
        entries: found.into_iter().collect(),
        spans: spans.into_iter().collect(),
    }
}

/// What an event's statement reads (the variables its value depends on).
fn reads(p: &Program, node: NodeId, kind: EvKind) -> Vec<VarId> {
    let mut out = Vec::new();
    match (&p.node(node).kind, kind) {
        (NodeKind::Assign { place, value, .. }, _) => {
            expr_vars(value, &mut out);
            if let Some((i, _)) = &place.index {
                expr_vars(i, &mut out);
            }
        }
        (
            NodeKind::Branch {
                cond: Cond::Atom(a), ..
            },
            _,
        ) => {
            expr_vars(&a.lhs, &mut out);
            expr_vars(&a.rhs, &mut out);
        }
        (NodeKind::Call { args, .. }, EvKind::Param(k)) => {
            if let Some(a) = args.get(k as usize) {
                expr_vars(a, &mut out);
            }
        }
        (NodeKind::Call { callee, .. }, EvKind::Result) => out.extend(p.proc(*callee).ret_var),
        (NodeKind::Return { value: Some(e), .. }, _) => expr_vars(e, &mut out),
        _ => {}
    }
    out
}

/// The variable an event writes, and whether it writes all of it.
fn writes(p: &Program, node: NodeId, kind: EvKind) -> Option<(VarId, bool)> {
    let place = |pl: &Place| Some((pl.var, pl.index.is_none() && p.var(pl.var).len.is_none()));
    match (&p.node(node).kind, kind) {
        (NodeKind::Assign { place: pl, .. }, EvKind::Assign) => place(pl),
        (NodeKind::Havoc { place: pl, .. }, EvKind::Assign) => place(pl),
        (NodeKind::Call { callee, .. }, EvKind::Param(k)) => p.proc(*callee).params.get(k as usize).map(|&v| (v, true)),
        (NodeKind::Call { result: Some(pl), .. }, EvKind::Result) => place(pl),
        (NodeKind::Return { .. }, EvKind::Return) => p.proc(p.node(node).proc).ret_var.map(|v| (v, true)),
        _ => None,
    }
}

/// Where a written value comes from.
enum Source {
    /// A constant expression (literals and macros only).
    Constant,
    /// Another variable's value, unchanged (conversions aside).
    Copy(VarId),
    Computed,
}

fn source(p: &Program, node: NodeId, kind: EvKind) -> Source {
    let value = match (&p.node(node).kind, kind) {
        (NodeKind::Assign { value, .. }, _) => value,
        (NodeKind::Call { args, .. }, EvKind::Param(k)) => match args.get(k as usize) {
            Some(a) => a,
            None => return Source::Computed,
        },
        (NodeKind::Call { callee, .. }, EvKind::Result) => {
            return p.proc(*callee).ret_var.map_or(Source::Computed, Source::Copy)
        }
        (NodeKind::Return { value: Some(e), .. }, _) => e,
        _ => return Source::Computed,
    };
    let mut vars = Vec::new();
    expr_vars(value, &mut vars);
    if vars.is_empty() {
        return Source::Constant;
    }
    let mut e = value;
    loop {
        match &e.kind {
            ExprKind::Conv(_, x) => e = x,
            ExprKind::Var(v) | ExprKind::Elem(v, _, _) => return Source::Copy(*v),
            _ => return Source::Computed,
        }
    }
}
