//! `watershed`: generate, render, check, digest and benchmark worlds without Godot.
//!
//! Each command is the same shape: arguments → settings → core → files or lines on stdout.
//! Errors are one clear line on stderr and a non-zero exit. Every numeric flag is checked
//! against its range before anything runs, and every command that solves a world or a
//! heightmap first checks that its estimated memory fits what the machine has available.

mod addon_maps;
mod bench;
mod dem;
mod erode;
mod export;
mod generate;
mod grid_world;
mod heap;
mod knobs;

use clap::{Parser, Subcommand};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use watershed::{WorldCatalog, WorldSettings};

#[derive(Parser)]
#[command(name = "watershed", version, about = "Planets whose water obeys real hydrology")]
struct Cli {
    /// Memory a solve may use, MiB [default: what the machine has available now].
    #[arg(long, global = true, value_parser = clap::value_parser!(u64).range(1..=1 << 40))]
    memory_mib: Option<u64>,
    #[command(subcommand)]
    command: Command,
}

/// The largest worlds file read: the shipped one is ten kilobytes.
const MAX_WORLDS_FILE_BYTES: u64 = 64 << 20;

/// `--worlds FILE`: the worlds file a command reads.
#[derive(clap::Args)]
struct WorldsFile {
    /// The worlds file.
    #[arg(long, default_value = "worlds.json")]
    worlds: PathBuf,
}

/// `--world NAME [--worlds FILE]`: one world of a worlds file.
#[derive(clap::Args)]
struct WorldArg {
    /// World name in the worlds file.
    #[arg(long)]
    world: String,
    #[command(flatten)]
    file: WorldsFile,
    /// Solve the world on this many lattice nodes instead of its own `lattice_nodes` (the
    /// same planet at another size, without editing the worlds file; the key's range holds).
    #[arg(long)]
    lattice_nodes: Option<usize>,
}

