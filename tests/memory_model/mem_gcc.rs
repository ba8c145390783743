//! The memory model (`src/ir/mem`) against gcc, on generated programs with
//! pointers to globals, locals, array elements and struct fields, arrays
//! passed to functions, out-parameters, pointer returns, pointer arithmetic
//! and comparisons, structs by value, nested structs and arrays of structs,
//! and the heap (`malloc`'d ints, `calloc`'d structs, `free`, allocation
//! wrappers returning `void *` as `kzalloc` is written); and unions of
//! integer members of every width.
//!
//! Each program is deterministic and ends by storing what it computed in
//! `int out[4]`. It must:
//! - give, run by the interpreter (`focuscheck run`) on each of its three
//!   inputs, the `out` that the same file compiled by gcc prints;
//! - be proved `safe` by `check` (default engine) with an assertion that
//!   holds on every run, and found `unsafe` with one that fails on some run
//!   (the counterexample replaying: `check` replays every one).
//!
//! `FOCUSCHECK_MEM_PROGRAMS=N` runs more seeds.

use crate::sanitized_gcc;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

const PROGRAMS: u64 = 30;

/// How many generated programs a test runs: `FOCUSCHECK_MEM_PROGRAMS`, or
/// `PROGRAMS`.
fn programs() -> u64 {
    programs_or(PROGRAMS)
}

