//! Sediment: what settles in the ground's hollows that hold no water. A depression filled
//! by no more than `lake_min_depth_m` is not a lake, so sediment fills it, and flats are
//! laid with a gentle fall; afterwards every land node outside a lake or bay has a
//! neighbour strictly below it, in the ground itself, not only on the routing surface.
//! On heightmaps a lake that too little water reaches fills too (`settle_unfed`).

use crate::drainage::{ramped_surface, standing_water, Drainage, DrainageParams, NodeKind};
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

/// `heights` with every lake of `drainage` (solved on them under `params`) that is fed by
/// less than `min_catchment_m2` — the largest catchment among its nodes — filled like a
/// shallow hollow, to its spill level plus [`SETTLED_FALL_M`] per node from the spill: a
/// pit that little water reaches holds sediment, not a lake. `None` when every lake is fed
/// enough.
///
/// # Panics
/// If `heights` or `drainage` is not one per node of `topo`.
pub fn settle_unfed<T: Topology>(
    topo: &T,
    heights: &[f64],
    drainage: &Drainage,
    params: &DrainageParams,
    min_catchment_m2: f64,
) -> Option<Vec<f64>> {
    assert_eq!(heights.len(), topo.len(), "one height per node");
    let mut fed = vec![0.0f64; drainage.lakes.len()];
    for (&id, &catchment) in drainage.lake_id.iter().zip(&drainage.catchment_m2) {
        if let Some(lake) = (id as usize).checked_sub(1).and_then(|k| fed.get_mut(k)) {
            *lake = lake.max(catchment);
        }
    }
    let unfed = |id: u32| (id as usize).checked_sub(1).is_some_and(|k| fed[k] < min_catchment_m2);
    if !drainage.lake_id.iter().any(|&id| unfed(id)) {
        return None;
    }
    let ramped = ramped_surface(topo, heights, params, SETTLED_FALL_M);
    Some((0..topo.len()).map(|i| if unfed(drainage.lake_id[i]) { ramped[i] } else { heights[i] }).collect())
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
        let drainage = crate::drainage::solve(&grid, &z, &p);
        assert_eq!(drainage.lakes.len(), 1, "3 m deep: a lake");
        // The plateau around the pit drains to the edge: the lake gets its own square metre.
        assert_eq!(settle_unfed(&grid, &z, &drainage, &p, 1.0), None, "fed by 1 m² of 1");
        let filled = settle_unfed(&grid, &z, &drainage, &p, 2.0).expect("fed by 1 m² of 2");
        assert!(filled[12] > 5.0, "the pit fills to its spill: {}", filled[12]);
        let again = crate::drainage::solve(&grid, &filled, &p);
        assert!(again.lakes.is_empty(), "{:?}", again.lakes);
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
