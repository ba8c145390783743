//! `focuscheck diff`: verdicts, the replayed difference and the NEST, on a
//! hand-made pair with a known divergence, small pairs written here, and a
//! TCAS version from the shared corpus.

use serde_json::Value;
use std::path::{Path, PathBuf};

use crate::cli;
use crate::ptr_gen;
use crate::shared;
use cli::focuscheck;

fn diff_json(reference: &str, new: &str, extra: &[&str]) -> (i32, Value) {
    let mut args = vec!["diff", reference, new, "--format", "json"];
    args.extend_from_slice(extra);
    let (code, stdout, stderr) = focuscheck(&args);
    let doc = serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("not JSON ({e}):\n{stdout}\n{stderr}"));
    (code, doc)
}

/// The condition that decides the verdict.
fn deciding(doc: &Value) -> &Value {
    let i = doc["decided_by"].as_u64().expect("a deciding condition") as usize;
    &doc["conditions"][i]
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

const SHIP_REF: &str = "programs/diff/shipping_ref.c";
const SHIP_NEW: &str = "programs/diff/shipping_new.c";

#[test]
fn a_file_is_equivalent_to_itself() {
    let (code, stdout, _) = focuscheck(&["diff", SHIP_REF, SHIP_REF, "--entry", "shipping"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains(": equivalent"), "{stdout}");
}

#[test]
fn the_changed_threshold_is_found_replayed_and_localised() {
    let (code, doc) = diff_json(SHIP_REF, SHIP_NEW, &["--entry", "shipping"]);
    assert_eq!(code, 1);
    assert_eq!(doc["verdict"], "differs");
    // The difference is at the changed boundary: an order of exactly 50.
    let obs = &doc["observations"];
    assert!(obs["inputs"].as_str().unwrap().contains("total = 50"), "{obs}");
    // Replayed on each version alone: the reference ships for free, the new
    // version charges.
    assert_eq!(obs["reference"], "returns 0", "{obs}");
    let new = obs["new"].as_str().unwrap();
    assert!(new.starts_with("returns ") && new != "returns 0", "{obs}");
    // The top NEST is the new version's, at the changed test (line 14), not
    // at the refactored weight fee (line 9), which cannot change a result.
    let top = &deciding(&doc)["reduced"][0];
    assert_eq!(top["at"], 14, "{top}");
    let nest: Vec<u64> = top["nest"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert!(nest.contains(&14), "{nest:?}");
    // The NEST holds the new version's statements only; the reference's
    // appear in the FSS, marked as such.
    assert!(
        top["statements"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["version"] == "new"),
        "{top}"
    );
    let rank = top["rank"].as_u64().unwrap() as usize;
    let fss = &deciding(&doc)["fss"][rank - 1]["statements"];
    assert!(
        fss.as_array().unwrap().iter().any(|s| s["version"] == "reference"),
        "{fss}"
    );
}

#[test]
fn the_text_report_names_lines_by_version() {
    let (code, stdout, _) = focuscheck(&["diff", SHIP_REF, SHIP_NEW, "--entry", "shipping"]);
    assert_eq!(code, 1);
    assert!(stdout.contains(": differs"), "{stdout}");
    assert!(stdout.contains("ref:14"), "{stdout}");
    assert!(
        stdout.contains("in the block of the conditional at line 14"),
        "{stdout}"
    );
    assert!(stdout.contains("    if (total > free_from)"), "{stdout}");
}

#[test]
fn a_refactoring_is_equivalent_and_the_references_failures_are_cut() {
    let dir = tempfile::tempdir().unwrap();
    // REF rejects negative x with an assertion; NEW does not check. Outside
    // the reference's domain nothing is compared, so the versions agree.
    let r = write(
        dir.path(),
        "ref.c",
        "int twice(int x) {\n  assert(x >= 0);\n  return x * 2;\n}\n",
    );
    let n = write(dir.path(), "new.c", "int twice(int x) {\n  return x + x;\n}\n");
    let (code, doc) = diff_json(&r, &n, &["--entry", "twice"]);
    assert_eq!(doc["verdict"], "equivalent", "{doc}");
    assert_eq!(code, 0);
    // The other way round, NEW's own assertion failure is a divergence.
    let (code, doc) = diff_json(&n, &r, &["--entry", "twice"]);
    assert_eq!(code, 1);
    assert_eq!(doc["verdict"], "differs");
    assert!(
        doc["reason"]
            .as_str()
            .unwrap()
            .contains("fails where the reference does not"),
        "{doc}"
    );
    assert!(
        doc["observations"]["new"].as_str().unwrap().starts_with("fails"),
        "{doc}"
    );
}

#[test]
fn an_off_by_one_bound_is_a_new_failure() {
    let dir = tempfile::tempdir().unwrap();
    let table = "int t[4] = {1, 2, 3, 4};\n";
    let r = write(
        dir.path(),
        "ref.c",
        &format!("{table}int get(int i) {{\n  if (i < 0 || i >= 4)\n    return 0;\n  return t[i];\n}}\n"),
    );
    let n = write(
        dir.path(),
        "new.c",
        &format!("{table}int get(int i) {{\n  if (i < 0 || i > 4)\n    return 0;\n  return t[i];\n}}\n"),
    );
    let (code, doc) = diff_json(&r, &n, &["--entry", "get"]);
    assert_eq!(code, 1);
    assert_eq!(doc["verdict"], "differs");
    assert!(
        doc["observations"]["inputs"].as_str().unwrap().contains("i = 4"),
        "{doc}"
    );
    let top = &deciding(&doc)["reduced"][0];
    let nest: Vec<u64> = top["nest"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert!(nest.contains(&3), "the changed test is in the NEST: {top}");
}

#[test]
fn globals_are_observed_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let r = write(
        dir.path(),
        "ref.c",
        "int total;\nvoid add(int x) {\n  total = total + x;\n}\n",
    );
    let n = write(
        dir.path(),
        "new.c",
        "int total;\nvoid add(int x) {\n  if (x > 0)\n    total = total + x;\n}\n",
    );
    let (code, doc) = diff_json(&r, &n, &["--entry", "add", "--observe", "globals"]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(doc["observed"], serde_json::json!(["total"]));
    let new = doc["observations"]["new"].as_str().unwrap();
    assert!(new.starts_with("ends with total = "), "{new}");
    // Without `--observe globals` a void entry has nothing to compare.
    let (code, _, stderr) = focuscheck(&["diff", &r, &n, "--entry", "add"]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("--observe globals") && stderr.contains(":2:"),
        "{stderr}"
    );
}

#[test]
fn bad_input_is_reported_against_its_file() {
    let dir = tempfile::tempdir().unwrap();
    let ok = write(dir.path(), "ok.c", "int f(int x) {\n  return x;\n}\n");
    let bad = write(dir.path(), "bad.c", "int f(int x) {\n  return x +;\n}\n");
    let (code, _, stderr) = focuscheck(&["diff", &ok, &bad, "--entry", "f"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("bad.c:2:"), "{stderr}");
    let (code, _, stderr) = focuscheck(&["diff", &ok, &ok, "--entry", "nope"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("nope"), "{stderr}");
    let (code, _, stderr) = focuscheck(&["diff", &ok, "/nonexistent.c", "--entry", "f"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("/nonexistent.c"), "{stderr}");
}

fn tcas() -> PathBuf {
    shared::shared("corpus/tcas/orig/tcas.c");
    shared::shared("corpus/tcas")
}

#[test]
fn tcas_original_is_equivalent_to_itself() {
    let orig = tcas().join("orig/tcas.c");
    let orig = orig.to_str().unwrap();
    let (code, doc) = diff_json(orig, orig, &["--entry", "alt_sep_test", "--init", "initialize"]);
    assert_eq!(doc["verdict"], "equivalent", "{}", doc["reason"]);
    assert_eq!(code, 0);
}

#[test]
fn tcas_version_1_differs_at_its_faulty_comparison() {
    let dir = tcas();
    let (orig, v1) = (dir.join("orig/tcas.c"), dir.join("v1/tcas.c"));
    let (code, doc) = diff_json(
        orig.to_str().unwrap(),
        v1.to_str().unwrap(),
        &["--entry", "alt_sep_test", "--init", "initialize"],
    );
    assert_eq!(code, 1);
    assert_eq!(doc["verdict"], "differs");
    // faults.tsv: v1's fault is its line 75 (`>=` became `>`).
    let faults = std::fs::read_to_string(dir.join("faults.tsv")).unwrap();
    let line: u64 = faults
        .lines()
        .find_map(|l| l.strip_prefix("v1\t"))
        .and_then(|rest| rest.split('\t').next())
        .and_then(|n| n.parse().ok())
        .expect("v1 in faults.tsv");
    let top = &deciding(&doc)["reduced"][0];
    let nest: Vec<u64> = top["nest"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert!(nest.contains(&line), "NEST {nest:?} misses line {line}");
    assert!(
        nest.iter().collect::<std::collections::BTreeSet<_>>().len() <= 5,
        "{nest:?}"
    );
}

/// The top NEST of a TCAS version: its distinct lines.
fn tcas_top_nest(version: &str) -> (std::collections::BTreeSet<u64>, u64) {
    let dir = tcas();
    let (orig, v) = (dir.join("orig/tcas.c"), dir.join(version).join("tcas.c"));
    let (code, doc) = diff_json(
        orig.to_str().unwrap(),
        v.to_str().unwrap(),
        &["--entry", "alt_sep_test", "--init", "initialize"],
    );
    assert_eq!(code, 1);
    assert_eq!(doc["verdict"], "differs");
    let faults = std::fs::read_to_string(dir.join("faults.tsv")).unwrap();
    let line: u64 = faults
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{version}\t")))
        .and_then(|rest| rest.split('\t').next())
        .and_then(|n| n.parse().ok())
        .expect("the version in faults.tsv");
    let top = &deciding(&doc)["reduced"][0];
    let nest = top["nest"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    (nest, line)
}

#[test]
fn tcas_faults_in_definitions_are_in_the_nest() {
    // v7 changes a value of `initialize`'s threshold table, v13 a `#define`:
    // the NEST's values come from those definitions, so their lines belong
    // to it, and it stays a handful of lines.
    for version in ["v7", "v13"] {
        let (nest, line) = tcas_top_nest(version);
        assert!(nest.contains(&line), "{version}: NEST {nest:?} misses line {line}");
        assert!(nest.len() <= 5, "{version}: {nest:?}");
    }
}

#[test]
fn a_changed_definition_is_in_the_nest() {
    let dir = tempfile::tempdir().unwrap();
    let reference = "#define LIMIT 100\nint table[2];\nvoid init() { table[0] = 10; table[1] = 20; }\nint pick(int k, int v) {\n  int r;\n  r = 0;\n  if (v > LIMIT) r = 1;\n  if (k == 1 && v > table[1]) r = r + 2;\n  return r;\n}\n";
    let a = write(dir.path(), "ref.c", reference);
    // A new value in the table: the NEST is the comparison that reads it and
    // the assignment that set it.
    let b = write(
        dir.path(),
        "table.c",
        &reference.replace("table[1] = 20", "table[1] = 25"),
    );
    let (code, doc) = diff_json(&a, &b, &["--entry", "pick", "--init", "init"]);
    assert_eq!(code, 1, "{doc}");
    let nest = deciding(&doc)["reduced"][0]["nest"].clone();
    assert!(nest.as_array().unwrap().contains(&3.into()), "{nest}");
    // A new `#define` value: its line is in the NEST, listed as a definition.
    let c = write(dir.path(), "define.c", &reference.replace("LIMIT 100", "LIMIT 90"));
    let (code, doc) = diff_json(&a, &c, &["--entry", "pick", "--init", "init"]);
    assert_eq!(code, 1, "{doc}");
    let top = &deciding(&doc)["reduced"][0];
    assert!(top["nest"].as_array().unwrap().contains(&1.into()), "{top}");
    assert_eq!(top["definitions"][0]["text"], "#define LIMIT 90", "{top}");
}

#[test]
fn the_output_names_only_the_versions_lines() {
    for view in ["reduced", "fss", "full"] {
        let (code, stdout, _) = focuscheck(&["diff", SHIP_REF, SHIP_NEW, "--entry", "shipping", "--view", view]);
        assert_eq!(code, 1);
        for internal in [
            "__ref_",
            "__new_result",
            "__reference_result",
            "(product)",
            "product:",
            "$t",
        ] {
            assert!(
                !stdout.contains(internal),
                "--view {view} shows `{internal}`:\n{stdout}"
            );
        }
    }
    let (_, doc) = diff_json(SHIP_REF, SHIP_NEW, &["--entry", "shipping"]);
    let text = doc.to_string();
    assert!(!text.contains("__ref_") && !text.contains("__new_result"), "{text}");
}

#[test]
fn the_printed_replays_give_each_versions_result() {
    let (_, stdout, _) = focuscheck(&["diff", SHIP_REF, SHIP_NEW, "--entry", "shipping"]);
    let cmds: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("replay: "))
        .collect();
    let of = |label: &str| {
        let cmd = cmds
            .iter()
            .find_map(|c| c.strip_prefix(label))
            .expect("a replay per version");
        let words: Vec<&str> = cmd.split_whitespace().collect();
        assert_eq!(&words[..2], ["focuscheck", "run"], "{cmd}");
        let (code, out, err) = focuscheck(&words[1..]);
        assert_eq!(code, 0, "{cmd}:\n{out}{err}");
        out
    };
    // The reference ships for free, the new version charges (as the
    // observations say).
    assert!(of("REF: ").contains("`shipping` returned 0"), "{stdout}");
    let new = of("NEW: ");
    assert!(
        new.contains("`shipping` returned ") && !new.contains("returned 0"),
        "{new}"
    );
}

/// Two versions of a program with a struct and the heap: the product holds
/// both versions' definitions of `struct counter` (REF's renamed apart; once
/// "defined twice"), and each version's `malloc`'d object its own.
#[test]
fn versions_with_structs_and_the_heap_are_compared() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = std::fs::read_to_string("programs/memory/buffer.c").expect("programs/memory/buffer.c");
    assert!(text.contains("i <= n"), "the example's bug moved");
    let fixed = write(dir.path(), "fixed.c", &text.replace("i <= n", "i < n"));
    let (code, doc) = diff_json(&fixed, "programs/memory/buffer.c", &["--entry", "main"]);
    assert_eq!(code, 1, "{doc:#}");
    assert_eq!(doc["verdict"], "differs", "{doc:#}");
    let (code, doc) = diff_json(&fixed, &fixed, &["--entry", "main"]);
    assert_eq!(code, 0, "{doc:#}");
    assert_eq!(doc["verdict"], "equivalent", "{doc:#}");
}

#[test]
fn struct_globals_are_each_versions_own_and_share_their_inputs() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // REF's run must not change NEW's struct, and both read one input.
    let text = "struct P { int a; int b; };\nstruct Q { struct P ps[3]; int n; } q;\nstruct P arr[3];\n\
                int g(int i) {\n  if (i < 0 || i >= 3) return 0;\n  arr[i].a = arr[i].a + 1;\n  \
                return arr[i].a + q.ps[i].b + q.n;\n}\n";
    let same = write(dir.path(), "same.c", text);
    for observe in ["return", "globals"] {
        let (code, doc) = diff_json(&same, &same, &["--entry", "g", "--observe", observe]);
        assert_eq!(code, 0, "{doc:#}");
        assert_eq!(doc["verdict"], "equivalent", "--observe {observe}: {doc:#}");
    }
    let changed = write(dir.path(), "changed.c", &text.replace("q.ps[i].b", "q.ps[i].a"));
    let (code, doc) = diff_json(&same, &changed, &["--entry", "g"]);
    assert_eq!(code, 1, "{doc:#}");
    assert_eq!(doc["verdict"], "differs", "{doc:#}");
    let obs = &doc["observations"];
    assert_ne!(obs["new"], obs["reference"], "the replays must disagree: {doc:#}");
}

/// What `focuscheck run ARGS` says the entry returned.
fn returned(args: &[&str]) -> String {
    let (_, out, err) = focuscheck(args);
    out.lines()
        .find_map(|l| {
            l.split_once("` returned ")
                .map(|(_, v)| v.split_whitespace().next().unwrap_or("").to_string())
        })
        .unwrap_or_else(|| panic!("no result of {args:?}:\n{out}{err}"))
}

/// Versions with pointer and struct parameters, from the generator
/// (`support/ptr_gen.rs`): each is equivalent to itself; a mutant that
/// differs has replays that give the two results; one found equivalent
/// returns what the reference does on sampled inputs.
/// By default four seeds that take about a second each (seeds 1 and 3 take
/// 20 to 50 s, in the Datalog engine); `FOCUSCHECK_DIFF_PROGRAMS=N` checks
/// seeds `0..N`.
#[test]
fn generated_pointer_functions_are_compared() {
    let seeds: Vec<u64> = match std::env::var("FOCUSCHECK_DIFF_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        Some(n) => (0..n).collect(),
        None => vec![0, 2, 4, 5],
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut differs = 0;
    for seed in seeds {
        let (a, b) = ptr_gen::entry_function(seed);
        let reference = write(dir.path(), &format!("ref{seed}.c"), &a);
        let new = write(dir.path(), &format!("new{seed}.c"), &b);
        let (code, out, err) = focuscheck(&["diff", &reference, &reference, "--entry", "f"]);
        assert_eq!(code, 0, "seed {seed}:\n{a}\n{out}{err}");
        assert!(out.contains(": equivalent"), "seed {seed}:\n{out}");
        let (code, out, err) = focuscheck(&["diff", &reference, &new, "--entry", "f"]);
        // The harness's setup of the arguments is never shown as such.
        assert!(
            !out.contains("__ref_") && !out.contains("calloc"),
            "seed {seed}:\n{out}"
        );
        if out.contains(": differs") {
            assert_eq!(code, 1, "seed {seed}:\n{out}{err}");
            differs += 1;
            let results: Vec<String> = ["REF: ", "NEW: "]
                .iter()
                .map(|label| {
                    let cmd = out
                        .lines()
                        .find_map(|l| l.trim_start().strip_prefix("replay: ")?.strip_prefix(label))
                        .unwrap_or_else(|| panic!("seed {seed}: no {label}replay:\n{out}"));
                    let words: Vec<&str> = cmd.split_whitespace().map(|w| w.trim_matches('\'')).collect();
                    returned(&words[1..])
                })
                .collect();
            assert_ne!(
                results[0], results[1],
                "seed {seed}: the replays agree:\n{a}\n{b}\n{out}"
            );
        } else {
            assert!(
                out.contains(": equivalent"),
                "seed {seed}: {code}\n{a}\n{b}\n{out}{err}"
            );
            for fill in ["0", "1", "-3"] {
                for n in ["0", "3"] {
                    let run =
                        |f: &str| returned(&["run", f, "--entry", "f", "--fill", fill, "--input", &format!("n={n}")]);
                    assert_eq!(
                        run(&reference),
                        run(&new),
                        "seed {seed}, fill {fill}, n = {n}:\n{a}\n{b}"
                    );
                }
            }
        }
    }
    assert!(differs > 0, "no generated mutant differs");
}
