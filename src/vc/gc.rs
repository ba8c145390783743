//! IR -> guarded commands (seed 000, §1.1 and §4): the program unfolded from
//! the entry into an acyclic graph of blocks of `assume`, `assert`,
//! assignments and `havoc`, with choice (`□`) as several successors.
//!
//! - Every block is one instance of an IR node: the node, the inlined call
//!   it runs in (a *frame*), and for each loop it is in, the iteration.
//! - Loops: `Unroll(K)` follows back edges up to K times, then the path
//!   meets an `Unwind` check (so the engine can tell whether the bound was
//!   reached) and ends; `Havoc` asserts the loop's invariants on entry,
//!   havocs what the loop writes, assumes the invariants, and at a back edge
//!   asserts them again and ends the path; `Copies` makes three copies of
//!   the loop (first, arbitrary, last pass) for `doomed`.
//! - `KInduction(K)` (`kinduction.rs`): on entry a loop is both unrolled K
//!   times from the real state (base case) and run from an arbitrary state
//!   satisfying its invariants through K iterations whose checks are
//!   assumed, then one checked iteration (step case).
//! - Calls are inlined up to `inline_depth`; a deeper call havocs its result
//!   and the globals the callee may write, and meets a `Depth` check.
//! - Run-time checks (bounds, division by zero) become `assert P; assume P`;
//!   `assert`/`reach_error()` an `assert false` at the error node; user
//!   conditions an `assert !cond` after each write of one of their variables.
//! - Trace events (then/else, loop heads, calls, returns) and the values a
//!   run draws (`nondet()`, `if (*)`) are recorded as commands too, so the
//!   model can be read back along the path it takes.

use super::kinduction;
use super::term::{Formula, Term, VarKey, GLOBAL};
use super::{Invariant, Loops, Options};
use crate::facts::Analysis;
use crate::ir::cond::{BoolExpr, UserCond};
use crate::ir::*;
use crate::syntax::source::Span;
use std::collections::{BTreeSet, HashMap};

mod loops;
mod spec;
pub use spec::{Note, SpecCheck};

/// What an assertion checks; warnings are reported (and blocked) per key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CheckKey {
    Site(SiteId),
    /// A user condition (`--error`), by index.
    User(usize),
    /// A loop invariant: candidate index; on entry (`init`) or maintained.
    Invariant {
        cand: usize,
        init: bool,
    },
    /// The unrolling bound of a loop is reached (not an error: it tells
    /// whether the unrolled program covers every run).
    Unwind(NodeId),
    /// A call deeper than the inlining depth is havocked.
    Depth(NodeId),
    /// A contract check (modular verification, `spec.rs`).
    Spec(SpecCheck),
}

impl CheckKey {
    /// Coverage checks, not errors.
    pub fn is_bound(self) -> bool {
        matches!(self, CheckKey::Unwind(_) | CheckKey::Depth(_))
    }
}

#[derive(Clone, Debug)]
pub struct Check {
    pub key: CheckKey,
    /// The IR node whose execution performs the check.
    pub node: NodeId,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    Then,
    Else,
    LoopHead,
    Call,
    Return,
}

impl EventKind {
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Then => "then",
            EventKind::Else => "else",
            EventKind::LoopHead => "loop_head",
            EventKind::Call => "call",
            EventKind::Return => "return",
        }
    }
}

/// A trace label: `Then@l.c`, `LoopHead.1@l.c`, `Call@l.c`, ...
#[derive(Clone, Debug)]
pub struct Event {
    pub kind: EventKind,
    pub span: Span,
    /// Loop heads: the iteration (0 on entry).
    pub iteration: Option<u32>,
    /// Calls and returns: the callee; `havocked` when not inlined.
    pub callee: Option<ProcId>,
    pub havocked: bool,
}

#[derive(Clone, Debug)]
pub enum Cmd {
    Assume(Formula),
    Assert(Formula, usize),
    Assign(VarKey, Term),
    /// `a[i] = v` on an array.
    Store(VarKey, Term, Term),
    /// Any value (within the range, for a scalar or each element).
    Havoc(VarKey, Option<(i64, i64)>),
    Event(Event),
    /// A value the run draws, in the order it draws them (`--choices`).
    Choice(Term),
    /// The first variable takes the second's value (old values of a
    /// contract: no equation, the same value).
    Copy(VarKey, VarKey),
}

