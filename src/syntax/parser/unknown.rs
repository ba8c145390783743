//! Declarations gcc rejects, said in C's words: a type name nothing
//! declares (`size_t` without `<stddef.h>`), two types in one declaration
//! (a `struct` definition without its `;`).

use super::Parser;
use crate::diag::{Class, Diag};
use crate::syntax::lexer::TokKind;

/// The standard header that declares a type name.
pub fn header_of(name: &str) -> Option<&'static str> {
    Some(match name {
        "size_t" | "ptrdiff_t" | "wchar_t" | "max_align_t" => "stddef.h",
        "bool" => "stdbool.h",
        "FILE" | "fpos_t" => "stdio.h",
        "div_t" | "ldiv_t" => "stdlib.h",
        "intptr_t" | "uintptr_t" | "intmax_t" | "uintmax_t" => "stdint.h",
        _ if is_exact_width(name) => "stdint.h",
        _ => return None,
    })
}

/// `int8_t` ... `uint64_t`, `int_least16_t`, `uint_fast32_t` and the like.
fn is_exact_width(name: &str) -> bool {
    let Some(rest) = name
        .strip_prefix('u')
        .or(Some(name))
        .and_then(|n| n.strip_prefix("int"))
    else {
        return false;
    };
    let rest = rest
        .strip_prefix("_least")
        .or_else(|| rest.strip_prefix("_fast"))
        .unwrap_or(rest);
    matches!(rest, "8_t" | "16_t" | "32_t" | "64_t")
}

impl Parser<'_> {
    /// Two names in a row where a statement or declaration starts: the
    /// first can only be meant as a type, and none of that name exists.
    pub(super) fn unknown_type_ahead(&self) -> bool {
        !self.starts_type()
            && self
                .tok()
                .ident()
                .is_some_and(|w| !super::is_reserved(w) && !w.starts_with("__"))
            && self
                .nth(1)
                .ident()
                .is_some_and(|w| !super::is_reserved(w) || w == "const")
    }

    /// `FILE *f;` or `T *p = ...` where a statement starts: as for gcc, a
    /// declaration of a pointer to an unknown type (as an expression it
    /// would be a product with no effect, or assign to one).
    pub(super) fn unknown_pointer_type_ahead(&self) -> bool {
        !self.starts_type()
            && self
                .tok()
                .ident()
                .is_some_and(|w| !super::is_reserved(w) && !w.starts_with("__"))
            && self.nth(1).is_punct("*")
            && self.nth(2).ident().is_some_and(|w| !super::is_reserved(w))
            && [";", "=", ",", "["].iter().any(|p| self.nth(3).is_punct(p))
    }

    /// The error for an unknown type name at the current token. The parser
    /// reads on as gcc does, the name taken as `int`, so the declaration
    /// (a function, a variable) still exists and its uses give no second,
    /// misleading error ("unknown function", "undeclared variable").
    pub(super) fn unknown_type(&mut self) {
        let t = self.tok().clone();
        let name = t.ident().unwrap_or("").to_string();
        let d = match header_of(&name) {
            Some(h) => Diag::error(Class::Syntax, t.span, format!("unknown type `{name}`: include <{h}>"))
                .with_label("not declared")
                .with_note(format!(
                    "`{name}` is declared in <{h}>: add `#include <{h}>` before its first use"
                )),
            None => Diag::error(Class::Syntax, t.span, format!("unknown type `{name}`"))
                .with_label("no type of this name is declared before here"),
        };
        self.diags.push(d);
        self.toks[self.pos].kind = TokKind::Ident("int".into());
    }

    /// A parameter that starts with a name no type has (`size_t n`,
    /// `FILE *f`): in a parameter list the first word can only be a type.
    pub(super) fn unknown_param_type(&self) -> bool {
        !self.starts_type()
            && self
                .tok()
                .ident()
                .is_some_and(|w| !super::is_reserved(w) && !w.starts_with("__"))
            && (self.nth(1).ident().is_some() || self.nth(1).is_punct("*"))
    }

    /// A type word after a `struct`, `union`, `enum` or typedef name.
    pub(super) fn second_type(&mut self, tag: bool, word: &str) {
        let t = self.tok().clone();
        let d = if tag {
            Diag::error(
                Class::Syntax,
                t.span,
                format!("expected `;`, a name or `(` before `{word}`"),
            )
            .with_label("a second type")
            .with_note("a `struct`, `union` or `enum` definition ends with `;`")
        } else {
            Diag::error(Class::Syntax, t.span, format!("two types in one declaration: `{word}`"))
                .with_label("a second type")
        };
        self.diags.push(d);
    }
}
