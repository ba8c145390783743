//! SARIF 2.1.0: one log, one run, one result per error condition per file.
//! The FSSs are code flows (the top-ranked first), each statement a location
//! with what it did (branch outcome, assumption); the top NEST's statements
//! are related locations. Built from the JSON documents, so it says exactly
//! what `--format json` says. `verify` and `doomed` logs are written here
//! too, from their documents, with the same locations, results and
//! notifications.

use super::documents::{Document, FileEntry};
use super::doomed::DoomedFileDoc;
use super::json::{CondDoc, FileDoc, FssDoc, MessageDoc, StatementDoc};
use super::verify::{VerifyDoc, VerifyFileDoc};
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
        "A run can allocate beyond the heap model (more than `--heap-elems` elements, or more objects at one call than `--heap-instances`): \
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

/// A location in an artifact (`{"uri": ...}`, with its `index` when the log
/// lists the artifacts): its region from `line` when it is known (with
/// `column` and `end_line` when they are).
fn located(artifact: &Value, line: Option<u32>, column: Option<u32>, end_line: Option<u32>) -> Value {
    let mut physical = json!({ "artifactLocation": artifact });
    if let Some(l) = line {
        let mut region = json!({ "startLine": l });
        if let Some(c) = column {
            region["startColumn"] = c.into();
        }
        if let Some(e) = end_line {
            region["endLine"] = e.into();
        }
        physical["region"] = region;
    }
    json!({ "physicalLocation": physical })
}

/// A location with a message.
fn with_message(mut loc: Value, text: &str) -> Value {
    loc["message"] = json!({ "text": text });
    loc
}

/// A location in a listed artifact at a line and column (1 at least).
fn location(uri: &str, index: usize, line: u32, column: u32) -> Value {
    let artifact = json!({"uri": uri, "index": index});
    located(&artifact, Some(line.max(1)), Some(column.max(1)), None)
}

