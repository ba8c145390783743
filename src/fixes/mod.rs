//! Fix candidates: a second localisation beside Reduce's NEST. Where the
//! NEST says which statements the error depends on, this says which
//! one-token edits of them make the error go away: each edit of the top
//! FSS's lines (the specification left out, `spec.rs`) is made, the known
//! counterexamples are replayed on the edited program, and those that no
//! longer fail are checked again. The lines of the best fixes are the
//! *fix region*. Everything is counted, nothing timed: the same program
//! gives the same fixes on any machine.

pub mod edits;
pub mod hide;
pub mod missing;
pub mod spec;

use crate::analysis::witness::Counterexample;
use crate::analysis::{CheckOptions, CondReport, Verdict};
use crate::check::Report;
use crate::context::conditions::Condition;
use crate::engines::{Engine, VcPlan};
use crate::interp::{self, Outcome};
use crate::ir::lower::LowerOptions;
use crate::ir::Program;
use crate::syntax::source::SourceFile;
use edits::Edit;
use hide::{Hide, Lines};
use std::cell::Cell;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;
use std::time::Instant;

/// Limits of one condition's search (counts, so the result does not
/// depend on the machine).
#[derive(Clone, Copy, Debug)]
pub struct FixOptions {
    /// Edits made and replayed.
    pub edits: usize,
    /// Edits checked again with the Datalog engine.
    pub checks: usize,
    /// States of each of those checks.
    pub states: u64,
    /// States of all of them together (a large state space costs each recheck all `states`).
    pub all_states: u64,
    /// Edits whose recheck found no counterexample, given to the VC engine.
    pub vc_checks: usize,
    /// Interpreter steps all replays of edited programs may take together
    /// (a long run replayed on every edit is what costs most).
    pub steps: u64,
}

impl FixOptions {
    /// The search every single-file `check` makes (`--no-fixes` turns it
    /// off): few rechecks, each small, and none by the VC engine, whose
    /// limits are times.
    pub fn small() -> FixOptions {
        FixOptions {
            edits: 150,
            checks: 8,
            states: 20_000,
            all_states: 60_000,
            vc_checks: 0,
            steps: 20_000_000,
        }
    }
}

impl Default for FixOptions {
    fn default() -> Self {
        FixOptions {
            edits: 400,
            checks: 24,
            states: 50_000,
            all_states: 1_200_000,
            vc_checks: 4,
            steps: 200_000_000,
        }
    }
}

/// What says that an edit fixes the error, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Proof {
    /// A check of the edited program proved the condition safe (and left
    /// every condition safe that was).
    Safe,
    /// A check of the edited program found no counterexample, but did not
    /// prove it safe.
    NoCounterexample,
    /// The known counterexamples no longer fail; the edited program was not
    /// checked again (the search's limit of checks was reached).
    Runs,
}

