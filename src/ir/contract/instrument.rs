//! Contracts as checks the program makes, for the Datalog engine and the
//! interpreter: the entry's `requires` becomes an assumption (a run that
//! breaks it stops, as `__VERIFIER_assume`), every other contract clause an
//! assertion at its place: a callee's `requires` when it starts, `ensures`
//! and what `assigns` leaves alone when it returns, a loop invariant each
//! time control reaches the loop head (or label), `//@ assert` where it is.
//!
//! Formulas become branches on atoms, as lowering makes them; a quantifier
//! becomes a loop over its range (`lo..hi`); `\old(x)` a copy of `x` made
//! when the function starts. An array index or a divisor in a formula is
//! checked like any other (bounds, division by zero).

use super::*;
use std::collections::{BTreeSet, HashMap};

/// A global of the memory model's own (a running-call flag, a heap
/// object's state and size, the unspecified values): no `assigns` clause
/// names it (allocating is not assigning), so no frame checks it.
pub fn model_storage(p: &Program, g: VarId) -> bool {
    crate::ir::pointers::is_internal(&p.var(g).name)
}

/// That `g` is unchanged since the function started, but where `allowed`
/// holds: a scalar's value, or each element `k` (a `Bound` term) of an
/// array of `len` elements. The frame check of both engines.
pub fn unchanged(g: VarId, len: Option<u32>, allowed: Option<Pred>, k: &Term) -> Pred {
    let same = match len {
        None => Pred::Rel(
            RelOp::Eq,
            Term::Var { var: g, old: false },
            Term::Var { var: g, old: true },
        ),
        Some(_) => {
            let at = |old| Term::Elem {
                var: g,
                old,
                index: Box::new(k.clone()),
                guarded: false,
            };
            Pred::Rel(RelOp::Eq, at(false), at(true))
        }
    };
    let body = match allowed {
        Some(a) => Pred::Or(vec![a, same]),
        None => same,
    };
    match (len, k) {
        (Some(n), Term::Bound(var)) => Pred::Quant {
            forall: true,
            var: *var,
            name: "k".into(),
            lo: Term::Const(0),
            hi: Term::Const(n as i64),
            body: Box::new(body),
        },
        _ => body,
    }
}

/// The error sites standing for the contract checks.
#[derive(Clone, Debug, Default)]
pub struct Sites {
    clauses: HashMap<ClauseId, SiteId>,
    frames: HashMap<(ClauseId, VarId), SiteId>,
}

impl Sites {
    pub fn clause(&self, c: ClauseId) -> Option<SiteId> {
        self.clauses.get(&c).copied()
    }

    /// The check that a variable an `assigns` clause does not name is
    /// unchanged.
    pub fn frame(&self, c: ClauseId, v: VarId) -> Option<SiteId> {
        self.frames.get(&(c, v)).copied()
    }

    /// The clause a site checks, if it is a contract's.
    pub fn clause_of(&self, s: SiteId) -> Option<ClauseId> {
        self.clauses
            .iter()
            .find(|(_, &x)| x == s)
            .map(|(&c, _)| c)
            .or_else(|| self.frames.iter().find(|(_, &x)| x == s).map(|(&(c, _), _)| c))
    }
}

