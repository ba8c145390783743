//! The command that replays a run (`focuscheck run FILE --input ...
//! --choices ...`), and a run's choices as a line: values as `run` reads
//! them back, a floating one as C writes it.

use super::text::shell_word;

/// `prefix` (`focuscheck run FILE` and its options) with the inputs the run
/// read and its choices: the command that replays it. Many values all
/// equal (a sampled run's, or an array's worth of zeros) become `--fill V`.
pub fn replay_command(prefix: &str, inputs: &[(String, i64)], unused: &[String], choices: &[i64]) -> String {
    let inputs: Vec<(String, String)> = inputs.iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
    let choices: Vec<String> = choices.iter().map(i64::to_string).collect();
    replay_words(prefix, &inputs, unused, &choices)
}

/// `replay_command` with each value as `run` reads it, a floating one as
/// C writes it (`1023.0f`, `nanf`; `ir::float::value_word`).
pub fn replay_words(prefix: &str, inputs: &[(String, String)], unused: &[String], choices: &[String]) -> String {
    let mut c = prefix.to_string();
    let unused: std::collections::HashSet<&String> = unused.iter().collect();
    let read: Vec<&(String, String)> = inputs.iter().filter(|(k, _)| !unused.contains(k)).collect();
    let mut values = read.iter().map(|(_, v)| v).chain(choices.iter());
    let first = values.next();
    if let Some(v) = first.filter(|&v| read.len() + choices.len() >= FILL_AT && is_int(v) && values.all(|w| w == v)) {
        c.push_str(&format!(" --fill {v}"));
        return c;
    }
    for (k, v) in read {
        c.push_str(" --input ");
        c.push_str(&shell_word(&format!("{k}={v}")));
    }
    // A long run of one value at the end is `--fill` (run gives the
    // choices past the list that value).
    let (listed, fill) = match fill_tail(choices).filter(|(_, v)| is_int(v)) {
        Some((n, v)) => (&choices[..choices.len() - n], Some(v)),
        None => (choices, None),
    };
    if !listed.is_empty() {
        c.push_str(" --choices ");
        c.push_str(&listed.join(","));
    }
    if let Some(v) = fill {
        c.push_str(&format!(" --fill {v}"));
    }
    c
}

/// `--fill` takes an integer only.
fn is_int(v: &str) -> bool {
    v.parse::<i64>().is_ok()
}

/// A run's inputs and choices as `run` reads them back: floating values
/// as C writes them.
pub fn run_words(
    run: &crate::interp::Run,
    inputs: &[(String, i64)],
    choices: &[i64],
) -> (Vec<(String, String)>, Vec<String>) {
    let float_input = |k: &str| run.float_inputs.iter().find(|(n, _)| n == k).map(|&(_, t)| t);
    let inputs = inputs
        .iter()
        .map(|(k, v)| {
            let text = match float_input(k) {
                Some(t) => crate::ir::float::value_word(t, *v),
                None => v.to_string(),
            };
            (k.clone(), text)
        })
        .collect();
    let mut floats = run.float_choices.iter().peekable();
    let choices = choices
        .iter()
        .enumerate()
        .map(|(i, v)| match floats.peek() {
            Some(&&(at, t)) if at == i => {
                floats.next();
                crate::ir::float::value_word(t, *v)
            }
            _ => v.to_string(),
        })
        .collect();
    (inputs, choices)
}

/// Choices as a list, a value repeated 4 times or more in a row shown
/// once with its count (`0,1 (×5000),0`).
pub fn choices_line<T: PartialEq + std::fmt::Display>(choices: &[T]) -> String {
    let mut parts = Vec::new();
    for group in choices.chunk_by(|a, b| a == b) {
        match group.len() {
            n if n >= 4 => parts.push(format!("{} (×{n})", group[0])),
            _ => parts.extend(group.iter().map(|v| v.to_string())),
        }
    }
    parts.join(",")
}

/// More choices than this, drawn from a seed, are replayed with `--seed`
/// and not listed (`--format json --full-trace` lists them).
pub const SEEDED_CHOICES: usize = 64;

/// `choices_line`, or only their number for more than `SEEDED_CHOICES`
/// drawn from a seed.
pub fn drawn_choices_line<T: PartialEq + std::fmt::Display>(choices: &[T], seed: Option<u64>) -> String {
    match seed {
        Some(s) if choices.len() > SEEDED_CHOICES => format!("{} drawn from seed {s}", choices.len()),
        _ => choices_line(choices),
    }
}

/// The command that replays a counterexample: `--seed` for a long sampled
/// run, else its inputs and choices (`replay_command`).
/// `main`'s arguments, when `argv` is given, are the words after `--`.
pub fn replay_counterexample(
    prefix: &str,
    cx: &crate::analysis::witness::Counterexample,
    argv: Option<&super::argv_words::Argv>,
) -> String {
    match cx.seed {
        Some(s) if cx.choices.len() > SEEDED_CHOICES => format!("{prefix} --seed {s}"),
        _ => {
            let (inputs, choices) = run_words(&cx.run, &cx.inputs, &cx.choices);
            let Some((a, words)) = argv.and_then(|a| Some((a, a.words(&cx.inputs)?))) else {
                return replay_words(prefix, &inputs, &cx.run.unused_inputs, &choices);
            };
            let rest: Vec<(String, String)> = inputs.into_iter().filter(|(k, _)| !a.is_argument(k)).collect();
            let tail = super::argv_words::command_tail(&words);
            replay_words(prefix, &rest, &cx.run.unused_inputs, &choices) + &tail
        }
    }
}

/// At least this many values, all equal, are replayed with `--fill`.
const FILL_AT: usize = 8;

/// The run of one value that ends `choices`, if it is long enough to be
/// replayed with `--fill`: its length and value.
pub fn fill_tail<T: PartialEq + Clone>(choices: &[T]) -> Option<(usize, T)> {
    let v = choices.last()?.clone();
    let n = choices.iter().rev().take_while(|w| **w == v).count();
    (n >= FILL_AT).then_some((n, v))
}
