//! `watershed generate`: a world's map, globe and report.

use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use std::path::Path;
use std::time::Instant;
use watershed::{
    render_biome_map, render_globe, render_map, Figures, GlobeView, Image, Life, World, WorldSettings, BIOMES,
};

/// Picture sizes in pixels.
pub struct Sizes {
    /// Map width (the map is half as tall).
    pub map_width: usize,
    /// Globe width and height.
    pub globe_size: usize,
}

/// Equal-area sample size for the report's height statistics.
const STATS_SAMPLES: usize = 100_000;

/// Renders `world` into `out` (created if missing): map.png, globe.png, biomes.png,
/// report.json.
pub fn run(world: &WorldSettings, out: &Path, sizes: Sizes) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let start = Instant::now();
    let solved = World::build(world);
    let planet = &solved.terrain.planet;

    let t = Instant::now();
    let dirs: Vec<_> = (0..STATS_SAMPLES).map(|i| watershed::fibonacci(i, STATS_SAMPLES)).collect();
    let heights = planet.heights(&dirs);
    let stats_ms = ms(t);

    let t = Instant::now();
    let life = Life::of(&solved);
    let (climate, sites) = (&life.climate, &life.sites);
    let life_ms = ms(t);

    let rows = (4 * (sizes.map_width.max(2) / 2) + sizes.globe_size.max(2)) as u64;
    let bar = ProgressBar::new(rows).with_message(format!("rendering {}", world.name));
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} rows ({eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let tick = |n: u64| bar.inc(n);
    let t = Instant::now();
    let map = render_map(&solved, climate, sizes.map_width, &tick);
    let map_ms = ms(t);
    let t = Instant::now();
    let biome_map = render_biome_map(&solved, climate, sizes.map_width, &tick);
    let biome_map_ms = ms(t);
    let t = Instant::now();
    let globe = render_globe(&solved, climate, sizes.globe_size, GlobeView::default(), &tick);
    let globe_ms = ms(t);
    bar.finish_and_clear();

    let t = Instant::now();
    save(&map, &out.join("map.png"))?;
    save(&globe, &out.join("globe.png"))?;
    save(&biome_map, &out.join("biomes.png"))?;
    let write_ms = ms(t);

    let digests = watershed::world_digests(world, planet);
    let report = json!({
        "world": world.name,
        "settings_digest": world.digest(),
        "digests": {
            "directions": digests.directions,
            "heights": digests.heights,
            "network": solved.terrain.network_digest(),
            "sets": solved.terrain.sets_digest(),
        },
        "radius_m": world.radius_m,
        "relief_m": world.relief_m,
        "sea_level_m": world.sea.then_some(world.sea_level_m),
        "heights_m": stats(&heights),
        "land_fraction": land_fraction(world, &heights),
        "figures": Figures::of(&solved, &life),
        "drainage": serde_json::to_value(&solved.terrain.drainage.stats).unwrap_or_default(),
        "ground": ground_report(&solved),
        "carve": carve_report(&solved),
        "water": water_report(&solved),
        "life": life_report(&solved, &life),
        "images": {
            "map.png": [map.width, map.height],
            "globe.png": [globe.width, globe.height],
            "biomes.png": [biome_map.width, biome_map.height],
        },
        "timing_ms": {
            "height_stats": stats_ms,
            "solve": solved.timings_ms.iter().map(|(k, v)| (k.to_string(), json!((v * 10.0).round() / 10.0))).collect::<serde_json::Map<_, _>>(),
            "map": map_ms,
            "globe": globe_ms,
            "life": life_ms,
            "biome_map": biome_map_ms,
            "write_png": write_ms,
            "total": ms(start),
        },
    });
    let text = serde_json::to_string_pretty(&report).map_err(|e| format!("cannot encode report: {e}"))?;
    let path = out.join("report.json");
    std::fs::write(&path, text + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    println!(
        "{}: map {}x{}, globe {}x{}, land {:.1}%, heights {:.1}..{:.1} m, {} river nodes, {} lakes, {} mouths, uphill {}, {}, {:.0} ms -> {}",
        world.name,
        map.width,
        map.height,
        globe.width,
        globe.height,
        100.0 * land_fraction(world, &heights),
        heights.iter().copied().fold(f64::INFINITY, f64::min),
        heights.iter().copied().fold(f64::NEG_INFINITY, f64::max),
        solved.terrain.drainage.stats.river,
        solved.terrain.drainage.stats.lakes,
        solved.terrain.drainage.stats.mouths,
        solved.terrain.drainage.stats.uphill,
        match (&sites.village, &sites.why_not) {
            (Some(_), _) => format!("a village and {} hamlets", sites.hamlets.len()),
            (None, why) => format!("no village ({})", why.as_deref().unwrap_or("no site")),
        },
        ms(start),
        out.display()
    );
    Ok(())
}

/// Climate, biome shares of the dry land, the sites and the playability figures.
fn life_report(world: &World, life: &Life) -> serde_json::Value {
    let (climate, biomes, sites) = (&life.climate, &life.biomes, &life.sites);
    let dry: Vec<usize> = (0..biomes.node.len()).filter(|&i| biomes.node[i].is_some()).collect();
    let mean = |v: &[f64]| dry.iter().map(|&i| v[i]).sum::<f64>() / dry.len().max(1) as f64;
    let place = |dir: watershed::DVec3| {
        let (lat, lon) = watershed::lat_lon_rad(dir);
        json!({ "lat_deg": lat.to_degrees(), "lon_deg": lon.to_degrees() })
    };
    let site = |s: &watershed::Site| {
        json!({
            "at": place(s.dir),
            "height_m": s.height_m,
            "score": s.score,
            "slope_deg": s.slope_deg,
            "walk_to_water_m": s.walk_to_water_m,
            "above_water_m": s.above_water_m,
        })
    };
    let fractions = biomes.fractions();
    json!({
        "climate": {
            "mean_land_temperature_c": mean(&climate.temperature_c),
            "mean_land_moisture": mean(&climate.moisture),
            "land_in_rain_shadow": dry.iter().filter(|&&i| climate.shadow[i] > 0.5).count() as f64 / dry.len().max(1) as f64,
        },
        "biomes": BIOMES.iter().zip(fractions).map(|(b, f)| (b.name().to_string(), json!(f))).collect::<serde_json::Map<_, _>>(),
        "village": sites.village.as_ref().map(site),
        "why_no_village": sites.why_not,
        "village_sites_found": sites.candidates,
        "hamlets": sites.hamlets.iter().map(site).collect::<Vec<_>>(),
        "mill": sites.mill.map(|(dir, reach)| json!({ "at": place(dir), "reach": reach, "discharge_m3_s": world.water().reach_flow_at(dir).map(|f| f.discharge_m3_s) })),
        "spawn": sites.spawn.map(|s| json!({
            "at": place(s.dir),
            "height_m": s.height_m,
            "to_coast_m": s.to_coast_m,
            "to_village_m": s.to_village_m,
        })),
        "walkable_land": sites.walkable,
        "impassable_land": sites.impassable,
    })
}

/// What erosion and sediment did, and the drainage of the natural ground (its
/// `DrainageStats`) to set beside the worked ground's under `drainage`.
fn ground_report(world: &World) -> serde_json::Value {
    let natural: Vec<f64> =
        world.terrain.lattice.positions().iter().map(|&p| world.terrain.planet.natural_unit(p)).collect();
    let before = watershed::solve(
        &*world.terrain.lattice,
        &natural,
        &watershed::drainage_params(&world.terrain.settings),
    );
    json!({
        "erosion": world.terrain.erosion.map(|e| json!({
            "steps": e.steps,
            "eroded_m3": e.eroded_m3,
            "deposited_m3": e.deposited_m3,
            "deepest_cut_m": e.deepest_cut_m,
        })),
        "settled_nodes": world.terrain.settled_nodes,
        "natural": serde_json::to_value(&before.stats).unwrap_or_default(),
    })
}

/// The carve's counts and invariants (its `CarveStats`), and the reach with the largest
/// catchment.
fn carve_report(world: &World) -> serde_json::Value {
    let s = watershed::carve_stats(world, 32);
    let largest = world
        .terrain
        .carve
        .reaches
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.catchment_m2.total_cmp(&b.1.catchment_m2));
    record_json(&s, json!({ "largest_reach": largest.map(|(i, _)| i) }))
}

/// The water table's counts and invariants (its `WaterStats`), the runoff, the storm crest
/// and the teleport check (an invariant: 0).
fn water_report(world: &World) -> serde_json::Value {
    let s = watershed::water_stats(world);
    record_json(
        &s,
        json!({
            "runoff_m_s": world.levels.runoff_m_s,
            "storm_crest_m": world.levels.sea.as_ref().map(watershed::SeaState::storm_crest_m),
            "teleport_changed": watershed::teleport_check(world, &watershed::river_sample_points(world, 7)),
        }),
    )
}

/// A core record's serde form (its field names are the keys; the records serialize without
/// fail) with the fields of `extra` (an object of figures that are not the record's) beside
/// its own.
pub(crate) fn record_json(record: &impl serde::Serialize, extra: serde_json::Value) -> serde_json::Value {
    let mut value = serde_json::to_value(record).unwrap_or_default();
    if let (Some(fields), serde_json::Value::Object(extra)) = (value.as_object_mut(), extra) {
        fields.extend(extra);
    }
    value
}

fn ms(since: Instant) -> f64 {
    (since.elapsed().as_secs_f64() * 1e4).round() / 10.0
}

fn save(image: &Image, path: &Path) -> Result<(), String> {
    image::save_buffer(
        path,
        &image.rgb,
        image.width as u32,
        image.height as u32,
        image::ExtendedColorType::Rgb8,
    )
    .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Fraction of the (equal-area) sample above the sea; 1 on a world without a sea.
fn land_fraction(world: &WorldSettings, heights: &[f64]) -> f64 {
    let land = heights.iter().filter(|&&h| !watershed::under_sea(world, h)).count();
    land as f64 / heights.len().max(1) as f64
}

/// Minimum, maximum, mean and percentiles of the sample, metres.
fn stats(heights: &[f64]) -> serde_json::Value {
    let mut sorted = heights.to_vec();
    sorted.sort_by(f64::total_cmp);
    let at =
        |q: f64| sorted.get(((sorted.len() - 1) as f64 * q).round() as usize).copied().unwrap_or(f64::NAN);
    let mean = sorted.iter().sum::<f64>() / sorted.len().max(1) as f64;
    json!({
        "samples": sorted.len(),
        "min": at(0.0), "p05": at(0.05), "p50": at(0.5), "p95": at(0.95), "max": at(1.0),
        "mean": mean,
    })
}

/// Renders reach `reach`'s long profile and cross-section to `out`.
pub fn section(world: &WorldSettings, reach: u32, out: &Path) -> Result<(), String> {
    let solved = World::build(world);
    let count = solved.terrain.carve.reaches.len();
    let image =
        watershed::render_section(&solved, watershed::ReachId(reach), 1200, 400).ok_or_else(|| {
            format!("world '{}' has {count} reaches (0..{count}); no reach {reach}", world.name)
        })?;
    if let Some(dir) = out.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    save(&image, out)?;
    println!("{}: reach {reach} of {count} -> {}", world.name, out.display());
    Ok(())
}
