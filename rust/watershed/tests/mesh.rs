//! Engine meshes: terrain chunks sit on the carved ground, water strips on the river, chunk
//! water on the rivers and lakes.

use watershed::testkit::{self, QUICK_WORLD};
use watershed::{select_chunks, Climate, DVec3, ReachId};

fn check_indices(mesh: &watershed::MeshArrays) {
    assert_eq!(mesh.indices.len() % 3, 0);
    assert!(mesh.indices.iter().all(|&i| (i as usize) < mesh.positions.len()));
    assert_eq!(mesh.positions.len(), mesh.normals.len());
    assert_eq!(mesh.positions.len(), mesh.colors.len());
}

#[test]
fn terrain_chunks_sit_on_the_carved_ground_and_face_out() {
    let world = testkit::built(QUICK_WORLD);
    let r = world.terrain.settings.radius_m;
    let viewer = world.terrain.lattice.positions()[0] * (r + 30.0);
    let chunks = select_chunks(r, viewer, 1.5, 5);
    let climate = Climate::of(world);
    for key in chunks.iter().step_by(7) {
        let mesh = world.terrain.chunk_mesh(&climate, *key, 8, 5.0);
        check_indices(&mesh);
        let surface = 81;
        for p in &mesh.positions[..surface] {
            let p = DVec3::from(p.map(f64::from));
            let expected = r + world.terrain.ground(p);
            assert!((p.length() - expected).abs() < 0.01, "{} vs {expected}", p.length());
        }
        for tri in mesh.indices[..8 * 8 * 6].chunks_exact(3) {
            let v = |i: u32| DVec3::from(mesh.positions[i as usize].map(f64::from));
            let n = (v(tri[1]) - v(tri[0])).cross(v(tri[2]) - v(tri[0]));
            assert!(n.dot(v(tri[0])) > 0.0, "triangle faces into the planet");
        }
    }
}

#[test]
fn water_strips_follow_the_river_level() {
    let world = testkit::built(QUICK_WORLD);
    let r = world.terrain.settings.radius_m;
    for id in (0..world.terrain.carve.reaches.len() as u32).step_by(11) {
        let mesh = watershed::reach_water_mesh(world, ReachId(id));
        check_indices(&mesh);
        let levels = &world.levels.reach_levels[id as usize];
        let (lo, hi) =
            levels.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &l| (a.min(l), b.max(l)));
        // Where the sea covers the ground the strip is held just under the sea surface.
        let lo = lo.min(world.terrain.settings.sea_level_m - watershed::SEA_CLEARANCE_M);
        for p in &mesh.positions {
            let h = DVec3::from(p.map(f64::from)).length() - r;
            assert!(h >= lo - 0.05 && h <= hi + 0.05, "water strip at {h} outside {lo}..{hi}");
        }
    }
    assert!(watershed::reach_water_mesh(world, ReachId(u32::MAX)).positions.is_empty());
}

/// Chunk water stands at the water table's inland surface wherever that surface is over the
/// ground (lakes included), runs only a grid step into the banks, never covers open sea, and
/// a chunk far from any river or lake has none.
#[test]
fn chunk_water_stands_at_the_inland_surface() {
    let world = testkit::built(QUICK_WORLD);
    let r = world.terrain.settings.radius_m;
    let lake = world.terrain.drainage.kind.iter().position(|&k| k == watershed::NodeKind::Lake);
    let lake = lake.expect("the quick world has a lake");
    let viewer = world.terrain.lattice.positions()[lake] * (r + 5.0);
    let (mut wet_chunks, mut dry_chunks, mut lake_vertices) = (0, 0, 0);
    for key in select_chunks(r, viewer, 1.5, 7) {
        let mesh = watershed::water_chunk_mesh(world, key, 8);
        check_indices(&mesh);
        if mesh.indices.is_empty() {
            dry_chunks += 1;
            continue;
        }
        wet_chunks += 1;
        let points: Vec<DVec3> = mesh.positions.iter().map(|p| DVec3::from(p.map(f64::from))).collect();
        let surfaces: Vec<Option<f64>> = points.iter().map(|&p| world.water().inland_surface_at(p)).collect();
        let wet_levels: Vec<f64> = surfaces.iter().flatten().copied().collect();
        for (p, surface) in points.iter().zip(&surfaces) {
            let h = p.length() - r;
            match surface {
                Some(surface) => {
                    assert!((h - surface).abs() < 0.01, "water at {h} m over a surface at {surface} m");
                    let node = world.terrain.lattice.nearest_node(p.normalize()).index();
                    if world.terrain.drainage.kind[node] == watershed::NodeKind::Lake {
                        lake_vertices += 1;
                    }
                }
                // A dry corner carries a wet neighbour's level into the bank.
                None => assert!(wet_levels.iter().any(|l| (h - l).abs() < 0.01), "dry corner at {h} m"),
            }
        }
        for tri in mesh.indices.chunks_exact(3) {
            let v = |i: u32| DVec3::from(mesh.positions[i as usize].map(f64::from));
            let n = (v(tri[1]) - v(tri[0])).cross(v(tri[2]) - v(tri[0]));
            assert!(n.dot(v(tri[0])) > 0.0, "water faces into the planet");
        }
    }
    assert!(wet_chunks > 0 && dry_chunks > 0, "{wet_chunks} wet, {dry_chunks} dry chunks");
    assert!(lake_vertices > 0, "the lake is drawn");
}
