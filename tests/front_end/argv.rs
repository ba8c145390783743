//! `int main(int argc, char **argv)` as C gives them: `argc` from 1,
//! `argv[argc]` NULL, each argument a string of any length (the model
//! holds its first `--param-elems` chars). A counterexample's arguments
//! are said as C writes them, replay as `focuscheck run FILE -- ARGV` and
//! are passed by the C harness; no witness claims them.

use crate::cli;
use cli::focuscheck;

/// `check --format json` of `text` (in a temporary `t.c`) with `extra`;
/// the exit code, the document, and the directory (kept for replays).
fn check_json(text: &str, extra: &[&str]) -> (i32, serde_json::Value, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = cli::write(dir.path(), "t.c", text);
    let mut args = vec!["check", "--format", "json"];
    if !extra.contains(&"--timeout") {
        args.extend(["--timeout", "60"]);
    }
    args.extend_from_slice(extra);
    args.push(&path);
    let (code, out, err) = focuscheck(&args);
    let doc = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
    (code, doc, dir)
}

fn verdicts(doc: &serde_json::Value) -> Vec<String> {
    let cs = doc["conditions"].as_array().expect("conditions");
    cs.iter()
        .map(|c| c["verdict"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn strcpy_of_a_long_argument_overflows_and_replays() {
    let text = "#include <string.h>\nint main(int argc, char **argv) {\n  char buf[8];\n  \
                if (argc < 2)\n    return 1;\n  strcpy(buf, argv[1]);\n  return buf[0];\n}\n";
    let (code, doc, _dir) = check_json(text, &[]);
    assert_eq!(code, 1, "{doc}");
    let c = cli::first_unsafe(&doc);
    assert_eq!(c["line"], 6, "{c}");
    let inputs = c["inputs"].as_object().expect("inputs");
    assert!(inputs["argc"].as_i64().expect("argc") >= 2, "{c}");
    // `argv[1]` has 8 chars or more: its size (length + 1) is 9 or more.
    let size = inputs["argv[1]@entry::(bytes)"].as_i64().expect("argv[1]'s size");
    assert!(size >= 9, "{c}");
    // The arguments as C writes them, and the replay command a user
    // copies: the arguments after `--`, run by bash as printed.
    let said = c["arguments"].as_str().expect("the arguments");
    assert!(
        said.starts_with(&format!("argc = {}, argv = {{\"", inputs["argc"])),
        "{said}"
    );
    let replay = c["replay"].as_str().expect("a replay command");
    assert!(replay.contains(" -- ") && !replay.contains("@entry"), "{replay}");
    let (code, out, err) = in_bash(replay);
    assert!(code == 1 && out.contains("result: error"), "{out}{err}");
    assert!(
        out.contains(":6:") && out.contains(&format!("arguments: {said}")),
        "{out}"
    );
}

/// `command` (a printed `focuscheck ...` line) run by bash, `focuscheck`
/// this build's binary.
fn in_bash(command: &str) -> (i32, String, String) {
    let rest = command.strip_prefix("focuscheck ").expect("a focuscheck command");
    let line = format!("\"$FC\" --color never {rest}");
    let out = std::process::Command::new("bash")
        .args(["-c", &line])
        .env("FC", env!("CARGO_BIN_EXE_focuscheck"))
        .output()
        .expect("bash runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (out.status.code().unwrap_or(-1), text(&out.stdout), text(&out.stderr))
}

#[test]
fn run_takes_the_arguments_after_two_dashes_and_says_them() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "#include <string.h>\nint main(int argc, char **argv) {\n  char buf[8];\n  \
                if (argc < 2)\n    return 1;\n  strcpy(buf, argv[1]);\n  return buf[2] == 'c';\n}\n";
    let path = cli::write(dir.path(), "t.c", text);
    let (code, out, err) = focuscheck(&["run", &path, "--fill", "0", "--", "tag", "abc"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("arguments: argc = 2, argv = {\"tag\", \"abc\"}"), "{out}");
    assert!(out.contains("`main` returned 1") && !out.contains("@entry"), "{out}");
    // Eight chars and the terminator overflow `buf`; a char outside
    // printable ASCII is said as C escapes it.
    let (code, out, err) = focuscheck(&["run", &path, "--fill", "0", "--", "t", "\u{1}bcdefgh"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("argv = {\"t\", \"\\x01\" \"bcdefgh\"}") && out.contains(":6:"),
        "{out}"
    );
    // A program without `argv` takes none.
    let none = cli::write(dir.path(), "n.c", "int main(void) { return 0; }\n");
    let (code, _, err) = focuscheck(&["run", &none, "--", "x"]);
    assert!(code == 2 && err.contains("does not read `argv`"), "{err}");
}

#[test]
fn a_bounded_strncpy_of_an_argument_is_never_unsafe() {
    let text = "#include <string.h>\nint main(int argc, char *argv[]) {\n  char buf[8];\n  \
                if (argc < 2)\n    return 1;\n  strncpy(buf, argv[1], sizeof buf - 1);\n  \
                buf[sizeof buf - 1] = 0;\n  return buf[0];\n}\n";
    let (code, doc, _dir) = check_json(text, &[]);
    assert_eq!(code, 0, "{doc}");
    assert!(verdicts(&doc).iter().all(|v| v == "safe"), "{doc}");
}

#[test]
fn argv_ends_with_null() {
    // Exactly for `argc` up to 3 (the pointers the model holds); larger
    // `argc` reaches past them: unknown, never unsafe.
    let held = "extern void reach_error(void);\nint main(int argc, char **argv) {\n  \
                if (argc <= 3 && argv[argc] != 0)\n    reach_error();\n  return 0;\n}\n";
    let (code, doc, _dir) = check_json(held, &[]);
    assert_eq!(code, 0, "{doc}");
    assert!(verdicts(&doc).iter().all(|v| v == "safe"), "{doc}");
    let any = held.replace("argc <= 3 && ", "");
    let (_, doc, _dir) = check_json(&any, &[]);
    let vs = verdicts(&doc);
    assert!(!vs.iter().any(|v| v == "unsafe"), "{doc}");
    assert!(vs.iter().any(|v| v == "unknown"), "{doc}");
    // Past `argv[argc]`: an invalid access.
    let past = held.replace("argv[argc] != 0", "argv[argc + 1] != 0");
    let (code, doc, _dir) = check_json(&past, &[]);
    assert_eq!(code, 1, "{doc}");
    assert_eq!(cli::first_unsafe(&doc)["line"], 3, "{doc}");
}

#[test]
fn atoi_of_argv_1_without_a_check_of_argc_is_unsafe() {
    let text = "#include <stdlib.h>\nint main(int argc, const char **argv) {\n  return atoi(argv[1]);\n}\n";
    let (code, doc, _dir) = check_json(text, &["--param-elems", "4"]);
    assert_eq!(code, 1, "{doc}");
    let c = cli::first_unsafe(&doc);
    assert_eq!(c["line"], 3, "{c}");
    assert_eq!(c["inputs"]["argc"], 1, "{c}");
}

#[test]
fn a_number_argument_bounding_a_loop_is_found_and_replays() {
    // The usual command-line program: `atoi(argv[1])` items into a fixed
    // array. Chars drawn at random are almost never digits, so only a
    // run on a command line of numbers (or the search) reaches the error.
    let text = "#include <stdlib.h>\nint main(int argc, char **argv) {\n  if (argc < 2)\n    \
                return 1;\n  int n = atoi(argv[1]);\n  int a[10];\n  for (int i = 0; i < n; i++)\n    \
                a[i] = i;\n  return a[0];\n}\n";
    let (code, doc, _dir) = check_json(text, &["--timeout", "5"]);
    assert_eq!(code, 1, "{doc}");
    let c = cli::first_unsafe(&doc);
    assert_eq!(c["line"], 8, "{c}");
    let replay = c["replay"].as_str().expect("a replay command");
    let (code, out, err) = in_bash(replay);
    assert_eq!(code, 1, "{replay}: {out}{err}");
    assert!(out.contains(":8:"), "{replay}: {out}");
}

#[test]
fn reading_one_argument_explores_that_string_alone() {
    // Four strings of 17 lengths each made 17^4 paths before `main` began
    // (2,000,000 states, unknown); the one `argv[1]` read is explored alone.
    let text = "int main(int argc, char **argv) {\n  if (argc < 2)\n    return 1;\n  \
                char c = argv[1][0];\n  return c;\n}\n";
    let (code, doc, _dir) = check_json(text, &["--engine", "fsum"]);
    assert_eq!(code, 0, "{doc}");
    assert!(verdicts(&doc).iter().all(|v| v == "safe"), "{doc}");
}

#[test]
fn a_harness_passes_the_arguments_and_no_witness_claims_them() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "extern void reach_error(void);\nint main(int argc, char **argv) {\n  \
                if (argc >= 2 && argv[1][0] == 'x')\n    reach_error();\n  return 0;\n}\n";
    let path = cli::write(dir.path(), "t.c", text);
    let (w, h) = (dir.path().join("w.yml"), dir.path().join("tests"));
    let (w, h) = (w.to_string_lossy(), h.to_string_lossy());
    let (code, out, err) = focuscheck(&["check", "--witness", &w, "--tests", &h, &path]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("unsafe: call `reach_error()`"), "{out}");
    let said = format!("{out}{err}");
    let why = said
        .lines()
        .find(|l| l.contains("no violation witness"))
        .unwrap_or_default();
    assert!(
        why.contains("the run reads `main`'s arguments (`argc`, `argv`), and a witness 2.0 has no waypoint")
            && !why.contains("@entry"),
        "{said}"
    );
    assert!(!dir.path().join("w.yml").exists(), "{said}");
    let harness = said
        .lines()
        .find_map(|l| l.split_once(": test harness ").map(|(_, p)| p.to_string()))
        .unwrap_or_else(|| panic!("a harness: {said}"));
    let c = std::fs::read_to_string(&harness).expect("the harness");
    assert!(
        c.contains("-Wl,--wrap=main") && c.contains("/* main's arguments: argc = "),
        "{c}"
    );
    // Built as its first lines say, it runs `main` on the arguments into
    // `reach_error`.
    let exe = dir.path().join("t");
    let cc = std::process::Command::new("gcc")
        .args(["-finstrument-functions", "-Wl,--wrap=main", "-w", "-o"])
        .arg(&exe)
        .args([&path, &harness])
        .output();
    let Ok(cc) = cc else {
        eprintln!("gcc not found: the harness is not built");
        return;
    };
    assert!(cc.status.success(), "{}", String::from_utf8_lossy(&cc.stderr));
    let run = std::process::Command::new(&exe).output().expect("the test runs");
    let stderr = String::from_utf8_lossy(&run.stderr);
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(run.status.signal(), Some(6), "{stderr}");
    assert!(
        stderr.contains("t.c:4: error: ") && stderr.contains(" reached"),
        "{stderr}"
    );
}

#[test]
fn envp_is_refused_in_c_words() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "int main(int argc, char **argv, char **envp) {\n  return argc > 1 && argv[1][0] && envp[0];\n}\n";
    let path = cli::write(dir.path(), "t.c", text);
    let (code, out, err) = focuscheck(&["check", &path]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("t.c:1:33: `main`'s third parameter `envp` (the environment, `envp`) is not modelled"),
        "{err}"
    );
}
