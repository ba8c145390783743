//! AST -> IR: name resolution, checks, and lowering to control-flow graphs.

use super::*;
use crate::diag::{Class, Diag};
use crate::syntax::ast;
use crate::syntax::ast::{AssignOp, BinOp, ExprKind as AK, StmtKind, UnOp};
use std::collections::{HashMap, HashSet};

pub(crate) mod builtin;
mod convert;
mod decl;
mod expr;
mod float;
mod stmt;
mod stmt_expr;
mod walk;
use convert::const_eval_typed;
pub(super) use walk::{block_calls, block_decls, block_exprs, block_mentions, expr_walk, stmt_walk};
use walk::{has_checks, has_effects};

#[derive(Clone, Debug)]
pub struct LowerOptions {
    pub entry: String,
    /// `None`: zero for SV-COMP-style files, inputs otherwise.
    pub globals: Option<GlobalsMode>,
    /// Check signed arithmetic for overflow (`--property no-overflow`).
    pub overflow_checks: bool,
    /// Elements the object of an allocating call holds, at most
    /// (`--heap-elems`; `crate::ir::mem` heap model).
    pub heap_elems: u32,
    /// Objects each allocating call has, one per execution
    /// (`--heap-instances`).
    pub heap_instances: u32,
    /// Elements a variable-length array holds at most (`--vla-elems`;
    /// `crate::ir::dims`).
    pub vla_elems: u32,
    /// The leaks that are errors (`--property valid-memsafety`,
    /// `valid-memcleanup`; `crate::ir::mem::Leaks`).
    pub leaks: Option<super::mem::Leaks>,
    /// Elements the object of an entry's pointer parameter holds
    /// (`--param-elems`), and whether it is never `NULL` (`--valid-params`).
    pub param_elems: u32,
    pub valid_params: bool,
    /// `-D`, `-U`, `-I`.
    pub pp: crate::syntax::preprocess::PpOptions,
}

/// `--heap-elems`' default.
pub const HEAP_ELEMS: u32 = 1024;
/// `--heap-instances`' default: a list or tree of a few nodes per
/// allocating call (each instance is one more case in a dereference).
pub const HEAP_INSTANCES: u32 = 4;
/// `--vla-elems`' default: the elements of a variable-length array's object
/// (each a value every engine tracks).
pub const VLA_ELEMS: u32 = 64;

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions {
            entry: "main".into(),
            globals: None,
            overflow_checks: false,
            heap_elems: HEAP_ELEMS,
            heap_instances: HEAP_INSTANCES,
            vla_elems: VLA_ELEMS,
            leaks: None,
            param_elems: crate::ir::mem::PARAM_ELEMS,
            valid_params: false,
            pp: Default::default(),
        }
    }
}

/// Builtins are recognised by name unless the file defines a function of that
/// name (SV-COMP files often define `__VERIFIER_assert` themselves).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Builtin {
    ReachError,
    Stop,
    Assert,
    Assume,
    Nondet(IntType),
    /// `crate::ir::mem::INVALID_ACCESS`: an access through a pointer that is
    /// not valid (a `deref` error).
    InvalidAccess,
    /// `crate::ir::mem::HAVOC(v)`: `v` (every element) gets arbitrary values.
    Havoc,
    /// `crate::ir::mem::BEYOND_MODEL(k)`: a run leaves the memory model at
    /// allocating call `k` (a `limit` site); `BEYOND_POOL(k)`: the call
    /// runs more times than it has objects (a `limit` site of its own).
    BeyondModel,
    BeyondPool,
    /// `crate::ir::mem::LEAK(k)`: a run ends with object `k` leaked.
    Leak,
    /// `crate::ir::dims::INDEX(i, n)`: `i`, a `bounds` error unless
    /// `0 <= i < n` (an index of an array of arrays).
    Index,
    /// `crate::ir::dims::VLA(n, most)`: a `bounds` error unless `n > 0`
    /// (C11 6.7.6.2p5), a `limit` site if `n > most` (`--vla-elems`).
    Vla,
}

