//! Watershed: planets whose water obeys real hydrology — the pure-Rust core.
//!
//! 1. [`settings`](WorldCatalog) — `worlds.json`, read strictly into [`WorldSettings`].

#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod settings;
pub mod testkit;

pub use settings::{
    closest_key, ConfigError, ConfigErrors, KeyGroup, KeySpec, LatLon, Look, LookFamily, Rgb,
    WorldCatalog, WorldSettings, KEYS,
};
