//! Focus-statement sequences as values: events, sequences, and the lattice
//! of suffix sets the backward rules join.
//!
//! A set of suffixes is kept as an *antichain* under the subsequence order:
//! a suffix that contains another one (from the same state, with the same
//! Error set) explains nothing more and is dropped. By Higman's lemma such
//! antichains are finite and every chain of joins stops, so the backward
//! fixpoint ends even where the state graph has cycles.

use crate::analysis::hash::Wide;
use crate::analysis::state::LabelId;
use crate::ir::NodeId;
use std::sync::Arc;

/// What a focus event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EvKind {
    /// An assignment (or a non-deterministic draw).
    Assign,
    /// A branch atom with its outcome.
    Branch(bool),
    /// A call statement whose callee holds a focus statement.
    Call,
    /// Parameter number i is passed (it matters).
    Param(u32),
    /// The callee's segment ends (no statement; keeps frames apart).
    Leave,
    /// The call's result is assigned.
    Result,
    /// A written `return` (with its value, or closing a focus segment).
    Return,
    /// The statement that violates the condition.
    Error,
}

/// A focus statement of a counterexample: a node, what it did, and the
/// decisions of its step (which element an index named, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Event {
    pub node: NodeId,
    pub kind: EvKind,
    pub label: LabelId,
}

/// A sequence of focus events: a shared list whose cells cache their
/// length, the hash of the suffix they start (taken from the end: a cell's hash
/// is its event's words fed after the rest's hash),
/// a fingerprint and whether a call is in it. The backward walk builds
/// sequences by putting one event in front of the next state's: that
/// shares the rest, so a run of L steps costs O(L), not O(L²), and
/// hashing or comparing two sequences that share their tail stops there.
#[derive(Clone, Default)]
pub struct Fss(Option<Arc<Cell>>);

struct Cell {
    ev: Event,
    next: Fss,
    len: usize,
    key: u128,
    fp: u64,
    call: bool,
}

/// The key of the empty suffix.
fn empty_key() -> u128 {
    Wide::default().word(u64::MAX - 1).finish128()
}

/// The bit an event sets in a fingerprint.
fn fp_bit(e: &Event) -> u64 {
    let h =
        (e.node.0 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (e.label.0 as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    let k = match e.kind {
        EvKind::Branch(true) => 1,
        EvKind::Branch(false) => 2,
        _ => 3,
    };
    1u64 << ((h.wrapping_add(k) >> 58) & 63)
}

impl Fss {
    pub fn new() -> Fss {
        Fss::default()
    }

    pub fn unit(e: Event) -> Fss {
        Fss::new().cons(e)
    }

    /// `ev` in front of `self` (which is shared, not copied).
    pub fn cons(&self, ev: Event) -> Fss {
        let key = words(std::slice::from_ref(&ev))
            .fold(Wide::from_u128(self.key()), Wide::word)
            .finish128();
        Fss(Some(Arc::new(Cell {
            ev,
            next: self.clone(),
            len: self.len() + 1,
            key,
            fp: self.fp() | fp_bit(&ev),
            call: self.has_call() || ev.kind == EvKind::Call,
        })))
    }

    /// `events` in front of `self`.
    pub fn prefixed(&self, events: &[Event]) -> Fss {
        events.iter().rev().fold(self.clone(), |f, e| f.cons(*e))
    }

    pub fn len(&self) -> usize {
        self.0.as_ref().map_or(0, |c| c.len)
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_none()
    }

    /// The hash of the sequence, taken from its end (another family than
    /// [`hash128`]): the pruning chain's memo keys suffixes by it.
    pub fn key(&self) -> u128 {
        self.0.as_ref().map_or_else(empty_key, |c| c.key)
    }

    fn fp(&self) -> u64 {
        self.0.as_ref().map_or(0, |c| c.fp)
    }

    fn has_call(&self) -> bool {
        self.0.as_ref().is_some_and(|c| c.call)
    }

    pub fn first(&self) -> Option<&Event> {
        self.0.as_ref().map(|c| &c.ev)
    }

    /// The sequence without its first event.
    pub fn rest(&self) -> Fss {
        self.0.as_ref().map(|c| c.next.clone()).unwrap_or_default()
    }

    pub fn iter(&self) -> Iter<'_> {
        Iter(self.0.as_deref())
    }

    pub fn to_vec(&self) -> Vec<Event> {
        self.iter().copied().collect()
    }

    /// `ev` at the end.
    pub fn push_back(&mut self, ev: Event) {
        *self = Fss::unit(ev).prefixed(&self.to_vec());
    }

    /// The events from `at` on (shared).
    pub fn split_off(&self, at: usize) -> Fss {
        let mut f = self;
        for _ in 0..at {
            match &f.0 {
                Some(c) => f = &c.next,
                None => break,
            }
        }
        f.clone()
    }

    fn same(&self, other: &Fss) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

/// The events in order.
pub struct Iter<'a>(Option<&'a Cell>);

impl<'a> Iterator for Iter<'a> {
    type Item = &'a Event;

    fn next(&mut self) -> Option<&'a Event> {
        let c = self.0?;
        self.0 = c.next.0.as_deref();
        Some(&c.ev)
    }
}

