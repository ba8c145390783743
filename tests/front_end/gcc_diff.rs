//! Differential test of the concrete interpreter against gcc.
//!
//! Every SV-COMP task of the shared corpus that `focuscheck::load` accepts
//! (6 runs each), and 150 generated programs (`support/gen.rs`, 4 runs
//! each), are run by the interpreter and, compiled by gcc, as C programs on
//! the same inputs and choices. The outcome kind must agree (finished,
//! halted, failed assertion, `reach_error()`, index out of bounds, division
//! by zero), an error must be on the same line, finished or halted runs must
//! end with the same global values, and both must consume the same number
//! of choices. Run with `--nocapture` for a summary; set
//! `FOCUSCHECK_GEN_PROGRAMS=N` (and `FOCUSCHECK_GEN_FIRST=S`) to hunt with
//! more seeds.
//!
//! The C version is the original text with a few patches (made with spans
//! from the AST, in a temporary directory):
//! - a prelude renames `reach_error`/`__VERIFIER_error`/`abort`/`exit` to
//!   harness functions that print a marker and stop (their definitions in the
//!   file are renamed out of the way: Cimple treats every call of them as the
//!   builtin), and a runtime linked in defines `__VERIFIER_nondet_X()`,
//!   `__VERIFIER_assert` and friends as weak symbols (a definition in the
//!   file wins, as it does in Cimple);
//! - inputs (uninitialised globals in `--globals input` mode, parameters and
//!   uninitialised locals of `main`) read the input file; uninitialised
//!   locals of other procedures and falling off the end of an `int`
//!   procedure draw the next choice, as Cimple does;
//! - an epilogue prints every global when the run ends;
//! - arrays become `volatile`, or gcc folds away reads whose value cannot
//!   matter (`a[9] * 0`, `a[9] > 1 || 1`) together with their bounds checks.
//!
//! gcc's UndefinedBehaviorSanitizer reports an index out of bounds, a
//! division by zero, a bad shift and a signed overflow. Each program is
//! lowered twice. As is, signed arithmetic is unchecked: a run with a
//! signed overflow (undefined in C; the overflow-checked lowering finds it)
//! is skipped. With overflow checks (`--property no-overflow`; every
//! generated program, every SV-COMP task) an overflow gcc reports must be
//! the interpreter's, on the same line; one gcc misses (arithmetic it
//! folds or narrows) skips the run. Unsigned arithmetic and conversions
//! wrap as in C and must agree (docs/cimple.md). The C side lives in
//! `support/gcc_c.rs`.

use crate::gcc_c;
use crate::gen;

use focuscheck::interp::{self, Config, Outcome, Run, RunError};
use focuscheck::ir::lower::LowerOptions;
use focuscheck::ir::{GlobalsMode, Program, SiteKind};
use focuscheck::syntax::source::SourceFile;
use gcc_c::{c_version, run_c, CEnd, CProgram, Gcc, Kind};
use gen::Rng;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The shared SV-COMP corpus, `../shared` beside the project (override with `FOCUSCHECK_SVCOMP`).
const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/", "../shared/corpus/svcomp");
const GENERATED: u64 = 150;
const RUNS_PER_GENERATED: usize = 4;
const RUNS_PER_TASK: usize = 6;
const MAX_STEPS: u64 = 3_000_000;
/// Deeper recursion could overflow the C stack.
const MAX_DEPTH: u32 = 20_000;
// ---------------------------------------------------------------------------
// Comparing runs
// ---------------------------------------------------------------------------

/// Why a run was not compared, or the disagreement found.
#[derive(Debug)]
enum Verdict {
    /// The kind of outcome, and the largest magnitude of a value written.
    Agree(Kind, i64),
    Skip(String),
    Disagree(String),
}

