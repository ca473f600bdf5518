//! Rings of cells between the poles: a cover of the sphere by near-square cells of one
//! size, each found from a direction by arithmetic alone, and each ring running east.

use crate::math::sphere;
use glam::DVec3;
use rayon::prelude::*;
use std::f64::consts::{FRAC_PI_2, PI, TAU};

/// Rings of cells between the poles, each ring cut into cells about as long as the rings
/// are wide: a cover of the sphere by near-square cells of one size, found from a
/// direction by arithmetic alone.
pub(crate) struct Rings {
    /// Where each ring's cells start in the cell numbering (one more entry than rings).
    starts: Vec<usize>,
    /// The height (`y`) of each ring's southern edge, and of the last ring's northern edge:
    /// one more entry than rings, ascending from -1 to 1.
    edges_y: Vec<f64>,
    /// For each of [`SLOTS_PER_RING`] × rings even slices of `y` across -1..1, the ring
    /// holding the slice's bottom: where a search for a height's ring starts.
    slot_ring: Vec<u32>,
    /// The sine and cosine of each ring's middle latitude.
    middle_sin_cos: Vec<(f64, f64)>,
}

/// Slices of height per ring in [`Rings`]' table: a ring is found from a height in a step or
/// two, with no inverse sine.
const SLOTS_PER_RING: usize = 4;

impl Rings {
    /// About `cells` cells (at least two rings).
    pub(crate) fn new(cells: usize) -> Self {
        // Ring r of n spans latitude π/n and holds round(2n cos φ) cells: 4n²/π in all.
        let n = ((cells as f64 * PI / 4.0).sqrt().round() as usize).max(2);
        let mut starts = Vec::with_capacity(n + 1);
        starts.push(0);
        for r in 0..n {
            let lat = Self::ring_lat(r, n);
            let count = ((2.0 * n as f64 * libm::cos(lat)).round() as usize).max(1);
            starts.push(starts[r] + count);
        }
        let edges_y: Vec<f64> = (0..=n)
            .map(|r| match r {
                0 => -1.0,
                r if r == n => 1.0,
                r => libm::sin(-FRAC_PI_2 + r as f64 * PI / n as f64),
            })
            .collect();
        let slots = SLOTS_PER_RING * n;
        let mut slot_ring = Vec::with_capacity(slots);
        let mut r = 0;
        for k in 0..slots {
            let y = -1.0 + 2.0 * k as f64 / slots as f64;
            while r + 1 < n && y >= edges_y[r + 1] {
                r += 1;
            }
            slot_ring.push(r as u32);
        }
        let middle_sin_cos =
            (0..n).map(|r| (libm::sin(Self::ring_lat(r, n)), libm::cos(Self::ring_lat(r, n)))).collect();
        Rings { starts, edges_y, slot_ring, middle_sin_cos }
    }

    /// How many cells.
    pub(crate) fn len(&self) -> usize {
        self.starts[self.starts.len() - 1]
    }

    /// How many rings, from the south pole.
    pub(crate) fn rings(&self) -> usize {
        self.starts.len() - 1
    }

    /// Latitude of the middle of ring `r` of `n`, radians.
    fn ring_lat(r: usize, n: usize) -> f64 {
        -FRAC_PI_2 + (r as f64 + 0.5) * PI / n as f64
    }

    /// How many cells ring `r` holds.
    pub(crate) fn count(&self, r: usize) -> usize {
        self.starts[r + 1] - self.starts[r]
    }

    /// The first cell of ring `r`; the ring's cells follow it eastwards.
    pub(crate) fn first(&self, r: usize) -> usize {
        self.starts[r]
    }

    /// `value(scratch, ring, cell)` for every cell, in cell order, the rings side by side
    /// (each task with its own `scratch`, made by `scratch`): written into one vector of
    /// cells made once, `blank` until written.
    pub(crate) fn each_cell<T, S>(
        &self,
        blank: T,
        scratch: impl Fn() -> S + Sync + Send,
        value: impl Fn(&mut S, usize, usize) -> T + Sync + Send,
    ) -> Vec<T>
    where
        T: Clone + Send + Sync,
    {
        let mut out = vec![blank; self.len()];
        let mut rest = out.as_mut_slice();
        let mut rows = Vec::with_capacity(self.rings());
        for r in 0..self.rings() {
            let (row, tail) = rest.split_at_mut(self.count(r));
            rows.push((r, row));
            rest = tail;
        }
        rows.into_par_iter().for_each_init(scratch, |scratch, (r, row)| {
            let first = self.first(r);
            for (k, slot) in row.iter_mut().enumerate() {
                *slot = value(scratch, r, first + k);
            }
        });
        out
    }

