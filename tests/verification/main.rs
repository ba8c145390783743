//! Contracts, doomed points and abductive diagnosis.
//! One test binary per group (the crate links once); each module was a test file of its own.

#[path = "../support/cli.rs"]
mod cli;
#[path = "../support/contract_gen.rs"]
mod contract_gen;
mod contracts;
mod contracts_consistency;
mod diagnose;
mod diagnose_soundness;
mod doomed;
#[path = "../support/exhaust.rs"]
mod exhaust;
#[path = "../support/gen.rs"]
mod gen;
#[path = "../support/shared.rs"]
mod shared;
