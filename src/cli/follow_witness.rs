//! `run --witness W`: reads a violation witness (format 2.0, by any tool)
//! into the waypoints the interpreter follows (`interp::follow`), and says
//! whether the run it makes confirms the witness.

use crate::interp::follow::{Follow, Progress, Segment, Want, Waypoint};
use crate::interp::{Outcome, Run};
use crate::ir::{float, NodeKind, Program, SiteKind};
use crate::syntax::ast::IntType;
use crate::syntax::source::LineCol;
use crate::syntax::yaml::{self, Yaml};
use crate::views::waypoints;
use std::path::Path;

/// A witness read against a program.
pub struct Loaded {
    pub follow: Follow,
    /// The target waypoint's line and column in the program.
    pub target: LineCol,
    /// Each waypoint's line in the witness file, by its index.
    pub lines: Vec<u32>,
}

/// `W:line: what` of a malformed witness.
fn at(file: &Path, line: u32, what: impl std::fmt::Display) -> String {
    format!("{}:{line}: {what}", file.display())
}

fn key<'y>(file: &Path, y: &'y Yaml, k: &str) -> Result<&'y Yaml, String> {
    y.get(k).ok_or_else(|| at(file, y.line, format!("missing `{k}`")))
}

fn text<'y>(file: &Path, y: &'y Yaml, k: &str) -> Result<&'y str, String> {
    let v = key(file, y, k)?;
    v.as_str()
        .ok_or_else(|| at(file, v.line, format!("`{k}` is not a scalar")))
}

fn seq<'y>(file: &Path, y: &'y Yaml, k: &str) -> Result<&'y [Yaml], String> {
    let v = key(file, y, k)?;
    v.as_seq()
        .ok_or_else(|| at(file, v.line, format!("`{k}` is not a sequence")))
}

/// `s` trimmed, without one pair of parentheses around it.
pub(super) fn unparen(s: &str) -> &str {
    let s = s.trim();
    s.strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or(s)
        .trim()
}

/// An integer literal as C writes it: sign, hex or decimal, suffixes.
pub(super) fn c_integer(s: &str) -> Option<i64> {
    let s = unparen(s);
    let (neg, digits) = match s.strip_prefix('-') {
        Some(r) => (true, r.trim_start()),
        None => (false, s),
    };
    let digits = digits.trim_end_matches(['u', 'U', 'l', 'L']);
    let v = match digits.strip_prefix("0x").or_else(|| digits.strip_prefix("0X")) {
        Some(h) => i128::from_str_radix(h, 16).ok()?,
        None => digits.parse::<i128>().ok()?,
    };
    i64::try_from(if neg { -v } else { v }).ok()
}

/// `V` of a constraint `\result == V` (either side, parenthesised or not),
/// as a draw of `ty` holds it: an integer, or for a floating call the bits
/// of the constant rounded once to `ty` (`0.1f`, `0.1`, `1e-3`, `-0.0`,
/// `INFINITY`; an integer constant converted as C converts it); `\result
/// != \result`, of a floating call, the default NaN.
fn result_value(c: &str, ty: Option<IntType>) -> Option<i64> {
    let c = unparen(c);
    if c.split_once("!=")
        .is_some_and(|(l, r)| (l.trim(), r.trim()) == ("\\result", "\\result"))
    {
        // Holds of a NaN only.
        return ty.filter(|t| t.is_float()).map(float::default_nan);
    }
    let (l, r) = c.split_once("==")?;
    let v = match (l.trim(), r.trim()) {
        ("\\result", v) | (v, "\\result") => v,
        _ => return None,
    };
    match ty.filter(|t| t.is_float()) {
        Some(t) => float_constant(t, v),
        None => c_integer(v),
    }
}

