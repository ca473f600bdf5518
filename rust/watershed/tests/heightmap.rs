//! Heightmap worlds on small hand-made grids: the planet's pipeline on a grid keeps its
//! rules (levels never rise downstream, rivers meet the sea at its level, lakes are flat)
//! and gives the same bytes with any thread count.

use watershed::testkit;
use watershed::{Cover, Grid, HeightmapParams, HeightmapWorld, NodeKind, Topology};

/// A valley `n` cells square of one-metre cells falling `fall` per row towards row `n - 1`,
/// its floor along the middle column and its sides rising `side` per cell away from it.
fn valley(n: usize, fall: f64, side: f64, base: f64) -> (Grid, Vec<f64>) {
    let grid = Grid { width: n, height: n, cell_m: 1.0 };
    let mid = (n / 2) as f64;
    let heights = (0..n * n)
        .map(|i| {
            let (row, col) = ((i / n) as f64, (i % n) as f64);
            base + (n as f64 - row) * fall + (col - mid).abs() * side
        })
        .collect();
    (grid, heights)
}

fn params() -> HeightmapParams {
    HeightmapParams { river_catchment_m2: Some(400.0), channel_depth_m: 2.0, ..HeightmapParams::default() }
}

#[test]
fn a_straight_valley_carries_a_river_whose_surface_never_rises() {
    let (grid, heights) = valley(64, 0.05, 0.3, 10.0);
    let world = HeightmapWorld::build(grid, heights, &params());
    let mid = 32;
    let wet: Vec<f64> = (0..64)
        .map(|row| row * 64 + mid)
        .filter(|&i| world.cover[i] != Cover::Dry)
        .map(|i| world.level[i])
        .collect();
    assert!(wet.len() > 20, "the valley floor is wet over most of its length: {}", wet.len());
    for w in wet.windows(2) {
        assert!(w[1] <= w[0] + 1e-9, "the surface rises downstream: {} then {}", w[0], w[1]);
    }
    // On an evenly falling stretch the level read at a cell (the bell-weighted mix of the
    // reaches around it) is the water table's own level at the node, to a millimetre; only
    // the source, where no reach comes in to mix with, stands apart.
    let centre: Vec<(usize, f64)> = (0..64)
        .map(|row| row * 64 + mid)
        .filter_map(|i| world.carve.reach_from(i).map(|k| (i, world.water.reach_levels[k.0 as usize][0])))
        .collect();
    assert!(centre.len() > 20, "{} reaches on the centre line", centre.len());
    for &(i, table) in &centre[1..] {
        assert!(
            (world.level[i] - table).abs() < 1e-3,
            "cell {i}: {} against the table's {table}",
            world.level[i]
        );
    }
    let stats = world.stats();
    assert_eq!(stats.uphill_water, 0);
    // Down the valley (towards higher rows), and nothing moves on dry ground.
    let flow = world.flow_at(32 * 64 + mid);
    assert!(flow.y > 0.0 && flow.x.abs() < 0.1 * flow.y, "{flow:?}");
    assert_eq!(world.flow_at(32 * 64 + 2), watershed::DVec3::ZERO);
    for i in 0..grid.len() {
        assert!(world.ground[i] <= world.natural[i], "the carve never raises the ground");
        if world.cover[i] != Cover::Dry {
            assert!(world.level[i] > world.ground[i], "water stands above its ground");
        }
    }
}

#[test]
fn a_river_into_the_sea_comes_down_to_its_level() {
    // The valley's lower end dips under a sea at 0 m.
    let (grid, heights) = valley(64, 0.2, 0.3, -3.0);
    let p = HeightmapParams { sea_level_m: Some(0.0), ..params() };
    let world = HeightmapWorld::build(grid, heights, &p);
    assert!(world.cover.contains(&Cover::Sea));
    // The last river cells before the sea stand within a few centimetres of it.
    let mid = 32;
    let before_sea: Vec<usize> = (0..64)
        .map(|row| row * 64 + mid)
        .filter(|&i| world.cover[i] == Cover::River)
        .filter(|&i| world.cover[i + 64] == Cover::Sea)
        .collect();
    assert!(!before_sea.is_empty(), "the river reaches the sea");
    for i in before_sea {
        // At the sea's level, or a film over a bed that stands higher.
        let highest = 0.0f64.max(world.ground[i] + 0.1) + 0.05;
        assert!(world.level[i] <= highest, "river at {} m beside the sea", world.level[i]);
    }
    assert_eq!(world.stats().rivers_under_sea, 0);
}

