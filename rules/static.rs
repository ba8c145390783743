// Static facts of a program, derived once before exploration, after the
// input facts lowered from the IR (`src/facts/input.rs`).
//
// Included as an expression by `src/facts/rules.rs`, where `input` (the
// input facts) and `PostdomSet` (a set lattice whose join is intersection)
// are in scope. Loops and call-graph components come in as input facts
// (both are found by depth-first search, `input.rs`). Ascent, not crepe: postdominance as a plain relation (the
// only form crepe has) is quadratic in the length of a procedure, measured
// at 121 s and 1.9 GB for a 2000-statement function; as a lattice of shared
// sets it is near-linear (ARCHITECTURE.md, "Static facts").
ascent_run! {
    #![measure_rule_times]

    // Facts:

    /// `node_in_proc(p, f)`: program point p belongs to procedure f.
    relation node_in_proc(NodeId, ProcId) = input.node_in_proc.clone();
    /// `cfg_edge(p, q)`: control may flow from p to q.
    relation cfg_edge(NodeId, NodeId) = input.cfg_edge.clone();
    /// `branch_edge(b, o, q)`: branch b goes to q when its atom is `o`.
    relation branch_edge(NodeId, bool, NodeId) = input.branch_edge.clone();
    /// `def_base(p, v)`: p itself writes v (a call: its result place).
    relation def_base(NodeId, VarId) = input.def_base.clone();
    /// `use_base(p, v)`: p itself reads v (a call: its arguments).
    relation use_base(NodeId, VarId) = input.use_base.clone();
    /// `call_at(p, g)`: p calls g.
    relation call_at(NodeId, ProcId) = input.call_at.clone();
    /// `proc_entry(f, p)`, `proc_exit(f, p)`: where f starts and returns.
    relation proc_entry(ProcId, NodeId) = input.proc_entry.clone();
    relation proc_exit(ProcId, NodeId) = input.proc_exit.clone();
    /// `error_point(p)`: reaching p is an error.
    relation error_point(NodeId) = input.error_point.iter().map(|&p| (p,)).collect();
    /// `global_storage(v)`: v is a global or a static local.
    relation global_storage(VarId) = input.global_storage.iter().map(|&v| (v,)).collect();
    /// `entry_proc(f)`: the run starts in f.
    relation entry_proc(ProcId) = input.entry_proc.iter().map(|&f| (f,)).collect();
    /// `scc_member(f, r)`: f is in the call-graph component named r.
    relation scc_member(ProcId, ProcId) = input.scc_member.clone();
    /// `loop_body(h, p)`: p belongs to the natural loop headed by h.
    relation loop_body(NodeId, NodeId) = input.loop_body.clone();

    // Rules: the call graph.

    /// `calls(f, g)`: f contains a call of g.
    relation calls(ProcId, ProcId);
    calls(f, g) <-- call_at(p, g), node_in_proc(p, f);

    /// `reachable_proc(f)`: f can be called from the entry.
    relation reachable_proc(ProcId);
    reachable_proc(f) <-- entry_proc(f);
    reachable_proc(g) <-- reachable_proc(f), calls(f, g);

    /// `same_scc(f, g)`: f and g may call each other (each f is with itself).
    relation same_scc(ProcId, ProcId);
    same_scc(f, g) <-- scc_member(f, r), scc_member(g, r);

    /// `recursive(f)`: f may call itself.
    relation recursive(ProcId);
    recursive(f) <-- calls(f, g), same_scc(f, g);

    // Rules: mod/ref, what a call of f may write or read in global storage.

    relation proc_may_def(ProcId, VarId);
    proc_may_def(f, v) <-- def_base(p, v), global_storage(v), node_in_proc(p, f);
    proc_may_def(f, v) <-- calls(f, g), proc_may_def(g, v);

    relation proc_may_use(ProcId, VarId);
    proc_may_use(f, v) <-- use_base(p, v), global_storage(v), node_in_proc(p, f);
    proc_may_use(f, v) <-- calls(f, g), proc_may_use(g, v);

    /// `defs(p, v)` / `uses(p, v)`: p may write / read v, callees' global
    /// effects included.
    relation defs(NodeId, VarId);
    defs(p, v) <-- def_base(p, v);
    defs(p, v) <-- call_at(p, g), proc_may_def(g, v);

    relation uses(NodeId, VarId);
    uses(p, v) <-- use_base(p, v);
    uses(p, v) <-- call_at(p, g), proc_may_use(g, v);

    // Rules: where runs and procedures end.

    relation is_exit(NodeId);
    is_exit(p) <-- proc_exit(_, p);

    relation has_successor(NodeId);
    has_successor(p) <-- cfg_edge(p, _);

    /// `end_point(p)`: a run ends at p (an error, `abort()`, a failed assumption).
    relation end_point(NodeId);
    end_point(p) <-- node_in_proc(p, _), !has_successor(p), !is_exit(p);

    /// `can_exit(p)`: from p the procedure can return.
    relation can_exit(NodeId);
    can_exit(p) <-- is_exit(p);
    can_exit(p) <-- cfg_edge(p, q), can_exit(q);

    /// `can_reach_error(p)`: from p an error point can be reached, in this
    /// procedure or in a callee.
    relation can_reach_error(NodeId);
    can_reach_error(p) <-- error_point(p);
    can_reach_error(p) <-- cfg_edge(p, q), can_reach_error(q);
    can_reach_error(p) <-- can_reach_error(q), proc_entry(g, q), call_at(p, g);

    // Rules: postdominators, on the real CFG plus a virtual edge to the exit
    // from the points where a run ends and from those that reach no end
    // (infinite loops), so a `goto` to an error keeps its control dependence.

    relation reaches_end(NodeId);
    reaches_end(p) <-- is_exit(p);
    reaches_end(p) <-- end_point(p);
    reaches_end(p) <-- cfg_edge(p, q), reaches_end(q);

    relation virtual_to_exit(NodeId);
    virtual_to_exit(p) <-- end_point(p);
    virtual_to_exit(p) <-- node_in_proc(p, _), !is_exit(p), !reaches_end(p);

    /// `pd_edge(p, q)`: the graph postdominance is computed on.
    relation pd_edge(NodeId, NodeId);
    pd_edge(p, q) <-- cfg_edge(p, q);
    pd_edge(p, e) <-- virtual_to_exit(p), node_in_proc(p, f), proc_exit(f, e);

    /// `postdominators(p, S)`: S is the set of points every path from p to
    /// the exit meets, p included. Joining intersects: the sets of p's
    /// successors meet in what all of them have.
    lattice postdominators(NodeId, PostdomSet);
    postdominators(e, PostdomSet::one(*e)) <-- is_exit(e);
    postdominators(p, s.with(*p)) <-- pd_edge(p, q), postdominators(q, s);

    /// `climb(p, x)`: x is on the postdominator chain of a successor of p
    /// (the successor, its immediate postdominator, that one's, ...), up to
    /// the first strict postdominator of p, which is p's immediate one: a
    /// strict postdominator of p met earlier on the chain would postdominate
    /// it and be postdominated by it. A chain that meets p stops there
    /// (another successor's chain leaves p's loop). Each step moves up the
    /// postdominator tree, so the cost is the chain's length, not the
    /// region's (the paths from p, as a relation, were quadratic).
    relation climb(NodeId, NodeId);
    climb(p, q) <-- pd_edge(p, q), if p != q;
    climb(p, y) <-- climb(p, x), postdominators(p, s), if !s.contains(x), ipdom(x, y);

    /// `ipdom(p, d)`: d is the immediate postdominator of p.
    relation ipdom(NodeId, NodeId);
    ipdom(p, d) <-- climb(p, d), postdominators(p, s), if d != p && s.contains(d);

    /// `control_dep(p, b, o)`: p runs depending on branch b's outcome o: p
    /// is on the postdominator chain from o's successor up to (not
    /// including) b's immediate postdominator.
    relation control_dep(NodeId, NodeId, bool);
    control_dep(s, b, o) <-- branch_edge(b, o, s), ipdom(b, d), if s != d;
    control_dep(y, b, o) <-- control_dep(x, b, o), ipdom(x, y), ipdom(b, d), if y != d;

    // What the region of a branch outcome may write (`region_may_def`) is
    // computed on demand (`Analysis::region_defs`): as a relation it is
    // quadratic in the program (4.2 million `region` rows for the 3,000
    // branches of a 1,000-line heap program), and an explanation asks about
    // the branches of its runs only.

    /// `loop_modifies(h, v)`: the loop headed by h may write v.
    relation loop_modifies(NodeId, VarId);
    loop_modifies(h, v) <-- loop_body(h, p), defs(p, v);
}
