//! Channels: beds that never rise, settled joins, face limits, falls and mouths, carved
//! ground, the voxel SDF, reach volumes and streaming.

use proptest::prelude::*;
use watershed::testkit::{self, QUICK_WORLD};
use watershed::{
    Block, BlockFill, DVec3, ReachEnd, ReachId, ReachStreamer, VoxelError, World, FALL_DROP_M,
    MAX_FACE_SLOPE, SILL_DEPTH_M,
};

/// Pinned digest of the quick world's carve: bump only on purpose.
const QUICK_CARVE: &str = "b43fc6de8addbf534215745c3fc375e08479822ae19ab94782385a32ff778d3b";

fn check_carve(world: &World) {
    // Every reach is found from its upstream node, and only there.
    for (k, reach) in world.terrain.carve.reaches.iter().enumerate() {
        assert_eq!(world.terrain.carve.reach_from(reach.from.index()), Some(ReachId(k as u32)), "reach {k}");
        assert_ne!(
            world.terrain.carve.reach_from(reach.to.index()).map(|id| id.0),
            Some(k as u32),
            "reach {k}"
        );
    }
    let name = &world.terrain.settings.name;
    let s = watershed::carve_stats(world, 32);
    assert_eq!(
        (s.bed_rising, s.tributary_below_main, s.steep_faces, s.floating_stretches),
        (0, 0, 0, 0),
        "{name}: carve invariants"
    );
    assert_eq!(s.mouths_with_collar, world.terrain.drainage.stats.mouths, "{name}: every mouth has a collar");
    for reach in &world.terrain.carve.reaches {
        // Settled: the last stretch of a stream lies at the level of what it joins.
        if reach.ends_in == ReachEnd::River {
            let main = world.terrain.carve.bed_of(reach.to);
            let step = reach.step_m();
            for (k, &b) in reach.beds.iter().enumerate() {
                if (reach.pieces() - k) as f64 * step <= reach.settle_m {
                    assert_eq!(b, main, "{name}: reach from {} not settled", reach.from.0);
                }
            }
        }
        // A channel leaving a lake starts at its sill, or as low as a stream joining there,
        // or as low as the face limit cuts it back above a fall.
        if let Some(lake) = reach.leaves_lake_m {
            let joining = (world.terrain.carve.reaches.iter().filter(|r| r.to == reach.from))
                .map(|r| r.bed_end_m())
                .fold(f64::INFINITY, f64::min);
            let sill = (lake.min(world.terrain.heights[reach.from.index()]) - SILL_DEPTH_M).min(joining);
            let cut_back = reach.beds[1] + MAX_FACE_SLOPE * reach.step_m();
            assert!(
                reach.bed_start_m() >= sill.min(cut_back) - 1e-9,
                "{name}: outlet {} under its sill",
                reach.from.0
            );
        }
        assert!(reach.face_slope() <= MAX_FACE_SLOPE + 1e-9);
        assert_eq!(reach.fall, reach.drop_m > FALL_DROP_M && reach.ends_in != ReachEnd::Sea);
    }
}

/// Falls, the tallest (whole metres) and stretches under 0.1 m deep per shipped world.
const PINNED_COUNTS: &[(&str, usize, i64, usize)] = &[
    ("home", 469, 37, 0),
    ("dry_moon", 0, 0, 0),
    ("ocean_world", 149, 36, 0),
    ("ashfall", 559, 42, 0),
    ("redmesa", 444, 122, 0),
    ("frostline", 457, 90, 0),
    ("pebble", 6, 12, 0),
    ("archipelago", 29, 137, 0),
    ("highlands", 3795, 60, 0),
];

#[test]
fn every_shipped_world_carves_cleanly() {
    let mut counts = Vec::new();
    for w in &testkit::shipped().worlds {
        let world = World::build(w);
        check_carve(&world);
        let s = watershed::carve_stats(&world, 32);
        counts.push((w.name.clone(), s.falls, s.tallest_fall_m.round() as i64, s.shallow_stretches));
    }
    let pinned: Vec<(String, usize, i64, usize)> =
        PINNED_COUNTS.iter().map(|&(n, f, t, s)| (n.to_owned(), f, t, s)).collect();
    assert_eq!(counts, pinned, "falls, tallest fall and shallow stretches per world");
}

#[test]
fn a_drop_into_the_sea_is_a_shoreline_not_a_fall() {
    let world = testkit::built("home");
    let steep_mouths =
        world.terrain.carve.reaches.iter().filter(|r| r.ends_in == ReachEnd::Sea && r.drop_m > FALL_DROP_M);
    assert!(steep_mouths.clone().count() > 0, "the rule has something to decide");
    assert!(steep_mouths.clone().all(|r| !r.fall));
    assert!(world.terrain.carve.reaches.iter().any(|r| r.fall), "falls inland remain");
}

