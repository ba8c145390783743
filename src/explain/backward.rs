//! The backward step of focus-statement extraction (seed 001 §2, DESIGN
//! §6), over one transition of the explored graph: given the *Error set*
//! after a step (variables whose values matter, and pending control
//! dependences), the Error set before it and whether the step is a focus
//! statement.
//!
//! - an assignment is focus iff it writes a variable of the set; then the
//!   variable leaves and what the right-hand side reads joins;
//! - a branch is focus iff a later focus statement is dynamically control
//!   dependent on it (a pending set names it), or the branch not taken may
//!   write a variable of the set; then the variables of the whole condition
//!   join;
//! - a call is focus iff its callee's segment holds a focus statement (or
//!   its result, or a parameter, matters);
//! - every focus statement makes its controlling branches pending.
//!
//! The Datalog rules (`rules/bwd.rs`) use these functions over every
//! graph: the explored state space, and the path of one concrete run
//! (`run_graph.rs`), so the two agree by construction on each transition.
//! The rule of a step inside an activation is `transfer.rs`'s (written in
//! Datalog form there), which `slice.rs` applies to a run's record too.

use super::fss::{EvKind, Event};
use super::transfer::Rules;
use crate::analysis::explore::Explored;
use crate::analysis::explore::State;
use crate::analysis::state::*;
use crate::context::conditions::{CondId, CondKind};
use crate::ir::*;
use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap};

mod calls;
mod chain;
pub mod prune;
mod slot_set;
mod slots;
mod step;

pub use slot_set::SlotSet;
use step::SymStep;

/// The Error set: variable slots whose values matter, sets of branches of
/// which a later focus statement depends on the most recent evaluation, and
/// a written `return` passed on the way back (focus if its procedure's
/// segment is).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ESet {
    pub vars: SlotSet,
    pub pending: BTreeSet<u32>,
    pub ret: Option<(NodeId, LabelId)>,
}

/// An interned Error set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ESetId(pub u32);

/// An interned walk root.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RootId(pub u32);

/// Where a backward walk starts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Root {
    /// At the errors of a condition.
    Error(CondId),
    /// At the exit of an activation with an exit valuation and Error set:
    /// a backward summary, reused by every call that needs it. Without
    /// summaries, the asking call is part of the key.
    Sum {
        callee: CtxId,
        exit: ValId,
        eset: ESetId,
        caller: Option<(RootId, State, ESetId)>,
    },
}

/// Suffixes known (not) to hold from a state, by a 128-bit hash of the
/// suffix (`fss::hash128`; the suffixes themselves would be most of the
/// memory an explanation takes).
type FeasibleMemo = HashMap<(State, u128), bool>;
/// `exit_set`'s answers by its arguments: the call, the callee, the Error set after.
type ExitSetMemo = HashMap<(State, LabelId, CtxId, ESetId), (ESetId, bool)>;

pub struct Backward<'e> {
    pub e: Explored<'e>,
    /// The transfer's program facts: control-dependence sets, units' variables.
    rules: Rules,
    /// Variable of each global slot, and of each frame slot per procedure.
    global_var: Vec<VarId>,
    local_var: Vec<Vec<VarId>>,
    esets: RefCell<Interner<ESet>>,
    roots: RefCell<Interner<Root>>,
    /// Feasibility of suffixes from states, computed once each.
    feasible: RefCell<FeasibleMemo>,
    /// Suffixes executed from stores (`chain.rs`).
    chains: RefCell<chain::ChainMemo>,
    /// `exit_set` by its arguments.
    exit_sets: RefCell<ExitSetMemo>,
    /// Heads executed for the joins at calls' returns.
    heads: RefCell<prune::HeadsMemo<'e>>,
    /// Recent models of suffix constraints: hints for the next question.
    models: RefCell<Vec<std::collections::BTreeMap<crate::analysis::value::Sym, i64>>>,
    /// Past these, no new suffix is derived (the listing is cut short):
    /// a number of backward steps (joins and prunes, counted the same way
    /// on every machine), and `--timeout`'s wall clock. The clock is
    /// watched from outside the rules (`candidates` runs them under a
    /// watchdog that raises `stop`); the rules only read the flag.
    pub max_steps: u64,
    pub deadline: Option<std::time::Instant>,
    pub stop: crate::analysis::run::Stop,
    pub steps: std::cell::Cell<u64>,
    /// Which limit cut the listing, if one did.
    pub cut: std::cell::Cell<Option<Cut>>,
}