    /// The cell of ring `r` holding longitude `lon` (radians).
    fn cell_in(&self, r: usize, lon: f64) -> usize {
        self.cell_at_turn(r, (lon + PI) / TAU)
    }

    /// The cell of ring `r` `turn` of the way round it (0..1 from longitude -π, eastwards).
    fn cell_at_turn(&self, r: usize, turn: f64) -> usize {
        let m = self.count(r);
        // Truncation is the floor for a turn ≥ 0; a turn of 1 or more wraps round.
        self.starts[r] + ((turn.max(0.0) * m as f64) as usize) % m
    }

    /// The ring holding height `y` (-1..1, the sine of the latitude).
    fn ring_at_y(&self, y: f64) -> usize {
        let slots = self.slot_ring.len();
        let slot = (((y + 1.0) * 0.5 * slots as f64).max(0.0) as usize).min(slots - 1);
        let mut r = self.slot_ring[slot] as usize;
        // The slice's ring, then up or down past any edge a rounding put between them.
        while r + 1 < self.rings() && y >= self.edges_y[r + 1] {
            r += 1;
        }
        while r > 0 && y < self.edges_y[r] {
            r -= 1;
        }
        r
    }

    /// The cell holding unit direction `p`.
    pub(crate) fn cell_of(&self, p: DVec3) -> usize {
        let p = sphere::unit(p);
        self.cell_in(self.ring_at_y(p.y), libm::atan2(p.x, p.z))
    }

    /// The cell holding point `i` of `n` on a Fibonacci sphere ([`sphere::fibonacci`]), found
    /// from its number: [`Rings::cell_of`] its position, but for a point on a cell's edge.
    pub(crate) fn cell_of_fibonacci(&self, i: usize, n: usize) -> usize {
        self.cell_in_ring_of_fibonacci(self.ring_at_y(sphere::fibonacci_y(i, n)), i)
    }

