//! AST -> IR: name resolution, checks, and lowering to control-flow graphs.

use super::*;
use crate::diag::{Class, Diag};
use crate::syntax::ast;
use crate::syntax::ast::{AssignOp, BinOp, ExprKind as AK, StmtKind, UnOp};
use std::collections::{HashMap, HashSet};

mod convert;
use convert::const_eval_typed;

pub struct LowerOptions {
    pub entry: String,
    /// `None`: zero for SV-COMP-style files, inputs otherwise.
    pub globals: Option<GlobalsMode>,
    /// Check signed arithmetic for overflow (`--property no-overflow`).
    pub overflow_checks: bool,
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions {
            entry: "main".into(),
            globals: None,
            overflow_checks: false,
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
}

fn builtin(name: &str) -> Option<Builtin> {
    Some(match name {
        "reach_error" | "__VERIFIER_error" => Builtin::ReachError,
        "abort" | "exit" | "__VERIFIER_abort" => Builtin::Stop,
        "assert" | "__VERIFIER_assert" => Builtin::Assert,
        "__VERIFIER_assume" | "assume_abort_if_not" | "assume" => Builtin::Assume,
        "nondet" => Builtin::Nondet(IntType::Int),
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
    constants: BTreeMap<String, i64>,
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
        sites: Vec::new(),
        globals: Vec::new(),
        global_names: HashMap::new(),
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
    let svcomp = ast_mentions_svcomp(ast);

    // ---- globals ----
    let mode = opts
        .globals
        .unwrap_or(if svcomp { GlobalsMode::Zero } else { GlobalsMode::Input });
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
        left_out,
        svcomp,
        globals_mode: mode,
        cond_exits: cx.cond_exits.into_iter().collect(),
        contracts: Default::default(),
    })
}

/// One error per construct outside Cimple in a function that must be
/// analysed; `why` says why it must.
fn report_unsupported(diags: &mut Vec<Diag>, lo: &LeftOut, why: &str) {
    for (span, msg) in &lo.reasons {
        diags.push(
            Diag::error(Class::Unsupported, *span, msg.clone())
                .with_label("outside the Cimple subset")
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
            ast::Item::Globals(_) => return false,
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

fn block_calls(b: &ast::Block, out: &mut Vec<ast::Ident>) {
    for s in &b.stmts {
        stmt_walk(s, &mut |e| {
            if let AK::Call(name, _) = &e.kind {
                out.push(name.clone());
            }
        });
    }
}

fn block_mentions(b: &ast::Block, name: &str) -> bool {
    let mut found = false;
    for s in &b.stmts {
        stmt_walk(s, &mut |e| match &e.kind {
            AK::Var(n) | AK::Index(n, _) if n.name == name => found = true,
            _ => {}
        });
    }
    found
}

/// Calls `f` on every expression of a statement, outermost first.
fn stmt_walk(s: &ast::Stmt, f: &mut dyn FnMut(&ast::Expr)) {
    let cond = |c: &ast::Cond, f: &mut dyn FnMut(&ast::Expr)| {
        if let ast::Cond::Expr(e) = c {
            expr_walk(e, f)
        }
    };
    match &s.kind {
        StmtKind::Decl(ds) => {
            for d in ds {
                if let Some(a) = &d.array {
                    expr_walk(a, f);
                }
                match &d.init {
                    Some(ast::Init::Expr(e)) => expr_walk(e, f),
                    Some(ast::Init::List(es, _)) => es.iter().for_each(|e| expr_walk(e, f)),
                    None => {}
                }
            }
        }
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => expr_walk(e, f),
        StmtKind::If(c, t, e) => {
            cond(c, f);
            stmt_walk(t, f);
            if let Some(e) = e {
                stmt_walk(e, f);
            }
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
            cond(c, f);
            stmt_walk(b, f);
        }
        StmtKind::For(i, c, st, b) => {
            if let Some(i) = i {
                stmt_walk(i, f);
            }
            if let Some(c) = c {
                cond(c, f);
            }
            if let Some(st) = st {
                expr_walk(st, f);
            }
            stmt_walk(b, f);
        }
        StmtKind::Switch(e, b) | StmtKind::Case(e, b) => {
            expr_walk(e, f);
            stmt_walk(b, f);
        }
        StmtKind::Default(b) | StmtKind::Labeled(_, b) => stmt_walk(b, f),
        StmtKind::Block(b) => b.stmts.iter().for_each(|s| stmt_walk(s, f)),
        StmtKind::Break | StmtKind::Continue | StmtKind::Return(None) | StmtKind::Goto(_) | StmtKind::Empty => {}
    }
}

fn expr_walk(e: &ast::Expr, f: &mut dyn FnMut(&ast::Expr)) {
    f(e);
    match &e.kind {
        AK::Int(..) | AK::Bool(_) | AK::Var(_) => {}
        AK::Index(_, i) => expr_walk(i, f),
        AK::Call(_, args) | AK::Comma(args) => args.iter().for_each(|a| expr_walk(a, f)),
        AK::Unary(_, x) | AK::Cast(_, x) | AK::IncDec { target: x, .. } => expr_walk(x, f),
        AK::Binary(_, a, b) | AK::Assign(_, a, b) => {
            expr_walk(a, f);
            expr_walk(b, f);
        }
        AK::Ternary(a, b, c) => {
            expr_walk(a, f);
            expr_walk(b, f);
            expr_walk(c, f);
        }
    }
}

/// Evaluates a constant expression (array sizes, case labels, global
/// initialisers).
pub fn const_eval(e: &ast::Expr) -> Option<i64> {
    const_eval_typed(e).and_then(|(v, _)| i64::try_from(v).ok())
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
    procs: HashMap<String, ProcId>,
    proc_list: Vec<&'a ast::Function>,
    cond_exits: Vec<((NodeId, bool), bool)>,
    overflow_checks: bool,
}

impl Cx<'_> {
    fn err(&mut self, class: Class, span: Span, msg: impl Into<String>, label: impl Into<String>) {
        self.diags.push(Diag::error(class, span, msg).with_label(label));
    }

    fn new_var(&mut self, var: Var) -> VarId {
        self.vars.push(var);
        VarId(self.vars.len() as u32 - 1)
    }

    fn array_len(&mut self, d: &ast::VarDecl) -> Option<u32> {
        let size = d.array.as_ref()?;
        match const_eval(size) {
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
            let span = self.vars[prev.index()].span;
            self.diags.push(
                Diag::error(
                    Class::Semantic,
                    d.name.span,
                    format!("global `{}` is declared twice", d.name.name),
                )
                .with_label("second declaration")
                .with_secondary(span, "first declaration"),
            );
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
        let len = self.array_len(d);
        let init = if d.init.is_some() {
            self.const_init(d, len.unwrap_or(1))
        } else if mode == GlobalsMode::Zero {
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
            match const_eval_typed(e).and_then(|(v, _)| i64::try_from(d.ty.convert(v)).ok()) {
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
        self.units.push(Unit { kind, span, proc });
        UnitId(self.units.len() as u32 - 1)
    }

    fn new_site(&mut self, kind: SiteKind, span: Span, proc: ProcId, array: Option<VarId>) -> SiteId {
        self.sites.push(ErrorSite {
            kind,
            span,
            proc,
            array,
            static_ok: false,
        });
        SiteId(self.sites.len() as u32 - 1)
    }

    fn lower_function(
        &mut self,
        pid: ProcId,
        f: &ast::Function,
        is_entry: bool,
        protos: &HashMap<String, &ast::Prototype>,
        left_out: &[LeftOut],
    ) -> Proc {
        let body_block = Block {
            parent: None,
            span: f.body.span,
            proc: pid,
        };
        self.blocks.push(body_block);
        let body_block = BlockId(self.blocks.len() as u32 - 1);
        let mut fl = FnLower {
            pid,
            is_entry,
            scopes: vec![HashMap::new()],
            locals: Vec::new(),
            params: Vec::new(),
            open: Vec::new(),
            unit: UnitId(0),
            block: body_block,
            loops: Vec::new(),
            switches: Vec::new(),
            labels: HashMap::new(),
            pending_gotos: HashMap::new(),
            ret_var: None,
            exit: NONE,
            protos,
            left_out,
        };
        let label_unit = self.new_unit(UnitKind::Label, f.name.span, pid);
        fl.unit = label_unit;
        if let ast::RetType::Int(t) = f.ret {
            let rv = self.new_var(Var {
                name: format!("{}::return", f.name.name),
                proc: Some(pid),
                kind: VarKind::Ret,
                ty: t,
                len: None,
                span: f.name.span,
                init: VarInit::Assigned,
                is_static: false,
            });
            fl.ret_var = Some(rv);
            fl.locals.push(rv);
        }
        for p in &f.params {
            if p.pointer {
                continue;
            }
            let Some(name) = &p.name else { continue };
            if fl.scopes[0].contains_key(&name.name) {
                self.err(
                    Class::Semantic,
                    name.span,
                    format!("parameter `{}` is declared twice", name.name),
                    "duplicate parameter",
                );
                continue;
            }
            let v = self.new_var(Var {
                name: name.name.clone(),
                proc: Some(pid),
                kind: VarKind::Param,
                ty: p.ty,
                len: None,
                span: name.span,
                init: if is_entry { VarInit::Input } else { VarInit::Assigned },
                is_static: false,
            });
            fl.scopes[0].insert(name.name.clone(), v);
            fl.params.push(v);
            fl.locals.push(v);
        }
        // The exit node exists first so that `return` can point at it.
        let exit = self.push_node(NodeKind::Exit, pid, f.body.span, label_unit, body_block);
        fl.exit = exit;
        let entry = self.emit(&mut fl, NodeKind::Skip { next: NONE }, f.name.span);
        for s in &f.body.stmts {
            self.stmt(&mut fl, s);
        }
        // Falling off the end.
        if !fl.open.is_empty() {
            if let Some(rv) = fl.ret_var {
                let span = Span::new(f.body.span.hi as usize - 1, f.body.span.hi as usize);
                let unit = self.new_unit(UnitKind::Label, span, pid);
                fl.unit = unit;
                let place = Place {
                    var: rv,
                    index: None,
                    span,
                };
                if f.name.name == "main" {
                    // C99: reaching the end of `main` returns 0.
                    let value = Expr {
                        kind: ExprKind::Const(0),
                        span,
                    };
                    self.emit(
                        &mut fl,
                        NodeKind::Assign {
                            place,
                            value,
                            next: NONE,
                        },
                        span,
                    );
                } else {
                    let ty = self.vars[rv.index()].ty;
                    self.emit(&mut fl, NodeKind::Havoc { place, ty, next: NONE }, span);
                }
            }
            let open = std::mem::take(&mut fl.open);
            self.patch_all(&open, exit);
        }
        for (label, holes) in std::mem::take(&mut fl.pending_gotos) {
            let span = holes.first().map(|(_, s)| *s).unwrap_or_default();
            self.err(
                Class::Semantic,
                span,
                format!("label `{label}` is not defined"),
                "unknown label",
            );
        }
        Proc {
            name: f.name.name.clone(),
            ret: f.ret,
            params: fl.params,
            locals: fl.locals,
            ret_var: fl.ret_var,
            entry,
            exit,
            body_block,
            span: f.span,
        }
    }

    fn push_node(&mut self, kind: NodeKind, proc: ProcId, span: Span, unit: UnitId, block: BlockId) -> NodeId {
        self.nodes.push(Node {
            kind,
            proc,
            span,
            unit,
            block,
        });
        NodeId(self.nodes.len() as u32 - 1)
    }

    fn patch(&mut self, hole: Hole, target: NodeId) {
        match hole {
            Hole::Next(n) => match &mut self.nodes[n.index()].kind {
                NodeKind::Assign { next, .. }
                | NodeKind::Havoc { next, .. }
                | NodeKind::Call { next, .. }
                | NodeKind::Skip { next }
                | NodeKind::Return { next, .. } => *next = target,
                _ => unreachable!("a Next hole is only made for nodes with one successor"),
            },
            Hole::Then(n) | Hole::Else(n) => {
                if let NodeKind::Branch { then_, else_, .. } = &mut self.nodes[n.index()].kind {
                    if matches!(hole, Hole::Then(_)) {
                        *then_ = target;
                    } else {
                        *else_ = target;
                    }
                }
            }
        }
    }

    fn patch_all(&mut self, holes: &[Hole], target: NodeId) {
        for &h in holes {
            self.patch(h, target);
        }
    }

    /// Adds a node after the open holes; it becomes the only open hole
    /// (branches and terminal nodes leave none).
    fn emit(&mut self, fl: &mut FnLower, kind: NodeKind, span: Span) -> NodeId {
        let id = self.push_node(kind, fl.pid, span, fl.unit, fl.block);
        let open = std::mem::take(&mut fl.open);
        self.patch_all(&open, id);
        fl.open = match &self.nodes[id.index()].kind {
            NodeKind::Assign { .. } | NodeKind::Havoc { .. } | NodeKind::Call { .. } | NodeKind::Skip { .. } => {
                vec![Hole::Next(id)]
            }
            _ => vec![],
        };
        id
    }

    fn emit_branch(&mut self, fl: &mut FnLower, cond: Cond, span: Span) -> (Vec<Hole>, Vec<Hole>) {
        let id = self.emit(
            fl,
            NodeKind::Branch {
                cond,
                then_: NONE,
                else_: NONE,
            },
            span,
        );
        (vec![Hole::Then(id)], vec![Hole::Else(id)])
    }

    fn with_block<T>(&mut self, fl: &mut FnLower, span: Span, f: impl FnOnce(&mut Self, &mut FnLower) -> T) -> T {
        self.blocks.push(Block {
            parent: Some(fl.block),
            span,
            proc: fl.pid,
        });
        let saved = fl.block;
        fl.block = BlockId(self.blocks.len() as u32 - 1);
        fl.scopes.push(HashMap::new());
        let r = f(self, fl);
        fl.scopes.pop();
        fl.block = saved;
        r
    }

    /// The span without enclosing parentheses, so atom texts read as written.
    fn strip_parens(&self, mut span: Span) -> Span {
        loop {
            let t = self.source.slice(span);
            if t.len() >= 2 && t.starts_with('(') && t.ends_with(')') && parens_match(t) {
                span = Span::new(span.lo as usize + 1, span.hi as usize - 1);
                let t2 = self.source.slice(span);
                let lead = t2.len() - t2.trim_start().len();
                let trail = t2.len() - t2.trim_end().len();
                span = Span::new(span.lo as usize + lead, span.hi as usize - trail);
            } else {
                return span;
            }
        }
    }

    fn stmt_span(&self, s: &ast::Stmt) -> Span {
        // Without the final `;`, for display.
        let t = self.source.slice(s.span);
        if t.ends_with(';') {
            Span::new(s.span.lo as usize, s.span.hi as usize - 1)
        } else {
            s.span
        }
    }

    // ---- statements ----

    fn stmt(&mut self, fl: &mut FnLower, s: &ast::Stmt) {
        match &s.kind {
            StmtKind::Empty => {}
            StmtKind::Block(b) => self.with_block(fl, b.span, |cx, fl| {
                for s in &b.stmts {
                    cx.stmt(fl, s);
                }
            }),
            StmtKind::Decl(decls) => {
                fl.unit = self.new_unit(UnitKind::Assign, self.stmt_span(s), fl.pid);
                for d in decls {
                    self.local_decl(fl, d);
                }
            }
            StmtKind::Expr(e) => {
                let kind = match &e.kind {
                    AK::Call(name, _) => match self.builtin_for(name) {
                        Some(Builtin::Assert | Builtin::Assume) => UnitKind::Check,
                        Some(Builtin::ReachError | Builtin::Stop) => UnitKind::Stop,
                        _ => UnitKind::Call,
                    },
                    _ => UnitKind::Assign,
                };
                fl.unit = self.new_unit(kind, self.stmt_span(s), fl.pid);
                self.effect(fl, e);
            }
            StmtKind::If(c, then, els) => {
                let (t, f) = self.cond_unit(fl, c);
                fl.open = t;
                self.body(fl, then);
                let after_then = std::mem::take(&mut fl.open);
                fl.open = f;
                if let Some(e) = els {
                    self.body(fl, e);
                }
                fl.open.extend(after_then);
            }
            StmtKind::While(c, body) => {
                let head = self.loop_head(fl, s.span);
                let (t, f) = self.cond_unit(fl, c);
                fl.open = t;
                fl.loops.push(LoopCx {
                    breaks: Vec::new(),
                    continues: Vec::new(),
                    is_switch: false,
                });
                self.body(fl, body);
                let lc = fl.loops.pop().expect("pushed above");
                let mut back = std::mem::take(&mut fl.open);
                back.extend(lc.continues);
                self.patch_all(&back, head);
                fl.open = f;
                fl.open.extend(lc.breaks);
            }
            StmtKind::DoWhile(body, c) => {
                let head = self.loop_head(fl, s.span);
                fl.loops.push(LoopCx {
                    breaks: Vec::new(),
                    continues: Vec::new(),
                    is_switch: false,
                });
                self.body(fl, body);
                let lc = fl.loops.pop().expect("pushed above");
                fl.open.extend(lc.continues);
                let (t, f) = self.cond_unit(fl, c);
                self.patch_all(&t, head);
                fl.open = f;
                fl.open.extend(lc.breaks);
            }
            StmtKind::For(init, c, step, body) => self.with_block(fl, s.span, |cx, fl| {
                if let Some(i) = init {
                    cx.stmt(fl, i);
                }
                let head = cx.loop_head(fl, s.span);
                let (t, f) = match c {
                    Some(c) => cx.cond_unit(fl, c),
                    None => (std::mem::take(&mut fl.open), Vec::new()),
                };
                fl.open = t;
                fl.loops.push(LoopCx {
                    breaks: Vec::new(),
                    continues: Vec::new(),
                    is_switch: false,
                });
                cx.body(fl, body);
                let lc = fl.loops.pop().expect("pushed above");
                fl.open.extend(lc.continues);
                if let Some(st) = step {
                    fl.unit = cx.new_unit(UnitKind::Assign, st.span, fl.pid);
                    cx.effect(fl, st);
                }
                let back = std::mem::take(&mut fl.open);
                cx.patch_all(&back, head);
                fl.open = f;
                fl.open.extend(lc.breaks);
            }),
            StmtKind::Switch(e, body) => self.switch(fl, e, body),
            StmtKind::Case(..) | StmtKind::Default(..) if fl.switch_cases().is_none() => {
                self.err(
                    Class::Semantic,
                    s.span,
                    "`case` or `default` outside a `switch`",
                    "not in a switch",
                );
            }
            StmtKind::Case(e, inner) => {
                let value = const_eval(e);
                if value.is_none() {
                    self.err(
                        Class::Semantic,
                        e.span,
                        "a case label must be a constant",
                        "not a constant",
                    );
                }
                fl.unit = self.new_unit(UnitKind::Label, s.span, fl.pid);
                let target = self.emit(fl, NodeKind::Skip { next: NONE }, s.span);
                let cases = fl.switch_cases().expect("checked by the guard above");
                if let Some(v) = value {
                    if cases.values.iter().any(|(w, _, _)| *w == Some(v)) {
                        self.err(
                            Class::Semantic,
                            e.span,
                            format!("duplicate case value {v}"),
                            "already handled",
                        );
                    }
                    cases.values.push((Some(v), target, e.span));
                }
                self.stmt(fl, inner);
            }
            StmtKind::Default(inner) => {
                fl.unit = self.new_unit(UnitKind::Label, s.span, fl.pid);
                let target = self.emit(fl, NodeKind::Skip { next: NONE }, s.span);
                let cases = fl.switch_cases().expect("checked by the guard above");
                if cases.values.iter().any(|(w, _, _)| w.is_none()) {
                    self.err(
                        Class::Semantic,
                        s.span,
                        "two `default` labels in one switch",
                        "second default",
                    );
                }
                cases.values.push((None, target, s.span));
                self.stmt(fl, inner);
            }
            StmtKind::Break => match fl.loops.last_mut() {
                Some(l) => {
                    let open = std::mem::take(&mut fl.open);
                    l.breaks.extend(open);
                }
                None => self.err(
                    Class::Semantic,
                    s.span,
                    "`break` outside a loop or switch",
                    "nothing to break out of",
                ),
            },
            StmtKind::Continue => match fl.loops.iter_mut().rev().find(|l| !l.is_switch) {
                Some(l) => {
                    let open = std::mem::take(&mut fl.open);
                    l.continues.extend(open);
                }
                None => self.err(Class::Semantic, s.span, "`continue` outside a loop", "not in a loop"),
            },
            StmtKind::Return(e) => {
                fl.unit = self.new_unit(UnitKind::Return, self.stmt_span(s), fl.pid);
                self.ret(fl, s.span, e.as_ref());
            }
            StmtKind::Goto(label) => {
                let open = std::mem::take(&mut fl.open);
                match fl.labels.get(&label.name) {
                    Some(&target) => self.patch_all(&open, target),
                    None => fl
                        .pending_gotos
                        .entry(label.name.clone())
                        .or_default()
                        .extend(open.into_iter().map(|h| (h, label.span))),
                }
            }
            StmtKind::Labeled(label, inner) => {
                if fl.labels.contains_key(&label.name) {
                    self.err(
                        Class::Semantic,
                        label.span,
                        format!("label `{}` is defined twice", label.name),
                        "duplicate label",
                    );
                }
                fl.unit = self.new_unit(UnitKind::Label, label.span, fl.pid);
                let target = self.emit(fl, NodeKind::Skip { next: NONE }, label.span);
                fl.labels.insert(label.name.clone(), target);
                if let Some(holes) = fl.pending_gotos.remove(&label.name) {
                    for (h, _) in holes {
                        self.patch(h, target);
                    }
                }
                self.stmt(fl, inner);
            }
        }
    }

    /// The body of an `if`/`else`/loop: its own block.
    fn body(&mut self, fl: &mut FnLower, s: &ast::Stmt) {
        match &s.kind {
            StmtKind::Block(_) => self.stmt(fl, s),
            _ => self.with_block(fl, s.span, |cx, fl| cx.stmt(fl, s)),
        }
    }

    fn loop_head(&mut self, fl: &mut FnLower, span: Span) -> NodeId {
        fl.unit = self.new_unit(UnitKind::Label, span, fl.pid);
        self.emit(fl, NodeKind::Skip { next: NONE }, span)
    }

    /// A condition as its own unit; returns the true and false holes.
    fn cond_unit(&mut self, fl: &mut FnLower, c: &ast::Cond) -> (Vec<Hole>, Vec<Hole>) {
        let span = self.strip_parens(c.span());
        fl.unit = self.new_unit(UnitKind::Cond, span, fl.pid);
        let (t, f) = match c {
            ast::Cond::Star(s) => self.emit_branch(fl, Cond::Nondet, *s),
            ast::Cond::Expr(e) => self.cond(fl, e),
        };
        // Remember which branch edges leave the condition true or false.
        for (holes, value) in [(&t, true), (&f, false)] {
            for h in holes {
                match h {
                    Hole::Then(n) => self.cond_exits.push(((*n, true), value)),
                    Hole::Else(n) => self.cond_exits.push(((*n, false), value)),
                    Hole::Next(_) => {}
                }
            }
        }
        (t, f)
    }

    fn switch(&mut self, fl: &mut FnLower, e: &ast::Expr, body: &ast::Stmt) {
        fl.unit = self.new_unit(UnitKind::Cond, self.strip_parens(e.span), fl.pid);
        let scrutinee = self.value(fl, e);
        let scrutinee = self.snapshot(fl, scrutinee, e.span);
        let entry = std::mem::take(&mut fl.open);
        let dispatch_unit = fl.unit;
        fl.loops.push(LoopCx {
            breaks: Vec::new(),
            continues: Vec::new(),
            is_switch: true,
        });
        fl.switches.push(SwitchCases { values: Vec::new() });
        self.body(fl, body);
        let cases = fl.switches.pop().expect("pushed above");
        let lc = fl.loops.pop().expect("pushed above");
        let mut after = std::mem::take(&mut fl.open);
        after.extend(lc.breaks);
        // The dispatch: one atom per case, in order, then default.
        fl.open = entry;
        fl.unit = dispatch_unit;
        let mut default = None;
        for (value, target, span) in &cases.values {
            match value {
                Some(v) => {
                    let atom = Atom {
                        lhs: scrutinee.clone(),
                        op: RelOp::Eq,
                        rhs: Expr {
                            kind: ExprKind::Const(*v),
                            span: *span,
                        },
                    };
                    let (t, f) = self.emit_branch(fl, Cond::Atom(atom), *span);
                    self.patch_all(&t, *target);
                    fl.open = f;
                }
                None => default = Some(*target),
            }
        }
        match default {
            Some(d) => {
                let open = std::mem::take(&mut fl.open);
                self.patch_all(&open, d);
            }
            None => after.append(&mut fl.open),
        }
        fl.open = after;
    }

    fn ret(&mut self, fl: &mut FnLower, span: Span, e: Option<&ast::Expr>) {
        match (e, fl.ret_var) {
            (Some(e), Some(_)) => {
                // `return a < b;` returns through two Return nodes.
                if is_boolean(e) {
                    let (t, f) = self.cond(fl, e);
                    for (holes, v) in [(t, 1), (f, 0)] {
                        fl.open = holes;
                        let value = Expr {
                            kind: ExprKind::Const(v),
                            span: e.span,
                        };
                        self.emit(
                            fl,
                            NodeKind::Return {
                                value: Some(value),
                                next: fl.exit,
                            },
                            span,
                        );
                    }
                } else {
                    let from = self.type_of(fl, e);
                    let value = self.value(fl, e);
                    let to = self.vars[fl.ret_var.expect("checked by the match").index()].ty;
                    let value = self.converted_value(fl, value, from, to, e.span);
                    self.emit(
                        fl,
                        NodeKind::Return {
                            value: Some(value),
                            next: fl.exit,
                        },
                        span,
                    );
                }
            }
            (None, None) => {
                self.emit(
                    fl,
                    NodeKind::Return {
                        value: None,
                        next: fl.exit,
                    },
                    span,
                );
            }
            (Some(e), None) => {
                self.err(
                    Class::Semantic,
                    e.span,
                    "a `void` function cannot return a value",
                    "value returned here",
                );
            }
            (None, Some(_)) => {
                self.err(
                    Class::Semantic,
                    span,
                    "this function must return a value",
                    "`return;` in a non-void function",
                );
            }
        }
        fl.open.clear();
    }

    fn local_decl(&mut self, fl: &mut FnLower, d: &ast::VarDecl) {
        if fl.scopes.last().is_some_and(|s| s.contains_key(&d.name.name)) {
            self.err(
                Class::Semantic,
                d.name.span,
                format!("`{}` is already declared in this block", d.name.name),
                "duplicate declaration",
            );
            return;
        }
        let len = self.array_len(d);
        // Static locals are global storage with a constant initial value.
        if d.is_static {
            let init = self.const_init(d, len.unwrap_or(1));
            let v = self.new_var(Var {
                name: d.name.name.clone(),
                proc: Some(fl.pid),
                kind: VarKind::Local,
                ty: d.ty,
                len,
                span: d.name.span,
                init,
                is_static: true,
            });
            self.globals.push(v);
            fl.scopes.last_mut().expect("a scope").insert(d.name.name.clone(), v);
            return;
        }
        let input = fl.is_entry && d.init.is_none();
        let v = self.new_var(Var {
            name: d.name.name.clone(),
            proc: Some(fl.pid),
            kind: VarKind::Local,
            ty: d.ty,
            len,
            span: d.name.span,
            init: if input { VarInit::Input } else { VarInit::Assigned },
            is_static: false,
        });
        fl.locals.push(v);
        let decl_span = Span::new(d.name.span.lo as usize, d.span.hi as usize);
        // In scope from the end of its declarator, as in C: an initialiser
        // that names the variable (`int g = g + 1;`) reads the new,
        // uninitialised one, an arbitrary value.
        fl.scopes.last_mut().expect("a scope").insert(d.name.name.clone(), v);
        let mut self_ref = false;
        let inits: Vec<&ast::Expr> = match &d.init {
            Some(ast::Init::Expr(e)) => vec![e],
            Some(ast::Init::List(es, _)) => es.iter().collect(),
            None => vec![],
        };
        for e in inits {
            expr_walk(e, &mut |x| {
                if let AK::Var(n) | AK::Index(n, _) = &x.kind {
                    self_ref |= n.name == d.name.name;
                }
            });
        }
        if self_ref {
            let place = Place {
                var: v,
                index: None,
                span: d.name.span,
            };
            self.emit(
                fl,
                NodeKind::Havoc {
                    place,
                    ty: d.ty,
                    next: NONE,
                },
                d.name.span,
            );
        }
        match &d.init {
            None if !fl.is_entry => {
                // A non-entry local starts with an arbitrary value each call.
                let place = Place {
                    var: v,
                    index: None,
                    span: d.name.span,
                };
                self.emit(
                    fl,
                    NodeKind::Havoc {
                        place,
                        ty: d.ty,
                        next: NONE,
                    },
                    d.name.span,
                );
            }
            None => {}
            Some(ast::Init::Expr(e)) if len.is_none() => {
                let place = Place {
                    var: v,
                    index: None,
                    span: d.name.span,
                };
                self.assign_value(fl, place, e, decl_span);
            }
            Some(init) => {
                let Some(n) = len else {
                    self.err(
                        Class::Semantic,
                        d.span,
                        "an initialiser list needs an array",
                        "not an array",
                    );
                    return;
                };
                let exprs: Vec<&ast::Expr> = match init {
                    ast::Init::List(es, _) => es.iter().collect(),
                    ast::Init::Expr(e) => vec![e],
                };
                if exprs.len() > n as usize {
                    self.err(
                        Class::Semantic,
                        d.span,
                        format!("too many initialisers for `{}`", d.name.name),
                        "more values than elements",
                    );
                }
                for k in 0..n as usize {
                    let index = Expr {
                        kind: ExprKind::Const(k as i64),
                        span: d.name.span,
                    };
                    let site = self.new_site(SiteKind::Bounds, d.name.span, fl.pid, Some(v));
                    self.sites[site.index()].static_ok = true;
                    let place = Place {
                        var: v,
                        index: Some((Box::new(index), site)),
                        span: d.name.span,
                    };
                    match exprs.get(k) {
                        Some(e) => self.assign_value(fl, place, e, e.span),
                        None => {
                            let zero = Expr {
                                kind: ExprKind::Const(0),
                                span: d.name.span,
                            };
                            self.emit(
                                fl,
                                NodeKind::Assign {
                                    place,
                                    value: zero,
                                    next: NONE,
                                },
                                decl_span,
                            );
                        }
                    }
                }
            }
        }
    }

    // ---- names ----

    fn lookup(&mut self, fl: &FnLower, id: &ast::Ident) -> Option<VarId> {
        for s in fl.scopes.iter().rev() {
            if let Some(&v) = s.get(&id.name) {
                return Some(v);
            }
        }
        if let Some(&v) = self.global_names.get(&id.name) {
            return Some(v);
        }
        let msg = if self.procs.contains_key(&id.name) || fl.protos.contains_key(&id.name) {
            format!("function `{}` used as a variable", id.name)
        } else {
            format!("undeclared variable `{}`", id.name)
        };
        self.err(Class::Semantic, id.span, msg, "not declared");
        None
    }

    fn builtin_for(&self, name: &ast::Ident) -> Option<Builtin> {
        if self.procs.contains_key(&name.name) && !builtin_always(&name.name) {
            return None;
        }
        builtin(&name.name)
    }

    // ---- expressions ----

    /// An expression evaluated for its effects (an expression statement).
    fn effect(&mut self, fl: &mut FnLower, e: &ast::Expr) {
        match &e.kind {
            AK::Assign(op, lhs, rhs) => {
                self.assign(fl, *op, lhs, rhs, e.span);
            }
            AK::IncDec { target, inc, .. } => {
                if let Some(place) = self.place(fl, target) {
                    self.incdec(fl, place, *inc, e.span);
                }
            }
            AK::Call(name, args) => {
                self.call(fl, name, args, e.span, None);
            }
            AK::Comma(list) => {
                for x in list {
                    self.effect(fl, x);
                }
            }
            _ => {
                // A pure expression statement still evaluates (and checks) its
                // operands.
                let v = self.value(fl, e);
                if has_checks(&v) {
                    let t = self.temp(fl, IntType::Int, e.span);
                    let place = Place {
                        var: t,
                        index: None,
                        span: e.span,
                    };
                    self.emit(
                        fl,
                        NodeKind::Assign {
                            place,
                            value: v,
                            next: NONE,
                        },
                        e.span,
                    );
                }
            }
        }
    }

    fn temp(&mut self, fl: &mut FnLower, ty: IntType, span: Span) -> VarId {
        let n = fl
            .locals
            .iter()
            .filter(|&&v| self.vars[v.index()].kind == VarKind::Temp)
            .count();
        let v = self.new_var(Var {
            name: format!("$t{n}"),
            proc: Some(fl.pid),
            kind: VarKind::Temp,
            ty,
            len: None,
            span,
            init: VarInit::Assigned,
            is_static: false,
        });
        fl.locals.push(v);
        v
    }

    /// Evaluates `e` now into a temporary unless it is a constant.
    fn snapshot(&mut self, fl: &mut FnLower, e: Expr, span: Span) -> Expr {
        if matches!(e.kind, ExprKind::Const(_)) {
            return e;
        }
        let ty = self.type_holding(&e);
        let t = self.temp(fl, ty, span);
        let place = Place {
            var: t,
            index: None,
            span,
        };
        self.emit(
            fl,
            NodeKind::Assign {
                place,
                value: e,
                next: NONE,
            },
            span,
        );
        Expr {
            kind: ExprKind::Var(t),
            span,
        }
    }

    fn place(&mut self, fl: &mut FnLower, e: &ast::Expr) -> Option<Place> {
        match &e.kind {
            AK::Var(id) => {
                let v = self.lookup(fl, id)?;
                if self.vars[v.index()].len.is_some() {
                    self.err(
                        Class::Semantic,
                        id.span,
                        format!("array `{}` used without an index", id.name),
                        "needs `[index]`",
                    );
                    return None;
                }
                Some(Place {
                    var: v,
                    index: None,
                    span: e.span,
                })
            }
            AK::Index(id, idx) => {
                let v = self.lookup(fl, id)?;
                if self.vars[v.index()].len.is_none() {
                    self.err(
                        Class::Semantic,
                        id.span,
                        format!("`{}` is not an array", id.name),
                        "cannot be indexed",
                    );
                    return None;
                }
                let i = self.value(fl, idx);
                // The index is evaluated once, before the right-hand side.
                let i = if matches!(i.kind, ExprKind::Const(_) | ExprKind::Var(_)) {
                    i
                } else {
                    self.snapshot(fl, i, idx.span)
                };
                let site = self.new_site(SiteKind::Bounds, e.span, fl.pid, Some(v));
                let len = self.vars[v.index()].len.unwrap_or(0);
                self.sites[site.index()].static_ok = matches!(i.kind, ExprKind::Const(k) if 0 <= k && k < len as i64);
                Some(Place {
                    var: v,
                    index: Some((Box::new(i), site)),
                    span: e.span,
                })
            }
            _ => {
                self.err(
                    Class::Semantic,
                    e.span,
                    "this cannot be assigned to",
                    "not a variable or array element",
                );
                None
            }
        }
    }

    /// Reading a place: the same bounds site as writing it.
    fn place_expr(&self, p: &Place) -> Expr {
        match &p.index {
            None => Expr {
                kind: ExprKind::Var(p.var),
                span: p.span,
            },
            Some((i, site)) => Expr {
                kind: ExprKind::Elem(p.var, i.clone(), *site),
                span: p.span,
            },
        }
    }

    /// `lhs op= rhs`; returns the place assigned.
    fn assign(
        &mut self,
        fl: &mut FnLower,
        op: AssignOp,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
    ) -> Option<Place> {
        let Some(place) = self.place(fl, lhs) else {
            self.value(fl, rhs);
            return None;
        };
        if op == AssignOp::Set {
            self.assign_value(fl, place.clone(), rhs, span);
            return Some(place);
        }
        let old = self.place_expr(&place);
        let r = self.value(fl, rhs);
        let (tl, tr) = (self.vars[place.var.index()].ty, self.type_of(fl, rhs));
        let (value, ty) = self.typed_arith(fl, assign_binop(op), (old, tl), (r, tr), span);
        self.store(fl, place.clone(), value, ty, span);
        Some(place)
    }

    /// `place = e`, with conditions and nondet assigned directly.
    fn assign_value(&mut self, fl: &mut FnLower, place: Place, e: &ast::Expr, span: Span) {
        if is_boolean(e) {
            let (t, f) = self.cond(fl, e);
            let mut after = Vec::new();
            for (holes, v) in [(t, 1), (f, 0)] {
                fl.open = holes;
                let value = Expr {
                    kind: ExprKind::Const(v),
                    span: e.span,
                };
                self.emit(
                    fl,
                    NodeKind::Assign {
                        place: place.clone(),
                        value,
                        next: NONE,
                    },
                    span,
                );
                after.append(&mut fl.open);
            }
            fl.open = after;
            return;
        }
        let to = self.vars[place.var.index()].ty;
        let (from_lo, from_hi) = self.type_of(fl, e).c_range();
        let (to_lo, to_hi) = to.c_range();
        // A value of a type that `to` holds needs no conversion.
        let holds = to_lo <= from_lo && from_hi <= to_hi && (to != IntType::Bool || from_hi <= 1);
        if let AK::Call(name, args) = &e.kind {
            if let Some(Builtin::Nondet(ty)) = self.builtin_for(name) {
                if holds {
                    self.check_arity(name, args.len(), 0);
                    self.emit(fl, NodeKind::Havoc { place, ty, next: NONE }, span);
                    return;
                }
            } else if self.procs.contains_key(&name.name) && holds {
                self.call(fl, name, args, span, Some(place));
                return;
            }
        }
        let from = self.type_of(fl, e);
        let value = self.value(fl, e);
        self.store(fl, place, value, from, span);
    }

    fn incdec(&mut self, fl: &mut FnLower, place: Place, inc: bool, span: Span) {
        let old = self.place_expr(&place);
        let one = Expr {
            kind: ExprKind::Const(1),
            span,
        };
        let op = if inc { BinOp::Add } else { BinOp::Sub };
        let ty = self.vars[place.var.index()].ty;
        let (value, vt) = self.typed_arith(fl, op, (old, ty), (one, IntType::Int), span);
        self.store(fl, place, value, vt, span);
    }

    fn check_arity(&mut self, name: &ast::Ident, given: usize, wanted: usize) -> bool {
        if given == wanted {
            return true;
        }
        self.err(
            Class::Semantic,
            name.span,
            format!(
                "function `{}` takes {wanted} argument{} but {given} {} given",
                name.name,
                if wanted == 1 { "" } else { "s" },
                if given == 1 { "was" } else { "were" }
            ),
            "wrong number of arguments",
        );
        false
    }

    /// Lowers a call; returns the expression holding its value, if any.
    fn call(
        &mut self,
        fl: &mut FnLower,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
        result: Option<Place>,
    ) -> Option<Expr> {
        if let Some(b) = self.builtin_for(name) {
            return self.builtin_call(fl, b, name, args, span, result);
        }
        let Some(&callee) = self.procs.get(&name.name) else {
            if let Some(lo) = fl.left_out.iter().find(|l| l.name == name.name) {
                // Only reachable from unreachable code (checked up front).
                let _ = lo;
                for a in args {
                    self.value(fl, a);
                }
                self.emit(fl, NodeKind::Halt, span);
                return Some(Expr {
                    kind: ExprKind::Const(0),
                    span,
                });
            }
            if fl.protos.contains_key(&name.name) {
                self.err(
                    Class::Unsupported,
                    name.span,
                    format!("function `{}` is declared but not defined; only Cimple's builtins may be called without a body", name.name),
                    "no definition",
                );
            } else {
                self.err(
                    Class::Semantic,
                    name.span,
                    format!("unknown function `{}`", name.name),
                    "not defined in this file",
                );
            }
            return None;
        };
        let def = self.proc_list[callee.index()];
        let wanted = def.params.iter().filter(|p| !p.pointer).count();
        if def.params.iter().any(|p| p.pointer) {
            self.err(
                Class::Unsupported,
                name.span,
                format!(
                    "`{}` has pointer parameters and can only be an entry function",
                    name.name
                ),
                "pointer parameters",
            );
            return None;
        }
        if !self.check_arity(name, args.len(), wanted) {
            return None;
        }
        let ret = def.ret;
        let param_types: Vec<IntType> = def.params.iter().map(|p| p.ty).collect();
        let mut vals = Vec::new();
        for (i, a) in args.iter().enumerate() {
            let from = self.type_of(fl, a);
            let v = self.value(fl, a);
            let v = self.converted_value(fl, v, from, param_types[i], a.span);
            // Keep left-to-right order when a later argument has effects.
            let later_effects = args[i + 1..].iter().any(has_effects);
            vals.push(if later_effects { self.snapshot(fl, v, a.span) } else { v });
        }
        let (result, value) = match (result, ret) {
            (Some(p), ast::RetType::Int(_)) => {
                let e = self.place_expr(&p);
                (Some(p), Some(e))
            }
            (Some(_), ast::RetType::Void) => {
                self.err(
                    Class::Semantic,
                    name.span,
                    format!("`{}` returns nothing (`void`), its value cannot be used", name.name),
                    "void function",
                );
                (None, None)
            }
            (None, _) => (None, None),
        };
        self.emit(
            fl,
            NodeKind::Call {
                callee,
                args: vals,
                result,
                next: NONE,
            },
            span,
        );
        value
    }

    fn builtin_call(
        &mut self,
        fl: &mut FnLower,
        b: Builtin,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
        result: Option<Place>,
    ) -> Option<Expr> {
        match b {
            Builtin::ReachError => {
                for a in args {
                    self.value(fl, a);
                }
                let site = self.new_site(SiteKind::ReachError, span, fl.pid, None);
                self.emit(fl, NodeKind::Error { site }, span);
                None
            }
            Builtin::Stop => {
                for a in args {
                    self.value(fl, a);
                }
                self.emit(fl, NodeKind::Halt, span);
                None
            }
            Builtin::Assert | Builtin::Assume => {
                if !self.check_arity(name, args.len(), 1) {
                    return None;
                }
                let (t, f) = self.cond(fl, &args[0]);
                fl.open = f;
                if b == Builtin::Assert {
                    let site = self.new_site(SiteKind::Assert, span, fl.pid, None);
                    self.emit(fl, NodeKind::Error { site }, span);
                } else {
                    self.emit(fl, NodeKind::Halt, span);
                }
                fl.open = t;
                None
            }
            Builtin::Nondet(ty) => {
                self.check_arity(name, args.len(), 0);
                let place = match result {
                    Some(p) => p,
                    None => {
                        let t = self.temp(fl, ty, span);
                        Place {
                            var: t,
                            index: None,
                            span,
                        }
                    }
                };
                let e = self.place_expr(&place);
                self.emit(fl, NodeKind::Havoc { place, ty, next: NONE }, span);
                Some(e)
            }
        }
    }

    /// An expression in value context: side effects are emitted as nodes and
    /// the pure rest returned.
    fn value(&mut self, fl: &mut FnLower, e: &ast::Expr) -> Expr {
        let span = e.span;
        let mk = |kind| Expr { kind, span };
        match &e.kind {
            AK::Int(v, _) => mk(ExprKind::Const(*v)),
            AK::Bool(b) => mk(ExprKind::Const(*b as i64)),
            AK::Var(id) => match self.lookup(fl, id) {
                Some(v) if self.vars[v.index()].len.is_some() => {
                    self.err(
                        Class::Semantic,
                        id.span,
                        format!("array `{}` used without an index", id.name),
                        "needs `[index]`",
                    );
                    mk(ExprKind::Const(0))
                }
                Some(v) => mk(ExprKind::Var(v)),
                None => mk(ExprKind::Const(0)),
            },
            AK::Index(..) => match self.place(fl, e) {
                Some(p) => self.place_expr(&p),
                None => mk(ExprKind::Const(0)),
            },
            AK::Unary(UnOp::Neg, x) => {
                let from = self.type_of(fl, x);
                let ty = from.promote();
                let v = self.value(fl, x);
                let v = self.convert_from(v, from, ty);
                let neg = match v.kind {
                    ExprKind::Const(c) if c != i64::MIN => mk(ExprKind::Const(-c)),
                    _ => mk(ExprKind::Neg(Box::new(v))),
                };
                if ty.is_signed() {
                    self.overflow_check(fl, neg, ty)
                } else {
                    self.convert(neg, ty)
                }
            }
            AK::Unary(UnOp::Plus, x) => self.value(fl, x),
            AK::Cast(ty, x) => {
                if *ty == IntType::Bool && !is_boolean(x) {
                    let ne = ast::Expr {
                        kind: AK::Binary(
                            BinOp::Ne,
                            x.clone(),
                            Box::new(ast::Expr {
                                kind: AK::Int(0, IntType::Int),
                                span: x.span,
                            }),
                        ),
                        span: x.span,
                    };
                    self.value(fl, &ne)
                } else {
                    let v = self.value(fl, x);
                    self.convert(v, *ty)
                }
            }
            AK::Binary(op, a, b) if !op.is_relational() && !op.is_logical() => {
                let l = self.value(fl, a);
                let l = if has_effects(b) {
                    self.snapshot(fl, l, a.span)
                } else {
                    l
                };
                let r = self.value(fl, b);
                let (ta, tb) = (self.type_of(fl, a), self.type_of(fl, b));
                self.typed_arith(fl, *op, (l, ta), (r, tb), span).0
            }
            AK::Unary(UnOp::Not, _) | AK::Binary(..) => {
                let t = self.temp(fl, IntType::Int, span);
                let place = Place {
                    var: t,
                    index: None,
                    span,
                };
                self.assign_value(fl, place, e, span);
                mk(ExprKind::Var(t))
            }
            AK::Ternary(c, a, b) => {
                let ty = self.type_of(fl, e);
                let t = self.temp(fl, ty, span);
                let (tt, ff) = self.cond(fl, c);
                let mut after = Vec::new();
                for (holes, x) in [(tt, a), (ff, b)] {
                    fl.open = holes;
                    let place = Place {
                        var: t,
                        index: None,
                        span,
                    };
                    self.assign_value(fl, place, x, x.span);
                    after.append(&mut fl.open);
                }
                fl.open = after;
                mk(ExprKind::Var(t))
            }
            AK::Assign(op, lhs, rhs) => match self.assign(fl, *op, lhs, rhs, span) {
                Some(p) => self.place_expr(&p),
                None => mk(ExprKind::Const(0)),
            },
            AK::IncDec { target, inc, prefix } => {
                let Some(place) = self.place(fl, target) else {
                    return mk(ExprKind::Const(0));
                };
                let before = self.place_expr(&place);
                let old = if *prefix {
                    None
                } else {
                    Some(self.snapshot(fl, before, span))
                };
                self.incdec(fl, place.clone(), *inc, span);
                match old {
                    Some(o) => o,
                    None => self.place_expr(&place),
                }
            }
            AK::Call(name, args) => {
                if let Some(b) = self.builtin_for(name) {
                    if let Builtin::Nondet(_) = b {
                        return self
                            .builtin_call(fl, b, name, args, span, None)
                            .unwrap_or(mk(ExprKind::Const(0)));
                    }
                    self.err(
                        Class::Semantic,
                        name.span,
                        format!("`{}` has no value", name.name),
                        "used as a value",
                    );
                    return mk(ExprKind::Const(0));
                }
                let ty = match self.procs.get(&name.name) {
                    Some(p) => match self.proc_list[p.index()].ret {
                        ast::RetType::Int(t) => t,
                        ast::RetType::Void => {
                            self.err(
                                Class::Semantic,
                                name.span,
                                format!("`{}` returns nothing (`void`), its value cannot be used", name.name),
                                "void function",
                            );
                            return mk(ExprKind::Const(0));
                        }
                    },
                    None => IntType::Int,
                };
                let t = self.temp(fl, ty, span);
                let place = Place {
                    var: t,
                    index: None,
                    span,
                };
                self.call(fl, name, args, span, Some(place))
                    .unwrap_or(mk(ExprKind::Const(0)))
            }
            AK::Comma(list) => {
                for x in &list[..list.len() - 1] {
                    self.effect(fl, x);
                }
                self.value(fl, &list[list.len() - 1])
            }
        }
    }

    fn arith(&mut self, fl: &mut FnLower, op: BinOp, l: Expr, r: Expr, span: Span) -> Expr {
        let mk = |kind| Expr { kind, span };
        if let (ExprKind::Const(a), ExprKind::Const(b)) = (&l.kind, &r.kind) {
            let folded = match op {
                BinOp::Add => a.checked_add(*b),
                BinOp::Sub => a.checked_sub(*b),
                BinOp::Mul => a.checked_mul(*b),
                BinOp::Div if *b != 0 => a.checked_div(*b),
                BinOp::Mod if *b != 0 => a.checked_rem(*b),
                _ => None,
            };
            if let Some(v) = folded {
                return mk(ExprKind::Const(v));
            }
        }
        match op {
            BinOp::Add => mk(ExprKind::Arith(ArithOp::Add, Box::new(l), Box::new(r))),
            BinOp::Sub => mk(ExprKind::Arith(ArithOp::Sub, Box::new(l), Box::new(r))),
            BinOp::Mul => mk(ExprKind::Arith(ArithOp::Mul, Box::new(l), Box::new(r))),
            BinOp::Div | BinOp::Mod => {
                let site = self.new_site(SiteKind::DivByZero, span, fl.pid, None);
                self.sites[site.index()].static_ok = matches!(r.kind, ExprKind::Const(k) if k != 0);
                mk(ExprKind::Div {
                    num: Box::new(l),
                    den: Box::new(r),
                    rem: op == BinOp::Mod,
                    site,
                })
            }
            _ => unreachable!("only arithmetic operators reach `arith`"),
        }
    }

    /// A condition: emits branch nodes, returns the true and false holes.
    fn cond(&mut self, fl: &mut FnLower, e: &ast::Expr) -> (Vec<Hole>, Vec<Hole>) {
        match &e.kind {
            AK::Binary(BinOp::And, a, b) => {
                let (at, af) = self.cond(fl, a);
                fl.open = at;
                let (bt, mut bf) = self.cond(fl, b);
                bf.extend(af);
                (bt, bf)
            }
            AK::Binary(BinOp::Or, a, b) => {
                let (at, af) = self.cond(fl, a);
                fl.open = af;
                let (mut bt, bf) = self.cond(fl, b);
                bt.extend(at);
                (bt, bf)
            }
            AK::Unary(UnOp::Not, x) => {
                let (t, f) = self.cond(fl, x);
                (f, t)
            }
            AK::Ternary(c, a, b) => {
                let (ct, cf) = self.cond(fl, c);
                fl.open = ct;
                let (mut at, mut af) = self.cond(fl, a);
                fl.open = cf;
                let (bt, bf) = self.cond(fl, b);
                at.extend(bt);
                af.extend(bf);
                (at, af)
            }
            AK::Comma(list) => {
                for x in &list[..list.len() - 1] {
                    self.effect(fl, x);
                }
                self.cond(fl, &list[list.len() - 1])
            }
            AK::Binary(op, a, b) if op.is_relational() => {
                let l = self.value(fl, a);
                let l = if has_effects(b) {
                    self.snapshot(fl, l, a.span)
                } else {
                    l
                };
                let r = self.value(fl, b);
                let (ta, tb) = (self.type_of(fl, a), self.type_of(fl, b));
                let ty = IntType::common(ta, tb);
                let (l, r) = (self.convert_from(l, ta, ty), self.convert_from(r, tb, ty));
                let op = match op {
                    BinOp::Eq => RelOp::Eq,
                    BinOp::Ne => RelOp::Ne,
                    BinOp::Lt => RelOp::Lt,
                    BinOp::Le => RelOp::Le,
                    BinOp::Gt => RelOp::Gt,
                    _ => RelOp::Ge,
                };
                let span = self.strip_parens(e.span);
                self.emit_branch(fl, Cond::Atom(Atom { lhs: l, op, rhs: r }), span)
            }
            _ => {
                let v = self.value(fl, e);
                if let ExprKind::Const(c) = v.kind {
                    // A constant condition (`while (1)`) is no branch.
                    let open = std::mem::take(&mut fl.open);
                    return if c != 0 { (open, vec![]) } else { (vec![], open) };
                }
                let span = self.strip_parens(e.span);
                let zero = Expr {
                    kind: ExprKind::Const(0),
                    span,
                };
                self.emit_branch(
                    fl,
                    Cond::Atom(Atom {
                        lhs: v,
                        op: RelOp::Ne,
                        rhs: zero,
                    }),
                    span,
                )
            }
        }
    }
}

fn assign_binop(op: AssignOp) -> BinOp {
    match op {
        AssignOp::Set | AssignOp::Add => BinOp::Add,
        AssignOp::Sub => BinOp::Sub,
        AssignOp::Mul => BinOp::Mul,
        AssignOp::Div => BinOp::Div,
        AssignOp::Mod => BinOp::Mod,
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

/// Does evaluating the expression have side effects (calls, assignments)?
fn has_effects(e: &ast::Expr) -> bool {
    let mut found = false;
    expr_walk(e, &mut |x| {
        if matches!(x.kind, AK::Call(..) | AK::Assign(..) | AK::IncDec { .. }) {
            found = true;
        }
    });
    found
}

/// Does evaluating the IR expression check something (bounds, division)?
fn has_checks(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Var(_) => false,
        ExprKind::Elem(..) | ExprKind::Div { .. } | ExprKind::Checked { .. } => true,
        ExprKind::Neg(x) | ExprKind::Conv(_, x) => has_checks(x),
        ExprKind::Arith(_, a, b) => has_checks(a) || has_checks(b),
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
    /// (value, target node, span); `None` for `default`.
    values: Vec<(Option<i64>, NodeId, Span)>,
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
