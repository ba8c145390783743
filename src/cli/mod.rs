//! The command line: the only layer that reads files and writes to the
//! terminal.

/// `print!` that ends the run quietly when the reader went away (`| head`).
macro_rules! out {
    ($($arg:tt)*) => { $crate::cli::write_stdout(&format!($($arg)*)) };
}

/// `println!` that ends the run quietly when the reader went away.
macro_rules! outln {
    ($($arg:tt)*) => { $crate::cli::write_stdout(&format!("{}\n", format!($($arg)*))) };
}

mod answers;
mod args;
mod batch;
mod check;
mod diagnose;
mod diff;
mod doomed;
mod follow_assumption;
mod follow_witness;
mod harness;
mod options;
mod report;
mod run;
mod shard;
mod validate_witness;
mod values;
mod vcs;
mod verify;
mod witness;

/// Writes to standard output; a closed pipe ends the process with status 0
/// instead of a panic.
pub fn write_stdout(s: &str) {
    use std::io::Write;
    let mut o = std::io::stdout().lock();
    if o.write_all(s.as_bytes()).and_then(|_| o.flush()).is_err() {
        std::process::exit(EXIT_OK);
    }
}

use crate::diag::{self, Diag};
use crate::facts;
use crate::ir::lower::LowerOptions;
use crate::ir::{GlobalsMode, Program};
use crate::pipeline::{Config, Loaded, Refused};
use crate::syntax::source::SourceFile;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

/// Exit codes (see the README and `--help`).
pub const EXIT_OK: i32 = 0;
pub const EXIT_ERROR_FOUND: i32 = 1;
pub const EXIT_USAGE: i32 = 2;
/// Nothing was found, but something is unknown (not proved either way).
pub const EXIT_UNKNOWN: i32 = 3;

/// What a command's files came to, for its exit code.
#[derive(Clone, Copy, Debug, Default)]
pub struct Outcomes {
    /// An error was found somewhere (an unsafe condition, a doomed point,
    /// a failed VC).
    pub found: bool,
    /// Some file could not be checked (unreadable, rejected, a crash).
    pub not_checked: bool,
    /// Some condition is unknown.
    pub unknown: bool,
}

impl Outcomes {
    /// A bug found anywhere wins: a batch with a refused file still exits
    /// 1 when another file has an error; then a file not checked (2), then
    /// anything unknown (3); 0 only when everything was checked and safe.
    pub fn exit_code(self) -> i32 {
        if self.found {
            EXIT_ERROR_FOUND
        } else if self.not_checked {
            EXIT_USAGE
        } else if self.unknown {
            EXIT_UNKNOWN
        } else {
            EXIT_OK
        }
    }
}
/// A bug in focuscheck (a panic outside a batch's per-file catch).
pub const EXIT_INTERNAL: i32 = 101;

#[derive(Parser)]
#[command(
    name = "focuscheck",
    version,
    about = "A model checker for Cimple (a C subset) that explains the errors it finds",
    long_about = "focuscheck reads Cimple programs (a subset of C: integers, booleans, \
arrays, procedures, loops, pointers, structs, unions of integers, the heap) and checks \
them for errors: failed assertions, calls of reach_error(), array indices out of bounds, \
invalid pointer accesses, division by zero, overflows and shifts, and conditions you give \
with --error.\n\nExit codes: 0 everything checked and nothing found; 1 an error was \
found (in any file of a batch, even when others could not be checked); 2 bad usage, or \
some file could not be checked and no error was found; 3 nothing found, but something \
is unknown. Every diagnostic goes to stderr."
)]
struct Cli {
    /// When to use colours in messages and reports (`auto`: on a terminal).
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, global = true)]
    color: ColorChoice,
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ColorChoice {
    Auto,
    Always,
    Never,
}

#[derive(Subcommand)]
enum Command {
    /// Parse and check files; say what is outside Cimple.
    Parse {
        /// Cimple files (`.c`).
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[command(flatten)]
        front: FrontArgs,
    },
    /// Print the program as relations (facts), sorted and tab-separated.
    Facts {
        /// The Cimple file.
        file: PathBuf,
        #[command(flatten)]
        front: FrontArgs,
    },
    /// Check programs for errors and explain them.
    Check(check::CheckArgs),
    /// Merge the `check --format jsonl` output of several runs (e.g. the
    /// shards of `check --shard K/N`) into one run's summary table, JSON,
    /// SARIF or HTML report.
    Report(report::ReportArgs),
    /// Compare a changed program with its reference; localise a difference.
    Diff(diff::DiffArgs),
    /// Run a program on given inputs with the concrete interpreter.
    Run(run::RunArgs),
    /// Verification conditions with Z3: warnings with execution traces.
    Verify(verify::VerifyArgs),
    /// Doomed program points: lines through which no execution ends
    /// normally (every run through them fails), found with Z3.
    Doomed(doomed::DoomedArgs),
    /// Settle the conditions `check` and `verify` leave undecided with a
    /// few yes/no questions (abductive diagnosis). Exit codes: 0 every
    /// condition a false alarm, 1 a real bug, 2 bad input, 3 unresolved.
    Diagnose(diagnose::DiagnoseArgs),
}

