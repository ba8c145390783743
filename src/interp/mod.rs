//! The concrete interpreter: runs a program on given inputs and choices.
//!
//! It is the referee for counterexamples (a symbolic counterexample is only
//! *confirmed* when its inputs, replayed here, reach the error), so it shares
//! nothing with the symbolic engine beyond the IR: its own evaluation, its own
//! stack, checked arithmetic.

use crate::ir::IntType;
use crate::ir::*;
use access::{Loc, Recorder, SiteSeen};
use draw::SplitMix;

pub mod access;
pub mod argv;
mod draw;
pub mod follow;
mod run;

mod failed;
pub use run::*;

struct Frame {
    proc: ProcId,
    /// The activation's number (`access::Loc`).
    act: u32,
    locals: Vec<i64>,
    pc: NodeId,
    /// Where the caller continues, and where the result goes.
    ret: Option<(NodeId, Option<Place>)>,
}

enum Stop {
    Error(SiteId),
    Overflow,
    Run(RunError),
    /// A waypoint of the followed witness was gone against.
    Rejected,
}

const FRESH: u8 = 1;
const LOST: u8 = 2;
/// An input without a value: reading it is an error.
const MISSING: u8 = 3;

/// A read: the input mattered, whatever happens to it next.
fn mark_read(marks: &std::cell::RefCell<Vec<u8>>, off: usize) {
    if let Some(f) = marks.borrow_mut().get_mut(off) {
        if *f == FRESH {
            *f = 0;
        }
    }
}

/// A write: an input not read so far never will be.
fn mark_written(marks: &mut [u8], off: usize) {
    if let Some(f) = marks.get_mut(off) {
        if *f == FRESH || *f == MISSING {
            *f = LOST;
        }
    }
}

struct Machine<'a> {
    p: &'a Program,
    /// Nodes whose states are recorded, and the records.
    observe: &'a std::collections::BTreeSet<NodeId>,
    snapshots: Vec<Snapshot>,
    layout: Layout,
    cfg: &'a Config,
    globals: Vec<i64>,
    frames: Vec<Frame>,
    choices_used: Vec<i64>,
    /// The choices that are floating values (a `float`/`double` draw), by
    /// position: a replay command writes them as C values.
    float_choices: Vec<(usize, IntType)>,
    rng: Option<SplitMix>,
    pc_node: NodeId,
    /// Per global slot: an input not read yet (`FRESH`), overwritten before
    /// it was read (`LOST`), or anything else (0).
    fresh: std::cell::RefCell<Vec<u8>>,
    /// The same for the slots of the entry's own frame.
    fresh_entry: std::cell::RefCell<Vec<u8>>,
    /// The last index that left an array's bounds.
    bad_index: std::cell::Cell<Option<i64>>,
    /// The array or object that index left.
    bad_var: std::cell::Cell<Option<VarId>>,
    call_args: Vec<(usize, Vec<i64>)>,
    /// Names of the inputs given no value, by (global, slot).
    missing: std::collections::HashMap<(bool, usize), String>,
    returned: Option<i64>,
    /// At an error after a failed check: the values its variables had.
    error_values: Vec<(VarId, i64)>,
    /// At a run-time check inside an expression that failed (an overflow,
    /// a division by zero): the values of its operands' variables, and an
    /// overflowing result with its type.
    failed_values: std::cell::RefCell<Vec<(VarId, i64)>>,
    overflowed: std::cell::Cell<Option<(i64, crate::ir::IntType)>>,
    /// The last conversions that changed a value (`Run::wraps`).
    wraps: std::cell::RefCell<std::collections::VecDeque<Wrap>>,
    /// What a recording run keeps (`run_recorded`).
    rec: Option<std::cell::RefCell<Recorder>>,
    next_act: u32,
    /// The witness a run follows (`run_following`), and how far it got.
    follow: Option<&'a follow::Follow>,
    progress: follow::Progress,
}

pub fn run(p: &Program, cfg: &Config) -> Result<Run, RunError> {
    run_after(p, cfg, None)
}

