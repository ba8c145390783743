//! Counterexamples the VC engine finds are explained from their own runs
//! (`explain::explain_run`), and each explanation is held to the run it
//! explains: every FSS has a witness that the interpreter replays to the
//! same error, its statements are a subsequence of the run's (with the
//! run's branch outcomes), its assumptions over inputs hold on the run's
//! inputs, and Reduce leaves at least one FSS with a NEST. On
//! `programs/vc/deep_bug.c`, `programs/diagnose/late_bug.c`, a loop of 5000
//! iterations where two statements matter (whose FSS must be those two,
//! quickly), a 120,000-step run whose FSS grows with it, and generated programs with loops longer than `--unroll`
//! (`FOCUSCHECK_VCX_PROGRAMS=N` checks more).

use crate::cli;
use crate::exhaust;
use crate::gen;
use crate::run_explained;

use focuscheck::analysis::{CheckOptions, CondReport};
use focuscheck::check::{check_with, Report};
use focuscheck::engines::{Engine, VcPlan};
use focuscheck::ir::{lower::LowerOptions, Program};
use focuscheck::syntax::source::SourceFile;
use run_explained::check_report;
use std::sync::Arc;
use std::time::{Duration, Instant};

const PROGRAMS: u64 = 60;

fn load(name: &str, text: &str) -> Program {
    let (p, diags) = focuscheck::load(Arc::new(SourceFile::new(name, text)), &LowerOptions::default());
    p.unwrap_or_else(|| panic!("{name}: rejected: {diags:?}\n{text}"))
}

fn options() -> CheckOptions {
    let mut o = CheckOptions::default();
    o.engine.timeout = Some(Duration::from_secs(30));
    o
}

fn vc_check(p: &Program, engine: Engine) -> Report {
    let plan = VcPlan {
        unroll: vec![1, 3],
        ..VcPlan::default()
    };
    check_with(p, &[], &options(), engine, &plan, Instant::now())
}

/// The lines of the best FSS's statements.
fn lines(report: &Report, c: &CondReport) -> Vec<u32> {
    report.explanations[&c.id].fss[0]
        .entries
        .iter()
        .map(|e| e.line)
        .collect()
}

#[test]
fn the_vc_engines_counterexamples_on_programs_are_explained_by_their_runs() {
    for file in ["programs/vc/deep_bug.c", "programs/diagnose/late_bug.c"] {
        let text = std::fs::read_to_string(file).expect(file);
        let p = load(file, &text);
        for engine in [Engine::Vc, Engine::Auto] {
            let report = vc_check(&p, engine);
            let (unsafe_vc, explained, wrong) = check_report(&p, &report);
            assert_eq!(
                unsafe_vc,
                1,
                "{file} ({}): one unsafe condition, by the VC engine",
                engine.name()
            );
            assert_eq!(explained, 1, "{file} ({}): explained", engine.name());
            assert!(wrong.is_empty(), "{file} ({}): {wrong:#?}", engine.name());
        }
    }
}

#[test]
fn a_long_run_gets_a_short_fss_quickly() {
    let text = "int main(int x) {
  int i = 0;
  int s = 0;
  while (i < 5000) {
    s = s + i;
    i++;
  }
  if (x == 42)
    assert(0);
  return s;
}
";
    let p = load("long.c", text);
    let start = Instant::now();
    let report = vc_check(&p, Engine::Vc);
    let took = start.elapsed();
    let (unsafe_vc, explained, wrong) = check_report(&p, &report);
    assert_eq!((unsafe_vc, explained), (1, 1));
    assert!(wrong.is_empty(), "{wrong:#?}");
    let c = &report.results[0];
    let run = &c.counterexample.as_ref().expect("a counterexample").run;
    assert!(
        run.trace.len() > 15_000,
        "the run goes around the loop: {} steps",
        run.trace.len()
    );
    // The loop does not matter: the test of `x` and the assertion do.
    assert_eq!(lines(&report, c), vec![8, 9]);
    assert!(took < Duration::from_secs(20), "{took:?}");
}

/// A 40,000-element fill, then an assertion that fails at the first element.
const FILL: &str = "int main(void) {
  int a[40000];
  int i = 0;
  while (i < 40000) {
    a[i] = 42;
    i++;
  }
  int x;
  for (x = 0; x < 40000; x++) {
    assert(a[x] == 43);
  }
  return 0;
}
";

