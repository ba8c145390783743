//! Repetition folded for presentation: consecutive runs of the same
//! sequence of items (loop iterations, recursive calls) become one entry
//! with a count, the first and last runs in full, and the range of every
//! value the runs produce. Every view (traces, FSS statements, NEST lines)
//! folds through here, so a report does not grow with the number of
//! iterations. Repetition is found generically, as periods of item keys
//! (a key says which statement an item is, never its values), and as the
//! items arrive, so a trace of millions of steps is never held unfolded.

use std::collections::VecDeque;

/// Something a sequence to fold is made of.
pub trait Foldable {
    /// Which statement (or event) the item is: equal keys repeat. Values
    /// and call depth stay out of it, so iterations and recursive calls
    /// fold.
    fn fold_key(&self) -> u64;
    /// The named values the item produces (`i = 4`), for ranges.
    fn fold_values(&self) -> Vec<(String, i64)> {
        Vec::new()
    }
}

/// The longest period looked for (items per iteration).
const MAX_PERIOD: usize = 48;
/// Past this many top-level entries (repetition that is not periodic),
/// only the first `HEAD` and last `TAIL` are kept, the rest counted.
const HEAD: usize = 60;
const TAIL: usize = 60;

/// The values one name took across a repetition.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Range {
    pub name: String,
    pub min: i64,
    pub max: i64,
}

#[derive(Clone, Debug)]
pub struct Repeat<T> {
    /// Consecutive runs of the same items, first and last included.
    pub count: u64,
    /// Items of the unfolded sequence it stands for.
    pub steps: u64,
    pub first: Vec<Folded<T>>,
    pub last: Vec<Folded<T>>,
    /// Each value's range over all the runs, in order of first appearance.
    pub ranges: Vec<Range>,
    period: Vec<u64>,
}

#[derive(Clone, Debug)]
pub enum Folded<T> {
    One(T),
    Repeat(Box<Repeat<T>>),
    /// Entries left out of an over-long sequence that does not repeat
    /// periodically: how many items of the unfolded sequence.
    Omitted {
        steps: u64,
    },
}

impl<T: Foldable> Folded<T> {
    /// Items of the unfolded sequence this entry stands for.
    pub fn steps(&self) -> u64 {
        match self {
            Folded::One(_) => 1,
            Folded::Repeat(r) => r.steps,
            Folded::Omitted { steps } => *steps,
        }
    }

    /// Lines it takes to show: a repetition of two runs is shown as both.
    fn shown(&self) -> usize {
        match self {
            Folded::Repeat(r) => {
                let runs: usize = r.first.iter().chain(&r.last).map(Folded::shown).sum();
                runs + if r.count == 2 { 0 } else { 2 }
            }
            _ => 1,
        }
    }

    fn add_ranges(&self, into: &mut Vec<Range>) {
        match self {
            Folded::One(t) => {
                for (name, v) in t.fold_values() {
                    widen(into, &name, v, v);
                }
            }
            Folded::Repeat(r) => {
                for x in &r.ranges {
                    widen(into, &x.name, x.min, x.max);
                }
            }
            Folded::Omitted { .. } => {}
        }
    }
}

fn widen(into: &mut Vec<Range>, name: &str, min: i64, max: i64) {
    match into.iter_mut().find(|r| r.name == name) {
        Some(r) => {
            r.min = r.min.min(min);
            r.max = r.max.max(max);
        }
        None => into.push(Range {
            name: name.to_string(),
            min,
            max,
        }),
    }
}

/// A repetition's key: its period's keys (not its count), so that an outer
/// loop whose inner loop runs a different number of times still repeats.
fn period_key(period: &[u64]) -> u64 {
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15;
    for &k in period {
        h = (h ^ k).wrapping_mul(0x100_0000_01b3).rotate_left(29);
    }
    h ^ 0x5bd1_e995
}

/// Folds a sequence as it is produced: `push` each item, then `finish`.
/// After each item the end of the window folds while it can: entries that
/// repeat the period of the repetition just before them join it as its
/// last run, and two equal runs at the end become a repetition. So an
/// inner loop folds within each outer iteration, and the outer iterations
/// (the inner repetition one entry of them) fold in turn.
pub struct Folder<T> {
    /// Entries that can still fold (the detection window).
    open: Vec<(u64, Folded<T>)>,
    /// Entries that left the window: the first `HEAD`, the last `TAIL`,
    /// and how many items those in between stood for.
    head: Vec<Folded<T>>,
    tail: VecDeque<Folded<T>>,
    dropped: u64,
    /// Entries shown for `head` and `tail` (`Folded::shown`).
    head_size: usize,
    tail_size: usize,
}

