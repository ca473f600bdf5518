//! The heightmap pipeline's knobs table: every knob is read by the pipeline (turning it
//! changes the maps), and every knob is documented where Godot users look.

use watershed::{Grid, GridMaps, HeightmapParams, HeightmapWorld, HEIGHTMAP_KEYS};

/// A valley 48 cells square falling towards row 47, with a pit in its floor at row 30,
/// where the river running down the floor is already fed enough to keep a lake.
fn valley_with_pit() -> (Grid, Vec<f64>) {
    let n = 48;
    let grid = Grid { width: n, height: n, cell_m: 1.0 };
    let heights = (0..n * n)
        .map(|i| {
            let (row, col) = ((i / n) as f64, (i % n) as f64);
            let pit = if (29.0..=31.0).contains(&row) && (23.0..=25.0).contains(&col) { 1.5 } else { 0.0 };
            10.0 + (n as f64 - row) * 0.05 + (col - 24.0).abs() * 0.3 - pit
        })
        .collect();
    (grid, heights)
}

/// A value of the knob that should change the valley's maps (the test names the knob when a
/// new one has none).
fn telling(name: &str) -> &'static str {
    match name {
        "cell_m" => "2",
        "sea_level_m" => "10.5",
        "edge_outlets" => "false",
        "lake_min_depth_m" => "5",
        "river_catchment_m2" => "40",
        "channel_depth_m" => "0.5",
        "channel_half_width_m" => "1",
        "river_fill" => "0.2",
        "runoff_m_s" => "0.0005",
        other => panic!("knob {other} has no telling value in this test: add one"),
    }
}

/// The valley's maps under `params`: carved heights, water level and flow, as bytes.
fn maps(params: &HeightmapParams) -> Vec<u8> {
    let (mut grid, heights) = valley_with_pit();
    grid.cell_m = params.cell_m;
    let m = GridMaps::of(&HeightmapWorld::build(grid, heights, params));
    let floats = m.heights.iter().chain(&m.water_level).chain(m.flow.iter().flatten());
    floats.flat_map(|v| v.to_le_bytes()).chain(m.water_mask.concat()).collect()
}

#[test]
fn every_knob_changes_the_maps() {
    let base = HeightmapParams {
        river_catchment_m2: Some(200.0),
        channel_depth_m: 2.0,
        ..HeightmapParams::default()
    };
    let before = maps(&base);
    for key in HEIGHTMAP_KEYS {
        let mut params = base;
        let value = key.parse(telling(key.name)).unwrap_or_else(|e| panic!("{}: {e}", key.name));
        key.set(&mut params, value).unwrap_or_else(|e| panic!("{e}"));
        assert_ne!(params, base, "{}: the telling value is the base value", key.name);
        assert!(maps(&params) != before, "{} = {value:?} changed nothing: no stage reads it", key.name);
    }
}

#[test]
fn every_knob_is_documented_for_godot() {
    let readme = include_str!("../../../addons/watershed/README.md");
    let section = readme.split("**HeightmapWatershed**").nth(1).expect("a HeightmapWatershed section");
    let section = section.split("\n- **").next().unwrap_or(section);
    for key in HEIGHTMAP_KEYS {
        let mut names = vec![key.name];
        if let watershed::HeightmapKind::Optional { switch, .. } = key.kind {
            names.push(switch);
        }
        for name in names {
            assert!(
                section.contains(&format!("`{name}`")),
                "addons README: HeightmapWatershed lacks `{name}`"
            );
        }
    }
}
