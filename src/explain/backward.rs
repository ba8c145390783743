//! The backward step of focus-statement extraction (seed 001 §2, DESIGN
//! §6), over one transition of the explored graph: given the *Error set*
//! after a step (variables whose values matter, and pending control
//! dependences), the Error set before it and whether the step is a focus
//! statement.
//!
//! - an assignment is focus iff it writes a variable of the set; then the
//!   variable leaves and what the right-hand side reads joins;
//! - a branch is focus iff a later focus statement is dynamically control
//!   dependent on it (a pending set names it), or the branch not taken may
//!   write a variable of the set; then the variables of the whole condition
//!   join;
//! - a call is focus iff its callee's segment holds a focus statement (or
//!   its result, or a parameter, matters);
//! - every focus statement makes its controlling branches pending.
//!
//! The Datalog rules (`rules/bwd.rs`) and the plain walk over one trace
//! (`trace_fss`) both use these functions, so the two agree by construction
//! on each transition.

use super::fss::{EvKind, Event};
use crate::analysis::explore::Explored;
use crate::analysis::explore::State;
use crate::analysis::state::*;
use crate::context::conditions::{CondId, CondKind};
use crate::ir::*;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

/// The Error set: variable slots whose values matter, sets of branches of
/// which a later focus statement depends on the most recent evaluation, and
/// a written `return` passed on the way back (focus if its procedure's
/// segment is).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ESet {
    pub vars: BTreeSet<VarSlot>,
    pub pending: BTreeSet<u32>,
    pub ret: Option<(NodeId, LabelId)>,
}

/// An interned Error set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ESetId(pub u32);

/// An interned walk root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RootId(pub u32);

/// Where a backward walk starts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Root {
    /// At the errors of a condition.
    Error(CondId),
    /// At the exit of an activation with an exit valuation and Error set:
    /// a backward summary, reused by every call that needs it. Without
    /// summaries, the asking call is part of the key.
    Sum {
        callee: CtxId,
        exit: ValId,
        eset: ESetId,
        caller: Option<(RootId, State, ESetId)>,
    },
}

pub struct Backward<'e> {
    pub e: Explored<'e>,
    /// The control-dependence set of each node (an index into `cd_sets`).
    cd_of_node: Vec<u32>,
    pub cd_sets: Vec<Vec<NodeId>>,
    /// Variables of all atoms of each unit (a condition's variables).
    unit_vars: HashMap<UnitId, Vec<VarId>>,
    /// Variable of each global slot, and of each frame slot per procedure.
    global_var: Vec<VarId>,
    local_var: Vec<Vec<VarId>>,
    esets: RefCell<Interner<ESet>>,
    roots: RefCell<Interner<Root>>,
    /// Feasibility of suffixes from states, computed once each.
    feasible: RefCell<HashMap<(State, super::fss::Fss), bool>>,
    /// Recent models of suffix constraints: hints for the next question.
    models: RefCell<Vec<std::collections::BTreeMap<crate::analysis::value::Sym, i64>>>,
    /// Past this, no new suffix is derived (the listing is cut short).
    pub deadline: Option<std::time::Instant>,
    pub out_of_time: std::cell::Cell<bool>,
}