/// Whether `name` is one of Cimple's builtins (`assert`, `__VERIFIER_nondet_int`, ...).
pub fn is_builtin(name: &str) -> bool {
    builtin(name).is_some() || super::float::MathFn::named(name).is_some()
}

fn builtin(name: &str) -> Option<Builtin> {
    Some(match name {
        "reach_error" | "__VERIFIER_error" => Builtin::ReachError,
        "abort" | "exit" | "__VERIFIER_abort" => Builtin::Stop,
        "assert" | "__VERIFIER_assert" => Builtin::Assert,
        "__VERIFIER_assume" | "assume_abort_if_not" | "assume" => Builtin::Assume,
        "nondet" => Builtin::Nondet(IntType::Int),
        super::mem::INVALID_ACCESS => Builtin::InvalidAccess,
        super::mem::HAVOC => Builtin::Havoc,
        super::mem::BEYOND_MODEL => Builtin::BeyondModel,
        super::mem::BEYOND_POOL => Builtin::BeyondPool,
        super::mem::LEAK => Builtin::Leak,
        super::dims::INDEX => Builtin::Index,
        super::dims::VLA => Builtin::Vla,
        _ => {
            let suffix = name.strip_prefix("__VERIFIER_nondet_")?;
            Builtin::Nondet(match suffix {
                "int" | "long" | "i" => IntType::Int,
                "uint" | "unsigned" | "unsigned_int" | "ulong" | "u32" | "unsigned_long" => IntType::UInt,
                "bool" | "_Bool" => IntType::Bool,
                "char" => IntType::Char,
                "uchar" | "unsigned_char" => IntType::UChar,
                "short" => IntType::Short,
                "ushort" | "unsigned_short" => IntType::UShort,
                "longlong" | "long_long" => IntType::LongLong,
                "ulonglong" | "unsigned_long_long" => IntType::ULongLong,
                "float" => IntType::Float,
                "double" => IntType::Double,
                _ => return None,
            })
        }
    })
}

/// `reach_error` and `__VERIFIER_error` keep their builtin meaning even when
/// the file defines them (their bodies call library functions).
fn builtin_always(name: &str) -> bool {
    matches!(name, "reach_error" | "__VERIFIER_error" | "abort" | "exit")
}

