//! Differential test of the concrete interpreter against gcc.
//!
//! Every SV-COMP task of the shared corpus that `focuscheck::load` accepts
//! (6 runs each), and 150 generated programs (`support/gen.rs`, 4 runs
//! each), are run by the interpreter and, compiled by gcc, as C programs on
//! the same inputs and choices. The outcome kind must agree (finished,
//! halted, failed assertion, `reach_error()`, index out of bounds, division
//! by zero), an error must be on the same line, finished or halted runs must
//! end with the same global values, and both must consume the same number
//! of choices. Run with `--nocapture` for a summary; set
//! `FOCUSCHECK_GEN_PROGRAMS=N` (and `FOCUSCHECK_GEN_FIRST=S`) to hunt with
//! more seeds.
//!
//! The C version is the original text with a few patches (made with spans
//! from the AST, in a temporary directory):
//! - a prelude renames `reach_error`/`__VERIFIER_error`/`abort`/`exit` to
//!   harness functions that print a marker and stop (their definitions in the
//!   file are renamed out of the way: Cimple treats every call of them as the
//!   builtin), and a runtime linked in defines `__VERIFIER_nondet_X()`,
//!   `__VERIFIER_assert` and friends as weak symbols (a definition in the
//!   file wins, as it does in Cimple);
//! - inputs (uninitialised globals in `--globals input` mode, parameters and
//!   uninitialised locals of `main`) read the input file; uninitialised
//!   locals of other procedures and falling off the end of an `int`
//!   procedure draw the next choice, as Cimple does;
//! - an epilogue prints every global when the run ends;
//! - arrays become `volatile`, or gcc folds away reads whose value cannot
//!   matter (`a[9] * 0`, `a[9] > 1 || 1`) together with their bounds checks.
//!
//! gcc's UndefinedBehaviorSanitizer reports an index out of bounds and a
//! division by zero; a signed overflow (undefined in C, mathematical in
//! Cimple) skips the run, and so does a signed value stored outside its C
//! type (which only such an overflow makes). Unsigned arithmetic and
//! conversions wrap as in C and must agree (docs/cimple.md).

#[path = "support/gen.rs"]
mod gen;

use focuscheck::interp::{self, Config, Outcome, Run, RunError};
use focuscheck::ir::lower::LowerOptions;
use focuscheck::ir::{GlobalsMode, NodeKind, Program, SiteKind, VarKind};
use focuscheck::syntax::ast;
use focuscheck::syntax::source::SourceFile;
use gen::Rng;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The shared SV-COMP corpus, `../shared` beside the project (override with `FOCUSCHECK_SVCOMP`).
const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/", "../shared/corpus/svcomp");
const GENERATED: u64 = 150;
const RUNS_PER_GENERATED: usize = 4;
const RUNS_PER_TASK: usize = 6;
const MAX_STEPS: u64 = 3_000_000;
/// Deeper recursion could overflow the C stack.
const MAX_DEPTH: u32 = 20_000;
const C_TIMEOUT: Duration = Duration::from_secs(10);
const SANITIZE: &str = "-fsanitize=bounds,integer-divide-by-zero,signed-integer-overflow,shift";

// ---------------------------------------------------------------------------
// gcc and the C runtime
// ---------------------------------------------------------------------------

/// Reads inputs and choices from the files named by `FC_INPUTS` and
/// `FC_CHOICES`; prints `G value` per global, `USED n` (choices consumed)
/// and `OUTCOME kind`.
const RUNTIME_C: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long long *fc_in, *fc_ch;
static long fc_nin, fc_nch, fc_pos;

static long long *fc_load(const char *var, long *n) {
    long cap = 64;
    long long *a = malloc(cap * sizeof *a), v;
    const char *path = getenv(var);
    *n = 0;
    if (!path) return a;
    FILE *f = fopen(path, "r");
    if (!f) { printf("OUTCOME HARNESS cannot open %s\n", path); fflush(stdout); _exit(90); }
    while (fscanf(f, "%lld", &v) == 1) {
        if (*n == cap) { cap *= 2; a = realloc(a, cap * sizeof *a); }
        a[(*n)++] = v;
    }
    fclose(f);
    return a;
}

extern void __fc_dump_globals(void);

static void fc_end(const char *what, int code) {
    printf("USED %ld\nOUTCOME %s\n", fc_pos, what);
    fflush(stdout);
    _exit(code);
}

static void fc_finish(void) {
    __fc_dump_globals();
    printf("USED %ld\nOUTCOME FINISHED\n", fc_pos);
    fflush(stdout);
}

__attribute__((constructor)) static void fc_init(void) {
    fc_in = fc_load("FC_INPUTS", &fc_nin);
    fc_ch = fc_load("FC_CHOICES", &fc_nch);
    atexit(fc_finish);
}

long long __fc_input(int k) {
    if (k < 0 || k >= fc_nin) fc_end("HARNESS missing input", 91);
    return fc_in[k];
}

long long __fc_next(void) {
    if (fc_pos >= fc_nch) fc_end("OUT_OF_CHOICES", 75);
    return fc_ch[fc_pos++];
}

void __fc_put(long long v) { printf("G %lld\n", v); }
void __fc_reach_error(void) { fc_end("REACH_ERROR", 71); }
void __fc_abort(void) { __fc_dump_globals(); fc_end("HALTED", 73); }
void __fc_exit(int code) { (void)code; __fc_abort(); }

