//! A loop's own test, weakened, as a candidate loop invariant in C: `i <
//! *pa` at a `while`/`for` gives `i <= *pa` at its keyword.
//!
//! It is for the relations the other sources cannot state: reads through
//! pointers (`*p`, `p->n`), which the memory model turns into cases on
//! the object a pointer names, so no fact over the program's scalars says
//! them in C. The loop's test is C that is valid at the loop's head (it
//! is evaluated there, over names in scope there), so its text is the
//! invariant's text. A comparison `a < b` that held when the body was
//! entered still holds as `a <= b` after a body that moves `a` up by one
//! (or `b` down), the usual counting loop; whether it does is for the
//! proof: the caller keeps it only if the witness with it is confirmed.
//!
//! Only a test that is one comparison `<` or `>` of side-effect-free
//! operands (names, constants, `+ - *`, `->`, `.`, `[]`, parentheses; no
//! call, no `/`, no assignment) that reads through a pointer is taken.

use super::correctness_witness::{loop_keyword, LoopInvariant};
use crate::facts::Analysis;
use crate::ir::Program;

/// The text of the test of the `while`/`for` loop whose keyword is at
/// `at`, if it has one (a `for` with an empty test has none).
fn test_text(text: &str, at: usize) -> Option<&str> {
    let rest = &text[at..];
    let is_for = rest.starts_with("for");
    let kw = if is_for { 3 } else { 5 };
    (is_for || rest.starts_with("while")).then_some(())?;
    let open = at + kw + text[at + kw..].find(|c: char| !c.is_ascii_whitespace())?;
    (text.as_bytes().get(open) == Some(&b'(')).then_some(())?;
    let mut depth = 0i32;
    let mut start = open + 1;
    for (i, c) in text[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 1 => return (!is_for).then(|| &text[start..open + i]),
            ')' => depth -= 1,
            ';' if depth == 1 && is_for && start == open + 1 => start = open + i + 1,
            ';' if depth == 1 && is_for => return Some(&text[start..open + i]),
            _ => {}
        }
    }
    None
}

/// `test` weakened to hold at the loop's head (`<` as `<=`, `>` as
/// `>=`), one line, if it is one comparison of side-effect-free operands
/// one of which reads through a pointer.
fn weakened(test: &str) -> Option<String> {
    let t = test.split_whitespace().collect::<Vec<_>>().join(" ");
    let ok_char = |c: char| c.is_ascii_alphanumeric() || " _*+-()[]<>.".contains(c);
    if t.is_empty() || !t.chars().all(ok_char) || t.contains("++") || t.contains("--") {
        return None;
    }
    let b = t.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    // No call: a name followed by `(`.
    let prev = |i: usize| t[..i].trim_end().bytes().next_back();
    if (0..b.len()).any(|i| b[i] == b'(' && prev(i).is_some_and(word)) {
        return None;
    }
    // The comparisons at the top level (not `->`, `<<`, `>>`).
    let mut depth = 0;
    let mut ops = Vec::new();
    for i in 0..b.len() {
        match b[i] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b'<' | b'>' if depth == 0 => {
                let arrow = b[i] == b'>' && i > 0 && b[i - 1] == b'-';
                let shift = b.get(i + 1) == Some(&b[i]) || (i > 0 && b[i - 1] == b[i]);
                if shift {
                    return None;
                }
                if !arrow {
                    ops.push(i);
                }
            }
            _ => {}
        }
    }
    let [i] = ops[..] else { return None };
    if b.get(i + 1) == Some(&b'=') {
        return None;
    }
    // A read through a pointer: `->`, or a `*` where no operand ends.
    let unary_star = (0..b.len()).any(|k| b[k] == b'*' && prev(k).is_none_or(|c| !(word(c) || c == b')' || c == b']')));
    (t.contains("->") || unary_star)
        .then(|| format!("{} {}= {}", t[..i].trim_end(), b[i] as char, t[i + 1..].trim_start()))
}

/// `loops` with each `while`/`for` loop whose test reads through a
/// pointer given its test, weakened, too; `None` if no loop has one.
pub fn with_tests(p: &Program, a: &Analysis, loops: &[LoopInvariant]) -> Option<Vec<LoopInvariant>> {
    let text = p.source.text.as_str();
    let mut out = loops.to_vec();
    let mut added = false;
    for l in &a.loops {
        let Some(at) = loop_keyword(p, l.head) else { continue };
        let Some(guard) = test_text(text, at as usize).and_then(weakened) else {
            continue;
        };
        match out.iter_mut().find(|x| x.at == at) {
            Some(x) if x.value.split(" && ").any(|c| c == guard) => continue,
            Some(x) if x.value.is_empty() => x.value = guard,
            Some(x) => x.value = format!("{} && {guard}", x.value),
            None => out.push(LoopInvariant {
                at,
                function: p.proc(l.proc).name.clone(),
                value: guard,
                quantified: Vec::new(),
            }),
        }
        added = true;
    }
    out.sort_by_key(|x| x.at);
    added.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_are_weakened_only_when_they_read_through_a_pointer() {
        let w = |t: &str| weakened(t);
        assert_eq!(w("i < *pa").as_deref(), Some("i <= *pa"));
        assert_eq!(w(" p->n >\n i ").as_deref(), Some("p->n >= i"));
        assert_eq!(w("i < s->a[k] + 1").as_deref(), Some("i <= s->a[k] + 1"));
        for t in [
            "i < n",
            "i <= *p",
            "f(p) < 3",
            "i++ < *p",
            "*p << 2 < i",
            "i < *p && j < 2",
            "i / 2 < *p",
            "i != *p",
        ] {
            assert_eq!(w(t), None, "{t}");
        }
        let text = "for (int i = 0; i < *p; i++) while (x->n > k) {}";
        assert_eq!(test_text(text, 0), Some(" i < *p"));
        assert_eq!(test_text(text, text.find("while").unwrap()), Some("x->n > k"));
        assert_eq!(test_text("for (;;) {}", 0), Some(""));
    }
}
