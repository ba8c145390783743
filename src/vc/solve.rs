//! Asking Z3, and reading its answers back.
//!
//! Each check has a label `L` (a Boolean constant, `assert P` becomes
//! `P || L`). A query fixes every label by assumption: `false` for the
//! checks it looks for, `true` (blocked) for the others. A model of
//! `!ok_entry` is read by walking from the entry along blocks whose `ok`
//! the model makes false, checking each command in the model, until an
//! assertion the model falsifies: that check fails, and the events met on
//! the way are the trace. Labels of untaken branches are never read.

use super::gc::{self, CheckKey, Gc};
use super::passive::{self, PCmd, Passive};
use super::*;
use crate::interp;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Instant;
use z3::ast::{Bool, Int};
use z3::{Model, SatResult, Solver};

struct Engine<'a> {
    p: &'a Program,
    users: &'a [UserCond],
    invariants: &'a [Invariant],
    gc: Gc,
    pv: Passive,
    solver: Solver,
    ok: Vec<Bool>,
    labels: BTreeMap<CheckKey, Bool>,
    solver_time: Duration,
    /// Per query: Z3's resources (deterministic), and a wall-clock guard.
    rlimit: Option<u32>,
    timeout: Option<Duration>,
    /// For the whole run (the `--timeout` guard).
    deadline: Option<Instant>,
    /// A query was cut by the wall clock (`timeout` or `deadline`), not
    /// by its resources: what followed depends on the machine's load.
    clock_cut: bool,
}

/// What a query looks for.
enum Query<'q> {
    /// Failures of these checks (others blocked).
    Fail(&'q BTreeSet<CheckKey>),
}

struct Found {
    check: usize,
    /// The checks after it in the same block, in the same state, that the
    /// model falsifies too (Houdini drops them all at once).
    also: Vec<usize>,
    trace: Vec<TraceStep>,
    choices: Vec<i64>,
    inputs: Vec<(String, i64)>,
}

enum Answer {
    Sat(Box<Model>),
    Unsat,
    Unknown(String),
}

