//! A monotone priority queue: a radix heap over `(level, node)` keys, for the priority
//! flood, where nothing pushed is ever lower than what was last popped.

/// Pops `(level key, node index)` pairs in ascending order, level first, then index.
/// Every push must be at or above the last pair popped (a monotone queue); that is what
/// makes each operation O(1) amortised instead of a binary heap's O(log n).
pub(crate) struct RadixHeap {
    /// The last pair popped, packed as `level << 32 | node`.
    last: u128,
    /// Bucket `b` holds the pairs whose highest bit differing from `last` is bit `b − 1`
    /// (bucket 0: equal to `last`).
    buckets: Vec<Vec<u128>>,
    len: usize,
}

impl RadixHeap {
    pub(crate) fn new() -> Self {
        RadixHeap { last: 0, buckets: vec![Vec::new(); 129], len: 0 }
    }

    #[inline]
    fn bucket(&self, packed: u128) -> usize {
        (128 - (packed ^ self.last).leading_zeros()) as usize
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
        let b = self.bucket(packed);
        self.buckets[b].push(packed);
        self.len += 1;
    }

    /// The lowest queued pair's node, or `None` when empty.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<u32> {
        if self.len == 0 {
            return None;
        }
        if self.buckets[0].is_empty() {
            let b = self.buckets.iter().position(|bucket| !bucket.is_empty())?;
            let spilled = std::mem::take(&mut self.buckets[b]);
            self.last = spilled.iter().copied().min()?;
            for &packed in &spilled {
                let to = self.bucket(packed);
                self.buckets[to].push(packed);
            }
            let mut spilled = spilled;
            spilled.clear();
            self.buckets[b] = spilled;
        }
        self.len -= 1;
        self.buckets[0].pop().map(|packed| packed as u32)
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
        let mut rng = SplitMix64::new(7, 0);
        let (mut radix, mut heap) = (RadixHeap::new(), BinaryHeap::new());
        let mut floor = 0u64;
        let mut node = 0u32;
        for round in 0..20_000 {
            if round % 3 != 2 {
                let level = floor + rng.next_u64() % 50;
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
