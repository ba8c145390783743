//! The layers hold (ARCHITECTURE.md): each top-level module of `src/` uses
//! only the modules below it, only `cli` (and `main.rs`) does IO or knows
//! clap. The crate is one crate, so the compiler does not enforce this;
//! this test reads the sources and does.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Each layer and the modules it may use (itself always).
const ALLOWED: &[(&str, &[&str])] = &[
    ("diag", &["syntax"]),
    ("syntax", &["diag"]),
    ("ir", &["syntax", "diag"]),
    ("facts", &["ir", "syntax", "diag"]),
    ("interp", &["ir"]),
    ("context", &["ir", "facts", "syntax", "diag"]),
    ("analysis", &["context", "ir", "facts", "interp", "syntax", "diag"]),
    (
        "explain",
        &["analysis", "context", "ir", "facts", "interp", "syntax", "diag"],
    ),
    ("vc", &["ir", "facts", "interp", "syntax", "diag"]),
    ("diagnose", &["vc", "ir", "facts", "interp", "syntax", "diag"]),
    (
        "engines",
        &["analysis", "context", "vc", "ir", "facts", "interp", "syntax", "diag"],
    ),
    (
        "check",
        &[
            "engines", "analysis", "context", "explain", "vc", "ir", "facts", "interp", "syntax", "diag",
        ],
    ),
    (
        "diff",
        &[
            "check", "explain", "analysis", "context", "ir", "facts", "interp", "syntax", "diag", "load",
        ],
    ),
    (
        "fixes",
        &[
            "check", "engines", "explain", "analysis", "context", "ir", "facts", "interp", "syntax", "diag", "load",
        ],
    ),
    (
        "pipeline",
        &[
            "check", "fixes", "engines", "explain", "analysis", "context", "vc", "ir", "facts", "interp", "syntax",
            "diag", "load",
        ],
    ),
    (
        "views",
        &[
            "fixes", "check", "diagnose", "engines", "explain", "analysis", "context", "vc", "ir", "facts", "interp",
            "syntax", "diag",
        ],
    ),
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).expect("src/") {
        let p = e.expect("an entry").path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a file of `src/` belongs to.
fn layer_of(src: &Path, file: &Path) -> String {
    let rel = file.strip_prefix(src).expect("under src/");
    let first = rel.components().next().expect("a component");
    first.as_os_str().to_string_lossy().trim_end_matches(".rs").to_string()
}

/// The crate modules a text names as `crate::x` (comments left out).
fn uses(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or("");
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            rest = &rest[i + "crate::".len()..];
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

#[test]
fn each_layer_uses_only_the_layers_below_it() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let mut broken = Vec::new();
    for f in &files {
        let layer = layer_of(&src, f);
        if matches!(layer.as_str(), "cli" | "main" | "lib") {
            continue;
        }
        let Some((_, allowed)) = ALLOWED.iter().find(|(l, _)| *l == layer) else {
            broken.push(format!(
                "{}: module `{layer}` has no place in the layers (add it to ALLOWED and ARCHITECTURE.md)",
                f.display()
            ));
            continue;
        };
        let text = std::fs::read_to_string(f).expect("readable");
        for used in uses(&text) {
            if used != layer && !allowed.contains(&used.as_str()) {
                broken.push(format!("{}: `{layer}` uses `crate::{used}`", f.display()));
            }
        }
    }
    assert!(broken.is_empty(), "layering broken:\n{}", broken.join("\n"));
}

#[test]
fn only_the_cli_does_io_or_knows_clap() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.sort();
    let io = [
        "println!",
        "eprintln!",
        "print!(",
        "eprint!(",
        "std::fs",
        "std::env",
        "std::io::stdin",
        "std::io::stdout",
        "std::io::stderr",
        "File::open",
        "File::create",
        "clap::",
    ];
    let mut broken = Vec::new();
    for f in &files {
        let layer = layer_of(&src, f);
        if matches!(layer.as_str(), "cli" | "main") {
            continue;
        }
        let text = std::fs::read_to_string(f).expect("readable");
        // Unit tests inside a file may print and read.
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for (n, line) in code.lines().enumerate() {
            let line = line.split("//").next().unwrap_or("");
            for word in io {
                if line.contains(word) {
                    broken.push(format!("{}:{}: `{word}` outside the CLI", f.display(), n + 1));
                }
            }
        }
    }
    assert!(broken.is_empty(), "IO or clap outside cli:\n{}", broken.join("\n"));
}
