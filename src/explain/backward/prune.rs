//! Pruning: which FSS suffixes can hold from a state (their focus
//! statements executed from its valuation have an integer solution), and
//! the budget of the backward phase.

use super::{Backward, Cut};
use crate::analysis::explore::State;
use crate::analysis::lp::{self, LpOptions, Sat};
use crate::analysis::path::{Exec, PathError};
use crate::analysis::refute::Refuter;
use crate::analysis::state::*;
use crate::analysis::value::{Constraint, Sym};
use crate::explain::assume::FocusStep;
use crate::explain::fss::{self, EvKind, Event, Fss, Hash128, Suffixes};
use std::collections::HashMap;
use std::rc::Rc;

/// The heads `joined` executed from each state, by the heads' hash.
pub(super) type HeadsMemo<'e> = HashMap<(State, u128), Rc<AfterHeads<'e>>>;

/// Heads executed from a state, and the running ones grouped by the store
/// they leave (values, frames, next fresh symbol): a suffix executed after
/// any head of a group adds the same constraints.
pub(super) struct AfterHeads<'e> {
    runs: Vec<Partial<'e>>,
    groups: Vec<Group>,
}

struct Group {
    /// `Exec::store_key` of the members' store.
    store: u128,
    /// Indices into `runs`, all running.
    members: Vec<usize>,
}

/// A suffix executed in part from a state: the path so far and the bounds
/// its constraints gave; or, once decided, whether it can hold.
enum Partial<'e> {
    Running(Box<(Exec<'e>, Refuter)>),
    Decided(bool),
}

impl<'e> Partial<'e> {
    fn exec(&self) -> Option<&Exec<'e>> {
        match self {
            Partial::Running(r) => Some(&r.0),
            Partial::Decided(_) => None,
        }
    }
}

/// Subsequence tests of the joins counted as one step of the budget
/// (about what one prune costs, measured on `programs/paper/lock.c` and
/// generated state machines).
pub const WORK_PER_STEP: u64 = 16;

impl<'e> Backward<'e> {
    /// Is the budget for explaining spent? Then new suffixes are dropped,
    /// so the fixpoint ends soon, with a listing marked incomplete. Each
    /// call is one step; the clock is not read here (see `stop`).
    pub fn late(&self) -> bool {
        if self.cut.get().is_some() {
            return true;
        }
        let steps = self.steps.get() + 1;
        self.steps.set(steps);
        if steps.saturating_add(fss::work() / WORK_PER_STEP) > self.max_steps {
            self.cut.set(Some(Cut::Steps));
        } else if self.stop.get().is_some() {
            self.cut.set(Some(Cut::Clock));
        }
        self.cut.get().is_some()
    }

    /// Can the suffix `f` hold from state `s`? Its events executed from the
    /// state's valuation (inputs, draws and abstraction symbols free) give
    /// constraints; if they have no integer solution, no run through `s`
    /// has this suffix, whatever came before. Sound to prune; "unknown"
    /// keeps the suffix.
    pub fn feasible_from(&self, s: State, f: &Fss) -> bool {
        let key = crate::explain::fss::hash128(f);
        if let Some(known) = self.known(s, key) {
            return known;
        }
        let ok = self.check_from(s, f);
        self.remember(s, key, ok);
        ok
    }

    /// What `feasible_from` found from `s` for the suffix with this
    /// `fss::hash128`, if it was asked.
    fn known(&self, s: State, key: u128) -> Option<bool> {
        self.feasible.borrow().get(&(s, key)).copied()
    }

    fn remember(&self, s: State, key: u128, ok: bool) {
        self.feasible.borrow_mut().insert((s, key), ok);
    }

    pub(super) fn check_from(&self, s: State, f: &Fss) -> bool {
        // Executing a suffix is a step of the budget of its own, or more
        // for a long one.
        self.steps.set(self.steps.get() + fss::weight(f.len()) as u64);
        let start = self.begin(s);
        let chain = self.chain(&start, f);
        self.follows(&(start, Refuter::new()), &chain)
    }

