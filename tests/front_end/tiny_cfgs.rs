//! The explorer and the backward step on tiny CFGs, through the library:
//! what states exploration makes, which activations summaries share, and
//! which statements one backward step over a transition puts in focus.
//! Each program is a few lines, so the expected graph is known by hand.

use focuscheck::analysis::explore::{self, Exploration, Explored, Graph, State};
use focuscheck::analysis::step::Options;
use focuscheck::context::conditions::{self, CondId, Property};
use focuscheck::context::Context;
use focuscheck::explain::backward::Backward;
use focuscheck::facts::Analysis;
use focuscheck::ir::lower::LowerOptions;
use focuscheck::ir::Program;
use focuscheck::syntax::source::SourceFile;
use std::collections::BTreeSet;
use std::sync::Arc;

const PRELUDE: &str = "extern int __VERIFIER_nondet_int(void);\n";

fn program(body: &str) -> Program {
    let text = format!("{PRELUDE}{body}");
    let file = Arc::new(SourceFile::new("tiny.c", &text));
    let (p, diags) = focuscheck::load(file, &LowerOptions::default());
    p.unwrap_or_else(|| panic!("tiny.c does not load: {diags:?}"))
}

/// Explores `body` and hands the run to `f`.
fn explored<R>(body: &str, summaries: bool, f: impl FnOnce(&Program, Explored, &Graph) -> R) -> R {
    let p = program(body);
    let a = Analysis::new(&p);
    let conds = conditions::conditions(&p, &a, &[], Property::All, &[]);
    let cx = Context::new(&p, &a, &conds);
    let opts = Options {
        summaries,
        ..Options::default()
    };
    let ex: Exploration = explore::explore(&cx, &opts, None);
    assert_eq!(ex.budget_hit, None, "a tiny program hits no budget");
    let e = Explored {
        cx: &cx,
        frames: &ex.frames,
        t: &ex.t,
        summaries,
        narrowed: ex.narrowed,
    };
    f(&p, e, &ex.graph)
}

/// The source line (in `body`, 1-based) of a state's node.
fn line(p: &Program, s: State) -> u32 {
    p.line(p.node(s.1).span) - PRELUDE.lines().count() as u32
}

/// The lines of the states the graph holds.
fn state_lines(p: &Program, g: &Graph) -> BTreeSet<u32> {
    g.steps
        .iter()
        .flat_map(|(s, out)| std::iter::once(*s).chain(out.iter().map(|st| st.to)))
        .map(|s| line(p, s))
        .collect()
}

fn error_conds(g: &Graph) -> BTreeSet<CondId> {
    g.errors.keys().copied().collect()
}

#[test]
fn straight_line_code_has_one_state_per_point_and_no_error() {
    explored(
        "int main(void) {\n  int x = 1;\n  x = x + 1;\n  if (x != 2) {\n    x = 0;\n  }\n  return 0;\n}\n",
        true,
        |_, _, g| {
            // Constants are exact: one successor per state, no branch taken
            // both ways.
            assert!(g.steps.values().all(|out| out.len() == 1), "{:?}", g.steps);
        },
    );
    explored(
        "int a[2];\nint main(void) {\n  int i = 1;\n  a[i] = 3;\n  return a[i];\n}\n",
        true,
        |_, _, g| assert!(g.errors.is_empty(), "index 1 of a[2] is in bounds: {:?}", g.errors),
    );
}

#[test]
fn a_branch_on_an_input_is_explored_both_ways() {
    let body = "int a[4];\nint main(void) {\n  int x = __VERIFIER_nondet_int();\n  if (x > 3) {\n    a[x] = 1;\n  }\n  return 0;\n}\n";
    explored(body, true, |p, _, g| {
        let branch = g
            .steps
            .iter()
            .find(|(s, _)| line(p, **s) == 4)
            .expect("the branch at line 4 is a state");
        assert_eq!(branch.1.len(), 2, "both outcomes of `x > 3` are possible");
        assert!(state_lines(p, g).contains(&5), "the then-branch is reached");
        // The bounds check of `a[x]` fails for x > 3: one error condition,
        // at line 5.
        let errs = error_conds(g);
        assert_eq!(errs.len(), 1);
        let at: Vec<u32> = g.errors.values().flatten().map(|(s, _)| line(p, *s)).collect();
        assert!(at.iter().all(|&l| l == 5), "{at:?}");
    });
}

#[test]
fn a_constant_bounded_loop_runs_to_its_exit_exactly() {
    // Three iterations, then `i == 3` at the check: the division by
    // `i - 3` fails, and only after the loop.
    let body = "int main(void) {\n  int i = 0;\n  while (i < 3) {\n    i = i + 1;\n  }\n  return 6 / (i - 3);\n}\n";
    explored(body, true, |p, _, g| {
        let at: Vec<u32> = g.errors.values().flatten().map(|(s, _)| line(p, *s)).collect();
        assert_eq!(at, vec![6], "the division fails once, after the loop");
        // The body runs with i = 0, 1, 2: three states at line 4.
        let body_states = g.steps.keys().filter(|s| line(p, **s) == 4).count();
        assert_eq!(body_states, 3);
    });
}

