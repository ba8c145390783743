//! The text report of `check`: per condition its verdict, then one of three
//! views (DESIGN §1), each ending with the command that opens the next level
//! down:
//! - reduced: the FSSs Reduce keeps, each with its NEST (where the fix
//!   belongs) and the assumptions that remain;
//! - fss: every feasible FSS, ranked, with its assumption set;
//! - full: a complete counterexample per FSS, with concrete inputs.

use super::fold::{self, Folded};
use super::json::Statement;
use super::listing::{depth_indent, entry_listing, trace_listing};
use super::snippet::{bounded, snippet, SNIPPET_LINES};
use super::trace::shown_trace;
use super::wrap::{shortened, wrap_long_lines, DESCRIBE_CHARS, LINE_CHARS};
use crate::analysis::witness::Counterexample;
use crate::analysis::{CondReport, Verdict};
use crate::check::Report;
use crate::explain::assume::Assumption;
use crate::explain::entries::{Entry, EntryKind};
use crate::explain::{Explanation, FssReport};
use crate::facts::Analysis;
use crate::ir::Program;
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// The FSSs Reduce keeps, with their NESTs.
    Reduced,
    /// Every feasible FSS, ranked, with its assumptions.
    Fss,
    /// A complete counterexample trace per FSS, with concrete inputs.
    Full,
}

/// How lines are named: plain numbers for one file; in `diff`, the new
/// version's numbers and `ref:N` for the reference's.
pub trait LineNames {
    /// A line as shown in sequences and listings.
    fn label(&self, line: u32) -> String;
    /// The file a line belongs to and its number there.
    fn place(&self, line: u32) -> (String, u32);
    /// A text of the program at `line` with the names the user wrote (in
    /// `diff`, without the product's renaming).
    fn text(&self, _line: u32, s: &str) -> String {
        s.to_string()
    }
    /// Is the line the user's (in `diff`, not the harness that runs the two
    /// versions)? Lines that are not are left out of sequences and traces.
    fn shown(&self, _line: u32) -> bool {
        true
    }
}

/// One file: lines are lines.
pub struct PlainLines<'a>(pub &'a Program);

impl LineNames for PlainLines<'_> {
    fn label(&self, line: u32) -> String {
        line.to_string()
    }

    fn place(&self, line: u32) -> (String, u32) {
        (self.0.source.name.clone(), line)
    }
}

pub struct TextOptions<'a> {
    pub lines: &'a dyn LineNames,
    pub color: bool,
    pub stats: bool,
    pub view: View,
    /// Show only this FSS (1-based rank).
    pub fss: Option<usize>,
    /// Show only assumptions over these inputs (`--project`).
    pub project: Option<Vec<String>>,
    /// The command that shows `view` (and FSS `n`) of this file.
    pub next: &'a dyn Fn(View, Option<usize>) -> String,
    /// A `diff` product: NESTs mark where the new version leaves the
    /// reference's path.
    pub diff: bool,
    /// The `focuscheck run` commands that replay a counterexample (one per
    /// version in `diff`), each with a label.
    pub replay: &'a dyn Fn(&Counterexample) -> Vec<String>,
    /// Every step of traces and FSSs (`--full-trace`); else repetitions
    /// are folded.
    pub full_trace: bool,
    /// Every FSS in the fss and full views (`--all-fss`); else the first
    /// `json::FSS_LISTED`.
    pub all_fss: bool,
    /// List the safe conditions (`--verbose`); else only their count.
    pub verbose: bool,
}

/// No replay commands (a caller without a file to name).
pub fn no_replay(_: &Counterexample) -> Vec<String> {
    Vec::new()
}

/// A word for a POSIX shell: quoted unless it is plain.
pub fn shell_word(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=,".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

pub use super::replay::{
    choices_line, drawn_choices_line, fill_tail, replay_command, replay_counterexample, replay_words, run_words,
    SEEDED_CHOICES,
};

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
pub fn projected<'a>(a: &'a [Assumption], project: &Option<Vec<String>>) -> Vec<&'a Assumption> {
    match project {
        None => a.iter().collect(),
        Some(keep) => a.iter().filter(|x| keep.iter().any(|k| mentions(&x.text, k))).collect(),
    }
}

/// Does the assumption text name input `k` (as a whole word)?
fn mentions(text: &str, k: &str) -> bool {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '[' || c == ']' || c == '@'))
        .any(|w| w == k || w.split('@').next() == Some(k))
}

