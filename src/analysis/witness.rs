//! Counterexample search: a depth-first walk over the explored graph towards
//! an error, re-executing exactly as it goes (`path.rs`), pruning paths
//! whose constraints have no integer solution (`lp.rs`), and confirming the
//! end by replaying the solver's inputs in the concrete interpreter.

use super::explore::Explored;
use super::explore::{Graph, Return, State};
use super::lp::{self, LpOptions, Sat};
use super::path::{Choice, Exec, PathError, PathStep};
use super::reach::{distances, Distances, ReachGuide};
use super::refine;
use super::refute::Refuter;
use super::state::{CtxId, Decision, ValId};
use super::value::{AlphaKey, Sym};
use crate::context::conditions::CondId;
use crate::context::conditions::{CondKind, Condition};
use crate::interp;
use crate::ir::cond::UserCond;
use crate::ir::*;
use std::collections::{BTreeMap, HashMap};
use std::time::Instant;

/// A confirmed counterexample.
#[derive(Clone, Debug)]
pub struct Counterexample {
    pub path: Vec<PathStep>,
    /// Input values by name, in `Program::input_slots` order.
    pub inputs: Vec<(String, i64)>,
    pub choices: Vec<i64>,
    /// The interpreter's run on those inputs and choices.
    pub run: interp::Run,
    /// The inputs and choices were drawn by the interpreter's generator
    /// from this seed (a sampled run): `run --seed` replays it.
    pub seed: Option<u64>,
}

impl Counterexample {
    /// The inputs the run reads (the others may have any value).
    pub fn read_inputs(&self) -> impl Iterator<Item = &(String, i64)> {
        let unused: std::collections::HashSet<&String> = self.run.unused_inputs.iter().collect();
        self.inputs.iter().filter(move |(k, _)| !unused.contains(k))
    }
}

/// Limits of one search.
#[derive(Clone, Copy, Debug)]
pub struct SearchLimits {
    /// How often one state may repeat on a path.
    pub revisits: u32,
    /// Steps taken in all.
    pub steps: u64,
    pub deadline: Option<Instant>,
    /// Each state outside calls is continued from once per store (its
    /// symbols told by the values the path allows them) in the whole
    /// search, from the first path that reaches it: the search is then
    /// linear in the graph, not in its paths, but incomplete, so it never
    /// concludes that every path is infeasible.
    pub once: bool,
}

/// What a search found.
pub enum Found {
    Confirmed(Box<Counterexample>),
    /// Every path to an error state was tried, and none is feasible.
    Infeasible,
    /// No confirmed counterexample; why not.
    NotFound(String),
    /// The search ran out of its steps before it was done; why.
    OutOfBudget(String),
    /// The wall-clock guard (`--timeout`) ended the search; why.
    OutOfTime(String),
}

/// A call the path is inside and must return from.
#[derive(Clone)]
pub struct Pending<G> {
    pub callee: CtxId,
    pub exit: ValId,
    pub to: State,
    /// A user condition violated by the returned value ends the path here.
    pub violation: Option<Vec<Decision>>,
    /// The guide's state after the return.
    pub after: G,
    /// The caller's revisit counts, restored at the return: counts are kept
    /// per activation instance, so calling one shared summary again is not a
    /// loop.
    visits: im::HashMap<State, u32>,
}

#[derive(Clone)]
struct Cursor<'a, G> {
    state: State,
    stack: Vec<Pending<G>>,
    guide: G,
    exec: Exec<'a>,
    path: im::Vector<PathStep>,
    /// How often each state was reached in the current activation instance.
    visits: im::HashMap<State, u32>,
    checked: usize,
    /// The bounds of the constraints checked so far and the assumed ones.
    bounds: Refuter,
    /// A model of the constraints checked so far (a hint for the next).
    model: Option<std::sync::Arc<std::collections::BTreeMap<Sym, i64>>>,
    /// The solver could not say whether a prefix of the path is feasible:
    /// said in the notes if the path ends other than infeasible (an
    /// infeasible path is infeasible whatever its prefix was).
    unsure: Option<&'static str>,
}

/// A path being built and the move to try from it.
type Todo<'a, G> = (Cursor<'a, G>, Move<G>);

