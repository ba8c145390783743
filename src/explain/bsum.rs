//! Runs the backward rules (`rules/bwd.rs`) over the explored graph and
//! collects, per condition, the candidate focus-statement sequences: the
//! suffix sets that reach the initial state.

use super::backward::{Backward, ESetId, Root, RootId};
use super::fss::{EvKind, Event, Fss, Suffixes};
use crate::analysis::explore::Graph;
use crate::analysis::explore::State;
use crate::analysis::state::*;
use crate::context::conditions::CondId;
use crate::ir::NodeId;
use ascent::ascent_run;
use std::collections::{BTreeMap, HashMap};

impl Suffixes {
    /// Every suffix with `pre` in front.
    pub fn prepend_all(&self, pre: &[Event]) -> Suffixes {
        Suffixes::concat(pre, &Suffixes::unit(), &[], self)
    }
}

/// A summary's segments: a non-empty segment ends with the written
/// `return` its walk passed (if any).
pub fn close_segments(a: &Suffixes, ret: Option<Event>) -> Suffixes {
    match ret {
        None => a.clone(),
        Some(r) => Suffixes::from_candidates(
            a.iter()
                .map(|f| {
                    let mut g = f.clone();
                    if !g.is_empty() {
                        g.push_back(r);
                    }
                    g
                })
                .collect(),
        ),
    }
}

/// Walk tuples by root and state: Error sets with their suffixes.
pub type WalkIndex = HashMap<(RootId, State), Vec<(ESetId, Suffixes)>>;

pub struct Candidates {
    /// Per condition: the FSS candidates (minimal, sorted).
    pub fss: BTreeMap<CondId, Vec<Fss>>,
    /// The walks, for following one FSS forward (its derivation).
    pub walks: WalkIndex,
    /// Backward summaries by key: the Error set at entry and segments.
    pub sums: HashMap<RootId, Vec<(ESetId, Suffixes)>>,
    /// Summaries computed (distinct keys), and walk tuples.
    pub summaries: usize,
    pub tuples: usize,
    pub stats: String,
}

/// Backward summaries for the given conditions.
// Ascent's generated code names unused columns `_`.
#[allow(clippy::just_underscores_and_digits)]
pub fn candidates(bw: &Backward, g: &Graph, conds: &[CondId]) -> Candidates {
    let e = bw.e;
    let Some(init) = g.init else {
        return Candidates {
            fss: BTreeMap::new(),
            walks: HashMap::new(),
            sums: HashMap::new(),
            summaries: 0,
            tuples: 0,
            stats: String::new(),
        };
    };
    let mut steps = Vec::new();
    for (s, outs) in &g.steps {
        for st in outs {
            steps.push((s.0, s.1, s.2, st.label, st.to.1, st.to.2));
        }
    }
    let mut calls = Vec::new();
    for (s, cs) in &g.calls {
        for (l, c2) in cs {
            calls.push((s.0, s.1, s.2, *l, *c2));
        }
    }
    let mut rets = Vec::new();
    for (s, rs) in &g.returns {
        for r in rs {
            rets.push((s.0, s.1, s.2, r.call_label, r.callee, r.exit, r.to.1, r.to.2));
        }
    }
    let mut entries = vec![init];
    for c in g.callers.keys() {
        let (n, v) = e.start_of(*c);
        entries.push((*c, n, v));
    }
    let mut roots: Vec<(RootId, CtxId, NodeId, ValId, ESetId, Suffixes)> = Vec::new();
    for &k in conds {
        let r = bw.intern_root(Root::Error(k));
        for (s, l) in g.errors.get(&k).into_iter().flatten() {
            let (es, ev) = bw.error_root(k, *s, *l);
            roots.push((r, s.0, s.1, s.2, es, Suffixes::single(Fss::unit(ev))));
        }
        for (s, ret, l2) in g.return_errors.get(&k).into_iter().flatten() {
            let es = bw.result_violation_root(k, *s, ret.call_label);
            let ev = Event {
                node: s.1,
                kind: EvKind::Error,
                label: *l2,
            };
            roots.push((r, ret.to.0, ret.to.1, ret.to.2, es, Suffixes::single(Fss::unit(ev))));
        }
    }
    // Deterministic input order.
    steps.sort();
    calls.sort();
    rets.sort();
    entries.sort();
    entries.dedup();
    roots.sort_by_key(|t| (t.0, t.1, t.2, t.3, t.4));
    // The rules read the watchdog's flag, never the clock.
    let res = crate::analysis::run::watched(&bw.stop, bw.deadline, None, || include!("../../rules/bwd.rs"));
    let mut fss: BTreeMap<CondId, Vec<Fss>> = BTreeMap::new();
    for (r, c, n, v, _, a) in &res.walk {
        if (*c, *n, *v) != init {
            continue;
        }
        if let Root::Error(k) = *bw.root(*r) {
            fss.entry(k).or_default().extend(a.iter().cloned());
        }
    }
    let fss = fss
        .into_iter()
        .map(|(k, v)| (k, Suffixes::from_candidates(v).iter().cloned().collect()))
        .collect();
    let mut walks: WalkIndex = HashMap::new();
    for (r, c, n, v, e, a) in &res.walk {
        walks.entry((*r, (*c, *n, *v))).or_default().push((*e, a.clone()));
    }
    let mut sums: HashMap<RootId, Vec<(ESetId, Suffixes)>> = HashMap::new();
    for (r, e, a) in &res.bsum {
        sums.entry(*r).or_default().push((*e, a.clone()));
    }
    for v in walks.values_mut().chain(sums.values_mut()) {
        v.sort_by_key(|x| x.0);
    }
    Candidates {
        fss,
        walks,
        sums,
        summaries: res.need.len(),
        tuples: res.walk.len(),
        stats: format!("{}\n{}", res.relation_sizes_summary(), res.scc_times_summary()),
    }
}
