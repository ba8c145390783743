//! The program lowered to typed input relations (ids, not strings): what the
//! static rules (`rules/static.rs`) read. One field per relation, each with
//! its meaning; `focuscheck facts` prints them marked `input`.

use crate::ir::*;
use std::collections::{BTreeMap, BTreeSet, HashSet};

/// Every input relation of the static rules.
#[derive(Clone, Debug, Default)]
pub struct InputFacts {
    /// `node_in_proc(p, proc)`: program point p belongs to proc.
    pub node_in_proc: Vec<(NodeId, ProcId)>,
    /// `cfg_edge(p, q)`: control may flow from p to q.
    pub cfg_edge: Vec<(NodeId, NodeId)>,
    /// `branch_edge(b, outcome, q)`: branch b goes to q when its atom is `outcome`.
    pub branch_edge: Vec<(NodeId, bool, NodeId)>,
    /// `def_base(p, v)`: p itself writes v (an assignment's place, a draw, a
    /// call's result, a `return`'s value variable).
    pub def_base: Vec<(NodeId, VarId)>,
    /// `use_base(p, v)`: p itself reads v (expressions, indices, a call's arguments).
    pub use_base: Vec<(NodeId, VarId)>,
    /// `call_at(p, callee)`: p calls callee.
    pub call_at: Vec<(NodeId, ProcId)>,
    /// `proc_entry(proc, p)`: proc starts at p.
    pub proc_entry: Vec<(ProcId, NodeId)>,
    /// `proc_exit(proc, p)`: proc returns through p.
    pub proc_exit: Vec<(ProcId, NodeId)>,
    /// `error_point(p)`: reaching p is an error (assert, reach_error).
    pub error_point: Vec<NodeId>,
    /// `global_storage(v)`: v is a global or a static local.
    pub global_storage: Vec<VarId>,
    /// `entry_proc(proc)`: the run starts in proc.
    pub entry_proc: Vec<ProcId>,
    /// `scc_member(f, rep)`: procedure f is in the strongly connected
    /// component of the call graph named by its smallest member rep (found
    /// by Tarjan's depth-first search, like loops: as a relation, the
    /// transitive closure it needs is quadratic on a chain of calls).
    pub scc_member: Vec<(ProcId, ProcId)>,
    /// `loop_body(head, p)`: p belongs to the natural loop headed by head
    /// (heads are the targets of retreating edges of a depth-first search
    /// from the entry, so every cycle, irreducible ones too, has a head).
    pub loop_body: Vec<(NodeId, NodeId)>,
}

impl InputFacts {
    pub fn new(p: &Program) -> InputFacts {
        let mut f = InputFacts {
            entry_proc: vec![p.entry],
            ..Default::default()
        };
        for id in p.node_ids() {
            let node = p.node(id);
            f.node_in_proc.push((id, node.proc));
            for s in node.successors() {
                f.cfg_edge.push((id, s));
            }
            let (defs, uses) = own_defs_uses(p, id);
            f.def_base.extend(defs.into_iter().map(|v| (id, v)));
            f.use_base.extend(uses.into_iter().map(|v| (id, v)));
            match &node.kind {
                NodeKind::Branch { then_, else_, .. } => {
                    f.branch_edge.push((id, true, *then_));
                    f.branch_edge.push((id, false, *else_));
                }
                NodeKind::Call { callee, .. } => f.call_at.push((id, *callee)),
                NodeKind::Error { .. } => f.error_point.push(id),
                _ => {}
            }
        }
        let mut preds = vec![Vec::new(); p.nodes.len()];
        for &(x, y) in &f.cfg_edge {
            preds[y.index()].push(x);
        }
        for pid in p.proc_ids() {
            let pr = p.proc(pid);
            f.proc_entry.push((pid, pr.entry));
            f.proc_exit.push((pid, pr.exit));
            for (head, body) in natural_loops(p, pr.entry, &preds) {
                f.loop_body.extend(body.into_iter().map(|x| (head, x)));
            }
        }
        f.scc_member = call_graph_sccs(p.procs.len(), &f.call_at, &f.node_in_proc);
        f.global_storage = (0..p.vars.len() as u32)
            .map(VarId)
            .filter(|&v| p.var(v).is_global_storage())
            .collect();
        f
    }
}

