//! Candidate loop invariants read off the explored states: what holds in
//! every state the Datalog engine reached at a loop's head, over the
//! scalars its procedure reads or writes. Per scalar `x`: its constant
//! value, or its bounds `lo <= x && x <= hi` over the states where every
//! state holds a constant, and `x % m == r` where the values differ by
//! multiples of `m` (`congruence`); per two scalars `x`, `y`: `x == k*y + c` (k in
//! `FACTORS`) where every state gives the same `c`, and `x - y`'s bounds
//! where every state's difference is a constant (`i <= n` when `n` is an
//! input and `i` counts up to it in the exact state space).
//!
//! Each loop's states are split too by the conditions its body tests
//! (`phases`), for invariants that change with a phase of the loop.
//!
//! They are candidates only: a widened exploration's states, or a budget
//! cut short, may miss runs, so the caller keeps those a proof confirms.

use super::explore::{explore, Explored};
use super::step::Options;
use super::value::{Constraint, LinExpr, Sym, Truth, Value};
use crate::context::Context;
use crate::ir::cond::BoolExpr;
use crate::ir::*;
use crate::syntax::source::Span;
use std::collections::{BTreeMap, BTreeSet};

/// The factors `k` of `x == k*y + c` tried for two scalars.
const FACTORS: [i64; 5] = [1, -1, 2, 3, 4];

/// At most this many scalars per loop are related pairwise.
const MAX_VARS: usize = 24;

/// At most this many of a loop's tests split its states into phases.
const MAX_SPLITS: usize = 4;

/// At most this many states per loop head are read (the first ones).
const MAX_ROWS: usize = 2_000;

/// At most this many candidates per loop.
const MAX_PER_LOOP: usize = 400;

/// The values of the loop's scalars, one row per state at its head.
type Rows = Vec<Vec<Value>>;

fn var(v: VarId, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Var(v),
        span,
    }
}

fn num(c: i64, span: Span) -> Expr {
    Expr {
        kind: ExprKind::Const(c),
        span,
    }
}

/// `k*y + c` as C writes it: `y`, `-y`, `2 * y`, then `+ c` or `- c`.
fn scaled(y: VarId, k: i64, c: i64, span: Span) -> Expr {
    let base = match k {
        1 => var(y, span),
        -1 => Expr {
            kind: ExprKind::Neg(Box::new(var(y, span))),
            span,
        },
        _ => Expr {
            kind: ExprKind::Arith(ArithOp::Mul, Box::new(num(k, span)), Box::new(var(y, span))),
            span,
        },
    };
    let (op, c) = if c < 0 { (ArithOp::Sub, -c) } else { (ArithOp::Add, c) };
    if c == 0 {
        return base;
    }
    Expr {
        kind: ExprKind::Arith(op, Box::new(base), Box::new(num(c, span))),
        span,
    }
}

fn atom(lhs: Expr, op: RelOp, rhs: Expr) -> BoolExpr {
    BoolExpr::Atom(Atom { lhs, op, rhs })
}

/// The constants `f` gives on every row, if it gives one on each.
fn constants(rows: &Rows, f: &dyn Fn(&[Value]) -> Option<LinExpr>) -> Option<Vec<i64>> {
    rows.iter()
        .map(|r| f(r).filter(LinExpr::is_const).map(|l| l.c))
        .collect()
}