/// A run of the overflow-checked lowering that stops at a signed overflow
/// (or a strict `<<`) where the plain run went on: undefined in C, so gcc's
/// result after it (wrapped, or folded at compile time without a sanitizer
/// report) need not be the interpreter's.
fn signed_overflow(p: &Program, checked: &Program, cfg: &Config, plain: &Run) -> Option<String> {
    let run = run_fitting(checked, cfg).ok()?;
    let Outcome::Error { site, .. } = run.outcome else {
        return None;
    };
    let same = matches!(plain.outcome, Outcome::Error { site: s, .. } if p.site(s).span == checked.site(site).span);
    let kind = checked.site(site).kind;
    (matches!(kind, SiteKind::Overflow | SiteKind::Shift) && !same).then(|| {
        format!(
            "a signed overflow at {} (undefined in C)",
            checked.location(checked.site(site).span)
        )
    })
}

fn interp_kind(p: &Program, o: &Outcome) -> Result<Kind, String> {
    match o {
        Outcome::Finished => Ok(Kind::Finished),
        Outcome::Halted { .. } => Ok(Kind::Halted),
        Outcome::Error { site, .. } => Ok(match p.site(*site).kind {
            SiteKind::Assert => Kind::Assert,
            SiteKind::ReachError => Kind::ReachError,
            SiteKind::Bounds => Kind::Bounds,
            SiteKind::DivByZero => Kind::DivByZero,
            SiteKind::Shift => Kind::Shift,
            SiteKind::Overflow => Kind::Overflow,
            // Pointers and the heap are tested by `tests/memory_model/mem_gcc.rs`.
            SiteKind::Deref => return Err("an invalid pointer access".into()),
            SiteKind::Limit => return Err("an allocation beyond the heap model".into()),
            SiteKind::Leak => return Err("a memory leak (leaks are not checked here)".into()),
        }),
        Outcome::Overflow { .. } => Err("interpreter: a value left the 64-bit range".into()),
        Outcome::StepLimit => Err(format!("interpreter: step limit ({MAX_STEPS}) reached")),
        Outcome::Condition { .. } => Err("a user condition (none was given)".into()),
    }
}

fn show_list(v: &[i64]) -> String {
    const MAX: usize = 400;
    let shown: Vec<String> = v.iter().take(MAX).map(i64::to_string).collect();
    if v.len() > MAX {
        format!("[{}, ... ({} in all)]", shown.join(", "), v.len())
    } else {
        format!("[{}]", shown.join(", "))
    }
}

/// How a program was lowered for a comparison.
#[derive(Clone, Copy)]
enum Lowering<'a> {
    /// As is (signed arithmetic unchecked); its overflow-checked lowering
    /// tells the runs with a signed overflow, which are skipped.
    Plain { checked: &'a Program },
    /// With overflow checks (`--property no-overflow`): a signed overflow in
    /// C must be the interpreter's overflow or shift error, on its line.
    Checked,
}

