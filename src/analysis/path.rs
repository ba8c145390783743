//! Exact symbolic execution of one path.
//!
//! A path is the sequence of nodes a run executes, each with the decisions
//! the abstract graph recorded for it. Re-executing it without widening and
//! with one symbol per draw gives the path's exact constraints; their
//! integer solutions are inputs and choices that drive the concrete
//! interpreter down the same path.

use super::calls::call_outcomes;
use super::eval::{Evaluator, Mode, SymEnv};
use super::state::Decision;
use super::value::{AlphaDef, AlphaKey, Constraint, Sym, Truth, Value};
use crate::context::conditions::CondId;
use crate::context::conditions::Condition;
use crate::context::Context;
use crate::ir::*;

/// One executed node and its decisions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathStep {
    pub node: NodeId,
    pub decisions: Vec<Decision>,
}

/// Why a constraint is on the path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A branch atom evaluated to `outcome`.
    Branch(bool),
    /// An array index named an element (or left the bounds).
    Index,
    /// A divisor was zero or not.
    Divisor,
    /// The result of a conversion (`r = v - 2^N q`, `r` in range): a
    /// definition, not a choice the path made.
    Conversion,
    /// The error condition holds.
    Condition,
}

#[derive(Clone, Debug)]
pub struct PathConstraint {
    pub c: Constraint,
    /// Index of the step in the path.
    pub step: usize,
    pub node: NodeId,
    pub origin: Origin,
}

/// A value the interpreter will ask for, in order.
#[derive(Clone, Debug)]
pub enum Choice {
    /// `if (*)`: the branch taken.
    Branch(bool),
    /// A drawn value: its symbol and the range of its type.
    Draw(Sym, (i64, i64)),
}

#[derive(Clone)]
struct Frame {
    proc: ProcId,
    locals: im::Vector<Value>,
    /// The call node and where its result goes.
    ret: Option<(NodeId, Option<(VarId, u32)>)>,
}

/// The state of an exact execution, cheap enough to clone at branch points
/// of a search: what grows along a path is persistent, so a clone shares
/// it with the path it was taken from (a search keeps one clone per open
/// branch; with copied vectors, a deep search's memory grew with the square
/// of its depth).
#[derive(Clone)]
pub struct Exec<'a> {
    p: &'a Program,
    layout: &'a Layout,
    globals: im::Vector<Value>,
    frames: Vec<Frame>,
    counter: u32,
    pub constraints: im::Vector<PathConstraint>,
    pub choices: im::Vector<Choice>,
    pub steps: usize,
    /// The node the path must execute next (checked, to catch bad paths).
    expected: Option<NodeId>,
    /// A non-linear operation made an abstraction symbol.
    pub has_alpha: bool,
    /// Each abstraction symbol made, in order, with what it stands for.
    pub alphas: im::Vector<(Sym, AlphaDef)>,
    /// Steps may skip nodes (executing a focus-statement sequence, not a
    /// whole path): control flow is not checked.
    sparse: bool,
    /// Narrows at branches as the graph whose path this is did
    /// (`narrow.rs`); `None` for a graph explored without narrowing.
    narrow: Option<&'a Context<'a>>,
}

/// What of a call matters to a focus-statement sequence: the parameters
/// passed (by number) and whether the result is assigned. The other
/// arguments read variables the sequence does not keep up to date, so a
/// sparse execution does not evaluate them: they pass unconstrained values.
#[derive(Clone, Copy, Debug)]
pub struct CallFocus<'f> {
    pub params: &'f [u32],
    pub result: bool,
}

/// Why a path cannot be executed as given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PathError {
    /// A recorded decision contradicts a known value.
    Infeasible,
    /// The path does not follow the program's control flow (a bug).
    Malformed(String),
}

/// `n` slots holding 0.
pub fn zeros(n: u32) -> im::Vector<Value> {
    std::iter::repeat_n(Value::Const(0), n as usize).collect()
}

struct ExactEnv<'x, 'a> {
    x: &'x mut Exec<'a>,
}

impl SymEnv for ExactEnv<'_, '_> {
    fn read(&self, var: VarId, index: u32) -> Value {
        self.x.read(var, index)
    }

    fn fresh_alpha(&mut self, node: NodeId, def: AlphaDef) -> Sym {
        self.x.counter += 1;
        self.x.has_alpha = true;
        let s = Sym::Alpha(AlphaKey::Op(node), self.x.counter);
        self.x.alphas.push_back((s, def));
        s
    }
}

