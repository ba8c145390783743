//! User error conditions (`--error EXPR`): a boolean expression over globals
//! and `proc::local` variables, violated at the first state in which it
//! holds.

use super::*;
use crate::diag::{Class, Diag};
use crate::syntax::ast::{self, BinOp, ExprKind as AK, UnOp};
use crate::syntax::{lexer, parser};

/// Which conditions a run reports (every engine reads the same; the
/// others still end paths).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Property {
    /// Every error condition.
    #[default]
    All,
    /// SV-COMP's `unreach-call`: calls of `reach_error`/`__VERIFIER_error`
    /// and failed `__VERIFIER_assert` only.
    UnreachCall,
    /// Only the `--error` conditions.
    User,
    /// SV-COMP's `no-overflow`: signed arithmetic overflow only (undefined
    /// in C; checked only under this property).
    NoOverflow,
    /// SV-COMP's `valid-memsafety`: invalid accesses and frees (`deref`,
    /// `bounds`) and leaks (`valid-memtrack`).
    ValidMemsafety,
    /// SV-COMP's `valid-memtrack`: objects unreachable at `main`'s end.
    ValidMemtrack,
    /// SV-COMP's `valid-memcleanup`: objects not freed at `main`'s end.
    ValidMemcleanup,
}

impl Property {
    /// Whether a site of `kind` is an error under the property.
    pub fn covers(self, kind: SiteKind) -> bool {
        match self {
            Property::All => kind != SiteKind::Leak,
            Property::UnreachCall => matches!(kind, SiteKind::Assert | SiteKind::ReachError),
            Property::User => false,
            Property::NoOverflow => matches!(kind, SiteKind::Overflow | SiteKind::Shift),
            Property::ValidMemsafety => matches!(kind, SiteKind::Deref | SiteKind::Bounds | SiteKind::Leak),
            Property::ValidMemtrack | Property::ValidMemcleanup => kind == SiteKind::Leak,
        }
    }

    /// The leaks that are errors under the property.
    pub fn leaks(self) -> Option<crate::ir::mem::Leaks> {
        match self {
            Property::ValidMemsafety | Property::ValidMemtrack => Some(crate::ir::mem::Leaks::Track),
            Property::ValidMemcleanup => Some(crate::ir::mem::Leaks::Cleanup),
            _ => None,
        }
    }
}

/// A boolean condition over variables, evaluated on states.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum BoolExpr {
    Atom(Atom),
    Not(Box<BoolExpr>),
    And(Box<BoolExpr>, Box<BoolExpr>),
    Or(Box<BoolExpr>, Box<BoolExpr>),
}

impl BoolExpr {
    /// Evaluates with `read` giving the value of a variable slot; `None`
    /// when an array index is out of range, a division by zero, or a value
    /// beyond 64 bits (`eval::Width::Wide`: intermediate results are
    /// wider, so an unsigned product wraps only at its `Conv`).
    pub fn eval(&self, read: &mut dyn FnMut(VarId, i64) -> Option<i64>) -> Option<bool> {
        use eval::{eval, Width::Wide};
        match self {
            BoolExpr::Atom(a) => Some(a.op.holds(eval(&a.lhs, Wide, read)?, eval(&a.rhs, Wide, read)?)),
            BoolExpr::Not(x) => Some(!x.eval(read)?),
            BoolExpr::And(a, b) => Some(a.eval(read)? && b.eval(read)?),
            BoolExpr::Or(a, b) => Some(a.eval(read)? || b.eval(read)?),
        }
    }
}

#[derive(Clone, Debug)]
pub struct UserCond {
    /// As the user wrote it.
    pub text: String,
    pub expr: BoolExpr,
    /// The variables it reads.
    pub vars: Vec<VarId>,
    /// The procedure whose locals it reads, if any.
    pub proc: Option<ProcId>,
}

