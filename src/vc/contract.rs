//! Modular verification with labelled VCs (seed 002): each function with a
//! contract (and the entry) is verified against its own contract, and every
//! check becomes one VC per path leading to it, `H1 && ... && Hn ==> C`,
//! each hypothesis labelled by what made it (the precondition, a loop
//! invariant, a branch, an assignment, a callee's contract).
//!
//! Per VC: Z3 decides `H && !C` (unsat: proved; sat: failed, with a
//! counterexample); for a failed VC, `H && C` says which part is wrong: unsat,
//! and the unsat core over the labelled hypotheses names the statements
//! that make the conclusion false; sat, and a specification is too weak.
//! `H` is always the whole path; the sentence shows the hypotheses that
//! share variables with the conclusion (transitively), and only those take
//! part in the core. A path whose hypotheses contradict each other is
//! proved, and says so.

use super::explain::{self, Label};
use super::gc::{self, CheckKey, Cmd, Gc, SpecCheck};
use super::term::{self, Env, Val, VarKey, GLOBAL};
use super::{Loops, Options};
use crate::facts::Analysis;
use crate::interp;
use crate::ir::contract::instrument;
use crate::ir::*;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};
use z3::ast::{Array, Bool, Int};
use z3::{SatResult, Solver, Sort};

/// More paths than this to one check: the VC is not split (unknown).
pub const MAX_PATHS: usize = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VcStatus {
    Proved,
    Failed,
    Unknown,
}

impl VcStatus {
    pub fn name(self) -> &'static str {
        match self {
            VcStatus::Proved => "proved",
            VcStatus::Failed => "failed",
            VcStatus::Unknown => "unknown",
        }
    }
}

/// One line of an explanation: a labelled hypothesis or the conclusion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Given {
    /// The seed's label kind (`asm_pre`, `then`, `upd`, `ens_post`, ...).
    pub label: &'static str,
    pub line: u32,
    pub text: String,
}

/// Which part is wrong in a failed VC.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Blame {
    None,
    /// The hypotheses contradict the conclusion: these do (code first).
    Wrong {
        code: Vec<Given>,
        specs: Vec<Given>,
    },
    /// They do not: a specification is too weak; the sentence says which.
    Weak(String),
}

#[derive(Clone, Debug)]
pub struct Vc {
    pub id: usize,
    pub function: String,
    /// The conclusion's label kind.
    pub kind: &'static str,
    pub lines: (u32, u32),
    pub status: VcStatus,
    pub purpose: String,
    pub given: Vec<Given>,
    pub show: Given,
    pub blame: Blame,
    /// A failed VC's counterexample: the inputs it reads (scalars first).
    pub model: Vec<(String, i64)>,
    /// The model as C spells it (`p = &x`; no variable of the memory
    /// model's own), for the text.
    pub model_text: Vec<(String, String)>,
    /// And the values at the loop head its path starts from.
    pub at_head: Vec<(String, i64)>,
    /// Why it is unknown, or that its path cannot be taken.
    pub note: Option<String>,
    /// A failed VC replayed in the interpreter (functions without loops or
    /// calls of contracts): `Some(true)` when the run violates the same check.
    pub replayed: Option<bool>,
    /// The check, for tests and consistency with `check`.
    pub key: CheckKey,
}

/// The VCs of one function.
pub struct FnVcs {
    pub name: String,
    pub proc: ProcId,
    pub vcs: Vec<Vc>,
    /// Functions called deeper than the inlining depth (with no contract):
    /// their calls are havocked, so nothing in them is verified.
    pub havocked: Vec<String>,
    pub time: Duration,
}

/// The program as the root `f` sees it: `f` is the entry, its parameters
/// are inputs, and (unless `f` is the program's entry) globals start with
/// any value of their type.
pub fn root_program(p: &Program, f: ProcId) -> Program {
    let mut rp = p.clone();
    // A contract speaks of every caller and of every callee its contract
    // allows, not only this program's: no case of a split is cut
    // (`ir::narrow`).
    crate::ir::narrow::restore(&mut rp);
    if f != p.entry {
        for &g in &p.globals {
            rp.vars[g.index()].init = VarInit::Input;
        }
        for &v in &p.proc(f).params {
            rp.vars[v.index()].init = VarInit::Input;
        }
        rp.entry = f;
    }
    rp
}

