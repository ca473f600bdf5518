//! One planet's settings, as read from `worlds.json`, and the strict loader that reads them.
//!
//! A worlds file is `{"worlds": [ {...}, ... ]}`; each world is one flat object whose keys are
//! listed in [`KEYS`]. Every key is required, none has a default, an unknown key is an error
//! naming the closest known key, and the loader reports every error in the file at once.

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::cell::RefCell;
use std::fmt;

/// Which group of the inspector (and of this file's docs) a key belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyGroup {
    /// `name` and `seed`.
    Identity,
    /// The planet's size and ground: radius, relief, sea level, craters, rivers, lake.
    Shape,
    /// Switches that turn a whole part of the pipeline on or off.
    Subsystems,
    /// The climate bias.
    Climate,
    /// Colours and look knobs read by the renderer and the shaders.
    Look,
}

/// One key of a world object: its name, its group and a one-line description with units.
#[derive(Debug, Clone, Copy)]
pub struct KeySpec {
    /// The key as written in `worlds.json`.
    pub name: &'static str,
    /// The inspector group.
    pub group: KeyGroup,
    /// What the key means, with its unit and range.
    pub doc: &'static str,
}

const fn key(name: &'static str, group: KeyGroup, doc: &'static str) -> KeySpec {
    KeySpec { name, group, doc }
}

/// Every key a world object must have, in the order they are written back out.
#[rustfmt::skip]
pub const KEYS: &[KeySpec] = &[
    key("name", KeyGroup::Identity, "world name: lowercase letters, digits and '_', unique in the file"),
    key("seed", KeyGroup::Identity, "seed of every random choice: any integer 0..=18446744073709551615"),
    key("radius_m", KeyGroup::Shape, "radius of the datum sphere, metres (500..=1000000)"),
    key("relief_m", KeyGroup::Shape, "how far the ground may stand above or below the datum, metres (10..=radius_m/10)"),
    key("sea_level_m", KeyGroup::Shape, "sea surface relative to the datum, metres (within ±relief_m)"),
    key("crater_depth_m", KeyGroup::Shape, "depth of the deepest crater, metres (0..=relief_m)"),
    key("river_catchment_m2", KeyGroup::Shape, "catchment a point needs to carry a river, square metres (> 0)"),
    key("lattice_nodes", KeyGroup::Shape, "points of the drainage lattice over the whole sphere (1000..=16000000)"),
    key("channel_depth_m", KeyGroup::Shape, "depth of the largest river's channel, metres (0.5..=100)"),
    key("river_fill", KeyGroup::Shape, "how full a channel runs: its surface stands this fraction of the carve depth above the bed (0.1..=0.95)"),
    key("lake_min_depth_m", KeyGroup::Shape, "a depression filled deeper than this is a lake, metres (0..=100)"),
    key("lake_at", KeyGroup::Shape, "where a lake basin is guaranteed: {\"lat_deg\", \"lon_deg\"} or null"),
    key("sea", KeyGroup::Subsystems, "whether the sea sphere exists at sea_level_m"),
    key("rivers", KeyGroup::Subsystems, "whether catchments above the threshold become rivers"),
    key("lakes", KeyGroup::Subsystems, "whether depressions hold standing water"),
    key("craters", KeyGroup::Subsystems, "whether craters are cut into the ground"),
    key("mesas", KeyGroup::Subsystems, "whether ridges are flattened into plateaus with cliff bands"),
    key("erosion", KeyGroup::Subsystems, "whether valley floors are smoothed as if eroded and filled"),
    key("climate", KeyGroup::Climate, "bias from cold and dry (-1) to hot and wet (+1)"),
    key("look_family", KeyGroup::Look, "look family: temperate, volcanic, desert or glacial"),
    key("sea_color", KeyGroup::Look, "deep sea colour, \"#rrggbb\""),
    key("shallows_color", KeyGroup::Look, "shallow water colour, \"#rrggbb\""),
    key("sand_color", KeyGroup::Look, "beach and dune colour, \"#rrggbb\""),
    key("grass_color", KeyGroup::Look, "open ground colour, \"#rrggbb\""),
    key("forest_color", KeyGroup::Look, "forest colour, \"#rrggbb\""),
    key("rock_color", KeyGroup::Look, "cliff and bare rock colour, \"#rrggbb\""),
    key("snow_color", KeyGroup::Look, "snow and ice colour, \"#rrggbb\""),
    key("sky_color", KeyGroup::Look, "sky and atmosphere colour, \"#rrggbb\""),
    key("snow_line", KeyGroup::Look, "snow line as a fraction of relief_m above the datum, at the equator (0..=1)"),
    key("cliff_slope_deg", KeyGroup::Look, "slope from which bare rock shows, degrees (5..=85)"),
];

