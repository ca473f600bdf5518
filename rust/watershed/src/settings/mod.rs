//! One planet's settings, as read from `worlds.json`, and the strict loader that reads them.
//!
//! A worlds file is `{"worlds": [ {...}, ... ]}`; each world is one flat object whose keys are
//! listed in [`KEYS`]. Every key is required, none has a default, an unknown key is an error
//! naming the closest known key, and the loader reports every error in the file at once.

mod keys;
mod read;
mod strict;

pub use keys::{inspector_markdown, keys_markdown, KeyGroup, KeyKind, KeySpec, KeyValue, Rule, KEYS};

use serde_json::Value;
use sha2::{Digest, Sha256};
use std::fmt;

/// A colour as three 8-bit channels, written `"#rrggbb"` in `worlds.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Rgb(pub [u8; 3]);

impl Rgb {
    /// Parses `"#rrggbb"` (either case); `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        let hex = text.strip_prefix('#')?;
        if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
        Some(Rgb([channel(0)?, channel(2)?, channel(4)?]))
    }

    /// The channels as linear-in-file floats in 0..=1 (no gamma conversion).
    pub fn to_f64(self) -> [f64; 3] {
        self.0.map(|c| f64::from(c) / 255.0)
    }
}

impl fmt::Display for Rgb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [r, g, b] = self.0;
        write!(f, "#{r:02x}{g:02x}{b:02x}")
    }
}

/// A place on the planet in degrees: latitude north positive, longitude east positive.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LatLon {
    /// Latitude, degrees (-90..=90).
    pub lat_deg: f64,
    /// Longitude, degrees (-180..=180).
    pub lon_deg: f64,
}

/// The look family: which rules turn height, slope and latitude into ground colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LookFamily {
    /// Beaches, grass and forest on the shelves, rock on cliffs, snow on the ridges.
    #[default]
    Temperate,
    /// Ash plains and dark rock; vegetation only in wet lowlands.
    Volcanic,
    /// Dunes in the lowlands, no forest, banded rock strata.
    Desert,
    /// Snow reaching low ground towards the poles, sea ice at high latitude.
    Glacial,
}

impl LookFamily {
    /// Every family with its name in `worlds.json`.
    pub const ALL: [(LookFamily, &'static str); 4] = [
        (LookFamily::Temperate, "temperate"),
        (LookFamily::Volcanic, "volcanic"),
        (LookFamily::Desert, "desert"),
        (LookFamily::Glacial, "glacial"),
    ];

    /// The family's name in `worlds.json`.
    pub fn name(self) -> &'static str {
        Self::ALL.iter().find(|(f, _)| *f == self).map_or("temperate", |(_, n)| n)
    }
}

/// Colours and look knobs: read by the renderer and, later, by the terrain and ocean shaders.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Look {
    /// Which colouring rules apply.
    pub family: LookFamily,
    /// Deep sea colour.
    pub sea_color: Rgb,
    /// Shallow water colour.
    pub shallows_color: Rgb,
    /// Beach and dune colour.
    pub sand_color: Rgb,
    /// Open ground colour.
    pub grass_color: Rgb,
    /// Forest colour.
    pub forest_color: Rgb,
    /// Cliff and bare rock colour.
    pub rock_color: Rgb,
    /// Snow and ice colour.
    pub snow_color: Rgb,
    /// Sky and atmosphere colour.
    pub sky_color: Rgb,
    /// Snow line at the equator as a fraction of `relief_m` above the datum (0..=1).
    pub snow_line: f64,
    /// Slope from which bare rock shows, degrees.
    pub cliff_slope_deg: f64,
}

/// One planet: everything `worlds.json` says about it, validated.
///
/// `WorldSettings::default()` is the blank world the loader writes every key over (zeros,
/// an empty name): not a valid world. [`WorldSettings::starter`] is the `home` world.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct WorldSettings {
    /// World name, unique in its file.
    pub name: String,
    /// Seed of every random choice in the world.
    pub seed: u64,
    /// Radius of the datum sphere, metres.
    pub radius_m: f64,
    /// How far the ground may stand above or below the datum, metres.
    pub relief_m: f64,
    /// Sea surface relative to the datum, metres (negative: below it).
    pub sea_level_m: f64,
    /// Depth of the deepest crater, metres.
    pub crater_depth_m: f64,
    /// Catchment a point needs to carry a river, m².
    pub river_catchment_m2: f64,
    /// Points of the drainage lattice over the whole sphere.
    pub lattice_nodes: usize,
    /// Depth of the largest river's channel, metres (the smallest river cuts 30% of it).
    pub channel_depth_m: f64,
    /// How full a channel runs: the surface stands this fraction of the carve depth above
    /// the bed on the centre line (0.6: 40% of the depth below the original ground).
    pub river_fill: f64,
    /// A depression filled deeper than this is a lake, metres.
    pub lake_min_depth_m: f64,
    /// Where a lake basin is guaranteed, if anywhere.
    pub lake_at: Option<LatLon>,
    /// Whether the sea exists.
    pub sea: bool,
    /// Whether rivers form.
    pub rivers: bool,
    /// Whether depressions hold standing water.
    pub lakes: bool,
    /// Whether craters are cut into the ground.
    pub craters: bool,
    /// Whether ridges are flattened into plateaus with cliff bands.
    pub mesas: bool,
    /// Whether the ground is made by rock uplift and stream-power erosion.
    pub erosion: bool,
    /// Erosion steps of ten thousand years each.
    pub erosion_steps: usize,
    /// Erodibility `K` of the stream-power law, per year (area in m²).
    pub erosion_k: f64,
    /// Catchment exponent `m` of the stream-power law.
    pub erosion_m: f64,
    /// Hillslope diffusivity, m²/yr.
    pub erosion_diffusion_m2_yr: f64,
    /// Distance inland at which the coastal uplift peaks, metres.
    pub erosion_range_m: f64,
    /// Share of the uplift in coastal ranges, 0..=1 (the rest follows the natural ground).
    pub erosion_coastal: f64,
    /// Climate bias from cold and dry (-1) to hot and wet (+1).
    pub climate: f64,
    /// Colours and look knobs.
    pub look: Look,
}

