//! `focuscheck diagnose` (seed 003) on `programs/diagnose/`: results and
//! question counts (never wording), answers files and transcripts, the
//! oracle, exit codes and bad input.
//!
//! Every program there comes with `NAME.answers`: the truthful answers to
//! its questions and, in a `# expect: RESULT QUERIES` line, the
//! classification a truthful user must reach and in how many questions.

use crate::cli;

use cli::focuscheck;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;

const DIR: &str = "programs/diagnose";

fn json(args: &[&str]) -> (i32, Value) {
    let mut all = vec!["diagnose", "--format", "json", "--no-infer"];
    all.extend_from_slice(args);
    let (code, out, err) = focuscheck(&all);
    let doc = serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}\n{err}"));
    (code, doc)
}

/// The one diagnosed condition of a one-file document.
fn only(doc: &Value) -> &Value {
    let conds = doc["conditions"].as_array().expect("conditions");
    assert_eq!(conds.len(), 1, "one undecided condition: {doc:#}");
    &conds[0]
}

fn queries(c: &Value) -> &Vec<Value> {
    c["queries"].as_array().expect("queries")
}

fn programs() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join(DIR))
        .expect("programs/diagnose")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".c"))
        .map(|n| n.trim_end_matches(".c").to_string())
        .collect();
    out.sort();
    out
}

#[test]
fn truthful_answers_classify_every_program() {
    let names = programs();
    assert!(names.len() >= 4, "{names:?}");
    for name in names {
        let answers = format!("{DIR}/{name}.answers");
        let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(&answers))
            .unwrap_or_else(|_| panic!("{answers}: every program has truthful answers"));
        let expect = text
            .lines()
            .find_map(|l| l.strip_prefix("# expect: "))
            .unwrap_or_else(|| panic!("{answers}: no `# expect:` line"));
        let (result, count) = expect.split_once(' ').expect("RESULT QUERIES");
        let count: usize = count.trim().parse().expect("a count");
        let (code, doc) = json(&[&format!("{DIR}/{name}.c"), "--answers", &answers]);
        let c = only(&doc);
        assert_eq!(c["result"], result, "{name}: {c:#}");
        assert_eq!(queries(c).len(), count, "{name}: {c:#}");
        assert!(
            queries(c).iter().all(|q| q["by"] == "file"),
            "{name}: every question is in the answers file: {c:#}"
        );
        let want = match result {
            "false_alarm" => 0,
            "real_bug" => 1,
            _ => 3,
        };
        assert_eq!(code, want, "{name}: exit code");
    }
}

#[test]
fn seed_examples_take_one_question() {
    for name in ["example1", "foo"] {
        let (code, doc) = json(&[&format!("{DIR}/{name}.c"), "--default-answer", "yes"]);
        let c = only(&doc);
        assert_eq!(c["result"], "false_alarm", "{name}: {c:#}");
        let qs = queries(c);
        assert_eq!(qs.len(), 1, "{name}: {c:#}");
        assert_eq!(qs[0]["kind"], "invariant", "{name}: a proof obligation");
        assert_eq!(qs[0]["by"], "default");
        assert_eq!(code, 0);
    }
}

#[test]
fn a_no_leads_to_a_second_question() {
    let (_, doc) = json(&[
        &format!("{DIR}/second_question.c"),
        "--answers",
        &format!("{DIR}/second_question.answers"),
    ]);
    let c = only(&doc);
    let qs = queries(c);
    assert_eq!(qs.len(), 2, "{c:#}");
    assert_eq!(qs[0]["answer"], "no");
    assert_eq!(qs[1]["answer"], "yes");
    assert_ne!(qs[0]["text"], qs[1]["text"]);
    assert_eq!(c["result"], "false_alarm");
    assert_eq!(c["reason"], "discharged by Q2");
}

#[test]
fn the_oracle_validates_a_real_bug_with_a_replay_that_works() {
    let (code, doc) = json(&[&format!("{DIR}/late_bug.c"), "--oracle", "run"]);
    let c = only(&doc);
    assert_eq!(c["result"], "real_bug", "{c:#}");
    assert_eq!(code, 1);
    assert!(queries(c).iter().all(|q| q["by"] == "oracle"), "{c:#}");
    let replay = c["replay"].as_str().expect("a replay command");
    let words: Vec<&str> = replay.split_whitespace().collect();
    assert_eq!(&words[..2], ["focuscheck", "run"], "{replay}");
    let (rc, out, err) = focuscheck(&words[1..]);
    assert_eq!(rc, 1, "the replay reaches the error:\n{out}{err}");
    let line = c["line"].as_u64().unwrap();
    assert!(out.contains(&format!("late_bug.c:{line}:")), "{out}");
}

