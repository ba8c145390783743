//! Doomed program points (seed 004, Hoenicke et al., "It's doomed; we can
//! prove it"): points through which no execution ends normally.
//!
//! Each procedure is analysed on its own, as the seed does: its parameters
//! and the globals are any values (the entry procedure starts from the
//! program's initial globals, unless something calls it), `nondet()` is any
//! value. Its graph is the VC engine's unfolding with `Loops::Copies` (each
//! loop's first, an arbitrary and its last pass; what the loop writes is
//! havocked around the arbitrary one and the Houdini-proven invariants are
//! assumed there) and calls inlined to a depth (deeper calls havoc their
//! result and the globals they write). Every run that ends normally has a
//! counterpart in that graph, so a point is only called doomed when it is
//! doomed in every copy (`evc.rs` asks Z3 per block). `assume` cuts a run;
//! `abort()`/`exit()` end it normally; Z3's `unknown` is "not doomed".
//!
//! Points are statements (the start of one, or a branch into another).
//! Those from which every path of the control-flow graph ends at an error
//! or a failed assumption (the failing branch of a check, the `ERROR:`
//! block of SV-COMP's `__VERIFIER_assert`) are the checks themselves, not
//! findings: they are not reported. Nor is the inside of a statement (the
//! false value of `1 <= j` in `__VERIFIER_assert(1 <= j)` is doomed, the
//! statement is not).

mod evc;
mod reach;

use crate::facts::Analysis;
use crate::ir::*;
use crate::vc::gc::{self, Origin};
use crate::vc::{passive, solve, Invariant, Loops};
use evc::{Evc, Status};
pub use reach::{passes, run_view, Witness};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::time::{Duration, Instant};

#[derive(Clone, Debug)]
pub struct Options {
    /// Calls are inlined this deep; deeper ones havoc their effects.
    pub inline_depth: u32,
    /// Per Z3 query (an undecided query means "not doomed").
    pub timeout: Option<Duration>,
    /// Give up on a procedure whose unfolding is larger.
    pub max_blocks: usize,
    /// Infer loop invariants (Houdini) to assume in the arbitrary copy.
    pub infer: bool,
    /// The extended EVC (a run from the procedure's start); `false` asks
    /// only whether some run from the point in any state ends normally
    /// (the seed's basic EVC, which misses PATHPROG).
    pub extended: bool,
    /// At most this many failing checks are named per doomed point.
    pub max_failures: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            inline_depth: crate::vc::INLINE_DEPTH,
            timeout: Some(Duration::from_secs(10)),
            max_blocks: 50_000,
            infer: true,
            extended: true,
            max_failures: 6,
        }
    }
}

/// How a run through a doomed point goes wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Failure {
    /// This check fails (the first one that does on the run).
    Site(SiteId),
    /// The run does not leave the loop at this head.
    Diverges(NodeId),
}

/// Doomed points that fail the same way (in one or more procedures).
#[derive(Clone, Debug)]
pub struct Region {
    /// `Origin::Node` and `Origin::Edge` points, sorted.
    pub points: Vec<Origin>,
    /// For each point, a concrete run of its procedure's view (the
    /// procedure as the entry, parameters and globals as inputs) that
    /// passes it.
    pub witnesses: Vec<(Origin, Witness)>,
    /// The points where runs enter the region (a procedure's entry when
    /// the whole procedure is doomed).
    pub entries: Vec<Origin>,
    /// How the runs through it fail.
    pub fails: Vec<Failure>,
    /// `fails` is every way they fail (not cut short by a bound or Z3).
    pub complete: bool,
}

/// What one procedure's analysis cost (the seed's Table 4).
#[derive(Clone, Debug)]
pub struct ProcStats {
    pub proc: ProcId,
    pub blocks: usize,
    pub queries: usize,
    /// Houdini (loop invariants).
    pub invariants: Duration,
    /// Unfolding, passive form and the formula.
    pub build: Duration,
    pub first_query: Option<Duration>,
    pub query_time: Duration,
    /// Queries Z3 could not decide.
    pub undecided: usize,
    /// Points doomed in every copy of the unfolding but passed by no
    /// concrete run found (left out: perhaps reached only in the loop's
    /// abstraction).
    pub abstract_only: usize,
}

#[derive(Clone, Debug, Default)]
pub struct Report {
    pub regions: Vec<Region>,
    /// Nodes no run reaches even when the checks are ignored (on lines
    /// where no point is reached), per procedure.
    pub unreachable: Vec<(ProcId, Vec<Origin>)>,
    /// Procedures not analysed, and why.
    pub skipped: Vec<(ProcId, String)>,
    pub stats: Vec<ProcStats>,
    /// The loop invariants Houdini proved (assumed in the arbitrary copies).
    pub invariants: Vec<Invariant>,
}

