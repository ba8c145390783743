//! The automatic oracle (`--oracle run`): answers a question from concrete
//! runs of the interpreter, on boundary and random inputs and on inputs
//! from models of the question.
//!
//! A run is read as the model reads it: inputs as given, a draw or an
//! `if (*)` by the value the run took there, a loop's variables at its head
//! (the last visit, when the question is about after the loop; every
//! visit, otherwise). Only values the run takes once are read this way:
//! the entry procedure's, outside loops other than the one asked about.
//! - A run in which an invariant fact is false answers "no".
//! - A run in which a witness fact holds answers "yes", and only if the
//!   run does fail the condition (as the model says it must).
//! - It never answers "yes" to an invariant, and abstains otherwise.

use super::model::{Model, Origin};
use super::{Answer, Evidence, Kind, Oracle, Question};
use crate::facts::Analysis;
use crate::interp::{self, Run, Snapshot, MAX_SNAPSHOTS};
use crate::ir::cond::UserCond;
use crate::ir::{Layout, NodeId, Program};
use crate::vc::gc::CheckKey;
use std::collections::{BTreeMap, BTreeSet};
use z3::ast::{Ast, Bool, Int};
use z3::{SatResult, Solver};

struct Observed {
    run: Run,
    snaps: Vec<Snapshot>,
    fails: bool,
}

pub struct RunOracle<'a> {
    p: &'a Program,
    a: &'a Analysis,
    target: CheckKey,
    users: &'a [UserCond],
    layout: Layout,
    /// Loop heads of the entry procedure (observed in every run).
    heads: BTreeSet<NodeId>,
    runs: Option<Vec<Observed>>,
    /// Random runs per oracle, and directed runs per question.
    pub random: u64,
    pub directed: usize,
    pub max_steps: u64,
    /// Runs made so far.
    pub runs_made: usize,
}

