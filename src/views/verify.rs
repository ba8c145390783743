//! `focuscheck verify`'s warnings (the VC engine's, with ESC/Java-style
//! execution traces, seed 000): the typed document of `--format json` and
//! the text made from it.

use super::fold::{self, Docs, Foldable, RepeatDoc};
use crate::diag;
use crate::ir::Program;
use crate::syntax::source::Span;
use crate::vc::{self, gc::EventKind, Outcome, ProcResult, Status, Warning};
use serde::Serialize;
use std::collections::BTreeMap;

/// A file's document: the procedure checked (the entry) and its warnings.
#[derive(Serialize)]
pub struct VerifyDoc {
    pub file: String,
    pub procedures: Vec<ProcDoc>,
}

#[derive(Serialize)]
pub struct ProcDoc {
    pub name: String,
    pub warnings: Vec<WarningDoc>,
    /// `warnings`, `verified`, `unknown`, ...
    pub result: &'static str,
    pub reason: String,
    pub invariants: Vec<InvariantDoc>,
    /// The VC's size.
    pub blocks: usize,
    pub commands: usize,
    pub seconds: f64,
    /// Of which in Z3.
    pub solver_seconds: f64,
}

/// A loop invariant used: the user's (`user`) or inferred.
#[derive(Serialize)]
pub struct InvariantDoc {
    pub line: u32,
    pub text: String,
    pub user: bool,
}

#[derive(Serialize)]
pub struct WarningDoc {
    /// The check's kind (`assert`, `bounds`, ...).
    pub kind: &'static str,
    pub line: u32,
    pub column: u32,
    pub message: String,
    /// `confirmed` (its replay reaches the error) or `possible`.
    pub status: &'static str,
    pub trace: Vec<TraceDoc>,
    /// The inputs of the counterexample (of a confirmed one, those its
    /// replay reads) and its choices.
    pub inputs: BTreeMap<String, i64>,
    pub choices: Vec<i64>,
    /// The `focuscheck run` command that replays it (null for a check the
    /// interpreter cannot replay).
    pub replay: Option<String>,
}

/// A step of a warning's trace: one event, a folded repetition, or steps
/// left out.
#[derive(Serialize)]
#[serde(untagged)]
pub enum TraceDoc {
    Step {
        event: &'static str,
        line: u32,
        column: u32,
        iteration: Option<u32>,
        callee: Option<String>,
        seq: u32,
        text: String,
    },
    Repeat {
        /// Always `repeat`.
        event: &'static str,
        line: Option<u32>,
        column: Option<u32>,
        text: String,
        repeat: Box<RepeatDoc<TraceDoc>>,
    },
    Omitted {
        /// Always `omitted`.
        event: &'static str,
        line: Option<u32>,
        column: Option<u32>,
        text: String,
        omitted: u64,
    },
}

impl TraceDoc {
    pub fn line(&self) -> Option<u32> {
        match self {
            TraceDoc::Step { line, .. } => Some(*line),
            TraceDoc::Repeat { line, .. } | TraceDoc::Omitted { line, .. } => *line,
        }
    }

    pub fn column(&self) -> Option<u32> {
        match self {
            TraceDoc::Step { column, .. } => Some(*column),
            TraceDoc::Repeat { column, .. } | TraceDoc::Omitted { column, .. } => *column,
        }
    }

    pub fn text(&self) -> &str {
        match self {
            TraceDoc::Step { text, .. } | TraceDoc::Repeat { text, .. } | TraceDoc::Omitted { text, .. } => text,
        }
    }
}

impl super::documents::Document for VerifyDoc {
    fn file(&self) -> &str {
        &self.file
    }
}

fn loc(p: &Program, span: Span) -> (u32, u32) {
    let at = p.source.start(span);
    (at.line, at.col)
}

