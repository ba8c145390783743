//! The findings of `focuscheck doomed` (and of `check --doomed`): doomed
//! regions as compiler-style errors, dead code as notes, and the typed
//! document of `--format json` (`doomed`, `skipped`, `stats`,
//! `unreachable`).

use crate::diag::{self, Class, Diag};
use crate::facts::Analysis;
use crate::ir::*;
use crate::syntax::source::Span;
use crate::vc::doomed::{point_node, Failure, Region, Report};
use crate::vc::gc::Origin;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// What `doomed` found in a file, as `--format json` writes it (flattened
/// into its file's document; fields in the order the output always had).
#[derive(Serialize, Deserialize, Clone, Debug, Default)]
pub struct DoomedDoc {
    pub doomed: Vec<RegionDoc>,
    pub skipped: Vec<SkippedDoc>,
    pub stats: StatsDoc,
    pub unreachable: Vec<DeadDoc>,
}

/// A doomed region: every run through its lines fails.
#[derive(Serialize, Deserialize, Clone, Debug, Default)]
pub struct RegionDoc {
    pub complete: bool,
    pub entry_lines: BTreeSet<u32>,
    pub fails: Vec<FailDoc>,
    /// The first of `fails` (null when an assumption cuts the runs off).
    pub fails_at: Option<FailDoc>,
    pub lines: BTreeSet<u32>,
    pub message: String,
    pub procedures: Vec<String>,
}

/// A check that fails on the region's runs, or a loop they never leave.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct FailDoc {
    pub column: u32,
    /// A site's kind (`assert`, `bounds`, ...) or `diverges`.
    pub kind: String,
    pub line: u32,
    pub text: String,
}

/// Lines of a procedure no execution reaches.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct DeadDoc {
    pub lines: BTreeSet<u32>,
    pub procedure: String,
}

/// A procedure that was not analysed, and why.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct SkippedDoc {
    pub procedure: String,
    pub reason: String,
}

#[derive(Serialize, Deserialize, Clone, Debug, Default)]
pub struct StatsDoc {
    pub abstract_only: usize,
    pub invariants: Vec<InvariantDoc>,
    pub procedures: Vec<ProcStatsDoc>,
    pub queries: usize,
    pub seconds: f64,
    pub undecided: usize,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct InvariantDoc {
    pub line: u32,
    pub text: String,
}

/// Per procedure: its queries and where the time went (the seed's Table 4).
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct ProcStatsDoc {
    pub abstract_only: usize,
    pub blocks: usize,
    pub build_seconds: f64,
    pub first_query_seconds: Option<f64>,
    pub invariant_seconds: f64,
    pub procedure: String,
    pub queries: usize,
    pub query_seconds: f64,
    pub undecided: usize,
}

/// What one file's analysis found, ready to print.
pub struct Findings {
    pub diags: Vec<Diag>,
    pub doc: DoomedDoc,
    pub doomed: usize,
    pub seconds: f64,
}

/// The line of a span.
fn line(p: &Program, s: Span) -> u32 {
    p.line(s)
}

/// Is the point a branch edge out of a loop?
fn loop_exit(p: &Program, a: &Analysis, o: Origin) -> bool {
    match (o, point_node(o).map(|n| &p.node(n).kind)) {
        (Origin::Edge(n, outcome), Some(NodeKind::Branch { then_, else_, .. })) => {
            let t = if outcome { *then_ } else { *else_ };
            a.loops.iter().any(|l| l.body.contains(&n) && !l.body.contains(&t))
        }
        _ => false,
    }
}

/// Does the branch edge `n -> t` leave a loop for code outside every loop?
fn leaves_loops(a: &Analysis, n: NodeId, t: NodeId) -> bool {
    a.loops.iter().any(|l| l.body.contains(&n)) && !a.loops.iter().any(|l| l.body.contains(&t))
}

/// The `else` keyword right before the statement at `s`, if there is one.
fn else_before(p: &Program, s: Span) -> Option<Span> {
    let text = &p.source.text[..s.lo as usize];
    let t = text.trim_end();
    let t = t.strip_suffix('{').map(str::trim_end).unwrap_or(t);
    let before = t.strip_suffix("else")?;
    if before.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    Some(Span::new(before.len(), before.len() + 4))
}

/// Where a point is shown: a node at its statement; an edge at the `else`
/// that starts it, at the loop condition it leaves, or at the statement it
/// leads to. The procedure's exit is not shown.
fn shown(p: &Program, o: Origin) -> Option<Span> {
    match o {
        Origin::Node(n) if matches!(p.node(n).kind, NodeKind::Exit) => None,
        Origin::Node(n) => Some(p.node(n).span),
        Origin::Edge(n, outcome) => {
            let NodeKind::Branch { then_, else_, .. } = &p.node(n).kind else {
                return Some(p.node(n).span);
            };
            let t = if outcome { *then_ } else { *else_ };
            let target = p.node(t);
            let stmt = p.unit(target.unit).span;
            if let Some(e) = else_before(p, stmt) {
                return Some(e);
            }
            // The first statement of a branch the condition opens, or the
            // condition itself (a loop's exit, the edge past an `if`).
            if !matches!(target.kind, NodeKind::Exit) && nested(p, target.block, p.node(n).block) {
                return Some(stmt);
            }
            Some(p.node(n).span)
        }
        Origin::None | Origin::LoopCut(_) => None,
    }
}

/// Is scope `inner` strictly inside scope `outer`?
fn nested(p: &Program, inner: BlockId, outer: BlockId) -> bool {
    let mut b = p.blocks[inner.index()].parent;
    while let Some(x) = b {
        if x == outer {
            return true;
        }
        b = p.blocks[x.index()].parent;
    }
    false
}

/// `line 5`, `lines 5 and 7`, `lines 3, 5 and 7`.
fn lines_phrase(lines: &BTreeSet<u32>) -> String {
    let v: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    match v.len() {
        0 => "no line".into(),
        1 => format!("line {}", v[0]),
        _ => format!("lines {} and {}", v[..v.len() - 1].join(", "), v[v.len() - 1]),
    }
}

/// `3-7, 9`.
fn ranges(lines: &BTreeSet<u32>) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut it = lines.iter().copied().peekable();
    while let Some(lo) = it.next() {
        let mut hi = lo;
        while it.peek() == Some(&(hi + 1)) {
            hi = it.next().unwrap_or(hi);
        }
        out.push(if lo == hi { lo.to_string() } else { format!("{lo}-{hi}") });
    }
    out.join(", ")
}

