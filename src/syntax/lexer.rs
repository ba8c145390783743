//! The lexer: tokens of one text, and the directive lines the
//! preprocessor (`super::preprocess`) reads.

use super::ast::IntType;
use super::source::Span;
use crate::diag::{Class, Diag};
use std::collections::HashMap;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokKind {
    Ident(String),
    /// Integer literal with its C type (from its value, base and suffix).
    Int {
        value: i128,
        ty: IntType,
    },
    Char(i64),
    /// A string literal's bytes, escapes decoded, without the NUL.
    Str(Vec<u8>),
    /// A floating literal: its bit pattern and type (`float`, `double`).
    Float {
        bits: i64,
        ty: IntType,
    },
    Punct(&'static str),
    Eof,
}

#[derive(Clone, Debug)]
pub struct Token {
    pub kind: TokKind,
    pub span: Span,
    /// The token is the first on its line.
    pub line_start: bool,
}

impl Token {
    pub fn is_punct(&self, p: &str) -> bool {
        matches!(&self.kind, TokKind::Punct(q) if *q == p)
    }

    pub fn ident(&self) -> Option<&str> {
        match &self.kind {
            TokKind::Ident(s) => Some(s),
            _ => None,
        }
    }

    pub fn describe(&self) -> String {
        match &self.kind {
            TokKind::Ident(s) => format!("`{s}`"),
            TokKind::Int { value, .. } => format!("`{value}`"),
            TokKind::Char(_) => "a character literal".into(),
            TokKind::Str(_) => "a string literal".into(),
            TokKind::Float { .. } => "a floating-point literal".into(),
            TokKind::Punct(p) => format!("`{p}`"),
            TokKind::Eof => "end of file".into(),
        }
    }
}

/// Longest first, so that maximal munch works by trying them in order.
const PUNCTS: &[&str] = &[
    "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=",
    "##", "%=", "&=", "|=", "^=", "(", ")", "{", "}", "[", "]", ";", ",", ":", "?", "=", "<", ">", "+", "-", "*", "/",
    "%", "!", "~", "&", "|", "^", ".", "#",
];

/// The result of lexing: tokens after macro expansion, and the macros seen
/// (kept so later phases can tell a macro from a variable).
pub struct Lexed {
    pub tokens: Vec<Token>,
    pub macros: HashMap<String, Vec<Token>>,
    /// Every expansion in the program text, in text order.
    pub uses: Vec<MacroUse>,
    /// ACSL annotation comments (`/*@ ... */`, `//@ ...`), in file order.
    pub annotations: Vec<super::acsl::Comment>,
}

/// A macro expanded in the program: where it is used and the `#define`
/// line in force there (a macro in another's body is used where that one
/// is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacroUse {
    pub name: String,
    pub at: Span,
    pub defined: Span,
}

/// Lexes and preprocesses a text on its own (an `--error` condition, a
/// program's text for fixes): `#include` lines are skipped, as it has no
/// place to put a header's text.
pub fn lex(text: &str, diags: &mut Vec<Diag>) -> Lexed {
    super::preprocess::preprocess_text(text, diags)
}

/// What the lexer finds next: a token, a directive line, or the end.
pub(super) enum Item {
    Tok(Token),
    /// A line starting with `#`: from the `#` to its end (local offsets).
    Directive(usize, usize),
    Eof,
}

pub(super) struct Lexer<'a> {
    src: &'a [u8],
    text: &'a str,
    /// The offset of `text` in the program's offset space (a header's
    /// text follows the including file's: `SourceFile::includes`).
    base: usize,
    pos: usize,
    at_line_start: bool,
    pub(super) diags: Vec<Diag>,
    pub(super) annotations: Vec<super::acsl::Comment>,
    /// Tokens standing for a statement annotation, emitted next.
    pending: Vec<Token>,
    /// In a group `#if` skips: no annotations are recorded.
    skipping: bool,
}

