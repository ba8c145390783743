//! Fuzzing the front end with proptest: random token streams and random
//! mutations of the paper's programs must never make `load` panic, a file
//! without a program must come with an error, and a program that does come
//! back must survive the static analysis, the facts and a short concrete run.

use focuscheck::ir::lower::LowerOptions;
use focuscheck::syntax::source::SourceFile;
use proptest::prelude::*;
use proptest::test_runner::Config;
use std::sync::Arc;

/// Tokens of Cimple and of the C around it, separated by spaces.
const PLAIN_TOKENS: &str = "
    int bool void unsigned long short char _Bool signed static extern const typedef struct union enum
    float double sizeof __attribute__((noreturn)) if else while do for switch case default break
    continue return goto true false
    main f g x y a n error lock nondet reach_error abort assert __VERIFIER_nondet_int
    __VERIFIER_nondet_uint __VERIFIER_assert __VERIFIER_assume __VERIFIER_error N L
    0 1 2 10 -1 0x1F 077 1u 10L 1.5 9223372036854775807 18446744073709551615
    99999999999999999999999 0x 1e5 08
    ( ) { } [ ] ; , : ? = == != < <= > >= + - * / % ! && || & | ^ ~ << >> ++ -- += -= *= /= %= &= -> . ... #
    /*c*/ \"string\" 'c' '\\n' ' @ ` $ \\ é
";

/// Entries with spaces or line breaks in them: preprocessor lines, comments,
/// unterminated literals, control characters, and whole fragments that make
/// deeper parses more likely.
const SPECIAL_TOKENS: &[&str] = &[
    "\n#define N 4\n",
    "\n#define L N+1\n",
    "\n#define F(a) a\n",
    "\n#define\n",
    "\n#include <stdio.h>\n",
    "\n#if 1\n",
    "\n#undef N\n",
    "/* comment */",
    "// line comment\n",
    "/* unterminated",
    "\"unterminated",
    "\u{0}",
    "\t",
    "\r\n",
    "int main() {",
    "void f(int x) {",
    "int a[3];",
    "if (*)",
    "while (*)",
    "x = nondet();",
    "__VERIFIER_assert(x > 0);",
    "goto L;",
    "L:",
    "switch (x) {",
    "case 1:",
    "a[x] = 1;",
    "return x;",
    "/*@ requires x > 0; */",
    "/*@ ensures \\result >= \\old(x); assigns \\nothing; */",
    "/*@ loop invariant 0 <= x; */",
    "//@ assert x == 1;\n",
    "/*@ ",
    " */",
    "\\forall int i; 0 <= i < N ==> a[i] == 0",
    "==>",
];

/// Pieces of ACSL: clause keywords, formulas' operators and names.
const ACSL_TOKENS: &str = "
    requires ensures assigns loop invariant variant assert behavior ; , ( ) [ ] .. @
    \\forall \\exists \\result \\old \\at \\nothing \\true \\false \\valid int integer Pre Here
    ==> <==> == != < <= > >= && || ! + - * / % ? :
    x y n a i k N 0 1 -1 2147483648 99999999999999999999 0x7f
";

/// Every token of the vocabulary.
fn vocabulary() -> Vec<&'static str> {
    PLAIN_TOKENS
        .split_whitespace()
        .chain(SPECIAL_TOKENS.iter().copied())
        .collect()
}

/// The paper's example programs: seeds for mutation.
fn paper_programs() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/programs/paper");
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("programs/paper exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no programs in {dir}");
    files
        .iter()
        .map(|p| std::fs::read_to_string(p).expect("a readable program"))
        .collect()
}

