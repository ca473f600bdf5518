//! What a solve costs, before it starts: the estimate against measured peaks, its growth
//! with the lattice, and the refusal's message with an injected amount of free memory.

use watershed::testkit;
use watershed::{
    check_grid_memory, check_solve_memory, check_solve_memory_with, estimate_solve, estimated_solve_bytes,
    WorldSettings,
};

const MIB: f64 = 1024.0 * 1024.0;
const GIB: u64 = 1 << 30;

/// A world whose rivers, not its lattice, take the memory: 100 km radius, 20,000 nodes
/// (2.5 km between nodes, so 2,700 one-metre bed pieces a reach) and a catchment threshold
/// below one node's area, so nearly every land node carries a river.
fn river_bed_world() -> WorldSettings {
    let mut w = testkit::world("home");
    w.radius_m = 100_000.0;
    w.lattice_nodes = 20_000;
    w.river_catchment_m2 = 1.0e6;
    assert!(w.validate().is_empty());
    w
}

fn with_nodes(world: &str, nodes: usize) -> WorldSettings {
    let mut w = testkit::world(world);
    w.lattice_nodes = nodes;
    w
}

/// Peaks measured with `/proc/self/status` VmHWM around `World::build` in a release build
/// (less the 3.6 MiB the process held before), MiB.
const MEASURED: &[(&str, usize, f64)] = &[
    ("pebble", 20_000, 3.4),
    ("home", 90_000, 17.5),
    ("highlands", 400_000, 73.8),
    ("home", 1_600_000, 254.0),
    ("home", 16_000_000, 2378.0),
];

#[test]
fn estimate_is_within_a_factor_of_the_measured_peak() {
    let mut cases: Vec<(WorldSettings, f64)> =
        MEASURED.iter().map(|&(w, n, mib)| (with_nodes(w, n), mib)).collect();
    cases.push((river_bed_world(), 442.0));
    for (w, measured) in cases {
        let estimate = estimated_solve_bytes(&w) as f64 / MIB;
        let ratio = estimate / measured;
        assert!(
            (0.8..=2.0).contains(&ratio),
            "{} at {} nodes: estimated {estimate:.1} MiB, measured {measured} MiB",
            w.name,
            w.lattice_nodes
        );
    }
}

#[test]
fn estimate_grows_with_the_lattice() {
    let ladder = [1_000, 4_000, 20_000, 90_000, 400_000, 2_000_000, 16_000_000];
    for base in
        [testkit::world("home"), testkit::world("dry_moon"), testkit::world("ocean_world"), river_bed_world()]
    {
        let mut last = 0;
        for n in ladder {
            let mut w = base.clone();
            w.lattice_nodes = n;
            let bytes = estimated_solve_bytes(&w);
            assert!(bytes >= last, "{}: {n} nodes estimated {bytes} bytes, fewer than {last}", w.name);
            last = bytes;
        }
    }
}

#[test]
fn river_beds_count_where_they_dominate() {
    let w = river_bed_world();
    let e = estimate_solve(&w);
    // Measured: 6,818 reaches, 19,158,073 pieces.
    assert!((5_000..10_000).contains(&e.reaches), "{e:?}");
    assert!((15_000_000..30_000_000).contains(&e.bed_pieces), "{e:?}");
    let mut dry = w.clone();
    dry.rivers = false;
    assert_eq!(estimate_solve(&dry).bed_pieces, 0);
}

#[test]
fn the_largest_lattice_costs_gigabytes_and_seconds() {
    // lattice_nodes tops out at 16,000,000 in the key table: the home world there was
    // measured at a 2.49 GiB peak; its build took 8.6 to 10.0 s on two cores without erosion
    // (`watershed bench drainage`, 2026-12-06). Within 30 % of those:
    let mut still = with_nodes("home", 16_000_000);
    still.erosion = false;
    let e = estimate_solve(&still);
    assert!((2 * GIB..3 * GIB).contains(&e.bytes), "{e:?}");
    assert!((6.0..13.0).contains(&e.seconds), "{e:?}");
    // Erosion's 30 steps added 22.2 to 24.1 s there (49 ns a node-step) and no memory at
    // the peak.
    let eroding = estimate_solve(&with_nodes("home", 16_000_000));
    assert_eq!(eroding.bytes, e.bytes);
    assert!((15.5..31.3).contains(&(eroding.seconds - e.seconds)), "{eroding:?}");
}

#[test]
fn refusal_names_world_nodes_estimate_and_what_is_available() {
    let w = with_nodes("home", 16_000_000);
    let e = check_solve_memory_with(&w, Some(GIB)).expect_err("2.5 GiB into 1 GiB");
    assert_eq!(e.to_string(), "world 'home': lattice_nodes 16000000 needs about 2.5 GiB to solve; this machine has 1.0 GiB available");
    assert_eq!(e.available_bytes, GIB);
    assert!(check_solve_memory_with(&w, Some(4 * GIB)).is_ok());
    assert!(check_solve_memory_with(&w, None).is_ok(), "unknown memory never refuses");

    let beds = check_solve_memory_with(&river_bed_world(), Some(100 << 20)).expect_err("beds");
    let message = beds.to_string();
    assert!(message.starts_with("world 'home': lattice_nodes 20000 with about "), "{message}");
    assert!(
        message
            .ends_with(" river bed pieces needs about 474 MiB to solve; this machine has 100 MiB available"),
        "{message}"
    );
}

#[test]
fn the_largest_valid_world_is_refused_not_attempted() {
    // Every value at the top of its range: 1,000 km radius, 16 million nodes, no sea, a
    // river at every node — hundreds of gigabytes of river bed.
    let mut w = with_nodes("home", 16_000_000);
    w.radius_m = 1.0e6;
    w.relief_m = 1.0e5;
    w.sea = false;
    w.river_catchment_m2 = 1.0;
    assert!(w.validate().is_empty());
    let e = estimate_solve(&w);
    assert!(e.bytes > 100 * GIB, "{e:?}");
    assert!(check_solve_memory_with(&w, Some(64 * GIB)).is_err());
}

#[test]
fn settings_that_do_not_validate_still_estimate() {
    let mut w = testkit::world("pebble");
    w.lattice_nodes = 0;
    w.radius_m = f64::NAN;
    w.river_catchment_m2 = f64::NEG_INFINITY;
    let _ = estimate_solve(&w);
    w.radius_m = 1e308;
    w.river_catchment_m2 = 0.0;
    let e = estimate_solve(&w);
    assert_eq!(e.bytes, u64::MAX, "{e:?}");
}

#[test]
fn grid_refusal_names_the_heightmap() {
    let e = check_grid_memory(30_000, 30_000, Some(8 * GIB)).expect_err("90 GB");
    assert_eq!(
        e.to_string(),
        "a 30000 x 30000 heightmap needs about 83.8 GiB to solve; this machine has 8.0 GiB available"
    );
    assert_eq!(check_grid_memory(100, 100, Some(8 * GIB)), Ok(1_000_000));
    assert!(check_grid_memory(usize::MAX, usize::MAX, None).is_ok());
}

#[test]
fn this_machine_answers_for_the_shipped_worlds() {
    // Whatever this machine has, the shipped worlds are small enough for any machine that
    // can run the tests; where the memory is unknown nothing is refused.
    for w in &testkit::shipped().worlds {
        assert!(check_solve_memory(w).is_ok(), "{}", w.name);
    }
}
