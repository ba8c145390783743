//! Designated initialisers (C11 6.7.9): `{ .top = 0 }`, `{ [2] = 5 }`,
//! `{ [RED] = "red" }`, `{ .p.x = 1, [1].name = "bo" }`. A list with a
//! designator is placed element by element into the positions of the type
//! it initialises, and comes out as the positional list the rest of the
//! front end reads, with C's zeros where nothing is written; a list without
//! one is left as written.

use super::*;

/// What an initialiser list fills, as far as designators need it.
#[derive(Clone, Debug)]
pub(super) enum Fill {
    Scalar,
    Struct(String),
    /// The element's shape and the number of elements, when constant.
    Array(Box<Fill>, Option<i64>),
    /// A type the parser cannot see into: a designator there is an error.
    Unknown,
}

impl Fill {
    /// The shape of an object of type `t`, an array of `len` when `array`,
    /// with inner dimensions `dims` (outermost first).
    pub(super) fn of(t: &CType, array: Option<Option<&Expr>>, dims: &[Expr]) -> Fill {
        let mut s = match t {
            CType::Struct(tag) => Fill::Struct(tag.clone()),
            CType::Void => Fill::Unknown,
            _ => Fill::Scalar,
        };
        for d in dims.iter().rev() {
            s = Fill::Array(Box::new(s), constant(d));
        }
        match array {
            Some(len) => Fill::Array(Box::new(s), len.and_then(constant)),
            None => s,
        }
    }

    fn aggregate(&self) -> bool {
        matches!(self, Fill::Struct(_) | Fill::Array(..))
    }
}

/// One designator: `.name` or `[index]`.
#[derive(Clone, Debug)]
pub(super) enum Designator {
    Field(Ident),
    Index(i64, Span),
}

/// A position of a list being placed: one value, or a list of its own
/// (a nested `{...}` or the target of a nested designator).
#[derive(Clone, Debug)]
pub(super) enum Slot {
    Value(Expr),
    List(Vec<Option<Slot>>, Span),
}

/// The value of a constant expression of a designator or array size:
/// literals, enumeration constants (already their values), casts and
/// arithmetic. `None` when it is not one.
pub(super) fn constant(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Int(v, _) => Some(*v),
        ExprKind::Cast(t, x) if !t.is_float() => constant(x),
        ExprKind::Unary(UnOp::Neg, x) => constant(x)?.checked_neg(),
        ExprKind::Unary(UnOp::Plus, x) => constant(x),
        ExprKind::Binary(op, a, b) => {
            let (a, b) = (constant(a)?, constant(b)?);
            match op {
                BinOp::Add => a.checked_add(b),
                BinOp::Sub => a.checked_sub(b),
                BinOp::Mul => a.checked_mul(b),
                BinOp::Div if b != 0 => a.checked_div(b),
                BinOp::Mod if b != 0 => a.checked_rem(b),
                BinOp::Shl if (0..31).contains(&b) => a.checked_shl(b as u32),
                _ => None,
            }
        }
        _ => None,
    }
}

