//! Abstract transfer functions, called from the forward rules: the
//! successors of a state, the activation a call starts, and the state a
//! return leads to. Loop widening and symbol freshness live here.
//!
//! Invariants:
//! - a valuation never holds two different draws or abstraction symbols
//!   under one name: new symbols take the smallest instance number not
//!   present in the valuation (so states repeat and exploration ends);
//! - symbols a callee creates are renamed on return away from the caller's;
//! - once a loop head has been reached with `unroll` different valuations
//!   of what the loop writes (in one activation), a path that took a
//!   non-concrete decision in the loop has the values it brings that were
//!   never seen there widened (replaced by abstraction symbols).

use super::conditions::{CondIndex, Condition};
use super::eval::{Evaluator, Mode, Outcome, SymEnv};
use super::state::*;
use super::value::{AlphaDef, AlphaKey, Sym, Truth, Value};
use crate::facts::Analysis;
use crate::ir::*;
use std::cell::Cell;
use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct Options {
    /// Different valuations a loop head takes (per activation) before new
    /// values are widened; also the depth of recursion before widening.
    pub unroll: u32,
    /// Reuse procedure summaries (`false`: inline every call).
    pub summaries: bool,
    pub max_states: u64,
    pub timeout: Option<Duration>,
    /// A resident memory limit in bytes, and how to read the process's
    /// resident memory (the caller does the IO); checked every 1024 states.
    pub memory: Option<(u64, ReadMemory)>,
}

/// Reads the process's resident memory in bytes.
pub type ReadMemory = fn() -> Option<u64>;

impl Default for Options {
    fn default() -> Self {
        Options {
            unroll: 10,
            summaries: true,
            max_states: 2_000_000,
            timeout: None,
            memory: None,
        }
    }
}

/// Where a step goes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Target {
    Node(NodeId, ValId),
    /// The step violates a condition (a run-time error ends the run; a user
    /// condition is also continued as a `Node` target).
    Error(CondId),
}

/// The values a loop head was reached with, in one activation.
#[derive(Default)]
struct HeadSeen {
    /// Different tuples of the loop's written values.
    tuples: std::collections::HashSet<Vec<Value>>,
    /// Per written slot, the values seen.
    values: Vec<std::collections::HashSet<Value>>,
}

/// Why exploration stopped early, if it did.
pub struct Budget {
    start: Instant,
    states: Cell<u64>,
    pub hit: Cell<Option<&'static str>>,
}

pub struct Engine<'a> {
    pub p: &'a Program,
    pub a: &'a Analysis,
    pub layout: Layout,
    pub views: Vec<View>,
    pub conds: &'a [Condition],
    pub cond_index: CondIndex,
    pub opts: Options,
    pub t: Tables,
    pub budget: Budget,
    /// Loops (indices into `Analysis::loops`) whose body holds each node.
    loops_of_node: Vec<Vec<u32>>,
    /// Exit tests: a branch of a loop with one successor outside it; the
    /// loop and the successor that stays inside.
    exit_tests: HashMap<NodeId, Vec<(u32, NodeId)>>,
    /// Strongly connected component of each procedure in the call graph.
    scc: Vec<u32>,
    /// Input number of each (variable, element).
    input_index: HashMap<(VarId, u32), u32>,
    /// The range of each input, by number.
    pub input_ranges: Vec<(i64, i64)>,
    /// What each loop head (per activation) has been reached with.
    heads: std::cell::RefCell<HashMap<(CtxId, NodeId), HeadSeen>>,
    /// User conditions reading each variable.
    conds_of_var: HashMap<VarId, Vec<CondId>>,
}

/// Reads an activation's valuation; makes fresh symbols that do not clash
/// with those in it (or made earlier in the same step).
struct AbsEnv<'e> {
    e: &'e Engine<'e>,
    proc: ProcId,
    val: &'e Valuation,
    taken: BTreeSet<Sym>,
}