impl<'a> Lexer<'a> {
    pub(super) fn new(text: &'a str, base: usize) -> Lexer<'a> {
        // A UTF-8 byte-order mark is not part of the program (gcc skips it).
        let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
        Lexer {
            src: text.as_bytes(),
            text,
            base,
            pos: start,
            at_line_start: true,
            diags: Vec::new(),
            annotations: Vec::new(),
            pending: Vec::new(),
            skipping: false,
        }
    }

    fn sp(&self, lo: usize, hi: usize) -> Span {
        Span::new(self.base + lo, self.base + hi)
    }

    fn peek(&self, k: usize) -> u8 {
        *self.src.get(self.pos + k).unwrap_or(&0)
    }

    /// The newline at `nl` is preceded by a backslash (`\` LF or `\` CR LF):
    /// C splices the two lines into one.
    fn spliced(&self, nl: usize) -> bool {
        let before = &self.src[..nl];
        before.ends_with(b"\\") || before.ends_with(b"\\\r")
    }

    /// The next token or directive; in a skipped group (`skipping`), only
    /// directives.
    pub(super) fn next_item(&mut self, skipping: bool) -> Item {
        self.skipping = skipping;
        loop {
            if skipping {
                self.skip_group_text();
            } else {
                self.skip_space_and_comments();
            }
            if !self.pending.is_empty() {
                self.at_line_start = false;
                return Item::Tok(self.pending.remove(0));
            }
            if self.pos >= self.src.len() {
                return Item::Eof;
            }
            if self.peek(0) == b'#' && self.at_line_start {
                // The directive ends at the first newline not after `\`.
                let mut end = self.pos;
                while end < self.src.len() && (self.src[end] != b'\n' || self.spliced(end)) {
                    end += 1;
                }
                return Item::Directive(self.pos, end);
            }
            let line_start = self.at_line_start;
            self.at_line_start = false;
            if let Some(mut t) = self.token() {
                t.line_start = line_start;
                return Item::Tok(t);
            }
        }
    }

    /// Moves past a skipped group's text to the next line starting with
    /// `#` (comments and quotes may hide a `#`, as in C).
    fn skip_group_text(&mut self) {
        loop {
            self.skip_space_and_comments();
            if self.pos >= self.src.len() || (self.at_line_start && self.peek(0) == b'#') {
                return;
            }
            self.at_line_start = false;
            while self.pos < self.src.len()
                && self.peek(0) != b'\n'
                && !(self.peek(0) == b'/' && matches!(self.peek(1), b'*' | b'/'))
            {
                let q = self.peek(0);
                self.pos += 1;
                if q == b'"' || q == b'\'' {
                    while self.pos < self.src.len() && !matches!(self.peek(0), b'\n') && self.peek(0) != q {
                        self.pos += if self.peek(0) == b'\\' { 2 } else { 1 };
                    }
                    self.pos = (self.pos + 1).min(self.src.len());
                }
            }
        }
    }

    /// The text of a directive line (local offsets).
    pub(super) fn slice_local(&self, lo: usize, hi: usize) -> &'a str {
        &self.text[lo..hi]
    }

    /// Continues after a directive ending at `end`.
    pub(super) fn end_directive(&mut self, end: usize) {
        self.pos = end;
    }

    /// The tokens of a directive line from `from` to `end` (comments and
    /// spliced line breaks are spaces).
    pub(super) fn line_tokens(&mut self, from: usize, end: usize) -> Vec<Token> {
        let saved = self.pos;
        self.pos = from;
        let mut toks = Vec::new();
        loop {
            while self.pos < end && matches!(self.peek(0), b' ' | b'\t' | b'\r' | b'\\' | b'\n' | 0x0b | 0x0c) {
                self.pos += 1;
            }
            if self.pos < end && self.peek(0) == b'/' && self.peek(1) == b'*' {
                while self.pos < self.src.len() && !(self.peek(0) == b'*' && self.peek(1) == b'/') {
                    self.pos += 1;
                }
                self.pos = (self.pos + 2).min(self.src.len());
                continue;
            }
            if self.pos >= end || (self.peek(0) == b'/' && self.peek(1) == b'/') {
                break;
            }
            let before = self.pos;
            match self.token() {
                Some(t) => toks.push(t),
                None if self.pos == before => self.pos += 1,
                None => {}
            }
        }
        self.pos = saved;
        toks
    }

