//! Explanations: FSSs, folding, slices, NEST, fixes, replays, diff and harnesses, and the recorded explanations of programs/.
//! One test binary per group (the crate links once); each module was a test file of its own.

#[path = "../support/cli.rs"]
mod cli;
mod diff;
#[path = "../support/exhaust.rs"]
mod exhaust;
mod fix_budget;
mod fix_classes;
mod fix_kinds;
mod fixes;
mod fold;
mod fss_listing;
#[path = "../support/fss_points.rs"]
mod fss_points;
mod fss_properties;
mod fss_reasons;
#[path = "../support/gen.rs"]
mod gen;
mod harness;
mod missing_assignments;
#[path = "../support/ptr_gen.rs"]
mod ptr_gen;
mod replay;
#[path = "../support/run_explained.rs"]
mod run_explained;
mod run_slice;
#[path = "../support/shared.rs"]
mod shared;
mod slice_agrees;
mod snapshots;
mod vc_explain;
