// Points-to, Andersen style, on the lowered IR: the memory model made a
// pointer's tag a plain int variable and a dereference a split `if (p == 1)
// .. else if (p == 2) ..` over the objects of its type, so the values an
// int variable may hold, read where a run may go, are the objects a pointer
// may point to. Flow-insensitive per variable (array elements smashed into
// one location), but each write counts only where a run may reach it: an
// arm of a split for an object the pointer never holds is dead, and so are
// its loads and stores, which makes them exactly Andersen's rules.
//
// Included as an expression by `src/ir/points_to.rs`, where `input` (the
// input relations, `PointsToInput`) is in scope. Sound for every int
// variable: a write the rules do not follow (`unknown`) makes its variable
// `top`, and a guarded edge is dead only when its variable is neither top
// nor ever holds the constant. Ascent, not crepe: measured on the same rules
// (ARCHITECTURE.md, "Decisions").
ascent_run! {
    // Facts:

    /// `run_start(p)`: runs start at p (the entry procedure's entry).
    relation run_start(NodeId) = input.run_start.iter().map(|&p| (p,)).collect();
    /// `flow_edge(p, q)`: control goes from p to q whatever the values.
    relation flow_edge(NodeId, NodeId) = input.flow_edge.clone();
    /// `guarded_edge(b, q, v, k)`: branch b goes to q only when v holds k.
    relation guarded_edge(NodeId, NodeId, VarId, i64) = input.guarded_edge.clone();
    /// `call_entry(p, e)`: the call at p enters its callee at e.
    relation call_entry(NodeId, NodeId) = input.call_entry.clone();
    /// `addr_of(p, v, k)`: p writes the constant k to v (a tag: an object's address).
    relation addr_of(NodeId, VarId, i64) = input.addr_of.clone();
    /// `copy(p, v, w, c)`: p writes scalar w's value, converted by c, to scalar v.
    relation copy(NodeId, VarId, VarId, Convert) = input.copy.clone();
    /// `load(p, v, a, c)`: p writes an element of array a, converted by c, to v.
    relation load(NodeId, VarId, VarId, Convert) = input.load.clone();
    /// `store(p, a, w, c)`: p writes w's value, converted by c, to an element of array a.
    relation store(NodeId, VarId, VarId, Convert) = input.store.clone();
    /// `unknown(p, v)`: p writes to v a value these rules do not follow.
    relation unknown(NodeId, VarId) = input.unknown.clone();
    /// `init_value(v, k)`: v may hold k when its scope starts.
    relation init_value(VarId, i64) = input.init_value.clone();
    /// `init_top(v)`: v starts as an input of the run.
    relation init_top(VarId) = input.init_top.iter().map(|&v| (v,)).collect();
    /// `pointer_tag(v)`: v is the tag leaf of a pointer.
    relation pointer_tag(VarId) = input.pointer_tag.iter().map(|&v| (v,)).collect();
    /// `object_tag(k)`: k is the tag of an object.
    relation object_tag(i64) = input.object_tag.iter().map(|&k| (k,)).collect();

    // Rules: where a run may go. Each rule joins two relations: Ascent
    // (like crepe) iterates the first two clauses of a rule in full, so a
    // third clause would cost the size of a relation at every step of the
    // fixpoint (quadratic along a long CFG).

    /// `live(p)`: some run may reach p.
    relation live(NodeId);
    /// `live_edge(p, q)`: some run may go from p to q.
    relation live_edge(NodeId, NodeId);
    /// `live_guard(b, q, v, k)`: a run may reach b, which goes to q if v holds k.
    relation live_guard(NodeId, NodeId, VarId, i64);
    live(p) <-- run_start(p);
    live(q) <-- live_edge(_, q);
    live(e) <-- live(p), call_entry(p, e);
    live_edge(p, q) <-- live(p), flow_edge(p, q);
    live_guard(b, q, v, k) <-- live(b), guarded_edge(b, q, v, k);
    live_edge(b, q) <-- live_guard(b, q, v, k), value(v, k);
    live_edge(b, q) <-- live_guard(b, q, v, _), top(v);

    // Rules: the values a variable may hold.

    /// `value(v, k)`: v may hold the constant k.
    relation value(VarId, i64);
    /// `top(v)`: v may hold values these rules do not follow.
    relation top(VarId);
    /// `moves(v, w, c)`: a write a run may reach gives v the value of w
    /// converted by c (a live `copy`, `load` or `store`).
    relation moves(VarId, VarId, Convert);
    value(v, k) <-- init_value(v, k);
    top(v) <-- init_top(v);
    value(v, k) <-- live(p), addr_of(p, v, k);
    top(v) <-- live(p), unknown(p, v);
    moves(v, w, c) <-- live(p), copy(p, v, w, c);
    moves(v, a, c) <-- live(p), load(p, v, a, c);
    moves(a, w, c) <-- live(p), store(p, a, w, c);
    value(v, x) <-- moves(v, w, c), value(w, k), if let Some(x) = c.apply(*k);
    top(v) <-- moves(v, w, c), value(w, k), if c.apply(*k).is_none();
    top(v) <-- moves(v, w, _), top(w);

    /// `points_to(v, k)`: pointer tag v may hold object k's tag (a `top`
    /// tag may hold any).
    relation points_to(VarId, i64);
    points_to(v, k) <-- pointer_tag(v), value(v, k), object_tag(k);
}
