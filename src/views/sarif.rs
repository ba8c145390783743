//! SARIF 2.1.0: one log, one run, one result per error condition per file.
//! The FSSs are code flows (the top-ranked first), each statement a location
//! with what it did (branch outcome, assumption); the top NEST's statements
//! are related locations. Built from the JSON documents, so it says exactly
//! what `--format json` says.

use super::json::{CondDoc, FileDoc, FssDoc, MessageDoc, StatementDoc};
use crate::syntax::source::SourceFile;
use serde_json::{json, Value};

/// The rules: one per kind of error condition.
const RULES: [(&str, &str, &str); 9] = [
    (
        "assert",
        "AssertionFailure",
        "An assertion (`assert`, `__VERIFIER_assert`) can fail.",
    ),
    (
        "reach_error",
        "ReachableError",
        "A call of `reach_error()` (or `__VERIFIER_error()`) is reachable.",
    ),
    ("bounds", "IndexOutOfBounds", "An array index can be outside the array."),
    ("div_by_zero", "DivisionByZero", "A divisor can be zero."),
    (
        "overflow",
        "SignedOverflow",
        "A signed arithmetic operation can overflow (`--property no-overflow`).",
    ),
    (
        "shift",
        "UndefinedShift",
        "A shift can be by a negative amount or by the width or more.",
    ),
    (
        "deref",
        "InvalidPointerAccess",
        "An access through a pointer can be invalid: null, outside its object, a finished call's local, \
         freed memory, or a free of anything but a live heap object.",
    ),
    (
        "limit",
        "BeyondHeapModel",
        "A run can allocate beyond the heap model (more than `--heap-elems` elements, or twice at one call): \
         runs past it are not analysed.",
    ),
    (
        "user",
        "ErrorCondition",
        "An error condition given with `--error` can hold.",
    ),
];

fn rule_index(kind: &str) -> usize {
    RULES.iter().position(|r| r.0 == kind).unwrap_or(RULES.len() - 1)
}

fn region(line: u32, column: u32) -> Value {
    json!({"startLine": line.max(1), "startColumn": column.max(1)})
}

fn location(uri: &str, index: usize, line: u32, column: u32) -> Value {
    json!({"physicalLocation": {
        "artifactLocation": {"uri": uri, "index": index},
        "region": region(line, column),
    }})
}

/// What a statement of an FSS did, as a message.
fn statement_message(s: &StatementDoc, f: &FssDoc) -> String {
    let mut msg = s.text.clone();
    if let Some(o) = s.outcome {
        msg = format!("`{}` is {o}", s.text);
    } else if !s.atoms.is_empty() {
        let atoms: Vec<String> = s
            .atoms
            .iter()
            .filter_map(|a| match (&a.access, a.label()) {
                (Some(_), Some(l)) => Some(format!("`{}` {l}", a.text)),
                (_, l) => l.map(|l| format!("`{}` is {l}", a.text)),
            })
            .collect();
        msg = format!("{} ({})", s.text, atoms.join(", "));
    }
    let here = super::assumptions::folded_texts(
        f.assumptions
            .iter()
            .filter(|a| a.line == s.line && (a.column == s.column || s.atoms.iter().any(|x| x.column == a.column))),
    );
    if !here.is_empty() {
        msg.push_str(&format!("; assumes {}", here.join(", ")));
    }
    msg
}

/// Thread-flow locations of statements; a folded repetition is its first
/// run, a location saying what is left out (count and value ranges), and
/// its last run.
fn flow_locations(uri: &str, index: usize, statements: &[StatementDoc], f: &FssDoc, out: &mut Vec<Value>) {
    for s in statements {
        let mut loc = location(uri, index, s.line, s.column);
        match &s.repeat {
            Some(r) => {
                flow_locations(uri, index, &r.first, f, out);
                loc["message"] = json!({"text": format!(
                    "{} ({} runs between the first and the last are left out)",
                    s.text,
                    r.count.saturating_sub(2)
                )});
                out.push(json!({"location": loc, "nestingLevel": s.depth}));
                flow_locations(uri, index, &r.last, f, out);
            }
            None if s.omitted.is_some() => {
                loc["message"] = json!({"text": s.text});
                out.push(json!({"location": loc, "nestingLevel": s.depth}));
            }
            None => {
                loc["message"] = json!({"text": statement_message(s, f)});
                out.push(json!({"location": loc, "nestingLevel": s.depth}));
            }
        }
    }
}

