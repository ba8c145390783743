//! The JSON document of `check` (fields documented in the README).

use super::fold::{self, Docs, Foldable, RepeatDoc};
use super::text::projected;
use super::trace::{shown_trace, TraceLine};
use crate::analysis::witness::Counterexample;
use crate::check::Report;
use crate::diag::Diag;
use crate::explain::assume::Assumption;
use crate::explain::entries::{AtomOutcome, Entry, EntryKind};
use crate::explain::{Explanation, FssReport};
use crate::facts::Analysis;
use crate::ir::Program;
use crate::syntax::source::SourceFile;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize)]
pub struct FileDoc {
    pub file: String,
    /// `checked`, or why not: `rejected` (does not parse, outside Cimple,
    /// a bad `--error`), `unreadable`, `internal_error`.
    pub status: &'static str,
    /// Errors about the file (why it was not checked).
    pub errors: Vec<MessageDoc>,
    /// Warnings about the file (a function left out, ...).
    pub warnings: Vec<MessageDoc>,
    /// A budget cut the Datalog engine short (what it left open is not
    /// `safe`, unless the VC engine proved it: `engine: vc`).
    pub truncated: bool,
    /// Which budget, if one did.
    pub limit: Option<String>,
    pub conditions: Vec<CondDoc>,
    pub states: usize,
    pub seconds: f64,
    /// Seconds per phase: exploring, deciding verdicts, explaining.
    pub timings: Timings,
    /// Procedure summaries: forward (fsum exit valuations) and backward
    /// (bsum keys).
    pub summaries: Summaries,
    /// `check --doomed`: `doomed`, `unreachable`, `skipped`, `stats` as
    /// `focuscheck doomed` writes them.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub doomed: Option<super::doomed::DoomedDoc>,
    /// The engine of `check --engine` (absent for a file not checked), and
    /// what the VC engine did (absent when it did not run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vc: Option<VcDoc>,
    /// The objects per allocating call the check was decided with, when it
    /// grew the heap pool past the default (`--heap-instances`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub heap_instances: Option<u32>,
}

/// What the VC engine did for a file.
#[derive(Serialize, Deserialize)]
pub struct VcDoc {
    /// The loop modes it ran, in order (`havoc`, `kinduction:2`, ...).
    pub modes: Vec<String>,
    pub seconds: f64,
    /// Of which in Z3's `check`.
    pub solver_seconds: f64,
}

/// A diagnostic: its message and where (null when it is not in the file,
/// e.g. an internal error or a bad `--error` condition).
#[derive(Serialize, Deserialize, Clone)]
pub struct MessageDoc {
    pub message: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
}

/// The diagnostics about `file`, split into errors and warnings; `located`
/// says whether their spans are positions in `file`.
pub fn diagnostics(file: &SourceFile, diags: &[Diag], located: bool) -> (Vec<MessageDoc>, Vec<MessageDoc>) {
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    for d in diags {
        let at = located.then(|| file.start(d.span));
        let mut message = d.message.clone();
        for n in &d.notes {
            message.push_str(&format!(" ({n})"));
        }
        let m = MessageDoc {
            message,
            line: at.map(|a| a.line),
            column: at.map(|a| a.col),
        };
        if d.is_error() {
            errors.push(m);
        } else {
            warnings.push(m);
        }
    }
    (errors, warnings)
}

impl FileDoc {
    /// A file that was not checked, and why.
    pub fn not_checked(
        file: &str,
        status: &'static str,
        errors: Vec<MessageDoc>,
        warnings: Vec<MessageDoc>,
    ) -> FileDoc {
        FileDoc {
            file: file.to_string(),
            status,
            errors,
            warnings,
            truncated: false,
            limit: None,
            conditions: Vec::new(),
            states: 0,
            seconds: 0.0,
            timings: Timings {
                explore: 0.0,
                verdicts: 0.0,
                explain: 0.0,
            },
            summaries: Summaries {
                forward: 0,
                backward: 0,
            },
            doomed: None,
            engine: None,
            vc: None,
            heap_instances: None,
        }
    }
}

#[derive(Serialize, Deserialize)]
pub struct Timings {
    pub explore: f64,
    pub verdicts: f64,
    pub explain: f64,
}

#[derive(Serialize, Deserialize)]
pub struct Summaries {
    pub forward: usize,
    pub backward: usize,
}