/// One trace line in the seed's words.
pub fn trace_text(p: &Program, s: &vc::TraceStep) -> String {
    let (line, col) = loc(p, s.span);
    let what = match s.kind {
        EventKind::Then => "Executed then branch".to_string(),
        EventKind::Else => "Executed else branch".to_string(),
        EventKind::LoopHead => {
            let n = s.iteration.unwrap_or(0);
            format!(
                "Reached top of loop after {n} iteration{}",
                if n == 1 { "" } else { "s" }
            )
        }
        EventKind::Call if s.havocked => format!(
            "Called {} (not inlined: its result and the globals it writes are any values)",
            s.callee.as_deref().unwrap_or("?")
        ),
        EventKind::Call => format!("Called {}", s.callee.as_deref().unwrap_or("?")),
        EventKind::Return => format!("Returned from {}", s.callee.as_deref().unwrap_or("?")),
    };
    format!("{what} in \"{}\", line {line}, col {col}.", p.source.name)
}

/// A trace step, folded like every trace (`views::fold`): by its event and
/// place; a loop head's iteration is its value.
struct Step<'a>(&'a vc::TraceStep);

impl Foldable for Step<'_> {
    fn fold_key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        (
            self.0.kind.name(),
            self.0.span.lo,
            self.0.span.hi,
            &self.0.callee,
            self.0.havocked,
        )
            .hash(&mut h);
        h.finish()
    }
    fn fold_values(&self) -> Vec<(String, i64)> {
        self.0
            .iteration
            .map(|n| ("iteration".to_string(), n as i64))
            .into_iter()
            .collect()
    }
}

/// A warning's trace as documents: every step with `full`, else
/// repetitions folded (`event: repeat`, with `repeat: {count, first, last,
/// ranges, ...}`).
fn trace_docs(p: &Program, w: &Warning, full: bool) -> Vec<TraceDoc> {
    let steps = w.trace.iter().map(Step);
    let folded = if full { fold::unfolded(steps) } else { fold::fold(steps) };
    let plain = |l: u32| l.to_string();
    Docs {
        one: &|s: Step| {
            let (line, column) = loc(p, s.0.span);
            TraceDoc::Step {
                event: s.0.kind.name(),
                line,
                column,
                iteration: s.0.iteration,
                callee: s.0.callee.clone(),
                seq: s.0.seq,
                text: trace_text(p, s.0),
            }
        },
        lines: &|d: &TraceDoc| match d {
            TraceDoc::Repeat { repeat, .. } => (repeat.lines[0], repeat.lines[1]),
            _ => {
                let l = d.line().unwrap_or(0);
                (l, l)
            }
        },
        repeat: &|r: RepeatDoc<TraceDoc>| TraceDoc::Repeat {
            event: "repeat",
            line: r.first[0].line(),
            column: r.first[0].column(),
            text: fold::repeat_text(&r, &plain),
            repeat: Box::new(r),
        },
        omitted: &|steps, next: Option<&TraceDoc>| TraceDoc::Omitted {
            event: "omitted",
            line: next.and_then(TraceDoc::line),
            column: next.and_then(TraceDoc::column),
            text: fold::omitted_text(steps),
            omitted: steps,
        },
    }
    .make(folded)
}

/// Trace documents as text lines; a repetition as its text, its first run,
/// how many runs are not shown, its last run.
fn trace_listing(steps: &[TraceDoc], indent: &str, out: &mut String) {
    for s in steps {
        match s {
            TraceDoc::Repeat { text, repeat, .. } => {
                out.push_str(&format!("{indent}{text} (first and last shown):\n"));
                let inner = format!("{indent}  ");
                trace_listing(&repeat.first, &inner, out);
                let hidden = repeat.count.saturating_sub(2);
                out.push_str(&format!(
                    "{inner}... {hidden} more run{} ...\n",
                    if hidden == 1 { "" } else { "s" }
                ));
                trace_listing(&repeat.last, &inner, out);
            }
            _ => out.push_str(&format!("{indent}{}\n", s.text())),
        }
    }
}

