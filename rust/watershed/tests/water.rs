//! The water table: invariants on every shipped world and random seeds, lakes, the sea,
//! the teleport check, buoyancy, the mill, determinism, and pinned counts.

use proptest::prelude::*;
use watershed::testkit::{self, QUICK_WORLD};
use watershed::{Body, DVec3, NodeKind, World, SEA_CLEARANCE_M};

/// Pinned digest of the quick world's water table: bump only on purpose.
const QUICK_WATER: &str = "3baa21d0797b9950621eca560f3da1c2fa425cb8a2f7e6fb7e727935d8caf6ff";

fn check_water(world: &World) {
    let s = watershed::water_stats(world);
    assert_eq!(
        (s.rising, s.below_downstream),
        (0, 0),
        "{}: surfaces rise or sit below",
        world.terrain.settings.name
    );
    for levels in &world.levels.reach_levels {
        assert!(levels.iter().all(|l| l.is_finite()));
    }
}

/// Lake shores where the water still ends in a wall over 0.5 m, per shipped world, pinned:
/// where a dip under a perched lake's level runs on past the cells beside the lake, or the
/// walk out of a lake crosses a river's edge in a deep cut.
const PINNED_LAKE_SHORES: &[(&str, usize)] = &[
    ("home", 0),
    ("dry_moon", 0),
    ("ocean_world", 0),
    ("ashfall", 0),
    ("redmesa", 4),
    ("frostline", 0),
    ("pebble", 0),
    ("archipelago", 0),
    ("highlands", 0),
];

/// On every shipped world no river stands over 0.5 m above the dry ground at its edge and
/// no surface steps over 1 m between samples 1 m apart beyond what its bed or the carved
/// ground under it drops; the lake shores that still end in a wall are the pinned few.
#[test]
fn every_shipped_world_holds_its_water() {
    let mut shores = Vec::new();
    for w in &testkit::shipped().worlds {
        let world = World::build(w);
        check_water(&world);
        let s = watershed::water_stats(&world);
        let worst = (s.worst_bank_m, s.worst_step_m);
        assert_eq!(
            (s.bank_mismatches, s.steps),
            (0, 0),
            "{}: bank mismatches and steps, worst {worst:?}",
            w.name
        );
        shores.push((w.name.clone(), s.lake_shore_mismatches));
    }
    let pinned: Vec<(String, usize)> = PINNED_LAKE_SHORES.iter().map(|&(n, c)| (n.to_owned(), c)).collect();
    assert_eq!(shores, pinned, "lake shore walls per world");
}

#[test]
fn lakes_are_level_and_the_sea_wins_over_rivers() {
    let world = testkit::built("home");
    let d = &world.terrain.drainage;
    let mut lake_points = 0;
    for i in (0..d.kind.len()).filter(|&i| d.kind[i] == NodeKind::Lake) {
        let p = world.terrain.lattice.positions()[i];
        if let Some(w) = world.water().at(p).filter(|w| w.body == Body::Lake) {
            assert_eq!(w.level_m, d.water_level_m(i), "lake water is flat at its level");
            lake_points += 1;
        }
    }
    assert!(lake_points > 100);
    let mut sea_points = 0;
    for i in (0..d.kind.len()).filter(|&i| d.kind[i] == NodeKind::Sea).step_by(97) {
        let p = world.terrain.lattice.positions()[i];
        let w = world.water().at(p).expect("sea is wet");
        assert_eq!((w.body, w.level_m), (Body::Sea, world.terrain.settings.sea_level_m));
        if let Some(inland) = world.water().inland_surface_at(p) {
            assert!(
                inland <= world.terrain.settings.sea_level_m - SEA_CLEARANCE_M,
                "river or lake water drawn over the sea"
            );
        }
        sea_points += 1;
    }
    assert!(sea_points > 100);
}

