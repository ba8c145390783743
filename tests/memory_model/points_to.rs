//! Points-to (`rules/points_to.rs`) and the narrowing of splits by it
//! (`ir::narrow`).
//!
//! - On small programs, the objects each pointer may point to (a snapshot;
//!   `UPDATE_EXPECT=1` to accept a change).
//! - On generated pointer programs (`support/ptr_gen.rs`), against every
//!   run of the program as lowered (`support/exhaust.rs`): every node a run
//!   executes is `live`, every branch edge it takes is `live_edge`, every
//!   value it writes is a `value` of the variable or the variable is `top`;
//!   the narrowed program ends every run as the lowered one does; and the
//!   verdicts on the narrowed program, the Datalog engine's and the VC
//!   engine's, hold of the lowered program's runs (a safe condition is
//!   reached by none, an unsafe one replays to its error).
//!
//! `FOCUSCHECK_POINTS_TO_PROGRAMS=N` checks more seeds.

use crate::exhaust;
use crate::ptr_gen;

use focuscheck::analysis::Verdict;
use focuscheck::check::check_with;
use focuscheck::engines::{Engine, VcPlan};
use focuscheck::interp::{self, Config, Outcome, Run};
use focuscheck::ir::lower::LowerOptions;
use focuscheck::ir::points_to::{PointsTo, PointsToInput};
use focuscheck::ir::{narrow, NodeKind, Program, SiteId, VarId};
use focuscheck::syntax::source::SourceFile;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Duration;

fn load(name: &str, text: &str) -> Program {
    let (p, diags) = focuscheck::load(Arc::new(SourceFile::new(name, text)), &LowerOptions::default());
    p.unwrap_or_else(|| panic!("{name} does not load: {diags:?}\n{text}"))
}

/// The program as lowered, before narrowing.
fn lowered(p: &Program) -> Program {
    let mut q = p.clone();
    narrow::restore(&mut q);
    q
}

/// Each pointer of `main` and the callees with the objects it may point
/// to (`NULL` for 0, `top`: any), and how many nodes narrowing changed.
fn summary(text: &str) -> String {
    let p = load("t.c", text);
    let pt = PointsTo::new(&PointsToInput::new(&lowered(&p)));
    let mut by_var: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let tags: BTreeSet<VarId> = focuscheck::ir::pointers::pointer_leaves(&p).into_keys().collect();
    for &(v, k) in &pt.value {
        if tags.contains(&v) {
            let o = match k {
                0 => "NULL".to_string(),
                _ => p.memory.object(k).map_or(format!("?{k}"), |o| o.region()),
            };
            by_var.entry(p.qualified_name(v)).or_default().push(o);
        }
    }
    for &v in &pt.top {
        if tags.contains(&v) {
            by_var.entry(p.qualified_name(v)).or_default().push("top".into());
        }
    }
    let mut out: Vec<String> = (by_var.into_iter())
        .filter(|(v, _)| !v.contains("::(") && !v.contains("__mem"))
        .map(|(v, os)| format!("{v} -> {}", os.join(", ")))
        .collect();
    out.push(format!("narrowed: {}", p.narrowed.len()));
    out.join("\n")
}

const HEAD: &str = "extern void reach_error(void);\nextern int __VERIFIER_nondet_int(void);\n";

