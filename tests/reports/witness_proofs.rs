//! `verify PROGRAM --witness W`, the independent check of a correctness
//! witness: wrong invariants (not on entry, not maintained, too weak, too
//! weak for the program's ACSL assertions, location invariants false or
//! too weak) are not confirmed; invariants read off the explored states
//! are, and so are array facts stated element by element (past 256
//! elements, at the indices the program names), loop-entry
//! values stated as assigned before the loop, a `do` loop's invariant at
//! its `do` and relations over struct fields.

use crate::witness::{text, validate};
use std::process::Command;

/// A correctness witness of `file` (its name in the witness) holding
/// `items`: (type, line, column, value), written into `dir` under a name
/// of its own.
fn invariant_set(dir: &std::path::Path, file: &str, items: &[(&str, u32, u32, &str)]) -> std::path::PathBuf {
    let mut w = String::from("- entry_type: invariant_set\n  content:\n");
    for (ty, line, column, value) in items {
        w += &format!(
            "    - invariant:\n        type: {ty}\n        location:\n          file_name: {file}\n          \
             line: {line}\n          column: {column}\n        value: \"{value}\"\n        format: c_expression\n"
        );
    }
    let mut h = std::collections::hash_map::DefaultHasher::new();
    std::hash::Hash::hash(&w, &mut h);
    let path = dir.join(format!("{:016x}.yml", std::hash::Hasher::finish(&h)));
    std::fs::write(&path, w).unwrap();
    path
}

/// A correctness witness is confirmed only when its invariants are
/// inductive and prove the program: one that does not hold on entry, one
/// that is not maintained, and one too weak are not; one that is not at a
/// loop or not C is an error naming the witness's line.
#[test]
fn a_wrong_correctness_witness_is_not_confirmed() {
    let root = env!("CARGO_MANIFEST_DIR");
    // `x = -50; y` in (-1000, 1000000); `while (x < 0) { x = x + y; y++; }`
    // at line 15, column 5; then `__VERIFIER_assert(y > 0)`.
    let program = format!("{root}/../shared/corpus/svcomp/loop-lit/gsv2008.i");
    let dir = tempfile::tempdir().unwrap();
    let witness = |line: u32, column: u32, value: &str| {
        validate(
            root,
            &program,
            &invariant_set(dir.path(), "gsv2008.i", &[("loop_invariant", line, column, value)]),
        )
    };
    let (said, code) = witness(15, 5, "-1000 < y && (x < 0 || y > 0)");
    assert_eq!(code, Some(0), "{said}");
    // Not on entry (y may be -999), not maintained, too weak.
    for (value, why) in [
        ("y > 0", "may not hold on entry"),
        ("x <= -50", "may not be maintained"),
        ("-1000 < y", "possible call of `__VERIFIER_error()`"),
    ] {
        let (said, code) = witness(15, 5, value);
        assert_eq!(code, Some(3), "{value}: {said}");
        assert!(
            said.contains("witness: not confirmed") && said.contains(why),
            "{value}: {said}"
        );
    }
    let (said, code) = witness(14, 5, "y > -1000");
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains(".yml:3: line 14, column 5, of the program is not at a loop"),
        "{said}"
    );
}