#define WEAK __attribute__((weak))
WEAK void __VERIFIER_assert(int c) { if (!c) fc_end("ASSERT", 72); }
WEAK void assert(int c) { if (!c) fc_end("ASSERT", 72); }
WEAK void __VERIFIER_assume(int c) { if (!c) __fc_abort(); }
WEAK void assume_abort_if_not(int c) { if (!c) __fc_abort(); }
WEAK void assume(int c) { if (!c) __fc_abort(); }
WEAK void __VERIFIER_abort(void) { __fc_abort(); }
WEAK int nondet(void) { return __fc_next(); }
WEAK int __VERIFIER_nondet_int(void) { return __fc_next(); }
WEAK long __VERIFIER_nondet_long(void) { return __fc_next(); }
WEAK int __VERIFIER_nondet_i(void) { return __fc_next(); }
WEAK unsigned int __VERIFIER_nondet_uint(void) { return __fc_next(); }
WEAK unsigned int __VERIFIER_nondet_unsigned(void) { return __fc_next(); }
WEAK unsigned int __VERIFIER_nondet_unsigned_int(void) { return __fc_next(); }
WEAK unsigned int __VERIFIER_nondet_u32(void) { return __fc_next(); }
WEAK unsigned long __VERIFIER_nondet_ulong(void) { return __fc_next(); }
WEAK unsigned long __VERIFIER_nondet_unsigned_long(void) { return __fc_next(); }
WEAK _Bool __VERIFIER_nondet_bool(void) { return __fc_next(); }
WEAK _Bool __VERIFIER_nondet__Bool(void) { return __fc_next(); }
WEAK char __VERIFIER_nondet_char(void) { return __fc_next(); }
WEAK unsigned char __VERIFIER_nondet_uchar(void) { return __fc_next(); }
WEAK unsigned char __VERIFIER_nondet_unsigned_char(void) { return __fc_next(); }
WEAK short __VERIFIER_nondet_short(void) { return __fc_next(); }
WEAK unsigned short __VERIFIER_nondet_ushort(void) { return __fc_next(); }
WEAK unsigned short __VERIFIER_nondet_unsigned_short(void) { return __fc_next(); }
WEAK long long __VERIFIER_nondet_longlong(void) { return __fc_next(); }
WEAK long long __VERIFIER_nondet_long_long(void) { return __fc_next(); }
WEAK unsigned long long __VERIFIER_nondet_ulonglong(void) { return __fc_next(); }
WEAK unsigned long long __VERIFIER_nondet_unsigned_long_long(void) { return __fc_next(); }
"#;

/// Put before the program text; `#line` keeps the original line numbers in
/// sanitizer reports.
const PRELUDE: &str = "void __fc_reach_error(void);
void __fc_abort(void);
void __fc_exit(int);
long long __fc_input(int);
long long __fc_next(void);
void __fc_put(long long);
#define reach_error __fc_reach_error
#define __VERIFIER_error __fc_reach_error
#define abort __fc_abort
#define exit __fc_exit
";

/// A working directory with the compiled runtime.
struct Gcc {
    dir: tempfile::TempDir,
    runtime: PathBuf,
}

