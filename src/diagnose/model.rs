//! The seed's symbolic model of one condition (seed 003, §3): inputs ν,
//! abstraction variables α, the invariant I and the success condition φ,
//! read off the guarded commands of `--loops havoc`.
//!
//! The guarded commands form a DAG (loops are cut at their heads). We run
//! it symbolically, block by block in topological order: each block gets a
//! path condition (over ν and α only) and a store of terms; where paths
//! join, a variable gets an `ite` over the predecessors' path conditions
//! (the seed's value sets, Fig. 2). Then:
//! - a value the run supplies is an input ν: an input slot, a `nondet()`
//!   draw, the outcome of `if (*)`;
//! - a value the model does not track is an abstraction variable α: what a
//!   loop writes, at its head (after the loop when the condition is checked
//!   after it and the loop is left only through its test); what a call that
//!   is not inlined returns or writes; a product or quotient of unknowns;
//! - I holds the type ranges of inputs and, under the path condition of
//!   their loop head, the loop invariants (the user's and inferred ones that
//!   the engine proved inductive); a square is non-negative;
//! - φ holds unless some path reaches a failure of the condition. Other
//!   checks end the paths they cut (`assert P; assume P`), as a run does.
//!
//! Every real run, read at the right visits of its loop heads, satisfies I,
//! and fails the condition exactly when its valuation falsifies φ: hence
//! Lemmas 1 and 2.

use super::abduce::{op, var_index};
use crate::facts::Analysis;
use crate::ir::fixed_hash::FixedSet;
use crate::ir::*;
use crate::vc::gc::{CheckKey, Cmd, EventKind, Gc};
use crate::vc::passive::topo_order;
use crate::vc::term::{self, Env, Formula, Term, Val, VarKey, GLOBAL};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use z3::ast::{Array, Ast, Bool, Dynamic, Int};
use z3::{Sort, SortKind};

/// Where a variable of the model comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// An input slot of the run, by its `--input` name.
    Input { name: String, var: VarId },
    /// A value drawn at a node (`nondet()`, `__VERIFIER_nondet_int()`).
    Draw { node: NodeId, frame: u32 },
    /// The outcome of `if (*)` at a node (1 then, 0 else).
    Choice { node: NodeId, frame: u32 },
    /// A variable the loop writes, at the loop's head. `after`: the
    /// condition is checked after the loop, which is left only through its
    /// test, so the value that matters is the one after the loop.
    Loop {
        head: NodeId,
        frame: u32,
        var: VarId,
        after: bool,
    },
    /// What a call that is not inlined returns (`var` None) or writes.
    Call {
        node: NodeId,
        frame: u32,
        var: Option<VarId>,
    },
    /// An operation outside linear arithmetic, defined over other variables.
    Op { def: Int },
    /// A variable read before any write on some path.
    Unset { var: VarId, frame: u32 },
}

#[derive(Clone, Debug)]
pub struct SymVar {
    /// The Z3 constant, named `v<index>`.
    pub z3: Int,
    pub origin: Origin,
    /// The source name (a variable, an input, an expression).
    pub name: String,
}

impl SymVar {
    /// An input ν (the environment chooses it); otherwise an abstraction α.
    pub fn is_input(&self) -> bool {
        matches!(
            self.origin,
            Origin::Input { .. } | Origin::Draw { .. } | Origin::Choice { .. }
        )
    }
}

/// The model of one condition.
pub struct Model {
    pub vars: Vec<SymVar>,
    /// I: what holds of every run's valuation, read at the last visit of
    /// each loop head whose values matter after the loop, for runs that
    /// leave such loops (the only runs that reach the condition): with the
    /// loops' exit tests.
    pub inv: Bool,
    /// I for every run (without the exit tests): what Lemma 2 may use.
    pub inv_base: Bool,
    /// Per loop head (node, frame): where a question about its variables
    /// is asked. After the loop: a path leaves it; at its head: a path
    /// reaches it.
    pub at: BTreeMap<(NodeId, u32), Bool>,
    /// φ: the condition does not fail.
    pub phi: Bool,
    /// The variables that occur in I or φ, by index.
    pub used: Vec<usize>,
}

type Store = im::OrdMap<VarKey, Val>;

struct Exec<'a> {
    p: &'a Program,
    gc: &'a Gc,
    vars: Vec<SymVar>,
    fresh: BTreeMap<u32, Int>,
    choices: BTreeMap<usize, Int>,
    /// Facts of I.
    inv: Vec<Bool>,
    /// Where the block being run comes from.
    origin: Option<(NodeId, u32)>,
}