fn code_flow(uri: &str, index: usize, f: &FssDoc, of: usize) -> Value {
    let assumptions: Vec<&str> = f.assumptions.iter().map(|a| a.text.as_str()).collect();
    let mut locations: Vec<Value> = Vec::new();
    flow_locations(uri, index, &f.statements, f, &mut locations);
    json!({
        "message": {"text": format!(
            "focus-statement sequence {} of {of}; assumptions: {}",
            f.rank,
            if assumptions.is_empty() { "none".to_string() } else { assumptions.join(", ") }
        )},
        "threadFlows": [{"locations": locations}],
    })
}

fn result(uri: &str, index: usize, c: &CondDoc, source: Option<&SourceFile>) -> Value {
    let (kind, level) = match c.verdict {
        "unsafe" => ("fail", "error"),
        "unknown" => ("fail", "warning"),
        _ => ("pass", "none"),
    };
    let found = c.fss.len() + c.fss_omitted;
    let text = match c.verdict {
        "unsafe" => format!(
            "{}: can fail{} ({}; {found} focus-statement sequence{}{})",
            c.condition,
            c.fact.as_ref().map(|f| format!(": {f}")).unwrap_or_default(),
            c.reason,
            if found == 1 { "" } else { "s" },
            if c.fss_omitted > 0 {
                format!(", the first {} in codeFlows", c.fss.len())
            } else {
                String::new()
            }
        ),
        "unknown" => format!("{}: unknown ({})", c.condition, c.reason),
        _ => format!("{}: safe", c.condition),
    };
    let mut r = json!({
        "ruleId": RULES[rule_index(c.kind)].0,
        "ruleIndex": rule_index(c.kind),
        "kind": kind,
        "level": level,
        "message": {"text": text},
        "properties": {
            "verdict": c.verdict,
            "reason": c.reason,
            "inputs": c.inputs,
            "choices": c.choices,
        },
    });
    // Where it fails: the site; for a condition on variables the last
    // statement of the top FSS or counterexample, else where its variable
    // is declared; else the file itself.
    let at = match (c.line, c.column) {
        (Some(l), Some(col)) => Some((l, col)),
        _ => c
            .fss
            .first()
            .and_then(|f| f.statements.last())
            .map(|s| (s.line, s.column))
            .or_else(|| c.trace.last().map(|t| (t.line, t.column)))
            .or(c.declared.as_ref().map(|d| (d.line, d.column))),
    };
    let loc = match at {
        Some((l, col)) => {
            let mut loc = location(uri, index, l, col);
            if let Some(source) = source {
                loc["physicalLocation"]["region"]["snippet"] = json!({"text": source.line_text(l)});
            }
            loc
        }
        None => json!({"physicalLocation": {"artifactLocation": {"uri": uri, "index": index}}}),
    };
    if let Some(cmd) = &c.replay {
        r["properties"]["replay"] = json!(cmd);
    }
    r["locations"] = json!([loc]);
    if let Some(f) = c.fixes.as_ref().filter(|f| !f.fixes.is_empty()) {
        r["fixes"] = super::fixes::sarif(uri, index, f);
    }
    if !c.fss.is_empty() {
        let flows: Vec<Value> = c.fss.iter().map(|f| code_flow(uri, index, f, found)).collect();
        r["codeFlows"] = Value::Array(flows);
    }
    if let Some(top) = c.reduced.first() {
        let mut seen = std::collections::BTreeSet::new();
        let related: Vec<Value> = top
            .statements
            .iter()
            .filter(|s| seen.insert(s.line))
            .enumerate()
            .map(|(i, s)| {
                let mut loc = location(uri, index, s.line, s.column);
                loc["id"] = json!(i + 1);
                loc["message"] = json!({"text": format!("NEST of FSS {}: `{}`", top.rank, s.text)});
                loc
            })
            .collect();
        if !related.is_empty() {
            r["relatedLocations"] = Value::Array(related);
        }
    }
    r
}

/// A file's errors and warnings as tool execution notifications, each
/// located in the file (at its line when it has one).
fn notifications(uri: &str, index: usize, d: &FileDoc) -> Vec<Value> {
    let artifact = json!({"uri": uri, "index": index});
    let id = if d.status == "checked" { "warning" } else { d.status };
    let one = |m: &MessageDoc, level: &str| notification(&artifact, m, level, id);
    let mut out: Vec<Value> = d.errors.iter().map(|m| one(m, "error")).collect();
    out.extend(d.warnings.iter().map(|m| one(m, "warning")));
    if d.truncated {
        let why = d.limit.clone().unwrap_or_else(|| "a limit was reached".into());
        out.push(json!({
            "level": "warning",
            "message": {"text": format!("{}: the check was cut short ({why}); what it left open is unknown", d.file)},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri, "index": index}}}],
            "descriptor": {"id": "truncated"},
        }));
    }
    out
}