#[derive(Serialize, Deserialize)]
pub struct CondDoc {
    pub condition: String,
    pub kind: &'static str,
    pub line: Option<u32>,
    pub column: Option<u32>,
    /// For a user condition: where the variable it reads is declared.
    pub declared: Option<Place>,
    pub verdict: &'static str,
    pub reason: String,
    /// The engine whose verdict it is: `fsum`, `vc`, `runs` (a sampled
    /// run), or `fsum+vc` (neither decided).
    pub engine: &'static str,
    /// Feasible focus-statement sequences, ranked: the first
    /// `FSS_LISTED` unless `--all-fss`.
    pub fss: Vec<FssDoc>,
    /// FSSs of lower rank left out of `fss` (`--all-fss` lists them).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fss_omitted: usize,
    /// What Reduce keeps: per listed FSS its NEST and remaining assumptions.
    pub reduced: Vec<ReducedDoc>,
    /// Reduced FSSs left out of `reduced` (those of FSSs left out of `fss`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub reduced_omitted: usize,
    /// Candidates dropped as infeasible.
    pub infeasible: usize,
    /// The FSS listing may be incomplete (a limit cut it short).
    pub truncated: bool,
    /// The explanation was cut by `--timeout`'s wall clock, not by a
    /// count: on a less loaded machine it may go further (absent when not).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub explanation_clock: bool,
    /// Why a condition that is not safe has no FSS (absent when it has
    /// one, or with `--no-explain`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_fss: Option<String>,
    /// Where the FSSs come from (absent when there are none): `graph`, the
    /// backward rules over the Datalog engine's explored graph, or `run`,
    /// over the counterexample's own run (the VC engine's counterexamples).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explained_from: Option<String>,
    /// Inputs (those the run reads) and choices of the top counterexample.
    pub inputs: BTreeMap<String, i64>,
    /// Its `main` arguments as C writes them (`argc = 2, argv = {"a", "b"}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<String>,
    pub choices: Vec<i64>,
    /// Inputs the run never reads (any value does), left out of `inputs`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unread_inputs: usize,
    /// The run was drawn from this seed (`run --seed` replays it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Choices left out of `choices` (`--full-trace` lists them): of a
    /// long run, all of them if it was drawn from `seed`, else the run of
    /// `choices_fill` that ends them (after those listed).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub choices_omitted: usize,
    /// Every choice left out is this value (`run --choices ... --fill`
    /// gives them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choices_fill: Option<i64>,
    pub trace: Vec<TraceLine>,
    /// What the top counterexample shows of the error (`index 8, `a` has 8
    /// elements`, the values the failed check reads), as the text says it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fact: Option<String>,
    /// The command that replays the top counterexample in the interpreter
    /// (`focuscheck run FILE ...`; absent without one, or where no command
    /// names the file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
    /// Fix candidates (`check --fixes`, unsafe conditions only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fixes: Option<super::fixes::FixesDoc>,
}

#[derive(Serialize, Deserialize, Clone, Copy)]
pub struct Place {
    pub line: u32,
    pub column: u32,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct StatementDoc {
    pub line: u32,
    pub column: u32,
    pub text: String,
    /// For a folded repetition, the kind of its first statement.
    pub kind: EntryKind,
    pub outcome: Option<bool>,
    pub atoms: Vec<AtomOutcome>,
    pub depth: u32,
    /// Consecutive runs of the same statements (a loop's iterations, a
    /// recursion), folded: the count, the first and last runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub repeat: Option<RepeatDoc<StatementDoc>>,
    /// Statements left out of an over-long listing that does not repeat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub omitted: Option<u64>,
}

/// An FSS entry is the statement it evaluates, the way it went.
pub struct Statement<'a>(pub &'a Entry);

impl Foldable for Statement<'_> {
    fn fold_key(&self) -> u64 {
        let e = self.0;
        let mut k = (e.node.0 as u64) << 8 | e.outcome.map_or(0, |b| 2 + b as u64);
        for a in &e.atoms {
            k = k.rotate_left(5) ^ (a.outcome as u64 + 1);
        }
        k
    }
}

