//! The text report of `check`: per condition its verdict, then one of three
//! views (DESIGN §1), each ending with the command that opens the next level
//! down:
//! - reduced: the FSSs Reduce keeps, each with its NEST (where the fix
//!   belongs) and the assumptions that remain;
//! - fss: every feasible FSS, ranked, with its assumption set;
//! - full: a complete counterexample per FSS, with concrete inputs.

use super::trace::trace_lines;
use crate::analysis::Verdict;
use crate::check::Report;
use crate::explain::assume::Assumption;
use crate::explain::entries::{Entry, EntryKind};
use crate::explain::{Explanation, FssReport};
use crate::facts::Analysis;
use crate::ir::Program;
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum View {
    /// The FSSs Reduce keeps, with their NESTs.
    Reduced,
    /// Every feasible FSS, ranked, with its assumptions.
    Fss,
    /// A complete counterexample trace per FSS, with concrete inputs.
    Full,
}

pub struct TextOptions<'a> {
    pub color: bool,
    pub stats: bool,
    pub view: View,
    /// Show only this FSS (1-based rank).
    pub fss: Option<usize>,
    /// Show only assumptions over these inputs (`--project`).
    pub project: Option<Vec<String>>,
    /// The command that shows `view` (and FSS `n`) of this file.
    pub next: &'a dyn Fn(View, Option<usize>) -> String,
}

fn paint(color: bool, code: &str, s: &str) -> String {
    if color {
        format!("\x1b[{code}m{s}\x1b[0m")
    } else {
        s.to_string()
    }
}

pub fn verdict_word(color: bool, v: Verdict) -> String {
    match v {
        Verdict::Safe => paint(color, "1;32", "safe"),
        Verdict::Unsafe => paint(color, "1;31", "unsafe"),
        Verdict::Unknown => paint(color, "1;33", "unknown"),
    }
}

/// Assumptions shown under `--project` (all when not projecting).
pub fn projected<'a>(a: &'a [Assumption], names: &[String], project: &Option<Vec<String>>) -> Vec<&'a Assumption> {
    match project {
        None => a.iter().collect(),
        Some(keep) => a
            .iter()
            .filter(|x| {
                let _ = names;
                keep.iter().any(|k| mentions(&x.text, k))
            })
            .collect(),
    }
}

/// Does the assumption text name input `k` (as a whole word)?
fn mentions(text: &str, k: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '[' || c == ']' || c == '@'))
        .any(|w| w == k || w.split('@').next() == Some(k))
}