/// Options that decide what program a file means.
#[derive(Args, Clone)]
pub struct FrontArgs {
    /// The procedure to start from.
    #[arg(long, default_value = "main", value_name = "NAME")]
    pub entry: String,
    /// How uninitialised globals start: `input` (unknown values, the paper's
    /// semantics) or `zero` (as in C). Default: zero for files that declare,
    /// define or call `__VERIFIER_*` or `reach_error` (SV-COMP's
    /// conventions), input otherwise.
    #[arg(long, value_enum, value_name = "MODE")]
    pub globals: Option<GlobalsMode>,
    /// Elements each object of a `malloc`/`calloc`/`realloc` call holds (at
    /// most 100,000: its elements are the run's inputs). A run that
    /// allocates more there is beyond the model: no condition is `safe`
    /// while such a run may exist.
    #[arg(long, default_value_t = crate::ir::lower::HEAP_ELEMS, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub heap_elems: u32,
    /// Objects each allocating call has (one per execution of the call: the
    /// nodes of a list built in a loop). A run that allocates more times
    /// at one call is beyond the model: no condition is `safe` while such
    /// a run may exist. Default 4; when not given, `check` tries 8, then
    /// 16, where 4 leaves conditions open.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=1_000))]
    pub heap_instances: Option<u32>,
    /// Elements a variable-length array (`int a[n][m]`) holds at most, all
    /// its dimensions together. A run that declares a larger one is beyond
    /// the model: no condition is `safe` while such a run may exist.
    #[arg(long, default_value_t = crate::ir::lower::VLA_ELEMS, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub vla_elems: u32,
    /// Elements of the array a pointer parameter of the entry points to
    /// (`--entry sum` on `int sum(int *a, int n)`): its elements are the
    /// run's inputs, and an access past them is a `deref` error.
    #[arg(long, default_value_t = crate::ir::mem::PARAM_ELEMS, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub param_elems: u32,
    /// Pointer parameters of the entry are never `NULL` (by default each may
    /// be `NULL` or point to its array).
    #[arg(long)]
    pub valid_params: bool,
    /// Leaks checked when `main` returns (what `--property valid-memsafety`
    /// and `valid-memcleanup` set; `run` replays them with it).
    #[arg(long, value_enum, value_name = "MODE")]
    pub leaks: Option<crate::ir::mem::Leaks>,
    #[command(flatten)]
    pub pp: args::PpArgs,
}

impl FrontArgs {
    /// These options as a command line gives them, where not the defaults
    /// (the `run` and `check` commands the reports suggest carry them).
    pub(crate) fn flags(&self) -> Vec<String> {
        let word = |s: &str| check::shell_word(s);
        let mut out = Vec::new();
        if self.entry != "main" {
            out.push(format!("--entry {}", word(&self.entry)));
        }
        if let Some(g) = self.globals {
            out.push(format!("--globals {}", check::value_name(g)));
        }
        if self.heap_elems != crate::ir::lower::HEAP_ELEMS {
            out.push(format!("--heap-elems {}", self.heap_elems));
        }
        if let Some(n) = self.heap_instances {
            out.push(format!("--heap-instances {n}"));
        }
        if self.vla_elems != crate::ir::lower::VLA_ELEMS {
            out.push(format!("--vla-elems {}", self.vla_elems));
        }
        if self.param_elems != crate::ir::mem::PARAM_ELEMS {
            out.push(format!("--param-elems {}", self.param_elems));
        }
        if self.valid_params {
            out.push("--valid-params".into());
        }
        if let Some(l) = self.leaks {
            out.push(format!("--leaks {}", check::value_name(l)));
        }
        out.extend(self.pp.flags());
        out
    }

    pub(crate) fn lower_options(&self) -> LowerOptions {
        LowerOptions {
            entry: self.entry.clone(),
            globals: self.globals,
            overflow_checks: false,
            heap_elems: self.heap_elems,
            heap_instances: self.heap_instances.unwrap_or(crate::ir::lower::HEAP_INSTANCES),
            vla_elems: self.vla_elems,
            leaks: self.leaks,
            param_elems: self.param_elems,
            valid_params: self.valid_params,
            pp: self.pp.options(),
        }
    }
}

/// What the commands share: where messages go and how they look.
pub struct Ui {
    /// Colours in messages (stderr).
    pub color: bool,
    /// Colours in reports (stdout).
    pub color_out: bool,
}

impl Ui {
    pub fn diagnostics(&self, file: &SourceFile, diags: &[Diag]) {
        if !diags.is_empty() {
            eprint!("{}", diag::render(file, diags, self.color));
        }
    }

    pub fn error(&self, msg: &str) {
        if self.color {
            eprintln!("\x1b[1;31merror\x1b[0m: {msg}");
        } else {
            eprintln!("error: {msg}");
        }
    }
}

