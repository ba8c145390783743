//! Macro expansion (C11 6.10.3): object-like and function-like macros,
//! `__VA_ARGS__`, `#` and `##`, rescanning with hide sets (a macro is not
//! expanded again inside its own expansion, Prosser's algorithm).
//!
//! Provenance: a token written in the program keeps its span; a token a
//! macro's body gives takes the span of the macro's use in the text (the
//! outermost one), so messages point at what the user wrote.

use super::super::lexer::{Lexer, TokKind, Token};
use crate::diag::{Class, Diag};
use crate::syntax::source::Span;
use std::collections::{HashMap, VecDeque};
use std::rc::Rc;

/// A `#define`d macro.
#[derive(Clone, Debug)]
pub struct Macro {
    /// `None` for an object-like macro.
    pub params: Option<Vec<String>>,
    /// The last parameter is `...` (`__VA_ARGS__`).
    pub variadic: bool,
    pub body: Vec<PpTok>,
    /// The `#define` line; `None` for predefined and `-D` macros.
    pub defined: Option<Span>,
}

/// A token during preprocessing: its spelling (for `#` and `##`) and the
/// macros it must not expand again.
#[derive(Clone, Debug)]
pub struct PpTok {
    pub tok: Token,
    pub spell: Rc<str>,
    pub hide: Rc<Vec<String>>,
    /// Whitespace before it (for `#`'s spelling).
    pub space: bool,
}

impl PpTok {
    pub fn new(tok: Token, spell: &str, space: bool) -> PpTok {
        PpTok {
            tok,
            spell: spell.into(),
            hide: Rc::new(Vec::new()),
            space,
        }
    }

    fn ident(&self) -> Option<&str> {
        self.tok.ident()
    }
}

/// The macros in force and what expanding records.
pub struct Expander<'d> {
    pub macros: &'d HashMap<String, Rc<Macro>>,
    pub diags: &'d mut Vec<Diag>,
    /// Every expansion: (name, use span, `#define` span).
    pub used: Vec<(String, Span, Span)>,
    /// `__LINE__` and `__FILE__` at a span.
    pub line_of: &'d dyn Fn(Span) -> u32,
    pub file_name: &'d str,
}