/// Runs every stage that takes a file and must not panic on it.
fn check_text(text: &str) -> Result<(), TestCaseError> {
    let file = Arc::new(SourceFile::new("f.c", text));
    let (program, diags) = focuscheck::load(file.clone(), &LowerOptions::default());
    // Rendering must not panic either (spans inside the file).
    let _ = focuscheck::diag::render(&file, &diags, false);
    let Some(program) = program else {
        prop_assert!(
            diags.iter().any(|d| d.is_error()),
            "no program and no error for:\n{text}\ndiagnostics: {diags:?}"
        );
        return Ok(());
    };
    prop_assert!(
        !diags.iter().any(|d| d.is_error()),
        "a program came back with errors: {diags:?}"
    );
    let analysis = focuscheck::facts::Analysis::new(&program);
    let _ = focuscheck::facts::render(focuscheck::facts::all_facts(&program, &analysis).relations());
    let cfg = focuscheck::interp::Config {
        seed: Some(1),
        max_steps: 10_000,
        ..Default::default()
    };
    // An `Err` (an input out of range, ...) is fine; a panic is not.
    let _ = focuscheck::interp::run(&program, &cfg);
    // Contracts made into checks, run too.
    if !program.contracts.is_empty() {
        let (checked, _) = focuscheck::ir::contract::instrument::instrument(&program);
        let _ = focuscheck::interp::run(&checked, &cfg);
    }
    Ok(())
}

/// An annotation of random ACSL pieces (sometimes a well-formed start).
fn acsl_annotation() -> impl Strategy<Value = String> {
    let words: Vec<&'static str> = ACSL_TOKENS.split_whitespace().collect();
    (
        prop::sample::select(vec![
            "",
            "requires ",
            "ensures ",
            "loop invariant ",
            "assert ",
            "assigns ",
        ]),
        prop::collection::vec(prop::sample::select(words), 0..14),
    )
        .prop_map(|(start, ws)| format!("{start}{}", ws.join(" ")))
}

/// A random sequence of vocabulary entries, each followed by a space or a
/// newline.
fn token_stream() -> impl Strategy<Value = String> {
    prop::collection::vec((prop::sample::select(vocabulary()), any::<bool>()), 0..80).prop_map(|toks| {
        let mut out = String::new();
        for (t, newline) in toks {
            out.push_str(t);
            out.push(if newline { '\n' } else { ' ' });
        }
        out
    })
}

/// Splits a text into chunks: words, single punctuation characters, and runs
/// of white space, so that joining them gives the text back.
fn chunks(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let class = |c: char| {
        if c.is_alphanumeric() || c == '_' {
            0
        } else if c.is_whitespace() {
            1
        } else {
            2
        }
    };
    for c in text.chars() {
        match out.last_mut() {
            Some(last) if class(c) != 2 && last.chars().last().map(class) == Some(class(c)) => last.push(c),
            _ => out.push(c.to_string()),
        }
    }
    out
}

