//! A run as an execution trace in the style of ESC/Java (seed 000, Fig. 0):
//! "Executed then branch at lock.c:11:11", "Called getlock at 8:9",
//! "Reached top of loop after 1 iteration at 6:5".

use super::fold::{omitted_text, repeat_text, Docs, Foldable, Folded, Folder, RepeatDoc};
use crate::facts::Analysis;
use crate::interp::{Outcome, Run};
use crate::ir::pointers::{self, pointer_leaves};
use crate::ir::*;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TraceLine {
    pub line: u32,
    pub column: u32,
    /// `branch`, `loop`, `call`, `return`, `assign`, `choice`, `error`,
    /// `stop`; folded: `repeat` (runs of the same steps) and `omitted`.
    pub kind: &'static str,
    pub text: String,
    /// Call depth.
    pub depth: u32,
    /// For `repeat`: the count, the first and last runs, value ranges.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat: Option<RepeatDoc<TraceLine>>,
    /// For `omitted`: how many steps are left out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omitted: Option<u64>,
    /// Which step it is (node and outcome), for folding.
    #[serde(skip)]
    key: u64,
    /// The named values it produces, for folding.
    #[serde(skip)]
    values: Vec<(String, i64)>,
}

impl Foldable for TraceLine {
    fn fold_key(&self) -> u64 {
        self.key
    }
    fn fold_values(&self) -> Vec<(String, i64)> {
        self.values.clone()
    }
}

/// The trace of a run as shown: folded (`fold::Folder`, as the steps are
/// produced), or every step with `full`.
pub fn shown_trace(p: &Program, a: &Analysis, run: &Run, full: bool) -> Vec<TraceLine> {
    if full {
        return trace_lines(p, a, run);
    }
    let mut f = Folder::default();
    each_trace_line(p, a, run, &mut |t| f.push(t));
    trace_docs(f.finish())
}

/// Folded trace lines as documents.
fn trace_docs(xs: Vec<Folded<TraceLine>>) -> Vec<TraceLine> {
    let plain = |l: u32| l.to_string();
    Docs {
        one: &|t| t,
        lines: &|t: &TraceLine| match &t.repeat {
            Some(r) => (r.lines[0], r.lines[1]),
            None => (t.line, t.line),
        },
        repeat: &|r: RepeatDoc<TraceLine>| {
            let head = &r.first[0];
            TraceLine {
                line: head.line,
                column: head.column,
                kind: "repeat",
                text: repeat_text(&r, &plain),
                depth: head.depth,
                repeat: Some(r),
                omitted: None,
                key: 0,
                values: Vec::new(),
            }
        },
        omitted: &|steps, next: Option<&TraceLine>| TraceLine {
            line: next.map_or(0, |n| n.line),
            column: next.map_or(0, |n| n.column),
            kind: "omitted",
            text: omitted_text(steps),
            depth: next.map_or(0, |n| n.depth),
            repeat: None,
            omitted: Some(steps),
            key: 0,
            values: Vec::new(),
        },
    }
    .make(xs)
}

