//! The world's look: ground colour from the biome rules (height, slope, temperature,
//! moisture), water colour from depth and latitude.
//!
//! One place turns the look keys into colour, for the CLI's pictures and the mesh
//! terrain's vertex colours.

use crate::life::biome::{
    altitude, beach_band_m, DESERT_C, DESERT_MOISTURE, FOREST_MOISTURE, SNOW_C, TREE_LINE_C,
    WETLAND_MOISTURE, WETLAND_SLOPE_DEG,
};
use crate::life::climate::temperature_c;
#[cfg(doc)]
use crate::life::climate::Climate;
use crate::math::geometry::smoothstep;
use crate::settings::{LookFamily, WorldSettings};

/// An RGB colour with channels in 0..=1 (sRGB-encoded, as written in `worlds.json`).
pub type Color = [f64; 3];

/// `a` blended towards `b` by `t` (0: `a`, 1: `b`).
pub fn mix(a: Color, b: Color, t: f64) -> Color {
    [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]
}

/// `c` with every channel multiplied by `k`.
pub fn scale(c: Color, k: f64) -> Color {
    c.map(|x| x * k)
}

/// Whether the sea covers ground at height `height_m` (metres above the datum).
pub fn under_sea(settings: &WorldSettings, height_m: f64) -> bool {
    settings.sea && height_m < settings.sea_level_m
}

/// Colour of bare ground at `height_m` above the datum, on a slope of `slope_deg`, at
/// latitude `lat_rad`, with `moisture` (0..=1, [`Climate::moisture_at`]): the biome rules'
/// blend, so snow lies where it is below freezing ([`temperature_c`]), forest grows where it
/// is wet and warm enough, desert where it is dry and hot, in the world's palette and look
/// family.
pub fn ground_color(
    settings: &WorldSettings,
    height_m: f64,
    slope_deg: f64,
    lat_rad: f64,
    moisture: f64,
) -> Color {
    let look = &settings.look;
    let relief = settings.relief_m;
    let alt = altitude(settings, height_m);
    let t = temperature_c(settings, height_m, lat_rad);

    let (sand, grass, forest, rock, snow) = (
        look.sand_color.to_f64(),
        look.grass_color.to_f64(),
        look.forest_color.to_f64(),
        look.rock_color.to_f64(),
        look.snow_color.to_f64(),
    );
    let warm = smoothstep(TREE_LINE_C - 2.0, TREE_LINE_C + 1.0, t);
    let mut forest_w = smoothstep(FOREST_MOISTURE - 0.1, FOREST_MOISTURE + 0.1, moisture) * warm;
    let wetland_w = smoothstep(WETLAND_MOISTURE - 0.05, WETLAND_MOISTURE + 0.03, moisture)
        * (1.0 - smoothstep(WETLAND_SLOPE_DEG - 1.0, WETLAND_SLOPE_DEG + 2.0, slope_deg))
        * warm;
    let desert_w = (1.0 - smoothstep(DESERT_MOISTURE - 0.08, DESERT_MOISTURE + 0.05, moisture))
        * smoothstep(DESERT_C - 3.0, DESERT_C + 2.0, t);
    let mut ground = grass;
    let mut rock_c = rock;
    match look.family {
        LookFamily::Temperate | LookFamily::Glacial => {}
        LookFamily::Volcanic => {
            // Ash plains: open ground is mostly rock dust; green only in wet lowlands.
            ground = mix(rock, grass, 0.2 + 0.5 * moisture * (1.0 - alt));
            forest_w *= 0.5 * (1.0 - alt);
            rock_c = scale(rock, 0.75);
        }
        LookFamily::Desert => {
            // Banded strata on exposed rock.
            let band = libm::sin(height_m / (0.03 * relief) * std::f64::consts::TAU);
            rock_c = scale(rock, 0.85 + 0.15 * band);
        }
    }
    let mut c = mix(ground, sand, desert_w);
    c = mix(c, mix(ground, rock, 0.45), 1.0 - warm);
    c = mix(c, forest, forest_w);
    c = mix(c, mix(forest, look.shallows_color.to_f64(), 0.35), wetland_w);
    if settings.sea {
        let beach_m = beach_band_m(settings);
        let above = height_m - settings.sea_level_m;
        c = mix(c, sand, 1.0 - smoothstep(0.5 * beach_m, beach_m, above));
    }
    let cliff = look.cliff_slope_deg;
    let rock_w = smoothstep(cliff - 6.0, cliff + 6.0, slope_deg).max(0.6 * smoothstep(0.75, 0.95, alt));
    c = mix(c, rock_c, rock_w);
    let snow_w =
        (1.0 - smoothstep(SNOW_C - 1.5, SNOW_C + 0.5, t)) * (1.0 - smoothstep(50.0, 65.0, slope_deg));
    mix(c, snow, snow_w)
}

/// Colour of sea water `depth_m` deep at latitude `lat_rad` (shallows to deep, darker
/// with depth; sea ice towards the poles in the glacial family).
pub fn water_color(settings: &WorldSettings, depth_m: f64, lat_rad: f64) -> Color {
    let look = &settings.look;
    let relief = settings.relief_m;
    let t = smoothstep(0.0, 0.25 * relief, depth_m);
    let mut c = mix(look.shallows_color.to_f64(), look.sea_color.to_f64(), t);
    c = scale(c, 1.0 - 0.45 * smoothstep(0.1 * relief, relief, depth_m));
    if look.family == LookFamily::Glacial {
        let ice = smoothstep(62.0, 72.0, lat_rad.to_degrees().abs());
        c = mix(c, look.snow_color.to_f64(), 0.85 * ice);
    }
    c
}

/// Quantises a colour to 8-bit channels.
pub fn to_rgb8(c: Color) -> [u8; 3] {
    c.map(|x| (x.clamp(0.0, 1.0) * 255.0 + 0.5) as u8)
}
