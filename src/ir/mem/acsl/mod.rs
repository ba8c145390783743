//! ACSL annotations through the memory model: a formula's pointers and
//! structs rewritten over the integer storage every engine sees, as the
//! code's are (`loc.rs`), so that contracts stay the seeds' method over
//! memory locations.
//!
//! - A pointer is its tag and offset; `*p`, `p[i]` and `p->f` read by
//!   cases on the object the tag names, `p == 3 ? x : (p == 4 ? a[p.off]
//!   : ...)`, each case also asking that the access is valid there (the
//!   object alive, the offset inside it); where no case holds the read is
//!   `Invalid`, and the formula neither holds nor fails there
//!   (`ir::contract::Term::Invalid`).
//! - `\valid(p + (lo..hi))` holds when the range is empty or some object
//!   holds every element of it; `\valid_read` is the same (nothing is
//!   read-only in the model). `\separated(L1, L2, ...)`: no two of the sets
//!   share a location (different objects, or disjoint offsets of one).
//! - Names are the storage's (`f::x` for a taken local); a parameter read
//!   in the state the function started in (in `requires`, in `ensures`, in
//!   `\old`) is the value the caller passed (a taken parameter's `x.in`).
//!   That state is after the function's prologue (its parameters set up,
//!   `params.rs`): a label `__acsl_start` marks where it ends.
//! - `assigns *p, a[0..n-1]` names each object's storage under the case
//!   that reaches it (`Loc::If`).

mod scan;
mod sets;

pub(super) use scan::{annotation_uses_memory, mentions, valid_names};

use super::objects::Obj;
use super::*;
use crate::syntax::acsl::{self as acsl, BinOp as AB, ClauseBody, ClauseKind, Expr as AE, ExprKind as AK, Ident as AI};

/// Where a formula is read.
#[derive(Clone)]
pub(super) struct Cx {
    kind: ClauseKind,
    /// Names bound by quantifiers: integers, never storage.
    bound: Vec<String>,
    /// In the state the function started in.
    old: bool,
}

/// A formula's value, as the memory model stores it.
enum Value {
    Int(AE),
    /// A pointer (`tag`, `off`) to `to`.
    Ptr {
        tag: AE,
        off: AE,
        to: CType,
    },
    /// A struct: only its fields are terms.
    Struct,
}

/// A location in a formula (as `loc.rs`'s `Loc`, without statements).
#[derive(Clone)]
enum Place {
    Named {
        base: String,
        ty: CType,
        index: Option<AE>,
        /// The storage is an array and no index was given.
        array: bool,
        root: Option<VarInfo>,
    },
    Ptr {
        tag: AE,
        off: AE,
        obj_ty: CType,
        path: String,
        ty: CType,
    },
}

fn ae(kind: AK, span: Span) -> AE {
    AE { kind, span }
}

fn aint(v: i64, span: Span) -> AE {
    ae(AK::Int(v), span)
}

fn avar(name: &str, span: Span) -> AE {
    ae(
        AK::Var(AI {
            name: name.to_string(),
            span,
        }),
        span,
    )
}

fn abin(op: AB, a: AE, b: AE, span: Span) -> AE {
    ae(AK::Binary(op, Box::new(a), Box::new(b)), span)
}

fn all(xs: Vec<AE>, span: Span) -> AE {
    xs.into_iter()
        .reduce(|a, b| abin(AB::And, a, b, span))
        .unwrap_or_else(|| ae(AK::Bool(true), span))
}

fn any(xs: Vec<AE>, span: Span) -> AE {
    xs.into_iter()
        .reduce(|a, b| abin(AB::Or, a, b, span))
        .unwrap_or_else(|| ae(AK::Bool(false), span))
}

fn ite(c: AE, a: AE, b: AE, span: Span) -> AE {
    ae(AK::Cond(Box::new(c), Box::new(a), Box::new(b)), span)
}

impl Mem {
    fn acsl_error(&mut self, span: Span, msg: impl Into<String>) {
        if self.emit {
            self.diags
                .push(Diag::error(Class::Semantic, span, msg.into()).with_label("in this annotation"));
        }
    }

