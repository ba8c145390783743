//! Arrays of arrays as flat arrays, before the memory model (C11 6.5.2.1:
//! row-major). `int a[3][4]` is an array of 12 `int`s; `a[i][j]` is
//! `a[INDEX(i, 3) * 4 + INDEX(j, 4)]`, each index checked against its own
//! dimension (`INDEX`, a `bounds` error at the access, as C and UBSan's
//! `-fsanitize=bounds` have it: `a[0][5]` is an error though it lies inside
//! the object); a row `a[i]` is `&a[i * 4]`, an `int *`; `a` passed to a
//! function or initialising a pointer is `&a[0]`; a pointer to arrays
//! (`int (*p)[4]`, a parameter `int p[][4]`) is an `int *` indexed alike,
//! its first index unchecked here (the memory model checks the access).
//! `sizeof` of a row or of the array is its size in C. Arithmetic on
//! pointers to rows (`a + 1`, `p++`, `*(a + i)`, `p - a`) is in `rows`;
//! a pointer to an array of arrays as a whole (`&a`) is reported as not
//! modelled yet.

use crate::diag::{Class, Diag};
use crate::ir::lower::const_eval;
use crate::syntax::ast::{self, BinOp, CType, Expr, ExprKind as AK, Ident, Init, IntType, Stmt, StmtKind};
use crate::syntax::source::Span;
use std::collections::HashMap;

mod rows;

/// `INDEX(i, n)`: the value of `i`, a `bounds` error unless `0 <= i < n`.
pub const INDEX: &str = "__focuscheck_index";
/// `VLA(n, most)`: a `bounds` error unless `n > 0`, a `limit` site unless
/// `n <= most`.
pub const VLA: &str = "__focuscheck_vla";

/// What a name declared with inner dimensions is.
#[derive(Clone)]
struct Dims {
    /// The outermost size, for an array (`None` for a pointer to arrays).
    first: Option<Expr>,
    inner: Vec<Expr>,
}

/// What an access chain starts from: a name with inner dimensions, or
/// an expression that is a pointer to rows (`a + 1`, `*p` of a pointer to
/// arrays of arrays), with the rows' dimensions.
#[derive(Clone)]
enum Base {
    Name(Ident),
    Rows(Expr, Vec<Expr>),
}

/// Whether `d` is a variable-length array's: its sizes are the hidden
/// variables `vla` declares.
fn is_vla(d: &Dims) -> bool {
    matches!(&d.first, Some(Expr { kind: AK::Var(n), .. }) if n.name.starts_with("__vla"))
}

/// The program with its arrays of arrays and variable-length arrays flat
/// (a variable-length array an object of `vla_elems` elements); `None`
/// when it has none.
pub fn flatten(p: &ast::Program, vla_elems: u32, diags: &mut Vec<Diag>) -> Option<ast::Program> {
    let mut f = Flatten {
        declared: p.dims.iter().map(|d| (d.name, d)).collect(),
        scopes: vec![HashMap::new()],
        const_globals: HashMap::new(),
        vla_elems,
        changed: false,
        func: String::new(),
        lengths: HashMap::new(),
        length_globals: Vec::new(),
        diags,
    };
    let mut items = p.items.clone();
    for item in &mut items {
        match item {
            ast::Item::Globals(ds) => {
                for d in ds {
                    f.decl(d, None);
                    if let (true, Some(Init::Expr(e))) = (d.is_const, &d.init) {
                        if let Some(v) = const_eval(e) {
                            f.const_globals.insert(d.name.name.clone(), v);
                        }
                    }
                }
            }
            ast::Item::Function(func) => {
                f.func = func.name.name.clone();
                f.scopes.push(HashMap::new());
                for param in &func.params {
                    if let Some(n) = &param.name {
                        let d = f.declared.get(&n.span).map(|d| Dims {
                            first: None,
                            inner: d.inner.clone(),
                        });
                        f.scopes.last_mut().expect("a scope").insert(n.name.clone(), d);
                    }
                }
                f.block(&mut func.body);
                f.scopes.pop();
            }
            _ => {}
        }
    }
    if !f.length_globals.is_empty() {
        items.insert(0, ast::Item::Globals(std::mem::take(&mut f.length_globals)));
    }
    f.changed.then_some(ast::Program {
        items,
        dims: Vec::new(),
        vla_lengths: f.lengths,
    })
}