impl Engine<'_> {
    fn ask(&mut self, q: &Query, extra: Option<&Bool>) -> Answer {
        let Query::Fail(targets) = q;
        let mut assumptions = vec![self.ok[0].not()];
        for (k, l) in &self.labels {
            assumptions.push(if targets.contains(k) { l.not() } else { l.clone() });
        }
        assumptions.extend(self.pv.enabled.iter().cloned());
        let start = Instant::now();
        let left = self.deadline.map(|d| d.saturating_duration_since(start));
        if left == Some(Duration::ZERO) {
            self.clock_cut = true;
            return Answer::Unknown("the time limit was reached".into());
        }
        let clock = [self.timeout, left].into_iter().flatten().min();
        set_limits(&self.solver, self.rlimit, clock);
        if let Some(e) = extra {
            self.solver.push();
            self.solver.assert(e);
        }
        let mut r = self.solver.check_assumptions(&assumptions);
        // Out of resources: once more with another random seed. Z3's search
        // on a large query depends on such accidents (the same query decided
        // at once in one context ran out of resources in a fresh one), and
        // the retry is as deterministic as the first try.
        if r == SatResult::Unknown {
            let why = self.solver.get_reason_unknown().unwrap_or_default();
            let until = self.deadline.map(|d| d.saturating_duration_since(Instant::now()));
            let clock = [self.timeout, until].into_iter().flatten().min();
            if !clock_cut(&why, self.deadline) && clock != Some(Duration::ZERO) && why.contains("canceled") {
                set_limits_seeded(&self.solver, self.rlimit, clock, RETRY_SEED);
                r = self.solver.check_assumptions(&assumptions);
            }
        }
        let answer = match r {
            SatResult::Sat => match self.solver.get_model() {
                Some(m) => Answer::Sat(Box::new(m)),
                None => Answer::Unknown("Z3 gave no model".into()),
            },
            SatResult::Unsat => Answer::Unsat,
            SatResult::Unknown => {
                let why = self
                    .solver
                    .get_reason_unknown()
                    .unwrap_or_else(|| "Z3 could not decide".into());
                self.clock_cut |= clock_cut(&why, clock.map(|t| start + t));
                Answer::Unknown(why)
            }
        };
        if extra.is_some() {
            self.solver.pop(1);
        }
        self.solver_time += start.elapsed();
        answer
    }

    /// Follows the model from the entry to the check it falsifies.
    fn walk(&self, m: &Model) -> Result<Found, String> {
        let truth = |b: &Bool| m.eval(b, true).and_then(|v| v.as_bool());
        let mut b = 0usize;
        let mut trace = Vec::new();
        let mut choices = Vec::new();
        let mut steps = 0;
        loop {
            steps += 1;
            if steps > self.pv.blocks.len() + 1 {
                return Err("the model's path does not end".into());
            }
            let cmds = &self.pv.blocks[b].cmds;
            for (at, c) in cmds.iter().enumerate() {
                match c {
                    PCmd::Assume(f) => {
                        if truth(f) != Some(true) {
                            return Err("the model leaves its path".into());
                        }
                    }
                    PCmd::Assert(f, check) => {
                        let l = &self.labels[&self.gc.checks[*check].key];
                        if truth(&Bool::or(&[f.clone(), l.clone()])) == Some(false) {
                            let also = cmds[at + 1..]
                                .iter()
                                .map_while(|c| match c {
                                    PCmd::Assert(f, check) => Some((f, *check)),
                                    _ => None,
                                })
                                .filter(|(f, check)| {
                                    let l = &self.labels[&self.gc.checks[*check].key];
                                    truth(&Bool::or(&[(*f).clone(), l.clone()])) == Some(false)
                                })
                                .map(|(_, check)| check)
                                .collect();
                            return Ok(Found {
                                check: *check,
                                also,
                                trace,
                                choices,
                                inputs: Vec::new(),
                            });
                        }
                    }
                    PCmd::Event(e, seq) => trace.push(TraceStep {
                        kind: e.kind,
                        span: e.span,
                        iteration: e.iteration,
                        callee: e.callee.map(|c| self.p.proc(c).name.clone()),
                        havocked: e.havocked,
                        seq: *seq,
                    }),
                    PCmd::Choice(x) => choices.push(int_value(m, x)),
                }
            }
            let next = self.pv.blocks[b]
                .succs
                .iter()
                .find(|(s, eq)| truth(eq) == Some(true) && truth(&self.ok[*s]) == Some(false));
            match next {
                Some((s, _)) => b = *s,
                None => return Err("no successor of a failing block fails".into()),
            }
        }
    }

    /// The model's input values (read only for warnings: an array input
    /// is one value per element).
    fn inputs(&self, m: &Model) -> Vec<(String, i64)> {
        self.pv
            .inputs
            .iter()
            .map(|(s, x)| (s.name.clone(), int_value(m, x)))
            .collect()
    }

    /// The same failure with inputs and draws as small as Z3 allows (not
    /// for thousands of values: the model is taken as it is).
    fn small(&mut self, key: CheckKey) -> Option<Box<Model>> {
        if self.pv.inputs.len() + self.pv.draws.len() > SMALL_MAX {
            return None;
        }
        self.small_model(key)
    }

    /// The same failure with inputs and draws as small as Z3 allows.
    fn small_model(&mut self, key: CheckKey) -> Option<Box<Model>> {
        let targets = BTreeSet::from([key]);
        let mut xs: Vec<Int> = self.pv.inputs.iter().map(|(_, x)| x.clone()).collect();
        xs.extend(self.pv.draws.iter().cloned());
        if xs.is_empty() {
            return None;
        }
        for bound in [1i64, 16, 256, 65_536] {
            let within: Vec<Bool> = xs
                .iter()
                .map(|x| Bool::and(&[x.ge(Int::from_i64(-bound)), x.le(Int::from_i64(bound))]))
                .collect();
            if let Answer::Sat(m) = self.ask(&Query::Fail(&targets), Some(&Bool::and(&within))) {
                return Some(m);
            }
        }
        None
    }
}

