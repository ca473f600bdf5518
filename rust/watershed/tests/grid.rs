//! D8 drainage on small hand-drawn DEMs whose answers were worked out by hand.

use std::sync::Mutex;
use watershed::testkit::PlainGrid;
use watershed::{
    drain_grid, drain_grid_handing_over, route, DrainageParams, Grid, GridOptions, NodeKind, Outlet, Settled,
};

const EDGES: GridOptions = GridOptions { sea_level_m: None, edge_outlets: true, lake_min_depth_m: 1.4 };

#[test]
fn pit_and_pass_5x5() {
    // The pit is the 2 in the middle; it fills to the pass, the 4 below it, which spills
    // to the 3 on the bottom edge.
    #[rustfmt::skip]
    let dem = [
        9.0, 9.0, 9.0, 9.0, 9.0,
        9.0, 6.0, 7.0, 8.0, 9.0,
        9.0, 5.0, 2.0, 6.0, 9.0,
        9.0, 6.0, 4.0, 7.0, 9.0,
        9.0, 9.0, 3.0, 9.0, 9.0,
    ];
    let grid = Grid { width: 5, height: 5, cell_m: 10.0 };
    let (d, surfaces) = drain_grid(&grid, &dem, &EDGES);
    #[rustfmt::skip]
    let expected = [
        -1, -1, -1, -1, -1,
        -1, 12, 12, 12, -1,
        -1, 17, 17, 17, -1,
        -1, 22, 22, 22, -1,
        -1, -1, -1, -1, -1,
    ];
    assert_eq!(d.receiver_indices(), expected);
    let mut filled = dem;
    filled[12] = 4.0;
    assert_eq!(surfaces.filled_m, filled);
    // Depth 2 > 1.4: a lake at the pass level, draining to the pass.
    assert_eq!(d.lakes.len(), 1);
    assert_eq!(d.lakes[0].level_m, 4.0);
    assert_eq!(d.lakes[0].depth_m, 2.0);
    assert_eq!(d.lakes[0].outlet, Outlet::Flows(watershed::NodeId(17)));
    assert_eq!(d.lake_id[12], 1);
    assert_eq!(d.kind[12], NodeKind::Lake);
    // The lake's routing level is an ulp above the pass, so its neighbours drain to the pass
    // directly; the top row drains into the lake. All 9 interior cells reach cell 22.
    assert_eq!(d.catchment_m2[12], 400.0);
    assert_eq!(d.catchment_m2[17], 700.0);
    assert_eq!(d.catchment_m2[22], 1000.0);
    assert_eq!((d.stats.uphill, d.stats.no_path), (0, 0));
}

#[test]
fn shallow_pit_is_filled_but_not_a_lake() {
    #[rustfmt::skip]
    let dem = [
        5.0, 5.0, 5.0, 5.0,
        5.0, 3.0, 2.0, 5.0,
        5.0, 3.0, 3.5, 5.0,
        5.0, 5.0, 1.0, 5.0,
    ];
    // Cell 6 (2.0) fills to 3.0, the level of its lowest way out (cell 9); depth 1 < 1.4.
    let (d, surfaces) = drain_grid(&Grid { width: 4, height: 4, cell_m: 1.0 }, &dem, &EDGES);
    assert_eq!(surfaces.filled_m[6], 3.0);
    assert!(d.lakes.is_empty());
    assert_eq!(d.receiver_indices()[5..7], [9, 9]);
    assert_eq!(d.receiver_indices()[9..11], [14, 14]);
}

#[test]
fn flat_plateau_cycle() {
    // A perfectly flat interior: the ulp ramp must route every cell to the edge, no cycles.
    let (w, h) = (12, 9);
    let dem: Vec<f64> = (0..w * h)
        .map(|i| if i / w == 0 || i % w == 0 || i / w == h - 1 || i % w == w - 1 { 0.0 } else { 10.0 })
        .collect();
    let (d, _) = drain_grid(&Grid { width: w, height: h, cell_m: 1.0 }, &dem, &EDGES);
    assert_eq!((d.stats.uphill, d.stats.no_path), (0, 0));
    let interior = (w - 2) * (h - 2);
    let reached: f64 =
        (0..w * h).filter(|&i| d.receivers[i] == Outlet::Edge).map(|i| d.catchment_m2[i]).sum();
    assert_eq!(reached, (w * h) as f64, "all {interior} interior cells and the edge reach the edge");
}

