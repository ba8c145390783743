//! Pruning: which FSS suffixes can hold from a state (their focus
//! statements executed from its valuation have an integer solution), and
//! the budget of the backward phase.

use super::{Backward, Cut};
use crate::analysis::explore::State;
use crate::analysis::lp::{self, LpOptions, Sat};
use crate::analysis::path::{Exec, PathError};
use crate::analysis::refute::Refuter;
use crate::analysis::state::*;
use crate::analysis::value::Sym;
use crate::explain::assume::FocusStep;
use crate::explain::fss::{EvKind, Event, Fss, Suffixes};
use std::rc::Rc;

/// A suffix executed in part from a state: the path so far and the bounds
/// its constraints gave; or, once decided, whether it can hold.
#[derive(Clone)]
enum Partial<'e> {
    Running(Box<(Exec<'e>, Refuter)>),
    Decided(bool),
}

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
        if steps > self.max_steps {
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

    /// The steps that execute `f` alone, built once.
    fn focus_steps_of(&self, f: &Fss) -> Rc<[FocusStep]> {
        let key = crate::explain::fss::hash(f);
        if let Some((_, steps)) = self
            .focus_steps
            .borrow()
            .get(&key)
            .and_then(|v| v.iter().find(|(g, _)| g == f))
        {
            return steps.clone();
        }
        let steps: Rc<[_]> = crate::explain::assume::focus_steps(self.e, f).into();
        self.focus_steps
            .borrow_mut()
            .entry(key)
            .or_default()
            .push((f.clone(), steps.clone()));
        steps
    }

    pub(super) fn check_from(&self, s: State, f: &Fss) -> bool {
        let mut run = Partial::Running(Box::new((self.begin(s), Refuter::new())));
        self.advance(&mut run, &self.focus_steps_of(f));
        self.conclude(&run)
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
        Exec::sparse_from(p, &e.cx.layout, proc, globals, locals, first)
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

    /// Can a run that executed every step hold? Its constraints go to the
    /// LP (recent models first).
    fn conclude(&self, run: &Partial) -> bool {
        let (x, refuter) = match run {
            Partial::Decided(ok) => return *ok,
            Partial::Running(running) => (&running.0, &running.1),
        };
        let cons: Vec<_> = x.constraints.iter().map(|c| c.c.clone()).collect();
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
    /// can hold from state `s`. Every combination of a segment starts with
    /// the same events, executed once (the call's segment closes within
    /// them, so the rest executes as it would alone). Checked before the
    /// antichain is taken: a suffix that holds stays even where a shorter
    /// one inside it does not.
    pub fn joined(&self, s: State, pre: &[Event], segs: &Suffixes, post: &[Event], rest: &Suffixes) -> Suffixes {
        if self.late() {
            return Suffixes::default();
        }
        let mut out = Vec::new();
        for seg in segs.iter() {
            let head: Fss = pre.iter().chain(seg.iter()).chain(post).copied().collect();
            let head_hash = crate::explain::fss::Hash128::default().feed(&head);
            let mut after_head: Option<Partial> = None;
            for f in rest.iter() {
                // The combination is built only if it is kept.
                let key = head_hash.feed(f).finish();
                let ok = self.known(s, key).unwrap_or_else(|| {
                    let start = after_head.get_or_insert_with(|| {
                        let mut run = Partial::Running(Box::new((self.begin(s), Refuter::new())));
                        self.advance(&mut run, &crate::explain::assume::focus_steps(self.e, &head));
                        run
                    });
                    let mut run = start.clone();
                    self.advance(&mut run, &self.focus_steps_of(f));
                    let ok = self.conclude(&run);
                    self.remember(s, key, ok);
                    ok
                });
                if ok {
                    out.push(head.iter().chain(f.iter()).copied().collect());
                }
            }
        }
        Suffixes::from_candidates(out)
    }

    /// The suffixes that can hold from state `s`.
    pub fn prune(&self, s: State, a: Suffixes) -> Suffixes {
        if self.late() {
            return Suffixes::default();
        }
        if a.iter().all(|f| self.feasible_from(s, f)) {
            return a;
        }
        Suffixes::from_candidates(a.iter().filter(|f| self.feasible_from(s, f)).cloned().collect())
    }
}
