//! Rivers a designer draws on a heightmap: whatever the ground and wherever the curve, the
//! drawn course becomes a river of the solve from end to end, its bed never rises
//! downstream, each of its cells drains to a cell further down it (or, where the curve
//! ends in a hollow, lies in the lake that fills it), and the water still fits.

use watershed::{drawn_course, Grid, HeightmapParams, HeightmapWorld, NodeKind};

/// Rough ground falling a metre a row, a valley along its middle column, hash noise on it.
fn rough(n: usize, seed: u64) -> (Grid, Vec<f64>) {
    let grid = Grid { width: n, height: n, cell_m: 2.0 };
    let mut rng = watershed::SplitMix64::new(seed, 7);
    let heights = (0..n * n)
        .map(|i| {
            let (row, col) = ((i / n) as f64, (i % n) as f64);
            (n as f64 - row) + (col - n as f64 / 2.0).abs() * 0.6 + rng.next_f64() * 1.5
        })
        .collect();
    (grid, heights)
}

fn build(grid: Grid, heights: Vec<f64>, drawn: &[Vec<[f64; 2]>]) -> HeightmapWorld {
    let never = std::sync::atomic::AtomicBool::new(false);
    let params = HeightmapParams { channel_depth_m: 2.0, ..HeightmapParams::default() };
    HeightmapWorld::build_drawn(grid, heights, &params, drawn, &|_, _| {}, &never).expect("nobody cancels")
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(16))]

    #[test]
    fn a_drawn_curve_becomes_a_river_that_never_rises(
        seed in 0u64..1_000,
        n in 24usize..64,
        curve in proptest::collection::vec((0.0f64..1.0, 0.0f64..1.0), 2..5),
    ) {
        let (grid, heights) = rough(n, seed);
        let side = (n - 1) as f64;
        let drawn: Vec<[f64; 2]> = curve.iter().map(|&(x, y)| [x * side, y * side]).collect();
        let course = drawn_course(&grid, &heights, &drawn, None, true);
        proptest::prop_assume!(course.len() >= 4);
        let world = build(grid, heights, &[drawn]);
        let last = course.len() - 1;
        for (k, &cell) in course.iter().enumerate() {
            let kind = world.drainage.kind[cell];
            proptest::prop_assert!(
                matches!(kind, NodeKind::River | NodeKind::Lake),
                "course cell {k} of {} is {kind:?}", course.len()
            );
            // Where the curve ends in a hollow, a lake backs up it and drains to its spill.
            if k < last && kind == NodeKind::River {
                proptest::prop_assert!(world.natural[course[k + 1]] < world.natural[cell], "the cut bed rises at {k}");
                let receiver = world.drainage.receivers[cell].receiver().map(|r| r.index());
                let downstream = receiver.and_then(|r| course.iter().position(|&c| c == r));
                proptest::prop_assert!(downstream.is_some_and(|j| j > k), "cell {k} drains off the course to {receiver:?}");
            }
        }
        let stats = world.stats();
        proptest::prop_assert_eq!(
            (stats.uphill_water, stats.shoreline_mismatches, stats.water_steps),
            (0, 0, 0),
            "{:?}", stats
        );
    }
}

/// Without drawn rivers `build_drawn` is `build`: the same cells and the same water.
#[test]
fn no_drawn_rivers_is_the_plain_build() {
    let (grid, heights) = rough(40, 3);
    let plain = HeightmapWorld::build(
        grid,
        heights.clone(),
        &HeightmapParams { channel_depth_m: 2.0, ..HeightmapParams::default() },
    );
    let drawn = build(grid, heights, &[]);
    assert_eq!(plain.ground, drawn.ground);
    assert_eq!(plain.level, drawn.level);
}

/// A curve drawn down a valley's flank, where the water would run to the floor, carries a
/// river: the cells beside it drain into it and the river grows along it.
#[test]
fn a_curve_down_a_flank_gathers_the_ground_beside_it() {
    let (grid, heights) = rough(48, 11);
    let drawn = vec![[8.0, 4.0], [14.0, 24.0], [8.0, 44.0]];
    let course = drawn_course(&grid, &heights, &drawn, None, true);
    let world = build(grid, heights, &[drawn]);
    let (first, last) = (course[0], course[course.len() - 1]);
    assert!(
        world.drainage.catchment_m2[last] > 4.0 * world.drainage.catchment_m2[first] - 1e-9,
        "{} m² at the source, {} m² at the mouth",
        world.drainage.catchment_m2[first],
        world.drainage.catchment_m2[last]
    );
}
