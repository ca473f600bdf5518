//! The cheapest weighted source for every point of a sphere: `start + straight distance`
//! minimised over many sources, worked out once on a cover of even cells in latitude rings
//! and then read at any number of points, so a field over millions of points costs a pass
//! over them, not a walk through them.

use crate::math::sphere;
use glam::DVec3;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::f64::consts::{FRAC_PI_2, PI, TAU};

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

/// Rings of cells between the poles, each ring cut into cells about as long as the rings
/// are wide: a cover of the sphere by near-square cells of one size, found from a
/// direction by arithmetic alone.
struct Rings {
    /// Where each ring's cells start in the cell numbering (one more entry than rings).
    starts: Vec<usize>,
}

impl Rings {
    /// About `cells` cells (at least two rings).
    fn new(cells: usize) -> Self {
        // Ring r of n spans latitude π/n and holds round(2n cos φ) cells: 4n²/π in all.
        let n = ((cells as f64 * PI / 4.0).sqrt().round() as usize).max(2);
        let mut starts = Vec::with_capacity(n + 1);
        starts.push(0);
        for r in 0..n {
            let lat = Self::ring_lat(r, n);
            let count = ((2.0 * n as f64 * libm::cos(lat)).round() as usize).max(1);
            starts.push(starts[r] + count);
        }
        Rings { starts }
    }

    fn len(&self) -> usize {
        self.starts[self.starts.len() - 1]
    }

    fn rings(&self) -> usize {
        self.starts.len() - 1
    }

    /// Latitude of the middle of ring `r` of `n`, radians.
    fn ring_lat(r: usize, n: usize) -> f64 {
        -FRAC_PI_2 + (r as f64 + 0.5) * PI / n as f64
    }

    fn count(&self, r: usize) -> usize {
        self.starts[r + 1] - self.starts[r]
    }

    /// The cell of ring `r` holding longitude `lon` (radians).
    fn cell_in(&self, r: usize, lon: f64) -> usize {
        let m = self.count(r);
        let k = (((lon + PI) / TAU * m as f64).floor() as i64).rem_euclid(m as i64) as usize;
        self.starts[r] + k
    }

    /// The cell holding unit direction `p`.
    fn cell_of(&self, p: DVec3) -> usize {
        let (lat, lon) = sphere::lat_lon_rad(p);
        let n = self.rings();
        let r = (((lat + FRAC_PI_2) / PI * n as f64).floor().max(0.0) as usize).min(n - 1);
        self.cell_in(r, lon)
    }

    fn ring_of(&self, c: usize) -> usize {
        self.starts.partition_point(|&s| s <= c) - 1
    }

    /// The unit direction at the middle of cell `c`.
    fn centre(&self, c: usize) -> DVec3 {
        let r = self.ring_of(c);
        let m = self.count(r);
        let lon = -PI + ((c - self.starts[r]) as f64 + 0.5) * TAU / m as f64;
        sphere::direction_rad(Self::ring_lat(r, self.rings()), lon)
    }

    /// The cells around `c` into `out` (cleared first): its two neighbours in its ring and,
    /// in each ring beside it, the cell under its middle and that cell's two neighbours.
    fn around(&self, c: usize, out: &mut Vec<usize>) {
        out.clear();
        let r = self.ring_of(c);
        let m = self.count(r);
        let k = c - self.starts[r];
        let lon = -PI + (k as f64 + 0.5) * TAU / m as f64;
        let add = |d: usize, out: &mut Vec<usize>| {
            if d != c && !out.contains(&d) {
                out.push(d);
            }
        };
        add(self.starts[r] + (k + 1) % m, out);
        add(self.starts[r] + (k + m - 1) % m, out);
        for q in [r.checked_sub(1), Some(r + 1).filter(|&q| q < self.rings())].into_iter().flatten() {
            let under = self.cell_in(q, lon);
            let mq = self.count(q);
            let j = under - self.starts[q];
            add(under, out);
            add(self.starts[q] + (j + 1) % mq, out);
            add(self.starts[q] + (j + mq - 1) % mq, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::rng::SplitMix64;
    use crate::math::sphere::random_directions;
    use crate::testkit::FUZZ_SEED;

    #[test]
    fn rings_cover_the_sphere_with_cells_of_one_size() {
        for cells in [1_000, 40_000, 250_000] {
            let rings = Rings::new(cells);
            assert!((rings.len() as f64 / cells as f64 - 1.0).abs() < 0.1, "{cells}: {}", rings.len());
            let spacing = (4.0 * PI / rings.len() as f64).sqrt();
            let mut around = Vec::new();
            for c in (0..rings.len()).step_by(7) {
                assert_eq!(rings.cell_of(rings.centre(c)), c, "a cell holds its own middle");
                rings.around(c, &mut around);
                assert!((2..=8).contains(&around.len()) && !around.contains(&c), "{c}: {around:?}");
                for &d in &around {
                    let gap = (rings.centre(d) - rings.centre(c)).length();
                    assert!(gap < 2.5 * spacing, "{c} and {d} lie {gap} apart, spacing {spacing}");
                }
            }
            for p in random_directions(FUZZ_SEED, 2_000) {
                let gap = (rings.centre(rings.cell_of(p)) - p).length();
                assert!(gap < 1.6 * spacing, "{cells} cells: {gap} from the middle, spacing {spacing}");
            }
        }
    }

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
        let cell_m = (4.0 * PI / cells as f64).sqrt() * radius_m;
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
