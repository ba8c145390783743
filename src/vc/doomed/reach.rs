//! A concrete run to each doomed point. The unfolding's copies are an
//! abstraction (the arbitrary pass havocs what a loop writes), so a point
//! can be doomed in every copy and yet be reached only there: the exit of
//! `while (i < 10) { i++; if (i == 3) break; }` through `i < 10` being
//! false. A point is reported as doomed only when a concrete run of the
//! procedure's view passes it: found on an unrolled unfolding (each path
//! a real prefix of a run, up to havocked deep calls), then replayed in
//! the interpreter, which must pass the point.

use super::evc::Evc;
use super::Options;
use crate::facts::Analysis;
use crate::interp;
use crate::ir::{NodeKind, Program, VarInit};
use crate::vc::gc::{self, Origin};
use crate::vc::passive::{self, PCmd};
use crate::vc::Loops;
use std::collections::BTreeMap;

/// A run of the view that passes a point: its inputs and choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    pub inputs: Vec<(String, i64)>,
    pub choices: Vec<i64>,
}

/// Loop bounds tried, in order, for each point not yet reached.
const UNROLLINGS: [u32; 5] = [1, 2, 4, 8, 16];

/// A concrete run through each of `points` (of the view `q`) that one can
/// be found for.
pub(super) fn witnesses(
    q: &Program,
    points: &[Origin],
    opts: &Options,
    halts: &dyn Fn(&gc::Gc, usize) -> bool,
) -> BTreeMap<Origin, Witness> {
    let q = &run_view(q);
    let a = &Analysis::new(q);
    let mut found = BTreeMap::new();
    for k in UNROLLINGS {
        let open: Vec<Origin> = points.iter().copied().filter(|o| !found.contains_key(o)).collect();
        if open.is_empty() {
            break;
        }
        let g = gc::build(q, a, &[], &[], &super::vc_options(opts, Loops::Unroll(k)));
        if g.too_big {
            break;
        }
        let pv = passive::passify(q, &g);
        let mut evc = Evc::new(q, &g, &pv, opts.timeout, &|b| halts(&g, b));
        for o in open {
            if found.contains_key(&o) {
                continue;
            }
            if o == Origin::Node(q.proc(q.entry).entry) {
                let any = Witness {
                    inputs: Vec::new(),
                    choices: Vec::new(),
                };
                found.insert(o, any);
                continue;
            }
            let blocks: Vec<usize> = (0..g.blocks.len()).filter(|&b| g.blocks[b].origin == o).collect();
            let Some((m, path)) = evc.reach(&blocks) else { continue };
            let value = |x: &z3::ast::Int| m.eval(x, true).and_then(|v| v.as_i64());
            let inputs: Vec<(String, i64)> = (pv.inputs.iter())
                .filter_map(|(s, x)| Some((s.name.clone(), value(x)?)))
                .collect();
            let choices: Vec<i64> = (path.iter())
                .flat_map(|&b| pv.blocks[b].cmds.iter())
                .filter_map(|c| match c {
                    PCmd::Choice(x) => value(x),
                    _ => None,
                })
                .collect();
            let w = Witness { inputs, choices };
            let Some(run) = replay(q, &w) else { continue };
            if passed(q, &run, o) {
                // The run may pass other points too: one witness for all.
                for &x in points {
                    if !found.contains_key(&x) && passed(q, &run, x) {
                        found.insert(x, w.clone());
                    }
                }
            }
        }
    }
    found
}

/// Does the interpreter's run of the view on `w` pass point `o`? (Choices
/// and inputs the witness does not fix are drawn from a fixed seed.)
pub fn passes(q: &Program, w: &Witness, o: Origin) -> bool {
    replay(q, w).is_some_and(|run| passed(q, &run, o))
}

/// The interpreter's run of the view on `w`.
fn replay(q: &Program, w: &Witness) -> Option<interp::Run> {
    let cfg = interp::Config {
        inputs: w.inputs.iter().cloned().collect(),
        choices: w.choices.clone(),
        seed: Some(0),
        fill: None,
        max_steps: 1_000_000,
        conditions: Vec::new(),
        watch: None,
    };
    interp::run(q, &cfg).ok()
}

/// Does `run` pass point `o`?
fn passed(q: &Program, run: &interp::Run, o: Origin) -> bool {
    // The node a run fails at is passed too (its step is not recorded).
    let failed_at = match run.outcome {
        interp::Outcome::Error { node, .. } | interp::Outcome::Overflow { node, .. } => Some(node),
        _ => None,
    };
    match o {
        // Every run starts at the entry.
        Origin::Node(n) if n == q.proc(q.entry).entry => true,
        Origin::Node(n) => failed_at == Some(n) || run.trace.iter().any(|s| s.node == n),
        Origin::Edge(n, outcome) => {
            let branch = matches!(q.node(n).kind, NodeKind::Branch { .. });
            branch && run.trace.iter().any(|s| s.node == n && s.outcome == Some(outcome))
        }
        Origin::None | Origin::LoopCut(_) => false,
    }
}

/// The view a witness runs on (`q`, from `super::view`): the elements of
/// global arrays are inputs too (the view leaves them any values without an
/// input per element, which the unfolding does not need and a concrete run
/// does), and no case of a split is cut (`ir::narrow`).
pub fn run_view(q: &Program) -> Program {
    let mut q = q.clone();
    // Arrays that start as inputs: not the runs the narrowing saw.
    crate::ir::narrow::restore(&mut q);
    for v in q.vars.iter_mut() {
        if v.len.is_some() && v.init == VarInit::Assigned && v.is_global_storage() {
            v.init = VarInit::Input;
        }
    }
    q
}
