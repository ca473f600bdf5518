//! `watershed grid-world`: the whole river pipeline on a heightmap — from a DEM file or cut
//! from a world — with the report, the pictures and the exports for heightmap add-ons.
//! Everything is written to a folder beside `--out` first and moved in only when all of it
//! is written, so a failed run leaves nothing half-written.

use crate::knobs::Knobs;
use std::path::{Path, PathBuf};
use std::time::Instant;
use watershed::{
    accumulation_chart, relief_chart, render_grid_profile, sample_region, write_npy, DrainageParams, Grid,
    GridErosion, GridMaps, HeightmapParams, HeightmapWorld, Pipeline, WorldSettings,
};

/// What erodes the heightmap before it drains.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Erosion {
    /// About a droplet per four cells (the reference map's 1.1 million on 2113²).
    Droplets,
    /// 200 steps of the water + sediment model.
    WaterSediment,
    /// 100 steps of stream-power incision and diffusion.
    StreamPower,
    /// None: the heights as given.
    None,
}

impl Erosion {
    /// The model's name as [`GridErosion::MODELS`] spells it.
    pub fn name(self) -> &'static str {
        match self {
            Erosion::Droplets => "droplets",
            Erosion::WaterSediment => "water-sediment",
            Erosion::StreamPower => "stream-power",
            Erosion::None => "none",
        }
    }
}

/// Where the heights come from.
pub enum Source {
    /// A heightmap file (any format of [`crate::dem`]).
    Dem {
        /// The file.
        path: PathBuf,
        /// Metres of 0 and 65535 in a 16-bit file.
        height_range: Option<(f64, f64)>,
    },
    /// A square region of a world's ground.
    Region {
        /// The world.
        world: Box<WorldSettings>,
        /// Centre, degrees north and east.
        lat_lon: (f64, f64),
        /// Edge of the square, metres.
        size_m: f64,
        /// Cells a side.
        cells: usize,
    },
}

/// The run's choices besides the source.
pub struct Options {
    /// The knobs given (the sea defaults to the world's sea level for a region).
    pub knobs: Knobs,
    /// The erosion before draining, with its dials.
    pub erosion: GridErosion,
    /// Seed of the droplets.
    pub seed: u64,
}

/// Longer side of the pictures, pixels.
const PICTURE_SIDE: usize = 2048;

