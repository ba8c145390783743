//! A small random generator of pointer programs for the points-to tests:
//! pointers to globals, locals, array elements and struct fields, a pointer
//! to a pointer and stores through it, an array of pointers, a pointer
//! field of a struct, pointers passed to and returned from functions (an
//! out-parameter too), a pointer chosen by an input, a pointer cast
//! through `void *`, and heap objects; names shadowing the object pointed
//! to (a parameter and a block local named like the global, a `static`
//! local like the global its pointer reaches, a block local like `main`'s
//! taken `l0`), a pointer to a block local kept after its block, and
//! pointers into fields of array elements moved out and back, an array
//! field of an array of structs (and of a heap struct) by name and through
//! pointers that may step past its row. Every run
//! ends: no loops but bounded ones, calls only of functions defined before.
//!
//! The one input is `in`, in 0..=2, so a run is one choice of `in`.
//! Needs `support/gen.rs` beside it (its `Rng`).

#![allow(dead_code)]

use super::gen::Rng;
use std::fmt::Write as _;

const PRELUDE: &str = "\
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int c);
void __VERIFIER_assert(int c) { if (!c) reach_error(); }
struct S { int v; int *f; };
int x0, x1, x2 = 5;
int arr[3];
struct S s0, s1;
int *gp[2];
void set(int *r, int v) { *r = v; }
int get(int *r) { return *r; }
void set2(int *r, int v) { set(r, v + 1); }
void set3(int *r, int v) { set2(r, v * 2); }
int *pick(int c, int *a, int *b) { if (c) return a; return b; }
void aim(int **pp, int *t) { *pp = t; }
void *to_void(int *p) { return p; }
struct S sa[2];
struct R { int k; int row[3]; };
struct R ra[2];
void shadow(int *x0, int v) { int *t = x0; { int x0 = v; *t = x0 + 1; } }
int bump(int *p) { static int x1 = 0; x1++; *p += x1; return x1; }
";

/// Int locations every pointer may be aimed at.
const TARGETS: &[&str] = &[
    "x0",
    "x1",
    "x2",
    "arr[0]",
    "arr[2]",
    "l0",
    "l1",
    "s0.v",
    "s1.v",
    "ra[1].row[2]",
    "ra[0].row[0]",
];

fn value(r: &mut Rng) -> String {
    match r.below(4) {
        0 => format!("{}", r.below(7) as i64 - 2),
        1 => "in".to_string(),
        2 => format!("*q + {}", r.below(3)),
        _ => r.pick(TARGETS).to_string(),
    }
}

