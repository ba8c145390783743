//! `verify PROGRAM --witness W`: a correctness witness (format 2.0, an
//! `invariant_set`, written by focuscheck or any other tool) validated on
//! its own: the VC engine proves the program with the witness's loop
//! invariants as its only ones (no inferred ones): each must hold on entry
//! and be maintained, and no `reach_error` call (nor failed `assert`) may
//! be reachable. `--loops havoc` first; when that leaves a check open but
//! every invariant is inductive, k-induction (k = 2) assuming them.
//!
//! The invariants are read as the program's own ACSL would be: each
//! `loop_invariant` is written into the program's text as a `/*@ loop
//! invariant E; */` at its location (the loop's keyword), each
//! `location_invariant` as a `/*@ assert E; */` before its statement. A
//! program with ACSL beyond loop invariants (asserts, contracts) has it
//! instrumented as the checks `check` makes, so the proof must show them.

use crate::facts::Analysis;
use crate::ir::lower::LowerOptions;
use crate::ir::{Program, SiteKind};
use crate::syntax::yaml::{self, Yaml};
use crate::vc::{self, gc::CheckKey, gc::SpecCheck, kinduction, Loops, Outcome};
use std::path::Path;
use std::time::Instant;

/// One invariant of the witness: its line in the witness, where it is in
/// the program (line, column if given), its C expression, and whether it
/// is a `location_invariant` (else a `loop_invariant`).
#[derive(Clone, Debug)]
struct Stated {
    at: u32,
    line: u32,
    column: Option<u32>,
    value: String,
    location: bool,
}

/// Why a witness is not read: `W:LINE: ...` (exit 2).
pub struct Malformed(pub String);

fn field<'a>(w: &str, node: &'a Yaml, key: &str) -> Result<&'a Yaml, Malformed> {
    node.get(key)
        .ok_or_else(|| Malformed(format!("{w}:{}: missing `{key}`", node.line)))
}

fn number(w: &str, node: &Yaml) -> Result<u32, Malformed> {
    node.as_str()
        .and_then(|s| s.parse::<u32>().ok())
        .filter(|&n| n >= 1)
        .ok_or_else(|| Malformed(format!("{w}:{}: expected a positive number", node.line)))
}

/// The loop invariants of a correctness witness's text.
fn read(w: &str, text: &str) -> Result<Vec<Stated>, Malformed> {
    let doc = yaml::parse(text).map_err(|(line, why)| Malformed(format!("{w}:{line}: {why}")))?;
    let entries = doc
        .as_seq()
        .ok_or_else(|| Malformed(format!("{w}:{}: a witness is a sequence of entries", doc.line)))?;
    let mut out = Vec::new();
    for entry in entries {
        let kind = field(w, entry, "entry_type")?;
        match kind.as_str() {
            Some("invariant_set") => {}
            Some("violation_sequence") => {
                return Err(Malformed(format!(
                    "{w}:{}: a violation witness (follow it with `focuscheck run --witness`)",
                    kind.line
                )))
            }
            other => {
                return Err(Malformed(format!(
                    "{w}:{}: entry type `{}` is not read (only `invariant_set`)",
                    kind.line,
                    other.unwrap_or("?")
                )))
            }
        }
        let content = field(w, entry, "content")?;
        let items = content
            .as_seq()
            .ok_or_else(|| Malformed(format!("{w}:{}: `content` is a sequence", content.line)))?;
        for item in items {
            let inv = field(w, item, "invariant")?;
            let ty = field(w, inv, "type")?;
            let location = match ty.as_str() {
                Some("loop_invariant") => false,
                Some("location_invariant") => true,
                other => {
                    return Err(Malformed(format!(
                        "{w}:{}: invariant type `{}` is not read (only `loop_invariant`, `location_invariant`)",
                        ty.line,
                        other.unwrap_or("?")
                    )))
                }
            };
            let acsl = match inv.get("format") {
                None => false,
                Some(f) => match f.as_str() {
                    Some("c_expression") => false,
                    Some("acsl_expression") => true,
                    _ => {
                        return Err(Malformed(format!(
                            "{w}:{}: only the formats `c_expression` and `acsl_expression` are read",
                            f.line
                        )))
                    }
                },
            };
            let loc = field(w, inv, "location")?;
            let value = field(w, inv, "value")?;
            let value = value
                .as_str()
                .filter(|v| !v.trim().is_empty() && !v.contains("*/") && !v.contains('\n'))
                .filter(|v| semicolons_bind(v, acsl))
                .ok_or_else(|| Malformed(format!("{w}:{}: `value` is not one C or ACSL expression", value.line)))?;
            out.push(Stated {
                at: item.line,
                line: number(w, field(w, loc, "line")?)?,
                column: loc.get("column").map(|c| number(w, c)).transpose()?,
                value: value.to_string(),
                location,
            });
        }
    }
    Ok(out)
}

