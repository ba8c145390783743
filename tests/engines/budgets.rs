//! Budgets as a user meets them: `--max-states N` gives at most N states
//! (exactly N when it cuts), a program built to blow up ends `unknown` with
//! the budget's reason and `truncated: true` under `--timeout` and
//! `--max-states`, and a counterexample search cut short marks its
//! condition truncated too. No test here measures time: each asserts what
//! the report says.

use crate::cli;
use cli::focuscheck;
use focuscheck::analysis::{CheckOptions, Verdict};
use focuscheck::ir::lower::LowerOptions;
use focuscheck::syntax::source::SourceFile;
use std::sync::Arc;

/// Writes `text` to a file `name` in a fresh directory.
fn program(name: &str, text: &str) -> (tempfile::TempDir, String) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join(name);
    std::fs::write(&p, text).unwrap();
    (d, p.display().to_string())
}

/// `check` with the Datalog engine alone: its budgets are what these
/// tests are about (under `auto` the VC engine may decide what they cut).
fn check_json(args: &[&str]) -> serde_json::Value {
    check_json_with("fsum", args)
}

/// `check` with the given engine.
fn check_json_with(engine: &str, args: &[&str]) -> serde_json::Value {
    let mut all = vec!["check", "--engine", engine, "--format", "json"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = focuscheck(&all);
    assert!(matches!(code, 0 | 1 | 3), "{args:?}: exit {code}: {stderr}");
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{args:?}: {e}: {stdout}"))
}

/// Every condition is `unknown`, says `why`, and is marked truncated; the
/// file says which limit cut it.
fn assert_cut(doc: &serde_json::Value, why: &str, option: &str) {
    assert_eq!(doc["truncated"], true, "{doc}");
    assert!(doc["limit"].as_str().unwrap_or("").contains(option), "{doc}");
    let conds = doc["conditions"].as_array().unwrap();
    assert!(!conds.is_empty(), "{doc}");
    for c in conds {
        assert_eq!(c["verdict"], "unknown", "{c}");
        assert!(c["reason"].as_str().unwrap().contains(why), "{c}");
        assert_eq!(c["truncated"], true, "{c}");
    }
}

#[test]
fn max_states_is_exact() {
    let full = check_json(&["programs/paper/median.c"]);
    let all = full["states"].as_u64().unwrap();
    assert!(all > 100, "{full}");
    for n in [1u64, 2, 100, all - 1] {
        let doc = check_json(&["programs/paper/median.c", "--max-states", &n.to_string()]);
        assert_eq!(doc["states"].as_u64(), Some(n), "--max-states {n}: {doc}");
        assert_cut(&doc, "the state limit (--max-states) was reached", "--max-states");
    }
    // Just enough: nothing is cut.
    let doc = check_json(&["programs/paper/median.c", "--max-states", &all.to_string()]);
    assert_eq!(doc["states"].as_u64(), Some(all), "{doc}");
    assert_eq!(doc["truncated"], false, "{doc}");
    assert_eq!(doc["conditions"], full["conditions"]);
}

/// A loop on a concrete counter is run exactly, one state per iteration:
/// 2^32 of them before `i` comes back to 0. No machine explores that
/// within a second.
const ENDLESS: &str = "\
int main() {
  unsigned int i = 0;
  while (1) {
    i = i + 1;
    if (i == 0) assert(0);
  }
  return 0;
}
";

#[test]
fn a_blow_up_under_a_time_limit_is_unknown_and_truncated() {
    let (_d, path) = program("endless.c", ENDLESS);
    let doc = check_json(&[&path, "--timeout", "1", "--max-states", "4000000000"]);
    assert_cut(&doc, "the time limit (--timeout) was reached", "--timeout");
}

#[test]
fn a_blow_up_under_a_state_limit_is_unknown_and_truncated() {
    let (_d, path) = program("endless.c", ENDLESS);
    let doc = check_json(&[&path, "--max-states", "5000"]);
    assert_eq!(doc["states"].as_u64(), Some(5000), "{doc}");
    assert_cut(&doc, "the state limit (--max-states) was reached", "--max-states");
}

