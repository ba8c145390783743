//! A random generator of programs with designated initialisers (C11
//! 6.7.9): `.field`, `[index]` (also by an enumeration constant) and
//! nested `.a.b`, `[i].f` designators, in any order, overriding earlier
//! ones, mixed with positional elements; for globals and locals, structs
//! with nested structs, array fields and `char` arrays, arrays of structs
//! and arrays sized by their initialiser; what is not written is zero.
//!
//! The one input is `in`, in 0..=2; each program stores sums of what its
//! initialisers made in `int out[4]`; `main` is left open (the caller
//! ends it).

#![allow(dead_code)]

use super::xorshift::Rng;
use std::fmt::Write as _;

pub const PRELUDE: &str = "\
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int c);
void __VERIFIER_assert(int c) { if (!c) __VERIFIER_error(); }
enum slot { S0, S1, S2 = 4, S3 };
struct P { int x; int y; };
struct R { char name[6]; struct P at; int tags[3]; short id; };
int out[4];
";

/// A scalar value: a literal, an enumeration constant, or (in a local's
/// initialiser only) the input.
fn scalar(r: &mut Rng, local: bool) -> String {
    match r.below(if local { 5 } else { 4 }) {
        0 => format!("{}", r.below(50) as i64 - 20),
        1 => r.pick(&["S1", "S2", "S3 * 2"]).to_string(),
        2 => format!("{}", r.below(40_000) as i64 - 20_000),
        3 => format!("'{}'", r.pick(&["a", "z", "0"])),
        _ => format!("in * {} + {}", r.below(7), r.below(5)),
    }
}

/// The initialiser of a `struct P`: positional or designated.
fn p_init(r: &mut Rng, local: bool) -> String {
    match r.below(4) {
        0 => format!("{{ {}, {} }}", scalar(r, local), scalar(r, local)),
        1 => format!("{{ .y = {} }}", scalar(r, local)),
        2 => format!("{{ .y = {}, .x = {} }}", scalar(r, local), scalar(r, local)),
        _ => "{ 0 }".to_string(),
    }
}

/// One element of a `struct R` initialiser's designated list.
fn r_element(r: &mut Rng, local: bool) -> String {
    match r.below(8) {
        0 => format!(".name = \"{}\"", r.pick(&["ab", "", "xyz12", "q"])),
        1 => format!(".at = {}", p_init(r, local)),
        2 => format!(".at.{} = {}", r.pick(&["x", "y"]), scalar(r, local)),
        3 => format!(".tags = {{ [{}] = {} }}", r.below(3), scalar(r, local)),
        4 => format!(".tags[{}] = {}", r.below(3), scalar(r, local)),
        5 => format!(".id = {}", scalar(r, local)),
        6 => format!(".name[{}] = {}", r.below(5), r.pick(&["'k'", "66", "S3"])),
        _ => format!(".tags = {{ {}, {} }}", scalar(r, local), scalar(r, local)),
    }
}

/// A designated `struct R` initialiser of 1 to 4 elements (later ones
/// override earlier ones, as C says).
fn r_init(r: &mut Rng, local: bool) -> String {
    let n = 1 + r.below(4);
    let elems: Vec<String> = (0..n).map(|_| r_element(r, local)).collect();
    format!("{{ {} }}", elems.join(", "))
}

/// An `int` array initialiser of `len >= 2` elements: index designators
/// (also enumeration constants), each maybe followed by a positional
/// element (which goes to the next index), in any order.
fn int_array_init(r: &mut Rng, len: u64, local: bool) -> String {
    let mut elems = Vec::new();
    for _ in 0..1 + r.below(3) {
        let k = r.below(len - 1);
        let index = match (k, r.below(2)) {
            (0, 0) => "S0".to_string(),
            (1, 0) => "S1".to_string(),
            _ => k.to_string(),
        };
        elems.push(format!("[{index}] = {}", scalar(r, local)));
        if r.below(2) == 0 {
            elems.push(scalar(r, local));
        }
    }
    format!("{{ {} }}", elems.join(", "))
}

/// A program initialising globals and locals with designators and
/// storing sums of every member in `out`.
pub fn program(seed: u64) -> String {
    let mut r = Rng(seed.wrapping_mul(0xA076_1D64_78BD_642F) | 1);
    let mut s = String::from(PRELUDE);
    let _ = writeln!(s, "struct R gr = {};", r_init(&mut r, false));
    let _ = writeln!(
        s,
        "struct P gp[3] = {{ [{}] = {}, [0].y = {} }};",
        1 + r.below(2),
        p_init(&mut r, false),
        scalar(&mut r, false)
    );
    let _ = writeln!(s, "int ga[6] = {};", int_array_init(&mut r, 6, false));
    let _ = writeln!(s, "int gopen[] = {{ [S3] = {}, [S1] = 2 }};", scalar(&mut r, false));
    s.push_str("int main(void) {\n  int in = __VERIFIER_nondet_int();\n  __VERIFIER_assume(0 <= in && in <= 2);\n");
    let _ = writeln!(s, "  struct R lr = {};", r_init(&mut r, true));
    let _ = writeln!(s, "  struct P lp = {};", p_init(&mut r, true));
    let _ = writeln!(s, "  int la[4] = {};", int_array_init(&mut r, 4, true));
    let _ = writeln!(
        s,
        "  struct R lrs[2] = {{ [1] = {}, [0].at.x = {} }};",
        r_init(&mut r, true),
        scalar(&mut r, true)
    );
    s.push_str(
        "  out[0] = gr.name[0] + gr.name[1] + gr.name[5] + gr.at.x + gr.at.y + gr.tags[0] + gr.tags[1] + gr.tags[2] + gr.id;\n",
    );
    s.push_str("  out[0] += 7 * (gp[0].x + gp[0].y + gp[1].x + gp[1].y + gp[2].x + gp[2].y);\n");
    s.push_str(
        "  out[1] = lr.name[0] + lr.name[2] + lr.name[4] + lr.at.x + lr.at.y + lr.tags[0] + lr.tags[2] + lr.id;\n",
    );
    s.push_str("  out[1] += 3 * (lp.x + lp.y) + (int)sizeof gopen;\n");
    s.push_str("  out[2] = 0;\n  for (int i = 0; i < 6; i++) out[2] += (i + 1) * ga[i];\n");
    s.push_str("  for (int i = 0; i < 4; i++) out[2] += (i + 11) * la[i] + gopen[i];\n");
    s.push_str("  out[3] = lrs[0].at.x + lrs[0].at.y + lrs[0].name[0] + lrs[0].tags[1] + lrs[0].id;\n");
    s.push_str("  out[3] += 5 * (lrs[1].at.x + lrs[1].at.y + lrs[1].name[1] + lrs[1].tags[2] + lrs[1].id);\n");
    s
}