/// `programs`, with another default (generators whose programs are slow
/// to check: a few minutes for 40 of them on 2 cores).
pub(crate) fn programs_or(default: u64) -> u64 {
    std::env::var("FOCUSCHECK_MEM_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

use crate::xorshift;
use xorshift::Rng;

const PRELUDE: &str = "\
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int c);
void __VERIFIER_assert(int c) { if (!c) __VERIFIER_error(); }
struct T { int c; int d; };
struct S { int a; int b[3]; struct T t; };
struct Q { int x; struct T t; };
int g0, g1 = 7;
int ga[5] = {1, 2, 3, 4, 5};
struct S gs = {3, {4, 5, 6}, {7, 8}};
struct Q qa[3];
int out[4];
void set(int *p, int v) { *p = v; }
int get(int *p) { return *p; }
void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }
void add_all(int a[], int n, int k) { for (int i = 0; i < n; i++) a[i] += k; }
int sum(int *a, int n) { int s = 0; for (int i = 0; i < n; i++) s = s + a[i]; return s; }
int *pick(int c, int *x, int *y) { if (c) return x; return y; }
void fill(struct S *s, int v) { s->a = v; s->t.c = v + 1; s->b[1] = v * 2 + (int)sizeof(s->b); }
struct Q mk(int v) { struct Q r; r.x = v; r.t.c = v - 1; r.t.d = v + 1; return r; }
int qsum(struct Q q) { return q.x + q.t.c * 2 + q.t.d * 3; }
void bump(struct T *t) { t->c++; t->d -= 2; }
int twice(int alive) { int *p = &alive; *p = *p * 2; return alive; }
int thrice(int alive) { return alive * 3; }
void *alloc_m(int bytes, int tag) { (void)tag; return malloc(bytes); }
void *alloc_z(int n, int size) { return calloc(n, size); }
void shadow(int *g0, int v) { int *x = g0; { int g0 = v * 2; *x += g0; } }
int count(int *p) { static int g1 = 0; g1 += 1; *p += g1; return g1; }
";

/// Int locations of `main` that are always valid targets.
const INT_TARGETS: &[&str] = &[
    "g0",
    "g1",
    "ga[0]",
    "ga[2]",
    "ga[4]",
    "gs.a",
    "gs.b[1]",
    "gs.t.c",
    "l0",
    "l1",
    "la[1]",
    "ls.x",
    "ls.t.d",
    "qa[1].x",
    "qa[2].t.c",
    "h[0]",
    "h[3]",
    "hq[0].x",
    "hq[1].t.d",
    "hw[2]",
    "ht[1].d",
];

fn value(r: &mut Rng) -> String {
    match r.below(4) {
        0 => format!("{}", r.below(20) as i64 - 5),
        1 => r.pick(INT_TARGETS).to_string(),
        2 => format!("*p + {}", r.below(5)),
        _ => format!("{} - {}", r.pick(INT_TARGETS), r.pick(INT_TARGETS)),
    }
}

fn program(seed: u64) -> String {
    let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut s = String::from(PRELUDE);
    s.push_str("int main(void) {\n  int in = __VERIFIER_nondet_int();\n  __VERIFIER_assume(0 <= in && in <= 2);\n");
    s.push_str("  int l0 = 1, l1 = 2;\n  int la[3] = {9, 8, 7};\n");
    s.push_str("  struct Q ls = {4, {5, 6}};\n  struct Q lq;\n  struct T *tp = &gs.t;\n");
    s.push_str("  int *p = &l0;\n  int *q = &ga[1];\n  struct S *sp = &gs;\n");
    // The heap: ints written before they are read, structs zeroed.
    s.push_str("  int *h = malloc(4 * sizeof(int));\n  for (int i = 0; i < 4; i++) h[i] = i * 3 - in;\n");
    s.push_str("  struct Q *hq = (struct Q *)calloc(2, sizeof(struct Q));\n");
    // Through wrappers: each call is an object of the type it is used as.
    s.push_str("  int *hw = alloc_m(3 * sizeof(int), in);\n  for (int i = 0; i < 3; i++) hw[i] = in - i;\n");
    s.push_str("  struct T *ht = alloc_z(2, sizeof *ht);\n");
    // `pa` points into `ga` at `at`.
    let mut at = 0i64;
    s.push_str("  int *pa = ga;\n");
    for _ in 0..(6 + r.below(10)) {
        let line = match r.below(23) {
            19 => format!("h[{}] = {};", r.below(4), value(&mut r)),
            20 => format!(
                "*(h + {}) += {}; hq[{}].x = h[{}];",
                r.below(4),
                value(&mut r),
                r.below(2),
                r.below(4)
            ),
            21 => format!(
                "add_all(h, {}, {}); bump(&hq[{}].t);",
                1 + r.below(4),
                r.below(4),
                r.below(2)
            ),
            22 => format!("{} = sum(h, 4) + hq[1].t.c;", r.pick(INT_TARGETS)),
            16 => format!("p = in == 0 ? &{} : &{};", r.pick(INT_TARGETS), r.pick(INT_TARGETS)),
            17 => format!("if (in == 1) q = &{};", r.pick(INT_TARGETS)),
            18 => "*p += in; *q -= in * 2;".to_string(),
            0 => format!("p = &{};", r.pick(INT_TARGETS)),
            1 => format!("*p = {};", value(&mut r)),
            2 => format!("*p += {};", value(&mut r)),
            3 => "(*p)++;".to_string(),
            4 => format!("q = pick({}, p, &{});", r.below(2), r.pick(INT_TARGETS)),
            5 => format!("set(&{}, {});", r.pick(INT_TARGETS), value(&mut r)),
            6 => format!("swap(&{}, &{});", r.pick(INT_TARGETS), r.pick(INT_TARGETS)),
            7 => format!(
                "add_all({}, {}, {});",
                r.pick(&["ga", "la"]),
                1 + r.below(3),
                r.below(4)
            ),
            8 => format!("{} = get(q) + sum(ga, 5);", r.pick(INT_TARGETS)),
            9 => {
                let k = r.below(5) as i64;
                let step = k - at;
                at = k;
                if step >= 0 {
                    format!("pa = pa + {step};")
                } else {
                    format!("pa -= {};", -step)
                }
            }
            10 => format!("*pa = {} + pa[0];", value(&mut r)),
            11 => format!("fill(sp, {});", value(&mut r)),
            12 => format!("lq = mk({}); ls = lq;", value(&mut r)),
            13 => format!("bump({});", r.pick(&["tp", "&ls.t", "&qa[1].t", "&lq.t"])),
            14 => format!("{} = qsum(ls) + (p == q) + (pa - ga) * 10;", r.pick(INT_TARGETS)),
            _ => format!("qa[{}] = ls; sp->b[{}] = *q;", r.below(3), r.below(3)),
        };
        if line.contains("lq.t") && !s.contains("lq = mk") {
            continue;
        }
        let _ = writeln!(s, "  {line}");
    }
    s.push_str(&shadowing_and_scopes(&mut r, seed));
    // A taken local whose name is used twice, once 0: the memory model's
    // running flag once shared its storage (a call of `twice(0)` then
    // looked like an access to a finished call's local).
    s.push_str("  l1 = twice(l1 + in) + twice(in - in) + thrice(in);\n");
    s.push_str("  out[0] = g0 + g1 * 3 + ga[0] + ga[4] * 5 + l0 + l1 * 7;\n");
    s.push_str("  out[1] = gs.a + gs.b[1] * 3 + gs.t.c + gs.t.d * 5 + *p + *q * 7;\n");
    s.push_str("  out[2] = la[0] + la[1] * 3 + la[2] + ls.x * 5 + ls.t.c + ls.t.d * 7 + *pa;\n");
    s.push_str("  out[3] = qa[0].x + qa[1].x * 3 + qa[2].t.c + qa[1].t.d * 5 + (pa - ga) + h[0] * 11 + h[3] * 13 + hq[0].x * 17 + hq[1].t.d * 19 + hw[0] * 23 + ht[0].c * 29 + ht[1].d * 31;\n");
    // `p` and `q` may point into the heap: only now is it freed.
    s.push_str("  free(h);\n  free(hq);\n  free(hw);\n  free(ht);\n");
    s
}

/// Names shadowing the objects pointed to (a parameter and a block-scoped
/// local named like the global, a `static` local like the global its
/// pointer reaches, blocks redeclaring `main`'s taken `l0`), pointers into
/// fields of array elements moved and back, and (every third seed) a
/// pointer to a block-scoped local read after its block on input 2, where
/// gcc's sanitizer stops with stack-use-after-scope.
fn shadowing_and_scopes(r: &mut Rng, seed: u64) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "  shadow(&{}, {});", r.pick(INT_TARGETS), value(r));
    let _ = writeln!(
        s,
        "  {} += count(&{});",
        r.pick(INT_TARGETS),
        r.pick(&["g1", "l1", "ga[3]", "gs.t.d"])
    );
    let _ = writeln!(
        s,
        "  {{ int l0 = in + {}; int *b = &l0; {{ int l0 = {}; int *c = &l0; *c += *b; l1 += l0; }} *b += 1; g0 += l0; }}",
        r.below(4),
        r.below(5)
    );
    let i = r.below(3);
    let _ = writeln!(
        s,
        "  {{ int *fp = &qa[{i}].{f}; int *fe = fp + 1; qa[{i}].t.d += (fe - fp) * {k} + *(fe - 1); fp = fe - 1; *fp += in; }}",
        f = r.pick(&["x", "t.c"]),
        k = r.below(4)
    );
    if seed % 3 == 1 {
        s.push_str("  int *dp = &l1;\n  { int t = in * 2; if (in == 2) dp = &t; l1 += t; }\n  g0 += *dp;\n");
    }
    s
}

