//! The contract engine against the other two (seed 002, issue 13):
//! - a VC that fails on a path without loops or calls of contracts has a
//!   counterexample that replays, in the interpreter, to a violation of
//!   the same check (contracts made into checks, `instrument`);
//! - a check whose every VC is proved is violated by no run of a
//!   bounded-exhaustive enumeration (`support/exhaust.rs`);
//! - `check` (the Datalog engine, contracts as error conditions) and
//!   `verify` agree whenever both decide: `check` never confirms a
//!   violation of a check `verify` proved, and every violation `check`
//!   confirms leaves some VC of that check not proved.
//!
//! On the programs of `programs/contracts/` and on generated ones
//! (`support/contract_gen.rs`; `FOCUSCHECK_CONTRACT_PROGRAMS=N` for more).

use crate::contract_gen;
use crate::exhaust;

use focuscheck::analysis::Verdict;
use focuscheck::interp::Outcome;
use focuscheck::ir::contract::instrument::{self, Sites};
use focuscheck::ir::lower::LowerOptions;
use focuscheck::ir::{Program, SiteId};
use focuscheck::syntax::source::SourceFile;
use focuscheck::vc::contract::{self as vcc, FnVcs, VcStatus};
use focuscheck::vc::gc::{CheckKey, SpecCheck};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

const PROGRAMS: u64 = 40;

fn load(name: &str, text: &str) -> Program {
    let (p, diags) = focuscheck::load(Arc::new(SourceFile::new(name, text)), &LowerOptions::default());
    p.unwrap_or_else(|| panic!("{name}: rejected: {diags:?}\n{text}"))
}

fn options() -> focuscheck::vc::Options {
    focuscheck::vc::Options {
        timeout: Some(Duration::from_secs(20)),
        ..focuscheck::vc::Options::default()
    }
}

/// The site of the instrumented program that makes the same check.
fn site_of(key: CheckKey, sites: &Sites) -> Option<SiteId> {
    match key {
        CheckKey::Site(s) => Some(s),
        CheckKey::Spec(SpecCheck::Post(c) | SpecCheck::Assert(c)) => sites.clause(c),
        CheckKey::Spec(SpecCheck::Inv { clause, .. } | SpecCheck::CalleePre { clause, .. }) => sites.clause(clause),
        CheckKey::Spec(SpecCheck::Frame(c, v)) => sites.frame(c, v),
        _ => None,
    }
}

/// Per site: are all its VCs proved?
fn proved_sites(f: &FnVcs, sites: &Sites) -> BTreeMap<SiteId, bool> {
    let mut out: BTreeMap<SiteId, bool> = BTreeMap::new();
    for vc in &f.vcs {
        if let Some(s) = site_of(vc.key, sites) {
            *out.entry(s).or_insert(true) &= vc.status == VcStatus::Proved;
        }
    }
    out
}

/// Every function's VCs are proved but perhaps `except`'s: the contracts
/// a function relies on hold.
fn others_proved(fs: &[FnVcs], except: &str) -> bool {
    fs.iter()
        .filter(|f| f.name != except)
        .all(|f| f.vcs.iter().all(|v| v.status == VcStatus::Proved))
}