/// A step of a path being built, with the guide's state after it.
pub enum Move<G> {
    Step(PathStep, State, G),
    /// Enter a call whose callee holds the error.
    Enter(PathStep, CtxId, G),
    /// Enter a call that must return (with this exit valuation); the guide
    /// inside the callee, and after the return.
    Call {
        step: PathStep,
        ret: Return,
        violation: Option<Vec<Decision>>,
        inside: G,
        after: G,
    },
    /// Leave the callee at its exit.
    Exit(PathStep),
    /// The last step: it violates the condition.
    Finish(PathStep),
}

/// What steps a search may take: plain reachability of the error
/// (`ReachGuide`), or following one focus-statement sequence (in `explain`).
pub trait Guide {
    type G: Clone;
    fn initial(&self) -> Vec<Self::G>;
    fn moves(&self, s: State, g: &Self::G, top: Option<&Pending<Self::G>>) -> Vec<Move<Self::G>>;
    /// Constraints over inputs that every path the guide allows satisfies:
    /// a path that contradicts them is abandoned at once.
    fn assumed(&self) -> &[super::value::Constraint] {
        &[]
    }
}

pub struct Searcher<'a, 'g> {
    pub engine: Explored<'a>,
    pub graph: &'g Graph,
    pub users: &'a [UserCond],
    layout: Layout,
    preds: HashMap<State, Vec<State>>,
    exit_sets: std::cell::RefCell<HashMap<(CtxId, ValId), Distances>>,
}

impl<'a, 'g> Searcher<'a, 'g> {
    pub fn new(engine: Explored<'a>, graph: &'g Graph, users: &'a [UserCond]) -> Self {
        let mut preds: HashMap<State, Vec<State>> = HashMap::new();
        for (s, steps) in &graph.steps {
            for st in steps {
                preds.entry(st.to).or_default().push(*s);
            }
        }
        for (s, rets) in &graph.returns {
            for r in rets {
                preds.entry(r.to).or_default().push(*s);
            }
        }
        Searcher {
            engine,
            graph,
            users,
            layout: engine.cx.p.layout(),
            preds,
            exit_sets: Default::default(),
        }
    }

    pub fn entry_state(&self, c: CtxId) -> State {
        let (n, v) = self.engine.start_of(c);
        (c, n, v)
    }

    /// States from which an error of `k` can be reached, with the fewest
    /// steps (calls taken as one step) it takes: the search tries the
    /// nearest moves first, so a short path is found before long detours.
    pub fn can_reach_error(&self, k: CondId) -> HashMap<State, u32> {
        let g = self.graph;
        let mut starts: Vec<State> = Vec::new();
        for (s, _) in g.errors.get(&k).into_iter().flatten() {
            starts.push(*s);
        }
        for (s, _, _) in g.return_errors.get(&k).into_iter().flatten() {
            starts.push(*s);
        }
        // Callers of an activation whose entry reaches the error.
        let mut entered: HashMap<CtxId, Vec<State>> = HashMap::new();
        for (c, callers) in &g.callers {
            entered.insert(*c, callers.iter().map(|(s, _)| *s).collect());
        }
        distances(starts, |s, out| {
            out.extend(self.preds.get(&s).into_iter().flatten().copied());
            if self.entry_state(s.0) == s {
                out.extend(entered.get(&s.0).into_iter().flatten().copied());
            }
        })
    }

    /// States of activation `c` from which it can return with `x`, with the
    /// fewest steps to that return.
    pub fn can_exit(&self, c: CtxId, x: ValId) -> Distances {
        if let Some(s) = self.exit_sets.borrow().get(&(c, x)) {
            return s.clone();
        }
        let exit = self.engine.cx.p.proc(self.engine.t.ctx(c).proc).exit;
        let set = std::rc::Rc::new(distances(vec![(c, exit, x)], |s, out| {
            let preds = self.preds.get(&s).into_iter().flatten();
            out.extend(preds.filter(|p| p.0 == c).copied());
        }));
        self.exit_sets.borrow_mut().insert((c, x), set.clone());
        set
    }

    pub fn label(&self, l: super::state::LabelId) -> Vec<Decision> {
        self.engine.t.label(l).0.clone()
    }