pub fn lower(
    source: Arc<SourceFile>,
    ast: &ast::Program,
    constants: BTreeMap<String, (i64, IntType)>,
    opts: &LowerOptions,
    diags: &mut Vec<Diag>,
) -> Option<Program> {
    let mut cx = Cx {
        source: source.clone(),
        diags,
        vars: Vec::new(),
        nodes: Vec::new(),
        units: Vec::new(),
        blocks: Vec::new(),
        access_sites: HashMap::new(),
        limit_sites: HashMap::new(),
        frozen_unit: None,
        sites: Vec::new(),
        globals: Vec::new(),
        global_names: HashMap::new(),
        const_globals: HashMap::new(),
        procs: HashMap::new(),
        proc_list: Vec::new(),
        cond_exits: Vec::new(),
        overflow_checks: opts.overflow_checks,
    };

    // ---- functions: definitions, prototypes, left-out ones ----
    let mut defs: Vec<&ast::Function> = Vec::new();
    let mut protos: HashMap<String, &ast::Prototype> = HashMap::new();
    let mut skipped: HashMap<String, LeftOut> = HashMap::new();
    let mut seen_fn: HashMap<String, Span> = HashMap::new();
    for item in &ast.items {
        match item {
            ast::Item::Function(f) => {
                if let Some(prev) = seen_fn.get(&f.name.name) {
                    cx.diags.push(
                        Diag::error(
                            Class::Semantic,
                            f.name.span,
                            format!("function `{}` is defined twice", f.name.name),
                        )
                        .with_label("second definition")
                        .with_secondary(*prev, "first definition"),
                    );
                    continue;
                }
                seen_fn.insert(f.name.name.clone(), f.name.span);
                if builtin_always(&f.name.name) {
                    continue;
                }
                let mut reasons = f.unsupported.clone();
                for p in f.params.iter().filter(|p| p.pointer) {
                    let name = p.name.as_ref().map(|n| n.name.as_str()).unwrap_or("");
                    if name.is_empty() || block_mentions(&f.body, name) {
                        reasons.push((p.span, "pointer parameters are not part of Cimple".into()));
                    }
                }
                if reasons.is_empty() {
                    defs.push(f);
                } else {
                    skipped.insert(
                        f.name.name.clone(),
                        LeftOut {
                            name: f.name.name.clone(),
                            span: f.name.span,
                            reasons,
                        },
                    );
                }
            }
            ast::Item::Struct(_) => {}
            ast::Item::Skipped(s) => {
                if seen_fn.insert(s.name.name.clone(), s.name.span).is_some() {
                    continue;
                }
                skipped.insert(
                    s.name.name.clone(),
                    LeftOut {
                        name: s.name.name.clone(),
                        span: s.name.span,
                        reasons: s.reasons.clone(),
                    },
                );
            }
            ast::Item::Prototype(p) => {
                protos.entry(p.name.name.clone()).or_insert(p);
            }
            ast::Item::Globals(_) => {}
        }
    }
    leave_out_undeclared_calls(&mut defs, &protos, &mut skipped, &opts.entry);
    let svcomp = ast_mentions_svcomp(ast);
    // A C program run from `main` that calls the C library (a model made
    // for one of its calls, `printf@12:3`) starts as C says; a unit checked
    // from another entry starts in any state.
    let libc_main = opts.entry == "main"
        && ast
            .items
            .iter()
            .any(|it| matches!(it, ast::Item::Function(f) if f.name.name.contains('@')));

    // ---- globals ----
    let mode = opts.globals.unwrap_or(if svcomp || libc_main {
        GlobalsMode::Zero
    } else {
        GlobalsMode::Input
    });
    // Sizes may name them (the memory model's globals come first).
    for item in &ast.items {
        if let ast::Item::Globals(decls) = item {
            for d in decls.iter().filter(|d| d.is_const) {
                if let Some(ast::Init::Expr(e)) = &d.init {
                    if let Some(v) = const_eval(e) {
                        cx.const_globals.insert(d.name.name.clone(), v);
                    }
                }
            }
        }
    }
    for item in &ast.items {
        if let ast::Item::Globals(decls) = item {
            for d in decls {
                cx.declare_global(d, mode);
            }
        }
    }

    // ---- procedure ids, in definition order ----
    for (i, f) in defs.iter().enumerate() {
        cx.procs.insert(f.name.name.clone(), ProcId(i as u32));
        cx.proc_list.push(f);
    }
    for (name, p) in &protos {
        if let (Some(&pid), Some(params)) = (cx.procs.get(name), &p.params) {
            let def = cx.proc_list[pid.index()];
            if params.len() != def.params.len() && !params.is_empty() {
                cx.diags.push(
                    Diag::error(
                        Class::Semantic,
                        p.name.span,
                        format!(
                            "the prototype of `{name}` has {} parameter{} but its definition has {}",
                            params.len(),
                            if params.len() == 1 { "" } else { "s" },
                            def.params.len()
                        ),
                    )
                    .with_label("prototype")
                    .with_secondary(def.name.span, "definition"),
                );
            }
        }
    }

    // ---- the entry, and which left-out functions it can reach ----
    let Some(&entry) = cx.procs.get(&opts.entry) else {
        if let Some(lo) = skipped.get(&opts.entry) {
            let why = format!("the entry function `{}` uses it, so it cannot be analysed", opts.entry);
            report_unsupported(cx.diags, lo, &why);
        } else if ast.items.is_empty() && !cx.diags.iter().any(|d| d.is_error()) {
            cx.diags.push(
                Diag::error(Class::Semantic, Span::new(0, 0), "the file defines nothing")
                    .with_label("empty file")
                    .with_note("a Cimple program needs at least a `main` function"),
            );
        } else if !cx.diags.iter().any(|d| d.is_error()) {
            cx.diags.push(
                Diag::error(
                    Class::Semantic,
                    Span::new(0, 0),
                    format!("no function `{}` to start from", opts.entry),
                )
                .with_label("entry function not found")
                .with_note("define it, or choose another entry with `--entry NAME`"),
            );
        }
        return None;
    };
    let reachable = reachable_names(&defs, &opts.entry);
    let mut left_out: Vec<LeftOut> = skipped.into_values().collect();
    left_out.sort_by_key(|l| l.span);
    for lo in &left_out {
        if let Some(caller) = reachable.get(&lo.name) {
            let line = source.line_of(*caller);
            let why = format!(
                "function `{}` uses it and is called from the entry `{}` (line {line}), so it cannot be left out",
                lo.name, opts.entry
            );
            report_unsupported(cx.diags, lo, &why);
        } else {
            let why = lo.reasons.first().map(|r| r.1.clone()).unwrap_or_default();
            cx.diags.push(
                Diag::warning(lo.span, format!("function `{}` is left out: {}", lo.name, why))
                    .with_label("left out (not reachable from the entry)"),
            );
        }
    }

    // ---- bodies ----
    let mut procs = Vec::new();
    for (i, f) in defs.iter().enumerate() {
        let is_entry = ProcId(i as u32) == entry;
        procs.push(cx.lower_function(ProcId(i as u32), f, is_entry, &protos, &left_out));
    }
    if cx.diags.iter().any(|d| d.is_error()) {
        return None;
    }
    Some(Program {
        source,
        vars: cx.vars,
        globals: cx.globals,
        procs,
        nodes: cx.nodes,
        units: cx.units,
        blocks: cx.blocks,
        sites: cx.sites,
        entry,
        constants,
        macro_uses: Vec::new(),
        left_out,
        svcomp,
        globals_mode: mode,
        cond_exits: cx.cond_exits.into_iter().collect(),
        contracts: Default::default(),
        memory: Default::default(),
        narrowed: Vec::new(),
    })
}

