//! Pointers, structs and arrays passed to functions, as a user sees them:
//! the examples of `programs/memory/` explained by `check` (FSS, assumptions,
//! NEST) and `verify` (a trace that replays), invalid accesses reported as
//! `deref` conditions, and every command accepting them.

use crate::cli;
use cli::focuscheck;

fn json(args: &[&str]) -> serde_json::Value {
    let (_, out, err) = focuscheck(args);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}):\n{out}\n{err}"))
}

fn unsafe_conditions(doc: &serde_json::Value) -> Vec<&serde_json::Value> {
    doc["conditions"]
        .as_array()
        .expect("conditions")
        .iter()
        .filter(|c| c["verdict"] == "unsafe")
        .collect()
}

#[test]
fn swap_through_aliased_pointers_is_explained() {
    let doc = json(&["check", "programs/memory/swap.c", "--format", "json"]);
    let bad = unsafe_conditions(&doc);
    assert_eq!(bad.len(), 1, "{doc:#}");
    assert_eq!(bad[0]["line"], 33);
    let fss = &bad[0]["fss"][0];
    let lines = cli::fss_lines(fss);
    // The cause: `same` is true, so `q = p` makes both point to `x`, and
    // `order` compares `*lo` with `*hi` (line 17) without swapping.
    for l in [27, 28, 29, 17, 32] {
        assert!(lines.contains(&l), "line {l} missing from the FSS {lines:?}");
    }
    let text = fss.to_string();
    assert!(text.contains("same@24 != 0"), "assumption on `same` missing: {text}");
    // Every safe condition is a dereference of a valid pointer.
    for c in doc["conditions"].as_array().expect("conditions") {
        if c["verdict"] == "safe" {
            assert_eq!(c["kind"], "deref", "{c}");
        }
    }
    let (code, out, err) = focuscheck(&["verify", "programs/memory/swap.c"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("possible call of `reach_error()`"), "{out}");
    assert!(out.contains("status: confirmed"), "{out}");
}

#[test]
fn array_parameters_and_a_struct_with_a_pointer_field() {
    let doc = json(&["check", "programs/memory/avg.c", "--format", "json"]);
    let bad = unsafe_conditions(&doc);
    assert_eq!(bad.len(), 1, "{doc:#}");
    assert_eq!(bad[0]["line"], 38);
    let fss = bad[0]["fss"].as_array().expect("fss");
    assert!(!fss.is_empty(), "no FSS: {doc:#}");
    let (code, out, _) = focuscheck(&["verify", "--loops", "unroll:4", "programs/memory/avg.c"]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("avg.c:38:5: warning: possible call of `reach_error()`"),
        "{out}"
    );
    assert!(out.contains("status: confirmed"), "{out}");
}

const INVALID: &str = "\
int *keep;
int a[4];
void f(void) { int local = 3; keep = &local; }
int main(void) {
  int i = __VERIFIER_nondet_int();
  int *p = 0;
  if (i == 1) p = &a[3];
  if (i == 2) p = a + 4;
  if (i == 3) { f(); p = keep; }
  if (i == 4) return *p + 1;
  if (i >= 1 && i <= 3) return *p;
  return 0;
}
";

#[test]
fn invalid_accesses_are_deref_conditions_with_their_runs() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("invalid.c");
    std::fs::write(&file, INVALID).expect("write");
    let f = file.to_str().expect("utf-8");
    let doc = json(&["check", f, "--format", "json"]);
    let bad = unsafe_conditions(&doc);
    // `*p + 1` reads null (i = 4); `*p` reads one past `a` (i = 2) or a
    // finished call's local (i = 3); `&a[3]` (i = 1) is valid.
    assert_eq!(bad.len(), 2, "{doc:#}");
    for c in &bad {
        assert_eq!(c["kind"], "deref", "{c}");
    }
    let (code, text, _) = focuscheck(&["check", f]);
    assert_eq!(code, 1, "{text}");
    for choice in ["--choices 4\n", "--choices 2\n", "--choices 3\n"] {
        assert!(text.contains(choice), "no counterexample `{choice}`: {text}");
    }
    assert!(!text.contains("--choices 1\n"), "a valid access reported: {text}");
    // SV-COMP's unreach-call leaves them out.
    let doc = json(&["check", f, "--format", "json", "--property", "unreach-call"]);
    assert!(unsafe_conditions(&doc).is_empty(), "{doc:#}");
    // The replay reaches the error named.
    let (_, out, _) = focuscheck(&["run", f, "--choices", "3"]);
    assert!(out.contains("invalid pointer access in `*p`"), "{out}");
}

