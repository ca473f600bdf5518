//! Pictures of a world: an equirectangular shaded-relief map and an orthographic globe,
//! with lakes filled to their level, rivers drawn wider as their catchment grows, and on the
//! map, falls (white) and mouths (sand).
//!
//! Pure functions from a solved [`World`] to RGB pixels; the CLI encodes them as PNG. Every
//! pixel of the base picture is computed independently and rivers are painted in node order,
//! so the bytes are the same with any thread count.

use crate::carve::{profile_at, ReachEnd};
use crate::life::biome::{conditions_at, Biome};
use crate::life::climate::Climate;
use crate::math::geometry::smoothstep;
use crate::math::sphere;
use crate::output::chart::{framed, Axis, Key};
use crate::output::look::{self, Color};
use crate::water::heightmap::HeightmapWorld;
use crate::water::levels::{Body, Water};
use crate::water::world::World;
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
/// at the left edge, north at the top, the ground coloured by the biome rules under
/// `climate` and the sea by depth from the world's look, lakes and rivers from the drainage.
pub fn render_map(world: &World, climate: &Climate, width: usize, progress: Progress) -> Image {
    equirectangular(world, width, progress, |dir, h, gradient, lat, shade| {
        pixel(world, climate, dir, h, gradient, lat, shade)
    })
}

/// The biomes on an equirectangular map like [`render_map`]'s: each dry pixel in its
/// biome's legend colour ([`Biome::legend_rgb`]) lightly shaded, the sea and lakes in the
/// look's water colours, rivers drawn.
pub fn render_biome_map(world: &World, climate: &Climate, width: usize, progress: Progress) -> Image {
    let settings = &world.terrain.settings;
    equirectangular(world, width, progress, |dir, h, gradient, _, shade| match world.water().at(dir) {
        Some(Water { body: Body::Sea, .. }) => settings.look.sea_color.to_f64(),
        Some(_) => settings.look.shallows_color.to_f64(),
        None => {
            let c = conditions_at(world, climate, dir, h, libm::atan(gradient).to_degrees());
            let rgb = Biome::of(settings, &c).legend_rgb().map(|x| f64::from(x) / 255.0);
            look::scale(rgb, 0.8 + 0.2 * shade)
        }
    })
}

/// The bare ground's colour on an equirectangular map like [`render_map`]'s, unshaded and
/// with no water drawn (the sea floor and lake beds too): the biome rules under `climate`,
/// for a terrain material to read by direction (longitude `atan2(x, z)` from -180° at the
/// left edge, latitude `asin(y)` from 90° at the top).
pub fn render_ground_map(world: &World, climate: &Climate, width: usize, progress: Progress) -> Image {
    let settings = &world.terrain.settings;
    equirectangular_base(world, width, progress, |dir, h, gradient, lat, _| {
        let moisture = climate.moisture_at(&world.terrain.lattice, dir);
        look::ground_color(settings, h, libm::atan(gradient).to_degrees(), lat, moisture)
    })
}

/// The unit direction under a point of an equirectangular map ([`render_map`] and its kin),
/// given as fractions of the map's width and height from its top-left corner (`u`, `v` in
/// 0..=1, clamped; NaN reads as 0): longitude −180° at `u = 0`, north at `v = 0`.
pub fn map_direction(u: f64, v: f64) -> DVec3 {
    let fraction = |t: f64| if t.is_nan() { 0.0 } else { t.clamp(0.0, 1.0) };
    let lon = -std::f64::consts::PI + fraction(u) * std::f64::consts::TAU;
    let lat = std::f64::consts::FRAC_PI_2 - fraction(v) * std::f64::consts::PI;
    sphere::direction_rad(lat, lon)
}

/// Where direction `dir` lies on an equirectangular map, as fractions `(u, v)` of its width
/// and height from the top-left corner: the inverse of [`map_direction`].
pub fn map_fractions(dir: DVec3) -> (f64, f64) {
    let (lat, lon) = sphere::lat_lon_rad(dir);
    (
        (lon + std::f64::consts::PI) / std::f64::consts::TAU,
        (std::f64::consts::FRAC_PI_2 - lat) / std::f64::consts::PI,
    )
}

