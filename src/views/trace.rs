//! A run as an execution trace in the style of ESC/Java (seed 000, Fig. 0):
//! "Executed then branch at lock.c:11:11", "Called getlock at 8:9",
//! "Reached top of loop after 1 iteration at 6:5".

use crate::facts::Analysis;
use crate::interp::{Outcome, Run};
use crate::ir::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TraceLine {
    pub line: u32,
    pub column: u32,
    /// `branch`, `loop`, `call`, `return`, `assign`, `choice`, `error`, `stop`.
    pub kind: &'static str,
    pub text: String,
    /// Call depth.
    pub depth: u32,
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The trace of a run, one line per event a reader cares about.
pub fn trace_lines(p: &Program, a: &Analysis, run: &Run) -> Vec<TraceLine> {
    let mut out = Vec::new();
    // Loop visits per (call depth, head), reset when the loop is left.
    let mut visits: HashMap<(u32, NodeId), u32> = HashMap::new();
    let args: HashMap<usize, &Vec<i64>> = run.call_args.iter().map(|(k, a)| (*k, a)).collect();
    for (pos, s) in run.trace.iter().enumerate() {
        let node = p.node(s.node);
        let at = p.source.start(node.span);
        let mut push = |kind: &'static str, text: String| {
            out.push(TraceLine {
                line: at.line,
                column: at.col,
                kind,
                text,
                depth: s.depth,
            })
        };
        match &node.kind {
            NodeKind::Skip { .. } => {
                if a.loop_at.contains_key(&s.node) {
                    let n = visits.entry((s.depth, s.node)).or_insert(0);
                    let iters = *n;
                    *n += 1;
                    push(
                        "loop",
                        format!(
                            "Reached top of loop after {iters} iteration{}",
                            if iters == 1 { "" } else { "s" }
                        ),
                    );
                }
            }
            NodeKind::Branch { cond, then_, else_ } => {
                let b = s.outcome.unwrap_or(false);
                let atom = one_line(p.text(node.span));
                let text = match (cond, loop_test(a, s.node, *then_, *else_)) {
                    (Cond::Nondet, _) => format!("Chose the {} branch of `*`", if b { "then" } else { "else" }),
                    (_, Some(inside)) if inside == b => format!("Entered the loop body: `{atom}` is {b}"),
                    (_, Some(_)) => {
                        visits.retain(|(d, _), _| *d != s.depth);
                        format!("Left the loop: `{atom}` is {b}")
                    }
                    (_, None) if p.unit(node.unit).kind == UnitKind::Cond => {
                        format!("Executed {} branch: `{atom}` is {b}", if b { "then" } else { "else" })
                    }
                    _ => format!("`{atom}` is {b}"),
                };
                push("branch", text);
            }
            NodeKind::Call { callee, .. } => {
                let proc = p.proc(*callee);
                let given: Vec<String> = match args.get(&pos) {
                    Some(vals) => proc
                        .params
                        .iter()
                        .zip(vals.iter())
                        .map(|(&v, a)| format!("{} = {a}", p.var(v).name))
                        .collect(),
                    None => Vec::new(),
                };
                push("call", format!("Called {}({})", proc.name, given.join(", ")))
            }
            NodeKind::Return { .. } => {
                let v = s.value.map(|v| format!(" with {v}")).unwrap_or_default();
                push("return", format!("Returned from {}{v}", p.proc(node.proc).name));
            }
            NodeKind::Assign { place, .. } => {
                let text = one_line(p.text(node.span));
                // A temporary holds part of a statement: its value is the
                // part's (`y - 12` is 11), not a variable's.
                let temp = p.var(place.var).name.starts_with('$');
                let v = match (s.value, temp) {
                    (Some(v), true) => format!(" (= {v})"),
                    (Some(v), false) => format!(" ({} = {v})", show_place(p, place)),
                    (None, _) => String::new(),
                };
                let verb = if temp { "Evaluated" } else { "Executed" };
                push("assign", format!("{verb} `{text}`{v}"));
            }
            NodeKind::Havoc { place, .. } => {
                let v = s.value.map(|v| v.to_string()).unwrap_or_default();
                push("choice", format!("Chose {} = {v}", show_place(p, place)));
            }
            NodeKind::Exit | NodeKind::Error { .. } | NodeKind::Halt => {}
        }
    }
    let end = match &run.outcome {
        Outcome::Error { site, node, index } => {
            Some((*node, format!("Error: {}", super::describe_error(p, *site, *index))))
        }
        Outcome::Condition { node, .. } => Some((*node, "Error: the condition holds here".to_string())),
        _ => None,
    };
    if let Some((n, text)) = end {
        let at = p.source.start(p.node(n).span);
        out.push(TraceLine {
            line: at.line,
            column: at.col,
            kind: "error",
            text,
            depth: run.trace.last().map(|s| s.depth).unwrap_or(0),
        });
    }
    out
}

/// For a loop's exit test: which outcome stays in the loop.
fn loop_test(a: &Analysis, b: NodeId, then_: NodeId, else_: NodeId) -> Option<bool> {
    let l = a
        .loops
        .iter()
        .filter(|l| l.body.contains(&b))
        .min_by_key(|l| l.body.len())?;
    match (l.body.contains(&then_), l.body.contains(&else_)) {
        (true, false) => Some(true),
        (false, true) => Some(false),
        _ => None,
    }
}