    /// Rewrites annotation `index` (a contract of the current function, or
    /// a statement annotation where the walk stands) over the storage.
    pub(super) fn rewrite_annotation(&mut self, index: usize) {
        let a = self.annots[index].clone();
        let mut out = a.clone();
        for c in &mut out.clauses {
            let cx = Cx {
                kind: c.kind,
                bound: Vec::new(),
                old: c.kind == ClauseKind::Requires,
            };
            c.body = match &c.body {
                ClauseBody::Pred(e) => ClauseBody::Pred(self.formula(e, &cx)),
                ClauseBody::Locs(ls) => ClauseBody::Locs(
                    ls.iter()
                        .flat_map(|(l, span)| self.location(l, *span).into_iter().map(move |l| (l, *span)))
                        .collect(),
                ),
            };
        }
        self.annots_out[index] = Some(out);
    }

    /// A predicate.
    fn formula(&mut self, e: &AE, cx: &Cx) -> AE {
        let span = e.span;
        match &e.kind {
            AK::Bool(_) => e.clone(),
            AK::Not(x) => ae(AK::Not(Box::new(self.formula(x, cx))), span),
            AK::Binary(op @ (AB::And | AB::Or | AB::Implies | AB::Iff), a, b) => {
                abin(*op, self.formula(a, cx), self.formula(b, cx), span)
            }
            AK::Binary(op, a, b) if op.is_relational() => self.compare(*op, a, b, cx, span),
            AK::Quant { forall, vars, body } => {
                let mut inner = cx.clone();
                inner.bound.extend(vars.iter().map(|v| v.name.clone()));
                let body = self.formula(body, &inner);
                ae(
                    AK::Quant {
                        forall: *forall,
                        vars: vars.clone(),
                        body: Box::new(body),
                    },
                    span,
                )
            }
            AK::Old(x) => {
                let inner = self.old_cx(cx, span);
                self.formula(x, &inner)
            }
            AK::Cond(c, a, b) => ite(self.formula(c, cx), self.formula(a, cx), self.formula(b, cx), span),
            AK::Valid { locs, .. } => self.valid(locs, cx),
            AK::Separated(sets) => self.separated(sets, cx, span),
            _ => match self.value(e, cx) {
                Value::Int(x) => abin(AB::Ne, x, aint(0, span), span),
                Value::Ptr { tag, .. } => abin(AB::Ne, tag, aint(0, span), span),
                Value::Struct => {
                    self.acsl_error(span, "a struct is not a condition");
                    ae(AK::Bool(false), span)
                }
            },
        }
    }

    /// `a op b`, on integers or on pointers (tag and offset).
    fn compare(&mut self, op: AB, a: &AE, b: &AE, cx: &Cx, span: Span) -> AE {
        let (va, vb) = (self.value(a, cx), self.value(b, cx));
        match (va, vb) {
            (Value::Int(x), Value::Int(y)) => abin(op, x, y, span),
            (Value::Ptr { tag: t1, off: o1, .. }, Value::Ptr { tag: t2, off: o2, .. }) => match op {
                AB::Eq => all(vec![abin(AB::Eq, t1, t2, span), abin(AB::Eq, o1, o2, span)], span),
                AB::Ne => any(vec![abin(AB::Ne, t1, t2, span), abin(AB::Ne, o1, o2, span)], span),
                _ => abin(op, o1, o2, span),
            },
            (Value::Ptr { tag, off, .. }, Value::Int(z)) | (Value::Int(z), Value::Ptr { tag, off, .. })
                if matches!(z.kind, AK::Int(0)) && matches!(op, AB::Eq | AB::Ne) =>
            {
                let null = all(
                    vec![
                        abin(AB::Eq, tag, aint(0, span), span),
                        abin(AB::Eq, off, aint(0, span), span),
                    ],
                    span,
                );
                if op == AB::Eq {
                    null
                } else {
                    ae(AK::Not(Box::new(null)), span)
                }
            }
            _ => {
                self.acsl_error(span, "a comparison of a pointer with an integer or a struct");
                ae(AK::Bool(false), span)
            }
        }
    }

    fn old_cx(&mut self, cx: &Cx, span: Span) -> Cx {
        if cx.kind == ClauseKind::Requires {
            self.acsl_error(span, "`\\old` has no meaning in `requires`");
        }
        let mut inner = cx.clone();
        inner.old = true;
        inner
    }

