//! The error verification condition of seed 004 (§5-6) over the passive
//! form, read the way DESIGN §11 fixes the seed's sign slip:
//!
//! - `V_b`: an admissible run exists from the start of block `b` (its
//!   assumes and asserts hold and some successor continues; a block where
//!   the run ends normally is true, one where it fails or is cut is false);
//! - `R_b`: the reachability variable, "a run from the entry gets to `b`
//!   with every check on the way holding" (`R_s` implies some predecessor
//!   `p` with `R_p`, `p`'s commands and the edge's equations).
//!
//! Block `b` is doomed iff `R_b ∧ V_b` is unsatisfiable: no admissible run
//! from the entry visits it. The definitions are asserted once; each block
//! is one `check_assumptions`. Two more families are added when needed:
//! `D_b` (reached with the checks ignored: dead code) and `G_b` (a run from
//! `b` that fails, at a check whose label is on: which checks fail).

use super::Failure;
use crate::ir::{Program, SiteKind};
use crate::vc::gc::{CheckKey, Gc, Origin};
use crate::vc::passive::{PCmd, Passive};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use z3::ast::Bool;
use z3::{Model, SatResult, Solver};

pub(super) enum Answer {
    Sat(Box<Model>),
    Unsat,
    Unknown,
}

/// A block's status after its query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Status {
    /// Not asked (or asked and some admissible run passes through it).
    Open,
    /// On the path of a model: not doomed.
    Live,
    Doomed,
    /// Z3 could not decide: not doomed.
    Unknown,
}

pub(super) struct Evc<'a> {
    gc: &'a Gc,
    /// Which checks are limits of the memory model.
    limit: Vec<bool>,
    pv: &'a Passive,
    solver: Solver,
    v: Vec<Bool>,
    r: Vec<Bool>,
    /// The conjunction of a block's assumes and asserts.
    conds: Vec<Bool>,
    preds: Vec<Vec<usize>>,
    /// Blocks where a run ends normally (`abort()`, `exit()`, the entry's
    /// exit).
    normal_end: Vec<bool>,
    d: Option<(Vec<Bool>, Vec<Bool>)>,
    g: Option<(Vec<Bool>, BTreeMap<Failure, Bool>)>,
    pub queries: usize,
    pub query_time: Duration,
    pub first_query: Option<Duration>,
    pub unknown: usize,
}

/// The failure an assertion stands for (`None`: a coverage check, or a
/// limit of the memory model, not an error).
fn failure(gc: &Gc, limit: &[bool], check: usize) -> Option<Failure> {
    match gc.checks[check].key {
        CheckKey::Site(_) if limit[check] => None,
        CheckKey::Site(s) => Some(Failure::Site(s)),
        _ => None,
    }
}