/// At most this many inputs and draws for `small`.
const SMALL_MAX: usize = 4096;

/// Bounds the solver's next queries: by `rlimit` resource units (Z3's
/// deterministic count of its own work, as Dafny and Boogie do), and by
/// the wall clock only as the last guard (`clock`).
pub fn set_limits(solver: &Solver, rlimit: Option<u32>, clock: Option<Duration>) {
    set_limits_seeded(solver, rlimit, clock, 0);
}

/// The random seed of a query's one retry after it ran out of resources.
const RETRY_SEED: u32 = 1;

/// `set_limits` with Z3's random seed (0 its default).
fn set_limits_seeded(solver: &Solver, rlimit: Option<u32>, clock: Option<Duration>, seed: u32) {
    let mut params = z3::Params::new();
    params.set_u32("random_seed", seed);
    // 0: no limit.
    params.set_u32("rlimit", rlimit.unwrap_or(0));
    params.set_u32(
        "timeout",
        clock.map_or(u32::MAX, |t| t.as_millis().clamp(1, u32::MAX as u128) as u32),
    );
    solver.set_params(&params);
}

/// Whether an `unknown` with reason `why` came from the wall clock (Z3's
/// timer, or the guard `until` is past) rather than from the resource
/// limit or the theory. Z3 4.8 gives the same reason, `canceled`, for its
/// resource limit and for its timer, so the clock decides: a query ending
/// within `CLOCK_MARGIN` of its guard counts as cut by it (the careful
/// side: what a cut query would have decided is dropped). Taking every
/// `canceled` for the clock stopped the VC engine's portfolio at its first
/// query out of resources, before the modes that decide.
pub fn clock_cut(why: &str, until: Option<Instant>) -> bool {
    why.contains("timeout") || until.is_some_and(|d| Instant::now() + CLOCK_MARGIN >= d)
}

/// See `clock_cut`.
const CLOCK_MARGIN: Duration = Duration::from_millis(100);

fn int_value(m: &Model, x: &Int) -> i64 {
    m.eval(x, true).and_then(|v| v.as_i64()).unwrap_or(i64::MAX)
}

/// `--loops havoc`: Houdini over the candidates on scalars; when that leaves
/// a check open and a loop fills or copies an array, once more with the
/// quantified candidates over the elements loops pass
/// (`candidates/arrays.rs`), kept where it settles more. Quantifiers make
/// Z3's queries harder, so they are tried only where they are needed.
pub fn havoc(p: &Program, a: &Analysis, users: &[UserCond], invariants: &[Invariant], opts: &Options) -> ProcResult {
    let first = run(p, a, users, invariants, opts);
    if first.outcome == Outcome::Verified
        || first.clock_cut
        || !opts.infer
        || opts.arrays
        || super::candidates::arrays::candidates(p, a).is_empty()
    {
        return first;
    }
    let second = run(
        p,
        a,
        users,
        invariants,
        &Options {
            arrays: true,
            ..opts.clone()
        },
    );
    let settles_more = second.exhaustive && (!first.exhaustive || second.warnings.len() < first.warnings.len());
    if second.clock_cut || !(second.outcome == Outcome::Verified || settles_more) {
        return first;
    }
    second
}