#[test]
fn calls_with_the_same_arguments_share_one_activation_under_summaries() {
    let body = "int twice(int v) {\n  return v + v;\n}\nint main(void) {\n  int a = twice(2);\n  int b = twice(2);\n  int c = twice(3);\n  return a + b + c;\n}\n";
    let entered = |summaries| {
        explored(body, summaries, |p, _, g| {
            let mut by_line: Vec<(u32, u32)> = g
                .calls
                .iter()
                .flat_map(|(s, cs)| cs.iter().map(|(_, c)| (line(p, *s), c.0)))
                .collect();
            by_line.sort();
            by_line
        })
    };
    let shared = entered(true);
    assert_eq!(shared.len(), 3, "{shared:?}");
    assert_eq!(shared[0].1, shared[1].1, "twice(2) twice: one activation");
    assert_ne!(shared[0].1, shared[2].1, "twice(3) is another one");
    let apart = entered(false);
    let distinct: BTreeSet<u32> = apart.iter().map(|x| x.1).collect();
    assert_eq!(
        distinct.len(),
        3,
        "without summaries every call is its own activation: {apart:?}"
    );
}

/// Walks backward from condition `k`'s error along the unique path of a
/// straight-line `main`, one `Backward::update` per transition; the lines
/// whose statements the steps put in focus.
fn focus_lines(body: &str) -> Vec<u32> {
    explored(body, true, |p, e, g| {
        let bw = Backward::new(e);
        assert_eq!(g.errors.len(), 1, "one condition fails: {:?}", g.errors);
        let (&k, errs) = g.errors.iter().next().expect("an error state");
        let (s, l) = errs[0];
        let (mut set, ev) = bw.error_root(k, s, l);
        let mut lines = vec![line(p, s)];
        assert_eq!(ev.node, s.1);
        let mut at = s;
        loop {
            let preds: Vec<_> = g
                .steps
                .iter()
                .flat_map(|(from, out)| out.iter().filter(|st| st.to == at).map(move |st| (*from, st.label)))
                .collect();
            let Some(&(from, label)) = preds.first() else { break };
            assert_eq!(preds.len(), 1, "straight-line code has one predecessor");
            let (before, event) = bw.update(from, label, set);
            if event.is_some() {
                lines.push(line(p, from));
            }
            set = before;
            at = from;
        }
        lines.reverse();
        lines
    })
}

#[test]
fn the_backward_step_keeps_the_writes_the_error_reads_and_drops_the_rest() {
    // Line 6 fails for x == 3. What it reads: y (line 5), which reads x
    // (line 2). z's lines (3, 4) and the dead write of y (line 3) are not
    // in focus.
    let body = "int main(void) {\n  int x = __VERIFIER_nondet_int();\n  int y = 0, z = 5;\n  z = z + 1;\n  y = x + 1;\n  return 10 / (y - 4) + z;\n}\n";
    assert_eq!(focus_lines(body), vec![2, 5, 6]);
}

#[test]
fn the_backward_step_follows_a_value_through_copies_and_stops_at_constants() {
    // d == 0 at the division: d comes from c, c from the constant on line
    // 3; the input on line 2 is never read on the way.
    let body = "int main(void) {\n  int x = __VERIFIER_nondet_int();\n  int c = 0;\n  int d = c;\n  x = x + d;\n  return x / d;\n}\n";
    assert_eq!(focus_lines(body), vec![3, 4, 6]);
}

/// Whether a suffix can hold from a state does not depend on what was
/// asked before: the shared executions (`explain/backward/chain.rs`) and
/// the heads kept at calls' returns are keyed by everything a step reads.
/// Every suffix of the backward walks is asked from every walk state of
/// its procedure, in order, in reverse order, and each with nothing
/// asked before; the three must agree, and both answers must occur.
#[test]
fn a_suffix_holds_from_a_state_whatever_was_asked_before() {
    let body = "int g;\n\
                int f(int a) {\n  if (a > 3)\n    return 1;\n  return 0;\n}\n\
                int main(void) {\n\
                \x20 int x = __VERIFIER_nondet_int();\n\
                \x20 int y = __VERIFIER_nondet_int();\n\
                \x20 g = f(x);\n\
                \x20 if (y > x)\n    g = g + f(y);\n\
                \x20 if (g == 2)\n    if (x < 10)\n      return 10 / (y - 12);\n\
                \x20 return 0;\n}\n";
    explored(body, true, |p, e, g| {
        let conds: Vec<CondId> = error_conds(g).into_iter().collect();
        assert!(!conds.is_empty(), "the division can fail");
        let walked = focuscheck::explain::bsum::candidates(&Backward::new(e), g, &conds);
        let mut states = BTreeSet::new();
        let mut suffixes = BTreeSet::new();
        for ((_, s), sets) in &walked.walks {
            states.insert(*s);
            for (_, a) in sets {
                suffixes.extend(a.iter().cloned());
            }
        }
        let proc_of = |s: &State| p.node(s.1).proc;
        let questions: Vec<(State, _)> = states
            .iter()
            .flat_map(|s| suffixes.iter().map(move |f| (*s, f.clone())))
            .filter(|(s, f)| f.first().is_some_and(|ev| p.node(ev.node).proc == proc_of(s)))
            .collect();
        let in_order: Vec<bool> = {
            let bw = Backward::new(e);
            questions.iter().map(|(s, f)| bw.feasible_from(*s, f)).collect()
        };
        let reversed: Vec<bool> = {
            let bw = Backward::new(e);
            let mut r: Vec<bool> = questions.iter().rev().map(|(s, f)| bw.feasible_from(*s, f)).collect();
            r.reverse();
            r
        };
        let alone: Vec<bool> = questions
            .iter()
            .map(|(s, f)| Backward::new(e).feasible_from(*s, f))
            .collect();
        assert_eq!(in_order, alone, "asked in order vs each alone");
        assert_eq!(reversed, alone, "asked in reverse vs each alone");
        assert!(
            alone.contains(&true) && alone.contains(&false),
            "both answers occur: {alone:?}"
        );
    })
}