/// The candidates of one loop from its head's rows over `vars`.
fn candidates(vars: &[VarId], rows: &Rows, span: Span) -> Vec<BoolExpr> {
    let mut out = Vec::new();
    let bounds = |out: &mut Vec<BoolExpr>, cs: &[i64], lhs: Expr, rhs: &dyn Fn(i64) -> Expr| {
        let (lo, hi) = (*cs.iter().min().unwrap(), *cs.iter().max().unwrap());
        if lo == hi {
            out.push(atom(lhs, RelOp::Eq, rhs(lo)));
        } else {
            out.push(atom(lhs.clone(), RelOp::Ge, rhs(lo)));
            out.push(atom(lhs, RelOp::Le, rhs(hi)));
        }
    };
    for (i, &x) in vars.iter().enumerate() {
        if let Some(cs) = constants(rows, &|r| Some(r[i].lin())) {
            bounds(&mut out, &cs, var(x, span), &|c| num(c, span));
            out.extend(congruence(x, &cs, span));
        }
    }
    for (i, &x) in vars.iter().enumerate() {
        for (j, &y) in vars.iter().enumerate() {
            // A relation is news only where `y` varies over the states.
            let varies = rows.iter().any(|r| r[j] != rows[0][j]);
            if i == j || !varies {
                continue;
            }
            // `x == y + c` and `x == -y + c` once per pair, `x == k*y + c`
            // both ways.
            for k in FACTORS.into_iter().filter(|&k| i < j || k.abs() != 1) {
                let diff = |r: &[Value]| r[i].lin().combine(1, &r[j].lin(), -k);
                let Some(cs) = constants(rows, &diff) else {
                    // The same expression of other, unchanged variables in
                    // every state (`x - y == i - j` of the inputs `i`, `j`).
                    let held = rows.iter().map(|r| diff(r)).collect::<Option<Vec<_>>>();
                    let held = held.filter(|h| h.iter().all(|l| *l == h[0]));
                    if let Some(rhs) = held.and_then(|h| anchored(vars, rows, &h[0], [x, y], span)) {
                        out.push(atom(
                            scaled_sum(Some(var(x, span)), -k, &var(y, span), span).unwrap(),
                            RelOp::Eq,
                            rhs,
                        ));
                    }
                    continue;
                };
                if k == 1 {
                    bounds(&mut out, &cs, var(x, span), &|c| scaled(y, 1, c, span));
                } else if cs.iter().all(|&c| c == cs[0]) {
                    out.push(atom(var(x, span), RelOp::Eq, scaled(y, k, cs[0], span)));
                }
            }
            if i != j && varies {
                out.extend(slopes((i, x), (j, y), rows, span));
            }
        }
    }
    out
}

/// At most this slope is stated (`x >= k*y + c`).
const MAX_SLOPE: i64 = 1 << 20;

/// `x >= k*y + c` and `x <= k*y + c` when every row gives `x` and `y`
/// constants and `y` takes two values or more: the lower bound's slope `k`
/// that of the least `x`s at `y`'s two least values, `c` the least `x -
/// k*y` of all rows (so it holds on every row), the upper bound's likewise
/// with the greatest `x`s (`k >= 2000 * i` of a `k` that goes up by 2000,
/// 4000 or 10000 per iteration of `i`). Slopes 0 and 1 (the constant
/// bounds and those of `x - y`), slopes past `MAX_SLOPE` and exact
/// equalities (the same `c` in every row) are left to `candidates`.
fn slopes((i, x): (usize, VarId), (j, y): (usize, VarId), rows: &Rows, span: Span) -> Vec<BoolExpr> {
    let Some(xs) = constants(rows, &|r| Some(r[i].lin())) else {
        return Vec::new();
    };
    let Some(ys) = constants(rows, &|r| Some(r[j].lin())) else {
        return Vec::new();
    };
    let mut at: BTreeMap<i64, (i64, i64)> = BTreeMap::new();
    for (&x, &y) in xs.iter().zip(&ys) {
        let e = at.entry(y).or_insert((x, x));
        *e = (e.0.min(x), e.1.max(x));
    }
    let mut levels = at.iter();
    let (Some((&y0, &(lo0, hi0))), Some((&y1, &(lo1, hi1)))) = (levels.next(), levels.next()) else {
        return Vec::new();
    };
    let dy = y1.checked_sub(y0).unwrap_or(0);
    let slope = |a: i64, b: i64| {
        let d = b.checked_sub(a)?;
        (dy != 0 && d % dy == 0).then_some(d / dy)
    };
    let mut out = Vec::new();
    for (k, op) in [(slope(lo0, lo1), RelOp::Ge), (slope(hi0, hi1), RelOp::Le)] {
        let Some(k) = k.filter(|k| !(0..=1).contains(k) && k.abs() <= MAX_SLOPE) else {
            continue;
        };
        let cs: Option<Vec<i64>> = (xs.iter().zip(&ys))
            .map(|(&x, &y)| x.checked_sub(k.checked_mul(y)?))
            .collect();
        let Some(cs) = cs else {
            continue;
        };
        let (lo, hi) = (*cs.iter().min().unwrap(), *cs.iter().max().unwrap());
        if lo == hi {
            continue;
        }
        let c = if op == RelOp::Ge { lo } else { hi };
        out.push(atom(var(x, span), op, scaled(y, k, c, span)));
    }
    out
}

/// At most this modulus is stated (`x % m == r`).
const MAX_MODULUS: i64 = 64;

