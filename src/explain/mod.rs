//! Explaining a condition: focus-statement sequences from backward
//! summaries, their assumption sets and feasibility, ranking, and the
//! Reduce/NEST localisation (seed 001 §2-3).

pub mod assume;
pub mod backward;
pub mod bsum;
pub mod definitions;
pub mod draw_names;
pub mod entries;
pub mod fss;
pub mod reduce;
pub mod run_graph;
pub mod run_slice;
pub mod slice;
pub mod transfer;
pub mod witness;

use crate::analysis::explore::Explored;
use crate::analysis::explore::Graph;
use crate::analysis::lp::{self, LpOptions, Sat};
use crate::analysis::path::PathError;
use crate::analysis::value::Constraint;
use crate::analysis::witness::Counterexample;
use crate::context::conditions::CondId;
use assume::{Assumption, Feasible, Raw, SymNames};
use entries::Entry;
use fss::Fss;
use std::collections::{BTreeMap, BTreeSet};

/// One feasible focus-statement sequence.
#[derive(Clone, Debug)]
pub struct FssReport {
    pub fss: Fss,
    pub entries: Vec<Entry>,
    pub assumptions: Vec<Assumption>,
    pub raw: Vec<Raw>,
    /// A complete counterexample with this FSS, replayed to the error.
    pub witness: Option<Counterexample>,
}

impl FssReport {
    /// Distinct variables of the assumptions (the second ranking key).
    pub fn vars(&self) -> usize {
        self.assumptions
            .iter()
            .flat_map(|a| a.syms())
            .collect::<BTreeSet<_>>()
            .len()
    }
}

#[derive(Clone, Debug, Default)]
pub struct Explanation {
    /// Feasible FSSs, ranked (Definition 2).
    pub fss: Vec<FssReport>,
    /// Candidates dropped because their assumptions are infeasible.
    pub infeasible: usize,
    /// Candidates whose feasibility the solver could not decide (kept).
    pub undecided: usize,
    /// What Reduce kept (indices into `fss`), with NESTs.
    pub reduced: Vec<reduce::Reduced>,
    /// The listing may be incomplete (a limit cut it short).
    pub truncated: bool,
    /// `--timeout`'s wall clock cut it (what was cut depends on the
    /// machine's speed and load).
    pub clock: bool,
    /// Explained from one confirmed counterexample's run (`explain_run`),
    /// not from the whole explored graph.
    pub of_run: bool,
    /// Why the counterexample's run gave no explanation, when it was tried.
    pub run_failed: Option<String>,
    /// The run was too long to follow symbolically: its FSS is a slice of
    /// its record (`run_slice`).
    pub sliced: bool,
}

/// Per-run numbers of the backward phase.
#[derive(Clone, Debug, Default)]
pub struct ExplainStats {
    pub summaries: usize,
    pub tuples: usize,
    pub candidates: usize,
    pub infeasible: usize,
    /// Steps of the backward phase.
    pub steps: u64,
    pub rules: String,
}

/// Limits of the explanation. Steps are counted the same way on every
/// machine, so what they cut does not depend on its speed or load; the
/// deadline is `--timeout`'s.
#[derive(Clone, Copy, Debug)]
pub struct ExplainLimits {
    /// Search steps for one FSS's counterexample.
    pub witness_steps: u64,
    pub revisits: u32,
    /// Steps of the backward phase (joins and prunes), in all.
    pub backward_steps: u64,
    pub deadline: Option<std::time::Instant>,
}

