//! Runs the static rules (`rules/static.rs`, crepe) on the input facts and
//! returns the derived relations, each sorted.

#[path = "../../rules/static.rs"]
mod static_rules;

use super::input::InputFacts;
use crate::ir::{NodeId, ProcId, VarId};
use static_rules::*;

/// Every derived relation of the static rules (see `rules/static.rs` for
/// each one's meaning), rows sorted.
#[derive(Clone, Debug, Default)]
pub struct Derived {
    pub reachable_proc: Vec<ProcId>,
    pub same_scc: Vec<(ProcId, ProcId)>,
    pub recursive: Vec<ProcId>,
    pub proc_may_def: Vec<(ProcId, VarId)>,
    pub proc_may_use: Vec<(ProcId, VarId)>,
    pub defs: Vec<(NodeId, VarId)>,
    pub uses: Vec<(NodeId, VarId)>,
    pub end_point: Vec<NodeId>,
    pub can_exit: Vec<NodeId>,
    pub can_reach_error: Vec<NodeId>,
    pub postdominates: Vec<(NodeId, NodeId)>,
    pub ipdom: Vec<(NodeId, NodeId)>,
    pub control_dep: Vec<(NodeId, NodeId, bool)>,
    pub region_may_def: Vec<(NodeId, bool, VarId)>,
    pub loop_modifies: Vec<(NodeId, VarId)>,
}

fn sorted<T: Ord, R>(rows: impl IntoIterator<Item = R>, f: impl Fn(R) -> T) -> Vec<T> {
    let mut v: Vec<T> = rows.into_iter().map(f).collect();
    v.sort();
    v
}

pub fn run(input: &InputFacts) -> Derived {
    let mut rt = Crepe::new();
    rt.extend(input.node_in_proc.iter().map(|&(x, f)| NodeInProc(x, f)));
    rt.extend(input.cfg_edge.iter().map(|&(x, y)| CfgEdge(x, y)));
    rt.extend(input.branch_edge.iter().map(|&(b, o, x)| BranchEdge(b, o, x)));
    rt.extend(input.def_base.iter().map(|&(x, v)| DefBase(x, v)));
    rt.extend(input.use_base.iter().map(|&(x, v)| UseBase(x, v)));
    rt.extend(input.call_at.iter().map(|&(x, f)| CallAt(x, f)));
    rt.extend(input.proc_entry.iter().map(|&(f, x)| ProcEntry(f, x)));
    rt.extend(input.proc_exit.iter().map(|&(f, x)| ProcExit(f, x)));
    rt.extend(input.error_point.iter().map(|&x| ErrorPoint(x)));
    rt.extend(input.global_storage.iter().map(|&v| GlobalStorage(v)));
    rt.extend(input.entry_proc.iter().map(|&f| EntryProc(f)));
    rt.extend(input.loop_body.iter().map(|&(h, x)| LoopBody(h, x)));
    let (
        reachable_proc,
        same_scc,
        recursive,
        proc_may_def,
        proc_may_use,
        defs,
        uses,
        end_point,
        can_exit,
        can_reach_error,
        postdominates,
        ipdom,
        control_dep,
        region_may_def,
        loop_modifies,
    ) = rt.run();
    Derived {
        reachable_proc: sorted(reachable_proc, |ReachableProc(f)| f),
        same_scc: sorted(same_scc, |SameScc(f, g)| (f, g)),
        recursive: sorted(recursive, |Recursive(f)| f),
        proc_may_def: sorted(proc_may_def, |ProcMayDef(f, v)| (f, v)),
        proc_may_use: sorted(proc_may_use, |ProcMayUse(f, v)| (f, v)),
        defs: sorted(defs, |Defs(x, v)| (x, v)),
        uses: sorted(uses, |Uses(x, v)| (x, v)),
        end_point: sorted(end_point, |EndPoint(x)| x),
        can_exit: sorted(can_exit, |CanExit(x)| x),
        can_reach_error: sorted(can_reach_error, |CanReachError(x)| x),
        postdominates: sorted(postdominates, |Postdominates(d, x)| (d, x)),
        ipdom: sorted(ipdom, |Ipdom(x, d)| (x, d)),
        control_dep: sorted(control_dep, |ControlDep(x, b, o)| (x, b, o)),
        region_may_def: sorted(region_may_def, |RegionMayDef(b, o, v)| (b, o, v)),
        loop_modifies: sorted(loop_modifies, |LoopModifies(h, v)| (h, v)),
    }
}
