//! The preprocessor on small texts: what C11 6.10 and gcc say each gives.

use super::*;
use crate::syntax::source::SourceFile;

/// The tokens of a preprocessed file as text, one space apart.
fn spelled(file: &SourceFile, lexed: &Lexed) -> String {
    lexed
        .tokens
        .iter()
        .filter(|t| t.kind != TokKind::Eof)
        .map(|t| match &t.kind {
            TokKind::Ident(s) => s.clone(),
            TokKind::Int { value, .. } => value.to_string(),
            TokKind::Punct(p) => p.to_string(),
            TokKind::Str(_) => "STR".into(),
            TokKind::Char(c) => format!("'{c}'"),
            _ => file.slice(t.span).to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn pp_with(text: &str, opts: &PpOptions) -> (String, Vec<Diag>) {
    let file = SourceFile::new("t.c", text);
    let mut diags = Vec::new();
    let lexed = preprocess(&file, opts, &mut diags);
    (spelled(&file, &lexed), diags)
}

fn pp(text: &str) -> String {
    let (s, diags) = pp_with(text, &PpOptions::default());
    assert!(diags.is_empty(), "{diags:?}");
    s
}

#[test]
fn conditional_groups_take_one_branch() {
    let text = "#define A 2\n#if A == 1\none\n#elif defined(A) && A > 1\ntwo\n#else\nthree\n#endif\n";
    assert_eq!(pp(text), "two");
    assert_eq!(
        pp("#ifdef B\nb\n#else\nnot_b\n#endif\n#ifndef B\nyes\n#endif\n"),
        "not_b yes"
    );
    // A skipped group's text is not read: no error for its contents.
    assert_eq!(pp("#if 0\n'unterminated\n#bogus\n#else\nok\n#endif\n"), "ok");
    // Nested groups inside a skipped one stay skipped.
    assert_eq!(pp("#if 0\n#if 1\na\n#else\nb\n#endif\n#endif\nc\n"), "c");
}

#[test]
fn if_expressions_follow_c() {
    assert_eq!(pp("#if -1 < 0u\nwrong\n#else\nright\n#endif\n"), "right");
    assert_eq!(pp("#if (3 * 4) % 5 == 2 && !0 && ~0 == -1\nyes\n#endif\n"), "yes");
    assert_eq!(pp("#if UNDEFINED_NAME\nno\n#else\nzero\n#endif\n"), "zero");
    assert_eq!(pp("#if 1 ? 2 : (1 << 3)\nt\n#endif\n"), "t");
    let (_, diags) = pp_with("#if 1 / 0\n#endif\n", &PpOptions::default());
    assert!(diags[0].message.contains("division by zero"), "{diags:?}");
}

#[test]
fn function_like_and_variadic_macros() {
    assert_eq!(
        pp("#define SQ(x) ((x) * (x))\nSQ(a + 1)\n"),
        "( ( a + 1 ) * ( a + 1 ) )"
    );
    assert_eq!(pp("#define F(x) x\nF\nF (1)\n"), "F 1");
    assert_eq!(
        pp("#define P(f, ...) f(__VA_ARGS__)\nP(g, 1, (2, 3))\n"),
        "g ( 1 , ( 2 , 3 ) )"
    );
    assert_eq!(pp("#define E(f, ...) f(0, ## __VA_ARGS__)\nE(h)\n"), "h ( 0 )");
    // The arguments are expanded before they are put in; the result rescanned.
    assert_eq!(pp("#define A B\n#define B 7\n#define ID(x) x\nID(A)\n"), "7");
    assert_eq!(pp("#define f(x) g\n#define g(x) x * 2\nf(1)(5)\n"), "5 * 2");
    // A macro is not expanded again inside its own expansion.
    assert_eq!(pp("#define x x + 1\n#define f(a) f(a)\nx f(2)\n"), "x + 1 f ( 2 )");
}

#[test]
fn stringizing_and_pasting() {
    assert_eq!(
        pp("#define CAT(a, b) a ## b\nCAT(x, 1) CAT(1, 2) CAT(, y)\n"),
        "x1 12 y"
    );
    assert_eq!(pp("#define S(x) #x\nS(a + b)\n"), "STR");
    let (_, diags) = pp_with("#define C(a, b) a ## b\nC(+, /)\n", &PpOptions::default());
    assert!(diags[0].message.contains("does not give a valid token"), "{diags:?}");
}

#[test]
fn command_line_macros_and_undef() {
    let opts = PpOptions {
        defines: vec!["DEBUG".into(), "N=4".into()],
        undefs: vec!["__i386__".into()],
        ..Default::default()
    };
    let (s, _) = pp_with("#ifdef DEBUG\nd N\n#endif\n#ifdef __i386__\ni\n#endif\n", &opts);
    assert_eq!(s, "d 4");
    assert_eq!(pp("#define N 1\n#undef N // gone\nN\n"), "N");
}

#[test]
fn line_file_error_and_pragma() {
    assert_eq!(pp("\n\n__LINE__\n"), "3");
    assert_eq!(
        pp("#pragma once\n#pragma GCC optimize(2)\n# 1 \"x.c\"\n#line 7\nok\n"),
        "ok"
    );
    let (_, diags) = pp_with("int a;\n#error stop here\n", &PpOptions::default());
    assert_eq!(diags[0].message, "#error stop here");
    let file = SourceFile::new("t.c", "int a;\n#error stop here\n");
    assert_eq!(file.location(diags[0].span), "t.c:2:1");
    let (_, diags) = pp_with("#if 1\n", &PpOptions::default());
    assert!(diags[0].message.contains("unterminated"), "{diags:?}");
}

#[test]
fn shipped_headers_give_ilp32_values() {
    let s = pp("#include <limits.h>\n#include <stdint.h>\nINT_MAX LONG_MAX CHAR_BIT UINT8_MAX\n");
    assert!(s.ends_with("uintmax_t ; 2147483647 2147483647 8 255"), "{s}");
    let s = pp("#include <stdbool.h>\n#include <stdio.h>\ntrue false EOF\n");
    assert!(s.ends_with("1 0 ( - 1 )"), "{s}");
    // <assert.h> respects NDEBUG where it is included.
    let s = pp("#define NDEBUG\n#include <assert.h>\nassert(x);\n");
    assert_eq!(s, "( ( void ) 0 ) ;");
}

/// Two headers, as a file system the CLI would read would give them.
fn fake_files(path: &std::path::Path) -> Option<Vec<u8>> {
    let text = match path.to_str()? {
        "dir/local.h" => "#define L 1\nint in_local;\n",
        "dir/inc/other.h" => "#pragma once\n#define O 2\n",
        _ => return None,
    };
    Some(text.as_bytes().to_vec())
}

#[test]
fn includes_are_searched_beside_the_file_then_in_include_dirs() {
    let text = "#include \"local.h\"\n#include <other.h>\n#include \"other.h\"\nL O\n";
    let file = SourceFile::new("dir/main.c", text);
    let opts = PpOptions {
        include_dirs: vec!["dir/inc".into()],
        read: Some(fake_files),
        ..Default::default()
    };
    let mut diags = Vec::new();
    let lexed = preprocess(&file, &opts, &mut diags);
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(spelled(&file, &lexed), "int in_local ; 1 2");
    // A header's token resolves to the header: name, line, text.
    let t = &lexed.tokens[1];
    assert_eq!(file.location(t.span), "dir/local.h:2:5");
    assert_eq!(file.slice(t.span), "in_local");
    assert_eq!(file.line_text_at(t.span), "int in_local;");
    // A missing header is an error at the `#include` line.
    let file = SourceFile::new("dir/main.c", "int a;\n#include <nothere.h>\n");
    let mut diags = Vec::new();
    preprocess(&file, &opts, &mut diags);
    assert!(diags[0].message.contains("<nothere.h>"), "{diags:?}");
    assert_eq!(file.location(diags[0].span), "dir/main.c:2:1");
}

#[test]
fn a_macro_use_keeps_where_it_is_written() {
    let file = SourceFile::new("t.c", "#define TWICE(x) (2 * (x))\nint a = TWICE(b);\n");
    let mut diags = Vec::new();
    let lexed = preprocess(&file, &PpOptions::default(), &mut diags);
    let b = lexed.tokens.iter().find(|t| t.ident() == Some("b")).expect("b");
    assert_eq!(file.slice(b.span), "b");
    let two = lexed
        .tokens
        .iter()
        .find(|t| matches!(t.kind, TokKind::Int { .. }))
        .expect("2");
    assert_eq!(file.slice(two.span), "TWICE(b)");
    assert_eq!(lexed.uses.len(), 1);
    assert_eq!(file.line_of(lexed.uses[0].defined), 1);
}
