//! focuscheck: a model checker for Cimple (a C subset) that explains the
//! errors it finds. See ARCHITECTURE.md for the map of the layers:
//! syntax -> ir -> facts -> context -> (analysis -> explain) -> views -> cli.

pub mod analysis;
pub mod check;
pub mod cli;
pub mod context;
pub mod diag;
pub mod diagnose;
pub mod diff;
pub mod engines;
pub mod explain;
pub mod facts;
pub mod fixes;
pub mod interp;
pub mod ir;
pub mod pipeline;
pub mod syntax;
pub mod vc;
pub mod views;

/// Parses, checks and lowers one file (`ir::load`): every command's
/// front door.
pub use ir::load::{load, source_from_bytes};
