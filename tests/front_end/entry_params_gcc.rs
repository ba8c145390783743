//! Pointer parameters of the entry (`--entry f` on `int f(int *a, int n)`)
//! against gcc, on generated functions that read and write `a[k]`, walk it
//! with a pointer, pass it on to a helper and return what they computed.
//!
//! Each function runs on random contents of `a` (4 elements,
//! `--param-elems 4 --valid-params`) and random `n`:
//! - `focuscheck run` must return what gcc's build of the same function
//!   returns, called on an array holding those contents;
//! - for every 4th seed, `check` must prove `f` free of invalid accesses
//!   (every index is inside the 4 elements), and find the access past them
//!   that one more line makes when `n` is large.

use crate::cli;
use crate::gen;
use crate::sanitized_gcc;
use cli::focuscheck;
use gen::Rng;
use std::fmt::Write as _;
use std::process::Command;

const PROGRAMS: u64 = 24;

const HELPERS: &str = "\
void bump(int *p, int k) { *p += k; }
int get(int *b, int i) { return b[i]; }
";

fn value(r: &mut Rng) -> String {
    match r.below(4) {
        0 => format!("{}", r.range(-9, 9)),
        1 => format!("a[{}]", r.below(4)),
        2 => "n".to_string(),
        _ => format!("a[{}] - s", r.below(4)),
    }
}

fn function(seed: u64) -> String {
    let mut r = Rng::new(seed);
    let mut s = String::from(HELPERS);
    s.push_str("int f(int *a, int n) {\n  int s = 0;\n  int *p = a;\n");
    for _ in 0..(4 + r.below(8)) {
        let k = r.below(4);
        let line = match r.below(8) {
            0 => format!("a[{k}] = {};", value(&mut r)),
            1 => format!("s += {};", value(&mut r)),
            2 => format!("if (n > {}) a[{k}] ^= s; else s -= a[{k}];", r.range(-3, 3)),
            3 => format!("p = a + {k}; *p = *p * 2 + {};", r.range(0, 5)),
            4 => format!("bump(&a[{k}], {});", value(&mut r)),
            5 => format!("s = s + get(a, {k}) * {};", r.range(-2, 2)),
            6 => "for (int i = 0; i < 4 && i < n; i++) s += a[i];".to_string(),
            _ => format!("s = (s & 255) | ((a[{k}] & 63) << 2);"),
        };
        let _ = writeln!(s, "  {line}");
    }
    s.push_str("  return s + a[0] + a[1] * 3 + a[2] * 5 + a[3] * 7;\n}\n");
    s
}

/// What gcc's build returns for `f(contents, n)`.
fn gcc_returns(dir: &std::path::Path, name: &str, text: &str, contents: &[i64], n: i64) -> i64 {
    let init: Vec<String> = contents.iter().map(i64::to_string).collect();
    let harness = format!(
        "#include <stdio.h>\n{text}\nint main(void) {{ int a[4] = {{{}}}; printf(\"%d\\n\", f(a, {n})); return 0; }}\n",
        init.join(", ")
    );
    let exe = sanitized_gcc::build(dir, name, &harness);
    let o = Command::new(&exe).output().expect("run the compiled program");
    assert!(
        o.status.success(),
        "not valid C:\n{text}\n{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).trim().parse().expect("a number")
}

#[test]
fn generated_entry_functions_with_array_parameters_agree_with_gcc() {
    let n_programs = std::env::var("FOCUSCHECK_MEM_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(PROGRAMS);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let opts = ["--entry", "f", "--valid-params", "--param-elems", "4"];
    for seed in 0..n_programs {
        let text = function(seed);
        let file = dir.path().join(format!("f{seed}.fc.c"));
        std::fs::write(&file, &text).expect("write");
        let f = file.to_str().expect("utf-8 path");
        let mut r = Rng::new(seed + 1000);
        for _ in 0..3 {
            let contents: Vec<i64> = (0..4).map(|_| r.range(-50, 50)).collect();
            let n = r.range(-2, 6);
            let want = gcc_returns(dir.path(), &format!("f{seed}"), &text, &contents, n);
            let mut args = vec!["run".to_string(), f.to_string()];
            args.extend(opts.iter().map(|s| s.to_string()));
            args.extend([
                "--input".to_string(),
                "a=1".to_string(),
                "--input".to_string(),
                format!("n={n}"),
            ]);
            for (i, v) in contents.iter().enumerate() {
                args.extend(["--input".to_string(), format!("a@entry[{i}]={v}")]);
            }
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            let (code, ran, err) = focuscheck(&args);
            assert_eq!(code, 0, "seed {seed}: {ran}{err}\n{text}");
            assert!(
                ran.contains(&format!("`f` returned {want} ")),
                "seed {seed}, a = {contents:?}, n = {n}: gcc returns {want}\n{ran}\n{text}"
            );
        }
        if seed % 4 == 0 {
            let mut args = vec!["check", f, "--format", "json", "--property", "all"];
            args.extend(opts);
            let (_, out, err) = focuscheck(&args);
            let doc: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
            for c in doc["conditions"].as_array().expect("conditions") {
                if c["kind"] == "deref" {
                    assert_ne!(c["verdict"], "unsafe", "seed {seed}: {c:#}\n{text}");
                }
            }
            // One access past the array when `n > 3`: found, with its run.
            let past = text.replace("  return s +", "  if (n > 3) s += a[n];\n  return s +");
            std::fs::write(&file, &past).expect("write");
            let (_, out, err) = focuscheck(&args);
            let doc: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}"));
            let found = doc["conditions"]
                .as_array()
                .expect("conditions")
                .iter()
                .any(|c| c["kind"] == "deref" && c["verdict"] == "unsafe");
            assert!(found, "seed {seed}: `a[n]` past 4 elements not found\n{out}\n{past}");
        }
    }
}
