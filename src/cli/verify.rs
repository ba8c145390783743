//! `focuscheck verify`: the verification-condition engine (Z3), warnings
//! with ESC/Java-style execution traces (seed 000).

use super::args::CondArgs;
use super::check::{collect_files, Format};
use super::*;
use crate::ir::cond::UserCond;
use crate::vc::{self, contract::VcStatus, gc::CheckKey, Loops, Outcome, ProcResult, Warning};
use crate::views::verify::VerifyFileDoc;
use std::time::Duration;

#[derive(Args)]
pub struct VerifyArgs {
    /// Cimple files, or directories to search (recursively) for `.c`,
    /// `.i` and `.cimple` files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    pub(super) front: FrontArgs,
    #[command(flatten)]
    pub(super) cond: CondArgs,
    /// Loops: `unroll:K` follows each loop K times (default K=1; can miss
    /// errors beyond K, so no warning means "no error within K
    /// iterations"), `havoc` cuts loops with invariants (the user's
    /// `/*@ loop invariant E; */` and inferred ones: sound).
    #[arg(long, default_value = "unroll:1", value_parser = parse_loops, value_name = "MODE")]
    loops: Loops,
    /// Calls are inlined this deep; deeper (and deeper recursive) calls
    /// havoc their result and the globals they may write.
    #[arg(long, default_value_t = crate::vc::INLINE_DEPTH, value_name = "D")]
    inline_depth: u32,
    /// Stop after this many warnings per procedure.
    #[arg(long, default_value_t = 10, value_name = "N")]
    max_warnings: usize,
    /// Give up on a file after this many seconds (what is left open is
    /// `unknown`).
    #[arg(long, value_name = "SECONDS", value_parser = options::seconds)]
    timeout: Option<Duration>,
    /// In `--loops havoc`: use only the user's invariants (no Houdini).
    #[arg(long)]
    no_infer: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Print the VC's size, the invariants used and the time in Z3.
    #[arg(long)]
    stats: bool,
    /// Every step of traces; by default, consecutive runs of the same
    /// steps (loop iterations, recursive calls) are folded into one entry
    /// with a count, the first and last runs, and value ranges.
    #[arg(long)]
    full_trace: bool,
    /// Verify each function against its ACSL contract and list its
    /// verification conditions, each explained: `failed` (failed and
    /// unknown ones, the default) or `all`. Files with function contracts
    /// or `//@ assert` are verified this way without the option.
    #[arg(long, value_enum, value_name = "WHICH", num_args = 0..=1, default_missing_value = "failed")]
    vcs: Option<vcs::VcsShow>,
    /// Files checked at once (default: the number of cores).
    #[arg(long, short = 'j', value_name = "N")]
    jobs: Option<usize>,
    /// Validate a correctness witness (format 2.0, `invariant_set`) of the
    /// one program given: prove it with the witness's loop invariants as
    /// the only ones. Exit 0 confirmed, 3 not confirmed, 2 unreadable.
    #[arg(long, value_name = "W", conflicts_with = "write_witness")]
    witness: Option<PathBuf>,
    /// Write an SV-COMP violation witness (format 2.0, YAML) of the first
    /// confirmed warning at a `reach_error()` call, as `check --witness`
    /// does: into this file, or, if it is a directory, one
    /// `NAME.witness.yml` per program in it.
    #[arg(long, value_name = "FILE|DIR")]
    write_witness: Option<PathBuf>,
}

fn parse_loops(s: &str) -> Result<Loops, String> {
    s.parse()
}

/// The VC engine's options for one file (the time limit starts now).
fn vc_options(args: &VerifyArgs) -> vc::Options {
    vc::Options {
        loops: args.loops,
        inline_depth: args.inline_depth,
        max_warnings: args.max_warnings,
        timeout: args.timeout,
        deadline: args.timeout.map(|t| std::time::Instant::now() + t),
        property: args.cond.property,
        infer: !args.no_infer,
        ..vc::Options::default()
    }
}

/// The user's invariants (when loops are cut) and the checker's result.
pub fn verify_program(p: &Program, users: &[UserCond], opts: &vc::Options) -> Result<ProcResult, Vec<diag::Diag>> {
    let invariants = if opts.loops.sound() {
        vc::houdini::user_invariants(p, &facts::Analysis::new(p))?
    } else {
        Vec::new()
    };
    Ok(vc::verify(p, users, &invariants, opts))
}