impl<'a> Exec<'a> {
    /// The start of a run: inputs as symbols, constants as themselves.
    pub fn new(p: &'a Program, layout: &'a Layout) -> Exec<'a> {
        let mut globals: im::Vector<Value> = zeros(layout.global_slots);
        for &g in &p.globals {
            if let VarInit::Values(vals) = &p.var(g).init {
                let off = layout.offset[g.index()] as usize;
                for (k, v) in vals.iter().enumerate() {
                    globals[off + k] = Value::Const(*v);
                }
            }
        }
        let entry = p.proc(p.entry);
        let mut x = Exec {
            p,
            layout,
            globals,
            frames: vec![Frame {
                proc: p.entry,
                locals: zeros(layout.frame_slots[p.entry.index()]),
                ret: None,
            }],
            counter: 0,
            constraints: im::Vector::new(),
            choices: im::Vector::new(),
            steps: 0,
            expected: Some(entry.entry),
            has_alpha: false,
            alphas: im::Vector::new(),
            sparse: false,
            narrow: None,
        };
        for (k, s) in p.input_slots().iter().enumerate() {
            x.write(s.var, s.index.unwrap_or(0), Value::sym(Sym::Input(k as u32)));
        }
        x
    }

    /// An execution of a focus-statement sequence: only the statements that
    /// matter are executed; the others cannot change what they compute.
    pub fn sparse(p: &'a Program, layout: &'a Layout) -> Exec<'a> {
        let mut x = Exec::new(p, layout);
        x.sparse = true;
        x
    }

    /// A sparse execution starting in the middle of a run: procedure `proc`
    /// with the given global and frame values (symbols in them are free).
    /// New symbols are numbered above `first_instance` so they cannot clash.
    pub fn sparse_from(
        p: &'a Program,
        layout: &'a Layout,
        proc: ProcId,
        globals: im::Vector<Value>,
        locals: im::Vector<Value>,
        first_instance: u32,
    ) -> Exec<'a> {
        // Built directly: the start state is given, so the entry's inputs
        // need not be laid out (this runs for every suffix the backward
        // phase prunes).
        Exec {
            p,
            layout,
            globals,
            frames: vec![Frame {
                proc,
                locals,
                ret: None,
            }],
            counter: first_instance,
            constraints: im::Vector::new(),
            choices: im::Vector::new(),
            steps: 0,
            expected: None,
            has_alpha: false,
            alphas: im::Vector::new(),
            sparse: true,
            narrow: None,
        }
    }

    /// The same execution, narrowing at branches as a graph explored with
    /// `Options::narrow` did (given its context), or not (`None`).
    pub fn narrowing(mut self, cx: Option<&'a Context<'a>>) -> Exec<'a> {
        self.narrow = cx;
        self
    }

    /// Narrows the variables `a` reads where the outcome `taken` of `t`
    /// pins a symbol (`narrow::pins`).
    fn narrow(&mut self, a: &Atom, t: &Truth, taken: bool) {
        let (Some(cx), Truth::Depends(c)) = (self.narrow, t) else {
            return;
        };
        let Some((s, k, vars)) = super::narrow::pins(cx, a, c, taken) else {
            return;
        };
        for v in vars {
            if let Some(to) = super::narrow::substitute(&self.read(v, 0), s, k) {
                self.write(v, 0, to);
            }
        }
    }

    /// The value of a pure expression in the current state, if evaluating it
    /// needs no decision.
    pub fn value_of(&mut self, node: NodeId, e: &Expr) -> Option<Value> {
        let mut cur = 0;
        match self.eval(node, &[], &mut cur, |ev| ev.expr(e)) {
            Ok(Ok(v)) => Some(v),
            _ => None,
        }
    }

    pub fn read(&self, var: VarId, index: u32) -> Value {
        let off = (self.layout.offset[var.index()] + index) as usize;
        if self.p.var(var).is_global_storage() {
            self.globals[off].clone()
        } else {
            self.frames.last().map(|f| f.locals[off].clone()).unwrap_or_default()
        }
    }

    fn write(&mut self, var: VarId, index: u32, v: Value) {
        let off = (self.layout.offset[var.index()] + index) as usize;
        if self.p.var(var).is_global_storage() {
            self.globals.set(off, v);
        } else if let Some(f) = self.frames.last_mut() {
            f.locals.set(off, v);
        }
    }

    fn draw(&mut self, node: NodeId, ty: crate::ir::IntType) -> Value {
        self.counter += 1;
        let s = Sym::Draw(node, self.counter);
        self.choices.push_back(Choice::Draw(s, ty.range()));
        Value::sym(s)
    }

    fn constrain(&mut self, t: Truth, want: bool, node: NodeId, origin: Origin) -> Result<(), PathError> {
        match t {
            Truth::Known(b) if b == want => Ok(()),
            Truth::Known(_) => Err(PathError::Infeasible),
            Truth::Depends(c) => {
                let c = if want { c } else { c.negate() };
                self.constraints.push_back(PathConstraint {
                    c,
                    step: self.steps,
                    node,
                    origin,
                });
                Ok(())
            }
        }
    }

    /// Evaluates with the path's decisions; records the constraints.
    fn eval<T>(
        &mut self,
        node: NodeId,
        decisions: &[Decision],
        cursor: &mut usize,
        f: impl FnOnce(&mut Evaluator) -> Vec<super::eval::Outcome<T>>,
    ) -> Result<Result<T, SiteId>, PathError> {
        let p = self.p;
        let mut env = ExactEnv { x: self };
        let mut ev = Evaluator {
            p,
            env: &mut env,
            mode: Mode::Follow(decisions, cursor),
            node,
        };
        let mut outs = f(&mut ev);
        if outs.len() != 1 {
            return Err(if outs.is_empty() {
                PathError::Infeasible
            } else {
                PathError::Malformed(format!("ambiguous decisions at {node}"))
            });
        }
        let o = outs.pop().expect("one outcome");
        let steps = self.steps;
        for c in o.constraints {
            let origin = Self::origin(&o.decisions);
            self.constraints.push_back(PathConstraint {
                c,
                step: steps,
                node,
                origin,
            });
        }
        Ok(o.result)
    }

    /// Why an evaluation outcome's constraints are on the path: a split's
    /// decision, or else a conversion's definition.
    fn origin(decisions: &[Decision]) -> Origin {
        if decisions.is_empty() {
            Origin::Conversion
        } else if decisions.iter().any(|d| matches!(d, Decision::DivZero(..))) {
            Origin::Divisor
        } else {
            Origin::Index
        }
    }

    /// A 128-bit hash of what steps read: the values, the frames and the
    /// next fresh symbol. Two executions with one key add the same
    /// constraints on the same steps (the constraints they already have do
    /// not matter).
    pub fn store_key(&self) -> u128 {
        use std::hash::Hash;
        let mut h = super::hash::Wide::default();
        self.counter.hash(&mut h);
        self.globals.hash(&mut h);
        for f in &self.frames {
            (f.proc, f.ret, &f.locals).hash(&mut h);
        }
        h.finish128()
    }

    /// Hashes the store as `store_key` does, but each symbol as `sym`
    /// describes it (not by its name): two stores whose symbols are
    /// described alike hash alike, whichever draw made them.
    pub fn hash_store_by(&self, h: &mut impl std::hash::Hasher, sym: &dyn Fn(Sym, &mut dyn std::hash::Hasher)) {
        use std::hash::Hash;
        let value = |v: &Value, h: &mut dyn std::hash::Hasher| match v {
            Value::Const(c) => (0u8, c).hash(&mut HashTo(h)),
            Value::Lin(l) => {
                (1u8, l.c, l.terms.len()).hash(&mut HashTo(h));
                for (s, k) in &l.terms {
                    k.hash(&mut HashTo(h));
                    sym(*s, h);
                }
            }
        };
        for v in &self.globals {
            value(v, h);
        }
        for f in &self.frames {
            (f.proc, f.ret, f.locals.len()).hash(&mut HashTo(h));
            for v in &f.locals {
                value(v, h);
            }
        }
    }

    /// Executes one step. `Ok(Some(site))` when the step stops at an error
    /// site; `Ok(None)` otherwise.
    pub fn step(&mut self, step: &PathStep, conds: &[Condition]) -> Result<Option<SiteId>, PathError> {
        self.step_focus(step, None, conds)
    }

    /// [`Exec::step`] for a focus event: a call evaluates only what `focus`
    /// names.
    pub fn step_focus(
        &mut self,
        step: &PathStep,
        focus: Option<CallFocus>,
        conds: &[Condition],
    ) -> Result<Option<SiteId>, PathError> {
        let p = self.p;
        let n = step.node;
        if !self.sparse && self.expected.is_some_and(|e| e != n) {
            return Err(PathError::Malformed(format!("expected {:?}, got {n}", self.expected)));
        }
        let node = p.node(n);
        if self.frames.last().map(|f| f.proc) != Some(node.proc) {
            return Err(PathError::Malformed(format!("{n} is not in the current procedure")));
        }
        let ds = &step.decisions;
        let mut cur = 0;
        let mut stop = None;
        let next = match &node.kind {
            NodeKind::Assign { place, value, next } => {
                match self.eval(n, ds, &mut cur, |ev| ev.expr(value))? {
                    Err(site) => stop = Some(site),
                    Ok(x) => match self.eval(n, ds, &mut cur, |ev| ev.place(place))? {
                        Err(site) => stop = Some(site),
                        Ok((var, k)) => self.write(var, k, x),
                    },
                }
                Some(*next)
            }
            NodeKind::Havoc { place, ty, next } => {
                match self.eval(n, ds, &mut cur, |ev| ev.place(place))? {
                    Err(site) => stop = Some(site),
                    Ok((var, k)) => {
                        let elems: Vec<u32> = match (&place.index, p.var(var).len) {
                            (None, Some(len)) => (0..len).collect(),
                            _ => vec![k],
                        };
                        for e in elems {
                            let d = self.draw(n, *ty);
                            self.write(var, e, d);
                        }
                    }
                }
                Some(*next)
            }
            NodeKind::Branch { cond, then_, else_ } => {
                let Some(Decision::Branch(b)) = ds.last().copied() else {
                    // No outcome: the atom's evaluation failed (an index or
                    // a divisor), and the step ends at that error.
                    let failed = match cond {
                        Cond::Atom(a) => self.eval(n, ds, &mut cur, |ev| ev.atom(a))?.err(),
                        Cond::Nondet => None,
                    };
                    let Some(site) = failed else {
                        return Err(PathError::Malformed(format!("branch {n} without an outcome")));
                    };
                    self.expected = None;
                    self.steps += 1;
                    return Ok(Some(site));
                };
                match cond {
                    Cond::Nondet => self.choices.push_back(Choice::Branch(b)),
                    Cond::Atom(a) => match self.eval(n, &ds[..ds.len() - 1], &mut cur, |ev| ev.atom(a))? {
                        Err(site) => stop = Some(site),
                        Ok(t) => {
                            self.narrow(a, &t, b);
                            self.constrain(t, b, n, Origin::Branch(b))?
                        }
                    },
                }
                Some(if b { *then_ } else { *else_ })
            }
            NodeKind::Call {
                callee, args, result, ..
            } => {
                // Arguments that do not matter: a placeholder, without their decisions.
                let skip = |i: usize| focus.is_some_and(|f| !f.params.contains(&(i as u32)));
                let result = result.as_ref().filter(|_| focus.is_none_or(|f| f.result));
                let (args, ds) = match focus {
                    None => (std::borrow::Cow::Borrowed(args), std::borrow::Cow::Borrowed(ds)),
                    Some(_) => {
                        let mut dropped = Vec::new();
                        let mut kept = Vec::new();
                        for (i, a) in args.iter().enumerate() {
                            if skip(i) {
                                a.sites(&mut dropped);
                                kept.push(Expr {
                                    kind: ExprKind::Const(0),
                                    span: a.span,
                                });
                            } else {
                                kept.push(a.clone());
                            }
                        }
                        if let (None, NodeKind::Call { result: Some(pl), .. }) = (result, &node.kind) {
                            dropped.extend(pl.index.as_ref().map(|(_, site)| *site));
                            if let Some((i, _)) = &pl.index {
                                i.sites(&mut dropped);
                            }
                        }
                        let ds = ds
                            .iter()
                            .copied()
                            .filter(|d| match d {
                                Decision::Index(s, _) | Decision::DivZero(s, _) | Decision::Overflow(s, _) => {
                                    !dropped.contains(s)
                                }
                                _ => true,
                            })
                            .collect::<Vec<_>>();
                        (std::borrow::Cow::Owned(kept), std::borrow::Cow::Owned(ds))
                    }
                };
                let mut outs = {
                    let mut env = ExactEnv { x: self };
                    call_outcomes(p, &mut env, n, &args, result, Some((&ds, &mut cur)))
                };
                if outs.len() != 1 {
                    return Err(PathError::Infeasible);
                }
                let o = outs.pop().expect("one outcome");
                let origin = Self::origin(&o.decisions);
                for c in o.constraints {
                    self.constraints.push_back(PathConstraint {
                        c,
                        step: self.steps,
                        node: n,
                        origin,
                    });
                }
                match o.result {
                    Err(site) => stop = Some(site),
                    Ok((mut vals, res)) => {
                        for (i, v) in vals.iter_mut().enumerate() {
                            if skip(i) {
                                *v = Value::sym(ExactEnv { x: self }.fresh_alpha(n, AlphaDef::Opaque));
                            }
                        }
                        let cp = p.proc(*callee);
                        let mut locals = zeros(self.layout.frame_slots[callee.index()]);
                        for (param, v) in cp.params.iter().zip(vals) {
                            locals.set(self.layout.offset[param.index()] as usize, v);
                        }
                        self.frames.push(Frame {
                            proc: *callee,
                            locals,
                            ret: Some((n, res)),
                        });
                        if *callee == p.entry {
                            for &l in &cp.locals {
                                if p.var(l).kind == VarKind::Local && p.var(l).init == VarInit::Input {
                                    for k in 0..p.var(l).slots() {
                                        let d = self.draw(n, p.var(l).ty);
                                        self.write(l, k, d);
                                    }
                                }
                            }
                        }
                    }
                }
                Some(p.proc(*callee).entry)
            }
            NodeKind::Return { value, next } => {
                if let (Some(e), Some(rv)) = (value, p.proc(node.proc).ret_var) {
                    match self.eval(n, ds, &mut cur, |ev| ev.expr(e))? {
                        Err(site) => stop = Some(site),
                        Ok(x) => self.write(rv, 0, x),
                    }
                }
                Some(*next)
            }
            NodeKind::Exit => {
                let done = self.frames.pop().expect("a frame");
                match done.ret {
                    None => None,
                    Some((call, res)) => {
                        let rv = p
                            .proc(done.proc)
                            .ret_var
                            .map(|rv| done.locals[self.layout.offset[rv.index()] as usize].clone());
                        if let (Some((var, k)), Some(v)) = (res, rv) {
                            self.write(var, k, v);
                        }
                        match &p.node(call).kind {
                            NodeKind::Call { next, .. } => Some(*next),
                            _ => None,
                        }
                    }
                }
            }
            NodeKind::Skip { next } => Some(*next),
            NodeKind::Error { site } => {
                stop = Some(*site);
                None
            }
            NodeKind::Halt => return Err(PathError::Infeasible),
        };
        // A user condition violated by this step.
        if let Some(Decision::Violates(k, j)) = ds.iter().find(|d| matches!(d, Decision::Violates(..))).copied() {
            self.violation(n, k, j, conds)?;
        }
        self.expected = next;
        self.steps += 1;
        Ok(stop)
    }

    fn violation(&mut self, n: NodeId, k: CondId, j: u32, conds: &[Condition]) -> Result<(), PathError> {
        let cond = &conds[k.0 as usize];
        let Some(disjunct) = cond.dnf.get(j as usize) else {
            return Err(PathError::Malformed("no such disjunct".into()));
        };
        // After a call returns, the condition is read in the caller's frame,
        // which is now on top.
        for (atom, pos) in disjunct {
            let mut cur = 0;
            match self.eval(n, &[], &mut cur, |ev| ev.atom(atom))? {
                Err(_) => return Err(PathError::Infeasible),
                Ok(t) => self.constrain(t, *pos, n, Origin::Condition)?,
            }
        }
        Ok(())
    }

    /// An instance number no symbol of this execution has.
    pub fn unused_instance(&self) -> u32 {
        self.counter + 1
    }

    /// The call depth (1 in the entry procedure).
    pub fn depth(&self) -> usize {
        self.frames.len()
    }
}

/// A `Hasher` through a `dyn Hasher` (so `Hash::hash` can write to one).
struct HashTo<'h>(&'h mut dyn std::hash::Hasher);

impl std::hash::Hasher for HashTo<'_> {
    fn finish(&self) -> u64 {
        self.0.finish()
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0.write(bytes)
    }
}