impl Report {
    pub fn queries(&self) -> usize {
        self.stats.iter().map(|s| s.queries).sum()
    }

    pub fn undecided(&self) -> usize {
        self.stats.iter().map(|s| s.undecided).sum()
    }
}

/// Every procedure's doomed points. `invariants`: the user's loop
/// invariants (used only where Houdini proves them).
pub fn analyse(p: &Program, invariants: &[Invariant], opts: &Options) -> Report {
    let views: Vec<(Cow<'_, Program>, Analysis)> = (0..p.procs.len() as u32)
        .map(|g| {
            let q = view(p, ProcId(g));
            let a = Analysis::new(&q);
            (q, a)
        })
        .collect();
    // Invariants, callees first: each is proven for its own procedure
    // called in any state, so it holds wherever that procedure is inlined.
    let mut proven: Vec<Invariant> = Vec::new();
    let mut inv_time = vec![Duration::ZERO; p.procs.len()];
    for g in callees_first(p) {
        let start = Instant::now();
        let (q, a) = &views[g.index()];
        let found = prove(q, a, g, invariants, &proven, opts);
        proven.extend(found);
        inv_time[g.index()] = start.elapsed();
    }
    let mut report = Report::default();
    let mut regions: BTreeMap<(Vec<Failure>, bool), Region> = BTreeMap::new();
    for (g, (q, a)) in views.iter().enumerate() {
        let g = ProcId(g as u32);
        match analyse_proc(q, a, g, &proven, opts) {
            Ok((found, dead, mut stats)) => {
                stats.invariants = inv_time[g.index()];
                for r in found {
                    let into = regions.entry((r.fails.clone(), r.complete)).or_insert_with(|| Region {
                        points: Vec::new(),
                        entries: Vec::new(),
                        witnesses: Vec::new(),
                        ..r.clone()
                    });
                    into.points.extend(r.points);
                    into.entries.extend(r.entries);
                    into.witnesses.extend(r.witnesses);
                }
                if !dead.is_empty() {
                    report.unreachable.push((g, dead));
                }
                report.stats.push(stats);
            }
            Err(why) => report.skipped.push((g, why)),
        }
    }
    report.regions = regions.into_values().collect();
    report.invariants = proven;
    report
}

/// Procedures in an order where callees come before their callers (a
/// recursive call is the exception).
fn callees_first(p: &Program) -> Vec<ProcId> {
    let mut callees: Vec<BTreeSet<ProcId>> = vec![BTreeSet::new(); p.procs.len()];
    for n in &p.nodes {
        if let NodeKind::Call { callee, .. } = &n.kind {
            callees[n.proc.index()].insert(*callee);
        }
    }
    let mut out = Vec::new();
    let mut seen = vec![false; p.procs.len()];
    for root in 0..p.procs.len() {
        if seen[root] {
            continue;
        }
        seen[root] = true;
        let mut stack = vec![(root, callees[root].iter().copied().collect::<Vec<_>>())];
        while let Some((g, todo)) = stack.last_mut() {
            match todo.pop() {
                Some(c) if !seen[c.index()] => {
                    seen[c.index()] = true;
                    stack.push((c.index(), callees[c.index()].iter().copied().collect()));
                }
                Some(_) => {}
                None => {
                    out.push(ProcId(*g as u32));
                    stack.pop();
                }
            }
        }
    }
    out
}

/// The invariants Houdini proves for the loops of `g` (in its view), with
/// those already proven for other procedures assumed.
fn prove(
    q: &Program,
    a: &Analysis,
    g: ProcId,
    user: &[Invariant],
    proven: &[Invariant],
    opts: &Options,
) -> Vec<Invariant> {
    let own: BTreeSet<NodeId> = a.loops.iter().filter(|l| l.proc == g).map(|l| l.head).collect();
    if own.is_empty() {
        return Vec::new();
    }
    let mut cands: Vec<Invariant> = (proven.iter())
        .map(|i| Invariant {
            user: true,
            ..i.clone()
        })
        .collect();
    // The user's invariants are candidates like the others.
    let mut mine: Vec<Invariant> = (user.iter())
        .map(|i| Invariant {
            user: false,
            ..i.clone()
        })
        .collect();
    if opts.infer {
        mine.extend(crate::vc::houdini::candidates(q, a));
        mine.extend(assignment_candidates(q, a));
    }
    cands.extend(mine.into_iter().filter(|i| own.contains(&i.head)));
    if cands.iter().all(|i| i.user) {
        return Vec::new();
    }
    let kept = solve::run(q, a, &[], &cands, &vc_options(opts, Loops::Havoc))
        .kept
        .unwrap_or_default();
    kept.into_iter()
        .filter(|&i| !cands[i].user)
        .map(|i| cands[i].clone())
        .collect()
}

/// The VC engine's options for doomed's two runs: Houdini (`Havoc`) and
/// the unfolding (`Copies`); every check, no warning wanted.
fn vc_options(opts: &Options, loops: Loops) -> crate::vc::Options {
    crate::vc::Options {
        loops,
        inline_depth: opts.inline_depth,
        max_warnings: 0,
        rlimit: Some(crate::vc::QUERY_RLIMIT),
        timeout: opts.timeout,
        property: crate::vc::Property::All,
        max_blocks: opts.max_blocks,
        infer: false,
        arrays: false,
        deadline: None,
        contracts: false,
    }
}

/// The program as `g` sees it when analysed on its own: `g` is the entry,
/// its parameters and global storage are any values (of their types, for
/// scalars).
pub fn view(p: &Program, g: ProcId) -> Cow<'_, Program> {
    let called = p
        .nodes
        .iter()
        .any(|n| matches!(&n.kind, NodeKind::Call { callee, .. } if *callee == g));
    if g == p.entry && !called {
        return Cow::Borrowed(p);
    }
    let mut q = p.clone();
    // Free parameters and globals: the whole program's narrowing does not hold.
    crate::ir::narrow::restore(&mut q);
    q.entry = g;
    let params: BTreeSet<VarId> = p.proc(g).params.iter().copied().collect();
    for (i, v) in q.vars.iter_mut().enumerate() {
        if v.is_global_storage() || params.contains(&VarId(i as u32)) {
            // Arrays get no range per element (cheaper; only more values).
            v.init = if v.len.is_some() {
                VarInit::Assigned
            } else {
                VarInit::Input
            };
        }
    }
    Cow::Owned(q)
}

