//! The heap as a user meets it: `malloc`, `calloc` and `free` explained by
//! `check` (the example of `programs/memory/buffer.c`), use after free,
//! double and invalid free as `deref` conditions with runs that replay, and
//! runs beyond the heap model (a list built in a loop, an allocation larger
//! than `--heap-elems`) that make no verdict `safe` and none `unsafe`.

use crate::cli;
use cli::focuscheck;

fn json(args: &[&str]) -> serde_json::Value {
    let (_, out, err) = focuscheck(args);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}):\n{out}\n{err}"))
}

fn verdicts(doc: &serde_json::Value) -> Vec<(String, String, i64)> {
    doc["conditions"]
        .as_array()
        .expect("conditions")
        .iter()
        .map(|c| {
            (
                c["kind"].as_str().unwrap_or("").to_string(),
                c["verdict"].as_str().unwrap_or("").to_string(),
                c["line"].as_i64().unwrap_or(0),
            )
        })
        .collect()
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let file = dir.path().join(name);
    std::fs::write(&file, text).expect("write");
    file.to_str().expect("utf-8").to_string()
}

#[test]
fn a_write_past_a_malloc_buffer_is_explained_from_the_allocation() {
    let doc = json(&["check", "programs/memory/buffer.c", "--format", "json"]);
    let v = verdicts(&doc);
    let bad: Vec<_> = v.iter().filter(|(_, v, _)| v == "unsafe").collect();
    assert_eq!(bad.len(), 1, "{v:?}");
    assert_eq!((bad[0].0.as_str(), bad[0].2), ("deref", 15), "{v:?}");
    // Every other access (the calloc'd struct, the frees) is valid.
    assert!(v.iter().all(|(_, v, _)| v == "unsafe" || v == "safe"), "{v:?}");
    let c = doc["conditions"]
        .as_array()
        .expect("conditions")
        .iter()
        .find(|c| c["verdict"] == "unsafe")
        .expect("the unsafe one");
    let fss = &c["fss"][0];
    let lines = cli::fss_lines(fss);
    // The allocation's size and the loop bound are the cause.
    for l in [19, 22, 14, 15] {
        assert!(lines.contains(&l), "line {l} missing from the FSS {lines:?}");
    }
    let text = fss.to_string();
    assert!(text.contains("malloc@22"), "the object is named by its call: {text}");
    // The counterexample replays to the same access.
    let (code, out, _) = focuscheck(&["run", "programs/memory/buffer.c", "--choices", "3,0"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("invalid pointer access in `dst[i] = src[i]`"), "{out}");
    // verify finds it too, with a trace that replays.
    let (code, out, _) = focuscheck(&["verify", "--loops", "unroll:10", "programs/memory/buffer.c"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("buffer.c:15:5: warning: possible invalid pointer access"),
        "{out}"
    );
}

const MISUSE: &str = "\
#include <stdlib.h>
int main(void) {
  int n = __VERIFIER_nondet_int();
  int *a = malloc(3 * sizeof(int));
  a[0] = 1;
  if (n == 5) free(a);
  a[0] = 2;
  if (n == 6) free(a);
  free(a);
  int *b = (int *)calloc(2, sizeof(int));
  if (n == 7) free(b + 1);
  if (n == 8) { int x = 0; free(&x); }
  int r = b[0] + b[1];
  free(b);
  return r;
}
";

#[test]
fn use_after_free_double_and_invalid_free_are_deref_conditions() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let f = write(&dir, "misuse.c", MISUSE);
    let doc = json(&["check", &f, "--format", "json"]);
    let v = verdicts(&doc);
    let unsafe_lines: Vec<i64> = v.iter().filter(|(_, v, _)| v == "unsafe").map(|x| x.2).collect();
    // Use after free (7), double free (9), free of an inner pointer (11)
    // and of a local (12); the calloc'd `b` reads zeros, validly.
    for l in [7, 9, 11, 12] {
        assert!(unsafe_lines.contains(&l), "line {l} not unsafe: {v:?}");
    }
    assert!(!unsafe_lines.contains(&13) && !unsafe_lines.contains(&5), "{v:?}");
    assert!(v.iter().all(|(k, _, _)| k == "deref"), "{v:?}");
    for (choice, what) in [
        ("5", "`a[0] = 2`"),
        ("6", "`free(a)`"),
        ("7", "`free(b + 1)`"),
        ("8", "`free(&x)`"),
    ] {
        let (code, out, _) = focuscheck(&["run", &f, "--choices", choice]);
        assert_eq!(code, 1, "{out}");
        assert!(
            out.contains(&format!("invalid pointer access in {what}")),
            "{choice}: {out}"
        );
    }
    // The fact names the object and the call that freed it.
    for (choice, fact) in [
        (
            "5",
            "fact: `a[0] = 2` accesses `malloc@4#1`, freed by `free(a)` at line 6",
        ),
        (
            "6",
            "fact: `free(a)` accesses `malloc@4#1`, freed by `free(a)` at line 8",
        ),
    ] {
        let (_, out, _) = focuscheck(&["run", &f, "--choices", choice]);
        assert!(out.contains(fact), "{choice}: {out}");
    }
    let text = focuscheck(&["check", &f]).1;
    assert!(
        text.contains("fact: `a[0] = 2` accesses `malloc@4#1`, freed by `free(a)` at line 6"),
        "{text}"
    );
    // With n = 1 the run frees everything once and ends normally.
    let (code, out, _) = focuscheck(&["run", &f, "--choices", "1"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("`main` returned 0"), "{out}");
}

const LIST: &str = "\
#include <stdlib.h>
extern void reach_error(void);
struct node { int val; struct node *next; };
int main(void) {
  int n = __VERIFIER_nondet_int();
  struct node *head = 0;
  for (int i = 0; i < n; i++) {
    struct node *x = malloc(sizeof(struct node));
    x->val = i;
    x->next = head;
    head = x;
  }
  if (head && head->val != n - 1) reach_error();
  return 0;
}
";

const BIG: &str = "\
#include <stdlib.h>
extern void reach_error(void);
int main(void) {
  int n = __VERIFIER_nondet_int();
  if (n < 1 || n > 100000) return 0;
  int *a = malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) a[i] = 0;
  if (n > 2000 && a[n - 1] != 0) reach_error();
  return 0;
}
";

#[test]
fn runs_beyond_the_heap_model_make_no_verdict_safe() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for (name, text, limit_line) in [("list.c", LIST, 8), ("big.c", BIG, 6)] {
        let f = write(&dir, name, text);
        for engine in ["auto", "fsum", "vc"] {
            let doc = json(&[
                "check",
                &f,
                "--format",
                "json",
                "--engine",
                engine,
                "--timeout",
                "10",
                "--heap-elems",
                "64",
            ]);
            let v = verdicts(&doc);
            assert!(
                v.iter().all(|(_, v, _)| v == "unknown"),
                "{name} ({engine}): a verdict past the model: {v:?}"
            );
            let limit = doc["conditions"]
                .as_array()
                .expect("conditions")
                .iter()
                .find(|c| c["kind"] == "limit")
                .unwrap_or_else(|| panic!("{name} ({engine}): no limit condition: {v:?}"));
            assert_eq!(limit["line"], limit_line, "{limit}");
            let reason = limit["reason"].as_str().unwrap_or("");
            assert!(
                reason.contains("beyond the heap model") || reason.contains("(--heap-instances)"),
                "{limit}"
            );
        }
        // The SV-COMP verdict: neither true nor false.
        let doc = json(&["check", &f, "--format", "json", "--property", "unreach-call"]);
        assert!(
            verdicts(&doc).iter().any(|(k, v, _)| k == "limit" && v == "unknown"),
            "{doc:#}"
        );
    }
    // A model large enough for every run decides `big.c`: safe.
    let f = write(&dir, "big.c", BIG);
    let doc = json(&[
        "check",
        &f,
        "--format",
        "json",
        "--heap-elems",
        "100000",
        "--engine",
        "vc",
        "--timeout",
        "60",
    ]);
    let v = verdicts(&doc);
    assert!(v.iter().all(|(_, v, _)| v == "safe"), "{v:?}");
    assert!(
        v.iter().all(|(k, _, _)| k != "limit"),
        "a limit no run reaches is left out: {v:?}"
    );
    // `run` stops where the model ends, and says so.
    let f = write(&dir, "list.c", LIST);
    let (code, out, err) = focuscheck(&["run", &f, "--choices", "5"]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("raise --heap-instances"), "{err}");
}

