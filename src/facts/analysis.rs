//! Static facts of a program, computed once: the input relations
//! (`input.rs`) run through the static rules (`rules/static.rs`), then
//! indexed by node, procedure and branch outcome for the phases that read
//! them (definitions and uses per node, mod/ref, postdominators, control
//! dependence, region may-defs, loops, call-graph components).

use super::input::InputFacts;
use super::rules::{self, Derived};
use crate::ir::*;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::OnceLock;

#[derive(Clone, Debug)]
pub struct Loop {
    pub head: NodeId,
    pub proc: ProcId,
    /// The head and every node of the loop.
    pub body: BTreeSet<NodeId>,
    /// Variables the loop may write (callees' global writes included).
    pub modifies: BTreeSet<VarId>,
}

#[derive(Clone, Debug)]
pub struct Analysis {
    pub preds: Vec<Vec<NodeId>>,
    /// Variables a node may write: the assigned place (a whole array for an
    /// element), a call's result and the callee's global writes.
    pub defs: Vec<Vec<VarId>>,
    /// Variables a node reads (a call: its arguments and the callee's global
    /// reads).
    pub uses: Vec<Vec<VarId>>,
    /// How many nodes read each variable (by `uses`).
    pub readers: Vec<u32>,
    /// Global storage a procedure may write / read, callees included.
    pub proc_mod: Vec<BTreeSet<VarId>>,
    pub proc_ref: Vec<BTreeSet<VarId>>,
    /// Immediate postdominator (the exit has none).
    pub ipdom: Vec<Option<NodeId>>,
    /// The branch outcomes each node is control dependent on, by branch
    /// then outcome (`true` first).
    pub control_deps: Vec<Vec<(NodeId, bool)>>,
    /// What the region of each branch outcome may write, computed when
    /// first asked (`region_defs`), at `2 * node + outcome`.
    regions: Vec<OnceLock<BTreeSet<VarId>>>,
    /// Control-flow successors, and each branch outcome's successor.
    succs: Vec<Vec<NodeId>>,
    branch_to: HashMap<(NodeId, bool), NodeId>,
    pub loops: Vec<Loop>,
    /// The loop headed by a node, if it is a loop head.
    pub loop_at: HashMap<NodeId, usize>,
    pub reachable_procs: BTreeSet<ProcId>,
    /// Nodes of each procedure, in id order.
    pub proc_nodes: Vec<Vec<NodeId>>,
    /// The call-graph component of each procedure, named by its smallest member.
    pub scc: Vec<ProcId>,
    /// Procedures that may call themselves.
    pub recursive: BTreeSet<ProcId>,
    /// From the node the procedure can return.
    pub can_exit: Vec<bool>,
    /// From the node an error point can be reached (callees included).
    pub can_reach_error: Vec<bool>,
    /// The relations this was built from, for `focuscheck facts`.
    pub input: InputFacts,
    pub derived: Derived,
}