/// A colour as three 8-bit channels, written `"#rrggbb"` in `worlds.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LatLon {
    /// Latitude, degrees (-90..=90).
    pub lat_deg: f64,
    /// Longitude, degrees (-180..=180).
    pub lon_deg: f64,
}

/// The look family: which rules turn height, slope and latitude into ground colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LookFamily {
    /// Beaches, grass and forest on the shelves, rock on cliffs, snow on the ridges.
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
#[derive(Debug, Clone, PartialEq)]
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
#[derive(Debug, Clone, PartialEq)]
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
    /// Whether valley floors are smoothed as if eroded.
    pub erosion: bool,
    /// Climate bias from cold and dry (-1) to hot and wet (+1).
    pub climate: f64,
    /// Colours and look knobs.
    pub look: Look,
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
        let root = parse_strict(text)?;
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

/// Parses JSON text like `serde_json::from_str`, except that a key written twice in one
/// object is an error naming its path (serde_json would keep the last one silently).
fn parse_strict(text: &str) -> Result<Value, ConfigErrors> {
    let repeated = RefCell::new(None);
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed = Strict { at: &JsonPath::Root, repeated: &repeated }.deserialize(&mut de).and_then(|v| {
        de.end()?;
        Ok(v)
    });
    parsed.map_err(|e| {
        let (path, message) = match repeated.take() {
            Some(path) => (path, e.to_string()),
            None => (String::new(), format!("not valid JSON: {e}")),
        };
        ConfigErrors(vec![ConfigError { path, message }])
    })
}

/// Where a value sits in the document, built only when an error needs it.
enum JsonPath<'a> {
    Root,
    Index(&'a JsonPath<'a>, usize),
    Key(&'a JsonPath<'a>, &'a str),
}

impl fmt::Display for JsonPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonPath::Root => Ok(()),
            JsonPath::Index(up, i) => write!(f, "{up}[{i}]"),
            JsonPath::Key(JsonPath::Root, k) => f.write_str(k),
            JsonPath::Key(up, k) => write!(f, "{up}.{k}"),
        }
    }
}

/// One JSON value read into a [`Value`], refusing repeated keys (their path goes to
/// `repeated`). serde_json's recursion limit still applies to every nested level.
struct Strict<'a> {
    at: &'a JsonPath<'a>,
    repeated: &'a RefCell<Option<String>>,
}

impl<'de> DeserializeSeed<'de> for Strict<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Strict<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::new();
        while let Some(v) = seq
            .next_element_seed(Strict { at: &JsonPath::Index(self.at, out.len()), repeated: self.repeated })?
        {
            out.push(v);
        }
        Ok(Value::Array(out))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let at = JsonPath::Key(self.at, &key);
            if out.contains_key(&key) {
                let path = at.to_string();
                let message =
                    format!("{}: key '{}' is written twice in one object", short(&path), short(&key));
                self.repeated.replace(Some(path));
                return Err(de::Error::custom(message));
            }
            let value = map.next_value_seed(Strict { at: &at, repeated: self.repeated })?;
            out.insert(key, value);
        }
        Ok(Value::Object(out))
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// The known key closest to `unknown` by edit distance (ties: the earlier key).
///
/// # Complexity
/// O(key length) with the length capped at 64 characters: no known key is near one longer.
pub fn closest_key(unknown: &str) -> &'static str {
    let unknown = match unknown.char_indices().nth(64) {
        Some((end, _)) => &unknown[..end],
        None => unknown,
    };
    KEYS.iter()
        .map(|k| (strsim::levenshtein(unknown, k.name), k.name))
        .min_by_key(|(d, _)| *d)
        .map_or("name", |(_, n)| n)
}

/// Reads typed values out of one world object, collecting an error for each bad one.
struct Reader<'a> {
    object: &'a Map<String, Value>,
    label: String,
    path: &'a str,
    errors: Vec<ConfigError>,
}