/// A contract check in words (warnings, SARIF).
pub fn check_text(p: &Program, s: SpecCheck) -> String {
    let clause = |c: usize| {
        let cl = p.contracts.clause(c);
        format!("`{} {}`", cl.kind.keyword(), cl.text)
    };
    match s {
        SpecCheck::Post(c) => format!("the postcondition {} may not hold", clause(c)),
        SpecCheck::Frame(c, v) => format!("`{}` may change, which {} does not allow", p.var(v).name, clause(c)),
        SpecCheck::Inv { clause: c, init } => format!(
            "the invariant {} may not {}",
            clause(c),
            if init { "hold on entry" } else { "be preserved" }
        ),
        SpecCheck::CalleePre { clause: c, .. } => format!("the precondition {} may not hold at the call", clause(c)),
        SpecCheck::Assert(c) => format!("the assertion {} may not hold", clause(c)),
    }
}

/// The functions verified: those with a contract, and the entry.
pub fn roots(p: &Program) -> Vec<ProcId> {
    let mut out: Vec<ProcId> = p.contracts.funcs.keys().copied().collect();
    if !out.contains(&p.entry) {
        out.push(p.entry);
    }
    out.sort_by_key(|&f| p.proc(f).span.lo);
    out
}

/// Verifies every root; VCs are numbered in file order of the functions.
pub fn verify(p: &Program, opts: &Options) -> Vec<FnVcs> {
    let mut out = Vec::new();
    let mut next = 1;
    for f in roots(p) {
        let r = verify_root(p, f, opts, next);
        next += r.vcs.len();
        out.push(r);
    }
    out
}

fn verify_root(p: &Program, f: ProcId, opts: &Options, first_id: usize) -> FnVcs {
    let start = Instant::now();
    let rp = root_program(p, f);
    let a = Analysis::new(&rp);
    let opts = Options {
        loops: Loops::Havoc,
        infer: false,
        contracts: true,
        ..opts.clone()
    };
    let g = gc::build(&rp, &a, &[], &[], &opts);
    let havocked = gc::havocked_callees(&rp, &g)
        .into_iter()
        .map(|c| rp.proc(c).name.clone())
        .collect();
    let cx = Cx {
        p: &rp,
        a: &a,
        gc: &g,
        opts: &opts,
        preds: preds(&g),
        replay: Replay::new(&rp),
    };
    let mut vcs = Vec::new();
    for (b, j, check) in cx.conclusions() {
        let paths = cx.paths(b);
        if paths.len() > MAX_PATHS {
            let mut vc = cx.unsplit(check, b, j);
            vc.id = first_id + vcs.len();
            vcs.push(vc);
            continue;
        }
        let mut seen: BTreeSet<Vec<(usize, usize)>> = BTreeSet::new();
        for path in paths {
            if let Some(mut vc) = cx.path_vc(&path, j, check, &mut seen) {
                vc.id = first_id + vcs.len();
                vcs.push(vc);
            }
        }
    }
    FnVcs {
        name: p.proc(f).name.clone(),
        proc: f,
        vcs,
        havocked,
        time: start.elapsed(),
    }
}

fn preds(g: &Gc) -> Vec<Vec<usize>> {
    let mut out = vec![Vec::new(); g.blocks.len()];
    for &b in &super::passive::topo_order(g) {
        for &s in &g.blocks[b].succs {
            out[s].push(b);
        }
    }
    out
}

struct Cx<'a> {
    p: &'a Program,
    a: &'a Analysis,
    gc: &'a Gc,
    opts: &'a Options,
    preds: Vec<Vec<usize>>,
    replay: Replay,
}

/// A hypothesis of one path: its formula, what it stands for, and the
/// incarnations it reads or makes.
struct Hyp {
    f: Bool,
    label: Option<Label>,
    vars: Vec<u32>,
}

/// Variables along one path: single assignment, each incarnation numbered.
struct PathEnv<'a> {
    p: &'a Program,
    vars: BTreeMap<VarKey, (u32, Val)>,
    next: u32,
    touched: Vec<u32>,
    draws: BTreeMap<u32, (u32, Int)>,
}

