//! Abduction (seed 003, §4): weakest minimum proof obligations and failure
//! witnesses. A minimum satisfying assignment is searched by enumerating
//! variable sets by cost (the seed cites Mistral; our models are small);
//! the weakest formula over a set is `∀ rest. F` with the quantifier
//! eliminated by Z3 (`qe2`, falling back to `qe`); it is then simplified
//! with respect to what is known (I).

use std::collections::BTreeSet;
use std::time::{Duration, Instant};
use z3::ast::{forall_const, Ast, Bool, Dynamic, Int};
use z3::{Goal, SatResult, Solver, Tactic};

/// Z3, with a time limit per call.
pub struct Z3 {
    /// One solver, its assertions pushed and popped per query.
    solver: Solver,
    pub timeout: Duration,
    /// Calls of quantifier elimination so far.
    pub qe_calls: usize,
    /// Eliminations that `qe2` could not do and `qe` did.
    pub qe_fallbacks: usize,
    pub qe_time: Duration,
    pub sat_calls: std::cell::Cell<usize>,
    pub sat_time: std::cell::Cell<Duration>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sat {
    Sat,
    Unsat,
    Unknown,
}

impl Z3 {
    pub fn new(timeout: Duration) -> Z3 {
        let solver = Solver::new();
        // Bounded by resources; the time only as a guard.
        crate::vc::solve::set_limits(&solver, Some(crate::vc::QUERY_RLIMIT), Some(timeout));
        Z3 {
            solver,
            timeout,
            qe_calls: 0,
            qe_fallbacks: 0,
            qe_time: Duration::ZERO,
            sat_calls: Default::default(),
            sat_time: Default::default(),
        }
    }

    pub fn sat(&self, fs: &[Bool]) -> Sat {
        let t0 = Instant::now();
        let r = self.sat_inner(fs);
        self.sat_calls.set(self.sat_calls.get() + 1);
        self.sat_time.set(self.sat_time.get() + t0.elapsed());
        r
    }

    fn sat_inner(&self, fs: &[Bool]) -> Sat {
        let s = &self.solver;
        s.push();
        for f in fs {
            s.assert(f);
        }
        let r = match s.check() {
            SatResult::Sat => Sat::Sat,
            SatResult::Unsat => Sat::Unsat,
            SatResult::Unknown => Sat::Unknown,
        };
        s.pop(1);
        r
    }

    /// `fs` together imply `goal` (false when Z3 cannot tell).
    pub fn implies(&self, fs: &[Bool], goal: &Bool) -> bool {
        let mut all = fs.to_vec();
        all.push(goal.not());
        self.sat(&all) == Sat::Unsat
    }

    /// `∀ elim. body` without quantifiers, or `None` when Z3 cannot.
    pub fn forall(&mut self, elim: &[Int], body: &Bool) -> Option<Bool> {
        if elim.is_empty() {
            return Some(body.simplify());
        }
        let start = Instant::now();
        self.qe_calls += 1;
        let bounds: Vec<&dyn Ast> = elim.iter().map(|x| x as &dyn Ast).collect();
        // ∀x.F is ¬∃x.¬F; qe2 works on either, and both tactics keep
        // the result equivalent.
        let q = forall_const(&bounds, &[], body);
        let mut out = self.eliminate("qe2", &q);
        if out.is_none() {
            out = self.eliminate("qe", &q);
            if out.is_some() {
                self.qe_fallbacks += 1;
            }
        }
        self.qe_time += start.elapsed();
        out
    }