fn inputs_text(inputs: &[(String, i64)]) -> String {
    if inputs.is_empty() {
        return "(no inputs)".into();
    }
    inputs
        .iter()
        .map(|(n, v)| format!("{n} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The warnings with their traces, then the procedure's result (and
/// `--stats`).
pub fn text(p: &Program, r: &ProcResult, replay: &dyn Fn(&Warning) -> String, stats: bool, full: bool) -> String {
    let mut out = String::new();
    for w in &r.warnings {
        let d = diag::Diag::warning(w.span, format!("{} ({})", w.message, w.kind));
        out.push_str(&d.one_line(&p.source));
        out.push('\n');
        out.push_str("Execution trace information:\n");
        trace_listing(&trace_docs(p, w, full), "    ", &mut out);
        let shown = if w.status == Status::Confirmed {
            &w.used_inputs
        } else {
            &w.inputs
        };
        out.push_str(&format!("Counterexample: {}\n", inputs_text(shown)));
        if !w.choices.is_empty() {
            let c: Vec<String> = w.choices.iter().map(|c| c.to_string()).collect();
            out.push_str(&format!("Choices: {}\n", c.join(",")));
        }
        match (&w.status, &w.replay_note) {
            (Status::Confirmed, _) => out.push_str("status: confirmed (the replay reaches this error)\n"),
            (_, Some(n)) => out.push_str(&format!("status: possible ({n})\n")),
            _ => out.push_str("status: possible\n"),
        }
        if replayable(w) {
            out.push_str(&format!("replay: {}\n", replay(w)));
        }
        out.push('\n');
    }
    let confirmed = r.warnings.iter().filter(|w| w.status == Status::Confirmed).count();
    let summary = match r.outcome {
        Outcome::Warnings => format!(
            "{} warning{} ({confirmed} confirmed); {}",
            r.warnings.len(),
            if r.warnings.len() == 1 { "" } else { "s" },
            r.reason
        ),
        _ => r.reason.clone(),
    };
    out.push_str(&format!(
        "{}: `{}`: {}: {summary}\n",
        p.source.name,
        r.name,
        r.outcome.name()
    ));
    if stats {
        out.push_str(&format!(
            "stats: {} blocks, {} commands; Z3 {:.3}s of {:.3}s\n",
            r.blocks,
            r.commands,
            r.solver_time.as_secs_f64(),
            r.total_time.as_secs_f64()
        ));
        for (line, t, user) in &r.invariants {
            out.push_str(&format!(
                "invariant at line {line}: {t}{}\n",
                if *user { " (given)" } else { " (inferred)" }
            ));
        }
    }
    out
}

/// Can the interpreter replay the warning's counterexample?
pub fn replayable(w: &Warning) -> bool {
    matches!(w.key, vc::gc::CheckKey::Site(_) | vc::gc::CheckKey::User(_))
}

/// The document of a file: the entry's result and its warnings, each with
/// the command that replays it.
pub fn doc(p: &Program, r: &ProcResult, replay: &dyn Fn(&Warning) -> String, full: bool) -> VerifyDoc {
    let warnings = (r.warnings.iter())
        .map(|w| {
            let (line, column) = loc(p, w.span);
            // A confirmed warning shows the inputs its replay reads.
            let shown = if w.status == Status::Confirmed {
                &w.used_inputs
            } else {
                &w.inputs
            };
            WarningDoc {
                kind: w.kind,
                line,
                column,
                message: w.message.clone(),
                status: w.status.name(),
                trace: trace_docs(p, w, full),
                inputs: shown.iter().cloned().collect(),
                choices: w.choices.clone(),
                replay: replayable(w).then(|| replay(w)),
            }
        })
        .collect();
    let invariants = (r.invariants.iter())
        .map(|(line, text, user)| InvariantDoc {
            line: *line,
            text: text.clone(),
            user: *user,
        })
        .collect();
    VerifyDoc {
        file: p.source.name.clone(),
        procedures: vec![ProcDoc {
            name: r.name.clone(),
            warnings,
            result: r.outcome.name(),
            reason: r.reason.clone(),
            invariants,
            blocks: r.blocks,
            commands: r.commands,
            seconds: r.total_time.as_secs_f64(),
            solver_seconds: r.solver_time.as_secs_f64(),
        }],
    }
}

/// `verify`'s document of a file: its warnings, or with contracts its VCs.
#[derive(Serialize)]
#[serde(untagged)]
pub enum VerifyFileDoc {
    Warnings(VerifyDoc),
    Vcs(super::vcs::VcsDoc),
}

impl super::documents::Document for VerifyFileDoc {
    fn file(&self) -> &str {
        match self {
            VerifyFileDoc::Warnings(d) => &d.file,
            VerifyFileDoc::Vcs(d) => &d.file,
        }
    }
}
