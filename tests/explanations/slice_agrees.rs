//! The two ways a confirmed run is explained give the same explanation.
//! A run is explained by following it symbolically (`run_graph`: the
//! backward rules of the Datalog engine over a graph of the run's states)
//! or, when it is too long for that, by slicing its record
//! (`run_slice`: the same rules applied to the storage locations each step
//! read and wrote). They share the transfer of a step inside an activation
//! (`explain/transfer.rs`) but not the handling of calls, nor what a step
//! reads and writes, so here every
//! run short enough for both is explained both ways and the FSSs must be
//! the same statements with the same outcomes and the same assumptions:
//! on the unsafe programs of `programs/` and on generated programs (plain
//! C from `support/gen.rs`, pointers, structs and the heap from
//! `support/ptr_gen.rs`). `FOCUSCHECK_SLICE_PROGRAMS=N` checks more.
//!
//! The comparison found one rule the two applied differently (the Datalog
//! engine's was wrong): a call's result overwrites a global, or a local
//! whose address is taken, only after the callee returns, so what the
//! callee or earlier statements wrote there is dead. A test below keeps it.
//!
//! One difference is by design: a run that comes back to a state it was in
//! (`if (c == '\r') continue;` reading a fresh input) is one loop in the
//! graph of its states, so following it leaves those iterations out; the
//! two FSSs then differ by whole iterations only (`cycles_left_out`).

use crate::cli;
use crate::gen;
use crate::ptr_gen;

use focuscheck::analysis::{CheckOptions, Verdict};
use focuscheck::context::{conditions, Context};
use focuscheck::explain::{self, run_slice, ExplainLimits, Explanation, FssReport};
use focuscheck::facts::Analysis;
use focuscheck::ir::lower::LowerOptions;
use focuscheck::ir::Program;
use focuscheck::syntax::source::SourceFile;
use std::sync::Arc;
use std::time::Duration;

fn load(name: &str, text: &str) -> Option<Program> {
    focuscheck::load(Arc::new(SourceFile::new(name, text)), &LowerOptions::default()).0
}

/// An FSS as a user reads it: each statement's line, text and outcome,
/// then its assumptions.
fn shown(f: &FssReport) -> (Vec<String>, Vec<String>) {
    let statements = f
        .entries
        .iter()
        .map(|e| format!("{}:{} {:?}", e.line, e.text, e.outcome))
        .collect();
    let assumptions = f.assumptions.iter().map(|a| a.text.clone()).collect();
    (statements, assumptions)
}

fn fsss(ex: &Explanation) -> Vec<(Vec<String>, Vec<String>)> {
    ex.fss.iter().map(shown).collect()
}

/// Outcome of comparing one program: (runs compared, disagreements).
fn compare(name: &str, p: &Program) -> (usize, Vec<String>) {
    let mut opts = CheckOptions::default();
    opts.engine.timeout = Some(Duration::from_secs(20));
    let report = focuscheck::check::check(p, &[], &opts);
    let a = Analysis::new(p);
    let conds = conditions::conditions(p, &a, &[], opts.property, &opts.cut);
    let cx = Context::new(p, &a, &conds);
    let limits = ExplainLimits {
        witness_steps: opts.search_steps / 4,
        revisits: opts.revisits,
        backward_steps: 2_000_000,
        deadline: None,
    };
    let everywhere = |_: u32| true;
    let (mut compared, mut wrong) = (0, Vec::new());
    for r in report.results.iter().filter(|r| r.verdict == Verdict::Unsafe) {
        let Some(run) = &r.counterexample else { continue };
        let graph = explain::explain_run(&cx, &opts.engine, &[], r.id, run, limits, &everywhere, None);
        if graph.sliced || graph.fss.is_empty() {
            continue; // the run was sliced anyway, or not explained
        }
        let sliced = match run_slice::explain_slice(&cx, &opts.engine, &[], r.id, run, limits, &everywhere, None) {
            Ok(ex) => ex,
            Err(why) => {
                wrong.push(format!("{name} cond {:?}: the slice failed: {why}", r.id));
                continue;
            }
        };
        compared += 1;
        let (g, s) = (fsss(&graph), fsss(&sliced));
        if let (Some(g), Some(s)) = (g.first(), s.first()) {
            if g != s && cycles_left_out(&g.0, &s.0) {
                // The run returned to a state it had been in (a `continue`
                // that changed nothing the graph keeps): the graph of its
                // states holds that loop once, so following it leaves whole
                // iterations out (and numbers the later draws anew).
                continue;
            }
        }
        if g.first() != s.first() {
            wrong.push(format!(
                "{name} cond {:?}:\n  graph: {:#?}\n  slice: {:#?}",
                r.id,
                g.first(),
                s.first()
            ));
        }
    }
    (compared, wrong)
}