fn failure_span(p: &Program, f: Failure) -> Span {
    match f {
        Failure::Site(s) => p.site(s).span,
        Failure::Diverges(h) => p.node(h).span,
    }
}

fn failure_kind(p: &Program, f: Failure) -> &'static str {
    match f {
        Failure::Site(s) => p.site(s).kind.json_name(),
        Failure::Diverges(_) => "diverges",
    }
}

/// What goes wrong, as a clause: "`a[j]` is out of bounds".
fn failure_text(p: &Program, f: Failure) -> String {
    let t = p
        .text(failure_span(p, f))
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    match f {
        Failure::Site(s) => match p.site(s).kind {
            SiteKind::Assert => format!("`{t}` fails"),
            SiteKind::ReachError => format!("`{t}` is called"),
            SiteKind::Bounds => format!("`{t}` is out of bounds"),
            SiteKind::DivByZero => format!("`{t}` divides by zero"),
            SiteKind::Overflow => format!("`{t}` overflows"),
            SiteKind::Shift => format!("`{t}` is an undefined shift"),
            SiteKind::Deref => format!("`{t}` is an invalid pointer access"),
            SiteKind::Limit if p.site(s).vla => format!("`{t}` is larger than the model holds (--vla-elems)"),
            SiteKind::Limit if p.site(s).past_elements() => {
                format!("`{t}` reaches past the elements the model holds (--param-elems)")
            }
            SiteKind::Limit if p.site(s).pool => {
                format!("`{t}` allocates more objects than the call has (--heap-instances)")
            }
            SiteKind::Limit => format!("`{t}` allocates beyond the heap model"),
            SiteKind::Leak => format!("memory leaks at `{t}`"),
        },
        Failure::Diverges(_) => "the loop never ends".into(),
    }
}

/// "fails at line 6", "never leaves the loop at line 3", joined by "or".
fn outcome_phrase(p: &Program, fails: &[Failure]) -> String {
    let sites: BTreeSet<u32> = fails
        .iter()
        .filter(|f| matches!(f, Failure::Site(_)))
        .map(|&f| line(p, failure_span(p, f)))
        .collect();
    let loops: BTreeSet<u32> = fails
        .iter()
        .filter(|f| matches!(f, Failure::Diverges(_)))
        .map(|&f| line(p, failure_span(p, f)))
        .collect();
    let or = |s: &BTreeSet<u32>| lines_phrase(s).replace(" and ", " or ");
    let mut parts = Vec::new();
    if !sites.is_empty() {
        parts.push(format!("fails at {}", or(&sites)));
    }
    if !loops.is_empty() {
        parts.push(format!("never leaves the loop at {}", or(&loops)));
    }
    parts.join(" or ")
}

