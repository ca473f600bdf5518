//! The probes the CLI and the Godot probes run: they pass on the quick world and fail when
//! they should.

use watershed::testkit::{self, QUICK_WORLD, SHIPPED_WORLDS};
use watershed::{config_probe, world_probes, Verdict};

#[test]
fn quick_world_passes_every_probe() {
    let lines = world_probes(&testkit::world(QUICK_WORLD));
    let failed: Vec<String> =
        lines.iter().filter(|l| matches!(l.verdict, Verdict::Fail(_))).map(|l| l.to_string()).collect();
    assert!(failed.is_empty(), "{failed:?}");
    let names: Vec<&str> = lines.iter().map(|l| l.name.split('/').nth(1).unwrap_or_default()).collect();
    for check in ["determinism", "uphill_receivers", "teleport_shift", "mill", "buoyancy", "voxel", "capture"]
    {
        assert!(names.contains(&check), "no {check} line");
    }
    assert!(lines.iter().any(|l| l.to_string().starts_with("SKIP pebble/capture")));
}

#[test]
fn config_probe_catches_a_broken_file() {
    assert!(config_probe(SHIPPED_WORLDS).iter().all(|l| l.verdict == Verdict::Pass));
    let broken = config_probe("{\"worlds\": [1]}");
    assert!(matches!(broken[0].verdict, Verdict::Fail(_)));
    assert!(broken[0].to_string().starts_with("FAIL config/load 0 worlds expected"));
}
