//! The text report of `check`.

use super::trace::trace_lines;
use crate::analysis::{Report, Verdict};
use crate::facts::Analysis;
use crate::ir::Program;
use std::fmt::Write;

pub struct TextOptions {
    pub color: bool,
    pub stats: bool,
}

fn paint(color: bool, code: &str, s: &str) -> String {
    if color {
        format!("\x1b[{code}m{s}\x1b[0m")
    } else {
        s.to_string()
    }
}

pub fn verdict_word(color: bool, v: Verdict) -> String {
    match v {
        Verdict::Safe => paint(color, "1;32", "safe"),
        Verdict::Unsafe => paint(color, "1;31", "unsafe"),
        Verdict::Unknown => paint(color, "1;33", "unknown"),
    }
}

/// The whole report for one file.
pub fn report(p: &Program, r: &Report, o: &TextOptions) -> String {
    let a = Analysis::new(p);
    let mut out = String::new();
    let count = |v: Verdict| r.results.iter().filter(|x| x.verdict == v).count();
    let _ = writeln!(
        out,
        "{}: {} condition{}: {} unsafe, {} unknown, {} safe ({} states, {:.2}s)",
        p.source.name,
        r.results.len(),
        if r.results.len() == 1 { "" } else { "s" },
        count(Verdict::Unsafe),
        count(Verdict::Unknown),
        count(Verdict::Safe),
        r.states,
        r.total_time.as_secs_f64()
    );
    for res in &r.results {
        let c = r.condition(res);
        if res.verdict == Verdict::Safe {
            let _ = writeln!(out, "  {}: {}", verdict_word(o.color, res.verdict), c.describe(p));
            continue;
        }
        let _ = writeln!(out, "\n{}: {}", verdict_word(o.color, res.verdict), c.describe(p));
        if res.verdict == Verdict::Unknown {
            let _ = writeln!(out, "  why: {}", res.reason);
        }
        if let Some(cx) = &res.counterexample {
            let inputs: Vec<String> = cx.inputs.iter().map(|(k, v)| format!("{k} = {v}")).collect();
            if !inputs.is_empty() {
                let _ = writeln!(out, "  inputs: {}", inputs.join(", "));
            }
            if !cx.choices.is_empty() {
                let ch: Vec<String> = cx.choices.iter().map(|v| v.to_string()).collect();
                let _ = writeln!(out, "  choices: {}", ch.join(","));
            }
            let _ = writeln!(out, "  trace:");
            for t in trace_lines(p, &a, &cx.run) {
                let _ = writeln!(
                    out,
                    "    {}{}:{}:{}: {}",
                    "  ".repeat(t.depth as usize),
                    p.source.name,
                    t.line,
                    t.column,
                    t.text
                );
            }
        }
    }
    if o.stats {
        let _ = writeln!(
            out,
            "\nstats: {} states, {} summaries, exploration {:.3}s, total {:.3}s",
            r.states,
            r.summaries,
            r.explore_time.as_secs_f64(),
            r.total_time.as_secs_f64()
        );
        out.push_str(&r.stats);
        out.push('\n');
    }
    out
}
