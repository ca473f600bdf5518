//! The cheapest weighted source for every point of a sphere: `start + straight distance`
//! minimised over many sources, worked out once on a cover of even cells in latitude rings
//! and then read at any number of points, so a field over millions of points costs a pass
//! over them, not a walk through them.

use crate::math::rings::Rings;
use glam::DVec3;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A source: its unit direction and what it costs to start there (metres, finite, ≥ 0).
pub(crate) type Source = (DVec3, f64);

/// The sources nearest each cell of a cover of the sphere, ready to be read at any point.
pub(crate) struct NearestSources<'a> {
    sources: &'a [Source],
    rings: Rings,
    /// Cell `c`'s candidates are `candidates[offsets[c]..offsets[c + 1]]`: the sources
    /// (indices into `sources`) in it and the cells around it, and the cheapest at each of
    /// their centres, each once, ascending.
    offsets: Vec<u32>,
    candidates: Vec<u32>,
    radius_m: f64,
}

impl<'a> NearestSources<'a> {
    /// The cheapest of `sources` for each of about `cells` even cells on a sphere of
    /// `radius_m`.
    ///
    /// # Complexity
    /// O(sources + cells × log cells).
    pub(crate) fn new(sources: &'a [Source], cells: usize, radius_m: f64) -> Self {
        let rings = Rings::new(cells);
        let centres: Vec<DVec3> = (0..rings.len()).map(|c| rings.centre(c)).collect();
        let mut cost = vec![f64::INFINITY; rings.len()];
        let mut label = vec![u32::MAX; rings.len()];
        let price = |s: usize, at: DVec3| sources[s].1 + (sources[s].0 - at).length() * radius_m;
        let cell: Vec<usize> = sources.iter().map(|&(p, _)| rings.cell_of(p)).collect();
        for (s, &c) in cell.iter().enumerate() {
            let v = price(s, centres[c]);
            if v < cost[c] {
                cost[c] = v;
                label[c] = s as u32;
            }
        }
        // A cell hands its source to the cells around it while that source is their
        // cheapest yet: each cell ends with the source cheapest at its centre among those
        // that reached it (all but a source hidden behind cheaper ones, which costs at most
        // the width of a cell).
        let mut queue: BinaryHeap<Reverse<(u64, u32)>> = (0..rings.len())
            .filter(|&c| cost[c].is_finite())
            .map(|c| Reverse((cost[c].to_bits(), c as u32)))
            .collect();
        let mut around = Vec::with_capacity(8);
        while let Some(Reverse((bits, c))) = queue.pop() {
            let c = c as usize;
            if bits != cost[c].to_bits() {
                continue;
            }
            let s = label[c] as usize;
            rings.around(c, &mut around);
            for &d in &around {
                let v = price(s, centres[d]);
                if v < cost[d] {
                    cost[d] = v;
                    label[d] = s as u32;
                    queue.push(Reverse((v.to_bits(), d as u32)));
                }
            }
        }
        // Every source of a cell counts for the points of the cells around it, not only the
        // one cheapest at its centre: near a source, the answer is exact.
        let mut in_cell = vec![0u32; rings.len() + 1];
        for &c in &cell {
            in_cell[c + 1] += 1;
        }
        for c in 0..rings.len() {
            in_cell[c + 1] += in_cell[c];
        }
        let mut by_cell = vec![0u32; sources.len()];
        let mut next = in_cell.clone();
        for (s, &c) in cell.iter().enumerate() {
            by_cell[next[c] as usize] = s as u32;
            next[c] += 1;
        }
        let mut offsets = Vec::with_capacity(rings.len() + 1);
        let mut candidates = Vec::with_capacity(rings.len());
        offsets.push(0);
        for c in 0..rings.len() {
            rings.around(c, &mut around);
            let from = candidates.len();
            for d in std::iter::once(c).chain(around.iter().copied()) {
                let own = &by_cell[in_cell[d] as usize..in_cell[d + 1] as usize];
                for s in std::iter::once(label[d]).chain(own.iter().copied()) {
                    if s != u32::MAX && !candidates[from..].contains(&s) {
                        candidates.push(s);
                    }
                }
            }
            candidates[from..].sort_unstable();
            offsets.push(candidates.len() as u32);
        }
        NearestSources { sources, rings, offsets, candidates, radius_m }
    }

    /// The cheapest `start + straight distance to p` (metres) over the candidates of `p`'s
    /// cell, and which source gives it (ties: the lower index); `None` without sources.
    /// Exact where the cheapest source lies in `p`'s cell or one around it; elsewhere at
    /// most a cell's width dearer.
    pub(crate) fn at(&self, p: DVec3) -> Option<(f64, usize)> {
        let c = self.rings.cell_of(p);
        let mut best: Option<(f64, usize)> = None;
        for &s in &self.candidates[self.offsets[c] as usize..self.offsets[c + 1] as usize] {
            let s = s as usize;
            let v = self.sources[s].1 + (self.sources[s].0 - p).length() * self.radius_m;
            // Candidates ascend, so a tie keeps the lower index.
            if best.is_none_or(|(b, _)| v < b) {
                best = Some((v, s));
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::rng::SplitMix64;
    use crate::math::sphere::random_directions;
    use crate::testkit::FUZZ_SEED;

    #[test]
    fn the_cheapest_source_is_found_within_a_cell_of_the_truth() {
        let mut rng = SplitMix64::new(FUZZ_SEED, 5);
        let radius_m = 1000.0;
        let sources: Vec<Source> = random_directions(FUZZ_SEED ^ 1, 3_000)
            .into_iter()
            .map(|p| (p, if rng.next_f64() < 0.5 { 0.0 } else { rng.range(0.0, 200.0) }))
            .collect();
        let cells = 40_000;
        let field = NearestSources::new(&sources, cells, radius_m);
        let cell_m = (4.0 * std::f64::consts::PI / cells as f64).sqrt() * radius_m;
        let (mut exact, mut worst) = (0, 0.0f64);
        let points = random_directions(FUZZ_SEED ^ 2, 5_000);
        for &p in &points {
            let truth = (0..sources.len())
                .map(|s| (sources[s].1 + (sources[s].0 - p).length() * radius_m, s))
                .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let (Some((want, s)), Some((got, k))) = (truth, field.at(p)) else { panic!("no source") };
            assert!(got >= want, "never below the cheapest");
            let from_k = sources[k].1 + (sources[k].0 - p).length() * radius_m;
            assert_eq!(got.to_bits(), from_k.to_bits(), "the cost is the named source's");
            exact += usize::from(k == s);
            worst = worst.max(got - want);
            if (sources[s].0 - p).length() * radius_m < 0.5 * cell_m {
                assert_eq!(k, s, "a source within a cell is always found");
            }
        }
        assert!(worst <= 2.0 * cell_m, "{worst} m over, cells of {cell_m} m");
        assert!(exact * 100 >= 97 * points.len(), "{exact} of {} exact", points.len());
        assert!(NearestSources::new(&[], 100, radius_m).at(DVec3::Y).is_none(), "no source, no cost");
    }
}