/// The loop matters here: every iteration's test and index are focus, so
/// the FSS grows with the run (120,000 steps, more than the 100,000 that
/// were followed before FSSs shared their suffixes); of its writes only the
/// one of the element the assertion reads, `a[0]`.
#[test]
fn a_long_run_whose_fss_grows_with_it_is_explained() {
    let text = FILL;
    let p = load("fill.c", text);
    let report = vc_check(&p, Engine::Vc);
    let (unsafe_vc, explained, wrong) = check_report(&p, &report);
    assert_eq!((unsafe_vc, explained), (1, 1));
    assert!(wrong.is_empty(), "{wrong:#?}");
    let c = report.results.iter().find(|c| c.counterexample.is_some()).unwrap();
    let run = &c.counterexample.as_ref().unwrap().run;
    assert!(run.trace.len() > 100_000, "{} steps", run.trace.len());
    let l = lines(&report, c);
    let writes = l.iter().filter(|&&x| x == 5).count();
    assert_eq!(writes, 1, "the write of a[0] is focus, no other: {writes}");
    let steps = l.iter().filter(|&&x| x == 6).count();
    assert_eq!(steps, 40_000, "every `i++` of the fill is focus: {steps}");
    assert_eq!(l.last(), Some(&10), "{:?}", &l[l.len().saturating_sub(5)..]);
}

#[test]
fn generated_programs_with_long_loops() {
    let cfg = gen::GenConfig {
        // Loops longer than `--unroll`: bugs past the Datalog engine's
        // widening, which the VC engine finds.
        loop_bound: 14,
        bitwise: false,
        ..exhaust::small_programs()
    };
    let count = exhaust::env("FOCUSCHECK_VCX_PROGRAMS", PROGRAMS);
    let (mut unsafe_vc, mut explained, mut failures) = (0, 0, Vec::new());
    for seed in 0..count {
        let text = gen::program(seed, &cfg);
        let p = load(&format!("vcx{seed}.c"), &text);
        let report = vc_check(&p, Engine::Vc);
        let (u, e, wrong) = check_report(&p, &report);
        unsafe_vc += u;
        explained += e;
        if !wrong.is_empty() {
            failures.push(format!("seed {seed}: {wrong:#?}\n{text}"));
        }
    }
    println!("{unsafe_vc} unsafe conditions from the VC engine, {explained} explained");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(unsafe_vc >= 10, "too few bugs to test: {unsafe_vc}");
    assert!(explained * 10 >= unsafe_vc * 9, "{explained} of {unsafe_vc} explained");
}

/// When `--timeout` cuts the explanation of a run (following it, or the
/// backward rules over it), the answer depends on the machine's load: the
/// condition and the file say `truncated`, and `no_fss` names the limit.
#[test]
fn a_run_explanation_cut_by_the_clock_says_truncated() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("fill.c");
    std::fs::write(&file, FILL).expect("write");
    let f = file.to_str().expect("utf-8 path");
    // The VC engine finds the bug in well under a second; following and
    // explaining its 120,000-step run takes seconds more than is left. On
    // a loaded machine the engine itself may need more than a second: the
    // limit grows until the bug is found.
    let (doc, unsafe_cond) = [1, 2, 4]
        .iter()
        .find_map(|t| {
            let (_, out, err) = cli::focuscheck(&[
                "check",
                f,
                "--engine",
                "vc",
                "--format",
                "json",
                "--timeout",
                &t.to_string(),
            ]);
            let doc: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
            let found = doc["conditions"]
                .as_array()
                .expect("conditions")
                .iter()
                .find(|c| c["verdict"] == "unsafe")
                .cloned();
            found.map(|c| (doc, c))
        })
        .expect("the bug is found within 4 seconds");
    assert_eq!(unsafe_cond["fss"].as_array().map(Vec::len), Some(0), "{unsafe_cond}");
    let why = unsafe_cond["no_fss"].as_str().expect("no_fss");
    assert!(why.contains("--timeout"), "{why}");
    assert_eq!(unsafe_cond["truncated"], true, "{unsafe_cond}");
    assert_eq!(doc["truncated"], true, "{doc}");
}
