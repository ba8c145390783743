//! Assumption sets (DESIGN §7): executing a focus-statement sequence alone,
//! exactly, gives the constraints its focus conditionals put on the inputs.
//! They are normalised (`y < x` and `x > y` are one constraint), bounds on
//! one linear form are merged (the tightest wins; where it came from first
//! is remembered), and shown in source terms.

use super::fss::{CallParts, EvKind, Event, Fss};
use crate::analysis::explore::Explored;
use crate::analysis::lp::LpOptions;
use crate::analysis::path::{CallFocus, Exec, Origin, PathError, PathStep};
use crate::analysis::refine::{self, Exact};
use crate::analysis::value::{AlphaDef, Cmp, Constraint, LinExpr, Sym};
use crate::ir::float::op_text as float_text;
use crate::ir::*;
use std::collections::BTreeMap;

/// Where an assumption comes from: a branch atom with its outcome (or the
/// index of an array access, or the error condition).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Source {
    /// Position of the event in the FSS.
    pub event: usize,
    pub node: NodeId,
    /// The outcome of a branch atom; `None` for other sources.
    pub outcome: Option<bool>,
}

/// One constraint of an FSS, with the atom it was read from.
#[derive(Clone, Debug)]
pub struct Raw {
    pub c: Constraint,
    pub source: Source,
    /// The atom's two sides at that point (to show the constraint the way
    /// the source wrote it).
    pub sides: Option<(LinExpr, LinExpr)>,
    /// The comparison as taken (negated for a false outcome).
    pub op: Option<RelOp>,
    /// It defines a conversion's result: kept for feasibility, not shown as
    /// an assumption.
    pub definition: bool,
}

/// How a merged assumption bounds its linear form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Bound {
    AtLeast(i64),
    AtMost(i64),
    Equal(i64),
    NotEqual(i64),
}

/// An assumption: a bound on a linear form over input symbols (first
/// coefficient positive), with every source that contributed, the first
/// (in FSS order) being the primary one.
#[derive(Clone, Debug)]
pub struct Assumption {
    pub terms: Vec<(Sym, i64)>,
    pub bound: Bound,
    pub sources: Vec<Source>,
    /// Shown in source terms, e.g. `gotlock == 1`.
    pub text: String,
}

impl Assumption {
    pub fn primary(&self) -> Source {
        self.sources[0]
    }

    /// As a constraint again.
    pub fn constraint(&self) -> Constraint {
        let form = LinExpr {
            c: 0,
            terms: self.terms.clone(),
        };
        let (e, cmp) = match self.bound {
            // form >= k  <=>  k - form <= 0
            Bound::AtLeast(k) => (
                form.scale(-1).and_then(|f| f.combine(1, &LinExpr::constant(k), 1)),
                Cmp::Le,
            ),
            Bound::AtMost(k) => (form.combine(1, &LinExpr::constant(k), -1), Cmp::Le),
            Bound::Equal(k) => (form.combine(1, &LinExpr::constant(k), -1), Cmp::Eq),
            Bound::NotEqual(k) => (form.combine(1, &LinExpr::constant(k), -1), Cmp::Ne),
        };
        Constraint {
            e: e.expect("assumption bounds come from constraints that fit"),
            cmp,
        }
    }

    /// Symbols the assumption is about.
    pub fn syms(&self) -> Vec<Sym> {
        self.terms.iter().map(|t| t.0).collect()
    }

    /// Do `self` and `other` contradict each other on the same form?
    pub fn contradicts(&self, other: &Assumption) -> bool {
        if self.terms != other.terms {
            return false;
        }
        let (lo1, hi1, ne1) = interval(self.bound);
        let (lo2, hi2, ne2) = interval(other.bound);
        let lo = lo1.max(lo2);
        let hi = hi1.min(hi2);
        if lo > hi {
            return true;
        }
        // An equality against a disequality on the same value.
        lo == hi && (ne1 == Some(lo) || ne2 == Some(lo))
    }

    /// Does this assumption decide the constraint `c` (make it always true
    /// or always false)?
    pub fn decides(&self, c: &Constraint) -> bool {
        let Some((terms, bound)) = as_bound(c) else {
            return false;
        };
        terms == self.terms && self.decides_bound(bound)
    }

