//! Suffixes executed from stores, shared. Executing a suffix from a store
//! gives, event by event, the constraints each adds; the suffix one event
//! longer, executed from the store before that event, shares the rest. So
//! the pruning checks of a walk (at each branch, the suffixes with the
//! events since the last check in front, from the state before them)
//! execute only the new events, and the joins at a call's return execute
//! a suffix once per store the call's heads leave.
//!
//! Keys are 128-bit hashes of the store (`Exec::store_key`) and of the
//! suffix (`Fss::key`), like the feasibility memo's.

use super::Backward;
use crate::analysis::path::{Exec, PathError};
use crate::analysis::refute::Refuter;
use crate::analysis::value::{Constraint, Sym};
use crate::explain::assume::{focus_step, focus_steps};
use crate::explain::fss::{EvKind, Fss};
use std::collections::HashMap;
use std::rc::Rc;

/// A suffix executed from a store: what its first event added, then the
/// rest.
pub(super) struct Chain {
    cons: Vec<Constraint>,
    next: Next,
}

enum Next {
    More(Rc<Chain>),
    End(End),
}

/// How an execution ended.
#[derive(Clone, Copy)]
enum End {
    /// Every event executed.
    Done,
    /// A step's decision contradicts a known value.
    Infeasible,
    /// A step did not execute cleanly (kept: prune only what is certain).
    Unclean,
}

pub(super) type ChainMemo = HashMap<(u128, u128), Rc<Chain>>;

impl Chain {
    /// The constraints in order, and how the execution ended.
    fn walk(&self) -> (impl Iterator<Item = &Constraint>, End) {
        let mut nodes = vec![self];
        let end = loop {
            match &nodes[nodes.len() - 1].next {
                Next::More(c) => nodes.push(c),
                Next::End(end) => break *end,
            }
        };
        (nodes.into_iter().flat_map(|c| c.cons.iter()), end)
    }
}

/// Long chains are dropped node by node, not by recursion.
impl Drop for Chain {
    fn drop(&mut self) {
        let mut next = std::mem::replace(&mut self.next, Next::End(End::Done));
        while let Next::More(rc) = next {
            match Rc::try_unwrap(rc) {
                Ok(mut node) => next = std::mem::replace(&mut node.next, Next::End(End::Done)),
                Err(_) => break,
            }
        }
    }
}

impl<'e> Backward<'e> {
    /// `f` executed from `from`'s store (its constraints are not read).
    /// Suffixes are looked up and kept where they start at a branch (or at
    /// `f`'s start): the pruning checks are made there, and hashing the
    /// store after every event cost more than the events.
    pub(super) fn chain(&self, from: &Exec<'e>, f: &Fss) -> Rc<Chain> {
        let mut x = from.clone();
        // Parts executed here, with their keys, until a known suffix or
        // the end.
        let mut made: Vec<((u128, u128), Vec<Constraint>)> = Vec::new();
        // The suffix not executed yet (shared with `f`).
        let mut rest = f.clone();
        let last = loop {
            let key = (x.store_key(), rest.key());
            if let Some(known) = self.chains.borrow().get(&key) {
                break Next::More(known.clone());
            }
            if rest.is_empty() {
                break Next::End(End::Done);
            }
            // The events up to the next branch. A call's parts are read from
            // the events after it (up to its `Leave` and beyond): from a
            // call on, the rest is executed as one. `Param` and `Result`
            // events have no step of their own.
            let seen = x.constraints.len();
            let mut end = None;
            let mut first = true;
            while let Some(ev) = rest.first().copied() {
                if end.is_some() || (!first && matches!(ev.kind, EvKind::Branch(_))) {
                    break;
                }
                first = false;
                let steps = if ev.kind == EvKind::Call {
                    let all = focus_steps(self.e, &rest);
                    rest = Fss::new();
                    all
                } else {
                    rest = rest.rest();
                    focus_step(self.e, ev).into_iter().collect()
                };
                for step in steps {
                    let before = x.constraints.len();
                    if let Err(err) = step.run(self.e, &mut x) {
                        x.constraints.truncate(before);
                        end = Some(match err {
                            PathError::Infeasible => End::Infeasible,
                            PathError::Malformed(_) => End::Unclean,
                        });
                        break;
                    }
                }
            }
            let cons = (seen..x.constraints.len())
                .map(|k| x.constraints[k].c.clone())
                .collect();
            made.push((key, cons));
            match end {
                Some(end) => break Next::End(end),
                None if rest.is_empty() => break Next::End(End::Done),
                None => {}
            }
        };
        let mut next = last;
        let mut chains = self.chains.borrow_mut();
        for (key, cons) in made.into_iter().rev() {
            let node = Rc::new(Chain { cons, next });
            chains.insert(key, node.clone());
            next = Next::More(node);
        }
        match next {
            Next::More(c) => c,
            Next::End(end) => Rc::new(Chain {
                cons: Vec::new(),
                next: Next::End(end),
            }),
        }
    }

    /// Can the suffix executed as `chain` hold after `run`? As if its steps
    /// were executed on it: stopped at the first constraint the bounds
    /// refute, else the LP.
    pub(super) fn follows(&self, run: &(Exec<'e>, Refuter), chain: &Chain) -> bool {
        let range = |s: Sym| self.e.sym_range(s);
        let mut refuter = run.1.clone();
        let (cons, end) = chain.walk();
        let cons: Vec<&Constraint> = cons.collect();
        if cons.iter().any(|c| !refuter.add(c, &range)) {
            return false;
        }
        match end {
            End::Infeasible => false,
            End::Unclean => true,
            End::Done => {
                let all = run
                    .0
                    .constraints
                    .iter()
                    .map(|c| c.c.clone())
                    .chain(cons.into_iter().cloned());
                self.solvable(all.collect(), &refuter)
            }
        }
    }
}
