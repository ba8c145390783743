//! The explored graph of one concrete run: the forward transfer functions
//! (`analysis::step`, `analysis::calls`) applied along a confirmed
//! counterexample's interpreter run, keeping at each state only the
//! successor the run took. Inputs stay symbols (so focus conditionals give
//! assumptions over inputs), loops are never widened (the run is finite),
//! and every choice the run made fixes the transition: the graph is the
//! run's path, whatever engine found the run (the VC engine's model, a
//! Datalog counterexample whose explanation found no FSS). The backward
//! rules over it give the run's own focus statements (DESIGN §6).
//!
//! Which successor the run took: the node it executed next (or, at its last
//! step, the error it reached), the branch outcome it recorded, and the
//! constraints of the step's other decisions (which array element an index
//! named, ...) evaluated on the run's values. Those come from an exact
//! execution of the path so far (`analysis::path::Exec`, one symbol per
//! draw) whose symbols take the run's inputs and choices.

use crate::analysis::calls::literals;
use crate::analysis::explore::{Exploration, Graph, Return, State, Step};
use crate::analysis::frames::Frames;
use crate::analysis::path::{Choice, Exec, PathStep};
use crate::analysis::run::{Run, Stop};
use crate::analysis::state::{Decision, LabelId};
use crate::analysis::step::{Explorer, Options, Target};
use crate::analysis::value::{Constraint, Sym};
use crate::analysis::widen::LoopFacts;
use crate::analysis::witness::Counterexample;
use crate::context::conditions::CondId;
use crate::context::Context;
use crate::interp;
use crate::ir::{NodeId, NodeKind};
use std::collections::{HashMap, HashSet};

/// Runs longer than this (in executed nodes) are not followed: the graph
/// holds one state per step (a 400,000-step run over a 100,000-element
/// array takes 1.7 GB and 10 s to explain).
pub const MAX_RUN_STEPS: usize = 500_000;

/// Nor runs whose statements times the values of a state exceed this.
pub const MAX_RUN_WORK: u64 = 100_000_000_000;

/// The graph of one run, and what the walk found.
pub struct RunGraph {
    pub exploration: Exploration,
    /// The run's path: each node with the decisions its transition recorded.
    pub path: Vec<PathStep>,
    /// Some state of the graph was reached twice (the same valuation at the
    /// same point, e.g. a loop that changes nothing but a draw): the graph
    /// then has cycles, and paths other than the run's.
    pub repeats: bool,
}

/// Values of the exact execution's symbols in the run.
struct Model<'r> {
    run: &'r interp::Run,
    vals: HashMap<Sym, i64>,
    choices_seen: usize,
    alphas_seen: usize,
}

impl Model<'_> {
    /// Takes in the draws and abstraction symbols `x` made since the last
    /// call: a draw takes the run's choice at its position, an operation's
    /// symbol the operation's value (when the values below it are known).
    fn sync(&mut self, x: &Exec) {
        while self.choices_seen < x.choices.len() {
            if let (Choice::Draw(s, _), Some(v)) =
                (&x.choices[self.choices_seen], self.run.choices.get(self.choices_seen))
            {
                self.vals.insert(*s, *v);
            }
            self.choices_seen += 1;
        }
        while self.alphas_seen < x.alphas.len() {
            let (s, def) = &x.alphas[self.alphas_seen];
            let mut missing = false;
            let v = def.eval(&mut |t| {
                self.value(t).unwrap_or_else(|| {
                    missing = true;
                    0
                })
            });
            if let (Some(v), false) = (v, missing) {
                self.vals.insert(*s, v);
            }
            self.alphas_seen += 1;
        }
    }

    fn value(&self, s: Sym) -> Option<i64> {
        self.vals.get(&s).copied()
    }

    /// Whether `c` holds in the run (`None`: it reads a value the run does
    /// not tell, e.g. a conversion's quotient).
    fn holds(&self, c: &Constraint) -> Option<bool> {
        let mut missing = false;
        let r = c.holds(&mut |t| {
            self.value(t).unwrap_or_else(|| {
                missing = true;
                0
            })
        });
        if missing {
            None
        } else {
            r
        }
    }
}

/// What the run does after a step: go on to a node, or end at condition k.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Want {
    Node(NodeId),
    Error(CondId),
}

/// A successor of the current state, as the graph records it.
enum Edge {
    Step(Step),
    Error(LabelId),
    Enter(LabelId, State),
    /// A callee's exit back to its call's state.
    Return(State, Return),
    ReturnError(State, Return, LabelId),
}

/// The nodes the run executed, with the one whose evaluation failed at the
/// end (the interpreter does not record a step that stopped at a run-time
/// check inside an expression).
pub(crate) fn run_nodes(cx: &Context, run: &interp::Run) -> Vec<NodeId> {
    let mut nodes: Vec<NodeId> = run.trace.iter().map(|s| s.node).collect();
    if let interp::Outcome::Error { node, .. } = run.outcome {
        let recorded = matches!(cx.p.node(node).kind, NodeKind::Error { .. }) && nodes.last() == Some(&node);
        if !recorded {
            nodes.push(node);
        }
    }
    nodes
}