/// Does every `;` of `value` end a quantifier's binder (`\forall int k;`),
/// as ACSL writes one (`acsl`), so that the value is one expression and
/// not several clauses? A C expression has none.
fn semicolons_bind(value: &str, acsl: bool) -> bool {
    value.match_indices(';').all(|(at, _)| {
        let before = &value[..at];
        let quantifier = ["\\forall", "\\exists"]
            .iter()
            .filter_map(|q| before.rfind(q).map(|i| i + q.len()))
            .max();
        acsl && quantifier.is_some_and(|q| {
            let binder = &before[q..];
            binder.starts_with(char::is_whitespace)
                && binder
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ',' || c.is_whitespace())
        })
    })
}

/// Is there a loop keyword at byte `i` of `line`?
fn keyword_at(line: &str, i: usize) -> bool {
    let word_start = i == 0 || !line.as_bytes()[i - 1].is_ascii_alphanumeric() && line.as_bytes()[i - 1] != b'_';
    let rest = &line[i..];
    word_start
        && ["while", "for", "do"].iter().any(|k| {
            rest.strip_prefix(k)
                .is_some_and(|r| !r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
        })
}

/// Where a location invariant goes: at `column` (1-based) of the line
/// starting at `start` if given, else the line's first character not
/// blank; a statement within a block (after `;`, `{`, `}` or a label's
/// `:`). After `if (c)`, `else` or `do` the assertion would take the
/// statement's place as the branch, changing the program.
fn statement_at(text: &str, start: usize, line: &str, column: Option<u32>) -> Option<usize> {
    let col = match column {
        Some(c) => c as usize - 1,
        None => line.len() - line.trim_start().len(),
    };
    let rest = line.get(col..)?;
    let after = text[..start + col].trim_end().chars().next_back();
    let in_block = after.is_none_or(|c| matches!(c, ';' | '{' | '}' | ':'));
    (in_block && !rest.trim().is_empty() && !rest.starts_with(char::is_whitespace)).then_some(start + col)
}

/// The program's text with each loop invariant as a `/*@ loop invariant
/// E; */` comment before its loop's keyword, each location invariant as a
/// `/*@ assert E; */` before its statement (checked, then assumed).
fn instrument(w: &str, text: &str, stated: &[Stated]) -> Result<String, Malformed> {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect();
    let mut at: Vec<(usize, &Stated)> = Vec::new();
    for s in stated {
        let not_at = || {
            let what = match s.location {
                true => "a statement within a block",
                false => "a loop's `while`, `for` or `do`",
            };
            Malformed(format!(
                "{w}:{}: line {}{} of the program is not at {what}",
                s.at,
                s.line,
                s.column.map(|c| format!(", column {c},")).unwrap_or_default()
            ))
        };
        let start = *starts.get(s.line as usize - 1).ok_or_else(not_at)?;
        let line = &text[start..text[start..].find('\n').map_or(text.len(), |e| start + e)];
        if s.location {
            at.push((statement_at(text, start, line, s.column).ok_or_else(not_at)?, s));
            continue;
        }
        let col = match s.column {
            Some(c) => {
                (c as usize - 1 <= line.len() && line.is_char_boundary(c as usize - 1)).then_some(c as usize - 1)
            }
            None => (0..line.len()).find(|&i| line.is_char_boundary(i) && keyword_at(line, i)),
        };
        let col = col.filter(|&c| keyword_at(line, c)).ok_or_else(not_at)?;
        at.push((start + col, s));
    }
    at.sort_by_key(|(i, _)| std::cmp::Reverse(*i));
    let mut out = text.to_string();
    for (i, s) in at {
        let what = if s.location { "assert" } else { "loop invariant" };
        out.insert_str(i, &format!("/*@ {what} {}; */ ", s.value));
    }
    Ok(out)
}

/// What validating a witness says: confirmed (`Ok`) or not, and why.
pub type Validation = Result<String, String>;

/// Is this check one a failure of which refutes the witness (an
/// invariant, an unreach-call error, a limit of the model)?
fn refutes(p: &Program, key: CheckKey) -> bool {
    match key {
        CheckKey::Invariant { .. } | CheckKey::Spec(SpecCheck::Inv { .. } | SpecCheck::Assert(_)) => true,
        CheckKey::Site(s) => matches!(
            p.site(s).kind,
            SiteKind::ReachError | SiteKind::Assert | SiteKind::Limit
        ),
        _ => false,
    }
}

/// How deep the VC engine inlines calls when a proof at its usual depth
/// (`vc::INLINE_DEPTH`) is not found and the program calls deeper: a
/// recursion of a few levels on constants (`id(5)`, `fibo(5)`) is proved
/// by inlining every level it reaches (the calls past that are shown
/// unreachable, or the proof still fails). Each level may double the
/// formula (two recursive calls per body): 8 proves `fibo(5)` in half a
/// second, 12 takes 15.
pub const DEEP_INLINE_DEPTH: u32 = 8;

/// The VC engine's proof of `p` with only the invariants it was given:
/// inlining calls `vc::INLINE_DEPTH` deep, then, when that is not a proof
/// and the program has calls deeper than that (whose results the first
/// proof havocked), `DEEP_INLINE_DEPTH` deep (whose answer stands).
fn prove(p: &Program, deadline: Option<Instant>) -> Result<Validation, Vec<crate::diag::Diag>> {
    match prove_at(p, vc::INLINE_DEPTH, deadline)? {
        Err(_) if calls_deeper(p, vc::INLINE_DEPTH) => prove_at(p, DEEP_INLINE_DEPTH, deadline),
        v => Ok(v),
    }
}

/// Whether a chain of calls from the program's entry is longer than
/// `depth` (a recursion always is).
fn calls_deeper(p: &Program, depth: u32) -> bool {
    let mut level: std::collections::BTreeSet<crate::ir::ProcId> = [p.entry].into();
    for _ in 0..=depth {
        level = (p.nodes.iter())
            .filter(|n| level.contains(&n.proc))
            .filter_map(|n| match n.kind {
                crate::ir::NodeKind::Call { callee, .. } => Some(callee),
                _ => None,
            })
            .collect();
    }
    !level.is_empty()
}

/// `prove` at the inlining depth `depth`, every query by `deadline`.
fn prove_at(p: &Program, depth: u32, deadline: Option<Instant>) -> Result<Validation, Vec<crate::diag::Diag>> {
    let a = Analysis::new(p);
    // Invariants with a quantifier are read as the contract engine reads
    // ACSL (`vc::gc::spec`: checked on entry and after each iteration,
    // assumed at the head), all of them then; plain ones as Houdini's.
    let formulas = p.contracts.has_formula_invariants(&|n| a.loop_at.contains_key(&n));
    let opts = vc::Options {
        loops: Loops::Havoc,
        infer: false,
        max_warnings: usize::MAX,
        contracts: formulas,
        // Z3's resource limit decides; the wall clock is a guard only (a
        // query it cuts leaves the witness not confirmed, and says so).
        rlimit: Some(vc::QUERY_RLIMIT),
        timeout: Some(super::witness::GUARD),
        deadline,
        inline_depth: depth,
        ..vc::Options::default()
    };
    let invariants = match formulas {
        true => Vec::new(),
        false => vc::houdini::user_invariants(p, &a)?,
    };
    let n: usize = (p.contracts.invariants.iter())
        .filter(|i| a.loop_at.contains_key(&i.at))
        .map(|i| i.clauses.len())
        .sum();
    let failed = |r: &vc::ProcResult| {
        r.warnings
            .iter()
            .find(|w| refutes(p, w.key))
            .map(|w| format!("{} at line {}", w.message, p.line(w.span)))
    };
    let havoc = vc::solve::havoc(p, &a, &[], &invariants, &opts);
    if let Some(why) = failed(&havoc) {
        return Ok(Err(why));
    }
    let said = |how: &str| format!("{n} loop invariant{} and {how}", if n == 1 { "" } else { "s" });
    if havoc.exhaustive {
        return Ok(Ok(said(
            "--loops havoc: they are inductive and no error call is reachable",
        )));
    }
    // k-induction reads no formula invariant: havoc's answer stands.
    if formulas {
        let why = match havoc.outcome {
            Outcome::Unknown => havoc.reason.clone(),
            _ => "a call deeper than the inlining depth is not proved".to_string(),
        };
        return Ok(Err(format!(
            "the program is not proved with them: {why}{}",
            truncated(&havoc)
        )));
    }
    let kind = kinduction::run_after(
        p,
        &a,
        &[],
        &vc::Options {
            loops: Loops::KInduction(2),
            ..opts
        },
        2,
        havoc.clone(),
    );
    if let Some(why) = failed(&kind) {
        return Ok(Err(why));
    }
    if kind.exhaustive {
        return Ok(Ok(said(
            "k-induction (k = 2): they are inductive, and no error call is reachable with them assumed",
        )));
    }
    let cut = truncated(&kind).max(truncated(&havoc));
    let why = match (kind.outcome, havoc.outcome) {
        (Outcome::Unknown, _) => kind.reason,
        (_, Outcome::Unknown) => havoc.reason,
        _ => "a call deeper than the inlining depth is not proved".to_string(),
    };
    Ok(Err(format!("the program is not proved with them: {why}{cut}")))
}

/// What a proof the wall-clock guard cut says it is.
fn truncated(r: &vc::ProcResult) -> &'static str {
    match r.clock_cut {
        true => " (truncated: the wall-clock guard cut a Z3 query)",
        false => "",
    }
}