impl Proof {
    pub fn name(self) -> &'static str {
        match self {
            Proof::Safe => "safe",
            Proof::NoCounterexample => "no_counterexample",
            Proof::Runs => "runs",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Fix {
    pub edit: Edit,
    /// How the edit hides the error rather than mends it (ranked after
    /// those that mend).
    pub hides: Option<Hide>,
    pub line: u32,
    pub column: u32,
    pub proof: Proof,
}

#[derive(Clone, Debug, Default)]
pub struct Fixes {
    /// Best first.
    pub fixes: Vec<Fix>,
    /// The lines whose edits were tried.
    pub lines: BTreeSet<u32>,
    pub tried: usize,
    /// Edits that gave a program focuscheck accepts.
    pub compiled: usize,
    /// A limit cut the search: a better fix may have been left untried.
    pub cut: bool,
    /// The cut was the wall clock's (`--timeout`): on another machine or
    /// under another load the search may go further.
    pub clock: bool,
    /// Assignments missing before reads the error depends on: where each
    /// belongs is part of the region.
    pub missing: Vec<missing::Missing>,
}

impl Fixes {
    /// Where each missing assignment belongs, and the lines of the
    /// best-ranked fixes (unless they only hide the error and an
    /// assignment is missing).
    pub fn region(&self) -> Vec<u32> {
        let mut lines: BTreeSet<u32> = self.missing.iter().flat_map(|m| m.lines.iter().copied()).collect();
        let best = self.fixes.first().filter(|b| lines.is_empty() || b.hides.is_none());
        if let Some(best) = best {
            let key = (best.hides.is_some(), best.proof);
            lines.extend(
                self.fixes
                    .iter()
                    .filter(|f| (f.hides.is_some(), f.proof) == key)
                    .map(|f| f.line),
            );
        }
        lines.into_iter().collect()
    }
}

/// The checked program and how it was made, to make and check edits of it.
pub struct Original<'a> {
    /// As checked (contracts instrumented).
    pub program: &'a Program,
    pub report: &'a Report,
    pub lower: &'a LowerOptions,
    pub opts: &'a CheckOptions,
    /// The `--error` conditions.
    pub errors: &'a [String],
    /// A guard only: past it, no more edits are checked (`Fixes::clock`).
    pub deadline: Option<Instant>,
}

/// The fix candidates of condition `r` (confirmed unsafe).
pub fn find(o: &Original, r: &CondReport, limits: &FixOptions) -> Fixes {
    let p = o.program;
    let mut out = Fixes::default();
    let Some(decisive) = r.counterexample.as_ref() else {
        return out;
    };
    // The check may have used the time up: then nothing is started (the
    // stages below each take as long as the run).
    if o.deadline.is_some_and(|d| Instant::now() >= d) {
        (out.cut, out.clock) = (true, true);
        return out;
    }
    let cond = o.report.condition(r);
    let runs = known_runs(o, r, decisive);
    let (passing, endless) = passing_runs(o);
    let spec = spec::specification(p, cond, decisive);
    let adjacent = spec::adjacent(p, &o.report.analysis, decisive, &spec);
    let run_lines: Vec<Lines> = runs.iter().map(|cx| hide::lines_of(p, &cx.run.trace)).collect();
    out.lines = search_lines(o, r, decisive).difference(&spec).copied().collect();
    let before = hide::Before::new(p, &o.report.analysis, cond, decisive, &out.lines);
    // First, so that a search the clock cuts still has it (one replay,
    // each read looked up in indexes of the run).
    let (missing, cut) = missing_assignments(o, r, decisive);
    (out.missing, out.cut, out.clock) = (missing, cut, cut);
    let mut all = edits::candidates(p, &out.lines);
    // A macro's definition is one edit, however often it is expanded.
    let mut seen = BTreeSet::new();
    all.retain(|e| seen.insert((e.span.lo, e.to.clone())));
    // The comparisons and constants of the branches that lead to the
    // error, nearest it first, then the rest (a limit cuts those first).
    let first = condition_lines(o, r, decisive);
    all.sort_by_key(|e| first_rank(&first, p.source.line_col(e.span.lo).line, e.kind));
    if all.len() > limits.edits {
        all.truncate(limits.edits);
        out.cut = true;
    }
    let target = key(p, cond, &o.report.conds);
    let safe_before: BTreeSet<Key> = o
        .report
        .results
        .iter()
        .filter(|x| x.verdict == Verdict::Safe)
        .map(|x| key(p, o.report.condition(x), &o.report.conds))
        .collect();
    let mut opts = o.opts.clone();
    opts.explain = false;
    opts.engine.max_states = limits.states;
    opts.engine.timeout = None;
    opts.engine.memory = None;
    // The edited programs the VC engine may be asked about (by fix). Every
    // edit is replayed first; the rechecks come after, so that they are
    // shared out among the lines rather than spent on the first ones.
    let mut edited = Vec::new();
    let past = || o.deadline.is_some_and(|d| Instant::now() >= d);
    let spent = Cell::new(0);
    for edit in all {
        if past() {
            (out.cut, out.clock) = (true, true);
            break;
        }
        if spent.get() >= limits.steps {
            out.cut = true;
            break;
        }
        out.tried += 1;
        let Some((q, users)) = load(o, &edit) else {
            continue;
        };
        out.compiled += 1;
        // Each run of the edited program is bounded by steps; the clock is
        // looked at before each, not only before each edit.
        let Some(after_cx) = runs
            .iter()
            .map(|cx| {
                if past() {
                    None
                } else {
                    passes(&q, &users, cx, endless, &spent)
                }
            })
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        let Some(after_passing) = passing
            .iter()
            .map(|(v, n, _)| {
                if past() {
                    None
                } else {
                    still_passes(&q, &users, *v, *n, &spent)
                }
            })
            .collect::<Option<Vec<_>>>()
        else {
            continue;
        };
        let at = p.source.line_col(edit.span.lo);
        let cx_pairs: Vec<(&Lines, &Lines)> = run_lines.iter().zip(&after_cx).collect();
        let passing_pairs: Vec<(&Lines, &Lines)> = passing.iter().map(|x| &x.2).zip(&after_passing).collect();
        let hides = if adjacent.guards.contains(&at.line) {
            Some(Hide::Guard)
        } else if adjacent.oracles.contains(&at.line) {
            Some(Hide::Oracle)
        } else {
            before.judge(&cx_pairs, &passing_pairs, at.line, || probes(&q, &users, &spent))
        };
        out.fixes.push(Fix {
            hides,
            line: at.line,
            column: at.col,
            proof: Proof::Runs,
            edit,
        });
        edited.push(Some((q, users)));
    }
    // The fixes that mend first, then with what is left of the checks
    // those that only hide.
    let (mend, hide): (Vec<usize>, Vec<usize>) = (0..out.fixes.len()).partition(|&i| out.fixes[i].hides.is_none());
    let mut refuted = BTreeSet::new();
    let mut rc = Rechecks {
        o,
        opts: &mut opts,
        target: &target,
        safe_before: &safe_before,
        left: limits.checks,
        states: (limits.states, limits.all_states),
    };
    let mend = mend_order(p, decisive, &out.fixes, mend, &first);
    rc.run(&mut out, &edited, mend, &mut refuted);
    rc.run(&mut out, &edited, hide, &mut refuted);
    for (e, f) in edited.iter_mut().zip(&out.fixes) {
        if f.proof != Proof::NoCounterexample {
            *e = None;
        }
    }
    vc_rechecks(
        o,
        &mut out,
        &edited,
        (limits, &first),
        &opts,
        (&target, &safe_before),
        &mut refuted,
    );
    let mut i = 0;
    out.fixes.retain(|_| {
        i += 1;
        !refuted.contains(&(i - 1))
    });
    out.fixes.sort_by(|a, b| rank(a, &first).cmp(&rank(b, &first)));
    out
}

/// The Datalog rechecks of one search: how many are left, and what each
/// compares with.
struct Rechecks<'a, 'o> {
    o: &'a Original<'o>,
    opts: &'a mut CheckOptions,
    target: &'a Key,
    safe_before: &'a BTreeSet<Key>,
    left: usize,
    /// States of each recheck, and those left of all of them.
    states: (u64, u64),
}

impl Rechecks<'_, '_> {
    /// Rechecks the fixes `order` (while checks are left): each gets its
    /// proof, or is added to `refuted`; those left unchecked cut the search.
    fn run(
        &mut self,
        out: &mut Fixes,
        edited: &[Option<(Program, Vec<crate::ir::cond::UserCond>)>],
        order: Vec<usize>,
        refuted: &mut BTreeSet<usize>,
    ) {
        for i in order {
            if self.left == 0 || self.states.1 == 0 || out.clock {
                out.cut = true;
                return;
            }
            self.left -= 1;
            let Some((q, users)) = &edited[i] else { continue };
            self.opts.engine.max_states = self.states.0.min(self.states.1);
            let explored = Cell::new(0);
            let proof = datalog(self.o, q, users, self.opts, (self.target, self.safe_before), &explored);
            self.states.1 = self.states.1.saturating_sub(explored.get());
            match proof {
                Ok(Some(proof)) => out.fixes[i].proof = proof,
                Ok(None) => {
                    refuted.insert(i);
                }
                Err(Clock) => (out.cut, out.clock) = (true, true),
            }
        }
    }
}

/// The order the fixes that mend are rechecked in: by rounds over their
/// lines (the first edit of each line, then the second, ...), a round
/// taking the comparisons and constants of the branches that lead to the
/// error first (`first`, nearest it first), then the lines the
/// counterexample ran last first (those nearest the error), then the lines
/// it did not run, in text order. Within a line the kinds of edit take
/// turns (its first variable, comparison, constant..., then the second of
/// each), so that the many variables tried in one use's place do not
/// crowd out the line's one operator edit.
fn mend_order(
    p: &Program,
    cx: &Counterexample,
    fixes: &[Fix],
    mut mend: Vec<usize>,
    first: &BTreeMap<u32, usize>,
) -> Vec<usize> {
    let mut last: BTreeMap<u32, usize> = BTreeMap::new();
    for (i, s) in cx.run.trace.iter().enumerate() {
        last.insert(p.line(p.node(s.node).span), i);
    }
    let recency = |line: u32| last.get(&line).map_or((1, 0, line), |&i| (0, usize::MAX - i, line));
    mend.sort_unstable();
    let mut nth: BTreeMap<(u32, edits::Kind), usize> = BTreeMap::new();
    let turn: BTreeMap<usize, usize> = (mend.iter())
        .map(|&i| {
            let k = nth.entry((fixes[i].line, fixes[i].edit.kind)).or_default();
            *k += 1;
            (i, *k)
        })
        .collect();
    let tier = |i: usize| first_rank(first, fixes[i].line, fixes[i].edit.kind);
    mend.sort_by_key(|&i| (tier(i), recency(fixes[i].line), turn[&i], i));
    round_robin(mend, |&i| fixes[i].line)
}

/// A recheck of an edited program with the Datalog engine, its limits
/// counts; the whole check, this search included, keeps to `--timeout`.
fn datalog(
    o: &Original,
    q: &Program,
    users: &[crate::ir::cond::UserCond],
    opts: &mut CheckOptions,
    (target, safe_before): (&Key, &BTreeSet<Key>),
    explored: &Cell<u64>,
) -> Result<Option<Proof>, Clock> {
    if let Some(d) = o.deadline {
        match d.checked_duration_since(Instant::now()) {
            Some(left) if !left.is_zero() => opts.engine.timeout = Some(left),
            _ => return Err(Clock),
        }
    }
    let plan = VcPlan::default();
    recheck(q, users, opts, (Engine::Fsum, &plan), (target, safe_before), explored)
}

/// The best fixes the Datalog engine could not prove go to the VC engine
/// (its modes that prove: Houdini's invariants, k-induction); those it
/// refutes are added to `refuted`.
fn vc_rechecks(
    o: &Original,
    out: &mut Fixes,
    edited: &[Option<(Program, Vec<crate::ir::cond::UserCond>)>],
    (limits, first): (&FixOptions, &BTreeMap<u32, usize>),
    opts: &CheckOptions,
    (target, safe_before): (&Key, &BTreeSet<Key>),
    refuted: &mut BTreeSet<usize>,
) {
    let mut plan = VcPlan {
        unroll: Vec::new(),
        ..VcPlan::default()
    };
    let mut open: Vec<usize> = (0..out.fixes.len())
        .filter(|&i| out.fixes[i].proof == Proof::NoCounterexample && !refuted.contains(&i))
        .collect();
    open.sort_by(|&i, &j| rank(&out.fixes[i], first).cmp(&rank(&out.fixes[j], first)));
    // They go round the lines (the best open edit of each line, then the
    // second, ...), so that they are not all spent on one line's edits.
    let open = round_robin(open, |&i| out.fixes[i].line);
    for i in open.into_iter().take(limits.vc_checks) {
        if let Some(d) = o.deadline {
            match d.checked_duration_since(Instant::now()) {
                Some(left) => plan.budget = plan.budget.min(left),
                None => {
                    (out.cut, out.clock) = (true, true);
                    break;
                }
            }
        }
        let Some((q, users)) = &edited[i] else {
            continue;
        };
        match recheck(
            q,
            users,
            opts,
            (Engine::Vc, &plan),
            (target, safe_before),
            &Cell::new(0),
        ) {
            Ok(None) => {
                refuted.insert(i);
            }
            Ok(Some(Proof::Safe)) => out.fixes[i].proof = Proof::Safe,
            Ok(Some(_)) => {}
            Err(Clock) => (out.cut, out.clock) = (true, true),
        }
    }
}

/// `items` reordered by rounds: the first item of each line (in the order
/// given), then the second of each, and so on.
fn round_robin<T>(items: Vec<T>, line: impl Fn(&T) -> u32) -> Vec<T> {
    let mut nth: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    let mut keyed: Vec<(usize, usize, T)> = items
        .into_iter()
        .enumerate()
        .map(|(i, x)| {
            let k = nth.entry(line(&x)).or_default();
            *k += 1;
            (*k, i, x)
        })
        .collect();
    keyed.sort_by_key(|&(round, i, _)| (round, i));
    keyed.into_iter().map(|(_, _, x)| x).collect()
}

/// Best first: mending (not hiding), best proved, a comparison or constant
/// of a branch that leads to the error (nearest it first), in text order.
fn rank<'f>(f: &'f Fix, first: &BTreeMap<u32, usize>) -> (bool, Proof, (u8, usize), u32, u32, &'f str) {
    let tier = first_rank(first, f.line, f.edit.kind);
    (f.hides.is_some(), f.proof, tier, f.line, f.column, &f.edit.to)
}

