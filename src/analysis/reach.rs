//! The counterexample search's plain guide: moves towards an error, the
//! nearest first, by breadth-first distances over the explored graph.

use super::explore::{Return, State};
use super::path::PathStep;
use super::witness::{Guide, Move, Pending, Searcher};
use crate::context::conditions::CondId;
use std::collections::HashMap;

/// Moves towards any error of a condition: states that can still reach it.
pub(super) struct ReachGuide<'s, 'a, 'g> {
    pub(super) s: &'s Searcher<'a, 'g>,
    pub(super) k: CondId,
    pub(super) err: HashMap<State, u32>,
    /// Nearest moves first (else in the graph's order).
    pub(super) nearest: bool,
}

impl Guide for ReachGuide<'_, '_, '_> {
    type G = ();

    fn initial(&self) -> Vec<()> {
        vec![()]
    }

    /// The moves from `s` that can still reach the error (or, inside a
    /// call, its return), nearest first.
    fn moves(&self, s: State, _: &(), top: Option<&Pending<()>>) -> Vec<Move<()>> {
        let g = self.s.graph;
        let k = self.k;
        let (c, n, v) = s;
        let step = |l: super::state::LabelId| PathStep {
            node: n,
            decisions: self.s.label(l),
        };
        let call = |l, r: &Return, violation| Move::Call {
            step: step(l),
            ret: *r,
            violation,
            inside: (),
            after: (),
        };
        let mut out: Vec<(u32, Move<()>)> = Vec::new();
        match top {
            None => {
                let near = |to: &State| self.err.get(to).copied();
                for (es, l) in g.errors.get(&k).into_iter().flatten() {
                    if *es == s {
                        out.push((0, Move::Finish(step(*l))));
                    }
                }
                for st in g.steps.get(&s).into_iter().flatten() {
                    if let Some(d) = near(&st.to) {
                        out.push((d, Move::Step(step(st.label), st.to, ())));
                    }
                }
                for (l, c2) in g.calls.get(&s).into_iter().flatten() {
                    if let Some(d) = near(&self.s.entry_state(*c2)) {
                        out.push((d, Move::Enter(step(*l), *c2, ())));
                    }
                    for r in g.returns.get(&s).into_iter().flatten() {
                        if r.call_label != *l || r.callee != *c2 {
                            continue;
                        }
                        if let Some(d) = near(&r.to) {
                            out.push((d, call(*l, r, None)));
                        }
                    }
                }
                for (es, r, l2) in g.return_errors.get(&k).into_iter().flatten() {
                    if *es == s {
                        out.push((0, call(r.call_label, r, Some(self.s.label(*l2)))));
                    }
                }
            }
            Some(top) => {
                if self.s.engine.is_exit(n) && v == top.exit && c == top.callee {
                    return vec![Move::Exit(PathStep {
                        node: n,
                        decisions: top.violation.clone().unwrap_or_default(),
                    })];
                }
                let ok = self.s.can_exit(top.callee, top.exit);
                for st in g.steps.get(&s).into_iter().flatten() {
                    if let Some(d) = ok.get(&st.to) {
                        out.push((*d, Move::Step(step(st.label), st.to, ())));
                    }
                }
                for r in g.returns.get(&s).into_iter().flatten() {
                    if let Some(d) = ok.get(&r.to) {
                        out.push((*d, call(r.call_label, r, None)));
                    }
                }
            }
        }
        // Stable: equal distances keep the graph's order.
        if self.nearest {
            out.sort_by_key(|m| m.0);
        }
        out.into_iter().map(|m| m.1).collect()
    }
}

/// States with the fewest steps from them to a target, shared.
pub(super) type Distances = std::rc::Rc<HashMap<State, u32>>;

/// Breadth-first distances from `starts` along `next` (each edge one step).
pub(super) fn distances(starts: Vec<State>, mut next: impl FnMut(State, &mut Vec<State>)) -> HashMap<State, u32> {
    let mut dist: HashMap<State, u32> = HashMap::new();
    let mut queue: std::collections::VecDeque<State> = std::collections::VecDeque::new();
    for s in starts {
        if dist.insert(s, 0).is_none() {
            queue.push_back(s);
        }
    }
    let mut out = Vec::new();
    while let Some(s) = queue.pop_front() {
        let d = dist[&s] + 1;
        out.clear();
        next(s, &mut out);
        for &p in &out {
            if let std::collections::hash_map::Entry::Vacant(e) = dist.entry(p) {
                e.insert(d);
                queue.push_back(p);
            }
        }
    }
    dist
}