fn assumptions_line(p: &Program, names: &dyn LineNames, a: &[&Assumption]) -> String {
    if a.is_empty() {
        return "none".to_string();
    }
    let items: Vec<super::assumptions::Item> = a
        .iter()
        .map(|x| {
            let at = p.source.start(p.node(x.primary().node).span);
            super::assumptions::Item {
                text: names.text(at.line, &x.text),
                line: at.line,
                column: at.col,
            }
        })
        .collect();
    super::assumptions::folded(&items)
        .iter()
        .map(|x| format!("{} ({}:{})", x.text, names.label(x.line), x.column))
        .collect::<Vec<_>>()
        .join(", ")
}

/// One FSS entry as a line: `line: text` with outcomes, the paper's way.
pub fn entry_line(names: &dyn LineNames, e: &Entry, top: u32) -> String {
    let indent = depth_indent(e.depth, top);
    let body = entry_body(e);
    format!("{indent}{:>4}: {}", names.label(e.line), names.text(e.line, &body))
}

fn entry_body(e: &Entry) -> String {
    let atoms: Vec<String> = e
        .atoms
        .iter()
        .filter_map(|a| match a.access {
            Some(_) => a.label(),
            None => a.label().map(|l| format!("{}: {l}", a.text)),
        })
        .collect();
    match e.kind {
        EntryKind::Branch if atoms.len() == 1 => atoms[0].clone(),
        EntryKind::Branch if atoms.is_empty() => e.atoms.first().map_or(e.text.clone(), |a| a.text.clone()),
        EntryKind::Error if atoms.is_empty() => format!("{}   <- error", e.text),
        EntryKind::Error => format!("{} [{}]   <- error", e.text, atoms.join(", ")),
        _ if atoms.is_empty() => e.text.clone(),
        _ => format!("{} [{}]", e.text, atoms.join(", ")),
    }
}

/// Entries folded for display (or not, with `--full-trace`).
fn folded<'f>(entries: impl IntoIterator<Item = &'f Entry>, full: bool) -> Vec<Folded<Statement<'f>>> {
    let entries = entries.into_iter().map(Statement);
    if full {
        fold::unfolded(entries)
    } else {
        fold::fold(entries)
    }
}

/// `<3,(14,15)×4096,17>`: the lines of entries, repetitions folded.
fn lines_seq<'f>(names: &dyn LineNames, entries: impl IntoIterator<Item = &'f Entry>, full: bool) -> Vec<String> {
    fold::compact(&folded(entries, full), &|s: &Statement| names.label(s.0.line))
}

fn fss_lines(names: &dyn LineNames, f: &FssReport, full: bool) -> String {
    format!("<{}>", lines_seq(names, shown_entries(names, f), full).join(","))
}

/// The entries of an FSS on the user's lines.
fn shown_entries<'f>(names: &'f dyn LineNames, f: &'f FssReport) -> impl Iterator<Item = &'f Entry> + 'f {
    f.entries.iter().filter(|e| names.shown(e.line))
}

/// A long FSS shortened to its ends (the FSS view shows all of it).
fn fss_lines_short(names: &dyn LineNames, f: &FssReport, full: bool) -> String {
    const HEAD: usize = 10;
    const TAIL: usize = 5;
    let items = lines_seq(names, shown_entries(names, f), full);
    let n = items.len();
    if n <= HEAD + TAIL + 5 {
        return format!("<{}>", items.join(","));
    }
    let statements = shown_entries(names, f).count();
    format!(
        "<{},...,{}> ({statements} statements)",
        items[..HEAD].join(","),
        items[n - TAIL..].join(",")
    )
}

/// `a, b, c, ..., z` for a long list.
fn abbreviate(items: &[String]) -> String {
    if items.len() <= 8 {
        items.join(", ")
    } else {
        format!("{}, ..., {}", items[..6].join(", "), items[items.len() - 1])
    }
}

/// Reduced FSSs the reduced view shows unless `--fss` picks one.
const REDUCED_SHOWN: usize = 3;

/// `file:line:col` of a span as the report shows it: in a header the file
/// includes, the header's; else through `o.lines` (`None`: not shown).
fn place_of(p: &Program, o: &TextOptions, span: crate::syntax::source::Span) -> Option<String> {
    let at = p.source.start(span);
    if p.source.name_of(span) != p.source.name {
        return Some(p.source.location(span));
    }
    if !o.lines.shown(at.line) {
        return None;
    }
    let (file, line) = o.lines.place(at.line);
    Some(format!("{file}:{line}:{}", at.col))
}

