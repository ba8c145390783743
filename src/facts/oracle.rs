//! The static analyses as they were written in Rust before `rules/static.rs`:
//! kept only as the oracle of the compare test (tests/static_facts.rs) until
//! it agrees, then deleted.

//! Static analyses over the IR, computed once per program: definitions and
//! uses per node, transitive mod/ref sets of procedures, postdominators,
//! control dependence, what the region of each branch outcome may define,
//! and natural loops.

use crate::ir::*;
use std::collections::{BTreeSet, HashMap};

#[derive(Clone, Debug)]
pub struct OracleLoop {
    pub head: NodeId,
    pub proc: ProcId,
    /// The head and every node of the loop.
    pub body: BTreeSet<NodeId>,
    /// Variables the loop may write (callees' global writes included).
    pub modifies: BTreeSet<VarId>,
}

#[derive(Clone, Debug)]
pub struct OracleAnalysis {
    pub preds: Vec<Vec<NodeId>>,
    /// Variables a node may write: the assigned place (a whole array for an
    /// element), a call's result and the callee's global writes.
    pub defs: Vec<Vec<VarId>>,
    /// Variables a node reads (a call: its arguments and the callee's global
    /// reads).
    pub uses: Vec<Vec<VarId>>,
    /// Global storage a procedure may write / read, callees included.
    pub proc_mod: Vec<BTreeSet<VarId>>,
    pub proc_ref: Vec<BTreeSet<VarId>>,
    /// Immediate postdominator (the exit has none).
    pub ipdom: Vec<Option<NodeId>>,
    /// The branch outcomes each node is control dependent on.
    pub control_deps: Vec<Vec<(NodeId, bool)>>,
    /// What the region of a branch outcome (from that successor up to the
    /// branch's immediate postdominator) may write.
    pub region_defs: HashMap<(NodeId, bool), BTreeSet<VarId>>,
    pub loops: Vec<OracleLoop>,
    /// The loop headed by a node, if it is a loop head.
    pub loop_at: HashMap<NodeId, usize>,
    pub reachable_procs: BTreeSet<ProcId>,
    /// Nodes of each procedure, in id order.
    pub proc_nodes: Vec<Vec<NodeId>>,
}

impl OracleAnalysis {
    pub fn new(p: &Program) -> OracleAnalysis {
        let n = p.nodes.len();
        let mut proc_nodes = vec![Vec::new(); p.procs.len()];
        let mut preds = vec![Vec::new(); n];
        for id in p.node_ids() {
            proc_nodes[p.node(id).proc.index()].push(id);
            for s in p.node(id).successors() {
                preds[s.index()].push(id);
            }
        }
        let (proc_mod, proc_ref) = mod_ref(p);
        let mut defs = vec![Vec::new(); n];
        let mut uses = vec![Vec::new(); n];
        for id in p.node_ids() {
            let (d, u) = node_defs_uses(p, id, &proc_mod, &proc_ref);
            defs[id.index()] = d;
            uses[id.index()] = u;
        }
        let mut ipdom = vec![None; n];
        let mut control_deps = vec![Vec::new(); n];
        let mut region_defs = HashMap::new();
        let mut loops = Vec::new();
        for pid in p.proc_ids() {
            let nodes = &proc_nodes[pid.index()];
            postdominators(p, pid, nodes, &preds, &mut ipdom);
            for &b in nodes {
                if let NodeKind::Branch { then_, else_, .. } = &p.node(b).kind {
                    for (succ, outcome) in [(*then_, true), (*else_, false)] {
                        let stop = ipdom[b.index()];
                        let mut r = Some(succ);
                        while let Some(x) = r {
                            if Some(x) == stop {
                                break;
                            }
                            if !control_deps[x.index()].contains(&(b, outcome)) {
                                control_deps[x.index()].push((b, outcome));
                            }
                            r = ipdom[x.index()];
                        }
                        region_defs.insert((b, outcome), region_may_def(p, b, succ, stop, &defs));
                    }
                }
            }
            loops.extend(natural_loops(p, pid, &preds, &defs));
        }
        let loop_at = loops.iter().enumerate().map(|(i, l)| (l.head, i)).collect();
        let reachable_procs = reachable(p);
        OracleAnalysis {
            preds,
            defs,
            uses,
            proc_mod,
            proc_ref,
            ipdom,
            control_deps,
            region_defs,
            loops,
            loop_at,
            reachable_procs,
            proc_nodes,
        }
    }
}