/// Entries as statement documents: every one with `full`, else folded.
pub fn statements<'a>(entries: impl IntoIterator<Item = &'a Entry>, full: bool) -> Vec<StatementDoc> {
    let entries = entries.into_iter().map(Statement);
    let folded = if full {
        fold::unfolded(entries)
    } else {
        fold::fold(entries)
    };
    let plain = |l: u32| l.to_string();
    Docs {
        one: &|s: Statement| statement(s.0),
        lines: &|d: &StatementDoc| match &d.repeat {
            Some(r) => (r.lines[0], r.lines[1]),
            None => (d.line, d.line),
        },
        repeat: &|r: RepeatDoc<StatementDoc>| {
            let head = &r.first[0];
            StatementDoc {
                line: head.line,
                column: head.column,
                text: fold::repeat_text(&r, &plain),
                kind: head.kind,
                outcome: None,
                atoms: Vec::new(),
                depth: head.depth,
                repeat: Some(r),
                omitted: None,
            }
        },
        omitted: &|steps, next: Option<&StatementDoc>| StatementDoc {
            line: next.map_or(0, |n| n.line),
            column: next.map_or(0, |n| n.column),
            text: fold::omitted_text(steps),
            kind: next.map_or(EntryKind::Assign, |n| n.kind),
            outcome: None,
            atoms: Vec::new(),
            depth: next.map_or(0, |n| n.depth),
            repeat: None,
            omitted: Some(steps),
        },
    }
    .make(folded)
}

/// Lines in order of first appearance, each once.
fn distinct(lines: impl IntoIterator<Item = u32>) -> Vec<u32> {
    let mut seen = std::collections::HashSet::new();
    lines.into_iter().filter(|l| seen.insert(*l)).collect()
}

#[derive(Serialize, Deserialize)]
pub struct AssumptionDoc {
    pub text: String,
    pub line: u32,
    pub column: u32,
    pub vars: Vec<String>,
    /// This many assumptions of one place, alike but for a draw number
    /// counting up, shown as one (`v@11 >= 200 for the 1st..20th values`;
    /// absent for one, and with `--full-trace`, which lists each).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folded: Option<usize>,
}

#[derive(Serialize, Deserialize)]
// Its trace's kinds are `&'static str`: read from text that lives as long.
#[serde(bound(deserialize = "'de: 'static"))]
pub struct FssDoc {
    pub rank: usize,
    pub statements: Vec<StatementDoc>,
    pub assumptions: Vec<AssumptionDoc>,
    /// The inputs of a complete counterexample with this FSS.
    pub inputs: BTreeMap<String, i64>,
    pub choices: Vec<i64>,
    /// As the condition's: the seed the run was drawn from, and the
    /// choices left out of `choices` (all `choices_fill` when set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub choices_omitted: usize,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub choices_fill: Option<i64>,
    /// Lines of the NEST if Reduce kept this FSS, else empty (each once,
    /// in the order the FSS first meets them).
    pub nest: Vec<u32>,
    /// The full counterexample trace with this FSS.
    pub trace: Vec<TraceLine>,
    /// The command that replays that counterexample (as the condition's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replay: Option<String>,
}

#[derive(Serialize, Deserialize)]
pub struct ReducedDoc {
    pub rank: usize,
    /// The NEST's lines, each once, in the order the FSS first meets them.
    pub nest: Vec<u32>,
    /// The NEST's statements.
    pub statements: Vec<StatementDoc>,
    pub assumptions: Vec<AssumptionDoc>,
    /// The line of the conditional that localised the NEST (null: the whole
    /// FSS).
    pub at: Option<u32>,
    /// The `#define` lines and global declarations the NEST's values come
    /// from (their lines are in `nest` too).
    pub definitions: Vec<DefinitionDoc>,
}