#[test]
fn a_transcript_replays_the_session() {
    let dir = tempfile::tempdir().unwrap();
    let t = dir.path().join("session.answers");
    let t = t.to_str().unwrap();
    let (_, first) = json(&[&format!("{DIR}/late_bug.c"), "--oracle", "run", "--transcript", t]);
    let (code, again) = json(&[&format!("{DIR}/late_bug.c"), "--answers", t]);
    let (a, b) = (only(&first), only(&again));
    assert_eq!(a["result"], b["result"]);
    assert_eq!(queries(a).len(), queries(b).len());
    assert!(queries(b).iter().all(|q| q["by"] == "file"), "{b:#}");
    assert_eq!(code, 1);
}

#[test]
fn exit_codes_follow_the_results() {
    // Nobody answers: unresolved (3).
    let (code, doc) = json(&[&format!("{DIR}/second_question.c")]);
    assert_eq!(only(&doc)["result"], "unresolved");
    assert_eq!(code, 3);
    // Whatever the default answer, the exit code says the result.
    for name in programs() {
        for default in ["yes", "no", "unknown"] {
            let (code, doc) = json(&[&format!("{DIR}/{name}.c"), "--default-answer", default]);
            let want = match only(&doc)["result"].as_str() {
                Some("false_alarm") => 0,
                Some("real_bug") => 1,
                _ => 3,
            };
            assert_eq!(code, want, "{name} --default-answer {default}: {doc:#}");
        }
    }
    // --max-queries bounds the questions.
    let (code, doc) = json(&[
        &format!("{DIR}/late_bug.c"),
        "--default-answer",
        "no",
        "--max-queries",
        "1",
    ]);
    let c = only(&doc);
    assert_eq!(c["result"], "unresolved");
    assert_eq!(queries(c).len(), 1);
    assert_eq!(code, 3);
}

#[test]
fn questions_are_never_repeated_and_the_oracle_never_confirms_an_invariant() {
    for name in programs() {
        for default in ["no", "unknown", "yes"] {
            let (_, doc) = json(&[
                &format!("{DIR}/{name}.c"),
                "--oracle",
                "run",
                "--default-answer",
                default,
            ]);
            for c in doc["conditions"].as_array().unwrap() {
                let mut seen = BTreeSet::new();
                for q in queries(c) {
                    let key = (q["kind"].to_string(), q["line"].to_string(), q["text"].to_string());
                    assert!(seen.insert(key), "{name}: asked twice: {c:#}");
                    assert!(
                        !(q["by"] == "oracle" && q["kind"] == "invariant" && q["answer"] == "yes"),
                        "{name}: the oracle said yes to an invariant: {c:#}"
                    );
                }
                // What the oracle answers is true: its real bugs replay
                // (above), and no program here is a false alarm it refutes.
                if name != "late_bug" {
                    assert_ne!(c["result"], "real_bug", "{name} --default-answer {default}: {c:#}");
                }
            }
        }
    }
}

#[test]
fn conditions_are_chosen_and_decided_ones_skipped() {
    // By line; a condition that is not there is a usage error.
    let (code, doc) = json(&[
        &format!("{DIR}/example1.c"),
        "--condition",
        "16",
        "--default-answer",
        "yes",
    ]);
    assert_eq!(only(&doc)["result"], "false_alarm");
    assert_eq!(code, 0);
    let (code, _, err) = focuscheck(&["diagnose", &format!("{DIR}/example1.c"), "--condition", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("no condition `3`"), "{err}");
    // With inferred invariants (j >= 0 among them) the VC engine proves
    // example 1: nothing to ask.
    let (code, out, _) = focuscheck(&["diagnose", &format!("{DIR}/example1.c")]);
    assert_eq!(code, 0);
    assert!(
        out.contains("decided, nothing to ask (check: unknown; verify: verified)"),
        "{out}"
    );
    // A condition both engines decide is not diagnosed.
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("decided.c");
    std::fs::write(&f, "int main(int x) {\n  if (x > 3) assert(x > 2);\n  return 0;\n}\n").unwrap();
    let (code, out, _) = focuscheck(&["diagnose", f.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("decided, nothing to ask"), "{out}");
}

#[test]
fn a_bad_answers_file_is_a_located_error() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.answers");
    std::fs::write(&f, "invariant 11 \"j >= 0\" yes\ninvariant eleven \"j >= 0\" yes\n").unwrap();
    let (code, _, err) = focuscheck(&[
        "diagnose",
        &format!("{DIR}/example1.c"),
        "--answers",
        f.to_str().unwrap(),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("bad.answers:2:1"), "{err}");
}

/// Every question is asked in C's words: a query part that is a
/// conjunction of one clause is shown as that clause, never as Z3's
/// S-expression text (`(and (or (not ...`).
#[test]
fn questions_are_in_c_syntax() {
    for name in programs() {
        let file = format!("{DIR}/{name}.c");
        let (_, out, err) = focuscheck(&["diagnose", "--no-infer", "--default-answer", "no", &file]);
        for raw in ["(and ", "(or ", "(not ", "(<= ", "(>= "] {
            assert!(!out.contains(raw), "{name}: Z3 text `{raw}` in a question:\n{out}{err}");
        }
    }
}
