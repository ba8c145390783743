//! The memory model: pointers and structs, removed from the AST before
//! lowering, so that the interpreter and every engine see one memory model
//! and nothing else changes (CBMC dereferences the same way, by a case
//! split over the objects a pointer may point to).
//!
//! - A value of a struct or pointer type is a tuple of integer *leaves*
//!   (`types.rs`): `s.a`, `s.b`; a pointer `p` is `p` (the tag of the object
//!   it points to, 0 for null) and `p.off` (its element offset).
//! - An object whose address is taken gets a tag (`objects.rs`); a local of
//!   a function other than the entry becomes global storage with a flag
//!   saying whether its call is running.
//! - `*p` is a split over the objects of `p`'s pointee type: `if (p == 3)
//!   t = x; else if (p == 4) t = a[p.off]; else invalid;` where every
//!   invalid access (null, outside the object, a finished call's local) is
//!   an error of kind `deref`.
//!
//! A program without pointers or structs is returned unchanged.

mod acsl;
mod argv;
mod arith;
mod assign;
mod call;
mod expr;
mod fnptr;
mod heap;
mod leak;
mod loc;
mod locals;
mod objects;
mod params;
mod realloc;
mod rows;
mod scopes;
mod stmt;
mod struct_copy;
mod types;
mod unions;
mod wrappers;

use crate::diag::{Class, Diag};
use crate::syntax::ast::{self, CType, ExprKind as AK, IntType};
use crate::syntax::source::{SourceFile, Span};
pub use heap::{BEYOND_MODEL, BEYOND_POOL};
pub use leak::{Leaks, LEAK};
use objects::Objects;
pub use params::PARAM_ELEMS;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
pub use types::Types;

/// The global that carries leaf `path` (`.off`, `.a`) of what `func`
/// returns (the first leaf is the return value itself), named so that no
/// storage can share its name (a taken local `ret` of `f` is `f::ret`).
pub fn ret_leaf(func: &str, path: &str) -> String {
    format!("{func}::(ret){path}")
}

/// An object's storage named from file scope (`::a`): an access through a
/// pointer reaches the global `a` even where a parameter or local `a`
/// shadows it. Lowering and contract resolution look such a name up among
/// the globals only (`file_scope_name`).
pub fn file_scope(name: &str) -> String {
    format!("::{name}")
}

/// The global a name written by `file_scope` names.
pub fn file_scope_name(name: &str) -> Option<&str> {
    name.strip_prefix("::")
}

/// The label after a function's prologue, where its contract's starting
/// state is (`contract::FnContract::start`).
pub const CONTRACT_START: &str = "__acsl_start";

/// Called where an access through a pointer is invalid: a `deref` error.
pub const INVALID_ACCESS: &str = "__focuscheck_invalid_access";
/// `HAVOC(a)`: every element of `a` gets an arbitrary value.
pub const HAVOC: &str = "__focuscheck_havoc";
/// `HAVOC_POINTEE(p)`: every element of the object `p` points into (all of
/// it, whatever `p`'s offset) gets an arbitrary value; nothing for a null
/// or invalid `p`, nor for a string literal (read-only). What an unknown
/// function may do to what a pointer argument points to (`crate::ir::libc`).
pub const HAVOC_POINTEE: &str = "__focuscheck_havoc_pointee";

/// Whether `name` is a heap function (`malloc`, `free`, ...): modelled here
/// or refused here, never by `crate::ir::libc`.
pub fn is_heap_function(name: &str) -> bool {
    heap::MODELLED.contains(&name) || heap::UNMODELLED.contains(&name)
}

/// Whether global `name` is the heap model's bookkeeping: an allocating
/// call's count of allocations, an object's state or size (`heap.rs`).
pub fn is_heap_bookkeeping(name: &str) -> bool {
    heap::BOOKKEEPING.iter().any(|s| name.ends_with(s))
}