fn node_defs_uses(
    p: &Program,
    id: NodeId,
    pmod: &[BTreeSet<VarId>],
    pref: &[BTreeSet<VarId>],
) -> (Vec<VarId>, Vec<VarId>) {
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
        NodeKind::Call {
            callee, args, result, ..
        } => {
            for a in args {
                expr_vars(a, &mut u);
            }
            u.extend(pref[callee.index()].iter().copied());
            d.extend(pmod[callee.index()].iter().copied());
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

/// Transitive global writes and reads of each procedure (a fixpoint over the
/// call graph, so recursion is fine).
fn mod_ref(p: &Program) -> (Vec<BTreeSet<VarId>>, Vec<BTreeSet<VarId>>) {
    let mut pmod = vec![BTreeSet::new(); p.procs.len()];
    let mut pref = vec![BTreeSet::new(); p.procs.len()];
    let mut calls: Vec<Vec<ProcId>> = vec![Vec::new(); p.procs.len()];
    let global = |v: &VarId| p.var(*v).is_global_storage();
    for id in p.node_ids() {
        let node = p.node(id);
        let pi = node.proc.index();
        let (d, u) = node_defs_uses(
            p,
            id,
            &vec![BTreeSet::new(); p.procs.len()],
            &vec![BTreeSet::new(); p.procs.len()],
        );
        pmod[pi].extend(d.iter().filter(|v| global(v)));
        pref[pi].extend(u.iter().filter(|v| global(v)));
        if let NodeKind::Call { callee, .. } = &node.kind {
            calls[pi].push(*callee);
        }
    }
    loop {
        let mut changed = false;
        for pi in 0..p.procs.len() {
            for &c in &calls[pi] {
                let (m, r) = (pmod[c.index()].clone(), pref[c.index()].clone());
                let before = (pmod[pi].len(), pref[pi].len());
                pmod[pi].extend(m);
                pref[pi].extend(r);
                changed |= before != (pmod[pi].len(), pref[pi].len());
            }
        }
        if !changed {
            return (pmod, pref);
        }
    }
}

/// Postdominators by the Cooper-Harvey-Kennedy iteration on the reversed
/// graph. Nodes where a run ends (error and halt nodes) get a virtual edge to
/// the exit; so do nodes that reach neither (infinite loops), so every node
/// has a postdominator. A node that reaches the exit only through an ending
/// node (`goto fail; ... fail: assert(0);`) gets none: the ending node
/// postdominates it, and control dependence follows the real paths.
fn postdominators(p: &Program, pid: ProcId, nodes: &[NodeId], preds: &[Vec<NodeId>], ipdom: &mut [Option<NodeId>]) {
    let exit = p.proc(pid).exit;
    // Reverse-graph successors of x are the CFG predecessors of x; the
    // virtual edges x -> exit make x a reverse successor of exit.
    let ends: Vec<NodeId> = nodes
        .iter()
        .copied()
        .filter(|&x| x != exit && p.node(x).successors().is_empty())
        .collect();
    let reaches_exit = backward_reach(std::iter::once(exit).chain(ends.iter().copied()), preds);
    let virtual_to_exit: Vec<NodeId> = nodes
        .iter()
        .copied()
        .filter(|&x| x != exit && (ends.contains(&x) || !reaches_exit.contains(&x)))
        .collect();
    let rsucc = |x: NodeId| -> Vec<NodeId> {
        let mut v = preds[x.index()].clone();
        if x == exit {
            v.extend(virtual_to_exit.iter().copied());
        }
        v
    };
    // Successors in the CFG plus the virtual edge, for the intersection step.
    let csucc = |x: NodeId| -> Vec<NodeId> {
        let mut v = p.node(x).successors();
        if virtual_to_exit.contains(&x) {
            v.push(exit);
        }
        v
    };
    // Reverse postorder of the reversed graph from the exit.
    let mut order = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![(exit, 0usize)];
    seen.insert(exit);
    while let Some((x, i)) = stack.pop() {
        let rs = rsucc(x);
        if i < rs.len() {
            stack.push((x, i + 1));
            let y = rs[i];
            if seen.insert(y) {
                stack.push((y, 0));
            }
        } else {
            order.push(x);
        }
    }
    order.reverse();
    let rank: HashMap<NodeId, usize> = order.iter().enumerate().map(|(i, &x)| (x, i)).collect();
    let mut pd: HashMap<NodeId, NodeId> = HashMap::new();
    pd.insert(exit, exit);
    let intersect = |pd: &HashMap<NodeId, NodeId>, mut a: NodeId, mut b: NodeId| {
        while a != b {
            while rank[&a] > rank[&b] {
                a = pd[&a];
            }
            while rank[&b] > rank[&a] {
                b = pd[&b];
            }
        }
        a
    };
    let mut changed = true;
    while changed {
        changed = false;
        for &x in order.iter().skip(1) {
            let mut new: Option<NodeId> = None;
            for s in csucc(x) {
                if pd.contains_key(&s) && rank.contains_key(&s) {
                    new = Some(match new {
                        None => s,
                        Some(cur) => intersect(&pd, s, cur),
                    });
                }
            }
            if let Some(nw) = new {
                if pd.get(&x) != Some(&nw) {
                    pd.insert(x, nw);
                    changed = true;
                }
            }
        }
    }
    for &x in nodes {
        ipdom[x.index()] = if x == exit {
            None
        } else {
            Some(pd.get(&x).copied().unwrap_or(exit))
        };
    }
}

fn backward_reach(from: impl Iterator<Item = NodeId>, preds: &[Vec<NodeId>]) -> std::collections::HashSet<NodeId> {
    let mut seen = std::collections::HashSet::new();
    let mut work: Vec<NodeId> = from.collect();
    while let Some(x) = work.pop() {
        if seen.insert(x) {
            work.extend(preds[x.index()].iter().copied());
        }
    }
    seen
}

fn region_may_def(p: &Program, b: NodeId, succ: NodeId, stop: Option<NodeId>, defs: &[Vec<VarId>]) -> BTreeSet<VarId> {
    let mut out = BTreeSet::new();
    let mut seen = std::collections::HashSet::new();
    let mut work = vec![succ];
    while let Some(x) = work.pop() {
        if Some(x) == stop || x == b || !seen.insert(x) {
            continue;
        }
        out.extend(defs[x.index()].iter().copied());
        work.extend(p.node(x).successors());
    }
    out
}

/// Natural loops of a procedure: each retreating edge `u -> h` of a
/// depth-first search from the entry makes `h` a head; loops with one head
/// are merged.
fn natural_loops(p: &Program, pid: ProcId, preds: &[Vec<NodeId>], defs: &[Vec<VarId>]) -> Vec<OracleLoop> {
    let entry = p.proc(pid).entry;
    let mut on_stack = std::collections::HashSet::new();
    let mut seen = std::collections::HashSet::new();
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
    let mut by_head: std::collections::BTreeMap<NodeId, BTreeSet<NodeId>> = Default::default();
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
        .into_iter()
        .map(|(head, body)| {
            let modifies = body.iter().flat_map(|x| defs[x.index()].iter().copied()).collect();
            OracleLoop {
                head,
                proc: pid,
                body,
                modifies,
            }
        })
        .collect()
}

fn reachable(p: &Program) -> BTreeSet<ProcId> {
    let mut out = BTreeSet::new();
    let mut work = vec![p.entry];
    while let Some(f) = work.pop() {
        if !out.insert(f) {
            continue;
        }
        for id in p.node_ids() {
            if let NodeKind::Call { callee, .. } = &p.node(id).kind {
                if p.node(id).proc == f {
                    work.push(*callee);
                }
            }
        }
    }
    out
}