/// The program's own ACSL is checked on the validator's path too, as
/// `check` reads it: with an `//@ assert` after the loop, an invariant too
/// weak to prove it is not confirmed (it was: the havoc path read no
/// assertion), the one `check` writes is; an error call in a recursion
/// deeper than the inlining depth leaves a witness not confirmed, and one
/// within the deeper inlining the validator retries with refutes it.
#[test]
fn a_too_weak_invariant_is_not_confirmed_against_acsl_assertions() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("acsl.c");
    let loop_then = |after: &str| {
        format!(
            "void reach_error(void);\nint f(int n) {{\n  if (n == 5) reach_error();\n  if (n > 0) return f(n - 1);\n  \
             return 0;\n}}\nint main(void) {{\n  int x = 0;\n  while (x < 10) x++;\n  /*@ assert x == 10; */\n  \
             {after}\n  return 0;\n}}\n"
        )
    };
    let witness = |value: &str| invariant_set(dir.path(), "acsl.c", &[("loop_invariant", 9, 3, value)]);
    std::fs::write(&program, loop_then("x++;")).unwrap();
    let program = program.to_str().unwrap();
    let (said, code) = validate(root, program, &witness("x >= 0"));
    assert_eq!(code, Some(3), "{said}");
    assert!(
        said.contains("witness: not confirmed: possible assertion failure: `assert x == 10` at line 10"),
        "{said}"
    );
    let (said, code) = validate(root, program, &witness("x >= 0 && x <= 10"));
    assert_eq!(code, Some(0), "{said}");
    // What `check` writes for it is confirmed.
    let written = dir.path().join("written.yml");
    let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .current_dir(root)
        .args(["check", program, "--no-explain", "--color", "never", "--witness"])
        .arg(&written)
        .output()
        .unwrap();
    assert!(
        text(&out.stderr).contains(": correctness witness "),
        "{}",
        text(&out.stderr)
    );
    let (said, code) = validate(root, program, &written);
    assert_eq!(code, Some(0), "{said}");
    // `f(30)` reaches `reach_error` 26 calls deep, past the deeper
    // inlining too; `f(10)` six calls deep, which that inlining reaches.
    std::fs::write(program, loop_then("f(30);")).unwrap();
    let (said, code) = validate(root, program, &witness("x >= 0 && x <= 10"));
    assert_eq!(code, Some(3), "{said}");
    assert!(said.contains("a call deeper than the inlining depth"), "{said}");
    std::fs::write(program, loop_then("f(10);")).unwrap();
    let (said, code) = validate(root, program, &witness("x >= 0 && x <= 10"));
    assert_eq!(code, Some(3), "{said}");
    assert!(said.contains("possible call of `reach_error()` at line 3"), "{said}");
}

/// A `location_invariant` (another tool's witness) is read as an
/// assertion before its statement: checked, then assumed. A true one with
/// the loop invariant it needs is confirmed, a false one and a too weak
/// one (the error call still reachable past it) are not, and one that is
/// not at a statement within a block (an `if`'s branch without braces,
/// which the assertion would replace) is an error naming its line.
#[test]
fn location_invariants_are_checked_where_they_stand() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("loc.c");
    std::fs::write(
        &program,
        "void reach_error(void);\nint main(void) {\n  int x = 0;\n  while (x < 10) {\n    x++;\n  }\n  \
         int y = x + 1;\n  if (y != 11) reach_error();\n  if (y > 11) x = 0;\n  return 0;\n}\n",
    )
    .unwrap();
    let program = program.to_str().unwrap();
    let witness =
        |items: &[(&str, u32, u32, &str)]| validate(root, program, &invariant_set(dir.path(), "loc.c", items));
    let (said, code) = witness(&[
        ("loop_invariant", 4, 3, "x <= 10"),
        ("location_invariant", 7, 3, "x == 10"),
    ]);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("1 location invariant checked where stated"), "{said}");
    // False: `x` is 10 there.
    let (said, code) = witness(&[
        ("loop_invariant", 4, 3, "x <= 10"),
        ("location_invariant", 7, 3, "x == 11"),
    ]);
    assert_eq!(code, Some(3), "{said}");
    assert!(
        said.contains("possible assertion failure: `assert x == 11` at line 7"),
        "{said}"
    );
    // Too weak: `x` may be 11 for all it says.
    let (said, code) = witness(&[("location_invariant", 7, 3, "x >= 10")]);
    assert_eq!(code, Some(3), "{said}");
    assert!(said.contains("possible call of `reach_error()` at line 8"), "{said}");
    // `x = 0` is the `if`'s branch.
    let (said, code) = witness(&[("location_invariant", 9, 15, "x == 10")]);
    assert_eq!(code, Some(2), "{said}");
    assert!(
        said.contains("line 9, column 15, of the program is not at a statement within a block"),
        "{said}"
    );
}

