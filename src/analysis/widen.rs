//! Loop widening. Each valuation carries, for every loop its activation is
//! inside, what this path did there (`LoopVisit`): whether it took a
//! non-concrete decision, how often it reached the head (up to `--unroll`)
//! and the values the loop's widenable slots had at its last head visit.
//! Once a path has reached a head `--unroll` times and decided something
//! in the loop, the values that changed since the last visit are widened
//! (replaced by abstraction symbols): at once in a loop without an exit
//! test, else when the next iteration passes its exit test (values on the
//! way out stay exact). The decision reads only the state, so the explored
//! graph does not depend on the order the rules run in.
//!
//! A variable the program assigns nothing but constants (a mode, a flag, a
//! lock) takes finitely many values: it is never widened, and stays exact.
//! For any other (a counter, a sum) a path keeps only the value of its last
//! head visit: remembering all of them made every path's history distinct
//! (a loop that adds one of 3 constants for 10 iterations made 3^10
//! histories, where the sums take 66 values; 6 lock flags, 3^6 histories
//! of the values seen).

use super::frames::{taken_of, Taken};
use super::state::*;
use super::step::Explorer;
use super::value::{AlphaKey, Sym, Value};
use crate::facts::Analysis;
use crate::ir::*;
use std::collections::HashMap;

/// The loops of the program as the explorer reads them.
pub struct LoopFacts {
    /// Loops (indices into `Analysis::loops`) whose body holds each node.
    of_node: Vec<Vec<u32>>,
    /// Exit tests: a branch of a loop with one successor outside it; the
    /// loop and the successor that stays inside.
    exit_tests: HashMap<NodeId, Vec<(u32, NodeId)>>,
    /// Loops with at least one exit test.
    has_exit_test: Vec<bool>,
    /// By variable: the program assigns it nothing but constants.
    constant_only: Vec<bool>,
}

/// An expression whose value is a constant (literals through operators).
fn is_constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Const(_) => true,
        ExprKind::Neg(x) | ExprKind::Conv(_, x) => is_constant(x),
        ExprKind::Arith(_, a, b) => is_constant(a) && is_constant(b),
        _ => false,
    }
}

/// Variables that no statement gives a value other than a constant.
fn constant_only(p: &Program) -> Vec<bool> {
    let mut only = vec![true; p.vars.len()];
    for n in &p.nodes {
        match &n.kind {
            NodeKind::Assign { place, value, .. } if !is_constant(value) => only[place.var.index()] = false,
            NodeKind::Havoc { place, .. } => only[place.var.index()] = false,
            NodeKind::Call {
                result: Some(place), ..
            } => only[place.var.index()] = false,
            _ => {}
        }
    }
    only
}

impl LoopFacts {
    pub fn new(p: &Program, a: &Analysis) -> LoopFacts {
        let mut of_node = vec![Vec::new(); p.nodes.len()];
        let mut exit_tests: HashMap<NodeId, Vec<(u32, NodeId)>> = HashMap::new();
        let mut has_exit_test = vec![false; a.loops.len()];
        for (i, l) in a.loops.iter().enumerate() {
            for &b in &l.body {
                of_node[b.index()].push(i as u32);
                if let NodeKind::Branch { then_, else_, .. } = &p.node(b).kind {
                    let stay = match (l.body.contains(then_), l.body.contains(else_)) {
                        (true, false) => *then_,
                        (false, true) => *else_,
                        _ => continue,
                    };
                    exit_tests.entry(b).or_default().push((i as u32, stay));
                    has_exit_test[i] = true;
                }
            }
        }
        LoopFacts {
            of_node,
            exit_tests,
            has_exit_test,
            constant_only: constant_only(p),
        }
    }
}

