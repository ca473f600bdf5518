//! `watershed`: generate, render, check, digest and benchmark worlds without Godot.
//!
//! Each command is the same shape: arguments → settings → core → files or lines on stdout.
//! Errors are one clear line on stderr and a non-zero exit.

mod bench;
mod export;
mod generate;

use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use watershed::{WorldCatalog, WorldSettings};

#[derive(Parser)]
#[command(name = "watershed", version, about = "Planets whose water obeys real hydrology")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Render a world to map.png and globe.png and write report.json.
    Generate {
        /// World name in the worlds file.
        #[arg(long)]
        world: String,
        /// The worlds file.
        #[arg(long, default_value = "worlds.json")]
        worlds: PathBuf,
        /// Output folder [default: out/<world>].
        #[arg(long)]
        out: Option<PathBuf>,
        /// Width of the equirectangular map in pixels (height is half).
        #[arg(long, default_value_t = 2048)]
        map_width: usize,
        /// Width and height of the globe picture in pixels.
        #[arg(long, default_value_t = 1024)]
        globe_size: usize,
    },
    /// Validate a worlds file and print every error.
    Check {
        /// The worlds file.
        #[arg(default_value = "worlds.json")]
        file: PathBuf,
    },
    /// Print the SHA-256 digests of a world (raw IEEE bytes of 4,096 seeded directions).
    Digest {
        /// World name in the worlds file.
        #[arg(long)]
        world: String,
        /// The worlds file.
        #[arg(long, default_value = "worlds.json")]
        worlds: PathBuf,
    },
    /// Write a world's lattice solve as .npy arrays.
    Export {
        /// World name in the worlds file.
        #[arg(long)]
        world: String,
        /// The worlds file.
        #[arg(long, default_value = "worlds.json")]
        worlds: PathBuf,
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
    },
    /// Drain a heightmap (.npy, 2-D f32 or f64, row-major) with D8 receivers.
    GridDrain {
        /// The heightmap, metres.
        #[arg(long)]
        dem: PathBuf,
        /// Cell edge length, metres.
        #[arg(long, default_value_t = 1.0)]
        cell_m: f64,
        /// Cells strictly under this height are sea (outlets).
        #[arg(long, allow_negative_numbers = true)]
        sea_level: Option<f64>,
        /// Make the map edge an outlet.
        #[arg(long)]
        edge_outlets: bool,
        /// A depression filled deeper than this is a lake, metres.
        #[arg(long, default_value_t = 1.4)]
        lake_min_depth: f64,
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
    },
    /// Draw a river's long profile and a cross-section through one reach to PNG.
    Section {
        /// World name in the worlds file.
        #[arg(long)]
        world: String,
        /// The worlds file.
        #[arg(long, default_value = "worlds.json")]
        worlds: PathBuf,
        /// Reach id (report.json's `carve.largest_reach` is a good start).
        #[arg(long)]
        reach: u32,
        /// Output PNG [default: out/<world>/section-<reach>.png].
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Run the probes against the core: one line per check, non-zero exit on any FAIL.
    Probe {
        /// One world (default: every world in the file).
        #[arg(long)]
        world: Option<String>,
        /// Every world in the file (the default).
        #[arg(long, conflicts_with = "world")]
        all: bool,
        /// The worlds file.
        #[arg(long, default_value = "worlds.json")]
        worlds: PathBuf,
    },
    /// Measure a stage and print its figure.
    Bench {
        /// Which stage to measure.
        #[arg(value_enum)]
        stage: bench::Stage,
        /// World name in the worlds file.
        #[arg(long, default_value = "home")]
        world: String,
        /// The worlds file.
        #[arg(long, default_value = "worlds.json")]
        worlds: PathBuf,
        /// Evaluations per run (height) or lattice nodes (drainage) [default: 200000 for
        /// height, the world's lattice_nodes for drainage].
        #[arg(long)]
        samples: Option<usize>,
        /// Grid edge in cells (grid).
        #[arg(long, default_value_t = 2113)]
        grid: usize,
        /// Runs; the median is reported.
        #[arg(long, default_value_t = 7)]
        runs: usize,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Generate { world, worlds, out, map_width, globe_size } => {
            let out = out.unwrap_or_else(|| Path::new("out").join(&world));
            load_world(&worlds, &world)
                .and_then(|w| generate::run(&w, &out, generate::Sizes { map_width, globe_size }))
        }
        Command::Check { file } => return check(&file),
        Command::Probe { world, all: _, worlds } => return probe(&worlds, world.as_deref()),
        Command::Digest { world, worlds } => load_world(&worlds, &world).map(|w| digest(&w)),
        Command::Bench { stage, world, worlds, samples, grid, runs } => {
            load_world(&worlds, &world).map(|w| bench::run(stage, &w, bench::Sizes { samples, grid, runs }))
        }
        Command::Section { world, worlds, reach, out } => {
            let out =
                out.unwrap_or_else(|| Path::new("out").join(&world).join(format!("section-{reach}.png")));
            load_world(&worlds, &world).and_then(|w| generate::section(&w, reach, &out))
        }
        Command::Export { world, worlds, out } => {
            load_world(&worlds, &world).and_then(|w| export::sphere(&w, &out))
        }
        Command::GridDrain { dem, cell_m, sea_level, edge_outlets, lake_min_depth, out } => {
            let options = watershed::GridOptions {
                sea_level_m: sea_level,
                edge_outlets,
                lake_min_depth_m: lake_min_depth,
            };
            export::grid(&dem, cell_m, &options, &out)
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// Loads one world by name; the error names the file and, for an unknown world, the choices.
fn load_world(path: &Path, name: &str) -> Result<WorldSettings, String> {
    let catalog = WorldCatalog::from_json(&read(path)?).map_err(|e| {
        let first = e.0.first().map_or(String::new(), |e| e.message.clone());
        let (n, file) = (e.0.len(), path.display());
        format!("{file} has {n} error(s), the first: {first}; `watershed check {file}` lists them all")
    })?;
    catalog.get(name).cloned().ok_or_else(|| {
        format!("no world '{name}' in {}; worlds are: {}", path.display(), catalog.names().join(", "))
    })
}

fn check(path: &Path) -> ExitCode {
    let text = match read(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    match WorldCatalog::from_json(&text) {
        Ok(c) => {
            println!("{}: {} worlds OK ({})", path.display(), c.worlds.len(), c.names().join(", "));
            ExitCode::SUCCESS
        }
        Err(errors) => {
            for e in &errors.0 {
                eprintln!("{}: {e}", path.display());
            }
            eprintln!("{}: {} error(s)", path.display(), errors.0.len());
            ExitCode::FAILURE
        }
    }
}

fn digest(world: &WorldSettings) {
    let solved = watershed::World::build(world);
    let d = watershed::world_digests(world, &solved.planet);
    println!("world       {}", world.name);
    println!("samples     {}", watershed::DIGEST_SAMPLES);
    println!("directions  {}", d.directions);
    println!("heights     {}", d.heights);
    println!("network     {}", solved.network_digest());
    println!("sets        {}", solved.sets_digest());
    println!("carve       {}", solved.carve_digest());
    println!("water       {}", solved.water_digest());
}

fn probe(path: &Path, only: Option<&str>) -> ExitCode {
    let text = match read(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut lines = watershed::config_probe(&text);
    let worlds = match WorldCatalog::from_json(&text) {
        Ok(c) => c.worlds,
        Err(_) => Vec::new(),
    };
    if let Some(name) = only.filter(|n| !worlds.iter().any(|w| w.name == *n)) {
        eprintln!("error: no world '{name}' in {}", path.display());
        return ExitCode::FAILURE;
    }
    for line in &lines {
        println!("{line}");
    }
    for world in worlds.iter().filter(|w| only.is_none_or(|n| n == w.name)) {
        let found = watershed::world_probes(world);
        for line in &found {
            println!("{line}");
        }
        lines.extend(found);
    }
    let count = |v: fn(&watershed::Verdict) -> bool| lines.iter().filter(|l| v(&l.verdict)).count();
    let passed = count(|v| *v == watershed::Verdict::Pass);
    let failed = count(|v| matches!(v, watershed::Verdict::Fail(_)));
    let skipped = count(|v| matches!(v, watershed::Verdict::Skip(_)));
    println!("probe: {passed} passed, {failed} failed, {skipped} skipped");
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
