//! One check of one file, the same path for every command: the source
//! (`source`, from the bytes the CLI read), loaded by the front end, its contracts instrumented and
//! its `--error` conditions resolved (`load`), checked by the portfolio
//! (`check::check_with`), and the fix candidates searched (`check`), on a
//! larger heap pool where the default one binds (`grow`). The
//! CLI parses arguments into a `Config`, calls these, and renders what
//! comes back with `views`; nothing of a check is assembled in `cli/`.

mod config;
mod grow;

pub use config::{Config, FixSearch};
pub use grow::{check_growing, Grown};

use crate::analysis::Verdict;
use crate::check::Report;
use crate::diag::Diag;
use crate::fixes::{self, Fixes};
use crate::ir::cond::UserCond;
use crate::ir::Program;
use crate::syntax::source::SourceFile;
use std::sync::Arc;
use std::time::Instant;

/// Why a file was not checked.
pub enum Refused {
    /// It could not be read (the message says why, with its path).
    Unreadable(String),
    /// It is not text (binary, or not UTF-8): the error at its position.
    NotText(Arc<SourceFile>, Diag),
    /// The front end refused it: its errors, with its warnings.
    Rejected(Arc<SourceFile>, Vec<Diag>),
    /// An `--error` condition does not parse or resolve: the file and its
    /// warnings, the condition as a source of its own and its errors.
    BadCondition {
        file: Arc<SourceFile>,
        diags: Vec<Diag>,
        given: Arc<SourceFile>,
        errors: Vec<Diag>,
    },
}

impl Refused {
    /// The diagnostics that say why, with the source each is about (the
    /// file, then an `--error` condition's own text); none when unreadable.
    pub fn diagnostics(&self) -> Vec<(&SourceFile, &[Diag])> {
        match self {
            Refused::Unreadable(_) => Vec::new(),
            Refused::NotText(f, d) => vec![(f, std::slice::from_ref(d))],
            Refused::Rejected(f, diags) => vec![(f, diags)],
            Refused::BadCondition {
                file,
                diags,
                given,
                errors,
            } => vec![(file, diags), (given, errors)],
        }
    }
}

/// A file loaded and ready to check.
pub struct Loaded {
    pub file: Arc<SourceFile>,
    /// As checked: contracts instrumented when the configuration says so.
    pub program: Program,
    pub users: Vec<UserCond>,
    /// The front end's warnings and notes.
    pub diags: Vec<Diag>,
}

/// A source from a file's bytes (read by the CLI, the only layer that
/// does IO).
pub fn source(name: &str, bytes: Vec<u8>) -> Result<Arc<SourceFile>, Refused> {
    match crate::ir::load::source_from_bytes(name, bytes) {
        (file, Some(d)) => Err(Refused::NotText(file, d)),
        (file, None) => Ok(file),
    }
}

/// Loads one source: the front end, contracts, `--error` conditions.
pub fn load_source(file: Arc<SourceFile>, cfg: &Config) -> Result<Loaded, Refused> {
    let (program, diags) = crate::load(file.clone(), &cfg.lower);
    let Some(program) = program else {
        return Err(Refused::Rejected(file, diags));
    };
    match crate::ir::load::prepare(program, &cfg.errors, cfg.instrument) {
        Ok((program, users)) => Ok(Loaded {
            file,
            program,
            users,
            diags,
        }),
        Err((text, errors)) => Err(Refused::BadCondition {
            file,
            diags,
            given: Arc::new(SourceFile::new("--error", text)),
            errors,
        }),
    }
}

/// A program checked: its report and, per reported condition, the fix
/// candidates searched (`None`: not searched).
pub struct Checked {
    pub report: Report,
    pub fixes: Vec<Option<Fixes>>,
}

/// Checks a loaded program (`Loaded::program` with its `users`), the
/// time limit (`cfg.check.engine.timeout`) counted from `start`, the fix
/// search included.
pub fn check(p: &Program, users: &[UserCond], cfg: &Config, start: Instant) -> Checked {
    // The VC engine may lower the program again (a smaller heap pool).
    let plan = crate::engines::VcPlan {
        lower: Some(cfg.lower.clone()),
        ..cfg.vc.clone()
    };
    let report = crate::check::check_with(p, users, &cfg.check, cfg.engine, &plan, start);
    let deadline = cfg.check.engine.timeout.map(|t| start + t);
    let original = fixes::Original {
        program: p,
        report: &report,
        lower: &cfg.lower,
        opts: &cfg.check,
        errors: &cfg.errors,
        deadline,
    };
    let fixes = report
        .results
        .iter()
        .map(|r| {
            let s = cfg
                .fixes
                .filter(|s| r.verdict == Verdict::Unsafe && (s.narrowed_too || !narrowed(&report, r)))?;
            Some(fixes::find(&original, r, &s.limits))
        })
        .collect();
    Checked { report, fixes }
}

/// Reduce narrowed the condition's top NEST: it is shorter than its FSS.
fn narrowed(report: &Report, r: &crate::analysis::CondReport) -> bool {
    let e = report.explanations.get(&r.id);
    let top = e.and_then(|e| Some((e.reduced.first()?, e)));
    top.is_some_and(|(x, e)| x.at.is_some() && e.fss.get(x.index).is_some_and(|f| x.nest.len() < f.entries.len()))
}