    /// Searches for a confirmed counterexample of condition `k`, reaching
    /// any error state.
    pub fn search(&self, k: CondId, limits: SearchLimits) -> Found {
        let err = self.can_reach_error(k);
        match self.graph.init {
            Some(init) if err.contains_key(&init) => {}
            _ => return Found::NotFound("no error state is reachable".into()),
        }
        let mut guide = ReachGuide {
            s: self,
            k,
            err,
            nearest: true,
        };
        // First each state once, nearest moves first: a path through a
        // state machine whose abstract graph has many infeasible detours
        // (inputs compared with constants in chains of branches) is found
        // without retrying every prefix; then the complete search, in the
        // graph's order (nearest first there kept deeper paths open: three
        // times the memory on large machines).
        let first = SearchLimits {
            steps: limits.steps / 2,
            once: true,
            ..limits
        };
        match self.search_guided(k, &guide, first) {
            found @ (Found::Confirmed(_) | Found::OutOfTime(_)) => found,
            _ => {
                guide.nearest = false;
                self.search_guided(k, &guide, limits)
            }
        }
    }

    /// Searches for a confirmed counterexample of condition `k` along the
    /// moves a guide allows.
    pub fn search_guided<Gd: Guide>(&self, k: CondId, guide: &Gd, limits: SearchLimits) -> Found {
        let Some(init) = self.graph.init else {
            return Found::NotFound("nothing was explored".into());
        };
        let conds = self.engine.cx.conds;
        let mut todo: Vec<Todo<Gd::G>> = Vec::new();
        let mut bounds = Refuter::new();
        for c in guide.assumed() {
            bounds.add(c, &|s| self.range(s));
        }
        for g in guide.initial() {
            let start = Cursor {
                state: init,
                stack: Vec::new(),
                guide: g,
                exec: Exec::new(self.engine.cx.p, &self.layout).narrowing(self.engine.narrowing()),
                path: im::Vector::new(),
                visits: im::HashMap::new(),
                checked: 0,
                bounds: bounds.clone(),
                model: None,
                unsure: None,
            };
            for m in guide.moves(init, &start.guide, None) {
                todo.push((start.clone(), m));
            }
        }
        todo.reverse();
        let mut continued: std::collections::HashSet<u128> = Default::default();
        let mut steps = 0u64;
        let mut notes = Notes::default();
        while let Some((mut cur, mv)) = todo.pop() {
            // Apply moves until a dead end or a choice.
            let mut mv = Some(mv);
            while let Some(m) = mv.take() {
                steps += 1;
                if steps > limits.steps {
                    return Found::OutOfBudget(notes.reason(Some("ran out of its budget")));
                }
                if limits.deadline.is_some_and(|d| Instant::now() > d) {
                    return Found::OutOfTime(notes.reason(Some("reached the time limit (--timeout)")));
                }
                match self.apply(&mut cur, m, conds, guide.assumed()) {
                    Applied::Dead(why) => {
                        if !matches!(why, Why::Infeasible) {
                            notes.unsure(&cur);
                        }
                        notes.add(why);
                        break;
                    }
                    Applied::Done => {
                        let infeasible = notes.infeasible;
                        match self.confirm(&cur, k, &mut notes) {
                            Some(cx) => return Found::Confirmed(Box::new(cx)),
                            None if notes.infeasible == infeasible => {
                                notes.unsure(&cur);
                                break;
                            }
                            None => break,
                        }
                    }
                    Applied::Moved => {}
                }
                let key = cur.state;
                if limits.once && cur.stack.is_empty() && !continued.insert(once_key(&cur)) {
                    notes.bounded = true;
                    break;
                }
                let seen = cur.visits.get(&key).copied().unwrap_or(0);
                if seen >= limits.revisits {
                    notes.bounded = true;
                    notes.unsure(&cur);
                    break;
                }
                cur.visits.insert(key, seen + 1);
                let mut ms = guide.moves(cur.state, &cur.guide, cur.stack.last());
                if ms.is_empty() {
                    notes.unsure(&cur);
                    break;
                }
                let first = ms.remove(0);
                for m in ms.into_iter().rev() {
                    todo.push((cur.clone(), m));
                }
                mv = Some(first);
            }
        }
        if notes.exhaustive() && !limits.once {
            Found::Infeasible
        } else {
            Found::NotFound(notes.reason(None))
        }
    }

