//! ACSL contracts resolved against the program: function contracts
//! (`requires`, `ensures`, `assigns`), loop (and label) invariants, and
//! assertions, with names bound to variables and every place found in the
//! IR. Both engines read them from here: the VC engine as formulas
//! (`vc::gc::spec`), the Datalog engine and the interpreter as checks the
//! program makes (`instrument`).
//!
//! Readings (documented in docs/cimple.md): arithmetic in annotations is
//! mathematical; a parameter in an `ensures` means its value at the call
//! (as in ACSL); `\old(e)` (or `\at(e, Pre)`) is `e` when the function
//! started, also in loop invariants and assertions; a quantifier must bound
//! its variable in its antecedent (`\forall int i; lo <= i < hi ==> P`,
//! `\exists int i; lo <= i < hi && P`), so both engines can read it.

mod defined;
pub mod instrument;
mod lift;
mod resolve;

pub use resolve::resolve;

use super::*;
use crate::diag::Diag;
use crate::syntax::acsl;
pub use crate::syntax::acsl::ClauseKind;
use std::collections::BTreeMap;

pub type ClauseId = usize;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Term {
    Const(i64),
    /// A variable, now or (`old`) when the function started.
    Var {
        var: VarId,
        old: bool,
    },
    Elem {
        var: VarId,
        old: bool,
        index: Box<Term>,
        /// An object's storage read by the memory model where the object
        /// is valid: outside the storage only past what the model holds
        /// (a heap object's elements), which is beyond the model.
        guarded: bool,
    },
    /// `\result`.
    Result,
    /// A quantified variable.
    Bound(u32),
    Neg(Box<Term>),
    Arith(ArithOp, Box<Term>, Box<Term>),
    /// `/` or `%` (`rem`), truncating as in C.
    Div {
        num: Box<Term>,
        den: Box<Term>,
        rem: bool,
    },
    /// C's `a op b` done in `ty` (`BitOp::apply`; `~x` is `x ^ -1`): the
    /// operands' common type, a shift's promoted left type. An undefined
    /// shift is an error where a run evaluates it, as in the program.
    Bit {
        op: BitOp,
        ty: IntType,
        a: Box<Term>,
        b: Box<Term>,
    },
    /// `c ? a : b` (also how the memory model reads through a pointer: by
    /// cases on the object it points to).
    Ite(Box<Pred>, Box<Term>, Box<Term>),
    /// A read through a pointer where no object is valid. A formula that
    /// evaluates it (as C evaluates `&&`, `||`, `?:`, left to right)
    /// neither holds nor fails: a check of it is violated, an assumption
    /// of it excludes the run (E-ACSL's reading, and the VC engine's
    /// through `Pred::defined`).
    Invalid,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Pred {
    Bool(bool),
    Rel(RelOp, Term, Term),
    Not(Box<Pred>),
    And(Vec<Pred>),
    Or(Vec<Pred>),
    Implies(Box<Pred>, Box<Pred>),
    Iff(Box<Pred>, Box<Pred>),
    /// `if c then a else b` (made by `lift`, from a term `c ? x : y`).
    Cond(Box<Pred>, Box<Pred>, Box<Pred>),
    /// One quantified variable; `body` holds exactly when the variable is
    /// in `lo..hi` (exclusive) for `\exists`, and always outside it for
    /// `\forall`, so only that range matters.
    Quant {
        forall: bool,
        var: u32,
        name: String,
        lo: Term,
        hi: Term,
        body: Box<Pred>,
    },
}

/// A location an `assigns` clause allows the function to change; every
/// term is read when the function starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Assigned {
    Var(VarId),
    /// One element.
    Elem(VarId, Term),
    Whole(VarId),
    /// The elements `lo` to `hi`, both included.
    Range(VarId, Term, Term),
    /// The location when the condition holds (a location through a
    /// pointer: by cases on the object it points to).
    If(Pred, Box<Assigned>),
}

impl Assigned {
    /// The storage it names.
    pub fn var(&self) -> VarId {
        match self {
            Assigned::Var(v) | Assigned::Elem(v, _) | Assigned::Whole(v) | Assigned::Range(v, ..) => *v,
            Assigned::If(_, a) => a.var(),
        }
    }