/// Runs one configuration through the interpreter and through the C binary.
fn compare_run(gcc: &Gcc, p: &Program, lowering: Lowering, c: &CProgram, exe: &Path, cfg: &Config) -> Verdict {
    let run = match run_fitting(p, cfg) {
        Ok(r) => r,
        Err(e) => return Verdict::Disagree(format!("the interpreter refused the run: {e:?}")),
    };
    let kind = match interp_kind(p, &run.outcome) {
        Ok(k) => k,
        Err(why) => return Verdict::Skip(why),
    };
    if let Lowering::Plain { checked } = lowering {
        if let Some(why) = signed_overflow(p, checked, cfg, &run) {
            return Verdict::Skip(why);
        }
    }
    if run.trace.iter().any(|s| s.depth > MAX_DEPTH) {
        return Verdict::Skip(format!("recursion deeper than {MAX_DEPTH} calls (C stack)"));
    }
    // Replaying the recorded inputs and choices must give the same run.
    // (Only for few inputs: the interpreter checks given input names in
    // quadratic time.)
    let mut names = std::collections::HashSet::new();
    let unique = run.inputs.iter().all(|(n, _)| names.insert(n));
    if unique && run.inputs.len() <= 2000 {
        let replay_cfg = Config {
            inputs: run.inputs.iter().cloned().collect(),
            choices: run.choices.clone(),
            seed: None,
            max_steps: MAX_STEPS,
            ..Config::default()
        };
        match interp::run(p, &replay_cfg) {
            Ok(r) if r.outcome == run.outcome && r.globals == run.globals => {}
            other => {
                return Verdict::Disagree(format!(
                    "replaying the recorded inputs and choices differs: first {:?}, replay {:?}",
                    run.outcome,
                    other.map(|r| r.outcome)
                ))
            }
        }
    }
    let inputs: Vec<i64> = run.inputs.iter().map(|(_, v)| *v).collect();
    let mut crun = run_c(gcc, exe, &inputs, &run.choices);
    let checks = matches!(lowering, Lowering::Checked);
    match crun.end {
        CEnd::Kind(Kind::Overflow | Kind::ShiftOverflow) if !checks => {
            return Verdict::Skip("C: signed overflow (checked only under no-overflow)".into());
        }
        // Under overflow checks the interpreter's `<<` of a signed value
        // is strict: its shift check fails.
        CEnd::Kind(Kind::ShiftOverflow) => crun.end = CEnd::Kind(Kind::Shift),
        _ => {}
    }
    // gcc's sanitizer misses overflows in arithmetic it folds or narrows
    // at -O0 (`5 + 0x7fffffff`, `a <= b - 1` as `a < b`, `short s = a * b`
    // done in 16 bits): an overflow of the interpreter's that C does not
    // report on its line is skipped. The other way round, an overflow C
    // reports must be the interpreter's, on the same line.
    if let (Kind::Overflow, Outcome::Error { site, .. }) = (kind, &run.outcome) {
        let span = p.site(*site).span;
        let first = p.source.line_of(span);
        let last = first + p.text(span).matches('\n').count() as u32;
        let reported = crun.end == CEnd::Kind(Kind::Overflow) && crun.line.is_some_and(|l| (first..=last).contains(&l));
        if !reported {
            return Verdict::Skip("an overflow gcc's sanitizer does not report (folded or narrowed arithmetic)".into());
        }
    }
    let globals: Vec<i64> = c.printed.iter().map(|&s| run.globals[s]).collect();
    let mut problems = Vec::new();
    if crun.end != CEnd::Kind(kind) {
        problems.push(format!("outcome: interpreter {kind:?}, C {:?}", crun.end));
    } else {
        if matches!(kind, Kind::Finished | Kind::Halted) && crun.globals != globals {
            problems.push(format!(
                "globals: interpreter {}, C {}",
                show_list(&globals),
                show_list(&crun.globals)
            ));
        }
        if matches!(kind, Kind::Finished | Kind::Halted | Kind::Assert | Kind::ReachError)
            && crun.used != Some(run.choices.len())
        {
            problems.push(format!(
                "choices consumed: interpreter {}, C {:?}",
                run.choices.len(),
                crun.used
            ));
        }
        if let (Outcome::Error { site, .. }, Some(line)) = (&run.outcome, crun.line) {
            let span = p.site(*site).span;
            let first = p.source.line_of(span);
            let last = first + p.text(span).matches('\n').count() as u32;
            if line < first || line > last {
                problems.push(format!(
                    "error place: interpreter {} (lines {first}-{last}), C line {line}",
                    p.location(span)
                ));
            }
        }
    }
    if problems.is_empty() {
        let largest = run
            .trace
            .iter()
            .filter_map(|s| s.value)
            .map(i64::abs)
            .max()
            .unwrap_or(0);
        return Verdict::Agree(kind, largest);
    }
    let site = match &run.outcome {
        Outcome::Error { site, .. } => format!(" at {}", p.location(p.site(*site).span)),
        _ => String::new(),
    };
    Verdict::Disagree(format!(
        "{}\ninputs: {:?}\nchoices: {}\ninterpreter: {:?}{site}, globals {}\nC: {:?}, globals {}, used {:?}\nC stdout (tail): {}\nC stderr: {}",
        problems.join("\n"),
        run.inputs,
        show_list(&run.choices),
        run.outcome,
        show_list(&globals),
        crun.end,
        show_list(&crun.globals),
        crun.used,
        tail(&crun.stdout, 400),
        tail(&crun.stderr, 1000),
    ))
}

fn tail(s: &str, n: usize) -> &str {
    let mut at = s.len().saturating_sub(n);
    while !s.is_char_boundary(at) {
        at += 1;
    }
    &s[at..]
}

