//! Contracts in the guarded commands (modular verification, seed 002):
//! the root procedure starts in any state its `requires` allows and must
//! end in one its `ensures` and `assigns` allow; a call of a procedure with
//! a contract checks its `requires`, changes only what it `assigns` and
//! assumes its `ensures`; loop invariants are checked on entry and after
//! each iteration and assumed after the havoc at the head; an invariant
//! before a label that is not a loop head is checked and then assumed where
//! it stands; `//@ assert` is checked and then assumed.
//!
//! Active when `Options::contracts` is set; the root is the program's entry
//! (the caller makes a copy of the program whose entry is the function to
//! verify, `vc::contract::root_program`).

use super::*;
use crate::ir::contract::instrument::{model_storage, unchanged};
use crate::ir::contract::{allowed, Assigned, ClauseId, Pred, Term as CTerm};

/// The element a frame formula is about (`\forall k`).
const FRAME_INDEX: CTerm = CTerm::Bound(u32::MAX - 1);
use crate::vc::term::BOUND;

/// What a contract check shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SpecCheck {
    /// An `ensures` clause when the root returns.
    Post(ClauseId),
    /// A variable the root may change but its `assigns` clauses (the first
    /// one's id) do not name is unchanged when it returns.
    Frame(ClauseId, VarId),
    /// A loop invariant on entry (`init`) or after an iteration; a label's
    /// invariant when control reaches the label.
    Inv { clause: ClauseId, init: bool },
    /// A callee's `requires` at a call.
    CalleePre { clause: ClauseId, call: NodeId },
    /// A `//@ assert`.
    Assert(ClauseId),
}

/// What an assumption or assignment made by a contract stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Note {
    /// The root's starting value of a variable: its initialiser, or its
    /// type's range for an input.
    Initial(VarId),
    /// The root's `requires`.
    Pre(ClauseId),
    /// A loop (or label) invariant assumed where the loop is cut.
    Inv(ClauseId),
    /// A callee's `requires`, assumed once checked.
    CalleePre { clause: ClauseId, call: NodeId },
    /// A callee's `ensures` assumed after the call.
    CalleePost { clause: ClauseId, call: NodeId },
    /// A value a callee's `assigns` lets it change.
    CalleeHavoc { call: NodeId },
    /// An assertion assumed once checked.
    Assert(ClauseId),
}

#[derive(Default)]
pub(super) struct State {
    /// The frame holding the values each frame started with.
    old: HashMap<u32, u32>,
}