    fn eliminate(&self, tactic: &str, q: &Bool) -> Option<Bool> {
        if !has_tactic(tactic) {
            return None;
        }
        let goal = Goal::new(false, false, false);
        goal.assert(q);
        // One elimination is one candidate among many: a short limit.
        let t = Tactic::new(tactic).try_for(self.timeout.min(Duration::from_secs(3)));
        let result = t.apply(&goal, None).ok()?;
        let mut disj = Vec::new();
        for g in result.list_subgoals() {
            let fs = g.get_formulas();
            if fs.iter().any(has_quantifier) {
                return None;
            }
            disj.push(Bool::and(&fs));
        }
        Some(Bool::or(&disj).simplify())
    }
}

/// The operator of a term by its name (`and`, `<=`, `+`, `ite`, ...; ""
/// for a numeral or a quantifier). Names, unlike Z3's operator kinds, do
/// not change between Z3 versions.
pub fn op(e: &dyn Ast) -> String {
    if e.kind() != z3::AstKind::App {
        return String::new();
    }
    e.safe_decl().map(|d| d.name()).unwrap_or_default()
}

/// The model variable `v<i>` (i < n) that `e` is, if it is one.
pub fn var_index(e: &dyn Ast, n: usize) -> Option<usize> {
    if e.kind() != z3::AstKind::App || e.num_children() != 0 {
        return None;
    }
    let i: usize = op(e).strip_prefix('v')?.parse().ok()?;
    (i < n).then_some(i)
}

fn has_tactic(name: &str) -> bool {
    thread_local! {
        static NAMES: Vec<String> = Tactic::list_all().into_iter().filter_map(|r| r.ok()).collect();
    }
    NAMES.with(|n| n.iter().any(|t| t == name))
}

fn has_quantifier(b: &Bool) -> bool {
    fn walk(e: &Dynamic) -> bool {
        match e.kind() {
            z3::AstKind::Quantifier => true,
            z3::AstKind::App => e.children().iter().any(walk),
            _ => false,
        }
    }
    walk(&Dynamic::from_ast(b))
}

/// A formula in negation normal form over literals.
#[derive(Clone, Debug)]
enum Nf {
    And(Vec<Nf>),
    Or(Vec<Nf>),
    Lit(Bool),
}

/// Negation normal form: `!` only on literals (comparisons are flipped).
fn nnf(b: &Bool, neg: bool) -> Nf {
    if b.kind() != z3::AstKind::App {
        return Nf::Lit(if neg { b.not() } else { b.clone() });
    }
    let kids: Vec<Bool> = b.children().iter().filter_map(|k| k.as_bool()).collect();
    let kind = op(b);
    let kind = kind.as_str();
    let all = |neg: bool| kids.iter().map(|k| nnf(k, neg)).collect::<Vec<_>>();
    match kind {
        "true" | "false" => {
            let v = (kind == "true") != neg;
            if v {
                Nf::And(Vec::new())
            } else {
                Nf::Or(Vec::new())
            }
        }
        "and" if !neg => Nf::And(all(false)),
        "and" => Nf::Or(all(true)),
        "or" if !neg => Nf::Or(all(false)),
        "or" => Nf::And(all(true)),
        "not" if kids.len() == 1 => nnf(&kids[0], !neg),
        "=>" if kids.len() == 2 => {
            let (a, c) = (nnf(&kids[0], true), nnf(&kids[1], false));
            if neg {
                Nf::And(vec![nnf(&kids[0], false), nnf(&kids[1], true)])
            } else {
                Nf::Or(vec![a, c])
            }
        }
        "=" | "iff" if kids.len() == 2 => {
            // Between formulas: (a && b) || (!a && !b), or its negation.
            let (a, b2) = (&kids[0], &kids[1]);
            let same = Nf::Or(vec![
                Nf::And(vec![nnf(a, false), nnf(b2, false)]),
                Nf::And(vec![nnf(a, true), nnf(b2, true)]),
            ]);
            let differ = Nf::Or(vec![
                Nf::And(vec![nnf(a, false), nnf(b2, true)]),
                Nf::And(vec![nnf(a, true), nnf(b2, false)]),
            ]);
            if neg {
                differ
            } else {
                same
            }
        }
        "ite" if kids.len() == 3 => {
            let (c, t, e) = (&kids[0], &kids[1], &kids[2]);
            Nf::Or(vec![
                Nf::And(vec![nnf(c, false), nnf(t, neg)]),
                Nf::And(vec![nnf(c, true), nnf(e, neg)]),
            ])
        }
        _ => Nf::Lit(if neg { negate_atom(b) } else { b.clone() }),
    }
}

/// `!(a <= b)` is `a > b`, and so on (over the integers); others keep `!`.
fn negate_atom(b: &Bool) -> Bool {
    let kids = b.children();
    if kids.len() == 2 {
        if let (Some(x), Some(y)) = (kids[0].as_int(), kids[1].as_int()) {
            match op(b).as_str() {
                "<=" => return x.gt(&y),
                "<" => return x.ge(&y),
                ">=" => return x.lt(&y),
                ">" => return x.le(&y),
                _ => {}
            }
        }
    }
    b.not()
}

/// At most this many clauses (cubes) in a normal form; a bigger formula is
/// kept as one fact.
const MAX_CLAUSES: usize = 64;

/// Conjunctive (`cnf`) or disjunctive normal form: a list of lists of
/// literals. `None` when it would be too big.
pub fn normal_form(b: &Bool, cnf: bool) -> Option<Vec<Vec<Bool>>> {
    fn go(n: &Nf, cnf: bool) -> Option<Vec<Vec<Bool>>> {
        // In CNF, And concatenates and Or distributes; in DNF the reverse.
        let (cat, dist) = match (n, cnf) {
            (Nf::Lit(l), _) => return Some(vec![vec![l.clone()]]),
            (Nf::And(xs), true) | (Nf::Or(xs), false) => (Some(xs), None),
            (Nf::Or(xs), true) | (Nf::And(xs), false) => (None, Some(xs)),
        };
        if let Some(xs) = cat {
            let mut out = Vec::new();
            for x in xs {
                out.extend(go(x, cnf)?);
                if out.len() > MAX_CLAUSES {
                    return None;
                }
            }
            return Some(out);
        }
        let mut acc: Vec<Vec<Bool>> = vec![Vec::new()];
        for x in dist.expect("one of the two") {
            let part = go(x, cnf)?;
            let mut next = Vec::new();
            for a in &acc {
                for c in &part {
                    let mut m = a.clone();
                    m.extend(c.iter().cloned());
                    next.push(m);
                }
            }
            if next.len() > MAX_CLAUSES {
                return None;
            }
            acc = next;
        }
        Some(acc)
    }
    let mut out = go(&nnf(&b.simplify(), false), cnf)?;
    for c in &mut out {
        dedup(c);
    }
    Some(out)
}

fn dedup(xs: &mut Vec<Bool>) {
    let mut out: Vec<Bool> = Vec::new();
    for x in xs.drain(..) {
        if !out.contains(&x) {
            out.push(x);
        }
    }
    *xs = out;
}

/// Simplifies clauses (`cnf`) or cubes (`!cnf`) with respect to `ctx`: the
/// result is equivalent to the input wherever `ctx` holds.
pub fn simplify_under(z3: &Z3, parts: Vec<Vec<Bool>>, ctx: &Bool, cnf: bool) -> Vec<Vec<Bool>> {
    let join = |c: &[Bool]| if cnf { Bool::or(c) } else { Bool::and(c) };
    let mut kept: Vec<Vec<Bool>> = Vec::new();
    for mut c in parts {
        // A literal is dropped when the rest of its clause (cube) means the
        // same under ctx.
        let mut i = 0;
        while i < c.len() && c.len() > 1 {
            let rest: Vec<Bool> = c
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, l)| l.clone())
                .collect();
            let redundant = if cnf {
                z3.sat(&[ctx.clone(), c[i].clone(), join(&rest).not()]) == Sat::Unsat
            } else {
                z3.sat(&[ctx.clone(), Bool::and(&rest), c[i].not()]) == Sat::Unsat
            };
            if redundant {
                c.remove(i);
            } else {
                i += 1;
            }
        }
        // A clause ctx implies, a cube ctx excludes, says nothing.
        let useless = if cnf {
            z3.implies(std::slice::from_ref(ctx), &join(&c))
        } else {
            z3.sat(&[ctx.clone(), join(&c)]) == Sat::Unsat
        };
        if !useless {
            kept.push(c);
        }
    }
    // A clause implied by the others (a cube implying another) goes.
    let mut i = kept.len();
    while i > 0 && kept.len() > 1 {
        i -= 1;
        let others: Vec<Bool> = kept
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .map(|(_, c)| join(c))
            .collect();
        let redundant = if cnf {
            let mut fs = vec![ctx.clone()];
            fs.extend(others);
            z3.implies(&fs, &join(&kept[i]))
        } else {
            z3.implies(&[ctx.clone(), join(&kept[i])], &Bool::or(&others))
        };
        if redundant {
            kept.remove(i);
        }
    }
    kept
}

