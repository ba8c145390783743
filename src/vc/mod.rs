//! The verification-condition engine (seed 000, Leino/Millstein/Saxe): one
//! VC for the entry procedure, checked by Z3, with labelled checks and
//! error traces read back from the counterexample.
//!
//! Pipeline: IR --gc--> guarded commands (unrolled or invariant-cut loops,
//! inlined calls) --passive--> single-assignment form and a VC of linear
//! size --solve--> warnings (one per check label, the label blocked after
//! each), each with the path the model takes, its inputs and choices, and
//! the interpreter's replay (`confirmed` when it reaches the same error).
//!
//! Depends on `ir`, `facts` and `interp` (the referee) only.

pub mod bits;
pub mod candidates;
pub mod contract;
pub mod doomed;
pub mod explain;
pub mod float;
pub mod gc;
pub mod houdini;
pub mod kinduction;
pub mod named;
pub mod passive;
pub mod solve;
pub mod term;

use crate::facts::Analysis;
use crate::ir::cond::{BoolExpr, UserCond};
use crate::ir::*;
use crate::syntax::source::Span;
use gc::{CheckKey, EventKind};
use std::time::Duration;

/// How loops are translated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loops {
    /// Follow back edges K times (can miss errors: "no error within K
    /// iterations", never "verified" unless the bound is unreachable).
    Unroll(u32),
    /// Cut at the head with invariants (the user's and inferred ones):
    /// sound.
    Havoc,
    /// Three copies of each loop (seed 004): the first pass, an arbitrary
    /// one and the last, with what the loop writes havocked (and the given
    /// invariants assumed) before and after the arbitrary one; the last
    /// copy's back edge ends the path. Every run that leaves the loop is
    /// covered; for `doomed` only (no checks of invariants).
    Copies,
    /// k-induction (`kinduction.rs`) strengthened by the invariants
    /// `Havoc` proves: sound.
    KInduction(u32),
}

impl Loops {
    /// Does "no warning" mean "no check can fail" in this mode?
    pub fn sound(self) -> bool {
        // `Copies` assumes the given invariants without checking them.
        !matches!(self, Loops::Unroll(_) | Loops::Copies)
    }
}

impl std::fmt::Display for Loops {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            Loops::Unroll(k) => write!(f, "unroll:{k}"),
            Loops::Havoc => write!(f, "havoc"),
            Loops::KInduction(k) => write!(f, "kinduction:{k}"),
            Loops::Copies => write!(f, "copies"),
        }
    }
}

impl std::str::FromStr for Loops {
    type Err = String;

    /// `unroll:K` (`unroll` is K = 1), `havoc`, `kinduction:K`
    /// (`kinduction` is K = 2).
    fn from_str(s: &str) -> Result<Loops, String> {
        let bound = |rest: Option<&str>, default: u32, least: u32| match rest {
            None => Some(default),
            Some(k) => k.parse::<u32>().ok().filter(|&k| k >= least),
        };
        let (mode, rest) = match s.split_once(':') {
            Some((m, r)) => (m, Some(r)),
            None => (s, None),
        };
        let parsed = match mode {
            "havoc" if rest.is_none() => Some(Loops::Havoc),
            "unroll" => bound(rest, 1, 0).map(Loops::Unroll),
            "kinduction" => bound(rest, 2, 1).map(Loops::KInduction),
            _ => None,
        };
        parsed.ok_or_else(|| format!("`{s}`: expected `unroll:K` (K >= 0), `havoc` or `kinduction:K` (K >= 1)"))
    }
}

pub use crate::ir::cond::Property;

/// Z3's resource limit per query by default, in Z3's own units (its
/// `rlimit count` statistic). Measured without a limit: the queries Z3
/// decides on `programs/` use at most 0.8 million, on the SV-COMP corpus
/// at most 2.5 million (10 s on a loaded machine, about the former 10 s
/// time limit per query); the ones it gives up on ran past 5 million. The
/// answer is the same on any machine and under any load.
pub const QUERY_RLIMIT: u32 = 4_000_000;

/// How deep calls are inlined by default (`--inline-depth`), in every
/// command that runs the VC engine.
pub const INLINE_DEPTH: u32 = 3;

