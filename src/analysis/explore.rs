//! Runs the forward rules (`rules/fwd.rs`) and keeps the explored graph,
//! indexed for the phases that walk it; `Explored` is what those phases
//! read of the run.

use super::eval::{Evaluator, Mode};
use super::frames::{AbsEnv, Frames};
use super::run::{watched, Run, Stop, ERROR_REACHED, EXACT_ERROR_ONLY, MEMORY_LIMIT, STATE_LIMIT, TIME_LIMIT};
use super::state::*;
use super::step::{Explorer, Options, Target};
use super::value::{Sym, Truth, Value};
use super::widen::LoopFacts;
use crate::context::conditions::CondId;
use crate::context::Context;
use crate::ir::{Cond, NodeId, NodeKind, ProcId, VarId};
use ascent::ascent_run;
use std::collections::HashMap;
use std::time::Instant;

pub type State = (CtxId, NodeId, ValId);

/// A transition inside an activation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    pub label: LabelId,
    pub to: State,
}

/// A call that returns: entered activation, its exit valuation, the state
/// after.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Return {
    pub call_label: LabelId,
    pub callee: CtxId,
    pub exit: ValId,
    pub to: State,
}

/// The explored state graph.
#[derive(Default)]
pub struct Graph {
    pub init: Option<State>,
    pub states: usize,
    pub steps: HashMap<State, Vec<Step>>,
    /// Errors by condition: the state, and the decisions of the failing step.
    pub errors: HashMap<CondId, Vec<(State, LabelId)>>,
    /// Calls from a state: decisions and the activation entered.
    pub calls: HashMap<State, Vec<(LabelId, CtxId)>>,
    /// Returns of a call state.
    pub returns: HashMap<State, Vec<Return>>,
    /// User conditions violated by the value a call returns.
    pub return_errors: HashMap<CondId, Vec<(State, Return, LabelId)>>,
    /// Exit valuations of each activation.
    pub fsum: HashMap<CtxId, Vec<ValId>>,
    /// Calls that start each activation.
    pub callers: HashMap<CtxId, Vec<(State, LabelId)>>,
    /// `--stats`: relation sizes and rule times.
    pub stats: String,
}

/// One exploration: the graph, the ids it interned, the shape of its
/// valuations, and why it stopped early, if it did.
pub struct Exploration {
    pub graph: Graph,
    pub t: Tables,
    pub frames: Frames,
    pub budget_hit: Option<&'static str>,
    /// Explored with `Options::narrow`: its paths are re-executed by an
    /// `Exec` that narrows too.
    pub narrowed: bool,
}

/// The states the exact first attempt of `explore_exact_first` may take
/// (a generated 200-branch state machine, its input narrowed by each guard,
/// has an exact space of up to 35,000 states; `scripts/gen-state-machine`).
pub const EXACT_STATES: u64 = 50_000;

/// The value slots (globals and the largest frame) above which no exact
/// attempt is made: a loop that fills an array makes a new state, and a new
/// symbol among all the others, per element.
pub const EXACT_SLOTS: u32 = 16_384;

/// Explores the program's state space. A program with loops and a small
/// state is explored first without widening loops (and without the
/// per-path loop bookkeeping that widening needs, which makes states that
/// differ only in their history distinct). If that ends within
/// `EXACT_STATES` states and reaches no error state, it is the program's
/// exact state space and proves it safe: a program whose loops cycle
/// through finitely many values gets its verdict there. Otherwise the
/// exploration starts again with widening, which the counterexample search
/// needs (it bounds how often a path repeats a state; on the exact space, a
/// search through a 100-iteration loop with `%` in its test took minutes).
/// Both attempts are functions of the program and the options, so the
/// graph is too (the time limit only cuts, and then says so). The exact
/// attempt stops at its first error state: most programs with an error
/// reach one early, and pay little for the attempt. Its graph is then
/// discarded, unless the widened exploration runs out of states before
/// any error state: then the exact attempt is made again and kept (its
/// error is still found; its paths are re-executed narrowing as it did,
/// `Exploration::narrowed`), and what it leaves open says why
/// (`EXACT_ERROR_ONLY`). Both runs are counted in states, so which graph is
/// kept does not depend on the machine.
pub fn explore_exact_first(cx: &Context, opts: &Options, deadline: Option<Instant>) -> Exploration {
    let largest_frame = cx.layout.frame_slots.iter().copied().max().unwrap_or(0);
    let small = cx.layout.global_slots.saturating_add(largest_frame) <= EXACT_SLOTS;
    if !cx.a.loops.is_empty() && small {
        let exact = Options {
            exact_loops: true,
            stop_at_error: true,
            narrow: true,
            max_states: opts.max_states.min(EXACT_STATES),
            ..opts.clone()
        };
        // Bounded by its states, not by a share of the time: which
        // exploration's graph is kept must not depend on the machine's
        // load. Cut by `--timeout`, the next exploration is cut at once
        // and the file says `truncated`.
        let first = explore(cx, &exact, deadline);
        let g = &first.graph;
        if first.budget_hit.is_none() && g.errors.is_empty() && g.return_errors.is_empty() {
            return first;
        }
        // Cut by the machine (time, or the process's memory, which other
        // jobs share): on another machine the exact graph might have been
        // kept, so what follows is said to be cut short too.
        let cut = first.budget_hit.filter(|h| *h == TIME_LIMIT || *h == MEMORY_LIMIT);
        let found = first.budget_hit == Some(ERROR_REACHED);
        drop(first);
        let mut second = explore(cx, opts, deadline);
        second.budget_hit = second.budget_hit.or(cut);
        let g = &second.graph;
        if found && second.budget_hit == Some(STATE_LIMIT) && g.errors.is_empty() && g.return_errors.is_empty() {
            // Dropped before, as the widened graph needs the memory.
            drop(second);
            let mut again = explore(cx, &exact, deadline);
            if again.budget_hit == Some(ERROR_REACHED) {
                again.budget_hit = Some(EXACT_ERROR_ONLY);
            }
            return again;
        }
        return second;
    }
    explore(cx, opts, deadline)
}

