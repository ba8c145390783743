//! Memory leaks as SV-COMP defines them, checked where `main` returns
//! (`--property valid-memsafety`, `valid-memtrack`, `valid-memcleanup`).
//!
//! - `memcleanup`: every allocated object is freed when `main` returns.
//! - `memtrack`: every live object is reachable when `main` returns: some
//!   chain of pointers from a global reaches it, through live heap objects
//!   (`main`'s locals end with it, as CBMC counts them). With a bounded
//!   pool per allocating call the reachable set is a fixpoint of at most as
//!   many rounds as there are heap objects, written out as statements
//!   over a flag per object (`malloc@11#2::(reached)`).
//!
//! A run ending at `exit` keeps `main`'s locals: under `memtrack` a live
//! object there is beyond the model (a `limit`, never a verdict); under
//! `memcleanup` it is a leak as at `main`'s end.

use super::expr::*;
use super::*;
use crate::syntax::ast::{BinOp, Expr, ExprKind, Ident, Stmt};

/// Called where a run ends with an object leaked: a `leak` error.
pub const LEAK: &str = "__focuscheck_leak";

/// Which leaks are errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaks {
    /// An object no pointer chain from a global reaches at `main`'s end.
    Track,
    /// An object not freed at `main`'s end.
    Cleanup,
}

/// Heap objects whose elements are followed when they hold pointers: past
/// this many, reachability is not modelled.
const FOLLOWED_ELEMS: i64 = 8;

/// The global saying some object is lost.
const LOST: &str = "(leak)::lost";

impl Mem {
    /// The allocated objects (not the entry's parameters' arrays): base,
    /// tag, elements. A stream `fopen` opened is not memory (as for CBMC
    /// and SV-COMP): one never closed is no leak.
    fn heap_instances(&self) -> Vec<(String, i64, i64)> {
        self.heap_sites
            .values()
            .filter(|s| !s.base.is_empty() && s.called != "fopen")
            .flat_map(|s| (1..=s.instances).map(move |k| (Self::instance(&s.base, k), s.cap)))
            .filter_map(|(b, cap)| self.objects.by_base(&b).map(|o| (b.clone(), o.tag, cap)))
            .collect()
    }

    /// The pointer tag leaves of `ty`: each leaf with an `.off` beside it.
    fn pointer_paths(&self, ty: &CType) -> Vec<(String, bool)> {
        let leaves = self.types.leaves(ty).unwrap_or_default();
        leaves
            .iter()
            .filter(|l| leaves.iter().any(|m| m.path == format!("{}.off", l.path)))
            .map(|l| (l.path.clone(), l.len.is_some()))
            .collect()
    }

    /// The checks where `main` returns (at `span`): one `leak` call, when
    /// some object is lost.
    pub(super) fn leak_checks(&mut self, span: Span) -> Vec<Stmt> {
        let Some(leaks) = self.leaks else {
            return vec![];
        };
        let objs = self.heap_instances();
        if objs.is_empty() {
            return vec![];
        }
        // Its branches are the model's, hidden in traces as an access's are.
        self.access(span);
        let live = |b: &str| live(b, span);
        let mut out = vec![];
        if leaks == Leaks::Track {
            let Some(reach) = self.reach(&objs, span) else {
                return vec![];
            };
            out = reach;
        }
        self.flag_global(LOST, span);
        for (b, _, _) in &objs {
            let lost = match leaks {
                Leaks::Cleanup => live(b),
                Leaks::Track => bin(
                    BinOp::And,
                    live(b),
                    bin(BinOp::Eq, var(&reached(b), span), int(0, span), span),
                    span,
                ),
            };
            out.push(if_(
                lost,
                vec![assign(var(LOST, span), int(1, span), span)],
                vec![],
                span,
            ));
        }
        let lost = bin(BinOp::Ne, var(LOST, span), int(0, span), span);
        out.push(if_(lost, vec![call(LEAK, vec![], span)], vec![], span));
        out
    }