impl Exec<'_> {
    fn new_var(&mut self, origin: Origin, name: String) -> Int {
        let z3 = Int::new_const(format!("v{}", self.vars.len()));
        self.vars.push(SymVar {
            z3: z3.clone(),
            origin,
            name,
        });
        z3
    }

    fn var_name(&self, k: VarKey) -> String {
        self.p.var(k.var).name.clone()
    }

    /// A fresh value for `k` (scalar) or a fresh array.
    fn fresh_val(&mut self, k: VarKey, origin: Origin) -> Val {
        if self.p.var(k.var).len.is_some() {
            let name = format!("arr{}", self.vars.len());
            // Arrays are not variables of the model: a question over one
            // is not asked (the model says so when one remains).
            Val::Arr(Array::new_const(name, &Sort::int(), &Sort::int()))
        } else {
            let name = self.var_name(k);
            Val::Int(self.new_var(origin, name))
        }
    }
}

struct BlockEnv<'e, 'a> {
    ex: &'e mut Exec<'a>,
    store: &'e mut Store,
}

impl Env for BlockEnv<'_, '_> {
    fn int(&mut self, k: VarKey) -> Int {
        self.get(k).into_int()
    }

    fn array(&mut self, k: VarKey) -> Array {
        self.get(k).into_array()
    }

    fn fresh(&mut self, n: u32) -> Int {
        if let Some(x) = self.ex.fresh.get(&n) {
            return x.clone();
        }
        let p = self.ex.p;
        let (origin, name) = match self.ex.origin {
            Some((node, frame)) => match &p.node(node).kind {
                NodeKind::Havoc { place, .. } => (Origin::Draw { node, frame }, p.var(place.var).name.clone()),
                NodeKind::Call { callee, .. } => (
                    Origin::Call { node, frame, var: None },
                    format!("{}()", p.proc(*callee).name),
                ),
                _ => (Origin::Unset { var: VarId(0), frame }, "?".into()),
            },
            None => (
                Origin::Unset {
                    var: VarId(0),
                    frame: 0,
                },
                "?".into(),
            ),
        };
        let x = self.ex.new_var(origin, name);
        self.ex.fresh.insert(n, x.clone());
        x
    }

    fn enabled(&mut self, _n: usize) -> Bool {
        // Only invariants the engine proved are given to the model.
        Bool::from_bool(true)
    }
}

impl BlockEnv<'_, '_> {
    fn get(&mut self, k: VarKey) -> Val {
        if let Some(v) = self.store.get(&k) {
            return v.clone();
        }
        let v = self.ex.fresh_val(
            k,
            Origin::Unset {
                var: k.var,
                frame: k.frame,
            },
        );
        self.store.insert(k, v.clone());
        v
    }
}

