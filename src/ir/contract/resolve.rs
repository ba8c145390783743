//! ACSL annotations bound to the program: names resolved to variables,
//! places found in the IR, quantifier bounds read off their antecedents.

use super::*;
use crate::diag::{Class, Diag};
use crate::syntax::acsl::{self, AnnotKind, BinOp, ClauseBody, ExprKind as AK};

/// Binds the annotations to the program: contracts to the function defined
/// right after them, invariants to the loop or label after them, assertions
/// to their place.
pub fn resolve(p: &Program, annots: &[acsl::Annotation]) -> Result<Contracts, Vec<Diag>> {
    let mut r = Resolver {
        p,
        out: Contracts::default(),
        diags: Vec::new(),
        next_bound: 0,
    };
    for (index, a) in annots.iter().enumerate() {
        // Annotations inside a function left out of the program are not read.
        let span = a.comment.span;
        if p.left_out.iter().any(|l| l.span.lo <= span.lo && span.hi <= l.span.hi) {
            continue;
        }
        match a.kind {
            AnnotKind::Contract => r.contract(a),
            AnnotKind::Loop => r.loop_invariants(a, index),
            AnnotKind::Assert => r.assertion(a, index),
        }
    }
    if r.diags.is_empty() {
        Ok(r.out)
    } else {
        Err(r.diags)
    }
}

/// Where a formula is read: which names it sees.
struct Scope {
    proc: ProcId,
    /// Locals declared before this offset are visible.
    before: u32,
    kind: ClauseKind,
    bound: Vec<(String, u32)>,
    old: bool,
}

struct Resolver<'a> {
    p: &'a Program,
    out: Contracts,
    diags: Vec<Diag>,
    next_bound: u32,
}

