//! A 128-bit hash for memo tables that keep the hash and not the value
//! (two lanes, each a multiply-xorshift per word): of the few million
//! values an explanation hashes, two collide with a negligible chance.

/// The hash state; copied, so a shared prefix is hashed once.
#[derive(Clone, Copy)]
pub struct Wide(u64, u64);

impl Default for Wide {
    fn default() -> Self {
        Wide(0x243f_6a88_85a3_08d3, 0x1319_8a2e_0370_7344)
    }
}

impl Wide {
    /// The state a finished hash stands for (to go on from it).
    pub fn from_u128(h: u128) -> Wide {
        Wide((h >> 64) as u64, h as u64)
    }

    pub fn word(mut self, x: u64) -> Wide {
        let lane = |h: u64, x: u64, m: u64| {
            let y = (h ^ x).wrapping_mul(m);
            y ^ (y >> 31)
        };
        self.0 = lane(self.0, x, 0x9e37_79b9_7f4a_7c15);
        self.1 = lane(self.1, x, 0xc2b2_ae3d_27d4_eb4f);
        self
    }

    pub fn finish128(self) -> u128 {
        ((self.0 as u128) << 64) | self.1 as u128
    }
}

/// Any `Hash` value fed word by word.
impl std::hash::Hasher for Wide {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut w = [0u8; 8];
            w[..chunk.len()].copy_from_slice(chunk);
            *self = self.word(u64::from_le_bytes(w));
        }
    }

    fn write_u64(&mut self, x: u64) {
        *self = self.word(x);
    }

    fn write_u32(&mut self, x: u32) {
        *self = self.word(x as u64);
    }

    fn write_usize(&mut self, x: usize) {
        *self = self.word(x as u64);
    }

    fn write_i64(&mut self, x: i64) {
        *self = self.word(x as u64);
    }

    fn finish(&self) -> u64 {
        self.0 ^ self.1
    }
}