impl WorldSettings {
    /// SHA-256 (hex) of the world's canonical JSON (keys sorted, shortest round-trip floats).
    pub fn digest(&self) -> String {
        hex(&Sha256::digest(self.to_value().to_string().as_bytes()))
    }
}

/// One problem in a worlds file: where it is and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// JSON path to the offending value, e.g. `worlds[0].sea_level_m`.
    pub path: String,
    /// The whole message, naming the world where there is one.
    pub message: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Every problem found in one worlds file, in file order.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct ConfigErrors(pub Vec<ConfigError>);

impl fmt::Display for ConfigErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

/// The worlds of one file, in file order.
#[derive(Debug, Clone, PartialEq)]
pub struct WorldCatalog {
    /// The worlds, names unique.
    pub worlds: Vec<WorldSettings>,
}

impl WorldCatalog {
    /// Parses and validates a whole worlds file.
    ///
    /// # Errors
    /// Every problem in the file — JSON syntax, a key written twice in one object, unknown
    /// or missing keys, wrong types, out-of-range values, duplicate names — one
    /// [`ConfigError`] each (a syntax error or a repeated key stops the reading: one error).
    /// Nesting deeper than 128 levels is a syntax error, never a stack overflow.
    pub fn from_json(text: &str) -> Result<Self, ConfigErrors> {
        let root = strict::parse_strict(text)?;
        let mut errors = Vec::new();
        let list = match &root {
            Value::Object(top) => {
                for k in top.keys().filter(|k| *k != "worlds") {
                    errors.push(ConfigError {
                        path: k.clone(),
                        message: format!(
                            "unknown top-level key '{}'; the file holds only \"worlds\"",
                            short(k)
                        ),
                    });
                }
                match top.get("worlds") {
                    Some(Value::Array(list)) => list.as_slice(),
                    Some(other) => {
                        errors.push(ConfigError {
                            path: "worlds".into(),
                            message: format!(
                                "worlds: expected an array of world objects, got {}",
                                kind(other)
                            ),
                        });
                        &[]
                    }
                    None => {
                        errors.push(ConfigError {
                            path: "worlds".into(),
                            message: "missing key 'worlds'".into(),
                        });
                        &[]
                    }
                }
            }
            other => {
                errors.push(ConfigError {
                    path: String::new(),
                    message: format!("expected an object {{\"worlds\": [...]}}, got {}", kind(other)),
                });
                &[]
            }
        };
        let mut worlds: Vec<WorldSettings> = Vec::new();
        for (i, value) in list.iter().enumerate() {
            let path = format!("worlds[{i}]");
            match WorldSettings::from_value(value, &path) {
                Ok(w) => {
                    if worlds.iter().any(|o| o.name == w.name) {
                        errors.push(ConfigError {
                            path: format!("{path}.name"),
                            message: format!("world '{}' ({path}.name): duplicate world name", w.name),
                        });
                    } else {
                        worlds.push(w);
                    }
                }
                Err(mut e) => errors.append(&mut e.0),
            }
        }
        if errors.is_empty() {
            Ok(WorldCatalog { worlds })
        } else {
            Err(ConfigErrors(errors))
        }
    }

    /// The world called `name`, if the file has one.
    pub fn get(&self, name: &str) -> Option<&WorldSettings> {
        self.worlds.iter().find(|w| w.name == name)
    }

    /// The world names in file order.
    pub fn names(&self) -> Vec<&str> {
        self.worlds.iter().map(|w| w.name.as_str()).collect()
    }
}

pub(crate) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A number as a message shows it: plain where that is short (`-900`, `0.95`), in
/// exponent form where plain would run to hundreds of digits (`1e308`, `5e-324`).
pub(crate) struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let x = self.0;
        if x == 0.0 || !x.is_finite() || (1e-4..1e16).contains(&x.abs()) {
            write!(f, "{x}")
        } else {
            write!(f, "{x:e}")
        }
    }
}

/// Text from the file as a message quotes it: whole up to 64 characters, else its first 48
/// and its length, so a megabyte-long key or colour does not become a megabyte-long error.
pub(crate) fn short(text: &str) -> String {
    let count = text.chars().count();
    if count <= 64 {
        text.to_owned()
    } else {
        let head: String = text.chars().take(48).collect();
        format!("{head}… ({count} characters)")
    }
}

/// Lowercase hex of a byte string.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
