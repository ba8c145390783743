//! The focus statements of one run from its record (`interp::access`): the
//! backward transfer of `transfer.rs` (docs/explanations.md), the one
//! `Backward::update` applies, over the run's steps, with the storage
//! locations the run touched in place of the variable slots of a symbolic
//! state; calls and exits by a stack of the run's activations. Nothing is kept per step but
//! the record, so a run of millions of steps is sliced in seconds; the
//! FSS it gives is executed alone for its assumptions (`run_slice.rs`).
//!
//! Where the two differ: an index the symbolic state does not know names
//! every element there; here it names the one the run used.

use super::fss::EvKind;
use super::transfer::{Rules, Step};
use crate::context::conditions::CondKind;
use crate::context::Context;
use crate::interp::access::{Accesses, Loc};
use crate::ir::*;
use std::collections::{BTreeSet, HashMap, HashSet};

/// A focus event of the run: its step (for `Leave`, the callee's exit; for
/// `Param` and `Result`, the call) and what it is.
pub type SliceEvent = (usize, EvKind);

/// The Error set: locations whose values matter, with all elements of some
/// variables (a condition's whole variables) but those written since.
#[derive(Default)]
struct Matter {
    locs: HashSet<Loc>,
    /// Live locations per (activation, variable).
    count: HashMap<(u32, VarId), u32>,
    whole: HashMap<(u32, VarId), HashSet<usize>>,
}

/// Which variable each slot belongs to, and where each variable starts.
struct Slots<'c> {
    cx: &'c Context<'c>,
    global_var: Vec<VarId>,
    local_var: Vec<Vec<VarId>>,
    /// The procedure of each activation.
    procs: Vec<ProcId>,
}

impl Slots<'_> {
    fn var(&self, l: Loc) -> VarId {
        match l.activation() {
            0 => self.global_var[l.offset()],
            a => self.local_var[self.procs[a as usize].index()][l.offset()],
        }
    }

    fn loc(&self, act: u32, v: VarId, k: u32) -> Loc {
        let off = (self.cx.layout.offset[v.index()] + k) as usize;
        Loc::new(if self.cx.p.var(v).is_global_storage() { 0 } else { act }, off)
    }

    fn key(&self, act: u32, v: VarId) -> (u32, VarId) {
        (if self.cx.p.var(v).is_global_storage() { 0 } else { act }, v)
    }
}

impl Matter {
    fn contains(&self, s: &Slots, l: Loc) -> bool {
        self.locs.contains(&l)
            || self
                .whole
                .get(&(l.activation(), s.var(l)))
                .is_some_and(|but| !but.contains(&l.offset()))
    }

    fn has_var(&self, key: (u32, VarId)) -> bool {
        self.count.get(&key).is_some_and(|&c| c > 0) || self.whole.contains_key(&key)
    }

    fn insert(&mut self, s: &Slots, l: Loc) {
        let key = (l.activation(), s.var(l));
        if let Some(but) = self.whole.get_mut(&key) {
            but.remove(&l.offset());
        }
        if self.locs.insert(l) {
            *self.count.entry(key).or_default() += 1;
        }
    }

    fn remove(&mut self, s: &Slots, l: Loc) {
        let key = (l.activation(), s.var(l));
        if let Some(but) = self.whole.get_mut(&key) {
            but.insert(l.offset());
            if but.len() >= s.cx.p.var(key.1).slots() as usize {
                self.whole.remove(&key);
            }
        }
        if self.locs.remove(&l) {
            *self.count.entry(key).or_default() -= 1;
        }
    }

    fn insert_var(&mut self, s: &Slots, act: u32, v: VarId) {
        if s.cx.p.var(v).slots() == 1 {
            self.insert(s, s.loc(act, v, 0));
        } else {
            self.whole.insert(s.key(act, v), HashSet::new());
        }
    }
}

/// An activation the backward walk is inside.
struct Frame {
    act: u32,
    /// Left by its exit (false: the error happened inside it).
    exited: bool,
    /// Where its segment's events begin in the (reversed) output, and how
    /// many of them are its `Leave` and `Result`.
    mark: usize,
    post: usize,
    result: bool,
    /// A written `return` passed on the way back.
    ret: Option<usize>,
    /// Control-dependence sets a later focus statement left pending.
    pending: BTreeSet<u32>,
}

