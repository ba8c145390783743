//! Names that shadow the object a pointer points to, locals that die with
//! their block, and steps from a pointer into a field of an array's
//! elements: each in every engine and the interpreter.

use super::*;

/// Each condition of `check --engine ENGINE` as `LINE KIND VERDICT`.
fn verdicts(f: &str, engine: &str) -> Vec<String> {
    let doc = json(&["check", "--engine", engine, "--format", "json", f]);
    let mut out: Vec<String> = doc["conditions"]
        .as_array()
        .expect("conditions")
        .iter()
        .map(|c| {
            format!(
                "{} {} {}",
                c["line"],
                c["kind"].as_str().unwrap_or(""),
                c["verdict"].as_str().unwrap_or("")
            )
        })
        .collect();
    out.sort();
    out
}

/// Writes `text`, checks it in every engine against `want` (`LINE KIND
/// VERDICT`, sorted) and runs it (every input 0): the run's result line
/// contains `ends`.
fn every_engine_and_run(name: &str, text: &str, want: &[&str], ends: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = cli::write(dir.path(), name, text);
    for engine in ["fsum", "vc", "auto"] {
        assert_eq!(verdicts(&f, engine), want, "--engine {engine} on {name}:\n{text}");
    }
    let (_, out, err) = focuscheck(&["run", "--fill", "0", f.as_str()]);
    let result = out.lines().find(|l| l.starts_with("result:")).unwrap_or("");
    assert!(result.contains(ends), "run of {name}: {out}{err}");
}

/// A parameter, a block-scoped local or a `static` local named like the
/// global (or the other local) a pointer reaches does not hide it: the
/// access writes the object pointed to, as gcc does.
#[test]
fn a_name_shadowing_the_object_pointed_to_does_not_hide_it() {
    let error = "error: `reach_error()` is called";
    every_engine_and_run(
        "param.c",
        "extern void reach_error(void);
int a;
void set(int *a) { *a = 5; }
int main(void) { set(&a); if (a == 5) reach_error(); return 0; }
",
        &["3 deref safe", "4 reach_error unsafe"],
        error,
    );
    every_engine_and_run(
        "equal.c",
        "extern void reach_error(void);
int a = 1, b = 2;
void equal(int *a, int *b) { int *pa = a, *pb = b; *pa = *pb; }
int main(void) { equal(&a, &b); if (a != b) reach_error(); return 0; }
",
        &["3 deref safe", "3 deref safe", "4 reach_error safe"],
        "finished without error",
    );
    every_engine_and_run(
        "scopes.c",
        "extern void reach_error(void);
int x = 7;
int g(int *p) { static int x = 0; x++; { int x = 3; *p += x; } return x; }
int main(void) {
  int x = 1; int *p = &x;
  { int x = 2; int *q = &x; *q += *p; if (x != 3) reach_error(); }
  if (g(&x) != 1 || x != 4 || g(p) != 2 || x != 7) reach_error();
  return 0;
}
",
        &[
            "3 deref safe",
            "6 deref safe",
            "6 deref safe",
            "6 reach_error safe",
            "7 reach_error safe",
        ],
        "finished without error",
    );
}

/// A local dies at the end of its block (C11 6.2.4p6), whichever way the
/// block is left, and each entry into it is a new lifetime: an access
/// through a pointer to it after that is invalid, as AddressSanitizer's
/// stack-use-after-scope says.
#[test]
fn a_block_scoped_local_dies_with_its_block() {
    let invalid = "error: invalid pointer access in `*p`";
    every_engine_and_run(
        "after.c",
        "extern void reach_error(void);
int main(void) { int *p = 0; { int t = 1; p = &t; } if (*p == 1) reach_error(); return 0; }
",
        &["2 deref unsafe", "2 reach_error safe"],
        invalid,
    );
    // k = 0: after `break`; 2: `goto` out; 3: `continue` then the loop
    // ends; 1: the last iteration's `t` (alive again, as gcc's is).
    every_engine_and_run(
        "jumps.c",
        "extern int __VERIFIER_nondet_int(void);
int main(void) {
  int k = __VERIFIER_nondet_int(), *p = 0;
  for (int i = 0; i < 2; i++) {
    int t = i;
    if (i == 1 && k == 0) break;
    if (i == 1 && k == 1) *p = 1;
    p = &t;
    if (k == 2) goto out;
    if (k == 3) continue;
    *p = 2;
  }
out:
  return k <= 3 ? *p : 0;
}
",
        &["11 deref safe", "14 deref unsafe", "7 deref safe"],
        invalid,
    );
    every_engine_and_run(
        "ret.c",
        "int *g;
int f(int k) { if (k) { int t = k; g = &t; return *g; } return 0; }
int main(void) { int *p = 0; int r = f(1); int *q = &r; { int u = 2; p = &u; } p = q; return *p + *g; }
",
        &["2 deref safe", "3 deref safe", "3 deref unsafe"],
        "error: invalid pointer access in `*g`",
    );
}

/// A pointer to a field moves by the field's type within the field: from
/// `&arr[1].a`, `p[1]` leaves the field (outside the object, as for a
/// lone struct's `(&s.a)[1]`), never `arr[2].a`; one past and back is
/// the field again, and `p + 1 - p` is 1.
#[test]
fn a_step_from_a_field_pointer_stays_in_the_field() {
    every_engine_and_run(
        "stride.c",
        "extern void reach_error(void);
struct S { int a; int b; };
struct S arr[3];
int main(void) { arr[1].b = 7; arr[2].a = 3; int *p = &arr[1].a; if (p[1] == 3) reach_error(); return 0; }
",
        &["4 deref unsafe", "4 reach_error safe"],
        "error: invalid pointer access in `p[1]`",
    );
    every_engine_and_run(
        "back.c",
        "extern void reach_error(void);
struct S { int a; int b; };
struct S arr[3], s;
int main(void) {
  int *p = &arr[1].a, *e = p + 1, *q = &s.a;
  if (e - p != 1 || e == &arr[2].a) reach_error();
  p = e - 1; *p = 4;
  struct S *sp = &arr[0]; sp++; sp->b = 5;
  if (arr[1].a != 4 || arr[1].b != 5) reach_error();
  int *r = &sp->a; r++; r--; *r = 6;
  if (arr[1].a != 6) reach_error();
  return q[1];
}
",
        &[
            "10 deref safe",
            "10 deref safe",
            "11 reach_error safe",
            "12 deref unsafe",
            "6 reach_error safe",
            "7 deref safe",
            "8 deref safe",
            "9 reach_error safe",
        ],
        "error: invalid pointer access in `q[1]`",
    );
}
