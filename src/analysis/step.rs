//! Abstract transfer functions inside an activation, called from the
//! forward rules: the successors of a state (calls excepted: see
//! `calls.rs`), errors, and user conditions a write may violate.
//!
//! Every function here returns the same result for the same state whatever
//! order the rules are evaluated in: it reads the program context, the
//! state and the run's budget, and nothing a previous call left behind
//! (see `run.rs` for the budget, `widen.rs` for loops).

use super::eval::{Evaluator, Mode};
use super::explore::State;
use super::frames::{taken_of, AbsEnv, Frames, Taken};
use super::run::{ReadMemory, Run, ERROR_REACHED};
use super::state::*;
use super::value::{Constraint, Sym, Truth, Value};
use super::widen::LoopFacts;
use crate::context::conditions::CondId;
use crate::context::Context;
use crate::ir::*;
use std::collections::BTreeSet;
use std::time::Duration;

/// `--unroll` when not given.
pub const DEFAULT_UNROLL: u32 = 10;

/// `--max-states` when not given.
pub const DEFAULT_MAX_STATES: u64 = 2_000_000;

#[derive(Clone, Debug)]
pub struct Options {
    /// Different valuations a loop head takes (per path through the loop)
    /// before new values are widened; also the depth of recursion before
    /// widening.
    pub unroll: u32,
    /// Reuse procedure summaries (`false`: inline every call).
    pub summaries: bool,
    pub max_states: u64,
    pub timeout: Option<Duration>,
    /// A resident memory limit in bytes, and how to read the process's
    /// resident memory (the caller does the IO).
    pub memory: Option<(u64, ReadMemory)>,
    /// Loops are never widened and valuations carry no loop bookkeeping:
    /// the state space is the program's own (see `explore::EXACT_STATES`).
    pub exact_loops: bool,
    /// The run stops at the first error state it reaches (the exact pass:
    /// `explore_exact_first` says when its graph is kept).
    pub stop_at_error: bool,
    /// A branch that pins an input to a constant narrows the variables it
    /// reads (`Explorer::narrow`; the exact first pass): an `Exec` of the
    /// graph's paths narrows alike (`Exploration::narrowed`).
    pub narrow: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            unroll: DEFAULT_UNROLL,
            summaries: true,
            max_states: DEFAULT_MAX_STATES,
            timeout: None,
            memory: None,
            exact_loops: false,
            stop_at_error: false,
            narrow: false,
        }
    }
}

/// Where a step goes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Node(NodeId, ValId),
    /// The step violates a condition (a run-time error ends the run; a user
    /// condition is also continued as a `Node` target).
    Error(CondId),
}

/// What the forward rules read: the program context, the shape of
/// valuations, the loops, the options and the run's state.
pub struct Explorer<'a> {
    pub cx: &'a Context<'a>,
    pub frames: &'a Frames,
    pub loops: &'a LoopFacts,
    /// The constants each procedure's code writes (`calls::literals`).
    pub literals: &'a [BTreeSet<i64>],
    pub opts: &'a Options,
    pub run: &'a Run<'a>,
}

