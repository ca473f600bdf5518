//! The cheapest weighted source for every point of a sphere: `start + straight distance`
//! minimised over many sources, worked out once on a cover of even cells in latitude rings
//! and then read at any number of points, so a field over millions of points costs a pass
//! over them, not a walk through them.

use crate::math::rings::Rings;
use glam::DVec3;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::atomic::{AtomicBool, Ordering};

/// A source: its unit direction and what it costs to start there (metres, finite, ≥ 0).
pub(crate) type Source = (DVec3, f64);

/// The sources nearest each cell of a cover of the sphere, ready to be read at any point.
pub(crate) struct NearestSources {
    sources: Vec<Source>,
    rings: Rings,
    /// Cell `c`'s candidates are `candidates[offsets[c]..offsets[c + 1]]`: the sources
    /// (indices into `sources`) in it and the cells around it, and the cheapest at each of
    /// their centres, each once, ascending; less those too dear to be the cheapest anywhere
    /// in cell `c`.
    offsets: Vec<u32>,
    candidates: Vec<u32>,
    /// The least any point of each cell can cost from its candidates, metres.
    floor: Vec<f64>,
    radius_m: f64,
}

/// No cell, or no source: what pads [`NearestSources`]' tables.
const NONE: u32 = u32::MAX;

/// Cells worked on together when candidates are gathered in parallel.
const BLOCK: usize = 4096;

/// Where a field over Fibonacci points will be read: which of the `n` points, and up to what
/// cost.
pub(crate) struct Reads<'r> {
    /// How many points the Fibonacci sphere has.
    pub n: usize,
    /// Whether point `i` is read.
    pub read: &'r (dyn Fn(usize) -> bool + Sync),
    /// The dearest cost read, metres (infinite for every cost).
    pub limit: f64,
}

impl NearestSources {
    /// The cheapest of `sources` for each of about `cells` even cells on a sphere of
    /// `radius_m`, to be read anywhere.
    ///
    /// # Complexity
    /// O(sources + cells × log cells).
    #[cfg(test)]
    pub(crate) fn new(sources: Vec<Source>, cells: usize, radius_m: f64) -> Self {
        Self::build(sources, Rings::new(cells), radius_m, None, f64::INFINITY)
    }

    /// [`NearestSources::new`] to be read only as `reads` says, by
    /// [`NearestSources::at_fibonacci_within`] its limit: what those reads give is what they
    /// would from the whole field, but for a point whose cheapest source lies beyond cells
    /// holding no point that is read (a straight line to it leaves them), which may find a
    /// dearer one (the cheapest source across a bay of unread sea, where the shore of its own
    /// bank lies a cell or two away). Sources' cells and cells holding a read point take part;
    /// the rest are never handed a source, and costs stop spreading where no read within the
    /// limit can need them.
    pub(crate) fn for_reads(sources: Vec<Source>, cells: usize, radius_m: f64, reads: &Reads) -> Self {
        let rings = Rings::new(cells);
        let wanted: Vec<AtomicBool> = (0..rings.len()).map(|_| AtomicBool::new(false)).collect();
        (0..reads.n).into_par_iter().filter(|&i| (reads.read)(i)).for_each(|i| {
            wanted[rings.cell_of_fibonacci(i, reads.n)].store(true, Ordering::Relaxed);
        });
        let wanted = wanted.into_iter().map(AtomicBool::into_inner).collect();
        Self::build(sources, rings, radius_m, Some(wanted), reads.limit)
    }

