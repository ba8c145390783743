//! Options as a user meets them: bad values are usage errors (exit 2) that
//! say what is accepted, never a panic; `--fss` beyond the FSSs says how
//! many there are; what the text report says without explanations, of a
//! safe condition and of a file with no error condition; `--help` describes
//! every argument; `--max-memory` turns a blow-up into `unknown`.

use crate::cli;
use cli::focuscheck;

/// Writes `text` to a file `name` in a fresh directory.
fn program(name: &str, text: &str) -> (tempfile::TempDir, String) {
    let d = tempfile::tempdir().unwrap();
    let p = d.path().join(name);
    std::fs::write(&p, text).unwrap();
    (d, p.display().to_string())
}

#[test]
fn bad_option_values_are_usage_errors() {
    let cases: &[(&str, &str)] = &[
        ("--timeout", "nan"),
        ("--timeout", "inf"),
        ("--timeout", "1e20"),
        ("--timeout", "-1"),
        ("--timeout", "0"),
        ("--timeout", "ten"),
        ("--max-states", "0"),
        ("--max-states", "-5"),
        ("--jobs", "0"),
        ("--fss", "0"),
        ("--max-memory", "12X"),
        ("--max-memory", "nan"),
        ("--max-memory", "0"),
        ("--max-memory", "150%"),
    ];
    for (opt, value) in cases {
        let arg = format!("{opt}={value}");
        let (code, stdout, stderr) = focuscheck(&["check", "programs/paper/lock.c", &arg]);
        assert_eq!(code, 2, "{arg}: {stdout}{stderr}");
        assert!(stdout.is_empty(), "{arg}: {stdout}");
        assert!(stderr.contains(opt) && stderr.contains(value), "{arg}: {stderr}");
    }
    for (arg, value) in [("--timeout", "inf"), ("--max-states", "0"), ("--fss", "0")] {
        let (code, _, stderr) = focuscheck(&[
            "diff",
            "programs/diff/shipping_ref.c",
            "programs/diff/shipping_new.c",
            "--entry",
            "shipping",
            arg,
            value,
        ]);
        assert_eq!(code, 2, "diff {arg} {value}: {stderr}");
    }
    // --fss needs the explanations --no-explain leaves out.
    let (code, _, stderr) = focuscheck(&["check", "programs/paper/lock.c", "--no-explain", "--fss", "1"]);
    assert_eq!(code, 2, "{stderr}");
    // Good values are taken.
    let (code, _, stderr) = focuscheck(&[
        "check",
        "programs/paper/lock.c",
        "--timeout",
        "30",
        "--max-memory",
        "50%",
        "--no-explain",
    ]);
    assert_eq!(code, 1, "{stderr}");
}

#[test]
fn fss_out_of_range_says_how_many_there_are() {
    // lock.c has two FSSs (the paper's).
    let (code, stdout, _) = focuscheck(&["check", "programs/paper/lock.c", "--view", "fss"]);
    assert_eq!(code, 1);
    let n = stdout.matches("  FSS ").count();
    assert_eq!(n, 2, "{stdout}");
    let (code, stdout, stderr) = focuscheck(&["check", "programs/paper/lock.c", "--fss", "3"]);
    assert_eq!(code, 2, "{stdout}{stderr}");
    assert!(stderr.contains("--fss 3") && stderr.contains("is 2"), "{stderr}");
    assert!(stdout.contains("this condition has 2 FSSs"), "{stdout}");
    let (code, stdout, _) = focuscheck(&["check", "programs/paper/lock.c", "--fss", "2", "--view", "fss"]);
    assert_eq!(code, 1);
    assert!(stdout.contains("FSS 2 of 2"), "{stdout}");
}

#[test]
fn no_explain_counts_no_fss() {
    let (code, stdout, _) = focuscheck(&["check", "programs/paper/lock.c", "--no-explain"]);
    assert_eq!(code, 1);
    assert!(stdout.contains("unsafe: error"), "{stdout}");
    assert!(!stdout.contains("FSS"), "{stdout}");
}