impl<'a> IntoIterator for &'a Fss {
    type Item = &'a Event;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// Long lists are dropped cell by cell, not by recursion.
impl Drop for Fss {
    fn drop(&mut self) {
        let mut next = self.0.take();
        while let Some(rc) = next {
            match Arc::try_unwrap(rc) {
                Ok(mut cell) => next = cell.next.0.take(),
                Err(_) => break,
            }
        }
    }
}

impl PartialEq for Fss {
    /// Walks until the two share their rest.
    fn eq(&self, other: &Fss) -> bool {
        if self.len() != other.len() || self.key() != other.key() {
            return false;
        }
        let (mut a, mut b) = (self, other);
        while !a.same(b) {
            match (&a.0, &b.0) {
                (Some(x), Some(y)) if x.ev == y.ev => {
                    a = &x.next;
                    b = &y.next;
                }
                _ => return false,
            }
        }
        true
    }
}

impl Eq for Fss {}

impl std::hash::Hash for Fss {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u128(self.key());
        h.write_usize(self.len());
    }
}

impl Ord for Fss {
    /// Lexicographic over the events, as slices compare.
    fn cmp(&self, other: &Fss) -> std::cmp::Ordering {
        if self.same(other) {
            return std::cmp::Ordering::Equal;
        }
        self.iter().cmp(other.iter())
    }
}