#[test]
fn carved_ground_only_lowers_and_reaches_the_bed() {
    let world = testkit::built(QUICK_WORLD);
    for d in watershed::random_directions(3, 20_000) {
        let (g, n) = world.terrain.ground_and_natural(d);
        assert!(g <= n, "carve raised ground at {d}");
        // The carve reads the natural ground through its own nearest-node search: the same
        // bits as the ground field's.
        assert_eq!(n.to_bits(), world.terrain.planet.height(d).to_bits(), "natural ground at {d}");
    }
    for reach in &world.terrain.carve.reaches {
        let mid = reach.middle();
        let (g, _) = world.terrain.ground_and_natural(mid);
        assert!(g <= reach.bed_at(reach.length_m / 2.0) + 1e-9, "centre line above its bed");
    }
    // Far from any river the carve changes nothing.
    let far = (0..world.terrain.lattice.positions().len())
        .filter(|&i| world.terrain.carve.reaches_at(i).is_empty())
        .filter(|&i| {
            world
                .terrain
                .lattice
                .neighbor_slice(i)
                .iter()
                .all(|&j| world.terrain.carve.reaches_at(j as usize).is_empty())
        })
        .take(200);
    for i in far {
        let p = world.terrain.lattice.positions()[i];
        assert_eq!(world.terrain.ground(p), world.terrain.planet.height(p));
    }
}

#[test]
fn quick_world_carve_is_pinned() {
    assert_eq!(testkit::built(QUICK_WORLD).terrain.carve_digest(), QUICK_CARVE);
}

/// On the sphere a point's reaches hold those touching its nearest node or a neighbour of
/// it, each once, ascending.
#[test]
fn reaches_near_a_node_touch_it_or_a_neighbour() {
    let world = testkit::built(QUICK_WORLD);
    let lattice = &world.terrain.lattice;
    let mut rivers = 0;
    for node in 0..lattice.positions().len() {
        let mut touching: Vec<u32> = world.terrain.carve.reaches_at(node).to_vec();
        for &j in lattice.neighbor_slice(node) {
            touching.extend_from_slice(world.terrain.carve.reaches_at(j as usize));
        }
        let near = world.terrain.carve.reaches_near(node);
        assert!(near.windows(2).all(|w| w[0] < w[1]), "node {node}: {near:?}");
        assert!(touching.iter().all(|k| near.contains(k)), "node {node}: {touching:?} in {near:?}");
        rivers += usize::from(!near.is_empty());
    }
    assert!(rivers > 100, "{rivers} nodes have reaches near");
}

/// On a lattice finer than its channels are wide, a point inside a reach's banks still
/// finds that reach near its nearest node, however many nodes away the reach's ends are.
#[test]
fn a_bank_finds_its_reach_on_a_fine_lattice() {
    let mut settings = testkit::world(QUICK_WORLD);
    settings.lattice_nodes *= 8;
    settings.channel_depth_m *= 4.0;
    let world = World::build(&settings);
    let (lattice, carve) = (&world.terrain.lattice, &world.terrain.carve);
    let radius = settings.radius_m;
    let spacing_m = lattice.spacing() * radius;
    let mut wide = 0;
    for (k, reach) in carve.reaches.iter().enumerate() {
        wide += usize::from(reach.half_width_m > spacing_m);
        for t in [0.1, 0.5, 0.9] {
            for side in [-0.95, 0.95] {
                let p = reach.point_at(t) + reach.across() * (side * reach.half_width_m / radius);
                let node = lattice.nearest_node(p).index();
                assert!(carve.reaches_near(node).contains(&(k as u32)), "reach {k} at {t} {side}");
            }
        }
    }
    assert!(wide > 0, "some channel is wider than the lattice's spacing ({spacing_m:.1} m)");
}

#[test]
fn carve_is_the_same_with_one_or_two_threads() {
    let w = testkit::world("home");
    let run = |threads: usize| testkit::with_threads(threads, || World::build(&w).terrain.carve_digest());
    assert_eq!(run(1), run(2));
}

fn river_block(world: &World) -> Block {
    let mid = world.mills().site().expect("a river");
    let reach = world.terrain.carve.reaches.iter().find(|r| r.middle() == mid).expect("its reach");
    let centre = mid * (world.terrain.settings.radius_m + reach.bed_at(reach.length_m / 2.0));
    Block { origin: centre - DVec3::splat(8.0), size: [17, 17, 17], step_m: 1.0 }
}

/// Pinned digest of voxel blocks filled on the quick world's mill river: bump only on purpose.
const QUICK_BLOCKS: &str = "f6d20620670a644b5f1bb58e175597770cf758e7f575ae4c75ac4e5e1daa7227";

