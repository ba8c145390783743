//! Lists built in loops (issue 53): every execution of `malloc` is a fresh
//! object (`--heap-instances` per call), use after free in a loop walking
//! a list, and SV-COMP's memory safety (`--property valid-memsafety`,
//! `valid-memcleanup`): leaks where `main` returns.

use crate::cli;
use cli::focuscheck;

fn json(args: &[&str]) -> serde_json::Value {
    let (_, out, err) = focuscheck(args);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}):\n{out}\n{err}"))
}

fn conditions(doc: &serde_json::Value) -> Vec<serde_json::Value> {
    doc["conditions"].as_array().expect("conditions").clone()
}

fn write(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let file = dir.path().join(name);
    std::fs::write(&file, text).expect("write");
    file.to_str().expect("utf-8").to_string()
}

/// A list of `N` nodes built in a loop; `TAIL` ends `main`.
fn list(n: i64, tail: &str) -> String {
    format!(
        "#include <stdlib.h>\n\
         struct node {{ int val; struct node *next; }};\n\
         struct node *keep;\n\
         void remove_all(struct node *cur) {{\n\
         \x20 while (cur) {{\n\
         \x20   struct node *nx = cur->next;\n\
         \x20   free(cur);\n\
         \x20   cur = nx;\n\
         \x20 }}\n\
         }}\n\
         int main(void) {{\n\
         \x20 struct node *head = 0;\n\
         \x20 for (int i = 0; i < {n}; i++) {{\n\
         \x20   struct node *x = malloc(sizeof(struct node));\n\
         \x20   x->val = i;\n\
         \x20   x->next = head;\n\
         \x20   head = x;\n\
         \x20 }}\n\
         {tail}\n\
         }}\n"
    )
}

#[test]
fn a_list_built_in_a_loop_then_freed_is_safe_in_every_engine() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let f = write(&dir, "list.c", &list(3, "  remove_all(head);\n  return 0;"));
    for property in ["all", "valid-memsafety", "valid-memcleanup"] {
        for engine in ["auto", "fsum", "vc"] {
            let doc = json(&[
                "check",
                &f,
                "--format",
                "json",
                "--property",
                property,
                "--engine",
                engine,
            ]);
            let c = conditions(&doc);
            assert!(!c.is_empty(), "{property} {engine}: {doc:#}");
            assert!(c.iter().all(|c| c["verdict"] == "safe"), "{property} {engine}: {c:#?}");
        }
    }
    // The run frees every node once and ends normally.
    let (code, out, _) = focuscheck(&["run", &f]);
    assert_eq!(code, 0, "{out}");
}

/// A list longer than the default pool (4 nodes per call) is checked again
/// on a larger pool, which decides it and says so; replays carry that
/// pool. A pool given is kept, and a list longer than the largest pool
/// tried is a limit, never a verdict.
#[test]
fn a_list_longer_than_the_pool_is_decided_on_a_larger_one_or_is_a_limit() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let f = write(&dir, "long.c", &list(6, "  remove_all(head);\n  return 0;"));
    let doc = json(&["check", &f, "--format", "json"]);
    let c = conditions(&doc);
    assert!(c.iter().all(|c| c["verdict"] == "safe"), "{c:#?}");
    assert_eq!(doc["heap_instances"], 8, "{doc:#}");
    let (_, text, _) = focuscheck(&["check", &f]);
    assert!(text.contains("decided with --heap-instances 8"), "{text}");
    // The pool given is the pool used.
    let doc = json(&["check", &f, "--format", "json", "--heap-instances", "4"]);
    let c = conditions(&doc);
    assert!(c.iter().all(|c| c["verdict"] == "unknown"), "{c:#?}");
    assert!(doc.get("heap_instances").is_none(), "{doc:#}");
    let limit = c.iter().find(|c| c["kind"] == "limit").expect("a limit");
    assert_eq!(limit["line"], 14, "{limit}");
    assert!(
        limit["reason"].as_str().unwrap_or("").contains("--heap-instances"),
        "{limit}"
    );
    // Longer than a larger pool: no more decided, so the default's report,
    // which says what was tried; its replay stops where the pool ends.
    let f = write(&dir, "longer.c", &list(9, "  remove_all(head);\n  return 0;"));
    let (_, text, _) = focuscheck(&["check", &f]);
    assert!(
        text.contains("checked again with --heap-instances 8: it decided no more"),
        "{text}"
    );
    let doc = json(&["check", &f, "--format", "json"]);
    let c = conditions(&doc);
    assert!(c.iter().all(|c| c["verdict"] == "unknown"), "{c:#?}");
    let limit = c.iter().find(|c| c["kind"] == "limit").expect("a limit");
    let replay = limit["replay"].as_str().expect("a replay");
    let words: Vec<&str> = replay.split_whitespace().skip(1).collect();
    let (code, _, err) = focuscheck(&words);
    assert!(err.contains("raise --heap-instances"), "{err}");
    assert_eq!(code, 2, "{err}");
}

