//! Explaining a confirmed run too long to follow symbolically
//! (`run_graph`): its FSS from a slice of the run's record (`slice.rs`),
//! the decisions of its statements (which element an index named, ...)
//! from the values the run saw there, then executed alone for its
//! assumptions, checked against the run, ranked and reduced as any FSS.

use super::assume::{self, SymNames};
use super::fss::{EvKind, Event, Fss};
use super::slice::{slice, SliceEvent};
use super::{entries, ExplainLimits, Explanation, FssReport};
use crate::analysis::explore::Explored;
use crate::analysis::frames::Frames;
use crate::analysis::path::{PathError, PathStep};
use crate::analysis::state::{Decision, Label, LabelId, Tables};
use crate::analysis::step::Options;
use crate::analysis::witness::Counterexample;
use crate::context::conditions::CondId;
use crate::context::Context;
use crate::interp::access::SiteSeen;
use crate::interp::{self, Config};
use crate::ir::cond::UserCond;
use crate::ir::*;
use std::collections::{HashMap, HashSet};

/// The decision the analysis records for a checked operation the run
/// evaluated with these operands.
fn decision(site: SiteId, seen: SiteSeen) -> Decision {
    match seen {
        SiteSeen::Index(i, len) => Decision::Index(site, i.clamp(-1, len)),
        SiteSeen::Div(d) => Decision::DivZero(site, d == 0),
        SiteSeen::Checked(v, ty) => {
            let (lo, hi) = ty.range();
            Decision::Overflow(site, if v < lo { -1 } else { (v > hi) as i8 })
        }
        SiteSeen::Bit { op, ty, a, b, strict } => {
            let top = ty.bits() as i64 - 1;
            let a = ty.convert(a as i128);
            let kind = if b < 0 {
                -1
            } else if b > top {
                1
            } else if strict && ty.is_signed() && op == BitOp::Shl && a < 0 {
                2
            } else if strict && ty.is_signed() && op == BitOp::Shl && (a << b) > ty.c_range().1 {
                3
            } else {
                0
            };
            Decision::Overflow(site, kind)
        }
        SiteSeen::FloatToInt(defined) => Decision::Overflow(site, (!defined) as i8),
    }
}

/// The FSS of the sliced events, with each statement's decisions.
fn fss_of(
    p: &Program,
    nodes: &[NodeId],
    events: &[SliceEvent],
    sites: &HashMap<usize, Vec<(SiteId, SiteSeen)>>,
    t: &Tables,
) -> Fss {
    let empty = LabelId(t.labels.borrow_mut().intern(Label(Vec::new())));
    let seen = |step: usize| -> Vec<Decision> {
        sites
            .get(&step)
            .into_iter()
            .flatten()
            .map(|&(s, v)| decision(s, v))
            .collect()
    };
    // A call's decisions include its result's place, evaluated at its exit.
    let mut exit_of: HashMap<usize, usize> = HashMap::new();
    let mut open = Vec::new();
    for &(step, kind) in events {
        match kind {
            EvKind::Call => open.push(step),
            EvKind::Leave => {
                if let Some(c) = open.pop() {
                    exit_of.insert(c, step);
                }
            }
            _ => {}
        }
    }
    let mut labels: HashMap<(usize, EvKind), LabelId> = HashMap::new();
    let mut label = |step: usize, kind: EvKind| -> LabelId {
        let key = match kind {
            EvKind::Param(_) | EvKind::Result => (step, EvKind::Call),
            _ => (step, kind),
        };
        *labels.entry(key).or_insert_with(|| {
            let mut ds = seen(step);
            match kind {
                EvKind::Branch(b) => ds.push(Decision::Branch(b)),
                EvKind::Call | EvKind::Param(_) | EvKind::Result => {
                    ds.extend(exit_of.get(&step).map(|&x| seen(x)).into_iter().flatten())
                }
                _ => {}
            }
            LabelId(t.labels.borrow_mut().intern(Label(ds)))
        })
    };
    events
        .iter()
        .map(|&(step, kind)| Event {
            node: if kind == EvKind::Leave {
                p.proc(p.node(nodes[step]).proc).exit
            } else {
                nodes[step]
            },
            kind,
            label: if kind == EvKind::Leave {
                empty
            } else {
                label(step, kind)
            },
        })
        .collect()
}

