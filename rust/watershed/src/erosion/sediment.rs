//! Sediment: what settles in the ground's hollows that hold no water. A depression filled
//! by no more than `lake_min_depth_m` is not a lake, so sediment fills it, and flats are
//! laid with a gentle fall; afterwards every land node outside a lake or bay has a
//! neighbour strictly below it, in the ground itself, not only on the routing surface.
//! On heightmaps a lake that too little water reaches fills too, and the pools of rivers
//! are cut through (`settle_heightmap`).

use crate::drainage::{hollows, ramped_surface, standing_water, DrainageParams, NodeKind};
use crate::erosion::pools::breach_pools;
use crate::ground::topology::Topology;

/// Fall laid across filled hollows and flats, metres per node towards the way out.
pub const SETTLED_FALL_M: f64 = 1.0e-4;

/// `heights` (metres, one per node of `topo`) with every hollow and flat that holds no
/// water under `params` (lakes, bays and the sea keep their floor) filled to its spill
/// level plus [`SETTLED_FALL_M`] per node from the spill. A world without lakes (`params.lakes`
/// off) holds no water anywhere and settles nothing. `None` when nothing changes.
///
/// # Panics
/// If `heights.len() != topo.len()`.
pub fn settle<T: Topology>(topo: &T, heights: &[f64], params: &DrainageParams) -> Option<Vec<f64>> {
    if !params.lakes {
        return None;
    }
    // Two floods of the same ground, side by side.
    let (kind, ramped) = rayon::join(
        || standing_water(topo, heights, params),
        || ramped_surface(topo, heights, params, SETTLED_FALL_M),
    );
    let under_water = |i: usize| match kind[i] {
        NodeKind::Lake => true,
        NodeKind::Sea => true,
        NodeKind::Land | NodeKind::River => false,
    };
    let settled: Vec<f64> =
        (0..topo.len()).map(|i| if under_water(i) { heights[i] } else { ramped[i] }).collect();
    (settled != heights).then_some(settled)
}

/// [`settle`] for a heightmap: besides the hollows too shallow for a lake, every lake fed
/// by less than `min_catchment_m2` (the largest catchment among its nodes) fills the same
/// way — a pit that little water reaches holds sediment, not a lake — and then the pools of
/// rivers are cut through ([`breach_pools`] with `width_cells`). A lake holding a node of
/// `kept` (sorted) stays as it is. `None` when nothing changes.
///
/// # Panics
/// If `heights.len() != topo.len()`.
pub fn settle_heightmap<T: Topology>(
    topo: &T,
    heights: &[f64],
    params: &DrainageParams,
    min_catchment_m2: f64,
    width_cells: usize,
    kept: &[usize],
) -> Option<Vec<f64>> {
    if !params.lakes {
        return None;
    }
    let (found, ramped) = rayon::join(
        || hollows(topo, heights, params),
        || ramped_surface(topo, heights, params, SETTLED_FALL_M),
    );
    let lake_of = |i: usize| (found.lake_id[i] as usize).checked_sub(1);
    let mut fed = vec![0.0f64; found.lakes.len()];
    for (i, &catchment) in found.catchment_m2.iter().enumerate() {
        if let Some(k) = lake_of(i) {
            fed[k] = fed[k].max(catchment);
        }
    }
    let mut held = vec![false; found.lakes.len()];
    for k in kept.iter().filter_map(|&i| lake_of(i)) {
        held[k] = true;
    }
    let stays: Vec<bool> = fed.iter().zip(&held).map(|(&f, &h)| h || f >= min_catchment_m2).collect();
    let settled: Vec<f64> = (0..topo.len())
        .map(|i| {
            let water = found.kind[i] == NodeKind::Sea || lake_of(i).is_some_and(|k| stays[k]);
            if water {
                heights[i]
            } else {
                ramped[i]
            }
        })
        .collect();
    let left: Vec<bool> = stays.iter().zip(&held).map(|(&s, &h)| !s || h).collect();
    let settled = breach_pools(&settled, &found, width_cells, &left).unwrap_or(settled);
    (settled != heights).then_some(settled)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::grid::Grid;

    fn params(lake_min_depth_m: f64) -> DrainageParams {
        DrainageParams { lake_min_depth_m, ..DrainageParams::outlets(None, true) }
    }

    /// A 5 × 5 plateau at 5 m draining to a 0 m edge, with a pit at the centre.
    fn pitted(floor: f64) -> (Grid, Vec<f64>) {
        let grid = Grid { width: 5, height: 5, cell_m: 1.0 };
        let mut z: Vec<f64> = (0..25).map(|i| if grid.on_edge(i) { 0.0 } else { 5.0 }).collect();
        z[12] = floor;
        (grid, z)
    }

    #[test]
    fn a_shallow_pit_fills_and_drains_strictly_downhill() {
        let (grid, z) = pitted(4.5);
        let settled = settle(&grid, &z, &params(1.0)).expect("the pit fills");
        for i in (0..25).filter(|&i| !grid.on_edge(i)) {
            let lowest = grid.neighbors(i).map(|j| settled[j]).fold(f64::INFINITY, f64::min);
            assert!(lowest < settled[i], "node {i} at {} has no lower neighbour", settled[i]);
        }
        assert!(settled[12] > 5.0 && settled[12] < 5.0 + 3.0 * SETTLED_FALL_M, "{}", settled[12]);
    }

    #[test]
    fn a_lake_keeps_its_floor() {
        let (grid, z) = pitted(2.0);
        assert_eq!(settle(&grid, &z, &params(1.0)), None, "3 m deep: a lake, not filled");
    }

    #[test]
    fn a_lake_fed_by_too_little_fills_and_a_fed_one_stays() {
        let (grid, z) = pitted(2.0);
        let p = params(1.0);
        // The plateau around the pit drains to the edge: the lake gets its own square metre.
        // (Channels 0 cells wide: no pool is cut through; pools.rs tests those.)
        assert_eq!(settle_heightmap(&grid, &z, &p, 1.0, 0, &[]), None, "fed by 1 m² of 1");
        assert_eq!(settle_heightmap(&grid, &z, &p, 2.0, 0, &[12]), None, "a kept lake stays");
        let filled = settle_heightmap(&grid, &z, &p, 2.0, 0, &[]).expect("fed by 1 m² of 2");
        assert!(filled[12] > 5.0, "the pit fills to its spill: {}", filled[12]);
        assert!(crate::drainage::solve(&grid, &filled, &p).lakes.is_empty());
        let shallow = pitted(4.5).1;
        assert_eq!(
            settle_heightmap(&grid, &shallow, &p, 0.0, 0, &[]),
            settle(&grid, &shallow, &p),
            "as settle"
        );
    }

    #[test]
    fn ground_that_already_falls_is_left_alone() {
        let grid = Grid { width: 3, height: 3, cell_m: 1.0 };
        let z: Vec<f64> = (0..9).map(|i| if i == 4 { 1.0 } else { 0.0 }).collect();
        assert_eq!(settle(&grid, &z, &params(1.0)), None);
    }

    #[test]
    fn a_world_without_lakes_settles_nothing() {
        let (grid, z) = pitted(4.5);
        let dry = DrainageParams { lakes: false, ..params(1.0) };
        assert_eq!(settle(&grid, &z, &dry), None);
    }
}