impl PartialOrd for Fss {
    fn partial_cmp(&self, other: &Fss) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Debug for Fss {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl FromIterator<Event> for Fss {
    fn from_iter<I: IntoIterator<Item = Event>>(it: I) -> Fss {
        let v: Vec<Event> = it.into_iter().collect();
        Fss::new().prefixed(&v)
    }
}

/// A 64-bit summary of which events a sequence holds: if `a` is a
/// subsequence of `b`, `fingerprint(a) & !fingerprint(b) == 0`, so most
/// comparisons end at one AND.
pub fn fingerprint(f: &Fss) -> u64 {
    f.fp()
}

/// A 128-bit hash of a sequence's events (`analysis::hash::Wide`), for
/// memo tables that keep the hash and not the sequence.
pub fn hash128(f: &Fss) -> u128 {
    Hash128::default().feed(f.iter()).finish()
}

/// [`hash128`] taken in parts: events fed in order give the hash of
/// their concatenation.
#[derive(Clone, Copy, Default)]
pub struct Hash128(Wide);

impl Hash128 {
    pub fn feed<'a>(self, events: impl IntoIterator<Item = &'a Event> + 'a) -> Hash128 {
        Hash128(words(events).fold(self.0, Wide::word))
    }

    /// Ends a part: parts fed with marks between them hash apart from the
    /// same events split otherwise.
    pub fn mark(self) -> Hash128 {
        Hash128(self.0.word(u64::MAX))
    }

    pub fn finish(self) -> u128 {
        self.0.finish128()
    }
}

/// Each event's fields as words.
fn words<'a>(f: impl IntoIterator<Item = &'a Event> + 'a) -> impl Iterator<Item = u64> + 'a {
    f.into_iter().flat_map(|e| {
        let kind = match e.kind {
            EvKind::Assign => 1,
            EvKind::Branch(false) => 2,
            EvKind::Branch(true) => 3,
            EvKind::Call => 4,
            EvKind::Param(k) => 5 + ((k as u64) << 8),
            EvKind::Leave => 6,
            EvKind::Result => 7,
            EvKind::Return => 8,
            EvKind::Error => 9,
        };
        [e.node.0 as u64, kind, e.label.0 as u64]
    })
}

/// Call nesting up to which [`is_subseq`] keeps frames apart; deeper
/// segments are compared as flat sequences. A bound keeps the order a
/// well-quasi-order (Higman's lemma, level by level), so joins still stop
/// where recursion nests summaries without end.
pub const NESTING: u32 = 16;

/// Is `a` a subsequence of `b`, frame by frame? A call's segment (its
/// events up to the matching `Leave`) must sit inside the segment of the
/// call it is matched to: `<call f, [p <= 0], leave>` is not inside
/// `<call f, call f, [p <= 0], leave, leave>`, where the test is made by
/// the inner activation.
pub fn is_subseq(a: &Fss, b: &Fss) -> bool {
    if a.len() > b.len() {
        return false;
    }
    // Without calls there are no frames to keep apart (the common case, on
    // the hot path of every join).
    if !a.has_call() && !b.has_call() {
        return flat(a.iter(), b.iter());
    }
    Flat::new(a).within(&Flat::new(b))
}

/// A sequence laid out for many subsequence tests: where there is a call,
/// its events in a slice and where each call's segment closes.
struct Flat {
    ev: Fss,
    /// Empty when there is no call (then only `ev` is read).
    slice: Vec<Event>,
    close: Vec<usize>,
}

impl Flat {
    fn new(f: &Fss) -> Flat {
        let slice = if f.has_call() { f.to_vec() } else { Vec::new() };
        Flat {
            close: if f.has_call() { closes(&slice) } else { Vec::new() },
            slice,
            ev: f.clone(),
        }
    }

    fn len(&self) -> usize {
        self.ev.len()
    }

    /// Is `self` a subsequence of `b`, frame by frame ([`is_subseq`])?
    fn within(&self, b: &Flat) -> bool {
        if self.ev.len() > b.ev.len() || self.ev.fp() & !b.ev.fp() != 0 {
            return false;
        }
        if !self.ev.has_call() && !b.ev.has_call() {
            return flat(self.ev.iter(), b.ev.iter());
        }
        let (a, b) = (self.sliced(), b.sliced());
        // `embeds` reads a close index only at a call event.
        embeds((&a.0, &a.1, 0, a.0.len()), (&b.0, &b.1, 0, b.0.len()), 0)
    }

    /// The events as a slice, with close indices.
    fn sliced(&self) -> (std::borrow::Cow<'_, [Event]>, std::borrow::Cow<'_, [usize]>) {
        if self.ev.has_call() {
            (self.slice.as_slice().into(), self.close.as_slice().into())
        } else {
            let v = self.ev.to_vec();
            let c: Vec<usize> = (0..v.len()).collect();
            (v.into(), c.into())
        }
    }
}

/// Plain subsequence, frames ignored.
fn flat<'x>(mut a: impl Iterator<Item = &'x Event>, mut b: impl Iterator<Item = &'x Event>) -> bool {
    a.all(|x| b.any(|y| x == y))
}