impl Builder<'_> {
    fn note(&mut self, block: usize, index: usize, note: Note) {
        self.gc.notes.insert((block, index), note);
    }

    /// A new frame (for a callee's contract or for old values).
    fn new_frame(&mut self, proc: ProcId, depth: u32) -> u32 {
        self.frames.push(Frame {
            proc,
            depth,
            ret: None,
            assumed: false,
        });
        self.gc.frames.push(proc);
        self.frames.len() as u32 - 1
    }

    /// The entry block: the starting state, old values, the `requires`.
    pub(super) fn spec_entry(&mut self) {
        let p = self.p;
        let mut cmds = Vec::new();
        let mut notes = Vec::new();
        let root = p.proc(p.entry);
        let starts = p
            .globals
            .iter()
            .map(|&g| VarKey { var: g, frame: GLOBAL })
            .chain(root.locals.iter().map(|&l| VarKey { var: l, frame: 0 }));
        for k in starts {
            let var = p.var(k.var);
            match &var.init {
                VarInit::Values(vals) => {
                    let at = |i: u32| vals.get(i as usize).copied().unwrap_or(0);
                    match var.len {
                        None => cmds.push(Cmd::Assign(k, Term::Const(at(0)))),
                        // An array keeps the value the entry block already
                        // gives it (`passive::initial_env`: zeros with the
                        // non-zero values stored); only those are stored
                        // again, as the hypotheses that name it. A store
                        // per element was a chain 100,000 deep for
                        // `struct S s[100000]`, which Z3 took minutes to
                        // take in (a witness's validation, far past
                        // `--timeout`).
                        Some(_) => {
                            let given = (vals.iter().enumerate()).filter(|(_, &x)| x != 0);
                            let stores: Vec<Cmd> = given
                                .map(|(i, &x)| Cmd::Store(k, Term::Const(i as i64), Term::Const(x)))
                                .collect();
                            if stores.is_empty() {
                                continue;
                            }
                            for s in stores {
                                notes.push((cmds.len(), Note::Initial(k.var)));
                                cmds.push(s);
                            }
                        }
                    }
                }
                VarInit::Input => cmds.push(Cmd::Havoc(k, Some(var.ty.range()))),
                VarInit::Assigned => continue,
            }
            notes.push((cmds.len() - 1, Note::Initial(k.var)));
        }
        self.spec_frame_entry(0, &mut cmds);
        if p.contracts.of(p.entry).is_some_and(|fc| fc.start.is_none()) {
            self.spec_requires(&mut cmds, &mut notes);
        }
        for (i, n) in notes {
            self.note(0, i, n);
        }
        self.gc.blocks[0].cmds = cmds;
    }

    /// The root's `requires`, assumed.
    fn spec_requires(&mut self, cmds: &mut Vec<Cmd>, notes: &mut Vec<(usize, Note)>) {
        let p = self.p;
        let Some(fc) = p.contracts.of(p.entry) else { return };
        for &c in &fc.requires {
            let f = self.spec_formula(&p.contracts.clause(c).pred, 0);
            notes.push((cmds.len(), Note::Pre(c)));
            cmds.push(Cmd::Assume(f));
        }
    }

    /// Old values of a frame that starts: its parameters and every global.
    pub(super) fn spec_frame_entry(&mut self, frame: u32, cmds: &mut Vec<Cmd>) {
        let p = self.p;
        let proc = self.frames[frame as usize].proc;
        let depth = self.frames[frame as usize].depth;
        let old = self.new_frame(proc, depth);
        self.spec.old.insert(frame, old);
        for &g in &p.globals {
            cmds.push(Cmd::Copy(
                VarKey { var: g, frame: old },
                VarKey { var: g, frame: GLOBAL },
            ));
        }
        for &v in &p.proc(proc).params {
            cmds.push(Cmd::Copy(VarKey { var: v, frame: old }, VarKey { var: v, frame }));
        }
    }

    fn spec_term(&self, t: &CTerm, frame: u32) -> Term {
        let place = |var: VarId, old: bool| {
            if old {
                let o = self.spec.old.get(&frame).copied().unwrap_or(frame);
                VarKey { var, frame: o }
            } else {
                self.key(var, frame)
            }
        };
        match t {
            CTerm::Const(c) => Term::Const(*c),
            CTerm::Var { var, old } => Term::Var(place(*var, *old)),
            CTerm::Elem { var, old, index, .. } => {
                Term::Select(place(*var, *old), Box::new(self.spec_term(index, frame)))
            }
            CTerm::Result => {
                let proc = self.frames[frame as usize].proc;
                match self.p.proc(proc).ret_var {
                    Some(rv) => Term::Var(VarKey { var: rv, frame }),
                    None => Term::Const(0),
                }
            }
            CTerm::Bound(n) => Term::Var(VarKey {
                var: VarId(*n),
                frame: BOUND,
            }),
            CTerm::Neg(x) => Term::Neg(Box::new(self.spec_term(x, frame))),
            CTerm::Arith(op, a, b) => Term::Arith(
                *op,
                Box::new(self.spec_term(a, frame)),
                Box::new(self.spec_term(b, frame)),
            ),
            CTerm::Div { num, den, rem } => Term::Div {
                num: Box::new(self.spec_term(num, frame)),
                den: Box::new(self.spec_term(den, frame)),
                rem: *rem,
            },
            CTerm::Bit { op, ty, a, b } => Term::Bit {
                op: *op,
                ty: *ty,
                a: Box::new(self.spec_term(a, frame)),
                b: Box::new(self.spec_term(b, frame)),
            },
            CTerm::Ite(..) | CTerm::Invalid => unreachable!("spec_formula lifts conditional terms and invalid reads"),
        }
    }

    /// A contract formula in a frame (`\result` is the frame's return
    /// variable, old values those the frame started with).
    /// Read as a run reads it: where it reads through an invalid pointer,
    /// neither asserted nor assumed to hold (`Pred::defined`).
    fn spec_formula(&self, pred: &Pred, frame: u32) -> Formula {
        self.lifted_formula(&pred.lift().defined(true), frame)
    }

    fn lifted_formula(&self, pred: &Pred, frame: u32) -> Formula {
        let not = |f: Formula| Formula::Not(Box::new(f));
        match pred {
            Pred::Bool(b) => Formula::Bool(*b),
            Pred::Rel(op, a, b) => Formula::Rel(*op, self.spec_term(a, frame), self.spec_term(b, frame)),
            Pred::Not(x) => not(self.lifted_formula(x, frame)),
            Pred::And(xs) => Formula::And(xs.iter().map(|x| self.lifted_formula(x, frame)).collect()),
            Pred::Or(xs) => Formula::Or(xs.iter().map(|x| self.lifted_formula(x, frame)).collect()),
            Pred::Implies(a, b) => Formula::Or(vec![not(self.lifted_formula(a, frame)), self.lifted_formula(b, frame)]),
            Pred::Iff(a, b) => {
                let (a, b) = (self.lifted_formula(a, frame), self.lifted_formula(b, frame));
                Formula::And(vec![
                    Formula::Or(vec![not(a.clone()), b.clone()]),
                    Formula::Or(vec![a, not(b)]),
                ])
            }
            Pred::Cond(c, a, b) => {
                let c = self.lifted_formula(c, frame);
                Formula::Or(vec![
                    Formula::And(vec![c.clone(), self.lifted_formula(a, frame)]),
                    Formula::And(vec![not(c), self.lifted_formula(b, frame)]),
                ])
            }
            Pred::Quant { forall, var, body, .. } => Formula::Quant {
                forall: *forall,
                var: VarKey {
                    var: VarId(*var),
                    frame: BOUND,
                },
                body: Box::new(self.lifted_formula(body, frame)),
            },
        }
    }

    fn spec_check(&mut self, key: SpecCheck, node: NodeId, clause: ClauseId) -> usize {
        let span = self.p.contracts.clause(clause).span;
        self.check(CheckKey::Spec(key), node, span)
    }

    /// The root returns: its `ensures`, then what its `assigns` leave alone.
    pub(super) fn spec_exit(&mut self, exit: NodeId, cmds: &mut Vec<Cmd>) {
        let p = self.p;
        let Some(fc) = p.contracts.of(p.entry) else { return };
        for &c in &fc.ensures {
            let f = self.spec_formula(&p.contracts.clause(c).pred, 0);
            let k = self.spec_check(SpecCheck::Post(c), exit, c);
            // Later checks may rely on it (as a run that gets there does).
            cmds.push(Cmd::Assert(f.clone(), k));
            cmds.push(Cmd::Assume(f));
        }
        let Some(assigns) = &fc.assigns else { return };
        // The first `assigns` clause names the check (`\nothing` has no
        // location to take it from).
        let Some(clause) = p
            .contracts
            .clauses
            .iter()
            .position(|c| c.proc == p.entry && c.kind == crate::ir::contract::ClauseKind::Assigns)
        else {
            return;
        };
        let written: Vec<VarId> = self.a.proc_mod[p.entry.index()]
            .iter()
            .copied()
            .filter(|&v| !model_storage(p, v))
            .collect();
        for v in written {
            let allowed = allowed(assigns.iter().map(|(a, _)| a), v, &FRAME_INDEX);
            if allowed == Some(Pred::Bool(true)) {
                continue;
            }
            let f = self.spec_formula(&unchanged(v, p.var(v).len, allowed, &FRAME_INDEX), 0);
            let k = self.spec_check(SpecCheck::Frame(clause, v), exit, clause);
            cmds.push(Cmd::Assert(f.clone(), k));
            cmds.push(Cmd::Assume(f));
        }
    }

    /// A call of a procedure with a contract, instead of its body.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn spec_call(
        &mut self,
        call: NodeId,
        block: usize,
        frame: u32,
        callee: ProcId,
        vals: Vec<Term>,
        result: Option<&Place>,
        cmds: &mut Vec<Cmd>,
    ) {
        let p = self.p;
        let Some(fc) = p.contracts.of(callee) else { return };
        let cp = p.proc(callee);
        let depth = self.frames[frame as usize].depth + 1;
        let f = self.new_frame(callee, depth);
        for (param, v) in cp.params.iter().zip(vals) {
            cmds.push(Cmd::Assign(VarKey { var: *param, frame: f }, v));
        }
        self.spec_frame_entry(f, cmds);
        for &c in &fc.requires {
            let fm = self.spec_formula(&p.contracts.clause(c).pred, f);
            let k = self.spec_check(SpecCheck::CalleePre { clause: c, call }, call, c);
            cmds.push(Cmd::Assert(fm.clone(), k));
            self.note(block, cmds.len(), Note::CalleePre { clause: c, call });
            cmds.push(Cmd::Assume(fm));
        }
        let havoc: Vec<Assigned> = match &fc.assigns {
            Some(list) => list.iter().map(|(a, _)| a.clone()).collect(),
            None => self.a.proc_mod[callee.index()]
                .iter()
                .map(|&v| {
                    if p.var(v).len.is_some() {
                        Assigned::Whole(v)
                    } else {
                        Assigned::Var(v)
                    }
                })
                .collect(),
        };
        let mut vars: Vec<VarId> = havoc.iter().map(Assigned::var).collect();
        vars.sort();
        vars.dedup();
        for v in vars {
            self.note(block, cmds.len(), Note::CalleeHavoc { call });
            let allowed = allowed(havoc.iter(), v, &FRAME_INDEX);
            let elems: Vec<&CTerm> = havoc
                .iter()
                .filter_map(|a| match a {
                    Assigned::Elem(x, i) if *x == v => Some(i),
                    _ => None,
                })
                .collect();
            let range = p.var(v).ty.range();
            if allowed == Some(Pred::Bool(true)) {
                cmds.push(Cmd::Havoc(self.key(v, f), Some(range)));
            } else if elems.len() == havoc.iter().filter(|a| a.var() == v).count() {
                // Only single elements: a fresh value stored at each.
                for i in elems {
                    let i = self.spec_term(i, f);
                    let x = self.fresh();
                    cmds.push(Cmd::Assume(Formula::in_range(&x, range)));
                    self.note(block, cmds.len(), Note::CalleeHavoc { call });
                    cmds.push(Cmd::Store(self.key(v, f), i, x));
                }
            } else {
                // Anything, then unchanged where the locations do not reach.
                cmds.push(Cmd::Havoc(self.key(v, f), Some(range)));
                let same = self.spec_formula(&unchanged(v, p.var(v).len, allowed, &FRAME_INDEX), f);
                self.note(block, cmds.len(), Note::CalleeHavoc { call });
                cmds.push(Cmd::Assume(same));
            }
        }
        if let Some(rv) = cp.ret_var {
            cmds.push(Cmd::Havoc(VarKey { var: rv, frame: f }, Some(p.var(rv).ty.range())));
        }
        for &c in &fc.ensures {
            let fm = self.spec_formula(&p.contracts.clause(c).pred, f);
            self.note(block, cmds.len(), Note::CalleePost { clause: c, call });
            cmds.push(Cmd::Assume(fm));
        }
        if let (Some(place), Some(rv)) = (result, cp.ret_var) {
            self.write(place, Term::Var(VarKey { var: rv, frame: f }), frame, cmds, call);
            self.user_checks(place.var, frame, cmds, call);
        }
    }

    /// Loop invariants of the head checked (on entry or after an iteration).
    pub(super) fn spec_invariant_checks(&mut self, head: NodeId, frame: u32, init: bool, cmds: &mut Vec<Cmd>) {
        let p = self.p;
        let Some(inv) = p.contracts.invariants_at(head) else {
            return;
        };
        for &c in &inv.clauses {
            let f = self.spec_formula(&p.contracts.clause(c).pred, frame);
            let k = self.spec_check(SpecCheck::Inv { clause: c, init }, head, c);
            cmds.push(Cmd::Assert(f.clone(), k));
            cmds.push(Cmd::Assume(f));
        }
    }

    /// Loop invariants assumed after the havoc at the head.
    pub(super) fn spec_invariant_assumes(&mut self, head: NodeId, block: usize, frame: u32, cmds: &mut Vec<Cmd>) {
        let p = self.p;
        let Some(inv) = p.contracts.invariants_at(head) else {
            return;
        };
        for &c in &inv.clauses {
            let f = self.spec_formula(&p.contracts.clause(c).pred, frame);
            self.note(block, cmds.len(), Note::Inv(c));
            cmds.push(Cmd::Assume(f));
        }
    }

    /// Assertions, and invariants of a label no loop goes back to: checked,
    /// then assumed.
    pub(super) fn spec_point(&mut self, n: NodeId, block: usize, frame: u32, cmds: &mut Vec<Cmd>) {
        let p = self.p;
        // The root's starting state, after its prologue: old values, then
        // the `requires`.
        if frame == 0 && p.contracts.of(p.entry).is_some_and(|fc| fc.start == Some(n)) {
            self.spec_frame_entry(0, cmds);
            let mut notes = Vec::new();
            self.spec_requires(cmds, &mut notes);
            for (i, note) in notes {
                self.note(block, i, note);
            }
        }
        let asserts: Vec<ClauseId> = p.contracts.asserts_at(n).collect();
        for c in asserts {
            let f = self.spec_formula(&p.contracts.clause(c).pred, frame);
            let k = self.spec_check(SpecCheck::Assert(c), n, c);
            cmds.push(Cmd::Assert(f.clone(), k));
            self.note(block, cmds.len(), Note::Assert(c));
            cmds.push(Cmd::Assume(f));
        }
        if self.a.loop_at.contains_key(&n) {
            return;
        }
        let Some(inv) = p.contracts.invariants_at(n) else {
            return;
        };
        for &c in &inv.clauses.clone() {
            let f = self.spec_formula(&p.contracts.clause(c).pred, frame);
            let k = self.spec_check(SpecCheck::Inv { clause: c, init: true }, n, c);
            cmds.push(Cmd::Assert(f.clone(), k));
            self.note(block, cmds.len(), Note::Inv(c));
            cmds.push(Cmd::Assume(f));
        }
    }
}
