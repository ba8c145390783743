//! Abductive diagnosis of undecided conditions (seed 003, Dillig, Dillig,
//! Aiken): the simplest fact that would discharge a report (a proof
//! obligation Γ) and the simplest that would confirm it (a failure witness
//! Υ), asked as yes/no questions until the report is settled.
//!
//! Pipeline: `prepare` proves what loop invariants it can (the user's,
//! split into conjuncts, and inferred ones) and unfolds the program with
//! loops cut (`vc::gc`, `Loops::Havoc`); `model` reads the seed's model of
//! one condition off it (ν, α, I, φ); `diagnose` runs the loop of the
//! seed's Fig. 6 with `abduce` (minimum satisfying assignments, quantifier
//! elimination, simplification), `show` (questions in source words) and an
//! `Asker` (the user, a file, a default) or an `Oracle` (concrete runs).
//!
//! Depends on `vc`, `ir`, `facts` and `interp`; no IO.

pub mod abduce;
pub mod model;
pub mod naming;
pub mod oracle;
pub mod show;

use crate::diag::Diag;
use crate::facts::Analysis;
use crate::ir::cond::{BoolExpr, UserCond};
use crate::ir::Program;
use crate::vc::gc::{self, CheckKey, Gc};
use crate::vc::{self, houdini, Invariant, Loops};
use abduce::{Abduction, Aim, Sat, Search, Vars, Z3};
use model::Model;
use naming::Naming;
use std::collections::BTreeSet;
use std::time::{Duration, Instant};
use z3::ast::{Ast, Bool, Int};

#[derive(Clone, Debug)]
pub struct Options {
    /// Infer loop invariants (Houdini) besides the user's.
    pub infer: bool,
    pub inline_depth: u32,
    /// Per Z3 call (queries, eliminations).
    pub timeout: Duration,
    /// Questions asked (to the user, a file or the default) at most.
    pub max_queries: usize,
    pub property: vc::Property,
    /// Variable sets tried in cost order before a greedy search.
    pub exact_budget: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            infer: true,
            inline_depth: crate::vc::INLINE_DEPTH,
            timeout: Duration::from_secs(10),
            max_queries: 10,
            property: vc::Property::All,
            exact_budget: 48,
        }
    }
}

/// A question's kind: a proof obligation ("true on every run?") or a
/// failure witness ("can it hold on some run?").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Invariant,
    Witness,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Invariant => "invariant",
            Kind::Witness => "witness",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Yes,
    No,
    Unknown,
}

impl Answer {
    pub fn name(self) -> &'static str {
        match self {
            Answer::Yes => "yes",
            Answer::No => "no",
            Answer::Unknown => "unknown",
        }
    }
}

/// Who answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    User,
    File,
    Oracle,
    Default,
}

impl By {
    pub fn name(self) -> &'static str {
        match self {
            By::User => "user",
            By::File => "file",
            By::Oracle => "oracle",
            By::Default => "default",
        }
    }
}

/// One question: a single fact at a place in the program.
#[derive(Clone, Debug)]
pub struct Question {
    /// 1, 2, ... within the condition.
    pub number: usize,
    pub kind: Kind,
    /// The line the question is about (a loop head, a draw, the entry).
    pub line: u32,
    /// "after the loop at line 4", "on entry to main", ...
    pub place: String,
    /// The fact, in canonical form (the key of an answers file with the
    /// kind and the line).
    pub text: String,
    pub fact: Bool,
    /// Where it is read, as a formula: the runs it is about leave (or
    /// reach) the loops whose variables it reads.
    pub at: Bool,
}

impl Question {
    /// The question as a sentence.
    pub fn sentence(&self) -> String {
        match self.kind {
            Kind::Invariant => {
                let mut place = self.place.clone();
                if let Some(first) = place.get(0..1) {
                    place.replace_range(0..1, &first.to_uppercase());
                }
                format!("{place}, is \"{}\" true on every run?", self.text)
            }
            Kind::Witness => format!("Can \"{}\" hold {} on some run?", self.text, self.place),
        }
    }
}

