//! What a caller hands the core across the Godot boundary: directions with no direction,
//! block sizes that would exhaust memory, and builds superseded before they finish.

use std::sync::atomic::{AtomicBool, Ordering};
use watershed::testkit::{world, QUICK_WORLD};
use watershed::{checked_unit, Block, DVec3, Pipeline, VoxelError, World, MAX_BLOCK_LOD, MAX_BLOCK_SIDE};

#[test]
fn a_zero_nan_or_infinite_vector_has_no_direction() {
    for bad in [
        DVec3::ZERO,
        DVec3::new(f64::NAN, 0.0, 0.0),
        DVec3::new(f64::INFINITY, 1.0, 0.0),
        DVec3::splat(1e-300),
    ] {
        assert_eq!(checked_unit(bad), None, "{bad}");
    }
    let unit = checked_unit(DVec3::new(0.0, 3.0, 4.0)).expect("a direction");
    assert!((unit - DVec3::new(0.0, 0.6, 0.8)).length() < 1e-15);
}

#[test]
fn block_sizes_are_checked_before_anything_is_allocated() {
    let message = |size: [i64; 3], lod: i64| match Block::checked(DVec3::ZERO, size, lod) {
        Err(VoxelError::OutOfBounds(m)) => m,
        other => panic!("{size:?} lod {lod}: {other:?}"),
    };
    assert_eq!(
        message([100_000, 100_000, 100_000], 0),
        format!(
            "block size must be 1 to {MAX_BLOCK_SIDE} voxels along each axis, got [100000, 100000, 100000]"
        )
    );
    assert!(message([0, 16, 16], 0).contains("got [0, 16, 16]"));
    assert!(message([-1, 16, 16], 0).contains("got [-1, 16, 16]"));
    assert_eq!(message([8, 8, 8], 99), format!("lod must be 0 to {MAX_BLOCK_LOD}, got 99"));
    assert_eq!(message([8, 8, 8], -1), format!("lod must be 0 to {MAX_BLOCK_LOD}, got -1"));
    let inf = Block::checked(DVec3::new(f64::INFINITY, 0.0, 0.0), [8, 8, 8], 0);
    assert!(matches!(inf, Err(VoxelError::OutOfBounds(m)) if m.starts_with("block origin must be finite")));
    let ok = Block::checked(DVec3::ONE, [MAX_BLOCK_SIDE as i64, 1, 2], 3).expect("in bounds");
    assert_eq!((ok.size, ok.step_m, ok.voxels()), ([MAX_BLOCK_SIDE, 1, 2], 8.0, 2 * MAX_BLOCK_SIDE));
}

#[test]
fn a_cancelled_build_stops_and_an_uncancelled_one_matches_build() {
    let settings = world(QUICK_WORLD);
    let stages = std::sync::Mutex::new(Vec::new());
    let cancel = AtomicBool::new(false);
    let report = |stage: &'static str, _f: f64| {
        stages.lock().expect("not poisoned").push(stage);
        if stage == "heights" {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    assert!(Pipeline::new(&settings).progress(&report).cancel(&cancel).world().is_none());
    assert_eq!(*stages.lock().expect("not poisoned"), ["lattice", "heights"], "stopped at the next stage");

    let built = Pipeline::new(&settings).world().expect("not cancelled");
    assert_eq!(built.terrain.drainage.receivers, World::build(&settings).terrain.drainage.receivers);
}

#[test]
fn the_long_loops_give_up_once_the_flag_is_set() {
    let set = AtomicBool::new(true);
    assert!(watershed::FibonacciLattice::new_cancellable(200_000, 1000.0, &set).is_none());
    let lattice = watershed::FibonacciLattice::new(2_000, 1000.0);
    let heights: Vec<f64> = lattice.positions().iter().map(|p| p.y * 100.0).collect();
    let params = watershed::DrainageParams::for_world(&world(QUICK_WORLD), 0.0);
    assert!(watershed::solve_cancellable(&lattice, &heights, &params, &set).is_none());
    let unset = AtomicBool::new(false);
    let solved = watershed::solve_cancellable(&lattice, &heights, &params, &unset).expect("not cancelled");
    assert_eq!(solved.receivers, watershed::solve(&lattice, &heights, &params).receivers);
}

#[test]
fn a_depth_map_width_is_checked_before_anything_is_allocated() {
    let world = watershed::testkit::built(QUICK_WORLD);
    for width in [-5, 0, 1, 1 << 40] {
        let message = watershed::sea_depth_map(world, width).expect_err("out of bounds");
        assert_eq!(
            message,
            format!("width must be 2 to {} pixels, got {width}", watershed::MAX_DEPTH_MAP_WIDTH)
        );
    }
    let (w, h, depths) = watershed::sea_depth_map(world, 64).expect("in bounds");
    assert_eq!((w, h, depths.len()), (64, 32, 64 * 32));
}