/// The bits of a C floating (or integer) constant `v` read as a value of
/// the floating type `ty`.
pub(super) fn float_constant(ty: IntType, v: &str) -> Option<i64> {
    let v = unparen(v);
    let (neg, mag) = match v.strip_prefix('-') {
        Some(r) => ("-", r.trim_start()),
        None => ("", v.strip_prefix('+').unwrap_or(v)),
    };
    let word = match c_integer(mag) {
        Some(n) => format!("{neg}{n}.0"),
        None if mag.eq_ignore_ascii_case("INFINITY") || mag.eq_ignore_ascii_case("HUGE_VAL") => format!("{neg}inf"),
        None => format!("{neg}{}", mag.trim_end_matches(['f', 'F', 'l', 'L'])),
    };
    let suffix = if ty == IntType::Float { "f" } else { "" };
    float::parse_value_word(&format!("{word}{suffix}"))
}

/// The type of the nondet call whose draw a waypoint at `off` answers.
fn draw_type(p: &Program, off: u32) -> Option<IntType> {
    p.node_ids().find_map(|n| match p.node(n).kind {
        NodeKind::Havoc { ty, .. } => waypoints::nondet_call(p, n)
            .filter(|&(lo, hi)| lo <= off && off <= hi)
            .map(|_| ty),
        _ => None,
    })
}

/// The offset in `p` of a waypoint's `location`.
fn place(file: &Path, p: &Program, loc: &Yaml) -> Result<(u32, LineCol), String> {
    let name = text(file, loc, "file_name")?;
    let base = |s: &str| Path::new(s).file_name().map(|f| f.to_os_string());
    if base(name) != base(&p.source.name) {
        return Err(at(
            file,
            loc.line,
            format!("a waypoint in `{name}`, not in the program run"),
        ));
    }
    let number = |k: &str| -> Result<u32, String> {
        let v = text(file, loc, k)?;
        v.parse()
            .map_err(|_| at(file, loc.line, format!("`{k}: {v}` is not a number")))
    };
    let lc = LineCol {
        line: number("line")?,
        col: match loc.get("column") {
            Some(_) => number("column")?,
            None => 1,
        },
    };
    let off = (lc.line <= p.source.line_count())
        .then(|| p.source.offset(lc))
        .flatten()
        .ok_or_else(|| at(file, loc.line, format!("line {} is not in the program", lc.line)))?;
    Ok((off, lc))
}

/// One waypoint: what it wants where; `None` for the target.
fn waypoint(file: &Path, p: &Program, w: &Yaml, index: usize) -> Result<(Option<Waypoint>, LineCol, bool), String> {
    let kind = text(file, w, "type")?;
    let follow = match text(file, w, "action")? {
        "follow" => true,
        "avoid" => false,
        a => return Err(at(file, w.line, format!("action `{a}` (follow or avoid)"))),
    };
    let (off, lc) = place(file, p, key(file, w, "location")?)?;
    let constraint = || -> Result<&str, String> { text(file, key(file, w, "constraint")?, "value") };
    let want = match kind {
        "target" => return Ok((None, lc, follow)),
        "function_return" => {
            let c = constraint()?;
            Want::Value(
                result_value(c, draw_type(p, off))
                    .ok_or_else(|| at(file, w.line, format!("constraint `{c}`: only `\\result == V` is read (and `\\result != \\result` of a floating call)")))?,
            )
        }
        "assumption" => {
            let c = constraint()?;
            let function = key(file, w, "location")?.get("function").and_then(Yaml::as_str);
            Want::Assume(super::follow_assumption::read(p, function, off, c).ok_or_else(|| {
                at(
                    file,
                    w.line,
                    format!("assumption `{c}`: only `x == V` conjunctions over variables in scope are read"),
                )
            })?)
        }
        "branching" => match constraint()? {
            "true" => Want::Branch(true),
            "false" => Want::Branch(false),
            c => return Err(at(file, w.line, format!("branching constraint `{c}` (true or false)"))),
        },
        t => {
            return Err(at(
                file,
                w.line,
                format!("waypoint type `{t}` is not followed by this replay"),
            ))
        }
    };
    let w = Waypoint { at: off, want, index };
    Ok((Some(w), lc, follow))
}