struct Flatten<'a> {
    declared: HashMap<Span, &'a ast::ArrayDims>,
    /// Names in scope, innermost last: `None` for a name declared without
    /// inner dimensions (it hides an outer one).
    scopes: Vec<HashMap<String, Option<Dims>>>,
    /// File-scope `const int`s with a constant value: sizes in C's eyes
    /// only inside a variable-length array, constants to `crate::ir::lower`.
    const_globals: HashMap<String, i64>,
    vla_elems: u32,
    /// Whether any declaration had dimensions to flatten.
    changed: bool,
    /// The function being flattened.
    func: String,
    /// `ast::Program::vla_lengths`, and the globals it names.
    lengths: HashMap<Span, String>,
    length_globals: Vec<ast::VarDecl>,
    diags: &'a mut Vec<Diag>,
}

fn mk(kind: AK, span: Span) -> Expr {
    Expr { kind, span }
}

fn int(v: i64, span: Span) -> Expr {
    mk(AK::Int(v, IntType::Int), span)
}

fn bin(op: BinOp, a: Expr, b: Expr) -> Expr {
    let span = a.span.to(b.span);
    match (const_eval(&a), const_eval(&b), op) {
        (Some(x), Some(y), BinOp::Mul) if x.checked_mul(y).is_some_and(|v| v <= i32::MAX as i64) => int(x * y, span),
        (Some(x), Some(y), BinOp::Add) if x.checked_add(y).is_some_and(|v| v <= i32::MAX as i64) => int(x + y, span),
        (_, Some(1), BinOp::Mul) => a,
        (Some(0), _, BinOp::Add) => b,
        _ => mk(AK::Binary(op, Box::new(a), Box::new(b)), span),
    }
}

/// The product of sizes (`1` for none).
fn product(sizes: &[Expr], span: Span) -> Expr {
    sizes
        .iter()
        .cloned()
        .fold(int(1, span), |acc, s| bin(BinOp::Mul, acc, s))
}

