//! A monotone priority queue: a radix heap over `(level, node)` keys, for the priority
//! flood, where nothing pushed is ever lower than what was last popped.

/// Pops `(level key, node index)` pairs in ascending order, level first, then index.
/// Every push must be at or above the last pair popped (a monotone queue); that is what
/// makes each operation O(1) amortised instead of a binary heap's O(log n).
pub(crate) struct RadixHeap {
    /// The last pair popped, packed as `level << 32 | node`.
    last: u128,
    /// Bucket `b` holds the pairs whose highest bit differing from `last` is bit `b − 1`
    /// (bucket 0: equal to `last`). Packed pairs have 96 bits, so 97 buckets hold them all.
    buckets: [Vec<u128>; 97],
    /// Bit `b % 64` of word `b / 64` is set when bucket `b` holds a pair.
    occupied: [u64; 2],
}

impl RadixHeap {
    pub(crate) fn new() -> Self {
        RadixHeap { last: 0, buckets: std::array::from_fn(|_| Vec::new()), occupied: [0; 2] }
    }

    /// Moves `packed` into the bucket its highest bit differing from `last` names.
    #[inline]
    fn file(&mut self, packed: u128) {
        let b = (128 - (packed ^ self.last).leading_zeros()) as usize;
        self.buckets[b].push(packed);
        self.occupied[b >> 6] |= 1 << (b & 63);
    }

    /// Queues `node` at `level` (an order-preserving integer key).
    ///
    /// # Panics
    /// In debug builds, if the pair is below the last one popped.
    #[inline]
    pub(crate) fn push(&mut self, level: u64, node: u32) {
        let packed = u128::from(level) << 32 | u128::from(node);
        debug_assert!(
            packed >= self.last,
            "a radix heap only takes pairs at or above the last popped {} {} {} {}",
            (packed >> 32) as u64,
            packed as u32,
            (self.last >> 32) as u64,
            self.last as u32
        );
        self.file(packed);
    }

    /// The lowest queued pair's node, or `None` when empty.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<u32> {
        if self.occupied[0] & 1 == 0 {
            // The lowest non-empty bucket holds the next pair: it becomes `last`, and the
            // bucket's other pairs move to lower buckets.
            let b = match self.occupied {
                [0, 0] => return None,
                [0, high] => 64 + high.trailing_zeros() as usize,
                [low, _] => low.trailing_zeros() as usize,
            };
            self.occupied[b >> 6] &= !(1 << (b & 63));
            let mut spilled = std::mem::take(&mut self.buckets[b]);
            self.last = spilled.iter().copied().min()?;
            for &packed in &spilled {
                self.file(packed);
            }
            spilled.clear();
            self.buckets[b] = spilled;
        }
        let popped = self.buckets[0].pop();
        if self.buckets[0].is_empty() {
            self.occupied[0] &= !1;
        }
        popped.map(|packed| packed as u32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::rng::SplitMix64;
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;

    /// Pops in the same order as a binary heap of `(level, node)` under a monotone mix of
    /// pushes and pops, ties in level broken by node.
    #[test]
    fn pops_like_a_binary_heap_under_monotone_use() {
        pops_like_a_binary_heap(0, |floor, rng| floor + rng.next_u64() % 50);
    }

    /// The same with levels that climb by up to 2⁴⁰ at a time across the key's top bit, so
    /// the buckets of the highest differing bits fill too.
    #[test]
    fn pops_like_a_binary_heap_across_the_top_bit() {
        pops_like_a_binary_heap((1 << 63) - (1 << 44), |floor, rng| {
            let shift = 24 + rng.next_u64() % 40;
            floor.saturating_add(rng.next_u64() >> shift)
        });
    }

    /// Pushes at levels `next(floor, rng)` at or above the last level popped (`start` at
    /// first), pops a third of the time, and compares every pop with a binary heap's.
    fn pops_like_a_binary_heap(start: u64, mut next: impl FnMut(u64, &mut SplitMix64) -> u64) {
        let mut rng = SplitMix64::new(7, 0);
        let (mut radix, mut heap) = (RadixHeap::new(), BinaryHeap::new());
        let mut floor = start;
        let mut node = 0u32;
        for round in 0..20_000 {
            if round % 3 != 2 {
                let level = next(floor, &mut rng);
                radix.push(level, node);
                heap.push(Reverse((level, node)));
                node += 1;
            } else {
                let expected = heap.pop().map(|Reverse((level, n))| {
                    floor = level;
                    n
                });
                assert_eq!(radix.pop(), expected, "round {round}");
            }
        }
        while let Some(Reverse((_, n))) = heap.pop() {
            assert_eq!(radix.pop(), Some(n));
        }
        assert_eq!(radix.pop(), None);
    }
}
