//! An assignment missing from the program: the error depends on a value
//! no statement of its run wrote (a local of the entry read before any
//! assignment, so it holds whatever the memory held). A one-token edit
//! adds no statement, so the fixes cannot name the place; this does: the
//! assignment belongs after the declaration and before the first read
//! that the error depends on. Where a loop there writes other elements of
//! the array read (so it skipped this one), or computes nothing (no
//! statement outside it reads what it writes, and the error depends on
//! none of its statements: a loop whose statement is missing), the place
//! is those loops' bodies; else it is the declaration's line (for an
//! initialiser) and every line up to the read.

use crate::analysis::witness::Counterexample;
use crate::facts::analysis::Loop;
use crate::facts::Analysis;
use crate::interp;
use crate::interp::access::{Accesses, Loc};
use crate::ir::{NodeId, NodeKind, Program, UnitId, VarId, VarInit, VarKind};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// The entry's activation in a run's record.
const ENTRY: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    pub var: String,
    /// The line of the write whose value the read sees, which an update
    /// should have replaced; `None` when no statement wrote it.
    pub stale: Option<u32>,
    /// The declaration's line, and the line of the first read the error
    /// depends on.
    pub declared: u32,
    pub read: u32,
    /// Where the assignment belongs.
    pub lines: Vec<u32>,
    /// The loops between where the assignment belongs (`lines` are their
    /// bodies), by head line, or the `if` in whose arm it belongs
    /// (`Why::SameTest`); empty when `lines` run from the declaration to
    /// the read.
    pub loops: Vec<(u32, Why)>,
}

/// Why the missing assignment belongs in a loop's body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// It writes other elements of the array (an element it skipped).
    OtherElements,
    /// It computes nothing: no statement outside it reads what it
    /// writes, and the error depends on none of its statements.
    ComputesNothing,
    /// Not a loop: an `if` whose arm the run took and that wrote nothing
    /// there, and whose test is the test of the `if` the read is under
    /// (on the same values): the update belongs in that arm.
    SameTest,
}

impl Missing {
    fn new(p: &Program, v: VarId, stale: Option<u32>, read: u32, loops: &[(&Loop, Why)]) -> Missing {
        let var = p.var(v);
        let declared = p.line(var.span);
        let lines: BTreeSet<u32> = if loops.is_empty() {
            // The declaration's line too: an initialiser is one way to mend it.
            (declared..read)
                .filter(|&l| !p.source.line_text(l).trim().is_empty())
                .collect()
        } else {
            loops.iter().flat_map(|(l, _)| body_lines(p, l.head, &l.body)).collect()
        };
        Missing {
            var: var.name.clone(),
            stale,
            declared,
            read,
            lines: lines.into_iter().collect(),
            loops: loops
                .iter()
                .map(|(l, why)| (p.line(p.node(l.head).span), *why))
                .collect(),
        }
    }
}

impl Missing {
    /// The update missing from the then-arm `arm` of the `if` at `test`.
    fn arm(
        p: &Program,
        v: VarId,
        (stale, read): (u32, u32),
        test: NodeId,
        arm: crate::syntax::source::Span,
    ) -> Missing {
        let var = p.var(v);
        let head = p.line(p.node(test).span);
        let (first, last) = (p.line(arm), super::last_line(p, arm));
        let mut lines: Vec<u32> = (first..=last)
            .filter(|&l| l != head || first == last)
            .filter(|&l| {
                let t = p.source.line_text(l).trim();
                !(t.is_empty() || t == "{" || t.starts_with('}'))
            })
            .collect();
        if lines.is_empty() {
            lines.push(first);
        }
        Missing {
            var: var.name.clone(),
            stale: Some(stale),
            declared: p.line(var.span),
            read,
            lines,
            loops: vec![(head, Why::SameTest)],
        }
    }
}

impl Why {
    pub fn name(self) -> &'static str {
        match self {
            Why::OtherElements => "writes_other_elements",
            Why::ComputesNothing => "computes_nothing",
            Why::SameTest => "same_test",
        }
    }
}

