//! The engines' verdicts: the VC engine, the portfolio, widening, budgets, exhaustive-run cross-checks and the fuzzed whole check.
//! One test binary per group (the crate links once); each module was a test file of its own.

mod array_invariants;
mod bit_paths;
mod budgets;
#[path = "../support/cli.rs"]
mod cli;
mod crosscheck;
mod eval_agrees;
#[path = "../support/exhaust.rs"]
mod exhaust;
mod float_paths;
mod fuzz_check;
#[path = "../support/gen.rs"]
mod gen;
mod loop_widening;
mod portfolio;
#[path = "../support/run_explained.rs"]
mod run_explained;
#[path = "../support/shared.rs"]
mod shared;
mod static_facts;
mod summaries_compare;
mod unknown_reasons;
mod vc;
mod vc_engines;
mod vc_plan;
#[path = "../support/xorshift.rs"]
mod xorshift;
