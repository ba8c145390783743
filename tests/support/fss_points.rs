//! Runs and FSSs as sequences of points (a node, a branch outcome, a call
//! depth), and whether one embeds in the other: what `fss_properties`
//! compares (its module comment says how FSS events map to trace steps).

use focuscheck::explain::fss::{EvKind, Fss};
use focuscheck::explain::FssReport;
use focuscheck::interp::{Outcome, Run};
use focuscheck::ir::{NodeId, NodeKind, Program};

/// One step of a run as the FSS sees it: a node, a branch outcome, and the
/// call depth (0 in the entry procedure).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Point {
    pub node: NodeId,
    pub outcome: Option<bool>,
    pub depth: u32,
}

impl Point {
    /// Does the FSS point `self` match the trace step `t` (at the same call
    /// depth, if `depth`)?
    pub fn matches(&self, t: &Point, depth: bool) -> bool {
        self.node == t.node
            && (!depth || self.depth == t.depth)
            && (self.outcome.is_none() || self.outcome == t.outcome)
    }
}

/// The trace steps an FSS's events must match, in order; the last one is
/// the error. `Err` says how the sequence is malformed.
pub fn fss_points(f: &Fss) -> Result<Vec<Point>, String> {
    let mut out = Vec::new();
    let mut depth = 0u32;
    let mut prev: Option<EvKind> = None;
    let mut prev_node: Option<NodeId> = None;
    for (i, ev) in f.iter().enumerate() {
        if prev == Some(EvKind::Error) {
            return Err(format!("event {i} follows the error"));
        }
        match ev.kind {
            EvKind::Param(_) => {
                if !matches!(prev, Some(EvKind::Call | EvKind::Param(_))) || prev_node != Some(ev.node) {
                    return Err(format!("event {i}: a parameter not after its call"));
                }
            }
            EvKind::Result => {
                if prev != Some(EvKind::Leave) {
                    return Err(format!("event {i}: a result not after leaving a callee"));
                }
            }
            EvKind::Call => {
                out.push(Point {
                    node: ev.node,
                    outcome: None,
                    depth,
                });
                depth += 1;
            }
            EvKind::Leave => {
                if depth == 0 {
                    return Err(format!("event {i}: leaves the entry procedure"));
                }
                out.push(Point {
                    node: ev.node,
                    outcome: None,
                    depth,
                });
                depth -= 1;
            }
            EvKind::Branch(b) => out.push(Point {
                node: ev.node,
                outcome: Some(b),
                depth,
            }),
            EvKind::Assign | EvKind::Return | EvKind::Error => out.push(Point {
                node: ev.node,
                outcome: None,
                depth,
            }),
        }
        prev = Some(ev.kind);
        prev_node = Some(ev.node);
    }
    if prev != Some(EvKind::Error) {
        return Err("the last event is not the error".to_string());
    }
    Ok(out)
}

/// A run's statement trace, with the node of an error raised inside an
/// expression (which the interpreter does not push) as its last step.
pub fn full_trace(p: &Program, run: &Run) -> Vec<Point> {
    let mut out: Vec<Point> = run
        .trace
        .iter()
        .map(|s| Point {
            node: s.node,
            outcome: s.outcome,
            depth: s.depth,
        })
        .collect();
    if let Outcome::Error { node, .. } = run.outcome {
        if !matches!(p.node(node).kind, NodeKind::Error { .. }) {
            // The depth after the last step: a call enters, an exit leaves.
            let depth = match run.trace.last() {
                None => 0,
                Some(l) => match p.node(l.node).kind {
                    NodeKind::Call { .. } => l.depth + 1,
                    NodeKind::Exit => l.depth.saturating_sub(1),
                    _ => l.depth,
                },
            };
            out.push(Point {
                node,
                outcome: None,
                depth,
            });
        }
    }
    out
}

/// Is the FSS `pts` a subsequence of the trace `trace`, its error (last
/// point) at the trace's last step? With `depth`, every point must match a
/// step at its own call depth.
pub fn embeds(pts: &[Point], trace: &[Point], depth: bool) -> bool {
    let (Some((err, body)), Some((last, rest))) = (pts.split_last(), trace.split_last()) else {
        return false;
    };
    if !err.matches(last, depth) {
        return false;
    }
    let mut it = rest.iter();
    body.iter().all(|p| it.any(|t| p.matches(t, depth)))
}

/// Where the greedy embedding of `pts` into `trace` stops: the first point
/// without a match (the error counts as unmatched unless it is the last
/// step), shown for a failure message.
pub fn mismatch(p: &Program, pts: &[Point], trace: &[Point]) -> String {
    let mut it = trace.iter().enumerate();
    let mut at = 0;
    for (k, pt) in pts.iter().enumerate() {
        let last = k + 1 == pts.len();
        match it.find(|(_, t)| pt.matches(t, true)) {
            Some((j, _)) if !last || j + 1 == trace.len() => at = j + 1,
            _ => {
                return format!(
                    "FSS point {k} ({}) has no match in the trace after step {at}",
                    show_points(p, &[*pt])
                )
            }
        }
    }
    "the FSS embeds".to_string()
}

/// Where a witness's run leaves the path the checker found for it (the
/// path's steps are the nodes the run should execute).
pub fn divergence(p: &Program, path: &[focuscheck::analysis::path::PathStep], trace: &[Point]) -> String {
    let line = |n: NodeId| p.source.start(p.node(n).span).line;
    match path.iter().zip(trace).position(|(s, t)| s.node != t.node) {
        Some(k) => format!(
            "the run leaves the checker's path for it at step {k} (path: node {} on line {}, run: node {} on line {})",
            path[k].node.index(),
            line(path[k].node),
            trace[k].node.index(),
            line(trace[k].node)
        ),
        None if path.len() == trace.len() => "the run follows the checker's path for it".to_string(),
        None => format!("the checker's path has {} steps, the run {}", path.len(), trace.len()),
    }
}

/// An FSS as the user sees it: lines, each with the outcomes of the
/// branch atoms it evaluated (`8TF`: two atoms, true then false).
pub fn show_fss(r: &FssReport) -> String {
    let items: Vec<String> = r
        .entries
        .iter()
        .map(|e| {
            let atoms: String = e.atoms.iter().map(|a| if a.outcome { 'T' } else { 'F' }).collect();
            format!("{}{atoms}", e.line)
        })
        .collect();
    format!("<{}>", items.join(","))
}

/// A trace by lines (branch outcomes as T/F, call depth as `>`): `>8T`.
pub fn show_trace(p: &Program, trace: &[Point]) -> String {
    show(p, trace, false)
}

/// Points with their nodes: `n12:8T@1` is node 12, line 8, true, depth 1.
pub fn show_points(p: &Program, pts: &[Point]) -> String {
    show(p, pts, true)
}

pub fn show(p: &Program, pts: &[Point], nodes: bool) -> String {
    let items: Vec<String> = pts
        .iter()
        .filter(|t| !matches!(p.node(t.node).kind, NodeKind::Skip { .. }))
        .map(|t| {
            let line = p.source.start(p.node(t.node).span).line;
            let o = match t.outcome {
                Some(true) => "T",
                Some(false) => "F",
                None => "",
            };
            if nodes {
                format!("n{}:{line}{o}@{}", t.node.index(), t.depth)
            } else {
                format!("{}{line}{o}", ">".repeat(t.depth as usize))
            }
        })
        .collect();
    format!("<{}>", items.join(","))
}