impl Gcc {
    /// Checks that gcc and its sanitizer work; panics with a clear message
    /// if not.
    fn new() -> Gcc {
        match Command::new("gcc").arg("--version").output() {
            Ok(o) if o.status.success() => {}
            Ok(o) => panic!(
                "`gcc --version` failed: this differential test needs gcc on PATH\n{}",
                String::from_utf8_lossy(&o.stderr)
            ),
            Err(e) => {
                panic!("gcc not found ({e}): the differential test against C (tests/gcc_diff.rs) needs gcc on PATH")
            }
        }
        let dir = tempfile::tempdir().expect("a temporary directory");
        let runtime_c = dir.path().join("fc_runtime.c");
        std::fs::write(&runtime_c, RUNTIME_C).expect("write the runtime");
        let runtime = dir.path().join("fc_runtime.o");
        let out = Command::new("gcc")
            .args(["-std=gnu11", "-O1", "-w", "-c", "-o"])
            .arg(&runtime)
            .arg(&runtime_c)
            .output()
            .expect("run gcc");
        assert!(
            out.status.success(),
            "gcc cannot compile the test runtime:\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let gcc = Gcc { dir, runtime };
        // The sanitizer must report a division by zero and an index out of
        // bounds, else nothing below means anything.
        let probe = "int a[3];\nint main(void) { int z = __fc_next(); int i = __fc_next();\n\
                     if (i) return a[z + 3];\n return 7 / z; }\nvoid __fc_dump_globals(void) {}\n";
        let exe = gcc
            .compile(
                "probe",
                &format!("long long __fc_next(void);\n#line 1 \"probe.c\"\n{probe}"),
            )
            .unwrap_or_else(|e| panic!("gcc cannot build a sanitized program (is libubsan installed?):\n{e}"));
        let div = run_c(&gcc, &exe, &[], &[0, 0]);
        let oob = run_c(&gcc, &exe, &[], &[0, 1]);
        assert!(
            div.end == CEnd::Kind(Kind::DivByZero) && oob.end == CEnd::Kind(Kind::Bounds),
            "gcc's sanitizer ({SANITIZE}) does not report as expected:\n{div:?}\n{oob:?}"
        );
        gcc
    }

    fn compile(&self, name: &str, c_text: &str) -> Result<PathBuf, String> {
        let src = self.dir.path().join(format!("{name}.c"));
        let exe = self.dir.path().join(name);
        std::fs::write(&src, c_text).expect("write a C file");
        let out = Command::new("gcc")
            .args(["-std=gnu11", "-O0", "-w", SANITIZE, "-fno-sanitize-recover=all", "-o"])
            .arg(&exe)
            .arg(&src)
            .arg(&self.runtime)
            .output()
            .expect("run gcc");
        if out.status.success() {
            Ok(exe)
        } else {
            Err(String::from_utf8_lossy(&out.stderr).into_owned())
        }
    }
}

// ---------------------------------------------------------------------------
// Outcomes
// ---------------------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Finished,
    Halted,
    Assert,
    ReachError,
    Bounds,
    DivByZero,
    /// A shift by a negative amount or by the promoted width or more.
    Shift,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum CEnd {
    Kind(Kind),
    /// A signed 32-bit overflow: C and Cimple part ways, the run is skipped.
    Overflow,
    OutOfChoices,
    /// Anything else: a crash, a timeout, a harness problem.
    Other(String),
}

#[derive(Clone, Debug)]
struct CRun {
    end: CEnd,
    globals: Vec<i64>,
    /// Choices consumed (not known after a sanitizer report).
    used: Option<usize>,
    /// The line of a sanitizer report.
    line: Option<u32>,
    stdout: String,
    stderr: String,
}

fn run_c(gcc: &Gcc, exe: &Path, inputs: &[i64], choices: &[i64]) -> CRun {
    let dir = gcc.dir.path();
    let join = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join("\n");
    let (inp, chs) = (dir.join("inputs.txt"), dir.join("choices.txt"));
    let (out_path, err_path) = (dir.join("stdout.txt"), dir.join("stderr.txt"));
    std::fs::write(&inp, join(inputs)).expect("write inputs");
    std::fs::write(&chs, join(choices)).expect("write choices");
    let mut child = Command::new(exe)
        .env("FC_INPUTS", &inp)
        .env("FC_CHOICES", &chs)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out_path).expect("stdout file"))
        .stderr(std::fs::File::create(&err_path).expect("stderr file"))
        .spawn()
        .expect("run a compiled program");
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait for a program") {
            break Some(s);
        }
        if start.elapsed() > C_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    let stdout = std::fs::read_to_string(&out_path).unwrap_or_default();
    let stderr = std::fs::read_to_string(&err_path).unwrap_or_default();
    let mut run = CRun {
        end: CEnd::Other(String::new()),
        globals: Vec::new(),
        used: None,
        line: None,
        stdout,
        stderr,
    };
    if let Some(report) = run.stderr.lines().find(|l| l.contains("runtime error:")) {
        // `file:line:col: runtime error: message`
        run.line = report.split(':').nth(1).and_then(|l| l.parse().ok());
        let msg = report.split("runtime error:").nth(1).unwrap_or("");
        run.end = if msg.contains("out of bounds") {
            CEnd::Kind(Kind::Bounds)
        } else if msg.contains("division by zero") {
            CEnd::Kind(Kind::DivByZero)
        } else if msg.contains("shift exponent") {
            CEnd::Kind(Kind::Shift)
        } else if msg.contains("overflow")
            || msg.contains("cannot be represented")
            || msg.contains("left shift of negative value")
        {
            // A signed `<<` that overflows: gcc's result is the bits
            // shifted, Cimple's too (docs/cimple.md), but C says undefined.
            CEnd::Overflow
        } else {
            CEnd::Other(format!("sanitizer: {msg}"))
        };
        return run;
    }
    let mut outcome = None;
    for l in run.stdout.lines() {
        if let Some(v) = l.strip_prefix("G ") {
            run.globals.push(v.trim().parse().expect("a global value"));
        } else if let Some(n) = l.strip_prefix("USED ") {
            run.used = n.trim().parse().ok();
        } else if let Some(o) = l.strip_prefix("OUTCOME ") {
            outcome = Some(o.trim().to_string());
        }
    }
    run.end = match outcome.as_deref() {
        Some("FINISHED") => CEnd::Kind(Kind::Finished),
        Some("HALTED") => CEnd::Kind(Kind::Halted),
        Some("ASSERT") => CEnd::Kind(Kind::Assert),
        Some("REACH_ERROR") => CEnd::Kind(Kind::ReachError),
        Some("OUT_OF_CHOICES") => CEnd::OutOfChoices,
        Some(o) => CEnd::Other(o.to_string()),
        None if status.is_none() => CEnd::Other(format!("timeout after {C_TIMEOUT:?}")),
        None => CEnd::Other(format!("no outcome; exit status {status:?}")),
    };
    run
}

// ---------------------------------------------------------------------------
// The C version of a program
// ---------------------------------------------------------------------------

/// Names Cimple treats as builtins even when the file defines them.
fn builtin_always(name: &str) -> bool {
    matches!(name, "reach_error" | "__VERIFIER_error" | "abort" | "exit")
}

struct CProgram {
    text: String,
    /// The global storage slots `__fc_dump_globals` prints, in order.
    printed: Vec<usize>,
}

/// A local declaration.
struct Local<'a> {
    decl: &'a ast::VarDecl,
    /// The end of its declaration statement (`None` in a `for` header).
    stmt_end: Option<usize>,
}

/// The local declarations in a block (in source order once sorted by
/// position).
fn local_decls<'a>(stmts: &'a [ast::Stmt], out: &mut Vec<Local<'a>>) {
    for s in stmts {
        local_decls_stmt(s, true, out);
    }
}

fn local_decls_stmt<'a>(s: &'a ast::Stmt, is_stmt: bool, out: &mut Vec<Local<'a>>) {
    use ast::StmtKind as S;
    match &s.kind {
        S::Decl(ds) => out.extend(ds.iter().map(|decl| Local {
            decl,
            stmt_end: is_stmt.then_some(s.span.hi as usize),
        })),
        S::If(_, t, e) => {
            local_decls_stmt(t, true, out);
            if let Some(e) = e {
                local_decls_stmt(e, true, out);
            }
        }
        S::While(_, b) | S::DoWhile(b, _) => local_decls_stmt(b, true, out),
        S::For(init, _, _, b) => {
            if let Some(i) = init {
                local_decls_stmt(i, false, out);
            }
            local_decls_stmt(b, true, out);
        }
        S::Switch(_, b) | S::Case(_, b) | S::Default(b) | S::Labeled(_, b) => local_decls_stmt(b, true, out),
        S::Block(b) => local_decls(&b.stmts, out),
        _ => {}
    }
}