    /// The end of a block comment that began on a directive line and runs
    /// past it (C: a comment is one space, the directive goes on).
    pub(super) fn directive_end(&self, start: usize, end: usize) -> usize {
        let mut i = start;
        let mut end = end;
        while i + 1 < end {
            if self.src[i] == b'/' && self.src[i + 1] == b'/' {
                return end;
            }
            if self.src[i] == b'/' && self.src[i + 1] == b'*' {
                match self.text[i + 2..].find("*/") {
                    Some(k) => {
                        let close = i + 2 + k + 2;
                        if close > end {
                            end = self.text[close..].find('\n').map_or(self.src.len(), |n| close + n);
                        }
                        i = close;
                        continue;
                    }
                    None => return self.src.len(),
                }
            }
            i += 1;
        }
        end
    }

    fn skip_space_and_comments(&mut self) {
        loop {
            let c = self.peek(0);
            if c == b'\n' {
                self.at_line_start = true;
                self.pos += 1;
            } else if matches!(c, b' ' | b'\t' | b'\r' | 0x0b | 0x0c)
                || (c == b'\\' && matches!(self.peek(1), b'\n' | b'\r'))
            {
                self.pos += 1;
            } else if c == b'/' && self.peek(1) == b'/' {
                // Up to the end of the line; a backslash before the newline
                // splices the next line into the comment, as in C.
                let start = self.pos;
                while self.pos < self.src.len() && (self.peek(0) != b'\n' || self.spliced(self.pos)) {
                    self.pos += 1;
                }
                if self.src.get(start + 2) == Some(&b'@') && self.annotation(start, start + 3, self.pos, self.pos) {
                    return;
                }
            } else if c == b'/' && self.peek(1) == b'*' {
                let start = self.pos;
                self.pos += 2;
                loop {
                    if self.pos >= self.src.len() {
                        self.diags.push(
                            Diag::error(Class::Syntax, self.sp(start, start + 2), "unterminated comment")
                                .with_label("this comment is never closed")
                                .with_note("a `/*` comment must end with `*/`"),
                        );
                        return;
                    }
                    if self.peek(0) == b'*' && self.peek(1) == b'/' {
                        self.pos += 2;
                        break;
                    }
                    self.pos += 1;
                }
                let end = self.pos;
                if self.src.get(start + 2) == Some(&b'@')
                    && end >= start + 5
                    && self.annotation(start, start + 3, end - 2, end)
                {
                    return;
                }
            } else {
                return;
            }
        }
    }

    /// Records an ACSL annotation comment. A statement annotation (`assert`,
    /// `loop invariant`) is also put in the token stream as a label
    /// (`__acsl_assert_K: ;`, `__acsl_loop_K:`), so it becomes a point of
    /// the program exactly where it is written; returns whether it did.
    fn annotation(&mut self, start: usize, body_lo: usize, body_hi: usize, end: usize) -> bool {
        // Annotations count in the checked file only, not in its headers
        // or in groups `#if` skips.
        if self.skipping || self.base != 0 {
            return false;
        }
        let index = self.annotations.len();
        let span = self.sp(start, end);
        self.annotations.push(super::acsl::Comment {
            span,
            body: self.sp(body_lo, body_hi),
        });
        let kind = match super::acsl::first_word(&self.text[body_lo..body_hi]) {
            "assert" => "assert",
            "loop" => "loop",
            _ => return false,
        };
        let tok = |kind| Token {
            kind,
            span,
            line_start: false,
        };
        self.pending
            .push(tok(TokKind::Ident(super::acsl::marker_label(kind, index))));
        self.pending.push(tok(TokKind::Punct(":")));
        if kind == "assert" {
            self.pending.push(tok(TokKind::Punct(";")));
        }
        true
    }

