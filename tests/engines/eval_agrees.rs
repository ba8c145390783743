//! The engines' one concrete evaluator of an expression (`ir::eval`, which
//! the `--error` conditions and the backward step's indices use) agrees
//! with the interpreter, which keeps its own (it is the replay oracle): on
//! runs of generated programs (`support/gen.rs`: narrow and unsigned
//! types, casts, bitwise operations, divisions, arrays with risky
//! indices), every assignment's value, every branch's outcome and every
//! `return`'s value the interpreter computed is what `ir::eval` computes,
//! in both widths, on the state the run was in before that step. With
//! `overflow_checks`, signed arithmetic is `Checked` too.

use crate::gen;

use focuscheck::interp::{self, Config};
use focuscheck::ir::eval::{eval, Width};
use focuscheck::ir::lower::LowerOptions;
use focuscheck::ir::{Cond, NodeKind, Program, VarId};
use focuscheck::syntax::source::SourceFile;
use std::collections::BTreeSet;
use std::sync::Arc;

/// Steps compared in one program's run; disagreements found.
fn compare(name: &str, p: &Program, seed: u64) -> (usize, Vec<String>) {
    let mut observe = BTreeSet::new();
    for n in p.node_ids() {
        match &p.node(n).kind {
            NodeKind::Assign { .. }
            | NodeKind::Return { value: Some(_), .. }
            | NodeKind::Branch {
                cond: Cond::Atom(_), ..
            } => {
                observe.insert(n);
            }
            _ => {}
        }
    }
    let cfg = Config {
        seed: Some(seed),
        max_steps: 200_000,
        ..Config::default()
    };
    let Ok((run, snaps)) = interp::run_observed(p, &cfg, &observe) else {
        return (0, Vec::new());
    };
    let layout = p.layout();
    let steps = run.trace.iter().filter(|s| observe.contains(&s.node));
    let (mut compared, mut wrong) = (0, Vec::new());
    for (step, snap) in steps.zip(&snaps) {
        assert_eq!(
            step.node, snap.node,
            "{name}: the trace and the snapshots are out of step"
        );
        let mut read = |v: VarId, k: i64| {
            let k = u32::try_from(k).ok().filter(|&k| k < p.var(v).slots())?;
            snap.read(p, &layout, v, k)
        };
        let node = p.node(step.node);
        for width in [Width::Wide, Width::Narrow] {
            let (got, want) = match &node.kind {
                NodeKind::Assign { value: e, .. } | NodeKind::Return { value: Some(e), .. } => (
                    eval(e, width, &mut read).map(|v| v as i128),
                    step.value.map(|v| v as i128),
                ),
                NodeKind::Branch {
                    cond: Cond::Atom(a), ..
                } => {
                    let l = eval(&a.lhs, width, &mut read);
                    let r = eval(&a.rhs, width, &mut read);
                    let holds = l.zip(r).map(|(l, r)| a.op.holds(l, r) as i128);
                    (holds, step.outcome.map(|b| b as i128))
                }
                _ => continue,
            };
            // A step the interpreter completed: the same value.
            if want.is_some() && got != want {
                wrong.push(format!(
                    "{name}: node {:?} ({:?}): {width:?} evaluation gives {got:?}, the interpreter {want:?}",
                    step.node, node.kind,
                ));
            }
            compared += 1;
        }
    }
    (compared, wrong)
}

fn check(cfg: &gen::GenConfig, seeds: std::ops::Range<u64>, overflow_checks: bool) {
    let opts = LowerOptions {
        overflow_checks,
        ..LowerOptions::default()
    };
    let (mut compared, mut wrong) = (0, Vec::new());
    for seed in seeds {
        let name = format!("gen{seed}.c");
        let text = gen::program(seed, cfg);
        let Some(p) = focuscheck::load(Arc::new(SourceFile::new(&name, &text)), &opts).0 else {
            continue;
        };
        let (c, w) = compare(&name, &p, seed);
        compared += c;
        wrong.extend(w);
    }
    assert!(compared > 1000, "too few steps compared: {compared}");
    assert!(wrong.is_empty(), "{} disagreements:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn evaluator_agrees_with_the_interpreter_on_generated_programs() {
    check(&gen::GenConfig::default(), 0..150, false);
}

#[test]
fn evaluator_agrees_with_the_interpreter_on_large_values_and_overflow_checks() {
    let cfg = gen::GenConfig {
        constants: (-70_000, 70_000),
        ..gen::GenConfig::default()
    };
    check(&cfg, 1000..1100, true);
    check(&cfg, 2000..2100, false);
}
