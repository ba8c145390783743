//! Explaining a condition: focus-statement sequences from backward
//! summaries, their assumption sets and feasibility, ranking, and the
//! Reduce/NEST localisation (seed 001 §2-3).

pub mod assume;
pub mod backward;
pub mod bsum;
pub mod fss;