#[test]
fn every_command_accepts_memory_programs() {
    for args in [
        vec!["doomed", "programs/memory/"],
        vec!["diagnose", "programs/memory/swap.c"],
        vec![
            "diff",
            "--entry",
            "main",
            "programs/memory/swap.c",
            "programs/memory/swap.c",
        ],
        vec!["facts", "programs/memory/avg.c"],
        vec!["parse", "programs/memory/avg.c", "programs/memory/swap.c"],
        vec!["verify", "--loops", "havoc", "programs/memory/"],
    ] {
        let (code, out, err) = focuscheck(&args);
        assert!(matches!(code, 0 | 1 | 3), "{args:?} exited {code}:\n{out}\n{err}");
        assert!(!err.contains("error:"), "{args:?}:\n{err}");
    }
}

/// A trace and an FSS speak C: `h = &n2`, `NULL`, `set(p = &buf[2], ...)`,
/// "`h->next` accesses `n1`", never the memory model's leaves (`h.off`),
/// temporaries (`__mem1`) or the branches of its split over objects.
#[test]
fn pointer_values_are_spelled_as_in_c() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("list.c");
    std::fs::write(
        &file,
        "extern int __VERIFIER_nondet_int(void);
struct node { int val; struct node *next; };
struct node n1, n2;
int buf[3];
void set(int *p, int v) { *p = v; }
int main(void) {
  int k = __VERIFIER_nondet_int();
  struct node *h = &n1;
  n1.next = &n2;
  n2.next = 0;
  if (k > 1) h = h->next;
  if (k > 5) h = h->next;
  set(&buf[k > 2 ? 2 : 0], 4);
  if (h != 0) h->val = buf[2];
  h->val = 1;
  return 0;
}
",
    )
    .expect("write");
    let f = file.to_str().expect("utf-8 path");
    let (code, out, err) = focuscheck(&["check", f, "--view", "full"]);
    assert_eq!(code, 1, "{out}{err}");
    for line in [
        "Executed `h = &n1` (h = &n1)",
        "Executed `n1.next = &n2` (n1.next = &n2)",
        "Executed `n2.next = 0` (n2.next = NULL)",
        "`h->next` accesses `n1`",
        "Executed `h = h->next` (h = &n2)",
        "Executed `h = h->next` (h = NULL)",
        "Called set(p = &buf[2], v = 4)",
        "`*p = v` accesses `buf[...]`",
        "`h != 0` is false",
    ] {
        assert!(out.contains(line), "missing `{line}`:\n{out}");
    }
    // Nor the other cases of a split, as branches of the program.
    for internal in ["__mem", ".off", "`h->next` is ", "`*p = v` is "] {
        assert!(!out.contains(internal), "`{internal}` shown:\n{out}");
    }
    // The FSS view and JSON name the object an access went to.
    let (_, fss, _) = focuscheck(&["check", f, "--view", "fss"]);
    assert!(fss.contains("h = h->next [accesses `n2`]"), "{fss}");
    let doc = json(&["check", f, "--format", "json"]);
    let text = doc.to_string();
    assert!(text.contains(r#""access":"n1""#), "{text}");
    // A loop walking a pointer folds without the pointer's leaves.
    let walk = dir.path().join("walk.c");
    std::fs::write(
        &walk,
        "void reach_error(void) {}
int a[50];
int main(void) {
  int *p;
  int s = 0;
  for (p = a; p < a + 50; p++) { *p = 2; s += *p; }
  if (s == 100) reach_error();
  return 0;
}
",
    )
    .expect("write");
    let (_, out, _) = focuscheck(&["check", walk.to_str().expect("utf-8 path"), "--view", "full"]);
    for line in [
        "(p = &a[0])",
        "line 6 × 50: `a[...]` = 2, `s` from 2 to 100",
        "(p = &a[50])",
    ] {
        assert!(out.contains(line), "missing `{line}`:\n{out}");
    }
    assert!(!out.contains(".off"), "{out}");
}

/// The memory model's own globals (a call's running flag, the leaves a
/// function returns) cannot share a name with the program's storage: a
/// taken local `alive` or `ret` once did, and a run of `f(0)` looked like
/// an access to a finished call's local. gcc runs this program to the end.
#[test]
fn locals_named_like_the_memory_models_globals_keep_their_own_storage() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("names.c");
    std::fs::write(
        &file,
        "extern void __VERIFIER_error(void);
int *g;
struct P { int a; int b; };
struct P mk(int v) { struct P ret; struct P *q = &ret; q->a = v; q->b = v + 1; return ret; }
int f(int k) { int alive = k; g = &alive; *g = *g + 1; return alive; }
int main(void) {
  int alive = 0;
  struct P ret = mk(5);
  int r = f(alive);
  if (r != 1 || ret.b != 6) __VERIFIER_error();
  return 0;
}
",
    )
    .expect("write");
    let f = file.to_str().expect("utf-8 path");
    let (code, out, err) = focuscheck(&["check", f]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("0 unsafe, 0 unknown, 5 safe"), "{out}");
    // The interpreter runs it to the end, as gcc does.
    let (code, out, err) = focuscheck(&["run", "--choices", "0,0,0,0", f]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("finished without error"), "{out}");
}

