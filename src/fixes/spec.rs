//! What a fix must not change, and what it should rather not: the
//! specification (the error's own check and the verifier's functions) and
//! the statements next to it (input guards, values computed only for the
//! check), whose edits make the error vanish without mending the program.

use crate::analysis::witness::Counterexample;
use crate::context::conditions::Condition;
use crate::facts::Analysis;
use crate::interp::Step;
use crate::ir::{NodeId, NodeKind, Program, SiteKind, VarId};
use crate::syntax::lexer;
use std::collections::{BTreeMap, BTreeSet};

/// Functions that state what the program must do, not what it does.
fn is_spec_proc(name: &str) -> bool {
    name.starts_with("__VERIFIER_")
        || matches!(
            name,
            "reach_error" | "assume_abort_if_not" | "abort" | "assert" | "__assert_fail"
        )
}

/// Calls that state a property (not `__VERIFIER_nondet_*`, which reads an
/// input).
fn is_spec_call(name: &str) -> bool {
    is_spec_proc(name) && !name.starts_with("__VERIFIER_nondet")
}

/// Lines of the specification: the error's site and, for `reach_error()`
/// or a condition on variables (`--error`, the paper's `error` flag), the
/// statement that makes it hold and the last branch before it in its
/// procedure when the error is in the way it took (the check); the bodies of the verifier's functions; the
/// lines calling them.
pub fn specification(p: &Program, cond: &Condition, cx: &Counterexample) -> BTreeSet<u32> {
    let mut out = BTreeSet::new();
    let site = cond.site().map(|s| p.site(s));
    // An assertion's line is the specification; an access's or a
    // division's is the program's (`a[i + 1]` may be the fault).
    if let Some(site) = site.filter(|s| matches!(s.kind, SiteKind::Assert | SiteKind::ReachError | SiteKind::Leak)) {
        out.insert(p.line(site.span));
    }
    if site.is_none_or(|s| s.kind == SiteKind::ReachError) {
        let trace = &cx.run.trace;
        if let Some(last) = trace.last() {
            out.insert(p.line(p.node(last.node).span));
        }
        if let Some(g) = last_branch(p, trace).filter(|&g| guards_error(p, trace, g)) {
            out.insert(p.line(p.node(trace[g].node).span));
        }
    }
    for f in p.procs.iter().filter(|f| is_spec_proc(&f.name)) {
        out.extend(p.line(f.span)..=super::last_line(p, f.span));
    }
    let mut diags = Vec::new();
    for t in lexer::lex(&p.source.text, &mut diags).tokens {
        if t.ident().is_some_and(is_spec_call) && p.source.slice(t.span) == t.ident().unwrap_or_default() {
            out.insert(p.line(t.span));
        }
    }
    out
}

/// The step of the last branch of the error's procedure before the error
/// (the run does not return from that procedure in between).
pub fn last_branch(p: &Program, trace: &[Step]) -> Option<usize> {
    let depth = trace.last()?.depth;
    (0..trace.len())
        .rev()
        .take_while(|&i| trace[i].depth >= depth)
        .find(|&i| trace[i].depth == depth && matches!(p.node(trace[i].node).kind, NodeKind::Branch { .. }))
}

/// Branch step `g` is the error's own check: the error is in the way it
/// took, with nothing done in between (labels, `goto`). A branch followed
/// by statements or calls before the error (`if (n < 3) return; n--;
/// f(n); ERROR: ...`) is the program's logic, which a fix may change.
fn guards_error(p: &Program, trace: &[Step], g: usize) -> bool {
    let end = trace.len().saturating_sub(1);
    trace[g + 1..end]
        .iter()
        .all(|s| s.depth == trace[g].depth && matches!(p.node(s.node).kind, NodeKind::Skip { .. }))
}

/// The lines next to the specification, by kind.
#[derive(Default)]
pub struct Adjacent {
    pub guards: BTreeSet<u32>,
    pub oracles: BTreeSet<u32>,
}

