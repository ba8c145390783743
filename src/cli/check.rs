//! `focuscheck check`: verdicts per error condition, counterexamples.

use super::*;
use crate::analysis::conditions::Property;
use crate::analysis::{step, CheckOptions, Verdict};
use crate::ir::cond;
use crate::views;
use crate::views::text::View;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Text,
    Json,
    Jsonl,
}

#[derive(Args)]
pub struct CheckArgs {
    /// Cimple files, or directories to search for `.c` files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    front: FrontArgs,
    /// An error condition over globals or `proc::local`, e.g. `--error
    /// 'getlock::error'` (may repeat). Default: `error` when a global or
    /// entry local of that name exists.
    #[arg(long = "error", value_name = "EXPR")]
    errors: Vec<String>,
    /// Which errors to report: `all`, SV-COMP's `unreach-call`
    /// (reach_error and __VERIFIER_assert only), or `user` (the `--error`
    /// conditions only).
    #[arg(long, value_enum, default_value_t = Property::All)]
    property: Property,
    /// Loop iterations (per loop entry) explored exactly before the loop's
    /// variables are widened to unknown values; also the recursion depth.
    #[arg(long, default_value_t = 10, value_name = "K")]
    unroll: u32,
    /// Inline every call instead of reusing procedure summaries (to measure
    /// what summaries save).
    #[arg(long)]
    no_summaries: bool,
    /// Give up on a file after this many seconds (its open conditions
    /// become `unknown`).
    #[arg(long, value_name = "SECONDS")]
    timeout: Option<f64>,
    /// Give up exploring after this many states.
    #[arg(long, default_value_t = 2_000_000, value_name = "N")]
    max_states: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Print relation sizes and rule times.
    #[arg(long)]
    stats: bool,
    /// Verdicts and counterexamples only: no focus-statement sequences,
    /// Reduce or NEST (faster on large batches).
    #[arg(long)]
    no_explain: bool,
    /// What to show of an error: `reduced` (where the fix belongs, the
    /// default), `fss` (every focus-statement sequence with its assumptions)
    /// or `full` (complete counterexamples with concrete inputs).
    #[arg(long, value_enum, default_value_t = View::Reduced)]
    view: View,
    /// Show only the FSS of this rank (its reduced form in the reduced view).
    #[arg(long, value_name = "N")]
    fss: Option<usize>,
    /// Show only assumptions over these inputs, e.g. `--project a2,a3`.
    #[arg(long, value_name = "VAR,...", value_delimiter = ',')]
    project: Option<Vec<String>>,
}

/// The command line that shows `view` (and FSS `n`) of `file`: this one,
/// with the view options replaced.
fn next_command(file: &Path, view: View, n: Option<usize>) -> String {
    let mut out = vec!["focuscheck".to_string()];
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let takes_value = matches!(a.as_str(), "--view" | "--fss" | "--format");
        let is_view = a.starts_with("--view") || a.starts_with("--fss") || a.starts_with("--format");
        if is_view {
            i += if takes_value { 2 } else { 1 };
            continue;
        }
        // Keep the options; the files are replaced by this one.
        if a.starts_with('-') || i == 0 {
            out.push(shell_word(a));
            let needs = matches!(
                a.as_str(),
                "--entry"
                    | "--globals"
                    | "--error"
                    | "--property"
                    | "--unroll"
                    | "--timeout"
                    | "--max-states"
                    | "--project"
                    | "--color"
            );
            if needs && i + 1 < args.len() {
                out.push(shell_word(&args[i + 1]));
                i += 1;
            }
        }
        i += 1;
    }
    out.push(shell_word(&file.display().to_string()));
    out.push(format!(
        "--view {}",
        match view {
            View::Reduced => "reduced",
            View::Fss => "fss",
            View::Full => "full",
        }
    ));
    if let Some(n) = n {
        out.push(format!("--fss {n}"));
    }
    out.join(" ")
}

fn shell_word(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=,".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// `.c` and `.cimple` files under the given paths, sorted.
fn collect_files(paths: &[PathBuf]) -> Vec<PathBuf> {
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

pub fn cmd_check(ui: &Ui, args: &CheckArgs) -> i32 {
    let opts = CheckOptions {
        engine: step::Options {
            unroll: args.unroll,
            summaries: !args.no_summaries,
            max_states: args.max_states,
            timeout: args.timeout.map(Duration::from_secs_f64),
        },
        property: args.property,
        explain: !args.no_explain,
        ..CheckOptions::default()
    };
    let files = collect_files(&args.files);
    let mut bad_input = false;
    let mut found = false;
    let mut docs = Vec::new();
    for path in &files {
        let Some(p) = load_file(ui, path, &args.front) else {
            bad_input = true;
            continue;
        };
        let users = match cond::user_conditions(&p, &args.errors) {
            Ok(c) => c,
            Err((text, diags)) => {
                ui.diagnostics(&SourceFile::new("--error", text), &diags);
                bad_input = true;
                continue;
            }
        };
        let report = crate::check::check(&p, &users, &opts);
        found |= report.results.iter().any(|r| r.verdict != Verdict::Safe);
        match args.format {
            Format::Text => {
                let next = |v: View, n: Option<usize>| next_command(path, v, n);
                out!(
                    "{}",
                    views::text::report(
                        &p,
                        &report,
                        &views::text::TextOptions {
                            lines: &views::text::PlainLines(&p),
                            color: ui.color,
                            stats: args.stats,
                            view: args.view,
                            fss: args.fss,
                            project: args.project.clone(),
                            next: &next,
                            diff: false,
                        }
                    )
                )
            }
            Format::Json => docs.push(views::json::file_doc(&p, &report, &args.project)),
            Format::Jsonl => outln!(
                "{}",
                serde_json::to_string(&views::json::file_doc(&p, &report, &args.project)).unwrap_or_default()
            ),
        }
    }
    if args.format == Format::Json {
        let text = if docs.len() == 1 && files.len() == 1 {
            serde_json::to_string_pretty(&docs[0])
        } else {
            serde_json::to_string_pretty(&docs)
        };
        outln!("{}", text.unwrap_or_default());
    }
    if bad_input {
        EXIT_USAGE
    } else if found {
        EXIT_ERROR_FOUND
    } else {
        EXIT_OK
    }
}