/// A pointer program; `heap`: with a `malloc`'d array `h` among the targets.
pub fn program(seed: u64, heap: bool) -> String {
    let mut r = Rng::new(seed);
    let mut s = String::from(PRELUDE);
    s.push_str("int main(void) {\n  int in = __VERIFIER_nondet_int();\n  __VERIFIER_assume(0 <= in && in <= 2);\n");
    s.push_str("  int l0 = 1, l1 = 2;\n  int *p = &x0;\n  int *q = &l0;\n  int **pp = &p;\n");
    s.push_str("  gp[0] = &x1;\n  gp[1] = &arr[1];\n  s0.f = &x2;\n  struct S *sp = &s1;\n  sp->f = &l1;\n");
    let mut targets: Vec<&str> = TARGETS.to_vec();
    if heap {
        s.push_str("  int *h = malloc(2 * sizeof(int));\n  if (!h) return 0;\n  h[0] = in;\n  h[1] = 3;\n");
        targets.push("h[1]");
        s.push_str("  struct R *hr = malloc(sizeof *hr);\n  if (!hr) return 0;\n  hr->row[1] = in;\n");
        targets.push("hr->row[1]");
    }
    for _ in 0..(4 + r.below(9)) {
        let t = targets[r.below(targets.len() as u64) as usize];
        let line = match r.below(24) {
            0 => format!("p = &{t};"),
            1 => format!("if (in == {}) p = &{t};", r.below(3)),
            2 => "q = p;".to_string(),
            3 => format!("*p = {};", value(&mut r)),
            4 => format!("**pp = {};", value(&mut r)),
            5 => r.pick(&["pp = &q;", "pp = &p;"]).to_string(),
            6 => format!("*pp = &{t};"),
            7 => format!("gp[{}] = &{t};", r.below(2)),
            8 => format!("{} = gp[{}];", r.pick(&["p", "q"]), r.below(2)),
            9 => format!("s0.f = &{t};"),
            10 => format!("{} = {}->f;", r.pick(&["p", "q"]), r.pick(&["sp", "(&s0)"])),
            11 => format!("set({}, {});", r.pick(&["p", "q"]), value(&mut r)),
            12 => format!("{} = get({});", r.pick(TARGETS), r.pick(&["p", "q", "s0.f"])),
            13 => format!("q = pick(in == {}, &{t}, q);", r.below(3)),
            14 => format!("aim(&{}, &{t});", r.pick(&["p", "q"])),
            15 => "{ void *v = to_void(p); q = (int *)v; }".to_string(),
            16 => format!("set3(&{t}, {});", value(&mut r)),
            17 => format!("*{}->f += {};", r.pick(&["sp", "(&s0)"]), r.below(3)),
            18 => format!("if (in != {}) {{ q = &{t}; *q = {}; }}", r.below(3), value(&mut r)),
            20 => format!("shadow({}, {});", r.pick(&["p", "q", "&x0", "&l0"]), value(&mut r)),
            21 => format!(
                "{{ int l0 = {}; int *b = &l0; *b += 1; {} = b; }}",
                value(&mut r),
                r.pick(&["p", "q"])
            ),
            22 => format!(
                "q = &sa[{}].v; *(q + 1 - 1) = {}; if (in == {}) q = q + 1;",
                r.below(2),
                value(&mut r),
                r.below(3)
            ),
            23 => format!("x1 = bump(&{t});"),
            19 => format!(
                "{{ int *w = ra[{}].row; w[{}] = {}; if (in == {}) w = w + 1; q = w + 1; }}",
                r.below(2),
                r.below(3),
                value(&mut r),
                r.below(3)
            ),
            _ => format!("*gp[{}] = {};", r.below(2), value(&mut r)),
        };
        let _ = writeln!(s, "  {line}");
    }
    // Checks that fail on some runs, hold on others, or on all: each its
    // own `reach_error()`.
    for _ in 0..3 {
        let checked = r.pick(&[
            "x0",
            "x1",
            "x2",
            "l0",
            "l1",
            "arr[0]",
            "arr[1]",
            "s0.v",
            "s1.v",
            "*p",
            "*q",
            "ra[1].row[1]",
        ]);
        let _ = writeln!(s, "  if ({checked} == {}) reach_error();", r.below(5) as i64 - 1);
    }
    s.push_str("  return 0;\n}\n");
    s
}

/// A function for `diff --entry f` with pointer and struct parameters,
/// `int f(int *a, struct P *sp, struct P s, int n)`: reads and writes
/// through them (each guarded, so every access is valid), pointer
/// arithmetic and a statement expression of pointer value; and a mutant of
/// it with one constant moved by one, which may or may not change what it
/// returns.
pub fn entry_function(seed: u64) -> (String, String) {
    let mut r = Rng::new(seed);
    let stmts: Vec<(&str, i64)> = (0..(3 + r.below(5)))
        .map(|_| {
            let k = r.below(4) as i64;
            let s = *r.pick(&[
                "if (a) a[n] = a[n] + K;",
                "if (a) r = r + a[K];",
                "if (sp) sp->v = s.w + K;",
                "if (sp) r = r + sp[n].w - K;",
                "s.v = s.v + K;",
                "r = r + s.v - K;",
                "if (a && sp) a[K] = sp->v;",
                "{ int *q = a; if (q) { q = q + n; r = r + *q + K; } }",
                "if (r > K) r = r - n;",
                "if (a) { int *e = ({ int *t = a + K; t; }); r = r + *e; }",
                "if (K == 0) free(0);",
            ]);
            (s, k)
        })
        .collect();
    let moved = r.below(stmts.len() as u64) as usize;
    let text = |mutant: bool| {
        let mut s = String::from(
            "#include <stdlib.h>\nstruct P { int v; int w; };\nint f(int *a, struct P *sp, struct P s, int n) {\n  int r = 0;\n  if (n < 0 || n > 3) return -1;\n",
        );
        for (i, (t, k)) in stmts.iter().enumerate() {
            let k = if mutant && i == moved { k + 1 } else { *k };
            let _ = writeln!(s, "  {}", t.replace('K', &k.to_string()));
        }
        s.push_str("  return r;\n}\n");
        s
    };
    (text(false), text(true))
}
