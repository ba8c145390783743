//! Guarded commands -> passive form -> a verification condition of linear
//! size (Flanagan–Saxe; one `ok` variable per block, as Boogie does).
//!
//! Passive form: every assignment and havoc makes a new incarnation of the
//! variable (a fresh Z3 constant, constrained by an equation for an
//! assignment); where paths join, variables whose incarnations differ get
//! a new one, equated to each predecessor's on the edge from it. The
//! commands left are `assume`, `assert`, and the trace events.
//!
//! The VC: `ok_B <=> wp(B's commands, AND over successors S of (edge
//! equations => ok_S))`, with `wp(assume P, Q) = P => Q` and `wp(assert P,
//! Q) = (P || L) && Q` where `L` is the check's label. The program is
//! correct iff `ok_entry` is valid; a model of `!ok_entry` is a
//! counterexample, read back by walking it (`solve.rs`).

use super::bits::BitCache;
use super::gc::{Cmd, Event, Gc};
use super::term::{self, Env, Term, Val, VarKey, GLOBAL};
use crate::ir::fixed_hash::FixedMap;
use crate::ir::{InputSlot, Program, VarInit};
use std::collections::BTreeMap;
use z3::ast::{Array, Ast, Bool, Int, BV};
use z3::Sort;

pub enum PCmd {
    Assume(Bool),
    /// The checked formula and the check (index into `Gc::checks`).
    Assert(Bool, usize),
    Event(Event, u32),
    Choice(Int),
}

pub struct PBlock {
    pub cmds: Vec<PCmd>,
    /// Successors with the equations on the edge to each.
    pub succs: Vec<(usize, Bool)>,
}

pub struct Passive {
    pub blocks: Vec<PBlock>,
    /// Blocks in topological order (the entry first).
    pub order: Vec<usize>,
    /// The initial value of each input slot.
    pub inputs: Vec<(InputSlot, Int)>,
    /// Switches of candidate invariants.
    pub enabled: Vec<Bool>,
    /// Values drawn (fresh terms), for small models.
    pub draws: Vec<Int>,
    /// The definitions of named quantifiers (`named.rs`), asserted with
    /// the VC.
    pub side: Vec<Bool>,
}

struct Names {
    next: u32,
}

impl Names {
    fn name(&mut self, p: &Program, k: VarKey) -> String {
        self.next += 1;
        let base = &p.var(k.var).name;
        if k.frame == GLOBAL {
            format!("{base}@{}", self.next)
        } else {
            format!("{base}#{}@{}", k.frame, self.next)
        }
    }

    fn val(&mut self, p: &Program, k: VarKey) -> Val {
        let name = self.name(p, k);
        if p.var(k.var).len.is_some() {
            Val::Arr(Array::new_const(name, &Sort::int(), &Sort::int()))
        } else if let Some(w) = bits_width(p, k) {
            Val::Bits(BV::new_const(name, w))
        } else {
            Val::Int(Int::new_const(name))
        }
    }
}

/// The width of a floating scalar's bits (`Val::Bits`), `None` for any
/// other variable.
fn bits_width(p: &Program, k: VarKey) -> Option<u32> {
    let var = p.var(k.var);
    var.len.is_none().then(|| super::float::width(var.ty)).flatten()
}

/// What an array incarnation holds at constant indices, since the last
/// write at an index that was not one: the array before those writes and
/// the values written. An unrolled loop's element reads then are the
/// values written (the same terms, so their bits are too), not reads of
/// a chain of stores.
type Contents = FixedMap<Array, (Array, im::OrdMap<i64, Int>)>;

struct BlockEnv<'a> {
    p: &'a Program,
    vars: im::OrdMap<VarKey, Val>,
    /// Constant-index writes of array incarnations (`fold` only).
    contents: &'a mut Contents,
    names: &'a mut Names,
    fresh: &'a mut BTreeMap<u32, Int>,
    enabled: &'a mut Vec<Bool>,
    bits: &'a mut BitCache,
    /// The indices arrays are read and written at, where quantifiers are
    /// named (`named.rs`).
    indices: Option<&'a mut Vec<Int>>,
}