/// `x % m == r` when `x`'s values `cs` (not all the same, none negative:
/// C's `%` takes the sign of `x`) are `r` more than multiples of their
/// differences' greatest common divisor `m` >= 2 (`x % 2 == 0` of an `x`
/// that goes up by 2).
fn congruence(x: VarId, cs: &[i64], span: Span) -> Option<BoolExpr> {
    fn gcd(a: i64, b: i64) -> i64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    if cs.iter().any(|&c| c < 0) {
        return None;
    }
    let m = cs.iter().fold(0, |g, &c| gcd(g, (c - cs[0]).abs()));
    if !(2..=MAX_MODULUS).contains(&m) {
        return None;
    }
    let rem = Expr {
        kind: ExprKind::Div {
            num: Box::new(var(x, span)),
            den: Box::new(num(m, span)),
            rem: true,
            // `m` is never zero: the site is never checked.
            site: SiteId(0),
        },
        span,
    };
    Some(atom(rem, RelOp::Eq, num(cs[0] % m, span)))
}

/// `l` as a sum over variables other than `not` that hold the same single
/// symbol in every state (an input, a value drawn before the loop).
fn anchored(vars: &[VarId], rows: &Rows, l: &LinExpr, not: [VarId; 2], span: Span) -> Option<Expr> {
    let holder = |s: Sym| {
        let one = LinExpr::sym(s);
        (vars.iter().enumerate()).find(|&(i, v)| !not.contains(v) && rows.iter().all(|r| r[i].lin() == one))
    };
    let mut sum = scaled_sum(None, l.c, &num(1, span), span);
    for &(s, k) in &l.terms {
        let (_, &z) = holder(s)?;
        sum = scaled_sum(sum, k, &var(z, span), span);
    }
    sum
}

/// `sum + k*e` as C writes it (`sum - 2 * e` for k = -2); `k*e` alone
/// without a sum; `e` a variable or 1.
fn scaled_sum(sum: Option<Expr>, k: i64, e: &Expr, span: Span) -> Option<Expr> {
    if k == 0 {
        return sum;
    }
    let term = |k: i64| match (&e.kind, k) {
        (ExprKind::Const(_), k) => num(k, span),
        (_, 1) => e.clone(),
        (_, -1) => Expr {
            kind: ExprKind::Neg(Box::new(e.clone())),
            span,
        },
        _ => Expr {
            kind: ExprKind::Arith(ArithOp::Mul, Box::new(num(k, span)), Box::new(e.clone())),
            span,
        },
    };
    Some(match sum {
        None => term(k),
        Some(s) => {
            let (op, k) = if k < 0 { (ArithOp::Sub, -k) } else { (ArithOp::Add, k) };
            Expr {
                kind: ExprKind::Arith(op, Box::new(s), Box::new(term(k))),
                span,
            }
        }
    })
}

/// The value of `e` on a row (`vars` its columns); conversions are read as
/// the identity (the candidates are checked later anyway).
fn value_of(e: &Expr, vars: &[VarId], row: &[Value]) -> Option<LinExpr> {
    match &e.kind {
        ExprKind::Const(c) => Some(LinExpr::constant(*c)),
        ExprKind::Var(v) => vars.iter().position(|x| x == v).map(|i| row[i].lin()),
        ExprKind::Conv(_, x) | ExprKind::Checked { value: x, .. } => value_of(x, vars, row),
        ExprKind::Neg(x) => value_of(x, vars, row)?.scale(-1),
        ExprKind::Arith(op, a, b) => {
            let (a, b) = (value_of(a, vars, row)?, value_of(b, vars, row)?);
            match op {
                ArithOp::Add => a.combine(1, &b, 1),
                ArithOp::Sub => a.combine(1, &b, -1),
                ArithOp::Mul if a.is_const() => b.scale(a.c),
                ArithOp::Mul if b.is_const() => a.scale(b.c),
                ArithOp::Mul => None,
            }
        }
        _ => None,
    }
}

/// The truth of `at` on each row, if it is known on each.
fn truths(at: &Atom, vars: &[VarId], rows: &Rows) -> Option<Vec<bool>> {
    rows.iter()
        .map(|r| {
            let (l, h) = (value_of(&at.lhs, vars, r)?, value_of(&at.rhs, vars, r)?);
            match Constraint::compare(&l, at.op, &h)? {
                Truth::Known(b) => Some(b),
                Truth::Depends(_) => None,
            }
        })
        .collect()
}

