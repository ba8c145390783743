//! Pruning: which FSS suffixes can hold from a state (their focus
//! statements executed from its valuation have an integer solution), and
//! the budget of the backward phase.

use super::{Backward, Cut};
use crate::analysis::explore::State;
use crate::analysis::state::*;
use crate::explain::fss::{EvKind, Event};

impl Backward<'_> {
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
    pub fn feasible_from(&self, s: State, f: &crate::explain::fss::Fss) -> bool {
        let key = (s, crate::explain::fss::hash(f));
        if let Some(known) = self
            .feasible
            .borrow()
            .get(&key)
            .and_then(|v| v.iter().find(|(g, _)| g == f))
        {
            return known.1;
        }
        let ok = self.check_from(s, f);
        self.feasible.borrow_mut().entry(key).or_default().push((f.clone(), ok));
        ok
    }

    /// The steps that execute `f` alone, built once.
    fn focus_steps_of(&self, f: &crate::explain::fss::Fss) -> std::rc::Rc<[crate::explain::assume::FocusStep]> {
        let key = crate::explain::fss::hash(f);
        if let Some((_, steps)) = self
            .focus_steps
            .borrow()
            .get(&key)
            .and_then(|v| v.iter().find(|(g, _)| g == f))
        {
            return steps.clone();
        }
        let steps: std::rc::Rc<[_]> = crate::explain::assume::focus_steps(self.e, f).into();
        self.focus_steps
            .borrow_mut()
            .entry(key)
            .or_default()
            .push((f.clone(), steps.clone()));
        steps
    }

    pub(super) fn check_from(&self, s: State, f: &crate::explain::fss::Fss) -> bool {
        use crate::analysis::lp::{self, LpOptions, Sat};
        use crate::analysis::path::Exec;
        use crate::analysis::value::Sym;
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
        let mut x = Exec::sparse_from(p, &e.cx.layout, proc, globals, locals, first);
        for fs in self.focus_steps_of(f).iter() {
            match fs.run(e, &mut x) {
                Ok(_) => {}
                Err(crate::analysis::path::PathError::Infeasible) => return false,
                // A suffix that does not execute cleanly is kept: prune only
                // what is certainly infeasible.
                Err(_) => return true,
            }
        }
        let cons: Vec<_> = x.constraints.iter().map(|c| c.c.clone()).collect();
        if cons.is_empty() {
            return true;
        }
        let range = |s: Sym| e.sym_range(s);
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
    pub fn prune_step(
        &self,
        s: State,
        a: &crate::explain::fss::Suffixes,
        ev: Option<Event>,
    ) -> crate::explain::fss::Suffixes {
        if self.late() {
            return crate::explain::fss::Suffixes::default();
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

    /// The suffixes that can hold from state `s`.
    pub fn prune(&self, s: State, a: crate::explain::fss::Suffixes) -> crate::explain::fss::Suffixes {
        if self.late() {
            return crate::explain::fss::Suffixes::default();
        }
        if a.iter().all(|f| self.feasible_from(s, f)) {
            return a;
        }
        crate::explain::fss::Suffixes::from_candidates(a.iter().filter(|f| self.feasible_from(s, f)).cloned().collect())
    }
}
