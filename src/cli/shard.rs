//! `check --shard K/N`: a deterministic part of a batch, so that N
//! processes (on N machines, e.g. a Slurm job array) check one batch
//! between them and `focuscheck report` merges their JSONL parts.

use std::path::PathBuf;

/// Part `index` (from 0) of `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

/// `--shard K/N`: whole numbers with 0 <= K < N (K counts from 0, as
/// Slurm's `SLURM_ARRAY_TASK_ID` does for `--array=0-(N-1)`).
pub fn parse(s: &str) -> Result<Shard, String> {
    let bad = || format!("`{s}` is not a shard: give K/N with 0 <= K < N, e.g. 0/4 (K counts from 0)");
    let (k, n) = s.trim().split_once('/').ok_or_else(bad)?;
    let index: usize = k.trim().parse().map_err(|_| bad())?;
    let count: usize = n.trim().parse().map_err(|_| bad())?;
    if count == 0 || index >= count {
        return Err(bad());
    }
    Ok(Shard { index, count })
}

impl Shard {
    /// The files of this shard out of all of them, in sorted path order:
    /// every N-th file from the K-th, so that shards get files from every
    /// directory and each file is in exactly one shard.
    pub fn select(self, mut files: Vec<PathBuf>) -> Vec<PathBuf> {
        files.sort();
        files
            .into_iter()
            .enumerate()
            .filter(|(i, _)| i % self.count == self.index)
            .map(|(_, f)| f)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_files_exactly_once() {
        let files: Vec<PathBuf> = (0..10).rev().map(|i| PathBuf::from(format!("f{i}.c"))).collect();
        let mut all: Vec<PathBuf> = (0..3)
            .flat_map(|k| parse(&format!("{k}/3")).unwrap().select(files.clone()))
            .collect();
        assert_eq!(parse("0/3").unwrap().select(files.clone()).len(), 4);
        all.sort();
        let mut want = files;
        want.sort();
        assert_eq!(all, want);
    }

    #[test]
    fn bad_shards_are_refused() {
        for s in ["3/3", "1", "a/2", "0/0", "-1/2"] {
            assert!(parse(s).is_err(), "{s}");
        }
        assert_eq!(parse(" 2/5 ").unwrap(), Shard { index: 2, count: 5 });
    }
}