impl Resolver<'_> {
    fn error(&mut self, span: Span, msg: impl Into<String>, label: &str) {
        self.diags
            .push(Diag::error(Class::Semantic, span, msg).with_label(label));
    }

    fn add_clause(&mut self, c: &acsl::Clause, proc: ProcId, pred: Pred) -> ClauseId {
        self.out.clauses.push(Clause {
            kind: c.kind,
            proc,
            span: c.span,
            text: c.text.clone(),
            pred,
        });
        self.out.clauses.len() - 1
    }

    fn contract(&mut self, a: &acsl::Annotation) {
        let p = self.p;
        let start = next_token(&p.source.text, a.comment.span.hi as usize) as u32;
        let Some(f) = p.proc_ids().find(|&f| p.proc(f).span.lo == start) else {
            let what = match p.left_out.iter().find(|l| l.span.lo == start) {
                Some(l) => format!("the function `{}` it belongs to is outside Cimple", l.name),
                None => "a function contract must be right before a function definition".into(),
            };
            self.error(a.comment.span, what, "contract not attached");
            return;
        };
        if let Some(prev) = self.out.funcs.get(&f) {
            let prev = prev.span;
            self.diags.push(
                Diag::error(
                    Class::Semantic,
                    a.comment.span,
                    format!("`{}` has two contracts", p.proc(f).name),
                )
                .with_label("second contract")
                .with_secondary(prev, "first contract"),
            );
            return;
        }
        let start = p.node_ids().find(|&n| {
            let node = p.node(n);
            node.proc == f && matches!(node.kind, NodeKind::Skip { .. }) && node.span == a.comment.span
        });
        let mut fc = FnContract {
            span: a.comment.span,
            start,
            ..FnContract::default()
        };
        for c in &a.clauses {
            let mut scope = Scope {
                proc: f,
                before: a.comment.span.lo,
                kind: c.kind,
                bound: Vec::new(),
                old: false,
            };
            match &c.body {
                ClauseBody::Pred(e) => {
                    let Some(pred) = self.pred(&mut scope, e) else { continue };
                    let id = self.add_clause(c, f, pred);
                    match c.kind {
                        ClauseKind::Requires => fc.requires.push(id),
                        _ => fc.ensures.push(id),
                    }
                }
                ClauseBody::Locs(locs) => {
                    let id = self.add_clause(c, f, Pred::Bool(true));
                    let list = fc.assigns.get_or_insert_with(Vec::new);
                    for (loc, span) in locs {
                        if let Some(x) = self.location(&mut scope, loc, *span) {
                            list.push((x, id));
                        }
                    }
                }
            }
        }
        self.out.funcs.insert(f, fc);
    }

    fn location(&mut self, scope: &mut Scope, loc: &acsl::Loc, span: Span) -> Option<Assigned> {
        let id = match loc {
            acsl::Loc::Nothing => return None,
            acsl::Loc::Var(id) | acsl::Loc::Elem(id, _) | acsl::Loc::Whole(id) | acsl::Loc::Range(id, ..) => id,
            acsl::Loc::Expr(e) => {
                self.no_pointers(e.span);
                return None;
            }
            acsl::Loc::If(c, inner) => {
                // Read when the function starts, as every location is.
                scope.old = true;
                let c = self.pred(scope, c);
                scope.old = false;
                let inner = self.location(scope, inner, span)?;
                return Some(Assigned::If(c?, Box::new(inner)));
            }
        };
        let v = self.lookup(scope, id)?;
        let var = self.p.var(v);
        if !var.is_global_storage() {
            self.error(
                span,
                format!("`{}` is not a global: parameters are passed by value", id.name),
                "only globals can be assigned",
            );
            return None;
        }
        match (loc, var.len) {
            (acsl::Loc::Var(_), None) => Some(Assigned::Var(v)),
            (acsl::Loc::Var(_), Some(_)) | (acsl::Loc::Whole(_), Some(_)) => Some(Assigned::Whole(v)),
            (acsl::Loc::Elem(_, i), Some(_)) => {
                scope.old = true;
                let t = self.term(scope, i);
                scope.old = false;
                Some(Assigned::Elem(v, t?))
            }
            (acsl::Loc::Range(_, lo, hi), Some(_)) => {
                scope.old = true;
                let (lo, hi) = (self.term(scope, lo), self.term(scope, hi));
                scope.old = false;
                Some(Assigned::Range(v, lo?, hi?))
            }
            _ => {
                self.error(span, format!("`{}` is not an array", id.name), "cannot be indexed");
                None
            }
        }
    }

    /// A pointer construct where the program has no pointers or structs
    /// (the memory model rewrites them everywhere else).
    fn no_pointers(&mut self, span: Span) {
        self.diags.push(
            Diag::error(
                Class::Semantic,
                span,
                "this needs a pointer or a struct, and the program has none",
            )
            .with_label("no pointer here"),
        );
    }

    /// The statement an annotation's marker label stands for.
    fn marker(&mut self, a: &acsl::Annotation, what: &str) -> Option<NodeId> {
        let p = self.p;
        let found = p
            .node_ids()
            .find(|&n| matches!(p.node(n).kind, NodeKind::Skip { .. }) && p.node(n).span == a.comment.span);
        if found.is_none() {
            self.error(
                a.comment.span,
                format!("{what} must be inside a function body, as a statement"),
                "not in a function",
            );
        }
        found
    }

    fn loop_invariants(&mut self, a: &acsl::Annotation, _index: usize) {
        let p = self.p;
        let Some(marker) = self.marker(a, "a loop invariant") else {
            return;
        };
        // The loop head (or label) is the node of the statement right after
        // the annotation; a `for` runs its initialisation first.
        let start = next_token(&p.source.text, a.comment.span.hi as usize) as u32;
        let mut at = None;
        let mut cur = marker;
        for _ in 0..1000 {
            let node = p.node(cur);
            let next = match &node.kind {
                NodeKind::Skip { next } => {
                    if cur != marker && node.span.lo == start {
                        at = Some(cur);
                        break;
                    }
                    *next
                }
                NodeKind::Assign { next, .. } | NodeKind::Havoc { next, .. } => *next,
                _ => break,
            };
            cur = next;
        }
        let Some(at) = at else {
            self.error(
                a.comment.span,
                "a loop invariant must be right before a loop (`while`, `for`, `do`) or a label",
                "no loop after it",
            );
            return;
        };
        let head_text = p.text(p.node(at).span);
        let is_loop = ["while", "for", "do"].iter().any(|k| {
            head_text.starts_with(k)
                && !head_text[k.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
        });
        let label = (!is_loop).then(|| head_text.trim().to_string());
        // A `for`'s clause declares variables whose scope is the loop (C11
        // 6.8.5.3), the head included: the invariant holds there.
        let before = match head_text.starts_with("for") {
            true => crate::ir::contract::for_clause_end(&p.source.text, start as usize).unwrap_or(a.comment.span.lo),
            false => a.comment.span.lo,
        };
        let clauses = self.statement_clauses(a, p.node(at).proc, before);
        match self.out.invariants.iter_mut().find(|i| i.at == at) {
            Some(prev) => prev.clauses.extend(clauses),
            None => self.out.invariants.push(Invariants { at, clauses, label }),
        }
    }

    fn assertion(&mut self, a: &acsl::Annotation, _index: usize) {
        let Some(at) = self.marker(a, "an assertion") else {
            return;
        };
        for id in self.statement_clauses(a, self.p.node(at).proc, a.comment.span.lo) {
            self.out.asserts.push((at, id));
        }
    }

    /// The clauses of an annotation at a statement of `proc` (a loop
    /// invariant, an assertion), bound in the scope of the locals declared
    /// before offset `before`.
    fn statement_clauses(&mut self, a: &acsl::Annotation, proc: ProcId, before: u32) -> Vec<ClauseId> {
        let mut ids = Vec::new();
        for c in &a.clauses {
            let mut scope = Scope {
                proc,
                before,
                kind: c.kind,
                bound: Vec::new(),
                old: false,
            };
            if let ClauseBody::Pred(e) = &c.body {
                if let Some(pred) = self.pred(&mut scope, e) {
                    ids.push(self.add_clause(c, proc, pred));
                }
            }
        }
        ids
    }

    /// A name: a quantified variable, a local declared before the
    /// annotation (the nearest), a global, or a `#define` constant (`None`
    /// with no error then: the caller checks constants first).
    /// The variable `id` names; a floating one is refused (ACSL's
    /// comparisons would read its bits as an integer).
    fn lookup(&mut self, scope: &Scope, id: &acsl::Ident) -> Option<VarId> {
        let v = self.lookup_any(scope, id)?;
        let ty = self.p.var(v).ty;
        if ty.is_float() {
            self.error(
                id.span,
                format!(
                    "`{}` is a `{}`: floating point in ACSL annotations is not supported yet",
                    id.name,
                    ty.c_name()
                ),
                "floating variable",
            );
            return None;
        }
        Some(v)
    }

    fn lookup_any(&mut self, scope: &Scope, id: &acsl::Ident) -> Option<VarId> {
        let p = self.p;
        let proc = p.proc(scope.proc);
        // The memory model's storage, named from file scope.
        if let Some(g) = crate::ir::mem::file_scope_name(&id.name) {
            return p
                .globals
                .iter()
                .copied()
                .find(|&v| p.var(v).name == g && p.var(v).kind == VarKind::Global);
        }
        let local = proc
            .locals
            .iter()
            .chain(p.globals.iter())
            .copied()
            .filter(|&v| {
                let var = p.var(v);
                var.name == id.name
                    && var.proc == Some(scope.proc)
                    && matches!(var.kind, VarKind::Local | VarKind::Param)
                    && (var.kind == VarKind::Param || var.span.lo < scope.before)
            })
            .max_by_key(|&v| p.var(v).span.lo);
        let found = local.or_else(|| {
            p.globals
                .iter()
                .copied()
                .find(|&g| p.var(g).name == id.name && p.var(g).kind == VarKind::Global)
        });
        if found.is_none() {
            self.error(
                id.span,
                format!(
                    "`{}` is not a variable visible here (a parameter, a local declared before, or a global of `{}`)",
                    id.name, proc.name
                ),
                "unknown name",
            );
        }
        found
    }

    fn term(&mut self, scope: &mut Scope, e: &acsl::Expr) -> Option<Term> {
        let p = self.p;
        Some(match &e.kind {
            AK::Int(v) => Term::Const(*v),
            AK::Bool(b) => Term::Const(*b as i64),
            AK::Var(id) => {
                if let Some((_, n)) = scope.bound.iter().rev().find(|(name, _)| *name == id.name) {
                    return Some(Term::Bound(*n));
                }
                if let Some(&(c, _)) = p.constants.get(&id.name) {
                    return Some(Term::Const(c));
                }
                let v = self.lookup(scope, id)?;
                if p.var(v).len.is_some() {
                    self.error(
                        id.span,
                        format!("array `{}` used without an index", id.name),
                        "needs `[index]`",
                    );
                    return None;
                }
                Term::Var {
                    var: v,
                    old: self.is_old(scope, v),
                }
            }
            AK::Index(a, i) => {
                let AK::Var(id) = &a.kind else {
                    self.no_pointers(a.span);
                    return None;
                };
                let index = self.term(scope, i)?;
                let v = self.lookup(scope, id)?;
                if p.var(v).len.is_none() {
                    self.error(id.span, format!("`{}` is not an array", id.name), "cannot be indexed");
                    return None;
                }
                Term::Elem {
                    var: v,
                    old: self.is_old(scope, v),
                    index: Box::new(index),
                    guarded: false,
                }
            }
            AK::Storage(id, i) => {
                let index = self.term(scope, i)?;
                let v = self.lookup(scope, id)?;
                if p.var(v).len.is_none() {
                    return Some(Term::Var {
                        var: v,
                        old: self.is_old(scope, v),
                    });
                }
                Term::Elem {
                    var: v,
                    old: self.is_old(scope, v),
                    index: Box::new(index),
                    guarded: true,
                }
            }
            AK::Cond(c, a, b) => {
                let c = self.pred(scope, c);
                let (a, b) = (self.term(scope, a), self.term(scope, b));
                Term::Ite(Box::new(c?), Box::new(a?), Box::new(b?))
            }
            AK::Invalid => Term::Invalid,
            AK::LenOf(id) => {
                let v = self.lookup(scope, id)?;
                Term::Const(p.var(v).len.unwrap_or(1) as i64)
            }
            AK::Deref(_)
            | AK::AddrOf(_)
            | AK::Member(..)
            | AK::Null
            | AK::Range(..)
            | AK::Valid { .. }
            | AK::Separated(_) => {
                self.no_pointers(e.span);
                return None;
            }
            AK::Result => {
                if scope.kind != ClauseKind::Ensures || scope.old {
                    self.error(
                        e.span,
                        "`\\result` is only allowed in `ensures`, outside `\\old`",
                        "not here",
                    );
                    return None;
                }
                if p.proc(scope.proc).ret_var.is_none() {
                    self.error(
                        e.span,
                        format!("`{}` returns no value", p.proc(scope.proc).name),
                        "no result",
                    );
                    return None;
                }
                Term::Result
            }
            AK::Old(x) => {
                if scope.kind == ClauseKind::Requires {
                    self.error(e.span, "`\\old` has no meaning in `requires`", "not here");
                    return None;
                }
                let saved = scope.old;
                scope.old = true;
                let t = self.term(scope, x);
                scope.old = saved;
                t?
            }
            AK::Neg(x) => Term::Neg(Box::new(self.term(scope, x)?)),
            AK::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod), a, b) => {
                let (a, b) = (self.term(scope, a)?, self.term(scope, b)?);
                match op {
                    BinOp::Add => Term::Arith(ArithOp::Add, Box::new(a), Box::new(b)),
                    BinOp::Sub => Term::Arith(ArithOp::Sub, Box::new(a), Box::new(b)),
                    BinOp::Mul => Term::Arith(ArithOp::Mul, Box::new(a), Box::new(b)),
                    _ => Term::Div {
                        num: Box::new(a),
                        den: Box::new(b),
                        rem: *op == BinOp::Mod,
                    },
                }
            }
            AK::BitNot(_) | AK::Binary(BinOp::BitAnd | BinOp::BitOr | BinOp::BitXor | BinOp::Shl | BinOp::Shr, ..) => {
                return self.bit_term(scope, e)
            }
            _ => {
                self.error(
                    e.span,
                    "expected an integer term here, found a condition",
                    "a condition",
                );
                return None;
            }
        })
    }

    /// C's `~x` (`x ^ -1` in `x`'s promoted type) or `a op b` for a
    /// bitwise `op` (in the operands' common type, a shift in its promoted
    /// left type).
    fn bit_term(&mut self, scope: &mut Scope, e: &acsl::Expr) -> Option<Term> {
        let (op, a, b) = match &e.kind {
            AK::BitNot(x) => {
                let x = self.term(scope, x)?;
                let ty = self.c_type(scope, &x, e.span)?.promote();
                let (a, b) = (Box::new(x), Box::new(Term::Const(-1)));
                return Some(Term::Bit {
                    op: BitOp::Xor,
                    ty,
                    a,
                    b,
                });
            }
            AK::Binary(op, a, b) => (op, a, b),
            _ => return None,
        };
        let (a, b) = (self.term(scope, a)?, self.term(scope, b)?);
        let (ta, tb) = (self.c_type(scope, &a, e.span)?, self.c_type(scope, &b, e.span)?);
        let (op, ty) = match op {
            BinOp::BitAnd => (BitOp::And, IntType::common(ta, tb)),
            BinOp::BitOr => (BitOp::Or, IntType::common(ta, tb)),
            BinOp::BitXor => (BitOp::Xor, IntType::common(ta, tb)),
            BinOp::Shl => (BitOp::Shl, ta.promote()),
            _ => (BitOp::Shr, ta.promote()),
        };
        let (a, b) = (Box::new(a), Box::new(b));
        Some(Term::Bit { op, ty, a, b })
    }

    /// The C type of a term, as C types the expression it was read from
    /// (what a bitwise operator works in): a variable's or element's type,
    /// an integer literal `int` when it fits, else `unsigned int` (C's type
    /// of a hexadecimal literal) when it fits that, else `long long`;
    /// arithmetic in the operands' common type; a quantified variable
    /// `int`. `None` (an error at `span`) for a floating value.
    fn c_type(&mut self, scope: &Scope, t: &Term, span: Span) -> Option<IntType> {
        let p = self.p;
        let ty = match t {
            Term::Const(c) if i32::try_from(*c).is_ok() => IntType::Int,
            Term::Const(c) if u32::try_from(*c).is_ok() => IntType::UInt,
            Term::Const(_) => IntType::LongLong,
            Term::Var { var, .. } | Term::Elem { var, .. } => p.var(*var).ty,
            Term::Result => p.proc(scope.proc).ret_var.map_or(IntType::Int, |r| p.var(r).ty),
            Term::Bound(_) | Term::Invalid => IntType::Int,
            Term::Neg(x) => self.c_type(scope, x, span)?.promote(),
            Term::Arith(_, a, b) | Term::Div { num: a, den: b, .. } | Term::Ite(_, a, b) => {
                IntType::common(self.c_type(scope, a, span)?, self.c_type(scope, b, span)?)
            }
            Term::Bit { ty, .. } => *ty,
        };
        if ty.is_float() {
            self.error(span, "a bitwise operator on a floating value", "not an integer");
            return None;
        }
        Some(ty)
    }

    /// In `ensures`, a parameter is its value at the call (as in ACSL).
    fn is_old(&self, scope: &Scope, v: VarId) -> bool {
        scope.old || (scope.kind == ClauseKind::Ensures && self.p.var(v).kind == VarKind::Param)
    }

    fn pred(&mut self, scope: &mut Scope, e: &acsl::Expr) -> Option<Pred> {
        let bin = |s: &mut Self, scope: &mut Scope, a, b| Some((s.pred(scope, a)?, s.pred(scope, b)?));
        Some(match &e.kind {
            AK::Bool(b) => Pred::Bool(*b),
            AK::Not(x) => Pred::Not(Box::new(self.pred(scope, x)?)),
            AK::Binary(BinOp::And, a, b) => {
                let (a, b) = bin(self, scope, a, b)?;
                Pred::And(vec![a, b])
            }
            AK::Binary(BinOp::Or, a, b) => {
                let (a, b) = bin(self, scope, a, b)?;
                Pred::Or(vec![a, b])
            }
            AK::Binary(BinOp::Implies, a, b) => {
                let (a, b) = bin(self, scope, a, b)?;
                Pred::Implies(Box::new(a), Box::new(b))
            }
            AK::Binary(BinOp::Iff, a, b) => {
                let (a, b) = bin(self, scope, a, b)?;
                Pred::Iff(Box::new(a), Box::new(b))
            }
            AK::Binary(op, a, b) if op.is_relational() => {
                let (a, b) = (self.term(scope, a), self.term(scope, b));
                let op = match op {
                    BinOp::Eq => RelOp::Eq,
                    BinOp::Ne => RelOp::Ne,
                    BinOp::Lt => RelOp::Lt,
                    BinOp::Le => RelOp::Le,
                    BinOp::Gt => RelOp::Gt,
                    _ => RelOp::Ge,
                };
                Pred::Rel(op, a?, b?)
            }
            AK::Cond(c, a, b) => {
                let c = self.pred(scope, c);
                let (a, b) = (self.pred(scope, a), self.pred(scope, b));
                Pred::Cond(Box::new(c?), Box::new(a?), Box::new(b?))
            }
            AK::Valid { .. } | AK::Separated(_) => {
                self.no_pointers(e.span);
                return None;
            }
            AK::Quant { forall, vars, body } => {
                let base = scope.bound.len();
                for v in vars {
                    scope.bound.push((v.name.clone(), self.next_bound));
                    self.next_bound += 1;
                }
                let inner = self.pred(scope, body);
                let ids: Vec<(String, u32)> = scope.bound.drain(base..).collect();
                let core = inner?;
                let mut out = core.clone();
                // Innermost variable first; its bounds may name the outer ones.
                for (i, (name, var)) in ids.iter().enumerate().rev() {
                    let inner_vars: Vec<u32> = ids[i..].iter().map(|(_, n)| *n).collect();
                    let Some((lo, hi)) = bounds(&core, *forall, *var, &inner_vars) else {
                        let form = if *forall {
                            format!("\\forall int {name}; lo <= {name} < hi ==> ...")
                        } else {
                            format!("\\exists int {name}; lo <= {name} < hi && ...")
                        };
                        self.diags.push(
                            Diag::error(
                                Class::Semantic,
                                e.span,
                                format!("the quantified variable `{name}` has no bounds"),
                            )
                            .with_label("unbounded quantifier")
                            .with_note(format!("write `{form}`")),
                        );
                        return None;
                    };
                    out = Pred::Quant {
                        forall: *forall,
                        var: *var,
                        name: name.clone(),
                        lo,
                        hi,
                        body: Box::new(out),
                    };
                }
                out
            }
            // A term used as a condition: C's reading, nonzero is true.
            _ => Pred::Rel(RelOp::Ne, self.term(scope, e)?, Term::Const(0)),
        })
    }
}