fn region_diag(p: &Program, a: &Analysis, r: &Region) -> (Diag, RegionDoc) {
    let proc_of = |o: Origin| point_node(o).map(|n| p.node(n).proc);
    let procs: BTreeSet<ProcId> = r.points.iter().filter_map(|&o| proc_of(o)).collect();
    let lines: BTreeSet<u32> = r
        .points
        .iter()
        .filter_map(|&o| shown(p, o))
        .map(|s| line(p, s))
        .collect();
    // A procedure doomed from its start is named; other entries by line.
    let whole: Vec<&str> = (r.entries.iter())
        .filter_map(|&o| proc_of(o).filter(|&g| o == Origin::Node(p.proc(g).entry)))
        .map(|g| p.proc(g).name.as_str())
        .collect();
    let entries: Vec<Origin> = (r.entries.iter())
        .copied()
        .filter(|&o| proc_of(o).is_none_or(|g| o != Origin::Node(p.proc(g).entry)))
        .collect();
    let entry_spans: Vec<Span> = entries.iter().filter_map(|&o| shown(p, o)).collect();
    let entry_lines: BTreeSet<u32> = entry_spans.iter().map(|&s| line(p, s)).collect();
    // Where runs enter: "reaches line 5", "leaves the loop at line 13".
    let mut how: Vec<String> = Vec::new();
    let exits: BTreeSet<u32> = (entries.iter())
        .filter(|&&o| loop_exit(p, a, o))
        .filter_map(|&o| shown(p, o))
        .map(|s| line(p, s))
        .collect();
    let others: BTreeSet<u32> = (entries.iter())
        .filter(|&&o| !loop_exit(p, a, o))
        .filter_map(|&o| shown(p, o))
        .map(|s| line(p, s))
        .collect();
    if !whole.is_empty() {
        let names = whole.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>();
        how.push(format!("enters {}", names.join(" or ")));
    }
    if !others.is_empty() {
        how.push(format!("reaches {}", lines_phrase(&others).replace(" and ", " or ")));
    }
    if !exits.is_empty() {
        how.push(format!(
            "leaves the loop at {}",
            lines_phrase(&exits).replace(" and ", " or ")
        ));
    }
    let who = if others.is_empty() && exits.is_empty() && !whole.is_empty() {
        let names = whole.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>();
        format!("every execution of {}", names.join(" or "))
    } else {
        format!("every execution that {}", how.join(" or "))
    };
    let message = if r.fails.is_empty() {
        format!("doomed: {who} is cut off by an assumption")
    } else {
        format!("doomed: {who} {}", outcome_phrase(p, &r.fails))
    };
    let primary = r
        .fails
        .first()
        .map(|&f| failure_span(p, f))
        .or_else(|| entry_spans.first().copied())
        .unwrap_or_else(|| procs.iter().next().map(|&g| p.proc(g).span).unwrap_or_default());
    let each = if r.fails.len() == 1 && r.complete {
        "on every such run"
    } else {
        "on some of them"
    };
    let label = match r.fails.first() {
        Some(&f) => format!("{} {each}", failure_text(p, f)),
        None => "no run gets past the assumption".into(),
    };
    let mut d = Diag::error(Class::Info, primary, message.clone()).with_label(label);
    for &f in r.fails.iter().skip(1) {
        d = d.with_secondary(failure_span(p, f), format!("{} {each}", failure_text(p, f)));
    }
    for &s in &entry_spans {
        if s != primary {
            d = d.with_secondary(s, "every execution that reaches this is doomed");
        }
    }
    for &o in &r.points {
        if let Origin::Edge(n, outcome) = o {
            if let NodeKind::Branch { then_, else_, .. } = &p.node(n).kind {
                let t = if outcome { *then_ } else { *else_ };
                if leaves_loops(a, n, t) {
                    d = d.with_secondary(p.node(n).span, "every such run leaves the loop here");
                }
            }
        }
    }
    d = d.with_note(format!("doomed lines: {}", ranges(&lines)));
    if !r.complete {
        d = d.with_note("other checks may fail on these runs too (the search for them stopped)");
    }
    let fail_doc = |f: Failure| {
        let at = p.source.start(failure_span(p, f));
        FailDoc {
            column: at.col,
            kind: failure_kind(p, f).to_string(),
            line: at.line,
            text: failure_text(p, f),
        }
    };
    let doc = RegionDoc {
        complete: r.complete,
        entry_lines,
        fails: r.fails.iter().map(|&f| fail_doc(f)).collect(),
        fails_at: r.fails.first().map(|&f| fail_doc(f)),
        lines,
        message,
        procedures: procs.iter().map(|&g| p.proc(g).name.clone()).collect(),
    };
    (d, doc)
}