/// Explains the given conditions.
pub fn explain(
    engine: Explored,
    graph: &Graph,
    users: &[crate::ir::cond::UserCond],
    conds: &[CondId],
    limits: ExplainLimits,
    localise_at: &dyn Fn(u32) -> bool,
    counterpart: Option<&dyn Fn(&str) -> String>,
) -> (BTreeMap<CondId, Explanation>, ExplainStats) {
    let p = engine.cx.p;
    let mut bw = backward::Backward::new(engine);
    bw.deadline = limits.deadline;
    bw.max_steps = limits.backward_steps;
    fss::take_truncated();
    fss::take_work();
    let cands = bsum::candidates(&bw, graph, conds);

    let truncated = fss::take_truncated() || bw.cut.get().is_some();
    let clock = bw.cut.get() == Some(backward::Cut::Clock);
    let searcher = crate::analysis::witness::Searcher::new(engine, graph, users);
    let names = SymNames::new(p);
    let mut stats = ExplainStats {
        summaries: cands.summaries,
        tuples: cands.tuples,
        steps: bw.steps.get() + fss::work() / backward::prune::WORK_PER_STEP,
        rules: cands.stats.clone(),
        ..ExplainStats::default()
    };
    let mut out = BTreeMap::new();
    for (&k, list) in &cands.fss {
        let mut ex = Explanation {
            truncated,
            clock,
            ..Explanation::default()
        };
        stats.candidates += list.len();
        for f in list {
            let (run, feasible) = match assume::fss_constraints(engine, f) {
                Ok(r) => {
                    // Past the deadline only the linear solver is asked:
                    // what it leaves undecided depends on the load.
                    let late = limits.deadline.is_some_and(|d| std::time::Instant::now() > d);
                    ex.truncated |= late;
                    ex.clock |= late;
                    let feasible = assume::feasible(engine, &r, late);
                    (r, feasible)
                }
                Err(PathError::Infeasible) => (assume::FssRun::default(), Feasible::No),
                // The FSS does not execute alone (a checker bug): no
                // assumptions, and the witness search decides.
                Err(PathError::Malformed(why)) => (assume::FssRun::default(), Feasible::Unknown(why)),
            };
            let names = names.for_run(&run);
            match feasible {
                Feasible::No => {
                    ex.infeasible += 1;
                    continue;
                }
                Feasible::Unknown(_) => ex.undecided += 1,
                Feasible::Yes => {}
            }
            // A complete path with this FSS, replayed to the error.
            let guide = witness::FssGuide {
                bw: &bw,
                graph,
                cands: &cands,
                searcher: &searcher,
                k,
                fss: f.clone(),
                assumed: run
                    .raw
                    .iter()
                    .filter(|r| {
                        r.c.e
                            .terms
                            .iter()
                            .all(|t| matches!(t.0, crate::analysis::value::Sym::Input(_)))
                    })
                    .map(|r| r.c.clone())
                    .collect(),
            };
            let search = crate::analysis::witness::SearchLimits {
                revisits: limits.revisits,
                steps: limits.witness_steps,
                deadline: limits.deadline,
                once: false,
            };
            let witness = match searcher.search_guided(k, &guide, search) {
                crate::analysis::witness::Found::Confirmed(cx) => Some(*cx),
                crate::analysis::witness::Found::Infeasible => {
                    // Feasible on its own, but no path with it is.
                    ex.infeasible += 1;
                    continue;
                }
                crate::analysis::witness::Found::NotFound(_)
                | crate::analysis::witness::Found::OutOfBudget(_)
                | crate::analysis::witness::Found::OutOfTime(_) => {
                    // The clock, not the search, may have ended it.
                    if limits.deadline.is_some_and(|d| std::time::Instant::now() > d) {
                        ex.truncated = true;
                        ex.clock = true;
                    }
                    None
                }
            };
            let raw = names.canonical_raw(run.raw);
            let assumptions = assume::merge(p, &names, &raw);
            ex.fss.push(FssReport {
                entries: entries::entries(p, f),
                fss: f.clone(),
                assumptions,
                raw,
                witness,
            });
        }
        stats.infeasible += ex.infeasible;
        reduce_all(engine, &mut ex, localise_at, counterpart);
        out.insert(k, ex);
    }
    // A condition the backward rules found no candidate for is explained
    // too: with no FSS (the report says why).
    for &k in conds {
        out.entry(k).or_insert_with(|| Explanation {
            truncated,
            clock,
            ..Explanation::default()
        });
    }
    (out, stats)
}

