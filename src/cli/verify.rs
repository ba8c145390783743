//! `focuscheck verify`: the verification-condition engine (Z3), warnings
//! with ESC/Java-style execution traces (seed 000).

use super::args::CondArgs;
use super::check::{collect_files, Format};
use super::*;
use crate::context::conditions::Property;
use crate::ir::cond::{self, UserCond};
use crate::syntax::source::Span;
use crate::vc::{self, contract::VcStatus, gc::EventKind, Loops, Outcome, ProcResult, Status, Warning};
use crate::views::fold::{self, Docs, Foldable, RepeatDoc};
use serde_json::{json, Value};
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
    #[arg(long, default_value_t = 3, value_name = "D")]
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
    #[arg(long, value_name = "W")]
    witness: Option<PathBuf>,
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

fn verify_file(path: &Path, args: &VerifyArgs, ui: &Ui) -> batch::FileOut {
    let lower = crate::ir::lower::LowerOptions {
        overflow_checks: args.cond.property == Property::NoOverflow,
        ..args.front.lower_options()
    };
    let (file, p, mut out) = match batch::load(path, &lower, "not checked", ui.color) {
        Ok(loaded) => loaded,
        Err(out) => return *out,
    };
    let users = match cond::user_conditions(&p, &args.cond.errors) {
        Ok(c) => c,
        Err((text, diags)) => {
            out.diagnostics(&SourceFile::new("--error", text), &diags, false, ui.color);
            return out;
        }
    };
    let opts = vc_options(args);
    let heads = facts::Analysis::new(&p).loop_at;
    if args.vcs.is_some() || p.contracts.has_specs(&|n| heads.contains_key(&n)) {
        let which = args.vcs.unwrap_or(vcs::VcsShow::Failed);
        let fs = vcs::run(&p, &opts);
        out.bad = false;
        out.found = vcs::any(&fs, VcStatus::Failed);
        out.unknown = vcs::any(&fs, VcStatus::Unknown);
        out.note = if out.found { "failed VCs" } else { "every VC proved" }.into();
        match args.format {
            Format::Text => out.stdout = vcs::text(&p, &fs, which, args.stats),
            _ => {
                out.doc = Some(vcs::json_doc(&p, &fs, which));
            }
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
    let replay = |w: &Warning| replay_command(args, path, w);
    match args.format {
        Format::Text => out.stdout = text(&p, &r, &replay, args.stats, args.full_trace),
        _ => {
            out.doc = Some(json_doc(&p, &r, &replay, args.full_trace));
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

fn loc(p: &Program, span: Span) -> (u32, u32) {
    let at = p.source.start(span);
    (at.line, at.col)
}

/// One trace line in the seed's words.
pub fn trace_text(p: &Program, s: &vc::TraceStep) -> String {
    let (line, col) = loc(p, s.span);
    let what = match s.kind {
        EventKind::Then => "Executed then branch".to_string(),
        EventKind::Else => "Executed else branch".to_string(),
        EventKind::LoopHead => {
            let n = s.iteration.unwrap_or(0);
            format!(
                "Reached top of loop after {n} iteration{}",
                if n == 1 { "" } else { "s" }
            )
        }
        EventKind::Call if s.havocked => format!(
            "Called {} (not inlined: its result and the globals it writes are any values)",
            s.callee.as_deref().unwrap_or("?")
        ),
        EventKind::Call => format!("Called {}", s.callee.as_deref().unwrap_or("?")),
        EventKind::Return => format!("Returned from {}", s.callee.as_deref().unwrap_or("?")),
    };
    format!("{what} in \"{}\", line {line}, col {col}.", p.source.name)
}

/// A trace step, folded like every trace (`views::fold`): by its event and
/// place; a loop head's iteration is its value.
struct Step<'a>(&'a vc::TraceStep);

impl Foldable for Step<'_> {
    fn fold_key(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::hash::DefaultHasher::new();
        (
            self.0.kind.name(),
            self.0.span.lo,
            self.0.span.hi,
            &self.0.callee,
            self.0.havocked,
        )
            .hash(&mut h);
        h.finish()
    }
    fn fold_values(&self) -> Vec<(String, i64)> {
        self.0
            .iteration
            .map(|n| ("iteration".to_string(), n as i64))
            .into_iter()
            .collect()
    }
}

/// A warning's trace as JSON objects: every step with `full`, else
/// repetitions folded (`event: repeat`, with `repeat: {count, first, last,
/// ranges, ...}`).
fn trace_docs(p: &Program, w: &Warning, full: bool) -> Vec<Value> {
    let steps = w.trace.iter().map(Step);
    let folded = if full { fold::unfolded(steps) } else { fold::fold(steps) };
    let plain = |l: u32| l.to_string();
    Docs {
        one: &|s: Step| {
            let (line, column) = loc(p, s.0.span);
            json!({
                "event": s.0.kind.name(),
                "line": line,
                "column": column,
                "iteration": s.0.iteration,
                "callee": s.0.callee,
                "seq": s.0.seq,
                "text": trace_text(p, s.0),
            })
        },
        lines: &|v: &Value| match v.get("repeat") {
            Some(r) => (
                r["lines"][0].as_u64().unwrap_or(0) as u32,
                r["lines"][1].as_u64().unwrap_or(0) as u32,
            ),
            None => {
                let l = v["line"].as_u64().unwrap_or(0) as u32;
                (l, l)
            }
        },
        repeat: &|r: RepeatDoc<Value>| {
            json!({
                "event": "repeat",
                "line": r.first[0]["line"],
                "column": r.first[0]["column"],
                "text": fold::repeat_text(&r, &plain),
                "repeat": r,
            })
        },
        omitted: &|steps, next: Option<&Value>| {
            json!({
                "event": "omitted",
                "line": next.map(|n| n["line"].clone()),
                "column": next.map(|n| n["column"].clone()),
                "text": fold::omitted_text(steps),
                "omitted": steps,
            })
        },
    }
    .make(folded)
}

/// Trace objects as text lines; a repetition as its text, its first run,
/// how many runs are not shown, its last run.
fn trace_listing(steps: &[Value], indent: &str, out: &mut String) {
    for s in steps {
        let text = s["text"].as_str().unwrap_or("");
        match s.get("repeat") {
            Some(r) => {
                out.push_str(&format!("{indent}{text} (first and last shown):\n"));
                let inner = format!("{indent}  ");
                trace_listing(r["first"].as_array().map_or(&[], Vec::as_slice), &inner, out);
                let hidden = r["count"].as_u64().unwrap_or(2).saturating_sub(2);
                out.push_str(&format!(
                    "{inner}... {hidden} more run{} ...\n",
                    if hidden == 1 { "" } else { "s" }
                ));
                trace_listing(r["last"].as_array().map_or(&[], Vec::as_slice), &inner, out);
            }
            None => out.push_str(&format!("{indent}{text}\n")),
        }
    }
}

fn inputs_text(inputs: &[(String, i64)]) -> String {
    if inputs.is_empty() {
        return "(no inputs)".into();
    }
    inputs
        .iter()
        .map(|(n, v)| format!("{n} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn text(p: &Program, r: &ProcResult, replay: &dyn Fn(&Warning) -> String, stats: bool, full: bool) -> String {
    let mut out = String::new();
    for w in &r.warnings {
        let d = diag::Diag::warning(w.span, format!("{} ({})", w.message, w.kind));
        out.push_str(&d.one_line(&p.source));
        out.push('\n');
        out.push_str("Execution trace information:\n");
        trace_listing(&trace_docs(p, w, full), "    ", &mut out);
        let shown = if w.status == Status::Confirmed {
            &w.used_inputs
        } else {
            &w.inputs
        };
        out.push_str(&format!("Counterexample: {}\n", inputs_text(shown)));
        if !w.choices.is_empty() {
            let c: Vec<String> = w.choices.iter().map(|c| c.to_string()).collect();
            out.push_str(&format!("Choices: {}\n", c.join(",")));
        }
        match (&w.status, &w.replay_note) {
            (Status::Confirmed, _) => out.push_str("status: confirmed (the replay reaches this error)\n"),
            (_, Some(n)) => out.push_str(&format!("status: possible ({n})\n")),
            _ => out.push_str("status: possible\n"),
        }
        if w.key_is_replayable() {
            out.push_str(&format!("replay: {}\n", replay(w)));
        }
        out.push('\n');
    }
    let confirmed = r.warnings.iter().filter(|w| w.status == Status::Confirmed).count();
    let summary = match r.outcome {
        Outcome::Warnings => format!(
            "{} warning{} ({confirmed} confirmed); {}",
            r.warnings.len(),
            if r.warnings.len() == 1 { "" } else { "s" },
            r.reason
        ),
        _ => r.reason.clone(),
    };
    out.push_str(&format!(
        "{}: `{}`: {}: {summary}\n",
        p.source.name,
        r.name,
        r.outcome.name()
    ));
    if stats {
        out.push_str(&format!(
            "stats: {} blocks, {} commands; Z3 {:.3}s of {:.3}s\n",
            r.blocks,
            r.commands,
            r.solver_time.as_secs_f64(),
            r.total_time.as_secs_f64()
        ));
        for (line, t, user) in &r.invariants {
            out.push_str(&format!(
                "invariant at line {line}: {t}{}\n",
                if *user { " (given)" } else { " (inferred)" }
            ));
        }
    }
    out
}

impl Warning {
    fn key_is_replayable(&self) -> bool {
        matches!(self.key, vc::gc::CheckKey::Site(_) | vc::gc::CheckKey::User(_))
    }
}

pub fn json_doc(p: &Program, r: &ProcResult, replay: &dyn Fn(&Warning) -> String, full: bool) -> Value {
    let warnings: Vec<Value> = r
        .warnings
        .iter()
        .map(|w| {
            let (line, column) = loc(p, w.span);
            let trace = trace_docs(p, w, full);
            // A confirmed warning shows the inputs its replay reads.
            let shown = if w.status == Status::Confirmed {
                &w.used_inputs
            } else {
                &w.inputs
            };
            let inputs: serde_json::Map<String, Value> = shown.iter().map(|(n, v)| (n.clone(), json!(v))).collect();
            json!({
                "kind": w.kind,
                "line": line,
                "column": column,
                "message": w.message,
                "status": w.status.name(),
                "trace": trace,
                "inputs": inputs,
                "choices": w.choices,
                "replay": if w.key_is_replayable() { Some(replay(w)) } else { None },
            })
        })
        .collect();
    json!({
        "file": p.source.name,
        "procedures": [{
            "name": r.name,
            "warnings": warnings,
            "result": r.outcome.name(),
            "reason": r.reason,
            "invariants": r.invariants.iter().map(|(l, t, u)| json!({"line": l, "text": t, "user": u})).collect::<Vec<_>>(),
            "blocks": r.blocks,
            "commands": r.commands,
            "seconds": r.total_time.as_secs_f64(),
            "solver_seconds": r.solver_time.as_secs_f64(),
        }],
    })
}

/// SARIF 2.1.0: one result per warning, its trace as a code flow.
fn sarif(docs: &[Value]) -> Value {
    let mut results = Vec::new();
    for d in docs {
        let file = d["file"].as_str().unwrap_or_default();
        let loc = |line: &Value, col: &Value, msg: Option<&str>| {
            let mut l = json!({
                "physicalLocation": {
                    "artifactLocation": {"uri": file},
                    "region": {"startLine": line, "startColumn": col},
                }
            });
            if let Some(m) = msg {
                l["message"] = json!({ "text": m });
            }
            l
        };
        results.extend(vcs::sarif_results(d));
        for proc_ in d["procedures"].as_array().into_iter().flatten() {
            for w in proc_["warnings"].as_array().into_iter().flatten() {
                let mut steps: Vec<Value> = w["trace"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|s| json!({ "location": loc(&s["line"], &s["column"], s["text"].as_str()) }))
                    .collect();
                steps.push(json!({ "location": loc(&w["line"], &w["column"], w["message"].as_str()) }));
                results.push(json!({
                    "ruleId": w["kind"],
                    "level": if w["status"] == "confirmed" { "error" } else { "warning" },
                    "message": {"text": format!("{} ({})", w["message"].as_str().unwrap_or_default(), w["status"].as_str().unwrap_or_default())},
                    "locations": [loc(&w["line"], &w["column"], None)],
                    "codeFlows": [{"threadFlows": [{"locations": steps}]}],
                }));
            }
        }
    }
    crate::views::sarif::documents_log(Vec::new(), results, docs)
}

/// `verify PROGRAM --witness W`: the witness's verdict and exit code.
fn validate(ui: &Ui, args: &VerifyArgs, w: &Path) -> i32 {
    let [program] = args.files.as_slice() else {
        ui.error("`--witness` validates the witness of one program: give one file");
        return EXIT_USAGE;
    };
    match super::validate_witness::validate(program, &args.front.lower_options(), w) {
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
        sarif,
    )
}
