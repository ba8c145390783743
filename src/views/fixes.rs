//! Fix candidates (the default search of a single file, `check --fixes`
//! for a larger one) as a document, as text and as SARIF fixes; each edit
//! as a one-line diff, those that only hide the error labelled so.

use crate::fixes::Fixes;
use crate::syntax::source::SourceFile;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::fmt::Write;

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct FixDoc {
    pub line: u32,
    /// 1-based, in characters.
    pub column: u32,
    pub from: String,
    pub to: String,
    /// `compare`, `sign`, `connective`, `constant` or `variable`.
    pub kind: String,
    /// `safe` (the edited program's check proved the condition safe),
    /// `no_counterexample` (its check found none) or `runs` (only the
    /// known counterexamples were replayed).
    pub proof: String,
    /// How the edit hides the error rather than mends it (ranked after
    /// those that mend): `check_unreachable`, `loop_skipped`, `statement_skipped`,
    /// `input_guard` or `check_value`; absent when it mends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hides: Option<String>,
    /// The line as written, and as the edit makes it (a one-line diff).
    #[serde(default)]
    pub old: String,
    #[serde(default)]
    pub new: String,
}

impl FixDoc {
    /// `hides the error: ...`, or nothing for a fix that mends.
    pub fn hide_words(&self) -> String {
        self.hides
            .as_deref()
            .map(|h| format!("hides the error: {}", crate::fixes::hide::Hide::words(h)))
            .unwrap_or_default()
    }

    /// The edit as a diff of its line: `- old` and `+ new`, at `file:line`.
    pub fn diff(&self, file: &str) -> [String; 3] {
        [
            format!("{file}:{}:{}", self.line, self.column),
            format!("- {}", self.old.trim()),
            format!("+ {}", self.new.trim()),
        ]
    }
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct FixesDoc {
    /// The lines of the best-ranked fixes.
    pub region: Vec<u32>,
    /// Best first.
    pub fixes: Vec<FixDoc>,
    /// The lines whose edits were tried.
    pub searched: Vec<u32>,
    pub tried: usize,
    pub compiled: usize,
    /// A limit cut the search short.
    pub cut: bool,
    /// It was the wall clock (`--timeout`): the search may go further on
    /// another machine or under another load.
    #[serde(default)]
    pub clock: bool,
    /// Assignments missing before a read the error depends on (their
    /// lines are in `region`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<MissingDoc>,
}

/// A local of the entry the error reads before any statement assigns it.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct MissingDoc {
    pub variable: String,
    /// The line of the write whose stale value is read (an update is
    /// missing); absent when no statement wrote it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stale: Option<u32>,
    pub declared: u32,
    pub read: u32,
    /// Where the assignment belongs.
    pub lines: Vec<u32>,
    /// Loops between in whose bodies it belongs (`lines` are their
    /// bodies); absent when `lines` are all the lines between.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub loops: Vec<MissingLoop>,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct MissingLoop {
    /// The loop's head.
    pub line: u32,
    /// `writes_other_elements` (of the array read), `computes_nothing`,
    /// or `same_test` (not a loop: an `if` with the test the read is
    /// under, whose then-arm it belongs in).
    pub why: String,
}

impl MissingDoc {
    /// The fact and the place, in a sentence.
    pub fn words(&self) -> String {
        let arm = self.loops.iter().find(|l| l.why == "same_test");
        let place = if let Some(arm) = arm {
            format!(
                "belongs in the arm of the `if` at line {}, which makes the test the read is under and writes nothing ({})",
                arm.line,
                lines(&self.lines)
            )
        } else if self.loops.is_empty() {
            format!("belongs in its declaration or before the read ({})", lines(&self.lines))
        } else {
            let each: Vec<String> = self
                .loops
                .iter()
                .map(|l| match l.why.as_str() {
                    "writes_other_elements" => {
                        format!("at line {}, which writes other elements of `{}`", l.line, self.variable)
                    }
                    _ => format!("at line {}, which computes nothing read", l.line),
                })
                .collect();
            format!(
                "belongs in the body of the loop {} ({})",
                each.join(", and the loop "),
                lines(&self.lines)
            )
        };
        match self.stale {
            Some(w) => format!(
                "`{}` is read at line {} with the value line {w} wrote, which no statement updates: the missing update {place}",
                self.variable, self.read
            ),
            None => format!(
                "`{}` is read at line {} before any statement assigns it (declared at line {}): the missing assignment {place}",
                self.variable, self.read, self.declared
            ),
        }
    }
}