#[test]
fn wet_means_swimmable_and_river_water_sits_below_its_banks() {
    let world = testkit::built(QUICK_WORLD);
    let r = world.terrain.settings.radius_m;
    for (reach, levels) in world.terrain.carve.reaches.iter().zip(&world.levels.reach_levels) {
        let mid = reach.middle();
        let Some(w) = world.water().at(mid) else { continue };
        let (ground, natural) = world.terrain.ground_and_natural(mid);
        assert!(w.level_m > ground);
        if w.body == Body::River && reach.ends_in != watershed::ReachEnd::Sea {
            // Below the natural ground on the centre line, unless backwater holds it up at
            // the level of what it flows into.
            let backwater = levels.last().copied().unwrap_or(f64::NAN);
            assert!(
                w.level_m < natural || w.level_m <= backwater + 1e-6,
                "river above its banks: {} vs {natural}",
                w.level_m
            );
            assert!(world.water().is_underwater(mid * (r + (w.level_m + ground) / 2.0)));
            assert!(!world.water().is_underwater(mid * (r + w.level_m + 0.5)));
        }
    }
}

#[test]
fn levels_do_not_depend_on_what_is_streamed() {
    // The teleport check: fixed points near rivers, measured cold, then after streaming
    // reaches in along two different walks.
    let world = testkit::built("home");
    let points = watershed::river_sample_points(world, 23);
    assert!(
        world.water().each(&points, |w, d| w.level_at(d)).iter().filter(|l| l.is_some()).count() > 20,
        "the points are wet"
    );
    assert_eq!(watershed::teleport_check(world, &points), 0);
}

#[test]
fn a_crate_rides_the_wave_it_sits_on() {
    let world = testkit::built("home");
    let sea = world.levels.sea.clone().expect("home has a sea");
    let r = world.terrain.settings.radius_m;
    let d = &world.terrain.drainage;
    let deep = (0..d.kind.len())
        .find(|&i| d.kind[i] == NodeKind::Sea && world.terrain.heights[i] < -300.0)
        .expect("deep sea");
    let centre = world.terrain.lattice.positions()[deep];
    for t in [0.0, 0.8, 3.1, 12.5] {
        // Corners of a 1 m crate seated with its centre on the live surface.
        let surface = sea.surface_height_m(centre, t);
        let (e1, e2) =
            (watershed::unit(DVec3::Y.cross(centre)), centre.cross(watershed::unit(DVec3::Y.cross(centre))));
        let corners: Vec<DVec3> = [(-0.5, -0.5), (0.5, -0.5), (-0.5, 0.5), (0.5, 0.5)]
            .iter()
            .map(|&(a, b)| watershed::unit(centre + (e1 * a + e2 * b) / r) * (r + surface))
            .collect();
        let depths = world.water().each(&corners, |w, d| w.submersion_at(d, t));
        for (corner, depth) in corners.iter().zip(&depths) {
            let expected = sea.surface_height_m(*corner, t) - (corner.length() - r);
            assert_eq!(*depth, Some(expected));
            assert!(
                expected.abs() < 0.2,
                "a corner half a metre off the centre is within 0.2 m of the surface"
            );
        }
    }
    // Over dry ground there is nothing to float in.
    let land = (0..d.kind.len()).find(|&i| d.kind[i] == NodeKind::Land).expect("land");
    let p = world.terrain.lattice.positions()[land] * (r + world.terrain.heights[land] + 1.0);
    assert_eq!(world.water().each(&[p], |w, d| w.submersion_at(d, 0.0)), vec![None]);
}

/// The reach whose middle is `site`.
fn mill_reach(world: &World, site: DVec3) -> &watershed::Reach {
    let middle = |r: &&watershed::Reach| r.middle() == site;
    world.terrain.carve.reaches.iter().find(middle).expect("the site is a reach's middle")
}

#[test]
fn mill_site_is_the_largest_reach_with_river_water() {
    let world = testkit::built("home");
    let site = world.mills().site().expect("home has rivers");
    let reach = mill_reach(world, site);
    assert_eq!(world.water().at(site).map(|w| w.body), Some(Body::River));
    let larger_with_river =
        world.terrain.carve.reaches.iter().filter(|r| r.catchment_m2 > reach.catchment_m2).any(|r| {
            let mid = r.middle();
            world.water().at(mid).is_some_and(|w| w.body == Body::River)
                && world.water().reach_flow_at(mid).is_some()
        });
    assert!(!larger_with_river, "a larger reach holds river water");
}