    /// The checks where a run calls `exit` (at `span`).
    pub(super) fn exit_checks(&mut self, span: Span) -> Vec<Stmt> {
        match self.leaks {
            Some(Leaks::Cleanup) => self.leak_checks(span),
            Some(Leaks::Track) => self
                .heap_instances()
                .iter()
                .map(|(b, tag, _)| {
                    let live = live(b, span);
                    if_(
                        live,
                        vec![call(BEYOND_MODEL, vec![int(*tag, span)], span)],
                        vec![],
                        span,
                    )
                })
                .collect(),
            None => vec![],
        }
    }

    /// Statements setting `reached(o)` for every object `o` a chain of
    /// pointers from a global reaches; none (and an error) when the program
    /// keeps pointers where this does not follow them.
    fn reach(&mut self, objs: &[(String, i64, i64)], span: Span) -> Option<Vec<Stmt>> {
        for (b, _, _) in objs {
            self.flag_global(&reached(b), span);
        }
        let mut roots: Vec<(String, String, bool)> = self
            .globals
            .values()
            .map(|g| (g.out.clone(), g.ty.clone(), g.len.is_some()))
            .collect::<Vec<_>>()
            .into_iter()
            .flat_map(|(out, ty, array)| {
                self.pointer_paths(&ty)
                    .into_iter()
                    .map(move |(p, in_array)| (out.clone(), p, array || in_array))
            })
            .collect();
        roots.sort();
        if let Some((g, p, _)) = roots.iter().find(|r| r.2) {
            let msg = format!("memory leaks through the array of pointers `{g}{p}` are not modelled yet");
            self.unsupported(span, msg);
            return None;
        }
        let mut out = Vec::new();
        for (g, p, _) in &roots {
            out.extend(mark(var(&super::file_scope(&format!("{g}{p}")), span), objs, span));
        }
        // Each round follows one more step of every chain.
        let mut step = Vec::new();
        for (b, _, cap) in objs {
            let ty = self.objects.by_base(b).map(|o| o.ty.clone()).expect("an object");
            let paths = self.pointer_paths(&ty);
            if paths.is_empty() {
                continue;
            }
            if *cap > FOLLOWED_ELEMS || paths.iter().any(|p| p.1) {
                let msg = format!("memory leaks through heap arrays of pointers (`{b}`) are not modelled yet");
                self.unsupported(span, msg);
                return None;
            }
            let from = bin(
                BinOp::And,
                live(b, span),
                bin(BinOp::Ne, var(&reached(b), span), int(0, span), span),
                span,
            );
            let mut marks = Vec::new();
            for e in 0..*cap {
                for (p, _) in &paths {
                    let id = Ident {
                        name: super::file_scope(&format!("{b}{p}")),
                        span,
                    };
                    let elem = mk(ExprKind::Index(id, Box::new(int(e, span))), span);
                    marks.extend(mark(elem, objs, span));
                }
            }
            step.push(if_(from, marks, vec![], span));
        }
        for _ in 0..objs.len() {
            out.extend(step.iter().cloned());
        }
        Some(out)
    }
}

/// Heap object `base` is live (state 1; `>=` and `<=`: views read
/// `x == k` at an access as a case of a split over objects).
fn live(base: &str, span: Span) -> Expr {
    let state = || var(&Mem::heap_state(base), span);
    bin(
        BinOp::And,
        bin(BinOp::Ge, state(), int(1, span), span),
        bin(BinOp::Le, state(), int(1, span), span),
        span,
    )
}

/// The flag saying heap object `base` is reached.
fn reached(base: &str) -> String {
    format!("{base}::(reached)")
}

/// `if (t >= k && t <= k) reached(o) = 1;` for each object `o` of tag `k`
/// and a pointer's tag `t` (`>=` and `<=`: views read `t == k` at an access
/// as a case of a split over objects).
fn mark(t: Expr, objs: &[(String, i64, i64)], span: Span) -> Vec<Stmt> {
    objs.iter()
        .map(|(b, tag, _)| {
            let is = bin(
                BinOp::And,
                bin(BinOp::Ge, t.clone(), int(*tag, span), span),
                bin(BinOp::Le, t.clone(), int(*tag, span), span),
                span,
            );
            if_(
                is,
                vec![assign(var(&reached(b), span), int(1, span), span)],
                vec![],
                span,
            )
        })
        .collect()
}
