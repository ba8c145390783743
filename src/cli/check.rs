//! `focuscheck check`: verdicts per error condition, counterexamples.

use super::args::{BudgetArgs, CondArgs, ShowArgs, VcPlanArgs};
use super::*;
use crate::analysis::{CheckOptions, Verdict};
use crate::context::conditions::Property;
use crate::engines::Engine;
use crate::pipeline::{Config, FixSearch, Refused};
use crate::views;
use crate::views::text::View;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Reports for people (with a summary table for several files).
    Text,
    /// One JSON document per file (an array for several).
    Json,
    /// One JSON document per line, per file.
    Jsonl,
    /// One SARIF 2.1.0 log for all files.
    Sarif,
}

#[derive(Args)]
pub struct CheckArgs {
    /// Cimple files, or directories to search (recursively) for `.c`,
    /// `.i` and `.cimple` files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    pub(super) front: FrontArgs,
    #[command(flatten)]
    pub(super) cond: CondArgs,
    /// Which engine decides verdicts: `fsum` (the Datalog engine), `vc`
    /// (the VC engine with Z3 alone) or `auto` (the Datalog engine first; a
    /// state space past its first share, or what it leaves unknown, goes to
    /// the VC engine: safe only from a sound mode, unsafe only after
    /// replay). Every counterexample, whichever engine found it, is
    /// explained from its replayed run.
    #[arg(long, value_enum, default_value_t = Engine::Auto)]
    engine: Engine,
    #[command(flatten)]
    budget: BudgetArgs,
    #[command(flatten)]
    vc: VcPlanArgs,
    /// Inline every call instead of reusing procedure summaries (to measure
    /// what summaries save).
    #[arg(long)]
    no_summaries: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    #[command(flatten)]
    show: ShowArgs,
    /// Files checked at once (default: the number of cores).
    #[arg(long, short = 'j', value_name = "N",
          value_parser = super::options::count)]
    jobs: Option<usize>,
    /// Also report doomed program points (as `focuscheck doomed` does,
    /// with its default options).
    #[arg(long)]
    doomed: bool,
    /// Also write a self-contained HTML report (index.html and one page
    /// per file) into this directory.
    #[arg(long, value_name = "DIR")]
    html: Option<PathBuf>,
    /// Check only part K of N of the files (K from 0; every N-th file in
    /// sorted path order from the K-th), e.g. for a job array; `focuscheck
    /// report` merges the parts' `--format jsonl` output.
    #[arg(long, value_name = "K/N", value_parser = super::shard::parse)]
    shard: Option<super::shard::Shard>,
    /// Write a C test harness per confirmed counterexample into this
    /// directory (compile it with the program: `gcc
    /// -finstrument-functions FILE.c HARNESS.c`), or say why there is none.
    #[arg(long, value_name = "DIR")]
    tests: Option<PathBuf>,
    /// Write an SV-COMP witness (format 2.0, YAML): a violation witness of
    /// the first confirmed counterexample that reaches a `reach_error()`
    /// call, or, when every condition is safe, a correctness witness of
    /// the loop invariants that prove it; into this file, or, if it is a
    /// directory, one `NAME.witness.yml` per program in it. The check
    /// leaves a fifth of `--timeout` to the witness; none not confirmed
    /// within `--timeout` is written (the reason is said).
    #[arg(long, visible_alias = "write-witness", value_name = "FILE|DIR")]
    witness: Option<PathBuf>,
    /// Search fix candidates for each unsafe condition, of every file, with
    /// a larger budget: one-token edits of its top FSS's statements (a
    /// comparison, a sign, `&&`/`||`, a constant by one, a variable) after
    /// which its counterexamples pass and a check of the edited program
    /// finds it no longer unsafe. Their lines are the fix region. Without
    /// it, a single file gets a small search where the NEST does not narrow.
    #[arg(long, conflicts_with = "no_fixes")]
    fixes: bool,
    /// No search for fix candidates (not even the small default one of a
    /// single file).
    #[arg(long)]
    no_fixes: bool,
}

/// The fix search `--fixes`/`--no-fixes` ask for: by default a small
/// one for a single file.
fn fix_search(args: &CheckArgs, files: usize) -> Option<FixSearch> {
    match (args.fixes, args.no_fixes) {
        (true, _) => Some(FixSearch::full()),
        (false, false) if files == 1 => Some(FixSearch::small()),
        _ => None,
    }
}