    /// A name in a formula: the storage it stands for, read in the state
    /// the formula is about.
    fn name_ref(&self, name: &str, span: Span, cx: &Cx) -> AE {
        let v = avar(name, span);
        // `requires` is read in the starting state already.
        if cx.old && cx.kind != ClauseKind::Requires {
            ae(AK::Old(Box::new(v)), span)
        } else {
            v
        }
    }

    /// An integer term.
    fn int_term(&mut self, e: &AE, cx: &Cx) -> AE {
        match self.value(e, cx) {
            Value::Int(x) => x,
            _ => {
                self.acsl_error(e.span, "an integer is needed here");
                aint(0, e.span)
            }
        }
    }

    /// A term's value.
    fn value(&mut self, e: &AE, cx: &Cx) -> Value {
        let span = e.span;
        match &e.kind {
            AK::Int(_) | AK::Bool(_) | AK::LenOf(_) | AK::Storage(..) => Value::Int(e.clone()),
            AK::Var(id) if cx.bound.contains(&id.name) || self.lookup(&id.name).is_none() => {
                // A quantified variable, a `#define` constant (or an unknown
                // name, which resolving reports).
                Value::Int(e.clone())
            }
            AK::Result => self.result(span),
            AK::Null => Value::Ptr {
                tag: aint(0, span),
                off: aint(0, span),
                to: CType::Void,
            },
            AK::Old(x) => {
                let inner = self.old_cx(cx, span);
                self.value(x, &inner)
            }
            AK::Neg(x) => Value::Int(ae(AK::Neg(Box::new(self.int_term(x, cx))), span)),
            AK::Binary(op @ (AB::Add | AB::Sub), a, b) => self.arith(*op, a, b, cx, span),
            AK::BitNot(x) => Value::Int(ae(AK::BitNot(Box::new(self.int_term(x, cx))), span)),
            AK::Binary(
                op @ (AB::Mul | AB::Div | AB::Mod | AB::BitAnd | AB::BitOr | AB::BitXor | AB::Shl | AB::Shr),
                a,
                b,
            ) => Value::Int(abin(*op, self.int_term(a, cx), self.int_term(b, cx), span)),
            AK::Cond(c, a, b) => {
                let c = self.formula(c, cx);
                match (self.value(a, cx), self.value(b, cx)) {
                    (Value::Int(x), Value::Int(y)) => Value::Int(ite(c, x, y, span)),
                    (Value::Ptr { tag: t1, off: o1, to }, Value::Ptr { tag: t2, off: o2, .. }) => Value::Ptr {
                        tag: ite(c.clone(), t1, t2, span),
                        off: ite(c, o1, o2, span),
                        to,
                    },
                    _ => {
                        self.acsl_error(span, "`?:` with operands of different types");
                        Value::Int(aint(0, span))
                    }
                }
            }
            AK::AddrOf(x) => {
                let place = self.place(x, cx);
                self.a_address(place, span)
            }
            AK::Var(_) | AK::Index(..) | AK::Deref(_) | AK::Member(..) => {
                let place = self.place(e, cx);
                self.read_place(place, cx, span)
            }
            AK::Not(_) | AK::Binary(..) | AK::Quant { .. } | AK::Valid { .. } | AK::Separated(_) => {
                // Conditions used as terms: C's 0 or 1.
                let c = self.formula(e, cx);
                Value::Int(ite(c, aint(1, span), aint(0, span), span))
            }
            AK::Range(..) | AK::Invalid => {
                self.acsl_error(
                    span,
                    "a range `lo..hi` is a set of locations: write it in `\\valid`, `\\separated` or `assigns`",
                );
                Value::Int(aint(0, span))
            }
        }
    }

    /// `\result`: the return value, and for a pointer the offset leaf.
    fn result(&mut self, span: Span) -> Value {
        let ret = self.sigs.get(&self.func).and_then(|s| s.ret.clone());
        match ret {
            Some(CType::Ptr(to)) => Value::Ptr {
                tag: ae(AK::Result, span),
                off: avar(&super::ret_leaf(&self.func, ".off"), span),
                to: *to,
            },
            Some(t) if !t.is_int() => {
                self.acsl_error(span, "`\\result` of a struct is not supported in annotations");
                Value::Int(aint(0, span))
            }
            _ => Value::Int(ae(AK::Result, span)),
        }
    }

