//! The preprocessor (C11 6.10), run as the lexer reads: conditional
//! groups, object-like and function-like macros (`expand`), `#include`
//! of the program's headers and of those focuscheck ships (`headers`),
//! `#error`, `#pragma` (ignored), `__FILE__`/`__LINE__`.
//!
//! Provenance: every token keeps the span where it was written; a
//! header's text is placed after the including file's in one offset space
//! (`SourceFile::includes`), so a span in a header resolves to the
//! header's name, line and text. A token a macro gives takes the span of
//! the macro's use, and the use is recorded (`MacroUse`).

mod cond;
mod directive;
mod expand;
mod headers;

use super::lexer::{Item, Lexed, Lexer, MacroUse, TokKind, Token};
use super::source::{Header, SourceFile, Span};
use crate::diag::{Class, Diag};
use expand::{Expander, Macro, PpTok};
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::rc::Rc;

pub use headers::SHIPPED;

/// What the command line says about preprocessing (`-D`, `-U`, `-I`).
#[derive(Clone, Debug, Default)]
pub struct PpOptions {
    /// `NAME` or `NAME=VALUE`, in order.
    pub defines: Vec<String>,
    /// Names `#undef`ined before the file (after the `-D`s, as gcc does).
    pub undefs: Vec<String>,
    /// Directories searched for `#include` (after the including file's
    /// own for `"..."`), before the shipped headers.
    pub include_dirs: Vec<PathBuf>,
    /// How a header file is read (the CLI's; IO stays there). `None`:
    /// only the shipped headers are found.
    pub read: Option<ReadFile>,
}

/// Reads a file's bytes; `None` if it is not a readable file.
pub type ReadFile = fn(&std::path::Path) -> Option<Vec<u8>>;

/// The macros gcc predefines on i386 Linux (`gcc -m32 -dM -E`) that
/// programs test; not `__GNUC__`, which would ask for GNU extensions.
const PREDEFINED: &[&str] = &[
    "__STDC__=1",
    "__STDC_VERSION__=201112L",
    "__STDC_HOSTED__=1",
    "__i386__=1",
    "__i386=1",
    "__ILP32__=1",
    "__linux__=1",
    "__unix__=1",
    "__CHAR_BIT__=8",
    "__SIZEOF_INT__=4",
    "__SIZEOF_LONG__=4",
    "__SIZEOF_LONG_LONG__=8",
    "__SIZEOF_POINTER__=4",
    "__SIZEOF_SHORT__=2",
    "__INT_MAX__=2147483647",
    "__LONG_MAX__=2147483647L",
    "__SCHAR_MAX__=127",
    "__SHRT_MAX__=32767",
    "__LONG_LONG_MAX__=9223372036854775807LL",
];

/// Preprocesses a file and the headers it includes; records the headers'
/// texts in the file's source map.
pub fn preprocess(file: &SourceFile, opts: &PpOptions, diags: &mut Vec<Diag>) -> Lexed {
    let mut pp = Pp::new(opts, true, file.text.len());
    let dir = std::path::Path::new(&file.name).parent().map(PathBuf::from);
    pp.run(&file.text, 0, &file.name, dir);
    let headers = std::mem::take(&mut pp.headers);
    if !file.set_includes(headers) {
        pp.diags.push(Diag::error(
            Class::Syntax,
            Span::default(),
            "the file was preprocessed twice with different headers",
        ));
    }
    pp.finish(file.text.len(), diags)
}

/// Preprocesses a text on its own: `#include` lines are skipped.
pub fn preprocess_text(text: &str, diags: &mut Vec<Diag>) -> Lexed {
    let opts = PpOptions::default();
    let mut pp = Pp::new(&opts, false, text.len());
    pp.run(text, 0, "", None);
    pp.finish(text.len(), diags)
}

/// One `#if` group and its branches.
struct Group {
    /// Its text is read (the enclosing group's is, and this branch's
    /// condition holds).
    active: bool,
    /// A branch was taken (or the enclosing group is skipped): later
    /// `#elif`/`#else` branches are skipped.
    taken: bool,
    seen_else: bool,
    at: Span,
}

/// The file being read: where its text is and what it is called.
struct Ctx<'t> {
    text: &'t str,
    base: usize,
    name: &'t str,
    dir: Option<PathBuf>,
}

struct Pp<'o> {
    opts: &'o PpOptions,
    macros: HashMap<String, Rc<Macro>>,
    diags: Vec<Diag>,
    uses: Vec<MacroUse>,
    headers: Vec<Header>,
    /// The last offset given to a file's text.
    end: usize,
    /// `#include` is read (a file, not a text on its own).
    includes: bool,
    /// Files with `#pragma once`.
    once: HashSet<String>,
    depth: usize,
    out: Vec<Token>,
    annotations: Vec<super::acsl::Comment>,
}

