//! `watershed erode`: one erosion model over a heightmap or a planet's lattice, with a frame
//! every few steps, an animated PNG of the frames and `scrubber.html` to drag through them.

use base64::Engine as _;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::path::Path;
use std::time::Instant;
use watershed::{
    drain_grid, drainage_params, erode_droplets, erode_stream_power, erode_water_sediment, render_relief,
    route, solve, write_npy, Dials, DrainageParams, DrainageStats, Droplets, ErosionReport, FibonacciLattice,
    FrameStage, Grid, GridOptions, GroundFrame, Image, Pipeline, PlanetErosion, StreamPower, Topology,
    WaterSediment, WorldSettings,
};

/// Which erosion model runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Model {
    /// Stream-power incision, diffusion and filled pits (grids and planets).
    StreamPower,
    /// Droplet (particle) erosion (grids).
    Droplets,
    /// The water + sediment grid model (grids).
    WaterSediment,
}

/// How long and how often: the run's shape.
pub struct Run {
    /// The model.
    pub model: Model,
    /// Steps (droplets: droplets); `None` for the model's default.
    pub steps: Option<usize>,
    /// A frame every this many steps (droplets: batches of 8,192); `None`: about 40 frames.
    pub every: Option<usize>,
    /// Seed of the droplets.
    pub seed: u64,
    /// Stream-power constants given on the command line: `K`, `m` and diffusivity (each
    /// `None` for the default: the model's on a grid, the world's keys on a planet).
    pub stream_power: [Option<f64>; 3],
    /// The grid model's preset (`None`: its default).
    pub preset: Option<String>,
    /// The grid model's dials turned on the command line, by name, in the order given.
    pub dials: Vec<(String, f64)>,
}

impl Run {
    /// `base` with the stream-power constants given on the command line put in.
    fn stream_power_over(&self, base: StreamPower) -> StreamPower {
        let [k, m, diffusion] = self.stream_power;
        StreamPower {
            k: k.unwrap_or(base.k),
            m: m.unwrap_or(base.m),
            diffusion_m2_per_yr: diffusion.unwrap_or(base.diffusion_m2_per_yr),
            ..base
        }
    }
}

impl Run {
    /// The dials of the grid model `D`: its preset with the dials given turned.
    fn dials<D: Dials>(&self) -> Result<D, String> {
        watershed::turned(self.preset.as_deref(), &self.dials)
    }

    /// The preset and dials checked against the model, before any work.
    fn check(&self) -> Result<(), String> {
        match self.model {
            Model::StreamPower => self.no_dials(),
            Model::Droplets => self.dials::<Droplets>().map(drop),
            Model::WaterSediment => self.dials::<WaterSediment>().map(drop),
        }
    }

    /// Refuses a preset or dials for stream power, whose constants are `--k`, `--m` and
    /// `--diffusion`.
    fn no_dials(&self) -> Result<(), String> {
        if self.preset.is_some() || !self.dials.is_empty() {
            return Err("stream power takes --k, --m and --diffusion; --preset and the dials are for \
                        --model water-sediment and --model droplets"
                .into());
        }
        Ok(())
    }
}

/// Every dial of `dials` by name, for report.json.
fn dial_values<D: Dials>(dials: &D) -> serde_json::Value {
    dials.values().into_iter().map(|(name, value)| (name.to_owned(), serde_json::json!(value))).collect()
}

/// Longest side of a frame, pixels.
const FRAME_SIDE: usize = 512;

/// The frames so far, and a progress bar that shows itself once a run takes over a second.
struct Film {
    frames: Vec<(usize, Image)>,
    bar: ProgressBar,
    started: Instant,
}

impl Film {
    fn new(total: usize, what: &str) -> Self {
        let bar = ProgressBar::with_draw_target(Some(total as u64), ProgressDrawTarget::hidden())
            .with_message(what.to_owned());
        if let Ok(style) = ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {elapsed}") {
            bar.set_style(style);
        }
        Film { frames: Vec::new(), bar, started: Instant::now() }
    }

    fn shoot(&mut self, step: usize, image: Image) {
        if self.bar.is_hidden() && self.started.elapsed().as_secs_f64() > 1.0 {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
        }
        self.bar.set_position(step as u64);
        self.frames.push((step, image));
    }

    /// Shoots the final state at `step` unless the last frame already shows it.
    fn last(&mut self, step: usize, image: impl FnOnce() -> Image) {
        if self.frames.last().map(|f| f.0) != Some(step) {
            self.shoot(step, image());
        }
    }
}

