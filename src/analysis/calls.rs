//! Calls and returns: the activations a call starts (with recursion
//! widening past the `--unroll` depth), and the state a return leads to,
//! with the callee's new symbols renamed away from the caller's.

use super::eval::{Evaluator, Mode, Outcome, SymEnv};
use super::frames::{fresh, Taken};
use super::state::*;
use super::step::{Explorer, Target};
use super::value::{AlphaKey, LinExpr, Sym, Value};
use crate::ir::*;
use std::collections::{BTreeSet, HashMap};

impl Explorer<'_> {
    /// Evaluates a call's arguments and result place: per outcome, the
    /// decisions and either (argument values, result slot) or an error.
    #[allow(clippy::type_complexity)]
    pub(super) fn call_outcomes(
        &self,
        c: CtxId,
        n: NodeId,
        val: &Valuation,
        follow: Option<(&[Decision], &mut usize)>,
    ) -> Vec<CallOutcome> {
        let NodeKind::Call { args, result, .. } = &self.cx.p.node(n).kind else {
            return Vec::new();
        };
        let proc = self.cx.p.node(n).proc;
        let mut env = self.env(c, proc, val);
        call_outcomes(self.cx.p, &mut env, n, args, result.as_ref(), follow)
    }

    /// The activations a call can start.
    pub fn calls(&self, c: CtxId, n: NodeId, v: ValId) -> Vec<(LabelId, CtxId)> {
        // Once a budget is spent, no new work: the fixpoint then ends soon
        // (and the verdicts of a cut graph are never "safe").
        if self.run.stopped() {
            return Vec::new();
        }
        let p = self.cx.p;
        let NodeKind::Call { callee, .. } = &p.node(n).kind else {
            return Vec::new();
        };
        let val = self.run.t.val(v);
        let mut out = Vec::new();
        for o in self.call_outcomes(c, n, &val, None) {
            let Ok((args, _)) = o.result else { continue };
            let l = self.label(o.decisions);
            let (start, depth) = self.callee_start(c, n, &val, *callee, &args);
            let key = CtxKey {
                proc: *callee,
                start,
                depth,
                caller: if self.opts.summaries { None } else { Some((c, n, v, l)) },
            };
            let c2 = self.run.t.intern_ctx(key);
            if self.run.admit((c2, p.proc(*callee).entry, start)) {
                out.push((l, c2));
            }
        }
        out
    }

    /// The callee's initial valuation before widening (its symbols are the
    /// caller's), and after; the recursion depth.
    fn callee_valuations(
        &self,
        c: CtxId,
        n: NodeId,
        val: &Valuation,
        callee: ProcId,
        args: &[Value],
    ) -> (Valuation, Valuation, u32) {
        let p = self.cx.p;
        let caller = p.node(n).proc;
        let cp = p.proc(callee);
        let mut u = self.frames.zeros(callee);
        let caller_view = &self.frames.views[caller.index()];
        for (i, g) in self.frames.views[callee.index()].slots.iter().enumerate() {
            if let Some(&j) = caller_view.pos.get(g) {
                u.set_global(i, val.globals()[j as usize].clone());
            }
        }
        for (param, a) in cp.params.iter().zip(args) {
            self.frames.write(callee, &mut u, *param, 0, a.clone());
        }
        // A recursive call of the entry draws the locals that were inputs.
        if callee == p.entry {
            let mut taken = val.syms();
            taken.extend(u.syms());
            let mut taken = Taken::new(taken);
            for &l in &cp.locals {
                if p.var(l).kind == VarKind::Local && p.var(l).init == VarInit::Input {
                    for k in 0..p.var(l).slots() {
                        let s = taken.make(Sym::Draw(n, 0));
                        self.frames.write(callee, &mut u, l, k, Value::sym(s));
                    }
                }
            }
        }
        let ctx = self.run.t.ctx(c);
        let depth = if self.cx.a.scc[caller.index()] == self.cx.a.scc[callee.index()] {
            (ctx.depth + 1).min(self.opts.unroll + 1)
        } else {
            0
        };
        let mut w = u.clone();
        if depth > self.opts.unroll {
            // Deep recursion: what is not a constant becomes unknown.
            let mut taken = u.syms();
            let globals: Vec<u32> = self.frames.views[callee.index()].slots.clone();
            for (i, g) in globals.iter().enumerate() {
                if w.globals()[i].as_const().is_none() {
                    let s = fresh(&taken, Sym::Alpha(AlphaKey::Recursion(callee, *g), 0));
                    taken.insert(s);
                    w.set_global(i, Value::sym(s));
                }
            }
            for (i, &param) in cp.params.iter().enumerate() {
                if self.frames.read(callee, &w, param, 0).as_const().is_none() {
                    let s = fresh(&taken, Sym::Alpha(AlphaKey::Recursion(callee, (1 << 30) + i as u32), 0));
                    taken.insert(s);
                    self.frames.write(callee, &mut w, param, 0, Value::sym(s));
                }
            }
        }
        (u, w, depth)
    }

    fn callee_start(&self, c: CtxId, n: NodeId, val: &Valuation, callee: ProcId, args: &[Value]) -> (ValId, u32) {
        let (_, w, depth) = self.callee_valuations(c, n, val, callee, args);
        (self.run.t.intern_val(w), depth)
    }

    /// Where a call returns to, given the callee's exit valuation; plus user
    /// conditions the result may violate.
    pub fn returns(&self, c: CtxId, n: NodeId, v: ValId, l: LabelId, x: ValId) -> Vec<(LabelId, Target)> {
        if self.run.stopped() {
            return Vec::new();
        }
        let p = self.cx.p;
        let NodeKind::Call { callee, next, .. } = &p.node(n).kind else {
            return Vec::new();
        };
        let caller = p.node(n).proc;
        let val = self.run.t.val(v);
        let exit = self.run.t.val(x);
        let label = self.run.t.label(l);
        let mut cursor = 0;
        let outcome = self
            .call_outcomes(c, n, &val, Some((&label.0, &mut cursor)))
            .into_iter()
            .find_map(|o| o.result.ok());
        let Some((args, result)) = outcome else {
            return Vec::new();
        };
        let (u, start, depth) = self.callee_valuations(c, n, &val, *callee, &args);
        let mut w = (*val).clone();
        // What stays of the caller's values, for renaming; and the caller's
        // own start symbols, which it must not make again.
        let callee_view = &self.frames.views[callee.index()];
        let mut taken: BTreeSet<Sym> = self.run.t.val(self.run.t.ctx(c).start).syms();
        for (i, g) in self.frames.views[caller.index()].slots.iter().enumerate() {
            if !callee_view.pos.contains_key(g) {
                taken.extend(w.globals()[i].syms());
            }
        }
        let result_slot = result.map(|(var, k)| self.frames.slot_of(var, k));
        for (i, x) in w.locals().iter().enumerate() {
            if Some(VarSlot::Local(i as u32)) != result_slot {
                taken.extend(x.syms());
            }
        }
        // The caller's values the callee started with keep their names:
        // the callee never makes those symbols again (see `taken`).
        let start_syms = start.syms();
        let keep: BTreeSet<Sym> = u.syms().into_iter().filter(|s| start_syms.contains(s)).collect();
        // Kept symbols come back (`g0 = g1` in the callee): a renamed one
        // must not become one of them.
        taken.extend(keep.iter().copied());
        let mut taken = Taken::new(taken);
        let mut renaming: HashMap<Sym, Sym> = HashMap::new();
        let mut rename = |x: &Value| -> Value {
            match x {
                Value::Const(_) => x.clone(),
                Value::Lin(l) => {
                    let e = l.substitute(&mut |s| {
                        if keep.contains(&s) {
                            return None;
                        }
                        let t = *renaming.entry(s).or_insert_with(|| taken.make(s.family()));
                        Some(LinExpr::sym(t))
                    });
                    e.map(Value::from_lin).unwrap_or_else(|| x.clone())
                }
            }
        };
        let mut back: Vec<(usize, Value)> = Vec::new();
        for (i, g) in callee_view.slots.iter().enumerate() {
            if let Some(&j) = self.frames.views[caller.index()].pos.get(g) {
                back.push((j as usize, rename(&exit.globals()[i])));
            }
        }
        let result_value = match (result, p.proc(*callee).ret_var) {
            (Some(_), Some(rv)) => Some(rename(&self.frames.read(*callee, &exit, rv, 0))),
            _ => None,
        };
        // Symbols the callee made, as the caller now names them (a dead
        // symbol's bounds do not hold for them).
        let made: BTreeSet<Sym> = renaming.values().copied().collect();
        for s in &made {
            w.forget(*s);
        }
        // Past the recursion bound what a call gives back is widened too
        // (else `return n + f(n - 1)` yields 0, a, 2a, ... without end);
        // constants as well when the activation was entered with unknown
        // values (else the sums of constants `fib` returns, 0, 1, 2, 3, ...,
        // grow without end). A recursion on constants only is the program's
        // own and keeps its constants. Within the bound, a recursive call's
        // result that holds symbols the callee made is widened to one
        // symbol: else every way of combining the results of deeper calls
        // (`fib(n - 1) + fib(n - 2)`) is an exit of its own, and their
        // number multiplies at each level.
        // Likewise a constant the callee computed from deeper results (the
        // sums `fib` returns) when it was entered with unknown values: it
        // keeps only the constants its own code writes (`return 0`, a
        // `_Bool`'s 0 and 1) and those it was given.
        let deep = depth > self.opts.unroll;
        let symbolic = !start_syms.is_empty();
        let recursive = depth > 0;
        let literals = &self.literals[callee.index()];
        // A constant the activation was given (an argument, a global at
        // entry: the key a recursive tree insertion stores) is no sum of
        // deeper results: it comes back as it is.
        // (Collected only where the rule below asks: a return is a hot path.)
        let given: BTreeSet<i64> = match recursive && symbolic && !deep {
            true => start
                .globals()
                .iter()
                .chain(start.locals().iter())
                .filter_map(Value::as_const)
                .collect(),
            false => BTreeSet::new(),
        };
        let mut widen = |v: Value, key: u32| -> Value {
            let keep = match v.as_const() {
                _ if !recursive => true,
                Some(k) => !symbolic || (!deep && (literals.contains(&k) || given.contains(&k))),
                None => !deep && v.syms().iter().all(|s| !made.contains(s)),
            };
            if keep {
                return v;
            }
            Value::sym(taken.make(Sym::Alpha(AlphaKey::Recursion(*callee, key), 0)))
        };
        // The callee's globals come back unchanged in name and place: the
        // caller takes its vector, shared (a sort of a global array that
        // returns a permutation would otherwise copy the array per return).
        let caller_slots = &self.frames.views[caller.index()].slots;
        let shared = !recursive
            && callee_view.slots == *caller_slots
            && back.len() == caller_slots.len()
            && back
                .iter()
                .enumerate()
                .all(|(i, (j, nv))| *j == i && *nv == exit.globals()[i]);
        if shared {
            w.set_globals(exit.globals());
        } else {
            for (j, nv) in back {
                let g = self.frames.views[caller.index()].slots[j];
                let nv = match self.frames.bookkeeping.contains(&g) {
                    true => nv,
                    false => widen(nv, (1 << 29) + g),
                };
                w.set_global(j, nv);
            }
        }
        let mut written = Vec::new();
        if let (Some((var, k)), Some(r)) = (result, result_value) {
            let r = widen(r, 1 << 28);
            self.frames.write(caller, &mut w, var, k, r);
            written.push(var);
        }
        let mut out = Vec::new();
        self.violations(c, n, &w, &written, &[], &mut out);
        let w = self.advance(c, caller, n, *next, w, false);
        self.step_to(c, vec![], *next, w, &mut out);
        self.stop_if_error(&out);
        out
    }
}

