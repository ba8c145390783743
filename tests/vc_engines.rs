//! The two engines check each other on generated programs
//! (`support/gen.rs`): whenever the Datalog engine (`check`) and the VC
//! engine (`verify`) both decide an error condition, they agree; every
//! warning the VC engine calls confirmed replays, independently, to its
//! error; and every condition the VC engine calls safe is reached by no
//! run of a bounded-exhaustive enumeration (`support/exhaust.rs`).
//!
//! The VC engine runs with `--loops havoc` (Houdini invariants: sound) and
//! `--loops unroll:2` (verified only when no run reaches the bound) in
//! turn. `FOCUSCHECK_VC_PROGRAMS=N` checks more programs.

#[path = "support/exhaust.rs"]
mod exhaust;
#[path = "support/gen.rs"]
mod gen;

use focuscheck::analysis::Verdict;
use focuscheck::interp::{self, Config, Outcome};
use focuscheck::ir::lower::LowerOptions;
use focuscheck::syntax::source::SourceFile;
use focuscheck::vc::{self, gc::CheckKey, Loops, Status};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

const PROGRAMS: u64 = 150;

#[test]
fn engines_agree_and_vc_verdicts_hold() {
    let cfg = exhaust::small_programs();
    let dom = exhaust::Domain::default();
    let count = exhaust::env("FOCUSCHECK_VC_PROGRAMS", PROGRAMS);
    let mut failures = Vec::new();
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    for seed in 0..count {
        let text = gen::program(seed, &cfg);
        let name = format!("vc{seed}.c");
        let (p, diags) = focuscheck::load(Arc::new(SourceFile::new(&name, &text)), &LowerOptions::default());
        let p = p.unwrap_or_else(|| panic!("seed {seed}: generated program rejected: {diags:?}\n{text}"));
        let (copts, _) = exhaust::check_options(0, Duration::from_secs(10));
        let report = focuscheck::check::check(&p, &[], &copts);
        let opts = vc::Options {
            loops: if seed % 2 == 0 { Loops::Havoc } else { Loops::Unroll(2) },
            timeout: Some(Duration::from_secs(10)),
            max_warnings: 50,
            ..vc::Options::default()
        };
        let r = vc::verify(&p, &[], &[], &opts);
        *tally.entry(r.outcome.name()).or_default() += 1;
        let mut fail = |what: String| failures.push(format!("seed {seed} ({:?}): {what}\n{text}", opts.loops));

        // Confirmed warnings replay to their error.
        for w in &r.warnings {
            let CheckKey::Site(site) = w.key else { continue };
            if w.status != Status::Confirmed {
                *tally.entry("possible warnings").or_default() += 1;
                continue;
            }
            *tally.entry("confirmed warnings").or_default() += 1;
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
        for c in &report.results {
            let Some(site) = report.condition(c).site() else {
                continue;
            };
            let fsum = match c.verdict {
                Verdict::Safe => Some(false),
                Verdict::Unsafe => Some(true),
                Verdict::Unknown => None,
            };
            let vcv = r.decides(CheckKey::Site(site));
            if let (Some(a), Some(b)) = (fsum, vcv) {
                *tally.entry("both decide").or_default() += 1;
                if a != b {
                    fail(format!(
                        "{} at {}: check says {}, verify says {}",
                        report.condition(c).describe(&p),
                        p.location(p.site(site).span),
                        if a { "unsafe" } else { "safe" },
                        if b { "unsafe" } else { "safe" },
                    ));
                }
            }
        }

        // Verified: no enumerated run reaches a reported error.
        if r.outcome == vc::Outcome::Verified {
            exhaust::enumerate(&p, &dom, |cfg, run| {
                if let Outcome::Error { site, .. } = run.outcome {
                    if vc::reported(&p, CheckKey::Site(site), vc::Property::All) {
                        fail(format!(
                            "verified, but inputs {:?} choices {:?} reach {}",
                            cfg.inputs,
                            cfg.choices,
                            p.location(p.site(site).span)
                        ));
                    }
                }
            });
        }
    }
    println!("vc engine on {count} generated programs: {tally:?}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        tally.get("verified").copied().unwrap_or(0) >= 10,
        "too few verified: {tally:?}"
    );
    assert!(
        tally.get("confirmed warnings").copied().unwrap_or(0) >= 10,
        "too few confirmed: {tally:?}"
    );
    assert!(
        tally.get("both decide").copied().unwrap_or(0) >= 20,
        "too few decided by both: {tally:?}"
    );
}
