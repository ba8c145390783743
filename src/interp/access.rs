//! What each step of a run read and wrote, by storage location, and the
//! operands its checked operations saw: what a dynamic slice of the run
//! needs (`explain::slice`). Recorded only when asked for (`run_recorded`).

use crate::ir::{BitOp, IntType, NodeId, SiteId};
use std::collections::{HashMap, HashSet};

/// A storage location of one run: a global slot (activation 0), or a slot
/// of one activation's frame (activations are numbered from 1, the entry's,
/// in the order the run makes them; a recursive call gets a new number).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc(u64);

impl Loc {
    pub fn new(activation: u32, offset: usize) -> Loc {
        Loc(((activation as u64) << 32) | offset as u64)
    }

    /// 0 for global storage.
    pub fn activation(self) -> u32 {
        (self.0 >> 32) as u32
    }

    pub fn offset(self) -> usize {
        (self.0 & 0xffff_ffff) as usize
    }
}

/// The operands of a checked operation as a step evaluated it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SiteSeen {
    /// An array index and the array's length.
    Index(i64, i64),
    /// A divisor.
    Div(i64),
    /// A signed result checked against its type.
    Checked(i64, IntType),
    /// A bitwise operation with a site (a shift): its operands.
    Bit {
        op: BitOp,
        ty: IntType,
        a: i64,
        b: i64,
        strict: bool,
    },
    /// A floating value converted to an integer type: whether the
    /// conversion was defined.
    FloatToInt(bool),
}

/// A call step: the activation it starts and where each argument's reads
/// begin in the step's reads.
#[derive(Clone, Debug)]
pub struct CallSeen {
    pub activation: u32,
    pub arg_reads: Vec<usize>,
}

/// The record of a run, by step (the positions of `Run::trace`, plus the
/// step that stopped at a run-time check, which the trace leaves out).
#[derive(Default)]
pub struct Accesses {
    /// Where each step's reads and writes begin in the flat lists.
    starts: Vec<(u32, u32)>,
    reads: Vec<Loc>,
    writes: Vec<Loc>,
    /// The activation each step ran in.
    pub activation: Vec<u32>,
    pub calls: HashMap<usize, CallSeen>,
    /// The checked operations of the steps asked for, in evaluation order.
    pub sites: HashMap<usize, Vec<(SiteId, SiteSeen)>>,
    /// What the operand of the run-time check the run stopped at reads.
    pub failed_operand: Vec<Loc>,
    /// The error's node, when the run stopped inside an expression.
    pub failed_node: Option<NodeId>,
}

impl Accesses {
    pub fn steps(&self) -> usize {
        self.starts.len()
    }

    fn range(&self, i: usize) -> (std::ops::Range<usize>, std::ops::Range<usize>) {
        let (r0, w0) = self.starts[i];
        let (r1, w1) = self
            .starts
            .get(i + 1)
            .copied()
            .unwrap_or((self.reads.len() as u32, self.writes.len() as u32));
        (r0 as usize..r1 as usize, w0 as usize..w1 as usize)
    }

    pub fn reads(&self, i: usize) -> &[Loc] {
        &self.reads[self.range(i).0]
    }

    pub fn writes(&self, i: usize) -> &[Loc] {
        &self.writes[self.range(i).1]
    }
}

/// What a recording run keeps: accesses of every step, and the checked
/// operations of the steps in `sites_of`.
pub struct Recorder {
    pub log: Accesses,
    pub accesses: bool,
    pub sites_of: HashSet<usize>,
    /// Off while the run reads for its own purposes (watched conditions).
    pub on: bool,
    step: usize,
}

impl Recorder {
    pub fn new(accesses: bool, sites_of: HashSet<usize>) -> Recorder {
        Recorder {
            log: Accesses::default(),
            accesses,
            sites_of,
            on: true,
            step: 0,
        }
    }

    pub fn begin(&mut self, step: usize, activation: u32) {
        self.step = step;
        if self.accesses {
            self.log
                .starts
                .push((self.log.reads.len() as u32, self.log.writes.len() as u32));
            self.log.activation.push(activation);
        }
    }

    pub fn read(&mut self, l: Loc) {
        if self.accesses && self.on {
            self.log.reads.push(l);
        }
    }

    pub fn write(&mut self, l: Loc) {
        if self.accesses && self.on {
            self.log.writes.push(l);
        }
    }

    /// Where the current step's next read goes (an argument's first).
    pub fn mark(&self) -> usize {
        let start = self.log.starts.last().map_or(0, |s| s.0 as usize);
        self.log.reads.len() - start
    }

    /// How many reads the log holds.
    pub fn log_reads(&self) -> usize {
        self.log.reads.len()
    }

    /// The reads logged since `from`, taken out of the log.
    pub fn take_reads(&mut self, from: usize) -> Vec<Loc> {
        self.log.reads.split_off(from)
    }

    pub fn call(&mut self, activation: u32, arg_reads: Vec<usize>) {
        if self.accesses {
            self.log.calls.insert(self.step, CallSeen { activation, arg_reads });
        }
    }

    pub fn site(&mut self, site: SiteId, seen: SiteSeen) {
        if self.on && self.sites_of.contains(&self.step) {
            self.log.sites.entry(self.step).or_default().push((site, seen));
        }
    }
}