#[test]
fn sea_cells_are_outlets_and_mouths_drain_into_them() {
    #[rustfmt::skip]
    let dem = [
        4.0, 3.0, 2.0,
        3.0, 2.0, -1.0,
        2.0, -1.0, -3.0,
    ];
    let opts = GridOptions { sea_level_m: Some(0.0), edge_outlets: false, lake_min_depth_m: 1.4 };
    let (d, _) = drain_grid(&Grid { width: 3, height: 3, cell_m: 1.0 }, &dem, &opts);
    assert_eq!(d.receiver_indices(), [4, 5, 5, 7, 8, -1, 7, -1, -1]);
    assert_eq!(d.receivers[8], Outlet::Sea);
    assert_eq!(d.kind[8], NodeKind::Sea);
    assert_eq!(d.catchment_m2[8], 3.0, "cell 8 receives 4, which carries itself and 0");
}

#[test]
fn dry_grid_drains_to_its_lowest_cell() {
    let dem = [3.0, 2.0, 4.0, 1.0, 5.0, 0.5];
    let opts = GridOptions { sea_level_m: None, edge_outlets: false, lake_min_depth_m: 1.4 };
    let (d, _) = drain_grid(&Grid { width: 3, height: 2, cell_m: 1.0 }, &dem, &opts);
    assert_eq!(d.receivers[5], Outlet::Sink);
    assert_eq!(d.catchment_m2[5], 6.0);
    assert_eq!(d.stats.no_path, 0);
}

/// With a sea and edge outlets both, a rim cell under the sea drains to the sea and one
/// above it to the edge; an inner cell under the sea is sea too.
#[test]
fn rim_cells_under_the_sea_are_sea_and_the_rest_of_the_rim_edge() {
    let grid = Grid { width: 4, height: 3, cell_m: 1.0 };
    #[rustfmt::skip]
    let dem = [
        0.0, 5.0, 5.0, 5.0,
        0.0, 0.5, 5.0, 5.0,
        5.0, 5.0, 5.0, 0.0,
    ];
    let params = DrainageParams::outlets(Some(1.0), true);
    for receivers in [route(&grid, &dem, &params).receivers, route(&PlainGrid(grid), &dem, &params).receivers]
    {
        let outlets: Vec<Option<Outlet>> =
            receivers.iter().map(|r| r.receiver().is_none().then_some(*r)).collect();
        let (sea, edge) = (Some(Outlet::Sea), Some(Outlet::Edge));
        #[rustfmt::skip]
        let expected = [
            sea, edge, edge, edge,
            sea, sea, None, edge,
            edge, edge, edge, sea,
        ];
        assert_eq!(outlets, expected);
    }
}

/// A grid's fast paths route exactly as the general neighbour rule does: the same receivers
/// and catchments, bit for bit, and an order of the same nodes, with pits, flats, sea and
/// edges, on a narrow grid and a wide one, and with heights in half metres, so neighbours
/// often stand level.
#[test]
fn grid_fast_paths_route_like_the_general_rule() {
    for (width, height, step_m) in [(23, 17, 0.0), (150, 9, 0.5)] {
        let grid = Grid { width, height, cell_m: 2.0 };
        let dem: Vec<f64> = (0..grid.width * grid.height)
            .map(|i| {
                let (x, y) = ((i % grid.width) as f64, (i / grid.width) as f64);
                let z =
                    (x * 0.7).sin() * 3.0 + (y * 0.5).cos() * 2.0 + 0.2 * x + ((i * 7919) % 5) as f64 * 0.5;
                if step_m > 0.0 {
                    (z / step_m).round() * step_m
                } else {
                    z
                }
            })
            .collect();
        routes_alike(grid, &dem);
    }
}