#[test]
fn quick_world_block_fills_are_pinned() {
    let world = testkit::built(QUICK_WORLD);
    let river = river_block(world);
    let mut values = Vec::new();
    // Odd column heights leave a part chunk at the top of every column.
    for (size, step_m) in [([17, 17, 17], 1.0), ([35, 35, 35], 0.5), ([9, 21, 13], 2.0)] {
        let centre = river.origin + DVec3::splat(8.0);
        let half = DVec3::new(size[0] as f64, size[1] as f64, size[2] as f64) * step_m * 0.5;
        let block = Block { origin: centre - half, size, step_m };
        let mut buffer = vec![0f32; size.iter().product()];
        assert_eq!(world.terrain.fill_block(&block, &mut buffer), Ok(BlockFill::Mixed));
        values.extend(buffer.iter().map(|&v| f64::from(v)));
    }
    assert_eq!(watershed::digest_f64(values), QUICK_BLOCKS);
}

/// The ground read from the node of a direction close by gives the ground's own bits, and
/// moves that node to the one nearest the direction read, whichever node it starts from.
#[test]
fn ground_from_a_nearby_node_gives_the_grounds_bits() {
    let world = testkit::built(QUICK_WORLD);
    let step = 0.3 * (4.0 * std::f64::consts::PI / world.terrain.lattice.positions().len() as f64).sqrt();
    let mut near = 0;
    for d in watershed::random_directions(8, 400) {
        for k in 0..8 {
            let q = d + DVec3::new(1.0, -0.5, 0.25) * (k as f64 * step);
            assert_eq!(
                world.terrain.ground_from(q, &mut near).to_bits(),
                world.terrain.ground(q).to_bits(),
                "at {q}"
            );
            assert_eq!(near, world.terrain.lattice.nearest_node(q).index(), "at {q}");
        }
    }
}

#[test]
fn sdf_sign_and_scale() {
    let world = testkit::built(QUICK_WORLD);
    let r = world.terrain.settings.radius_m;
    for d in watershed::random_directions(5, 300) {
        let g = world.terrain.ground(d);
        assert!(world.terrain.sdf(d * (r + g + 5.0)) > 0.0, "above ground reads outside");
        assert!(world.terrain.sdf(d * (r + g - 5.0)) < 0.0, "below ground reads inside");
        // Never more than the vertical distance; equal to it on flat ground.
        assert!(world.terrain.sdf(d * (r + g + 3.0)) <= 3.0 + 1e-6);
    }
}

#[test]
fn block_fill_matches_point_sdf_in_zxy_order() {
    let world = testkit::built(QUICK_WORLD);
    let block = river_block(world);
    let [sx, sy, sz] = block.size;
    let mut buffer = vec![0f32; sx * sy * sz];
    assert_eq!(world.terrain.fill_block(&block, &mut buffer), Ok(BlockFill::Mixed));
    // Both divide the height above the ground by the slope's secant, from slopes sampled
    // 2 m and 0.5 m apart: they agree at the surface and drift apart away from it, most in
    // a channel cut into a slope across it, whose walls are steep (up to 30% here).
    let mut worst = 0.0f64;
    for (x, y, z) in [(0, 0, 0), (3, 9, 5), (8, 8, 8), (16, 2, 11), (5, 16, 16), (12, 7, 1)] {
        let p = block.origin + DVec3::new(x as f64, y as f64, z as f64) * block.step_m;
        let v = f64::from(buffer[y + sy * (x + sx * z)]);
        let exact = world.terrain.sdf(p);
        if exact.abs() > 0.5 {
            assert_eq!(v.signum(), exact.signum(), "sign at {x},{y},{z}: {v} vs {exact}");
        }
        worst = worst.max((v - exact).abs() / exact.abs().max(1.0));
    }
    assert!(worst < 0.35, "block fill strays {worst} of the distance (or of 1 m) from the point SDF");
}

#[test]
fn far_blocks_are_uniform_and_bad_requests_are_errors() {
    let world = testkit::built(QUICK_WORLD);
    let r = world.terrain.settings.radius_m;
    let mut buffer = vec![7f32; 8 * 8 * 8];
    let sky = Block { origin: DVec3::new(0.0, r + 1000.0, 0.0), size: [8; 3], step_m: 1.0 };
    assert!(matches!(world.terrain.fill_block(&sky, &mut buffer), Ok(BlockFill::Uniform(v)) if v > 0.0));
    let core = Block { origin: DVec3::new(0.0, r - 1000.0, 0.0), size: [8; 3], step_m: 4.0 };
    assert!(matches!(world.terrain.fill_block(&core, &mut buffer), Ok(BlockFill::Uniform(v)) if v < 0.0));
    assert!(buffer.iter().all(|&v| v == 7.0), "uniform blocks leave the buffer alone");
    assert_eq!(
        world.terrain.fill_block(&sky, &mut buffer[..10]),
        Err(VoxelError::BufferSize { expected: 512, got: 10 })
    );
    let empty = Block { size: [0, 8, 8], ..sky };
    assert!(matches!(world.terrain.fill_block(&empty, &mut buffer), Err(VoxelError::BadBlock { .. })));
    let nan = Block { step_m: f64::NAN, ..sky };
    assert!(matches!(world.terrain.fill_block(&nan, &mut buffer), Err(VoxelError::BadBlock { .. })));
}