/// Parses and resolves `--error TEXT` against a program. Errors are
/// reported against the text itself (file name `--error`).
pub fn parse_user_condition(p: &Program, text: &str) -> Result<UserCond, Vec<Diag>> {
    let mut diags = Vec::new();
    let lexed = lexer::lex(text, &mut diags);
    // `proc::name` arrives as `proc`, `:`, `:`, `name`: join it.
    let mut toks: Vec<lexer::Token> = Vec::new();
    let raw = lexed.tokens;
    let mut i = 0;
    while i < raw.len() {
        if i + 3 < raw.len()
            && raw[i].ident().is_some()
            && raw[i + 1].is_punct(":")
            && raw[i + 2].is_punct(":")
            && raw[i + 3].ident().is_some()
        {
            let name = format!("{}::{}", raw[i].ident().unwrap_or(""), raw[i + 3].ident().unwrap_or(""));
            toks.push(lexer::Token {
                kind: lexer::TokKind::Ident(name),
                span: raw[i].span.to(raw[i + 3].span),
                line_start: false,
            });
            i += 4;
            continue;
        }
        toks.push(raw[i].clone());
        i += 1;
    }
    if toks.len() == 1 {
        diags.push(
            Diag::error(Class::Syntax, Span::new(0, 0), "the error condition is empty")
                .with_label("expected an expression"),
        );
    }
    let e = if diags.is_empty() {
        parser::parse_expression(toks, &mut diags)
    } else {
        None
    };
    let Some(e) = e else { return Err(diags) };
    let mut r = Resolver {
        p,
        diags: Vec::new(),
        vars: Vec::new(),
        proc: None,
    };
    let expr = r.cond(&e);
    if !r.diags.is_empty() {
        return Err(r.diags);
    }
    let mut vars = r.vars;
    vars.sort();
    vars.dedup();
    Ok(UserCond {
        text: text.trim().to_string(),
        expr,
        vars,
        proc: r.proc,
    })
}

struct Resolver<'a> {
    p: &'a Program,
    diags: Vec<Diag>,
    vars: Vec<VarId>,
    proc: Option<ProcId>,
}

