//! The `watershed` binary against hostile numbers and files: every one is a non-zero exit
//! with one clear message on stderr naming the flag or file, never a panic (exit 101).

mod common;

use common::{scratch, watershed};
use std::path::Path;
use watershed::write_npy;

fn utf8(path: &Path) -> &str {
    path.to_str().expect("utf-8 path")
}

/// Runs `args`, which must fail cleanly with `expected` in its stderr.
fn refused(args: &[&str], expected: &str) {
    let out = watershed(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded: {err}");
    assert_ne!(out.status.code(), Some(101), "{args:?} panicked: {err}");
    assert!(out.status.code().is_some(), "{args:?} was killed by a signal: {err}");
    assert!(!err.contains("panicked at"), "{args:?}: {err}");
    assert!(err.contains(expected), "{args:?}: expected {expected:?} in {err}");
}

#[test]
fn grid_drain_metres_flags_state_range_and_value() {
    let dir = scratch("metres");
    let dem = dir.join("dem.npy");
    std::fs::write(&dem, write_npy(&[3, 3], &[5.0, 4.0, 3.0, 4.0, 2.0, 4.0, 3.0, 4.0, 5.0])).expect("dem");
    let (dem, out) = (utf8(&dem), utf8(&dir));
    for (flag, value, expected) in [
        ("--cell-m", "NaN", "must be within 0.001..=100000 metres, got NaN"),
        ("--cell-m", "inf", "must be within 0.001..=100000 metres, got inf"),
        ("--cell-m", "-1", "must be within 0.001..=100000 metres, got -1"),
        ("--cell-m", "0", "must be within 0.001..=100000 metres, got 0"),
        ("--cell-m", "1e300", "must be within 0.001..=100000 metres, got 1e300"),
        ("--cell-m", "ten", "expected a number of metres, got 'ten'"),
        ("--sea-level", "NaN", "must be within -10000000..=10000000 metres, got NaN"),
        ("--sea-level", "-inf", "got -inf"),
        ("--lake-min-depth", "NaN", "must be within 0..=10000 metres, got NaN"),
        ("--lake-min-depth", "-1", "must be within 0..=10000 metres, got -1"),
    ] {
        let arg = format!("{flag}={value}");
        refused(&["grid-drain", "--dem", dem, "--out", out, &arg], expected);
    }
}

#[test]
fn grid_world_knob_flags_state_range_and_value() {
    let dir = scratch("knobs");
    let dem = dir.join("dem.npy");
    std::fs::write(&dem, write_npy(&[3, 3], &[5.0, 4.0, 3.0, 4.0, 2.0, 4.0, 3.0, 4.0, 5.0])).expect("dem");
    let (dem, out) = (utf8(&dem), utf8(&dir));
    for (flag, value, expected) in [
        ("--cell-m", "0", "must be within 0.001..=100000 metres, got 0"),
        ("--river-fill", "2", "must be within 0..=1, got 2"),
        ("--river-catchment", "NaN", "must be within 1..=1000000000000 m², got NaN"),
        ("--channel-depth", "deep", "expected a number of metres, got 'deep'"),
        ("--edge-outlets", "yes", "expected true or false, got 'yes'"),
        ("--runoff", "-1", "must be within 0..=0.001 m/s, got -1"),
    ] {
        let arg = format!("{flag}={value}");
        refused(&["grid-world", "--dem", dem, "--out", out, &arg], expected);
    }
}

#[test]
fn size_flags_state_their_range() {
    let cases: [(&[&str], &str); 12] = [
        (&["generate", "--world", "pebble", "--map-width", "0"], "0 is not in 2..=16384"),
        (&["generate", "--world", "pebble", "--map-width", "99999999999"], "99999999999 is not in 2..=16384"),
        (&["generate", "--world", "pebble", "--map-width=-5"], "invalid value '-5' for '--map-width"),
        (&["generate", "--world", "pebble", "--globe-size", "1e9"], "invalid value '1e9' for '--globe-size"),
        (&["section", "--world", "pebble", "--reach=-1"], "invalid value '-1' for '--reach"),
        (
            &["section", "--world", "pebble", "--reach", "4294967296"],
            "invalid value '4294967296' for '--reach",
        ),
        (&["section", "--world", "pebble", "--reach", "NaN"], "invalid value 'NaN' for '--reach"),
        (&["bench", "drainage", "--samples", "0"], "0 is not in 16..=16000000"),
        (&["bench", "drainage", "--samples", "18446744073709551616"], "invalid value '18446744073709551616'"),
        (&["bench", "grid", "--grid", "100000"], "100000 is not in 2..=16384"),
        (&["bench", "height", "--runs", "0"], "0 is not in 1..=1000"),
        (&["digest", "--world", "pebble", "--memory-mib", "0"], "0 is not in 1..=1099511627776"),
    ];
    for (args, expected) in cases {
        refused(args, expected);
    }
}

#[test]
fn an_unknown_reach_is_an_error_not_a_panic() {
    refused(&["section", "--world", "pebble", "--reach", "4294967295"], "no reach 4294967295");
}

#[test]
fn solves_that_do_not_fit_in_memory_are_refused_before_they_start() {
    refused(
        &["--memory-mib", "1", "digest", "--world", "pebble"],
        "error: world 'pebble': lattice_nodes 20000 needs about 4 MiB to solve; this machine has 1 MiB available",
    );
    refused(
        &["bench", "drainage", "--world", "pebble", "--samples", "16000000", "--memory-mib", "100"],
        "lattice_nodes 16000000 needs about 2.5 GiB to solve; this machine has 100 MiB available",
    );
    refused(
        &["bench", "grid", "--grid", "16384", "--memory-mib", "100"],
        "a 16384 x 16384 heightmap needs about",
    );
    refused(
        &["generate", "--world", "pebble", "--map-width", "16384", "--memory-mib", "500"],
        "world 'pebble': lattice_nodes 20000 with a 16384-pixel map and a 1024-pixel globe needs about 1.4 GiB to \
         solve and draw; this machine has 500 MiB available",
    );
    let out = watershed(&["--memory-mib", "1", "probe", "--world", "pebble"]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("FAIL pebble/memory 4 MiB expected at most the 1 MiB available"), "{stdout}");
}

#[test]
fn hostile_files_are_errors_naming_the_file() {
    let dir = scratch("files");
    let shipped =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../worlds.json")).expect("read");
    let deep = dir.join("deep.json");
    std::fs::write(&deep, "[".repeat(10_000)).expect("write");
    let huge = dir.join("huge.json");
    std::fs::write(&huge, shipped.replacen("10000.0", "1e400", 1)).expect("write");
    let repeated = dir.join("repeated.json");
    std::fs::write(&repeated, shipped.replacen("\"seed\": 7091,", "\"seed\": 7091, \"seed\": 7092,", 1))
        .expect("write");
    let binary = dir.join("binary.json");
    std::fs::write(&binary, [0xff, 0xfe, 0x00, 0x7b]).expect("write");
    let empty = dir.join("empty.json");
    std::fs::write(&empty, "").expect("write");
    refused(
        &["check", utf8(&deep)],
        "deep.json: not valid JSON: recursion limit exceeded at line 1 column 128",
    );
    refused(&["check", utf8(&huge)], "number out of range at line 6");
    refused(
        &["check", utf8(&repeated)],
        "worlds[0].seed: key 'seed' is written twice in one object at line 5",
    );
    refused(&["check", utf8(&binary)], "not UTF-8 text");
    refused(&["check", utf8(&empty)], "not valid JSON: EOF while parsing a value at line 1 column 0");
    refused(&["check", "/dev/zero"], "/dev/zero is larger than 64 MiB, too large for a worlds file");
    refused(&["digest", "--world", "home", "--worlds", utf8(&repeated)], "written twice");

    let claim = dir.join("claim.npy");
    let header = "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000, 1000000000), }";
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend_from_slice(&(header.len() as u16).to_le_bytes());
    bytes.extend_from_slice(header.as_bytes());
    bytes.extend_from_slice(&[0; 100]);
    std::fs::write(&claim, bytes).expect("write");
    refused(
        &["grid-drain", "--dem", utf8(&claim), "--out", utf8(&dir)],
        "needs 8000000000000000000 data bytes, the file has 100",
    );
    let big = dir.join("big.npy");
    std::fs::write(&big, write_npy(&[300, 300], &vec![1.0; 90_000])).expect("write");
    refused(
        &["grid-drain", "--dem", utf8(&big), "--out", utf8(&dir), "--memory-mib", "1"],
        "big.npy is larger than 41 KiB, too large for a heightmap this machine can drain",
    );
    refused(
        &["grid-drain", "--dem", "/dev/zero", "--out", utf8(&dir), "--memory-mib", "1"],
        "/dev/zero is larger than",
    );
}

#[test]
fn erosion_dials_state_range_and_value() {
    let dir = scratch("dials");
    let dem = dir.join("dem.npy");
    let heights: Vec<f64> = (0..64).map(|i| f64::from(i % 8 + i / 8)).collect();
    std::fs::write(&dem, write_npy(&[8, 8], &heights)).expect("dem");
    let out_dir = dir.join("out");
    let (dem, out) = (utf8(&dem), utf8(&out_dir));
    for (model, flag, value, expected) in [
        ("water-sediment", "--carry", "NaN", "water-sediment: carry must be within 0..=1000, got NaN"),
        ("water-sediment", "--rain", "inf", "water-sediment: rain must be within 0..=1, got inf"),
        ("water-sediment", "--pickup", "-1", "water-sediment: pickup must be within 0..=1, got -1"),
        ("water-sediment", "--max-cut", "1e300", "water-sediment: max_cut must be within 0..=100, got 1e300"),
        ("water-sediment", "--settle", "half", "invalid value 'half' for '--settle"),
        ("droplets", "--dial", "radius=1e300", "droplets: radius must be within 0..=16, got 1e300"),
        ("droplets", "--dial", "lifetime=-5", "droplets: lifetime must be within 1..=10000, got -5"),
        ("droplets", "--dial", "inertia=", "expected a number after '=', got ''"),
        (
            "droplets",
            "--preset",
            "gpu-rocks",
            "droplets: no preset 'gpu-rocks'; the presets are default, gentle, gorges",
        ),
    ] {
        refused(&["erode", "--dem", dem, "--model", model, flag, value, "--out", out], expected);
    }
    // grid-world's erosion takes the same presets and dials, checked before any work.
    for (model, flag, value, expected) in [
        ("water-sediment", "--dial", "rian=0.1", "water-sediment has no dial 'rian'; did you mean 'rain'?"),
        ("water-sediment", "--dial", "rain=2", "water-sediment: rain must be within 0..=1, got 2"),
        ("droplets", "--preset", "gpu-rocks", "droplets: no preset 'gpu-rocks'"),
        ("stream-power", "--preset", "gorges", "stream-power has no presets or dials"),
        ("none", "--dial", "rain=0.1", "none has no presets or dials"),
    ] {
        refused(&["grid-world", "--dem", dem, "--erosion", model, flag, value, "--out", out], expected);
    }
    assert!(!out_dir.exists(), "a refused run wrote its output folder");
}