/// `out` for each input 0, 1, 2.
fn gcc_out(dir: &Path, name: &str, text: &str) -> Vec<Vec<i64>> {
    sanitized_gcc::runs(dir, name, text)
        .into_iter()
        .map(|r| r.unwrap_or_else(|e| panic!("the generated program is not valid C (sanitizer):\n{text}\n{e}")))
        .collect()
}

fn focuscheck(args: &[&str]) -> (i32, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_focuscheck"))
        .args(args)
        .output()
        .expect("run focuscheck");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code().unwrap_or(-1), text)
}

/// A counterexample's trace shows pointers as C does: no leaf (`p.off`) or
/// temporary (`__mem1`) of the memory model, and `p = &x` shows `p = &x`.
fn assert_c_spelling(out: &str, seed: u64) {
    for internal in ["__mem", ".off", "(object "] {
        assert!(
            !out.contains(internal),
            "seed {seed}: `{internal}` in the trace:\n{out}"
        );
    }
    let mut seen = 0;
    for line in out.lines() {
        let Some((stmt, shown)) = line.split("Executed `").nth(1).and_then(|r| r.split_once("` (")) else {
            continue;
        };
        let Some((lhs, target)) = stmt.split_once(" = &") else {
            continue;
        };
        let simple = |t: &str| t.chars().all(|c| c.is_alphanumeric() || "_.[]".contains(c));
        if simple(lhs) && simple(target) {
            // A taken local whose name is used elsewhere too is `f::x`.
            let plain = shown == format!("{lhs} = &{target})");
            let qualified = shown
                .strip_prefix(&format!("{lhs} = &"))
                .and_then(|r| r.split_once("::"))
                .is_some_and(|(f, x)| simple(f) && x == format!("{target})"));
            // A pointer into the heap names its allocating call and
            // instance: `&hq[1].t` is `&calloc@38#1[1].t`, `&hq[0].t`
            // is `&calloc@38#1->t`.
            let heap = ["h[", "hq[", "hw[", "ht["].iter().any(|h| target.starts_with(h)) && {
                let rest = &target[target.find('[').unwrap_or(0)..];
                let arrow = rest.strip_prefix("[0].").map(|f| format!("->{f})"));
                let digits = |r: &str| r.trim_start_matches(|c: char| c.is_ascii_digit()).to_string();
                shown
                    .strip_prefix(&format!("{lhs} = &"))
                    .and_then(|r| r.split_once('@'))
                    .is_some_and(|(f, r)| {
                        let r = digits(r);
                        let r = r.strip_prefix('#').map_or(r.clone(), digits);
                        ["malloc", "calloc", "alloc_m", "alloc_z"].contains(&f)
                            && (r == format!("{rest})") || arrow.as_deref() == Some(r.as_str()))
                    })
            };
            assert!(
                plain || qualified || heap,
                "seed {seed}: `{stmt}` shown as ({shown}:\n{out}"
            );
            seen += 1;
        }
    }
    assert!(seen > 0, "seed {seed}: no pointer assignment in the trace:\n{out}");
}