    /// `k` elements from a pointer (`tag`) to `to` as an offset, or
    /// (`back`) an offset as elements: steps out of a field of an array's
    /// elements as the code's (`arith.rs`).
    fn a_step(&mut self, tag: &AE, to: &CType, k: AE, back: bool, span: Span) -> AE {
        let tags = self.field_tags(to, span);
        if tags.is_empty() {
            return k;
        }
        let field = any(
            tags.iter()
                .map(|&t| abin(AB::Eq, tag.clone(), aint(t, span), span))
                .collect(),
            span,
        );
        let step = aint(crate::ir::pointers::FIELD_STEP, span);
        let scaled = abin(if back { AB::Div } else { AB::Mul }, k.clone(), step, span);
        ite(field, scaled, k, span)
    }

    /// `a + b`, `a - b`: pointer arithmetic by elements, as C.
    fn arith(&mut self, op: AB, a: &AE, b: &AE, cx: &Cx, span: Span) -> Value {
        match (self.value(a, cx), self.value(b, cx)) {
            (Value::Int(x), Value::Int(y)) => Value::Int(abin(op, x, y, span)),
            (Value::Ptr { tag, off, to }, Value::Int(k)) => {
                let step = self.a_step(&tag, &to, k, false, span);
                Value::Ptr {
                    tag,
                    off: abin(op, off, step, span),
                    to,
                }
            }
            (Value::Int(k), Value::Ptr { tag, off, to }) if op == AB::Add => {
                let step = self.a_step(&tag, &to, k, false, span);
                Value::Ptr {
                    tag,
                    off: abin(AB::Add, off, step, span),
                    to,
                }
            }
            (Value::Ptr { tag, off: o1, to }, Value::Ptr { off: o2, .. }) if op == AB::Sub => {
                Value::Int(self.a_step(&tag, &to, abin(AB::Sub, o1, o2, span), true, span))
            }
            _ => {
                self.acsl_error(
                    span,
                    format!(
                        "`{}` on these operands is not supported",
                        if op == AB::Add { "+" } else { "-" }
                    ),
                );
                Value::Int(aint(0, span))
            }
        }
    }

    /// The location `e` names.
    fn place(&mut self, e: &AE, cx: &Cx) -> Place {
        let span = e.span;
        match &e.kind {
            AK::Var(id) => match self.lookup(&id.name).cloned() {
                Some(info) => {
                    let base = self.storage_of(&id.name, &info, cx);
                    Place::Named {
                        base,
                        ty: info.ty.clone(),
                        index: None,
                        array: info.len.is_some(),
                        root: Some(info),
                    }
                }
                None => {
                    self.acsl_error(span, format!("`{}` is not a variable visible here", id.name));
                    self.dummy_place(span)
                }
            },
            AK::Index(a, i) => {
                let named_array = matches!(&a.kind, AK::Var(id) if !cx.bound.contains(&id.name)
                    && self.lookup(&id.name).is_some_and(|v| v.len.is_some()));
                if named_array {
                    if let Place::Named { base, ty, root, .. } = self.place(a, cx) {
                        let i = self.int_term(i, cx);
                        return Place::Named {
                            base,
                            ty,
                            index: Some(i),
                            array: false,
                            root,
                        };
                    }
                }
                let p = self.value(a, cx);
                let i = self.int_term(i, cx);
                match p {
                    Value::Ptr { tag, off, to } => {
                        let step = self.a_step(&tag, &to, i, false, span);
                        self.a_through(tag, abin(AB::Add, off, step, span), to, span)
                    }
                    _ => {
                        self.acsl_error(span, "only arrays and pointers can be indexed");
                        self.dummy_place(span)
                    }
                }
            }
            AK::Deref(x) => match self.value(x, cx) {
                Value::Ptr { tag, off, to } => self.a_through(tag, off, to, span),
                _ => {
                    self.acsl_error(span, "`*` needs a pointer");
                    self.dummy_place(span)
                }
            },
            AK::Member(x, f, arrow) => {
                let base = if *arrow {
                    match self.value(x, cx) {
                        Value::Ptr { tag, off, to } => self.a_through(tag, off, to, span),
                        _ => {
                            self.acsl_error(span, "`->` needs a pointer to a struct");
                            return self.dummy_place(span);
                        }
                    }
                } else {
                    self.place(x, cx)
                };
                self.member(base, f, span)
            }
            _ => {
                self.acsl_error(span, "this is not a location");
                self.dummy_place(span)
            }
        }
    }