/// A limit that cut an explanation short.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// The explanation's own budget of steps (deterministic).
    Steps,
    /// `--timeout` (depends on the machine and its load).
    Clock,
}

impl<'e> Backward<'e> {
    pub fn new(e: Explored<'e>) -> Backward<'e> {
        let (global_var, local_var) = super::slice::slot_vars(e.cx);
        let esets = RefCell::new(Interner::default());
        esets.borrow_mut().intern(ESet::default());
        Backward {
            e,
            rules: Rules::new(e.cx),
            global_var,
            local_var,
            esets,
            roots: RefCell::new(Interner::default()),
            feasible: RefCell::new(HashMap::new()),
            chains: RefCell::new(HashMap::new()),
            heads: RefCell::new(HashMap::new()),
            exit_sets: RefCell::new(HashMap::new()),
            models: RefCell::new(Vec::new()),
            max_steps: u64::MAX,
            deadline: None,
            stop: Default::default(),
            steps: std::cell::Cell::new(0),
            cut: std::cell::Cell::new(None),
        }
    }

    pub fn eset(&self, id: ESetId) -> std::sync::Arc<ESet> {
        self.esets.borrow().get(id.0)
    }

    pub fn intern_eset(&self, s: ESet) -> ESetId {
        ESetId(self.esets.borrow_mut().intern(s))
    }

    pub fn root(&self, id: RootId) -> std::sync::Arc<Root> {
        self.roots.borrow().get(id.0)
    }

    pub fn intern_root(&self, r: Root) -> RootId {
        RootId(self.roots.borrow_mut().intern(r))
    }

    pub fn is_sum(&self, r: RootId) -> bool {
        matches!(*self.root(r), Root::Sum { .. })
    }

    pub fn exit_node(&self, c: CtxId) -> NodeId {
        self.e.cx.p.proc(self.e.t.ctx(c).proc).exit
    }

    fn add_cd(&self, n: NodeId, set: &mut ESet) {
        self.rules.add_cd(n, &mut set.pending);
    }

    /// Backward over an intra-activation step `s --l--> _` given the Error
    /// set after it: the transfer (`transfer.rs`) over the state's slots.
    pub fn update(&self, s: State, l: LabelId, after: ESetId) -> (ESetId, Option<Event>) {
        let (_, n, v) = s;
        let node = self.e.cx.p.node(n);
        let mut step = SymStep {
            bw: self,
            node,
            val: self.e.t.val(v),
            label: self.e.t.label(l),
            set: (*self.eset(after)).clone(),
            at: (n, l),
            index_reads: BTreeSet::new(),
        };
        let kind = self.rules.transfer(self.e.cx, n, &mut step);
        let event = kind.map(|kind| Event {
            node: n,
            kind,
            label: l,
        });
        (self.intern_eset(step.set), event)
    }

    /// Where a backward walk for condition `k` starts, for an error step
    /// `s --l-->`: the Error set before the step and its event.
    pub fn error_root(&self, k: CondId, s: State, l: LabelId) -> (ESetId, Event) {
        let (_, n, v) = s;
        let p = self.e.cx.p;
        let node = p.node(n);
        let proc = node.proc;
        let val = self.e.t.val(v);
        let label = self.e.t.label(l);
        let mut set = ESet::default();
        match &self.e.cx.conds[k.0 as usize].kind {
            CondKind::Site(site) => {
                // A check inside an expression: what its index or divisor reads.
                if let Some(e) = site_operand(&node.kind, *site) {
                    self.reads(proc, &val, e, &label, &mut set.vars);
                }
            }
            CondKind::User(u) => {
                let mut written = BTreeSet::new();
                let mut reads = BTreeSet::new();
                match &node.kind {
                    NodeKind::Assign { place, value, .. } => {
                        written.extend(self.writes(proc, &val, place, &label, &mut reads).0);
                        self.reads(proc, &val, value, &label, &mut reads);
                    }
                    NodeKind::Havoc { place, .. } => {
                        written.extend(self.writes(proc, &val, place, &label, &mut reads).0)
                    }
                    _ => {}
                }
                set.vars.extend(reads);
                let mut cond_slots = BTreeSet::new();
                for &var in &u.vars {
                    self.all_slots(var, &mut cond_slots);
                }
                set.vars.extend(cond_slots.difference(&written).copied());
            }
        }
        self.add_cd(n, &mut set);
        (
            self.intern_eset(set),
            Event {
                node: n,
                kind: EvKind::Error,
                label: l,
            },
        )
    }
}

/// Calls `f` on every expression a node evaluates.
pub fn visit_node_exprs<'k>(kind: &'k NodeKind, f: &mut dyn FnMut(&'k Expr)) {
    let place = |pl: &'k Place, f: &mut dyn FnMut(&'k Expr)| {
        if let Some((i, _)) = &pl.index {
            f(i);
        }
    };
    match kind {
        NodeKind::Assign { place: pl, value, .. } => {
            f(value);
            place(pl, f);
        }
        NodeKind::Havoc { place: pl, .. } => place(pl, f),
        NodeKind::Branch {
            cond: Cond::Atom(a), ..
        } => {
            f(&a.lhs);
            f(&a.rhs);
        }
        NodeKind::Call { args, result, .. } => {
            for a in args {
                f(a);
            }
            if let Some(pl) = result {
                place(pl, f);
            }
        }
        NodeKind::Return { value: Some(e), .. } => f(e),
        _ => {}
    }
}

