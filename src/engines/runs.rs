//! Sampled runs: `auto` runs the interpreter on a few input vectors chosen
//! without a solver before the VC engine starts. A run that ends at a
//! condition's error is a counterexample as it is (the interpreter is the
//! replay oracle), and it settles conditions no engine reaches by search:
//! errors behind loops of 100,000 iterations, where a bounded unrolling
//! ends long before and the Datalog engine widens the loop.
//!
//! The vectors are fixed (every input and choice 0, every one 1, two
//! seeds, a line of text read; command lines of numbers when `main` reads
//! `argv`), and each run is bounded by a count of steps, so which
//! conditions they decide does not depend on the machine.

use super::{key, Decision, VcCheck};
use crate::analysis::witness::Counterexample;
use crate::analysis::Verdict;
use crate::context::conditions::CondId;
use crate::interp;
use crate::vc::gc::CheckKey;
use std::collections::BTreeMap;

/// Steps of one sampled run (about 0.3 s and 200 MB of trace at most).
pub const RUN_STEPS: u64 = 5_000_000;

/// How a sampled run draws its inputs and choices.
#[derive(Clone, Copy, Debug)]
enum Sample {
    /// Every input and choice this value (the nearest its type allows).
    Fill(i64),
    /// Drawn by the interpreter's fixed generator from this seed.
    Seed(u64),
    /// `main`'s arguments these words, every other input and choice 0.
    Words(&'static [&'static str]),
    /// The choices (the values `getchar` and every other draw returns)
    /// these chars in order; every other input and choice -1 (`EOF`).
    Text(&'static str),
}

const SAMPLES: [Sample; 5] = [
    Sample::Fill(0),
    Sample::Fill(1),
    Sample::Seed(1),
    Sample::Seed(2),
    Sample::Text(TEXT),
];

/// A line of text with words of every length to 40 chars, then end of
/// input: what a program reading `getchar` or `fgets` into fixed buffers
/// meets (drawn chars are rarely spaces or newlines, and never end).
const TEXT: &str = "a to the word reader 12345678 1234567890123456 1234567890123456789012345678901234567890\n";

/// Command lines tried when `main` reads its arguments: numbers, as a
/// program parsing `argv` with `atoi` or `strtol` expects (drawn chars are
/// almost never digits), large, zero and negative.
const COMMAND_LINES: [Sample; 3] = [
    Sample::Words(&["prog", "100"]),
    Sample::Words(&["prog", "100", "100", "100"]),
    Sample::Words(&["prog", "0", "-1"]),
];

impl Sample {
    fn describe(self) -> String {
        match self {
            Sample::Fill(v) => format!("every input and choice {v}"),
            Sample::Seed(s) => format!("inputs drawn from seed {s}"),
            Sample::Words(w) => format!("the command line `{}`, other inputs 0", w.join(" ")),
            Sample::Text(_) => "the values read are the chars of a line of text, then EOF".to_string(),
        }
    }
}

impl VcCheck<'_> {
    /// Decides the conditions of `wanted` that a sampled run reaches; the
    /// number of runs made goes to `made`.
    pub(super) fn sampled(&self, wanted: &[CondId], made: &mut u32) -> BTreeMap<CondId, Decision> {
        let mut out = BTreeMap::new();
        let argv = interp::argv::Argv::of(self.p);
        let lines = if argv.is_some() { &COMMAND_LINES[..] } else { &[] };
        for &sample in SAMPLES.iter().chain(lines) {
            if wanted.iter().all(|id| out.contains_key(id)) || self.past() {
                break;
            }
            let (seed, fill, inputs, choices) = match (sample, &argv) {
                (Sample::Fill(v), _) => (None, Some(v), Default::default(), Vec::new()),
                (Sample::Seed(s), _) => (Some(s), None, Default::default(), Vec::new()),
                (Sample::Words(w), Some(a)) => {
                    let words: Vec<Vec<u8>> = w.iter().map(|w| w.as_bytes().to_vec()).collect();
                    (None, Some(0), a.inputs(&words).into_iter().collect(), Vec::new())
                }
                (Sample::Words(_), None) => continue,
                (Sample::Text(t), _) => (None, Some(-1), Default::default(), t.bytes().map(i64::from).collect()),
            };
            let cfg = interp::Config {
                inputs,
                choices,
                seed,
                fill,
                max_steps: RUN_STEPS,
                conditions: self.users.to_vec(),
                ..interp::Config::default()
            };
            *made += 1;
            let Ok(run) = interp::run(self.p, &cfg) else { continue };
            let reached = match &run.outcome {
                interp::Outcome::Error { site, .. } => CheckKey::Site(*site),
                interp::Outcome::Condition { index, .. } => CheckKey::User(*index),
                _ => continue,
            };
            let Some(&id) = wanted
                .iter()
                .find(|&&id| key(self.conds, id) == reached && !out.contains_key(&id))
            else {
                continue;
            };
            out.insert(
                id,
                Decision {
                    verdict: Verdict::Unsafe,
                    reason: format!(
                        "a sampled run ({}) reaches the error in {} steps",
                        sample.describe(),
                        run.trace.len()
                    ),
                    counterexample: Some(Counterexample {
                        path: Vec::new(),
                        inputs: run.inputs.clone(),
                        choices: run.choices.clone(),
                        run,
                        seed: match sample {
                            Sample::Seed(s) => Some(s),
                            Sample::Fill(_) | Sample::Words(_) | Sample::Text(_) => None,
                        },
                    }),
                    engine: "runs",
                },
            );
        }
        out
    }
}