/// Why a walk stopped at the deadline.
pub const TIME_LIMIT: &str = "the time limit (--timeout) was reached while following the run";

/// The graph of the run of `cx_run`, which ends at condition `k`; `Err`
/// says why the run could not be followed. Past `deadline` (checked every
/// 1024 steps) the walk stops.
pub fn run_graph(
    cx: &Context,
    opts: &Options,
    cx_run: &Counterexample,
    k: CondId,
    deadline: Option<std::time::Instant>,
) -> Result<RunGraph, String> {
    let run = &cx_run.run;
    if !run.outcome.is_error() {
        return Err("the run does not end at an error".into());
    }
    let nodes = run_nodes(cx, run);
    if nodes.len() > MAX_RUN_STEPS {
        return Err(format!(
            "the run executes {} statements, more than the {MAX_RUN_STEPS} followed to explain it",
            nodes.len()
        ));
    }
    // Each step's state costs time with the number of values it holds
    // (an array of 100,000 elements filled in a loop: about 45 us a step).
    let slots = cx.layout.global_slots as u64 + cx.layout.frame_slots.iter().copied().max().unwrap_or(0) as u64;
    if (nodes.len() as u64).saturating_mul(slots.max(1)) > MAX_RUN_WORK {
        return Err(format!(
            "the run executes {} statements over states of {slots} values, too many to follow",
            nodes.len()
        ));
    }
    let opts = Options {
        // The run is finite: nothing is widened (recursion neither).
        exact_loops: true,
        unroll: u32::MAX / 4,
        max_states: u64::MAX,
        stop_at_error: false,
        narrow: false,
        timeout: None,
        memory: None,
        ..opts.clone()
    };
    let frames = Frames::new(cx);
    let loops = LoopFacts::new(cx.p, cx.a);
    let lits = literals(cx.p);
    let stop = Stop::default();
    let state_run = Run::new(opts.max_states, &stop);
    let explorer = Explorer {
        cx,
        frames: &frames,
        loops: &loops,
        literals: &lits,
        opts: &opts,
        run: &state_run,
    };
    let walked = walk(&explorer, cx, run, &nodes, k, deadline);
    let (graph, path, repeats) = walked?;
    Ok(RunGraph {
        exploration: Exploration {
            graph,
            t: state_run.into_tables(),
            frames,
            budget_hit: None,
            narrowed: false,
        },
        path,
        repeats,
    })
}

