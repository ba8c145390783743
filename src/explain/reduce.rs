//! Algorithm Reduce and the NEST (seed 001 §3.2, Fig. 5), with the readings
//! DESIGN §8 fixes:
//! - step 2 deletes a constraint c and a contradicting d only where each
//!   occurs in exactly one assumption set and both were generated at the
//!   same atom with opposite outcomes;
//! - step 3 compares FSSs by their sequence of line numbers and their
//!   assumption sets;
//! - step 5(a)i fires at the first conditional with a constraint on inputs
//!   that the remaining assumptions decide neither way. Assignments (5(b))
//!   need no bookkeeping here: conditions are evaluated on symbolic values,
//!   which already carry what the replicated constraints would;
//! - the NEST is the FSS's focus statements inside the innermost block (same
//!   or nested static scope) containing that conditional, and those executed
//!   by calls made from inside it.
//!
//! In `diff` the product runs the reference first and the NEST may point
//! only into the new version. Step 5 then asks of each of the new version's
//! conditionals whether it leaves the reference's path: whether the
//! reference's remaining assumptions decide it (all of them together, by
//! the LP solver), and whether it goes the way the same test of the
//! reference went (see `first_departure`).

use super::assume::{Assumption, Raw};
use super::entries::Entry;
use super::fss::{EvKind, Fss};
use crate::analysis::value::Constraint;
use crate::ir::*;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// One FSS as Reduce sees it.
pub struct Item<'a> {
    pub fss: &'a Fss,
    pub entries: &'a [Entry],
    pub assumptions: Vec<Assumption>,
    pub raw: &'a [Raw],
}

/// An FSS that Reduce kept.
#[derive(Clone, Debug)]
pub struct Reduced {
    /// Position in the input list.
    pub index: usize,
    pub assumptions: Vec<Assumption>,
    /// Entries in the NEST.
    pub nest: Vec<usize>,
    /// The entry of the conditional that localised it (`None`: the whole
    /// FSS is the NEST).
    pub at: Option<usize>,
    /// `#define` lines and global declarations the NEST's values come from
    /// (the FSS's own constant assignments behind it are in `nest`).
    pub definitions: Vec<crate::syntax::source::Span>,
}

type Key = (
    Vec<(crate::analysis::value::Sym, i64)>,
    super::assume::Bound,
    NodeId,
    Option<bool>,
);

fn key(a: &Assumption) -> Key {
    let s = a.primary();
    (a.terms.clone(), a.bound, s.node, s.outcome)
}

fn same_atom_opposite(c: &Assumption, d: &Assumption) -> bool {
    let (x, y) = (c.primary(), d.primary());
    x.node == y.node && matches!((x.outcome, y.outcome), (Some(a), Some(b)) if a != b)
}

/// Do these constraints decide that one (either way)?
pub type Decides<'a> = dyn Fn(&[Constraint], &Constraint) -> bool + 'a;

/// Where a NEST may point.
pub struct Focus<'a> {
    /// The nodes a NEST may point at (in `diff`, the new version's).
    pub localise: &'a dyn Fn(NodeId) -> bool,
    /// The same, for a position in the source text.
    pub localise_at: &'a dyn Fn(u32) -> bool,
    /// Set when the rest of the program is a reference version of the
    /// localised part (`diff`): step 5 then finds where the localised part
    /// departs from it.
    pub reference: Option<Reference<'a>>,
}

/// The rest of the program as a reference for the localised part.
#[derive(Clone, Copy)]
pub struct Reference<'a> {
    /// Do these constraints (the reference's) decide that one?
    pub decides: &'a Decides<'a>,
    /// A text of the reference with its names as in the localised part,
    /// so that the same test in both is paired.
    pub counterpart: &'a dyn Fn(&str) -> String,
}

