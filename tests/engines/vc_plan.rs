//! Every option of the VC engine's plan reaches it from `check`'s command
//! line (`--vc-unroll`, `--vc-k`), and the portfolio's shares of
//! `--timeout` (`check::Shares`) end each phase before the next one's.

use crate::cli::focuscheck;
use focuscheck::check::Shares;
use focuscheck::engines::Engine;

/// The error needs six iterations of the loop (a havoced loop's
/// counterexample, one iteration from an arbitrary `i`, does not replay).
const SIX: &str = "extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) {
  int i = 0;
  while (__VERIFIER_nondet_int()) {
    i++;
    if (i == 6) reach_error();
  }
  return 0;
}
";

/// `check --engine vc` with `extra`: the verdict of the `reach_error` call
/// and the VC engine's modes, as the JSON gives them.
fn vc_check(extra: &[&str]) -> (String, Vec<String>) {
    let dir = tempfile_dir();
    let path = crate::cli::write(&dir, "six.c", SIX);
    let mut args = vec!["check", "--engine", "vc", "--format", "json", "--no-fixes"];
    args.extend_from_slice(extra);
    args.push(&path);
    let (_, out, err) = focuscheck(&args);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}\n{err}"));
    let cond = doc["conditions"]
        .as_array()
        .and_then(|cs| cs.iter().find(|c| c["kind"] == "reach_error"))
        .unwrap_or_else(|| panic!("no reach_error condition: {out}"));
    let modes = doc["vc"]["modes"]
        .as_array()
        .map(|m| m.iter().filter_map(|x| x.as_str().map(String::from)).collect())
        .unwrap_or_default();
    (cond["verdict"].as_str().unwrap_or_default().to_string(), modes)
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fc-vc-plan-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    dir
}

#[test]
fn the_unrolling_bounds_reach_the_vc_engine() {
    let (verdict, modes) = vc_check(&[]);
    assert_eq!(
        verdict, "unsafe",
        "the default bounds (1, 3, 8, 20) reach 6 iterations: {modes:?}"
    );
    assert!(modes.iter().any(|m| m == "unroll:8"), "{modes:?}");
    let (verdict, modes) = vc_check(&["--vc-unroll", "1,3"]);
    assert_eq!(
        verdict, "unknown",
        "bounds 1 and 3 cannot reach 6 iterations: {modes:?}"
    );
    assert!(!modes.iter().any(|m| m == "unroll:8"), "{modes:?}");
    let (verdict, _) = vc_check(&["--vc-unroll", "7"]);
    assert_eq!(verdict, "unsafe");
}

#[test]
fn the_k_of_k_induction_reaches_the_vc_engine() {
    let (_, modes) = vc_check(&["--vc-k", "3", "--vc-unroll", "1"]);
    assert!(modes.iter().any(|m| m == "kinduction:3"), "{modes:?}");
    assert!(!modes.iter().any(|m| m == "kinduction:2"), "{modes:?}");
}

#[test]
fn a_bad_plan_is_a_usage_error() {
    for bad in [["--vc-unroll", "0"], ["--vc-k", "0"], ["--vc-unroll", "x"]] {
        let (code, _, err) = focuscheck(&["check", bad[0], bad[1], "programs/c/image_ok.c"]);
        assert_eq!(code, 2, "{bad:?}: {err}");
        assert!(err.contains(bad[0]), "{bad:?}: {err}");
    }
}

#[test]
fn each_phase_ends_before_the_next_and_within_the_limit() {
    for engine in [Engine::Fsum, Engine::Vc, Engine::Auto] {
        let s = Shares::of(engine);
        assert!(0.0 < s.explore && s.explore <= s.verdict, "{engine:?}: {s:?}");
        assert!(
            s.verdict <= s.explain && s.vc <= s.explain && s.explain < 1.0,
            "{engine:?}: {s:?}"
        );
    }
    // Under `auto` the Datalog engine leaves the VC engine time after it.
    let auto = Shares::of(Engine::Auto);
    assert!(auto.verdict < auto.vc, "{auto:?}");
}
