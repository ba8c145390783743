//! Sets of locations in annotations: `\valid`, `\separated`, and the
//! locations of `assigns`, over the memory model's objects.

use super::*;

impl Mem {
    /// A set of locations: `p`, `p + (lo..hi)`, `&a[i]`: the pointer's
    /// tag, the first and last offsets, the type pointed to.
    fn location_set(&mut self, e: &AE, cx: &Cx) -> Option<(AE, AE, AE, CType)> {
        let span = e.span;
        let (p, range) = match &e.kind {
            AK::Binary(AB::Add, p, r) if matches!(r.kind, AK::Range(..)) => (&**p, Some(&**r)),
            AK::Binary(AB::Add, r, p) if matches!(r.kind, AK::Range(..)) => (&**p, Some(&**r)),
            _ => (e, None),
        };
        let Value::Ptr { tag, off, to } = self.value(p, cx) else {
            self.acsl_error(span, "a set of locations is a pointer, `p + (lo..hi)` or `&x`");
            return None;
        };
        let (lo, hi) = match range.map(|r| &r.kind) {
            None => (off.clone(), off),
            Some(AK::Range(Some(lo), Some(hi))) => {
                let (lo, hi) = (self.int_term(lo, cx), self.int_term(hi, cx));
                (abin(AB::Add, off.clone(), lo, span), abin(AB::Add, off, hi, span))
            }
            Some(_) => {
                self.acsl_error(span, "a range of locations needs both bounds, `lo..hi`");
                return None;
            }
        };
        Some((tag, lo, hi, to))
    }

    /// `\valid(L)`: `L` is empty or some object holds all of it.
    pub(super) fn valid(&mut self, locs: &AE, cx: &Cx) -> AE {
        let span = locs.span;
        let Some((tag, lo, hi, to)) = self.location_set(locs, cx) else {
            return ae(AK::Bool(false), span);
        };
        let objs = self.objects_for(&tag, &to);
        if objs.is_empty() && self.emit && !matches!(tag.kind, AK::Int(_)) {
            // Then nothing valid is there to assume: say so, rather than
            // prove what relies on it from a false premise.
            self.diags.push(
                Diag::warning(
                    span,
                    format!(
                        "no object of type `{}` exists in this program, so this `\\valid` can never hold here",
                        to.c_name()
                    ),
                )
                .with_label("never valid")
                .with_note("what assumes it holds vacuously: check the function as the entry (`--entry`), where its pointer parameters point to arrays of their own"),
            );
        }
        let mut cases = vec![abin(AB::Gt, lo.clone(), hi.clone(), span)];
        for o in &objs {
            let first = self
                .types
                .leaves(&o.ty)
                .ok()
                .and_then(|l| l.first().map(|l| l.path.clone()));
            let storage = crate::ir::mem::file_scope(&format!("{}{}", o.base, first.unwrap_or_default()));
            let here = abin(AB::Eq, tag.clone(), aint(o.tag, span), span);
            let valid = self.valid_in(o, &storage, &lo, &hi, cx, span);
            cases.push(all(vec![here, valid], span));
        }
        any(cases, span)
    }

    /// `\separated(L1, ..., Ln)`: every two sets are in different objects
    /// (neither inside the other) or at disjoint offsets of one.
    pub(super) fn separated(&mut self, sets: &[AE], cx: &Cx, span: Span) -> AE {
        let sets: Vec<_> = sets.iter().filter_map(|s| self.location_set(s, cx)).collect();
        let mut parts = Vec::new();
        for (i, (t1, lo1, hi1, ty1)) in sets.iter().enumerate() {
            for (t2, lo2, hi2, ty2) in &sets[i + 1..] {
                let disjoint = any(
                    vec![
                        abin(AB::Gt, lo1.clone(), hi1.clone(), span),
                        abin(AB::Gt, lo2.clone(), hi2.clone(), span),
                        abin(AB::Lt, hi1.clone(), lo2.clone(), span),
                        abin(AB::Lt, hi2.clone(), lo1.clone(), span),
                    ],
                    span,
                );
                // Objects nested in one another (a struct and its field)
                // overlap although their tags differ.
                let nested: Vec<(i64, i64)> = self.nested_pairs(ty1, ty2);
                let mut apart = vec![abin(AB::Ne, t1.clone(), t2.clone(), span)];
                if !nested.is_empty() {
                    let pairs = nested
                        .iter()
                        .map(|(a, b)| {
                            all(
                                vec![
                                    abin(AB::Eq, t1.clone(), aint(*a, span), span),
                                    abin(AB::Eq, t2.clone(), aint(*b, span), span),
                                ],
                                span,
                            )
                        })
                        .collect();
                    apart.push(ae(AK::Not(Box::new(any(pairs, span))), span));
                }
                parts.push(any(
                    vec![
                        all(apart, span),
                        all(vec![abin(AB::Eq, t1.clone(), t2.clone(), span), disjoint], span),
                    ],
                    span,
                ));
            }
        }
        all(parts, span)
    }