/// Pairs of literals that together say `x == y` become that equality.
fn equalities(z3: &Z3, mut lits: Vec<Bool>) -> Vec<Bool> {
    let mut out = Vec::new();
    while let Some(l) = lits.first().cloned() {
        lits.remove(0);
        let kids = l.children();
        // `a <= b`, `a < b`, `a > b`: the equality is a = b, a + 1 = b or
        // a = b + 1.
        let eqs: Vec<Bool> = match (
            kids.first().and_then(|k| k.as_int()),
            kids.get(1).and_then(|k| k.as_int()),
        ) {
            (Some(x), Some(y)) if kids.len() == 2 => {
                let one = Int::from_i64(1);
                vec![
                    x.eq(&y),
                    Int::add(&[x.clone(), one.clone()]).eq(&y),
                    x.eq(Int::add(&[y.clone(), one])),
                ]
            }
            _ => Vec::new(),
        };
        let found = lits.iter().enumerate().find_map(|(i, m)| {
            let both = Bool::and(&[l.clone(), m.clone()]);
            eqs.iter()
                .find(|eq| z3.implies(std::slice::from_ref(&both), eq) && z3.implies(std::slice::from_ref(eq), &both))
                .map(|eq| (i, eq.simplify()))
        });
        match found {
            Some((i, eq)) => {
                lits.remove(i);
                out.push(eq);
            }
            None => out.push(l),
        }
    }
    out
}