impl<'a> RunOracle<'a> {
    pub fn new(p: &'a Program, a: &'a Analysis, target: CheckKey, users: &'a [UserCond]) -> RunOracle<'a> {
        let heads = a.loops.iter().filter(|l| l.proc == p.entry).map(|l| l.head).collect();
        RunOracle {
            p,
            a,
            target,
            users,
            layout: p.layout(),
            heads,
            runs: None,
            random: 24,
            directed: 3,
            max_steps: 100_000,
            runs_made: 0,
        }
    }

    fn run(&mut self, inputs: BTreeMap<String, i64>, seed: u64) -> Option<Observed> {
        let conditions = match self.target {
            CheckKey::User(i) => vec![self.users.get(i)?.clone()],
            _ => Vec::new(),
        };
        let cfg = interp::Config {
            inputs,
            choices: Vec::new(),
            seed: Some(seed),
            fill: None,
            max_steps: self.max_steps,
            conditions,
            watch: None,
        };
        self.runs_made += 1;
        let (run, snaps) = interp::run_observed(self.p, &cfg, &self.heads).ok()?;
        let fails = match (self.target, &run.outcome) {
            (CheckKey::Site(s), interp::Outcome::Error { site, .. }) => s == *site,
            (CheckKey::User(_), interp::Outcome::Condition { .. }) => true,
            _ => false,
        };
        Some(Observed { run, snaps, fails })
    }

    /// Boundary runs (every input 0, 1, -1, its minimum, its maximum) and
    /// random ones.
    fn base_runs(&mut self) -> Vec<Observed> {
        let slots = self.p.input_slots();
        let mut out = Vec::new();
        for (k, v) in [0i64, 1, -1, i64::MIN, i64::MAX].into_iter().enumerate() {
            let inputs = slots
                .iter()
                .map(|s| (s.name.clone(), v.clamp(s.range.0, s.range.1)))
                .collect();
            out.extend(self.run(inputs, k as u64));
        }
        // Random inputs: small ones (where loops end within the step
        // limit), then anywhere in their types' ranges.
        let mut rng = 0x9E37_79B9_7F4A_7C15u64;
        for seed in 0..self.random {
            let inputs = slots
                .iter()
                .map(|s| {
                    rng = rng
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    let v = ((rng >> 33) % 201) as i64 - 100;
                    (s.name.clone(), v.clamp(s.range.0, s.range.1))
                })
                .collect();
            out.extend(self.run(inputs, 500 + seed));
        }
        for seed in 0..self.random {
            out.extend(self.run(BTreeMap::new(), 1000 + seed));
        }
        out
    }

    /// Runs on inputs from models of `f` (and what is known).
    fn directed_runs(&mut self, m: &Model, known: &Bool, f: &Bool) -> Vec<Observed> {
        let s = Solver::new();
        // A quick question: a small resource budget (a fifth of a query's),
        // and 2 s as a guard.
        crate::vc::solve::set_limits(
            &s,
            Some(crate::vc::QUERY_RLIMIT / 5),
            Some(std::time::Duration::from_secs(2)),
        );
        s.assert(known);
        s.assert(f);
        let inputs: Vec<(String, Int)> = m
            .vars
            .iter()
            .filter_map(|v| match &v.origin {
                Origin::Input { name, .. } => Some((name.clone(), v.z3.clone())),
                _ => None,
            })
            .collect();
        let mut out = Vec::new();
        for k in 0..self.directed {
            if s.check() != SatResult::Sat {
                break;
            }
            let Some(model) = s.get_model() else { break };
            let mut given = BTreeMap::new();
            let mut same = Vec::new();
            for (name, x) in &inputs {
                if let Some(v) = model.eval(x, true).and_then(|v| v.as_i64()) {
                    given.insert(name.clone(), v);
                    same.push(x.eq(Int::from_i64(v)));
                }
            }
            out.extend(self.run(given, 7 + k as u64));
            if same.is_empty() {
                break;
            }
            s.assert(Bool::and(&same).not());
        }
        out
    }

    /// The valuations of `vs` (and what their operations read) that the
    /// run gives: one, or one per visit of a loop head; `None` when a value
    /// cannot be read from the run.
    fn valuations(&self, m: &Model, vs: &BTreeSet<usize>, o: &Observed) -> Option<Vec<Vec<(usize, i64)>>> {
        let p = self.p;
        let in_loop = |n: NodeId| {
            self.a
                .loops
                .iter()
                .any(|l| l.proc == p.entry && l.head != n && l.body.contains(&n))
        };
        let step = |node: NodeId| {
            let mut hits = o.run.trace.iter().filter(|s| s.node == node && s.depth == 0);
            let first = hits.next()?;
            hits.next().is_none().then_some(first)
        };
        let mut fixed: Vec<(usize, i64)> = Vec::new();
        let mut visits: Option<(NodeId, Vec<usize>)> = None;
        let mut ops = Vec::new();
        for &v in vs {
            match &m.vars[v].origin {
                Origin::Input { name, .. } => {
                    let (_, x) = o.run.inputs.iter().find(|(n, _)| n == name)?;
                    fixed.push((v, *x));
                }
                Origin::Draw { node, frame: 0 } if !in_loop(*node) => fixed.push((v, step(*node)?.value?)),
                Origin::Choice { node, frame: 0 } if !in_loop(*node) => {
                    fixed.push((v, step(*node)?.outcome? as i64));
                }
                Origin::Loop {
                    head,
                    frame: 0,
                    var,
                    after,
                } if !in_loop(*head) && p.var(*var).len.is_none() => {
                    let at: Vec<&Snapshot> = o.snaps.iter().filter(|s| s.node == *head && s.depth == 0).collect();
                    if at.is_empty() || o.snaps.len() >= MAX_SNAPSHOTS {
                        return None;
                    }
                    if *after {
                        // The last visit is the state after the loop only
                        // if the run left the loop.
                        let body = &self.a.loops[self.a.loop_at[head]].body;
                        let last = o.run.trace.last()?;
                        if last.depth == 0 && body.contains(&last.node) {
                            return None;
                        }
                        fixed.push((v, at[at.len() - 1].read(p, &self.layout, *var, 0)?));
                    } else {
                        match &mut visits {
                            Some((h, list)) if h == head => list.push(v),
                            Some(_) => return None,
                            None => visits = Some((*head, vec![v])),
                        }
                    }
                }
                Origin::Op { def } => ops.push((v, def.clone())),
                _ => return None,
            }
        }
        let mut out = Vec::new();
        match visits {
            None => out.push(fixed),
            Some((head, list)) => {
                for s in o.snaps.iter().filter(|s| s.node == head && s.depth == 0) {
                    let mut val = fixed.clone();
                    for &v in &list {
                        let Origin::Loop { var, .. } = m.vars[v].origin else {
                            continue;
                        };
                        val.push((v, s.read(p, &self.layout, var, 0)?));
                    }
                    out.push(val);
                }
            }
        }
        // Operations, from the values they read (inner ones first: an
        // operation's variable comes after those of its operands).
        ops.sort_by_key(|(v, _)| *v);
        for val in &mut out {
            for (v, def) in &ops {
                let x = eval_int(def, &m.vars.iter().map(|x| x.z3.clone()).collect::<Vec<_>>(), val)?;
                val.push((*v, x));
            }
        }
        Some(out)
    }

    fn closure(&self, m: &Model, q: &Question) -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        let mut work = super::abduce::vars_of(&q.fact, m.vars.len());
        while let Some(v) = work.pop() {
            if out.insert(v) {
                if let Origin::Op { def } = &m.vars[v].origin {
                    work.extend(super::abduce::vars_of(&def.ge(Int::from_i64(0)), m.vars.len()));
                }
            }
        }
        out
    }
}