/// The command line that shows `view` (and FSS `n`) of `file`: this
/// run's options that change what is found, with the view replaced.
fn next_command(args: &CheckArgs, front: &super::FrontArgs, file: &Path, view: View, n: Option<usize>) -> String {
    let mut out = vec!["focuscheck".to_string(), "check".to_string()];
    out.extend(front.flags());
    let mut opt = |name: &str, value: String| {
        out.push(name.to_string());
        out.push(shell_word(&value));
    };
    for e in &args.cond.errors {
        opt("--error", e.clone());
    }
    if args.cond.property != Property::All {
        opt("--property", value_name(args.cond.property));
    }
    if args.engine != Engine::Auto {
        opt("--engine", value_name(args.engine));
    }
    if args.budget.unroll != crate::analysis::step::DEFAULT_UNROLL {
        opt("--unroll", args.budget.unroll.to_string());
    }
    if let Some(t) = args
        .budget
        .timeout
        .filter(|t| Some(*t) != options::seconds(options::DEFAULT_TIMEOUT).ok())
    {
        opt("--timeout", t.as_secs_f64().to_string());
    }
    if let Some(n) = args.budget.max_states {
        opt("--max-states", n.to_string());
    }
    for (name, value) in args.vc.flags() {
        opt(name, value);
    }
    if let Some(p) = &args.show.project {
        opt("--project", p.join(","));
    }
    if args.no_summaries {
        out.push("--no-summaries".into());
    }
    out.push(shell_word(&file.display().to_string()));
    out.push("--view".into());
    out.push(value_name(view));
    if let Some(n) = n {
        out.push(format!("--fss {n}"));
    }
    out.join(" ")
}

/// How clap spells a value of an option.
pub(super) fn value_name<T: ValueEnum>(v: T) -> String {
    v.to_possible_value()
        .map(|p| p.get_name().to_string())
        .unwrap_or_default()
}

pub(super) use crate::views::text::shell_word;

/// `focuscheck run FILE` with the options that make a run see the program
/// as the command did (entry, globals, user conditions); the replay
/// commands of check, verify and diagnose start with it.
pub(super) fn run_prefix<'a>(
    file: &Path,
    front: &super::FrontArgs,
    errors: impl IntoIterator<Item = &'a str>,
) -> String {
    let mut out = vec![
        "focuscheck".to_string(),
        "run".to_string(),
        shell_word(&file.display().to_string()),
    ];
    out.extend(front.flags());
    for e in errors {
        out.push(format!("--error {}", shell_word(e)));
    }
    out.join(" ")
}

/// `.c`, `.i` and `.cimple` files under the given paths, sorted.
pub(super) fn collect_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut stack = vec![p.clone()];
            while let Some(d) = stack.pop() {
                let Ok(rd) = std::fs::read_dir(&d) else { continue };
                let mut entries: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
                entries.sort();
                for e in entries {
                    if e.is_dir() {
                        stack.push(e);
                    } else if matches!(e.extension().and_then(|x| x.to_str()), Some("c" | "cimple" | "i")) {
                        out.push(e);
                    }
                }
            }
        } else {
            out.push(p.clone());
        }
    }
    out.sort();
    out
}

/// One file's outcome, rendered by the worker that checked it.
struct FileResult {
    /// Diagnostics about the file, rendered (stdout in text mode, with the
    /// report; stderr otherwise).
    messages: String,
    /// The text report (text) or the document's line (jsonl).
    stdout: String,
    doc: Option<views::json::FileDoc>,
    source: Option<Arc<SourceFile>>,
    row: Row,
}

/// A line of the summary table.
#[derive(Default)]
pub(super) struct Row {
    pub(super) conditions: usize,
    pub(super) safe: usize,
    pub(super) unsafe_: usize,
    pub(super) unknown: usize,
    pub(super) fss: usize,
    /// The most FSSs one condition has.
    pub(super) max_fss: usize,
    pub(super) seconds: f64,
    /// Why the file was not checked.
    pub(super) problem: Option<String>,
    /// Doomed regions (`--doomed`).
    pub(super) doomed: usize,
    /// Each unsafe condition: where (`file:line:col`, in a header when it
    /// is there) and what it is.
    pub(super) bugs: Vec<(Option<String>, String)>,
}