/// Does a term mention one of these quantified variables?
fn mentions(t: &Term, vars: &[u32]) -> bool {
    match t {
        Term::Bound(n) => vars.contains(n),
        Term::Const(_) | Term::Var { .. } | Term::Result => false,
        Term::Elem { index, .. } => mentions(index, vars),
        Term::Neg(x) => mentions(x, vars),
        Term::Arith(_, a, b) | Term::Bit { a, b, .. } => mentions(a, vars) || mentions(b, vars),
        Term::Div { num, den, .. } => mentions(num, vars) || mentions(den, vars),
        Term::Ite(c, a, b) => pred_mentions(c, vars) || mentions(a, vars) || mentions(b, vars),
        Term::Invalid => false,
    }
}

fn pred_mentions(p: &Pred, vars: &[u32]) -> bool {
    match p {
        Pred::Bool(_) => false,
        Pred::Rel(_, a, b) => mentions(a, vars) || mentions(b, vars),
        Pred::Not(x) => pred_mentions(x, vars),
        Pred::And(xs) | Pred::Or(xs) => xs.iter().any(|x| pred_mentions(x, vars)),
        Pred::Implies(a, b) | Pred::Iff(a, b) => pred_mentions(a, vars) || pred_mentions(b, vars),
        Pred::Cond(c, a, b) => [c, a, b].iter().any(|x| pred_mentions(x, vars)),
        Pred::Quant { lo, hi, body, .. } => mentions(lo, vars) || mentions(hi, vars) || pred_mentions(body, vars),
    }
}