/// Runs the interpreter; a given choice outside the range of its type is
/// moved into the range and the run repeated.
fn run_fitting(p: &Program, cfg: &Config) -> Result<Run, RunError> {
    let mut cfg = cfg.clone();
    for _ in 0..200 {
        match interp::run(p, &cfg) {
            Err(RunError::ChoiceOutOfRange {
                index, value, range, ..
            }) => {
                cfg.choices[index] = value.clamp(range.0, range.1);
            }
            // An input of a narrow or unsigned type: the nearest value of it.
            Err(RunError::InputOutOfRange { name, value, range }) => {
                cfg.inputs.insert(name, value.clamp(range.0, range.1));
            }
            other => return other,
        }
    }
    interp::run(p, &cfg)
}

// ---------------------------------------------------------------------------
// Bookkeeping
// ---------------------------------------------------------------------------

#[derive(Default)]
struct Tally {
    programs: usize,
    /// The largest magnitude of a value written in a compared run.
    largest: i64,
    /// Programs with at least one compared run.
    programs_compared: usize,
    runs_compared: usize,
    /// Why runs were skipped, with counts and a few examples.
    skipped_runs: BTreeMap<String, (usize, Vec<String>)>,
    /// Programs not compared at all, with the reason.
    skipped_programs: Vec<(String, String)>,
    /// Per kind of outcome compared.
    kinds: BTreeMap<String, usize>,
    disagreements: Vec<String>,
    /// Programs that took long, with their time.
    slow: Vec<(String, Duration)>,
    /// List every program with the outcome of each run.
    detail: bool,
    details: Vec<String>,
}

impl Tally {
    /// Skip reasons are grouped by their first words (values vary).
    fn skip(&mut self, name: &str, why: &str) {
        let key = if why.starts_with("a signed overflow at") {
            "a signed overflow (undefined in C)"
        } else {
            why
        };
        let entry = self.skipped_runs.entry(key.to_string()).or_default();
        entry.0 += 1;
        if entry.1.len() < 3 && !entry.1.iter().any(|e| e.starts_with(name)) {
            entry.1.push(format!("{name}: {why}"));
        }
    }

    fn summary(&self, what: &str, elapsed: Duration) -> String {
        let mut s = format!(
            "{what}: {} programs, {} compared ({} runs, values up to {}), {} not compared; {} disagreements; {:.1?}\n",
            self.programs,
            self.programs_compared,
            self.runs_compared,
            self.largest,
            self.skipped_programs.len(),
            self.disagreements.len(),
            elapsed
        );
        for (k, n) in &self.kinds {
            let _ = writeln!(s, "  compared {k}: {n}");
        }
        for (why, (n, examples)) in &self.skipped_runs {
            let _ = writeln!(s, "  runs skipped ({n}): {why}");
            for e in examples {
                let _ = writeln!(s, "    e.g. {e}");
            }
        }
        for (name, why) in &self.skipped_programs {
            let _ = writeln!(s, "  not compared: {name}: {why}");
        }
        for (name, t) in &self.slow {
            let _ = writeln!(s, "  slow: {name}: {t:.1?}");
        }
        for d in &self.details {
            let _ = writeln!(s, "  {d}");
        }
        s
    }
}

/// Compiles a program and compares the given runs on its plain lowering
/// and, when `compare_checked`, on its overflow-checked one.
struct Lowered<'a> {
    plain: &'a Program,
    checked: &'a Program,
    compare_checked: bool,
}

fn check_program(gcc: &Gcc, name: &str, lowered: &Lowered, cfgs: &[Config], tally: &mut Tally) {
    let start = Instant::now();
    check_program_runs(gcc, name, lowered, cfgs, tally);
    if start.elapsed() > Duration::from_secs(2) {
        tally.slow.push((name.to_string(), start.elapsed()));
    }
}