/// The assignments missing before the reads of `units` (the top FSS's
/// statements) in the counterexample's run, replayed with a record.
pub fn find(
    p: &Program,
    a: &Analysis,
    users: &[crate::ir::cond::UserCond],
    cx: &Counterexample,
    units: &BTreeSet<UnitId>,
) -> Vec<Missing> {
    let cfg = interp::Config {
        inputs: cx.inputs.iter().cloned().collect(),
        choices: cx.choices.clone(),
        fill: Some(0),
        max_steps: cx.run.trace.len() as u64 + 1_000,
        conditions: users.to_vec(),
        ..interp::Config::default()
    };
    let slot_var = entry_locals(p, true);
    let operand = |n: NodeId, site| crate::explain::backward::site_operand(&p.node(n).kind, site).cloned();
    let Ok((run, acc)) = interp::run_recorded(p, &cfg, true, HashSet::new(), &operand) else {
        return Vec::new();
    };
    // Each recorded step's node: the trace's, and the run-time check the
    // run stopped at (its reads are recorded, the trace leaves it out).
    let mut trace: Vec<NodeId> = run.trace.iter().map(|s| s.node).take(acc.steps()).collect();
    trace.extend(acc.failed_node.filter(|_| acc.steps() > trace.len()));
    let trace = &trace[..];
    let never_written = unwritten_reads(p, trace, &acc, units, &slot_var);
    let mut out = Vec::new();
    for (v, step) in never_written {
        let (declared, read) = (p.line(p.var(v).span), p.line(p.node(trace[step]).span));
        if declared >= read {
            continue;
        }
        let mut loops = Vec::new();
        for l in a.loops.iter() {
            let head = p.line(p.node(l.head).span);
            if l.proc != p.entry || head <= declared || head >= read || l.body.contains(&trace[step]) {
                continue;
            }
            let (wrote, read_out) = loop_writes(trace, &acc, &l.body);
            let why = if writes_elements_of(&slot_var, v, &wrote) {
                Why::OtherElements
            } else if !read_out
                && !l.body.iter().any(|n| units.contains(&p.node(*n).unit))
                && !l.modifies.iter().any(|v| p.var(*v).is_global_storage())
            {
                Why::ComputesNothing
            } else {
                continue;
            };
            loops.push((l, why));
        }
        out.push(Missing::new(p, v, None, read, &loops));
    }
    let known: BTreeSet<String> = out.iter().map(|m| m.var.clone()).collect();
    let locals = entry_locals(p, false);
    let mut stale = stale_reads(p, a, trace, &acc, units, &locals);
    let known_stale: BTreeSet<String> = stale.iter().map(|m| m.var.clone()).collect();
    stale.extend(
        paired_tests(p, trace, &acc, units, &locals)
            .into_iter()
            .filter(|m| !known_stale.contains(&m.var)),
    );
    out.extend(stale.into_iter().filter(|m| !known.contains(&m.var)));
    out
}

/// Reads of `units` of a local of the entry, under an `if` of `units`
/// (its then-arm holds the read), whose value was written before an
/// earlier `if` of the run with the same test, on values no step wrote in
/// between, whose then-arm the run took and wrote nothing in: the update
/// belongs in that arm (`lk = 1` missing from `if (p != 0) { }`, where a
/// later `if (p != 0)` expects it: the lock and unlock phases of the
/// `test_locks` tasks).
fn paired_tests(
    p: &Program,
    trace: &[NodeId],
    acc: &Accesses,
    units: &BTreeSet<UnitId>,
    slot_var: &BTreeMap<usize, VarId>,
) -> Vec<Missing> {
    let entry_branch =
        |j: usize| acc.activation[j] == ENTRY && matches!(p.node(trace[j]).kind, NodeKind::Branch { .. });
    stale_reads_of(p, trace, acc, units, slot_var, |v, w, i| {
        let n = trace[i];
        let under = |g: usize| {
            entry_branch(g)
                && units.contains(&p.node(trace[g]).unit)
                && then_arm(p, trace[g]).is_some_and(|b| b.lo <= p.node(n).span.lo && p.node(n).span.hi <= b.hi)
        };
        let g = (w + 1..i).rev().find(|&g| under(g))?;
        let test = p.source.slice(p.node(trace[g]).span);
        let tested: HashSet<Loc> = acc.reads(g).iter().copied().collect();
        let twin = (w + 1..g).rev().find(|&j| {
            entry_branch(j)
                && trace[j] != trace[g]
                && p.source.slice(p.node(trace[j]).span) == test
                && (j + 1..g).all(|k| acc.writes(k).iter().all(|x| !tested.contains(x)))
                && then_arm(p, trace[j]).is_some_and(|b| arm_taken_quietly(p, trace, acc, j, b))
        });
        let j = twin?;
        let arm = then_arm(p, trace[j])?;
        let (stale, read) = (p.line(p.node(trace[w]).span), p.line(p.node(n).span));
        Some(Missing::arm(p, v, (stale, read), trace[j], arm))
    })
}

