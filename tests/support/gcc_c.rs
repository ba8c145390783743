//! The C side of the differential test against gcc (`tests/front_end/gcc_diff.rs`):
//! a runtime that feeds inputs and choices and prints the end of a run, a
//! sanitized build, running a binary and reading its outcome, and the C
//! version of a program (the original text with a few patches).

use focuscheck::ir::{Program, VarKind};
use focuscheck::syntax::ast;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const C_TIMEOUT: Duration = Duration::from_secs(10);
pub const SANITIZE: &str = "-fsanitize=bounds,integer-divide-by-zero,signed-integer-overflow,shift";

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
pub struct Gcc {
    dir: tempfile::TempDir,
    runtime: PathBuf,
}

impl Gcc {
    /// Checks that gcc and its sanitizer work; panics with a clear message
    /// if not.
    pub fn new() -> Gcc {
        match Command::new("gcc").arg("--version").output() {
            Ok(o) if o.status.success() => {}
            Ok(o) => panic!(
                "`gcc --version` failed: this differential test needs gcc on PATH\n{}",
                String::from_utf8_lossy(&o.stderr)
            ),
            Err(e) => {
                panic!("gcc not found ({e}): the differential test against C (tests/front_end/gcc_diff.rs) needs gcc on PATH")
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

    pub fn compile(&self, name: &str, c_text: &str) -> Result<PathBuf, String> {
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
pub enum Kind {
    Finished,
    Halted,
    Assert,
    ReachError,
    Bounds,
    DivByZero,
    /// A shift by a negative amount or by the promoted width or more.
    Shift,
    /// A signed overflow: undefined in C, checked by the interpreter only
    /// under `--property no-overflow` (`LowerOptions::overflow_checks`).
    Overflow,
    /// A signed `<<` of a negative value or past its type: undefined in
    /// C; gcc's result is the bits shifted, the interpreter's too, unless
    /// overflow is checked (then its shift check fails).
    ShiftOverflow,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CEnd {
    Kind(Kind),
    OutOfChoices,
    /// Anything else: a crash, a timeout, a harness problem.
    Other(String),
}

#[derive(Clone, Debug)]
pub struct CRun {
    pub end: CEnd,
    pub globals: Vec<i64>,
    /// Choices consumed (not known after a sanitizer report).
    pub used: Option<usize>,
    /// The line of a sanitizer report.
    pub line: Option<u32>,
    pub stdout: String,
    pub stderr: String,
}

pub fn run_c(gcc: &Gcc, exe: &Path, inputs: &[i64], choices: &[i64]) -> CRun {
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
        } else if msg.contains("left shift of") {
            CEnd::Kind(Kind::ShiftOverflow)
        } else if msg.contains("overflow") || msg.contains("cannot be represented") {
            CEnd::Kind(Kind::Overflow)
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

pub struct CProgram {
    pub text: String,
    /// The global storage slots `__fc_dump_globals` prints, in order.
    pub printed: Vec<usize>,
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
pub fn c_version(p: &Program) -> Result<CProgram, String> {
    let text = &p.source.text;
    let mut diags = Vec::new();
    let parsed = focuscheck::syntax::parse_source(&p.source, &Default::default(), &mut diags);
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
            // String literals' objects are the literals themselves in C.
            volatile_arrays.extend(ds.iter().filter(|d| !ast::is_string_literal(&d.name.name)));
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
        if var.kind != VarKind::Global || ast::is_string_literal(&var.name) {
            continue; // a static local or a string literal: not named in C
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
