//! `focuscheck diagnose`: the conditions `check` and `verify` leave
//! undecided, settled by yes/no questions (seed 003).

use super::answers::{answer_line, Answers, AnswersFile};
use super::check::{collect_files, Format};
use super::*;
use crate::analysis::{CheckOptions, Verdict};
use crate::context::conditions::{CondKind, Property};
use crate::diagnose::{self, oracle::RunOracle, Answer, Diagnosis, Evidence, Oracle};
use crate::ir::cond::UserCond;
use crate::vc::gc::CheckKey;
use crate::views::diagnose::{condition_doc, vc_word, DiagnoseDoc};
use crate::views::documents::sorted_json;
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum DefaultAnswer {
    Yes,
    No,
    Unknown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum OracleKind {
    /// Answer from concrete runs of the interpreter where they settle a
    /// question.
    Run,
}

#[derive(Args)]
pub struct DiagnoseArgs {
    /// Cimple files, or directories to search (recursively) for `.c`,
    /// `.i` and `.cimple` files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    #[command(flatten)]
    front: FrontArgs,
    /// An error condition over globals or `proc::local` (may repeat).
    #[arg(long = "error", value_name = "EXPR")]
    errors: Vec<String>,
    /// Which errors to consider: `all`, `unreach-call`, `user`.
    #[arg(long, value_enum, default_value_t = Property::All)]
    property: Property,
    /// Only this condition: its line (`12`), `line:col` (`12:3`), or an
    /// `--error` expression as given.
    #[arg(long, value_name = "ID")]
    condition: Option<String>,
    /// Answers from this file (one per line: `KIND LINE "FORMULA" ANSWER`;
    /// see the README). Questions it does not answer get the default.
    #[arg(long, value_name = "FILE")]
    answers: Option<PathBuf>,
    /// The answer to questions nobody answers (not interactive, or not in
    /// the answers file).
    #[arg(long, value_enum, default_value_t = DefaultAnswer::Unknown)]
    default_answer: DefaultAnswer,
    /// Write the questions and answers here, in the answers file's format
    /// (replay a session with `--answers OUT`).
    #[arg(long, value_name = "OUT")]
    transcript: Option<PathBuf>,
    /// Answer questions automatically where concrete runs settle them.
    #[arg(long, value_enum)]
    oracle: Option<OracleKind>,
    /// Questions asked per condition at most (the oracle's not counted).
    #[arg(long, default_value_t = 10, value_name = "N", value_parser = options::count)]
    max_queries: usize,
    /// Use only the user's loop invariants (`/*@ loop invariant E; */`),
    /// none inferred.
    #[arg(long)]
    no_infer: bool,
    /// Calls are inlined this deep; deeper calls are abstraction variables.
    #[arg(long, default_value_t = crate::vc::INLINE_DEPTH, value_name = "D")]
    inline_depth: u32,
    /// Time limit per file for `check`, and per Z3 call.
    #[arg(long, value_name = "SECONDS", value_parser = options::seconds)]
    timeout: Option<Duration>,
    /// Output format (`text` or `json`).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Print the time per question and the quantifier eliminations.
    #[arg(long)]
    stats: bool,
    /// Write an SV-COMP violation witness (format 2.0, YAML) of the first
    /// real bug at a `reach_error()` call whose run the oracle found, as
    /// `check --witness` does: into this file, or, if it is a directory,
    /// one `NAME.witness.yml` per program in it.
    #[arg(long, visible_alias = "write-witness", value_name = "FILE|DIR")]
    witness: Option<PathBuf>,
}

/// Whether a condition is left to diagnose: the Datalog engine says
/// `unknown` and the VC engine (loops cut with invariants) decides
/// nothing. This is the one place to change when `check --engine auto`
/// (which runs the VC engine on what the Datalog engine leaves unknown)
/// lands: its `unknown` is this.
fn undecided(check: Verdict, vc: Option<bool>) -> bool {
    check == Verdict::Unknown && vc.is_none()
}

/// One condition to diagnose.
struct Target {
    key: CheckKey,
    describe: String,
    kind: &'static str,
    at: Option<(u32, u32)>,
    /// The `--error` expression, for a user condition.
    user: Option<String>,
}

fn matches_id(id: &str, t: &Target) -> bool {
    if let Some(u) = &t.user {
        if u == id {
            return true;
        }
    }
    let Some((line, col)) = t.at else { return false };
    match id.split_once(':') {
        Some((l, c)) => l.trim().parse() == Ok(line) && c.trim().parse() == Ok(col),
        None => id.trim().parse() == Ok(line),
    }
}

struct FileOut {
    code: i32,
    doc: Option<DiagnoseDoc>,
}

pub fn cmd_diagnose(ui: &Ui, args: &DiagnoseArgs) -> i32 {
    let files = collect_files(&args.files);
    if files.is_empty() {
        ui.error("no `.c`, `.i` or `.cimple` files in the given directories");
        return EXIT_USAGE;
    }
    let answers = match &args.answers {
        None => None,
        Some(path) => match std::fs::read_to_string(path) {
            Ok(text) => match AnswersFile::parse(&path.display().to_string(), &text) {
                Ok(a) => Some(a),
                Err(e) => {
                    ui.error(&e);
                    return EXIT_USAGE;
                }
            },
            Err(e) => {
                ui.error(&format!("cannot read `{}`: {}", path.display(), io_reason(&e)));
                return EXIT_USAGE;
            }
        },
    };
    let mut transcript = String::new();
    let mut docs = Vec::new();
    let (mut bad, mut bug, mut open) = (false, false, false);
    for path in &files {
        let out = diagnose_file(ui, args, path, answers.as_ref(), &mut transcript);
        match out.code {
            EXIT_USAGE => bad = true,
            EXIT_ERROR_FOUND => bug = true,
            EXIT_UNRESOLVED => open = true,
            _ => {}
        }
        docs.extend(out.doc);
    }
    if args.format != Format::Text {
        let text = if docs.len() == 1 && files.len() == 1 {
            sorted_json(&docs[0], true)
        } else {
            sorted_json(&docs, true)
        };
        outln!("{}", text);
    }
    if let Some(t) = &args.transcript {
        if let Err(e) = std::fs::write(t, &transcript) {
            ui.error(&format!("cannot write `{}`: {}", t.display(), io_reason(&e)));
            return EXIT_USAGE;
        }
    }
    if bad {
        EXIT_USAGE
    } else if bug {
        EXIT_ERROR_FOUND
    } else if open {
        EXIT_UNRESOLVED
    } else {
        EXIT_OK
    }
}

/// Some condition stays unresolved (and none is a real bug).
pub const EXIT_UNRESOLVED: i32 = super::EXIT_UNKNOWN;

fn diagnose_file(
    ui: &Ui,
    args: &DiagnoseArgs,
    path: &Path,
    answers: Option<&AnswersFile>,
    transcript: &mut String,
) -> FileOut {
    let bad = FileOut {
        code: EXIT_USAGE,
        doc: None,
    };
    let cfg = Config::front(args.front.lower_options(), &args.errors, false);
    let Some(loaded) = load_file(ui, path, &cfg) else {
        return bad;
    };
    let text = args.format == Format::Text;
    let name = path.display().to_string();
    // What the two engines leave undecided.
    let copts = CheckOptions {
        explain: false,
        property: args.property,
        engine: crate::analysis::step::Options {
            timeout: Some(args.timeout.unwrap_or(Duration::from_secs(20))),
            memory: options::memory_budget(None),
            ..Default::default()
        },
        ..CheckOptions::default()
    };
    let cfg = Config {
        check: copts,
        engine: crate::engines::Engine::Fsum,
        ..cfg
    };
    let Loaded { program: p, users, .. } = loaded;
    let report = crate::pipeline::check(&p, &users, &cfg, std::time::Instant::now()).report;
    let opts = diagnose::Options {
        infer: !args.no_infer,
        inline_depth: args.inline_depth,
        timeout: args.timeout.unwrap_or(Duration::from_secs(10)),
        max_queries: args.max_queries,
        property: args.property,
        ..diagnose::Options::default()
    };
    // The conditions `check` leaves unknown, then what the VC engine
    // decides of them (it runs only when there are some).
    let mut unknown = Vec::new();
    let mut decided = Vec::new();
    let mut user_index = 0;
    for r in &report.results {
        let c = report.condition(r);
        let (key, user) = match &c.kind {
            CondKind::Site(s) => (CheckKey::Site(*s), None),
            CondKind::User(u) => {
                let i = users.iter().position(|x| x.text == u.text).unwrap_or(user_index);
                user_index += 1;
                (CheckKey::User(i), Some(u.text.clone()))
            }
        };
        let at = c.site().map(|s| {
            let lc = p.source.start(p.site(s).span);
            (lc.line, lc.col)
        });
        let t = Target {
            key,
            describe: c.describe(&p),
            kind: c.json_kind(&p),
            at,
            user,
        };
        if args.condition.as_deref().is_some_and(|id| !matches_id(id, &t)) {
            continue;
        }
        if r.verdict == Verdict::Unknown {
            unknown.push(t);
        } else {
            decided.push((t, r.verdict, None));
        }
    }
    if let Some(id) = &args.condition {
        if unknown.is_empty() && decided.is_empty() {
            ui.error(&format!(
                "{name}: no condition `{id}` (give its line, line:col, or --error expression)"
            ));
            return bad;
        }
    }
    let prep = if unknown.is_empty() {
        None
    } else {
        match diagnose::prepare(&p, &users, &opts) {
            Ok(x) => Some(x),
            Err(diags) => {
                ui.diagnostics(&p.source, &diags);
                return bad;
            }
        }
    };
    // A run beyond the heap model (a `limit` site neither engine rules
    // out): what is proved, or found a false alarm, holds only within the
    // model. Such a site is not itself diagnosed.
    let limit_open = unknown
        .iter()
        .any(|t| t.kind == "limit" && prep.as_ref().and_then(|x| x.verify.decides(t.key)) != Some(false));
    let mut targets = Vec::new();
    for t in unknown {
        let vc = prep.as_ref().and_then(|x| x.verify.decides(t.key));
        if undecided(Verdict::Unknown, vc) && t.kind != "limit" {
            targets.push(t);
        } else {
            decided.push((t, Verdict::Unknown, vc));
        }
    }
    let mut out = String::new();
    for (t, v, vc) in &decided {
        if text {
            out.push_str(&format!(
                "{}: {}: decided, nothing to ask (check: {}; verify: {})\n",
                location(&name, t),
                t.describe,
                v.name(),
                match (v, vc) {
                    (Verdict::Unknown, Some(false)) if limit_open =>
                        "verified, but only for runs within the heap model",
                    (Verdict::Unknown, _) => vc_word(*vc),
                    _ => "not needed",
                }
            ));
        }
    }
    let mut open = limit_open && decided.iter().any(|(_, v, _)| *v == Verdict::Unknown);
    let mut conds = Vec::new();
    let mut bug = false;
    let mut real_runs = Vec::new();
    if let (false, Some(prep)) = (targets.is_empty(), &prep) {
        if text {
            out.push_str(&invariants_text(&name, prep));
        }
        super::write_stdout(&std::mem::take(&mut out));
        transcript.push_str(&format!("[{name}]\n"));
        let interactive = answers.is_none() && text && std::io::IsTerminal::is_terminal(&std::io::stdin());
        for t in &targets {
            if text {
                super::write_stdout(&format!(
                    "{}: {}: undecided (check: unknown; verify: {})\n",
                    location(&name, t),
                    t.describe,
                    vc_word(prep.verify.decides(t.key))
                ));
            }
            let mut asker = Answers {
                file: answers,
                source: name.clone(),
                interactive,
                default: match args.default_answer {
                    DefaultAnswer::Yes => Answer::Yes,
                    DefaultAnswer::No => Answer::No,
                    DefaultAnswer::Unknown => Answer::Unknown,
                },
                stdin_closed: false,
            };
            let mut run_oracle = args.oracle.map(|_| RunOracle::new(&p, &prep.a, t.key, &users));
            let oracle = run_oracle.as_mut().map(|o| o as &mut dyn Oracle);
            let mut d = diagnose::diagnose(&p, prep, t.key, &mut asker, oracle, &opts);
            if limit_open && d.verdict == diagnose::Verdict::FalseAlarm {
                d.verdict = diagnose::Verdict::Unresolved;
                d.reason = format!(
                    "a false alarm for runs within the heap model ({}), but a run may allocate beyond it",
                    d.reason
                );
            }
            transcript.push_str(&format!(
                "# {}: {}: {}\n",
                location(&name, t),
                t.describe,
                d.verdict.name()
            ));
            for q in &d.queries {
                transcript.push_str(&format!("# Q{} {}\n", q.question.number, q.question.sentence()));
                transcript.push_str(&answer_line(&q.question, q.answer));
                transcript.push_str(&format!("  # {}\n", q.by.name()));
            }
            bug |= d.verdict == diagnose::Verdict::RealBug;
            if let (diagnose::Verdict::RealBug, Some(e), CheckKey::Site(s)) = (d.verdict, &d.run, t.key) {
                real_runs.push((s, e.inputs.clone(), e.choices.clone()));
            }
            open |= d.verdict == diagnose::Verdict::Unresolved;
            let replay = d.run.as_ref().map(|e| replay_command(args, path, t, &users, e));
            if text {
                super::write_stdout(&condition_text(&d, replay.as_deref(), args.stats));
            }
            let vc = prep.verify.decides(t.key);
            conds.push(condition_doc(&t.describe, t.kind, t.at, vc, &d, replay.as_deref()));
        }
    } else if text {
        out.push_str(&format!("{name}: no undecided condition\n"));
    }
    super::write_stdout(&out);
    if let (Some(to), false) = (&args.witness, real_runs.is_empty()) {
        eprint!("{}", super::witness::write_confirmed(to, path, &p, &real_runs));
    }
    let code = if bug {
        EXIT_ERROR_FOUND
    } else if open {
        EXIT_UNRESOLVED
    } else {
        EXIT_OK
    };
    let doc = DiagnoseDoc {
        file: name,
        conditions: conds,
    };
    FileOut { code, doc: Some(doc) }
}

fn location(file: &str, t: &Target) -> String {
    match t.at {
        Some((l, c)) => format!("{file}:{l}:{c}"),
        None => file.to_string(),
    }
}

fn invariants_text(file: &str, prep: &diagnose::Prepared) -> String {
    let mut out = String::new();
    let shown: Vec<String> = prep
        .invariants
        .iter()
        .map(|(l, t, user)| format!("{t} (line {l}{})", if *user { ", given" } else { "" }))
        .collect();
    if !shown.is_empty() {
        out.push_str(&format!("{file}: loop invariants known: {}\n", shown.join(", ")));
    }
    for (l, t) in &prep.unproved {
        out.push_str(&format!(
            "{file}: note: the loop invariant `{t}` (line {l}) does not hold or is not inductive: not used\n"
        ));
    }
    if let Some(n) = &prep.note {
        out.push_str(&format!("{file}: note: {n}\n"));
    }
    out
}

fn condition_text(d: &Diagnosis, replay: Option<&str>, stats: bool) -> String {
    let mut out = String::new();
    for (i, q) in d.queries.iter().enumerate() {
        // The user saw (and answered) these on the terminal.
        if q.by == diagnose::By::User {
            continue;
        }
        out.push_str(&format!(
            "  Q{} {} [y/n/?] {} ({})\n",
            q.question.number,
            q.question.sentence(),
            q.answer.name(),
            q.by.name()
        ));
        if stats {
            if let Some(t) = d.question_times.get(i) {
                out.push_str(&format!("     computed in {:.3}s\n", t.as_secs_f64()));
            }
        }
    }
    let word = match d.verdict {
        diagnose::Verdict::FalseAlarm => "false alarm",
        diagnose::Verdict::RealBug => "real bug",
        diagnose::Verdict::Unresolved => "unresolved",
    };
    out.push_str(&format!("  result: {word} ({})\n", d.reason));
    if let Some(r) = replay {
        out.push_str(&format!("  replay: {r}\n"));
    }
    if stats {
        out.push_str(&format!(
            "  stats: {:.3}s, {} quantifier eliminations in {:.3}s ({} by qe after qe2 failed), {} satisfiability queries in {:.3}s\n",
            d.time.as_secs_f64(),
            d.qe_calls,
            d.qe_time.as_secs_f64(),
            d.qe_fallbacks,
            d.sat_calls,
            d.sat_time.as_secs_f64()
        ));
    }
    out
}

/// `focuscheck run FILE --input n=3 --choices 1,0`: the run the oracle found.
fn replay_command(args: &DiagnoseArgs, file: &Path, t: &Target, users: &[UserCond], e: &Evidence) -> String {
    let error = match t.key {
        CheckKey::User(i) => users.get(i).map(|u| u.text.as_str()),
        _ => None,
    };
    let prefix = super::check::run_prefix(file, &args.front, error);
    crate::views::text::replay_command(&prefix, &e.inputs, &[], &e.choices)
}
