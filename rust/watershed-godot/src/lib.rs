//! Watershed's Godot 4 extension: thin gdext shells over the `watershed` core.
//!
//! For now it registers the extension entry point only; the node classes
//! (`PlanetHeight`, `DrainageSolver`, `WaterTable`, `ReachCarver`) come with the add-on.

use godot::prelude::*;

/// The extension library Godot loads from `watershed.gdextension`.
struct WatershedExtension;

#[gdextension]
unsafe impl ExtensionLibrary for WatershedExtension {}
