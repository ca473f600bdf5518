//! Small geometry the stages share: where a point falls along a reach's chord, the cosine
//! bell of a channel's cross-section, the Hermite step and the edge between two nodes' cells.

use glam::DVec3;

/// Where `p` projects onto the chord from `a` to `b`, as a fraction of it: 0 at `a`, 1 at
/// `b`, not clamped (a chord shorter than 1e-15 counts as that long).
pub(crate) fn chord_fraction(a: DVec3, b: DVec3, p: DVec3) -> f64 {
    let ab = b - a;
    (p - a).dot(ab) / ab.length_squared().max(1e-30)
}

/// `p`'s nearest point on the segment from `a` to `b`: its fraction along the segment
/// (0..=1) and its distance from `p`, in the units of the arguments.
pub(crate) fn segment_projection(a: DVec3, b: DVec3, p: DVec3) -> (f64, f64) {
    let t = chord_fraction(a, b, p).clamp(0.0, 1.0);
    (t, (p - (a + (b - a) * t)).length())
}

/// The cosine bell of a channel's cross-section: 1 on the centre line (`x` = 0), easing to
/// 0 at the bank (`x` = 1) and staying 0 beyond.
pub(crate) fn bell(x: f64) -> f64 {
    if x >= 1.0 {
        0.0
    } else if x > 0.0 {
        0.5 * (1.0 + libm::cos(std::f64::consts::PI * x))
    } else {
        // The centre line (NaN included, as `max(0)` read it): the cosine of 0 is exactly
        // 1, so these are the formula's bits without working it out.
        1.0
    }
}

/// Hermite step from 0 at `lo` to 1 at `hi`.
#[inline]
pub(crate) fn smoothstep(lo: f64, hi: f64, x: f64) -> f64 {
    let t = ((x - lo) / (hi - lo)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Lists of values in compressed rows (CSR): row `i` is `values[offsets[i]..offsets[i + 1]]`.
#[derive(Debug, Clone)]
pub(crate) struct Rows {
    offsets: Vec<u32>,
    values: Vec<u32>,
}

impl Rows {
    /// Row `i`'s values.
    pub(crate) fn row(&self, i: usize) -> &[u32] {
        &self.values[self.offsets[i] as usize..self.offsets[i + 1] as usize]
    }

    /// Drops every value equal to the one before it in its row, in place.
    pub(crate) fn dedup_rows(&mut self) {
        let mut kept = 0;
        for i in 0..self.offsets.len() - 1 {
            let (start, end) = (self.offsets[i] as usize, self.offsets[i + 1] as usize);
            self.offsets[i] = kept as u32;
            for k in start..end {
                let value = self.values[k];
                if kept == self.offsets[i] as usize || self.values[kept - 1] != value {
                    self.values[kept] = value;
                    kept += 1;
                }
            }
        }
        if let Some(last) = self.offsets.last_mut() {
            *last = kept as u32;
        }
        self.values.truncate(kept);
    }
}

/// Compressed rows from `(row, value)` pairs over `rows` rows, each row's values in the order
/// the pairs came. `pairs` is called twice (count, then fill) and must give the same pairs.
pub(crate) fn csr<I: Iterator<Item = (usize, u32)>>(rows: usize, pairs: impl Fn() -> I) -> Rows {
    let mut offsets = vec![0u32; rows + 1];
    for (row, _) in pairs() {
        offsets[row + 1] += 1;
    }
    for i in 0..rows {
        offsets[i + 1] += offsets[i];
    }
    let mut fill = offsets.clone();
    let mut values = vec![0u32; offsets[rows] as usize];
    for (row, value) in pairs() {
        values[fill[row] as usize] = value;
        fill[row] += 1;
    }
    Rows { offsets, values }
}

/// Where the line from `p` (in the cell of the node at `own`) to the node at `other` crosses
/// into that node's half: equally far from both nodes.
pub(crate) fn cell_edge_towards(p: DVec3, own: DVec3, other: DVec3) -> DVec3 {
    let u = other - p;
    let t = (p.distance_squared(other) - p.distance_squared(own)) / (2.0 * u.dot(other - own));
    p + u * if t.is_finite() { t.clamp(0.0, 1.0) } else { 1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::sphere;

    #[test]
    fn a_point_projects_onto_the_segment_and_past_its_ends() {
        let (a, b) = (DVec3::ZERO, DVec3::new(2.0, 0.0, 0.0));
        assert_eq!(chord_fraction(a, b, DVec3::new(3.0, 1.0, 0.0)), 1.5);
        assert_eq!(segment_projection(a, b, DVec3::new(1.0, 2.0, 0.0)), (0.5, 2.0));
        assert_eq!(segment_projection(a, b, DVec3::new(-3.0, 4.0, 0.0)), (0.0, 5.0));
        assert_eq!(segment_projection(a, a, DVec3::new(0.0, 1.0, 0.0)), (0.0, 1.0));
    }

    #[test]
    fn csr_keeps_each_rows_values_in_arrival_order() {
        let pairs = [(2, 7), (0, 1), (2, 3), (0, 9)];
        let rows = csr(4, || pairs.iter().copied());
        assert_eq!(rows.offsets, [0, 2, 2, 4, 4]);
        assert_eq!(rows.values, [1, 9, 7, 3]);
    }

    #[test]
    fn dedup_drops_repeats_side_by_side_within_a_row_only() {
        let pairs = [(0, 4), (0, 4), (0, 5), (0, 4), (2, 4), (2, 6), (2, 6), (2, 6), (3, 6)];
        let mut rows = csr(5, || pairs.iter().copied());
        rows.dedup_rows();
        assert_eq!(rows.offsets, [0, 3, 3, 5, 6, 6]);
        assert_eq!(rows.values, [4, 5, 4, 4, 6, 6]);
        assert_eq!(rows.row(2), [4, 6]);
    }

    #[test]
    fn the_bell_is_one_on_the_centre_line_and_zero_from_the_bank_out() {
        assert_eq!(bell(0.0), 1.0);
        assert!((bell(0.5) - 0.5).abs() < 1e-15);
        assert_eq!(bell(1.0), 0.0);
        assert_eq!(bell(7.0), 0.0);
        for x in [-0.0, -0.4, f64::NAN, 1e-300, 0.25, 0.999] {
            let formula = 0.5 * (1.0 + libm::cos(std::f64::consts::PI * x.max(0.0)));
            assert_eq!(bell(x).to_bits(), formula.to_bits(), "at {x}");
        }
        assert_eq!(smoothstep(0.0, 2.0, 1.0), 0.5);
    }

    #[test]
    fn the_cell_edge_is_equally_far_from_both_nodes() {
        let (own, other) =
            (sphere::unit(DVec3::new(0.0, 0.0, 1.0)), sphere::unit(DVec3::new(0.02, 0.0, 1.0)));
        for p in [DVec3::new(0.001, 0.003, 1.0), DVec3::new(-0.004, -0.002, 1.0), DVec3::new(0.009, 0.0, 1.0)]
        {
            let p = sphere::unit(p);
            let edge = cell_edge_towards(p, own, other);
            assert!((edge.distance(own) - edge.distance(other)).abs() < 1e-12, "{p:?} -> {edge:?}");
            assert!((edge - p).cross(other - p).length() < 1e-12, "on the line from p to the node");
        }
        // Already past the edge: the point itself.
        let past = sphere::unit(DVec3::new(0.015, 0.0, 1.0));
        assert_eq!(cell_edge_towards(past, own, other), past);
    }
}