/// An equirectangular picture `width` × `width / 2` pixels, each pixel's colour from
/// `colour(direction, ground height, gradient, latitude, shade)` (shade 1: flat ground in
/// full light), with the rivers and markers painted over it.
fn equirectangular(
    world: &World,
    width: usize,
    progress: Progress,
    colour: impl Fn(DVec3, f64, f64, f64, f64) -> Color + Sync,
) -> Image {
    let mut image = equirectangular_base(world, width, progress, colour);
    let dlon = std::f64::consts::TAU / image.width as f64;
    let dlat = std::f64::consts::PI / image.height as f64;
    let project = |p: DVec3| {
        let (lat, lon) = sphere::lat_lon_rad(p);
        Some(((lon + std::f64::consts::PI) / dlon - 0.5, (std::f64::consts::FRAC_PI_2 - lat) / dlat - 0.5))
    };
    let scale = image.width as f64 / 2048.0;
    paint_rivers(&mut image, world, scale, project, true);
    paint_markers(&mut image, world, scale, project);
    image
}

/// [`equirectangular`]'s pixels alone, nothing painted over them.
fn equirectangular_base(
    world: &World,
    width: usize,
    progress: Progress,
    colour: impl Fn(DVec3, f64, f64, f64, f64) -> Color + Sync,
) -> Image {
    let settings = &world.terrain.settings;
    let width = width.max(2);
    let height = (width / 2).max(1);
    let dlon = std::f64::consts::TAU / width as f64;
    let dlat = std::f64::consts::PI / height as f64;
    let lat_of = |y: usize| std::f64::consts::FRAC_PI_2 - (y as f64 + 0.5) * dlat;
    let lon_of = |x: usize| -std::f64::consts::PI + (x as f64 + 0.5) * dlon;
    let heights: Vec<Vec<f64>> = (0..height)
        .into_par_iter()
        .map(|y| {
            let lat = lat_of(y);
            let row = (0..width)
                .map(|x| world.terrain.planet.height_unit(sphere::direction_rad(lat, lon_of(x))))
                .collect();
            progress(1);
            row
        })
        .collect();
    let radius = settings.radius_m;
    let light = DVec3::new(-1.0, 1.0, 1.2).normalize();
    let rows: Vec<Vec<u8>> = (0..height)
        .into_par_iter()
        .map(|y| {
            let lat = lat_of(y);
            let dx_m = radius * libm::cos(lat).max(0.02) * dlon;
            let (y0, y1) = (y.saturating_sub(1), (y + 1).min(height - 1));
            let dy_m = (y1 - y0).max(1) as f64 * radius * dlat;
            let row = &heights[y];
            let mut out = Vec::with_capacity(width * 3);
            for x in 0..width {
                let h = row[x];
                let gx = (row[(x + 1) % width] - row[(x + width - 1) % width]) / (2.0 * dx_m);
                let gy = (heights[y0][x] - heights[y1][x]) / dy_m;
                let normal = DVec3::new(-gx * SHADE_EXAGGERATION, -gy * SHADE_EXAGGERATION, 1.0).normalize();
                let shade = (normal.dot(light) / light.z).clamp(0.0, 1.5);
                let c = colour(sphere::direction_rad(lat, lon_of(x)), h, gx.hypot(gy), lat, shade);
                out.extend_from_slice(&look::to_rgb8(c));
            }
            progress(1);
            out
        })
        .collect();
    Image { width, height, rgb: rows.concat() }
}

/// Dots where rivers fall (white) and where they meet the sea (sand, the beach collar).
fn paint_markers(
    image: &mut Image,
    world: &World,
    scale: f64,
    project: impl Fn(DVec3) -> Option<(f64, f64)>,
) {
    let look = &world.terrain.settings.look;
    for reach in &world.terrain.carve.reaches {
        let (at, colour) = match reach.ends_in {
            ReachEnd::Sea => (reach.end, look.sand_color.to_f64()),
            _ if reach.fall => (reach.start, [1.0, 1.0, 1.0]),
            _ => continue,
        };
        if let Some(p) = project(at) {
            paint_segment(image, p, p, (3.0 * scale).max(1.5), colour);
        }
    }
}