#[derive(Clone, Debug)]
pub struct Options {
    pub loops: Loops,
    pub inline_depth: u32,
    pub max_warnings: usize,
    /// Per Z3 query: its resource limit (Z3's `rlimit`, deterministic),
    /// `None` for none.
    pub rlimit: Option<u32>,
    /// Per Z3 query, by the wall clock: a guard only (what it cuts
    /// depends on the machine's load; `ProcResult::clock_cut` says so).
    pub timeout: Option<Duration>,
    /// For the whole run: past it, what is left open is unknown.
    pub deadline: Option<std::time::Instant>,
    pub property: Property,
    /// Give up (unknown) beyond this many blocks.
    pub max_blocks: usize,
    /// Infer loop invariants (Houdini) in `Havoc` mode.
    pub infer: bool,
    /// With `infer`: also the quantified candidates over the elements a
    /// loop has passed (`candidates/arrays.rs`).
    pub arrays: bool,
    /// Modular verification of the entry against its contract (`gc/spec.rs`):
    /// calls of procedures with a contract use it instead of their body.
    pub contracts: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            loops: Loops::Unroll(1),
            inline_depth: INLINE_DEPTH,
            max_warnings: 10,
            rlimit: Some(QUERY_RLIMIT),
            timeout: None,
            deadline: None,
            property: Property::All,
            max_blocks: 200_000,
            infer: true,
            arrays: false,
            contracts: false,
        }
    }
}

/// A loop invariant: the user's (`/*@ loop invariant E; */`) or a candidate.
#[derive(Clone, Debug)]
pub struct Invariant {
    pub head: NodeId,
    pub expr: BoolExpr,
    pub text: String,
    pub user: bool,
    /// A relation with loop-entry values: `expr` is an atom whose
    /// right-hand side is evaluated when the loop is entered (ACSL's
    /// `\at(e, LoopEntry)`), e.g. `x - y == \at(x - y, LoopEntry)`.
    pub entry: bool,
    /// A fact about every element the loop has passed: `expr` holds with
    /// its counter replaced by each index between the counter's loop-entry
    /// value and its value now (`candidates/arrays.rs`).
    pub visited: Option<Visited>,
}

/// The indices a loop has passed: its counter moves by `step` (1 or -1)
/// once per iteration, so they are `\at(x, LoopEntry) <= k < x` (or
/// `x < k <= \at(x, LoopEntry)` counting down).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Visited {
    pub counter: VarId,
    pub step: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The interpreter, run on the model's inputs and choices, reaches the
    /// same error.
    Confirmed,
    /// It does not (havoc, invariants or the unrolling made the path up),
    /// or the model could not be replayed.
    Possible,
}

impl Status {
    pub fn name(self) -> &'static str {
        match self {
            Status::Confirmed => "confirmed",
            Status::Possible => "possible",
        }
    }
}

/// One step of an error trace, in execution order.
#[derive(Clone, Debug)]
pub struct TraceStep {
    pub kind: EventKind,
    pub span: Span,
    pub iteration: Option<u32>,
    /// Calls and returns: the callee's name.
    pub callee: Option<String>,
    /// A call that was not inlined.
    pub havocked: bool,
    /// The label's sequence number (ascending along every path).
    pub seq: u32,
}

#[derive(Clone, Debug)]
pub struct Warning {
    pub key: CheckKey,
    /// `assert`, `reach_error`, `bounds`, `div_by_zero`, `user`, `invariant`.
    pub kind: &'static str,
    pub span: Span,
    pub message: String,
    pub status: Status,
    pub trace: Vec<TraceStep>,
    /// Every input's value in the model.
    pub inputs: Vec<(String, i64)>,
    /// The inputs the replay reads (what a reader needs).
    pub used_inputs: Vec<(String, i64)>,
    pub choices: Vec<i64>,
    /// Some inputs are left out of `used_inputs`: replay with a seed for
    /// them (their values do not matter).
    pub seeded: bool,
    /// Why the replay did not confirm it, when it did not.
    pub replay_note: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// No check can fail in any run (sound mode, every run covered).
    Verified,
    Warnings,
    /// No warning within the bounds (loop unrolling, inlining depth).
    Bounded,
    Unknown,
}

impl Outcome {
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Verified => "verified",
            Outcome::Warnings => "warnings",
            Outcome::Bounded => "bounded",
            Outcome::Unknown => "unknown",
        }
    }
}

/// The result for one procedure's VC.
#[derive(Clone, Debug)]
pub struct ProcResult {
    pub name: String,
    pub warnings: Vec<Warning>,
    pub outcome: Outcome,
    /// What the outcome rests on, or why it is unknown.
    pub reason: String,
    /// Checks whose warning was not reported (`--property`): they may fail
    /// first, so nothing is called verified.
    pub hidden: usize,
    /// The loop invariants used (havoc mode), as text with their line.
    pub invariants: Vec<(u32, String, bool)>,
    /// The same, as indices into the invariants the engine was given
    /// (followed by the inferred candidates, when it inferred any); `None`
    /// when the inference did not finish (what it kept is not proved).
    pub kept: Option<Vec<usize>>,
    pub blocks: usize,
    pub commands: usize,
    pub solver_time: Duration,
    pub total_time: Duration,
    /// `Havoc`: the invariants proven inductive (Houdini finished and no
    /// given invariant failed), which k-induction may assume.
    pub proven: Option<Vec<Invariant>>,
    /// No check outside `warnings` can fail: every failing check was found,
    /// in a sound mode or an unrolling that covers every run, with nothing
    /// hidden by `--property` and every given invariant inductive.
    pub exhaustive: bool,
    /// A Z3 query was cut by the wall clock (`Options::timeout` or
    /// `deadline`): the result may differ on a less loaded machine.
    pub clock_cut: bool,
}

