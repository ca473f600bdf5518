//! Chunks streamed around a viewer and built off the main thread: which are wanted, which
//! are shown and how many are on their way. An engine node asks for what to build, shows
//! what arrives and hides what is stale; the wanted set changes only once nothing is in
//! flight, so a chunk is never built twice and a viewer who moved on never sees a chunk
//! that is no longer wanted.

use crate::math::cube::ChunkKey;
use std::collections::BTreeSet;

/// The chunks of one streaming node.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChunkStreamer {
    wanted: BTreeSet<ChunkKey>,
    shown: BTreeSet<ChunkKey>,
    in_flight: usize,
}

impl ChunkStreamer {
    /// A built chunk `key` came back: whether to show it now (it is still wanted and not
    /// shown; then call [`ChunkStreamer::shown`] once it is).
    pub fn arrived(&mut self, key: ChunkKey) -> bool {
        self.in_flight = self.in_flight.saturating_sub(1);
        self.wanted.contains(&key) && !self.shown.contains(&key)
    }

    /// Chunk `key` is shown.
    pub fn shown(&mut self, key: ChunkKey) {
        self.shown.insert(key);
    }

    /// Chunk `key` is hidden.
    pub fn hidden(&mut self, key: ChunkKey) {
        self.shown.remove(&key);
    }

    /// The shown chunks no longer wanted, ascending, to hide before [`ChunkStreamer::want`];
    /// `None` while any chunk is on its way (the node waits for it first).
    pub fn stale(&self) -> Option<Vec<ChunkKey>> {
        (self.in_flight == 0).then(|| self.shown.difference(&self.wanted).copied().collect())
    }

    /// The viewer now wants `wanted`: the chunks to build (wanted and not shown, ascending),
    /// each counted as on its way until it [`ChunkStreamer::arrived`].
    pub fn want(&mut self, wanted: BTreeSet<ChunkKey>) -> Vec<ChunkKey> {
        let build: Vec<ChunkKey> = wanted.difference(&self.shown).copied().collect();
        self.in_flight += build.len();
        self.wanted = wanted;
        build
    }

    /// Every shown chunk, to hide them all (a new world, a rebuild); nothing stays wanted.
    pub fn forget(&mut self) -> Vec<ChunkKey> {
        self.wanted.clear();
        self.shown.iter().copied().collect()
    }

    /// How many chunks are shown.
    pub fn shown_count(&self) -> usize {
        self.shown.len()
    }

    /// Whether the wanted chunks are all shown, nothing else is and none is on its way.
    pub fn is_settled(&self) -> bool {
        self.in_flight == 0 && !self.wanted.is_empty() && self.wanted == self.shown
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(x: u32) -> ChunkKey {
        ChunkKey { face: 0, level: 3, x, y: 0 }
    }

    fn keys(xs: &[u32]) -> BTreeSet<ChunkKey> {
        xs.iter().map(|&x| key(x)).collect()
    }

    /// One viewer walk: build what is wanted, wait for it, then drop what went stale; a
    /// chunk that arrives after the viewer moved on is not shown.
    #[test]
    fn chunks_are_built_once_shown_while_wanted_and_dropped_when_stale() {
        let mut s = ChunkStreamer::default();
        assert_eq!(s.stale(), Some(vec![]));
        assert_eq!(s.want(keys(&[1, 2])), vec![key(1), key(2)]);
        assert_eq!(s.stale(), None, "two on their way");
        assert!(s.arrived(key(1)));
        s.shown(key(1));
        assert!(!s.is_settled());
        assert!(s.arrived(key(2)));
        s.shown(key(2));
        assert!(s.is_settled());
        assert_eq!(s.stale(), Some(vec![]));
        assert_eq!(s.want(keys(&[2, 3])), vec![key(3)], "2 is shown already");
        assert_eq!(s.stale(), None);
        // The viewer moved on before 3 came back and wants 4 only.
        assert!(s.arrived(key(3)));
        s.shown(key(3));
        assert_eq!(s.stale(), Some(vec![key(1)]));
        s.hidden(key(1));
        assert_eq!(s.want(keys(&[4])), vec![key(4)]);
        assert_eq!(s.stale(), None);
        s.wanted.remove(&key(4));
        assert!(!s.arrived(key(4)), "no longer wanted: not shown");
        assert_eq!(s.stale(), Some(vec![key(2), key(3)]));
        assert_eq!(s.forget(), vec![key(2), key(3)]);
        assert_eq!(s.shown_count(), 2, "forget lists them; hiding them is the node's");
        s.hidden(key(2));
        s.hidden(key(3));
        assert_eq!((s.shown_count(), s.is_settled()), (0, false));
    }
}