impl PathEnv<'_> {
    fn make(&mut self, k: VarKey) -> (u32, Val) {
        self.next += 1;
        let name = format!("{}#{}@{}", self.p.var(k.var).name, k.frame, self.next);
        let v = if self.p.var(k.var).len.is_some() {
            Val::Arr(Array::new_const(name, &Sort::int(), &Sort::int()))
        } else {
            Val::Int(Int::new_const(name))
        };
        (self.next, v)
    }

    fn get(&mut self, k: VarKey) -> Val {
        let (id, v) = match self.vars.get(&k) {
            Some(x) => x.clone(),
            None => {
                let x = self.make(k);
                self.vars.insert(k, x.clone());
                x
            }
        };
        self.touched.push(id);
        v
    }

    /// A new incarnation of `k`, touched.
    fn define(&mut self, k: VarKey) -> Val {
        let x = self.make(k);
        self.vars.insert(k, x.clone());
        self.touched.push(x.0);
        x.1
    }
}

impl Env for PathEnv<'_> {
    fn int(&mut self, k: VarKey) -> Int {
        self.get(k).into_int()
    }

    fn array(&mut self, k: VarKey) -> Array {
        self.get(k).into_array()
    }

    fn fresh(&mut self, n: u32) -> Int {
        let next = self.next + 1;
        let (id, x) = self
            .draws
            .entry(n)
            .or_insert_with(|| (next, Int::new_const(format!("draw@{n}"))))
            .clone();
        if id == next {
            self.next = next;
        }
        self.touched.push(id);
        x
    }

    fn enabled(&mut self, _n: usize) -> Bool {
        Bool::from_bool(true)
    }
}

/// A path translated: hypotheses, conclusion, and what the model needs.
struct PathVc {
    hyps: Vec<Hyp>,
    goal: Bool,
    goal_vars: Vec<u32>,
    /// Input slots with the incarnation they start as.
    inputs: Vec<(String, u32, Int)>,
    /// Scalars havocked at the last loop cut.
    cut_state: Vec<(String, u32, Int)>,
    /// Values drawn (`nondet()`, `if (*)`), in order, with where and the
    /// incarnations they read.
    choices: Vec<(u32, Vec<u32>, Int)>,
}