/// A local array of 100,000 elements with no initialiser, whose address
/// is taken (passed to a function), gets a fresh value per element in one
/// step. That step used to probe symbol names from the first for every
/// element (5 billion probes), which no limit interrupts: the SV-COMP
/// `data_structures_set_multi_proc_ground` tasks ran far past `--timeout`.
/// Now the state limit is what ends it.
#[test]
fn a_large_uninitialised_array_is_explored_up_to_the_limit() {
    let (_d, path) = program(
        "big.c",
        "extern int __VERIFIER_nondet_int(void);\n\
         extern void reach_error(void);\n\
         int get(int a[], int i) { return a[i]; }\n\
         int main() {\n  int set[100000];\n  int x;\n\
         \x20 for (x = 0; x < 100000; x++) set[x] = __VERIFIER_nondet_int();\n\
         \x20 if (get(set, 5) == 7) reach_error();\n  return 0;\n}\n",
    );
    let doc = check_json(&[&path, "--no-explain", "--max-states", "60", "--timeout", "600"]);
    assert_eq!(doc["states"].as_u64(), Some(60), "{doc}");
    assert_cut(&doc, "the state limit (--max-states) was reached", "--max-states");
}

/// The doubly recursive `fib` over a bounded input: exploration
/// used to run into the state limit (2,000,000 states and more) at any
/// `--unroll`; it now ends on its own.
#[test]
fn doubly_recursive_fib_is_explored_to_the_end() {
    let (_d, path) = program(
        "fib.c",
        "extern int __VERIFIER_nondet_int(void);\n\
         extern void reach_error(void);\n\
         int fib(int n) {\n  if (n < 1) return 0;\n  if (n == 1) return 1;\n  return fib(n - 1) + fib(n - 2);\n}\n\
         int main() {\n  int n = __VERIFIER_nondet_int();\n  if (n < 0 || n > 12) return 0;\n\
         \x20 int r = fib(n);\n  if (r < n - 1) reach_error();\n  return 0;\n}\n",
    );
    let doc = check_json(&[&path, "--no-explain", "--max-states", "100000", "--unroll", "4"]);
    assert!(
        doc["limit"].as_str().is_none_or(|l| !l.contains("--max-states")),
        "{doc}"
    );
    assert!(doc["states"].as_u64().unwrap() < 100_000, "{doc}");
}

/// A counterexample search that runs out of its steps leaves the condition
/// `unknown` and says so: `truncated` in the report, though exploration
/// was complete.
#[test]
fn a_search_cut_short_is_truncated() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/programs/paper/median_bug14.c")).unwrap();
    let file = Arc::new(SourceFile::new("median_bug14.c", text));
    let (p, diags) = focuscheck::load(file, &LowerOptions::default());
    let p = p.unwrap_or_else(|| panic!("{diags:?}"));
    let opts = CheckOptions {
        search_steps: 1,
        explain: false,
        ..CheckOptions::default()
    };
    // The program's `error` variable is its condition, as on the command line.
    let users = focuscheck::ir::cond::user_conditions(&p, &[]).unwrap();
    let report = focuscheck::check::check(&p, &users, &opts);
    assert!(report.budget_hit.is_none());
    let cut: Vec<_> = report.results.iter().filter(|r| r.truncated).collect();
    assert!(
        !cut.is_empty(),
        "no search was cut short: {:?}",
        report
            .results
            .iter()
            .map(|r| (r.verdict, &r.reason))
            .collect::<Vec<_>>()
    );
    for r in &cut {
        assert_eq!(r.verdict, Verdict::Unknown);
        assert!(r.reason.contains("ran out of its budget"), "{}", r.reason);
    }
    let doc = focuscheck::views::json::file_doc(&p, &report, &None);
    assert!(doc.truncated);
    assert!(
        doc.limit.as_deref().unwrap_or("").contains("counterexample search"),
        "{:?}",
        doc.limit
    );
}

