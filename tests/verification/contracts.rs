//! Contracts and their explained VCs as a user reads them
//! (`focuscheck verify --vcs`, seed 002): the seed's NegateFirst (its bug
//! fails exactly the VC of the "then" branch, blaming the array update; the
//! fix proves every VC), the four-assignment example (the failed VC blames
//! the assignment responsible), a precondition that fails at one call site
//! only, binary search and array max (proved), and ACSL errors located in
//! the file. Over pointers (issue 30): NegateFirst as the seed writes it,
//! with an array parameter, and swap with `\valid`, `\separated`,
//! `\old(*p)` and `assigns *a, *b`: their VCs, their FSSs and NESTs.

use crate::cli;

use cli::focuscheck;
use serde_json::Value;

/// Every VC of a file, as JSON.
fn vcs(file: &str) -> (i32, Vec<Value>) {
    let (code, out, err) = focuscheck(&["verify", file, "--vcs", "all", "--format", "json"]);
    assert!(err.is_empty(), "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
    let all = doc["functions"]
        .as_array()
        .expect("functions")
        .iter()
        .flat_map(|f| f["vcs"].as_array().expect("vcs").clone())
        .collect();
    (code, all)
}

fn failed(all: &[Value]) -> Vec<&Value> {
    all.iter().filter(|v| v["status"] == "failed").collect()
}

fn labels(vc: &Value) -> Vec<(String, u64)> {
    vc["given"]
        .as_array()
        .expect("given")
        .iter()
        .map(|g| {
            (
                g["label"].as_str().unwrap_or("").to_string(),
                g["line"].as_u64().unwrap_or(0),
            )
        })
        .collect()
}

#[test]
fn four_assignments_blame_the_assignment_responsible() {
    let (code, all) = vcs("programs/contracts/four_assignments.c");
    assert_eq!(code, 1);
    let bad = failed(&all);
    assert_eq!(bad.len(), 1, "{all:#?}");
    let vc = bad[0];
    assert_eq!(vc["kind"], "ens_post");
    assert_eq!(vc["show"]["line"], 6);
    // `z = 4` (line 12) makes `z == 3` false: the code is wrong there.
    assert_eq!(vc["wrong"], true);
    assert_eq!(vc["blame"], serde_json::json!([12]));
    assert_eq!(vc["replayed"], true);

    let (_, out, _) = focuscheck(&["verify", "programs/contracts/four_assignments.c"]);
    assert!(
        out.contains("These make it false: the assignment `z = 4` at line 12."),
        "{out}"
    );
    assert!(
        out.contains("show that the postcondition at line 6 holds when `main` returns"),
        "{out}"
    );
}

#[test]
fn negate_first_bug_fails_exactly_the_then_branch() {
    let (code, all) = vcs("programs/contracts/negate_first_bug.c");
    assert_eq!(code, 1);
    let bad = failed(&all);
    assert_eq!(bad.len(), 1, "{all:#?}");
    assert!(all.iter().all(|v| v["status"] != "unknown"), "{all:#?}");
    let vc = bad[0];
    assert_eq!(vc["function"], "NegateFirst");
    assert_eq!(vc["kind"], "ens_post");
    let given = labels(vc);
    for want in [("asm_inv", 18), ("while_t", 21), ("then", 22), ("upd", 23)] {
        assert!(
            given.contains(&(want.0.to_string(), want.1)),
            "{want:?} not in {given:?}"
        );
    }
    assert!(
        vc["purpose"]
            .as_str()
            .unwrap_or("")
            .contains("preserve the loop invariant"),
        "{vc}"
    );
    assert!(
        vc["show"]["text"]
            .as_str()
            .unwrap_or("")
            .contains("after `goto L;` at line 24"),
        "{vc}"
    );
    // The array update is what makes the postcondition false.
    assert_eq!(vc["wrong"], true);
    let blame: Vec<u64> = vc["blame"]
        .as_array()
        .expect("blame")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert!(blame.contains(&23), "{blame:?}");
    assert!(!blame.contains(&26), "{blame:?}");
    // The counterexample starts the iteration on a negative element.
    let i = &vc["at_loop_head"]["i"];
    let i = i.as_i64().expect("i at the loop head") as usize;
    assert!(vc["model"][format!("ia[{i}]")].as_i64().expect("ia[i]") < 0, "{vc}");

    let (code, all) = vcs("programs/contracts/negate_first.c");
    assert_eq!(code, 0, "{all:#?}");
    assert!(all.len() >= 7);
    assert!(all.iter().all(|v| v["status"] == "proved"), "{all:#?}");
    // The same VCs, with the same shapes.
    assert!(all.iter().any(|v| v["kind"] == "ens_inv"));
    assert!(all.iter().any(|v| v["kind"] == "ens_inv_iter"));
    assert!(all.iter().any(|v| v["kind"] == "bounds"));
}

#[test]
fn precondition_fails_at_one_call_site_only() {
    let (code, all) = vcs("programs/contracts/call_precondition.c");
    assert_eq!(code, 1);
    let calls: Vec<&Value> = all.iter().filter(|v| v["kind"] == "ens_specs").collect();
    assert_eq!(calls.len(), 5, "{calls:#?}");
    let bad = failed(&all);
    assert_eq!(bad.len(), 1, "{all:#?}");
    let vc = bad[0];
    assert_eq!(vc["function"], "shifted");
    assert_eq!(vc["kind"], "ens_specs");
    assert!(
        vc["show"]["text"]
            .as_str()
            .unwrap_or("")
            .contains("the precondition of `twice` at line 5 holds at the call at line 19"),
        "{vc}"
    );
    // Nothing contradicts it: `shifted`'s own precondition is too weak.
    assert_eq!(vc["wrong"], false);
    assert!(
        vc["explanation"]
            .as_str()
            .unwrap_or("")
            .contains("precondition at line 17"),
        "{vc}"
    );
    assert!(vc["model"]["x"].as_i64().expect("x") < 10);
    assert_eq!(vc["replayed"], true);
}

#[test]
fn binary_search_and_array_max_are_proved() {
    for f in ["programs/contracts/binary_search.c", "programs/contracts/array_max.c"] {
        let (code, all) = vcs(f);
        assert_eq!(code, 0, "{f}: {all:#?}");
        assert!(all.iter().all(|v| v["status"] == "proved"), "{f}: {all:#?}");
        assert!(all.iter().any(|v| v["kind"] == "ens_inv_iter"), "{f}");
        assert!(all.iter().any(|v| v["kind"] == "ens_post"), "{f}");
    }
    let (code, out, _) = focuscheck(&["verify", "programs/contracts/array_max.c"]);
    assert_eq!(code, 0);
    assert!(out.contains("`max`: 13 VCs: 13 proved, 0 failed, 0 unknown"), "{out}");
}

#[test]
fn a_goto_loop_is_cut_at_its_label() {
    let (code, all) = vcs("programs/contracts/goto_loop.c");
    assert_eq!(code, 0, "{all:#?}");
    assert!(all.iter().all(|v| v["status"] == "proved"), "{all:#?}");
    let iter: Vec<&Value> = all.iter().filter(|v| v["kind"] == "ens_inv_iter").collect();
    assert_eq!(iter.len(), 1, "{all:#?}");
    let show = iter[0]["show"]["text"].as_str().unwrap_or("");
    assert!(show.contains("the invariant of label `again` at line 10"), "{show}");
    assert!(show.contains("after `goto again;` at line 15"), "{show}");
    // The pre-loop assignments are cut away from the iteration's VC.
    assert!(
        !labels(iter[0]).contains(&("asgn".to_string(), 8)),
        "{:?}",
        labels(iter[0])
    );
}

#[test]
fn sarif_and_plain_files() {
    let (code, out, _) = focuscheck(&["verify", "programs/contracts/four_assignments.c", "--format", "sarif"]);
    assert_eq!(code, 1);
    let doc: Value = serde_json::from_str(&out).expect("sarif");
    let results = doc["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), 1, "{out}");
    assert_eq!(results[0]["ruleId"], "ens_post");
    assert!(
        results[0]["message"]["text"].as_str().unwrap_or("").contains("line 12"),
        "{out}"
    );
    // `--vcs` on a file without contracts: the entry's checks as VCs.
    let (code, out, _) = focuscheck(&["verify", "programs/vc/seed_example.c", "--vcs"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("show that the index in `A[j]` at 14:7 is within the array's bounds."),
        "{out}"
    );
    assert!(out.contains("`main`: 3 VCs: 1 proved, 2 failed, 0 unknown"), "{out}");
    // Loop invariants alone still go to the other engine.
    let (code, out, _) = focuscheck(&["verify", "programs/vc/invariant.c", "--loops", "havoc"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("verified"), "{out}");
}

#[test]
fn every_vc_reads_as_the_seed_form() {
    let (_, out, _) = focuscheck(&["verify", "programs/contracts/negate_first_bug.c", "--vcs", "all"]);
    let blocks: Vec<&str> = out.split("\n\n").filter(|b| b.starts_with("VC ")).collect();
    assert!(blocks.len() >= 7, "{out}");
    for b in blocks {
        let first = b.lines().next().unwrap_or("");
        assert!(first.contains("(lines ") && first.contains(", function "), "{b}");
        assert!(b.contains("Its purpose is"), "{b}");
        assert!(b.contains("how that") || b.contains("Show that"), "{b}");
    }
}

#[test]
fn acsl_errors_are_located() {
    let dir = std::env::temp_dir().join(format!("focuscheck-acsl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cases = [
        (
            "int x;\n/*@ requires x > ; */\nvoid main(void) {}\n",
            "2:18: expected a term",
        ),
        (
            "/*@ ensures \\forall int k; k > 0; */\nvoid main(void) {}\n",
            "1:13: the quantified variable `k` has no bounds",
        ),
        (
            "/*@ requires y > 0; */\nvoid main(void) {}\n",
            "1:14: `y` is not a variable visible here",
        ),
        (
            "void main(void) {\n  //@ assert \\result == 0;\n}\n",
            "2:14: `\\result` is only allowed",
        ),
        (
            "/*@ loop variant 3; */\nvoid main(void) {}\n",
            "1:10: `loop` `variant` is not supported",
        ),
        (
            "void main(void) {\n  int x = 0;\n  /*@ loop invariant x >= 0; */\n  x = 1;\n}\n",
            "3:3: a loop invariant must be right before a loop",
        ),
        (
            "int x;\n/*@ requires x > 0; */\nint y;\nvoid main(void) {}\n",
            "2:1: a function contract must be right before",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let path = dir.join(format!("bad{i}.c"));
        std::fs::write(&path, text).expect("write");
        let p = path.to_string_lossy().to_string();
        for cmd in ["parse", "verify", "check"] {
            let (code, out, err) = focuscheck(&[cmd, &p]);
            let err = format!("{out}{err}");
            assert_eq!(code, 2, "{cmd} {text}\n{err}");
            let want = format!("error: {p}:{want}");
            assert!(err.contains(&want), "{cmd} {text}: wanted `{want}` in\n{err}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The unsafe conditions of `check FILE --format json`.
fn check_unsafe(file: &str) -> Vec<Value> {
    let (_, out, err) = focuscheck(&["check", file, "--format", "json"]);
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    doc["conditions"]
        .as_array()
        .expect("conditions")
        .iter()
        .filter(|c| c["verdict"] == "unsafe")
        .cloned()
        .collect()
}

fn lines_of(v: &Value) -> Vec<u64> {
    v.as_array().expect("lines").iter().filter_map(Value::as_u64).collect()
}

#[test]
fn negate_first_with_an_array_parameter() {
    // The fix: every VC proved, for whatever array of `Length` elements a
    // caller passes (`\valid`), the frame `assigns ia[0..Length-1]` too.
    let (code, all) = vcs("programs/contracts/negate_first_param.c");
    assert_eq!(code, 0, "{all:#?}");
    assert!(all.iter().all(|v| v["status"] == "proved"), "{all:#?}");
    for kind in ["ens_inv", "ens_inv_iter", "ens_post", "deref"] {
        assert!(all.iter().any(|v| v["kind"] == kind), "no {kind} VC: {all:#?}");
    }

    // The bug fails exactly the VC of the "then" branch, blaming the array
    // update on line 19, as the seed's explanation does.
    let (code, all) = vcs("programs/contracts/negate_first_param_bug.c");
    assert_eq!(code, 1);
    let bad = failed(&all);
    assert_eq!(bad.len(), 1, "{all:#?}");
    let vc = bad[0];
    assert_eq!(
        (vc["function"].as_str(), vc["kind"].as_str()),
        (Some("NegateFirst"), Some("ens_post"))
    );
    let given = labels(vc);
    for want in [("asm_pre", 8), ("asm_inv", 15), ("while_t", 17), ("upd", 19)] {
        assert!(
            given.contains(&(want.0.to_string(), want.1)),
            "{want:?} not in {given:?}"
        );
    }
    assert_eq!(vc["wrong"], true);
    assert!(lines_of(&vc["blame"]).contains(&19), "{vc}");
    // The counterexample: the array is `data` seen from some offset, its
    // element at the loop head negative.
    let model = &vc["model"];
    let off = model["ia.off"].as_i64().expect("ia.off");
    let i = vc["at_loop_head"]["i"].as_i64().expect("i");
    assert!(
        model[format!("data[{}]", off + i)].as_i64().expect("the element") < 0,
        "{vc}"
    );
    // The text names the pointer as C does, and the accesses by object.
    let (_, out, _) = focuscheck(&["verify", "programs/contracts/negate_first_param_bug.c"]);
    assert!(out.contains("Counterexample: ia = &data["), "{out}");
    assert!(out.contains("`ia[i] = ia[i]` at line 19 accesses `data[...]`"), "{out}");
    assert!(!out.contains("ia.off") && !out.contains("::("), "{out}");

    // `check` finds a run breaking the postcondition; the FSS and its NEST
    // hold the buggy line.
    let bad = check_unsafe("programs/contracts/negate_first_param_bug.c");
    assert_eq!(bad.len(), 1, "{bad:#?}");
    assert_eq!(
        (bad[0]["kind"].as_str(), bad[0]["line"].as_i64()),
        (Some("assert"), Some(9))
    );
    let fss = &bad[0]["fss"][0];
    assert!(cli::fss_lines(fss).contains(&19), "{fss}");
    assert!(lines_of(&fss["nest"]).contains(&19), "{fss}");
    assert!(fss["assumptions"].to_string().contains("< 0"), "{fss}");
    assert!(check_unsafe("programs/contracts/negate_first_param.c").is_empty());
}

#[test]
fn swap_through_pointers_with_a_contract() {
    let (code, all) = vcs("programs/contracts/swap.c");
    assert_eq!(code, 1);
    let bad = failed(&all);
    assert!(!bad.is_empty(), "{all:#?}");
    // Only the postcondition fails: the accesses are valid (`\valid`),
    // the frame holds, and `main`'s call meets the precondition.
    assert!(
        bad.iter().all(|v| v["kind"] == "ens_post" && v["function"] == "swap"),
        "{bad:#?}"
    );
    for vc in &bad {
        assert_eq!(vc["replayed"], true, "{vc}");
        let given = labels(vc);
        assert!(given.contains(&("asgn".to_string(), 13)), "{given:?}");
    }
    let (_, out, _) = focuscheck(&["verify", "programs/contracts/swap.c"]);
    assert!(
        out.contains("a = &x, b = &y") || out.contains("a = &y, b = &x"),
        "{out}"
    );

    // Without `\separated`, swapping a cell with itself keeps it: proved.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("swap_fixed.c");
    let text = std::fs::read_to_string("programs/contracts/swap.c").expect("swap.c");
    let fixed = text.replace("  *a = *b;\n  *b = *a;\n", "  int t = *a;\n  *a = *b;\n  *b = t;\n");
    std::fs::write(&path, fixed.replace(" && \\separated(a, b)", "")).expect("write");
    let (code, all) = vcs(path.to_str().expect("utf-8"));
    assert_eq!(code, 0, "{all:#?}");
    // Without `\valid(b)` the accesses `*b` may be invalid: they fail (and
    // a run that gets past them has a valid `b`: the rest is proved).
    std::fs::write(&path, fixed.replace(" && \\valid(b)", "")).expect("write");
    let (code, all) = vcs(path.to_str().expect("utf-8"));
    assert_eq!(code, 1);
    let bad = failed(&all);
    assert!(!bad.is_empty() && bad.iter().all(|v| v["kind"] == "deref"), "{bad:#?}");
    assert!(
        bad.iter().all(|v| v["show"]["text"].to_string().contains("`*b")),
        "{bad:#?}"
    );

    // `check`: the run, its FSS and NEST hold the wrong assignment.
    let bad = check_unsafe("programs/contracts/swap.c");
    assert_eq!(bad.len(), 1, "{bad:#?}");
    let fss = &bad[0]["fss"][0];
    assert!(cli::fss_lines(fss).contains(&13), "{fss}");
    assert!(lines_of(&fss["nest"]).contains(&13), "{fss}");
}

/// Reading through an invalid pointer, a check is violated (both engines)
/// and the entry's precondition excludes the run.
#[test]
fn annotations_reading_invalid_memory() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("inv.c");
    let text = "int x = 1;\n\
                /*@ requires *p >= 0;\n    ensures *q == 1; */\n\
                void f(int *p, int *q) {\n  if (q) *q = 1;\n}\n\
                int main(void) {\n  f(&x, 0);\n  return 0;\n}\n";
    std::fs::write(&path, text).expect("write");
    let f = path.to_str().expect("utf-8");
    // `ensures *q == 1` with `q` NULL: violated, in `verify` and in `check`
    // (the same run); `*p >= 0` holds wherever `p` is valid.
    let (code, all) = vcs(f);
    assert_eq!(code, 1);
    let bad = failed(&all);
    assert!(
        bad.iter().any(|v| v["kind"] == "ens_post" && v["replayed"] == true),
        "{bad:#?}"
    );
    let bad = check_unsafe(f);
    assert_eq!(bad.len(), 1, "{bad:#?}");
    assert_eq!(
        (bad[0]["kind"].as_str(), bad[0]["line"].as_i64()),
        (Some("assert"), Some(3))
    );
}

/// `verify --entry f` on `file`: its exit code and `f`'s VCs.
fn verify_f(file: &str) -> (i32, Vec<Value>) {
    let (code, out, err) = focuscheck(&["verify", file, "--entry", "f", "--vcs", "all", "--format", "json"]);
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    (code, doc["functions"][0]["vcs"].as_array().expect("vcs").clone())
}

/// `check --entry f` on `file` with `engine`, four elements per parameter
/// (the Datalog engine splits a read at an unknown element of an array its
/// parameters share per element): the postcondition's verdict.
fn post_verdict(file: &str, engine: &str) -> String {
    let args = [
        "check",
        file,
        "--entry",
        "f",
        "--engine",
        engine,
        "--param-elems",
        "4",
        "--format",
        "json",
    ];
    let (_, out, err) = focuscheck(&args);
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    let conds = doc["conditions"].as_array().expect("conditions").clone();
    let post = conds
        .iter()
        .find(|c| c["condition"].as_str().is_some_and(|t| t.contains("ensures")))
        .unwrap_or_else(|| panic!("a postcondition: {doc:#}"));
    post["verdict"].as_str().unwrap_or("").to_string()
}

/// Issue 50: the entry's pointer parameters of one type may point to the
/// same place, unless the contract says `\separated`. `f(&a, &a)` with
/// `a == 5` returns 1, so the postcondition is false there: `verify` must
/// not prove it and `check` must find it in every engine; with
/// `\separated(p, q)` both prove it.
#[test]
fn entry_parameters_that_may_alias() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "/*@ requires \\valid(p) && \\valid(q);\n    ensures \\result == \\old(*q);\n    assigns *p; */\nint f(int *p, int *q) { *p = 1; return *q; }\n";
    let alias = cli::write(dir.path(), "alias.c", text);
    let alias_file = alias.clone();
    let apart = cli::write(
        dir.path(),
        "apart.c",
        &text.replace("\\valid(q);", "\\valid(q) && \\separated(p, q);"),
    );
    let (code, all) = verify_f(&alias);
    assert_eq!(code, 1, "{all:#?}");
    let bad = failed(&all);
    assert!(
        !bad.is_empty() && bad.iter().all(|v| v["kind"] == "ens_post"),
        "{bad:#?}"
    );
    assert!(bad.iter().any(|v| v["replayed"] == true), "{bad:#?}");
    let (code, all) = verify_f(&apart);
    assert_eq!(code, 0, "{:#?}", failed(&all));
    assert!(all.iter().all(|v| v["status"] == "proved"), "{all:#?}");

    for engine in ["fsum", "vc", "auto"] {
        let verdict = |file: &str| post_verdict(file, engine);
        assert_eq!(verdict(&alias), "unsafe", "{engine}");
        assert_eq!(verdict(&apart), "safe", "{engine}");
    }
    // The runs of `f(&a, &a)` and `f(a, a + 1)`, `*p == 5`: `p` points to
    // element 15 of the array they may share (input 1), `q` to element
    // `k - 1` (input `k`), and the postcondition fails where they meet.
    let run = |p_at: &str, q_at: &str| {
        let input = |v: String| ["--input".to_string(), v];
        let mut args: Vec<String> = ["run", &alias_file, "--entry", "f", "--fill", "0"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        for v in [
            "p=1".to_string(),
            "q=1".to_string(),
            "(p,q)@entry[15]=5".to_string(),
            "(p,q)@entry::(bytes)=184".to_string(),
            "p@entry::(bytes)=4".to_string(),
            "q@entry::(bytes)=4".to_string(),
            format!("p@entry::(shared)={p_at}"),
            format!("q@entry::(shared)={q_at}"),
        ] {
            args.extend(input(v));
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        focuscheck(&args).1
    };
    for (p_at, q_at, fails) in [
        ("1", "16", true),
        ("0", "0", false),
        ("1", "1", false),
        ("1", "17", false),
    ] {
        let out = run(p_at, q_at);
        let failed = out.contains("ensures");
        assert_eq!(failed, fails, "p at {p_at}, q at {q_at}:\n{out}");
        assert!(failed || out.contains("finished without error"), "{out}");
    }
}

/// Issue 50: pointer parameters of one type may also point into one array
/// at different elements (`f(a, a + 1)`): with `q == p + 1`, `p[1] = 1`
/// writes `*q`, so the postcondition is false there though it holds
/// wherever `q == p` or the arrays are apart (`verify` proved it when only
/// the same address was modelled). `\separated(p + (0..1), q)` proves it.
#[test]
fn entry_parameters_may_point_into_one_array_at_different_elements() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "/*@ requires \\valid(p + (0..1)) && \\valid(q);\n    ensures \\result == \\old(*q);\n    assigns p[1]; */\nint f(int *p, int *q) { p[1] = 1; return *q; }\n";
    let overlap = cli::write(dir.path(), "overlap.c", text);
    let apart = cli::write(
        dir.path(),
        "apart.c",
        &text.replace("\\valid(q);", "\\valid(q) && \\separated(p + (0..1), q);"),
    );
    let (code, all) = verify_f(&overlap);
    assert_eq!(code, 1, "{all:#?}");
    let bad = failed(&all);
    assert!(
        !bad.is_empty() && bad.iter().all(|v| v["kind"] == "ens_post"),
        "{bad:#?}"
    );
    assert!(bad.iter().any(|v| v["replayed"] == true), "{bad:#?}");
    let (code, all) = verify_f(&apart);
    assert_eq!(code, 0, "{:#?}", failed(&all));
    for engine in ["vc", "auto"] {
        let verdict = |file: &str| post_verdict(file, engine);
        assert_eq!(verdict(&overlap), "unsafe", "{engine}");
        assert_eq!(verdict(&apart), "safe", "{engine}");
    }
    // The run of `f(a, a + 1)`: `p` at element 3 of the shared array (the
    // first parameter's place with four elements each), `q` at element 4.
    let (_, out, _) = focuscheck(&[
        "run",
        &overlap,
        "--entry",
        "f",
        "--fill",
        "0",
        "--param-elems",
        "4",
        "--input",
        "p=1",
        "--input",
        "q=1",
        "--input",
        "p@entry::(shared)=1",
        "--input",
        "q@entry::(shared)=5",
        "--input",
        "(p,q)@entry::(bytes)=40",
        "--input",
        "(p,q)@entry[4]=7",
    ]);
    assert!(out.contains("ensures"), "{out}");
}

/// A call past the inlining depth is havocked in the contract engine too:
/// what it calls is not verified, so the file is unknown (exit 3) and says
/// which function, not "every VC proved" (a `reach_error` six calls deep
/// was passed over).
#[test]
fn a_recursion_past_the_inlining_depth_is_not_proved() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("deep.c");
    std::fs::write(
        &file,
        "void reach_error(void);\nint f(int n) {\n  if (n == 5) reach_error();\n  if (n > 0) return f(n - 1);\n  \
         return 0;\n}\nint main(void) {\n  int x = 0;\n  /*@ assert x == 0; */\n  f(10);\n  return 0;\n}\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let (code, out, _) = focuscheck(&["verify", file]);
    assert_eq!(code, 3, "{out}");
    assert!(
        out.contains("not verified: calls of `f` deeper than the inlining depth"),
        "{out}"
    );
    let (code, out, _) = focuscheck(&["verify", file, "--format", "json"]);
    assert_eq!(code, 3, "{out}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["functions"][0]["not_verified"], serde_json::json!(["f"]), "{doc}");
}

/// The heap model's limit of an entry parameter's array is a condition of
/// each function that reaches it: one first reached in a function the
/// entry never calls had no condition in the entry's run (an internal
/// error, "every site of a reachable procedure has a condition").
#[test]
fn a_limit_reached_from_the_entry_alone_is_its_condition() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "/*@ requires \\valid_read(p + (0..1)); */\nint f0(int *p) { return p[1]; }\n/*@ requires n >= 0 && \\valid(p + (0..n)); */\nint f1(int *p, int n) { return p[n]; }\n";
    let file = cli::write(dir.path(), "limit.c", text);
    for engine in ["fsum", "auto"] {
        let (code, out, err) = focuscheck(&["check", &file, "--entry", "f1", "--engine", engine]);
        assert!(
            !out.contains("internal error") && !err.contains("internal error"),
            "{engine}: {out}{err}"
        );
        assert_eq!(code, 3, "{engine}: {out}{err}");
        assert!(out.contains("--param-elems limit at `p[n]`"), "{engine}: {out}");
    }
}