/// For each call event, the index of its `Leave` (the slice's length when
/// its segment runs to the end); other events map to themselves.
fn closes(f: &[Event]) -> Vec<usize> {
    let mut out: Vec<usize> = (0..f.len()).collect();
    let mut open = Vec::new();
    for (i, e) in f.iter().enumerate() {
        match e.kind {
            EvKind::Call => open.push(i),
            EvKind::Leave => {
                if let Some(c) = open.pop() {
                    out[c] = i;
                }
            }
            _ => {}
        }
    }
    for c in open {
        out[c] = f.len();
    }
    out
}

/// What of a call an FSS keeps: the parameters its `Param` events pass, and
/// whether its result is assigned (a `Result` event right after its
/// `Leave`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallParts {
    pub params: Vec<u32>,
    pub result: bool,
}

/// For each call event of `f`, its parts.
pub fn call_parts(f: &Fss) -> Vec<Option<CallParts>> {
    let v: Vec<Event> = f.iter().copied().collect();
    let close = closes(&v);
    let mut out = vec![None; v.len()];
    for (i, e) in v.iter().enumerate() {
        if e.kind != EvKind::Call {
            continue;
        }
        let params = v[i + 1..]
            .iter()
            .take_while(|x| matches!(x.kind, EvKind::Param(_)) && x.node == e.node)
            .filter_map(|x| match x.kind {
                EvKind::Param(k) => Some(k),
                _ => None,
            })
            .collect();
        let result = v
            .get(close[i] + 1)
            .is_some_and(|x| x.kind == EvKind::Result && x.node == e.node);
        out[i] = Some(CallParts { params, result });
    }
    out
}

/// A range `lo..hi` of a sequence's events, with the close indices of the
/// whole sequence.
type Range<'x> = (&'x [Event], &'x [usize], usize, usize);

/// Greedy matching of `a`'s items (events; a call with its segment) into
/// `b`'s, in order. Greedy is exact: whether two items match does not
/// depend on the other matches.
fn embeds(a: Range, b: Range, depth: u32) -> bool {
    let (ea, ca, alo, ahi) = a;
    let (eb, cb, blo, bhi) = b;
    if depth >= NESTING {
        return flat(ea[alo..ahi].iter(), eb[blo..bhi].iter());
    }
    // The item at `k` ends here (a call's segment, clipped to the range).
    let next = |e: &[Event], c: &[usize], k: usize, hi: usize| {
        if e[k].kind == EvKind::Call {
            c[k].min(hi) + 1
        } else {
            k + 1
        }
    };
    let (mut i, mut j) = (alo, blo);
    while i < ahi {
        let call = ea[i].kind == EvKind::Call;
        loop {
            if j >= bhi {
                return false;
            }
            if ea[i] == eb[j] {
                if !call {
                    break;
                }
                let inner_a = (ea, ca, i + 1, ca[i].min(ahi));
                let inner_b = (eb, cb, j + 1, cb[j].min(bhi));
                if embeds(inner_a, inner_b, depth + 1) {
                    break;
                }
            }
            j = next(eb, cb, j, bhi);
        }
        i = next(ea, ca, i, ahi);
        j = next(eb, cb, j, bhi);
    }
    true
}

/// The most suffixes kept per tuple (the shortest); keeps pathological
/// programs from exploding. Joins stay finite: a kept suffix is no longer
/// than the longest of a full set.
pub const MAX_SUFFIXES: usize = 4096;