/// `run --trace` and its final globals show C, not the memory model: a
/// pointer as `&g[2]`, a dereference by the object it reached, and none of
/// the model's temporaries, split cases, offset leaves or taken locals.
#[test]
fn the_interpreters_trace_and_globals_are_spelled_as_in_c() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("run.c");
    std::fs::write(
        &file,
        "int g[5];
int *p;
int mk(int *q) { int alive = 1; int *r = &alive; *q = 4; return *r; }
int main(int x) {
  p = &g[2];
  mk(p);
  if (x == 3) assert(g[2] == 5);
  return 0;
}
",
    )
    .expect("write");
    let f = file.to_str().expect("utf-8 path");
    let (code, out, err) = focuscheck(&["run", f, "--input", "x=3", "--trace"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("5:3  p = &g[2]   [= &g[2]]"), "{out}");
    assert!(out.contains("`*q = 4` accesses `g[...]`"), "{out}");
    assert!(out.contains("`*r` accesses `alive`"), "{out}");
    assert!(out.contains("return *r;   [returns 1]"), "{out}");
    for internal in ["__mem", "::(", ".off", "*r -> ", "*q = 4 -> ", "[= 0]"] {
        assert!(!out.contains(internal), "`{internal}` shown:\n{out}");
    }
    let (code, out, err) = focuscheck(&["run", f, "--input", "x=4"]);
    assert_eq!(code, 0, "{out}{err}");
    let globals = out
        .lines()
        .find(|l| l.starts_with("globals:"))
        .unwrap_or_else(|| panic!("{out}"));
    assert_eq!(globals, "globals: g = [0, 0, 4, 0, 0], p = &g[2]");
}

