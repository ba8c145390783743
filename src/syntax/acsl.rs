//! ACSL annotations (the specification comments of Frama-C), the subset
//! focuscheck reads: `/*@ requires P; ensures P; assigns L; */` before a
//! function, `/*@ loop invariant P; */` before a loop or a label, and
//! `//@ assert P;` as a statement.
//!
//! The lexer records every comment that starts with `@` (`Comment`); this
//! module parses its text into clauses. Formulas are C expressions plus
//! `==>`, `<==>`, chained comparisons (`0 <= i < n`), `\result`, `\old(e)`,
//! `\at(e, Pre)`, `\true`, `\false` and `\forall`/`\exists` over `int`
//! (or `integer`) variables. Every error is located in the file.

use super::source::Span;
use crate::diag::{Class, Diag};

/// An annotation comment as the lexer found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The whole comment, `/*@ ... */` or `//@ ...`.
    pub span: Span,
    /// Its text after the `@`.
    pub body: Span,
}

/// The first word of an annotation (`assert`, `loop`, `requires`, ...):
/// what the lexer needs to decide where it belongs.
pub fn first_word(body: &str) -> &str {
    let t = body.trim_start_matches(|c: char| c.is_whitespace() || c == '@');
    let end = t
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(t.len());
    &t[..end]
}

/// The label the lexer puts in front of a statement annotation, so that the
/// annotation becomes a statement exactly where it is written.
pub fn marker_label(kind: &str, index: usize) -> String {
    format!("__acsl_{kind}_{index}")
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Implies,
    Iff,
}

