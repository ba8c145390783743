//! What one check is asked to do: every option of every command in one
//! place, each default written once (where the engine it is for defines
//! it: `step::DEFAULT_UNROLL`, `engines::VC_UNROLL`, `vc::INLINE_DEPTH`).

use crate::analysis::CheckOptions;
use crate::context::conditions::Property;
use crate::engines::{Engine, VcPlan};
use crate::fixes::FixOptions;
use crate::ir::lower::LowerOptions;

/// One file's check, as a command asks for it.
#[derive(Clone)]
pub struct Config {
    /// How the file is lowered (entry, preprocessor, heap pool, overflow
    /// checks).
    pub lower: LowerOptions,
    /// The `--error` conditions, as the user wrote them.
    pub errors: Vec<String>,
    /// Contracts are checked as the program's own checks (`check`, `run`);
    /// `verify`, `diagnose` and `doomed` read them as contracts instead.
    pub instrument: bool,
    /// The Datalog engine's budget, what is reported, what is explained.
    pub check: CheckOptions,
    /// Which engine decides verdicts (the portfolio, `check::portfolio`).
    pub engine: Engine,
    /// How the VC engine runs inside the check.
    pub vc: VcPlan,
    /// The search for fix candidates, if any.
    pub fixes: Option<FixSearch>,
    /// Check again on larger heap pools where the pool leaves conditions
    /// open (`check` without `--heap-instances`: `super::grow`).
    pub grow_pool: bool,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            lower: LowerOptions::default(),
            errors: Vec::new(),
            instrument: true,
            check: CheckOptions::default(),
            engine: Engine::Auto,
            vc: VcPlan::default(),
            fixes: None,
            grow_pool: false,
        }
    }
}

impl Config {
    /// A configuration that only loads (`verify`, `doomed`, `diagnose`,
    /// `run`, witness validation): the front end's options and the
    /// `--error` conditions.
    pub fn front(lower: LowerOptions, errors: &[String], instrument: bool) -> Config {
        Config {
            lower,
            errors: errors.to_vec(),
            instrument,
            ..Config::default()
        }
    }

    /// The property reported, which also decides whether signed overflow
    /// is checked when lowering.
    pub fn with_property(mut self, property: Property) -> Config {
        self.lower.overflow_checks = property == Property::NoOverflow;
        self.check.property = property;
        self
    }
}

/// The fix search's budget: `--fixes` a large one for every unsafe
/// condition; by default a small one for a single file, only where the
/// NEST does not narrow (`narrowed_too` false).
#[derive(Clone, Copy)]
pub struct FixSearch {
    pub limits: FixOptions,
    pub narrowed_too: bool,
}

impl FixSearch {
    /// `--fixes`: every unsafe condition, the large budget.
    pub fn full() -> FixSearch {
        FixSearch {
            limits: FixOptions::default(),
            narrowed_too: true,
        }
    }

    /// A single file's default: where the NEST does not narrow, a small one.
    pub fn small() -> FixSearch {
        FixSearch {
            limits: FixOptions::small(),
            narrowed_too: false,
        }
    }
}