    fn apply<G: Clone>(
        &self,
        cur: &mut Cursor<'a, G>,
        m: Move<G>,
        conds: &[Condition],
        assumed: &[super::value::Constraint],
    ) -> Applied {
        let (step, next, done) = match m {
            Move::Step(st, to, g) => {
                cur.guide = g;
                (st, Some(to), false)
            }
            Move::Enter(st, c2, g) => {
                if cur.path.len() > MAX_DEPTH * 1000 {
                    return Applied::Dead(Why::Deep);
                }
                cur.guide = g;
                // A new activation instance: its own revisit counts.
                cur.visits = im::HashMap::new();
                (st, Some(self.entry_state(c2)), false)
            }
            Move::Call {
                step,
                ret,
                violation,
                inside,
                after,
            } => {
                if cur.stack.len() >= MAX_DEPTH {
                    return Applied::Dead(Why::Deep);
                }
                cur.stack.push(Pending {
                    callee: ret.callee,
                    exit: ret.exit,
                    to: ret.to,
                    violation,
                    after,
                    visits: std::mem::take(&mut cur.visits),
                });
                cur.guide = inside;
                (step, Some(self.entry_state(ret.callee)), false)
            }
            Move::Exit(st) => {
                let top = cur.stack.pop().expect("an exit move has a pending call");
                let done = top.violation.is_some() && cur.stack.is_empty();
                cur.guide = top.after;
                cur.visits = top.visits;
                (st, Some(top.to), done)
            }
            Move::Finish(st) => (st, None, true),
        };
        match cur.exec.step(&step, conds) {
            Err(PathError::Infeasible) => return Applied::Dead(Why::Infeasible),
            Err(PathError::Malformed(m)) => return Applied::Dead(Why::Malformed(m)),
            Ok(_) => {}
        }
        cur.path.push_back(step);
        if let Some(s) = next {
            cur.state = s;
        }
        if done {
            return Applied::Done;
        }
        // Check feasibility only when new constraints arrived: the bounds
        // so far refute most dead paths at once, the last model (which
        // holds for the constraints before) answers most live ones, and
        // only the rest go to the LP.
        let len = cur.exec.constraints.len();
        if len > cur.checked {
            let range = |s: Sym| self.range(s);
            let new: Vec<_> = (cur.checked..len).map(|i| cur.exec.constraints[i].c.clone()).collect();
            cur.checked = len;
            if new.iter().any(|c| !cur.bounds.add(c, &range)) {
                return Applied::Dead(Why::Infeasible);
            }
            if !cur.model.as_deref().is_some_and(|m| lp::satisfies(&new, &range, m)) {
                let cons: Vec<_> = cur
                    .exec
                    .constraints
                    .iter()
                    .map(|c| c.c.clone())
                    .chain(assumed.iter().cloned())
                    .collect();
                match lp::solve(&cons, &range, LpOptions::default()) {
                    Sat::No => return Applied::Dead(Why::Infeasible),
                    // The LP gave up: the path goes on, and its end decides
                    // (`confirm` solves it exactly, in bit-vectors if need be).
                    Sat::Unknown(why) => {
                        cur.model = None;
                        cur.unsure = cur.unsure.or(Some(why));
                    }
                    Sat::Yes(m) => cur.model = Some(std::sync::Arc::new(m)),
                }
            }
        }
        Applied::Moved
    }

    /// The range a symbol's values come from.
    pub fn range(&self, s: Sym) -> (i64, i64) {
        self.engine.sym_range(s)
    }

