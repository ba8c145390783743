//! Text reports within a line length: long texts shortened in the middle,
//! long lines broken at spaces (JSON keeps every text whole).

/// The longest line a text report prints (JSON keeps every text whole).
pub const LINE_CHARS: usize = 200;
/// The longest description of a condition (the source text of a long
/// contract clause is shortened in the middle).
pub const DESCRIBE_CHARS: usize = 120;

/// `s` shortened in the middle to at most `max` characters.
pub fn shortened(s: &str, max: usize) -> String {
    let n = s.chars().count();
    if n <= max {
        return s.to_string();
    }
    let head: String = s.chars().take(max * 2 / 3).collect();
    let tail: String = s.chars().skip(n - (max - max * 2 / 3 - 1)).collect();
    format!("{head}\u{2026}{tail}")
}

/// Lines longer than `max` characters broken at spaces (after a `, ` where
/// there is one) onto indented continuation lines; a command line (`replay:`,
/// `next:`) is continued with ` \` so that it can still be pasted.
pub fn wrap_long_lines(text: &str, max: usize) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_end_matches('\n');
        // Coloured lines are measured wrong; they are left as they are.
        if body.chars().count() <= max || body.contains('\u{1b}') {
            out.push_str(line);
            continue;
        }
        let indent = body.len() - body.trim_start().len();
        let word = body.trim_start();
        let command = ["replay: ", "next: ", "focuscheck "]
            .iter()
            .any(|p| word.starts_with(p));
        let pad = " ".repeat(indent + 4);
        // `lead` precedes `rest` on its printed line (the first piece keeps
        // its own indentation).
        let (mut rest, mut lead) = (body, "");
        loop {
            let room = max.saturating_sub(lead.len() + 2);
            if rest.chars().count() <= room + 2 {
                break;
            }
            let limit = rest.char_indices().nth(room).map_or(rest.len(), |(i, _)| i);
            let window = &rest[..limit];
            let cut = if command {
                window.rfind(" --").or_else(|| window.rfind(' '))
            } else {
                window.rfind(", ").map(|i| i + 1).or_else(|| window.rfind(' '))
            };
            let floor = if lead.is_empty() { indent } else { 0 };
            let Some(cut) = cut.filter(|&c| c > floor) else {
                break;
            };
            out.push_str(lead);
            out.push_str(&rest[..cut]);
            out.push_str(if command { " \\\n" } else { "\n" });
            rest = rest[cut..].trim_start();
            lead = &pad;
        }
        out.push_str(lead);
        out.push_str(rest);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_assumption_line_breaks_after_commas_within_the_limit() {
        let line = format!(
            "  reduced FSS (rank 1): assumptions left: {}\n",
            vec!["n@19 > 0 (20:21)"; 30].join(", ")
        );
        let out = wrap_long_lines(&line, 80);
        assert!(out.lines().count() > 1, "{out}");
        assert!(out.lines().all(|l| l.chars().count() <= 80), "{out}");
        assert!(out.lines().skip(1).all(|l| l.starts_with("      n@19")), "{out}");
        let words = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(words(&out), words(&line));
    }

    #[test]
    fn a_long_replay_command_is_continued_as_a_shell_reads_it() {
        let inputs: Vec<String> = (0..40).map(|i| format!("--input 'a[{i}]=0'")).collect();
        let line = format!("  replay: focuscheck run f.c {}\n", inputs.join(" "));
        let out = wrap_long_lines(&line, 100);
        assert!(out.lines().all(|l| l.chars().count() <= 100), "{out}");
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[..lines.len() - 1].iter().all(|l| l.ends_with(" \\")), "{out}");
        let joined = out
            .replace(" \\\n", " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(joined, line.split_whitespace().collect::<Vec<_>>().join(" "));
    }

    #[test]
    fn short_lines_and_texts_are_unchanged() {
        assert_eq!(wrap_long_lines("a b c\n  d\n", 10), "a b c\n  d\n");
        assert_eq!(shortened("abc", 10), "abc");
        let s = shortened(&"x".repeat(300), 120);
        assert_eq!(s.chars().count(), 120);
        assert!(s.contains('\u{2026}'));
    }
}