/// `out = [a, b, c, d]` from `focuscheck run`'s globals line.
fn run_out(text: &str) -> Option<Vec<i64>> {
    let at = text.find("out = [")? + "out = [".len();
    let end = text[at..].find(']')? + at;
    text[at..end].split(',').map(|v| v.trim().parse().ok()).collect()
}

#[test]
fn generated_pointer_programs_agree_with_gcc_and_every_verdict() {
    let n = programs();
    let dir = tempfile::tempdir().expect("a temporary directory");
    for seed in 0..n {
        let text = program(seed);
        if text.contains("dp = &t") {
            dead_pointer_agrees(dir.path(), &format!("m{seed}"), seed, &text);
            continue;
        }
        // The input, then what `mk`'s uninitialised local draws (never read).
        let want = interpreter_agrees(dir.path(), &format!("m{seed}"), seed, &text, 100);
        // Every fourth program: the engines against every run's outcome.
        if seed % 4 == 0 {
            engines_agree(dir.path(), &format!("m{seed}"), seed, &text, &want, true);
        }
    }
}

/// A program reading a block-scoped local after its block on input 2: gcc's
/// sanitizer stops there, and so does the interpreter (an invalid pointer
/// access); on the other inputs both compute the same `out`, and `check`
/// finds the invalid access.
fn dead_pointer_agrees(dir: &Path, name: &str, seed: u64, text: &str) {
    let file = dir.join(format!("{name}.fc.c"));
    std::fs::write(&file, format!("{text}  return 0;\n}}\n")).expect("write");
    let f = file.to_str().expect("utf-8 path");
    for (input, gcc) in sanitized_gcc::runs(dir, name, text).into_iter().enumerate() {
        let choices = format!("{input}{}", ",1".repeat(100));
        let (_, ran) = focuscheck(&["run", "--choices", &choices, f]);
        match gcc {
            Ok(want) => assert_eq!(
                run_out(&ran),
                Some(want),
                "seed {seed}, input {input}: interpreter != gcc\n{ran}\n{text}"
            ),
            Err(e) => {
                assert!(
                    e.contains("stack-use-after-scope"),
                    "seed {seed}, input {input}: {e}\n{text}"
                );
                assert!(
                    ran.contains("invalid pointer access in `*dp`"),
                    "seed {seed}, input {input}: gcc reads a dead local, the interpreter:\n{ran}\n{text}"
                );
            }
        }
    }
    let (_, out) = focuscheck(&["check", "--timeout", "60", f]);
    assert!(
        out.contains("unsafe: pointer access in `*dp`"),
        "seed {seed}:\n{out}\n{text}"
    );
}

/// `out` as gcc computes it on each input, checked against what the
/// interpreter computes (`draws` choices of 1 after the input).
pub(crate) fn interpreter_agrees(dir: &Path, name: &str, seed: u64, text: &str, draws: usize) -> Vec<Vec<i64>> {
    let want = gcc_out(dir, name, text);
    let file = dir.join(format!("{name}.fc.c"));
    std::fs::write(&file, format!("{text}  return 0;\n}}\n")).expect("write");
    let f = file.to_str().expect("utf-8 path");
    for (input, want) in want.iter().enumerate() {
        let choices = format!("{input}{}", ",1".repeat(draws));
        let (code, ran) = focuscheck(&["run", "--choices", &choices, f]);
        assert_eq!(code, 0, "seed {seed}: run failed:\n{ran}\n{text}");
        assert_eq!(
            run_out(&ran),
            Some(want.clone()),
            "seed {seed}, input {input}: interpreter != gcc\n{ran}\n{text}"
        );
    }
    want
}

