//! Recursive-descent parser for Cimple. It never fails: it returns a tree and
//! a list of diagnostics, recovering at `;` and `}` so that several errors in
//! one file are all reported.

use super::ast::*;
use super::lexer::{TokKind, Token};
use super::source::Span;
use crate::diag::{Class, Diag};
use declarator::{with_typedef, Shape};
use std::collections::HashMap;

mod decl;
mod declarator;
mod designated;
mod expr;
mod knr;
mod stmt;
mod typedefs;
mod unknown;
mod var;

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
            return Program::default();
        }
    }
    let mut p = Parser {
        toks: tokens,
        pos: 0,
        knr_names: None,
        function_name: None,
        diags,
        typedefs: HashMap::new(),
        typedef_steps: HashMap::new(),
        structs: Vec::new(),
        anonymous: 0,
        enum_consts: HashMap::new(),
        in_function: None,
        unmodelled_types: HashMap::new(),
        strings: Vec::new(),
        dims: Vec::new(),
    };
    p.typedefs.insert("bool".into(), CType::Int(IntType::Bool));
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
    items.extend(std::mem::take(&mut p.structs).into_iter().map(Item::Struct));
    if !p.strings.is_empty() {
        // Before every use: string literals are objects of file scope.
        items.insert(0, Item::Globals(string_objects(&p.strings)));
    }
    Program {
        items,
        dims: p.dims,
        ..Program::default()
    }
}

struct Parser<'a> {
    toks: Vec<Token>,
    pos: usize,
    diags: &'a mut Vec<Diag>,
    /// `typedef` names and the type each stands for (an array typedef's
    /// element type, its steps in `typedef_steps`).
    typedefs: HashMap<String, CType>,
    typedef_steps: HashMap<String, Vec<declarator::Step>>,
    /// `struct` definitions found so far (parsed into `Item::Struct`).
    structs: Vec<StructDef>,
    /// Tags given to anonymous structs so far.
    anonymous: usize,
    /// `enum` constants and their values, as constant expressions of type
    /// `int` (the previous one plus 1 when none is given).
    enum_consts: HashMap<String, Expr>,
    /// While parsing a function body: the unsupported constructs found.
    in_function: Option<Vec<(Span, String)>>,
    /// `typedef` names of types outside the model, and why: an error only
    /// where a declaration that needs the type uses one.
    unmodelled_types: HashMap<String, String>,
    /// The string literals so far (bytes without the NUL), in text order;
    /// literal `k` is the object `string#k+1` (`STRING`).
    strings: Vec<(Vec<u8>, Span)>,
    /// Arrays of arrays and pointers to arrays declared (`Program::dims`).
    dims: Vec<ArrayDims>,
    /// The identifier list of a K&R definition with a return type, read
    /// by `param_list` and typed by the declarations after it (`knr.rs`).
    knr_names: Option<Vec<Ident>>,
    /// The name of the function whose body is being parsed: `__func__`.
    function_name: Option<String>,
}

/// The elements of a `char` array holding `bytes` (`{'a', 'b', 0}`).
pub fn char_elements(bytes: &[u8], nul: bool, span: Span) -> Vec<Expr> {
    let nul = nul.then_some(0u8);
    bytes
        .iter()
        .copied()
        .chain(nul)
        .map(|b| Expr {
            // `char` is signed (gcc on x86): byte 0xff is -1.
            kind: ExprKind::Int(b as i8 as i64, IntType::Int),
            span,
        })
        .collect()
}

/// The file-scope `char` arrays of string literals (read-only: a write
/// through a pointer to one is an invalid access, `crate::ir::mem`).
fn string_objects(strings: &[(Vec<u8>, Span)]) -> Vec<VarDecl> {
    strings
        .iter()
        .enumerate()
        .map(|(k, (bytes, span))| VarDecl {
            ty: IntType::Char,
            ctype: CType::Int(IntType::Char),
            name: Ident {
                name: format!("{STRING}{}", k + 1),
                span: *span,
            },
            array: Some(Expr {
                kind: ExprKind::Int(bytes.len() as i64 + 1, IntType::Int),
                span: *span,
            }),
            init: Some(Init::List(char_elements(bytes, true, *span), *span)),
            span: *span,
            is_static: true,
            is_const: false,
            arbitrary: false,
        })
        .collect()
}

/// Declaration specifiers: the type and storage words before a declarator.
struct Specs {
    ty: Option<IntType>,
    /// A struct type, or a typedef of a pointer or struct type (then `ty`
    /// is `Int`, a placeholder).
    base: Option<CType>,
    is_static: bool,
    /// `const` among the words (of the object, for a declarator without
    /// `*`).
    is_const: bool,
    void: bool,
    typedef: bool,
    span: Span,
    /// A type outside the subset (`struct`, `float`, ...), already reported.
    unsupported: bool,
    /// An `enum` type: `enum e { ... };` alone declares its constants.
    tag: bool,
    /// The array and pointer steps of an array typedef named (`row` of
    /// `typedef int row[4]`: `[Array(4)]` on `int`).
    steps: Vec<declarator::Step>,
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
    "float",
    "double",
];

