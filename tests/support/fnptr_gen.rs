//! A random generator of programs with function pointers (issue 52): tables
//! of small functions indexed by the input, callbacks passed as parameters
//! (also of function type, `int h(int)`), stored in struct fields and
//! reached through a pointer to the struct, compared with functions and
//! with null, returned by functions (`int (*pick_un(int k))(int)`, and
//! `unop pick_t(int k)` through a typedef), a function declared with a
//! typedef name of its type (`binop_t g_mul;`) and, on some seeds, a call
//! through a null pointer on input 2.
//!
//! The one input is `in`, in 0..=2; each program stores what it computed
//! in `int out[4]`; `main` is left open (the caller ends it).

#![allow(dead_code)]

use super::xorshift::Rng;
use std::fmt::Write as _;

pub const PRELUDE: &str = "\
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int c);
void __VERIFIER_assert(int c) { if (!c) __VERIFIER_error(); }
typedef int (*unop)(int);
typedef int binop_t(int, int);
int out[4];
int acc;
int f_inc(int x) { return x + 1; }
int f_dbl(int x) { return x * 2; }
int f_neg(int x) { return -x; }
int f_acc(int x) { acc += x; return acc; }
int g_add(int a, int b) { return a + b; }
int g_sub(int a, int b) { return a - b; }
int g_max(int a, int b) { return a > b ? a : b; }
unop utab[3] = { f_inc, f_dbl, 0 };
binop_t *btab[3] = { g_add, g_sub, &g_max };
struct cb { unop f; int k; };
struct cb gcb = { f_neg, 3 };
int apply(unop f, int x) { return f(x); }
int fold(binop_t *g, int a, int b, int c) { return g(g(a, b), c); }
int twice(int h(int), int x) { return h(h(x)); }
void set_cb(struct cb *c, unop f) { c->f = f; c->k++; }
int (*pick_un(int k))(int) { return k == 0 ? f_inc : k == 1 ? f_dbl : f_neg; }
unop pick_t(int k) { return utab[k % 2]; }
binop_t g_mul;
int (*(*pick_ptr)(int))(int) = pick_un;
int g_mul(int a, int b) { return a * b % 97; }
";

/// Expressions of type `unop`.
const UNOPS: &[&str] = &[
    "f_inc",
    "f_dbl",
    "f_neg",
    "f_acc",
    "&f_inc",
    "utab[0]",
    "utab[1]",
    "gcb.f",
    "lc.f",
    "cp->f",
    "pick_un(in)",
    "pick_t(in + 1)",
    "pick_ptr(2)",
];

fn val(r: &mut Rng) -> String {
    match r.below(4) {
        0 => format!("{}", r.below(9) as i64 - 3),
        1 => r.pick(&["v", "w", "in", "acc"]).to_string(),
        2 => format!("v - {}", r.below(5)),
        _ => format!("w + in * {}", r.below(3)),
    }
}

/// A program, and whether it calls a null function pointer on input 2.
pub fn program(seed: u64) -> (String, bool) {
    let mut r = Rng(seed.wrapping_mul(0xD6E8_FEB8_6659_FD93) | 1);
    let mut s = String::from(PRELUDE);
    s.push_str("int main(void) {\n  int in = __VERIFIER_nondet_int();\n  __VERIFIER_assume(0 <= in && in <= 2);\n");
    s.push_str("  int v = in, w = 3;\n  unop p = f_inc;\n  binop_t *q = &g_sub;\n");
    s.push_str("  struct cb lc = { f_dbl, 1 };\n  struct cb *cp = &lc;\n");
    let mut third_set = false;
    for _ in 0..(5 + r.below(9)) {
        let line = match r.below(16) {
            13 => format!(
                "v = pick_un({})({}) + (*pick_t(in))({});",
                r.below(3),
                val(&mut r),
                val(&mut r)
            ),
            14 => format!(
                "w = fold(g_mul, v, w, {}) + (pick_ptr(in) == pick_un(in));",
                val(&mut r)
            ),
            15 => format!(
                "q = {}; w = q(v, {});",
                r.pick(&["g_mul", "&g_mul", "btab[in]"]),
                val(&mut r)
            ),
            0 => format!("p = {};", r.pick(UNOPS)),
            1 => format!("if (in == {}) p = {};", r.below(3), r.pick(UNOPS)),
            2 => format!("v = p({});", val(&mut r)),
            3 => format!("v = (*p)({});", val(&mut r)),
            4 => format!("w = utab[in % 2]({});", val(&mut r)),
            5 => format!("w = btab[in]({}, {});", val(&mut r), val(&mut r)),
            6 => format!("v = apply({}, {});", r.pick(UNOPS), val(&mut r)),
            7 => format!("v = twice(p, {}); w = fold(q, v, w, in);", val(&mut r)),
            8 => format!("q = btab[{}];", r.below(3)),
            9 => format!("set_cb({}, p); v = cp->f({});", r.pick(&["cp", "&gcb"]), val(&mut r)),
            10 => {
                third_set = true;
                format!("utab[2] = {};", r.pick(UNOPS))
            }
            11 if third_set => format!("v = utab[in]({});", val(&mut r)),
            _ => format!(
                "v += (p == {}) + 2 * (q != g_add) + 4 * (utab[2] == 0) + 8 * (gcb.f != 0);",
                r.pick(UNOPS)
            ),
        };
        // Values stay small: no overflow however the calls compose.
        let _ = writeln!(s, "  {line} v %= 1000; w %= 1000; acc %= 1000;");
    }
    let null = seed % 3 == 1;
    if null {
        s.push_str("  unop z = f_neg;\n  if (in == 2) z = 0;\n  v += z(1);\n");
    }
    s.push_str("  out[0] = v;\n  out[1] = w;\n  out[2] = acc + lc.k + gcb.k;\n");
    s.push_str("  out[3] = (p == f_inc) + 2 * (q == g_add) + 4 * (lc.f == f_dbl) + 8 * (utab[2] != 0);\n");
    (s, null)
}
