//! The `worlds.json` keys: one table that the loader, the writer, the validator, the Godot
//! inspector and the README key tables are all read from. Adding a key is one row here plus
//! the stage that reads it.

use super::{LatLon, LookFamily, Num, Rgb, WorldSettings};
use serde_json::{Map, Value};

/// Which group of the inspector (and of the README's key table) a key belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyGroup {
    /// `name` and `seed`.
    Identity,
    /// The planet's size and ground: radius, relief, sea level, craters, rivers, lake.
    Shape,
    /// Switches that turn a whole part of the pipeline on or off.
    Subsystems,
    /// How the ground erodes when `erosion` is on: steps, stream power, diffusion, uplift.
    Erosion,
    /// The climate bias.
    Climate,
    /// Colours and look knobs read by the renderer and the shaders.
    Look,
}

impl KeyGroup {
    /// The group's title in the inspector and the README (`"Shape"`).
    pub fn title(self) -> &'static str {
        match self {
            KeyGroup::Identity => "Identity",
            KeyGroup::Shape => "Shape",
            KeyGroup::Subsystems => "Subsystems",
            KeyGroup::Erosion => "Erosion",
            KeyGroup::Climate => "Climate",
            KeyGroup::Look => "Look",
        }
    }
}

/// A range that depends on other keys (`relief_m` at most a tenth of `radius_m`).
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    /// The range as the README writes it, e.g. `10..=radius_m/10`.
    pub text: &'static str,
    /// The message when `world`'s value breaks the rule, `None` when it holds.
    pub check: fn(&WorldSettings) -> Option<String>,
}

/// What a key holds and which values the loader accepts.
#[derive(Debug, Clone, Copy)]
pub enum KeyKind {
    /// A world name: lowercase letters, digits and `_`.
    Name,
    /// A seed: any whole number that fits 64 bits unsigned.
    Seed,
    /// A whole number within `min..=max`.
    Count {
        /// Smallest accepted value.
        min: usize,
        /// Largest accepted value.
        max: usize,
    },
    /// A number. Without a `rule` the loader accepts `min..=max`; with one, the rule decides
    /// and `min..=max` only bounds the inspector's slider.
    Number {
        /// Smallest value (accepted, or offered by the inspector when `rule` is set).
        min: f64,
        /// Largest value (accepted, or offered by the inspector when `rule` is set).
        max: f64,
        /// The inspector's step.
        step: f64,
        /// Unit suffix (`"m"`, `"m²"`, `"°"`), empty for a plain number.
        unit: &'static str,
        /// Whether the inspector's slider is logarithmic (ranges over decades).
        log: bool,
        /// The range when it depends on other keys.
        rule: Option<Rule>,
    },
    /// `true` or `false`.
    Switch,
    /// A colour, `"#rrggbb"`.
    Colour,
    /// A look family by name (see [`LookFamily::ALL`]).
    Family,
    /// A place `{"lat_deg", "lon_deg"}` (degrees, -90..=90 and -180..=180) or `null`.
    Place,
}

const fn number(min: f64, max: f64, step: f64, unit: &'static str) -> KeyKind {
    KeyKind::Number { min, max, step, unit, log: false, rule: None }
}

const fn log_number(min: f64, max: f64, step: f64, unit: &'static str) -> KeyKind {
    KeyKind::Number { min, max, step, unit, log: true, rule: None }
}

const fn ruled(kind: KeyKind, text: &'static str, check: fn(&WorldSettings) -> Option<String>) -> KeyKind {
    match kind {
        KeyKind::Number { min, max, step, unit, log, .. } => {
            KeyKind::Number { min, max, step, unit, log, rule: Some(Rule { text, check }) }
        }
        other => other,
    }
}