/// A `Halt` where the run ends normally (`abort()`, `exit()`), not a failed
/// assumption.
fn ends_normally(p: &Program, n: NodeId) -> bool {
    matches!(p.node(n).kind, NodeKind::Halt) && p.unit(p.node(n).unit).kind != UnitKind::Check
}

/// Nodes from which every path ends at an error or a failed assumption,
/// through calls (a call of a procedure that always fails, like CIL's
/// `error()`, is forced). Least fixpoint: a cycle is not forced.
fn forced(p: &Program) -> HashSet<NodeId> {
    let mut out: HashSet<NodeId> = (p.node_ids())
        .filter(|&n| match p.node(n).kind {
            NodeKind::Error { .. } => true,
            NodeKind::Halt => !ends_normally(p, n),
            _ => false,
        })
        .collect();
    loop {
        let mut changed = false;
        for n in p.node_ids() {
            if out.contains(&n) {
                continue;
            }
            let succs = p.node(n).successors();
            let callee_fails = matches!(&p.node(n).kind,
                NodeKind::Call { callee, .. } if out.contains(&p.proc(*callee).entry));
            if callee_fails || (!succs.is_empty() && succs.iter().all(|s| out.contains(s))) {
                out.insert(n);
                changed = true;
            }
        }
        if !changed {
            return out;
        }
    }
}

/// The IR node a point is at (a branch for an edge).
pub fn point_node(o: Origin) -> Option<NodeId> {
    match o {
        Origin::Node(n) | Origin::Edge(n, _) => Some(n),
        Origin::None | Origin::LoopCut(_) => None,
    }
}

/// The points right before `o` in the control-flow graph.
fn point_preds(p: &Program, a: &Analysis, o: Origin) -> Vec<Origin> {
    match o {
        Origin::Node(n) => a.preds[n.index()]
            .iter()
            .flat_map(|&m| match &p.node(m).kind {
                NodeKind::Branch { then_, else_, .. } => {
                    let mut v = Vec::new();
                    if *then_ == n {
                        v.push(Origin::Edge(m, true));
                    }
                    if *else_ == n {
                        v.push(Origin::Edge(m, false));
                    }
                    v
                }
                _ => vec![Origin::Node(m)],
            })
            .collect(),
        Origin::Edge(m, _) => vec![Origin::Node(m)],
        Origin::None | Origin::LoopCut(_) => Vec::new(),
    }
}

type ProcOut = (Vec<Region>, Vec<Origin>, ProcStats);