impl BinOp {
    pub fn is_relational(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

/// A term or a predicate; which one is decided when names are resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Var(Ident),
    Index(Ident, Box<Expr>),
    Result,
    /// `\old(e)` or `\at(e, Pre)`: `e` in the state where the function
    /// started.
    Old(Box<Expr>),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Quant {
        forall: bool,
        vars: Vec<Ident>,
        body: Box<Expr>,
    },
}

/// A location an `assigns` clause names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Loc {
    /// `\nothing`.
    Nothing,
    Var(Ident),
    /// `a[e]`.
    Elem(Ident, Expr),
    /// `a[..]`: every element.
    Whole(Ident),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ClauseKind {
    Requires,
    Ensures,
    Assigns,
    LoopInvariant,
    Assert,
}

impl ClauseKind {
    pub fn keyword(self) -> &'static str {
        match self {
            ClauseKind::Requires => "requires",
            ClauseKind::Ensures => "ensures",
            ClauseKind::Assigns => "assigns",
            ClauseKind::LoopInvariant => "loop invariant",
            ClauseKind::Assert => "assert",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClauseBody {
    Pred(Expr),
    Locs(Vec<(Loc, Span)>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    pub kind: ClauseKind,
    /// From the keyword to the `;` (excluded).
    pub span: Span,
    /// The formula (or locations) as written, on one line.
    pub text: String,
    pub body: ClauseBody,
}

/// What an annotation is, by where it may stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnnotKind {
    /// `requires`/`ensures`/`assigns`: before a function definition.
    Contract,
    /// `loop invariant`: before a loop or a label.
    Loop,
    /// `assert`: a statement.
    Assert,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation {
    pub kind: AnnotKind,
    pub comment: Comment,
    pub clauses: Vec<Clause>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok {
    Int(i64),
    Word(String),
    Punct(&'static str),
    Eof,
}

const PUNCTS: &[&str] = &[
    "<==>", "==>", "..", "==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "+", "-", "*", "/", "%", "(", ")", "[",
    "]", ",", ";",
];

fn err(span: Span, msg: impl Into<String>, label: &str) -> Diag {
    Diag::error(Class::Syntax, span, msg).with_label(label)
}

/// Tokens of an annotation's text; `base` is the text's offset in the file.
/// `@` at the start of a line (Frama-C's continuation marks) is blank.
fn lex(text: &str, base: usize) -> Result<Vec<(Tok, Span)>, Diag> {
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

struct Parser<'a> {
    toks: Vec<(Tok, Span)>,
    pos: usize,
    file: &'a str,
}

/// Parses one annotation comment of `file`.
pub fn parse(file: &str, c: Comment) -> Result<Annotation, Diag> {
    let body = &file[c.body.range()];
    let toks = lex(body, c.body.lo as usize)?;
    let mut p = Parser { toks, pos: 0, file };
    let mut clauses = Vec::new();
    let mut kind: Option<AnnotKind> = None;
    while p.peek() != &Tok::Eof {
        let clause = p.clause()?;
        let k = match clause.kind {
            ClauseKind::Requires | ClauseKind::Ensures | ClauseKind::Assigns => AnnotKind::Contract,
            ClauseKind::LoopInvariant => AnnotKind::Loop,
            ClauseKind::Assert => AnnotKind::Assert,
        };
        match kind {
            Some(prev) if prev != k => {
                return Err(err(
                    clause.span,
                    format!(
                        "`{}` cannot be in the same annotation as the clauses before it",
                        clause.kind.keyword()
                    ),
                    "another kind of annotation",
                )
                .with_note("function contracts, loop invariants and assertions are separate annotations"))
            }
            _ => kind = Some(k),
        }
        clauses.push(clause);
    }
    match kind {
        Some(kind) => Ok(Annotation {
            kind,
            comment: c,
            clauses,
        }),
        None => Err(err(c.span, "an empty annotation", "nothing to check")
            .with_note("write `requires`, `ensures`, `assigns`, `loop invariant` or `assert` clauses")),
    }
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].0
    }

    fn span(&self) -> Span {
        self.toks[self.pos].1
    }

    fn prev_span(&self) -> Span {
        self.toks[self.pos.saturating_sub(1)].1
    }

    fn bump(&mut self) -> (Tok, Span) {
        let t = self.toks[self.pos].clone();
        if self.pos + 1 < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn is(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Word(x) if x == w)
    }

    fn found(&self) -> String {
        match self.peek() {
            Tok::Int(v) => format!("`{v}`"),
            Tok::Word(w) => format!("`{w}`"),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "the end of the annotation".into(),
        }
    }

    fn expect(&mut self, p: &str, what: &str) -> Result<Span, Diag> {
        if self.is(p) {
            Ok(self.bump().1)
        } else {
            Err(err(
                self.span(),
                format!("expected `{p}` {what}, found {}", self.found()),
                &format!("expected `{p}`"),
            ))
        }
    }

    fn ident(&mut self, what: &str) -> Result<Ident, Diag> {
        match self.peek().clone() {
            Tok::Word(w) if !w.starts_with('\\') => {
                let span = self.bump().1;
                Ok(Ident { name: w, span })
            }
            _ => Err(err(
                self.span(),
                format!("expected {what}, found {}", self.found()),
                "expected a name",
            )),
        }
    }

    fn clause(&mut self) -> Result<Clause, Diag> {
        let start = self.span();
        let kind = match self.peek() {
            Tok::Word(w) => match w.as_str() {
                "requires" => ClauseKind::Requires,
                "ensures" => ClauseKind::Ensures,
                "assigns" => ClauseKind::Assigns,
                "assert" => ClauseKind::Assert,
                "loop" => {
                    self.bump();
                    if !self.is_word("invariant") {
                        return Err(err(
                            self.span(),
                            format!("`loop` {} is not supported", self.found()),
                            "not in the subset",
                        )
                        .with_note("focuscheck reads `loop invariant P;` (no `loop assigns`, `loop variant`)"));
                    }
                    ClauseKind::LoopInvariant
                }
                other => {
                    return Err(err(
                        start,
                        format!("`{other}` is not an ACSL clause focuscheck reads"),
                        "unknown clause",
                    )
                    .with_note(
                        "the subset: `requires`, `ensures`, `assigns` (before a function), \
                         `loop invariant` (before a loop or label), `assert` (a statement)",
                    ))
                }
            },
            _ => {
                return Err(err(
                    start,
                    format!("expected a clause keyword, found {}", self.found()),
                    "expected `requires`, `ensures`, `assigns`, `loop invariant` or `assert`",
                ))
            }
        };
        self.bump();
        let from = self.span();
        let body = if kind == ClauseKind::Assigns {
            ClauseBody::Locs(self.locations()?)
        } else {
            ClauseBody::Pred(self.pred()?)
        };
        let to = self.prev_span();
        self.expect(";", "at the end of the clause")?;
        let text = self.file[from.lo as usize..to.hi as usize]
            .split(|c: char| c.is_whitespace() || c == '@')
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
        Ok(Clause {
            kind,
            span: start.to(to),
            text,
            body,
        })
    }

    fn locations(&mut self) -> Result<Vec<(Loc, Span)>, Diag> {
        let mut out = Vec::new();
        loop {
            let start = self.span();
            if self.is_word("\\nothing") {
                self.bump();
                out.push((Loc::Nothing, start));
            } else {
                let id = self.ident("a variable or `\\nothing`")?;
                if self.is("[") {
                    self.bump();
                    if self.is("..") {
                        self.bump();
                        self.expect("]", "after `..`")?;
                        out.push((Loc::Whole(id), start.to(self.prev_span())));
                    } else {
                        let e = self.term()?;
                        self.expect("]", "after the index")?;
                        out.push((Loc::Elem(id, e), start.to(self.prev_span())));
                    }
                } else {
                    out.push((Loc::Var(id), start));
                }
            }
            if !self.is(",") {
                return Ok(out);
            }
            self.bump();
        }
    }

    /// A predicate: quantifiers extend as far right as possible.
    fn pred(&mut self) -> Result<Expr, Diag> {
        if self.is_word("\\forall") || self.is_word("\\exists") {
            let forall = self.is_word("\\forall");
            let (_, start) = self.bump();
            match self.peek() {
                Tok::Word(w) if w == "int" || w == "integer" => {
                    self.bump();
                }
                _ => {
                    return Err(err(
                        self.span(),
                        format!("expected `int` after the quantifier, found {}", self.found()),
                        "quantified variables are integers",
                    ))
                }
            }
            let mut vars = vec![self.ident("a variable name")?];
            while self.is(",") {
                self.bump();
                vars.push(self.ident("a variable name")?);
            }
            self.expect(";", "after the quantified variables")?;
            let body = self.pred()?;
            let span = start.to(body.span);
            return Ok(Expr {
                kind: ExprKind::Quant {
                    forall,
                    vars,
                    body: Box::new(body),
                },
                span,
            });
        }
        self.iff()
    }

    fn binary(a: Expr, op: BinOp, b: Expr) -> Expr {
        let span = a.span.to(b.span);
        Expr {
            kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
            span,
        }
    }

    fn iff(&mut self) -> Result<Expr, Diag> {
        let mut a = self.implies()?;
        while self.is("<==>") {
            self.bump();
            let b = self.implies_or_quant()?;
            a = Self::binary(a, BinOp::Iff, b);
        }
        Ok(a)
    }

    /// The right operand of `==>`, `<==>`, `&&`, `||` may be a quantifier.
    fn implies_or_quant(&mut self) -> Result<Expr, Diag> {
        if self.is_word("\\forall") || self.is_word("\\exists") {
            self.pred()
        } else {
            self.implies()
        }
    }

    fn implies(&mut self) -> Result<Expr, Diag> {
        let a = self.or()?;
        if self.is("==>") {
            self.bump();
            let b = self.implies_or_quant()?;
            return Ok(Self::binary(a, BinOp::Implies, b));
        }
        Ok(a)
    }

    fn or(&mut self) -> Result<Expr, Diag> {
        let mut a = self.and()?;
        while self.is("||") {
            self.bump();
            let b = if self.is_word("\\forall") || self.is_word("\\exists") {
                self.pred()?
            } else {
                self.and()?
            };
            a = Self::binary(a, BinOp::Or, b);
        }
        Ok(a)
    }

    fn and(&mut self) -> Result<Expr, Diag> {
        let mut a = self.relation()?;
        while self.is("&&") {
            self.bump();
            let b = if self.is_word("\\forall") || self.is_word("\\exists") {
                self.pred()?
            } else {
                self.relation()?
            };
            a = Self::binary(a, BinOp::And, b);
        }
        Ok(a)
    }

    fn rel_op(&self) -> Option<BinOp> {
        Some(match self.peek() {
            Tok::Punct("==") => BinOp::Eq,
            Tok::Punct("!=") => BinOp::Ne,
            Tok::Punct("<") => BinOp::Lt,
            Tok::Punct("<=") => BinOp::Le,
            Tok::Punct(">") => BinOp::Gt,
            Tok::Punct(">=") => BinOp::Ge,
            _ => return None,
        })
    }

    /// `a < b <= c` is `a < b && b <= c`.
    fn relation(&mut self) -> Result<Expr, Diag> {
        let first = self.term()?;
        let Some(op) = self.rel_op() else { return Ok(first) };
        self.bump();
        let mut lhs = self.term()?;
        let mut out = Self::binary(first, op, lhs.clone());
        while let Some(op) = self.rel_op() {
            self.bump();
            let rhs = self.term()?;
            let next = Self::binary(lhs, op, rhs.clone());
            out = Self::binary(out, BinOp::And, next);
            lhs = rhs;
        }
        Ok(out)
    }

    fn term(&mut self) -> Result<Expr, Diag> {
        let mut a = self.product()?;
        loop {
            let op = match self.peek() {
                Tok::Punct("+") => BinOp::Add,
                Tok::Punct("-") => BinOp::Sub,
                _ => return Ok(a),
            };
            self.bump();
            let b = self.product()?;
            a = Self::binary(a, op, b);
        }
    }

    fn product(&mut self) -> Result<Expr, Diag> {
        let mut a = self.unary()?;
        loop {
            let op = match self.peek() {
                Tok::Punct("*") => BinOp::Mul,
                Tok::Punct("/") => BinOp::Div,
                Tok::Punct("%") => BinOp::Mod,
                _ => return Ok(a),
            };
            self.bump();
            let b = self.unary()?;
            a = Self::binary(a, op, b);
        }
    }

    fn unary(&mut self) -> Result<Expr, Diag> {
        let start = self.span();
        if self.is("-") || self.is("!") {
            let neg = self.is("-");
            self.bump();
            let x = self.unary()?;
            let span = start.to(x.span);
            return Ok(Expr {
                kind: if neg {
                    ExprKind::Neg(Box::new(x))
                } else {
                    ExprKind::Not(Box::new(x))
                },
                span,
            });
        }
        if self.is("+") {
            self.bump();
            return self.unary();
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Expr, Diag> {
        let start = self.span();
        let mk = |kind, span| Ok(Expr { kind, span });
        match self.peek().clone() {
            Tok::Int(v) => {
                self.bump();
                mk(ExprKind::Int(v), start)
            }
            Tok::Punct("(") => {
                self.bump();
                let e = self.pred()?;
                self.expect(")", "to close `(`")?;
                mk(e.kind, start.to(self.prev_span()))
            }
            Tok::Word(w) => match w.as_str() {
                "\\true" | "true" => {
                    self.bump();
                    mk(ExprKind::Bool(true), start)
                }
                "\\false" | "false" => {
                    self.bump();
                    mk(ExprKind::Bool(false), start)
                }
                "\\result" => {
                    self.bump();
                    mk(ExprKind::Result, start)
                }
                "\\old" | "\\at" => {
                    self.bump();
                    self.expect("(", &format!("after `{w}`"))?;
                    let e = self.pred()?;
                    if w == "\\at" {
                        self.expect(",", "before the label of `\\at`")?;
                        let l = self.ident("a label")?;
                        if l.name != "Pre" {
                            return Err(
                                err(l.span, format!("the label `{}` is not supported", l.name), "only `Pre`")
                                    .with_note("`\\at(e, Pre)` is `e` when the function started"),
                            );
                        }
                    }
                    self.expect(")", &format!("to close `{w}(`"))?;
                    mk(ExprKind::Old(Box::new(e)), start.to(self.prev_span()))
                }
                "\\forall" | "\\exists" => self.pred(),
                _ if w.starts_with('\\') => Err(err(start, format!("`{w}` is not supported"), "not in the subset")
                    .with_note(
                        "supported: `\\result`, `\\old`, `\\at(e, Pre)`, `\\forall`, `\\exists`, `\\true`, `\\false`",
                    )),
                _ => {
                    let id = self.ident("a name")?;
                    if self.is("[") {
                        self.bump();
                        let i = self.term()?;
                        self.expect("]", "after the index")?;
                        return mk(ExprKind::Index(id, Box::new(i)), start.to(self.prev_span()));
                    }
                    if self.is("(") {
                        return Err(err(
                            self.span(),
                            format!("`{}(...)`: annotations cannot call functions", id.name),
                            "a call",
                        ));
                    }
                    mk(ExprKind::Var(id), start)
                }
            },
            _ => Err(err(
                start,
                format!("expected a term, found {}", self.found()),
                "expected a term",
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_text(text: &str) -> Result<Annotation, Diag> {
        let file = format!("/*@{text}*/");
        let c = Comment {
            span: Span::new(0, file.len()),
            body: Span::new(3, file.len() - 2),
        };
        parse(&file, c)
    }

    #[test]
    fn contract_clauses_and_chains() {
        let a = parse_text(" requires 0 <= n < 10; ensures \\result == \\old(x) + 1; assigns x, a[..]; ").unwrap();
        assert_eq!(a.kind, AnnotKind::Contract);
        assert_eq!(a.clauses.len(), 3);
        assert_eq!(a.clauses[0].text, "0 <= n < 10");
        let ClauseBody::Pred(p) = &a.clauses[0].body else {
            panic!()
        };
        assert!(matches!(p.kind, ExprKind::Binary(BinOp::And, ..)));
        let ClauseBody::Locs(l) = &a.clauses[2].body else {
            panic!()
        };
        assert!(matches!(l[1].0, Loc::Whole(_)));
    }

    #[test]
    fn quantifier_extends_right_and_implication_is_right_associative() {
        let a = parse_text(" loop invariant \\forall int k; 0 <= k < i ==> a[k] == 0 ==> b; ").unwrap();
        let ClauseBody::Pred(p) = &a.clauses[0].body else {
            panic!()
        };
        let ExprKind::Quant { body, .. } = &p.kind else {
            panic!()
        };
        let ExprKind::Binary(BinOp::Implies, _, rhs) = &body.kind else {
            panic!()
        };
        assert!(matches!(rhs.kind, ExprKind::Binary(BinOp::Implies, ..)));
    }

    #[test]
    fn errors_are_located() {
        let e = parse_text(" requires x > ; ").unwrap_err();
        assert!(e.message.contains("expected a term"), "{}", e.message);
        assert_eq!(e.span.lo, 17);
        let e = parse_text(" loop variant n; ").unwrap_err();
        assert!(e.message.contains("not supported"));
        let e = parse_text(" requires x > 0; loop invariant y; ").unwrap_err();
        assert!(e.message.contains("same annotation"));
        let e = parse_text(" requires x > 0 ").unwrap_err();
        assert!(e.message.contains("expected `;`"));
    }
}