/// Erodes the heightmap at `dem` (any format of [`crate::dem`]; `height_range` for 16-bit
/// ones; cells of `cell_m`; the sea below `sea_level` and the map edge are outlets) and
/// writes the run into `out`.
pub fn dem(
    dem: &Path,
    height_range: Option<(f64, f64)>,
    cell_m: f64,
    sea_level: Option<f64>,
    run: &Run,
    out: &Path,
) -> Result<(), String> {
    run.check()?;
    let array = crate::dem::load(dem, height_range, 16 << 30, "a heightmap")?;
    if array.rows < 3 || array.cols < 3 {
        return Err(format!(
            "{}: {} x {} cells; erosion needs at least 3 x 3",
            dem.display(),
            array.rows,
            array.cols
        ));
    }
    let grid = Grid { width: array.cols, height: array.rows, cell_m };
    let mut heights = array.data;
    let options = GridOptions { sea_level_m: sea_level, edge_outlets: true, lake_min_depth_m: 0.0 };
    let outlets = DrainageParams::outlets(sea_level, true);
    let before = drain_grid(&grid, &heights, &options).0.stats;
    let picture = |z: &[f64], water: &[f64]| {
        let water = if water.is_empty() { river_water(&grid, z, &outlets) } else { water.to_vec() };
        render_relief(grid.width, grid.height, z, &water, cell_m, FRAME_SIDE)
    };
    let t = Instant::now();
    let (report, steps, dials) = match run.model {
        Model::StreamPower => {
            run.no_dials()?;
            let steps = run.steps.unwrap_or(100);
            let every = run.every.unwrap_or(steps.div_ceil(40)).max(1);
            let mut film = Film::new(steps, "stream power");
            film.shoot(0, picture(&heights, &[]));
            let report = erode_stream_power(
                &grid,
                &mut heights,
                &run.stream_power_over(StreamPower::default()),
                &outlets,
                steps,
                &mut |s, z, w| {
                    if s % every == 0 || s == steps {
                        film.shoot(s, picture(z, w));
                    }
                },
            );
            film.bar.finish_and_clear();
            (report, film.frames, serde_json::Value::Null)
        }
        Model::Droplets => {
            let dials: Droplets = run.dials()?;
            let count = run.steps.unwrap_or(grid.width * grid.height / 4);
            let every = run.every.unwrap_or((count / 8192).div_ceil(40)).max(1);
            let mut film = Film::new(count, "droplets");
            film.shoot(0, picture(&heights, &[]));
            let report =
                erode_droplets(&grid, &mut heights, &dials, count, run.seed, every, &mut |s, z, w| {
                    film.shoot(s, picture(z, w));
                });
            film.last(count, || picture(&heights, &[]));
            film.bar.finish_and_clear();
            (report, film.frames, dial_values(&dials))
        }
        Model::WaterSediment => {
            let dials: WaterSediment = run.dials()?;
            let steps = run.steps.unwrap_or(200);
            let every = run.every.unwrap_or(steps.div_ceil(40)).max(1);
            let mut film = Film::new(steps, "water + sediment");
            film.shoot(0, picture(&heights, &[]));
            let (report, water) =
                erode_water_sediment(&grid, &mut heights, &dials, steps, every, &mut |s, z, w| {
                    film.shoot(s, picture(z, w));
                });
            film.last(steps, || picture(&heights, &water));
            film.bar.finish_and_clear();
            (report, film.frames, dial_values(&dials))
        }
    };
    let run_ms = t.elapsed().as_secs_f64() * 1e3;
    let after = drain_grid(&grid, &heights, &options).0.stats;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    write(out, "heights.npy", &write_npy(&[grid.height, grid.width], &heights))?;
    // The same heights for heightmap add-ons: 32-bit float EXR (Terrain3D's import) and R16
    // with the metres of 0 and 65535 beside it.
    write(out, "heights.exr", &crate::dem::exr_bytes(grid.height, grid.width, &heights)?)?;
    let (r16, (lo, hi)) = crate::dem::r16_bytes(&heights);
    write(out, "heights.r16", &r16)?;
    let range = serde_json::json!({"rows": grid.height, "cols": grid.width, "min_m": lo, "max_m": hi});
    write(out, "heights.r16.json", range.to_string().as_bytes())?;
    let name = dem.display().to_string();
    finish(out, &name, run, &report, run_ms, &before, &after, &steps, dials)
}