    /// Does this assumption decide a bound on its own form?
    fn decides_bound(&self, bound: Bound) -> bool {
        let (lo, hi, ne) = interval(self.bound);
        match bound {
            Bound::AtLeast(k) => lo >= k || hi < k,
            Bound::AtMost(k) => hi <= k || lo > k,
            Bound::Equal(k) => (lo == k && hi == k) || k < lo || k > hi || ne == Some(k),
            Bound::NotEqual(k) => (lo == k && hi == k) || k < lo || k > hi || ne == Some(k),
        }
    }
}

/// Assumptions by their form: which decide a constraint, asked of many
/// constraints (a long FSS has many of both).
pub struct ByForm<'a>(std::collections::HashMap<&'a [(Sym, i64)], Vec<&'a Assumption>>);

impl<'a> ByForm<'a> {
    pub fn new(all: &'a [Assumption]) -> ByForm<'a> {
        let mut m: std::collections::HashMap<&'a [(Sym, i64)], Vec<&'a Assumption>> = Default::default();
        for a in all {
            m.entry(a.terms.as_slice()).or_default().push(a);
        }
        ByForm(m)
    }

    /// Some assumption decides `c` (`Assumption::decides`).
    pub fn decides(&self, c: &Constraint) -> bool {
        let Some((terms, bound)) = as_bound(c) else {
            return false;
        };
        self.0
            .get(terms.as_slice())
            .is_some_and(|v| v.iter().any(|a| a.decides_bound(bound)))
    }
}

/// A bound as an interval and an excluded value.
fn interval(b: Bound) -> (i64, i64, Option<i64>) {
    match b {
        Bound::AtLeast(k) => (k, i64::MAX, None),
        Bound::AtMost(k) => (i64::MIN, k, None),
        Bound::Equal(k) => (k, k, None),
        Bound::NotEqual(k) => (i64::MIN, i64::MAX, Some(k)),
    }
}

/// A normalised constraint as a bound on a form with a positive first
/// coefficient.
fn as_bound(c: &Constraint) -> Option<(Vec<(Sym, i64)>, Bound)> {
    let first = c.e.terms.first()?.1;
    let flip = first < 0;
    let terms: Vec<(Sym, i64)> = c.e.terms.iter().map(|&(s, k)| (s, if flip { -k } else { k })).collect();
    // c.e = sign * form + c0
    let c0 = c.e.c;
    Some(match (c.cmp, flip) {
        // form + c0 <= 0  <=>  form <= -c0
        (Cmp::Le, false) => (terms, Bound::AtMost(c0.checked_neg()?)),
        // -form + c0 <= 0  <=>  form >= c0
        (Cmp::Le, true) => (terms, Bound::AtLeast(c0)),
        (Cmp::Eq, false) => (terms, Bound::Equal(c0.checked_neg()?)),
        (Cmp::Eq, true) => (terms, Bound::Equal(c0)),
        (Cmp::Ne, false) => (terms, Bound::NotEqual(c0.checked_neg()?)),
        (Cmp::Ne, true) => (terms, Bound::NotEqual(c0)),
    })
}

/// What executing an FSS alone gives: its constraints, whether it met
/// values the analysis does not track exactly, and the ranges of its draws.
#[derive(Default)]
pub struct FssRun {
    pub raw: Vec<Raw>,
    pub has_alpha: bool,
    /// The abstraction symbols made, with the operations they stand for.
    pub alphas: Vec<(Sym, AlphaDef)>,
    /// An instance number above every symbol of the run.
    pub unused_instance: u32,
    pub draw_ranges: BTreeMap<Sym, (i64, i64)>,
}

/// A step that executes one statement of an FSS alone.
pub struct FocusStep {
    /// The event's position in the FSS.
    pub event: usize,
    pub step: PathStep,
    /// For a call: what of it the FSS keeps.
    pub call: Option<CallParts>,
}

/// The step of one event that is not a call's (`None` for `Param` and
/// `Result`, which have no step of their own).
/// Its `event` index is 0: the step stands alone.
pub fn focus_step(e: Explored, ev: Event) -> Option<FocusStep> {
    debug_assert!(ev.kind != EvKind::Call);
    (!matches!(ev.kind, EvKind::Param(_) | EvKind::Result)).then(|| FocusStep {
        event: 0,
        step: PathStep {
            node: ev.node,
            decisions: e.t.label(ev.label).0.clone(),
        },
        call: None,
    })
}

/// The steps that execute an FSS's statements alone.
pub fn focus_steps(e: Explored, fss: &Fss) -> Vec<FocusStep> {
    let parts = super::fss::call_parts(fss);
    fss.iter()
        .zip(parts)
        .enumerate()
        .filter(|(_, (ev, _))| !matches!(ev.kind, EvKind::Param(_) | EvKind::Result))
        .map(|(event, (ev, call))| FocusStep {
            event,
            step: PathStep {
                node: ev.node,
                decisions: e.t.label(ev.label).0.clone(),
            },
            call,
        })
        .collect()
}

impl FocusStep {
    /// Executes the step on `x`.
    pub fn run(&self, e: Explored, x: &mut Exec) -> Result<Option<SiteId>, PathError> {
        let focus = self.call.as_ref().map(|c| CallFocus {
            params: &c.params,
            result: c.result,
        });
        x.step_focus(&self.step, focus, e.cx.conds)
    }
}

/// The constraints of an FSS, executing its events alone.
pub fn fss_constraints(e: Explored, fss: &Fss) -> Result<FssRun, PathError> {
    fss_constraints_until(e, fss, None)
}

/// `fss_constraints`, given up past `deadline` (looked at every 65,536
/// statements; the FSS of a long run is as long as the run).
pub fn fss_constraints_until(
    e: Explored,
    fss: &Fss,
    deadline: Option<std::time::Instant>,
) -> Result<FssRun, PathError> {
    let p = e.cx.p;
    let mut x = Exec::sparse(p, &e.cx.layout).narrowing(e.narrowing());
    let mut out = Vec::new();
    let events = fss.to_vec();
    for (n, fs) in focus_steps(e, fss).into_iter().enumerate() {
        let (i, step) = (fs.event, &fs.step);
        if n % 65_536 == 0 && deadline.is_some_and(|d| std::time::Instant::now() > d) {
            return Err(PathError::Malformed(super::run_graph::TIME_LIMIT.into()));
        }
        let before = x.constraints.len();
        // A branch atom's two sides, read before the step (it changes nothing).
        let sides = match (&p.node(step.node).kind, events[i].kind) {
            (
                NodeKind::Branch {
                    cond: Cond::Atom(a), ..
                },
                EvKind::Branch(_),
            ) => {
                let l = x.value_of(step.node, &a.lhs);
                let r = x.value_of(step.node, &a.rhs);
                l.zip(r).map(|(l, r)| (l.lin(), r.lin(), a.op))
            }
            _ => None,
        };
        fs.run(e, &mut x)?;
        // By index: skipping an `im` vector's iterator walks from its start.
        for pc in (before..x.constraints.len()).map(|j| &x.constraints[j]) {
            let outcome = match pc.origin {
                Origin::Branch(b) => Some(b),
                _ => None,
            };
            out.push(Raw {
                c: pc.c.clone(),
                source: Source {
                    event: i,
                    node: pc.node,
                    outcome,
                },
                sides: sides.as_ref().map(|(l, r, _)| (l.clone(), r.clone())),
                op: sides
                    .as_ref()
                    .map(|(_, _, op)| if outcome == Some(false) { op.negate() } else { *op }),
                definition: pc.origin == Origin::Conversion,
            });
        }
    }
    let draw_ranges = x
        .choices
        .iter()
        .filter_map(|c| match c {
            crate::analysis::path::Choice::Draw(s, r) => Some((*s, *r)),
            crate::analysis::path::Choice::Branch(_) => None,
        })
        .collect();
    Ok(FssRun {
        raw: out,
        has_alpha: x.has_alpha,
        alphas: x.alphas.iter().cloned().collect(),
        unused_instance: x.unused_instance(),
        draw_ranges,
    })
}

/// Merges raw constraints into assumptions: one per bound on each form.
pub fn merge(p: &Program, names: &SymNames, raw: &[Raw]) -> Vec<Assumption> {
    #[derive(Default)]
    struct Acc {
        lo: Option<(i64, Vec<Source>)>,
        hi: Option<(i64, Vec<Source>)>,
        ne: BTreeMap<i64, Vec<Source>>,
        /// The first raw constraint on this form, for orientation.
        first: Option<usize>,
    }
    let mut forms: BTreeMap<Vec<(Sym, i64)>, Acc> = BTreeMap::new();
    let mut order: Vec<Vec<(Sym, i64)>> = Vec::new();
    for (i, r) in raw.iter().enumerate().filter(|(_, r)| !r.definition) {
        let Some((terms, bound)) = as_bound(&r.c) else { continue };
        if !forms.contains_key(&terms) {
            order.push(terms.clone());
        }
        let acc = forms.entry(terms).or_default();
        acc.first.get_or_insert(i);
        let src = r.source;
        let tighten = |slot: &mut Option<(i64, Vec<Source>)>, k: i64, better: fn(i64, i64) -> bool| match slot {
            Some((cur, srcs)) if *cur == k => srcs.push(src),
            Some((cur, srcs)) if better(k, *cur) => {
                srcs.push(src);
                *cur = k;
            }
            Some((_, srcs)) => srcs.push(src),
            None => *slot = Some((k, vec![src])),
        };
        match bound {
            Bound::AtLeast(k) => tighten(&mut acc.lo, k, |a, b| a > b),
            Bound::AtMost(k) => tighten(&mut acc.hi, k, |a, b| a < b),
            Bound::Equal(k) => {
                tighten(&mut acc.lo, k, |a, b| a > b);
                tighten(&mut acc.hi, k, |a, b| a < b);
            }
            Bound::NotEqual(k) => acc.ne.entry(k).or_default().push(src),
        }
    }
    let mut out = Vec::new();
    for terms in order {
        let acc = &forms[&terms];
        let first = &raw[acc.first.expect("a form has a first constraint")];
        let mut push = |bound: Bound, mut sources: Vec<Source>| {
            sources.sort();
            sources.dedup();
            let text = render(p, names, &terms, bound, first);
            out.push(Assumption {
                terms: terms.clone(),
                bound,
                sources,
                text,
            });
        };
        match (&acc.lo, &acc.hi) {
            (Some((lo, s1)), Some((hi, s2))) if lo == hi => {
                let mut s = s1.clone();
                s.extend(s2.iter().copied());
                push(Bound::Equal(*lo), s);
            }
            (lo, hi) => {
                if let Some((k, s)) = lo {
                    push(Bound::AtLeast(*k), s.clone());
                }
                if let Some((k, s)) = hi {
                    push(Bound::AtMost(*k), s.clone());
                }
            }
        }
        let lo = acc.lo.as_ref().map(|x| x.0).unwrap_or(i64::MIN);
        let hi = acc.hi.as_ref().map(|x| x.0).unwrap_or(i64::MAX);
        for (k, s) in &acc.ne {
            // A disequality the bounds already imply says nothing more.
            if (lo..=hi).contains(k) {
                push(Bound::NotEqual(*k), s.clone());
            }
        }
    }
    out.sort_by_key(|a| (a.primary(), a.text.clone()));
    out
}

/// Names for symbols in assumptions: inputs by name, draws by the variable
/// they were drawn into.
#[derive(Clone)]
pub struct SymNames {
    inputs: Vec<String>,
    draws: BTreeMap<NodeId, String>,
    /// Names for one run: abstraction symbols by the operation they stand
    /// for (`t / 3600`), draws of one statement by their order.
    ops: BTreeMap<Sym, String>,
    /// For one run: an abstraction symbol standing for the same operation
    /// on the same values as an earlier one, mapped to it (`y % 2` in every
    /// iteration of a loop is one value, so one assumption).
    same: BTreeMap<Sym, Sym>,
    /// For one run: abstraction symbols that stand for a floating
    /// comparison or classification (`x < 1.5`, `isnan(x)`: 1 or 0),
    /// shown as the condition itself.
    truths: BTreeMap<Sym, (crate::ir::float::FloatOp, IntType, Vec<String>)>,
}

impl SymNames {
    pub fn new(p: &Program) -> SymNames {
        let inputs = p.input_slots().into_iter().map(|s| s.name).collect();
        let mut draws = BTreeMap::new();
        let models = super::draw_names::model_nodes(p);
        for n in p.node_ids() {
            match &p.node(n).kind {
                NodeKind::Havoc { place, .. } => {
                    if let Some(name) = super::draw_names::model_draw(p, &models, n, place) {
                        draws.insert(n, name);
                        continue;
                    }
                    // A draw into a temporary (`if (nondet())`) is named by the call.
                    let var = show_place(p, place);
                    let var = if var.starts_with('$') {
                        "nondet()".to_string()
                    } else {
                        var
                    };
                    draws.insert(n, format!("{var}@{}", p.line(p.node(n).span)));
                }
                NodeKind::Call { .. } => {
                    draws.insert(n, format!("{}@{}", p.proc(p.node(n).proc).name, p.line(p.node(n).span)));
                }
                _ => {}
            }
        }
        SymNames {
            inputs,
            draws,
            ops: BTreeMap::new(),
            same: BTreeMap::new(),
            truths: BTreeMap::new(),
        }
    }