impl<T: Foldable> Default for Folder<T> {
    fn default() -> Self {
        Folder {
            open: Vec::new(),
            head: Vec::new(),
            tail: VecDeque::new(),
            dropped: 0,
            head_size: 0,
            tail_size: 0,
        }
    }
}

impl<T: Foldable> Folder<T> {
    pub fn push(&mut self, item: T) {
        let k = item.fold_key();
        self.open.push((k, Folded::One(item)));
        while self.extend_repeat() || self.new_repeat() {}
        if self.open.len() > 4 * MAX_PERIOD {
            let out: Vec<(u64, Folded<T>)> = self.open.drain(..2 * MAX_PERIOD).collect();
            for (_, e) in out {
                self.retire(e);
            }
        }
    }

    /// The last `p` entries are one more run of the repetition before them.
    fn extend_repeat(&mut self) -> bool {
        let n = self.open.len();
        let found = (1..=MAX_PERIOD.min(n.saturating_sub(1))).find(|&p| match &self.open[n - p - 1].1 {
            Folded::Repeat(r) => r.period.len() == p && (0..p).all(|i| r.period[i] == self.open[n - p + i].0),
            _ => false,
        });
        let Some(p) = found else { return false };
        let run: Vec<Folded<T>> = self.open.drain(n - p..).map(|(_, e)| e).collect();
        if let Some((_, Folded::Repeat(r))) = self.open.last_mut() {
            for x in &run {
                x.add_ranges(&mut r.ranges);
                r.steps += x.steps();
            }
            r.count += 1;
            r.last = run;
        }
        true
    }

    /// The last `2p` entries are two equal runs: a new repetition.
    fn new_repeat(&mut self) -> bool {
        let Some(p) = self.period_at_end() else { return false };
        let n = self.open.len();
        let second: Vec<Folded<T>> = self.open.drain(n - p..).map(|(_, e)| e).collect();
        let first: Vec<(u64, Folded<T>)> = self.open.drain(n - 2 * p..).collect();
        let period: Vec<u64> = first.iter().map(|(k, _)| *k).collect();
        let first: Vec<Folded<T>> = first.into_iter().map(|(_, e)| e).collect();
        let mut ranges = Vec::new();
        let mut steps = 0;
        for x in first.iter().chain(&second) {
            x.add_ranges(&mut ranges);
            steps += x.steps();
        }
        let key = period_key(&period);
        let r = Repeat {
            count: 2,
            steps,
            first,
            last: second,
            ranges,
            period,
        };
        self.open.push((key, Folded::Repeat(Box::new(r))));
        true
    }

    /// The shortest period `p` with the last `2p` entries two equal runs.
    fn period_at_end(&self) -> Option<usize> {
        let n = self.open.len();
        (1..=MAX_PERIOD.min(n / 2)).find(|&p| (0..p).all(|i| self.open[n - 1 - i].0 == self.open[n - 1 - p - i].0))
    }

    fn retire(&mut self, e: Folded<T>) {
        let size = e.shown();
        if self.dropped == 0 && self.tail.is_empty() && self.head_size + size <= HEAD {
            self.head_size += size;
            self.head.push(e);
            return;
        }
        self.tail_size += size;
        self.tail.push_back(e);
        while self.tail_size > TAIL && self.tail.len() > 1 {
            if let Some(x) = self.tail.pop_front() {
                self.tail_size -= x.shown();
                self.dropped += x.steps();
            }
        }
    }

    /// The folded sequence.
    pub fn finish(mut self) -> Vec<Folded<T>> {
        for (_, e) in std::mem::take(&mut self.open) {
            self.retire(e);
        }
        let mut out = Vec::new();
        for e in self.head.drain(..) {
            expand_small(e, &mut out);
        }
        if self.dropped > 0 {
            out.push(Folded::Omitted { steps: self.dropped });
        }
        while let Some(e) = self.tail.pop_front() {
            expand_small(e, &mut out);
        }
        out
    }
}

/// A repetition of two runs is shown as the two runs (folding hides none).
fn expand_small<T: Foldable>(e: Folded<T>, out: &mut Vec<Folded<T>>) {
    match e {
        Folded::Repeat(r) if r.count == 2 => {
            for x in r.first.into_iter().chain(r.last) {
                expand_small(x, out);
            }
        }
        Folded::Repeat(r) => {
            let r = *r;
            out.push(Folded::Repeat(Box::new(Repeat {
                first: expand_all(r.first),
                last: expand_all(r.last),
                ..r
            })));
        }
        e => out.push(e),
    }
}

fn expand_all<T: Foldable>(xs: Vec<Folded<T>>) -> Vec<Folded<T>> {
    let mut out = Vec::new();
    for x in xs {
        expand_small(x, &mut out);
    }
    out
}

