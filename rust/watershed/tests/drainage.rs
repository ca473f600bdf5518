//! The drainage rule on the sphere: invariants on every shipped world and on random seeds,
//! conservation of area, mouths, the guaranteed lake, the bay rule, and pinned digests.

use proptest::prelude::*;
use watershed::testkit::{self, QUICK_WORLD};
use watershed::{
    direction, drain_grid, solve_with_surfaces, Grid, GridOptions, NodeKind, Outlet, World, WorldSettings,
};

/// Pinned digests of the quick world's solve: bump only on purpose, and say so in the commit.
const QUICK_NETWORK: &str = "e38ed8b9ad32808fc7923beecf9778a87e9bbfa6793fa33c7cbf922487ffec13";
const QUICK_SETS: &str = "e05754ef83fdc6c1d7120181149f4e1e88fa716d60f49fdb7c4aabc1ce438f66";

fn check_invariants(world: &World) {
    let name = &world.terrain.settings.name;
    let d = &world.terrain.drainage;
    let s = &d.stats;
    assert_eq!((s.uphill, s.no_path, s.underwater_rivers), (0, 0, 0), "{name}: invariants");
    // A NaN compares false with everything and would pass every check below unseen.
    assert!(world.terrain.heights.iter().all(|h| h.is_finite()), "{name}: a height is not a number");
    // Settled: on a world with lakes every dry node falls to its receiver in the ground
    // itself (the heights an export writes), not only on the routing surface.
    if world.terrain.settings.lakes {
        assert_eq!(s.ground_uphill, 0, "{name}: dry nodes without a lower receiver");
        for (i, r) in d.receivers.iter().enumerate() {
            let dry = matches!(d.kind[i], NodeKind::Land | NodeKind::River);
            if let (true, Some(r)) = (dry, r.receiver()) {
                assert!(
                    world.terrain.heights[r.index()] < world.terrain.heights[i],
                    "{name}: {i} stands on a flat or in a hollow"
                );
            }
        }
    }
    // Receivers are neighbours, strictly lower on the routing surface (the same solve again,
    // with its surfaces).
    let params = watershed::drainage_params(&world.terrain.settings);
    let (again, surfaces) = solve_with_surfaces(&*world.terrain.lattice, &world.terrain.heights, &params);
    assert_eq!(again.receivers, d.receivers, "{name}: the same solve");
    let routing = &surfaces.routing_m;
    for (i, r) in d.receivers.iter().enumerate() {
        if let Some(r) = r.receiver() {
            assert!(
                world.terrain.lattice.neighbor_slice(i).contains(&r.0),
                "{name}: {i} drains to a non-neighbour"
            );
            assert!(routing[r.index()] < routing[i], "{name}: {i} drains uphill");
        }
    }
    // Conservation: all the planet's area arrives at an outlet.
    let r = world.terrain.settings.radius_m;
    let arrived: f64 =
        d.receivers.iter().zip(&d.catchment_m2).filter(|(o, _)| o.receiver().is_none()).map(|(_, a)| a).sum();
    let area = 4.0 * std::f64::consts::PI * r * r;
    assert!((arrived - area).abs() <= 1e-9 * area, "{name}: {arrived} of {area} m² arrives");
    // Every river that reaches the sea does so through a mouth.
    for i in (0..d.kind.len()).filter(|&i| d.kind[i] == NodeKind::River) {
        let mut at = i;
        while let Some(next) = d.receivers[at].receiver() {
            if d.kind[next.index()] == NodeKind::Sea {
                assert_eq!(d.kind[at], NodeKind::River, "{name}: river {i} reaches the sea as land");
                assert!(d.mouths.binary_search(&watershed::NodeId(at as u32)).is_ok(), "{name}: no mouth");
                break;
            }
            at = next.index();
        }
    }
    // Sea nodes and lakes are where the settings say.
    if let Some(sea) = world.terrain.settings.sea.then_some(world.terrain.settings.sea_level_m) {
        for (i, &h) in world.terrain.heights.iter().enumerate() {
            if h < sea {
                assert_eq!(d.kind[i], NodeKind::Sea, "{name}: {i} under the sea is not sea");
            }
        }
    }
}