/// Explains condition `k` from the run of `run` by slicing it; `Err` says
/// why it could not.
#[allow(clippy::too_many_arguments)]
pub fn explain_slice(
    cx: &Context,
    opts: &Options,
    users: &[UserCond],
    k: CondId,
    run: &Counterexample,
    limits: ExplainLimits,
    localise_at: &dyn Fn(u32) -> bool,
    counterpart: Option<&dyn Fn(&str) -> String>,
) -> Result<Explanation, String> {
    let p = cx.p;
    let cfg = Config {
        inputs: run.run.inputs.iter().cloned().collect(),
        choices: run.run.choices.clone(),
        conditions: users.to_vec(),
        max_steps: run.run.trace.len() as u64 + 2,
        ..Config::default()
    };
    let operand = |n: NodeId, site: SiteId| super::backward::site_operand(&p.node(n).kind, site).cloned();
    let replay = |sites_of: HashSet<usize>, accesses: bool| {
        let (r, acc) = interp::run_recorded(p, &cfg, accesses, sites_of, &operand)
            .map_err(|e| format!("the run does not replay: {e:?}"))?;
        if r.outcome != run.run.outcome || r.trace.len() != run.run.trace.len() {
            return Err("the run does not replay the same way".to_string());
        }
        Ok((r, acc))
    };
    let (r, acc) = replay(HashSet::new(), true)?;
    let nodes = super::run_graph::run_nodes(cx, &r);
    let outcomes: Vec<Option<bool>> = r.trace.iter().map(|s| s.outcome).collect();
    // Each stage is as long as the run: none starts past the deadline.
    let late = || match limits.deadline {
        Some(d) if std::time::Instant::now() > d => Err(super::run_graph::TIME_LIMIT.to_string()),
        _ => Ok(()),
    };
    let events = slice(cx, &nodes, &outcomes, &acc, k, limits.deadline)?;
    drop(acc);
    late()?;
    let (_, sites) = replay(events.iter().map(|e| e.0).collect(), false)?;
    late()?;
    let t = Tables::default();
    let fss = fss_of(p, &nodes, &events, &sites.sites, &t);
    let frames = Frames::new(cx);
    let engine = Explored {
        cx,
        frames: &frames,
        t: &t,
        summaries: opts.summaries,
        narrowed: false,
    };
    let mut ex = Explanation {
        of_run: true,
        sliced: true,
        ..Explanation::default()
    };
    // Feasible: the run has this FSS (its assumptions over inputs are
    // checked against the run's below), so no solver is asked.
    let constraints = assume::fss_constraints_until(engine, &fss, limits.deadline);
    late()?;
    let fr = match constraints {
        Ok(fr) => fr,
        Err(PathError::Infeasible) => {
            return Err("the FSS of the run's slice executes to a contradiction (a checker bug)".into())
        }
        // Its statements do not execute alone: no assumptions.
        Err(PathError::Malformed(_)) => {
            ex.undecided += 1;
            assume::FssRun::default()
        }
    };
    late()?;
    let names = SymNames::new(p).for_run(&fr);
    let raw = names.canonical_raw(fr.raw);
    let report = FssReport {
        entries: entries::entries(p, &fss),
        assumptions: assume::merge(p, &names, &raw),
        raw,
        fss: fss.clone(),
        witness: Some(run.clone()),
    };
    let path: Vec<PathStep> = fss
        .iter()
        .map(|ev| PathStep {
            node: ev.node,
            decisions: t.label(ev.label).0.clone(),
        })
        .collect();
    if let Err(why) = super::fits_run(cx, &path, run, &report) {
        return Err(format!("the FSS of the run's slice does not fit it ({why})"));
    }
    ex.fss.push(report);
    late()?;
    super::reduce_all(engine, &mut ex, localise_at, counterpart);
    Ok(ex)
}