impl Frame {
    fn new(act: u32, exited: bool, mark: usize, post: usize, result: bool) -> Frame {
        Frame {
            act,
            exited,
            mark,
            post,
            result,
            ret: None,
            pending: BTreeSet::new(),
        }
    }
}

/// One step of the run as the transfer sees it: the locations its record
/// says it wrote and read.
struct RunStep<'a, 'c> {
    acc: &'a Accesses,
    i: usize,
    s: &'a Slots<'c>,
    act: u32,
    outcome: Option<bool>,
    e: &'a mut Matter,
    top: &'a mut Frame,
}

impl Step for RunStep<'_, '_> {
    type Loc = Loc;

    fn outcome(&self) -> Option<bool> {
        self.outcome
    }

    /// A run knows the element it wrote.
    fn writes(&mut self) -> (Vec<Loc>, bool) {
        (self.acc.writes(self.i).to_vec(), true)
    }

    fn reads(&mut self) -> Vec<Loc> {
        self.acc.reads(self.i).to_vec()
    }

    fn loc(&self, v: VarId) -> Loc {
        self.s.loc(self.act, v, 0)
    }

    fn matters(&self, l: Loc) -> bool {
        self.e.contains(self.s, l)
    }

    fn matters_any(&self, vars: &BTreeSet<VarId>) -> bool {
        vars.iter().any(|&d| self.e.has_var(self.s.key(self.act, d)))
    }

    fn kill(&mut self, l: Loc) {
        self.e.remove(self.s, l);
    }

    fn gen(&mut self, ls: Vec<Loc>) {
        for l in ls {
            self.e.insert(self.s, l);
        }
    }

    fn gen_var(&mut self, v: VarId) {
        self.e.insert_var(self.s, self.act, v);
    }

    fn pending(&mut self) -> &mut BTreeSet<u32> {
        &mut self.top.pending
    }

    fn passed_return(&mut self) {
        self.top.ret = Some(self.i);
    }
}