/// Folds a whole sequence.
pub fn fold<T: Foldable>(items: impl IntoIterator<Item = T>) -> Vec<Folded<T>> {
    let mut f = Folder::default();
    for x in items {
        f.push(x);
    }
    f.finish()
}

/// The first and last line of a folded sequence's items.
pub fn line_span<T>(xs: &[Folded<T>], line: &dyn Fn(&T) -> u32) -> (u32, u32) {
    let mut span = (u32::MAX, 0);
    for x in xs {
        let (lo, hi) = match x {
            Folded::One(t) => (line(t), line(t)),
            Folded::Repeat(r) => line_span(&r.first, line),
            Folded::Omitted { .. } => continue,
        };
        span = (span.0.min(lo), span.1.max(hi));
    }
    span
}

/// `3,(14,15)×4096,17`: a folded sequence's items by `label`, each
/// repetition as its first run and count, equal neighbours as one
/// (`19,(19)×7,19` is `19×9`).
pub fn compact<T>(xs: &[Folded<T>], label: &dyn Fn(&T) -> String) -> Vec<String> {
    render_runs(compact_runs(xs, label))
}

fn render_runs(runs: super::repeats::Runs) -> Vec<String> {
    runs.0
        .into_iter()
        .map(|r| match r.count {
            1 => r.text,
            n => format!("{}×{n}", r.text),
        })
        .collect()
}

fn compact_runs<T>(xs: &[Folded<T>], label: &dyn Fn(&T) -> String) -> super::repeats::Runs {
    let mut runs = super::repeats::Runs::default();
    for x in xs {
        match x {
            Folded::One(t) => runs.push(label(t), 1),
            Folded::Repeat(r) => {
                let inner = compact_runs(&r.first, label);
                match inner.0.as_slice() {
                    // A run of one text (`(4,4)`) is that text more times.
                    [one] => runs.push(one.text.clone(), one.count * r.count),
                    _ => runs.push(format!("({})", render_runs(inner).join(",")), r.count),
                }
            }
            Folded::Omitted { steps } => runs.0.push(super::repeats::Run {
                text: format!("...{steps} more..."),
                count: 1,
            }),
        }
    }
    runs
}

/// Every item, unfolded (`--full-trace`).
pub fn unfolded<T>(items: impl IntoIterator<Item = T>) -> Vec<Folded<T>> {
    items.into_iter().map(Folded::One).collect()
}

/// A repetition in a document (JSON, and what text and HTML render):
/// `first` and `last` in full, the rest as `count` and `ranges`.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct RepeatDoc<D> {
    /// Runs, first and last included.
    pub count: u64,
    /// Items of the unfolded sequence it stands for.
    pub steps: u64,
    /// The first and last line of a run.
    pub lines: [u32; 2],
    pub first: Vec<D>,
    pub last: Vec<D>,
    pub ranges: Vec<Range>,
}

/// How a view makes its documents from folded items.
pub struct Docs<'a, T, D> {
    /// An item as it is.
    pub one: &'a dyn Fn(T) -> D,
    /// The first and last line a document covers.
    pub lines: &'a dyn Fn(&D) -> (u32, u32),
    /// A repetition (its first run is never empty).
    pub repeat: &'a dyn Fn(RepeatDoc<D>) -> D,
    /// Left-out steps, given the document after them.
    pub omitted: &'a dyn Fn(u64, Option<&D>) -> D,
}

impl<T, D> Docs<'_, T, D> {
    pub fn make(&self, xs: Vec<Folded<T>>) -> Vec<D> {
        let mut made: Vec<Result<D, u64>> = Vec::new();
        for x in xs {
            made.push(match x {
                Folded::One(t) => Ok((self.one)(t)),
                Folded::Omitted { steps } => Err(steps),
                Folded::Repeat(r) => {
                    let r = *r;
                    let first = self.make(r.first);
                    let last = self.make(r.last);
                    let mut lines = (u32::MAX, 0);
                    for d in &first {
                        let (lo, hi) = (self.lines)(d);
                        lines = (lines.0.min(lo), lines.1.max(hi));
                    }
                    let doc = RepeatDoc {
                        count: r.count,
                        steps: r.steps,
                        lines: [lines.0, lines.1],
                        first,
                        last,
                        ranges: r.ranges,
                    };
                    if doc.first.is_empty() {
                        Err(r.steps)
                    } else {
                        Ok((self.repeat)(doc))
                    }
                }
            });
        }
        let mut out: Vec<D> = Vec::with_capacity(made.len());
        let mut omitted = None;
        for m in made.into_iter().rev() {
            match m {
                Ok(d) => {
                    if let Some(steps) = omitted.take() {
                        let o = (self.omitted)(steps, Some(&d));
                        out.push(o);
                    }
                    out.push(d)
                }
                Err(steps) => omitted = Some(steps + omitted.unwrap_or(0)),
            }
        }
        if let Some(steps) = omitted {
            out.push((self.omitted)(steps, None));
        }
        out.reverse();
        out
    }
}

