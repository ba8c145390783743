//! The static facts derived by `rules/static.rs` against their definitions,
//! checked by brute force on every program under `programs/`, the SV-COMP
//! and TCAS corpora in `../shared`, and generated programs (gotos, breaks,
//! switches, recursion):
//! - d postdominates p iff removing d leaves no path from p to the exit (on
//!   the CFG plus a virtual edge to the exit from the points where a run
//!   ends and from those that reach no end);
//! - `ipdom(p)` is the strict postdominator of p that every other one
//!   postdominates;
//! - p is control dependent on (b, o) iff p postdominates o's successor and
//!   does not strictly postdominate b;
//! - the region of (b, o) may write what the points reached from o's
//!   successor, before b's immediate postdominator or b, may write;
//! - mod/ref: a procedure may write (read) the global storage its own
//!   points or any procedure it may call write (read).
//!
//! (Until commit eb85b30 the facts were also compared with the Rust
//! analyses they replaced, relation by relation; they agreed everywhere.)

use crate::gen;
use crate::shared;

use focuscheck::facts::Analysis;
use focuscheck::ir::lower::LowerOptions;
use focuscheck::ir::{NodeId, NodeKind, ProcId, Program};
use focuscheck::syntax::source::SourceFile;
use std::collections::{BTreeSet, HashSet};
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

/// Points reachable from `from` by `succ` without entering `blocked`.
fn reach(from: NodeId, blocked: &dyn Fn(NodeId) -> bool, succ: &dyn Fn(NodeId) -> Vec<NodeId>) -> HashSet<NodeId> {
    let mut seen = HashSet::new();
    let mut work = vec![from];
    while let Some(x) = work.pop() {
        if blocked(x) || !seen.insert(x) {
            continue;
        }
        work.extend(succ(x));
    }
    seen
}

/// The differences between the facts and their definitions in procedure f.
fn check_proc(name: &str, p: &Program, a: &Analysis, f: ProcId, out: &mut Vec<String>) {
    let nodes: Vec<NodeId> = p.node_ids().filter(|&x| p.node(x).proc == f).collect();
    let exit = p.proc(f).exit;
    let real = |x: NodeId| p.node(x).successors();
    let ends: Vec<NodeId> = nodes
        .iter()
        .copied()
        .filter(|&x| x != exit && real(x).is_empty())
        .collect();
    let reaches_end = |x: NodeId| {
        let r = reach(x, &|_| false, &real);
        r.contains(&exit) || ends.iter().any(|e| r.contains(e))
    };
    let virtual_edge: HashSet<NodeId> = nodes
        .iter()
        .copied()
        .filter(|&x| x != exit && (ends.contains(&x) || !reaches_end(x)))
        .collect();
    let succ = |x: NodeId| {
        let mut v = real(x);
        if virtual_edge.contains(&x) {
            v.push(exit);
        }
        v
    };
    // For each d, the points that reach the exit without meeting d
    // (searching backwards from the exit); d postdominates the others.
    let mut preds: std::collections::HashMap<NodeId, Vec<NodeId>> = Default::default();
    for &x in &nodes {
        for y in succ(x) {
            preds.entry(y).or_default().push(x);
        }
    }
    let pred = |x: NodeId| preds.get(&x).cloned().unwrap_or_default();
    let avoid: std::collections::HashMap<NodeId, HashSet<NodeId>> = nodes
        .iter()
        .map(|&d| {
            (
                d,
                if d == exit {
                    HashSet::new()
                } else {
                    reach(exit, &|y| y == d, &pred)
                },
            )
        })
        .collect();
    let pdom = |d: NodeId, x: NodeId| d == x || !avoid[&d].contains(&x);
    for &x in &nodes {
        let strict: Vec<NodeId> = nodes.iter().copied().filter(|&d| d != x && pdom(d, x)).collect();
        let want = strict.iter().copied().find(|&d| strict.iter().all(|&e| pdom(e, d)));
        if a.ipdom[x.index()] != want {
            out.push(format!(
                "{name}: ipdom({x}) is {:?}, by definition {want:?}",
                a.ipdom[x.index()]
            ));
        }
    }
    for &b in &nodes {
        let NodeKind::Branch { then_, else_, .. } = p.node(b).kind else {
            continue;
        };
        let stop = a.ipdom[b.index()];
        for (o, s) in [(true, then_), (false, else_)] {
            let dependent: BTreeSet<NodeId> = nodes
                .iter()
                .copied()
                .filter(|&x| pdom(x, s) && !(x != b && pdom(x, b)))
                .collect();
            let found: BTreeSet<NodeId> = nodes
                .iter()
                .copied()
                .filter(|&x| a.control_deps[x.index()].contains(&(b, o)))
                .collect();
            if dependent != found {
                out.push(format!(
                    "{name}: control_dep on ({b}, {o}): {found:?}, by definition {dependent:?}"
                ));
            }
            let region = reach(s, &|y| Some(y) == stop || y == b, &real);
            let may_def: BTreeSet<_> = region.iter().flat_map(|x| a.defs[x.index()].iter().copied()).collect();
            if *a.region_defs(b, o) != may_def {
                out.push(format!(
                    "{name}: region_may_def of ({b}, {o}) differs from its definition"
                ));
            }
        }
    }
}

