//! Abstract states: valuations of one activation, hash-consed to small ids so
//! that Datalog tuples stay cheap.

use super::bounds::Bounds;
use super::value::{Sym, Value};
use crate::context::conditions::CondId;
use crate::ir::*;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};
use std::hash::Hash;
use std::sync::Arc;

/// Where a variable's value lives: a global slot (`Layout` numbering) or a
/// slot of the current frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VarSlot {
    Global(u32),
    Local(u32),
}

/// A loop the activation is inside, as this path went through it: whether
/// a non-concrete decision was taken in it since it was entered, what
/// changed at its last head visit (widened once the iteration goes on, not
/// on the way out), how often the path reached the head (up to `--unroll`)
/// and the values the loop's widenable slots had at the last of those
/// visits. The widening decision reads only this, so it is a function of
/// the state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopVisit {
    pub lp: u32,
    pub decided: bool,
    pub pending: Vec<u32>,
    pub visits: u32,
    /// By position among the loop's written slots: the value at the last
    /// head visit.
    last: im::OrdMap<u32, Value>,
    /// The sum of the hashes of `last`'s entries.
    last_hash: u64,
}

impl LoopVisit {
    pub fn new(lp: u32) -> LoopVisit {
        LoopVisit {
            lp,
            decided: false,
            pending: Vec::new(),
            visits: 0,
            last: im::OrdMap::new(),
            last_hash: 0,
        }
    }

    /// Slot `j` had `v` at the last head visit.
    pub fn had(&self, j: u32, v: &Value) -> bool {
        self.last.get(&j) == Some(v)
    }

    /// Keeps `v` as what slot `j` had at the last head visit. An unchanged
    /// entry is left alone: writing it would still copy its path of the
    /// persistent map, so a visit would cost a copy of every slot.
    pub fn see(&mut self, j: u32, v: Value) {
        if self.had(j, &v) {
            return;
        }
        let h = hash_of(&(j, &v));
        if let Some(old) = self.last.insert(j, v) {
            self.last_hash = self.last_hash.wrapping_sub(hash_of(&(j, &old)));
        }
        self.last_hash = self.last_hash.wrapping_add(h);
    }
}

impl Hash for LoopVisit {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.lp, self.decided, &self.pending, self.visits, self.last_hash).hash(state);
    }
}

/// A fixed hash (the same in every run).
fn hash_of<T: Hash>(t: &T) -> u64 {
    use std::hash::Hasher;
    let mut h = std::hash::DefaultHasher::new();
    t.hash(&mut h);
    h.finish()
}

/// The values of one activation: the globals its procedure can see (in view
/// order), its frame, and its active loops. Its hash is kept up to date on
/// every write (a sum over the slots), so hash-consing a valuation costs
/// no more than the write that made it, however many slots it has.
#[derive(Clone, Debug)]
pub struct Valuation {
    globals: im::Vector<Value>,
    locals: im::Vector<Value>,
    pub loops: Vec<LoopVisit>,
    slots_hash: u64,
    /// Bounds of single symbols, kept by the exact first pass only
    /// (`bounds.rs`).
    bounds: im::OrdMap<Sym, Bounds>,
}

impl Valuation {
    pub fn new(globals: im::Vector<Value>, locals: im::Vector<Value>) -> Valuation {
        let mut slots_hash = 0u64;
        for (i, v) in globals.iter().enumerate() {
            slots_hash = slots_hash.wrapping_add(slot_hash(true, i, v));
        }
        for (i, v) in locals.iter().enumerate() {
            slots_hash = slots_hash.wrapping_add(slot_hash(false, i, v));
        }
        Valuation {
            globals,
            locals,
            loops: Vec::new(),
            slots_hash,
            bounds: im::OrdMap::new(),
        }
    }

    /// The bounds the path gave `s`, if any.
    pub fn bound(&self, s: Sym) -> Option<Bounds> {
        self.bounds.get(&s).copied()
    }

    /// Gives `s` the bounds `b` (within those it had).
    pub fn set_bound(&mut self, s: Sym, b: Bounds) {
        self.bounds.insert(s, b);
    }

    /// `s` is a fresh symbol: bounds of a dead one of that name go.
    pub fn forget(&mut self, s: Sym) {
        if self.bounds.contains_key(&s) {
            self.bounds.remove(&s);
        }
    }

    pub fn globals(&self) -> &im::Vector<Value> {
        &self.globals
    }

    pub fn locals(&self) -> &im::Vector<Value> {
        &self.locals
    }

    /// Sets global slot i; an equal value is not written (writing copies
    /// the chunk of the vector that holds it).
    pub fn set_global(&mut self, i: usize, v: Value) {
        if self.globals[i] == v {
            return;
        }
        let h = slot_hash(true, i, &v);
        let old = self.globals.set(i, v);
        self.slots_hash = self.slots_hash.wrapping_sub(slot_hash(true, i, &old)).wrapping_add(h);
    }

    pub fn set_local(&mut self, i: usize, v: Value) {
        if self.locals[i] == v {
            return;
        }
        let h = slot_hash(false, i, &v);
        let old = self.locals.set(i, v);
        self.slots_hash = self.slots_hash.wrapping_sub(slot_hash(false, i, &old)).wrapping_add(h);
    }