/// One condition's explanation from its counterexample's own run (`run`,
/// computed first) and from the search through the explored graph
/// (`graph`, under its budget): the graph's FSSs, with the run's added
/// where no FSS of the graph's is inside it (a subsequence), ranked and
/// reduced together. So the run's FSS is the first unless a better one was
/// found, and a search cut short (`truncated`) loses further FSSs only.
pub fn run_first(
    engine: Explored,
    run: Explanation,
    graph: Explanation,
    localise_at: &dyn Fn(u32) -> bool,
    counterpart: Option<&dyn Fn(&str) -> String>,
) -> Explanation {
    if graph.fss.is_empty() {
        return Explanation {
            truncated: run.truncated || graph.truncated,
            clock: run.clock || graph.clock,
            ..run
        };
    }
    let mut ex = graph;
    let found = ex.fss.len();
    for f in run.fss {
        if !ex.fss[..found].iter().any(|g| fss::is_subseq(&g.fss, &f.fss)) {
            ex.fss.push(f);
        }
    }
    if ex.fss.len() > found {
        reduce_all(engine, &mut ex, localise_at, counterpart);
    }
    ex
}

/// Ranks an explanation's FSSs and runs Reduce over them.
fn reduce_all(
    engine: Explored,
    ex: &mut Explanation,
    localise_at: &dyn Fn(u32) -> bool,
    counterpart: Option<&dyn Fn(&str) -> String>,
) {
    let p = engine.cx.p;
    let localise = |n: crate::ir::NodeId| localise_at(p.node(n).span.lo);
    rank(&mut ex.fss);
    let items: Vec<reduce::Item> = ex
        .fss
        .iter()
        .map(|r| reduce::Item {
            fss: &r.fss,
            entries: &r.entries,
            assumptions: r.assumptions.clone(),
            raw: &r.raw,
        })
        .collect();
    let decides = |context: &[Constraint], c: &Constraint| {
        let range = |s| engine.sym_range(s);
        let with = |extra: Constraint| {
            let mut all = context.to_vec();
            all.push(extra);
            lp::solve(&all, &range, LpOptions::default()) == Sat::No
        };
        with(c.clone()) || with(c.negate())
    };
    let focus = reduce::Focus {
        localise: &localise,
        localise_at,
        reference: counterpart.map(|counterpart| reduce::Reference {
            decides: &decides,
            counterpart,
        }),
    };
    ex.reduced = reduce::reduce(p, &items, &focus);
}

/// Definition 2: shorter first; then fewer variables in the assumptions;
/// then by line numbers, so the order is deterministic.
pub fn rank(list: &mut [FssReport]) {
    list.sort_by(|a, b| {
        a.entries
            .len()
            .cmp(&b.entries.len())
            .then(a.vars().cmp(&b.vars()))
            .then_with(|| entries::lines(&a.entries).cmp(&entries::lines(&b.entries)))
            .then_with(|| a.fss.cmp(&b.fss))
    });
}

