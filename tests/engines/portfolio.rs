//! `check`'s default engine (`auto`) as a portfolio: an exploration that
//! outgrows its first share of states (`check::PROBE_STATES`) hands over to
//! the VC engine, which decides shallow bugs in large state spaces at once.
//! On generated lock-style programs (SV-COMP's `locks/` shape: up to 15
//! lock flags, some with a planted bug): the verdict is right, nothing is
//! cut short, the work stays within the first share of states once the
//! flags are many, and every bug is explained from its counterexample's
//! run (the FSS replays, is a subsequence of the run, its assumptions hold
//! on the run's inputs, and points at the planted fault).

use crate::run_explained;

use focuscheck::analysis::{CheckOptions, Verdict};
use focuscheck::check::{check_with, PROBE_STATES};
use focuscheck::engines::{Engine, VcPlan};
use focuscheck::ir::lower::LowerOptions;
use focuscheck::ir::SiteKind;
use focuscheck::syntax::source::SourceFile;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A planted fault in one flag's code, or none.
#[derive(Clone, Copy, Debug)]
enum Fault {
    None,
    /// The lock is taken only for a positive flag (`p > 0`, not `p != 0`).
    LocksPositiveOnly,
    /// The lock is not taken for one value of the flag.
    SkipsValue(i32),
    /// The unlock phase checks another flag's lock.
    ChecksOther,
}

/// A lock-style program with `n` flags and `fault` at flag `k`; also the
/// line of the fault (0 for none).
fn locks(n: usize, k: usize, fault: Fault) -> (String, u32) {
    let mut lines: Vec<String> = vec![
        "extern void reach_error(void);".into(),
        "extern int __VERIFIER_nondet_int(void);".into(),
        "int main(void) {".into(),
    ];
    for i in 1..=n {
        lines.push(format!("  int p{i} = __VERIFIER_nondet_int();"));
        lines.push(format!("  int lk{i};"));
    }
    lines.push("  int cond;".into());
    lines.push("  while (1) {".into());
    lines.push("    cond = __VERIFIER_nondet_int();".into());
    lines.push("    if (cond == 0) goto out;".into());
    for i in 1..=n {
        lines.push(format!("    lk{i} = 0;"));
    }
    let mut at = 0;
    for i in 1..=n {
        let test = match fault {
            Fault::LocksPositiveOnly if i == k => format!("p{i} > 0"),
            Fault::SkipsValue(v) if i == k => format!("p{i} != 0 && p{i} != {v}"),
            _ => format!("p{i} != 0"),
        };
        if i == k && !matches!(fault, Fault::None | Fault::ChecksOther) {
            at = lines.len() as u32 + 1;
        }
        lines.push(format!("    if ({test}) lk{i} = 1;"));
    }
    for i in 1..=n {
        let lock = match fault {
            Fault::ChecksOther if i == k => {
                at = lines.len() as u32 + 1;
                k % n + 1
            }
            _ => i,
        };
        lines.push(format!(
            "    if (p{i} != 0) {{ if (lk{lock} != 1) goto ERROR; lk{lock} = 0; }}"
        ));
    }
    lines.push("  }".into());
    lines.push("out:".into());
    lines.push("  return 0;".into());
    lines.push("ERROR:".into());
    lines.push("  reach_error();".into());
    lines.push("  return 0;".into());
    lines.push("}".into());
    (lines.join("\n") + "\n", at)
}

