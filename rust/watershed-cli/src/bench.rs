//! `watershed bench`: figures for performance claims, printed, never asserted.

use crate::heap;
use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Instant;
use watershed::{
    drain_grid, erode_droplets, erode_stream_power, erode_water_sediment, DVec3, DrainageParams, Droplets,
    Grid, GridMaps, GridOptions, HeightmapParams, HeightmapWorld, Life, Pipeline, PlanetHeight, StreamPower,
    WaterSediment, World, WorldSettings,
};

/// A stage that can be measured.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum Stage {
    /// Full ground height evaluations per second per core.
    Height,
    /// The whole sphere solve: lattice, graph, heights, flood, receivers, accumulation, rivers;
    /// the world build with carve and water table, life on it (twice, the second right
    /// after the first), and on an eroding world the same build with erosion off.
    Drainage,
    /// D8 drainage of a square heightmap cut from the world's ground.
    Grid,
    /// The carve: a 35³ block fill on a river, ground(dir) queries, reach volume bakes.
    Carve,
    /// Water level queries per second (batch, all threads), near rivers and anywhere.
    Water,
    /// Every figure of the speed table in one run: height, drainage on the world (with and
    /// without its erosion) and on a million nodes, the grid, the carve and the water (erosion's
    /// own figures are `bench erosion`'s).
    All,
    /// The whole heightmap pipeline (no erosion) on a `--grid` square of one-metre cells cut
    /// from the world's worked ground at the reference region: every stage, the maps for
    /// heightmap add-ons, and the peak memory per cell.
    GridWorld,
    /// Erosion: what the world's own erosion adds to its build, a 1024² grid step (one thread;
    /// alone, and within a ten-step run), droplets on a `--grid` square (a droplet per four
    /// cells), water + sediment on 1024².
    Erosion,
}

/// How big and how often.
pub struct Sizes {
    /// Evaluations (height) or lattice nodes (drainage); `None` for the stage's default.
    pub samples: Option<usize>,
    /// Grid edge in cells.
    pub grid: usize,
    /// Runs; medians are reported.
    pub runs: usize,
    /// Memory a solve may use, bytes (`None`: unknown).
    pub available_bytes: Option<u64>,
    /// Where the grid stage also writes the heightmap it drains (`.npy`, f64), for timing
    /// other tools on the same map.
    pub save_dem: Option<std::path::PathBuf>,
}

/// Runs the benchmark for `stage` and prints its figures.
///
/// # Errors
/// When the stage's solve would not fit in `sizes.available_bytes`.
pub fn run(stage: Stage, world: &WorldSettings, sizes: Sizes) -> Result<(), String> {
    let runs = sizes.runs.max(1);
    let fits = |w: &WorldSettings| {
        watershed::check_solve_memory_with(w, sizes.available_bytes).map(|_| ()).map_err(|e| e.to_string())
    };
    match stage {
        Stage::Height => height(world, sizes.samples.unwrap_or(200_000).max(1), runs),
        Stage::Drainage => {
            let mut settings = world.clone();
            settings.lattice_nodes = sizes.samples.unwrap_or(world.lattice_nodes).max(16);
            fits(&settings)?;
            let built_ms = drainage(&settings, runs);
            without_erosion(&settings, runs, built_ms);
        }
        Stage::Grid => {
            let edge = sizes.grid.max(2);
            watershed::check_grid_memory(edge, edge, sizes.available_bytes).map_err(|e| e.to_string())?;
            let dem = grid(world, edge, runs);
            if let Some(path) = &sizes.save_dem {
                std::fs::write(path, watershed::write_npy(&[edge, edge], &dem))
                    .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
                println!("grid  heightmap written to {}", path.display());
            }
        }
        Stage::Carve => {
            fits(world)?;
            carve(world, runs);
        }
        Stage::Water => {
            fits(world)?;
            water(world, runs);
        }
        Stage::All => {
            let mut million = world.clone();
            million.lattice_nodes = 1_000_000;
            fits(world)?;
            fits(&million)?;
            let edge = sizes.grid.max(2);
            watershed::check_grid_memory(edge, edge, sizes.available_bytes).map_err(|e| e.to_string())?;
            height(world, sizes.samples.unwrap_or(200_000).max(1), runs);
            let built_ms = drainage(world, runs);
            without_erosion(world, runs, built_ms);
            drainage(&million, runs.min(3));
            grid(world, edge, runs.min(3));
            carve(world, runs);
            water(world, runs);
        }
        Stage::GridWorld => {
            let edge = sizes.grid.max(watershed::MIN_HEIGHTMAP_SIDE);
            watershed::check_grid_memory(edge, edge, sizes.available_bytes).map_err(|e| e.to_string())?;
            grid_world(world, edge, runs);
        }
        Stage::Erosion => {
            fits(world)?;
            let edge = sizes.grid.max(2);
            watershed::check_grid_memory(edge, edge, sizes.available_bytes).map_err(|e| e.to_string())?;
            erosion(world, edge, runs);
        }
    }
    Ok(())
}

