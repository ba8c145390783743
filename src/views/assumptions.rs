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

/// `text` cut at its draw numbers (`#12`): the pieces around them and the
/// numbers (one piece more than numbers).
fn pieces(text: &str) -> (Vec<&str>, Vec<u64>) {
    let mut parts = Vec::new();
    let mut nums = Vec::new();
    let mut from = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'#' {
            let digits = bytes[i + 1..].iter().take_while(|d| d.is_ascii_digit()).count();
            if let Ok(n) = text[i + 1..i + 1 + digits].parse::<u64>() {
                parts.push(&text[from..i + 1]);
                nums.push(n);
                from = i + 1 + digits;
                i = from;
                continue;
            }
        }
        i += 1;
    }
    parts.push(&text[from..]);
    (parts, nums)
}

/// The text with the numbers at `vary` written `k` and the others kept.
fn render(parts: &[&str], nums: &[u64], vary: &[usize]) -> String {
    let mut out = String::new();
    for (j, part) in parts.iter().enumerate() {
        out.push_str(part);
        if let Some(n) = nums.get(j) {
            if vary.contains(&j) {
                out.push('k');
            } else {
                out.push_str(&n.to_string());
            }
        }
    }
    out
}

/// The ways an assumption can be one of a run: the positions of the
/// number that counts up (all of them when they are one draw named more
/// than once), the text with those written `k`, and that number.
fn varying(text: &str) -> Vec<(String, u64)> {
    let (parts, nums) = pieces(text);
    let Some(&first) = nums.first() else {
        return Vec::new();
    };
    if nums.iter().all(|&n| n == first) {
        let all: Vec<usize> = (0..nums.len()).collect();
        return vec![(render(&parts, &nums, &all), first)];
    }
    (0..nums.len())
        .map(|j| (render(&parts, &nums, &[j]), nums[j]))
        .collect()
}

/// Items shown as one: their positions in the list (the first is where
/// the group stands) and the text that stands for them.
pub struct Group {
    pub members: Vec<usize>,
    pub text: String,
}

/// The assumptions grouped: the items of one place whose texts differ only
/// in one draw number, counting up by one (each iteration draws anew), are
/// one group `template for k = a..b` (at least three of them), standing
/// where the first of them was; every other item is a group of its own.
/// The list is a set; only its presentation changes.
pub fn groups(items: &[Item]) -> Vec<Group> {
    type Key = (u32, u32, String);
    // Runs of numbers counting up by one, per place and template: (first
    // item, lowest, highest, members).
    type Run = (usize, u64, u64, Vec<usize>);
    let mut runs: std::collections::HashMap<Key, Vec<Run>> = std::collections::HashMap::new();
    // Per item: the runs it is in (key, index in `runs[key]`).
    let mut ways: Vec<Vec<(Key, usize)>> = Vec::with_capacity(items.len());
    for (i, x) in items.iter().enumerate() {
        let mut mine = Vec::new();
        for (t, n) in varying(&x.text) {
            let key = (x.line, x.column, t);
            let list = runs.entry(key.clone()).or_default();
            match list.last_mut() {
                Some((_, _, last, members)) if *last + 1 == n => {
                    *last = n;
                    members.push(i);
                }
                _ => list.push((i, n, n, vec![i])),
            }
            let at = list.len() - 1;
            mine.push((key, at));
        }
        ways.push(mine);
    }
    // Each item goes to the longest run it is in, if that has three.
    let chosen: Vec<Option<(&Key, usize)>> = ways
        .iter()
        .map(|mine| {
            mine.iter()
                .filter(|(key, at)| {
                    let r = &runs[key][*at];
                    r.2 - r.1 >= 2
                })
                .max_by_key(|(key, at)| {
                    let r = &runs[key][*at];
                    (r.2 - r.1, std::cmp::Reverse(r.0))
                })
                .map(|(key, at)| (key, *at))
        })
        .collect();
    // A run folds when every member chose it (an item in two runs stands
    // in the longer; the other run's members are then shown one by one).
    // Decided once per run: linear in the items, however long the runs.
    let mut whole: std::collections::HashMap<(&Key, usize), bool> = std::collections::HashMap::new();
    for c in chosen.iter().flatten() {
        whole
            .entry(*c)
            .or_insert_with(|| runs[c.0][c.1].3.iter().all(|&m| chosen[m] == Some(*c)));
    }
    let mut out = Vec::new();
    for (i, x) in items.iter().enumerate() {
        match chosen[i].filter(|c| whole[c]) {
            Some((key, at)) => {
                let (first, lo, hi, members) = &runs[key][at];
                if *first == i {
                    let members = members.clone();
                    // The counter's name: one the text does not use.
                    let taken = |l: &str| {
                        x.text
                            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                            .any(|w| w == l)
                    };
                    let l = ["k", "n", "j", "m"].into_iter().find(|l| !taken(l)).unwrap_or("k");
                    out.push(Group {
                        members,
                        text: counted(&key.2, l, *lo, *hi),
                    });
                }
            }
            None => out.push(Group {
                members: vec![i],
                text: x.text.clone(),
            }),
        }
    }
    out
}