/// Which way an abduction goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Aim {
    /// A proof obligation Γ: α cost 1, ν cost N.
    Discharge,
    /// A failure witness Υ: ν cost 1, α cost N.
    Validate,
}

/// A weakest minimum abduction: its variables, formula (clauses for Γ,
/// cubes for Υ, simplified under I) and cost.
#[derive(Clone, Debug)]
pub struct Abduction {
    pub vars: Vec<usize>,
    pub parts: Vec<Vec<Bool>>,
    pub cost: u64,
}

impl Abduction {
    pub fn formula(&self, goal: Aim) -> Bool {
        let join = |c: &[Bool]| {
            if goal == Aim::Discharge {
                Bool::or(c)
            } else {
                Bool::and(c)
            }
        };
        let parts: Vec<Bool> = self.parts.iter().map(|c| join(c)).collect();
        if goal == Aim::Discharge {
            Bool::and(&parts)
        } else {
            Bool::or(&parts)
        }
    }
}

/// What an abduction needs to know about the model.
pub struct Vars<'a> {
    /// The Z3 constant of each model variable.
    pub z3: &'a [Int],
    /// Inputs ν (otherwise abstraction variables α).
    pub input: &'a [bool],
    /// The variables of I and φ.
    pub used: &'a [usize],
    /// Where a question about a variable is asked: a loop variable's value
    /// is read where its loop is left (or its head reached).
    pub at: &'a [Option<Bool>],
}

impl Vars<'_> {
    /// Where a fact over `set` is read: its loops reached or left.
    fn place(&self, set: &[usize]) -> Bool {
        let mut fs: Vec<Bool> = set.iter().filter_map(|&v| self.at.get(v).cloned().flatten()).collect();
        fs.dedup();
        Bool::and(&fs)
    }
}

impl Vars<'_> {
    /// Cost of a variable (Definitions 2 and 9; N = number of variables).
    pub fn cost(&self, v: usize, goal: Aim) -> u64 {
        let n = self.used.len().max(1) as u64;
        match (goal, self.input[v]) {
            (Aim::Discharge, false) | (Aim::Validate, true) => 1,
            _ => n,
        }
    }

    pub fn cost_of(&self, vars: &[usize], goal: Aim) -> u64 {
        vars.iter().map(|&v| self.cost(v, goal)).sum()
    }
}

/// The model variables (`v<i>`, i < n) occurring in `b`.
pub fn vars_of(b: &Bool, n: usize) -> Vec<usize> {
    fn walk(e: &Dynamic, n: usize, out: &mut BTreeSet<usize>, seen: &mut crate::ir::fixed_hash::FixedSet<Dynamic>) {
        if !e.is_app() || !seen.insert(e.clone()) {
            return;
        }
        if let Some(i) = var_index(e, n) {
            out.insert(i);
        }
        for k in e.children() {
            walk(&k, n, out, seen);
        }
    }
    let mut out = BTreeSet::new();
    walk(&Dynamic::from_ast(b), n, &mut out, &mut Default::default());
    out.into_iter().collect()
}