    /// Every variable its terms read.
    pub fn vars(&self, out: &mut Vec<(VarId, bool)>) {
        match self {
            Assigned::Var(_) | Assigned::Whole(_) => {}
            Assigned::Elem(_, i) => i.vars(out),
            Assigned::Range(_, lo, hi) => {
                lo.vars(out);
                hi.vars(out);
            }
            Assigned::If(c, a) => {
                c.vars(out);
                a.vars(out);
            }
        }
    }

    /// When it lets `v` (element `k` of an array) change: `None` when
    /// it names none of `v`.
    fn allows(&self, v: VarId, k: &Term) -> Option<Pred> {
        if self.var() != v {
            return None;
        }
        let rel = |op, a: &Term, b: &Term| Pred::Rel(op, a.clone(), b.clone());
        Some(match self {
            Assigned::Var(_) | Assigned::Whole(_) => Pred::Bool(true),
            Assigned::Elem(_, i) => rel(RelOp::Eq, k, i),
            Assigned::Range(_, lo, hi) => Pred::And(vec![rel(RelOp::Le, lo, k), rel(RelOp::Le, k, hi)]),
            Assigned::If(c, a) => Pred::And(vec![(*c).clone(), a.allows(v, k)?]),
        })
    }
}

/// When the locations `list` let `v` (element `k` of an array; for a
/// scalar `k` is not read) change, in the state the function started in:
/// `None` when they name none of `v`, `Bool(true)` when all of it always.
pub fn allowed<'a>(list: impl IntoIterator<Item = &'a Assigned>, v: VarId, k: &Term) -> Option<Pred> {
    let cases: Vec<Pred> = list.into_iter().filter_map(|a| a.allows(v, k)).collect();
    if cases.is_empty() {
        None
    } else if cases.contains(&Pred::Bool(true)) {
        Some(Pred::Bool(true))
    } else {
        Some(Pred::Or(cases))
    }
}

#[derive(Clone, Debug)]
pub struct Clause {
    pub kind: ClauseKind,
    pub proc: ProcId,
    /// The clause in the file, keyword to `;`.
    pub span: Span,
    /// The formula as written, on one line.
    pub text: String,
    /// `assigns`: `true`.
    pub pred: Pred,
}

#[derive(Clone, Debug, Default)]
pub struct FnContract {
    pub requires: Vec<ClauseId>,
    pub ensures: Vec<ClauseId>,
    /// What `assigns` clauses allow (none: anything the function writes).
    pub assigns: Option<Vec<(Assigned, ClauseId)>>,
    /// The annotation comment.
    pub span: Span,
    /// Where the function's starting state is, when not at its entry:
    /// after the prologue the memory model gives it (parameters set up).
    pub start: Option<NodeId>,
}

impl FnContract {
    /// The node whose successor is the contract's starting state.
    pub fn start_at(&self, p: &Program, f: ProcId) -> NodeId {
        self.start.unwrap_or(p.proc(f).entry)
    }
}

/// Invariants of a loop head (or of a label: checked each time control
/// reaches it).
#[derive(Clone, Debug)]
pub struct Invariants {
    /// The loop head or label node.
    pub at: NodeId,
    pub clauses: Vec<ClauseId>,
    /// The label's name when the invariant is written before a label.
    pub label: Option<String>,
}

#[derive(Clone, Debug, Default)]
pub struct Contracts {
    pub clauses: Vec<Clause>,
    pub funcs: BTreeMap<ProcId, FnContract>,
    pub invariants: Vec<Invariants>,
    /// `//@ assert` statements: the node standing for each, and its clause.
    pub asserts: Vec<(NodeId, ClauseId)>,
}

impl Contracts {
    pub fn is_empty(&self) -> bool {
        self.clauses.is_empty()
    }

    pub fn of(&self, f: ProcId) -> Option<&FnContract> {
        self.funcs.get(&f)
    }

    pub fn clause(&self, c: ClauseId) -> &Clause {
        &self.clauses[c]
    }

    /// The invariants written before the loop head or label `n`.
    pub fn invariants_at(&self, n: NodeId) -> Option<&Invariants> {
        self.invariants.iter().find(|i| i.at == n)
    }