impl Reader<'_> {
    fn fail(&mut self, key: &str, message: String) {
        self.errors.push(ConfigError {
            path: format!("{}.{key}", self.path),
            message: format!("{} ({}.{key}): {message}", self.label, self.path),
        });
    }

    fn get(&mut self, key: &str) -> Option<&Value> {
        let value = self.object.get(key);
        if value.is_none() {
            self.fail(key, format!("missing key '{key}'"));
        }
        value
    }

    fn number(&mut self, key: &str) -> f64 {
        match self.get(key).map(|v| (v.as_f64(), kind(v))) {
            Some((Some(x), _)) => x,
            Some((None, got)) => {
                self.fail(key, format!("expected a number, got {got}"));
                f64::NAN
            }
            None => f64::NAN,
        }
    }

    fn boolean(&mut self, key: &str) -> bool {
        match self.get(key).map(|v| (v.as_bool(), kind(v))) {
            Some((Some(b), _)) => b,
            Some((None, got)) => {
                self.fail(key, format!("expected true or false, got {got}"));
                false
            }
            None => false,
        }
    }

    fn string(&mut self, key: &str) -> Option<String> {
        match self.get(key).map(|v| (v.as_str().map(str::to_owned), kind(v))) {
            Some((Some(s), _)) => Some(s),
            Some((None, got)) => {
                self.fail(key, format!("expected a string, got {got}"));
                None
            }
            None => None,
        }
    }

    fn color(&mut self, key: &str) -> Rgb {
        let text = self.string(key);
        match text.as_deref().map(|t| (Rgb::parse(t), t)) {
            Some((Some(c), _)) => c,
            Some((None, t)) => {
                self.fail(key, format!("expected a colour \"#rrggbb\", got \"{}\"", short(t)));
                Rgb([0; 3])
            }
            None => Rgb([0; 3]),
        }
    }

    fn unsigned(&mut self, key: &str) -> u64 {
        match self.get(key).map(|v| (v.as_u64(), v.to_string())) {
            Some((Some(s), _)) => s,
            Some((None, got)) => {
                self.fail(
                    key,
                    format!("expected a whole number in 0..=18446744073709551615, got {}", short(&got)),
                );
                0
            }
            None => 0,
        }
    }

    fn lat_lon(&mut self, key: &str) -> Option<LatLon> {
        let value = self.get(key)?.clone();
        match value {
            Value::Null => None,
            Value::Object(o) => {
                for k in o.keys().filter(|k| *k != "lat_deg" && *k != "lon_deg") {
                    self.fail(
                        key,
                        format!("unknown key '{}' in a place; expected lat_deg and lon_deg", short(k)),
                    );
                }
                let mut part = |name: &str| match o.get(name) {
                    Some(v) if v.is_number() => v.as_f64().unwrap_or(f64::NAN),
                    Some(v) => {
                        self.fail(&format!("{key}.{name}"), format!("expected a number, got {}", kind(v)));
                        f64::NAN
                    }
                    None => {
                        self.fail(&format!("{key}.{name}"), format!("missing key '{name}'"));
                        f64::NAN
                    }
                };
                let lat_deg = part("lat_deg");
                let lon_deg = part("lon_deg");
                Some(LatLon { lat_deg, lon_deg })
            }
            other => {
                self.fail(
                    key,
                    format!("expected {{\"lat_deg\": .., \"lon_deg\": ..}} or null, got {}", kind(&other)),
                );
                None
            }
        }
    }
}

