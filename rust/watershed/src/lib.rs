//! Watershed: planets whose water obeys real hydrology — the pure-Rust core.
//!
//! Every point drains to a strictly lower neighbour or is a sink. The stages, in the order
//! data flows through them:
//!
//! 1. [`settings`](WorldCatalog) — `worlds.json`, read strictly into [`WorldSettings`].
//! 2. [`height`](PlanetHeight) — the ground field: metres above the datum for any direction.
//! 3. [`digest`](world_digests) — SHA-256 over raw IEEE bytes, the determinism ruler.
//! 4. [`look`](ground_color) and [`render`](render_map) — colour rules and pictures.
//!
//! Units are metres, seconds and radians unless a name says otherwise (`lat_deg`).
//! Directions are unit vectors with +Y north (Godot's axes).

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod digest;
mod height;
mod look;
mod render;
mod rng;
mod settings;
mod sphere;
pub mod testkit;

pub use digest::{digest_directions, digest_f64, world_digests, WorldDigests, DIGEST_SAMPLES};
pub use glam::DVec3;
pub use height::PlanetHeight;
pub use look::{ground_color, to_rgb8, under_sea, water_color, Color};
pub use render::{render_globe, render_map, GlobeView, Image, Progress};
pub use rng::SplitMix64;
pub use settings::{
    closest_key, ConfigError, ConfigErrors, KeyGroup, KeySpec, LatLon, Look, LookFamily, Rgb,
    WorldCatalog, WorldSettings, KEYS,
};
pub use sphere::{direction, fibonacci, lat_lon_rad, random_directions, unit};
