//! Old-style (K&R) function definitions, as C89 wrote them and gcc still
//! accepts (C90 6.5.2 and 6.7.1): with no return type (implicit `int`),
//! `main(argc, argv) int argc; char *argv[]; { ... }` or `f(void) {...}`;
//! with one, `int f(a) int a; {` (its identifier list read by
//! `param_list`, typed in `top_level` by `knr_params`).
//! The identifiers are the parameters in order; the declarations before the
//! body give their types, `int` for any not declared. A call of such a
//! function converts its arguments as a prototype would: for the types the
//! model holds, the default argument promotions followed by the callee's
//! conversion give the same values.

use super::*;

/// Types outside the model met in declarations, and where.
type Issues = Vec<(Span, String)>;

impl Parser<'_> {
    /// `name(...)` at file scope with no type in front.
    pub(super) fn knr_function(&mut self, items: &mut Vec<Item>) -> PResult<()> {
        let name = self.expect_ident("a function name")?;
        let start = name.span;
        let ansi = self.nth(1).is_punct(")") || {
            let saved = self.pos;
            self.bump();
            let typed = self.starts_type();
            self.pos = saved;
            typed
        };
        if ansi {
            // `f(void) { ... }`, `f(int a);`: a parameter list as in a
            // prototype, the return type `int`.
            let params = self.param_list()?;
            if self.eat(";") {
                let (params, issues) = params;
                items.push(Item::Prototype(Prototype {
                    ret: RetType::Int(IntType::Int),
                    ret_mem: None,
                    name,
                    not_modelled: issues.first().map(|(_, m)| m.clone()),
                    params: params.filter(|_| issues.is_empty()),
                    span: start.to(self.prev_span()),
                }));
                return Ok(());
            }
            return self.function_body(RetType::Int(IntType::Int), name, params, start, None, Vec::new(), items);
        }
        self.expect("(", "to start the parameter list")?;
        let mut names: Vec<Ident> = Vec::new();
        while !self.is(")") {
            names.push(self.expect_ident("a parameter name")?);
            if !self.eat(",") {
                break;
            }
        }
        self.expect(")", "to close the parameter list")?;
        if self.eat(";") {
            // An implicit-int declaration `f();` (names here are not C).
            items.push(Item::Prototype(Prototype {
                ret: RetType::Int(IntType::Int),
                ret_mem: None,
                name,
                params: None,
                not_modelled: None,
                span: start.to(self.prev_span()),
            }));
            return Ok(());
        }
        if self.at_eof() {
            self.error(start, format!("function `{}` has no body", name.name), "expected `{`");
            return Err(());
        }
        let (params, issues) = self.knr_params(&names)?;
        self.function_body(
            RetType::Int(IntType::Int),
            name,
            (Some(params), issues),
            start,
            None,
            Vec::new(),
            items,
        )
    }

    /// The parameters `names` of a K&R definition, typed by the declarations
    /// up to its body (`int` where none is given).
    pub(super) fn knr_params(&mut self, names: &[Ident]) -> PResult<(Vec<Param>, Issues)> {
        let mut declared: Vec<Option<Param>> = vec![None; names.len()];
        let mut issues = Vec::new();
        while !self.is("{") && !self.at_eof() {
            self.knr_declaration(names, &mut declared, &mut issues)?;
        }
        let params = names
            .iter()
            .zip(declared)
            .map(|(n, d)| {
                d.unwrap_or_else(|| Param {
                    ty: IntType::Int,
                    ctype: CType::Int(IntType::Int),
                    name: Some(n.clone()),
                    span: n.span,
                    pointer: false,
                    pointee_const: false,
                })
            })
            .collect();
        Ok((params, issues))
    }

    /// At a parameter list's first name: is it an identifier list followed
    /// by declarations (`f(a, b) int a; {`)? Names alone followed by `;`
    /// are a prototype's parameters of unknown types instead.
    pub(super) fn knr_list_ahead(&self) -> bool {
        let mut k = 0;
        loop {
            let t = self.nth(k);
            match t.ident() {
                Some(w) if !self.typedefs.contains_key(w) && !is_reserved(w) && !TYPE_WORDS.contains(&w) => {}
                _ => return false,
            }
            if self.nth(k + 1).is_punct(",") {
                k += 2;
                continue;
            }
            if !self.nth(k + 1).is_punct(")") {
                return false;
            }
            return self.nth(k + 2).ident().is_some_and(|w| {
                TYPE_WORDS.contains(&w)
                    || QUALIFIERS.contains(&w)
                    || self.typedefs.contains_key(w)
                    || matches!(w, "struct" | "union" | "enum")
            });
        }
    }

    /// One declaration of a K&R definition's parameters: `int a, *b;`.
    fn knr_declaration(
        &mut self,
        names: &[Ident],
        declared: &mut [Option<Param>],
        issues: &mut Vec<(Span, String)>,
    ) -> PResult<()> {
        if !self.starts_type() {
            let t = self.tok().clone();
            self.error(
                t.span,
                format!("expected a parameter declaration or `{{`, found {}", t.describe()),
                "expected a type such as `int`",
            );
            return Err(());
        }
        let start = self.tok().span;
        let saved = self.in_function.replace(Vec::new());
        let specs = self.specs();
        issues.append(&mut std::mem::replace(&mut self.in_function, saved).unwrap_or_default());
        let specs = specs?;
        loop {
            let d = self.declarator()?;
            let span = start.to(self.prev_span());
            let Some(at) = d
                .name
                .as_ref()
                .and_then(|n| names.iter().position(|m| m.name == n.name))
            else {
                let what = d
                    .name
                    .as_ref()
                    .map_or("a declaration".to_string(), |n| format!("`{}`", n.name));
                self.error(
                    d.span,
                    format!("{what} is not a parameter of this function"),
                    "not in the parameter list",
                );
                return Err(());
            };
            if declared[at].is_some() {
                self.error(
                    d.span,
                    format!("parameter `{}` declared twice", names[at].name),
                    "declared before",
                );
                return Err(());
            }
            declared[at] = Some(self.param(&specs, d, span, issues)?);
            if !self.eat(",") {
                break;
            }
        }
        self.expect(";", "after a parameter declaration").map(|_| ())
    }
}