/// Whether `short` is `long` with whole cycles left out: stretches of
/// `long`, each followed by the statement it began with (an iteration that
/// came back to where it began), and at least one.
fn cycles_left_out(short: &[String], long: &[String]) -> bool {
    // can[i][j]: `short[i..]` is `long[j..]` with cycles left out.
    let (n, m) = (short.len(), long.len());
    let mut can = vec![vec![false; m + 1]; n + 1];
    can[n][m] = true;
    for j in (0..m).rev() {
        for i in (0..=n).rev() {
            let kept = i < n && short[i] == long[j] && can[i + 1][j + 1];
            let cut = (1..m - j).any(|k| long[j + k] == long[j] && can[i][j + k]);
            can[i][j] = kept || cut;
        }
    }
    can[0][0] && n < m
}

#[test]
fn slicing_a_run_agrees_with_following_it() {
    let mut programs: Vec<(String, String)> = Vec::new();
    let mut stack = vec![std::path::PathBuf::from("programs")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("programs/").flatten() {
            let path = e.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "c") {
                let text = std::fs::read_to_string(&path).expect("readable");
                programs.push((path.display().to_string(), text));
            }
        }
    }
    programs.sort();
    let n: u64 = std::env::var("FOCUSCHECK_SLICE_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(80);
    let cfg = gen::GenConfig::default();
    for seed in 0..n {
        programs.push((format!("gen seed {seed}"), gen::program(seed, &cfg)));
        programs.push((format!("ptr_gen seed {seed}"), ptr_gen::program(seed, seed % 2 == 0)));
    }
    let (mut compared, mut wrong) = (0, Vec::new());
    for (name, text) in &programs {
        let Some(p) = load(name, text) else { continue };
        let (c, w) = compare(name, &p);
        compared += c;
        wrong.extend(w);
    }
    eprintln!("{compared} runs explained both ways, {} disagree", wrong.len());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(compared >= 20, "only {compared} runs compared");
}

/// The statements of the top FSS of `check FILE --format json`, as
/// (line, text).
fn top_fss(file: &str) -> Vec<(u64, String)> {
    let (code, out, err) = cli::focuscheck(&["check", file, "--format", "json"]);
    assert_eq!(code, 1, "unsafe expected: {err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    cli::first_unsafe(&doc)["fss"][0]["statements"]
        .as_array()
        .expect("statements")
        .iter()
        .map(|s| {
            (
                s["line"].as_u64().unwrap_or(0),
                s["text"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

#[test]
fn a_call_result_kills_what_was_written_to_its_place_before() {
    let dir = tempfile::tempdir().expect("tempdir");
    // An address-taken local and a global, each overwritten by a call's
    // result: their earlier values (line 5; line 3 in the callee) never
    // reach the error, which reads only x's.
    for (name, text) in [
        (
            "local.c",
            "extern void reach_error(void);\nint x;\nint get(void) { return x; }\nint main(void) {\n  int l = 2;\n  int *t = &l;\n  l = get();\n  if (l == 0) reach_error();\n  return 0;\n}\n",
        ),
        (
            "global.c",
            "extern void reach_error(void);\nint x, g;\nint get(void) { g = 7; return x; }\nint main(void) {\n  g = 2;\n  g = get();\n  if (g == 0) reach_error();\n  return 0;\n}\n",
        ),
    ] {
        let file = cli::write(dir.path(), name, text);
        let fss = top_fss(&file);
        assert!(
            !fss.iter().any(|(l, t)| *l == 5 || (*l == 3 && t.contains("g = 7"))),
            "{name}: a dead write is in the FSS: {fss:?}"
        );
        assert!(fss.iter().any(|(l, _)| *l == 3), "{name}: the callee's return is: {fss:?}");
    }
}
