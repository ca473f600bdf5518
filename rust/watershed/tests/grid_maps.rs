//! The maps a heightmap world hands to terrain add-ons and water shaders: the water level
//! has no holes and agrees with the world, masks and layers follow the cover, flow is a
//! unit direction with a speed, the control map encodes the splat map, and resampling to
//! HTerrain's sides keeps the square of ground.

use watershed::testkit;
use watershed::{hterrain_side, Cover, Grid, GridMaps, HeightmapParams, HeightmapWorld, Layer, Topology};

/// A valley 64 cells square falling 0.2 m a row into a sea at 0 m, with a bowl deep enough
/// for a lake half-way down: every kind of cover.
fn world() -> HeightmapWorld {
    let n = 64;
    let grid = Grid { width: n, height: n, cell_m: 1.0 };
    let mut heights: Vec<f64> = (0..n * n)
        .map(|i| {
            let (row, col) = ((i / n) as f64, (i % n) as f64);
            -3.0 + (n as f64 - row) * 0.2 + (col - 32.0).abs() * 0.3
        })
        .collect();
    for row in 14..22 {
        for col in 28..37 {
            heights[row * n + col] -= 3.0;
        }
    }
    let params = HeightmapParams {
        sea_level_m: Some(0.0),
        river_catchment_m2: Some(400.0),
        channel_depth_m: 2.0,
        ..HeightmapParams::default()
    };
    HeightmapWorld::build(grid, heights, &params)
}

#[test]
fn water_maps_agree_with_the_world() {
    let world = world();
    for cover in [Cover::Dry, Cover::River, Cover::Lake, Cover::Sea] {
        assert!(world.cover.contains(&cover), "{cover:?} present");
    }
    let maps = GridMaps::of(&world);
    assert_eq!((maps.rows, maps.cols, maps.heights.len()), (64, 64, 64 * 64));
    let in_32_bits = |v: &[f64]| v.iter().map(|&x| x as f32).collect::<Vec<_>>();
    assert_eq!(maps.heights, in_32_bits(&world.ground));
    for i in 0..world.grid.len() {
        let wet = world.cover[i] != Cover::Dry;
        assert!(maps.water_level[i].is_finite(), "cell {i}");
        let mask = maps.water_mask[i];
        assert_eq!(mask[3] == 255, wet, "cell {i}: any-water channel");
        let expected =
            [Cover::River, Cover::Lake, Cover::Sea].map(|c| if world.cover[i] == c { 255 } else { 0 });
        assert_eq!(mask[..3], expected, "cell {i}: {:?}", world.cover[i]);
        if wet {
            assert_eq!(maps.water_level[i], world.level[i] as f32, "cell {i}");
            assert_eq!(maps.splat[i], [255, 0, 0, 0], "cell {i}: wet ground is bed");
        } else {
            // Beside water: under its own ground (reaching under the bank) unless that
            // water stands higher.
            let beside = world.grid.neighbors(i).filter(|&j| world.cover[j] != Cover::Dry);
            match beside.map(|j| world.level[j]).reduce(f64::min) {
                Some(lowest) => assert_eq!(maps.water_level[i], lowest as f32, "cell {i}"),
                None => assert_eq!(maps.water_level[i], world.ground[i] as f32, "cell {i}"),
            }
            assert_eq!(maps.splat[i][Layer::Bed as usize], 0, "cell {i}: dry ground is no bed");
        }
        let total: u32 = maps.splat[i].iter().map(|&w| u32::from(w)).sum();
        assert_eq!(total, 255, "cell {i}: splat weights");
        let [x, y, speed] = maps.flow[i];
        if speed > 0.0 {
            assert_eq!(world.cover[i], Cover::River, "cell {i}: only rivers flow");
            assert!(((x * x + y * y).sqrt() - 1.0).abs() < 1e-6, "cell {i}: unit direction");
        } else {
            assert_eq!((x, y), (0.0, 0.0), "cell {i}");
        }
        assert_eq!(maps.foam[i] > 0, wet && maps.foam[i] > 0, "cell {i}: foam only on water");
        let word = maps.control[i];
        let (base, overlay, blend) = (word >> 27 & 0x1F, word >> 22 & 0x1F, word >> 14 & 0xFF);
        let heaviest = maps.splat[i].iter().max().copied().unwrap_or(0);
        assert_eq!(maps.splat[i][base as usize], heaviest, "cell {i}: base is the heaviest layer");
        if overlay != base {
            assert_eq!(blend, u32::from(maps.splat[i][overlay as usize]), "cell {i}");
        }
    }
    // The valley floor flows down the rows.
    let flowing: Vec<[f32; 3]> = maps.flow.iter().copied().filter(|f| f[2] > 0.0).collect();
    assert!(!flowing.is_empty());
    let down = flowing.iter().filter(|f| f[1] > 0.5).count();
    assert!(down * 10 >= flowing.len() * 9, "{down} of {} flow down the valley", flowing.len());
}

