// Forward reachability with procedure summaries (fsum), after seed 001 §3.3.
//
// Included as an expression by `src/analysis/explore.rs`, where `explorer`
// (the transfer functions, plain Rust: `src/analysis/step.rs`, `calls.rs`,
// `widen.rs`) and `init` (the initial state) are in scope. Each helper
// returns the same tuples for the same state whatever order the rules run
// in; the only exception is the run's budget (`src/analysis/run.rs`): a
// state enters `reach` only when admitted, and once a stop is raised no
// state is expanded, so a cut run is marked and never "safe". States are `(activation, node, valuation)`, every column a small
// hash-consed id. An activation is a procedure entered with one initial
// valuation: its summary `fsum` is computed once and reused at every call
// that enters it (the paper's call rule); `--no-summaries` makes the calling
// state part of the activation, so nothing is shared.
ascent_run! {
    #![measure_rule_times]

    // Facts:

    /// `start(c, n, v)`: the run starts in activation c at node n with valuation v.
    relation start(CtxId, NodeId, ValId) = vec![init];

    // Rules:

    /// `reach(c, n, v)`: in activation c, node n is reached with valuation v.
    relation reach(CtxId, NodeId, ValId);
    reach(c, n, v) <-- start(c, n, v);

    /// `out(c, n, v, l, t)`: executing n with v in c, deciding l, leads to t
    /// (a state of c, or an error). The paper's "other" transitions.
    relation out(CtxId, NodeId, ValId, LabelId, Target);
    out(c, n, v, l, t) <-- reach(c, n, v), for (l, t) in explorer.transitions(*c, *n, *v);

    /// `step(c, n, v, l, m, w)`: a transition inside activation c.
    relation step(CtxId, NodeId, ValId, LabelId, NodeId, ValId);
    step(c, n, v, l, m, w) <-- out(c, n, v, l, ?Target::Node(m, w));
    reach(c, m, w) <-- step(c, _, _, _, m, w);

    /// `error(c, n, v, l, k)`: executing n with v in c, deciding l, violates condition k.
    relation error(CtxId, NodeId, ValId, LabelId, CondId);
    error(c, n, v, l, k) <-- out(c, n, v, l, ?Target::Error(k));

    /// `call(c, n, v, l, c2)`: the call at n, with v in c and decisions l, starts activation c2.
    relation call(CtxId, NodeId, ValId, LabelId, CtxId);
    call(c, n, v, l, c2) <-- reach(c, n, v), if explorer.is_call(*n), for (l, c2) in explorer.calls(*c, *n, *v);
    reach(c2, e, s) <-- call(_, _, _, _, c2), let (e, s) = explorer.start_of(*c2);

    /// `fsum(c, x)`: activation c can return with exit valuation x (the summary).
    relation fsum(CtxId, ValId);
    fsum(c, x) <-- reach(c, n, x), if explorer.is_exit(*n);

    /// `ret_out(c, n, v, l, c2, x, l2, t)`: the call returns from c2 with x, leading to t.
    relation ret_out(CtxId, NodeId, ValId, LabelId, CtxId, ValId, LabelId, Target);
    ret_out(c, n, v, l, c2, x, l2, t) <--
        call(c, n, v, l, c2), fsum(c2, x),
        for (l2, t) in explorer.returns(*c, *n, *v, *l, *x);

    /// `ret(c, n, v, l, c2, x, m, w)`: after the call returns from c2 with x, c is at m with w.
    relation ret(CtxId, NodeId, ValId, LabelId, CtxId, ValId, NodeId, ValId);
    ret(c, n, v, l, c2, x, m, w) <-- ret_out(c, n, v, l, c2, x, _, ?Target::Node(m, w));
    reach(c, m, w) <-- ret(c, _, _, _, _, _, m, w);

    /// `ret_error(c, n, v, l, c2, x, l2, k)`: the value a call returns violates user condition k.
    relation ret_error(CtxId, NodeId, ValId, LabelId, CtxId, ValId, LabelId, CondId);
    ret_error(c, n, v, l, c2, x, l2, k) <-- ret_out(c, n, v, l, c2, x, l2, ?Target::Error(k));
}