/// The index (bounds site) or divisor (division site) checked at `site` in
/// a node.
pub fn site_operand(kind: &NodeKind, site: SiteId) -> Option<&Expr> {
    let written = match kind {
        NodeKind::Assign { place, .. } | NodeKind::Havoc { place, .. } => Some(place),
        NodeKind::Call {
            result: Some(place), ..
        } => Some(place),
        _ => None,
    };
    if let Some((i, _)) = written.and_then(|pl| pl.index.as_ref()).filter(|(_, s)| *s == site) {
        return Some(i.as_ref());
    }
    let mut found = None;
    visit_node_exprs(kind, &mut |e| {
        if found.is_none() {
            find_site(e, site, &mut found);
        }
    });
    found
}

/// The index (bounds site), divisor (division site), checked value
/// (overflow site) or shift amount (shift site) of `site` in `e`.
fn find_site<'x>(e: &'x Expr, site: SiteId, found: &mut Option<&'x Expr>) {
    match &e.kind {
        ExprKind::Elem(_, i, s) => {
            if *s == site {
                *found = Some(i);
            }
            find_site(i, site, found);
        }
        ExprKind::Div { num, den, site: s, .. } => {
            if *s == site {
                *found = Some(den);
            }
            find_site(num, site, found);
            find_site(den, site, found);
        }
        ExprKind::Neg(x) | ExprKind::Conv(_, x) => find_site(x, site, found),
        ExprKind::Bit {
            a, b, site: s, strict, ..
        } => {
            if *s == Some(site) {
                // The amount decides; a strict `<<` depends on the value too.
                *found = Some(if *strict { e } else { b });
            }
            find_site(a, site, found);
            find_site(b, site, found);
        }
        ExprKind::Checked { value, site: s, .. } => {
            if *s == site {
                *found = Some(value);
            }
            find_site(value, site, found);
        }
        ExprKind::Arith(_, a, b) => {
            find_site(a, site, found);
            find_site(b, site, found);
        }
        ExprKind::Float { args, site: s, .. } => {
            if *s == Some(site) {
                *found = args.first();
            }
            for a in args {
                find_site(a, site, found);
            }
        }
        ExprKind::Const(_) | ExprKind::Var(_) => {}
    }
}