    fn dummy_place(&self, span: Span) -> Place {
        Place::Ptr {
            tag: aint(0, span),
            off: aint(0, span),
            obj_ty: CType::Int(IntType::Int),
            path: String::new(),
            ty: CType::Int(IntType::Int),
        }
    }

    /// The storage name a variable's value is read from: a parameter in
    /// the starting state is what the caller passed (`x.in` when its
    /// storage is taken).
    fn storage_of(&self, name: &str, info: &VarInfo, cx: &Cx) -> String {
        let param = self.params.contains(name);
        let pre_state = cx.old || (cx.kind == ClauseKind::Ensures && param);
        if param && pre_state && info.out != name {
            return format!("{name}.in");
        }
        info.out.clone()
    }

    fn a_through(&mut self, tag: AE, off: AE, to: CType, span: Span) -> Place {
        if to == CType::Void {
            self.acsl_error(span, "an access through a `void *` pointer");
        }
        Place::Ptr {
            tag,
            off,
            obj_ty: to.clone(),
            path: String::new(),
            ty: to,
        }
    }

    fn member(&mut self, base: Place, f: &AI, span: Span) -> Place {
        let ty = match &base {
            Place::Named { ty, .. } | Place::Ptr { ty, .. } => ty.clone(),
        };
        let field = match self.types.field(&ty, &f.name) {
            Ok(field) => field.clone(),
            Err(msg) => {
                self.acsl_error(span, msg);
                return self.dummy_place(span);
            }
        };
        if matches!(&ty, CType::Struct(tag) if tag.starts_with(ast::UNION)) {
            self.acsl_error(span, "a union member in an annotation is not supported");
            return self.dummy_place(span);
        }
        match base {
            Place::Named { base, index, root, .. } => Place::Named {
                base: format!("{base}.{}", f.name),
                ty: field.ty,
                array: field.array.is_some() && index.is_none(),
                index,
                root,
            },
            Place::Ptr {
                tag, off, obj_ty, path, ..
            } => Place::Ptr {
                tag,
                off,
                obj_ty,
                path: format!("{path}.{}", f.name),
                ty: field.ty,
            },
        }
    }

    /// `&place`.
    fn a_address(&mut self, place: Place, span: Span) -> Value {
        match place {
            Place::Named {
                base, ty, index, root, ..
            } => {
                let off = index.unwrap_or_else(|| aint(0, span));
                let tag = self.object_tag(&base, &root, span);
                if tag == 0 && self.emit {
                    self.acsl_error(
                        span,
                        format!("`&{base}`: the program never takes this address, so no pointer points here"),
                    );
                }
                Value::Ptr {
                    tag: aint(tag, span),
                    off,
                    to: ty,
                }
            }
            Place::Ptr {
                tag,
                off,
                obj_ty,
                path,
                ty,
            } => {
                if path.is_empty() {
                    return Value::Ptr { tag, off, to: ty };
                }
                // The sub-object `path` of whichever object `tag` names.
                let mut sub = aint(0, span);
                let objs = self.objects_for(&tag, &obj_ty);
                for o in objs.iter().rev() {
                    let t = self.objects.by_base(&format!("{}{path}", o.base)).map_or(0, |s| s.tag);
                    sub = ite(
                        abin(AB::Eq, tag.clone(), aint(o.tag, span), span),
                        aint(t, span),
                        sub,
                        span,
                    );
                }
                Value::Ptr { tag: sub, off, to: ty }
            }
        }
    }