/// The program with its contracts made into checks; the contracts stay
/// attached (same clauses, same node ids for the original nodes).
pub fn instrument(p: &Program) -> (Program, Sites) {
    let mut ins = Ins {
        p: p.clone(),
        sites: Sites::default(),
        old: HashMap::new(),
        counters: HashMap::new(),
    };
    if p.contracts.is_empty() {
        return (ins.p, ins.sites);
    }
    let c = &p.contracts;
    // Procedures whose formulas read old values: snapshot them on entry.
    let mut olds: BTreeSet<(ProcId, VarId)> = BTreeSet::new();
    for cl in &c.clauses {
        let mut vs = Vec::new();
        cl.pred.vars(&mut vs);
        olds.extend(vs.into_iter().filter(|(_, old)| *old).map(|(v, _)| (cl.proc, v)));
    }
    for (f, fc) in &c.funcs {
        if let Some(list) = &fc.assigns {
            for (a, _) in list {
                let mut vs = Vec::new();
                a.vars(&mut vs);
                olds.extend(vs.into_iter().map(|(v, _)| (*f, v)));
            }
            for &g in p.globals.iter().filter(|&&g| !model_storage(p, g)) {
                if allowed(list.iter().map(|(a, _)| a), g, &FRAME_INDEX) != Some(Pred::Bool(true)) {
                    olds.insert((*f, g));
                }
            }
        }
    }
    // Invariants and assertions first: the checks on return then also
    // follow those that fall through to the end.
    for inv in &c.invariants {
        let after = ins.take_next(inv.at);
        let mut chain = after;
        for &cl in inv.clauses.iter().rev() {
            chain = ins.assertion(cl, chain);
        }
        ins.set_next(inv.at, chain);
    }
    for &(at, cl) in &c.asserts {
        let after = ins.take_next(at);
        let chain = ins.assertion(cl, after);
        ins.set_next(at, chain);
    }
    let procs: BTreeSet<ProcId> = olds.iter().map(|(f, _)| *f).chain(c.funcs.keys().copied()).collect();
    for f in procs {
        // On entry (after the prologue): old values, then the `requires`.
        let entry = c.of(f).map_or(ins.p.proc(f).entry, |fc| fc.start_at(&ins.p, f));
        let after = ins.take_next(entry);
        let mut chain = after;
        if let Some(fc) = c.of(f) {
            for &cl in fc.requires.iter().rev() {
                chain = if f == p.entry {
                    ins.assume(cl, chain)
                } else {
                    ins.assertion(cl, chain)
                };
            }
        }
        let vars: Vec<VarId> = olds.iter().filter(|(g, _)| *g == f).map(|(_, v)| *v).collect();
        for v in vars.into_iter().rev() {
            chain = ins.snapshot(f, v, chain);
        }
        ins.set_next(entry, chain);
        // On return: `ensures`, then the frame of `assigns`.
        if let Some(fc) = c.of(f) {
            let exit = ins.p.proc(f).exit;
            let mut chain = exit;
            if let Some(list) = &fc.assigns {
                let first = c
                    .clauses
                    .iter()
                    .position(|cl| cl.proc == f && cl.kind == ClauseKind::Assigns)
                    .unwrap_or(0);
                for &g in p.globals.iter().rev().filter(|&&g| !model_storage(p, g)) {
                    let allowed = allowed(list.iter().map(|(a, _)| a), g, &FRAME_INDEX);
                    if allowed == Some(Pred::Bool(true)) {
                        continue;
                    }
                    chain = ins.frame_check(f, g, allowed, first, chain);
                }
            }
            for &cl in fc.ensures.iter().rev() {
                chain = ins.assertion(cl, chain);
            }
            if chain != exit {
                ins.retarget_into(f, exit, chain);
            }
        }
    }
    (ins.p, ins.sites)
}

struct Ins {
    p: Program,
    sites: Sites,
    /// The copy of each variable's value when its procedure started.
    old: HashMap<(ProcId, VarId), VarId>,
    /// The counter of each quantified variable.
    counters: HashMap<(ProcId, u32), VarId>,
}

const NONE: NodeId = NodeId(u32::MAX);

/// The element a frame check is about (`\forall k`).
const FRAME_INDEX: Term = Term::Bound(u32::MAX - 1);

impl Ins {
    fn take_next(&mut self, n: NodeId) -> NodeId {
        match &self.p.nodes[n.index()].kind {
            NodeKind::Skip { next } => *next,
            other => unreachable!("contracts are attached to no-op nodes, not {other:?}"),
        }
    }

    fn set_next(&mut self, n: NodeId, to: NodeId) {
        if let NodeKind::Skip { next } = &mut self.p.nodes[n.index()].kind {
            *next = to;
        }
    }

    /// Every edge into `exit` from the procedure's own nodes goes to `to`
    /// (the checks made on return) instead.
    fn retarget_into(&mut self, f: ProcId, exit: NodeId, to: NodeId) {
        let chain: BTreeSet<NodeId> = self.chain_nodes(to, exit);
        for i in 0..self.p.nodes.len() {
            let id = NodeId(i as u32);
            if self.p.nodes[i].proc != f || chain.contains(&id) {
                continue;
            }
            let fix = |x: &mut NodeId| {
                if *x == exit {
                    *x = to
                }
            };
            match &mut self.p.nodes[i].kind {
                NodeKind::Assign { next, .. }
                | NodeKind::Havoc { next, .. }
                | NodeKind::Call { next, .. }
                | NodeKind::Return { next, .. }
                | NodeKind::Skip { next } => fix(next),
                NodeKind::Branch { then_, else_, .. } => {
                    fix(then_);
                    fix(else_);
                }
                NodeKind::Error { .. } | NodeKind::Halt | NodeKind::Exit => {}
            }
        }
    }

