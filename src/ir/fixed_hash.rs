//! Hash maps and sets whose order is fixed by their contents.
//!
//! Z3 gives a freed term's id to the next term made, and its tactics and
//! simplifier order their output by id. A map holding Z3 terms under
//! Rust's randomly seeded hasher frees them in a different order on every
//! run, so the same input gave different quantifier eliminations and
//! `diagnose` asked different questions from run to run. Maps and sets
//! that hold Z3 terms use these (or an ordered map where the key is
//! `Ord`).

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

/// SipHash with fixed keys: the same insertions, the same order.
pub type FixedState = BuildHasherDefault<DefaultHasher>;
pub type FixedMap<K, V> = HashMap<K, V, FixedState>;
pub type FixedSet<T> = HashSet<T, FixedState>;
