//! The edits a fix is searched among: one token changed by the smallest
//! step of the classic mutation operators (Agrawal et al., 1989): a
//! comparison, an arithmetic sign, a connective, a decimal constant by one,
//! a scalar variable replaced by another of the same type.

use crate::ir::{Program, VarKind};
use crate::syntax::lexer::{self, TokKind, Token};
use crate::syntax::source::Span;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Compare,
    Sign,
    Connective,
    Constant,
    Variable,
}

impl Kind {
    pub fn name(self) -> &'static str {
        match self {
            Kind::Compare => "compare",
            Kind::Sign => "sign",
            Kind::Connective => "connective",
            Kind::Constant => "constant",
            Kind::Variable => "variable",
        }
    }
}

/// Replace the text at `span` (`from`) by `to`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub from: String,
    pub to: String,
    pub kind: Kind,
}

impl Edit {
    /// The source with this edit made.
    pub fn apply(&self, text: &str) -> String {
        let r = self.span.range();
        format!("{}{}{}", &text[..r.start], self.to, &text[r.end..])
    }
}

/// Operators and their smallest change.
const SWAPS: &[(&str, &str, Kind)] = &[
    ("<", "<=", Kind::Compare),
    ("<=", "<", Kind::Compare),
    (">", ">=", Kind::Compare),
    (">=", ">", Kind::Compare),
    ("==", "!=", Kind::Compare),
    ("!=", "==", Kind::Compare),
    ("+", "-", Kind::Sign),
    ("-", "+", Kind::Sign),
    ("+=", "-=", Kind::Sign),
    ("-=", "+=", Kind::Sign),
    ("++", "--", Kind::Sign),
    ("--", "++", Kind::Sign),
    ("&&", "||", Kind::Connective),
    ("||", "&&", Kind::Connective),
];

/// Variables tried first in place of one use: those of a name that
/// differs only in its number (`p2` for `p4`), then the nearest declared.
const MAX_VARIABLES: usize = 6;

/// The edits of the tokens that start on `lines`, in text order; then the
/// further variables of each use (beyond `MAX_VARIABLES`), in text order,
/// so that a limit on the edits cuts those first. Only tokens written in
/// the file count (not those a macro expands to).
pub fn candidates(p: &Program, lines: &BTreeSet<u32>) -> Vec<Edit> {
    let text = &p.source.text;
    let mut diags = Vec::new();
    let tokens = lexer::lex(text, &mut diags).tokens;
    let mut out = Vec::new();
    let mut further = Vec::new();
    for (k, t) in tokens.iter().enumerate() {
        if !lines.contains(&p.line(t.span)) || t.span.range().end > text.len() {
            continue;
        }
        let written = &text[t.span.range()];
        match &t.kind {
            TokKind::Punct(op) if written == *op => {
                for (from, to, kind) in SWAPS {
                    if from == op {
                        out.push(edit(t.span, written, to, *kind));
                    }
                }
            }
            TokKind::Int { value, .. } => {
                let digits = written.trim_end_matches(['u', 'U', 'l', 'L']);
                let decimal = !digits.is_empty()
                    && digits.bytes().all(|b| b.is_ascii_digit())
                    && (digits == "0" || !digits.starts_with('0'));
                if !decimal {
                    continue;
                }
                let suffix = &written[digits.len()..];
                out.push(edit(t.span, written, &format!("{}{suffix}", value + 1), Kind::Constant));
                if *value > 0 {
                    out.push(edit(t.span, written, &format!("{}{suffix}", value - 1), Kind::Constant));
                }
            }
            TokKind::Ident(name) if written == name => {
                for (i, other) in variables(p, &tokens, k).into_iter().enumerate() {
                    let to = if i < MAX_VARIABLES { &mut out } else { &mut further };
                    to.push(edit(t.span, written, &other, Kind::Variable));
                }
            }
            _ => {}
        }
    }
    out.extend(further);
    out
}

fn edit(span: Span, from: &str, to: &str, kind: Kind) -> Edit {
    Edit {
        span,
        from: from.to_string(),
        to: to.to_string(),
        kind,
    }
}