/// `check` proves `out[k] == v` where every run computes `v`, finds it
/// unsafe where some run does not, and always finds `out[k] != v` unsafe,
/// with a counterexample spelled as C when `spelling`. With `may_give_up`
/// a verdict may be `unknown`, never the wrong one. The number decided.
pub(crate) fn engines_agree(dir: &Path, name: &str, seed: u64, text: &str, want: &[Vec<i64>], spelling: bool) -> usize {
    engines_on(dir, name, seed, text, want, spelling, false)
}

fn engines_on(
    dir: &Path,
    name: &str,
    seed: u64,
    text: &str,
    want: &[Vec<i64>],
    spelling: bool,
    may_give_up: bool,
) -> usize {
    // An `unknown` costs the whole timeout: a short one where it may come.
    let timeout = if may_give_up { "10" } else { "60" };
    let mut decided = 0;
    let k = (seed / 4 % 4) as usize;
    let v0 = want[0][k];
    let same = want.iter().all(|w| w[k] == v0);
    for (op, verdict) in [("==", if same { "safe" } else { "unsafe" }), ("!=", "unsafe")] {
        let checked = format!("{text}  __VERIFIER_assert(out[{k}] {op} {v0});\n  return 0;\n}}\n");
        let cf = dir.join(format!("{name}{}.c", if op == "==" { "t" } else { "f" }));
        std::fs::write(&cf, &checked).expect("write");
        let (_, out) = focuscheck(&[
            "check",
            "--property",
            "unreach-call",
            "--timeout",
            timeout,
            cf.to_str().expect("utf-8"),
        ]);
        let first = out.lines().next().unwrap_or("");
        // The error's own verdict where `limit` conditions (variable-length
        // arrays) may be listed beside it.
        let listed = |v: &str| {
            out.lines()
                .any(|l| l.starts_with(&format!("{v}: call `__VERIFIER_error()`")))
        };
        let counts = match verdict {
            "safe" => first.contains("0 unsafe, 0 unknown, 1 safe"),
            _ => first.contains("1 unsafe, 0 unknown, 0 safe") || (may_give_up && listed("unsafe")),
        };
        decided += usize::from(counts);
        assert!(
            counts || (may_give_up && (first.contains("0 unsafe, 1 unknown, 0 safe") || listed("unknown"))),
            "seed {seed}: expected {verdict} for out[{k}] {op} {v0} (runs: {want:?}):\n{out}\n{checked}"
        );
        if verdict == "unsafe" && spelling {
            let (_, full) = focuscheck(&[
                "--color",
                "never",
                "check",
                "--property",
                "unreach-call",
                "--view",
                "full",
                "--timeout",
                "60",
                cf.to_str().expect("utf-8"),
            ]);
            assert_c_spelling(&full, seed);
        }
    }
    decided
}

const UNION_PRELUDE: &str = "\
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int c);
void __VERIFIER_assert(int c) { if (!c) __VERIFIER_error(); }
union U { int i; short s; signed char c; unsigned char uc; unsigned short us; unsigned char b[4]; short h[2]; };
union W { long long ll; int i; unsigned char uc; int w[2]; signed char cb[8]; };
struct H { int tag; union U u; };
union U gu;
union U gua[2] = {{-300}, {70000}};
struct H gh = {1, {5}};
int out[4];
void setc(union U *u, int v) { u->c = v; }
int geti(union U *u) { return u->i; }
";

/// Integer members of `main`'s unions (through `up` too), and elements
/// of their array members at constant and computed indices.
const MEMBERS: &[&str] = &[
    "gu.i",
    "gu.s",
    "gu.c",
    "gu.uc",
    "gu.us",
    "lu.i",
    "lu.s",
    "lu.c",
    "lu.us",
    "gua[0].i",
    "gua[1].s",
    "gua[1].uc",
    "gh.u.i",
    "gh.u.c",
    "gh.u.us",
    "up->i",
    "up->s",
    "up->uc",
    "lw.ll",
    "lw.i",
    "lw.uc",
    "gu.b[2]",
    "lu.h[1]",
    "up->b[3]",
    "up->h[in % 2]",
    "gua[1].h[in & 1]",
    "gh.u.b[in]",
    "lw.w[1]",
    "lw.w[in / 2]",
    "lw.cb[in + 5]",
    "lw.cb[7]",
];