#[test]
fn sarif_names_the_rule_of_each_memory_condition() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let f = write(&dir, "list.c", LIST);
    let doc = json(&["check", &f, "--format", "sarif", "--heap-elems", "8"]);
    let run = &doc["runs"][0];
    let ids: Vec<&str> = run["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["ruleId"].as_str().unwrap_or(""))
        .collect();
    // Before, a pointer access and a heap limit fell to the rule of
    // `--error` conditions.
    assert!(
        ids.contains(&"limit") && ids.contains(&"deref") && !ids.contains(&"user"),
        "{ids:?}"
    );
    let rules = run["tool"]["driver"]["rules"].to_string();
    assert!(
        rules.contains("InvalidPointerAccess") && rules.contains("BeyondHeapModel"),
        "{rules}"
    );
}

/// A constant size past `--heap-elems` is beyond the model too (a
/// million arbitrary elements once made exploration run past `--timeout`).
#[test]
fn a_huge_constant_allocation_is_beyond_the_model() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "#include <stdlib.h>\nextern void reach_error(void);\nint main(void) {\n  int *a = malloc(50000000 * sizeof(int));\n  a[0] = 1;\n  if (a[0] != 1) reach_error();\n  return 0;\n}\n";
    let f = write(&dir, "huge.c", text);
    let doc = json(&["check", &f, "--format", "json", "--timeout", "20"]);
    let v = verdicts(&doc);
    assert!(v.iter().all(|(_, v, _)| v == "unknown"), "{v:?}");
    assert!(v.iter().any(|(k, _, l)| k == "limit" && *l == 4), "{v:?}");
    let (code, _, err) = focuscheck(&["check", &f, "--heap-elems", "100001"]);
    assert_eq!(code, 2, "--heap-elems past its bound is refused: {err}");
}