/// The counterexamples known for the condition: each FSS's witness and
/// the one that decided the verdict, each once.
fn known_runs<'a>(o: &'a Original, r: &CondReport, decisive: &'a Counterexample) -> Vec<&'a Counterexample> {
    let mut out = vec![decisive];
    if let Some(ex) = o.report.explanations.get(&r.id) {
        for w in ex.fss.iter().filter_map(|f| f.witness.as_ref()) {
            if !out.iter().any(|c| c.inputs == w.inputs && c.choices == w.choices) {
                out.push(w);
            }
        }
    }
    out
}

/// The lines to edit: the statements of the top FSS (Reduce's first, as
/// the report shows it) and the definitions its NEST reads, else the lines
/// the counterexample's run passes.
fn search_lines(o: &Original, r: &CondReport, cx: &Counterexample) -> BTreeSet<u32> {
    let p = o.program;
    let mut out = BTreeSet::new();
    let ex = o.report.explanations.get(&r.id);
    let top = ex.and_then(|e| {
        let i = e.reduced.first().map_or(0, |x| x.index);
        Some((e.fss.get(i)?, e.reduced.first()))
    });
    match top {
        Some((fss, reduced)) => {
            for e in &fss.entries {
                let span = p.unit(e.unit).span;
                out.extend(p.line(span)..=last_line(p, span));
            }
            for d in reduced.map(|x| &x.definitions[..]).unwrap_or_default() {
                out.insert(p.line(*d));
            }
        }
        None => out.extend(cx.run.trace.iter().map(|s| p.line(p.node(s.node).span))),
    }
    out
}