impl<'a> Evc<'a> {
    /// Asserts the definitions of `V` and `R`. `halts(b)`: the run ends
    /// normally in block `b` (its `assume false` is not a cut).
    /// A run that leaves the memory model (a `limit` check fails) counts
    /// as one that may end normally: what it does next is not known, so it
    /// makes no point doomed.
    pub fn new(
        p: &Program,
        gc: &'a Gc,
        pv: &'a Passive,
        timeout: Option<Duration>,
        halts: &dyn Fn(usize) -> bool,
    ) -> Evc<'a> {
        let n = pv.blocks.len();
        let limit: Vec<bool> = gc
            .checks
            .iter()
            .map(|c| matches!(c.key, CheckKey::Site(s) if p.site(s).kind == SiteKind::Limit))
            .collect();
        let mut escape = vec![Vec::new(); n];
        let solver = Solver::new();
        // Bounded by resources; the time only as a guard.
        crate::vc::solve::set_limits(&solver, Some(crate::vc::QUERY_RLIMIT), timeout);
        let v: Vec<Bool> = (0..n).map(|b| Bool::new_const(format!("V@{b}"))).collect();
        let r: Vec<Bool> = (0..n).map(|b| Bool::new_const(format!("R@{b}"))).collect();
        let mut conds = vec![Bool::from_bool(true); n];
        let mut normal_end = vec![false; n];
        let mut preds = vec![Vec::new(); n];
        for &b in &pv.order {
            for (s, _) in &pv.blocks[b].succs {
                preds[*s].push(b);
            }
            if halts(b) {
                normal_end[b] = true;
                continue;
            }
            let parts: Vec<Bool> = pv.blocks[b]
                .cmds
                .iter()
                .filter_map(|c| match c {
                    PCmd::Assume(f) => Some(f.clone()),
                    PCmd::Assert(f, check) => failure(gc, &limit, *check).map(|_| f.clone()),
                    PCmd::Event(..) | PCmd::Choice(_) => None,
                })
                .collect();
            for c in &pv.blocks[b].cmds {
                if let PCmd::Assert(f, check) = c {
                    if limit[*check] {
                        escape[b].push(f.not());
                    }
                }
            }
            conds[b] = Bool::and(&parts);
            if pv.blocks[b].succs.is_empty() && gc.blocks[b].cmds.is_empty() {
                normal_end[b] = true;
            }
        }
        for &b in pv.order.iter().rev() {
            let block = &pv.blocks[b];
            let next = if block.succs.is_empty() {
                Bool::from_bool(normal_end[b])
            } else {
                let alts: Vec<Bool> = block
                    .succs
                    .iter()
                    .map(|(s, eq)| Bool::and(&[eq.clone(), v[*s].clone()]))
                    .collect();
                Bool::or(&alts)
            };
            let next = if escape[b].is_empty() {
                next
            } else {
                let mut alts = escape[b].clone();
                alts.push(next);
                Bool::or(&alts)
            };
            solver.assert(v[b].iff(Bool::and(&[conds[b].clone(), next])));
        }
        for &b in &pv.order {
            if b == 0 {
                continue;
            }
            let from: Vec<Bool> = preds[b]
                .iter()
                .map(|&p| Bool::and(&[r[p].clone(), conds[p].clone(), edge(pv, p, b)]))
                .collect();
            solver.assert(r[b].implies(Bool::or(&from)));
        }
        Evc {
            gc,
            limit,
            pv,
            solver,
            v,
            r,
            conds,
            preds,
            normal_end,
            d: None,
            g: None,
            queries: 0,
            query_time: Duration::ZERO,
            first_query: None,
            unknown: 0,
        }
    }

    fn ask(&mut self, assumptions: &[Bool]) -> Answer {
        let start = Instant::now();
        let answer = match self.solver.check_assumptions(assumptions) {
            SatResult::Sat => match self.solver.get_model() {
                Some(m) => Answer::Sat(Box::new(m)),
                None => Answer::Unknown,
            },
            SatResult::Unsat => Answer::Unsat,
            SatResult::Unknown => Answer::Unknown,
        };
        let took = start.elapsed();
        self.queries += 1;
        self.query_time += took;
        self.first_query.get_or_insert(took);
        if matches!(answer, Answer::Unknown) {
            self.unknown += 1;
        }
        answer
    }

    /// Is block `b` doomed? `extended`: from the entry (`R_b ∧ V_b`);
    /// otherwise from `b` in any state (`V_b`, the seed's basic EVC). On
    /// `Sat`, the blocks of the model's run are marked `Live`.
    pub fn query(&mut self, b: usize, extended: bool, status: &mut [Status]) {
        let mut assumptions = vec![self.v[b].clone()];
        if extended {
            assumptions.push(self.r[b].clone());
        }
        match self.ask(&assumptions) {
            Answer::Unsat => status[b] = Status::Doomed,
            Answer::Unknown => status[b] = Status::Unknown,
            Answer::Sat(m) => {
                status[b] = Status::Live;
                for x in self.run_through(&m, b, extended) {
                    status[x] = Status::Live;
                }
            }
        }
    }

    /// The model's run through `b`: backwards along `R` (when `extended`)
    /// and forwards along `V`.
    fn run_through(&self, m: &Model, b: usize, extended: bool) -> Vec<usize> {
        let truth = |x: &Bool| m.eval(x, true).and_then(|v| v.as_bool()) == Some(true);
        let mut out = Vec::new();
        let mut x = b;
        while extended && x != 0 {
            let back = self.preds[x]
                .iter()
                .copied()
                .find(|&p| truth(&self.r[p]) && truth(&self.conds[p]) && truth(&edge(self.pv, p, x)));
            match back {
                Some(p) => {
                    out.push(p);
                    x = p;
                }
                None => break,
            }
        }
        let mut x = b;
        for _ in 0..self.pv.blocks.len() {
            let next = self.pv.blocks[x]
                .succs
                .iter()
                .find(|(s, eq)| truth(eq) && truth(&self.v[*s]));
            match next {
                Some((s, _)) => {
                    out.push(*s);
                    x = *s;
                }
                None => break,
            }
        }
        out
    }

    /// A run from the entry to one of `blocks` with every check on the way
    /// holding: the model and the run's blocks from the entry on (the
    /// reached block last). `None` when there is none or Z3 cannot tell.
    pub fn reach(&mut self, blocks: &[usize]) -> Option<(Box<Model>, Vec<usize>)> {
        // The block's own assumes too (an edge's condition), not its checks.
        let entered = |b: usize| {
            let cmds = &self.pv.blocks[b].cmds;
            let mut parts = vec![self.r[b].clone()];
            for (i, c) in cmds.iter().enumerate() {
                let checked = i > 0 && matches!((&cmds[i - 1], c), (PCmd::Assert(f, _), PCmd::Assume(g)) if f == g);
                if let (PCmd::Assume(f), false) = (c, checked) {
                    parts.push(f.clone());
                }
            }
            Bool::and(&parts)
        };
        let any: Vec<Bool> = blocks.iter().map(|&b| entered(b)).collect();
        let Answer::Sat(m) = self.ask(&[Bool::or(&any)]) else {
            return None;
        };
        let truth = |x: &Bool| m.eval(x, true).and_then(|v| v.as_bool()) == Some(true);
        let &b = blocks.iter().find(|&&b| truth(&self.r[b]))?;
        let mut path = vec![b];
        let mut x = b;
        while x != 0 {
            x = self.preds[x]
                .iter()
                .copied()
                .find(|&p| truth(&self.r[p]) && truth(&self.conds[p]) && truth(&edge(self.pv, p, x)))?;
            path.push(x);
        }
        path.reverse();
        Some((m, path))
    }

    /// Is no run (with the checks ignored) able to reach one of `blocks`
    /// and pass its assumes (an edge's condition)? Unknown is "reachable".
    pub fn dead(&mut self, blocks: &[usize]) -> bool {
        if self.d.is_none() {
            self.d = Some(self.define_d());
        }
        let (d, assumes) = self.d.as_ref().expect("defined");
        let any: Vec<Bool> = blocks
            .iter()
            .map(|&b| Bool::and(&[d[b].clone(), assumes[b].clone()]))
            .collect();
        matches!(self.ask(&[Bool::or(&any)]), Answer::Unsat)
    }

    /// `D_b` (a run with the checks ignored reaches `b`) and each block's
    /// assumes (its edge condition, its assignments).
    fn define_d(&mut self) -> (Vec<Bool>, Vec<Bool>) {
        let n = self.pv.blocks.len();
        let d: Vec<Bool> = (0..n).map(|b| Bool::new_const(format!("D@{b}"))).collect();
        let mut assumes = vec![Bool::from_bool(true); n];
        for &b in &self.pv.order {
            let cmds = &self.pv.blocks[b].cmds;
            let mut parts = Vec::new();
            let mut i = 0;
            while i < cmds.len() {
                match &cmds[i] {
                    PCmd::Assert(f, _) => {
                        // `assert P; assume P` is one check: both ignored.
                        if matches!(cmds.get(i + 1), Some(PCmd::Assume(g)) if g == f) {
                            i += 1;
                        }
                    }
                    PCmd::Assume(f) => parts.push(f.clone()),
                    PCmd::Event(..) | PCmd::Choice(_) => {}
                }
                i += 1;
            }
            assumes[b] = Bool::and(&parts);
        }
        for &b in &self.pv.order {
            if b == 0 {
                continue;
            }
            let from: Vec<Bool> = self.preds[b]
                .iter()
                .map(|&p| Bool::and(&[d[p].clone(), assumes[p].clone(), edge(self.pv, p, b)]))
                .collect();
            self.solver.assert(d[b].implies(Bool::or(&from)));
        }
        (d, assumes)
    }

    /// The failures of runs from the entry through any of `blocks` (the
    /// first failing check of each, or a loop the run cannot leave), at
    /// most `max`; `true` when the list is complete.
    pub fn failures(&mut self, blocks: &[usize], max: usize) -> (Vec<Failure>, bool) {
        if self.g.is_none() {
            self.g = Some(self.define_g());
        }
        let through = Bool::new_const(format!("T@{}", self.queries));
        let alts: Vec<Bool> = blocks
            .iter()
            .map(|&b| Bool::and(&[self.r[b].clone(), self.g.as_ref().expect("defined").0[b].clone()]))
            .collect();
        self.solver.assert(through.implies(Bool::or(&alts)));
        let mut found: Vec<Failure> = Vec::new();
        // Loops a run cannot leave are named only when no check fails: the
        // last copy's cut is also met by runs that leave the loop later.
        let mut loops = false;
        loop {
            if found.len() >= max {
                return (found, false);
            }
            let labels = &self.g.as_ref().expect("defined").1;
            let mut assumptions = vec![through.clone()];
            assumptions.extend(found.iter().filter_map(|f| labels.get(f)).map(|l| l.not()));
            if !loops {
                assumptions.extend(
                    (labels.iter())
                        .filter(|(f, _)| matches!(f, Failure::Diverges(_)))
                        .map(|(_, l)| l.not()),
                );
            }
            match self.ask(&assumptions) {
                Answer::Unsat if !loops && found.is_empty() => loops = true,
                Answer::Unsat => return (found, true),
                Answer::Unknown => return (found, false),
                Answer::Sat(m) => match self.failing(&m, blocks) {
                    Some(f) if !found.contains(&f) => found.push(f),
                    _ => return (found, false),
                },
            }
        }
    }

    /// `G_b`: a run from `b` fails at a check whose label is true (or at
    /// the back edge of a loop's last copy: it does not leave the loop).
    fn define_g(&mut self) -> (Vec<Bool>, BTreeMap<Failure, Bool>) {
        let n = self.pv.blocks.len();
        let g: Vec<Bool> = (0..n).map(|b| Bool::new_const(format!("G@{b}"))).collect();
        let mut labels: BTreeMap<Failure, Bool> = BTreeMap::new();
        let mut label = |f: Failure| {
            let k = labels.len();
            labels
                .entry(f)
                .or_insert_with(|| Bool::new_const(format!("L@{k}")))
                .clone()
        };
        for &b in self.pv.order.iter().rev() {
            let block = &self.pv.blocks[b];
            let mut q = if let Origin::LoopCut(head) = self.gc.blocks[b].origin {
                self.solver.assert(g[b].iff(label(Failure::Diverges(head))));
                continue;
            } else if self.normal_end[b] || block.succs.is_empty() {
                Bool::from_bool(false)
            } else {
                let alts: Vec<Bool> = block
                    .succs
                    .iter()
                    .map(|(s, eq)| Bool::and(&[eq.clone(), g[*s].clone()]))
                    .collect();
                Bool::or(&alts)
            };
            if !self.normal_end[b] {
                for c in block.cmds.iter().rev() {
                    q = match c {
                        PCmd::Assume(f) => Bool::and(&[f.clone(), q]),
                        PCmd::Assert(f, check) => match failure(self.gc, &self.limit, *check) {
                            Some(fl) => Bool::or(&[Bool::and(&[f.not(), label(fl)]), Bool::and(&[f.clone(), q])]),
                            None => q,
                        },
                        PCmd::Event(..) | PCmd::Choice(_) => q,
                    };
                }
            }
            self.solver.assert(g[b].iff(q));
        }
        (g, labels)
    }

    /// Where the model's failing run through one of `blocks` fails.
    fn failing(&self, m: &Model, blocks: &[usize]) -> Option<Failure> {
        let (g, _) = self.g.as_ref()?;
        let truth = |x: &Bool| m.eval(x, true).and_then(|v| v.as_bool());
        let mut b = *blocks
            .iter()
            .find(|&&b| truth(&self.r[b]) == Some(true) && truth(&g[b]) == Some(true))?;
        for _ in 0..self.pv.blocks.len() {
            if let Origin::LoopCut(head) = self.gc.blocks[b].origin {
                return Some(Failure::Diverges(head));
            }
            for c in &self.pv.blocks[b].cmds {
                if let PCmd::Assert(f, check) = c {
                    if let Some(fl) = failure(self.gc, &self.limit, *check) {
                        if truth(f) == Some(false) {
                            return Some(fl);
                        }
                    }
                }
            }
            let (s, _) = self.pv.blocks[b]
                .succs
                .iter()
                .find(|(s, eq)| truth(eq) == Some(true) && truth(&g[*s]) == Some(true))?;
            b = *s;
        }
        None
    }
}

/// The equations on the edge `p -> s`.
fn edge(pv: &Passive, p: usize, s: usize) -> Bool {
    pv.blocks[p]
        .succs
        .iter()
        .find(|(x, _)| *x == s)
        .map(|(_, eq)| eq.clone())
        .unwrap_or_else(|| Bool::from_bool(false))
}