/// A square of `edge`² one-metre cells of the world's ground around latitude 10°,
/// longitude -50°, row-major.
fn square_dem(world: &WorldSettings, edge: usize) -> Vec<f64> {
    let planet = PlanetHeight::new(world);
    let centre = watershed::direction(10.0, -50.0);
    let east = watershed::unit(DVec3::Y.cross(centre));
    let north = centre.cross(east);
    let step = 1.0 / world.radius_m;
    let half = edge as f64 / 2.0;
    let dirs: Vec<DVec3> = (0..edge * edge)
        .map(|i| {
            let (row, col) = ((i / edge) as f64 - half, (i % edge) as f64 - half);
            centre + east * (col * step) - north * (row * step)
        })
        .collect();
    planet.heights(&dirs)
}

/// Milliseconds `f` takes.
fn timed(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64() * 1e3
}

fn erosion(world: &WorldSettings, edge: usize, runs: usize) {
    let sea = world.sea.then_some(world.sea_level_m);
    let outlets = |edge_outlets: bool| DrainageParams::outlets(sea, edge_outlets);
    let model = StreamPower::default();
    let eroding = WorldSettings { erosion: true, ..world.clone() };
    let still = WorldSettings { erosion: false, ..world.clone() };
    let load = |w: &WorldSettings| {
        (0..runs)
            .map(|_| {
                timed(|| {
                    black_box(Pipeline::new(w).ground());
                })
            })
            .collect::<Vec<f64>>()
    };
    let (with, without) = (median(load(&eroding)), median(load(&still)));
    let steps = eroding.erosion_steps as f64;
    let n = world.lattice_nodes as f64 / 1e6;
    let per_step = (with - without) / steps;
    println!(
        "erosion  planet {} ({} nodes, {} steps), {runs} runs (median)",
        world.name, world.lattice_nodes, steps
    );
    println!(
        "erosion  planet: adds {:.0} ms to the ground's build ({with:.0} ms eroding, {without:.0} ms not); {per_step:.1} ms per step, {:.0} ms per step per million nodes",
        with - without,
        per_step / n
    );
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().ok();
    let dem = square_dem(world, 1024);
    let grid = Grid { width: 1024, height: 1024, cell_m: 1.0 };
    let step_ms: Vec<f64> = (0..runs)
        .map(|_| {
            let run = || {
                let mut z = dem.clone();
                timed(|| {
                    erode_stream_power(&grid, &mut z, &model, &outlets(true), 1, &mut |_, _, _| {});
                })
            };
            match &one {
                Some(pool) => pool.install(run),
                None => run(),
            }
        })
        .collect();
    let grid_ms = median(step_ms);
    println!(
        "erosion  stream power, 1024x1024 grid, one thread: {grid_ms:.0} ms per step, {:.0} ms per step per million nodes",
        grid_ms / (1024.0 * 1024.0 / 1e6)
    );
    // Within a run each step works in the memory the last one used, over ground whose
    // pits earlier steps filled.
    const RUN_STEPS: usize = 10;
    let run_ms: Vec<f64> = (0..runs.min(3))
        .map(|_| {
            let run = || {
                let mut z = dem.clone();
                timed(|| {
                    erode_stream_power(&grid, &mut z, &model, &outlets(true), RUN_STEPS, &mut |_, _, _| {});
                }) / RUN_STEPS as f64
            };
            match &one {
                Some(pool) => pool.install(run),
                None => run(),
            }
        })
        .collect();
    println!(
        "erosion  stream power, 1024x1024 grid, one thread, {RUN_STEPS}-step run: {:.0} ms per step",
        median(run_ms)
    );
    let big = square_dem(world, edge);
    let square = Grid { width: edge, height: edge, cell_m: 1.0 };
    let count = edge * edge / 4;
    let mut z = big.clone();
    let drops = timed(|| {
        erode_droplets(&square, &mut z, &Droplets::default(), count, 1, 0, &mut |_, _, _| {});
    });
    println!("erosion  droplets, {edge}x{edge} grid: {count} droplets in {drops:.0} ms (one run)");
    let mut z = dem.clone();
    let ws = timed(|| {
        erode_water_sediment(&grid, &mut z, &WaterSediment::default(), 200, 0, &mut |_, _, _| {});
    });
    println!("erosion  water + sediment, 1024x1024 x 200 steps: {ws:.0} ms (one run)");
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

fn height(world: &WorldSettings, samples: usize, runs: usize) {
    let dirs: Vec<_> = (0..samples).map(|i| watershed::fibonacci(i, samples)).collect();
    println!("height  world {}  {} directions x {} runs (median)", world.name, samples, runs);
    let worked = Pipeline::new(world).ground().map(|g| g.planet);
    let grounds = [("natural field", Some(PlanetHeight::new(world))), ("worked ground", worked)];
    for (what, planet) in grounds {
        let Some(planet) = planet else { continue };
        let single: Vec<f64> = (0..runs)
            .map(|_| {
                let t = Instant::now();
                let mut sum = 0.0;
                for &d in &dirs {
                    sum += planet.height(black_box(d));
                }
                black_box(sum);
                samples as f64 / t.elapsed().as_secs_f64()
            })
            .collect();
        let parallel: Vec<f64> = (0..runs)
            .map(|_| {
                let t = Instant::now();
                black_box(planet.heights(&dirs));
                samples as f64 / t.elapsed().as_secs_f64()
            })
            .collect();
        println!(
            "height  {what}: {:.0} evaluations/s per core, {:.0} on all {} threads",
            median(single),
            median(parallel),
            rayon::current_num_threads()
        );
    }
}

/// Stages of the ground's working (erosion, sediment, the field read back at the nodes).
const GROUND_WORK: [&str; 3] = ["erosion", "sediment", "ground"];

/// Peak resident memory of this process so far, bytes (Linux; 0 elsewhere).
fn peak_rss_bytes() -> u64 {
    status_bytes("VmHWM:")
}

/// A memory figure of this process's `/proc/self/status` (`field` with its colon), bytes;
/// 0 where there is none.
fn status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// The whole solve of `settings` (its `lattice_nodes` set by `--samples`), `runs` times;
/// returns the world build's median, ms.
fn drainage(settings: &WorldSettings, runs: usize) -> f64 {
    let before = peak_rss_bytes();
    let mut totals = Vec::new();
    let mut solves = Vec::new();
    let mut work = Vec::new();
    let mut stages: Vec<(&'static str, Vec<f64>)> = Vec::new();
    let mut stats = None;
    let mut life = Vec::new();
    let mut life_again = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let solved = World::build(settings);
        totals.push(t.elapsed().as_secs_f64() * 1e3);
        life.push(timed(|| {
            black_box(Life::of(&solved));
        }));
        // Once more, right after, on pages freed a moment ago: on this machine pages freed for
        // a few seconds cost the kernel four times as long to hand out again, a fifth of the
        // first run's time at 16 M nodes.
        life_again.push(timed(|| {
            black_box(Life::of(&solved));
        }));
        work.push(
            solved
                .timings_ms
                .iter()
                .filter(|(name, _)| GROUND_WORK.contains(name))
                .map(|(_, ms)| ms)
                .sum::<f64>(),
        );
        solves.push(
            solved
                .timings_ms
                .iter()
                .filter(|(name, _)| !["carve", "water"].contains(name) && !GROUND_WORK.contains(name))
                .map(|(_, ms)| ms)
                .sum::<f64>(),
        );
        for (k, (name, ms)) in solved.timings_ms.iter().enumerate() {
            match stages.get_mut(k) {
                Some((_, v)) => v.push(*ms),
                None => stages.push((name, vec![*ms])),
            }
        }
        stats = Some(solved.terrain.drainage.stats.clone());
    }
    let peak = peak_rss_bytes();
    let lattice = watershed::FibonacciLattice::new(settings.lattice_nodes.max(16), settings.radius_m);
    let probes = watershed::random_directions(settings.seed, 200_000);
    let t = Instant::now();
    let mut hits = 0usize;
    for &d in &probes {
        hits = hits.wrapping_add(lattice.nearest_node(black_box(d)).index());
    }
    black_box(hits);
    let lookups = probes.len() as f64 / t.elapsed().as_secs_f64();
    println!(
        "drainage  world {}  {} nodes  {} threads  {} runs (median)",
        settings.name,
        settings.lattice_nodes,
        rayon::current_num_threads(),
        runs
    );
    println!(
        "drainage  whole solve (lattice to rivers, without the ground's working): {:.1} ms",
        median(solves)
    );
    println!("drainage  the ground's working (erosion, sediment, field): {:.1} ms", median(work));
    let built_ms = median(totals);
    println!("drainage  world build with carve and water table: {built_ms:.1} ms");
    println!("drainage  life (climate, biomes, sites) on the built world: {:.1} ms", median(life));
    println!("drainage  life again on the same world, right after: {:.1} ms", median(life_again));
    let parts: Vec<String> = stages.into_iter().map(|(name, v)| format!("{name} {:.1}", median(v))).collect();
    println!("drainage  stages (ms): {}", parts.join(", "));
    println!(
        "drainage  peak memory: {:.1} MiB ({:.0} bytes a node above the {:.1} MiB before the solve)",
        peak as f64 / 1048576.0,
        peak.saturating_sub(before) as f64 / settings.lattice_nodes as f64,
        before as f64 / 1048576.0
    );
    let estimate = watershed::estimate_solve(settings);
    println!(
        "drainage  estimated before the solve: {:.1} MiB, {:.3} s on two cores ({} reaches, {} bed pieces); \
         the build took {:.2} times that",
        estimate.bytes as f64 / 1048576.0,
        estimate.seconds,
        estimate.reaches,
        estimate.bed_pieces,
        built_ms / 1e3 / estimate.seconds
    );
    println!("drainage  nearest_node: {lookups:.0} lookups/s (one thread)");
    if let Some(s) = stats {
        println!(
            "drainage  sea {} land {} lake {} river {} lakes {} mouths {} uphill {} no_path {} underwater_rivers {}",
            s.sea, s.land, s.lake, s.river, s.lakes, s.mouths, s.uphill, s.no_path, s.underwater_rivers
        );
    }
    built_ms
}

/// When `settings` erode: the same world built `runs` times with erosion off, and what
/// erosion adds to the whole build (`eroding_ms`, its median with erosion), ms.
fn without_erosion(settings: &WorldSettings, runs: usize, eroding_ms: f64) {
    if !settings.erosion {
        return;
    }
    let still = WorldSettings { erosion: false, ..settings.clone() };
    let still_ms = median((0..runs).map(|_| timed(|| drop(black_box(World::build(&still))))).collect());
    println!(
        "drainage  world build with erosion off: {still_ms:.1} ms (erosion adds {:.1} ms to the build, carve and water included)",
        eroding_ms - still_ms
    );
}

/// Times the drainage of an `edge`² cut of the world's ground; returns the heightmap.
fn grid(world: &WorldSettings, edge: usize, runs: usize) -> Vec<f64> {
    let dem = square_dem(world, edge);
    let grid = Grid { width: edge, height: edge, cell_m: 1.0 };
    let options = GridOptions {
        sea_level_m: world.sea.then_some(world.sea_level_m),
        edge_outlets: true,
        lake_min_depth_m: world.lake_min_depth_m,
    };
    let mut times = Vec::new();
    let mut lakes = 0;
    for _ in 0..runs {
        let t = Instant::now();
        let (d, _) = drain_grid(&grid, &dem, &options);
        times.push(t.elapsed().as_secs_f64() * 1e3);
        lakes = d.lakes.len();
    }
    println!("grid  {edge}x{edge} cells of 1 m from world {}  {} runs (median)", world.name, runs);
    println!("grid  drain: {:.0} ms ({lakes} lakes)", median(times));
    dem
}

fn carve(world: &WorldSettings, runs: usize) {
    let solved = World::build(world);
    let reaches = &solved.terrain.carve.reaches;
    let Some((big, reach)) =
        reaches.iter().enumerate().max_by(|a, b| a.1.catchment_m2.total_cmp(&b.1.catchment_m2))
    else {
        println!("carve  world {} has no rivers", world.name);
        return;
    };
    // A 35³ block of 1 m voxels centred on the largest river's middle, at its bed.
    let mid = reach.middle();
    let centre = mid * (world.radius_m + reach.bed_at(reach.length_m / 2.0));
    let block = watershed::Block { origin: centre - DVec3::splat(17.0), size: [35; 3], step_m: 1.0 };
    let mut buffer = vec![0f32; 35 * 35 * 35];
    let fills: Vec<f64> = (0..runs.max(20))
        .map(|_| {
            let t = Instant::now();
            black_box(solved.terrain.fill_block(&block, &mut buffer).ok());
            t.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    let kind = solved
        .terrain
        .fill_block(&block, &mut buffer)
        .map(|f| format!("{f:?}"))
        .unwrap_or_else(|e| e.to_string());
    let probes = watershed::random_directions(world.seed, 200_000);
    let t = Instant::now();
    let mut sum = 0.0;
    for &d in &probes {
        sum += solved.terrain.ground(black_box(d));
    }
    black_box(sum);
    let queries = probes.len() as f64 / t.elapsed().as_secs_f64();
    let sample: Vec<usize> = (0..reaches.len()).step_by((reaches.len() / 200).max(1)).collect();
    let mut bake_ms = Vec::new();
    let mut bytes = Vec::new();
    let mut failures = 0;
    for &id in &sample {
        let t = Instant::now();
        match solved.terrain.bake_reach(watershed::ReachId(id as u32)) {
            Ok(v) => {
                bake_ms.push(t.elapsed().as_secs_f64() * 1e3);
                bytes.push(v.bytes() as f64);
            }
            Err(_) => failures += 1,
        }
    }
    let max_bytes = bytes.iter().copied().fold(0.0, f64::max);
    println!("carve  world {}  {} reaches  block on reach {big}", world.name, reaches.len());
    println!("carve  35x35x35 block fill: {:.3} ms median, one thread ({kind})", median(fills));
    println!("carve  ground(dir): {queries:.0} queries/s, one thread");
    println!(
        "carve  reach volume bake: {:.3} ms median, {:.0} bytes median, {max_bytes:.0} max, {} reaches, {failures} failed",
        median(bake_ms.clone()),
        median(bytes.clone()),
        bake_ms.len()
    );
}

fn water(world: &WorldSettings, runs: usize) {
    let solved = World::build(world);
    let anywhere = watershed::random_directions(world.seed, 200_000);
    let reaches = &solved.terrain.carve.reaches;
    let rivers: Vec<DVec3> = (0..200_000)
        .map(|k| {
            let r = &reaches[k % reaches.len().max(1)];
            r.point_at((k / reaches.len().max(1)) as f64 % 16.0 / 16.0)
        })
        .collect();
    let rate = |dirs: &[DVec3]| {
        median(
            (0..runs)
                .map(|_| {
                    let t = Instant::now();
                    black_box(solved.water().each(dirs, |w, d| w.level_at(d)));
                    dirs.len() as f64 / t.elapsed().as_secs_f64()
                })
                .collect(),
        )
    };
    let wet = solved.water().each(&rivers, |w, d| w.level_at(d)).iter().filter(|l| l.is_some()).count();
    println!("water  world {}  {} threads  {} runs (median)", world.name, rayon::current_num_threads(), runs);
    println!(
        "water  how: World::levels_at on a batch of 200,000 directions (rayon, all threads), \
         queries/s = 200,000 / wall time of the batch, world already built"
    );
    if !reaches.is_empty() {
        println!(
            "water  level_at on river centre lines: {:.0} queries/s ({wet} of {} wet)",
            rate(&rivers),
            rivers.len()
        );
    }
    println!("water  level_at anywhere: {:.0} queries/s", rate(&anywhere));
}

/// Where `bench grid-world` cuts its square: the region of the home world the heightmap
/// figures are quoted for (land running down to the sea), degrees north and east.
const GRID_WORLD_REGION: (f64, f64) = (-27.08, 95.32);

/// Times the heightmap pipeline on an `edge`² square of one-metre cells, `runs` times:
/// median milliseconds per stage and in all, and the peak memory it added per cell.
fn grid_world(world: &WorldSettings, edge: usize, runs: usize) {
    let (grid, heights) = crate::grid_world::region(world, GRID_WORLD_REGION, (edge - 1) as f64, edge);
    let params =
        HeightmapParams { sea_level_m: world.sea.then_some(world.sea_level_m), ..HeightmapParams::default() };
    let mut stages: Vec<(&'static str, Vec<f64>)> = Vec::new();
    let mut totals = Vec::new();
    let mut stats = None;
    let mut heap_peaks: Vec<(&'static str, usize)> = Vec::new();
    let never = AtomicBool::new(false);
    for _ in 0..runs {
        // The heap's peak above what it held before the input was copied, by stage.
        heap::start();
        let base = heap::live_bytes();
        heap::reset_peak();
        let stage_peaks = Mutex::new(Vec::new());
        let note_peak = |stage: &'static str, _done: f64| {
            if let Ok(mut peaks) = stage_peaks.lock() {
                peaks.push((stage, heap::peak_bytes().saturating_sub(base).max(0) as usize));
            }
            heap::reset_peak();
        };
        let t = Instant::now();
        let Some(built) =
            HeightmapWorld::build_cancellable(grid, heights.clone(), &params, &note_peak, &never)
        else {
            unreachable!("nothing sets the flag")
        };
        let pipeline_ms = t.elapsed().as_secs_f64() * 1e3;
        let maps_ms = timed(|| {
            black_box(GridMaps::of(&built));
        });
        let mut peaks = stage_peaks.into_inner().unwrap_or_default();
        peaks.push(("maps", heap::peak_bytes().saturating_sub(base).max(0) as usize));
        heap_peaks = peaks;
        totals.push(pipeline_ms);
        for (stage, ms) in built.timings_ms.iter().copied().chain([("maps", maps_ms)]) {
            match stages.iter_mut().find(|(s, _)| *s == stage) {
                Some((_, v)) => v.push(ms),
                None => stages.push((stage, vec![ms])),
            }
        }
        stats = Some(built.stats());
    }
    let cells = (edge * edge) as f64;
    println!(
        "grid-world  {edge}x{edge} cells of 1 m from world {} at {:.2},{:.2}, no erosion  {runs} runs (median)",
        world.name, GRID_WORLD_REGION.0, GRID_WORLD_REGION.1
    );
    for (stage, times) in stages {
        println!("grid-world  {stage}: {:.0} ms", median(times));
    }
    println!("grid-world  pipeline (settle .. fit, maps not included): {:.0} ms", median(totals));
    let per_cell = |bytes: usize| bytes as f64 / cells;
    let by_stage: Vec<String> =
        heap_peaks.iter().map(|(stage, bytes)| format!("{stage} {:.0}", per_cell(*bytes))).collect();
    println!(
        "grid-world  heap peak by stage, bytes a cell above the caller's own (the input included): {}",
        by_stage.join(", ")
    );
    let pipeline_peak = heap_peaks.iter().filter(|(s, _)| *s != "maps").map(|(_, b)| *b).max().unwrap_or(0);
    let maps_peak = heap_peaks.iter().find(|(s, _)| *s == "maps").map_or(0, |(_, b)| *b);
    println!(
        "grid-world  peak memory: pipeline {:.0} bytes a cell ({:.0} MiB); the maps for heightmap add-ons made beside the world {:.0} bytes a cell",
        per_cell(pipeline_peak),
        pipeline_peak as f64 / 1048576.0,
        per_cell(maps_peak)
    );
    if let Some(s) = stats {
        println!(
            "grid-world  {} reaches, {} lakes; shoreline mismatches {} (worst {:.2} m), water steps {} (worst {:.2} m), uphill water {}",
            s.reaches, s.lakes, s.shoreline_mismatches, s.worst_shoreline_m, s.water_steps, s.worst_step_m, s.uphill_water
        );
        let f = s.fit;
        println!(
            "grid-world  fit to the ground: {} river cells lifted, {} cells lowered, {} dried (worst lowering {:.2} m) of {} wet",
            f.lifted_cells,
            f.lowered_cells,
            f.dried_cells,
            f.worst_lowering_m,
            s.river_cells + s.lake_cells + s.sea_cells
        );
    }
}