/// Builds the C version; `Err` says why the program cannot be compared.
fn c_version(p: &Program) -> Result<CProgram, String> {
    let text = &p.source.text;
    let mut diags = Vec::new();
    let parsed = focuscheck::syntax::parse_source(&p.source, &mut diags);
    let slots = p.input_slots();
    let layout = p.layout();
    // (position, length replaced, new text)
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let entry_name = &p.proc(p.entry).name;
    // Arrays become `volatile` in C: gcc would otherwise fold away reads whose
    // value does not matter (`a[9] * 0`, `a[9] > 1 || 1`) with their bounds
    // checks, while Cimple checks every access it evaluates.
    let mut volatile_arrays: Vec<&ast::VarDecl> = Vec::new();
    for item in &parsed.ast.items {
        if let ast::Item::Globals(ds) = item {
            volatile_arrays.extend(ds);
        }
        let (name, span) = match item {
            ast::Item::Function(f) => (&f.name.name, f.name.span),
            ast::Item::Skipped(s) => (&s.name.name, s.name.span),
            _ => continue,
        };
        if builtin_always(name) {
            edits.push((span.lo as usize, name.len(), format!("__fc_dead_{name}")));
            continue;
        }
        let ast::Item::Function(f) = item else { continue };
        if p.proc_by_name(name).is_none() {
            continue; // left out: never runs
        }
        let mut locals = Vec::new();
        local_decls(&f.body.stmts, &mut locals);
        locals.sort_by_key(|u| u.decl.name.span.lo);
        volatile_arrays.extend(locals.iter().map(|l| l.decl));
        let decls: Vec<Local> = locals
            .into_iter()
            .filter(|l| l.decl.init.is_none() && !l.decl.is_static)
            .collect();
        if name == entry_name {
            entry_edits(p, f, &decls, &slots, &mut edits)?;
        } else {
            for Local { decl: d, .. } in decls {
                if d.array.is_some() {
                    return Err(format!(
                        "uninitialised local array `{}` in `{name}`: C does not order the draws of its elements",
                        d.name.name
                    ));
                }
                edits.push((d.span.hi as usize, 0, " = __fc_next()".into()));
            }
            if f.ret != ast::RetType::Void {
                let close = f.body.span.hi as usize - 1;
                assert_eq!(&text[close..close + 1], "}", "a body ends with `}}`");
                edits.push((close, 0, " return __fc_next(); ".into()));
            }
        }
    }
    let mut starts: Vec<usize> = volatile_arrays
        .iter()
        .filter(|d| d.array.is_some())
        .map(|d| d.span.lo as usize)
        .collect();
    starts.dedup();
    edits.extend(starts.into_iter().map(|at| (at, 0, "volatile ".to_string())));
    // Later edits first; at one position, the last pushed goes in first.
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut body = text.clone();
    for (at, len, new) in edits {
        body.replace_range(at..at + len, &new);
    }
    let mut out = String::from(PRELUDE);
    let _ = writeln!(out, "#line 1 \"prog.c\"");
    out.push_str(&body);
    out.push_str("\nvoid __fc_dump_globals(void) {\n");
    let mut printed = Vec::new();
    for &g in &p.globals {
        let var = p.var(g);
        if var.kind != VarKind::Global {
            continue; // a static local: not visible here
        }
        let off = layout.offset[g.index()] as usize;
        match var.len {
            None => {
                let _ = writeln!(out, "    __fc_put({});", var.name);
                printed.push(off);
            }
            Some(n) => {
                for k in 0..n as usize {
                    let _ = writeln!(out, "    __fc_put({}[{k}]);", var.name);
                    printed.push(off + k);
                }
            }
        }
    }
    out.push_str("}\n");
    Ok(CProgram { text: out, printed })
}