/// The program with pointers and structs replaced by integers, and its
/// annotations rewritten over the same storage (`acsl.rs`); errors go to
/// `diags` (an unsupported construct in a function leaves it out, as
/// lowering does for any construct outside the subset).
pub fn eliminate(
    p: &ast::Program,
    annots: &[crate::syntax::acsl::Annotation],
    opts: &crate::ir::lower::LowerOptions,
    file: &SourceFile,
    diags: &mut Vec<Diag>,
) -> (ast::Program, crate::ir::Memory, Vec<crate::syntax::acsl::Annotation>) {
    let entry = &opts.entry;
    if !uses_memory(p, annots) && !annots.iter().any(acsl::annotation_uses_memory) {
        // Pointer parameters no body or contract uses (`char *argv[]`) are
        // left out.
        let mut p = p.clone();
        for it in &mut p.items {
            if let ast::Item::Function(f) = it {
                for q in f.params.iter_mut().filter(|q| !q.ctype.is_int()) {
                    q.pointer = true;
                }
            }
        }
        return (p, crate::ir::Memory::default(), annots.to_vec());
    }
    let mut m = Mem::new(p, entry);
    m.setup_annotations(annots, &file.text);
    m.run(p); // discovers the objects
    let taken = std::mem::take(&mut m.found);
    let functions = std::mem::take(&mut m.fn_taken);
    let sites = std::mem::take(&mut m.heap_sites);
    let life = m.life.found();
    let mut m = Mem::new(p, entry);
    m.life = life;
    m.setup_annotations(annots, &file.text);
    m.setup_objects(taken);
    m.setup_functions(functions);
    m.setup_heap(sites, file, opts);
    m.leaks = opts.leaks;
    m.setup_params(p, opts);
    m.emit = true;
    let out = m.run(p);
    m.check_void();
    diags.extend(m.diags);
    let mut objects = m.objects.names();
    for o in &mut objects {
        if let Some(es) = m.strings.get(o.base.trim_start_matches("::")) {
            let chars = es.iter().map(|e| match e.kind {
                ast::ExprKind::Int(v, _) => v as u8,
                _ => b'?',
            });
            o.literal = Some(crate::ir::pointers::spell_literal(chars));
        }
    }
    let memory = crate::ir::Memory {
        objects,
        accesses: m.accesses.keys().copied().collect(),
        index_at: m.index_at,
        fn_calls: m.fn_calls,
    };
    // An annotation the walk did not reach (outside any function) is
    // bound as written, and resolving says what is wrong with it.
    let annots = annots
        .iter()
        .zip(m.annots_out)
        .map(|(a, out)| out.unwrap_or_else(|| a.clone()))
        .collect();
    (out, memory, annots)
}

/// The names of the functions the program defines.
pub(super) fn defined_functions(p: &ast::Program) -> HashSet<&str> {
    p.items
        .iter()
        .filter_map(|it| match it {
            ast::Item::Function(f) => Some(f.name.name.as_str()),
            _ => None,
        })
        .collect()
}

/// Whether the program has pointers, structs or heap calls. A pointer
/// parameter counts when its body or an annotation (its contract) names it.
fn uses_memory(p: &ast::Program, annots: &[crate::syntax::acsl::Annotation]) -> bool {
    let mut uses = false;
    let check_ty = |t: &CType| !t.is_int();
    // A function used as a value is a function pointer.
    let functions = defined_functions(p);
    for it in &p.items {
        match it {
            ast::Item::Struct(_) => uses = true,
            ast::Item::Globals(ds) => uses |= ds.iter().any(|d| check_ty(&d.ctype)),
            ast::Item::Function(f) => {
                uses |= f.ret_mem.is_some()
                    || f.params.iter().any(|q| {
                        check_ty(&q.ctype)
                            && q.name.as_ref().is_some_and(|n| {
                                crate::ir::lower::block_mentions(&f.body, &n.name)
                                    || annots.iter().any(|a| acsl::mentions(a, &n.name))
                            })
                    });
                crate::ir::lower::block_exprs(&f.body, &mut |e| {
                    uses |= matches!(
                        e.kind,
                        AK::Deref(_)
                            | AK::AddrOf(_)
                            | AK::Member(..)
                            | AK::IndexOf(..)
                            | AK::PtrCast(..)
                            | AK::SizeOfType(_)
                            | AK::InitList(_)
                            | AK::CallPtr(..)
                    ) || matches!(&e.kind, AK::Call(n, _) if heap::MODELLED.contains(&n.name.as_str()))
                        || matches!(&e.kind, AK::Var(n) if functions.contains(n.name.as_str()))
                });
                crate::ir::lower::block_decls(&f.body, &mut |d| uses |= check_ty(&d.ctype));
            }
            _ => {}
        }
    }
    uses
}