/// Mod/ref against the call graph's transitive closure, by search.
fn check_mod_ref(name: &str, p: &Program, a: &Analysis, out: &mut Vec<String>) {
    let callees = |f: ProcId| -> Vec<ProcId> {
        p.node_ids()
            .filter(|&x| p.node(x).proc == f)
            .filter_map(|x| match p.node(x).kind {
                NodeKind::Call { callee, .. } => Some(callee),
                _ => None,
            })
            .collect()
    };
    for f in p.proc_ids() {
        let mut called = HashSet::new();
        let mut work = vec![f];
        while let Some(g) = work.pop() {
            if called.insert(g) {
                work.extend(callees(g));
            }
        }
        let mut want = BTreeSet::new();
        for x in p.node_ids().filter(|&x| called.contains(&p.node(x).proc)) {
            if !matches!(p.node(x).kind, NodeKind::Call { .. }) {
                want.extend(
                    a.defs[x.index()]
                        .iter()
                        .copied()
                        .filter(|&v| p.var(v).is_global_storage()),
                );
            }
        }
        // A call's own result place counts too.
        for x in p.node_ids().filter(|&x| called.contains(&p.node(x).proc)) {
            if let NodeKind::Call { result: Some(r), .. } = &p.node(x).kind {
                if p.var(r.var).is_global_storage() {
                    want.insert(r.var);
                }
            }
        }
        if a.proc_mod[f.index()] != want {
            out.push(format!(
                "{name}: proc_mod of {} differs from its definition",
                p.proc(f).name
            ));
        }
        let recursive = callees(f).iter().any(|&g| {
            let mut seen = HashSet::new();
            let mut work = vec![g];
            while let Some(h) = work.pop() {
                if h == f {
                    return true;
                }
                if seen.insert(h) {
                    work.extend(callees(h));
                }
            }
            false
        });
        if a.recursive.contains(&f) != recursive {
            out.push(format!("{name}: recursive({}) is wrong", p.proc(f).name));
        }
    }
}

fn check(name: &str, p: &Program) -> Vec<String> {
    let a = Analysis::new(p);
    let mut out = Vec::new();
    for f in p.proc_ids() {
        check_proc(name, p, &a, f, &mut out);
    }
    check_mod_ref(name, p, &a, &mut out);
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
fn static_facts_meet_their_definitions_on_files() {
    let mut files = Vec::new();
    c_files(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("programs").as_path(),
        &mut files,
    );
    c_files(&shared::shared("corpus/svcomp"), &mut files);
    c_files(&shared::shared("corpus/tcas"), &mut files);
    // Pointer and heap programs: the memory model's splits make long
    // chains of nested branches (a thousand-line list program has 3,000).
    c_files(&shared::shared("corpus/svcomp-c"), &mut files);
    c_files(&shared::shared("corpus/svcomp-heap/list-simple"), &mut files);
    c_files(&shared::shared("corpus/svcomp-heap/heap-manipulation"), &mut files);
    let mut diffs = Vec::new();
    let mut checked = 0;
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.display().to_string();
        let entry = name.contains("tcas").then_some("alt_sep_test");
        if let Some(p) = load(&name, &text, entry) {
            checked += 1;
            diffs.extend(check(&name, &p));
        }
    }
    assert!(checked > 80, "only {checked} files could be checked");
    assert!(diffs.is_empty(), "{} differences:\n{}", diffs.len(), diffs.join("\n"));
}

#[test]
fn static_facts_meet_their_definitions_on_generated_programs() {
    let cfg = gen::GenConfig {
        max_stmts: 7,
        max_depth: 4,
        ..Default::default()
    };
    let mut diffs = Vec::new();
    let mut checked = 0;
    for seed in 0..300 {
        let text = gen::program(seed, &cfg);
        if let Some(p) = load(&format!("gen{seed}.c"), &text, None) {
            checked += 1;
            diffs.extend(check(&format!("seed {seed}"), &p));
        }
    }
    assert!(checked > 200, "only {checked} generated programs lowered");
    assert!(diffs.is_empty(), "{} differences:\n{}", diffs.len(), diffs.join("\n"));
}