    pub fn asserts_at(&self, n: NodeId) -> impl Iterator<Item = ClauseId> + '_ {
        self.asserts.iter().filter(move |(m, _)| *m == n).map(|(_, c)| *c)
    }

    /// Function contracts, assertions, or invariants the VC engine's
    /// loop cutting cannot read (with a quantifier, `\old`, or at a label
    /// no loop goes back to): what only the contract engine checks.
    pub fn has_specs(&self, loop_heads: &dyn Fn(NodeId) -> bool) -> bool {
        self.has_checks(loop_heads) || self.has_formula_invariants(loop_heads)
    }

    /// Function contracts, assertions, or invariants at a label no loop
    /// goes back to: what becomes a check the program makes
    /// (`instrument`) rather than a loop invariant.
    pub fn has_checks(&self, loop_heads: &dyn Fn(NodeId) -> bool) -> bool {
        !self.funcs.is_empty() || !self.asserts.is_empty() || self.invariants.iter().any(|i| !loop_heads(i.at))
    }

    /// Loop invariants that are not one state's plain condition (with a
    /// quantifier, `\old`): formulas only the contract engine's reading
    /// (`vc::gc::spec`) states.
    pub fn has_formula_invariants(&self, loop_heads: &dyn Fn(NodeId) -> bool) -> bool {
        self.invariants.iter().any(|i| {
            loop_heads(i.at)
                && i.clauses
                    .iter()
                    .any(|&c| self.clauses[c].pred.read_in_state(self.clauses[c].span).is_none())
        })
    }
}

impl Term {
    /// Every variable read, with whether it is read in the old state.
    pub fn vars(&self, out: &mut Vec<(VarId, bool)>) {
        match self {
            Term::Const(_) | Term::Result | Term::Bound(_) => {}
            Term::Var { var, old } => out.push((*var, *old)),
            Term::Elem { var, old, index, .. } => {
                out.push((*var, *old));
                index.vars(out);
            }
            Term::Neg(x) => x.vars(out),
            Term::Arith(_, a, b) | Term::Bit { a, b, .. } => {
                a.vars(out);
                b.vars(out);
            }
            Term::Div { num, den, .. } => {
                num.vars(out);
                den.vars(out);
            }
            Term::Ite(c, a, b) => {
                c.vars(out);
                a.vars(out);
                b.vars(out);
            }
            Term::Invalid => {}
        }
    }
}

impl Pred {
    pub fn vars(&self, out: &mut Vec<(VarId, bool)>) {
        match self {
            Pred::Bool(_) => {}
            Pred::Rel(_, a, b) => {
                a.vars(out);
                b.vars(out);
            }
            Pred::Not(x) => x.vars(out),
            Pred::And(xs) | Pred::Or(xs) => xs.iter().for_each(|x| x.vars(out)),
            Pred::Implies(a, b) | Pred::Iff(a, b) => {
                a.vars(out);
                b.vars(out);
            }
            Pred::Cond(c, a, b) => {
                c.vars(out);
                a.vars(out);
                b.vars(out);
            }
            Pred::Quant { lo, hi, body, .. } => {
                lo.vars(out);
                hi.vars(out);
                body.vars(out);
            }
        }
    }
}

impl Term {
    /// The term as an IR expression, when it reads the current state only.
    fn to_expr(&self, span: Span) -> Option<Expr> {
        let mk = |kind| Some(Expr { kind, span });
        match self {
            Term::Const(c) => mk(ExprKind::Const(*c)),
            Term::Var { var, old: false } => mk(ExprKind::Var(*var)),
            Term::Elem {
                var, old: false, index, ..
            } => mk(ExprKind::Elem(*var, Box::new(index.to_expr(span)?), SiteId(u32::MAX))),
            Term::Neg(x) => mk(ExprKind::Neg(Box::new(x.to_expr(span)?))),
            Term::Arith(op, a, b) => mk(ExprKind::Arith(
                *op,
                Box::new(a.to_expr(span)?),
                Box::new(b.to_expr(span)?),
            )),
            Term::Div { num, den, rem } => mk(ExprKind::Div {
                num: Box::new(num.to_expr(span)?),
                den: Box::new(den.to_expr(span)?),
                rem: *rem,
                site: SiteId(u32::MAX),
            }),
            Term::Bit { op, ty, a, b } => mk(ExprKind::Bit {
                op: *op,
                ty: *ty,
                a: Box::new(a.to_expr(span)?),
                b: Box::new(b.to_expr(span)?),
                site: None,
                strict: false,
            }),
            Term::Var { .. } | Term::Elem { .. } | Term::Result | Term::Bound(_) | Term::Ite(..) | Term::Invalid => {
                None
            }
        }
    }
}

