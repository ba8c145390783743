//! Regressions found by the differential test against gcc
//! (`tests/front_end/gcc_diff.rs`), each on the smallest program that shows it.

use focuscheck::interp::{self, Config, Outcome, Run};
use focuscheck::ir::lower::LowerOptions;
use focuscheck::ir::{GlobalsMode, Program};
use focuscheck::syntax::source::SourceFile;
use std::sync::Arc;

fn run(text: &str, choices: &[i64]) -> (Program, Run) {
    let opts = LowerOptions {
        globals: Some(GlobalsMode::Zero),
        ..LowerOptions::default()
    };
    let (p, diags) = focuscheck::load(Arc::new(SourceFile::new("t.c", text)), &opts);
    let p = p.unwrap_or_else(|| panic!("not accepted: {diags:?}"));
    let cfg = Config {
        choices: choices.to_vec(),
        ..Config::default()
    };
    let r = interp::run(&p, &cfg).expect("a run");
    (p, r)
}

fn global(p: &Program, r: &Run, name: &str) -> i64 {
    let g = *p.globals.iter().find(|&&g| p.var(g).name == name).expect("a global");
    r.globals[p.layout().offset[g.index()] as usize]
}

/// In C a local is in scope from the end of its declarator, so in
/// `int g = ++g;` both `g` are the new local (read uninitialised): the
/// global is untouched. The lowering used to resolve the initialiser's `g`
/// to the global (gcc_diff seed 20566).
#[test]
fn an_initialiser_naming_its_own_variable_names_the_new_variable() {
    let text = "int g = -3;\nint out;\n\
                int f(void) { int g = g + 1; out = g; return 0; }\n\
                int main(void) { { int g = ++g; } f(); return 0; }\n";
    // The uninitialised new variables are unknowns: one choice each.
    let (p, r) = run(text, &[10, 41]);
    assert_eq!(r.outcome, Outcome::Finished);
    assert_eq!(global(&p, &r, "g"), -3);
    assert_eq!(global(&p, &r, "out"), 42);
    assert_eq!(r.choices, vec![10, 41]);
}

/// An initialiser that does not name the variable still reads the outer one.
#[test]
fn an_initialiser_reads_the_outer_variable_it_hides() {
    let text = "int g = 4;\nint out;\nint main(void) { int a = g; { int g = a + 1; out = g; } return 0; }\n";
    let (p, r) = run(text, &[]);
    assert_eq!(r.outcome, Outcome::Finished);
    assert_eq!(global(&p, &r, "out"), 5);
    assert_eq!(global(&p, &r, "g"), 4);
    assert!(r.choices.is_empty());
}
