//! Object-like macros expanded where they are used: each use's tokens
//! take the use's span.

use super::{TokKind, Token};
use crate::diag::{Class, Diag};
use crate::syntax::source::Span;
use std::collections::HashMap;

/// Replaces each use of a macro by its tokens. The expanded tokens take the
/// span of the use, so messages and atom texts point at what the user wrote.
pub fn expand_macros(raw: Vec<Token>, macros: &HashMap<String, Vec<Token>>, diags: &mut Vec<Diag>) -> Vec<Token> {
    if macros.is_empty() {
        return raw;
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut names = Vec::new();
    for t in raw {
        expand_one(&t, t.span, macros, &mut Expansion::new(&mut names), &mut out, diags);
    }
    out
}

/// The macros being expanded (innermost last) and every one expanded.
pub(super) struct Expansion<'n> {
    active: Vec<String>,
    used: &'n mut Vec<String>,
}

impl<'n> Expansion<'n> {
    pub(super) fn new(used: &'n mut Vec<String>) -> Self {
        Expansion {
            active: Vec::new(),
            used,
        }
    }
}

pub(super) fn expand_one(
    t: &Token,
    use_span: Span,
    macros: &HashMap<String, Vec<Token>>,
    x: &mut Expansion,
    out: &mut Vec<Token>,
    diags: &mut Vec<Diag>,
) {
    if let TokKind::Ident(name) = &t.kind {
        if let Some(body) = macros.get(name) {
            if x.active.iter().any(|a| a == name) {
                // C does not re-expand a macro inside its own expansion.
                out.push(Token {
                    kind: t.kind.clone(),
                    span: use_span,
                    line_start: false,
                });
                return;
            }
            if x.active.len() > 64 {
                diags.push(Diag::error(Class::Syntax, use_span, "macro expansion is too deep"));
                return;
            }
            // Expansion is textual, as in C: `2*MINSEP` with `#define MINSEP
            // 300+350` means `2*300+350`.
            x.active.push(name.clone());
            x.used.push(name.clone());
            for b in body {
                expand_one(b, use_span, macros, x, out, diags);
            }
            x.active.pop();
            return;
        }
    }
    out.push(Token {
        kind: t.kind.clone(),
        span: use_span,
        line_start: false,
    });
}
