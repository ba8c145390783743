//! Quantifiers out of the VC's equations, as ground instances. The
//! linear-size VC defines each block's `ok` by an equivalence, so a
//! quantifier inside occurs both ways, and Z3's model-based instantiation,
//! incremental as Houdini uses it, gives up ("incomplete quantifiers") on
//! the satisfiable queries Houdini needs. Each quantifier becomes a Boolean
//! name constrained one way only, the way its command uses it (Z3 looks
//! for a failing run: the run's assumptions hold, the failing check's
//! formula is false):
//!
//! - where it may fail (`\forall` checked, or `\exists` assumed): one
//!   instance at a fresh constant `w`, `!name ==> !body[k := w]` (exact:
//!   the skolem form);
//! - where it must hold (`\forall` assumed, or `\exists` checked): the
//!   instances at every index the VC reads or writes an array at and at
//!   every `w`, `name ==> body[k := t]` for each such `t`. Weaker than the
//!   quantifier (never unsound: fewer assumptions), and enough for facts
//!   about array elements, whose quantifier is only ever needed at those
//!   indices (the array property fragment of Bradley and Manna).
//!
//! A failing run has a model either way, and a model's failure is real.

use super::term::{formula, instance, Env, Formula};
use std::collections::HashSet;
use z3::ast::{Ast, Bool, Int};

/// At most this many instances in one VC; past it, the assumption is
/// weaker still (sound).
const MAX_INSTANCES: usize = 20_000;

#[derive(Default)]
pub struct Named {
    /// Definitions of names, final.
    side: Vec<Bool>,
    /// Names that hold where their body does at every index: the name,
    /// the body's placeholder for the bound variable, the body.
    must_hold: Vec<(Bool, Int, Bool)>,
    /// The witnesses.
    witnesses: Vec<Int>,
}

impl Named {
    /// `f` as a Z3 formula where it occurs `positive`ly, its quantifiers
    /// named.
    pub fn formula(&mut self, f: &Formula, positive: bool, env: &mut dyn Env) -> Bool {
        if !has_quantifier(f) {
            return formula(f, env);
        }
        match f {
            Formula::Not(x) => self.formula(x, !positive, env).not(),
            Formula::And(xs) => {
                let xs: Vec<Bool> = xs.iter().map(|x| self.formula(x, positive, env)).collect();
                Bool::and(&xs)
            }
            Formula::Or(xs) => {
                let xs: Vec<Bool> = xs.iter().map(|x| self.formula(x, positive, env)).collect();
                Bool::or(&xs)
            }
            Formula::Enabled(n, x) => {
                let on = env.enabled(*n);
                on.implies(self.formula(x, positive, env))
            }
            Formula::Quant { forall, var, body } => {
                let name = Bool::fresh_const("quant");
                if *forall == positive {
                    let k = Int::fresh_const("k");
                    let b = instance(body, *var, &k, env);
                    // An `\exists` that must hold: its negation is a
                    // `\forall` of the negated body that may fail.
                    let b = if *forall { b } else { b.not() };
                    let name_holds = if positive { name.clone() } else { name.not() };
                    self.must_hold.push((name_holds, k, b));
                } else {
                    let w = Int::fresh_const("witness");
                    let b = instance(body, *var, &w, env);
                    self.side
                        .push(if positive { name.implies(&b) } else { b.implies(&name) });
                    self.witnesses.push(w);
                }
                name
            }
            Formula::Bool(_) | Formula::Rel(..) => formula(f, env),
        }
    }

    /// The names' definitions, given every index the VC reads or writes
    /// an array at (`Env::index`).
    pub fn finish(self, indices: &[Int]) -> Vec<Bool> {
        let mut seen = HashSet::new();
        let indices: Vec<&Int> = (indices.iter().chain(&self.witnesses))
            .filter(|i| seen.insert(*i))
            .collect();
        let mut out = self.side;
        let mut budget = MAX_INSTANCES;
        for (name, k, body) in &self.must_hold {
            let n = indices.len().min(budget);
            budget -= n;
            let instances: Vec<Bool> = indices[..n].iter().map(|&t| body.substitute(&[(k, t)])).collect();
            out.push(name.implies(Bool::and(&instances)));
        }
        out
    }
}

pub fn has_quantifier(f: &Formula) -> bool {
    match f {
        Formula::Quant { .. } => true,
        Formula::Not(x) | Formula::Enabled(_, x) => has_quantifier(x),
        Formula::And(xs) | Formula::Or(xs) => xs.iter().any(has_quantifier),
        Formula::Bool(_) | Formula::Rel(..) => false,
    }
}
