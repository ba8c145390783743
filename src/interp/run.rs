//! What a run is given and what it gives back.

use crate::ir::cond::UserCond;
use crate::ir::*;
use std::collections::BTreeMap;

#[derive(Clone, Debug)]
pub struct Config {
    /// Input values by name (`x`, `a[3]`, `main::x`).
    pub inputs: BTreeMap<String, i64>,
    /// Values for `if (*)` (0/1) and `nondet()` results, consumed in order.
    pub choices: Vec<i64>,
    /// Draw missing inputs and choices from this seed instead of failing.
    pub seed: Option<u64>,
    /// Without a seed, missing inputs and choices take this value (the
    /// nearest one their type or range allows) instead of failing.
    pub fill: Option<i64>,
    pub max_steps: u64,
    pub conditions: Vec<UserCond>,
    /// Stop at the first violation of this condition only; `None` stops at
    /// the first violation of any.
    pub watch: Option<usize>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            inputs: BTreeMap::new(),
            choices: Vec::new(),
            seed: None,
            fill: None,
            max_steps: 10_000_000,
            conditions: Vec::new(),
            watch: None,
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// An error site was reached: a failed assertion, `reach_error()`, an
    /// index out of bounds, a division by zero.
    Error {
        site: SiteId,
        node: NodeId,
        /// The index that left the array's bounds (a bounds error).
        index: Option<i64>,
    },
    /// A user error condition holds after `node` executed.
    Condition {
        index: usize,
        node: NodeId,
    },
    /// `abort()`, `exit()` or a failed assumption ended the run.
    Halted {
        node: NodeId,
    },
    /// The entry procedure returned.
    Finished,
    /// A value left the 64-bit range: not modelled.
    Overflow {
        node: NodeId,
    },
    StepLimit,
}

impl Outcome {
    pub fn is_error(&self) -> bool {
        matches!(self, Outcome::Error { .. } | Outcome::Condition { .. })
    }
}

/// The run could not even be made: the inputs or choices do not fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// No value was given for an input, and `node` reads it.
    MissingInput {
        name: String,
        node: NodeId,
    },
    UnknownInput {
        name: String,
        known: Vec<String>,
    },
    InputOutOfRange {
        name: String,
        value: i64,
        range: (i64, i64),
    },
    MissingChoice {
        node: NodeId,
        index: usize,
    },
    ChoiceOutOfRange {
        node: NodeId,
        index: usize,
        value: i64,
        range: (i64, i64),
    },
}

/// One executed node. `outcome` is the branch taken; `value` the value
/// written (assignments, non-deterministic draws, returns).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    pub node: NodeId,
    pub outcome: Option<bool>,
    pub value: Option<i64>,
    /// Call depth (0 in the entry procedure).
    pub depth: u32,
}

/// A C conversion that changed a value: the converted expression, the
/// value before and after.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wrap {
    pub span: crate::ir::Span,
    pub from: i64,
    pub to: i64,
}

/// How many of a run's last wrap-arounds it keeps.
pub const WRAPS_KEPT: usize = 16;

#[derive(Clone, Debug)]
pub struct Run {
    pub outcome: Outcome,
    pub trace: Vec<Step>,
    /// Final values of global storage, by `Layout` slot.
    pub globals: Vec<i64>,
    /// Inputs as used (drawn ones included), in `Program::input_slots` order.
    pub inputs: Vec<(String, i64)>,
    /// Choices as consumed.
    pub choices: Vec<i64>,
    /// Which of `choices` are floating values (their bits), by position.
    pub float_choices: Vec<(usize, crate::ir::IntType)>,
    /// The inputs that are floating values, by name.
    pub float_inputs: Vec<(String, crate::ir::IntType)>,
    /// Global inputs written before anything read them: their values did
    /// not matter to this run.
    pub unused_inputs: Vec<String>,
    /// The argument values of each call, by the call's position in `trace`.
    pub call_args: Vec<(usize, Vec<i64>)>,
    /// What the entry returned (a run that finished, of a non-void entry).
    pub returned: Option<i64>,
    /// An error after a failed check (an assertion, a `reach_error` under
    /// a condition): the values of the variables the check reads; at a
    /// failed check inside an expression (an overflow, a division by zero),
    /// those of its operands.
    pub error_values: Vec<(crate::ir::VarId, i64)>,
    /// A signed result that left its type (`--property no-overflow`): the
    /// value and the type.
    pub overflow: Option<(i64, crate::ir::IntType)>,
    /// The last conversions of the run that changed a value (a wrap-around:
    /// `n - 1` with `n == 0` stored in an `unsigned`), oldest first, at
    /// most `WRAPS_KEPT`: what a report names when the error's value is one.
    pub wraps: Vec<Wrap>,
    /// The last index that left an array's or object's elements, with it.
    pub bad_access: Option<(crate::ir::VarId, i64)>,
}

impl Run {
    /// The value of each input the run used, by its position in
    /// `p.input_slots()` (looked up by name once, not per slot: a
    /// 100,000-element input array has as many names).
    pub fn input_values(&self, p: &crate::ir::Program) -> Vec<(usize, i64)> {
        // The first value of a name, as a search through the list finds it.
        let mut by_name: std::collections::HashMap<&str, i64> = std::collections::HashMap::new();
        for (n, v) in &self.inputs {
            by_name.entry(n.as_str()).or_insert(*v);
        }
        p.input_slots()
            .iter()
            .enumerate()
            .filter_map(|(i, s)| Some((i, *by_name.get(s.name.as_str())?)))
            .collect()
    }
}

/// The state of a run when it reached an observed node (`run_observed`),
/// before the node executed.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub node: NodeId,
    /// Call depth (0 in the entry procedure).
    pub depth: u32,
    /// The current frame's storage and global storage, by `Layout` slot.
    pub locals: Vec<i64>,
    pub globals: Vec<i64>,
}

impl Snapshot {
    /// Element `index` of `v` (a variable of the current frame or global
    /// storage).
    pub fn read(&self, p: &Program, layout: &Layout, v: VarId, index: u32) -> Option<i64> {
        let off = (layout.offset[v.index()] + index) as usize;
        if p.var(v).is_global_storage() {
            self.globals.get(off).copied()
        } else {
            self.locals.get(off).copied()
        }
    }
}

/// The inputs that are floating values, by name; the slots' names are
/// made only when there is one (a run is made often, its inputs may be an
/// array of thousands).
pub(super) fn float_inputs(p: &crate::ir::Program) -> Vec<(String, crate::ir::IntType)> {
    if !p.inputs().iter().any(|&v| p.var(v).ty.is_float()) {
        return Vec::new();
    }
    p.input_slots()
        .into_iter()
        .filter(|s| p.var(s.var).ty.is_float())
        .map(|s| (s.name, p.var(s.var).ty))
        .collect()
}