/// Reads the witness `file` against `p`; the draws no waypoint answers
/// take `fill`.
pub fn load(p: &Program, file: &Path, fill: i64) -> Result<Loaded, String> {
    let src = std::fs::read_to_string(file).map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
    let doc = yaml::parse(&src).map_err(|(line, e)| at(file, line, e))?;
    let entries = doc
        .as_seq()
        .ok_or_else(|| at(file, doc.line, "not a sequence of entries"))?;
    let entry = (entries.iter())
        .find(|e| e.get("entry_type").and_then(Yaml::as_str) == Some("violation_sequence"))
        .ok_or_else(|| at(file, doc.line, "no `violation_sequence` entry"))?;
    let mut follow = Follow {
        fill,
        ..Follow::default()
    };
    let mut lines = Vec::new();
    let mut target = None;
    for seg in seq(file, entry, "content")? {
        if target.is_some() {
            return Err(at(file, seg.line, "a segment after the target"));
        }
        let mut avoid = Vec::new();
        let mut follows = None;
        let items = seq(file, seg, "segment")?;
        for (k, item) in items.iter().enumerate() {
            let w = key(file, item, "waypoint")?;
            lines.push(w.line);
            let (want, lc, is_follow) = waypoint(file, p, w, lines.len() - 1)?;
            if is_follow != (k + 1 == items.len()) {
                return Err(at(
                    file,
                    w.line,
                    "a segment is avoid waypoints and then one follow waypoint",
                ));
            }
            match (want, is_follow) {
                (None, true) => target = Some(lc),
                (None, false) => return Err(at(file, w.line, "an avoided target")),
                (Some(x), true) => follows = Some(x),
                (Some(x), false) => avoid.push(x),
            }
        }
        if let Some(w) = &follows {
            if let Want::Assume(named) = &w.want {
                super::follow_assumption::inputs(p, named, &mut follow.inputs);
            }
        }
        if let Some(follow_w) = follows {
            follow.segments.push(Segment {
                avoid,
                follow: follow_w,
            });
        }
    }
    let target = target.ok_or_else(|| at(file, entry.line, "no `target` waypoint"))?;
    super::follow_assumption::places(p, &mut follow);
    for n in p.node_ids() {
        if let Some(range) = waypoints::nondet_call(p, n) {
            follow.draws.insert(n, range);
        }
        if matches!(p.node(n).kind, NodeKind::Branch { .. }) {
            let u = p.node(n).unit;
            if let Some(k) = waypoints::condition_keyword(p, u) {
                follow.conditions.insert(u, k);
            }
        }
    }
    Ok(Loaded { follow, target, lines })
}

/// The verdict on a followed run, and the exit code: 1 confirmed (the
/// error is reached), 3 rejected or not confirmed.
pub fn verdict(p: &Program, w: &Path, loaded: &Loaded, run: &Run, progress: &Progress) -> (String, i32) {
    if let Some((i, node)) = progress.rejected {
        let wline = loaded.lines.get(i).copied().unwrap_or(0);
        let said = format!(
            "witness: rejected: at {} the run goes against the waypoint at {}:{wline}",
            p.location(p.node(node).span),
            w.display()
        );
        return (said, super::EXIT_UNKNOWN);
    }
    let total = loaded.follow.segments.len();
    let at_target = match &run.outcome {
        Outcome::Error { site, .. } => {
            let s = p.site(*site);
            s.kind == SiteKind::ReachError
                && p.source.resolve(s.span).0 == 0
                && p.source.start(s.span).line == loaded.target.line
        }
        _ => false,
    };
    let target = format!("{}:{}:{}", p.source.name, loaded.target.line, loaded.target.col);
    if at_target && progress.passed == total {
        let said =
            format!("witness: confirmed: {total} waypoints followed, the error is called at the target {target}");
        return (said, super::EXIT_ERROR_FOUND);
    }
    let end = if at_target {
        "reaches the target"
    } else {
        "does not reach the target"
    };
    (
        format!(
            "witness: not confirmed: the run follows {} of {total} waypoints and {end} {target}",
            progress.passed
        ),
        super::EXIT_UNKNOWN,
    )
}