impl Expander<'_> {
    /// Expands a sequence fully (its rest rescanned with each expansion).
    pub fn expand(&mut self, input: Vec<PpTok>) -> Vec<PpTok> {
        let mut input: VecDeque<PpTok> = input.into();
        let mut out = Vec::with_capacity(input.len());
        let mut depth = 0usize;
        while let Some(t) = input.pop_front() {
            let Some(name) = t.ident() else {
                out.push(t);
                continue;
            };
            if let Some(b) = self.builtin(&t, name) {
                out.push(b);
                continue;
            }
            let Some(m) = self.macros.get(name).cloned() else {
                out.push(t);
                continue;
            };
            if t.hide.iter().any(|h| h == name) {
                out.push(t);
                continue;
            }
            depth += 1;
            if depth > 100_000 {
                self.diags
                    .push(Diag::error(Class::Syntax, t.tok.span, "macro expansion does not end").with_label("here"));
                return out;
            }
            let name = name.to_string();
            let body = if m.params.is_none() {
                let mut hs = (*t.hide).clone();
                hs.push(name.clone());
                self.subst(&m, &[], Rc::new(hs), t.tok.span)
            } else {
                if !input.front().is_some_and(|n| n.tok.is_punct("(")) {
                    // A function-like macro's name without `(` is a name.
                    out.push(t);
                    continue;
                }
                let Some((args, rparen)) = self.arguments(&mut input, &t, &name) else {
                    out.push(t);
                    continue;
                };
                let Some(args) = self.check_arity(&m, args, &name, t.tok.span) else {
                    continue;
                };
                let mut hs: Vec<String> = t.hide.iter().filter(|h| rparen.hide.contains(h)).cloned().collect();
                hs.push(name.clone());
                let at = if rparen.tok.span.lo >= t.tok.span.lo {
                    t.tok.span.to(rparen.tok.span)
                } else {
                    t.tok.span
                };
                self.subst(&m, &args, Rc::new(hs), at)
            };
            if let Some(d) = m.defined {
                self.used.push((name, t.tok.span, d));
            }
            let line_start = t.tok.line_start;
            for (k, b) in body.into_iter().enumerate().rev() {
                let mut b = b;
                if k == 0 {
                    b.tok.line_start = line_start;
                    b.space = t.space;
                }
                input.push_front(b);
            }
        }
        out
    }

    /// `__LINE__` and `__FILE__`.
    fn builtin(&mut self, t: &PpTok, name: &str) -> Option<PpTok> {
        let kind = match name {
            "__LINE__" => TokKind::Int {
                value: (self.line_of)(t.tok.span) as i128,
                ty: crate::syntax::ast::IntType::Int,
            },
            "__FILE__" => TokKind::Str(self.file_name.as_bytes().to_vec()),
            _ => return None,
        };
        let spell = match &kind {
            TokKind::Int { value, .. } => value.to_string(),
            _ => quote(self.file_name),
        };
        let mut b = t.clone();
        b.tok.kind = kind;
        b.spell = spell.into();
        Some(b)
    }

    /// The arguments of a use of a function-like macro, from its `(` (the
    /// front of `input`) to its `)`, which is returned too.
    fn arguments(&mut self, input: &mut VecDeque<PpTok>, t: &PpTok, name: &str) -> Option<(Vec<Vec<PpTok>>, PpTok)> {
        let mut taken = Vec::new();
        let mut args = vec![Vec::new()];
        let mut level = 0usize;
        let lparen = input.pop_front()?;
        taken.push(lparen);
        loop {
            let Some(a) = input.pop_front() else {
                self.diags.push(
                    Diag::error(
                        Class::Syntax,
                        t.tok.span,
                        format!("unterminated argument list invoking macro `{name}`"),
                    )
                    .with_label("no closing `)`"),
                );
                for x in taken.into_iter().rev() {
                    input.push_front(x);
                }
                return None;
            };
            if a.tok.is_punct(")") && level == 0 {
                return Some((args, a));
            }
            if a.tok.is_punct("(") {
                level += 1;
            } else if a.tok.is_punct(")") {
                level -= 1;
            }
            taken.push(a.clone());
            if a.tok.is_punct(",") && level == 0 {
                args.push(Vec::new());
            } else if let Some(last) = args.last_mut() {
                last.push(a);
            }
        }
    }

    /// The arguments matched to the parameters (the variadic ones joined
    /// with their commas), or an error.
    fn check_arity(&mut self, m: &Macro, mut args: Vec<Vec<PpTok>>, name: &str, at: Span) -> Option<Vec<Vec<PpTok>>> {
        let params = m.params.as_deref().unwrap_or(&[]);
        let fixed = params.len() - usize::from(m.variadic);
        // `f()` is one empty argument: no argument for `f(void)`-like macros.
        if params.is_empty() && args.len() == 1 && args[0].is_empty() {
            return Some(Vec::new());
        }
        if m.variadic && args.len() > fixed {
            let mut rest = Vec::new();
            for (k, a) in args.drain(fixed..).enumerate() {
                if k > 0 {
                    let comma = Token {
                        kind: TokKind::Punct(","),
                        span: at,
                        line_start: false,
                    };
                    rest.push(PpTok::new(comma, ",", false));
                }
                rest.extend(a);
            }
            args.push(rest);
        } else if m.variadic && args.len() == fixed {
            args.push(Vec::new());
        }
        if args.len() != params.len() {
            self.diags.push(
                Diag::error(
                    Class::Syntax,
                    at,
                    format!(
                        "macro `{name}` takes {} argument{}, {} given",
                        fixed,
                        if fixed == 1 { "" } else { "s" },
                        args.len()
                    ),
                )
                .with_label("in this use"),
            );
            return None;
        }
        Some(args)
    }

    /// A macro's body with its parameters replaced (C11 6.10.3.1-3), every
    /// token hidden from `hs` and placed at the use `at`.
    fn subst(&mut self, m: &Macro, args: &[Vec<PpTok>], hs: Rc<Vec<String>>, at: Span) -> Vec<PpTok> {
        let params = m.params.as_deref().unwrap_or(&[]);
        let param = |t: &PpTok| t.ident().and_then(|n| params.iter().position(|p| p == n));
        let body = &m.body;
        let mut out: Vec<PpTok> = Vec::new();
        // The left side of a `##` gave no token (an empty argument).
        let mut lhs_empty = false;
        let mut i = 0;
        while i < body.len() {
            let b = &body[i];
            let next_is_paste = body.get(i + 1).is_some_and(|n| n.tok.is_punct("##"));
            if b.tok.is_punct("#") && m.params.is_some() {
                if let Some(k) = body.get(i + 1).and_then(param) {
                    let text = stringize(&args[k]);
                    let spell = quote(&text);
                    let tok = Token {
                        kind: TokKind::Str(text.into_bytes()),
                        span: at,
                        line_start: false,
                    };
                    out.push(PpTok::new(tok, &spell, b.space));
                    lhs_empty = false;
                    i += 2;
                    continue;
                }
            }
            if b.tok.is_punct("##") && i > 0 && i + 1 < body.len() {
                let rhs_tok = &body[i + 1];
                let rhs: Vec<PpTok> = match param(rhs_tok) {
                    Some(k) => args[k].clone(),
                    None => vec![placed(rhs_tok, at)],
                };
                // GNU: `, ## __VA_ARGS__` drops the comma when there are no
                // variable arguments, and pastes nothing when there are.
                let gnu_comma = m.variadic
                    && param(rhs_tok) == Some(params.len() - 1)
                    && !lhs_empty
                    && out.last().is_some_and(|l| l.tok.is_punct(","));
                if gnu_comma && rhs.is_empty() {
                    out.pop();
                } else if gnu_comma {
                    out.extend(rhs);
                } else if lhs_empty || out.is_empty() {
                    out.extend(rhs.into_iter().map(|r| placed(&r, at)));
                } else if let Some(first) = rhs.first() {
                    let left = out.pop().expect("a left side");
                    out.push(self.paste(&left, first, at));
                    out.extend(rhs[1..].iter().map(|r| placed(r, at)));
                }
                lhs_empty = false;
                i += 2;
                continue;
            }
            match param(b) {
                Some(k) if next_is_paste => {
                    lhs_empty = args[k].is_empty();
                    out.extend(args[k].iter().map(|r| placed(r, at)));
                }
                Some(k) => {
                    // An argument is expanded on its own first; its tokens
                    // keep the spans where they are written.
                    let mut e = self.expand(args[k].clone());
                    if let Some(f) = e.first_mut() {
                        f.space = b.space;
                    }
                    out.extend(e);
                }
                None => out.push(placed(b, at)),
            }
            i += 1;
        }
        for t in &mut out {
            if !hs.is_empty() {
                let mut h = (*t.hide).clone();
                for n in hs.iter() {
                    if !h.contains(n) {
                        h.push(n.clone());
                    }
                }
                t.hide = Rc::new(h);
            }
            t.tok.line_start = false;
        }
        out
    }

    /// `a ## b`: the token their spellings make together.
    fn paste(&mut self, a: &PpTok, b: &PpTok, at: Span) -> PpTok {
        let spell = format!("{}{}", a.spell, b.spell);
        let mut lx = Lexer::new(&spell, 0);
        let toks = lx.line_tokens(0, spell.len());
        match toks.as_slice() {
            [t] if lx.diags.is_empty() && t.span.hi as usize == spell.len() => {
                let tok = Token {
                    kind: t.kind.clone(),
                    span: at,
                    line_start: false,
                };
                let mut p = PpTok::new(tok, &spell, a.space);
                p.hide = a.hide.clone();
                p
            }
            _ => {
                self.diags.push(
                    Diag::error(
                        Class::Syntax,
                        at,
                        format!("pasting `{}` and `{}` does not give a valid token", a.spell, b.spell),
                    )
                    .with_label("in this macro use"),
                );
                a.clone()
            }
        }
    }
}

/// A body token placed at the use of its macro.
fn placed(t: &PpTok, at: Span) -> PpTok {
    let mut t = t.clone();
    t.tok.span = at;
    t
}

/// `#x`: the characters of `#arg` (unquoted: the literal's value).
fn stringize(arg: &[PpTok]) -> String {
    let mut s = String::new();
    for (k, t) in arg.iter().enumerate() {
        if k > 0 && t.space {
            s.push(' ');
        }
        s.push_str(&t.spell);
    }
    s
}

/// A string literal spelling `s`.
fn quote(s: &str) -> String {
    let mut q = String::from("\"");
    for c in s.chars() {
        if c == '"' || c == '\\' {
            q.push('\\');
        }
        q.push(c);
    }
    q.push('"');
    q
}