    /// These names for one run: two draws at one statement told apart
    /// (`g@14#1`, `g@14#2`, in the order drawn), and abstraction symbols
    /// named by their operations.
    pub fn for_run(&self, run: &FssRun) -> SymNames {
        let mut out = self.clone();
        let mut by_node: BTreeMap<NodeId, Vec<Sym>> = BTreeMap::new();
        for &s in run.draw_ranges.keys() {
            if let Sym::Draw(n, _) = s {
                by_node.entry(n).or_default().push(s);
            }
        }
        for (n, draws) in by_node.into_iter().filter(|(_, d)| d.len() > 1) {
            let base = out.draws.get(&n).cloned().unwrap_or_else(|| format!("nondet@{n}"));
            for (k, s) in draws.into_iter().enumerate() {
                out.ops.insert(s, format!("{base}#{}", k + 1));
            }
        }
        let mut first: std::collections::HashMap<AlphaDef, Sym> = std::collections::HashMap::new();
        for (s, def) in &run.alphas {
            if let Some(def) = out.same_def(def) {
                match first.get(&def) {
                    Some(&rep) => {
                        out.same.insert(*s, rep);
                    }
                    None => {
                        first.insert(def, *s);
                    }
                }
            }
        }
        for (s, def) in &run.alphas {
            let operand = |out: &SymNames, e: &LinExpr| {
                let text = show_lin(out, &e.terms, e.c);
                if text.contains(' ') {
                    format!("({text})")
                } else {
                    text
                }
            };
            let text = match def {
                AlphaDef::Mul(a, b) => format!("{} * {}", operand(&out, a), operand(&out, b)),
                AlphaDef::Div { num, den, rem } => {
                    let op = if *rem { "%" } else { "/" };
                    format!("{} {op} {}", operand(&out, num), operand(&out, den))
                }
                AlphaDef::Conv(a, t) => format!("({}){}", t.c_name(), operand(&out, a)),
                AlphaDef::Bit(op, _, a, b) => format!("{} {} {}", operand(&out, a), op.symbol(), operand(&out, b)),
                AlphaDef::Float(op, ty, args, _) => {
                    let xs: Vec<String> = args
                        .iter()
                        .map(|a| match (a.terms.is_empty(), float_operand(*op, *ty)) {
                            // A floating constant as C writes it, not its bits.
                            (true, Some(t)) => crate::ir::float::c_text(t, a.c),
                            _ => operand(&out, a),
                        })
                        .collect();
                    let text = float_text(*op, *ty, &xs);
                    if is_truth(*op) {
                        out.truths.insert(*s, (*op, *ty, xs));
                    }
                    text
                }
                AlphaDef::Quotient | AlphaDef::Opaque => continue,
            };
            out.ops.insert(*s, text);
        }
        out
    }