impl batch::Progress for FileResult {
    fn progress_note(&self) -> String {
        let r = &self.row;
        match &r.problem {
            Some(p) => p.clone(),
            None => format!("{} unsafe, {} unknown, {} safe", r.unsafe_, r.unknown, r.safe),
        }
    }
}

impl FileResult {
    /// A file that was not checked: `status` for the JSON, `problem` for
    /// the table, `errors` and `warnings` as the JSON lists them.
    fn not_checked(
        args: &CheckArgs,
        name: &str,
        status: &'static str,
        problem: &str,
        messages: String,
        (errors, warnings): (Vec<views::json::MessageDoc>, Vec<views::json::MessageDoc>),
    ) -> FileResult {
        let doc = views::json::FileDoc::not_checked(name, status, errors, warnings);
        let (stdout, messages) = match args.format {
            // The file's line in the report, its errors on stderr.
            Format::Text => (format!("{name}: not checked: {problem}\n"), messages),
            Format::Jsonl => (
                format!("{}\n", serde_json::to_string(&doc).unwrap_or_default()),
                messages,
            ),
            _ => (String::new(), messages),
        };
        FileResult {
            messages,
            stdout,
            doc: Some(doc),
            source: None,
            row: Row {
                problem: Some(problem.to_string()),
                ..Row::default()
            },
        }
    }

    /// A file `pipeline::load` refused: why, on stderr and in its document.
    fn refused(args: &CheckArgs, name: &str, refused: Refused, color: bool) -> FileResult {
        match refused {
            Refused::Unreadable(msg) => {
                let error = views::json::MessageDoc {
                    message: msg.clone(),
                    line: None,
                    column: None,
                };
                let messages = error_line(color, &msg);
                FileResult::not_checked(
                    args,
                    name,
                    "unreadable",
                    "cannot be read",
                    messages,
                    (vec![error], Vec::new()),
                )
            }
            Refused::NotText(file, d) => {
                let docs = views::json::diagnostics(&file, std::slice::from_ref(&d), true);
                let messages = diag::render(&file, &[d], color);
                FileResult::not_checked(args, name, "unreadable", "not text", messages, docs)
            }
            Refused::Rejected(file, diags) => {
                let docs = views::json::diagnostics(&file, &diags, true);
                let messages = diag::render(&file, &diags, color);
                let mut r =
                    FileResult::not_checked(args, name, "rejected", "not accepted (see its errors)", messages, docs);
                r.source = Some(file);
                r
            }
            Refused::BadCondition {
                file,
                diags,
                given,
                errors,
            } => {
                let (_, warnings) = views::json::diagnostics(&file, &diags, true);
                let (mut docs, _) = views::json::diagnostics(&given, &errors, false);
                for e in &mut docs {
                    e.message = format!("in `--error {}`: {}", given.text, e.message);
                }
                let messages = diag::render(&file, &diags, color) + &diag::render(&given, &errors, color);
                let mut r = FileResult::not_checked(
                    args,
                    name,
                    "rejected",
                    "bad --error condition",
                    messages,
                    (docs, warnings),
                );
                r.source = Some(file);
                r
            }
        }
    }

    /// A file whose check panicked.
    fn crashed(args: &CheckArgs, path: &Path, crash: &batch::Crash, color: bool) -> FileResult {
        let name = path.display().to_string();
        let msg = format!(
            "internal error while checking `{name}`: {} (a bug in focuscheck; the batch goes on)",
            crash.0
        );
        let error = views::json::MessageDoc {
            message: msg.clone(),
            line: None,
            column: None,
        };
        FileResult::not_checked(
            args,
            &name,
            "internal_error",
            &format!("internal error: {}", crash.0),
            error_line(color, &msg),
            (vec![error], Vec::new()),
        )
    }
}