/// Lines next to the specification: input guards (a branch of the entry
/// procedure that is not a loop's condition, before the run repeats any
/// statement, one of whose ways ends the run at once by statements the
/// other way does not reach: an early exit, not the end both ways come to,
/// as in `if (i == j) { check } return 0;`) and oracle
/// assignments (outside loops, to a scalar read only on specification
/// lines): the lines of each.
pub fn adjacent(p: &Program, a: &Analysis, cx: &Counterexample, spec: &BTreeSet<u32>) -> Adjacent {
    let mut out = Adjacent::default();
    let mut seen = BTreeSet::new();
    for s in &cx.run.trace {
        if !seen.insert(s.node) {
            break;
        }
        if let NodeKind::Branch { then_, else_, .. } = p.node(s.node).kind {
            let alone = |way, other| exits_alone(p, s.node, way, other);
            let guard = s.depth == 0 && (alone(then_, else_) || alone(else_, then_));
            if guard && !loop_condition(p, a, s.node) {
                out.guards.insert(p.line(p.node(s.node).span));
            }
        }
    }
    // Where each variable is read.
    let mut read_on: BTreeMap<VarId, BTreeSet<u32>> = BTreeMap::new();
    for n in p.node_ids() {
        for &v in &a.uses[n.index()] {
            read_on.entry(v).or_default().insert(p.line(p.node(n).span));
        }
    }
    for n in p.node_ids() {
        if let NodeKind::Assign { place, .. } = &p.node(n).kind {
            // Once, outside loops: a value kept across iterations is the
            // program's state (a lock), not a value computed for the check.
            let oracle = place.index.is_none()
                && !a.loops.iter().any(|l| l.body.contains(&n))
                && read_on
                    .get(&place.var)
                    .is_some_and(|lines| lines.iter().all(|l| spec.contains(l)));
            if oracle {
                out.oracles.insert(p.line(p.node(n).span));
            }
        }
    }
    out
}

/// A loop's condition: reached from its head with no choice in between,
/// or going back to it (`do ... while`).
fn loop_condition(p: &Program, a: &Analysis, b: NodeId) -> bool {
    a.loops.iter().filter(|l| l.body.contains(&b)).any(|l| {
        if p.node(b).successors().contains(&l.head) {
            return true;
        }
        let mut n = l.head;
        for _ in 0..8 {
            if n == b {
                return true;
            }
            match p.node(n).kind {
                NodeKind::Skip { next } => n = next,
                _ => return false,
            }
        }
        false
    })
}

/// The way `way` of branch `b` ends the run a few statements on, and the
/// other way reaches none of those statements (but through `b` again, in
/// a loop): the branch is an early exit, not a block the run skips on its
/// way to the same end.
fn exits_alone(p: &Program, b: NodeId, way: NodeId, other: NodeId) -> bool {
    let Some(path) = ends_run(p, way) else {
        return false;
    };
    let mut seen = BTreeSet::from([b, other]);
    let mut todo = vec![other];
    while let Some(n) = todo.pop() {
        if path.contains(&n) {
            return false;
        }
        todo.extend(p.node(n).successors().into_iter().filter(|&m| seen.insert(m)));
    }
    true
}

/// The run ends a few statements after `n`, with no choice in between:
/// those statements up to the `return` (what comes after it, every
/// `return` of the entry shares).
fn ends_run(p: &Program, mut n: NodeId) -> Option<Vec<NodeId>> {
    let mut path = Vec::new();
    let mut returned = false;
    for _ in 0..8 {
        let node = p.node(n);
        let next = match node.kind {
            NodeKind::Skip { next } => next,
            NodeKind::Return { next, .. } if node.proc == p.entry => next,
            NodeKind::Exit => return (node.proc == p.entry).then_some(path),
            NodeKind::Halt => return Some(path),
            _ => return None,
        };
        if !returned {
            path.push(n);
        }
        returned |= matches!(node.kind, NodeKind::Return { .. });
        n = next;
    }
    None
}