/// A variable in scope: its output name, C type, array length, and
/// declaration number (the same in both passes).
#[derive(Clone, Debug)]
struct VarInfo {
    out: String,
    ty: CType,
    len: Option<ast::Expr>,
    /// A variable-length array's number of elements (`objects::Obj::elems`).
    elems: Option<String>,
    decl: usize,
}

/// A function's signature in C types.
#[derive(Clone)]
struct Sig {
    params: Vec<CType>,
    ret: Option<CType>,
}

/// Storage whose address is taken, found by the first pass.
#[derive(Clone, Debug)]
struct Taken {
    base: String,
    ty: CType,
    len: Option<ast::Expr>,
    /// The function whose call it lives in (not the entry).
    owner: Option<String>,
    /// Its flag of being alive (`objects::Obj::alive`).
    alive: Option<String>,
    elems: Option<String>,
}

struct Mem {
    types: Types,
    /// `ast::Program::vla_lengths`.
    vla_lengths: HashMap<Span, String>,
    entry: String,
    /// Second pass: output is kept; first pass: only `found` is.
    emit: bool,
    /// Declarations whose address is taken (first pass), by number.
    found: BTreeMap<usize, Taken>,
    taken: HashSet<usize>,
    objects: Objects,
    sigs: HashMap<String, Sig>,
    /// Each defined function's type (`fnptr.rs`).
    fn_types: HashMap<String, ast::FnType>,
    /// Functions used as values (first pass): they get objects.
    fn_taken: BTreeSet<String>,
    /// The spans of calls through function pointers.
    fn_calls: HashSet<(u32, u32)>,
    globals: HashMap<String, VarInfo>,
    /// How often each name is declared anywhere (to rename taken locals).
    name_uses: HashMap<String, usize>,
    /// Each local declaration's place among its function's declarations
    /// of the same name (1, 2, ...), by declaration number.
    ordinal: HashMap<usize, usize>,
    /// The current function's declarations so far, by name.
    fn_seen: HashMap<String, usize>,
    /// Globals to add (taken locals, alive flags, return leaves).
    extra_globals: Vec<ast::VarDecl>,
    diags: Vec<Diag>,
    next_decl: usize,
    // Per function:
    func: String,
    scopes: Vec<HashMap<String, VarInfo>>,
    temps: Vec<(String, IntType)>,
    temp_next: usize,
    errors: Vec<(Span, String)>,
    /// Functions with taken locals (they get an `alive` flag).
    owners: HashSet<String>,
    /// The number of each access written (by span): its checks share one
    /// `deref` condition.
    accesses: HashMap<(u32, u32), i64>,
    /// Pointer types converted to and from `void *` (`convert_ptr`).
    to_void: Vec<(CType, Span)>,
    from_void: Vec<(CType, Span)>,
    /// The allocating calls (`heap.rs`), by span.
    heap_sites: BTreeMap<(u32, u32), heap::Site>,
    /// The characters of each string literal's object (`string#1`), its
    /// NUL included: what it initialises a `char` array field with.
    strings: HashMap<String, Vec<ast::Expr>>,
    /// The temporaries holding an allocating call's result, to its call.
    heap_temps: HashMap<String, (u32, u32)>,
    /// Where the index of a global array leaf goes in its name.
    index_at: HashMap<String, usize>,
    /// The allocation wrappers, by name (`wrappers.rs`).
    wrappers: HashMap<String, wrappers::Wrapper>,
    /// The entry's pointer parameters, to their objects (`params.rs`).
    entry_params: BTreeMap<String, String>,
    /// `main`'s `argv`, when the model builds it (`argv.rs`).
    argv: Option<String>,
    /// The strings of `argv` the program reads, when it names each by a
    /// constant index (`argv[1]`); `None`: any of them.
    argv_read: Option<std::collections::BTreeSet<i64>>,
    /// The entry's pointer parameters that may share an array with others
    /// of their pointee type, to that array and the elements they may
    /// point to, first and count (`params.rs`: aliasing).
    entry_shared: BTreeMap<String, (String, i64, i64)>,
    /// `--valid-params`.
    valid_params: bool,
    /// The file's annotations as parsed, and as rewritten (`acsl.rs`).
    annots: Vec<crate::syntax::acsl::Annotation>,
    annots_out: Vec<Option<crate::syntax::acsl::Annotation>>,
    /// The contracts written before each function, by its name.
    contracts_of: HashMap<String, Vec<usize>>,
    /// The statement annotations, by the span of their marker label.
    markers: HashMap<(u32, u32), usize>,
    /// The current function's parameter names.
    params: HashSet<String>,
    /// Where each function's definition starts.
    fn_start: HashMap<String, u32>,
    /// Heap objects whose size may exceed the elements the model holds
    /// (an entry's pointer parameters under a contract, `params.rs`).
    unbounded: HashSet<String>,
    /// Block-scoped locals' lifetimes (`scopes.rs`).
    life: scopes::Lifetimes,
    /// The leaks that are errors (`leak.rs`), by the property.
    leaks: Option<Leaks>,
    /// Functions declared but not defined, and the calls of functions
    /// never declared (whose `int` result is no second error).
    declared: HashSet<String>,
    implicit: Vec<(Span, String)>,
}