/// A run that first calls `init` (no arguments), then the entry on the
/// inputs (as `diff --init` does). Such a run is not one the narrowing of
/// splits (`ir::narrow`, from the entry) saw: it runs the program as lowered.
pub fn run_after(p: &Program, cfg: &Config, init: Option<ProcId>) -> Result<Run, RunError> {
    let lowered;
    let p = if init.is_some() && !p.narrowed.is_empty() {
        let mut q = p.clone();
        crate::ir::narrow::restore(&mut q);
        lowered = q;
        &lowered
    } else {
        p
    };
    run_full(p, cfg, init, &std::collections::BTreeSet::new(), None, None).map(|(r, ..)| r)
}

/// `run`, its draws answered by a witness's waypoints (`follow`); how far
/// it got through them. A run that goes against a waypoint stops there
/// (`Outcome::Halted` at that node, the waypoint in `Progress::rejected`).
pub fn run_following(p: &Program, cfg: &Config, follow: &follow::Follow) -> Result<(Run, follow::Progress), RunError> {
    let none = std::collections::BTreeSet::new();
    run_full(p, cfg, None, &none, None, Some(follow)).map(|(r, _, _, at)| (r, at))
}

/// `run`, also recording what each step read and wrote (`accesses`) and
/// the operands of the checked operations of the steps in `sites_of`.
/// `operand` gives the expression a run-time check at a node tests (its
/// reads are recorded when the run stops there).
pub fn run_recorded(
    p: &Program,
    cfg: &Config,
    accesses: bool,
    sites_of: std::collections::HashSet<usize>,
    operand: &dyn Fn(NodeId, SiteId) -> Option<Expr>,
) -> Result<(Run, access::Accesses), RunError> {
    let rec = Recorder::new(accesses, sites_of);
    let (run, _, log, _) = run_full(
        p,
        cfg,
        None,
        &std::collections::BTreeSet::new(),
        Some((rec, operand)),
        None,
    )?;
    Ok((run, log.unwrap_or_default()))
}

/// At most this many snapshots are recorded per run (a run that reaches the
/// limit has more visits than it reports).
pub const MAX_SNAPSHOTS: usize = 10_000;

/// `run`, also recording the state each time a node of `observe` is about
/// to execute (up to `MAX_SNAPSHOTS`).
pub fn run_observed(
    p: &Program,
    cfg: &Config,
    observe: &std::collections::BTreeSet<NodeId>,
) -> Result<(Run, Vec<Snapshot>), RunError> {
    run_full(p, cfg, None, observe, None, None).map(|(r, s, ..)| (r, s))
}

type Recording<'o> = (Recorder, &'o dyn Fn(NodeId, SiteId) -> Option<Expr>);