#[test]
fn a_lake_is_flat_at_its_spill_level() {
    // A bowl in the valley floor, deeper than the lake minimum.
    let (grid, mut heights) = valley(64, 0.05, 0.3, 10.0);
    for row in 40..50 {
        for col in 28..37 {
            heights[row * 64 + col] -= 3.0;
        }
    }
    let world = HeightmapWorld::build(grid, heights, &params());
    let lake: Vec<usize> = (0..grid.len()).filter(|&i| world.drainage.kind[i] == NodeKind::Lake).collect();
    assert!(!lake.is_empty());
    let level = world.drainage.water_level_m(lake[0]);
    // Flat at the spill level, except where the inflowing river's surface still stands
    // above it.
    let flat = lake.iter().filter(|&&i| world.cover[i] == Cover::Lake && world.level[i] == level).count();
    assert!(flat * 4 > lake.len() * 3, "{flat} of {} lake cells at the spill level", lake.len());
    for &i in &lake {
        assert!(world.cover[i] != Cover::Dry && world.level[i] >= level);
    }
    // No dip before the mouth: down the centre line to the bowl (rows 40..50) the surface
    // falls to the lake's level and never under it.
    let inflow: Vec<usize> =
        (0..40).map(|row| row * 64 + 32).filter(|&i| world.cover[i] != Cover::Dry).collect();
    assert!(inflow.len() > 10, "a river runs into the lake: {} wet cells", inflow.len());
    for w in inflow.windows(2) {
        assert!(world.level[w[1]] <= world.level[w[0]], "the surface rises at cell {}", w[1]);
    }
    for i in inflow {
        assert!(world.level[i] >= level, "cell {i}: {} under the lake's {level}", world.level[i]);
    }
}

#[test]
fn the_same_bytes_with_one_thread_or_two() {
    let (grid, heights) = valley(48, 0.1, 0.2, 5.0);
    let p = HeightmapParams { sea_level_m: Some(0.0), ..params() };
    let one = testkit::with_threads(1, || HeightmapWorld::build(grid, heights.clone(), &p));
    let two = testkit::with_threads(2, || HeightmapWorld::build(grid, heights.clone(), &p));
    assert_eq!(one.ground, two.ground);
    assert_eq!(one.level, two.level);
    assert_eq!(one.cover, two.cover);
    assert_eq!(one.stats(), two.stats());
}

/// Rough ground falling a metre a row with hash noise on it, `n` cells square.
fn rough(n: usize, seed: u64) -> (Grid, Vec<f64>) {
    let grid = Grid { width: n, height: n, cell_m: 1.0 };
    let mut rng = watershed::SplitMix64::new(seed, 0);
    let heights = (0..n * n)
        .map(|i| {
            let (row, col) = ((i / n) as f64, (i % n) as f64);
            (n as f64 - row) * 1.0 + (col - n as f64 / 2.0).abs() * 0.6 + rng.next_f64() * 1.5
        })
        .collect();
    (grid, heights)
}

/// On rough ground the water is fitted to it: no river cell under the water it drains into,
/// no water over a dry neighbour by more than half a metre, no step over a metre beyond the
/// ground's own — and the fit had work to do.
#[test]
fn water_fits_rough_ground() {
    let mut rivers = 0;
    let mut fitted = 0;
    for seed in 0..24 {
        let (grid, heights) = rough(64, seed);
        let p = HeightmapParams { channel_depth_m: 4.0, river_catchment_m2: Some(120.0), ..params() };
        let world = HeightmapWorld::build(grid, heights, &p);
        for i in 0..grid.len() {
            if world.cover[i] != Cover::River {
                continue;
            }
            rivers += 1;
            if let Some(r) = world.drainage.receivers[i].receiver().map(|r| r.index()) {
                if world.cover[r] != Cover::Dry {
                    assert!(
                        world.level[r] <= world.level[i],
                        "seed {seed}: cell {i} at {} drains into {r} at {}",
                        world.level[i],
                        world.level[r]
                    );
                }
            }
        }
        let stats = world.stats();
        assert_eq!(stats.uphill_water, 0, "seed {seed}");
        assert_eq!((stats.shoreline_mismatches, stats.water_steps), (0, 0), "seed {seed}: {stats:?}");
        fitted += stats.fit.lowered_cells + stats.fit.dried_cells;
        for i in 0..grid.len() {
            assert_eq!(
                world.cover[i] == Cover::Dry,
                world.level[i] == world.ground[i],
                "seed {seed} cell {i}"
            );
            assert!(world.level[i] >= world.ground[i], "seed {seed} cell {i}");
        }
    }
    assert!(rivers > 1000, "{rivers} river cells in all");
    assert!(fitted > 0, "the rough maps needed fitting");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]

    /// With the defaults, the river threshold follows the map in cells: the same heights on
    /// cells of another size give the same river, lake and land cells, and water that fits.
    #[test]
    fn default_rivers_do_not_depend_on_the_cell_size(
        seed in 0u64..1_000,
        n in 24usize..72,
        cell_m in proptest::sample::select(vec![0.5, 5.0, 30.0, 90.0]),
    ) {
        let (grid, heights) = rough(n, seed);
        let kinds = |cell_m: f64| {
            let world = HeightmapWorld::build(Grid { cell_m, ..grid }, heights.clone(), &HeightmapParams::default());
            let stats = world.stats();
            assert_eq!((stats.shoreline_mismatches, stats.water_steps, stats.uphill_water), (0, 0, 0), "{stats:?}");
            world.drainage.kind
        };
        let one = kinds(1.0);
        proptest::prop_assert!(one.contains(&NodeKind::River), "no river at 1 m cells");
        proptest::prop_assert!(one == kinds(cell_m), "the rivers moved at {} m cells", cell_m);
    }
}