/// One key's value, in the type its [`KeyKind`] holds.
#[derive(Debug, Clone, PartialEq)]
pub enum KeyValue {
    /// For [`KeyKind::Name`].
    Name(String),
    /// For [`KeyKind::Seed`].
    Seed(u64),
    /// For [`KeyKind::Count`].
    Count(usize),
    /// For [`KeyKind::Number`].
    Number(f64),
    /// For [`KeyKind::Switch`].
    Switch(bool),
    /// For [`KeyKind::Colour`].
    Colour(Rgb),
    /// For [`KeyKind::Family`].
    Family(LookFamily),
    /// For [`KeyKind::Place`].
    Place(Option<LatLon>),
}

impl KeyValue {
    /// The value as `worlds.json` writes it.
    pub fn to_json(&self) -> Value {
        match self {
            KeyValue::Name(s) => Value::String(s.clone()),
            KeyValue::Seed(n) => Value::from(*n),
            KeyValue::Count(n) => Value::from(*n),
            KeyValue::Number(x) => Value::from(*x),
            KeyValue::Switch(b) => Value::Bool(*b),
            KeyValue::Colour(c) => Value::String(c.to_string()),
            KeyValue::Family(f) => Value::String(f.name().to_owned()),
            KeyValue::Place(Some(p)) => serde_json::json!({"lat_deg": p.lat_deg, "lon_deg": p.lon_deg}),
            KeyValue::Place(None) => Value::Null,
        }
    }
}

/// One key of a world object: its names, group, meaning, kind, starting value and where it
/// lives in [`WorldSettings`].
#[derive(Debug, Clone, Copy)]
pub struct KeySpec {
    /// The key as written in `worlds.json`.
    pub name: &'static str,
    /// The Godot `WorldSettings` property (for a place, the prefix of its three properties
    /// `<prefix>_guaranteed`, `<prefix>_lat_deg`, `<prefix>_lon_deg`).
    pub inspector: &'static str,
    /// The inspector group.
    pub group: KeyGroup,
    /// What the key means, without its range (see [`KeySpec::range_text`]).
    pub doc: &'static str,
    /// What the key holds and which values are accepted.
    pub kind: KeyKind,
    starter: fn() -> KeyValue,
    get: fn(&WorldSettings) -> KeyValue,
    set: fn(&mut WorldSettings, KeyValue) -> bool,
}

impl KeySpec {
    /// The key's value in `world`.
    pub fn value(&self, world: &WorldSettings) -> KeyValue {
        (self.get)(world)
    }

    /// Sets the key in `world`; `false` (and nothing changed) when `value` is of another kind.
    pub fn set(&self, world: &mut WorldSettings, value: KeyValue) -> bool {
        (self.set)(world, value)
    }

    /// The key's value in [`WorldSettings::starter`] (the `home` world).
    pub fn starter(&self) -> KeyValue {
        (self.starter)()
    }

    /// The accepted values as the README writes them (`500..=1000000`, `"#rrggbb"`).
    pub fn range_text(&self) -> String {
        match self.kind {
            KeyKind::Name => "lowercase letters, digits and `_`; unique in the file".into(),
            KeyKind::Seed => "0..=18446744073709551615".into(),
            KeyKind::Count { min, max } => format!("{min}..={max}"),
            KeyKind::Number { rule: Some(rule), .. } => rule.text.into(),
            KeyKind::Number { min, max, .. } => format!("{}..={}", Num(min), Num(max)),
            KeyKind::Switch => "`true` or `false`".into(),
            KeyKind::Colour => "`\"#rrggbb\"`".into(),
            KeyKind::Family => {
                LookFamily::ALL.iter().map(|(_, n)| format!("`{n}`")).collect::<Vec<_>>().join(", ")
            }
            KeyKind::Place => "`{\"lat_deg\", \"lon_deg\"}` or `null`".into(),
        }
    }

    /// The unit the key is measured in (`"m"`), empty when it has none.
    pub fn unit(&self) -> &'static str {
        match self.kind {
            KeyKind::Number { unit, .. } => unit,
            KeyKind::Place => "°",
            _ => "",
        }
    }
}