/// The lines of the top FSS's conditions (the branches that lead to the
/// error), each with its rank: nearest the error first, by the
/// counterexample's last step on it, then those it did not run.
fn condition_lines(o: &Original, r: &CondReport, cx: &Counterexample) -> BTreeMap<u32, usize> {
    let p = o.program;
    let Some(e) = o.report.explanations.get(&r.id) else {
        return BTreeMap::new();
    };
    let Some(fss) = e.fss.get(e.reduced.first().map_or(0, |x| x.index)) else {
        return BTreeMap::new();
    };
    let mut lines = BTreeSet::new();
    for u in fss.entries.iter().map(|x| p.unit(x.unit)) {
        if u.kind == crate::ir::UnitKind::Cond {
            lines.extend(p.line(u.span)..=last_line(p, u.span));
        }
    }
    let mut last = BTreeMap::new();
    for (i, s) in cx.run.trace.iter().enumerate() {
        let line = p.line(p.node(s.node).span);
        if lines.contains(&line) {
            last.insert(line, i);
        }
    }
    let mut order: Vec<u32> = lines.into_iter().collect();
    order.sort_by_key(|l| last.get(l).map_or((1, 0), |&i| (0, usize::MAX - i)));
    order.into_iter().enumerate().map(|(k, l)| (l, k)).collect()
}

