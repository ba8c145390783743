//! FSS entries: focus events grouped into the statements the user wrote.
//! A conditional statement is one entry per evaluation, carrying the
//! outcomes of the `&&`/`||` operands evaluated; `o4=a4,o5=a5` is one entry
//! even when both assignments are focus; a call is one entry with the
//! parameters that matter.

use super::fss::{EvKind, Fss};
use crate::ir::*;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EntryKind {
    Assign,
    Branch,
    Call,
    Return,
    Error,
}

/// One operand of a condition, as evaluated.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AtomOutcome {
    pub text: String,
    pub line: u32,
    pub column: u32,
    pub outcome: bool,
    /// A branch the memory model made at an access through a pointer (a
    /// case of its split over objects, or a validity check), not one of
    /// the program's own.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub internal: bool,
    /// For the case of such a split that was taken: the object accessed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<String>,
    /// Whether that object is a function, called through a pointer.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub call: bool,
    /// Position of its event in the FSS.
    #[serde(skip)]
    pub event: usize,
}

impl AtomOutcome {
    /// What a view says of it: `true`, `false`, "accesses `a[...]`", or
    /// nothing for the memory model's other branches.
    pub fn label(&self) -> Option<String> {
        match (&self.access, self.internal) {
            (Some(o), _) if self.call => Some(format!("calls `{o}`")),
            (Some(o), _) => Some(format!("accesses `{o}`")),
            (None, true) => None,
            (None, false) => Some(self.outcome.to_string()),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Entry {
    /// Positions of the entry's events in the FSS.
    pub events: Vec<usize>,
    pub unit: UnitId,
    pub node: NodeId,
    pub line: u32,
    pub column: u32,
    pub kind: EntryKind,
    /// The statement, or the focus parts of it (`min = x` of
    /// `int min = x, max = x;`).
    pub text: String,
    /// A conditional's value (which way the statement went).
    pub outcome: Option<bool>,
    pub atoms: Vec<AtomOutcome>,
    /// Call depth (0 in the entry procedure).
    pub depth: u32,
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Groups an FSS's events into entries.
pub fn entries(p: &Program, fss: &Fss) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    let mut depth = 0u32;
    let mut last: Option<(UnitId, NodeId, u32)> = None;
    for (i, ev) in fss.iter().enumerate() {
        match ev.kind {
            EvKind::Leave => {
                depth = depth.saturating_sub(1);
                last = None;
                continue;
            }
            EvKind::Param(_) => {
                if let Some(e) = out.last_mut() {
                    e.events.push(i);
                }
                continue;
            }
            _ => {}
        }
        let node = p.node(ev.node);
        let unit = node.unit;
        // A new evaluation of the same statement starts where the node order
        // goes back (loops), so two iterations stay two entries. The memory
        // model writes a statement on pointers as several (a pointer's
        // object and offset, a `return` through temporaries), each its own
        // unit with the statement's span: one entry, as the trace shows it.
        let same = matches!(last, Some((u, n, d)) if (u == unit || p.unit(u).span == p.unit(unit).span)
            && ev.node >= n && d == depth)
            && !matches!(ev.kind, EvKind::Call | EvKind::Result);
        let at = p.source.start(node.span);
        if !same {
            let u = p.unit(unit);
            let uat = p.source.start(u.span);
            out.push(Entry {
                events: Vec::new(),
                unit,
                node: ev.node,
                line: uat.line,
                column: uat.col,
                kind: EntryKind::Assign,
                text: String::new(),
                outcome: None,
                atoms: Vec::new(),
                depth,
            });
        }
        let e = out.last_mut().expect("an entry was just pushed");
        e.events.push(i);
        match ev.kind {
            EvKind::Branch(b) => {
                e.atoms.push(AtomOutcome {
                    text: one_line(p.text(node.span)),
                    line: at.line,
                    column: at.col,
                    outcome: b,
                    internal: p.is_access_branch(ev.node),
                    access: p.split_object(ev.node).filter(|_| b).map(|o| o.region()),
                    call: p.split_object(ev.node).is_some_and(|o| o.function),
                    event: i,
                });
                let own = !p.is_access_branch(ev.node);
                if let Some(&v) = p.cond_exits.get(&(ev.node, b)).filter(|_| own) {
                    e.outcome = Some(v);
                }
            }
            EvKind::Call => e.kind = EntryKind::Call,
            EvKind::Return => e.kind = EntryKind::Return,
            EvKind::Error => e.kind = EntryKind::Error,
            _ => {}
        }
        if !matches!(ev.kind, EvKind::Branch(_)) {
            let t = one_line(p.text(node.span));
            let t = match ev.kind {
                EvKind::Result => format!("{t} returns"),
                _ => t,
            };
            if !e.text.is_empty() && !e.text.contains(&t) {
                e.text.push_str(", ");
                e.text.push_str(&t);
            } else if e.text.is_empty() {
                e.text = t;
            }
        }
        if matches!(ev.kind, EvKind::Call) {
            depth += 1;
        }
        last = Some((
            unit,
            ev.node,
            if matches!(ev.kind, EvKind::Call) {
                depth - 1
            } else {
                depth
            },
        ));
    }
    // Finish kinds and texts of conditions.
    for e in &mut out {
        let u = p.unit(e.unit);
        if !e.atoms.is_empty() && e.kind == EntryKind::Assign {
            e.kind = match u.kind {
                UnitKind::Cond | UnitKind::Check => EntryKind::Branch,
                _ => EntryKind::Assign,
            };
        }
        if e.text.is_empty() || (!e.atoms.is_empty() && matches!(e.kind, EntryKind::Branch | EntryKind::Error)) {
            e.text = one_line(p.text(u.span));
        }
    }
    out
}

/// The line of each entry, for comparing FSSs the way the paper does.
pub fn lines(entries: &[Entry]) -> Vec<u32> {
    entries.iter().map(|e| e.line).collect()
}
