//! A complete counterexample for one focus-statement sequence: the search of
//! `analysis::witness`, guided by the FSS's backward derivation. At every
//! step the Error set must be the one the backward step computes from the
//! next state's, and the focus events must be the FSS's next ones, so a path
//! found this way has exactly this FSS.

use super::backward::{Backward, ESetId, Root, RootId};
use super::bsum::{close_segments, Candidates};
use super::fss::{EvKind, Event, Fss, Suffixes};
use crate::analysis::explore::{Graph, State};
use crate::analysis::path::PathStep;
use crate::analysis::state::LabelId;
use crate::analysis::witness::{Guide, Move, Pending, Searcher};
use crate::context::conditions::CondId;

/// Where the path is in the derivation: the walk, the Error set here, and
/// what is left of the FSS.
pub type At = (RootId, ESetId, Fss);

pub struct FssGuide<'b, 'e> {
    pub bw: &'b Backward<'e>,
    pub graph: &'b Graph,
    pub cands: &'b Candidates,
    pub searcher: &'b Searcher<'e, 'b>,
    pub k: CondId,
    pub fss: Fss,
    /// The FSS's own constraints over inputs: every path with this FSS
    /// satisfies them (its focus statements compute the same values).
    pub assumed: Vec<crate::analysis::value::Constraint>,
}

fn contains(a: &Suffixes, f: &Fss) -> bool {
    a.iter().any(|x| x == f)
}

/// `f` without `pre` in front, if it starts with it.
fn strip(f: &Fss, pre: &[Event]) -> Option<Fss> {
    if f.len() < pre.len() || !f.iter().zip(pre).all(|(a, b)| a == b) {
        return None;
    }
    Some(f.split_off(pre.len()))
}

impl FssGuide<'_, '_> {
    fn root(&self) -> RootId {
        self.bw.intern_root(Root::Error(self.k))
    }

    fn walks(&self, r: RootId, s: State) -> &[(ESetId, Suffixes)] {
        self.cands.walks.get(&(r, s)).map(Vec::as_slice).unwrap_or(&[])
    }

    fn step(&self, n: crate::ir::NodeId, l: LabelId) -> PathStep {
        PathStep {
            node: n,
            decisions: self.searcher.label(l),
        }
    }
}

impl Guide for FssGuide<'_, '_> {
    type G = At;

    fn assumed(&self) -> &[crate::analysis::value::Constraint] {
        &self.assumed
    }

    fn initial(&self) -> Vec<At> {
        let Some(init) = self.graph.init else { return Vec::new() };
        let r = self.root();
        self.walks(r, init)
            .iter()
            .filter(|(_, a)| contains(a, &self.fss))
            .map(|(e, _)| (r, *e, self.fss.clone()))
            .collect()
    }

    fn moves(&self, s: State, at: &At, top: Option<&Pending<At>>) -> Vec<Move<At>> {
        let (r, es, rest) = at;
        let (c, n, v) = s;
        let bw = self.bw;
        let g = self.graph;
        let mut out = Vec::new();
        // The end of a callee's segment.
        if let (Some(top), Root::Sum { eset, .. }) = (top, &*bw.root(*r)) {
            if bw.e.is_exit(n) && c == top.callee && v == top.exit && rest.is_empty() && es == eset {
                out.push(Move::Exit(PathStep {
                    node: n,
                    decisions: top.violation.clone().unwrap_or_default(),
                }));
                return out;
            }
        }
        // The error itself.
        if let Root::Error(k) = *bw.root(*r) {
            for (e_s, l) in g.errors.get(&k).into_iter().flatten() {
                if *e_s == s {
                    let (root_set, ev) = bw.error_root(k, s, *l);
                    if root_set == *es && rest.len() == 1 && rest.first() == Some(&ev) {
                        out.push(Move::Finish(self.step(n, *l)));
                    }
                }
            }
        }
        for st in g.steps.get(&s).into_iter().flatten() {
            for (e_t, a_t) in self.walks(*r, st.to) {
                let (e_before, ev) = bw.update(s, st.label, *e_t);
                if e_before != *es {
                    continue;
                }
                let next = match ev {
                    Some(e) => match strip(rest, &[e]) {
                        Some(f) => f,
                        None => continue,
                    },
                    None => rest.clone(),
                };
                if contains(a_t, &next) {
                    out.push(Move::Step(self.step(n, st.label), st.to, (*r, *e_t, next)));
                }
            }
        }
        for ret in g.returns.get(&s).into_iter().flatten() {
            let (l, c2, x, t) = (ret.call_label, ret.callee, ret.exit, ret.to);
            for (e_t, a_t) in self.walks(*r, t) {
                let (ex, _) = bw.exit_set(s, l, c2, *e_t);
                let rs = bw.sum_root(c2, x, ex, (*r, t, *e_t));
                for (ee, segs) in self.cands.sums.get(&rs).into_iter().flatten() {
                    let focus = !segs.iter().any(|f| f.is_empty());
                    let (e_before, pre, post) = bw.call_update(s, l, c2, *e_t, *ee, focus);
                    if e_before != *es {
                        continue;
                    }
                    let Some(after_pre) = strip(rest, &pre) else { continue };
                    for seg in segs.iter() {
                        let seg_events: Vec<Event> = seg.iter().copied().collect();
                        let Some(after_seg) = strip(&after_pre, &seg_events) else {
                            continue;
                        };
                        let Some(f_t) = strip(&after_seg, &post) else { continue };
                        if !contains(a_t, &f_t) {
                            continue;
                        }
                        // The callee's walk that produced this segment.
                        let en = self.searcher.entry_state(c2);
                        for (e_en, a_en) in self.walks(rs, en) {
                            let (closed, ret_ev) = bw.close_segment(*e_en);
                            if closed != *ee {
                                continue;
                            }
                            for a in a_en.iter() {
                                if close_segments(&Suffixes::single(a.clone()), ret_ev)
                                    .iter()
                                    .any(|x| x == seg)
                                {
                                    // A user condition violated by the result ends here.
                                    let violation = match (f_t.len(), f_t.first()) {
                                        (1, Some(e)) if e.kind == EvKind::Error && e.node == n => g
                                            .return_errors
                                            .get(&self.k)
                                            .into_iter()
                                            .flatten()
                                            .find(|(es2, r2, l2)| *es2 == s && r2 == ret && *l2 == e.label)
                                            .map(|(_, _, l2)| self.searcher.label(*l2)),
                                        _ => None,
                                    };
                                    out.push(Move::Call {
                                        step: self.step(n, l),
                                        ret: *ret,
                                        violation,
                                        inside: (rs, *e_en, a.clone()),
                                        after: (*r, *e_t, f_t.clone()),
                                    });
                                }
                            }
                        }
                    }
                }
            }
        }
        if matches!(*bw.root(*r), Root::Error(_)) {
            for (l, c2) in g.calls.get(&s).into_iter().flatten() {
                let en = self.searcher.entry_state(*c2);
                for (e_en, a_en) in self.walks(*r, en) {
                    let (e_before, pre) = bw.enter_update(s, *l, *c2, *e_en);
                    if e_before != *es {
                        continue;
                    }
                    let Some(f_en) = strip(rest, &pre) else { continue };
                    if contains(a_en, &f_en) {
                        out.push(Move::Enter(self.step(n, *l), *c2, (*r, *e_en, f_en)));
                    }
                }
            }
        }
        out
    }
}
