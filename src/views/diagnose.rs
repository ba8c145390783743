//! The typed document of `focuscheck diagnose --format json`: per file the
//! conditions it diagnosed, each with its questions and their answers.

use crate::diagnose::Diagnosis;
use serde::Serialize;
use std::collections::BTreeMap;

/// A file's document (printed with keys sorted, as it always was).
#[derive(Serialize)]
pub struct DiagnoseDoc {
    pub file: String,
    pub conditions: Vec<ConditionDoc>,
}

/// A diagnosed condition and what settled it.
#[derive(Serialize)]
pub struct ConditionDoc {
    pub condition: String,
    pub kind: &'static str,
    pub line: Option<u32>,
    pub column: Option<u32>,
    /// What `verify` said of it: `confirmed`, `verified` or `not verified`.
    pub verify: &'static str,
    /// `false_alarm`, `real_bug` or `unresolved`.
    pub result: &'static str,
    pub reason: String,
    pub queries: Vec<QueryDoc>,
    /// The run that shows a real bug (null otherwise).
    pub inputs: Option<BTreeMap<String, i64>>,
    pub choices: Option<Vec<i64>>,
    pub replay: Option<String>,
    pub seconds: f64,
    pub question_seconds: Vec<f64>,
}

/// A question asked, its answer and who gave it.
#[derive(Serialize)]
pub struct QueryDoc {
    pub kind: &'static str,
    pub line: u32,
    pub text: String,
    pub question: String,
    pub answer: &'static str,
    pub by: &'static str,
}

/// What the VC engine said of a condition: found a run to it, proved it,
/// or neither.
pub fn vc_word(vc: Option<bool>) -> &'static str {
    match vc {
        Some(true) => "confirmed",
        Some(false) => "verified",
        None => "not verified",
    }
}

/// The condition described as `describe` (of `kind`, at `at`), which
/// `verify` decided as `vc`, and its diagnosis.
pub fn condition_doc(
    describe: &str,
    kind: &'static str,
    at: Option<(u32, u32)>,
    vc: Option<bool>,
    d: &Diagnosis,
    replay: Option<&str>,
) -> ConditionDoc {
    let queries = (d.queries.iter())
        .map(|q| QueryDoc {
            kind: q.question.kind.name(),
            line: q.question.line,
            text: q.question.text.clone(),
            question: q.question.sentence(),
            answer: q.answer.name(),
            by: q.by.name(),
        })
        .collect();
    ConditionDoc {
        condition: describe.to_string(),
        kind,
        line: at.map(|a| a.0),
        column: at.map(|a| a.1),
        verify: vc_word(vc),
        result: d.verdict.name(),
        reason: d.reason.clone(),
        queries,
        inputs: d.run.as_ref().map(|e| e.inputs.iter().cloned().collect()),
        choices: d.run.as_ref().map(|e| e.choices.clone()),
        replay: replay.map(str::to_string),
        seconds: d.time.as_secs_f64(),
        question_seconds: d.question_times.iter().map(|t| t.as_secs_f64()).collect(),
    }
}
