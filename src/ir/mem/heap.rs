//! The heap: `malloc`, `calloc`, `realloc` (`realloc.rs`) and `free`.
//!
//! Each allocating call in the source has a pool of `--heap-instances`
//! objects (as CBMC and Frama-C name dynamic objects by their allocation
//! site): its `k`th execution allocates the `k`th, `malloc@11#3` (the 3rd
//! node allocated at line 11). Each instance is an object of its own, of
//! the type the result is converted to (`int *a = malloc(...)` allocates
//! `int`s), stored as a global array of `--heap-elems` elements (fewer
//! when the size is a smaller constant) with two more globals: its state
//! (0 not allocated yet, 1 live, 2 freed) and its size in bytes; the call
//! has a counter of its allocations. An instance being an object, bounds,
//! pointer arithmetic that leaves it, `free` of its start and its name in
//! reports work as for any object (an offset carrying the instance would
//! need a division at every access and a gap between instances).
//!
//! - `malloc` never fails (SV-COMP's assumption); its memory holds arbitrary
//!   values (the object's initial values, inputs whatever `--globals` says),
//!   `calloc`'s zeros; `calloc` returns null when `n * size` does not
//!   fit in `size_t`, as glibc does.
//! - An access checks that the object is live and the offset below its
//!   length (`loc.rs`); `free` of null does nothing, of anything but the
//!   start of a live heap object it is a `deref` error (double free, invalid
//!   free).
//! - A run that allocates more than an instance holds, or more times at
//!   one call than it has instances, is beyond the model: it stops at a
//!   `limit` site, and no condition is safe while such a run may exist (see
//!   `crate::analysis::limits`).
//! - `realloc` allocates the next instance of its own call, copies the
//!   old block into it and frees the old block (`realloc.rs`).

use super::expr::*;
use super::*;
use crate::syntax::ast::{BinOp, Expr, ExprKind, Stmt};

/// Called where a run leaves what the memory model represents.
pub const BEYOND_MODEL: &str = "__focuscheck_beyond_model";
/// Called where an allocating call runs once more than its objects.
pub const BEYOND_POOL: &str = "__focuscheck_beyond_pool";

/// Heap functions modelled.
pub(super) const MODELLED: &[&str] = &["malloc", "calloc", "realloc", "free"];
/// Heap functions not modelled.
pub(super) const UNMODELLED: &[&str] = &["alloca", "__builtin_alloca"];
/// The suffixes of the bookkeeping globals of an allocating call `base`
/// and its objects: the count of allocations, an object's state, its size.
pub(super) const BOOKKEEPING: [&str; 3] = ["::(count)", "::(state)", "::(bytes)"];

/// An allocating call (found by the first pass).
#[derive(Clone, Debug)]
pub(super) struct Site {
    /// `malloc`, `calloc` or `realloc` (the call's function, whatever macro
    /// wrote it).
    pub func: &'static str,
    /// The function the source calls: `func`, or an allocation wrapper
    /// (`wrappers.rs`); the object is named after it.
    pub called: String,
    /// The object's name: `malloc@16` (`malloc@16:11` when a line has two).
    pub base: String,
    /// The type its result is converted to.
    pub ty: Option<CType>,
    /// Elements the object's array holds.
    pub cap: i64,
    /// The size in bytes, when it is a constant.
    pub bytes: Option<i64>,
    /// Its objects, one per execution (`--heap-instances`).
    pub instances: i64,
}

/// The key of the call at `span`.
pub(super) fn key(span: Span) -> (u32, u32) {
    (span.lo, span.hi)
}

impl Mem {
    /// The state global of heap object `base` (0 not allocated, 1 live, 2 freed).
    pub(super) fn heap_state(base: &str) -> String {
        format!("{base}{}", BOOKKEEPING[1])
    }

    /// The size global of heap object `base`, in bytes.
    pub(super) fn heap_len(base: &str) -> String {
        format!("{base}{}", BOOKKEEPING[2])
    }

    /// The `k`th object (from 1) of allocating call `base`: `malloc@11#3`.
    pub(super) fn instance(base: &str, k: i64) -> String {
        format!("{base}#{k}")
    }

    /// The global counting the allocations at call `base` so far.
    fn heap_count(base: &str) -> String {
        format!("{base}{}", BOOKKEEPING[0])
    }

