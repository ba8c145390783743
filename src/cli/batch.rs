//! Running one job per file on a pool of threads: results come back in
//! file order whatever finishes first, with a progress bar on a terminal
//! (plain lines otherwise). A panic in one file is caught and reported as
//! that file's internal error; the batch goes on.

use crate::diag::Diag;
use crate::syntax::source::SourceFile;
use crate::views::documents::{sorted_json, Document, FileEntry};
use crate::views::json::MessageDoc;
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What a job says about its file on the progress line.
pub trait Progress {
    fn progress_note(&self) -> String;
}

/// The stack of every thread that parses or checks a file: deep nesting
/// (hundreds of nested `if`s or parentheses) recurses deeply in the
/// parser, lowering and analyses. Only the pages used are allocated.
pub const STACK_SIZE: usize = 256 << 20;

/// A job that panicked: the message and where.
#[derive(Debug)]
pub struct Crash(pub String);

std::thread_local! {
    static LAST_PANIC: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Runs `job` on every file with `jobs` threads; hands each result to
/// `emit` in file order as soon as it and all before it are done.
pub fn run<T, J, E>(files: &[PathBuf], jobs: usize, job: J, mut emit: E)
where
    T: Send + Progress,
    J: Fn(&PathBuf) -> T + Sync,
    E: FnMut(usize, Result<T, Crash>),
{
    let jobs = jobs.clamp(1, files.len().max(1));
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<(usize, Result<T, Crash>)>();
    let bar = progress_bar(files.len());
    let start = Instant::now();
    // Panics in jobs are caught and reported with the file; keep the
    // default message off the terminal meanwhile.
    let previous_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|info| {
        let at = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        LAST_PANIC.with(|p| *p.borrow_mut() = Some(format!("{msg}{at}")));
    }));
    std::thread::scope(|s| {
        let mut started = 0;
        for _ in 0..jobs {
            let tx = tx.clone();
            let (next, job) = (&next, &job);
            let worker = move || loop {
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(path) = files.get(i) else { break };
                let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(path))).map_err(|_| {
                    Crash(
                        LAST_PANIC
                            .with(|p| p.borrow_mut().take())
                            .unwrap_or_else(|| "unknown panic".into()),
                    )
                });
                if tx.send((i, result)).is_err() {
                    break;
                }
            };
            match std::thread::Builder::new()
                .name("check".into())
                .stack_size(STACK_SIZE)
                .spawn_scoped(s, worker)
            {
                Ok(_) => started += 1,
                // Fewer workers than asked: the others carry on.
                Err(e) => eprintln!("warning: cannot start a worker thread: {e}"),
            }
        }
        if started == 0 {
            for i in 0..files.len() {
                let _ = tx.send((i, Err(Crash("no worker thread could be started".into()))));
            }
        }
        drop(tx);
        let mut pending: BTreeMap<usize, Result<T, Crash>> = BTreeMap::new();
        let mut emitted = 0;
        let mut done = 0;
        for (i, result) in rx {
            done += 1;
            let note = match &result {
                Ok(t) => t.progress_note(),
                Err(c) => format!("internal error: {}", c.0),
            };
            bar.step(done, files.len(), &files[i], &note, start.elapsed());
            pending.insert(i, result);
            while let Some(r) = pending.remove(&emitted) {
                bar.suspend(|| emit(emitted, r));
                emitted += 1;
            }
        }
    });
    std::panic::set_hook(previous_hook);
    bar.finish();
}

/// A bar on a terminal; plain lines on stderr otherwise; nothing for one
/// file.
enum Bar {
    None,
    Lines,
    Terminal(ProgressBar),
}

fn progress_bar(n: usize) -> Bar {
    if n <= 1 {
        return Bar::None;
    }
    if !std::io::stderr().is_terminal() {
        return Bar::Lines;
    }
    let bar = ProgressBar::new(n as u64);
    let style = ProgressStyle::with_template("{spinner} checking [{bar:30}] {pos}/{len} {elapsed} {wide_msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> ");
    bar.set_style(style);
    bar.enable_steady_tick(Duration::from_millis(120));
    Bar::Terminal(bar)
}

impl Bar {
    fn step(&self, done: usize, total: usize, path: &std::path::Path, note: &str, elapsed: Duration) {
        match self {
            Bar::None => {}
            Bar::Lines => eprintln!(
                "[{done}/{total}] {}: {note} ({:.1}s elapsed)",
                path.display(),
                elapsed.as_secs_f64()
            ),
            Bar::Terminal(b) => {
                b.set_position(done as u64);
                b.set_message(format!("{}: {note}", path.display()));
            }
        }
    }

    fn suspend(&self, f: impl FnOnce()) {
        match self {
            Bar::Terminal(b) => b.suspend(f),
            _ => f(),
        }
    }

    fn finish(&self) {
        if let Bar::Terminal(b) = self {
            b.finish_and_clear();
        }
    }
}