#[derive(Clone, Debug, Default)]
pub struct Block {
    pub cmds: Vec<Cmd>,
    pub succs: Vec<usize>,
    /// The source point the block stands for (`doomed` reports per point).
    pub origin: Origin,
    /// The IR node and frame this block is an instance of (none for the
    /// blocks made for edges and path ends).
    pub inst: Option<(NodeId, u32)>,
}

/// The source point of a block: copies of one point (loop copies, inlined
/// calls) share it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Origin {
    /// Glue: the entry, havoc and choice blocks.
    #[default]
    None,
    /// An instance of the node.
    Node(NodeId),
    /// The edge of a branch node with this outcome.
    Edge(NodeId, bool),
    /// `Loops::Copies`: the back edge of the last copy of the loop at this
    /// head, where the path ends (the last pass leaves the loop).
    LoopCut(NodeId),
}

/// A block's node, and for the edge of a branch its outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct At {
    pub node: NodeId,
    pub outcome: Option<bool>,
}

impl Origin {
    /// The node an instance or a branch edge stands for (glue and loop cuts
    /// stand for none).
    pub fn at(self) -> Option<At> {
        match self {
            Origin::Node(node) => Some(At { node, outcome: None }),
            Origin::Edge(node, outcome) => Some(At {
                node,
                outcome: Some(outcome),
            }),
            Origin::None | Origin::LoopCut(_) => None,
        }
    }
}

/// The unfolded program; block 0 is the entry.
pub struct Gc {
    pub blocks: Vec<Block>,
    pub checks: Vec<Check>,
    /// Each frame's procedure (frame 0: the entry).
    pub frames: Vec<ProcId>,
    /// Why the graph is incomplete beyond what `Unwind`/`Depth` checks say.
    pub too_big: bool,
    /// What contract commands stand for, by block and command index.
    pub notes: HashMap<(usize, usize), Note>,
}

#[derive(Clone, PartialEq, Eq, Hash)]
struct Inst {
    node: NodeId,
    frame: u32,
    /// Active loops of the frame: head and iteration, sorted by head.
    loops: Vec<(NodeId, u32)>,
}

struct Frame {
    proc: ProcId,
    depth: u32,
    /// The call instance to return to and its result place.
    ret: Option<(Inst, Option<Place>)>,
    /// Called from a k-induction step iteration whose checks are assumed.
    assumed: bool,
}

struct Builder<'a> {
    p: &'a Program,
    a: &'a Analysis,
    users: &'a [UserCond],
    opts: &'a Options,
    invariants: &'a [Invariant],
    gc: Gc,
    frames: Vec<Frame>,
    insts: HashMap<Inst, usize>,
    work: Vec<(Inst, usize)>,
    checks: HashMap<(CheckKey, NodeId), usize>,
    fresh: u32,
    /// Loop-entry values of invariants (`Invariant::entry`), per candidate
    /// and frame.
    entry_values: HashMap<(usize, u32), VarKey>,
    spec: spec::State,
}

/// Unfolds `p` from its entry.
pub fn build(p: &Program, a: &Analysis, users: &[UserCond], invariants: &[Invariant], opts: &Options) -> Gc {
    let mut b = Builder {
        p,
        a,
        users,
        opts,
        invariants,
        gc: Gc {
            blocks: vec![Block::default()],
            checks: Vec::new(),
            frames: vec![p.entry],
            too_big: false,
            notes: HashMap::new(),
        },
        frames: vec![Frame {
            proc: p.entry,
            depth: 0,
            ret: None,
            assumed: false,
        }],
        insts: HashMap::new(),
        work: Vec::new(),
        checks: HashMap::new(),
        fresh: 0,
        entry_values: HashMap::new(),
        spec: spec::State::default(),
    };
    if opts.contracts {
        b.spec_entry();
    }
    let start = b.inst(Inst {
        node: p.proc(p.entry).entry,
        frame: 0,
        loops: Vec::new(),
    });
    b.gc.blocks[0].succs.push(start);
    while let Some((inst, id)) = b.work.pop() {
        if b.gc.blocks.len() > opts.max_blocks {
            b.gc.too_big = true;
            b.gc.blocks[id].cmds = vec![Cmd::Assume(Formula::Bool(false))];
            continue;
        }
        b.node(inst, id);
    }
    b.gc
}

