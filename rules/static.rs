//! Static facts of a program, derived once before exploration (crepe:
//! a stratified program fixed at compile time, with no lattices and no
//! values computed in rules, which is what crepe is for; the explorer and
//! the backward pass, which need lattices and Rust transfer functions, stay
//! in Ascent).
//!
//! Pulled into `src/facts/rules.rs` with `#[path]`; the input relations are
//! lowered from the IR by `src/facts/input.rs`, one struct per relation.
//!
//! Facts (inputs, `_base` where a derived relation refines them):
//! - `NodeInProc(p, proc)`: program point p belongs to proc.
//! - `CfgEdge(p, q)`: control may flow from p to q.
//! - `BranchEdge(b, outcome, q)`: branch b goes to q when its atom is `outcome`.
//! - `DefBase(p, v)` / `UseBase(p, v)`: p itself writes / reads v (a call:
//!   its result place / its arguments; the callee's effects are derived).
//! - `CallAt(p, callee)`: p calls callee.
//! - `ProcEntry(proc, p)`, `ProcExit(proc, p)`: where proc starts and ends.
//! - `ErrorPoint(p)`: reaching p is an error.
//! - `GlobalStorage(v)`: v lives in global storage (a global or a static local).
//! - `EntryProc(proc)`: the run starts in proc.
//! - `LoopBody(head, p)`: p belongs to the natural loop headed by head.

use crate::ir::{NodeId, ProcId, VarId};
use crepe::crepe;

