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

use super::assume::{Assumption, Raw};
use super::entries::Entry;
use super::fss::{EvKind, Fss};
use crate::ir::*;
use std::collections::BTreeSet;

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

pub fn reduce(p: &Program, items: &[Item]) -> Vec<Reduced> {
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
        let at = first_undecided(it, &assumptions);
        let nest = match at {
            Some(e) => nest(p, it, e),
            None => (0..it.entries.len()).collect(),
        };
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
fn first_undecided(it: &Item, assumptions: &[Assumption]) -> Option<usize> {
    for (ei, e) in it.entries.iter().enumerate() {
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