impl Builder<'_> {
    fn new_block(&mut self, cmds: Vec<Cmd>, succs: Vec<usize>) -> usize {
        self.gc.blocks.push(Block {
            cmds,
            succs,
            origin: Origin::None,
            inst: None,
        });
        self.gc.blocks.len() - 1
    }

    /// The block of an instance, made (and queued) on first use.
    fn inst(&mut self, i: Inst) -> usize {
        if let Some(&b) = self.insts.get(&i) {
            return b;
        }
        let b = self.new_block(Vec::new(), Vec::new());
        self.insts.insert(i.clone(), b);
        self.work.push((i, b));
        b
    }

    /// A value nothing constrains (a draw, a havocked result).
    fn fresh(&mut self) -> Term {
        self.fresh += 1;
        Term::Fresh(self.fresh)
    }

    fn check(&mut self, key: CheckKey, node: NodeId, span: Span) -> usize {
        if let Some(&c) = self.checks.get(&(key, node)) {
            return c;
        }
        self.gc.checks.push(Check { key, node, span });
        let c = self.gc.checks.len() - 1;
        self.checks.insert((key, node), c);
        c
    }

    fn key(&self, v: VarId, frame: u32) -> VarKey {
        if self.p.var(v).is_global_storage() {
            VarKey { var: v, frame: GLOBAL }
        } else {
            VarKey { var: v, frame }
        }
    }

    fn node(&mut self, inst: Inst, id: usize) {
        let p = self.p;
        let n = inst.node;
        let node = p.node(n);
        let frame = inst.frame;
        let mut cmds = Vec::new();
        let mut succs = Vec::new();
        match &node.kind {
            NodeKind::Assign { place, value, next } => {
                let v = self.term(value, frame, &mut cmds, n);
                self.write(place, v, frame, &mut cmds, n);
                self.user_checks(place.var, frame, &mut cmds, n);
                succs.push(self.edge(&inst, *next));
            }
            NodeKind::Havoc { place, ty, next } => {
                let var = p.var(place.var);
                match (&place.index, var.len) {
                    (None, Some(len)) => {
                        let key = self.key(place.var, frame);
                        cmds.push(Cmd::Havoc(key, Some(ty.range())));
                        for k in 0..len {
                            cmds.push(Cmd::Choice(Term::Select(key, Box::new(Term::Const(k as i64)))));
                        }
                    }
                    // A floating scalar's draw is its own bits (`vc::float`):
                    // an integer draw would be converted to them.
                    (None, None) if ty.is_float() && var.ty == *ty => {
                        let key = self.key(place.var, frame);
                        cmds.push(Cmd::Havoc(key, Some(ty.range())));
                        cmds.push(Cmd::Choice(Term::Var(key)));
                    }
                    _ => {
                        let t = self.fresh();
                        cmds.push(Cmd::Assume(Formula::in_range(&t, ty.range())));
                        cmds.push(Cmd::Choice(t.clone()));
                        self.write(place, t, frame, &mut cmds, n);
                    }
                }
                self.user_checks(place.var, frame, &mut cmds, n);
                succs.push(self.edge(&inst, *next));
            }
            NodeKind::Branch { cond, then_, else_ } => {
                let (yes, no) = match cond {
                    Cond::Atom(atom) => {
                        let l = self.term(&atom.lhs, frame, &mut cmds, n);
                        let r = self.term(&atom.rhs, frame, &mut cmds, n);
                        let f = Formula::Rel(atom.op, l, r);
                        (Cmd::Assume(f.clone()), Cmd::Assume(Formula::Not(Box::new(f))))
                    }
                    Cond::Nondet => (Cmd::Choice(Term::Const(1)), Cmd::Choice(Term::Const(0))),
                };
                for (c, to, outcome) in [(yes, *then_, true), (no, *else_, false)] {
                    // Only edges that decide a statement's condition are
                    // labelled, with the condition's value (`!(a && b)`
                    // left through `a` false is the then branch).
                    let mut cmds = vec![c];
                    if let Some(&value) = p.cond_exits.get(&(n, outcome)) {
                        cmds.push(Cmd::Event(Event {
                            kind: if value { EventKind::Then } else { EventKind::Else },
                            span: p.unit(node.unit).span,
                            iteration: None,
                            callee: None,
                            havocked: false,
                        }));
                    }
                    let next = self.edge(&inst, to);
                    let b = self.new_block(cmds, vec![next]);
                    self.gc.blocks[b].origin = Origin::Edge(n, outcome);
                    succs.push(b);
                }
            }
            NodeKind::Call {
                callee,
                args,
                result,
                next,
            } => {
                let vals: Vec<Term> = args.iter().map(|a| self.term(a, frame, &mut cmds, n)).collect();
                let depth = self.frames[frame as usize].depth;
                let inline = depth < self.opts.inline_depth;
                cmds.push(Cmd::Event(Event {
                    kind: EventKind::Call,
                    span: node.span,
                    iteration: None,
                    callee: Some(*callee),
                    havocked: !inline,
                }));
                let cp = p.proc(*callee);
                if self.opts.contracts && p.contracts.of(*callee).is_some() {
                    let next = self.edge(&inst, *next);
                    self.spec_call(n, id, frame, *callee, vals, result.as_ref(), &mut cmds);
                    succs.push(next);
                } else if inline {
                    let f = self.frames.len() as u32;
                    self.frames.push(Frame {
                        proc: *callee,
                        depth: depth + 1,
                        ret: Some((inst.clone(), result.clone())),
                        assumed: self.assumed(&inst),
                    });
                    self.gc.frames.push(*callee);
                    for (param, v) in cp.params.iter().zip(vals) {
                        cmds.push(Cmd::Assign(VarKey { var: *param, frame: f }, v));
                    }
                    if self.opts.contracts {
                        self.spec_frame_entry(f, &mut cmds);
                    }
                    // A recursive call of the entry draws its unset locals.
                    if *callee == p.entry {
                        for &l in &cp.locals {
                            let var = p.var(l);
                            if var.kind == VarKind::Local && var.init == VarInit::Input {
                                let key = VarKey { var: l, frame: f };
                                cmds.push(Cmd::Havoc(key, Some(var.ty.range())));
                                match var.len {
                                    None => cmds.push(Cmd::Choice(Term::Var(key))),
                                    Some(len) => cmds.extend(
                                        (0..len)
                                            .map(|k| Cmd::Choice(Term::Select(key, Box::new(Term::Const(k as i64))))),
                                    ),
                                }
                            }
                        }
                    }
                    succs.push(self.inst(Inst {
                        node: cp.entry,
                        frame: f,
                        loops: Vec::new(),
                    }));
                } else {
                    let c = self.check(CheckKey::Depth(n), n, node.span);
                    cmds.push(Cmd::Assert(Formula::Bool(false), c));
                    for &g in &self.a.proc_mod[callee.index()] {
                        cmds.push(Cmd::Havoc(self.key(g, frame), None));
                    }
                    if let Some(place) = result {
                        let t = self.fresh();
                        self.write(place, t, frame, &mut cmds, n);
                        self.user_checks(place.var, frame, &mut cmds, n);
                    }
                    succs.push(self.edge(&inst, *next));
                }
            }
            NodeKind::Return { value, next } => {
                if let (Some(e), Some(rv)) = (value, p.proc(node.proc).ret_var) {
                    let v = self.term(e, frame, &mut cmds, n);
                    cmds.push(Cmd::Assign(VarKey { var: rv, frame }, v));
                }
                succs.push(self.edge(&inst, *next));
            }
            NodeKind::Error { site } => {
                let c = self.check(CheckKey::Site(*site), n, p.site(*site).span);
                cmds.push(Cmd::Assert(Formula::Bool(false), c));
                cmds.push(Cmd::Assume(Formula::Bool(false)));
            }
            NodeKind::Halt => cmds.push(Cmd::Assume(Formula::Bool(false))),
            NodeKind::Exit => {
                if frame == 0 && self.opts.contracts {
                    self.spec_exit(n, &mut cmds);
                }
                if let Some((call, result)) = self.frames[frame as usize].ret.clone() {
                    let call_node = p.node(call.node);
                    cmds.push(Cmd::Event(Event {
                        kind: EventKind::Return,
                        span: call_node.span,
                        iteration: None,
                        callee: Some(node.proc),
                        havocked: false,
                    }));
                    if let (Some(place), Some(rv)) = (result, p.proc(node.proc).ret_var) {
                        let v = Term::Var(VarKey { var: rv, frame });
                        self.write(&place, v, call.frame, &mut cmds, call.node);
                        self.user_checks(place.var, call.frame, &mut cmds, call.node);
                    }
                    if let NodeKind::Call { next, .. } = &call_node.kind {
                        succs.push(self.edge(&call, *next));
                    }
                }
            }
            NodeKind::Skip { next } => {
                if self.opts.contracts {
                    self.spec_point(n, id, frame, &mut cmds);
                }
                if let Some(&(_, it)) = inst.loops.iter().find(|(h, _)| *h == n) {
                    if self.opts.loops == Loops::Havoc {
                        self.entry_values(n, frame, &mut cmds);
                        self.invariant_checks(n, frame, true, &mut cmds);
                        self.cut_loop(n, frame, &mut cmds);
                        if self.opts.contracts {
                            self.spec_invariant_assumes(n, id, frame, &mut cmds);
                        }
                    }
                    cmds.push(Cmd::Event(Event {
                        kind: EventKind::LoopHead,
                        span: node.span,
                        iteration: kinduction::shown_iteration(it),
                        callee: None,
                        havocked: false,
                    }));
                }
                succs.push(self.edge(&inst, *next));
            }
        }
        if self.assumed(&inst) {
            kinduction::assume_checks(&mut cmds, &self.gc.checks);
        }
        let b = &mut self.gc.blocks[id];
        b.cmds = cmds;
        b.succs = succs;
        b.origin = Origin::Node(n);
        b.inst = Some((n, frame));
    }

    /// An IR expression as a term; its run-time checks (in the order the
    /// interpreter makes them) go to `cmds` as `assert P; assume P`.
    fn term(&mut self, e: &Expr, frame: u32, cmds: &mut Vec<Cmd>, n: NodeId) -> Term {
        match &e.kind {
            ExprKind::Const(c) => Term::Const(*c),
            ExprKind::Var(v) => Term::Var(self.key(*v, frame)),
            ExprKind::Elem(v, i, site) => {
                let i = self.term(i, frame, cmds, n);
                self.bounds(*v, &i, *site, cmds, n);
                Term::Select(self.key(*v, frame), Box::new(i))
            }
            ExprKind::Neg(x) => Term::Neg(Box::new(self.term(x, frame, cmds, n))),
            ExprKind::Conv(t, x) => conv(*t, self.term(x, frame, cmds, n)),
            ExprKind::Checked { value, ty, site } => {
                let v = self.term(value, frame, cmds, n);
                let ok = Formula::in_range(&v, ty.range());
                let c = self.check(CheckKey::Site(*site), n, self.p.site(*site).span);
                cmds.push(Cmd::Assert(ok.clone(), c));
                cmds.push(Cmd::Assume(ok));
                v
            }
            ExprKind::Arith(op, a, b) => {
                let a = self.term(a, frame, cmds, n);
                let b = self.term(b, frame, cmds, n);
                Term::Arith(*op, Box::new(a), Box::new(b))
            }
            ExprKind::Bit {
                op,
                ty,
                a,
                b,
                site,
                strict,
            } => {
                let a = self.term(a, frame, cmds, n);
                let b = self.term(b, frame, cmds, n);
                if let Some(site) = site {
                    let ok = Term::bit_defined(*op, *ty, *strict, &a, &b);
                    let c = self.check(CheckKey::Site(*site), n, self.p.site(*site).span);
                    cmds.push(Cmd::Assert(ok.clone(), c));
                    cmds.push(Cmd::Assume(ok));
                }
                Term::Bit {
                    op: *op,
                    ty: *ty,
                    a: Box::new(a),
                    b: Box::new(b),
                }
            }
            ExprKind::Div { num, den, rem, site } => {
                let a = self.term(num, frame, cmds, n);
                let b = self.term(den, frame, cmds, n);
                let ok = Formula::Rel(RelOp::Ne, b.clone(), Term::Const(0));
                let c = self.check(CheckKey::Site(*site), n, self.p.site(*site).span);
                cmds.push(Cmd::Assert(ok.clone(), c));
                cmds.push(Cmd::Assume(ok));
                Term::Div {
                    num: Box::new(a),
                    den: Box::new(b),
                    rem: *rem,
                }
            }
            ExprKind::Float { op, ty, args, site } => {
                let args: Vec<Term> = args.iter().map(|a| self.term(a, frame, cmds, n)).collect();
                if let Some(site) = site {
                    let ok = Term::float_defined(*op, *ty, &args[0]);
                    let c = self.check(CheckKey::Site(*site), n, self.p.site(*site).span);
                    cmds.push(Cmd::Assert(ok.clone(), c));
                    cmds.push(Cmd::Assume(ok));
                }
                Term::Float { op: *op, ty: *ty, args }
            }
        }
    }

    fn bounds(&mut self, v: VarId, i: &Term, site: SiteId, cmds: &mut Vec<Cmd>, n: NodeId) {
        let len = self.p.var(v).slots() as i64;
        let ok = Formula::in_range(i, (0, len - 1));
        let c = self.check(CheckKey::Site(site), n, self.p.site(site).span);
        cmds.push(Cmd::Assert(ok.clone(), c));
        cmds.push(Cmd::Assume(ok));
    }

    fn write(&mut self, place: &Place, v: Term, frame: u32, cmds: &mut Vec<Cmd>, n: NodeId) {
        let key = self.key(place.var, frame);
        match &place.index {
            None => cmds.push(Cmd::Assign(key, v)),
            Some((i, site)) => {
                let i = self.term(i, frame, cmds, n);
                self.bounds(place.var, &i, *site, cmds, n);
                cmds.push(Cmd::Store(key, i, v));
            }
        }
    }

    /// `assert !cond` for each user condition that reads `var` and is
    /// watched in this frame's procedure (as the interpreter checks them).
    fn user_checks(&mut self, var: VarId, frame: u32, cmds: &mut Vec<Cmd>, n: NodeId) {
        let proc = self.frames[frame as usize].proc;
        for (i, c) in self.users.iter().enumerate() {
            if !c.vars.contains(&var) || c.proc.is_some_and(|cp| cp != proc) {
                continue;
            }
            let (def, val) = self.bool_expr(&c.expr, frame);
            let holds = Formula::And(vec![def, val]);
            let k = self.check(CheckKey::User(i), n, self.p.node(n).span);
            cmds.push(Cmd::Assert(Formula::Not(Box::new(holds)), k));
        }
    }

    /// A condition over variables as (defined, value): undefined where the
    /// interpreter's evaluation gives up (an index out of range, a division
    /// by zero), with its short-circuit order.
    fn bool_expr(&self, e: &BoolExpr, frame: u32) -> (Formula, Formula) {
        match e {
            BoolExpr::Atom(a) => {
                let (dl, l) = self.pure_term(&a.lhs, frame);
                let (dr, r) = self.pure_term(&a.rhs, frame);
                (Formula::And(vec![dl, dr]), Formula::Rel(a.op, l, r))
            }
            BoolExpr::Not(x) => {
                let (d, v) = self.bool_expr(x, frame);
                (d, Formula::Not(Box::new(v)))
            }
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
                let and = matches!(e, BoolExpr::And(..));
                let (da, va) = self.bool_expr(a, frame);
                let (db, vb) = self.bool_expr(b, frame);
                let stop = if and {
                    Formula::Not(Box::new(va.clone()))
                } else {
                    va.clone()
                };
                let def = Formula::And(vec![da, Formula::Or(vec![stop, db])]);
                let val = if and {
                    Formula::And(vec![va, vb])
                } else {
                    Formula::Or(vec![va, vb])
                };
                (def, val)
            }
        }
    }

    /// A side-effect-free expression (user conditions, invariants) and when
    /// it is defined.
    fn pure_term(&self, e: &Expr, frame: u32) -> (Formula, Term) {
        match &e.kind {
            ExprKind::Const(c) => (Formula::Bool(true), Term::Const(*c)),
            ExprKind::Var(v) => (Formula::Bool(true), Term::Var(self.key(*v, frame))),
            ExprKind::Elem(v, i, _) => {
                let (d, i) = self.pure_term(i, frame);
                let len = self.p.var(*v).slots() as i64;
                let def = Formula::And(vec![d, Formula::in_range(&i, (0, len - 1))]);
                (def, Term::Select(self.key(*v, frame), Box::new(i)))
            }
            ExprKind::Neg(x) => {
                let (d, x) = self.pure_term(x, frame);
                (d, Term::Neg(Box::new(x)))
            }
            ExprKind::Conv(t, x) => {
                let (d, x) = self.pure_term(x, frame);
                (d, conv(*t, x))
            }
            ExprKind::Checked { value, ty, .. } => {
                let (d, v) = self.pure_term(value, frame);
                (Formula::And(vec![d, Formula::in_range(&v, ty.range())]), v)
            }
            ExprKind::Arith(op, a, b) => {
                let (da, a) = self.pure_term(a, frame);
                let (db, b) = self.pure_term(b, frame);
                (Formula::And(vec![da, db]), Term::Arith(*op, Box::new(a), Box::new(b)))
            }
            ExprKind::Bit {
                op, ty, a, b, strict, ..
            } => {
                let (da, a) = self.pure_term(a, frame);
                let (db, b) = self.pure_term(b, frame);
                let ok = Term::bit_defined(*op, *ty, *strict, &a, &b);
                let t = Term::Bit {
                    op: *op,
                    ty: *ty,
                    a: Box::new(a),
                    b: Box::new(b),
                };
                (Formula::And(vec![da, db, ok]), t)
            }
            ExprKind::Div { num, den, rem, .. } => {
                let (da, a) = self.pure_term(num, frame);
                let (db, b) = self.pure_term(den, frame);
                let nz = Formula::Rel(RelOp::Ne, b.clone(), Term::Const(0));
                (
                    Formula::And(vec![da, db, nz]),
                    Term::Div {
                        num: Box::new(a),
                        den: Box::new(b),
                        rem: *rem,
                    },
                )
            }
            ExprKind::Float { op, ty, args, site } => {
                let (defs, args): (Vec<Formula>, Vec<Term>) = args.iter().map(|a| self.pure_term(a, frame)).unzip();
                let mut defs = defs;
                if site.is_some() {
                    defs.push(Term::float_defined(*op, *ty, &args[0]));
                }
                (Formula::And(defs), Term::Float { op: *op, ty: *ty, args })
            }
        }
    }
}

/// Frames of loop-entry values (beyond any real frame, below `GLOBAL`).
const ENTRY_FRAMES: u32 = 1 << 31;

/// A C conversion to `t` (not `_Bool`: lowering makes that a branch).
fn conv(t: crate::ir::IntType, x: Term) -> Term {
    Term::Conv {
        arg: Box::new(x),
        lo: t.range().0,
        bits: t.bits(),
    }
}

/// The procedures whose calls were havocked somewhere (for coverage).
pub fn havocked_callees(p: &Program, gc: &Gc) -> BTreeSet<ProcId> {
    gc.checks
        .iter()
        .filter_map(|c| match c.key {
            CheckKey::Depth(n) => match &p.node(n).kind {
                NodeKind::Call { callee, .. } => Some(*callee),
                _ => None,
            },
            _ => None,
        })
        .collect()
}
