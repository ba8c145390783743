//! Loop invariants for `--loops havoc`: the user's ACSL comments
//! (`/*@ loop invariant E; */` before a loop) and Houdini candidates
//! (`candidates.rs`; the engine keeps the largest inductive subset,
//! `solve.rs`).

use super::Invariant;
use crate::diag::Diag;
use crate::facts::Analysis;
use crate::ir::cond;
use crate::ir::*;
use std::collections::BTreeSet;

pub use super::candidates::candidates;

/// The user's `/*@ loop invariant E; */` comments: each belongs to the
/// first loop that starts after it. Names are those of the loop's
/// procedure (its locals first, then globals).
pub fn user_invariants(p: &Program, a: &Analysis) -> Result<Vec<Invariant>, Vec<Diag>> {
    let text = &p.source.text;
    let mut out = Vec::new();
    let mut diags = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find("/*@") {
        let start = from + i;
        let Some(j) = text[start..].find("*/") else { break };
        let end = start + j + 2;
        from = end;
        let body = &text[start + 3..end - 2];
        let mut heads: Vec<NodeId> = a
            .loops
            .iter()
            .map(|l| l.head)
            .filter(|&h| p.node(h).span.lo as usize >= end)
            .collect();
        heads.sort_by_key(|&h| p.node(h).span.lo);
        for clause in body.split(';') {
            let words: Vec<&str> = clause.split_whitespace().collect();
            if words.len() < 3 || words[0] != "loop" || words[1] != "invariant" {
                continue;
            }
            let expr_text = words[2..].join(" ");
            let Some(&head) = heads.first() else {
                diags.push(Diag::error(
                    crate::diag::Class::Semantic,
                    crate::syntax::source::Span::new(start, end),
                    "a loop invariant with no loop after it",
                ));
                continue;
            };
            let proc = p.node(head).proc;
            let qualified = qualify(p, proc, &expr_text);
            match cond::parse_user_condition(p, &qualified) {
                Ok(c) => out.push(Invariant {
                    head,
                    expr: c.expr,
                    text: expr_text,
                    user: true,
                    entry: false,
                }),
                Err(mut d) => {
                    for x in &mut d {
                        x.message = format!("in loop invariant `{expr_text}`: {}", x.message);
                        x.span = crate::syntax::source::Span::new(start, end);
                    }
                    diags.extend(d);
                }
            }
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}

/// Writes `x` as `f::x` for every local `x` of `f` (when `f` is not the
/// entry), so that conditions resolve in the loop's procedure.
fn qualify(p: &Program, proc: ProcId, text: &str) -> String {
    let locals: BTreeSet<&str> = p.proc(proc).locals.iter().map(|&v| p.var(v).name.as_str()).collect();
    let name = &p.proc(proc).name;
    let mut out = String::new();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        if !word.is_empty() {
            let starts_alpha = word.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_');
            if starts_alpha && locals.contains(word.as_str()) && !out.ends_with("::") {
                out.push_str(&format!("{name}::{word}"));
            } else {
                out.push_str(word);
            }
            word.clear();
        }
    };
    for ch in text.chars() {
        if ch.is_ascii_alphanumeric() || ch == '_' {
            word.push(ch);
        } else {
            flush(&mut word, &mut out);
            out.push(ch);
        }
    }
    flush(&mut word, &mut out);
    out
}
