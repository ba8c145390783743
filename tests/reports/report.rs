//! `check --shard K/N` and `focuscheck report PARTS...`: the shards of a
//! batch, merged, print what one run over the whole batch prints (summary
//! table, JSON, SARIF, HTML), timings aside.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

fn focuscheck(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Decimal numbers (times) as `T`.
fn without_times(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_ascii_digit() {
            let mut num = c.to_string();
            while let Some(&d) = chars.peek() {
                if d.is_ascii_digit() || d == '.' || d == 'e' || d == '-' {
                    num.push(d);
                    chars.next();
                } else {
                    break;
                }
            }
            out.push_str(if num.contains('.') { "T" } else { &num });
        } else {
            out.push(c);
        }
    }
    out
}

/// The JSON with every time (`seconds`, `*_seconds`, `timings`) null.
fn json_without_times(v: &mut Value) {
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if k.ends_with("seconds") || k == "timings" {
                    *x = Value::Null;
                } else {
                    json_without_times(x);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(json_without_times),
        _ => {}
    }
}

fn json(out: &Output) -> Value {
    let mut v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&out.stdout)));
    json_without_times(&mut v);
    v
}

/// A batch: the paper's and the examples' programs, and, in a temporary
/// directory, a file that does not parse and one that is not text.
fn batch() -> (tempfile::TempDir, Vec<String>) {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("bad.c"), "int main() {\n  int y = 1\n  return y;\n}\n").unwrap();
    std::fs::write(d.path().join("binary.c"), [0u8, 159, 146, 150, 0, 1]).unwrap();
    let dirs = vec![
        "programs/paper".to_string(),
        "programs/examples".to_string(),
        d.path().display().to_string(),
    ];
    (d, dirs)
}

fn pages(dir: &Path) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).unwrap().display().to_string();
                out.push((rel, without_times(&std::fs::read_to_string(&p).unwrap())));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn merged_shards_print_what_one_run_prints() {
    let (_tmp, dirs) = batch();
    let work = tempfile::tempdir().unwrap();
    let with = |extra: &[&str]| -> Vec<String> {
        let mut a: Vec<String> = vec!["check".into()];
        a.extend(dirs.iter().cloned());
        a.extend(["--jobs", "2", "--color", "never"].iter().map(|s| s.to_string()));
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let run = |extra: &[&str]| {
        let a = with(extra);
        focuscheck(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };

    // Three shards, written as JSONL parts; together they hold every file
    // once.
    let mut parts = Vec::new();
    let mut lines = 0;
    for k in 0..3 {
        let out = run(&["--format", "jsonl", "--shard", &format!("{k}/3")]);
        let part = work.path().join(format!("part{k}.jsonl"));
        std::fs::write(&part, &out.stdout).unwrap();
        lines += text(&out.stdout).lines().count();
        parts.push(part.display().to_string());
    }
    let single = run(&["--format", "jsonl"]);
    assert_eq!(lines, text(&single.stdout).lines().count());
    assert!(lines >= 20, "{}", text(&single.stdout));

    let report = |extra: &[&str]| {
        let mut a: Vec<&str> = vec!["report", "--color", "never"];
        a.extend(parts.iter().map(String::as_str));
        a.extend(extra);
        focuscheck(&a)
    };

    // The summary table: the same rows and totals; the last line says
    // where the rows come from instead of the wall time.
    let one = run(&[]);
    let merged = report(&[]);
    let table = |s: &str| -> Vec<String> {
        let start = s.find("\nsummary:").unwrap_or_else(|| panic!("no summary table: {s}"));
        // Columns as words: a time of 10 s or more is one column wider.
        let words = |l: &str| without_times(l).split_whitespace().collect::<Vec<_>>().join(" ");
        s[start..].lines().map(words).collect()
    };
    let (t1, t2) = (table(&text(&one.stdout)), table(&text(&merged.stdout)));
    assert_eq!(t1[..t1.len() - 1], t2[..t2.len() - 1]);
    assert!(
        t1.iter().any(|l| l.contains("bad.c") && l.contains("not accepted")),
        "{t1:?}"
    );
    assert!(
        t1.iter().any(|l| l.contains("binary.c") && l.contains("not text")),
        "{t1:?}"
    );
    assert!(
        t2.last()
            .unwrap()
            .starts_with("2 files not checked; merged from 3 parts"),
        "{t2:?}"
    );
    // Bugs found beside the bad files: both exit 1 (a bad file hides no bug).
    assert_eq!(one.status.code(), Some(1));
    assert_eq!(merged.status.code(), one.status.code());

    // JSON, JSONL and SARIF: equal but for times.
    assert_eq!(json(&report(&["--format", "json"])), json(&run(&["--format", "json"])));
    assert_eq!(
        json(&report(&["--format", "sarif"])),
        json(&run(&["--format", "sarif"]))
    );
    let jsonl = |o: &Output| -> Vec<Value> {
        text(&o.stdout)
            .lines()
            .map(|l| {
                let mut v = serde_json::from_str(l).unwrap();
                json_without_times(&mut v);
                v
            })
            .collect()
    };
    assert_eq!(jsonl(&report(&["--format", "jsonl"])), jsonl(&single));

    // HTML: the same pages.
    let (h1, h2) = (work.path().join("one"), work.path().join("merged"));
    run(&["--format", "json", "--html", h1.to_str().unwrap()]);
    report(&["--format", "json", "--html", h2.to_str().unwrap()]);
    let (p1, p2) = (pages(&h1), pages(&h2));
    assert!(p1.len() > 20, "{}", p1.len());
    assert_eq!(p1, p2);
}

#[test]
fn overlapping_or_broken_parts_are_refused() {
    let work = tempfile::tempdir().unwrap();
    let out = focuscheck(&["check", "programs/paper/minmax.c", "--format", "jsonl"]);
    let part = work.path().join("a.jsonl");
    std::fs::write(&part, &out.stdout).unwrap();
    let p = part.to_str().unwrap();
    let twice = focuscheck(&["report", p, p]);
    assert_eq!(twice.status.code(), Some(2));
    assert!(
        text(&twice.stderr).contains("is in two parts"),
        "{}",
        text(&twice.stderr)
    );

    let broken = work.path().join("b.jsonl");
    std::fs::write(&broken, "{\"file\": 3}\n").unwrap();
    let bad = focuscheck(&["report", broken.to_str().unwrap()]);
    assert_eq!(bad.status.code(), Some(2));
    let err = text(&bad.stderr);
    assert!(err.contains("b.jsonl:1:") && err.contains("not a line of"), "{err}");

    // One part, one file: the document itself, and the check's exit code.
    let one = focuscheck(&["report", p, "--format", "json"]);
    assert_eq!(one.status.code(), Some(1));
    let v = json(&one);
    assert_eq!(v["file"], "programs/paper/minmax.c");

    // A shard beyond the files: nothing to check, nothing found.
    let empty = focuscheck(&[
        "check",
        "programs/paper/minmax.c",
        "--shard",
        "1/2",
        "--format",
        "jsonl",
    ]);
    assert_eq!(empty.status.code(), Some(0), "{}", text(&empty.stderr));
    assert!(empty.stdout.is_empty());
    let bad_shard = focuscheck(&["check", "programs/paper", "--shard", "2/2"]);
    assert_eq!(bad_shard.status.code(), Some(2));
    assert!(text(&bad_shard.stderr).contains("0 <= K < N"));
}

/// `docs/report.schema.json` with its root replaced by one command's
/// document (`$defs/NAME`), or as published (`None`).
fn schema_validator(name: Option<&str>) -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/report.schema.json");
    let mut schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    if let Some(n) = name {
        let root = schema.as_object_mut().unwrap();
        root.remove("anyOf");
        root.insert("$ref".into(), format!("#/$defs/{n}").into());
    }
    jsonschema::draft202012::new(&schema).expect("the report schema compiles")
}

/// The documents a command prints with `--format json` (one, or a list).
fn documents(args: &[&str]) -> Vec<Value> {
    let out = focuscheck(args);
    let doc: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}{}", text(&out.stdout), text(&out.stderr)));
    match doc {
        Value::Array(docs) => docs,
        doc => vec![doc],
    }
}