/// The file's first line (its counts) and a note on the heap pool it was
/// decided with, when `check` grew it.
fn header(p: &Program, r: &Report) -> String {
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
    match (r.heap_instances, r.pools_tried.last()) {
        (Some(n), _) => {
            let _ = writeln!(
                out,
                "note: decided with --heap-instances {n}: at the default {}, an allocating call runs more times \
                 than it has objects",
                crate::ir::lower::HEAP_INSTANCES
            );
        }
        (None, Some(n)) => {
            let _ = writeln!(
                out,
                "note: checked again with --heap-instances {n}: it decided no more (a call may allocate more \
                 objects than that)"
            );
        }
        (None, None) => {}
    }
    out
}

/// `--stats`: the counts and times of the check, and the rules' own.
fn stats(r: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\nstats: {} states, {} forward summaries, {} backward summaries, {} backward steps, {} FSS candidates ({} infeasible), exploration {:.3}s, total {:.3}s",
        r.states,
        r.summaries,
        r.explain.summaries,
        r.explain.steps,
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
    out
}

/// The whole report for one file.
pub fn report(p: &Program, r: &Report, o: &TextOptions) -> String {
    let a = &r.analysis;
    let mut out = header(p, r);
    let count = |v: Verdict| r.results.iter().filter(|x| x.verdict == v).count();
    if r.results.is_empty() {
        out.push_str(&no_condition(p));
    }
    // Bugs first: unsafe conditions, then unknown ones, then the safe ones
    // (each group in source order).
    let mut order: Vec<&CondReport> = r.results.iter().collect();
    order.sort_by_key(|res| match res.verdict {
        Verdict::Unsafe => 0,
        Verdict::Unknown => 1,
        Verdict::Safe => 2,
    });
    let mut safe_lines: Vec<(String, usize)> = Vec::new();
    for res in order {
        let c = r.condition(res);
        let site_line = c.site().map(|s| p.source.start(p.site(s).span).line);
        let describe = match site_line {
            Some(l) => o.lines.text(l, &c.describe(p)),
            None => c.describe(p),
        };
        let describe = shortened(&describe, DESCRIBE_CHARS);
        if res.verdict == Verdict::Safe {
            if !o.verbose {
                continue;
            }
            // Where: the site, or where a user condition's variable is declared.
            let at = match (c.site(), c.user().and_then(|u| u.vars.first())) {
                (Some(site), _) => Some(("", p.site(site).span)),
                (None, Some(&v)) => Some(("declared at ", p.var(v).span)),
                _ => None,
            };
            let at = at
                .and_then(|(what, span)| Some(format!(" ({what}{})", place_of(p, o, span)?)))
                .unwrap_or_default();
            let mut line = format!("  {}: {describe}{at}\n", verdict_word(o.color, res.verdict));
            if res.from_a_run() {
                let _ = writeln!(line, "    engine: {}: {}", res.engine, res.reason);
            }
            // Identical lines are folded into one with a count.
            match safe_lines.iter_mut().find(|(l, _)| *l == line) {
                Some((_, n)) => *n += 1,
                None => safe_lines.push((line, 1)),
            }
            continue;
        }
        let ex = r.explanations.get(&res.id);
        // Without explanations (`--no-explain`) there are no FSSs to count.
        let counts = match ex {
            Some(e) => format!(
                " ({} FSS{}, {} after Reduce)",
                e.fss.len(),
                if e.fss.len() == 1 { "" } else { "s" },
                e.reduced.len()
            ),
            None => String::new(),
        };
        let _ = writeln!(out, "\n{}: {describe}{counts}", verdict_word(o.color, res.verdict));
        if let Some(site) = c.site() {
            if let Some(at) = place_of(p, o, p.site(site).span) {
                let _ = writeln!(out, "  --> {at}");
            }
        }
        if let Some(fact) = r.top_counterexample(res).and_then(|cx| super::error_fact(p, &cx.run)) {
            let _ = writeln!(out, "  fact: {fact}");
        }
        if res.verdict == Verdict::Unknown {
            let _ = writeln!(out, "  why: {}", res.reason);
        } else if res.from_a_run() {
            let _ = writeln!(out, "  engine: {}: {}", res.engine, res.reason);
        }
        let shows_trace = o.view == View::Full || ex.is_none_or(|e| e.fss.is_empty());
        if let (Some(cx), false) = (&res.counterexample, shows_trace) {
            for cmd in (o.replay)(cx) {
                let _ = writeln!(out, "  replay: {cmd}");
            }
        }
        if let Some(why) = r.no_fss(res) {
            let _ = writeln!(out, "  no FSS: {why}");
        }
        if r.explanation_clock(res) {
            let _ = writeln!(
                out,
                "  note: the FSS listing is incomplete: the explanation was cut by --timeout (the wall clock: on a less loaded machine it may go further)"
            );
        } else if ex.is_some_and(|e| e.truncated) {
            let _ = writeln!(
                out,
                "  note: the FSS listing is incomplete (a limit of the explanation was reached: --explain-steps or another count)"
            );
        }
        let out_of_range = match (o.fss, ex) {
            (Some(n), Some(ex)) if n > ex.fss.len() => Some((n, ex.fss.len())),
            _ => None,
        };
        match (o.view, ex) {
            _ if out_of_range.is_some() => {
                let (n, k) = out_of_range.unwrap_or_default();
                let _ = writeln!(
                    out,
                    "  no FSS of rank {n}: this condition has {k} FSS{}{}",
                    if k == 1 { "" } else { "s" },
                    match k {
                        0 => String::new(),
                        1 => " (`--fss 1`)".to_string(),
                        _ => format!(" (`--fss 1` to `--fss {k}`)"),
                    }
                );
            }
            (View::Reduced, Some(ex)) if !ex.fss.is_empty() => reduced_view(p, ex, o, &mut out),
            (View::Fss, Some(ex)) if !ex.fss.is_empty() => fss_view(p, ex, o, &mut out),
            (View::Full, Some(ex)) if ex.fss.iter().any(|f| f.witness.is_some()) => full_view(p, a, ex, o, &mut out),
            _ => {
                // No FSS to show: the counterexample found while deciding.
                if let Some(cx) = &res.counterexample {
                    trace_block(p, o, a, cx, &mut out);
                }
            }
        }
    }
    let safe = count(Verdict::Safe);
    if !safe_lines.is_empty() {
        out.push('\n');
    }
    for (line, n) in safe_lines {
        match n {
            1 => out.push_str(&line),
            _ => {
                let (first, rest) = line.split_once('\n').unwrap_or((&line, ""));
                let _ = writeln!(out, "{first} (\u{d7}{n})");
                out.push_str(rest);
            }
        }
    }
    if safe > 0 && !o.verbose && safe < r.results.len() {
        let _ = writeln!(
            out,
            "\n  {safe} condition{} safe (`--verbose` lists {})",
            if safe == 1 { "" } else { "s" },
            if safe == 1 { "it" } else { "them" }
        );
    }
    if o.stats {
        out.push_str(&stats(r));
        return out;
    }
    wrap_long_lines(&out, LINE_CHARS)
}