/// The run's FSS events in order: `nodes` and `outcomes` are its steps
/// (the last the error of condition `k`), `acc` its record. Past
/// `deadline` it stops with an error.
pub fn slice(
    cx: &Context,
    nodes: &[NodeId],
    outcomes: &[Option<bool>],
    acc: &Accesses,
    k: crate::context::conditions::CondId,
    deadline: Option<std::time::Instant>,
) -> Result<Vec<SliceEvent>, String> {
    let p = cx.p;
    if acc.steps() != nodes.len() {
        return Err(format!("the record has {} steps, the run {}", acc.steps(), nodes.len()));
    }
    if let CondKind::User(_) = &cx.conds[k.0 as usize].kind {
        return Err("a condition of `--error` is not sliced".into());
    }
    let rules = Rules::new(cx);
    // Each activation's procedure, call step and caller.
    let acts = acc.activation.iter().copied().max().unwrap_or(1) as usize + 1;
    let mut procs = vec![p.entry; acts];
    let mut call_of = vec![usize::MAX; acts];
    for (&i, c) in &acc.calls {
        if let NodeKind::Call { callee, .. } = &p.node(nodes[i]).kind {
            procs[c.activation as usize] = *callee;
            call_of[c.activation as usize] = i;
        }
    }
    let (global_var, local_var) = slot_vars(cx);
    let s = Slots {
        cx,
        global_var,
        local_var,
        procs,
    };
    let last = nodes.len() - 1;
    // The activations open at the error, outermost first.
    let mut stack = Vec::new();
    let mut a = acc.activation[last];
    loop {
        stack.push(Frame::new(a, false, 0, 0, false));
        match call_of.get(a as usize) {
            Some(&c) if c != usize::MAX => a = acc.activation[c],
            _ => break,
        }
    }
    stack.reverse();
    let mut e = Matter::default();
    let mut out: Vec<SliceEvent> = Vec::new();
    // The error: what a failed check's operand reads.
    if acc.failed_node == Some(nodes[last]) {
        for &l in &acc.failed_operand {
            e.insert(&s, l);
        }
    }
    let top = stack.last_mut().expect("the error's activation");
    rules.add_cd(nodes[last], &mut top.pending);
    out.push((last, EvKind::Error));
    for i in (0..last).rev() {
        if i % 65536 == 0 && deadline.is_some_and(|d| std::time::Instant::now() > d) {
            return Err(super::run_graph::TIME_LIMIT.into());
        }
        let n = nodes[i];
        let node = p.node(n);
        let act = acc.activation[i];
        if let NodeKind::Exit = node.kind {
            let call = call_of.get(act as usize).copied().unwrap_or(usize::MAX);
            if call == usize::MAX {
                continue;
            }
            let written = acc.writes(i);
            let result = written.iter().any(|&l| e.contains(&s, l));
            if result {
                for &l in written {
                    e.remove(&s, l);
                }
                if let Some(rv) = p.proc(node.proc).ret_var {
                    e.insert(&s, s.loc(act, rv, 0));
                }
            }
            let mark = out.len();
            if result {
                out.push((call, EvKind::Result));
            }
            out.push((i, EvKind::Leave));
            stack.push(Frame::new(act, true, mark, out.len() - mark, result));
            continue;
        }
        let Some(top) = stack.last_mut() else {
            return Err(format!("step {i} is outside every activation"));
        };
        if let NodeKind::Call { callee, .. } = &node.kind {
            let callee_act = acc.calls.get(&i).map(|c| c.activation);
            let Some(f) = stack.pop().filter(|f| Some(f.act) == callee_act) else {
                return Err(format!("the call at step {i} does not match its callee's steps"));
            };
            let segment = out.len() > f.mark + f.post;
            let params: Vec<u32> = p
                .proc(*callee)
                .params
                .iter()
                .enumerate()
                .filter(|(_, &v)| e.contains(&s, s.loc(f.act, v, 0)))
                .map(|(j, _)| j as u32)
                .collect();
            if f.exited && !(segment || f.result || !params.is_empty()) {
                out.truncate(f.mark);
                continue;
            }
            if let (true, Some(r)) = (segment && f.exited, f.ret) {
                out.insert(f.mark + f.post, (r, EvKind::Return));
            }
            let reads = acc.reads(i);
            let starts = &acc.calls[&i].arg_reads;
            for &j in params.iter().rev() {
                let lo = starts[j as usize];
                let hi = starts.get(j as usize + 1).copied().unwrap_or(reads.len());
                for &l in &reads[lo..hi] {
                    e.insert(&s, l);
                }
                out.push((i, EvKind::Param(j)));
            }
            out.push((i, EvKind::Call));
            let Some(caller) = stack.last_mut() else {
                return Err(format!("the call at step {i} has no caller"));
            };
            rules.add_cd(n, &mut caller.pending);
            continue;
        }
        if top.act != act {
            return Err(format!("step {i} is not in the activation the walk is in"));
        }
        let mut step = RunStep {
            acc,
            i,
            s: &s,
            act,
            outcome: outcomes.get(i).copied().flatten(),
            e: &mut e,
            top,
        };
        if let Some(kind) = rules.transfer(cx, n, &mut step) {
            out.push((i, kind));
        }
    }
    out.reverse();
    Ok(out)
}

/// The variable of each global slot, and of each frame slot per procedure.
pub fn slot_vars(cx: &Context) -> (Vec<VarId>, Vec<Vec<VarId>>) {
    let p = cx.p;
    let mut global_var = vec![VarId(0); cx.layout.global_slots as usize];
    for &g in &p.globals {
        let off = cx.layout.offset[g.index()];
        for k in 0..p.var(g).slots() {
            global_var[(off + k) as usize] = g;
        }
    }
    let mut local_var = Vec::new();
    for pid in p.proc_ids() {
        let mut v = vec![VarId(0); cx.layout.frame_slots[pid.index()] as usize];
        for &l in &p.proc(pid).locals {
            let off = cx.layout.offset[l.index()];
            for k in 0..p.var(l).slots() {
                v[(off + k) as usize] = l;
            }
        }
        local_var.push(v);
    }
    (global_var, local_var)
}
