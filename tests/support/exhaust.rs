//! Bounded-exhaustive runs of a program in the concrete interpreter: every
//! input vector in a small box around 0 and, for each, every sequence of
//! non-deterministic choices drawn from a small domain (a depth-first walk
//! over the choices the runs actually ask for), up to caps.
//!
//! Used by `tests/engines/crosscheck.rs` and `tests/explanations/fss_properties.rs` to compare the
//! model checker with the interpreter.

#![allow(dead_code)]

use focuscheck::interp::{self, Config, Outcome, Run, RunError};
use focuscheck::ir::{Cond, NodeId, NodeKind, Program, SiteId};
use std::collections::BTreeMap;

/// How much to enumerate.
#[derive(Clone, Debug)]
pub struct Domain {
    /// Input vectors at most: each input ranges over `-r..=r` for the
    /// largest `r <= max_radius` with `(2r+1)^inputs <= max_input_vectors`.
    pub max_input_vectors: u64,
    pub max_radius: i64,
    /// Integer choices (`nondet()`, unset locals of callees) range over
    /// this; `if (*)` choices over 0..=1.
    pub choice_values: (i64, i64),
    /// Runs per input vector (choice sequences) at most.
    pub max_choice_runs: usize,
    /// Runs per program at most.
    pub max_runs: usize,
    /// Steps per run (a run that needs more is skipped).
    pub max_steps: u64,
}

impl Default for Domain {
    fn default() -> Self {
        Domain {
            max_input_vectors: 400,
            max_radius: 3,
            choice_values: (-2, 2),
            max_choice_runs: 64,
            max_runs: 12_000,
            max_steps: 200_000,
        }
    }
}

/// What an enumeration did.
#[derive(Clone, Debug, Default)]
pub struct Enumerated {
    /// Runs that ended normally or in an error (overflows excluded).
    pub runs: usize,
    /// Runs that left the 64-bit range (the checker's integers are
    /// mathematical: skipped).
    pub overflow: usize,
    /// Runs cut by the step limit (skipped).
    pub step_limit: usize,
    /// The radius of the input box (`None`: no inputs).
    pub radius: Option<i64>,
    /// Some cap cut the enumeration short.
    pub capped: bool,
}

/// The radius of the input box for `n` inputs.
fn radius(n: usize, dom: &Domain) -> i64 {
    let mut r = dom.max_radius;
    while r > 0
        && ((2 * r + 1) as u64)
            .checked_pow(n as u32)
            .is_none_or(|v| v > dom.max_input_vectors)
    {
        r -= 1;
    }
    r
}

/// The values a choice drawn at `node` may take within the domain.
fn choice_values(p: &Program, node: NodeId, dom: &Domain) -> Vec<i64> {
    let (lo, hi) = match &p.node(node).kind {
        NodeKind::Branch { cond: Cond::Nondet, .. } => (0, 1),
        NodeKind::Havoc { ty, .. } => {
            let (a, b) = ty.range();
            (dom.choice_values.0.max(a), dom.choice_values.1.min(b))
        }
        _ => dom.choice_values,
    };
    (lo..=hi).collect()
}

/// Runs `p` on every input vector and choice sequence of the domain (up to
/// the caps) and calls `visit` with the configuration and every run that
/// did not overflow or hit the step limit.
pub fn enumerate(p: &Program, dom: &Domain, mut visit: impl FnMut(&Config, &Run)) -> Enumerated {
    let slots = p.input_slots();
    let mut out = Enumerated::default();
    let r = radius(slots.len(), dom);
    if !slots.is_empty() {
        out.radius = Some(r);
    }
    let axes: Vec<Vec<i64>> = slots
        .iter()
        .map(|s| (-r..=r).filter(|v| (s.range.0..=s.range.1).contains(v)).collect())
        .collect();
    if axes.iter().any(Vec::is_empty) {
        return out;
    }
    let mut at = vec![0usize; axes.len()];
    let mut total = 0usize;
    'inputs: loop {
        let inputs: BTreeMap<String, i64> = slots
            .iter()
            .zip(&at)
            .zip(&axes)
            .map(|((s, &k), axis)| (s.name.clone(), axis[k]))
            .collect();
        // Depth-first over the choice sequences.
        let mut todo: Vec<Vec<i64>> = vec![Vec::new()];
        let mut here = 0usize;
        while let Some(choices) = todo.pop() {
            if here >= dom.max_choice_runs || total >= dom.max_runs {
                out.capped = true;
                if total >= dom.max_runs {
                    break 'inputs;
                }
                break;
            }
            let cfg = Config {
                inputs: inputs.clone(),
                choices,
                seed: None,
                max_steps: dom.max_steps,
                ..Config::default()
            };
            here += 1;
            total += 1;
            match interp::run(p, &cfg) {
                Ok(run) => match run.outcome {
                    Outcome::Overflow { .. } => out.overflow += 1,
                    Outcome::StepLimit => out.step_limit += 1,
                    _ => {
                        out.runs += 1;
                        visit(&cfg, &run);
                    }
                },
                Err(RunError::MissingChoice { node, .. }) => {
                    // The run needs one more choice: try every value
                    // (pushed in reverse so the smallest runs first).
                    here -= 1;
                    total -= 1;
                    for v in choice_values(p, node, dom).into_iter().rev() {
                        let mut c = cfg.choices.clone();
                        c.push(v);
                        todo.push(c);
                    }
                }
                Err(e) => panic!("the interpreter refused a run of the enumeration: {e:?}"),
            }
        }
        // The next input vector (odometer order).
        let mut k = 0;
        loop {
            if k == at.len() {
                break 'inputs;
            }
            at[k] += 1;
            if at[k] < axes[k].len() {
                break;
            }
            at[k] = 0;
            k += 1;
        }
    }
    out
}

/// The site a run's error is at, if it ended at one.
pub fn error_site(run: &Run) -> Option<SiteId> {
    match run.outcome {
        Outcome::Error { site, .. } => Some(site),
        _ => None,
    }
}

/// A number from the environment (seed ranges and budgets of longer hunts).
pub fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Small programs for exhaustive comparison: few inputs (no input arrays),
/// few procedures, short loops, small constants.
pub fn small_programs() -> super::gen::GenConfig {
    super::gen::GenConfig {
        max_globals: 2,
        max_procs: 2,
        max_params: 2,
        max_locals: 3,
        max_stmts: 4,
        max_depth: 2,
        max_expr_depth: 2,
        max_loop_depth: 1,
        loop_bound: 3,
        constants: (-3, 6),
        input_arrays: false,
        ..super::gen::GenConfig::default()
    }
}

/// The checker's settings for a seed, in turn the defaults, `--unroll 2`
/// and `--no-summaries`, and their name in a summary.
pub fn check_options(seed: u64, timeout: std::time::Duration) -> (focuscheck::analysis::CheckOptions, &'static str) {
    let mut o = focuscheck::analysis::CheckOptions::default();
    o.engine.timeout = Some(timeout);
    o.engine.max_states = 300_000;
    let name = match seed % 4 {
        1 => {
            o.engine.unroll = 2;
            "unroll 2"
        }
        3 => {
            o.engine.summaries = false;
            "no summaries"
        }
        _ => "defaults",
    };
    (o, name)
}