/// Runs the pipeline and writes everything into `out`.
pub fn run(
    source: &Source,
    options: &Options,
    out: &Path,
    available_bytes: Option<u64>,
) -> Result<(), String> {
    let started = Instant::now();
    let knobs = options.knobs.apply(HeightmapParams::default())?;
    let (name, grid, heights, world_sea) = load(source, knobs.cell_m, available_bytes)?;
    let mut params = HeightmapParams { cell_m: grid.cell_m, ..knobs };
    if !options.knobs.gave("sea_level_m") {
        params.sea_level_m = world_sea;
    }
    let loaded_ms = ms(started);
    let t = Instant::now();
    let heights = erode(&grid, heights, options, params.sea_level_m);
    let erosion_ms = ms(t);
    let world = HeightmapWorld::build(grid, heights, &params);
    let stats = world.stats();
    let staging = staging_dir(out)?;
    let t = Instant::now();
    let warnings: Vec<String> =
        stats.fit.warning(stats.river_cells + stats.lake_cells + stats.sea_cells).into_iter().collect();
    let written = write_all(&world, &staging).and_then(|hterrain_side| {
        let write_ms = ms(t);
        let mut timings = serde_json::Map::new();
        timings.insert("load".into(), round(loaded_ms).into());
        timings.insert("erosion".into(), round(erosion_ms).into());
        for (stage, ms) in &world.timings_ms {
            timings.insert((*stage).into(), round(*ms).into());
        }
        timings.insert("maps and files".into(), round(write_ms).into());
        // The world's `HeightmapStats` at the top level, beside the run's own figures.
        let report = crate::generate::record_json(
            &stats,
            serde_json::json!({
                "source": name,
                "rows": world.grid.height,
                "cols": world.grid.width,
                "cell_m": world.grid.cell_m,
                "sea_level_m": params.sea_level_m,
                "river_catchment_m2": world.params.river_catchment_m2,
                "channel_half_width_m": world.params.channel_half_width_m,
                "erosion": options.erosion.name(),
                "erosion_dials": options.erosion.dials().into_iter()
                    .map(|(name, value)| (name.to_owned(), serde_json::json!(value)))
                    .collect::<serde_json::Map<_, _>>(),
                "main_river_cells": world.main_river().len(),
                "hterrain_side": hterrain_side,
                "timings_ms": timings,
                "warnings": warnings,
            }),
        );
        let text = serde_json::to_string_pretty(&report).map_err(|e| format!("report: {e}"))?;
        write(&staging, "report.json", text.as_bytes()).map(|()| hterrain_side)
    });
    match written.and_then(|side| move_into(&staging, out).map(|()| side)) {
        Ok(hterrain_side) => {
            for warning in &warnings {
                eprintln!("warning: {name}: {warning}");
            }
            println!(
                "{name}: {}x{} cells, {} reaches, {} lakes; shoreline mismatches {} (worst {:.2} m), \
                 water steps {} (worst {:.2} m); {:.0} ms -> {}",
                world.grid.width,
                world.grid.height,
                stats.reaches,
                stats.lakes,
                stats.shoreline_mismatches,
                stats.worst_shoreline_m,
                stats.water_steps,
                stats.worst_step_m,
                ms(started),
                out.display()
            );
            if hterrain_side.is_none() {
                println!(
                    "{name}: no hterrain/ maps: HTerrain takes square maps and this one is {} x {}",
                    world.grid.width, world.grid.height
                );
            }
            Ok(())
        }
        Err(e) => {
            // Best effort: the staging folder is ours alone.
            let _ = std::fs::remove_dir_all(&staging);
            Err(e)
        }
    }
}

/// The source's name, grid (a file's cells `cell_m` wide), heights and (for a region of a
/// world with a sea) sea level.
fn load(
    source: &Source,
    cell_m: f64,
    available_bytes: Option<u64>,
) -> Result<(String, Grid, Vec<f64>, Option<f64>), String> {
    match source {
        Source::Dem { path, height_range } => {
            let array = crate::dem::load(path, *height_range, 16 << 30, "a heightmap")?;
            let name = path.display().to_string();
            watershed::check_heightmap(array.rows, array.cols, &array.data)
                .map_err(|e| format!("{name}: {e}"))?;
            watershed::check_grid_memory(array.rows, array.cols, available_bytes)
                .map_err(|e| format!("{name}: {e}"))?;
            Ok((name, Grid { width: array.cols, height: array.rows, cell_m }, array.data, None))
        }
        Source::Region { world, lat_lon, size_m, cells } => {
            watershed::check_grid_memory(*cells, *cells, available_bytes)
                .map_err(|e| format!("{}: a {cells} x {cells} region: {e}", world.name))?;
            let (grid, heights) = region(world, *lat_lon, *size_m, *cells);
            let name = format!("{} at {:.4},{:.4} ({size_m} m)", world.name, lat_lon.0, lat_lon.1);
            Ok((name, grid, heights, world.sea.then_some(world.sea_level_m)))
        }
    }
}

/// A square of `size_m` metres of `world`'s worked ground (eroded and settled, as the
/// planet's solve reads it) centred on `lat_lon` (degrees), on `cells` × `cells` cells.
pub fn region(world: &WorldSettings, lat_lon: (f64, f64), size_m: f64, cells: usize) -> (Grid, Vec<f64>) {
    match Pipeline::new(world).ground() {
        Some(ground) => sample_region(&ground.planet, lat_lon.0, lat_lon.1, size_m, cells),
        None => unreachable!("a build nobody can cancel finishes"),
    }
}