    /// The nodes reachable from `from` before `stop` (a check chain).
    fn chain_nodes(&self, from: NodeId, stop: NodeId) -> BTreeSet<NodeId> {
        let mut seen = BTreeSet::new();
        let mut work = vec![from];
        while let Some(n) = work.pop() {
            if n == stop || n == NONE || !seen.insert(n) {
                continue;
            }
            work.extend(self.p.node(n).successors());
        }
        seen
    }

    fn new_var(&mut self, f: ProcId, name: String, ty: IntType, len: Option<u32>, span: Span) -> VarId {
        self.p.vars.push(Var {
            name,
            proc: Some(f),
            kind: VarKind::Temp,
            ty,
            len,
            span,
            init: VarInit::Assigned,
            is_static: false,
        });
        let v = VarId(self.p.vars.len() as u32 - 1);
        self.p.procs[f.index()].locals.push(v);
        v
    }

    fn unit(&mut self, f: ProcId, span: Span) -> UnitId {
        self.p.units.push(Unit {
            kind: UnitKind::Check,
            span,
            proc: f,
        });
        UnitId(self.p.units.len() as u32 - 1)
    }

    fn node(&mut self, kind: NodeKind, f: ProcId, span: Span, unit: UnitId) -> NodeId {
        let block = self.p.proc(f).body_block;
        self.p.nodes.push(Node {
            kind,
            proc: f,
            span,
            unit,
            block,
        });
        NodeId(self.p.nodes.len() as u32 - 1)
    }

    fn site(&mut self, kind: SiteKind, f: ProcId, span: Span, array: Option<VarId>, static_ok: bool) -> SiteId {
        self.p.sites.push(ErrorSite {
            kind,
            span,
            proc: f,
            array,
            static_ok,
            vla: false,
            pool: false,
        });
        SiteId(self.p.sites.len() as u32 - 1)
    }

    /// `copy = v` (element by element for an array), then `next`.
    fn snapshot(&mut self, f: ProcId, v: VarId, next: NodeId) -> NodeId {
        let var = self.p.var(v).clone();
        let span = var.span;
        let copy = self.new_var(f, format!("\\old({})", var.name), var.ty, var.len, span);
        self.old.insert((f, v), copy);
        let unit = self.unit(f, span);
        let e = |kind| Expr { kind, span };
        let mut chain = next;
        match var.len {
            None => {
                let place = Place {
                    var: copy,
                    index: None,
                    span,
                };
                chain = self.node(
                    NodeKind::Assign {
                        place,
                        value: e(ExprKind::Var(v)),
                        next: chain,
                    },
                    f,
                    span,
                    unit,
                );
            }
            Some(n) => {
                for k in (0..n as i64).rev() {
                    let read = self.site(SiteKind::Bounds, f, span, Some(v), true);
                    let write = self.site(SiteKind::Bounds, f, span, Some(copy), true);
                    let place = Place {
                        var: copy,
                        index: Some((Box::new(e(ExprKind::Const(k))), write)),
                        span,
                    };
                    chain = self.node(
                        NodeKind::Assign {
                            place,
                            value: e(ExprKind::Elem(v, Box::new(e(ExprKind::Const(k))), read)),
                            next: chain,
                        },
                        f,
                        span,
                        unit,
                    );
                }
            }
        }
        chain
    }

    /// The clause checked: an error where it is false.
    fn assertion(&mut self, cl: ClauseId, next: NodeId) -> NodeId {
        let c = self.p.contracts.clause(cl).clone();
        let site = self.site(SiteKind::Assert, c.proc, c.span, None, false);
        self.sites.clauses.insert(cl, site);
        let unit = self.unit(c.proc, c.span);
        let fail = self.node(NodeKind::Error { site }, c.proc, c.span, unit);
        let mut cx = Compile::new(c.proc, c.span, unit, next, fail);
        // Reading through an invalid pointer violates it.
        cx.invalid = Some(fail);
        self.pred(&mut cx, &c.pred.lift(), next, fail)
    }