/// Writes [`KEYS`] from rows `key [as "inspector"] => field.path: Group, Variant(kind) =
/// starter, "meaning";`, so each key is spelled once.
macro_rules! keys {
    ($( $key:ident $(as $inspector:literal)? => $($field:ident).+ : $group:ident,
        $variant:ident($kind:expr) = $starter:expr, $doc:literal; )*) => {
        /// Every key a world object must have, in the order they are read, checked and
        /// written back out.
        pub const KEYS: &[KeySpec] = &[$(KeySpec {
            name: stringify!($key),
            inspector: keys!(@inspector $key $($inspector)?),
            group: KeyGroup::$group,
            doc: $doc,
            kind: $kind,
            starter: || KeyValue::$variant($starter),
            get: |w| KeyValue::$variant(w.$($field).+.clone()),
            set: |w, v| match v {
                KeyValue::$variant(x) => {
                    w.$($field).+ = x;
                    true
                }
                _ => false,
            },
        }),*];
    };
    (@inspector $key:ident $inspector:literal) => { $inspector };
    (@inspector $key:ident) => { stringify!($key) };
}

const HOME_LAKE: LatLon = LatLon { lat_deg: 10.0, lon_deg: -52.0 };

#[rustfmt::skip]
keys! {
    name as "world_name" => name: Identity, Name(KeyKind::Name) = "home".to_owned(),
        "world name";
    seed => seed: Identity, Seed(KeyKind::Seed) = 7091,
        "seed of every random choice";
    radius_m => radius_m: Shape, Number(log_number(500.0, 1.0e6, 1.0, "m")) = 10_000.0,
        "radius of the datum sphere";
    relief_m => relief_m: Shape,
        Number(ruled(log_number(10.0, 1.0e5, 1.0, "m"), "10..=radius_m/10", relief_rule)) = 600.0,
        "how far the ground may stand above or below the datum";
    sea_level_m => sea_level_m: Shape,
        Number(ruled(number(-1.0e5, 1.0e5, 0.1, "m"), "within ±relief_m", sea_level_rule)) = -90.0,
        "sea surface relative to the datum";
    crater_depth_m => crater_depth_m: Shape,
        Number(ruled(number(0.0, 1.0e5, 0.1, "m"), "0..=relief_m", crater_rule)) = 40.0,
        "depth of the deepest crater";
    river_catchment_m2 => river_catchment_m2: Shape,
        Number(ruled(log_number(1.0, 1.0e9, 1.0, "m²"), "above 0, at most the planet's area", catchment_rule))
        = 600_000.0,
        "catchment a point needs to carry a river";
    lattice_nodes => lattice_nodes: Shape, Count(KeyKind::Count { min: 1000, max: 16_000_000 }) = 90_000,
        "points of the drainage lattice over the whole sphere (90,000 puts them about 118 m apart on a 10 km planet)";
    channel_depth_m => channel_depth_m: Shape, Number(number(0.5, 100.0, 0.1, "m")) = 12.0,
        "depth of the largest river's channel; the smallest cuts 30% of it";
    river_fill => river_fill: Shape, Number(number(0.1, 0.95, 0.01, "")) = 0.6,
        "how full a channel runs: its surface stands this fraction of the carve depth above the bed";
    lake_min_depth_m => lake_min_depth_m: Shape, Number(number(0.0, 100.0, 0.1, "m")) = 1.4,
        "a depression filled deeper than this is a lake";
    lake_at as "lake" => lake_at: Shape, Place(KeyKind::Place) = Some(HOME_LAKE),
        "where a lake basin is guaranteed, if anywhere";
    sea => sea: Subsystems, Switch(KeyKind::Switch) = true,
        "whether the sea sphere exists at sea_level_m";
    rivers => rivers: Subsystems, Switch(KeyKind::Switch) = true,
        "whether catchments above the threshold become rivers";
    lakes => lakes: Subsystems, Switch(KeyKind::Switch) = true,
        "whether depressions hold standing water";
    craters => craters: Subsystems, Switch(KeyKind::Switch) = false,
        "whether craters are cut into the ground";
    mesas => mesas: Subsystems, Switch(KeyKind::Switch) = true,
        "whether ridges are flattened into plateaus with cliff bands";
    erosion => erosion: Subsystems, Switch(KeyKind::Switch) = true,
        "whether the ground is made by rock uplift and rivers wearing it down (stream power); the lake's basin is kept";
    erosion_steps => erosion_steps: Erosion, Count(KeyKind::Count { min: 1, max: 500 }) = 30,
        "erosion steps of 10,000 years each";
    erosion_k => erosion_k: Erosion, Number(log_number(1.0e-8, 1.0e-3, 1.0e-8, "1/yr")) = 1.0e-5,
        "erodibility K of the stream-power law: rivers cut K·A^m·S metres a year (A in m²)";
    erosion_m => erosion_m: Erosion, Number(number(0.3, 0.7, 0.01, "")) = 0.5,
        "catchment exponent m of the stream-power law";
    erosion_diffusion_m2_yr => erosion_diffusion_m2_yr: Erosion, Number(number(0.0, 10.0, 0.001, "m²/yr")) = 0.0,
        "hillslope diffusivity: how fast slopes creep smooth";
    erosion_range_m => erosion_range_m: Erosion,
        Number(ruled(log_number(10.0, 1.0e5, 1.0, "m"), "10..=radius_m/4", range_rule)) = 500.0,
        "distance inland at which the coastal ranges rise highest";
    erosion_coastal => erosion_coastal: Erosion, Number(number(0.0, 1.0, 0.01, "")) = 0.85,
        "share of the uplift in coastal ranges (the rest follows the natural ground's height)";
    climate => climate: Climate, Number(number(-1.0, 1.0, 0.01, "")) = 0.2,
        "bias from cold and dry (-1) to hot and wet (+1)";
    look_family => look.family: Look, Family(KeyKind::Family) = LookFamily::Temperate,
        "which colouring rules apply";
    sea_color => look.sea_color: Look, Colour(KeyKind::Colour) = Rgb([0x1d, 0x4e, 0x7a]),
        "deep sea colour";
    shallows_color => look.shallows_color: Look, Colour(KeyKind::Colour) = Rgb([0x3f, 0x8f, 0xa8]),
        "shallow water colour";
    sand_color => look.sand_color: Look, Colour(KeyKind::Colour) = Rgb([0xd8, 0xc6, 0x90]),
        "beach and dune colour";
    grass_color => look.grass_color: Look, Colour(KeyKind::Colour) = Rgb([0x6f, 0x9a, 0x4a]),
        "open ground colour";
    forest_color => look.forest_color: Look, Colour(KeyKind::Colour) = Rgb([0x2f, 0x5a, 0x2c]),
        "forest colour";
    rock_color => look.rock_color: Look, Colour(KeyKind::Colour) = Rgb([0x7d, 0x74, 0x68]),
        "cliff and bare rock colour";
    snow_color => look.snow_color: Look, Colour(KeyKind::Colour) = Rgb([0xf2, 0xf4, 0xf7]),
        "snow and ice colour";
    sky_color => look.sky_color: Look, Colour(KeyKind::Colour) = Rgb([0x8f, 0xb8, 0xe0]),
        "sky and atmosphere colour";
    snow_line => look.snow_line: Look, Number(number(0.0, 1.0, 0.01, "")) = 0.72,
        "snow line at the equator, as a fraction of relief_m above the datum";
    cliff_slope_deg => look.cliff_slope_deg: Look, Number(number(5.0, 85.0, 0.5, "°")) = 38.0,
        "slope from which bare rock shows";
}