impl Mem {
    fn new(p: &ast::Program, entry: &str) -> Mem {
        let mut m = Mem {
            types: Types::new(p),
            vla_lengths: p.vla_lengths.clone(),
            entry: entry.to_string(),
            emit: false,
            found: BTreeMap::new(),
            taken: HashSet::new(),
            objects: Objects::default(),
            sigs: HashMap::new(),
            fn_types: HashMap::new(),
            fn_taken: BTreeSet::new(),
            fn_calls: HashSet::new(),
            globals: HashMap::new(),
            name_uses: HashMap::new(),
            ordinal: HashMap::new(),
            fn_seen: HashMap::new(),
            extra_globals: Vec::new(),
            diags: Vec::new(),
            next_decl: 0,
            func: String::new(),
            scopes: Vec::new(),
            temps: Vec::new(),
            temp_next: 0,
            errors: Vec::new(),
            owners: HashSet::new(),
            accesses: HashMap::new(),
            to_void: Vec::new(),
            from_void: Vec::new(),
            heap_sites: BTreeMap::new(),
            strings: string_literals(p),
            heap_temps: HashMap::new(),
            index_at: HashMap::new(),
            wrappers: HashMap::new(),
            entry_params: BTreeMap::new(),
            argv: None,
            argv_read: None,
            entry_shared: BTreeMap::new(),
            valid_params: false,
            annots: Vec::new(),
            annots_out: Vec::new(),
            contracts_of: HashMap::new(),
            markers: HashMap::new(),
            params: HashSet::new(),
            fn_start: HashMap::new(),
            unbounded: HashSet::new(),
            life: scopes::Lifetimes::default(),
            leaks: None,
            declared: HashSet::new(),
            implicit: Vec::new(),
        };
        for it in &p.items {
            match it {
                ast::Item::Function(f) => {
                    m.fn_start.insert(f.name.name.clone(), f.span.lo);
                    let ret = match (&f.ret_mem, f.ret) {
                        (Some(t), _) => t.clone(),
                        (None, ast::RetType::Void) => CType::Void,
                        (None, ast::RetType::Int(t)) => CType::Int(t),
                    };
                    let params = Some(f.params.iter().map(|q| q.ctype.clone()).collect());
                    m.fn_types.insert(f.name.name.clone(), ast::FnType { ret, params });
                    m.sigs.insert(
                        f.name.name.clone(),
                        Sig {
                            params: f.params.iter().map(|q| q.ctype.clone()).collect(),
                            ret: f.ret_mem.clone(),
                        },
                    );
                    let mut names: Vec<String> = f
                        .params
                        .iter()
                        .filter_map(|q| q.name.as_ref())
                        .map(|n| n.name.clone())
                        .collect();
                    crate::ir::lower::block_decls(&f.body, &mut |d| names.push(d.name.name.clone()));
                    for n in names {
                        *m.name_uses.entry(n).or_default() += 1;
                    }
                }
                ast::Item::Globals(ds) => {
                    for d in ds {
                        *m.name_uses.entry(d.name.name.clone()).or_default() += 1;
                    }
                }
                ast::Item::Prototype(pr) => _ = m.declared.insert(pr.name.name.clone()),
                ast::Item::Skipped(f) => _ = m.declared.insert(f.name.name.clone()),
                _ => {}
            }
        }
        let defined = m.sigs.keys().cloned().collect();
        m.wrappers = wrappers::find(p, &defined, entry);
        m
    }