/// A generated state machine (`scripts/gen-state-machine`, the benchmark's
/// generator) in a fresh directory.
fn state_machine(seed: u32, branches: u32, depth: u32) -> (tempfile::TempDir, String) {
    program(&format!("machine{seed}.c"), &generator(seed, branches, depth, &[]))
}

/// `scripts/gen-state-machine`'s output for these arguments.
fn generator(seed: u32, branches: u32, depth: u32, extra: &[&str]) -> String {
    let out = std::process::Command::new("python3")
        .args(["scripts/gen-state-machine", "--seed", &seed.to_string()])
        .args(["--branches", &branches.to_string(), "--depth", &depth.to_string()])
        .args(extra)
        .output()
        .expect("python3 runs scripts/gen-state-machine");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

/// Issue 57: a confirmed counterexample always has its own FSS, with
/// assumptions and a NEST, however small the budget of the search for
/// further FSSs: the budget cuts only the listing of the others (marked
/// truncated). The FSS replays to the error.
#[test]
fn first_fss_survives_any_explanation_budget() {
    for seed in 1..=4 {
        let (_d, f) = state_machine(seed, 12, 3);
        let doc = check_json(&[&f, "--explain-steps", "1", "--full-trace"]);
        let c = cli::first_unsafe(&doc);
        assert_eq!(c["explained_from"], "run", "seed {seed}: {c}");
        assert_eq!(c["truncated"], true, "seed {seed}: the listing was cut: {c}");
        let top = &c["fss"][0];
        let assumptions = top["assumptions"].as_array().expect("assumptions");
        assert!(
            assumptions
                .iter()
                .any(|a| a["text"].as_str().unwrap().contains("input")),
            "seed {seed}: the FSS assumes the inputs it reads: {top}"
        );
        let nest = c["reduced"][0]["nest"].as_array().expect("a NEST");
        assert!(!nest.is_empty(), "seed {seed}: {c}");
        let choices: Vec<String> = top["choices"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.to_string())
            .collect();
        let (code, stdout, stderr) = focuscheck(&["run", &f, "--choices", &choices.join(",")]);
        assert_eq!(
            code, 1,
            "seed {seed}: the FSS's replay reaches the error: {stdout}{stderr}"
        );
        // With the default budget, the first FSS is the run's or a shorter one.
        let full = check_json(&[&f, "--full-trace"]);
        let first = &cli::first_unsafe(&full)["fss"][0];
        assert!(
            cli::fss_lines(first).len() <= cli::fss_lines(top).len(),
            "seed {seed}: {first} ranks first, longer than the run's {top}"
        );
    }
}

/// Issue 57: the counterexample search on state machines past 50
/// branches. The explored graph leaves each step's input a symbol, so
/// most of its paths are infeasible; a first pass that continues each
/// state once per store (nearest moves first) finds these, where the
/// search through every path ran out of its budget. The counterexample
/// replays.
#[test]
fn state_machines_of_60_and_80_branches_get_a_counterexample() {
    for (seed, branches) in [(1, 60), (4, 60), (2, 80)] {
        let (_d, f) = state_machine(seed, branches, 5);
        let doc = check_json(&[&f, "--no-explain", "--no-fixes"]);
        let c = cli::first_unsafe(&doc);
        assert_eq!(c["engine"], "fsum", "seed {seed}, {branches} branches: {c}");
        assert_replays(&f, c, seed);
    }
}

/// The unsafe condition `c`'s counterexample, run on `f`, reaches the error.
fn assert_replays(f: &str, c: &serde_json::Value, seed: u32) {
    let choices: Vec<String> = (c["choices"].as_array().unwrap().iter())
        .map(|v| v.to_string())
        .collect();
    let (code, out, err) = focuscheck(&["run", f, "--choices", &choices.join(",")]);
    assert_eq!(code, 1, "seed {seed}: the counterexample replays: {out}{err}");
}

/// Issue 57: a guard that pins the input (`input == 3` taken) narrows it in
/// the exact first exploration, so a state machine's exact state space is
/// small: safe 100- and 200-branch machines are proved, and an unsafe one
/// whose widened exploration runs out of states is refuted from the exact
/// graph. Each verdict agrees with the generator's own breadth-first search
/// over the machine's states (`--truth`, an oracle that runs the guards in
/// Python), and each counterexample replays. Under `auto`, as users run
/// it: its first share of states is what the widened exploration runs out
/// of (`fsum` alone explores the widened graph in full, and its search
/// for a feasible path through it runs out instead).
#[test]
fn state_machines_of_100_and_200_branches_get_the_oracles_verdict() {
    for (seed, branches) in [(2, 100), (1, 200), (3, 200), (2, 200)] {
        let truth = generator(seed, branches, 5, &["--truth"]);
        let (_d, f) = state_machine(seed, branches, 5);
        let doc = check_json_with("auto", &[&f, "--no-explain", "--no-fixes"]);
        let c = &doc["conditions"][0];
        let want = if truth.starts_with("unreachable") {
            "safe"
        } else {
            "unsafe"
        };
        assert!(
            truth.starts_with("unreachable") || truth.starts_with("reachable"),
            "{truth}"
        );
        assert_eq!(c["verdict"], want, "seed {seed}, {branches} branches: {c}");
        if want == "unsafe" {
            assert_replays(&f, c, seed);
        }
    }
}

/// Issue 57: a counterexample found in the exact (narrowed) graph is
/// re-executed narrowing as the graph did: where the graph reads a pinned
/// input as its value (`buf[input]` after `input == 4`, an index it took
/// without a decision), so does the execution, which otherwise would
/// refute the path for want of that decision. The 200-branch machine
/// (its widened exploration runs out of states) with the error made an
/// access at the pinned input: unsafe (under `auto`, as above), explained
/// by an FSS that assumes the inputs.
#[test]
fn a_counterexample_of_the_exact_graph_indexes_by_a_pinned_input() {
    let machine = generator(2, 200, 5, &[]);
    let error = "  if (p == 5) {\n    reach_error();\n  }";
    assert!(machine.contains(error), "the generator's error shape changed");
    let text = machine.replacen("int p = 0;", "int p = 0;\nint buf[4];", 1).replacen(
        error,
        "  if (p == 5 && input == 4) {\n    buf[input] = 1;\n  }",
        1,
    );
    let (_d, f) = program("pinned-machine.c", &text);
    let doc = check_json_with("auto", &[&f, "--no-fixes"]);
    let c = cli::first_unsafe(&doc);
    assert_eq!(c["kind"], "bounds", "{c}");
    assert_replays(&f, c, 2);
    let top = &c["fss"][0];
    let assumptions = top["assumptions"].as_array().expect("assumptions");
    assert!(
        assumptions.iter().any(|a| a["text"].as_str().unwrap().contains("== 4")),
        "the FSS assumes the pinned input: {top}"
    );
}

/// A branch that pins an input, then an access at the pinned value: the
/// error is found whether or not the access reads the variable the branch
/// tested (the narrowed value must not hide the failing index).
#[test]
fn an_index_pinned_by_a_guard_is_out_of_bounds() {
    for body in [
        "if (i == 6) a[i] = 1;",
        "if (i == 6) { int j = i; a[j] = 1; }",
        "if (i != 6) return 0; a[i] = 1;",
        "if (i == 6) { a[i] = 1; a[0] = i; }",
    ] {
        let text = format!(
            "extern int __VERIFIER_nondet_int(void);\nint a[4];\nint main(void) {{\n  int i = __VERIFIER_nondet_int();\n  {body}\n  return 0;\n}}\n"
        );
        let (_d, f) = program("pinned.c", &text);
        let doc = check_json(&[&f, "--no-explain", "--no-fixes"]);
        assert_eq!(doc["conditions"][0]["verdict"], "unsafe", "{body}: {doc}");
    }
}