/// `f` with the variables outside `keep` renamed apart (a copy of them).
fn rename_apart(f: &Bool, keep: &[usize], vars: &Vars, tag: usize) -> Bool {
    let mut pairs: Vec<(Int, Int)> = Vec::new();
    for &v in vars.used {
        if !keep.contains(&v) {
            pairs.push((vars.z3[v].clone(), Int::new_const(format!("r{tag}_{v}"))));
        }
    }
    let refs: Vec<(&Int, &Int)> = pairs.iter().map(|(a, b)| (a, b)).collect();
    f.substitute(&refs)
}

/// Limits of the search for a minimum satisfying assignment.
pub struct Search {
    /// Quantifier eliminations tried in cost order before the greedy search.
    pub exact_budget: usize,
    /// Only sets of at most this cost (a cheaper query of the other kind
    /// is already known).
    pub max_cost: Option<u64>,
}

/// A weakest minimum abduction for `target` (`I ⇒ φ` or `I ⇒ ¬φ`): the
/// cheapest variable set S with `∀ rest. target` satisfiable together with
/// each formula of `consistent` (each on its own copy of the other
/// variables), whose simplified formula `accept` takes. Among sets of the
/// same cost, one whose formula no other's strictly implies; ties go to the
/// first in a fixed order.
#[allow(clippy::too_many_arguments)]
pub fn abduce(
    z3: &mut Z3,
    vars: &Vars,
    goal: Aim,
    target: &Bool,
    known: &Bool,
    consistent: &[Bool],
    accept: &mut dyn FnMut(&Abduction) -> bool,
    search: &Search,
) -> Option<Abduction> {
    let mut universe: Vec<usize> = vars.used.to_vec();
    universe.sort();
    let (cheap, dear): (Vec<usize>, Vec<usize>) = universe.iter().partition(|&&v| vars.cost(v, goal) == 1);
    let mut tried = 0usize;
    // Sets in cost order: by the number of dear variables, then of cheap
    // ones (a dear one costs more than all cheap ones together).
    for nd in 0..=dear.len() {
        for nc in 0..=cheap.len() {
            if nd + nc == 0 {
                continue;
            }
            let n = vars.used.len().max(1) as u64;
            if search.max_cost.is_some_and(|m| nd as u64 * n + nc as u64 > m) {
                return None;
            }
            let mut level: Vec<Abduction> = Vec::new();
            for ds in combinations(&dear, nd) {
                for cs in combinations(&cheap, nc) {
                    if tried >= search.exact_budget {
                        return greedy(z3, vars, goal, target, known, consistent, accept)
                            .filter(|a| search.max_cost.is_none_or(|m| a.cost <= m));
                    }
                    tried += 1;
                    let mut set = ds.clone();
                    set.extend(cs.iter().copied());
                    set.sort();
                    if let Some(a) = candidate(z3, vars, goal, target, known, consistent, &set) {
                        if accept(&a) {
                            level.push(a);
                        }
                    }
                }
            }
            if let Some(a) = weakest(z3, goal, known, level) {
                return Some(a);
            }
        }
    }
    None
}