fn union_value(r: &mut Rng) -> String {
    match r.below(4) {
        0 => r
            .pick(&["0", "-1", "7", "-129", "200", "300", "-40000", "70000", "in"])
            .to_string(),
        1 => r.pick(MEMBERS).to_string(),
        2 => format!("in * {} - {}", r.below(300), r.below(3)),
        _ => format!("{} - {}", r.pick(MEMBERS), r.below(9)),
    }
}

/// A program writing union members of every width (through names, array
/// elements, a struct field and pointers) and reading them back.
fn union_program(seed: u64) -> String {
    let mut r = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D) | 1);
    let mut s = String::from(UNION_PRELUDE);
    s.push_str("int main(void) {\n  int in = __VERIFIER_nondet_int();\n  __VERIFIER_assume(0 <= in && in <= 2);\n");
    s.push_str("  union U lu;\n  lu.i = in * 1000 - 7;\n  union W lw;\n  lw.ll = in - 5;\n  union U *up = &gu;\n");
    for _ in 0..(5 + r.below(8)) {
        let line = match r.below(8) {
            0 => format!("up = &{};", r.pick(&["gu", "lu", "gua[1]", "gh.u"])),
            1 => format!("setc({}, {});", r.pick(&["up", "&gu", "&gua[0]"]), union_value(&mut r)),
            2 => format!("{} = geti({});", r.pick(MEMBERS), r.pick(&["up", "&lu"])),
            3 => format!("{}++;", r.pick(MEMBERS)),
            4 => format!("{} += {};", r.pick(MEMBERS), r.pick(&["1", "-3", "250", "in"])),
            5 => r.pick(&["gu = lu;", "gh.u = gua[0];", "gua[1] = *up;"]).to_string(),
            _ => format!("{} = {};", r.pick(MEMBERS), union_value(&mut r)),
        };
        let _ = writeln!(s, "  {line}");
    }
    s.push_str("  out[0] = gu.i + gu.c;\n  out[1] = lu.i + gua[1].s + gua[0].uc;\n");
    s.push_str("  out[2] = gh.u.us + lw.i + gh.tag;\n  out[3] = (int)(lw.ll % 1000) + up->c;\n");
    // The size of an array member, not of the pointer it decays to.
    s.push_str("  out[3] += (int)(sizeof(gu.b) + 10 * sizeof(lw.cb) + 100 * sizeof(up->h));\n");
    s
}

#[test]
fn generated_union_programs_agree_with_gcc_and_every_verdict() {
    let n = programs();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (mut checks, mut decided) = (0, 0);
    for seed in 0..n {
        let text = union_program(seed);
        // The input, then what the uninitialised unions hold.
        let want = interpreter_agrees(dir.path(), &format!("u{seed}"), seed, &text, 20);
        // The engines: never a wrong verdict. A member written under its
        // mask is `%` arithmetic the solvers may give up on: about half
        // are decided (a third at least), the others `unknown`.
        if seed % 8 == 0 {
            checks += 2;
            decided += engines_on(dir.path(), &format!("u{seed}"), seed, &text, &want, false, true);
        }
    }
    eprintln!("{decided} of {checks} union checks decided");
    assert!(decided * 3 >= checks, "only {decided} of {checks} union checks decided");
}

use crate::list_gen;

/// What gcc with AddressSanitizer (and LeakSanitizer) does on each input:
/// `out`, or the sanitizer's report.
fn asan_runs(dir: &Path, name: &str, text: &str) -> Vec<Result<Vec<i64>, String>> {
    let main = text.replace("int main(void) {", "int fc_main(void) {");
    let harness = format!(
        "#include <stdio.h>\n#include <stdlib.h>\n\
         int __VERIFIER_nondet_int(void) {{ return atoi(getenv(\"FC_IN\")); }}\n\
         void __VERIFIER_assume(int c) {{ if (!c) exit(0); }}\n{main}\n\
         int main(void) {{ fc_main(); for (int i = 0; i < 4; i++) printf(\"%d\\n\", out[i]); return 0; }}\n"
    );
    let exe = sanitized_gcc::build(dir, name, &harness);
    sanitized_gcc::outputs(&exe, |l| Some(l))
}

