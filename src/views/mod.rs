//! How results look: text for people, JSON for tools. Views read results;
//! they never compute them.

pub mod html;
pub mod json;
pub mod sarif;
pub mod text;
pub mod trace;

use crate::ir::{Program, SiteId, SiteKind};

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
    }
}