    /// Tags of an object of type `a` and one of type `b` where one holds
    /// the other (a struct object and a field object inside it).
    fn nested_pairs(&self, a: &CType, b: &CType) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        for x in self.objects.of_type(a) {
            for y in self.objects.of_type(b) {
                let inside = |p: &Obj, q: &Obj| p.base.starts_with(&format!("{}.", q.base));
                if x.tag != y.tag && (inside(x, y) || inside(y, x)) {
                    out.push((x.tag, y.tag));
                }
            }
        }
        out
    }

    /// An `assigns` location over the storage: each case through a
    /// pointer names an object's storage under the condition that reaches
    /// it (read when the function starts).
    pub(super) fn location(&mut self, l: &acsl::Loc, span: Span) -> Vec<acsl::Loc> {
        let cx = Cx {
            kind: ClauseKind::Assigns,
            bound: Vec::new(),
            old: true,
        };
        let e = match l {
            acsl::Loc::Nothing => return vec![acsl::Loc::Nothing],
            acsl::Loc::Var(id) => avar(&id.name, id.span),
            acsl::Loc::Whole(id) => ae(
                AK::Index(
                    Box::new(avar(&id.name, id.span)),
                    Box::new(ae(AK::Range(None, None), span)),
                ),
                span,
            ),
            acsl::Loc::Range(id, lo, hi) => ae(
                AK::Index(
                    Box::new(avar(&id.name, id.span)),
                    Box::new(ae(
                        AK::Range(Some(Box::new(lo.clone())), Some(Box::new(hi.clone()))),
                        span,
                    )),
                ),
                span,
            ),
            acsl::Loc::Elem(id, i) => ae(AK::Index(Box::new(avar(&id.name, id.span)), Box::new(i.clone())), span),
            acsl::Loc::Expr(e) => e.clone(),
            acsl::Loc::If(..) => return vec![l.clone()],
        };
        // `a[lo..hi]` / `a[..]`: the place of `a[0]`, widened to the range.
        let (target, range) = match &e.kind {
            AK::Index(a, r) if matches!(r.kind, AK::Range(..)) => {
                let zero = ae(AK::Index(a.clone(), Box::new(aint(0, span))), span);
                (zero, Some((**r).clone()))
            }
            _ => (e.clone(), None),
        };
        let place = self.place(&target, &cx);
        let bounds = match range.as_ref().map(|r| &r.kind) {
            Some(AK::Range(Some(lo), Some(hi))) => Some((self.int_term(lo, &cx), self.int_term(hi, &cx))),
            Some(AK::Range(None, None)) | None => None,
            Some(_) => {
                self.acsl_error(span, "a range of locations needs both bounds, `a[lo..hi]` (or `a[..]`)");
                return vec![];
            }
        };
        match place {
            Place::Named {
                base, ty, index, array, ..
            } => {
                let id = |name: String| AI { name, span };
                let leaves = self.types.leaves(&ty).unwrap_or_default();
                let mut out = Vec::new();
                for leaf in leaves {
                    let name = id(format!("{base}{}", leaf.path));
                    out.push(match (&range, &bounds, &index) {
                        (Some(_), Some((lo, hi)), _) => acsl::Loc::Range(name, lo.clone(), hi.clone()),
                        (Some(_), None, _) => acsl::Loc::Whole(name),
                        (None, _, _) if array => acsl::Loc::Whole(name),
                        (None, _, Some(i)) => acsl::Loc::Elem(name, i.clone()),
                        (None, _, None) => acsl::Loc::Var(name),
                    });
                }
                out
            }
            Place::Ptr {
                tag,
                off,
                obj_ty,
                path,
                ty,
            } => {
                let (lo, hi) = match bounds {
                    Some((lo, hi)) => (
                        abin(AB::Add, off.clone(), lo, span),
                        abin(AB::Add, off.clone(), hi, span),
                    ),
                    None if range.is_some() => {
                        self.acsl_error(span, "a range through a pointer needs both bounds, `p[lo..hi]`");
                        return vec![];
                    }
                    None => (off.clone(), off.clone()),
                };
                let leaves = self.types.leaves(&ty).unwrap_or_default();
                let objs = self.objects_for(&tag, &obj_ty);
                let mut out = Vec::new();
                for o in &objs {
                    let here = abin(AB::Eq, tag.clone(), aint(o.tag, span), span);
                    for leaf in &leaves {
                        let name = AI {
                            name: crate::ir::mem::file_scope(&format!("{}{path}{}", o.base, leaf.path)),
                            span,
                        };
                        let inner = match o.len {
                            Some(_) => acsl::Loc::Range(name, lo.clone(), hi.clone()),
                            None => acsl::Loc::Var(name),
                        };
                        out.push(acsl::Loc::If(here.clone(), Box::new(inner)));
                    }
                }
                out
            }
        }
    }
}