impl Flatten<'_> {
    fn lookup(&self, name: &str) -> Option<&Dims> {
        self.scopes.iter().rev().find_map(|s| s.get(name))?.as_ref()
    }

    fn not_modelled(&mut self, span: Span, msg: String) {
        self.diags
            .push(Diag::error(Class::Unsupported, span, msg).with_label("not modelled yet"));
    }

    /// A block; a declaration with a variable-length array among its
    /// declarators is split, one statement per declarator, so that the
    /// statements evaluating its sizes come right before it.
    fn block(&mut self, b: &mut ast::Block) {
        self.scopes.push(HashMap::new());
        let mut out = Vec::with_capacity(b.stmts.len());
        for mut s in std::mem::take(&mut b.stmts) {
            let StmtKind::Decl(ds) = &mut s.kind else {
                self.stmt(&mut s);
                out.push(s);
                continue;
            };
            let mut split = Vec::new();
            let mut any_vla = false;
            for mut d in std::mem::take(ds) {
                let mut pre = Vec::new();
                self.decl(&mut d, Some(&mut pre));
                any_vla |= !pre.is_empty();
                split.extend(pre);
                split.push(Stmt {
                    kind: StmtKind::Decl(vec![d]),
                    span: s.span,
                });
            }
            if any_vla {
                out.extend(split);
            } else {
                let ds = split.into_iter().flat_map(|x| match x.kind {
                    StmtKind::Decl(ds) => ds,
                    _ => Vec::new(),
                });
                s.kind = StmtKind::Decl(ds.collect());
                out.push(s);
            }
        }
        b.stmts = out;
        self.scopes.pop();
    }

    /// A size that names a file-scope `const int` (not hidden): its value.
    fn resolve_const(&self, e: &mut Expr) {
        if let AK::Var(n) = &e.kind {
            let scope = self.scopes.iter().rposition(|s| s.contains_key(&n.name));
            if let (Some(0) | None, Some(&v)) = (scope, self.const_globals.get(&n.name)) {
                *e = int(v, e.span);
            }
        }
    }

    /// A declaration; `pre` (inside a function body) receives what a
    /// variable-length array makes before it.
    fn decl(&mut self, d: &mut ast::VarDecl, pre: Option<&mut Vec<Stmt>>) {
        if let Some(a) = &mut d.array {
            self.expr(a);
        }
        let dims = self.declared.get(&d.name.span).map(|x| (x.inner.clone(), x.open));
        let variable = |e: &Expr| const_eval(e).is_none();
        let is_vla = pre.is_some()
            && d.array.is_some()
            && d.array.iter().chain(dims.iter().flat_map(|x| &x.0)).any(|e| {
                let mut e = e.clone();
                self.resolve_const(&mut e);
                variable(&e)
            });
        if is_vla {
            self.vla(d, dims.map(|x| x.0).unwrap_or_default(), pre.expect("in a body"));
            return;
        }
        let Some((mut inner, open)) = dims else {
            match &mut d.init {
                Some(Init::Expr(e)) => self.expr(e),
                Some(Init::List(xs, _)) => xs.iter_mut().for_each(|x| self.expr(x)),
                None => {}
            }
            self.scopes
                .last_mut()
                .expect("a scope")
                .insert(d.name.name.clone(), None);
            return;
        };
        self.changed = true;
        inner.iter_mut().for_each(|x| {
            self.expr(x);
            self.resolve_const(x);
        });
        if let Some(a) = &mut d.array {
            self.resolve_const(a);
        }
        let span = d.name.span;
        match &mut d.init {
            Some(Init::Expr(e)) => self.expr(e),
            Some(Init::List(xs, _)) => {
                xs.iter_mut().for_each(|x| self.expr(x));
                if d.array.is_some() {
                    self.flat_init(d, &inner, open);
                }
            }
            None => {}
        }
        let first = d.array.clone();
        if let Some(a) = &mut d.array {
            *a = bin(BinOp::Mul, a.clone(), product(&inner, span));
        }
        let dims = Dims { first, inner };
        self.scopes
            .last_mut()
            .expect("a scope")
            .insert(d.name.name.clone(), Some(dims));
    }

    /// A variable-length array `T a[e0][e1]` (C11 6.7.6.2): each size
    /// evaluated once into a `long long` of its own, checked positive (a
    /// `bounds` error) and, multiplied, at most `--vla-elems` (a `limit`
    /// site); the array an object of `--vla-elems` elements whose
    /// dimensions are those values.
    fn vla(&mut self, d: &mut ast::VarDecl, mut inner: Vec<Expr>, pre: &mut Vec<Stmt>) {
        self.changed = true;
        if d.is_static || d.init.is_some() {
            let what = if d.is_static { "`static`" } else { "initialised" };
            let msg = format!("variable-length array `{}` {what} (not allowed in C)", d.name.name);
            self.diags
                .push(Diag::error(Class::Semantic, d.name.span, msg).with_label("a variable size"));
            return;
        }
        let mut sizes = vec![d.array.take().expect("an array")];
        inner.iter_mut().for_each(|x| self.expr(x));
        sizes.extend(inner);
        let most = int(i64::from(self.vla_elems), d.name.span);
        let mut lens = Vec::new();
        let mut total: Option<Expr> = None;
        for (k, size) in sizes.into_iter().enumerate() {
            let span = size.span;
            // The checks are the size's, where it is written.
            let at = span;
            let name = Ident {
                name: format!("__vla{k}_{}", d.name.name),
                span,
            };
            pre.push(Stmt {
                kind: StmtKind::Decl(vec![ast::VarDecl::int(&name.name, IntType::LongLong, Some(size), span)]),
                span,
            });
            self.scopes.last_mut().expect("a scope").insert(name.name.clone(), None);
            let len = mk(AK::Var(name), span);
            let check = |n: Expr| Stmt {
                kind: StmtKind::Expr(mk(
                    AK::Call(
                        Ident {
                            name: VLA.into(),
                            span: at,
                        },
                        vec![n, most.clone()],
                    ),
                    at,
                )),
                span: at,
            };
            pre.push(check(len.clone()));
            if let Some(t) = total.take() {
                let t = bin(BinOp::Mul, t, len.clone());
                pre.push(check(t.clone()));
                total = Some(t);
            } else {
                total = Some(len.clone());
            }
            lens.push(len);
        }
        // The run's number of elements, for the memory model's checks of
        // accesses through pointers into the array (`vla_lengths`); a name
        // of the model's own (`::(`), hidden in reports.
        let elems = format!("{}::{}::(elems{})", self.func, d.name.name, self.lengths.len());
        let span = d.name.span;
        self.length_globals
            .push(ast::VarDecl::int(&elems, IntType::LongLong, Some(int(0, span)), span));
        let target = mk(
            AK::Var(Ident {
                name: elems.clone(),
                span,
            }),
            span,
        );
        let total = total.expect("a size");
        pre.push(Stmt {
            kind: StmtKind::Expr(mk(
                AK::Assign(ast::AssignOp::Set, Box::new(target), Box::new(total)),
                span,
            )),
            span,
        });
        self.lengths.insert(span, elems);
        d.array = Some(most);
        let first = Some(lens.remove(0));
        self.scopes
            .last_mut()
            .expect("a scope")
            .insert(d.name.name.clone(), Some(Dims { first, inner: lens }));
    }

    /// A nested initialiser `{{1, 2}, {3}}` as the flat list C makes of it
    /// (each `{` starts the next element of its level; missing elements 0).
    fn flat_init(&mut self, d: &mut ast::VarDecl, inner: &[Expr], open: bool) {
        let Some(Init::List(xs, span)) = d.init.take() else {
            return;
        };
        let sizes: Option<Vec<usize>> = inner.iter().map(|e| const_eval(e).map(|v| v.max(0) as usize)).collect();
        let Some(sizes) = sizes else {
            self.not_modelled(
                span,
                "an initialiser of a variable-length array (not allowed in C)".into(),
            );
            return;
        };
        // The size of one element at each level: a row, ..., a scalar.
        let mut strides = vec![1usize; sizes.len() + 1];
        for l in (0..sizes.len()).rev() {
            strides[l] = strides[l + 1] * sizes[l];
        }
        let mut out: Vec<Option<Expr>> = Vec::new();
        let end = match d.array.as_ref().and_then(const_eval) {
            Some(rows) if !open => rows.max(0) as usize * strides[0],
            _ => usize::MAX,
        };
        fill(xs, 0, &strides, &mut out, 0, end);
        let zero = match d.ctype {
            CType::Struct(_) => mk(AK::InitList(Vec::new()), span),
            _ => int(0, span),
        };
        let flat: Vec<Expr> = out.into_iter().map(|x| x.unwrap_or_else(|| zero.clone())).collect();
        if open {
            let rows = flat.len().div_ceil(strides[0].max(1));
            d.array = Some(int(rows as i64, d.name.span));
        }
        d.init = Some(Init::List(flat, span));
    }

    fn stmt(&mut self, s: &mut Stmt) {
        match &mut s.kind {
            StmtKind::Decl(ds) => ds.iter_mut().for_each(|d| self.decl(d, None)),
            StmtKind::Expr(e) | StmtKind::Switch(e, _) | StmtKind::Case(e, _) => {
                self.unused_value(e);
                self.expr(e);
                if let StmtKind::Switch(_, b) | StmtKind::Case(_, b) = &mut s.kind {
                    self.stmt(b);
                }
            }
            StmtKind::Return(e) => e.iter_mut().for_each(|e| self.expr(e)),
            StmtKind::If(c, a, b) => {
                self.cond(c);
                self.stmt(a);
                b.iter_mut().for_each(|b| self.stmt(b));
            }
            StmtKind::While(c, b) => {
                self.cond(c);
                self.stmt(b);
            }
            StmtKind::DoWhile(b, c) => {
                self.stmt(b);
                self.cond(c);
            }
            StmtKind::For(init, c, step, body) => {
                self.scopes.push(HashMap::new());
                init.iter_mut().for_each(|i| self.stmt(i));
                c.iter_mut().for_each(|c| self.cond(c));
                step.iter_mut().for_each(|e| {
                    self.unused_value(e);
                    self.expr(e);
                });
                self.stmt(body);
                self.scopes.pop();
            }
            StmtKind::Default(b) | StmtKind::Labeled(_, b) => self.stmt(b),
            StmtKind::Block(b) => self.block(b),
            StmtKind::Break | StmtKind::Continue | StmtKind::Goto(_) | StmtKind::Empty => {}
        }
    }

    fn cond(&mut self, c: &mut ast::Cond) {
        if let ast::Cond::Expr(e) = c {
            self.expr(e);
        }
    }

    fn expr(&mut self, e: &mut Expr) {
        if let Some((base, idx)) = self.chain(e) {
            *e = self.access(base, idx, e.span);
            return;
        }
        if let Some(new) = self.row_arith(e) {
            *e = new;
            return;
        }
        match &mut e.kind {
            AK::SizeOf(x) => {
                if let Some(new) = self.size_of(x) {
                    *e = new;
                } else {
                    self.expr(x);
                }
            }
            AK::AddrOf(x) => match self.chain(x) {
                Some((Base::Name(name), idx)) if idx.is_empty() => {
                    let d = self.dims_of(&Base::Name(name.clone()));
                    let n = &name.name;
                    let msg = if is_vla(&d) {
                        format!("not modelled yet: a pointer to the variable-length array `{n}` as a whole (`&{n}`)")
                    } else if d.first.is_some() {
                        format!("not modelled yet: a pointer to the array of arrays `{n}` as a whole (`&{n}`)")
                    } else {
                        format!("not modelled yet: the address of `{n}`, a pointer to arrays (`&{n}`)")
                    };
                    self.not_modelled(e.span, msg);
                }
                // `&a[i]` is the row's address, as `a[i]` is (`&a[i][j]`
                // an element's, below).
                Some((base, idx)) if !idx.is_empty() && idx.len() <= self.dims_of(&base).inner.len() => {
                    self.expr(x);
                    *e = (**x).clone();
                }
                _ => self.expr(x),
            },
            AK::Int(..) | AK::Float(..) | AK::Bool(_) | AK::Var(_) | AK::SizeOfType(_) => {}
            AK::Index(_, i) | AK::DerefIndex(_, i, _) => self.expr(i),
            AK::Deref(x) | AK::Member(x, ..) | AK::PtrCast(_, x) => self.expr(x),
            AK::Unary(_, x) | AK::Cast(_, x) | AK::Bits(_, x) | AK::IncDec { target: x, .. } => self.expr(x),
            AK::IndexOf(a, b) | AK::Binary(_, a, b) | AK::Offset(_, a, b) | AK::Assign(_, a, b) => {
                self.expr(a);
                self.expr(b);
            }
            AK::InitList(xs) | AK::Comma(xs) => xs.iter_mut().for_each(|x| self.expr(x)),
            AK::Call(_, args) => args.iter_mut().for_each(|a| self.expr(a)),
            AK::CallPtr(f, args) => {
                self.expr(f);
                args.iter_mut().for_each(|a| self.expr(a));
            }
            AK::StmtExpr(b) | AK::Access(b) => self.block(b),
            AK::Ternary(a, b, c) => {
                self.expr(a);
                self.expr(b);
                self.expr(c);
            }
        }
    }

    /// `a`, `a[i]`, `a[i][j]`, ... of a name with inner dimensions, or
    /// `X[i]`, ... of a pointer to rows `X` (`*X` is `X[0]` for either):
    /// the start and the indices, outermost first.
    fn chain(&self, e: &Expr) -> Option<(Base, Vec<Expr>)> {
        match &e.kind {
            AK::Var(n) => self.lookup(&n.name).map(|_| (Base::Name(n.clone()), Vec::new())),
            AK::Index(n, i) => self
                .lookup(&n.name)
                .map(|_| (Base::Name(n.clone()), vec![(**i).clone()])),
            AK::IndexOf(x, j) => {
                let (base, mut idx) = self.chain(x).or_else(|| self.rows_start(x))?;
                idx.push((**j).clone());
                Some((base, idx))
            }
            AK::Deref(x) => {
                let (base, mut idx) = match self.chain(x) {
                    Some((base, idx)) if idx.len() <= self.dims_of(&base).inner.len() => (base, idx),
                    Some(_) => return None,
                    None => self.rows_start(x)?,
                };
                idx.push(int(0, e.span));
                Some((base, idx))
            }
            _ => None,
        }
    }

    /// Arithmetic on a pointer to rows as the start of a chain.
    fn rows_start(&self, x: &Expr) -> Option<(Base, Vec<Expr>)> {
        Some((Base::Rows(x.clone(), self.rows_of(x)?), Vec::new()))
    }

    /// The flat access a chain makes (an element, a row's address, the
    /// first row's address).
    fn access(&mut self, base: Base, mut idx: Vec<Expr>, span: Span) -> Expr {
        let dims = self.dims_of(&base);
        idx.iter_mut().for_each(|i| self.expr(i));
        let n = dims.inner.len() + 1;
        let rest = if idx.len() > n { idx.split_off(n) } else { Vec::new() };
        let m = idx.len();
        if m == 0 {
            // An array decays to a pointer to its first element (row).
            return match (base, dims.first) {
                (Base::Name(name), Some(_)) => mk(
                    AK::AddrOf(Box::new(mk(AK::Index(name, Box::new(int(0, span))), span))),
                    span,
                ),
                (Base::Name(name), None) => mk(AK::Var(name), span),
                (Base::Rows(x, _), _) => self.flat(&x),
            };
        }
        let mut flat = int(0, span);
        for (t, i) in idx.into_iter().enumerate() {
            let size = if t == 0 {
                dims.first.clone()
            } else {
                Some(dims.inner[t - 1].clone())
            };
            let checked = match size {
                Some(d) if !in_range(&i, &d) => mk(
                    AK::Call(
                        Ident {
                            name: INDEX.into(),
                            span,
                        },
                        vec![i, d],
                    ),
                    span,
                ),
                _ => i,
            };
            let stride = product(&dims.inner[t..], span);
            flat = bin(BinOp::Add, flat, bin(BinOp::Mul, checked, stride));
        }
        flat.span = span;
        let elem = match base {
            Base::Name(name) => mk(AK::Index(name, Box::new(flat)), span),
            Base::Rows(x, _) => mk(AK::IndexOf(Box::new(self.flat(&x)), Box::new(flat)), span),
        };
        if m < n {
            return mk(AK::AddrOf(Box::new(elem)), span);
        }
        rest.into_iter()
            .fold(elem, |acc, j| mk(AK::IndexOf(Box::new(acc), Box::new(j)), span))
    }

    /// `sizeof a[i]` (a row: its size in C) and `sizeof a[i][j]`, without
    /// evaluating the indices; `None` for what is not such a chain.
    fn size_of(&mut self, x: &Expr) -> Option<Expr> {
        let (base, idx) = self.chain(x)?;
        let dims = self.dims_of(&base);
        let span = x.span;
        let first = match base {
            Base::Name(name) => mk(AK::Index(name, Box::new(int(0, span))), span),
            Base::Rows(x, _) => mk(AK::Deref(Box::new(self.flat(&x))), span),
        };
        let elem = mk(AK::SizeOf(Box::new(first)), span);
        let n = dims.inner.len() + 1;
        match idx.len() {
            0 => dims.first.as_ref().map(|first| {
                if std::iter::once(first)
                    .chain(&dims.inner)
                    .all(|e| const_eval(e).is_some())
                {
                    mk(AK::SizeOf(Box::new(x.clone())), span)
                } else {
                    bin(
                        BinOp::Mul,
                        bin(BinOp::Mul, elem.clone(), first.clone()),
                        product(&dims.inner, span),
                    )
                }
            }),
            m if m >= n => Some(elem),
            m => Some(bin(BinOp::Mul, elem, product(&dims.inner[m - 1..], span))),
        }
    }
}

/// Whether index `i` is a constant in `[0, d)` for a constant `d`.
fn in_range(i: &Expr, d: &Expr) -> bool {
    matches!((const_eval(i), const_eval(d)), (Some(i), Some(d)) if 0 <= i && i < d)
}

/// Places the elements of one `{ ... }` at `level` from `start` in `out`,
/// those past `end` dropped, as gcc does (with a warning).
fn fill(xs: Vec<Expr>, level: usize, strides: &[usize], out: &mut Vec<Option<Expr>>, start: usize, end: usize) {
    let mut pos = start;
    for x in xs {
        if pos >= end {
            return;
        }
        match x.kind {
            AK::InitList(inner) if level + 1 < strides.len() => {
                let size = strides[level].max(1);
                let rel = pos - start;
                pos = start + rel.div_ceil(size) * size;
                if pos >= end {
                    return;
                }
                fill(inner, level + 1, strides, out, pos, (pos + size).min(end));
                pos += size;
            }
            kind => {
                if out.len() <= pos {
                    out.resize(pos + 1, None);
                }
                out[pos] = Some(Expr { kind, span: x.span });
                pos += 1;
            }
        }
    }
}
