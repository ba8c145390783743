//! The points-to rules of `rules/points_to.rs` written in crepe, to measure
//! the two engines on the same rules (ARCHITECTURE.md, "Decisions").

use super::points_to::{Convert, PointsTo, PointsToInput};
use super::{NodeId, VarId};

mod datalog {
    use super::{Convert, NodeId, VarId};
    use crepe::crepe;

    crepe! {
        @input
        pub struct RunStart(pub NodeId);
        @input
        pub struct FlowEdge(pub NodeId, pub NodeId);
        @input
        pub struct GuardedEdge(pub NodeId, pub NodeId, pub VarId, pub i64);
        @input
        pub struct CallEntry(pub NodeId, pub NodeId);
        @input
        pub struct AddrOf(pub NodeId, pub VarId, pub i64);
        @input
        pub struct CopyOf(pub NodeId, pub VarId, pub VarId, pub Convert);
        @input
        pub struct Load(pub NodeId, pub VarId, pub VarId, pub Convert);
        @input
        pub struct Store(pub NodeId, pub VarId, pub VarId, pub Convert);
        @input
        pub struct Unknown(pub NodeId, pub VarId);
        @input
        pub struct InitValue(pub VarId, pub i64);
        @input
        pub struct InitTop(pub VarId);
        @input
        pub struct PointerTag(pub VarId);
        @input
        pub struct ObjectTag(pub i64);

        @output
        pub struct Live(pub NodeId);
        @output
        pub struct LiveEdge(pub NodeId, pub NodeId);
        @output
        pub struct Value(pub VarId, pub i64);
        @output
        pub struct Top(pub VarId);
        @output
        pub struct PointsToRel(pub VarId, pub i64);
        struct LiveGuard(NodeId, NodeId, VarId, i64);
        struct Moves(VarId, VarId, Convert);

        Live(p) <- RunStart(p);
        Live(q) <- LiveEdge(_, q);
        Live(e) <- Live(p), CallEntry(p, e);
        LiveEdge(p, q) <- Live(p), FlowEdge(p, q);
        LiveGuard(b, q, v, k) <- Live(b), GuardedEdge(b, q, v, k);
        LiveEdge(b, q) <- LiveGuard(b, q, v, k), Value(v, k);
        LiveEdge(b, q) <- LiveGuard(b, q, v, _), Top(v);

        Value(v, k) <- InitValue(v, k);
        Top(v) <- InitTop(v);
        Value(v, k) <- Live(p), AddrOf(p, v, k);
        Top(v) <- Live(p), Unknown(p, v);
        Moves(v, w, c) <- Live(p), CopyOf(p, v, w, c);
        Moves(v, a, c) <- Live(p), Load(p, v, a, c);
        Moves(a, w, c) <- Live(p), Store(p, a, w, c);
        Value(v, x) <- Moves(v, w, c), Value(w, k), let Some(x) = c.apply(k);
        Top(v) <- Moves(v, w, c), Value(w, k), (c.apply(k).is_none());
        Top(v) <- Moves(v, w, _), Top(w);

        PointsToRel(v, k) <- PointerTag(v), Value(v, k), ObjectTag(k);
    }
}

/// The same relations as `PointsTo::new`, derived by crepe.
pub fn run(input: &PointsToInput) -> PointsTo {
    use datalog::*;
    let mut rt = Crepe::new();
    rt.extend(input.run_start.iter().map(|&p| RunStart(p)));
    rt.extend(input.flow_edge.iter().map(|&(p, q)| FlowEdge(p, q)));
    rt.extend(input.guarded_edge.iter().map(|&(b, q, v, k)| GuardedEdge(b, q, v, k)));
    rt.extend(input.call_entry.iter().map(|&(p, e)| CallEntry(p, e)));
    rt.extend(input.addr_of.iter().map(|&(p, v, k)| AddrOf(p, v, k)));
    rt.extend(input.copy.iter().map(|&(p, v, w, c)| CopyOf(p, v, w, c)));
    rt.extend(input.load.iter().map(|&(p, v, w, c)| Load(p, v, w, c)));
    rt.extend(input.store.iter().map(|&(p, v, w, c)| Store(p, v, w, c)));
    rt.extend(input.unknown.iter().map(|&(p, v)| Unknown(p, v)));
    rt.extend(input.init_value.iter().map(|&(v, k)| InitValue(v, k)));
    rt.extend(input.init_top.iter().map(|&v| InitTop(v)));
    rt.extend(input.pointer_tag.iter().map(|&v| PointerTag(v)));
    rt.extend(input.object_tag.iter().map(|&k| ObjectTag(k)));
    let (live, live_edge, value, top, points_to) = rt.run();
    let sorted = |mut v: Vec<(VarId, i64)>| {
        v.sort();
        v
    };
    let mut out = PointsTo {
        live: live.into_iter().map(|Live(p)| p).collect(),
        live_edge: live_edge.into_iter().map(|LiveEdge(p, q)| (p, q)).collect(),
        value: sorted(value.into_iter().map(|Value(v, k)| (v, k)).collect()),
        top: top.into_iter().map(|Top(v)| v).collect(),
        points_to: sorted(points_to.into_iter().map(|PointsToRel(v, k)| (v, k)).collect()),
    };
    out.live.sort();
    out.live_edge.sort();
    out.top.sort();
    out
}
