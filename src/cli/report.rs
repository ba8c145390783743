//! `focuscheck report PARTS...`: merges the `check --format jsonl` output
//! of several runs (the shards of a batch, `check --shard K/N`) into what
//! one run over all their files prints: the summary table, the JSON
//! document, the SARIF log, the HTML report.

use super::check::{summary_table, write_pages, Format, Row};
use super::*;
use crate::views;
use crate::views::json::FileDoc;
use std::sync::Arc;

#[derive(Args)]
pub struct ReportArgs {
    /// JSONL files written by `check --format jsonl`, or directories whose
    /// `.jsonl` files are read (each file once; together they must not
    /// name a checked file twice).
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// Output format: the summary table (`text`), or as `check` writes it.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Also write the HTML report (as `check --html`) into this directory.
    #[arg(long, value_name = "DIR")]
    html: Option<PathBuf>,
}

/// The part files named: files as given, directories' `.jsonl` files.
fn part_files(parts: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in parts {
        match std::fs::read_dir(p) {
            Ok(rd) if p.is_dir() => {
                let mut found: Vec<PathBuf> = rd
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|e| e.extension().is_some_and(|x| x == "jsonl"))
                    .collect();
                found.sort();
                out.extend(found);
            }
            _ => out.push(p.clone()),
        }
    }
    out
}

/// The documents of one part, or why it is not one.
fn read_part(path: &Path) -> Result<Vec<FileDoc>, String> {
    let name = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read `{name}`: {}", io_reason(&e)))?;
    // The documents borrow their fixed words (`status`, `verdict`, ...) as
    // `&'static str`, as `check` makes them: the text lives as long as the
    // process, which ends after printing the report.
    let text: &'static str = Box::leak(text.into_boxed_str());
    let mut docs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let doc: FileDoc = serde_json::from_str(line).map_err(|e| {
            format!(
                "{name}:{}:{}: not a line of `focuscheck check --format jsonl`: {e}",
                i + 1,
                e.column()
            )
        })?;
        docs.push(doc);
    }
    Ok(docs)
}

/// The summary table's row of a document: what `check` counts.
fn row(doc: &FileDoc) -> Row {
    let count = |v: &str| doc.conditions.iter().filter(|c| c.verdict == v).count();
    let fss: Vec<usize> = doc.conditions.iter().map(|c| c.fss.len()).collect();
    Row {
        conditions: doc.conditions.len(),
        safe: count("safe"),
        unsafe_: count("unsafe"),
        unknown: count("unknown"),
        fss: fss.iter().sum(),
        max_fss: fss.iter().copied().max().unwrap_or(0),
        seconds: doc.seconds,
        problem: problem(doc),
        doomed: doc.doomed.as_ref().map_or(0, |d| d.doomed.len()),
        bugs: doc
            .conditions
            .iter()
            .filter(|c| c.verdict == "unsafe")
            .map(|c| {
                let at = c.line.zip(c.column).map(|(l, k)| format!("{}:{l}:{k}", doc.file));
                (at, c.condition.clone())
            })
            .collect(),
    }
}

/// Why a file was not checked, in the summary table's words (those of
/// `check`, told apart by the document's status and first error).
fn problem(doc: &FileDoc) -> Option<String> {
    let first = doc.errors.first().map(|e| e.message.as_str()).unwrap_or("");
    match doc.status {
        "checked" => None,
        "unreadable" if first.starts_with("cannot read") => Some("cannot be read".into()),
        "unreadable" => Some("not text".into()),
        "rejected" if first.starts_with("in `--error") => Some("bad --error condition".into()),
        "rejected" => Some("not accepted (see its errors)".into()),
        "internal_error" => {
            let crash = first
                .split_once("`: ")
                .map(|(_, rest)| rest)
                .unwrap_or(first)
                .trim_end_matches(" (a bug in focuscheck; the batch goes on)");
            Some(format!("internal error: {crash}"))
        }
        other => Some(other.to_string()),
    }
}

/// The source of a document's file, read again for SARIF snippets and the
/// HTML source view (as `check` keeps it: not for a file it could not read
/// or that crashed).
fn source(ui: &Ui, doc: &FileDoc) -> Option<Arc<SourceFile>> {
    if !matches!(doc.status, "checked" | "rejected") {
        return None;
    }
    match std::fs::read(&doc.file) {
        Ok(bytes) => Some(crate::source_from_bytes(&doc.file, bytes).0),
        Err(e) => {
            ui.error(&format!(
                "cannot read `{}` again ({}): its SARIF results have no snippets and its HTML page no source",
                doc.file,
                io_reason(&e)
            ));
            None
        }
    }
}

pub fn cmd_report(ui: &Ui, args: &ReportArgs) -> i32 {
    let parts = part_files(&args.parts);
    let mut docs: Vec<FileDoc> = Vec::new();
    for part in &parts {
        match read_part(part) {
            Ok(d) => docs.extend(d),
            Err(e) => {
                ui.error(&e);
                return EXIT_USAGE;
            }
        }
    }
    // One run lists its files in sorted path order.
    docs.sort_by(|a, b| Path::new(&a.file).cmp(Path::new(&b.file)));
    if let Some(w) = docs.windows(2).find(|w| w[0].file == w[1].file) {
        ui.error(&format!(
            "`{}` is in two parts: the parts overlap (were they made with the same --shard N?)",
            w[0].file
        ));
        return EXIT_USAGE;
    }
    let rows: Vec<(PathBuf, Row)> = docs.iter().map(|d| (PathBuf::from(&d.file), row(d))).collect();
    let needs_source = matches!(args.format, Format::Sarif) || args.html.is_some();
    let sources: Vec<Option<Arc<SourceFile>>> = docs
        .iter()
        .map(|d| if needs_source { source(ui, d) } else { None })
        .collect();
    let with_sources = || -> Vec<(&FileDoc, Option<&SourceFile>)> {
        docs.iter().zip(&sources).map(|(d, s)| (d, s.as_deref())).collect()
    };
    match args.format {
        Format::Text if rows.len() > 1 => {
            let run = format!(
                "merged from {} part{}",
                parts.len(),
                if parts.len() == 1 { "" } else { "s" }
            );
            out!("{}", summary_table(&rows, &run));
        }
        Format::Text => {}
        Format::Json => {
            let text = if docs.len() == 1 {
                serde_json::to_string_pretty(&docs[0])
            } else {
                serde_json::to_string_pretty(&docs)
            };
            outln!("{}", text.unwrap_or_default());
        }
        Format::Jsonl => {
            for d in &docs {
                outln!("{}", serde_json::to_string(d).unwrap_or_default());
            }
        }
        Format::Sarif => outln!(
            "{}",
            serde_json::to_string_pretty(&views::sarif::log(&with_sources())).unwrap_or_default()
        ),
    }
    if let Some(dir) = &args.html {
        match write_pages(dir, views::html::report_pages(&with_sources())) {
            Ok(index) => eprintln!("HTML report: {}", index.display()),
            Err(e) => {
                ui.error(&format!("cannot write the HTML report to `{}`: {e}", dir.display()));
                return EXIT_USAGE;
            }
        }
    }
    // The exit code `check` gives for these files.
    super::Outcomes {
        not_checked: docs.iter().any(|d| d.status != "checked"),
        found: rows.iter().any(|(_, r)| r.unsafe_ + r.doomed > 0),
        unknown: rows.iter().any(|(_, r)| r.unknown > 0),
    }
    .exit_code()
}