#[test]
fn resized_maps_span_the_same_ground() {
    let world = world();
    let maps = GridMaps::of(&world);
    let side = 33;
    let small = maps.resized(side).expect("square");
    assert_eq!(
        (small.rows, small.cols, small.heights.len(), small.control.len()),
        (side, side, 33 * 33, 33 * 33)
    );
    assert_eq!(small.cell_m, 63.0 / 32.0);
    // Corners on corners, and every other cell of the old map on the new one (63 = 2 · 31.5).
    let last = side * side - 1;
    assert_eq!((small.heights[0], small.heights[last]), (maps.heights[0], maps.heights[64 * 64 - 1]));
    assert_eq!(small.water_mask[last], maps.water_mask[64 * 64 - 1]);
    let (lo, hi) = maps.water_level.iter().fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
    assert!(small.water_level.iter().all(|v| (lo..=hi).contains(v)), "bilinear stays within the range");
    assert_eq!(hterrain_side(2113, 2113), 2049);
    let wide = GridMaps { rows: 2, ..maps };
    assert_eq!(wide.resized(33), None, "only square maps resize");
}

#[test]
fn the_main_river_runs_from_its_source_to_its_mouth() {
    let world = world();
    let path = world.main_river();
    assert!(path.len() > 10, "{}", path.len());
    let d = &world.drainage;
    for w in path.windows(2) {
        assert_eq!(
            d.receivers[w[0]].receiver().map(|r| r.index()),
            Some(w[1]),
            "each cell drains to the next"
        );
    }
    let mouth = path[path.len() - 1];
    assert!(d
        .catchment_m2
        .iter()
        .zip(&d.kind)
        .all(|(&c, &k)| k != watershed::NodeKind::River || c <= d.catchment_m2[mouth]));
    // No water course that reaches the mouth is longer, counted in cells along its way.
    let width = world.grid.width;
    let water = |i: usize| matches!(d.kind[i], watershed::NodeKind::River | watershed::NodeKind::Lake);
    let course = |mut i: usize| {
        let mut cells = 0.0;
        while i != mouth {
            let r = d.receivers[i].receiver().map(|r| r.index()).filter(|&r| water(r))?;
            let (dr, dc) = ((i / width) as f64 - (r / width) as f64, (i % width) as f64 - (r % width) as f64);
            cells += dr.hypot(dc);
            i = r;
        }
        Some(cells)
    };
    let main = course(path[0]).expect("the main river reaches its mouth");
    let longest = (0..world.grid.len()).filter(|&i| water(i)).filter_map(course).fold(0.0, f64::max);
    assert_eq!(main, longest, "the main river is the longest course to its mouth");
}

#[test]
fn the_same_maps_with_one_thread_or_two() {
    let one = testkit::with_threads(1, || GridMaps::of(&world()));
    let two = testkit::with_threads(2, || GridMaps::of(&world()));
    assert_eq!(one, two);
}
