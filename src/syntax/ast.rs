//! The abstract syntax tree of a Cimple file. Every node has a span.

use super::source::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// The integer types of Cimple. All are mathematical integers at run time;
/// the type only bounds the values of inputs of that type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntType {
    Bool,
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
}

impl IntType {
    /// The range of an input of this type (ILP32, as SV-COMP assumes).
    pub fn range(self) -> (i64, i64) {
        match self {
            IntType::Bool => (0, 1),
            IntType::Char | IntType::SChar => (-128, 127),
            IntType::UChar => (0, 255),
            IntType::Short => (-32768, 32767),
            IntType::UShort => (0, 65535),
            IntType::Int | IntType::Long => (i32::MIN as i64, i32::MAX as i64),
            IntType::UInt | IntType::ULong => (0, u32::MAX as i64),
            IntType::LongLong => (i64::MIN, i64::MAX),
            IntType::ULongLong => (0, i64::MAX),
        }
    }

    pub fn c_name(self) -> &'static str {
        match self {
            IntType::Bool => "_Bool",
            IntType::Char => "char",
            IntType::SChar => "signed char",
            IntType::UChar => "unsigned char",
            IntType::Short => "short",
            IntType::UShort => "unsigned short",
            IntType::Int => "int",
            IntType::UInt => "unsigned int",
            IntType::Long => "long",
            IntType::ULong => "unsigned long",
            IntType::LongLong => "long long",
            IntType::ULongLong => "unsigned long long",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetType {
    Void,
    Int(IntType),
}

#[derive(Clone, Debug)]
pub struct Program {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug)]
pub enum Item {
    Globals(Vec<VarDecl>),
    Function(Function),
    /// A prototype (`extern` or not): accepted, checked against the
    /// definition if there is one.
    Prototype(Prototype),
    /// A function definition outside the subset, kept only by name so that a
    /// call to it can be reported.
    Skipped(SkippedFunction),
}

#[derive(Clone, Debug)]
pub struct VarDecl {
    pub ty: IntType,
    pub name: Ident,
    /// `Some(size)` for an array.
    pub array: Option<Expr>,
    pub init: Option<Init>,
    pub span: Span,
    pub is_static: bool,
}

#[derive(Clone, Debug)]
pub enum Init {
    Expr(Expr),
    /// `{e1, e2, ...}` for arrays.
    List(Vec<Expr>, Span),
}

#[derive(Clone, Debug)]
pub struct Param {
    pub ty: IntType,
    pub name: Option<Ident>,
    pub span: Span,
    /// A pointer or array parameter (`char *argv[]`): outside Cimple, and
    /// accepted only where the body never uses it.
    pub pointer: bool,
}

#[derive(Clone, Debug)]
pub struct Prototype {
    pub ret: RetType,
    pub name: Ident,
    /// `None` when the parameter list was not given (`f()`) or uses types
    /// outside Cimple (prototypes of library functions are accepted as is).
    pub params: Option<Vec<Param>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub ret: RetType,
    pub name: Ident,
    pub params: Vec<Param>,
    pub body: Block,
    pub span: Span,
    /// Constructs outside the subset found while parsing the body; a
    /// function with any is left out (an error only if it is reachable).
    pub unsupported: Vec<(Span, String)>,
}

#[derive(Clone, Debug)]
pub struct SkippedFunction {
    pub name: Ident,
    pub span: Span,
    /// Why the function is outside the subset (the first few reasons).
    pub reasons: Vec<(Span, String)>,
}

#[derive(Clone, Debug)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Decl(Vec<VarDecl>),
    /// An expression statement: an assignment, a call, `x++`, a comma list.
    Expr(Expr),
    If(Cond, Box<Stmt>, Option<Box<Stmt>>),
    While(Cond, Box<Stmt>),
    DoWhile(Box<Stmt>, Cond),
    For(Option<Box<Stmt>>, Option<Cond>, Option<Expr>, Box<Stmt>),
    Switch(Expr, Box<Stmt>),
    Case(Expr, Box<Stmt>),
    Default(Box<Stmt>),
    Break,
    Continue,
    Return(Option<Expr>),
    Goto(Ident),
    Labeled(Ident, Box<Stmt>),
    Block(Block),
    Empty,
}

/// A condition: an expression, or `*` (non-deterministic choice).
#[derive(Clone, Debug)]
pub enum Cond {
    Expr(Expr),
    Star(Span),
}

impl Cond {
    pub fn span(&self) -> Span {
        match self {
            Cond::Expr(e) => e.span,
            Cond::Star(s) => *s,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
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
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }

    pub fn is_relational(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }

    pub fn is_logical(self) -> bool {
        matches!(self, BinOp::And | BinOp::Or)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Bool(bool),
    Var(Ident),
    Index(Ident, Box<Expr>),
    Call(Ident, Vec<Expr>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    Assign(AssignOp, Box<Expr>, Box<Expr>),
    /// `++x`, `x++`, `--x`, `x--`: `inc` tells ++ from --, `prefix` the form.
    IncDec {
        target: Box<Expr>,
        inc: bool,
        prefix: bool,
    },
    Comma(Vec<Expr>),
    /// A cast to an integer type: the value is unchanged (no wrap-around).
    Cast(IntType, Box<Expr>),
}
