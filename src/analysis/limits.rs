//! Runs beyond the memory model: a `limit` site is reached where a run
//! allocates more than a heap object holds, or allocates a second time at
//! the same call (`crate::ir::mem` heap model). Such a run is not an error
//! of the program, so a confirmed one is `unknown`, not `unsafe`; and what
//! the engines prove holds only for runs within the model, so while a
//! limit site is not proved unreachable no condition is `safe`.

use super::{CondReport, Verdict};
use crate::context::conditions::Condition;
use crate::ir::{Program, SiteKind};

/// Is `c` a limit site?
pub fn is_limit(p: &Program, c: &Condition) -> bool {
    c.site().is_some_and(|s| p.site(s).kind == SiteKind::Limit)
}

/// Applies the model's limits to the verdicts of `results` (one per
/// reported condition of `conds`). A limit no run reaches is no news: it
/// leaves the results.
pub fn apply(p: &Program, conds: &[Condition], results: &mut Vec<CondReport>) {
    results.retain(|r| !(r.verdict == Verdict::Safe && is_limit(p, &conds[r.id.0 as usize])));
    let mut open = Vec::new();
    for r in results.iter_mut() {
        let c = &conds[r.id.0 as usize];
        if !is_limit(p, c) {
            continue;
        }
        let site = c.site().map(|s| p.site(s)).expect("a site");
        let at = site.span;
        let text = p.text(at).split_whitespace().collect::<Vec<_>>().join(" ");
        let where_ = format!("`{text}` at {}", p.source.start(at));
        let beyond = if site.vla {
            "declares a variable-length array larger than the model holds (more elements than --vla-elems)"
        } else if site.past_elements() {
            "reaches past the elements the model holds of a parameter's array (--param-elems)"
        } else if site.pool {
            "allocates more objects at this call than the model has (--heap-instances)"
        } else {
            "allocates beyond the heap model (more elements than --heap-elems)"
        };
        match r.verdict {
            Verdict::Safe => continue,
            Verdict::Unsafe => {
                r.verdict = Verdict::Unknown;
                r.reason =
                    format!("a run {beyond} at {where_} (the run replays); what it does from there is not analysed");
            }
            Verdict::Unknown => {
                r.reason = format!("a run may go beyond the model at {where_} (it {beyond}): {}", r.reason);
            }
        }
        open.push(where_);
    }
    if open.is_empty() {
        return;
    }
    for r in results.iter_mut() {
        if r.verdict == Verdict::Safe && !is_limit(p, &conds[r.id.0 as usize]) {
            r.verdict = Verdict::Unknown;
            r.reason = format!(
                "no run within the memory model fails here, but a run may go beyond it ({}), and \
                 what such a run does is not analysed",
                open.join(", ")
            );
        }
    }
}