/// `calloc` written through a macro still zeroes its object (its name was
/// once read off the source text, so `ZALLOC(4, ...)` allocated arbitrary
/// values and `a[2] != 0` came out unsafe).
#[test]
fn calloc_through_a_macro_holds_zeros() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "#include <stdlib.h>\n#define ZALLOC calloc\nextern void reach_error(void);\nint main(void) {\n  int *a = ZALLOC(4, sizeof(int));\n  if (a[2] != 0) reach_error();\n  return 0;\n}\n";
    let f = write(&dir, "macro.c", text);
    let doc = json(&["check", &f, "--format", "json"]);
    let v = verdicts(&doc);
    assert!(!v.is_empty() && v.iter().all(|(_, v, _)| v == "safe"), "{v:?}");
}

/// A union's members share its bytes: a `char` written through a pointer
/// replaces only the low byte of the `int` (SV-COMP's ldv-regression/test29
/// pattern, written here).
#[test]
fn a_union_member_written_through_a_pointer_keeps_the_other_bytes() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("u.c");
    let text = "extern int __VERIFIER_nondet_int(void);\nextern void reach_error(void);\n\
                union U { int a; char b; };\nint main(void) {\n  union U u;\n  union U *p = &u;\n  \
                u.a = 0x1234;\n  p->b = __VERIFIER_nondet_int();\n  if (u.a == 0x1200) reach_error();\n  return 0;\n}\n";
    std::fs::write(&path, text).expect("write");
    let f = path.to_str().expect("utf-8");
    let (code, out, _) = focuscheck(&["check", "--view", "full", f]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("1 unsafe"), "{out}");
    // The replay: byte 0 written, the int's other bytes kept.
    // Choices: `u`'s first value (a local), then the input.
    let (code, ran, _) = focuscheck(&["run", "--choices", "0,256", f]);
    assert_eq!(code, 1, "{ran}");
    let (code, ran, _) = focuscheck(&["run", "--choices", "0,1", f]);
    assert_eq!(code, 0, "{ran}");
}

