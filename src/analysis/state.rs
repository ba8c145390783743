//! Abstract states: valuations of one activation, hash-consed to small ids so
//! that Datalog tuples stay cheap.

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
/// and the values the loop's written slots had there in those visits. The
/// widening decision reads only this, so it is a function of the state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LoopVisit {
    pub lp: u32,
    pub decided: bool,
    pub pending: Vec<u32>,
    pub visits: u32,
    /// (position among the loop's written slots, value).
    pub seen: im::OrdSet<(u32, Value)>,
}

/// The values of one activation: the globals its procedure can see (in view
/// order), its frame, and its active loops.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Valuation {
    pub globals: im::Vector<Value>,
    pub locals: im::Vector<Value>,
    pub loops: Vec<LoopVisit>,
}

impl Valuation {
    pub fn syms(&self) -> BTreeSet<Sym> {
        let mut out = BTreeSet::new();
        for v in self.globals.iter().chain(self.locals.iter()) {
            out.extend(v.syms());
        }
        out
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
    /// above it (1).
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
