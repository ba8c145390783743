//! Recursive-descent parser for Cimple. It never fails: it returns a tree and
//! a list of diagnostics, recovering at `;` and `}` so that several errors in
//! one file are all reported.

use super::ast::*;
use super::lexer::{TokKind, Token};
use super::source::Span;
use crate::diag::{Class, Diag};
use std::collections::HashMap;

type PResult<T> = Result<T, ()>;

/// Brackets (`(`, `{`, `[`) nested deeper than this are an error: parsing
/// and the analyses recurse once per level (README, "Limits").
pub const MAX_NESTING: usize = 10_000;

pub fn parse(tokens: Vec<Token>, diags: &mut Vec<Diag>) -> Program {
    let mut depth = 0usize;
    for t in &tokens {
        match t.kind {
            TokKind::Punct("(" | "{" | "[") => depth += 1,
            TokKind::Punct(")" | "}" | "]") => depth = depth.saturating_sub(1),
            _ => continue,
        }
        if depth > MAX_NESTING {
            let msg = format!("brackets are nested more than {MAX_NESTING} deep");
            diags.push(Diag::error(Class::Unsupported, t.span, msg).with_label("too deep"));
            return Program { items: Vec::new() };
        }
    }
    let mut p = Parser {
        toks: tokens,
        pos: 0,
        diags,
        typedefs: HashMap::new(),
        in_function: None,
    };
    p.typedefs.insert("bool".into(), IntType::Bool);
    let mut items = Vec::new();
    while !p.at_eof() {
        let before = p.pos;
        if p.top_level(&mut items).is_err() {
            p.synchronize_top();
        }
        if p.pos == before {
            p.pos += 1;
        }
    }
    Program { items }
}

struct Parser<'a> {
    toks: Vec<Token>,
    pos: usize,
    diags: &'a mut Vec<Diag>,
    /// `typedef` names and the integer type each stands for.
    typedefs: HashMap<String, IntType>,
    /// While parsing a function body: the unsupported constructs found.
    in_function: Option<Vec<(Span, String)>>,
}

/// Declaration specifiers: the type and storage words before a declarator.
struct Specs {
    ty: Option<IntType>,
    is_static: bool,
    void: bool,
    typedef: bool,
    span: Span,
    /// A type outside the subset (`struct`, `float`, ...), already reported.
    unsupported: bool,
}

const QUALIFIERS: &[&str] = &[
    "extern",
    "static",
    "const",
    "volatile",
    "register",
    "auto",
    "inline",
    "__inline",
    "__inline__",
    "__extension__",
    "__const",
    "__restrict",
    "restrict",
    "__volatile__",
];

const TYPE_WORDS: &[&str] = &[
    "void",
    "int",
    "char",
    "short",
    "long",
    "signed",
    "unsigned",
    "_Bool",
    "__signed__",
];