/// A definition the entry does not reach that calls a function never
/// declared (as a header's `__builtin_bswap32`) is left out; a reachable
/// one is lowered, and the call is an error there.
fn leave_out_undeclared_calls(
    defs: &mut Vec<&ast::Function>,
    protos: &HashMap<String, &ast::Prototype>,
    skipped: &mut HashMap<String, LeftOut>,
    entry: &str,
) {
    let reachable = reachable_names(defs, entry);
    let known: HashSet<String> = defs
        .iter()
        .map(|f| f.name.name.clone())
        .chain(protos.keys().cloned())
        .chain(skipped.keys().cloned())
        .collect();
    defs.retain(|f| {
        if f.name.name == entry || reachable.contains_key(&f.name.name) {
            return true;
        }
        let mut call = None;
        block_exprs(&f.body, &mut |e| {
            if let ast::ExprKind::Call(n, _) = &e.kind {
                if call.is_none() && !known.contains(&n.name) && builtin(&n.name).is_none() {
                    call = Some(n.clone());
                }
            }
        });
        let Some(n) = call else { return true };
        skipped.insert(
            f.name.name.clone(),
            LeftOut {
                name: f.name.name.clone(),
                span: f.name.span,
                reasons: vec![(n.span, builtin::implicit(&n.name))],
            },
        );
        false
    });
}

/// One error per construct outside Cimple (or call of a function never
/// declared) in a function that must be analysed; `why` says why it must.
fn report_unsupported(diags: &mut Vec<Diag>, lo: &LeftOut, why: &str) {
    for (span, msg) in &lo.reasons {
        let (class, label) = builtin::reason_class(msg);
        diags.push(
            Diag::error(class, *span, msg.clone())
                .with_label(label)
                .with_note(why.to_string()),
        );
    }
}