/// A comparison's or constant's edit on a line of `first`: its rank there; others after.
fn first_rank(first: &BTreeMap<u32, usize>, line: u32, kind: edits::Kind) -> (u8, usize) {
    match first.get(&line) {
        Some(&k) if matches!(kind, edits::Kind::Compare | edits::Kind::Constant) => (0, k),
        _ => (1, 0),
    }
}

/// The assignments missing before the top FSS's reads (`missing.rs`),
/// and whether the deadline cut that search.
fn missing_assignments(o: &Original, r: &CondReport, cx: &Counterexample) -> (Vec<missing::Missing>, bool) {
    let Some(e) = o.report.explanations.get(&r.id) else {
        return (Vec::new(), false);
    };
    let Some(fss) = e.fss.get(e.reduced.first().map_or(0, |x| x.index)) else {
        return (Vec::new(), false);
    };
    let Ok(users) = crate::ir::cond::user_conditions(o.program, o.errors) else {
        return (Vec::new(), false);
    };
    let units = fss.entries.iter().map(|x| x.unit).collect();
    missing::find(o.program, &o.report.analysis, &users, cx, &units, o.deadline)
}

/// The run ends without an error (the entry returns, or `abort()`/a
/// failed assumption stops it): the lines it visits.
fn ends_normally(q: &Program, cfg: &interp::Config, spent: &Cell<u64>) -> Option<Lines> {
    let run = counted(interp::run(q, cfg).ok()?, spent);
    matches!(run.outcome, Outcome::Finished | Outcome::Halted { .. }).then(|| hide::lines_of(q, &run.trace))
}

