//! A static, self-contained HTML report (no network assets): an index of
//! files and verdicts, and per file the reduced view (NEST lines highlighted
//! in the source), the ranked FSSs with their assumptions (click one to
//! highlight it in the source), and the full trace with concrete inputs,
//! reached by clicking down from a NEST. Built from the JSON documents.

use super::json::{CondDoc, FileDoc, FssDoc, StatementDoc};
use super::trace::TraceLine;
use crate::syntax::source::SourceFile;
use std::fmt::Write;

/// The report's pages, each with its path relative to the report's
/// directory: `index.html` first, then one page per file under `files/`.
/// (The CLI writes them.)
pub fn report_pages(files: &[(&FileDoc, Option<&SourceFile>)]) -> Vec<(String, String)> {
    let mut pages = vec![(String::from("index.html"), String::new())];
    let mut rows = Vec::new();
    for (i, (doc, source)) in files.iter().enumerate() {
        let name = format!("files/{:04}-{}.html", i + 1, slug(&doc.file));
        pages.push((name.clone(), file_page(doc, *source)));
        rows.push((name, *doc));
    }
    pages[0].1 = index_page(&rows);
    pages
}

fn slug(path: &str) -> String {
    let base = path.rsplit(['/', '\\']).next().unwrap_or(path);
    base.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

const STYLE: &str = r#"
body { font-family: system-ui, sans-serif; margin: 0; color: #1d1d1f; }
header { padding: 10px 16px; background: #24292f; color: #fff; }
header a { color: #9ecbff; }
main { display: flex; height: calc(100vh - 52px); }
#report { width: 48%; overflow: auto; padding: 8px 16px; box-sizing: border-box; }
#source { width: 52%; overflow: auto; background: #fafbfc; border-left: 1px solid #ddd; }
pre.src { margin: 0; padding: 8px 0; font: 13px/1.45 ui-monospace, monospace; }
.ln { display: block; padding: 0 8px; white-space: pre; min-height: 1.45em; }
.ln .no { display: inline-block; width: 3.5em; color: #888; text-align: right; margin-right: 1em; user-select: none; }
.ln.hl { background: #fff3bf; }
.ln.nest { background: #ffd8a8; }
.ln.err { background: #ffc9c9; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; }
.unsafe { background: #c92a2a; } .unknown { background: #e67700; } .safe { background: #2b8a3e; }
table { border-collapse: collapse; } td, th { padding: 4px 10px; border-bottom: 1px solid #eee; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.cond { border: 1px solid #ddd; border-radius: 6px; margin: 10px 0; padding: 6px 10px; }
.card { border-left: 4px solid #f08c00; padding: 4px 10px; margin: 8px 0; background: #fff9f0; }
.nest { cursor: pointer; }
.nest-lines code { background: #ffd8a8; padding: 0 4px; margin-right: 2px; }
.to-trace { display: none; margin-top: 4px; }
.card.open .to-trace { display: inline-block; }
.fss-item { cursor: pointer; padding: 2px 4px; }
.fss-item:hover, .fss-item.active { background: #fff3bf; }
.trace { margin: 6px 0; }
.trace ol { font: 12px/1.5 ui-monospace, monospace; padding-left: 2.5em; }
.trace li { cursor: pointer; }
code, .mono { font-family: ui-monospace, monospace; }
small { color: #666; }
ul.messages { font-size: 13px; padding-left: 1.2em; } li.error b { color: #c92a2a; } li.warning b { color: #e67700; }
"#;

const SCRIPT: &str = r#"
function lines(el) { return (el.dataset.lines || '').split(',').filter(Boolean); }
function mark(ls, cls) {
  document.querySelectorAll('.ln.' + cls).forEach(e => e.classList.remove(cls));
  let first = null;
  ls.forEach(l => { const e = document.getElementById('L' + l); if (e) { e.classList.add(cls); first = first || e; } });
  if (first) first.scrollIntoView({block: 'center'});
}
document.addEventListener('click', ev => {
  const nest = ev.target.closest('.nest');
  if (nest) {
    document.querySelectorAll('.card.open').forEach(c => c.classList.remove('open'));
    nest.closest('.card').classList.add('open');
    mark(lines(nest), 'nest');
    return;
  }
  const go = ev.target.closest('.to-trace');
  if (go) {
    ev.preventDefault();
    const t = document.getElementById(go.dataset.target);
    if (t) {
      t.closest('details.traces').open = true;
      t.open = true;
      t.scrollIntoView({block: 'start'});
      mark(lines(t), 'hl');
    }
    return;
  }
  const item = ev.target.closest('.fss-item, .trace li');
  if (item) {
    document.querySelectorAll('.fss-item.active').forEach(e => e.classList.remove('active'));
    item.classList.add('active');
    mark(lines(item), 'hl');
  }
});
"#;

fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head>\n<body>{body}<script>{SCRIPT}</script></body></html>\n",
        esc(title)
    )
}

fn badge(verdict: &str) -> String {
    format!("<span class=\"badge {0}\">{0}</span>", esc(verdict))
}

fn count(doc: &FileDoc, verdict: &str) -> usize {
    doc.conditions.iter().filter(|c| c.verdict == verdict).count()
}

fn index_page(rows: &[(String, &FileDoc)]) -> String {
    let mut b = String::from("<header><b>focuscheck</b> report</header><div id=\"index\" style=\"padding:12px 16px\">");
    let _ = write!(
        b,
        "<p>{} file{} checked.</p><table><tr><th>file</th><th>conditions</th><th>unsafe</th><th>unknown</th><th>safe</th><th>FSSs</th><th>seconds</th></tr>",
        rows.len(),
        if rows.len() == 1 { "" } else { "s" }
    );
    for (href, d) in rows {
        if d.status != "checked" {
            let _ = write!(
                b,
                "<tr class=\"not-checked\"><td><a href=\"{}\">{}</a></td><td colspan=6><span class=\"badge unsafe\">not checked</span> {}</td></tr>",
                esc(href),
                esc(&d.file),
                esc(&status_text(d))
            );
            continue;
        }
        let fss: usize = d.conditions.iter().map(|c| c.fss.len() + c.fss_omitted).sum();
        let _ = write!(
            b,
            "<tr><td><a href=\"{}\">{}</a></td><td class=num>{}</td><td class=num>{}</td><td class=num>{}</td><td class=num>{}</td><td class=num>{}</td><td class=num>{:.2}</td></tr>",
            esc(href),
            esc(&d.file),
            d.conditions.len(),
            count(d, "unsafe"),
            count(d, "unknown"),
            count(d, "safe"),
            fss,
            d.seconds
        );
    }
    b.push_str("</table></div>");
    page("focuscheck report", &b)
}

fn join_lines(ls: impl Iterator<Item = u32>) -> String {
    ls.map(|l| l.to_string()).collect::<Vec<_>>().join(",")
}

/// Why a file was not checked, in words, with its first error.
fn status_text(d: &FileDoc) -> String {
    let why = match d.status {
        "rejected" => "not accepted",
        "unreadable" => "cannot be read",
        "internal_error" => "internal error",
        other => other,
    };
    match d.errors.first() {
        Some(e) => format!("{why}: {}", e.message),
        None => why.to_string(),
    }
}

/// The errors and warnings about a file, each with its line.
fn messages(b: &mut String, doc: &FileDoc) {
    let all = doc
        .errors
        .iter()
        .map(|m| ("error", m))
        .chain(doc.warnings.iter().map(|m| ("warning", m)));
    let mut any = false;
    for (level, m) in all {
        if !any {
            b.push_str("<ul class=\"messages\">");
            any = true;
        }
        let at = match (m.line, m.column) {
            (Some(l), Some(c)) => format!("<a href=\"#L{l}\" class=mono>{l}:{c}</a> "),
            _ => String::new(),
        };
        let _ = write!(b, "<li class=\"{level}\"><b>{level}</b>: {at}{}</li>", esc(&m.message));
    }
    if any {
        b.push_str("</ul>");
    }
}

fn file_page(doc: &FileDoc, source: Option<&SourceFile>) -> String {
    let mut b = String::new();
    if doc.status != "checked" {
        let _ = write!(
            b,
            "<header><a href=\"../index.html\">index</a> &nbsp; <b class=mono>{}</b> &nbsp; not checked ({})</header><main><section id=\"report\">",
            esc(&doc.file),
            esc(doc.status)
        );
        messages(&mut b, doc);
        b.push_str("</section><section id=\"source\"><pre class=\"src\">");
        if let Some(source) = source {
            let lines: Vec<u32> = doc.errors.iter().filter_map(|m| m.line).collect();
            source_lines(&mut b, source, &lines);
        }
        b.push_str("</pre></section></main>");
        return page(&doc.file, &b);
    }
    let _ = write!(
        b,
        "<header><a href=\"../index.html\">index</a> &nbsp; <b class=mono>{}</b> &nbsp; {} unsafe, {} unknown, {} safe <small style=\"color:#ccc\">({} states, {:.2}s)</small></header><main><section id=\"report\">",
        esc(&doc.file),
        count(doc, "unsafe"),
        count(doc, "unknown"),
        count(doc, "safe"),
        doc.states,
        doc.seconds
    );
    messages(&mut b, doc);
    if doc.truncated {
        let _ = write!(
            b,
            "<p class=\"truncated\"><small>The check was cut short ({}): what it left open is unknown.</small></p>",
            esc(doc.limit.as_deref().unwrap_or("a limit was reached"))
        );
    }
    for (ci, c) in doc.conditions.iter().enumerate() {
        condition(&mut b, ci, c);
    }
    b.push_str("</section><section id=\"source\"><pre class=\"src\">");
    let error_lines: Vec<u32> = doc
        .conditions
        .iter()
        .filter(|c| c.verdict != "safe")
        .filter_map(|c| c.line)
        .collect();
    if let Some(source) = source {
        source_lines(&mut b, source, &error_lines);
    }
    b.push_str("</pre></section></main>");
    page(&doc.file, &b)
}

/// The source, one block per line; `marked` lines in the error colour.
fn source_lines(b: &mut String, source: &SourceFile, marked: &[u32]) {
    for (i, text) in source.text.lines().enumerate() {
        let n = i as u32 + 1;
        let cls = if marked.contains(&n) { "ln err" } else { "ln" };
        // Each line is a block of its own: no line break between them.
        let _ = write!(
            b,
            "<span class=\"{cls}\" id=\"L{n}\"><span class=\"no\">{n}</span>{}</span>",
            esc(text)
        );
    }
}

/// The fix candidates (default search or `check --fixes`): the fix region (click to
/// highlight it) and the fixes, best first.
fn fixes_card(b: &mut String, f: &super::fixes::FixesDoc) {
    for m in &f.missing {
        let _ = write!(
            b,
            "<div class=\"card\"><div class=\"nest\" data-lines=\"{}\" title=\"click to highlight where it belongs\">missing assignment: {}</div></div>",
            join_lines(m.lines.iter().copied()),
            esc(&m.words())
        );
    }
    if f.fixes.is_empty() {
        let _ = write!(
            b,
            "<p><small>No fix candidate: none of {} one-token edits made the error go away.</small></p>",
            f.tried
        );
        return;
    }
    let rows: String = f
        .fixes
        .iter()
        .map(|x| {
            let hide = x.hide_words();
            format!(
                "<li{}>line {}:{} <code>{}</code> &rarr; <code>{}</code> <small>({}{}{})</small><pre class=\"diff\">- {}\n+ {}</pre></li>",
                if hide.is_empty() { "" } else { " class=\"hides\"" },
                x.line,
                x.column,
                esc(&x.from),
                esc(&x.to),
                super::fixes::proof_words(&x.proof),
                if hide.is_empty() { "" } else { "; " },
                esc(&hide),
                esc(x.old.trim()),
                esc(x.new.trim())
            )
        })
        .collect();
    let _ = write!(
        b,
        "<h4>Fix candidates</h4><div class=\"card\"><div class=\"nest\" data-lines=\"{}\" title=\"click to highlight the fix region in the source\">fix region: <span class=\"nest-lines\">{}</span></div><ol>{rows}</ol><small>{} edits tried, {} compiled{}</small></div>",
        join_lines(f.region.iter().copied()),
        f.region.iter().map(|l| format!("<code>{l}</code>")).collect::<String>(),
        f.tried,
        f.compiled,
        super::fixes::cut_words(f, "; ", "")
    );
}

fn condition(b: &mut String, ci: usize, c: &CondDoc) {
    let at = c.line.map(|l| format!(" <small>line {l}</small>")).unwrap_or_default();
    let _ = write!(
        b,
        "<div class=\"cond\" id=\"c{ci}\">{} <b>{}</b>{at}<br><small>{}</small>",
        badge(c.verdict),
        esc(&c.condition),
        esc(&c.reason)
    );
    if c.verdict == "safe" {
        b.push_str("</div>");
        return;
    }
    if let Some(fact) = &c.fact {
        let _ = write!(b, "<div class=\"fact\">fact: {}</div>", esc(fact));
    }
    if let Some(cmd) = &c.replay {
        let _ = write!(b, "<div class=\"replay\">replay: <code>{}</code></div>", esc(cmd));
    }
    if c.explanation_clock {
        b.push_str("<p><small>The FSS listing is incomplete: the explanation was cut by --timeout (the wall clock: on a less loaded machine it may go further).</small></p>");
    } else if c.truncated {
        b.push_str("<p><small>The FSS listing is incomplete (a limit of the explanation was reached: --explain-steps or another count).</small></p>");
    }
    if let Some(why) = &c.no_fss {
        let _ = write!(b, "<p><small>No FSS: {}.</small></p>", esc(why));
    }
    // Reduced view: one card per FSS Reduce kept.
    if !c.reduced.is_empty() {
        let _ = write!(
            b,
            "<h4>Where the fix belongs ({} after Reduce{})</h4>",
            c.reduced.len() + c.reduced_omitted,
            if c.reduced_omitted > 0 {
                format!("; those of the first {} FSSs shown", c.fss.len())
            } else {
                String::new()
            }
        );
    }
    for r in &c.reduced {
        let mut all = Vec::new();
        statement_lines(&r.statements, &mut all);
        let mut distinct: Vec<u32> = Vec::new();
        for l in all {
            if !distinct.contains(&l) {
                distinct.push(l);
            }
        }
        let where_ = match r.at {
            Some(l) => format!("in the block of the conditional at line {l}"),
            None => "the whole FSS (not narrowed down)".into(),
        };
        let items: Vec<super::assumptions::Item> = r.assumptions.iter().map(Into::into).collect();
        let assumptions: Vec<String> = super::assumptions::folded(&items)
            .iter()
            .map(|a| format!("<code>{}</code> <small>({}:{})</small>", esc(&a.text), a.line, a.column))
            .collect();
        let _ = write!(
            b,
            "<div class=\"card\" id=\"c{ci}-r{rank}\"><div>FSS rank {rank}: assumptions left: {}</div><div class=\"nest\" data-lines=\"{}\" title=\"click to highlight the NEST in the source\">NEST: <span class=\"nest-lines\">{}</span> <small>{}</small></div><a href=\"#c{ci}-t{rank}\" class=\"to-trace\" data-target=\"c{ci}-t{rank}\">full trace with concrete inputs &rarr;</a></div>",
            if assumptions.is_empty() { "none".to_string() } else { assumptions.join(", ") },
            join_lines(distinct.iter().copied()),
            distinct.iter().map(|l| format!("<code>{l}</code>")).collect::<String>(),
            esc(&where_),
            rank = r.rank
        );
    }
    if let Some(f) = &c.fixes {
        fixes_card(b, f);
    }
    // Ranked FSSs.
    if !c.fss.is_empty() {
        let _ = write!(
            b,
            "<details class=\"fsss\"><summary>{} focus-statement sequence{} (ranked; click one to highlight it){}</summary><ol>",
            c.fss.len() + c.fss_omitted,
            if c.fss.len() + c.fss_omitted == 1 { "" } else { "s" },
            if c.fss_omitted > 0 {
                format!("; the first {} listed, <code>--all-fss</code> lists every one", c.fss.len())
            } else {
                String::new()
            }
        );
        for f in &c.fss {
            fss_item(b, f);
        }
        b.push_str("</ol></details>");
        let _ = write!(b, "<details class=\"traces\"><summary>full traces</summary>");
        for f in &c.fss {
            trace(b, &format!("c{ci}-t{}", f.rank), &format!("FSS {}", f.rank), f);
        }
        b.push_str("</details>");
    } else if !c.trace.is_empty() {
        // No explanation: the counterexample found while deciding.
        b.push_str("<details class=\"traces\" open><summary>counterexample</summary>");
        let f = FssDoc {
            rank: 0,
            statements: Vec::new(),
            assumptions: Vec::new(),
            inputs: c.inputs.clone(),
            choices: c.choices.clone(),
            seed: c.seed,
            choices_omitted: c.choices_omitted,
            choices_fill: c.choices_fill,
            nest: Vec::new(),
            trace: c.trace.clone(),
            replay: c.replay.clone(),
        };
        trace(b, &format!("c{ci}-t0"), "counterexample", &f);
        b.push_str("</details>");
    }
    b.push_str("</div>");
}

/// Every line statements name (a repetition's from its first and last
/// runs).
fn statement_lines(statements: &[StatementDoc], out: &mut Vec<u32>) {
    for s in statements {
        match &s.repeat {
            Some(r) => {
                statement_lines(&r.first, out);
                statement_lines(&r.last, out);
            }
            None => out.push(s.line),
        }
    }
}

/// `3, (14, 15)×4096, 17`.
fn compact(statements: &[StatementDoc]) -> String {
    statements
        .iter()
        .map(|s| match &s.repeat {
            Some(r) => format!("({})×{}", compact(&r.first), r.count),
            None => s.line.to_string(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn fss_item(b: &mut String, f: &FssDoc) {
    let mut lines = Vec::new();
    statement_lines(&f.statements, &mut lines);
    let seq = join_lines(lines.into_iter());
    let assumptions: Vec<String> = super::assumptions::folded_texts(&f.assumptions)
        .iter()
        .map(|a| esc(a))
        .collect();
    let _ = write!(
        b,
        "<li class=\"fss-item\" data-lines=\"{seq}\"><span class=mono>&lt;{}&gt;</span><br><small>assumptions: {}</small></li>",
        compact(&f.statements),
        if assumptions.is_empty() { "none".to_string() } else { assumptions.join(", ") }
    );
}

fn trace(b: &mut String, id: &str, title: &str, f: &FssDoc) {
    let lines = join_lines(f.trace.iter().map(|t| t.line));
    let inputs: Vec<String> = f.inputs.iter().map(|(k, v)| format!("{} = {v}", esc(k))).collect();
    let _ = write!(
        b,
        "<details class=\"trace\" id=\"{id}\" data-lines=\"{lines}\"><summary>{}</summary><div class=\"inputs\">inputs: <span class=mono>{}</span></div>",
        esc(title),
        if inputs.is_empty() { "none".to_string() } else { inputs.join(", ") }
    );
    if !f.choices.is_empty() {
        let ch: Vec<String> = f.choices.iter().map(|c| c.to_string()).collect();
        let _ = write!(b, "<div>choices: <span class=mono>{}</span></div>", ch.join(", "));
    }
    // Left out of a long run: all of it (drawn from a seed) or the run of
    // one value that ends it.
    let n = f.choices_omitted;
    let left_out = match (f.seed, f.choices_fill) {
        _ if n == 0 => None,
        (Some(s), _) => Some(format!(
            "{n} drawn from seed {s} (<span class=mono>focuscheck run --seed {s}</span>)"
        )),
        (None, Some(v)) => Some(format!("then {n} × {v} (<span class=mono>--fill {v}</span>)")),
        (None, None) => Some(format!("{n} more (<span class=mono>--full-trace</span> lists them)")),
    };
    if let Some(text) = left_out {
        let _ = write!(b, "<div>choices: {text}</div>");
    }
    if let Some(cmd) = &f.replay {
        let _ = write!(b, "<div>replay: <code>{}</code></div>", esc(cmd));
    }
    if f.trace.is_empty() {
        b.push_str("<p><small>No replayable path with this FSS was found within the search budget.</small></p>");
    } else {
        trace_list(b, &f.trace);
    }
    b.push_str("</details>");
}

/// Trace lines as a list; a folded repetition as its text with its first
/// run, how many runs are left out, and its last run nested under it.
fn trace_list(b: &mut String, lines: &[TraceLine]) {
    b.push_str("<ol>");
    for t in lines {
        let _ = write!(
            b,
            "<li data-lines=\"{}\" style=\"margin-left:{}em\">{}",
            t.line,
            t.depth.min(8),
            esc(&t.text)
        );
        if let Some(r) = &t.repeat {
            trace_list(b, &r.first);
            let _ = write!(b, "<small>... {} more runs ...</small>", r.count.saturating_sub(2));
            trace_list(b, &r.last);
        }
        b.push_str("</li>");
    }
    b.push_str("</ol>");
}