#[test]
fn every_reach_bakes_small_and_reads_inside_at_its_centre() {
    let world = testkit::built(QUICK_WORLD);
    for id in 0..world.terrain.carve.reaches.len() as u32 {
        let v = world.terrain.bake_reach(ReachId(id)).expect("bake");
        assert!(v.bytes() < 8 * 1024, "reach {id}: {} bytes", v.bytes());
        assert_eq!(v.sample(DVec3::ZERO), f64::INFINITY);
    }
    assert_eq!(world.terrain.bake_reach(ReachId(u32::MAX)), Err(VoxelError::NoReach(u32::MAX)));
}

#[test]
fn a_viewer_high_above_a_river_streams_it_in() {
    let world = testkit::built("home");
    let r = world.terrain.settings.radius_m;
    let reach = &world.terrain.carve.reaches[world.terrain.carve.reaches.len() / 2];
    let id = watershed::ReachId((world.terrain.carve.reaches.len() / 2) as u32);
    let high = reach.start * (r + world.terrain.settings.relief_m);
    assert!(watershed::reaches_within(&world.terrain.carve.reaches, r, high, 50.0).contains(&id));
}

#[test]
fn streaming_depends_on_where_not_how() {
    let world = testkit::built("home");
    let r = world.terrain.settings.radius_m;
    let reach = &world.terrain.carve.reaches[world.terrain.carve.reaches.len() / 2];
    let target = reach.start * (r + 2.0);
    let mut walked = ReachStreamer::new(400.0);
    for k in 0..=20 {
        let d = watershed::unit(reach.start + DVec3::new(0.03, 0.0, 0.0) * (1.0 - k as f64 / 20.0));
        walked.update(&world.terrain.carve.reaches, world.terrain.settings.radius_m, d * (r + 2.0));
    }
    let mut jumped = ReachStreamer::new(400.0);
    let first = jumped.update(
        &world.terrain.carve.reaches,
        world.terrain.settings.radius_m,
        DVec3::new(0.0, -r, 0.0),
    );
    let second = jumped.update(&world.terrain.carve.reaches, world.terrain.settings.radius_m, target);
    assert_eq!(walked.loaded(), jumped.loaded());
    assert!(!walked.loaded().is_empty());
    // The second update loads what is new and unloads what is gone.
    assert!(second.load.iter().all(|id| !first.load.contains(id)));
    assert_eq!(second.unload.len() + jumped.loaded().len(), first.load.len() + second.load.len());
    assert!(
        jumped.update(&world.terrain.carve.reaches, world.terrain.settings.radius_m, target).load.is_empty(),
        "standing still changes nothing"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn beds_never_rise_or_overshoot(seed in any::<u64>(), s in 0.0f64..1.0) {
        let mut w = testkit::world(QUICK_WORLD);
        w.seed = seed;
        w.lattice_nodes = 6_000;
        let world = World::build(&w);
        check_carve(&world);
        for reach in &world.terrain.carve.reaches {
            let at = s * reach.length_m;
            let k = ((s * reach.pieces() as f64) as usize).min(reach.pieces() - 1);
            let (a, b) = (reach.beds[k], reach.beds[k + 1]);
            let bed = reach.bed_at(at);
            prop_assert!(bed <= a.max(b) + 1e-9 && bed >= a.min(b) - 1e-9);
        }
    }
}

/// Seeds the property test above once failed on, and what was wrong.
const CARVE_REGRESSIONS: &[(u64, &str)] = &[
    (
        15_090_669_188_895_976_050,
        "a mouth's beach collar cut the ground below the mouth's own bed, leaving the river \
         hanging 6.7 m over it",
    ),
    (
        12_021_065_939_678_549_090,
        "a stream ending in a lake beside a deeper channel into the same lake had its last \
         bed 7 m over that channel's floor, under the lake's water (the river has ended \
         there, as it has under the sea)",
    ),
];

#[test]
fn property_test_regressions_carve_cleanly() {
    for &(seed, what) in CARVE_REGRESSIONS {
        let mut w = testkit::world(QUICK_WORLD);
        w.seed = seed;
        w.lattice_nodes = 6_000;
        let world = World::build(&w);
        println!("seed {seed}: {what}");
        check_carve(&world);
    }
}
