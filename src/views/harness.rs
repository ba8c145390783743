//! A confirmed counterexample as a C test harness: a file that gcc
//! compiles together with the checked program and that, run, takes the
//! counterexample's path into its error.
//!
//! How: the harness defines every `__VERIFIER_nondet_X` (weak, so that a
//! definition in the program wins) to return the counterexample's values
//! in order, each checked against the function the counterexample expects
//! there; and it stops the run at the error with a message naming the
//! error's file:line: on entry to `reach_error` or `__VERIFIER_error`
//! (gcc's `-finstrument-functions` calls the harness on every function
//! entry, so a `reach_error` the program defines with an empty body is
//! caught too), and in `__assert_fail` (a failed `assert`). Compile with
//! `gcc -finstrument-functions PROGRAM.c HARNESS.c`.
//!
//! A harness sets only what C lets it set from outside the program: the
//! values of nondet calls, and `main`'s arguments (`-Wl,--wrap=main`). A counterexample that needs more (an `if (*)`,
//! which is not C; values of uninitialised locals, parameters of the
//! entry or globals that the run reads; Cimple's `nondet()`), or whose
//! error C does not stop at (an index out of bounds, a division by zero,
//! a user condition), gets no harness, and the reason says why.

use crate::analysis::witness::Counterexample;
use crate::ir::{Cond, NodeKind, Program, SiteKind};
use std::fmt::Write;

/// The nondet functions a harness defines, with their C return types.
const NONDET: &[(&str, &str)] = &[
    ("int", "int"),
    ("i", "int"),
    ("long", "long"),
    ("uint", "unsigned int"),
    ("unsigned", "unsigned int"),
    ("unsigned_int", "unsigned int"),
    ("u32", "unsigned int"),
    ("ulong", "unsigned long"),
    ("unsigned_long", "unsigned long"),
    ("bool", "_Bool"),
    ("_Bool", "_Bool"),
    ("char", "char"),
    ("uchar", "unsigned char"),
    ("unsigned_char", "unsigned char"),
    ("short", "short"),
    ("ushort", "unsigned short"),
    ("unsigned_short", "unsigned short"),
    ("longlong", "long long"),
    ("long_long", "long long"),
    ("ulonglong", "unsigned long long"),
    ("unsigned_long_long", "unsigned long long"),
];

/// Whether `name` is a `__VERIFIER_nondet_*` function of an integer type
/// a harness defines.
pub fn is_nondet_integer(name: &str) -> bool {
    NONDET
        .iter()
        .any(|(s, _)| name.strip_prefix("__VERIFIER_nondet_") == Some(s))
}

/// The values a harness returns: per nondet call of the counterexample,
/// in order, the function called and the value; and `main`'s arguments
/// when the run reads them (the harness passes them to `main`).
pub struct Calls(pub Vec<(String, i64)>, pub Option<Vec<Vec<u8>>>);

/// The nondet calls of a counterexample, or why C cannot replay it.
pub fn nondet_calls(p: &Program, cx: &Counterexample) -> Result<Calls, String> {
    let run = &cx.run;
    let argv = super::argv_words::Argv::of(p);
    let argued = |n: &str| argv.as_ref().is_some_and(|a| a.is_argument(n));
    let words = argv
        .as_ref()
        .filter(|_| cx.read_inputs().any(|(n, _)| argued(n)))
        .and_then(|a| a.words(&cx.inputs));
    let read: Vec<&str> = cx
        .read_inputs()
        .map(|(n, _)| n.as_str())
        .filter(|n| words.is_none() || !argued(n))
        .collect();
    let why = "too many or too long for a harness to pass";
    if let Some(said) = super::argv_words::reads_arguments(p, &read, why) {
        return Err(said);
    }
    if !read.is_empty() {
        return Err(format!(
            "the run reads inputs a harness cannot set from outside the program ({})",
            read.join(", ")
        ));
    }
    let mut calls = Vec::new();
    for step in &run.trace {
        let node = p.node(step.node);
        match &node.kind {
            NodeKind::Branch { cond: Cond::Nondet, .. } => {
                return Err("the path takes an `if (*)`/`while (*)` choice, which is not C".into())
            }
            NodeKind::Havoc { .. } => {
                let text = p.text(node.span);
                let names: Vec<&str> = text
                    .match_indices("__VERIFIER_nondet_")
                    .map(|(i, _)| {
                        let rest = &text[i..];
                        let end = rest
                            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                            .unwrap_or(rest.len());
                        &rest[..end]
                    })
                    .collect();
                let line = p.source.start(node.span).line;
                match names.as_slice() {
                    [] => {
                        return Err(format!(
                            "the value drawn at line {line} is not a `__VERIFIER_nondet_*` result (an uninitialised local, or Cimple's `nondet()`)"
                        ))
                    }
                    [first, rest @ ..] if rest.iter().all(|n| n == first) => {
                        if !NONDET.iter().any(|(s, _)| first.strip_prefix("__VERIFIER_nondet_") == Some(s)) {
                            return Err(format!("`{first}` at line {line} is not a nondet function a harness defines"));
                        }
                        let value = step.value.ok_or_else(|| format!("no value drawn at line {line}"))?;
                        calls.push((first.to_string(), value));
                    }
                    _ => return Err(format!("line {line} calls several different nondet functions in one statement")),
                }
            }
            _ => {}
        }
    }
    if calls.len() != cx.choices.len() {
        return Err(format!(
            "the run draws {} values, of which {} are nondet calls",
            cx.choices.len(),
            calls.len()
        ));
    }
    Ok(Calls(calls, words))
}

