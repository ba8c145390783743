//! The program as relations (facts). Three kinds, each printed by
//! `focuscheck facts FILE` with its kind:
//! - `input`: the typed facts lowered from the IR (`input.rs`) that the
//!   static rules (`rules/static.rs`) read, and those of points-to
//!   (`ir::points_to`, `rules/points_to.rs`, on the program as lowered);
//! - `derived`: what those rules derive (`rules.rs`, indexed for the later
//!   phases by `analysis.rs`; points-to's, which `ir::narrow` used);
//! - `program`: the program's text per point, unit and block, for reading
//!   the other two (no rule reads them; the explorer reads the IR itself).
//!
//! Points are written `p<N>` (see `point` for where they are), variables by
//! qualified name (`x`, `f::x`), procedures by name.

pub mod analysis;
pub mod input;
mod rules;

pub use analysis::Analysis;
pub use rules::Derived;

use crate::ir::*;

/// One relation: its kind, name, column names, a one-line meaning, and its rows.
pub struct Relation {
    pub kind: &'static str,
    pub name: &'static str,
    pub columns: &'static [&'static str],
    pub doc: &'static str,
    pub rows: Vec<Vec<String>>,
}

macro_rules! relations {
    ($( $(#[doc = $doc:literal])* $kind:ident $field:ident ( $($col:ident),* ); )*) => {
        /// Every relation of a program, as text, by name.
        #[derive(Default)]
        pub struct AllFacts {
            $( $(#[doc = $doc])* pub $field: Vec<Vec<String>>, )*
        }

        impl AllFacts {
            pub fn relations(self) -> Vec<Relation> {
                vec![$(Relation {
                    kind: stringify!($kind),
                    name: stringify!($field),
                    columns: &[$(stringify!($col)),*],
                    doc: concat!($($doc),*),
                    rows: self.$field,
                }),*]
            }
        }
    };
}

relations! {
    /// `point(p, proc, line, col, kind, text)`: program point p of proc, at line:col, doing `text`.
    program point(p, proc, line, col, kind, text);
    /// `branch_atom(p, atom)`: branch p tests `atom` (`*` for a non-deterministic choice).
    program branch_atom(p, atom);
    /// `assign(p, place, expr)`: p assigns the value of expr to place.
    program assign(p, place, expr);
    /// `havoc(p, place, type)`: p gives place a fresh input value of type.
    program havoc(p, place, ty);
    /// `call_arg(p, param, expr)`: the call at p passes expr to callee parameter param.
    program call_arg(p, param, expr);
    /// `call_result(p, place)`: after the call at p returns, place gets the return value.
    program call_result(p, place);
    /// `return_value(p, expr)`: the `return` at p returns expr.
    program return_value(p, expr);
    /// `error_site(p, site, kind)`: reaching p is the error of site (assert, reach_error).
    program error_site(p, site, kind);
    /// `check_site(site, kind, line, col)`: an array access or division checked at run time.
    program check_site(site, kind, line, col);
    /// `param(proc, index, var)`: var is parameter number index of proc.
    program param(proc, index, var);
    /// `block_parent(b, parent)`: static block b is nested directly in parent.
    program block_parent(b, parent);
    /// `point_block(p, b)`: p belongs to static block b (innermost).
    program point_block(p, b);
    /// `point_unit(p, unit)`: p was lowered from source statement or condition unit.
    program point_unit(p, unit);
    /// `unit(unit, kind, line, col, text)`: a source statement or condition.
    program unit(unit, kind, line, col, text);
    /// `input(name, lo, hi)`: an input of the run and the range of its type.
    program input(name, lo, hi);
    /// `left_out(name, line, reason)`: a function outside Cimple, not analysed.
    program left_out(name, line, reason);
    /// `node_in_proc(p, proc)`: program point p belongs to proc.
    input node_in_proc(p, proc);
    /// `cfg_edge(p, q)`: control may flow from p to q.
    input cfg_edge(p, q);
    /// `branch_edge(p, outcome, q)`: branch p goes to q when its atom is `outcome`.
    input branch_edge(p, outcome, q);
    /// `def_base(p, var)`: p itself writes var (a call: its result place).
    input def_base(p, var);
    /// `use_base(p, var)`: p itself reads var (a call: its arguments).
    input use_base(p, var);
    /// `call_at(p, callee)`: p calls callee.
    input call_at(p, callee);
    /// `proc_entry(proc, p)`: proc starts at p.
    input proc_entry(proc, p);
    /// `proc_exit(proc, p)`: proc ends at p (returns and falling off the end go here).
    input proc_exit(proc, p);
    /// `error_point(p)`: reaching p is an error.
    input error_point(p);
    /// `global_storage(var)`: var is a global or a static local.
    input global_storage(var);
    /// `entry_proc(proc)`: the run starts in proc.
    input entry_proc(proc);
    /// `scc_member(proc, rep)`: proc is in the call-graph component named by rep.
    input scc_member(proc, rep);
    /// `loop_body(head, p)`: p belongs to the natural loop headed by head.
    input loop_body(head, p);
    /// `reachable_proc(proc)`: proc can be called from the entry.
    derived reachable_proc(proc);
    /// `same_scc(proc, other)`: proc and other may call each other.
    derived same_scc(proc, other);
    /// `recursive(proc)`: proc may call itself.
    derived recursive(proc);
    /// `proc_may_def(proc, var)`: a call of proc may write global var.
    derived proc_may_def(proc, var);
    /// `proc_may_use(proc, var)`: a call of proc may read global var.
    derived proc_may_use(proc, var);
    /// `defs(p, var)`: p may write var (a call: its result and the callee's global writes).
    derived defs(p, var);
    /// `uses(p, var)`: p reads var (a call: its arguments and the callee's global reads).
    derived uses(p, var);
    /// `end_point(p)`: a run ends at p (an error, abort, exit, a failed assumption).
    derived end_point(p);
    /// `can_exit(p)`: from p the procedure can return.
    derived can_exit(p);
    /// `can_reach_error(p)`: from p an error point can be reached (callees included).
    derived can_reach_error(p);
    /// `ipdom(p, q)`: q is the immediate postdominator of p.
    derived ipdom(p, q);
    /// `control_dep(p, b, outcome)`: whether p runs depends on branch b having outcome.
    derived control_dep(p, b, outcome);
    /// `region_may_def(b, outcome, var)`: the code run when branch b has outcome may write var (computed on demand, `Analysis::region_defs`).
    derived region_may_def(b, outcome, var);
    /// `loop_modifies(head, var)`: the loop headed by head may write var.
    derived loop_modifies(head, var);
    /// `run_start(p)`: points-to: runs start at p.
    input run_start(p);
    /// `flow_edge(p, q)`: points-to: control goes from p to q whatever the values.
    input flow_edge(p, q);
    /// `guarded_edge(b, q, var, k)`: points-to: branch b goes to q only when var holds k.
    input guarded_edge(b, q, var, k);
    /// `call_entry(p, q)`: points-to: the call at p enters its callee at q.
    input call_entry(p, q);
    /// `addr_of(p, var, k)`: p writes the constant k to var (a tag: an object's address).
    input addr_of(p, var, k);
    /// `copy(p, var, from, conv)`: p writes scalar from, converted by conv, to scalar var.
    input copy(p, var, from, conv);
    /// `load(p, var, array, conv)`: p writes an element of array, converted by conv, to var.
    input load(p, var, array, conv);
    /// `store(p, array, from, conv)`: p writes from, converted by conv, to an element of array.
    input store(p, array, from, conv);
    /// `unknown(p, var)`: p writes to var a value points-to does not follow (var is top).
    input unknown(p, var);
    /// `init_value(var, k)`: var may hold k when its scope starts.
    input init_value(var, k);
    /// `init_top(var)`: var starts as an input of the run.
    input init_top(var);
    /// `pointer_tag(var)`: var is the tag leaf of a pointer.
    input pointer_tag(var);
    /// `object_tag(k, object)`: k is the tag of object.
    input object_tag(k, object);
    /// `live(p)`: some run may reach p (points-to, before narrowing).
    derived live(p);
    /// `live_edge(p, q)`: some run may go from p to q.
    derived live_edge(p, q);
    /// `value(var, k)`: var may hold the constant k.
    derived value(var, k);
    /// `top(var)`: var may hold values points-to does not follow.
    derived top(var);
    /// `points_to(var, object)`: pointer tag var may point to object (a top one to any).
    derived points_to(var, object);
    /// `narrowed(p, kind, text)`: p, a case of a split no run takes or a point only it reached, was this (now a skip).
    program narrowed(p, kind, text);
}

/// The program's relations as text, rows sorted when rendered.
pub fn all_facts(p: &Program, a: &Analysis) -> AllFacts {
    let mut f = AllFacts::default();
    let var = |v: &VarId| p.qualified_name(*v);
    let pt = |n: &NodeId| n.to_string();
    let proc = |f: &ProcId| p.proc(*f).name.clone();
    let lc = |span| {
        let l = p.source.start(span);
        (l.line.to_string(), l.col.to_string())
    };
    let one_line = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    for id in p.node_ids() {
        let node = p.node(id);
        let (line, col) = lc(node.span);
        match &node.kind {
            NodeKind::Assign { place, value, .. } => {
                f.assign.push(vec![pt(&id), show_place(p, place), show_expr(p, value)]);
            }
            NodeKind::Havoc { place, ty, .. } => {
                f.havoc.push(vec![pt(&id), show_place(p, place), ty.c_name().into()]);
            }
            NodeKind::Branch { .. } => f.branch_atom.push(vec![pt(&id), node_text(p, id, &node.kind).1]),
            NodeKind::Call {
                callee, args, result, ..
            } => {
                for (param, e) in p.proc(*callee).params.iter().zip(args) {
                    f.call_arg.push(vec![pt(&id), var(param), show_expr(p, e)]);
                }
                if let Some(r) = result {
                    f.call_result.push(vec![pt(&id), show_place(p, r)]);
                }
            }
            NodeKind::Return { value: Some(e), .. } => f.return_value.push(vec![pt(&id), show_expr(p, e)]),
            NodeKind::Error { site } => {
                f.error_site
                    .push(vec![pt(&id), site.to_string(), p.site(*site).kind.json_name().into()]);
            }
            _ => {}
        }
        let (kind, text) = node_text(p, id, &node.kind);
        f.point
            .push(vec![pt(&id), proc(&node.proc), line, col, kind.into(), text]);
        f.point_block.push(vec![pt(&id), node.block.to_string()]);
        f.point_unit.push(vec![pt(&id), node.unit.to_string()]);
    }
    for (i, s) in p.sites.iter().enumerate() {
        if matches!(
            s.kind,
            SiteKind::Bounds | SiteKind::DivByZero | SiteKind::Overflow | SiteKind::Shift | SiteKind::Deref
        ) {
            let (line, col) = lc(s.span);
            f.check_site
                .push(vec![SiteId(i as u32).to_string(), s.kind.json_name().into(), line, col]);
        }
    }
    for pid in p.proc_ids() {
        for (i, v) in p.proc(pid).params.iter().enumerate() {
            f.param.push(vec![proc(&pid), i.to_string(), var(v)]);
        }
    }
    for (i, b) in p.blocks.iter().enumerate() {
        if let Some(parent) = b.parent {
            f.block_parent
                .push(vec![BlockId(i as u32).to_string(), parent.to_string()]);
        }
    }
    for (i, u) in p.units.iter().enumerate() {
        let (line, col) = lc(u.span);
        let kind = format!("{:?}", u.kind).to_lowercase();
        f.unit.push(vec![
            UnitId(i as u32).to_string(),
            kind,
            line,
            col,
            one_line(p.text(u.span)),
        ]);
    }
    for s in p.input_slots() {
        f.input.push(vec![s.name, s.range.0.to_string(), s.range.1.to_string()]);
    }
    for lo in &p.left_out {
        let why = lo.reasons.first().map(|r| r.1.clone()).unwrap_or_default();
        f.left_out.push(vec![lo.name.clone(), p.line(lo.span).to_string(), why]);
    }
    let (i, d) = (&a.input, &a.derived);
    f.node_in_proc = i.node_in_proc.iter().map(|(x, g)| vec![pt(x), proc(g)]).collect();
    f.cfg_edge = i.cfg_edge.iter().map(|(x, y)| vec![pt(x), pt(y)]).collect();
    f.branch_edge = i
        .branch_edge
        .iter()
        .map(|(b, o, x)| vec![pt(b), o.to_string(), pt(x)])
        .collect();
    f.def_base = i.def_base.iter().map(|(x, v)| vec![pt(x), var(v)]).collect();
    f.use_base = i.use_base.iter().map(|(x, v)| vec![pt(x), var(v)]).collect();
    f.call_at = i.call_at.iter().map(|(x, g)| vec![pt(x), proc(g)]).collect();
    f.proc_entry = i.proc_entry.iter().map(|(g, x)| vec![proc(g), pt(x)]).collect();
    f.proc_exit = i.proc_exit.iter().map(|(g, x)| vec![proc(g), pt(x)]).collect();
    f.error_point = i.error_point.iter().map(|x| vec![pt(x)]).collect();
    f.global_storage = i.global_storage.iter().map(|v| vec![var(v)]).collect();
    f.entry_proc = i.entry_proc.iter().map(|g| vec![proc(g)]).collect();
    f.scc_member = i.scc_member.iter().map(|(g, r)| vec![proc(g), proc(r)]).collect();
    f.loop_body = i.loop_body.iter().map(|(h, x)| vec![pt(h), pt(x)]).collect();
    f.reachable_proc = d.reachable_proc.iter().map(|g| vec![proc(g)]).collect();
    f.same_scc = d.same_scc.iter().map(|(g, h)| vec![proc(g), proc(h)]).collect();
    f.recursive = d.recursive.iter().map(|g| vec![proc(g)]).collect();
    f.proc_may_def = d.proc_may_def.iter().map(|(g, v)| vec![proc(g), var(v)]).collect();
    f.proc_may_use = d.proc_may_use.iter().map(|(g, v)| vec![proc(g), var(v)]).collect();
    f.defs = d.defs.iter().map(|(x, v)| vec![pt(x), var(v)]).collect();
    f.uses = d.uses.iter().map(|(x, v)| vec![pt(x), var(v)]).collect();
    f.end_point = d.end_point.iter().map(|x| vec![pt(x)]).collect();
    f.can_exit = d.can_exit.iter().map(|x| vec![pt(x)]).collect();
    f.can_reach_error = d.can_reach_error.iter().map(|x| vec![pt(x)]).collect();
    f.ipdom = d.ipdom.iter().map(|(x, y)| vec![pt(x), pt(y)]).collect();
    f.control_dep = d
        .control_dep
        .iter()
        .map(|(x, b, o)| vec![pt(x), pt(b), o.to_string()])
        .collect();
    for (b, o, _) in &i.branch_edge {
        let defs = a.region_defs(*b, *o);
        f.region_may_def
            .extend(defs.iter().map(|v| vec![pt(b), o.to_string(), var(v)]));
    }
    f.loop_modifies = d.loop_modifies.iter().map(|(h, v)| vec![pt(h), var(v)]).collect();
    points_to_facts(p, &mut f);
    f
}

/// The points-to relations, of the program before narrowing (what the
/// rules ran on), and what narrowing changed.
fn points_to_facts(p: &Program, f: &mut AllFacts) {
    let var = |v: &VarId| p.qualified_name(*v);
    let pt = |n: &NodeId| n.to_string();
    let object = |k: &i64| p.memory.object(*k).map_or(format!("(object {k})"), |o| o.region());
    for (id, was) in &p.narrowed {
        let (kind, text) = node_text(p, *id, was);
        f.narrowed.push(vec![pt(id), kind.into(), text]);
    }
    let mut lowered = p.clone();
    crate::ir::narrow::restore(&mut lowered);
    let i = crate::ir::points_to::PointsToInput::new(&lowered);
    let d = crate::ir::points_to::PointsTo::new(&i);
    f.run_start = i.run_start.iter().map(|x| vec![pt(x)]).collect();
    f.flow_edge = i.flow_edge.iter().map(|(x, y)| vec![pt(x), pt(y)]).collect();
    f.guarded_edge = (i.guarded_edge.iter())
        .map(|(b, q, v, k)| vec![pt(b), pt(q), var(v), k.to_string()])
        .collect();
    f.call_entry = i.call_entry.iter().map(|(x, y)| vec![pt(x), pt(y)]).collect();
    f.addr_of = (i.addr_of.iter())
        .map(|(x, v, k)| vec![pt(x), var(v), k.to_string()])
        .collect();
    let moves = |rows: &[(NodeId, VarId, VarId, crate::ir::points_to::Convert)]| -> Vec<Vec<String>> {
        rows.iter()
            .map(|(x, v, w, c)| vec![pt(x), var(v), var(w), c.show()])
            .collect()
    };
    f.copy = moves(&i.copy);
    f.load = moves(&i.load);
    f.store = moves(&i.store);
    f.unknown = i.unknown.iter().map(|(x, v)| vec![pt(x), var(v)]).collect();
    f.init_value = i.init_value.iter().map(|(v, k)| vec![var(v), k.to_string()]).collect();
    f.init_top = i.init_top.iter().map(|v| vec![var(v)]).collect();
    f.pointer_tag = i.pointer_tag.iter().map(|v| vec![var(v)]).collect();
    f.object_tag = i.object_tag.iter().map(|k| vec![k.to_string(), object(k)]).collect();
    f.live = d.live.iter().map(|x| vec![pt(x)]).collect();
    f.live_edge = d.live_edge.iter().map(|(x, y)| vec![pt(x), pt(y)]).collect();
    f.value = d.value.iter().map(|(v, k)| vec![var(v), k.to_string()]).collect();
    f.top = d.top.iter().map(|v| vec![var(v)]).collect();
    f.points_to = d.points_to.iter().map(|(v, k)| vec![var(v), object(k)]).collect();
}

/// A point's kind and what it does, as `point` shows them.
fn node_text(p: &Program, id: NodeId, kind: &NodeKind) -> (&'static str, String) {
    let one_line = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    match kind {
        NodeKind::Assign { place, value, .. } => {
            ("assign", format!("{} = {}", show_place(p, place), show_expr(p, value)))
        }
        NodeKind::Havoc { place, ty, .. } => ("havoc", format!("{} = nondet {}", show_place(p, place), ty.c_name())),
        NodeKind::Branch { cond, .. } => match cond {
            Cond::Atom(a) => ("branch", show_atom(p, a)),
            Cond::Nondet => ("branch", "*".into()),
        },
        NodeKind::Call { callee, args, .. } => {
            let args: Vec<String> = args.iter().map(|e| show_expr(p, e)).collect();
            ("call", format!("{}({})", p.proc(*callee).name, args.join(", ")))
        }
        NodeKind::Return { value, .. } => (
            "return",
            value
                .as_ref()
                .map(|e| format!("return {}", show_expr(p, e)))
                .unwrap_or("return".into()),
        ),
        NodeKind::Error { site } => ("error", one_line(p.text(p.site(*site).span))),
        NodeKind::Halt => ("halt", one_line(p.text(p.node(id).span))),
        NodeKind::Exit => ("exit", String::new()),
        NodeKind::Skip { .. } => ("skip", String::new()),
    }
}

/// Renders relations as text: per relation a `# kind name(columns): doc`
/// line, then its rows sorted, tab-separated, each starting with the name.
pub fn render(relations: Vec<Relation>) -> String {
    let mut out = String::new();
    for mut r in relations {
        out.push_str(&format!(
            "# {} {}({}): {}\n",
            r.kind,
            r.name,
            r.columns.join(", "),
            r.doc.trim()
        ));
        r.rows.sort_by_key(|row| natural_key(row));
        r.rows.dedup();
        for row in r.rows {
            let cells: Vec<String> = row.iter().map(|c| c.replace(['\t', '\n'], " ")).collect();
            out.push_str(r.name);
            out.push('\t');
            out.push_str(&cells.join("\t"));
            out.push('\n');
        }
    }
    out
}

/// Sorts `p2` before `p10`: numbers inside cells compare as numbers.
fn natural_key(row: &[String]) -> Vec<(String, u64)> {
    row.iter()
        .map(|c| {
            let digits: String = c
                .chars()
                .skip_while(|ch| !ch.is_ascii_digit())
                .take_while(|ch| ch.is_ascii_digit())
                .collect();
            let prefix: String = c.chars().take_while(|ch| !ch.is_ascii_digit()).collect();
            if !digits.is_empty() && c.len() == prefix.len() + digits.len() {
                (prefix, digits.parse().unwrap_or(u64::MAX))
            } else {
                (c.clone(), 0)
            }
        })
        .collect()
}