/// Does the file follow SV-COMP conventions?
/// The file uses the SV-COMP conventions: it declares, defines or calls
/// `__VERIFIER_*` or `reach_error` (then globals start at 0, as in C).
fn ast_mentions_svcomp(ast: &ast::Program) -> bool {
    let svcomp = |name: &str| name.starts_with("__VERIFIER_") || name == "reach_error";
    ast.items.iter().any(|it| {
        let name = match it {
            // The C library's models (`printf@12:3`, made for one call)
            // draw their results from `__VERIFIER_nondet_*`; the file's own
            // conventions are what counts.
            ast::Item::Function(f) if f.name.name.contains('@') => return false,
            ast::Item::Function(f) => {
                let mut calls = Vec::new();
                block_calls(&f.body, &mut calls);
                if calls.iter().any(|c| svcomp(&c.name)) {
                    return true;
                }
                &f.name.name
            }
            ast::Item::Prototype(p) => &p.name.name,
            ast::Item::Skipped(s) => &s.name.name,
            ast::Item::Globals(_) | ast::Item::Struct(_) => return false,
        };
        svcomp(name)
    })
}

/// Names of functions reachable from `entry` through calls, each with the
/// span of one call that reaches it.
fn reachable_names(defs: &[&ast::Function], entry: &str) -> HashMap<String, Span> {
    let by_name: HashMap<&str, &ast::Function> = defs.iter().map(|f| (f.name.name.as_str(), *f)).collect();
    let mut out: HashMap<String, Span> = HashMap::new();
    let mut work = vec![entry.to_string()];
    let mut done = HashSet::new();
    while let Some(f) = work.pop() {
        if !done.insert(f.clone()) {
            continue;
        }
        let Some(def) = by_name.get(f.as_str()) else { continue };
        let mut calls = Vec::new();
        block_calls(&def.body, &mut calls);
        for c in calls {
            out.entry(c.name.clone()).or_insert(c.span);
            work.push(c.name);
        }
    }
    out
}

/// Evaluates a constant expression (array sizes, case labels, global
/// initialisers).
pub fn const_eval(e: &ast::Expr) -> Option<i64> {
    const_eval_typed(e)
        .filter(|(_, t)| !t.is_float())
        .and_then(|(v, _)| i64::try_from(v).ok())
}

/// The macros whose body is a constant expression, with their value and C
/// type.
pub fn macro_constants(macros: &BTreeMap<String, ast::Expr>) -> BTreeMap<String, (i64, IntType)> {
    macros
        .iter()
        .filter_map(|(name, e)| {
            let (v, t) = const_eval_typed(e).filter(|(_, t)| !t.is_float())?;
            Some((name.clone(), (i64::try_from(v).ok()?, t)))
        })
        .collect()
}

const NONE: NodeId = NodeId(u32::MAX);

/// An unfilled successor of an emitted node.
#[derive(Clone, Copy, Debug)]
enum Hole {
    Next(NodeId),
    Then(NodeId),
    Else(NodeId),
}

struct Cx<'a> {
    source: Arc<SourceFile>,
    diags: &'a mut Vec<Diag>,
    vars: Vec<Var>,
    nodes: Vec<Node>,
    units: Vec<Unit>,
    blocks: Vec<Block>,
    sites: Vec<ErrorSite>,
    globals: Vec<VarId>,
    global_names: HashMap<String, VarId>,
    /// File-scope `const` integers with a constant initialiser: a local
    /// array's size may name one (a variable-length array in C whose length
    /// is known).
    const_globals: HashMap<String, i64>,
    procs: HashMap<String, ProcId>,
    proc_list: Vec<&'a ast::Function>,
    cond_exits: Vec<((NodeId, bool), bool)>,
    overflow_checks: bool,
    /// The `deref` site of each access `crate::ir::mem` numbered: one
    /// condition per dereference written, whichever check fails.
    access_sites: HashMap<u32, SiteId>,
    limit_sites: HashMap<(u32, ProcId, bool), SiteId>,
    /// While lowering an `Access`: the unit its nodes belong to.
    frozen_unit: Option<UnitId>,
}

