//! Points-to (`rules/points_to.rs`, Ascent) on the lowered IR: the input
//! relations lowered from the program (`PointsToInput`, one documented
//! field each), and what the rules derive (`PointsTo`): where a run may go
//! and the constants each int variable may hold. The memory model made a
//! pointer's tag an int variable, so a tag variable's values are the
//! objects it may point to; `narrow.rs` cuts the arms of splits over
//! objects no run can take.
//!
//! Soundness: every write of the IR is lowered to exactly one of
//! `addr_of`, `copy`, `load`, `store` or `unknown` (anything not a
//! constant, a variable or an element, possibly converted, is `unknown`,
//! which makes the variable `top`), and every way a variable starts to
//! `init_value` or `init_top` as the interpreter starts it.

use super::*;
use ascent::ascent_run;

/// The conversions a copied value goes through, innermost first (at most
/// `MAX_CONVERSIONS`; a longer chain is an `unknown` write): C's
/// conversions are exact on a constant (`IntType::convert`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Convert([Option<IntType>; MAX_CONVERSIONS]);

pub const MAX_CONVERSIONS: usize = 3;

impl Convert {
    fn new(chain: &[IntType]) -> Option<Convert> {
        let mut c = Convert::default();
        for (i, t) in chain.iter().enumerate() {
            *c.0.get_mut(i)? = Some(*t);
        }
        Some(c)
    }

    /// The value `k` becomes; `None` when it leaves what an `i64` holds.
    pub fn apply(&self, k: i64) -> Option<i64> {
        let v = self.0.iter().flatten().fold(k as i128, |v, t| t.convert(v));
        i64::try_from(v).ok()
    }

    /// `(char)(unsigned)`, outermost first, as C writes the casts.
    pub fn show(&self) -> String {
        self.0
            .iter()
            .flatten()
            .rev()
            .map(|t| format!("({})", t.c_name()))
            .collect()
    }
}

/// Every input relation of the points-to rules (see `rules/points_to.rs`
/// for each one's meaning), lowered from the IR.
#[derive(Clone, Debug, Default)]
pub struct PointsToInput {
    /// `run_start(p)`: runs start at p.
    pub run_start: Vec<NodeId>,
    /// `flow_edge(p, q)`: every edge but a guarded branch outcome.
    pub flow_edge: Vec<(NodeId, NodeId)>,
    /// `guarded_edge(b, q, v, k)`: branch b goes to q only when v holds k
    /// (the then-edge of `v == k`, the else-edge of `v != k`, either order).
    pub guarded_edge: Vec<(NodeId, NodeId, VarId, i64)>,
    /// `call_entry(p, e)`: the call at p enters its callee at e.
    pub call_entry: Vec<(NodeId, NodeId)>,
    /// `addr_of(p, v, k)`: p writes the constant k to v.
    pub addr_of: Vec<(NodeId, VarId, i64)>,
    /// `copy(p, v, w, c)`: p writes scalar w, converted by c, to scalar v
    /// (assignments, parameters bound at a call, a call's result, `return`).
    pub copy: Vec<(NodeId, VarId, VarId, Convert)>,
    /// `load(p, v, a, c)`: p writes an element of array a to scalar v.
    pub load: Vec<(NodeId, VarId, VarId, Convert)>,
    /// `store(p, a, w, c)`: p writes w (a scalar, or an element of array
    /// w) to an element of array a.
    pub store: Vec<(NodeId, VarId, VarId, Convert)>,
    /// `unknown(p, v)`: every other write (arithmetic, a draw, ...).
    pub unknown: Vec<(NodeId, VarId)>,
    /// `init_value(v, k)`: v may hold k when its scope starts.
    pub init_value: Vec<(VarId, i64)>,
    /// `init_top(v)`: v starts as an input of the run.
    pub init_top: Vec<VarId>,
    /// `pointer_tag(v)`: v is a pointer's tag leaf (`pointers.rs`).
    pub pointer_tag: Vec<VarId>,
    /// `object_tag(k)`: k is an object's tag.
    pub object_tag: Vec<i64>,
}

/// Where a written value comes from.
enum Source {
    Const(i64),
    Var(VarId, Convert),
    Elem(VarId, Convert),
    Unknown,
}

fn source(e: &Expr) -> Source {
    fn go(e: &Expr, conv: &mut Vec<IntType>) -> Source {
        match &e.kind {
            ExprKind::Const(k) => Source::Const(*k),
            ExprKind::Neg(x) => match &x.kind {
                ExprKind::Const(k) => k.checked_neg().map_or(Source::Unknown, Source::Const),
                _ => Source::Unknown,
            },
            ExprKind::Var(v) => Source::Var(*v, Convert::default()),
            ExprKind::Elem(a, ..) => Source::Elem(*a, Convert::default()),
            // In range it is the value itself; out of range the run stops.
            ExprKind::Checked { value, .. } => go(value, conv),
            ExprKind::Conv(t, x) => {
                let inner = go(x, conv);
                conv.push(*t);
                inner
            }
            _ => Source::Unknown,
        }
    }
    let mut conv = Vec::new();
    let s = go(e, &mut conv);
    let Some(c) = Convert::new(&conv) else {
        return Source::Unknown;
    };
    match s {
        Source::Const(k) => c.apply(k).map_or(Source::Unknown, Source::Const),
        Source::Var(v, _) => Source::Var(v, c),
        Source::Elem(a, _) => Source::Elem(a, c),
        Source::Unknown => Source::Unknown,
    }
}