    fn confirm<G>(&self, cur: &Cursor<'a, G>, k: CondId, notes: &mut Notes) -> Option<Counterexample> {
        let cons: Vec<_> = cur.exec.constraints.iter().map(|c| c.c.clone()).collect();
        let choices: Vec<Choice> = cur.exec.choices.iter().cloned().collect();
        let ranges = draw_ranges(&choices);
        let range = |s: Sym| match s {
            Sym::Draw(..) => ranges.get(&s).copied().unwrap_or((i64::MIN, i64::MAX)),
            _ => self.range(s),
        };
        let model = self.exact_model(&cur.exec, cons, &range, notes)?;
        let (inputs, choices) = replay_values(self.engine.cx.p, &model, &choices);
        let cfg = interp::Config {
            inputs: inputs.iter().cloned().collect(),
            choices: choices.clone(),
            seed: None,
            fill: None,
            max_steps: 50_000_000,
            conditions: self.users.to_vec(),
            watch: match &self.engine.cx.conds[k.0 as usize].kind {
                CondKind::User(_) => Some(self.user_index(k)),
                CondKind::Site(_) => None,
            },
        };
        let run = match interp::run(self.engine.cx.p, &cfg) {
            Ok(r) => r,
            Err(_) => {
                notes.add(replay_failed(&cur.exec));
                return None;
            }
        };
        let reached = match (&self.engine.cx.conds[k.0 as usize].kind, &run.outcome) {
            (CondKind::Site(s), interp::Outcome::Error { site, .. }) => s == site,
            (CondKind::User(_), interp::Outcome::Condition { index, .. }) => *index == self.user_index(k),
            _ => false,
        };
        if !reached {
            notes.add(replay_failed(&cur.exec));
            return None;
        }
        Some(Counterexample {
            path: cur.path.iter().cloned().collect(),
            inputs,
            choices,
            run,
            seed: None,
        })
    }

    /// A model of the path's constraints whose inputs drive the program
    /// down the path (`refine.rs`).
    fn exact_model(
        &self,
        exec: &Exec,
        cons: Vec<super::value::Constraint>,
        range: &dyn Fn(Sym) -> (i64, i64),
        notes: &mut Notes,
    ) -> Option<BTreeMap<Sym, i64>> {
        let opts = LpOptions { small: true };
        let alphas: Vec<_> = exec.alphas.iter().cloned().collect();
        match refine::exact_model(&cons, &alphas, range, exec.unused_instance(), opts) {
            refine::Exact::Model(m) => Some(m),
            refine::Exact::Infeasible => {
                notes.add(Why::Infeasible);
                None
            }
            refine::Exact::Unknown(_) if exec.has_alpha || widened(exec) => {
                notes.add(replay_failed(exec));
                None
            }
            refine::Exact::Unknown(why) => {
                notes.add(Why::Solver(why));
                None
            }
        }
    }

    /// The position of a user condition among the user conditions.
    fn user_index(&self, k: CondId) -> usize {
        self.engine.cx.conds[..k.0 as usize]
            .iter()
            .filter(|c| c.user().is_some())
            .count()
    }
}

enum Applied {
    Moved,
    Done,
    Dead(Why),
}

/// Calls a path may be nested in (recursion is cut there, not exhausted).
const MAX_DEPTH: usize = 256;

enum Why {
    Infeasible,
    /// Calls nested deeper than `MAX_DEPTH`.
    Deep,
    Malformed(String),
    Solver(&'static str),
    /// Replay did not reach the error (`true`: the path used values the
    /// analysis does not track exactly).
    Replay(bool),
    /// The same, on a path through values widened at a loop head or a deep
    /// recursive call (a larger `--unroll` may decide it).
    ReplayWidened,
}

/// Does the path read a value widened at a loop head or a recursive call?
fn widened(exec: &Exec) -> bool {
    exec.constraints.iter().any(|c| {
        c.c.e
            .syms()
            .any(|s| matches!(s, Sym::Alpha(AlphaKey::Widen(..) | AlphaKey::Recursion(..), _)))
    })
}

fn replay_failed(exec: &Exec) -> Why {
    if widened(exec) {
        Why::ReplayWidened
    } else {
        Why::Replay(exec.has_alpha)
    }
}

/// What the search ran into, for the `unknown` reason.
#[derive(Default)]
struct Notes {
    infeasible: u32,
    replay_alpha: u32,
    replay_exact: u32,
    replay_widened: u32,
    solver: Option<&'static str>,
    malformed: Option<String>,
    bounded: bool,
}

impl Notes {
    /// Nothing was left untried or unsure: every path was infeasible.
    fn exhaustive(&self) -> bool {
        !self.bounded
            && self.solver.is_none()
            && self.malformed.is_none()
            && self.replay_alpha == 0
            && self.replay_exact == 0
            && self.replay_widened == 0
    }