/// An allocation wrapper returning `void *` (`kzalloc` in Linux drivers,
/// SV-COMP's ldv-regression/rule57 pattern): each call is an object of the
/// type it is used as, named after the wrapper and the call's line, and
/// zeroed when the wrapper calls `calloc`. The arguments are evaluated once,
/// at the call, as C passes them.
#[test]
fn each_call_of_an_allocation_wrapper_is_its_own_object() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let text = "#include <stdlib.h>\nextern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n\
                struct node { int val; struct node *next; };\n\
                void *zalloc(int size, int flags) { (void)flags; return calloc(1, size); }\n\
                int main(void) {\n  int k = 0;\n  struct node *n = zalloc(sizeof(struct node), k++);\n  \
                int *c = zalloc(sizeof(int), k++);\n  if (n->next != 0 || n->val != 0 || *c != 0) reach_error();\n  \
                n->val = __VERIFIER_nondet_int();\n  *c = k;\n  if (n->val == *c) reach_error();\n  \
                free(n);\n  free(c);\n  return 0;\n}\n";
    let f = write(&dir, "wrap.c", text);
    let doc = json(&["check", &f, "--format", "json", "--property", "all"]);
    let v = verdicts(&doc);
    // Zeroed objects: line 10 holds; `k` is 2 after the two calls: the
    // second reach is found with `val == 2`, every access and free valid.
    let unsafe_lines: Vec<i64> = v.iter().filter(|(_, v, _)| v == "unsafe").map(|c| c.2).collect();
    assert_eq!(unsafe_lines, vec![13], "{v:?}");
    assert!(v.iter().all(|(_, v, _)| v == "unsafe" || v == "safe"), "{v:?}");
    let (code, out, _) = focuscheck(&["check", "--view", "full", &f]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("zalloc@8"), "the object named after the call:\n{out}");
    assert!(!out.contains("left out"), "the wrapper is not reported:\n{out}");
    for engine in ["vc", "fsum"] {
        let doc = json(&["check", &f, "--format", "json", "--property", "all", "--engine", engine]);
        let w = verdicts(&doc);
        assert_eq!(v, w, "--engine {engine}");
    }
}

const REALLOC: &str = "\
#include <stdlib.h>
#include <assert.h>
extern int __VERIFIER_nondet_int(void);
int main(void) {
  int in = __VERIFIER_nondet_int();
  int *a = realloc(NULL, 3 * sizeof *a);
  a[0] = 5; a[1] = 6; a[2] = 7;
  int *old = a;
  a = realloc(a, 2 * sizeof *a);
  assert(a[0] == 5 && a[1] == 6);
  a = realloc(a, 5 * sizeof *a);
  assert(a[1] == 6);
  if (in == 1) a[0] = old[0];
  if (in == 2) a[1] = a[5];
  if (in == 3) free(old);
  if (in == 4) { int *z = realloc(a, 0); if (!z) a[0] = 1; }
  if (in == 5) a = realloc(a + 1, sizeof *a);
  free(a);
  return 0;
}
";

/// `realloc` as C has it: `realloc(NULL, n)` allocates, the contents up to
/// the smaller size are kept (the asserts hold), the old block is freed (a
/// read or a `free` through the old pointer is invalid), size 0 frees the
/// block and gives null (glibc), a pointer inside a block is an invalid
/// argument, and an element past the new size is out of the object. Each
/// error's run replays; every engine agrees or says `unknown`.
#[test]
fn realloc_moves_the_contents_and_frees_the_old_block() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let f = write(&dir, "grow.c", REALLOC);
    let doc = json(&["check", &f, "--format", "json", "--engine", "fsum"]);
    let v = verdicts(&doc);
    let mut unsafe_lines: Vec<i64> = v.iter().filter(|(_, v, _)| v == "unsafe").map(|c| c.2).collect();
    unsafe_lines.sort();
    assert_eq!(unsafe_lines, vec![13, 14, 15, 16, 17], "{v:?}");
    assert!(v.iter().all(|(_, v, _)| v == "unsafe" || v == "safe"), "{v:?}");
    for (input, what) in [
        ("1", "`old[0]`"),
        ("2", "`a[5]`"),
        ("3", "`free(old)`"),
        ("4", "`a[0] = 1`"),
        ("5", "`realloc(a + 1, sizeof *a)`"),
    ] {
        let (code, out, _) = focuscheck(&["run", &f, "--choices", input, "--fill", "0"]);
        assert_eq!(code, 1, "{out}");
        assert!(
            out.contains(&format!("invalid pointer access in {what}")),
            "{input}: {out}"
        );
    }
    let (code, out, _) = focuscheck(&["run", &f, "--choices", "0", "--fill", "0", "--leaks", "track"]);
    assert_eq!(code, 0, "no leak:\n{out}");
    // The other engines (cut by the clock on a loaded machine): never wrong.
    for (engine, secs) in [("auto", "30"), ("vc", "20")] {
        let doc = json(&["check", &f, "--format", "json", "--engine", engine, "--timeout", secs]);
        for (k, w, l) in verdicts(&doc) {
            let agrees = v.iter().any(|(k2, w2, l2)| (k2, w2, l2) == (&k, &w, &l));
            assert!(
                w == "unknown" || agrees,
                "--engine {engine}: {k} at line {l} {w}\n{v:?}"
            );
        }
    }
}