impl Parser<'_> {
    // ---- token helpers ----

    pub(super) fn tok(&self) -> &Token {
        &self.toks[self.pos.min(self.toks.len() - 1)]
    }

    pub(super) fn nth(&self, k: usize) -> &Token {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)]
    }

    pub(super) fn at_eof(&self) -> bool {
        self.tok().kind == TokKind::Eof
    }

    pub(super) fn bump(&mut self) -> Token {
        let t = self.tok().clone();
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
        }
        t
    }

    pub(super) fn is(&self, p: &str) -> bool {
        self.tok().is_punct(p)
    }

    pub(super) fn is_word(&self, w: &str) -> bool {
        self.tok().ident() == Some(w)
    }

    pub(super) fn eat(&mut self, p: &str) -> bool {
        if self.is(p) {
            self.bump();
            true
        } else {
            false
        }
    }

    /// A string literal and those right after it, concatenated (C11
    /// 6.4.5p5), with the span of them all.
    pub(super) fn string_literal(&mut self) -> (Vec<u8>, Span) {
        let mut bytes = Vec::new();
        let start = self.tok().span;
        let mut span = start;
        while let TokKind::Str(b) = &self.tok().kind {
            bytes.extend_from_slice(b);
            span = start.to(self.bump().span);
        }
        (bytes, span)
    }

    pub(super) fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1)].span
    }

    pub(super) fn expect(&mut self, p: &str, what: &str) -> PResult<Span> {
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

    pub(super) fn error(&mut self, span: Span, msg: impl Into<String>, label: impl Into<String>) {
        self.diags.push(Diag::error(Class::Syntax, span, msg).with_label(label));
    }

    /// A construct that is valid C but outside Cimple. Inside a function it
    /// marks the function as left out; elsewhere it is an error.
    pub(super) fn unsupported(&mut self, span: Span, msg: impl Into<String>) {
        let msg = msg.into();
        match &mut self.in_function {
            Some(list) => list.push((span, msg)),
            None => self
                .diags
                .push(Diag::error(Class::Unsupported, span, msg.clone()).with_label("outside the Cimple subset")),
        }
    }

    pub(super) fn expect_ident(&mut self, what: &str) -> PResult<Ident> {
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
    pub(super) fn synchronize(&mut self) {
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
    pub(super) fn skip_initialiser(&mut self) {
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

    pub(super) fn synchronize_top(&mut self) {
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
    pub(super) fn skip_attributes(&mut self) {
        while self.is_word("__attribute__") || self.is_word("__asm__") || self.is_word("__asm") {
            self.bump();
            if self.is("(") {
                self.skip_balanced("(", ")");
            }
        }
    }

    pub(super) fn skip_balanced(&mut self, open: &str, close: &str) {
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
}

/// A binary operator token: the operator and its precedence.
fn binary_operator(t: &Token) -> Option<(BinOp, u8)> {
    let TokKind::Punct(p) = &t.kind else { return None };
    Some(match *p {
        "||" => (BinOp::Or, 1),
        "&&" => (BinOp::And, 2),
        "|" => (BinOp::BitOr, 3),
        "^" => (BinOp::BitXor, 4),
        "&" => (BinOp::BitAnd, 5),
        "==" => (BinOp::Eq, 6),
        "!=" => (BinOp::Ne, 6),
        "<" => (BinOp::Lt, 7),
        "<=" => (BinOp::Le, 7),
        ">" => (BinOp::Gt, 7),
        ">=" => (BinOp::Ge, 7),
        "<<" => (BinOp::Shl, 8),
        ">>" => (BinOp::Shr, 8),
        "+" => (BinOp::Add, 9),
        "-" => (BinOp::Sub, 9),
        "*" => (BinOp::Mul, 10),
        "/" => (BinOp::Div, 10),
        "%" => (BinOp::Mod, 10),
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
        typedef_steps: HashMap::new(),
        structs: Vec::new(),
        anonymous: 0,
        enum_consts: HashMap::new(),
        in_function: Some(Vec::new()),
        unmodelled_types: HashMap::new(),
        strings: Vec::new(),
        dims: Vec::new(),
        knr_names: None,
        function_name: None,
    };
    let e = p.expr().ok()?;
    if let Some((_, span)) = p.strings.first() {
        let msg = "a string literal is not part of a lone expression";
        p.diags
            .push(Diag::error(Class::Unsupported, *span, msg).with_label("here"));
        return None;
    }
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
