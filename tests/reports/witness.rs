//! `check --witness DIR`: every unsafe verdict on `programs/` and the
//! SV-COMP corpus gets a violation witness (format 2.0) or a reason; every
//! witness parses as YAML, validates against the schema written from the
//! format's text (`tests/witness/schema.json`), names its input file by
//! its SHA-256, puts each `function_return` at the `)` of a nondet call,
//! and the interpreter, following its waypoints only (`focuscheck run
//! --witness`), calls the error at the target's line and column.
//! Every program whose verdict is safe gets a correctness witness
//! (`invariant_set`) or a reason; every one is valid against the schema,
//! puts each `loop_invariant` at a loop's keyword, and `focuscheck verify
//! PROGRAM --witness W` re-proves the program with its invariants only.
//! Set `FOCUSCHECK_WITNESS_ALL=1` to check every corpus folder, not only
//! `svcomp` and `programs`.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

pub(crate) fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Block-style YAML of the subset a witness uses (mappings, sequences,
/// scalars written as JSON), as a JSON value; `Err` on anything else.
fn parse_yaml(src: &str) -> Result<Value, String> {
    // Lines as (indent, text); `- X` at k becomes a dash at k and X at k+2.
    let mut toks: Vec<(usize, Option<String>)> = Vec::new();
    for line in src.lines().filter(|l| !l.trim().is_empty()) {
        let mut ind = line.len() - line.trim_start().len();
        let mut rest = line.trim_start();
        while let Some(r) = rest.strip_prefix("- ") {
            toks.push((ind, None));
            ind += 2;
            rest = r;
        }
        toks.push((ind, Some(rest.to_string())));
    }
    let mut i = 0;
    let v = node(&toks, &mut i)?;
    if i != toks.len() {
        return Err(format!("unparsed text from line token {i}"));
    }
    Ok(v)
}

/// A JSON value at the start of `s`; the rest.
fn json_prefix(s: &str) -> Result<(Value, &str), String> {
    let mut it = serde_json::Deserializer::from_str(s).into_iter::<Value>();
    let v = it.next().ok_or("no value")?.map_err(|e| e.to_string())?;
    Ok((v, &s[it.byte_offset()..]))
}

fn node(toks: &[(usize, Option<String>)], i: &mut usize) -> Result<Value, String> {
    let ind = toks.get(*i).ok_or("missing value")?.0;
    if toks[*i].1.is_none() {
        let mut items = Vec::new();
        while *i < toks.len() && toks[*i].0 == ind && toks[*i].1.is_none() {
            *i += 1;
            items.push(node(toks, i)?);
        }
        return Ok(Value::Array(items));
    }
    let first = toks[*i].1.as_deref().unwrap();
    let (v, rest) = json_prefix(first)?;
    if !rest.trim_start().starts_with(':') {
        *i += 1;
        return Ok(v);
    }
    let mut map = serde_json::Map::new();
    while *i < toks.len() && toks[*i].0 == ind {
        let Some(line) = toks[*i].1.as_deref() else { break };
        let (k, rest) = json_prefix(line)?;
        let k = k.as_str().ok_or("a key that is not a string")?.to_string();
        let rest = rest.trim_start().strip_prefix(':').ok_or("a key without `:`")?.trim();
        *i += 1;
        let v = if rest.is_empty() {
            if toks.get(*i).is_none_or(|t| t.0 <= ind) {
                return Err(format!("`{k}:` without a value"));
            }
            node(toks, i)?
        } else {
            json_prefix(rest)?.0
        };
        if map.insert(k.clone(), v).is_some() {
            return Err(format!("key `{k}` twice"));
        }
    }
    Ok(Value::Object(map))
}

fn sha256(path: &str) -> String {
    let out = Command::new("sha256sum").arg(path).output().unwrap();
    text(&out.stdout).split_whitespace().next().unwrap().to_string()
}

/// The validator of `tests/witness/schema.json`.
pub(crate) fn schema_validator() -> jsonschema::Validator {
    let root = env!("CARGO_MANIFEST_DIR");
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{root}/tests/witness/schema.json")).unwrap()).unwrap();
    jsonschema::draft7::new(&schema).expect("the witness schema compiles")
}

/// Checks one witness of `program`; the error when it is wrong.
pub(crate) fn check_witness(
    root: &str,
    validator: &jsonschema::Validator,
    program: &str,
    file: &Path,
) -> Result<(), String> {
    let doc = parse_yaml(&std::fs::read_to_string(file).unwrap())?;
    if let Err(e) = validator.validate(&doc) {
        return Err(format!("not valid against the schema: {e}"));
    }
    let entry = &doc[0];
    let task = &entry["metadata"]["task"];
    if task["input_files"][0] != program || task["input_file_hashes"][program] != sha256(program) {
        return Err(format!("task names another file or hash: {task}"));
    }
    let source = std::fs::read_to_string(program).unwrap();
    let lines: Vec<&str> = source.lines().collect();
    let mut target = None;
    for seg in entry["content"].as_array().unwrap() {
        let ways = seg["segment"].as_array().unwrap();
        let last = &ways.last().unwrap()["waypoint"];
        if last["action"] != "follow"
            || ways[..ways.len() - 1]
                .iter()
                .any(|w| w["waypoint"]["action"] == "follow")
        {
            return Err("a segment must end in its one follow waypoint".into());
        }
        if target.is_some() {
            return Err("a segment after the target".into());
        }
        let loc = &last["location"];
        if loc["file_name"] != program {
            return Err(format!("a waypoint in another file: {loc}"));
        }
        let (line, col) = (
            loc["line"].as_u64().unwrap() as usize,
            loc["column"].as_u64().unwrap() as usize,
        );
        let at: Vec<char> = lines.get(line - 1).ok_or("no such line")?.chars().collect();
        match last["type"].as_str().unwrap() {
            "function_return" => {
                let before: String = at[..col.min(at.len())].iter().collect();
                if at.get(col - 1) != Some(&')') || !before.contains("__VERIFIER_nondet_") {
                    return Err(format!(
                        "function_return at {line}:{col} is not the `)` of a nondet call"
                    ));
                }
                let c = last["constraint"]["value"].as_str().unwrap();
                if !c.starts_with("\\result == ") && c != "\\result != \\result" {
                    return Err(format!("constraint `{c}`"));
                }
            }
            "branching" => {
                let rest: String = at[(col - 1).min(at.len())..].iter().collect();
                let word = rest.split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or("");
                let c = &last["constraint"]["value"];
                if !["if", "while", "for"].contains(&word) || !(c == "true" || c == "false") {
                    return Err(format!(
                        "branching at {line}:{col} (`{word}`, {c}) is not at a condition's keyword"
                    ));
                }
            }
            "assumption" => {
                // At a statement within a block; `x == V` conjunctions.
                let before: String = lines[..line - 1].join("\n") + "\n" + &at[..col - 1].iter().collect::<String>();
                let c = last["constraint"]["value"].as_str().unwrap();
                let eqs = c.split(" && ").all(|e| e.contains(" == ") || e.contains(" != "));
                if !before.trim_end().ends_with([';', '{', '}', ':']) || !eqs {
                    return Err(format!("assumption `{c}` at {line}:{col} is not at a statement"));
                }
            }
            "target" => target = Some(format!("{program}:{line}:{col}")),
            t => return Err(format!("unexpected waypoint type {t}")),
        }
    }
    let target = target.ok_or("no target")?;
    let (said, code) = follow(root, program, file);
    if code != Some(1) || !said.contains(&format!("is called at {target} ")) || !said.contains("witness: confirmed") {
        return Err(format!(
            "the run that follows the witness's waypoints does not reach {target}:\n{said}"
        ));
    }
    Ok(())
}

/// `focuscheck run PROGRAM --witness FILE`: what it says and its exit code.
pub(crate) fn follow(root: &str, program: &str, file: &Path) -> (String, Option<i32>) {
    let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .current_dir(root)
        .args(["run", program, "--color", "never", "--witness"])
        .arg(file)
        .output()
        .unwrap();
    (text(&out.stdout) + &text(&out.stderr), out.status.code())
}

/// What `check --witness` wrote over some programs.
struct Written {
    /// Unsafe verdicts.
    unsafe_count: usize,
    /// Violation witnesses, as `(program:line, file)`.
    made: Vec<(String, String)>,
    /// Reasons given for an error without a violation witness.
    none: usize,
    /// Correctness witnesses, as `(program, file)`.
    proofs: Vec<(String, String)>,
    /// The witnesses that fail `check_witness` or `check_correctness`.
    wrong: Vec<String>,
    /// The programs whose check the `--timeout` guard cut short.
    truncated: Vec<String>,
}

/// `check --witness` over `dirs` (with `extra` options), every witness
/// written checked; the counts per folder printed.
fn written_witnesses(dirs: &[String], extra: &[&str], dir: &Path) -> Written {
    let root = env!("CARGO_MANIFEST_DIR");
    let validator = schema_validator();
    let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .current_dir(root)
        .arg("check")
        .args(dirs)
        .args(extra)
        .args(["--format", "json", "--color", "never", "--witness"])
        .arg(dir)
        .env("SOURCE_DATE_EPOCH", "0")
        .output()
        .unwrap();
    let docs: Value = serde_json::from_slice(&out.stdout).unwrap();
    let docs = docs.as_array().unwrap();
    let unsafe_count: usize = docs
        .iter()
        .flat_map(|d| d["conditions"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["verdict"] == "unsafe")
        .count();
    let err = text(&out.stderr);
    let made: Vec<(String, String)> = err
        .lines()
        .filter_map(|l| l.split_once(": violation witness "))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let none = err.lines().filter(|l| l.contains(": no violation witness: ")).count();
    // One line per unsafe verdict until a program's witness is written.
    assert!(
        made.len() + none <= unsafe_count && unsafe_count > 0,
        "{unsafe_count} unsafe\n{err}"
    );
    let mut wrong = Vec::new();
    for (at, file) in &made {
        let (program, _line) = at.rsplit_once(':').unwrap();
        if let Err(e) = check_witness(root, &validator, program, Path::new(file)) {
            wrong.push(format!("{file}: {e}"));
        }
    }
    let safe: Vec<String> = docs
        .iter()
        .filter(|d| {
            let conds = d["conditions"].as_array();
            d["status"] == "checked" && conds.is_some_and(|c| c.iter().all(|c| c["verdict"] == "safe"))
        })
        .filter_map(|d| d["file"].as_str().map(str::to_string))
        .collect();
    let proofs: Vec<(String, String)> = err
        .lines()
        .filter_map(|l| l.split_once(": correctness witness "))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let mut counts: BTreeMap<String, [usize; 5]> = BTreeMap::new();
    let folder = |f: &str| {
        dirs.iter()
            .filter(|d| f.starts_with(d.as_str()))
            .max_by_key(|d| d.len())
            .cloned()
            .unwrap_or_default()
    };
    for f in &safe {
        counts.entry(folder(f)).or_default()[0] += 1;
    }
    for (program, file) in &proofs {
        let c = counts.entry(folder(program)).or_default();
        c[1] += 1;
        match check_correctness(root, &validator, program, Path::new(file)) {
            Ok(invariants) => {
                c[2] += 1;
                c[3] += 1;
                c[4] += usize::from(invariants > 0);
            }
            Err((valid, e)) => {
                c[2] += usize::from(valid);
                wrong.push(format!("{file}: {e}"));
            }
        }
    }
    for (dir, [safe, written, valid, confirmed, nontrivial]) in &counts {
        eprintln!(
            "{dir}: {safe} safe verdicts, {written} correctness witnesses, {valid} schema-valid, \
             {confirmed} confirmed, {nontrivial} with invariants"
        );
    }
    let said = err.lines().filter(|l| l.contains(": no correctness witness: ")).count();
    assert!(
        proofs.len() + said == safe.len(),
        "{} safe, {} said\n{err}",
        safe.len(),
        proofs.len() + said
    );
    let truncated = (docs.iter())
        .filter(|d| d["truncated"] == true)
        .filter_map(|d| d["file"].as_str().map(str::to_string))
        .collect();
    Written {
        unsafe_count,
        made,
        none,
        proofs,
        wrong,
        truncated,
    }
}

/// Checks one correctness witness of `program`: the number of its
/// invariants, or whether it is schema-valid and what is wrong.
pub(crate) fn check_correctness(
    root: &str,
    validator: &jsonschema::Validator,
    program: &str,
    file: &Path,
) -> Result<usize, (bool, String)> {
    let doc = parse_yaml(&std::fs::read_to_string(file).unwrap()).map_err(|e| (false, e))?;
    if let Err(e) = validator.validate(&doc) {
        return Err((false, format!("not valid against the schema: {e}")));
    }
    let entry = &doc[0];
    let task = &entry["metadata"]["task"];
    if entry["entry_type"] != "invariant_set"
        || task["input_files"][0] != program
        || task["input_file_hashes"][program] != sha256(program)
    {
        return Err((true, format!("not an invariant set of {program}: {entry}")));
    }
    let source = std::fs::read_to_string(program).unwrap();
    let lines: Vec<&str> = source.lines().collect();
    let items = entry["content"].as_array().unwrap();
    for item in items {
        let inv = &item["invariant"];
        let loc = &inv["location"];
        let (line, col) = (
            loc["line"].as_u64().unwrap() as usize,
            loc["column"].as_u64().unwrap() as usize,
        );
        let at: String = lines[line - 1].chars().skip(col - 1).collect();
        let word = at.split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap_or("");
        if inv["type"] != "loop_invariant" || !["while", "for", "do"].contains(&word) || inv["value"] == "" {
            return Err((true, format!("not a loop invariant at a loop's keyword: {item}")));
        }
    }
    let (said, code) = validate(root, program, file);
    if code != Some(0) || !said.starts_with("witness: confirmed") {
        return Err((true, format!("not re-proved by `verify --witness`:\n{said}")));
    }
    Ok(items.len())
}

/// `focuscheck verify PROGRAM --witness FILE`: what it says and its exit
/// code.
pub(crate) fn validate(root: &str, program: &str, file: &Path) -> (String, Option<i32>) {
    let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .current_dir(root)
        .args(["verify", program, "--color", "never", "--witness"])
        .arg(file)
        .output()
        .unwrap();
    (text(&out.stdout) + &text(&out.stderr), out.status.code())
}

#[test]
fn witnesses_are_valid_and_replay_into_their_target() {
    let root = env!("CARGO_MANIFEST_DIR");
    let corpus = format!("{root}/../shared/corpus");
    let mut dirs = vec![format!("{corpus}/svcomp"), "programs".to_string()];
    if std::env::var_os("FOCUSCHECK_WITNESS_ALL").is_some() {
        dirs.extend(["svcomp-c", "svcomp-float", "svcomp-fnptr", "svcomp-heap"].map(|d| format!("{corpus}/{d}")));
    }
    // Which verdicts a file gets within the 5 s guard depends on the
    // machine's load, so this test asserts no count: only that what is
    // written is right (the counts are asserted below, on tasks checked
    // with count budgets only).
    let w = written_witnesses(
        &dirs,
        &["--timeout", "5", "--no-explain"],
        tempfile::tempdir().unwrap().path(),
    );
    eprintln!(
        "{} unsafe verdicts, {} witnesses written, {} reasons; {} files cut by the clock",
        w.unsafe_count,
        w.made.len(),
        w.none,
        w.truncated.len()
    );
    assert!(w.wrong.is_empty(), "{}", w.wrong.join("\n"));
}

/// SV-COMP tasks whose check ends within its count budgets (states,
/// steps, Z3's rlimit) in seconds: the `--timeout` guard (ten minutes)
/// cuts none of them, so what is written does not depend on the
/// machine's load.
const COUNTED_TASKS: [&str; 16] = [
    "locks/test_locks_14-1.c",
    "locks/test_locks_6.c",
    "loop-acceleration/array_1-1.c",
    "loop-acceleration/multivar_1-2.c",
    "loop-acceleration/nested_1-1.c",
    "loop-acceleration/underapprox_1-1.c",
    "loop-lit/afnp2014.i",
    "loop-lit/gcnr2008.i",
    "loop-lit/gj2007.i",
    "loop-lit/gsv2008.i",
    "loop-lit/hhk2008.i",
    "loop-lit/jm2006.i",
    "loop-simple/nested_1.c",
    "loop-simple/nested_1b.c",
    "loops/sum01-1.i",
    "loops/sum04-2.i",
];

/// Each task of `COUNTED_TASKS` gets the witness its expected verdict
/// (SV-COMP's, `index.tsv`) calls for, confirmed: a violation witness
/// that replays by its waypoints for `false`, a correctness witness whose
/// invariants re-prove the program for `true`.
#[test]
fn each_counted_task_gets_the_witness_its_expected_verdict_calls_for() {
    let root = env!("CARGO_MANIFEST_DIR");
    let corpus = format!("{root}/../shared/corpus/svcomp");
    let index = std::fs::read_to_string(format!("{corpus}/index.tsv")).unwrap();
    let expected: BTreeMap<&str, &str> = (index.lines())
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((f.next()?, f.next()?))
        })
        .collect();
    let dirs: Vec<String> = COUNTED_TASKS.iter().map(|t| format!("{corpus}/{t}")).collect();
    let dir = tempfile::tempdir().unwrap();
    let w = written_witnesses(&dirs, &["--timeout", "600", "--no-explain"], dir.path());
    assert!(w.truncated.is_empty(), "cut by the clock: {:?}", w.truncated);
    assert!(w.wrong.is_empty(), "{}", w.wrong.join("\n"));
    let violations: Vec<&str> = w
        .made
        .iter()
        .filter_map(|(at, _)| at.rsplit_once(':'))
        .map(|(p, _)| p)
        .collect();
    let proofs: Vec<&str> = w.proofs.iter().map(|(p, _)| p.as_str()).collect();
    for (task, program) in COUNTED_TASKS.iter().zip(&dirs) {
        let (has, kind) = match expected[task] {
            "false" => (violations.contains(&program.as_str()), "violation"),
            "true" => (proofs.contains(&program.as_str()), "correctness"),
            v => panic!("{task}: expected verdict {v}"),
        };
        assert!(has, "{task}: no confirmed {kind} witness");
    }
    assert_eq!(violations.len() + proofs.len(), COUNTED_TASKS.len());
}

