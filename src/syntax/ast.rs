//! The abstract syntax tree of a Cimple file. Every node has a span.

use super::source::Span;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// The scalar types of Cimple, with C's sizes on ILP32 (as SV-COMP assumes).
/// Conversions to an integer type follow C and gcc (docs/cimple.md): to
/// `_Bool` is `!= 0`, to any other type is modulo 2^bits into its range.
/// `Float` and `Double` are IEEE 754 binary32 and binary64, a value carried
/// as its bit pattern (`float` as `u32` bits, `double` as `i64` bits);
/// their arithmetic and conversions are `crate::ir::float`'s, never the
/// integer methods here, which see only the bits.
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
    Float,
    Double,
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
            // Bit patterns.
            IntType::Float => (0, u32::MAX as i64),
            IntType::Double => (i64::MIN, i64::MAX),
        }
    }

    /// The full C range (`unsigned long long` reaches 2^64 - 1).
    pub fn c_range(self) -> (i128, i128) {
        match self {
            IntType::ULongLong => (0, u64::MAX as i128),
            t => {
                let (lo, hi) = t.range();
                (lo as i128, hi as i128)
            }
        }
    }

    pub fn bits(self) -> u32 {
        match self {
            IntType::Bool => 1,
            IntType::Char | IntType::SChar | IntType::UChar => 8,
            IntType::Short | IntType::UShort => 16,
            IntType::Int | IntType::UInt | IntType::Long | IntType::ULong | IntType::Float => 32,
            IntType::LongLong | IntType::ULongLong | IntType::Double => 64,
        }
    }

    pub fn is_signed(self) -> bool {
        matches!(
            self,
            IntType::Char | IntType::SChar | IntType::Short | IntType::Int | IntType::Long | IntType::LongLong
        )
    }

    /// `v` converted to this type: `!= 0` for `_Bool`, otherwise reduced
    /// modulo 2^bits into the type's range (C for unsigned types, gcc's
    /// implementation-defined choice for signed ones).
    pub fn convert(self, v: i128) -> i128 {
        if self == IntType::Bool {
            return (v != 0) as i128;
        }
        let (lo, _) = self.c_range();
        let m = 1i128 << self.bits();
        lo + (v - lo).rem_euclid(m)
    }

    /// The result of arithmetic done in this type: unsigned types wrap; a
    /// signed result keeps its mathematical value (`None` past 64 bits).
    pub fn convert_arith(self, v: i128) -> Option<i128> {
        let v = if self.is_signed() { v } else { self.convert(v) };
        (i64::MIN as i128 <= v && v <= u64::MAX as i128).then_some(v)
    }

    /// `float` or `double`.
    pub fn is_float(self) -> bool {
        matches!(self, IntType::Float | IntType::Double)
    }

    /// The integer promotions: types narrower than `int` become `int`.
    pub fn promote(self) -> IntType {
        if self.bits() < 32 {
            IntType::Int
        } else {
            self
        }
    }

    /// The common type of `a op b` (the usual arithmetic conversions, C11
    /// 6.3.1.8, with `long` and `int` of one size as on ILP32).
    pub fn common(a: IntType, b: IntType) -> IntType {
        if a == IntType::Double || b == IntType::Double {
            return IntType::Double;
        }
        if a == IntType::Float || b == IntType::Float {
            return IntType::Float;
        }
        let (a, b) = (a.promote(), b.promote());
        let rank = |t: IntType| {
            if t.bits() == 64 {
                2
            } else if matches!(t, IntType::Long | IntType::ULong) {
                1
            } else {
                0
            }
        };
        if a == b {
            return a;
        }
        if a.is_signed() == b.is_signed() {
            return if rank(a) >= rank(b) { a } else { b };
        }
        let (s, u) = if a.is_signed() { (a, b) } else { (b, a) };
        if rank(u) >= rank(s) {
            u
        } else if s.bits() > u.bits() {
            s
        } else {
            // A signed type of higher rank but the same size: its unsigned twin.
            match s {
                IntType::Long => IntType::ULong,
                _ => IntType::ULongLong,
            }
        }
    }

    /// `sizeof` on ILP32.
    pub fn size(self) -> i64 {
        (self.bits() as i64 / 8).max(1)
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
            IntType::Float => "float",
            IntType::Double => "double",
        }
    }
}

/// A C type as written. Cimple's own declarations are `Int`; pointers and
/// structs are removed by `crate::mem` before lowering, which reads only the
/// `IntType` of each declaration.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CType {
    Void,
    Int(IntType),
    Ptr(Box<CType>),
    /// A `struct` by its tag (an anonymous one gets a tag of its own), or a
    /// union: its tag starts with [`UNION`].
    Struct(String),
    /// A function type; a value of it exists only as a pointer
    /// (`Ptr(Func(..))`, a function pointer: docs/cimple.md).
    Func(Box<FnType>),
}