    /// The statements allocating `bytes` at `site` (objects of `elem`
    /// bytes) into temporary `t`: the next instance of the site becomes
    /// live with that size; past the last instance, or past the elements
    /// an instance holds, the run is beyond the model.
    pub(super) fn allocate(&mut self, site: &Site, elem: i64, bytes: &Expr, t: &str, span: Span) -> Vec<Stmt> {
        // Its checks are the model's, hidden in traces as an access's are.
        self.access(span);
        let count = Self::heap_count(&site.base);
        // In bytes, so that no division is needed (element `k` is inside
        // when `(k + 1) * sizeof(T) <= bytes`).
        let room = mk(ExprKind::Int(site.cap * elem, IntType::LongLong), span);
        let tag = |m: &Self, k: i64| m.objects.by_base(&Self::instance(&site.base, k)).map_or(0, |o| o.tag);
        let last = tag(self, site.instances);
        let beyond = || call(BEYOND_MODEL, vec![int(last, span)], span);
        let mut out = vec![
            if_(
                bin(BinOp::Ge, var(&count, span), int(site.instances, span), span),
                vec![call(BEYOND_POOL, vec![int(last, span)], span)],
                vec![],
                span,
            ),
            if_(bin(BinOp::Gt, bytes.clone(), room, span), vec![beyond()], vec![], span),
        ];
        let mut chain: Vec<Stmt> = vec![];
        for k in (1..=site.instances).rev() {
            let b = Self::instance(&site.base, k);
            let body = vec![
                assign(var(&Self::heap_state(&b), span), int(1, span), span),
                assign(var(&Self::heap_len(&b), span), bytes.clone(), span),
                assign(var(t, span), int(tag(self, k), span), span),
            ];
            // `<`, not `==`: views read `x == k` at an access as a case of
            // a split over objects (`Program::split_object`).
            let is_k = bin(BinOp::Lt, var(&count, span), int(k, span), span);
            chain = vec![if_(is_k, body, chain, span)];
        }
        out.extend(chain);
        out.push(assign(
            var(&count, span),
            offset(BinOp::Add, var(&count, span), int(1, span), span),
            span,
        ));
        out
    }

    /// `malloc(n)`, `calloc(n, size)`, `realloc(p, n)`, `free(p)`; `called`
    /// is the function the source calls at `span` (a wrapper's name, or
    /// `name`).
    pub(super) fn heap_call(&mut self, name: &str, called: &str, args: &[ast::Expr], span: Span) -> Val {
        let arity = if name == "calloc" || name == "realloc" { 2 } else { 1 };
        if args.len() != arity {
            self.unsupported(span, format!("`{name}` takes {arity} argument(s)"));
            return Self::null(span);
        }
        if name == "free" {
            return self.free(&args[0], span);
        }
        let mut pre = Vec::new();
        // `realloc`'s old pointer, evaluated first (its tag and offset).
        let old = match name {
            "realloc" => match self.realloc_old(&args[0], &mut pre, span) {
                Some(old) => Some(old),
                None => return Self::null(span),
            },
            _ => None,
        };
        let size_t = |e: Expr| mk(ExprKind::Cast(IntType::UInt, Box::new(e)), span);
        let wide = |e: Expr| mk(ExprKind::Cast(IntType::LongLong, Box::new(e)), span);
        // `calloc`'s product in `unsigned long long`: two `size_t`s multiply
        // exactly there, and no signed arithmetic of the model's can be
        // reported as the program's overflow.
        let (bytes, bytes_ty) = if name == "calloc" {
            let n = self.int_expr(&args[0]);
            let size = self.int_expr(&args[1]);
            let unsigned_wide = |e: Expr| mk(ExprKind::Cast(IntType::ULongLong, Box::new(size_t(e))), span);
            let product = bin(BinOp::Mul, unsigned_wide(n), unsigned_wide(size), span);
            (product, IntType::ULongLong)
        } else {
            let n = self.int_expr(args.last().expect("one argument or two"));
            (wide(size_t(n)), IntType::LongLong)
        };
        let bytes_expr = bytes.clone();
        let bytes = self.bind_always(&mut pre, bytes, bytes_ty);
        let t = self.temp(IntType::Int);
        self.heap_temps.insert(t.clone(), key(span));
        let result = Val {
            pre: vec![],
            leaves: vec![var(&t, span), int(0, span)],
            ty: CType::Ptr(Box::new(CType::Void)),
        };
        if !self.emit {
            let known = crate::ir::lower::const_eval(&bytes_expr);
            let func = match name {
                "calloc" => "calloc",
                "realloc" => "realloc",
                _ => "malloc",
            };
            let site = self.heap_sites.entry(key(span)).or_insert(Site {
                func,
                called: called.to_string(),
                base: String::new(),
                ty: None,
                cap: 0,
                bytes: known,
                instances: 0,
            });
            if site.bytes != known {
                // Two different sizes at one call (a macro, say): not constant.
                site.bytes = None;
            }
            return Val { pre, ..result };
        }
        let site = self.heap_sites.get(&key(span)).cloned();
        let first = site.as_ref().map(|s| Self::instance(&s.base, 1));
        let (Some(site), Some(obj)) = (site, first.and_then(|b| self.objects.by_base(&b).cloned())) else {
            self.unsupported(
                span,
                format!(
                    "the type `{name}` allocates is not known: convert its result to a pointer type where it is called (`int *a = {name}(...)`)"
                ),
            );
            return Val { pre, ..result };
        };
        let elem = match self.types.size_align(&obj.ty) {
            Ok((s, _)) => s,
            Err(msg) => {
                self.unsupported(span, msg);
                return Val { pre, ..result };
            }
        };
        let alloc = self.allocate(&site, elem, &bytes, &t, span);
        if name == "calloc" {
            // glibc's calloc returns null when n * size overflows `size_t`.
            let too_big = bin(
                BinOp::Gt,
                bytes,
                mk(ExprKind::Int(u32::MAX as i64, IntType::ULongLong), span),
                span,
            );
            pre.push(if_(
                too_big,
                vec![assign(var(&t, span), int(0, span), span)],
                alloc,
                span,
            ));
        } else if let Some(old) = old {
            let stmts = self.realloc_body(&site, (elem, &obj.ty), old, &bytes, &t, alloc, span);
            pre.extend(stmts);
        } else {
            pre.extend(alloc);
        }
        Val { pre, ..result }
    }

