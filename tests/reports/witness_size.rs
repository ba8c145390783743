//! Witnesses stay small and within `--timeout`: counts bound what a
//! witness states (waypoints, facts per loop), and a 100,000-element
//! array's zeros do not make its validation stall.

use crate::witness::{check_witness, schema_validator, text, witness_of};
use std::path::Path;
use std::process::Command;

/// `check PROGRAM --witness W` with more options; what it says on stderr.
fn check(root: &str, program: &Path, w: &Path, extra: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .current_dir(root)
        .arg("check")
        .arg(program)
        .args(["--no-explain", "--color", "never", "--witness"])
        .arg(w)
        .args(extra)
        .output()
        .unwrap();
    text(&out.stderr)
}

/// A run that calls a function with an uninitialised local 3,000 times
/// (SV-COMP's set tasks do 100,000 times: a 43 MB witness of `i == 0`
/// assumptions) gets a witness of a few waypoints: the assumptions of 0
/// past the cap are left out, as a follower fills 0 in, and the witness is
/// still valid and confirmed by `run --witness`.
#[test]
fn many_calls_with_an_uninitialised_local_get_a_small_violation_witness() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("many_calls.c");
    std::fs::write(
        &program,
        "void reach_error(void) {}\n\
         int find(int v) {\n  int i;\n  for (i = 0; i < 2; i++)\n    if (i == v)\n      return 1;\n  return 0;\n}\n\
         int main(void) {\n  int n = 0;\n  for (int k = 0; k < 3000; k++)\n    n += find(k);\n\
         \x20 if (n == 2)\n    reach_error();\n  return 0;\n}\n",
    )
    .unwrap();
    let (err, w) = witness_of(root, &program, dir.path());
    assert!(err.contains(": violation witness "), "{err}");
    let name = program.display().to_string();
    check_witness(root, &schema_validator(), &name, &w).unwrap();
    let written = std::fs::read_to_string(&w).unwrap();
    let assumptions = written.matches("\"assumption\"").count();
    assert!(assumptions <= 3, "{assumptions} assumption waypoints");
    assert!(written.len() < 10_000, "{} bytes", written.len());
}

/// The conjuncts of each `loop_invariant` of the witness `w`.
fn conjuncts(w: &Path) -> Vec<usize> {
    let written = std::fs::read_to_string(w).unwrap();
    (written.lines())
        .filter_map(|l| l.trim_start().strip_prefix("\"value\": "))
        .map(|v| v.matches(" && ").count() + 1)
        .collect()
}

/// A loop over 12 counters, whose explored states give over 300 bounds and
/// relations (an 8 KB invariant before the cap), gets a witness of at most
/// `MAX_PER_LOOP` (64) facts per loop, confirmed by `verify --witness`.
#[test]
fn a_loop_of_many_counters_gets_a_bounded_correctness_witness() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("counters.c");
    let decl: String = (0..12).map(|k| format!("  int x{k} = {k};\n")).collect();
    let body: String = (0..12).map(|k| format!("    x{k} += {};\n", k % 5 + 1)).collect();
    std::fs::write(
        &program,
        format!(
            "extern void reach_error(void);\nint main(void) {{\n{decl}  for (int i = 0; i < 50; i++) {{\n{body}  }}\n\
             \x20 if (x0 != 50)\n    reach_error();\n  return 0;\n}}\n"
        ),
    )
    .unwrap();
    let w = dir.path().join("counters.yml");
    let err = check(root, &program, &w, &[]);
    assert!(err.contains(": correctness witness "), "{err}");
    let name = program.display().to_string();
    let loops = crate::witness::check_correctness(root, &schema_validator(), &name, &w);
    assert_eq!(loops, Ok(1));
    let each = conjuncts(&w);
    assert!(each.iter().all(|&n| n <= 64), "{each:?}");
}

/// A loop over a zero-initialised array of 100,000 structs (SV-COMP's
/// `array_of_struct_break`) gets its correctness witness (three
/// invariants, one a `\forall`), confirmed well within `--timeout`: the
/// array's zeros are one term for Z3, not a chain of 100,000 stores (which
/// took Z3 past ten minutes).
#[test]
fn a_witness_over_a_large_zeroed_array_is_confirmed_within_the_timeout() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("structs.c");
    std::fs::write(
        &program,
        "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n\
         void __VERIFIER_assert(int cond) { if (!cond) reach_error(); }\n\
         struct S {\n  int n;\n};\nstruct S s[100000];\n\
         int main() {\n  int i;\n  int c = __VERIFIER_nondet_int();\n\
         \x20 for (i = 0; i < 100000; i++) {\n    if (c > 5)\n      break;\n    s[i].n = 10;\n  }\n\
         \x20 for (i = 0; i < 100000; i++) {\n    if (c <= 5)\n      __VERIFIER_assert(s[i].n == 10);\n  }\n\
         \x20 return 0;\n}\n",
    )
    .unwrap();
    let w = dir.path().join("structs.yml");
    let err = check(root, &program, &w, &["--timeout", "120"]);
    assert!(err.contains(": correctness witness "), "{err}");
    let name = program.display().to_string();
    let loops = crate::witness::check_correctness(root, &schema_validator(), &name, &w);
    assert_eq!(loops, Ok(3));
}