impl BlockEnv<'_> {
    fn get(&mut self, k: VarKey) -> Val {
        if let Some(v) = self.vars.get(&k) {
            return v.clone();
        }
        // Read before any write on this path: any value.
        let v = self.names.val(self.p, k);
        self.vars.insert(k, v.clone());
        v
    }
}

impl Env for BlockEnv<'_> {
    fn int(&mut self, k: VarKey) -> Int {
        self.get(k).into_int()
    }

    fn bits(&mut self, k: VarKey) -> BV {
        self.get(k).into_bits()
    }

    fn array(&mut self, k: VarKey) -> Array {
        self.get(k).into_array()
    }

    fn fresh(&mut self, n: u32) -> Int {
        self.fresh
            .entry(n)
            .or_insert_with(|| Int::new_const(format!("draw@{n}")))
            .clone()
    }

    fn enabled(&mut self, n: usize) -> Bool {
        while self.enabled.len() <= n {
            let i = self.enabled.len();
            self.enabled.push(Bool::new_const(format!("inv@{i}")));
        }
        self.enabled[n].clone()
    }

    fn bit_cache(&mut self) -> Option<&mut BitCache> {
        Some(self.bits)
    }

    fn index(&mut self, i: &Int) {
        if let Some(out) = self.indices.as_deref_mut() {
            out.push(i.clone());
        }
    }

    fn select(&mut self, k: VarKey, i: &Int) -> Int {
        let a = self.array(k);
        match (i.as_i64(), self.contents.get(&a)) {
            (Some(c), Some((base, writes))) => match writes.get(&c) {
                Some(v) => v.clone(),
                None => base.select(i).as_int().expect("an integer array"),
            },
            _ => a.select(i).as_int().expect("an integer array"),
        }
    }
}

/// Blocks reachable from the entry, in topological order.
pub fn topo_order(gc: &Gc) -> Vec<usize> {
    let n = gc.blocks.len();
    let mut state = vec![0u8; n];
    let mut post = Vec::with_capacity(n);
    let mut stack = vec![(0usize, 0usize)];
    state[0] = 1;
    while let Some((b, i)) = stack.pop() {
        let succs = &gc.blocks[b].succs;
        if i < succs.len() {
            stack.push((b, i + 1));
            let s = succs[i];
            if state[s] == 0 {
                state[s] = 1;
                stack.push((s, 0));
            }
        } else {
            post.push(b);
        }
    }
    post.reverse();
    post
}

/// The range assumptions of an input of type `range` (each element of an
/// array, up to a size).
fn range_assumption(v: &Val, range: (i64, i64), len: Option<u32>) -> Option<Bool> {
    let within = |x: &Int| Bool::and(&[x.ge(Int::from_i64(range.0)), x.le(Int::from_i64(range.1))]);
    match (v, len) {
        (Val::Int(x), _) => Some(within(x)),
        // Bits are of their type's width: any value is in its range.
        (Val::Bits(_), _) => None,
        (Val::Arr(a), Some(n)) if n <= 1024 => Some(Bool::and(
            &(0..n)
                .map(|k| within(&a.select(&Int::from_i64(k as i64)).as_int().expect("int")))
                .collect::<Vec<_>>(),
        )),
        _ => None,
    }
}

/// The passive form, constants folded into later terms (`solve`).
pub fn passify(p: &Program, gc: &Gc) -> Passive {
    passify_with(p, gc, true, false)
}

/// As `passify`, quantifiers named (`named.rs`): for the queries that look
/// for a failing run (`solve`), where Z3 decides them.
pub fn passify_named(p: &Program, gc: &Gc) -> Passive {
    passify_with(p, gc, true, true)
}

/// The passive form with an incarnation for every assignment and bits
/// known only within one term: doomed points' basic error VC frees the
/// state before a point, which a folded constant would not be.
pub fn passify_unfolded(p: &Program, gc: &Gc) -> Passive {
    passify_with(p, gc, false, false)
}