/// Programs whose proof needs an invariant read off the explored states
/// (a loop in two phases, a relation with the inputs' values, a multiple
/// of the counter) get a correctness witness that `verify --witness`
/// confirms, and its invariant states the relation the proof needs.
#[test]
fn invariants_read_off_the_explored_states_are_confirmed() {
    let root = env!("CARGO_MANIFEST_DIR");
    let corpus = format!("{root}/../shared/corpus/svcomp");
    let dir = tempfile::tempdir().unwrap();
    for (file, needed) in [
        // `y` stays 50 while `x < 50`, then follows `x`.
        ("loop-lit/gj2007.i", "(x < 50 || x == y)"),
        // `x - y` keeps the inputs' difference `i - j`.
        ("loop-lit/jm2006.i", "(x - y) == (i - j)"),
        // `sn` is twice the counter less 2.
        ("loops/sum04-2.i", "sn == ((2 * i) - 2)"),
        // `x` goes up by 2 from 0: the assertion is `!(x % 2)`.
        ("loop-acceleration/functions_1-1.c", "(x % 2) == 0"),
    ] {
        let program = format!("{corpus}/{file}");
        let w = dir.path().join(file.replace('/', "."));
        let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
            .current_dir(root)
            .args(["check", &program, "--no-explain", "--color", "never", "--witness"])
            .arg(&w)
            .output()
            .unwrap();
        let err = text(&out.stderr);
        assert!(err.contains(": correctness witness "), "{file}: {err}");
        let written = std::fs::read_to_string(&w).unwrap();
        assert!(written.contains(needed), "{file}: {written}");
        let (said, code) = validate(root, &program, &w);
        assert_eq!(code, Some(0), "{file}: {said}");
    }
}

/// `check PROGRAM --witness W` (from `root`), which must say it wrote a
/// correctness witness; `W`.
fn written(root: &str, program: &str, w: &std::path::Path) -> std::path::PathBuf {
    let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .current_dir(root)
        .args(["check", program, "--no-explain", "--color", "never", "--witness"])
        .arg(w)
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert!(err.contains(": correctness witness "), "{program}: {err}");
    w.to_path_buf()
}

/// `verify PROGRAM --witness W` must say the witness is not confirmed
/// (exit 3).
fn not_confirmed(root: &str, program: &str, w: &std::path::Path) {
    let (said, code) = validate(root, program, w);
    assert_eq!(code, Some(3), "{said}");
    assert!(said.contains("witness: not confirmed"), "{said}");
}

/// The text of the correctness witness `check` writes for `program` into
/// `w`, which must be schema-valid, have `loops` loop invariants and be
/// confirmed by `verify --witness`.
fn checked(root: &str, program: &str, w: &std::path::Path, loops: usize) -> String {
    let w = written(root, program, w);
    let checked = crate::witness::check_correctness(root, &crate::witness::schema_validator(), program, &w);
    assert_eq!(checked.as_ref().ok(), Some(&loops), "{checked:?}");
    std::fs::read_to_string(&w).unwrap()
}

/// A safe program whose proof needs what its loops wrote into arrays (one
/// loop counting up, its counter declared in the `for`; one counting down)
/// gets a correctness witness that is schema-valid and that `verify
/// --witness` confirms, stating each element the loops passed; the same
/// witness with one element's value wrong is not confirmed.
#[test]
fn array_filling_loops_get_confirmed_witnesses() {
    let root = env!("CARGO_MANIFEST_DIR");
    let program = "tests/witness/fill_arrays.c";
    let dir = tempfile::tempdir().unwrap();
    let written = checked(root, program, &dir.path().join("fill_arrays.yml"), 2);
    for needed in [
        "(i <= 0 || a[0] == 1)",
        "(i <= 7 || a[7] == 15)",
        "(n >= 0 || b[0] == 7)",
        "(n >= 5 || b[5] == 7)",
    ] {
        assert!(written.contains(needed), "{needed}: {written}");
    }
    let wrong = dir.path().join("wrong.yml");
    std::fs::write(&wrong, written.replace("a[7] == 15", "a[7] == 14")).unwrap();
    not_confirmed(root, program, &wrong);
}