/// Colour of one map pixel: sea, lake, river or ground, lit by `shade` (1 = flat ground in
/// full light). Where the water is comes from the world's water table, as for every query.
fn pixel(world: &World, climate: &Climate, dir: DVec3, h: f64, gradient: f64, lat: f64, shade: f64) -> Color {
    let settings = &world.terrain.settings;
    match world.water().at(dir) {
        Some(Water { body: Body::Sea, level_m }) => {
            look::scale(look::water_color(settings, level_m - h, lat), 1.0 + 0.25 * (shade - 1.0))
        }
        Some(Water { level_m, .. }) => {
            look::scale(lake_color(world, level_m - h, lat), 1.0 + 0.15 * (shade - 1.0))
        }
        None => {
            let slope_deg = libm::atan(gradient).to_degrees();
            let moisture = climate.moisture_at(&world.terrain.lattice, dir);
            look::scale(look::ground_color(settings, h, slope_deg, lat, moisture), 0.5 + 0.5 * shade)
        }
    }
}

/// Inland water: the shallows colour deepening towards the sea colour.
fn lake_color(world: &World, depth_m: f64, lat: f64) -> Color {
    look::water_color(&world.terrain.settings, depth_m.min(0.15 * world.terrain.settings.relief_m), lat)
}

/// Draws every river reach (node → receiver) as an anti-aliased line shaded by its water
/// depth, `scale` pixels per pixel of a 2048-wide map; `wraps` for maps whose left and right
/// edges meet.
fn paint_rivers(
    image: &mut Image,
    world: &World,
    scale: f64,
    project: impl Fn(DVec3) -> Option<(f64, f64)>,
    wraps: bool,
) {
    let threshold = world.terrain.settings.river_catchment_m2;
    let look = &world.terrain.settings.look;
    let w = image.width as f64;
    for (reach, levels) in world.terrain.carve.reaches.iter().zip(&world.levels.reach_levels) {
        let (Some(a), Some(mut b)) = (project(reach.start), project(reach.end)) else { continue };
        if wraps && (b.0 - a.0).abs() > w / 2.0 {
            b.0 += if b.0 > a.0 { -w } else { w };
        }
        // Shaded by depth: from the shallows colour to the sea colour over the channel depth.
        let depth = profile_at(levels, 0.5) - reach.bed_at(reach.length_m / 2.0);
        let shade = smoothstep(0.0, world.terrain.settings.channel_depth_m, depth);
        let colour = look::mix(look.shallows_color.to_f64(), look.sea_color.to_f64(), shade);
        let width_px = scale * (1.2 + 0.9 * libm::log((reach.catchment_m2 / threshold).max(1.0)));
        paint_segment(image, a, b, width_px.max(0.8), colour);
        if wraps {
            let shift = if a.0 < w / 2.0 { w } else { -w };
            paint_segment(image, (a.0 + shift, a.1), (b.0 + shift, b.1), width_px.max(0.8), colour);
        }
    }
}

/// Blends `colour` over every pixel within `width_px / 2` of the segment `a`–`b`.
pub(crate) fn paint_segment(image: &mut Image, a: (f64, f64), b: (f64, f64), width_px: f64, colour: Color) {
    let half = width_px / 2.0;
    let reach = half + 1.0;
    let x0 = (a.0.min(b.0) - reach).floor().max(0.0) as usize;
    let x1 = (a.0.max(b.0) + reach).ceil().min(image.width as f64 - 1.0);
    let y0 = (a.1.min(b.1) - reach).floor().max(0.0) as usize;
    let y1 = (a.1.max(b.1) + reach).ceil().min(image.height as f64 - 1.0);
    if x1 < 0.0 || y1 < 0.0 {
        return;
    }
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = (dx * dx + dy * dy).max(1e-12);
    let rgb = look::to_rgb8(colour).map(f64::from);
    for y in y0..=y1 as usize {
        for x in x0..=x1 as usize {
            let (px, py) = (x as f64 - a.0, y as f64 - a.1);
            let t = ((px * dx + py * dy) / len2).clamp(0.0, 1.0);
            let dist = (px - t * dx).hypot(py - t * dy);
            let cover = (half + 0.5 - dist).clamp(0.0, 1.0);
            if cover > 0.0 {
                let k = (y * image.width + x) * 3;
                for (px, target) in image.rgb[k..k + 3].iter_mut().zip(rgb) {
                    let old = f64::from(*px);
                    *px = (old + (target - old) * cover + 0.5) as u8;
                }
            }
        }
    }
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
        GlobeView { lat_deg: 25.0, lon_deg: 20.0 }
    }
}