/// The constants each procedure's code writes as a whole value (`x = 3`,
/// `return 0`).
pub fn literals(p: &Program) -> Vec<BTreeSet<i64>> {
    let mut out = vec![BTreeSet::new(); p.procs.len()];
    for id in p.node_ids() {
        let node = p.node(id);
        let value = match &node.kind {
            NodeKind::Assign { value, .. } => value,
            NodeKind::Return { value: Some(value), .. } => value,
            _ => continue,
        };
        if let ExprKind::Const(k) = value.kind {
            out[node.proc.index()].insert(k);
        }
    }
    out
}

/// The argument values and the result slot of a call.
pub type CallValues = (Vec<Value>, Option<(VarId, u32)>);
pub type CallOutcome = Outcome<CallValues>;

/// Evaluates a call's arguments, then its result place; `follow` names the
/// recorded decisions of a path (`None`: every outcome).
pub fn call_outcomes(
    p: &Program,
    env: &mut dyn SymEnv,
    n: NodeId,
    args: &[Expr],
    result: Option<&Place>,
    mut follow: Option<(&[Decision], &mut usize)>,
) -> Vec<CallOutcome> {
    fn mode<'m>(follow: &'m mut Option<(&[Decision], &mut usize)>) -> Mode<'m> {
        match follow {
            None => Mode::All,
            Some((ds, cur)) => Mode::Follow(ds, cur),
        }
    }
    // Partial outcomes: the argument values so far.
    let mut partial: Vec<Outcome<Vec<Value>>> = vec![Outcome {
        decisions: vec![],
        constraints: vec![],
        result: Ok(vec![]),
    }];
    let mut done = Vec::new();
    for a in args {
        let mut next = Vec::new();
        for part in partial {
            let Ok(vals) = part.result else { continue };
            let outs = Evaluator {
                p,
                env: &mut *env,
                mode: mode(&mut follow),
                node: n,
            }
            .expr(a);
            for o in outs {
                let mut d = part.decisions.clone();
                d.extend(o.decisions);
                let mut c = part.constraints.clone();
                c.extend(o.constraints);
                match o.result {
                    Err(site) => done.push(Outcome {
                        decisions: d,
                        constraints: c,
                        result: Err(site),
                    }),
                    Ok(v) => {
                        let mut vals2 = vals.clone();
                        vals2.push(v);
                        next.push(Outcome {
                            decisions: d,
                            constraints: c,
                            result: Ok(vals2),
                        });
                    }
                }
            }
        }
        partial = next;
    }
    for part in partial {
        let Ok(vals) = part.result else { continue };
        match result {
            None => done.push(Outcome {
                decisions: part.decisions,
                constraints: part.constraints,
                result: Ok((vals, None)),
            }),
            Some(pl) => {
                let outs = Evaluator {
                    p,
                    env: &mut *env,
                    mode: mode(&mut follow),
                    node: n,
                }
                .place(pl);
                for o in outs {
                    let mut d = part.decisions.clone();
                    d.extend(o.decisions);
                    let mut c = part.constraints.clone();
                    c.extend(o.constraints);
                    done.push(Outcome {
                        decisions: d,
                        constraints: c,
                        result: o.result.map(|slot| (vals.clone(), Some(slot))),
                    });
                }
            }
        }
    }
    done
}