#[derive(Serialize, Deserialize)]
pub struct DefinitionDoc {
    pub line: u32,
    pub column: u32,
    pub text: String,
    /// The header it is in, when not in the checked file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

/// The definitions of a reduced FSS, for every view.
pub fn definitions(p: &Program, r: &crate::explain::reduce::Reduced) -> Vec<DefinitionDoc> {
    r.definitions
        .iter()
        .map(|&d| {
            let at = p.source.start(d);
            DefinitionDoc {
                line: at.line,
                column: at.col,
                text: p.text(d).split_whitespace().collect::<Vec<_>>().join(" "),
                file: Some(p.source.name_of(d))
                    .filter(|n| *n != p.source.name)
                    .map(str::to_string),
            }
        })
        .collect()
}

fn statement(e: &Entry) -> StatementDoc {
    StatementDoc {
        line: e.line,
        column: e.column,
        text: e.text.clone(),
        kind: e.kind,
        outcome: e.outcome,
        atoms: e.atoms.clone(),
        depth: e.depth,
        repeat: None,
        omitted: None,
    }
}

/// The file's `limit` when `--timeout`'s wall clock cut an explanation.
pub const EXPLANATION_CLOCK: &str =
    "the explanation was cut by --timeout (the wall clock: on a less loaded machine it may go further)";

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A counterexample's values as a report lists them.
#[derive(Default)]
struct Values {
    inputs: BTreeMap<String, i64>,
    choices: Vec<i64>,
    unread: usize,
    seed: Option<u64>,
    omitted: usize,
    fill: Option<i64>,
}

impl Values {
    fn of(cx: &crate::analysis::witness::Counterexample, full: bool) -> Values {
        let inputs: BTreeMap<String, i64> = cx.read_inputs().cloned().collect();
        let unread = cx.inputs.len() - inputs.len();
        let long = !full && cx.choices.len() > super::text::SEEDED_CHOICES;
        // A long run of one value at the end is left out as `choices_fill`
        // (as `run --fill` gives it); a run drawn from a seed, entirely.
        let tail = super::text::fill_tail(&cx.choices);
        let (kept, fill) = match (long, cx.seed, tail) {
            (false, ..) => (cx.choices.len(), None),
            (true, Some(_), _) => (0, None),
            (true, None, Some((n, v))) => (cx.choices.len() - n, Some(v)),
            (true, None, None) => (cx.choices.len(), None),
        };
        Values {
            inputs,
            choices: cx.choices[..kept].to_vec(),
            unread,
            seed: cx.seed,
            omitted: cx.choices.len() - kept,
            fill,
        }
    }
}

/// The names of a program's inputs, to find those an assumption names.
type InputNames = std::collections::HashSet<String>;

fn assumption(p: &Program, names: &InputNames, a: &Assumption) -> AssumptionDoc {
    let at = p.source.start(p.node(a.primary().node).span);
    // Each word of the text that names an input (an array's elements are
    // inputs too: the set is looked up, not scanned, per assumption).
    let mut vars: Vec<String> = a
        .text
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c == '[' || c == ']'))
        .filter(|w| names.contains(*w))
        .map(str::to_string)
        .collect();
    vars.sort();
    vars.dedup();
    AssumptionDoc {
        text: a.text.clone(),
        line: at.line,
        column: at.col,
        vars,
        folded: None,
    }
}

/// The assumptions as a report lists them: runs of one place that differ
/// only in a draw number counting up folded into one (`views::assumptions`)
/// unless `full`.
fn assumption_docs(p: &Program, names: &InputNames, list: Vec<&Assumption>, full: bool) -> Vec<AssumptionDoc> {
    let docs: Vec<AssumptionDoc> = list.into_iter().map(|x| assumption(p, names, x)).collect();
    if full {
        return docs;
    }
    let items: Vec<super::assumptions::Item> = docs.iter().map(Into::into).collect();
    let mut docs: Vec<Option<AssumptionDoc>> = docs.into_iter().map(Some).collect();
    super::assumptions::groups(&items)
        .into_iter()
        .filter_map(|g| {
            let mut d = docs[g.members[0]].take()?;
            if g.members.len() > 1 {
                let mut vars: Vec<String> = g
                    .members
                    .iter()
                    .filter_map(|&m| docs[m].take())
                    .flat_map(|x| x.vars)
                    .chain(std::mem::take(&mut d.vars))
                    .collect();
                vars.sort();
                vars.dedup();
                d.vars = vars;
                d.text = g.text;
                d.folded = Some(g.members.len());
            }
            Some(d)
        })
        .collect()
}

/// FSSs a document lists unless `--all-fss`: those of the highest ranks
/// (an explanation can find hundreds, each with its run).
pub const FSS_LISTED: usize = 10;

/// How much of an explanation a document lists.
#[derive(Clone, Copy, Default)]
pub struct Listing {
    /// Every step of traces and FSSs (`--full-trace`); else repetitions folded.
    pub full_trace: bool,
    /// Every FSS (`--all-fss`); else the first `FSS_LISTED`.
    pub all_fss: bool,
}

impl Listing {
    /// How many FSSs are listed.
    pub fn fss_limit(&self) -> usize {
        if self.all_fss {
            usize::MAX
        } else {
            FSS_LISTED
        }
    }
}

/// The listed FSSs and reduced FSSs of `ex`, and how many are left out.
#[derive(Default)]
struct FssDocs {
    fss: Vec<FssDoc>,
    fss_omitted: usize,
    reduced: Vec<ReducedDoc>,
    reduced_omitted: usize,
}