/// The scalars that may replace the use (read or write) of a scalar at
/// token `k` (`min = y` for `max = y` is the fault of the paper's Fig. 2): of its
/// type, declared before it in its function, or global; a name of the
/// same stem first (`lk2` for `lk3`: numbered twins are easily confused),
/// then nearest first.
fn variables(p: &Program, tokens: &[Token], k: usize) -> Vec<String> {
    let t = &tokens[k];
    let name = t.ident().unwrap_or_default();
    let before = k.checked_sub(1).map(|i| &tokens[i]);
    let after = tokens.get(k + 1);
    // Members, calls and declarations are not uses of a variable.
    if before.is_some_and(|b| b.is_punct(".") || b.is_punct("->")) || after.is_some_and(|a| a.is_punct("(")) {
        return Vec::new();
    }
    let at = t.span.lo;
    let proc = p.procs.iter().position(|f| f.span.lo <= at && at < f.span.hi);
    let user = |v: &crate::ir::Var| {
        v.len.is_none()
            && matches!(v.kind, VarKind::Global | VarKind::Param | VarKind::Local)
            && super::source_name(&v.name)
    };
    let visible = |v: &crate::ir::Var| {
        v.kind == VarKind::Global || (v.proc.map(|q| q.index()) == proc && proc.is_some() && v.span.lo < at)
    };
    // The variable used here: the nearest visible declaration of the name.
    let Some(read) = p
        .vars
        .iter()
        .filter(|v| v.name == name && user(v) && visible(v))
        .max_by_key(|v| (v.kind != VarKind::Global, v.span.lo))
    else {
        return Vec::new();
    };
    if read.span.lo <= at && at < read.span.hi.max(read.span.lo + 1) {
        return Vec::new();
    }
    let mut others: Vec<&crate::ir::Var> = p
        .vars
        .iter()
        .filter(|v| v.name != name && v.ty == read.ty && user(v) && visible(v))
        .collect();
    // The family first (the fewest lines of the use's shape first), then
    // twins, then locals by distance back from the read, then globals in order.
    let family = family(p, tokens, k);
    let member = |v: &crate::ir::Var| family.get(v.name.as_str()).copied().unwrap_or(usize::MAX);
    let twin = |v: &crate::ir::Var| !stem(&v.name).is_empty() && stem(&v.name) == stem(name);
    others.sort_by_key(|v| (member(v), !twin(v), v.kind == VarKind::Global, at.abs_diff(v.span.lo)));
    let mut names: Vec<String> = Vec::new();
    for v in others {
        if !names.contains(&v.name) {
            names.push(v.name.clone());
        }
    }
    names
}

/// The names that fill the place of the use at token `k` in the other
/// lines of its function written the same way (every other token alike:
/// `if (p4 != 0) {` among `if (p1 != 0) {` .. `if (p14 != 0) {`), each with
/// how many such lines it fills. Code written by copying a line is where
/// a wrong variable is easily left, and the right one then fills one line
/// fewer than its siblings.
fn family<'t>(p: &Program, tokens: &'t [Token], k: usize) -> BTreeMap<&'t str, usize> {
    let line = |i: usize| p.line(tokens[i].span);
    let text = |i: usize| p.source.text.get(tokens[i].span.range()).unwrap_or_default();
    let at = tokens[k].span.lo;
    let Some(f) = p.procs.iter().find(|f| f.span.lo <= at && at < f.span.hi) else {
        return BTreeMap::new();
    };
    // Each line of the function as a range of tokens.
    let mut lines: Vec<(usize, usize)> = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if t.span.lo < f.span.lo || t.span.lo >= f.span.hi {
            continue;
        }
        match lines.last_mut() {
            Some(last) if line(last.0) == line(i) => last.1 = i + 1,
            _ => lines.push((i, i + 1)),
        }
    }
    let Some(&(lo, hi)) = lines.iter().find(|(lo, hi)| (*lo..*hi).contains(&k)) else {
        return BTreeMap::new();
    };
    let hole = k - lo;
    let mut out = BTreeMap::new();
    for &(a, b) in &lines {
        let alike = b - a == hi - lo
            && a != lo
            && tokens[a + hole].ident().is_some()
            && (0..hi - lo).all(|j| j == hole || text(a + j) == text(lo + j));
        if alike {
            *out.entry(tokens[a + hole].ident().unwrap_or_default()).or_insert(0) += 1;
        }
    }
    out
}

/// A name without its trailing digits, when it has some (`lk` of `lk12`;
/// empty for `x`, which has no twins).
fn stem(name: &str) -> &str {
    let s = name.trim_end_matches(|c: char| c.is_ascii_digit());
    if s.len() == name.len() {
        ""
    } else {
        s
    }
}
