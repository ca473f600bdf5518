//! Named fixtures shared by tests and benchmarks, so they never drift apart.

use crate::ground::grid::Grid;
use crate::ground::topology::Topology;
use crate::settings::{WorldCatalog, WorldSettings};
use crate::water::world::World;
use std::collections::BTreeMap;
use std::sync::{Mutex, OnceLock};

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

/// Shipped world `name`, built once per test binary and shared by every test in it (the
/// builds stay for the binary's life).
///
/// # Panics
/// If there is no such world.
pub fn built(name: &str) -> &'static World {
    static BUILT: OnceLock<Mutex<BTreeMap<String, &'static World>>> = OnceLock::new();
    let cache = BUILT.get_or_init(|| Mutex::new(BTreeMap::new()));
    let mut cache = cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    cache.entry(name.to_owned()).or_insert_with(|| Box::leak(Box::new(World::build(&world(name)))))
}

/// `f` run on a rayon pool of exactly `threads` threads: the determinism tests' way of
/// comparing one thread with two.
///
/// # Panics
/// If the pool cannot be built (no threads left on the machine).
pub fn with_threads<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
    match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
        Ok(pool) => pool.install(f),
        Err(e) => panic!("cannot build a pool of {threads} threads: {e}"),
    }
}

/// A grid seen only through the general neighbour rule, without the index offsets its hot
/// loops take ([`Topology::grid`] is `None`): what a grid fast path must match bit for bit.
#[derive(Debug, Clone, Copy)]
pub struct PlainGrid(pub Grid);

impl Topology for PlainGrid {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn neighbors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.0.neighbors(i)
    }

    fn area_m2(&self, i: usize) -> f64 {
        self.0.area_m2(i)
    }

    fn distance_m(&self, a: usize, b: usize) -> f64 {
        self.0.distance_m(a, b)
    }

    fn on_edge(&self, i: usize) -> bool {
        self.0.on_edge(i)
    }
}
