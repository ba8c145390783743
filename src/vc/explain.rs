//! The labels of a VC and the sentences made from them (seed 002, §1.1):
//! every hypothesis gets a label kind (`asm_pre`, `asm_inv`, `asm_inv_exit`,
//! `while_t`, `while_f`, `then`, `else`, `asgn`, `upd`, `asm` for a callee's
//! contract, ...) from the command that made it, and the conclusion one of
//! `ens_post`, `ens_inv`, `ens_inv_iter`, `ens_specs`, `assert` or a
//! run-time check's kind. Sentences come from the labels only: bullets in
//! line order, the purpose from the contributor (`pres_inv`, a path that
//! enters a loop's body from its cut) when there is one, else from the
//! conclusion.

use super::contract::{Blame, Given, Vc, VcStatus};
use super::gc::{CheckKey, Cmd, Gc, Note, SpecCheck};
use crate::facts::Analysis;
use crate::ir::contract::ClauseId;
use crate::ir::*;
use crate::syntax::source::Span;

/// What a hypothesis stands for in the source.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Label {
    /// Where its command is: block and index.
    pub block: usize,
    pub index: usize,
    pub kind: &'static str,
    pub line: u32,
    pub text: String,
    /// The same as a noun phrase ("the loop invariant at line 6").
    pub noun: String,
    pub role: Role,
}