pub fn run(p: &Program, a: &Analysis, users: &[UserCond], invariants: &[Invariant], opts: &Options) -> ProcResult {
    let start = Instant::now();
    let mut cands: Vec<Invariant> = invariants.to_vec();
    if opts.loops == Loops::Havoc && opts.infer {
        cands.extend(houdini::candidates(p, a));
        if opts.arrays {
            cands.extend(super::candidates::arrays::candidates(p, a));
        }
    }
    let gc = gc::build(p, a, users, &cands, opts);
    let pv = passive::passify_named(p, &gc);
    let (blocks, commands) = passive::size(&pv);
    let solver = Solver::new();
    let mut labels = BTreeMap::new();
    for c in &gc.checks {
        let n = labels.len();
        labels
            .entry(c.key)
            .or_insert_with(|| Bool::new_const(label_name(p, c, n)));
    }
    let ok = {
        let lab = |c: usize| labels[&gc.checks[c].key].clone();
        passive::assert_vc(&solver, &pv, &lab)
    };
    let mut e = Engine {
        p,
        users,
        invariants: &cands,
        gc,
        pv,
        solver,
        ok,
        labels,
        solver_time: Duration::ZERO,
        rlimit: opts.rlimit,
        timeout: opts.timeout,
        deadline: opts.deadline,
        clock_cut: false,
    };
    let mut result = ProcResult {
        name: p.proc(p.entry).name.clone(),
        warnings: Vec::new(),
        outcome: Outcome::Unknown,
        reason: String::new(),
        hidden: 0,
        invariants: Vec::new(),
        kept: None,
        blocks,
        commands,
        solver_time: Duration::ZERO,
        total_time: Duration::ZERO,
        proven: None,
        exhaustive: false,
        clock_cut: false,
    };
    let mut unknown: Option<String> = None;
    // Houdini: drop candidate invariants until the rest are inductive.
    let cand_keys: BTreeSet<CheckKey> = e
        .labels
        .keys()
        .copied()
        .filter(|k| matches!(k, CheckKey::Invariant { cand, .. } if !e.invariants[*cand].user))
        .collect();
    let mut dropped: BTreeSet<usize> = BTreeSet::new();
    let mut houdini_done = true;
    if !cand_keys.is_empty() {
        houdini_done = false;
        loop {
            let live: BTreeSet<CheckKey> = cand_keys
                .iter()
                .copied()
                .filter(|k| matches!(k, CheckKey::Invariant { cand, .. } if !dropped.contains(cand)))
                .collect();
            match e.ask(&Query::Fail(&live), None) {
                Answer::Sat(m) => match e.walk(&m) {
                    Ok(f) => match e.gc.checks[f.check].key {
                        CheckKey::Invariant { .. } => {
                            for c in std::iter::once(f.check).chain(f.also) {
                                let CheckKey::Invariant { cand, .. } = e.gc.checks[c].key else {
                                    continue;
                                };
                                if dropped.insert(cand) {
                                    e.pv.enabled[cand] = e.pv.enabled[cand].not();
                                    let off = e.pv.enabled[cand].clone();
                                    // A dropped candidate is switched off for good.
                                    e.solver.assert(&off);
                                }
                            }
                        }
                        _ => {
                            unknown = Some("the invariant inference met an unexpected failure".into());
                            break;
                        }
                    },
                    Err(why) => {
                        unknown = Some(format!("could not read Z3's model: {why}"));
                        break;
                    }
                },
                Answer::Unsat => {
                    houdini_done = true;
                    break;
                }
                Answer::Unknown(why) => {
                    unknown = Some(format!("Z3: {why}"));
                    break;
                }
            }
        }
    }
    let mut kept = Vec::new();
    for (i, inv) in e.invariants.iter().enumerate() {
        if inv.user
            || (!dropped.contains(&i)
                && e.labels
                    .keys()
                    .any(|k| matches!(k, CheckKey::Invariant { cand, .. } if *cand == i)))
        {
            result
                .invariants
                .push((p.line(p.node(inv.head).span), inv.text.clone(), inv.user));
            kept.push(i);
        }
    }
    result.kept = (unknown.is_none() && !e.gc.too_big).then_some(kept);
    // Warnings: every reported or hidden check (and the user's invariants).
    let mut targets: BTreeSet<CheckKey> = e
        .labels
        .keys()
        .copied()
        .filter(|k| match k {
            // Contract checks (`Options::contracts`: ACSL loop invariants
            // with quantifiers, which `verify --witness` reads) are the
            // user's too: each is shown to hold, never assumed unchecked.
            CheckKey::Site(_) | CheckKey::User(_) | CheckKey::Spec(_) => true,
            CheckKey::Invariant { cand, .. } => e.invariants[*cand].user,
            _ => false,
        })
        .collect();
    // Every check that can fail was found (the last query said unsat).
    let mut all_found = targets.is_empty();
    while unknown.is_none() && !targets.is_empty() && result.warnings.len() < opts.max_warnings {
        let m = match e.ask(&Query::Fail(&targets), None) {
            Answer::Sat(m) => m,
            Answer::Unsat => {
                all_found = true;
                break;
            }
            Answer::Unknown(why) => {
                unknown = Some(format!("Z3: {why}"));
                break;
            }
        };
        let found = match e.walk(&m) {
            Ok(f) => f,
            Err(why) => {
                unknown = Some(format!("could not read Z3's model: {why}"));
                break;
            }
        };
        let key = e.gc.checks[found.check].key;
        targets.remove(&key);
        if !reported(p, key, opts.property) {
            result.hidden += 1;
            continue;
        }
        let (mut found, m) = match e.small(key).map(|m| (e.walk(&m), m)) {
            Some((Ok(f), small)) if e.gc.checks[f.check].key == key => (f, small),
            _ => (found, m),
        };
        found.inputs = e.inputs(&m);
        result.warnings.push(warning(&e, key, found));
    }
    // Does the unrolled program cover every run? (No bound reachable.)
    let bounds: BTreeSet<CheckKey> = e.labels.keys().copied().filter(|k| k.is_bound()).collect();
    let complete = if unknown.is_some() || e.gc.too_big {
        false
    } else if bounds.is_empty() {
        true
    } else {
        match e.ask(&Query::Fail(&bounds), None) {
            Answer::Unsat => true,
            Answer::Sat(_) => false,
            Answer::Unknown(why) => {
                unknown = Some(format!("Z3: {why}"));
                false
            }
        }
    };
    let invariant_warning = result
        .warnings
        .iter()
        .any(|w| matches!(w.key, CheckKey::Invariant { .. }));
    if opts.loops == Loops::Havoc && houdini_done && unknown.is_none() && !invariant_warning {
        result.proven = Some(
            e.invariants
                .iter()
                .enumerate()
                .filter(|(i, _)| !dropped.contains(i))
                .map(|(_, inv)| inv.clone())
                .collect(),
        );
    }
    result.exhaustive =
        all_found && complete && unknown.is_none() && !e.gc.too_big && result.hidden == 0 && !invariant_warning;
    let bound_text = match opts.loops {
        Loops::Unroll(k) => format!(
            "no error within {k} loop iteration{} and call depth {}",
            if k == 1 { "" } else { "s" },
            opts.inline_depth
        ),
        Loops::Havoc | Loops::Copies | Loops::KInduction(_) => {
            format!("no error, but calls deeper than {} were havocked", opts.inline_depth)
        }
    };
    (result.outcome, result.reason) = if !result.warnings.is_empty() {
        let why = match (&unknown, result.warnings.len() >= opts.max_warnings) {
            (Some(u), _) => format!("stopped early: {u}"),
            (None, true) => format!("stopped after {} warnings (--max-warnings)", opts.max_warnings),
            (None, false) => "every failing check is reported".into(),
        };
        (Outcome::Warnings, why)
    } else if let Some(u) = unknown {
        (Outcome::Unknown, u)
    } else if e.gc.too_big {
        (
            Outcome::Unknown,
            format!("the unfolded program exceeds {} blocks", opts.max_blocks),
        )
    } else if result.hidden > 0 {
        (
            Outcome::Unknown,
            "no reported check fails, but a check left out by --property may fail first".into(),
        )
    } else if complete {
        let how = match opts.loops {
            Loops::Unroll(_) => "every run stays within the unrolling and inlining bounds".to_string(),
            Loops::Havoc if result.invariants.is_empty() => "no loop needed an invariant".to_string(),
            Loops::Havoc => "the loop invariants are inductive".to_string(),
            Loops::Copies => "each loop's first, an arbitrary and its last pass cover every run".to_string(),
            Loops::KInduction(k) => kinduction::reason(k, e.invariants.len()),
        };
        (Outcome::Verified, format!("no check can fail: {how}"))
    } else {
        (Outcome::Bounded, bound_text)
    };
    result.solver_time = e.solver_time;
    result.clock_cut = e.clock_cut;
    result.total_time = start.elapsed();
    result
}