#[test]
fn every_shipped_world_obeys_the_rule() {
    for w in &testkit::shipped().worlds {
        let world = World::build(w);
        check_invariants(&world);
        let s = &world.terrain.drainage.stats;
        assert_eq!(s.sea + s.land + s.lake + s.river, w.lattice_nodes, "{}", w.name);
        if w.rivers {
            assert!(s.river > 0 && s.mouths > 0, "{}: rivers reach the sea", w.name);
        } else {
            assert_eq!(s.river, 0, "{}: rivers are off", w.name);
        }
        if !w.lakes {
            assert_eq!(s.lakes, 0, "{}: lakes are off", w.name);
        }
        if !w.sea {
            assert_eq!(s.sea, 0, "{}: no sea", w.name);
        }
    }
}

#[test]
fn guaranteed_lakes_come_out_as_lakes() {
    for w in testkit::shipped().worlds.iter().filter(|w| w.lake_at.is_some()) {
        let world = World::build(w);
        let at = w.lake_at.expect("filtered");
        let node = world.terrain.lattice.nearest_node(direction(at.lat_deg, at.lon_deg));
        assert_eq!(
            world.terrain.drainage.kind[node.index()],
            NodeKind::Lake,
            "{}: no lake at {at:?}",
            w.name
        );
        let lake = &world.terrain.drainage.lakes[world.terrain.drainage.lake_id[node.index()] as usize - 1];
        assert!(lake.depth_m > w.lake_min_depth_m);
        assert!(lake.level_m > w.sea_level_m + watershed::SeaState::for_world(w).storm_crest_m());
    }
}

#[test]
fn quick_world_solve_is_pinned() {
    let world = testkit::built(QUICK_WORLD);
    assert_eq!(
        (world.terrain.network_digest().as_str(), world.terrain.sets_digest().as_str()),
        (QUICK_NETWORK, QUICK_SETS)
    );
}

#[test]
fn same_bytes_with_one_or_two_threads() {
    let w = testkit::world("home");
    let run = |threads: usize| {
        let world = testkit::with_threads(threads, || World::build(&w));
        (world.terrain.heights_digest(), world.terrain.network_digest(), world.terrain.sets_digest())
    };
    assert_eq!(run(1), run(2));
}

#[test]
fn lakes_under_the_storm_crest_are_bays() {
    // A basin 3 m deep whose level stands 1 m above the sea; the sea is cell 0.
    #[rustfmt::skip]
    let dem = [
        -5.0, 1.0, 4.0, 4.0,
         4.0, 4.0, -2.0, 4.0,
         4.0, -2.0, -2.0, 4.0,
         4.0, 4.0, 4.0, 4.0,
    ];
    let grid = Grid { width: 4, height: 4, cell_m: 1.0 };
    let solve = |crest: f64| {
        let params = watershed::DrainageParams {
            sea_level_m: Some(-3.0),
            storm_crest_m: crest,
            lakes: true,
            lake_min_depth_m: 1.4,
            rivers: false,
            river_catchment_m2: f64::INFINITY,
            edge_outlets: false,
        };
        watershed::solve(&grid, &dem, &params)
    };
    let calm = solve(2.0);
    assert_eq!(calm.lakes.len(), 1, "level 1 m stands clear of a 2 m crest... above -3 m sea");
    assert_eq!(calm.lakes[0].level_m, 1.0);
    assert_eq!(calm.kind[6], NodeKind::Lake);
    let storm = solve(4.5);
    assert!(storm.lakes.is_empty());
    assert_eq!(storm.stats.bays, 1);
    assert_eq!(storm.kind[6], NodeKind::Sea);
    assert_eq!(storm.receivers[6], Outlet::Sea);
    // The grid front end has no waves: the same basin is a lake there.
    let (plain, _) = drain_grid(
        &grid,
        &dem,
        &GridOptions { sea_level_m: Some(-3.0), edge_outlets: false, lake_min_depth_m: 1.4 },
    );
    assert_eq!(plain.lakes.len(), 1);
}

fn small(seed: u64, sea: bool, lakes: bool, rivers: bool) -> WorldSettings {
    let mut w = testkit::world(QUICK_WORLD);
    w.seed = seed;
    w.lattice_nodes = 6_000;
    w.sea = sea;
    w.lakes = lakes;
    w.rivers = rivers;
    w
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn any_seed_obeys_the_rule(seed in any::<u64>(), sea: bool, lakes: bool, rivers: bool) {
        check_invariants(&World::build(&small(seed, sea, lakes, rivers)));
    }
}
