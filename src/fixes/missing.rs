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
use crate::syntax::source::Span;
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::time::Instant;

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
    fn arm(p: &Program, v: VarId, (stale, read): (u32, u32), test: NodeId, arm: Span) -> Missing {
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
/// statements) in the counterexample's run, replayed with a record; and
/// whether `deadline` cut the search (what it found is kept).
pub fn find(
    p: &Program,
    a: &Analysis,
    users: &[crate::ir::cond::UserCond],
    cx: &Counterexample,
    units: &BTreeSet<UnitId>,
    deadline: Option<Instant>,
) -> (Vec<Missing>, bool) {
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
        return (Vec::new(), false);
    };
    // Each recorded step's node: the trace's, and the run-time check the
    // run stopped at (its reads are recorded, the trace leaves it out).
    let mut trace: Vec<NodeId> = run.trace.iter().map(|s| s.node).take(acc.steps()).collect();
    trace.extend(acc.failed_node.filter(|_| acc.steps() > trace.len()));
    let r = Record {
        p,
        trace: &trace,
        acc: &acc,
        units,
        deadline,
    };
    // What each loop of the entry wrote, and whether a step outside it
    // read that: once per loop, not once per read.
    let writes: Vec<Option<(HashSet<Loc>, bool)>> = (a.loops.iter())
        .map(|l| (l.proc == p.entry).then(|| loop_writes(&trace, &acc, &l.body)))
        .collect();
    let never_written = unwritten_reads(p, &trace, &acc, units, &slot_var);
    let mut out = Vec::new();
    for (v, step) in never_written {
        let (declared, read) = (p.line(p.var(v).span), p.line(p.node(trace[step]).span));
        if declared >= read {
            continue;
        }
        let mut loops = Vec::new();
        for (l, w) in a.loops.iter().zip(&writes) {
            let head = p.line(p.node(l.head).span);
            let Some((wrote, read_out)) = w else { continue };
            if head <= declared || head >= read || l.body.contains(&trace[step]) {
                continue;
            }
            let why = if writes_elements_of(&slot_var, v, wrote) {
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
    let (mut stale, cut) = stale_reads(&r, a, &writes, &locals);
    let known_stale: BTreeSet<String> = stale.iter().map(|m| m.var.clone()).collect();
    let (paired, cut_paired) = if cut {
        (Vec::new(), true)
    } else {
        paired_tests(&r, &locals)
    };
    stale.extend(paired.into_iter().filter(|m| !known_stale.contains(&m.var)));
    out.extend(stale.into_iter().filter(|m| !known.contains(&m.var)));
    (out, cut || cut_paired)
}

/// A recorded run of the counterexample: each step's node and accesses,
/// the top FSS's units, and the search's deadline.
struct Record<'a> {
    p: &'a Program,
    trace: &'a [NodeId],
    acc: &'a Accesses,
    units: &'a BTreeSet<UnitId>,
    deadline: Option<Instant>,
}

impl Record<'_> {
    /// The step `j` is a branch of the entry's activation.
    fn entry_branch(&self, j: usize) -> bool {
        self.acc.activation[j] == ENTRY && matches!(self.p.node(self.trace[j]).kind, NodeKind::Branch { .. })
    }

    /// The steps `steps` of the entry's activation, by node.
    fn positions(&self, steps: impl Iterator<Item = usize>) -> HashMap<NodeId, Vec<usize>> {
        let mut at: HashMap<NodeId, Vec<usize>> = HashMap::new();
        for j in steps {
            at.entry(self.trace[j]).or_default().push(j);
        }
        at
    }
}

/// The last of the sorted `steps` before `end`.
fn last_before(steps: &[usize], end: usize) -> Option<usize> {
    let k = steps.partition_point(|&x| x < end);
    k.checked_sub(1).map(|k| steps[k])
}

/// Reads of `units` of a local of the entry, under an `if` of `units`
/// (its then-arm holds the read), whose value was written before an
/// earlier `if` of the run with the same test, on values no step wrote in
/// between, whose then-arm the run took and wrote nothing in: the update
/// belongs in that arm (`lk = 1` missing from `if (p != 0) { }`, where a
/// later `if (p != 0)` expects it: the lock and unlock phases of the
/// `test_locks` tasks). Each read is looked up in indexes of the run (by
/// node, by test, by written location), so the search is not quadratic
/// in a long run's length.
fn paired_tests(r: &Record, slot_var: &BTreeMap<usize, VarId>) -> (Vec<Missing>, bool) {
    let (p, trace, acc) = (r.p, r.trace, r.acc);
    let branches: Vec<usize> = (0..trace.len()).filter(|&j| r.entry_branch(j)).collect();
    let at = r.positions(branches.iter().copied());
    let arms: HashMap<NodeId, Span> = at.keys().filter_map(|&n| Some((n, then_arm(p, n)?))).collect();
    // The branch steps by test as written, each with the last earlier one
    // of another node (to pass over a test's own repetitions at once).
    let mut by_test: HashMap<&str, (Vec<usize>, Vec<Option<usize>>)> = HashMap::new();
    for &j in &branches {
        let (steps, other) = by_test.entry(p.source.slice(p.node(trace[j]).span)).or_default();
        let prev = steps.last().map(|&k| {
            if trace[k] == trace[j] {
                other[other.len() - 1]
            } else {
                Some(steps.len() - 1)
            }
        });
        other.push(prev.flatten());
        steps.push(j);
    }
    let mut written: HashMap<Loc, Vec<usize>> = HashMap::new();
    for i in 0..trace.len() {
        for l in acc.writes(i) {
            written.entry(*l).or_default().push(i);
        }
    }
    let mut enclosing: HashMap<NodeId, Vec<NodeId>> = HashMap::new();
    let mut quiet: HashMap<usize, bool> = HashMap::new();
    let mut twins: HashMap<(usize, usize), Option<usize>> = HashMap::new();
    stale_reads_of(r, slot_var, |v, w, i| {
        let n = trace[i];
        let span = p.node(n).span;
        // The last step before the read of an `if` of `units` whose
        // then-arm holds it.
        let holders = enclosing.entry(n).or_insert_with(|| {
            (arms.iter())
                .filter(|(b, arm)| r.units.contains(&p.node(**b).unit) && arm.lo <= span.lo && span.hi <= arm.hi)
                .map(|(b, _)| *b)
                .collect()
        });
        let g = holders
            .iter()
            .filter_map(|b| last_before(&at[b], i))
            .max()
            .filter(|&g| g > w)?;
        // An earlier `if` with the same test counts only if no step after
        // it wrote what the test reads.
        let wrote_last = (acc.reads(g).iter())
            .filter_map(|l| last_before(written.get(l)?, g))
            .max();
        let lo = wrote_last.map_or(w + 1, |x| x.max(w + 1));
        let twin = *twins.entry((g, lo)).or_insert_with(|| {
            let (steps, other) = &by_test[p.source.slice(p.node(trace[g]).span)];
            let mut k = steps.partition_point(|&x| x < g).checked_sub(1);
            while let Some(c) = k.filter(|&c| steps[c] >= lo) {
                let j = steps[c];
                if trace[j] == trace[g] {
                    k = other[c];
                    continue;
                }
                let calm = *quiet.entry(j).or_insert_with(|| {
                    arms.get(&trace[j])
                        .is_some_and(|b| arm_taken_quietly(p, trace, acc, j, *b))
                });
                if calm {
                    return Some(j);
                }
                k = c.checked_sub(1);
            }
            None
        });
        let j = twin?;
        let (stale, read) = (p.line(p.node(trace[w]).span), p.line(span));
        Some(Missing::arm(p, v, (stale, read), trace[j], arms[&trace[j]]))
    })
}

/// The then-arm of the branch `n` as written: the block right after its
/// test's closing parenthesis.
fn then_arm(p: &Program, n: NodeId) -> Option<Span> {
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
fn arm_taken_quietly(p: &Program, trace: &[NodeId], acc: &Accesses, j: usize, arm: Span) -> bool {
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
/// counting loop), which leaves the value stale. `writes`: what each loop
/// wrote (`loop_writes`), `None` for a loop outside the entry.
fn stale_reads(
    r: &Record,
    a: &Analysis,
    writes: &[Option<(HashSet<Loc>, bool)>],
    slot_var: &BTreeMap<usize, VarId>,
) -> (Vec<Missing>, bool) {
    let (p, trace, acc) = (r.p, r.trace, r.acc);
    // What does not depend on the read, once: the loops of the entry that
    // hold none of `units` and compute nothing, each with the steps of
    // the entry's activation in it and the locals those steps touch.
    let quiet: Vec<(&Loop, Vec<usize>, HashSet<VarId>)> = (a.loops.iter().zip(writes))
        .filter(|(_, w)| {
            w.as_ref()
                .is_some_and(|(wrote, read_out)| !read_out && !wrote.is_empty())
        })
        .filter(|(lp, _)| !lp.body.iter().any(|m| r.units.contains(&p.node(*m).unit)))
        .map(|(lp, _)| {
            let steps: Vec<usize> = (0..trace.len())
                .filter(|&i| acc.activation[i] == ENTRY && lp.body.contains(&trace[i]))
                .collect();
            let touched = (steps.iter())
                .flat_map(|&i| acc.reads(i).iter().chain(acc.writes(i)))
                .filter(|l| l.activation() == ENTRY)
                .filter_map(|l| slot_var.get(&l.offset()).copied())
                .collect();
            (lp, steps, touched)
        })
        .collect();
    stale_reads_of(r, slot_var, |v, w, i| {
        let n = trace[i];
        let went_round = |steps: &[usize]| steps.get(steps.partition_point(|&x| x < w)).is_some_and(|&x| x < i);
        let loops: Vec<(&Loop, Why)> = (quiet.iter())
            .filter(|(lp, _, _)| !lp.body.contains(&trace[w]) && !lp.body.contains(&n))
            .filter(|(_, steps, touched)| went_round(steps) && !touched.contains(&v))
            .map(|(lp, _, _)| (*lp, Why::ComputesNothing))
            .collect();
        let (stale, read) = (p.line(p.node(trace[w]).span), p.line(p.node(n).span));
        (!loops.is_empty()).then(|| Missing::new(p, v, Some(stale), read, &loops))
    })
}

/// For each read by a step of `units` of a local of the entry (`slot_var`)
/// that an earlier step wrote, not with an input (an input keeps the value
/// read; nothing should update it): `stale(v, write, read)` says what
/// update is missing, if any; the first of each local is kept. Past the
/// deadline it stops (checked every 1,024 steps): `true`.
fn stale_reads_of(
    r: &Record,
    slot_var: &BTreeMap<usize, VarId>,
    mut stale: impl FnMut(VarId, usize, usize) -> Option<Missing>,
) -> (Vec<Missing>, bool) {
    let (p, acc) = (r.p, r.acc);
    let input_units: HashSet<UnitId> = (p.node_ids())
        .filter(|&m| matches!(p.node(m).kind, NodeKind::Havoc { .. }))
        .map(|m| p.node(m).unit)
        .collect();
    let mut last: HashMap<Loc, usize> = HashMap::new();
    let mut out: BTreeMap<VarId, Missing> = BTreeMap::new();
    for (i, &n) in r.trace.iter().enumerate() {
        if i % 1024 == 0 && r.deadline.is_some_and(|d| Instant::now() >= d) {
            return (out.into_values().collect(), true);
        }
        if acc.activation[i] == ENTRY && r.units.contains(&p.node(n).unit) {
            for l in acc.reads(i).iter().filter(|l| l.activation() == ENTRY) {
                let (Some(&v), Some(&w)) = (slot_var.get(&l.offset()), last.get(l)) else {
                    continue;
                };
                if out.contains_key(&v) || input_units.contains(&p.node(r.trace[w]).unit) {
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
    (out.into_values().collect(), false)
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