#[test]
fn a_crate_at_rest_in_a_river_is_pushed_downstream_and_held_up() {
    let world = testkit::built("home");
    let site = world.mills().site().expect("a river");
    let reach = mill_reach(world, site);
    let level = world.water().level_at(site).expect("water over the river");
    let r = world.terrain.settings.radius_m;
    let hull = watershed::Hull::cuboid(DVec3::splat(0.5), 900.0);
    let points: Vec<DVec3> =
        watershed::Hull::cuboid_samples(DVec3::splat(0.5)).iter().map(|&s| site * (r + level) + s).collect();
    let total: DVec3 = hull.forces(world, &points, DVec3::ZERO, 0.0).into_iter().sum();
    assert!(total.dot(reach.end - reach.start) > 0.0, "the flow pushes it downstream: {total}");
    assert!(total.dot(site) > 0.0, "the water holds it up: {total}");
    let dry = hull.forces(world, &[site * (r + level + 10.0)], DVec3::ZERO, 0.0);
    assert_eq!(dry, vec![DVec3::ZERO], "nothing above the water");
}

#[test]
fn a_mill_turns_at_the_rim_speed_and_twice_as_fast_on_twice_the_flow() {
    let world = testkit::built("home");
    let site = world.mills().site().expect("a river");
    let reach = mill_reach(world, site);
    let flow = world.water().reach_flow_at(site).expect("a river runs here");
    let omega = world.mills().rate_rad_s(site, 2.0, 0.35).expect("mill");
    assert_eq!(omega, flow.speed_at_depth_m_s(0.35) / 2.0);
    assert!((flow.scaled(2.0).mill_rate_rad_s(2.0, 0.35) - 2.0 * omega).abs() < 1e-12);
    assert!(omega > 0.0);
    let v = world.water().flow_at(site * world.terrain.settings.radius_m);
    assert!(v.length() > 0.0 && v.dot(reach.end - reach.start) > 0.0, "the flow runs downstream");
}

#[test]
fn batch_queries_match_single_ones_and_thread_counts() {
    let w = testkit::world(QUICK_WORLD);
    let world = World::build(&w);
    let r = w.radius_m;
    let points: Vec<DVec3> =
        watershed::random_directions(11, 4_000).into_iter().map(|d| d * (r - 1.0)).collect();
    let single = testkit::with_threads(1, || world.water().each(&points, |w, d| w.depth_at(d)));
    assert_eq!(single, world.water().each(&points, |w, d| w.depth_at(d)));
    assert_eq!(
        world.water().each(&points, |w, d| w.is_underwater(d)),
        points.iter().map(|&p| world.water().is_underwater(p)).collect::<Vec<_>>()
    );
    assert_eq!(
        world.water().each(&points, |w, d| w.flow_at(d)),
        points.iter().map(|&p| world.water().flow_at(p)).collect::<Vec<_>>()
    );
    let built_on_one = testkit::with_threads(1, || watershed::water_digest(&World::build(&w)));
    assert_eq!(built_on_one, watershed::water_digest(&world));
}

/// A river comes down to the sea's level before it meets it: within 10 m of a mouth its
/// surface stands at most 5 cm above the sea (or a film over a bed that is higher), on every
/// shipped world with a sea.
#[test]
fn rivers_ease_into_the_sea() {
    let mut mouths = 0;
    for w in testkit::shipped().worlds.iter().filter(|w| w.sea) {
        let world = testkit::built(&w.name);
        let sea = w.sea_level_m;
        for (reach, levels) in world.terrain.carve.reaches.iter().zip(&world.levels.reach_levels) {
            if reach.ends_in != watershed::ReachEnd::Sea {
                continue;
            }
            mouths += 1;
            let pieces = levels.len() - 1;
            for (p, (&level, &bed)) in levels.iter().zip(&reach.beds).enumerate() {
                let to_mouth = (pieces - p) as f64 * reach.step_m();
                if to_mouth <= 10.0 {
                    let highest = sea.max(bed + 0.1) + 0.05;
                    assert!(level <= highest, "{}: {level} m {to_mouth} m before the sea at {sea} m", w.name);
                }
            }
        }
    }
    assert!(mouths > 0);
}

#[test]
fn quick_world_water_is_pinned() {
    assert_eq!(watershed::water_digest(testkit::built(QUICK_WORLD)), QUICK_WATER);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn any_seed_keeps_surfaces_downhill(seed in any::<u64>(), fill in 0.1f64..0.95) {
        let mut w = testkit::world(QUICK_WORLD);
        w.seed = seed;
        w.lattice_nodes = 6_000;
        w.river_fill = fill;
        check_water(&World::build(&w));
    }
}