fn analyse_proc(
    q: &Program,
    a: &Analysis,
    g: ProcId,
    invariants: &[Invariant],
    opts: &Options,
) -> Result<ProcOut, String> {
    let start = Instant::now();
    let gc = gc::build(q, a, &[], invariants, &vc_options(opts, Loops::Copies));
    if gc.too_big {
        return Err(format!(
            "its unfolding exceeds {} blocks (loops and inlined calls)",
            opts.max_blocks
        ));
    }
    let pv = passive::passify_unfolded(q, &gc);
    let halts = |b: usize| matches!(gc.blocks[b].origin, Origin::Node(n) if ends_normally(q, n));
    let mut evc = Evc::new(q, &gc, &pv, opts.timeout, &halts);
    let build = start.elapsed();

    // The copies of each point of `g` (other procedures' points are
    // reported from their own analysis).
    let forced_nodes = forced(q);
    // Only statements are reported: the start of one, or a branch into
    // another (not the inside of a condition or of an argument).
    let proc_entry = q.proc(g).entry;
    let statement = |o: Origin| match o {
        Origin::Node(n) => {
            let u = q.node(n).unit;
            n == proc_entry || a.preds[n.index()].iter().all(|m| q.node(*m).unit != u)
        }
        Origin::Edge(n, outcome) => match &q.node(n).kind {
            NodeKind::Branch { then_, else_, .. } => {
                q.node(if outcome { *then_ } else { *else_ }).unit != q.node(n).unit
            }
            _ => false,
        },
        Origin::None | Origin::LoopCut(_) => false,
    };
    let is_forced = |o: Origin| match o {
        Origin::Node(n) => forced_nodes.contains(&n),
        Origin::Edge(n, outcome) => match &q.node(n).kind {
            NodeKind::Branch { then_, else_, .. } => forced_nodes.contains(if outcome { then_ } else { else_ }),
            _ => false,
        },
        _ => true,
    };
    let mut copies: BTreeMap<Origin, Vec<usize>> = BTreeMap::new();
    for &b in &pv.order {
        let o = gc.blocks[b].origin;
        if point_node(o).is_some_and(|n| q.node(n).proc == g) {
            copies.entry(o).or_default().push(b);
        }
    }
    let mut wanted = vec![false; pv.blocks.len()];
    for (o, bs) in &copies {
        if statement(*o) && !is_forced(*o) {
            for &b in bs {
                wanted[b] = true;
            }
        }
    }
    // Exorcise: successors first, so that a block whose one successor is
    // doomed needs no query.
    let mut status = vec![Status::Open; pv.blocks.len()];
    for &b in pv.order.iter().rev() {
        if status[b] != Status::Open {
            continue;
        }
        let succs = &pv.blocks[b].succs;
        if succs.len() == 1 && status[succs[0].0] == Status::Doomed {
            status[b] = Status::Doomed;
        } else if wanted[b] {
            evc.query(b, opts.extended, &mut status);
        }
    }
    let mut doomed: BTreeMap<Origin, Vec<usize>> = BTreeMap::new();
    let mut dead = Vec::new();
    for (o, bs) in &copies {
        if !statement(*o) || is_forced(*o) || !bs.iter().all(|&b| status[b] == Status::Doomed) {
            continue;
        }
        if evc.dead(bs) {
            dead.push(*o);
        } else {
            doomed.insert(*o, bs.clone());
        }
    }
    // Doomed in every copy is not enough: a concrete run must pass the
    // point (the copies over-approximate the loops).
    // A point no run of the unfolding reaches with its checks holding (it
    // comes only after a check that always fails) has no concrete run
    // either: only the others are searched for one.
    let points: Vec<Origin> = (doomed.iter())
        .filter(|(_, bs)| evc.reach(bs).is_some())
        .map(|(o, _)| *o)
        .collect();
    let halts_in = |g: &gc::Gc, b: usize| matches!(g.blocks[b].origin, Origin::Node(n) if ends_normally(q, n));
    let witnesses = reach::witnesses(q, &points, opts, &halts_in);
    let abstract_only = doomed.len() - witnesses.len();
    doomed.retain(|o, _| witnesses.contains_key(o));
    // Dead code is shown by line: a node is listed when every point on its
    // line is dead.
    let all_dead: BTreeSet<Origin> = dead.iter().copied().collect();
    let line = |o: &Origin| point_node(*o).map(|n| q.line(q.node(n).span));
    let live_lines: BTreeSet<Option<u32>> = copies
        .keys()
        .filter(|o| !is_forced(**o) && !all_dead.contains(o))
        .map(line)
        .collect();
    dead.retain(|o| matches!(o, Origin::Node(_)) && !live_lines.contains(&line(o)));
    // Regions: points that fail the same way.
    let mut by_fails: BTreeMap<(Vec<Failure>, bool), Vec<Origin>> = BTreeMap::new();
    for (o, live) in &doomed {
        let (mut fails, complete) = evc.failures(live, opts.max_failures);
        fails.sort();
        // No run through it fails: every run that gets there failed
        // earlier or is cut off by an assumption. Not a finding.
        if !fails.is_empty() {
            by_fails.entry((fails, complete)).or_default().push(*o);
        }
    }
    let regions = by_fails
        .into_iter()
        .map(|((fails, complete), points)| {
            let inside: BTreeSet<Origin> = points.iter().copied().collect();
            let outside_run = |o: &Origin| !inside.contains(o) && copies.contains_key(o) && !all_dead.contains(o);
            // The statements right before a point (through the inside of
            // statements).
            let statement_preds = |o: Origin| {
                let mut out = Vec::new();
                let mut seen = BTreeSet::new();
                let mut work = point_preds(q, a, o);
                while let Some(x) = work.pop() {
                    if !seen.insert(x) {
                        continue;
                    }
                    if statement(x) {
                        out.push(x);
                    } else {
                        work.extend(point_preds(q, a, x));
                    }
                }
                out
            };
            let mut entries: Vec<Origin> = points
                .iter()
                .copied()
                .filter(|&o| o == Origin::Node(proc_entry) || statement_preds(o).iter().any(outside_run))
                .collect();
            if entries.is_empty() {
                entries.push(points[0]);
            }
            let witnesses = points.iter().map(|o| (*o, witnesses[o].clone())).collect();
            Region {
                points,
                witnesses,
                entries,
                fails,
                complete,
            }
        })
        .collect();
    let stats = ProcStats {
        proc: g,
        blocks: pv.order.len(),
        queries: evc.queries,
        invariants: Duration::ZERO,
        build,
        first_query: evc.first_query,
        query_time: evc.query_time,
        undecided: evc.unknown,
        abstract_only,
    };
    Ok((regions, dead, stats))
}

