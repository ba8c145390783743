//! Lowering statements: function bodies, control flow (`if`, loops,
//! `switch`, `goto`, `break`, `continue`, `return`) and local declarations.

use super::*;

impl Cx<'_> {
    pub(super) fn lower_function(
        &mut self,
        pid: ProcId,
        f: &ast::Function,
        is_entry: bool,
        protos: &HashMap<String, &ast::Prototype>,
        left_out: &[LeftOut],
    ) -> Proc {
        let body_block = Block {
            parent: None,
            span: f.body.span,
            proc: pid,
        };
        self.blocks.push(body_block);
        let body_block = BlockId(self.blocks.len() as u32 - 1);
        let mut fl = FnLower {
            pid,
            is_entry,
            scopes: vec![HashMap::new()],
            locals: Vec::new(),
            params: Vec::new(),
            open: Vec::new(),
            unit: UnitId(0),
            block: body_block,
            loops: Vec::new(),
            switches: Vec::new(),
            labels: HashMap::new(),
            pending_gotos: HashMap::new(),
            ret_var: None,
            exit: NONE,
            protos,
            left_out,
        };
        let label_unit = self.new_unit(UnitKind::Label, f.name.span, pid);
        fl.unit = label_unit;
        if let ast::RetType::Int(t) = f.ret {
            let rv = self.new_var(Var {
                name: format!("{}::return", f.name.name),
                proc: Some(pid),
                kind: VarKind::Ret,
                ty: t,
                len: None,
                span: f.name.span,
                init: VarInit::Assigned,
                is_static: false,
            });
            fl.ret_var = Some(rv);
            fl.locals.push(rv);
        }
        for p in &f.params {
            if p.pointer {
                continue;
            }
            let Some(name) = &p.name else { continue };
            if fl.scopes[0].contains_key(&name.name) {
                self.err(
                    Class::Semantic,
                    name.span,
                    format!("parameter `{}` is declared twice", name.name),
                    "duplicate parameter",
                );
                continue;
            }
            let v = self.new_var(Var {
                name: name.name.clone(),
                proc: Some(pid),
                kind: VarKind::Param,
                ty: p.ty,
                len: None,
                span: name.span,
                init: if is_entry { VarInit::Input } else { VarInit::Assigned },
                is_static: false,
            });
            fl.scopes[0].insert(name.name.clone(), v);
            fl.params.push(v);
            fl.locals.push(v);
        }
        // The exit node exists first so that `return` can point at it.
        let exit = self.push_node(NodeKind::Exit, pid, f.body.span, label_unit, body_block);
        fl.exit = exit;
        let entry = self.emit(&mut fl, NodeKind::Skip { next: NONE }, f.name.span);
        for s in &f.body.stmts {
            self.stmt(&mut fl, s);
        }
        // Falling off the end.
        if !fl.open.is_empty() {
            if let Some(rv) = fl.ret_var {
                let span = Span::new(f.body.span.hi as usize - 1, f.body.span.hi as usize);
                let unit = self.new_unit(UnitKind::Label, span, pid);
                fl.unit = unit;
                let place = Place {
                    var: rv,
                    index: None,
                    span,
                };
                if f.name.name == "main" {
                    // C99: reaching the end of `main` returns 0.
                    let value = Expr {
                        kind: ExprKind::Const(0),
                        span,
                    };
                    self.emit(
                        &mut fl,
                        NodeKind::Assign {
                            place,
                            value,
                            next: NONE,
                        },
                        span,
                    );
                } else {
                    let ty = self.vars[rv.index()].ty;
                    self.emit(&mut fl, NodeKind::Havoc { place, ty, next: NONE }, span);
                }
            }
            let open = std::mem::take(&mut fl.open);
            self.patch_all(&open, exit);
        }
        for (label, holes) in std::mem::take(&mut fl.pending_gotos) {
            let span = holes.first().map(|(_, s)| *s).unwrap_or_default();
            self.err(
                Class::Semantic,
                span,
                format!("label `{label}` is not defined"),
                "unknown label",
            );
        }
        Proc {
            name: f.name.name.clone(),
            ret: f.ret,
            params: fl.params,
            locals: fl.locals,
            ret_var: fl.ret_var,
            entry,
            exit,
            body_block,
            span: f.span,
        }
    }

    pub(super) fn push_node(
        &mut self,
        kind: NodeKind,
        proc: ProcId,
        span: Span,
        unit: UnitId,
        block: BlockId,
    ) -> NodeId {
        self.nodes.push(Node {
            kind,
            proc,
            span,
            unit,
            block,
        });
        NodeId(self.nodes.len() as u32 - 1)
    }

    pub(super) fn patch(&mut self, hole: Hole, target: NodeId) {
        match hole {
            Hole::Next(n) => match &mut self.nodes[n.index()].kind {
                NodeKind::Assign { next, .. }
                | NodeKind::Havoc { next, .. }
                | NodeKind::Call { next, .. }
                | NodeKind::Skip { next }
                | NodeKind::Return { next, .. } => *next = target,
                _ => unreachable!("a Next hole is only made for nodes with one successor"),
            },
            Hole::Then(n) | Hole::Else(n) => {
                if let NodeKind::Branch { then_, else_, .. } = &mut self.nodes[n.index()].kind {
                    if matches!(hole, Hole::Then(_)) {
                        *then_ = target;
                    } else {
                        *else_ = target;
                    }
                }
            }
        }
    }

    pub(super) fn patch_all(&mut self, holes: &[Hole], target: NodeId) {
        for &h in holes {
            self.patch(h, target);
        }
    }

    /// Adds a node after the open holes; it becomes the only open hole
    /// (branches and terminal nodes leave none).
    pub(super) fn emit(&mut self, fl: &mut FnLower, kind: NodeKind, span: Span) -> NodeId {
        let id = self.push_node(kind, fl.pid, span, fl.unit, fl.block);
        let open = std::mem::take(&mut fl.open);
        self.patch_all(&open, id);
        fl.open = match &self.nodes[id.index()].kind {
            NodeKind::Assign { .. } | NodeKind::Havoc { .. } | NodeKind::Call { .. } | NodeKind::Skip { .. } => {
                vec![Hole::Next(id)]
            }
            _ => vec![],
        };
        id
    }

    pub(super) fn emit_branch(&mut self, fl: &mut FnLower, cond: Cond, span: Span) -> (Vec<Hole>, Vec<Hole>) {
        let id = self.emit(
            fl,
            NodeKind::Branch {
                cond,
                then_: NONE,
                else_: NONE,
            },
            span,
        );
        (vec![Hole::Then(id)], vec![Hole::Else(id)])
    }

    pub(super) fn with_block<T>(
        &mut self,
        fl: &mut FnLower,
        span: Span,
        f: impl FnOnce(&mut Self, &mut FnLower) -> T,
    ) -> T {
        self.blocks.push(Block {
            parent: Some(fl.block),
            span,
            proc: fl.pid,
        });
        let saved = fl.block;
        fl.block = BlockId(self.blocks.len() as u32 - 1);
        fl.scopes.push(HashMap::new());
        let r = f(self, fl);
        fl.scopes.pop();
        fl.block = saved;
        r
    }

    /// The span without enclosing parentheses, so atom texts read as written.
    pub(super) fn strip_parens(&self, mut span: Span) -> Span {
        loop {
            let t = self.source.slice(span);
            if t.len() >= 2 && t.starts_with('(') && t.ends_with(')') && parens_match(t) {
                span = Span::new(span.lo as usize + 1, span.hi as usize - 1);
                let t2 = self.source.slice(span);
                let lead = t2.len() - t2.trim_start().len();
                let trail = t2.len() - t2.trim_end().len();
                span = Span::new(span.lo as usize + lead, span.hi as usize - trail);
            } else {
                return span;
            }
        }
    }

    pub(super) fn stmt_span(&self, s: &ast::Stmt) -> Span {
        // Without the final `;`, for display.
        let t = self.source.slice(s.span);
        if t.ends_with(';') {
            Span::new(s.span.lo as usize, s.span.hi as usize - 1)
        } else {
            s.span
        }
    }

    // ---- statements ----

    pub(super) fn stmt(&mut self, fl: &mut FnLower, s: &ast::Stmt) {
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Block(b) => self.with_block(fl, b.span, |cx, fl| {
                for s in &b.stmts {
                    cx.stmt(fl, s);
                }
            }),
            StmtKind::Decl(decls) => {
                fl.unit = self.new_unit(UnitKind::Assign, self.stmt_span(s), fl.pid);
                for d in decls {
                    self.local_decl(fl, d);
                }
            }
            StmtKind::Expr(ast::Expr {
                kind: AK::Ternary(c, a, b),
                span,
            }) if self.is_void_call(a) || self.is_void_call(b) => {
                // `c ? a : b;` for its effects (SV-COMP's `c ? 0 :
                // __blast_assert()`, with a `void` operand gcc accepts):
                // `if (c) a; else b;`.
                let arm = |x: &ast::Expr| {
                    Box::new(ast::Stmt {
                        kind: StmtKind::Expr(x.clone()),
                        span: x.span,
                    })
                };
                let as_if = ast::Stmt {
                    kind: StmtKind::If(ast::Cond::Expr((**c).clone()), arm(a), Some(arm(b))),
                    span: *span,
                };
                self.stmt(fl, &as_if);
            }
            StmtKind::Expr(e) => {
                let kind = match &e.kind {
                    AK::Call(name, _) => match self.builtin_for(name) {
                        Some(Builtin::Assert | Builtin::Assume) => UnitKind::Check,
                        Some(
                            Builtin::ReachError
                            | Builtin::Stop
                            | Builtin::InvalidAccess
                            | Builtin::BeyondModel
                            | Builtin::BeyondPool
                            | Builtin::Leak,
                        ) => UnitKind::Stop,
                        _ => UnitKind::Call,
                    },
                    _ => UnitKind::Assign,
                };
                fl.unit = self.new_unit(kind, self.stmt_span(s), fl.pid);
                self.effect(fl, e);
            }
            StmtKind::If(c, then, els) => {
                let (t, f) = self.cond_unit(fl, c);
                fl.open = t;
                self.body(fl, then);
                let after_then = std::mem::take(&mut fl.open);
                fl.open = f;
                if let Some(e) = els {
                    self.body(fl, e);
                }
                fl.open.extend(after_then);
            }
            StmtKind::While(c, body) => {
                let head = self.loop_head(fl, s.span);
                let (t, f) = self.cond_unit(fl, c);
                fl.open = t;
                fl.loops.push(LoopCx {
                    breaks: Vec::new(),
                    continues: Vec::new(),
                    is_switch: false,
                });
                self.body(fl, body);
                let lc = fl.loops.pop().expect("pushed above");
                let mut back = std::mem::take(&mut fl.open);
                back.extend(lc.continues);
                self.patch_all(&back, head);
                fl.open = f;
                fl.open.extend(lc.breaks);
            }
            StmtKind::DoWhile(body, c) => {
                let head = self.loop_head(fl, s.span);
                fl.loops.push(LoopCx {
                    breaks: Vec::new(),
                    continues: Vec::new(),
                    is_switch: false,
                });
                self.body(fl, body);
                let lc = fl.loops.pop().expect("pushed above");
                fl.open.extend(lc.continues);
                let (t, f) = self.cond_unit(fl, c);
                self.patch_all(&t, head);
                fl.open = f;
                fl.open.extend(lc.breaks);
            }
            StmtKind::For(init, c, step, body) => self.with_block(fl, s.span, |cx, fl| {
                if let Some(i) = init {
                    cx.stmt(fl, i);
                }
                let head = cx.loop_head(fl, s.span);
                let (t, f) = match c {
                    Some(c) => cx.cond_unit(fl, c),
                    None => (std::mem::take(&mut fl.open), Vec::new()),
                };
                fl.open = t;
                fl.loops.push(LoopCx {
                    breaks: Vec::new(),
                    continues: Vec::new(),
                    is_switch: false,
                });
                cx.body(fl, body);
                let lc = fl.loops.pop().expect("pushed above");
                fl.open.extend(lc.continues);
                if let Some(st) = step {
                    fl.unit = cx.new_unit(UnitKind::Assign, st.span, fl.pid);
                    cx.effect(fl, st);
                }
                let back = std::mem::take(&mut fl.open);
                cx.patch_all(&back, head);
                fl.open = f;
                fl.open.extend(lc.breaks);
            }),
            StmtKind::Switch(e, body) => self.switch(fl, e, body),
            StmtKind::Case(..) | StmtKind::Default(..) if fl.switch_cases().is_none() => {
                self.err(
                    Class::Semantic,
                    s.span,
                    "`case` or `default` outside a `switch`",
                    "not in a switch",
                );
            }
            StmtKind::Case(e, inner) => {
                // C11 6.8.4.2p5: the label is converted to the promoted
                // type of the controlling expression, and compared there.
                let ty = fl.switch_cases().expect("checked by the guard above").ty;
                let value = const_eval_typed(e).map(|(v, _)| ty.convert(v));
                if value.is_none() {
                    self.err(
                        Class::Semantic,
                        e.span,
                        "a case label must be a constant",
                        "not a constant",
                    );
                }
                fl.unit = self.new_unit(UnitKind::Label, s.span, fl.pid);
                let target = self.emit(fl, NodeKind::Skip { next: NONE }, s.span);
                let cases = fl.switch_cases().expect("checked by the guard above");
                if let Some(v) = value {
                    if cases.values.iter().any(|(w, _, _)| *w == Some(v)) {
                        self.err(
                            Class::Semantic,
                            e.span,
                            format!("duplicate case value {v}"),
                            "already handled",
                        );
                    }
                    cases.values.push((Some(v), target, e.span));
                }
                self.stmt(fl, inner);
            }
            StmtKind::Default(inner) => {
                fl.unit = self.new_unit(UnitKind::Label, s.span, fl.pid);
                let target = self.emit(fl, NodeKind::Skip { next: NONE }, s.span);
                let cases = fl.switch_cases().expect("checked by the guard above");
                if cases.values.iter().any(|(w, _, _)| w.is_none()) {
                    self.err(
                        Class::Semantic,
                        s.span,
                        "two `default` labels in one switch",
                        "second default",
                    );
                }
                cases.values.push((None, target, s.span));
                self.stmt(fl, inner);
            }
            StmtKind::Break => match fl.loops.last_mut() {
                Some(l) => {
                    let open = std::mem::take(&mut fl.open);
                    l.breaks.extend(open);
                }
                None => self.err(
                    Class::Semantic,
                    s.span,
                    "`break` outside a loop or switch",
                    "nothing to break out of",
                ),
            },
            StmtKind::Continue => match fl.loops.iter_mut().rev().find(|l| !l.is_switch) {
                Some(l) => {
                    let open = std::mem::take(&mut fl.open);
                    l.continues.extend(open);
                }
                None => self.err(Class::Semantic, s.span, "`continue` outside a loop", "not in a loop"),
            },
            StmtKind::Return(e) => {
                fl.unit = self.new_unit(UnitKind::Return, self.stmt_span(s), fl.pid);
                self.ret(fl, s.span, e.as_ref());
            }
            StmtKind::Goto(label) => {
                let open = std::mem::take(&mut fl.open);
                match fl.labels.get(&label.name) {
                    Some(&target) => self.patch_all(&open, target),
                    None => fl
                        .pending_gotos
                        .entry(label.name.clone())
                        .or_default()
                        .extend(open.into_iter().map(|h| (h, label.span))),
                }
            }
            StmtKind::Labeled(label, inner) => {
                if fl.labels.contains_key(&label.name) {
                    self.err(
                        Class::Semantic,
                        label.span,
                        format!("label `{}` is defined twice", label.name),
                        "duplicate label",
                    );
                }
                fl.unit = self.new_unit(UnitKind::Label, label.span, fl.pid);
                let target = self.emit(fl, NodeKind::Skip { next: NONE }, label.span);
                fl.labels.insert(label.name.clone(), target);
                if let Some(holes) = fl.pending_gotos.remove(&label.name) {
                    for (h, _) in holes {
                        self.patch(h, target);
                    }
                }
                self.stmt(fl, inner);
            }
        }
    }

    /// The body of an `if`/`else`/loop: its own block.
    pub(super) fn body(&mut self, fl: &mut FnLower, s: &ast::Stmt) {
        match &s.kind {
            StmtKind::Block(_) => self.stmt(fl, s),
            _ => self.with_block(fl, s.span, |cx, fl| cx.stmt(fl, s)),
        }
    }

    pub(super) fn loop_head(&mut self, fl: &mut FnLower, span: Span) -> NodeId {
        fl.unit = self.new_unit(UnitKind::Label, span, fl.pid);
        self.emit(fl, NodeKind::Skip { next: NONE }, span)
    }

    /// A condition as its own unit; returns the true and false holes.
    pub(super) fn cond_unit(&mut self, fl: &mut FnLower, c: &ast::Cond) -> (Vec<Hole>, Vec<Hole>) {
        let span = self.strip_parens(c.span());
        fl.unit = self.new_unit(UnitKind::Cond, span, fl.pid);
        let (t, f) = match c {
            ast::Cond::Star(s) => self.emit_branch(fl, Cond::Nondet, *s),
            ast::Cond::Expr(e) => self.cond(fl, e),
        };
        // Remember which branch edges leave the condition true or false.
        for (holes, value) in [(&t, true), (&f, false)] {
            for h in holes {
                match h {
                    Hole::Then(n) => self.cond_exits.push(((*n, true), value)),
                    Hole::Else(n) => self.cond_exits.push(((*n, false), value)),
                    Hole::Next(_) => {}
                }
            }
        }
        (t, f)
    }

    pub(super) fn switch(&mut self, fl: &mut FnLower, e: &ast::Expr, body: &ast::Stmt) {
        fl.unit = self.new_unit(UnitKind::Cond, self.strip_parens(e.span), fl.pid);
        let scrutinee = self.value(fl, e);
        let scrutinee = self.snapshot(fl, scrutinee, e.span);
        let entry = std::mem::take(&mut fl.open);
        let dispatch_unit = fl.unit;
        fl.loops.push(LoopCx {
            breaks: Vec::new(),
            continues: Vec::new(),
            is_switch: true,
        });
        let ty = self.type_of(fl, e).promote();
        fl.switches.push(SwitchCases { values: Vec::new(), ty });
        self.body(fl, body);
        let cases = fl.switches.pop().expect("pushed above");
        let lc = fl.loops.pop().expect("pushed above");
        let mut after = std::mem::take(&mut fl.open);
        after.extend(lc.breaks);
        // The dispatch: one atom per case, in order, then default.
        fl.open = entry;
        fl.unit = dispatch_unit;
        let mut default = None;
        for (value, target, span) in &cases.values {
            match value {
                Some(v) => {
                    // A value of `cases.ty` (checked already when it fits
                    // `i64`; an `unsigned long long` above it is a wrapped
                    // constant converted back).
                    let rhs = match i64::try_from(*v) {
                        Ok(c) => Expr {
                            kind: ExprKind::Const(c),
                            span: *span,
                        },
                        Err(_) => {
                            let c = Expr {
                                kind: ExprKind::Const(*v as i64),
                                span: *span,
                            };
                            self.convert(c, cases.ty)
                        }
                    };
                    let atom = Atom {
                        lhs: scrutinee.clone(),
                        op: RelOp::Eq,
                        rhs,
                    };
                    let (t, f) = self.emit_branch(fl, Cond::Atom(atom), *span);
                    self.patch_all(&t, *target);
                    fl.open = f;
                }
                None => default = Some(*target),
            }
        }
        match default {
            Some(d) => {
                let open = std::mem::take(&mut fl.open);
                self.patch_all(&open, d);
            }
            None => after.append(&mut fl.open),
        }
        fl.open = after;
    }

    pub(super) fn ret(&mut self, fl: &mut FnLower, span: Span, e: Option<&ast::Expr>) {
        match (e, fl.ret_var) {
            (Some(e), Some(_)) => {
                // `return a < b;` returns through two Return nodes.
                if is_boolean(e) {
                    let (t, f) = self.cond(fl, e);
                    let to = self.vars[fl.ret_var.expect("checked by the match").index()].ty;
                    for (holes, v) in [(t, 1), (f, 0)] {
                        fl.open = holes;
                        let value = Expr {
                            kind: ExprKind::Const(super::float::truth_value(v, to)),
                            span: e.span,
                        };
                        self.emit(
                            fl,
                            NodeKind::Return {
                                value: Some(value),
                                next: fl.exit,
                            },
                            span,
                        );
                    }
                } else {
                    let from = self.type_of(fl, e);
                    let value = self.value(fl, e);
                    let to = self.vars[fl.ret_var.expect("checked by the match").index()].ty;
                    let value = self.converted_value(fl, value, from, to, e.span);
                    self.emit(
                        fl,
                        NodeKind::Return {
                            value: Some(value),
                            next: fl.exit,
                        },
                        span,
                    );
                }
            }
            (None, None) => {
                self.emit(
                    fl,
                    NodeKind::Return {
                        value: None,
                        next: fl.exit,
                    },
                    span,
                );
            }
            (Some(e), None) => {
                self.err(
                    Class::Semantic,
                    e.span,
                    "a `void` function cannot return a value",
                    "value returned here",
                );
            }
            (None, Some(_)) => {
                self.err(
                    Class::Semantic,
                    span,
                    "this function must return a value",
                    "`return;` in a non-void function",
                );
            }
        }
        fl.open.clear();
    }
}