    /// The clause assumed: a run where it is false stops.
    fn assume(&mut self, cl: ClauseId, next: NodeId) -> NodeId {
        let c = self.p.contracts.clause(cl).clone();
        let unit = self.unit(c.proc, c.span);
        let stop = self.node(NodeKind::Halt, c.proc, c.span, unit);
        let mut cx = Compile::new(c.proc, c.span, unit, next, stop);
        // Reading through an invalid pointer, it does not hold.
        cx.invalid = Some(stop);
        self.pred(&mut cx, &c.pred.lift(), next, stop)
    }

    /// `g` is unchanged since `f` started (but where `allowed`, over the
    /// element `FRAME_INDEX` of an array, holds).
    fn frame_check(&mut self, f: ProcId, g: VarId, allowed: Option<Pred>, clause: ClauseId, next: NodeId) -> NodeId {
        let span = self.p.contracts.clause(clause).span;
        let site = self.site(SiteKind::Assert, f, span, None, false);
        self.sites.frames.insert((clause, g), site);
        let unit = self.unit(f, span);
        let fail = self.node(NodeKind::Error { site }, f, span, unit);
        let pred = unchanged(g, self.p.var(g).len, allowed, &FRAME_INDEX).lift();
        let mut cx = Compile::new(f, span, unit, next, fail);
        cx.in_range = true;
        self.pred(&mut cx, &pred, next, fail)
    }

    fn expr(&mut self, cx: &Compile, t: &Term) -> Expr {
        let span = cx.span;
        let kind = match t {
            Term::Const(c) => ExprKind::Const(*c),
            Term::Var { var, old } => ExprKind::Var(self.place(cx.f, *var, *old)),
            Term::Elem {
                var,
                old,
                index,
                guarded,
            } => {
                let i = self.expr(cx, index);
                let site = if *guarded {
                    self.site(SiteKind::Limit, cx.f, span, None, false)
                } else {
                    self.site(SiteKind::Bounds, cx.f, span, Some(*var), cx.in_range)
                };
                ExprKind::Elem(self.place(cx.f, *var, *old), Box::new(i), site)
            }
            Term::Result => match self.p.proc(cx.f).ret_var {
                Some(rv) => ExprKind::Var(rv),
                None => ExprKind::Const(0),
            },
            Term::Bound(n) => ExprKind::Var(self.counter(cx.f, *n, "k")),
            Term::Neg(x) => ExprKind::Neg(Box::new(self.expr(cx, x))),
            Term::Arith(op, a, b) => ExprKind::Arith(*op, Box::new(self.expr(cx, a)), Box::new(self.expr(cx, b))),
            Term::Div { num, den, rem } => {
                let (num, den) = (self.expr(cx, num), self.expr(cx, den));
                let site = self.site(SiteKind::DivByZero, cx.f, span, None, false);
                ExprKind::Div {
                    num: Box::new(num),
                    den: Box::new(den),
                    rem: *rem,
                    site,
                }
            }
            Term::Bit { op, ty, a, b } => {
                let (a, b) = (self.expr(cx, a), self.expr(cx, b));
                let site = op
                    .is_shift()
                    .then(|| self.site(SiteKind::Shift, cx.f, span, None, false));
                ExprKind::Bit {
                    op: *op,
                    ty: *ty,
                    a: Box::new(a),
                    b: Box::new(b),
                    site,
                    strict: false,
                }
            }
            // `pred` lifts conditionals and stops where a term is invalid.
            Term::Ite(..) | Term::Invalid => unreachable!("a lifted term: {t:?}"),
        };
        Expr { kind, span }
    }

    fn place(&self, f: ProcId, v: VarId, old: bool) -> VarId {
        if old {
            self.old.get(&(f, v)).copied().unwrap_or(v)
        } else {
            v
        }
    }

    fn counter(&mut self, f: ProcId, n: u32, name: &str) -> VarId {
        if let Some(&v) = self.counters.get(&(f, n)) {
            return v;
        }
        let span = self.p.proc(f).span;
        let v = self.new_var(f, name.to_string(), IntType::LongLong, None, span);
        self.counters.insert((f, n), v);
        v
    }

    fn branch(&mut self, cx: &Compile, atom: Atom, yes: NodeId, no: NodeId) -> NodeId {
        let n = self.node(
            NodeKind::Branch {
                cond: Cond::Atom(atom),
                then_: yes,
                else_: no,
            },
            cx.f,
            cx.span,
            cx.unit,
        );
        for (target, outcome) in [(yes, true), (no, false)] {
            if target == cx.ok {
                self.p.cond_exits.insert((n, outcome), true);
            } else if target == cx.fail {
                self.p.cond_exits.insert((n, outcome), false);
            }
        }
        n
    }

