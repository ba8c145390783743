//! `check --format sarif`: a SARIF 2.1.0 log that validates against the
//! official schema (`../shared/schemas/sarif-schema-2.1.0.json`, OASIS),
//! with one result per error condition, the FSSs as code flows and the
//! NEST lines as related locations.

use serde_json::Value;
use std::path::PathBuf;
use std::process::Command;

use crate::shared;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn sarif(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .current_dir(root())
        .args(["check", "--format", "sarif"])
        .args(args)
        .output()
        .unwrap();
    assert!(
        matches!(out.status.code(), Some(0) | Some(1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn validator() -> jsonschema::Validator {
    let path = shared::shared("schemas/sarif-schema-2.1.0.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let schema: Value = serde_json::from_str(&text).unwrap();
    jsonschema::draft4::new(&schema).expect("the SARIF schema compiles")
}

fn assert_valid(v: &jsonschema::Validator, log: &Value) {
    let errors: Vec<String> = v
        .iter_errors(log)
        .take(10)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "invalid SARIF:\n{}", errors.join("\n"));
}

#[test]
fn the_log_validates_against_the_sarif_schema() {
    let v = validator();
    // The paper's programs, the examples (every kind of condition and
    // verdict), and a few SV-COMP tasks.
    let svcomp = shared::shared("corpus/svcomp/loop-simple");
    let log = sarif(&[
        "programs/paper",
        "programs/examples",
        svcomp.to_str().unwrap(),
        "--timeout",
        "20",
    ]);
    assert_valid(&v, &log);
    let results = log["runs"][0]["results"].as_array().unwrap();
    let levels: Vec<&str> = results.iter().map(|r| r["level"].as_str().unwrap()).collect();
    assert!(levels.contains(&"error") && levels.contains(&"none"), "{levels:?}");

    // The validator is not vacuous: a log with a misspelt field fails.
    let mut bad = log.clone();
    bad["runs"][0]["results"][0]["kind"] = Value::from("broken");
    assert!(!v.is_valid(&bad));
}

#[test]
fn lock_c_has_its_fss_as_code_flows_and_its_nest_as_related_locations() {
    let log = sarif(&["programs/paper/lock.c"]);
    assert_valid(&validator(), &log);
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "focuscheck");
    let rules: Vec<&str> = run["tool"]["driver"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    let r = &results[0];
    assert_eq!(r["level"], "error");
    assert!(rules.contains(&r["ruleId"].as_str().unwrap()), "{rules:?}");
    let at = &r["locations"][0]["physicalLocation"];
    assert_eq!(at["artifactLocation"]["uri"], "programs/paper/lock.c");
    assert_eq!(at["region"]["startLine"], 20);

    // The two FSSs of the paper, ranked: the top one first.
    let flows = r["codeFlows"].as_array().unwrap();
    assert_eq!(flows.len(), 2);
    let lines = |f: &Value| -> Vec<u64> {
        f["threadFlows"][0]["locations"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                l["location"]["physicalLocation"]["region"]["startLine"]
                    .as_u64()
                    .unwrap()
            })
            .collect()
    };
    assert_eq!(lines(&flows[0]), [4, 5, 6, 7, 11, 12, 18, 20]);
    assert_eq!(lines(&flows[1]), [4, 5, 6, 7, 8, 14, 15, 9, 11, 6, 7, 8, 14, 16]);
    // Each step says what happened there: the branch taken, the assumption.
    let msgs: Vec<&str> = flows[0]["threadFlows"][0]["locations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["location"]["message"]["text"].as_str().unwrap())
        .collect();
    assert!(
        msgs[4].contains("is true") && msgs[4].contains("gotlock == 1"),
        "{msgs:?}"
    );
    assert!(msgs[6].contains("is false"), "{msgs:?}");
    // rellock's statements are one call deeper.
    let depth: Vec<u64> = flows[0]["threadFlows"][0]["locations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["nestingLevel"].as_u64().unwrap())
        .collect();
    assert_eq!(depth, [0, 0, 0, 0, 0, 0, 1, 1]);

    // The top NEST's lines as related locations.
    let related: Vec<u64> = r["relatedLocations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["physicalLocation"]["region"]["startLine"].as_u64().unwrap())
        .collect();
    assert_eq!(related, [4, 5, 6, 7, 11, 12, 18, 20]);
}

/// `verify` and `doomed` on a directory with a file that does not parse:
/// it is listed in JSON and JSONL with its status and located errors, and
/// in SARIF as a located error notification that makes the execution
/// unsuccessful; the logs validate.
#[test]
fn verify_and_doomed_list_a_file_that_does_not_parse_in_every_format() {
    let v = validator();
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("a_ok.c"),
        "int main(void) {\n  int x = 1;\n  return x;\n}\n",
    )
    .unwrap();
    std::fs::write(
        d.path().join("b_bad.c"),
        "int main(void) {\n  int y = 1\n  return y;\n}\n",
    )
    .unwrap();
    let run = |cmd: &str, format: &str| {
        let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
            .current_dir(d.path())
            .args(["--color", "never", cmd, ".", "--format", format])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{cmd}: a bad file is a usage error");
        String::from_utf8(out.stdout).unwrap()
    };
    for cmd in ["verify", "doomed"] {
        let docs: Value = serde_json::from_str(&run(cmd, "json")).unwrap();
        let docs = docs.as_array().expect("two files: a list");
        assert_eq!(docs.len(), 2, "{cmd}: {docs:?}");
        assert_eq!(docs[0]["status"], "checked");
        let bad = &docs[1];
        assert_eq!(
            (bad["file"].as_str(), bad["status"].as_str()),
            (Some("./b_bad.c"), Some("error"))
        );
        assert_eq!(
            (&bad["errors"][0]["line"], &bad["errors"][0]["column"]),
            (&Value::from(2), &Value::from(12))
        );

        let lines: Vec<Value> = run(cmd, "jsonl")
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(
            lines.iter().map(|l| l["status"].clone()).collect::<Vec<_>>(),
            ["checked", "error"]
        );

        let log: Value = serde_json::from_str(&run(cmd, "sarif")).unwrap();
        assert_valid(&v, &log);
        let inv = &log["runs"][0]["invocations"][0];
        assert_eq!(inv["executionSuccessful"], false, "{cmd}");
        let note = &inv["toolExecutionNotifications"][0];
        assert_eq!(note["level"], "error");
        let at = &note["locations"][0]["physicalLocation"];
        assert_eq!(at["artifactLocation"]["uri"], "./b_bad.c");
        assert_eq!(at["region"]["startLine"], 2);
    }
}

#[test]
fn fix_candidates_are_sarif_fixes_that_validate() {
    // One too many iterations: `i <= n` should be `i < n`.
    let program = "extern int __VERIFIER_nondet_int(void);\n\
                   void reach_error(void);\n\
                   void __VERIFIER_assert(int c) { if (!c) { reach_error(); } }\n\
                   int main(void) {\n\
                   \x20 int n = __VERIFIER_nondet_int();\n\
                   \x20 if (n < 0 || n > 20) return 0;\n\
                   \x20 int i = 0, s = 0;\n\
                   \x20 while (i <= n) { s = s + 2; i++; }\n\
                   \x20 __VERIFIER_assert(s == 2 * n);\n\
                   \x20 return 0;\n\
                   }\n";
    let dir = std::env::temp_dir().join(format!("focuscheck-sarif-fixes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("loop.c");
    std::fs::write(&file, program).unwrap();
    let log = sarif(&["--fixes", file.to_str().unwrap()]);
    std::fs::remove_dir_all(&dir).ok();
    assert_valid(&validator(), &log);
    let result = &log["runs"][0]["results"][0];
    assert_eq!(result["level"], "error");
    let fixes = result["fixes"].as_array().expect("fixes on the unsafe result");
    // The real fix is among them: `<=` replaced by `<` on line 8.
    let real = fixes.iter().any(|f| {
        let r = &f["artifactChanges"][0]["replacements"][0];
        r["deletedRegion"]["startLine"] == 8 && r["insertedContent"]["text"] == "<"
    });
    assert!(real, "{fixes:#?}");
}

#[test]
fn verify_and_doomed_results_name_their_file_by_an_escaped_uri() {
    let v = validator();
    let d = tempfile::tempdir().unwrap();
    let programs = [
        (
            "verify",
            "programs/examples/division.c",
            "a division.c",
            "a%20division.c",
        ),
        (
            "doomed",
            "programs/doomed/trivial.c",
            "a trivial #1.c",
            "a%20trivial%20%231.c",
        ),
    ];
    for (cmd, from, name, uri) in programs {
        std::fs::copy(root().join(from), d.path().join(name)).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
            .current_dir(d.path())
            .args(["--color", "never", cmd, name, "--format", "sarif"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(1), "{cmd} {from}: something is found");
        let log: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_valid(&v, &log);
        let results = log["runs"][0]["results"].as_array().expect("results");
        assert!(!results.is_empty(), "{cmd} {from}: a result");
        for r in results {
            let at = &r["locations"][0]["physicalLocation"];
            assert_eq!(at["artifactLocation"]["uri"], uri, "{cmd}: {r}");
            assert!(at["region"]["startLine"].as_u64().is_some_and(|l| l >= 1), "{cmd}: {r}");
        }
    }
}