/// A run that settles a question (the oracle's).
#[derive(Clone, Debug)]
pub struct Evidence {
    /// Every input of the run and every choice it consumed.
    pub inputs: Vec<(String, i64)>,
    pub choices: Vec<i64>,
    /// The run fails the condition.
    pub fails: bool,
}

#[derive(Clone, Debug)]
pub struct Query {
    pub question: Question,
    pub answer: Answer,
    pub by: By,
    pub evidence: Option<Evidence>,
}

/// Asks a question (the user, an answers file, a default).
pub trait Asker {
    fn ask(&mut self, q: &Question) -> (Answer, By);
}

/// Answers a question without the user, or abstains.
pub trait Oracle {
    fn answer(&mut self, model: &Model, known: &Bool, q: &Question) -> Option<(Answer, Evidence)>;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    FalseAlarm,
    RealBug,
    Unresolved,
}

impl Verdict {
    pub fn name(self) -> &'static str {
        match self {
            Verdict::FalseAlarm => "false_alarm",
            Verdict::RealBug => "real_bug",
            Verdict::Unresolved => "unresolved",
        }
    }
}

/// The outcome for one condition.
#[derive(Clone, Debug)]
pub struct Diagnosis {
    pub verdict: Verdict,
    /// What settled it: "Lemma 1", "Q2", or why it stays open.
    pub reason: String,
    pub queries: Vec<Query>,
    /// The run that shows a real bug, when the oracle found one.
    pub run: Option<Evidence>,
    pub time: Duration,
    /// Quantifier eliminations (and fallbacks from qe2 to qe).
    pub qe_calls: usize,
    pub qe_fallbacks: usize,
    pub qe_time: Duration,
    /// Satisfiability queries, and their time.
    pub sat_calls: usize,
    pub sat_time: Duration,
    /// Time spent computing each question.
    pub question_times: Vec<Duration>,
}

/// What every condition of a program shares: the invariants proved and the
/// unfolded program.
pub struct Prepared {
    pub a: Analysis,
    pub gc: Gc,
    /// The invariants the model uses: line, text, given by the user.
    pub invariants: Vec<(u32, String, bool)>,
    /// The user's invariants (conjuncts) that could not be proved: line,
    /// text. They are not used.
    pub unproved: Vec<(u32, String)>,
    /// Why no invariant is used, when the prover failed.
    pub note: Option<String>,
    /// The VC engine's result with those invariants: what it decides.
    pub verify: vc::ProcResult,
}

/// Conjuncts of a condition (`a && b` is two invariants, each proved or
/// dropped on its own).
fn conjuncts(e: &BoolExpr, out: &mut Vec<BoolExpr>) {
    match e {
        BoolExpr::And(a, b) => {
            conjuncts(a, out);
            conjuncts(b, out);
        }
        _ => out.push(e.clone()),
    }
}

fn show_bool(p: &Program, e: &BoolExpr) -> String {
    match e {
        BoolExpr::Atom(a) => crate::ir::show_atom(p, a),
        BoolExpr::Not(x) => format!("!({})", show_bool(p, x)),
        BoolExpr::And(a, b) => format!("({} && {})", show_bool(p, a), show_bool(p, b)),
        BoolExpr::Or(a, b) => format!("({} || {})", show_bool(p, a), show_bool(p, b)),
    }
}