fn selected(ex: &Explanation, o: &TextOptions) -> Vec<usize> {
    let listing = super::json::Listing {
        full_trace: o.full_trace,
        all_fss: o.all_fss,
    };
    match o.fss {
        Some(n) if n >= 1 && n <= ex.fss.len() => vec![n - 1],
        _ => (0..ex.fss.len().min(listing.fss_limit())).collect(),
    }
}

/// The line under a listing of the first FSSs saying how many more there are.
fn more_fss(ex: &Explanation, o: &TextOptions, out: &mut String) {
    let more = ex.fss.len() - selected(ex, o).len();
    if o.fss.is_none() && more > 0 {
        let _ = writeln!(
            out,
            "  ({more} more FSS{} of lower rank: `--fss N` shows one, `--all-fss` lists them all)",
            if more == 1 { "" } else { "s" }
        );
    }
}

/// Lines of a snippet of a reduced FSS after the first one shown: a longer
/// one is left to `--fss N`.
const SHORT_SNIPPET: usize = 40;

fn reduced_view(p: &Program, ex: &Explanation, o: &TextOptions, out: &mut String) {
    let picked: Vec<&crate::explain::reduce::Reduced> = match o.fss {
        Some(n) => ex.reduced.iter().filter(|r| r.index + 1 == n).collect(),
        None => ex.reduced.iter().take(REDUCED_SHOWN).collect(),
    };
    if picked.is_empty() {
        let _ = writeln!(
            out,
            "  FSS {} was merged away by Reduce; `--view fss --fss {0}` shows it",
            o.fss.unwrap_or(0)
        );
    }
    for (position, red) in picked.into_iter().enumerate() {
        let f = &ex.fss[red.index];
        let shown = projected(&red.assumptions, &o.project);
        let _ = writeln!(
            out,
            "  reduced FSS (rank {}) {}: assumptions left: {}",
            red.index + 1,
            fss_lines_short(o.lines, f, o.full_trace),
            assumptions_line(p, o.lines, &shown)
        );
        if let Some(cx) = &f.witness {
            for cmd in (o.replay)(cx) {
                let _ = writeln!(out, "    replay: {cmd}");
            }
        }
        let whole = red.nest.len() == f.entries.len();
        let lines = lines_seq(o.lines, red.nest.iter().map(|&i| &f.entries[i]), o.full_trace);
        let where_ = match red.at {
            Some(at) if !whole && o.diff => format!(
                "in the block of the conditional at line {} (the reference's path does not decide it: the new version leaves that path here)",
                o.lines.label(f.entries[at].line)
            ),
            Some(at) if !whole => format!(
                "in the block of the conditional at line {} (it depends on inputs the assumptions leave open)",
                o.lines.label(f.entries[at].line)
            ),
            _ => "the whole FSS (the error could not be narrowed down)".to_string(),
        };
        if whole {
            let _ = writeln!(out, "  NEST: {where_}");
        } else {
            let _ = writeln!(out, "  NEST <{}>: {where_}", lines.join(","));
        }
        if o.diff {
            // The product program's lines are mapped to the versions'
            // files: a plain listing in their numbering.
            let mut seen = std::collections::BTreeSet::new();
            for &i in &red.nest {
                let e = &f.entries[i];
                // Each source line once, in the order the FSS first meets it.
                if !seen.insert(e.line) {
                    continue;
                }
                let src = o.lines.text(e.line, p.source.line_text(e.line).trim_end());
                let _ = writeln!(out, "    {:>4} | {src}", o.lines.label(e.line));
            }
            for d in super::json::definitions(p, red) {
                let _ = writeln!(out, "    {:>4} | {}   (definition)", o.lines.label(d.line), d.text);
            }
        } else {
            let title = format!("NEST of FSS {}", red.index + 1);
            let text = snippet(p, f, &red.nest, &red.assumptions, &title, o.color);
            let fss_n = format!("`--fss {}`", red.index + 1);
            let every = format!("`--view fss --fss {} --full-trace`", red.index + 1);
            let n = text.lines().count();
            if position == 0 || o.fss.is_some() {
                out.push_str(&bounded(text, SNIPPET_LINES, &every));
            } else if n <= SHORT_SNIPPET {
                out.push_str(&text);
            } else {
                let _ = writeln!(out, "    (its snippet has {n} lines: {fss_n} shows it)");
            }
            for d in super::json::definitions(p, red) {
                let at = match &d.file {
                    Some(f) => format!("{f}:{}", d.line),
                    None => format!("line {}", d.line),
                };
                let _ = writeln!(out, "    uses the definition at {at}: `{}`", d.text);
            }
        }
    }
    let more = ex.reduced.len().saturating_sub(REDUCED_SHOWN);
    if o.fss.is_none() && more > 0 {
        let ranks: Vec<String> = ex.reduced[REDUCED_SHOWN..]
            .iter()
            .map(|r| (r.index + 1).to_string())
            .collect();
        let _ = writeln!(
            out,
            "  ({more} more reduced FSS{}, ranks {}: `--fss N` shows one)",
            if more == 1 { "" } else { "s" },
            abbreviate(&ranks)
        );
    }
    let _ = writeln!(out, "  next: {}", (o.next)(View::Fss, None));
}