    /// Exact execution from state `s`'s valuation, nothing executed yet.
    fn begin(&self, s: State) -> Exec<'e> {
        let e = self.e;
        let p = e.cx.p;
        let (_, n, v) = s;
        let proc = p.node(n).proc;
        let val = e.t.val(v);
        let mut globals = crate::analysis::path::zeros(e.cx.layout.global_slots);
        for (i, g) in e.frames.views[proc.index()].slots.iter().enumerate() {
            globals.set(*g as usize, val.globals()[i].clone());
        }
        let locals = val.locals().clone();
        let first = val.syms().iter().map(|s| s.instance()).max().unwrap_or(0) + 1;
        Exec::sparse_from(p, &e.cx.layout, proc, globals, locals, first).narrowing(e.narrowing())
    }

    /// Executes `steps` on a partial run, deciding it as soon as it can.
    fn advance(&self, run: &mut Partial<'e>, steps: &[FocusStep]) {
        let Partial::Running(running) = run else { return };
        let (x, refuter) = &mut **running;
        let range = |s: Sym| self.e.sym_range(s);
        for fs in steps {
            let seen = x.constraints.len();
            match fs.run(self.e, x) {
                Ok(_) => {}
                Err(PathError::Infeasible) => return *run = Partial::Decided(false),
                // A suffix that does not execute cleanly is kept: prune only
                // what is certainly infeasible.
                Err(_) => return *run = Partial::Decided(true),
            }
            // Most suffixes that cannot hold contradict themselves plainly
            // (`x == 0`, later `x != 0`): stopped at that constraint, no LP.
            if x.constraints.iter().skip(seen).any(|c| !refuter.add(&c.c, &range)) {
                return *run = Partial::Decided(false);
            }
        }
    }

    /// Have these constraints, which the bounds in `refuter` do not refute,
    /// an integer solution? The bounds' model first, then recent models,
    /// then the LP; "unknown" counts as yes.
    pub(super) fn solvable(&self, cons: Vec<Constraint>, refuter: &Refuter) -> bool {
        if cons.is_empty() {
            return true;
        }
        let range = |s: Sym| self.e.sym_range(s);
        // The bounds' own model, when the constraints are all bounds.
        if refuter.model().is_some_and(|m| lp::satisfies(&cons, &range, &m)) {
            return true;
        }
        if self
            .models
            .borrow()
            .iter()
            .rev()
            .any(|m| lp::satisfies(&cons, &range, m))
        {
            return true;
        }
        match lp::solve(&cons, &range, LpOptions::default()) {
            Sat::No => false,
            Sat::Yes(m) => {
                let mut models = self.models.borrow_mut();
                if models.len() >= 16 {
                    models.remove(0);
                }
                models.push(m);
                true
            }
            Sat::Unknown(_) => true,
        }
    }

    /// `a` with `ev` in front, pruned where the step adds a constraint (a
    /// branch on unknowns, an index or divisor split); elsewhere the
    /// suffixes' constraints from here are those from the next state.
    pub fn prune_step(&self, s: State, a: &Suffixes, ev: Option<Event>) -> Suffixes {
        if self.late() {
            return Suffixes::default();
        }
        let b = a.prepend(ev);
        let constrains = match ev {
            Some(e) => {
                let label = self.e.t.label(e.label);
                let splits = label.0.iter().any(|d| !matches!(d, Decision::Branch(_)));
                splits || (matches!(e.kind, EvKind::Branch(_)) && !self.e.branch_known(s))
            }
            None => false,
        };
        if constrains {
            self.prune(s, b)
        } else {
            b
        }
    }

    /// `pre ++ seg ++ post ++ f` for every segment and suffix, those that
    /// can hold from state `s`. Each head (`pre ++ seg ++ post`) is
    /// executed once from `s`, and each suffix once per store the heads
    /// leave (the call's segment closes within the head, so the suffix
    /// executes as it would alone): a combination then costs only its
    /// constraints put together. Checked before the antichain is taken: a
    /// suffix that holds stays even where a shorter one inside it does not.
    pub fn joined(&self, s: State, pre: &[Event], segs: &Suffixes, post: &[Event], rest: &Suffixes) -> Suffixes {
        if self.late() {
            return Suffixes::default();
        }
        let heads: Vec<(Vec<Event>, Hash128)> = segs
            .iter()
            .map(|seg| {
                let head: Vec<Event> = pre.iter().chain(seg.iter()).chain(post).copied().collect();
                let hash = Hash128::default().feed(&head);
                (head, hash)
            })
            .collect();
        let mut after: Option<Rc<AfterHeads>> = None;
        let mut out = Vec::new();
        for f in rest.iter() {
            // The combinations' memo keys; a combination is built only if it is kept.
            let keys: Vec<u128> = heads.iter().map(|(_, h)| h.feed(f).finish()).collect();
            let mut oks: Vec<Option<bool>> = keys.iter().map(|&k| self.known(s, k)).collect();
            if oks.contains(&None) {
                let after = after.get_or_insert_with(|| self.after_heads(s, &heads));
                for (ok, run) in oks.iter_mut().zip(&after.runs) {
                    if let (None, Partial::Decided(decided)) = (*ok, run) {
                        *ok = Some(*decided);
                    }
                }
                for group in &after.groups {
                    if group.members.iter().all(|&i| oks[i].is_some()) {
                        continue;
                    }
                    let Some(from) = after.runs[group.members[0]].exec() else {
                        continue;
                    };
                    let chain = self.chain(from, f);
                    for &i in &group.members {
                        if let (None, Partial::Running(run)) = (oks[i], &after.runs[i]) {
                            let ok = self.follows(run, &chain);
                            self.remember(s, keys[i], ok);
                            oks[i] = Some(ok);
                        }
                    }
                }
            }
            for ((head, _), ok) in heads.iter().zip(&oks) {
                // Every head is decided or in a group: `None` is not left.
                if ok.unwrap_or(true) {
                    out.push(f.prefixed(head));
                }
            }
        }
        Suffixes::from_candidates(out)
    }

    /// The heads executed from state `s` and grouped by store, once per
    /// state and heads (the walk's suffixes after a call grow in rounds,
    /// and each round joins them to the same segments again).
    fn after_heads(&self, s: State, heads: &[(Vec<Event>, Hash128)]) -> Rc<AfterHeads<'e>> {
        let key = heads
            .iter()
            .fold(Hash128::default(), |h, (head, _)| h.feed(head).mark())
            .finish();
        if let Some(known) = self.heads.borrow().get(&(s, key)) {
            return known.clone();
        }
        let mut runs: Vec<Partial> = Vec::new();
        let mut groups: Vec<Group> = Vec::new();
        for (i, (head, _)) in heads.iter().enumerate() {
            let mut run = Partial::Running(Box::new((self.begin(s), Refuter::new())));
            self.advance(
                &mut run,
                &crate::explain::assume::focus_steps(self.e, &head.iter().copied().collect()),
            );
            if let Partial::Running(x) = &run {
                let store = x.0.store_key();
                match groups.iter_mut().find(|g| g.store == store) {
                    Some(g) => g.members.push(i),
                    None => groups.push(Group {
                        store,
                        members: vec![i],
                    }),
                }
            }
            runs.push(run);
        }
        let after = Rc::new(AfterHeads { runs, groups });
        self.heads.borrow_mut().insert((s, key), after.clone());
        after
    }

    /// The suffixes that can hold from state `s`.
    pub fn prune(&self, s: State, a: Suffixes) -> Suffixes {
        if self.late() {
            return Suffixes::default();
        }
        fss::add_work(a.0.len());
        let oks: Vec<bool> = a.iter().map(|f| self.feasible_from(s, f)).collect();
        if oks.iter().all(|&ok| ok) {
            return a;
        }
        Suffixes::from_candidates(
            a.iter()
                .zip(&oks)
                .filter(|(_, &ok)| ok)
                .map(|(f, _)| f.clone())
                .collect(),
        )
    }
}
