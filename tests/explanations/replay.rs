//! Counterexamples a user can replay (issue 10, items 6-7): every unsafe
//! condition and every FSS with a witness prints the `focuscheck run`
//! command that replays it, and that command, run as printed, reaches the
//! same error; `run` asks only for the inputs it reads; traces name what a
//! user wrote, with values.

use crate::cli;
use cli::focuscheck;

/// The words of a command printed for a POSIX shell (plain words and
/// single-quoted ones, as `shell_word` writes them).
fn shell_words(cmd: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    let mut chars = cmd.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    words.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            '\\' if !quoted => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                    any = true;
                }
            }
            _ => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(cur);
    }
    words
}

/// The replay commands a report prints (`replay: focuscheck run ...`), with
/// the label `diff` puts in front (`REF:`, `NEW:`) removed.
fn replays(stdout: &str) -> Vec<Vec<String>> {
    stdout
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("replay: "))
        .map(|c| c.trim_start_matches("REF: ").trim_start_matches("NEW: "))
        .map(shell_words)
        .collect()
}

/// Runs a printed command (it starts with `focuscheck run`).
fn run_printed(words: &[String]) -> (i32, String, String) {
    assert_eq!(&words[..2], ["focuscheck", "run"], "{words:?}");
    let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
    focuscheck(&args)
}

const PROGRAMS: &[&str] = &[
    "programs/paper/lock.c",
    "programs/paper/minmax.c",
    "programs/paper/median_bug14.c",
    "programs/examples/array_bounds.c",
    "programs/examples/clock.c",
    "programs/examples/division.c",
    "programs/examples/goto_error.c",
    "programs/examples/int_types.c",
    "programs/examples/lock_nondet.c",
    "programs/examples/sort3_bug.c",
    "programs/examples/static_counter.c",
];

#[test]
fn every_printed_replay_command_reaches_its_error() {
    let mut ran = 0;
    for file in PROGRAMS {
        for view in ["reduced", "fss", "full"] {
            let (code, stdout, stderr) = focuscheck(&["check", file, "--view", view]);
            assert_eq!(code, 1, "{file}: {stdout}{stderr}");
            let cmds = replays(&stdout);
            assert!(!cmds.is_empty(), "{file} --view {view}: no replay command\n{stdout}");
            for words in cmds {
                let (code, out, err) = run_printed(&words);
                assert_eq!(code, 1, "{words:?} does not reach an error:\n{out}{err}");
                assert!(out.contains("result: error"), "{words:?}:\n{out}{err}");
                ran += 1;
            }
        }
    }
    assert!(ran >= 3 * PROGRAMS.len(), "{ran} commands");
}

#[test]
fn the_replay_of_a_bounds_error_names_the_index_and_the_size() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bounds.c");
    std::fs::write(
        &path,
        "int a[10];\nint twice(int k) { return k * 2; }\nint main() {\n  int x, y;\n  y = twice(x) + 1;\n  if (y > 20) {\n    a[y - 12] = 1;\n  }\n  return 0;\n}\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let (code, stdout, _) = focuscheck(&["check", file, "--view", "full"]);
    assert_eq!(code, 1, "{stdout}");
    // A call shows its argument values; a temporary is not named.
    assert!(stdout.contains("Called twice(k = "), "{stdout}");
    assert!(!stdout.contains('$'), "{stdout}");
    // The error names the index and the array's size.
    let line = stdout
        .lines()
        .find(|l| l.contains("Error: index"))
        .expect("an error line");
    assert!(line.contains("out of bounds for a[10] in `a[y - 12]`"), "{line}");
    let words = &replays(&stdout)[0];
    let (code, out, _) = run_printed(words);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("out of bounds for a[10]"), "{out}");
}

