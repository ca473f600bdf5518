//! The ground field: bounds, purity, thread-count independence, the guaranteed lake, and an
//! exact digest of the quick world.

use proptest::prelude::*;
use watershed::testkit::{self, QUICK_WORLD};
use watershed::{direction, fibonacci, world_digests, DVec3, LatLon, PlanetHeight, WorldSettings};

/// Pinned digests of the quick world. A change here means every planet changed: bump it only
/// on purpose, and say so in the commit.
const QUICK_DIRECTIONS: &str = "8c571b64056e53339f1fcc10dfe7069b153d6e6453796bab39af8757dca4079d";
const QUICK_HEIGHTS: &str = "470ca5de30b8300b00befadb647b128e8f8de0717bbd1e34a84921e6cafaa15b";
/// The quick world's worked ground (eroded and settled), the one the solve reads.
const QUICK_WORKED: &str = "a9989689469b3c22af28d4085a0b2cd4356afa8f429fd3532b6709e0bb10fed5";

#[test]
fn quick_world_digests_are_pinned() {
    let w = testkit::world(QUICK_WORLD);
    let d = world_digests(&w, &PlanetHeight::new(&w));
    assert_eq!((d.directions.as_str(), d.heights.as_str()), (QUICK_DIRECTIONS, QUICK_HEIGHTS));
}

#[test]
fn quick_world_worked_ground_is_pinned() {
    let world = testkit::built(QUICK_WORLD);
    let d = world_digests(&world.terrain.settings, &world.terrain.planet);
    assert_eq!(d.directions, QUICK_DIRECTIONS);
    assert_eq!(d.heights, QUICK_WORKED);
}

/// The worked ground at the nodes over the natural heights already evaluated there gives
/// the bits of a whole evaluation at the nodes' positions, as the build reads them.
#[test]
fn worked_heights_at_the_nodes_are_a_whole_evaluations_bits() {
    let world = testkit::built(QUICK_WORLD);
    let positions = world.terrain.lattice.positions();
    let natural_field = PlanetHeight::new(&world.terrain.settings);
    let natural = natural_field.heights(positions);
    let at_nodes = world.terrain.planet.heights_at_nodes(&natural);
    let whole = world.terrain.planet.heights(positions);
    assert!(at_nodes.iter().zip(&whole).all(|(a, b)| a.to_bits() == b.to_bits()));
    assert!(at_nodes.iter().zip(&natural).any(|(a, b)| a != b), "the quick world erodes");
    assert_eq!(natural_field.heights_at_nodes(&natural), natural, "without erosion, the natural ground");
}

#[test]
fn same_bytes_with_one_or_two_threads() {
    let w = testkit::world("home");
    let planet = PlanetHeight::new(&w);
    let dirs: Vec<DVec3> = (0..20_000).map(|i| fibonacci(i, 20_000)).collect();
    let run = |threads: usize| testkit::with_threads(threads, || planet.heights(&dirs));
    let one = run(1);
    let two = run(2);
    assert!(one.iter().zip(&two).all(|(a, b)| a.to_bits() == b.to_bits()));
    let serial: Vec<f64> = dirs.iter().map(|&d| planet.height(d)).collect();
    assert!(one.iter().zip(&serial).all(|(a, b)| a.to_bits() == b.to_bits()));
}

#[test]
fn every_shipped_world_stays_inside_its_relief() {
    for w in &testkit::shipped().worlds {
        let planet = PlanetHeight::new(w);
        for i in 0..20_000 {
            let h = planet.height(fibonacci(i, 20_000));
            assert!(h.is_finite() && h.abs() < w.relief_m, "{}: {h}", w.name);
        }
    }
}

#[test]
fn surface_point_and_odd_directions() {
    let w = testkit::world(QUICK_WORLD);
    let planet = PlanetHeight::new(&w);
    let d = DVec3::new(3.0, -4.0, 12.0);
    let p = planet.surface_point(d);
    assert!((p.length() - (w.radius_m + planet.height(d))).abs() < 1e-9);
    assert_eq!(planet.height(d), planet.height(d / 13.0));
    assert_eq!(planet.height(DVec3::ZERO), planet.height(DVec3::Y));
}

/// Lowest ground on the rim ring and highest ground in the bowl around the lake location.
fn basin_extremes(w: &WorldSettings, planet: &PlanetHeight, at: LatLon) -> (f64, f64) {
    let centre = direction(at.lat_deg, at.lon_deg);
    let axis_a = watershed::unit(if centre.y.abs() < 0.9 { DVec3::Y } else { DVec3::X }.cross(centre));
    let axis_b = centre.cross(axis_a);
    let radius = (0.08 * w.radius_m).clamp(200.0, 1000.0) / w.radius_m;
    let ring = |fraction: f64, k: usize| {
        let t = std::f64::consts::TAU * k as f64 / 360.0;
        let a = radius * fraction;
        watershed::unit(centre * a.cos() + (axis_a * t.cos() + axis_b * t.sin()) * a.sin())
    };
    let rim_low = (0..360)
        .flat_map(|k| [1.05, 1.15, 1.25].map(|f| planet.height(ring(f, k))))
        .fold(f64::INFINITY, f64::min);
    let bowl_high = (0..360)
        .flat_map(|k| [0.0, 0.3, 0.6, 0.9].map(|f| planet.height(ring(f, k))))
        .fold(f64::NEG_INFINITY, f64::max);
    (rim_low, bowl_high)
}

#[test]
fn guaranteed_lakes_of_shipped_worlds_are_closed_basins() {
    for w in testkit::shipped().worlds.iter().filter(|w| w.lake_at.is_some()) {
        let planet = PlanetHeight::new(w);
        let at = w.lake_at.expect("filtered");
        let (rim_low, bowl_high) = basin_extremes(w, &planet, at);
        assert!(rim_low > bowl_high + 1.4, "{}: rim {rim_low} bowl {bowl_high}", w.name);
        if w.sea {
            assert!(bowl_high > w.sea_level_m, "{}: bowl under the sea", w.name);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn any_seed_stays_inside_relief(seed in any::<u64>(), relief in 10.0f64..2000.0, mesas: bool, erosion: bool) {
        let mut w = testkit::world(QUICK_WORLD);
        w.seed = seed;
        w.radius_m = 20_000.0;
        w.relief_m = relief;
        w.sea_level_m = -0.2 * relief;
        w.crater_depth_m = relief;
        w.mesas = mesas;
        w.erosion = erosion;
        let planet = PlanetHeight::new(&w);
        for i in 0..2_000 {
            let h = planet.height(fibonacci(i, 2_000));
            prop_assert!(h.is_finite() && h.abs() < relief);
        }
    }

    #[test]
    fn a_lake_anywhere_is_a_closed_basin(seed in any::<u64>(), lat in -89.0f64..89.0, lon in -180.0f64..180.0) {
        let mut w = testkit::world("home");
        w.seed = seed;
        let at = LatLon { lat_deg: lat, lon_deg: lon };
        w.lake_at = Some(at);
        let planet = PlanetHeight::new(&w);
        let (rim_low, bowl_high) = basin_extremes(&w, &planet, at);
        prop_assert!(rim_low > bowl_high + 1.4, "rim {} bowl {}", rim_low, bowl_high);
        prop_assert!(bowl_high > w.sea_level_m);
    }
}
