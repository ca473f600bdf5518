//! `WorldSettings`: one planet's settings as an inspector-editable, savable Resource.

use crate::convert::{from_color, to_color};
use godot::prelude::*;
use watershed::{LatLon, Look, LookFamily};

/// One planet: every `worlds.json` key as a property, grouped as in the file. Save it as a
/// `.tres`, or get one from a `WorldCatalog`. Emits `changed` whenever a property is edited;
/// nodes holding it regenerate once, deferred.
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct WorldSettings {
    /// World name: lowercase letters, digits and `_`.
    #[export_group(name = "Identity")]
    #[export]
    #[init(val = GString::from("home"))]
    world_name: GString,
    /// Seed of every random choice (the 64 bits of a u64; negative values are the upper half).
    #[export]
    #[init(val = 7091)]
    seed: i64,

    /// Radius of the datum sphere.
    #[export_group(name = "Shape")]
    #[export(range = (500.0, 1000000.0, 1.0, exp, suffix = "m"))]
    #[init(val = 10000.0)]
    radius_m: f64,
    /// How far the ground may stand above or below the datum (at most a tenth of the radius).
    #[export(range = (10.0, 100000.0, 1.0, exp, suffix = "m"))]
    #[init(val = 600.0)]
    relief_m: f64,
    /// The sea surface relative to the datum (within ±relief).
    #[export(range = (-100000.0, 100000.0, 0.1, suffix = "m"))]
    #[init(val = -90.0)]
    sea_level_m: f64,
    /// Depth of the deepest crater (at most the relief).
    #[export(range = (0.0, 100000.0, 0.1, suffix = "m"))]
    #[init(val = 40.0)]
    crater_depth_m: f64,
    /// Catchment a point needs to carry a river.
    #[export(range = (1.0, 1000000000.0, 1.0, exp, suffix = "m²"))]
    #[init(val = 600000.0)]
    river_catchment_m2: f64,
    /// Points of the drainage lattice over the whole sphere (90,000 puts them about 118 m apart on a 10 km planet).
    #[export(range = (1000.0, 16000000.0, 1.0, exp))]
    #[init(val = 90000)]
    lattice_nodes: i64,
    /// Depth of the largest river's channel; the smallest cuts 30% of it.
    #[export(range = (0.5, 100.0, 0.1, suffix = "m"))]
    #[init(val = 12.0)]
    channel_depth_m: f64,
    /// How full a channel runs: the surface stands this fraction of the carve depth above the bed.
    #[export(range = (0.1, 0.95, 0.01))]
    #[init(val = 0.6)]
    river_fill: f64,
    /// A depression filled deeper than this is a lake.
    #[export(range = (0.0, 100.0, 0.1, suffix = "m"))]
    #[init(val = 1.4)]
    lake_min_depth_m: f64,
    /// Whether a lake basin is guaranteed at the latitude and longitude below.
    #[export]
    #[init(val = true)]
    lake_guaranteed: bool,
    /// Latitude of the guaranteed lake, north positive.
    #[export(range = (-90.0, 90.0, 0.01, suffix = "°"))]
    #[init(val = 10.0)]
    lake_lat_deg: f64,
    /// Longitude of the guaranteed lake, east positive.
    #[export(range = (-180.0, 180.0, 0.01, suffix = "°"))]
    #[init(val = -52.0)]
    lake_lon_deg: f64,

    /// Whether the sea sphere exists at the sea level.
    #[export_group(name = "Subsystems")]
    #[export]
    #[init(val = true)]
    sea: bool,
    /// Whether catchments above the threshold become rivers.
    #[export]
    #[init(val = true)]
    rivers: bool,
    /// Whether depressions hold standing water.
    #[export]
    #[init(val = true)]
    lakes: bool,
    /// Whether craters are cut into the ground.
    #[export]
    craters: bool,
    /// Whether ridges are flattened into plateaus with cliff bands.
    #[export]
    #[init(val = true)]
    mesas: bool,
    /// Whether valley floors are smoothed as if eroded.
    #[export]
    #[init(val = true)]
    erosion: bool,

    /// Bias from cold and dry (-1) to hot and wet (+1): snow line, forests, river discharge.
    #[export_group(name = "Climate")]
    #[export(range = (-1.0, 1.0, 0.01))]
    #[init(val = 0.2)]
    climate: f64,

    /// Which colouring rules apply.
    #[export_group(name = "Look")]
    #[export(enum = (Temperate = 0, Volcanic = 1, Desert = 2, Glacial = 3))]
    look_family: i64,
    /// Deep sea colour.
    #[export(color_no_alpha)]
    #[init(val = Color::from_rgb(0.114, 0.306, 0.478))]
    sea_color: Color,
    /// Shallow water colour.
    #[export(color_no_alpha)]
    #[init(val = Color::from_rgb(0.247, 0.561, 0.659))]
    shallows_color: Color,
    /// Beach and dune colour.
    #[export(color_no_alpha)]
    #[init(val = Color::from_rgb(0.847, 0.776, 0.565))]
    sand_color: Color,
    /// Open ground colour.
    #[export(color_no_alpha)]
    #[init(val = Color::from_rgb(0.435, 0.604, 0.290))]
    grass_color: Color,
    /// Forest colour.
    #[export(color_no_alpha)]
    #[init(val = Color::from_rgb(0.184, 0.353, 0.173))]
    forest_color: Color,
    /// Cliff and bare rock colour.
    #[export(color_no_alpha)]
    #[init(val = Color::from_rgb(0.490, 0.455, 0.408))]
    rock_color: Color,
    /// Snow and ice colour.
    #[export(color_no_alpha)]
    #[init(val = Color::from_rgb(0.949, 0.957, 0.969))]
    snow_color: Color,
    /// Sky and atmosphere colour.
    #[export(color_no_alpha)]
    #[init(val = Color::from_rgb(0.561, 0.722, 0.878))]
    sky_color: Color,
    /// Snow line at the equator as a fraction of the relief above the datum.
    #[export(range = (0.0, 1.0, 0.01))]
    #[init(val = 0.72)]
    snow_line: f64,
    /// Slope from which bare rock shows.
    #[export(range = (5.0, 85.0, 0.5, suffix = "°"))]
    #[init(val = 38.0)]
    cliff_slope_deg: f64,

    base: Base<Resource>,
}