    /// The field on the cells of `rings`, handing sources only to `wanted` cells (all without
    /// it), for reads up to `limit` metres.
    fn build(
        sources: Vec<Source>,
        rings: Rings,
        radius_m: f64,
        wanted: Option<Vec<bool>>,
        limit: f64,
    ) -> Self {
        let len = rings.len();
        let is_wanted = |c: usize| wanted.as_ref().is_none_or(|w| w[c]);
        let centres: Vec<DVec3> = rings.each_cell(DVec3::ZERO, || (), |_, r, c| rings.centre_in(r, c));
        let around: Vec<[u32; 8]> = rings.each_cell([NONE; 8], Vec::new, |out, r, c| {
            rings.around_in(r, c, out);
            let mut row = [NONE; 8];
            for (slot, &d) in row.iter_mut().zip(out.iter()) {
                *slot = d as u32;
            }
            row
        });
        let neighbours = |c: usize| around[c].into_iter().take_while(|&d| d != NONE).map(|d| d as usize);
        // The widest gap between the centres of two cells around each other and the furthest
        // a cell's point lies from its centre, metres.
        let gap_m = (0..len)
            .into_par_iter()
            .map(|c| neighbours(c).map(|d| (centres[d] - centres[c]).length()).fold(0.0, f64::max))
            .reduce(|| 0.0, f64::max)
            * radius_m;
        let reach: Vec<f64> = (0..rings.rings()).map(|r| rings.reach(r)).collect();
        let reach_m = reach.iter().copied().fold(0.0, f64::max) * radius_m;
        // A cell whose cost settles above `limit + gap + reach` gives no read within `limit`
        // (no point of its cells or those around it lies nearer its source by more), and a
        // cell's cost is set from a cell around it that costs at most a gap more: past
        // `limit + 2 gaps + reach` no cost that matters is left to settle.
        let settle_m = limit + (2.0 * gap_m + reach_m) * (1.0 + 1e-6);
        let mut cost = vec![f64::INFINITY; len];
        let mut label = vec![NONE; len];
        let price = |s: usize, at: DVec3| sources[s].1 + (sources[s].0 - at).length() * radius_m;
        let cell: Vec<usize> = sources.par_iter().map(|&(p, _)| rings.cell_of(p)).collect();
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
        let mut queue: BinaryHeap<Reverse<(u64, u32)>> = (0..len)
            .filter(|&c| cost[c].is_finite())
            .map(|c| Reverse((cost[c].to_bits(), c as u32)))
            .collect();
        while let Some(Reverse((bits, c))) = queue.pop() {
            let c = c as usize;
            if bits != cost[c].to_bits() {
                continue;
            }
            if cost[c] > settle_m {
                break;
            }
            let s = label[c] as usize;
            for d in neighbours(c).filter(|&d| is_wanted(d)) {
                let v = price(s, centres[d]);
                if v < cost[d] {
                    cost[d] = v;
                    label[d] = s as u32;
                    queue.push(Reverse((v.to_bits(), d as u32)));
                }
            }
        }
        drop(cost);
        // Every source of a cell counts for the points of the cells around it, not only the
        // one cheapest at its centre: near a source, the answer is exact.
        let mut in_cell = vec![0u32; len + 1];
        for &c in &cell {
            in_cell[c + 1] += 1;
        }
        for c in 0..len {
            in_cell[c + 1] += in_cell[c];
        }
        let mut by_cell = vec![0u32; sources.len()];
        let mut next = in_cell.clone();
        for (s, &c) in cell.iter().enumerate() {
            by_cell[next[c] as usize] = s as u32;
            next[c] += 1;
        }
        let blocks: Vec<(Vec<u32>, Vec<u32>, Vec<f64>)> = (0..len.div_ceil(BLOCK))
            .into_par_iter()
            .map(|b| {
                let (mut ends, mut candidates, mut floor) = (Vec::new(), Vec::new(), Vec::new());
                // Each candidate's cost at the cell's centre, metres.
                let mut prices: Vec<f64> = Vec::new();
                for c in b * BLOCK..((b + 1) * BLOCK).min(len) {
                    let from = candidates.len();
                    if !is_wanted(c) {
                        ends.push(from as u32);
                        floor.push(f64::INFINITY);
                        continue;
                    }
                    for d in std::iter::once(c).chain(neighbours(c)) {
                        let own = &by_cell[in_cell[d] as usize..in_cell[d + 1] as usize];
                        for s in std::iter::once(label[d]).chain(own.iter().copied()) {
                            if s != NONE && !candidates[from..].contains(&s) {
                                candidates.push(s);
                            }
                        }
                    }
                    // No point of the cell lies further than its ring's reach from the centre,
                    // so a candidate dearer there than the cheapest by over two reaches is
                    // dearer at every point of the cell.
                    let reach_m = reach[rings.ring_of(c)] * radius_m * (1.0 + 1e-6);
                    prices.clear();
                    prices.extend(candidates[from..].iter().map(|&s| price(s as usize, centres[c])));
                    let cheapest = prices.iter().copied().fold(f64::INFINITY, f64::min);
                    let mut kept = from;
                    for (k, &at_centre) in (from..candidates.len()).zip(&prices) {
                        if at_centre <= cheapest + 2.0 * reach_m {
                            candidates[kept] = candidates[k];
                            kept += 1;
                        }
                    }
                    candidates.truncate(kept);
                    candidates[from..].sort_unstable();
                    ends.push(candidates.len() as u32);
                    floor.push(cheapest - reach_m);
                }
                (ends, candidates, floor)
            })
            .collect();
        let mut offsets = Vec::with_capacity(len + 1);
        let mut candidates = Vec::with_capacity(blocks.iter().map(|b| b.1.len()).sum());
        let mut floor = Vec::with_capacity(len);
        offsets.push(0);
        for (ends, block, block_floor) in blocks {
            let base = candidates.len() as u32;
            offsets.extend(ends.into_iter().map(|e| base + e));
            candidates.extend(block);
            floor.extend(block_floor);
        }
        NearestSources { sources, rings, offsets, candidates, floor, radius_m }
    }