fn assumptions_line(p: &Program, a: &[&Assumption]) -> String {
    if a.is_empty() {
        return "none".to_string();
    }
    a.iter()
        .map(|x| {
            let at = p.source.start(p.node(x.primary().node).span);
            format!("{} ({}:{})", x.text, at.line, at.col)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// One FSS entry as a line: `line: text` with outcomes, the paper's way.
fn entry_line(e: &Entry) -> String {
    let indent = "  ".repeat(e.depth as usize);
    let body = match e.kind {
        EntryKind::Branch => {
            let atoms: Vec<String> = e.atoms.iter().map(|a| format!("{}: {}", a.text, a.outcome)).collect();
            if e.atoms.len() == 1 {
                atoms[0].clone()
            } else {
                format!("{} [{}]", e.text, atoms.join(", "))
            }
        }
        EntryKind::Error => {
            if e.atoms.is_empty() {
                format!("{}   <- error", e.text)
            } else {
                let atoms: Vec<String> = e.atoms.iter().map(|a| format!("{}: {}", a.text, a.outcome)).collect();
                format!("{} [{}]   <- error", e.text, atoms.join(", "))
            }
        }
        _ => {
            if e.atoms.is_empty() {
                e.text.clone()
            } else {
                let atoms: Vec<String> = e.atoms.iter().map(|a| format!("{}: {}", a.text, a.outcome)).collect();
                format!("{} [{}]", e.text, atoms.join(", "))
            }
        }
    };
    format!("{indent}{:>4}: {body}", e.line)
}

fn fss_lines(f: &FssReport) -> String {
    let lines: Vec<String> = f.entries.iter().map(|e| e.line.to_string()).collect();
    format!("<{}>", lines.join(","))
}

/// The whole report for one file.
pub fn report(p: &Program, r: &Report, o: &TextOptions) -> String {
    let a = Analysis::new(p);
    let mut out = String::new();
    let count = |v: Verdict| r.results.iter().filter(|x| x.verdict == v).count();
    let _ = writeln!(
        out,
        "{}: {} condition{}: {} unsafe, {} unknown, {} safe ({} states, {:.2}s)",
        p.source.name,
        r.results.len(),
        if r.results.len() == 1 { "" } else { "s" },
        count(Verdict::Unsafe),
        count(Verdict::Unknown),
        count(Verdict::Safe),
        r.states,
        r.total_time.as_secs_f64()
    );
    let names: Vec<String> = p.input_slots().into_iter().map(|s| s.name).collect();
    for res in &r.results {
        let c = r.condition(res);
        if res.verdict == Verdict::Safe {
            let _ = writeln!(out, "  {}: {}", verdict_word(o.color, res.verdict), c.describe(p));
            continue;
        }
        let ex = r.explanations.get(&res.id);
        let n_fss = ex.map(|e| e.fss.len()).unwrap_or(0);
        let n_red = ex.map(|e| e.reduced.len()).unwrap_or(0);
        let _ = writeln!(
            out,
            "\n{}: {} ({n_fss} FSS{}, {n_red} after Reduce)",
            verdict_word(o.color, res.verdict),
            c.describe(p),
            if n_fss == 1 { "" } else { "s" }
        );
        if let Some(site) = c.site() {
            let _ = writeln!(out, "  --> {}", p.location(p.site(site).span));
        }
        if res.verdict == Verdict::Unknown {
            let _ = writeln!(out, "  why: {}", res.reason);
        }
        if ex.is_some_and(|e| e.truncated) {
            let _ = writeln!(
                out,
                "  note: the FSS listing is incomplete (a time or size limit of the explanation was reached)"
            );
        }
        match (o.view, ex) {
            (View::Reduced, Some(ex)) if !ex.fss.is_empty() => reduced_view(p, ex, o, &names, &mut out),
            (View::Fss, Some(ex)) if !ex.fss.is_empty() => fss_view(p, ex, o, &names, &mut out),
            (View::Full, Some(ex)) if ex.fss.iter().any(|f| f.witness.is_some()) => full_view(p, &a, ex, o, &mut out),
            _ => {
                // No FSS to show: the counterexample found while deciding.
                if let Some(cx) = &res.counterexample {
                    trace_block(p, &a, cx, &mut out);
                }
            }
        }
    }
    if o.stats {
        let _ = writeln!(
            out,
            "\nstats: {} states, {} forward summaries, {} backward summaries, {} FSS candidates ({} infeasible), exploration {:.3}s, total {:.3}s",
            r.states,
            r.summaries,
            r.explain.summaries,
            r.explain.candidates,
            r.explain.infeasible,
            r.explore_time.as_secs_f64(),
            r.total_time.as_secs_f64()
        );
        out.push_str("forward rules:\n");
        out.push_str(&r.stats);
        out.push_str("\nbackward rules:\n");
        out.push_str(&r.explain.rules);
        out.push('\n');
    }
    out
}

fn selected(ex: &Explanation, o: &TextOptions) -> Vec<usize> {
    match o.fss {
        Some(n) if n >= 1 && n <= ex.fss.len() => vec![n - 1],
        _ => (0..ex.fss.len()).collect(),
    }
}

fn reduced_view(p: &Program, ex: &Explanation, o: &TextOptions, names: &[String], out: &mut String) {
    for red in &ex.reduced {
        let f = &ex.fss[red.index];
        let shown = projected(&red.assumptions, names, &o.project);
        let _ = writeln!(
            out,
            "  reduced FSS (rank {}) {}: assumptions left: {}",
            red.index + 1,
            fss_lines(f),
            assumptions_line(p, &shown)
        );
        let whole = red.nest.len() == f.entries.len();
        let lines: Vec<String> = red.nest.iter().map(|&i| f.entries[i].line.to_string()).collect();
        let where_ = match red.at {
            Some(at) if !whole => format!(
                "in the block of the conditional at line {} (it depends on inputs the assumptions leave open)",
                f.entries[at].line
            ),
            _ => "the whole FSS (the error could not be narrowed down)".to_string(),
        };
        let _ = writeln!(out, "  NEST <{}>: {where_}", lines.join(","));
        let mut previous = None;
        for &i in &red.nest {
            let e = &f.entries[i];
            // One source line once, where consecutive entries share it.
            if previous == Some(e.line) {
                continue;
            }
            previous = Some(e.line);
            let src = p.source.line_text(e.line).trim_end();
            let _ = writeln!(out, "    {:>4} | {src}", e.line);
        }
    }
    let _ = writeln!(out, "  next: {}", (o.next)(View::Fss, None));
}

fn fss_view(p: &Program, ex: &Explanation, o: &TextOptions, names: &[String], out: &mut String) {
    for i in selected(ex, o) {
        let f = &ex.fss[i];
        let shown = projected(&f.assumptions, names, &o.project);
        let _ = writeln!(
            out,
            "  FSS {} of {} {}: assumptions: {}",
            i + 1,
            ex.fss.len(),
            fss_lines(f),
            assumptions_line(p, &shown)
        );
        for e in &f.entries {
            let _ = writeln!(out, "    {}", entry_line(e));
        }
    }
    if ex.infeasible > 0 {
        let _ = writeln!(
            out,
            "  ({} infeasible FSS{} dropped)",
            ex.infeasible,
            if ex.infeasible == 1 { "" } else { "s" }
        );
    }
    let n = o.fss.unwrap_or(1);
    let _ = writeln!(out, "  next: {}", (o.next)(View::Full, Some(n)));
}

fn full_view(p: &Program, a: &Analysis, ex: &Explanation, o: &TextOptions, out: &mut String) {
    for i in selected(ex, o) {
        let f = &ex.fss[i];
        let _ = writeln!(
            out,
            "  counterexample for FSS {} of {} {}:",
            i + 1,
            ex.fss.len(),
            fss_lines(f)
        );
        match &f.witness {
            Some(cx) => trace_block(p, a, cx, out),
            None => {
                let _ = writeln!(
                    out,
                    "    (no replayable path with this FSS was found within the search budget)"
                );
            }
        }
    }
    let _ = writeln!(out, "  back up: {}", (o.next)(View::Reduced, None));
}

fn trace_block(p: &Program, a: &Analysis, cx: &crate::analysis::witness::Counterexample, out: &mut String) {
    let inputs: Vec<String> = cx.inputs.iter().map(|(k, v)| format!("{k} = {v}")).collect();
    if !inputs.is_empty() {
        let _ = writeln!(out, "    inputs: {}", inputs.join(", "));
    }
    if !cx.choices.is_empty() {
        let ch: Vec<String> = cx.choices.iter().map(|v| v.to_string()).collect();
        let _ = writeln!(out, "    choices: {}", ch.join(","));
    }
    let _ = writeln!(out, "    trace:");
    for t in trace_lines(p, a, &cx.run) {
        let _ = writeln!(
            out,
            "      {}{}:{}:{}: {}",
            "  ".repeat(t.depth as usize),
            p.source.name,
            t.line,
            t.column,
            t.text
        );
    }
}