    /// Where each annotation is rewritten: a contract when the walk enters
    /// the function right after it, a statement annotation at its marker.
    fn setup_annotations(&mut self, annots: &[crate::syntax::acsl::Annotation], text: &str) {
        use crate::syntax::acsl::AnnotKind;
        self.annots = annots.to_vec();
        self.annots_out = vec![None; annots.len()];
        for (i, a) in annots.iter().enumerate() {
            let span = a.comment.span;
            match a.kind {
                AnnotKind::Contract => {
                    let start = crate::ir::contract::next_token(text, span.hi as usize) as u32;
                    if let Some(name) = self.sigs.keys().find(|f| self.fn_start.get(*f) == Some(&start)) {
                        self.contracts_of.entry(name.clone()).or_default().push(i);
                    }
                }
                _ => {
                    self.markers.insert((span.lo, span.hi), i);
                }
            }
        }
    }

    /// Whether function `f` uses its parameter `name`: its body or its
    /// contract names it (an unused one, `char **argv`, is left out).
    fn param_used(&self, f: &ast::Function, name: &str) -> bool {
        crate::ir::lower::block_mentions(&f.body, name)
            || self
                .contracts_of
                .get(&f.name.name)
                .is_some_and(|cs| cs.iter().any(|&i| acsl::mentions(&self.annots[i], name)))
    }

    fn setup_objects(&mut self, found: BTreeMap<usize, Taken>) {
        for (id, t) in &found {
            self.taken.insert(*id);
            self.objects
                .add(&self.types, &t.base, &t.ty, t.len.as_ref(), t.alive.as_deref());
            if let Some(n) = &t.elems {
                self.objects.set_elems(&t.base, n);
            }
            if let Some(f) = &t.owner {
                self.owners.insert(f.clone());
            }
        }
        self.found = found;
    }

    /// A construct the memory model does not support: the function is left
    /// out (an error if it is reachable), as for any unsupported construct.
    fn unsupported(&mut self, span: Span, msg: impl Into<String>) {
        // An error about the `int` result of a function never declared is
        // that error (`implicit declaration of function`).
        let (span, msg) = match self.implicit.iter().find(|(i, _)| span.lo <= i.lo && i.hi <= span.hi) {
            Some((at, name)) => (*at, crate::ir::lower::builtin::implicit(name)),
            None => (span, msg.into()),
        };
        if !self.errors.iter().any(|(s, m)| *s == span && *m == msg) {
            self.errors.push((span, msg));
        }
    }

    fn error(&mut self, span: Span, msg: impl Into<String>) {
        if self.emit {
            self.diags
                .push(Diag::error(Class::Unsupported, span, msg.into()).with_label("here"));
        }
    }