#[godot_api]
impl IResource for WorldSettings {
    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        // Any property edit: tell holders once the value is in (deferred), then let Godot set it.
        self.base_mut().call_deferred("emit_changed", &[]);
        false
    }
}

#[godot_api]
impl WorldSettings {
    /// Every problem with the current values, one message each (the same messages as
    /// `watershed check`); empty when the settings are valid.
    #[func]
    fn validate(&self) -> PackedStringArray {
        let errors: Vec<GString> =
            self.to_core().validate().iter().map(|e| GString::from(e.message.as_str())).collect();
        PackedStringArray::from(errors)
    }

    /// The settings as one `worlds.json` world object.
    #[func]
    fn to_json(&self) -> GString {
        GString::from(self.to_core().to_value().to_string().as_str())
    }

    /// SHA-256 (hex) of the settings' canonical JSON.
    #[func]
    fn settings_digest(&self) -> GString {
        GString::from(self.to_core().digest().as_str())
    }
}

impl WorldSettings {
    /// The core settings these properties describe (not validated).
    pub fn to_core(&self) -> watershed::WorldSettings {
        let family = LookFamily::ALL
            .get(self.look_family.clamp(0, 3) as usize)
            .map_or(LookFamily::Temperate, |(f, _)| *f);
        watershed::WorldSettings {
            name: self.world_name.to_string(),
            seed: self.seed as u64,
            radius_m: self.radius_m,
            relief_m: self.relief_m,
            sea_level_m: self.sea_level_m,
            crater_depth_m: self.crater_depth_m,
            river_catchment_m2: self.river_catchment_m2,
            lattice_nodes: usize::try_from(self.lattice_nodes).unwrap_or(0),
            channel_depth_m: self.channel_depth_m,
            river_fill: self.river_fill,
            lake_min_depth_m: self.lake_min_depth_m,
            lake_at: self
                .lake_guaranteed
                .then_some(LatLon { lat_deg: self.lake_lat_deg, lon_deg: self.lake_lon_deg }),
            sea: self.sea,
            rivers: self.rivers,
            lakes: self.lakes,
            craters: self.craters,
            mesas: self.mesas,
            erosion: self.erosion,
            climate: self.climate,
            look: Look {
                family,
                sea_color: from_color(self.sea_color),
                shallows_color: from_color(self.shallows_color),
                sand_color: from_color(self.sand_color),
                grass_color: from_color(self.grass_color),
                forest_color: from_color(self.forest_color),
                rock_color: from_color(self.rock_color),
                snow_color: from_color(self.snow_color),
                sky_color: from_color(self.sky_color),
                snow_line: self.snow_line,
                cliff_slope_deg: self.cliff_slope_deg,
            },
        }
    }

    /// The validated core settings, or every error message.
    pub fn snapshot(&self) -> Result<watershed::WorldSettings, String> {
        let core = self.to_core();
        let errors = core.validate();
        if errors.is_empty() {
            Ok(core)
        } else {
            Err(errors.iter().map(|e| e.message.as_str()).collect::<Vec<_>>().join("; "))
        }
    }

    /// A resource holding `core`'s values.
    pub fn from_core(core: &watershed::WorldSettings) -> Gd<Self> {
        let look = &core.look;
        let family = LookFamily::ALL.iter().position(|(f, _)| *f == look.family).unwrap_or(0) as i64;
        Gd::from_init_fn(|base| WorldSettings {
            world_name: GString::from(core.name.as_str()),
            seed: core.seed as i64,
            radius_m: core.radius_m,
            relief_m: core.relief_m,
            sea_level_m: core.sea_level_m,
            crater_depth_m: core.crater_depth_m,
            river_catchment_m2: core.river_catchment_m2,
            lattice_nodes: core.lattice_nodes as i64,
            channel_depth_m: core.channel_depth_m,
            river_fill: core.river_fill,
            lake_min_depth_m: core.lake_min_depth_m,
            lake_guaranteed: core.lake_at.is_some(),
            lake_lat_deg: core.lake_at.map_or(0.0, |p| p.lat_deg),
            lake_lon_deg: core.lake_at.map_or(0.0, |p| p.lon_deg),
            sea: core.sea,
            rivers: core.rivers,
            lakes: core.lakes,
            craters: core.craters,
            mesas: core.mesas,
            erosion: core.erosion,
            climate: core.climate,
            look_family: family,
            sea_color: to_color(look.sea_color),
            shallows_color: to_color(look.shallows_color),
            sand_color: to_color(look.sand_color),
            grass_color: to_color(look.grass_color),
            forest_color: to_color(look.forest_color),
            rock_color: to_color(look.rock_color),
            snow_color: to_color(look.snow_color),
            sky_color: to_color(look.sky_color),
            snow_line: look.snow_line,
            cliff_slope_deg: look.cliff_slope_deg,
            base,
        })
    }
}