/// A local array sized by a file-scope `const int` (a variable-length
/// array in C whose length is known) has that length, passed to a
/// function too; a size naming a local, which shadows the constant, is
/// the local's value (a variable-length array).
#[test]
fn a_file_scope_const_int_sizes_local_arrays() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let write = |name: &str, text: &str| {
        let file = dir.path().join(name);
        std::fs::write(&file, text).expect("write");
        file.to_string_lossy().into_owned()
    };
    let over = write(
        "over.c",
        "const int SIZE = 4;
int main(void) {
  int a[SIZE];
  int i;
  for (i = 0; i <= SIZE; i++) a[i] = i;
  return 0;
}
",
    );
    let (code, out, err) = focuscheck(&["check", &over]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("unsafe: array bounds in `a[i]`"), "{out}");
    let passed = write(
        "passed.c",
        "const int SIZE = 4;
int f(int *p) { return p[3]; }
int main(void) {
  int a[SIZE];
  a[3] = 7;
  if (f(a) != 7) { int *q = 0; return *q; }
  return 0;
}
",
    );
    let (code, out, err) = focuscheck(&["check", &passed]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("0 unsafe, 0 unknown, 2 safe"), "{out}");
    // A size naming a local (which shadows the constant) makes a
    // variable-length array of the local's value, not the constant's.
    let local = write(
        "local.c",
        "const int SIZE = 40;\nint main(void) {\n  int SIZE = 4;\n  int a[SIZE];\n  a[SIZE] = 1;\n  return 0;\n}\n",
    );
    let (code, out, err) = focuscheck(&["check", &local]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("unsafe: array bounds in `a[SIZE]`"), "{out}{err}");
    // A pointer into it is checked against the run's size, not against
    // its object's `--vla-elems` elements: `p[3]` of a 3-element array is
    // an error, `p[2]` is not.
    let taken = write(
        "taken.c",
        "const int SIZE = 40;\nint f(int *p) { return p[3]; }\nint main(void) {\n  int SIZE = 3;\n  int a[SIZE];\n  a[2] = 0;\n  return f(a);\n}\n",
    );
    let (code, out, err) = focuscheck(&["check", &taken]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("unsafe: pointer access in `p[3]`"), "{out}{err}");
    assert!(
        out.contains("fact: element 3 of `a`, which has 3 elements"),
        "{out}{err}"
    );
    let inside = write(
        "inside.c",
        "int f(int *p) { return p[2]; }\nint main(void) {\n  int n = 3;\n  int a[n];\n  int *q = &a[2];\n  *q = 5;\n  return f(a) - 5;\n}\n",
    );
    let (code, out, err) = focuscheck(&["check", &inside]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains(" 0 unsafe, 0 unknown"), "{out}{err}");
    // `&a` of the whole array, a pointer to a variable-length array type.
    let whole = write(
        "whole.c",
        "int main(void) {\n  int n = 3;\n  int a[n];\n  void *p = &a;\n  return p == 0;\n}\n",
    );
    let (code, out, err) = focuscheck(&["check", &whole]);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("whole.c:4:13: not modelled yet: a pointer to the variable-length array `a` as a whole"),
        "{out}{err}"
    );
}

