//! A random generator of programs that build and free lists and trees in
//! loops (issue 53): nodes `malloc`'d in loops, walked, unlinked and freed,
//! with, on some inputs, a use after free, a double free, or a leak (nodes
//! never freed, or the last pointer to one overwritten), and an array grown
//! or shrunk by `realloc` (from `NULL`, to size 0), with, on some input, a
//! read through the pointer `realloc` freed.
//!
//! The one input is `in`, in 0..=2; each program stores what it computed
//! in `int out[4]` and ends `main` with `return 0;`. At most 3 nodes per
//! allocating call, within the default `--heap-instances`.

#![allow(dead_code)]

use std::fmt::Write as _;

/// What a generated program may do wrong, on some input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bug {
    None,
    UseAfterFree,
    DoubleFree,
    Leak,
}

/// A list program and the bug it may have (on input `on`).
pub fn program(seed: u64) -> (String, Bug, u64) {
    let (mut s, bug, on, mut below) = lists(seed);
    let (bug, on) = grown_array(&mut s, (bug, on), &mut below);
    s.push_str("  return 0;\n}\n");
    (s, bug, on)
}

/// An `int` array of `m0` elements (from `malloc`, or `realloc(0, ...)`)
/// made `m1` long by `realloc` (`m1` 0 frees it: null), its elements read
/// where both sizes hold them or written since; without another bug, on
/// some input, a read through the old pointer (a use after free).
fn grown_array(s: &mut String, (bug, on): (Bug, u64), below: &mut impl FnMut(u64) -> u64) -> (Bug, u64) {
    if below(3) == 0 {
        return (bug, on);
    }
    let (m0, m1) = (1 + below(3), below(5));
    let alloc = if below(4) == 0 { "realloc(0, " } else { "malloc(" };
    let _ = writeln!(s, "  int *arr = {alloc}{m0} * sizeof(int));");
    for j in 0..m0 {
        let _ = writeln!(s, "  arr[{j}] = in * {} + {j};", below(4));
    }
    let _ = writeln!(s, "  int *old = arr;\n  arr = realloc(arr, {m1} * sizeof(int));");
    if m1 == 0 {
        s.push_str("  if (!arr) out[1] += 7;\n");
    }
    for j in m0.min(m1)..m1 {
        let _ = writeln!(s, "  arr[{j}] = {};", below(9));
    }
    for j in 0..m1 {
        let _ = writeln!(s, "  out[2] += arr[{j}] * {};", 1 + j);
    }
    let stale = bug == Bug::None && below(2) == 0;
    let on = if stale { below(3) } else { on };
    if stale {
        let _ = writeln!(s, "  if (in == {on}) out[3] += old[0];");
    }
    s.push_str("  free(arr);\n");
    (if stale { Bug::UseAfterFree } else { bug }, on)
}

/// The lists and trees of a program, without its end; the bug and its
/// input, and the generator's draws, to go on with.
fn lists(seed: u64) -> (String, Bug, u64, impl FnMut(u64) -> u64) {
    let mut r = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut below = move |n: u64| {
        r ^= r << 13;
        r ^= r >> 7;
        r ^= r << 17;
        r % n
    };
    let k = 1 + below(3);
    let mut s = String::from(
        "#include <stdlib.h>\nextern int __VERIFIER_nondet_int(void);\nextern void __VERIFIER_assume(int c);\n\
         struct node { int val; struct node *next; struct node *left; };\nint out[4];\nstruct node *keep;\n\
         struct node *mk(int v, struct node *next) {\n  struct node *x = malloc(sizeof(struct node));\n  \
         x->val = v;\n  x->next = next;\n  x->left = 0;\n  return x;\n}\n\
         void free_list(struct node *c) {\n  while (c) {\n    struct node *n = c->next;\n    free(c);\n    c = n;\n  }\n}\n\
         int main(void) {\n  int in = __VERIFIER_nondet_int();\n  __VERIFIER_assume(0 <= in && in <= 2);\n  \
         struct node *head = 0;\n  struct node *tree = 0;\n",
    );
    let _ = writeln!(
        s,
        "  for (int i = 0; i < {k}; i++) {{\n    struct node *x = malloc(sizeof(struct node));\n    \
         x->val = i * {} + in;\n    x->next = head;\n    x->left = 0;\n    head = x;\n  }}",
        below(5) as i64 - 2
    );
    // A small tree: a root whose `left` and `next` are leaves made by `mk`.
    if below(2) == 0 {
        let _ = writeln!(
            s,
            "  tree = mk(in, mk({}, 0));\n  tree->left = mk(in + {}, 0);",
            below(4),
            below(3)
        );
    }
    for _ in 0..(2 + below(4)) {
        let line = match below(5) {
            0 => format!(
                "{{ int sum = 0; for (struct node *c = head; c; c = c->next) sum += c->val; out[{}] += sum; }}",
                below(4)
            ),
            1 => format!(
                "if (in == {} && head) {{ struct node *d = head; head = head->next; free(d); }}",
                below(3)
            ),
            2 => format!("if (head) head->val += {};", below(4)),
            3 => format!(
                "if (tree) out[{}] += tree->val + tree->left->val + tree->next->val;",
                below(4)
            ),
            _ => format!(
                "if (head && head->next) {{ struct node *d = head->next; head->next = d->next; free(d); out[{}]++; }}",
                below(4)
            ),
        };
        let _ = writeln!(s, "  {line}");
    }
    let on = below(3);
    let bug = match below(5) {
        0 => Bug::UseAfterFree,
        1 => Bug::DoubleFree,
        2 => Bug::Leak,
        _ => Bug::None,
    };
    match bug {
        Bug::UseAfterFree => {
            let _ = writeln!(
                s,
                "  if (in == {on} && head) {{ free(head); out[3] = head->val; head = 0; }}"
            );
        }
        Bug::DoubleFree => {
            let _ = writeln!(s, "  if (in == {on} && head) free(head);");
        }
        Bug::Leak => {
            // The last pointer to the first node is overwritten.
            let _ = writeln!(s, "  if (in == {on} && head) head = head->next;");
        }
        Bug::None => {}
    }
    s.push_str("  if (head) out[0] += head->val;\n  free_list(head);\n");
    s.push_str("  if (tree) { free(tree->left); free_list(tree); }\n");
    (s, bug, on, below)
}