impl<'o> Pp<'o> {
    fn new(opts: &'o PpOptions, includes: bool, end: usize) -> Pp<'o> {
        let mut pp = Pp {
            opts,
            macros: HashMap::new(),
            diags: Vec::new(),
            uses: Vec::new(),
            headers: Vec::new(),
            end,
            includes,
            once: HashSet::new(),
            depth: 0,
            out: Vec::new(),
            annotations: Vec::new(),
        };
        for d in PREDEFINED
            .iter()
            .copied()
            .chain(opts.defines.iter().map(String::as_str))
        {
            pp.command_line_define(d);
        }
        for u in &opts.undefs {
            pp.macros.remove(u);
        }
        pp
    }

    /// `-D NAME` (as `NAME=1`) or `-D NAME=VALUE`.
    fn command_line_define(&mut self, d: &str) {
        let (name, value) = d.split_once('=').unwrap_or((d, "1"));
        let mut lx = Lexer::new(value, 0);
        let body = lx
            .line_tokens(0, value.len())
            .into_iter()
            .map(|t| {
                let spell = &value[t.span.range()];
                let space = t.span.lo > 0;
                PpTok::new(t, spell, space)
            })
            .collect();
        let m = Macro {
            params: None,
            variadic: false,
            body,
            defined: None,
        };
        self.macros.insert(name.trim().to_string(), Rc::new(m));
    }

    /// Reads one file's text (placed at `base`) to its end.
    fn run(&mut self, text: &str, base: usize, name: &str, dir: Option<PathBuf>) {
        let ctx = Ctx { text, base, name, dir };
        let mut lx = Lexer::new(text, base);
        let mut groups: Vec<Group> = Vec::new();
        let mut buf: Vec<PpTok> = Vec::new();
        loop {
            let skipping = groups.last().is_some_and(|g| !g.active);
            let item = lx.next_item(skipping);
            self.diags.append(&mut lx.diags);
            match item {
                Item::Tok(t) => {
                    let (lo, hi) = (t.span.lo as usize - base, t.span.hi as usize - base);
                    let space = t.line_start || (lo > 0 && text.as_bytes()[lo - 1].is_ascii_whitespace());
                    let spell = text.get(lo..hi).unwrap_or("");
                    buf.push(PpTok::new(t, spell, space));
                }
                Item::Directive(start, end) => {
                    self.flush(&mut buf, &ctx);
                    self.directive(&mut lx, start, end, &mut groups, &ctx);
                    self.diags.append(&mut lx.diags);
                }
                Item::Eof => break,
            }
        }
        self.flush(&mut buf, &ctx);
        for g in groups {
            self.diags.push(
                Diag::error(Class::Syntax, g.at, "unterminated conditional directive")
                    .with_label("this `#if` has no `#endif`"),
            );
        }
        if base == 0 {
            self.annotations = std::mem::take(&mut lx.annotations);
        }
    }

    /// Expands the text read since the last directive with the macros in
    /// force and appends it to the output.
    fn flush(&mut self, buf: &mut Vec<PpTok>, ctx: &Ctx) {
        if buf.is_empty() {
            return;
        }
        let line_of = |s: Span| line_in(ctx, s);
        let mut x = Expander {
            macros: &self.macros,
            diags: &mut self.diags,
            used: Vec::new(),
            line_of: &line_of,
            file_name: ctx.name,
        };
        let toks = x.expand(std::mem::take(buf));
        for (name, at, defined) in x.used {
            self.uses.push(MacroUse { name, at, defined });
        }
        self.out.extend(toks.into_iter().map(|t| t.tok));
    }

    fn finish(mut self, len: usize, diags: &mut Vec<Diag>) -> Lexed {
        self.out.push(Token {
            kind: TokKind::Eof,
            span: Span::new(len, len),
            line_start: true,
        });
        diags.append(&mut self.diags);
        // The object-like macros in force at the end, their bodies expanded
        // (later phases evaluate the constant ones).
        let mut macros = HashMap::new();
        let mut scratch = Vec::new();
        let no_line = |_: Span| 0;
        for (name, m) in &self.macros {
            if m.params.is_some() || m.defined.is_none() {
                continue;
            }
            let mut x = Expander {
                macros: &self.macros,
                diags: &mut scratch,
                used: Vec::new(),
                line_of: &no_line,
                file_name: "",
            };
            let mut start = PpTok::new(
                Token {
                    kind: TokKind::Ident(name.clone()),
                    span: m.defined.unwrap_or_default(),
                    line_start: false,
                },
                name,
                false,
            );
            start.hide = Rc::new(Vec::new());
            let body: Vec<Token> = x.expand(vec![start]).into_iter().map(|t| t.tok).collect();
            macros.insert(name.clone(), body);
        }
        Lexed {
            tokens: self.out,
            macros,
            uses: self.uses,
            annotations: self.annotations,
        }
    }
}

/// The 1-based line of a span in the file being read.
fn line_in(ctx: &Ctx, s: Span) -> u32 {
    let at = (s.lo as usize).saturating_sub(ctx.base).min(ctx.text.len());
    ctx.text[..at].matches('\n').count() as u32 + 1
}

#[cfg(test)]
mod tests;