/// `int mean(int a[], int n)` checked on its own (`--entry mean`): `a`
/// points to an array of `--param-elems` inputs, `NULL` too unless
/// `--valid-params`; the report says which, and every run replays with the
/// options it was found under.
#[test]
fn an_entry_with_an_array_parameter_is_checked_on_its_own() {
    let f = "programs/memory/mean.c";
    let doc = json(&["check", f, "--entry", "mean", "--valid-params", "--format", "json"]);
    let bad = unsafe_conditions(&doc);
    assert_eq!(bad.len(), 1, "{doc:#}");
    assert_eq!(
        (bad[0]["kind"].as_str(), bad[0]["line"].as_i64()),
        (Some("div_by_zero"), Some(15)),
        "{doc:#}"
    );
    let fss = &bad[0]["fss"][0];
    let lines = cli::fss_lines(fss);
    // The loop is skipped (13) and the division reached (15).
    for l in [13, 15] {
        assert!(lines.contains(&l), "line {l} missing from the FSS {lines:?}");
    }
    let assumptions = fss["assumptions"].to_string();
    assert!(assumptions.contains("n == 0"), "{assumptions}");
    // Every access of `a[i]` is valid: 16 elements, and `requires n <= 16`.
    let others: Vec<&str> = doc["conditions"]
        .as_array()
        .expect("conditions")
        .iter()
        .filter(|c| c["kind"] == "deref")
        .map(|c| c["verdict"].as_str().unwrap_or(""))
        .collect();
    assert!(!others.is_empty() && others.iter().all(|v| *v == "safe"), "{others:?}");

    // The text report: the note, the NEST, a replay that carries the options.
    let (code, out, err) = focuscheck(&["check", f, "--entry", "mean", "--valid-params"]);
    assert_eq!(code, 1, "{out}");
    // The note is a diagnostic: on stderr.
    assert!(
        err.contains("`a` of the entry `mean` points to an array of 16 `int` inputs") && err.contains("never `NULL`"),
        "{err}"
    );
    assert!(out.contains("NEST"), "{out}");
    let replay = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("replay: focuscheck "))
        .expect("a replay command");
    assert!(replay.contains("--entry mean --valid-params"), "{replay}");
    let args: Vec<&str> = replay.split_whitespace().collect();
    let (code, ran, _) = focuscheck(&args);
    assert_eq!(code, 1, "{ran}");
    assert!(ran.contains("division by zero"), "{ran}");

    // The VC explanation names the divisor and the input that makes it 0,
    // and no variable of the memory model.
    let (_, out, _) = focuscheck(&["verify", f, "--entry", "mean", "--valid-params"]);
    assert!(out.contains("the divisor in `s / n` at 15:10 is not zero"), "{out}");
    assert!(out.contains("Counterexample: n = 0"), "{out}");
    assert!(!out.contains("::("), "{out}");
}

/// Without `--valid-params` the array parameter may be `NULL`; with
/// `--param-elems 4` an access past 4 elements is found.
#[test]
fn an_entry_pointer_parameter_may_be_null_and_its_array_is_bounded() {
    let f = "programs/memory/mean.c";
    let doc = json(&["check", f, "--entry", "mean", "--format", "json"]);
    let deref: Vec<&serde_json::Value> = unsafe_conditions(&doc)
        .into_iter()
        .filter(|c| c["kind"] == "deref")
        .collect();
    assert_eq!(deref.len(), 1, "{doc:#}");
    let assumptions = deref[0]["fss"][0]["assumptions"].to_string();
    assert!(assumptions.contains("a == 0"), "NULL is the cause: {assumptions}");

    let doc = json(&[
        "check",
        f,
        "--entry",
        "mean",
        "--valid-params",
        "--param-elems",
        "4",
        "--format",
        "json",
    ]);
    let deref: Vec<&serde_json::Value> = unsafe_conditions(&doc)
        .into_iter()
        .filter(|c| c["kind"] == "deref")
        .collect();
    assert_eq!(deref.len(), 1, "{doc:#}");
    let assumptions = deref[0]["fss"][0]["assumptions"].to_string();
    assert!(
        assumptions.contains("n > 4") || assumptions.contains("n >= 5"),
        "{assumptions}"
    );
}