/// Inputs of the entry: globals and parameters are set at the start of its
/// body, uninitialised locals get an initialiser.
fn entry_edits(
    p: &Program,
    f: &ast::Function,
    decls: &[Local],
    slots: &[focuscheck::ir::InputSlot],
    edits: &mut Vec<(usize, usize, String)>,
) -> Result<(), String> {
    // At the start of the body only the parameters can hide a global.
    let entry = p.proc(p.entry);
    let local_names: Vec<&str> = entry.params.iter().map(|&l| p.var(l).name.as_str()).collect();
    let mut at_start = String::new();
    let mut local_slots: Vec<(focuscheck::ir::VarId, Vec<usize>)> = Vec::new();
    for (k, s) in slots.iter().enumerate() {
        let var = p.var(s.var);
        match var.kind {
            VarKind::Global => {
                if local_names.contains(&var.name.as_str()) {
                    return Err(format!("global input `{}` is hidden in the entry", var.name));
                }
                match s.index {
                    Some(i) => {
                        let _ = write!(at_start, " {}[{i}] = __fc_input({k});", var.name);
                    }
                    None => {
                        let _ = write!(at_start, " {} = __fc_input({k});", var.name);
                    }
                }
            }
            VarKind::Param => {
                let _ = write!(at_start, " {} = __fc_input({k});", var.name);
            }
            _ => match local_slots.last_mut() {
                Some((v, ks)) if *v == s.var => ks.push(k),
                _ => local_slots.push((s.var, vec![k])),
            },
        }
    }
    edits.push((f.body.span.lo as usize + 1, 0, at_start));
    if local_slots.len() != decls.len() {
        return Err(format!(
            "{} uninitialised locals in the entry but {} input locals",
            decls.len(),
            local_slots.len()
        ));
    }
    for ((v, ks), u) in local_slots.iter().zip(decls) {
        let d = u.decl;
        if p.var(*v).name != d.name.name {
            return Err(format!(
                "input `{}` does not match declaration `{}`",
                p.var(*v).name,
                d.name.name
            ));
        }
        if d.array.is_none() {
            edits.push((d.span.hi as usize, 0, format!(" = __fc_input({})", ks[0])));
            continue;
        }
        // An array is filled right after its declaration statement.
        let Some(end) = u.stmt_end else {
            return Err(format!("uninitialised array `{}` in a `for` header", d.name.name));
        };
        let fill = format!(
            " {{ int __fc_k; for (__fc_k = 0; __fc_k < {}; __fc_k++) {}[__fc_k] = __fc_input({} + __fc_k); }}",
            ks.len(),
            d.name.name,
            ks[0]
        );
        edits.push((end, 0, fill));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Comparing runs
// ---------------------------------------------------------------------------

/// Why a run was not compared, or the disagreement found.
#[derive(Debug)]
enum Verdict {
    /// The kind of outcome, and the largest magnitude of a value written.
    Agree(Kind, i64),
    Skip(String),
    Disagree(String),
}

/// A value stored outside its variable's type: only a signed overflow
/// (undefined in C) can make one, since every conversion wraps.
fn stored_outside_type(p: &Program, run: &Run) -> Option<String> {
    for step in &run.trace {
        let Some(v) = step.value else { continue };
        let node = p.node(step.node);
        let var = match &node.kind {
            NodeKind::Assign { place, .. } | NodeKind::Havoc { place, .. } => place.var,
            NodeKind::Return { .. } => match p.proc(node.proc).ret_var {
                Some(r) => r,
                None => continue,
            },
            _ => continue,
        };
        let var = p.var(var);
        if var.kind == VarKind::Temp {
            continue;
        }
        let (lo, hi) = var.ty.range();
        if v < lo || v > hi {
            return Some(format!(
                "stores {v} in `{}` of type {} (after a signed overflow, undefined in C)",
                var.name,
                var.ty.c_name()
            ));
        }
    }
    None
}

fn interp_kind(p: &Program, o: &Outcome) -> Result<Kind, String> {
    match o {
        Outcome::Finished => Ok(Kind::Finished),
        Outcome::Halted { .. } => Ok(Kind::Halted),
        Outcome::Error { site, .. } => Ok(match p.site(*site).kind {
            SiteKind::Assert => Kind::Assert,
            SiteKind::ReachError => Kind::ReachError,
            SiteKind::Bounds => Kind::Bounds,
            SiteKind::DivByZero => Kind::DivByZero,
            SiteKind::Shift => Kind::Shift,
            // Programs are lowered without overflow checks here.
            SiteKind::Overflow => return Err("an overflow check (not asked for)".into()),
            // Pointers and the heap are tested by `tests/mem_gcc.rs`.
            SiteKind::Deref => return Err("an invalid pointer access".into()),
            SiteKind::Limit => return Err("an allocation beyond the heap model".into()),
        }),
        Outcome::Overflow { .. } => Err("interpreter: a value left the 64-bit range".into()),
        Outcome::StepLimit => Err(format!("interpreter: step limit ({MAX_STEPS}) reached")),
        Outcome::Condition { .. } => Err("a user condition (none was given)".into()),
    }
}

fn show_list(v: &[i64]) -> String {
    const MAX: usize = 400;
    let shown: Vec<String> = v.iter().take(MAX).map(i64::to_string).collect();
    if v.len() > MAX {
        format!("[{}, ... ({} in all)]", shown.join(", "), v.len())
    } else {
        format!("[{}]", shown.join(", "))
    }
}

/// Runs one configuration through the interpreter and through the C binary.
fn compare_run(gcc: &Gcc, p: &Program, c: &CProgram, exe: &Path, cfg: &Config) -> Verdict {
    let run = match run_fitting(p, cfg) {
        Ok(r) => r,
        Err(e) => return Verdict::Disagree(format!("the interpreter refused the run: {e:?}")),
    };
    let kind = match interp_kind(p, &run.outcome) {
        Ok(k) => k,
        Err(why) => return Verdict::Skip(why),
    };
    if let Some(why) = stored_outside_type(p, &run) {
        return Verdict::Skip(why);
    }
    if run.trace.iter().any(|s| s.depth > MAX_DEPTH) {
        return Verdict::Skip(format!("recursion deeper than {MAX_DEPTH} calls (C stack)"));
    }
    // Replaying the recorded inputs and choices must give the same run.
    // (Only for few inputs: the interpreter checks given input names in
    // quadratic time.)
    let mut names = std::collections::HashSet::new();
    let unique = run.inputs.iter().all(|(n, _)| names.insert(n));
    if unique && run.inputs.len() <= 2000 {
        let replay_cfg = Config {
            inputs: run.inputs.iter().cloned().collect(),
            choices: run.choices.clone(),
            seed: None,
            max_steps: MAX_STEPS,
            ..Config::default()
        };
        match interp::run(p, &replay_cfg) {
            Ok(r) if r.outcome == run.outcome && r.globals == run.globals => {}
            other => {
                return Verdict::Disagree(format!(
                    "replaying the recorded inputs and choices differs: first {:?}, replay {:?}",
                    run.outcome,
                    other.map(|r| r.outcome)
                ))
            }
        }
    }
    let inputs: Vec<i64> = run.inputs.iter().map(|(_, v)| *v).collect();
    let crun = run_c(gcc, exe, &inputs, &run.choices);
    if crun.end == CEnd::Overflow {
        return Verdict::Skip("C: signed 32-bit overflow (Cimple integers are unbounded)".into());
    }
    let globals: Vec<i64> = c.printed.iter().map(|&s| run.globals[s]).collect();
    let mut problems = Vec::new();
    if crun.end != CEnd::Kind(kind) {
        problems.push(format!("outcome: interpreter {kind:?}, C {:?}", crun.end));
    } else {
        if matches!(kind, Kind::Finished | Kind::Halted) && crun.globals != globals {
            problems.push(format!(
                "globals: interpreter {}, C {}",
                show_list(&globals),
                show_list(&crun.globals)
            ));
        }
        if matches!(kind, Kind::Finished | Kind::Halted | Kind::Assert | Kind::ReachError)
            && crun.used != Some(run.choices.len())
        {
            problems.push(format!(
                "choices consumed: interpreter {}, C {:?}",
                run.choices.len(),
                crun.used
            ));
        }
        if let (Outcome::Error { site, .. }, Some(line)) = (&run.outcome, crun.line) {
            let span = p.site(*site).span;
            let first = p.source.line_of(span);
            let last = first + p.text(span).matches('\n').count() as u32;
            if line < first || line > last {
                problems.push(format!(
                    "error place: interpreter {} (lines {first}-{last}), C line {line}",
                    p.location(span)
                ));
            }
        }
    }
    if problems.is_empty() {
        let largest = run
            .trace
            .iter()
            .filter_map(|s| s.value)
            .map(i64::abs)
            .max()
            .unwrap_or(0);
        return Verdict::Agree(kind, largest);
    }
    let site = match &run.outcome {
        Outcome::Error { site, .. } => format!(" at {}", p.location(p.site(*site).span)),
        _ => String::new(),
    };
    Verdict::Disagree(format!(
        "{}\ninputs: {:?}\nchoices: {}\ninterpreter: {:?}{site}, globals {}\nC: {:?}, globals {}, used {:?}\nC stdout (tail): {}\nC stderr: {}",
        problems.join("\n"),
        run.inputs,
        show_list(&run.choices),
        run.outcome,
        show_list(&globals),
        crun.end,
        show_list(&crun.globals),
        crun.used,
        tail(&crun.stdout, 400),
        tail(&crun.stderr, 1000),
    ))
}

fn tail(s: &str, n: usize) -> &str {
    let mut at = s.len().saturating_sub(n);
    while !s.is_char_boundary(at) {
        at += 1;
    }
    &s[at..]
}

/// Runs the interpreter; a given choice outside the range of its type is
/// moved into the range and the run repeated.
fn run_fitting(p: &Program, cfg: &Config) -> Result<Run, RunError> {
    let mut cfg = cfg.clone();
    for _ in 0..200 {
        match interp::run(p, &cfg) {
            Err(RunError::ChoiceOutOfRange {
                index, value, range, ..
            }) => {
                cfg.choices[index] = value.clamp(range.0, range.1);
            }
            // An input of a narrow or unsigned type: the nearest value of it.
            Err(RunError::InputOutOfRange { name, value, range }) => {
                cfg.inputs.insert(name, value.clamp(range.0, range.1));
            }
            other => return other,
        }
    }
    interp::run(p, &cfg)
}

// ---------------------------------------------------------------------------
// Bookkeeping
// ---------------------------------------------------------------------------

#[derive(Default)]
struct Tally {
    programs: usize,
    /// The largest magnitude of a value written in a compared run.
    largest: i64,
    /// Programs with at least one compared run.
    programs_compared: usize,
    runs_compared: usize,
    /// Why runs were skipped, with counts and a few examples.
    skipped_runs: BTreeMap<String, (usize, Vec<String>)>,
    /// Programs not compared at all, with the reason.
    skipped_programs: Vec<(String, String)>,
    /// Per kind of outcome compared.
    kinds: BTreeMap<String, usize>,
    disagreements: Vec<String>,
    /// Programs that took long, with their time.
    slow: Vec<(String, Duration)>,
    /// List every program with the outcome of each run.
    detail: bool,
    details: Vec<String>,
}

impl Tally {
    /// Skip reasons are grouped by their first words (values vary).
    fn skip(&mut self, name: &str, why: &str) {
        let key = if why.starts_with("stores") {
            "a value stored outside its C type (after a signed overflow, undefined in C)"
        } else {
            why
        };
        let entry = self.skipped_runs.entry(key.to_string()).or_default();
        entry.0 += 1;
        if entry.1.len() < 3 && !entry.1.iter().any(|e| e.starts_with(name)) {
            entry.1.push(format!("{name}: {why}"));
        }
    }

    fn summary(&self, what: &str, elapsed: Duration) -> String {
        let mut s = format!(
            "{what}: {} programs, {} compared ({} runs, values up to {}), {} not compared; {} disagreements; {:.1?}\n",
            self.programs,
            self.programs_compared,
            self.runs_compared,
            self.largest,
            self.skipped_programs.len(),
            self.disagreements.len(),
            elapsed
        );
        for (k, n) in &self.kinds {
            let _ = writeln!(s, "  compared {k}: {n}");
        }
        for (why, (n, examples)) in &self.skipped_runs {
            let _ = writeln!(s, "  runs skipped ({n}): {why}");
            for e in examples {
                let _ = writeln!(s, "    e.g. {e}");
            }
        }
        for (name, why) in &self.skipped_programs {
            let _ = writeln!(s, "  not compared: {name}: {why}");
        }
        for (name, t) in &self.slow {
            let _ = writeln!(s, "  slow: {name}: {t:.1?}");
        }
        for d in &self.details {
            let _ = writeln!(s, "  {d}");
        }
        s
    }
}

/// Compiles a program and compares the given runs.
fn check_program(gcc: &Gcc, name: &str, p: &Program, cfgs: &[Config], tally: &mut Tally) {
    let start = Instant::now();
    check_program_runs(gcc, name, p, cfgs, tally);
    if start.elapsed() > Duration::from_secs(2) {
        tally.slow.push((name.to_string(), start.elapsed()));
    }
}

fn check_program_runs(gcc: &Gcc, name: &str, p: &Program, cfgs: &[Config], tally: &mut Tally) {
    tally.programs += 1;
    let c = match c_version(p) {
        Ok(c) => c,
        Err(why) => {
            tally.skipped_programs.push((name.to_string(), why));
            return;
        }
    };
    let exe = match gcc.compile(&format!("p{}", tally.programs), &c.text) {
        Ok(e) => e,
        Err(e) => {
            tally.disagreements.push(format!(
                "{name}: gcc rejects the C version:\n{e}\n--- C version ---\n{}",
                c.text
            ));
            return;
        }
    };
    let mut compared = false;
    let mut step_limits = 0;
    // What happened to each run, for the detailed summary.
    let mut runs: Vec<String> = Vec::new();
    for cfg in cfgs {
        match compare_run(gcc, p, &c, &exe, cfg) {
            Verdict::Agree(kind, largest) => {
                compared = true;
                tally.runs_compared += 1;
                tally.largest = tally.largest.max(largest);
                *tally.kinds.entry(format!("{kind:?}")).or_default() += 1;
                runs.push(format!("{kind:?}"));
            }
            Verdict::Skip(why) => {
                if why.contains("step limit") {
                    step_limits += 1;
                    runs.push("skipped (step limit)".into());
                } else {
                    runs.push("skipped".into());
                }
                tally.skip(name, &why);
                // A loop far longer than the limit stays so: save the time.
                if step_limits >= 2 && !compared {
                    break;
                }
            }
            Verdict::Disagree(d) => {
                compared = true;
                runs.push("DISAGREE".into());
                tally
                    .disagreements
                    .push(format!("{name}: {d}\n--- program ---\n{}", p.source.text));
            }
        }
    }
    if tally.detail {
        tally.details.push(format!("{name}: {}", runs.join(", ")));
    }
    if compared {
        tally.programs_compared += 1;
    } else {
        tally
            .skipped_programs
            .push((name.to_string(), "every run was skipped (see the run counts)".into()));
    }
}

fn finish(what: &str, tally: &Tally, start: Instant) {
    let summary = tally.summary(what, start.elapsed());
    println!("{summary}");
    assert!(
        tally.disagreements.is_empty(),
        "{summary}\n{} disagreement(s) between the interpreter and gcc:\n\n{}",
        tally.disagreements.len(),
        tally.disagreements.join("\n\n==========\n\n")
    );
}

// ---------------------------------------------------------------------------
// The tests
// ---------------------------------------------------------------------------

fn load(name: &str, text: &str, opts: &LowerOptions) -> Result<Program, String> {
    let file = Arc::new(SourceFile::new(name, text));
    let (program, diags) = focuscheck::load(file, opts);
    program.ok_or_else(|| {
        diags
            .iter()
            .filter(|d| d.is_error())
            .map(|d| format!("{d:?}"))
            .collect::<Vec<_>>()
            .join("\n")
    })
}

#[test]
fn svcomp_tasks_agree_with_gcc() {
    let start = Instant::now();
    let root = std::env::var("FOCUSCHECK_SVCOMP").unwrap_or_else(|_| CORPUS.to_string());
    let index = std::fs::read_to_string(Path::new(&root).join("index.tsv"))
        .unwrap_or_else(|e| panic!("cannot read {root}/index.tsv ({e}); set FOCUSCHECK_SVCOMP to the corpus"));
    let gcc = Gcc::new();
    let mut tally = Tally {
        detail: true,
        ..Tally::default()
    };
    for (n, line) in index.lines().skip(1).enumerate() {
        let Some(path) = line.split('\t').next().filter(|p| !p.is_empty()) else {
            continue;
        };
        let text = std::fs::read_to_string(Path::new(&root).join(path)).expect("a corpus file");
        let p = match load(path, &text, &LowerOptions::default()) {
            Ok(p) => p,
            Err(e) => {
                tally.programs += 1;
                tally
                    .skipped_programs
                    .push((path.to_string(), format!("not accepted by load: {e}")));
                continue;
            }
        };
        let slots = p.input_slots();
        let mut rng = Rng::new(1000 + n as u64);
        let cfgs: Vec<Config> = (0..RUNS_PER_TASK)
            .map(|r| {
                let mut cfg = Config {
                    seed: Some(rng.next_u64()),
                    max_steps: MAX_STEPS,
                    ..Config::default()
                };
                if r % 2 == 1 {
                    // Small values: the interesting branches of most tasks.
                    // (Array elements stay drawn: the interpreter checks given
                    // input names in quadratic time.)
                    for s in slots.iter().filter(|s| s.index.is_none()) {
                        let (lo, hi) = (s.range.0.max(-3), s.range.1.min(6));
                        cfg.inputs.insert(s.name.clone(), rng.range(lo, hi));
                    }
                    cfg.choices = (0..300).map(|_| rng.range(-2, 6)).collect();
                }
                cfg
            })
            .collect();
        check_program(&gcc, path, &p, &cfgs, &mut tally);
    }
    finish("SV-COMP tasks", &tally, start);
}

#[test]
fn generated_programs_agree_with_gcc() {
    let start = Instant::now();
    let gcc = Gcc::new();
    let small = gen::GenConfig::default();
    // Every fourth program is bigger, with larger constants: some runs
    // overflow 32 bits and are skipped.
    let big = gen::GenConfig {
        constants: (-40, 90),
        loop_bound: 6,
        max_expr_depth: 4,
        max_stmts: 6,
        max_locals: 4,
        ..gen::GenConfig::default()
    };
    let mut tally = Tally::default();
    // `FOCUSCHECK_GEN_PROGRAMS=N` and `FOCUSCHECK_GEN_FIRST=S` check other
    // seeds (for longer hunts).
    let env = |name: &str, default: u64| std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default);
    let first = env("FOCUSCHECK_GEN_FIRST", 0);
    for seed in first..first + env("FOCUSCHECK_GEN_PROGRAMS", GENERATED) {
        let text = gen::program(seed, if seed % 4 == 3 { &big } else { &small });
        let mut rng = Rng::new(seed.wrapping_mul(7919) + 17);
        let opts = LowerOptions {
            globals: if seed % 3 == 2 { Some(GlobalsMode::Input) } else { None },
            ..LowerOptions::default()
        };
        let name = format!("gen{seed}.c");
        let p = load(&name, &text, &opts)
            .unwrap_or_else(|e| panic!("focuscheck::load rejects generated program {seed}:\n{e}\n{text}"));
        let slots = p.input_slots();
        let cfgs: Vec<Config> = (0..RUNS_PER_GENERATED)
            .map(|_| Config {
                inputs: slots.iter().map(|s| (s.name.clone(), rng.range(-6, 9))).collect(),
                choices: (0..300).map(|_| rng.range(-6, 9)).collect(),
                seed: Some(rng.next_u64()),
                max_steps: MAX_STEPS,
                ..Config::default()
            })
            .collect();
        check_program(&gcc, &name, &p, &cfgs, &mut tally);
    }
    finish("generated programs", &tally, start);
}

/// One hand-written program run once both ways.
fn verdict_of(gcc: &Gcc, text: &str, opts: &LowerOptions, inputs: &[(&str, i64)], choices: &[i64]) -> Verdict {
    let p = load("case.c", text, opts).unwrap_or_else(|e| panic!("not accepted: {e}\n{text}"));
    let c = c_version(&p).unwrap_or_else(|e| panic!("no C version: {e}"));
    let exe = gcc
        .compile("case", &c.text)
        .unwrap_or_else(|e| panic!("gcc: {e}\n{}", c.text));
    let cfg = Config {
        inputs: inputs.iter().map(|(n, v)| (n.to_string(), *v)).collect(),
        choices: choices.to_vec(),
        max_steps: MAX_STEPS,
        ..Config::default()
    };
    compare_run(gcc, &p, &c, &exe, &cfg)
}

/// The harness itself: each C-side patch, each outcome, both reasons to
/// skip, and a known difference that must be reported.
#[test]
fn harness_handles_known_cases() {
    let gcc = Gcc::new();
    let zero = LowerOptions::default();
    let agree = |text: &str, inputs: &[(&str, i64)], choices: &[i64], want: Kind| match verdict_of(
        &gcc, text, &zero, inputs, choices,
    ) {
        Verdict::Agree(k, _) if k == want => {}
        v => panic!("expected agreement on {want:?}, got {v:?}\n{text}"),
    };
    // An entry local is an input; arrays are checked, even where gcc could
    // fold the read away.
    let bounds = "extern int __VERIFIER_nondet_int(void);\nint a[3];\n\
                  int main(void) { int i; a[i] = 1; if (a[i + 1] > 100 || 1) a[0] = 2; return 0; }\n";
    agree(bounds, &[("i", 3)], &[], Kind::Bounds);
    agree(bounds, &[("i", 2)], &[], Kind::Bounds);
    agree(bounds, &[("i", 1)], &[], Kind::Finished);
    // A `reach_error` defined as `{}` is still the error; a `__VERIFIER_assert`
    // defined in the file is the file's.
    let own_assert = "void reach_error() {}\nextern void abort(void);\nextern int __VERIFIER_nondet_int(void);\n\
                      void __VERIFIER_assert(int c) { if (!c) { ERROR: {reach_error(); abort();} } }\n\
                      int main(void) { int x = __VERIFIER_nondet_int(); __VERIFIER_assert(x != 2); return 0; }\n";
    agree(own_assert, &[], &[2], Kind::ReachError);
    agree(own_assert, &[], &[1], Kind::Finished);
    let builtin_assert =
        "extern void __VERIFIER_assert(int);\nint main(void) { int x; __VERIFIER_assert(x < 5); return 0; }\n";
    agree(builtin_assert, &[("x", 7)], &[], Kind::Assert);
    // Uninitialised locals of other procedures and falling off the end of
    // one draw choices.
    let draws = "extern int __VERIFIER_nondet_int(void);\nint g;\nint f(int p) { int l; if (p > 0) return l; }\n\
                 int main(void) { int a = f(1); int b = f(0); g = a + 10 * b; return 0; }\n";
    agree(draws, &[], &[3, 4, 5], Kind::Finished);
    // Parameters of the entry are inputs.
    let params = "extern void reach_error(void);\nint main(int argc, char *argv[]) { if (argc == 7) reach_error(); return 0; }\n";
    agree(params, &[("argc", 7)], &[], Kind::ReachError);
    // Halting keeps the globals; division by zero.
    let halt = "extern void abort(void);\nextern int __VERIFIER_nondet_int(void);\nint g;\n\
                int main(void) { int x; g = 5; if (x) abort(); g = 10 / x; return 0; }\n";
    agree(halt, &[("x", 1)], &[], Kind::Halted);
    agree(halt, &[("x", 0)], &[], Kind::DivByZero);
    // Globals as inputs.
    let inputs = LowerOptions {
        globals: Some(GlobalsMode::Input),
        ..LowerOptions::default()
    };
    let global_input = "extern void reach_error(void);\nint g;\nint h[2];\n\
                        int main(void) { if (g == 4 && h[1] == 3) reach_error(); return 0; }\n";
    match verdict_of(&gcc, global_input, &inputs, &[("g", 4), ("h[0]", 0), ("h[1]", 3)], &[]) {
        Verdict::Agree(Kind::ReachError, _) => {}
        v => panic!("expected agreement on ReachError, got {v:?}"),
    }
    // A signed 32-bit overflow in C skips the run.
    let overflow = "extern int __VERIFIER_nondet_int(void);\nint g;\n\
                    int main(void) { int x; int m; g = (x * m) % 3; return 0; }\n";
    match verdict_of(&gcc, overflow, &zero, &[("x", 65536), ("m", 65536)], &[]) {
        Verdict::Skip(why) => assert!(why.contains("overflow"), "{why}"),
        v => panic!("expected a skip, got {v:?}"),
    }
    // Unsigned arithmetic and conversions wrap in both, stored or not.
    let wrap = "extern int __VERIFIER_nondet_int(void);\nunsigned int u;\nint main(void) { u = u - 1; return 0; }\n";
    match verdict_of(&gcc, wrap, &zero, &[], &[]) {
        Verdict::Agree(Kind::Finished, _) => {}
        v => panic!("expected agreement, got {v:?}"),
    }
    let unsigned = "extern int __VERIFIER_nondet_int(void);\nint g;\n\
                    int main(void) { unsigned int u = 0; if (u - 1 > 5) g = (char)200; return 0; }\n";
    match verdict_of(&gcc, unsigned, &zero, &[], &[]) {
        Verdict::Agree(Kind::Finished, _) => {}
        v => panic!("expected agreement, got {v:?}"),
    }
}