/// Explains condition `k` from one confirmed counterexample alone, whatever
/// engine found it: the backward rules over the graph of its run
/// (`run_graph`), so its FSS is the run's own focus statements (DESIGN §6),
/// with assumptions, ranking, Reduce and NEST as for any explanation. Each
/// FSS is checked against the run before it is shown: its statements are a
/// subsequence of the run's, with the run's branch outcomes, and its
/// assumptions over inputs hold on the run's inputs; if one is not, none is
/// shown (and `run_failed` says why). An FSS whose witness search found
/// nothing gets the run itself as its witness (the graph is the run's path,
/// so the run has exactly this FSS).
#[allow(clippy::too_many_arguments)]
pub fn explain_run(
    cx: &crate::context::Context,
    opts: &crate::analysis::step::Options,
    users: &[crate::ir::cond::UserCond],
    k: CondId,
    run: &Counterexample,
    limits: ExplainLimits,
    localise_at: &dyn Fn(u32) -> bool,
    counterpart: Option<&dyn Fn(&str) -> String>,
) -> Explanation {
    // A walk cut by the clock leaves the document depending on the
    // machine's load: it says `truncated`.
    let failed = |why: String| Explanation {
        of_run: true,
        truncated: why.ends_with(run_graph::TIME_LIMIT),
        clock: why.ends_with(run_graph::TIME_LIMIT),
        run_failed: Some(why),
        ..Explanation::default()
    };
    let sliced = |why: String| match run_slice::explain_slice(cx, opts, users, k, run, limits, localise_at, counterpart)
    {
        Ok(ex) => ex,
        Err(e) => failed(format!("{why}; slicing its record instead: {e}")),
    };
    let rg = match run_graph::run_graph(cx, opts, run, k, limits.deadline) {
        Ok(rg) => rg,
        Err(why) if why == run_graph::TIME_LIMIT => return failed(why),
        // Too long to follow (or not followed): its slice.
        Err(why) => return sliced(why),
    };
    if limits.deadline.is_some_and(|d| std::time::Instant::now() > d) {
        return failed(run_graph::TIME_LIMIT.into());
    }
    let explored = Explored {
        cx,
        frames: &rg.exploration.frames,
        t: &rg.exploration.t,
        summaries: opts.summaries,
        narrowed: rg.exploration.narrowed,
    };
    let (mut out, _) = explain(
        explored,
        &rg.exploration.graph,
        users,
        &[k],
        limits,
        localise_at,
        counterpart,
    );
    let mut ex = out.remove(&k).unwrap_or_default();
    ex.of_run = true;
    if ex.fss.is_empty() && !ex.truncated {
        return sliced("the backward rules over it found no FSS".into());
    }
    for f in &mut ex.fss {
        if let Err(why) = fits_run(cx, &rg.path, run, f) {
            return failed(format!("an FSS of the run does not fit it ({why}): none is shown"));
        }
        if f.witness.is_none() && !rg.repeats {
            let mut w = run.clone();
            w.path = rg.path.clone();
            f.witness = Some(w);
        }
    }
    ex
}

/// Whether an FSS is the run's: its statements in the run's order with the
/// run's outcomes, its assumptions over inputs true of the run's inputs.
fn fits_run(
    cx: &crate::context::Context,
    path: &[crate::analysis::path::PathStep],
    run: &Counterexample,
    f: &FssReport,
) -> Result<(), String> {
    use crate::analysis::state::Decision;
    use crate::analysis::value::Sym;
    use fss::EvKind;
    let mut at = 0;
    for ev in f.fss.iter() {
        let outcome = match ev.kind {
            EvKind::Branch(b) => Some(b),
            EvKind::Assign | EvKind::Return | EvKind::Error | EvKind::Call => None,
            // Parts of a call, placed with its segment.
            EvKind::Param(_) | EvKind::Leave | EvKind::Result => continue,
        };
        let found = path[at..].iter().position(|s| {
            s.node == ev.node && outcome.is_none_or(|b| s.decisions.last() == Some(&Decision::Branch(b)))
        });
        match found {
            Some(j) => at += j + 1,
            None => {
                return Err(format!(
                    "{} is not in the run after its previous statements",
                    cx.p.location(cx.p.node(ev.node).span)
                ))
            }
        }
    }
    let inputs: BTreeMap<Sym, i64> = run
        .run
        .input_values(cx.p)
        .into_iter()
        .map(|(i, v)| (Sym::Input(i as u32), v))
        .collect();
    for r in f.raw.iter().filter(|r| !r.definition) {
        let mut missing = false;
        let holds = r.c.holds(&mut |s| {
            inputs.get(&s).copied().unwrap_or_else(|| {
                missing = true;
                0
            })
        });
        if !missing && holds != Some(true) {
            return Err(format!("its assumption {:?} is false of the run's inputs", r.c));
        }
    }
    Ok(())
}
