//! The JSON document of `check` (fields documented in the README).

use super::trace::{trace_lines, TraceLine};
use crate::analysis::Report;
use crate::facts::Analysis;
use crate::ir::Program;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize)]
pub struct FileDoc {
    pub file: String,
    pub conditions: Vec<CondDoc>,
    pub states: usize,
    pub seconds: f64,
}

#[derive(Serialize)]
pub struct CondDoc {
    pub condition: String,
    pub kind: &'static str,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub verdict: &'static str,
    pub reason: String,
    pub fss: Vec<serde_json::Value>,
    pub reduced: Vec<serde_json::Value>,
    /// Inputs of the confirmed counterexample.
    pub inputs: BTreeMap<String, i64>,
    pub choices: Vec<i64>,
    pub trace: Vec<TraceLine>,
}

pub fn file_doc(p: &Program, r: &Report) -> FileDoc {
    let a = Analysis::new(p);
    let conditions = r
        .results
        .iter()
        .map(|res| {
            let c = r.condition(res);
            let at = c.site().map(|s| p.source.start(p.site(s).span));
            let (inputs, choices, trace) = match &res.counterexample {
                Some(cx) => (
                    cx.inputs.iter().cloned().collect(),
                    cx.choices.clone(),
                    trace_lines(p, &a, &cx.run),
                ),
                None => (BTreeMap::new(), Vec::new(), Vec::new()),
            };
            CondDoc {
                condition: c.describe(p),
                kind: c.json_kind(p),
                line: at.map(|l| l.line),
                column: at.map(|l| l.col),
                verdict: res.verdict.name(),
                reason: res.reason.clone(),
                fss: Vec::new(),
                reduced: Vec::new(),
                inputs,
                choices,
                trace,
            }
        })
        .collect();
    FileDoc {
        file: p.source.name.clone(),
        conditions,
        states: r.states,
        seconds: r.total_time.as_secs_f64(),
    }
}