pub fn doc(source: &SourceFile, f: &Fixes) -> FixesDoc {
    FixesDoc {
        region: f.region(),
        fixes: f
            .fixes
            .iter()
            .map(|x| FixDoc {
                old: source.line_text(x.line).to_string(),
                new: edited_line(source, x),
                line: x.line,
                column: x.column,
                from: x.edit.from.clone(),
                to: x.edit.to.clone(),
                kind: x.edit.kind.name().to_string(),
                proof: x.proof.name().to_string(),
                hides: x.hides.map(|h| h.name().to_string()),
            })
            .collect(),
        searched: f.lines.iter().copied().collect(),
        tried: f.tried,
        compiled: f.compiled,
        cut: f.cut,
        clock: f.clock,
        missing: f
            .missing
            .iter()
            .map(|m| MissingDoc {
                variable: m.var.clone(),
                stale: m.stale,
                declared: m.declared,
                read: m.read,
                lines: m.lines.clone(),
                loops: m
                    .loops
                    .iter()
                    .map(|&(line, why)| MissingLoop {
                        line,
                        why: why.name().to_string(),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// The edit's line with the edit made.
fn edited_line(source: &SourceFile, x: &crate::fixes::Fix) -> String {
    let start = source.text[..x.edit.span.lo as usize].rfind('\n').map_or(0, |i| i + 1);
    let end = source.text[x.edit.span.hi as usize..]
        .find('\n')
        .map_or(source.text.len(), |i| x.edit.span.hi as usize + i);
    let line = x.edit.apply(&source.text[..end]);
    line[start..].trim_end_matches('\r').to_string()
}

/// Fixes shown in text, at most: with `--fixes`, and in the default
/// report (where the fix region says where, and the best few show how).
pub const SHOWN: usize = 12;
pub const SHOWN_BY_DEFAULT: usize = 3;

fn lines(ls: &[u32]) -> String {
    let list: Vec<String> = ls.iter().map(u32::to_string).collect();
    format!("line{} {}", if ls.len() == 1 { "" } else { "s" }, list.join(", "))
}

pub fn proof_words(proof: &str) -> &'static str {
    match proof {
        "safe" => "proved safe",
        "no_counterexample" => "no counterexample found",
        _ => "its counterexamples pass",
    }
}

/// Why the search stopped early, if it did.
pub fn cut_words(d: &FixesDoc, before: &str, after: &str) -> String {
    match (d.cut, d.clock) {
        (false, _) => String::new(),
        (true, false) => format!("{before}the search was cut by its limits{after}"),
        (true, true) => format!("{before}the search was cut by --timeout{after}"),
    }
}

/// The text block of one condition's fixes, the first `shown` of them.
pub fn text(source: &SourceFile, condition: &str, d: &FixesDoc, shown: usize) -> String {
    let mut out = format!("\nfixes for {condition}:\n");
    for m in &d.missing {
        let _ = writeln!(out, "  missing assignment: {}", m.words());
    }
    if d.fixes.is_empty() {
        let _ = writeln!(
            out,
            "  no fix candidate: none of {} one-token edit{} of {} made the error go away{}",
            d.tried,
            if d.tried == 1 { "" } else { "s" },
            if d.searched.is_empty() {
                "no line".to_string()
            } else {
                lines(&d.searched)
            },
            cut_words(d, " (", ")")
        );
        if !d.missing.is_empty() {
            let _ = writeln!(out, "  fix region: {}", lines(&d.region));
        }
        return out;
    }
    let _ = writeln!(out, "  fix region: {}", lines(&d.region));
    for f in d.fixes.iter().take(shown) {
        let [at, old, new] = f.diff(&source.name);
        let hide = f.hide_words();
        let _ = writeln!(
            out,
            "  {at}  `{}` -> `{}`  {}{}{hide}",
            f.from,
            f.to,
            proof_words(&f.proof),
            if hide.is_empty() { "" } else { "; " },
        );
        let _ = writeln!(out, "    {old}\n    {new}");
    }
    if d.fixes.len() > shown {
        let _ = writeln!(
            out,
            "  ... and {} more (--format json lists all)",
            d.fixes.len() - shown
        );
    }
    let _ = writeln!(
        out,
        "  {} edit{} of {} tried, {} compiled{}",
        d.tried,
        if d.tried == 1 { "" } else { "s" },
        lines(&d.searched),
        d.compiled,
        cut_words(d, "; ", "")
    );
    out
}

/// SARIF 2.1.0 related locations of a result's missing assignments, one
/// per line where each belongs, numbered from `first`.
pub fn sarif_missing(uri: &str, index: usize, d: &FixesDoc, first: usize) -> Vec<Value> {
    let at = d.missing.iter().flat_map(|m| m.lines.iter().map(move |&l| (m, l)));
    at.enumerate()
        .map(|(i, (m, line))| {
            json!({
                "id": first + i,
                "physicalLocation": {
                    "artifactLocation": {"uri": uri, "index": index},
                    "region": {"startLine": line},
                },
                "message": {"text": format!("missing assignment: {}", m.words())},
            })
        })
        .collect()
}

/// SARIF 2.1.0 `fixes` of a result: one replacement each, best first.
pub fn sarif(uri: &str, index: usize, d: &FixesDoc) -> Value {
    let fixes: Vec<Value> = d
        .fixes
        .iter()
        .map(|f| {
            let mut fix = json!({
                "description": {"text": format!(
                    "replace `{}` by `{}` ({}{}{}): {} / {}",
                    f.from,
                    f.to,
                    proof_words(&f.proof),
                    if f.hides.is_some() { "; " } else { "" },
                    f.hide_words(),
                    f.diff(uri)[1],
                    f.diff(uri)[2]
                )},
                "artifactChanges": [{
                    "artifactLocation": {"uri": uri, "index": index},
                    "replacements": [{
                        "deletedRegion": {
                            "startLine": f.line,
                            "startColumn": f.column,
                            "endColumn": f.column + f.from.chars().count() as u32,
                        },
                        "insertedContent": {"text": f.to},
                    }],
                }],
            });
            if let Some(h) = &f.hides {
                fix["properties"] = json!({"hides": h});
            }
            fix
        })
        .collect();
    Value::Array(fixes)
}