/// Validates the witness `w` of `program`: `Ok(Ok(why))` confirmed,
/// `Ok(Err(why))` not confirmed, `Err` the witness (or the program with
/// its invariants) cannot be read. Past `deadline` (`check --witness`'s
/// `--timeout`) a query proves nothing: not confirmed, and says so.
pub fn validate(
    program: &Path,
    lower: &LowerOptions,
    w: &Path,
    deadline: Option<Instant>,
) -> Result<Validation, Malformed> {
    let wname = w.display().to_string();
    let wtext = std::fs::read_to_string(w)
        .map_err(|e| Malformed(format!("cannot read `{wname}`: {}", super::io_reason(&e))))?;
    let stated = read(&wname, &wtext)?;
    let name = program.display().to_string();
    let file = super::read(program).map_err(|r| match r {
        crate::pipeline::Refused::Unreadable(message) => Malformed(message),
        crate::pipeline::Refused::NotText(_, d) => Malformed(format!("{name}: {}", d.message)),
        _ => Malformed(format!("{name}: cannot be read")),
    })?;
    let text = instrument(&wname, &file.text, &stated)?;
    let (file, _) = crate::source_from_bytes(&name, text.into_bytes());
    let unreadable = |diags: &[crate::diag::Diag]| {
        let d = diags.iter().find(|d| d.is_error()).or(diags.first());
        let line = d.map_or(0, |d| file.line_col(d.span.lo).line);
        let which = stated.iter().find(|s| s.line == line);
        Malformed(match which {
            Some(s) => format!(
                "{wname}:{}: the invariant `{}` cannot be read: {}",
                s.at,
                s.value,
                d.map_or("", |d| d.message.as_str())
            ),
            None => format!("{name}:{line}: {}", d.map_or("", |d| d.message.as_str())),
        })
    };
    let load = |instrument: bool| {
        let cfg = crate::pipeline::Config::front(lower.clone(), &[], instrument);
        match crate::pipeline::load_source(file.clone(), &cfg) {
            Ok(loaded) if loaded.diags.iter().any(|d| d.is_error()) => Err(unreadable(&loaded.diags)),
            Ok(loaded) => Ok(loaded.program),
            Err(crate::pipeline::Refused::Rejected(_, diags)) => Err(unreadable(&diags)),
            Err(_) => Err(Malformed(format!("{name}: cannot be read"))),
        }
    };
    let mut p = load(false)?;
    // The havoc path reads loop invariants only: the program's other ACSL
    // (`//@ assert`, contracts, invariants at labels) becomes checks the
    // program makes, as `check` reads it, or a too weak invariant would
    // be confirmed past an assertion it does not prove.
    // Loop invariants with a quantifier (ACSL's `\forall`) stay formulas
    // the VC engine reads at the loop (`prove`), never a loop the program
    // runs over 100,000 indices.
    let heads = Analysis::new(&p).loop_at;
    if p.contracts.has_checks(&|n| heads.contains_key(&n)) {
        p = load(true)?;
    }
    let located = stated.iter().filter(|s| s.location).count();
    let confirmed = |said: String| match located {
        0 => said,
        n => format!(
            "{said}; {n} location invariant{} checked where stated",
            if n == 1 { "" } else { "s" }
        ),
    };
    prove(&p, deadline)
        .map(|v| v.map(confirmed))
        .map_err(|d| unreadable(&d))
}
