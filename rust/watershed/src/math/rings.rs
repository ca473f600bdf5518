//! Rings of cells between the poles: a cover of the sphere by near-square cells of one
//! size, each found from a direction by arithmetic alone, and each ring running east.

use crate::math::sphere;
use glam::DVec3;
use std::f64::consts::{FRAC_PI_2, PI, TAU};

/// Rings of cells between the poles, each ring cut into cells about as long as the rings
/// are wide: a cover of the sphere by near-square cells of one size, found from a
/// direction by arithmetic alone.
pub(crate) struct Rings {
    /// Where each ring's cells start in the cell numbering (one more entry than rings).
    starts: Vec<usize>,
}

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
        Rings { starts }
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

    /// The cell of ring `r` holding longitude `lon` (radians).
    fn cell_in(&self, r: usize, lon: f64) -> usize {
        let m = self.count(r);
        let k = (((lon + PI) / TAU * m as f64).floor() as i64).rem_euclid(m as i64) as usize;
        self.starts[r] + k
    }

    /// The cell holding unit direction `p`.
    pub(crate) fn cell_of(&self, p: DVec3) -> usize {
        let (lat, lon) = sphere::lat_lon_rad(p);
        let n = self.rings();
        let r = (((lat + FRAC_PI_2) / PI * n as f64).floor().max(0.0) as usize).min(n - 1);
        self.cell_in(r, lon)
    }

    fn ring_of(&self, c: usize) -> usize {
        self.starts.partition_point(|&s| s <= c) - 1
    }

    /// The unit direction at the middle of cell `c`.
    pub(crate) fn centre(&self, c: usize) -> DVec3 {
        let r = self.ring_of(c);
        let m = self.count(r);
        let lon = -PI + ((c - self.starts[r]) as f64 + 0.5) * TAU / m as f64;
        sphere::direction_rad(Self::ring_lat(r, self.rings()), lon)
    }

    /// The cells around `c` into `out` (cleared first): its two neighbours in its ring and,
    /// in each ring beside it, the cell under its middle and that cell's two neighbours.
    pub(crate) fn around(&self, c: usize, out: &mut Vec<usize>) {
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
}
