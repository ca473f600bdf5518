//! Pools: hollows in a river no wider than its channel, held behind a dam no thicker than
//! the channel is wide — what a survey DEM's coarse cells make of a river in a narrow
//! valley (a cell sampling the valley side across the stream). Such a hollow is part of
//! the river, not a lake: its dam is cut through, from the pool's deepest cell down to the
//! first lower ground past it, and the river runs on.

use crate::drainage::Hollows;

/// `heights` with every pool of `found` cut through: a lake of at most `width_cells`²
/// cells whose water, followed down its receivers from its deepest cell, reaches ground
/// lower than that cell after at most `width_cells` cells past the lake. The cells on that
/// way fall evenly from the deepest cell to the lower ground (a cell already lower stays).
/// The lakes `left` marks (one flag a lake) are left out. `None` when there is no such pool.
///
/// # Panics
/// If `heights` is not one per node of `found`, or `left` not one per lake.
pub fn breach_pools(heights: &[f64], found: &Hollows, width_cells: usize, left: &[bool]) -> Option<Vec<f64>> {
    assert_eq!(heights.len(), found.lake_id.len(), "one height per node");
    assert_eq!(left.len(), found.lakes.len(), "one flag per lake");
    let lake_of = |i: usize| (found.lake_id[i] as usize).checked_sub(1);
    let mut deepest: Vec<Option<usize>> = vec![None; found.lakes.len()];
    for i in 0..heights.len() {
        if let Some(k) = lake_of(i) {
            let lower = |d: usize| heights[i].total_cmp(&heights[d]).then(i.cmp(&d)).is_lt();
            if deepest[k].is_none_or(lower) {
                deepest[k] = Some(i);
            }
        }
    }
    let mut out = heights.to_vec();
    let mut cut_any = false;
    let max_pool = width_cells.saturating_mul(width_cells);
    for (k, lake) in found.lakes.iter().enumerate() {
        let Some(floor) = deepest[k].filter(|_| lake.nodes <= max_pool && !left[k]) else { continue };
        let bottom = out[floor];
        let mut way = vec![floor];
        let mut past_lake = 0;
        let found = loop {
            let Some(next) = way.last().and_then(|&at| found.receivers[at].receiver()).map(|r| r.index())
            else {
                break false;
            };
            way.push(next);
            if out[next] < bottom {
                break true;
            }
            if lake_of(next) != Some(k) {
                past_lake += 1;
            }
            if past_lake > width_cells || way.len() > lake.nodes + width_cells + 1 {
                break false;
            }
        };
        if !found {
            continue;
        }
        let steps = (way.len() - 1) as f64;
        let fall = bottom - out[way[way.len() - 1]];
        for (j, &node) in way.iter().enumerate().take(way.len() - 1).skip(1) {
            let cut = bottom - fall * j as f64 / steps;
            if cut < out[node] {
                out[node] = cut;
                cut_any = true;
            }
        }
    }
    cut_any.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drainage::{self, hollows, DrainageParams};
    use crate::ground::grid::Grid;

    /// A valley 9 cells wide falling half a metre a row, its floor dammed from row 12 by
    /// `thick` rows standing 4 m above it, and above the dam a flat pool 3 cells wide and
    /// `pool` rows long dug to 43.5 m (a metre under the floor at the dam).
    fn dammed(thick: usize, pool: usize) -> (Grid, Vec<f64>) {
        let (w, h) = (9, 30);
        let grid = Grid { width: w, height: h, cell_m: 1.0 };
        let z = (0..w * h)
            .map(|i| {
                let (r, c) = (i / w, i % w);
                let mut z = 50.0 - r as f64 * 0.5 + (c as f64 - 4.0).abs() * 3.0;
                if c == 4 && (12..12 + thick).contains(&r) {
                    z += 4.0;
                }
                if (3..=5).contains(&c) && (12 - pool..12).contains(&r) {
                    z = 43.5;
                }
                z
            })
            .collect();
        (grid, z)
    }

    fn params() -> DrainageParams {
        DrainageParams { lake_min_depth_m: 0.5, ..DrainageParams::outlets(None, true) }
    }

    #[test]
    fn a_pool_behind_a_thin_dam_is_cut_through_and_drains() {
        let (grid, z) = dammed(1, 2);
        let d = hollows(&grid, &z, &params());
        assert_eq!(d.lakes.len(), 1, "the dam holds a pool");
        let cut = breach_pools(&z, &d, 3, &[false]).expect("a pool of 6 cells behind a 1-cell dam");
        assert!(drainage::solve(&grid, &cut, &params()).lakes.is_empty(), "the river runs on");
        let changed: Vec<usize> = (0..z.len()).filter(|&i| cut[i] != z[i]).collect();
        assert!(changed.iter().all(|&i| cut[i] < z[i]), "a cut only lowers");
        assert!(changed.len() <= 4, "only the way out is cut: {changed:?}");
        assert_eq!(breach_pools(&z, &d, 3, &[true]), None, "a lake left out stays");
    }

    #[test]
    fn a_lake_wider_than_a_channel_or_behind_a_thick_dam_stays() {
        let (grid, z) = dammed(1, 10);
        let d = hollows(&grid, &z, &params());
        assert_eq!(d.lakes.len(), 1);
        assert_eq!(breach_pools(&z, &d, 3, &[false]), None, "30 cells is more than 3²");
        let (grid, z) = dammed(6, 2);
        let d = hollows(&grid, &z, &params());
        assert_eq!(d.lakes.len(), 1);
        assert_eq!(breach_pools(&z, &d, 3, &[false]), None, "a dam 6 cells thick");
    }
}
