//! The typed document of `focuscheck diff --format json`: `check`'s
//! document of the product program (its lines and texts already in the
//! versions' terms, without its `file`) and what `diff` decided.

use serde::Serialize;

/// What `diff` decided about the two versions.
#[derive(Serialize)]
pub struct DiffDoc {
    /// The versions' file names, the entry compared and its initialiser.
    pub reference: String,
    pub new: String,
    pub entry: String,
    pub init: Option<String>,
    /// `equivalent`, `different` or `unknown`, and why.
    pub verdict: &'static str,
    pub reason: String,
    /// The index in `conditions` of the condition that decided it.
    pub decided_by: Option<usize>,
    /// What each version computes on the confirmed difference's inputs.
    pub observations: Option<Observations>,
    pub analysed_lines: usize,
    /// The globals compared, and those written but not compared.
    pub observed: Vec<String>,
    pub unobserved: Vec<String>,
}

/// What each version computes on a counterexample's inputs.
#[derive(Serialize)]
pub struct Observations {
    pub inputs: String,
    pub reference: String,
    pub new: String,
}

/// The whole document: the product's `check` document and `diff`'s own
/// fields, keys sorted as `diff` always printed them.
#[derive(Serialize)]
pub struct DiffFileDoc {
    #[serde(flatten)]
    pub check: serde_json::Map<String, serde_json::Value>,
    #[serde(flatten)]
    pub diff: DiffDoc,
}

impl DiffFileDoc {
    /// `check` is the product's document, as JSON (its `file`, the
    /// product's, is left out).
    pub fn new(check: serde_json::Value, diff: DiffDoc) -> DiffFileDoc {
        let mut check = match check {
            serde_json::Value::Object(m) => m,
            _ => serde_json::Map::new(),
        };
        check.remove("file");
        DiffFileDoc { check, diff }
    }
}