/// What a node itself writes and reads, without a callee's effects.
fn own_defs_uses(p: &Program, id: NodeId) -> (Vec<VarId>, Vec<VarId>) {
    let mut d = Vec::new();
    let mut u = Vec::new();
    let place_uses = |pl: &Place, u: &mut Vec<VarId>| {
        if let Some((i, _)) = &pl.index {
            expr_vars(i, u);
        }
    };
    match &p.node(id).kind {
        NodeKind::Assign { place, value, .. } => {
            d.push(place.var);
            place_uses(place, &mut u);
            expr_vars(value, &mut u);
        }
        NodeKind::Havoc { place, .. } => {
            d.push(place.var);
            place_uses(place, &mut u);
        }
        NodeKind::Branch {
            cond: Cond::Atom(a), ..
        } => {
            expr_vars(&a.lhs, &mut u);
            expr_vars(&a.rhs, &mut u);
        }
        NodeKind::Call { args, result, .. } => {
            for a in args {
                expr_vars(a, &mut u);
            }
            if let Some(r) = result {
                d.push(r.var);
                place_uses(r, &mut u);
            }
        }
        NodeKind::Return { value: Some(e), .. } => {
            expr_vars(e, &mut u);
            if let Some(rv) = p.proc(p.node(id).proc).ret_var {
                d.push(rv);
            }
        }
        _ => {}
    }
    d.sort();
    d.dedup();
    u.sort();
    u.dedup();
    (d, u)
}

/// Natural loops of a procedure: each retreating edge `u -> h` of a
/// depth-first search from the entry makes `h` a head; loops with one head
/// are merged. The body of each, head included, by head.
fn natural_loops(p: &Program, entry: NodeId, preds: &[Vec<NodeId>]) -> BTreeMap<NodeId, BTreeSet<NodeId>> {
    let mut on_stack = HashSet::new();
    let mut seen = HashSet::new();
    let mut back: Vec<(NodeId, NodeId)> = Vec::new();
    let mut stack = vec![(entry, 0usize)];
    seen.insert(entry);
    on_stack.insert(entry);
    while let Some((x, i)) = stack.pop() {
        let succ = p.node(x).successors();
        if i < succ.len() {
            stack.push((x, i + 1));
            let y = succ[i];
            if on_stack.contains(&y) {
                back.push((x, y));
            } else if seen.insert(y) {
                on_stack.insert(y);
                stack.push((y, 0));
            }
        } else {
            on_stack.remove(&x);
        }
    }
    let mut by_head: BTreeMap<NodeId, BTreeSet<NodeId>> = BTreeMap::new();
    for (u, h) in back {
        let body = by_head.entry(h).or_insert_with(|| BTreeSet::from([h]));
        let mut work = vec![u];
        while let Some(x) = work.pop() {
            if body.insert(x) {
                work.extend(preds[x.index()].iter().copied());
            }
        }
    }
    by_head
}

/// Strongly connected components of the call graph (Tarjan, iterative):
/// each procedure with the smallest member of its component.
fn call_graph_sccs(
    procs: usize,
    call_at: &[(NodeId, ProcId)],
    node_in_proc: &[(NodeId, ProcId)],
) -> Vec<(ProcId, ProcId)> {
    let mut proc_of = std::collections::HashMap::new();
    for &(x, f) in node_in_proc {
        proc_of.insert(x, f);
    }
    let mut callees: Vec<Vec<usize>> = vec![Vec::new(); procs];
    for &(x, g) in call_at {
        callees[proc_of[&x].index()].push(g.index());
    }
    for c in &mut callees {
        c.sort();
        c.dedup();
    }
    const UNSEEN: usize = usize::MAX;
    let (mut index, mut low) = (vec![UNSEEN; procs], vec![0; procs]);
    let mut on_stack = vec![false; procs];
    let (mut stack, mut next, mut out) = (Vec::new(), 0, Vec::new());
    for root in 0..procs {
        if index[root] != UNSEEN {
            continue;
        }
        let mut work = vec![(root, 0usize)];
        while let Some(&mut (v, ref mut i)) = work.last_mut() {
            if *i == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on_stack[v] = true;
            }
            if let Some(&w) = callees[v].get(*i) {
                *i += 1;
                if index[w] == UNSEEN {
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(u, _)) = work.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                let rep = ProcId(*members.iter().min().unwrap() as u32);
                out.extend(members.into_iter().map(|w| (ProcId(w as u32), rep)));
            }
        }
    }
    out.sort();
    out
}