/// The SARIF log for the files (those not checked appear as error
/// notifications, and make the run's execution unsuccessful).
pub fn log(files: &[(&FileDoc, Option<&SourceFile>)]) -> Value {
    let rules: Vec<Value> = RULES
        .iter()
        .map(|(id, name, text)| {
            json!({
                "id": id,
                "name": name,
                "shortDescription": {"text": text},
                "fullDescription": {"text": format!("{text} focuscheck reports it as unsafe with a counterexample that replays in its interpreter, with the focus-statement sequences that explain it and the neighbourhood (NEST) where the fix belongs.")},
                "defaultConfiguration": {"level": "error"},
                "help": {"text": "Run `focuscheck check FILE --view fss` or `--view full` for the sequences and complete counterexamples."},
            })
        })
        .collect();
    let artifacts: Vec<Value> = files
        .iter()
        .map(|(d, _)| json!({"location": {"uri": uri(&d.file)}, "sourceLanguage": "c"}))
        .collect();
    let results: Vec<Value> = files
        .iter()
        .enumerate()
        .flat_map(|(i, (d, s))| d.conditions.iter().map(move |c| result(&uri(&d.file), i, c, *s)))
        .collect();
    let notes: Vec<Value> = files
        .iter()
        .enumerate()
        .flat_map(|(i, (d, _))| notifications(&uri(&d.file), i, d))
        .collect();
    let success = files.iter().all(|(d, _)| d.status == "checked");
    let mut log = envelope(rules, results, notes, success);
    log["runs"][0]["artifacts"] = artifacts.into();
    log["runs"][0]["columnKind"] = "unicodeCodePoints".into();
    log
}

/// A SARIF 2.1.0 log of one run of focuscheck: its rules, its results, and
/// the notifications of its execution, which was successful when every
/// file was analysed.
pub fn envelope(rules: Vec<Value>, results: Vec<Value>, notes: Vec<Value>, success: bool) -> Value {
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "focuscheck",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "invocations": [{
                "executionSuccessful": success,
                "toolExecutionNotifications": notes,
            }],
            "results": results,
        }],
    })
}

/// The log for commands whose files are JSON documents (`verify`,
/// `doomed`): a document whose `status` is not `checked` was not analysed,
/// and each of its `errors` becomes an error notification in its file;
/// each of its `warnings` a warning notification. A result's rule that
/// `rules` does not describe is declared by its id.
pub fn documents_log(mut rules: Vec<Value>, results: Vec<Value>, docs: &[Value]) -> Value {
    for r in &results {
        if r["ruleId"].is_string() && !rules.iter().any(|x| x["id"] == r["ruleId"]) {
            rules.push(json!({"id": r["ruleId"]}));
        }
    }
    let mut notes = Vec::new();
    for d in docs.iter().filter(|d| d["status"] != "checked") {
        let artifact = json!({"uri": uri(d["file"].as_str().unwrap_or_default())});
        let errors: Vec<MessageDoc> = serde_json::from_value(d["errors"].clone()).unwrap_or_default();
        let id = d["status"].as_str().unwrap_or("error");
        notes.extend(errors.iter().map(|m| notification(&artifact, m, "error", id)));
    }
    for d in docs {
        let artifact = json!({"uri": uri(d["file"].as_str().unwrap_or_default())});
        let warnings: Vec<MessageDoc> = serde_json::from_value(d["warnings"].clone()).unwrap_or_default();
        notes.extend(
            warnings
                .iter()
                .map(|m| notification(&artifact, m, "warning", "warning")),
        );
    }
    let success = docs.iter().all(|d| d["status"] == "checked");
    envelope(rules, results, notes, success)
}

/// A tool execution notification about a file, at the message's line when
/// it has one.
fn notification(artifact: &Value, m: &MessageDoc, level: &str, id: &str) -> Value {
    let mut at = json!({"physicalLocation": {"artifactLocation": artifact}});
    if let (Some(l), Some(c)) = (m.line, m.column) {
        at["physicalLocation"]["region"] = region(l, c);
    }
    json!({
        "level": level,
        "message": {"text": m.message},
        "locations": [at],
        "descriptor": {"id": id},
    })
}

/// A file path as a relative URI reference (`/` separators, spaces and
/// other reserved characters escaped).
fn uri(path: &str) -> String {
    let mut out = String::new();
    for c in path.replace('\\', "/").chars() {
        if c.is_ascii_alphanumeric() || "-._~/".contains(c) {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}
