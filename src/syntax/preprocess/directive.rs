//! The directive lines: conditional groups, `#define`/`#undef`,
//! `#include`, and those read and set aside (`#pragma`, `#line`, line
//! markers of `.i` files).

use super::expand::{Expander, Macro, PpTok};
use super::{cond, headers, line_in, Ctx, Group, Pp};
use crate::diag::{Class, Diag};
use crate::syntax::lexer::{Lexer, TokKind, Token};
use crate::syntax::source::{next_base, Header, Span};
use std::path::PathBuf;
use std::rc::Rc;

/// `#include`s nested deeper than this are an error (gcc's limit is 200).
const MAX_DEPTH: usize = 200;

impl Pp<'_> {
    /// The directive from `start` (its `#`) to `end`, local offsets.
    pub(super) fn directive(&mut self, lx: &mut Lexer, start: usize, end: usize, groups: &mut Vec<Group>, ctx: &Ctx) {
        let end = lx.directive_end(start, end);
        lx.end_directive(end);
        let line = lx.slice_local(start, end);
        let body = line[1..].trim_start();
        let name: String = body
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        // Local offset of what follows the directive's name.
        let rest_at = start + (line.len() - body.len()) + name.len();
        let rest = &ctx.text[rest_at..end];
        let span = Span::new(ctx.base + start, ctx.base + end);
        let skipping = groups.last().is_some_and(|g| !g.active);
        match name.as_str() {
            "if" | "ifdef" | "ifndef" => {
                let active = !skipping && self.condition(&name, lx, rest_at, end, span, ctx);
                groups.push(Group {
                    active,
                    taken: active || skipping,
                    seen_else: false,
                    at: span,
                });
            }
            "elif" | "else" => {
                let Some(g) = groups.last() else {
                    return self.no_if(&name, span);
                };
                if g.seen_else {
                    self.diags.push(
                        Diag::error(Class::Syntax, span, format!("`#{name}` after `#else`"))
                            .with_label("this group already had its `#else`"),
                    );
                    return;
                }
                let taken = g.taken;
                let take = !taken && (name == "else" || self.condition("if", lx, rest_at, end, span, ctx));
                if let Some(g) = groups.last_mut() {
                    g.active = take;
                    g.taken |= take;
                    g.seen_else = name == "else";
                }
            }
            "endif" => {
                if groups.pop().is_none() {
                    self.no_if(&name, span);
                }
            }
            _ if skipping => {}
            "define" => self.define(lx, rest_at, end, span, ctx),
            "undef" => {
                if let Some(name) = lx.line_tokens(rest_at, end).first().and_then(Token::ident) {
                    self.macros.remove(name);
                }
            }
            "include" | "include_next" => self.include(rest, span, ctx),
            "pragma" => {
                if rest.split_whitespace().next() == Some("once") {
                    self.once.insert(ctx.name.to_string());
                }
            }
            "error" | "warning" => {
                let msg = format!("#{name} {}", rest.trim());
                let d = if name == "error" {
                    Diag::error(Class::Syntax, span, msg)
                } else {
                    Diag::warning(span, msg)
                };
                self.diags.push(d.with_label(format!("`#{name}` in the program")));
            }
            // Line markers of preprocessed `.i` files (`# 1 "file.c"`) and
            // `#line`: accepted; locations stay those of the file read.
            _ if name.starts_with(|c: char| c.is_ascii_digit()) || name == "line" => {}
            "ident" | "sccs" | "" => {}
            _ => self.diags.push(
                Diag::error(
                    Class::Syntax,
                    span,
                    format!("invalid preprocessing directive `#{name}`"),
                )
                .with_label("not a C directive"),
            ),
        }
    }

    fn no_if(&mut self, name: &str, span: Span) {
        self.diags.push(
            Diag::error(Class::Syntax, span, format!("`#{name}` without `#if`"))
                .with_label("no open `#if`, `#ifdef` or `#ifndef`"),
        );
    }

    /// Whether an `#if`/`#ifdef`/`#ifndef` condition holds.
    fn condition(&mut self, kind: &str, lx: &mut Lexer, from: usize, end: usize, span: Span, ctx: &Ctx) -> bool {
        let toks = lx.line_tokens(from, end);
        if kind != "if" {
            let Some(name) = toks.first().and_then(Token::ident) else {
                self.diags.push(
                    Diag::error(Class::Syntax, span, format!("`#{kind}` needs a macro name"))
                        .with_label("no name here"),
                );
                return false;
            };
            return self.macros.contains_key(name) == (kind == "ifdef");
        }
        // `defined NAME` and `defined(NAME)` first, then macros.
        let mut pre = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            if t.ident() == Some("defined") {
                let paren = toks.get(i + 1).is_some_and(|n| n.is_punct("("));
                let at = i + 1 + usize::from(paren);
                let name = toks.get(at).and_then(Token::ident);
                let closed = !paren || toks.get(at + 1).is_some_and(|n| n.is_punct(")"));
                match name {
                    Some(n) if closed => {
                        let value = i128::from(self.macros.contains_key(n));
                        let kind = TokKind::Int {
                            value,
                            ty: crate::syntax::ast::IntType::Int,
                        };
                        let tok = Token {
                            kind,
                            span: t.span,
                            line_start: false,
                        };
                        pre.push(PpTok::new(tok, if value == 1 { "1" } else { "0" }, true));
                        i = at + 1 + usize::from(paren);
                        continue;
                    }
                    _ => {
                        self.diags.push(
                            Diag::error(Class::Syntax, t.span, "`defined` needs a macro name")
                                .with_label("as in `defined(NAME)`"),
                        );
                        return false;
                    }
                }
            }
            let spell = &ctx.text[t.span.lo as usize - ctx.base..t.span.hi as usize - ctx.base];
            pre.push(PpTok::new(t.clone(), spell, true));
            i += 1;
        }
        let line_of = |s: Span| line_in(ctx, s);
        let mut x = Expander {
            macros: &self.macros,
            diags: &mut self.diags,
            used: Vec::new(),
            line_of: &line_of,
            file_name: ctx.name,
        };
        let toks: Vec<Token> = x.expand(pre).into_iter().map(|t| t.tok).collect();
        match cond::evaluate(&toks, span) {
            Ok(v) => v,
            Err((msg, at)) => {
                self.diags
                    .push(Diag::error(Class::Syntax, at, msg).with_label("in this condition"));
                false
            }
        }
    }

    /// `#define NAME body` or `#define NAME(params) body`.
    fn define(&mut self, lx: &mut Lexer, from: usize, end: usize, span: Span, ctx: &Ctx) {
        let toks = lx.line_tokens(from, end);
        let spelled = |t: &Token| {
            let (lo, hi) = (t.span.lo as usize - ctx.base, t.span.hi as usize - ctx.base);
            let space = lo > 0 && ctx.text.as_bytes()[lo - 1].is_ascii_whitespace();
            PpTok::new(t.clone(), &ctx.text[lo..hi], space)
        };
        let Some(name) = toks.first().and_then(Token::ident).map(str::to_string) else {
            let at = toks.first().map_or(span, |t| t.span);
            self.diags
                .push(Diag::error(Class::Syntax, at, "expected a macro name after `#define`").with_label("not a name"));
            return;
        };
        if name == "defined" {
            self.diags.push(
                Diag::error(Class::Syntax, toks[0].span, "`defined` cannot be a macro name")
                    .with_label("reserved for `#if`"),
            );
            return;
        }
        let mut params = None;
        let mut variadic = false;
        let mut body_from = 1;
        // A function-like macro has `(` right after its name, no space.
        if toks.len() > 1 && toks[1].is_punct("(") && toks[1].span.lo == toks[0].span.hi {
            let mut ps = Vec::new();
            let mut i = 2;
            loop {
                match toks.get(i) {
                    Some(t) if t.is_punct(")") && (ps.is_empty() || variadic) => break,
                    Some(t) if t.is_punct("...") => {
                        variadic = true;
                        ps.push("__VA_ARGS__".to_string());
                    }
                    Some(t) if t.ident().is_some() && !variadic => ps.push(t.ident().unwrap_or("").to_string()),
                    other => {
                        let at = other.map_or(span, |t| t.span);
                        self.diags.push(
                            Diag::error(Class::Syntax, at, format!("malformed parameter list of macro `{name}`"))
                                .with_label("expected a parameter name, `...` or `)`"),
                        );
                        return;
                    }
                }
                i += 1;
                match toks.get(i) {
                    Some(t) if t.is_punct(",") && !variadic => i += 1,
                    Some(t) if t.is_punct(")") => break,
                    other => {
                        let at = other.map_or(span, |t| t.span);
                        self.diags.push(
                            Diag::error(Class::Syntax, at, format!("malformed parameter list of macro `{name}`"))
                                .with_label("expected `,` or `)`"),
                        );
                        return;
                    }
                }
            }
            body_from = i + 1;
            params = Some(ps);
        }
        let body: Vec<PpTok> = toks[body_from.min(toks.len())..].iter().map(spelled).collect();
        if let Some(bad) = misplaced_operator(&body, params.as_deref()) {
            self.diags
                .push(Diag::error(Class::Syntax, bad.0, bad.1).with_label("in this `#define`"));
            return;
        }
        let text_end = toks.last().map_or(span.hi, |t| t.span.hi);
        let m = Macro {
            params,
            variadic,
            body,
            defined: Some(Span {
                lo: span.lo,
                hi: text_end,
            }),
        };
        self.macros.insert(name, Rc::new(m));
    }

    /// `#include "file"` or `#include <file>`.
    fn include(&mut self, rest: &str, span: Span, ctx: &Ctx) {
        if !self.includes {
            return;
        }
        let rest = rest.trim();
        let (quoted, target) = match (rest.chars().next(), rest.get(1..)) {
            (Some('"'), Some(r)) if r.contains('"') => (true, &r[..r.find('"').unwrap_or(0)]),
            (Some('<'), Some(r)) if r.contains('>') => (false, &r[..r.find('>').unwrap_or(0)]),
            _ => {
                self.diags.push(
                    Diag::error(Class::Syntax, span, "expected \"FILE\" or <FILE> after `#include`")
                        .with_label("not a header name"),
                );
                return;
            }
        };
        let dirs: Vec<PathBuf> = ctx
            .dir
            .iter()
            .filter(|_| quoted)
            .cloned()
            .chain(self.opts.include_dirs.iter().cloned())
            .collect();
        let Some(found) = headers::find(target, &dirs, self.opts.read) else {
            let shown = if quoted {
                format!("\"{target}\"")
            } else {
                format!("<{target}>")
            };
            self.diags.push(
                Diag::error(Class::Syntax, span, format!("cannot find the header {shown}"))
                    .with_label("not found")
                    .with_note(headers::not_found_note(quoted)),
            );
            return;
        };
        if self.once.contains(&found.name) {
            return;
        }
        if self.depth >= MAX_DEPTH {
            self.diags.push(
                Diag::error(Class::Syntax, span, "`#include` nested too deeply")
                    .with_label(format!("more than {MAX_DEPTH} files deep")),
            );
            return;
        }
        let base = match self
            .headers
            .iter()
            .find(|h| h.name == found.name && h.text == found.text)
        {
            Some(h) => h.base as usize,
            None => {
                let base = next_base(self.end) as usize;
                self.end = base + found.text.len();
                self.headers.push(Header {
                    name: found.name.clone(),
                    text: found.text.clone(),
                    base: base as u32,
                });
                base
            }
        };
        self.depth += 1;
        self.run(&found.text, base, &found.name, found.dir);
        self.depth -= 1;
    }
}

/// A `#` not before a parameter of a function-like macro, or a `##` at
/// either end of a body (C11 6.10.3.2-3): where and why.
fn misplaced_operator(body: &[PpTok], params: Option<&[String]>) -> Option<(Span, String)> {
    if let Some(t) = body
        .first()
        .filter(|t| t.tok.is_punct("##"))
        .or(body.last().filter(|t| t.tok.is_punct("##")))
    {
        return Some((t.tok.span, "`##` cannot be at either end of a macro's body".into()));
    }
    let params = params?;
    for (k, t) in body.iter().enumerate() {
        let next_param = body
            .get(k + 1)
            .and_then(|n| n.tok.ident())
            .is_some_and(|n| params.iter().any(|p| p == n));
        if t.tok.is_punct("#") && !next_param {
            return Some((t.tok.span, "`#` is not followed by a macro parameter".into()));
        }
    }
    None
}
