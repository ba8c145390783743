//! The clauses of an annotation: recursive descent over its tokens.

use super::lex::{err, lex, Tok};
use super::*;
use crate::diag::Diag;

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
                let e = self.term()?;
                let span = e.span;
                out.push((Self::location(e), span));
            }
            if !self.is(",") {
                return Ok(out);
            }
            self.bump();
        }
    }

    /// A location as written: a name, an element or elements of a named
    /// array, or anything else (through pointers) for the memory model.
    fn location(e: Expr) -> Loc {
        if let ExprKind::Var(id) = &e.kind {
            return Loc::Var(id.clone());
        }
        if let ExprKind::Index(a, i) = &e.kind {
            if let ExprKind::Var(id) = &a.kind {
                match &i.kind {
                    ExprKind::Range(None, None) => return Loc::Whole(id.clone()),
                    ExprKind::Range(Some(lo), Some(hi)) => {
                        return Loc::Range(id.clone(), (**lo).clone(), (**hi).clone())
                    }
                    ExprKind::Range(..) => {}
                    _ => return Loc::Elem(id.clone(), (**i).clone()),
                }
            }
        }
        Loc::Expr(e)
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
        let c = self.iff()?;
        if !self.is("?") {
            return Ok(c);
        }
        self.bump();
        let a = self.pred()?;
        self.expect(":", "in `c ? a : b`")?;
        let b = self.pred()?;
        let span = c.span.to(b.span);
        Ok(Expr {
            kind: ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
            span,
        })
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
        let mut a = self.bits(0)?;
        while self.is("&&") {
            self.bump();
            let b = if self.is_word("\\forall") || self.is_word("\\exists") {
                self.pred()?
            } else {
                self.bits(0)?
            };
            a = Self::binary(a, BinOp::And, b);
        }
        Ok(a)
    }

    /// C's `|` (level 0), `^` (1) and `&` (2), binding tighter in that
    /// order and looser than the comparisons, as in C.
    fn bits(&mut self, level: usize) -> Result<Expr, Diag> {
        const OPS: [(&str, BinOp); 3] = [("|", BinOp::BitOr), ("^", BinOp::BitXor), ("&", BinOp::BitAnd)];
        let next = |p: &mut Self| if level == 2 { p.relation() } else { p.bits(level + 1) };
        let mut a = next(self)?;
        while self.is(OPS[level].0) {
            self.bump();
            let b = next(self)?;
            a = Self::binary(a, OPS[level].1, b);
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
        let first = self.shift()?;
        let Some(op) = self.rel_op() else { return Ok(first) };
        self.bump();
        let mut lhs = self.shift()?;
        let mut out = Self::binary(first, op, lhs.clone());
        while let Some(op) = self.rel_op() {
            self.bump();
            let rhs = self.shift()?;
            let next = Self::binary(lhs, op, rhs.clone());
            out = Self::binary(out, BinOp::And, next);
            lhs = rhs;
        }
        Ok(out)
    }

    /// `<<`, `>>`: looser than `+`, tighter than the comparisons.
    fn shift(&mut self) -> Result<Expr, Diag> {
        let mut a = self.term()?;
        loop {
            let op = match self.peek() {
                Tok::Punct("<<") => BinOp::Shl,
                Tok::Punct(">>") => BinOp::Shr,
                _ => return Ok(a),
            };
            self.bump();
            let b = self.term()?;
            a = Self::binary(a, op, b);
        }
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
        if self.is("-") || self.is("!") || self.is("~") {
            let op = self.bump().0;
            let x = Box::new(self.unary()?);
            let span = start.to(x.span);
            return Ok(Expr {
                kind: match op {
                    Tok::Punct("-") => ExprKind::Neg(x),
                    Tok::Punct("!") => ExprKind::Not(x),
                    _ => ExprKind::BitNot(x),
                },
                span,
            });
        }
        if self.is("+") {
            self.bump();
            return self.unary();
        }
        if self.is("*") || self.is("&") {
            let deref = self.is("*");
            self.bump();
            let x = self.unary()?;
            let span = start.to(x.span);
            let x = Box::new(x);
            return Ok(Expr {
                kind: if deref { ExprKind::Deref(x) } else { ExprKind::AddrOf(x) },
                span,
            });
        }
        let mut e = self.primary()?;
        // Postfix: `a[i]`, `s.f`, `p->f`.
        loop {
            if self.is("[") {
                self.bump();
                let i = self.index()?;
                self.expect("]", "after the index")?;
                let span = e.span.to(self.prev_span());
                e = Expr {
                    kind: ExprKind::Index(Box::new(e), Box::new(i)),
                    span,
                };
            } else if self.is(".") || self.is("->") {
                let arrow = self.is("->");
                self.bump();
                let f = self.ident("a field name")?;
                let span = e.span.to(f.span);
                e = Expr {
                    kind: ExprKind::Member(Box::new(e), f, arrow),
                    span,
                };
            } else {
                return Ok(e);
            }
        }
    }

    /// An index: a term, or a range `lo..hi`, `..` (for sets of locations).
    fn index(&mut self) -> Result<Expr, Diag> {
        let start = self.span();
        if self.is("..") {
            self.bump();
            let hi = if self.is("]") {
                None
            } else {
                Some(Box::new(self.term()?))
            };
            return Ok(Expr {
                kind: ExprKind::Range(None, hi),
                span: start.to(self.prev_span()),
            });
        }
        let lo = self.bits(0)?;
        if !self.is("..") {
            return Ok(lo);
        }
        self.bump();
        let hi = if self.is("]") || self.is(")") {
            None
        } else {
            Some(Box::new(self.term()?))
        };
        let span = start.to(self.prev_span());
        Ok(Expr {
            kind: ExprKind::Range(Some(Box::new(lo)), hi),
            span,
        })
    }

    /// The arguments of `\valid(...)` or `\separated(...)`.
    fn locs_args(&mut self, what: &str) -> Result<Vec<Expr>, Diag> {
        self.expect("(", &format!("after `{what}`"))?;
        let mut out = vec![self.term()?];
        while self.is(",") {
            self.bump();
            out.push(self.term()?);
        }
        self.expect(")", &format!("to close `{what}(`"))?;
        Ok(out)
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
                if self.is("..") {
                    let r = self.index()?;
                    self.expect(")", "to close `(`")?;
                    return mk(r.kind, start.to(self.prev_span()));
                }
                let e = self.pred()?;
                if self.is("..") {
                    self.bump();
                    let hi = if self.is(")") { None } else { Some(Box::new(self.term()?)) };
                    self.expect(")", "to close `(`")?;
                    return mk(ExprKind::Range(Some(Box::new(e)), hi), start.to(self.prev_span()));
                }
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
                "\\null" => {
                    self.bump();
                    mk(ExprKind::Null, start)
                }
                "\\valid" | "\\valid_read" => {
                    self.bump();
                    let mut args = self.locs_args(&w)?;
                    if args.len() != 1 {
                        return Err(err(args[1].span, format!("`{w}` takes one set of locations"), "one argument"));
                    }
                    let locs = Box::new(args.remove(0));
                    mk(
                        ExprKind::Valid {
                            read: w == "\\valid_read",
                            locs,
                        },
                        start.to(self.prev_span()),
                    )
                }
                "\\separated" => {
                    self.bump();
                    let args = self.locs_args(&w)?;
                    mk(ExprKind::Separated(args), start.to(self.prev_span()))
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
                        "supported: `\\result`, `\\old`, `\\at(e, Pre)`, `\\forall`, `\\exists`, `\\true`, `\\false`, `\\null`, `\\valid`, `\\valid_read`, `\\separated`",
                    )),
                _ => {
                    let id = self.ident("a name")?;
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