/// Runs the planet's own erosion (its keys, with any constants and `--steps` from the
/// command line) on its lattice and writes the run into `out`: the frames are
/// equirectangular maps of the lattice as the run goes (before the land is scaled to the
/// world's relief), `heights.npy` the eroded and settled lattice heights the world solves on.
pub fn world(settings: &WorldSettings, run: &Run, out: &Path) -> Result<(), String> {
    if run.model != Model::StreamPower {
        return Err(
            "a planet erodes with --model stream-power; droplets and water-sediment need a heightmap".into(),
        );
    }
    run.no_dials()?;
    let eroding = WorldSettings {
        erosion: true,
        erosion_steps: run.steps.unwrap_or(settings.erosion_steps),
        ..settings.clone()
    };
    let Some(base) = PlanetErosion::for_world(&eroding) else {
        return Err("erosion is switched on here; a world that still does not erode is a bug".into());
    };
    let erosion = PlanetErosion { model: run.stream_power_over(base.model), ..base };
    let params = drainage_params(settings);
    let steps = erosion.steps;
    let every = run.every.unwrap_or(steps.div_ceil(40)).max(1);
    let mut film = Film::new(steps, "stream power");
    let (mut natural, mut heights) = (Vec::new(), Vec::new());
    let mut started = Instant::now();
    let mut run_ms = 0.0;
    let mut shoot = |frame: GroundFrame<'_>| {
        let step = match frame.stage {
            FrameStage::Natural => {
                natural = frame.heights.to_vec();
                started = Instant::now();
                0
            }
            FrameStage::Eroding { step, .. } if step % every == 0 && step != steps => step,
            FrameStage::Eroding { .. } => return,
            FrameStage::Settled => {
                run_ms = started.elapsed().as_secs_f64() * 1e3;
                heights = frame.heights.to_vec();
                steps
            }
        };
        film.shoot(step, lattice_map(frame.lattice, frame.heights, settings, &params));
    };
    let ground = Pipeline::new(&eroding)
        .erosion(erosion)
        .frames(&mut shoot)
        .ground()
        .ok_or("the run was cancelled")?;
    film.bar.finish_and_clear();
    let lattice = &*ground.lattice;
    let report = ErosionReport::between(lattice, &natural, &heights, steps);
    let before = solve(lattice, &natural, &params).stats;
    let after = solve(lattice, &heights, &params).stats;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    write(out, "heights.npy", &write_npy(&[heights.len()], &heights))?;
    finish(out, &settings.name, run, &report, run_ms, &before, &after, &film.frames, serde_json::Value::Null)
}

/// Water to draw on a heightmap for models that keep none: the rivers (cells draining at
/// least a two-hundredth of the map) and the sea.
fn river_water(grid: &Grid, z: &[f64], outlets: &DrainageParams) -> Vec<f64> {
    let routing = route(grid, z, outlets);
    let threshold = grid.len() as f64 * grid.cell_m * grid.cell_m / 200.0;
    (0..grid.len())
        .map(|i| match outlets.sea_level_m {
            Some(s) if z[i] < s => s - z[i],
            _ if routing.catchment_m2[i] >= threshold => 0.3,
            _ => 0.0,
        })
        .collect()
}

/// An equirectangular map (512 × 256) of lattice heights, the nearest node per pixel; sea,
/// lakes and rivers of a full drainage solve drawn as water.
fn lattice_map(
    lattice: &FibonacciLattice,
    z: &[f64],
    settings: &WorldSettings,
    params: &DrainageParams,
) -> Image {
    let d = solve(lattice, z, params);
    let (w, h) = (FRAME_SIDE, FRAME_SIDE / 2);
    let mut cells = Vec::with_capacity(w * h);
    let mut water = Vec::with_capacity(w * h);
    for y in 0..h {
        let lat = std::f64::consts::FRAC_PI_2 - (y as f64 + 0.5) * std::f64::consts::PI / h as f64;
        for x in 0..w {
            let lon = -std::f64::consts::PI + (x as f64 + 0.5) * std::f64::consts::TAU / w as f64;
            let i = lattice.nearest_node(watershed::direction(lat.to_degrees(), lon.to_degrees())).index();
            cells.push(z[i]);
            water.push(match d.kind[i] {
                watershed::NodeKind::Land => 0.0,
                _ if d.water_level_m(i).is_finite() => (d.water_level_m(i) - z[i]).max(0.3),
                _ => 0.3,
            });
        }
    }
    let metres_per_pixel = std::f64::consts::TAU * settings.radius_m / w as f64;
    render_relief(w, h, &cells, &water, metres_per_pixel, FRAME_SIDE)
}