thread_local! {
    /// Set when a join dropped suffixes beyond `MAX_SUFFIXES`.
    static TRUNCATED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    /// Subsequence tests made by joins since the last `take_work`: the
    /// work of the lattice, which grows with the antichains' sizes and is
    /// counted into the explanation's steps (`Backward::late`).
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The work of one subsequence test or execution of a sequence of `len`
/// events, in tests of short sequences: it grows with the length.
pub fn weight(len: usize) -> usize {
    1 + len / 16
}

pub fn add_work(n: usize) {
    WORK.with(|w| w.set(w.get().saturating_add(n as u64)));
}

/// The joins' subsequence tests since the last call, and a fresh count.
pub fn take_work() -> u64 {
    WORK.with(|w| w.replace(0))
}

/// The joins' subsequence tests since the last `take_work`.
pub fn work() -> u64 {
    WORK.with(|w| w.get())
}

/// Clears the flag, returning whether suffixes were dropped since the last
/// call.
pub fn take_truncated() -> bool {
    TRUNCATED.with(|t| t.replace(false))
}

/// An antichain of suffixes, sorted by (length, events).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Suffixes(pub Arc<Vec<Fss>>);

impl Default for Suffixes {
    fn default() -> Self {
        Suffixes(Arc::new(Vec::new()))
    }
}

impl Suffixes {
    /// The set holding the empty suffix only.
    pub fn unit() -> Suffixes {
        Suffixes(Arc::new(vec![Fss::new()]))
    }

    pub fn single(f: Fss) -> Suffixes {
        Suffixes(Arc::new(vec![f]))
    }

    pub fn iter(&self) -> impl Iterator<Item = &Fss> {
        self.0.iter()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Keeps the minimal elements (no element contains another), sorted,
    /// at most `MAX_SUFFIXES`.
    pub fn from_candidates(mut v: Vec<Fss>) -> Suffixes {
        v.sort_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
        v.dedup();
        let mut kept: Vec<(Flat, Fss)> = Vec::new();
        for f in v {
            if kept.len() >= MAX_SUFFIXES {
                TRUNCATED.with(|t| t.set(true));
                break;
            }
            let flat = Flat::new(&f);
            add_work(kept.len() * weight(flat.len()));
            // Of two distinct suffixes of one length, neither holds the other.
            if !kept.iter().any(|(k, _)| k.len() < flat.len() && k.within(&flat)) {
                kept.push((flat, f));
            }
        }
        Suffixes(Arc::new(kept.into_iter().map(|(_, f)| f).collect()))
    }

    /// Every suffix with `ev` in front (unchanged when `None`).
    pub fn prepend(&self, ev: Option<Event>) -> Suffixes {
        match ev {
            None => self.clone(),
            Some(e) => {
                // Prepending one event keeps the antichain property.
                Suffixes(Arc::new(self.0.iter().map(|f| f.cons(e)).collect()))
            }
        }
    }

    /// `pre ++ seg ++ post ++ f` for every segment and suffix.
    pub fn concat(pre: &[Event], segs: &Suffixes, post: &[Event], rest: &Suffixes) -> Suffixes {
        let mut out = Vec::new();
        for s in segs.iter() {
            let head: Vec<Event> = pre.iter().chain(s.iter()).chain(post).copied().collect();
            for f in rest.iter() {
                out.push(f.prefixed(&head));
            }
        }
        Suffixes::from_candidates(out)
    }

    /// Does some element of `self` sit inside `f`?
    pub fn dominates(&self, f: &Fss) -> bool {
        add_work(self.0.len() * weight(f.len()));
        let fp = fingerprint(f);
        let mut flat: Option<Flat> = None;
        self.0.iter().any(|k| {
            if k.len() > f.len() || fingerprint(k) & !fp != 0 {
                return false;
            }
            if k == f {
                return true;
            }
            let b = flat.get_or_insert_with(|| Flat::new(f));
            Flat::new(k).within(b)
        })
    }
}

impl PartialOrd for Suffixes {
    /// `a <= b` when everything in `a` is dominated by something in `b`.
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        let le = self.0.iter().all(|a| other.dominates(a));
        let ge = other.0.iter().all(|b| self.dominates(b));
        match (le, ge) {
            (true, true) => Some(std::cmp::Ordering::Equal),
            (true, false) => Some(std::cmp::Ordering::Less),
            (false, true) => Some(std::cmp::Ordering::Greater),
            (false, false) => None,
        }
    }
}

impl ascent::Lattice for Suffixes {
    fn meet_mut(&mut self, other: Self) -> bool {
        // Not used by the rules (they only join); the elements of `self`
        // dominated by `other` is a lower bound of both.
        let kept: Vec<Fss> = self.0.iter().filter(|a| other.dominates(a)).cloned().collect();
        let new = Suffixes::from_candidates(kept);
        let changed = new != *self;
        *self = new;
        changed
    }

    fn join_mut(&mut self, other: Self) -> bool {
        if other.0.iter().all(|b| self.dominates(b)) {
            return false;
        }
        let mut all: Vec<Fss> = self.0.iter().cloned().collect();
        all.extend(other.0.iter().cloned());
        let new = Suffixes::from_candidates(all);
        let changed = new != *self;
        *self = new;
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(n: u32) -> Event {
        Event {
            node: NodeId(n),
            kind: EvKind::Assign,
            label: LabelId(0),
        }
    }

    fn seq(ns: &[u32]) -> Fss {
        ns.iter().map(|&n| ev(n)).collect()
    }

    #[test]
    fn subsequences() {
        assert!(is_subseq(&seq(&[1, 3]), &seq(&[1, 2, 3])));
        assert!(!is_subseq(&seq(&[3, 1]), &seq(&[1, 2, 3])));
        assert!(is_subseq(&seq(&[]), &seq(&[1])));
    }

    fn call(n: u32) -> Event {
        Event {
            node: NodeId(n),
            kind: EvKind::Call,
            label: LabelId(0),
        }
    }

    fn leave(n: u32) -> Event {
        Event {
            node: NodeId(n),
            kind: EvKind::Leave,
            label: LabelId(0),
        }
    }

    #[test]
    fn subsequences_keep_frames_apart() {
        // <call f, 3, leave, 14> is not inside <call f, 6, call f, 3, leave, leave, 14>:
        // its 3 is in the outer activation, theirs in the inner one.
        let short: Fss = [call(9), ev(3), leave(2), ev(14)].into_iter().collect();
        let long: Fss = [call(9), ev(6), call(9), ev(3), leave(2), leave(2), ev(14)]
            .into_iter()
            .collect();
        assert!(!is_subseq(&short, &long));
        // The same events with the frames kept are inside.
        let nested: Fss = [call(9), call(9), ev(3), leave(2), leave(2), ev(14)]
            .into_iter()
            .collect();
        assert!(is_subseq(&nested, &long));
        // A segment left open (the error is in the callee) works too.
        let open_a: Fss = [call(9), ev(3)].into_iter().collect();
        let open_b: Fss = [ev(1), call(9), ev(6), ev(3)].into_iter().collect();
        assert!(is_subseq(&open_a, &open_b));
        // A leave of the frame the suffix starts in is an ordinary event.
        let up_a: Fss = [ev(3), leave(2), ev(14)].into_iter().collect();
        let up_b: Fss = [ev(3), ev(4), leave(2), ev(5), ev(14)].into_iter().collect();
        assert!(is_subseq(&up_a, &up_b));
        assert!(!is_subseq(&up_b, &up_a));
    }

    #[test]
    fn joins_keep_only_minimal_suffixes() {
        use ascent::Lattice;
        let mut a = Suffixes::single(seq(&[1, 2, 3]));
        assert!(a.join_mut(Suffixes::single(seq(&[1, 3]))));
        assert_eq!(a, Suffixes::single(seq(&[1, 3])));
        // A dominated suffix changes nothing.
        assert!(!a.join_mut(Suffixes::single(seq(&[1, 2, 3, 4]))));
        // An incomparable one is kept beside.
        assert!(a.join_mut(Suffixes::single(seq(&[2]))));
        assert_eq!(a.0.len(), 2);
    }
}