fn run_full(
    p: &Program,
    cfg: &Config,
    init: Option<ProcId>,
    observe: &std::collections::BTreeSet<NodeId>,
    recording: Option<Recording>,
    follow: Option<&follow::Follow>,
) -> Result<(Run, Vec<Snapshot>, Option<access::Accesses>, follow::Progress), RunError> {
    let (rec, operand) = match recording {
        Some((r, o)) => (Some(std::cell::RefCell::new(r)), Some(o)),
        None => (None, None),
    };
    let layout = p.layout();
    let slots = layout.global_slots as usize;
    let entry_slots = layout.frame_slots[p.entry.index()] as usize;
    let mut m = Machine {
        p,
        observe,
        snapshots: Vec::new(),
        globals: vec![0; layout.global_slots as usize],
        layout,
        cfg,
        frames: Vec::new(),
        choices_used: Vec::new(),
        float_choices: Vec::new(),
        rng: cfg.seed.map(SplitMix),
        pc_node: p.proc(p.entry).entry,
        fresh: std::cell::RefCell::new(vec![0; slots]),
        fresh_entry: std::cell::RefCell::new(vec![0; entry_slots]),
        bad_index: std::cell::Cell::new(None),
        bad_var: std::cell::Cell::new(None),
        call_args: Vec::new(),
        missing: std::collections::HashMap::new(),
        returned: None,
        error_values: Vec::new(),
        failed_values: Default::default(),
        overflowed: Default::default(),
        wraps: Default::default(),
        rec,
        next_act: 1,
        follow,
        progress: follow::Progress::default(),
    };
    let inputs = m.set_inputs()?;
    if let Some(g) = init {
        // `init` returns to the entry's first node.
        let start = m.frames.last().map(|f| f.pc).unwrap_or(p.proc(p.entry).entry);
        let act = m.new_act();
        m.frames.push(Frame {
            proc: g,
            act,
            locals: vec![0; m.layout.frame_slots[g.index()] as usize],
            pc: p.proc(g).entry,
            ret: Some((start, None)),
        });
    }
    let mut trace = Vec::new();
    let outcome = match m.exec(&mut trace) {
        Ok(o) => o,
        Err(Stop::Error(site)) => {
            m.record_operand(operand, site);
            Outcome::Error {
                site,
                node: m.pc_node,
                index: m.bad_index.get(),
            }
        }
        Err(Stop::Overflow) => Outcome::Overflow { node: m.pc_node },
        Err(Stop::Rejected) => Outcome::Halted { node: m.pc_node },
        Err(Stop::Run(e)) => return Err(e),
    };
    let fresh = m.fresh.into_inner();
    let fresh_entry = m.fresh_entry.into_inner();
    let unused_inputs = p
        .input_slots()
        .into_iter()
        .filter(|s| {
            let off = (m.layout.offset[s.var.index()] + s.index.unwrap_or(0)) as usize;
            let marks = if p.var(s.var).kind == VarKind::Global {
                &fresh
            } else {
                &fresh_entry
            };
            marks.get(off).is_some_and(|&f| f == FRESH || f == LOST)
        })
        .map(|s| s.name)
        .collect();
    let run = Run {
        outcome,
        trace,
        globals: m.globals,
        inputs,
        choices: m.choices_used,
        float_choices: m.float_choices,
        float_inputs: run::float_inputs(p),
        unused_inputs,
        call_args: m.call_args,
        returned: m.returned,
        error_values: if m.error_values.is_empty() {
            m.failed_values.into_inner()
        } else {
            m.error_values
        },
        overflow: m.overflowed.get(),
        wraps: m.wraps.into_inner().into(),
        bad_access: m.bad_var.get().zip(m.bad_index.get()),
    };
    let log = m.rec.map(|r| r.into_inner().log);
    Ok((run, m.snapshots, log, m.progress))
}

