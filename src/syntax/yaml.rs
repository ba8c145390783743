//! The subset of YAML that witness files use (`run --witness`): block
//! mappings and sequences (a sequence may sit at its key's indentation, as
//! PyYAML writes it), `- key: value` items, plain, single- and
//! double-quoted scalars, one-line flow sequences and `{}`, comments and
//! `---`. Anything else (multi-line scalars, anchors, tags) is an error
//! with its line.

/// A node and the 1-based line it starts on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Yaml {
    pub line: u32,
    pub kind: Kind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Keys in the file's order.
    Map(Vec<(String, Yaml)>),
    Seq(Vec<Yaml>),
    /// A scalar's text, quotes and escapes resolved; `null` and `~` too.
    Scalar(String),
}

impl Yaml {
    /// The value of `key` of a mapping.
    pub fn get(&self, key: &str) -> Option<&Yaml> {
        match &self.kind {
            Kind::Map(m) => m.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.kind {
            Kind::Scalar(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_seq(&self) -> Option<&[Yaml]> {
        match &self.kind {
            Kind::Seq(s) => Some(s),
            _ => None,
        }
    }
}

/// A line's content: a `- ` (None) or text, at a column (0-based).
struct Tok {
    line: u32,
    col: usize,
    text: Option<String>,
}

/// `line` without its comment (`#` at its start or after a blank, outside
/// quotes).
fn strip_comment(line: &str) -> &str {
    let mut quote = None;
    let mut prev = ' ';
    for (i, c) in line.char_indices() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), _) if c == q && !(q == '"' && prev == '\\') => quote = None,
            (None, '#') if prev == ' ' || prev == '\t' => return &line[..i],
            _ => {}
        }
        prev = c;
    }
    line
}

fn tokens(src: &str) -> Result<Vec<Tok>, (u32, String)> {
    let mut toks = Vec::new();
    for (i, raw) in src.lines().enumerate() {
        let line = i as u32 + 1;
        let text = strip_comment(raw.trim_end_matches('\r')).trim_end();
        if text.trim().is_empty() || text == "---" || text == "..." {
            continue;
        }
        if text.starts_with('\t') {
            return Err((line, "a tab in the indentation".into()));
        }
        let mut col = text.len() - text.trim_start().len();
        let mut rest = text.trim_start();
        while rest == "-" || rest.starts_with("- ") {
            toks.push(Tok { line, col, text: None });
            let after = rest[1..].trim_start();
            col += rest.len() - after.len();
            rest = after;
        }
        if !rest.is_empty() {
            toks.push(Tok {
                line,
                col,
                text: Some(rest.to_string()),
            });
        }
    }
    Ok(toks)
}

/// Parses a witness file's text.
pub fn parse(src: &str) -> Result<Yaml, (u32, String)> {
    let toks = tokens(src)?;
    if toks.is_empty() {
        return Err((1, "the file is empty".into()));
    }
    let mut i = 0;
    let v = block(&toks, &mut i)?;
    match toks.get(i) {
        None => Ok(v),
        Some(t) => Err((t.line, "text at a lower indentation than its document".into())),
    }
}

/// The key of a `key: value` line and the rest after the `:`, or `None`
/// for a line that is not one.
fn split_key(text: &str) -> Result<Option<(String, &str)>, String> {
    if text.starts_with(['"', '\'']) {
        let (k, rest) = quoted(text)?;
        return Ok(rest.trim_start().strip_prefix(':').map(|r| (k, r)));
    }
    if text.starts_with(['[', '{']) {
        return Ok(None);
    }
    let at = text
        .char_indices()
        .find(|&(i, c)| c == ':' && text[i + 1..].chars().next().is_none_or(|n| n == ' '));
    Ok(at.map(|(i, _)| (text[..i].trim_end().to_string(), &text[i + 1..])))
}

/// A quoted scalar at the start of `s`, and the text after it.
fn quoted(s: &str) -> Result<(String, &str), String> {
    if s.starts_with('"') {
        let mut it = serde_json::Deserializer::from_str(s).into_iter::<String>();
        let v = it
            .next()
            .ok_or("an unclosed string")?
            .map_err(|e| format!("a double-quoted string: {e}"))?;
        return Ok((v, &s[it.byte_offset()..]));
    }
    let body = &s[1..];
    let mut out = String::new();
    let mut chars = body.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\'' {
            if chars.peek().is_some_and(|&(_, n)| n == '\'') {
                chars.next();
                out.push('\'');
                continue;
            }
            return Ok((out, &body[i + 1..]));
        }
        out.push(c);
    }
    Err("an unclosed single-quoted string".into())
}