/// A function's type: what it returns and its parameters' types (`None`
/// when they are not given, `int (*p)()`, compatible with any).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FnType {
    pub ret: CType,
    pub params: Option<Vec<CType>>,
}

impl FnType {
    /// Whether a function of type `self` may be called through a pointer
    /// to `to` (C11 6.7.6.3p15, with unspecified parameters compatible
    /// with any).
    pub fn compatible(&self, to: &FnType) -> bool {
        self.ret == to.ret && (self.params.is_none() || to.params.is_none() || self.params == to.params)
    }
}

/// How a union's tag starts (`union u`): its members share one storage.
pub const UNION: &str = "union ";

/// How the name of a string literal's object starts (`string#1`): a
/// read-only `char` array the parser declares at file scope.
pub const STRING: &str = "string#";

/// Whether storage `base` (`string#1`, `::string#1`) is a string literal's.
pub fn is_string_literal(base: &str) -> bool {
    base.trim_start_matches("::").starts_with(STRING)
}

impl CType {
    pub fn ptr(self) -> CType {
        CType::Ptr(Box::new(self))
    }

    pub fn is_int(&self) -> bool {
        matches!(self, CType::Int(_))
    }

    /// The C spelling, for messages.
    pub fn c_name(&self) -> String {
        match self {
            CType::Void => "void".into(),
            CType::Int(t) => t.c_name().into(),
            CType::Ptr(t) => match &**t {
                CType::Func(f) => format!("{} (*)({})", f.ret.c_name(), f.params_c_name()),
                t => format!("{} *", t.c_name()),
            },
            CType::Func(f) => format!("{} ({})", f.ret.c_name(), f.params_c_name()),
            CType::Struct(tag) if tag.starts_with(UNION) => tag.clone(),
            CType::Struct(tag) => format!("struct {tag}"),
        }
    }
}

impl FnType {
    fn params_c_name(&self) -> String {
        match &self.params {
            None => String::new(),
            Some(ps) if ps.is_empty() => "void".into(),
            Some(ps) => ps.iter().map(CType::c_name).collect::<Vec<_>>().join(", "),
        }
    }
}

/// `struct tag { fields };`
#[derive(Clone, Debug)]
pub struct StructDef {
    pub tag: String,
    pub fields: Vec<Field>,
    /// Fields the model does not hold (a `double`, a bitfield, a function
    /// pointer), and why: only an access to one is an error.
    pub not_modelled: Vec<(Ident, String)>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Field {
    pub ty: CType,
    pub name: Ident,
    /// `Some(size)` for an array field.
    pub array: Option<Expr>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetType {
    Void,
    Int(IntType),
}

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub items: Vec<Item>,
    /// The declarations of arrays of arrays and of pointers to arrays (by
    /// the span of the declared name): the sizes of their inner dimensions,
    /// outermost first, and whether the outermost size comes from the
    /// initialiser. `crate::ir::dims` makes them flat arrays before the
    /// memory model runs and leaves this empty.
    pub dims: Vec<ArrayDims>,
    /// Each variable-length array (by the span of its name): the global
    /// `crate::ir::dims` sets to its number of elements where it is
    /// declared, which an access through a pointer into it checks.
    pub vla_lengths: std::collections::HashMap<Span, String>,
}

/// The inner dimensions of a declaration `int a[3][4]` (`[4]`) or
/// `int (*p)[4]`, by the span of its name.
#[derive(Clone, Debug)]
pub struct ArrayDims {
    pub name: Span,
    pub inner: Vec<Expr>,
    /// `int a[][4] = {...}`: the outermost size was counted by the parser
    /// as the initialiser's top-level elements.
    pub open: bool,
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
    Struct(StructDef),
}

#[derive(Clone, Debug)]
pub struct VarDecl {
    /// The integer type (of the elements, for an array); `Int` for a
    /// pointer or struct declaration, whose type is `ctype`.
    pub ty: IntType,
    pub ctype: CType,
    pub name: Ident,
    /// `Some(size)` for an array.
    pub array: Option<Expr>,
    pub init: Option<Init>,
    pub span: Span,
    pub is_static: bool,
    /// A `const` integer object (not a pointer, not an array).
    pub is_const: bool,
    /// A global without initialiser that starts with arbitrary values
    /// whatever `--globals` says (the object of a `malloc` call).
    pub arbitrary: bool,
}

impl VarDecl {
    /// A plain integer declaration of `name` (no array, not `static`, not
    /// `const`), as the passes that add variables of their own write them.
    pub fn int(name: &str, ty: IntType, init: Option<Expr>, span: Span) -> VarDecl {
        VarDecl {
            ty,
            ctype: CType::Int(ty),
            name: Ident {
                name: name.into(),
                span,
            },
            array: None,
            init: init.map(Init::Expr),
            span,
            is_static: false,
            is_const: false,
            arbitrary: false,
        }
    }
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
    /// The C type (`int a[]` is `int *`).
    pub ctype: CType,
    pub name: Option<Ident>,
    pub span: Span,
    /// A parameter of a type outside what is supported (`char *argv[]`,
    /// `float`): accepted only where the body never uses it.
    pub pointer: bool,
    /// A pointer to `const` (`const char *s`, `const int a[]`): what it
    /// points to is not changed through it (read by `ir::libc` for an
    /// unknown function; a `const` inside a typedef is not seen).
    pub pointee_const: bool,
}

#[derive(Clone, Debug)]
pub struct Prototype {
    pub ret: RetType,
    /// A pointer or struct return type (then `ret` is `Int`).
    pub ret_mem: Option<CType>,
    pub name: Ident,
    /// `None` when the parameter list was not given (`f()`) or uses types
    /// outside Cimple (prototypes of library functions are accepted as is).
    pub params: Option<Vec<Param>>,
    /// Why its return or parameter types are outside the model (a
    /// `double`, a function pointer): a call of it is then not modelled.
    pub not_modelled: Option<String>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub ret: RetType,
    /// A pointer or struct return type (then `ret` is `Int`).
    pub ret_mem: Option<CType>,
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
    /// `&`, `|`, `^`, `<<`, `>>`: bitwise, on C's two's-complement values.
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
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
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
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