/// With explanations, the witness holds a `branching` waypoint per
/// decision of a condition the top FSS holds, and still replays.
#[test]
fn witnesses_of_explained_errors_have_branching_waypoints() {
    let root = env!("CARGO_MANIFEST_DIR");
    let corpus = format!("{root}/../shared/corpus");
    let dirs = [
        "programs/examples/goto_error.c".to_string(),
        format!("{corpus}/svcomp/loops/sum01-1.i"),
        format!("{corpus}/svcomp-c/ldv-regression/test21-2.c"),
    ];
    let dir = tempfile::tempdir().unwrap();
    let w = written_witnesses(&dirs, &["--timeout", "600"], dir.path());
    assert!(w.truncated.is_empty(), "cut by the clock: {:?}", w.truncated);
    assert!(w.wrong.is_empty(), "{}", w.wrong.join("\n"));
    assert_eq!(w.made.len(), dirs.len(), "{:?}", w.made);
    for (at, file) in &w.made {
        let w = std::fs::read_to_string(file).unwrap();
        assert!(
            w.contains("\"type\": \"branching\""),
            "{at}: no branching waypoint:\n{w}"
        );
    }
}

/// `verify --write-witness` (the VC engine's confirmed warning) and
/// `diagnose --witness` (the oracle's run into a real bug) write the
/// violation witness `check --witness` would: schema-valid, and the run
/// that follows its waypoints reaches the error.
#[test]
fn verify_and_diagnose_write_violation_witnesses_that_replay() {
    let root = env!("CARGO_MANIFEST_DIR");
    let validator = schema_validator();
    let dir = tempfile::tempdir().unwrap();
    let gcnr = format!("{root}/../shared/corpus/svcomp/loop-lit/gcnr2008.i");
    let late = "tests/witness/late_bug.c";
    for (program, args) in [
        (gcnr.as_str(), vec!["verify", "--write-witness"]),
        (late, vec!["diagnose", "--oracle", "run", "--no-infer", "--witness"]),
    ] {
        let file = dir.path().join(format!("{}.yml", args[0]));
        let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
            .current_dir(root)
            .args([args[0], program, "--color", "never"])
            .args(&args[1..])
            .arg(&file)
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{}: {err}", args[0]);
        assert!(
            err.contains(&format!(": violation witness {}", file.display())),
            "{}: {err}",
            args[0]
        );
        if let Err(e) = check_witness(root, &validator, program, &file) {
            panic!("{}: {e}", args[0]);
        }
    }
    // Without a confirmed counterexample (the loop is cut by invariants
    // Houdini finds, `--loops havoc` proves it), nothing is written.
    let safe = format!("{root}/../shared/corpus/svcomp/loop-lit/gsv2008.i");
    let file = dir.path().join("none.yml");
    let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .current_dir(root)
        .args([
            "verify",
            &safe,
            "--loops",
            "havoc",
            "--color",
            "never",
            "--write-witness",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!file.exists());
}

#[test]
fn the_yaml_reader_of_this_test_refuses_what_it_does_not_know() {
    assert!(parse_yaml("- \"a\": 1\n  \"a\": 2\n").is_err());
    assert!(parse_yaml("\"a\":\n").is_err());
    assert_eq!(
        parse_yaml("- \"a\":\n    - 1\n    - \"x\"\n  \"b\": true\n").unwrap(),
        serde_json::json!([{"a": [1, "x"], "b": true}])
    );
}

/// A witness as other tools write it (`tests/witness/goto_error.other.yml`,
/// by hand, PyYAML's layout, avoid waypoints) is confirmed; changed, it is
/// rejected where the run leaves it, or not confirmed, or malformed.
#[test]
fn a_witness_of_another_tool_is_followed_by_its_waypoints() {
    let root = env!("CARGO_MANIFEST_DIR");
    let program = "programs/examples/goto_error.c";
    let original = std::fs::read_to_string(format!("{root}/tests/witness/goto_error.other.yml")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let made = std::cell::Cell::new(0);
    let variant = |from: &str, to: &str| {
        assert!(original.contains(from), "{from}");
        made.set(made.get() + 1);
        let path = dir.path().join(format!("{}.yml", made.get()));
        std::fs::write(&path, original.replacen(from, to, 1)).unwrap();
        follow(root, program, &path)
    };
    let (said, code) = variant("", "");
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("witness: confirmed") && said.contains("called at programs/examples/goto_error.c:17:3"),
        "{said}"
    );
    // c != 'y': the first count does not count, the avoided branch is taken.
    let (said, code) = variant("== 121", "== 120");
    assert_eq!(code, Some(3), "{said}");
    assert!(
        said.contains("witness: rejected: at programs/examples/goto_error.c:24:"),
        "{said}"
    );
    // `if (!flag)` taken: against the waypoint at line 31.
    let (said, code) = variant("value: 'false'", "value: 'true'");
    assert_eq!(code, Some(3), "{said}");
    assert!(
        said.contains("witness: rejected: at programs/examples/goto_error.c:31:"),
        "{said}"
    );
    // The same run, another target.
    let (said, code) = variant("line: 17", "line: 18");
    assert_eq!(code, Some(3), "{said}");
    assert!(said.contains("witness: not confirmed"), "{said}");
    // Malformed: said with the witness's line.
    let (said, code) = variant("    type: target", "    kind: target");
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains(".yml:") && said.contains("missing `type`"), "{said}");
    let (said, code) = variant("value: \\result == 121", "value: \\result > 3");
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("only `\\result == V` is read"), "{said}");
}

