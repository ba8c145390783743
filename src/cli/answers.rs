//! Where `diagnose` gets its answers: the terminal, an answers file, or a
//! default; and the transcript that records them in the file's format.
//!
//! An answers file has one answer per line, keyed by the question's kind,
//! line and formula as `diagnose` prints it:
//!
//! ```text
//! # comments and blank lines are ignored
//! [programs/diagnose/example1.c]      # later lines apply to this file only
//! invariant 6 "j >= 0" yes
//! witness 6 "!flag && i + j < 0" no
//! ```
//!
//! Answers are `yes`/`y`, `no`/`n`, `unknown`/`?`. Lines before any
//! `[FILE]` header apply to every file.

use crate::diagnose::{Answer, Asker, By, Kind, Question};
use std::collections::BTreeMap;
use std::io::{BufRead, Write};

/// A question's key in an answers file.
type Key = (Kind, u32, String);

#[derive(Default)]
pub struct AnswersFile {
    /// Per file (`None`: every file).
    answers: BTreeMap<Option<String>, BTreeMap<Key, Answer>>,
}

pub fn parse_answer(s: &str) -> Option<Answer> {
    match s.trim().to_ascii_lowercase().as_str() {
        "y" | "yes" => Some(Answer::Yes),
        "n" | "no" => Some(Answer::No),
        "?" | "unknown" | "u" => Some(Answer::Unknown),
        _ => None,
    }
}

impl AnswersFile {
    /// Parses an answers file; errors name the line.
    pub fn parse(name: &str, text: &str) -> Result<AnswersFile, String> {
        let mut out = AnswersFile::default();
        let mut section: Option<String> = None;
        for (i, raw) in text.lines().enumerate() {
            let at = |msg: &str| format!("{name}:{}:1: {msg}", i + 1);
            let line = strip_comment(raw).trim();
            if line.is_empty() {
                continue;
            }
            if let Some(file) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
                section = Some(file.trim().to_string());
                continue;
            }
            let (kind, rest) = line
                .split_once(char::is_whitespace)
                .ok_or_else(|| at("expected `KIND LINE \"FORMULA\" ANSWER`"))?;
            let kind = match kind {
                "invariant" => Kind::Invariant,
                "witness" => Kind::Witness,
                k => return Err(at(&format!("`{k}`: expected `invariant` or `witness`"))),
            };
            let rest = rest.trim_start();
            let (num, rest) = rest
                .split_once(char::is_whitespace)
                .ok_or_else(|| at("expected a line number"))?;
            let num: u32 = num.parse().map_err(|_| at(&format!("`{num}` is not a line number")))?;
            let rest = rest.trim_start();
            let rest = rest
                .strip_prefix('"')
                .ok_or_else(|| at("expected the formula in double quotes"))?;
            let (formula, rest) = rest
                .split_once('"')
                .ok_or_else(|| at("the formula's closing quote is missing"))?;
            let answer =
                parse_answer(rest).ok_or_else(|| at(&format!("`{}`: expected yes, no or unknown", rest.trim())))?;
            out.answers
                .entry(section.clone())
                .or_default()
                .insert((kind, num, formula.to_string()), answer);
        }
        Ok(out)
    }

    pub fn get(&self, file: &str, q: &Question) -> Option<Answer> {
        let key = (q.kind, q.line, q.text.clone());
        self.answers
            .get(&Some(file.to_string()))
            .and_then(|m| m.get(&key))
            .or_else(|| self.answers.get(&None).and_then(|m| m.get(&key)))
            .copied()
    }
}

/// `#` starts a comment outside the quoted formula.
fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

/// A line of an answers file (and of a transcript).
pub fn answer_line(q: &Question, a: Answer) -> String {
    format!("{} {} \"{}\" {}", q.kind.name(), q.line, q.text, a.name())
}

/// Answers from the terminal, a file, or the default, in that order of
/// preference (the terminal only when interactive).
pub struct Answers<'a> {
    pub file: Option<&'a AnswersFile>,
    /// The file being diagnosed (its section in the answers file).
    pub source: String,
    pub interactive: bool,
    pub default: Answer,
    /// Printed before each question (the condition's report).
    pub stdin_closed: bool,
}

impl Asker for Answers<'_> {
    fn ask(&mut self, q: &Question) -> (Answer, By) {
        if let Some(a) = self.file.and_then(|f| f.get(&self.source, q)) {
            return (a, By::File);
        }
        if self.interactive && !self.stdin_closed {
            loop {
                let mut o = std::io::stdout().lock();
                let _ = write!(o, "Q{} {} [y/n/?] ", q.number, q.sentence());
                let _ = o.flush();
                drop(o);
                let mut line = String::new();
                match std::io::stdin().lock().read_line(&mut line) {
                    Ok(0) | Err(_) => {
                        self.stdin_closed = true;
                        super::write_stdout("\n");
                        break;
                    }
                    Ok(_) => {
                        if let Some(a) = parse_answer(&line) {
                            return (a, By::User);
                        }
                        super::write_stdout("  please answer y (yes), n (no) or ? (I don't know)\n");
                    }
                }
            }
        }
        (self.default, By::Default)
    }
}