    fn token(&mut self) -> Option<Token> {
        let start = self.pos;
        let c = self.peek(0);
        if c.is_ascii_alphabetic() || c == b'_' {
            while self.peek(0).is_ascii_alphanumeric() || self.peek(0) == b'_' {
                self.pos += 1;
            }
            let s = self.text[start..self.pos].to_string();
            return Some(Token {
                kind: TokKind::Ident(s),
                span: self.sp(start, self.pos),
                line_start: false,
            });
        }
        if c.is_ascii_digit() || (c == b'.' && self.peek(1).is_ascii_digit()) {
            return Some(self.number());
        }
        if c == b'"' {
            self.pos += 1;
            let mut bytes = Vec::new();
            while self.pos < self.src.len() && self.peek(0) != b'"' && self.peek(0) != b'\n' {
                let at = self.pos;
                if self.peek(0) >= 0x80 {
                    // UTF-8 in a string is its bytes, as gcc stores them.
                    bytes.push(self.peek(0));
                    self.pos += 1;
                    continue;
                }
                match self.char_in_literal() {
                    Ok(v) => bytes.push(v as u8),
                    Err(msg) => self.diags.push(
                        Diag::error(Class::Syntax, Span::new(at, self.pos), msg).with_label("in this string literal"),
                    ),
                }
            }
            if self.peek(0) == b'"' {
                self.pos += 1;
            } else {
                self.diags.push(
                    Diag::error(Class::Syntax, self.sp(start, self.pos), "unterminated string literal")
                        .with_label("no closing `\"`"),
                );
            }
            return Some(Token {
                kind: TokKind::Str(bytes),
                span: self.sp(start, self.pos),
                line_start: false,
            });
        }
        if c == b'\'' {
            return Some(self.char_literal());
        }
        if c >= 0x80 {
            // A non-ASCII character outside comments and strings.
            let ch = self.text[start..].chars().next().unwrap_or('?');
            self.pos += ch.len_utf8();
            self.diags.push(
                Diag::error(
                    Class::Syntax,
                    self.sp(start, self.pos),
                    format!("unexpected character `{ch}`"),
                )
                .with_label("not allowed here"),
            );
            return None;
        }
        for p in PUNCTS {
            if self.src[self.pos..].starts_with(p.as_bytes()) {
                self.pos += p.len();
                return Some(Token {
                    kind: TokKind::Punct(p),
                    span: self.sp(start, self.pos),
                    line_start: false,
                });
            }
        }
        self.pos += 1;
        let shown = if c == b'`' {
            "'`'".to_string()
        } else if c.is_ascii_graphic() {
            format!("`{}`", c as char)
        } else {
            format!("byte 0x{c:02x}")
        };
        self.diags.push(
            Diag::error(
                Class::Syntax,
                self.sp(start, self.pos),
                format!("unexpected character {shown}"),
            )
            .with_label("not allowed here"),
        );
        None
    }

