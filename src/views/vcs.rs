//! `focuscheck verify --vcs`: each function's verification conditions
//! against its contract, as the seed's sentences or as the typed document
//! of `--format json`.

use crate::ir::Program;
use crate::vc::contract::{self, Blame, FnVcs, Vc, VcStatus};
use crate::vc::explain;
use serde::Serialize;
use std::collections::BTreeMap;

/// A file's document: per function its VCs.
#[derive(Serialize)]
pub struct VcsDoc {
    pub file: String,
    pub functions: Vec<FunctionDoc>,
}

#[derive(Serialize)]
pub struct FunctionDoc {
    pub name: String,
    pub proved: usize,
    pub failed: usize,
    pub unknown: usize,
    /// The VCs listed (`--vcs failed`: those not proved).
    pub vcs: Vec<VcDoc>,
    pub seconds: f64,
    /// Functions called deeper than the inlining depth: their calls are
    /// havocked, so nothing in them is verified.
    pub not_verified: Vec<String>,
}

#[derive(Serialize)]
pub struct VcDoc {
    pub id: usize,
    pub function: String,
    pub kind: &'static str,
    /// The first and last line it covers.
    pub lines: [u32; 2],
    /// `proved`, `failed` or `unknown`.
    pub status: &'static str,
    pub purpose: String,
    pub given: Vec<GivenDoc>,
    pub show: GivenDoc,
    /// The lines to blame for a failed VC.
    pub blame: Vec<u32>,
    /// The code or the specification is wrong (not merely too weak).
    pub wrong: bool,
    pub explanation: Option<String>,
    /// The counterexample's values, and those at the loop head.
    pub model: BTreeMap<String, i64>,
    pub at_loop_head: BTreeMap<String, i64>,
    /// Whether the interpreter replayed the counterexample to the failure.
    pub replayed: Option<bool>,
    pub note: Option<String>,
}

/// A fact of a VC: what it is (`label`), where, and its text.
#[derive(Serialize)]
pub struct GivenDoc {
    pub label: &'static str,
    pub line: u32,
    pub text: String,
}

impl super::documents::Document for VcsDoc {
    fn file(&self) -> &str {
        &self.file
    }
}

/// Why a root's VCs do not cover the functions it calls too deep.
pub fn not_verified(havocked: &[String]) -> String {
    let names: Vec<String> = havocked.iter().map(|n| format!("`{n}`")).collect();
    format!(
        "not verified: calls of {} deeper than the inlining depth (havocked)",
        names.join(", ")
    )
}

fn shown(vc: &Vc, all: bool) -> bool {
    all || vc.status != VcStatus::Proved
}

/// The listed VCs (every one with `all`, else those not proved), each
/// explained, then a line per function.
pub fn text(p: &Program, fs: &[FnVcs], all: bool, stats: bool) -> String {
    let mut out = String::new();
    for f in fs {
        for vc in f.vcs.iter().filter(|v| shown(v, all)) {
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
        if !f.havocked.is_empty() {
            out.push_str(&format!("  {}\n", not_verified(&f.havocked)));
        }
    }
    out
}

fn given_doc(g: &contract::Given) -> GivenDoc {
    GivenDoc {
        label: g.label,
        line: g.line,
        text: g.text.clone(),
    }
}

pub fn vc_doc(vc: &Vc) -> VcDoc {
    let (blame, explanation): (Vec<u32>, Option<String>) = match &vc.blame {
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
    VcDoc {
        id: vc.id,
        function: vc.function.clone(),
        kind: vc.kind,
        lines: [vc.lines.0, vc.lines.1],
        status: vc.status.name(),
        purpose: vc.purpose.clone(),
        given: vc.given.iter().map(given_doc).collect(),
        show: given_doc(&vc.show),
        blame,
        wrong: matches!(vc.blame, Blame::Wrong { .. }),
        explanation,
        model: vc.model.iter().cloned().collect(),
        at_loop_head: vc.at_head.iter().cloned().collect(),
        replayed: vc.replayed,
        note: vc.note.clone(),
    }
}

/// The document of a file: per function its counts and the listed VCs.
pub fn doc(p: &Program, fs: &[FnVcs], all: bool) -> VcsDoc {
    let functions = (fs.iter())
        .map(|f| {
            let count = |s: VcStatus| f.vcs.iter().filter(|v| v.status == s).count();
            FunctionDoc {
                name: f.name.clone(),
                proved: count(VcStatus::Proved),
                failed: count(VcStatus::Failed),
                unknown: count(VcStatus::Unknown),
                vcs: f.vcs.iter().filter(|v| shown(v, all)).map(vc_doc).collect(),
                seconds: f.time.as_secs_f64(),
                not_verified: f.havocked.clone(),
            }
        })
        .collect();
    VcsDoc {
        file: p.source.name.clone(),
        functions,
    }
}
