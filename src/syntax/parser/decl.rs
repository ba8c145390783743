//! Parsing declarations: specifiers, top-level items, typedefs, variables,
//! parameter lists, function bodies (and K&R functions skipped).

use super::*;

impl Parser<'_> {
    pub(super) fn starts_type(&self) -> bool {
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

    /// `{ A, B = e, C, }`: each constant the previous one plus 1 unless
    /// given (lowering evaluates them as constant expressions).
    fn enumerators(&mut self) -> PResult<()> {
        self.expect("{", "to start the enumerators")?;
        let mut next = Expr {
            kind: ExprKind::Int(0, IntType::Int),
            span: self.tok().span,
        };
        while !self.is("}") && !self.at_eof() {
            let t = self.bump();
            let Some(name) = t.ident().map(str::to_string) else {
                self.error(t.span, "expected an enumeration constant", "not a name");
                return Err(());
            };
            let value = if self.eat("=") { self.ternary()? } else { next.clone() };
            let value = Expr {
                span: t.span,
                kind: ExprKind::Cast(IntType::Int, Box::new(value)),
            };
            next = Expr {
                span: t.span,
                kind: ExprKind::Binary(
                    BinOp::Add,
                    Box::new(value.clone()),
                    Box::new(Expr {
                        kind: ExprKind::Int(1, IntType::Int),
                        span: t.span,
                    }),
                ),
            };
            self.enum_consts.insert(name, value);
            if !self.eat(",") {
                break;
            }
        }
        self.expect("}", "to close the enumerators")?;
        Ok(())
    }

    pub(super) fn specs(&mut self) -> PResult<Specs> {
        let start = self.tok().span;
        let mut words: Vec<String> = Vec::new();
        let mut typedef = false;
        let mut unsupported = false;
        let mut named: Option<IntType> = None;
        let mut base: Option<CType> = None;
        let mut is_static = false;
        let mut is_const = false;
        let mut tag = false;
        loop {
            self.skip_attributes();
            let Some(w) = self.tok().ident().map(str::to_string) else {
                break;
            };
            if QUALIFIERS.contains(&w.as_str()) {
                is_static |= w == "static";
                is_const |= w == "const" || w == "__const";
                self.bump();
            } else if w == "typedef" {
                typedef = true;
                self.bump();
            } else if TYPE_WORDS.contains(&w.as_str()) {
                words.push(w);
                self.bump();
            } else if w == "enum" && words.is_empty() && named.is_none() {
                // An enumeration type is `int` here; its constants are
                // `int` constants.
                self.bump();
                if self.tok().ident().is_some() && !self.is("{") {
                    self.bump();
                }
                if self.is("{") {
                    self.enumerators()?;
                }
                named = Some(IntType::Int);
                tag = true;
            } else if matches!(w.as_str(), "struct" | "union") && words.is_empty() && named.is_none() && base.is_none()
            {
                self.bump();
                base = Some(self.struct_type(w == "union")?);
                tag = true;
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
            } else if words.is_empty() && named.is_none() && base.is_none() && self.typedefs.contains_key(&w) {
                match self.typedefs[&w].clone() {
                    CType::Int(t) => named = Some(t),
                    t => base = Some(t),
                }
                self.bump();
            } else {
                break;
            }
        }
        let span = start.to(self.prev_span());
        if let Some(b) = base.filter(|_| !unsupported) {
            if b == CType::Void {
                return Ok(Specs {
                    is_static,
                    is_const,
                    ty: None,
                    base: None,
                    void: true,
                    typedef,
                    span,
                    unsupported,
                    tag,
                });
            }
            return Ok(Specs {
                is_static,
                is_const,
                ty: Some(IntType::Int),
                base: Some(b),
                void: false,
                typedef,
                span,
                unsupported,
                tag,
            });
        }
        if unsupported {
            return Ok(Specs {
                is_static,
                is_const,
                ty: Some(IntType::Int),
                base: None,
                void: false,
                typedef,
                span,
                unsupported,
                tag,
            });
        }
        if let Some(t) = named {
            return Ok(Specs {
                is_static,
                is_const,
                ty: Some(t),
                base: None,
                void: false,
                typedef,
                span,
                unsupported,
                tag,
            });
        }
        if words.iter().any(|w| w == "void") {
            if words.len() > 1 {
                self.error(span, "`void` combined with other type words", "invalid type");
                return Err(());
            }
            return Ok(Specs {
                is_static,
                is_const,
                ty: None,
                base: None,
                void: true,
                typedef,
                span,
                unsupported,
                tag,
            });
        }
        if words.is_empty() {
            return Ok(Specs {
                is_static,
                is_const,
                ty: None,
                base: None,
                void: false,
                typedef,
                span,
                unsupported,
                tag,
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
            is_const,
            ty: Some(ty),
            base: None,
            void: false,
            typedef,
            span,
            unsupported,
            tag,
        })
    }

    /// After `struct` or `union`: `tag`, `tag { fields }` or `{ fields }`;
    /// a definition is kept in `self.structs`. A union's tag is `union T`
    /// (C keeps union tags apart from struct tags).
    fn struct_type(&mut self, union: bool) -> PResult<CType> {
        self.skip_attributes();
        let tag = match self.tok().ident() {
            Some(w) if !is_reserved(w) => {
                let w = w.to_string();
                self.bump();
                w
            }
            _ => {
                self.anonymous += 1;
                format!("<anonymous {}>", self.anonymous)
            }
        };
        let tag = if union { format!("{UNION}{tag}") } else { tag };
        if !self.is("{") {
            return Ok(CType::Struct(tag));
        }
        let open = self.bump().span;
        let mut fields = Vec::new();
        while !self.is("}") && !self.at_eof() {
            let specs = self.specs()?;
            loop {
                let stars = self.stars();
                let name = self.expect_ident("a field name")?;
                let mut array = None;
                if self.eat("[") {
                    array = Some(self.assign_expr()?);
                    self.expect("]", "after the array size")?;
                }
                self.skip_attributes();
                let ty = self.decl_type(&specs, stars);
                fields.push(Field { ty, name, array });
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(";", "after a field")?;
        }
        let close = self.expect("}", "to close the struct")?;
        self.skip_attributes();
        if self.structs.iter().any(|d| d.tag == tag) {
            let name = CType::Struct(tag.clone()).c_name();
            self.error(open, format!("`{name}` is defined twice"), "second definition");
        } else {
            self.structs.push(StructDef {
                tag: tag.clone(),
                fields,
                span: open.to(close),
            });
        }
        Ok(CType::Struct(tag))
    }

    /// The `*`s of a declarator: how many (qualifiers skipped).
    pub(super) fn stars(&mut self) -> usize {
        let mut n = 0;
        while self.eat("*") {
            n += 1;
            while self.tok().ident().is_some_and(|w| QUALIFIERS.contains(&w)) {
                self.bump();
            }
        }
        n
    }

    /// The type of a declarator with `stars` `*`s after `specs`.
    pub(super) fn decl_type(&self, specs: &Specs, stars: usize) -> CType {
        let mut t = match (&specs.base, specs.ty) {
            (Some(b), _) => b.clone(),
            (None, Some(t)) if !specs.void => CType::Int(t),
            _ => CType::Void,
        };
        for _ in 0..stars {
            t = t.ptr();
        }
        t
    }

    pub(super) fn top_level(&mut self, items: &mut Vec<Item>) -> PResult<()> {
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
        if (specs.unsupported || specs.tag) && self.eat(";") {
            return Ok(());
        }
        let ret_ty = specs.ty;
        if !specs.void && ret_ty.is_none() && specs.base.is_none() {
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
            let stars = self.stars();
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
                let ret_mem = Some(self.decl_type(&specs, stars)).filter(|t| !t.is_int() && *t != CType::Void);
                if self.is("{") {
                    if !decls.is_empty() {
                        self.error(
                            name.span,
                            "a function definition cannot follow variable declarations in one declaration",
                            "unexpected function body",
                        );
                    }
                    return self.function_body(ret, name, params, specs.span, ret_mem, specs.unsupported, items);
                }
                // A prototype.
                let (params, _) = params;
                items.push(Item::Prototype(Prototype {
                    ret,
                    ret_mem,
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
            if specs.void && stars == 0 {
                self.error(
                    name.span,
                    format!("variable `{}` declared `void`", name.name),
                    "a variable needs an integer type",
                );
                return Err(());
            }
            let d = self.var_declarator(self.decl_type(&specs, stars), name, &specs)?;
            if !specs.unsupported {
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

    pub(super) fn typedef(&mut self, specs: Specs) -> PResult<()> {
        loop {
            let stars = self.stars();
            let name = self.expect_ident("a type name")?;
            if self.is("[") || self.is("(") {
                self.unsupported(name.span, "array and function typedefs are not part of Cimple");
                self.synchronize_top();
                return Ok(());
            }
            if !specs.unsupported {
                let t = self.decl_type(&specs, stars);
                if t == CType::Void {
                    self.unsupported(name.span, "`typedef void` is not part of Cimple");
                } else {
                    self.typedefs.insert(name.name, t);
                }
            }
            if !self.eat(",") {
                break;
            }
        }
        self.expect(";", "after a typedef")?;
        Ok(())
    }

    pub(super) fn var_declarator(&mut self, ctype: CType, name: Ident, specs: &Specs) -> PResult<VarDecl> {
        let scalar = matches!(ctype, CType::Int(_));
        let ty = match ctype {
            CType::Int(t) => t,
            _ => IntType::Int,
        };
        let specs_span = specs.span;
        let mut array = None;
        let mut open_size = None;
        if self.eat("[") {
            if self.is("]") && self.peek_is(1, "=") {
                // `char s[] = "abc";`, `int a[] = {1, 2}`: sized by the initialiser.
                open_size = Some(self.bump().span);
            } else if self.is("]") {
                let t = self.tok().span;
                self.error(t, "an array needs a constant size", "size missing");
                return Err(());
            } else {
                array = Some(self.assign_expr()?);
                self.expect("]", "after the array size")?;
            }
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
                let (elems, close) = self.init_list()?;
                init = Some(Init::List(elems, open.to(close)));
            } else if matches!(self.tok().kind, TokKind::Str(_)) && (array.is_some() || open_size.is_some()) {
                // `char s[8] = "ab";`: the characters, and the NUL when it fits.
                let (bytes, span) = self.string_literal();
                let exact = matches!(&array, Some(Expr { kind: ExprKind::Int(n, _), .. }) if *n == bytes.len() as i64);
                init = Some(Init::List(super::char_elements(&bytes, !exact, span), span));
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
        if let Some(at) = open_size {
            let Some(Init::List(elems, _)) = &init else {
                self.error(at, "an array needs a constant size", "size missing");
                return Err(());
            };
            array = Some(Expr {
                kind: ExprKind::Int(elems.len() as i64, IntType::Int),
                span: at,
            });
        }
        let span = specs_span.to(self.prev_span());
        let is_array = array.is_some();
        Ok(VarDecl {
            ty,
            ctype,
            name,
            array,
            init,
            span,
            is_static: specs.is_static,
            is_const: specs.is_const && scalar && !is_array,
            arbitrary: false,
        })
    }

    /// The elements of `{ ... }` after its `{`, and the span of its `}`;
    /// a nested list is an `InitList` element.
    fn init_list(&mut self) -> PResult<(Vec<Expr>, Span)> {
        let mut elems = Vec::new();
        while !self.is("}") && !self.at_eof() {
            if self.is("{") {
                let open = self.bump().span;
                let (inner, close) = self.init_list()?;
                elems.push(Expr {
                    kind: ExprKind::InitList(inner),
                    span: open.to(close),
                });
            } else {
                elems.push(self.assign_expr()?);
            }
            if !self.eat(",") {
                break;
            }
        }
        let close = self.expect("}", "to close the initialiser list")?;
        Ok((elems, close))
    }

    /// A parameter list; returns `None` for parameters when the list is
    /// empty-and-unspecified (`f()` in a prototype) or uses types outside
    /// Cimple. The flag says whether any parameter was outside Cimple.
    #[allow(clippy::type_complexity)]
    pub(super) fn param_list(&mut self) -> PResult<(Option<Vec<Param>>, Vec<(Span, String)>)> {
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
                let mut stars = self.stars();
                let name = if self.tok().ident().is_some_and(|w| !is_reserved(w)) {
                    Some(self.expect_ident("a parameter name")?)
                } else {
                    None
                };
                // `int a[]`, `int a[N]`: a pointer (C11 6.7.6.3); a second
                // dimension is outside what is supported.
                let mut dims = 0;
                while self.is("[") {
                    self.skip_balanced("[", "]");
                    dims += 1;
                }
                stars += dims.min(1);
                self.skip_attributes();
                let span = start.to(self.prev_span());
                if specs.void && stars == 0 {
                    self.error(span, "a parameter cannot have type `void`", "invalid parameter");
                    return Err(());
                }
                if specs.ty.is_none() && !specs.void && specs.base.is_none() {
                    self.error(span, "expected a parameter type", "type missing");
                    return Err(());
                }
                if dims > 1 {
                    issues.push((
                        span,
                        "multi-dimensional array parameters are not part of Cimple".to_string(),
                    ));
                }
                let ctype = self.decl_type(&specs, stars);
                params.push(Param {
                    ty: specs.ty.filter(|_| ctype.is_int()).unwrap_or(IntType::Int),
                    ctype,
                    name,
                    span,
                    pointer: specs.unsupported || dims > 1,
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
    pub(super) fn function_body(
        &mut self,
        ret: RetType,
        name: Ident,
        params: (Option<Vec<Param>>, Vec<(Span, String)>),
        start: Span,
        ret_mem: Option<CType>,
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
        // Parameters of unsupported types are only a problem if the body
        // uses them; lowering decides that, so they are kept apart here.
        for (span, msg) in param_issues {
            if !msg.starts_with("multi-dimensional array parameters") {
                unsupported.push((span, msg));
            }
        }
        if unsupported_ret {
            unsupported.push((start, "the return type is not part of Cimple".into()));
        }
        items.push(Item::Function(Function {
            ret,
            ret_mem,
            name,
            params,
            span: start.to(body.span),
            body,
            unsupported,
        }));
        Ok(())
    }

    /// `name(a, b) int a; char *b[]; { ... }` -- reported and skipped.
    pub(super) fn skip_knr_function(&mut self, items: &mut Vec<Item>) -> PResult<()> {
        let name = self.expect_ident("a function name")?;
        let start = name.span;
        self.skip_balanced("(", ")");
        if self.is(";") {
            // An implicit-int prototype: accept it like any prototype.
            self.bump();
            items.push(Item::Prototype(Prototype {
                ret: RetType::Int(IntType::Int),
                ret_mem: None,
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
}
