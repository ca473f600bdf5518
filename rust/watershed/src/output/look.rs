//! The world's look: ground and water colour from height, slope and latitude.
//!
//! One place turns the look keys into colour, for the CLI's pictures today and as the
//! reference the terrain and ocean shaders follow later.

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
/// latitude `lat_rad`, following the world's look family, palette, climate and knobs.
pub fn ground_color(settings: &WorldSettings, height_m: f64, slope_deg: f64, lat_rad: f64) -> Color {
    let look = &settings.look;
    let relief = settings.relief_m;
    let shore = if settings.sea { settings.sea_level_m } else { -relief };
    let above = height_m - shore;
    let alt = (above / (relief - shore).max(1.0)).clamp(0.0, 1.0);
    let wet = 0.5 + 0.5 * settings.climate;
    let polar = libm::sin(lat_rad).abs();

    let (sand, grass, forest, rock, snow) = (
        look.sand_color.to_f64(),
        look.grass_color.to_f64(),
        look.forest_color.to_f64(),
        look.rock_color.to_f64(),
        look.snow_color.to_f64(),
    );
    let mut forest_w = smoothstep(0.35, 0.65, wet + 0.4 * (0.4 - alt)) * (1.0 - smoothstep(0.45, 0.7, alt));
    let mut ground = grass;
    let mut rock_c = rock;
    let mut snow_drop = 0.3;
    match look.family {
        LookFamily::Temperate => {}
        LookFamily::Volcanic => {
            // Ash plains: open ground is mostly rock dust; green only in wet lowlands.
            ground = mix(rock, grass, 0.2 + 0.5 * wet * (1.0 - alt));
            forest_w *= 0.5 * (1.0 - alt);
            rock_c = scale(rock, 0.75);
        }
        LookFamily::Desert => {
            forest_w = 0.0;
            ground = mix(grass, sand, 1.0 - smoothstep(0.12, 0.4, alt));
            // Banded strata on exposed rock.
            let band = libm::sin(height_m / (0.03 * relief) * std::f64::consts::TAU);
            rock_c = scale(rock, 0.85 + 0.15 * band);
        }
        LookFamily::Glacial => snow_drop = 1.1,
    }
    let mut c = mix(ground, forest, forest_w);
    if settings.sea {
        let beach_m = (0.015 * relief).max(3.0);
        c = mix(c, sand, 1.0 - smoothstep(0.5 * beach_m, beach_m, above));
    }
    let cliff = look.cliff_slope_deg;
    let rock_w = smoothstep(cliff - 6.0, cliff + 6.0, slope_deg).max(0.6 * smoothstep(0.75, 0.95, alt));
    c = mix(c, rock_c, rock_w);
    let line = relief * (look.snow_line + 0.15 * settings.climate - snow_drop * polar * polar);
    let band = 0.04 * relief;
    let snow_w = smoothstep(line - band, line + band, height_m) * (1.0 - smoothstep(50.0, 65.0, slope_deg));
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