/// Whether `x` is finite and within `lo..=hi`.
pub(super) fn in_range(x: f64, lo: f64, hi: f64) -> bool {
    x.is_finite() && x >= lo && x <= hi
}

/// The largest relief `radius_m` allows: a tenth of it, at least 10 m.
fn max_relief(w: &WorldSettings) -> f64 {
    if w.radius_m.is_finite() {
        (w.radius_m / 10.0).max(10.0)
    } else {
        1.0e5
    }
}

/// How far from the datum `relief_m` lets the sea and the craters reach.
fn relief_bound(w: &WorldSettings) -> f64 {
    if w.relief_m.is_finite() {
        w.relief_m.abs()
    } else {
        0.0
    }
}

fn relief_rule(w: &WorldSettings) -> Option<String> {
    let (max, relief) = (max_relief(w), w.relief_m);
    (!in_range(relief, 10.0, max))
        .then(|| format!("relief_m must be within 10..=radius_m/10 ({}), got {}", Num(max), Num(relief)))
}

fn sea_level_rule(w: &WorldSettings) -> Option<String> {
    let (bound, sea) = (relief_bound(w), w.sea_level_m);
    (!in_range(sea, -bound, bound))
        .then(|| format!("sea_level_m must be within ±relief_m (±{}), got {}", Num(bound), Num(sea)))
}

