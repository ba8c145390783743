//! Loops that fill or copy an array and a later loop that checks it (the
//! shape of SV-COMP's `array-examples` and `array-industry-pattern`): the
//! VC engine's `--loops havoc` proves the correct ones with a quantified
//! invariant over the elements the first loop has passed
//! (`vc/candidates/arrays.rs`), and no safe verdict of any engine is
//! contradicted by the interpreter's bounded-exhaustive runs of the same
//! program (`support/exhaust.rs`). Programs are generated: up or down
//! counters, a constant, an input, the counter or another array as the
//! value, an early `break` on an input, and faults (a check past the
//! filled range, a wrong expected value, a guard that lets the broken-off
//! runs through). `FOCUSCHECK_ARRAY_PROGRAMS=N` checks more.

use crate::exhaust;
use crate::gen;

use focuscheck::analysis::Verdict;
use focuscheck::check::check_with;
use focuscheck::engines::{Engine, VcPlan};
use focuscheck::interp::Outcome;
use focuscheck::ir::SiteId;
use focuscheck::ir::{lower::LowerOptions, Program};
use focuscheck::syntax::source::SourceFile;
use focuscheck::vc::{self, Loops};
use gen::Rng;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

const PROGRAMS: u64 = 60;

/// A generated program and whether it is correct by construction.
struct Case {
    text: String,
    correct: bool,
}

fn case(seed: u64) -> Case {
    let mut r = Rng::new(seed);
    let n: i64 = r.range(3, 5);
    let (lo, hi) = (r.range(0, 1), n);
    let down = r.chance(30);
    let brk = r.chance(40);
    // Inputs are drawn from -1..=1 by the enumeration: `c > k` both ways.
    let k = r.range(-1, 0);
    // The value written at `a[i]`, and the expected value at `a[x]`.
    let (value, expect) = match r.below(5) {
        0 => {
            let c = r.range(1, 9);
            (format!("{c}"), format!("{c}"))
        }
        1 => ("v".to_string(), "v".to_string()),
        2 => ("i".to_string(), "x".to_string()),
        3 => ("b[i]".to_string(), "b[x]".to_string()),
        _ => ("b[i] + v".to_string(), "b[x] + v".to_string()),
    };
    let fault = if r.chance(50) { r.below(3) + 1 } else { 0 };
    let (mut clo, mut chi) = (lo, hi);
    let mut expect = expect;
    let mut guard = format!("c <= {k}");
    match fault {
        1 if lo > 0 => clo = lo - 1,
        1 => chi = hi + 1,
        2 => expect = format!("{expect} + 1"),
        3 if brk => guard = format!("c <= {}", k + 1),
        _ => {}
    }
    let correct = (clo, chi, guard == format!("c <= {k}")) == (lo, hi, true) && !expect.ends_with("+ 1");
    let fill = if down {
        format!("for (i = {} - 1; i >= {lo}; i--) {{", hi)
    } else {
        format!("for (i = {lo}; i < {hi}; i++) {{")
    };
    let stop = if brk {
        format!("    if (c > {k}) break;\n")
    } else {
        String::new()
    };
    // A down-counting fill with a break leaves the low end unfilled: the
    // check then covers what was filled only when nothing broke off.
    let check = if brk {
        format!("    if ({guard} && a[x] != {expect}) reach_error();\n")
    } else {
        format!("    if (a[x] != {expect}) reach_error();\n")
    };
    let size = n + 1;
    let text = format!(
        "extern int __VERIFIER_nondet_int(void);\n\
         void reach_error(void);\n\
         int a[{size}];\n\
         int b[{size}];\n\
         int main() {{\n\
         \x20 int c = __VERIFIER_nondet_int();\n\
         \x20 int v = __VERIFIER_nondet_int();\n\
         \x20 int i = 0;\n\
         \x20 for (i = 0; i < {size}; i++) {{\n\
         \x20   b[i] = __VERIFIER_nondet_int();\n\
         \x20 }}\n\
         \x20 {fill}\n\
         {stop}\
         \x20   a[i] = {value};\n\
         \x20 }}\n\
         \x20 int x = 0;\n\
         \x20 for (x = {clo}; x < {chi}; x++) {{\n\
         {check}\
         \x20 }}\n\
         \x20 return 0;\n\
         }}\n"
    );
    Case { text, correct }
}

#[test]
fn filled_arrays_are_proved_and_never_wrongly() {
    let count = exhaust::env("FOCUSCHECK_ARRAY_PROGRAMS", PROGRAMS);
    let dom = exhaust::Domain {
        choice_values: (-1, 1),
        max_choice_runs: 10_000,
        max_runs: 10_000,
        ..exhaust::Domain::default()
    };
    let mut failures = Vec::new();
    let (mut correct, mut proved, mut reached) = (0, 0, 0);
    for seed in 0..count {
        let Case { text, correct: ok } = case(seed);
        let (p, diags) = focuscheck::load(
            Arc::new(SourceFile::new(format!("arr{seed}.c"), &text)),
            &LowerOptions::default(),
        );
        let p: Program = p.unwrap_or_else(|| panic!("seed {seed}: rejected: {diags:?}\n{text}"));
        let mut fail = |what: String| failures.push(format!("seed {seed}: {what}\n{text}"));
        // The first run reaching each error site.
        let mut runs: BTreeMap<SiteId, String> = BTreeMap::new();
        let e = exhaust::enumerate(&p, &dom, |cfg, run| {
            if let Outcome::Error { site, .. } = run.outcome {
                runs.entry(site).or_insert_with(|| format!("choices {:?}", cfg.choices));
            }
        });
        let reaches = runs.values().next().cloned();
        assert!(!e.capped, "seed {seed}: the enumeration was capped: {e:?}");
        if ok && reaches.is_some() {
            fail(format!("a correct program's run reaches the error: {reaches:?}"));
        }
        reached += reaches.is_some() as u32;

        // `--loops havoc` cannot unroll: a proof needs the invariants.
        let opts = vc::Options {
            loops: Loops::Havoc,
            timeout: Some(Duration::from_secs(20)),
            ..vc::Options::default()
        };
        let r = vc::verify(&p, &[], &[], &opts);
        let verified = r.outcome == vc::Outcome::Verified;
        if ok {
            correct += 1;
            proved += verified as u32;
            if !verified {
                fail(format!("`--loops havoc` does not prove it: {}", r.reason));
            }
        }
        if verified {
            if let Some(run) = &reaches {
                fail(format!("`--loops havoc` proves it, but {run} reach the error"));
            }
        }

        for engine in [Engine::Auto, Engine::Vc] {
            let (copts, _) = exhaust::check_options(seed, Duration::from_secs(20));
            let report = check_with(&p, &[], &copts, engine, &VcPlan::default(), std::time::Instant::now());
            for c in &report.results {
                let Some(site) = report.condition(c).site() else {
                    continue;
                };
                if c.verdict == Verdict::Safe {
                    if let Some(run) = runs.get(&site) {
                        fail(format!(
                            "check --engine {} calls it safe, but {run} reach it",
                            engine.name()
                        ));
                    }
                }
            }
        }
    }
    eprintln!("{count} programs: {correct} correct, {proved} proved by havoc; {reached} reach the error");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(
        reached > 0 && correct > 0,
        "the generator made only one kind of program"
    );
}
