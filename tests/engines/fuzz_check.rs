//! Fuzzing `check` itself, not only the parser: generated programs
//! (`support/gen.rs`) and mutations of them (extreme constants, swapped
//! operators, dropped lines) go through the whole pipeline (load, explore,
//! verdicts, explanations, every view) with small budgets; nothing may
//! panic. Budgets are counted in states and steps; the explanation's time
//! budget only bounds the run, it decides nothing asserted here.

use crate::gen;

use focuscheck::analysis::{step, CheckOptions};
use focuscheck::ir::lower::LowerOptions;
use focuscheck::syntax::source::SourceFile;
use focuscheck::views;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};
use std::sync::Arc;
use std::time::Duration;

/// Constants at the edges of C's and Cimple's integers.
const EXTREMES: &[&str] = &[
    "0",
    "1",
    "-1",
    "2147483647",
    "-2147483648",
    "4294967295",
    "9223372036854775807",
    "(-9223372036854775807 - 1)",
];

const OPERATORS: &[&str] = &["+", "-", "*", "/", "%", "<", "==", "!=", ">="];

#[derive(Clone, Debug)]
enum Mutation {
    /// The k-th integer literal becomes an extreme.
    Constant(usize, &'static str),
    /// The k-th binary operator (among `OPERATORS`) becomes another.
    Operator(usize, &'static str),
    /// The k-th line is dropped.
    DropLine(usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (any::<usize>(), prop::sample::select(EXTREMES)).prop_map(|(k, c)| Mutation::Constant(k, c)),
        (any::<usize>(), prop::sample::select(OPERATORS)).prop_map(|(k, o)| Mutation::Operator(k, o)),
        any::<usize>().prop_map(Mutation::DropLine),
    ]
}

/// Byte ranges of the integer literals (digits not inside a name).
fn literals(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts = b[i].is_ascii_digit() && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'));
        if starts {
            let j = (i..b.len()).find(|&j| !b[j].is_ascii_alphanumeric()).unwrap_or(b.len());
            out.push((i, j));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

fn apply(text: &str, m: &Mutation) -> String {
    match m {
        Mutation::Constant(k, c) => {
            let lits = literals(text);
            if lits.is_empty() {
                return text.to_string();
            }
            let (i, j) = lits[k % lits.len()];
            format!("{}{c}{}", &text[..i], &text[j..])
        }
        Mutation::Operator(k, o) => {
            let spots: Vec<(usize, usize)> = OPERATORS
                .iter()
                .flat_map(|op| {
                    let pat = format!(" {op} ");
                    text.match_indices(&pat)
                        .map(|(i, _)| (i + 1, i + 1 + op.len()))
                        .collect::<Vec<_>>()
                })
                .collect();
            if spots.is_empty() {
                return text.to_string();
            }
            let mut spots = spots;
            spots.sort();
            let (i, j) = spots[k % spots.len()];
            format!("{}{o}{}", &text[..i], &text[j..])
        }
        Mutation::DropLine(k) => {
            let lines: Vec<&str> = text.lines().collect();
            let k = k % lines.len().max(1);
            lines
                .iter()
                .enumerate()
                .filter(|(i, _)| *i != k)
                .map(|(_, l)| *l)
                .collect::<Vec<_>>()
                .join("\n")
        }
    }
}

/// This process's resident memory (VmRSS), for the memory budget.
fn resident() -> Option<u64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: u64 = s
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// The whole check of one text with small budgets, and every view of it;
/// the number of conditions checked (`None`: the text is not a program).
fn check_all(text: &str) -> Option<usize> {
    let file = Arc::new(SourceFile::new("f.c", text));
    let (program, diags) = focuscheck::load(file.clone(), &LowerOptions::default());
    let _ = focuscheck::diag::render(&file, &diags, false);
    let p = program?;
    let opts = CheckOptions {
        engine: step::Options {
            unroll: 3,
            max_states: 3_000,
            // Bounds the verdict search too (some mutants make it slow); the
            // test asks for no panic, whatever the verdict.
            timeout: Some(Duration::from_secs(2)),
            memory: Some((1 << 30, resident)),
            ..step::Options::default()
        },
        search_steps: 5_000,
        explain_steps: Some(20_000),
        ..CheckOptions::default()
    };
    let users = focuscheck::ir::cond::user_conditions(&p, &[]).unwrap_or_default();
    let report = focuscheck::check::check(&p, &users, &opts);
    let next = |_: views::text::View, _: Option<usize>| String::new();
    for view in [
        views::text::View::Reduced,
        views::text::View::Fss,
        views::text::View::Full,
    ] {
        let _ = views::text::report(
            &p,
            &report,
            &views::text::TextOptions {
                lines: &views::text::PlainLines(&p),
                color: false,
                stats: false,
                view,
                fss: None,
                project: None,
                next: &next,
                diff: false,
                replay: &views::text::no_replay,
                full_trace: view == views::text::View::Full,
                all_fss: false,
                verbose: view == views::text::View::Full,
            },
        );
    }
    let doc = views::json::file_doc(&p, &report, &None);
    let _ = serde_json::to_string(&doc).unwrap();
    let _ = views::sarif::log(&[(&doc, Some(&file))]);
    Some(report.results.len())
}

/// Not vacuous: generated programs load and have conditions to check.
#[test]
fn generated_programs_are_checked() {
    let checked: Vec<Option<usize>> = (0..20)
        .map(|seed| check_all(&gen::program(seed, &config(seed))))
        .collect();
    let with_conditions = checked.iter().filter(|c| c.is_some_and(|n| n > 0)).count();
    assert!(with_conditions >= 8, "{checked:?}");
}

fn config(seed: u64) -> gen::GenConfig {
    // Smaller programs: many of them in little time.
    gen::GenConfig {
        max_stmts: 4,
        max_depth: 2,
        recursion: seed.is_multiple_of(3),
        ..Default::default()
    }
}

proptest! {
    // A fixed seed: the same cases on every run, so a slow case found once
    // cannot make the suite hang at random.
    #![proptest_config(Config { cases: 150, rng_seed: RngSeed::Fixed(0x5eed), ..Config::default() })]

    #[test]
    fn check_does_not_panic_on_generated_programs(seed in any::<u64>()) {
        prop_assert!(check_all(&gen::program(seed, &config(seed))).is_some());
    }

    // Found the overflow panic in `Constraint::compare` (`-x - 1 ==
    // 9223372036854775807`, issue 10 item 9), fixed since.
    #[test]
    fn check_does_not_panic_on_mutated_programs(
        seed in any::<u64>(),
        edits in prop::collection::vec(mutation(), 1..4),
    ) {
        let mut text = gen::program(seed, &config(seed));
        for m in &edits {
            text = apply(&text, m);
        }
        check_all(&text);
    }
}