/// Proves invariants (Houdini over the user's conjuncts and, with `infer`,
/// the inferred candidates: the largest inductive subset) and unfolds the
/// program with loops cut at their heads.
pub fn prepare(p: &Program, users: &[UserCond], opts: &Options) -> Result<Prepared, Vec<Diag>> {
    let a = Analysis::new(p);
    let mut cands: Vec<Invariant> = Vec::new();
    for inv in houdini::user_invariants(p, &a)? {
        let mut parts = Vec::new();
        conjuncts(&inv.expr, &mut parts);
        for e in parts {
            cands.push(Invariant {
                head: inv.head,
                text: show_bool(p, &e),
                expr: e,
                // Droppable: only what is proved is used.
                user: false,
                entry: false,
                visited: None,
            });
        }
    }
    let given = cands.len();
    if opts.infer {
        cands.extend(houdini::candidates(p, &a));
    }
    let vopts = vc::Options {
        loops: Loops::Havoc,
        inline_depth: opts.inline_depth,
        max_warnings: 10,
        timeout: Some(opts.timeout),
        property: opts.property,
        infer: false,
        ..vc::Options::default()
    };
    // One run of the VC engine: the invariants it proves, and what it
    // decides with them (`verify --loops havoc`, the user's invariants
    // proved before they are used).
    let r = vc::solve::run(p, &a, users, &cands, &vopts);
    let (kept, note): (Vec<usize>, Option<String>) = match &r.kept {
        Some(k) => (k.clone(), None),
        None => (Vec::new(), Some(format!("no loop invariant is used: {}", r.reason))),
    };
    let line = |i: usize| p.line(p.node(cands[i].head).span);
    // An inferred candidate the user also gave is shown once, as given.
    let mut seen = std::collections::HashSet::new();
    let invariants = kept
        .iter()
        .filter(|&&i| seen.insert((line(i), cands[i].text.clone())))
        .map(|&i| (line(i), cands[i].text.clone(), i < given))
        .collect();
    let unproved = (0..given)
        .filter(|i| !kept.contains(i))
        .map(|i| (line(i), cands[i].text.clone()))
        .collect();
    let used: Vec<Invariant> = kept.iter().map(|&i| cands[i].clone()).collect();
    let gc = gc::build(p, &a, users, &used, &vopts);
    Ok(Prepared {
        a,
        gc,
        invariants,
        unproved,
        note,
        verify: r,
    })
}

/// What the loop knows: I (with the answers), the witnesses W, and the
/// facts the user could not decide.
struct State {
    /// I with what the answers taught.
    inv: Bool,
    /// The same for every run (`Model::inv_base`).
    inv_base: Bool,
    /// Witnesses (each holds on some run where it is read), with that
    /// place and the query that taught it.
    witnesses: Vec<(Bool, Bool, usize)>,
    maybe_inv: Vec<Bool>,
    maybe_wit: Vec<Bool>,
    asked: BTreeSet<(Kind, u32, String)>,
}

/// A fact to ask, from a decomposed query.
struct Fact {
    kind: Kind,
    fact: Bool,
}

/// The single facts of a query (§4.4): a proof obligation's clauses (a
/// disjunctive clause: each literal as an invariant, then its negation as
/// a witness); a witness's cubes.
fn facts_of(a: &Abduction, aim: Aim) -> Vec<Fact> {
    let mut out = Vec::new();
    for part in &a.parts {
        match aim {
            Aim::Discharge if part.len() == 1 => out.push(Fact {
                kind: Kind::Invariant,
                fact: part[0].clone(),
            }),
            Aim::Discharge => {
                for l in part {
                    out.push(Fact {
                        kind: Kind::Invariant,
                        fact: l.clone(),
                    });
                }
                let negs: Vec<Bool> = part.iter().map(|l| l.not()).collect();
                out.push(Fact {
                    kind: Kind::Witness,
                    fact: Bool::and(&negs).simplify(),
                });
            }
            Aim::Validate => out.push(Fact {
                kind: Kind::Witness,
                fact: Bool::and(part),
            }),
        }
    }
    out
}

/// At most this many rounds of the loop (answers from the oracle included).
const MAX_ROUNDS: usize = 60;