fn passify_with(p: &Program, gc: &Gc, fold: bool, named: bool) -> Passive {
    let mut quantifiers = super::named::Named::default();
    // Indices are gathered only for quantifiers to be instantiated at.
    let named = named
        && (gc.blocks.iter().flat_map(|b| &b.cmds)).any(|c| match c {
            Cmd::Assume(f) | Cmd::Assert(f, _) => super::named::has_quantifier(f),
            _ => false,
        });
    let mut indices = Vec::new();
    let order = topo_order(gc);
    let mut names = Names { next: 0 };
    let mut fresh = BTreeMap::new();
    let mut enabled = Vec::new();
    let mut bits = BitCache::default();
    let mut contents = Contents::default();
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); gc.blocks.len()];
    for &b in &order {
        for &s in &gc.blocks[b].succs {
            preds[s].push(b);
        }
    }
    let mut out_env: Vec<Option<im::OrdMap<VarKey, Val>>> = vec![None; gc.blocks.len()];
    let mut edge_eqs: BTreeMap<(usize, usize), Vec<Bool>> = BTreeMap::new();
    let mut blocks: Vec<PBlock> = (0..gc.blocks.len())
        .map(|_| PBlock {
            cmds: Vec::new(),
            succs: Vec::new(),
        })
        .collect();
    let mut inputs = Vec::new();
    let mut seq = 0u32;
    // Blocks no run reaches: after a literal `assume false` (an unrolled
    // loop's condition, folded), or with only such predecessors.
    let mut dead = vec![false; gc.blocks.len()];
    for &b in &order {
        let mut cmds = Vec::new();
        let live: Vec<usize> = preds[b].iter().copied().filter(|&pb| !dead[pb]).collect();
        let vars = if b == 0 {
            initial_env(p, &mut names, &mut cmds, &mut inputs, &mut bits)
        } else if live.is_empty() {
            dead[b] = true;
            merge(p, b, &preds[b], &out_env, &mut names, &mut edge_eqs)
        } else {
            // A dead predecessor's `ok` holds whatever its edge says: the
            // values join only from the live ones (an unrolled loop's
            // array keeps what it holds, `Contents`).
            merge(p, b, &live, &out_env, &mut names, &mut edge_eqs)
        };
        let mut env = BlockEnv {
            p,
            vars,
            contents: &mut contents,
            names: &mut names,
            fresh: &mut fresh,
            enabled: &mut enabled,
            bits: &mut bits,
            indices: named.then_some(&mut indices),
        };
        for c in &gc.blocks[b].cmds {
            match c {
                Cmd::Assume(f) => {
                    // A draw's range (the draw is new here, and read only
                    // after it). Not any value's: the range a checked
                    // `a + b` is assumed in after its overflow check would,
                    // as a definition at the entry, hide the overflow.
                    if let Some((t @ Term::Fresh(_), r)) = f.as_range() {
                        let x = term::int(t, &mut env);
                        env.bits.ranged(&x, r);
                    }
                    cmds.push(PCmd::Assume(match named {
                        true => quantifiers.formula(f, true, &mut env),
                        false => term::formula(f, &mut env),
                    }))
                }
                Cmd::Assert(f, check) => cmds.push(PCmd::Assert(
                    match named {
                        true => quantifiers.formula(f, false, &mut env),
                        false => term::formula(f, &mut env),
                    },
                    *check,
                )),
                Cmd::Assign(k, t) if bits_width(p, *k).is_some() => {
                    let w = bits_width(p, *k).unwrap_or(64);
                    let v = super::float::narrow(&super::float::bits(t, &mut env), w).simplify();
                    if fold && v.as_u64().is_some() {
                        env.vars.insert(*k, Val::Bits(v));
                        continue;
                    }
                    let x = BV::new_const(env.names.name(p, *k), w);
                    cmds.push(PCmd::Assume(x.eq(&v)));
                    env.vars.insert(*k, Val::Bits(x));
                }
                Cmd::Assign(k, t) => {
                    let v = term::int(t, &mut env);
                    // A constant is the variable's value itself: later
                    // terms (a loop counter's `1 << i`) fold with it.
                    let known = v.simplify();
                    if fold && known.as_i64().is_some() {
                        env.vars.insert(*k, Val::Int(known));
                        continue;
                    }
                    let x = Int::new_const(env.names.name(p, *k));
                    cmds.push(PCmd::Assume(x.eq(&v)));
                    if fold {
                        env.bits.alias(&x, &v);
                    }
                    env.vars.insert(*k, Val::Int(x));
                }
                Cmd::Store(k, i, t) => {
                    let i = term::int(i, &mut env);
                    let v = term::int(t, &mut env);
                    env.index(&i);
                    let before = env.array(*k);
                    let a = before.store(&i, &v);
                    let x = Array::new_const(env.names.name(p, *k), &Sort::int(), &Sort::int());
                    cmds.push(PCmd::Assume(x.eq(&a)));
                    if let (true, Some(c)) = (fold, i.as_i64()) {
                        let (base, writes) = env
                            .contents
                            .get(&before)
                            .cloned()
                            .unwrap_or((before, im::OrdMap::new()));
                        env.contents.insert(x.clone(), (base, writes.update(c, v)));
                    }
                    env.vars.insert(*k, Val::Arr(x));
                }
                Cmd::Havoc(k, range) => {
                    let v = env.names.val(p, *k);
                    if let Some(r) = range {
                        if let Some(a) = range_assumption(&v, *r, p.var(k.var).len) {
                            cmds.push(PCmd::Assume(a));
                        }
                        if let Val::Int(x) = &v {
                            env.bits.ranged(x, *r);
                        }
                    }
                    env.vars.insert(*k, v);
                }
                Cmd::Event(e) => {
                    seq += 1;
                    cmds.push(PCmd::Event(e.clone(), seq));
                }
                Cmd::Choice(t) => cmds.push(PCmd::Choice(term::int(t, &mut env))),
                Cmd::Copy(to, from) => {
                    let v = env.get(*from);
                    env.vars.insert(*to, v);
                }
            }
        }
        out_env[b] = Some(env.vars);
        // (Only where constants fold: doomed points' unfolded form keeps
        // every edge.)
        dead[b] |= fold
            && cmds
                .iter()
                .any(|c| matches!(c, PCmd::Assume(f) if f.as_bool() == Some(false)));
        blocks[b].cmds = cmds;
        // Environments are dropped once every successor has merged them.
        for &pb in &preds[b] {
            if gc.blocks[pb].succs.iter().all(|&s| out_env[s].is_some()) {
                out_env[pb] = Some(im::OrdMap::new());
            }
        }
    }
    for &b in &order {
        blocks[b].succs = gc.blocks[b]
            .succs
            .iter()
            .map(|&s| {
                let eqs = edge_eqs.remove(&(b, s)).unwrap_or_default();
                (s, Bool::and(&eqs))
            })
            .collect();
    }
    // The drawn bits' definitions hold of any values: assumed at the entry.
    if !bits.defs.is_empty() {
        blocks[0].cmds.insert(0, PCmd::Assume(Bool::and(&bits.defs)));
    }
    // In the order of their numbers, not the map's (which changes from run
    // to run): the order of the constraints Z3 is given decides its model.
    let mut draws: Vec<(u32, Int)> = fresh.into_iter().collect();
    draws.sort_by_key(|(n, _)| *n);
    let draws = draws.into_iter().map(|(_, x)| x).collect();
    let side = if named {
        quantifiers.finish(&indices)
    } else {
        Vec::new()
    };
    Passive {
        blocks,
        order,
        inputs,
        enabled,
        draws,
        side,
    }
}