impl Parser<'_> {
    // ---- token helpers ----

    fn tok(&self) -> &Token {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    fn nth(&self, k: usize) -> &Token {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)]
    }

    fn at_eof(&self) -> bool {
        self.tok().kind == TokKind::Eof
    }

    fn bump(&mut self) -> Token {
        let t = self.tok().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn is(&self, p: &str) -> bool {
        self.tok().is_punct(p)
    }

    fn is_word(&self, w: &str) -> bool {
        self.tok().ident() == Some(w)
    }

    fn eat(&mut self, p: &str) -> bool {
        if self.is(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1)].span
    }

    fn expect(&mut self, p: &str, what: &str) -> PResult<Span> {
        if self.is(p) {
            return Ok(self.bump().span);
        }
        let t = self.tok().clone();
        // A `;` missing at the end of a line: report it and carry on as if it
        // were there, so the next line is parsed normally.
        let at_line_end = p == ";" && self.pos > 0 && t.line_start;
        // A missing `;` is best shown right after the previous token.
        let (span, label) = if p == ";" && self.pos > 0 {
            let prev = self.prev_span();
            (
                Span::new(prev.hi as usize, prev.hi as usize),
                "expected `;` here".to_string(),
            )
        } else {
            (t.span, format!("expected `{p}`"))
        };
        self.diags.push(
            Diag::error(
                Class::Syntax,
                span,
                format!("expected `{p}` {what}, found {}", t.describe()),
            )
            .with_label(label),
        );
        if at_line_end {
            return Ok(span);
        }
        Err(())
    }

    fn error(&mut self, span: Span, msg: impl Into<String>, label: impl Into<String>) {
        self.diags.push(Diag::error(Class::Syntax, span, msg).with_label(label));
    }

    /// A construct that is valid C but outside Cimple. Inside a function it
    /// marks the function as left out; elsewhere it is an error.
    fn unsupported(&mut self, span: Span, msg: impl Into<String>) {
        let msg = msg.into();
        match &mut self.in_function {
            Some(list) => list.push((span, msg)),
            None => self
                .diags
                .push(Diag::error(Class::Unsupported, span, msg.clone()).with_label("outside the Cimple subset")),
        }
    }

    fn expect_ident(&mut self, what: &str) -> PResult<Ident> {
        let t = self.tok().clone();
        match &t.kind {
            TokKind::Ident(name) if !is_reserved(name) => {
                self.bump();
                Ok(Ident {
                    name: name.clone(),
                    span: t.span,
                })
            }
            _ => {
                self.diags.push(
                    Diag::error(
                        Class::Syntax,
                        t.span,
                        format!("expected {what}, found {}", t.describe()),
                    )
                    .with_label(format!("expected {what}")),
                );
                Err(())
            }
        }
    }

    /// Skips to just after the next `;` or before the `}` that closes the
    /// current block; an `else` right after the skipped part belongs to the
    /// broken statement and is skipped too.
    fn synchronize(&mut self) {
        let mut depth = 0i32;
        while !self.at_eof() {
            if self.is("{") || self.is("(") || self.is("[") {
                depth += 1;
            } else if self.is(")") || self.is("]") {
                // A `)` of an enclosing construct (`for (...)`, `if (...)`)
                // must not make the `{ }` after it close the current block.
                depth = (depth - 1).max(0);
            } else if self.is("}") {
                if depth <= 0 {
                    return;
                }
                depth -= 1;
                if depth == 0 {
                    self.bump();
                    // The `else` of an `if` with a broken condition is
                    // skipped with it.
                    if !self.is_word("else") {
                        return;
                    }
                    continue;
                }
            } else if self.is(";") && depth <= 0 {
                self.bump();
                if !self.is_word("else") {
                    return;
                }
                continue;
            }
            self.bump();
        }
    }

    /// Skips to the `,`, `;` or `}` that ends a broken initialiser, without
    /// consuming it.
    fn skip_initialiser(&mut self) {
        let mut depth = 0i32;
        while !self.at_eof() {
            if depth <= 0 && (self.is(",") || self.is(";") || self.is("}")) {
                return;
            }
            if self.is("(") || self.is("[") || self.is("{") {
                depth += 1;
            } else if self.is(")") || self.is("]") || self.is("}") {
                depth -= 1;
            }
            self.bump();
        }
    }

    fn synchronize_top(&mut self) {
        let mut depth = 0i32;
        while !self.at_eof() {
            if self.is("{") {
                depth += 1;
            } else if self.is("}") {
                depth -= 1;
                if depth <= 0 {
                    self.bump();
                    return;
                }
            } else if self.is(";") && depth == 0 {
                self.bump();
                return;
            }
            self.bump();
        }
    }

    /// Skips `__attribute__((...))` and `__asm__(...)` annotations.
    fn skip_attributes(&mut self) {
        while self.is_word("__attribute__") || self.is_word("__asm__") || self.is_word("__asm") {
            self.bump();
            if self.is("(") {
                self.skip_balanced("(", ")");
            }
        }
    }

    fn skip_balanced(&mut self, open: &str, close: &str) {
        let mut depth = 0;
        while !self.at_eof() {
            if self.is(open) {
                depth += 1;
            } else if self.is(close) {
                depth -= 1;
                if depth == 0 {
                    self.bump();
                    return;
                }
            }
            self.bump();
        }
    }

    // ---- declarations ----

    fn starts_type(&self) -> bool {
        match self.tok().ident() {
            Some(w) => {
                TYPE_WORDS.contains(&w)
                    || QUALIFIERS.contains(&w)
                    || self.typedefs.contains_key(w)
                    || matches!(
                        w,
                        "typedef" | "struct" | "union" | "enum" | "float" | "double" | "__attribute__"
                    )
            }
            None => false,
        }
    }

    fn specs(&mut self) -> PResult<Specs> {
        let start = self.tok().span;
        let mut words: Vec<String> = Vec::new();
        let mut typedef = false;
        let mut unsupported = false;
        let mut named: Option<IntType> = None;
        let mut is_static = false;
        loop {
            self.skip_attributes();
            let Some(w) = self.tok().ident().map(str::to_string) else {
                break;
            };
            if QUALIFIERS.contains(&w.as_str()) {
                is_static |= w == "static";
                self.bump();
            } else if w == "typedef" {
                typedef = true;
                self.bump();
            } else if TYPE_WORDS.contains(&w.as_str()) {
                words.push(w);
                self.bump();
            } else if matches!(w.as_str(), "struct" | "union" | "enum") {
                let t = self.bump();
                self.unsupported(t.span, format!("`{w}` types are not part of Cimple"));
                unsupported = true;
                if self.tok().ident().is_some() {
                    self.bump();
                }
                if self.is("{") {
                    self.skip_balanced("{", "}");
                }
            } else if matches!(w.as_str(), "float" | "double") {
                let t = self.bump();
                self.unsupported(t.span, format!("`{w}`: floating-point types are not part of Cimple"));
                unsupported = true;
            } else if words.is_empty() && named.is_none() && self.typedefs.contains_key(&w) {
                named = Some(self.typedefs[&w]);
                self.bump();
            } else {
                break;
            }
        }
        let span = start.to(self.prev_span());
        if unsupported {
            return Ok(Specs {
                is_static,
                ty: Some(IntType::Int),
                void: false,
                typedef,
                span,
                unsupported,
            });
        }
        if let Some(t) = named {
            return Ok(Specs {
                is_static,
                ty: Some(t),
                void: false,
                typedef,
                span,
                unsupported,
            });
        }
        if words.iter().any(|w| w == "void") {
            if words.len() > 1 {
                self.error(span, "`void` combined with other type words", "invalid type");
                return Err(());
            }
            return Ok(Specs {
                is_static,
                ty: None,
                void: true,
                typedef,
                span,
                unsupported,
            });
        }
        if words.is_empty() {
            return Ok(Specs {
                is_static,
                ty: None,
                void: false,
                typedef,
                span,
                unsupported,
            });
        }
        let count = |w: &str| words.iter().filter(|x| x.as_str() == w).count();
        let unsigned = count("unsigned") > 0;
        let ty = if count("_Bool") > 0 {
            IntType::Bool
        } else if count("char") > 0 {
            if unsigned {
                IntType::UChar
            } else if count("signed") > 0 {
                IntType::SChar
            } else {
                IntType::Char
            }
        } else if count("short") > 0 {
            if unsigned {
                IntType::UShort
            } else {
                IntType::Short
            }
        } else if count("long") >= 2 {
            if unsigned {
                IntType::ULongLong
            } else {
                IntType::LongLong
            }
        } else if count("long") == 1 {
            if unsigned {
                IntType::ULong
            } else {
                IntType::Long
            }
        } else if unsigned {
            IntType::UInt
        } else {
            IntType::Int
        };
        Ok(Specs {
            is_static,
            ty: Some(ty),
            void: false,
            typedef,
            span,
            unsupported,
        })
    }

    fn top_level(&mut self, items: &mut Vec<Item>) -> PResult<()> {
        if self.eat(";") {
            return Ok(());
        }
        // `name(...)` with no type in front: an implicit-int (K&R) definition.
        if self
            .tok()
            .ident()
            .is_some_and(|w| !self.typedefs.contains_key(w) && !is_reserved(w))
            && self.nth(1).is_punct("(")
            && !self.starts_type()
        {
            return self.skip_knr_function(items);
        }
        if !self.starts_type() {
            let t = self.tok().clone();
            self.diags.push(
                Diag::error(
                    Class::Syntax,
                    t.span,
                    format!(
                        "expected a declaration or a function definition, found {}",
                        t.describe()
                    ),
                )
                .with_label("expected a type such as `int`"),
            );
            return Err(());
        }
        let specs = self.specs()?;
        if specs.typedef {
            return self.typedef(specs);
        }
        // `struct s { ... };` declares only a type, already reported.
        if specs.unsupported && self.eat(";") {
            return Ok(());
        }
        let ret_ty = specs.ty;
        if !specs.void && ret_ty.is_none() {
            let t = self.tok().clone();
            self.error(
                t.span,
                format!("expected a type, found {}", t.describe()),
                "expected a type",
            );
            return Err(());
        }
        let mut decls = Vec::new();
        loop {
            let pointer_span = self.pointer_stars();
            let name = self.expect_ident("a name")?;
            self.skip_attributes();
            if self.is("(") {
                // A function declarator.
                let params = self.param_list()?;
                self.skip_attributes();
                let ret = match (specs.void, ret_ty) {
                    (true, _) => RetType::Void,
                    (false, Some(t)) => RetType::Int(t),
                    _ => RetType::Int(IntType::Int),
                };
                let pointer_ret = pointer_span.is_some();
                if self.is("{") {
                    if !decls.is_empty() {
                        self.error(
                            name.span,
                            "a function definition cannot follow variable declarations in one declaration",
                            "unexpected function body",
                        );
                    }
                    return self.function_body(ret, name, params, specs.span, pointer_ret, specs.unsupported, items);
                }
                // A prototype.
                let (params, _) = params;
                items.push(Item::Prototype(Prototype {
                    ret,
                    name: name.clone(),
                    params,
                    span: specs.span.to(self.prev_span()),
                }));
                if self.eat(",") {
                    continue;
                }
                self.expect(";", "after a function declaration")?;
                return Ok(());
            }
            if specs.void {
                self.error(
                    name.span,
                    format!("variable `{}` declared `void`", name.name),
                    "a variable needs an integer type",
                );
                return Err(());
            }
            if let Some(s) = pointer_span {
                self.unsupported(s, "pointers are not part of Cimple");
            }
            let d = self.var_declarator(ret_ty.unwrap_or(IntType::Int), name, &specs)?;
            if pointer_span.is_none() && !specs.unsupported {
                decls.push(d);
            }
            if self.eat(",") {
                continue;
            }
            self.expect(";", "after a declaration")?;
            break;
        }
        if !decls.is_empty() {
            items.push(Item::Globals(decls));
        }
        Ok(())
    }

    /// `*`s in front of a declarator name; the span of the first if any.
    fn pointer_stars(&mut self) -> Option<Span> {
        let mut first = None;
        while self.is("*") {
            let t = self.bump();
            first.get_or_insert(t.span);
            while self.tok().ident().is_some_and(|w| QUALIFIERS.contains(&w)) {
                self.bump();
            }
        }
        first
    }

    fn typedef(&mut self, specs: Specs) -> PResult<()> {
        let star = self.pointer_stars();
        let name = self.expect_ident("a type name")?;
        if self.is("[") || self.is("(") {
            self.unsupported(name.span, "array and function typedefs are not part of Cimple");
            self.synchronize_top();
            return Ok(());
        }
        self.expect(";", "after a typedef")?;
        if let Some(s) = star {
            self.unsupported(s, "pointer typedefs are not part of Cimple");
            return Ok(());
        }
        if specs.unsupported {
            return Ok(());
        }
        match specs.ty {
            Some(t) => {
                self.typedefs.insert(name.name, t);
            }
            None => self.unsupported(name.span, "`typedef void` is not part of Cimple"),
        }
        Ok(())
    }

    fn var_declarator(&mut self, ty: IntType, name: Ident, specs: &Specs) -> PResult<VarDecl> {
        let specs_span = specs.span;
        let mut array = None;
        if self.eat("[") {
            if self.is("]") {
                let t = self.tok().span;
                self.error(t, "an array needs a constant size", "size missing");
                return Err(());
            }
            array = Some(self.assign_expr()?);
            self.expect("]", "after the array size")?;
            if self.is("[") {
                let t = self.tok().span;
                self.unsupported(t, "multi-dimensional arrays are not part of Cimple");
                self.skip_balanced("[", "]");
            }
        }
        self.skip_attributes();
        let mut init = None;
        if self.eat("=") {
            if self.is("{") {
                let open = self.bump().span;
                let mut elems = Vec::new();
                while !self.is("}") && !self.at_eof() {
                    elems.push(self.assign_expr()?);
                    if !self.eat(",") {
                        break;
                    }
                }
                let close = self.expect("}", "to close the initialiser list")?;
                init = Some(Init::List(elems, open.to(close)));
            } else {
                match self.assign_expr() {
                    Ok(e) => init = Some(Init::Expr(e)),
                    // Already reported: skip the rest of the initialiser but
                    // keep the variable, so its uses are not reported as
                    // undeclared.
                    Err(()) => self.skip_initialiser(),
                }
            }
        }
        let span = specs_span.to(self.prev_span());
        Ok(VarDecl {
            ty,
            name,
            array,
            init,
            span,
            is_static: specs.is_static,
        })
    }

    /// A parameter list; returns `None` for parameters when the list is
    /// empty-and-unspecified (`f()` in a prototype) or uses types outside
    /// Cimple. The flag says whether any parameter was outside Cimple.
    #[allow(clippy::type_complexity)]
    fn param_list(&mut self) -> PResult<(Option<Vec<Param>>, Vec<(Span, String)>)> {
        self.expect("(", "to start the parameter list")?;
        let mut params = Vec::new();
        let mut issues = Vec::new();
        if self.eat(")") {
            return Ok((Some(params), issues));
        }
        if self.is_word("void") && self.nth(1).is_punct(")") {
            self.bump();
            self.bump();
            return Ok((Some(params), issues));
        }
        loop {
            if self.is("...") {
                let t = self.bump();
                issues.push((t.span, "variadic functions are not part of Cimple".to_string()));
            } else {
                let start = self.tok().span;
                // Parameter types are parsed outside any function body, so
                // unsupported types are collected here, not reported.
                let saved = self.in_function.replace(Vec::new());
                let specs = self.specs();
                let mut inner = std::mem::replace(&mut self.in_function, saved).unwrap_or_default();
                let specs = specs?;
                issues.append(&mut inner);
                let star = self.pointer_stars();
                let name = if self.tok().ident().is_some_and(|w| !is_reserved(w)) {
                    Some(self.expect_ident("a parameter name")?)
                } else {
                    None
                };
                let mut pointer = star.is_some();
                while self.is("[") {
                    self.skip_balanced("[", "]");
                    pointer = true;
                }
                self.skip_attributes();
                let span = start.to(self.prev_span());
                if specs.void && !pointer {
                    self.error(span, "a parameter cannot have type `void`", "invalid parameter");
                    return Err(());
                }
                if specs.ty.is_none() && !specs.void {
                    self.error(span, "expected a parameter type", "type missing");
                    return Err(());
                }
                if pointer {
                    issues.push((span, "pointer parameters are not part of Cimple".to_string()));
                }
                params.push(Param {
                    ty: specs.ty.unwrap_or(IntType::Int),
                    name,
                    span,
                    pointer: pointer || specs.unsupported,
                });
            }
            if !self.eat(",") {
                break;
            }
        }
        self.expect(")", "to close the parameter list")?;
        let ok = issues.is_empty();
        Ok((
            if ok || params.iter().all(|p| p.name.is_some()) {
                Some(params)
            } else {
                None
            },
            issues,
        ))
    }

    #[allow(clippy::too_many_arguments)]
    fn function_body(
        &mut self,
        ret: RetType,
        name: Ident,
        params: (Option<Vec<Param>>, Vec<(Span, String)>),
        start: Span,
        pointer_ret: bool,
        unsupported_ret: bool,
        items: &mut Vec<Item>,
    ) -> PResult<()> {
        let (params, param_issues) = params;
        let params = params.unwrap_or_default();
        for p in &params {
            if p.name.is_none() {
                self.error(
                    p.span,
                    "a parameter of a function definition needs a name",
                    "name missing",
                );
            }
        }
        let saved = self.in_function.replace(Vec::new());
        let body = self.block();
        let mut unsupported = std::mem::replace(&mut self.in_function, saved).unwrap_or_default();
        let body = body?;
        // Pointer parameters are only a problem if the body uses them; the
        // name checks decide that (see `sema`), so they are kept apart here.
        for (span, msg) in param_issues {
            if !msg.starts_with("pointer parameters") {
                unsupported.push((span, msg));
            }
        }
        if pointer_ret {
            unsupported.push((name.span, "functions returning pointers are not part of Cimple".into()));
        }
        if unsupported_ret {
            unsupported.push((start, "the return type is not part of Cimple".into()));
        }
        items.push(Item::Function(Function {
            ret,
            name,
            params,
            span: start.to(body.span),
            body,
            unsupported,
        }));
        Ok(())
    }

    /// `name(a, b) int a; char *b[]; { ... }` -- reported and skipped.
    fn skip_knr_function(&mut self, items: &mut Vec<Item>) -> PResult<()> {
        let name = self.expect_ident("a function name")?;
        let start = name.span;
        self.skip_balanced("(", ")");
        if self.is(";") {
            // An implicit-int prototype: accept it like any prototype.
            self.bump();
            items.push(Item::Prototype(Prototype {
                ret: RetType::Int(IntType::Int),
                name,
                params: None,
                span: start.to(self.prev_span()),
            }));
            return Ok(());
        }
        let mut reasons = vec![(
            start,
            "a definition without a return type (implicit `int`, K&R style) is not part of Cimple".to_string(),
        )];
        while !self.is("{") && !self.at_eof() {
            if self.is("*") && reasons.len() < 2 {
                reasons.push((self.tok().span, "pointers are not part of Cimple".into()));
            }
            self.bump();
        }
        if self.at_eof() {
            self.error(start, format!("function `{}` has no body", name.name), "expected `{`");
            return Err(());
        }
        let body_start = self.tok().span;
        self.skip_balanced("{", "}");
        items.push(Item::Skipped(SkippedFunction {
            name,
            span: start.to(body_start),
            reasons,
        }));
        Ok(())
    }

    // ---- statements ----

    fn block(&mut self) -> PResult<Block> {
        let open = self.expect("{", "to start a block")?;
        let mut stmts = Vec::new();
        while !self.is("}") && !self.at_eof() {
            let before = self.pos;
            match self.stmt() {
                Ok(s) => stmts.push(s),
                Err(()) => self.synchronize(),
            }
            if self.pos == before {
                self.bump();
            }
        }
        let close = self.expect("}", "to close the block")?;
        Ok(Block {
            stmts,
            span: open.to(close),
        })
    }

    fn stmt(&mut self) -> PResult<Stmt> {
        let start = self.tok().span;
        let word = self.tok().ident().map(str::to_string);
        let kind = match word.as_deref() {
            Some("if") => {
                self.bump();
                let c = self.paren_cond("after `if`")?;
                let then = Box::new(self.stmt()?);
                let els = if self.is_word("else") {
                    self.bump();
                    Some(Box::new(self.stmt()?))
                } else {
                    None
                };
                StmtKind::If(c, then, els)
            }
            Some("while") => {
                self.bump();
                let c = self.paren_cond("after `while`")?;
                StmtKind::While(c, Box::new(self.stmt()?))
            }
            Some("do") => {
                self.bump();
                let body = Box::new(self.stmt()?);
                if !self.is_word("while") {
                    let t = self.tok().clone();
                    self.error(
                        t.span,
                        format!("expected `while` after the body of `do`, found {}", t.describe()),
                        "expected `while`",
                    );
                    return Err(());
                }
                self.bump();
                let c = self.paren_cond("after `while`")?;
                self.expect(";", "after `do ... while (...)`")?;
                StmtKind::DoWhile(body, c)
            }
            Some("for") => {
                self.bump();
                self.expect("(", "after `for`")?;
                let init = if self.eat(";") {
                    None
                } else if self.starts_type() {
                    Some(Box::new(self.decl_stmt()?))
                } else {
                    let e = self.expr()?;
                    let s = e.span;
                    self.expect(";", "after the initialisation of `for`")?;
                    Some(Box::new(Stmt {
                        kind: StmtKind::Expr(e),
                        span: s,
                    }))
                };
                let cond = if self.is(";") { None } else { Some(self.cond()?) };
                self.expect(";", "after the condition of `for`")?;
                let step = if self.is(")") { None } else { Some(self.expr()?) };
                self.expect(")", "to close `for (...)`")?;
                StmtKind::For(init, cond, step, Box::new(self.stmt()?))
            }
            Some("switch") => {
                self.bump();
                self.expect("(", "after `switch`")?;
                let e = self.expr()?;
                self.expect(")", "after the switch expression")?;
                StmtKind::Switch(e, Box::new(self.stmt()?))
            }
            Some("case") => {
                self.bump();
                let e = self.ternary()?;
                self.expect(":", "after the case value")?;
                StmtKind::Case(e, Box::new(self.stmt_or_empty()?))
            }
            Some("default") => {
                self.bump();
                self.expect(":", "after `default`")?;
                StmtKind::Default(Box::new(self.stmt_or_empty()?))
            }
            Some("break") => {
                self.bump();
                self.expect(";", "after `break`")?;
                StmtKind::Break
            }
            Some("continue") => {
                self.bump();
                self.expect(";", "after `continue`")?;
                StmtKind::Continue
            }
            Some("return") => {
                self.bump();
                let e = if self.is(";") { None } else { Some(self.expr()?) };
                self.expect(";", "after `return`")?;
                StmtKind::Return(e)
            }
            Some("goto") => {
                self.bump();
                let l = self.expect_ident("a label")?;
                self.expect(";", "after `goto`")?;
                StmtKind::Goto(l)
            }
            Some("else") => {
                let t = self.bump();
                self.error(t.span, "`else` without a matching `if`", "unexpected `else`");
                return Err(());
            }
            Some(w) if self.nth(1).is_punct(":") && !is_reserved(w) && !self.typedefs.contains_key(w) => {
                let label = self.expect_ident("a label")?;
                self.bump();
                StmtKind::Labeled(label, Box::new(self.stmt_or_empty()?))
            }
            _ if self.is("{") => StmtKind::Block(self.block()?),
            _ if self.is(";") => {
                self.bump();
                StmtKind::Empty
            }
            _ if self.starts_type() => return self.decl_stmt(),
            _ => {
                let e = self.expr()?;
                self.expect(";", "after the expression")?;
                StmtKind::Expr(e)
            }
        };
        Ok(Stmt {
            kind,
            span: start.to(self.prev_span()),
        })
    }

    /// A label at the end of a block (`out: }`) labels an empty statement.
    fn stmt_or_empty(&mut self) -> PResult<Stmt> {
        if self.is("}") {
            let s = self.prev_span();
            return Ok(Stmt {
                kind: StmtKind::Empty,
                span: s,
            });
        }
        self.stmt()
    }

    fn decl_stmt(&mut self) -> PResult<Stmt> {
        let specs = self.specs()?;
        if specs.typedef {
            self.typedef(specs)?;
            return Ok(Stmt {
                kind: StmtKind::Empty,
                span: self.prev_span(),
            });
        }
        let Some(ty) = specs.ty else {
            let t = self.tok().clone();
            self.error(
                t.span,
                format!("expected an integer type for a local variable, found {}", t.describe()),
                "`void` variables do not exist",
            );
            return Err(());
        };
        // `struct s { ... };` declares only a type, already reported.
        if specs.unsupported && self.eat(";") {
            return Ok(Stmt {
                kind: StmtKind::Empty,
                span: specs.span.to(self.prev_span()),
            });
        }
        let mut decls = Vec::new();
        loop {
            let star = self.pointer_stars();
            let name = self.expect_ident("a variable name")?;
            if self.is("(") {
                self.unsupported(name.span, "local function declarations are not part of Cimple");
                self.synchronize();
                return Ok(Stmt {
                    kind: StmtKind::Empty,
                    span: specs.span,
                });
            }
            if let Some(s) = star {
                self.unsupported(s, "pointers are not part of Cimple");
            }
            let d = self.var_declarator(ty, name, &specs)?;
            if star.is_none() && !specs.unsupported {
                decls.push(d);
            }
            if !self.eat(",") {
                break;
            }
        }
        if self.expect(";", "after a declaration").is_err() {
            // Already reported: keep the variables declared so their uses
            // are not reported as undeclared.
            self.synchronize();
        }
        Ok(Stmt {
            kind: StmtKind::Decl(decls),
            span: specs.span.to(self.prev_span()),
        })
    }

    fn paren_cond(&mut self, what: &str) -> PResult<Cond> {
        self.expect("(", what)?;
        let c = self.cond()?;
        self.expect(")", "to close the condition")?;
        Ok(c)
    }

    fn cond(&mut self) -> PResult<Cond> {
        if self.is("*") && self.nth(1).is_punct(")") {
            return Ok(Cond::Star(self.bump().span));
        }
        Ok(Cond::Expr(self.expr()?))
    }

    // ---- expressions ----

    fn expr(&mut self) -> PResult<Expr> {
        let first = self.assign_expr()?;
        if !self.is(",") {
            return Ok(first);
        }
        let mut list = vec![first];
        while self.eat(",") {
            list.push(self.assign_expr()?);
        }
        let span = list[0].span.to(list[list.len() - 1].span);
        Ok(Expr {
            kind: ExprKind::Comma(list),
            span,
        })
    }

    fn assign_expr(&mut self) -> PResult<Expr> {
        let lhs = self.ternary()?;
        let op = match &self.tok().kind {
            TokKind::Punct("=") => Some(AssignOp::Set),
            TokKind::Punct("+=") => Some(AssignOp::Add),
            TokKind::Punct("-=") => Some(AssignOp::Sub),
            TokKind::Punct("*=") => Some(AssignOp::Mul),
            TokKind::Punct("/=") => Some(AssignOp::Div),
            TokKind::Punct("%=") => Some(AssignOp::Mod),
            TokKind::Punct(p @ ("&=" | "|=" | "^=" | "<<=" | ">>=")) => {
                let p = *p;
                let t = self.bump();
                self.unsupported(t.span, format!("the bitwise assignment `{p}` is not part of Cimple"));
                let rhs = self.assign_expr()?;
                let span = lhs.span.to(rhs.span);
                return Ok(Expr {
                    kind: ExprKind::Assign(AssignOp::Set, Box::new(lhs), Box::new(rhs)),
                    span,
                });
            }
            _ => None,
        };
        let Some(op) = op else { return Ok(lhs) };
        self.bump();
        let rhs = self.assign_expr()?;
        let span = lhs.span.to(rhs.span);
        Ok(Expr {
            kind: ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)),
            span,
        })
    }

    fn ternary(&mut self) -> PResult<Expr> {
        let c = self.binary(0)?;
        if !self.eat("?") {
            return Ok(c);
        }
        let t = self.expr()?;
        self.expect(":", "in a conditional expression `c ? a : b`")?;
        let e = self.ternary()?;
        let span = c.span.to(e.span);
        Ok(Expr {
            kind: ExprKind::Ternary(Box::new(c), Box::new(t), Box::new(e)),
            span,
        })
    }

    /// Precedence climbing over the binary operators.
    fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        while let Some((op, prec, bitwise)) = binary_operator(self.tok()) {
            if prec < min_prec.max(1) {
                break;
            }
            let opt = self.bump();
            let rhs = self.binary(prec + 1)?;
            let span = lhs.span.to(rhs.span);
            let op = match (op, bitwise) {
                (Some(op), _) => op,
                (None, Some(b)) => {
                    self.unsupported(opt.span, format!("the bitwise operator `{b}` is not part of Cimple"));
                    BinOp::Add
                }
                _ => unreachable!("every operator row has an op or a bitwise name"),
            };
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                span,
            };
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> PResult<Expr> {
        let t = self.tok().clone();
        let un = |op, e: Expr, span: Span| Expr {
            kind: ExprKind::Unary(op, Box::new(e)),
            span,
        };
        match &t.kind {
            TokKind::Punct("-") => {
                self.bump();
                let e = self.unary()?;
                let span = t.span.to(e.span);
                Ok(un(UnOp::Neg, e, span))
            }
            TokKind::Punct("+") => {
                self.bump();
                let e = self.unary()?;
                let span = t.span.to(e.span);
                Ok(un(UnOp::Plus, e, span))
            }
            TokKind::Punct("!") => {
                self.bump();
                let e = self.unary()?;
                let span = t.span.to(e.span);
                Ok(un(UnOp::Not, e, span))
            }
            TokKind::Punct(p @ ("++" | "--")) => {
                let inc = *p == "++";
                self.bump();
                let e = self.unary()?;
                let span = t.span.to(e.span);
                Ok(Expr {
                    kind: ExprKind::IncDec {
                        target: Box::new(e),
                        inc,
                        prefix: true,
                    },
                    span,
                })
            }
            TokKind::Punct("~") => {
                self.bump();
                self.unsupported(t.span, "the bitwise operator `~` is not part of Cimple");
                self.unary()
            }
            TokKind::Punct("*") => {
                self.bump();
                self.unsupported(t.span, "pointers are not part of Cimple (dereference `*`)");
                self.unary()
            }
            TokKind::Punct("&") => {
                self.bump();
                self.unsupported(t.span, "pointers are not part of Cimple (address-of `&`)");
                self.unary()
            }
            TokKind::Ident(w) if w == "sizeof" => {
                self.bump();
                self.unsupported(t.span, "`sizeof` is not part of Cimple");
                if self.is("(") {
                    self.skip_balanced("(", ")");
                } else {
                    self.unary()?;
                }
                Ok(Expr {
                    kind: ExprKind::Int(0, IntType::Int),
                    span: t.span,
                })
            }
            TokKind::Punct("(") if self.is_cast() => {
                self.bump();
                let saved_pos = self.pos;
                let specs = self.specs()?;
                let star = self.pointer_stars();
                self.expect(")", "to close the cast")?;
                let e = self.unary()?;
                let span = t.span.to(e.span);
                if star.is_some() || specs.void {
                    let s = self.toks[saved_pos].span;
                    self.unsupported(s, "casts to pointer or `void` types are not part of Cimple");
                    return Ok(e);
                }
                Ok(Expr {
                    kind: ExprKind::Cast(specs.ty.unwrap_or(IntType::Int), Box::new(e)),
                    span,
                })
            }
            _ => self.postfix(),
        }
    }

    fn is_cast(&self) -> bool {
        match self.nth(1).ident() {
            Some(w) => {
                TYPE_WORDS.contains(&w)
                    || self.typedefs.contains_key(w)
                    || matches!(
                        w,
                        "const" | "volatile" | "struct" | "union" | "enum" | "float" | "double"
                    )
            }
            None => false,
        }
    }

    fn postfix(&mut self) -> PResult<Expr> {
        let mut e = self.primary()?;
        loop {
            if self.is("++") || self.is("--") {
                let t = self.bump();
                let span = e.span.to(t.span);
                e = Expr {
                    kind: ExprKind::IncDec {
                        target: Box::new(e),
                        inc: t.is_punct("++"),
                        prefix: false,
                    },
                    span,
                };
            } else if self.is("[") {
                let open = self.bump();
                let idx = self.expr()?;
                let close = self.expect("]", "to close the index")?;
                let span = e.span.to(close);
                e = match e.kind {
                    ExprKind::Var(name) => Expr {
                        kind: ExprKind::Index(name, Box::new(idx)),
                        span,
                    },
                    ExprKind::Index(..) => {
                        self.unsupported(open.span, "multi-dimensional arrays are not part of Cimple");
                        e
                    }
                    _ => {
                        self.error(open.span, "only a named array can be indexed", "unexpected `[`");
                        return Err(());
                    }
                };
            } else if self.is("(") {
                let open = self.bump();
                let mut args = Vec::new();
                if !self.is(")") {
                    loop {
                        args.push(self.assign_expr()?);
                        if !self.eat(",") {
                            break;
                        }
                    }
                }
                let close = self.expect(")", "to close the argument list")?;
                let span = e.span.to(close);
                e = match e.kind {
                    ExprKind::Var(name) => Expr {
                        kind: ExprKind::Call(name, args),
                        span,
                    },
                    _ => {
                        self.unsupported(
                            open.span,
                            "calls through expressions (function pointers) are not part of Cimple",
                        );
                        e
                    }
                };
            } else if self.is(".") || self.is("->") {
                let t = self.bump();
                self.unsupported(t.span, "structures and pointers are not part of Cimple (member access)");
                if self.tok().ident().is_some() {
                    self.bump();
                }
            } else {
                return Ok(e);
            }
        }
    }

    fn primary(&mut self) -> PResult<Expr> {
        let t = self.tok().clone();
        match &t.kind {
            TokKind::Int { value, ty } => {
                self.bump();
                let v = if *value > i64::MAX as i128 {
                    self.unsupported(t.span, "integer literals above 2^63-1 are not part of Cimple");
                    0
                } else {
                    *value as i64
                };
                Ok(Expr {
                    kind: ExprKind::Int(v, *ty),
                    span: t.span,
                })
            }
            TokKind::Char(v) => {
                self.bump();
                Ok(Expr {
                    kind: ExprKind::Int(*v, IntType::Int),
                    span: t.span,
                })
            }
            TokKind::Str => {
                self.bump();
                while matches!(self.tok().kind, TokKind::Str) {
                    self.bump();
                }
                self.unsupported(t.span, "string literals are not part of Cimple");
                Ok(Expr {
                    kind: ExprKind::Int(0, IntType::Int),
                    span: t.span,
                })
            }
            TokKind::Float => {
                self.bump();
                self.unsupported(t.span, "floating-point numbers are not part of Cimple");
                Ok(Expr {
                    kind: ExprKind::Int(0, IntType::Int),
                    span: t.span,
                })
            }
            TokKind::Ident(w) if w == "true" || w == "false" => {
                self.bump();
                Ok(Expr {
                    kind: ExprKind::Bool(w == "true"),
                    span: t.span,
                })
            }
            TokKind::Ident(w) if !is_reserved(w) => {
                self.bump();
                Ok(Expr {
                    kind: ExprKind::Var(Ident {
                        name: w.clone(),
                        span: t.span,
                    }),
                    span: t.span,
                })
            }
            TokKind::Punct("(") => {
                self.bump();
                let e = self.expr()?;
                let close = self.expect(")", "to close the parenthesis")?;
                // The span includes the parentheses, so the text of an atom
                // reads as written.
                Ok(Expr {
                    kind: e.kind,
                    span: t.span.to(close),
                })
            }
            _ => {
                let msg = format!("expected an expression, found {}", t.describe());
                self.error(t.span, msg, "expected an expression");
                Err(())
            }
        }
    }
}