impl Cx<'_> {
    fn err(&mut self, class: Class, span: Span, msg: impl Into<String>, label: impl Into<String>) {
        self.diags.push(Diag::error(class, span, msg).with_label(label));
    }

    fn new_var(&mut self, var: Var) -> VarId {
        self.vars.push(var);
        VarId(self.vars.len() as u32 - 1)
    }

    /// The length of an array declared by `d`; `scopes`, a local
    /// declaration's: names there shadow the file-scope `const` integers.
    fn array_len(&mut self, d: &ast::VarDecl, scopes: &[HashMap<String, VarId>]) -> Option<u32> {
        let size = d.array.as_ref()?;
        let named = match &size.kind {
            ast::ExprKind::Var(id) if scopes.iter().all(|s| !s.contains_key(&id.name)) => {
                self.const_globals.get(&id.name).copied()
            }
            _ => None,
        };
        match const_eval(size).or(named) {
            Some(n) if n > 0 && n <= 1 << 20 => Some(n as u32),
            Some(n) => {
                self.err(
                    Class::Semantic,
                    size.span,
                    format!("array size {n} is out of range"),
                    "must be between 1 and 1048576",
                );
                Some(1)
            }
            None => {
                self.err(
                    Class::Semantic,
                    size.span,
                    format!("the size of array `{}` is not a constant", d.name.name),
                    "not a constant",
                );
                Some(1)
            }
        }
    }

    fn declare_global(&mut self, d: &ast::VarDecl, mode: GlobalsMode) {
        if let Some(&prev) = self.global_names.get(&d.name.name) {
            let first = self.vars[prev.index()].span;
            let redeclared = |msg: String| {
                Diag::error(Class::Semantic, d.name.span, msg)
                    .with_label("second declaration")
                    .with_secondary(first, "first declaration")
            };
            if self.vars[prev.index()].ty != d.ty {
                let msg = format!("conflicting types for global `{}`", d.name.name);
                self.diags.push(redeclared(msg));
                return;
            }
            // `extern int x; int x = 1;` is one variable.
            let tentative = matches!(&self.vars[prev.index()].init, VarInit::Input)
                || matches!(&self.vars[prev.index()].init, VarInit::Values(v) if v.is_empty());
            if d.init.is_some() && tentative {
                let len = self.vars[prev.index()].slots();
                let init = self.const_init(d, len);
                self.vars[prev.index()].init = init;
                return;
            }
            if d.init.is_none() {
                return;
            }
            self.diags
                .push(redeclared(format!("global `{}` is declared twice", d.name.name)));
            return;
        }
        if self.procs.contains_key(&d.name.name) {
            self.err(
                Class::Semantic,
                d.name.span,
                format!("`{}` is already a function", d.name.name),
                "name in use",
            );
        }
        let len = self.array_len(d, &[]);
        let init = if d.init.is_some() {
            self.const_init(d, len.unwrap_or(1))
        } else if mode == GlobalsMode::Zero && !d.arbitrary {
            VarInit::Values(Vec::new())
        } else {
            VarInit::Input
        };
        let v = self.new_var(Var {
            name: d.name.name.clone(),
            proc: None,
            kind: VarKind::Global,
            ty: d.ty,
            len,
            span: d.name.span,
            init,
            is_static: false,
        });
        self.globals.push(v);
        self.global_names.insert(d.name.name.clone(), v);
    }

    /// A constant initialiser (globals and static locals).
    fn const_init(&mut self, d: &ast::VarDecl, len: u32) -> VarInit {
        let exprs: Vec<&ast::Expr> = match &d.init {
            Some(ast::Init::Expr(e)) => vec![e],
            Some(ast::Init::List(es, _)) => es.iter().collect(),
            None => vec![],
        };
        if exprs.len() > len as usize {
            self.err(
                Class::Semantic,
                d.span,
                format!("too many initialisers for `{}`", d.name.name),
                "more values than elements",
            );
        }
        let mut vals = Vec::new();
        for e in exprs {
            // Converted to the variable's type, as C initialises.
            let converted = const_eval_typed(e).and_then(|(v, t)| float::const_convert(v, t, d.ty));
            match converted.and_then(|v| i64::try_from(v).ok()) {
                Some(v) => vals.push(v),
                None => {
                    self.err(
                        Class::Semantic,
                        e.span,
                        "the initialiser of a global must be a constant",
                        "not a constant",
                    );
                    vals.push(0);
                }
            }
        }
        VarInit::Values(vals)
    }

    fn new_unit(&mut self, kind: UnitKind, span: Span, proc: ProcId) -> UnitId {
        if let Some(u) = self.frozen_unit {
            return u;
        }
        self.units.push(Unit { kind, span, proc });
        UnitId(self.units.len() as u32 - 1)
    }

    /// The site of access `k`; statically safe only if every check of it is.
    fn access_site(&mut self, k: u32, span: Span, proc: ProcId, static_ok: bool) -> SiteId {
        if let Some(&s) = self.access_sites.get(&k) {
            self.sites[s.index()].static_ok &= static_ok;
            return s;
        }
        let s = self.new_site(SiteKind::Deref, span, proc, None);
        self.sites[s.index()].static_ok = static_ok;
        self.access_sites.insert(k, s);
        s
    }

    /// The `limit` site of allocating call `k` (one for its checks of
    /// sizes, one for its count when `pool`).
    fn limit_site(&mut self, k: u32, span: Span, proc: ProcId, storage: Option<VarId>, pool: bool) -> SiteId {
        if let Some(&s) = self.limit_sites.get(&(k, proc, pool)) {
            return s;
        }
        let s = self.new_site(SiteKind::Limit, span, proc, storage);
        self.sites[s.index()].pool = pool;
        self.limit_sites.insert((k, proc, pool), s);
        s
    }

    fn new_site(&mut self, kind: SiteKind, span: Span, proc: ProcId, array: Option<VarId>) -> SiteId {
        self.sites.push(ErrorSite {
            kind,
            span,
            proc,
            array,
            static_ok: false,
            vla: false,
            pool: false,
        });
        SiteId(self.sites.len() as u32 - 1)
    }
}