fn check_file(path: &Path, args: &CheckArgs, cfg: &Config, ui: &Ui) -> FileResult {
    // The time limit counts from here: reading and lowering count too.
    let start = std::time::Instant::now();
    // Messages go to stderr.
    let color = ui.color;
    let name = path.display().to_string();
    let loaded = match super::load(path, cfg) {
        Ok(loaded) => loaded,
        Err(refused) => return FileResult::refused(args, &name, refused, color),
    };
    let messages = diag::render(&loaded.file, &loaded.diags, color);
    let (_, warnings) = views::json::diagnostics(&loaded.file, &loaded.diags, true);
    // Fault injection for the tests: a crash while checking this file.
    if std::env::var_os("FOCUSCHECK_PANIC_IN").is_some_and(|f| path.ends_with(f)) {
        panic!("FOCUSCHECK_PANIC_IN names this file");
    }
    let within = super::witness::reserving(cfg, args.witness.is_some());
    let crate::pipeline::Grown { loaded, checked } = crate::pipeline::check_growing(loaded, &within, start);
    let (p, report, file) = (&loaded.program, &checked.report, &loaded.file);
    // Replays and suggested commands are given the pool the check used.
    let front = super::FrontArgs {
        heap_instances: report.heap_instances.or(args.front.heap_instances),
        ..args.front.clone()
    };
    let lower = crate::ir::lower::LowerOptions {
        heap_instances: front.lower_options().heap_instances,
        ..cfg.lower.clone()
    };
    let count = |v: Verdict| report.results.iter().filter(|r| r.verdict == v).count();
    let mut out = FileResult {
        messages,
        stdout: String::new(),
        doc: None,
        source: None,
        row: Row {
            conditions: report.results.len(),
            safe: count(Verdict::Safe),
            unsafe_: count(Verdict::Unsafe),
            unknown: count(Verdict::Unknown),
            fss: report.explanations.values().map(|e| e.fss.len()).sum(),
            max_fss: report.explanations.values().map(|e| e.fss.len()).max().unwrap_or(0),
            seconds: report.total_time.as_secs_f64(),
            problem: None,
            doomed: 0,
            bugs: report
                .results
                .iter()
                .filter(|r| r.verdict == Verdict::Unsafe)
                .map(|r| {
                    let c = report.condition(r);
                    let at = c.site().map(|s| p.source.location(p.site(s).span));
                    (at, c.describe(p))
                })
                .collect(),
        },
    };
    if args.format == Format::Text {
        let next = |v: View, n: Option<usize>| next_command(args, &front, path, v, n);
        let prefix = run_prefix(path, &front, args.cond.errors.iter().map(String::as_str));
        let argv = views::argv_words::Argv::of(p);
        let replay = |cx: &crate::analysis::witness::Counterexample| {
            vec![views::text::replay_counterexample(&prefix, cx, argv.as_ref())]
        };
        out.stdout = views::text::report(
            p,
            report,
            &views::text::TextOptions {
                lines: &views::text::PlainLines(p),
                color: ui.color_out,
                stats: args.show.stats,
                view: args.show.view,
                fss: args.show.fss,
                project: args.show.project.clone(),
                next: &next,
                diff: false,
                replay: &replay,
                full_trace: args.show.full_trace,
                all_fss: args.show.all_fss,
                verbose: args.show.verbose,
            },
        );
    }
    let fixes: Vec<Option<views::fixes::FixesDoc>> = checked
        .fixes
        .iter()
        .map(|f| f.as_ref().map(|f| views::fixes::doc(&p.source, f)))
        .collect();
    if args.format == Format::Text {
        let shown = match cfg.fixes {
            Some(s) if !s.narrowed_too => views::fixes::SHOWN_BY_DEFAULT,
            _ => views::fixes::SHOWN,
        };
        for (r, f) in report.results.iter().zip(&fixes) {
            if let Some(f) = f {
                let condition = report.condition(r).describe(p);
                out.stdout
                    .push_str(&views::fixes::text(&p.source, &condition, f, shown));
            }
        }
    }
    if let Some(dir) = &args.tests {
        out.messages.push_str(&super::harness::write(dir, path, p, report));
    }
    if let Some(to) = &args.witness {
        // Within the file's `--timeout`, from the instant its check started.
        let deadline = cfg.check.engine.timeout.map(|t| start + t);
        out.messages
            .push_str(&super::witness::write(to, path, p, report, &lower, deadline));
    }
    let doomed = args.doomed.then(|| super::doomed::findings(p, &Default::default()));
    if let Some(Ok(f)) = &doomed {
        out.row.doomed = f.doomed;
        if args.format == Format::Text {
            out.stdout.push_str(&f.text(p, ui.color_out, args.show.stats));
        }
    }
    if let Some(Err(diags)) = &doomed {
        out.messages.push_str(&diag::render(&p.source, diags, color));
    }
    if args.format != Format::Text || args.html.is_some() {
        let mut doc = views::json::file_doc_with(p, report, &args.show.project, &args.show.listing());
        let prefix = run_prefix(path, &front, args.cond.errors.iter().map(String::as_str));
        let argv = views::argv_words::Argv::of(p);
        views::json::add_replay(&mut doc, report, &|cx| {
            views::text::replay_counterexample(&prefix, cx, argv.as_ref())
        });
        doc.warnings = warnings;
        for (c, f) in doc.conditions.iter_mut().zip(fixes) {
            c.fixes = f;
        }
        doc.doomed = doomed.and_then(Result::ok).map(|f| f.doc);
        if args.format == Format::Jsonl {
            out.stdout = format!("{}\n", serde_json::to_string(&doc).unwrap_or_default());
        }
        out.doc = Some(doc);
        out.source = Some(file.clone());
    }
    out
}