/// The array of an entry's pointer parameter may have been allocated by
/// the caller: freeing it is valid, a use after that is not.
#[test]
fn an_entry_may_free_its_array_parameter_and_not_use_it_after() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let file = dir.path().join("fr.c");
    let text = "#include <stdlib.h>\nint f(int *a, int k) {\n  a[0] = 1;\n  free(a);\n  if (k)\n    return a[0];\n  return 0;\n}\n";
    std::fs::write(&file, text).expect("write");
    let f = file.to_str().expect("utf-8");
    let doc = json(&["check", f, "--entry", "f", "--valid-params", "--format", "json"]);
    let verdicts: Vec<(i64, &str)> = doc["conditions"]
        .as_array()
        .expect("conditions")
        .iter()
        .map(|c| (c["line"].as_i64().unwrap_or(0), c["verdict"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(verdicts, vec![(3, "safe"), (4, "safe"), (6, "unsafe")], "{doc:#}");
}

/// What an entry's pointer parameter is taken to point to is said in every
/// command's JSON (`warnings`) and SARIF (a warning notification), not only
/// on the terminal.
#[test]
fn the_entry_parameter_note_is_in_every_format() {
    let f = "programs/memory/mean.c";
    for cmd in ["check", "verify", "doomed"] {
        let doc = json(&[cmd, f, "--entry", "mean", "--param-elems", "4", "--format", "json"]);
        let notes = doc["warnings"].to_string();
        assert!(
            notes.contains("points to an array of 4 `int` inputs (`--param-elems`)"),
            "{cmd}: {doc:#}"
        );
        let (_, sarif, _) = cli::focuscheck(&[cmd, f, "--entry", "mean", "--format", "sarif"]);
        let log: serde_json::Value = serde_json::from_str(&sarif).expect("SARIF is JSON");
        let notifications = log["runs"][0]["invocations"][0]["toolExecutionNotifications"].to_string();
        assert!(
            notifications.contains("points to an array of 16 `int` inputs"),
            "{cmd}: {log:#}"
        );
    }
}

/// An entry whose contract says its array parameter is valid for `n`
/// elements: the array has any length the contract allows, the model
/// holds `--param-elems` of it, and a run past them is beyond the model
/// (unknown), never a run silently left out.
#[test]
fn an_entry_array_sized_by_its_contract() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let write = |name: &str, bound: &str, cond: &str| {
        let text = format!(
            "/*@ requires 0 < n{bound} && \\valid_read(a + (0..n-1)); */\n\
             int sum(int *a, int n) {{\n  int s = 0;\n  for (int i = 0; {cond}; i++)\n    s += a[i];\n  return s;\n}}\n"
        );
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        path.to_str().expect("utf-8").to_string()
    };
    let verdicts = |f: &str| -> Vec<(String, String)> {
        let doc = json(&["check", f, "--entry", "sum", "--format", "json"]);
        doc["conditions"]
            .as_array()
            .expect("conditions")
            .iter()
            .map(|c| {
                (
                    c["kind"].as_str().unwrap_or("").to_string(),
                    c["verdict"].as_str().unwrap_or("").to_string(),
                )
            })
            .collect()
    };
    let kv = |k: &str, v: &str| (k.to_string(), v.to_string());
    // Bounded by the contract to what the model holds: proved.
    let f = write("bounded.c", " && n <= 16", "i < n");
    assert_eq!(verdicts(&f), vec![kv("deref", "safe")]);
    let (_, _, err) = focuscheck(&["check", &f, "--entry", "sum"]);
    assert!(
        err.contains("points to an array of `int` inputs of any length"),
        "{err}"
    );
    // Reading `a[n]`: past what the contract gives, a `deref` error.
    let f = write("past.c", " && n <= 16", "i <= n");
    let doc = json(&["check", &f, "--entry", "sum", "--format", "json"]);
    let bad = unsafe_conditions(&doc);
    assert_eq!(bad.len(), 1, "{doc:#}");
    assert_eq!(
        (bad[0]["kind"].as_str(), bad[0]["line"].as_i64()),
        (Some("deref"), Some(5))
    );
    assert!(!bad[0]["fss"].as_array().expect("fss").is_empty(), "{doc:#}");
    // Any length: runs past the 16 elements held are beyond the model, so
    // nothing is proved (and nothing refuted).
    let f = write("any.c", "", "i < n");
    let v = verdicts(&f);
    assert!(v.iter().all(|(_, verdict)| verdict == "unknown"), "{v:?}");
    assert!(v.contains(&kv("limit", "unknown")), "{v:?}");
    let doc = json(&["check", &f, "--entry", "sum", "--format", "json"]);
    assert!(doc.to_string().contains("--param-elems"), "{doc:#}");
}

/// The memory model writes a statement on pointers as several (a
/// pointer's object and its offset, a `return` through temporaries); the
/// FSS lists it once per evaluation, as the trace does.
#[test]
fn a_statement_on_pointers_is_one_fss_entry() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = cli::write(
        dir.path(),
        "pick.c",
        "extern void reach_error(void);
extern _Bool __VERIFIER_nondet_bool(void);
int d1, d2;
int *get(void) { return (__VERIFIER_nondet_bool() ? &d1 : &d2); }
int main(void) {
  int *p = get();
  if (*p == 0) reach_error();
  return 0;
}
",
    );
    let doc = json(&["check", file.as_str(), "--format", "json"]);
    let bad = unsafe_conditions(&doc);
    assert_eq!(bad.len(), 1, "{doc:#}");
    for fss in bad[0]["fss"].as_array().expect("FSSs") {
        let in_get: Vec<(&str, &str)> = fss["statements"]
            .as_array()
            .expect("statements")
            .iter()
            .filter(|s| s["line"] == 4)
            .map(|s| (s["kind"].as_str().unwrap_or(""), s["text"].as_str().unwrap_or("")))
            .collect();
        assert_eq!(
            in_get,
            [
                ("branch", "__VERIFIER_nondet_bool()"),
                ("assign", "(__VERIFIER_nondet_bool() ? &d1 : &d2)"),
                ("return", "return (__VERIFIER_nondet_bool() ? &d1 : &d2);"),
            ],
            "{fss:#}"
        );
    }
}

