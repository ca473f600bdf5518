//! A tiny seeded generator (SplitMix64) whose output is fixed by its definition, not by a
//! crate version: every random choice in a world comes from here.

/// SplitMix64: a 64-bit state stepped by a constant and mixed; same seed, same sequence.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator for `seed` on the independent stream `stream` (e.g. one per world feature).
    pub fn new(seed: u64, stream: u64) -> Self {
        let mut mixer = SplitMix64 { state: seed ^ stream.wrapping_mul(0xA076_1D64_78BD_642F) };
        let state = mixer.next_u64();
        SplitMix64 { state }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform value in `[0, 1)` with 53 random bits.
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A uniform value in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_are_fixed_and_independent() {
        let mut a = SplitMix64::new(7, 1);
        let mut b = SplitMix64::new(7, 2);
        let first = a.next_u64();
        assert_ne!(first, b.next_u64());
        assert_eq!(first, SplitMix64::new(7, 1).next_u64());
        // The published SplitMix64 reference: state 0 gives 0xE220A8397B1DCDAF first.
        assert_eq!(SplitMix64 { state: 0 }.next_u64(), 0xE220_A839_7B1D_CDAF);
        // Pinned: the seeded sequence is part of every world's bytes.
        assert_eq!(SplitMix64::new(0, 0).next_u64(), 12_035_550_249_420_947_055);
    }

    #[test]
    fn unit_values_stay_in_range() {
        let mut r = SplitMix64::new(42, 0);
        for _ in 0..10_000 {
            let x = r.next_f64();
            assert!((0.0..1.0).contains(&x));
        }
    }
}