/// `lines 14-15 × 4096: `i` from 0 to 4095, `s` from 0 to 12285`, with
/// lines named by `label`.
pub fn repeat_text<D>(r: &RepeatDoc<D>, label: &dyn Fn(u32) -> String) -> String {
    let [lo, hi] = r.lines;
    let lines = if lo == hi {
        format!("line {}", label(lo))
    } else {
        format!("lines {}-{}", label(lo), label(hi))
    };
    let ranges = ranges_text(&r.ranges);
    if ranges.is_empty() {
        format!("{lines} × {}", r.count)
    } else {
        format!("{lines} × {}: {ranges}", r.count)
    }
}

/// What an `omitted` entry says.
pub fn omitted_text(steps: u64) -> String {
    format!(
        "{steps} step{} left out here (they do not repeat one sequence; `--full-trace` shows every step)",
        if steps == 1 { "" } else { "s" }
    )
}

/// `i` from 0 to 4095, `s` from 0 to 12285 (a constant as `= v`).
pub fn ranges_text(ranges: &[Range]) -> String {
    ranges
        .iter()
        .map(|r| {
            if r.min == r.max {
                format!("`{}` = {}", r.name, r.min)
            } else {
                format!("`{}` from {} to {}", r.name, r.min, r.max)
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Debug, PartialEq)]
    struct It(u64, i64);
    impl Foldable for It {
        fn fold_key(&self) -> u64 {
            self.0
        }
        fn fold_values(&self) -> Vec<(String, i64)> {
            vec![(format!("v{}", self.0), self.1)]
        }
    }

    fn total(xs: &[Folded<It>]) -> u64 {
        xs.iter().map(|x| x.steps()).sum()
    }

    #[test]
    fn a_loop_folds_to_one_entry_with_count_and_ranges() {
        // 0, then (1, 2) x 1000, then 3.
        let mut items = vec![It(0, 0)];
        for i in 0..1000 {
            items.push(It(1, i));
            items.push(It(2, 2 * i));
        }
        items.push(It(3, 7));
        let f = fold(items.clone());
        assert_eq!(total(&f), items.len() as u64);
        assert_eq!(f.len(), 3);
        let Folded::Repeat(r) = &f[1] else { panic!("{f:?}") };
        assert_eq!(r.count, 1000);
        assert_eq!(r.steps, 2000);
        assert_eq!(
            r.ranges[0],
            Range {
                name: "v1".into(),
                min: 0,
                max: 999
            }
        );
        assert_eq!(
            r.ranges[1],
            Range {
                name: "v2".into(),
                min: 0,
                max: 1998
            }
        );
        assert!(matches!(&r.first[..], [Folded::One(It(1, 0)), Folded::One(It(2, 0))]));
        assert!(matches!(
            &r.last[..],
            [Folded::One(It(1, 999)), Folded::One(It(2, 1998))]
        ));
    }

    #[test]
    fn nested_loops_with_varying_inner_counts_fold_twice() {
        let mut items = Vec::new();
        for i in 0..500 {
            items.push(It(10, i));
            for j in 0..(i % 7 + 3) {
                items.push(It(11, j));
            }
            items.push(It(12, i));
        }
        let f = fold(items.clone());
        assert_eq!(total(&f), items.len() as u64);
        assert!(f.len() <= 8, "{}", f.len());
    }

    #[test]
    fn an_irregular_sequence_is_cut_to_its_ends() {
        // A pseudo-random walk over 5 keys: no period.
        let mut x: u64 = 12345;
        let items: Vec<It> = (0..100_000)
            .map(|i| {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                It((x >> 33) % 5, i)
            })
            .collect();
        let f = fold(items.clone());
        assert_eq!(total(&f), items.len() as u64);
        assert!(f.len() <= HEAD + TAIL + 1, "{}", f.len());
        assert!(f.iter().map(Folded::shown).sum::<usize>() <= HEAD + TAIL + 1);
        assert!(f.iter().any(|e| matches!(e, Folded::Omitted { .. })));
    }

    #[test]
    fn short_sequences_are_unchanged() {
        let items = vec![It(1, 0), It(2, 0), It(1, 1), It(2, 1), It(3, 0)];
        let f = fold(items.clone());
        let back: Vec<It> = f
            .into_iter()
            .map(|e| match e {
                Folded::One(t) => t,
                e => panic!("{e:?}"),
            })
            .collect();
        assert_eq!(back, items);
    }
}