/// A relation Houdini proves with loop-entry values (`res + cnt ==
/// \at(res + cnt, LoopEntry)`) is stated with what the variables were
/// assigned before the loop, and the witness is confirmed.
#[test]
fn loop_entry_values_are_stated_as_assigned_before_the_loop() {
    let root = env!("CARGO_MANIFEST_DIR");
    let program = "programs/vc/entry_relation.c";
    let dir = tempfile::tempdir().unwrap();
    let w = written(root, program, &dir.path().join("entry_relation.yml"));
    let written = std::fs::read_to_string(&w).unwrap();
    assert!(written.contains("(res + cnt) == (a + b)"), "{written}");
    assert!(!written.contains("\\at"), "{written}");
    let (said, code) = validate(root, program, &w);
    assert_eq!(code, Some(0), "{said}");
}

/// A `do` loop's invariant is stated at its `do` keyword (where each
/// iteration begins) and confirmed there, beside the `while` loop it
/// holds; one that is not maintained at the `do` is not confirmed.
#[test]
fn a_do_loop_gets_its_invariant_at_the_do_keyword() {
    let root = env!("CARGO_MANIFEST_DIR");
    let program = "tests/witness/do_loop.c";
    let dir = tempfile::tempdir().unwrap();
    let written = checked(root, program, &dir.path().join("do_loop.yml"), 2);
    let at_do = written
        .find("\"line\": 11")
        .expect("an invariant at the `do` of line 11");
    assert!(written[at_do..].contains("s == (3 * i)"), "{written}");
    for (value, why) in [
        ("s == 3 * i && i <= 8", "may not be maintained"),
        ("i < 10", "possible call"),
    ] {
        let wrong = invariant_set(dir.path(), "do_loop.c", &[("loop_invariant", 11, 3, value)]);
        let (said, code) = validate(root, program, &wrong);
        assert_eq!(code, Some(3), "{value}: {said}");
        assert!(
            said.contains("witness: not confirmed") && said.contains(why),
            "{value}: {said}"
        );
    }
}

/// Relations over the fields of a struct variable (nested ones too) are
/// stated as C names them (`o.in.n`) and confirmed; a pointer field's
/// storage (its object's tag, its offset) is not C and is never stated;
/// a field invariant that does not hold is not confirmed.
#[test]
fn struct_fields_are_stated_as_c_names_them() {
    let root = env!("CARGO_MANIFEST_DIR");
    let program = "tests/witness/struct_fields.c";
    let dir = tempfile::tempdir().unwrap();
    let written = checked(root, program, &dir.path().join("struct_fields.yml"), 1);
    assert!(
        written.contains("o.in.n <= 5") || written.contains("o.in.n <= o.lim"),
        "{written}"
    );
    assert!(!written.contains("o.in.q") && !written.contains(".off"), "{written}");
    let wrong = invariant_set(
        dir.path(),
        "struct_fields.c",
        &[("loop_invariant", 23, 3, "o.in.n <= 4")],
    );
    not_confirmed(root, program, &wrong);
}

