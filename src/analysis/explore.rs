//! Runs the forward rules (`rules/fwd.rs`) and keeps the explored graph,
//! indexed for the phases that walk it.

use super::state::*;
use super::step::{Engine, Target};
use crate::ir::{NodeId, NodeKind};
use ascent::ascent_run;
use std::collections::HashMap;

pub type State = (CtxId, NodeId, ValId);

/// A transition inside an activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub label: LabelId,
    pub to: State,
}

/// A call that returns: entered activation, its exit valuation, the state
/// after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Return {
    pub call_label: LabelId,
    pub callee: CtxId,
    pub exit: ValId,
    pub to: State,
}

/// The explored state graph.
#[derive(Default)]
pub struct Graph {
    pub init: Option<State>,
    pub states: usize,
    pub steps: HashMap<State, Vec<Step>>,
    /// Errors by condition: the state, and the decisions of the failing step.
    pub errors: HashMap<CondId, Vec<(State, LabelId)>>,
    /// Calls from a state: decisions and the activation entered.
    pub calls: HashMap<State, Vec<(LabelId, CtxId)>>,
    /// Returns of a call state.
    pub returns: HashMap<State, Vec<Return>>,
    /// User conditions violated by the value a call returns.
    pub return_errors: HashMap<CondId, Vec<(State, Return, LabelId)>>,
    /// Exit valuations of each activation.
    pub fsum: HashMap<CtxId, Vec<ValId>>,
    /// Calls that start each activation.
    pub callers: HashMap<CtxId, Vec<(State, LabelId)>>,
    /// `--stats`: relation sizes and rule times.
    pub stats: String,
}

impl Engine<'_> {
    pub fn is_call(&self, n: NodeId) -> bool {
        matches!(self.p.node(n).kind, NodeKind::Call { .. })
    }
}

// Ascent's generated code names unused columns `_`.
#[allow(clippy::just_underscores_and_digits)]
pub fn explore(engine: &Engine) -> Graph {
    let init = engine.initial();
    let res = include!("../../rules/fwd.rs");
    let mut g = Graph {
        init: Some(init),
        states: res.reach.len(),
        stats: format!("{}\n{}", res.relation_sizes_summary(), res.scc_times_summary()),
        ..Graph::default()
    };
    for &(c, n, v, l, m, w) in &res.step {
        g.steps.entry((c, n, v)).or_default().push(Step {
            label: l,
            to: (c, m, w),
        });
    }
    for &(c, n, v, l, k) in &res.error {
        g.errors.entry(k).or_default().push(((c, n, v), l));
    }
    for &(c, n, v, l, c2) in &res.call {
        g.calls.entry((c, n, v)).or_default().push((l, c2));
        g.callers.entry(c2).or_default().push(((c, n, v), l));
    }
    for &(c, x) in &res.fsum {
        g.fsum.entry(c).or_default().push(x);
    }
    for &(c, n, v, l, c2, x, m, w) in &res.ret {
        g.returns.entry((c, n, v)).or_default().push(Return {
            call_label: l,
            callee: c2,
            exit: x,
            to: (c, m, w),
        });
    }
    for &(c, n, v, l, c2, x, l2, k) in &res.ret_error {
        let r = res
            .ret
            .iter()
            .find(|t| t.0 == c && t.1 == n && t.2 == v && t.3 == l && t.4 == c2 && t.5 == x)
            .map(|t| Return {
                call_label: l,
                callee: c2,
                exit: x,
                to: (t.0, t.6, t.7),
            });
        if let Some(r) = r {
            g.return_errors.entry(k).or_default().push(((c, n, v), r, l2));
        }
    }
    // Deterministic order for every later walk.
    for v in g.steps.values_mut() {
        v.sort_by_key(|s| (s.label, s.to));
    }
    for v in g.errors.values_mut() {
        v.sort();
    }
    for v in g.calls.values_mut() {
        v.sort();
    }
    for v in g.returns.values_mut() {
        v.sort_by_key(|r| (r.call_label, r.callee, r.exit, r.to));
    }
    for v in g.fsum.values_mut() {
        v.sort();
    }
    for v in g.callers.values_mut() {
        v.sort();
    }
    let _ = Target::Error(CondId(0));
    g
}