#[test]
fn a_safe_condition_names_its_line() {
    let (_d, path) = program(
        "safe.c",
        "int main() {\n  int x;\n  if (x > 3)\n    assert(x > 2);\n  return 0;\n}\n",
    );
    let (code, stdout, _) = focuscheck(&["check", &path, "--verbose"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains(&format!("safe: assertion `assert(x > 2)` ({path}:4:5)")),
        "{stdout}"
    );
    // A user condition: where its variable is declared.
    let (_d, path) = program(
        "flag.c",
        "int main() {\n  int x = 1;\n  bool error = false;\n  if (x == 2) error = true;\n  return 0;\n}\n",
    );
    let (code, stdout, _) = focuscheck(&["check", &path, "-v"]);
    assert_eq!(code, 0, "{stdout}");
    assert!(
        stdout.contains(&format!("safe: error (declared at {path}:3:8)")),
        "{stdout}"
    );
}

/// Bugs first: a file's unsafe condition comes before its safe ones, which
/// are only counted unless `--verbose` lists them (identical lines folded);
/// a batch's summary names the line of every error found.
#[test]
fn bugs_come_first_and_the_summary_names_them() {
    let text = "int main() {\n  int x;\n  int a[4];\n  int y = x & 3;\n  a[y] = 1;\n  a[3 - y] = 1;\n  assert(x != 2);\n  return 0;\n}\n";
    let (d, path) = program("mixed.c", text);
    let (code, stdout, _) = focuscheck(&["check", &path]);
    assert_eq!(code, 1, "{stdout}");
    let unsafe_at = stdout.find("unsafe: assertion `assert(x != 2)`").expect(&stdout);
    assert!(!stdout.contains("  safe: "), "{stdout}");
    assert!(
        stdout.contains("2 conditions safe (`--verbose` lists them)"),
        "{stdout}"
    );
    let (_, verbose, _) = focuscheck(&["check", &path, "--verbose"]);
    let safe_at = verbose.find("  safe: array bounds").expect(&verbose);
    assert!(verbose.find("unsafe: assertion").unwrap() < safe_at, "{verbose}");
    assert!(unsafe_at < stdout.len());
    // A second file makes a batch: its summary lists the error with its line.
    std::fs::write(d.path().join("ok.c"), "int main() {\n  return 0;\n}\n").unwrap();
    let dir = d.path().to_str().unwrap();
    let (code, batch, _) = focuscheck(&["check", dir]);
    assert_eq!(code, 1, "{batch}");
    let errors = &batch[batch.find("errors found (1):").expect(&batch)..];
    assert!(
        errors.contains(&format!("{path}:7:3: assertion `assert(x != 2)`")),
        "{errors}"
    );
}

#[test]
fn a_file_without_error_condition_says_so_and_suggests_flags() {
    let (_d, path) = program(
        "noerr.c",
        "int failures;\nvoid step(int x) {\n  bool err = false;\n  if (x > 3) err = true;\n  if (err) failures++;\n}\nint main() {\n  int x;\n  step(x);\n  return 0;\n}\n",
    );
    let (code, stdout, _) = focuscheck(&["check", &path]);
    assert_eq!(code, 0, "{stdout}");
    assert!(stdout.contains("no error condition to check"), "{stdout}");
    assert!(
        stdout.contains("`--error 'failures'`") && stdout.contains("`--error 'step::err'`"),
        "{stdout}"
    );
    // The suggestion works as printed.
    let (code, stdout, _) = focuscheck(&["check", &path, "--error", "step::err"]);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("unsafe: step::err"), "{stdout}");
}

#[test]
fn help_describes_every_argument() {
    let (_, top, _) = focuscheck(&["--help"]);
    let commands: Vec<String> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .filter(|c| c != "help")
        .collect();
    assert!(commands.len() >= 5, "{top}");
    for c in std::iter::once(None).chain(commands.iter().map(Some)) {
        let args: Vec<&str> = c.map(|c| vec![c.as_str(), "--help"]).unwrap_or(vec!["--help"]);
        let (code, help, _) = focuscheck(&args);
        assert_eq!(code, 0);
        let lines: Vec<&str> = help.lines().collect();
        for (i, l) in lines.iter().enumerate() {
            // An argument's line, then its description, indented further.
            let t = l.trim_start();
            if l.starts_with("  ") && !l.starts_with("   ") && (t.starts_with('-') || t.starts_with('<')) {
                let next = lines.get(i + 1).copied().unwrap_or("");
                assert!(
                    next.chars().any(|ch| ch.is_alphabetic()),
                    "`focuscheck {}` has no description for `{t}`",
                    args.join(" ")
                );
            }
        }
    }
}

#[test]
fn a_blow_up_becomes_unknown_memory_and_truncated() {
    // Every loop iteration is a new state holding a fresh 1000-element
    // array: memory grows with exploration until the limit cuts it.
    let (_d, path) = program(
        "blow.c",
        "int a[1000];\nint main() {\n  int n;\n  int i = 0;\n  while (i < n) {\n    a[i % 1000] = i;\n    i++;\n  }\n  assert(i >= 0);\n  return 0;\n}\n",
    );
    let (code, stdout, stderr) = focuscheck(&[
        "check",
        &path,
        "--unroll",
        "1000000",
        "--max-memory",
        "48M",
        "--no-explain",
        "--format",
        "json",
    ]);
    // Nothing found, everything unknown: exit 3.
    assert_eq!(code, 3, "{stderr}");
    let doc: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(doc["truncated"], true, "{doc}");
    assert!(doc["limit"].as_str().unwrap().contains("--max-memory"), "{doc}");
    let conds = doc["conditions"].as_array().unwrap();
    assert!(!conds.is_empty());
    for c in conds {
        assert_eq!(c["verdict"], "unknown", "{c}");
        assert!(c["reason"].as_str().unwrap().contains("memory limit"), "{c}");
        assert_eq!(c["truncated"], true, "{c}");
    }
}