    /// An operation with its operands' abstraction symbols replaced by the
    /// first of their kind; `None` for the symbols that stand for no
    /// operation (each is its own value).
    fn same_def(&self, def: &AlphaDef) -> Option<AlphaDef> {
        let e = |e: &LinExpr| self.canonical(e);
        Some(match def {
            AlphaDef::Mul(a, b) => AlphaDef::Mul(e(a), e(b)),
            AlphaDef::Div { num, den, rem } => AlphaDef::Div {
                num: e(num),
                den: e(den),
                rem: *rem,
            },
            AlphaDef::Conv(a, t) => AlphaDef::Conv(e(a), *t),
            AlphaDef::Bit(op, t, a, b) => AlphaDef::Bit(*op, *t, e(a), e(b)),
            AlphaDef::Float(op, t, args, checked) => AlphaDef::Float(*op, *t, args.iter().map(e).collect(), *checked),
            AlphaDef::Quotient | AlphaDef::Opaque => return None,
        })
    }

    /// The constraints with equal operations on equal values as one symbol
    /// (so that an assumption decides the same test in a later iteration).
    pub fn canonical_raw(&self, raw: Vec<Raw>) -> Vec<Raw> {
        if self.same.is_empty() {
            return raw;
        }
        raw.into_iter()
            .map(|r| Raw {
                c: Constraint {
                    e: self.canonical(&r.c.e),
                    cmp: r.c.cmp,
                },
                sides: r.sides.as_ref().map(|(l, rt)| (self.canonical(l), self.canonical(rt))),
                ..r
            })
            .collect()
    }