/// Is the expression free of array accesses and divisions (it cannot fail)
/// and of `v`?
fn plain_without(e: &Expr, v: VarId) -> bool {
    match &e.kind {
        ExprKind::Const(_) => true,
        ExprKind::Var(x) => *x != v,
        ExprKind::Neg(x) | ExprKind::Conv(_, x) => plain_without(x, v),
        ExprKind::Arith(_, x, y) => plain_without(x, v) && plain_without(y, v),
        ExprKind::Bit { a, b, site: None, .. } => plain_without(a, v) && plain_without(b, v),
        ExprKind::Elem(..)
        | ExprKind::Div { .. }
        | ExprKind::Checked { .. }
        | ExprKind::Bit { .. }
        | ExprKind::Float { .. } => false,
    }
}

/// More Houdini candidates, for the arbitrary copy of a loop: `v >= e` and
/// `v <= e` for every assignment `v = e` in the loop's procedure to a
/// scalar the loop writes (`j = 1` gives `j >= 1`, `i = x - 1` gives
/// `i <= x - 1`). Houdini keeps the inductive ones.
fn assignment_candidates(p: &Program, a: &Analysis) -> Vec<Invariant> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    for l in a.loops.iter().filter(|l| a.reachable_procs.contains(&l.proc)) {
        let in_scope = |v: &VarId| {
            let var = p.var(*v);
            var.len.is_none() && (var.proc == Some(l.proc) || var.is_global_storage())
        };
        for &n in &a.proc_nodes[l.proc.index()] {
            let NodeKind::Assign { place, value, .. } = &p.node(n).kind else {
                continue;
            };
            if place.index.is_some() || !l.modifies.contains(&place.var) || !in_scope(&place.var) {
                continue;
            }
            let mut vars = Vec::new();
            expr_vars(value, &mut vars);
            if !plain_without(value, place.var) || !vars.iter().all(in_scope) {
                continue;
            }
            for op in [RelOp::Ge, RelOp::Le] {
                let atom = Atom {
                    lhs: Expr {
                        kind: ExprKind::Var(place.var),
                        span: place.span,
                    },
                    op,
                    rhs: value.clone(),
                };
                let text = show_atom(p, &atom);
                if seen.insert((l.head, text.clone())) {
                    out.push(Invariant {
                        head: l.head,
                        expr: crate::ir::cond::BoolExpr::Atom(atom),
                        text,
                        user: false,
                        entry: false,
                        visited: None,
                    });
                }
            }
        }
    }
    out
}