/// One variable set: its weakest formula, if consistent and not trivial.
fn candidate(
    z3: &mut Z3,
    vars: &Vars,
    goal: Aim,
    target: &Bool,
    known: &Bool,
    consistent: &[Bool],
    set: &[usize],
) -> Option<Abduction> {
    let elim: Vec<Int> = vars
        .used
        .iter()
        .filter(|v| !set.contains(v))
        .map(|&v| vars.z3[v].clone())
        .collect();
    let g = z3.forall(&elim, target)?;
    // Consistent with each formula (on its own copy of the rest), at the
    // place where it is asked (after the loop, a loop's exit test holds).
    let place = vars.place(set);
    let mut fs = vec![g.clone()];
    for (i, c) in consistent.iter().enumerate() {
        fs.push(rename_apart(&Bool::and(&[c.clone(), place.clone()]), set, vars, i));
    }
    if z3.sat(&fs) != Sat::Sat {
        return None;
    }
    let cnf = goal == Aim::Discharge;
    let parts = normal_form(&g, cnf).unwrap_or_else(|| vec![vec![g.clone()]]);
    // Simplified where it is asked, if it still does its job there;
    // otherwise with respect to I alone.
    let here = Bool::and(&[known.clone(), place]);
    let mut parts = simplify_under(z3, parts.clone(), &here, cnf);
    let join = |c: &[Bool]| if cnf { Bool::or(c) } else { Bool::and(c) };
    let f: Vec<Bool> = parts.iter().map(|c| join(c)).collect();
    let f = if cnf { Bool::and(&f) } else { Bool::or(&f) };
    if !z3.implies(&[f], target) {
        parts = simplify_under(
            z3,
            normal_form(&g, cnf).unwrap_or_else(|| vec![vec![g.clone()]]),
            known,
            cnf,
        );
    }
    if cnf {
        // `x <= c` and `x >= c` as clauses of their own are one fact.
        let units: Vec<Bool> = parts.iter().filter(|c| c.len() == 1).map(|c| c[0].clone()).collect();
        let merged = equalities(z3, units);
        parts.retain(|c| c.len() != 1);
        parts.splice(0..0, merged.into_iter().map(|l| vec![l]));
    } else {
        for c in &mut parts {
            *c = equalities(z3, std::mem::take(c));
        }
    }
    if parts.is_empty() {
        // Trivially true under I: nothing to ask.
        return None;
    }
    let a = Abduction {
        vars: Vec::new(),
        parts,
        cost: 0,
    };
    let f = a.formula(goal);
    let vs = vars_of(&f, vars.z3.len());
    let cost = vars.cost_of(&vs, goal);
    Some(Abduction { vars: vs, cost, ..a })
}

/// The first candidate that no other strictly implies... read the other
/// way: none is strictly weaker than it.
fn weakest(z3: &Z3, goal: Aim, known: &Bool, level: Vec<Abduction>) -> Option<Abduction> {
    if level.len() <= 1 {
        return level.into_iter().next();
    }
    let fs: Vec<Bool> = level.iter().map(|a| a.formula(goal)).collect();
    let k = std::slice::from_ref(known);
    for i in 0..level.len() {
        let dominated = (0..level.len()).any(|j| {
            j != i && {
                let mut ctx = k.to_vec();
                ctx.push(fs[i].clone());
                z3.implies(&ctx, &fs[j]) && {
                    let mut back = k.to_vec();
                    back.push(fs[j].clone());
                    !z3.implies(&back, &fs[i])
                }
            }
        });
        if !dominated {
            return level.into_iter().nth(i);
        }
    }
    level.into_iter().next()
}

/// Past the budget: start from every variable and drop the dearest ones
/// while a consistent formula remains (a minimal set, not a minimum one).
fn greedy(
    z3: &mut Z3,
    vars: &Vars,
    goal: Aim,
    target: &Bool,
    known: &Bool,
    consistent: &[Bool],
    accept: &mut dyn FnMut(&Abduction) -> bool,
) -> Option<Abduction> {
    let mut set: Vec<usize> = vars.used.to_vec();
    let mut best = candidate(z3, vars, goal, target, known, consistent, &set).filter(|a| accept(a))?;
    let mut order = set.clone();
    order.sort_by_key(|&v| std::cmp::Reverse((vars.cost(v, goal), v)));
    for v in order {
        let smaller: Vec<usize> = set.iter().copied().filter(|&x| x != v).collect();
        if smaller.is_empty() {
            break;
        }
        if let Some(a) = candidate(z3, vars, goal, target, known, consistent, &smaller) {
            if accept(&a) {
                set = smaller;
                best = a;
            }
        }
    }
    Some(best)
}

/// The `k`-element subsets of `xs`, in lexicographic order.
fn combinations(xs: &[usize], k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    fn go(xs: &[usize], k: usize, from: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == k {
            out.push(cur.clone());
            return;
        }
        for i in from..xs.len() {
            if xs.len() - i < k - cur.len() {
                break;
            }
            cur.push(xs[i]);
            go(xs, k, i + 1, cur, out);
            cur.pop();
        }
    }
    go(xs, k, 0, &mut cur, &mut out);
    out
}