/// One file's output for the commands that print as they go and collect a
/// document per file (`verify`, `doomed`).
pub struct FileOut<D> {
    pub stderr: String,
    pub stdout: String,
    pub doc: Option<D>,
    /// Something was found (a warning, a doomed region).
    pub found: bool,
    /// Something is unknown (neither found nor proved).
    pub unknown: bool,
    /// The file could not be read or loaded.
    pub bad: bool,
    /// Why it could not (`unreadable`, `error`), and the errors, for the
    /// document that lists it in JSON and SARIF.
    pub status: &'static str,
    pub errors: Vec<MessageDoc>,
    /// Warnings and notes about the file (a part left out, what an entry's
    /// pointer parameter points to), for its document's `warnings`.
    pub warnings: Vec<MessageDoc>,
    /// The progress line's note.
    pub note: String,
}

impl<D> FileOut<D> {
    /// Bad until the file is loaded; `note` says so on the progress line.
    pub fn new(note: &str) -> FileOut<D> {
        FileOut {
            stderr: String::new(),
            stdout: String::new(),
            doc: None,
            found: false,
            unknown: false,
            bad: true,
            status: "error",
            errors: Vec::new(),
            warnings: Vec::new(),
            note: note.into(),
        }
    }

    /// The diagnostics about `file`: on stderr, and its errors in the
    /// document if the file goes no further.
    pub fn diagnostics(&mut self, file: &SourceFile, diags: &[Diag], located: bool, color: bool) {
        self.stderr.push_str(&crate::diag::render(file, diags, color));
        let (errors, warnings) = crate::views::json::diagnostics(file, diags, located);
        self.errors.extend(errors);
        self.warnings.extend(warnings);
    }
}

/// A file read and loaded for `verify` or `doomed` (`pipeline::load`);
/// when it cannot be, the output that says why.
pub fn load<D>(
    path: &std::path::Path,
    cfg: &crate::pipeline::Config,
    note: &str,
    color: bool,
) -> Result<(crate::pipeline::Loaded, FileOut<D>), Box<FileOut<D>>> {
    use crate::pipeline::Refused;
    let mut out = FileOut::new(note);
    match super::load(path, cfg) {
        Ok(loaded) => {
            out.diagnostics(&loaded.file, &loaded.diags, true, color);
            Ok((loaded, out))
        }
        Err(refused) => {
            if let Refused::Unreadable(message) = &refused {
                out.stderr = format!("error: {message}\n");
                out.status = "unreadable";
                out.errors.push(MessageDoc {
                    message: message.clone(),
                    line: None,
                    column: None,
                });
            }
            // The file's errors are located; an `--error` condition's are not.
            for (k, (file, diags)) in refused.diagnostics().into_iter().enumerate() {
                out.diagnostics(file, diags, k == 0, color);
            }
            Err(Box::new(out))
        }
    }
}

impl<D> Progress for FileOut<D> {
    fn progress_note(&self) -> String {
        self.note.clone()
    }
}

/// Runs `per_file` on every file, prints each file's output in file order,
/// then the JSON (one document for one file, a list otherwise) or the
/// SARIF log `sarif` makes of the documents. A file that crashes counts as
/// found (nothing is known about it), as under `check`. `doing` names the
/// work in the crash message. The exit code.
pub fn run_documents<D: Document + Send>(
    ui: &super::Ui,
    files: &[PathBuf],
    jobs: Option<usize>,
    format: super::check::Format,
    doing: &str,
    per_file: impl Fn(&PathBuf) -> FileOut<D> + Sync,
    sarif: impl Fn(&[FileEntry<D>]) -> serde_json::Value,
) -> i32 {
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1));
    let mut outcomes = super::Outcomes::default();
    let mut docs = Vec::new();
    // A file that was not analysed has a document too (its status and
    // errors), so that no format hides it.
    let jsonl = |doc: &FileEntry<D>| {
        if format == super::check::Format::Jsonl {
            outln!("{}", sorted_json(doc, false));
        }
    };
    run(files, jobs, per_file, |i, result| match result {
        Ok(r) => {
            eprint!("{}", r.stderr);
            out!("{}", r.stdout);
            outcomes.not_checked |= r.bad;
            outcomes.found |= r.found;
            outcomes.unknown |= r.unknown;
            match r.doc {
                Some(doc) => {
                    let doc = FileEntry::checked(doc, r.warnings);
                    jsonl(&doc);
                    docs.push(doc);
                }
                None if r.bad => {
                    let doc = FileEntry::not_checked(&files[i].display().to_string(), r.status, r.errors);
                    jsonl(&doc);
                    docs.push(doc);
                }
                None => {}
            }
        }
        Err(crash) => {
            let message = format!(
                "internal error while {doing} `{}`: {} (a bug in focuscheck; the batch goes on)",
                files[i].display(),
                crash.0
            );
            ui.error(&message);
            outcomes.not_checked = true;
            let error = MessageDoc {
                message,
                line: None,
                column: None,
            };
            let doc = FileEntry::not_checked(&files[i].display().to_string(), "internal_error", vec![error]);
            jsonl(&doc);
            docs.push(doc);
        }
    });
    match format {
        super::check::Format::Json => {
            let text = if docs.len() == 1 && files.len() == 1 {
                sorted_json(&docs[0], true)
            } else {
                sorted_json(&docs, true)
            };
            outln!("{}", text);
        }
        super::check::Format::Sarif => outln!("{}", serde_json::to_string_pretty(&sarif(&docs)).unwrap_or_default()),
        _ => {}
    }
    outcomes.exit_code()
}
