//! Folded sequences (`fold.rs`) as text lines: each repetition as its
//! header (lines, count, value ranges), its first run, how many runs are
//! not shown, and its last run; call depth as indentation.

use super::fold::{self, Folded};
use super::json::Statement;
use super::text::{entry_line, LineNames};
use super::trace::TraceLine;
use std::fmt::Write;

/// Folded entries as listing lines, `indent` deep: each repetition as a
/// header, its first run, how many runs are not shown, its last run.
pub fn entry_listing(names: &dyn LineNames, xs: &[Folded<Statement>], indent: &str, top: u32, out: &mut String) {
    for x in xs {
        match x {
            Folded::One(s) => {
                let _ = writeln!(out, "{indent}{}", entry_line(names, s.0, top));
            }
            Folded::Repeat(r) => {
                let (lo, hi) = fold::line_span(&r.first, &|s: &Statement| s.0.line);
                let doc = fold::RepeatDoc::<()> {
                    count: r.count,
                    steps: r.steps,
                    lines: [lo, hi],
                    first: Vec::new(),
                    last: Vec::new(),
                    ranges: r.ranges.clone(),
                };
                let _ = writeln!(
                    out,
                    "{indent}{} (first and last shown):",
                    fold::repeat_text(&doc, &|l| names.label(l))
                );
                let inner = format!("{indent}  ");
                let run_top = |run: &[Folded<Statement>]| match run.first() {
                    Some(Folded::One(s)) => s.0.depth,
                    _ => top,
                };
                entry_listing(names, &r.first, &inner, run_top(&r.first), out);
                let _ = writeln!(out, "{inner}{}", hidden_runs(r.count));
                entry_listing(names, &r.last, &inner, run_top(&r.last), out);
            }
            Folded::Omitted { steps } => {
                let _ = writeln!(out, "{indent}({})", fold::omitted_text(*steps));
            }
        }
    }
}

/// Two spaces per call level below `top` (a run's first call depth; a
/// deep recursion is not indented past 16 levels).
pub fn depth_indent(depth: u32, top: u32) -> String {
    "  ".repeat(depth.saturating_sub(top).min(8) as usize)
}

/// `... 4094 more runs like these ...`
fn hidden_runs(count: u64) -> String {
    let n = count.saturating_sub(2);
    format!("... {n} more run{} ...", if n == 1 { "" } else { "s" })
}

/// Trace lines, `base` deep; a repetition as a header, its first run, how
/// many runs are not shown, its last run.
pub fn trace_listing(names: &dyn LineNames, lines: &[TraceLine], base: &str, top: u32, out: &mut String) {
    for t in lines {
        let indent = depth_indent(t.depth, top);
        if let Some(r) = &t.repeat {
            let text = fold::repeat_text(r, &|l| names.label(l));
            let _ = writeln!(out, "{base}{indent}{text} (first and last shown):");
            let inner = format!("{base}  ");
            let run_top = |run: &[TraceLine]| run.first().map_or(t.depth, |x| x.depth);
            trace_listing(names, &r.first, &format!("{inner}{indent}"), run_top(&r.first), out);
            let _ = writeln!(out, "{inner}{indent}{}", hidden_runs(r.count));
            trace_listing(names, &r.last, &format!("{inner}{indent}"), run_top(&r.last), out);
            continue;
        }
        if t.omitted.is_some() {
            let _ = writeln!(out, "{base}{indent}({})", t.text);
            continue;
        }
        let text = names.text(t.line, &t.text);
        if names.shown(t.line) {
            let (file, line) = names.place(t.line);
            let _ = writeln!(out, "{base}{indent}{file}:{line}:{}: {text}", t.column);
        } else if matches!(t.kind, "call" | "branch" | "error") {
            // The harness of `diff`: which version runs, and the comparison.
            let _ = writeln!(out, "{base}{indent}{text}");
        }
    }
}