/// The then-arm of the branch `n` as written: the block right after its
/// test's closing parenthesis.
fn then_arm(p: &Program, n: NodeId) -> Option<crate::syntax::source::Span> {
    let cond = p.node(n).span;
    let text = &p.source.text;
    let b = p
        .blocks
        .iter()
        .filter(|b| b.span.lo >= cond.hi)
        .min_by_key(|b| b.span.lo)?;
    let between = text.get(cond.hi as usize..b.span.lo as usize)?;
    (between.trim() == ")").then_some(b.span)
}

/// The run took the then-arm `arm` of the branch at step `j` (the test's
/// value is that of the later `if`'s, which held) and no step in the arm
/// wrote anything.
fn arm_taken_quietly(
    p: &Program,
    trace: &[NodeId],
    acc: &Accesses,
    j: usize,
    arm: crate::syntax::source::Span,
) -> bool {
    let inside = |k: usize| {
        let s = p.node(trace[k]).span;
        arm.lo <= s.lo && s.hi <= arm.hi
    };
    (j + 1..trace.len())
        .take_while(|&k| inside(k))
        .all(|k| acc.writes(k).is_empty())
}

/// Reads of `units` of a local of the entry whose value was written before
/// a loop the run then went round, a loop that neither reads nor writes
/// it and computes nothing (no statement outside it reads what it writes,
/// and the error depends on none of its statements): an update of the
/// local missing from that loop's body (`res = res + 1` deleted from a
/// counting loop), which leaves the value stale.
fn stale_reads(
    p: &Program,
    a: &Analysis,
    trace: &[NodeId],
    acc: &Accesses,
    units: &BTreeSet<UnitId>,
    slot_var: &BTreeMap<usize, VarId>,
) -> Vec<Missing> {
    // What does not depend on the read, once: the loops of the entry that
    // hold none of `units` and compute nothing, and the statements that
    // read an input.
    let quiet: Vec<&Loop> = (a.loops.iter())
        .filter(|lp| lp.proc == p.entry && !lp.body.iter().any(|m| units.contains(&p.node(*m).unit)))
        .filter(|lp| {
            let (wrote, read_out) = loop_writes(trace, acc, &lp.body);
            !read_out && !wrote.is_empty()
        })
        .collect();
    stale_reads_of(p, trace, acc, units, slot_var, |v, w, i| {
        let n = trace[i];
        let loops: Vec<(&Loop, Why)> = (quiet.iter().copied())
            .filter(|lp| !lp.body.contains(&trace[w]) && !lp.body.contains(&n))
            .filter(|lp| (w..i).any(|j| acc.activation[j] == ENTRY && lp.body.contains(&trace[j])))
            .filter(|lp| !touches(trace, acc, &lp.body, slot_var, v))
            .map(|lp| (lp, Why::ComputesNothing))
            .collect();
        let (stale, read) = (p.line(p.node(trace[w]).span), p.line(p.node(n).span));
        (!loops.is_empty()).then(|| Missing::new(p, v, Some(stale), read, &loops))
    })
}

/// For each read by a step of `units` of a local of the entry (`slot_var`)
/// that an earlier step wrote, not with an input (an input keeps the value
/// read; nothing should update it): `stale(v, write, read)` says what
/// update is missing, if any; the first of each local is kept.
fn stale_reads_of(
    p: &Program,
    trace: &[NodeId],
    acc: &Accesses,
    units: &BTreeSet<UnitId>,
    slot_var: &BTreeMap<usize, VarId>,
    mut stale: impl FnMut(VarId, usize, usize) -> Option<Missing>,
) -> Vec<Missing> {
    let input_units: HashSet<UnitId> = (p.node_ids())
        .filter(|&m| matches!(p.node(m).kind, NodeKind::Havoc { .. }))
        .map(|m| p.node(m).unit)
        .collect();
    let mut last: HashMap<Loc, usize> = HashMap::new();
    let mut out: BTreeMap<VarId, Missing> = BTreeMap::new();
    for (i, &n) in trace.iter().enumerate() {
        if acc.activation[i] == ENTRY && units.contains(&p.node(n).unit) {
            for l in acc.reads(i).iter().filter(|l| l.activation() == ENTRY) {
                let (Some(&v), Some(&w)) = (slot_var.get(&l.offset()), last.get(l)) else {
                    continue;
                };
                if out.contains_key(&v) || input_units.contains(&p.node(trace[w]).unit) {
                    continue;
                }
                if let Some(m) = stale(v, w, i) {
                    out.insert(v, m);
                }
            }
        }
        for l in acc.writes(i) {
            last.insert(*l, i);
        }
    }
    out.into_values().collect()
}

