//! `focuscheck verify` as a user runs it: the seed's example program (1)
//! with its warning and trace, unrolling and sequence numbers, calls,
//! several warnings per procedure, invariants, JSON and SARIF, and every
//! printed replay command run as printed.

use crate::cli;

use cli::focuscheck;
use serde_json::Value;

/// Runs every `replay: ...` command of a report as printed; each must end
/// in an error (exit 1, `result: error`).
fn replays_reach_errors(stdout: &str) -> usize {
    let mut n = 0;
    for line in stdout.lines() {
        let Some(cmd) = line.strip_prefix("replay: focuscheck ") else {
            continue;
        };
        let args: Vec<String> = cmd.split(' ').map(|a| a.trim_matches('\'').to_string()).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, out, err) = focuscheck(&args);
        assert_eq!(code, 1, "replay `{cmd}` did not reach an error:\n{out}{err}");
        assert!(out.contains("result: error"), "replay `{cmd}`:\n{out}");
        n += 1;
    }
    n
}

#[test]
fn seed_example_warning_trace_and_replay() {
    let (code, out, err) = focuscheck(&["verify", "programs/vc/seed_example.c"]);
    assert_eq!(code, 1, "{out}{err}");
    let expected = [
        "programs/vc/seed_example.c:14:7: warning: possible array index out of bounds: `A[j]` (bounds)",
        "Execution trace information:",
        "    Executed else branch in \"programs/vc/seed_example.c\", line 10, col 7.",
        "Counterexample: k = -1",
        "status: confirmed (the replay reaches this error)",
        "replay: focuscheck run programs/vc/seed_example.c --input k=-1 --seed 0",
    ];
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(&lines[..expected.len()], &expected, "{out}");
    assert!(out.contains("`main`: warnings: 1 warning (1 confirmed)"), "{out}");
    assert_eq!(replays_reach_errors(&out), 1);
}