/// The range assumption `lo <= Fresh(n) <= hi` of a draw: n, lo, hi.
fn draw_range(f: &Formula) -> Option<(u32, (i64, i64))> {
    match f {
        Formula::And(xs) => match xs.as_slice() {
            [Formula::Rel(RelOp::Ge, Term::Fresh(n), Term::Const(lo)), Formula::Rel(RelOp::Le, Term::Fresh(m), Term::Const(hi))]
                if n == m =>
            {
                Some((*n, (*lo, *hi)))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The type range of an input as a fact of I: exactly for small types;
/// for wide ones only the sign of unsigned types, as in the seed (its
/// integers are unbounded, and a weaker I is still true of every run).
fn range_fact(x: &Int, (lo, hi): (i64, i64)) -> Bool {
    if (hi as i128 - lo as i128) <= 65_535 {
        Bool::and(&[x.ge(Int::from_i64(lo)), x.le(Int::from_i64(hi))])
    } else if lo >= 0 {
        x.ge(Int::from_i64(lo))
    } else {
        Bool::from_bool(true)
    }
}

/// Builds the model of the condition `target` from the guarded commands of
/// `--loops havoc` (built with the invariants the engine kept).
pub fn build(p: &Program, a: &Analysis, gc: &Gc, target: CheckKey) -> Result<Model, String> {
    if gc.too_big {
        return Err("the program is too big to model".into());
    }
    let order = topo_order(gc);
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); gc.blocks.len()];
    for &b in &order {
        for &s in &gc.blocks[b].succs {
            preds[s].push(b);
        }
    }
    let mut ex = Exec {
        p,
        gc,
        vars: Vec::new(),
        fresh: BTreeMap::new(),
        choices: BTreeMap::new(),
        inv: Vec::new(),
        origin: None,
    };
    let after = after_loops(p, a, gc, target);
    let mut out: Vec<Option<(Bool, Store)>> = vec![None; gc.blocks.len()];
    let mut fails: Vec<Bool> = Vec::new();
    // Per loop whose values matter after it: the path conditions of its
    // head and of its exits.
    let mut reach: BTreeMap<(NodeId, u32), (Vec<Bool>, Vec<Bool>)> = BTreeMap::new();
    for &b in &order {
        let (mut pc, mut store) = if b == 0 {
            (Bool::from_bool(true), initial_store(&mut ex))
        } else {
            merge(&preds[b], &out)
        };
        let block = &gc.blocks[b];
        ex.origin = block.inst;
        let head = block
            .cmds
            .iter()
            .any(|c| matches!(c, Cmd::Event(e) if e.kind == EventKind::LoopHead));
        for c in &block.cmds {
            let mut env = BlockEnv {
                ex: &mut ex,
                store: &mut store,
            };
            match c {
                Cmd::Assume(Formula::Enabled(_, f)) => {
                    let f = term::formula(f, &mut env);
                    ex.inv.push(pc.implies(&f));
                }
                Cmd::Assume(f) if draw_range(f).is_some() => {
                    let (n, range) = draw_range(f).expect("a draw's range");
                    let x = env.fresh(n);
                    ex.inv.push(range_fact(&x, range));
                }
                Cmd::Assume(f) => {
                    let f = term::formula(f, &mut env);
                    pc = Bool::and(&[pc, f]);
                }
                Cmd::Assert(f, check) => {
                    if gc.checks[*check].key == target {
                        let f = term::formula(f, &mut env);
                        fails.push(Bool::and(&[pc.clone(), f.not()]));
                    }
                }
                Cmd::Assign(k, t) => {
                    let v = term::int(t, &mut env);
                    store.insert(*k, Val::Int(v));
                }
                Cmd::Copy(to, from) => {
                    let v = env.get(*from);
                    store.insert(*to, v);
                }
                Cmd::Store(k, i, t) => {
                    let i = term::int(i, &mut env);
                    let v = term::int(t, &mut env);
                    let arr = env.array(*k).store(&i, &v);
                    store.insert(*k, Val::Arr(arr));
                }
                Cmd::Havoc(k, range) => {
                    let (node, frame) = block.inst.unwrap_or((NodeId(0), k.frame));
                    let origin = if head {
                        Origin::Loop {
                            head: node,
                            frame,
                            var: k.var,
                            after: after.contains(&(node, frame)),
                        }
                    } else {
                        match p.node(node).kind {
                            NodeKind::Call { .. } => Origin::Call {
                                node,
                                frame,
                                var: Some(k.var),
                            },
                            _ => Origin::Draw { node, frame },
                        }
                    };
                    let v = ex.fresh_val(*k, origin);
                    if let (Val::Int(x), Some((lo, hi))) = (&v, range) {
                        ex.inv.push(range_fact(x, (*lo, *hi)));
                    }
                    store.insert(*k, v);
                }
                Cmd::Choice(Term::Const(v)) => {
                    // The first command of a branch of `if (*)`: the
                    // outcome is an input of the branching block.
                    let from = preds[b].first().copied().unwrap_or(b);
                    let x = choice_var(&mut ex, from);
                    pc = Bool::and(&[pc, x.eq(Int::from_i64(*v))]);
                }
                Cmd::Choice(_) | Cmd::Event(_) => {}
            }
        }
        if let Some((n, f)) = block.inst.filter(|_| head) {
            reach.entry((n, f)).or_default().0.push(pc.clone());
        }
        if let Some(l) = exit_of(a, gc, &preds, b, &after) {
            reach.entry(l).or_default().1.push(pc.clone());
        }
        out[b] = Some((pc, store));
        // A store is dropped once every successor of its block has run.
        for &pb in &preds[b] {
            if gc.blocks[pb].succs.iter().all(|&s| out[s].is_some()) {
                if let Some((pc, _)) = &out[pb] {
                    out[pb] = Some((pc.clone(), Store::new()));
                }
            }
        }
    }
    let phi = Bool::or(&fails).not().simplify();
    let inv_base = Bool::and(&ex.inv).simplify();
    let mut exits = Vec::new();
    let mut at = BTreeMap::new();
    for (l, (heads, outs)) in &reach {
        if after.contains(l) {
            exits.push(Bool::or(heads).implies(Bool::or(outs)));
            at.insert(*l, Bool::or(outs));
        } else {
            at.insert(*l, Bool::or(heads));
        }
    }
    let inv = Bool::and(&[inv_base.clone(), Bool::and(&exits)]);
    finish(ex.vars, inv, inv_base, phi, at)
}

/// The loop (head, frame) whose exit the edge block `b` is: it leaves a
/// node of the loop's body for one outside, in the same frame.
fn exit_of(
    a: &Analysis,
    gc: &Gc,
    preds: &[Vec<usize>],
    b: usize,
    after: &BTreeSet<(NodeId, u32)>,
) -> Option<(NodeId, u32)> {
    let block = &gc.blocks[b];
    if block.inst.is_some() || preds[b].len() != 1 || block.succs.len() != 1 {
        return None;
    }
    let (from, f) = gc.blocks[preds[b][0]].inst?;
    let (to, f2) = gc.blocks[block.succs[0]].inst?;
    if f != f2 {
        return None;
    }
    after.iter().copied().find(|&(h, hf)| {
        hf == f && {
            let body = &a.loops[a.loop_at[&h]].body;
            body.contains(&from) && !body.contains(&to)
        }
    })
}

/// The outcome variable of `if (*)` in block `b`.
fn choice_var(ex: &mut Exec, b: usize) -> Int {
    if let Some(x) = ex.choices.get(&b) {
        return x.clone();
    }
    let (node, frame) = ex.gc.blocks[b].inst.unwrap_or((NodeId(0), 0));
    let x = ex.new_var(Origin::Choice { node, frame }, "*".into());
    ex.inv
        .push(Bool::and(&[x.ge(Int::from_i64(0)), x.le(Int::from_i64(1))]));
    ex.choices.insert(b, x.clone());
    x
}

/// The store at the entry: constant initial values, inputs (with their
/// types' ranges in I).
fn initial_store(ex: &mut Exec) -> Store {
    let p = ex.p;
    let mut store = Store::new();
    let entry = p.proc(p.entry);
    let mut keys: Vec<VarKey> = p.globals.iter().map(|&g| VarKey { var: g, frame: GLOBAL }).collect();
    keys.extend(entry.locals.iter().map(|&l| VarKey { var: l, frame: 0 }));
    let slots: HashMap<(VarId, Option<u32>), String> = p
        .input_slots()
        .into_iter()
        .map(|s| ((s.var, s.index), s.name))
        .collect();
    for k in keys {
        let var = p.var(k.var);
        let at = |vals: &[i64], i: u32| vals.get(i as usize).copied().unwrap_or(0);
        let val = match (&var.init, var.len) {
            (VarInit::Values(vals), None) => Val::Int(Int::from_i64(at(vals, 0))),
            (VarInit::Values(vals), Some(n)) => {
                let mut arr = Array::const_array(&Sort::int(), &Int::from_i64(0));
                for i in 0..n {
                    arr = arr.store(&Int::from_i64(i as i64), &Int::from_i64(at(vals, i)));
                }
                Val::Arr(arr)
            }
            (VarInit::Input, len) => {
                let (lo, hi) = var.ty.range();
                let input = |ex: &mut Exec, index: Option<u32>| {
                    let name = slots.get(&(k.var, index)).cloned().unwrap_or_else(|| var.name.clone());
                    let x = ex.new_var(
                        Origin::Input {
                            name: name.clone(),
                            var: k.var,
                        },
                        name,
                    );
                    ex.inv.push(range_fact(&x, (lo, hi)));
                    x
                };
                match len {
                    None => Val::Int(input(ex, None)),
                    Some(n) => {
                        let mut arr = Array::const_array(&Sort::int(), &Int::from_i64(0));
                        for i in 0..n.min(64) {
                            let x = input(ex, Some(i));
                            arr = arr.store(&Int::from_i64(i as i64), &x);
                        }
                        if n > 64 {
                            // Big input arrays stay opaque.
                            arr = Array::new_const(format!("arr{}", ex.vars.len()), &Sort::int(), &Sort::int());
                        }
                        Val::Arr(arr)
                    }
                }
            }
            (VarInit::Assigned, _) => ex.fresh_val(
                k,
                Origin::Unset {
                    var: k.var,
                    frame: k.frame,
                },
            ),
        };
        store.insert(k, val);
    }
    store
}

/// The path condition and store where paths join.
fn merge(preds: &[usize], out: &[Option<(Bool, Store)>]) -> (Bool, Store) {
    let ins: Vec<&(Bool, Store)> = preds
        .iter()
        .map(|&b| out[b].as_ref().expect("a predecessor before its successor"))
        .collect();
    if ins.len() == 1 {
        return ins[0].clone();
    }
    let pc = Bool::or(&ins.iter().map(|(c, _)| c.clone()).collect::<Vec<_>>());
    let mut keys: Vec<VarKey> = ins.iter().flat_map(|(_, s)| s.keys().copied()).collect();
    keys.sort();
    keys.dedup();
    let mut store = Store::new();
    for k in keys {
        let vals: Vec<(&Bool, &Val)> = ins.iter().filter_map(|(c, s)| s.get(&k).map(|v| (c, v))).collect();
        let (_, last) = vals[vals.len() - 1];
        if vals.iter().all(|(_, v)| v.same(last)) {
            store.insert(k, last.clone());
            continue;
        }
        // ite(c1, v1, ite(c2, v2, ... vn)): a path on which the variable
        // was never set takes any of the values.
        let mut acc = last.clone();
        for (c, v) in vals.iter().rev().skip(1) {
            acc = match (v, &acc) {
                (Val::Int(x), Val::Int(y)) => Val::Int(c.ite(x, y)),
                (Val::Arr(x), Val::Arr(y)) => Val::Arr(c.ite(x, y)),
                _ => acc,
            };
        }
        store.insert(k, acc);
    }
    (pc, store)
}

/// Loop heads (node, frame) whose values matter after the loop: the
/// condition is not checked inside the loop (nor in what it calls), and
/// the loop is left only through its test, so its last head visit is the
/// state after it.
fn after_loops(p: &Program, a: &Analysis, gc: &Gc, target: CheckKey) -> BTreeSet<(NodeId, u32)> {
    let check_nodes: BTreeSet<NodeId> = gc.checks.iter().filter(|c| c.key == target).map(|c| c.node).collect();
    let mut out = BTreeSet::new();
    for b in &gc.blocks {
        let Some((head, frame)) = b.inst else { continue };
        let Some(&l) = a.loop_at.get(&head) else { continue };
        let lp = &a.loops[l];
        let called = called_from(p, &lp.body);
        let inside = check_nodes
            .iter()
            .any(|n| lp.body.contains(n) || called.contains(&p.node(*n).proc));
        if !inside && leaves_only_by_test(p, &lp.body, head) {
            out.insert((head, frame));
        }
    }
    out
}

/// Procedures called from `nodes`, transitively.
fn called_from(p: &Program, nodes: &BTreeSet<NodeId>) -> BTreeSet<ProcId> {
    let mut out = BTreeSet::new();
    let mut work: Vec<ProcId> = nodes
        .iter()
        .filter_map(|&n| match &p.node(n).kind {
            NodeKind::Call { callee, .. } => Some(*callee),
            _ => None,
        })
        .collect();
    while let Some(f) = work.pop() {
        if !out.insert(f) {
            continue;
        }
        for n in p.node_ids() {
            if let NodeKind::Call { callee, .. } = &p.node(n).kind {
                if p.node(n).proc == f {
                    work.push(*callee);
                }
            }
        }
    }
    out
}

/// Every edge out of the loop leaves from its test: a node reached from
/// the head through tests and no-ops only.
fn leaves_only_by_test(p: &Program, body: &BTreeSet<NodeId>, head: NodeId) -> bool {
    let mut test = BTreeSet::new();
    let mut work = vec![head];
    while let Some(n) = work.pop() {
        if !body.contains(&n) || !test.insert(n) {
            continue;
        }
        if matches!(p.node(n).kind, NodeKind::Skip { .. } | NodeKind::Branch { .. }) {
            work.extend(p.node(n).successors());
        }
    }
    body.iter().all(|&n| {
        let leaves = p.node(n).successors().iter().any(|s| !body.contains(s))
            || matches!(
                p.node(n).kind,
                NodeKind::Return { .. } | NodeKind::Error { .. } | NodeKind::Halt
            );
        !leaves || (test.contains(&n) && matches!(p.node(n).kind, NodeKind::Skip { .. } | NodeKind::Branch { .. }))
    })
}

/// Abstracts what lies outside linear arithmetic, checks that no array
/// remains, and lists the variables used.
fn finish(
    mut vars: Vec<SymVar>,
    inv: Bool,
    inv_base: Bool,
    phi: Bool,
    mut at: BTreeMap<(NodeId, u32), Bool>,
) -> Result<Model, String> {
    let mut ops: Vec<(Dynamic, Int)> = Vec::new();
    let mut seen = FixedSet::default();
    let both = Bool::and(&[inv.clone(), phi.clone()]);
    let mut inv_base = inv_base;
    nonlinear(&Dynamic::from_ast(&both), &mut ops, &mut vars, &mut seen);
    let (mut inv, mut phi) = (inv, phi);
    if !ops.is_empty() {
        let pairs: Vec<(Dynamic, Dynamic)> = ops.iter().map(|(f, t)| (f.clone(), Dynamic::from_ast(t))).collect();
        let refs: Vec<(&Dynamic, &Dynamic)> = pairs.iter().map(|(f, t)| (f, t)).collect();
        let sub = |b: &Bool| Dynamic::from_ast(b).substitute(&refs).as_bool().expect("a formula");
        inv = sub(&inv);
        phi = sub(&phi);
        inv_base = sub(&inv_base);
        for f in at.values_mut() {
            *f = sub(f);
        }
        let mut facts = Vec::new();
        for (def, x) in &ops {
            // A square is never negative.
            let kids = def.children();
            if op(def) == "*" && kids.len() == 2 && kids[0] == kids[1] {
                facts.push(x.ge(Int::from_i64(0)));
            }
        }
        let facts = Bool::and(&facts);
        inv = Bool::and(&[inv, facts.clone()]);
        inv_base = Bool::and(&[inv_base, facts]);
    }
    let mut used = BTreeSet::new();
    let mut arrays = false;
    let mut memo = FixedSet::default();
    for f in [&inv, &phi] {
        constants(&Dynamic::from_ast(f), &mut used, &mut arrays, &mut memo);
    }
    if arrays {
        return Err("the condition depends on array contents, which diagnose does not model".into());
    }
    Ok(Model {
        vars,
        inv: inv.simplify(),
        inv_base: inv_base.simplify(),
        at: at.into_iter().map(|(k, f)| (k, f.simplify())).collect(),
        phi: phi.simplify(),
        used: used.into_iter().collect(),
    })
}

/// Finds products and quotients of unknowns (innermost first) and makes
/// each an abstraction variable.
fn nonlinear(e: &Dynamic, ops: &mut Vec<(Dynamic, Int)>, vars: &mut Vec<SymVar>, seen: &mut FixedSet<Dynamic>) {
    if !e.is_app() || !seen.insert(e.clone()) {
        return;
    }
    let kids = e.children();
    for k in &kids {
        nonlinear(k, ops, vars, seen);
    }
    let kind = op(e);
    let kind = kind.as_str();
    let numeral = |d: &Dynamic| d.kind() == z3::AstKind::Numeral;
    let hard = match kind {
        "*" => kids.iter().filter(|k| !numeral(k)).count() > 1,
        "div" | "mod" | "rem" => kids.len() == 2 && !numeral(&kids[1]),
        _ => false,
    };
    if hard && e.sort_kind() == SortKind::Int {
        // Its definition refers to the abstraction variables made for its
        // own operands.
        let pairs: Vec<(Dynamic, Dynamic)> = ops.iter().map(|(f, t)| (f.clone(), Dynamic::from_ast(t))).collect();
        let refs: Vec<(&Dynamic, &Dynamic)> = pairs.iter().map(|(f, t)| (f, t)).collect();
        let def = e.substitute(&refs).as_int().expect("an integer term");
        let z3 = Int::new_const(format!("v{}", vars.len()));
        vars.push(SymVar {
            z3: z3.clone(),
            origin: Origin::Op { def },
            name: String::new(),
        });
        ops.push((e.clone(), z3));
    }
}

/// The model's variables (`v<i>`) in `e`; whether an array occurs.
fn constants(e: &Dynamic, out: &mut BTreeSet<usize>, arrays: &mut bool, memo: &mut FixedSet<Dynamic>) {
    if !memo.insert(e.clone()) {
        return;
    }
    if e.sort_kind() == SortKind::Array {
        *arrays = true;
    }
    if !e.is_app() {
        return;
    }
    if let Some(i) = var_index(e, usize::MAX) {
        out.insert(i);
        return;
    }
    for k in e.children() {
        constants(&k, out, arrays, memo);
    }
}
