//! The error conditions of a run: every assertion, `reach_error()` call,
//! array access and division in a reachable procedure, and the user's
//! `--error` conditions.

use crate::facts::Analysis;
use crate::ir::cond::{BoolExpr, UserCond};
use crate::ir::*;

/// A condition's number in the list `conditions` returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CondId(pub u32);

#[derive(Clone, Debug)]
pub enum CondKind {
    Site(SiteId),
    User(UserCond),
}

#[derive(Clone, Debug)]
pub struct Condition {
    pub kind: CondKind,
    /// Reported to the user (false for run-time checks that
    /// `--property unreach-call` leaves out: they still end paths).
    pub reported: bool,
    /// A failure here is an assumption, not an error: the path ends without
    /// error (the reference version's own failures in `diff`).
    pub cut: bool,
    /// For user conditions: the disjunctive normal form, each disjunct a
    /// list of (atom, polarity).
    pub dnf: Vec<Vec<(Atom, bool)>>,
}

impl Condition {
    pub fn json_kind(&self, p: &Program) -> &'static str {
        match &self.kind {
            CondKind::Site(s) => p.site(*s).kind.json_name(),
            CondKind::User(_) => "user",
        }
    }

    /// How the condition reads in reports.
    pub fn describe(&self, p: &Program) -> String {
        match &self.kind {
            CondKind::Site(s) => {
                let site = p.site(*s);
                let text = p.text(site.span).split_whitespace().collect::<Vec<_>>().join(" ");
                match site.kind {
                    SiteKind::Assert => format!("assertion `{text}`"),
                    SiteKind::ReachError => format!("call `{text}`"),
                    SiteKind::Bounds if site.vla => format!("variable-length array size `{text}`"),
                    SiteKind::Bounds => format!("array bounds in `{text}`"),
                    SiteKind::DivByZero => format!("division by zero in `{text}`"),
                    SiteKind::Overflow => format!("signed overflow in `{text}`"),
                    SiteKind::Shift => format!("undefined shift in `{text}`"),
                    SiteKind::Deref if p.memory.is_fn_call(site.span) => format!("function pointer call in `{text}`"),
                    SiteKind::Deref => format!("pointer access in `{text}`"),
                    SiteKind::Limit if site.vla => format!("--vla-elems limit at `{text}`"),
                    SiteKind::Limit if site.past_elements() => format!("--param-elems limit at `{text}`"),
                    SiteKind::Limit if site.pool => format!("--heap-instances limit at `{text}`"),
                    SiteKind::Limit => format!("heap model limit at `{text}`"),
                    SiteKind::Leak => format!("memory leak at `{text}`"),
                }
            }
            CondKind::User(u) => u.text.clone(),
        }
    }

    pub fn site(&self) -> Option<SiteId> {
        match &self.kind {
            CondKind::Site(s) => Some(*s),
            CondKind::User(_) => None,
        }
    }

    pub fn user(&self) -> Option<&UserCond> {
        match &self.kind {
            CondKind::User(u) => Some(u),
            CondKind::Site(_) => None,
        }
    }
}

pub use crate::ir::cond::Property;

/// The conditions of a program; sites whose span starts in one of `cut`
/// (byte ranges) are assumptions, not errors.
pub fn conditions(
    p: &Program,
    a: &Analysis,
    users: &[UserCond],
    property: Property,
    cut: &[std::ops::Range<u32>],
) -> Vec<Condition> {
    let mut out = Vec::new();
    for (i, s) in p.sites.iter().enumerate() {
        if !a.reachable_procs.contains(&s.proc) {
            continue;
        }
        let is_cut = cut.iter().any(|r| r.contains(&s.span.lo));
        // A run beyond the memory model must be known under every property.
        let reported = !is_cut && !s.static_ok && (s.kind == SiteKind::Limit || property.covers(s.kind));
        out.push(Condition {
            kind: CondKind::Site(SiteId(i as u32)),
            reported,
            cut: is_cut,
            dnf: Vec::new(),
        });
    }
    for u in users {
        out.push(Condition {
            kind: CondKind::User(u.clone()),
            reported: true,
            cut: false,
            dnf: dnf(&u.expr, true),
        });
    }
    out
}

/// Disjunctive normal form of `e` (or of its negation when `pos` is false).
fn dnf(e: &BoolExpr, pos: bool) -> Vec<Vec<(Atom, bool)>> {
    match (e, pos) {
        (BoolExpr::Atom(a), _) => vec![vec![(a.clone(), pos)]],
        (BoolExpr::Not(x), _) => dnf(x, !pos),
        (BoolExpr::Or(a, b), true) | (BoolExpr::And(a, b), false) => {
            let mut v = dnf(a, pos);
            v.extend(dnf(b, pos));
            v
        }
        (BoolExpr::And(a, b), true) | (BoolExpr::Or(a, b), false) => {
            let (l, r) = (dnf(a, pos), dnf(b, pos));
            let mut out = Vec::new();
            for x in &l {
                for y in &r {
                    let mut c = x.clone();
                    c.extend(y.iter().cloned());
                    out.push(c);
                }
            }
            out
        }
    }
}
