//! A monotone priority queue: a radix heap over `(level, node)` keys, for the priority
//! flood, where nothing is pushed below the level last popped.

/// Pops `(level key, node index)` pairs in ascending order, level first, then index.
/// Every push must be at or above the level last popped (a monotone queue); that is what
/// makes each operation O(1) amortised instead of a binary heap's O(log n).
///
/// The buckets sort by level alone. The pairs at the level last popped sit in bucket 0,
/// sorted by node, so ties in level cost one sort of the few pairs that share it instead
/// of a move through a bucket for every bit in which their nodes differ.
pub(crate) struct RadixHeap {
    /// The level last popped.
    last: u64,
    /// Bucket `b` holds the pairs whose level's highest bit differing from `last` is bit
    /// `b − 1`; bucket 0 those at `last` itself, by node descending (the lowest pops first).
    buckets: [Vec<(u64, u32)>; 65],
    /// Bit `b % 64` of word `b / 64` is set when bucket `b` holds a pair.
    occupied: [u64; 2],
}

impl RadixHeap {
    pub(crate) fn new() -> Self {
        RadixHeap { last: 0, buckets: std::array::from_fn(|_| Vec::new()), occupied: [0; 2] }
    }

    /// The bucket `level`'s highest bit differing from `last` names.
    #[inline]
    fn bucket(&self, level: u64) -> usize {
        (64 - (level ^ self.last).leading_zeros()) as usize
    }

    /// Moves the pair into bucket `b`, at its end.
    #[inline]
    fn file(&mut self, b: usize, level: u64, node: u32) {
        self.buckets[b].push((level, node));
        self.occupied[b >> 6] |= 1 << (b & 63);
    }

    /// Queues `node` at `level` (an order-preserving integer key).
    ///
    /// # Panics
    /// In debug builds, if `level` is below the level last popped.
    #[inline]
    pub(crate) fn push(&mut self, level: u64, node: u32) {
        debug_assert!(level >= self.last, "a radix heap only takes levels at or above the last popped");
        match self.bucket(level) {
            0 => {
                // At the level last popped: in its place among the pairs there, by node.
                let ties = &mut self.buckets[0];
                let at = ties.partition_point(|&(_, other)| other > node);
                ties.insert(at, (level, node));
                self.occupied[0] |= 1;
            }
            b => self.file(b, level, node),
        }
    }

    /// The level of the pair last popped (0 before any).
    #[inline]
    pub(crate) fn last(&self) -> u64 {
        self.last
    }

    /// The lowest queued pair's node, or `None` when empty.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<u32> {
        if self.occupied[0] & 1 == 0 {
            // The lowest non-empty bucket holds the next level: it becomes `last`, and the
            // bucket's pairs move to lower buckets, those at that level to bucket 0.
            let b = match self.occupied {
                [0, 0] => return None,
                [0, high] => 64 + high.trailing_zeros() as usize,
                [low, _] => low.trailing_zeros() as usize,
            };
            self.occupied[b >> 6] &= !(1 << (b & 63));
            let mut spilled = std::mem::take(&mut self.buckets[b]);
            self.last = spilled.iter().map(|&(level, _)| level).min()?;
            for &(level, node) in &spilled {
                let to = self.bucket(level);
                self.file(to, level, node);
            }
            spilled.clear();
            self.buckets[b] = spilled;
            self.buckets[0].sort_unstable_by_key(|&(_, node)| std::cmp::Reverse(node));
        }
        let popped = self.buckets[0].pop();
        if self.buckets[0].is_empty() {
            self.occupied[0] &= !1;
        }
        popped.map(|(_, node)| node)
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
