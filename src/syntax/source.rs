//! Source files, byte spans and line/column lookup.

use std::fmt;
use std::sync::OnceLock;

/// A half-open byte range `lo..hi` in one source file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub fn new(lo: usize, hi: usize) -> Span {
        Span {
            lo: lo as u32,
            hi: hi as u32,
        }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            lo: self.lo.min(other.lo),
            hi: self.hi.max(other.hi),
        }
    }

    pub fn range(self) -> std::ops::Range<usize> {
        self.lo as usize..self.hi as usize
    }
}

/// A 1-based line and column (columns count characters, as editors do).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineCol {
    pub line: u32,
    pub col: u32,
}

impl fmt::Display for LineCol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.col)
    }
}

/// One input file: its display name, its text and where its lines start;
/// and the headers it includes, whose texts follow its own in one offset
/// space (the source map: a span of a header's token resolves to the
/// header's name, line and text through the same methods).
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<usize>,
    /// Set once by the preprocessor (`crate::syntax::preprocess`).
    includes: OnceLock<Vec<Header>>,
}

/// An included file in the offset space of the file that includes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// As a message names it: a path, or `<stdint.h>` for a shipped one.
    pub name: String,
    pub text: String,
    /// The offset of its first byte.
    pub base: u32,
}

/// The offset where a header after `end` (the last byte used so far)
/// starts: one byte of gap, so no span of one file touches another.
pub fn next_base(end: usize) -> u32 {
    end as u32 + 1
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> SourceFile {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        SourceFile {
            name: name.into(),
            text,
            line_starts,
            includes: OnceLock::new(),
        }
    }

    /// Records the headers the preprocessor included; `false` if a
    /// different set was recorded before (the spans would not agree).
    pub fn set_includes(&self, headers: Vec<Header>) -> bool {
        if headers.is_empty() && self.includes.get().is_none() {
            return true;
        }
        match self.includes.set(headers) {
            Ok(()) => true,
            Err(h) => self.includes.get() == Some(&h),
        }
    }

    pub fn includes(&self) -> &[Header] {
        self.includes.get().map_or(&[], Vec::as_slice)
    }

    /// The header holding an offset past this file's own text.
    fn header_at(&self, offset: u32) -> Option<&Header> {
        if (offset as usize) <= self.text.len() {
            return None;
        }
        let hs = self.includes();
        let i = hs.partition_point(|h| h.base <= offset).checked_sub(1)?;
        Some(&hs[i])
    }

    /// Which file a span is in (0: this one, i + 1: `includes()[i]`), and
    /// the span's byte range in that file's text.
    pub fn resolve(&self, span: Span) -> (usize, std::ops::Range<usize>) {
        match self.header_at(span.lo) {
            None => (0, span.range()),
            Some(h) => {
                let i = self.includes().iter().position(|x| x.base == h.base).unwrap_or(0);
                let lo = (span.lo - h.base) as usize;
                let hi = (span.hi.saturating_sub(h.base) as usize).clamp(lo, h.text.len());
                (i + 1, lo..hi)
            }
        }
    }

    /// The name of the file a span is in.
    pub fn name_of(&self, span: Span) -> &str {
        self.header_at(span.lo).map_or(&self.name, |h| &h.name)
    }

    /// The text of the line a span starts on, in its own file.
    pub fn line_text_at(&self, span: Span) -> &str {
        match self.header_at(span.lo) {
            None => self.line_text(self.line_of(span)),
            Some(h) => {
                let at = (span.lo - h.base) as usize;
                let at = at.min(h.text.len());
                let start = h.text[..at].rfind('\n').map_or(0, |i| i + 1);
                let end = h.text[at..].find('\n').map_or(h.text.len(), |i| at + i);
                h.text[start..end].trim_end_matches('\r')
            }
        }
    }

    pub fn line_col(&self, offset: u32) -> LineCol {
        if let Some(h) = self.header_at(offset) {
            let at = ((offset - h.base) as usize).min(h.text.len());
            let before = &h.text[..at];
            let start = before.rfind('\n').map_or(0, |i| i + 1);
            return LineCol {
                line: before.matches('\n').count() as u32 + 1,
                col: before[start..].chars().count() as u32 + 1,
            };
        }
        let offset = (offset as usize).min(self.text.len());
        let line = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        let start = self.line_starts[line];
        let col = self.text[start..offset].chars().count() + 1;
        LineCol {
            line: line as u32 + 1,
            col: col as u32,
        }
    }

    /// The byte offset of a 1-based line and column (in characters).
    pub fn offset(&self, at: LineCol) -> Option<u32> {
        let start = *self.line_starts.get(at.line.checked_sub(1)? as usize)?;
        let line = self.line_text(at.line);
        let skip: usize = line
            .chars()
            .take(at.col.checked_sub(1)? as usize)
            .map(char::len_utf8)
            .sum();
        Some((start + skip) as u32)
    }

    pub fn start(&self, span: Span) -> LineCol {
        self.line_col(span.lo)
    }

    pub fn line_of(&self, span: Span) -> u32 {
        self.line_col(span.lo).line
    }

    /// The source text of a span (in its own file).
    pub fn slice(&self, span: Span) -> &str {
        match self.resolve(span) {
            (0, r) => self.text.get(r).unwrap_or(""),
            (i, r) => self.includes()[i - 1].text.get(r).unwrap_or(""),
        }
    }

    /// The text of a 1-based line of this file (not of its headers: see
    /// `line_text_at`), without its line break.
    pub fn line_text(&self, line: u32) -> &str {
        let i = line.saturating_sub(1) as usize;
        let Some(&start) = self.line_starts.get(i) else {
            return "";
        };
        let end = self.line_starts.get(i + 1).copied().unwrap_or(self.text.len());
        self.text[start..end].trim_end_matches(['\n', '\r'])
    }

    pub fn line_count(&self) -> u32 {
        self.line_starts.len() as u32
    }

    /// `file:line:col` for a span.
    pub fn location(&self, span: Span) -> String {
        format!("{}:{}", self.name_of(span), self.start(span))
    }
}
