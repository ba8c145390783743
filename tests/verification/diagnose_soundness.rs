//! `diagnose` is never wrong on its own: on generated programs
//! (`support/gen.rs`), with nobody answering ("I don't know" to every
//! question) and the run oracle on, every condition it calls a false alarm
//! is reached by no run of a bounded-exhaustive enumeration
//! (`support/exhaust.rs`); every real bug it finds through the oracle
//! replays to the condition; and Lemma 2's real bugs fail on every run.
//! `FOCUSCHECK_DIAGNOSE_PROGRAMS=N` checks more programs.

use crate::exhaust;
use crate::gen;

use focuscheck::diagnose::{self, oracle::RunOracle, Answer, Asker, By, Question, Verdict};
use focuscheck::interp::{self, Config, Outcome};
use focuscheck::ir::lower::LowerOptions;
use focuscheck::syntax::source::SourceFile;
use focuscheck::vc::gc::CheckKey;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

const PROGRAMS: u64 = 60;

/// Nobody answers.
struct Dunno;

impl Asker for Dunno {
    fn ask(&mut self, _q: &Question) -> (Answer, By) {
        (Answer::Unknown, By::Default)
    }
}

#[test]
fn verdicts_hold_on_exhaustive_runs() {
    // Without bitwise operators: their exact encoding makes most of Z3's
    // queries here run to the 5 s limit (a diagnosis ends "I don't know",
    // which tests nothing), and the suite's time with them.
    let cfg = gen::GenConfig {
        bitwise: false,
        ..exhaust::small_programs()
    };
    let dom = exhaust::Domain::default();
    let count = exhaust::env("FOCUSCHECK_DIAGNOSE_PROGRAMS", PROGRAMS);
    let opts = diagnose::Options {
        timeout: Duration::from_secs(5),
        max_queries: 3,
        exact_budget: 16,
        ..diagnose::Options::default()
    };
    let mut failures = Vec::new();
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    for seed in 0..count {
        let text = gen::program(seed, &cfg);
        let name = format!("diag{seed}.c");
        let (p, diags) = focuscheck::load(Arc::new(SourceFile::new(&name, &text)), &LowerOptions::default());
        let p = p.unwrap_or_else(|| panic!("seed {seed}: generated program rejected: {diags:?}\n{text}"));
        let Ok(prep) = diagnose::prepare(&p, &[], &opts) else {
            continue;
        };
        // What the runs do: the sites they fail at, and whether all fail
        // at one site.
        let mut failing: BTreeSet<_> = BTreeSet::new();
        let mut ends: BTreeMap<Option<_>, usize> = BTreeMap::new();
        let e = exhaust::enumerate(&p, &dom, |_, run| {
            let site = exhaust::error_site(run);
            failing.extend(site);
            *ends.entry(site).or_default() += 1;
        });
        let keys: BTreeSet<CheckKey> = prep
            .gc
            .checks
            .iter()
            .map(|c| c.key)
            .filter(|k| matches!(k, CheckKey::Site(s) if !p.site(*s).static_ok))
            .collect();
        for key in keys {
            let CheckKey::Site(site) = key else { continue };
            let mut oracle = RunOracle::new(&p, &prep.a, key, &[]);
            let d = diagnose::diagnose(&p, &prep, key, &mut Dunno, Some(&mut oracle), &opts);
            let mut fail = |what: String| {
                failures.push(format!(
                    "seed {seed}: {} at {}: {what} ({})\n{text}",
                    p.site(site).kind.json_name(),
                    p.location(p.site(site).span),
                    d.reason
                ))
            };
            match d.verdict {
                Verdict::FalseAlarm => {
                    *tally.entry("false alarm".into()).or_default() += 1;
                    if failing.contains(&site) {
                        fail("called a false alarm, but a run fails there".into());
                    }
                }
                Verdict::RealBug if d.run.is_some() => {
                    *tally.entry("real bug (oracle)".into()).or_default() += 1;
                    let ev = d.run.as_ref().unwrap();
                    let run = interp::run(
                        &p,
                        &Config {
                            inputs: ev.inputs.iter().cloned().collect(),
                            choices: ev.choices.clone(),
                            ..Config::default()
                        },
                    );
                    if !matches!(&run, Ok(r) if matches!(r.outcome, Outcome::Error { site: s, .. } if s == site)) {
                        fail(format!(
                            "the oracle's run does not fail there: {:?}",
                            run.map(|r| r.outcome)
                        ));
                    }
                }
                Verdict::RealBug => {
                    *tally.entry("real bug (Lemma 2)".into()).or_default() += 1;
                    // Every run fails there (those the enumeration made).
                    if e.runs > 0 && ends.keys().any(|s| *s != Some(site)) {
                        fail(format!("Lemma 2, but runs end otherwise: {ends:?}"));
                    }
                }
                Verdict::Unresolved => *tally.entry("unresolved".into()).or_default() += 1,
            }
            *tally.entry("questions".into()).or_default() += d.queries.len();
        }
    }
    println!("diagnose on {count} generated programs: {tally:?}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    let at_least = |k: &str, n: usize| {
        assert!(tally.get(k).copied().unwrap_or(0) >= n, "too few `{k}`: {tally:?}");
    };
    at_least("false alarm", 10);
    at_least("real bug (oracle)", 3);
}