/// A name the program's text declares, not one the lowering made (a
/// struct leaf `s.a`, a call's `f::(ret)`, a temporary `__mem1`).
fn source_name(name: &str) -> bool {
    !name.contains(['.', ':']) && !name.starts_with("__")
}

/// The line a span ends on.
pub(super) fn last_line(p: &Program, span: crate::syntax::source::Span) -> u32 {
    p.source.line_col(span.hi.saturating_sub(1).max(span.lo)).line
}

/// The edited program, as `check` would check it.
fn load(o: &Original, edit: &Edit) -> Option<(Program, Vec<crate::ir::cond::UserCond>)> {
    let source = &o.program.source;
    let file = Arc::new(SourceFile::new(source.name.clone(), edit.apply(&source.text)));
    let (q, _) = crate::load(file, o.lower);
    crate::ir::load::prepare(q?, o.errors, true).ok()
}

/// Values every input and choice takes in the runs a fix must not break.
const FILLS: [i64; 5] = [0, 1, -1, 2, 100];

/// Seeds of further such runs whose inputs and choices are drawn one by
/// one (`interp`'s `--seed`): a loop that reads until a value is 0 ends
/// on them, and two inputs differ, where every fill repeats one value.
const SEEDS: [u64; 4] = [1, 2, 3, 4];

/// Longer runs of the original are not repeated on every edit.
const PASSING_STEPS: u64 = 100_000;

/// How a passing run's inputs and choices are made: one value for all
/// (`FILLS`) or drawn from a seed (`SEEDS`).
#[derive(Clone, Copy)]
enum Values {
    Fill(i64),
    Seed(u64),
}

/// The values of `FILLS`, then those of `SEEDS`.
fn all_values() -> impl Iterator<Item = Values> {
    let fills = FILLS.iter().map(|&v| Values::Fill(v));
    fills.chain(SEEDS.iter().map(|&s| Values::Seed(s)))
}

impl Values {
    fn config(self, users: &[crate::ir::cond::UserCond], max_steps: u64) -> interp::Config {
        let (fill, seed) = match self {
            Values::Fill(v) => (Some(v), None),
            Values::Seed(s) => (None, Some(s)),
        };
        interp::Config {
            fill,
            seed,
            max_steps,
            conditions: users.to_vec(),
            ..interp::Config::default()
        }
    }
}

/// The runs of the original program that end normally with the values of
/// `FILLS` and `SEEDS` (within `PASSING_STEPS`): their values and lengths;
/// and whether its run on 0s went on past that (a reactive loop that goes
/// round while it reads 0, as a scheduler does).
fn passing_runs(o: &Original) -> (Vec<(Values, u64, Lines)>, bool) {
    let Ok(users) = crate::ir::cond::user_conditions(o.program, o.errors) else {
        return (Vec::new(), false);
    };
    let mut endless = false;
    let runs = all_values()
        .filter_map(|v| {
            let run = interp::run(o.program, &v.config(&users, PASSING_STEPS)).ok()?;
            endless |= matches!(v, Values::Fill(0)) && run.outcome == Outcome::StepLimit;
            matches!(run.outcome, Outcome::Finished | Outcome::Halted { .. })
                .then(|| (v, run.trace.len() as u64, hide::lines_of(o.program, &run.trace)))
        })
        .collect();
    (runs, endless)
}

/// Steps of each run `probes` makes.
const PROBE_STEPS: u64 = 20_000;

/// The lines the edited program's runs with the values of `FILLS` and
/// `SEEDS` visit, however they end.
fn probes(q: &Program, users: &[crate::ir::cond::UserCond], spent: &Cell<u64>) -> Vec<Lines> {
    all_values()
        .filter_map(|v| interp::run(q, &v.config(users, PROBE_STEPS)).ok())
        .map(|run| counted(run, spent))
        .map(|run| hide::lines_of(q, &run.trace))
        .collect()
}