/// `Bounds@9.9`, `Assert@4.3`, ... (unique per key).
fn label_name(p: &Program, c: &gc::Check, n: usize) -> String {
    let at = p.source.start(c.span);
    let kind = match c.key {
        CheckKey::Site(s) => match p.site(s).kind {
            SiteKind::Assert => "Assert",
            SiteKind::ReachError => "ReachError",
            SiteKind::Bounds => "Bounds",
            SiteKind::DivByZero => "DivByZero",
            SiteKind::Overflow => "Overflow",
            SiteKind::Shift => "Shift",
            SiteKind::Deref => "Deref",
            SiteKind::Limit => "Limit",
            SiteKind::Leak => "Leak",
        },
        CheckKey::User(_) => "Condition",
        CheckKey::Invariant { init: true, .. } => "LoopInvInit",
        CheckKey::Invariant { init: false, .. } => "LoopInvMaintained",
        CheckKey::Unwind(_) => "Unwind",
        CheckKey::Depth(_) => "Depth",
        CheckKey::Spec(_) => "Contract",
    };
    format!("{kind}@{}.{}#{n}", at.line, at.col)
}

fn warning(e: &Engine, key: CheckKey, found: Found) -> Warning {
    let (kind, message) = describe(e.p, e.users, key, e.invariants);
    let check = &e.gc.checks[found.check];
    let mut w = Warning {
        key,
        kind,
        span: check.span,
        message,
        status: Status::Possible,
        trace: found.trace,
        used_inputs: found.inputs.clone(),
        inputs: found.inputs,
        choices: found.choices,
        seeded: false,
        replay_note: None,
    };
    replay(e.p, e.users, &mut w);
    w
}