/// Whether C stops (through the harness) at an error of this kind written
/// as `text`: a call of `reach_error`, `__VERIFIER_error`,
/// `__VERIFIER_assert` or `assert`, not an ACSL clause checked as an
/// assertion.
pub fn c_stops_at(kind: SiteKind, text: &str) -> bool {
    let called = ["reach_error", "__VERIFIER_error", "__VERIFIER_assert", "assert"]
        .iter()
        .any(|f| {
            text.strip_prefix(f)
                .is_some_and(|rest| rest.trim_start().starts_with('('))
        });
    matches!(kind, SiteKind::ReachError | SiteKind::Assert) && called
}

/// The harness's C text. `program` is the checked file's path as given,
/// `at` the error's `file:line`, `what` the error (`reach_error()`, ...).
pub fn c_text(program: &str, at: &str, what: &str, calls: &Calls) -> String {
    let mut out = String::new();
    let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let wrap = if calls.1.is_some() { " -Wl,--wrap=main" } else { "" };
    let _ = writeln!(
        out,
        "/* Test harness written by focuscheck: a counterexample of\n   {program}\n   that reaches {what} at {at}.\n   gcc -finstrument-functions{wrap} {program} THIS_FILE -o test && ./test\n   The run aborts with a message naming the error. */"
    );
    out.push_str("#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n");
    let _ = writeln!(out, "#define FC_NO __attribute__((no_instrument_function))");
    let _ = writeln!(out, "static const char *const fc_at = \"{}\";", esc(at));
    let _ = writeln!(out, "static const char *const fc_what = \"{}\";", esc(what));
    let _ = writeln!(out, "static const unsigned fc_count = {};", calls.0.len());
    out.push_str("static const struct { const char *f; long long v; } fc_values[] = {\n");
    for (f, v) in &calls.0 {
        let _ = writeln!(out, "    {{\"{f}\", {v}LL}},");
    }
    if calls.0.is_empty() {
        out.push_str("    {\"\", 0}\n");
    }
    out.push_str("};\nstatic unsigned fc_next;\n\n");
    out.push_str(
        r#"FC_NO static long long fc_value(const char *f) {
    if (fc_next >= fc_count) {
        fprintf(stderr, "harness: call %u of a nondet function (%s): the counterexample has only %u\n", fc_next + 1, f, fc_count);
        exit(3);
    }
    if (strcmp(fc_values[fc_next].f, f) != 0) {
        fprintf(stderr, "harness: call %u is %s, the counterexample's is %s\n", fc_next + 1, f, fc_values[fc_next].f);
        exit(3);
    }
    return fc_values[fc_next++].v;
}

FC_NO static void fc_reached(void) {
    fprintf(stderr, "%s: error: %s reached (the counterexample's %u nondet values used: %u)\n", fc_at, fc_what, fc_count, fc_next);
    abort();
}

"#,
    );
    for (suffix, ty) in NONDET {
        let _ = writeln!(
            out,
            "FC_NO __attribute__((weak)) {ty} __VERIFIER_nondet_{suffix}(void) {{ return ({ty}) fc_value(\"__VERIFIER_nondet_{suffix}\"); }}"
        );
    }
    out.push_str(
        r#"
/* The error functions, when the program only declares them. */
FC_NO __attribute__((weak)) void reach_error(void) { fc_reached(); }
FC_NO __attribute__((weak)) void __VERIFIER_error(void) { fc_reached(); }
/* Checks the program calls without defining them (Cimple's built-ins). */
FC_NO __attribute__((weak)) void __VERIFIER_assert(int c) { if (!c) fc_reached(); }
FC_NO __attribute__((weak)) void assert(int c) { if (!c) fc_reached(); }
FC_NO __attribute__((weak)) void __VERIFIER_assume(int c) {
    if (!c) { fprintf(stderr, "harness: an assumption fails: the counterexample ends here\n"); exit(4); }
}
FC_NO __attribute__((weak)) void assume_abort_if_not(int c) { __VERIFIER_assume(c); }
/* A failed assert(). */
FC_NO void __assert_fail(const char *a, const char *f, unsigned l, const char *fn) {
    (void) a; (void) f; (void) l; (void) fn;
    fc_reached();
}
/* On entry to any function of the program (-finstrument-functions): the
   program's own reach_error or __VERIFIER_error, whatever its body. */
FC_NO void __cyg_profile_func_enter(void *fn, void *site) {
    (void) site;
    if (fn == (void *) reach_error || fn == (void *) __VERIFIER_error)
        fc_reached();
}
FC_NO void __cyg_profile_func_exit(void *fn, void *site) { (void) fn; (void) site; }
"#,
    );
    if let Some(words) = &calls.1 {
        out.push_str(&arguments(words));
    }
    out
}

/// `main` called with the counterexample's arguments: `-Wl,--wrap=main`
/// makes the C runtime call `__wrap_main`, and the program's `main`
/// `__real_main` (the program compiles as written; without the option
/// the link fails rather than run without them).
fn arguments(words: &[Vec<u8>]) -> String {
    let mut out = String::from("\n/* main's arguments: ");
    out.push_str(&super::argv_words::describe(words));
    out.push_str(" */\n");
    for (i, w) in words.iter().enumerate() {
        let _ = writeln!(out, "static char fc_arg{i}[] = {};", super::argv_words::c_string(w));
    }
    let names: Vec<String> = (0..words.len()).map(|i| format!("fc_arg{i}")).collect();
    let _ = writeln!(out, "static char *fc_argv[] = {{{}, 0}};", names.join(", "));
    out.push_str("int __real_main(int argc, char **argv);\n");
    out.push_str("int __wrap_main(int argc, char **argv) {\n    (void) argc; (void) argv;\n");
    let _ = writeln!(out, "    return __real_main({}, fc_argv);\n}}", words.len());
    out
}
