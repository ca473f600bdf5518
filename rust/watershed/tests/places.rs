//! Named places on every shipped world and on random seeds of the quick world: each stands
//! where its name says (wet places in water, dry ones on dry land, biome places in their
//! biome), around the village, in the documented order; the boat's launch and place lie
//! their distances down the largest river; the mouth looks out of its river into the sea.

use proptest::prelude::*;
use watershed::testkit::{self, QUICK_WORLD};
use watershed::{biome_at, Biome, Life, Places, World, BOAT_LAUNCH_M, BOAT_PLACE_M, DOWNSTREAM_M};

/// The order `Places::named` keeps.
const ORDER: [&str; 10] =
    ["spawn", "village", "mill", "downstream", "boat", "sea", "lake", "mouth", "forest", "snow"];
/// Places a walker lands in water at.
const WET: [&str; 6] = ["mill", "downstream", "boat", "sea", "lake", "mouth"];

/// Every property of `places` on `world`, as messages (empty when all hold).
fn problems(world: &World, life: &Life, places: &Places) -> Vec<String> {
    let name = &world.terrain.settings.name;
    let mut out = Vec::new();
    let names: Vec<&str> = places.named.iter().map(|(n, _)| *n).collect();
    let ordered: Vec<&str> = ORDER.iter().copied().filter(|n| names.contains(n)).collect();
    if names != ordered || names.first() != Some(&"spawn") {
        out.push(format!("{name}: places {names:?} out of order or without a spawn"));
    }
    let radius = world.terrain.settings.radius_m;
    for &(place, dir) in &places.named {
        let wet = world.water().at(dir).is_some();
        if WET.contains(&place) != wet {
            out.push(format!("{name}: {place} is {} at {dir}", if wet { "wet" } else { "dry" }));
        }
        if let Some(biome) = Biome::from_name(place) {
            if biome_at(world, &life.climate, dir) != Some(biome) {
                out.push(format!("{name}: {place} is not in its biome"));
            }
        }
    }
    if places.get("village") != life.sites.village.map(|v| v.dir) {
        out.push(format!("{name}: the village is not the siting pass's"));
    }
    if let Some(spawn) = life.sites.spawn {
        if places.get("spawn") != Some(spawn.dir) {
            out.push(format!("{name}: the spawn is not the siting pass's"));
        }
    }
    // Down a river that bends, a place stands nearer than its distance along the river.
    let apart = |a: watershed::DVec3, b: watershed::DVec3| (a - b).length() * radius;
    let down = |from: watershed::DVec3, at: watershed::DVec3, along_m: f64| {
        let d = apart(from, at);
        d > 0.0 && d <= along_m + 0.01
    };
    if let (Some(mill), Some(below)) = (places.get("mill"), places.get("downstream")) {
        if !down(mill, below, DOWNSTREAM_M) {
            out.push(format!("{name}: downstream {:.2} m from the mill", apart(mill, below)));
        }
    }
    match (world.mills().site(), places.boat_launch, places.get("boat")) {
        (Some(river), Some(launch), Some(boat)) => {
            // Up the river instead where it ends within twice the launch distance.
            let above = BOAT_LAUNCH_M + (BOAT_LAUNCH_M - BOAT_PLACE_M);
            for (what, at, want) in [("launch", launch, BOAT_LAUNCH_M), ("boat", boat, above)] {
                if !down(river, at, want) {
                    out.push(format!("{name}: the {what} {:.2} m down the river", apart(river, at)));
                }
            }
        }
        (None, None, None) => {}
        other => out.push(format!("{name}: river, launch and boat place disagree: {other:?}")),
    }
    // The mouth is the end of a river's last reach, and looks on along that reach.
    match (places.get("mouth"), places.mouth_out) {
        (Some(mouth), Some(out_dir)) => {
            let reaches = &world.terrain.carve.reaches;
            let last = reaches.iter().find(|r| (r.end.normalize() - mouth).length() < 1e-12);
            let on = last.is_some_and(|r| {
                let (start, end) = (r.start.normalize(), r.end.normalize());
                (end - start).normalize().dot((out_dir - end).normalize()) > 0.999
            });
            if !on {
                out.push(format!("{name}: the mouth is not a river's end looking on along it"));
            }
        }
        (None, None) => {}
        other => out.push(format!("{name}: mouth and where it looks disagree: {other:?}")),
    }
    out
}

#[test]
fn every_shipped_world_has_its_places_where_their_names_say() {
    let mut found = Vec::new();
    for settings in &testkit::shipped().worlds {
        let world = testkit::built(&settings.name);
        let life = Life::of(world);
        let places = Places::of(world, &life);
        found.extend(problems(world, &life, &places));
        assert_eq!(places, Places::of(world, &life), "{}: the same places twice", settings.name);
    }
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn home_has_every_place_the_demo_offers() {
    let world = testkit::built("home");
    let places = Places::of(world, &Life::of(world));
    let names: Vec<&str> = places.named.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, ORDER);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(6))]

    /// The same properties on the quick world with any seed.
    #[test]
    fn places_hold_on_any_seed(seed in any::<u64>()) {
        let mut settings = testkit::world(QUICK_WORLD);
        settings.seed = seed;
        let world = World::build(&settings);
        let life = Life::of(&world);
        let found = problems(&world, &life, &Places::of(&world, &life));
        prop_assert!(found.is_empty(), "{:#?}", found);
    }
}