    /// The note a path ending other than infeasible leaves, if the solver
    /// was unsure of a prefix of it.
    fn unsure<G>(&mut self, cur: &Cursor<G>) {
        if let Some(why) = cur.unsure {
            self.add(Why::Solver(why));
        }
    }

    fn add(&mut self, w: Why) {
        match w {
            Why::Infeasible => self.infeasible += 1,
            Why::Deep => self.bounded = true,
            Why::Malformed(m) => self.malformed = Some(m),
            Why::Solver(s) => self.solver = Some(s),
            Why::Replay(true) => self.replay_alpha += 1,
            Why::Replay(false) => self.replay_exact += 1,
            Why::ReplayWidened => self.replay_widened += 1,
        }
    }

    /// Why no counterexample was confirmed; `cut` says how the search was
    /// cut short, if it was.
    fn reason(&self, cut: Option<&str>) -> String {
        let mut parts = Vec::new();
        if let Some(how) = cut {
            parts.push(format!("the search for a feasible error path {how}"));
        }
        if self.replay_widened > 0 {
            parts.push(format!(
                "{} error path(s) go through values widened after --unroll iterations of a loop or levels of recursion; replaying them did not reach the error (a larger --unroll may decide them)",
                self.replay_widened
            ));
        }
        if self.replay_alpha > 0 {
            parts.push(format!(
                "{} error path(s) depend on values the analysis does not track exactly (non-linear arithmetic); replaying them did not reach the error",
                self.replay_alpha
            ));
        }
        if self.replay_exact > 0 {
            parts.push(format!(
                "{} error path(s) did not replay to the error",
                self.replay_exact
            ));
        }
        if let Some(s) = self.solver {
            parts.push(format!("the integer solver gave up ({s})"));
        }
        if let Some(m) = &self.malformed {
            parts.push(format!("internal: a path did not follow the program ({m})"));
        }
        if parts.is_empty() || (cut.is_none() && self.infeasible > 0) {
            let bound = if self.bounded {
                " within the search bounds (paths repeat a state past the --unroll bound only a few times, and nest calls only so deep; a larger --unroll may decide it)"
            } else {
                ""
            };
            parts.push(format!(
                "error states are reachable in the over-approximated state space, but no feasible error path was found{bound}"
            ));
        }
        parts.join("; ")
    }
}

fn draw_ranges(choices: &[Choice]) -> HashMap<Sym, (i64, i64)> {
    choices
        .iter()
        .filter_map(|c| match c {
            Choice::Draw(s, r) => Some((*s, *r)),
            Choice::Branch(_) => None,
        })
        .collect()
}

/// Inputs and choices for the interpreter from a model: unconstrained
/// inputs take 0 (or the nearest value of their range).
pub fn replay_values(p: &Program, model: &BTreeMap<Sym, i64>, choices: &[Choice]) -> (Vec<(String, i64)>, Vec<i64>) {
    let clamp = |v: i64, (lo, hi): (i64, i64)| v.clamp(lo, hi);
    let inputs = p
        .input_slots()
        .iter()
        .enumerate()
        .map(|(k, s)| {
            (
                s.name.clone(),
                clamp(model.get(&Sym::Input(k as u32)).copied().unwrap_or(0), s.range),
            )
        })
        .collect();
    let choices = choices
        .iter()
        .map(|c| match c {
            Choice::Branch(b) => *b as i64,
            Choice::Draw(s, r) => clamp(model.get(s).copied().unwrap_or(0), *r),
        })
        .collect();
    (inputs, choices)
}

/// What a path's continuation from its state depends on: the state, and the
/// store with each symbol described by the values the path allows it (so
/// paths that pinned this step's input to different values stay apart).
fn once_key<G>(cur: &Cursor<G>) -> u128 {
    use std::hash::Hash;
    let mut h = super::hash::Wide::default();
    cur.state.hash(&mut h);
    cur.exec.hash_store_by(&mut h, &|s, h| {
        let (lo, hi, excluded) = cur.bounds.unary(s);
        let mut bytes = Vec::with_capacity(8 * (4 + excluded.len()));
        for x in [lo.unwrap_or(i128::MIN), hi.unwrap_or(i128::MAX)]
            .into_iter()
            .chain(excluded)
        {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        h.write(&bytes);
    });
    h.finish128()
}