fn fss_docs(
    p: &Program,
    a: &Analysis,
    ex: &Explanation,
    names: &InputNames,
    project: &Option<Vec<String>>,
    listing: &Listing,
) -> FssDocs {
    let full = listing.full_trace;
    let limit = listing.fss_limit();
    let nest_of = |i: usize| -> Vec<u32> {
        ex.reduced
            .iter()
            .find(|r| r.index == i)
            .map(|r| distinct(r.nest.iter().map(|&k| ex.fss[i].entries[k].line)))
            .unwrap_or_default()
    };
    let fss: Vec<FssDoc> = ex
        .fss
        .iter()
        .enumerate()
        .take(limit)
        .map(|(i, f): (usize, &FssReport)| {
            let (values, trace) = match &f.witness {
                Some(cx) => (Values::of(cx, full), shown_trace(p, a, &cx.run, full)),
                None => (Values::default(), Vec::new()),
            };
            FssDoc {
                rank: i + 1,
                statements: statements(&f.entries, full),
                assumptions: assumption_docs(p, names, projected(&f.assumptions, project), full),
                inputs: values.inputs,
                choices: values.choices,
                seed: values.seed,
                choices_omitted: values.omitted,
                choices_fill: values.fill,
                nest: nest_of(i),
                trace,
                replay: None,
            }
        })
        .collect();
    let reduced: Vec<ReducedDoc> = ex
        .reduced
        .iter()
        .filter(|r| r.index < limit)
        .map(|r| {
            let f = &ex.fss[r.index];
            let definitions = definitions(p, r);
            ReducedDoc {
                rank: r.index + 1,
                nest: distinct(
                    r.nest
                        .iter()
                        .map(|&k| f.entries[k].line)
                        .chain(definitions.iter().map(|d| d.line)),
                ),
                definitions,
                statements: statements(r.nest.iter().map(|&k| &f.entries[k]), full),
                assumptions: assumption_docs(p, names, projected(&r.assumptions, project), full),
                at: r
                    .at
                    .filter(|_| r.nest.len() < f.entries.len())
                    .map(|k| f.entries[k].line),
            }
        })
        .collect();
    FssDocs {
        fss_omitted: ex.fss.len() - fss.len(),
        reduced_omitted: ex.reduced.len() - reduced.len(),
        fss,
        reduced,
    }
}

pub fn file_doc(p: &Program, r: &Report, project: &Option<Vec<String>>) -> FileDoc {
    file_doc_with(p, r, project, &Listing::default())
}