/// A hypothesis's sentence as a noun phrase, for "these make it false".
fn noun(kind: &str, text: &str) -> String {
    match kind {
        "while_t" | "while_f" => text.replace(" holds at", " at").replace(" is false at", " (false) at"),
        "cond" => format!(
            "the condition {}",
            text.replace(" is true", "").replace(" is false", "")
        ),
        _ => {
            let t = text
                .replacen(" is chosen", "", 1)
                .replacen(" passes its arguments", "", 1)
                .replacen(" is stored", "", 1);
            match t.find(" holds") {
                Some(i) => t[..i].to_string(),
                None => t,
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// A statement or a branch of the code.
    Code,
    /// A specification: precondition, invariant, a callee's contract.
    Spec,
    /// Types, checks already shown by another VC: in the formula, not in
    /// the sentence.
    Hidden,
}

/// Is block `b` a loop cut: the head instance where the loop's variables
/// are havocked and its invariants assumed?
pub fn is_cut(gc: &Gc, a: &Analysis, b: usize) -> bool {
    matches!(gc.blocks[b].origin.at(), Some(o) if o.outcome.is_none() && a.loop_at.contains_key(&o.node))
}

fn one_line(p: &Program, span: Span) -> String {
    p.text(span).split_whitespace().collect::<Vec<_>>().join(" ")
}

fn clause_line(p: &Program, c: ClauseId) -> u32 {
    p.line(p.contracts.clause(c).span)
}

fn proc_name(p: &Program, f: ProcId) -> &str {
    &p.proc(f).name
}

/// The loop a branch node tests the condition of, if it does.
fn loop_of_condition(p: &Program, a: &Analysis, n: NodeId) -> Option<usize> {
    let node = p.node(n);
    for (i, l) in a.loops.iter().enumerate() {
        if !l.body.contains(&n) {
            continue;
        }
        if node.successors().contains(&l.head) {
            return Some(i);
        }
        // The first test after the head (while, for).
        let mut cur = l.head;
        for _ in 0..64 {
            match &p.node(cur).kind {
                NodeKind::Skip { next } => cur = *next,
                NodeKind::Branch { .. } => break,
                _ => break,
            }
        }
        if matches!(p.node(cur).kind, NodeKind::Branch { .. }) && p.node(cur).unit == node.unit {
            return Some(i);
        }
    }
    None
}

/// The label of command `index` of the block at `pos` on `path`.
pub fn label(p: &Program, a: &Analysis, gc: &Gc, path: &[usize], pos: usize, index: usize) -> Option<Label> {
    let b = path[pos];
    let block = &gc.blocks[b];
    let cmd = &block.cmds[index];
    let mk = |kind: &'static str, line: u32, text: String, role: Role| {
        Some(Label {
            block: b,
            index,
            kind,
            line,
            noun: noun(kind, &text),
            text,
            role,
        })
    };
    if let Some(note) = gc.notes.get(&(b, index)) {
        return match *note {
            Note::Initial(v) => {
                let var = p.var(v);
                let line = p.line(var.span);
                if matches!(var.init, VarInit::Values(_)) {
                    // The memory model's own globals (a heap object's size
                    // and state) are no code of the program.
                    let internal = crate::ir::pointers::is_internal(&var.name);
                    mk(
                        "init",
                        line,
                        format!("the initial value of `{}` (line {line})", var.name),
                        if internal { Role::Hidden } else { Role::Code },
                    )
                } else {
                    mk(
                        "type",
                        line,
                        format!("`{}` is any value of its type", var.name),
                        Role::Hidden,
                    )
                }
            }
            Note::Pre(c) => {
                let line = clause_line(p, c);
                mk(
                    "asm_pre",
                    line,
                    format!("the precondition at line {line} holds"),
                    Role::Spec,
                )
            }
            Note::Inv(c) => {
                let line = clause_line(p, c);
                let at = block.origin.at().map(|o| o.node);
                let exits = at
                    .and_then(|h| a.loop_at.get(&h))
                    .is_some_and(|&l| leaves_loop(p, a, gc, &path[pos + 1..], l));
                let label_name = at
                    .and_then(|h| p.contracts.invariants_at(h))
                    .and_then(|i| i.label.clone());
                match (label_name, exits) {
                    (Some(name), _) => mk(
                        "asm_inv",
                        line,
                        format!("the invariant of label `{name}` at line {line} holds"),
                        Role::Spec,
                    ),
                    (_, true) => mk(
                        "asm_inv_exit",
                        line,
                        format!("the loop invariant at line {line} holds when the loop exits"),
                        Role::Spec,
                    ),
                    _ => mk(
                        "asm_inv",
                        line,
                        format!("the loop invariant at line {line} holds"),
                        Role::Spec,
                    ),
                }
            }
            Note::CalleePost { clause, call } => {
                let line = clause_line(p, clause);
                let callee = p.contracts.clause(clause).proc;
                let at = p.line(p.node(call).span);
                mk(
                    "asm",
                    line,
                    format!(
                        "the postcondition of `{}` at line {line} holds after the call at line {at}",
                        proc_name(p, callee)
                    ),
                    Role::Spec,
                )
            }
            Note::CalleePre { clause, call } => {
                let at = p.line(p.node(call).span);
                mk(
                    "asm",
                    at,
                    format!("the precondition at line {} holds", clause_line(p, clause)),
                    Role::Hidden,
                )
            }
            Note::CalleeHavoc { call } => {
                let at = p.line(p.node(call).span);
                mk(
                    "havoc",
                    at,
                    format!("what the call at line {at} may change"),
                    Role::Hidden,
                )
            }
            Note::Assert(c) => {
                let line = clause_line(p, c);
                mk(
                    "assert",
                    line,
                    format!("the assertion at line {line} holds"),
                    Role::Hidden,
                )
            }
        };
    }
    let o = block.origin.at()?;
    let node = p.node(o.node);
    let line = p.line(node.span);
    let text = one_line(p, p.unit(node.unit).span);
    if let Some(outcome) = o.outcome {
        if !matches!(cmd, Cmd::Assume(_)) {
            return None;
        }
        // The memory model's split at an access: the object it reaches,
        // as the source names it; its other tests say nothing to a reader.
        if p.is_access_branch(o.node) {
            return match p.split_object(o.node).filter(|_| outcome) {
                Some(obj) => mk(
                    "access",
                    line,
                    format!("`{text}` at line {line} {}", obj.reached()),
                    Role::Code,
                ),
                None => mk(
                    "access",
                    line,
                    format!("the access at line {line} is valid"),
                    Role::Hidden,
                ),
            };
        }
        let decided = p.cond_exits.get(&(o.node, outcome)).copied();
        return match (loop_of_condition(p, a, o.node), decided) {
            (Some(_), Some(true)) => mk(
                "while_t",
                line,
                format!("the loop condition holds at line {line}"),
                Role::Code,
            ),
            (Some(_), Some(false)) => mk(
                "while_f",
                line,
                format!("the loop condition is false at line {line}"),
                Role::Code,
            ),
            (None, Some(true)) => mk(
                "then",
                line,
                format!("the \"then\" branch is chosen at line {line}"),
                Role::Code,
            ),
            (None, Some(false)) => mk(
                "else",
                line,
                format!("the \"else\" branch is chosen at line {line}"),
                Role::Code,
            ),
            (_, None) => {
                let atom = match &node.kind {
                    NodeKind::Branch {
                        cond: Cond::Atom(at), ..
                    } => show_atom(p, at),
                    _ => text.clone(),
                };
                mk(
                    "cond",
                    line,
                    format!("`{atom}` is {outcome} at line {line}"),
                    Role::Code,
                )
            }
        };
    }
    match (&node.kind, cmd) {
        // A temporary of the memory model: the access names what it reads.
        (NodeKind::Assign { place, .. }, _) if p.is_model_write(o.node, place.var) => mk(
            "access",
            line,
            format!("the value `{text}` reads at line {line}"),
            Role::Hidden,
        ),
        (NodeKind::Assign { place, .. }, Cmd::Assign(..)) if place.index.is_none() => mk(
            "asgn",
            line,
            format!("the assignment `{text}` at line {line}"),
            Role::Code,
        ),
        (NodeKind::Assign { .. }, Cmd::Store(..)) => mk(
            "upd",
            line,
            format!("the array update `{text}` at line {line}"),
            Role::Code,
        ),
        (NodeKind::Assign { .. }, Cmd::Assign(..)) => mk(
            "asgn",
            line,
            format!("the assignment `{text}` at line {line}"),
            Role::Code,
        ),
        (NodeKind::Havoc { .. }, Cmd::Assign(..) | Cmd::Store(..)) => {
            mk("havoc", line, format!("the value chosen at line {line}"), Role::Code)
        }
        (NodeKind::Call { callee, .. }, Cmd::Assign(k, _)) if p.proc(*callee).params.contains(&k.var) => mk(
            "call",
            line,
            format!("the call `{text}` at line {line} passes its arguments"),
            Role::Code,
        ),
        (NodeKind::Call { .. }, Cmd::Assign(..) | Cmd::Store(..)) => mk(
            "ret",
            line,
            format!("the result of the call at line {line} is stored"),
            Role::Code,
        ),
        (NodeKind::Return { .. }, Cmd::Assign(..)) => mk("ret", line, format!("`{text}` at line {line}"), Role::Code),
        (NodeKind::Exit, Cmd::Assign(..) | Cmd::Store(..)) => {
            // The Return event of the block names the call.
            let call = block.cmds.iter().find_map(|c| match c {
                Cmd::Event(e) => Some(e.span),
                _ => None,
            });
            let at = call.map(|s| p.line(s)).unwrap_or(line);
            mk(
                "ret",
                at,
                format!("the value returned by `{}` to line {at}", proc_name(p, node.proc)),
                Role::Code,
            )
        }
        (NodeKind::Halt, Cmd::Assume(_)) => mk("halt", line, format!("the run stops at line {line}"), Role::Code),
        _ => mk("check", line, format!("the checks at line {line} passed"), Role::Hidden),
    }
}

/// Does the rest of the path leave loop `l` through its condition?
fn leaves_loop(p: &Program, a: &Analysis, gc: &Gc, rest: &[usize], l: usize) -> bool {
    rest.iter().any(|&b| match gc.blocks[b].origin.at() {
        Some(o) => match o.outcome {
            Some(out) => loop_of_condition(p, a, o.node) == Some(l) && p.cond_exits.get(&(o.node, out)) == Some(&false),
            None => false,
        },
        None => false,
    })
}

/// The sentences of one VC: its conclusion, purpose and the path's shape.
pub struct Sentences<'a> {
    p: &'a Program,
    key: CheckKey,
    function: String,
    show: Given,
    /// The line the check is made at (a call, the statement before the
    /// return, a loop head), when it differs from the show's line.
    site_line: u32,
    purpose: String,
}

impl<'a> Sentences<'a> {
    pub fn new(p: &'a Program, a: &Analysis, gc: &Gc, path: &[usize], last: usize, key: CheckKey) -> Sentences<'a> {
        let function = p.proc(p.entry).name.clone();
        let end = path[path.len() - 1];
        let check_node = match gc.blocks[end].cmds.get(last) {
            Some(Cmd::Assert(_, c)) => Some(gc.checks[*c].node),
            _ => None,
        };
        let site_line = check_node.map(|n| p.line(p.node(n).span)).unwrap_or(0);
        let after = after_text(p, a, gc, path);
        let (kind, line, text) = match key {
            CheckKey::Spec(SpecCheck::Post(c)) => {
                let l = clause_line(p, c);
                (
                    "ens_post",
                    l,
                    format!("the postcondition at line {l} holds when `{function}` returns{after}"),
                )
            }
            CheckKey::Spec(SpecCheck::Frame(c, v)) => {
                let l = clause_line(p, c);
                (
                    "ens_post",
                    l,
                    format!(
                        "`{}` is unchanged when `{function}` returns{after}, as the assigns clause at line {l} says",
                        p.var(v).name
                    ),
                )
            }
            CheckKey::Spec(SpecCheck::Inv { clause, init }) => {
                let l = clause_line(p, clause);
                let at = check_node.and_then(|n| p.contracts.invariants_at(n));
                match (at.and_then(|i| i.label.clone()), init) {
                    (Some(name), true) if !check_node.is_some_and(|n| a.loop_at.contains_key(&n)) => (
                        "ens_inv",
                        l,
                        format!(
                            "the invariant of label `{name}` at line {l} holds when control reaches line {site_line}"
                        ),
                    ),
                    (Some(name), true) => (
                        "ens_inv",
                        l,
                        format!(
                            "the invariant of label `{name}` at line {l} holds when control first reaches line {site_line}"
                        ),
                    ),
                    (Some(name), false) => (
                        "ens_inv_iter",
                        l,
                        format!("the invariant of label `{name}` at line {l} holds again{after}"),
                    ),
                    (_, true) => (
                        "ens_inv",
                        l,
                        format!("the loop invariant at line {l} holds at the loop entry point at line {site_line}"),
                    ),
                    (_, false) => (
                        "ens_inv_iter",
                        l,
                        format!("the loop invariant at line {l} holds again after the iteration{after}"),
                    ),
                }
            }
            CheckKey::Spec(SpecCheck::CalleePre { clause, call }) => {
                let l = clause_line(p, clause);
                let callee = proc_name(p, p.contracts.clause(clause).proc);
                let at = p.line(p.node(call).span);
                (
                    "ens_specs",
                    l,
                    format!("the precondition of `{callee}` at line {l} holds at the call at line {at}"),
                )
            }
            CheckKey::Spec(SpecCheck::Assert(c)) => {
                let l = clause_line(p, c);
                ("assert", l, format!("the assertion at line {l} holds"))
            }
            CheckKey::Site(s) => {
                let site = p.site(s);
                let at = p.source.start(site.span);
                let l = at.line;
                let t = format!("{}` at {}:{}", one_line(p, site.span), at.line, at.col);
                match site.kind {
                    SiteKind::Assert => ("assert", l, format!("the assertion `{t} holds")),
                    SiteKind::ReachError => ("reach_error", l, format!("`{t} is not reached")),
                    SiteKind::Bounds => ("bounds", l, format!("the index in `{t} is within the array's bounds")),
                    SiteKind::DivByZero => ("div_by_zero", l, format!("the divisor in `{t} is not zero")),
                    SiteKind::Overflow => ("overflow", l, format!("`{t} does not overflow")),
                    SiteKind::Shift => ("shift", l, format!("the shift `{t} is defined")),
                    SiteKind::Deref => ("deref", l, format!("the access `{t} is valid")),
                    SiteKind::Limit if p.site(s).vla => (
                        "limit",
                        l,
                        format!("the variable-length array `{t} fits the model (--vla-elems)"),
                    ),
                    SiteKind::Limit if p.site(s).past_elements() => (
                        "limit",
                        l,
                        format!("the access `{t} is within the elements the model holds (--param-elems)"),
                    ),
                    SiteKind::Limit if p.site(s).pool => (
                        "limit",
                        l,
                        format!("the call `{t} allocates no more objects than it has (--heap-instances)"),
                    ),
                    SiteKind::Limit => ("limit", l, format!("the allocation `{t} fits the heap model")),
                    SiteKind::Leak => ("leak", l, format!("no object leaks at `{t}")),
                }
            }
            _ => ("check", site_line, "the check holds".to_string()),
        };
        let show = Given {
            label: kind,
            line,
            text,
        };
        let purpose = match preserving(p, a, gc, path) {
            Some(l) => {
                let head = p.line(p.node(a.loops[l].head).span);
                match p.contracts.invariants_at(a.loops[l].head) {
                    Some(inv) if !inv.clauses.is_empty() => {
                        let lines: Vec<String> = inv.clauses.iter().map(|&c| clause_line(p, c).to_string()).collect();
                        format!(
                            "Its purpose is to preserve the loop invariant at line {} on each iteration of the loop at line {head}.",
                            lines.join(", ")
                        )
                    }
                    _ => format!(
                        "Its purpose is to check the body of the loop at line {head} (the loop has no invariant)."
                    ),
                }
            }
            None => match (kind, key) {
                ("ens_post", CheckKey::Spec(SpecCheck::Frame(c, _))) => format!(
                    "Its purpose is to ensure that `{function}` changes only what the assigns clause at line {} names.",
                    clause_line(p, c)
                ),
                ("ens_post", _) => {
                    format!("Its purpose is to ensure that the postcondition at line {line} holds when `{function}` returns.")
                }
                ("ens_inv", _) => format!("Its purpose is to ensure that {}.", show.text),
                ("ens_specs", CheckKey::Spec(SpecCheck::CalleePre { clause, call })) => format!(
                    "Its purpose is to ensure that the precondition of `{}` holds at the call at line {}.",
                    proc_name(p, p.contracts.clause(clause).proc),
                    p.line(p.node(call).span)
                ),
                _ => format!("Its purpose is to ensure that {}.", show.text),
            },
        };
        Sentences {
            p,
            key,
            function,
            show,
            site_line,
            purpose,
        }
    }

    /// The VC's explanation from the labels of its hypotheses.
    pub fn vc(&self, labels: &[&Label]) -> Vc {
        let given = bullets(labels);
        let mut lines: Vec<u32> = given.iter().map(|g| g.line).collect();
        lines.push(self.show.line);
        if self.site_line > 0 {
            lines.push(self.site_line);
        }
        lines.retain(|&l| l > 0);
        let lo = lines.iter().copied().min().unwrap_or(0);
        let hi = lines.iter().copied().max().unwrap_or(0);
        Vc {
            id: 0,
            function: self.function.clone(),
            kind: self.show.label,
            lines: (lo, hi),
            status: VcStatus::Unknown,
            purpose: self.purpose.clone(),
            given,
            show: self.show.clone(),
            blame: Blame::None,
            model: Vec::new(),
            model_text: Vec::new(),
            at_head: Vec::new(),
            note: None,
            replayed: None,
            key: self.key,
        }
    }

    /// The unsat core's hypotheses: the code is wrong there.
    pub fn wrong(&self, core: &[&Label]) -> Blame {
        let all = given(core, true);
        let (code, specs): (Vec<Given>, Vec<Given>) = all
            .into_iter()
            .partition(|g| !matches!(g.label, "asm_pre" | "asm_inv" | "asm_inv_exit" | "asm"));
        Blame::Wrong { code, specs }
    }

    /// No core: which specification may be missing something.
    pub fn weak(&self, labels: &[&Label]) -> Blame {
        let p = self.p;
        let spec = |kind: &str| labels.iter().find(|l| l.kind == kind).map(|l| l.line);
        let inv = spec("asm_inv").or(spec("asm_inv_exit"));
        let callee = labels.iter().find(|l| l.kind == "asm" && l.role == Role::Spec);
        let pre = spec("asm_pre");
        let mut parts = Vec::new();
        if let Some(l) = inv {
            parts.push(format!("the loop invariant at line {l}"));
        }
        if let Some(c) = callee {
            parts.push(format!("the postcondition at line {} of the function called", c.line));
        }
        let written = p
            .contracts
            .of(p.entry)
            .and_then(|fc| fc.requires.first())
            .map(|&c| clause_line(p, c));
        match pre.or(written) {
            Some(l) => parts.push(format!("the precondition at line {l}")),
            None => parts.push(format!("a precondition of `{}`", self.function)),
        }
        Blame::Weak(format!(
            "Nothing here contradicts it: a specification is too weak. {} may be missing what makes it hold.",
            capitalise(&join_or(&parts))
        ))
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn join_or(parts: &[String]) -> String {
    match parts.len() {
        0 => String::new(),
        1 => parts[0].clone(),
        n => format!("{} or {}", parts[..n - 1].join(", "), parts[n - 1]),
    }
}

/// Shown labels as bullets, in line order (then path order), without
/// repeats; `nouns` gives noun phrases instead of sentences.
fn bullets(labels: &[&Label]) -> Vec<Given> {
    given(labels, false)
}

fn given(labels: &[&Label], nouns: bool) -> Vec<Given> {
    let mut shown: Vec<(usize, &Label)> = labels
        .iter()
        .enumerate()
        .filter(|(_, l)| l.role != Role::Hidden)
        .map(|(i, l)| (i, *l))
        .collect();
    shown.sort_by_key(|(i, l)| (l.line, *i));
    let mut out: Vec<Given> = Vec::new();
    for (_, l) in shown {
        let text = if nouns { &l.noun } else { &l.text };
        if !out.iter().any(|g| g.label == l.kind && g.text == *text) {
            out.push(Given {
                label: l.kind,
                line: l.line,
                text: text.clone(),
            });
        }
    }
    out
}

/// The loop whose body the path enters after its last cut: the VC then
/// contributes to preserving that loop's invariant (`pres_inv`).
fn preserving(p: &Program, a: &Analysis, gc: &Gc, path: &[usize]) -> Option<usize> {
    let cut = path.iter().rposition(|&b| is_cut(gc, a, b))?;
    let head = gc.blocks[path[cut]].origin.at()?.node;
    let l = *a.loop_at.get(&head)?;
    let body = &a.loops[l].body;
    let enters = path[cut + 1..].iter().any(|&b| match gc.blocks[b].origin.at() {
        Some(o) if o.node != head && body.contains(&o.node) => match o.outcome {
            Some(out) => match &p.node(o.node).kind {
                NodeKind::Branch { then_, else_, .. } => body.contains(if out { then_ } else { else_ }),
                _ => true,
            },
            // A branch's own block only evaluates its operands.
            None => !matches!(p.node(o.node).kind, NodeKind::Branch { .. }),
        },
        _ => false,
    });
    // A back edge (invariant after the iteration) also ends such a path.
    enters.then_some(l)
}

/// ", after `stmt` at line N": the last statement of the path before its
/// end (a `goto`, `break` or `continue` right after it is named instead).
fn after_text(p: &Program, a: &Analysis, gc: &Gc, path: &[usize]) -> String {
    let last = path[..path.len().saturating_sub(1)].iter().rev().find_map(|&b| {
        let o = gc.blocks[b].origin.at()?;
        let node = p.node(o.node);
        let unit = p.unit(node.unit);
        match (&node.kind, unit.kind) {
            (NodeKind::Exit, _) | (_, UnitKind::Label) => None,
            _ => Some((o, unit.span)),
        }
    });
    let Some((o, span)) = last else {
        return String::new();
    };
    let line = p.line(span);
    if let Some(out) = o.outcome {
        return match (loop_of_condition(p, a, o.node), p.cond_exits.get(&(o.node, out))) {
            (Some(l), Some(false)) => {
                format!(", after the loop at line {} ends", p.line(p.node(a.loops[l].head).span))
            }
            _ => format!(", after the condition at line {line}"),
        };
    }
    let text = &p.source.text;
    let mut at = span.hi as usize;
    while at < text.len() && (text.as_bytes()[at].is_ascii_whitespace() || text.as_bytes()[at] == b';') {
        at += 1;
    }
    for jump in ["goto", "break", "continue"] {
        if text[at..].starts_with(jump) {
            if let Some(end) = text[at..].find(';') {
                let j = Span::new(at, at + end + 1);
                return format!(", after `{}` at line {}", one_line(p, j), p.line(j));
            }
        }
    }
    format!(", after `{}` at line {line}", one_line(p, span))
}

/// The VC as text, in the seed's form.
pub fn render(vc: &Vc) -> String {
    let mut out = format!(
        "VC {} (lines {}-{}, function {}): {}\n",
        vc.id,
        vc.lines.0,
        vc.lines.1,
        vc.function,
        vc.status.name()
    );
    if vc.given.is_empty() {
        out.push_str(&format!("  {} Show that {}.\n", vc.purpose, vc.show.text));
    } else {
        out.push_str(&format!("  {} Hence, given\n", vc.purpose));
        for g in &vc.given {
            out.push_str(&format!("    - {},\n", g.text));
        }
        out.push_str(&format!("  show that {}.\n", vc.show.text));
    }
    match &vc.blame {
        Blame::Wrong { code, specs } => {
            let names = |gs: &[Given]| gs.iter().map(|g| g.text.clone()).collect::<Vec<_>>().join(", ");
            let line = match (code.is_empty(), specs.is_empty()) {
                (false, false) => format!("These make it false: {} (with {}).", names(code), names(specs)),
                (false, true) => format!("These make it false: {}.", names(code)),
                (true, false) => format!(
                    "These make it false: {} (the specifications contradict it, whatever the code does).",
                    names(specs)
                ),
                (true, true) => "It can never hold, whatever the code does.".to_string(),
            };
            out.push_str(&format!("  {line}\n"));
        }
        Blame::Weak(s) => out.push_str(&format!("  {s}\n")),
        Blame::None => {}
    }
    if vc.status == VcStatus::Failed && !(vc.model_text.is_empty() && vc.at_head.is_empty()) {
        let list = |xs: &mut dyn Iterator<Item = (&String, String)>| {
            xs.map(|(n, v)| format!("{n} = {v}")).collect::<Vec<_>>().join(", ")
        };
        let mut line = list(&mut vc.model_text.iter().map(|(n, v)| (n, v.clone())));
        if !vc.at_head.is_empty() {
            if !line.is_empty() {
                line.push_str("; ");
            }
            line.push_str(&format!(
                "at the loop head: {}",
                list(&mut vc.at_head.iter().map(|(n, v)| (n, v.to_string())))
            ));
        }
        out.push_str(&format!("  Counterexample: {line}\n"));
    }
    match vc.replayed {
        Some(true) => out.push_str("  The interpreter, run on these inputs, violates it.\n"),
        Some(false) => out.push_str("  The interpreter, run on these inputs, does not violate it.\n"),
        None => {}
    }
    if let Some(n) = &vc.note {
        out.push_str(&format!("  Note: {n}.\n"));
    }
    out
}
