//! Named fixtures shared by tests and benchmarks, so they never drift apart.

use crate::settings::{WorldCatalog, WorldSettings};

/// The shipped `worlds.json`, compiled in.
pub const SHIPPED_WORLDS: &str = include_str!("../../../worlds.json");

/// The small, quick world every test reaches for first (2 km radius, every subsystem on).
pub const QUICK_WORLD: &str = "pebble";

/// The seed of every fuzz test's mutator: the same hostile inputs on every run.
pub const FUZZ_SEED: u64 = 0x5EED_F022;

/// The shipped catalogue.
///
/// # Panics
/// If the shipped `worlds.json` does not validate — a test failure by design.
pub fn shipped() -> WorldCatalog {
    match WorldCatalog::from_json(SHIPPED_WORLDS) {
        Ok(c) => c,
        Err(e) => panic!("shipped worlds.json is invalid:\n{e}"),
    }
}

/// One shipped world by name.
///
/// # Panics
/// If there is no such world.
pub fn world(name: &str) -> WorldSettings {
    match shipped().get(name) {
        Some(w) => w.clone(),
        None => panic!("no shipped world '{name}'"),
    }
}