fn write(out: &Path, name: &str, bytes: &[u8]) -> Result<(), String> {
    let path = out.join(name);
    std::fs::write(&path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

pub(crate) fn png_bytes(image: &Image) -> Result<Vec<u8>, String> {
    crate::addon_maps::png(image.width, image.height, png::ColorType::Rgb, &image.rgb)
}

/// Every frame as one animated PNG, a tenth of a second each, looping.
fn animation(frames: &[(usize, Image)]) -> Result<Vec<u8>, String> {
    let Some((_, first)) = frames.first() else { return Ok(Vec::new()) };
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, first.width as u32, first.height as u32);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_animated(frames.len() as u32, 0).map_err(|e| format!("png: {e}"))?;
    encoder.set_frame_delay(1, 10).map_err(|e| format!("png: {e}"))?;
    let mut writer = encoder.write_header().map_err(|e| format!("png: {e}"))?;
    for (_, image) in frames {
        writer.write_image_data(&image.rgb).map_err(|e| format!("png: {e}"))?;
    }
    writer.finish().map_err(|e| format!("png: {e}"))?;
    Ok(bytes)
}

/// One page, no server and no network: every frame inlined, a slider to drag through them.
fn scrubber(title: &str, frames: &[(usize, Vec<u8>)]) -> String {
    let images: Vec<String> = frames
        .iter()
        .map(|(step, png)| {
            format!(
                "[{step},\"data:image/png;base64,{}\"]",
                base64::engine::general_purpose::STANDARD.encode(png)
            )
        })
        .collect();
    let last = frames.len().saturating_sub(1);
    format!(
        r#"<!doctype html>
<html><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font:14px sans-serif;background:#222;color:#ddd;margin:16px}}img{{max-width:100%;image-rendering:pixelated}}input{{width:100%}}</style>
</head><body>
<h1>{title}</h1>
<img id="frame" alt="erosion frame">
<input id="slider" type="range" min="0" max="{last}" value="{last}">
<p id="label"></p>
<script>
const frames = [{frames}];
const img = document.getElementById("frame"), slider = document.getElementById("slider"),
  label = document.getElementById("label");
function show() {{
  const [step, src] = frames[slider.value];
  img.src = src;
  label.textContent = "step " + step + " (frame " + slider.value + " of " + (frames.length - 1) + ")";
}}
slider.addEventListener("input", show);
show();
</script>
</body></html>
"#,
        frames = images.join(",\n")
    )
}

/// Writes the frames, the animation, the scrubber and report.json, and prints a summary.
#[allow(clippy::too_many_arguments)]
fn finish(
    out: &Path,
    name: &str,
    run: &Run,
    report: &ErosionReport,
    run_ms: f64,
    before: &DrainageStats,
    after: &DrainageStats,
    frames: &[(usize, Image)],
    dials: serde_json::Value,
) -> Result<(), String> {
    let frames_dir = out.join("frames");
    std::fs::create_dir_all(&frames_dir)
        .map_err(|e| format!("cannot create {}: {e}", frames_dir.display()))?;
    let mut pngs = Vec::with_capacity(frames.len());
    for (k, (step, image)) in frames.iter().enumerate() {
        let png = png_bytes(image)?;
        write(&frames_dir, &format!("frame_{k:04}.png"), &png)?;
        pngs.push((*step, png));
    }
    write(out, "erosion.png", &animation(frames)?)?;
    write(out, "scrubber.html", scrubber(&format!("{name}: {:?} erosion", run.model), &pngs).as_bytes())?;
    // The drainage before and after, each its `DrainageStats` whole.
    let drainage = |s: &DrainageStats| serde_json::to_value(s).unwrap_or_default();
    let json = serde_json::json!({
        "source": name,
        "model": format!("{:?}", run.model),
        "preset": (!dials.is_null()).then(|| run.preset.as_deref().unwrap_or("default")),
        "dials": dials,
        "steps": report.steps,
        "eroded_m3": report.eroded_m3,
        "deposited_m3": report.deposited_m3,
        "deepest_cut_m": report.deepest_cut_m,
        "run_ms": (run_ms * 10.0).round() / 10.0,
        "frames": frames.len(),
        "before": drainage(before),
        "after": drainage(after),
    });
    let text = serde_json::to_string_pretty(&json).map_err(|e| format!("report: {e}"))?;
    write(out, "report.json", text.as_bytes())?;
    println!(
        "{name}: {:?}, {} steps in {run_ms:.0} ms; eroded {:.0} m3, deepest cut {:.2} m; lakes {} -> {}, \
         largest catchment {:.2} -> {:.2} km2, Strahler {} -> {} -> {}",
        run.model,
        report.steps,
        report.eroded_m3,
        report.deepest_cut_m,
        before.lakes,
        after.lakes,
        before.largest_catchment_m2 / 1e6,
        after.largest_catchment_m2 / 1e6,
        before.max_strahler,
        after.max_strahler,
        out.display()
    );
    Ok(())
}