impl ProcResult {
    /// The verdict of a check label as `check` reports it: `Some(true)`
    /// unsafe (confirmed), `Some(false)` safe, `None` unknown.
    pub fn decides(&self, key: CheckKey) -> Option<bool> {
        match self.warnings.iter().find(|w| w.key == key) {
            Some(w) if w.status == Status::Confirmed => Some(true),
            Some(_) => None,
            None if self.exhaustive => Some(false),
            None => None,
        }
    }
}

/// Verifies the program from its entry: warnings for every check that can
/// fail, with traces.
pub fn verify(p: &Program, users: &[UserCond], invariants: &[Invariant], opts: &Options) -> ProcResult {
    let a = Analysis::new(p);
    match opts.loops {
        Loops::KInduction(k) => kinduction::run(p, &a, users, invariants, opts, k),
        Loops::Havoc => solve::havoc(p, &a, users, invariants, opts),
        _ => solve::run(p, &a, users, invariants, opts),
    }
}

/// The kind word and message of a check.
pub fn describe(p: &Program, users: &[UserCond], key: CheckKey, invariants: &[Invariant]) -> (&'static str, String) {
    let text = |s: Span| p.text(s).split_whitespace().collect::<Vec<_>>().join(" ");
    match key {
        CheckKey::Site(s) => {
            let site = p.site(s);
            let t = text(site.span);
            match site.kind {
                SiteKind::Assert => ("assert", format!("possible assertion failure: `{t}`")),
                SiteKind::ReachError => ("reach_error", format!("possible call of `{t}`")),
                SiteKind::Bounds => ("bounds", format!("possible array index out of bounds: `{t}`")),
                SiteKind::DivByZero => ("div_by_zero", format!("possible division by zero: `{t}`")),
                SiteKind::Overflow => ("overflow", format!("possible signed overflow: `{t}`")),
                SiteKind::Shift => ("shift", format!("possible undefined shift: `{t}`")),
                SiteKind::Deref if p.memory.is_fn_call(site.span) => (
                    "deref",
                    format!("possible call through an invalid function pointer: `{t}`"),
                ),
                SiteKind::Deref => ("deref", format!("possible invalid pointer access: `{t}`")),
                SiteKind::Limit if site.vla => (
                    "limit",
                    format!("possible variable-length array larger than the model holds (--vla-elems): `{t}`"),
                ),
                SiteKind::Limit if site.past_elements() => (
                    "limit",
                    format!("possible access past the elements the model holds (--param-elems): `{t}`"),
                ),
                SiteKind::Limit if site.pool => (
                    "limit",
                    format!("possible allocation past the objects the call has (--heap-instances): `{t}`"),
                ),
                SiteKind::Limit => ("limit", format!("possible allocation beyond the heap model: `{t}`")),
                SiteKind::Leak => ("leak", format!("possible memory leak at `{t}`")),
            }
        }
        CheckKey::User(i) => ("user", format!("the condition `{}` may hold", users[i].text)),
        CheckKey::Invariant { cand, init } => (
            "invariant",
            format!(
                "loop invariant `{}` may not {}",
                invariants[cand].text,
                if init { "hold on entry" } else { "be maintained" }
            ),
        ),
        CheckKey::Unwind(_) => ("unwind", "the loop unrolling bound is reached".into()),
        CheckKey::Depth(_) => ("depth", "a call deeper than the inlining depth".into()),
        CheckKey::Spec(s) => ("contract", contract::check_text(p, s)),
    }
}

/// Is a check reported under the property?
pub fn reported(p: &Program, key: CheckKey, property: Property) -> bool {
    match key {
        CheckKey::Site(s) => {
            let site = p.site(s);
            match property {
                _ if site.kind == SiteKind::Limit => true,
                Property::All => !site.static_ok && property.covers(site.kind),
                _ => property.covers(site.kind),
            }
        }
        CheckKey::User(_) | CheckKey::Spec(_) => true,
        CheckKey::Invariant { .. } => property == Property::All,
        CheckKey::Unwind(_) | CheckKey::Depth(_) => false,
    }
}
