//! Assumption lists as people read them: a loop that draws an input in
//! every iteration makes one assumption per draw (`v@11#1 >= 200`,
//! `v@11#2 >= 200`, ...); shown one by one, the list grows with the
//! iterations. Consecutive assumptions of one place that differ only in the
//! draw's number are shown as one (`v@11#k >= 200 for k = 1..20`), and a
//! text longer than a line is shortened in the middle. JSON keeps every
//! assumption whole.

/// Longest assumption text shown whole in text views.
const MAX_TEXT: usize = 160;

/// One assumption as given: its text and where it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub text: String,
    pub line: u32,
    pub column: u32,
}

impl From<&super::json::AssumptionDoc> for Item {
    fn from(a: &super::json::AssumptionDoc) -> Item {
        Item {
            text: a.text.clone(),
            line: a.line,
            column: a.column,
        }
    }
}

/// `folded` of a report's assumptions, as texts.
pub fn folded_texts<'a>(a: impl IntoIterator<Item = &'a super::json::AssumptionDoc>) -> Vec<String> {
    let items: Vec<Item> = a.into_iter().map(Item::from).collect();
    folded(&items).into_iter().map(|x| x.text).collect()
}

/// `text` with every draw number (`#12`) replaced by `#k`, and the numbers.
fn template(text: &str) -> (String, Vec<u64>) {
    let mut out = String::with_capacity(text.len());
    let mut nums = Vec::new();
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        out.push(c);
        if c != '#' {
            continue;
        }
        let digits: String = text[i + 1..].chars().take_while(|d| d.is_ascii_digit()).collect();
        if let (false, Ok(n)) = (digits.is_empty(), digits.parse::<u64>()) {
            out.push('k');
            nums.push(n);
            for _ in 0..digits.len() {
                chars.next();
            }
        }
    }
    (out, nums)
}

/// The draw number of an assumption that names exactly one (however often).
fn single(nums: &[u64]) -> Option<u64> {
    let first = *nums.first()?;
    nums.iter().all(|&n| n == first).then_some(first)
}

/// The assumptions folded: the items of one place whose texts differ only
/// in one draw number, counting up by one (each iteration draws anew), are
/// one item `template for k = a..b`, where the first of them was (the
/// list is a set; only its presentation changes). Long texts are shortened.
pub fn folded(items: &[Item]) -> Vec<Item> {
    type Key = (u32, u32, String);
    // Runs of numbers counting up by one, per place and template.
    let mut runs: std::collections::HashMap<Key, Vec<(usize, u64, u64)>> = std::collections::HashMap::new();
    let mut keys: Vec<Option<(Key, u64)>> = Vec::with_capacity(items.len());
    for (i, x) in items.iter().enumerate() {
        let (t, nums) = template(&x.text);
        let Some(n) = single(&nums) else {
            keys.push(None);
            continue;
        };
        let key = (x.line, x.column, t);
        let list = runs.entry(key.clone()).or_default();
        match list.last_mut() {
            Some((_, _, last)) if *last + 1 == n => *last = n,
            _ => list.push((i, n, n)),
        }
        keys.push(Some((key, n)));
    }
    let mut out = Vec::new();
    for (i, x) in items.iter().enumerate() {
        let run = keys[i]
            .as_ref()
            .and_then(|(key, n)| runs[key].iter().find(|r| r.1 <= *n && *n <= r.2).map(|r| (key, r)));
        match run {
            Some((key, &(first, lo, hi))) if hi - lo >= 2 => {
                if first == i {
                    out.push(Item {
                        text: format!("{} for k = {lo}..{hi}", short(&key.2)),
                        line: x.line,
                        column: x.column,
                    });
                }
            }
            _ => out.push(Item {
                text: short(&x.text),
                line: x.line,
                column: x.column,
            }),
        }
    }
    out
}

/// `text`, or its start and end around `…` when it is longer than a line.
pub fn short(text: &str) -> String {
    let n = text.chars().count();
    if n <= MAX_TEXT {
        return text.to_string();
    }
    let keep = MAX_TEXT / 2 - 10;
    let head: String = text.chars().take(keep).collect();
    let tail: String = text.chars().skip(n - keep).collect();
    format!(
        "{head} … ({} characters; --format json has it whole) … {tail}",
        n - 2 * keep
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(text: &str, line: u32) -> Item {
        Item {
            text: text.to_string(),
            line,
            column: 9,
        }
    }

    #[test]
    fn draws_counting_up_at_one_place_fold() {
        let mut items: Vec<Item> = (1..=20).map(|k| item(&format!("v@11#{k} >= 200"), 12)).collect();
        items.push(item("s@16 < 5", 16));
        let f = folded(&items);
        assert_eq!(
            f.iter().map(|x| x.text.as_str()).collect::<Vec<_>>(),
            vec!["v@11#k >= 200 for k = 1..20", "s@16 < 5"]
        );
    }

    #[test]
    fn interleaved_places_fold_each() {
        let mut items = Vec::new();
        for k in 1..=5 {
            items.push(item(&format!("v@5#{k} >= 200"), 6));
            items.push(Item {
                text: format!("v@5#{k} <= 300"),
                line: 6,
                column: 20,
            });
        }
        let f = folded(&items);
        assert_eq!(
            f.iter().map(|x| x.text.as_str()).collect::<Vec<_>>(),
            vec!["v@5#k >= 200 for k = 1..5", "v@5#k <= 300 for k = 1..5"]
        );
    }

    #[test]
    fn other_places_gaps_and_two_numbers_do_not_fold() {
        let items = vec![
            item("v@11#1 >= 200", 12),
            item("v@11#2 >= 200", 12),
            item("v@11#4 >= 200", 12),
            item("v@11#5 + w@3#6 > 0", 12),
            item("v@11#6 >= 200", 13),
        ];
        assert_eq!(folded(&items), items);
    }

    #[test]
    fn long_texts_are_shortened_in_the_middle() {
        let long = format!("({}) < 5", "x + ".repeat(100));
        let s = short(&long);
        assert!(s.len() < 200, "{s}");
        assert!(s.starts_with("(x + x"), "{s}");
        assert!(s.ends_with(") < 5"), "{s}");
        assert!(s.contains("--format json"), "{s}");
    }
}