    /// The points of a Fibonacci sphere of `n` ([`sphere::fibonacci`]) that ring `r` holds:
    /// a run of their numbers, since the points descend from the north pole as they count.
    pub(crate) fn fibonacci_span(&self, r: usize, n: usize) -> std::ops::Range<usize> {
        let ring = |i: usize| self.ring_at_y(sphere::fibonacci_y(i, n));
        // The first point at or south of a ring: rings count up from the south.
        let first_at_or_below = |r: usize| {
            let (mut lo, mut hi) = (0, n);
            while lo < hi {
                let mid = lo + (hi - lo) / 2;
                if ring(mid) > r {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            lo
        };
        let end = if r == 0 { n } else { first_at_or_below(r - 1) };
        first_at_or_below(r)..end
    }

    /// The cell of ring `r` holding Fibonacci point `i` (of any number), given that ring `r`
    /// holds it ([`Rings::fibonacci_span`]).
    pub(crate) fn cell_in_ring_of_fibonacci(&self, r: usize, i: usize) -> usize {
        // Longitude -π is half a turn from the points' zero, +Z.
        let turn = sphere::fibonacci_turn(i);
        self.cell_at_turn(r, if turn < 0.5 { turn + 0.5 } else { turn - 0.5 })
    }

    /// The ring holding cell `c`.
    pub(crate) fn ring_of(&self, c: usize) -> usize {
        self.starts.partition_point(|&s| s <= c) - 1
    }

    /// The furthest any point of a cell of ring `r` lies from the cell's middle: a chord of
    /// the unit sphere (a corner's, the furthest point of a cell bounded by latitudes and
    /// longitudes).
    pub(crate) fn reach(&self, r: usize) -> f64 {
        let n = self.rings();
        let half_lon = std::f64::consts::PI / self.count(r) as f64;
        let middle = sphere::direction_rad(Self::ring_lat(r, n), 0.0);
        [r, r + 1]
            .map(|e| sphere::direction_rad(-FRAC_PI_2 + e as f64 * PI / n as f64, half_lon))
            .into_iter()
            .map(|corner| (corner - middle).length())
            .fold(0.0, f64::max)
    }

    /// The unit direction at the middle of cell `c`.
    pub(crate) fn centre(&self, c: usize) -> DVec3 {
        self.centre_in(self.ring_of(c), c)
    }

    /// [`Rings::centre`] of cell `c` of ring `r`.
    pub(crate) fn centre_in(&self, r: usize, c: usize) -> DVec3 {
        let m = self.count(r);
        let lon = -PI + ((c - self.starts[r]) as f64 + 0.5) * TAU / m as f64;
        // `sphere::direction_rad` with the ring's latitude worked out once.
        let (sin_lat, cos_lat) = self.middle_sin_cos[r];
        DVec3::new(cos_lat * libm::sin(lon), sin_lat, cos_lat * libm::cos(lon))
    }

    /// The cells around cell `c` of ring `r` into `out` (cleared first): its two neighbours
    /// in its ring and, in each ring beside it, the cell under its middle and that cell's two
    /// neighbours.
    pub(crate) fn around_in(&self, r: usize, c: usize, out: &mut Vec<usize>) {
        out.clear();
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
    use crate::math::sphere::random_directions;
    use crate::testkit::FUZZ_SEED;

    /// Every cell's value lands in its own slot, with its own ring: the same as asking cell
    /// by cell.
    #[test]
    fn each_cell_writes_every_cell_with_its_ring() {
        for cells in [1, 7, 5_000] {
            let rings = Rings::new(cells);
            let by_rings = rings.each_cell((usize::MAX, usize::MAX), || (), |_, r, c| (r, c));
            let by_cells: Vec<(usize, usize)> = (0..rings.len()).map(|c| (rings.ring_of(c), c)).collect();
            assert_eq!(by_rings, by_cells, "{cells} cells");
        }
    }

    #[test]
    fn rings_cover_the_sphere_with_cells_of_one_size() {
        for cells in [1_000, 40_000, 250_000] {
            let rings = Rings::new(cells);
            assert!((rings.len() as f64 / cells as f64 - 1.0).abs() < 0.1, "{cells}: {}", rings.len());
            let spacing = (4.0 * PI / rings.len() as f64).sqrt();
            let mut around = Vec::new();
            for c in (0..rings.len()).step_by(7) {
                assert_eq!(rings.cell_of(rings.centre(c)), c, "a cell holds its own middle");
                let (r, k) = (rings.ring_of(c), c - rings.first(rings.ring_of(c)));
                let lat = -FRAC_PI_2 + (r as f64 + 0.5) * PI / rings.rings() as f64;
                let lon = -PI + (k as f64 + 0.5) * TAU / rings.count(r) as f64;
                assert_eq!(rings.centre(c), sphere::direction_rad(lat, lon), "cell {c}'s middle");
                rings.around_in(rings.ring_of(c), c, &mut around);
                assert!((2..=8).contains(&around.len()) && !around.contains(&c), "{c}: {around:?}");
                for &d in &around {
                    let gap = (rings.centre(d) - rings.centre(c)).length();
                    assert!(gap < 2.5 * spacing, "{c} and {d} lie {gap} apart, spacing {spacing}");
                }
            }
            for p in random_directions(FUZZ_SEED, 2_000) {
                let gap = (rings.centre(rings.cell_of(p)) - p).length();
                let reach = rings.reach(rings.ring_of(rings.cell_of(p)));
                assert!(
                    gap <= reach && reach < 1.6 * spacing,
                    "{cells} cells: {gap} from the middle, reach {reach}"
                );
                let (lat, lon) = sphere::lat_lon_rad(p);
                let n = rings.rings();
                let r = (((lat + FRAC_PI_2) / PI * n as f64).floor() as usize).min(n - 1);
                let k = ((lon + PI) / TAU * rings.count(r) as f64).floor() as usize % rings.count(r);
                assert_eq!(
                    rings.cell_of(p),
                    rings.first(r) + k,
                    "{p}: the cell its latitude and longitude name"
                );
            }
        }
    }

    #[test]
    fn a_fibonacci_point_is_in_the_cell_of_its_position() {
        for (nodes, cells) in [(1_000, 100), (90_000, 40_000), (2_000_003, 1_000_000)] {
            let rings = Rings::new(cells);
            let astray = (0..nodes)
                .filter(|&i| rings.cell_of_fibonacci(i, nodes) != rings.cell_of(sphere::fibonacci(i, nodes)))
                .count();
            assert_eq!(astray, 0, "{nodes} points on {cells} cells");
            let mut next = 0;
            for r in (0..rings.rings()).rev() {
                let span = rings.fibonacci_span(r, nodes);
                assert_eq!(span.start, next, "ring {r}'s points follow the ring north of it");
                for i in span.clone() {
                    let c = rings.cell_in_ring_of_fibonacci(r, i);
                    assert_eq!(c, rings.cell_of_fibonacci(i, nodes), "point {i} in ring {r}");
                }
                next = span.end;
            }
            assert_eq!(next, nodes, "the rings hold every point");
        }
    }
}