    /// The cheapest `start + straight distance to p` (metres) over the candidates of `p`'s
    /// cell, and which source gives it (ties: the lower index); `None` without sources.
    /// Exact where the cheapest source lies in `p`'s cell or one around it; elsewhere at
    /// most a cell's width dearer.
    #[cfg(test)]
    pub(crate) fn at(&self, p: DVec3) -> Option<(f64, usize)> {
        self.at_in(self.rings.cell_of(p), p)
    }

    /// [`NearestSources::at`] point `i` of `n` on a Fibonacci sphere, `p`
    /// ([`sphere::fibonacci`](crate::math::sphere::fibonacci)), its cell found from its number.
    #[cfg(test)]
    pub(crate) fn at_fibonacci(&self, i: usize, n: usize, p: DVec3) -> Option<(f64, usize)> {
        self.at_in(self.rings.cell_of_fibonacci(i, n), p)
    }

    /// [`NearestSources::at_fibonacci`] where it costs at most `limit` metres; `None` where
    /// no point of that point's cell can.
    pub(crate) fn at_fibonacci_within(
        &self,
        i: usize,
        n: usize,
        p: DVec3,
        limit: f64,
    ) -> Option<(f64, usize)> {
        let c = self.rings.cell_of_fibonacci(i, n);
        if self.floor[c] > limit {
            return None;
        }
        self.at_in(c, p).filter(|&(cost, _)| cost <= limit)
    }

