//! The intermediate representation every later phase reads: variables, and
//! per procedure a control-flow graph of program points (nodes).
//!
//! Lowering (`lower.rs`) turns the AST into this form:
//! - calls, assignments, `++`/`--` and non-deterministic values are taken out
//!   of expressions into their own nodes, in evaluation order;
//! - `&&`, `||`, `!` and `?:` become control flow, so every `Expr` is plain
//!   arithmetic and every branch tests one *atom* `lhs op rhs` with its own
//!   location (the FSS and assumption machinery relies on this);
//! - each node belongs to a *unit* (the source statement or condition it
//!   was lowered from, grouping FSS entries) and a *block* (for NEST).

pub mod bits;
pub mod cond;
pub mod contract;
pub mod dims;
pub mod eval;
pub mod fixed_hash;
pub mod float;
pub mod float_z3;
pub mod libc;
pub mod load;
pub mod lower;
pub mod mem;
pub mod narrow;
pub mod pointers;
pub mod points_to;
pub mod product;
mod relop;
pub use relop::RelOp;

pub use crate::syntax::ast::{IntType, RetType};
use crate::syntax::source::SourceFile;
pub use crate::syntax::source::Span;
use bits::bit_range;
pub use bits::BitOp;
pub use pointers::{Memory, ObjectName};
use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

macro_rules! id_type {
    ($name:ident, $prefix:literal) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

id_type!(ProcId, "f");
id_type!(VarId, "v");
id_type!(NodeId, "p");
id_type!(UnitId, "u");
id_type!(BlockId, "b");
id_type!(SiteId, "e");

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarKind {
    Global,
    Param,
    Local,
    /// A temporary introduced by lowering (a call result, a condition value).
    Temp,
    /// The return value of a procedure.
    Ret,
}

/// How a variable starts with its scope (globals' the program's start, locals' the call).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VarInit {
    /// An input of the program: unknown, but fixed for a run.
    Input,
    /// Constant values (one per element for arrays; missing elements are 0).
    Values(Vec<i64>),
    /// Set by the program before use (parameters, temporaries, initialised
    /// locals); a non-entry local without initialiser is drawn by a
    /// `Havoc` node at its declaration instead.
    Assigned,
}

#[derive(Clone, Debug)]
pub struct Var {
    pub name: String,
    pub proc: Option<ProcId>,
    pub kind: VarKind,
    pub ty: IntType,
    /// Number of elements for an array.
    pub len: Option<u32>,
    pub span: Span,
    pub init: VarInit,
    /// `static` locals live for the whole run, like globals.
    pub is_static: bool,
}

impl Var {
    pub fn slots(&self) -> u32 {
        self.len.unwrap_or(1)
    }

    pub fn is_global_storage(&self) -> bool {
        self.kind == VarKind::Global || self.is_static
    }
}

#[derive(Clone, Debug)]
pub struct Proc {
    pub name: String,
    pub ret: RetType,
    pub params: Vec<VarId>,
    /// Every local storage of the procedure: parameters, locals, temps, the
    /// return variable (static locals excluded: they are global storage).
    pub locals: Vec<VarId>,
    pub ret_var: Option<VarId>,
    pub entry: NodeId,
    pub exit: NodeId,
    pub body_block: BlockId,
    pub span: Span,
}

/// A location that can be assigned: a scalar, or an array element.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Place {
    pub var: VarId,
    /// The element index and its bounds-check site, for an array element.
    pub index: Option<(Box<Expr>, SiteId)>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