    fn lookup(&self, name: &str) -> Option<&VarInfo> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name))
            .or_else(|| self.globals.get(name))
    }

    /// The name of the global storage of local declaration `decl` when its
    /// address is taken: its own name when nothing else is declared so,
    /// else `f::x`, and `f::x#2` for the second `x` of `f` (in another
    /// block), so that no two objects share storage.
    fn storage_name(&self, name: &str, decl: usize) -> String {
        if self.name_uses.get(name).copied().unwrap_or(0) <= 1 {
            return name.to_string();
        }
        let func = &self.func;
        match self.ordinal.get(&decl).copied().unwrap_or(1) {
            1 => format!("{func}::{name}"),
            k => format!("{func}::{name}#{k}"),
        }
    }

    /// A new local declaration (or parameter) of `name`: its number.
    fn new_local(&mut self, name: &str) -> usize {
        let decl = self.new_decl();
        let k = self.fn_seen.entry(name.to_string()).or_default();
        *k += 1;
        self.ordinal.insert(decl, *k);
        decl
    }

    /// A running-call flag, named so that no storage can share its name
    /// (a taken local `alive` of `f` is `f::alive`).
    fn alive_flag(&self, func: &str) -> String {
        format!("{func}::(alive)")
    }

    /// A pointer converted from type `from` to type `to` (an assignment, an
    /// argument, a cast). The split over objects relies on a `T *` pointing
    /// to `T` objects: a conversion between different pointee types is
    /// refused, and so is a `void *` that carries one type in and another
    /// out (checked when the program is done, `check_void`).
    fn convert_ptr(&mut self, from: &CType, to: &CType, leaves: &[ast::Expr], span: Span) {
        let (CType::Ptr(a), CType::Ptr(b)) = (from, to) else {
            return;
        };
        if self.heap_typed(to, leaves, span) {
            return;
        }
        let null = leaves.iter().all(|l| matches!(l.kind, AK::Int(0, _)));
        if a == b || null {
            return;
        }
        // Function pointers of compatible types (`int (*)()` and `int (*)(int)`).
        if let (CType::Func(f), CType::Func(g)) = (&**a, &**b) {
            if f.compatible(g) {
                return;
            }
        }
        match (&**a, &**b) {
            (CType::Void, t) => self.from_void.push((t.clone(), span)),
            (t, CType::Void) => self.to_void.push((t.clone(), span)),
            _ => self.unsupported(
                span,
                format!(
                    "a conversion from `{}` to `{}` is not supported (only between equal pointer types and `void *`)",
                    from.c_name(),
                    to.c_name()
                ),
            ),
        }
    }

    /// A `void *` converted back to a type other than one converted to it.
    fn check_void(&mut self) {
        let into: Vec<CType> = self.to_void.iter().map(|(t, _)| t.clone()).collect();
        for (t, span) in std::mem::take(&mut self.from_void) {
            if into.iter().any(|u| *u != t) {
                self.error(
                    span,
                    format!(
                        "`void *` converted to `{} *` where the program also converts other pointer types to `void *`: not supported (the split over objects relies on a pointer pointing to objects of its type)",
                        t.c_name()
                    ),
                );
            }
        }
    }

    /// The characters string literal `e` initialises a `char` array field
    /// of `n` elements with (C11 6.7.9p14: its NUL left out when the
    /// array has no room for it).
    fn string_init(&self, e: &ast::Expr, n: Option<i64>) -> Option<Vec<ast::Expr>> {
        let AK::Var(id) = &e.kind else { return None };
        let chars = self.strings.get(&id.name)?;
        let n = n.unwrap_or(chars.len() as i64).max(0) as usize;
        Some(chars.iter().take(n).cloned().collect())
    }

    /// The number of the access at `span`.
    fn access(&mut self, span: Span) -> i64 {
        let n = self.accesses.len() as i64;
        *self.accesses.entry((span.lo, span.hi)).or_insert(n)
    }

    /// A fresh temporary of the current function (declared at its start).
    fn temp(&mut self, ty: IntType) -> String {
        self.temp_next += 1;
        let name = format!("__mem{}", self.temp_next);
        self.temps.push((name.clone(), ty));
        name
    }
}

/// The characters of each string literal of `p`, by its object's name.
fn string_literals(p: &ast::Program) -> HashMap<String, Vec<ast::Expr>> {
    let mut out = HashMap::new();
    for it in &p.items {
        let ast::Item::Globals(ds) = it else { continue };
        for d in ds {
            if let (true, Some(ast::Init::List(es, _))) = (ast::is_string_literal(&d.name.name), &d.init) {
                out.insert(d.name.name.clone(), es.clone());
            }
        }
    }
    out
}
