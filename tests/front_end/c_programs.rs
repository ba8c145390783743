//! Ordinary C programs (`programs/c/`) with headers and macros, checked as
//! a user would: the verdict, the file and line of the error (in a header
//! when it is there), and what `-D` changes.

use crate::cli;
use cli::focuscheck;

/// `check`'s exit code and text report.
fn check(args: &[&str]) -> (i32, String) {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    let (code, stdout, stderr) = focuscheck(&all);
    assert!(
        matches!(code, 0 | 1 | 3),
        "check {args:?} failed ({code}):\n{stdout}\n{stderr}"
    );
    (code, stdout)
}

#[test]
fn a_correct_ring_buffer_with_a_local_header_is_safe() {
    let (code, out) = check(&["programs/c/ring_ok.c", "--verbose"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 unsafe, 0 unknown"), "{out}");
    // Conditions in the header are located in the header.
    assert!(out.contains("(programs/c/ring.h:18:"), "{out}");
}

#[test]
fn the_ring_buffer_overflow_is_found_where_it_is_written() {
    let (code, out) = check(&["programs/c/ring_bug.c"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("unsafe: array bounds in `r.data[r.head] = v`"), "{out}");
    assert!(out.contains("--> programs/c/ring_bug.c:14:"), "{out}");
}

#[test]
fn an_error_in_a_header_names_the_header_and_its_line() {
    let (code, out) = check(&["programs/c/stats_bug.c"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("--> programs/c/stats.h:10:"), "{out}");
    // The snippet shows the header's line.
    assert!(out.contains("s += w[i];"), "{out}");
}

#[test]
fn defining_debug_on_the_command_line_changes_the_verdict() {
    let (code, out) = check(&["programs/c/debug_bug.c"]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = check(&["-D", "DEBUG", "programs/c/debug_bug.c"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("--> programs/c/debug_bug.c:18:"), "{out}");
    // The replay command carries the definition.
    assert!(out.contains("-D DEBUG"), "{out}");
    // `-U` takes it away again.
    let (code, _) = check(&["-D", "DEBUG", "-U", "DEBUG", "programs/c/debug_bug.c"]);
    assert_eq!(code, 0);
}

#[test]
fn limits_and_function_like_macros_under_no_overflow() {
    let (code, out) = check(&["--property", "no-overflow", "programs/c/limits_ok.c"]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = check(&["--property", "no-overflow", "programs/c/limits_bug.c"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("signed overflow in `AVG(a, b)`"), "{out}");
    assert!(out.contains("uses the definition at <limits.h>:"), "{out}");
}

#[test]
fn an_include_directory_is_searched() {
    let dir = tempfile::tempdir().expect("a directory");
    let inc = dir.path().join("inc");
    std::fs::create_dir(&inc).expect("inc");
    cli::write(&inc, "cfg.h", "#define LIMIT 3\n");
    let main = cli::write(
        dir.path(),
        "m.c",
        "#include <cfg.h>\nint a[LIMIT];\nint main(void) {\n  int i = __VERIFIER_nondet_int();\n  if (i >= 0 && i <= LIMIT)\n    a[i] = 1;\n  return 0;\n}\n",
    );
    let (code, stdout, stderr) = focuscheck(&["check", &main]);
    assert_eq!(code, 2, "without -I the header is missing");
    let all = format!("{stdout}{stderr}");
    assert!(all.contains("cannot find the header <cfg.h>"), "{all}");
    let inc = inc.to_string_lossy().into_owned();
    let (code, out) = check(&["-I", &inc, &main]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("array bounds in `a[i]`"), "{out}");
    // The other commands read the same options.
    let (code, out, err) = focuscheck(&["run", "-I", &inc, &main, "--choices", "3"]);
    assert!(matches!(code, 0 | 1 | 3), "{out}{err}");
}

#[test]
fn a_null_callback_in_a_handler_table_is_found_and_explained() {
    let (code, out) = check(&["programs/c/callback_bug.c"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("unsafe: function pointer call in `handlers[ev](&state, arg)`"),
        "{out}"
    );
    assert!(out.contains("--> programs/c/callback_bug.c:26:"), "{out}");
    // The NEST marks the call as the error, in words of its own.
    assert!(out.contains("^^^^^^^^^^^^ the error"), "{out}");
    // The run that replays it calls through the null entry, and a valid
    // entry's call says which function it calls.
    let (_, run, _) = focuscheck(&["run", "programs/c/callback_bug.c", "--choices", "0,0,2,3,0", "--trace"]);
    assert!(run.contains("call through an invalid function pointer"), "{run}");
    let (_, run, _) = focuscheck(&[
        "run",
        "programs/c/callback_bug.c",
        "--choices",
        "0,0,2,2,0",
        "--fill",
        "0",
        "--trace",
    ]);
    assert!(run.contains("`handlers[ev](&state, arg)` calls `on_double`"), "{run}");
}

#[test]
fn a_dispatch_table_of_operations_is_safe() {
    let (code, out) = check(&["programs/c/dispatch_ok.c"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 unsafe, 0 unknown"), "{out}");
}

#[test]
fn an_image_walked_with_pointers_to_rows_is_safe() {
    let (code, out) = check(&["programs/c/image_ok.c"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("0 unsafe, 0 unknown"), "{out}");
}

#[test]
fn a_row_pointer_one_past_the_image_is_found_where_it_is_read() {
    let (code, out) = check(&["programs/c/image_bug.c"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("unsafe: pointer access in `(*bottom)[x]`"), "{out}");
    assert!(out.contains("--> programs/c/image_bug.c:21:"), "{out}");
    // Inside the row pointer's row, the index is checked against the row.
    let dir = tempfile::tempdir().expect("a temporary directory");
    let past = cli::write(
        dir.path(),
        "past.c",
        "int a[3][4];\nint main(void) {\n  int (*p)[4] = a + 1;\n  p++;\n  return (*p)[4];\n}\n",
    );
    let (code, out) = check(&[&past]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("unsafe: array bounds in `(*p)[4]`"), "{out}");
}

/// A `printf` anywhere in the file (its model draws its result from
/// `__VERIFIER_nondet_int`) once made the file look like an SV-COMP task,
/// whose globals start at 0: the entry's global input was then 0 alone,
/// and an out-of-bounds `a[G + 1]` was called safe.
#[test]
fn a_printf_does_not_change_what_the_globals_start_with() {
    let dir = tempfile::tempdir().unwrap();
    for call in ["", "printf(\"%d\\n\", G);", "fprintf(stdout, \"x\");"] {
        let text = format!(
            "#include <stdio.h>\nint G;\nint f(void) {{ int a[2] = {{0, 1}}; return a[G + 1]; }}\n\
             int main(void) {{ {call} return f(); }}\n"
        );
        let file = cli::write(dir.path(), "g.c", &text);
        let (code, out) = check(&[&file, "--entry", "f"]);
        assert_eq!(code, 1, "with `{call}`: {out}");
        assert!(
            out.contains("unsafe: array bounds in `a[G + 1]`"),
            "with `{call}`: {out}"
        );
    }
}