/// Routes `dem` on `grid` with and without the grid's fast paths, to the map edge, to a
/// sea and to both, and checks both give the same bits.
fn routes_alike(grid: Grid, dem: &[f64]) {
    let outlets = [
        DrainageParams::outlets(None, true),
        DrainageParams::outlets(Some(1.0), false),
        DrainageParams::outlets(Some(1.0), true),
    ];
    for params in outlets {
        let (fast, plain) = (route(&grid, dem, &params), route(&PlainGrid(grid), dem, &params));
        assert_eq!(fast.receivers, plain.receivers);
        // The orders may differ (a grid's need not be Kahn's); each holds the same nodes,
        // every one before the node it drains to.
        let mut place = vec![usize::MAX; dem.len()];
        for (k, &i) in fast.order.iter().enumerate() {
            place[i as usize] = k;
        }
        for &i in &plain.order {
            let (i, r) = (i as usize, fast.receivers[i as usize].receiver());
            assert_ne!(place[i], usize::MAX, "node {i} left out of the grid's order");
            assert!(r.is_none_or(|r| place[r.index()] > place[i]), "node {i} after its receiver");
        }
        assert_eq!(fast.order.len(), plain.order.len());
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&fast.catchment_m2), bits(&plain.catchment_m2));
        assert_eq!(bits(&fast.filled_m), bits(&plain.filled_m));
        assert!(fast.filled_m.iter().zip(dem).any(|(f, z)| f > z), "the DEM has pits to fill");
    }
}

/// A drain that hands its results over as they settle hands each over once, with the
/// values the finished drain holds, and finishes with the same drainage as one that does
/// not: on a map with pits, lakes, sea and edges.
#[test]
fn settled_results_are_handed_over_once_as_the_drain_ends_with_them() {
    let grid = Grid { width: 40, height: 30, cell_m: 1.0 };
    let dem: Vec<f64> = (0..grid.width * grid.height)
        .map(|i| {
            let (x, y) = ((i % grid.width) as f64, (i / grid.width) as f64);
            (x * 0.4).sin() * 4.0 + (y * 0.3).cos() * 3.0 + 0.05 * x + ((i * 7919) % 7) as f64 * 0.3
        })
        .collect();
    let options = GridOptions { sea_level_m: Some(-2.0), edge_outlets: true, lake_min_depth_m: 0.1 };
    let handed = Mutex::new((Vec::new(), Vec::new(), Vec::new(), Vec::new()));
    let hand_over = |settled: Settled<'_>| {
        let mut handed = handed.lock().expect("no hand-over panicked");
        match settled {
            Settled::Filled(filled) => handed.0.push(filled.to_vec()),
            Settled::Receivers(receivers) => handed.1.push(receivers.to_vec()),
            Settled::LakeIds(ids) => handed.2.push(ids.to_vec()),
            Settled::Catchment(area) => handed.3.push(area.to_vec()),
        }
    };
    let (d, surfaces) = drain_grid_handing_over(&grid, &dem, &options, &hand_over);
    let (filled, receivers, lake_ids, catchments) = handed.into_inner().expect("no hand-over panicked");
    assert_eq!(filled, std::slice::from_ref(&surfaces.filled_m));
    assert_eq!(receivers, std::slice::from_ref(&d.receivers));
    assert_eq!(lake_ids, std::slice::from_ref(&d.lake_id));
    assert_eq!(catchments, std::slice::from_ref(&d.catchment_m2));
    assert!(!d.lakes.is_empty() && d.stats.sea > 0, "the map has lakes and sea");
    let (plain, plain_surfaces) = drain_grid(&grid, &dem, &options);
    assert_eq!(plain.receivers, d.receivers);
    assert_eq!(plain.order, d.order);
    assert_eq!(plain.kind, d.kind);
    assert_eq!(plain.strahler, d.strahler);
    assert_eq!(plain.stats, d.stats);
    let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    assert_eq!(bits(&plain.catchment_m2), bits(&d.catchment_m2));
    assert_eq!(bits(&plain_surfaces.routing_m), bits(&surfaces.routing_m));
}