#[test]
fn points_to_of_small_programs() {
    let cases = [
        "int x, y;\nint main(void) { int *p = &x; int *q = &y; *p = 1; *q = 2; if (x != 1) reach_error(); return 0; }",
        "int x, y;\nint main(void) { int *p = &x; int **pp = &p; *pp = &y; *p = 3; return x; }",
        "int x, y;\nint *id(int *a) { return a; }\nvoid put(int *r) { *r = 4; }\n\
         int main(void) { int *p = id(&x); put(p); put(&y); return *p; }",
        "int x, y, z;\nint *ptrs[2];\n\
         int main(void) { ptrs[0] = &x; ptrs[1] = &y; int *p = ptrs[__VERIFIER_nondet_int() & 1]; *p = 1; return z; }",
        "struct S { int v; int *f; };\nint x, y;\nstruct S s;\n\
         int main(void) { s.f = &x; struct S *sp = &s; int *p = sp->f; *p = 2; p = &y; return *p + s.v; }",
        "int x, y, z;\nint main(void) { int in = __VERIFIER_nondet_int(); int *p = &x; if (in) p = &y; *p = 1; return z; }",
        "int x;\nint main(void) { int *h = malloc(2 * sizeof(int)); if (!h) return 0; int *p = &h[1]; *p = 5; int *q = &x; *q = 1; free(h); return 0; }",
        "int x, y;\nint main(void) { void *v = &x; int *p = (int *)v; *p = 1; int *q = &y; return *q; }",
    ];
    let got: Vec<String> = cases
        .iter()
        .enumerate()
        .map(|(i, c)| format!("case {i}:\n{}", summary(&format!("{HEAD}{c}\n"))))
        .collect();
    expect_test::expect![[r#"
        case 0:
        main::p -> NULL, x
        main::q -> NULL, y
        narrowed: 6

        case 1:
        main::pp -> NULL, p
        p -> NULL, x, y
        narrowed: 0

        case 2:
        id::a -> NULL, x
        main::p -> NULL, x
        put::r -> NULL, x, y
        narrowed: 3

        case 3:
        main::p -> NULL, x, y
        ptrs -> NULL, x, y
        narrowed: 0

        case 4:
        main::p -> NULL, x, y
        main::sp -> NULL, s
        s.f -> NULL, x
        narrowed: 6

        case 5:
        main::p -> NULL, x, y
        narrowed: 0

        case 6:
        main::h -> NULL, malloc@4#1, malloc@4#2, malloc@4#3, malloc@4#4
        main::p -> NULL, malloc@4#1, malloc@4#2, malloc@4#3, malloc@4#4
        main::q -> NULL, x
        narrowed: 19

        case 7:
        main::p -> NULL, x
        main::q -> NULL, y
        main::v -> NULL, x
        narrowed: 6"#]]
    .assert_eq(&got.join("\n\n"));
}

/// The values a run writes, each checked against the rules' `value`/`top`;
/// the nodes and edges it takes against `live`/`live_edge`.
fn run_is_covered(p: &Program, pt: &PointsTo, run: &Run) -> Result<(), String> {
    let top: BTreeSet<VarId> = pt.top.iter().copied().collect();
    let holds = |v: VarId, k: i64| top.contains(&v) || pt.value.binary_search(&(v, k)).is_ok();
    for (i, step) in run.trace.iter().enumerate() {
        let n = step.node;
        if !pt.is_live(n) {
            return Err(format!("{n} runs but is not live"));
        }
        match (&p.node(n).kind, step.outcome, step.value) {
            (NodeKind::Branch { then_, else_, .. }, Some(o), _) => {
                let to = if o { *then_ } else { *else_ };
                if !pt.is_live_edge(n, to) {
                    return Err(format!("{n} -> {to} is taken but not live"));
                }
            }
            (NodeKind::Assign { place, .. } | NodeKind::Havoc { place, .. }, _, Some(k)) if !holds(place.var, k) => {
                return Err(format!(
                    "{n} writes {k} to {}: not a value",
                    p.qualified_name(place.var)
                ));
            }
            (NodeKind::Return { .. }, _, Some(k)) => {
                let rv = p.proc(p.node(n).proc).ret_var.expect("a value returned");
                if !holds(rv, k) {
                    return Err(format!("{n} returns {k}: not a value of the return variable"));
                }
            }
            (NodeKind::Call { callee, .. }, _, _) => {
                let args = run.call_args.iter().find(|(at, _)| *at == i).map(|(_, a)| a.clone());
                for (param, k) in p.proc(*callee).params.iter().zip(args.unwrap_or_default()) {
                    if !holds(*param, k) {
                        return Err(format!("{n} passes {k} to {}: not a value", p.qualified_name(*param)));
                    }
                }
            }
            _ => {}
        }
    }
    Ok(())
}

const PROGRAMS: u64 = 60;

#[test]
fn narrowing_keeps_every_run_and_verdict_of_generated_pointer_programs() {
    let dom = exhaust::Domain::default();
    let count = exhaust::env("FOCUSCHECK_POINTS_TO_PROGRAMS", PROGRAMS);
    let (mut narrowed, mut runs, mut verdicts) = (0, 0, [0usize; 3]);
    let mut failures = Vec::new();
    for seed in 0..count {
        let text = ptr_gen::program(seed, seed % 3 == 0);
        let p = load(&format!("ptr{seed}.c"), &text);
        let orig = lowered(&p);
        narrowed += usize::from(!p.narrowed.is_empty());
        let pt = PointsTo::new(&PointsToInput::new(&orig));
        let mut reached: BTreeMap<SiteId, usize> = BTreeMap::new();
        let mut fail = |what: String| failures.push(format!("seed {seed}: {what}\n{text}"));
        exhaust::enumerate(&orig, &dom, |cfg, run| {
            runs += 1;
            if let Outcome::Error { site, .. } = run.outcome {
                *reached.entry(site).or_default() += 1;
            }
            if let Err(e) = run_is_covered(&orig, &pt, run) {
                fail(format!("choices {:?}: {e}", cfg.choices));
            }
            match interp::run(&p, cfg) {
                Ok(n) if n.outcome == run.outcome && n.globals == run.globals => {}
                other => fail(format!(
                    "choices {:?}: the lowered program ends {:?}, the narrowed one {:?}",
                    cfg.choices,
                    run.outcome,
                    other.map(|r| r.outcome)
                )),
            }
        });
        let mut opts = focuscheck::analysis::CheckOptions::default();
        opts.engine.timeout = Some(Duration::from_secs(20));
        let engines: &[Engine] = if seed % 3 == 0 {
            &[Engine::Fsum, Engine::Vc]
        } else {
            &[Engine::Fsum]
        };
        for &engine in engines {
            let report = check_with(&p, &[], &opts, engine, &VcPlan::default(), std::time::Instant::now());
            for r in &report.results {
                let Some(site) = report.condition(r).site() else {
                    continue;
                };
                let at = p.location(p.site(site).span);
                match r.verdict {
                    Verdict::Safe => {
                        verdicts[0] += 1;
                        if let Some(k) = reached.get(&site) {
                            fail(format!("{} calls {at} safe, but {k} runs reach it", engine.name()));
                        }
                    }
                    Verdict::Unsafe => {
                        verdicts[1] += 1;
                        let cx = r
                            .counterexample
                            .as_ref()
                            .expect("an unsafe verdict has a counterexample");
                        let cfg = Config {
                            inputs: cx.inputs.iter().cloned().collect(),
                            choices: cx.choices.clone(),
                            ..Config::default()
                        };
                        let replays = interp::run(&orig, &cfg)
                            .is_ok_and(|run| matches!(run.outcome, Outcome::Error { site: s, .. } if s == site));
                        if !replays {
                            fail(format!(
                                "{} calls {at} unsafe; on the lowered program it does not replay",
                                engine.name()
                            ));
                        }
                    }
                    Verdict::Unknown => verdicts[2] += 1,
                }
            }
        }
    }
    eprintln!(
        "{count} programs, {narrowed} narrowed, {runs} runs; verdicts safe {}, unsafe {}, unknown {}",
        verdicts[0], verdicts[1], verdicts[2]
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        narrowed * 2 >= count as usize,
        "only {narrowed} of {count} programs were narrowed"
    );
    assert!(
        verdicts[0] >= 20 && verdicts[1] >= 20,
        "too few decided verdicts: {verdicts:?}"
    );
}

/// `run --init` and `diff --init` run a procedure before the entry: not a
/// run the narrowing (from the entry) saw, so the program runs as lowered.
#[test]
fn a_run_after_init_is_not_narrowed() {
    let text = "int x, y;\nint *g = &x;\nvoid setup(void) { g = &y; }\nint main(void) { *g = 5; return y; }\n";
    let p = load("init.c", text);
    assert!(!p.narrowed.is_empty(), "`*g` in main can only reach `x` from the entry");
    let setup = p.proc_by_name("setup").expect("setup");
    let run = interp::run_after(&p, &Config::default(), Some(setup)).expect("a run");
    assert_eq!((run.outcome, run.returned), (Outcome::Finished, Some(5)));
}