fn error_line(color: bool, msg: &str) -> String {
    if color {
        format!("\x1b[1;31merror\x1b[0m: {msg}\n")
    } else {
        format!("error: {msg}\n")
    }
}

pub fn cmd_check(ui: &Ui, args: &CheckArgs) -> i32 {
    let check = CheckOptions {
        engine: args.budget.step_options(!args.no_summaries),
        explain: !args.show.no_explain,
        explain_steps: args.show.explain_steps.map(|n| n as u64),
        // A `--max-states` given holds for every exploration.
        handover_states: args
            .budget
            .max_states
            .map_or(CheckOptions::default().handover_states, |_| None),
        ..CheckOptions::default()
    };
    let mut files = collect_files(&args.files);
    if files.is_empty() {
        ui.error("no `.c`, `.i` or `.cimple` files in the given directories");
        return EXIT_USAGE;
    }
    let cfg = Config {
        check,
        engine: args.engine,
        vc: args.vc.plan(),
        // A shard of a batch is a batch: no default search.
        fixes: fix_search(args, files.len()),
        // Only the engines that explore: the larger pool is explored.
        grow_pool: args.front.heap_instances.is_none() && matches!(args.engine, Engine::Auto | Engine::Fsum),
        ..Config::front(args.front.lower_options(), &args.cond.errors, true)
    }
    .with_property(args.cond.property);
    if let Some(shard) = args.shard {
        files = shard.select(files);
    }
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    let wall = std::time::Instant::now();
    let mut outcomes = super::Outcomes::default();
    let mut rows: Vec<(PathBuf, Row)> = Vec::new();
    let mut docs: Vec<(views::json::FileDoc, Option<Arc<SourceFile>>)> = Vec::new();
    batch::run(
        &files,
        jobs,
        |path| check_file(path, args, &cfg, ui),
        |i, result| {
            let path = files[i].clone();
            // A crash: nothing is known about this file, it was not checked.
            let r = result.unwrap_or_else(|crash| FileResult::crashed(args, &path, &crash, ui.color));
            // The report on stdout, every diagnostic on stderr.
            out!("{}", r.stdout);
            eprint!("{}", r.messages);
            outcomes.not_checked |= r.row.problem.is_some();
            outcomes.found |= r.row.unsafe_ + r.row.doomed > 0;
            outcomes.unknown |= r.row.unknown > 0;
            if let Some(d) = r.doc {
                docs.push((d, r.source));
            }
            rows.push((path, r.row));
        },
    );
    match args.format {
        Format::Json => {
            let list: Vec<&views::json::FileDoc> = docs.iter().map(|(d, _)| d).collect();
            let text = if list.len() == 1 && files.len() == 1 {
                serde_json::to_string_pretty(list[0])
            } else {
                serde_json::to_string_pretty(&list)
            };
            outln!("{}", text.unwrap_or_default());
        }
        Format::Sarif => {
            let files: Vec<(&views::json::FileDoc, Option<&SourceFile>)> =
                docs.iter().map(|(d, s)| (d, s.as_deref())).collect();
            outln!(
                "{}",
                serde_json::to_string_pretty(&views::sarif::log(&files)).unwrap_or_default()
            );
        }
        Format::Text if files.len() > 1 => {
            let run = format!(
                "wall time {:.2}s with {jobs} job{}",
                wall.elapsed().as_secs_f64(),
                if jobs == 1 { "" } else { "s" }
            );
            out!("{}", summary_table(&rows, &run))
        }
        _ => {}
    }
    if let Some(dir) = &args.html {
        let files: Vec<(&views::json::FileDoc, Option<&SourceFile>)> =
            docs.iter().map(|(d, s)| (d, s.as_deref())).collect();
        match write_pages(dir, views::html::report_pages(&files)) {
            Ok(index) => eprintln!("HTML report: {}", index.display()),
            Err(e) => {
                ui.error(&format!("cannot write the HTML report to `{}`: {e}", dir.display()));
                return EXIT_USAGE;
            }
        }
    }
    // `--fss N` that no condition has is a usage error.
    if let Some(n) = args.show.fss {
        let most = rows.iter().map(|(_, r)| r.max_fss).max().unwrap_or(0);
        if rows.iter().any(|(_, r)| r.problem.is_none()) && n > most {
            ui.error(&format!(
                "--fss {n}: no condition has an FSS of rank {n}; {}",
                match most {
                    0 => "there are no FSSs (every condition is safe, or none was explained)".to_string(),
                    1 => "the most any condition has is 1 (`--fss 1`)".to_string(),
                    m => format!("the most any condition has is {m} (`--fss 1` to `--fss {m}`)"),
                }
            ));
            return EXIT_USAGE;
        }
    }
    outcomes.exit_code()
}