fn check_program_runs(gcc: &Gcc, name: &str, lowered: &Lowered, cfgs: &[Config], tally: &mut Tally) {
    tally.programs += 1;
    let p = lowered.plain;
    let c = match c_version(p) {
        Ok(c) => c,
        Err(why) => {
            tally.skipped_programs.push((name.to_string(), why));
            return;
        }
    };
    let exe = match gcc.compile(&format!("p{}", tally.programs), &c.text) {
        Ok(e) => e,
        Err(e) => {
            tally.disagreements.push(format!(
                "{name}: gcc rejects the C version:\n{e}\n--- C version ---\n{}",
                c.text
            ));
            return;
        }
    };
    // Overflow checks change the IR, never the C version.
    if c_version(lowered.checked).map(|d| (d.text, d.printed)) != Ok((c.text.clone(), c.printed.clone())) {
        tally
            .disagreements
            .push(format!("{name}: its two lowerings have different C versions"));
        return;
    }
    let mut lowerings = vec![(
        p,
        Lowering::Plain {
            checked: lowered.checked,
        },
    )];
    if lowered.compare_checked {
        lowerings.push((lowered.checked, Lowering::Checked));
    }
    let mut compared = false;
    let mut step_limits = 0;
    // What happened to each run, for the detailed summary.
    let mut runs: Vec<String> = Vec::new();
    for (cfg, &(p, lowering)) in cfgs.iter().flat_map(|cfg| lowerings.iter().map(move |l| (cfg, l))) {
        let mode = match lowering {
            Lowering::Plain { .. } => "",
            Lowering::Checked => " (overflow checked)",
        };
        match compare_run(gcc, p, lowering, &c, &exe, cfg) {
            Verdict::Agree(kind, largest) => {
                compared = true;
                tally.runs_compared += 1;
                tally.largest = tally.largest.max(largest);
                *tally.kinds.entry(format!("{kind:?}{mode}")).or_default() += 1;
                runs.push(format!("{kind:?}{mode}"));
            }
            Verdict::Skip(why) => {
                if why.contains("step limit") {
                    step_limits += 1;
                    runs.push("skipped (step limit)".into());
                } else {
                    runs.push("skipped".into());
                }
                tally.skip(name, &why);
                // A loop far longer than the limit stays so: save the time.
                if step_limits >= 2 && !compared {
                    break;
                }
            }
            Verdict::Disagree(d) => {
                compared = true;
                runs.push("DISAGREE".into());
                tally
                    .disagreements
                    .push(format!("{name}{mode}: {d}\n--- program ---\n{}", p.source.text));
            }
        }
    }
    if tally.detail {
        tally.details.push(format!("{name}: {}", runs.join(", ")));
    }
    if compared {
        tally.programs_compared += 1;
    } else {
        tally
            .skipped_programs
            .push((name.to_string(), "every run was skipped (see the run counts)".into()));
    }
}

fn finish(what: &str, tally: &Tally, start: Instant) {
    let summary = tally.summary(what, start.elapsed());
    println!("{summary}");
    assert!(
        tally.disagreements.is_empty(),
        "{summary}\n{} disagreement(s) between the interpreter and gcc:\n\n{}",
        tally.disagreements.len(),
        tally.disagreements.join("\n\n==========\n\n")
    );
}

// ---------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------

