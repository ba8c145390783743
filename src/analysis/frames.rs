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
use std::collections::{BTreeSet, HashMap};

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

/// Symbols a new symbol of activation `c` must not be: those alive in
/// `val`, and those of the activation's start valuation. The caller reads a
/// start symbol in the exit valuation as its own value passed in, so it
/// must never be made again inside, even once dead there.
pub fn taken(t: &Tables, c: CtxId, val: &Valuation) -> BTreeSet<Sym> {
    let mut s = val.syms();
    s.extend(t.val(t.ctx(c).start).syms());
    s
}

/// Reads an activation's valuation; makes fresh symbols that do not clash
/// with those in it (or made earlier in the same step). The symbols taken
/// are gathered only when a symbol is made: most steps make none, and
/// gathering reads every slot.
pub struct AbsEnv<'e> {
    frames: &'e Frames,
    t: &'e Tables,
    c: CtxId,
    proc: ProcId,
    val: &'e Valuation,
    taken: Option<BTreeSet<Sym>>,
}

impl<'e> AbsEnv<'e> {
    pub fn new(frames: &'e Frames, t: &'e Tables, c: CtxId, proc: ProcId, val: &'e Valuation) -> AbsEnv<'e> {
        AbsEnv {
            frames,
            t,
            c,
            proc,
            val,
            taken: None,
        }
    }
}

impl SymEnv for AbsEnv<'_> {
    fn read(&self, var: VarId, index: u32) -> Value {
        self.frames.read(self.proc, self.val, var, index)
    }

    fn fresh_alpha(&mut self, node: NodeId, _: AlphaDef) -> Sym {
        let taken = self.taken.get_or_insert_with(|| taken(self.t, self.c, self.val));
        let s = fresh(taken, Sym::Alpha(AlphaKey::Op(node), 0));
        taken.insert(s);
        s
    }
}
