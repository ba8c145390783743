//! The variable slots of an Error set, shared between the sets of
//! neighbouring states: a backward step adds or removes a few slots of a
//! set that may hold every element of a large array, so the set is a
//! persistent tree (copied by a count) and keeps a hash that each insert
//! and remove updates, so interning it costs O(1) and not its size.

use crate::analysis::state::VarSlot;

#[derive(Clone, Debug, Default)]
pub struct SlotSet {
    set: im::OrdSet<VarSlot>,
    /// The sum of the members' [`mix`]es: independent of insertion order.
    hash: u64,
}

/// A member's share of the set's hash.
fn mix(s: VarSlot) -> u64 {
    let x = match s {
        VarSlot::Global(g) => (g as u64) << 1,
        VarSlot::Local(l) => ((l as u64) << 1) | 1,
    };
    // splitmix64's finaliser.
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl SlotSet {
    pub fn new() -> SlotSet {
        SlotSet::default()
    }

    /// Whether `s` was new.
    pub fn insert(&mut self, s: VarSlot) -> bool {
        let new = self.set.insert(s).is_none();
        if new {
            self.hash = self.hash.wrapping_add(mix(s));
        }
        new
    }

    /// Whether `s` was there.
    pub fn remove(&mut self, s: &VarSlot) -> bool {
        let was = self.set.remove(s).is_some();
        if was {
            self.hash = self.hash.wrapping_sub(mix(*s));
        }
        was
    }

    pub fn contains(&self, s: &VarSlot) -> bool {
        self.set.contains(s)
    }

    pub fn len(&self) -> usize {
        self.set.len()
    }

    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// The members in order.
    pub fn iter(&self) -> impl Iterator<Item = &VarSlot> {
        self.set.iter()
    }
}

impl PartialEq for SlotSet {
    fn eq(&self, other: &SlotSet) -> bool {
        self.hash == other.hash && self.set.len() == other.set.len() && self.set == other.set
    }
}

impl Eq for SlotSet {}

impl std::hash::Hash for SlotSet {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        h.write_u64(self.hash);
        h.write_usize(self.set.len());
    }
}

impl Extend<VarSlot> for SlotSet {
    fn extend<I: IntoIterator<Item = VarSlot>>(&mut self, it: I) {
        for s in it {
            self.insert(s);
        }
    }
}

impl FromIterator<VarSlot> for SlotSet {
    fn from_iter<I: IntoIterator<Item = VarSlot>>(it: I) -> SlotSet {
        let mut s = SlotSet::new();
        s.extend(it);
        s
    }
}

impl<'a> IntoIterator for &'a SlotSet {
    type Item = &'a VarSlot;
    type IntoIter = im::ordset::Iter<'a, VarSlot>;

    fn into_iter(self) -> Self::IntoIter {
        self.set.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};

    fn hash_of(s: &SlotSet) -> u64 {
        let mut h = DefaultHasher::new();
        s.hash(&mut h);
        h.finish()
    }

    #[test]
    fn equal_sets_built_in_any_order_hash_alike() {
        let a: SlotSet = (0..100).map(VarSlot::Global).chain([VarSlot::Local(3)]).collect();
        let mut b: SlotSet = [VarSlot::Local(3), VarSlot::Local(9)].into_iter().collect();
        b.extend((0..100).rev().map(VarSlot::Global));
        assert_ne!(a, b);
        assert!(b.remove(&VarSlot::Local(9)));
        assert!(!b.remove(&VarSlot::Local(9)));
        assert_eq!(a, b);
        assert_eq!(hash_of(&a), hash_of(&b));
        assert!(!b.insert(VarSlot::Global(7)));
        assert_eq!(a, b);
    }
}