#[test]
fn large_lock_programs_are_handed_over_and_their_bugs_explained() {
    let cases = [
        (8, 3, Fault::None),
        (8, 5, Fault::LocksPositiveOnly),
        (12, 7, Fault::SkipsValue(7)),
        (14, 2, Fault::None),
        (14, 9, Fault::ChecksOther),
        (15, 15, Fault::LocksPositiveOnly),
        (15, 4, Fault::SkipsValue(-3)),
    ];
    let mut failures = Vec::new();
    for (n, k, fault) in cases {
        let (text, fault_line) = locks(n, k, fault);
        let name = format!("locks_{n}_{k}_{fault:?}.c");
        let (p, diags) = focuscheck::load(Arc::new(SourceFile::new(&name, &text)), &LowerOptions::default());
        let p = p.unwrap_or_else(|| panic!("{name}: rejected: {diags:?}\n{text}"));
        let mut opts = CheckOptions::default();
        // A guard far away: nothing here may come near it.
        opts.engine.timeout = Some(Duration::from_secs(600));
        let start = Instant::now();
        let report = check_with(&p, &[], &opts, Engine::Auto, &VcPlan::default(), start);
        let mut wrong = Vec::new();
        if report.budget_hit.is_some() || report.results.iter().any(|r| r.truncated || r.clock_cut) {
            wrong.push(format!("cut short: {:?}", report.budget_hit));
        }
        let expected = if matches!(fault, Fault::None) {
            Verdict::Safe
        } else {
            Verdict::Unsafe
        };
        let verdicts: Vec<Verdict> = report.results.iter().map(|r| r.verdict).collect();
        if !verdicts.contains(&expected) || verdicts.iter().any(|v| *v != expected && *v != Verdict::Safe) {
            wrong.push(format!("verdicts {verdicts:?}, expected {expected:?}"));
        }
        if n >= 12 && report.states as u64 > PROBE_STATES {
            wrong.push(format!("{} states: not handed over", report.states));
        }
        for r in report.results.iter().filter(|r| r.verdict == Verdict::Unsafe) {
            let Some(ex) = report.explanations.get(&r.id).filter(|e| !e.fss.is_empty()) else {
                wrong.push("an unsafe condition without an FSS".into());
                continue;
            };
            let at_fault = ex.fss.iter().any(|f| f.entries.iter().any(|e| e.line == fault_line));
            if !at_fault {
                let fss: Vec<Vec<u32>> = ex
                    .fss
                    .iter()
                    .map(|f| f.entries.iter().map(|e| e.line).collect())
                    .collect();
                wrong.push(format!("no FSS has the fault's line {fault_line}: {fss:?}"));
            }
        }
        let (_, _, not_true) = run_explained::check_report(&p, &report);
        wrong.extend(not_true);
        println!(
            "{name}: {verdicts:?}, {} states, {:.1} s",
            report.states,
            start.elapsed().as_secs_f64()
        );
        if !wrong.is_empty() {
            failures.push(format!("{name}: {wrong:#?}\n{text}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A set kept in an array of `n` elements, filled from `n` inputs; with
/// `fault`, the membership test answers "absent" when it finds the value,
/// so equal inputs are inserted twice and the duplicate check fails.
fn set_program(n: usize, fault: bool) -> String {
    let found = if fault { 0 } else { 1 };
    format!(
        "extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int contains(int set[], int size, int value) {{
  for (int i = 0; i < size; i++)
    if (set[i] == value)
      return {found};
  return 0;
}}
int main(void) {{
  int set[{n}];
  int n = 0;
  for (int v = 0; v < {n}; v++) {{
    int x = __VERIFIER_nondet_int();
    if (!contains(set, n, x))
      set[n++] = x;
  }}
  for (int i = 0; i + 1 < n; i++)
    if (set[i] == set[i + 1])
      reach_error();
  return 0;
}}
"
    )
}

/// Errors behind thousands of loop iterations, past any unrolling and
/// where the Datalog engine widens: `auto`'s sampled runs find them, each
/// run is a counterexample the interpreter replays to the error, and the
/// shorter runs are explained with FSSs that replay and hold the fault's
/// line. No sampled run makes the correct version unsafe.
#[test]
fn sampled_runs_find_errors_behind_long_loops() {
    let mut failures = Vec::new();
    // (size, fault, explained): the longest run only for its verdict.
    for (n, fault, explain) in [(300, true, true), (300, false, true), (3000, true, false)] {
        let text = set_program(n, fault);
        let name = format!("set_{n}_{fault}.c");
        let (p, diags) = focuscheck::load(Arc::new(SourceFile::new(&name, &text)), &LowerOptions::default());
        let p = p.unwrap_or_else(|| panic!("{name}: rejected: {diags:?}\n{text}"));
        let mut opts = CheckOptions::default();
        // A guard only; the runs are counted in steps.
        opts.engine.timeout = Some(Duration::from_secs(300));
        opts.engine.max_states = 2_000;
        opts.explain = explain;
        let report = check_with(&p, &[], &opts, Engine::Auto, &VcPlan::default(), Instant::now());
        let error = report
            .results
            .iter()
            .find(|r| {
                report
                    .condition(r)
                    .site()
                    .is_some_and(|s| p.site(s).kind == SiteKind::ReachError)
            })
            .expect("the reach_error condition");
        let mut wrong = Vec::new();
        for r in &report.results {
            if r.verdict == Verdict::Unsafe && (!fault || r.id != error.id) {
                wrong.push(format!("{:?} unsafe ({}): {}", r.id, r.engine, r.reason));
            }
        }
        if fault {
            match (&error.verdict, error.engine, &error.counterexample) {
                (Verdict::Unsafe, "runs", Some(cx)) => {
                    let replay = focuscheck::interp::run(
                        &p,
                        &focuscheck::interp::Config {
                            inputs: cx.inputs.iter().cloned().collect(),
                            choices: cx.choices.clone(),
                            ..Default::default()
                        },
                    );
                    if !matches!(replay.map(|r| r.outcome), Ok(focuscheck::interp::Outcome::Error { .. })) {
                        wrong.push("the sampled run does not replay to the error".into());
                    }
                }
                _ => wrong.push(format!(
                    "reach_error: {:?} by {}: {}",
                    error.verdict, error.engine, error.reason
                )),
            }
            match report.explanations.get(&error.id).filter(|e| !e.fss.is_empty()) {
                None if explain => wrong.push(format!("not explained: {:?}", report.no_fss(error))),
                // The fault: `return 0` where the value is found (line 6).
                Some(e) if !e.fss.iter().any(|f| f.entries.iter().any(|x| x.line == 6)) => {
                    wrong.push("no FSS holds the fault's line 6".into())
                }
                _ => {}
            }
        }
        if explain {
            let (_, _, not_true) = run_explained::check_report(&p, &report);
            wrong.extend(not_true);
        }
        if !wrong.is_empty() {
            failures.push(format!("{name}: {wrong:#?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
