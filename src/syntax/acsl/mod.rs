//! ACSL annotations (the specification comments of Frama-C), the subset
//! focuscheck reads: `/*@ requires P; ensures P; assigns L; */` before a
//! function, `/*@ loop invariant P; */` before a loop or a label, and
//! `//@ assert P;` as a statement.
//!
//! The lexer records every comment that starts with `@` (`Comment`); this
//! module parses its text into clauses (`lex.rs`, `parse.rs`). Formulas
//! are C expressions (with `*p`, `&x`, `a[i]`, `s.f`, `p->f` and `c ? a :
//! b`, the bitwise `&`, `|`, `^`, `~`, `<<`, `>>` with C's precedence and
//! C's semantics in the operands' types) plus `==>`, `<==>`, chained comparisons (`0 <= i < n`), `\result`,
//! `\old(e)`, `\at(e, Pre)`, `\true`, `\false`, `\null`, `\valid(L)`,
//! `\valid_read(L)`, `\separated(L, ...)` over sets of locations (`p`,
//! `p + (lo..hi)`, `&a[i]`) and `\forall`/`\exists` over `int` (or
//! `integer`) variables. Every error is located in the file.
//!
//! Pointers and structs in a formula are read by the memory model
//! (`ir::mem::acsl`), which rewrites them over the integer storage every
//! engine sees; the kinds it makes are marked "made by the memory model".

mod lex;
mod parse;
#[cfg(test)]
mod tests;

use super::source::Span;
pub use parse::parse;

/// An annotation comment as the lexer found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Comment {
    /// The whole comment, `/*@ ... */` or `//@ ...`.
    pub span: Span,
    /// Its text after the `@`.
    pub body: Span,
}

/// The first word of an annotation (`assert`, `loop`, `requires`, ...):
/// what the lexer needs to decide where it belongs.
pub fn first_word(body: &str) -> &str {
    let t = body.trim_start_matches(|c: char| c.is_whitespace() || c == '@');
    let end = t
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(t.len());
    &t[..end]
}

/// The label the lexer puts in front of a statement annotation, so that the
/// annotation becomes a statement exactly where it is written.
pub fn marker_label(kind: &str, index: usize) -> String {
    format!("__acsl_{kind}_{index}")
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    Or,
    Implies,
    Iff,
    /// C's `&`, `|`, `^`, `<<`, `>>`: in the operands' C type (`Term::Bit`).
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
}

impl BinOp {
    pub fn is_relational(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

/// A term or a predicate; which one is decided when names are resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Var(Ident),
    /// `a[i]`; in a set of locations the index may be a `Range`.
    Index(Box<Expr>, Box<Expr>),
    Result,
    /// `\old(e)` or `\at(e, Pre)`: `e` in the state where the function
    /// started.
    Old(Box<Expr>),
    Neg(Box<Expr>),
    Not(Box<Expr>),
    /// C's `~e`, in `e`'s promoted type.
    BitNot(Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Quant {
        forall: bool,
        vars: Vec<Ident>,
        body: Box<Expr>,
    },
    /// `*e`.
    Deref(Box<Expr>),
    /// `&e`.
    AddrOf(Box<Expr>),
    /// `e.f`, or `e->f` when `arrow`.
    Member(Box<Expr>, Ident, bool),
    /// `\null`.
    Null,
    /// `lo..hi` (`..` alone: every index), in a set of locations.
    Range(Option<Box<Expr>>, Option<Box<Expr>>),
    /// `\valid(L)` (`read`: `\valid_read(L)`): every location of `L` can
    /// be accessed.
    Valid {
        read: bool,
        locs: Box<Expr>,
    },
    /// `\separated(L1, ..., Ln)`: the sets of locations do not overlap.
    Separated(Vec<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Made by the memory model: a read through a pointer where no valid
    /// object is: the formula reading it neither holds nor fails
    /// (`ir::contract::Term::Invalid`).
    Invalid,
    /// Made by the memory model: the number of elements of array storage.
    LenOf(Ident),
    /// Made by the memory model: element `i` of an object's storage, read
    /// where the object is valid (past the storage only where the model
    /// holds fewer elements than the object has: beyond the model).
    Storage(Ident, Box<Expr>),
}

/// A location an `assigns` clause names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Loc {
    /// `\nothing`.
    Nothing,
    Var(Ident),
    /// `a[e]`.
    Elem(Ident, Expr),
    /// `a[..]`: every element.
    Whole(Ident),
    /// `a[lo..hi]`: the elements `lo` to `hi` (both included).
    Range(Ident, Expr, Expr),
    /// Any other location (`*p`, `p->f`, `p[0..n-1]`), for the memory model.
    Expr(Expr),
    /// Made by the memory model: `loc` when `cond` holds (read when the
    /// function starts).
    If(Expr, Box<Loc>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ClauseKind {
    Requires,
    Ensures,
    Assigns,
    LoopInvariant,
    Assert,
}

impl ClauseKind {
    pub fn keyword(self) -> &'static str {
        match self {
            ClauseKind::Requires => "requires",
            ClauseKind::Ensures => "ensures",
            ClauseKind::Assigns => "assigns",
            ClauseKind::LoopInvariant => "loop invariant",
            ClauseKind::Assert => "assert",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClauseBody {
    Pred(Expr),
    Locs(Vec<(Loc, Span)>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    pub kind: ClauseKind,
    /// From the keyword to the `;` (excluded).
    pub span: Span,
    /// The formula (or locations) as written, on one line.
    pub text: String,
    pub body: ClauseBody,
}

/// What an annotation is, by where it may stand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnnotKind {
    /// `requires`/`ensures`/`assigns`: before a function definition.
    Contract,
    /// `loop invariant`: before a loop or a label.
    Loop,
    /// `assert`: a statement.
    Assert,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Annotation {
    pub kind: AnnotKind,
    pub comment: Comment,
    pub clauses: Vec<Clause>,
}
