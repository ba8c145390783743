//! A run that follows a violation witness's waypoints (`run --witness`):
//! a nondeterministic value is the one the pending `function_return`
//! waypoint gives when the draw is at its call, and a condition decided
//! against the pending `branching` waypoint rejects the witness. Waypoints
//! are passed in order, each the first time the run is at its place;
//! every other draw takes the fill value.

use crate::ir::{NodeId, UnitId};
use std::collections::HashMap;

/// What a waypoint asks of the run at its place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Want {
    /// `\result == V` of the call whose value is drawn there.
    Value(i64),
    /// The condition there evaluates to this.
    Branch(bool),
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
    pub(super) fn draw(&self, at: &mut Progress, node: NodeId, range: (i64, i64)) -> Result<i64, usize> {
        let here = self.draws.get(&node).copied();
        let is_here = |w: &Waypoint| here.is_some_and(|(lo, hi)| lo <= w.at && w.at <= hi);
        if let Some(seg) = self.segments.get(at.passed) {
            if let (Want::Value(v), true) = (seg.follow.want, is_here(&seg.follow)) {
                if v < range.0 || v > range.1 {
                    return Err(seg.follow.index);
                }
                at.passed += 1;
                return Ok(v);
            }
            // A value an avoided waypoint names is not drawn.
            let avoided: Vec<i64> = (seg.avoid.iter())
                .filter(|w| is_here(w))
                .filter_map(|w| match w.want {
                    Want::Value(v) => Some(v),
                    Want::Branch(_) => None,
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
}