/// Checks one program; failures are pushed as messages.
fn consistency(
    p: &Program,
    name: &str,
    fs: &[FnVcs],
    calls_contracts: &[String],
    exhaustive: bool,
    datalog: bool,
) -> Vec<String> {
    let mut fail = Vec::new();
    for f in fs {
        let rp = vcc::root_program(p, f.proc);
        let (ip, sites) = instrument::instrument(&rp);
        let relies_on_contracts = calls_contracts.contains(&f.name);
        // Failed VCs on concrete paths replay.
        for vc in f.vcs.iter().filter(|v| v.status == VcStatus::Failed) {
            match vc.replayed {
                Some(true) => {}
                Some(false) => fail.push(format!("{name}: `{}` VC {} fails but does not replay", f.name, vc.id)),
                None if !relies_on_contracts && !vc.given.iter().any(|g| g.label.starts_with("asm_inv")) => {
                    fail.push(format!(
                        "{name}: `{}` VC {} fails without a replayable counterexample",
                        f.name, vc.id
                    ))
                }
                None => {}
            }
        }
        let proved = proved_sites(f, &sites);
        // Only where the callees' contracts are known to hold.
        let trusted = !relies_on_contracts || others_proved(fs, &f.name);
        if exhaustive {
            let mut violated: BTreeSet<SiteId> = BTreeSet::new();
            let dom = exhaust::Domain {
                max_input_vectors: 2500,
                ..exhaust::Domain::default()
            };
            exhaust::enumerate(&ip, &dom, |_, run| {
                if let Outcome::Error { site, .. } = run.outcome {
                    violated.insert(site);
                }
            });
            for (site, all) in &proved {
                if *all && trusted && violated.contains(site) {
                    fail.push(format!(
                        "{name}: `{}`: every VC of {} is proved, but a run violates it",
                        f.name,
                        ip.location(ip.site(*site).span)
                    ));
                }
            }
        }
        if datalog {
            let (mut copts, _) = exhaust::check_options(0, Duration::from_secs(20));
            copts.explain = false;
            let report = focuscheck::check::check(&ip, &[], &copts);
            for r in &report.results {
                let Some(site) = report.condition(r).site() else {
                    continue;
                };
                let Some(&all) = proved.get(&site) else { continue };
                if r.verdict == Verdict::Unsafe && all && trusted {
                    fail.push(format!(
                        "{name}: `{}`: check confirms a violation of {} that verify proved",
                        f.name,
                        ip.location(ip.site(site).span)
                    ));
                }
            }
        }
    }
    fail
}