/// The heap model's own arithmetic (`calloc`'s `n * size`, counts and
/// copy loops) is never the program's signed overflow: `no-overflow`
/// reports no overflow at a `calloc` of two large `size_t`s, in any engine,
/// and a small `calloc` with an input size is proved free of it.
#[test]
fn the_heap_models_arithmetic_is_no_signed_overflow_of_the_program() {
    let dir = tempfile::tempdir().expect("tmp");
    let big = write(
        &dir,
        "big.c",
        "#include <stdlib.h>\nextern unsigned __VERIFIER_nondet_uint(void);\nint main(void) {\n  unsigned n = __VERIFIER_nondet_uint(), m = __VERIFIER_nondet_uint();\n  char *a = calloc(n, m);\n  if (!a) return 0;\n  a = realloc(a, 2);\n  free(a);\n  return 0;\n}\n",
    );
    for engine in ["auto", "fsum", "vc"] {
        let doc = json(&[
            "check",
            "--engine",
            engine,
            "--property",
            "no-overflow",
            "--format",
            "json",
            &big,
        ]);
        let v = verdicts(&doc);
        assert!(!v.iter().any(|(k, _, _)| k == "overflow"), "{engine}: {v:?}");
    }
}

const TREE: &str = "\
#include <stdlib.h>
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);
struct node { struct node *left; struct node *right; int value; };
int main(void) {
  struct node *last = 0, *n = 0;
  while (__VERIFIER_nondet_int()) {
    n = malloc(sizeof *n);
    n->left = 0;
    n->right = last;
    n->value = __VERIFIER_nondet_int();
    last = n;
  }
  while (n) {
    n->left = malloc(sizeof *n);
    n->left->value = 42;
    n = n->right;
  }
  if (last && !last->value) reach_error();
  return 0;
}
";

#[test]
fn an_error_within_one_node_per_call_is_found_on_a_pool_of_one_and_replays() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let f = write(&dir, "tree.c", TREE);
    let doc = json(&[
        "check",
        &f,
        "--engine",
        "vc",
        "--heap-instances",
        "2",
        "--format",
        "json",
    ]);
    let conds = doc["conditions"].as_array().expect("conditions");
    let c = conds
        .iter()
        .find(|c| c["kind"] == "reach_error")
        .expect("the reach_error condition");
    assert_eq!(c["verdict"], "unsafe", "{c}");
    let reason = c["reason"].as_str().unwrap_or("");
    assert!(reason.contains("--heap-instances 1"), "{reason}");
    // No condition is safe: a run may allocate past the pool.
    assert!(conds.iter().all(|c| c["verdict"] != "safe"), "{conds:?}");
    // The counterexample is a run of the program with its own pool.
    let replay = c["replay"].as_str().expect("a replay command");
    assert!(replay.contains("--heap-instances 2"), "{replay}");
    let args: Vec<&str> = replay.split_whitespace().skip(1).collect();
    let (code, out, _) = focuscheck(&args);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("`reach_error()` is called at") && out.contains(":19:"),
        "{out}"
    );
}