/// The table after a batch: one row per file, then the totals; `run` ends
/// its last line (the wall time, or where the rows come from).
pub(super) fn summary_table(rows: &[(PathBuf, Row)], run: &str) -> String {
    use std::fmt::Write;
    let names: Vec<String> = rows.iter().map(|(p, _)| p.display().to_string()).collect();
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(4).clamp(4, 60);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\nsummary: {} file{}",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" }
    );
    let _ = writeln!(
        out,
        "{:<width$}  {:>5} {:>5} {:>6} {:>7} {:>5} {:>8}",
        "file", "conds", "safe", "unsafe", "unknown", "FSSs", "time"
    );
    let mut total = Row::default();
    let mut problems = 0;
    for ((_, r), name) in rows.iter().zip(&names) {
        let shown = shorten(name, width);
        match &r.problem {
            Some(p) => {
                problems += 1;
                let _ = writeln!(out, "{shown:<width$}  {p}");
            }
            None => {
                let _ = writeln!(
                    out,
                    "{shown:<width$}  {:>5} {:>5} {:>6} {:>7} {:>5} {:>7.2}s",
                    r.conditions, r.safe, r.unsafe_, r.unknown, r.fss, r.seconds
                );
                total.conditions += r.conditions;
                total.safe += r.safe;
                total.unsafe_ += r.unsafe_;
                total.unknown += r.unknown;
                total.fss += r.fss;
                total.seconds += r.seconds;
            }
        }
    }
    let _ = writeln!(
        out,
        "{:<width$}  {:>5} {:>5} {:>6} {:>7} {:>5} {:>7.2}s",
        "total", total.conditions, total.safe, total.unsafe_, total.unknown, total.fss, total.seconds
    );
    if total.unsafe_ > 0 {
        let _ = writeln!(out, "\nerrors found ({}):", total.unsafe_);
        for ((_, r), name) in rows.iter().zip(&names) {
            for (at, what) in &r.bugs {
                let at = at.as_deref().unwrap_or(name);
                let _ = writeln!(out, "  {at}: {}", one_line(what, 100));
            }
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "{} file{} not checked; {run}",
        problems,
        if problems == 1 { "" } else { "s" },
    );
    out
}

/// A text on one line of at most `max` characters.
fn one_line(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let head: String = flat.chars().take(max - 1).collect();
    format!("{head}\u{2026}")
}

/// `...` and the end of a long name.
fn shorten(name: &str, width: usize) -> String {
    let n = name.chars().count();
    if n <= width {
        name.to_string()
    } else {
        let tail: String = name.chars().skip(n - (width - 3)).collect();
        format!("...{tail}")
    }
}

/// Writes pages (paths relative to `dir`, subfolders made as needed);
/// returns the first page's path.
pub(super) fn write_pages(dir: &Path, pages: Vec<(String, String)>) -> std::io::Result<PathBuf> {
    let mut first = None;
    for (name, text) in pages {
        let path = dir.join(&name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, text)?;
        first.get_or_insert(path);
    }
    Ok(first.unwrap_or_else(|| dir.to_path_buf()))
}