#[test]
fn bundled_contract_programs_agree() {
    let mut failures = Vec::new();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("programs/contracts");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("programs/contracts")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    files.sort();
    assert!(files.len() >= 6);
    for path in files {
        let text = std::fs::read_to_string(&path).expect("read");
        let name = path.file_name().unwrap_or_default().to_string_lossy().to_string();
        let p = load(&name, &text);
        // Loops: no exhaustive runs (their inputs are arrays).
        let calls: Vec<String> = p.procs.iter().map(|f| f.name.clone()).collect();
        let fs = vcc::verify(&p, &options());
        failures.extend(consistency(&p, &name, &fs, &calls, false, true));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn generated_contract_programs_agree() {
    let count = exhaust::env("FOCUSCHECK_CONTRACT_PROGRAMS", PROGRAMS);
    let mut failures = Vec::new();
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    for seed in 0..count {
        let g = contract_gen::program(seed);
        let name = format!("contract{seed}.c");
        let p = load(&name, &g.text);
        let fs = vcc::verify(&p, &options());
        for f in &fs {
            for vc in &f.vcs {
                *tally.entry(vc.status.name()).or_default() += 1;
                if vc.replayed == Some(true) {
                    *tally.entry("replayed").or_default() += 1;
                }
            }
        }
        let found = consistency(&p, &name, &fs, &g.calls_contracts, true, seed < 20);
        failures.extend(found.into_iter().map(|f| format!("seed {seed}: {f}\n{}", g.text)));
    }
    eprintln!("contract VCs: {tally:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The generator makes both kinds of VCs, and failures that replay.
    assert!(tally.get("proved").copied().unwrap_or(0) > 20, "{tally:?}");
    assert!(tally.get("failed").copied().unwrap_or(0) > 20, "{tally:?}");
    assert!(tally.get("replayed").copied().unwrap_or(0) > 10, "{tally:?}");
}

/// Pointer contracts (issue 30): on generated programs whose functions
/// take pointers, with `\valid`, `\separated`, `\old(*p)` and `assigns *p`,
/// each function is checked as its own root (failed VCs replay, `check`
/// never confirms what `verify` proved), and the whole program's runs,
/// which call the functions on aliased and separate objects and on
/// `NULL`, violate no check whose VCs are all proved.
#[test]
fn generated_pointer_contracts_agree() {
    // Half as many: each access through a pointer splits the VC's paths.
    let count = exhaust::env("FOCUSCHECK_CONTRACT_PROGRAMS", PROGRAMS) / 2;
    let mut failures = Vec::new();
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    for seed in 0..count {
        let g = contract_gen::pointer_program(seed);
        let name = format!("pointers{seed}.c");
        let p = load(&name, &g.text);
        let fs = vcc::verify(&p, &options());
        for vc in fs.iter().flat_map(|f| &f.vcs) {
            *tally.entry(vc.status.name()).or_default() += 1;
            if vc.replayed == Some(true) {
                *tally.entry("replayed").or_default() += 1;
            }
        }
        let mut found = consistency(&p, &name, &fs, &g.calls_contracts, false, seed < 20);
        // The whole program: `main`'s runs reach every function.
        let (ip, sites) = instrument::instrument(&p);
        let mut violated: BTreeSet<SiteId> = BTreeSet::new();
        let dom = exhaust::Domain {
            max_input_vectors: 4000,
            ..exhaust::Domain::default()
        };
        let stats = exhaust::enumerate(&ip, &dom, |_, run| {
            if let Outcome::Error { site, .. } = run.outcome {
                violated.insert(site);
            }
        });
        *tally.entry("runs").or_default() += stats.runs;
        *tally.entry("violations").or_default() += violated.len();
        for f in &fs {
            let trusted = !g.calls_contracts.contains(&f.name) || others_proved(&fs, &f.name);
            for (site, all) in proved_sites(f, &sites) {
                if all && trusted && violated.contains(&site) {
                    found.push(format!(
                        "{name}: `{}`: every VC of {} is proved, but a run of `main` violates it",
                        f.name,
                        ip.location(ip.site(site).span)
                    ));
                }
            }
        }
        failures.extend(found.into_iter().map(|f| format!("seed {seed}: {f}\n{}", g.text)));
    }
    eprintln!("pointer contract VCs and runs: {tally:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Both kinds of VCs, failures that replay, runs that violate checks.
    assert!(tally.get("proved").copied().unwrap_or(0) > 20, "{tally:?}");
    assert!(tally.get("failed").copied().unwrap_or(0) > 10, "{tally:?}");
    assert!(tally.get("replayed").copied().unwrap_or(0) > 5, "{tally:?}");
    assert!(tally.get("violations").copied().unwrap_or(0) > 5, "{tally:?}");
}

/// Issue 50: each generated function of two pointers checked as the entry
/// (`--entry fK`), where its parameters may point to the same place unless
/// its `requires` says `\separated`: failed VCs replay (an aliasing call
/// among them), and `check` never confirms a violation `verify` proved.
#[test]
fn generated_pointer_entries_agree() {
    // Few: each entry's VCs and exploration cover the aliasing calls.
    let count = exhaust::env("FOCUSCHECK_CONTRACT_PROGRAMS", PROGRAMS) / 10;
    let mut failures = Vec::new();
    let mut tally: BTreeMap<&str, usize> = BTreeMap::new();
    for seed in 0..count {
        let g = contract_gen::pointer_program(seed);
        for k in 0..2 {
            let entry = format!("f{k}");
            let Some(at) = g.text.find(&format!("int {entry}(int *p, int *q)")) else {
                continue;
            };
            // Both parameters used (one the body never names is left out,
            // `char **argv`-like), and no call of the entry (`main`'s).
            let body = &g.text[at..at + g.text[at..].find("\n}\n").unwrap_or(0)];
            let body = &body[body.find('{').unwrap_or(0)..];
            if !(body.contains("*p") || body.contains("p[")) || !body.contains("*q") {
                continue;
            }
            let text = &g.text[..g.text.find("int main(void)").unwrap_or(g.text.len())];
            let name = format!("pointers{seed}-{entry}.c");
            let opts = LowerOptions {
                entry: entry.clone(),
                param_elems: 2,
                ..LowerOptions::default()
            };
            let (p, diags) = focuscheck::load(Arc::new(SourceFile::new(&name, text)), &opts);
            // A parameter the code never names (only an annotation does)
            // is left out, and the contract then rejected: not this test's.
            let Some(p) = p else {
                assert!(
                    diags.iter().any(|d| d.message.contains("needs a pointer")),
                    "{name}: {diags:?}\n{text}"
                );
                continue;
            };
            let fs: Vec<FnVcs> = vcc::verify(&p, &options())
                .into_iter()
                .filter(|f| f.name == entry)
                .collect();
            for vc in fs.iter().flat_map(|f| &f.vcs) {
                *tally.entry(vc.status.name()).or_default() += 1;
                if vc.replayed == Some(true) {
                    *tally.entry("replayed").or_default() += 1;
                }
            }
            *tally.entry("entries").or_default() += 1;
            let found = consistency(&p, &name, &fs, &g.calls_contracts, false, true);
            failures.extend(found.into_iter().map(|f| format!("seed {seed}: {f}\n{text}")));
        }
    }
    eprintln!("pointer entries' VCs: {tally:?}");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    assert!(tally.get("entries").copied().unwrap_or(0) >= 2, "{tally:?}");
    assert!(tally.get("replayed").copied().unwrap_or(0) > 0, "{tally:?}");
}