impl<'e> Backward<'e> {
    pub fn new(e: Explored<'e>) -> Backward<'e> {
        let p = e.cx.p;
        let mut set_ids: HashMap<Vec<NodeId>, u32> = HashMap::new();
        let mut cd_sets = Vec::new();
        let mut cd_of_node = Vec::new();
        for n in p.node_ids() {
            let mut bs: Vec<NodeId> = e.cx.a.control_deps[n.index()].iter().map(|(b, _)| *b).collect();
            bs.sort();
            bs.dedup();
            let id = *set_ids.entry(bs.clone()).or_insert_with(|| {
                cd_sets.push(bs);
                cd_sets.len() as u32 - 1
            });
            cd_of_node.push(id);
        }
        let mut unit_vars: HashMap<UnitId, Vec<VarId>> = HashMap::new();
        for n in p.node_ids() {
            if let NodeKind::Branch {
                cond: Cond::Atom(a), ..
            } = &p.node(n).kind
            {
                let vs = unit_vars.entry(p.node(n).unit).or_default();
                expr_vars(&a.lhs, vs);
                expr_vars(&a.rhs, vs);
            }
        }
        let mut global_var = vec![VarId(0); e.cx.layout.global_slots as usize];
        for &g in &p.globals {
            let off = e.cx.layout.offset[g.index()];
            for k in 0..p.var(g).slots() {
                global_var[(off + k) as usize] = g;
            }
        }
        let mut local_var = Vec::new();
        for pid in p.proc_ids() {
            let mut v = vec![VarId(0); e.cx.layout.frame_slots[pid.index()] as usize];
            for &l in &p.proc(pid).locals {
                let off = e.cx.layout.offset[l.index()];
                for k in 0..p.var(l).slots() {
                    v[(off + k) as usize] = l;
                }
            }
            local_var.push(v);
        }
        let esets = RefCell::new(Interner::default());
        esets.borrow_mut().intern(ESet::default());
        Backward {
            e,
            cd_of_node,
            cd_sets,
            unit_vars,
            global_var,
            local_var,
            esets,
            roots: RefCell::new(Interner::default()),
            feasible: RefCell::new(HashMap::new()),
            models: RefCell::new(Vec::new()),
            deadline: None,
            out_of_time: std::cell::Cell::new(false),
        }
    }

    /// Is the time for explaining up? Then new suffixes are dropped, so the
    /// fixpoint ends soon, with a listing marked incomplete.
    pub fn late(&self) -> bool {
        if self.out_of_time.get() {
            return true;
        }
        if self.deadline.is_some_and(|d| std::time::Instant::now() > d) {
            self.out_of_time.set(true);
            return true;
        }
        false
    }

    /// Can the suffix `f` hold from state `s`? Its events executed from the
    /// state's valuation (inputs, draws and abstraction symbols free) give
    /// constraints; if they have no integer solution, no run through `s`
    /// has this suffix, whatever came before. Sound to prune; "unknown"
    /// keeps the suffix.
    pub fn feasible_from(&self, s: State, f: &super::fss::Fss) -> bool {
        if let Some(&known) = self.feasible.borrow().get(&(s, f.clone())) {
            return known;
        }
        let ok = self.check_from(s, f);
        self.feasible.borrow_mut().insert((s, f.clone()), ok);
        ok
    }

    fn check_from(&self, s: State, f: &super::fss::Fss) -> bool {
        use crate::analysis::lp::{self, LpOptions, Sat};
        use crate::analysis::path::Exec;
        use crate::analysis::value::Sym;
        let e = self.e;
        let p = e.cx.p;
        let (_, n, v) = s;
        let proc = p.node(n).proc;
        let val = e.t.val(v);
        let mut globals = vec![crate::analysis::value::Value::Const(0); e.cx.layout.global_slots as usize];
        for (i, g) in e.frames.views[proc.index()].slots.iter().enumerate() {
            globals[*g as usize] = val.globals()[i].clone();
        }
        let locals: Vec<_> = val.locals().iter().cloned().collect();
        let first = val.syms().iter().map(|s| s.instance()).max().unwrap_or(0) + 1;
        let mut x = Exec::sparse_from(p, &e.cx.layout, proc, globals, locals, first);
        for fs in super::assume::focus_steps(e, f) {
            match fs.run(e, &mut x) {
                Ok(_) => {}
                Err(crate::analysis::path::PathError::Infeasible) => return false,
                // A suffix that does not execute cleanly is kept: prune only
                // what is certainly infeasible.
                Err(_) => return true,
            }
        }
        let cons: Vec<_> = x.constraints.iter().map(|c| c.c.clone()).collect();
        if cons.is_empty() {
            return true;
        }
        let range = |s: Sym| e.sym_range(s);
        if self
            .models
            .borrow()
            .iter()
            .rev()
            .any(|m| lp::satisfies(&cons, &range, m))
        {
            return true;
        }
        match lp::solve(&cons, &range, LpOptions::default()) {
            Sat::No => false,
            Sat::Yes(m) => {
                let mut models = self.models.borrow_mut();
                if models.len() >= 16 {
                    models.remove(0);
                }
                models.push(m);
                true
            }
            Sat::Unknown(_) => true,
        }
    }

    /// `a` with `ev` in front, pruned where the step adds a constraint (a
    /// branch on unknowns, an index or divisor split); elsewhere the
    /// suffixes' constraints from here are those from the next state.
    pub fn prune_step(&self, s: State, a: &super::fss::Suffixes, ev: Option<Event>) -> super::fss::Suffixes {
        if self.late() {
            return super::fss::Suffixes::default();
        }
        let b = a.prepend(ev);
        let constrains = match ev {
            Some(e) => {
                let label = self.e.t.label(e.label);
                let splits = label.0.iter().any(|d| !matches!(d, Decision::Branch(_)));
                splits || (matches!(e.kind, EvKind::Branch(_)) && !self.e.branch_known(s))
            }
            None => false,
        };
        if constrains {
            self.prune(s, b)
        } else {
            b
        }
    }

    /// The suffixes that can hold from state `s`.
    pub fn prune(&self, s: State, a: super::fss::Suffixes) -> super::fss::Suffixes {
        if self.late() {
            return super::fss::Suffixes::default();
        }
        if a.iter().all(|f| self.feasible_from(s, f)) {
            return a;
        }
        super::fss::Suffixes::from_candidates(a.iter().filter(|f| self.feasible_from(s, f)).cloned().collect())
    }

    pub fn eset(&self, id: ESetId) -> std::sync::Arc<ESet> {
        self.esets.borrow().get(id.0)
    }

    pub fn intern_eset(&self, s: ESet) -> ESetId {
        ESetId(self.esets.borrow_mut().intern(s))
    }

    pub fn root(&self, id: RootId) -> std::sync::Arc<Root> {
        self.roots.borrow().get(id.0)
    }

    pub fn intern_root(&self, r: Root) -> RootId {
        RootId(self.roots.borrow_mut().intern(r))
    }

    pub fn is_sum(&self, r: RootId) -> bool {
        matches!(*self.root(r), Root::Sum { .. })
    }

    pub fn exit_node(&self, c: CtxId) -> NodeId {
        self.e.cx.p.proc(self.e.t.ctx(c).proc).exit
    }

    fn slot_var(&self, proc: ProcId, s: VarSlot) -> VarId {
        match s {
            VarSlot::Global(g) => self.global_var[g as usize],
            VarSlot::Local(l) => self.local_var[proc.index()][l as usize],
        }
    }

    fn all_slots(&self, var: VarId, out: &mut BTreeSet<VarSlot>) {
        for k in 0..self.e.cx.p.var(var).slots() {
            out.insert(self.e.frames.slot_of(var, k));
        }
    }

    /// The value of a pure expression if it is a known constant.
    fn value_of(&self, proc: ProcId, val: &Valuation, e: &Expr) -> Option<i64> {
        match &e.kind {
            ExprKind::Const(c) => Some(*c),
            ExprKind::Var(v) => self.e.read(proc, val, *v, 0).as_const(),
            ExprKind::Elem(v, i, _) => {
                let k = self.value_of(proc, val, i)?;
                if k < 0 || k >= self.e.cx.p.var(*v).slots() as i64 {
                    return None;
                }
                self.e.read(proc, val, *v, k as u32).as_const()
            }
            ExprKind::Neg(x) => self.value_of(proc, val, x)?.checked_neg(),
            ExprKind::Conv(t, x) => i64::try_from(t.convert(self.value_of(proc, val, x)? as i128)).ok(),
            ExprKind::Checked { value, ty, .. } => {
                let v = self.value_of(proc, val, value)?;
                let (lo, hi) = ty.range();
                (lo..=hi).contains(&v).then_some(v)
            }
            ExprKind::Arith(op, a, b) => {
                let (a, b) = (self.value_of(proc, val, a)?, self.value_of(proc, val, b)?);
                match op {
                    ArithOp::Add => a.checked_add(b),
                    ArithOp::Sub => a.checked_sub(b),
                    ArithOp::Mul => a.checked_mul(b),
                }
            }
            ExprKind::Div { num, den, rem, .. } => {
                let (a, b) = (self.value_of(proc, val, num)?, self.value_of(proc, val, den)?);
                if *rem {
                    a.checked_rem(b)
                } else {
                    a.checked_div(b)
                }
            }
        }
    }

    /// The element an index names at this state: known, recorded in the
    /// step's decisions, or unknown.
    fn element(&self, proc: ProcId, val: &Valuation, idx: &Expr, site: SiteId, label: &Label) -> Option<u32> {
        let k = self.value_of(proc, val, idx).or_else(|| {
            label.0.iter().find_map(|d| match d {
                Decision::Index(s, k) if *s == site => Some(*k),
                _ => None,
            })
        })?;
        (k >= 0).then_some(k as u32)
    }

    /// The slots an expression reads at this state.
    fn reads(&self, proc: ProcId, val: &Valuation, e: &Expr, label: &Label, out: &mut BTreeSet<VarSlot>) {
        match &e.kind {
            ExprKind::Const(_) => {}
            ExprKind::Var(v) => {
                out.insert(self.e.frames.slot_of(*v, 0));
            }
            ExprKind::Elem(v, i, site) => {
                self.reads(proc, val, i, label, out);
                match self.element(proc, val, i, *site, label) {
                    Some(k) if k < self.e.cx.p.var(*v).slots() => {
                        out.insert(self.e.frames.slot_of(*v, k));
                    }
                    _ => self.all_slots(*v, out),
                }
            }
            ExprKind::Neg(x) | ExprKind::Conv(_, x) | ExprKind::Checked { value: x, .. } => {
                self.reads(proc, val, x, label, out)
            }
            ExprKind::Arith(_, a, b) => {
                self.reads(proc, val, a, label, out);
                self.reads(proc, val, b, label, out);
            }
            ExprKind::Div { num, den, .. } => {
                self.reads(proc, val, num, label, out);
                self.reads(proc, val, den, label, out);
            }
        }
    }

    /// The slots a place writes (`exact`: one slot, known), and what its
    /// index reads.
    fn writes(
        &self,
        proc: ProcId,
        val: &Valuation,
        pl: &Place,
        label: &Label,
        reads: &mut BTreeSet<VarSlot>,
    ) -> (Vec<VarSlot>, bool) {
        match &pl.index {
            None => match self.e.cx.p.var(pl.var).len {
                // A whole array (a havoc of an uninitialised local array).
                Some(_) => {
                    let mut all = BTreeSet::new();
                    self.all_slots(pl.var, &mut all);
                    (all.into_iter().collect(), true)
                }
                None => (vec![self.e.frames.slot_of(pl.var, 0)], true),
            },
            Some((i, site)) => {
                self.reads(proc, val, i, label, reads);
                match self.element(proc, val, i, *site, label) {
                    Some(k) if k < self.e.cx.p.var(pl.var).slots() => (vec![self.e.frames.slot_of(pl.var, k)], true),
                    _ => {
                        let mut all = BTreeSet::new();
                        self.all_slots(pl.var, &mut all);
                        (all.into_iter().collect(), false)
                    }
                }
            }
        }
    }

    fn add_cd(&self, n: NodeId, set: &mut ESet) {
        if !self.cd_sets[self.cd_of_node[n.index()] as usize].is_empty() {
            set.pending.insert(self.cd_of_node[n.index()]);
        }
    }

    /// Backward over an intra-activation step `s --l--> _` given the Error
    /// set after it.
    pub fn update(&self, s: State, l: LabelId, after: ESetId) -> (ESetId, Option<Event>) {
        let (c, n, v) = s;
        let p = self.e.cx.p;
        let node = p.node(n);
        let proc = node.proc;
        let val = self.e.t.val(v);
        let label = self.e.t.label(l);
        let mut set = (*self.eset(after)).clone();
        let ev = |kind| Event {
            node: n,
            kind,
            label: l,
        };
        let _ = c;
        let event = match &node.kind {
            // A draw is an assignment that reads nothing.
            NodeKind::Assign { place, .. } | NodeKind::Havoc { place, .. } => {
                let mut reads = BTreeSet::new();
                let (written, exact) = self.writes(proc, &val, place, &label, &mut reads);
                if !written.iter().any(|w| set.vars.contains(w)) {
                    None
                } else {
                    if exact {
                        for w in &written {
                            set.vars.remove(w);
                        }
                    }
                    if let NodeKind::Assign { value, .. } = &node.kind {
                        self.reads(proc, &val, value, &label, &mut reads);
                    }
                    set.vars.extend(reads);
                    self.add_cd(n, &mut set);
                    Some(ev(EvKind::Assign))
                }
            }
            NodeKind::Branch { cond, .. } => {
                let Some(Decision::Branch(b)) = label.0.last().copied() else {
                    return (after, None);
                };
                let control = set.pending.iter().any(|&k| self.cd_sets[k as usize].contains(&n));
                let potential = !control && {
                    let vars: BTreeSet<VarId> = set.vars.iter().map(|&sl| self.slot_var(proc, sl)).collect();
                    self.e
                        .cx
                        .a
                        .region_defs
                        .get(&(n, !b))
                        .is_some_and(|defs| defs.iter().any(|d| vars.contains(d)))
                };
                if !(control || potential) {
                    None
                } else {
                    set.pending.retain(|&k| !self.cd_sets[k as usize].contains(&n));
                    if let Cond::Atom(a) = cond {
                        self.reads(proc, &val, &a.lhs, &label, &mut set.vars);
                        self.reads(proc, &val, &a.rhs, &label, &mut set.vars);
                    }
                    // The whole condition's variables (operands not
                    // evaluated on this path included), as in the paper.
                    let mut more = BTreeSet::new();
                    for &var in self.unit_vars.get(&node.unit).into_iter().flatten() {
                        self.all_slots(var, &mut more);
                    }
                    set.vars.extend(more);
                    self.add_cd(n, &mut set);
                    Some(ev(EvKind::Branch(b)))
                }
            }
            NodeKind::Return { value, .. } => {
                let rv = p.proc(proc).ret_var;
                match (value, rv) {
                    (Some(e), Some(rv)) if set.vars.contains(&self.e.frames.slot_of(rv, 0)) => {
                        set.vars.remove(&self.e.frames.slot_of(rv, 0));
                        self.reads(proc, &val, e, &label, &mut set.vars);
                        self.add_cd(n, &mut set);
                        Some(ev(EvKind::Return))
                    }
                    _ => {
                        set.ret = Some((n, l));
                        None
                    }
                }
            }
            _ => None,
        };
        (self.intern_eset(set), event)
    }

    /// Where a backward walk for condition `k` starts, for an error step
    /// `s --l-->`: the Error set before the step and its event.
    pub fn error_root(&self, k: CondId, s: State, l: LabelId) -> (ESetId, Event) {
        let (_, n, v) = s;
        let p = self.e.cx.p;
        let node = p.node(n);
        let proc = node.proc;
        let val = self.e.t.val(v);
        let label = self.e.t.label(l);
        let mut set = ESet::default();
        match &self.e.cx.conds[k.0 as usize].kind {
            CondKind::Site(site) => {
                // A check inside an expression: what its index or divisor reads.
                if let Some(e) = site_operand(&node.kind, *site) {
                    self.reads(proc, &val, e, &label, &mut set.vars);
                }
            }
            CondKind::User(u) => {
                let mut written = BTreeSet::new();
                let mut reads = BTreeSet::new();
                match &node.kind {
                    NodeKind::Assign { place, value, .. } => {
                        written.extend(self.writes(proc, &val, place, &label, &mut reads).0);
                        self.reads(proc, &val, value, &label, &mut reads);
                    }
                    NodeKind::Havoc { place, .. } => {
                        written.extend(self.writes(proc, &val, place, &label, &mut reads).0)
                    }
                    _ => {}
                }
                set.vars.extend(reads);
                let mut cond_slots = BTreeSet::new();
                for &var in &u.vars {
                    self.all_slots(var, &mut cond_slots);
                }
                set.vars.extend(cond_slots.difference(&written).copied());
            }
        }
        self.add_cd(n, &mut set);
        (
            self.intern_eset(set),
            Event {
                node: n,
                kind: EvKind::Error,
                label: l,
            },
        )
    }

    /// The result slot of a call step (known after its decisions).
    fn result_slot(&self, s: State, l: LabelId) -> Option<VarSlot> {
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
        let p = self.e.cx.p;
        let callee = self.e.t.ctx(c2).proc;
        let set = self.eset(after);
        let view = &self.e.frames.views[callee.index()];
        let mut ex = ESet::default();
        for sl in &set.vars {
            if let VarSlot::Global(g) = sl {
                if view.pos.contains_key(g) {
                    ex.vars.insert(*sl);
                }
            }
        }
        let result = self.result_slot(s, l).is_some_and(|r| set.vars.contains(&r));
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
        let proc = p.node(n).proc;
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
                .filter(|sl| match sl {
                    VarSlot::Global(g) => !view.pos.contains_key(g),
                    VarSlot::Local(_) => Some(*sl) != result_slot.filter(|_| result),
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
        let _ = proc;
        (self.intern_eset(before), pre, post)
    }

    /// The parameters that matter at the callee's entry, and what their
    /// arguments read.
    fn param_reads(&self, s: State, l: LabelId, callee: ProcId, at_entry: &ESet) -> (Vec<u32>, BTreeSet<VarSlot>) {
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

/// Calls `f` on every expression a node evaluates.
pub fn visit_node_exprs<'k>(kind: &'k NodeKind, f: &mut dyn FnMut(&'k Expr)) {
    let place = |pl: &'k Place, f: &mut dyn FnMut(&'k Expr)| {
        if let Some((i, _)) = &pl.index {
            f(i);
        }
    };
    match kind {
        NodeKind::Assign { place: pl, value, .. } => {
            f(value);
            place(pl, f);
        }
        NodeKind::Havoc { place: pl, .. } => place(pl, f),
        NodeKind::Branch {
            cond: Cond::Atom(a), ..
        } => {
            f(&a.lhs);
            f(&a.rhs);
        }
        NodeKind::Call { args, result, .. } => {
            for a in args {
                f(a);
            }
            if let Some(pl) = result {
                place(pl, f);
            }
        }
        NodeKind::Return { value: Some(e), .. } => f(e),
        _ => {}
    }
}

/// The index (bounds site) or divisor (division site) checked at `site` in
/// a node.
fn site_operand(kind: &NodeKind, site: SiteId) -> Option<&Expr> {
    let written = match kind {
        NodeKind::Assign { place, .. } | NodeKind::Havoc { place, .. } => Some(place),
        NodeKind::Call {
            result: Some(place), ..
        } => Some(place),
        _ => None,
    };
    if let Some((i, _)) = written.and_then(|pl| pl.index.as_ref()).filter(|(_, s)| *s == site) {
        return Some(i.as_ref());
    }
    let mut found = None;
    visit_node_exprs(kind, &mut |e| {
        if found.is_none() {
            find_site(e, site, &mut found);
        }
    });
    found
}

/// The index (bounds site), divisor (division site) or checked value
/// (overflow site) of `site` in `e`.
fn find_site<'x>(e: &'x Expr, site: SiteId, found: &mut Option<&'x Expr>) {
    match &e.kind {
        ExprKind::Elem(_, i, s) => {
            if *s == site {
                *found = Some(i);
            }
            find_site(i, site, found);
        }
        ExprKind::Div { num, den, site: s, .. } => {
            if *s == site {
                *found = Some(den);
            }
            find_site(num, site, found);
            find_site(den, site, found);
        }
        ExprKind::Neg(x) | ExprKind::Conv(_, x) => find_site(x, site, found),
        ExprKind::Checked { value, site: s, .. } => {
            if *s == site {
                *found = Some(value);
            }
            find_site(value, site, found);
        }
        ExprKind::Arith(_, a, b) => {
            find_site(a, site, found);
            find_site(b, site, found);
        }
        ExprKind::Const(_) | ExprKind::Var(_) => {}
    }
}