impl Cx<'_> {
    /// Every check the VCs show: block, command index, check.
    fn conclusions(&self) -> Vec<(usize, usize, usize)> {
        let mut out = Vec::new();
        for &b in &super::passive::topo_order(self.gc) {
            for (j, c) in self.gc.blocks[b].cmds.iter().enumerate() {
                if let Cmd::Assert(_, check) = c {
                    let key = self.gc.checks[*check].key;
                    // Contract checks always; run-time checks as `--property` says.
                    let shown = match key {
                        CheckKey::Spec(_) => true,
                        CheckKey::Site(s) => {
                            !self.p.site(s).static_ok && super::reported(self.p, key, self.opts.property)
                        }
                        _ => false,
                    };
                    if shown {
                        out.push((b, j, *check));
                    }
                }
            }
        }
        out
    }

    /// Paths from the entry block to `b`, up to `MAX_PATHS + 1`.
    fn paths(&self, b: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        let mut stack = vec![vec![b]];
        while let Some(path) = stack.pop() {
            let head = *path.last().expect("non-empty");
            if head == 0 {
                let mut p = path;
                p.reverse();
                out.push(p);
                if out.len() > MAX_PATHS {
                    break;
                }
                continue;
            }
            for &pr in self.preds[head].iter().rev() {
                let mut next = path.clone();
                next.push(pr);
                stack.push(next);
            }
        }
        out
    }

    fn translate(&self, path: &[usize], last: usize) -> PathVc {
        let mut env = PathEnv {
            p: self.p,
            vars: BTreeMap::new(),
            next: 0,
            touched: Vec::new(),
            draws: BTreeMap::new(),
        };
        let mut hyps = Vec::new();
        let mut inputs = Vec::new();
        let mut cut_state = Vec::new();
        let mut choices = Vec::new();
        let mut goal = Bool::from_bool(true);
        let mut goal_vars = Vec::new();
        for (pos, &b) in path.iter().enumerate() {
            let block = &self.gc.blocks[b];
            let is_last = pos + 1 == path.len();
            let cut = explain::is_cut(self.gc, self.a, b);
            if cut {
                cut_state.clear();
            }
            for (j, c) in block.cmds.iter().enumerate() {
                env.touched.clear();
                let label = explain::label(self.p, self.a, self.gc, path, pos, j);
                let f = match c {
                    Cmd::Assume(f) => Some(term::formula(f, &mut env)),
                    Cmd::Assert(f, _) if is_last && j == last => {
                        goal = term::formula(f, &mut env);
                        goal_vars = env.touched.clone();
                        break;
                    }
                    Cmd::Assert(..) | Cmd::Event(_) => None,
                    Cmd::Assign(k, t) => {
                        let v = term::int(t, &mut env);
                        match env.define(*k) {
                            Val::Int(x) => Some(x.eq(&v)),
                            x @ Val::Bits(_) => Some(x.equals(&Val::Int(v))),
                            Val::Arr(_) => None,
                        }
                    }
                    Cmd::Store(k, i, t) => {
                        let i = term::int(i, &mut env);
                        let v = term::int(t, &mut env);
                        let a = env.array(*k).store(&i, &v);
                        match env.define(*k) {
                            Val::Arr(x) => Some(x.eq(&a)),
                            Val::Int(_) | Val::Bits(_) => None,
                        }
                    }
                    Cmd::Havoc(k, range) => {
                        let v = env.define(*k);
                        if cut {
                            if let Val::Int(x) = &v {
                                cut_state.push((self.p.var(k.var).name.clone(), env.next, x.clone()));
                            }
                        }
                        range.and_then(|r| in_range(&v, r, self.p.var(k.var).len))
                    }
                    Cmd::Copy(to, from) => {
                        let v = env.vars.get(from).cloned().unwrap_or_else(|| {
                            let x = env.make(*from);
                            env.vars.insert(*from, x.clone());
                            x
                        });
                        env.vars.insert(*to, v);
                        None
                    }
                    Cmd::Choice(t) => {
                        let x = term::int(t, &mut env);
                        let line = block
                            .origin
                            .at()
                            .map(|o| self.p.line(self.p.node(o.node).span))
                            .unwrap_or(0);
                        choices.push((line, env.touched.clone(), x));
                        None
                    }
                };
                if let Some(f) = f {
                    hyps.push(Hyp {
                        f,
                        label,
                        vars: env.touched.clone(),
                    });
                }
            }
            if pos == 0 {
                // The entry block made the starting state: the inputs.
                for slot in self.p.input_slots() {
                    let frame = if self.p.var(slot.var).is_global_storage() {
                        GLOBAL
                    } else {
                        0
                    };
                    let Some((id, v)) = env.vars.get(&VarKey { var: slot.var, frame }).cloned() else {
                        continue;
                    };
                    let x = match v {
                        Val::Arr(a) => a
                            .select(&Int::from_i64(slot.index.unwrap_or(0) as i64))
                            .as_int()
                            .expect("int"),
                        v => v.into_int(),
                    };
                    inputs.push((slot.name, id, x));
                }
            }
        }
        PathVc {
            hyps,
            goal,
            goal_vars,
            inputs,
            cut_state,
            choices,
        }
    }

    fn solver(&self) -> Solver {
        let s = Solver::new();
        super::solve::set_limits(&s, self.opts.rlimit, self.opts.timeout);
        s
    }

    fn path_vc(
        &self,
        path: &[usize],
        last: usize,
        check: usize,
        seen: &mut BTreeSet<Vec<(usize, usize)>>,
    ) -> Option<Vc> {
        let pv = self.translate(path, last);
        let key = self.gc.checks[check].key;
        let s = self.solver();
        // A path whose hypotheses contradict each other is never taken.
        for h in &pv.hyps {
            s.assert(&h.f);
        }
        let feasible = s.check();
        // The hypotheses the sentence shows: those connected to the
        // conclusion through shared variables. Hidden ones (types, checks
        // made before and assumed since) are shown when connected but
        // connect nothing further.
        let mut live: BTreeSet<u32> = pv.goal_vars.iter().copied().collect();
        let mut keep = vec![false; pv.hyps.len()];
        loop {
            let mut grew = false;
            for (i, h) in pv.hyps.iter().enumerate() {
                if !keep[i] && (h.vars.is_empty() || h.vars.iter().any(|v| live.contains(v))) {
                    keep[i] = true;
                    if h.label.as_ref().is_none_or(|l| l.role != explain::Role::Hidden) {
                        live.extend(h.vars.iter().copied());
                    }
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        if feasible == SatResult::Unsat {
            keep = vec![true; pv.hyps.len()];
        }
        let kept: Vec<usize> = (0..pv.hyps.len()).filter(|&i| keep[i]).collect();
        // Paths that differ only in what was left out are one VC.
        let sig: Vec<(usize, usize)> = kept
            .iter()
            .filter_map(|&i| pv.hyps[i].label.as_ref().map(|l| (l.block, l.index)))
            .chain(std::iter::once((path[path.len() - 1], last)))
            .collect();
        if feasible != SatResult::Unsat && !seen.insert(sig) {
            return None;
        }
        let text = explain::Sentences::new(self.p, self.a, self.gc, path, last, key);
        let labels: Vec<&Label> = kept.iter().filter_map(|&i| pv.hyps[i].label.as_ref()).collect();
        let mut vc = text.vc(&labels);
        vc.key = key;
        match feasible {
            SatResult::Unsat => {
                vc.status = VcStatus::Proved;
                vc.note = Some("the path to it cannot be taken: its conditions contradict each other".into());
                return Some(vc);
            }
            SatResult::Unknown => {
                vc.status = VcStatus::Unknown;
                vc.note = Some(format!(
                    "Z3 could not decide whether the path can be taken ({})",
                    reason(&s)
                ));
                return Some(vc);
            }
            SatResult::Sat => {}
        }
        // The VC itself, with a switch per kept hypothesis for the core.
        // The others share no variable with it and are satisfiable: they
        // change no answer, but make a counterexample follow the path.
        let s = self.solver();
        let switches: Vec<Bool> = kept.iter().map(|i| Bool::new_const(format!("h@{i}"))).collect();
        for (sw, &i) in switches.iter().zip(&kept) {
            s.assert(sw.implies(&pv.hyps[i].f));
        }
        for (i, h) in pv.hyps.iter().enumerate() {
            if !keep[i] {
                s.assert(&h.f);
            }
        }
        s.push();
        s.assert(pv.goal.not());
        match s.check_assumptions(&switches) {
            SatResult::Unsat => vc.status = VcStatus::Proved,
            SatResult::Unknown => {
                vc.status = VcStatus::Unknown;
                vc.note = Some(format!("Z3 could not decide it ({})", reason(&s)));
            }
            SatResult::Sat => {
                vc.status = VcStatus::Failed;
                let mut xs: Vec<Int> = pv.inputs.iter().map(|(_, _, x)| x.clone()).collect();
                xs.extend(pv.cut_state.iter().map(|(_, _, x)| x.clone()));
                let model = small_model(&s, &switches, &xs);
                if let Some(m) = &model {
                    let shown = |id: &u32| live.contains(id);
                    vc.model = pv
                        .inputs
                        .iter()
                        .filter(|(_, id, _)| shown(id))
                        .map(|(n, _, x)| (n.clone(), value(m, x)))
                        .collect();
                    vc.model.sort_by_key(|(n, _)| n.contains('['));
                    vc.model.extend(
                        pv.choices
                            .iter()
                            .filter(|(_, ids, _)| !ids.is_empty() && ids.iter().all(&shown))
                            .map(|(line, _, x)| (format!("nondet() at line {line}"), value(m, x))),
                    );
                    vc.model_text = crate::ir::pointers::c_values(self.p, &vc.model);
                    vc.at_head = pv
                        .cut_state
                        .iter()
                        .filter(|(_, id, _)| shown(id))
                        .map(|(n, _, x)| (n.clone(), value(m, x)))
                        .collect();
                    if self.replayable(path) {
                        let inputs: Vec<(String, i64)> =
                            pv.inputs.iter().map(|(n, _, x)| (n.clone(), value(m, x))).collect();
                        let choices: Vec<i64> = pv.choices.iter().map(|(_, _, x)| value(m, x)).collect();
                        vc.replayed = Some(self.replay.reaches(key, &inputs, &choices));
                    }
                }
                s.pop(1);
                s.push();
                s.assert(&pv.goal);
                vc.blame = match s.check_assumptions(&switches) {
                    SatResult::Unsat => {
                        let core = minimal_core(&s, &switches);
                        let labels: Vec<&Label> =
                            core.iter().filter_map(|&c| pv.hyps[kept[c]].label.as_ref()).collect();
                        text.wrong(&labels)
                    }
                    SatResult::Sat => text.weak(&labels),
                    SatResult::Unknown => Blame::None,
                };
            }
        }
        Some(vc)
    }

    /// A check reached by too many paths: one VC, not decided.
    fn unsplit(&self, check: usize, b: usize, last: usize) -> Vc {
        let key = self.gc.checks[check].key;
        let text = explain::Sentences::new(self.p, self.a, self.gc, &[b], last, key);
        let mut vc = text.vc(&[]);
        vc.key = key;
        vc.status = VcStatus::Unknown;
        vc.note = Some(format!(
            "more than {MAX_PATHS} paths lead to it: it is not split into VCs (split the function, or give a callee a contract)"
        ));
        vc
    }

    /// Can the interpreter replay this path: no loop cut and no contract
    /// used instead of a body before its end?
    fn replayable(&self, path: &[usize]) -> bool {
        path.iter().enumerate().all(|(i, &b)| {
            let last = i + 1 == path.len();
            !explain::is_cut(self.gc, self.a, b)
                && (last
                    || !matches!(self.gc.blocks[b].origin.at(), Some(o)
                    if matches!(&self.p.node(o.node).kind, NodeKind::Call { callee, .. }
                        if self.p.contracts.of(*callee).is_some())))
        })
    }
}

fn reason(s: &Solver) -> String {
    s.get_reason_unknown().unwrap_or_else(|| "no reason given".into())
}

fn in_range(v: &Val, range: (i64, i64), len: Option<u32>) -> Option<Bool> {
    let within = |x: &Int| Bool::and(&[x.ge(Int::from_i64(range.0)), x.le(Int::from_i64(range.1))]);
    match (v, len) {
        (Val::Int(x), _) => Some(within(x)),
        (Val::Arr(a), Some(n)) if n <= 1024 => Some(Bool::and(
            &(0..n)
                .map(|k| within(&a.select(&Int::from_i64(k as i64)).as_int().expect("int")))
                .collect::<Vec<_>>(),
        )),
        _ => None,
    }
}

fn value(m: &z3::Model, x: &Int) -> i64 {
    m.eval(x, true).and_then(|v| v.as_i64()).unwrap_or(0)
}

/// A model with the given values as small as Z3 allows (the solver holds
/// the failing VC).
fn small_model(s: &Solver, switches: &[Bool], xs: &[Int]) -> Option<z3::Model> {
    for bound in [1i64, 16, 256, 65_536] {
        let mut a = switches.to_vec();
        a.extend(
            xs.iter()
                .map(|x| Bool::and(&[x.ge(Int::from_i64(-bound)), x.le(Int::from_i64(bound))])),
        );
        if s.check_assumptions(&a) == SatResult::Sat {
            return s.get_model();
        }
    }
    match s.check_assumptions(switches) {
        SatResult::Sat => s.get_model(),
        _ => None,
    }
}

/// The unsat core over the switches, made minimal by dropping each member
/// that is not needed (indices into `switches`).
fn minimal_core(s: &Solver, switches: &[Bool]) -> Vec<usize> {
    let core = s.get_unsat_core();
    let mut keep: Vec<usize> = (0..switches.len()).filter(|&i| core.contains(&switches[i])).collect();
    let mut i = 0;
    while i < keep.len() && keep.len() <= 64 {
        let trial: Vec<Bool> = keep
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, &k)| switches[k].clone())
            .collect();
        if s.check_assumptions(&trial) == SatResult::Unsat {
            keep.remove(i);
        } else {
            i += 1;
        }
    }
    keep
}