/// An orthographic view of the planet, `size` × `size` pixels, lit from the upper left,
/// the ground coloured by the biome rules under `climate`, against the world's sky colour with a thin atmosphere at the limb, lakes and rivers drawn.
pub fn render_globe(
    world: &World,
    climate: &Climate,
    size: usize,
    view: GlobeView,
    progress: Progress,
) -> Image {
    let settings = &world.terrain.settings;
    let planet = &world.terrain.planet;
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
                    let water = world.water().at(p);
                    let normal = match water {
                        Some(_) => p,
                        None => (p - (t1 * gx + t2 * gy) * SHADE_EXAGGERATION).normalize(),
                    };
                    let light = 0.15 + 0.85 * normal.dot(sun).max(0.0);
                    let base = match water {
                        Some(Water { body: Body::Sea, level_m }) => {
                            look::water_color(settings, level_m - h, lat)
                        }
                        Some(Water { level_m, .. }) => lake_color(world, level_m - h, lat),
                        None => look::ground_color(
                            settings,
                            h,
                            libm::atan(gx.hypot(gy)).to_degrees(),
                            lat,
                            climate.moisture_at(&world.terrain.lattice, p),
                        ),
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
    let mut image = Image { width: size, height: size, rgb: rows.concat() };
    let half = size as f64 / 2.0;
    let project = |p: DVec3| {
        (p.dot(forward) > 0.05)
            .then(|| (half + half * disc * p.dot(right) - 0.5, half - half * disc * p.dot(up) - 0.5))
    };
    paint_rivers(&mut image, world, size as f64 / 2048.0, project, false);
    image
}

/// Shaded relief of a heightmap (`width` × `height` cells of `cell_m`, row-major heights in
/// metres) with water drawn over it where `water` (depth per cell, metres; empty for none)
/// stands deeper than a centimetre (fainter where shallower than 30 cm), at most `max_side` pixels on the longer side (cells
/// are sampled, not averaged).
pub fn render_relief(
    width: usize,
    height: usize,
    heights: &[f64],
    water: &[f64],
    cell_m: f64,
    max_side: usize,
) -> Image {
    let (stride, pw, ph) = sampling(width, height, max_side);
    let (lo, hi) =
        heights.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &h| (lo.min(h), hi.max(h)));
    let span = (hi - lo).max(1e-9);
    let light = DVec3::new(-1.0, 1.0, 1.5).normalize();
    let at = |x: usize, y: usize| heights[y.min(height - 1) * width + x.min(width - 1)];
    let rows: Vec<Vec<u8>> = (0..ph)
        .into_par_iter()
        .map(|py| {
            let mut out = Vec::with_capacity(pw * 3);
            for px in 0..pw {
                let (x, y) = (px * stride, py * stride);
                let step = (stride as f64) * cell_m;
                let gx = (at(x + stride, y) - at(x.saturating_sub(stride), y)) / (2.0 * step);
                let gy = (at(x, y + stride) - at(x, y.saturating_sub(stride))) / (2.0 * step);
                let normal = DVec3::new(-gx * SHADE_EXAGGERATION, gy * SHADE_EXAGGERATION, 1.0).normalize();
                let shade = (normal.dot(light) / light.z).clamp(0.0, 1.5);
                let t = (at(x, y) - lo) / span;
                let ground = look::mix(RELIEF_LOW, RELIEF_HIGH, t);
                let mut c = look::scale(ground, 0.45 + 0.55 * shade);
                let depth = water.get(y * width + x).copied().unwrap_or(0.0);
                if depth > 0.01 {
                    c = look::mix(c, RELIEF_WATER, (depth / 0.3).clamp(0.25, 0.9));
                }
                out.extend_from_slice(&look::to_rgb8(c));
            }
            out
        })
        .collect();
    Image { width: pw, height: ph, rgb: rows.concat() }
}

/// Flow accumulation of a heightmap (`width` × `height` cells, row-major catchment areas in
/// m², each cell `cell_area_m2`): dark where only the cell's own rain passes, white-blue
/// along the largest rivers on a log scale, at most `max_side` pixels on the longer side
/// (each pixel the largest catchment in its block, so thin rivers stay visible).
pub fn render_accumulation(
    width: usize,
    height: usize,
    catchment_m2: &[f64],
    cell_area_m2: f64,
    max_side: usize,
) -> Image {
    let (stride, pw, ph) = sampling(width, height, max_side);
    let largest = catchment_m2.iter().copied().fold(cell_area_m2, f64::max);
    let span = (largest / cell_area_m2).ln().max(1e-9);
    let rows: Vec<Vec<u8>> = (0..ph)
        .into_par_iter()
        .map(|py| {
            let mut out = Vec::with_capacity(pw * 3);
            for px in 0..pw {
                let mut most = cell_area_m2;
                for y in py * stride..((py + 1) * stride).min(height) {
                    for x in px * stride..((px + 1) * stride).min(width) {
                        most = most.max(catchment_m2[y * width + x]);
                    }
                }
                let t = ((most / cell_area_m2).ln() / span).clamp(0.0, 1.0);
                out.extend_from_slice(&accumulation_colour(t));
            }
            out
        })
        .collect();
    Image { width: pw, height: ph, rgb: rows.concat() }
}

