//! Sediment: what settles in the ground's hollows that hold no water. A depression filled
//! by no more than `lake_min_depth_m` is not a lake, so sediment fills it, and flats are
//! laid with a gentle fall; afterwards every land node outside a lake or bay has a
//! neighbour strictly below it, in the ground itself, not only on the routing surface.

use crate::drainage::{ramped_surface, standing_water, DrainageParams, NodeKind};
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