fn load(name: &str, text: &str, opts: &LowerOptions) -> Result<Program, String> {
    let file = Arc::new(SourceFile::new(name, text));
    let (program, diags) = focuscheck::load(file, opts);
    program.ok_or_else(|| {
        diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| format!("{d:?}"))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

#[test]
fn svcomp_tasks_agree_with_gcc() {
    let start = Instant::now();
    let root = std::env::var("FOCUSCHECK_SVCOMP").unwrap_or_else(|_| CORPUS.to_string());
    let index = std::fs::read_to_string(Path::new(&root).join("index.tsv"))
        .unwrap_or_else(|e| panic!("cannot read {root}/index.tsv ({e}); set FOCUSCHECK_SVCOMP to the corpus"));
    let gcc = Gcc::new();
    let mut tally = Tally {
        detail: true,
        ..Tally::default()
    };
    for (n, line) in index.lines().skip(1).enumerate() {
        let Some(path) = line.split('\t').next().filter(|p| !p.is_empty()) else {
            continue;
        };
        let text = std::fs::read_to_string(Path::new(&root).join(path)).expect("a corpus file");
        let checked = LowerOptions {
            overflow_checks: true,
            ..LowerOptions::default()
        };
        let (p, p_checked) =
            match load(path, &text, &LowerOptions::default()).and_then(|p| Ok((p, load(path, &text, &checked)?))) {
                Ok(p) => p,
                Err(e) => {
                    tally.programs += 1;
                    tally
                        .skipped_programs
                        .push((path.to_string(), format!("not accepted by load: {e}")));
                    continue;
                }
            };
        let slots = p.input_slots();
        let mut rng = Rng::new(1000 + n as u64);
        let cfgs: Vec<Config> = (0..RUNS_PER_TASK)
            .map(|r| {
                let mut cfg = Config {
                    seed: Some(rng.next_u64()),
                    max_steps: MAX_STEPS,
                    ..Config::default()
                };
                if r % 2 == 1 {
                    // Small values: the interesting branches of most tasks.
                    // (Array elements stay drawn: the interpreter checks given
                    // input names in quadratic time.)
                    for s in slots.iter().filter(|s| s.index.is_none()) {
                        let (lo, hi) = (s.range.0.max(-3), s.range.1.min(6));
                        cfg.inputs.insert(s.name.clone(), rng.range(lo, hi));
                    }
                    cfg.choices = (0..300).map(|_| rng.range(-2, 6)).collect();
                }
                cfg
            })
            .collect();
        let lowered = Lowered {
            plain: &p,
            checked: &p_checked,
            compare_checked: true,
        };
        check_program(&gcc, path, &lowered, &cfgs, &mut tally);
    }
    finish("SV-COMP tasks", &tally, start);
}

#[test]
fn generated_programs_agree_with_gcc() {
    let start = Instant::now();
    let gcc = Gcc::new();
    let small = gen::GenConfig::default();
    // Every fourth program is bigger, with larger constants: some runs
    // overflow 32 bits and are skipped.
    let big = gen::GenConfig {
        constants: (-40, 90),
        loop_bound: 6,
        max_expr_depth: 4,
        max_stmts: 6,
        max_locals: 4,
        ..gen::GenConfig::default()
    };
    let mut tally = Tally::default();
    // `FOCUSCHECK_GEN_PROGRAMS=N` and `FOCUSCHECK_GEN_FIRST=S` check other
    // seeds (for longer hunts).
    let env = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let first = env("FOCUSCHECK_GEN_FIRST", 0);
    for seed in first..first + env("FOCUSCHECK_GEN_PROGRAMS", GENERATED) {
        let text = gen::program(seed, if seed % 4 == 3 { &big } else { &small });
        let mut rng = Rng::new(seed.wrapping_mul(7919) + 17);
        let opts = LowerOptions {
            globals: if seed % 3 == 2 { Some(GlobalsMode::Input) } else { None },
            ..LowerOptions::default()
        };
        let name = format!("gen{seed}.c");
        let p = load(&name, &text, &opts)
            .unwrap_or_else(|e| panic!("focuscheck::load rejects generated program {seed}:\n{e}\n{text}"));
        let checked = LowerOptions {
            overflow_checks: true,
            ..opts
        };
        let p_checked = load(&name, &text, &checked).unwrap_or_else(|e| {
            panic!("focuscheck::load rejects generated program {seed} under overflow checks:\n{e}")
        });
        let slots = p.input_slots();
        // The last run draws values near the edges of `int` half the time:
        // signed overflows, for the overflow-checked lowering.
        const EDGES: [i64; 6] = [i32::MAX as i64, i32::MIN as i64, 65536, -65536, 46341, 1 << 30];
        let cfgs: Vec<Config> = (0..RUNS_PER_GENERATED)
            .map(|r| {
                let edge = r + 1 == RUNS_PER_GENERATED;
                let value = |rng: &mut Rng| match edge && rng.chance(50) {
                    true => *rng.pick(&EDGES),
                    false => rng.range(-6, 9),
                };
                Config {
                    inputs: slots.iter().map(|s| (s.name.clone(), value(&mut rng))).collect(),
                    choices: (0..300).map(|_| value(&mut rng)).collect(),
                    seed: Some(rng.next_u64()),
                    max_steps: MAX_STEPS,
                    ..Config::default()
                }
            })
            .collect();
        let lowered = Lowered {
            plain: &p,
            checked: &p_checked,
            compare_checked: true,
        };
        check_program(&gcc, &name, &lowered, &cfgs, &mut tally);
    }
    finish("generated programs", &tally, start);
}

/// One hand-written program run once both ways.
fn verdict_of(gcc: &Gcc, text: &str, opts: &LowerOptions, inputs: &[(&str, i64)], choices: &[i64]) -> Verdict {
    let p = load("case.c", text, opts).unwrap_or_else(|e| panic!("not accepted: {e}\n{text}"));
    let checked = LowerOptions {
        overflow_checks: true,
        ..opts.clone()
    };
    let p_checked = load("case.c", text, &checked).unwrap_or_else(|e| panic!("not accepted: {e}\n{text}"));
    let c = c_version(&p).unwrap_or_else(|e| panic!("no C version: {e}"));
    let exe = gcc
        .compile("case", &c.text)
        .unwrap_or_else(|e| panic!("gcc: {e}\n{}", c.text));
    let cfg = Config {
        inputs: inputs.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
        choices: choices.to_vec(),
        max_steps: MAX_STEPS,
        ..Config::default()
    };
    let lowering = if opts.overflow_checks {
        Lowering::Checked
    } else {
        Lowering::Plain { checked: &p_checked }
    };
    compare_run(gcc, &p, lowering, &c, &exe, &cfg)
}

/// The harness itself: each C-side patch, each outcome, both reasons to
/// skip, and a known difference that must be reported.
#[test]
fn harness_handles_known_cases() {
    let gcc = Gcc::new();
    let zero = LowerOptions::default();
    let agree = |text: &str, inputs: &[(&str, i64)], choices: &[i64], want: Kind| match verdict_of(
        &gcc, text, &zero, inputs, choices,
    ) {
        Verdict::Agree(k, _) if k == want => {}
        v => panic!("expected agreement on {want:?}, got {v:?}\n{text}"),
    };
    // An entry local is an input; arrays are checked, even where gcc could
    // fold the read away.
    let bounds = "extern int __VERIFIER_nondet_int(void);\nint a[3];\n\
                  int main(void) { int i; a[i] = 1; if (a[i + 1] > 100 || 1) a[0] = 2; return 0; }\n";
    agree(bounds, &[("i", 3)], &[], Kind::Bounds);
    agree(bounds, &[("i", 2)], &[], Kind::Bounds);
    agree(bounds, &[("i", 1)], &[], Kind::Finished);
    // A `reach_error` defined as `{}` is still the error; a `__VERIFIER_assert`
    // defined in the file is the file's.
    let own_assert = "void reach_error() {}\nextern void abort(void);\nextern int __VERIFIER_nondet_int(void);\n\
                      void __VERIFIER_assert(int c) { if (!c) { ERROR: {reach_error(); abort();} } }\n\
                      int main(void) { int x = __VERIFIER_nondet_int(); __VERIFIER_assert(x != 2); return 0; }\n";
    agree(own_assert, &[], &[2], Kind::ReachError);
    agree(own_assert, &[], &[1], Kind::Finished);
    let builtin_assert =
        "extern void __VERIFIER_assert(int);\nint main(void) { int x; __VERIFIER_assert(x < 5); return 0; }\n";
    agree(builtin_assert, &[("x", 7)], &[], Kind::Assert);
    // Uninitialised locals of other procedures and falling off the end of
    // one draw choices.
    let draws = "extern int __VERIFIER_nondet_int(void);\nint g;\nint f(int p) { int l; if (p > 0) return l; }\n\
                 int main(void) { int a = f(1); int b = f(0); g = a + 10 * b; return 0; }\n";
    agree(draws, &[], &[3, 4, 5], Kind::Finished);
    // Parameters of the entry are inputs.
    let params = "extern void reach_error(void);\nint main(int argc, char *argv[]) { if (argc == 7) reach_error(); return 0; }\n";
    agree(params, &[("argc", 7)], &[], Kind::ReachError);
    // Halting keeps the globals; division by zero.
    let halt = "extern void abort(void);\nextern int __VERIFIER_nondet_int(void);\nint g;\n\
                int main(void) { int x; g = 5; if (x) abort(); g = 10 / x; return 0; }\n";
    agree(halt, &[("x", 1)], &[], Kind::Halted);
    agree(halt, &[("x", 0)], &[], Kind::DivByZero);
    // Globals as inputs.
    let inputs = LowerOptions {
        globals: Some(GlobalsMode::Input),
        ..LowerOptions::default()
    };
    let global_input = "extern void reach_error(void);\nint g;\nint h[2];\n\
                        int main(void) { if (g == 4 && h[1] == 3) reach_error(); return 0; }\n";
    match verdict_of(&gcc, global_input, &inputs, &[("g", 4), ("h[0]", 0), ("h[1]", 3)], &[]) {
        Verdict::Agree(Kind::ReachError, _) => {}
        v => panic!("expected agreement on ReachError, got {v:?}"),
    }
    // A signed 32-bit overflow in C skips the run.
    let overflow = "extern int __VERIFIER_nondet_int(void);\nint g;\n\
                    int main(void) { int x; int m; g = (x * m) % 3; return 0; }\n";
    match verdict_of(&gcc, overflow, &zero, &[("x", 65536), ("m", 65536)], &[]) {
        Verdict::Skip(why) => assert!(why.contains("overflow"), "{why}"),
        v => panic!("expected a skip, got {v:?}"),
    }
    // Under overflow checks the same run stops at the overflow in both.
    let checked = LowerOptions {
        overflow_checks: true,
        ..LowerOptions::default()
    };
    match verdict_of(&gcc, overflow, &checked, &[("x", 65536), ("m", 65536)], &[]) {
        Verdict::Agree(Kind::Overflow, _) => {}
        v => panic!("expected agreement on Overflow, got {v:?}"),
    }
    // A signed `<<` past its type: gcc's bits and the interpreter's agree
    // unless overflow is checked; then both stop at the shift.
    let shl = "extern int __VERIFIER_nondet_int(void);\nint g;\nint main(void) { int x; g = x << 31; return 0; }\n";
    match verdict_of(&gcc, shl, &zero, &[("x", 1)], &[]) {
        Verdict::Skip(why) => assert!(why.contains("overflow"), "{why}"),
        v => panic!("expected a skip, got {v:?}"),
    }
    match verdict_of(&gcc, shl, &checked, &[("x", 1)], &[]) {
        Verdict::Agree(Kind::Shift, _) => {}
        v => panic!("expected agreement on Shift, got {v:?}"),
    }
    // An overflow gcc folds at compile time is not reported by its
    // sanitizer: the run is skipped, never compared past it.
    let folded = "extern int __VERIFIER_nondet_int(void);\nint g;\nint main(void) { int x; if ((5 + 0x7fffffff) - x >= 4) g = 1; else g = 2; return 0; }\n";
    for opts in [&zero, &checked] {
        match verdict_of(&gcc, folded, opts, &[("x", 0)], &[]) {
            Verdict::Skip(why) => assert!(why.contains("overflow"), "{why}"),
            v => panic!("expected a skip, got {v:?}"),
        }
    }
    // Unsigned arithmetic and conversions wrap in both, stored or not.
    let wrap = "extern int __VERIFIER_nondet_int(void);\nunsigned int u;\nint main(void) { u = u - 1; return 0; }\n";
    match verdict_of(&gcc, wrap, &zero, &[], &[]) {
        Verdict::Agree(Kind::Finished, _) => {}
        v => panic!("expected agreement, got {v:?}"),
    }
    let unsigned = "extern int __VERIFIER_nondet_int(void);\nint g;\n\
                    int main(void) { unsigned int u = 0; if (u - 1 > 5) g = (char)200; return 0; }\n";
    match verdict_of(&gcc, unsigned, &zero, &[], &[]) {
        Verdict::Agree(Kind::Finished, _) => {}
        v => panic!("expected agreement, got {v:?}"),
    }
}
