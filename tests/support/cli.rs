//! Running the `focuscheck` binary from a test.

use std::process::Command;

/// Runs `focuscheck --color never ARGS` from the crate root; returns the exit
/// code, stdout and stderr. A panic of the tool fails the test.
pub fn focuscheck(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .args(["--color", "never"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(!stderr.contains("panicked"), "the tool panicked:\n{stderr}");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr,
    )
}

/// The source lines of an FSS's statements in `check --format json`.
#[allow(dead_code)]
pub fn fss_lines(fss: &serde_json::Value) -> Vec<i64> {
    fss["statements"]
        .as_array()
        .expect("statements")
        .iter()
        .map(|s| s["line"].as_i64().expect("a line"))
        .collect()
}

/// Writes a program into `dir`; its path.
#[allow(dead_code)]
pub fn write(dir: &std::path::Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write the program");
    path.to_string_lossy().into_owned()
}

/// The first unsafe condition of a `check --format json` document.
#[allow(dead_code)]
pub fn first_unsafe(doc: &serde_json::Value) -> &serde_json::Value {
    doc["conditions"]
        .as_array()
        .expect("conditions")
        .iter()
        .find(|c| c["verdict"] == "unsafe")
        .expect("an unsafe condition")
}

/// Runs each `replay: focuscheck ...` command of a check's text output
/// (there must be one) and asserts that it reaches the error.
#[allow(dead_code)]
pub fn replays_reach_error(out: &str) {
    let replays: Vec<Vec<&str>> = out
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("replay: focuscheck "))
        .map(|c| c.split_whitespace().collect())
        .collect();
    assert!(!replays.is_empty(), "no replay command:\n{out}");
    for words in replays {
        let (code, run, err) = focuscheck(&words);
        assert!(code == 1 && run.contains("result: error"), "{words:?}:\n{run}{err}");
    }
}