use crate::xorshift;

/// Generated programs, one per nondet type, reach the error when the
/// nondet value equals `(T)K` for a random constant `K`: the witness's
/// `\result == V` is `(T)K` as gcc reads it (its `printf` of the value; the
/// types chosen are the same width in ILP32 and on this gcc), and the
/// witness is confirmed by `run --witness`.
#[test]
fn witness_values_are_written_as_c_reads_the_call_type() {
    let root = env!("CARGO_MANIFEST_DIR");
    let types = [
        ("int", "int"),
        ("uint", "unsigned int"),
        ("char", "char"),
        ("uchar", "unsigned char"),
        ("short", "short"),
        ("ushort", "unsigned short"),
        ("bool", "_Bool"),
    ];
    let mut rng = xorshift::Rng(0x5eed_0055);
    let dir = tempfile::tempdir().unwrap();
    let progs = dir.path().join("progs");
    std::fs::create_dir(&progs).unwrap();
    let mut cases = Vec::new();
    for round in 0..2 {
        for (suffix, ty) in types {
            let k = match rng.pick(&["negative", "wide", "small"]) {
                "negative" => -(rng.below(300) as i64) - 1,
                "wide" => rng.below(1 << 33) as i64 - (1 << 32),
                _ => rng.below(70000) as i64,
            };
            let name = format!("{suffix}_{round}");
            let body = format!(
                "  {ty} a = __VERIFIER_nondet_{suffix}();\n  if (a == ({ty})({k}LL))\n    reach_error();\n  return 0;\n}}\n"
            );
            let c = format!("extern void reach_error(void);\nextern {ty} __VERIFIER_nondet_{suffix}(void);\nint main(void) {{\n{body}");
            std::fs::write(progs.join(format!("{name}.c")), &c).unwrap();
            let probe = format!(
                "#include <stdio.h>\nint main(void) {{\n  {ty} a = ({ty})({k}LL);\n  printf(\"%lld\\n\", (long long)a);\n  return 0;\n}}\n"
            );
            let src = dir.path().join(format!("{name}.probe.c"));
            std::fs::write(&src, probe).unwrap();
            let exe = dir.path().join(format!("{name}.probe"));
            let built = Command::new("gcc")
                .args(["-w", "-o"])
                .arg(&exe)
                .arg(&src)
                .output()
                .unwrap();
            assert!(built.status.success(), "{}", text(&built.stderr));
            let value = text(&Command::new(&exe).output().unwrap().stdout).trim().to_string();
            cases.push((name, value));
        }
    }
    let out_dir = dir.path().join("witnesses");
    std::fs::create_dir(&out_dir).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .current_dir(root)
        .arg("check")
        .arg(&progs)
        .args(["--no-explain", "--color", "never", "--witness"])
        .arg(&out_dir)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    for (name, value) in &cases {
        let program = progs.join(format!("{name}.c")).display().to_string();
        let line = err
            .lines()
            .find(|l| l.starts_with(&format!("{program}:")))
            .unwrap_or_else(|| panic!("nothing said about {program}:\n{err}"));
        let (_, file) = line
            .split_once(": violation witness ")
            .unwrap_or_else(|| panic!("{line}"));
        let witness = std::fs::read_to_string(file).unwrap();
        assert!(
            witness.contains(&format!("\"\\\\result == {value}\"")),
            "{name}: gcc reads {value}:\n{witness}"
        );
        let (said, code) = follow(root, &program, Path::new(file));
        assert_eq!(code, Some(1), "{said}");
    }
}