/// The candidates of a loop split by a condition it tests (phases: `x <
/// 50` keeps `y == 50`, then `y == x`): `!B || f` for each `f` of the
/// states where `B` holds, `B || g` for those where it does not.
fn phases(p: &Program, l: &crate::facts::analysis::Loop, vars: &[VarId], rows: &Rows) -> Vec<BoolExpr> {
    let span = p.node(l.head).span;
    let mut out = Vec::new();
    let tests = l.body.iter().filter_map(|&n| match &p.node(n).kind {
        NodeKind::Branch {
            cond: Cond::Atom(at), ..
        } => Some(at),
        _ => None,
    });
    for at in tests.take(MAX_SPLITS) {
        let Some(t) = truths(at, vars, rows) else {
            continue;
        };
        let part = |b: bool| -> Rows {
            rows.iter()
                .zip(&t)
                .filter(|(_, &x)| x == b)
                .map(|(r, _)| r.clone())
                .collect()
        };
        let (yes, no) = (part(true), part(false));
        if yes.is_empty() || no.is_empty() {
            continue;
        }
        let not_b = Atom {
            op: at.op.negate(),
            ..at.clone()
        };
        for (side, rows) in [(not_b, yes), (at.clone(), no)] {
            // Not the facts of the split's own variables (`x < 50 || x >= 50`).
            let own = |f: &BoolExpr| {
                let (mut mine, mut theirs) = (Vec::new(), Vec::new());
                if let BoolExpr::Atom(a) = f {
                    expr_vars(&a.lhs, &mut theirs);
                    expr_vars(&a.rhs, &mut theirs);
                }
                expr_vars(&side.lhs, &mut mine);
                expr_vars(&side.rhs, &mut mine);
                theirs.iter().all(|v| mine.contains(v))
            };
            for f in candidates(vars, &rows, span).into_iter().filter(|f| !own(f)) {
                out.push(BoolExpr::Or(Box::new(BoolExpr::Atom(side.clone())), Box::new(f)));
            }
        }
    }
    out
}

/// The scalars of `l`'s procedure and the global storage it reads or
/// writes, in the order of the program's variables.
fn scalars(p: &Program, a: &crate::facts::Analysis, proc: ProcId) -> Vec<VarId> {
    let globals = &a.proc_ref[proc.index()] | &a.proc_mod[proc.index()];
    (0..p.vars.len() as u32)
        .map(VarId)
        .filter(|&v| {
            let var = p.var(v);
            var.len.is_none() && (var.proc == Some(proc) && !var.is_static || globals.contains(&v))
        })
        .take(MAX_VARS)
        .collect()
}

/// Candidate invariants per loop head, from an exploration of at most
/// `max_states` states.
pub fn loop_head_facts(cx: &Context, max_states: u64) -> Vec<(NodeId, BoolExpr)> {
    if cx.a.loops.is_empty() {
        return Vec::new();
    }
    // Without widening: the states of the first iterations, all of them
    // reachable (a widened state's fresh symbols relate to nothing), even
    // when the budget cuts the exploration short.
    let opts = Options {
        max_states,
        exact_loops: true,
        stop_at_error: true,
        ..Options::default()
    };
    let ex = explore(cx, &opts, None);
    let explored = Explored {
        cx,
        frames: &ex.frames,
        t: &ex.t,
        summaries: opts.summaries,
        narrowed: ex.narrowed,
    };
    let heads: BTreeMap<NodeId, usize> = cx.a.loops.iter().enumerate().map(|(i, l)| (l.head, i)).collect();
    let mut at_head: BTreeMap<NodeId, BTreeSet<crate::analysis::state::ValId>> = BTreeMap::new();
    for &(_, n, v) in ex.graph.steps.keys() {
        if heads.contains_key(&n) {
            at_head.entry(n).or_default().insert(v);
        }
    }
    let mut out = Vec::new();
    for (head, vals) in at_head {
        let l = &cx.a.loops[heads[&head]];
        let vars = scalars(cx.p, cx.a, l.proc);
        let rows: Rows = vals
            .iter()
            .take(MAX_ROWS)
            .map(|&v| {
                let val = ex.t.val(v);
                vars.iter().map(|&x| explored.read(l.proc, &val, x, 0)).collect()
            })
            .collect();
        let span = cx.p.node(head).span;
        let mut all = candidates(&vars, &rows, span);
        all.extend(phases(cx.p, l, &vars, &rows));
        out.extend(all.into_iter().take(MAX_PER_LOOP).map(|e| (head, e)));
    }
    out
}