fn assign_binop(op: AssignOp) -> BinOp {
    match op {
        AssignOp::Set | AssignOp::Add => BinOp::Add,
        AssignOp::Sub => BinOp::Sub,
        AssignOp::Mul => BinOp::Mul,
        AssignOp::Div => BinOp::Div,
        AssignOp::Mod => BinOp::Mod,
        AssignOp::BitAnd => BinOp::BitAnd,
        AssignOp::BitOr => BinOp::BitOr,
        AssignOp::BitXor => BinOp::BitXor,
        AssignOp::Shl => BinOp::Shl,
        AssignOp::Shr => BinOp::Shr,
    }
}

/// Does the expression compute a truth value (so it lowers to branches)?
fn is_boolean(e: &ast::Expr) -> bool {
    match &e.kind {
        AK::Binary(op, ..) => op.is_relational() || op.is_logical(),
        AK::Unary(UnOp::Not, _) => true,
        _ => false,
    }
}

fn parens_match(t: &str) -> bool {
    // The first `(` closes only at the very end.
    let mut depth = 0;
    for (i, c) in t.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 && i != t.len() - 1 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

struct LoopCx {
    breaks: Vec<Hole>,
    continues: Vec<Hole>,
    is_switch: bool,
}

struct SwitchCases {
    /// (value converted to the controlling expression's promoted type,
    /// target node, span); `None` for `default`.
    values: Vec<(Option<i128>, NodeId, Span)>,
    /// The promoted type of the controlling expression (C11 6.8.4.2p5).
    ty: IntType,
}

struct FnLower<'p> {
    pid: ProcId,
    is_entry: bool,
    scopes: Vec<HashMap<String, VarId>>,
    locals: Vec<VarId>,
    params: Vec<VarId>,
    open: Vec<Hole>,
    unit: UnitId,
    block: BlockId,
    loops: Vec<LoopCx>,
    switches: Vec<SwitchCases>,
    labels: HashMap<String, NodeId>,
    pending_gotos: HashMap<String, Vec<(Hole, Span)>>,
    ret_var: Option<VarId>,
    exit: NodeId,
    protos: &'p HashMap<String, &'p ast::Prototype>,
    left_out: &'p [LeftOut],
}

impl FnLower<'_> {
    fn switch_cases(&mut self) -> Option<&mut SwitchCases> {
        self.switches.last_mut()
    }
}