/// Relief's flat ground at the lowest and the highest height of a map, and its water.
const RELIEF_LOW: Color = [0.36, 0.52, 0.30];
const RELIEF_HIGH: Color = [0.78, 0.74, 0.66];
const RELIEF_WATER: Color = [0.16, 0.38, 0.66];

/// The colour of flow accumulation `t` (0: a cell's own rain, 1: the largest catchment, on
/// a log scale).
fn accumulation_colour(t: f64) -> [u8; 3] {
    look::to_rgb8(look::mix([0.05, 0.06, 0.09], [0.80, 0.92, 1.0], t.powf(1.5)))
}

/// The horizontal and vertical axes of a map of `world`: metres from its first column (left)
/// and its first row (top).
fn map_axes(world: &HeightmapWorld) -> (Axis, Axis) {
    let grid = &world.grid;
    let x = Axis::new("x", 0.0, grid.width as f64 * grid.cell_m);
    let y = Axis::new("y", 0.0, grid.height as f64 * grid.cell_m);
    (x, y)
}

/// An area in m², or km² from 1 km², for a legend (written "m^2": the font's "²" is not
/// legible).
fn area_words(m2: f64) -> String {
    if m2 >= 1e6 {
        format!("{:.2} km^2", m2 / 1e6)
    } else {
        format!("{m2:.0} m^2")
    }
}

/// [`render_relief`] of `world`'s carved ground and water, framed with axes in metres, a
/// title and a legend (the lowest and highest ground, water).
pub fn relief_chart(world: &HeightmapWorld, max_side: usize) -> Image {
    let grid = &world.grid;
    let relief =
        render_relief(grid.width, grid.height, &world.ground, &world.depths(), grid.cell_m, max_side);
    let (lo, hi) =
        world.ground.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &h| (lo.min(h), hi.max(h)));
    let legend = [
        Key::Swatch(look::to_rgb8(RELIEF_LOW), format!("lowest ground {lo:.1} m")),
        Key::Swatch(look::to_rgb8(RELIEF_HIGH), format!("highest {hi:.1} m")),
        Key::Swatch(look::to_rgb8(look::mix(RELIEF_LOW, RELIEF_WATER, 0.9)), "water".into()),
    ];
    let title = format!("relief and water: {} x {} cells of {} m", grid.width, grid.height, grid.cell_m);
    let (x, y) = map_axes(world);
    framed(&relief, &title, &x, &y, &legend)
}

/// [`render_accumulation`] of `world`'s drainage, framed with axes in metres, a title and
/// its colour ramp from one cell's area to the largest catchment.
pub fn accumulation_chart(world: &HeightmapWorld, max_side: usize) -> Image {
    let grid = &world.grid;
    let cell_area = grid.cell_m * grid.cell_m;
    let catchment = &world.drainage.catchment_m2;
    let flow = render_accumulation(grid.width, grid.height, catchment, cell_area, max_side);
    let largest = catchment.iter().copied().fold(cell_area, f64::max);
    let ramp = (0..64).map(|k| accumulation_colour(f64::from(k) / 63.0)).collect();
    let legend =
        [Key::Ramp(ramp, area_words(cell_area), format!("{} upstream (log scale)", area_words(largest)))];
    let (x, y) = map_axes(world);
    framed(&flow, "flow accumulation: the area draining through each cell", &x, &y, &legend)
}

/// How a `width` × `height` map is drawn on at most `max_side` pixels a side: every
/// `stride`-th cell a pixel, and the picture's width and height.
fn sampling(width: usize, height: usize, max_side: usize) -> (usize, usize, usize) {
    let stride = width.max(height).div_ceil(max_side.max(1)).max(1);
    (stride, width.div_ceil(stride), height.div_ceil(stride))
}