impl WorldSettings {
    /// Reads one world object; `path` (e.g. `worlds[3]`) prefixes every error's location.
    ///
    /// # Errors
    /// Every problem in the object: unknown keys (with the closest known key), missing keys,
    /// wrong types and every [`WorldSettings::validate`] failure.
    pub fn from_value(value: &Value, path: &str) -> Result<Self, ConfigErrors> {
        let Value::Object(object) = value else {
            return Err(ConfigErrors(vec![ConfigError {
                path: path.to_owned(),
                message: format!("{path}: expected a world object, got {}", kind(value)),
            }]));
        };
        let label = match object.get("name").and_then(Value::as_str) {
            Some(n) => format!("world '{}'", short(n)),
            None => format!("world {path}"),
        };
        let mut r = Reader { object, label: label.clone(), path, errors: Vec::new() };
        for k in object.keys() {
            if !KEYS.iter().any(|s| s.name == k) {
                r.errors.push(ConfigError {
                    path: format!("{path}.{k}"),
                    message: format!(
                        "{label}: unknown key '{}'; did you mean '{}'?",
                        short(k),
                        closest_key(k)
                    ),
                });
            }
        }
        let family_name = r.string("look_family");
        let family = match family_name.as_deref() {
            None => LookFamily::Temperate,
            Some(n) => match LookFamily::ALL.iter().find(|(_, name)| *name == n) {
                Some((f, _)) => *f,
                None => {
                    let names: Vec<&str> = LookFamily::ALL.iter().map(|(_, n)| *n).collect();
                    r.fail(
                        "look_family",
                        format!("expected one of {}, got \"{}\"", names.join(", "), short(n)),
                    );
                    LookFamily::Temperate
                }
            },
        };
        let world = WorldSettings {
            name: r.string("name").unwrap_or_default(),
            seed: r.unsigned("seed"),
            radius_m: r.number("radius_m"),
            relief_m: r.number("relief_m"),
            sea_level_m: r.number("sea_level_m"),
            crater_depth_m: r.number("crater_depth_m"),
            river_catchment_m2: r.number("river_catchment_m2"),
            lattice_nodes: r.unsigned("lattice_nodes") as usize,
            channel_depth_m: r.number("channel_depth_m"),
            river_fill: r.number("river_fill"),
            lake_min_depth_m: r.number("lake_min_depth_m"),
            lake_at: r.lat_lon("lake_at"),
            sea: r.boolean("sea"),
            rivers: r.boolean("rivers"),
            lakes: r.boolean("lakes"),
            craters: r.boolean("craters"),
            mesas: r.boolean("mesas"),
            erosion: r.boolean("erosion"),
            climate: r.number("climate"),
            look: Look {
                family,
                sea_color: r.color("sea_color"),
                shallows_color: r.color("shallows_color"),
                sand_color: r.color("sand_color"),
                grass_color: r.color("grass_color"),
                forest_color: r.color("forest_color"),
                rock_color: r.color("rock_color"),
                snow_color: r.color("snow_color"),
                sky_color: r.color("sky_color"),
                snow_line: r.number("snow_line"),
                cliff_slope_deg: r.number("cliff_slope_deg"),
            },
        };
        let mut errors = r.errors;
        // Range checks only on values that parsed: a missing key is reported once, not twice.
        let parsed = |key: &str| {
            let at = format!("{path}.{key}");
            !errors.iter().any(|e: &ConfigError| e.path == at || e.path.starts_with(&format!("{at}.")))
        };
        let range_errors: Vec<ConfigError> = world
            .validate()
            .into_iter()
            .filter(|e| parsed(e.path.split('.').next().unwrap_or_default()))
            .map(|e| ConfigError {
                message: format!("{label} ({path}.{}): {}", e.path, e.message),
                path: format!("{path}.{}", e.path),
            })
            .collect();
        errors.extend(range_errors);
        if errors.is_empty() {
            Ok(world)
        } else {
            Err(ConfigErrors(errors))
        }
    }

