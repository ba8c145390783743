//! `focuscheck check`: verdicts per error condition, counterexamples.

use super::*;
use crate::analysis::conditions::Property;
use crate::analysis::{self, step, CheckOptions, Verdict};
use crate::ir::cond;
use crate::views;
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
    /// Which errors to report: `all`, or SV-COMP's `unreach-call`
    /// (reach_error and __VERIFIER_assert only).
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
        let report = analysis::check(&p, &users, &opts);
        found |= report.results.iter().any(|r| r.verdict != Verdict::Safe);
        match args.format {
            Format::Text => print!(
                "{}",
                views::text::report(
                    &p,
                    &report,
                    &views::text::TextOptions {
                        color: ui.color,
                        stats: args.stats
                    }
                )
            ),
            Format::Json => docs.push(views::json::file_doc(&p, &report)),
            Format::Jsonl => println!(
                "{}",
                serde_json::to_string(&views::json::file_doc(&p, &report)).unwrap_or_default()
            ),
        }
    }
    if args.format == Format::Json {
        let text = if docs.len() == 1 && files.len() == 1 {
            serde_json::to_string_pretty(&docs[0])
        } else {
            serde_json::to_string_pretty(&docs)
        };
        println!("{}", text.unwrap_or_default());
    }
    if bad_input {
        EXIT_USAGE
    } else if found {
        EXIT_ERROR_FOUND
    } else {
        EXIT_OK
    }
}
