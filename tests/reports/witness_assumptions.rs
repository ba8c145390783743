//! Violation witnesses whose error depends on uninitialised locals: the
//! values the counterexample gives them are written as `assumption`
//! waypoints (`x == V` at the statement after the declaration), the
//! witness is schema-valid and confirmed by `run --witness`, and with
//! another value it is not.

use super::witness::{check_witness, follow, schema_validator, witness_of};
use std::path::Path;

#[test]
fn uninitialised_locals_get_assumption_waypoints_that_replay() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = tempfile::tempdir().unwrap();
    let program = Path::new(root).join("tests/witness/uninit_locals.c");
    let (err, w) = witness_of(root, &program, dir.path());
    assert!(err.contains(": violation witness "), "{err}");
    let path = program.display().to_string();
    check_witness(root, &schema_validator(), &path, &w).unwrap();
    let written = std::fs::read_to_string(&w).unwrap();
    // The values as C reads them: `unsigned` 4000000000, `seed - 1 == 41`.
    // (`seed` in one conjunction with `spare`, declared with it.)
    for said in ["\"mask == 4000000000\"", "\"seed == 42 && ", "\"assumption\""] {
        assert!(written.contains(said), "{said} not in:\n{written}");
    }
    // Another value of either local: the run does not reach the error.
    for (from, to) in [("seed == 42", "seed == 43"), ("mask == 4000000000", "mask == 4")] {
        std::fs::write(&w, written.replace(from, to)).unwrap();
        let (said, code) = follow(root, &path, &w);
        assert_eq!(code, Some(3), "{to}: {said}");
    }
    // A constraint the replay does not read is an error, not a guess.
    std::fs::write(&w, written.replace("seed == 42", "seed * 2 == 84")).unwrap();
    let (said, code) = follow(root, &path, &w);
    assert_eq!(code, Some(2), "{said}");
}
