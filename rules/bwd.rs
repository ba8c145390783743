// Backward summaries (bsum) and focus-statement sequences, after seed 001
// §2 and §3.3.
//
// Included as an expression by `src/explain/bsum.rs`, where `bw` (the
// backward step, plain Rust: `src/explain/backward.rs`) and the forward
// graph's tuples are in scope. A walk goes backward from a root carrying an
// Error set and the set of FSS suffixes from here to the root (a lattice:
// suffixes that contain another are dropped). A call whose continuation
// needs the callee asks for the callee's summary keyed by (activation, exit
// valuation, exit Error set); the summary walk runs once per key and its
// segments are joined to every caller's suffixes.
ascent_run! {
    #![measure_rule_times]

    // Facts (the forward graph):

    /// `step(c, n, v, l, m, w)`: a transition inside activation c.
    relation step(CtxId, NodeId, ValId, LabelId, NodeId, ValId) = steps;
    /// `call(c, n, v, l, c2)`: the call at n enters activation c2.
    relation call(CtxId, NodeId, ValId, LabelId, CtxId) = calls;
    /// `ret(c, n, v, l, c2, x, m, w)`: the call returns from c2 with exit valuation x to m, w.
    relation ret(CtxId, NodeId, ValId, LabelId, CtxId, ValId, NodeId, ValId) = rets;
    /// `entry(c, n, v)`: the state activation c starts in.
    relation entry(CtxId, NodeId, ValId) = entries;
    /// `root(r, c, n, v, e, a)`: walk r starts at state (c, n, v) with Error set e and suffixes a.
    relation root(RootId, CtxId, NodeId, ValId, ESetId, Suffixes) = roots;

    // Rules:

    /// `walk(r, c, n, v, e, a)`: from state (c, n, v), with Error set e there, the suffixes a lead to r's end.
    lattice walk(RootId, CtxId, NodeId, ValId, ESetId, Suffixes);
    walk(r, c, n, v, e, a) <-- root(r, c, n, v, e, a);

    // Backward over a transition: `update` decides focus and the Error set.
    // Suffixes that cannot hold from here are dropped at once (`prune`).
    // An empty set of suffixes (all pruned, or the budget is spent) leads
    // to nothing: it is the lattice's bottom, and is not stored. Once the
    // budget is spent (`late`: a count of steps, or the flag a watchdog
    // raises at the deadline; no rule reads the clock) no rule computes
    // anything new, so the fixpoint ends with the tuples it has.
    walk(r, c, n, v, e2, a2) <--
        walk(r, c, m, w, e, a), step(c, n, v, l, m, w), if !bw.late(),
        let (e2, ev) = bw.update((*c, *n, *v), *l, *e),
        let a2 = bw.prune_step((*c, *n, *v), a, ev), if !a2.is_empty();

    /// `need(s, c2, x, ex)`: summary s of activation c2 from exit valuation x with exit Error set ex is asked for.
    relation need(RootId, CtxId, ValId, ESetId);
    need(s, c2, x, ex) <--
        walk(r, c, m, w, e, _), ret(c, n, v, l, c2, x, m, w), if !bw.late(),
        let (ex, _) = bw.exit_set((*c, *n, *v), *l, *c2, *e),
        let s = bw.sum_root(*c2, *x, ex, (*r, (*c, *m, *w), *e));
    walk(s, c2, bw.exit_node(*c2), x, ex, Suffixes::unit()) <-- need(s, c2, x, ex);

    /// `bsum(s, e, a)`: summary s: the Error set e at the callee's entry and its segments a.
    lattice bsum(RootId, ESetId, Suffixes);
    bsum(s, e2, close_segments(a, ret)) <--
        walk(s, c, n, v, e, a), entry(c, n, v), if bw.is_sum(*s),
        let (e2, ret) = bw.close_segment(*e);

    // A call that returns: the callee's segments joined to the suffixes.
    walk(r, c, n, v, e2, a2) <--
        walk(r, c, m, w, e, a), ret(c, n, v, l, c2, x, m, w), if !bw.late(),
        let (ex, _) = bw.exit_set((*c, *n, *v), *l, *c2, *e),
        let s = bw.sum_root(*c2, *x, ex, (*r, (*c, *m, *w), *e)),
        bsum(s, ee, segs),
        let (e2, pre, post) = bw.call_update((*c, *n, *v), *l, *c2, *e, *ee, !segs.iter().any(|f| f.is_empty())),
        let a2 = bw.joined((*c, *n, *v), &pre, segs, &post, a), if !a2.is_empty();

    // An error inside a callee: on to every call that enters it.
    walk(r, c, n, v, e2, a2) <--
        walk(r, c2, en, ev, e, a), entry(c2, en, ev), if !bw.is_sum(*r),
        call(c, n, v, l, c2), if !bw.late(),
        let (e2, pre) = bw.enter_update((*c, *n, *v), *l, *c2, *e),
        let a2 = bw.prune((*c, *n, *v), a.prepend_all(&pre)), if !a2.is_empty();
}