/// Reduce.
pub fn reduce(p: &Program, items: &[Item], focus: &Focus) -> Vec<Reduced> {
    let localise = focus.localise;
    let mut sets: Vec<Option<Vec<Assumption>>> = items.iter().map(|it| Some(it.assumptions.clone())).collect();
    let lines: Vec<Vec<u32>> = items.iter().map(|it| super::entries::lines(it.entries)).collect();
    loop {
        let mut changed = false;
        // Step 2: complementary assumptions, each in a unique set.
        loop {
            // How many sets hold each assumption (counted once per set).
            let mut count: HashMap<Key, usize> = HashMap::new();
            for set in sets.iter().flatten() {
                let keys: HashSet<Key> = set.iter().map(key).collect();
                for k in keys {
                    *count.entry(k).or_default() += 1;
                }
            }
            let unique = |a: &Assumption| count.get(&key(a)) == Some(&1);
            let mut found = None;
            'search: for (i, ai) in sets.iter().enumerate() {
                let Some(ai) = ai else { continue };
                for (ci, c) in ai.iter().enumerate() {
                    if !unique(c) {
                        continue;
                    }
                    for (j, aj) in sets.iter().enumerate() {
                        let Some(aj) = aj else { continue };
                        if i == j {
                            continue;
                        }
                        for (di, d) in aj.iter().enumerate() {
                            if same_atom_opposite(c, d) && unique(d) && c.contradicts(d) {
                                found = Some((i, ci, j, di));
                                break 'search;
                            }
                        }
                    }
                }
            }
            let Some((i, ci, j, di)) = found else { break };
            sets[i].as_mut().expect("alive").remove(ci);
            sets[j].as_mut().expect("alive").remove(di);
            changed = true;
        }
        // Step 3: identical line sequences with identical assumption sets.
        let forms: Vec<Option<BTreeSet<_>>> = sets
            .iter()
            .map(|set| {
                set.as_ref()
                    .map(|a| a.iter().map(|x| (x.terms.clone(), x.bound)).collect())
            })
            .collect();
        for i in 0..sets.len() {
            for j in i + 1..sets.len() {
                if sets[i].is_none() || sets[j].is_none() {
                    continue;
                }
                if lines[i] == lines[j] && forms[i] == forms[j] {
                    sets[j] = None;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut out = Vec::new();
    for (i, set) in sets.into_iter().enumerate() {
        let Some(assumptions) = set else { continue };
        let it = &items[i];
        let at = match focus.reference {
            None => first_undecided(it, &assumptions, localise),
            Some(reference) => first_departure(p, it, &assumptions, localise, reference),
        };
        let mut nest = match at {
            // In `diff`, a departure inside an expression (an operand of
            // `&&`, `||` or a comparison whose value is assigned, returned
            // or passed) is localised to that statement's evaluation.
            Some(e) if focus.reference.is_some() && in_expression(p, &it.entries[e]) => statement_nest(p, it, e),
            Some(e) => nest(p, it, e),
            None => (0..it.entries.len()).collect(),
        };
        nest.retain(|&e| localise(it.entries[e].node));
        let defs = super::definitions::definitions(p, it.fss, it.entries, &nest, focus.localise_at);
        nest.extend(defs.entries);
        nest.sort_unstable();
        nest.dedup();
        out.push(Reduced {
            index: i,
            assumptions,
            nest,
            at,
            definitions: defs.spans,
        });
    }
    out
}

/// Step 5: the first conditional with a constraint on inputs that the
/// assumptions decide neither way.
fn first_undecided(it: &Item, assumptions: &[Assumption], localise: &dyn Fn(NodeId) -> bool) -> Option<usize> {
    // The branch constraints of each event (a long FSS has many of both).
    let mut of_event: HashMap<usize, Vec<&Raw>> = HashMap::new();
    for r in it.raw.iter().filter(|r| r.source.outcome.is_some()) {
        of_event.entry(r.source.event).or_default().push(r);
    }
    let by_form = super::assume::ByForm::new(assumptions);
    for (ei, e) in it.entries.iter().enumerate() {
        if !localise(e.node) {
            continue;
        }
        for atom in &e.atoms {
            for r in of_event.get(&atom.event).into_iter().flatten() {
                if !by_form.decides(&r.c) {
                    return Some(ei);
                }
            }
        }
    }
    None
}

/// Step 5 in `diff`: the first of the new version's conditionals where it
/// leaves the reference's path. That is one whose constraint the remaining
/// assumptions of the reference leave open although they constrain its
/// inputs (the two versions test the same inputs differently), or one that
/// goes the other way than the same test of the reference (same function,
/// same text, same occurrence in the FSS). Failing both, the first
/// constraint the reference leaves open over inputs it never tested: that
/// may only follow from such a change (the new version now reads what the
/// reference threw away).
fn first_departure(
    p: &Program,
    it: &Item,
    assumptions: &[Assumption],
    localise: &dyn Fn(NodeId) -> bool,
    reference: Reference<'_>,
) -> Option<usize> {
    let Reference { decides, counterpart } = reference;
    let kept = |r: &Raw| assumptions.iter().any(|a| a.sources.contains(&r.source));
    let context: Vec<Constraint> = it
        .raw
        .iter()
        .filter(|r| !localise(r.source.node) && kept(r))
        .map(|r| r.c.clone())
        .collect();
    let tested: BTreeSet<_> = context.iter().flat_map(|c| c.e.terms.iter().map(|t| t.0)).collect();
    let open = |e: &Entry, shared_only: bool| {
        e.atoms.iter().any(|atom| {
            it.raw
                .iter()
                .filter(|r| r.source.event == atom.event && r.source.outcome.is_some())
                .filter(|r| !shared_only || r.c.e.terms.iter().any(|t| tested.contains(&t.0)))
                .any(|r| !decides(&context, &r.c))
        })
    };
    // The reference's conditionals in FSS order, by function and text (the
    // reference's names as in the localised part); a statement whose text
    // changed is paired by the variable it assigns.
    let function = |e: &Entry| counterpart(&p.proc(p.node(e.node).proc).name);
    let by_text = |e: &Entry| (function(e), counterpart(&e.text));
    let events = it.fss.to_vec();
    let by_target = |e: &Entry| {
        e.events.iter().find_map(|&i| match &p.node(events[i].node).kind {
            NodeKind::Assign { place, .. } => Some((function(e), counterpart(&p.var(place.var).name))),
            _ => None,
        })
    };
    // What the statement decided: a condition's outcome, or the constant a
    // boolean expression stores (`x = a || b` stores 1 or 0).
    // The memory model's own branches and writes (an allocation's checks,
    // its object's tag, numbered apart in the two versions) decide nothing
    // of the program's.
    let value = |e: &Entry| {
        if !e.atoms.is_empty() && e.atoms.iter().all(|a| a.internal) {
            return None;
        }
        let stored = e.events.iter().rev().find_map(|&i| match &p.node(events[i].node).kind {
            NodeKind::Assign { place, .. } if p.is_model_write(events[i].node, place.var) => None,
            NodeKind::Assign { value, .. } if !e.atoms.is_empty() => match value.kind {
                ExprKind::Const(c) => Some(c),
                _ => None,
            },
            _ => None,
        });
        stored.or(e.outcome.map(i64::from))
    };
    let mut reference: BTreeMap<(String, String), Vec<i64>> = BTreeMap::new();
    let mut targets: BTreeMap<(String, String), Vec<i64>> = BTreeMap::new();
    for e in it.entries.iter().filter(|e| !localise(e.node)) {
        if let Some(o) = value(e) {
            reference.entry(by_text(e)).or_default().push(o);
            if let Some(t) = by_target(e) {
                targets.entry(t).or_default().push(o);
            }
        }
    }
    let mut seen: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut seen_targets: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut other_way = |e: &Entry| {
        let Some(o) = value(e) else { return false };
        let nth = |seen: &mut BTreeMap<(String, String), usize>, k: &(String, String)| {
            let n = seen.entry(k.clone()).or_default();
            *n += 1;
            *n - 1
        };
        let k = by_text(e);
        let n = nth(&mut seen, &k);
        let target = by_target(e).map(|t| {
            let n = nth(&mut seen_targets, &t);
            (t, n)
        });
        let same_text = reference.get(&k).and_then(|outs| outs.get(n));
        match (same_text, target) {
            (Some(&r), _) => r != o,
            (None, Some((t, n))) => targets.get(&t).and_then(|outs| outs.get(n)).is_some_and(|&r| r != o),
            (None, None) => false,
        }
    };
    let localised = || it.entries.iter().enumerate().filter(|(_, e)| localise(e.node));
    localised()
        .find(|(_, e)| other_way(e) || open(e, true))
        .or_else(|| localised().find(|(_, e)| open(e, false)))
        .map(|(i, _)| i)
}

/// Is this entry's conditional an operand inside a statement (not the
/// condition of `if`, a loop or `switch`)?
fn in_expression(p: &Program, e: &Entry) -> bool {
    matches!(
        p.unit(e.unit).kind,
        UnitKind::Assign | UnitKind::Return | UnitKind::Call | UnitKind::Check
    )
}

/// The entries of one evaluation of entry `at`'s statement: its own events
/// and those of the calls it makes, up to the FSS's first event of another
/// statement at its call depth.
fn statement_nest(p: &Program, it: &Item, at: usize) -> Vec<usize> {
    let events: Vec<_> = it.fss.iter().copied().collect();
    let unit = it.entries[at].unit;
    let Some(&first) = it.entries[at].events.iter().min() else {
        return vec![at];
    };
    // The call depth of each event, and the statement that owns it at the
    // depth of `at`: its own, or that of the call it runs under.
    let mut depth = Vec::with_capacity(events.len());
    let mut open: Vec<usize> = Vec::new();
    for ev in &events {
        match ev.kind {
            EvKind::Leave => {
                open.pop();
                depth.push(open.len() + 1);
            }
            EvKind::Param(_) => depth.push(open.len().saturating_sub(1)),
            EvKind::Call => {
                depth.push(open.len());
                open.push(depth.len() - 1);
            }
            _ => depth.push(open.len()),
        }
    }
    let level = depth[first];
    let mut owner: Vec<Option<UnitId>> = Vec::with_capacity(events.len());
    let mut calls: Vec<usize> = Vec::new();
    for (i, ev) in events.iter().enumerate() {
        let own = p.node(ev.node).unit;
        owner.push(match depth[i].cmp(&level) {
            std::cmp::Ordering::Less => None,
            std::cmp::Ordering::Equal => Some(own),
            std::cmp::Ordering::Greater => calls.get(level).map(|&c| p.node(events[c].node).unit),
        });
        match ev.kind {
            EvKind::Call => calls.push(i),
            EvKind::Leave => {
                calls.pop();
            }
            _ => {}
        }
    }
    let mut lo = first;
    while lo > 0 && owner[lo - 1] == Some(unit) {
        lo -= 1;
    }
    let mut hi = first;
    while hi + 1 < events.len() && owner[hi + 1] == Some(unit) {
        hi += 1;
    }
    it.entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.events.iter().any(|&i| (lo..=hi).contains(&i)))
        .map(|(i, _)| i)
        .collect()
}

/// The entries inside the innermost block holding entry `at`'s conditional,
/// or executed by calls made from inside it.
fn nest(p: &Program, it: &Item, at: usize) -> Vec<usize> {
    let block = p.node(it.entries[at].node).block;
    let mut in_nest = vec![false; it.fss.len()];
    let mut calls: Vec<bool> = Vec::new();
    for (i, ev) in it.fss.iter().enumerate() {
        let own = p.block_within(p.node(ev.node).block, block);
        let inside = own || calls.iter().any(|&c| c);
        match ev.kind {
            EvKind::Call => {
                in_nest[i] = inside;
                calls.push(inside);
            }
            EvKind::Leave => {
                calls.pop();
            }
            _ => in_nest[i] = inside,
        }
    }
    it.entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.events.iter().any(|&i| in_nest[i]))
        .map(|(i, _)| i)
        .collect()
}
