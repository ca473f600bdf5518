//! What the editor's panel and viewport read from a solved world: the headline figures (one
//! record, spelt the same in the panel's GDScript), the lines drawn over the rivers and
//! lakes, the map's pixel ↔ direction mapping, and rays onto the planet.

use proptest::prelude::*;
use watershed::testkit::{self, QUICK_WORLD};
use watershed::{map_direction, map_fractions, ray_sphere, DVec3, Figures, Life, Overlay, ReachEnd};

#[test]
fn figures_are_the_solve_s_own_counts() {
    let world = testkit::built(QUICK_WORLD);
    let life = Life::of(world);
    let f = Figures::of(world, &life);
    let d = &world.terrain.drainage.stats;
    let w = watershed::water_stats(world);
    assert_eq!(
        (f.river_nodes, f.lakes, f.mouths, f.max_strahler, f.uphill),
        (d.river, d.lakes, d.mouths, d.max_strahler, 0)
    );
    assert_eq!(f.reaches, world.terrain.carve.reaches.len());
    assert_eq!(f.largest_catchment_km2, d.largest_catchment_m2 / 1e6);
    assert_eq!(
        (f.bank_mismatches, f.lake_shore_mismatches, f.water_steps),
        (w.bank_mismatches, w.lake_shore_mismatches, w.steps)
    );
    assert_eq!(f.village.is_some(), life.sites.village.is_some());
    assert_eq!(f.why_no_village.is_none(), f.village.is_some());
    assert_eq!(f.hamlets, life.sites.hamlets.len());
}

/// The figure names the editor panel lists (its `FIGURES` table, read from the GDScript).
fn panel_figure_names() -> Vec<String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../addons/watershed/editor/panel.gd");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    let table = text.split("const FIGURES := [").nth(1).and_then(|t| t.split("\n]").next());
    let table = table.unwrap_or_else(|| panic!("no FIGURES table in {path}"));
    table
        .lines()
        .filter_map(|line| line.trim().strip_prefix("[\"")?.split('"').next().map(str::to_owned))
        .collect()
}

#[test]
fn the_panel_names_every_figure_as_the_record_spells_it() {
    let world = testkit::built(QUICK_WORLD);
    let value = serde_json::to_value(Figures::of(world, &Life::of(world))).expect("figures serialise");
    let mut record: Vec<String> = value.as_object().expect("an object").keys().cloned().collect();
    let mut panel = panel_figure_names();
    record.sort();
    panel.sort();
    assert_eq!(panel, record, "the panel's FIGURES and the Figures record");
}

#[test]
fn overlay_lines_lie_on_the_water() {
    let world = testkit::built(QUICK_WORLD);
    let lift = 4.0;
    let overlay = Overlay::of(world, lift);
    let radius = world.terrain.settings.radius_m;
    assert_eq!(overlay.rivers.len(), 2 * world.terrain.carve.reaches.len());
    for (k, reach) in world.terrain.carve.reaches.iter().enumerate() {
        for (p, end) in [(overlay.rivers[2 * k], reach.start), (overlay.rivers[2 * k + 1], reach.end)] {
            assert!((p.normalize() - end.normalize()).length() < 1e-12);
            let surface = world.water().level_at(end).unwrap_or_else(|| world.terrain.ground(end));
            assert!((p.length() - (radius + surface + lift)).abs() < 1e-6, "reach {k}");
        }
    }
    assert_eq!(overlay.lakes.len() % 2, 0);
    let lake_nodes = world.terrain.drainage.lake_id.iter().filter(|&&l| l != 0).count();
    assert_eq!(overlay.lakes.is_empty(), lake_nodes < 2);
    for pair in overlay.lakes.chunks_exact(2) {
        let nodes = [pair[0], pair[1]].map(|p| world.terrain.lattice.nearest_node(p).index());
        let ids = nodes.map(|i| world.terrain.drainage.lake_id[i]);
        assert!(ids[0] != 0 && ids[0] == ids[1], "a segment joins two nodes of one lake");
        let level = world.terrain.drainage.water_level_m(nodes[0]);
        assert!(pair.iter().all(|p| (p.length() - (radius + level + lift)).abs() < 1e-6));
    }
    let mouths = world.terrain.carve.reaches.iter().filter(|r| r.ends_in == ReachEnd::Sea).count();
    assert!(mouths > 0 && !overlay.rivers.is_empty());
}

#[test]
fn rays_meet_the_sphere_where_they_should() {
    let r = 10.0;
    let hit = ray_sphere(DVec3::new(0.0, 0.0, 30.0), DVec3::new(0.0, 0.0, -2.0), r);
    assert_eq!(hit, Some(DVec3::new(0.0, 0.0, 10.0)), "from outside: the near side");
    let out = ray_sphere(DVec3::ZERO, DVec3::X, r);
    assert_eq!(out, Some(DVec3::new(10.0, 0.0, 0.0)), "from inside: where it leaves");
    assert_eq!(ray_sphere(DVec3::new(0.0, 20.0, 30.0), DVec3::new(0.0, 0.0, -1.0), r), None, "a miss");
    assert_eq!(ray_sphere(DVec3::new(0.0, 0.0, 30.0), DVec3::Z, r), None, "pointing away");
    assert_eq!(ray_sphere(DVec3::new(0.0, 0.0, 30.0), DVec3::ZERO, r), None, "no direction");
    assert_eq!(ray_sphere(DVec3::new(0.0, 0.0, 30.0), DVec3::NAN, r), None, "no direction");
}

proptest! {
    /// A map point's direction lies back at that point, and every direction maps into the map.
    #[test]
    fn map_points_and_directions_invert(u in 0.0f64..1.0, v in 0.001f64..0.999) {
        let dir = map_direction(u, v);
        prop_assert!((dir.length() - 1.0).abs() < 1e-12);
        let (u2, v2) = map_fractions(dir);
        prop_assert!((u2 - u).abs() < 1e-9 || (u2 - u).abs() > 1.0 - 1e-9, "u {} -> {}", u, u2);
        prop_assert!((v2 - v).abs() < 1e-9, "v {} -> {}", v, v2);
    }

    /// A ray from outside aimed at a point of the sphere meets the sphere there or nearer.
    #[test]
    fn a_ray_at_the_sphere_meets_it(
        x in -1.0f64..1.0, y in -1.0f64..1.0, z in -1.0f64..1.0, distance in 1.5f64..100.0,
    ) {
        let dir = DVec3::new(x, y, z);
        prop_assume!(dir.length() > 1e-3);
        let dir = dir.normalize();
        let eye = dir * distance * 10.0;
        let hit = ray_sphere(eye, dir * 10.0 - eye, 10.0);
        prop_assert!(hit.is_some_and(|h| (h - dir * 10.0).length() < 1e-6));
    }
}

#[test]
fn map_corners_and_centre() {
    assert!((map_direction(0.5, 0.5) - DVec3::Z).length() < 1e-12, "the centre faces +Z");
    assert!((map_direction(0.75, 0.5) - DVec3::X).length() < 1e-12, "90° east faces +X");
    assert!((map_direction(0.3, 0.0) - DVec3::Y).length() < 1e-12, "the top edge is north");
    assert_eq!(map_direction(f64::NAN, -3.0), map_direction(0.0, 0.0), "NaN and out of range clamp");
}