    fn number(&mut self) -> Token {
        let start = self.pos;
        let (radix, digits_from) = if self.peek(0) == b'0' && matches!(self.peek(1), b'x' | b'X') {
            (16, start + 2)
        } else if self.peek(0) == b'0' && self.peek(1).is_ascii_digit() {
            (8, start + 1)
        } else {
            (10, start)
        };
        self.pos = digits_from;
        while self.peek(0).is_ascii_hexdigit() && (radix == 16 || self.peek(0).is_ascii_digit()) {
            self.pos += 1;
        }
        let digits = &self.text[digits_from..self.pos];
        let suffix_start = self.pos;
        loop {
            let c = self.peek(0);
            let exponent = if radix == 16 {
                matches!(self.peek(0), b'p' | b'P')
            } else {
                matches!(self.peek(0), b'e' | b'E')
            };
            if exponent && matches!(self.peek(1), b'+' | b'-') {
                self.pos += 2;
            } else if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' {
                self.pos += 1;
            } else {
                break;
            }
        }
        let span = self.sp(start, self.pos);
        let text = &self.text[start..self.pos];
        let suffix = &self.text[suffix_start..self.pos];
        let is_float = suffix.starts_with('.')
            || (radix == 16 && suffix.contains(['p', 'P']))
            || (radix != 16 && (suffix.contains('.') || suffix.starts_with(['e', 'E', 'f', 'F'])));
        if is_float {
            let text = text.to_string();
            return self.float_literal(&text, span);
        }
        let int = |value: i128, ty: IntType| Token {
            kind: TokKind::Int { value, ty },
            span,
            line_start: false,
        };
        if let Some(bad) = digits.chars().find(|c| radix == 8 && !c.is_digit(8)) {
            self.diags.push(
                Diag::error(
                    Class::Syntax,
                    span,
                    format!("invalid digit `{bad}` in octal literal `{text}`"),
                )
                .with_label("a literal starting with 0 is octal")
                .with_note("write it without the leading 0 for a decimal number"),
            );
            return int(0, IntType::Int);
        }
        let (unsigned, long) = match suffix_kind(suffix) {
            Some(k) if !(digits.is_empty() && radix == 16) => k,
            _ => {
                self.diags.push(
                    Diag::error(Class::Syntax, span, format!("malformed number `{text}`"))
                        .with_label("not a valid integer literal"),
                );
                return int(0, IntType::Int);
            }
        };
        let value = if digits.is_empty() {
            0
        } else {
            i128::from_str_radix(digits, radix).unwrap_or(i128::MAX)
        };
        match literal_type(value, radix == 10, unsigned, long) {
            Some(ty) => int(value, ty),
            None => {
                self.diags.push(
                    Diag::error(Class::Syntax, span, "integer literal is too large")
                        .with_label("does not fit in 64 bits"),
                );
                int(0, IntType::Int)
            }
        }
    }

    fn float_literal(&mut self, text: &str, span: Span) -> Token {
        let (bits, ty) = match super::float_lit::parse(text) {
            Ok(v) => v,
            Err(e) => {
                let (msg, label) = match e {
                    super::float_lit::LitError::LongDouble => (
                        format!("`long double` literal `{text}` is not part of Cimple"),
                        "x87 80-bit `long double` is not modelled; write a `double`",
                    ),
                    super::float_lit::LitError::Malformed => {
                        (format!("malformed number `{text}`"), "not a valid floating literal")
                    }
                };
                self.diags.push(Diag::error(Class::Syntax, span, msg).with_label(label));
                (0, IntType::Double)
            }
        };
        Token {
            kind: TokKind::Float { bits, ty },
            span,
            line_start: false,
        }
    }

    fn char_literal(&mut self) -> Token {
        let start = self.pos;
        self.pos += 1;
        let mut chars = Vec::new();
        while self.pos < self.src.len() && !matches!(self.peek(0), b'\'' | b'\n') {
            let at = self.pos;
            match self.char_in_literal() {
                Ok(v) => chars.push(v),
                Err(msg) => {
                    self.diags.push(
                        Diag::error(Class::Syntax, self.sp(at, self.pos), msg).with_label("in this character literal"),
                    );
                    chars.push(0);
                }
            }
        }
        let base = self.base;
        let span_to = |pos| Span::new(base + start, base + pos);
        if self.peek(0) == b'\'' {
            self.pos += 1;
        } else {
            self.diags.push(
                Diag::error(Class::Syntax, span_to(self.pos), "unterminated character literal")
                    .with_label("expected a closing `'`"),
            );
        }
        let value = match chars.as_slice() {
            // A `char` is signed (gcc on x86): '\xff' is -1.
            [v] => *v as u8 as i8 as i64,
            [] => {
                self.diags.push(
                    Diag::error(Class::Syntax, span_to(self.pos), "empty character literal")
                        .with_label("no character between the quotes"),
                );
                0
            }
            _ => {
                self.diags.push(
                    Diag::error(
                        Class::Unsupported,
                        span_to(self.pos),
                        "multi-character literals are not part of Cimple",
                    )
                    .with_label("more than one character")
                    .with_note("their value is implementation-defined in C"),
                );
                0
            }
        };
        Token {
            kind: TokKind::Char(value),
            span: span_to(self.pos),
            line_start: false,
        }
    }

    /// One character of a character literal, escapes decoded (C11 6.4.4.4).
    fn char_in_literal(&mut self) -> Result<u32, String> {
        let c = self.peek(0);
        if c >= 0x80 {
            let ch = self.text[self.pos..].chars().next().unwrap_or('?');
            self.pos += ch.len_utf8();
            return Err(format!(
                "the non-ASCII character `{ch}` is not part of Cimple in a character literal"
            ));
        }
        self.pos += 1;
        if c != b'\\' {
            return Ok(c as u32);
        }
        let e = self.peek(0);
        self.pos += 1;
        let simple = match e {
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'n' => 10,
            b'r' => 13,
            b't' => 9,
            b'v' => 11,
            b'\\' | b'\'' | b'"' | b'?' => e as u32,
            b'0'..=b'7' => {
                let mut v = (e - b'0') as u32;
                for _ in 0..2 {
                    if !(b'0'..=b'7').contains(&self.peek(0)) {
                        break;
                    }
                    v = v * 8 + (self.peek(0) - b'0') as u32;
                    self.pos += 1;
                }
                return if v > 0xff {
                    Err(format!("octal escape `\\{v:o}` is out of range for a char"))
                } else {
                    Ok(v)
                };
            }
            b'x' => {
                let from = self.pos;
                while self.peek(0).is_ascii_hexdigit() {
                    self.pos += 1;
                }
                let hex = &self.text[from..self.pos];
                return match u32::from_str_radix(hex, 16) {
                    Ok(v) if v <= 0xff => Ok(v),
                    Ok(_) => Err(format!("hex escape `\\x{hex}` is out of range for a char")),
                    Err(_) if hex.is_empty() => Err("`\\x` needs at least one hex digit".to_string()),
                    Err(_) => Err(format!("hex escape `\\x{hex}` is out of range for a char")),
                };
            }
            _ => {
                let shown = self.text[self.pos - 1..].chars().next().unwrap_or('?');
                self.pos += shown.len_utf8().saturating_sub(1);
                return Err(format!("unknown escape sequence `\\{shown}`"));
            }
        };
        Ok(simple)
    }
}