/// Runs the command line on a thread with a large stack (see
/// `batch::STACK_SIZE`): deeply nested input must not overflow it.
pub fn main() -> i32 {
    let run = std::thread::Builder::new()
        .name("main".into())
        .stack_size(batch::STACK_SIZE)
        .spawn(main_on_this_thread);
    match run.map(|t| t.join()) {
        Ok(Ok(code)) => code,
        // The panic message was printed by the default hook.
        Ok(Err(_)) => EXIT_INTERNAL,
        Err(_) => main_on_this_thread(),
    }
}

fn main_on_this_thread() -> i32 {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
        }
    };
    let color = |terminal: bool| match cli.color {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => terminal,
    };
    let ui = Ui {
        color: color(std::io::stderr().is_terminal()),
        color_out: color(std::io::stdout().is_terminal()),
    };
    match cli.command {
        Command::Parse { files, front } => cmd_parse(&ui, &files, &front),
        Command::Facts { file, front } => cmd_facts(&ui, &file, &front),
        Command::Check(mut args) => {
            args.front.leaks = args.front.leaks.or(args.cond.property.leaks());
            check::cmd_check(&ui, &args)
        }
        Command::Report(args) => report::cmd_report(&ui, &args),
        Command::Diff(args) => diff::cmd_diff(&ui, &args),
        Command::Run(args) => run::cmd_run(&ui, &args),
        Command::Verify(mut args) => {
            args.front.leaks = args.front.leaks.or(args.cond.property.leaks());
            verify::cmd_verify(&ui, &args)
        }
        Command::Doomed(args) => doomed::cmd_doomed(&ui, &args),
        Command::Diagnose(args) => diagnose::cmd_diagnose(&ui, &args),
    }
}

/// Why a file cannot be read, in a few words.
pub fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ if e.raw_os_error() == Some(21) => "it is a directory".into(),
        _ => e.to_string(),
    }
}

/// Reads one file as source text (`pipeline::source`).
pub fn read(path: &Path) -> Result<std::sync::Arc<SourceFile>, Refused> {
    let name = path.display().to_string();
    let bytes =
        std::fs::read(path).map_err(|e| Refused::Unreadable(format!("cannot read `{name}`: {}", io_reason(&e))))?;
    crate::pipeline::source(&name, bytes)
}

/// Reads and loads one file (`pipeline::load_source`).
pub fn load(path: &Path, cfg: &Config) -> Result<Loaded, Refused> {
    crate::pipeline::load_source(read(path)?, cfg)
}

/// Says why a file was not loaded: its errors on stderr.
pub fn report_refused(ui: &Ui, refused: &Refused) {
    if let Refused::Unreadable(message) = refused {
        ui.error(message);
    }
    for (file, diags) in refused.diagnostics() {
        ui.diagnostics(file, diags);
    }
}

/// Reads one file as text, reporting problems; `None` when it cannot be read.
pub fn read_source(ui: &Ui, path: &Path) -> Option<std::sync::Arc<SourceFile>> {
    read(path).map_err(|r| report_refused(ui, &r)).ok()
}

/// Reads and loads one file (`pipeline::load`), reporting problems and
/// warnings; `None` when it cannot be analysed.
pub fn load_file(ui: &Ui, path: &Path, cfg: &Config) -> Option<Loaded> {
    match load(path, cfg) {
        Ok(loaded) => {
            ui.diagnostics(&loaded.file, &loaded.diags);
            Some(loaded)
        }
        Err(refused) => {
            report_refused(ui, &refused);
            None
        }
    }
}

impl FrontArgs {
    /// A configuration that only loads, with these front-end options and
    /// no `--error` condition, contracts as written.
    pub fn load_only(&self) -> Config {
        Config::front(self.lower_options(), &[], false)
    }
}

fn cmd_parse(ui: &Ui, files: &[PathBuf], front: &FrontArgs) -> i32 {
    let mut code = EXIT_OK;
    for path in files {
        match load_file(ui, path, &front.load_only()).map(|l| l.program) {
            Some(p) => {
                let names: Vec<&str> = p.procs.iter().map(|f| f.name.as_str()).collect();
                let globals = p
                    .globals
                    .iter()
                    .filter(|&&g| p.var(g).kind == crate::ir::VarKind::Global)
                    .count();
                let mut line = format!(
                    "{}: ok: {} function{} ({}), {} global{}",
                    path.display(),
                    names.len(),
                    if names.len() == 1 { "" } else { "s" },
                    names.join(", "),
                    globals,
                    if globals == 1 { "" } else { "s" }
                );
                if !p.left_out.is_empty() {
                    let lo: Vec<&str> = p.left_out.iter().map(|l| l.name.as_str()).collect();
                    line.push_str(&format!("; left out: {}", lo.join(", ")));
                }
                outln!("{line}");
            }
            None => code = EXIT_USAGE,
        }
    }
    code
}

fn cmd_facts(ui: &Ui, path: &Path, front: &FrontArgs) -> i32 {
    let Some(Loaded { program: p, .. }) = load_file(ui, path, &front.load_only()) else {
        return EXIT_USAGE;
    };
    let analysis = facts::Analysis::new(&p);
    out!("{}", facts::render(facts::all_facts(&p, &analysis).relations()));
    EXIT_OK
}