impl SymEnv for AbsEnv<'_> {
    fn read(&self, var: VarId, index: u32) -> Value {
        self.e.read(self.proc, self.val, var, index)
    }

    fn fresh_alpha(&mut self, node: NodeId, _: AlphaDef) -> Sym {
        let s = fresh(&self.taken, Sym::Alpha(AlphaKey::Op(node), 0));
        self.taken.insert(s);
        s
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

impl<'a> Engine<'a> {
    pub fn new(p: &'a Program, a: &'a Analysis, conds: &'a [Condition], opts: Options) -> Engine<'a> {
        let layout = p.layout();
        let mut extra = BTreeSet::new();
        let mut conds_of_var: HashMap<VarId, Vec<CondId>> = HashMap::new();
        for (i, c) in conds.iter().enumerate() {
            if let Some(u) = c.user() {
                for &v in &u.vars {
                    conds_of_var.entry(v).or_default().push(CondId(i as u32));
                    if p.var(v).is_global_storage() {
                        extra.insert(v);
                    }
                }
            }
        }
        let views = views(p, a, &layout, &extra);
        let mut loops_of_node = vec![Vec::new(); p.nodes.len()];
        for (i, l) in a.loops.iter().enumerate() {
            for n in &l.body {
                loops_of_node[n.index()].push(i as u32);
            }
        }
        let mut exit_tests: HashMap<NodeId, Vec<(u32, NodeId)>> = HashMap::new();
        for (i, l) in a.loops.iter().enumerate() {
            for &b in &l.body {
                if let NodeKind::Branch { then_, else_, .. } = &p.node(b).kind {
                    match (l.body.contains(then_), l.body.contains(else_)) {
                        (true, false) => exit_tests.entry(b).or_default().push((i as u32, *then_)),
                        (false, true) => exit_tests.entry(b).or_default().push((i as u32, *else_)),
                        _ => {}
                    }
                }
            }
        }
        let input_index = p
            .input_slots()
            .iter()
            .enumerate()
            .map(|(k, s)| ((s.var, s.index.unwrap_or(0)), k as u32))
            .collect();
        Engine {
            p,
            a,
            views,
            conds,
            cond_index: CondIndex::new(p, conds),
            opts,
            t: Tables::default(),
            budget: Budget {
                start: Instant::now(),
                states: Cell::new(0),
                hit: Cell::new(None),
            },
            loops_of_node,
            exit_tests,
            scc: sccs(p),
            input_index,
            input_ranges: p.input_slots().iter().map(|s| s.range).collect(),
            heads: Default::default(),
            conds_of_var,
            layout,
        }
    }

    // ---- reading and writing valuations ----

    pub fn slot_of(&self, var: VarId, index: u32) -> VarSlot {
        let off = self.layout.offset[var.index()] + index;
        if self.p.var(var).is_global_storage() {
            VarSlot::Global(off)
        } else {
            VarSlot::Local(off)
        }
    }

    pub fn read(&self, proc: ProcId, val: &Valuation, var: VarId, index: u32) -> Value {
        match self.slot_of(var, index) {
            VarSlot::Global(g) => match self.views[proc.index()].pos.get(&g) {
                Some(&i) => val.globals[i as usize].clone(),
                // Not in the view: the procedure cannot read it (defensive).
                None => Value::Const(0),
            },
            VarSlot::Local(l) => val.locals.get(l as usize).cloned().unwrap_or_default(),
        }
    }

    pub fn write(&self, proc: ProcId, val: &mut Valuation, var: VarId, index: u32, v: Value) {
        match self.slot_of(var, index) {
            VarSlot::Global(g) => {
                if let Some(&i) = self.views[proc.index()].pos.get(&g) {
                    val.globals.set(i as usize, v);
                }
            }
            VarSlot::Local(l) => {
                val.locals.set(l as usize, v);
            }
        }
    }

    /// The initial state: the entry procedure with inputs as symbols.
    pub fn initial(&self) -> (CtxId, NodeId, ValId) {
        let p = self.p;
        let entry = p.entry;
        let view = &self.views[entry.index()];
        let globals: im::Vector<Value> = view.slots.iter().map(|_| Value::Const(0)).collect();
        let mut val = Valuation {
            globals,
            locals: (0..self.layout.frame_slots[entry.index()])
                .map(|_| Value::Const(0))
                .collect(),
            loops: Vec::new(),
        };
        for &g in &p.globals {
            let var = p.var(g);
            for k in 0..var.slots() {
                let v = match &var.init {
                    VarInit::Input => Value::sym(Sym::Input(self.input_index[&(g, k)])),
                    VarInit::Values(vals) => Value::Const(vals.get(k as usize).copied().unwrap_or(0)),
                    VarInit::Assigned => Value::Const(0),
                };
                self.write(entry, &mut val, g, k, v);
            }
        }
        for s in p.input_slots() {
            if !p.var(s.var).is_global_storage() {
                let k = s.index.unwrap_or(0);
                let v = Value::sym(Sym::Input(self.input_index[&(s.var, k)]));
                self.write(entry, &mut val, s.var, k, v);
            }
        }
        let start = self.t.intern_val(val);
        let ctx = self.t.intern_ctx(CtxKey {
            proc: entry,
            start,
            depth: 0,
            caller: None,
        });
        (ctx, p.proc(entry).entry, start)
    }

    pub fn start_of(&self, c: CtxId) -> (NodeId, ValId) {
        let k = self.t.ctx(c);
        (self.p.proc(k.proc).entry, k.start)
    }

    pub fn is_exit(&self, n: NodeId) -> bool {
        matches!(self.p.node(n).kind, NodeKind::Exit)
    }

    /// Counts a state; `false` once the budget is spent.
    fn spend(&self) -> bool {
        if self.budget.hit.get().is_some() {
            return false;
        }
        let n = self.budget.states.get() + 1;
        self.budget.states.set(n);
        if n > self.opts.max_states {
            self.budget.hit.set(Some("the state limit (--max-states) was reached"));
            return false;
        }
        // Every state: one state can be slow (large arrays), and reading
        // the clock costs little next to a transfer function.
        if let Some(t) = self.opts.timeout {
            if self.budget.start.elapsed() > t {
                self.budget.hit.set(Some("the time limit (--timeout) was reached"));
                return false;
            }
        }
        if let Some((limit, resident)) = self.opts.memory {
            if n.is_multiple_of(1024) && resident().is_some_and(|r| r > limit) {
                self.budget.hit.set(Some("the memory limit (--max-memory) was reached"));
                return false;
            }
        }
        true
    }

    /// The range of an input symbol's values (others are unbounded).
    pub fn sym_range(&self, s: Sym) -> (i64, i64) {
        match s {
            Sym::Input(k) => self.input_ranges[k as usize],
            // A draw is a value of the type its `Havoc` draws.
            Sym::Draw(n, _) => match &self.p.node(n).kind {
                NodeKind::Havoc { ty, .. } => ty.range(),
                _ => (i64::MIN, i64::MAX),
            },
            Sym::Alpha(..) => (i64::MIN, i64::MAX),
        }
    }

    pub fn states_explored(&self) -> u64 {
        self.budget.states.get()
    }

    fn env<'e>(&'e self, c: CtxId, proc: ProcId, val: &'e Valuation) -> AbsEnv<'e> {
        AbsEnv {
            e: self,
            proc,
            val,
            taken: self.taken(c, val),
        }
    }

    /// Symbols a new symbol of activation `c` must not be: those alive in
    /// `val`, and those of the activation's start valuation. The caller
    /// reads a start symbol in the exit valuation as its own value passed
    /// in, so it must never be made again inside, even once dead there.
    fn taken(&self, c: CtxId, val: &Valuation) -> BTreeSet<Sym> {
        let mut t = val.syms();
        t.extend(self.t.val(self.t.ctx(c).start).syms());
        t
    }

    // ---- steps ----

    /// Successors of a state (calls excepted: see `calls` and `returns`).
    pub fn transitions(&self, c: CtxId, n: NodeId, v: ValId) -> Vec<(LabelId, Target)> {
        if !self.spend() {
            return Vec::new();
        }
        let p = self.p;
        let node = p.node(n);
        let proc = node.proc;
        let val = self.t.val(v);
        let mut out = Vec::new();
        match &node.kind {
            NodeKind::Assign { place, value, next } => {
                let mut env = self.env(c, proc, &val);
                let values = Evaluator {
                    p,
                    env: &mut env,
                    mode: Mode::All,
                    node: n,
                }
                .expr(value);
                for o in values {
                    match o.result {
                        Err(site) => out.push(self.error_target(o.decisions, site)),
                        Ok(x) => self.assign(c, proc, n, &val, place, o.decisions, Some(x), *next, &mut out),
                    }
                }
            }
            NodeKind::Havoc { place, next, .. } => self.assign(c, proc, n, &val, place, vec![], None, *next, &mut out),
            NodeKind::Branch { cond, then_, else_ } => {
                let outcomes = match cond {
                    Cond::Nondet => vec![(vec![], Ok(None))],
                    Cond::Atom(a) => {
                        let mut env = self.env(c, proc, &val);
                        Evaluator {
                            p,
                            env: &mut env,
                            mode: Mode::All,
                            node: n,
                        }
                        .atom(a)
                        .into_iter()
                        .map(|o| {
                            let r = o.result.map(|t| match t {
                                Truth::Known(b) => Some(b),
                                Truth::Depends(_) => None,
                            });
                            (o.decisions, r)
                        })
                        .collect()
                    }
                };
                // `Some(b)`: the outcome is known; `None`: both are possible.
                for (decisions, r) in outcomes {
                    match r {
                        Err(site) => out.push(self.error_target(decisions, site)),
                        Ok(known) => {
                            for (b, to) in [(true, *then_), (false, *else_)] {
                                if known.is_some_and(|k| k != b) {
                                    continue;
                                }
                                let w = self.advance(c, proc, n, to, (*val).clone(), known.is_none());
                                let mut d = decisions.clone();
                                d.push(Decision::Branch(b));
                                out.push((self.label(d), Target::Node(to, w)));
                            }
                        }
                    }
                }
            }
            NodeKind::Return { value, next } => match (value, p.proc(proc).ret_var) {
                (Some(e), Some(rv)) => {
                    let mut env = self.env(c, proc, &val);
                    let values = Evaluator {
                        p,
                        env: &mut env,
                        mode: Mode::All,
                        node: n,
                    }
                    .expr(e);
                    for o in values {
                        match o.result {
                            Err(site) => out.push(self.error_target(o.decisions, site)),
                            Ok(x) => {
                                let mut w = (*val).clone();
                                self.write(proc, &mut w, rv, 0, x);
                                let w = self.advance(c, proc, n, *next, w, false);
                                out.push((self.label(o.decisions), Target::Node(*next, w)));
                            }
                        }
                    }
                }
                _ => {
                    let w = self.advance(c, proc, n, *next, (*val).clone(), false);
                    out.push((self.label(vec![]), Target::Node(*next, w)));
                }
            },
            NodeKind::Skip { next } => {
                let w = self.advance(c, proc, n, *next, (*val).clone(), false);
                out.push((self.label(vec![]), Target::Node(*next, w)));
            }
            NodeKind::Error { site } => out.push(self.error_target(vec![], *site)),
            NodeKind::Call { .. } => {
                // Errors while evaluating the arguments; the calls themselves
                // come from `calls`.
                for o in self.call_outcomes(c, n, &val, None) {
                    if let Err(site) = o.result {
                        out.push(self.error_target(o.decisions, site));
                    }
                }
            }
            NodeKind::Halt | NodeKind::Exit => {}
        }
        // A failure that is an assumption ends the path without error.
        out.retain(|(_, t)| !matches!(t, Target::Error(k) if self.conds[k.0 as usize].cut));
        out
    }

    /// Does the branch at this state have a known outcome (no constraint)?
    pub fn branch_known(&self, s: (CtxId, NodeId, ValId)) -> bool {
        let (c, n, v) = s;
        let NodeKind::Branch {
            cond: Cond::Atom(a), ..
        } = &self.p.node(n).kind
        else {
            return false;
        };
        let val = self.t.val(v);
        let mut env = self.env(c, self.p.node(n).proc, &val);
        Evaluator {
            p: self.p,
            env: &mut env,
            mode: Mode::All,
            node: n,
        }
        .atom(a)
        .iter()
        .all(|o| matches!(o.result, Ok(Truth::Known(_))))
    }

    fn label(&self, d: Vec<Decision>) -> LabelId {
        self.t.intern_label(Label(d))
    }

    fn error_target(&self, d: Vec<Decision>, site: SiteId) -> (LabelId, Target) {
        let cond = self.cond_index.of_site[site.index()].expect("every site of a reachable procedure has a condition");
        (self.label(d), Target::Error(cond))
    }

    /// Writes `x` (fresh draws when `None`) to the place, then checks user
    /// conditions and moves on.
    #[allow(clippy::too_many_arguments)]
    fn assign(
        &self,
        c: CtxId,
        proc: ProcId,
        n: NodeId,
        val: &Valuation,
        place: &Place,
        decisions: Vec<Decision>,
        x: Option<Value>,
        next: NodeId,
        out: &mut Vec<(LabelId, Target)>,
    ) {
        let mut env = self.env(c, proc, val);
        let slots = Evaluator {
            p: self.p,
            env: &mut env,
            mode: Mode::All,
            node: n,
        }
        .place(place);
        for s in slots {
            let mut d = decisions.clone();
            d.extend(s.decisions.iter().copied());
            match s.result {
                Err(site) => out.push(self.error_target(d, site)),
                Ok((var, k)) => {
                    let mut w = val.clone();
                    match &x {
                        Some(x) => self.write(proc, &mut w, var, k, x.clone()),
                        None => self.havoc(c, n, &mut w, place, var, k),
                    }
                    self.violations(c, n, &w, &[var], &d, out);
                    let w = self.advance(c, proc, n, next, w, false);
                    out.push((self.label(d), Target::Node(next, w)));
                }
            }
        }
    }

    /// Gives the place (a whole array when unindexed) fresh draws.
    fn havoc(&self, c: CtxId, n: NodeId, w: &mut Valuation, place: &Place, var: VarId, k: u32) {
        let proc = self.p.node(n).proc;
        let elems: Vec<u32> = match (&place.index, self.p.var(var).len) {
            (None, Some(len)) => (0..len).collect(),
            _ => vec![k],
        };
        // The old values go first, so their symbols can be reused.
        for &e in &elems {
            self.write(proc, w, var, e, Value::Const(0));
        }
        let mut taken = self.taken(c, w);
        for e in elems {
            let s = fresh(&taken, Sym::Draw(n, 0));
            taken.insert(s);
            self.write(proc, w, var, e, Value::sym(s));
        }
    }

    /// Error targets for user conditions that may hold after `n` wrote
    /// `written` (the run also goes on).
    fn violations(
        &self,
        c: CtxId,
        n: NodeId,
        w: &Valuation,
        written: &[VarId],
        d: &[Decision],
        out: &mut Vec<(LabelId, Target)>,
    ) {
        let proc = self.p.node(n).proc;
        let mut seen = BTreeSet::new();
        for var in written {
            for &k in self.conds_of_var.get(var).into_iter().flatten() {
                if !seen.insert(k) {
                    continue;
                }
                let user = self.conds[k.0 as usize]
                    .user()
                    .expect("only user conditions read variables");
                if user.proc.is_some_and(|cp| cp != proc) {
                    continue;
                }
                for (j, disjunct) in self.conds[k.0 as usize].dnf.iter().enumerate() {
                    if self.disjunct_may_hold(c, proc, n, w, disjunct) {
                        let mut d = d.to_vec();
                        d.push(Decision::Violates(k, j as u32));
                        out.push((self.label(d), Target::Error(k)));
                    }
                }
            }
        }
    }

    fn disjunct_may_hold(&self, c: CtxId, proc: ProcId, n: NodeId, w: &Valuation, disjunct: &[(Atom, bool)]) -> bool {
        let mut env = self.env(c, proc, w);
        for (atom, pos) in disjunct {
            let outs = Evaluator {
                p: self.p,
                env: &mut env,
                mode: Mode::All,
                node: n,
            }
            .atom(atom);
            let possible = outs.iter().any(|o| match &o.result {
                Ok(Truth::Known(b)) => b == pos,
                Ok(Truth::Depends(_)) => true,
                Err(_) => false,
            });
            if !possible {
                return false;
            }
        }
        true
    }

    /// The valuation on entering `to` from `from`: loop bookkeeping and,
    /// past the unrolling bound, widening.
    fn advance(&self, c: CtxId, proc: ProcId, from: NodeId, to: NodeId, mut w: Valuation, decided: bool) -> ValId {
        if decided {
            for lv in &mut w.loops {
                if self.loops_of_node[from.index()].contains(&lv.lp) {
                    lv.decided = true;
                }
            }
        }
        // An exit test that stays in its loop: the iteration goes on, so
        // what changed in the last one is widened now.
        for &(l, stay) in self.exit_tests.get(&from).into_iter().flatten() {
            if stay == to {
                if let Some(i) = w.loops.iter().position(|lv| lv.lp == l && !lv.pending.is_empty()) {
                    let pending = std::mem::take(&mut w.loops[i].pending);
                    self.widen(c, proc, l, &pending, &mut w);
                }
            }
        }
        // At the exit only the globals and the return value live on: the
        // locals are dropped, so one effect is one summary.
        if let NodeKind::Exit = self.p.node(to).kind {
            let rv = self
                .p
                .proc(proc)
                .ret_var
                .map(|rv| self.layout.offset[rv.index()] as usize);
            for i in 0..w.locals.len() {
                if Some(i) != rv {
                    w.locals.set(i, Value::Const(0));
                }
            }
        }
        let inside = &self.loops_of_node[to.index()];
        w.loops.retain(|lv| inside.contains(&lv.lp));
        if let Some(&l) = self.a.loop_at.get(&to) {
            let l = l as u32;
            let i = match w.loops.iter().position(|lv| lv.lp == l) {
                Some(i) => i,
                None => {
                    w.loops.push(LoopVisit {
                        lp: l,
                        decided: false,
                        pending: Vec::new(),
                    });
                    w.loops.len() - 1
                }
            };
            self.head_visit(c, proc, l, i, &mut w);
        }
        self.t.intern_val(w)
    }

    /// The slots a loop writes that belong to this activation.
    fn loop_slots(&self, proc: ProcId, l: u32) -> Vec<(VarId, u32)> {
        let mut slots = Vec::new();
        for &var in &self.a.loops[l as usize].modifies {
            let v = self.p.var(var);
            if !v.is_global_storage() && v.proc != Some(proc) {
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
    /// values never seen at this head become pending (or are widened at once
    /// in a loop without exit tests); accepted values are recorded.
    fn head_visit(&self, c: CtxId, proc: ProcId, l: u32, i: usize, w: &mut Valuation) {
        let head = self.a.loops[l as usize].head;
        let slots = self.loop_slots(proc, l);
        let stale = std::mem::take(&mut w.loops[i].pending);
        if !stale.is_empty() {
            self.widen(c, proc, l, &stale, w);
        }
        let now: Vec<Value> = slots.iter().map(|&(var, k)| self.read(proc, w, var, k)).collect();
        let mut heads = self.heads.borrow_mut();
        let seen = heads.entry((c, head)).or_default();
        if seen.values.len() < now.len() {
            seen.values.resize_with(now.len(), Default::default);
        }
        let mut fresh_values = Vec::new();
        if w.loops[i].decided && seen.tuples.len() >= self.opts.unroll as usize {
            fresh_values = (0..now.len() as u32)
                .filter(|&j| !seen.values[j as usize].contains(&now[j as usize]))
                .collect();
        }
        if fresh_values.is_empty() {
            for (j, v) in now.iter().enumerate() {
                seen.values[j].insert(v.clone());
            }
            seen.tuples.insert(now);
            return;
        }
        drop(heads);
        let has_exit_test = self.exit_tests.values().flatten().any(|&(lp, _)| lp == l);
        if has_exit_test {
            w.loops[i].pending = fresh_values;
        } else {
            self.widen(c, proc, l, &fresh_values, w);
        }
    }

    /// Replaces the given slots of what the loop writes by fresh abstraction
    /// symbols.
    fn widen(&self, c: CtxId, proc: ProcId, l: u32, which: &[u32], w: &mut Valuation) {
        let head = self.a.loops[l as usize].head;
        let slots = self.loop_slots(proc, l);
        let chosen: Vec<(VarId, u32)> = which.iter().filter_map(|&j| slots.get(j as usize).copied()).collect();
        for &(var, k) in &chosen {
            self.write(proc, w, var, k, Value::Const(0));
        }
        let mut taken = self.taken(c, w);
        for &(var, k) in &chosen {
            let id = self.layout.offset[var.index()]
                + k
                + if self.p.var(var).is_global_storage() {
                    0
                } else {
                    1 << 30
                };
            let s = fresh(&taken, Sym::Alpha(AlphaKey::Widen(head, id), 0));
            taken.insert(s);
            self.write(proc, w, var, k, Value::sym(s));
        }
    }

    // ---- calls ----

    /// Evaluates a call's arguments and result place: per outcome, the
    /// decisions and either (argument values, result slot) or an error.
    #[allow(clippy::type_complexity)]
    fn call_outcomes(
        &self,
        c: CtxId,
        n: NodeId,
        val: &Valuation,
        follow: Option<(&[Decision], &mut usize)>,
    ) -> Vec<CallOutcome> {
        let NodeKind::Call { args, result, .. } = &self.p.node(n).kind else {
            return Vec::new();
        };
        let proc = self.p.node(n).proc;
        let mut env = self.env(c, proc, val);
        call_outcomes(self.p, &mut env, n, args, result.as_ref(), follow)
    }

    /// The activations a call can start.
    pub fn calls(&self, c: CtxId, n: NodeId, v: ValId) -> Vec<(LabelId, CtxId)> {
        // Once a budget is spent, no new work: the fixpoint then ends soon
        // (and the verdicts of a cut graph are never "safe").
        if self.budget.hit.get().is_some() {
            return Vec::new();
        }
        let NodeKind::Call { callee, .. } = &self.p.node(n).kind else {
            return Vec::new();
        };
        let val = self.t.val(v);
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
            out.push((l, self.t.intern_ctx(key)));
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
        let p = self.p;
        let caller = p.node(n).proc;
        let cp = p.proc(callee);
        let mut u = Valuation {
            globals: self.views[callee.index()]
                .slots
                .iter()
                .map(|g| match self.views[caller.index()].pos.get(g) {
                    Some(&i) => val.globals[i as usize].clone(),
                    None => Value::Const(0),
                })
                .collect(),
            locals: (0..self.layout.frame_slots[callee.index()])
                .map(|_| Value::Const(0))
                .collect(),
            loops: Vec::new(),
        };
        for (param, a) in cp.params.iter().zip(args) {
            self.write(callee, &mut u, *param, 0, a.clone());
        }
        // A recursive call of the entry draws the locals that were inputs.
        if callee == p.entry {
            let mut taken = val.syms();
            taken.extend(u.syms());
            for &l in &cp.locals {
                if p.var(l).kind == VarKind::Local && p.var(l).init == VarInit::Input {
                    for k in 0..p.var(l).slots() {
                        let s = fresh(&taken, Sym::Draw(n, 0));
                        taken.insert(s);
                        self.write(callee, &mut u, l, k, Value::sym(s));
                    }
                }
            }
        }
        let ctx = self.t.ctx(c);
        let depth = if self.scc[caller.index()] == self.scc[callee.index()] {
            (ctx.depth + 1).min(self.opts.unroll + 1)
        } else {
            0
        };
        let mut w = u.clone();
        if depth > self.opts.unroll {
            // Deep recursion: what is not a constant becomes unknown.
            let mut taken = u.syms();
            let globals: Vec<u32> = self.views[callee.index()].slots.clone();
            for (i, g) in globals.iter().enumerate() {
                if w.globals[i].as_const().is_none() {
                    let s = fresh(&taken, Sym::Alpha(AlphaKey::Recursion(callee, *g), 0));
                    taken.insert(s);
                    w.globals.set(i, Value::sym(s));
                }
            }
            for (i, &param) in cp.params.iter().enumerate() {
                if self.read(callee, &w, param, 0).as_const().is_none() {
                    let s = fresh(&taken, Sym::Alpha(AlphaKey::Recursion(callee, (1 << 30) + i as u32), 0));
                    taken.insert(s);
                    self.write(callee, &mut w, param, 0, Value::sym(s));
                }
            }
        }
        (u, w, depth)
    }

    fn callee_start(&self, c: CtxId, n: NodeId, val: &Valuation, callee: ProcId, args: &[Value]) -> (ValId, u32) {
        let (_, w, depth) = self.callee_valuations(c, n, val, callee, args);
        (self.t.intern_val(w), depth)
    }

    /// Where a call returns to, given the callee's exit valuation; plus user
    /// conditions the result may violate.
    pub fn returns(&self, c: CtxId, n: NodeId, v: ValId, l: LabelId, x: ValId) -> Vec<(LabelId, Target)> {
        if self.budget.hit.get().is_some() {
            return Vec::new();
        }
        let p = self.p;
        let NodeKind::Call { callee, next, .. } = &p.node(n).kind else {
            return Vec::new();
        };
        let caller = p.node(n).proc;
        let val = self.t.val(v);
        let exit = self.t.val(x);
        let label = self.t.label(l);
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
        let callee_view = &self.views[callee.index()];
        let mut taken: BTreeSet<Sym> = self.t.val(self.t.ctx(c).start).syms();
        for (i, g) in self.views[caller.index()].slots.iter().enumerate() {
            if !callee_view.pos.contains_key(g) {
                taken.extend(w.globals[i].syms());
            }
        }
        let result_slot = result.map(|(var, k)| self.slot_of(var, k));
        for (i, x) in w.locals.iter().enumerate() {
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
        let mut renaming: HashMap<Sym, Sym> = HashMap::new();
        let mut rename = |x: &Value| -> Value {
            match x {
                Value::Const(_) => x.clone(),
                Value::Lin(l) => {
                    let e = l.substitute(&mut |s| {
                        if keep.contains(&s) {
                            return None;
                        }
                        let t = *renaming.entry(s).or_insert_with(|| {
                            let t = fresh(&taken, s.family());
                            taken.insert(t);
                            t
                        });
                        Some(super::value::LinExpr::sym(t))
                    });
                    e.map(Value::from_lin).unwrap_or_else(|| x.clone())
                }
            }
        };
        let mut back: Vec<(usize, Value)> = Vec::new();
        for (i, g) in callee_view.slots.iter().enumerate() {
            if let Some(&j) = self.views[caller.index()].pos.get(g) {
                back.push((j as usize, rename(&exit.globals[i])));
            }
        }
        let result_value = match (result, p.proc(*callee).ret_var) {
            (Some(_), Some(rv)) => Some(rename(&self.read(*callee, &exit, rv, 0))),
            _ => None,
        };
        // Past the recursion bound what a call gives back is widened too
        // (else `return n + f(n - 1)` yields 0, a, 2a, ... without end).
        let deep = depth > self.opts.unroll;
        let mut widen = |v: Value, key: u32| -> Value {
            if !deep || v.as_const().is_some() {
                return v;
            }
            let t = fresh(&taken, Sym::Alpha(AlphaKey::Recursion(*callee, key), 0));
            taken.insert(t);
            Value::sym(t)
        };
        for (j, nv) in back {
            let g = self.views[caller.index()].slots[j];
            w.globals.set(j, widen(nv, (1 << 29) + g));
        }
        let mut written = Vec::new();
        if let (Some((var, k)), Some(r)) = (result, result_value) {
            let r = widen(r, 1 << 28);
            self.write(caller, &mut w, var, k, r);
            written.push(var);
        }
        let mut out = Vec::new();
        self.violations(c, n, &w, &written, &[], &mut out);
        let w = self.advance(c, caller, n, *next, w, false);
        out.push((self.label(vec![]), Target::Node(*next, w)));
        out
    }
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

/// Strongly connected components of the call graph (procedures that can
/// call each other, directly or not, share a number).
fn sccs(p: &Program) -> Vec<u32> {
    let n = p.procs.len();
    let mut reach = vec![vec![false; n]; n];
    for id in p.node_ids() {
        if let NodeKind::Call { callee, .. } = &p.node(id).kind {
            reach[p.node(id).proc.index()][callee.index()] = true;
        }
    }
    for k in 0..n {
        for i in 0..n {
            if reach[i][k] {
                let through = reach[k].clone();
                for (j, r) in through.into_iter().enumerate() {
                    reach[i][j] |= r;
                }
            }
        }
    }
    let mut scc: Vec<u32> = (0..n as u32).collect();
    for i in 0..n {
        for j in 0..i {
            if reach[i][j] && reach[j][i] {
                scc[i] = scc[j];
                break;
            }
        }
    }
    scc
}