fn substitute(vars: &[Int], val: &[(usize, i64)]) -> Vec<(Int, Int)> {
    val.iter().map(|(v, x)| (vars[*v].clone(), Int::from_i64(*x))).collect()
}

fn eval_int(e: &Int, vars: &[Int], val: &[(usize, i64)]) -> Option<i64> {
    let pairs = substitute(vars, val);
    let refs: Vec<(&Int, &Int)> = pairs.iter().map(|(a, b)| (a, b)).collect();
    e.substitute(&refs).simplify().as_i64()
}

fn eval_bool(e: &Bool, vars: &[Int], val: &[(usize, i64)]) -> Option<bool> {
    let pairs = substitute(vars, val);
    let refs: Vec<(&Int, &Int)> = pairs.iter().map(|(a, b)| (a, b)).collect();
    e.substitute(&refs).simplify().as_bool()
}

impl Oracle for RunOracle<'_> {
    fn answer(&mut self, m: &Model, known: &Bool, q: &Question) -> Option<(Answer, Evidence)> {
        let vs = self.closure(m, q);
        let vars: Vec<Int> = m.vars.iter().map(|v| v.z3.clone()).collect();
        if self.runs.is_none() {
            let base = self.base_runs();
            self.runs = Some(base);
        }
        let looking_for = match q.kind {
            Kind::Invariant => q.fact.not(),
            Kind::Witness => q.fact.clone(),
        };
        let directed = self.directed_runs(m, known, &looking_for);
        let runs = self.runs.as_ref().expect("made above");
        for o in runs.iter().chain(directed.iter()) {
            let Some(vals) = self.valuations(m, &vs, o) else {
                continue;
            };
            for val in vals {
                let Some(holds) = eval_bool(&q.fact, &vars, &val) else {
                    continue;
                };
                let evidence = || Evidence {
                    inputs: o.run.inputs.clone(),
                    choices: o.run.choices.clone(),
                    fails: o.fails,
                };
                match q.kind {
                    Kind::Invariant if !holds => return Some((Answer::No, evidence())),
                    // The model says such a run fails; believe it only
                    // when the run does.
                    Kind::Witness if holds && o.fails => return Some((Answer::Yes, evidence())),
                    _ => {}
                }
            }
        }
        None
    }
}