fn fss_view(p: &Program, ex: &Explanation, o: &TextOptions, out: &mut String) {
    for i in selected(ex, o) {
        let f = &ex.fss[i];
        let shown = projected(&f.assumptions, &o.project);
        let _ = writeln!(
            out,
            "  FSS {} of {} {}: assumptions: {}",
            i + 1,
            ex.fss.len(),
            fss_lines(o.lines, f, o.full_trace),
            assumptions_line(p, o.lines, &shown)
        );
        entry_listing(
            o.lines,
            &folded(shown_entries(o.lines, f), o.full_trace),
            "    ",
            0,
            out,
        );
        if let Some(cx) = &f.witness {
            for cmd in (o.replay)(cx) {
                let _ = writeln!(out, "    replay: {cmd}");
            }
        }
        if o.fss.is_some() && !o.diff {
            let all: Vec<usize> = (0..f.entries.len()).collect();
            let title = format!("FSS {}", i + 1);
            let text = snippet(p, f, &all, &f.assumptions, &title, o.color);
            out.push_str(&bounded(text, SNIPPET_LINES, "`--full-trace`"));
        }
    }
    more_fss(ex, o, out);
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
            fss_lines(o.lines, f, o.full_trace)
        );
        match &f.witness {
            Some(cx) => trace_block(p, o, a, cx, out),
            None => {
                let _ = writeln!(
                    out,
                    "    (no replayable path with this FSS was found within the search budget)"
                );
            }
        }
    }
    more_fss(ex, o, out);
    let _ = writeln!(out, "  back up: {}", (o.next)(View::Reduced, None));
}