impl Explorer<'_> {
    /// The initial state: the entry procedure with inputs as symbols.
    pub fn initial(&self) -> State {
        let p = self.cx.p;
        let start = self.run.t.intern_val(self.frames.initial(self.cx));
        let ctx = self.run.t.intern_ctx(CtxKey {
            proc: p.entry,
            start,
            depth: 0,
            caller: None,
        });
        let s = (ctx, p.proc(p.entry).entry, start);
        self.run.admit(s);
        s
    }

    pub fn start_of(&self, c: CtxId) -> (NodeId, ValId) {
        let k = self.run.t.ctx(c);
        (self.cx.p.proc(k.proc).entry, k.start)
    }

    pub fn is_exit(&self, n: NodeId) -> bool {
        matches!(self.cx.p.node(n).kind, NodeKind::Exit)
    }

    pub fn is_call(&self, n: NodeId) -> bool {
        matches!(self.cx.p.node(n).kind, NodeKind::Call { .. })
    }

    pub(super) fn env<'e>(&'e self, c: CtxId, proc: ProcId, val: &'e Valuation) -> AbsEnv<'e> {
        AbsEnv::new(self.frames, &self.run.t, c, proc, val)
    }

    pub(super) fn label(&self, d: Vec<Decision>) -> LabelId {
        self.run.t.intern_label(Label(d))
    }

    fn error_target(&self, d: Vec<Decision>, site: SiteId) -> (LabelId, Target) {
        let cond = self.cx.cond_of_site[site.index()].expect("every site of a reachable procedure has a condition");
        (self.label(d), Target::Error(cond))
    }

    /// A step to `(c, to, w)`, if the state is admitted to the graph.
    pub(super) fn step_to(&self, c: CtxId, d: Vec<Decision>, to: NodeId, w: ValId, out: &mut Vec<(LabelId, Target)>) {
        if self.run.admit((c, to, w)) {
            out.push((self.label(d), Target::Node(to, w)));
        }
    }

    /// Successors of a state (calls excepted: see `calls` and `returns`).
    pub fn transitions(&self, c: CtxId, n: NodeId, v: ValId) -> Vec<(LabelId, Target)> {
        if self.run.stopped() {
            return Vec::new();
        }
        let p = self.cx.p;
        let node = p.node(n);
        let proc = node.proc;
        let val = self.run.t.val(v);
        let mut out = Vec::new();
        match &node.kind {
            NodeKind::Assign { place, value, next } => {
                let mut env = self.env(c, proc, &val);
                let values = Evaluator {
                    p,
                    env: &mut env,
                    mode: Mode::All,
                    node: n,
                }
                .expr(value);
                for o in values {
                    match o.result {
                        Err(site) => out.push(self.error_target(o.decisions, site)),
                        Ok(x) => {
                            let val = self.bounded(&val, &o.constraints);
                            self.assign(c, proc, n, &val, place, o.decisions, Some(x), *next, &mut out)
                        }
                    }
                }
            }
            NodeKind::Havoc { place, next, .. } => self.assign(c, proc, n, &val, place, vec![], None, *next, &mut out),
            NodeKind::Branch { cond, then_, else_ } => {
                let outcomes = match cond {
                    Cond::Nondet => vec![(vec![], vec![], Ok(None))],
                    Cond::Atom(a) => {
                        let mut env = self.env(c, proc, &val);
                        Evaluator {
                            p,
                            env: &mut env,
                            mode: Mode::All,
                            node: n,
                        }
                        .atom(a)
                        .into_iter()
                        .map(|o| (o.decisions, o.constraints, o.result.map(Some)))
                        .collect()
                    }
                };
                // `None`: a non-deterministic choice, both outcomes possible.
                for (decisions, constraints, r) in outcomes {
                    match r {
                        Err(site) => out.push(self.error_target(decisions, site)),
                        Ok(truth) => {
                            let known = match &truth {
                                Some(Truth::Known(b)) => Some(*b),
                                _ => None,
                            };
                            for (b, to) in [(true, *then_), (false, *else_)] {
                                if known.is_some_and(|k| k != b) {
                                    continue;
                                }
                                let mut w = self.bounded(&val, &constraints).into_owned();
                                if let (Some(Truth::Depends(t)), Cond::Atom(a)) = (&truth, cond) {
                                    self.narrow(proc, a, t, b, &mut w);
                                }
                                let w = self.advance(c, proc, n, to, w, known.is_none());
                                let mut d = decisions.clone();
                                d.push(Decision::Branch(b));
                                self.step_to(c, d, to, w, &mut out);
                            }
                        }
                    }
                }
            }
            NodeKind::Return { value, next } => match (value, p.proc(proc).ret_var) {
                (Some(e), Some(rv)) => {
                    let mut env = self.env(c, proc, &val);
                    let values = Evaluator {
                        p,
                        env: &mut env,
                        mode: Mode::All,
                        node: n,
                    }
                    .expr(e);
                    for o in values {
                        match o.result {
                            Err(site) => out.push(self.error_target(o.decisions, site)),
                            Ok(x) => {
                                let mut w = (*val).clone();
                                self.frames.write(proc, &mut w, rv, 0, x);
                                let w = self.advance(c, proc, n, *next, w, false);
                                self.step_to(c, o.decisions, *next, w, &mut out);
                            }
                        }
                    }
                }
                _ => {
                    let w = self.advance(c, proc, n, *next, (*val).clone(), false);
                    self.step_to(c, vec![], *next, w, &mut out);
                }
            },
            NodeKind::Skip { next } => {
                let w = self.advance(c, proc, n, *next, (*val).clone(), false);
                self.step_to(c, vec![], *next, w, &mut out);
            }
            NodeKind::Error { site } => out.push(self.error_target(vec![], *site)),
            NodeKind::Call { .. } => {
                // Errors while evaluating the arguments; the calls themselves
                // come from `calls`.
                for o in self.call_outcomes(c, n, &val, None) {
                    if let Err(site) = o.result {
                        out.push(self.error_target(o.decisions, site));
                    }
                }
            }
            NodeKind::Halt | NodeKind::Exit => {}
        }
        // A failure that is an assumption ends the path without error.
        out.retain(|(_, t)| !matches!(t, Target::Error(k) if self.cx.cond(*k).cut));
        self.stop_if_error(&out);
        out
    }

    /// With `stop_at_error`, an error among the successors stops the run.
    pub(super) fn stop_if_error(&self, out: &[(LabelId, Target)]) {
        if self.opts.stop_at_error && out.iter().any(|(_, t)| matches!(t, Target::Error(_))) {
            self.run.raise(ERROR_REACHED);
        }
    }

    /// Narrows at a branch outcome (`narrow.rs`), so that later tests of
    /// a pinned input are decided in the graph instead of left to the
    /// counterexample search (a state machine's `else if` chain over its
    /// input would otherwise keep every infeasible detour). Other slots
    /// that hold the symbol keep it: the path's constraints still pin it.
    /// Only under `Options::narrow`; a path of such a graph is re-executed
    /// by an `Exec` that narrows too (`Exec::narrowing`).
    fn narrow(&self, proc: ProcId, a: &Atom, t: &Constraint, b: bool, w: &mut Valuation) {
        if !self.opts.narrow {
            return;
        }
        self.tighten(w, &if b { t.clone() } else { t.negate() });
        let Some((s, k, vars)) = super::narrow::pins(self.cx, a, t, b) else {
            return;
        };
        for v in vars {
            if let Some(to) = super::narrow::substitute(&self.frames.read(proc, w, v, 0), s, k) {
                self.frames.write(proc, w, v, 0, to);
            }
        }
    }

    /// `val` with the bounds the constraints of an outcome give its
    /// symbols (under `Options::narrow`; `bounds.rs`).
    fn bounded<'v>(&self, val: &'v Valuation, cs: &[Constraint]) -> std::borrow::Cow<'v, Valuation> {
        if !self.opts.narrow || cs.is_empty() {
            return std::borrow::Cow::Borrowed(val);
        }
        let mut w = val.clone();
        for c in cs {
            self.tighten(&mut w, c);
        }
        std::borrow::Cow::Owned(w)
    }

    /// Narrows the bounds of the one symbol `c` constrains, if it is one.
    fn tighten(&self, w: &mut Valuation, c: &Constraint) {
        let Some(&(s, _)) = c.e.terms.first() else {
            return;
        };
        let from = w.bound(s).unwrap_or_else(|| s.range(self.cx));
        if let Some((s, b)) = super::bounds::tighten(c, from) {
            w.set_bound(s, b);
        }
    }

    /// Writes `x` (fresh draws when `None`) to the place, then checks user
    /// conditions and moves on.
    #[allow(clippy::too_many_arguments)]
    fn assign(
        &self,
        c: CtxId,
        proc: ProcId,
        n: NodeId,
        val: &Valuation,
        place: &Place,
        decisions: Vec<Decision>,
        x: Option<Value>,
        next: NodeId,
        out: &mut Vec<(LabelId, Target)>,
    ) {
        // Past the state budget a write can only lead to a state already in
        // the graph, but a write at an unknown index into a large array
        // would first build (and intern) a copy of the state per element:
        // 10,000 elements from 10,000 states took 12 GB. Such a write is
        // not expanded any more, and the run says it was cut.
        if self.run.full() && self.splits(c, proc, n, val, place) {
            self.run.refuse();
            return;
        }
        let mut env = self.env(c, proc, val);
        let slots = Evaluator {
            p: self.cx.p,
            env: &mut env,
            mode: Mode::All,
            node: n,
        }
        .place(place);
        for s in slots {
            // An unknown index into a large array splits over every element,
            // each a copy of the state: stop as soon as the budget says so
            // (the run is then cut, and says so).
            if self.run.stopped() {
                return;
            }
            let mut d = decisions.clone();
            d.extend(s.decisions.iter().copied());
            match s.result {
                Err(site) => out.push(self.error_target(d, site)),
                Ok((var, k)) => {
                    let mut w = val.clone();
                    match &x {
                        Some(x) => self.frames.write(proc, &mut w, var, k, x.clone()),
                        None => self.havoc(c, n, &mut w, place, var, k),
                    }
                    self.violations(c, n, &w, &[var], &d, out);
                    let w = self.advance(c, proc, n, next, w, false);
                    self.step_to(c, d, next, w, out);
                }
            }
        }
    }

    /// Whether a write to `place` splits over elements: its index is not
    /// one constant.
    fn splits(&self, c: CtxId, proc: ProcId, n: NodeId, val: &Valuation, place: &Place) -> bool {
        let Some((idx, _)) = &place.index else {
            return false;
        };
        let mut env = self.env(c, proc, val);
        let index = Evaluator {
            p: self.cx.p,
            env: &mut env,
            mode: Mode::All,
            node: n,
        }
        .expr(idx);
        index
            .iter()
            .any(|o| matches!(&o.result, Ok(v) if v.as_const().is_none()))
    }

    /// Gives the place (a whole array when unindexed) fresh draws.
    fn havoc(&self, c: CtxId, n: NodeId, w: &mut Valuation, place: &Place, var: VarId, k: u32) {
        let p = self.cx.p;
        let proc = p.node(n).proc;
        let elems: Vec<u32> = match (&place.index, p.var(var).len) {
            (None, Some(len)) => (0..len).collect(),
            _ => vec![k],
        };
        // The old values go first, so their symbols can be reused.
        for &e in &elems {
            self.frames.write(proc, w, var, e, Value::Const(0));
        }
        let family = Sym::Draw(n, 0);
        let mut taken = Taken::new(taken_of(&self.run.t, c, w, &|f| f == family));
        for e in elems {
            let s = taken.make(family);
            w.forget(s);
            self.frames.write(proc, w, var, e, Value::sym(s));
        }
    }

    /// Error targets for user conditions that may hold after `n` wrote
    /// `written` (the run also goes on).
    pub(super) fn violations(
        &self,
        c: CtxId,
        n: NodeId,
        w: &Valuation,
        written: &[VarId],
        d: &[Decision],
        out: &mut Vec<(LabelId, Target)>,
    ) {
        let proc = self.cx.p.node(n).proc;
        let mut seen = BTreeSet::new();
        for var in written {
            for &k in self.cx.conds_of_var.get(var).into_iter().flatten() {
                if !seen.insert(k) {
                    continue;
                }
                let cond = self.cx.cond(k);
                let user = cond.user().expect("only user conditions read variables");
                if user.proc.is_some_and(|cp| cp != proc) {
                    continue;
                }
                for (j, disjunct) in cond.dnf.iter().enumerate() {
                    if self.disjunct_may_hold(c, proc, n, w, disjunct) {
                        let mut d = d.to_vec();
                        d.push(Decision::Violates(k, j as u32));
                        out.push((self.label(d), Target::Error(k)));
                    }
                }
            }
        }
    }

    fn disjunct_may_hold(&self, c: CtxId, proc: ProcId, n: NodeId, w: &Valuation, disjunct: &[(Atom, bool)]) -> bool {
        let mut env = self.env(c, proc, w);
        for (atom, pos) in disjunct {
            let outs = Evaluator {
                p: self.cx.p,
                env: &mut env,
                mode: Mode::All,
                node: n,
            }
            .atom(atom);
            let possible = outs.iter().any(|o| match &o.result {
                Ok(Truth::Known(b)) => b == pos,
                Ok(Truth::Depends(_)) => true,
                Err(_) => false,
            });
            if !possible {
                return false;
            }
        }
        true
    }
}