    /// Takes `globals` as they are (shared, not copied): a call's return
    /// hands back the callee's globals this way when the two frames hold
    /// the same ones.
    pub fn set_globals(&mut self, globals: &im::Vector<Value>) {
        debug_assert_eq!(globals.len(), self.globals.len());
        for (i, (old, new)) in self.globals.iter().zip(globals.iter()).enumerate() {
            if old != new {
                self.slots_hash = self
                    .slots_hash
                    .wrapping_sub(slot_hash(true, i, old))
                    .wrapping_add(slot_hash(true, i, new));
            }
        }
        self.globals = globals.clone();
    }

    pub fn syms(&self) -> BTreeSet<Sym> {
        let mut out = BTreeSet::new();
        for v in self.globals.iter().chain(self.locals.iter()) {
            out.extend(v.syms());
        }
        out
    }

    /// Adds to `out` the symbols of the slots whose family `families`
    /// holds: a fresh symbol of a family is found from that family's alone,
    /// without a set of every symbol (an array of 100,000 draws filled in a
    /// loop would build one per step).
    pub fn syms_of(&self, families: &dyn Fn(Sym) -> bool, out: &mut BTreeSet<Sym>) {
        for v in self.globals.iter().chain(self.locals.iter()) {
            if let Value::Lin(l) = v {
                out.extend(l.syms().filter(|s| families(s.family())));
            }
        }
    }
}

fn slot_hash(global: bool, i: usize, v: &Value) -> u64 {
    let at = mix(((i as u64) << 1) | global as u64);
    match v {
        // Most slots hold constants: a mix is enough.
        Value::Const(c) => mix(at ^ *c as u64),
        Value::Lin(_) => mix(at ^ hash_of(v)),
    }
}

/// SplitMix64's finaliser: a bijection that spreads every input bit.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl PartialEq for Valuation {
    fn eq(&self, other: &Self) -> bool {
        // A copy shares its vectors with the original: equal at once.
        let same = |a: &im::Vector<Value>, b: &im::Vector<Value>| a.ptr_eq(b) || a == b;
        self.slots_hash == other.slots_hash
            && self.loops == other.loops
            && self.bounds == other.bounds
            && same(&self.globals, &other.globals)
            && same(&self.locals, &other.locals)
    }
}

impl Eq for Valuation {}

impl Hash for Valuation {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.slots_hash.hash(state);
        self.loops.hash(state);
        self.bounds.hash(state);
    }
}

/// Hash-consing: equal values get equal ids.
pub struct Interner<T> {
    map: HashMap<Arc<T>, u32>,
    items: Vec<Arc<T>>,
}

impl<T: Eq + Hash> Default for Interner<T> {
    fn default() -> Self {
        Interner {
            map: HashMap::new(),
            items: Vec::new(),
        }
    }
}

impl<T: Eq + Hash> Interner<T> {
    pub fn intern(&mut self, t: T) -> u32 {
        if let Some(&i) = self.map.get(&t) {
            return i;
        }
        let t = Arc::new(t);
        let i = self.items.len() as u32;
        self.items.push(t.clone());
        self.map.insert(t, i);
        i
    }

    pub fn get(&self, i: u32) -> Arc<T> {
        self.items[i as usize].clone()
    }

    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

macro_rules! small_id {
    ($name:ident) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
    };
}

small_id!(ValId);
small_id!(CtxId);
small_id!(LabelId);

/// An activation: a procedure entered with an initial valuation. With
/// summaries, activations with equal keys are one (their summary is reused
/// at every call site); without, the calling state is part of the key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CtxKey {
    pub proc: ProcId,
    pub start: ValId,
    /// Nesting of recursive calls (0 for calls from outside the recursion).
    pub depth: u32,
    /// `--no-summaries`: the call that made this activation.
    pub caller: Option<(CtxId, NodeId, ValId, LabelId)>,
}

/// What an evaluation decided where a value was not known: which way a
/// branch went, which element an index named, whether a divisor was zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Decision {
    Branch(bool),
    /// The element chosen at an array access; `-1` below the bounds and
    /// `len` above.
    Index(SiteId, i64),
    /// Whether a divisor was zero.
    DivZero(SiteId, bool),
    /// Where a checked signed result fell: below its type (-1), in it (0),
    /// above it (1). At a shift site: defined (0), amount below 0 (-1) or
    /// past the width (1), a strict `<<` of a negative value (2) or one
    /// that loses bits (3).
    Overflow(SiteId, i8),
    /// A user condition holds after the step (by its disjunct number).
    Violates(CondId, u32),
}

/// The decisions of one step, in evaluation order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Label(pub Vec<Decision>);

/// The interners of one analysis run.
#[derive(Default)]
pub struct Tables {
    pub vals: RefCell<Interner<Valuation>>,
    pub ctxs: RefCell<Interner<CtxKey>>,
    pub labels: RefCell<Interner<Label>>,
}

impl Tables {
    pub fn val(&self, v: ValId) -> Arc<Valuation> {
        self.vals.borrow().get(v.0)
    }

    pub fn intern_val(&self, v: Valuation) -> ValId {
        ValId(self.vals.borrow_mut().intern(v))
    }

    pub fn ctx(&self, c: CtxId) -> Arc<CtxKey> {
        self.ctxs.borrow().get(c.0)
    }

    pub fn intern_ctx(&self, c: CtxKey) -> CtxId {
        CtxId(self.ctxs.borrow_mut().intern(c))
    }

    pub fn label(&self, l: LabelId) -> Arc<Label> {
        self.labels.borrow().get(l.0)
    }

    pub fn intern_label(&self, l: Label) -> LabelId {
        LabelId(self.labels.borrow_mut().intern(l))
    }
}