/// `a = 1, b = 2` for the inputs the run read; those it overwrote (or
/// never touched) are only counted: any value does.
pub fn inputs_line(inputs: &[(String, i64)], unused: &[String], hide: &dyn Fn(&str) -> bool) -> String {
    let unused: std::collections::HashSet<&String> = unused.iter().collect();
    let shown: Vec<String> = inputs
        .iter()
        .filter(|(k, _)| !hide(k) && !unused.contains(k))
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    let n_unused = inputs.iter().filter(|(k, _)| !hide(k) && unused.contains(k)).count();
    let mut line = if shown.is_empty() {
        "none read".to_string()
    } else {
        shown.join(", ")
    };
    if n_unused > 0 {
        line.push_str(&format!(
            " ({n_unused} more input{} never read, any value does)",
            if n_unused == 1 { "" } else { "s" }
        ));
    }
    line
}

fn trace_block(p: &Program, o: &TextOptions, a: &Analysis, cx: &Counterexample, out: &mut String) {
    let names = o.lines;
    if !cx.inputs.is_empty() {
        let line = inputs_line(&cx.inputs, &cx.run.unused_inputs, &|_| false);
        let _ = writeln!(out, "    inputs: {line}");
    }
    if !cx.choices.is_empty() {
        let (_, words) = run_words(&cx.run, &[], &cx.choices);
        let _ = writeln!(out, "    choices: {}", drawn_choices_line(&words, cx.seed));
    }
    for cmd in (o.replay)(cx) {
        let _ = writeln!(out, "    replay: {cmd}");
    }
    let _ = writeln!(out, "    trace:");
    trace_listing(names, &shown_trace(p, a, &cx.run, o.full_trace), "      ", 0, out);
}

/// What to say about a file without any error condition: what would make
/// one, and the variables that look like error flags.
fn no_condition(p: &Program) -> String {
    use crate::ir::VarKind;
    let flag_like = |n: &str| {
        let n = n.to_ascii_lowercase();
        ["err", "fail", "bug", "bad", "unsafe", "violat"]
            .iter()
            .any(|w| n.contains(w))
    };
    let mut candidates: Vec<String> = p
        .vars
        .iter()
        .filter(|v| matches!(v.kind, VarKind::Global | VarKind::Local | VarKind::Param) && v.len.is_none())
        .filter(|v| flag_like(&v.name))
        // Not `stderr` and the like of the headers the file includes.
        .filter(|v| p.source.name_of(v.span) == p.source.name)
        .map(|v| match (v.kind, v.proc) {
            (VarKind::Global, _) | (_, None) => v.name.clone(),
            (_, Some(f)) => format!("{}::{}", p.proc(f).name, v.name),
        })
        .collect();
    candidates.sort();
    candidates.dedup();
    let mut out = String::from(
        "  no error condition to check: no reachable assertion, reach_error() call, array access \
         or division of the kinds `--property` selects, and no `error` variable\n",
    );
    if candidates.is_empty() {
        out.push_str("  give one with `--error EXPR` (over globals and `proc::local`, e.g. `--error 'x > 10'`)\n");
    } else {
        let shown: Vec<String> = candidates.iter().take(8).map(|c| format!("`--error '{c}'`")).collect();
        let _ = writeln!(
            out,
            "  give one with `--error EXPR`; variables that look like error flags: {}{}",
            shown.join(", "),
            if candidates.len() > 8 { ", ..." } else { "" }
        );
    }
    out
}