    /// Nodes evaluating `pred` (lifted: no conditional term): to `yes`
    /// where it holds, `no` where not.
    fn pred(&mut self, cx: &mut Compile, pred: &Pred, yes: NodeId, no: NodeId) -> NodeId {
        match pred {
            Pred::Bool(true) => yes,
            Pred::Bool(false) => no,
            Pred::Rel(_, a, b) if a.has_invalid() || b.has_invalid() => cx.invalid.unwrap_or(cx.fail),
            Pred::Quant { lo, hi, .. } if lo.has_invalid() || hi.has_invalid() => cx.invalid.unwrap_or(cx.fail),
            Pred::Cond(c, a, b) => {
                let a = self.pred(cx, a, yes, no);
                let b = self.pred(cx, b, yes, no);
                self.pred(cx, c, a, b)
            }
            Pred::Rel(op, a, b) => {
                let atom = Atom {
                    lhs: self.expr(cx, a),
                    op: *op,
                    rhs: self.expr(cx, b),
                };
                self.branch(cx, atom, yes, no)
            }
            Pred::Not(x) => self.pred(cx, x, no, yes),
            Pred::And(xs) => xs.iter().rev().fold(yes, |next, x| self.pred(cx, x, next, no)),
            Pred::Or(xs) => xs.iter().rev().fold(no, |next, x| self.pred(cx, x, yes, next)),
            Pred::Implies(a, b) => {
                let b = self.pred(cx, b, yes, no);
                self.pred(cx, a, b, yes)
            }
            Pred::Iff(a, b) => {
                let when_true = self.pred(cx, b, yes, no);
                let when_false = self.pred(cx, b, no, yes);
                self.pred(cx, a, when_true, when_false)
            }
            Pred::Quant {
                forall,
                var,
                name,
                lo,
                hi,
                body,
            } => {
                // q = lo; head: if (q < hi) { body } else done; step: q++.
                let q = self.counter(cx.f, *var, name);
                let span = cx.span;
                let qe = || Expr {
                    kind: ExprKind::Var(q),
                    span,
                };
                let head = self.node(NodeKind::Skip { next: NONE }, cx.f, span, cx.unit);
                let step = self.node(
                    NodeKind::Assign {
                        place: Place {
                            var: q,
                            index: None,
                            span,
                        },
                        value: Expr {
                            kind: ExprKind::Arith(
                                ArithOp::Add,
                                Box::new(qe()),
                                Box::new(Expr {
                                    kind: ExprKind::Const(1),
                                    span,
                                }),
                            ),
                            span,
                        },
                        next: head,
                    },
                    cx.f,
                    span,
                    cx.unit,
                );
                // `\forall`: a false body ends it (no), the range done is yes;
                // `\exists`: a true body ends it (yes), the range done is no.
                let (found, miss, done) = if *forall { (step, no, yes) } else { (yes, step, no) };
                let eval = self.pred(cx, body, found, miss);
                let hi = self.expr(cx, hi);
                let test = self.branch(
                    cx,
                    Atom {
                        lhs: qe(),
                        op: RelOp::Lt,
                        rhs: hi,
                    },
                    eval,
                    done,
                );
                self.set_next(head, test);
                let lo = self.expr(cx, lo);
                self.node(
                    NodeKind::Assign {
                        place: Place {
                            var: q,
                            index: None,
                            span,
                        },
                        value: lo,
                        next: head,
                    },
                    cx.f,
                    span,
                    cx.unit,
                )
            }
        }
    }
}

/// Where a formula's evaluation runs and ends.
struct Compile {
    /// Every index is within its array (the frame checks).
    in_range: bool,
    f: ProcId,
    span: Span,
    unit: UnitId,
    ok: NodeId,
    fail: NodeId,
    /// Where the formula goes when it reads through a pointer with no valid
    /// object there: it neither holds nor fails (`Pred::defined`), so a
    /// check is violated and an assumption stops the run.
    invalid: Option<NodeId>,
}

impl Compile {
    fn new(f: ProcId, span: Span, unit: UnitId, ok: NodeId, fail: NodeId) -> Compile {
        Compile {
            in_range: false,
            f,
            span,
            unit,
            ok,
            fail,
            invalid: None,
        }
    }
}
