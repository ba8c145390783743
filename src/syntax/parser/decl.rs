//! Parsing declarations: specifiers, top-level items, typedefs, variables
//! (their initialisers in `var.rs`),
//! parameter lists, function bodies (K&R definitions in `knr.rs`).

use super::declarator::Declarator;
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
                    || self.unmodelled_types.contains_key(w)
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
        let mut steps = Vec::new();
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
                if base.is_some() || named.is_some() {
                    self.second_type(tag, &w);
                    return Err(());
                }
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
            } else if words.is_empty() && named.is_none() && base.is_none() && self.unmodelled_types.contains_key(&w) {
                let t = self.bump();
                let why = self.unmodelled_types[&w].clone();
                self.unsupported(t.span, format!("the type `{w}`: {why}"));
                unsupported = true;
            } else if words.is_empty() && named.is_none() && base.is_none() && self.typedefs.contains_key(&w) {
                match self.typedefs[&w].clone() {
                    CType::Int(t) => named = Some(t),
                    t => base = Some(t),
                }
                steps = self.typedef_steps.get(&w).cloned().unwrap_or_default();
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
                    steps: std::mem::take(&mut steps),
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
                steps: std::mem::take(&mut steps),
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
                steps: std::mem::take(&mut steps),
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
                steps: std::mem::take(&mut steps),
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
                steps: std::mem::take(&mut steps),
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
                steps: std::mem::take(&mut steps),
            });
        }
        let count = |w: &str| words.iter().filter(|x| x.as_str() == w).count();
        let unsigned = count("unsigned") > 0;
        if count("float") + count("double") > 0 {
            let ty = self.float_specs(&words, span);
            return Ok(Specs {
                is_static,
                is_const,
                ty: Some(ty.unwrap_or(IntType::Int)),
                base: None,
                void: false,
                typedef,
                span,
                unsupported: ty.is_none(),
                tag,
                steps: std::mem::take(&mut steps),
            });
        }
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
            steps,
        })
    }

    /// `float` or `double` alone (`long double`, x87's 80 bits, is not
    /// modelled: reported as unsupported, `None`).
    fn float_specs(&mut self, words: &[String], span: Span) -> Option<IntType> {
        match words {
            [w] if w == "float" => Some(IntType::Float),
            [w] if w == "double" => Some(IntType::Double),
            _ if words.iter().any(|w| w == "long") && words.iter().any(|w| w == "double") => {
                self.unsupported(
                    span,
                    "`long double` is not part of Cimple (x87 80-bit extended precision); use `double`",
                );
                None
            }
            _ => {
                self.error(span, "`float`/`double` combined with other type words", "invalid type");
                None
            }
        }
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
        let mut not_modelled = Vec::new();
        while !self.is("}") && !self.at_eof() {
            let before = self.pos;
            let (specs, issues) = self.specs_collected()?;
            loop {
                let d = self.declarator()?;
                let name = d.name.clone().unwrap_or(Ident {
                    name: String::new(),
                    span: d.span,
                });
                let bits = if self.eat(":") { Some(self.ternary()?) } else { None };
                self.skip_attributes();
                let why = if bits.is_some() {
                    Some("bitfields are not modelled yet".to_string())
                } else if let Some((_, m)) = issues.first() {
                    Some(m.clone())
                } else if d.name.is_none() {
                    Some("anonymous members are not modelled yet".to_string())
                } else {
                    match self.shape(self.decl_type(&specs, 0), with_typedef(&specs, d), false) {
                        Shape::Object {
                            ctype: CType::Void,
                            array: None | Some(Some(_)),
                            ..
                        } => Some("a field of type `void`".to_string()),
                        Shape::Object { dims, .. } if !dims.is_empty() => {
                            Some("arrays of arrays and pointers to arrays as fields are not modelled yet".to_string())
                        }
                        Shape::Object { ctype, array, .. } => match array {
                            Some(None) => Some("flexible array members are not modelled yet".to_string()),
                            array => {
                                fields.push(Field {
                                    ty: ctype,
                                    name: name.clone(),
                                    array: array.flatten(),
                                });
                                None
                            }
                        },
                        Shape::Function { .. } => {
                            self.error(name.span, "a field cannot have a function type", "not a pointer");
                            None
                        }
                        Shape::NotModelled(m) => Some(m),
                    }
                };
                if let Some(m) = why {
                    not_modelled.push((name, m));
                }
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(";", "after a field")?;
            if self.pos == before {
                // Nothing read (a `;` taken as missing before a token that
                // starts no field): stop rather than report it forever.
                let t = self.tok().clone();
                self.error(
                    t.span,
                    format!("expected a field, found {}", t.describe()),
                    "not a field",
                );
                return Err(());
            }
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
                not_modelled,
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
            return self.knr_function(items);
        }
        let pointer_to_unknown = !self.starts_type()
            && self
                .tok()
                .ident()
                .is_some_and(|w| !is_reserved(w) && !w.starts_with("__"))
            && self.nth(1).is_punct("*");
        if self.unknown_type_ahead() || pointer_to_unknown {
            self.unknown_type();
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
        let (specs, issues) = self.specs_collected()?;
        if specs.typedef {
            return self.typedef(specs, issues);
        }
        // `struct s { ... };` declares only a type.
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
            let d = self.declarator()?;
            let Some(name) = d.name.clone() else {
                let t = self.tok().clone();
                self.error(
                    t.span,
                    format!("expected a name, found {}", t.describe()),
                    "expected a name",
                );
                return Err(());
            };
            let span = d.span;
            let typedef_fn = d.steps.is_empty();
            match self.shape(self.decl_type(&specs, 0), with_typedef(&specs, d), false) {
                Shape::Function { ret_stars, params, ret } => {
                    let ret_c = ret.clone().unwrap_or_else(|| self.decl_type(&specs, ret_stars));
                    let ret = match (ret, specs.void, ret_ty) {
                        (Some(CType::Void), ..) | (None, true, _) => RetType::Void,
                        (Some(CType::Int(t)), ..) | (None, false, Some(t)) => RetType::Int(t),
                        _ => RetType::Int(IntType::Int),
                    };
                    let ret_mem = Some(ret_c).filter(|t| !t.is_int() && *t != CType::Void);
                    if typedef_fn && self.is("{") {
                        self.error(
                            name.span,
                            "a function definition cannot take its type from a typedef name (not allowed in C)",
                            "write the parameters here",
                        );
                        return Err(());
                    }
                    let params = match self.knr_names.take() {
                        Some(names) => {
                            let (typed, issues) = self.knr_params(&names)?;
                            (Some(typed), issues)
                        }
                        None => params,
                    };
                    if self.is("{") {
                        if !decls.is_empty() {
                            self.error(
                                name.span,
                                "a function definition cannot follow variable declarations in one declaration",
                                "unexpected function body",
                            );
                        }
                        return self.function_body(ret, name, params, specs.span, ret_mem, issues, items);
                    }
                    // A prototype: a type outside the model is an error
                    // only where a call uses it.
                    let (params, param_issues) = params;
                    let not_modelled = issues.iter().chain(&param_issues).map(|(_, m)| m.clone()).next();
                    items.push(Item::Prototype(Prototype {
                        ret,
                        ret_mem,
                        name: name.clone(),
                        params: params.filter(|_| issues.is_empty()),
                        not_modelled,
                        span: specs.span.to(self.prev_span()),
                    }));
                    if self.eat(",") {
                        continue;
                    }
                    self.expect(";", "after a function declaration")?;
                    return Ok(());
                }
                Shape::Object { ctype, array, dims } => {
                    if ctype == CType::Void {
                        self.error(
                            name.span,
                            format!("variable `{}` declared `void`", name.name),
                            "a variable needs an integer type",
                        );
                        return Err(());
                    }
                    let d = self.var_declarator(ctype, name, array, dims, &specs)?;
                    if issues.is_empty() && !specs.unsupported {
                        decls.push(d);
                    }
                    self.report_issues(&issues);
                }
                Shape::NotModelled(msg) => {
                    self.report_issues(&[(span, msg)]);
                    self.var_declarator(CType::Int(IntType::Int), name, None, Vec::new(), &specs)?;
                }
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

    /// Types outside the model in a declaration that needs them (a global
    /// variable): errors.
    fn report_issues(&mut self, issues: &[(Span, String)]) {
        for (span, msg) in issues {
            self.diags
                .push(Diag::error(Class::Unsupported, *span, msg.clone()).with_label("outside the Cimple subset"));
        }
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
        if self.knr_list_ahead() {
            // `int f(a, b) int a; ...`: typed where the definition declares
            // them (`top_level`).
            let mut names = vec![self.expect_ident("a parameter name")?];
            while self.eat(",") {
                names.push(self.expect_ident("a parameter name")?);
            }
            self.expect(")", "to close the parameter list")?;
            self.knr_names = Some(names);
            return Ok((Some(Vec::new()), issues));
        }
        loop {
            if self.is("...") {
                let t = self.bump();
                issues.push((t.span, "variadic functions are not part of Cimple".to_string()));
            } else {
                if self.unknown_param_type() {
                    self.unknown_type();
                }
                let start = self.tok().span;
                // Parameter types are parsed outside any function body, so
                // unsupported types are collected here, not reported.
                let saved = self.in_function.replace(Vec::new());
                let specs = self.specs();
                let mut inner = std::mem::replace(&mut self.in_function, saved).unwrap_or_default();
                let specs = specs?;
                issues.append(&mut inner);
                let d = self.declarator()?;
                let span = start.to(self.prev_span());
                params.push(self.param(&specs, d, span, &mut issues)?);
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

    /// A parameter declared by `specs` and `d` (in a prototype's list or a
    /// K&R definition's declarations); types outside the model go to
    /// `issues`.
    pub(super) fn param(
        &mut self,
        specs: &Specs,
        d: Declarator,
        span: Span,
        issues: &mut Vec<(Span, String)>,
    ) -> PResult<Param> {
        if specs.void && d.steps.is_empty() {
            self.error(span, "a parameter cannot have type `void`", "invalid parameter");
            return Err(());
        }
        if specs.ty.is_none() && !specs.void && specs.base.is_none() {
            self.error(span, "expected a parameter type", "type missing");
            return Err(());
        }
        let name = d.name.clone();
        let base = self.decl_type(specs, 0);
        let to_base = base.clone().ptr();
        let (ctype, not_modelled) = match self.shape(base.clone(), with_typedef(specs, d), true) {
            Shape::Object { ctype, dims, .. } => {
                if let (Some(n), false) = (&name, dims.is_empty()) {
                    self.dims.push(ArrayDims {
                        name: n.span,
                        inner: dims,
                        open: false,
                    });
                }
                (ctype, false)
            }
            Shape::Function { .. } => unreachable!("a function parameter is adjusted to a pointer"),
            Shape::NotModelled(msg) => {
                issues.push((span, msg));
                (base.ptr(), true)
            }
        };
        let pointee_const = specs.is_const && ctype == to_base;
        Ok(Param {
            ty: specs.ty.filter(|_| ctype.is_int()).unwrap_or(IntType::Int),
            ctype,
            name,
            span,
            pointer: specs.unsupported || not_modelled,
            pointee_const,
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn function_body(
        &mut self,
        ret: RetType,
        name: Ident,
        params: (Option<Vec<Param>>, Vec<(Span, String)>),
        start: Span,
        ret_mem: Option<CType>,
        ret_issues: Vec<(Span, String)>,
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
        self.function_name = Some(name.name.clone());
        let body = self.block();
        self.function_name = None;
        let mut unsupported = std::mem::replace(&mut self.in_function, saved).unwrap_or_default();
        let body = body?;
        // Parameters of unsupported types are only a problem if the body
        // uses them; lowering decides that, so they are kept apart here.
        for (span, msg) in param_issues {
            if !msg.starts_with("multi-dimensional array parameters") && !msg.starts_with("pointers to arrays") {
                unsupported.push((span, msg));
            }
        }
        unsupported.extend(ret_issues);
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
}
