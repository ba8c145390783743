//! The two engines check each other on generated programs
//! (`support/gen.rs`): whenever the Datalog engine (`check`) and the VC
//! engine (`verify`) both decide an error condition, they agree; every
//! warning the VC engine calls confirmed replays, independently, to its
//! error; and every check the VC engine calls safe is reached by no run of
//! a bounded-exhaustive enumeration (`support/exhaust.rs`).
//!
//! The VC engine runs with `--loops havoc` (Houdini invariants: sound),
//! `--loops unroll:2` (safe only when no run reaches the bound) and
//! `--loops kinduction:2` in turn. `check --engine auto` and `--engine vc`
//! are held to the same standard: their verdicts agree with the Datalog
//! engine's, their counterexamples replay, their safe conditions are never
//! reached. `FOCUSCHECK_VC_PROGRAMS=N` checks more programs.
//!
//! The same again with overflow checks (`--property no-overflow`: signed
//! arithmetic and `<<`), on `FOCUSCHECK_VC_OVERFLOW_PROGRAMS` programs.

use crate::exhaust;
use crate::gen;

use focuscheck::analysis::Verdict;
use focuscheck::check::{check_with, Report};
use focuscheck::engines::{Engine, VcPlan};
use focuscheck::interp::{self, Config, Outcome};
use focuscheck::ir::{lower::LowerOptions, Program, SiteId, SiteKind};
use focuscheck::syntax::source::SourceFile;
use focuscheck::vc::{self, gc::CheckKey, Loops, Status};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

// The defaults keep the group's run short on CI's 2 cores (the longest
// tests of the suite); the variables below run more.
const PROGRAMS: u64 = 60;
const OVERFLOW_PROGRAMS: u64 = 22;

/// The sites some enumerated run reaches (the first error of each run).
fn reached_sites(p: &Program, dom: &exhaust::Domain) -> BTreeMap<SiteId, String> {
    let mut out = BTreeMap::new();
    exhaust::enumerate(p, dom, |cfg, run| {
        if let Outcome::Error { site, .. } = run.outcome {
            out.entry(site)
                .or_insert_with(|| format!("inputs {:?} choices {:?}", cfg.inputs, cfg.choices));
        }
    });
    out
}

/// The Datalog engine's verdict per site: `Some(true)` unsafe.
fn fsum_verdicts(report: &Report) -> BTreeMap<SiteId, Option<bool>> {
    report
        .results
        .iter()
        .filter_map(|c| {
            let site = report.condition(c).site()?;
            let v = match c.verdict {
                Verdict::Safe => Some(false),
                Verdict::Unsafe => Some(true),
                Verdict::Unknown => None,
            };
            Some((site, v))
        })
        .collect()
}