/// A result: its rule, level, message and location; callers add the rest.
fn result_at(rule: &str, level: &str, text: &str, at: Value) -> Value {
    json!({
        "ruleId": rule,
        "level": level,
        "message": {"text": text},
        "locations": [at],
    })
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
        let loc = location(uri, index, s.line, s.column);
        match &s.repeat {
            Some(r) => {
                flow_locations(uri, index, &r.first, f, out);
                let text = format!(
                    "{} ({} runs between the first and the last are left out)",
                    s.text,
                    r.count.saturating_sub(2)
                );
                out.push(json!({"location": with_message(loc, &text), "nestingLevel": s.depth}));
                flow_locations(uri, index, &r.last, f, out);
            }
            None if s.omitted.is_some() => {
                out.push(json!({"location": with_message(loc, &s.text), "nestingLevel": s.depth}));
            }
            None => {
                let text = statement_message(s, f);
                out.push(json!({"location": with_message(loc, &text), "nestingLevel": s.depth}));
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
    let mut props = json!({
        "verdict": c.verdict,
        "reason": c.reason,
        "inputs": c.inputs,
        "choices": c.choices,
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
        None => located(&json!({"uri": uri, "index": index}), None, None, None),
    };
    if let Some(cmd) = &c.replay {
        props["replay"] = json!(cmd);
    }
    let mut r = result_at(RULES[rule_index(c.kind)].0, level, &text, loc);
    r["ruleIndex"] = rule_index(c.kind).into();
    r["kind"] = kind.into();
    r["properties"] = props;
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
                let text = format!("NEST of FSS {}: `{}`", top.rank, s.text);
                let mut loc = with_message(location(uri, index, s.line, s.column), &text);
                loc["id"] = json!(i + 1);
                loc
            })
            .collect();
        if !related.is_empty() {
            r["relatedLocations"] = Value::Array(related);
        }
    }
    if let Some(f) = c.fixes.as_ref().filter(|f| !f.missing.is_empty()) {
        let mut related = r["relatedLocations"].as_array().cloned().unwrap_or_default();
        related.extend(super::fixes::sarif_missing(uri, index, f, related.len() + 1));
        r["relatedLocations"] = Value::Array(related);
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
            "locations": [located(&artifact, None, None, None)],
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
fn envelope(rules: Vec<Value>, results: Vec<Value>, notes: Vec<Value>, success: bool) -> Value {
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

/// The log for commands whose files are documents (`verify`, `doomed`): a
/// file that was not analysed has its `errors` as error notifications;
/// every file its `warnings` as warning notifications. A result's rule
/// that `rules` does not describe is declared by its id.
fn documents_log<D: Document>(mut rules: Vec<Value>, results: Vec<Value>, docs: &[FileEntry<D>]) -> Value {
    for r in &results {
        if r["ruleId"].is_string() && !rules.iter().any(|x| x["id"] == r["ruleId"]) {
            rules.push(json!({"id": r["ruleId"]}));
        }
    }
    let mut notes = Vec::new();
    for d in docs.iter().filter(|d| d.status() != "checked") {
        let artifact = json!({"uri": uri(d.file())});
        notes.extend(
            d.errors()
                .iter()
                .map(|m| notification(&artifact, m, "error", d.status())),
        );
    }
    for d in docs {
        let artifact = json!({"uri": uri(d.file())});
        notes.extend(
            d.warnings()
                .iter()
                .map(|m| notification(&artifact, m, "warning", "warning")),
        );
    }
    let success = docs.iter().all(|d| d.status() == "checked");
    envelope(rules, results, notes, success)
}

/// A tool execution notification about a file, at the message's line when
/// it has one.
fn notification(artifact: &Value, m: &MessageDoc, level: &str, id: &str) -> Value {
    let at = match (m.line, m.column) {
        (Some(l), Some(c)) => located(artifact, Some(l.max(1)), Some(c.max(1)), None),
        _ => located(artifact, None, None, None),
    };
    json!({
        "level": level,
        "message": {"text": m.message},
        "locations": [at],
        "descriptor": {"id": id},
    })
}

/// `doomed`: a result per doomed region (`error`, its lines related
/// locations) and per unreachable block of lines (`note`).
pub fn doomed_log(docs: &[FileEntry<DoomedFileDoc>]) -> Value {
    let mut results = Vec::new();
    for d in docs.iter().filter_map(FileEntry::doc) {
        let artifact = json!({"uri": uri(&d.file)});
        for r in &d.found.doomed {
            let at = match &r.fails_at {
                Some(f) => located(&artifact, Some(f.line), Some(f.column), None),
                None => located(&artifact, r.entry_lines.first().copied(), Some(1), None),
            };
            let related: Vec<Value> = (r.lines.iter())
                .map(|&l| located(&artifact, Some(l), None, None))
                .collect();
            let mut result = result_at("doomed", "error", &r.message, at);
            result["relatedLocations"] = related.into();
            results.push(result);
        }
        for u in &d.found.unreachable {
            let text = format!("no execution of `{}` reaches these lines", u.procedure);
            let at = located(&artifact, u.lines.first().copied(), Some(1), None);
            results.push(result_at("unreachable", "note", &text, at));
        }
    }
    let rules = vec![
        json!({"id": "doomed", "shortDescription": {"text": "no execution through these lines ends normally"}}),
        json!({"id": "unreachable", "shortDescription": {"text": "no execution reaches these lines"}}),
    ];
    documents_log(rules, results, docs)
}

/// `verify`: a result per warning, its trace a code flow (ending at the
/// warning); with contracts, a result per VC not proved.
pub fn verify_log(docs: &[FileEntry<VerifyFileDoc>]) -> Value {
    let mut results = Vec::new();
    for d in docs.iter().filter_map(FileEntry::doc) {
        match d {
            VerifyFileDoc::Vcs(v) => results.extend(vcs_results(v)),
            VerifyFileDoc::Warnings(w) => results.extend(warning_results(w)),
        }
    }
    documents_log(Vec::new(), results, docs)
}

fn warning_results(d: &VerifyDoc) -> Vec<Value> {
    let artifact = json!({"uri": uri(&d.file)});
    let mut out = Vec::new();
    for w in d.procedures.iter().flat_map(|p| &p.warnings) {
        let at = |line, column| located(&artifact, line, column, None);
        let mut steps: Vec<Value> = (w.trace.iter())
            .map(|s| json!({ "location": with_message(at(s.line(), s.column()), s.text()) }))
            .collect();
        steps.push(json!({ "location": with_message(at(Some(w.line), Some(w.column)), &w.message) }));
        let level = if w.status == "confirmed" { "error" } else { "warning" };
        let text = format!("{} ({})", w.message, w.status);
        let mut r = result_at(w.kind, level, &text, at(Some(w.line), Some(w.column)));
        r["codeFlows"] = json!([{"threadFlows": [{"locations": steps}]}]);
        out.push(r);
    }
    out
}

/// A result per VC that is not proved, at the line of what it shows.
fn vcs_results(d: &super::vcs::VcsDoc) -> Vec<Value> {
    let artifact = json!({"uri": uri(&d.file)});
    let mut out = Vec::new();
    for vc in d.functions.iter().flat_map(|f| &f.vcs) {
        if vc.status == "proved" {
            continue;
        }
        let mut text = format!("VC {} ({}): show that {}", vc.id, vc.status, vc.show.text);
        if let Some(e) = &vc.explanation {
            text.push_str(&format!(". {e}"));
        }
        let level = if vc.status == "failed" { "error" } else { "warning" };
        let at = located(&artifact, Some(vc.show.line), None, Some(vc.show.line));
        out.push(result_at(vc.kind, level, &text, at));
    }
    out
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
