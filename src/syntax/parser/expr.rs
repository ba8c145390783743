//! Parsing expressions: assignments, `?:`, binary operators by precedence,
//! unary operators and casts, postfix forms, primaries.

use super::*;

impl Parser<'_> {
    pub(super) fn expr(&mut self) -> PResult<Expr> {
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

    pub(super) fn assign_expr(&mut self) -> PResult<Expr> {
        let lhs = self.ternary()?;
        let op = match &self.tok().kind {
            TokKind::Punct("=") => Some(AssignOp::Set),
            TokKind::Punct("+=") => Some(AssignOp::Add),
            TokKind::Punct("-=") => Some(AssignOp::Sub),
            TokKind::Punct("*=") => Some(AssignOp::Mul),
            TokKind::Punct("/=") => Some(AssignOp::Div),
            TokKind::Punct("%=") => Some(AssignOp::Mod),
            TokKind::Punct("&=") => Some(AssignOp::BitAnd),
            TokKind::Punct("|=") => Some(AssignOp::BitOr),
            TokKind::Punct("^=") => Some(AssignOp::BitXor),
            TokKind::Punct("<<=") => Some(AssignOp::Shl),
            TokKind::Punct(">>=") => Some(AssignOp::Shr),
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

    pub(super) fn ternary(&mut self) -> PResult<Expr> {
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
    pub(super) fn binary(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.unary()?;
        while let Some((op, prec)) = binary_operator(self.tok()) {
            if prec < min_prec.max(1) {
                break;
            }
            self.bump();
            let rhs = self.binary(prec + 1)?;
            let span = lhs.span.to(rhs.span);
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                span,
            };
        }
        Ok(lhs)
    }

    pub(super) fn unary(&mut self) -> PResult<Expr> {
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
            TokKind::Ident(w) if w == "__extension__" => {
                // gcc's marker that an extension follows: no meaning here.
                self.bump();
                self.unary()
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
                let e = self.unary()?;
                let span = t.span.to(e.span);
                Ok(un(UnOp::BitNot, e, span))
            }
            TokKind::Punct(p @ ("*" | "&")) => {
                let deref = *p == "*";
                self.bump();
                let e = Box::new(self.unary()?);
                let span = t.span.to(e.span);
                let kind = if deref { ExprKind::Deref(e) } else { ExprKind::AddrOf(e) };
                Ok(Expr { kind, span })
            }
            TokKind::Ident(w) if w == "sizeof" => {
                self.bump();
                if self.is("(") && self.is_cast() {
                    // `sizeof(type)`: a constant of type `unsigned int`
                    // (`size_t` on ILP32); a pointer is 4 bytes.
                    self.bump();
                    let specs = self.specs()?;
                    let stars = self.stars();
                    if !specs.steps.is_empty() {
                        let mut steps = Vec::new();
                        while self.eat("[") {
                            steps.push(declarator::Step::Array(Some(self.expr()?)));
                            self.expect("]", "to close the array size")?;
                        }
                        steps.extend((0..stars).map(|_| declarator::Step::Ptr));
                        let close = self.expect(")", "to close `sizeof(...)`")?;
                        return Ok(self.typedef_size(&specs, steps, t.span.to(close)));
                    }
                    let ty = self.decl_type(&specs, stars);
                    if let (CType::Struct(_), false) = (&ty, self.is("[")) {
                        let close = self.expect(")", "to close `sizeof(...)`")?;
                        return Ok(Expr {
                            kind: ExprKind::SizeOfType(ty),
                            span: t.span.to(close),
                        });
                    }
                    let mut size = match (stars, specs.ty) {
                        (1.., _) => 4,
                        (0, Some(ty)) if !specs.void && !specs.unsupported && specs.base.is_none() => ty.size(),
                        _ => {
                            if !specs.unsupported {
                                self.unsupported(specs.span, "`sizeof` of this type is not part of Cimple");
                            }
                            1
                        }
                    };
                    while self.eat("[") {
                        let n = self.expr()?;
                        self.expect("]", "to close the array size")?;
                        match n.kind {
                            ExprKind::Int(k, _) => size *= k,
                            _ => self.unsupported(n.span, "`sizeof` of an array type needs a literal size here"),
                        }
                    }
                    let close = self.expect(")", "to close `sizeof(...)`")?;
                    return Ok(Expr {
                        kind: ExprKind::Int(size, IntType::UInt),
                        span: t.span.to(close),
                    });
                }
                let e = self.unary()?;
                let span = t.span.to(e.span);
                Ok(Expr {
                    kind: ExprKind::SizeOf(Box::new(e)),
                    span,
                })
            }
            TokKind::Punct("(") if self.is_cast() => {
                self.bump();
                let saved_pos = self.pos;
                let specs = self.specs()?;
                let stars = self.stars();
                self.expect(")", "to close the cast")?;
                let e = self.unary()?;
                let span = t.span.to(e.span);
                if specs.void && stars == 0 {
                    // `(void)e`: the value is discarded; `e` is still
                    // evaluated.
                    return Ok(e);
                }
                if !specs.steps.is_empty() {
                    let s = self.toks[saved_pos].span;
                    self.unsupported(s, "casts to an array typedef or a pointer to one are not modelled yet");
                    return Ok(e);
                }
                let ty = self.decl_type(&specs, stars);
                if !ty.is_int() {
                    if specs.unsupported {
                        return Ok(e);
                    }
                    if let CType::Struct(_) = ty {
                        let s = self.toks[saved_pos].span;
                        self.unsupported(s, "casts to struct types are not part of Cimple");
                        return Ok(e);
                    }
                    return Ok(Expr {
                        kind: ExprKind::PtrCast(ty, Box::new(e)),
                        span,
                    });
                }
                Ok(Expr {
                    kind: ExprKind::Cast(specs.ty.unwrap_or(IntType::Int), Box::new(e)),
                    span,
                })
            }
            _ => self.postfix(),
        }
    }

    pub(super) fn is_cast(&self) -> bool {
        match self.nth(1).ident() {
            Some(w) => {
                TYPE_WORDS.contains(&w)
                    || self.typedefs.contains_key(w)
                    || self.unmodelled_types.contains_key(w)
                    || matches!(
                        w,
                        "const" | "volatile" | "struct" | "union" | "enum" | "float" | "double"
                    )
            }
            None => false,
        }
    }

    pub(super) fn postfix(&mut self) -> PResult<Expr> {
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
                let _ = open;
                e = match e.kind {
                    ExprKind::Var(name) => Expr {
                        kind: ExprKind::Index(name, Box::new(idx)),
                        span,
                    },
                    _ => Expr {
                        kind: ExprKind::IndexOf(Box::new(e), Box::new(idx)),
                        span,
                    },
                };
            } else if self.is("(") {
                self.bump();
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
                    _ => Expr {
                        kind: ExprKind::CallPtr(Box::new(e), args),
                        span,
                    },
                };
            } else if self.is(".") || self.is("->") {
                let arrow = self.bump().is_punct("->");
                let field = self.expect_ident("a field name")?;
                let span = e.span.to(field.span);
                e = Expr {
                    kind: ExprKind::Member(Box::new(e), field, arrow),
                    span,
                };
            } else {
                return Ok(e);
            }
        }
    }

    pub(super) fn primary(&mut self) -> PResult<Expr> {
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
            TokKind::Str(_) => {
                let (bytes, span) = self.string_literal();
                self.strings.push((bytes, span));
                let name = format!("{STRING}{}", self.strings.len());
                Ok(Expr {
                    kind: ExprKind::Var(Ident { name, span }),
                    span,
                })
            }
            TokKind::Float { bits, ty } => {
                self.bump();
                Ok(Expr {
                    kind: ExprKind::Float(*bits, *ty),
                    span: t.span,
                })
            }
            // C11 6.4.2.2: `__func__` is the function's name as a string
            // (gcc's `__FUNCTION__` and, in C, `__PRETTY_FUNCTION__` too).
            TokKind::Ident(w)
                if matches!(w.as_str(), "__func__" | "__FUNCTION__" | "__PRETTY_FUNCTION__")
                    && self.function_name.is_some() =>
            {
                self.bump();
                let bytes = self.function_name.clone().unwrap_or_default().into_bytes();
                self.strings.push((bytes, t.span));
                let name = format!("{STRING}{}", self.strings.len());
                Ok(Expr {
                    kind: ExprKind::Var(Ident { name, span: t.span }),
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
            TokKind::Ident(w) if self.enum_consts.contains_key(w.as_str()) => {
                self.bump();
                let value = self.enum_consts[w.as_str()].clone();
                Ok(Expr {
                    kind: value.kind,
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
            TokKind::Punct("(") if self.nth(1).is_punct("{") => {
                // A GNU statement expression `({ ... })`.
                self.bump();
                let block = self.block()?;
                let close = self.expect(")", "to close the statement expression `({ ... })`")?;
                Ok(Expr {
                    kind: ExprKind::StmtExpr(block),
                    span: t.span.to(close),
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