/// A step of the loop reads or writes an element of the entry's local `v`.
fn touches(
    trace: &[NodeId],
    acc: &Accesses,
    body: &BTreeSet<NodeId>,
    slot_var: &BTreeMap<usize, VarId>,
    v: VarId,
) -> bool {
    let of_v = |l: &Loc| l.activation() == ENTRY && slot_var.get(&l.offset()) == Some(&v);
    (0..trace.len())
        .filter(|&i| acc.activation[i] == ENTRY && body.contains(&trace[i]))
        .any(|i| acc.reads(i).iter().chain(acc.writes(i)).any(of_v))
}

/// The entry's uninitialised locals (`slot_var`) that a step of `units`
/// reads before any step wrote them, each with the first such step.
fn unwritten_reads(
    p: &Program,
    trace: &[NodeId],
    acc: &Accesses,
    units: &BTreeSet<UnitId>,
    slot_var: &BTreeMap<usize, VarId>,
) -> BTreeMap<VarId, usize> {
    let mut written: HashSet<Loc> = HashSet::new();
    let mut out = BTreeMap::new();
    for (i, &n) in trace.iter().enumerate() {
        if acc.activation[i] == ENTRY && units.contains(&p.node(n).unit) {
            for l in acc
                .reads(i)
                .iter()
                .filter(|l| l.activation() == ENTRY && !written.contains(l))
            {
                if let Some(&v) = slot_var.get(&l.offset()) {
                    out.entry(v).or_insert(i);
                }
            }
        }
        written.extend(acc.writes(i).iter().copied());
    }
    out
}

/// The entry's locals written by the user (only the uninitialised ones
/// with `inputs`), by frame slot.
fn entry_locals(p: &Program, inputs: bool) -> BTreeMap<usize, VarId> {
    let layout = p.layout();
    let mut slot_var = BTreeMap::new();
    for (i, v) in p.vars.iter().enumerate() {
        let user = super::source_name(&v.name) && !v.name.contains('#');
        if v.proc == Some(p.entry)
            && v.kind == VarKind::Local
            && (v.init == VarInit::Input || !inputs)
            && !v.is_global_storage()
            && user
        {
            let off = layout.offset[i] as usize;
            for k in 0..v.slots() as usize {
                slot_var.insert(off + k, VarId(i as u32));
            }
        }
    }
    slot_var
}

/// The locations the loop's steps wrote, and whether a step outside it
/// reads one of them (a callee's writes are not the loop's steps: a loop
/// that may write a global is not taken to compute nothing).
fn loop_writes(trace: &[NodeId], acc: &Accesses, body: &BTreeSet<NodeId>) -> (HashSet<Loc>, bool) {
    let inside = |i: usize| acc.activation[i] == ENTRY && body.contains(&trace[i]);
    let wrote: HashSet<Loc> = (0..trace.len())
        .filter(|&i| inside(i))
        .flat_map(|i| acc.writes(i).iter().copied())
        .collect();
    let read = (0..trace.len()).any(|i| !inside(i) && acc.reads(i).iter().any(|l| wrote.contains(l)));
    (wrote, read)
}

/// Some of the locations are elements of the entry's array `v`.
fn writes_elements_of(slot_var: &BTreeMap<usize, VarId>, v: VarId, wrote: &HashSet<Loc>) -> bool {
    wrote
        .iter()
        .any(|l| l.activation() == ENTRY && slot_var.get(&l.offset()) == Some(&v))
}

/// The lines of a loop's body as written: the block after its head, but
/// the head's own line and a line that only closes the block.
fn body_lines(p: &Program, head: NodeId, body: &BTreeSet<NodeId>) -> Vec<u32> {
    let h = p.node(head);
    let inner: Vec<_> = body.iter().filter(|&&n| n != head).map(|n| p.node(*n).span).collect();
    // The first block after the head's start that holds the body's nodes
    // but those written before it (a condition, a `for`'s step).
    let block = p
        .blocks
        .iter()
        .filter(|b| b.proc == h.proc && b.span.lo > h.span.lo)
        .filter(|b| {
            inner
                .iter()
                .all(|s| s.hi <= b.span.lo || (b.span.lo <= s.lo && s.hi <= b.span.hi))
        })
        .min_by_key(|b| b.span.lo);
    let head_line = p.line(h.span);
    let Some(b) = block else {
        return vec![head_line];
    };
    let last = super::last_line(p, b.span);
    let lines: Vec<u32> = (p.line(b.span)..=last)
        .filter(|&l| l != head_line && !(l == last && p.source.line_text(l).trim() == "}"))
        .filter(|&l| !p.source.line_text(l).trim().is_empty())
        .collect();
    if lines.is_empty() {
        vec![head_line]
    } else {
        lines
    }
}