fn walk(
    ex: &Explorer,
    cx: &Context,
    run: &interp::Run,
    nodes: &[NodeId],
    k: CondId,
    deadline: Option<std::time::Instant>,
) -> Result<(Graph, Vec<PathStep>, bool), String> {
    let p = cx.p;
    let mut g = Graph::default();
    let mut state = ex.initial();
    g.init = Some(state);
    let mut exec = Exec::new(p, &cx.layout);
    let mut model = Model {
        run,
        vals: HashMap::new(),
        choices_seen: 0,
        alphas_seen: 0,
    };
    for (i, v) in run.input_values(p) {
        model.vals.insert(Sym::Input(i as u32), v);
    }
    // Calls the run is inside: the call's state and label, the callee.
    let mut stack: Vec<(State, LabelId, crate::analysis::state::CtxId)> = Vec::new();
    let mut seen: HashSet<State> = HashSet::new();
    let mut repeats = false;
    let mut path = Vec::with_capacity(nodes.len());
    let at = |n: NodeId| p.location(p.node(n).span);
    for (i, &n) in nodes.iter().enumerate() {
        if i % 1024 == 0 && deadline.is_some_and(|d| std::time::Instant::now() > d) {
            return Err(TIME_LIMIT.into());
        }
        repeats |= !seen.insert(state);
        let (c, sn, v) = state;
        if sn != n {
            return Err(format!(
                "the explored graph is at {} where the run is at {}",
                at(sn),
                at(n)
            ));
        }
        let want = match nodes.get(i + 1) {
            Some(&m) => Want::Node(m),
            None => Want::Error(k),
        };
        let outcome = run.trace.get(i).and_then(|s| s.outcome);
        let mut edges: Vec<(Vec<Decision>, Edge, Option<State>)> = Vec::new();
        let label = |l: LabelId| ex.run.t.label(l).0.clone();
        match &p.node(n).kind {
            NodeKind::Exit if !stack.is_empty() => {
                let &(cs, cl, callee) = stack.last().expect("inside a call");
                let outs = ex.returns(cs.0, cs.1, cs.2, cl, v);
                let to = outs.iter().find_map(|(_, t)| match t {
                    Target::Node(m, w) => Some((cs.0, *m, *w)),
                    Target::Error(_) => None,
                });
                for (l2, t) in outs {
                    let ret = |to: State| Return {
                        call_label: cl,
                        callee,
                        exit: v,
                        to,
                    };
                    match (t, to) {
                        (Target::Node(m, w), _) => {
                            edges.push((label(l2), Edge::Return(cs, ret((cs.0, m, w))), Some((cs.0, m, w))))
                        }
                        (Target::Error(k2), Some(to)) if k2 == k => {
                            edges.push((label(l2), Edge::ReturnError(cs, ret(to), l2), None))
                        }
                        _ => {}
                    }
                }
            }
            NodeKind::Call { .. } => {
                for (l, c2) in ex.calls(c, n, v) {
                    let (en, start) = ex.start_of(c2);
                    edges.push((label(l), Edge::Enter(l, (c2, en, start)), Some((c2, en, start))));
                }
                for (l, t) in ex.transitions(c, n, v) {
                    if let Target::Error(k2) = t {
                        if k2 == k {
                            edges.push((label(l), Edge::Error(l), None));
                        }
                    }
                }
            }
            _ => {
                for (l, t) in ex.transitions(c, n, v) {
                    match t {
                        Target::Node(m, w) => edges.push((
                            label(l),
                            Edge::Step(Step {
                                label: l,
                                to: (c, m, w),
                            }),
                            Some((c, m, w)),
                        )),
                        Target::Error(k2) if k2 == k => edges.push((label(l), Edge::Error(l), None)),
                        Target::Error(_) => {}
                    }
                }
            }
        }
        let mut taken = None;
        for (ds, edge, to) in edges {
            let fits = match (want, to) {
                (Want::Node(m), Some(s)) => s.1 == m,
                (Want::Error(_), None) => true,
                _ => false,
            };
            if !fits {
                continue;
            }
            if let (Some(b), Some(Decision::Branch(d))) = (outcome, ds.last()) {
                if matches!(p.node(n).kind, NodeKind::Branch { .. }) && b != *d {
                    continue;
                }
            }
            let step = PathStep { node: n, decisions: ds };
            let mut x = exec.clone();
            let before = x.constraints.len();
            if x.step(&step, cx.conds).is_err() {
                continue;
            }
            model.sync(&x);
            if (before..x.constraints.len()).any(|j| model.holds(&x.constraints[j].c) == Some(false)) {
                continue;
            }
            taken = Some((step, edge, to, x));
            break;
        }
        let Some((step, edge, to, x)) = taken else {
            return Err(format!(
                "no transition of the explored graph follows the run at {}",
                at(n)
            ));
        };
        exec = x;
        path.push(step);
        match edge {
            Edge::Step(st) => g.steps.entry(state).or_default().push(st),
            Edge::Error(l) => g.errors.entry(k).or_default().push((state, l)),
            Edge::Enter(l, entry) => {
                g.calls.entry(state).or_default().push((l, entry.0));
                g.callers.entry(entry.0).or_default().push((state, l));
                stack.push((state, l, entry.0));
            }
            Edge::Return(call, r) => {
                stack.pop();
                g.fsum.entry(r.callee).or_default().push(r.exit);
                g.returns.entry(call).or_default().push(r);
            }
            Edge::ReturnError(call, r, l2) => {
                stack.pop();
                g.fsum.entry(r.callee).or_default().push(r.exit);
                // The return itself too, as the forward rules give it.
                g.returns.entry(call).or_default().push(r);
                g.return_errors.entry(k).or_default().push((call, r, l2));
            }
        }
        match to {
            Some(s) => state = s,
            None => {
                if i + 1 != nodes.len() {
                    return Err(format!("the run goes on after its error at {}", at(n)));
                }
            }
        }
    }
    if g.errors.is_empty() && g.return_errors.is_empty() {
        return Err("the run's last step is not an error of the explored graph".into());
    }
    g.states = seen.len();
    tidy(&mut g);
    Ok((g, path, repeats))
}

/// Sorted and without duplicates, as `explore` leaves its graph (a state
/// the run reached twice adds its edges twice).
fn tidy(g: &mut Graph) {
    for v in g.steps.values_mut() {
        v.sort_by_key(|s| (s.label, s.to));
        v.dedup();
    }
    for v in g.errors.values_mut() {
        v.sort();
        v.dedup();
    }
    for v in g.calls.values_mut() {
        v.sort();
        v.dedup();
    }
    for v in g.returns.values_mut() {
        v.sort_by_key(|r| (r.call_label, r.callee, r.exit, r.to));
        v.dedup();
    }
    for v in g.return_errors.values_mut() {
        v.sort_by_key(|(s, r, l)| (*s, r.call_label, r.callee, r.exit, r.to, *l));
        v.dedup();
    }
    for v in g.fsum.values_mut() {
        v.sort();
        v.dedup();
    }
    for v in g.callers.values_mut() {
        v.sort();
        v.dedup();
    }
}