/// A value a fold may range over, unless its place is named through a
/// temporary (`a[$t1]`: no name a reader knows).
fn folded_value(place: String, v: i64) -> Vec<(String, i64)> {
    if place.contains('$') {
        Vec::new()
    } else {
        vec![(place, v)]
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The trace of a run, one line per event a reader cares about.
pub fn trace_lines(p: &Program, a: &Analysis, run: &Run) -> Vec<TraceLine> {
    let mut out = Vec::new();
    each_trace_line(p, a, run, &mut |t| out.push(t));
    out
}

fn key_of(node: NodeId, outcome: Option<bool>) -> u64 {
    (node.0 as u64) << 2 | outcome.map_or(0, |b| 2 + b as u64)
}

/// The trace lines of a run, handed to `out` one at a time.
pub fn each_trace_line(p: &Program, a: &Analysis, run: &Run, out: &mut dyn FnMut(TraceLine)) {
    // Loop visits per (call depth, head), reset when the loop is left.
    let mut visits: HashMap<(u32, NodeId), u32> = HashMap::new();
    let args: HashMap<usize, &Vec<i64>> = run.call_args.iter().map(|(k, a)| (*k, a)).collect();
    let pointers = pointer_leaves(p);
    let offsets: HashMap<VarId, VarId> = pointers.iter().map(|(t, o)| (*o, *t)).collect();
    for (pos, s) in run.trace.iter().enumerate() {
        let node = p.node(s.node);
        let at = p.source.start(node.span);
        let key = key_of(s.node, s.outcome);
        let mut push = |kind: &'static str, text: String, values: Vec<(String, i64)>| {
            out(TraceLine {
                line: at.line,
                column: at.col,
                kind,
                text,
                depth: s.depth,
                repeat: None,
                omitted: None,
                key,
                values,
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
                        Vec::new(),
                    );
                }
            }
            NodeKind::Branch { cond, then_, else_ } => {
                let b = s.outcome.unwrap_or(false);
                let atom = one_line(p.text(node.span));
                // The memory model's split at an access: the case taken
                // says which object; the other cases and checks are not shown.
                if let Some(what) = p.access_outcome(s.node, b) {
                    if !what.is_empty() {
                        push("branch", format!("`{atom}` {what}"), Vec::new());
                    }
                    continue;
                }
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
                push("branch", text, Vec::new());
            }
            NodeKind::Call { callee, .. } => {
                let proc = p.proc(*callee);
                let values: Vec<(String, i64)> = match args.get(&pos) {
                    Some(vals) => proc
                        .params
                        .iter()
                        .zip(vals.iter())
                        // A pointer's tag and offset are not values of the
                        // program (the call's line shows `&a[0]`).
                        .filter(|(v, _)| !pointers.contains_key(v) && !offsets.contains_key(v))
                        .map(|(&v, a)| (p.var(v).name.clone(), *a))
                        .collect(),
                    None => Vec::new(),
                };
                let given = call_args(p, &pointers, proc, args.get(&pos).copied());
                push("call", format!("Called {}({})", proc.name, given.join(", ")), values)
            }
            NodeKind::Return { .. } => {
                let name = &p.proc(node.proc).name;
                // A pointer comes back as its tag, its offset in `ret_leaf(f, ".off")`.
                let off = pos.checked_sub(1).and_then(|i| return_offset(p, &run.trace[i]));
                let v = match (s.value, off) {
                    (Some(tag), Some(off)) => format!(" with {}", p.memory.show(tag, off)),
                    (v, _) => v.map(|v| format!(" with {v}")).unwrap_or_default(),
                };
                let values = s.value.map(|v| (format!("{name}()"), v)).into_iter().collect();
                push("return", format!("Returned from {name}{v}"), values);
            }
            NodeKind::Assign { place, .. } if p.is_model_write(s.node, place.var) => {}
            // A pointer's two leaves, written one after the other: shown
            // once, as C spells the value (`p = &a[1]`).
            NodeKind::Assign { place, .. } if pointers.contains_key(&place.var) => {
                let next = run.trace.get(pos + 1);
                let off = next.and_then(|n| match &p.node(n.node).kind {
                    NodeKind::Assign { place: o, .. } if Some(&o.var) == pointers.get(&place.var) => n.value,
                    _ => None,
                });
                let name = &pointer_place(p, place);
                let text = one_line(p.text(node.span));
                let (Some(tag), Some(off)) = (s.value, off) else {
                    let v = s.value.map(|v| format!(" ({name} = {v})")).unwrap_or_default();
                    push("assign", format!("Executed `{text}`{v}"), Vec::new());
                    continue;
                };
                // No value ranges for a fold: a tag and an offset are not
                // values of the program (its first and last runs show them).
                let shown = p.memory.show(tag, off);
                push("assign", format!("Executed `{text}` ({name} = {shown})"), Vec::new());
            }
            // The offset leaf, shown with its tag just before.
            NodeKind::Assign { place, .. } if shown_with_tag(p, &offsets, run, pos, place.var) => {}
            NodeKind::Assign { place, .. } => {
                let text = one_line(p.text(node.span));
                // A temporary holds part of a statement: its value is the
                // part's (`y - 12` is 11), not a variable's.
                let temp = p.var(place.var).name.starts_with('$');
                // A floating value as C writes it (`0.1`, `NAN`), not its bits.
                let shown = s.value.map(|v| p.value_text(p.var(place.var).ty, v));
                let v = match (shown, temp) {
                    (Some(v), true) => format!(" (= {v})"),
                    (Some(v), false) => format!(" ({} = {v})", place_text(p, &offsets, place)),
                    (None, _) => String::new(),
                };
                let verb = if temp { "Evaluated" } else { "Executed" };
                let values = match (s.value, temp) {
                    (Some(v), false) => folded_value(place_text(p, &offsets, place), v),
                    _ => Vec::new(),
                };
                push("assign", format!("{verb} `{text}`{v}"), values);
            }
            NodeKind::Havoc { place, .. } => {
                let v = s
                    .value
                    .map(|v| p.value_text(p.var(place.var).ty, v))
                    .unwrap_or_default();
                let values = s
                    .value
                    .map(|v| folded_value(place_text(p, &offsets, place), v))
                    .unwrap_or_default();
                push(
                    "choice",
                    format!("Chose {} = {v}", place_text(p, &offsets, place)),
                    values,
                );
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
        out(TraceLine {
            line: at.line,
            column: at.col,
            kind: "error",
            text,
            depth: run.trace.last().map(|s| s.depth).unwrap_or(0),
            repeat: None,
            omitted: None,
            key: key_of(n, None) ^ 1,
            values: Vec::new(),
        });
    }
}

/// A call's arguments as `name = value`, a pointer's two leaves as one
/// (`p = &a[2]`).
fn call_args(p: &Program, pointers: &HashMap<VarId, VarId>, proc: &Proc, vals: Option<&Vec<i64>>) -> Vec<String> {
    let Some(vals) = vals else {
        return Vec::new();
    };
    let params: Vec<(VarId, i64)> = proc.params.iter().copied().zip(vals.iter().copied()).collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < params.len() {
        let (v, tag) = params[i];
        let name = &p.var(v).name;
        match params.get(i + 1) {
            Some(&(o, off)) if pointers.get(&v) == Some(&o) => {
                let shown = p.memory.show(tag, off);
                out.push(format!("{name} = {shown}"));
                i += 2;
            }
            _ => {
                out.push(format!("{name} = {}", p.value_text(p.var(v).ty, tag)));
                i += 1;
            }
        }
    }
    out
}

/// The offset a step stores in `ret_leaf(f, ".off")` of its own procedure `f`,
/// just before `f` returns a pointer's tag.
fn return_offset(p: &Program, s: &crate::interp::Step) -> Option<i64> {
    let node = p.node(s.node);
    let NodeKind::Assign { place, .. } = &node.kind else {
        return None;
    };
    let want = crate::ir::mem::ret_leaf(&p.proc(node.proc).name, ".off");
    (place.index.is_none() && p.var(place.var).name == want)
        .then_some(s.value)
        .flatten()
}

/// A place as the trace names it: an element selected through a pointer
/// (its index reads an offset leaf or a temporary of the memory model) is
/// `a[...]`, like the object the access names.
fn place_text(p: &Program, offsets: &HashMap<VarId, VarId>, place: &Place) -> String {
    let Some((i, _)) = &place.index else {
        return show_place(p, place);
    };
    let mut read = Vec::new();
    expr_vars(i, &mut read);
    if read
        .iter()
        .any(|v| offsets.contains_key(v) || pointers::is_internal(&p.var(*v).name))
    {
        indexed(p, &p.var(place.var).name)
    } else {
        show_place(p, place)
    }
}

/// An element of storage `name` the run selects by an offset: the object
/// as C names it (`a[...].next`, `malloc@11#3->next`), or `name[...]`.
fn indexed(p: &Program, name: &str) -> String {
    p.memory
        .objects
        .iter()
        .find(|o| o.base == name)
        .map_or_else(|| format!("{name}[...]"), |o| o.region())
}

/// A pointer leaf as C names it: `p`; in an array of structs `a[...].next`,
/// in a heap object `malloc@11#3->next`.
fn pointer_place(p: &Program, place: &Place) -> String {
    let name = &p.var(place.var).name;
    if place.index.is_none() {
        return name.clone();
    }
    indexed(p, name)
}

/// Step `pos` writes `off`, the offset leaf of a pointer whose tag the step
/// before wrote (and showed).
fn shown_with_tag(p: &Program, offsets: &HashMap<VarId, VarId>, run: &Run, pos: usize, off: VarId) -> bool {
    let (Some(tag), Some(prev)) = (offsets.get(&off), pos.checked_sub(1).map(|i| &run.trace[i])) else {
        return false;
    };
    matches!(&p.node(prev.node).kind, NodeKind::Assign { place, .. } if place.var == *tag)
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