/// Diagnoses one condition.
pub fn diagnose(
    p: &Program,
    prep: &Prepared,
    key: CheckKey,
    asker: &mut dyn Asker,
    mut oracle: Option<&mut dyn Oracle>,
    opts: &Options,
) -> Diagnosis {
    let start = Instant::now();
    let mut z3 = Z3::new(opts.timeout);
    let mut out = Diagnosis {
        verdict: Verdict::Unresolved,
        reason: String::new(),
        queries: Vec::new(),
        run: None,
        time: Duration::ZERO,
        qe_calls: 0,
        qe_fallbacks: 0,
        qe_time: Duration::ZERO,
        sat_calls: 0,
        sat_time: Duration::ZERO,
        question_times: Vec::new(),
    };
    let finish = |mut d: Diagnosis, z3: &Z3, verdict: Verdict, reason: String| {
        d.verdict = verdict;
        d.reason = reason;
        d.time = start.elapsed();
        d.qe_calls = z3.qe_calls;
        d.qe_fallbacks = z3.qe_fallbacks;
        d.qe_time = z3.qe_time;
        d.sat_calls = z3.sat_calls.get();
        d.sat_time = z3.sat_time.get();
        d
    };
    let m = match model::build(p, &prep.a, &prep.gc, key) {
        Ok(m) => m,
        Err(why) => return finish(out, &z3, Verdict::Unresolved, why),
    };
    let naming = Naming::new(p, &m);
    let z3vars: Vec<Int> = m.vars.iter().map(|v| v.z3.clone()).collect();
    let input: Vec<bool> = m.vars.iter().map(|v| v.is_input()).collect();
    // Where each variable is read: its loop's place (see `Model::at`).
    let at: Vec<Option<Bool>> = m
        .vars
        .iter()
        .map(|v| match v.origin {
            model::Origin::Loop { head, frame, .. } => m.at.get(&(head, frame)).cloned(),
            _ => None,
        })
        .collect();
    let vars = Vars {
        z3: &z3vars,
        input: &input,
        used: &m.used,
        at: &at,
    };
    // Lemma 1 and Lemma 2.
    if z3.implies(std::slice::from_ref(&m.inv), &m.phi) {
        return finish(
            out,
            &z3,
            Verdict::FalseAlarm,
            "Lemma 1: the known invariants imply that it holds".into(),
        );
    }
    // Lemma 2 reads every run at its loops' last visits: without the facts
    // that hold only for runs that leave their loops.
    if z3.sat(std::slice::from_ref(&m.inv_base)) == Sat::Sat
        && z3.implies(std::slice::from_ref(&m.inv_base), &m.phi.not())
    {
        return finish(out, &z3, Verdict::RealBug, "Lemma 2: it fails on every run".into());
    }
    let mut st = State {
        inv: m.inv.clone(),
        inv_base: m.inv_base.clone(),
        witnesses: Vec::new(),
        maybe_inv: Vec::new(),
        maybe_wit: Vec::new(),
        asked: BTreeSet::new(),
    };
    let mut asked_people = 0usize;
    for _round in 0..MAX_ROUNDS {
        let q_number = out.queries.len();
        // Fig. 6, lines 3-4.
        if z3.implies(std::slice::from_ref(&st.inv), &m.phi) {
            let why = format!("discharged by Q{q_number}");
            return finish(out, &z3, Verdict::FalseAlarm, why);
        }
        // A witness holds on a run that reaches its place: that run's
        // valuation satisfies I for every run and the witness's place.
        if let Some((_, _, q)) = st
            .witnesses
            .iter()
            .find(|(w, at, _)| z3.sat(&[st.inv_base.clone(), at.clone(), w.clone(), m.phi.clone()]) == Sat::Unsat)
        {
            let why = format!("validated by Q{q}");
            let q = *q;
            if let Some(e) = out.queries.get(q - 1).and_then(|x| x.evidence.clone()) {
                out.run = Some(e);
            }
            return finish(out, &z3, Verdict::RealBug, why);
        }
        if asked_people >= opts.max_queries {
            let why = format!(
                "no answer settles it within {} questions (--max-queries)",
                opts.max_queries
            );
            return finish(out, &z3, Verdict::Unresolved, why);
        }
        let t0 = Instant::now();
        // Lines 5-8: Γ and Υ, each with a fact not asked yet.
        // Consistent with I and, each on its own, every (potential)
        // invariant and witness (§4.3, §5).
        let with = |f: &Bool| Bool::and(&[st.inv.clone(), f.clone()]);
        let mut cons_w = vec![st.inv.clone()];
        cons_w.extend(st.maybe_inv.iter().map(with));
        let mut cons_g = cons_w.clone();
        cons_g.extend(
            st.witnesses
                .iter()
                .map(|(w, _, _)| w)
                .chain(st.maybe_wit.iter())
                .map(with),
        );
        let unasked = |a: &Abduction, aim: Aim, st: &State| {
            facts_of(a, aim)
                .into_iter()
                .map(|f| question(p, &m, &naming, f, 0))
                .find(|q| !st.asked.contains(&(q.kind, q.line, q.text.clone())))
        };
        let target_g = st.inv.implies(&m.phi);
        let gamma = abduce::abduce(
            &mut z3,
            &vars,
            Aim::Discharge,
            &target_g,
            &st.inv,
            &cons_g,
            &mut |a| unasked(a, Aim::Discharge, &st).is_some(),
            &Search {
                exact_budget: opts.exact_budget,
                max_cost: None,
            },
        );
        let target_w = st.inv.implies(m.phi.not());
        let upsilon = abduce::abduce(
            &mut z3,
            &vars,
            Aim::Validate,
            &target_w,
            &st.inv,
            &cons_w,
            &mut |a| unasked(a, Aim::Validate, &st).is_some(),
            &Search {
                exact_budget: opts.exact_budget,
                // Ties go to the obligation: only a cheaper witness counts.
                max_cost: gamma.as_ref().map(|g| g.cost.saturating_sub(1)),
            },
        );
        // Line 9: the cheaper one (ties: the obligation).
        let pick = match (&gamma, &upsilon) {
            (Some(g), Some(u)) if g.cost <= u.cost => Some((g, Aim::Discharge)),
            (_, Some(u)) => Some((u, Aim::Validate)),
            (Some(g), None) => Some((g, Aim::Discharge)),
            (None, None) => None,
        };
        let Some((chosen, aim)) = pick else {
            return finish(out, &z3, Verdict::Unresolved, "no question left to ask".into());
        };
        let Some(mut q) = unasked(chosen, aim, &st) else {
            return finish(out, &z3, Verdict::Unresolved, "no question left to ask".into());
        };
        q.number = q_number + 1;
        out.question_times.push(t0.elapsed());
        st.asked.insert((q.kind, q.line, q.text.clone()));
        let from_oracle = oracle.as_deref_mut().and_then(|o| o.answer(&m, &st.inv, &q));
        let (answer, by, evidence) = match from_oracle {
            Some((a, e)) => (a, By::Oracle, Some(e)),
            None => {
                asked_people += 1;
                let (a, by) = asker.ask(&q);
                (a, by, None)
            }
        };
        learn(&mut st, &q, answer, q.number);
        out.queries.push(Query {
            question: q,
            answer,
            by,
            evidence,
        });
    }
    finish(out, &z3, Verdict::Unresolved, "too many rounds".into())
}

