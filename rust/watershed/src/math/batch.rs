//! Queries over many points at once, evaluated nearby points together: a batch in the order
//! a caller gives it (random directions, hull points of many bodies) jumps across the
//! lattice and the fields it reads, and most of its time goes to cache misses.

use glam::DVec3;
use rayon::prelude::*;

/// Below this many points a batch is evaluated in the order given.
const REORDER_FROM: usize = 4096;

/// `f` of every point (a direction, or a position from the planet's centre), in parallel,
/// returned in the order given. Large batches are evaluated sorted along a Z-order curve of
/// the points' directions; each result is `f` of its point alone, so the output is the same
/// bytes in any order and with any thread count.
pub(crate) fn map_nearby_together<T: Copy + Send + Sync>(
    points: &[DVec3],
    f: impl Fn(DVec3) -> T + Sync + Send,
) -> Vec<T> {
    if points.len() < REORDER_FROM || u32::try_from(points.len()).is_err() {
        return points.par_iter().map(|&p| f(p)).collect();
    }
    let mut order: Vec<(u64, u32)> =
        points.par_iter().enumerate().map(|(i, &p)| (z_order(p), i as u32)).collect();
    order.par_sort_unstable();
    // The points gathered in curve order before any is evaluated: a loop that only gathers
    // keeps many reads of the scattered batch in flight, where each evaluation would wait
    // for its own.
    let gathered: Vec<DVec3> = order.par_iter().map(|&(_, i)| points[i as usize]).collect();
    let sorted: Vec<T> = gathered.par_iter().map(|&p| f(p)).collect();
    let mut rank = vec![0u32; points.len()];
    for (k, &(_, i)) in order.iter().enumerate() {
        rank[i as usize] = k as u32;
    }
    rank.par_iter().map(|&k| sorted[k as usize]).collect()
}

/// Position of `p`'s direction on a Z-order curve through the cube around the unit sphere,
/// 21 bits per axis (0 for a point with no direction).
fn z_order(p: DVec3) -> u64 {
    let d = p.normalize_or_zero();
    let cell = |v: f64| ((v.clamp(-1.0, 1.0) + 1.0) * 0.5 * f64::from((1u32 << 21) - 1)) as u64;
    spread(cell(d.x)) | spread(cell(d.y)) << 1 | spread(cell(d.z)) << 2
}

/// Position of the cell at `row`, `col` on a Z-order curve over a grid.
pub(crate) fn grid_z_order(row: u32, col: u32) -> u64 {
    let spread = |v: u32| {
        let mut x = u64::from(v);
        x = (x | x << 16) & 0x0000_ffff_0000_ffff;
        x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
        x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
        x = (x | x << 2) & 0x3333_3333_3333_3333;
        (x | x << 1) & 0x5555_5555_5555_5555
    };
    spread(row) << 1 | spread(col)
}

/// The low 21 bits of `x` spread to every third bit.
fn spread(mut x: u64) -> u64 {
    x &= 0x1f_ffff;
    x = (x | x << 32) & 0x001f_0000_0000_ffff;
    x = (x | x << 16) & 0x001f_0000_ff00_00ff;
    x = (x | x << 8) & 0x100f_00f0_0f00_f00f;
    x = (x | x << 4) & 0x10c3_0c30_c30c_30c3;
    x = (x | x << 2) & 0x1249_2492_4924_9249;
    x
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::rng::SplitMix64;

    /// Every result lands at its own point's place, for batches above and below the
    /// reordering size, with zero and non-finite points among them.
    #[test]
    fn results_come_back_in_the_order_given() {
        let mut rng = SplitMix64::new(11, 0);
        for n in [0, 7, REORDER_FROM - 1, REORDER_FROM, 50_000] {
            let mut points: Vec<DVec3> = (0..n)
                .map(|_| DVec3::new(rng.range(-9.0, 9.0), rng.range(-9.0, 9.0), rng.range(-9.0, 9.0)))
                .collect();
            if n > 2 {
                points[1] = DVec3::ZERO;
                points[2] = DVec3::new(f64::NAN, 1.0, 0.0);
            }
            let f = |p: DVec3| (p.x.to_bits(), p.y.to_bits() ^ p.z.to_bits());
            let expected: Vec<_> = points.iter().map(|&p| f(p)).collect();
            assert_eq!(map_nearby_together(&points, f), expected, "{n} points");
        }
    }

    /// Points near each other get near keys: along the curve, neighbours of a point are
    /// mostly close on the sphere.
    #[test]
    fn the_curve_keeps_nearby_points_together() {
        let mut rng = SplitMix64::new(12, 0);
        let mut points: Vec<DVec3> = (0..20_000)
            .map(|_| DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)).normalize())
            .collect();
        let mean_step = |p: &[DVec3]| p.windows(2).map(|w| w[0].distance(w[1])).sum::<f64>() / p.len() as f64;
        let random = mean_step(&points);
        points.sort_by_key(|&p| z_order(p));
        let sorted = mean_step(&points);
        assert!(sorted < random / 20.0, "{sorted} along the curve vs {random} at random");
    }

    /// A cell's key interleaves its row's bits (the odd places) with its column's (the
    /// even ones), from the lowest to the 32nd.
    #[test]
    fn grid_keys_interleave_row_and_column_bits() {
        let interleaved = |row: u32, col: u32| {
            (0..32).fold(0u64, |key, b| {
                key | u64::from(col >> b & 1) << (2 * b) | u64::from(row >> b & 1) << (2 * b + 1)
            })
        };
        let mut rng = SplitMix64::new(13, 0);
        let cells = (0..10_000).map(|_| (rng.next_u64() as u32, rng.next_u64() as u32));
        for (row, col) in
            cells.chain([(0, 0), (0, 1), (1, 0), (u32::MAX, 0), (0, u32::MAX), (u32::MAX, u32::MAX)])
        {
            assert_eq!(grid_z_order(row, col), interleaved(row, col), "row {row} column {col}");
        }
    }
}