    /// [`NearestSources::at`] `p` in cell `c`.
    fn at_in(&self, c: usize, p: DVec3) -> Option<(f64, usize)> {
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
    use crate::math::sphere::{self, random_directions};
    use crate::testkit::FUZZ_SEED;

    /// `count` sources scattered over the sphere, half of them free and half costing up to
    /// `dearest` metres, drawn from stream `stream`.
    fn scattered(stream: u64, count: usize, dearest: f64) -> Vec<Source> {
        let mut rng = SplitMix64::new(FUZZ_SEED, stream);
        random_directions(FUZZ_SEED ^ stream, count)
            .into_iter()
            .map(|p| (p, if rng.next_f64() < 0.5 { 0.0 } else { rng.range(0.0, dearest) }))
            .collect()
    }

    #[test]
    fn the_cheapest_source_is_found_within_a_cell_of_the_truth() {
        let radius_m = 1000.0;
        let sources = scattered(5, 3_000, 200.0);
        let cells = 40_000;
        let field = NearestSources::new(sources.clone(), cells, radius_m);
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
        assert!(NearestSources::new(Vec::new(), 100, radius_m).at(DVec3::Y).is_none(), "no source, no cost");
    }

    #[test]
    fn a_lattice_point_reads_what_its_position_reads_and_a_limit_only_cuts_dearer_costs() {
        let radius_m = 1000.0;
        let sources = scattered(6, 500, 100.0);
        let field = NearestSources::new(sources.clone(), 20_000, radius_m);
        let n = 50_000;
        let mut cut = 0;
        for i in 0..n {
            let p = sphere::fibonacci(i, n);
            let whole = field.at(p);
            assert_eq!(field.at_fibonacci(i, n, p), whole, "point {i}");
            for limit in [0.0, 20.0, 60.0, 150.0] {
                let within = field.at_fibonacci_within(i, n, p, limit);
                assert_eq!(within, whole.filter(|&(c, _)| c <= limit), "point {i} within {limit} m");
                cut += usize::from(within.is_none());
            }
        }
        assert!(cut > n, "limits cut some costs: {cut}");
        let every = |_: usize| true;
        for limit in [20.0, 60.0, 150.0] {
            let limited = NearestSources::for_reads(
                sources.clone(),
                20_000,
                radius_m,
                &Reads { n, read: &every, limit },
            );
            for i in 0..n {
                let p = sphere::fibonacci(i, n);
                assert_eq!(
                    limited.at_fibonacci_within(i, n, p, limit),
                    field.at_fibonacci_within(i, n, p, limit),
                    "point {i} within {limit} m of a field built for it"
                );
            }
        }
    }

    #[test]
    fn a_field_read_only_on_land_finds_the_cheapest_source_there() {
        // A sea over the north whose shore points are free sources, springs on the land.
        let (n, radius_m, cells) = (40_000, 1000.0, 10_000);
        let sea =
            |i: usize| sphere::fibonacci(i, n).y > 0.4 + 0.2 * libm::sin(7.0 * sphere::fibonacci(i, n).x);
        let mut rng = SplitMix64::new(FUZZ_SEED, 7);
        let sources: Vec<Source> = (0..n)
            .filter_map(|i| match (sea(i), rng.next_f64()) {
                (true, _) if sphere::fibonacci(i, n).y < 0.7 => Some((sphere::fibonacci(i, n), 0.0)),
                (false, r) if r < 0.002 => Some((sphere::fibonacci(i, n), rng.range(0.0, 300.0))),
                _ => None,
            })
            .collect();
        let land = |i: usize| !sea(i);
        let field = NearestSources::for_reads(
            sources.clone(),
            cells,
            radius_m,
            &Reads { n, read: &land, limit: f64::INFINITY },
        );
        let whole = NearestSources::new(sources.clone(), cells, radius_m);
        let cell_m = (4.0 * std::f64::consts::PI / cells as f64).sqrt() * radius_m;
        let (mut read, mut exact, mut worst, mut same) = (0, 0, 0.0f64, 0);
        for i in (0..n).filter(|&i| land(i)).step_by(5) {
            let p = sphere::fibonacci(i, n);
            let want = sources
                .iter()
                .map(|&(q, start)| start + (q - p).length() * radius_m)
                .fold(f64::INFINITY, f64::min);
            let Some((got, _)) = field.at_fibonacci(i, n, p) else { panic!("point {i} finds no source") };
            assert!(got >= want, "never below the cheapest");
            read += 1;
            same += usize::from(whole.at(p).is_some_and(|(c, _)| c == got));
            exact += usize::from(got == want);
            worst = worst.max(got - want);
        }
        assert!(worst <= 2.0 * cell_m, "{worst} m over, cells of {cell_m} m");
        assert!(same * 100 >= 99 * read, "{same} of {read} as the whole field's");
        assert!(exact * 100 >= 80 * read, "{exact} of {read} exact");
    }
}