impl Explorer<'_> {
    /// The valuation on entering `to` from `from`: loop bookkeeping and,
    /// past the unrolling bound, widening.
    pub(super) fn advance(
        &self,
        c: CtxId,
        proc: ProcId,
        from: NodeId,
        to: NodeId,
        mut w: Valuation,
        decided: bool,
    ) -> ValId {
        let loops = self.loops;
        if decided {
            for lv in &mut w.loops {
                if loops.of_node[from.index()].contains(&lv.lp) {
                    lv.decided = true;
                }
            }
        }
        // An exit test that stays in its loop: the iteration goes on, so
        // what changed in the last one is widened now.
        for &(l, stay) in loops.exit_tests.get(&from).into_iter().flatten() {
            if stay == to {
                if let Some(i) = w.loops.iter().position(|lv| lv.lp == l && !lv.pending.is_empty()) {
                    let pending = std::mem::take(&mut w.loops[i].pending);
                    self.widen(c, proc, l, &pending, &mut w);
                }
            }
        }
        // At the exit only the globals and the return value live on: the
        // locals are dropped, so one effect is one summary.
        if let NodeKind::Exit = self.cx.p.node(to).kind {
            let rv = self
                .cx
                .p
                .proc(proc)
                .ret_var
                .map(|rv| self.cx.layout.offset[rv.index()] as usize);
            for i in 0..w.locals().len() {
                if Some(i) != rv {
                    w.set_local(i, Value::Const(0));
                }
            }
        }
        let inside = &loops.of_node[to.index()];
        w.loops.retain(|lv| inside.contains(&lv.lp));
        if self.opts.exact_loops {
            return self.run.t.intern_val(w);
        }
        if let Some(&l) = self.cx.a.loop_at.get(&to) {
            let l = l as u32;
            let i = match w.loops.iter().position(|lv| lv.lp == l) {
                Some(i) => i,
                None => {
                    w.loops.push(LoopVisit::new(l));
                    w.loops.len() - 1
                }
            };
            self.head_visit(c, proc, l, i, &mut w);
        }
        self.run.t.intern_val(w)
    }

    /// The slots a loop writes that belong to this activation and may be
    /// widened (not those of variables assigned only constants).
    fn loop_slots(&self, proc: ProcId, l: u32) -> Vec<(VarId, u32)> {
        let p = self.cx.p;
        let mut slots = Vec::new();
        for &var in &self.cx.a.loops[l as usize].modifies {
            let v = p.var(var);
            if (!v.is_global_storage() && v.proc != Some(proc)) || self.loops.constant_only[var.index()] {
                continue;
            }
            for k in 0..v.slots() {
                slots.push((var, k));
            }
        }
        slots
    }

    /// A visit of a loop head: a change still pending from the previous
    /// iteration (no exit test on its path) is widened now; past the bound,
    /// widenable values that changed since the last visit become pending
    /// (or are widened at once in a loop without exit tests); within the
    /// bound, the values are recorded.
    fn head_visit(&self, c: CtxId, proc: ProcId, l: u32, i: usize, w: &mut Valuation) {
        let slots = self.loop_slots(proc, l);
        let stale = std::mem::take(&mut w.loops[i].pending);
        if !stale.is_empty() {
            self.widen(c, proc, l, &stale, w);
        }
        let now: Vec<Value> = slots
            .iter()
            .map(|&(var, k)| self.frames.read(proc, w, var, k))
            .collect();
        let bound = self.opts.unroll;
        let lv = &mut w.loops[i];
        if lv.visits < bound {
            lv.visits += 1;
            for (j, v) in now.into_iter().enumerate() {
                lv.see(j as u32, v);
            }
            return;
        }
        if !lv.decided {
            return;
        }
        let fresh_values: Vec<u32> = now
            .iter()
            .enumerate()
            .filter(|(j, v)| !lv.had(*j as u32, v))
            .map(|(j, _)| j as u32)
            .collect();
        if fresh_values.is_empty() {
            return;
        }
        let fresh_values = self.whole_arrays(l, &slots, &now, fresh_values);
        if self.loops.has_exit_test[l as usize] {
            lv.pending = fresh_values;
        } else {
            self.widen(c, proc, l, &fresh_values, w);
        }
    }

    /// The slots to widen when `fresh` changed: an array with a changed
    /// element is widened whole (each element not holding its widening
    /// symbol yet). Element by element, a loop writing at a widened index
    /// made a state for every subset of elements written so far: twice the
    /// states per element, 2 million for a `malloc` of `--heap-elems 16`
    /// whose elements past the allocated size no run writes (issue 50).
    fn whole_arrays(&self, l: u32, slots: &[(VarId, u32)], now: &[Value], fresh: Vec<u32>) -> Vec<u32> {
        let p = self.cx.p;
        let arrays: std::collections::HashSet<VarId> = fresh
            .iter()
            .map(|&j| slots[j as usize].0)
            .filter(|&v| p.var(v).len.is_some())
            .collect();
        if arrays.is_empty() {
            return fresh;
        }
        let head = self.cx.a.loops[l as usize].head;
        let widened = |var: VarId, k: u32, v: &Value| {
            let key = self.frames.slot_key(var, k);
            v.syms().into_iter().any(|s| match s {
                Sym::Alpha(AlphaKey::Widen(h, x), _) if h == head && x == key => *v == Value::sym(s),
                _ => false,
            })
        };
        let mut out: std::collections::BTreeSet<u32> = fresh.into_iter().collect();
        for (j, &(var, k)) in slots.iter().enumerate() {
            if arrays.contains(&var) && !widened(var, k, &now[j]) {
                out.insert(j as u32);
            }
        }
        out.into_iter().collect()
    }

    /// Replaces the given slots of what the loop writes by fresh abstraction
    /// symbols.
    fn widen(&self, c: CtxId, proc: ProcId, l: u32, which: &[u32], w: &mut Valuation) {
        let head = self.cx.a.loops[l as usize].head;
        let slots = self.loop_slots(proc, l);
        let chosen: Vec<(VarId, u32)> = which.iter().filter_map(|&j| slots.get(j as usize).copied()).collect();
        for &(var, k) in &chosen {
            self.frames.write(proc, w, var, k, Value::Const(0));
        }
        let family = |var: VarId, k: u32| Sym::Alpha(AlphaKey::Widen(head, self.frames.slot_key(var, k)), 0);
        let families: std::collections::HashSet<Sym> = chosen.iter().map(|&(var, k)| family(var, k)).collect();
        let mut taken = Taken::new(taken_of(&self.run.t, c, w, &|f| families.contains(&f)));
        for &(var, k) in &chosen {
            let s = taken.make(family(var, k));
            self.frames.write(proc, w, var, k, Value::sym(s));
        }
    }
}