    /// Checks every value's range; each error's `path` is the key (e.g. `lake_at.lat_deg`)
    /// and its `message` says the allowed range and the value found.
    pub fn validate(&self) -> Vec<ConfigError> {
        let mut errors = Vec::new();
        let mut check = |ok: bool, path: &str, message: String| {
            if !ok {
                errors.push(ConfigError { path: path.to_owned(), message });
            }
        };
        let in_range = |x: f64, lo: f64, hi: f64| x.is_finite() && x >= lo && x <= hi;
        let n = &self.name;
        check(
            !n.is_empty() && n.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_'),
            "name",
            format!("name must be lowercase letters, digits and '_', got \"{}\"", short(n)),
        );
        let r = self.radius_m;
        check(
            in_range(r, 500.0, 1.0e6),
            "radius_m",
            format!("radius_m must be within 500..=1000000, got {}", Num(r)),
        );
        let max_relief = if r.is_finite() { (r / 10.0).max(10.0) } else { 1.0e5 };
        let relief = self.relief_m;
        check(
            in_range(relief, 10.0, max_relief),
            "relief_m",
            format!("relief_m must be within 10..=radius_m/10 ({}), got {}", Num(max_relief), Num(relief)),
        );
        let bound = if relief.is_finite() { relief.abs() } else { 0.0 };
        let sea = self.sea_level_m;
        check(
            in_range(sea, -bound, bound),
            "sea_level_m",
            format!("sea_level_m must be within ±relief_m (±{}), got {}", Num(bound), Num(sea)),
        );
        let crater = self.crater_depth_m;
        check(
            in_range(crater, 0.0, bound),
            "crater_depth_m",
            format!("crater_depth_m must be within 0..=relief_m ({}), got {}", Num(bound), Num(crater)),
        );
        let area = if r.is_finite() { 4.0 * std::f64::consts::PI * r * r } else { f64::INFINITY };
        let catchment = self.river_catchment_m2;
        check(
            catchment.is_finite() && catchment > 0.0 && catchment <= area,
            "river_catchment_m2",
            format!(
                "river_catchment_m2 must be above 0 and at most the planet's area ({}), got {}",
                Num(area.round()),
                Num(catchment)
            ),
        );
        let nodes = self.lattice_nodes;
        check(
            (1000..=16_000_000).contains(&nodes),
            "lattice_nodes",
            format!("lattice_nodes must be within 1000..=16000000, got {nodes}"),
        );
        let channel = self.channel_depth_m;
        check(
            in_range(channel, 0.5, 100.0),
            "channel_depth_m",
            format!("channel_depth_m must be within 0.5..=100, got {}", Num(channel)),
        );
        let fill = self.river_fill;
        check(
            in_range(fill, 0.1, 0.95),
            "river_fill",
            format!("river_fill must be within 0.1..=0.95, got {}", Num(fill)),
        );
        let lake = self.lake_min_depth_m;
        check(
            in_range(lake, 0.0, 100.0),
            "lake_min_depth_m",
            format!("lake_min_depth_m must be within 0..=100, got {}", Num(lake)),
        );
        if let Some(p) = self.lake_at {
            let (lat, lon) = (p.lat_deg, p.lon_deg);
            check(
                in_range(lat, -90.0, 90.0),
                "lake_at.lat_deg",
                format!("lat_deg must be within -90..=90, got {}", Num(lat)),
            );
            check(
                in_range(lon, -180.0, 180.0),
                "lake_at.lon_deg",
                format!("lon_deg must be within -180..=180, got {}", Num(lon)),
            );
        }
        let c = self.climate;
        check(in_range(c, -1.0, 1.0), "climate", format!("climate must be within -1..=1, got {}", Num(c)));
        let s = self.look.snow_line;
        check(in_range(s, 0.0, 1.0), "snow_line", format!("snow_line must be within 0..=1, got {}", Num(s)));
        let cl = self.look.cliff_slope_deg;
        check(
            in_range(cl, 5.0, 85.0),
            "cliff_slope_deg",
            format!("cliff_slope_deg must be within 5..=85, got {}", Num(cl)),
        );
        errors
    }

    /// The world as a JSON object with every key of [`KEYS`]; reading it back gives `self`.
    pub fn to_value(&self) -> Value {
        let look = &self.look;
        let lake = match self.lake_at {
            Some(p) => serde_json::json!({"lat_deg": p.lat_deg, "lon_deg": p.lon_deg}),
            None => Value::Null,
        };
        let colour = |c: Rgb| Value::String(c.to_string());
        serde_json::json!({
            "name": self.name,
            "seed": self.seed,
            "radius_m": self.radius_m,
            "relief_m": self.relief_m,
            "sea_level_m": self.sea_level_m,
            "crater_depth_m": self.crater_depth_m,
            "river_catchment_m2": self.river_catchment_m2,
            "lattice_nodes": self.lattice_nodes,
            "channel_depth_m": self.channel_depth_m,
            "river_fill": self.river_fill,
            "lake_min_depth_m": self.lake_min_depth_m,
            "lake_at": lake,
            "sea": self.sea,
            "rivers": self.rivers,
            "lakes": self.lakes,
            "craters": self.craters,
            "mesas": self.mesas,
            "erosion": self.erosion,
            "climate": self.climate,
            "look_family": look.family.name(),
            "sea_color": colour(look.sea_color),
            "shallows_color": colour(look.shallows_color),
            "sand_color": colour(look.sand_color),
            "grass_color": colour(look.grass_color),
            "forest_color": colour(look.forest_color),
            "rock_color": colour(look.rock_color),
            "snow_color": colour(look.snow_color),
            "sky_color": colour(look.sky_color),
            "snow_line": look.snow_line,
            "cliff_slope_deg": look.cliff_slope_deg,
        })
    }

    /// SHA-256 (hex) of the world's canonical JSON (keys sorted, shortest round-trip floats).
    pub fn digest(&self) -> String {
        hex(&Sha256::digest(self.to_value().to_string().as_bytes()))
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
fn short(text: &str) -> String {
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