/// The findings of the analysis of `p` (`seconds` long): a diagnostic and
/// a document per doomed region and per unreachable block.
pub fn render(p: &Program, a: &Analysis, report: &Report, seconds: f64) -> Findings {
    let mut diags = Vec::new();
    let mut doomed_docs = Vec::new();
    for r in &report.regions {
        let (d, doc) = region_diag(p, a, r);
        diags.push(d);
        doomed_docs.push(doc);
    }
    let mut dead_docs = Vec::new();
    for (g, points) in &report.unreachable {
        let spans: Vec<Span> = points.iter().filter_map(|&o| shown(p, o)).collect();
        let lines: BTreeSet<u32> = spans.iter().map(|&s| line(p, s)).collect();
        let Some(&first) = spans.iter().min_by_key(|s| s.lo) else {
            continue;
        };
        let name = &p.proc(*g).name;
        let mut d = Diag::note(
            first,
            format!("unreachable: no execution of `{name}` reaches {}", lines_phrase(&lines)),
        )
        .with_label("never executed");
        for &s in spans.iter().filter(|&&s| s != first) {
            d = d.with_secondary(s, "never executed");
        }
        diags.push(d);
        dead_docs.push(DeadDoc {
            lines,
            procedure: name.clone(),
        });
    }
    let skipped = (report.skipped.iter())
        .map(|(g, why)| SkippedDoc {
            procedure: p.proc(*g).name.clone(),
            reason: why.clone(),
        })
        .collect();
    let procedures = (report.stats.iter())
        .map(|s| ProcStatsDoc {
            abstract_only: s.abstract_only,
            blocks: s.blocks,
            build_seconds: s.build.as_secs_f64(),
            first_query_seconds: s.first_query.map(|d| d.as_secs_f64()),
            invariant_seconds: s.invariants.as_secs_f64(),
            procedure: p.proc(s.proc).name.clone(),
            queries: s.queries,
            query_seconds: s.query_time.as_secs_f64(),
            undecided: s.undecided,
        })
        .collect();
    let invariants = (report.invariants.iter())
        .map(|i| InvariantDoc {
            line: line(p, p.node(i.head).span),
            text: i.text.clone(),
        })
        .collect();
    let doc = DoomedDoc {
        doomed: doomed_docs,
        skipped,
        stats: StatsDoc {
            abstract_only: report.stats.iter().map(|s| s.abstract_only).sum(),
            invariants,
            procedures,
            queries: report.queries(),
            seconds,
            undecided: report.undecided(),
        },
        unreachable: dead_docs,
    };
    Findings {
        diags,
        doc,
        doomed: report.regions.len(),
        seconds,
    }
}

impl Findings {
    /// The diagnostics, then what was not analysed (and `--stats`).
    pub fn text(&self, p: &Program, color: bool, stats: bool) -> String {
        let mut out = diag::render(&p.source, &self.diags, color);
        for s in &self.doc.skipped {
            out.push_str(&format!(
                "{}: note: `{}` was not analysed for doomed points: {}\n",
                p.source.name, s.procedure, s.reason
            ));
        }
        let st = &self.doc.stats;
        if st.undecided > 0 {
            out.push_str(&format!(
                "{}: note: Z3 could not decide {} queries; those points are not reported\n",
                p.source.name, st.undecided
            ));
        }
        if st.abstract_only > 0 {
            out.push_str(&format!(
                "{}: note: {} point(s) doomed in the unfolding were passed by no concrete run found (reached only through a loop's abstraction, or only after a check that always fails); not reported\n",
                p.source.name, st.abstract_only
            ));
        }
        if stats {
            for s in &st.procedures {
                let q = s.queries;
                out.push_str(&format!(
                    "stats: {}: `{}`: {} blocks, {q} queries; invariants {:.1} ms, formula {:.1} ms, first query {:.1} ms, {:.2} ms/query\n",
                    p.source.name,
                    s.procedure,
                    s.blocks,
                    s.invariant_seconds * 1000.0,
                    s.build_seconds * 1000.0,
                    s.first_query_seconds.unwrap_or(0.0) * 1000.0,
                    if q == 0 { 0.0 } else { s.query_seconds * 1000.0 / q as f64 },
                ));
            }
            for i in &st.invariants {
                out.push_str(&format!(
                    "stats: {}: invariant at line {}: {}\n",
                    p.source.name, i.line, i.text
                ));
            }
            out.push_str(&format!(
                "stats: {}: {} doomed region{}, {} queries, {:.3} s\n",
                p.source.name,
                self.doomed,
                if self.doomed == 1 { "" } else { "s" },
                st.queries,
                self.seconds
            ));
        }
        out
    }
}

/// `focuscheck doomed`'s document of a file: its name and what was found.
#[derive(Serialize)]
pub struct DoomedFileDoc {
    pub file: String,
    #[serde(flatten)]
    pub found: DoomedDoc,
}

impl super::documents::Document for DoomedFileDoc {
    fn file(&self) -> &str {
        &self.file
    }
}
