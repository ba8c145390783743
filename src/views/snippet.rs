//! An FSS shown in the source the way a compiler shows an error, and the
//! bound that keeps a long one readable.

use crate::diag::Diag;
use crate::explain::assume::Assumption;
use crate::explain::entries::EntryKind;
use crate::explain::FssReport;
use crate::ir::{NodeId, Program};
use crate::syntax::source::{LineCol, Span};

/// Entries `which` of an FSS shown in the source the way a compiler shows
/// an error: a caret under each statement, labelled with the branch
/// outcomes and the assumptions made there; the error is the primary label.
pub fn snippet(
    p: &Program,
    f: &FssReport,
    which: &[usize],
    assumptions: &[Assumption],
    title: &str,
    color: bool,
) -> String {
    let src = &p.source;
    let events = f.fss.to_vec();
    // An operand's own span when its text is found where it is said to be.
    let atom_span = |a: &crate::explain::entries::AtomOutcome, node: NodeId| {
        let lo = src.offset(LineCol {
            line: a.line,
            col: a.column,
        });
        match lo.map(|lo| Span::new(lo as usize, lo as usize + a.text.len())) {
            Some(s) if src.slice(s) == a.text => s,
            _ => p.node(node).span,
        }
    };
    // Per span, what each visit showed (a loop meets a statement again).
    let mut labels: Vec<(Span, Vec<String>)> = Vec::new();
    let mut add = |span: Span, text: String| match labels.iter_mut().find(|(s, _)| *s == span) {
        Some((_, t)) => t.extend((!text.is_empty()).then_some(text)),
        None => labels.push((span, (!text.is_empty()).then_some(text).into_iter().collect())),
    };
    let mut error = None;
    for &i in which {
        let e = &f.entries[i];
        for a in &e.atoms {
            add(atom_span(a, e.node), a.label().unwrap_or_default());
        }
        match e.kind {
            EntryKind::Branch => {}
            EntryKind::Error => {
                error = Some(p.node(e.node).span);
                if e.atoms.is_empty() {
                    add(p.node(e.node).span, "the error".to_string());
                }
            }
            // Each item of a comma list that matters, not only the first.
            _ if e.atoms.is_empty() => {
                let mut spans: Vec<Span> = e.events.iter().map(|&k| p.node(events[k].node).span).collect();
                spans.dedup();
                for s in spans {
                    add(s, String::new());
                }
            }
            _ => {}
        }
    }
    let mut labels: Vec<(Span, String)> = labels
        .into_iter()
        .map(|(s, t)| (s, super::repeats::then_list(&t)))
        .collect();
    for (s, t) in labels.iter_mut() {
        let here: Vec<super::assumptions::Item> = assumptions
            .iter()
            .filter(|a| p.node(a.primary().node).span.lo == s.lo)
            .map(|a| super::assumptions::Item {
                text: a.text.clone(),
                line: 0,
                column: 0,
            })
            .collect();
        for a in super::assumptions::folded(&here) {
            t.push_str(&format!("; assumes {}", a.text));
        }
    }
    let Some(&(last, _)) = labels.last() else {
        return String::new();
    };
    let primary = error.unwrap_or(last);
    let mut d = Diag::note(primary, title);
    for (s, t) in labels {
        if s == primary {
            d.label = t;
        } else if s.lo == primary.lo && error.is_some() && d.label.is_empty() {
            // The failing operand of an assertion is the error itself (an
            // access's check has no words of its own).
            d.label = if t.is_empty() {
                "the error".into()
            } else {
                format!("{t}: the error")
            };
        } else {
            d = d.with_secondary(s, t);
        }
    }
    if d.label.is_empty() && error.is_some() {
        d.label = "the error".into();
    }
    let text = crate::diag::render(src, &[d], color);
    text.lines()
        .map(|l| format!("    {l}").trim_end().to_string() + "\n")
        .collect()
}

/// Lines of a snippet shown before its middle is left out.
pub const SNIPPET_LINES: usize = 120;

/// `text` (a snippet) cut to at most `max` lines: its start and its end
/// (where the error and the statements before it are), with a line saying
/// how many lines of the middle were left out and where to see them.
pub fn bounded(text: String, max: usize, whole: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    if lines.len() <= max {
        return text;
    }
    let head = max * 2 / 5;
    let tail = max - head - 1;
    let mut out: String = lines[..head].iter().map(|l| format!("{l}\n")).collect();
    out.push_str(&format!(
        "    ⋮ {} lines of this snippet left out ({whole} lists every statement)\n",
        lines.len() - head - tail
    ));
    for l in &lines[lines.len() - tail..] {
        out.push_str(l);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_snippet_keeps_its_start_and_end() {
        let text: String = (1..=300).map(|i| format!("line {i}\n")).collect();
        let out = bounded(text.clone(), 120, "`--fss 1`");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 120);
        assert_eq!(lines[0], "line 1");
        assert_eq!(lines[119], "line 300");
        assert!(
            lines[48].contains("181 lines of this snippet left out (`--fss 1`"),
            "{}",
            lines[48]
        );
        assert_eq!(
            bounded(text.lines().take(120).map(|l| format!("{l}\n")).collect(), 120, "x")
                .lines()
                .count(),
            120
        );
    }
}
