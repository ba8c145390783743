//! Two more kinds of mutants the default localisation once missed: a
//! comparison in an early `return` that comes before the error (the
//! branch was taken for the error's own check, which no fix may touch,
//! though statements run between it and the error), and a wrong variable
//! in a line copied from its siblings (`if (cond != 0)` among `if (p1 !=
//! 0)` .. `if (p12 != 0)`), where the right one is far from the read and
//! many scalars of its type are nearer.

use serde_json::Value;

use crate::fix_kinds::line_of;
use crate::fixes::{default_localisation, unsafe_conditions};

/// `level < 5` was `level <= 5`: on `x == 5` the run goes past the early
/// return, and a statement later it reaches the error.
const EARLY_RETURN: &str = "
void check_level(int level) {
  if (level < 5) return; // was <=
  level = level - 5;
  reach_error();
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  if (x < 0 || x > 5) return 0;
  check_level(x);
  return 0;
}
";

/// `n` locks taken and released in turn; the release of lock `wrong`
/// tests `cond` where it should test its `p` (the `test_locks` tasks of
/// SV-COMP).
fn locks(n: usize, wrong: usize) -> String {
    let mut s = String::from("\nint main(void) {\n");
    for i in 1..=n {
        s += &format!("  int p{i} = __VERIFIER_nondet_int();\n");
    }
    let locks: Vec<String> = (1..=n).map(|i| format!("lk{i}")).collect();
    s += &format!("  int {};\n  int cond;\n  while (1) {{\n", locks.join(", "));
    s += "    cond = __VERIFIER_nondet_int();\n    if (cond == 0) break;\n";
    for i in 1..=n {
        s += &format!("    lk{i} = 0;\n");
    }
    for i in 1..=n {
        s += &format!("    if (p{i} != 0) {{\n      lk{i} = 1;\n    }}\n");
    }
    for i in 1..=n {
        let (read, was) = if i == wrong {
            ("cond".to_string(), format!(" // was p{i}"))
        } else {
            (format!("p{i}"), String::new())
        };
        s += &format!("    if ({read} != 0) {{{was}\n      if (lk{i} != 1) reach_error();\n      lk{i} = 0;\n    }}\n");
    }
    s + "  }\n  return 0;\n}\n"
}

/// The default report of `body` after the header, with the changed line.
fn check(tag: &str, body: &str) -> (u64, Value) {
    let (src, doc) = crate::fix_kinds::check(tag, body);
    (line_of(&src, "// was"), doc)
}

/// The fix `from` -> `to` on line `line`, which must mend (not hide).
fn mending<'a>(doc: &'a Value, line: u64, from: &str, to: &str) -> &'a Value {
    let cond = *unsafe_conditions(doc).first().expect("the mutant is unsafe");
    let fixes = cond["fixes"]["fixes"].as_array().expect("the default search ran");
    let back = fixes
        .iter()
        .find(|f| f["line"] == line && f["from"] == from && f["to"] == to)
        .unwrap_or_else(|| panic!("`{from}` -> `{to}` on line {line} is no fix: {fixes:#?}"));
    assert!(back["hides"].is_null(), "{back}");
    back
}

#[test]
fn a_comparison_in_an_early_return_before_the_error_is_localised() {
    let (fault, doc) = check("early_return", EARLY_RETURN);
    let back = mending(&doc, fault, "<", "<=");
    assert_eq!(back["proof"], "safe", "{back}");
    let loc = default_localisation(&doc).expect("a localisation");
    assert!(loc.contains(&fault), "{loc:?} misses line {fault}");
}

#[test]
fn a_wrong_variable_in_a_copied_line_is_changed_back_to_its_siblings_missing_one() {
    // Twelve `p`s and twelve `lk`s: `p6` is neither near the read nor of
    // its name, but it fills one `if (_ != 0) {` line where its siblings
    // fill two.
    let (fault, doc) = check("copied", &locks(12, 6));
    mending(&doc, fault, "cond", "p6");
    let loc = default_localisation(&doc).expect("a localisation");
    assert!(loc.contains(&fault), "{loc:?} misses line {fault}");
}
