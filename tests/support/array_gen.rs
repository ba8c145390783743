//! Generated programs with arrays of arrays: global, local and `static`
//! 2-D and 3-D arrays of sizes 1-4, nested and partial initialisers (with
//! strings for `char` rows), arrays of structs, rows decayed to `int *`,
//! arrays passed as `int m[][C]` and `int (*m)[C]`, pointers to rows
//! moved by whole rows (`g2 + i`, `pr++` as a value, `pr -= k`, `--pr`,
//! `pr - g2`, `*(*(l + i) + j)`, loops `pr < l + R`, `g3 + i` of a 3-D
//! array, `*pr` a row), (some seeds) the arrays' types named by typedefs
//! (`typedef int row_t[C]; row_t g2[R];`, `cube_t`, `typedef row_t *rowp_t`,
//! `sizeof(row_t)`),
//! `sizeof` of arrays and rows, indices computed from the input, and
//! (some seeds) an index that leaves its dimension, but not the object,
//! on one input: an error in C that gcc's `-fsanitize=bounds` stops at;
//! variable-length arrays `v[n]`, `w[n][C]` sized from the input (their
//! size changed after the declaration, their rows passed, `sizeof`), and
//! (other seeds) one of size `in`, which input 0 makes 0: an error in C
//! that `-fsanitize=vla-bound` stops at; pointers into variable-length
//! arrays (the array or a row passed, `&v[i]`), and (other seeds) a read
//! through one past the run's size on input 0, which AddressSanitizer
//! stops at.
//!
//! Each program reads one input `in` in `0..=2` and ends by storing what it
//! computed in `int out[4]`; `main` is left open for the caller to close.

#![allow(dead_code)]

use std::fmt::Write as _;

// The includer has `support/xorshift.rs` as `xorshift`.
use super::xorshift::Rng;

/// The sizes of a program's arrays.
struct Sizes {
    r: u64,
    c: u64,
    lr: u64,
    lc: u64,
}

/// What goes wrong in a program, on one input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    None,
    /// `g2[0][C - 2 + in]`: past its dimension on input 2.
    Index,
    /// `int z[in]`: size 0 on input 0.
    VlaSize,
    /// `rsum(z, 2)` of `int z[1 + in]`: an access through a pointer past
    /// the array on input 0 (AddressSanitizer's
    /// dynamic-stack-buffer-overflow).
    VlaPtr,
}

