//! `qsort` and `bsearch` (`src/ir/libc/models.c`) against gcc, on
//! generated programs: arrays of `int` and of structs, sorted up and down
//! by comparators called through the function pointer argument, with ties,
//! then searched. What a program stores in `out` does not depend on the
//! order of elements the comparator finds equal (C leaves it unspecified,
//! and the model lets a run choose it); it must be gcc's on each input for
//! the interpreter, and `check` must prove it for every run. A program
//! that assumes the order of equal elements is kept is unsafe.
//!
//! `FOCUSCHECK_LIB_PROGRAMS=N` runs more seeds.

use crate::cli;
use crate::lib_gcc::run_out;
use crate::xorshift::Rng;
use std::fmt::Write as _;

const PRELUDE: &str = "\
extern void __VERIFIER_error(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int c);
void __VERIFIER_assert(int c) { if (!c) __VERIFIER_error(); }
#include <stdlib.h>
struct rec { int key; int id; };
int out[4];
";

/// The comparators of arrays of `int` (one element type per program: the
/// memory model follows a `void *` back to one type only).
const INT_CMPS: &str = "\
int up(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
int down(const void *a, const void *b) { return *(const int *)b - *(const int *)a; }
";

const REC_CMP: &str = "\
int by_key(const void *a, const void *b) { const struct rec *x = a, *y = b; return x->key - y->key; }
";

fn value(r: &mut Rng) -> String {
    match r.below(3) {
        0 => format!("{}", r.below(9) as i64 - 4),
        1 => format!("in * {} - {}", r.below(4), r.below(3)),
        _ => format!("{} - in", r.below(5)),
    }
}

fn program(seed: u64) -> String {
    let mut r = Rng(seed.wrapping_mul(0x9FB2_1C65_1E98_DF25) | 1);
    let n = 2 + r.below(3);
    let mut s = String::from(PRELUDE);
    let ints = seed.is_multiple_of(2);
    s.push_str(if ints { INT_CMPS } else { REC_CMP });
    s.push_str("int main(void) {\n  int in = __VERIFIER_nondet_int();\n  __VERIFIER_assume(0 <= in && in <= 2);\n");
    s.push_str("  out[0] = 0;\n  out[1] = 0;\n  out[2] = 0;\n");
    if ints {
        let vs: Vec<String> = (0..n).map(|_| value(&mut r)).collect();
        let _ = writeln!(s, "  int v[{n}] = {{ {} }};", vs.join(", "));
        let cmp = r.pick(&["up", "down"]);
        let _ = writeln!(s, "  qsort(v, {n}, sizeof v[0], {cmp});");
        let _ = writeln!(s, "  for (int i = 0; i < {n}; i++) out[i % 2] += (i + 1) * v[i];");
        let _ = writeln!(s, "  int want = {};", value(&mut r));
        let _ = writeln!(s, "  int *at = bsearch(&want, v, {n}, sizeof(int), {cmp});");
        s.push_str("  out[2] = at ? 100 * *at + (int)(at - v) : -1;\n");
        let _ = writeln!(s, "  at = bsearch(&v[{}], v, {n}, sizeof(int), {cmp});", r.below(n));
        s.push_str("  out[3] = at ? *at : -100;\n");
        return s;
    }
    let rs: Vec<String> = (0..n).map(|k| format!("{{ {}, {k} }}", value(&mut r))).collect();
    let _ = writeln!(s, "  struct rec rs[{n}] = {{ {} }};", rs.join(", "));
    let _ = writeln!(s, "  qsort(rs, {n}, sizeof(struct rec), by_key);");
    let _ = writeln!(
        s,
        "  for (int i = 0; i < {n}; i++) {{ out[0] += (i + 1) * rs[i].key; out[1] += rs[i].id; }}"
    );
    let _ = writeln!(s, "  struct rec want = {{ {}, 0 }};", value(&mut r));
    let _ = writeln!(s, "  struct rec *hit = bsearch(&want, rs, {n}, sizeof rs[0], by_key);");
    s.push_str("  out[2] = hit ? 10 * hit->key + 1 : -1;\n  out[3] = rs[0].key - rs[1].key;\n");
    s
}

fn focuscheck(args: &[&str]) -> String {
    let (_, out, err) = cli::focuscheck(args);
    format!("{out}{err}")
}

#[test]
fn generated_sorting_programs_agree_with_gcc_and_every_verdict() {
    let n = crate::lib_gcc::seeds(10);
    let dir = tempfile::tempdir().expect("a temporary directory");
    for seed in 0..n {
        let text = program(seed);
        let name = format!("q{seed}");
        let want = crate::lib_gcc::gcc_outputs(dir.path(), &name, &text, seed);
        let file = cli::write(dir.path(), &format!("{name}.fc.c"), &format!("{text}  return 0;\n}}\n"));
        for (input, want) in want.iter().enumerate() {
            // Each tie decided either way: `out` is the same.
            for tie in ["0", "1"] {
                let choices = format!("{input}{}", format!(",{tie}").repeat(40));
                let ran = focuscheck(&["run", "--choices", &choices, &file]);
                assert_eq!(
                    run_out(&ran).as_ref(),
                    Some(want),
                    "seed {seed}, input {input}:\n{ran}\n{text}"
                );
            }
        }
        if !seed.is_multiple_of(3) {
            continue;
        }
        let k = (seed / 3 % 4) as usize;
        let v0 = want[0][k];
        let verdict = if want.iter().all(|w| w[k] == v0) {
            " 0 unsafe, 0 unknown"
        } else {
            " 1 unsafe"
        };
        let checked = cli::write(
            dir.path(),
            &format!("{name}c.c"),
            &format!("{text}  __VERIFIER_assert(out[{k}] == {v0});\n  return 0;\n}}\n"),
        );
        let out = focuscheck(&["check", "--property", "unreach-call", "--timeout", "60", &checked]);
        assert!(
            out.contains(verdict),
            "seed {seed}: out[{k}] == {v0}, runs {want:?}:\n{out}\n{text}"
        );
    }
}

/// Records with equal keys may come out in either order (glibc 2.37's
/// introsort does not keep it): assuming they keep it is a bug `check`
/// finds, with a run that replays; with distinct keys the order is sure.
#[test]
fn sorting_keeps_no_order_of_equal_elements() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (keys, verdict) in [
        ("{ { 3, 0 }, { 1, 1 }, { 3, 2 } }", " 1 unsafe"),
        ("{ { 3, 0 }, { 1, 1 }, { 4, 2 } }", " 0 unsafe, 0 unknown"),
    ] {
        let text = format!(
            "{PRELUDE}{REC_CMP}int main(void) {{\n  struct rec rs[3] = {keys};\n  qsort(rs, 3, sizeof rs[0], by_key);\n  __VERIFIER_assert(rs[1].id == 0);\n  return 0;\n}}\n"
        );
        let file = cli::write(dir.path(), "stable.c", &text);
        let out = focuscheck(&["check", "--property", "unreach-call", &file]);
        assert!(out.contains(verdict), "{keys}: expected {verdict}:\n{out}");
        if verdict == " 1 unsafe" {
            assert!(out.contains("replay: focuscheck run"), "{out}");
        }
    }
}