/// `check --witness` on `program` (a file of `dir`): what it said on
/// stderr and the witness's path.
pub(crate) fn witness_of(root: &str, program: &Path, dir: &Path) -> (String, std::path::PathBuf) {
    let w = dir.join("witness.yml");
    let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .current_dir(root)
        .arg("check")
        .arg(program)
        .args(["--no-explain", "--color", "never", "--witness"])
        .arg(&w)
        .output()
        .unwrap();
    (text(&out.stderr), w)
}

/// A run that draws 1,200 values (an array filled from
/// `__VERIFIER_nondet_int`) of which one decides the error gets a witness
/// of a few waypoints, not 1,200: the draws of 0 past the cap have none (a
/// follower fills 0 in), and the witness is still valid, at nondet calls,
/// and confirmed by `run --witness`.
#[test]
fn a_run_of_many_draws_gets_a_witness_of_the_draws_that_matter() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("many_draws.c");
    std::fs::write(
        &program,
        "extern int __VERIFIER_nondet_int(void);\nvoid reach_error(void) {}\nint a[1200];\n\
         int main(void) {\n  for (int i = 0; i < 1200; i++)\n    a[i] = __VERIFIER_nondet_int();\n\
         \x20 if (a[2] > 5)\n    reach_error();\n  return 0;\n}\n",
    )
    .unwrap();
    let (err, w) = witness_of(root, &program, dir.path());
    assert!(err.contains(": violation witness "), "{err}");
    let name = program.display().to_string();
    check_witness(root, &schema_validator(), &name, &w).unwrap();
    let written = std::fs::read_to_string(&w).unwrap();
    let returns = written.matches("function_return").count();
    assert!(
        (1..=3).contains(&returns),
        "{returns} function_return waypoints:\n{written}"
    );
}