/// Program `seed` and what goes wrong in it.
pub fn program(seed: u64) -> (String, Bug) {
    let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let z = Sizes {
        r: 1 + r.below(3),
        c: 2 + r.below(3),
        lr: 2 + r.below(2),
        lc: 1 + r.below(4),
    };
    let (rr, cc, lr, lc) = (z.r, z.c, z.lr, z.lc);
    let mut s = String::from(
        "extern void __VERIFIER_error(void);\nextern int __VERIFIER_nondet_int(void);\n\
         extern void __VERIFIER_assume(int c);\nvoid __VERIFIER_assert(int c) { if (!c) __VERIFIER_error(); }\n\
         struct P { int x; int y; };\nint out[4];\n",
    );
    // Some seeds name the array types with typedefs: a row, a 3-D array,
    // an array of rows and a pointer to rows.
    let named = r.below(2) == 0;
    if named {
        let _ = writeln!(
            s,
            "typedef int row_t[{cc}];\ntypedef int cube_t[2][2][3];\ntypedef int lrow_t[{lc}];\ntypedef row_t *rowp_t;"
        );
        let _ = writeln!(s, "row_t g2[{rr}] = {};", nested(&mut r, rr, cc));
        s.push_str("cube_t g3 = {{{1, 2, 3}, {4}}, {{5}, {6, 7}}};\n");
    } else {
        let _ = writeln!(s, "int g2[{rr}][{cc}] = {};", nested(&mut r, rr, cc));
        s.push_str("int g3[2][2][3] = {{{1, 2, 3}, {4}}, {{5}, {6, 7}}};\n");
    }
    s.push_str("struct P gp[2][2] = {{{1, 2}}, {{3, 4}, {5, 6}}};\n");
    let _ = writeln!(
        s,
        "int rsum(int *row, int n) {{ int t = 0; for (int k = 0; k < n; k++) t = t * 3 + row[k]; return t; }}\n\
         int msum(int m[][{cc}], int rows) {{ int t = 0; for (int i = 0; i < rows; i++) for (int j = 0; j < {cc}; j++) t += m[i][j] * (i + 2 * j + 1); return t; }}\n\
         void mset({mrow}, int i, int j, int v) {{ m[i][j] = v; }}\n\
         int count(void) {{ static int seen[2][2]; seen[1][0] += 1; return seen[1][0]; }}\n\
         int msum_vla(int rows, int m[][{lc}]) {{ int t = 0; for (int i = 0; i < rows; i++) t += m[i][{lc} - 1] * (i + 1); return t; }}",
        mrow = if named { "rowp_t m".to_string() } else { format!("int (*m)[{cc}]") }
    );
    s.push_str("int main(void) {\n  int in = __VERIFIER_nondet_int();\n  __VERIFIER_assume(0 <= in && in <= 2);\n");
    if r.below(2) == 0 {
        let decl = if named {
            format!("lrow_t l[{lr}]")
        } else {
            format!("int l[{lr}][{lc}]")
        };
        let _ = writeln!(s, "  {decl} = {};", nested(&mut r, lr, lc));
    } else {
        let _ = writeln!(
            s,
            "  int l[{lr}][{lc}];\n  for (int i = 0; i < {lr}; i++) for (int j = 0; j < {lc}; j++) l[i][j] = i * {lc} + j - in;"
        );
    }
    s.push_str("  char str[2][4] = {\"ab\", \"xyz\"};\n  int acc = 0;\n");
    let bug = match seed % 6 {
        3 => Bug::Index,
        4 => Bug::VlaSize,
        5 => Bug::VlaPtr,
        _ => Bug::None,
    };
    // `v` and `w` only where nothing goes wrong: they make `check` slow.
    let vlas = bug == Bug::None;
    let _ = writeln!(
        s,
        "  int n = 1 + in % 2 + {};\n  int v[{vl}], w[{vl}][{lc}];\n  n = n + 5;\n  for (int i = 0; i < n - 5; i++) {{ v[i] = i * 2 - in; for (int j = 0; j < {lc}; j++) w[i][j] = i + j * in; }}",
        r.below(3),
        vl = if vlas { "n" } else { "4" }
    );
    for _ in 0..(5 + r.below(8)) {
        let _ = writeln!(s, "  {}", statement(&mut r, &z));
    }
    for _ in 0..(1 + r.below(3)) {
        let _ = writeln!(s, "  {}", vla_statement(&mut r, lc));
    }
    if bug == Bug::VlaSize {
        s.push_str("  int z[in];\n  z[0] = 3;\n  acc += z[0] + (int)sizeof z;\n");
    }
    if bug == Bug::VlaPtr {
        s.push_str("  { int z[1 + in]; for (int k = 0; k <= in; k++) z[k] = k + 2; acc += rsum(z, 2); }\n");
    }
    if bug == Bug::Index {
        // On input 2 the column is `cc`: inside `g2` when it has another
        // row, outside its dimension always.
        let _ = writeln!(s, "  acc += g2[0][{cc} - 2 + in];");
    }
    s.push_str("  out[0] = acc + rsum(g2[0], sizeof g2[0] / sizeof g2[0][0]) + (int)sizeof g2 * 100;\n");
    let _ = writeln!(
        s,
        "  out[1] = msum(g2, {rr}) + g3[1][1][1] * 3 + g3[0][1][2] + (int)sizeof g3[1] + (int)sizeof l;"
    );
    let _ = writeln!(
        s,
        "  out[2] = rsum(l[{}], {lc}) + str[1][2] + str[0][2] * 5 + count();",
        lr - 1
    );
    s.push_str("  out[3] = gp[0][1].x + gp[1][0].y * 3 + gp[1][1].x * 7 + g2[0][1] - l[1][0];\n");
    s.push_str("  { int t = 0; for (int i = 0; i < n - 5; i++) t += v[i]; out[3] += t * 11; }\n");
    s.push_str("  out[3] += (int)sizeof v * 13 + (int)sizeof w + (int)sizeof w[0] * 3;\n");
    if named {
        s.push_str("  out[2] += (int)sizeof(row_t) * 17 + (int)sizeof(cube_t) * 19 + (int)sizeof(lrow_t[2]);\n");
    }
    (s, bug)
}

/// A statement on `v[n]` and `w[n][lc]` (`n - 5` their size by now,
/// when they are variable-length arrays): elements, rows, pointers into
/// them and the arrays passed to functions.
fn vla_statement(r: &mut Rng, lc: u64) -> String {
    let i: &str = r.pick(&["0", "in % (n - 5)", "n - 6", "(n - 5) / 2"]);
    let j = format!("{}", r.below(lc));
    match r.below(7) {
        0 => format!("v[{i}] += w[{i}][{j}] + in;"),
        1 => format!("w[{i}][{j}] = v[{i}] * 3 - acc % 7;"),
        2 => format!("acc += rsum(w[{i}], {lc}) + msum_vla(n - 5, w);"),
        3 => format!("{{ int *vp = v; vp[{i}] -= 2; acc += v[{i}]; }}"),
        4 => format!("{{ int *vp = &v[{i}]; *vp += in + 1; acc += vp[0]; }}"),
        5 => "acc += rsum(v, n - 5) * 2;".to_string(),
        _ => format!("{{ int *wp = &w[{i}][{j}]; *wp = acc % 9; acc += rsum(w[0], (n - 5) * {lc}); }}"),
    }
}

