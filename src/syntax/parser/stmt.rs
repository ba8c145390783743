//! Parsing statements and conditions.

use super::*;

impl Parser<'_> {
    pub(super) fn block(&mut self) -> PResult<Block> {
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

    pub(super) fn stmt(&mut self) -> PResult<Stmt> {
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
            _ if self.unknown_type_ahead() || self.unknown_pointer_type_ahead() => {
                self.unknown_type();
                return self.decl_stmt();
            }
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
    pub(super) fn stmt_or_empty(&mut self) -> PResult<Stmt> {
        if self.is("}") {
            let s = self.prev_span();
            return Ok(Stmt {
                kind: StmtKind::Empty,
                span: s,
            });
        }
        self.stmt()
    }

    pub(super) fn decl_stmt(&mut self) -> PResult<Stmt> {
        let specs = self.specs()?;
        if specs.typedef {
            self.typedef(specs, Vec::new())?;
            return Ok(Stmt {
                kind: StmtKind::Empty,
                span: self.prev_span(),
            });
        }
        if specs.ty.is_none() && specs.void && self.is("*") {
            // `void *p;`
        } else if specs.ty.is_none() {
            let t = self.tok().clone();
            self.error(
                t.span,
                format!("expected an integer type for a local variable, found {}", t.describe()),
                "`void` variables do not exist",
            );
            return Err(());
        }
        // `struct s { ... };` declares only a type.
        if (specs.unsupported || specs.tag) && self.eat(";") {
            return Ok(Stmt {
                kind: StmtKind::Empty,
                span: specs.span.to(self.prev_span()),
            });
        }
        let mut decls = Vec::new();
        loop {
            let d = self.declarator()?;
            let Some(name) = d.name.clone() else {
                let t = self.tok().clone();
                self.error(
                    t.span,
                    format!("expected a variable name, found {}", t.describe()),
                    "expected a variable name",
                );
                return Err(());
            };
            let span = d.span;
            match self.shape(self.decl_type(&specs, 0), with_typedef(&specs, d), false) {
                Shape::Function { .. } => {
                    self.unsupported(name.span, "local function declarations are not part of Cimple");
                    self.synchronize();
                    return Ok(Stmt {
                        kind: StmtKind::Empty,
                        span: specs.span,
                    });
                }
                Shape::Object { ctype: CType::Void, .. } => {
                    self.error(
                        name.span,
                        format!("variable `{}` declared `void`", name.name),
                        "invalid type",
                    );
                    return Err(());
                }
                Shape::Object { ctype, array, dims } => {
                    let d = self.var_declarator(ctype, name, array, dims, &specs)?;
                    if !specs.unsupported {
                        decls.push(d);
                    }
                }
                Shape::NotModelled(msg) => {
                    self.unsupported(span, msg);
                    self.var_declarator(CType::Int(IntType::Int), name, None, Vec::new(), &specs)?;
                }
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

    pub(super) fn paren_cond(&mut self, what: &str) -> PResult<Cond> {
        self.expect("(", what)?;
        let c = self.cond()?;
        self.expect(")", "to close the condition")?;
        Ok(c)
    }

    pub(super) fn cond(&mut self) -> PResult<Cond> {
        if self.is("*") && self.nth(1).is_punct(")") {
            return Ok(Cond::Star(self.bump().span));
        }
        Ok(Cond::Expr(self.expr()?))
    }
}