impl PointsToInput {
    pub fn new(p: &Program) -> PointsToInput {
        let mut f = PointsToInput {
            run_start: vec![p.proc(p.entry).entry],
            ..Default::default()
        };
        for id in p.node_ids() {
            match &p.node(id).kind {
                NodeKind::Branch { cond, then_, else_ } => {
                    let guard = match cond {
                        Cond::Atom(a) => guard(a),
                        Cond::Nondet => None,
                    };
                    for (outcome, to) in [(true, *then_), (false, *else_)] {
                        match guard {
                            Some((v, k, o)) if o == outcome => f.guarded_edge.push((id, to, v, k)),
                            _ => f.flow_edge.push((id, to)),
                        }
                    }
                }
                NodeKind::Assign { place, value, next } => {
                    f.write(id, place, source(value));
                    f.flow_edge.push((id, *next));
                }
                NodeKind::Havoc { place, next, .. } => {
                    f.unknown.push((id, place.var));
                    f.flow_edge.push((id, *next));
                }
                NodeKind::Call {
                    callee,
                    args,
                    result,
                    next,
                } => {
                    let c = p.proc(*callee);
                    f.call_entry.push((id, c.entry));
                    for (param, a) in c.params.iter().zip(args) {
                        f.write_var(id, *param, source(a));
                    }
                    if let Some(r) = result {
                        let s = c
                            .ret_var
                            .map_or(Source::Unknown, |rv| Source::Var(rv, Convert::default()));
                        f.write(id, r, s);
                    }
                    f.flow_edge.push((id, *next));
                }
                NodeKind::Return { value, next } => {
                    if let (Some(e), Some(rv)) = (value, p.proc(p.node(id).proc).ret_var) {
                        f.write_var(id, rv, source(e));
                    }
                    f.flow_edge.push((id, *next));
                }
                NodeKind::Skip { next } => f.flow_edge.push((id, *next)),
                NodeKind::Error { .. } | NodeKind::Halt | NodeKind::Exit => {}
            }
        }
        let entry_params: std::collections::HashSet<VarId> = p.proc(p.entry).params.iter().copied().collect();
        for (i, var) in p.vars.iter().enumerate() {
            let v = VarId(i as u32);
            match &var.init {
                _ if entry_params.contains(&v) => f.init_top.push(v),
                VarInit::Input => f.init_top.push(v),
                // Missing elements are 0, and so is a local's frame slot.
                VarInit::Values(vals) => {
                    let mut ks: Vec<i64> = vals.iter().copied().chain([0]).collect();
                    ks.sort();
                    ks.dedup();
                    f.init_value.extend(ks.into_iter().map(|k| (v, k)));
                }
                // The interpreter starts every other slot at 0.
                VarInit::Assigned => f.init_value.push((v, 0)),
            }
        }
        let mut tags: Vec<VarId> = pointers::pointer_leaves(p).into_keys().collect();
        tags.sort();
        f.pointer_tag = tags;
        f.object_tag = (1..=p.memory.objects.len() as i64).collect();
        f
    }

    /// `place = value` at p.
    fn write(&mut self, p: NodeId, place: &Place, s: Source) {
        if place.index.is_none() {
            return self.write_var(p, place.var, s);
        }
        let a = place.var;
        match s {
            Source::Const(k) => self.addr_of.push((p, a, k)),
            Source::Var(w, c) | Source::Elem(w, c) => self.store.push((p, a, w, c)),
            Source::Unknown => self.unknown.push((p, a)),
        }
    }

    /// `v = value` at p, v a scalar.
    fn write_var(&mut self, p: NodeId, v: VarId, s: Source) {
        match s {
            Source::Const(k) => self.addr_of.push((p, v, k)),
            Source::Var(w, c) => self.copy.push((p, v, w, c)),
            Source::Elem(a, c) => self.load.push((p, v, a, c)),
            Source::Unknown => self.unknown.push((p, v)),
        }
    }
}

/// The variable, constant and outcome an atom `v == k` or `v != k` (either
/// order) guards: the outcome that holds only when `v` is `k`.
fn guard(a: &Atom) -> Option<(VarId, i64, bool)> {
    let (v, k, op) = match (&a.lhs.kind, &a.rhs.kind) {
        (ExprKind::Var(v), ExprKind::Const(k)) => (*v, *k, a.op),
        (ExprKind::Const(k), ExprKind::Var(v)) => (*v, *k, a.op.flip()),
        _ => return None,
    };
    match op {
        RelOp::Eq => Some((v, k, true)),
        RelOp::Ne => Some((v, k, false)),
        _ => None,
    }
}

fn sorted<T: Ord>(mut v: Vec<T>) -> Vec<T> {
    v.sort();
    v
}

/// What the points-to rules derive, rows sorted.
#[derive(Clone, Debug, Default)]
pub struct PointsTo {
    pub live: Vec<NodeId>,
    pub live_edge: Vec<(NodeId, NodeId)>,
    pub value: Vec<(VarId, i64)>,
    pub top: Vec<VarId>,
    pub points_to: Vec<(VarId, i64)>,
}

impl PointsTo {
    // Ascent's rules name ignored columns `_`, which clippy takes for a
    // variable named by underscores only.
    #[allow(clippy::just_underscores_and_digits)]
    pub fn new(input: &PointsToInput) -> PointsTo {
        let res = include!("../../rules/points_to.rs");
        PointsTo {
            live: sorted(res.live.into_iter().map(|(p,)| p).collect()),
            live_edge: sorted(res.live_edge),
            value: sorted(res.value),
            top: sorted(res.top.into_iter().map(|(v,)| v).collect()),
            points_to: sorted(res.points_to),
        }
    }

    pub fn is_live(&self, p: NodeId) -> bool {
        self.live.binary_search(&p).is_ok()
    }

    pub fn is_live_edge(&self, p: NodeId, q: NodeId) -> bool {
        self.live_edge.binary_search(&(p, q)).is_ok()
    }
}