/// Floating draws get `function_return` waypoints too: a value C reads
/// back to the same bits (`\result == 0.1` of a `double`, a `float`'s with
/// its `f`), a NaN as `\result != \result`; each witness is valid, at
/// the nondet call, and confirmed by `run --witness`; the same witness
/// with another value is not.
#[test]
fn floating_draws_are_written_so_that_they_read_back() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = tempfile::tempdir().unwrap();
    let head = "extern void reach_error(void);\nextern float __VERIFIER_nondet_float(void);\n\
                extern double __VERIFIER_nondet_double(void);\nint main(void) {\n";
    let cases = [
        (
            "exact_double",
            "  double d = __VERIFIER_nondet_double();\n  if (d == 0.1)\n",
            "\\result == 0.1",
        ),
        (
            "nan_double",
            "  double d = __VERIFIER_nondet_double();\n  if (d != d)\n",
            "\\result != \\result",
        ),
        (
            "nan_float",
            "  float f = __VERIFIER_nondet_float();\n  if (!(f == f))\n",
            "\\result != \\result",
        ),
        (
            "tiny_float",
            "  float f = __VERIFIER_nondet_float();\n  if (f > 0.0f && f * f == 0.0f)\n",
            "f",
        ),
    ];
    for (name, body, said) in cases {
        let program = dir.path().join(format!("{name}.c"));
        std::fs::write(&program, format!("{head}{body}    reach_error();\n  return 0;\n}}\n")).unwrap();
        let (err, w) = witness_of(root, &program, dir.path());
        assert!(err.contains(": violation witness "), "{name}: {err}");
        let path = program.display().to_string();
        check_witness(root, &schema_validator(), &path, &w).unwrap_or_else(|e| panic!("{name}: {e}"));
        let written = std::fs::read_to_string(&w).unwrap();
        let constraint = (written.lines())
            .find_map(|l| l.trim().strip_prefix("\"value\": \"\\\\result"))
            .unwrap_or_else(|| panic!("{name}: no constraint:\n{written}"));
        let constraint = format!("\\result{}", constraint.trim_end_matches('"').replace("\\\\", "\\"));
        assert!(constraint.ends_with(said), "{name}: {constraint}");
        // Another value: the run that follows it does not reach the error.
        let other = written.replace(&constraint.replace('\\', "\\\\"), "\\\\result == 1.5");
        assert_ne!(other, written, "{name}");
        std::fs::write(&w, other).unwrap();
        let (said, code) = follow(root, &path, &w);
        assert_eq!(code, Some(3), "{name}: {said}");
    }
}
