//! The typed document of `focuscheck diff --format json`: `check`'s
//! document of the product program (its lines and texts already in the
//! versions' terms, without its `file`) and what `diff` decided.

use super::json::FileDoc;
use super::text::LineNames;
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
    /// `check` is the product's document: its texts are put in the
    /// versions' terms by `lines`, its lines in their numbering by
    /// `version` (the line there and which version, its `version`), and its
    /// `file`, the product's, is left out.
    pub fn new(
        check: &FileDoc,
        lines: &dyn LineNames,
        version: &dyn Fn(u32) -> (u32, &'static str),
        diff: DiffDoc,
    ) -> DiffFileDoc {
        let mut v = serde_json::to_value(check).unwrap_or_default();
        user_texts(&mut v, lines, None);
        super::json::map_lines(&mut v, version);
        let mut check = match v {
            serde_json::Value::Object(m) => m,
            _ => serde_json::Map::new(),
        };
        check.remove("file");
        DiffFileDoc { check, diff }
    }
}

/// Rewrites every `text` and `condition` of the document in the versions' terms, by the
/// product line of its object (or of the nearest enclosing one).
fn user_texts(v: &mut serde_json::Value, lines: &dyn LineNames, line: Option<u32>) {
    match v {
        serde_json::Value::Object(map) => {
            let line = map.get("line").and_then(|l| l.as_u64()).map(|l| l as u32).or(line);
            for key in ["text", "condition"] {
                if let (Some(l), Some(serde_json::Value::String(t))) = (line, map.get_mut(key)) {
                    *t = lines.text(l, t);
                }
            }
            for (k, x) in map.iter_mut() {
                if k != "text" && k != "condition" {
                    user_texts(x, lines, line);
                }
            }
        }
        serde_json::Value::Array(xs) => {
            for x in xs {
                user_texts(x, lines, line);
            }
        }
        _ => {}
    }
}
