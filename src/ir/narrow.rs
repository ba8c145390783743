//! Splits narrowed by points-to: a case of an access's split (`if (p ==
//! 3)`) that no run can take, because `p` never holds object 3's tag
//! (`points_to.rs`), becomes a `Skip` to the next case, so every engine,
//! the static facts (defs, uses, mod/ref, control dependence), the Datalog
//! engine's procedure views and summaries and the VC engine see only the
//! objects a pointer may point to. Nodes that only the cut cases reached
//! become `Skip`s too (they write and read nothing), so no fact counts
//! them. Node ids stay as they were: contracts, views and
//! `Program::memory` name nodes and spans.
//!
//! Only a whole program is narrowed (the run starts at its entry). A view
//! that makes a procedure the entry with free parameters or globals
//! (`vc::contract::root_program`, doomed points) or calls it from outside
//! (`diff`'s versions) first puts the cut nodes back (`restore`).

use super::points_to::{PointsTo, PointsToInput};
use super::*;

/// The nodes the narrowing changed, with what they were.
pub type Narrowed = Vec<(NodeId, NodeKind)>;

/// Cuts the cases of splits no run can take (see the module's doc).
pub fn narrow(p: &mut Program) {
    if p.memory.objects.is_empty() || !p.narrowed.is_empty() {
        return;
    }
    let pt = PointsTo::new(&PointsToInput::new(p));
    let before = reachable(p);
    let mut changed: Narrowed = Vec::new();
    for id in p.node_ids() {
        if !p.is_access_branch(id) || !pt.is_live(id) {
            continue;
        }
        let NodeKind::Branch { then_, else_, .. } = p.node(id).kind else {
            continue;
        };
        let keep = match (pt.is_live_edge(id, then_), pt.is_live_edge(id, else_)) {
            (false, true) => else_,
            (true, false) => then_,
            _ => continue,
        };
        let old = std::mem::replace(&mut p.nodes[id.index()].kind, NodeKind::Skip { next: keep });
        changed.push((id, old));
    }
    if changed.is_empty() {
        return;
    }
    let after = reachable(p);
    for id in p.node_ids() {
        if !before[id.index()] || after[id.index()] {
            continue;
        }
        let next = match &p.node(id).kind {
            NodeKind::Assign { next, .. }
            | NodeKind::Havoc { next, .. }
            | NodeKind::Call { next, .. }
            | NodeKind::Return { next, .. } => *next,
            NodeKind::Branch { else_, .. } => *else_,
            NodeKind::Skip { .. } | NodeKind::Error { .. } | NodeKind::Halt | NodeKind::Exit => continue,
        };
        let old = std::mem::replace(&mut p.nodes[id.index()].kind, NodeKind::Skip { next });
        changed.push((id, old));
    }
    changed.sort_by_key(|(id, _)| *id);
    p.narrowed = changed;
}

/// Puts back every node `narrow` changed: the program as lowered.
pub fn restore(p: &mut Program) {
    for (id, kind) in std::mem::take(&mut p.narrowed) {
        p.nodes[id.index()].kind = kind;
    }
}

/// The nodes reachable from their procedure's entry.
fn reachable(p: &Program) -> Vec<bool> {
    let mut seen = vec![false; p.nodes.len()];
    let mut work: Vec<NodeId> = p.procs.iter().map(|f| f.entry).collect();
    while let Some(n) = work.pop() {
        if std::mem::replace(&mut seen[n.index()], true) {
            continue;
        }
        work.extend(p.node(n).successors());
    }
    seen
}