#[derive(Subcommand)]
enum Command {
    /// Render a world to map.png and globe.png and write report.json.
    Generate {
        #[command(flatten)]
        pick: WorldArg,
        /// Output folder [default: out/<world>].
        #[arg(long)]
        out: Option<PathBuf>,
        /// Width of the equirectangular map in pixels, 2..=16384 (height is half).
        #[arg(long, default_value_t = 2048, value_parser = clap::value_parser!(u32).range(2..=16384))]
        map_width: u32,
        /// Width and height of the globe picture in pixels, 2..=8192.
        #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(2..=8192))]
        globe_size: u32,
    },
    /// Validate a worlds file and print every error.
    Check {
        /// The worlds file.
        #[arg(default_value = "worlds.json")]
        file: PathBuf,
    },
    /// Print the water-sediment and droplet models' dials and presets as Markdown tables.
    Dials,
    /// Print the worlds.json keys as a Markdown table: group, key, accepted values, meaning.
    Keys {
        /// Print the Godot `WorldSettings` property names instead of the JSON keys.
        #[arg(long)]
        inspector: bool,
    },
    /// Print the SHA-256 digests of a world (raw IEEE bytes of 4,096 seeded directions).
    Digest {
        #[command(flatten)]
        pick: WorldArg,
    },
    /// Write a world's lattice solve as .npy arrays.
    Export {
        #[command(flatten)]
        pick: WorldArg,
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
    },
    /// Drain a heightmap (.npy, 16-bit .png, .r16/.raw, .r32 or .exr) with D8 receivers.
    GridDrain {
        /// The heightmap: .npy (f32/f64, metres), .png (16-bit grey), .r16/.raw (16-bit,
        /// square), .r32 (f32, square) or .exr (first float channel, metres).
        #[arg(long)]
        dem: PathBuf,
        /// Metres that 0 and 65535 stand for in a 16-bit heightmap: MIN,MAX.
        #[arg(long, allow_hyphen_values = true, value_parser = height_range)]
        height_range: Option<(f64, f64)>,
        /// Cell edge length, metres (0.001..=100000).
        #[arg(long, default_value_t = 1.0, allow_negative_numbers = true, value_parser = cell_m)]
        cell_m: f64,
        /// Cells strictly under this height are sea (outlets), metres (±10000000).
        #[arg(long, allow_negative_numbers = true, value_parser = sea_level)]
        sea_level: Option<f64>,
        /// Make the map edge an outlet.
        #[arg(long)]
        edge_outlets: bool,
        /// A depression filled deeper than this is a lake, metres (0..=10000).
        #[arg(long, default_value_t = 1.4, allow_negative_numbers = true, value_parser = lake_min_depth)]
        lake_min_depth: f64,
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
    },
    /// The whole river pipeline on a heightmap (--dem) or a square region cut from a world
    /// (--world with --region): erosion, drainage, carve, water; report.json, the carved
    /// ground, water level and cover (.npy), relief, flow accumulation and long profile
    /// pictures, and the maps for Terrain3D (terrain3d/) and HTerrain (hterrain/).
    GridWorld {
        /// The heightmap: .npy, .png (16-bit), .r16/.raw, .r32 or .exr (as for grid-drain).
        #[arg(long, conflicts_with = "world", required_unless_present = "world")]
        dem: Option<PathBuf>,
        /// Metres that 0 and 65535 stand for in a 16-bit heightmap: MIN,MAX.
        #[arg(long, allow_hyphen_values = true, value_parser = height_range)]
        height_range: Option<(f64, f64)>,
        /// A world of the worlds file to cut the region from.
        #[arg(long, requires = "region")]
        world: Option<String>,
        #[command(flatten)]
        file: WorldsFile,
        /// The region of the world: LAT,LON,SIZE_M (degrees, degrees, metres 10..=100000).
        #[arg(long, allow_hyphen_values = true, value_parser = region)]
        region: Option<(f64, f64, f64)>,
        /// Cells a side of the region, 3..=8193.
        #[arg(long, default_value_t = 2113, value_parser = clap::value_parser!(u64).range(3..=8193))]
        size: u64,
        /// The pipeline's knobs, one flag per row of the core's table (a region's cell is its
        /// size over its cells, and its sea the world's unless --sea-level is given).
        #[command(flatten)]
        knobs: knobs::Knobs,
        /// Erosion before the drainage.
        #[arg(long, value_enum, default_value_t = grid_world::Erosion::None)]
        erosion: grid_world::Erosion,
        /// Water-sediment and droplets: a named set of dials (default, gentle, gorges; for
        /// water-sediment also gpu-rocks), as for `erode`.
        #[arg(long)]
        preset: Option<String>,
        /// Water-sediment and droplets: any dial as NAME=VALUE, repeatable (`watershed dials`
        /// lists them).
        #[arg(long = "dial", value_parser = dial_setting)]
        dials: Vec<(String, f64)>,
        /// Seed of the droplets.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output folder (written only once everything is).
        #[arg(long)]
        out: PathBuf,
    },
    /// Erode a heightmap (--dem) or a planet's lattice (--world) and write the eroded heights,
    /// frames, an animated PNG, scrubber.html and report.json.
    Erode {
        /// The heightmap: .npy, .png (16-bit), .r16/.raw, .r32 or .exr (as for grid-drain).
        #[arg(long, conflicts_with = "world", required_unless_present = "world")]
        dem: Option<PathBuf>,
        /// Metres that 0 and 65535 stand for in a 16-bit heightmap: MIN,MAX.
        #[arg(long, allow_hyphen_values = true, value_parser = height_range)]
        height_range: Option<(f64, f64)>,
        /// A world of the worlds file (stream power on its lattice).
        #[arg(long)]
        world: Option<String>,
        #[command(flatten)]
        file: WorldsFile,
        /// Cell edge length of the heightmap, metres (0.001..=100000).
        #[arg(long, default_value_t = 1.0, allow_negative_numbers = true, value_parser = cell_m)]
        cell_m: f64,
        /// Cells of the heightmap strictly under this height are sea, metres (±10000000).
        #[arg(long, allow_negative_numbers = true, value_parser = sea_level)]
        sea_level: Option<f64>,
        /// The erosion model.
        #[arg(long, value_enum, default_value_t = erode::Model::StreamPower)]
        model: erode::Model,
        /// Steps, 1..=100000 (droplets: droplets, 1..=100000000) [default: 100 stream power,
        /// 200 water-sediment, a droplet per four cells].
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        steps: Option<u64>,
        /// A frame every this many steps (droplets: batches of 8,192) [default: about 40 frames].
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
        every: Option<u64>,
        /// Seed of the droplets.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Stream power: erodibility K per year, 1e-9..=1 [default: 2e-5].
        #[arg(long, value_parser = erodibility)]
        k: Option<f64>,
        /// Stream power: catchment exponent m, 0.1..=1 [default: 0.5].
        #[arg(long, value_parser = area_exponent)]
        m: Option<f64>,
        /// Stream power: hillslope diffusivity, m²/yr, 0..=100 [default: 0.01].
        #[arg(long, value_parser = diffusivity)]
        diffusion: Option<f64>,
        /// Water-sediment and droplets: a named set of dials — default, gentle, gorges, and
        /// for water-sediment gpu-rocks (seed 003's constants); the dials below turn it.
        #[arg(long)]
        preset: Option<String>,
        /// Water-sediment: rain on every cell each step, metres (0..=1).
        #[arg(long, allow_negative_numbers = true)]
        rain: Option<f64>,
        /// Water-sediment and droplets: share of the water that dries each step (0..=1).
        #[arg(long, allow_negative_numbers = true)]
        evaporate: Option<f64>,
        /// Water-sediment and droplets: sediment the water carries per metre of water and
        /// √metre of drop (droplets: per unit of fall, speed and water), 0..=1000.
        #[arg(long, allow_negative_numbers = true)]
        carry: Option<f64>,
        /// Water-sediment and droplets: share of the free capacity picked up each step (0..=1).
        #[arg(long, allow_negative_numbers = true)]
        pickup: Option<f64>,
        /// Water-sediment and droplets: share of the sediment over capacity that settles each
        /// step (0..=1).
        #[arg(long, allow_negative_numbers = true)]
        settle: Option<f64>,
        /// Water-sediment: the most ground one cell loses in a step, metres (0..=100).
        #[arg(long, allow_negative_numbers = true)]
        max_cut: Option<f64>,
        /// Any dial of the model as NAME=VALUE, repeatable: e.g. droplets' inertia, min_slope,
        /// gravity, radius, lifetime, start_water, start_speed (docs/erosion-dials.md lists all).
        #[arg(long = "dial", value_parser = dial_setting)]
        dials: Vec<(String, f64)>,
        /// Output folder.
        #[arg(long)]
        out: PathBuf,
    },
    /// Draw a river's long profile and a cross-section through one reach to PNG.
    Section {
        #[command(flatten)]
        pick: WorldArg,
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
        #[command(flatten)]
        file: WorldsFile,
    },
    /// Measure a stage and print its figure.
    Bench {
        /// Which stage to measure.
        #[arg(value_enum)]
        stage: bench::Stage,
        /// World name in the worlds file.
        #[arg(long, default_value = "home")]
        world: String,
        #[command(flatten)]
        file: WorldsFile,
        /// Evaluations per run (height) or lattice nodes (drainage), 16..=16000000
        /// [default: 200000 for height, the world's lattice_nodes for drainage].
        #[arg(long, value_parser = clap::value_parser!(u32).range(16..=16_000_000))]
        samples: Option<u32>,
        /// Grid edge in cells (grid), 2..=16384.
        #[arg(long, default_value_t = 2113, value_parser = clap::value_parser!(u32).range(2..=16384))]
        grid: u32,
        /// Runs, 1..=1000; the median is reported.
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(1..=1000))]
        runs: u32,
        /// With `grid`: also write the heightmap it drains to this `.npy` (f64), to time other
        /// tools on the same map (`scripts/grid-vs-richdem.py`).
        #[arg(long)]
        save_dem: Option<PathBuf>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let memory = Memory(match (watershed::available_memory_bytes(), cli.memory_mib.map(|m| m << 20)) {
        (Some(a), Some(cap)) => Some(a.min(cap)),
        (a, cap) => a.or(cap),
    });
    let result = match cli.command {
        Command::Generate { pick, out, map_width, globe_size } => {
            let out = out.unwrap_or_else(|| Path::new("out").join(&pick.world));
            let sizes = generate::Sizes { map_width: map_width as usize, globe_size: globe_size as usize };
            memory.load(&pick).and_then(|w| {
                memory.fits_pictures(&w, &sizes)?;
                generate::run(&w, &out, sizes)
            })
        }
        Command::Check { file } => return check(&file),
        Command::Dials => {
            print!("{}", watershed::dials_markdown());
            return ExitCode::SUCCESS;
        }
        Command::Keys { inspector } => {
            print!(
                "{}",
                if inspector { watershed::inspector_markdown() } else { watershed::keys_markdown() }
            );
            return ExitCode::SUCCESS;
        }
        Command::Probe { world, all: _, file } => return probe(&file.worlds, world.as_deref(), memory),
        Command::Digest { pick } => memory.load(&pick).map(|w| digest(&w)),
        Command::Bench { stage, world, file, samples, grid, runs, save_dem } => {
            load_world(&file.worlds, &world).and_then(|w| {
                let sizes = bench::Sizes {
                    samples: samples.map(|s| s as usize),
                    grid: grid as usize,
                    runs: runs as usize,
                    available_bytes: memory.0,
                    save_dem,
                };
                bench::run(stage, &w, sizes)
            })
        }
        Command::Section { pick, reach, out } => {
            let out = out
                .unwrap_or_else(|| Path::new("out").join(&pick.world).join(format!("section-{reach}.png")));
            memory.load(&pick).and_then(|w| generate::section(&w, reach, &out))
        }
        Command::Export { pick, out } => memory.load(&pick).and_then(|w| export::sphere(&w, &out)),
        Command::Erode {
            dem,
            height_range,
            world,
            file,
            cell_m,
            sea_level,
            model,
            steps,
            every,
            seed,
            k,
            m,
            diffusion,
            preset,
            rain,
            evaporate,
            carry,
            pickup,
            settle,
            max_cut,
            dials,
            out,
        } => {
            let limit = if model == erode::Model::Droplets { 100_000_000 } else { 100_000 };
            match steps {
                Some(s) if s > limit => Err(format!("--steps: at most {limit} for {model:?}, got {s}")),
                _ => {
                    let run = erode::Run {
                        model,
                        steps: steps.map(|s| s as usize),
                        every: every.map(|e| e as usize),
                        seed,
                        stream_power: [k, m, diffusion],
                        preset,
                        dials: [
                            ("rain", rain),
                            ("evaporate", evaporate),
                            ("carry", carry),
                            ("pickup", pickup),
                            ("settle", settle),
                            ("max_cut", max_cut),
                        ]
                        .into_iter()
                        .filter_map(|(name, value)| value.map(|v| (name.to_owned(), v)))
                        .chain(dials)
                        .collect(),
                    };
                    match (dem, world) {
                        (Some(dem), _) => erode::dem(&dem, height_range, cell_m, sea_level, &run, &out),
                        (None, Some(name)) => memory
                            .load(&WorldArg { world: name, file, lattice_nodes: None })
                            .and_then(|w| erode::world(&w, &run, &out)),
                        (None, None) => Err("give --dem FILE or --world NAME".into()),
                    }
                }
            }
        }
        Command::GridWorld {
            dem,
            height_range,
            world,
            file,
            region,
            size,
            knobs,
            erosion,
            preset,
            dials,
            seed,
            out,
        } => {
            // The model, preset and dials are checked before the heightmap is read.
            let erosion = watershed::GridErosion::choose(erosion.name(), preset.as_deref(), &dials);
            let source = match (dem, world, region) {
                (Some(path), _, _) => Ok(grid_world::Source::Dem { path, height_range }),
                (None, Some(name), Some((lat, lon, size_m))) => memory
                    .load(&WorldArg { world: name, file, lattice_nodes: None })
                    .map(|w| grid_world::Source::Region {
                        world: Box::new(w),
                        lat_lon: (lat, lon),
                        size_m,
                        cells: size as usize,
                    }),
                _ => Err("give --dem FILE, or --world NAME with --region LAT,LON,SIZE_M".into()),
            };
            erosion.and_then(|erosion| {
                let options = grid_world::Options { knobs, erosion, seed };
                source.and_then(|s| grid_world::run(&s, &options, &out, memory.0))
            })
        }
        Command::GridDrain { dem, height_range, cell_m, sea_level, edge_outlets, lake_min_depth, out } => {
            let options = watershed::GridOptions {
                sea_level_m: sea_level,
                edge_outlets,
                lake_min_depth_m: lake_min_depth,
            };
            export::grid(&dem, height_range, cell_m, &options, &out, memory.0)
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

/// `--cell-m`: the heightmap knob's range.
fn cell_m(text: &str) -> Result<f64, String> {
    knobs::number("cell_m", text)
}

/// `--sea-level`: the heightmap knob's range.
fn sea_level(text: &str) -> Result<f64, String> {
    knobs::number("sea_level_m", text)
}

/// `--lake-min-depth`: the heightmap knob's range.
fn lake_min_depth(text: &str) -> Result<f64, String> {
    knobs::number("lake_min_depth_m", text)
}

/// `--height-range MIN,MAX`: two finite heights in metres, MIN below MAX.
fn height_range(text: &str) -> Result<(f64, f64), String> {
    let parts: Vec<&str> = text.split(',').collect();
    let [lo, hi] = parts.as_slice() else {
        return Err(format!("expected MIN,MAX in metres, got '{text}'"));
    };
    let (lo, hi) = (metres_within(lo, -1e7, 1e7)?, metres_within(hi, -1e7, 1e7)?);
    if lo < hi {
        Ok((lo, hi))
    } else {
        Err(format!("MIN must be below MAX, got {lo},{hi}"))
    }
}

/// `--region LAT,LON,SIZE_M`: a latitude (±90), a longitude (±180) and a size in metres.
fn region(text: &str) -> Result<(f64, f64, f64), String> {
    let parts: Vec<&str> = text.split(',').collect();
    let [lat, lon, size] = parts.as_slice() else {
        return Err(format!("expected LAT,LON,SIZE_M, got '{text}'"));
    };
    Ok((
        number_within(lat, -90.0, 90.0, "°")?,
        number_within(lon, -180.0, 180.0, "°")?,
        metres_within(size, 10.0, 100_000.0)?,
    ))
}

/// `--k`: an erodibility from 1e-9 to 1 per year.
fn erodibility(text: &str) -> Result<f64, String> {
    number_within(text, 1e-9, 1.0, "")
}

/// `--m`: a catchment exponent from 0.1 to 1.
fn area_exponent(text: &str) -> Result<f64, String> {
    number_within(text, 0.1, 1.0, "")
}

/// `--dial NAME=VALUE`: a dial's name and a number (the model checks both).
fn dial_setting(text: &str) -> Result<(String, f64), String> {
    let Some((name, value)) = text.split_once('=') else {
        return Err(format!("expected NAME=VALUE, got '{text}'"));
    };
    let value: f64 =
        value.trim().parse().map_err(|_| format!("expected a number after '=', got '{value}'"))?;
    Ok((name.trim().to_owned(), value))
}

/// `--diffusion`: a diffusivity from 0 to 100 m²/yr.
fn diffusivity(text: &str) -> Result<f64, String> {
    number_within(text, 0.0, 100.0, "")
}

/// A finite number within `lo..=hi` of `unit` (`""` for a plain number); the error states
/// the range and the value.
fn number_within(text: &str, lo: f64, hi: f64, unit: &str) -> Result<f64, String> {
    let (of, suffix) = match unit {
        "" => (String::new(), String::new()),
        u => (format!(" of {u}"), format!(" {u}")),
    };
    let x: f64 = text.trim().parse().map_err(|_| format!("expected a number{of}, got '{text}'"))?;
    if x.is_finite() && (lo..=hi).contains(&x) {
        Ok(x)
    } else {
        Err(format!("must be within {lo}..={hi}{suffix}, got {}", text.trim()))
    }
}

/// A finite number of metres within `lo..=hi`; the error states the range and the value.
fn metres_within(text: &str, lo: f64, hi: f64) -> Result<f64, String> {
    number_within(text, lo, hi, "metres")
}

/// Memory a solve may use, bytes (`None`: unknown, nothing is refused).
#[derive(Clone, Copy)]
struct Memory(Option<u64>);

impl Memory {
    /// [`load_world`], then refuses a world whose solve would not fit in memory.
    fn load(self, pick: &WorldArg) -> Result<WorldSettings, String> {
        let mut world = load_world(&pick.file.worlds, &pick.world)?;
        if let Some(nodes) = pick.lattice_nodes {
            world.lattice_nodes = nodes;
            let errors = world.validate();
            if let Some(first) = errors.first() {
                return Err(format!("--lattice-nodes {nodes}: {}", first.message));
            }
        }
        watershed::check_solve_memory_with(&world, self.0).map_err(|e| e.to_string())?;
        Ok(world)
    }

    /// Refuses pictures that would not fit beside `world`'s solve: the map holds a height
    /// (8 bytes) and a colour (3) per pixel, the globe a colour.
    fn fits_pictures(self, world: &WorldSettings, sizes: &generate::Sizes) -> Result<(), String> {
        let (map, globe) = (sizes.map_width as u64, sizes.globe_size as u64);
        let needed = watershed::estimated_solve_bytes(world) + map * (map / 2) * 11 + globe * globe * 3;
        match self.0 {
            Some(available) if needed > available => Err(format!(
                "world '{}': lattice_nodes {} with a {map}-pixel map and a {globe}-pixel globe needs about {} \
                 to solve and draw; this machine has {} available",
                world.name,
                world.lattice_nodes,
                watershed::human_bytes(needed),
                watershed::human_bytes(available)
            )),
            _ => Ok(()),
        }
    }
}

/// The whole of `path` as bytes, refusing more than `limit` bytes (a device such as
/// `/dev/zero` never ends) with a message naming the limit.
pub(crate) fn read_bounded(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>, String> {
    let (file, len) = open_bounded(path, limit, what)?;
    // Sized from the file's length up front (one byte more, so the end shows without a
    // second buffer), instead of doubling and copying its way up to a large heightmap.
    let size = len.unwrap_or(0).min(limit) + 1;
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|e| cannot_read(path, &e))?;
    if bytes.len() as u64 > limit {
        return Err(too_large(path, limit, what));
    }
    Ok(bytes)
}

/// The file at `path` opened for reading, with its length in bytes when it is a plain file
/// (anything else may not know its length); a plain file over `limit` bytes is refused as
/// too large for `what`.
pub(crate) fn open_bounded(
    path: &Path,
    limit: u64,
    what: &str,
) -> Result<(std::fs::File, Option<u64>), String> {
    let file = std::fs::File::open(path).map_err(|e| cannot_read(path, &e))?;
    let len = file.metadata().ok().filter(std::fs::Metadata::is_file).map(|m| m.len());
    if len.is_some_and(|len| len > limit) {
        return Err(too_large(path, limit, what));
    }
    Ok((file, len))
}

/// The message for a file at `path` that could not be read.
pub(crate) fn cannot_read(path: &Path, e: &std::io::Error) -> String {
    format!("cannot read {}: {e}", path.display())
}

/// The refusal of a file at `path` over `limit` bytes, too large for `what`.
fn too_large(path: &Path, limit: u64, what: &str) -> String {
    format!("{} is larger than {}, too large for {what}", path.display(), watershed::human_bytes(limit))
}

fn read(path: &Path) -> Result<String, String> {
    let bytes = read_bounded(path, MAX_WORLDS_FILE_BYTES, "a worlds file")?;
    String::from_utf8(bytes).map_err(|e| format!("cannot read {}: not UTF-8 text ({e})", path.display()))
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
    let d = watershed::world_digests(world, &solved.terrain.planet);
    println!("world       {}", world.name);
    println!("samples     {}", watershed::DIGEST_SAMPLES);
    println!("directions  {}", d.directions);
    println!("heights     {}", d.heights);
    println!("network     {}", solved.terrain.network_digest());
    println!("sets        {}", solved.terrain.sets_digest());
    println!("carve       {}", solved.terrain.carve_digest());
    println!("water       {}", watershed::water_digest(&solved));
    println!("scatter     {}", watershed::scatter_digest(&solved));
}

fn probe(path: &Path, only: Option<&str>, memory: Memory) -> ExitCode {
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
        if let Err(e) = watershed::check_solve_memory_with(world, memory.0) {
            let refused = watershed::ProbeLine {
                name: format!("{}/memory", world.name),
                value: watershed::human_bytes(e.needed_bytes),
                verdict: watershed::Verdict::Fail(format!(
                    "expected at most the {} available",
                    watershed::human_bytes(e.available_bytes)
                )),
            };
            println!("{refused}");
            lines.push(refused);
            continue;
        }
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