fn errors(v: &jsonschema::Validator, doc: &Value) -> Vec<String> {
    v.iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

#[test]
fn every_command_writes_documents_the_report_schema_describes() {
    let any = schema_validator(None);
    let runs: &[(&str, &[&str])] = &[
        (
            "check",
            &[
                "check",
                "programs/examples/array_bounds.c",
                "programs/paper/median_bug14.c",
                "--format",
                "json",
            ],
        ),
        (
            "check",
            &[
                "check",
                "programs/doomed/trivial.c",
                "--doomed",
                "--view",
                "full",
                "--format",
                "json",
            ],
        ),
        (
            "verify",
            &[
                "verify",
                "programs/examples/recursion.c",
                "programs/examples/division.c",
                "--format",
                "json",
            ],
        ),
        (
            "vcs",
            &[
                "verify",
                "programs/contracts/negate_first_bug.c",
                "--vcs",
                "all",
                "--format",
                "json",
            ],
        ),
        (
            "doomed",
            &[
                "doomed",
                "programs/doomed/trivial.c",
                "programs/doomed/pathprog.c",
                "--format",
                "json",
            ],
        ),
        (
            "not_checked",
            &["doomed", "programs/no_such_file.c", "--format", "json"],
        ),
        (
            "diagnose",
            &[
                "diagnose",
                "programs/diagnose/late_bug.c",
                "--no-infer",
                "--answers",
                "programs/diagnose/late_bug.answers",
                "--format",
                "json",
            ],
        ),
        (
            "diff",
            &[
                "diff",
                "programs/diff/shipping_ref.c",
                "programs/diff/shipping_new.c",
                "--entry",
                "shipping",
                "--format",
                "json",
            ],
        ),
    ];
    for (name, args) in runs {
        let own = schema_validator(Some(name));
        for doc in documents(args) {
            assert_eq!(
                errors(&own, &doc),
                Vec::<String>::new(),
                "{args:?}: not a `{name}` document"
            );
            assert_eq!(
                errors(&any, &doc),
                Vec::<String>::new(),
                "{args:?}: not a report document"
            );
        }
    }
}

#[test]
fn the_report_schema_rejects_a_field_of_the_wrong_type_or_missing() {
    let any = schema_validator(None);
    let mut verify = documents(&["verify", "programs/examples/recursion.c", "--format", "json"]).remove(0);
    assert!(any.is_valid(&verify));
    let mut wrong = verify.clone();
    wrong["procedures"][0]["warnings"][0]["line"] = "7".into();
    assert!(!any.is_valid(&wrong), "a line given as a string is rejected");
    verify["procedures"][0].as_object_mut().unwrap().remove("result");
    assert!(!any.is_valid(&verify), "a procedure without its result is rejected");
    let mut check = documents(&["check", "programs/examples/array_bounds.c", "--format", "json"]).remove(0);
    assert!(any.is_valid(&check));
    check["conditions"][0]["verdict"] = "maybe".into();
    assert!(
        !any.is_valid(&check),
        "a verdict that is none of safe, unsafe, unknown is rejected"
    );
}
