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
use std::collections::{BTreeMap, BTreeSet};

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
    /// In `diff`: do these constraints (the reference's) decide that one?
    /// Step 5 then judges the localised conditionals by the rest's
    /// assumptions.
    pub context_decides: Option<&'a Decides<'a>>,
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
            let count = |k: &Key, sets: &[Option<Vec<Assumption>>]| {
                sets.iter().flatten().filter(|a| a.iter().any(|x| key(x) == *k)).count()
            };
            let mut found = None;
            'search: for (i, ai) in sets.iter().enumerate() {
                let Some(ai) = ai else { continue };
                for (ci, c) in ai.iter().enumerate() {
                    if count(&key(c), &sets) != 1 {
                        continue;
                    }
                    for (j, aj) in sets.iter().enumerate() {
                        let Some(aj) = aj else { continue };
                        if i == j {
                            continue;
                        }
                        for (di, d) in aj.iter().enumerate() {
                            if count(&key(d), &sets) == 1 && same_atom_opposite(c, d) && c.contradicts(d) {
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
        for i in 0..sets.len() {
            for j in i + 1..sets.len() {
                let (Some(a), Some(b)) = (&sets[i], &sets[j]) else {
                    continue;
                };
                let fa: BTreeSet<_> = a.iter().map(|x| (x.terms.clone(), x.bound)).collect();
                let fb: BTreeSet<_> = b.iter().map(|x| (x.terms.clone(), x.bound)).collect();
                if lines[i] == lines[j] && fa == fb {
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
        let at = match focus.context_decides {
            None => first_undecided(it, &assumptions, localise),
            Some(decides) => first_departure(p, it, &assumptions, localise, decides),
        };
        let mut nest = match at {
            Some(e) => nest(p, it, e),
            None => (0..it.entries.len()).collect(),
        };
        nest.retain(|&e| localise(it.entries[e].node));
        out.push(Reduced {
            index: i,
            assumptions,
            nest,
            at,
        });
    }
    out
}

/// Step 5: the first conditional with a constraint on inputs that the
/// assumptions decide neither way.
fn first_undecided(it: &Item, assumptions: &[Assumption], localise: &dyn Fn(NodeId) -> bool) -> Option<usize> {
    for (ei, e) in it.entries.iter().enumerate() {
        if !localise(e.node) {
            continue;
        }
        for atom in &e.atoms {
            let cons = it
                .raw
                .iter()
                .filter(|r| r.source.event == atom.event && r.source.outcome.is_some());
            for r in cons {
                if !assumptions.iter().any(|a| a.decides(&r.c)) {
                    return Some(ei);
                }
            }
        }
    }
    None
}

/// In a `diff` product the reference's functions carry this prefix.
pub const REFERENCE_PREFIX: &str = "__ref_";

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
    decides: &Decides<'_>,
) -> Option<usize> {
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
    // The reference's conditionals by function and text, in FSS order.
    let key = |e: &Entry| {
        let name = &p.proc(p.node(e.node).proc).name;
        (
            name.strip_prefix(REFERENCE_PREFIX).unwrap_or(name).to_string(),
            e.text.clone(),
        )
    };
    let mut reference: BTreeMap<(String, String), Vec<bool>> = BTreeMap::new();
    for e in it.entries.iter().filter(|e| !localise(e.node)) {
        if let Some(o) = e.outcome {
            reference.entry(key(e)).or_default().push(o);
        }
    }
    let mut seen: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut other_way = |e: &Entry| {
        let Some(o) = e.outcome else { return false };
        let k = key(e);
        let n = seen.entry(k.clone()).or_default();
        *n += 1;
        reference
            .get(&k)
            .and_then(|outs| outs.get(*n - 1))
            .is_some_and(|&r| r != o)
    };
    let localised = || it.entries.iter().enumerate().filter(|(_, e)| localise(e.node));
    localised()
        .find(|(_, e)| other_way(e) || open(e, true))
        .or_else(|| localised().find(|(_, e)| open(e, false)))
        .map(|(i, _)| i)
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