/// Generated programs that build, walk and free lists and trees in loops
/// (use after free, double free and leaks on some inputs): the interpreter
/// computes gcc's `out`, and stops where AddressSanitizer does (an invalid
/// access or free) or reports a leak where LeakSanitizer does; `check
/// --property valid-memsafety` is never wrong (unsafe exactly when some
/// input goes wrong).
#[test]
fn generated_list_programs_agree_with_gcc_and_asan() {
    let n = programs();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (mut bad, mut decided) = (0, 0);
    for seed in 0..n {
        let (text, bug, _) = list_gen::program(seed);
        let name = format!("l{seed}");
        let file = dir.path().join(format!("{name}.fc.c"));
        std::fs::write(&file, &text).expect("write");
        let f = file.to_str().expect("utf-8 path");
        let mut wrong = false;
        for (input, gcc) in asan_runs(dir.path(), &name, &text).into_iter().enumerate() {
            let choices = input.to_string();
            let (code, ran) = focuscheck(&["run", "--leaks", "track", "--choices", &choices, f]);
            match gcc {
                Ok(want) => {
                    assert_eq!(code, 0, "seed {seed}, input {input}:\n{ran}\n{text}");
                    assert_eq!(run_out(&ran), Some(want), "seed {seed}, input {input}:\n{ran}\n{text}");
                }
                Err(e) if e.contains("detected memory leaks") => {
                    wrong = true;
                    assert!(
                        ran.contains("memory leak"),
                        "seed {seed}, input {input}: {e}\n{ran}\n{text}"
                    );
                }
                Err(e) => {
                    wrong = true;
                    assert!(
                        e.contains("heap-use-after-free") || e.contains("double-free"),
                        "seed {seed}, input {input}: {e}\n{text}"
                    );
                    assert!(
                        ran.contains("invalid pointer access"),
                        "seed {seed}, input {input}: {e}\n{ran}\n{text}"
                    );
                }
            }
        }
        if bug == list_gen::Bug::None {
            assert!(!wrong, "seed {seed}: a program without a bug went wrong\n{text}");
        }
        bad += wrong as usize;
        if seed % 4 != 0 {
            continue;
        }
        let (_, out) = focuscheck(&[
            "check",
            "--property",
            "valid-memsafety",
            "--format",
            "json",
            "--timeout",
            "60",
            f,
        ]);
        let doc: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}"));
        let verdicts: Vec<&str> = doc["conditions"]
            .as_array()
            .expect("conditions")
            .iter()
            .map(|c| c["verdict"].as_str().unwrap_or(""))
            .collect();
        let unsafe_ = verdicts.contains(&"unsafe");
        if wrong {
            assert!(!verdicts.iter().all(|v| *v == "safe"), "seed {seed}: safe\n{text}");
        } else {
            assert!(!unsafe_, "seed {seed}: unsafe, gcc runs fine\n{out}\n{text}");
        }
        decided += (unsafe_ == wrong && (wrong || verdicts.iter().all(|v| *v == "safe"))) as usize;
    }
    eprintln!("{bad} of {n} list programs go wrong on some input; {decided} checked programs decided");
}

use crate::fnptr_gen;

/// Generated function pointer programs (`support/fnptr_gen.rs`): the
/// interpreter computes gcc's `out` on every input; where a null function
/// pointer is called on input 2, gcc's program stops there and so does the
/// interpreter, and `check` finds it; the verdicts agree with every run.
#[test]
fn generated_function_pointer_programs_agree_with_gcc_and_every_verdict() {
    let n = programs_or(20);
    let dir = tempfile::tempdir().expect("a temporary directory");
    for seed in 0..n {
        let (text, null) = fnptr_gen::program(seed);
        let name = format!("f{seed}");
        if !null {
            let want = interpreter_agrees(dir.path(), &name, seed, &text, 20);
            if seed % 2 == 0 {
                engines_agree(dir.path(), &name, seed, &text, &want, true);
                // No run calls through an invalid pointer: every call's
                // condition is safe (or unknown), never unsafe.
                let file = dir.path().join(format!("{name}.fc.c"));
                let (_, out) = focuscheck(&["check", "--timeout", "60", file.to_str().expect("utf-8")]);
                assert!(
                    out.lines().next().is_some_and(|l| l.contains(" 0 unsafe")),
                    "seed {seed}:\n{out}\n{text}"
                );
            }
            continue;
        }
        let file = dir.path().join(format!("{name}.fc.c"));
        std::fs::write(&file, format!("{text}  return 0;\n}}\n")).expect("write");
        let f = file.to_str().expect("utf-8 path");
        for (input, gcc) in sanitized_gcc::runs(dir.path(), &name, &text).into_iter().enumerate() {
            let (_, ran) = focuscheck(&["run", "--choices", &input.to_string(), f]);
            match gcc {
                Ok(want) => assert_eq!(run_out(&ran), Some(want), "seed {seed}, input {input}\n{ran}\n{text}"),
                Err(e) => {
                    assert_eq!(input, 2, "seed {seed}: gcc stopped on input {input}: {e}\n{text}");
                    assert!(
                        ran.contains("call through an invalid function pointer") && ran.contains("`z(1)`"),
                        "seed {seed}: gcc calls a null pointer, the interpreter:\n{ran}\n{text}"
                    );
                }
            }
        }
        let (_, out) = focuscheck(&["check", "--timeout", "60", f]);
        assert!(
            out.contains("unsafe: function pointer call in `z(1)`"),
            "seed {seed}:\n{out}\n{text}"
        );
    }
}