impl Resolver<'_> {
    fn err(&mut self, span: Span, msg: String, label: &str) {
        self.diags
            .push(Diag::error(Class::Semantic, span, msg).with_label(label));
    }

    fn var(&mut self, id: &ast::Ident) -> Option<VarId> {
        let p = self.p;
        let (proc, name) = match id.name.split_once("::") {
            Some((f, x)) => {
                let Some(pid) = p.proc_by_name(f) else {
                    self.err(id.span, format!("no function `{f}` in the program"), "unknown function");
                    return None;
                };
                (Some(pid), x)
            }
            None => (None, id.name.as_str()),
        };
        let found = match proc {
            Some(pid) => p
                .proc(pid)
                .locals
                .iter()
                .copied()
                .chain(p.globals.iter().copied())
                .find(|&v| {
                    let var = p.var(v);
                    var.name == name && var.proc == Some(pid) && matches!(var.kind, VarKind::Local | VarKind::Param)
                }),
            // A global first, then a local of the entry procedure.
            None => {
                p.globals
                    .iter()
                    .copied()
                    .find(|&v| p.var(v).name == name && p.var(v).kind == VarKind::Global)
                    .or_else(|| {
                        p.proc(p.entry).locals.iter().copied().find(|&v| {
                            p.var(v).name == name && matches!(p.var(v).kind, VarKind::Local | VarKind::Param)
                        })
                    })
            }
        };
        // A local whose address is taken is global storage, `f::x` when
        // its name is declared elsewhere too (`ir::mem`).
        let found = found.or_else(|| {
            let qualified = match proc {
                Some(_) => id.name.clone(),
                None => format!("{}::{name}", p.proc(p.entry).name),
            };
            p.globals
                .iter()
                .copied()
                .find(|&v| p.var(v).name == qualified && p.var(v).kind == VarKind::Global)
        });
        let Some(v) = found else {
            let where_ = match proc {
                Some(pid) => format!("a local of `{}`", p.proc(pid).name),
                None => format!("a global or a local of the entry `{}`", p.proc(p.entry).name),
            };
            self.err(id.span, format!("`{name}` is not {where_}"), "unknown variable");
            return None;
        };
        let var = p.var(v);
        if var.kind != VarKind::Global && !var.is_static {
            let owner = var.proc;
            if self.proc.is_some() && self.proc != owner {
                self.err(
                    id.span,
                    "an error condition can read the locals of one procedure only".into(),
                    "second procedure",
                );
                return None;
            }
            self.proc = owner;
        }
        self.vars.push(v);
        Some(v)
    }

    /// `e` of C type `from` as a value of type `to` (C's conversion; a
    /// value every value of which fits is left alone).
    fn convert(&self, e: Expr, from: IntType, to: IntType) -> Expr {
        let (lo, hi) = static_range(&e, &|v| self.p.var(v).ty);
        let (tlo, thi) = to.c_range();
        if from == to || (tlo <= lo && hi <= thi) {
            return e;
        }
        let span = e.span;
        if let ExprKind::Const(c) = e.kind {
            if let Ok(c) = i64::try_from(to.convert(c as i128)) {
                return Expr {
                    kind: ExprKind::Const(c),
                    span,
                };
            }
        }
        Expr {
            kind: ExprKind::Conv(to, Box::new(e)),
            span,
        }
    }

    /// A value with its C type (C11 6.5: the integer promotions and the
    /// usual arithmetic conversions, as in the program; an unsigned result
    /// wraps, a signed overflow keeps its mathematical value, as lowering
    /// does).
    fn value(&mut self, e: &ast::Expr) -> (Expr, IntType) {
        let span = e.span;
        let mk = |kind| Expr { kind, span };
        let int = IntType::Int;
        match &e.kind {
            AK::Int(v, t) => (mk(ExprKind::Const(*v)), *t),
            AK::Bool(b) => (mk(ExprKind::Const(*b as i64)), int),
            AK::Var(id) => {
                if let Some(&(c, t)) = self.p.constants.get(&id.name) {
                    return (mk(ExprKind::Const(c)), t);
                }
                match self.var(id) {
                    Some(v) if self.p.var(v).len.is_some() => {
                        self.err(
                            id.span,
                            format!("array `{}` used without an index", id.name),
                            "needs `[index]`",
                        );
                        (mk(ExprKind::Const(0)), int)
                    }
                    Some(v) if self.p.var(v).ty.is_float() => {
                        self.err(
                            id.span,
                            format!(
                                "`{}` is a `{}`: floating point in an error condition is not supported yet",
                                id.name,
                                self.p.var(v).ty.c_name()
                            ),
                            "floating variable",
                        );
                        (mk(ExprKind::Const(0)), int)
                    }
                    Some(v) => (mk(ExprKind::Var(v)), self.p.var(v).ty),
                    None => (mk(ExprKind::Const(0)), int),
                }
            }
            AK::Index(id, i) => {
                let (idx, _) = self.value(i);
                match self.var(id) {
                    Some(v) if self.p.var(v).ty.is_float() => {
                        self.err(
                            id.span,
                            format!(
                                "`{}` holds floating values: floating point in an error condition is not supported yet",
                                id.name
                            ),
                            "floating array",
                        );
                        (mk(ExprKind::Const(0)), int)
                    }
                    Some(v) if self.p.var(v).len.is_some() => {
                        (mk(ExprKind::Elem(v, Box::new(idx), SiteId(u32::MAX))), self.p.var(v).ty)
                    }
                    Some(_) => {
                        self.err(id.span, format!("`{}` is not an array", id.name), "cannot be indexed");
                        (mk(ExprKind::Const(0)), int)
                    }
                    None => (mk(ExprKind::Const(0)), int),
                }
            }
            AK::Unary(UnOp::Neg, x) => {
                let (x, t) = self.value(x);
                let ty = t.promote();
                let x = self.convert(x, t, ty);
                (self.wrap(mk(ExprKind::Neg(Box::new(x))), ty), ty)
            }
            AK::Unary(UnOp::Plus, x) => {
                let (x, t) = self.value(x);
                (self.convert(x, t, t.promote()), t.promote())
            }
            AK::Cast(IntType::Bool, _) => {
                self.err(
                    span,
                    "a cast to `_Bool` is not supported in an error condition".into(),
                    "write `(x != 0)` instead",
                );
                (mk(ExprKind::Const(0)), int)
            }
            AK::Cast(to, x) => {
                let (x, t) = self.value(x);
                (self.convert(x, t, *to), *to)
            }
            AK::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Mod), a, b) => {
                let (a, ta) = self.value(a);
                let (b, tb) = self.value(b);
                let ty = IntType::common(ta, tb);
                let (a, b) = (Box::new(self.convert(a, ta, ty)), Box::new(self.convert(b, tb, ty)));
                let kind = match op {
                    BinOp::Add => ExprKind::Arith(ArithOp::Add, a, b),
                    BinOp::Sub => ExprKind::Arith(ArithOp::Sub, a, b),
                    BinOp::Mul => ExprKind::Arith(ArithOp::Mul, a, b),
                    _ => ExprKind::Div {
                        num: a,
                        den: b,
                        rem: *op == BinOp::Mod,
                        site: SiteId(u32::MAX),
                    },
                };
                (self.wrap(mk(kind), ty), ty)
            }
            _ => {
                self.err(
                    span,
                    "expected an integer expression here".into(),
                    "a condition cannot be a number",
                );
                (mk(ExprKind::Const(0)), int)
            }
        }
    }

    /// An arithmetic result of type `ty`: reduced modulo 2^N when `ty` is
    /// unsigned (C11 6.2.5p9).
    fn wrap(&self, e: Expr, ty: IntType) -> Expr {
        if ty.is_signed() {
            e
        } else {
            self.convert(e, IntType::LongLong, ty)
        }
    }

    fn cond(&mut self, e: &ast::Expr) -> BoolExpr {
        match &e.kind {
            AK::Binary(BinOp::And, a, b) => BoolExpr::And(Box::new(self.cond(a)), Box::new(self.cond(b))),
            AK::Binary(BinOp::Or, a, b) => BoolExpr::Or(Box::new(self.cond(a)), Box::new(self.cond(b))),
            AK::Unary(UnOp::Not, x) => BoolExpr::Not(Box::new(self.cond(x))),
            AK::Binary(op, a, b) if op.is_relational() => {
                let op = match op {
                    BinOp::Eq => RelOp::Eq,
                    BinOp::Ne => RelOp::Ne,
                    BinOp::Lt => RelOp::Lt,
                    BinOp::Le => RelOp::Le,
                    BinOp::Gt => RelOp::Gt,
                    _ => RelOp::Ge,
                };
                // Both sides in their common type, as C compares them.
                let (a, ta) = self.value(a);
                let (b, tb) = self.value(b);
                let ty = IntType::common(ta, tb);
                BoolExpr::Atom(Atom {
                    lhs: self.convert(a, ta, ty),
                    op,
                    rhs: self.convert(b, tb, ty),
                })
            }
            AK::Call(..) | AK::Assign(..) | AK::IncDec { .. } | AK::Comma(_) | AK::Ternary(..) => {
                self.err(
                    e.span,
                    "an error condition cannot call functions or assign".into(),
                    "not allowed here",
                );
                BoolExpr::Atom(Atom {
                    lhs: Expr {
                        kind: ExprKind::Const(0),
                        span: e.span,
                    },
                    op: RelOp::Ne,
                    rhs: Expr {
                        kind: ExprKind::Const(0),
                        span: e.span,
                    },
                })
            }
            _ => {
                let (v, _) = self.value(e);
                BoolExpr::Atom(Atom {
                    lhs: v,
                    op: RelOp::Ne,
                    rhs: Expr {
                        kind: ExprKind::Const(0),
                        span: e.span,
                    },
                })
            }
        }
    }
}

/// The conditions of a run: those given with `--error`, or else `error`
/// (meaning `error != 0`) when a global or entry local of that name exists.
pub fn user_conditions(p: &Program, given: &[String]) -> Result<Vec<UserCond>, (String, Vec<Diag>)> {
    let mut out = Vec::new();
    for text in given {
        out.push(parse_user_condition(p, text).map_err(|d| (text.clone(), d))?);
    }
    if given.is_empty() {
        let has_error = p
            .globals
            .iter()
            .any(|&g| p.var(g).name == "error" && p.var(g).kind == VarKind::Global)
            || p.proc(p.entry)
                .locals
                .iter()
                .any(|&l| p.var(l).name == "error" && p.var(l).kind == VarKind::Local);
        if has_error {
            out.push(parse_user_condition(p, "error").map_err(|d| ("error".to_string(), d))?);
        }
    }
    Ok(out)
}