    /// `e` with each abstraction symbol replaced by the first one standing
    /// for the same operation on the same values (unchanged on overflow).
    pub fn canonical(&self, e: &LinExpr) -> LinExpr {
        if !e.terms.iter().any(|(s, _)| self.same.contains_key(s)) {
            return e.clone();
        }
        let mut out = LinExpr::constant(e.c);
        for &(s, k) in &e.terms {
            let rep = self.same.get(&s).copied().unwrap_or(s);
            match out.combine(1, &LinExpr::sym(rep), k) {
                Some(next) => out = next,
                None => return e.clone(),
            }
        }
        out
    }

    pub fn name(&self, s: Sym) -> String {
        match s {
            Sym::Input(k) => self
                .inputs
                .get(k as usize)
                .cloned()
                .unwrap_or_else(|| format!("input{k}")),
            Sym::Draw(n, _) => self
                .ops
                .get(&s)
                .or_else(|| self.draws.get(&n))
                .cloned()
                .unwrap_or_else(|| format!("nondet@{n}")),
            Sym::Alpha(_, i) => self.ops.get(&s).cloned().unwrap_or_else(|| format!("α{i}")),
        }
    }
}

fn show_lin(names: &SymNames, terms: &[(Sym, i64)], c: i64) -> String {
    let mut out = String::new();
    for (i, &(s, k)) in terms.iter().enumerate() {
        let name = names.name(s);
        let (sign, mag) = if k < 0 { ("-", -k) } else { ("+", k) };
        if i == 0 {
            if sign == "-" {
                out.push('-');
            }
        } else {
            out.push_str(&format!(" {sign} "));
        }
        if mag != 1 {
            out.push_str(&format!("{mag}*"));
        }
        out.push_str(&name);
    }
    if terms.is_empty() {
        return c.to_string();
    }
    if c > 0 {
        out.push_str(&format!(" + {c}"));
    } else if c < 0 {
        out.push_str(&format!(" - {}", -c));
    }
    out
}

/// `form bound` in source terms: symbols on the side the atom had them,
/// constants on the right, strict where the atom was strict.
fn render(_p: &Program, names: &SymNames, terms: &[(Sym, i64)], bound: Bound, first: &Raw) -> String {
    if let Some(text) = truth_text(names, terms, bound) {
        return text;
    }
    // Which symbols the atom had on its right-hand side.
    let right_syms: Vec<Sym> = match &first.sides {
        Some((l, r)) => r.syms().filter(|s| !l.syms().any(|t| t == *s)).collect(),
        None => Vec::new(),
    };
    let strict = matches!(first.op, Some(RelOp::Lt | RelOp::Gt));
    // form op k, with form = left - right'.
    let mut left: Vec<(Sym, i64)> = Vec::new();
    let mut right: Vec<(Sym, i64)> = Vec::new();
    for &(s, k) in terms {
        if right_syms.contains(&s) {
            right.push((s, -k));
        } else {
            left.push((s, k));
        }
    }
    // left op right + k, where `right` holds the negated coefficients.
    let (mut op, mut k) = match bound {
        Bound::AtLeast(k) => (">=", k),
        Bound::AtMost(k) => ("<=", k),
        Bound::Equal(k) => ("==", k),
        Bound::NotEqual(k) => ("!=", k),
    };
    let mirror = |op: &'static str| match op {
        ">=" => "<=",
        "<=" => ">=",
        o => o,
    };
    // 0 op right + k  <=>  right op' -k
    if left.is_empty() {
        std::mem::swap(&mut left, &mut right);
        k = -k;
        op = mirror(op);
    }
    // A negative leading coefficient: multiply both sides by -1.
    if left[0].1 < 0 {
        for t in left.iter_mut().chain(right.iter_mut()) {
            t.1 = -t.1;
        }
        k = -k;
        op = mirror(op);
    }
    // Strict where it reads better: `x >= y + 1` is `x > y`.
    if (op == ">=" && (k == 1 || strict)) || (op == "<=" && (k == -1 || strict)) {
        if op == ">=" {
            op = ">";
            k -= 1;
        } else {
            op = "<";
            k += 1;
        }
    }
    format!("{} {op} {}", show_lin(names, &left, 0), show_lin(names, &right, k))
}