fn verify_file(path: &Path, args: &VerifyArgs, ui: &Ui) -> batch::FileOut<VerifyFileDoc> {
    let cfg = crate::pipeline::Config::front(args.front.lower_options(), &args.cond.errors, false)
        .with_property(args.cond.property);
    let (loaded, mut out) = match batch::load(path, &cfg, "not checked", ui.color) {
        Ok(loaded) => loaded,
        Err(out) => return *out,
    };
    let (file, p, users) = (loaded.file, loaded.program, loaded.users);
    let opts = vc_options(args);
    let heads = facts::Analysis::new(&p).loop_at;
    if args.vcs.is_some() || p.contracts.has_specs(&|n| heads.contains_key(&n)) {
        let all = args.vcs == Some(vcs::VcsShow::All);
        let fs = vcs::run(&p, &opts);
        out.bad = false;
        out.found = vcs::any(&fs, VcStatus::Failed);
        // A call havocked past the inlining depth hides what it calls.
        out.unknown = vcs::any(&fs, VcStatus::Unknown) || fs.iter().any(|f| !f.havocked.is_empty());
        out.note = if out.found { "failed VCs" } else { "every VC proved" }.into();
        match args.format {
            Format::Text => out.stdout = crate::views::vcs::text(&p, &fs, all, args.stats),
            _ => out.doc = Some(VerifyFileDoc::Vcs(crate::views::vcs::doc(&p, &fs, all))),
        }
        return out;
    }
    let r = match verify_program(&p, &users, &opts) {
        Ok(r) => r,
        Err(diags) => {
            out.diagnostics(&file, &diags, true, ui.color);
            return out;
        }
    };
    out.bad = false;
    out.found = !r.warnings.is_empty();
    out.unknown = r.outcome == Outcome::Unknown;
    out.note = if out.found { "warnings" } else { "no warning" }.into();
    if let Some(to) = &args.write_witness {
        let confirmed: Vec<_> = (r.warnings.iter())
            .filter(|w| w.status == vc::Status::Confirmed)
            .filter_map(|w| match w.key {
                CheckKey::Site(s) => Some((s, w.inputs.clone(), w.choices.clone())),
                _ => None,
            })
            .collect();
        if confirmed.is_empty() && out.found {
            out.stderr.push_str(&format!(
                "{}: no violation witness: no warning at an error site is confirmed by the interpreter's replay\n",
                path.display()
            ));
        }
        out.stderr
            .push_str(&super::witness::write_confirmed(to, path, &p, &confirmed));
    }
    let replay = |w: &Warning| replay_command(args, path, w);
    match args.format {
        Format::Text => out.stdout = crate::views::verify::text(&p, &r, &replay, args.stats, args.full_trace),
        _ => {
            let doc = crate::views::verify::doc(&p, &r, &replay, args.full_trace);
            out.doc = Some(VerifyFileDoc::Warnings(doc));
        }
    }
    out
}

/// `focuscheck run FILE ... --input k=-1 --choices 1,0`: the command that
/// replays a warning's counterexample.
fn replay_command(args: &VerifyArgs, file: &Path, w: &Warning) -> String {
    let prefix = super::check::run_prefix(file, &args.front, args.cond.errors.iter().map(String::as_str));
    let mut out = crate::views::text::replay_command(&prefix, &w.used_inputs, &[], &w.choices);
    if w.seeded {
        out.push_str(" --seed 0");
    }
    out
}

/// `verify PROGRAM --witness W`: the witness's verdict and exit code.
fn validate(ui: &Ui, args: &VerifyArgs, w: &Path) -> i32 {
    let [program] = args.files.as_slice() else {
        ui.error("`--witness` validates the witness of one program: give one file");
        return EXIT_USAGE;
    };
    match super::validate_witness::validate(program, &args.front.lower_options(), w, None) {
        Ok(Ok(why)) => {
            super::write_stdout(&format!("witness: confirmed: {why}\n"));
            EXIT_OK
        }
        Ok(Err(why)) => {
            super::write_stdout(&format!("witness: not confirmed: {why}\n"));
            EXIT_UNKNOWN
        }
        Err(super::validate_witness::Malformed(why)) => {
            ui.error(&why);
            EXIT_USAGE
        }
    }
}

pub fn cmd_verify(ui: &Ui, args: &VerifyArgs) -> i32 {
    if let Some(w) = &args.witness {
        return validate(ui, args, w);
    }
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
        "verifying",
        |path| verify_file(path, args, ui),
        crate::views::sarif::verify_log,
    )
}