    /// The value stored at `place`.
    fn read_place(&mut self, place: Place, cx: &Cx, span: Span) -> Value {
        match place {
            Place::Named {
                base,
                ty,
                index,
                array,
                root,
            } => {
                if array {
                    // An array decays to a pointer to its first element.
                    return self.a_address(
                        Place::Named {
                            base,
                            ty,
                            index: Some(aint(0, span)),
                            array: false,
                            root,
                        },
                        span,
                    );
                }
                let leaf = |s: &Self, path: &str| {
                    let v = s.name_ref(&format!("{base}{path}"), span, cx);
                    match &index {
                        Some(i) => match v.kind {
                            AK::Old(x) => ae(AK::Old(Box::new(ae(AK::Index(x, Box::new(i.clone())), span))), span),
                            _ => ae(AK::Index(Box::new(v), Box::new(i.clone())), span),
                        },
                        None => v,
                    }
                };
                match &ty {
                    CType::Ptr(to) => Value::Ptr {
                        tag: leaf(self, ""),
                        off: leaf(self, ".off"),
                        to: (**to).clone(),
                    },
                    t if t.is_int() => Value::Int(leaf(self, "")),
                    _ => Value::Struct,
                }
            }
            Place::Ptr {
                tag,
                off,
                obj_ty,
                path,
                ty,
            } => match &ty {
                CType::Ptr(to) => Value::Ptr {
                    tag: self.by_object(&tag, &off, &obj_ty, &path, cx, span),
                    off: self.by_object(&tag, &off, &obj_ty, &format!("{path}.off"), cx, span),
                    to: (**to).clone(),
                },
                t if t.is_int() => Value::Int(self.by_object(&tag, &off, &obj_ty, &path, cx, span)),
                _ => Value::Struct,
            },
        }
    }

    /// The objects of type `ty` a tag may name (one, when it is a constant).
    fn objects_for(&self, tag: &AE, ty: &CType) -> Vec<Obj> {
        self.objects
            .of_type(ty)
            .filter(|o| !matches!(tag.kind, AK::Int(k) if k != o.tag))
            .cloned()
            .collect()
    }

    /// Leaf `path` of the object (`tag`, `off`) points into, by cases.
    fn by_object(&mut self, tag: &AE, off: &AE, obj_ty: &CType, path: &str, cx: &Cx, span: Span) -> AE {
        let objs = self.objects_for(tag, obj_ty);
        let mut out = ae(AK::Invalid, span);
        for o in objs.iter().rev() {
            let storage = crate::ir::mem::file_scope(&format!("{}{path}", o.base));
            let read = ae(
                AK::Storage(
                    AI {
                        name: storage.clone(),
                        span,
                    },
                    Box::new(off.clone()),
                ),
                span,
            );
            let value = if cx.old && cx.kind != ClauseKind::Requires {
                ae(AK::Old(Box::new(read)), span)
            } else {
                read
            };
            let valid = self.valid_in(o, &storage, off, off, cx, span);
            let here = all(vec![abin(AB::Eq, tag.clone(), aint(o.tag, span), span), valid], span);
            out = ite(here, value, out, span);
        }
        out
    }

    /// Elements `lo` to `hi` of object `o` (whose storage leaf `storage`
    /// gives its length) can be accessed: alive, allocated, inside.
    fn valid_in(&mut self, o: &Obj, storage: &str, lo: &AE, hi: &AE, cx: &Cx, span: Span) -> AE {
        let mut parts = Vec::new();
        if let Some(flag) = &o.alive {
            let flag = self.name_ref(flag, span, cx);
            parts.push(abin(AB::Ne, flag, aint(0, span), span));
        }
        if let Some(h) = &o.heap {
            let state = self.name_ref(&Self::heap_state(h), span, cx);
            parts.push(abin(AB::Eq, state, aint(1, span), span));
            let size = self
                .objects
                .by_base(h)
                .and_then(|b| self.types.size_align(&b.ty).ok())
                .map_or(1, |(s, _)| s);
            let end = abin(
                AB::Mul,
                abin(AB::Add, hi.clone(), aint(1, span), span),
                aint(size, span),
                span,
            );
            let bytes = self.name_ref(&Self::heap_len(h), span, cx);
            parts.push(abin(AB::Le, end, bytes, span));
        }
        match o.len {
            // A heap object's size is its bytes; the model's storage may
            // hold fewer elements (a read past them is beyond the model).
            Some(_) if o.heap.is_some() => parts.push(abin(AB::Le, aint(0, span), lo.clone(), span)),
            Some(_) => {
                parts.push(abin(AB::Le, aint(0, span), lo.clone(), span));
                let len = ae(
                    AK::LenOf(AI {
                        name: storage.to_string(),
                        span,
                    }),
                    span,
                );
                parts.push(abin(AB::Lt, hi.clone(), len, span));
            }
            None => {
                parts.push(abin(AB::Eq, lo.clone(), aint(0, span), span));
                parts.push(abin(AB::Eq, hi.clone(), aint(0, span), span));
            }
        }
        all(parts, span)
    }
}