/// What an answer teaches (Fig. 6, lines 11-17, and §5 for "I don't
/// know"). A fact learned as true holds where it is read: it joins I under
/// that place, so I stays true of every run.
fn learn(st: &mut State, q: &Question, answer: Answer, number: usize) {
    let f = &q.fact;
    match (q.kind, answer) {
        (Kind::Invariant, Answer::Yes) | (Kind::Witness, Answer::No) => {
            let fact = if q.kind == Kind::Invariant { f.clone() } else { f.not() };
            let fact = q.at.implies(&fact);
            st.inv = Bool::and(&[st.inv.clone(), fact.clone()]);
            st.inv_base = Bool::and(&[st.inv_base.clone(), fact]);
        }
        (Kind::Invariant, Answer::No) => st.witnesses.push((f.not(), q.at.clone(), number)),
        (Kind::Witness, Answer::Yes) => st.witnesses.push((f.clone(), q.at.clone(), number)),
        (Kind::Invariant, Answer::Unknown) => {
            st.maybe_inv.push(f.clone());
            st.maybe_wit.push(f.not());
        }
        (Kind::Witness, Answer::Unknown) => {
            st.maybe_wit.push(f.clone());
            st.maybe_inv.push(f.not());
        }
    }
}

/// A fact as a question: its text and place.
fn question(p: &Program, m: &Model, naming: &Naming, f: Fact, number: usize) -> Question {
    let text = show::show(&f.fact, naming);
    let vs = abduce::vars_of(&f.fact, m.vars.len());
    let (line, place) = naming.place(p, m, &vs);
    let at: Vec<Bool> = naming
        .closure(m, &vs)
        .into_iter()
        .filter_map(|v| match m.vars[v].origin {
            model::Origin::Loop { head, frame, .. } => m.at.get(&(head, frame)).cloned(),
            _ => None,
        })
        .collect();
    Question {
        number,
        kind: f.kind,
        line,
        place,
        text,
        fact: f.fact,
        at: Bool::and(&at),
    }
}