impl Expr {
    /// The error sites (bounds checks, divisors) evaluating `self` passes.
    pub fn sites(&self, out: &mut Vec<SiteId>) {
        match &self.kind {
            ExprKind::Const(_) | ExprKind::Var(_) => {}
            ExprKind::Elem(_, i, site) => {
                i.sites(out);
                out.push(*site);
            }
            ExprKind::Neg(x) | ExprKind::Conv(_, x) => x.sites(out),
            ExprKind::Checked { value, site, .. } => {
                value.sites(out);
                out.push(*site);
            }
            ExprKind::Arith(_, a, b) => {
                a.sites(out);
                b.sites(out);
            }
            ExprKind::Bit { a, b, site, .. } => {
                a.sites(out);
                b.sites(out);
                out.extend(*site);
            }
            ExprKind::Div { num, den, site, .. } => {
                num.sites(out);
                den.sites(out);
                out.push(*site);
            }
            ExprKind::Float { args, site, .. } => {
                for a in args {
                    a.sites(out);
                }
                out.extend(*site);
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum ExprKind {
    Const(i64),
    Var(VarId),
    /// `a[i]`; the site names the array-bounds check.
    Elem(VarId, Box<Expr>, SiteId),
    Neg(Box<Expr>),
    Arith(ArithOp, Box<Expr>, Box<Expr>),
    /// `a / b` (or `a % b` when `rem`), truncating as C does; the site names
    /// the division-by-zero check.
    Div {
        num: Box<Expr>,
        den: Box<Expr>,
        rem: bool,
        site: SiteId,
    },
    /// A C conversion to an integer type other than `_Bool` (`IntType::convert`:
    /// modulo 2^bits into the type's range). Lowering puts one wherever C
    /// converts a value that may not fit: casts, stores, arguments, returns,
    /// unsigned arithmetic, the usual arithmetic conversions.
    Conv(IntType, Box<Expr>),
    /// `a op b` done in `ty` (`BitOp::apply`; the operands' common type, or
    /// the promoted left type of a shift). A shift has a `site`: where
    /// `apply` is undefined, an error there (`SiteKind::Shift`).
    Bit {
        op: BitOp,
        ty: IntType,
        a: Box<Expr>,
        b: Box<Expr>,
        site: Option<SiteId>,
        strict: bool,
    },
    /// A signed result that must lie in its type's range (`--property
    /// no-overflow`): outside it, signed overflow, an error at `site`.
    Checked {
        value: Box<Expr>,
        ty: IntType,
        site: SiteId,
    },
    /// A floating-point operation in `ty` (`float::apply`, on bit
    /// patterns). A conversion to an integer type has a `site` under
    /// `--property no-overflow`: where it is undefined, an error there
    /// (`SiteKind::Overflow`).
    Float {
        op: float::FloatOp,
        ty: IntType,
        args: Vec<Expr>,
        site: Option<SiteId>,
    },
}

/// One comparison tested by a branch node.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    pub lhs: Expr,
    pub op: RelOp,
    pub rhs: Expr,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Cond {
    Atom(Atom),
    /// `if (*)`, `while (*)`: a non-deterministic choice.
    Nondet,
}

#[derive(Clone, Debug)]
pub enum NodeKind {
    Assign {
        place: Place,
        value: Expr,
        next: NodeId,
    },
    /// `place = nondet()`: a fresh input value of type `ty`.
    Havoc {
        place: Place,
        ty: IntType,
        next: NodeId,
    },
    Branch {
        cond: Cond,
        then_: NodeId,
        else_: NodeId,
    },
    /// A call of a procedure of the program; parameters get the argument
    /// values, and after the callee's exit `result` gets its return value.
    Call {
        callee: ProcId,
        args: Vec<Expr>,
        result: Option<Place>,
        next: NodeId,
    },
    /// A written `return`; `next` is the exit node.
    Return {
        value: Option<Expr>,
        next: NodeId,
    },
    /// An error is reached (a failed assertion, `reach_error()`): the run ends.
    Error {
        site: SiteId,
    },
    /// The run ends without error (`abort()`, `exit()`, a failed assumption).
    Halt,
    /// The procedure's single exit point; falling off the end comes here.
    Exit,
    /// No operation: loop heads, labels, joins.
    Skip {
        next: NodeId,
    },
}

#[derive(Clone, Debug)]
pub struct Node {
    pub kind: NodeKind,
    pub proc: ProcId,
    /// What this node does in the source: the atom of a branch, the
    /// assignment `o4=a4` of `o4=a4,o5=a5;`, the call expression.
    pub span: Span,
    pub unit: UnitId,
    pub block: BlockId,
}

impl Node {
    pub fn successors(&self) -> Vec<NodeId> {
        match &self.kind {
            NodeKind::Assign { next, .. }
            | NodeKind::Havoc { next, .. }
            | NodeKind::Call { next, .. }
            | NodeKind::Return { next, .. }
            | NodeKind::Skip { next } => vec![*next],
            NodeKind::Branch { then_, else_, .. } => vec![*then_, *else_],
            NodeKind::Error { .. } | NodeKind::Halt | NodeKind::Exit => vec![],
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitKind {
    /// An assignment, `x++`, a declaration with initialisers.
    Assign,
    /// The condition of `if`, `while`, `for`, `do`, `?:`, a `switch` dispatch.
    Cond,
    Call,
    Return,
    /// An `assert`/`__VERIFIER_assert`/`__VERIFIER_assume` statement.
    Check,
    /// A call of `reach_error()`, `abort()` or `exit()`.
    Stop,
    /// A label or a loop head (never shown in an FSS).
    Label,
}

/// A source statement (or condition) as the user wrote it; the nodes lowered
/// from one evaluation of it form one FSS entry.
#[derive(Clone, Debug)]
pub struct Unit {
    pub kind: UnitKind,
    pub span: Span,
    pub proc: ProcId,
}

/// A static scope: a function body, a `{}` block, or the body of an
/// `if`/`else`/loop.
#[derive(Clone, Debug)]
pub struct Block {
    pub parent: Option<BlockId>,
    pub span: Span,
    pub proc: ProcId,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SiteKind {
    Assert,
    ReachError,
    Bounds,
    DivByZero,
    /// Signed arithmetic overflow (only with `--property no-overflow`).
    Overflow,
    /// An undefined shift: by a negative amount or the width or more (and,
    /// under `--property no-overflow`, a signed `<<` that overflows).
    Shift,
    /// An invalid access through a pointer: null, outside its object, or
    /// an object no longer alive (reported under `--property all`).
    Deref,
    /// A run leaves what the memory model represents (an allocation beyond
    /// the heap model): not an error of the program, but no condition is
    /// safe while such a run may exist (`crate::analysis::limits`).
    Limit,
    /// An allocated object leaked when `main` returns (only with `--property
    /// valid-memsafety` or `valid-memcleanup`; `crate::ir::mem::Leaks`).
    Leak,
}

impl SiteKind {
    pub fn json_name(self) -> &'static str {
        match self {
            SiteKind::Assert => "assert",
            SiteKind::ReachError => "reach_error",
            SiteKind::Bounds => "bounds",
            SiteKind::DivByZero => "div_by_zero",
            SiteKind::Overflow => "overflow",
            SiteKind::Shift => "shift",
            SiteKind::Deref => "deref",
            SiteKind::Limit => "limit",
            SiteKind::Leak => "leak",
        }
    }
}

/// A place where an error can happen: an assertion, a `reach_error()` call,
/// an array access, a division.
#[derive(Clone, Debug)]
pub struct ErrorSite {
    pub kind: SiteKind,
    pub span: Span,
    pub proc: ProcId,
    /// The array indexed (bounds sites).
    pub array: Option<VarId>,
    /// Cannot fail whatever the state: a constant index inside the array,
    /// a nonzero constant divisor. Not reported.
    pub static_ok: bool,
    /// A site of a variable-length array's size (`crate::ir::dims`): a
    /// `bounds` site where it is not positive, a `limit` site where it is
    /// larger than the model holds (`--vla-elems`).
    pub vla: bool,
    /// A `limit` site where an allocating call runs once more than the
    /// objects it has (`--heap-instances`): a larger pool may decide what
    /// it leaves open (`crate::pipeline::grow`).
    pub pool: bool,
}

impl ErrorSite {
    /// A `limit` site where a run reaches past the elements the model
    /// holds of an array of any length (an entry's pointer parameter under
    /// a contract, `mem::params`), not past the heap model: its `array` is
    /// that storage.
    pub fn past_elements(&self) -> bool {
        self.kind == SiteKind::Limit && self.array.is_some()
    }
}

/// A function outside the subset, left out of the program.
#[derive(Clone, Debug)]
pub struct LeftOut {
    pub name: String,
    pub span: Span,
    pub reasons: Vec<(Span, String)>,
}

/// How uninitialised globals start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GlobalsMode {
    /// Inputs (the paper's semantics).
    Input,
    /// Zero, as in C.
    Zero,
}

#[derive(Clone, Debug)]
pub struct Program {
    pub source: Arc<SourceFile>,
    pub vars: Vec<Var>,
    pub globals: Vec<VarId>,
    pub procs: Vec<Proc>,
    pub nodes: Vec<Node>,
    pub units: Vec<Unit>,
    pub blocks: Vec<Block>,
    pub sites: Vec<ErrorSite>,
    pub entry: ProcId,
    /// Object-like macros with a constant value (usable in `--error`).
    pub constants: BTreeMap<String, (i64, IntType)>,
    /// Where macros are used, and the `#define` each use expands.
    pub macro_uses: Vec<crate::syntax::lexer::MacroUse>,
    pub left_out: Vec<LeftOut>,
    /// The file uses SV-COMP conventions (`__VERIFIER_*`, `reach_error`).
    pub svcomp: bool,
    pub globals_mode: GlobalsMode,
    /// Branch edges `(node, outcome)` that leave a statement's condition,
    /// with the condition's value there (`if (!(a && b))`: `a` false leaves
    /// it true).
    pub cond_exits: std::collections::HashMap<(NodeId, bool), bool>,
    /// ACSL contracts, invariants and assertions (`contract.rs`), bound
    /// after lowering by `crate::load`.
    pub contracts: contract::Contracts,
    /// What the memory model (`mem`) made of pointers, for spelling them
    /// in C (`pointers.rs`); set by `crate::load`.
    pub memory: Memory,
    /// The nodes `narrow.rs` changed (cases of splits no run can take, and
    /// what only they reached), with what they were; `narrow::restore`
    /// puts them back.
    pub narrowed: narrow::Narrowed,
}

impl Program {
    pub fn var(&self, v: VarId) -> &Var {
        &self.vars[v.index()]
    }

    pub fn proc(&self, p: ProcId) -> &Proc {
        &self.procs[p.index()]
    }

    pub fn node(&self, n: NodeId) -> &Node {
        &self.nodes[n.index()]
    }

    pub fn unit(&self, u: UnitId) -> &Unit {
        &self.units[u.index()]
    }

    pub fn site(&self, s: SiteId) -> &ErrorSite {
        &self.sites[s.index()]
    }

    pub fn proc_by_name(&self, name: &str) -> Option<ProcId> {
        self.procs.iter().position(|p| p.name == name).map(|i| ProcId(i as u32))
    }

    pub fn node_ids(&self) -> impl Iterator<Item = NodeId> {
        (0..self.nodes.len() as u32).map(NodeId)
    }

    pub fn proc_ids(&self) -> impl Iterator<Item = ProcId> {
        (0..self.procs.len() as u32).map(ProcId)
    }

    /// The variable's name as a user writes it in `--error`: `x` for a
    /// global, `f::x` for a local of `f`.
    pub fn qualified_name(&self, v: VarId) -> String {
        let var = self.var(v);
        match var.proc {
            Some(p) if var.kind != VarKind::Global => format!("{}::{}", self.proc(p).name, var.name),
            _ => var.name.clone(),
        }
    }

    /// `file:line:col` of a span.
    pub fn location(&self, span: Span) -> String {
        self.source.location(span)
    }

    pub fn line(&self, span: Span) -> u32 {
        self.source.line_of(span)
    }

    pub fn text(&self, span: Span) -> &str {
        self.source.slice(span)
    }

    /// Is `inner` the same block as `outer` or nested in it?
    pub fn block_within(&self, inner: BlockId, outer: BlockId) -> bool {
        let mut b = Some(inner);
        while let Some(x) = b {
            if x == outer {
                return true;
            }
            b = self.blocks[x.index()].parent;
        }
        false
    }

    /// Variables whose initial value is an input of the run, in a fixed
    /// order: globals, then the entry procedure's parameters and
    /// uninitialised locals.
    pub fn inputs(&self) -> Vec<VarId> {
        let entry = self.proc(self.entry);
        let mut out: Vec<VarId> = self
            .globals
            .iter()
            .copied()
            .filter(|&g| self.var(g).init == VarInit::Input)
            .collect();
        out.extend(entry.params.iter().copied());
        out.extend(
            entry
                .locals
                .iter()
                .copied()
                .filter(|&l| self.var(l).kind == VarKind::Local && self.var(l).init == VarInit::Input),
        );
        out
    }
}

/// The values an expression can take when every variable holds a value of
/// its type (true unless a signed overflow, undefined in C, happened before).
pub fn static_range(e: &Expr, ty_of: &dyn Fn(VarId) -> IntType) -> (i128, i128) {
    let abs_max = |(lo, hi): (i128, i128)| lo.saturating_abs().max(hi.saturating_abs());
    match &e.kind {
        ExprKind::Const(c) => (*c as i128, *c as i128),
        ExprKind::Var(v) | ExprKind::Elem(v, ..) => ty_of(*v).c_range(),
        ExprKind::Conv(t, _) | ExprKind::Checked { ty: t, .. } => t.c_range(),
        ExprKind::Neg(x) => {
            let (lo, hi) = static_range(x, ty_of);
            (hi.saturating_neg(), lo.saturating_neg())
        }
        ExprKind::Arith(op, a, b) => {
            let ((al, ah), (bl, bh)) = (static_range(a, ty_of), static_range(b, ty_of));
            match op {
                ArithOp::Add => (al.saturating_add(bl), ah.saturating_add(bh)),
                ArithOp::Sub => (al.saturating_sub(bh), ah.saturating_sub(bl)),
                ArithOp::Mul => {
                    let c = [
                        al.saturating_mul(bl),
                        al.saturating_mul(bh),
                        ah.saturating_mul(bl),
                        ah.saturating_mul(bh),
                    ];
                    (*c.iter().min().expect("four"), *c.iter().max().expect("four"))
                }
            }
        }
        ExprKind::Bit { op, ty, a, b, .. } => bit_range(*op, *ty, static_range(a, ty_of), static_range(b, ty_of)),
        ExprKind::Div { num, den, rem, .. } => {
            let (n, d) = (static_range(num, ty_of), static_range(den, ty_of));
            let m = if *rem {
                abs_max(n).min(abs_max(d).saturating_sub(1))
            } else {
                abs_max(n)
            };
            match (*rem, n.0 >= 0) {
                // A remainder has the sign of the dividend; a quotient of a
                // non-negative dividend by a non-negative divisor is too.
                (true, true) => (0, m),
                (false, true) if d.0 >= 0 => (0, m),
                _ => (-m, m),
            }
        }
        ExprKind::Float { op, ty, .. } => match op {
            float::FloatOp::ToInt(t) => t.c_range(),
            _ => {
                let (lo, hi) = float::result_range(*op, *ty);
                (lo as i128, hi as i128)
            }
        },
    }
}

/// Renders an IR expression with source names (for facts and messages).
pub fn show_expr(p: &Program, e: &Expr) -> String {
    match &e.kind {
        ExprKind::Const(c) => c.to_string(),
        ExprKind::Var(v) => p.var(*v).name.clone(),
        ExprKind::Elem(v, i, _) => format!("{}[{}]", p.var(*v).name, show_expr(p, i)),
        ExprKind::Neg(x) => format!("-({})", show_expr(p, x)),
        ExprKind::Conv(t, x) => format!("({}){}", t.c_name(), show_expr(p, x)),
        ExprKind::Checked { value, .. } => show_expr(p, value),
        ExprKind::Arith(op, a, b) => {
            let s = match op {
                ArithOp::Add => "+",
                ArithOp::Sub => "-",
                ArithOp::Mul => "*",
            };
            format!("({} {} {})", show_expr(p, a), s, show_expr(p, b))
        }
        ExprKind::Bit { op, a, b, .. } => format!("({} {} {})", show_expr(p, a), op.symbol(), show_expr(p, b)),
        ExprKind::Div { num, den, rem, .. } => format!(
            "({} {} {})",
            show_expr(p, num),
            if *rem { "%" } else { "/" },
            show_expr(p, den)
        ),
        ExprKind::Float { op, ty, args, .. } => {
            let xs: Vec<String> = args.iter().map(|a| show_expr(p, a)).collect();
            use float::FloatOp as F;
            match op {
                F::Neg => format!("-({})", xs[0]),
                F::Add | F::Sub | F::Mul | F::Div | F::Cmp(_) => format!("({})", float::op_text(*op, *ty, &xs)),
                _ => float::op_text(*op, *ty, &xs),
            }
        }
    }
}

pub fn show_place(p: &Program, pl: &Place) -> String {
    match &pl.index {
        None => p.var(pl.var).name.clone(),
        Some((i, _)) => format!("{}[{}]", p.var(pl.var).name, show_expr(p, i)),
    }
}

pub fn show_atom(p: &Program, a: &Atom) -> String {
    format!("{} {} {}", show_expr(p, &a.lhs), a.op.symbol(), show_expr(p, &a.rhs))
}

/// Variables an expression reads (array reads name the whole array).
pub fn expr_vars(e: &Expr, out: &mut Vec<VarId>) {
    match &e.kind {
        ExprKind::Const(_) => {}
        ExprKind::Var(v) => out.push(*v),
        ExprKind::Elem(v, i, _) => {
            out.push(*v);
            expr_vars(i, out);
        }
        ExprKind::Neg(x) | ExprKind::Conv(_, x) | ExprKind::Checked { value: x, .. } => expr_vars(x, out),
        ExprKind::Arith(_, a, b) | ExprKind::Bit { a, b, .. } => {
            expr_vars(a, out);
            expr_vars(b, out);
        }
        ExprKind::Div { num, den, .. } => {
            expr_vars(num, out);
            expr_vars(den, out);
        }
        ExprKind::Float { args, .. } => {
            for a in args {
                expr_vars(a, out);
            }
        }
    }
}

/// Where each variable's values live: global storage (globals and static
/// locals) or the frame of its procedure; arrays take one slot per element.
#[derive(Clone, Debug)]
pub struct Layout {
    pub global_slots: u32,
    /// Per variable: its first slot, in global storage or in its frame.
    pub offset: Vec<u32>,
    /// Per procedure: the size of its frame.
    pub frame_slots: Vec<u32>,
}

impl Program {
    pub fn layout(&self) -> Layout {
        let mut offset = vec![0; self.vars.len()];
        let mut global_slots = 0;
        for &g in &self.globals {
            offset[g.index()] = global_slots;
            global_slots += self.var(g).slots();
        }
        let mut frame_slots = Vec::new();
        for p in &self.procs {
            let mut n = 0;
            for &l in &p.locals {
                offset[l.index()] = n;
                n += self.var(l).slots();
            }
            frame_slots.push(n);
        }
        Layout {
            global_slots,
            offset,
            frame_slots,
        }
    }

    /// The name of an input as `--input` and reports spell it: `x`, `a[3]`,
    /// or `main::x` for an entry local hidden by a global of the same name.
    pub fn input_name(&self, v: VarId, index: Option<u32>) -> String {
        let var = self.var(v);
        let shadowed = var.kind != VarKind::Global
            && self
                .globals
                .iter()
                .any(|&g| self.var(g).name == var.name && self.var(g).kind == VarKind::Global);
        let base = if shadowed {
            self.qualified_name(v)
        } else {
            var.name.clone()
        };
        match index {
            Some(k) => format!("{base}[{k}]"),
            None => base,
        }
    }

    /// A value of type `ty` as C writes it: a number, or for `float` and
    /// `double` the value its bits stand for (`0.1`, `NAN`, `-INFINITY`).
    pub fn value_text(&self, ty: IntType, v: i64) -> String {
        if ty.is_float() {
            float::c_text(ty, v)
        } else {
            v.to_string()
        }
    }

    /// Every input slot of a run, named, with the range of its type.
    pub fn input_slots(&self) -> Vec<InputSlot> {
        let mut out = Vec::new();
        for v in self.inputs() {
            let var = self.var(v);
            match var.len {
                None => out.push(InputSlot {
                    var: v,
                    index: None,
                    name: self.input_name(v, None),
                    range: var.ty.range(),
                }),
                Some(n) => out.extend((0..n).map(|k| InputSlot {
                    var: v,
                    index: Some(k),
                    name: self.input_name(v, Some(k)),
                    range: var.ty.range(),
                })),
            }
        }
        out
    }
}

/// One input value of a run: a scalar, or one element of an input array.
#[derive(Clone, Debug)]
pub struct InputSlot {
    pub var: VarId,
    pub index: Option<u32>,
    pub name: String,
    pub range: (i64, i64),
}
