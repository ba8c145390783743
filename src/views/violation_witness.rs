//! A confirmed counterexample as an SV-COMP violation witness (sosy-lab's
//! witness format 2.0, YAML): one `violation_sequence` entry whose segments
//! each follow one waypoint: a `function_return` per nondet value the run
//! draws (`\result == V` at the call's closing parenthesis) and a
//! `branching` per decision of a condition the top FSS holds (at its
//! `if`/`while`/`for` keyword), in the run's order, then the
//! `target` at the `reach_error()` (or, in older tasks, `__VERIFIER_error()`)
//! call the run reaches.
//!
//! Only counterexamples C can make get a witness: no `if (*)`, no inputs
//! read; every `__VERIFIER_nondet_*` value is written as the call's type
//! reads it (the interpreter draws it in that type's range).

use super::witness_entry::{self, location, Meta};
use super::{harness, waypoints};
use crate::analysis::witness::Counterexample;
use crate::interp::Step;
use crate::ir::{float, Cond, NodeKind, Program, SiteId, SiteKind, UnitId};
use crate::syntax::ast::IntType;
use serde_json::{json, Value};
use std::collections::HashSet;

/// The waypoints written for `cx` (`waypoints_of`, `capped`), or why the
/// counterexample has no witness (among the reasons: more than
/// `MAX_WAYPOINTS` of them).
fn returns(p: &Program, cx: &Counterexample, held: &HashSet<UnitId>) -> Result<Vec<Value>, String> {
    let ways = capped(waypoints_of(p, cx, held)?);
    if ways.len() > MAX_WAYPOINTS {
        return Err(format!(
            "its run needs {} waypoints, more than the {MAX_WAYPOINTS} a witness states",
            ways.len()
        ));
    }
    Ok(ways.into_iter().map(|w| w.value).collect())
}

/// One waypoint of a run: the JSON written, and for a `function_return`,
/// the source range its call answers to (`waypoints::nondet_call`: the
/// waypoint is at its end, the call's `)`) and the value drawn; for an
/// `assumption` that gives every uninitialised local it names 0, the
/// offset of its statement.
struct Way {
    value: Value,
    draw: Option<((u32, u32), i64)>,
    zeros: Option<u32>,
}

/// At most this many `function_return` and `assumption` waypoints are
/// written as they are; past it, the draws of 0 and the assumptions of 0
/// a follower fills in by itself are left out (`capped`).
pub const MAX_RETURNS: usize = 1000;

/// At most this many waypoints in a witness (a run of 100,000 calls of a
/// function with an uninitialised local had as many `assumption`s, 43 MB):
/// past it, none, and the reason says so. `MAX_RETURNS` draws and
/// `MAX_BRANCHING` branches fit.
pub const MAX_WAYPOINTS: usize = 2 * MAX_RETURNS + MAX_BRANCHING;

/// The waypoints of a run with more than `MAX_RETURNS` draws, with every
/// draw of 0 left out whose call is not the place of the next waypoint
/// written: a witness says nothing of a draw it has no waypoint for (a
/// validator may choose any value there, the witness's runs are more), and
/// a follower that takes 0 for such draws (`run --witness`, `--fill 0`)
/// still makes the same run: at each draw left out, the pending waypoint
/// is another call's. A 100,000-element array filled with draws, most of
/// them 0, needs a waypoint per draw up to the last non-zero one only.
fn capped(ways: Vec<Way>) -> Vec<Way> {
    if ways.iter().filter(|w| w.draw.is_some() || w.zeros.is_some()).count() <= MAX_RETURNS {
        return ways;
    }
    let mut kept: Vec<Way> = Vec::new();
    // The place of the next waypoint kept, when it is a `function_return`
    // or an `assumption` of zeros (a follower passes either the first
    // time the run is at its place; an assumption of zeros left out is
    // what an uninitialised local takes without one, as a draw of 0).
    let mut next: Option<u32> = None;
    for w in ways.into_iter().rev() {
        match (w.draw, w.zeros) {
            (Some(((lo, hi), 0)), _) if next.is_none_or(|at| at < lo || at > hi) => continue,
            (_, Some(at)) if next != Some(at) => continue,
            (Some(((_, at), _)), _) | (_, Some(at)) => next = Some(at),
            (None, None) => next = None,
        }
        kept.push(w);
    }
    kept.reverse();
    kept
}

