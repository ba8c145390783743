//! `focuscheck verify` on contracts (`--vcs`, or a file with function
//! contracts or assertions): every function against its contract, each VC
//! printed as the seed's sentence or as JSON.

use super::*;
use crate::vc::contract::{self, Blame, FnVcs, Vc, VcStatus};
use crate::vc::explain;
use serde_json::{json, Value};

/// Which VCs are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VcsShow {
    /// Failed and unknown ones.
    Failed,
    All,
}

fn shown(vc: &Vc, which: VcsShow) -> bool {
    which == VcsShow::All || vc.status != VcStatus::Proved
}

/// Verifies every function with a contract (and the entry).
pub fn run(p: &Program, opts: &crate::vc::Options) -> Vec<FnVcs> {
    contract::verify(p, opts)
}

/// Did some VC fail or stay unknown?
/// Some VC has the status.
pub fn any(fs: &[FnVcs], status: VcStatus) -> bool {
    fs.iter().flat_map(|f| &f.vcs).any(|v| v.status == status)
}

pub fn text(p: &Program, fs: &[FnVcs], which: VcsShow, stats: bool) -> String {
    let mut out = String::new();
    for f in fs {
        for vc in f.vcs.iter().filter(|v| shown(v, which)) {
            out.push_str(&explain::render(vc));
            out.push('\n');
        }
    }
    for f in fs {
        let count = |s: VcStatus| f.vcs.iter().filter(|v| v.status == s).count();
        out.push_str(&format!(
            "{}: `{}`: {} VC{}: {} proved, {} failed, {} unknown",
            p.source.name,
            f.name,
            f.vcs.len(),
            if f.vcs.len() == 1 { "" } else { "s" },
            count(VcStatus::Proved),
            count(VcStatus::Failed),
            count(VcStatus::Unknown)
        ));
        if stats {
            out.push_str(&format!(" ({:.3}s)", f.time.as_secs_f64()));
        }
        out.push('\n');
    }
    out
}

fn given_json(g: &contract::Given) -> Value {
    json!({"label": g.label, "line": g.line, "text": g.text})
}

pub fn vc_json(vc: &Vc) -> Value {
    let (blame, blame_text): (Vec<u32>, Option<String>) = match &vc.blame {
        Blame::None => (Vec::new(), None),
        Blame::Wrong { code, specs } => {
            let from = if code.is_empty() { specs } else { code };
            let mut lines: Vec<u32> = from.iter().map(|g| g.line).collect();
            lines.sort();
            lines.dedup();
            let text = explain::render(vc)
                .lines()
                .find(|l| l.trim_start().starts_with("These make it false") || l.contains("can never hold"))
                .map(|l| l.trim().to_string());
            (lines, text)
        }
        Blame::Weak(s) => (Vec::new(), Some(s.clone())),
    };
    let model: serde_json::Map<String, Value> = vc.model.iter().map(|(n, v)| (n.clone(), json!(v))).collect();
    let at_head: serde_json::Map<String, Value> = vc.at_head.iter().map(|(n, v)| (n.clone(), json!(v))).collect();
    json!({
        "id": vc.id,
        "function": vc.function,
        "kind": vc.kind,
        "lines": [vc.lines.0, vc.lines.1],
        "status": vc.status.name(),
        "purpose": vc.purpose,
        "given": vc.given.iter().map(given_json).collect::<Vec<_>>(),
        "show": given_json(&vc.show),
        "blame": blame,
        "wrong": matches!(vc.blame, Blame::Wrong { .. }),
        "explanation": blame_text,
        "model": model,
        "at_loop_head": at_head,
        "replayed": vc.replayed,
        "note": vc.note,
    })
}

pub fn json_doc(p: &Program, fs: &[FnVcs], which: VcsShow) -> Value {
    let functions: Vec<Value> = fs
        .iter()
        .map(|f| {
            let count = |s: VcStatus| f.vcs.iter().filter(|v| v.status == s).count();
            json!({
                "name": f.name,
                "proved": count(VcStatus::Proved),
                "failed": count(VcStatus::Failed),
                "unknown": count(VcStatus::Unknown),
                "vcs": f.vcs.iter().filter(|v| shown(v, which)).map(vc_json).collect::<Vec<_>>(),
                "seconds": f.time.as_secs_f64(),
            })
        })
        .collect();
    json!({"file": p.source.name, "functions": functions})
}

/// SARIF results for the VCs that are not proved.
pub fn sarif_results(doc: &Value) -> Vec<Value> {
    let file = doc["file"].as_str().unwrap_or_default();
    let mut out = Vec::new();
    for f in doc["functions"].as_array().into_iter().flatten() {
        for vc in f["vcs"].as_array().into_iter().flatten() {
            if vc["status"] == "proved" {
                continue;
            }
            let mut text = format!(
                "VC {} ({}): show that {}",
                vc["id"],
                vc["status"].as_str().unwrap_or_default(),
                vc["show"]["text"].as_str().unwrap_or_default()
            );
            if let Some(e) = vc["explanation"].as_str() {
                text.push_str(&format!(". {e}"));
            }
            out.push(json!({
                "ruleId": vc["kind"],
                "level": if vc["status"] == "failed" { "error" } else { "warning" },
                "message": {"text": text},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": file},
                    "region": {"startLine": vc["show"]["line"], "endLine": vc["show"]["line"]},
                }}],
            }));
        }
    }
    out
}