/// What feasibility says about an FSS.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Feasible {
    Yes,
    No,
    /// The solver could not decide (values beyond its range, ...).
    Unknown(String),
}

/// Is the FSS's constraint set satisfiable over the integers? With
/// `linear_only` (past the time limit), the linear solver alone answers.
pub fn feasible(e: Explored, run: &FssRun, linear_only: bool) -> Feasible {
    let cons: Vec<Constraint> = run.raw.iter().map(|r| r.c.clone()).collect();
    let range = |s: Sym| match s {
        Sym::Input(k) => e.cx.input_ranges[k as usize],
        Sym::Draw(..) => run.draw_ranges.get(&s).copied().unwrap_or((i64::MIN, i64::MAX)),
        Sym::Alpha(..) => (i64::MIN, i64::MAX),
    };
    let solve = if linear_only {
        refine::linear_model
    } else {
        refine::exact_model
    };
    match solve(&cons, &run.alphas, &range, run.unused_instance, LpOptions::default()) {
        Exact::Model(_) => Feasible::Yes,
        Exact::Infeasible => Feasible::No,
        Exact::Unknown(why) => Feasible::Unknown(why.to_string()),
    }
}

/// The events that show in views: no frame markers, no parameter passing.
pub fn visible(ev: &Event) -> bool {
    !matches!(ev.kind, EvKind::Leave)
}

