//! The tokens of an annotation's text.

use super::super::source::Span;
use crate::diag::{Class, Diag};

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Tok {
    Int(i64),
    Word(String),
    Punct(&'static str),
    Eof,
}

/// Longest first: `..` before `.`, `->` before `-`, `&&` before `&`,
/// `<<` before `<=` and `<`.
const PUNCTS: &[&str] = &[
    "<==>", "==>", "..", "->", "==", "!=", "<<", ">>", "<=", ">=", "&&", "||", "<", ">", "!", "+", "-", "*", "/", "%",
    "(", ")", "[", "]", ",", ";", ".", "&", "|", "^", "~", "?", ":",
];

pub(super) fn err(span: Span, msg: impl Into<String>, label: &str) -> Diag {
    Diag::error(Class::Syntax, span, msg).with_label(label)
}

/// Tokens of an annotation's text; `base` is the text's offset in the file.
/// `@` at the start of a line (Frama-C's continuation marks) is blank.
pub(super) fn lex(text: &str, base: usize) -> Result<Vec<(Tok, Span)>, Diag> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let at = |lo: usize, hi: usize| Span::new(base + lo, base + hi);
    'next: while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() || c == b'@' {
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            let (digits, radix) = if c == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X')) {
                i += 2;
                (i, 16)
            } else {
                (i, 10)
            };
            while i < b.len() && (b[i].is_ascii_alphanumeric()) {
                i += 1;
            }
            let lit = text[digits..i].trim_end_matches(['u', 'U', 'l', 'L']);
            match i64::from_str_radix(lit, radix) {
                Ok(v) => out.push((Tok::Int(v), at(start, i))),
                Err(_) => return Err(err(at(start, i), "not an integer literal", "bad number")),
            }
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' || c == b'\\' {
            let start = i;
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((Tok::Word(text[start..i].to_string()), at(start, i)));
            continue;
        }
        for p in PUNCTS {
            if text[i..].starts_with(p) {
                out.push((Tok::Punct(p), at(i, i + p.len())));
                i += p.len();
                continue 'next;
            }
        }
        let ch = text[i..].chars().next().unwrap_or('?');
        return Err(err(
            at(i, i + ch.len_utf8()),
            format!("unexpected character `{ch}` in an annotation"),
            "not ACSL",
        ));
    }
    out.push((Tok::Eof, at(b.len(), b.len())));
    Ok(out)
}
