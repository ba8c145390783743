//! Valuations: where each variable's value lives in an activation's
//! valuation (the global *view* of each procedure, its frame), reading and
//! writing values, the initial valuation, and fresh symbols.
//!
//! Invariant: a valuation never holds two different draws or abstraction
//! symbols under one name: new symbols take the smallest instance number
//! not taken (so states repeat and exploration ends).

use super::eval::SymEnv;
use super::state::{CtxId, Tables, Valuation, VarSlot};
use super::value::{AlphaDef, AlphaKey, Sym, Value};
use crate::context::Context;
use crate::facts::Analysis;
use crate::ir::*;
use std::collections::{BTreeSet, HashMap, HashSet};

/// The global slots a procedure can see: those it (or its callees) may read
/// or write, plus those user conditions read. The entry sees all.
#[derive(Clone, Debug)]
pub struct View {
    pub slots: Vec<u32>,
    /// Global slot -> position in `slots`.
    pub pos: HashMap<u32, u32>,
}

fn views(p: &Program, a: &Analysis, layout: &Layout, extra: &BTreeSet<VarId>) -> Vec<View> {
    let mut out = Vec::new();
    for pid in p.proc_ids() {
        let mut vars: BTreeSet<VarId> = if pid == p.entry {
            p.globals.iter().copied().collect()
        } else {
            a.proc_mod[pid.index()]
                .union(&a.proc_ref[pid.index()])
                .copied()
                .collect()
        };
        vars.extend(extra.iter().copied());
        let mut slots: Vec<u32> = Vec::new();
        for v in vars {
            let off = layout.offset[v.index()];
            slots.extend(off..off + p.var(v).slots());
        }
        slots.sort();
        let pos = slots.iter().enumerate().map(|(i, &s)| (s, i as u32)).collect();
        out.push(View { slots, pos });
    }
    out
}

/// The shape of every activation's valuation.
pub struct Frames {
    /// The view of each procedure.
    pub views: Vec<View>,
    /// Per variable: its first slot, and whether it is global storage.
    offset: Vec<u32>,
    global: Vec<bool>,
    /// Frame size of each procedure.
    frame_slots: Vec<u32>,
    /// The global slots of the heap model's bookkeeping (each allocating
    /// call's count, each object's state and size): bounded by the model,
    /// so a recursive call never widens them.
    pub bookkeeping: HashSet<u32>,
}

impl Frames {
    pub fn new(cx: &Context) -> Frames {
        let p = cx.p;
        let extra: BTreeSet<VarId> = cx
            .conds_of_var
            .keys()
            .copied()
            .filter(|&v| p.var(v).is_global_storage())
            .collect();
        Frames {
            views: views(p, cx.a, &cx.layout, &extra),
            offset: cx.layout.offset.clone(),
            global: p.vars.iter().map(|v| v.is_global_storage()).collect(),
            frame_slots: cx.layout.frame_slots.clone(),
            bookkeeping: p
                .globals
                .iter()
                .filter(|&&v| crate::ir::mem::is_heap_bookkeeping(&p.var(v).name))
                .map(|&v| cx.layout.offset[v.index()])
                .collect(),
        }
    }

    pub fn slot_of(&self, var: VarId, index: u32) -> VarSlot {
        let off = self.offset[var.index()] + index;
        if self.global[var.index()] {
            VarSlot::Global(off)
        } else {
            VarSlot::Local(off)
        }
    }

    pub fn read(&self, proc: ProcId, val: &Valuation, var: VarId, index: u32) -> Value {
        match self.slot_of(var, index) {
            VarSlot::Global(g) => match self.views[proc.index()].pos.get(&g) {
                Some(&i) => val.globals()[i as usize].clone(),
                // Not in the view: the procedure cannot read it (defensive).
                None => Value::Const(0),
            },
            VarSlot::Local(l) => val.locals().get(l as usize).cloned().unwrap_or_default(),
        }
    }

    pub fn write(&self, proc: ProcId, val: &mut Valuation, var: VarId, index: u32, v: Value) {
        match self.slot_of(var, index) {
            VarSlot::Global(g) => {
                if let Some(&i) = self.views[proc.index()].pos.get(&g) {
                    val.set_global(i as usize, v);
                }
            }
            VarSlot::Local(l) => {
                val.set_local(l as usize, v);
            }
        }
    }

    /// A valuation of `proc` with every value 0.
    pub fn zeros(&self, proc: ProcId) -> Valuation {
        Valuation::new(
            self.views[proc.index()].slots.iter().map(|_| Value::Const(0)).collect(),
            (0..self.frame_slots[proc.index()]).map(|_| Value::Const(0)).collect(),
        )
    }

    /// A number for a slot of a variable, unique among the globals and the
    /// locals of one procedure (names abstraction symbols).
    pub fn slot_key(&self, var: VarId, k: u32) -> u32 {
        self.offset[var.index()] + k + if self.global[var.index()] { 0 } else { 1 << 30 }
    }

    /// The initial state's valuation: inputs as symbols, initialised
    /// globals, the rest 0.
    pub fn initial(&self, cx: &Context) -> Valuation {
        let p = cx.p;
        let entry = p.entry;
        let mut val = self.zeros(entry);
        let input = |var, k| Value::sym(Sym::Input(cx.input_number(var, k).expect("an input slot has a number")));
        for &g in &p.globals {
            let var = p.var(g);
            for k in 0..var.slots() {
                let v = match &var.init {
                    VarInit::Input => input(g, k),
                    VarInit::Values(vals) => Value::Const(vals.get(k as usize).copied().unwrap_or(0)),
                    VarInit::Assigned => Value::Const(0),
                };
                self.write(entry, &mut val, g, k, v);
            }
        }
        for s in p.input_slots() {
            if !p.var(s.var).is_global_storage() {
                let k = s.index.unwrap_or(0);
                self.write(entry, &mut val, s.var, k, input(s.var, k));
            }
        }
        val
    }
}

