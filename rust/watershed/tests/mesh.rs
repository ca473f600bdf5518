//! Engine meshes: terrain chunks sit on the carved ground, water strips on the river.

use watershed::testkit::{self, QUICK_WORLD};
use watershed::{select_chunks, DVec3, ReachId};

fn check_indices(mesh: &watershed::MeshArrays) {
    assert_eq!(mesh.indices.len() % 3, 0);
    assert!(mesh.indices.iter().all(|&i| (i as usize) < mesh.positions.len()));
    assert_eq!(mesh.positions.len(), mesh.normals.len());
    assert_eq!(mesh.positions.len(), mesh.colors.len());
}

#[test]
fn terrain_chunks_sit_on_the_carved_ground_and_face_out() {
    let world = testkit::built(QUICK_WORLD);
    let r = world.settings.radius_m;
    let viewer = world.lattice.positions()[0] * (r + 30.0);
    let chunks = select_chunks(r, viewer, 1.5, 5);
    for key in chunks.iter().step_by(7) {
        let mesh = world.chunk_mesh(*key, 8, 5.0);
        check_indices(&mesh);
        let surface = 81;
        for p in &mesh.positions[..surface] {
            let p = DVec3::from(p.map(f64::from));
            let expected = r + world.ground(p);
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
    let r = world.settings.radius_m;
    for id in (0..world.carve.reaches.len() as u32).step_by(11) {
        let mesh = world.water_mesh(ReachId(id));
        check_indices(&mesh);
        let levels = &world.water.reach_levels[id as usize];
        let (lo, hi) =
            levels.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &l| (a.min(l), b.max(l)));
        // Where the sea covers the ground the strip is held just under the sea surface.
        let lo = lo.min(world.settings.sea_level_m - watershed::SEA_CLEARANCE_M);
        for p in &mesh.positions {
            let h = DVec3::from(p.map(f64::from)).length() - r;
            assert!(h >= lo - 0.05 && h <= hi + 0.05, "water strip at {h} outside {lo}..{hi}");
        }
    }
    assert!(world.water_mesh(ReachId(u32::MAX)).positions.is_empty());
}
