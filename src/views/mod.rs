//! How results look: text for people, JSON for tools. Views read results;
//! they never compute them.

pub mod assumptions;
pub mod fixes;
pub mod fold;
pub mod harness;
pub mod html;
pub mod json;
pub mod listing;
pub mod sarif;
pub mod snippet;
pub mod testcomp;
pub mod text;
pub mod trace;
pub mod violation_witness;
pub mod waypoints;
pub mod wrap;

use crate::ir::{Program, SiteId, SiteKind};

/// What happened at an error site in a run: for a bounds error, the index
/// and the array's size (`index 10 out of bounds for a[10] in `a[i]``).
pub fn describe_error(p: &Program, site: SiteId, index: Option<i64>) -> String {
    let s = p.site(site);
    match (s.kind, index, s.array) {
        (SiteKind::Bounds, Some(i), Some(a)) => {
            let var = p.var(a);
            let name = crate::ir::product::strip_reference(&var.name);
            let text =
                crate::ir::product::strip_reference(&p.text(s.span).split_whitespace().collect::<Vec<_>>().join(" "));
            format!("index {i} out of bounds for {name}[{}] in `{text}`", var.slots())
        }
        _ => describe_site(p, site),
    }
}

/// What happens at an error site, as a sentence fragment.
pub fn describe_site(p: &Program, site: SiteId) -> String {
    let s = p.site(site);
    let text = p.text(s.span).split_whitespace().collect::<Vec<_>>().join(" ");
    match s.kind {
        SiteKind::Assert => format!("assertion `{text}` fails"),
        SiteKind::ReachError => format!("`{text}` is called"),
        SiteKind::Bounds => format!("index out of bounds in `{text}`"),
        SiteKind::DivByZero => format!("division by zero in `{text}`"),
        SiteKind::Overflow => format!("signed overflow in `{text}`"),
        SiteKind::Shift => format!("undefined shift in `{text}`"),
        SiteKind::Deref => format!("invalid pointer access in `{text}`"),
        SiteKind::Limit if s.past_elements() => {
            format!("access past the elements the model holds (--param-elems) in `{text}`")
        }
        SiteKind::Limit => format!("allocation beyond the heap model in `{text}`"),
        SiteKind::Leak => format!("memory leak at `{text}`: an allocated object is lost (not freed and unreachable, or not freed under valid-memcleanup)"),
    }
}
