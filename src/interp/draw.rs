//! The generator behind `--seed`.

/// A small, fixed pseudo-random generator (SplitMix64), so that `--seed N`
/// draws the same values on every machine and every version.
pub(super) struct SplitMix(pub(super) u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Half the draws are small (-8..=8), where branches on constants live;
    /// the rest anywhere in the range.
    pub(super) fn draw(&mut self, (lo, hi): (i64, i64)) -> i64 {
        let (lo2, hi2) = if self.next().is_multiple_of(2) {
            (lo.max(-8), hi.min(8))
        } else {
            (lo, hi)
        };
        let (lo2, hi2) = if lo2 > hi2 { (lo, hi) } else { (lo2, hi2) };
        let width = (hi2 as i128 - lo2 as i128 + 1) as u128;
        (lo2 as i128 + (self.next() as u128 % width) as i128) as i64
    }
}
