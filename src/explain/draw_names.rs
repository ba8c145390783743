//! How an assumption names a value drawn inside a model of the C library
//! (an instance such as `scanf@13:7`, one per call): by what the program
//! sees of it, not by the model's own variables. A value the model stores
//! through a pointer argument is named by the variable it lands in, as a
//! draw into that variable is (`n@13`: the value `scanf` stored in `n`);
//! the value it returns by the call (`scanf()@13`); any other by the
//! function and the model's variable (`fgets:c0@13`).

use crate::ir::*;
use std::collections::BTreeMap;

/// The nodes of each library model's instance.
pub fn model_nodes(p: &Program) -> BTreeMap<ProcId, Vec<NodeId>> {
    let mut out: BTreeMap<ProcId, Vec<NodeId>> = BTreeMap::new();
    for n in p.node_ids() {
        let proc = p.node(n).proc;
        if p.proc(proc).name.contains('@') {
            out.entry(proc).or_default().push(n);
        }
    }
    out
}

/// The name of the draw at `n` (a `Havoc` of `place`) if `n` is in a
/// library model's instance (`models`: from `model_nodes`).
pub fn model_draw(p: &Program, models: &BTreeMap<ProcId, Vec<NodeId>>, n: NodeId, place: &Place) -> Option<String> {
    let node = p.node(n);
    let nodes = models.get(&node.proc)?;
    let proc = p.proc(node.proc);
    let (function, _) = proc.name.split_once('@')?;
    let line = p.line(node.span);
    let stored: Vec<&Place> = nodes
        .iter()
        .filter_map(|&m| match &p.node(m).kind {
            NodeKind::Assign { place: to, value, .. }
                if matches!(value.kind, ExprKind::Var(v) if v == place.var) && !proc.locals.contains(&to.var) =>
            {
                Some(to)
            }
            _ => None,
        })
        .collect();
    if let [to, rest @ ..] = &stored[..] {
        if rest.iter().all(|r| r.var == to.var) {
            return Some(format!("{}@{line}", p.var(to.var).name));
        }
    }
    let returned = nodes.iter().any(|&m| {
        matches!(&p.node(m).kind, NodeKind::Return { value: Some(e), .. }
                if matches!(e.kind, ExprKind::Var(v) if v == place.var))
    });
    if returned || p.var(place.var).name.starts_with('$') {
        Some(format!("{function}()@{line}"))
    } else {
        Some(format!("{function}:{}@{line}", p.var(place.var).name))
    }
}