fn conjuncts<'p>(p: &'p Pred, out: &mut Vec<&'p Pred>) {
    match p {
        Pred::And(xs) => xs.iter().for_each(|x| conjuncts(x, out)),
        _ => out.push(p),
    }
}

/// `lo..hi` (exclusive) for `var` from the guard of a quantifier body:
/// the antecedent of `\forall`'s implication, the conjuncts of `\exists`.
/// Bounds may not name `var` or variables quantified inside it.
fn bounds(body: &Pred, forall: bool, var: u32, inner: &[u32]) -> Option<(Term, Term)> {
    let guard = match (forall, body) {
        (true, Pred::Implies(a, _)) => a.as_ref(),
        (false, _) => body,
        _ => return None,
    };
    let mut atoms = Vec::new();
    conjuncts(guard, &mut atoms);
    let plus1 = |t: &Term| Term::Arith(ArithOp::Add, Box::new(t.clone()), Box::new(Term::Const(1)));
    let (mut lo, mut hi) = (None, None);
    for a in atoms {
        let Pred::Rel(op, l, r) = a else { continue };
        // Normalise to `var op other`.
        let (op, other) = match (l, r) {
            (Term::Bound(n), o) if *n == var => (*op, o),
            (o, Term::Bound(n)) if *n == var => (op.flip(), o),
            _ => continue,
        };
        if mentions(other, inner) {
            continue;
        }
        match op {
            RelOp::Ge if lo.is_none() => lo = Some(other.clone()),
            RelOp::Gt if lo.is_none() => lo = Some(plus1(other)),
            RelOp::Lt if hi.is_none() => hi = Some(other.clone()),
            RelOp::Le if hi.is_none() => hi = Some(plus1(other)),
            RelOp::Eq if lo.is_none() && hi.is_none() => {
                lo = Some(other.clone());
                hi = Some(plus1(other));
            }
            _ => {}
        }
    }
    Some((lo?, hi?))
}