/// A binary operator token: the operator (`None` for a bitwise one, outside
/// Cimple, named by the third field) and its precedence.
fn binary_operator(t: &Token) -> Option<(Option<BinOp>, u8, Option<&'static str>)> {
    let TokKind::Punct(p) = &t.kind else { return None };
    Some(match *p {
        "||" => (Some(BinOp::Or), 1, None),
        "&&" => (Some(BinOp::And), 2, None),
        "|" => (None, 3, Some("|")),
        "^" => (None, 4, Some("^")),
        "&" => (None, 5, Some("&")),
        "==" => (Some(BinOp::Eq), 6, None),
        "!=" => (Some(BinOp::Ne), 6, None),
        "<" => (Some(BinOp::Lt), 7, None),
        "<=" => (Some(BinOp::Le), 7, None),
        ">" => (Some(BinOp::Gt), 7, None),
        ">=" => (Some(BinOp::Ge), 7, None),
        "<<" => (None, 8, Some("<<")),
        ">>" => (None, 8, Some(">>")),
        "+" => (Some(BinOp::Add), 9, None),
        "-" => (Some(BinOp::Sub), 9, None),
        "*" => (Some(BinOp::Mul), 10, None),
        "/" => (Some(BinOp::Div), 10, None),
        "%" => (Some(BinOp::Mod), 10, None),
        _ => return None,
    })
}

