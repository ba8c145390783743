//! Reports and integrations: JSON, SARIF, HTML, batches and shards, witnesses, determinism, BenchExec and Slurm.
//! One test binary per group (the crate links once); each module was a test file of its own.

mod batch;
mod cases;
#[path = "../support/cli.rs"]
mod cli;
mod determinism;
mod html_report;
mod integrations;
mod report;
mod sarif;
#[path = "../support/shared.rs"]
mod shared;
mod witness;
mod witness_assumptions;
mod witness_proofs;
mod witness_size;
#[path = "../support/xorshift.rs"]
mod xorshift;
