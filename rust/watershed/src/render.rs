//! Pictures of a world: an equirectangular shaded-relief map and an orthographic globe.
//!
//! Pure functions from a world to RGB pixels; the CLI encodes them as PNG. Every pixel is
//! computed independently, so the bytes are the same with any thread count.

use crate::height::PlanetHeight;
use crate::look::{self, Color};
use crate::settings::WorldSettings;
use crate::sphere;
use glam::DVec3;
use rayon::prelude::*;

/// An 8-bit RGB picture, rows top to bottom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// Width in pixels.
    pub width: usize,
    /// Height in pixels.
    pub height: usize,
    /// `width * height * 3` bytes, row-major.
    pub rgb: Vec<u8>,
}

/// Called from worker threads with how many rows were just finished.
pub type Progress<'a> = &'a (dyn Fn(u64) + Sync);

/// Vertical exaggeration of the shading, so relief reads at planet scale.
const SHADE_EXAGGERATION: f64 = 2.5;

/// Shaded relief on an equirectangular map `width` × `width / 2` pixels: longitude -180°
/// at the left edge, north at the top, hypsometric tint and sea depth from the world's look.
pub fn render_map(
    settings: &WorldSettings,
    planet: &PlanetHeight,
    width: usize,
    progress: Progress,
) -> Image {
    let width = width.max(2);
    let height = (width / 2).max(1);
    let dlon = std::f64::consts::TAU / width as f64;
    let dlat = std::f64::consts::PI / height as f64;
    let lat_of = |y: usize| std::f64::consts::FRAC_PI_2 - (y as f64 + 0.5) * dlat;
    let lon_of = |x: usize| -std::f64::consts::PI + (x as f64 + 0.5) * dlon;
    let heights: Vec<Vec<f64>> = (0..height)
        .into_par_iter()
        .map(|y| {
            let (lat, row) = (lat_of(y), (0..width).map(|x| (x, lon_of(x))));
            let out = row
                .map(|(_, lon)| planet.height_unit(at(lat, lon)))
                .collect();
            progress(1);
            out
        })
        .collect();
    let radius = settings.radius_m;
    let light = DVec3::new(-1.0, 1.0, 1.2).normalize();
    let rows: Vec<Vec<u8>> = (0..height)
        .into_par_iter()
        .map(|y| {
            let lat = lat_of(y);
            let dx_m = radius * libm::cos(lat).max(0.02) * dlon;
            let dy_m = radius * dlat;
            let (y0, y1) = (y.saturating_sub(1), (y + 1).min(height - 1));
            let (up, down) = (&heights[y0], &heights[y1]);
            let row = &heights[y];
            let mut out = Vec::with_capacity(width * 3);
            for x in 0..width {
                let h = row[x];
                let gx = (row[(x + 1) % width] - row[(x + width - 1) % width]) / (2.0 * dx_m);
                let gy = (up[x] - down[x]) / ((y1 - y0).max(1) as f64 * dy_m);
                let normal =
                    DVec3::new(-gx * SHADE_EXAGGERATION, -gy * SHADE_EXAGGERATION, 1.0).normalize();
                let shade = (normal.dot(light) / light.z).clamp(0.0, 1.5);
                let c = pixel(settings, h, gx.hypot(gy), lat, shade);
                out.extend_from_slice(&look::to_rgb8(c));
            }
            out
        })
        .collect();
    Image {
        width,
        height,
        rgb: rows.concat(),
    }
}

/// Colour of one pixel: water or ground, lit by `shade` (1 = flat ground in full light).
fn pixel(settings: &WorldSettings, h: f64, gradient: f64, lat: f64, shade: f64) -> Color {
    if look::under_sea(settings, h) {
        let c = look::water_color(settings, settings.sea_level_m - h, lat);
        look::scale(c, 1.0 + 0.25 * (shade - 1.0))
    } else {
        let slope_deg = libm::atan(gradient).to_degrees();
        let c = look::ground_color(settings, h, slope_deg, lat);
        look::scale(c, 0.5 + 0.5 * shade)
    }
}

fn at(lat: f64, lon: f64) -> DVec3 {
    let c = libm::cos(lat);
    DVec3::new(c * libm::sin(lon), libm::sin(lat), c * libm::cos(lon))
}

/// Where the globe camera looks from: latitude and longitude of the view centre, degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GlobeView {
    /// Latitude of the point facing the camera, degrees.
    pub lat_deg: f64,
    /// Longitude of the point facing the camera, degrees.
    pub lon_deg: f64,
}

impl Default for GlobeView {
    fn default() -> Self {
        GlobeView {
            lat_deg: 25.0,
            lon_deg: 20.0,
        }
    }
}

/// An orthographic view of the planet, `size` × `size` pixels, lit from the upper left,
/// against the world's sky colour with a thin atmosphere at the limb.
pub fn render_globe(
    settings: &WorldSettings,
    planet: &PlanetHeight,
    size: usize,
    view: GlobeView,
    progress: Progress,
) -> Image {
    let size = size.max(2);
    let forward = sphere::direction(view.lat_deg, view.lon_deg);
    let right = sphere::unit(DVec3::Y.cross(forward));
    let right = if right == DVec3::Y { DVec3::X } else { right };
    let up = forward.cross(right);
    let sun = (right * -0.55 + up * 0.45 + forward * 0.7).normalize();
    let sky = settings.look.sky_color.to_f64();
    let disc = 0.92;
    let eps = 2.0 / (size as f64 * disc);
    let radius = settings.radius_m;
    let rows: Vec<Vec<u8>> = (0..size)
        .into_par_iter()
        .map(|j| {
            let mut out = Vec::with_capacity(size * 3);
            for i in 0..size {
                let u = ((2.0 * (i as f64 + 0.5) / size as f64) - 1.0) / disc;
                let v = (1.0 - 2.0 * (j as f64 + 0.5) / size as f64) / disc;
                let rho2 = u * u + v * v;
                let c = if rho2 >= 1.0 {
                    let glow = (1.0 - (rho2.sqrt() - 1.0) / 0.06).clamp(0.0, 1.0);
                    look::mix(look::scale(sky, 0.08), sky, glow * glow)
                } else {
                    let facing = (1.0 - rho2).sqrt();
                    let p = right * u + up * v + forward * facing;
                    let h = planet.height_unit(p);
                    let t1 = sphere::unit(right - p * p.dot(right));
                    let t2 = p.cross(t1);
                    let gx = (planet.height_unit(sphere::unit(p + t1 * eps)) - h) / (eps * radius);
                    let gy = (planet.height_unit(sphere::unit(p + t2 * eps)) - h) / (eps * radius);
                    let (lat, _) = sphere::lat_lon_rad(p);
                    let water = look::under_sea(settings, h);
                    let normal = if water {
                        p
                    } else {
                        (p - (t1 * gx + t2 * gy) * SHADE_EXAGGERATION).normalize()
                    };
                    let light = 0.15 + 0.85 * normal.dot(sun).max(0.0);
                    let base = if water {
                        look::water_color(settings, settings.sea_level_m - h, lat)
                    } else {
                        look::ground_color(settings, h, libm::atan(gx.hypot(gy)).to_degrees(), lat)
                    };
                    let haze = (1.0 - facing).powi(3) * 0.6;
                    look::mix(look::scale(base, light), sky, haze)
                };
                out.extend_from_slice(&look::to_rgb8(c));
            }
            progress(1);
            out
        })
        .collect();
    Image {
        width: size,
        height: size,
        rgb: rows.concat(),
    }
}