#[test]
fn run_asks_only_for_the_inputs_it_reads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("lazy.c");
    std::fs::write(
        &path,
        "int a, b;\nint main() {\n  int r;\n  if (a > 0) {\n    r = b;\n  } else {\n    r = 0;\n  }\n  return r;\n}\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    // `b` is not read when `a <= 0`: no value is needed.
    let (code, out, err) = focuscheck(&["run", file, "--input", "a=-1"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("`main` returned 0"), "{out}");
    // When it is read, the error names it and the line that reads it.
    let (code, out, err) = focuscheck(&["run", file, "--input", "a=1"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("no value for input `b`"), "{err}");
    assert!(err.contains("lazy.c:5:"), "{err}");
    assert!(err.contains("`r = b`"), "{err}");
}

#[test]
fn a_comma_list_underlines_each_item_that_matters() {
    // median_bug14's line 13 `o4=a4,o5=a5`: both assignments are focus.
    let (_, stdout, _) = focuscheck(&["check", "programs/paper/median_bug14.c"]);
    let lines: Vec<&str> = stdout.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("13 │         o4=a4,o5=a5;"))
        .expect("line 13 in a NEST");
    let marks = lines[at + 1];
    assert_eq!(marks.matches("-----").count(), 2, "{marks}");
}

/// A run of many equal values (an array's worth of zeros) is replayed as
/// `--fill V` and its choices are shown folded; the command reaches the
/// error, and `run --fill` with another value does not.
#[test]
fn many_equal_values_are_replayed_with_fill() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("zeros.c");
    std::fs::write(
        &path,
        "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\nint main(void) {\n  int a[20];\n  for (int i = 0; i < 20; i++) a[i] = __VERIFIER_nondet_int();\n  int same = 1;\n  for (int i = 1; i < 20; i++) if (a[i] != a[0]) same = 0;\n  if (same && a[0] == 0) reach_error();\n  return 0;\n}\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let (code, stdout, stderr) = focuscheck(&["check", file, "--view", "full"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    assert!(stdout.contains("choices: 0 (×20)"), "{stdout}");
    let cmds = replays(&stdout);
    assert!(!cmds.is_empty(), "{stdout}");
    for words in cmds {
        assert_eq!(words[3..], ["--fill", "0"], "{words:?}");
        let (code, out, err) = run_printed(&words);
        assert_eq!(code, 1, "{words:?}:\n{out}{err}");
        assert!(out.contains("result: error"), "{out}");
        assert!(out.contains("choices: 0 (×20)"), "{out}");
    }
    let (code, out, err) = focuscheck(&["run", file, "--fill", "1"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("finished without error"), "{out}");
}

/// A folded loop that calls a function with an array names the program's
/// values only: not a pointer's tag or offset, nor a temporary.
#[test]
fn a_folded_call_with_an_array_names_only_program_values() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fold_array.c");
    std::fs::write(
        &path,
        "extern void reach_error(void);\nint first(int a[], int n) { return n > 0 ? a[0] : -1; }\nint main(void) {\n  int a[8];\n  int s = 0;\n  for (int i = 0; i < 8; i++) {\n    a[i] = i;\n    s += first(a, i);\n  }\n  if (s == -1) reach_error();\n  return 0;\n}\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let (code, stdout, stderr) = focuscheck(&["check", file, "--view", "full"]);
    assert_eq!(code, 1, "{stdout}{stderr}");
    let folds: Vec<&str> = stdout.lines().filter(|l| l.contains(" × ")).collect();
    assert!(folds.iter().any(|l| l.contains("`i` from")), "{stdout}");
    for l in folds {
        assert!(!l.contains(".off") && !l.contains('$') && !l.contains("`a` ="), "{l}");
    }
}

/// The replay commands of JSON, SARIF and HTML (issue 54 part 4): every
/// unsafe condition of the JSON document carries one, and so does each
/// FSS with a counterexample; run as written, each reaches the error at the
/// condition's line. SARIF's results carry the same command as a property,
/// and the HTML report shows it.
#[test]
fn json_sarif_and_html_carry_replay_commands_that_reach_the_error() {
    let mut ran = 0;
    for file in &PROGRAMS[..4] {
        let (_, json, _) = focuscheck(&["check", file, "--format", "json", "--view", "fss"]);
        let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
        let mut cmds = Vec::new();
        let doc = if doc.is_array() { &doc[0] } else { &doc };
        for c in doc["conditions"].as_array().unwrap() {
            if c["verdict"] != "unsafe" {
                continue;
            }
            // A condition on variables has no line of its own.
            let line = c["line"].as_u64();
            let replay = c["replay"]
                .as_str()
                .unwrap_or_else(|| panic!("{file}: no replay in {c}"));
            cmds.push((replay.to_string(), line));
            for f in c["fss"].as_array().unwrap() {
                if let Some(r) = f["replay"].as_str() {
                    cmds.push((r.to_string(), line));
                }
            }
        }
        assert!(!cmds.is_empty(), "{file}: no unsafe condition");
        for (cmd, line) in &cmds {
            let (code, out, err) = run_printed(&shell_words(cmd));
            assert_eq!(code, 1, "{cmd} does not reach an error:\n{out}{err}");
            if let Some(line) = line {
                assert!(
                    out.contains(&format!("{file}:{line}:")),
                    "{cmd} ends elsewhere than line {line}:\n{out}"
                );
            }
            ran += 1;
        }
        let (_, sarif, _) = focuscheck(&["check", file, "--format", "sarif"]);
        let log: serde_json::Value = serde_json::from_str(&sarif).unwrap();
        let in_sarif: Vec<&str> = log["runs"][0]["results"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|r| r["properties"]["replay"].as_str())
            .collect();
        assert!(
            !in_sarif.is_empty() && in_sarif.iter().all(|r| cmds.iter().any(|(c, _)| c == r)),
            "{file}: {in_sarif:?}"
        );
        let dir = std::env::temp_dir().join(format!("fc-replay-html-{}-{}", std::process::id(), ran));
        let (code, _, err) = focuscheck(&["check", file, "--html", dir.to_str().unwrap()]);
        assert_eq!(code, 1, "{err}");
        let page = std::fs::read_dir(dir.join("files"))
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let html = std::fs::read_to_string(page).unwrap();
        assert!(
            html.contains("replay: <code>focuscheck run "),
            "{file}: no replay in the HTML"
        );
        let _ = std::fs::remove_dir_all(dir);
    }
    assert!(ran >= 4, "{ran} commands");
}

/// Each error states its fact (issue 54 part 2): the index and the
/// array's size, the element of the object a pointer left, the values the
/// failed assertion read; in the text report, JSON and SARIF alike.
#[test]
fn an_error_states_its_fact() {
    let dir = std::env::temp_dir().join(format!("fc-fact-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        ("int a[4];\nint main(void) {\n  int i = __VERIFIER_nondet_int();\n  if (i == 6)\n    a[i] = 1;\n  return 0;\n}\n", "index 6, `a` has 4 elements"),
        ("int get(int *p, int k) { return p[k]; }\nint main(void) {\n  int a[3] = {1, 2, 3};\n  return get(a, 3);\n}\n", "element 3 of `a`, which has 3 elements"),
        ("int main(void) {\n  int x = __VERIFIER_nondet_int();\n  int y = 10;\n  if (x == 7)\n    y = 2 * x;\n  assert(y < x + 3);\n  return 0;\n}\n", "y = 1"),
        ("int main(void) {\n  int x = __VERIFIER_nondet_int();\n  return 100 / (x - 5);\n}\n", "the divisor is 0; x = 5"),
        // A wrap-around behind the index, said where it happened.
        ("int a[8];\nint main(void) {\n  unsigned int n = __VERIFIER_nondet_uint();\n  if (n > 8)\n    return 0;\n  unsigned int last = n - 1;\n  a[last] = 1;\n  return 0;\n}\n", "index 4294967295, `a` has 8 elements; `n - 1` wrapped from -1 to 4294967295 at line 6"),
        // Under no-overflow: the result, the type's bound and the operands.
        ("int main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x > 2000000000)\n    return x + x;\n  return 0;\n}\n", "`x + x` is "),
        ("int main(void) {\n  int n = __VERIFIER_nondet_int();\n  if (n > 5)\n    return 0;\n  int a[n];\n  a[0] = 1;\n  return a[0];\n}\n", "the size is "),
        // A pointer said as C (`q` is NULL, not `q = 0`).
        ("struct s { int v; };\nstruct s g;\nstruct s *find(int k) { return k == 1 ? &g : 0; }\nint main(void) {\n  struct s *q = find(__VERIFIER_nondet_int());\n  return q->v;\n}\n", "`q` is NULL"),
    ];
    for (k, (text, fact)) in cases.iter().enumerate() {
        let f = dir.join(format!("f{k}.c"));
        std::fs::write(&f, text).unwrap();
        let f = f.to_str().unwrap();
        let check = |more: &[&str]| {
            let property = if fact.contains('+') { "no-overflow" } else { "all" };
            let mut args = vec!["check", f, "--property", property];
            args.extend(more);
            focuscheck(&args)
        };
        let (code, out, err) = check(&[]);
        assert_eq!(code, 1, "{out}{err}");
        assert!(out.contains(&format!("  fact: {fact}")), "no `{fact}` in\n{out}");
        if fact.contains('+') {
            let line = out.lines().find(|l| l.contains("fact:")).unwrap();
            assert!(
                line.contains("; `int` holds at most 2147483647; x = "),
                "the overflow's bound and operands: {line}"
            );
        }
        let (_, json, _) = check(&["--format", "json"]);
        assert!(json.contains(&format!("\"fact\": \"{fact}")), "{json}");
        let (_, sarif, _) = check(&["--format", "sarif"]);
        assert!(sarif.contains(&format!("can fail: {fact}")), "{sarif}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
