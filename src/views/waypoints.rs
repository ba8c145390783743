//! Where witness waypoints are in the source, shared by the writer
//! (`violation_witness`) and the replay (`run --witness`): the `)` of a
//! `__VERIFIER_nondet_*` call whose value a draw is, and the `if`/`while`/
//! `for` keyword of a condition.

use crate::ir::{NodeId, NodeKind, Program, UnitId, UnitKind};
use crate::syntax::source::Span;

/// The offset of the `)` that closes the call whose name starts at `start`
/// of `text`.
fn closing_paren(text: &str, start: usize) -> Option<usize> {
    let open = start + text[start..].find('(')?;
    let mut depth = 0usize;
    for (i, c) in text[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + i);
                }
            }
            _ => {}
        }
    }
    None
}

/// For a draw (`Havoc`) whose value is a `__VERIFIER_nondet_*` result:
/// the offsets of the start of its line (where other tools may put the
/// waypoint) and of the call's `)` (where the format puts it).
pub fn nondet_call(p: &Program, node: NodeId) -> Option<(u32, u32)> {
    let n = p.node(node);
    if !matches!(n.kind, NodeKind::Havoc { .. }) || p.source.resolve(n.span).0 != 0 {
        return None;
    }
    let text = p.text(n.span);
    let start = text.find("__VERIFIER_nondet_")?;
    let close = n.span.lo + closing_paren(text, start)? as u32;
    let line = p.source.line_col(n.span.lo);
    let line_start = p.source.offset(crate::syntax::source::LineCol {
        line: line.line,
        col: 1,
    })?;
    Some((line_start, close))
}

/// The name of the `__VERIFIER_nondet_*` function a draw calls, when its
/// statement calls one only.
pub fn nondet_name(p: &Program, node: NodeId) -> Option<&str> {
    let text = p.text(p.node(node).span);
    let start = text.find("__VERIFIER_nondet_")?;
    let rest = &text[start..];
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    (text.matches("__VERIFIER_nondet_").count() == 1).then_some(&rest[..end])
}

/// The offset of the `if`, `while` or `for` keyword whose condition is
/// `unit` (a condition unit of the program's own file).
pub fn condition_keyword(p: &Program, unit: UnitId) -> Option<u32> {
    let u = p.unit(unit);
    if u.kind != UnitKind::Cond || p.source.resolve(u.span).0 != 0 {
        return None;
    }
    let text = p.source.slice(Span::new(0, u.span.lo as usize));
    let bytes = text.as_bytes();
    // Back to the `(` that opens the statement's parentheses (past the
    // `init;` of a `for`, and past extra parentheses around the condition).
    let mut at = bytes.len();
    let mut depth = 0usize;
    loop {
        at = at.checked_sub(1)?;
        match bytes[at] {
            b')' => depth += 1,
            b'(' if depth > 0 => depth -= 1,
            b'(' => {
                let before = text[..at].trim_end();
                if before.ends_with('(') {
                    continue;
                }
                let word_at = before
                    .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(0, |i| i + 1);
                return match &before[word_at..] {
                    "if" | "while" | "for" => Some(word_at as u32),
                    _ => None,
                };
            }
            b'{' | b'}' if depth == 0 => return None,
            _ => {}
        }
    }
}

/// Words that begin a statement other than a declaration or expression.
const STATEMENT_WORDS: [&str; 12] = [
    "if", "else", "for", "while", "do", "switch", "case", "default", "goto", "break", "continue", "sizeof",
];

/// Where the statement of `node` begins, when it is one within a block:
/// the keyword of an `if`/`while`/`for` condition, `return`, the first
/// word of a declaration (`int y = x;`) or of an expression statement,
/// the `for` of a loop's first clause. An `assumption` waypoint is put
/// there.
pub fn statement_start(p: &Program, node: NodeId) -> Option<u32> {
    let n = p.node(node);
    let u = p.unit(n.unit);
    if p.source.resolve(u.span).0 != 0 {
        return None;
    }
    let lo = match u.kind {
        UnitKind::Cond => condition_keyword(p, n.unit)?,
        UnitKind::Label => return None,
        _ => u.span.lo,
    };
    let text = p.source.slice(Span::new(0, lo as usize));
    let cut = text.rfind([';', '{', '}', ':']).map_or(0, |i| i + 1);
    let before = &text[cut..];
    let start = (cut + before.len() - before.trim_start().len()) as u32;
    let words = before.trim();
    if words.is_empty() || words == "return" {
        return Some(start);
    }
    if words
        .strip_prefix("for")
        .is_some_and(|r| r.trim_start().starts_with('('))
    {
        return Some(start);
    }
    let declaration = words
        .split(|c: char| c.is_whitespace() || c == '*')
        .filter(|w| !w.is_empty())
        .all(|w| w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !STATEMENT_WORDS.contains(&w));
    declaration.then_some(start)
}