/// Runs the interpreter on the warning's inputs and choices; confirmed
/// when it ends at the same error. Inputs the run never reads are left out
/// of the replay (a seed draws them), and that shorter replay is the one
/// that must reach the error.
fn replay(p: &Program, users: &[UserCond], w: &mut Warning) {
    let watch = match w.key {
        CheckKey::User(i) => Some(i),
        CheckKey::Site(_) => None,
        _ => {
            w.replay_note = Some("a loop invariant is not replayed".into());
            return;
        }
    };
    let run = |inputs: &[(String, i64)], seed: Option<u64>| {
        interp::run(
            p,
            &interp::Config {
                inputs: inputs.iter().cloned().collect(),
                choices: w.choices.clone(),
                seed,
                fill: None,
                max_steps: 10_000_000,
                conditions: users.to_vec(),
                watch,
            },
        )
    };
    let reaches = |r: &interp::Run| match (w.key, &r.outcome) {
        (CheckKey::Site(s), interp::Outcome::Error { site, .. }) => s == *site,
        (CheckKey::User(i), interp::Outcome::Condition { index, .. }) => i == *index,
        _ => false,
    };
    let full = match run(&w.inputs, None) {
        Ok(r) => r,
        Err(err) => {
            w.replay_note = Some(format!("the model cannot be replayed: {err:?}"));
            return;
        }
    };
    if !reaches(&full) {
        w.replay_note = Some(format!("the replay ends otherwise: {:?}", full.outcome));
        return;
    }
    w.status = Status::Confirmed;
    let unused: BTreeSet<&String> = full.unused_inputs.iter().collect();
    let used: Vec<(String, i64)> = w.inputs.iter().filter(|(n, _)| !unused.contains(n)).cloned().collect();
    if used.len() < w.inputs.len() {
        if let Ok(r) = run(&used, Some(0)) {
            if reaches(&r) {
                w.used_inputs = used;
                w.seeded = true;
            }
        }
    }
}

/// The labels of the checks, by key (for tests and `--stats`).
pub fn label_names(p: &Program, gc: &Gc) -> HashMap<CheckKey, String> {
    gc.checks
        .iter()
        .enumerate()
        .map(|(n, c)| (c.key, label_name(p, c, n)))
        .collect()
}
