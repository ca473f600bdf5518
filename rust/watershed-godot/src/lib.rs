//! Watershed's Godot 4 extension: thin gdext shells over the `watershed` core.
//!
//! Each class holds settings and a handle to core state, converts types and calls the core.
//! Heavy work runs on plain Rust data off the main thread; engine objects are touched on
//! the main thread only. The one exception is `WatershedVoxel`: static functions over a
//! handle registry that touch no engine object, so voxel worker threads may call them.

mod convert;
mod drainage_solver;
mod heightmap_watershed;
mod life_cache;
mod planet_height;
mod planet_life;
mod planet_scatter;
mod planet_terrain;
mod reach_carver;
mod registry;
mod voxel_bridge;
mod water_body;
mod water_table;
mod worker;
mod world_catalog;
mod world_settings;

use godot::prelude::*;

/// The extension library Godot loads from `watershed.gdextension`.
struct WatershedExtension;

#[gdextension]
unsafe impl ExtensionLibrary for WatershedExtension {}