const REMOVE_ALL: &str = "\
#include <stdlib.h>
struct node { int val; struct node *next; };
void remove_all(struct node *head) {
  struct node *cur = head;
  while (cur) {
    free(cur);
    cur = cur->next;
  }
}
int main(void) {
  struct node *head = 0;
  for (int i = 0; i < 3; i++) {
    struct node *n = malloc(sizeof(struct node));
    n->val = i;
    n->next = head;
    head = n;
  }
  remove_all(head);
  return 0;
}
";

#[test]
fn remove_all_reading_next_after_free_is_explained_by_the_free_and_the_read() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let f = write(&dir, "uaf.c", REMOVE_ALL);
    for property in ["all", "valid-memsafety"] {
        let doc = json(&["check", &f, "--format", "json", "--property", property]);
        let c = conditions(&doc);
        let bad: Vec<_> = c.iter().filter(|c| c["verdict"] == "unsafe").collect();
        assert_eq!(bad.len(), 1, "{c:#?}");
        assert_eq!(
            (bad[0]["kind"].as_str(), bad[0]["line"].as_i64()),
            (Some("deref"), Some(7))
        );
        let lines = cli::fss_lines(&bad[0]["fss"][0]);
        assert!(
            lines.contains(&6) && lines.contains(&7),
            "the free and the read: {lines:?}"
        );
        assert!(c.iter().all(|c| c["verdict"] != "unknown"), "{c:#?}");
        // The trace spells a stored pointer as C does, node to node.
        let text = doc.to_string();
        assert!(
            text.contains("(malloc@13#2->next = malloc@13#1)"),
            "`n->next = head` in the trace: {text}"
        );
    }
    let (code, out, _) = focuscheck(&["check", &f]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("malloc@13#"),
        "the nodes named by call and instance:\n{out}"
    );
    let (code, out, _) = focuscheck(&["run", &f]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("invalid pointer access in `cur->next`"), "{out}");
}

#[test]
fn a_double_free_in_a_loop_is_a_deref_error() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let tail = "  for (int k = 0; k < 2; k++) free(head);\n  return 0;";
    let f = write(&dir, "double.c", &list(2, tail));
    let doc = json(&["check", &f, "--format", "json", "--property", "valid-memsafety"]);
    let c = conditions(&doc);
    assert!(
        c.iter()
            .any(|c| c["verdict"] == "unsafe" && c["kind"] == "deref" && c["line"] == 19),
        "{c:#?}"
    );
}

#[test]
fn a_lost_list_is_a_leak_under_valid_memsafety_and_a_kept_one_under_memcleanup() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    // The head node is lost by `head = head->next`; the rest is freed.
    let lost = write(
        &dir,
        "lost.c",
        &list(3, "  head = head->next;\n  remove_all(head);\n  return 0;"),
    );
    for property in ["valid-memsafety", "valid-memtrack", "valid-memcleanup"] {
        let doc = json(&["check", &lost, "--format", "json", "--property", property]);
        let c = conditions(&doc);
        let bad: Vec<_> = c.iter().filter(|c| c["verdict"] == "unsafe").collect();
        assert_eq!(bad.len(), 1, "{property}: {c:#?}");
        assert_eq!(
            (bad[0]["kind"].as_str(), bad[0]["line"].as_i64()),
            (Some("leak"), Some(21))
        );
        let lines = cli::fss_lines(&bad[0]["fss"][0]);
        assert!(lines.contains(&19), "the assignment that lost the pointer: {lines:?}");
    }
    // Not an error under the other properties.
    let doc = json(&["check", &lost, "--format", "json"]);
    assert!(conditions(&doc).iter().all(|c| c["verdict"] == "safe"), "{doc:#}");
    // A global still reaches the list (through the second node): tracked,
    // but not cleaned up.
    let kept = write(
        &dir,
        "kept.c",
        &list(3, "  keep = head->next;\n  free(head);\n  return 0;"),
    );
    let doc = json(&["check", &kept, "--format", "json", "--property", "valid-memsafety"]);
    assert!(conditions(&doc).iter().all(|c| c["verdict"] == "safe"), "{doc:#}");
    let doc = json(&["check", &kept, "--format", "json", "--property", "valid-memcleanup"]);
    let c = conditions(&doc);
    assert!(
        c.iter().any(|c| c["verdict"] == "unsafe" && c["kind"] == "leak"),
        "{c:#?}"
    );
    // The replay the report gives reaches the leak.
    let (code, out, _) = focuscheck(&["run", &kept, "--leaks", "cleanup"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("memory leak"), "{out}");
}