crepe! {
    @input
    pub struct NodeInProc(pub NodeId, pub ProcId);
    @input
    pub struct CfgEdge(pub NodeId, pub NodeId);
    @input
    pub struct BranchEdge(pub NodeId, pub bool, pub NodeId);
    @input
    pub struct DefBase(pub NodeId, pub VarId);
    @input
    pub struct UseBase(pub NodeId, pub VarId);
    @input
    pub struct CallAt(pub NodeId, pub ProcId);
    @input
    pub struct ProcEntry(pub ProcId, pub NodeId);
    @input
    pub struct ProcExit(pub ProcId, pub NodeId);
    @input
    pub struct ErrorPoint(pub NodeId);
    @input
    pub struct GlobalStorage(pub VarId);
    @input
    pub struct EntryProc(pub ProcId);
    @input
    pub struct LoopBody(pub NodeId, pub NodeId);

    // Call graph.

    // `calls(f, g)`: f contains a call of g.
    struct Calls(ProcId, ProcId);
    Calls(f, g) <- CallAt(p, g), NodeInProc(p, f);

    // `reachable_proc(f)`: f can be called from the entry.
    @output
    pub struct ReachableProc(pub ProcId);
    ReachableProc(f) <- EntryProc(f);
    ReachableProc(g) <- ReachableProc(f), Calls(f, g);

    // `calls_transitively(f, g)`: f may call g, directly or not.
    struct CallsTransitively(ProcId, ProcId);
    CallsTransitively(f, g) <- Calls(f, g);
    CallsTransitively(f, h) <- CallsTransitively(f, g), Calls(g, h);

    // `same_scc(f, g)`: f and g are in one strongly connected component of
    // the call graph (every procedure is in its own).
    @output
    pub struct SameScc(pub ProcId, pub ProcId);
    SameScc(f, f) <- ProcEntry(f, _);
    SameScc(f, g) <- CallsTransitively(f, g), CallsTransitively(g, f);

    // `recursive(f)`: f may call itself.
    @output
    pub struct Recursive(pub ProcId);
    Recursive(f) <- CallsTransitively(f, g), (f == g);

    // Mod/ref: what a call of f may write or read in global storage.

    @output
    pub struct ProcMayDef(pub ProcId, pub VarId);
    ProcMayDef(f, v) <- DefBase(p, v), NodeInProc(p, f), GlobalStorage(v);
    ProcMayDef(f, v) <- Calls(f, g), ProcMayDef(g, v);

    @output
    pub struct ProcMayUse(pub ProcId, pub VarId);
    ProcMayUse(f, v) <- UseBase(p, v), NodeInProc(p, f), GlobalStorage(v);
    ProcMayUse(f, v) <- Calls(f, g), ProcMayUse(g, v);

    // `defs(p, v)` / `uses(p, v)`: p may write / read v, a callee's global
    // effects included.
    @output
    pub struct Defs(pub NodeId, pub VarId);
    Defs(p, v) <- DefBase(p, v);
    Defs(p, v) <- CallAt(p, g), ProcMayDef(g, v);

    @output
    pub struct Uses(pub NodeId, pub VarId);
    Uses(p, v) <- UseBase(p, v);
    Uses(p, v) <- CallAt(p, g), ProcMayUse(g, v);

    // Ends of runs and of procedures.

    struct IsExit(NodeId);
    IsExit(p) <- ProcExit(_, p);

    struct HasSuccessor(NodeId);
    HasSuccessor(p) <- CfgEdge(p, _);

    // `end_point(p)`: a run ends at p (an error, `abort()`, a failed assumption).
    @output
    pub struct EndPoint(pub NodeId);
    EndPoint(p) <- NodeInProc(p, _), !HasSuccessor(p), !IsExit(p);

    // `can_exit(p)`: from p the procedure can return (reach its exit).
    @output
    pub struct CanExit(pub NodeId);
    CanExit(p) <- IsExit(p);
    CanExit(p) <- CfgEdge(p, q), CanExit(q);

    // `can_reach_error(p)`: from p an error point can be reached, in this
    // procedure or in a callee.
    @output
    pub struct CanReachError(pub NodeId);
    CanReachError(p) <- ErrorPoint(p);
    CanReachError(p) <- CfgEdge(p, q), CanReachError(q);
    CanReachError(p) <- CallAt(p, g), ProcEntry(g, q), CanReachError(q);

    // Postdominators, on the real CFG plus a virtual edge to the exit from
    // the points where a run ends and from those that reach no end
    // (infinite loops): a `goto` to an error keeps its control dependence.

    struct ReachesEnd(NodeId);
    ReachesEnd(p) <- IsExit(p);
    ReachesEnd(p) <- EndPoint(p);
    ReachesEnd(p) <- CfgEdge(p, q), ReachesEnd(q);

    struct VirtualToExit(NodeId);
    VirtualToExit(p) <- EndPoint(p);
    VirtualToExit(p) <- NodeInProc(p, _), !IsExit(p), !ReachesEnd(p);

    // `pd_edge(p, q)`: the graph postdominance is computed on.
    struct PdEdge(NodeId, NodeId);
    PdEdge(p, q) <- CfgEdge(p, q);
    PdEdge(p, e) <- VirtualToExit(p), NodeInProc(p, f), ProcExit(f, e);

    // `avoids(p, d)`: some path from p reaches the exit without meeting d.
    struct Avoids(NodeId, NodeId);
    Avoids(e, d) <- ProcExit(f, e), NodeInProc(d, f), (e != d);
    Avoids(p, d) <- PdEdge(p, q), Avoids(q, d), (p != d);

    // `postdominates(d, p)`: every path from p to the exit meets d (d = p
    // included).
    @output
    pub struct Postdominates(pub NodeId, pub NodeId);
    Postdominates(d, p) <- NodeInProc(p, f), NodeInProc(d, f), !Avoids(p, d);

    struct StrictlyPostdominates(NodeId, NodeId);
    StrictlyPostdominates(d, p) <- Postdominates(d, p), (d != p);

    // `near(p, q)`: q is reached from p before any strict postdominator of
    // p. The first strict postdominator met on a path is the immediate one
    // (two postdominators of p met in either order would postdominate each
    // other), so `ipdom` needs no transitive reduction.
    struct Near(NodeId, NodeId);
    Near(p, q) <- PdEdge(p, q);
    Near(p, r) <- Near(p, q), !StrictlyPostdominates(q, p), PdEdge(q, r);

    // `ipdom(p, d)`: d is the immediate postdominator of p.
    @output
    pub struct Ipdom(pub NodeId, pub NodeId);
    Ipdom(p, d) <- Near(p, d), StrictlyPostdominates(d, p);

    // Control dependence (Ferrante et al.): p runs depending on branch b's
    // outcome when p postdominates that outcome's successor but not b.
    @output
    pub struct ControlDep(pub NodeId, pub NodeId, pub bool);
    ControlDep(p, b, o) <- BranchEdge(b, o, s), Postdominates(p, s), !StrictlyPostdominates(p, b);

    // `region(b, o, p)`: p runs between branch b's outcome o and b's
    // immediate postdominator (following real edges, not returning to b).
    struct Region(NodeId, bool, NodeId);
    Region(b, o, s) <- BranchEdge(b, o, s), Ipdom(b, d), (s != d), (s != b);
    Region(b, o, q) <- Region(b, o, p), CfgEdge(p, q), Ipdom(b, d), (q != d), (q != b);

    // `region_may_def(b, o, v)`: the code run when branch b has outcome o may write v.
    @output
    pub struct RegionMayDef(pub NodeId, pub bool, pub VarId);
    RegionMayDef(b, o, v) <- Region(b, o, p), Defs(p, v);

    // `loop_modifies(head, v)`: the loop headed by head may write v.
    @output
    pub struct LoopModifies(pub NodeId, pub VarId);
    LoopModifies(h, v) <- LoopBody(h, p), Defs(p, v);
}
