//! The program as relations (facts): one field per relation, each documented
//! with its columns. `focuscheck facts FILE` prints them as sorted
//! tab-separated rows. Points are written `p<N>` (see `point` for where they
//! are), variables by qualified name (`x`, `f::x`), procedures by name.

pub mod analysis;
pub mod input;
#[doc(hidden)]
pub mod oracle;
mod rules;

pub use rules::Derived;

pub use analysis::Analysis;

use crate::ir::*;

/// One relation: its name, column names, a one-line meaning, and its rows.
pub struct Relation {
    pub name: &'static str,
    pub columns: &'static [&'static str],
    pub doc: &'static str,
    pub rows: Vec<Vec<String>>,
}

macro_rules! relations {
    ($( $(#[doc = $doc:literal])* $field:ident ( $($col:ident),* ); )*) => {
        /// Every relation lowered from a program, by name.
        #[derive(Default)]
        pub struct AllFacts {
            $( $(#[doc = $doc])* pub $field: Vec<Vec<String>>, )*
        }

        impl AllFacts {
            pub fn relations(self) -> Vec<Relation> {
                vec![$(Relation {
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
    point(p, proc, line, col, kind, text);
    /// `cfg_edge(p, q)`: control may flow from p to q.
    cfg_edge(p, q);
    /// `branch_edge(p, outcome, q)`: branch p goes to q when its atom is `outcome`.
    branch_edge(p, outcome, q);
    /// `branch_atom(p, atom)`: branch p tests `atom` (`*` for a non-deterministic choice).
    branch_atom(p, atom);
    /// `assign(p, place, expr)`: p assigns the value of expr to place.
    assign(p, place, expr);
    /// `havoc(p, place, type)`: p gives place a fresh input value of type.
    havoc(p, place, ty);
    /// `call(p, callee)`: p calls callee.
    call(p, callee);
    /// `call_arg(p, param, expr)`: the call at p passes expr to callee parameter param.
    call_arg(p, param, expr);
    /// `call_result(p, place)`: after the call at p returns, place gets the return value.
    call_result(p, place);
    /// `return_value(p, expr)`: the `return` at p returns expr.
    return_value(p, expr);
    /// `error_point(p, site, kind)`: reaching p is the error of site (assert, reach_error).
    error_point(p, site, kind);
    /// `check_site(site, kind, line, col)`: an array access or division checked at run time.
    check_site(site, kind, line, col);
    /// `halt_point(p)`: the run ends at p without error (abort, exit, failed assumption).
    halt_point(p);
    /// `proc_entry(proc, p)`: proc starts at p.
    proc_entry(proc, p);
    /// `proc_exit(proc, p)`: proc ends at p (returns and falling off the end go here).
    proc_exit(proc, p);
    /// `param(proc, index, var)`: var is parameter number index of proc.
    param(proc, index, var);
    /// `defs(p, var)`: p may write var (a call: its result and the callee's global writes).
    defs(p, var);
    /// `uses(p, var)`: p reads var (a call: its arguments and the callee's global reads).
    uses(p, var);
    /// `proc_may_def(proc, var)`: a call of proc may write global var.
    proc_may_def(proc, var);
    /// `proc_may_use(proc, var)`: a call of proc may read global var.
    proc_may_use(proc, var);
    /// `ipdom(p, q)`: q is the immediate postdominator of p.
    ipdom(p, q);
    /// `control_dep(p, b, outcome)`: whether p runs depends on branch b having outcome.
    control_dep(p, b, outcome);
    /// `region_may_def(b, outcome, var)`: the code run when branch b has outcome may write var.
    region_may_def(b, outcome, var);
    /// `loop_head(p)`: p heads a loop.
    loop_head(p);
    /// `loop_body(head, p)`: p belongs to the loop headed by head.
    loop_body(head, p);
    /// `loop_modifies(head, var)`: the loop headed by head may write var.
    loop_modifies(head, var);
    /// `block_parent(b, parent)`: static block b is nested directly in parent.
    block_parent(b, parent);
    /// `point_block(p, b)`: p belongs to static block b (innermost).
    point_block(p, b);
    /// `point_unit(p, unit)`: p was lowered from source statement or condition unit.
    point_unit(p, unit);
    /// `unit(unit, kind, line, col, text)`: a source statement or condition.
    unit(unit, kind, line, col, text);
    /// `input(name, lo, hi)`: an input of the run and the range of its type.
    input(name, lo, hi);
    /// `reachable_proc(proc)`: proc can be called from the entry.
    reachable_proc(proc);
    /// `left_out(name, line, reason)`: a function outside Cimple, not analysed.
    left_out(name, line, reason);
}

/// Lowers a program to relations, rows sorted.
pub fn all_facts(p: &Program, a: &Analysis) -> AllFacts {
    let mut f = AllFacts::default();
    let var = |v: &VarId| p.qualified_name(*v);
    let pt = |n: &NodeId| n.to_string();
    let lc = |span| {
        let l = p.source.start(span);
        (l.line.to_string(), l.col.to_string())
    };
    let one_line = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    for id in p.node_ids() {
        let node = p.node(id);
        let (line, col) = lc(node.span);
        let proc = p.proc(node.proc).name.clone();
        let (kind, text) = match &node.kind {
            NodeKind::Assign { place, value, .. } => {
                f.assign.push(vec![pt(&id), show_place(p, place), show_expr(p, value)]);
                ("assign", format!("{} = {}", show_place(p, place), show_expr(p, value)))
            }
            NodeKind::Havoc { place, ty, .. } => {
                f.havoc.push(vec![pt(&id), show_place(p, place), ty.c_name().into()]);
                ("havoc", format!("{} = nondet {}", show_place(p, place), ty.c_name()))
            }
            NodeKind::Branch { cond, then_, else_ } => {
                let atom = match cond {
                    Cond::Atom(a) => show_atom(p, a),
                    Cond::Nondet => "*".into(),
                };
                f.branch_atom.push(vec![pt(&id), atom.clone()]);
                f.branch_edge.push(vec![pt(&id), "true".into(), pt(then_)]);
                f.branch_edge.push(vec![pt(&id), "false".into(), pt(else_)]);
                ("branch", atom)
            }
            NodeKind::Call {
                callee, args, result, ..
            } => {
                let c = p.proc(*callee);
                f.call.push(vec![pt(&id), c.name.clone()]);
                for (param, e) in c.params.iter().zip(args) {
                    f.call_arg.push(vec![pt(&id), var(param), show_expr(p, e)]);
                }
                if let Some(r) = result {
                    f.call_result.push(vec![pt(&id), show_place(p, r)]);
                }
                let args: Vec<String> = args.iter().map(|e| show_expr(p, e)).collect();
                ("call", format!("{}({})", c.name, args.join(", ")))
            }
            NodeKind::Return { value, .. } => {
                if let Some(e) = value {
                    f.return_value.push(vec![pt(&id), show_expr(p, e)]);
                }
                (
                    "return",
                    value
                        .as_ref()
                        .map(|e| format!("return {}", show_expr(p, e)))
                        .unwrap_or("return".into()),
                )
            }
            NodeKind::Error { site } => {
                f.error_point
                    .push(vec![pt(&id), site.to_string(), p.site(*site).kind.json_name().into()]);
                ("error", one_line(p.text(p.site(*site).span)))
            }
            NodeKind::Halt => {
                f.halt_point.push(vec![pt(&id)]);
                ("halt", one_line(p.text(node.span)))
            }
            NodeKind::Exit => ("exit", String::new()),
            NodeKind::Skip { .. } => ("skip", String::new()),
        };
        f.point.push(vec![pt(&id), proc, line, col, kind.into(), text]);
        for s in node.successors() {
            f.cfg_edge.push(vec![pt(&id), pt(&s)]);
        }
        f.defs.extend(a.defs[id.index()].iter().map(|v| vec![pt(&id), var(v)]));
        f.uses.extend(a.uses[id.index()].iter().map(|v| vec![pt(&id), var(v)]));
        if let Some(q) = a.ipdom[id.index()] {
            f.ipdom.push(vec![pt(&id), pt(&q)]);
        }
        for (b, o) in &a.control_deps[id.index()] {
            f.control_dep.push(vec![pt(&id), pt(b), o.to_string()]);
        }
        f.point_block.push(vec![pt(&id), node.block.to_string()]);
        f.point_unit.push(vec![pt(&id), node.unit.to_string()]);
    }
    for (i, s) in p.sites.iter().enumerate() {
        if matches!(s.kind, SiteKind::Bounds | SiteKind::DivByZero | SiteKind::Overflow) {
            let (line, col) = lc(s.span);
            f.check_site
                .push(vec![SiteId(i as u32).to_string(), s.kind.json_name().into(), line, col]);
        }
    }
    for ((b, o), vars) in &a.region_defs {
        f.region_may_def
            .extend(vars.iter().map(|v| vec![pt(b), o.to_string(), var(v)]));
    }
    for pid in p.proc_ids() {
        let pr = p.proc(pid);
        f.proc_entry.push(vec![pr.name.clone(), pt(&pr.entry)]);
        f.proc_exit.push(vec![pr.name.clone(), pt(&pr.exit)]);
        for (i, v) in pr.params.iter().enumerate() {
            f.param.push(vec![pr.name.clone(), i.to_string(), var(v)]);
        }
        f.proc_may_def
            .extend(a.proc_mod[pid.index()].iter().map(|v| vec![pr.name.clone(), var(v)]));
        f.proc_may_use
            .extend(a.proc_ref[pid.index()].iter().map(|v| vec![pr.name.clone(), var(v)]));
    }
    for l in &a.loops {
        f.loop_head.push(vec![pt(&l.head)]);
        f.loop_body.extend(l.body.iter().map(|x| vec![pt(&l.head), pt(x)]));
        f.loop_modifies
            .extend(l.modifies.iter().map(|v| vec![pt(&l.head), var(v)]));
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
    for pid in &a.reachable_procs {
        f.reachable_proc.push(vec![p.proc(*pid).name.clone()]);
    }
    for lo in &p.left_out {
        let why = lo.reasons.first().map(|r| r.1.clone()).unwrap_or_default();
        f.left_out.push(vec![lo.name.clone(), p.line(lo.span).to_string(), why]);
    }
    f
}

/// Renders relations as text: per relation a `# name(columns): doc` line,
/// then its rows sorted, tab-separated, each starting with the name.
pub fn render(relations: Vec<Relation>) -> String {
    let mut out = String::new();
    for mut r in relations {
        out.push_str(&format!("# {}({}): {}\n", r.name, r.columns.join(", "), r.doc.trim()));
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
