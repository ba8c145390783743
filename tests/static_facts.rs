//! The static facts derived by `rules/static.rs` (crepe) against the Rust
//! analyses they replace (`facts::oracle`), relation by relation, on every
//! program under `programs/`, the SV-COMP and TCAS corpora in `../shared`,
//! and generated programs (gotos, breaks, switches, recursion).

#[path = "support/gen.rs"]
mod gen;
#[path = "support/shared.rs"]
mod shared;

use focuscheck::facts::oracle::OracleAnalysis;
use focuscheck::facts::Analysis;
use focuscheck::ir::lower::LowerOptions;
use focuscheck::ir::Program;
use focuscheck::syntax::source::SourceFile;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn load(name: &str, text: &str, entry: Option<&str>) -> Option<Program> {
    let file = Arc::new(SourceFile::new(name, text));
    let mut opts = LowerOptions::default();
    if let Some(e) = entry {
        opts.entry = e.to_string();
    }
    focuscheck::load(file, &opts).0
}

/// The differences between the two, as readable lines.
fn compare(name: &str, p: &Program) -> Vec<String> {
    let old = OracleAnalysis::new(p);
    let new = Analysis::new(p);
    let mut out = Vec::new();
    let mut check = |what: &str, same: bool, detail: String| {
        if !same {
            out.push(format!("{name}: {what} differs: {detail}"));
        }
    };
    check("preds", old.preds == new.preds, String::new());
    check(
        "defs",
        old.defs == new.defs,
        format!("{:?} vs {:?}", old.defs, new.defs),
    );
    check(
        "uses",
        old.uses == new.uses,
        format!("{:?} vs {:?}", old.uses, new.uses),
    );
    check("proc_mod", old.proc_mod == new.proc_mod, String::new());
    check("proc_ref", old.proc_ref == new.proc_ref, String::new());
    check(
        "ipdom",
        old.ipdom == new.ipdom,
        format!("{:?} vs {:?}", old.ipdom, new.ipdom),
    );
    check(
        "control_deps",
        old.control_deps == new.control_deps,
        format!("{:?} vs {:?}", old.control_deps, new.control_deps),
    );
    check(
        "region_defs",
        old.region_defs == new.region_defs,
        format!("{:?} vs {:?}", old.region_defs, new.region_defs),
    );
    let loops = |ls: Vec<(focuscheck::ir::NodeId, focuscheck::ir::ProcId, Vec<_>, Vec<_>)>| ls;
    check(
        "loops",
        loops(
            old.loops
                .iter()
                .map(|l| {
                    (
                        l.head,
                        l.proc,
                        l.body.iter().copied().collect(),
                        l.modifies.iter().copied().collect(),
                    )
                })
                .collect(),
        ) == loops(
            new.loops
                .iter()
                .map(|l| {
                    (
                        l.head,
                        l.proc,
                        l.body.iter().copied().collect(),
                        l.modifies.iter().copied().collect(),
                    )
                })
                .collect(),
        ),
        String::new(),
    );
    check("loop_at", old.loop_at == new.loop_at, String::new());
    check(
        "reachable_procs",
        old.reachable_procs == new.reachable_procs,
        String::new(),
    );
    check("proc_nodes", old.proc_nodes == new.proc_nodes, String::new());
    out
}

fn c_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            c_files(&p, out);
        } else if matches!(p.extension().and_then(|e| e.to_str()), Some("c" | "i")) {
            out.push(p);
        }
    }
}

#[test]
fn datalog_agrees_with_the_rust_analyses_on_files() {
    let mut files = Vec::new();
    c_files(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("programs").as_path(),
        &mut files,
    );
    c_files(&shared::shared("corpus/svcomp"), &mut files);
    c_files(&shared::shared("corpus/tcas"), &mut files);
    let mut diffs = Vec::new();
    let mut compared = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.display().to_string();
        let entry = name.contains("tcas").then_some("alt_sep_test");
        if let Some(p) = load(&name, &text, entry) {
            compared += 1;
            diffs.extend(compare(&name, &p));
        }
    }
    assert!(compared > 80, "only {compared} files could be compared");
    assert!(diffs.is_empty(), "{} differences:\n{}", diffs.len(), diffs.join("\n"));
}

#[test]
fn datalog_agrees_with_the_rust_analyses_on_generated_programs() {
    let cfg = gen::GenConfig {
        max_stmts: 7,
        max_depth: 4,
        ..Default::default()
    };
    let mut diffs = Vec::new();
    let mut compared = 0;
    for seed in 0..400 {
        let text = gen::program(seed, &cfg);
        if let Some(p) = load(&format!("gen{seed}.c"), &text, None) {
            compared += 1;
            diffs.extend(compare(&format!("seed {seed}"), &p));
        }
    }
    assert!(compared > 300, "only {compared} generated programs lowered");
    assert!(diffs.is_empty(), "{} differences:\n{}", diffs.len(), diffs.join("\n"));
}