    /// `<<` or `>>`: the result has the promoted type of the left operand.
    pub fn is_shift(self) -> bool {
        matches!(self, BinOp::Shl | BinOp::Shr)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    Not,
    /// `~`: bitwise complement.
    BitNot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AssignOp {
    Set,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    BitAnd,
    BitOr,
    BitXor,
    Shl,
    Shr,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// An integer literal and its C type.
    Int(i64, IntType),
    /// A floating literal: its bit pattern and type (`Float` or `Double`).
    Float(i64, IntType),
    Bool(bool),
    Var(Ident),
    Index(Ident, Box<Expr>),
    Call(Ident, Vec<Expr>),
    /// A call through a function pointer (`p(x)`, `(*p)(x)`, `s->cb(x)`,
    /// `tab[i](x)`): the callee is an expression of pointer-to-function type.
    CallPtr(Box<Expr>, Vec<Expr>),
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
    /// A cast to an integer type (a C conversion).
    Cast(IntType, Box<Expr>),
    /// The same bits read as another type, no conversion (made by
    /// `crate::ir::mem` for a union member of floating type): `float` and
    /// `unsigned int`, `double` and `long long`, whose leaves hold the
    /// same integers (a floating value is its bit pattern).
    Bits(IntType, Box<Expr>),
    /// `sizeof e` (`sizeof(type)` is parsed to a constant): the size of
    /// `e`'s type, or of an array's storage; `e` is not evaluated.
    SizeOf(Box<Expr>),
    /// A GNU statement expression `({ ...; e; })`: the statements run, the
    /// value is the last expression statement's (none when the last
    /// statement is not an expression: the value cannot be used).
    StmtExpr(Block),
    /// `*e`.
    Deref(Box<Expr>),
    /// `&e`.
    AddrOf(Box<Expr>),
    /// `e.f`, or `e->f` when `arrow`.
    Member(Box<Expr>, Ident, bool),
    /// `e[i]` where `e` is not a name (`s.a[i]`, `p->a[i]`, `(p + 1)[i]`).
    IndexOf(Box<Expr>, Box<Expr>),
    /// A cast to a pointer type (`(int *)0`, `(struct s *)malloc(...)`).
    PtrCast(CType, Box<Expr>),
    /// `sizeof(struct s)` and other sizes `crate::mem` computes.
    SizeOfType(CType),
    /// Statements `crate::ir::mem` made for one access through a pointer,
    /// then a value: a statement expression whose nodes belong to the unit
    /// of the statement around it (the access is one FSS entry).
    Access(Block),
    /// A nested `{ ... }` in an initialiser (a struct inside an array).
    InitList(Vec<Expr>),
    /// An access through a pointer into array `a` at `i` (made by
    /// `crate::ir::mem`): `a[i]` whose check is the `deref` condition of
    /// access number `k` (one per dereference in the source).
    DerefIndex(Ident, Box<Expr>, u32),
    /// A pointer's offset moved by an index, `off + i` or `off - i`, or
    /// the heap model's counts and sizes (`+`, `*`), made by
    /// `crate::ir::mem`: the memory model's own arithmetic, not the
    /// program's. Exact on the operands' values, typed `int` like the
    /// `.off` leaves, never converted nor checked for overflow: an offset
    /// outside its object is an invalid access where it is used.
    Offset(BinOp, Box<Expr>, Box<Expr>),
}