/// A loop filling more elements than a witness states one by one: its
/// fact is stated at the constant indices the program names (`a[500]`,
/// `a[999]`), each an instance of it, and the witness is confirmed; with
/// one of those values wrong it is not.
#[test]
fn a_large_array_fill_is_stated_at_the_indices_the_program_names() {
    let root = env!("CARGO_MANIFEST_DIR");
    let program = "tests/witness/big_array.c";
    let dir = tempfile::tempdir().unwrap();
    let written = checked(root, program, &dir.path().join("big_array.yml"), 1);
    for needed in ["(i <= 500 || a[500] == 1001)", "(i <= 999 || a[999] == 1999)"] {
        assert!(written.contains(needed), "{needed}: {written}");
    }
    assert!(!written.contains("a[0]") && !written.contains("a[998]"), "{written}");
    let wrong = dir.path().join("wrong.yml");
    std::fs::write(&wrong, written.replace("a[999] == 1999", "a[999] == 1997")).unwrap();
    not_confirmed(root, program, &wrong);
}

/// Loops whose tests read through pointers (`*pa`, `s->n`, each naming
/// one of two objects chosen at run time) get their tests, weakened, as
/// invariants in C (`i <= *pa`), read back by cases on the object and
/// confirmed; a relation through a pointer that is not maintained is not.
#[test]
fn loop_tests_through_pointers_are_stated_and_confirmed() {
    let root = env!("CARGO_MANIFEST_DIR");
    let program = "tests/witness/pointer_reads.c";
    let dir = tempfile::tempdir().unwrap();
    let written = checked(root, program, &dir.path().join("pointer_reads.yml"), 2);
    for needed in ["i <= *pa", "k <= s->n"] {
        assert!(written.contains(needed), "{needed}: {written}");
    }
    let wrong = invariant_set(
        dir.path(),
        "pointer_reads.c",
        &[("loop_invariant", 20, 3, "i <= *pa - 1")],
    );
    not_confirmed(root, program, &wrong);
}

/// Loops copying and filling more elements than a witness states one by
/// one, read back at other loops' counters (SV-COMP's 100,000-element
/// arrays): each fact is stated in ACSL (`\forall`, `acsl_expression`,
/// format 2.1), counting up and down, over an array of structs' field
/// (`s[k].n`), and `verify --witness` re-proves it
/// with quantifiers; a variable declared in an earlier `for` is not named
/// past its statement. With a fact's value or range wrong, or too weak,
/// the witness is not confirmed; a value that is more than one expression
/// is not read.
#[test]
fn large_array_copies_are_stated_with_quantifiers() {
    let root = env!("CARGO_MANIFEST_DIR");
    let program = "tests/witness/copy_array.c";
    let dir = tempfile::tempdir().unwrap();
    // Five loops; the copy and the fills each with a C and an ACSL item.
    let written = checked(root, program, &dir.path().join("copy_array.yml"), 8);
    for needed in [
        "\"value\": \"\\\\forall int k; 0 <= k < i ==> b[k] == a[k]\"",
        "\"value\": \"\\\\forall int k; j < k <= 999 ==> c[k] == 7\"",
        "\"value\": \"\\\\forall int k; 0 <= k < m ==> s[k].n == 3\"",
        "\"format\": \"acsl_expression\"",
        "\"format_version\": \"2.1\"",
    ] {
        assert!(written.contains(needed), "{needed}: {written}");
    }
    assert!(!written.contains("n == 1000"), "{written}");
    // Z3 takes minutes to refute a wrong quantified invariant (its work
    // there is not counted by the rlimit; the wall-clock guard stops it):
    // with FOCUSCHECK_SLOW_WITNESS=1 only.
    let wrong_ones = [
        ("b[k] == a[k]", "b[k] == a[k] + 1"),
        ("0 <= k < i", "0 <= k <= i"),
        ("c[k] == 7", "c[k] == 7 || k == 5"),
    ];
    let slow = std::env::var("FOCUSCHECK_SLOW_WITNESS").is_ok_and(|v| v == "1");
    for (from, to) in wrong_ones.into_iter().filter(|_| slow) {
        let wrong = dir.path().join("wrong.yml");
        std::fs::write(&wrong, written.replace(from, to)).unwrap();
        not_confirmed(root, program, &wrong);
    }
    // A `;` that does not end a quantifier's binder: two clauses.
    let two = dir.path().join("two.yml");
    std::fs::write(&two, written.replace("c[k] == 7", "c[k] == 7; loop invariant x == 0")).unwrap();
    let (said, code) = validate(root, program, &two);
    assert_eq!(code, Some(2), "{said}");
    assert!(said.contains("is not one C or ACSL expression"), "{said}");
}