/// A scalar or one-line flow collection written after a key or a dash.
fn inline(text: &str, line: u32) -> Result<Yaml, String> {
    let text = text.trim();
    let kind = if text == "{}" {
        Kind::Map(Vec::new())
    } else if let Some(body) = text.strip_prefix('[') {
        let body = body.strip_suffix(']').ok_or("a flow sequence not closed on its line")?;
        let mut items = Vec::new();
        let mut rest = body.trim();
        while !rest.is_empty() {
            let (item, after) = if rest.starts_with(['"', '\'']) {
                quoted(rest)?
            } else {
                let end = rest.find(',').unwrap_or(rest.len());
                (rest[..end].trim().to_string(), &rest[end..])
            };
            items.push(Yaml {
                line,
                kind: Kind::Scalar(item),
            });
            let after = after.trim_start();
            rest = match after.strip_prefix(',') {
                Some(r) => r.trim_start(),
                None if after.is_empty() => after,
                None => return Err(format!("`{after}` in a flow sequence")),
            };
        }
        Kind::Seq(items)
    } else if text.starts_with(['"', '\'']) {
        let (s, rest) = quoted(text)?;
        if !rest.trim().is_empty() {
            return Err(format!("`{}` after a quoted string", rest.trim()));
        }
        Kind::Scalar(s)
    } else if text.starts_with(['{', '&', '*', '!', '|', '>', '@', '`']) {
        return Err(format!("`{text}`: this YAML form is not read"));
    } else {
        Kind::Scalar(text.to_string())
    };
    Ok(Yaml { line, kind })
}

/// The node whose first token is `toks[*i]`.
fn block(toks: &[Tok], i: &mut usize) -> Result<Yaml, (u32, String)> {
    let Tok { line, col, .. } = toks[*i];
    let Some(first) = toks[*i].text.as_deref() else {
        return seq(toks, i);
    };
    if split_key(first).map_err(|e| (line, e))?.is_none() {
        *i += 1;
        return inline(first, line).map_err(|e| (line, e));
    }
    let mut map: Vec<(String, Yaml)> = Vec::new();
    while let Some(t) = toks.get(*i).filter(|t| t.col == col) {
        let Some(text) = t.text.as_deref() else { break };
        let at = t.line;
        let (k, rest) = split_key(text)
            .map_err(|e| (at, e))?
            .ok_or((at, format!("`{text}` where a `key:` was expected")))?;
        *i += 1;
        let v = if !rest.trim().is_empty() {
            inline(rest, at).map_err(|e| (at, e))?
        } else {
            match toks.get(*i) {
                Some(n) if n.col > col || (n.col == col && n.text.is_none()) => block(toks, i)?,
                _ => Yaml {
                    line: at,
                    kind: Kind::Scalar("null".into()),
                },
            }
        };
        if map.iter().any(|(x, _)| *x == k) {
            return Err((at, format!("the key `{k}` twice")));
        }
        map.push((k, v));
    }
    if let Some(t) = toks.get(*i).filter(|t| t.col > col) {
        return Err((t.line, "text indented deeper than its mapping's keys".into()));
    }
    Ok(Yaml {
        line,
        kind: Kind::Map(map),
    })
}

/// A block sequence whose first `- ` is `toks[*i]`.
fn seq(toks: &[Tok], i: &mut usize) -> Result<Yaml, (u32, String)> {
    let Tok { line, col, .. } = toks[*i];
    let mut items = Vec::new();
    while let Some(t) = toks.get(*i).filter(|t| t.col == col && t.text.is_none()) {
        let at = t.line;
        *i += 1;
        match toks.get(*i) {
            Some(n) if n.col > col => items.push(block(toks, i)?),
            _ => items.push(Yaml {
                line: at,
                kind: Kind::Scalar("null".into()),
            }),
        }
    }
    Ok(Yaml {
        line,
        kind: Kind::Seq(items),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(y: &Yaml) -> Vec<&str> {
        match &y.kind {
            Kind::Map(m) => m.iter().map(|(k, _)| k.as_str()).collect(),
            _ => vec![],
        }
    }

    #[test]
    fn reads_pyyaml_style_and_quoted_scalars() {
        let src = "# c\n- entry_type: violation_sequence\n  content:\n  - segment:\n    - waypoint:\n        type: 'function_return'\n        location: {}\n        constraint:\n          value: \"\\\\result == 4294967295\"\n  files: [a.c, \"b.c\"]\n";
        let y = parse(src).unwrap();
        let e = &y.as_seq().unwrap()[0];
        assert_eq!(keys(e), ["entry_type", "content", "files"]);
        let w = e.get("content").unwrap().as_seq().unwrap()[0]
            .get("segment")
            .unwrap()
            .as_seq()
            .unwrap()[0]
            .get("waypoint")
            .unwrap();
        assert_eq!(w.get("type").unwrap().as_str(), Some("function_return"));
        assert_eq!(w.line, 6);
        let c = w.get("constraint").unwrap().get("value").unwrap();
        assert_eq!(c.as_str(), Some("\\result == 4294967295"));
        assert_eq!(e.get("files").unwrap().as_seq().unwrap().len(), 2);
    }

    #[test]
    fn refuses_what_it_does_not_read() {
        assert_eq!(parse("a: 1\na: 2\n").unwrap_err().0, 2);
        assert!(parse("a: |\n  x\n").is_err());
        assert!(parse("a: \"open\n").is_err());
        assert!(parse("a:\n    b: 1\n  c: 2\n").is_err());
    }
}
