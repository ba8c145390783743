//! Every confirmed counterexample is explained: each condition `check`
//! confirms unsafe on `programs/` has an FSS, or the report says why not
//! (`no_fss` in JSON, a `no FSS:` line in text). On errors that need more
//! loop iterations than `--unroll` explores before widening (a sum of
//! `unsigned char` inputs that wraps, a loop bounded by an input), there is
//! an FSS, and its repetition folds to the run's iteration count.

use crate::cli;

use serde_json::Value;

#[test]
fn every_confirmed_counterexample_on_programs_has_an_fss_or_a_reason() {
    let (code, out, err) = cli::focuscheck(&["check", "programs", "--format", "json"]);
    assert!(matches!(code, 0 | 1 | 3), "exit {code}: {err}");
    let docs: Value = serde_json::from_str(&out).expect("JSON");
    let mut confirmed = 0;
    let mut reasons: Vec<(String, String)> = Vec::new();
    for doc in docs.as_array().expect("one document per file") {
        for c in doc["conditions"].as_array().into_iter().flatten() {
            if c["verdict"] != "unsafe" {
                continue;
            }
            confirmed += 1;
            let has_fss = c["fss"].as_array().is_some_and(|f| !f.is_empty());
            let reason = c["no_fss"].as_str().unwrap_or("");
            assert!(
                has_fss == reason.is_empty(),
                "{}: {}: an FSS or a reason, not both or neither (reason: {reason:?})",
                doc["file"],
                c["condition"]
            );
            if !reason.is_empty() {
                reasons.push((doc["file"].as_str().unwrap_or("").to_string(), reason.to_string()));
            }
        }
    }
    assert!(confirmed > 20, "{confirmed} confirmed conditions");
    // The text says it too: every unsafe condition listed with 0 FSSs has
    // a `no FSS:` line (which files have one depends on no clock here: the
    // text is read for every file that had a reason, and checked as is).
    for (file, _) in reasons {
        let (_, text, _) = cli::focuscheck(&["check", &file]);
        let blocks: Vec<&str> = text.split("\n\n").collect();
        for b in blocks
            .iter()
            .filter(|b| b.starts_with("unsafe:") && b.contains("(0 FSSs,"))
        {
            assert!(b.contains("\n  no FSS: "), "{file}: {b}");
        }
    }
}

#[test]
fn errors_past_the_unrolling_get_an_fss() {
    for (file, iterations) in [
        ("programs/examples/uchar_wrap.c", 20),
        ("programs/examples/widened_loop.c", 20),
    ] {
        let (code, out, err) = cli::focuscheck(&["check", file, "--format", "json"]);
        assert_eq!(code, 1, "{file}: {err}");
        let doc: Value = serde_json::from_str(&out).expect("JSON");
        let c = &doc["conditions"][0];
        assert_eq!(c["verdict"], "unsafe", "{file}");
        let fss = c["fss"].as_array().expect("fss");
        assert!(!fss.is_empty(), "{file}: {}", c["no_fss"]);
        assert!(c.get("no_fss").is_none(), "{file}");
        let counts: Vec<u64> = fss[0]["statements"]
            .as_array()
            .expect("statements")
            .iter()
            .filter_map(|s| s["repeat"]["count"].as_u64())
            .collect();
        assert_eq!(counts, vec![iterations], "{file}: the loop's iterations, folded");
        let (_, text, _) = cli::focuscheck(&["check", file]);
        assert!(!text.contains("no FSS:"), "{text}");
    }
}