/// One edit of a program, as chunk (token) or character operations. The
/// numbers are positions, taken modulo the length when applied.
#[derive(Clone, Debug)]
enum Mutation {
    DeleteChunk(usize),
    DuplicateChunk(usize),
    SwapChunks(usize, usize),
    InsertToken(usize, &'static str),
    DeleteChar(usize),
    InsertChar(usize, char),
    DeleteRange(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let chars = prop::sample::select(vec![
        ';', '{', '}', '(', ')', '[', ']', '*', '&', '#', '/', '"', '\'', '\n', ' ', '0', '9', 'x', '@', 'é', '\\',
    ]);
    prop_oneof![
        any::<usize>().prop_map(Mutation::DeleteChunk),
        any::<usize>().prop_map(Mutation::DuplicateChunk),
        (any::<usize>(), any::<usize>()).prop_map(|(i, j)| Mutation::SwapChunks(i, j)),
        (any::<usize>(), prop::sample::select(vocabulary())).prop_map(|(i, t)| Mutation::InsertToken(i, t)),
        any::<usize>().prop_map(Mutation::DeleteChar),
        (any::<usize>(), chars).prop_map(|(i, c)| Mutation::InsertChar(i, c)),
        (any::<usize>(), 1..40usize).prop_map(|(i, n)| Mutation::DeleteRange(i, n)),
    ]
}

fn apply(text: &str, m: &Mutation) -> String {
    let mut cs = chunks(text);
    let mut chars: Vec<char> = text.chars().collect();
    match *m {
        Mutation::DeleteChunk(i) if !cs.is_empty() => {
            cs.remove(i % cs.len());
        }
        Mutation::DuplicateChunk(i) if !cs.is_empty() => {
            let i = i % cs.len();
            let c = cs[i].clone();
            cs.insert(i, c);
        }
        Mutation::SwapChunks(i, j) if !cs.is_empty() => {
            let n = cs.len();
            cs.swap(i % n, j % n);
        }
        Mutation::InsertToken(i, t) => {
            let at = i % (cs.len() + 1);
            cs.insert(at, format!(" {t} "));
        }
        Mutation::DeleteChar(i) if !chars.is_empty() => {
            chars.remove(i % chars.len());
            return chars.into_iter().collect();
        }
        Mutation::InsertChar(i, c) => {
            chars.insert(i % (chars.len() + 1), c);
            return chars.into_iter().collect();
        }
        Mutation::DeleteRange(i, n) if !chars.is_empty() => {
            let from = i % chars.len();
            let to = (from + n).min(chars.len());
            chars.drain(from..to);
            return chars.into_iter().collect();
        }
        _ => {}
    }
    cs.concat()
}

/// Random expressions over the globals of `generated_program`.
fn expression() -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        4 => prop::sample::select(vec!["x", "y", "n", "0", "1", "2", "-3", "0x10", "true", "false"])
            .prop_map(str::to_string),
        2 => prop::sample::select(vec!["nondet()", "__VERIFIER_nondet_int()", "__VERIFIER_nondet_uint()"])
            .prop_map(str::to_string),
    ];
    leaf.prop_recursive(4, 24, 3, |e| {
        let op = prop::sample::select(vec![
            "+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "&&", "||",
        ]);
        prop_oneof![
            8 => (e.clone(), op, e.clone()).prop_map(|(a, o, b)| format!("({a} {o} {b})")),
            2 => e.clone().prop_map(|a| format!("!{a}")),
            2 => e.clone().prop_map(|a| format!("-({a})")),
            2 => (e.clone(), e.clone(), e.clone()).prop_map(|(c, a, b)| format!("({c} ? {a} : {b})")),
            2 => e.clone().prop_map(|a| format!("a[{a}]")),
            2 => e.clone().prop_map(|a| format!("f({a})")),
            1 => e.clone().prop_map(|a| format!("(x = {a})")),
            1 => Just("x++".to_string()),
            1 => Just("(--y)".to_string()),
            1 => (e.clone(), e).prop_map(|(a, b)| format!("(x = {a}, {b})")),
        ]
    })
}

/// Random statements using `expression`.
fn statement() -> impl Strategy<Value = String> {
    let e = expression;
    let simple = prop_oneof![
        4 => e().prop_map(|v| format!("x = {v};")),
        2 => e().prop_map(|v| format!("y += {v};")),
        2 => (e(), e()).prop_map(|(i, v)| format!("a[{i}] = {v};")),
        1 => e().prop_map(|v| format!("n = {v}, x = 1;")),
        1 => e().prop_map(|v| format!("__VERIFIER_assert({v});")),
        1 => e().prop_map(|v| format!("assert({v});")),
        1 => e().prop_map(|v| format!("__VERIFIER_assume({v});")),
        1 => e().prop_map(|v| format!("{{ int k = {v}; }}")),
        1 => e().prop_map(|v| format!("g({v});")),
        2 => prop::sample::select(vec!["x++;", "y--;", "reach_error();", "abort();", ";", "{ static int s = 1; s++; }"])
            .prop_map(str::to_string),
        // Each of these is wrong in some places (`break` outside a loop,
        // `return;` in an `int` function, an undefined label).
        1 => prop::sample::select(vec![
            "break;",
            "continue;",
            "goto out;",
            "return;",
            "return 1;",
            "int b[2];",
            "x = k;",
            "x = a;",
            "x = f;",
            "3 = 4;",
            "x = f(1, 2);",
            "x = nondet_x();",
        ])
        .prop_map(str::to_string),
    ];
    simple.prop_recursive(3, 24, 4, move |s| {
        let block = prop::collection::vec(s.clone(), 0..4).prop_map(|v| format!("{{ {} }}", v.join(" ")));
        prop_oneof![
            2 => block.clone(),
            3 => (e(), s.clone(), s.clone()).prop_map(|(c, a, b)| format!("if ({c}) {a} else {b}")),
            2 => (s.clone(), s.clone()).prop_map(|(a, b)| format!("if (*) {a} else {b}")),
            2 => (e(), block.clone()).prop_map(|(c, b)| format!("while ({c}) {b}")),
            1 => block.clone().prop_map(|b| format!("while (*) {b}")),
            1 => (e(), block.clone()).prop_map(|(c, b)| format!("do {b} while ({c});")),
            2 => (e(), block.clone()).prop_map(|(c, b)| format!("for (int i = 0; i < 3 && {c}; i++) {b}")),
            1 => (e(), s.clone(), s.clone())
                .prop_map(|(v, a, b)| format!("switch ({v}) {{ case 0: {a} case 1: {b} break; default: x = 0; }}")),
            1 => s.prop_map(|a| format!("out: {a}")),
        ]
    })
}

