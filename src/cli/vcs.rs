//! `focuscheck verify` on contracts (`--vcs`, or a file with function
//! contracts or assertions): every function against its contract; the VCs
//! are listed by `views::vcs`.

use super::*;
use crate::vc::contract::{self, FnVcs, VcStatus};

/// Which VCs are listed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum VcsShow {
    /// Failed and unknown ones.
    Failed,
    All,
}

/// Verifies every function with a contract (and the entry).
pub fn run(p: &Program, opts: &crate::vc::Options) -> Vec<FnVcs> {
    contract::verify(p, opts)
}

/// Some VC has the status.
pub fn any(fs: &[FnVcs], status: VcStatus) -> bool {
    fs.iter().flat_map(|f| &f.vcs).any(|v| v.status == status)
}