impl Pred {
    /// The predicate as one state's condition as a run reads it (what the
    /// VC engine's loop invariants read): reads through pointers by cases
    /// on their objects (`lift`), false where none is valid (`defined`).
    pub fn read_in_state(&self, span: Span) -> Option<cond::BoolExpr> {
        self.lift().defined(true).to_bool_expr(span)
    }

    /// The predicate as a condition on one state (what `--error` and the
    /// VC engine's loop invariants read), when it has no quantifier, no
    /// `\old` and no `\result`.
    pub fn to_bool_expr(&self, span: Span) -> Option<cond::BoolExpr> {
        use cond::BoolExpr as B;
        let not = |x: B| B::Not(Box::new(x));
        Some(match self {
            Pred::Bool(b) => {
                let zero = Expr {
                    kind: ExprKind::Const(0),
                    span,
                };
                B::Atom(Atom {
                    lhs: zero.clone(),
                    op: if *b { RelOp::Eq } else { RelOp::Ne },
                    rhs: zero,
                })
            }
            Pred::Rel(op, a, b) => B::Atom(Atom {
                lhs: a.to_expr(span)?,
                op: *op,
                rhs: b.to_expr(span)?,
            }),
            Pred::Not(x) => not(x.to_bool_expr(span)?),
            Pred::And(xs) | Pred::Or(xs) => {
                let and = matches!(self, Pred::And(_));
                let mut it = xs.iter().map(|x| x.to_bool_expr(span));
                let first = it.next()??;
                it.try_fold(first, |acc, x| {
                    let x = x?;
                    Some(if and {
                        B::And(Box::new(acc), Box::new(x))
                    } else {
                        B::Or(Box::new(acc), Box::new(x))
                    })
                })?
            }
            Pred::Implies(a, b) => B::Or(Box::new(not(a.to_bool_expr(span)?)), Box::new(b.to_bool_expr(span)?)),
            Pred::Iff(a, b) => {
                let (a, b) = (a.to_bool_expr(span)?, b.to_bool_expr(span)?);
                B::And(
                    Box::new(B::Or(Box::new(not(a.clone())), Box::new(b.clone()))),
                    Box::new(B::Or(Box::new(a), Box::new(not(b)))),
                )
            }
            // `if c then a else b` (a read through a pointer, lifted).
            Pred::Cond(c, a, b) => {
                let (c, a, b) = (c.to_bool_expr(span)?, a.to_bool_expr(span)?, b.to_bool_expr(span)?);
                B::Or(
                    Box::new(B::And(Box::new(c.clone()), Box::new(a))),
                    Box::new(B::And(Box::new(not(c)), Box::new(b))),
                )
            }
            Pred::Quant { .. } => return None,
        })
    }
}

/// The offset of the first token after `from` (blanks and comments skipped).
pub fn next_token(text: &str, mut from: usize) -> usize {
    let b = text.as_bytes();
    loop {
        while from < b.len() && b[from].is_ascii_whitespace() {
            from += 1;
        }
        if text[from..].starts_with("//") {
            from += text[from..].find('\n').unwrap_or(text.len() - from);
        } else if text[from..].starts_with("/*") {
            from += text[from..].find("*/").map(|i| i + 2).unwrap_or(text.len() - from);
        } else {
            return from;
        }
    }
}

/// The offset of the `;` that ends the first clause of the `for` at `at`
/// (its declaration or expression; parentheses within it skipped), if
/// `at` starts `for (`.
pub fn for_clause_end(text: &str, at: usize) -> Option<u32> {
    let rest = text.get(at..)?.strip_prefix("for")?;
    let open = at + 3 + rest.find(|c: char| !c.is_ascii_whitespace())?;
    (text.as_bytes().get(open) == Some(&b'(')).then_some(())?;
    let mut depth = 0i32;
    for (i, c) in text[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 1 => return None,
            ')' => depth -= 1,
            ';' if depth == 1 => return Some((open + i) as u32),
            _ => {}
        }
    }
    None
}

/// Parses the annotation comments of a file (syntax only).
pub fn parse_all(text: &str, comments: &[acsl::Comment]) -> (Vec<acsl::Annotation>, Vec<Diag>) {
    let mut out = Vec::new();
    let mut diags = Vec::new();
    for c in comments {
        match acsl::parse(text, *c) {
            Ok(a) => out.push(a),
            Err(d) => diags.push(d),
        }
    }
    (out, diags)
}