impl Analysis {
    pub fn new(p: &Program) -> Analysis {
        let input = InputFacts::new(p);
        let derived = rules::run(&input);
        let n = p.nodes.len();
        let procs = p.procs.len();
        let mut a = Analysis {
            preds: vec![Vec::new(); n],
            defs: vec![Vec::new(); n],
            uses: vec![Vec::new(); n],
            readers: vec![0; p.vars.len()],
            proc_mod: vec![BTreeSet::new(); procs],
            proc_ref: vec![BTreeSet::new(); procs],
            ipdom: vec![None; n],
            control_deps: vec![Vec::new(); n],
            regions: (0..2 * n).map(|_| OnceLock::new()).collect(),
            succs: vec![Vec::new(); n],
            branch_to: input.branch_edge.iter().map(|&(b, o, s)| ((b, o), s)).collect(),
            loops: Vec::new(),
            loop_at: HashMap::new(),
            reachable_procs: derived.reachable_proc.iter().copied().collect(),
            proc_nodes: vec![Vec::new(); procs],
            scc: p.proc_ids().collect(),
            recursive: derived.recursive.iter().copied().collect(),
            can_exit: vec![false; n],
            can_reach_error: vec![false; n],
            input: InputFacts::default(),
            derived: Derived::default(),
        };
        for &(x, y) in &input.cfg_edge {
            a.preds[y.index()].push(x);
            a.succs[x.index()].push(y);
        }
        for &(x, f) in &input.node_in_proc {
            a.proc_nodes[f.index()].push(x);
        }
        for &(x, v) in &derived.defs {
            a.defs[x.index()].push(v);
        }
        for &(x, v) in &derived.uses {
            a.uses[x.index()].push(v);
            a.readers[v.index()] += 1;
        }
        for &(f, v) in &derived.proc_may_def {
            a.proc_mod[f.index()].insert(v);
        }
        for &(f, v) in &derived.proc_may_use {
            a.proc_ref[f.index()].insert(v);
        }
        for &(x, d) in &derived.ipdom {
            a.ipdom[x.index()] = Some(d);
        }
        for &(x, b, o) in &derived.control_dep {
            a.control_deps[x.index()].push((b, o));
        }
        for &(f, rep) in &input.scc_member {
            a.scc[f.index()] = rep;
        }
        for &x in &derived.can_exit {
            a.can_exit[x.index()] = true;
        }
        for &x in &derived.can_reach_error {
            a.can_reach_error[x.index()] = true;
        }
        a.preds.iter_mut().for_each(|v| v.sort());
        a.defs.iter_mut().for_each(|v| v.sort());
        a.uses.iter_mut().for_each(|v| v.sort());
        a.proc_nodes.iter_mut().for_each(|v| v.sort());
        a.control_deps.iter_mut().for_each(|v| v.sort_by_key(|&(b, o)| (b, !o)));
        let mut loops: BTreeMap<(ProcId, NodeId), Loop> = BTreeMap::new();
        for &(head, x) in &input.loop_body {
            let proc = p.node(head).proc;
            loops
                .entry((proc, head))
                .or_insert_with(|| Loop {
                    head,
                    proc,
                    body: BTreeSet::new(),
                    modifies: BTreeSet::new(),
                })
                .body
                .insert(x);
        }
        for &(head, v) in &derived.loop_modifies {
            let proc = p.node(head).proc;
            if let Some(l) = loops.get_mut(&(proc, head)) {
                l.modifies.insert(v);
            }
        }
        a.loops = loops.into_values().collect();
        a.loop_at = a.loops.iter().enumerate().map(|(i, l)| (l.head, i)).collect();
        a.input = input;
        a.derived = derived;
        a
    }

    /// What the region of branch `b`'s outcome `o` may write: the nodes from
    /// that outcome's successor up to (not including) `b`'s immediate
    /// postdominator, never back through `b`. Empty for a node that is not
    /// a branch. Computed on first use: the explanation asks about the
    /// branches of its runs only, and the regions of every branch of a
    /// program are quadratic in its size (4.2 million nodes for the 3,000
    /// branches of a 1,000-line heap program, most of its check's time).
    pub fn region_defs(&self, b: NodeId, o: bool) -> &BTreeSet<VarId> {
        self.regions[2 * b.index() + o as usize].get_or_init(|| {
            let mut defs = BTreeSet::new();
            let Some(&s) = self.branch_to.get(&(b, o)) else {
                return defs;
            };
            let stop = |x: NodeId| x == b || Some(x) == self.ipdom[b.index()];
            if stop(s) {
                return defs;
            }
            let mut seen = std::collections::HashSet::from([s]);
            let mut todo = vec![s];
            while let Some(x) = todo.pop() {
                defs.extend(self.defs[x.index()].iter().copied());
                for &y in &self.succs[x.index()] {
                    if !stop(y) && seen.insert(y) {
                        todo.push(y);
                    }
                }
            }
            defs
        })
    }
}