#[test]
fn unrolling_bound_is_reported_not_verified() {
    let (code, out, _) = focuscheck(&["verify", "programs/vc/loop_unroll.c", "--loops", "unroll:1"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("bounded: no error within 1 loop iteration and call depth 3"),
        "{out}"
    );
    assert!(!out.contains("verified"), "{out}");
    let (code, out, _) = focuscheck(&["verify", "programs/vc/loop_unroll.c", "--loops", "unroll:2"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("warning: possible array index out of bounds: `A[s]`"),
        "{out}"
    );
    assert!(out.contains("Reached top of loop after 1 iteration in"), "{out}");
    assert!(out.contains("Reached top of loop after 2 iterations in"), "{out}");
    assert_eq!(replays_reach_errors(&out), 1);
}

#[test]
fn sequence_numbers_order_the_trace_by_iteration() {
    let (code, out, _) = focuscheck(&[
        "verify",
        "programs/vc/sequence.c",
        "--loops",
        "unroll:2",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}");
    let doc: Value = serde_json::from_str(&out).expect("JSON");
    let proc_ = &doc["procedures"][0];
    assert_eq!(proc_["name"], "main");
    assert_eq!(proc_["result"], "warnings");
    let w = &proc_["warnings"][0];
    assert_eq!(w["kind"], "assert");
    assert_eq!(w["status"], "confirmed");
    let trace = w["trace"].as_array().expect("a trace");
    let seqs: Vec<u64> = trace.iter().map(|s| s["seq"].as_u64().expect("seq")).collect();
    assert!(
        seqs.windows(2).all(|w| w[0] < w[1]),
        "sequence numbers ascend: {seqs:?}"
    );
    // The `if` in the body (line 10): one outcome per iteration, after the
    // loop head of that iteration.
    let events: Vec<(String, u64, Option<u64>)> = trace
        .iter()
        .map(|s| {
            (
                s["event"].as_str().unwrap_or_default().to_string(),
                s["line"].as_u64().unwrap_or(0),
                s["iteration"].as_u64(),
            )
        })
        .collect();
    let heads: Vec<u64> = events
        .iter()
        .filter(|e| e.0 == "loop_head")
        .filter_map(|e| e.2)
        .collect();
    assert_eq!(heads, vec![0, 1, 2], "{events:?}");
    let inner: Vec<&str> = events.iter().filter(|e| e.1 == 10).map(|e| e.0.as_str()).collect();
    assert_eq!(inner.len(), 2, "{events:?}");
    assert_ne!(inner[0], inner[1], "one branch per iteration: {events:?}");
    // The model's input takes exactly that path.
    let x = w["inputs"]["x"].as_i64().expect("x");
    assert_eq!(inner[0] == "then", x == 0, "{events:?} with x = {x}");
}

#[test]
fn calls_and_several_warnings_per_procedure() {
    let (code, out, _) = focuscheck(&["verify", "programs/vc/calls.c"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("warning: possible assertion failure: `__VERIFIER_assert(g != 42)`"),
        "{out}"
    );
    assert!(
        out.contains("warning: possible division by zero: `v / (v - 101)`"),
        "{out}"
    );
    assert!(
        out.contains("    Called scale in \"programs/vc/calls.c\", line 15, col 3."),
        "{out}"
    );
    assert!(
        out.contains("    Returned from scale in \"programs/vc/calls.c\", line 15, col 3."),
        "{out}"
    );
    assert!(out.contains("2 warnings (2 confirmed)"), "{out}");
    assert_eq!(replays_reach_errors(&out), 2);
    // One warning at most.
    let (_, out, _) = focuscheck(&["verify", "programs/vc/calls.c", "--max-warnings", "1"]);
    assert_eq!(out.matches(": warning: ").count(), 1, "{out}");
    assert!(out.contains("stopped after 1 warnings (--max-warnings)"), "{out}");
}

#[test]
fn inline_depth_zero_havocs_calls() {
    let (_, out, _) = focuscheck(&["verify", "programs/vc/calls.c", "--inline-depth", "0"]);
    // The havocked result can be anything: the assertion may fail, but the
    // division inside the callee is not checked, and nothing is verified.
    assert!(out.contains("not inlined"), "{out}");
    assert!(!out.contains("division by zero"), "{out}");
    assert!(!out.contains("verified"), "{out}");
}

#[test]
fn havoc_with_invariants_verifies_a_loop() {
    let (code, out, _) = focuscheck(&["verify", "programs/vc/invariant.c", "--loops", "havoc", "--stats"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("verified: no check can fail: the loop invariants are inductive"),
        "{out}"
    );
    assert!(out.contains("invariant at line 8: 0 <= i (given)"), "{out}");
    // Unrolled once, the same loop is only bounded.
    let (_, out, _) = focuscheck(&["verify", "programs/vc/invariant.c"]);
    assert!(out.contains("bounded"), "{out}");
}

#[test]
fn a_wrong_user_invariant_is_a_warning() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("bad_inv.c");
    std::fs::write(
        &path,
        "int main(void) {\n  int i = 0;\n  /*@ loop invariant i < 5; */\n  while (i < 10) i++;\n  return 0;\n}\n",
    )
    .expect("write");
    let (code, out, _) = focuscheck(&["verify", path.to_str().expect("path"), "--loops", "havoc"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("loop invariant `i < 5` may not be maintained (invariant)"),
        "{out}"
    );
}

#[test]
fn verified_without_loops_and_exit_codes() {
    let (code, out, _) = focuscheck(&["verify", "programs/examples/abs_safe.c"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("`main`: verified"), "{out}");
    let (code, _, err) = focuscheck(&["verify", "programs/vc/seed_example.c", "--loops", "unroll:x"]);
    assert_eq!(code, 2);
    assert!(err.contains("expected `unroll:K`"), "{err}");
    let (code, _, err) = focuscheck(&["verify", "no/such/file.c"]);
    assert_eq!(code, 2);
    assert!(err.contains("no such file"), "{err}");
}

#[test]
fn user_conditions_and_directories() {
    let (code, out, _) = focuscheck(&["verify", "programs/paper/minmax.c"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("the condition `error` may hold (user)"), "{out}");
    assert_eq!(replays_reach_errors(&out), 1);
    let (_, out, _) = focuscheck(&["verify", "programs/vc", "--format", "jsonl"]);
    let docs: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(docs.len(), 9, "{out}");
    for d in &docs {
        let r = d["procedures"][0]["result"].as_str().expect("result");
        assert!(["verified", "warnings", "bounded", "unknown"].contains(&r), "{d}");
    }
}

#[test]
fn sarif_has_a_code_flow_per_warning() {
    let (_, out, _) = focuscheck(&["verify", "programs/vc/calls.c", "--format", "sarif"]);
    let log: Value = serde_json::from_str(&out).expect("SARIF is JSON");
    assert_eq!(log["version"], "2.1.0");
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 2);
    for r in results {
        let steps = r["codeFlows"][0]["threadFlows"][0]["locations"]
            .as_array()
            .expect("a flow");
        assert!(steps.len() >= 2, "{r}");
        assert_eq!(r["level"], "error", "confirmed warnings are errors: {r}");
    }
}

#[test]
fn kinduction_proves_what_havoc_cannot() {
    for mode in ["havoc", "kinduction:1"] {
        let (code, out, _) = focuscheck(&["verify", "programs/vc/kinduction.c", "--loops", mode]);
        assert_eq!(code, 1, "{mode}: {out}");
        assert!(
            out.contains("possible assertion failure: `assert(A[0] == 0)`"),
            "{mode}: {out}"
        );
        assert!(out.contains("0 confirmed"), "{mode}: {out}");
    }
    let (code, out, _) = focuscheck(&["verify", "programs/vc/kinduction.c", "--loops", "kinduction:2"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("verified: no check can fail: k-induction with k = 2"),
        "{out}"
    );
    // The base case finds real errors: the bug after two iterations.
    let (code, out, _) = focuscheck(&["verify", "programs/vc/loop_unroll.c", "--loops", "kinduction:2"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("status: confirmed"), "{out}");
    assert_eq!(replays_reach_errors(&out), 1);
    let (code, _, err) = focuscheck(&["verify", "programs/vc/kinduction.c", "--loops", "kinduction:0"]);
    assert_eq!(code, 2);
    assert!(err.contains("`kinduction:K` (K >= 1)"), "{err}");
}

/// `check --engine`: the JSON names the engine of each verdict.
fn check_json(file: &str, engine: &str) -> (i32, Value) {
    // A generous clock: the verdicts rest on resource limits, not on the
    // machine's load (under load the 24-element case ran past 60 s).
    let (code, out, err) = focuscheck(&[
        "check",
        file,
        "--engine",
        engine,
        "--format",
        "json",
        "--timeout",
        "600",
    ]);
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    (code, doc)
}

#[test]
fn check_auto_proves_what_the_datalog_engine_leaves_unknown() {
    let file = "programs/vc/entry_relation.c";
    let (code, doc) = check_json(file, "fsum");
    // Nothing found, something unknown: exit 3.
    assert_eq!(code, 3);
    assert_eq!(doc["conditions"][0]["verdict"], "unknown", "{doc}");
    assert_eq!(doc["conditions"][0]["engine"], "fsum", "{doc}");
    let (code, doc) = check_json(file, "auto");
    assert_eq!(code, 0, "{doc}");
    let c = &doc["conditions"][0];
    assert_eq!(c["verdict"], "safe", "{doc}");
    assert_eq!(c["engine"], "vc", "{doc}");
    let reason = c["reason"].as_str().expect("reason");
    assert!(
        reason.starts_with("the VC engine proves it (--loops havoc)"),
        "{reason}"
    );
    assert!(reason.contains("the Datalog engine left it unknown"), "{reason}");
    // Alone, the VC engine decides it too, exploring nothing.
    let (code, doc) = check_json(file, "vc");
    assert_eq!(code, 0, "{doc}");
    assert_eq!(doc["conditions"][0]["verdict"], "safe", "{doc}");
    assert_eq!(doc["states"], 0, "{doc}");
    // The text report says which engine decided.
    let (code, out, _) = focuscheck(&["check", file, "--verbose"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("safe: assertion `assert(res == a + b)`")
            && out.contains("    engine: vc: the VC engine proves it (--loops havoc)"),
        "{out}"
    );
}

#[test]
fn check_auto_confirms_an_error_by_replay() {
    let file = "programs/vc/deep_bug.c";
    let (_, doc) = check_json(file, "fsum");
    assert_eq!(doc["conditions"][0]["verdict"], "unknown", "{doc}");
    for engine in ["auto", "vc"] {
        let (code, doc) = check_json(file, engine);
        assert_eq!(code, 1, "{doc}");
        let c = &doc["conditions"][0];
        assert_eq!(c["verdict"], "unsafe", "{doc}");
        assert_eq!(c["engine"], "vc", "{doc}");
        assert!(
            c["reason"].as_str().expect("reason").contains("replays to the error"),
            "{doc}"
        );
        // Explained from its own run: an FSS assuming the value of `n`,
        // reduced to a NEST, in every format.
        assert_eq!(c["explained_from"], "run", "{doc}");
        assert!(c.get("no_fss").is_none(), "{doc}");
        let f = &c["fss"][0];
        assert!(
            f["assumptions"]
                .as_array()
                .is_some_and(|a| a.iter().any(|x| x["vars"][0] == "n")),
            "{f}"
        );
        assert!(
            c["reduced"][0]["nest"]
                .as_array()
                .is_some_and(|n| n.contains(&12.into())),
            "{c}"
        );
        let (_, sarif, _) = focuscheck(&["check", file, "--engine", engine, "--format", "sarif"]);
        let sarif: serde_json::Value = serde_json::from_str(&sarif).expect("SARIF");
        let result = &sarif["runs"][0]["results"][0];
        assert!(
            result["codeFlows"].as_array().is_some_and(|f| !f.is_empty()),
            "{result}"
        );
        let (_, text, _) = focuscheck(&["check", file, "--engine", engine]);
        assert!(
            text.contains("(1 FSS, 1 after Reduce)") && text.contains("NEST"),
            "{text}"
        );
        // The counterexample runs as `focuscheck run` prints it.
        let n = c["inputs"]["n"].as_i64().expect("an input n");
        let (code, out, _) = focuscheck(&["run", file, "--input", &format!("n={n}")]);
        assert_eq!(code, 1, "{out}");
        assert!(out.contains("result: error"), "{out}");
    }
}

/// Bits through shifts and masks, exactly: the Morton code of two bytes
/// computed bit by bit in a loop and by masks agrees (the loop unrolled
/// to its end, after the havoc mode runs out of Z3's resources: that must
/// not stop the modes after it), and a wrong mask is found with a
/// counterexample whose replay reaches the error.
#[test]
fn morton_code_two_ways_proved_and_a_wrong_mask_found() {
    let (code, out, err) = focuscheck(&["check", "--engine", "vc", "programs/vc/morton.c"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("0 unsafe, 0 unknown, 5 safe"), "{out}");
    let text = std::fs::read_to_string("programs/vc/morton.c").expect("morton.c");
    assert!(text.contains("& 0x3333u"));
    let dir = std::env::temp_dir().join(format!("focuscheck-morton-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bug = dir.join("morton_bug.c");
    std::fs::write(&bug, text.replace("& 0x3333u", "& 0x3337u")).expect("write");
    let bug = bug.to_str().expect("utf-8 path");
    let (code, out, err) = focuscheck(&["check", "--engine", "vc", bug]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("1 unsafe, 0 unknown, 4 safe"), "{out}");
    assert!(out.contains("unsafe: call `reach_error()`"), "{out}");
    let replay = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("replay: focuscheck "))
        .expect("a replay command");
    let args: Vec<&str> = replay.split(' ').collect();
    let (code, out, _) = focuscheck(&args);
    assert_eq!(code, 1, "replay `{replay}`:\n{out}");
    assert!(out.contains("result: error"), "{out}");
    std::fs::remove_dir_all(&dir).ok();
}

/// A checked signed sum is assumed in range only after its overflow
/// check: reading its bits (`& 255`) must not make the check pass.
#[test]
fn overflow_before_a_mask_is_found() {
    let dir = std::env::temp_dir().join(format!("focuscheck-ovf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("ovf.c");
    let text = "extern int __VERIFIER_nondet_int(void);\nint main(void) {\n    int a = __VERIFIER_nondet_int();\n    int b = __VERIFIER_nondet_int();\n    int y = (a + b) & 255;\n    return y;\n}\n";
    std::fs::write(&file, text).expect("write");
    let file = file.to_str().expect("utf-8 path");
    for engine in ["vc", "auto"] {
        let (code, out, err) = focuscheck(&["check", "--engine", engine, "--property", "no-overflow", file]);
        assert_eq!(code, 1, "--engine {engine}:\n{out}{err}");
        assert!(
            out.contains("unsafe: signed overflow in `(a + b)`"),
            "--engine {engine}:\n{out}"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The xor of an array is the xor of any permutation of it (SV-COMP's
/// `xor1` shape): with loops of a constant bound the VC engine unrolls
/// them in full (`unroll:K` past the plan, `engines::constant_unroll`),
/// reads an element written at a constant index as the value written, and
/// keeps an xor of drawn bits as their set, so the equality is decided by
/// construction. A permutation that loses an element is found and replays.
#[test]
fn xor_of_a_permuted_array_is_proved_and_a_lost_element_found() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let program = |n: usize, last: &str| {
        format!(
            "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n\
             int xor(int x[{n}]) {{\n  long long r = x[0];\n  for (int i = 1; i < {n}; i++)\n    r = r ^ x[i];\n  return r;\n}}\n\
             int main(void) {{\n  int x[{n}];\n  for (int i = 0; i < {n}; i++)\n    x[i] = __VERIFIER_nondet_int();\n\
             \x20 int a = xor(x);\n  int t = x[0];\n  x[0] = x[1];\n  x[1] = t;\n  int b = xor(x);\n\
             \x20 t = x[0];\n  for (int i = 0; i < {n} - 1; i++)\n    x[i] = x[i + 1];\n  x[{n} - 1] = {last};\n\
             \x20 int c = xor(x);\n  if (a != b || a != c)\n    reach_error();\n  return 0;\n}}\n"
        )
    };
    for n in [3, 24] {
        let path = dir.path().join(format!("xor{n}.c"));
        std::fs::write(&path, program(n, "t")).expect("write");
        let f = path.to_str().expect("utf-8");
        let (code, doc) = check_json(f, "vc");
        assert_eq!(code, 0, "n = {n}: {doc:#}");
        let reach = doc["conditions"]
            .as_array()
            .expect("conditions")
            .iter()
            .find(|c| c["kind"] == "reach_error")
            .expect("the reach_error call");
        assert_eq!(reach["verdict"], "safe", "n = {n}: {doc:#}");
        assert!(reach["reason"].to_string().contains("--loops unroll:"), "{reach}");
    }
    // The rotation drops the first element: some input tells.
    let path = dir.path().join("lost.c");
    std::fs::write(&path, program(3, "0")).expect("write");
    let f = path.to_str().expect("utf-8");
    let (code, doc) = check_json(f, "vc");
    assert_eq!(code, 1, "{doc:#}");
    let (_, out, _) = focuscheck(&["check", f, "--engine", "vc"]);
    assert!(out.contains("unsafe: call `reach_error()`"), "{out}");
    let replay = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("replay: focuscheck "))
        .expect("a replay command");
    let args: Vec<String> = replay.split(' ').map(|a| a.trim_matches('\'').to_string()).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, ran, _) = focuscheck(&args);
    assert_eq!(code, 1, "{ran}");
    assert!(ran.contains("result: error"), "{ran}");
}