/// The state at the entry: constant initial values, inputs within their
/// types' ranges.
fn initial_env(
    p: &Program,
    names: &mut Names,
    cmds: &mut Vec<PCmd>,
    inputs: &mut Vec<(InputSlot, Int)>,
    bits: &mut BitCache,
) -> im::OrdMap<VarKey, Val> {
    let mut vars = im::OrdMap::new();
    let entry = p.proc(p.entry);
    let mut start: Vec<VarKey> = p.globals.iter().map(|&g| VarKey { var: g, frame: GLOBAL }).collect();
    start.extend(entry.locals.iter().map(|&l| VarKey { var: l, frame: 0 }));
    for k in start {
        let var = p.var(k.var);
        let v = names.val(p, k);
        match &var.init {
            VarInit::Values(vals) => {
                let at = |i: u32| vals.get(i as usize).copied().unwrap_or(0);
                let eq = match &v {
                    Val::Int(x) => x.eq(Int::from_i64(at(0))),
                    Val::Bits(x) => x.eq(BV::from_i64(at(0), x.get_size())),
                    // The array equals zeros with the non-zero values stored:
                    // one term, not one equation per element (a model of a
                    // 100,000-element array built element by element took
                    // Z3 minutes).
                    Val::Arr(a) => {
                        let mut init = Array::const_array(&Sort::int(), &Int::from_i64(0));
                        for (i, &x) in vals.iter().enumerate().filter(|(_, &x)| x != 0) {
                            init = init.store(&Int::from_i64(i as i64), &Int::from_i64(x));
                        }
                        a.eq(&init)
                    }
                };
                cmds.push(PCmd::Assume(eq));
            }
            VarInit::Input => {
                if let Some(a) = range_assumption(&v, var.ty.range(), var.len) {
                    cmds.push(PCmd::Assume(a));
                }
                if let Val::Int(x) = &v {
                    bits.ranged(x, var.ty.range());
                }
            }
            VarInit::Assigned => {}
        }
        vars.insert(k, v);
    }
    for slot in p.input_slots() {
        let frame = if p.var(slot.var).is_global_storage() { GLOBAL } else { 0 };
        let x = match vars.get(&VarKey { var: slot.var, frame }) {
            Some(Val::Int(x)) => x.clone(),
            Some(Val::Bits(x)) => super::float::to_int(x),
            Some(Val::Arr(a)) => a
                .select(&Int::from_i64(slot.index.unwrap_or(0) as i64))
                .as_int()
                .expect("int"),
            None => continue,
        };
        inputs.push((slot, x));
    }
    vars
}