use crate::array_gen;

/// Generated programs with arrays of arrays (`support/array_gen.rs`): the
/// interpreter computes gcc's `out` on each input, and stops with a bounds
/// error exactly where UBSan stops gcc's build (`-fsanitize=bounds`: an
/// index past its dimension, inside the object; `vla-bound`: a
/// variable-length array of size 0); `check` is unsafe on such a
/// program's bounds, and otherwise never contradicts a run on `out`.
#[test]
fn generated_array_of_array_programs_agree_with_gcc_and_every_verdict() {
    let n = programs_or(8);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (mut stopped, mut found_bugs) = (0, 0);
    for seed in 0..n {
        let (text, bug) = array_gen::program(seed);
        let name = format!("a{seed}");
        if bug == array_gen::Bug::None {
            let want = interpreter_agrees(dir.path(), &name, seed, &text, 300);
            // Every eighth: the verdicts (variable-length arrays of
            // `--vla-elems` input elements make them slow: `unknown` is
            // allowed, a wrong verdict never).
            if seed % 8 == 0 {
                engines_on(dir.path(), &name, seed, &text, &want, false, true);
                // No run leaves a dimension: no bounds condition is unsafe.
                let f = dir.path().join(format!("{name}.fc.c"));
                let (_, out) = focuscheck(&["check", "--timeout", "20", f.to_str().expect("utf-8")]);
                assert!(out.contains(" 0 unsafe"), "seed {seed}:\n{out}\n{text}");
            }
            continue;
        }
        let file = dir.path().join(format!("{name}.fc.c"));
        std::fs::write(&file, format!("{text}  return 0;\n}}\n")).expect("write");
        let f = file.to_str().expect("utf-8 path");
        for (input, gcc) in sanitized_gcc::runs(dir.path(), &name, &text).into_iter().enumerate() {
            let choices = format!("{input}{}", ",1".repeat(300));
            let (_, ran) = focuscheck(&["run", "--choices", &choices, f]);
            match gcc {
                Ok(want) => assert_eq!(run_out(&ran), Some(want), "seed {seed}, input {input}:\n{ran}\n{text}"),
                Err(e) => {
                    stopped += 1;
                    let (sanitizer, at) = match bug {
                        array_gen::Bug::Index => ("out of bounds for type", "g2[0]["),
                        array_gen::Bug::VlaPtr => ("dynamic-stack-buffer-overflow", "row[k]"),
                        _ => ("variable length array bound evaluates to non-positive value 0", "in"),
                    };
                    assert!(e.contains(sanitizer), "seed {seed}, input {input}: {e}\n{text}");
                    let said = match bug {
                        array_gen::Bug::Index => format!("index out of bounds in `{at}"),
                        array_gen::Bug::VlaPtr => format!("invalid pointer access in `{at}"),
                        _ => "variable-length array size `in` is not positive".to_string(),
                    };
                    assert!(
                        ran.contains(&said),
                        "seed {seed}, input {input}: gcc stops at `{at}`, the interpreter:\n{ran}\n{text}"
                    );
                }
            }
        }
        let (_, out) = focuscheck(&["check", "--vla-elems", "16", "--timeout", "60", f]);
        let what = match bug {
            array_gen::Bug::Index => "array bounds in `g2[0][",
            array_gen::Bug::VlaPtr => "pointer access in `row[k]",
            _ => "variable-length array size `in`",
        };
        // Found, or (the machine loaded, the timeout reached) unknown;
        // never safe.
        let found = out.contains(&format!("unsafe: {what}"));
        assert!(
            found || out.contains(&format!("unknown: {what}")),
            "seed {seed}:\n{out}\n{text}"
        );
        found_bugs += usize::from(found);
    }
    assert!(stopped > 0, "no program went wrong on any input");
    assert!(found_bugs > 0, "`check` found no program's error");
}