    /// `free(p)`: null does nothing; the start of a live heap object makes it
    /// freed; anything else is an invalid free (`deref`).
    fn free(&mut self, arg: &ast::Expr, span: Span) -> Val {
        // `free(0)` is `free(NULL)`: a null pointer constant, a no-op.
        let v = if is_null_constant(arg) {
            Self::null(arg.span)
        } else {
            self.rv(arg)
        };
        if v.leaves.len() != 2 {
            self.unsupported(span, format!("`free` of a `{}`", v.ty.c_name()));
            return Self::int_val(int(0, span));
        }
        let mut pre = v.pre;
        let mut it = v.leaves.into_iter();
        let tag = self.bind(&mut pre, it.next().expect("two leaves"), IntType::Int);
        let off = self.bind(&mut pre, it.next().expect("two leaves"), IntType::Int);
        let k = self.access(span);
        let invalid = || call(INVALID_ACCESS, vec![int(k, span)], span);
        let mut cases = vec![(0, vec![])];
        for base in self.freeable() {
            let Some(o) = self.objects.by_base(&base).cloned() else {
                continue;
            };
            let state = Self::heap_state(&base);
            let bad = not_live_start(&off, &state, span);
            cases.push((
                o.tag,
                vec![
                    if_(bad, vec![invalid()], vec![], span),
                    assign(var(&state, span), int(2, span), span),
                ],
            ));
        }
        pre.push(self.split(&tag, cases, span));
        Val {
            pre,
            leaves: vec![int(0, span)],
            ty: CType::Int(IntType::Int),
        }
    }

    /// The objects `free` and `realloc` take: the allocations, and the
    /// arrays of the entry's pointer parameters (the caller may have
    /// allocated them: `params.rs`).
    pub(super) fn freeable(&self) -> Vec<String> {
        self.heap_sites
            .values()
            .filter(|s| !s.base.is_empty())
            .flat_map(|s| (1..=s.instances).map(|k| Self::instance(&s.base, k)))
            .chain(self.entry_params.values().cloned())
            .chain(self.shared_arrays())
            .collect()
    }