/// An integer suffix: (unsigned, long count), or `None` if malformed.
fn suffix_kind(suffix: &str) -> Option<(bool, u8)> {
    let lower = suffix.to_ascii_lowercase();
    // `lL` and `Ll` are not suffixes: the two letters must match.
    if suffix.contains("lL") || suffix.contains("Ll") {
        return None;
    }
    match lower.as_str() {
        "" => Some((false, 0)),
        "u" => Some((true, 0)),
        "l" => Some((false, 1)),
        "ul" | "lu" => Some((true, 1)),
        "ll" => Some((false, 2)),
        "ull" | "llu" => Some((true, 2)),
        _ => None,
    }
}

/// The C type of an integer literal (C11 6.4.4.1, ILP32): the first of the
/// candidate types that holds the value. Octal and hex literals may take
/// unsigned types, decimal ones only with a `u` suffix.
fn literal_type(value: i128, decimal: bool, unsigned: bool, long: u8) -> Option<IntType> {
    use IntType::*;
    let signed: &[IntType] = match long {
        0 => &[Int, Long, LongLong],
        1 => &[Long, LongLong],
        _ => &[LongLong],
    };
    let unsigned_of = |t: IntType| match t {
        Int => UInt,
        Long => ULong,
        _ => ULongLong,
    };
    let mut candidates = Vec::new();
    for &t in signed {
        if !unsigned {
            candidates.push(t);
        }
        if unsigned || !decimal {
            candidates.push(unsigned_of(t));
        }
    }
    candidates.into_iter().find(|t| {
        let (lo, hi) = t.c_range();
        lo <= value && value <= hi
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(text: &str) -> Vec<i128> {
        let mut diags = Vec::new();
        let lexed = lex(text, &mut diags);
        assert!(diags.is_empty(), "{diags:?}");
        lexed
            .tokens
            .iter()
            .filter_map(|t| match t.kind {
                TokKind::Int { value, .. } => Some(value),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_macro_is_expanded_with_the_definitions_in_force_at_its_use() {
        // C: the use before the second definition keeps the first value.
        let text = "#define N 1\nint a = N;\n#undef N\n#define N 2\nint b = N;\n";
        assert_eq!(ints(text), vec![1, 2]);
    }

    #[test]
    fn a_macro_body_is_expanded_at_the_use_not_at_the_definition() {
        let text = "#define A B\n#define B 7\nint x = A;\n";
        assert_eq!(ints(text), vec![7]);
    }
}
