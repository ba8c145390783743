//! The backward step over calls: the callee's Error set at its exit, the
//! summary a call needs, and the events around a callee's segment.

use super::{Backward, ESet, ESetId, Root, RootId};
use crate::analysis::explore::State;
use crate::analysis::state::*;
use crate::context::conditions::{CondId, CondKind};
use crate::explain::fss::{EvKind, Event};
use crate::ir::*;
use std::collections::BTreeSet;

impl Backward<'_> {
    /// The result slot of a call step (known after its decisions).
    pub(super) fn result_slot(&self, s: State, l: LabelId) -> Option<VarSlot> {
        let (_, n, v) = s;
        let NodeKind::Call { result: Some(pl), .. } = &self.e.cx.p.node(n).kind else {
            return None;
        };
        let val = self.e.t.val(v);
        let label = self.e.t.label(l);
        let (w, exact) = self.writes(self.e.cx.p.node(n).proc, &val, pl, &label, &mut BTreeSet::new());
        if exact && w.len() == 1 {
            w.first().copied()
        } else {
            None
        }
    }

    /// The callee's Error set at its exit, for a call `s --l-->` returning
    /// from `c2` into a state whose Error set is `after`; and whether the
    /// result matters.
    pub fn exit_set(&self, s: State, l: LabelId, c2: CtxId, after: ESetId) -> (ESetId, bool) {
        // Asked again each time the suffixes after the call grow.
        let key = (s, l, c2, after);
        if let Some(known) = self.exit_sets.borrow().get(&key) {
            return *known;
        }
        let found = self.exit_set_of(s, l, c2, after);
        self.exit_sets.borrow_mut().insert(key, found);
        found
    }

    fn exit_set_of(&self, s: State, l: LabelId, c2: CtxId, after: ESetId) -> (ESetId, bool) {
        let p = self.e.cx.p;
        let callee = self.e.t.ctx(c2).proc;
        let set = self.eset(after);
        let view = &self.e.frames.views[callee.index()];
        let result_slot = self.result_slot(s, l);
        let result = result_slot.is_some_and(|r| set.vars.contains(&r));
        let mut ex = ESet::default();
        for sl in &set.vars {
            if let VarSlot::Global(g) = sl {
                // The result is written after the callee returns (a global,
                // or a local whose address is taken, lives in a global
                // slot): its value before comes from the callee's return.
                if view.pos.contains_key(g) && !(result && Some(*sl) == result_slot) {
                    ex.vars.insert(*sl);
                }
            }
        }
        if result {
            if let Some(rv) = p.proc(callee).ret_var {
                ex.vars.insert(self.e.frames.slot_of(rv, 0));
            }
        }
        (self.intern_eset(ex), result)
    }

    /// The key of the summary a call needs.
    pub fn sum_root(&self, c2: CtxId, x: ValId, ex: ESetId, asker: (RootId, State, ESetId)) -> RootId {
        let caller = if self.e.summaries { None } else { Some(asker) };
        self.intern_root(Root::Sum {
            callee: c2,
            exit: x,
            eset: ex,
            caller,
        })
    }

    /// A summary walk that reached its activation's entry: the Error set
    /// there, and whether a written `return` closes the segment.
    pub fn close_segment(&self, at_entry: ESetId) -> (ESetId, Option<Event>) {
        let set = self.eset(at_entry);
        let ret = set.ret.map(|(n, l)| Event {
            node: n,
            kind: EvKind::Return,
            label: l,
        });
        let mut clean = (*set).clone();
        clean.ret = None;
        clean.pending.clear();
        (self.intern_eset(clean), ret)
    }

    /// Backward over a call `s --l-->` that returns from `c2`: the Error set
    /// before the call and the events around the callee's segment (in front:
    /// the call and parameters that matter; behind: leaving the callee and
    /// the result). `segment_focus` says whether the segment is non-empty.
    pub fn call_update(
        &self,
        s: State,
        l: LabelId,
        c2: CtxId,
        after: ESetId,
        entry: ESetId,
        segment_focus: bool,
    ) -> (ESetId, Vec<Event>, Vec<Event>) {
        let (_, n, _) = s;
        let p = self.e.cx.p;
        let callee = self.e.t.ctx(c2).proc;
        let view = &self.e.frames.views[callee.index()];
        let set = self.eset(after);
        let at_entry = self.eset(entry);
        let result_slot = self.result_slot(s, l);
        let result = result_slot.is_some_and(|r| set.vars.contains(&r));
        let mut before = ESet {
            vars: set
                .vars
                .iter()
                .copied()
                .filter(|sl| {
                    Some(*sl) != result_slot.filter(|_| result)
                        && match sl {
                            VarSlot::Global(g) => !view.pos.contains_key(g),
                            VarSlot::Local(_) => true,
                        }
                })
                .collect(),
            pending: set.pending.clone(),
            ret: set.ret,
        };
        before.vars.extend(
            at_entry
                .vars
                .iter()
                .copied()
                .filter(|sl| matches!(sl, VarSlot::Global(_))),
        );
        let (params, args_reads) = self.param_reads(s, l, callee, &at_entry);
        before.vars.extend(args_reads);
        let focus = segment_focus || result || !params.is_empty();
        let mut pre = Vec::new();
        let mut post = Vec::new();
        if focus {
            self.add_cd(n, &mut before);
            pre.push(Event {
                node: n,
                kind: EvKind::Call,
                label: l,
            });
            pre.extend(params.iter().map(|&i| Event {
                node: n,
                kind: EvKind::Param(i),
                label: l,
            }));
            post.push(Event {
                node: p.proc(callee).exit,
                kind: EvKind::Leave,
                label: LabelId(0),
            });
            if result {
                post.push(Event {
                    node: n,
                    kind: EvKind::Result,
                    label: l,
                });
            }
        }
        (self.intern_eset(before), pre, post)
    }

    /// The parameters that matter at the callee's entry, and what their
    /// arguments read.
    pub(super) fn param_reads(
        &self,
        s: State,
        l: LabelId,
        callee: ProcId,
        at_entry: &ESet,
    ) -> (Vec<u32>, BTreeSet<VarSlot>) {
        let (_, n, v) = s;
        let p = self.e.cx.p;
        let NodeKind::Call { args, .. } = &p.node(n).kind else {
            return (Vec::new(), BTreeSet::new());
        };
        let val = self.e.t.val(v);
        let label = self.e.t.label(l);
        let mut params = Vec::new();
        let mut reads = BTreeSet::new();
        for (i, (param, arg)) in p.proc(callee).params.iter().zip(args).enumerate() {
            if at_entry.vars.contains(&self.e.frames.slot_of(*param, 0)) {
                params.push(i as u32);
                self.reads(p.node(n).proc, &val, arg, &label, &mut reads);
            }
        }
        (params, reads)
    }

    /// Backward over a call `s --l-->` into `c2` whose callee holds the
    /// error: the Error set before the call and the events in front.
    pub fn enter_update(&self, s: State, l: LabelId, c2: CtxId, entry: ESetId) -> (ESetId, Vec<Event>) {
        let (_, n, _) = s;
        let callee = self.e.t.ctx(c2).proc;
        let at_entry = self.eset(entry);
        let mut before = ESet {
            vars: at_entry
                .vars
                .iter()
                .copied()
                .filter(|sl| matches!(sl, VarSlot::Global(_)))
                .collect(),
            pending: BTreeSet::new(),
            ret: None,
        };
        let (params, reads) = self.param_reads(s, l, callee, &at_entry);
        before.vars.extend(reads);
        self.add_cd(n, &mut before);
        let mut pre = vec![Event {
            node: n,
            kind: EvKind::Call,
            label: l,
        }];
        pre.extend(params.iter().map(|&i| Event {
            node: n,
            kind: EvKind::Param(i),
            label: l,
        }));
        (self.intern_eset(before), pre)
    }

    /// The Error set a user condition violated by a call's result starts
    /// with, at the state after the call: what the condition reads plus the
    /// result.
    pub fn result_violation_root(&self, k: CondId, s: State, l: LabelId) -> ESetId {
        let mut set = ESet::default();
        if let CondKind::User(u) = &self.e.cx.conds[k.0 as usize].kind {
            for &var in &u.vars {
                self.all_slots(var, &mut set.vars);
            }
        }
        if let Some(r) = self.result_slot(s, l) {
            set.vars.insert(r);
        }
        self.intern_eset(set)
    }
}