impl Machine<'_> {
    fn set_inputs(&mut self) -> Result<Vec<(String, i64)>, RunError> {
        let p = self.p;
        let slots = p.input_slots();
        let known: std::collections::HashSet<&str> = slots.iter().map(|s| s.name.as_str()).collect();
        for name in self.cfg.inputs.keys() {
            if !known.contains(name.as_str()) {
                return Err(RunError::UnknownInput {
                    name: name.clone(),
                    known: slots.iter().map(|s| s.name.clone()).collect(),
                });
            }
        }
        // Constant initial values first.
        for &g in &p.globals {
            if let VarInit::Values(vals) = &p.var(g).init {
                let off = self.layout.offset[g.index()] as usize;
                for (k, v) in vals.iter().enumerate() {
                    self.globals[off + k] = *v;
                }
            }
        }
        let entry = p.proc(p.entry);
        let act = self.new_act();
        let mut frame = Frame {
            proc: p.entry,
            act,
            locals: vec![0; self.layout.frame_slots[p.entry.index()] as usize],
            pc: entry.entry,
            ret: None,
        };
        let mut used = Vec::new();
        for s in slots {
            let off = (self.layout.offset[s.var.index()] + s.index.unwrap_or(0)) as usize;
            let global = p.var(s.var).kind == VarKind::Global;
            let named = (self.cfg.inputs.get(&s.name)).or_else(|| self.follow.and_then(|f| f.inputs.get(&s.name)));
            let fill = self.cfg.fill.or(self.follow.map(|f| f.fill));
            let value = match named {
                Some(&v) => {
                    if v < s.range.0 || v > s.range.1 {
                        return Err(RunError::InputOutOfRange {
                            name: s.name,
                            value: v,
                            range: s.range,
                        });
                    }
                    v
                }
                None => match (&mut self.rng, fill) {
                    (Some(r), _) => r.draw(s.range),
                    (None, Some(v)) => v.clamp(s.range.0, s.range.1),
                    // Asked for only if the run reads it.
                    (None, None) => {
                        let marks = if global {
                            self.fresh.get_mut()
                        } else {
                            self.fresh_entry.get_mut()
                        };
                        marks[off] = MISSING;
                        self.missing.insert((global, off), s.name);
                        continue;
                    }
                },
            };
            if global {
                self.globals[off] = value;
                self.fresh.get_mut()[off] = FRESH;
            } else {
                self.fresh_entry.get_mut()[off] = FRESH;
                frame.locals[off] = value;
            }
            used.push((s.name, value));
        }
        self.frames.push(frame);
        Ok(used)
    }

    fn choice(&mut self, node: NodeId, ty: IntType, slot: Option<(VarId, i64)>) -> Result<i64, Stop> {
        let range = ty.range();
        let index = self.choices_used.len();
        let given = match self.follow {
            Some(f) => Some(f.draw(&mut self.progress, node, range, slot).map_err(|w| {
                self.progress.rejected = Some((w, node));
                Stop::Rejected
            })?),
            None => self.cfg.choices.get(index).copied(),
        };
        let v = match given {
            Some(v) => v,
            None => match (&mut self.rng, self.cfg.fill) {
                (Some(r), _) => r.draw(range),
                (None, Some(v)) => v.clamp(range.0, range.1),
                (None, None) => return Err(Stop::Run(RunError::MissingChoice { node, index })),
            },
        };
        if v < range.0 || v > range.1 {
            return Err(Stop::Run(RunError::ChoiceOutOfRange {
                node,
                index,
                value: v,
                range,
            }));
        }
        if ty.is_float() {
            self.float_choices.push((index, ty));
        }
        self.choices_used.push(v);
        Ok(v)
    }

    fn frame(&self) -> &Frame {
        self.frames.last().expect("a frame while running")
    }

    /// The storage slot of element `index` of `v`, or a bounds error.
    fn slot(&self, v: VarId, index: i64, site: Option<SiteId>) -> Result<(bool, usize), Stop> {
        let var = self.p.var(v);
        let n = var.slots() as i64;
        if let Some(s) = site {
            self.record(|r| r.site(s, SiteSeen::Index(index, n)));
        }
        if index < 0 || index >= n {
            self.bad_index.set(Some(index));
            self.bad_var.set(Some(v));
            return Err(match site {
                Some(s) => Stop::Error(s),
                None => Stop::Overflow,
            });
        }
        let off = self.layout.offset[v.index()] as usize + index as usize;
        Ok((var.is_global_storage(), off))
    }

    fn read(&self, v: VarId, index: i64, site: Option<SiteId>) -> Result<i64, Stop> {
        let (global, off) = self.slot(v, index, site)?;
        let marks = if global { &self.fresh } else { &self.fresh_entry };
        if (global || self.frames.len() == 1) && marks.borrow().get(off) == Some(&MISSING) {
            return Err(Stop::Run(RunError::MissingInput {
                name: self.missing.get(&(global, off)).cloned().unwrap_or_default(),
                node: self.pc_node,
            }));
        }
        let loc = self.loc(global, off);
        self.record(|r| r.read(loc));
        Ok(if global {
            mark_read(&self.fresh, off);
            self.globals[off]
        } else {
            if self.frames.len() == 1 {
                mark_read(&self.fresh_entry, off);
            }
            self.frame().locals[off]
        })
    }

    fn eval(&self, e: &Expr) -> Result<i64, Stop> {
        Ok(match &e.kind {
            ExprKind::Const(c) => *c,
            ExprKind::Var(v) => self.read(*v, 0, None)?,
            ExprKind::Elem(v, i, site) => {
                let i = self.eval(i)?;
                self.read(*v, i, Some(*site))?
            }
            ExprKind::Neg(x) => self.eval(x)?.checked_neg().ok_or(Stop::Overflow)?,
            // `unsigned long long` values from 2^63 on do not fit the
            // interpreter's 64-bit signed values: not modelled.
            ExprKind::Conv(t, x) => {
                let v = self.eval(x)?;
                let to = i64::try_from(t.convert(v as i128)).map_err(|_| Stop::Overflow)?;
                if to != v && *t != crate::ir::IntType::Bool {
                    self.note_wrap(Wrap {
                        span: x.span,
                        from: v,
                        to,
                    });
                }
                to
            }
            ExprKind::Checked { value, ty, site } => {
                let v = self.eval(value)?;
                self.record(|r| r.site(*site, SiteSeen::Checked(v, *ty)));
                let (lo, hi) = ty.range();
                if !(lo..=hi).contains(&v) {
                    self.overflowed.set(Some((v, *ty)));
                    *self.failed_values.borrow_mut() = self.values_of(&[value]);
                    return Err(Stop::Error(*site));
                }
                v
            }
            ExprKind::Arith(op, a, b) => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                match op {
                    ArithOp::Add => a.checked_add(b),
                    ArithOp::Sub => a.checked_sub(b),
                    ArithOp::Mul => a.checked_mul(b),
                }
                .ok_or(Stop::Overflow)?
            }
            ExprKind::Bit {
                op,
                ty,
                a,
                b,
                site,
                strict,
            } => {
                let (a, b) = (self.eval(a)?, self.eval(b)?);
                if let Some(s) = site {
                    let seen = SiteSeen::Bit {
                        op: *op,
                        ty: *ty,
                        a,
                        b,
                        strict: *strict,
                    };
                    self.record(|r| r.site(*s, seen));
                }
                match op.apply(*ty, a as i128, b as i128, *strict) {
                    // `unsigned long long` values from 2^63 on: not modelled.
                    Some(v) => i64::try_from(v).map_err(|_| Stop::Overflow)?,
                    None => return Err(Stop::Error(site.expect("an undefined operation has a site"))),
                }
            }
            ExprKind::Float { op, ty, args, site } => {
                let vals = args.iter().map(|a| self.eval(a)).collect::<Result<Vec<i64>, Stop>>()?;
                let r = crate::ir::float::apply(*op, *ty, &vals);
                if let Some(s) = site {
                    self.record(|rec| rec.site(*s, SiteSeen::FloatToInt(r.is_ok())));
                    if r.is_err() {
                        return Err(Stop::Error(*s));
                    }
                }
                let v = r.unwrap_or_else(|v| v);
                // `unsigned long long` values from 2^63 on: not modelled.
                if *op == crate::ir::float::FloatOp::ToInt(IntType::ULongLong) && v < 0 {
                    return Err(Stop::Overflow);
                }
                v
            }
            ExprKind::Div { num, den, rem, site } => {
                let (a, b) = (self.eval(num)?, self.eval(den)?);
                self.record(|r| r.site(*site, SiteSeen::Div(b)));
                if b == 0 {
                    *self.failed_values.borrow_mut() = self.values_of(&[num, den]);
                    return Err(Stop::Error(*site));
                }
                if *rem { a.checked_rem(b) } else { a.checked_div(b) }.ok_or(Stop::Overflow)?
            }
        })
    }

    fn write(&mut self, place: &Place, value: i64) -> Result<(), Stop> {
        let (index, site) = match &place.index {
            Some((i, site)) => (self.eval(i)?, Some(*site)),
            None => (0, None),
        };
        self.write_slot(place.var, index, site, value)
    }

    /// Writes element `index` of `v` (0 for a scalar).
    fn write_slot(&mut self, v: VarId, index: i64, site: Option<SiteId>, value: i64) -> Result<(), Stop> {
        let (global, off) = self.slot(v, index, site)?;
        let loc = self.loc(global, off);
        self.record(|r| r.write(loc));
        if global {
            mark_written(self.fresh.get_mut(), off);
            self.globals[off] = value;
        } else {
            if self.frames.len() == 1 {
                mark_written(self.fresh_entry.get_mut(), off);
            }
            self.frames.last_mut().expect("a frame").locals[off] = value;
        }
        Ok(())
    }

    /// After `var` was written: the first watched condition that now holds.
    fn check_conditions(&self, var: VarId) -> Option<usize> {
        let proc = self.frame().proc;
        for (i, c) in self.cfg.conditions.iter().enumerate() {
            if self.cfg.watch.is_some_and(|w| w != i) {
                continue;
            }
            if !c.vars.contains(&var) || c.proc.is_some_and(|cp| cp != proc) {
                continue;
            }
            // The watch's own reads are not the program's.
            self.record(|r| r.on = false);
            let mut read = |v: VarId, k: i64| self.read(v, k, None).ok();
            let holds = c.expr.eval(&mut read) == Some(true);
            self.record(|r| r.on = true);
            if holds {
                return Some(i);
            }
        }
        None
    }

    fn exec(&mut self, trace: &mut Vec<Step>) -> Result<Outcome, Stop> {
        let p = self.p;
        let mut steps = 0u64;
        loop {
            steps += 1;
            if steps > self.cfg.max_steps {
                return Ok(Outcome::StepLimit);
            }
            let n = self.frame().pc;
            self.pc_node = n;
            let depth = self.frames.len() as u32 - 1;
            let act = self.frame().act;
            self.assumptions_at(n)?;
            self.record(|r| r.begin(trace.len(), act));
            if self.observe.contains(&n) && self.snapshots.len() < MAX_SNAPSHOTS {
                self.snapshots.push(Snapshot {
                    node: n,
                    depth,
                    locals: self.frame().locals.clone(),
                    globals: self.globals.clone(),
                });
            }
            let mut step = Step {
                node: n,
                outcome: None,
                value: None,
                depth,
            };
            let mut written = None;
            let next = match &p.node(n).kind {
                NodeKind::Assign { place, value, next } => {
                    let v = self.eval(value)?;
                    self.write(place, v)?;
                    step.value = Some(v);
                    written = Some(place.var);
                    *next
                }
                NodeKind::Havoc { place, ty, next } => {
                    let count = match (&place.index, p.var(place.var).len) {
                        (None, Some(len)) => len,
                        _ => 1,
                    };
                    // An uninitialised local's declaration draws its value.
                    let declared = place.index.is_none() && p.var(place.var).span == p.node(n).span;
                    for k in 0..count {
                        let v = self.choice(n, *ty, declared.then_some((place.var, k as i64)))?;
                        if count > 1 {
                            self.write_slot(place.var, k as i64, None, v)?;
                        } else {
                            self.write(place, v)?;
                        }
                        step.value = Some(v);
                    }
                    written = Some(place.var);
                    *next
                }
                NodeKind::Branch { cond, then_, else_ } => {
                    let b = match cond {
                        Cond::Atom(a) => a.op.holds(self.eval(&a.lhs)?, self.eval(&a.rhs)?),
                        Cond::Nondet => self.choice(n, IntType::Bool, None)? != 0,
                    };
                    if let (Some(f), Some(&value)) = (self.follow, p.cond_exits.get(&(n, b))) {
                        if let Err(w) = f.decided(&mut self.progress, p.node(n).unit, value) {
                            self.progress.rejected = Some((w, n));
                            return Err(Stop::Rejected);
                        }
                    }
                    step.outcome = Some(b);
                    if b {
                        *then_
                    } else {
                        *else_
                    }
                }
                NodeKind::Call {
                    callee,
                    args,
                    result,
                    next,
                } => {
                    let mut vals = Vec::with_capacity(args.len());
                    let mut arg_reads = Vec::with_capacity(args.len());
                    for a in args {
                        arg_reads.push(self.rec.as_ref().map_or(0, |r| r.borrow().mark()));
                        vals.push(self.eval(a)?);
                    }
                    let cp = p.proc(*callee);
                    let act = self.new_act();
                    self.record(|r| r.call(act, arg_reads));
                    let mut locals = vec![0; self.layout.frame_slots[callee.index()] as usize];
                    for (param, v) in cp.params.iter().zip(&vals) {
                        let off = self.layout.offset[param.index()] as usize;
                        locals[off] = *v;
                        self.record(|r| r.write(Loc::new(act, off)));
                    }
                    if !vals.is_empty() {
                        self.call_args.push((trace.len(), vals));
                    }
                    trace.push(step.clone());
                    // A recursive call of the entry draws its unset locals.
                    if *callee == p.entry {
                        for &l in &cp.locals {
                            if p.var(l).kind == VarKind::Local && p.var(l).init == VarInit::Input {
                                let off = self.layout.offset[l.index()] as usize;
                                for k in 0..p.var(l).slots() as usize {
                                    locals[off + k] = self.choice(n, p.var(l).ty, None)?;
                                    self.record(|r| r.write(Loc::new(act, off + k)));
                                }
                            }
                        }
                    }
                    self.frames.last_mut().expect("a frame").pc = *next;
                    self.frames.push(Frame {
                        proc: *callee,
                        act,
                        locals,
                        pc: cp.entry,
                        ret: Some((*next, result.clone())),
                    });
                    continue;
                }
                NodeKind::Return { value, next } => {
                    if let (Some(e), Some(rv)) = (value, p.proc(p.node(n).proc).ret_var) {
                        let v = self.eval(e)?;
                        let off = self.layout.offset[rv.index()] as usize;
                        let loc = self.loc(false, off);
                        self.record(|r| r.write(loc));
                        self.frames.last_mut().expect("a frame").locals[off] = v;
                        step.value = Some(v);
                    }
                    *next
                }
                NodeKind::Exit => {
                    trace.push(step);
                    let done = self.frames.pop().expect("a frame");
                    let rv = p
                        .proc(done.proc)
                        .ret_var
                        .map(|rv| done.locals[self.layout.offset[rv.index()] as usize]);
                    let Some((ret_to, result)) = done.ret else {
                        self.returned = rv;
                        return Ok(Outcome::Finished);
                    };
                    self.frames.last_mut().expect("a caller").pc = ret_to;
                    if let (Some(place), Some(v)) = (result, rv) {
                        let off = self.layout.offset[p.proc(done.proc).ret_var.expect("a result").index()] as usize;
                        self.record(|r| r.read(Loc::new(done.act, off)));
                        // The caller's call node is where the result lands.
                        self.pc_node = self.call_node_before(ret_to);
                        self.write(&place, v)?;
                        if let Some(i) = self.check_conditions(place.var) {
                            return Ok(Outcome::Condition {
                                index: i,
                                node: self.pc_node,
                            });
                        }
                    }
                    continue;
                }
                NodeKind::Error { site } => {
                    self.error_values = self.branch_values(trace.last());
                    trace.push(step);
                    return Ok(Outcome::Error {
                        site: *site,
                        node: n,
                        index: None,
                    });
                }
                NodeKind::Halt => {
                    trace.push(step);
                    return Ok(Outcome::Halted { node: n });
                }
                NodeKind::Skip { next } => *next,
            };
            trace.push(step);
            if let Some(v) = written {
                if let Some(i) = self.check_conditions(v) {
                    return Ok(Outcome::Condition { index: i, node: n });
                }
            }
            self.frames.last_mut().expect("a frame").pc = next;
        }
    }

    fn new_act(&mut self) -> u32 {
        self.next_act += 1;
        self.next_act - 1
    }

    fn record(&self, f: impl FnOnce(&mut Recorder)) {
        if let Some(r) = &self.rec {
            f(&mut r.borrow_mut());
        }
    }

    fn loc(&self, global: bool, off: usize) -> Loc {
        Loc::new(if global { 0 } else { self.frame().act }, off)
    }

    /// The call node whose continuation is `ret_to` (for error locations).
    fn call_node_before(&self, ret_to: NodeId) -> NodeId {
        let proc = self.frame().proc;
        self.p
            .node_ids()
            .find(|&m| {
                self.p.node(m).proc == proc
                    && matches!(&self.p.node(m).kind, NodeKind::Call { next, .. } if *next == ret_to)
            })
            .unwrap_or(ret_to)
    }
}
