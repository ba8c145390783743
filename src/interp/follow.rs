//! A run that follows a violation witness's waypoints (`run --witness`):
//! a nondeterministic value is the one the pending `function_return`
//! waypoint gives when the draw is at its call, and a condition decided
//! against the pending `branching` waypoint rejects the witness. Waypoints
//! are passed in order, each the first time the run is at its place;
//! every other draw takes the fill value. An `assumption` waypoint (`x ==
//! V && ...`, about uninitialised locals) is evaluated when the run is at
//! its statement; the values C leaves indeterminate there (an entry's
//! uninitialised local, a local drawn at its declaration) are chosen to
//! satisfy it.

use crate::ir::{NodeId, UnitId, VarId};
use std::collections::HashMap;

/// What a waypoint asks of the run at its place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Want {
    /// `\result == V` of the call whose value is drawn there.
    Value(i64),
    /// The condition there evaluates to this.
    Branch(bool),
    /// Each element (variable, index) holds the value there (`x == V &&
    /// a[1] == W`), evaluated before the statement.
    Assume(Vec<(VarId, i64, i64)>),
}

/// A waypoint resolved against the program: its place as a source offset
/// (the `)` of a call, the keyword of a condition), its index in the file.
#[derive(Clone, Debug)]
pub struct Waypoint {
    pub at: u32,
    pub want: Want,
    pub index: usize,
}

/// A segment: waypoints the run must not pass, then the one it must.
#[derive(Clone, Debug)]
pub struct Segment {
    pub avoid: Vec<Waypoint>,
    pub follow: Waypoint,
}

#[derive(Clone, Debug, Default)]
pub struct Follow {
    pub segments: Vec<Segment>,
    /// The source range of the call whose value each nondeterministic draw
    /// is (from the start of its statement to the call's `)`).
    pub draws: HashMap<NodeId, (u32, u32)>,
    /// The keyword offset of each `if`/`while`/`for` condition's unit.
    pub conditions: HashMap<UnitId, u32>,
    /// The value of draws no waypoint gives.
    pub fill: i64,
    /// Per node, the source range where a waypoint puts its statement
    /// (from its line's start to where the statement's own text begins).
    pub places: HashMap<NodeId, (u32, u32)>,
    /// The entry's inputs (uninitialised locals) the assumptions name,
    /// with the first value named.
    pub inputs: HashMap<String, i64>,
}

/// How far a run got through the waypoints.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// Segments passed.
    pub passed: usize,
    /// The waypoint (its index in the file) the run went against, and where.
    pub rejected: Option<(usize, NodeId)>,
}

impl Follow {
    /// The value of a draw at `node` in `range`; `Err` with the waypoint
    /// the run goes against (a value outside the call's type).
    /// `slot`: the local (and element) an uninitialised declaration draws
    /// for, whose value a pending assumption may name.
    pub(super) fn draw(
        &self,
        at: &mut Progress,
        node: NodeId,
        range: (i64, i64),
        slot: Option<(VarId, i64)>,
    ) -> Result<i64, usize> {
        let here = self.draws.get(&node).copied();
        let is_here = |w: &Waypoint| here.is_some_and(|(lo, hi)| lo <= w.at && w.at <= hi);
        if let Some(seg) = self.segments.get(at.passed) {
            if let (Want::Assume(named), Some((v, k))) = (&seg.follow.want, slot) {
                if let Some(&(_, _, value)) = named.iter().find(|&&(x, i, _)| (x, i) == (v, k)) {
                    return Ok(value.clamp(range.0, range.1));
                }
            }
            if let (&Want::Value(v), true) = (&seg.follow.want, is_here(&seg.follow)) {
                if v < range.0 || v > range.1 {
                    return Err(seg.follow.index);
                }
                at.passed += 1;
                return Ok(v);
            }
            // A value an avoided waypoint names is not drawn.
            let avoided: Vec<i64> = (seg.avoid.iter())
                .filter(|w| is_here(w))
                .filter_map(|w| match &w.want {
                    &Want::Value(v) => Some(v),
                    _ => None,
                })
                .collect();
            let mut v = self.fill.clamp(range.0, range.1);
            while avoided.contains(&v) && v < range.1 {
                v += 1;
            }
            return Ok(v);
        }
        Ok(self.fill.clamp(range.0, range.1))
    }

    /// A condition of `unit` decided `value`; `Err` with the waypoint the
    /// run goes against.
    pub(super) fn decided(&self, at: &mut Progress, unit: UnitId, value: bool) -> Result<(), usize> {
        let (Some(&key), Some(seg)) = (self.conditions.get(&unit), self.segments.get(at.passed)) else {
            return Ok(());
        };
        if let Some(w) = (seg.avoid.iter()).find(|w| w.at == key && w.want == Want::Branch(value)) {
            return Err(w.index);
        }
        match seg.follow.want {
            Want::Branch(b) if seg.follow.at == key && b == value => at.passed += 1,
            Want::Branch(_) if seg.follow.at == key => return Err(seg.follow.index),
            _ => {}
        }
        Ok(())
    }

    /// The run is about to execute `node`: passes the pending assumptions
    /// whose statement it is when they hold (`read` gives a variable's
    /// element there); `Err` with an `avoid` assumption that holds.
    pub(super) fn arrived(
        &self,
        at: &mut Progress,
        node: NodeId,
        read: &dyn Fn(VarId, i64) -> Option<i64>,
    ) -> Result<(), usize> {
        let Some(&(lo, hi)) = self.places.get(&node) else {
            return Ok(());
        };
        let holds = |w: &Waypoint| match &w.want {
            Want::Assume(named) if lo <= w.at && w.at <= hi => {
                Some(named.iter().all(|&(v, k, value)| read(v, k) == Some(value)))
            }
            _ => None,
        };
        while let Some(seg) = self.segments.get(at.passed) {
            if let Some(w) = seg.avoid.iter().find(|w| holds(w) == Some(true)) {
                return Err(w.index);
            }
            if holds(&seg.follow) != Some(true) {
                break;
            }
            at.passed += 1;
        }
        Ok(())
    }
}

impl super::Machine<'_> {
    /// Before `n`: the pending assumptions of the followed witness there.
    pub(super) fn assumptions_at(&mut self, n: NodeId) -> Result<(), super::Stop> {
        let Some(f) = self.follow else { return Ok(()) };
        let read = |v: VarId, k: i64| self.peek(v, k);
        let mut progress = self.progress.clone();
        let done = f.arrived(&mut progress, n, &read);
        self.progress = progress;
        done.map_err(|w| {
            self.progress.rejected = Some((w, n));
            super::Stop::Rejected
        })
    }

    /// Element `index` of `v` in the current frame, not counted as a read
    /// of the program (a witness's assumption looks at it).
    fn peek(&self, v: VarId, index: i64) -> Option<i64> {
        let var = self.p.var(v);
        if var.proc.is_some_and(|q| q != self.frame().proc) || index < 0 || index >= var.slots() as i64 {
            return None;
        }
        let off = self.layout.offset[v.index()] as usize + index as usize;
        if var.is_global_storage() {
            self.globals.get(off).copied()
        } else {
            self.frame().locals.get(off).copied()
        }
    }
}