/// The symbol of `family` with the smallest instance (from 1) not taken.
pub fn fresh(taken: &BTreeSet<Sym>, family: Sym) -> Sym {
    let mut i = 1;
    while taken.contains(&family.with_instance(i)) {
        i += 1;
    }
    family.with_instance(i)
}

/// Symbols in use while new ones are made one after another: `make` gives
/// what `fresh` then inserting would, but remembers per family where the
/// free instances start (symbols are only added), so giving a whole array
/// of 100,000 elements fresh draws costs 100,000 probes, not 5 billion.
pub struct Taken {
    set: BTreeSet<Sym>,
    next: HashMap<Sym, u32>,
}

impl Taken {
    pub fn new(set: BTreeSet<Sym>) -> Taken {
        Taken {
            set,
            next: HashMap::new(),
        }
    }

    /// A fresh symbol of `family`, taken from now on.
    pub fn make(&mut self, family: Sym) -> Sym {
        let key = family.with_instance(0);
        let i = self.next.entry(key).or_insert(1);
        while self.set.contains(&key.with_instance(*i)) {
            *i += 1;
        }
        let s = key.with_instance(*i);
        *i += 1;
        self.set.insert(s);
        s
    }

    /// Takes `s` too (a symbol that must not be made).
    pub fn insert(&mut self, s: Sym) {
        self.set.insert(s);
    }
}

/// Symbols of the families `families` picks that a new symbol of
/// activation `c` must not be: those alive in `val`, and those of the
/// activation's start valuation. The caller reads a start symbol in the
/// exit valuation as its own value passed in, so it must never be made
/// again inside, even once dead there. Only those families are gathered:
/// `fresh` and `Taken::make` look at the family they make alone.
pub fn taken_of(t: &Tables, c: CtxId, val: &Valuation, families: &dyn Fn(Sym) -> bool) -> BTreeSet<Sym> {
    let mut s = BTreeSet::new();
    val.syms_of(families, &mut s);
    t.val(t.ctx(c).start).syms_of(families, &mut s);
    s
}

/// Reads an activation's valuation; makes fresh symbols that do not clash
/// with those in it (or made earlier in the same step). The symbols taken
/// are gathered only when a symbol is made, per family: most steps make
/// none, and gathering reads every slot.
pub struct AbsEnv<'e> {
    frames: &'e Frames,
    t: &'e Tables,
    c: CtxId,
    proc: ProcId,
    val: &'e Valuation,
    /// The symbols of the families read so far (`taken_of`), and those made.
    taken: BTreeSet<Sym>,
    families: BTreeSet<Sym>,
}

impl<'e> AbsEnv<'e> {
    pub fn new(frames: &'e Frames, t: &'e Tables, c: CtxId, proc: ProcId, val: &'e Valuation) -> AbsEnv<'e> {
        AbsEnv {
            frames,
            t,
            c,
            proc,
            val,
            taken: BTreeSet::new(),
            families: BTreeSet::new(),
        }
    }
}

impl SymEnv for AbsEnv<'_> {
    fn read(&self, var: VarId, index: u32) -> Value {
        self.frames.read(self.proc, self.val, var, index)
    }

    fn fresh_alpha(&mut self, node: NodeId, _: AlphaDef) -> Sym {
        let family = Sym::Alpha(AlphaKey::Op(node), 0);
        if self.families.insert(family) {
            let have = taken_of(self.t, self.c, self.val, &|f| f == family);
            self.taken.extend(have);
        }
        let s = fresh(&self.taken, family);
        self.taken.insert(s);
        s
    }

    fn bound(&self, s: Sym) -> Option<super::bounds::Bounds> {
        self.val.bound(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::value::{LinExpr, Value};

    /// Gathering one family's symbols makes the same fresh symbols as
    /// gathering every symbol: on valuations with gaps, shared slots and
    /// sums of symbols of several families.
    #[test]
    fn one_family_makes_what_all_symbols_make() {
        let draw = |n: u32, i: u32| Sym::Draw(NodeId(n), i);
        let sum = |a: Sym, b: Sym| Value::from_lin(LinExpr::sym(a).combine(1, &LinExpr::sym(b), 2).expect("sum"));
        let cases: Vec<Vec<Value>> = vec![
            vec![],
            vec![Value::Const(3), Value::sym(draw(1, 1)), Value::sym(draw(1, 2))],
            vec![
                Value::sym(draw(1, 1)),
                Value::sym(draw(1, 3)),
                sum(draw(2, 1), draw(1, 2)),
            ],
            vec![
                sum(draw(1, 4), draw(2, 2)),
                Value::sym(draw(2, 1)),
                Value::sym(Sym::Input(0)),
            ],
            (1..=50)
                .filter(|i| i % 7 != 0)
                .map(|i| Value::sym(draw(1, i)))
                .collect(),
        ];
        for globals in cases {
            let val = Valuation::new(globals.iter().cloned().collect(), im::Vector::new());
            for family in [draw(1, 0), draw(2, 0), draw(3, 0)] {
                let mut some = BTreeSet::new();
                val.syms_of(&|f| f == family, &mut some);
                let mut a = Taken::new(some);
                let mut b = Taken::new(val.syms());
                for _ in 0..10 {
                    assert_eq!(a.make(family), b.make(family), "{globals:?}");
                }
            }
        }
    }
}