/// Every waypoint of the run `cx`, in its order: a `function_return` per
/// draw, a `branching` per decision of a `held` condition (at most
/// `MAX_BRANCHING`), an `assumption` per statement where values of
/// uninitialised locals are due (`witness_assumptions`).
fn waypoints_of(p: &Program, cx: &Counterexample, held: &HashSet<UnitId>) -> Result<Vec<Way>, String> {
    let mut assumed = super::witness_assumptions::due(p, cx)?;
    let mut out = Vec::new();
    let mut branches = 0;
    for (i, step) in cx.run.trace.iter().enumerate() {
        let node = p.node(step.node);
        if let (Some(c), Some(at)) = (assumed.remove(&i), waypoints::statement_start(p, step.node)) {
            let zeros = c.iter().all(|x| x.ends_with(" == 0")).then_some(at);
            out.push(Way {
                zeros,
                value: json!({"waypoint": {
                    "type": "assumption",
                    "action": "follow",
                    "location": location(p, at, &p.proc(node.proc).name),
                    "constraint": {"value": c.join(" && "), "format": "c_expression"},
                }}),
                draw: None,
            });
        }
        match node.kind {
            NodeKind::Branch { cond: Cond::Nondet, .. } => {
                return Err("the path takes an `if (*)`/`while (*)` choice, which is not C".into())
            }
            NodeKind::Branch { .. } if held.contains(&node.unit) && branches < MAX_BRANCHING => {
                if let Some(w) = branching(p, step) {
                    branches += 1;
                    out.push(Way {
                        value: w,
                        draw: None,
                        zeros: None,
                    });
                }
                continue;
            }
            NodeKind::Havoc { .. } => {}
            _ => continue,
        }
        let Some(range) = waypoints::nondet_call(p, step.node) else {
            continue;
        };
        let line = p.source.start(node.span).line;
        let name = waypoints::nondet_name(p, step.node)
            .ok_or_else(|| format!("line {line} calls several nondet functions in one statement"))?;
        let value = step.value.ok_or("a nondet call without its value")?;
        let constraint = match node.kind {
            NodeKind::Havoc { ty, .. } if ty.is_float() => float_result(ty, value),
            _ if harness::is_nondet_integer(name) => format!("\\result == {value}"),
            _ => {
                return Err(format!(
                    "`{name}` at line {line} does not return an integer or floating type"
                ))
            }
        };
        let function = &p.proc(node.proc).name;
        let close = range.1;
        out.push(Way {
            value: json!({"waypoint": {
                "type": "function_return",
                "action": "follow",
                "location": location(p, close, function),
                "constraint": {"value": constraint, "format": "c_expression"},
            }}),
            draw: Some((range, value)),
            zeros: None,
        });
    }
    Ok(out)
}

/// The constraint of a floating value drawn (its bits), C that holds of
/// exactly that value: `\result == V` with the shortest decimal that
/// reads back to it (`0.1f`, `-0.0`, an `f` for a `float`) or `INFINITY`;
/// `\result != \result` for a NaN, which no `==` holds for (a NaN's
/// payload is not said; `run --witness` draws the default NaN).
fn float_result(ty: IntType, bits: i64) -> String {
    match float::c_text(ty, bits) {
        nan if nan == "NAN" => "\\result != \\result".into(),
        text => format!("\\result == {text}"),
    }
}

/// At most this many `branching` waypoints are written (a long loop's
/// passages are left to the values that fix them).
const MAX_BRANCHING: usize = 1000;

/// The `branching` waypoint of a step that decides an `if`/`while`/`for`
/// condition: at its keyword, the value the condition had.
fn branching(p: &Program, step: &Step) -> Option<Value> {
    let node = p.node(step.node);
    let value = *p.cond_exits.get(&(step.node, step.outcome?))?;
    let at = waypoints::condition_keyword(p, node.unit)?;
    Some(json!({"waypoint": {
        "type": "branching",
        "action": "follow",
        "location": location(p, at, &p.proc(node.proc).name),
        "constraint": {"value": value.to_string(), "format": "c_expression"},
    }}))
}

/// The witness of the run `cx` into the error at `site`, as a JSON value
/// of the YAML document, or why there is none.
/// `held`: the condition units whose passages get `branching` waypoints
/// (those of the branches the top FSS holds).
pub fn value(
    p: &Program,
    site: SiteId,
    cx: &Counterexample,
    held: &HashSet<UnitId>,
    meta: &Meta,
) -> Result<Value, String> {
    let s = p.site(site);
    let text = p.text(s.span).trim_start();
    let called = ["reach_error", "__VERIFIER_error"]
        .into_iter()
        .find(|f| text.strip_prefix(f).is_some_and(|r| r.trim_start().starts_with('(')));
    let Some(called) = called.filter(|_| s.kind == SiteKind::ReachError) else {
        return Err(
            "SV-COMP's unreach-call specification names calls of reach_error (or __VERIFIER_error) only".into(),
        );
    };
    let mut segments: Vec<Value> = returns(p, cx, held)?
        .into_iter()
        .map(|w| json!({"segment": [w]}))
        .collect();
    let target = json!({"waypoint": {
        "type": "target",
        "action": "follow",
        "location": location(p, s.span.lo, &p.proc(s.proc).name),
    }});
    segments.push(json!({"segment": [target]}));
    Ok(witness_entry::entry(
        "violation_sequence",
        meta,
        called,
        Value::Array(segments),
    ))
}