/// The verdicts of `check ARGS` per condition kind, in every engine (the
/// same in each).
fn verdicts_in_every_engine(file: &str, args: &[&str]) -> Vec<(String, String)> {
    let mut seen: Option<Vec<(String, String)>> = None;
    for engine in ["fsum", "vc", "auto"] {
        let mut all = vec!["check", file, "--format", "json", "--engine", engine];
        all.extend(args);
        let doc = json(&all);
        let v: Vec<(String, String)> = doc["conditions"]
            .as_array()
            .expect("conditions")
            .iter()
            .map(|c| {
                (
                    c["kind"].as_str().unwrap_or("").into(),
                    c["verdict"].as_str().unwrap_or("").into(),
                )
            })
            .collect();
        if let Some(s) = &seen {
            assert_eq!(&v, s, "--engine {engine} differs on {file} {args:?}");
        }
        seen = Some(v);
    }
    seen.expect("three engines")
}

/// `p[x]` moves `p` by `x` elements: the memory model's own arithmetic,
/// exact, never the program's signed overflow (gcc's sanitizer is silent),
/// and never wrapped back into the object (an unsigned index of 2^32 - 1
/// from `a + 1` is out of bounds, not `a[0]`).
#[test]
fn pointer_offsets_are_exact_and_never_a_signed_overflow() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = cli::write(
        dir.path(),
        "offset.c",
        "int a[4];
int main(void) {
  int *p = a + 3;
  int x = __VERIFIER_nondet_int();
  int *q = p + 1;
  q--;
  p += 0;
  if (x == 2147483647) {
    return p[x];
  }
  if (x == 2147483646) {
    return q[x];
  }
  return 0;
}
",
    );
    let kv = |k: &str, v: &str| (k.to_string(), v.to_string());
    // Nothing of the program's arithmetic can overflow.
    assert_eq!(verdicts_in_every_engine(&f, &["--property", "no-overflow"]), vec![]);
    // The accesses are out of bounds: invalid accesses under `all`.
    assert_eq!(
        verdicts_in_every_engine(&f, &[]),
        vec![kv("deref", "unsafe"), kv("deref", "unsafe")]
    );
    let (_, out, _) = focuscheck(&["run", &f, "--choices", "2147483647"]);
    assert!(out.contains("invalid pointer access in `p[x]`"), "{out}");
    let f = cli::write(
        dir.path(),
        "unsigned.c",
        "int a[4];
int main(void) {
  int *p = a + 1;
  unsigned u = __VERIFIER_nondet_uint();
  if (u == 4294967295u) {
    return p[u];
  }
  return 0;
}
",
    );
    assert_eq!(verdicts_in_every_engine(&f, &[]), vec![kv("deref", "unsafe")]);
}

