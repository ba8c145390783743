//! Loop invariants for `--loops havoc`: the user's ACSL comments
//! (`/*@ loop invariant E; */` before a loop) and Houdini candidates
//! (`candidates.rs`; the engine keeps the largest inductive subset,
//! `solve.rs`).

use super::Invariant;
use crate::diag::Diag;
use crate::facts::Analysis;
use crate::ir::*;

pub use super::candidates::candidates;

/// The user's `/*@ loop invariant E; */` comments (`ir::contract`), as
/// conditions on the state at the loop head. Those this engine cannot read
/// (a quantifier, `\old`, a label no loop goes back to) are an error: the
/// contract engine (`verify --vcs`) reads them.
pub fn user_invariants(p: &Program, a: &Analysis) -> Result<Vec<Invariant>, Vec<Diag>> {
    let mut out = Vec::new();
    let mut diags = Vec::new();
    for inv in &p.contracts.invariants {
        for &c in &inv.clauses {
            let cl = p.contracts.clause(c);
            match cl.pred.read_in_state(cl.span) {
                Some(expr) if a.loop_at.contains_key(&inv.at) => out.push(Invariant {
                    head: inv.at,
                    expr,
                    text: cl.text.clone(),
                    user: true,
                    entry: false,
                    visited: None,
                }),
                _ => diags.push(
                    Diag::error(
                        crate::diag::Class::Semantic,
                        cl.span,
                        format!("the invariant `{}` is read by the contract engine only", cl.text),
                    )
                    .with_label("not a plain condition at a loop head")
                    .with_note("run `focuscheck verify --vcs`"),
                ),
            }
        }
    }
    if diags.is_empty() {
        Ok(out)
    } else {
        Err(diags)
    }
}