/// The type of a floating operation's operands (`None`: an integer).
fn float_operand(op: crate::ir::float::FloatOp, ty: crate::ir::IntType) -> Option<crate::ir::IntType> {
    use crate::ir::float::FloatOp;
    match op {
        FloatOp::FromInt(_) | FloatOp::FromBits => None,
        FloatOp::Resize => Some(crate::ir::float::other(ty)),
        _ => Some(ty),
    }
}

fn is_truth(op: crate::ir::float::FloatOp) -> bool {
    use crate::ir::float::FloatOp;
    match op {
        FloatOp::Cmp(_) => true,
        FloatOp::Math(m) => m.is_predicate(),
        _ => false,
    }
}

/// A bound on a floating comparison's truth (1 or 0) as the comparison
/// (`x@14 >= -1.0f`) or its negation (`!(x@14 < 1.0f)`; `a != b` false is
/// `a == b` and back, exact with NaNs too), not a bound on an integer.
fn truth_text(names: &SymNames, terms: &[(Sym, i64)], bound: Bound) -> Option<String> {
    use crate::ir::float::FloatOp;
    let &[(s, k)] = terms else { return None };
    let (op, ty, xs) = names.truths.get(&s)?;
    let text = float_text(*op, *ty, xs);
    let holds = |v: i64| match bound {
        Bound::AtLeast(b) => k * v >= b,
        Bound::AtMost(b) => k * v <= b,
        Bound::Equal(b) => k * v == b,
        Bound::NotEqual(b) => k * v != b,
    };
    match (holds(1), holds(0)) {
        (true, false) => Some(text),
        (false, true) => Some(match op {
            FloatOp::Cmp(RelOp::Eq) => float_text(FloatOp::Cmp(RelOp::Ne), *ty, xs),
            FloatOp::Cmp(RelOp::Ne) => float_text(FloatOp::Cmp(RelOp::Eq), *ty, xs),
            _ => format!("!({text})"),
        }),
        _ => None,
    }
}