/// C programs the memory model refused or misread: `free(0)` (a null
/// pointer constant, as `free(NULL)`), an entry pointer parameter only its
/// contract reads, and a statement expression whose value is a pointer.
#[test]
fn free_of_zero_unused_parameters_and_pointer_statement_expressions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let kv = |k: &str, v: &str| (k.to_string(), v.to_string());
    for (name, text) in [
        ("free0.c", "#include <stdlib.h>\nint main(void) {\n  free(0);\n  return 0;\n}\n"),
        (
            "free0_heap.c",
            "#include <stdlib.h>\nint main(void) {\n  int *p = malloc(sizeof(int));\n  free(0);\n  free((void *)0);\n  free(p);\n  return 0;\n}\n",
        ),
    ] {
        let f = cli::write(dir.path(), name, text);
        let v = verdicts_in_every_engine(&f, &[]);
        assert!(!v.is_empty() && v.iter().all(|(k, r)| k == "deref" && r == "safe"), "{name}: {v:?}");
        let (code, out, err) = focuscheck(&["run", &f]);
        assert_eq!(code, 0, "{name}: {out}{err}");
    }
    // `p` is only read by the contract.
    let f = cli::write(
        dir.path(),
        "unused.c",
        "/*@ requires \\valid(p) && n > 0;\n    ensures \\result == n; */\nint f(int *p, int n) {\n  return n;\n}\n",
    );
    assert_eq!(
        verdicts_in_every_engine(&f, &["--entry", "f"]),
        vec![kv("assert", "safe")]
    );
    let (code, out, err) = focuscheck(&["verify", &f, "--entry", "f"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("0 failed"), "{out}");
    // The value of `({ ...; r; })` is the pointer `r`, a local of the block.
    let f = cli::write(
        dir.path(),
        "stmt_expr.c",
        "struct P { int x; int y; };
int a[3];
int main(void) {
  int *q = ({ int *r = &a[1]; r; });
  struct P s = ({ struct P t; t.x = 1; t.y = 2; t; });
  int *e = ({ a[2] = 4; a + 2; });
  *q = 5;
  if (a[1] != 5 || s.x + s.y != 3 || *e != 4) { reach_error(); }
  if (*e + s.y == 6) { reach_error(); }
  return 0;
}
",
    );
    let v = verdicts_in_every_engine(&f, &[]);
    assert_eq!(v.iter().filter(|(_, r)| r == "unsafe").count(), 1, "{v:?}");
    let doc = json(&["check", &f, "--format", "json"]);
    assert_eq!(cli::first_unsafe(&doc)["line"], 9, "{doc:#}");
}

/// `return 0;` in a function returning a pointer is a null pointer, its
/// offset included: the offset of the call's last non-null result was
/// kept, so `p != NULL` held for a null `p` (a found `*p` invalid, a
/// count of the hits wrong).
#[test]
fn return_of_zero_from_a_pointer_function_is_null() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = cli::write(
        dir.path(),
        "ret0.c",
        "#include <stddef.h>
int a[3];
int *find(int k) { if (k < 3) return &a[k]; return 0; }
int main(void) {
  int n = 0;
  for (int k = 0; k < 5; k++) { int *p = find(k); if (p != NULL) n += *p + 1; }
  if (n != 3) { reach_error(); }
  return 0;
}
",
    );
    let v = verdicts_in_every_engine(&f, &[]);
    assert!(!v.is_empty() && v.iter().all(|(_, r)| r == "safe"), "{v:?}");
    let (code, out, err) = focuscheck(&["run", &f]);
    assert_eq!(code, 0, "{out}{err}");
}

// Names that shadow, lifetimes of blocks, steps from field pointers (issue 50).
#[path = "../memory_cases/scopes.rs"]
mod scopes;