/// A loop that adds 300 or 500 per iteration needs `k >= 300 * i` (a
/// slope read off the explored states, written only once the VC engine
/// proves it inductive), and a recursion five calls deep on constants,
/// with no loop to hold an invariant, is proved by inlining every call it
/// makes: both get a correctness witness that is schema-valid and
/// confirmed. A slope too steep is not confirmed, and neither is a
/// recursion that reaches the error within the deeper inlining.
#[test]
fn slopes_and_shallow_recursions_get_confirmed_witnesses() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = tempfile::tempdir().unwrap();
    let rate = format!("{root}/tests/witness/rate_per_iteration.c");
    let written = checked(root, &rate, &dir.path().join("rate.yml"), 1);
    assert!(written.contains("k >= (300 * i)"), "{written}");
    let steep = invariant_set(
        dir.path(),
        "rate_per_iteration.c",
        &[("loop_invariant", 5, 3, "k >= 301 * i && i <= 10")],
    );
    not_confirmed(root, &rate, &steep);
    let recursion = dir.path().join("shallow_recursion.c");
    let source = std::fs::read_to_string(format!("{root}/tests/witness/shallow_recursion.c")).unwrap();
    std::fs::write(&recursion, &source).unwrap();
    let recursion = recursion.to_str().unwrap();
    let w = dir.path().join("recursion.yml");
    checked(root, recursion, &w, 0);
    // `twice(5)` is 10: with 12 asserted the error is reachable, which
    // the deeper inlining finds with the same (empty) witness.
    std::fs::write(recursion, source.replace("r != 10", "r != 12")).unwrap();
    let (said, code) = validate(root, recursion, &w);
    assert_eq!(code, Some(3), "{said}");
    assert!(said.contains("possible call of `reach_error()` at line 10"), "{said}");
}

/// Invariants in C's bitwise operators are read with C's semantics in the
/// operands' types: `tests/witness/bit_mask.c` keeps `x`'s low four bits
/// clear, which `&`, `|`, `>>`/`<<` state and `verify --witness` confirms
/// (`~x` of an `unsigned` `x <= 240` is at least 2^32 - 241, not negative
/// as in unbounded integers); in `tests/witness/bit_even.c`, `~i < 0`,
/// true of `i == 0` in unbounded integers, does not hold on entry (stop
/// 76 could not read `~`, `|`, `^`, `<<`, `>>`). Wrong bitwise invariants
/// over values the loop changes take Z3 about a minute to refute, so
/// only this one is here.
#[test]
fn bitwise_invariants_are_read_in_c() {
    let root = env!("CARGO_MANIFEST_DIR");
    let dir = tempfile::tempdir().unwrap();
    let program = format!("{root}/tests/witness/bit_mask.c");
    // `while (n > 0)` is at line 10, column 5.
    for value in [
        "(x & 15) == 0 && ~x >= 4294967055",
        "((x >> 4) << 4) == x",
        "(x | 240) == 240",
    ] {
        let w = invariant_set(dir.path(), "bit_mask.c", &[("loop_invariant", 10, 5, value)]);
        let (said, code) = validate(root, &program, &w);
        assert_eq!(code, Some(0), "{value}: {said}");
    }
    // `while (i < 100)` is at line 7, column 5.
    let program = format!("{root}/tests/witness/bit_even.c");
    let value = "(i & 1) == 0 && ~i < 0";
    let w = invariant_set(dir.path(), "bit_even.c", &[("loop_invariant", 7, 5, value)]);
    let (said, code) = validate(root, &program, &w);
    assert_eq!(code, Some(3), "{said}");
    assert!(said.contains("may not hold on entry"), "{said}");
}
