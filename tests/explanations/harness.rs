//! `check --tests DIR`: every unsafe verdict on the SV-COMP corpus and
//! `programs/` gets a C test harness or a reason; every harness, compiled
//! by gcc with its program, runs into the error it names.

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs `exe` for at most `limit`; its status and stderr.
fn run_limited(exe: &Path, limit: Duration) -> (std::process::ExitStatus, String) {
    let mut child = Command::new(exe)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let out = child.wait_with_output().unwrap();
            return (status, text(&out.stderr));
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            return (
                out.status,
                format!("still running after {limit:?}\n{}", text(&out.stderr)),
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn harnesses_compiled_with_their_programs_reach_the_error() {
    let root = env!("CARGO_MANIFEST_DIR");
    let corpus = format!("{root}/../shared/corpus/svcomp");
    assert!(Path::new(&corpus).is_dir(), "no corpus at {corpus}");
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .current_dir(root)
        .args([
            "check",
            "../shared/corpus/svcomp",
            "programs",
            "--timeout",
            "5",
            "--no-explain",
        ])
        .args(["--format", "json", "--color", "never", "--tests"])
        .arg(dir.path())
        .output()
        .unwrap();
    let docs: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let unsafe_count: usize = docs
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|d| d["conditions"].as_array().cloned().unwrap_or_default())
        .filter(|c| c["verdict"] == "unsafe")
        .count();
    let err = text(&out.stderr);
    let made: Vec<(&str, &str)> = err.lines().filter_map(|l| l.split_once(": test harness ")).collect();
    let none: Vec<&str> = err.lines().filter(|l| l.contains(": no test harness: ")).collect();
    // One line per unsafe verdict: its harness, or why there is none.
    assert_eq!(made.len() + none.len(), unsafe_count, "{err}");

    let mut reached = 0;
    let mut not_c = Vec::new();
    for (at, harness) in &made {
        let (file, _line) = at.rsplit_once(':').unwrap();
        // A Cimple program that is not C (`bool`, `if (*)`, ...): no
        // harness can make gcc compile it.
        let alone = Command::new("gcc")
            .current_dir(root)
            .args(["-fsyntax-only", "-w", file])
            .output()
            .expect("gcc");
        if !alone.status.success() {
            not_c.push(*at);
            continue;
        }
        let exe = dir.path().join(format!("t{reached}"));
        let cc = Command::new("gcc")
            .current_dir(root)
            .args(["-finstrument-functions", "-w", "-o"])
            .arg(&exe)
            .args([file, harness])
            .output()
            .expect("gcc");
        assert!(
            cc.status.success(),
            "gcc cannot build {harness} with {file}:\n{}",
            text(&cc.stderr)
        );
        let (status, stderr) = run_limited(&exe, Duration::from_secs(10));
        assert_eq!(
            status.signal(),
            Some(6),
            "{harness} did not abort: {status:?}\n{stderr}"
        );
        assert!(stderr.contains(&format!("{at}: error: ")), "{harness}: {stderr}");
        reached += 1;
    }
    // The Test-Comp suites: the program's hash, and each test case's
    // inputs, given to the interpreter as the run's choices, reach the
    // error on the test case's line.
    let suites: Vec<(&str, &str)> = err
        .lines()
        .filter_map(|l| l.split_once(": Test-Comp test suite "))
        .collect();
    assert!(!suites.is_empty(), "{err}");
    let mut cases = 0;
    for (file, folder) in &suites {
        let meta = std::fs::read_to_string(Path::new(folder).join("metadata.xml")).unwrap();
        let sum = Command::new("sha256sum")
            .current_dir(root)
            .arg(file)
            .output()
            .expect("sha256sum");
        let hash = text(&sum.stdout)
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_string();
        assert!(meta.contains(&format!("<programhash>{hash}</programhash>")), "{meta}");
        assert!(meta.contains(&format!("<programfile>{file}</programfile>")), "{meta}");
        for e in std::fs::read_dir(folder).unwrap() {
            let path = e.unwrap().path();
            let Some(line) = path
                .file_stem()
                .and_then(|s| s.to_str())
                .and_then(|s| s.parse::<u32>().ok())
            else {
                continue;
            };
            let case = std::fs::read_to_string(&path).unwrap();
            assert!(case.contains("<!DOCTYPE testcase PUBLIC"), "{case}");
            let values: Vec<&str> = case
                .lines()
                .filter_map(|l| l.split_once("\">").map(|(_, v)| v))
                .filter_map(|v| v.strip_suffix("</input>"))
                .collect();
            // A long run's values (a sampled run's 200,000) exceed what
            // one argument may hold: given in a file.
            let listed = dir.path().join(format!("choices{cases}"));
            std::fs::write(&listed, values.join("\n")).unwrap();
            let given = ["--choices-file".to_string(), listed.display().to_string()];
            let run = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
                .current_dir(root)
                .args(["run", file])
                .args(&given)
                .output()
                .unwrap();
            let said = text(&run.stdout);
            assert_eq!(run.status.code(), Some(1), "{}: {said}", path.display());
            assert!(said.contains(&format!("{file}:{line}:")), "{}: {said}", path.display());
            cases += 1;
        }
    }
    eprintln!(
        "{} Test-Comp suites, {cases} test cases replayed to their error",
        suites.len()
    );
    assert_eq!(cases, made.len());
    eprintln!(
        "{} unsafe verdicts: {} harnesses, {} compiled with their program and reaching their error, {} of programs gcc does not compile ({}); {} without a harness:\n{}",
        unsafe_count,
        made.len(),
        reached,
        not_c.len(),
        not_c.join(", "),
        none.len(),
        none.join("\n")
    );
    assert!(reached >= 5, "too few harnesses compiled and ran: {reached}");
}