/// Replays counterexamples of VCs in the interpreter, on the program with
/// its contracts made into checks (`instrument`).
struct Replay {
    program: Option<(Program, instrument::Sites)>,
}

impl Replay {
    fn new(rp: &Program) -> Replay {
        Replay {
            program: Some(instrument::instrument(rp)),
        }
    }

    fn reaches(&self, key: CheckKey, inputs: &[(String, i64)], choices: &[i64]) -> bool {
        let Some((ip, sites)) = &self.program else { return false };
        let want = match key {
            CheckKey::Site(s) => Some(s),
            CheckKey::Spec(SpecCheck::Post(c)) | CheckKey::Spec(SpecCheck::Assert(c)) => sites.clause(c),
            CheckKey::Spec(SpecCheck::Inv { clause, .. }) => sites.clause(clause),
            CheckKey::Spec(SpecCheck::CalleePre { clause, .. }) => sites.clause(clause),
            CheckKey::Spec(SpecCheck::Frame(c, v)) => sites.frame(c, v),
            _ => None,
        };
        let Some(want) = want else { return false };
        let cfg = interp::Config {
            inputs: inputs.iter().cloned().collect(),
            choices: choices.to_vec(),
            seed: Some(0),
            fill: None,
            max_steps: 1_000_000,
            conditions: Vec::new(),
            watch: None,
        };
        matches!(interp::run(ip, &cfg), Ok(r) if matches!(r.outcome, interp::Outcome::Error { site, .. } if site == want))
    }
}
