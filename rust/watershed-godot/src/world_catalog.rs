//! `WorldCatalog`: the worlds of a `worlds.json`, validated by the core loader.

use crate::world_settings::WorldSettings;
use godot::classes::FileAccess;
use godot::prelude::*;
use watershed::WorldCatalog as CoreCatalog;

/// The worlds of one `worlds.json`. `load()` reads and validates the file; on failure
/// `errors()` holds the same messages `watershed check` prints and no world is available.
#[derive(GodotClass)]
#[class(init, base = RefCounted)]
pub struct WorldCatalog {
    catalog: Option<CoreCatalog>,
    errors: Vec<String>,
    base: Base<RefCounted>,
}

/// The file `load("")` reads.
const DEFAULT_PATH: &str = "res://worlds.json";

#[godot_api]
impl WorldCatalog {
    /// Reads and validates `path` (`res://worlds.json` when empty). Returns whether every
    /// world is valid; errors are pushed to the debugger and kept in `errors()`.
    #[func]
    fn load(&mut self, path: GString) -> bool {
        let path = if path.is_empty() { GString::from(DEFAULT_PATH) } else { path };
        self.catalog = None;
        self.errors.clear();
        if !FileAccess::file_exists(&path) {
            self.errors.push(format!("{path}: no such file"));
        } else {
            match CoreCatalog::from_json(&FileAccess::get_file_as_string(&path).to_string()) {
                Ok(c) => self.catalog = Some(c),
                Err(e) => self.errors = e.0.into_iter().map(|e| e.message).collect(),
            }
        }
        for e in &self.errors {
            godot_error!("WorldCatalog: {e}");
        }
        self.catalog.is_some()
    }

    /// The world names in file order (empty until a successful `load()`).
    #[func]
    fn names(&self) -> PackedStringArray {
        let names: Vec<GString> = self.catalog.iter().flat_map(|c| c.names()).map(GString::from).collect();
        PackedStringArray::from(names)
    }

    /// A new `WorldSettings` for world `name`, or null (with an error) when there is none.
    #[func]
    fn get_world(&self, name: GString) -> Option<Gd<WorldSettings>> {
        let found = self.catalog.as_ref().and_then(|c| c.get(&name.to_string()));
        if found.is_none() {
            godot_error!("WorldCatalog: no world '{name}'");
        }
        found.map(WorldSettings::from_core)
    }

    /// The validation errors of the last `load()`, one message each.
    #[func]
    fn errors(&self) -> PackedStringArray {
        let errors: Vec<GString> = self.errors.iter().map(|e| GString::from(e.as_str())).collect();
        PackedStringArray::from(errors)
    }
}
