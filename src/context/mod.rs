//! The program context: what every engine reads of a program and nothing
//! that a run changes. It holds the IR, its static facts, the layout of
//! values and the error conditions; it is built once per check and shared,
//! read-only, by the explorer, the counterexample search, the explanation
//! and any other engine (the VC engine needs no more than this).
//!
//! Depends on `ir` and `facts` only.

pub mod conditions;

use crate::facts::Analysis;
use crate::ir::*;
use conditions::{CondId, Condition};
use std::collections::HashMap;

pub struct Context<'a> {
    pub p: &'a Program,
    pub a: &'a Analysis,
    /// Where each variable's values live (global storage or a frame).
    pub layout: Layout,
    pub conds: &'a [Condition],
    /// The condition of each site.
    pub cond_of_site: Vec<Option<CondId>>,
    /// User conditions reading each variable.
    pub conds_of_var: HashMap<VarId, Vec<CondId>>,
    /// The number of each input (variable, element), in
    /// `Program::input_slots` order.
    input_number: HashMap<(VarId, u32), u32>,
    /// The range of each input, by number.
    pub input_ranges: Vec<(i64, i64)>,
}

impl<'a> Context<'a> {
    pub fn new(p: &'a Program, a: &'a Analysis, conds: &'a [Condition]) -> Context<'a> {
        let mut cond_of_site = vec![None; p.sites.len()];
        let mut conds_of_var: HashMap<VarId, Vec<CondId>> = HashMap::new();
        for (i, c) in conds.iter().enumerate() {
            let id = CondId(i as u32);
            if let Some(s) = c.site() {
                cond_of_site[s.index()] = Some(id);
            }
            if let Some(u) = c.user() {
                for &v in &u.vars {
                    conds_of_var.entry(v).or_default().push(id);
                }
            }
        }
        let slots = p.input_slots();
        Context {
            p,
            a,
            layout: p.layout(),
            conds,
            cond_of_site,
            conds_of_var,
            input_number: slots
                .iter()
                .enumerate()
                .map(|(k, s)| ((s.var, s.index.unwrap_or(0)), k as u32))
                .collect(),
            input_ranges: slots.iter().map(|s| s.range).collect(),
        }
    }

    pub fn cond(&self, k: CondId) -> &'a Condition {
        &self.conds[k.0 as usize]
    }

    /// The input number of element `k` of `var` (0 for a scalar), if that
    /// element is an input.
    pub fn input_number(&self, var: VarId, k: u32) -> Option<u32> {
        self.input_number.get(&(var, k)).copied()
    }
}