/// Explores the program's state space. Time (`deadline`) and memory are
/// watched from outside the rules; the state budget is `opts.max_states`.
pub fn explore(cx: &Context, opts: &Options, deadline: Option<Instant>) -> Exploration {
    let frames = Frames::new(cx);
    let loops = LoopFacts::new(cx.p, cx.a);
    let literals = super::calls::literals(cx.p);
    let stop = Stop::default();
    let run = Run::new(opts.max_states, &stop);
    let explorer = Explorer {
        cx,
        frames: &frames,
        loops: &loops,
        literals: &literals,
        opts,
        run: &run,
    };
    let graph = watched(&stop, deadline, opts.memory, || run_rules(&explorer));
    let budget_hit = run.hit();
    Exploration {
        graph,
        t: run.into_tables(),
        frames,
        budget_hit,
        narrowed: opts.narrow,
    }
}

/// What the phases after exploration read of a run: the program context,
/// the shape of valuations, the interned ids, and whether activations were
/// shared between calls.
#[derive(Clone, Copy)]
pub struct Explored<'a> {
    pub cx: &'a Context<'a>,
    pub frames: &'a Frames,
    pub t: &'a Tables,
    pub summaries: bool,
    /// See `Exploration::narrowed`.
    pub narrowed: bool,
}

impl<'a> Explored<'a> {
    /// The context an `Exec` of this graph's paths narrows with, if any.
    pub fn narrowing(&self) -> Option<&'a Context<'a>> {
        self.narrowed.then_some(self.cx)
    }

    pub fn start_of(&self, c: CtxId) -> (NodeId, ValId) {
        let k = self.t.ctx(c);
        (self.cx.p.proc(k.proc).entry, k.start)
    }

    pub fn is_exit(&self, n: NodeId) -> bool {
        matches!(self.cx.p.node(n).kind, NodeKind::Exit)
    }

    pub fn read(&self, proc: ProcId, val: &Valuation, var: VarId, index: u32) -> Value {
        self.frames.read(proc, val, var, index)
    }

    /// The range of a symbol's values (abstraction symbols are unbounded).
    pub fn sym_range(&self, s: Sym) -> (i64, i64) {
        s.range(self.cx)
    }

    /// Does the branch at this state have a known outcome (no constraint)?
    pub fn branch_known(&self, s: State) -> bool {
        let (c, n, v) = s;
        let p = self.cx.p;
        let NodeKind::Branch {
            cond: Cond::Atom(a), ..
        } = &p.node(n).kind
        else {
            return false;
        };
        let val = self.t.val(v);
        let mut env = AbsEnv::new(self.frames, self.t, c, p.node(n).proc, &val);
        Evaluator {
            p,
            env: &mut env,
            mode: Mode::All,
            node: n,
        }
        .atom(a)
        .iter()
        .all(|o| matches!(o.result, Ok(Truth::Known(_))))
    }
}

// Ascent's generated code names unused columns `_`.
#[allow(clippy::just_underscores_and_digits)]
fn run_rules(explorer: &Explorer) -> Graph {
    let init = explorer.initial();
    let res = include!("../../rules/fwd.rs");
    let mut g = Graph {
        init: Some(init),
        states: res.reach.len(),
        stats: format!("{}\n{}", res.relation_sizes_summary(), res.scc_times_summary()),
        ..Graph::default()
    };
    for &(c, n, v, l, m, w) in &res.step {
        g.steps.entry((c, n, v)).or_default().push(Step {
            label: l,
            to: (c, m, w),
        });
    }
    for &(c, n, v, l, k) in &res.error {
        g.errors.entry(k).or_default().push(((c, n, v), l));
    }
    for &(c, n, v, l, c2) in &res.call {
        g.calls.entry((c, n, v)).or_default().push((l, c2));
        g.callers.entry(c2).or_default().push(((c, n, v), l));
    }
    for &(c, x) in &res.fsum {
        g.fsum.entry(c).or_default().push(x);
    }
    for &(c, n, v, l, c2, x, m, w) in &res.ret {
        g.returns.entry((c, n, v)).or_default().push(Return {
            call_label: l,
            callee: c2,
            exit: x,
            to: (c, m, w),
        });
    }
    for &(c, n, v, l, c2, x, l2, k) in &res.ret_error {
        let r = res
            .ret
            .iter()
            .find(|t| t.0 == c && t.1 == n && t.2 == v && t.3 == l && t.4 == c2 && t.5 == x)
            .map(|t| Return {
                call_label: l,
                callee: c2,
                exit: x,
                to: (t.0, t.6, t.7),
            });
        if let Some(r) = r {
            g.return_errors.entry(k).or_default().push(((c, n, v), r, l2));
        }
    }
    // Deterministic order for every later walk.
    for v in g.steps.values_mut() {
        v.sort_by_key(|s| (s.label, s.to));
    }
    for v in g.errors.values_mut() {
        v.sort();
    }
    for v in g.calls.values_mut() {
        v.sort();
    }
    for v in g.returns.values_mut() {
        v.sort_by_key(|r| (r.call_label, r.callee, r.exit, r.to));
    }
    for v in g.fsum.values_mut() {
        v.sort();
    }
    for v in g.callers.values_mut() {
        v.sort();
    }
    g
}