/// `{{...}, {...}}` for `rows` x `cols`, some rows and elements left out.
fn nested(r: &mut Rng, rows: u64, cols: u64) -> String {
    if r.below(4) == 0 {
        // Braces elided: a flat list.
        let n = 1 + r.below(rows * cols);
        let xs: Vec<String> = (0..n).map(|_| format!("{}", r.below(19) as i64 - 9)).collect();
        return format!("{{{}}}", xs.join(", "));
    }
    let given = 1 + r.below(rows);
    let rows: Vec<String> = (0..given)
        .map(|_| {
            let n = 1 + r.below(cols);
            let xs: Vec<String> = (0..n).map(|_| format!("{}", r.below(19) as i64 - 9)).collect();
            format!("{{{}}}", xs.join(", "))
        })
        .collect();
    format!("{{{}}}", rows.join(", "))
}

/// An index below `n`: a constant or computed from `in`.
fn index(r: &mut Rng, n: u64) -> String {
    match r.below(3) {
        0 => format!("{}", r.below(n)),
        1 => format!("in % {n}"),
        _ => format!("({} - in + 3) % {n}", r.below(n)),
    }
}

fn statement(r: &mut Rng, z: &Sizes) -> String {
    let (rr, cc, lr, lc) = (z.r, z.c, z.lr, z.lc);
    let g = |r: &mut Rng| format!("g2[{}][{}]", index(r, rr), index(r, cc));
    let l = |r: &mut Rng| format!("l[{}][{}]", index(r, lr), index(r, lc));
    match r.below(17) {
        11 => format!(
            "{{ int (*pr)[{cc}] = g2 + {}; int j = {}; acc += (*pr)[j] * 2 + pr[0][j]; }}",
            index(r, rr),
            index(r, cc)
        ),
        12 => format!(
            "{{ int (*pr)[{cc}] = g2; pr += {}; pr[0][{}] += in; acc += (int)(pr - g2) * 3; }}",
            index(r, rr),
            index(r, cc)
        ),
        13 => format!("acc += *(*(l + {}) + {}) * 5;", index(r, lr), index(r, lc)),
        14 => format!(
            "for (int (*pr)[{lc}] = l; pr < l + {lr}; pr++) acc += (*pr)[{}] * 2 - **pr;",
            index(r, lc)
        ),
        15 => format!(
            "{{ int (*pq)[2][3] = g3 + {}; int j = {}, k = {}; acc += (*pq)[j][k] + *(*(g3[1] + j) + k) * 2 + (int)sizeof *pq; }}",
            index(r, 2),
            index(r, 2),
            index(r, 3)
        ),
        16 => format!(
            "{{ int (*pr)[{lc}] = l + {lr}; --pr; int (*ps)[{lc}] = pr--; acc += pr[1][{j}] + (*ps)[{j}] * 3 + (int)(ps - pr) * 7 + (int)sizeof *ps; pr -= {k}; acc += (*pr)[{j}] - (int)(l - pr); }}",
            j = index(r, lc),
            k = r.below(lr - 1)
        ),
        0 => format!("{} = {} + in;", g(r), l(r)),
        1 => format!("{} += {} * 2;", l(r), g(r)),
        2 => format!("mset(g2, {}, {}, {} - in);", index(r, rr), index(r, cc), r.below(9)),
        3 => format!("acc += rsum(l[{}], {lc}) * {};", index(r, lr), 1 + r.below(2)),
        4 => format!(
            "{{ int *rp = g2[{}]; rp[{}] += in + acc % 5; }}",
            index(r, rr),
            index(r, cc)
        ),
        5 => format!("g3[{}][{}][{}] -= {};", index(r, 2), index(r, 2), index(r, 3), g(r)),
        6 => format!(
            "gp[{}][{}].{} += {};",
            index(r, 2),
            index(r, 2),
            r.pick(&["x", "y"]),
            l(r)
        ),
        7 => format!("for (int i = 0; i < {rr}; i++) for (int j = 0; j < {cc}; j++) g2[i][j] += i - j + in;"),
        8 => format!(
            "{{ int (*pr)[{cc}] = g2; acc += pr[{}][{}] * 3; }}",
            index(r, rr),
            index(r, cc)
        ),
        9 => format!("str[{}][{}] = 'a' + in;", index(r, 2), index(r, 3)),
        _ => format!("acc += count() + (int)(sizeof l[0] / sizeof l[0][0]) * {};", g(r)),
    }
}