fn crater_rule(w: &WorldSettings) -> Option<String> {
    let (bound, crater) = (relief_bound(w), w.crater_depth_m);
    (!in_range(crater, 0.0, bound))
        .then(|| format!("crater_depth_m must be within 0..=relief_m ({}), got {}", Num(bound), Num(crater)))
}

fn range_rule(w: &WorldSettings) -> Option<String> {
    let max = if w.radius_m.is_finite() { (w.radius_m.abs() / 4.0).max(10.0) } else { 1.0e5 };
    let range = w.erosion_range_m;
    (!in_range(range, 10.0, max))
        .then(|| format!("erosion_range_m must be within 10..=radius_m/4 ({}), got {}", Num(max), Num(range)))
}

fn catchment_rule(w: &WorldSettings) -> Option<String> {
    let r = w.radius_m;
    let area = if r.is_finite() { 4.0 * std::f64::consts::PI * r * r } else { f64::INFINITY };
    let catchment = w.river_catchment_m2;
    (!(catchment.is_finite() && catchment > 0.0 && catchment <= area)).then(|| {
        format!(
            "river_catchment_m2 must be above 0 and at most the planet's area ({}), got {}",
            Num(area.round()),
            Num(catchment)
        )
    })
}

impl WorldSettings {
    /// The `home` world from the shipped `worlds.json`: every key's starting value, as a new
    /// Godot `WorldSettings` resource shows it.
    pub fn starter() -> Self {
        let mut world = WorldSettings::default();
        for spec in KEYS {
            spec.set(&mut world, spec.starter());
        }
        world
    }

    /// The world as a JSON object with every key of [`KEYS`]; reading it back gives `self`.
    pub fn to_value(&self) -> Value {
        let object: Map<String, Value> =
            KEYS.iter().map(|spec| (spec.name.to_owned(), spec.value(self).to_json())).collect();
        Value::Object(object)
    }
}

/// The README's table of `worlds.json` keys: group, key, accepted values, meaning.
pub fn keys_markdown() -> String {
    let mut out = String::from("| group | key | values | meaning |\n|---|---|---|---|\n");
    let mut group = None;
    for spec in KEYS {
        let title = if group == Some(spec.group) { "" } else { spec.group.title() };
        group = Some(spec.group);
        let unit = match spec.unit() {
            "" => String::new(),
            u => format!(" ({u})"),
        };
        out += &format!("| {title} | `{}` | {}{unit} | {} |\n", spec.name, spec.range_text(), spec.doc);
    }
    out
}

/// The add-on README's table of Godot `WorldSettings` properties: group, property, unit,
/// meaning.
pub fn inspector_markdown() -> String {
    let mut out = String::from("| group | property | what it does |\n|---|---|---|\n");
    let mut group = None;
    for spec in KEYS {
        let title = if group == Some(spec.group) { "" } else { spec.group.title() };
        group = Some(spec.group);
        let p = spec.inspector;
        let names = match spec.kind {
            KeyKind::Place => format!("`{p}_guaranteed`, `{p}_lat_deg`, `{p}_lon_deg`"),
            _ => format!("`{p}`"),
        };
        let unit = match spec.unit() {
            "" => String::new(),
            u => format!(" ({u})"),
        };
        out += &format!("| {title} | {names}{unit} | {} |\n", spec.doc);
    }
    out
}
