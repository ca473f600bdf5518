//! Watershed: planets whose water obeys real hydrology — the pure-Rust core.
//!
//! 1. [`settings`](WorldCatalog) — `worlds.json`, read strictly into [`WorldSettings`].
//! 2. [`height`](PlanetHeight) — the ground field: metres above the datum for any direction.
//! 3. [`digest`](world_digests) — SHA-256 over raw IEEE bytes, the determinism ruler.

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod digest;
mod height;
mod rng;
mod settings;
mod sphere;
pub mod testkit;

pub use digest::{digest_directions, digest_f64, world_digests, WorldDigests, DIGEST_SAMPLES};
pub use glam::DVec3;
pub use height::PlanetHeight;
pub use rng::SplitMix64;
pub use settings::{
    closest_key, ConfigError, ConfigErrors, KeyGroup, KeySpec, LatLon, Look, LookFamily, Rgb,
    WorldCatalog, WorldSettings, KEYS,
};
pub use sphere::{direction, fibonacci, lat_lon_rad, random_directions, unit};
