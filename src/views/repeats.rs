//! Short sequences of texts a person reads (what successive visits of a
//! statement showed, the lines of an FSS) with their repeats counted:
//! equal neighbours become one text with a count (`true ×5`), and a group
//! of up to `MAX_PERIOD` texts repeated at least `MIN_REPEATS` times in a
//! row becomes the group once with its count
//! (`(accesses `a[...]`, then accesses `b[...]`) ×32`).

/// The longest group looked for.
const MAX_PERIOD: usize = 4;
/// Fewer repeats of a group are shown as they are.
const MIN_REPEATS: u64 = 3;

/// A text and how many times in a row it occurs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub text: String,
    pub count: u64,
}

/// Runs of equal texts, built as texts arrive.
#[derive(Clone, Debug, Default)]
pub struct Runs(pub Vec<Run>);

impl Runs {
    /// `text` occurring `count` times more; equal to the last run, it
    /// joins it.
    pub fn push(&mut self, text: String, count: u64) {
        match self.0.last_mut() {
            Some(last) if last.text == text => last.count += count,
            _ => self.0.push(Run { text, count }),
        }
    }
}

/// A piece of a folded sequence: one run, or a group of runs repeated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    Run(Run),
    Group(Vec<Run>, u64),
}

/// `runs` with every group of 2..=`MAX_PERIOD` runs repeated at least
/// `MIN_REPEATS` times in a row folded, from the left; at each place the
/// group covering the most runs wins (the shorter one on a tie).
pub fn periodic(runs: &[Run]) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < runs.len() {
        let mut best: Option<(usize, u64)> = None;
        for p in 2..=MAX_PERIOD {
            let unit = &runs[i..(i + p).min(runs.len())];
            let mut k: u64 = 1;
            let mut at = i + p;
            while at + p <= runs.len() && runs[at..at + p] == *unit {
                k += 1;
                at += p;
            }
            let covers = k as usize * p;
            if k >= MIN_REPEATS && best.is_none_or(|(bp, bk)| covers > bp * bk as usize) {
                best = Some((p, k));
            }
        }
        match best {
            Some((p, k)) => {
                out.push(Piece::Group(runs[i..i + p].to_vec(), k));
                i += p * k as usize;
            }
            None => {
                out.push(Piece::Run(runs[i].clone()));
                i += 1;
            }
        }
    }
    out
}

/// `true ×5, then (false, then true ×2) ×4`: successive texts with their
/// repeats counted, joined by `, then `.
pub fn then_list(texts: &[String]) -> String {
    let mut runs = Runs::default();
    for t in texts {
        runs.push(t.clone(), 1);
    }
    let run = |r: &Run| match r.count {
        1 => r.text.clone(),
        n => format!("{} ×{n}", r.text),
    };
    periodic(&runs.0)
        .iter()
        .map(|piece| match piece {
            Piece::Run(r) => run(r),
            Piece::Group(g, k) => {
                let inner: Vec<String> = g.iter().map(run).collect();
                format!("({}) ×{k}", inner.join(", then "))
            }
        })
        .collect::<Vec<_>>()
        .join(", then ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<String> {
        s.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn equal_neighbours_are_counted() {
        assert_eq!(then_list(&texts("t t t f")), "t ×3, then f");
        assert_eq!(then_list(&texts("t f t f")), "t, then f, then t, then f");
    }

    #[test]
    fn a_group_repeated_three_times_or_more_is_shown_once() {
        let alternating: Vec<String> = (0..64)
            .map(|i| if i % 2 == 0 { "a" } else { "b" }.to_string())
            .collect();
        assert_eq!(then_list(&alternating), "(a, then b) ×32");
        assert_eq!(then_list(&texts("x a b a b a b a")), "x, then (a, then b) ×3, then a");
        assert_eq!(then_list(&texts("t t f t t f t t f e")), "(t ×2, then f) ×3, then e");
    }

    #[test]
    fn the_group_covering_most_wins() {
        assert_eq!(
            then_list(&texts("a b a c a b a c a b a c")),
            "(a, then b, then a, then c) ×3"
        );
        // A tie goes to the shorter group.
        assert_eq!(then_list(&texts("a b a b a b a b a b a b")), "(a, then b) ×6");
        assert_eq!(then_list(&texts("a b c a b c a b c")), "(a, then b, then c) ×3");
    }
}