/// Checks `count` generated programs lowered with `lower`; returns the
/// failures and a tally of what was checked.
fn check_programs(count: u64, lower: &LowerOptions) -> (Vec<String>, BTreeMap<String, usize>) {
    let cfg = exhaust::small_programs();
    let dom = exhaust::Domain::default();
    let mut failures = Vec::new();
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    let mut count_as = |what: &str| *tally.entry(what.to_string()).or_default() += 1;
    for seed in 0..count {
        let text = gen::program(seed, &cfg);
        let name = format!("vc{seed}.c");
        let (p, diags) = focuscheck::load(Arc::new(SourceFile::new(&name, &text)), lower);
        let p = p.unwrap_or_else(|| panic!("seed {seed}: generated program rejected: {diags:?}\n{text}"));
        let (copts, _) = exhaust::check_options(0, Duration::from_secs(10));
        let report = focuscheck::check::check(&p, &[], &copts);
        let fsum = fsum_verdicts(&report);
        let loops = match seed % 3 {
            0 => Loops::Havoc,
            1 => Loops::Unroll(2),
            _ => Loops::KInduction(2),
        };
        let opts = vc::Options {
            loops,
            timeout: Some(Duration::from_secs(10)),
            max_warnings: 50,
            ..vc::Options::default()
        };
        let r = vc::verify(&p, &[], &[], &opts);
        count_as(&format!("{loops}: {}", r.outcome.name()));
        let mut fail = |what: String| failures.push(format!("seed {seed} ({loops}): {what}\n{text}"));

        // Confirmed warnings replay to their error.
        for w in &r.warnings {
            let CheckKey::Site(site) = w.key else { continue };
            if w.status != Status::Confirmed {
                count_as("possible warnings");
                continue;
            }
            count_as("confirmed warnings");
            if matches!(p.site(site).kind, SiteKind::Overflow | SiteKind::Shift) {
                count_as("confirmed overflow or shift warnings");
            }
            let run = interp::run(
                &p,
                &Config {
                    inputs: w.inputs.iter().cloned().collect(),
                    choices: w.choices.clone(),
                    ..Config::default()
                },
            );
            match run {
                Ok(run) if matches!(run.outcome, Outcome::Error { site: s, .. } if s == site) => {}
                other => fail(format!(
                    "confirmed warning `{}` does not replay: {:?}",
                    w.message,
                    other.map(|r| r.outcome)
                )),
            }
        }

        // Both decide: they agree.
        for (&site, &f) in &fsum {
            if let (Some(a), Some(b)) = (f, r.decides(CheckKey::Site(site))) {
                count_as("both decide");
                if a != b {
                    fail(format!(
                        "{}: check says {}, verify says {}",
                        p.location(p.site(site).span),
                        if a { "unsafe" } else { "safe" },
                        if b { "unsafe" } else { "safe" },
                    ));
                }
            }
        }

        // What the VC engine calls safe, no enumerated run reaches.
        let reached = reached_sites(&p, &dom);
        for (i, site) in p.sites.iter().enumerate() {
            let key = CheckKey::Site(SiteId(i as u32));
            if site.static_ok || r.decides(key) != Some(false) {
                continue;
            }
            count_as("vc safe checks");
            if matches!(site.kind, SiteKind::Overflow | SiteKind::Shift) {
                count_as("vc safe overflow or shift checks");
            }
            if let Some(run) = reached.get(&SiteId(i as u32)) {
                fail(format!(
                    "verify calls {} safe, but {run} reach it",
                    p.location(site.span)
                ));
            }
        }

        // `check --engine auto` (and `vc` on every third program): the same
        // standard for the combined verdicts.
        let engines: &[Engine] = if seed % 3 == 0 {
            &[Engine::Auto, Engine::Vc]
        } else {
            &[Engine::Auto]
        };
        for &engine in engines {
            let plan = VcPlan {
                unroll: vec![1, 3],
                ..VcPlan::default()
            };
            let combined = check_with(&p, &[], &copts, engine, &plan, std::time::Instant::now());
            for c in &combined.results {
                let Some(site) = combined.condition(c).site() else {
                    continue;
                };
                let by = format!("{} ({})", engine.name(), c.engine);
                if c.engine == "vc" && c.verdict != Verdict::Unknown {
                    count_as(&format!("{} decided by vc", engine.name()));
                }
                match c.verdict {
                    Verdict::Safe => {
                        if let Some(run) = reached.get(&site) {
                            fail(format!(
                                "{by} calls {} safe, but {run} reach it",
                                p.location(p.site(site).span)
                            ));
                        }
                    }
                    Verdict::Unsafe => {
                        let cx = c.counterexample.as_ref();
                        let replays = cx.is_some_and(|cx| {
                            let run = interp::run(
                                &p,
                                &Config {
                                    inputs: cx.inputs.iter().cloned().collect(),
                                    choices: cx.choices.clone(),
                                    ..Config::default()
                                },
                            );
                            matches!(run, Ok(r) if matches!(r.outcome, Outcome::Error { site: s, .. } if s == site))
                        });
                        // An FSS witness may confirm it instead.
                        let witnessed = combined
                            .explanations
                            .get(&c.id)
                            .is_some_and(|e| e.fss.iter().any(|f| f.witness.is_some()));
                        if !replays && !witnessed {
                            fail(format!(
                                "{by}: unsafe {} without a replaying counterexample",
                                p.location(p.site(site).span)
                            ));
                        }
                    }
                    Verdict::Unknown => {}
                }
                if let (Some(Some(a)), true) = (fsum.get(&site), c.verdict != Verdict::Unknown) {
                    if *a != (c.verdict == Verdict::Unsafe) {
                        fail(format!(
                            "{by} says {} at {}, the Datalog engine the opposite",
                            c.verdict.name(),
                            p.location(p.site(site).span)
                        ));
                    }
                }
            }
        }
    }
    (failures, tally)
}

/// No failures, and at least `n` of each kind of check asked for.
fn assert_held(what: &str, failures: &[String], tally: &BTreeMap<String, usize>, wanted: &[(&str, usize)]) {
    println!("{what}: {tally:?}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    for &(kind, n) in wanted {
        let got: usize = tally.iter().filter(|(k, _)| k.contains(kind)).map(|(_, v)| v).sum();
        assert!(got >= n, "too few `{kind}`: {tally:?}");
    }
}

#[test]
fn engines_agree_and_vc_verdicts_hold() {
    let count = exhaust::env("FOCUSCHECK_VC_PROGRAMS", PROGRAMS);
    let (failures, tally) = check_programs(count, &LowerOptions::default());
    let what = format!("vc engine on {count} generated programs");
    assert_held(
        &what,
        &failures,
        &tally,
        &[
            ("havoc: verified", 5),
            ("kinduction:2: verified", 5),
            ("confirmed warnings", 10),
            ("both decide", 20),
            ("vc safe checks", 20),
        ],
    );
}

/// The same under `--property no-overflow`: signed arithmetic and `<<` are
/// checked (the bits of a value whose range was only assumed after its
/// own overflow check once made such a check wrongly safe).
#[test]
fn no_overflow_verdicts_hold() {
    let count = exhaust::env("FOCUSCHECK_VC_OVERFLOW_PROGRAMS", OVERFLOW_PROGRAMS);
    let lower = LowerOptions {
        overflow_checks: true,
        ..LowerOptions::default()
    };
    let (failures, tally) = check_programs(count, &lower);
    let what = format!("vc engine on {count} generated programs, overflow checked");
    assert_held(
        &what,
        &failures,
        &tally,
        &[
            ("confirmed overflow or shift warnings", 2),
            ("vc safe overflow or shift checks", 20),
            ("both decide", 20),
        ],
    );
}