/// The environment where paths join; edge equations for what differs.
fn merge(
    p: &Program,
    b: usize,
    preds: &[usize],
    out_env: &[Option<im::OrdMap<VarKey, Val>>],
    names: &mut Names,
    edge_eqs: &mut BTreeMap<(usize, usize), Vec<Bool>>,
) -> im::OrdMap<VarKey, Val> {
    let envs: Vec<&im::OrdMap<VarKey, Val>> = preds
        .iter()
        .map(|&pb| out_env[pb].as_ref().expect("a predecessor before its successor"))
        .collect();
    if envs.len() == 1 {
        return envs[0].clone();
    }
    let mut keys: Vec<VarKey> = envs.iter().flat_map(|e| e.keys().copied()).collect();
    keys.sort();
    keys.dedup();
    let mut out = im::OrdMap::new();
    for k in keys {
        let vals: Vec<Option<&Val>> = envs.iter().map(|e| e.get(&k)).collect();
        let first = vals[0];
        if let Some(f) = first {
            if vals.iter().all(|v| v.is_some_and(|v| v.same(f))) {
                out.insert(k, f.clone());
                continue;
            }
        }
        let x = names.val(p, k);
        for (i, v) in vals.iter().enumerate() {
            if let Some(v) = v {
                edge_eqs.entry((preds[i], b)).or_default().push(x.equals(v));
            }
        }
        out.insert(k, x);
    }
    out
}

/// Defines `ok_B` for every block (in reverse topological order) on the
/// solver; returns the `ok` constants. `label` gives a check's label.
pub fn assert_vc(solver: &z3::Solver, pv: &Passive, label: &dyn Fn(usize) -> Bool) -> Vec<Bool> {
    let ok: Vec<Bool> = (0..pv.blocks.len())
        .map(|b| Bool::new_const(format!("ok@{b}")))
        .collect();
    for &b in pv.order.iter().rev() {
        let block = &pv.blocks[b];
        let succ: Vec<Bool> = block.succs.iter().map(|(s, eq)| eq.implies(&ok[*s])).collect();
        let mut q = Bool::and(&succ);
        for c in block.cmds.iter().rev() {
            q = match c {
                PCmd::Assume(f) => f.implies(&q),
                PCmd::Assert(f, check) => Bool::and(&[Bool::or(&[f.clone(), label(*check)]), q]),
                PCmd::Event(..) | PCmd::Choice(_) => q,
            };
        }
        solver.assert(ok[b].iff(&q));
    }
    for d in &pv.side {
        solver.assert(d);
    }
    ok
}

/// The VC's size: commands and blocks (for `--stats`).
pub fn size(pv: &Passive) -> (usize, usize) {
    (pv.order.len(), pv.order.iter().map(|&b| pv.blocks[b].cmds.len()).sum())
}