/// `heights` after the chosen erosion, water leaving by the map's edge and the sea.
fn erode(grid: &Grid, mut heights: Vec<f64>, options: &Options, sea_level_m: Option<f64>) -> Vec<f64> {
    let outlets = DrainageParams::outlets(sea_level_m, true);
    options.erosion.run(grid, &mut heights, &outlets, None, options.seed);
    heights
}

/// Everything of a solved world: carved ground, water level (the ground where dry) and
/// cover as `.npy`; shaded relief with water, flow accumulation and the main river's long
/// profile as PNG; the maps for Terrain3D and (square maps only) HTerrain. Returns the
/// HTerrain side, if written.
fn write_all(world: &HeightmapWorld, dir: &Path) -> Result<Option<usize>, String> {
    let (rows, cols) = (world.grid.height, world.grid.width);
    write(dir, "ground.npy", &write_npy(&[rows, cols], &world.ground))?;
    write(dir, "level.npy", &write_npy(&[rows, cols], &world.level))?;
    let cover: Vec<u8> = world.cover.iter().map(|&c| c as u8).collect();
    write(dir, "cover.npy", &write_npy(&[rows, cols], &cover))?;
    let relief = relief_chart(world, PICTURE_SIDE);
    write(dir, "relief.png", &crate::erode::png_bytes(&relief)?)?;
    let flow = accumulation_chart(world, PICTURE_SIDE);
    write(dir, "accumulation.png", &crate::erode::png_bytes(&flow)?)?;
    if let Some(profile) = render_grid_profile(world, 1600, 600) {
        write(dir, "profile.png", &crate::erode::png_bytes(&profile)?)?;
    }
    let maps = GridMaps::of(world);
    // The two folders are independent: written side by side.
    let (terrain3d, hterrain) = rayon::join(
        || crate::addon_maps::write_terrain3d(&maps, &dir.join("terrain3d")),
        || crate::addon_maps::write_hterrain(&maps, &dir.join("hterrain")),
    );
    terrain3d?;
    hterrain
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> Result<(), String> {
    let path = dir.join(name);
    std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// A fresh folder beside `out` to write into.
fn staging_dir(out: &Path) -> Result<PathBuf, String> {
    let parent = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    let name = out.file_name().map_or_else(|| "grid-world".into(), |n| n.to_string_lossy().into_owned());
    let staging = parent.join(format!(".{name}.partial-{}", std::process::id()));
    // A folder left by a killed run of the same process id is stale.
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).map_err(|e| format!("cannot create {}: {e}", staging.display()))?;
    Ok(staging)
}

/// Moves everything written in `staging` into `out` (created if needed), then removes
/// `staging`.
fn move_into(staging: &Path, out: &Path) -> Result<(), String> {
    if !out.exists() {
        return std::fs::rename(staging, out).map_err(|e| format!("cannot move into {}: {e}", out.display()));
    }
    move_tree(staging, out)?;
    std::fs::remove_dir_all(staging).map_err(|e| format!("cannot remove {}: {e}", staging.display()))
}

fn move_tree(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to).map_err(|e| format!("cannot create {}: {e}", to.display()))?;
    let entries = std::fs::read_dir(from).map_err(|e| format!("cannot read {}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", from.display()))?;
        let (source, target) = (entry.path(), to.join(entry.file_name()));
        if source.is_dir() {
            move_tree(&source, &target)?;
        } else {
            std::fs::rename(&source, &target)
                .map_err(|e| format!("cannot move into {}: {e}", target.display()))?;
        }
    }
    Ok(())
}

fn ms(t: Instant) -> f64 {
    t.elapsed().as_secs_f64() * 1e3
}

fn round(ms: f64) -> f64 {
    (ms * 10.0).round() / 10.0
}
