//! The preprocessor against gcc's (`gcc -m32 -E -P`, with the headers
//! focuscheck ships as the only system headers): on generated programs
//! that use object-like, function-like and variadic macros, `#` and `##`,
//! `#if`/`#elif`/`#else` with `defined`, `#undef`, `-D`, `__LINE__` and the
//! shipped headers' macros, the tokens focuscheck reads must be the
//! tokens of gcc's output, one for one. Also the programs of
//! `support/gen.rs` (the gcc differential test's) rewritten to use macros.

use crate::gen;

use focuscheck::syntax::lexer::{self, TokKind};
use focuscheck::syntax::preprocess::{preprocess, PpOptions};
use focuscheck::syntax::source::SourceFile;
use gen::Rng;
use std::process::Command;

/// One macro of a generated program.
struct Mac {
    name: String,
    params: usize,
    variadic: bool,
    /// Its arguments are pasted (`##`): give it plain names only.
    pastes: bool,
}

/// A random program using macros; `DEBUG` decides a group (given with -D).
fn program(seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut out = String::new();
    let mut macs: Vec<Mac> = Vec::new();
    out.push_str("#include <limits.h>\n#include <stdint.h>\n#include <stdbool.h>\n");
    let n = rng.range(3, 9);
    for k in 0..n {
        match rng.below(6) {
            0 | 1 => {
                let body = body_expr(&mut rng, &macs, &[]);
                out.push_str(&format!("#define O{k} {body}\n"));
                macs.push(Mac {
                    name: format!("O{k}"),
                    params: 0,
                    variadic: false,
                    pastes: false,
                });
            }
            2 => {
                let params = ["a", "b"];
                let body = body_expr(&mut rng, &macs, &params);
                out.push_str(&format!("#define F{k}(a, b) {body}\n"));
                macs.push(Mac {
                    name: format!("F{k}"),
                    params: 2,
                    variadic: false,
                    pastes: false,
                });
            }
            3 => {
                let body = match rng.below(3) {
                    0 => "a ## b",
                    1 => "a ## _ ## b",
                    _ => "(a ## 1 + #b[0])",
                };
                out.push_str(&format!("#define P{k}(a, b) {body}\n"));
                macs.push(Mac {
                    name: format!("P{k}"),
                    params: 2,
                    variadic: false,
                    pastes: true,
                });
            }
            4 => {
                let body = match rng.below(3) {
                    0 => "x(__VA_ARGS__)",
                    1 => "x(0, ## __VA_ARGS__)",
                    _ => "{ x, __VA_ARGS__ }",
                };
                out.push_str(&format!("#define V{k}(x, ...) {body}\n"));
                macs.push(Mac {
                    name: format!("V{k}"),
                    params: 1,
                    variadic: true,
                    pastes: false,
                });
            }
            _ => {
                let cond = condition(&mut rng, &macs);
                let a = use_line(&mut rng, &macs);
                let b = use_line(&mut rng, &macs);
                let c = use_line(&mut rng, &macs);
                out.push_str(&format!(
                    "#if {cond}\n{a}\n#elif defined DEBUG\n{b}\n#else\n{c}\n#endif\n"
                ));
            }
        }
        if rng.chance(15) && !macs.is_empty() {
            let m = &macs[rng.below(macs.len() as u64) as usize];
            out.push_str(&format!("#undef {}\n", m.name));
        }
        for _ in 0..rng.range(0, 2) {
            let line = use_line(&mut rng, &macs);
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

/// A macro body: an expression over the parameters, numbers and earlier
/// macros.
fn body_expr(rng: &mut Rng, macs: &[Mac], params: &[&str]) -> String {
    let mut parts = Vec::new();
    for _ in 0..rng.range(1, 4) {
        let atom = match rng.below(5) {
            0 if !params.is_empty() => format!("({})", rng.pick(params)),
            1 if !macs.is_empty() => call(rng, macs, 1),
            2 => "INT_MAX".to_string(),
            _ => rng.range(0, 99).to_string(),
        };
        parts.push(atom);
    }
    let op = *rng.pick(&[" + ", " * ", " - ", " << "]);
    format!("({})", parts.join(op))
}

/// A use of a macro (arguments may use macros too).
fn call(rng: &mut Rng, macs: &[Mac], depth: u32) -> String {
    let m = &macs[rng.below(macs.len() as u64) as usize];
    let arg = |rng: &mut Rng| -> String {
        if m.pastes {
            return rng.pick(&["v", "w", "x1", "len"]).to_string();
        }
        match rng.below(4) {
            0 if depth < 3 => call(rng, macs, depth + 1),
            1 => "__LINE__".into(),
            2 => rng.pick(&["v", "w", "true", "UINT8_MAX"]).to_string(),
            _ => rng.range(0, 9).to_string(),
        }
    };
    if m.params == 0 {
        return m.name.clone();
    }
    let mut args: Vec<String> = (0..m.params).map(|_| arg(rng)).collect();
    if m.variadic {
        for _ in 0..rng.range(0, 3) {
            args.push(arg(rng));
        }
    }
    format!("{}({})", m.name, args.join(", "))
}

/// An `#if` condition over the macros.
fn condition(rng: &mut Rng, macs: &[Mac]) -> String {
    let objects: Vec<&Mac> = macs.iter().filter(|m| m.params == 0).collect();
    let mut parts = Vec::new();
    for _ in 0..rng.range(1, 3) {
        let p = match rng.below(4) {
            0 if !objects.is_empty() => format!("defined({})", objects[rng.below(objects.len() as u64) as usize].name),
            1 if !objects.is_empty() => format!(
                "{} > {}",
                objects[rng.below(objects.len() as u64) as usize].name,
                rng.range(0, 200)
            ),
            2 => "defined DEBUG".into(),
            _ => format!("{} % 3 == 1", rng.range(0, 9)),
        };
        parts.push(p);
    }
    parts.join(if rng.chance(50) { " && " } else { " || " })
}

fn use_line(rng: &mut Rng, macs: &[Mac]) -> String {
    if macs.is_empty() {
        return "int z = __LINE__;".into();
    }
    format!("r = {} + {};", call(rng, macs, 0), call(rng, macs, 0))
}

/// The tokens as one comparable text.
fn tokens_of(toks: &[lexer::Token]) -> Vec<String> {
    toks.iter()
        .filter(|t| t.kind != TokKind::Eof)
        .map(|t| match &t.kind {
            TokKind::Ident(s) => s.clone(),
            TokKind::Int { value, ty } => format!("{value}:{ty:?}"),
            TokKind::Punct(p) => p.to_string(),
            TokKind::Char(c) => format!("'{c}'"),
            TokKind::Str(b) => format!("{b:?}"),
            TokKind::Float { .. } => "float".into(),
            TokKind::Eof => String::new(),
        })
        .collect()
}

/// gcc's preprocessed text, or `None` if gcc rejects the program.
fn gcc_e(text: &str, defines: &[&str]) -> Option<String> {
    let dir = tempfile::tempdir().expect("a directory");
    let path = dir.path().join("p.c");
    std::fs::write(&path, text).expect("write");
    let include = concat!(env!("CARGO_MANIFEST_DIR"), "/include");
    let mut cmd = Command::new("gcc");
    cmd.args(["-m32", "-std=c11", "-E", "-P", "-nostdinc", "-undef", "-I", include]);
    for d in defines {
        cmd.arg(format!("-D{d}"));
    }
    let out = cmd.arg(&path).output().expect("run gcc");
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Compares focuscheck's tokens of `text` with those of gcc's output.
fn compare(name: &str, text: &str, defines: &[&str]) -> bool {
    let Some(expected) = gcc_e(text, defines) else {
        return false;
    };
    let mut scratch = Vec::new();
    let theirs = tokens_of(&lexer::lex(&expected, &mut scratch).tokens);
    let file = SourceFile::new(format!("{name}.c"), text);
    let opts = PpOptions {
        defines: defines.iter().map(|d| d.to_string()).collect(),
        // gcc -undef: no predefined macros, as these.
        undefs: ["__i386__", "__i386", "__ILP32__", "__linux__", "__unix__"]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        include_dirs: Vec::new(),
        read: None,
    };
    let mut diags = Vec::new();
    let ours = tokens_of(&preprocess(&file, &opts, &mut diags).tokens);
    assert!(
        diags.iter().all(|d| !d.is_error()),
        "{name}: focuscheck rejects what gcc accepts:\n{text}\n{diags:?}"
    );
    if ours != theirs {
        let at = ours
            .iter()
            .zip(&theirs)
            .position(|(a, b)| a != b)
            .unwrap_or(ours.len().min(theirs.len()));
        panic!(
            "{name}: the tokens differ from gcc's at token {at}: ours {:?}, gcc's {:?}\n--- program ---\n{text}\n--- gcc -E ---\n{expected}",
            &ours[at.saturating_sub(3)..(at + 3).min(ours.len())],
            &theirs[at.saturating_sub(3)..(at + 3).min(theirs.len())]
        );
    }
    true
}

#[test]
fn generated_macro_programs_preprocess_as_gcc_does() {
    let mut compared = 0;
    for seed in 0..300u64 {
        let text = program(seed);
        let defines: &[&str] = if seed % 2 == 0 { &["DEBUG"] } else { &["DEBUG=0", "N=3"] };
        if compare(&format!("pp{seed}"), &text, defines) {
            compared += 1;
        }
    }
    // gcc rejects a few (a paste or an argument count it refuses too).
    assert!(compared >= 250, "only {compared} of 300 programs compared");
}

/// The gcc differential test's programs with their constants and some
/// names behind macros: `K(3)`, `CAT(g, 0)`, a statement under `#ifdef`.
fn with_macros(text: &str, rng: &mut Rng) -> String {
    let mut out = String::from("#define K(x) (x)\n#define CAT(a, b) a ## b\n#define ID(...) __VA_ARGS__\n");
    let mut scratch = Vec::new();
    let toks = lexer::lex(text, &mut scratch).tokens;
    let mut last = 0;
    for t in &toks {
        let r = t.span.range();
        if r.end > text.len() || r.start < last {
            continue;
        }
        let written = &text[r.clone()];
        let replaced = match &t.kind {
            TokKind::Int { .. } if rng.chance(40) => format!("K({written})"),
            TokKind::Ident(s) if s.len() == 2 && s.starts_with('g') && rng.chance(50) => {
                format!("CAT(g, {})", &s[1..])
            }
            TokKind::Ident(s) if s.starts_with("__VERIFIER_nondet") && rng.chance(50) => format!("ID({written})"),
            _ => continue,
        };
        out.push_str(&text[last..r.start]);
        out.push_str(&replaced);
        last = r.end;
    }
    out.push_str(&text[last..]);
    out
}

#[test]
fn the_differential_test_programs_with_macros_preprocess_as_gcc_does() {
    let cfg = gen::GenConfig::default();
    for seed in 0..150u64 {
        let mut rng = Rng::new(seed);
        let text = with_macros(&gen::program(seed, &cfg), &mut rng);
        assert!(
            compare(&format!("gen{seed}"), &text, &[]),
            "gcc rejects gen{seed}:\n{text}"
        );
    }
}

/// A token spelled back as C (an integer with the suffix of its type).
fn c_spelling(t: &lexer::Token) -> String {
    use focuscheck::syntax::ast::IntType::*;
    match &t.kind {
        TokKind::Int { value, ty } => {
            let suffix = match ty {
                UInt => "U",
                Long => "L",
                ULong => "UL",
                LongLong => "LL",
                ULongLong => "ULL",
                _ => "",
            };
            format!("{value}{suffix}")
        }
        TokKind::Ident(s) => s.clone(),
        TokKind::Punct(p) => p.to_string(),
        other => panic!("unexpected token {other:?} in a header's value"),
    }
}

/// The shipped `<limits.h>`, `<stdint.h>`, `<stddef.h>` and `<stdbool.h>`
/// against gcc's own (`-m32 -ffreestanding`): every macro has gcc's value
/// and type, every typedef is gcc's type.
#[test]
fn shipped_headers_agree_with_gcc_on_ilp32() {
    let headers = ["limits.h", "stdint.h", "stddef.h", "stdbool.h"];
    let include = concat!(env!("CARGO_MANIFEST_DIR"), "/include");
    let mut checks = String::new();
    for h in headers {
        let text = std::fs::read_to_string(format!("{include}/{h}")).expect("a shipped header");
        for line in text.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                ["#define", name, ..] if !name.contains('(') && !name.starts_with("__") => {
                    let file = SourceFile::new("v.c", format!("#include <{h}>\n{name}\n"));
                    let mut diags = Vec::new();
                    let toks = preprocess(&file, &PpOptions::default(), &mut diags).tokens;
                    assert!(diags.is_empty(), "{diags:?}");
                    // The expansion of the use (the header's own tokens are
                    // in the header's part of the offset space).
                    let ours: Vec<String> = toks
                        .iter()
                        .filter(|t| t.kind != TokKind::Eof && (t.span.lo as usize) < file.text.len())
                        .map(c_spelling)
                        .collect();
                    let ours = ours.join(" ");
                    // `NULL` and `bool` are not values; MB_LEN_MAX is glibc's
                    // (16), which gcc's freestanding header does not give.
                    if matches!(*name, "NULL" | "bool" | "MB_LEN_MAX") {
                        continue;
                    }
                    checks.push_str(&format!(
                        "_Static_assert(({name}) == ({ours}) && _Generic(({name}), __typeof__({ours}): 1, default: 0), \"{name}\");\n"
                    ));
                }
                ["typedef", .., last] if last.ends_with(';') && !line.contains('{') => {
                    let name = last.trim_end_matches(';');
                    let ty = words[1..words.len() - 1].join(" ");
                    checks.push_str(&format!(
                        "_Static_assert(__builtin_types_compatible_p({name}, {ty}), \"{name}\");\n"
                    ));
                }
                _ => {}
            }
        }
    }
    assert!(checks.lines().count() > 60, "{checks}");
    let dir = tempfile::tempdir().expect("a directory");
    let path = dir.path().join("values.c");
    let program = format!(
        "#include <limits.h>\n#include <stdint.h>\n#include <stddef.h>\n#include <stdbool.h>\n{checks}\
         _Static_assert(sizeof(NULL) == 4 && sizeof(size_t) == 4 && sizeof(bool) == 1, \"sizes\");\n"
    );
    std::fs::write(&path, &program).expect("write");
    let gcc_include = Command::new("gcc")
        .arg("-print-file-name=include")
        .output()
        .expect("gcc");
    let gcc_include = String::from_utf8_lossy(&gcc_include.stdout).trim().to_string();
    let out = Command::new("gcc")
        .args([
            "-m32",
            "-std=c11",
            "-ffreestanding",
            "-nostdinc",
            "-D_LIBC_LIMITS_H_",
            "-fsyntax-only",
            "-isystem",
        ])
        .arg(&gcc_include)
        .arg(&path)
        .output()
        .expect("run gcc");
    assert!(
        out.status.success(),
        "gcc's headers disagree with the shipped ones:\n{}\n{program}",
        String::from_utf8_lossy(&out.stderr)
    );
}