/// Words that cannot name a variable or function.
pub fn is_reserved(w: &str) -> bool {
    matches!(
        w,
        "if" | "else"
            | "while"
            | "do"
            | "for"
            | "switch"
            | "case"
            | "default"
            | "break"
            | "continue"
            | "return"
            | "goto"
            | "typedef"
            | "struct"
            | "union"
            | "enum"
            | "sizeof"
            | "int"
            | "char"
            | "short"
            | "long"
            | "signed"
            | "unsigned"
            | "void"
            | "float"
            | "double"
            | "_Bool"
            | "extern"
            | "static"
            | "const"
            | "volatile"
            | "register"
            | "auto"
            | "inline"
    )
}

/// Parses a lone expression (a `--error` condition, a macro body). Errors
/// go to `diags`; trailing tokens are an error.
pub fn parse_expression(tokens: Vec<Token>, diags: &mut Vec<Diag>) -> Option<Expr> {
    let mut p = Parser {
        toks: tokens,
        pos: 0,
        diags,
        typedefs: HashMap::new(),
        in_function: Some(Vec::new()),
    };
    let e = p.expr().ok()?;
    if !p.at_eof() {
        let t = p.tok().clone();
        p.error(
            t.span,
            format!("unexpected {} after the expression", t.describe()),
            "expected the end",
        );
        return None;
    }
    if let Some((span, msg)) = p.in_function.take().and_then(|v| v.into_iter().next()) {
        p.diags
            .push(Diag::error(Class::Unsupported, span, msg).with_label("outside the Cimple subset"));
        return None;
    }
    Some(e)
}