/// A group's text. When the counted draw is the template's only numbered
/// one, as a person says it: `c@6 != 10 for the 1st..6th values` (of the
/// draw at line 6); otherwise with the counter: `v@48#1 == v@48#k for k =
/// 2..100`.
fn counted(template: &str, l: &str, lo: u64, hi: u64) -> String {
    let line = template
        .split("#k")
        .next()
        .and_then(|s| s.rsplit('@').next())
        .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()));
    match line {
        Some(_) if template.matches('#').count() == template.matches("#k").count() => format!(
            "{} for the {}..{} values",
            template.replace("#k", ""),
            ordinal(lo),
            ordinal(hi)
        ),
        _ => format!("{} for {l} = {lo}..{hi}", template.replace("#k", &format!("#{l}"))),
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `21st`, `112th`.
fn ordinal(n: u64) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The assumptions folded (`groups`), long texts shortened.
pub fn folded(items: &[Item]) -> Vec<Item> {
    groups(items)
        .into_iter()
        .map(|g| {
            let x = &items[g.members[0]];
            Item {
                text: short(&g.text),
                line: x.line,
                column: x.column,
            }
        })
        .collect()
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
            vec!["v@11 >= 200 for the 1st..20th values", "s@16 < 5"]
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
            vec![
                "v@5 >= 200 for the 1st..5th values",
                "v@5 <= 300 for the 1st..5th values"
            ]
        );
    }

    #[test]
    fn other_places_gaps_and_two_changing_numbers_do_not_fold() {
        let items = vec![
            item("v@11#1 >= 200", 12),
            item("v@11#2 >= 200", 12),
            item("v@11#4 >= 200", 12),
            item("v@11#5 + w@3#6 > 0", 12),
            item("v@11#6 + w@3#7 > 0", 12),
            item("v@11#7 + w@3#8 > 0", 12),
            item("v@11#6 >= 200", 13),
        ];
        assert_eq!(folded(&items), items);
    }

    #[test]
    fn one_number_counting_up_beside_a_fixed_one_folds() {
        let mut items: Vec<Item> = (2..=1000).map(|k| item(&format!("v@48#1 == v@48#{k}"), 23)).collect();
        items.push(item("v@48#1 != 0", 23));
        let g = groups(&items);
        assert_eq!(g.len(), 2);
        assert_eq!(g[0].text, "v@48#1 == v@48#k for k = 2..1000");
        assert_eq!(g[0].members, (0..999).collect::<Vec<_>>());
        assert_eq!(g[1].text, "v@48#1 != 0");
    }

    #[test]
    fn an_item_in_two_runs_stands_in_the_longer_and_none_is_lost() {
        let texts = [
            "v#3 < w#5",
            "v#4 < w#5",
            "v#5 < w#5",
            "v#3 < w#6",
            "v#3 < w#7",
            "v#3 < w#8",
        ];
        let items: Vec<Item> = texts.iter().map(|t| item(t, 4)).collect();
        let g = groups(&items);
        let shown: Vec<(&str, &[usize])> = g.iter().map(|x| (x.text.as_str(), &x.members[..])).collect();
        assert_eq!(
            shown,
            vec![
                ("v#3 < w#k for k = 5..8", &[0, 3, 4, 5][..]),
                ("v#4 < w#5", &[1][..]),
                ("v#5 < w#5", &[2][..]),
            ]
        );
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
