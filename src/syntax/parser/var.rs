//! Parsing a variable's declarator tail: its array size and initialiser
//! (`= expr`, `= {...}` nested, `= "string"`, arrays sized by their
//! initialiser).

use super::designated::{Fill, Slot};
use super::*;

impl Parser<'_> {
    /// A variable's initialiser, after its declarator (of type `ctype`, an
    /// array when `array`, with inner dimensions `dims`, kept in
    /// `Program::dims`).
    pub(super) fn var_declarator(
        &mut self,
        ctype: CType,
        name: Ident,
        array: Option<Option<Expr>>,
        dims: Vec<Expr>,
        specs: &Specs,
    ) -> PResult<VarDecl> {
        let scalar = matches!(ctype, CType::Int(_));
        let ty = match ctype {
            CType::Int(t) => t,
            _ => IntType::Int,
        };
        let specs_span = specs.span;
        let mut open_size = None;
        let mut array = match array {
            // `char s[] = "abc";`, `int a[] = {1, 2}`: sized by the initialiser.
            Some(None) if self.is("=") => {
                open_size = Some(name.span);
                None
            }
            Some(None) => {
                self.error(name.span, "an array needs a constant size", "size missing");
                return Err(());
            }
            Some(Some(n)) => Some(n),
            None => None,
        };
        self.skip_attributes();
        let mut init = None;
        if self.eat("=") {
            if self.is("{") {
                let open = self.bump().span;
                // In an array of `char` arrays, `"ab"` stands for its characters.
                let rows = !dims.is_empty() && matches!(ctype, CType::Int(t) if t.size() == 1);
                let fill = Fill::of(&ctype, array.as_ref().map(Some).or(open_size.map(|_| None)), &dims);
                let (elems, close) = self.init_list(rows, &fill)?;
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
        if !dims.is_empty() {
            self.dims.push(ArrayDims {
                name: name.span,
                inner: dims,
                open: open_size.is_some(),
            });
        }
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

    /// The elements of `{ ... }` after its `{` (a list of fill `fill`),
    /// and the span of its `}`; a nested list is an `InitList` element, and
    /// so is a string literal when `rows` (its characters and a NUL, cut to
    /// the row's size later). A list with designators comes out positional
    /// (`designated.rs`).
    fn init_list(&mut self, rows: bool, fill: &Fill) -> PResult<(Vec<Expr>, Span)> {
        let mut slots: Vec<Option<Slot>> = Vec::new();
        let (mut next, mut designated, mut after_nested) = (0, false, false);
        let mut elided = Vec::new();
        while !self.is("}") && !self.at_eof() {
            let desig = self.designators()?;
            let inner = match desig.is_empty() {
                true => self.child(fill, next),
                false => self.target_fill(fill, &desig)?,
            };
            let value = self.init_element(rows, &inner)?;
            if desig.is_empty() {
                if after_nested {
                    self.unsupported(
                        value.span,
                        "an initialiser without designator after a nested designator (`.a.b = 1, 2`)",
                    );
                    return Err(());
                }
                if slots.len() <= next {
                    slots.resize(next + 1, None);
                }
                // A scalar where an aggregate goes (not a string for a
                // `char` array): refused later if the list has designators.
                let string = matches!(&value.kind, ExprKind::Var(id) if is_string_literal(&id.name));
                if !matches!(value.kind, ExprKind::InitList(_)) && !string {
                    elided.push((next, value.span));
                }
                slots[next] = Some(Slot::Value(value));
                next += 1;
            } else {
                designated = true;
                after_nested = desig.len() > 1;
                next = self.place(&mut slots, fill, &desig, Slot::Value(value))? + 1;
            }
            if !self.eat(",") {
                break;
            }
        }
        let close = self.expect("}", "to close the initialiser list")?;
        if designated && elided.into_iter().any(|(k, span)| self.elided(fill, k, span)) {
            return Err(());
        }
        Ok((self.positional(fill, slots, close), close))
    }

    /// One element of an initialiser list (of fill `fill`).
    fn init_element(&mut self, rows: bool, fill: &Fill) -> PResult<Expr> {
        if rows && matches!(self.tok().kind, TokKind::Str(_)) {
            let (bytes, span) = self.string_literal();
            return Ok(Expr {
                kind: ExprKind::InitList(super::char_elements(&bytes, true, span)),
                span,
            });
        }
        if self.is("{") {
            let open = self.bump().span;
            let (inner, close) = self.init_list(rows, fill)?;
            return Ok(Expr {
                kind: ExprKind::InitList(inner),
                span: open.to(close),
            });
        }
        self.assign_expr()
    }
}