/// The document, listing as much as `listing` says.
pub fn file_doc_with(p: &Program, r: &Report, project: &Option<Vec<String>>, listing: &Listing) -> FileDoc {
    let full = listing.full_trace;
    let a = &r.analysis;
    let names: InputNames = p.input_slots().into_iter().map(|s| s.name).collect();
    let argv = super::argv_words::Argv::of(p);
    let conditions: Vec<CondDoc> = r
        .results
        .iter()
        .map(|res| {
            let c = r.condition(res);
            let at = c.site().map(|s| p.source.start(p.site(s).span));
            let ex = r.explanations.get(&res.id);
            let docs = ex
                .map(|ex| fss_docs(p, a, ex, &names, project, listing))
                .unwrap_or_default();
            let top = r.top_counterexample(res);
            let values = top.map(|cx| Values::of(cx, full)).unwrap_or_default();
            let trace = top.map(|cx| shown_trace(p, a, &cx.run, full)).unwrap_or_default();
            CondDoc {
                condition: c.describe(p),
                kind: c.json_kind(p),
                line: at.map(|l| l.line),
                column: at.map(|l| l.col),
                declared: c.user().and_then(|u| u.vars.first()).map(|&v| {
                    let d = p.source.start(p.var(v).span);
                    Place {
                        line: d.line,
                        column: d.col,
                    }
                }),
                verdict: res.verdict.name(),
                reason: res.reason.clone(),
                engine: res.engine,
                fss: docs.fss,
                fss_omitted: docs.fss_omitted,
                reduced: docs.reduced,
                reduced_omitted: docs.reduced_omitted,
                infeasible: ex.map(|e| e.infeasible).unwrap_or(0),
                // A cut exploration or search leaves the listing incomplete too.
                truncated: ex.is_some_and(|e| e.truncated)
                    || r.budget_hit.is_some()
                    || res.truncated
                    || (r.explain_skipped && res.verdict != crate::analysis::Verdict::Safe),
                explanation_clock: r.explanation_clock(res),
                no_fss: r.no_fss(res),
                explained_from: ex.filter(|e| !e.fss.is_empty()).map(|e| {
                    match (e.sliced, e.of_run) {
                        (true, _) => "run slice",
                        (false, true) => "run",
                        (false, false) => "graph",
                    }
                    .to_string()
                }),
                inputs: values.inputs,
                arguments: top
                    .and_then(|cx| argv.as_ref()?.words(&cx.inputs))
                    .map(|w| super::argv_words::describe(&w)),
                choices: values.choices,
                unread_inputs: values.unread,
                seed: values.seed,
                choices_omitted: values.omitted,
                choices_fill: values.fill,
                trace,
                fact: top.and_then(|cx| super::error_fact(p, &cx.run)),
                replay: None,
                fixes: None,
            }
        })
        .collect();
    // The clock cut a phase that another engine then decided: the verdict
    // stands, but the document depends on the machine's load.
    let clock_cut = r.results.iter().any(|res| res.clock_cut);
    let truncated =
        r.budget_hit.is_some() || r.explain_skipped || clock_cut || conditions.iter().any(|c: &CondDoc| c.truncated);
    FileDoc {
        file: p.source.name.clone(),
        status: "checked",
        errors: Vec::new(),
        warnings: Vec::new(),
        truncated,
        limit: r.budget_hit.map(str::to_string).or_else(|| {
            if r.results.iter().any(|res| res.truncated && !res.clock_cut) {
                Some("the counterexample search ran out of its budget".to_string())
            } else if clock_cut {
                Some(crate::analysis::run::TIME_LIMIT.to_string())
            } else if r.explain_skipped {
                Some("the time limit (--timeout) left too little time to explain".to_string())
            } else if r.results.iter().any(|res| r.explanation_clock(res)) {
                Some(EXPLANATION_CLOCK.to_string())
            } else {
                truncated.then(|| "a limit of the explanation was reached".to_string())
            }
        }),
        conditions,
        states: r.states,
        seconds: r.total_time.as_secs_f64(),
        timings: Timings {
            explore: r.explore_time.as_secs_f64(),
            verdicts: r.verdict_time.as_secs_f64(),
            explain: r.explain_time.as_secs_f64(),
        },
        summaries: Summaries {
            forward: r.summaries,
            backward: r.explain.summaries,
        },
        doomed: None,
        engine: Some(r.engine.name()),
        vc: (!r.vc.modes.is_empty()).then(|| VcDoc {
            modes: r.vc.modes.clone(),
            seconds: r.vc.time.as_secs_f64(),
            solver_seconds: r.vc.solver_time.as_secs_f64(),
        }),
        heap_instances: r.heap_instances,
    }
}

/// Rewrites every `line` (and the lines of `nest`, `lines`, `at`) with `f`, which
/// gives the line in its own file and which file it is (`diff`'s versions);
/// each object with a line gets a `version` too.
/// Fills in the commands that replay each condition's top counterexample
/// and each listed FSS's (`replay` makes one, as the text view's).
pub fn add_replay(doc: &mut FileDoc, r: &Report, replay: &dyn Fn(&Counterexample) -> String) {
    for (c, res) in doc.conditions.iter_mut().zip(&r.results) {
        c.replay = r.top_counterexample(res).map(replay);
        let Some(ex) = r.explanations.get(&res.id) else {
            continue;
        };
        for f in &mut c.fss {
            f.replay = ex.fss.get(f.rank - 1).and_then(|x| x.witness.as_ref()).map(replay);
        }
    }
}

pub fn map_lines(v: &mut serde_json::Value, f: &dyn Fn(u32) -> (u32, &'static str)) {
    match v {
        serde_json::Value::Object(map) => {
            if let Some(l) = map.get("line").and_then(|l| l.as_u64()) {
                let (line, part) = f(l as u32);
                map.insert("line".into(), line.into());
                map.insert("version".into(), part.into());
            }
            if let Some(l) = map.get("at").and_then(|l| l.as_u64()) {
                map.insert("at".into(), f(l as u32).0.into());
            }
            for key in ["nest", "lines"] {
                if let Some(serde_json::Value::Array(ns)) = map.get_mut(key) {
                    for n in ns.iter_mut() {
                        if let Some(l) = n.as_u64() {
                            *n = f(l as u32).0.into();
                        }
                    }
                }
            }
            for (k, x) in map.iter_mut() {
                if k != "nest" && k != "lines" {
                    map_lines(x, f);
                }
            }
        }
        serde_json::Value::Array(xs) => {
            for x in xs {
                map_lines(x, f);
            }
        }
        _ => {}
    }
}