    /// A `void *` from an allocating call converted to `to`: the type of its
    /// object. True when `leaves` are such a result.
    pub(super) fn heap_typed(&mut self, to: &CType, leaves: &[Expr], span: Span) -> bool {
        let Some(ExprKind::Var(id)) = leaves.first().map(|l| &l.kind) else {
            return false;
        };
        let Some(k) = self.heap_temps.get(&id.name).copied() else {
            return false;
        };
        let Some(t) = pointee(to).cloned() else {
            return true;
        };
        if self.emit {
            return true;
        }
        let site = self.heap_sites.get_mut(&k).expect("recorded by the call");
        match &site.ty {
            None if t != CType::Void => site.ty = Some(t),
            Some(u) if *u != t && t != CType::Void => {
                let msg = format!(
                    "an allocation used as `{} *` and as `{} *`: not supported (each allocating call is an object of one type)",
                    u.c_name(),
                    t.c_name()
                );
                self.unsupported(span, msg);
            }
            _ => {}
        }
        true
    }

    /// Names, arrays and globals of the allocating calls found by the first
    /// pass (second pass).
    pub(super) fn setup_heap(
        &mut self,
        mut sites: BTreeMap<(u32, u32), Site>,
        file: &SourceFile,
        opts: &crate::ir::lower::LowerOptions,
    ) {
        let heap_elems = opts.heap_elems as i64;
        let lines: Vec<u32> = sites
            .keys()
            .map(|k| file.start(Span::new(k.0 as usize, k.1 as usize)).line)
            .collect();
        for (k, site) in sites.iter_mut() {
            let span = Span::new(k.0 as usize, k.1 as usize);
            let at = file.start(span);
            let name = &site.called;
            site.base = if lines.iter().filter(|&&l| l == at.line).count() > 1 {
                format!("{name}@{}:{}", at.line, at.col)
            } else {
                format!("{name}@{}", at.line)
            };
            let Some(ty) = site.ty.clone() else {
                continue;
            };
            let elem = self.types.size_align(&ty).map_or(1, |(s, _)| s.max(1));
            // A constant size is exact when `--heap-elems` holds it (past
            // that, the run's check stops at the limit: a million arbitrary
            // elements made exploration hang past `--timeout`).
            site.cap = match site.bytes {
                Some(b) if (0..=u32::MAX as i64).contains(&b) => (b / elem).clamp(1, heap_elems),
                _ => heap_elems,
            };
            site.instances = opts.heap_instances as i64;
            let len = int(site.cap, span);
            for k in 1..=site.instances {
                let base = Self::instance(&site.base, k);
                self.objects.add_heap(&self.types, &base, &ty, &len);
                let zero = site.func == "calloc";
                self.heap_storage(&base, &ty, site.cap, zero, span);
                let (state, bytes) = (Self::heap_state(&base), Self::heap_len(&base));
                self.flag_global(&state, span);
                self.zero_global(&bytes, IntType::LongLong, span);
            }
            self.flag_global(&Self::heap_count(&site.base), span);
        }
        self.heap_sites = sites;
    }

    /// The arrays of heap object `base`: zeros for `calloc`, arbitrary values
    /// for `malloc` (each instance is allocated once, so these are what
    /// the allocation holds).
    pub(super) fn heap_storage(&mut self, base: &str, ty: &CType, cap: i64, zero: bool, span: Span) {
        let leaves = match self.types.leaves(ty) {
            Ok(l) => l,
            Err(msg) => {
                self.unsupported(span, msg);
                return;
            }
        };
        for l in leaves {
            // An array field: the instance's elements' rows, one after another.
            let len = match l.len.as_ref().map(crate::ir::lower::const_eval) {
                None => cap,
                Some(Some(k @ 1..)) => cap * k,
                Some(_) => {
                    self.unsupported(span, "allocating a struct with an array field of a size not constant");
                    return;
                }
            };
            self.extra_globals.push(ast::VarDecl {
                ty: l.ty,
                ctype: CType::Int(l.ty),
                name: ast::Ident {
                    name: format!("{base}{}", l.path),
                    span,
                },
                array: Some(int(len, span)),
                init: zero.then(|| ast::Init::List(vec![int(0, span)], span)),
                span,
                is_static: false,
                is_const: false,
                arbitrary: !zero,
            });
        }
    }
}

/// A pointer at offset `off` of a heap object whose state variable is
/// `state` is not the start of a live block (what `free` and `realloc`
/// may be given): a nonzero offset, or the block not allocated (state 1).
pub(super) fn not_live_start(off: &Expr, state: &str, span: Span) -> Expr {
    bin(
        BinOp::Or,
        bin(BinOp::Ne, off.clone(), int(0, span), span),
        bin(BinOp::Ne, var(state, span), int(1, span), span),
        span,
    )
}