/// An edit that hides the error by never ending (a loop that no longer
/// stops) or breaks a run that ended normally is no fix: that run still
/// ends normally, within four times its length.
fn still_passes(
    q: &Program,
    users: &[crate::ir::cond::UserCond],
    values: Values,
    steps: u64,
    spent: &Cell<u64>,
) -> Option<Lines> {
    ends_normally(q, &values.config(users, steps * 4 + 10_000), spent)
}

/// `run`, its steps added to those the search has spent.
fn counted(run: interp::Run, spent: &Cell<u64>) -> interp::Run {
    spent.set(spent.get() + run.trace.len() as u64);
    run
}

/// The counterexample's inputs and choices run the edited program to its
/// end without an error (values it reads beyond them are 0). Other values
/// there would be guesses: a loop that reads an input until it is 0 runs
/// forever on any other, in the original too. A program that goes round
/// forever on 0s (`endless`: a reactive loop, as a scheduler is) has no
/// end to run to: there a run that keeps going without an error for
/// four times the counterexample's length passes too (the recheck and the
/// hide rules still judge the edit).
fn passes(
    q: &Program,
    users: &[crate::ir::cond::UserCond],
    cx: &Counterexample,
    endless: bool,
    spent: &Cell<u64>,
) -> Option<Lines> {
    let cfg = interp::Config {
        inputs: cx.inputs.iter().cloned().collect(),
        choices: cx.choices.clone(),
        fill: Some(0),
        max_steps: (cx.run.trace.len() as u64 * 4).max(100_000),
        conditions: users.to_vec(),
        ..interp::Config::default()
    };
    let run = counted(interp::run(q, &cfg).ok()?, spent);
    let ended = matches!(run.outcome, Outcome::Finished | Outcome::Halted { .. });
    (ended || endless && run.outcome == Outcome::StepLimit).then(|| hide::lines_of(q, &run.trace))
}

/// A condition across programs that differ by one token: its kind, its
/// line, and its place among the conditions of that kind on that line.
type Key = (&'static str, String, usize);

fn key(p: &Program, c: &Condition, all: &[Condition]) -> Key {
    let place = |c: &Condition| match c.site() {
        Some(s) => p.line(p.site(s).span).to_string(),
        None => c.describe(p),
    };
    let (kind, at) = (c.json_kind(p), place(c));
    let nth = all
        .iter()
        .take_while(|x| !std::ptr::eq(*x, c))
        .filter(|x| x.json_kind(p) == kind && place(x) == at)
        .count();
    (kind, at, nth)
}

/// The wall clock cut a recheck.
struct Clock;

/// Checks the edited program again: how well the edit is proved, or
/// `None` when the target or a condition that was safe is unsafe now (or
/// the target is gone); the states it explored are added to `explored`.
fn recheck(
    q: &Program,
    users: &[crate::ir::cond::UserCond],
    opts: &CheckOptions,
    (engine, plan): (Engine, &VcPlan),
    (target, safe_before): (&Key, &BTreeSet<Key>),
    explored: &Cell<u64>,
) -> Result<Option<Proof>, Clock> {
    let report = crate::check::check_with(q, users, opts, engine, plan, Instant::now());
    explored.set(explored.get() + report.states as u64);
    if report.vc.cut || report.results.iter().any(|x| x.clock_cut) {
        // The clock cut it: what it says may differ on another machine.
        return Err(Clock);
    }
    let verdicts: BTreeMap<Key, Verdict> = report
        .results
        .iter()
        .map(|x| (key(q, report.condition(x), &report.conds), x.verdict))
        .collect();
    if safe_before.iter().any(|k| verdicts.get(k) == Some(&Verdict::Unsafe)) {
        return Ok(None);
    }
    Ok(match verdicts.get(target) {
        None | Some(Verdict::Unsafe) => None,
        Some(Verdict::Safe) => Some(Proof::Safe),
        Some(Verdict::Unknown) => Some(Proof::NoCounterexample),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn round_robin_takes_one_item_of_each_line_per_round() {
        let items = vec![(3, 'a'), (3, 'b'), (3, 'c'), (7, 'd'), (9, 'e'), (9, 'f')];
        let order: String = super::round_robin(items, |x| x.0).into_iter().map(|x| x.1).collect();
        assert_eq!(order, "adebfc");
    }
}