impl Parser<'_> {
    /// The designators before an element of a list (`.a[2].b =`), empty
    /// when it has none.
    pub(super) fn designators(&mut self) -> PResult<Vec<Designator>> {
        let mut out = Vec::new();
        loop {
            if self.is(".") && matches!(self.nth(1).kind, TokKind::Ident(_)) {
                self.bump();
                out.push(Designator::Field(self.expect_ident("a member name after `.`")?));
            } else if self.is("[") {
                let open = self.bump().span;
                let e = self.assign_expr()?;
                if self.is("...") {
                    self.unsupported(
                        open.to(self.tok().span),
                        "a range designator `[a ... b]` (a GNU extension)",
                    );
                    return Err(());
                }
                let close = self.expect("]", "to close the designator")?;
                let span = open.to(close);
                match constant(&e) {
                    Some(k) if k >= 0 => out.push(Designator::Index(k, span)),
                    _ => {
                        self.error(
                            span,
                            "an array designator must be a non-negative integer constant",
                            "not a constant index",
                        );
                        return Err(());
                    }
                }
            } else {
                break;
            }
        }
        if !out.is_empty() {
            self.expect("=", "after the designator")?;
        }
        Ok(out)
    }

    /// The fields of struct `tag` as designators see them: names in order,
    /// whether it is a union, and each field's shape.
    fn fields(&self, tag: &str) -> Option<(Vec<(String, Fill)>, bool)> {
        let def = self.structs.iter().rev().find(|s| s.tag == tag)?;
        let fields = def
            .fields
            .iter()
            .map(|f| (f.name.name.clone(), Fill::of(&f.ty, f.array.as_ref().map(Some), &[])))
            .collect();
        Some((fields, tag.starts_with(UNION)))
    }

    /// The shape of position `k` of a list of shape `s`.
    pub(super) fn child(&self, s: &Fill, k: usize) -> Fill {
        match s {
            Fill::Array(elem, _) => (**elem).clone(),
            Fill::Struct(tag) => self
                .fields(tag)
                .and_then(|(fs, _)| fs.get(k).map(|(_, s)| s.clone()))
                .unwrap_or(Fill::Unknown),
            _ => Fill::Unknown,
        }
    }

    /// The position designator `d` names in a list of shape `s`.
    fn position(&mut self, s: &Fill, d: &Designator) -> PResult<usize> {
        match (s, d) {
            (Fill::Array(_, len), Designator::Index(k, span)) => {
                if len.is_some_and(|n| *k >= n) {
                    let n = len.unwrap_or(0);
                    self.error(
                        *span,
                        format!("array index {k} in the initialiser is past the end of the array ({n} elements)"),
                        "past the end",
                    );
                    return Err(());
                }
                Ok(*k as usize)
            }
            (Fill::Struct(tag), Designator::Field(id)) => {
                let found = self
                    .fields(tag)
                    .and_then(|(fs, union)| Some((fs.iter().position(|(n, _)| *n == id.name)?, union)));
                match found {
                    Some((k, true)) if k > 0 => {
                        self.unsupported(
                            id.span,
                            format!("initialising union member `{}`, not the first", id.name),
                        );
                        Err(())
                    }
                    Some((k, _)) => Ok(k),
                    None => {
                        self.error(
                            id.span,
                            format!("`{}` has no member `{}`", CType::Struct(tag.clone()).c_name(), id.name),
                            "no such member",
                        );
                        Err(())
                    }
                }
            }
            (_, Designator::Field(id)) => {
                self.error(
                    id.span,
                    format!("member designator `.{}` for a type that is not a struct", id.name),
                    "not a struct",
                );
                Err(())
            }
            (_, Designator::Index(_, span)) => {
                self.error(
                    *span,
                    "array designator for a type that is not an array",
                    "not an array",
                );
                Err(())
            }
        }
    }

    /// Writes `value` at the position of `desig` (nested designators go
    /// into the list at the first one's position) of `slots`, a list of
    /// shape `s`; returns the position written.
    pub(super) fn place(
        &mut self,
        slots: &mut Vec<Option<Slot>>,
        s: &Fill,
        desig: &[Designator],
        value: Slot,
    ) -> PResult<usize> {
        let k = self.position(s, &desig[0])?;
        if slots.len() <= k {
            slots.resize(k + 1, None);
        }
        if desig.len() == 1 {
            slots[k] = Some(value);
            return Ok(k);
        }
        let inner = self.child(s, k);
        let span = match &value {
            Slot::Value(e) => e.span,
            Slot::List(_, span) => *span,
        };
        let mut list = match slots[k].take() {
            Some(Slot::List(xs, _)) => xs,
            // A braced list or a string written before: its elements, some
            // overridden (as gcc does: `.s = "abc", .s[1] = 'Z'` is "aZc").
            Some(Slot::Value(Expr {
                kind: ExprKind::InitList(xs),
                ..
            })) => xs.into_iter().map(|x| Some(Slot::Value(x))).collect(),
            Some(Slot::Value(e)) if self.literal_bytes(&e).is_some() => {
                let bytes = self.literal_bytes(&e).unwrap_or_default();
                let xs = super::char_elements(&bytes, true, e.span);
                xs.into_iter().map(|x| Some(Slot::Value(x))).collect()
            }
            // A whole value written before is replaced (C11 6.7.9p19).
            _ => Vec::new(),
        };
        self.place(&mut list, &inner, &desig[1..], value)?;
        slots[k] = Some(Slot::List(list, span));
        Ok(k)
    }

    /// The bytes of string literal `e` (without its NUL).
    fn literal_bytes(&self, e: &Expr) -> Option<Vec<u8>> {
        let ExprKind::Var(id) = &e.kind else { return None };
        let k: usize = id.name.strip_prefix(STRING)?.parse().ok()?;
        self.strings.get(k.checked_sub(1)?).map(|(b, _)| b.clone())
    }

    /// Refuses a positional scalar written at position `k` of shape `s`
    /// (at `span`) where the type has an aggregate: brace elision, which a
    /// list with designators does not support. Whether it refused.
    pub(super) fn elided(&mut self, s: &Fill, k: usize, span: Span) -> bool {
        if !self.child(s, k).aggregate() {
            return false;
        }
        self.unsupported(
            span,
            "an initialiser without braces for an aggregate member, in a list with designators (write the braces)",
        );
        true
    }
}

impl Parser<'_> {
    /// The positional list of `slots` (a list of fill `f`), with C's zero
    /// where nothing was written: `0` for a scalar, `{}` for an aggregate.
    pub(super) fn positional(&self, f: &Fill, slots: Vec<Option<Slot>>, span: Span) -> Vec<Expr> {
        slots
            .into_iter()
            .enumerate()
            .map(|(k, s)| match s {
                Some(Slot::Value(e)) => e,
                Some(Slot::List(xs, span)) => Expr {
                    kind: ExprKind::InitList(self.positional(&self.child(f, k), xs, span)),
                    span,
                },
                None if matches!(self.child(f, k), Fill::Scalar) => Expr {
                    kind: ExprKind::Int(0, IntType::Int),
                    span,
                },
                None => Expr {
                    kind: ExprKind::InitList(Vec::new()),
                    span,
                },
            })
            .collect()
    }

    /// The fill at the end of designators `desig` in a list of fill `f`.
    pub(super) fn target_fill(&mut self, f: &Fill, desig: &[Designator]) -> PResult<Fill> {
        let mut f = f.clone();
        for d in desig {
            let k = self.position(&f, d)?;
            f = self.child(&f, k);
        }
        Ok(f)
    }
}
