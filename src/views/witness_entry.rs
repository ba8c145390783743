//! What every SV-COMP witness (format 2.0, YAML) has, whatever its kind
//! (`violation_witness`, `correctness_witness`): locations, the entry's
//! metadata, and the YAML writer.

use crate::ir::Program;
use crate::syntax::source::Span;
use serde_json::{json, Value};

/// Where a waypoint is: the file, 1-based line and column, the function.
pub fn location(p: &Program, offset: u32, function: &str) -> Value {
    let at = p.source.line_col(offset);
    json!({
        "file_name": p.source.name_of(Span::new(offset as usize, offset as usize + 1)),
        "line": at.line,
        "column": at.col,
        "function": function,
    })
}

/// What the witness says about its task and maker.
pub struct Meta<'a> {
    /// The checked file's path as given.
    pub program: &'a str,
    /// SHA-256 of its bytes, lower-case hex.
    pub sha256: &'a str,
    /// ISO 8601 UTC.
    pub created: &'a str,
}

/// A UUID (RFC 9562 version 8, name-based) from the witness's own text,
/// so that the same witness has the same id run to run.
fn uuid(content: &str) -> String {
    let h = super::testcomp::sha256_hex(content.as_bytes());
    let b = h.as_bytes();
    let s = |r: std::ops::Range<usize>| std::str::from_utf8(&b[r]).unwrap_or("0");
    format!("{}-{}-8{}-a{}-{}", s(0..8), s(8..12), s(13..16), s(17..20), s(20..32))
}

/// One entry of a witness file: `entry_type`, the `metadata` (format 2.0,
/// a uuid from the content, the task with its SHA-256 and SV-COMP's
/// unreach-call specification naming `called`), and `content`; as the
/// file's one-element array.
pub fn entry(entry_type: &str, meta: &Meta, called: &str, content: Value) -> Value {
    let task = json!({
        "input_files": [meta.program],
        "input_file_hashes": {meta.program: meta.sha256},
        "specification": format!("G ! call({called}())"),
        "data_model": "ILP32",
        "language": "C",
    });
    let id = uuid(&format!("{entry_type}{}{content}", meta.sha256));
    json!([{
        "entry_type": entry_type,
        "metadata": {
            "format_version": "2.0",
            "uuid": id,
            "creation_time": meta.created,
            "producer": {"name": "focuscheck", "version": env!("CARGO_PKG_VERSION")},
            "task": task,
        },
        "content": content,
    }])
}

/// `v` as block-style YAML: strings double-quoted (JSON's escapes are
/// YAML's), numbers and booleans plain.
pub fn yaml(v: &Value) -> String {
    let mut out = String::new();
    write_yaml(v, 0, &mut out);
    out
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Array(a) if a.is_empty() => "[]".into(),
        Value::Object(o) if o.is_empty() => "{}".into(),
        _ => v.to_string(),
    }
}

fn is_block(v: &Value) -> bool {
    matches!(v, Value::Array(a) if !a.is_empty()) || matches!(v, Value::Object(o) if !o.is_empty())
}

/// Writes `v` at `indent` spaces; the caller has written the key or `- `.
fn write_yaml(v: &Value, indent: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match v {
        Value::Array(items) if !items.is_empty() => {
            for item in items {
                out.push_str(&pad);
                out.push_str("- ");
                if let Value::Object(o) = item {
                    // The first key on the dash's line, the others under it.
                    let mut first = true;
                    for (k, x) in o {
                        if !first {
                            out.push_str(&" ".repeat(indent + 2));
                        }
                        first = false;
                        key_value(k, x, indent + 2, out);
                    }
                } else if is_block(item) {
                    out.push('\n');
                    write_yaml(item, indent + 2, out);
                } else {
                    out.push_str(&scalar(item));
                    out.push('\n');
                }
            }
        }
        Value::Object(o) if !o.is_empty() => {
            for (k, x) in o {
                out.push_str(&pad);
                key_value(k, x, indent, out);
            }
        }
        _ => {
            out.push_str(&pad);
            out.push_str(&scalar(v));
            out.push('\n');
        }
    }
}

/// `key: value` at `indent`, the key already indented.
fn key_value(k: &str, x: &Value, indent: usize, out: &mut String) {
    out.push_str(&Value::String(k.to_string()).to_string());
    if is_block(x) {
        out.push_str(":\n");
        write_yaml(x, indent + 2, out);
    } else {
        out.push_str(": ");
        out.push_str(&scalar(x));
        out.push('\n');
    }
}