/// Random whole programs: mostly valid Cimple, sometimes not (a `return;`
/// in `int f`, a `break` outside a loop, a missing label).
fn generated_program() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(statement(), 0..4),
        prop::collection::vec(statement(), 0..6),
        prop::collection::vec(statement(), 0..3),
    )
        .prop_map(|(f, main, g)| {
            format!(
                "int x, y;\nint n = 2;\nint a[3];\n\
                 int f(int p) {{\n  int k;\n  {}\n  return p;\n}}\n\
                 void g(int q) {{\n  {}\n}}\n\
                 int main() {{\n  int k = 0;\n  {}\n  return 0;\n}}\n",
                f.join("\n  "),
                g.join("\n  "),
                main.join("\n  ")
            )
        })
}

/// Found by the token streams (CI killed at 3 GB): a `;` taken as missing
/// before a token that starts no field read nothing, for ever.
#[test]
fn a_struct_body_that_reads_no_field_ends_with_an_error() {
    let text = "int main() {\nstruct S {\n?\n}\n";
    let (program, diags) = focuscheck::load(Arc::new(SourceFile::new("f.c", text)), &LowerOptions::default());
    assert!(program.is_none() || diags.iter().any(|d| d.is_error()));
    assert!(diags.len() < 10, "{} diagnostics", diags.len());
}

#[test]
fn chunks_give_the_text_back() {
    for text in paper_programs() {
        assert_eq!(chunks(&text).concat(), text);
    }
}

proptest! {
    #![proptest_config(Config { cases: 300, ..Config::default() })]

    #[test]
    fn random_token_streams_do_not_panic(text in token_stream()) {
        check_text(&text)?;
    }

    #[test]
    fn random_token_streams_in_main_do_not_panic(text in token_stream()) {
        check_text(&format!("int main() {{\n{text}\n}}\n"))?;
    }

    #[test]
    fn mutated_paper_programs_do_not_panic(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec(mutation(), 1..5),
    ) {
        let programs = paper_programs();
        let mut text = programs[pick.index(programs.len())].clone();
        for m in &edits {
            text = apply(&text, m);
        }
        check_text(&text)?;
    }

    #[test]
    fn generated_programs_do_not_panic(text in generated_program()) {
        check_text(&text)?;
    }

    /// An annotation before a function, before a loop and as a statement.
    #[test]
    fn random_acsl_annotations_do_not_panic(a in acsl_annotation(), where_ in 0..3usize, line in any::<bool>()) {
        let comment = if line { format!("//@ {a}\n") } else { format!("/*@ {a} */") };
        let (before_fn, before_loop, stmt) = match where_ {
            0 => (comment.as_str(), "", ""),
            1 => ("", comment.as_str(), ""),
            _ => ("", "", comment.as_str()),
        };
        let text = format!(
            "#define N 3\nint a[N];\n{before_fn}\nint f(int x) {{\n  int i = 0;\n  {before_loop}\n  while (i < x) {{\n    {stmt}\n    i++;\n  }}\n  return i;\n}}\nint main() {{ return f(2); }}\n"
        );
        check_text(&text)?;
    }
}

/// The unmutated programs load, and the checks above run on them.
#[test]
fn paper_programs_load() {
    for text in paper_programs() {
        let file = Arc::new(SourceFile::new("f.c", text.as_str()));
        let (program, diags) = focuscheck::load(file, &LowerOptions::default());
        assert!(program.is_some(), "{diags:?}");
        check_text(&text).unwrap();
    }
}
