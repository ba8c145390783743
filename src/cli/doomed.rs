//! `focuscheck doomed`: program points through which no execution ends
//! normally (seed 004), as compiler-style errors; dead code as notes. Also
//! the findings `check --doomed` adds to its report.

use super::check::{collect_files, Format};
use super::*;
use crate::diag::Diag;
use crate::facts::Analysis;
use crate::ir::*;
use crate::vc::doomed;
use crate::views::doomed::{DoomedFileDoc, Findings};
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct DoomedArgs {
    /// Cimple files, or directories to search (recursively) for `.c`,
    /// `.i` and `.cimple` files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    front: FrontArgs,
    #[command(flatten)]
    opts: DoomedOptions,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Print, per procedure, the queries, the time to build the formula and
    /// the time per query (the seed's Table 4).
    #[arg(long)]
    stats: bool,
    /// Files analysed at once (default: the number of cores).
    #[arg(long, short = 'j', value_name = "N", value_parser = super::options::count)]
    jobs: Option<usize>,
}

/// The analysis options `doomed` and `check --doomed` share.
#[derive(Args, Clone)]
pub struct DoomedOptions {
    /// Calls are inlined this deep; deeper (and deeper recursive) calls
    /// havoc their result and the globals they write.
    #[arg(long, default_value_t = crate::vc::INLINE_DEPTH, value_name = "D")]
    inline_depth: u32,
    /// Give up on a Z3 query after this many seconds (that point is then
    /// not reported).
    #[arg(long = "query-timeout", default_value = "10", value_name = "SECONDS",
          value_parser = super::options::seconds)]
    query_timeout: Duration,
    /// Assume only the user's `/*@ loop invariant E; */` comments Houdini
    /// proves, infer no others.
    #[arg(long)]
    no_infer: bool,
    /// Ask only whether a run from each point, in any state, ends normally
    /// (the seed's basic error VC: finds fewer points, e.g. not PATHPROG).
    #[arg(long)]
    local: bool,
}

impl Default for DoomedOptions {
    /// The command line's defaults.
    fn default() -> Self {
        DoomedOptions {
            inline_depth: crate::vc::INLINE_DEPTH,
            query_timeout: Duration::from_secs(10),
            no_infer: false,
            local: false,
        }
    }
}

impl DoomedOptions {
    fn engine(&self) -> doomed::Options {
        doomed::Options {
            inline_depth: self.inline_depth,
            timeout: Some(self.query_timeout),
            infer: !self.no_infer,
            extended: !self.local,
            ..doomed::Options::default()
        }
    }
}

/// Analyses `p`; `Err` when the user's loop invariants do not parse.
pub fn findings(p: &Program, opts: &DoomedOptions) -> Result<Findings, Vec<Diag>> {
    let start = Instant::now();
    let a = Analysis::new(p);
    let invariants = crate::vc::houdini::user_invariants(p, &a)?;
    let report = doomed::analyse(p, &invariants, &opts.engine());
    let seconds = start.elapsed().as_secs_f64();
    Ok(crate::views::doomed::render(p, &a, &report, seconds))
}

fn doomed_file(path: &Path, args: &DoomedArgs, ui: &Ui) -> batch::FileOut<DoomedFileDoc> {
    let (loaded, mut out) = match batch::load(path, &args.front.load_only(), "not analysed", ui.color) {
        Ok(loaded) => loaded,
        Err(out) => return *out,
    };
    let (file, p) = (loaded.file, loaded.program);
    let name = path.display().to_string();
    let f = match findings(&p, &args.opts) {
        Ok(f) => f,
        Err(diags) => {
            out.diagnostics(&file, &diags, true, ui.color);
            return out;
        }
    };
    out.bad = false;
    out.found = f.doomed > 0;
    out.note = match f.doomed {
        0 => "nothing doomed".into(),
        n => format!("{n} doomed region{}", if n == 1 { "" } else { "s" }),
    };
    match args.format {
        Format::Text => out.stdout = f.text(&p, ui.color_out, args.stats),
        _ => {
            out.doc = Some(DoomedFileDoc {
                file: name,
                found: f.doc,
            })
        }
    }
    out
}

pub fn cmd_doomed(ui: &Ui, args: &DoomedArgs) -> i32 {
    let files = collect_files(&args.files);
    if files.is_empty() {
        ui.error("no `.c`, `.i` or `.cimple` files in the given directories");
        return EXIT_USAGE;
    }
    batch::run_documents(
        ui,
        &files,
        args.jobs,
        args.format,
        "analysing",
        |path| doomed_file(path, args, ui),
        crate::views::sarif::doomed_log,
    )
}
