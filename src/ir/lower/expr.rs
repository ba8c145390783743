//! Lowering expressions: names, places, side effects taken out into their
//! own nodes, calls and built-ins, values, and conditions turned into
//! branches on single atoms.

use super::*;
use crate::ir::float::FloatOp;

impl Cx<'_> {
    // ---- names ----

    pub(super) fn lookup(&mut self, fl: &FnLower, id: &ast::Ident) -> Option<VarId> {
        if let Some(g) = crate::ir::mem::file_scope_name(&id.name) {
            return self.global_names.get(g).copied();
        }
        for s in fl.scopes.iter().rev() {
            if let Some(&v) = s.get(&id.name) {
                return Some(v);
            }
        }
        if let Some(&v) = self.global_names.get(&id.name) {
            return Some(v);
        }
        let msg = if self.procs.contains_key(&id.name) || fl.protos.contains_key(&id.name) {
            format!(
                "function `{}` used as a value: function pointers are not modelled yet",
                id.name
            )
        } else {
            format!("undeclared variable `{}`", id.name)
        };
        self.err(Class::Semantic, id.span, msg, "not declared");
        None
    }

    // ---- expressions ----

    /// An expression evaluated for its effects (an expression statement).
    pub(super) fn effect(&mut self, fl: &mut FnLower, e: &ast::Expr) {
        match &e.kind {
            AK::Assign(op, lhs, rhs) => {
                self.assign(fl, *op, lhs, rhs, e.span);
            }
            AK::IncDec { target, inc, .. } => {
                if let Some(place) = self.place(fl, target) {
                    self.incdec(fl, place, *inc, e.span);
                }
            }
            AK::Call(name, args) => {
                self.call(fl, name, args, e.span, None);
            }
            AK::Comma(list) => {
                for x in list {
                    self.effect(fl, x);
                }
            }
            _ => {
                // A pure expression statement still evaluates (and checks) its
                // operands.
                let v = self.value(fl, e);
                if has_checks(&v) {
                    let t = self.temp(fl, IntType::Int, e.span);
                    let place = Place {
                        var: t,
                        index: None,
                        span: e.span,
                    };
                    self.emit(
                        fl,
                        NodeKind::Assign {
                            place,
                            value: v,
                            next: NONE,
                        },
                        e.span,
                    );
                }
            }
        }
    }

    pub(super) fn temp(&mut self, fl: &mut FnLower, ty: IntType, span: Span) -> VarId {
        let n = fl
            .locals
            .iter()
            .filter(|&&v| self.vars[v.index()].kind == VarKind::Temp)
            .count();
        let v = self.new_var(Var {
            name: format!("$t{n}"),
            proc: Some(fl.pid),
            kind: VarKind::Temp,
            ty,
            len: None,
            span,
            init: VarInit::Assigned,
            is_static: false,
        });
        fl.locals.push(v);
        v
    }

    /// Evaluates `e` now into a temporary unless it is a constant.
    pub(super) fn snapshot(&mut self, fl: &mut FnLower, e: Expr, span: Span) -> Expr {
        if matches!(e.kind, ExprKind::Const(_)) {
            return e;
        }
        let ty = self.type_holding(&e);
        let t = self.temp(fl, ty, span);
        let place = Place {
            var: t,
            index: None,
            span,
        };
        self.emit(
            fl,
            NodeKind::Assign {
                place,
                value: e,
                next: NONE,
            },
            span,
        );
        Expr {
            kind: ExprKind::Var(t),
            span,
        }
    }

    pub(super) fn place(&mut self, fl: &mut FnLower, e: &ast::Expr) -> Option<Place> {
        match &e.kind {
            AK::Var(id) => {
                let v = self.lookup(fl, id)?;
                if self.vars[v.index()].len.is_some() {
                    self.err(
                        Class::Semantic,
                        id.span,
                        format!("array `{}` used without an index", id.name),
                        "needs `[index]`",
                    );
                    return None;
                }
                Some(Place {
                    var: v,
                    index: None,
                    span: e.span,
                })
            }
            AK::Index(id, idx) | AK::DerefIndex(id, idx, _) => {
                let v = self.lookup(fl, id)?;
                if self.vars[v.index()].len.is_none() {
                    self.err(
                        Class::Semantic,
                        id.span,
                        format!("`{}` is not an array", id.name),
                        "cannot be indexed",
                    );
                    return None;
                }
                let i = self.value(fl, idx);
                // The index is evaluated once, before the right-hand side.
                let i = if matches!(i.kind, ExprKind::Const(_) | ExprKind::Var(_)) {
                    i
                } else {
                    self.snapshot(fl, i, idx.span)
                };
                let len = self.vars[v.index()].len.unwrap_or(0);
                let in_range = matches!(i.kind, ExprKind::Const(k) if 0 <= k && k < len as i64);
                let site = match e.kind {
                    AK::DerefIndex(_, _, k) => self.access_site(k, e.span, fl.pid, in_range),
                    _ => {
                        let site = self.new_site(SiteKind::Bounds, e.span, fl.pid, Some(v));
                        self.sites[site.index()].static_ok = in_range;
                        site
                    }
                };
                Some(Place {
                    var: v,
                    index: Some((Box::new(i), site)),
                    span: e.span,
                })
            }
            _ => {
                self.err(
                    Class::Semantic,
                    e.span,
                    "this cannot be assigned to",
                    "not a variable or array element",
                );
                None
            }
        }
    }

    /// Reading a place: the same bounds site as writing it.
    pub(super) fn place_expr(&self, p: &Place) -> Expr {
        match &p.index {
            None => Expr {
                kind: ExprKind::Var(p.var),
                span: p.span,
            },
            Some((i, site)) => Expr {
                kind: ExprKind::Elem(p.var, i.clone(), *site),
                span: p.span,
            },
        }
    }

    /// `lhs op= rhs`; returns the place assigned.
    pub(super) fn assign(
        &mut self,
        fl: &mut FnLower,
        op: AssignOp,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
    ) -> Option<Place> {
        let Some(place) = self.place(fl, lhs) else {
            self.value(fl, rhs);
            return None;
        };
        if op == AssignOp::Set {
            self.assign_value(fl, place.clone(), rhs, span);
            return Some(place);
        }
        let old = self.place_expr(&place);
        let r = self.value(fl, rhs);
        let (tl, tr) = (self.vars[place.var.index()].ty, self.type_of(fl, rhs));
        let (value, ty) = self.typed_arith(fl, assign_binop(op), (old, tl), (r, tr), span);
        self.store(fl, place.clone(), value, ty, span);
        Some(place)
    }

    /// `place = e`, with conditions and nondet assigned directly.
    pub(super) fn assign_value(&mut self, fl: &mut FnLower, place: Place, e: &ast::Expr, span: Span) {
        if is_boolean(e) {
            let (t, f) = self.cond(fl, e);
            let mut after = Vec::new();
            let to = self.vars[place.var.index()].ty;
            for (holes, v) in [(t, 1), (f, 0)] {
                fl.open = holes;
                let value = Expr {
                    kind: ExprKind::Const(super::float::truth_value(v, to)),
                    span: e.span,
                };
                self.emit(
                    fl,
                    NodeKind::Assign {
                        place: place.clone(),
                        value,
                        next: NONE,
                    },
                    span,
                );
                after.append(&mut fl.open);
            }
            fl.open = after;
            return;
        }
        let to = self.vars[place.var.index()].ty;
        let (from_lo, from_hi) = self.type_of(fl, e).c_range();
        let (to_lo, to_hi) = to.c_range();
        // A value of a type that `to` holds needs no conversion.
        let from_ty = self.type_of(fl, e);
        let holds = to_lo <= from_lo
            && from_hi <= to_hi
            && (to != IntType::Bool || from_hi <= 1)
            && (from_ty == to || !(from_ty.is_float() || to.is_float()));
        if let AK::Call(name, args) = &e.kind {
            if let Some(Builtin::Nondet(ty)) = self.builtin_for(name) {
                if holds {
                    self.check_arity(name, args.len(), 0);
                    self.emit(fl, NodeKind::Havoc { place, ty, next: NONE }, span);
                    return;
                }
            } else if self.procs.contains_key(&name.name) && holds {
                self.call(fl, name, args, span, Some(place));
                return;
            }
        }
        let from = self.type_of(fl, e);
        let value = self.value(fl, e);
        self.store(fl, place, value, from, span);
    }

    pub(super) fn incdec(&mut self, fl: &mut FnLower, place: Place, inc: bool, span: Span) {
        let old = self.place_expr(&place);
        let one = Expr {
            kind: ExprKind::Const(1),
            span,
        };
        let op = if inc { BinOp::Add } else { BinOp::Sub };
        let ty = self.vars[place.var.index()].ty;
        let (value, vt) = self.typed_arith(fl, op, (old, ty), (one, IntType::Int), span);
        self.store(fl, place, value, vt, span);
    }

    pub(super) fn check_arity(&mut self, name: &ast::Ident, given: usize, wanted: usize) -> bool {
        if given == wanted {
            return true;
        }
        self.err(
            Class::Semantic,
            name.span,
            format!(
                "function `{}` takes {wanted} argument{} but {given} {} given",
                name.name,
                if wanted == 1 { "" } else { "s" },
                if given == 1 { "was" } else { "were" }
            ),
            "wrong number of arguments",
        );
        false
    }

    /// Lowers a call; returns the expression holding its value, if any.
    pub(super) fn call(
        &mut self,
        fl: &mut FnLower,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
        result: Option<Place>,
    ) -> Option<Expr> {
        if let Some(b) = self.builtin_for(name) {
            return self.builtin_call(fl, b, name, args, span, result);
        }
        let Some(&callee) = self.procs.get(&name.name) else {
            if fl.left_out.iter().any(|l| l.name == name.name) {
                // Only reachable from unreachable code (checked up front).
                for a in args {
                    self.value(fl, a);
                }
                self.emit(fl, NodeKind::Halt, span);
                return Some(Expr {
                    kind: ExprKind::Const(0),
                    span,
                });
            }
            if fl.protos.contains_key(&name.name) {
                self.err(
                    Class::Unsupported,
                    name.span,
                    format!("function `{}` is declared but not defined; only Cimple's builtins may be called without a body", name.name),
                    "no definition",
                );
            } else {
                self.err(
                    Class::Semantic,
                    name.span,
                    super::builtin::implicit(&name.name),
                    "not declared",
                );
            }
            return None;
        };
        let def = self.proc_list[callee.index()];
        let wanted = def.params.iter().filter(|p| !p.pointer).count();
        if def.params.iter().any(|p| p.pointer) {
            self.err(
                Class::Unsupported,
                name.span,
                format!(
                    "`{}` has pointer parameters and can only be an entry function",
                    name.name
                ),
                "pointer parameters",
            );
            return None;
        }
        if !self.check_arity(name, args.len(), wanted) {
            return None;
        }
        let ret = def.ret;
        let param_types: Vec<IntType> = def.params.iter().map(|p| p.ty).collect();
        let mut vals = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let from = self.type_of(fl, a);
            let v = self.value(fl, a);
            let v = self.converted_value(fl, v, from, param_types[i], a.span);
            // Keep left-to-right order when a later argument has effects.
            let later_effects = args[i + 1..].iter().any(has_effects);
            vals.push(if later_effects { self.snapshot(fl, v, a.span) } else { v });
        }
        let (result, value) = match (result, ret) {
            (Some(p), ast::RetType::Int(_)) => {
                let e = self.place_expr(&p);
                (Some(p), Some(e))
            }
            (Some(_), ast::RetType::Void) => {
                self.err(
                    Class::Semantic,
                    name.span,
                    format!("`{}` returns nothing (`void`), its value cannot be used", name.name),
                    "void function",
                );
                (None, None)
            }
            (None, _) => (None, None),
        };
        self.emit(
            fl,
            NodeKind::Call {
                callee,
                args: vals,
                result,
                next: NONE,
            },
            span,
        );
        value
    }

    /// An expression in value context: side effects are emitted as nodes and
    /// the pure rest returned.
    pub(super) fn value(&mut self, fl: &mut FnLower, e: &ast::Expr) -> Expr {
        let span = e.span;
        let mk = |kind| Expr { kind, span };
        match &e.kind {
            AK::Int(v, _) | AK::Float(v, _) => mk(ExprKind::Const(*v)),
            AK::Bool(b) => mk(ExprKind::Const(*b as i64)),
            AK::Var(id) => match self.lookup(fl, id) {
                Some(v) if self.vars[v.index()].len.is_some() => {
                    self.err(
                        Class::Semantic,
                        id.span,
                        format!("array `{}` used without an index", id.name),
                        "needs `[index]`",
                    );
                    mk(ExprKind::Const(0))
                }
                Some(v) => mk(ExprKind::Var(v)),
                None => mk(ExprKind::Const(0)),
            },
            AK::Deref(_)
            | AK::AddrOf(_)
            | AK::Member(..)
            | AK::IndexOf(..)
            | AK::PtrCast(..)
            | AK::InitList(_)
            | AK::CallPtr(..)
            | AK::SizeOfType(_) => {
                // What `crate::ir::mem` leaves is what it could not remove
                // (reported there).
                self.err(Class::Unsupported, e.span, "this is not supported here", "unsupported");
                mk(ExprKind::Const(0))
            }
            AK::Index(..) | AK::DerefIndex(..) => match self.place(fl, e) {
                Some(p) => self.place_expr(&p),
                None => mk(ExprKind::Const(0)),
            },
            AK::Unary(UnOp::Neg, x) if self.type_of(fl, x).is_float() => {
                let ty = self.type_of(fl, x);
                let v = self.value(fl, x);
                self.float_expr(FloatOp::Neg, ty, vec![v], None, span)
            }
            AK::Unary(UnOp::BitNot, x) if self.type_of(fl, x).is_float() => {
                self.err(
                    Class::Semantic,
                    span,
                    "invalid operand to `~`: a floating operand",
                    "not defined on `float` or `double`",
                );
                mk(ExprKind::Const(0))
            }
            AK::Unary(UnOp::Neg, x) => {
                let from = self.type_of(fl, x);
                let ty = from.promote();
                let v = self.value(fl, x);
                let v = self.convert_from(fl, v, from, ty);
                let neg = match v.kind {
                    ExprKind::Const(c) if c != i64::MIN => mk(ExprKind::Const(-c)),
                    _ => mk(ExprKind::Neg(Box::new(v))),
                };
                if ty.is_signed() {
                    self.overflow_check(fl, neg, ty)
                } else {
                    self.convert(neg, ty)
                }
            }
            AK::Unary(UnOp::Plus, x) => self.value(fl, x),
            AK::Unary(UnOp::BitNot, x) => {
                // `~v` is `-1 - v` in v's promoted type (two's complement).
                let from = self.type_of(fl, x);
                let ty = from.promote();
                let v = self.value(fl, x);
                let v = self.convert(v, ty);
                let minus_one = mk(ExprKind::Const(-1));
                let r = self.arith(fl, BinOp::Sub, minus_one, v, span);
                self.convert(r, ty)
            }
            AK::Bits(to, x) => {
                let from = self.type_of(fl, x);
                let v = self.value(fl, x);
                let (op, ty) = if to.is_float() {
                    (FloatOp::FromBits, *to)
                } else {
                    (FloatOp::ToBits, from)
                };
                self.float_expr(op, ty, vec![v], None, span)
            }
            AK::Cast(ty, x) => {
                if *ty == IntType::Bool && !is_boolean(x) {
                    let ne = ast::Expr {
                        kind: AK::Binary(
                            BinOp::Ne,
                            x.clone(),
                            Box::new(ast::Expr {
                                kind: AK::Int(0, IntType::Int),
                                span: x.span,
                            }),
                        ),
                        span: x.span,
                    };
                    self.value(fl, &ne)
                } else {
                    let from = self.type_of(fl, x);
                    let v = self.value(fl, x);
                    if from.is_float() || ty.is_float() {
                        self.convert_from(fl, v, from, *ty)
                    } else {
                        self.convert(v, *ty)
                    }
                }
            }
            AK::Binary(op, a, b) if !op.is_relational() && !op.is_logical() => {
                let l = self.value(fl, a);
                let l = if has_effects(b) {
                    self.snapshot(fl, l, a.span)
                } else {
                    l
                };
                let r = self.value(fl, b);
                let (ta, tb) = (self.type_of(fl, a), self.type_of(fl, b));
                self.typed_arith(fl, *op, (l, ta), (r, tb), span).0
            }
            AK::Offset(op, a, b) => {
                // Exact: neither operand converted, the sum not checked.
                let l = self.value(fl, a);
                let l = if has_effects(b) {
                    self.snapshot(fl, l, a.span)
                } else {
                    l
                };
                let r = self.value(fl, b);
                self.arith(fl, *op, l, r, span)
            }
            AK::Unary(UnOp::Not, _) | AK::Binary(..) => {
                let t = self.temp(fl, IntType::Int, span);
                let place = Place {
                    var: t,
                    index: None,
                    span,
                };
                self.assign_value(fl, place, e, span);
                mk(ExprKind::Var(t))
            }
            AK::Ternary(c, a, b) => {
                let ty = self.type_of(fl, e);
                let t = self.temp(fl, ty, span);
                let (tt, ff) = self.cond(fl, c);
                let mut after = Vec::new();
                for (holes, x) in [(tt, a), (ff, b)] {
                    fl.open = holes;
                    let place = Place {
                        var: t,
                        index: None,
                        span,
                    };
                    self.assign_value(fl, place, x, x.span);
                    after.append(&mut fl.open);
                }
                fl.open = after;
                mk(ExprKind::Var(t))
            }
            AK::Assign(op, lhs, rhs) => match self.assign(fl, *op, lhs, rhs, span) {
                Some(p) => self.place_expr(&p),
                None => mk(ExprKind::Const(0)),
            },
            AK::IncDec { target, inc, prefix } => {
                let Some(place) = self.place(fl, target) else {
                    return mk(ExprKind::Const(0));
                };
                let before = self.place_expr(&place);
                let old = if *prefix {
                    None
                } else {
                    Some(self.snapshot(fl, before, span))
                };
                self.incdec(fl, place.clone(), *inc, span);
                match old {
                    Some(o) => o,
                    None => self.place_expr(&place),
                }
            }
            AK::Call(name, args) => {
                if let Some((v, _)) = self.math_call(fl, name, args) {
                    return v;
                }
                if let Some(b) = self.builtin_for(name) {
                    if let Builtin::Nondet(_) | Builtin::Index = b {
                        return self
                            .builtin_call(fl, b, name, args, span, None)
                            .unwrap_or(mk(ExprKind::Const(0)));
                    }
                    self.err(
                        Class::Semantic,
                        name.span,
                        format!("`{}` has no value", name.name),
                        "used as a value",
                    );
                    return mk(ExprKind::Const(0));
                }
                let ty = match self.procs.get(&name.name) {
                    Some(p) => match self.proc_list[p.index()].ret {
                        ast::RetType::Int(t) => t,
                        ast::RetType::Void => {
                            self.err(
                                Class::Semantic,
                                name.span,
                                format!("`{}` returns nothing (`void`), its value cannot be used", name.name),
                                "void function",
                            );
                            return mk(ExprKind::Const(0));
                        }
                    },
                    None => IntType::Int,
                };
                let t = self.temp(fl, ty, span);
                let place = Place {
                    var: t,
                    index: None,
                    span,
                };
                self.call(fl, name, args, span, Some(place))
                    .unwrap_or(mk(ExprKind::Const(0)))
            }
            AK::Comma(list) => {
                for x in &list[..list.len() - 1] {
                    self.effect(fl, x);
                }
                self.value(fl, &list[list.len() - 1])
            }
            AK::SizeOf(x) => {
                // Not evaluated: only its type (or an array's storage).
                let array = match &x.kind {
                    AK::Var(id) => self.peek_var(fl, id).and_then(|v| {
                        let var = &self.vars[v.index()];
                        var.len.map(|n| n as i64 * var.ty.size())
                    }),
                    _ => None,
                };
                mk(ExprKind::Const(array.unwrap_or_else(|| self.type_of(fl, x).size())))
            }
            AK::StmtExpr(b) => self.stmt_expr(fl, b, span),
            AK::Access(b) => {
                let saved = self.frozen_unit.replace(fl.unit);
                let v = self.stmt_expr(fl, b, span);
                self.frozen_unit = saved;
                v
            }
        }
    }

    pub(super) fn arith(&mut self, fl: &mut FnLower, op: BinOp, l: Expr, r: Expr, span: Span) -> Expr {
        let mk = |kind| Expr { kind, span };
        if let (ExprKind::Const(a), ExprKind::Const(b)) = (&l.kind, &r.kind) {
            let folded = match op {
                BinOp::Add => a.checked_add(*b),
                BinOp::Sub => a.checked_sub(*b),
                BinOp::Mul => a.checked_mul(*b),
                BinOp::Div if *b != 0 => a.checked_div(*b),
                BinOp::Mod if *b != 0 => a.checked_rem(*b),
                _ => None,
            };
            if let Some(v) = folded {
                return mk(ExprKind::Const(v));
            }
        }
        match op {
            BinOp::Add => mk(ExprKind::Arith(ArithOp::Add, Box::new(l), Box::new(r))),
            BinOp::Sub => mk(ExprKind::Arith(ArithOp::Sub, Box::new(l), Box::new(r))),
            BinOp::Mul => mk(ExprKind::Arith(ArithOp::Mul, Box::new(l), Box::new(r))),
            BinOp::Div | BinOp::Mod => {
                let site = self.new_site(SiteKind::DivByZero, span, fl.pid, None);
                self.sites[site.index()].static_ok = matches!(r.kind, ExprKind::Const(k) if k != 0);
                mk(ExprKind::Div {
                    num: Box::new(l),
                    den: Box::new(r),
                    rem: op == BinOp::Mod,
                    site,
                })
            }
            _ => unreachable!("only arithmetic operators reach `arith`"),
        }
    }

    /// A condition: emits branch nodes, returns the true and false holes.
    pub(super) fn cond(&mut self, fl: &mut FnLower, e: &ast::Expr) -> (Vec<Hole>, Vec<Hole>) {
        match &e.kind {
            AK::Binary(BinOp::And, a, b) => {
                let (at, af) = self.cond(fl, a);
                fl.open = at;
                let (bt, mut bf) = self.cond(fl, b);
                bf.extend(af);
                (bt, bf)
            }
            AK::Binary(BinOp::Or, a, b) => {
                let (at, af) = self.cond(fl, a);
                fl.open = af;
                let (mut bt, bf) = self.cond(fl, b);
                bt.extend(at);
                (bt, bf)
            }
            AK::Unary(UnOp::Not, x) => {
                let (t, f) = self.cond(fl, x);
                (f, t)
            }
            AK::Ternary(c, a, b) => {
                let (ct, cf) = self.cond(fl, c);
                fl.open = ct;
                let (mut at, mut af) = self.cond(fl, a);
                fl.open = cf;
                let (bt, bf) = self.cond(fl, b);
                at.extend(bt);
                af.extend(bf);
                (at, af)
            }
            AK::Comma(list) => {
                for x in &list[..list.len() - 1] {
                    self.effect(fl, x);
                }
                self.cond(fl, &list[list.len() - 1])
            }
            AK::Binary(op, a, b) if op.is_relational() => {
                let l = self.value(fl, a);
                let l = if has_effects(b) {
                    self.snapshot(fl, l, a.span)
                } else {
                    l
                };
                let r = self.value(fl, b);
                let (ta, tb) = (self.type_of(fl, a), self.type_of(fl, b));
                let ty = IntType::common(ta, tb);
                if ty.is_float() {
                    let (v, _) = self.float_binary(fl, *op, (l, ta), (r, tb), e.span);
                    let span = self.strip_parens(e.span);
                    return self.branch_nonzero(fl, v, span);
                }
                let (l, r) = (self.convert_from(fl, l, ta, ty), self.convert_from(fl, r, tb, ty));
                let op = match op {
                    BinOp::Eq => RelOp::Eq,
                    BinOp::Ne => RelOp::Ne,
                    BinOp::Lt => RelOp::Lt,
                    BinOp::Le => RelOp::Le,
                    BinOp::Gt => RelOp::Gt,
                    _ => RelOp::Ge,
                };
                let span = self.strip_parens(e.span);
                self.emit_branch(fl, Cond::Atom(Atom { lhs: l, op, rhs: r }), span)
            }
            _ => {
                let from = self.type_of(fl, e);
                let v = self.value(fl, e);
                // A floating value is true unless it is +0.0 or -0.0.
                let v = if from.is_float() {
                    self.convert_from(fl, v, from, IntType::Bool)
                } else {
                    v
                };
                let span = self.strip_parens(e.span);
                self.branch_nonzero(fl, v, span)
            }
        }
    }

    /// A branch on `v != 0`; a constant condition (`while (1)`) is no
    /// branch.
    fn branch_nonzero(&mut self, fl: &mut FnLower, v: Expr, span: Span) -> (Vec<Hole>, Vec<Hole>) {
        if let ExprKind::Const(c) = v.kind {
            let open = std::mem::take(&mut fl.open);
            return if c != 0 { (open, vec![]) } else { (vec![], open) };
        }
        let zero = Expr {
            kind: ExprKind::Const(0),
            span,
        };
        self.emit_branch(
            fl,
            Cond::Atom(Atom {
                lhs: v,
                op: RelOp::Ne,
                rhs: zero,
            }),
            span,
        )
    }
}
