//! The model's variables in the program's words: source names (made
//! unique with the line where a value is made), and where a question is
//! asked (after a loop, at a loop head, after a line, on entry).

use super::model::{Model, Origin};
use super::show::Names;
use crate::ir::{IntType, Program};
use std::collections::{BTreeMap, BTreeSet};
use z3::ast::Dynamic;

pub struct Naming {
    names: Vec<String>,
    booleans: BTreeSet<String>,
    defs: Vec<Option<Dynamic>>,
}

/// The line where a variable's value is made, when not an input.
fn line_of(p: &Program, o: &Origin) -> Option<u32> {
    match o {
        Origin::Draw { node, .. }
        | Origin::Choice { node, .. }
        | Origin::Call { node, .. }
        | Origin::Loop { head: node, .. } => Some(p.line(p.node(*node).span)),
        _ => None,
    }
}

impl Naming {
    pub fn new(p: &Program, m: &Model) -> Naming {
        let base: Vec<String> = m
            .vars
            .iter()
            .map(|v| match &v.origin {
                Origin::Input { name, .. } => name.clone(),
                Origin::Choice { .. } => "choice".into(),
                Origin::Op { .. } => String::new(),
                _ => v.name.clone(),
            })
            .collect();
        // Names shared by several variables of the model: inputs keep the
        // plain name, the others get `@line` (and `#frame` if needed).
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for &i in &m.used {
            *count.entry(base[i].as_str()).or_default() += 1;
        }
        let mut names: Vec<String> = Vec::with_capacity(base.len());
        for (i, v) in m.vars.iter().enumerate() {
            let shared =
                count.get(base[i].as_str()).copied().unwrap_or(0) > 1 || matches!(v.origin, Origin::Choice { .. });
            let name = match (&v.origin, line_of(p, &v.origin)) {
                (Origin::Input { .. }, _) | (_, None) => base[i].clone(),
                (_, Some(line)) if shared => format!("{}@{line}", base[i]),
                _ => base[i].clone(),
            };
            names.push(name);
        }
        // Still equal (one line, several frames): number them.
        let mut seen: BTreeMap<String, usize> = BTreeMap::new();
        for &i in &m.used {
            let n = seen.entry(names[i].clone()).or_default();
            *n += 1;
            if *n > 1 && !matches!(m.vars[i].origin, Origin::Op { .. }) {
                names[i] = format!("{}#{}", names[i], n);
            }
        }
        let booleans = m
            .vars
            .iter()
            .enumerate()
            .filter(|(_, v)| match &v.origin {
                Origin::Choice { .. } => true,
                Origin::Loop { var, .. } | Origin::Call { var: Some(var), .. } | Origin::Input { var, .. } => {
                    p.var(*var).ty == IntType::Bool
                }
                _ => false,
            })
            .map(|(i, _)| names[i].clone())
            .collect();
        let defs = m
            .vars
            .iter()
            .map(|v| match &v.origin {
                Origin::Op { def } => Some(Dynamic::from_ast(def)),
                _ => None,
            })
            .collect();
        Naming { names, booleans, defs }
    }

    /// The variables `vs` mention, through the definitions of operations.
    pub fn closure(&self, m: &Model, vs: &[usize]) -> BTreeSet<usize> {
        let mut out = BTreeSet::new();
        let mut work = vs.to_vec();
        while let Some(v) = work.pop() {
            if !out.insert(v) {
                continue;
            }
            if let Origin::Op { def } = &m.vars[v].origin {
                let b = def.ge(z3::ast::Int::from_i64(0));
                work.extend(super::abduce::vars_of(&b, m.vars.len()));
            }
        }
        out
    }

    /// Where a fact over `vs` is asked: its line and a phrase ("after the
    /// loop at line 4"). The latest value it reads decides.
    pub fn place(&self, p: &Program, m: &Model, vs: &[usize]) -> (u32, String) {
        let mut best: Option<(u32, String)> = None;
        for v in self.closure(m, vs) {
            let o = &m.vars[v].origin;
            let Some(line) = line_of(p, o) else { continue };
            let proc_of = |node: crate::ir::NodeId| {
                let f = p.node(node).proc;
                if f == p.entry {
                    String::new()
                } else {
                    format!(" in `{}`", p.proc(f).name)
                }
            };
            let phrase = match o {
                Origin::Loop { head, after: true, .. } => format!("after the loop at line {line}{}", proc_of(*head)),
                Origin::Loop { head, .. } => format!("at the head of the loop at line {line}{}", proc_of(*head)),
                Origin::Call { node, .. } => format!("after the call at line {line}{}", proc_of(*node)),
                Origin::Draw { node, .. } | Origin::Choice { node, .. } => {
                    format!("after line {line}{}", proc_of(*node))
                }
                _ => continue,
            };
            if best.as_ref().is_none_or(|(l, _)| line >= *l) {
                best = Some((line, phrase));
            }
        }
        best.unwrap_or_else(|| {
            let entry = p.proc(p.entry);
            let line = p.line(entry.span);
            (line, format!("on entry to `{}` (line {line})", entry.name))
        })
    }
}

impl Names for Naming {
    fn name(&self, v: usize) -> String {
        self.names.get(v).cloned().unwrap_or_else(|| format!("v{v}"))
    }

    fn boolean(&self, name: &str) -> bool {
        self.booleans.contains(name)
    }

    fn definition(&self, v: usize) -> Option<Dynamic> {
        self.defs.get(v).cloned().flatten()
    }
}
