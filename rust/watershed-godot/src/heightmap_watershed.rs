//! `HeightmapWatershed`: the river pipeline on a heightmap `Image`, off the main thread,
//! with the maps heightmap add-ons and water shaders read handed back as `Image`s.

use crate::convert::{
    array_mesh, emit_deferred, emit_progress, float_image, float_pixels, image_from_bytes,
    record_to_dictionary, rgba_pixels,
};
use crate::worker::{Report, Worker};
use godot::classes::image::Format;
use godot::classes::{ArrayMesh, Image};
use godot::prelude::*;
use std::sync::Arc;
use watershed::{
    check_grid_memory, check_heightmap, ground_mesh, hterrain_side, water_mesh, DrainageParams, Grid,
    GridMaps, HeightmapStats, HeightmapWorld,
};

/// What a finished build keeps: the maps and the figures.
struct Built {
    maps: GridMaps,
    stats: HeightmapStats,
    timings_ms: Vec<(&'static str, f64)>,
}

include!(concat!(env!("OUT_DIR"), "/heightmap_properties.rs"));

with_heightmap_knobs! {
    /// Runs Watershed's river pipeline on a heightmap — the chosen erosion (its model, preset
    /// and dials in the Erosion group), sediment in shallow hollows, drainage
    /// with the map edge (and the sea) as outlets, rivers, carved channels, the water table —
    /// and gives back the carved heights, water level, masks, flow, foam, splat and Terrain3D
    /// control maps as `Image`s, plus the figures. Usable from editor scripts to feed Terrain3D
    /// or HTerrain, or at run time with `terrain_mesh()` and `water_mesh()`.
    ///
    /// `start(image)` returns at once and works on a worker thread; call `poll()` each frame
    /// (it emits `progress` and `finished`) or `build(image)` to wait.
    #[derive(GodotClass)]
    #[class(tool, init, base = RefCounted)]
    pub struct HeightmapWatershed {
        /// Side of the maps handed back: 0 keeps the heightmap's own size; any other side
        /// resamples a square map (513, 1025, 2049 or 4097 for HTerrain; see `hterrain_side`).
        #[export(range = (0.0, 8193.0, 1.0))]
        output_side: i64,
        /// Share of the running build done, 0..=1 (1 once finished).
        progress_done: f64,
        /// Rivers drawn by a designer (`set_drawn_rivers`), points in cells.
        drawn: Vec<Vec<[f64; 2]>>,
        built: Option<Arc<Built>>,
        worker: Worker<Arc<Built>>,
        base: Base<RefCounted>,
    }
}

#[godot_api]
impl HeightmapWatershed {
    /// Emitted from `poll()` as each stage finishes (`erosion` where a model is chosen,
    /// `settle`, `drainage`, `carve`, `water table`, `cells`, `maps`) with the share of the
    /// work done.
    #[signal]
    fn progress(stage: GString, fraction: f64);

    /// Emitted from `poll()` when the build is in; `stats` as from `get_stats()`.
    #[signal]
    fn finished(stats: VarDictionary);

    /// Starts the pipeline on `heights` (`FORMAT_RF` or `FORMAT_RH` — or any float format —
    /// metres in the red channel, at least 3 × 3) on a worker thread, cancelling a running build. Returns
    /// false (with an error) for an image of another format, a NaN or infinite height, a
    /// map too large for the memory available, a knob or erosion dial outside its range, or
    /// an `output_side` that needs a square map. The chosen erosion runs first.
    #[func]
    fn start(&mut self, heights: Option<Gd<Image>>) -> bool {
        let params = match self.knobs() {
            Ok(params) => params,
            Err(e) => {
                godot_error!("HeightmapWatershed.start: {e}");
                return false;
            }
        };
        let Some((grid, values)) = read_heights(heights, params.cell_m) else { return false };
        let (rows, cols) = (grid.height, grid.width);
        if let Err(e) = check_grid_memory(rows, cols, watershed::available_memory_bytes()) {
            godot_error!("HeightmapWatershed.start: {e}");
            return false;
        }
        let side = usize::try_from(self.output_side).unwrap_or(0);
        if side != 0 && (rows != cols || side < 2) {
            godot_error!(
                "HeightmapWatershed.start: output_side {side} resamples square maps of at least 2 cells; this one is {cols} x {rows}"
            );
            return false;
        }
        let erosion = match self.erosion() {
            Ok(erosion) => erosion,
            Err(e) => {
                godot_error!("HeightmapWatershed.start: {e}");
                return false;
            }
        };
        let steps = usize::try_from(self.erosion_steps).ok().filter(|&s| s > 0);
        let seed = self.erosion_seed as u64;
        self.progress_done = 0.0;
        let drawn = self.drawn.clone();
        self.worker.start(move |progress, cancel| {
            let mut values = values;
            let outlets = DrainageParams::outlets(params.sea_level_m, true);
            if erosion.run(&grid, &mut values, &outlets, steps, seed).is_some() {
                progress("erosion", 0.0);
            }
            let world = HeightmapWorld::build_drawn(grid, values, &params, &drawn, progress, cancel)?;
            let maps = GridMaps::of(&world);
            let maps = if side == 0 || side == rows { maps } else { maps.resized(side)? };
            progress("maps", 1.0);
            Some(Arc::new(Built { stats: world.stats(), timings_ms: world.timings_ms, maps }))
        });
        true
    }

    /// Rivers a designer drew, for the next `start`: each a curve of points in cells of the
    /// heightmap (x along a row, y down the rows; either end first). Each is cut into the
    /// ground as a bed that never rises downstream and lies below the cells beside it, and
    /// fed at its source with the river threshold's catchment, so the solve makes it a river
    /// and drains the ground around into it. An empty array: none.
    #[func]
    fn set_drawn_rivers(&mut self, rivers: Array<PackedVector2Array>) {
        self.drawn = rivers
            .iter_shared()
            .map(|curve| curve.as_slice().iter().map(|p| [f64::from(p.x), f64::from(p.y)]).collect())
            .collect();
    }

    /// The `erosion_preset` property's setter: sets every dial of the chosen model to the
    /// preset `name` (an error for a preset the model lacks, and the dials stay; an empty
    /// name is no preset and leaves the dials as they are).
    #[func]
    fn set_erosion_preset(&mut self, name: GString) {
        self.apply_erosion_preset(name);
    }

    /// `start(heights)`, then waits for the build: true once it is in (`finished` is
    /// emitted by the next `poll()`).
    #[func]
    fn build(&mut self, heights: Option<Gd<Image>>) -> bool {
        if !self.start(heights) {
            return false;
        }
        while let Some(report) = self.worker.wait() {
            if let Report::Done(built) = report {
                self.finish(built);
                return true;
            }
        }
        false
    }

    /// Takes in what the worker reported since the last call, emitting `progress` and
    /// `finished`; true once a build is in and none is running.
    #[func]
    fn poll(&mut self) -> bool {
        for report in self.worker.reports() {
            match report {
                Report::Progress(stage, fraction) => {
                    self.progress_done = fraction;
                    emit_progress(self.to_gd().upcast(), stage, fraction);
                }
                Report::Done(built) => self.finish(built),
            }
        }
        self.built.is_some() && !self.worker.is_running()
    }

    /// Stops the running build at its next stage.
    #[func]
    fn cancel(&mut self) {
        self.worker.cancel();
    }

    /// Whether a build is running.
    #[func]
    fn is_running(&self) -> bool {
        self.worker.is_running()
    }

    /// Whether a build has finished (its maps are available).
    #[func]
    fn is_built(&self) -> bool {
        self.built.is_some()
    }

    /// Share of the running build done, 0..=1, as of the last `poll()`.
    #[func]
    fn get_progress(&self) -> f64 {
        self.progress_done
    }

    /// Carved ground, metres (`FORMAT_RF`); null before a build.
    #[func]
    fn get_heights(&self) -> Option<Gd<Image>> {
        self.float_image(|m| m.heights.clone())
    }

    /// Water surface, metres (`FORMAT_RF`), never NaN: the level on wet cells, the lowest
    /// neighbouring level on dry cells beside water, the ground elsewhere.
    #[func]
    fn get_water_level(&self) -> Option<Gd<Image>> {
        self.float_image(|m| m.water_level.clone())
    }

    /// Water mask (`FORMAT_RGBA8`): river, lake, sea, any water in R, G, B, A.
    #[func]
    fn get_water_mask(&self) -> Option<Gd<Image>> {
        self.image(Format::RGBA8, |m| m.water_mask.concat())
    }

    /// Flow (`FORMAT_RGBF`): R, G the unit direction (x along a row, y down the rows), B the
    /// speed in m/s; zero where the water stands still or the ground is dry.
    #[func]
    fn get_flow(&self) -> Option<Gd<Image>> {
        self.image(Format::RGBF, |m| m.flow.iter().flatten().flat_map(|v| v.to_le_bytes()).collect())
    }

    /// Foam (`FORMAT_L8`): 0 none to 255 white water.
    #[func]
    fn get_foam(&self) -> Option<Gd<Image>> {
        self.image(Format::L8, |m| m.foam.clone())
    }

    /// Flow and foam for a water shader (`FORMAT_RGBA8`): R, G the unit direction mapped
    /// to 0..255 (128 still), B the speed with 255 for `flow_foam_full_speed()` m/s,
    /// A the foam — what `addons/watershed/terrain/flow_water.gdshader` reads.
    #[func]
    fn get_flow_foam(&self) -> Option<Gd<Image>> {
        self.image(Format::RGBA8, |m| m.flow_foam().concat())
    }

    /// The speed a full byte of `get_flow_foam()`'s blue channel stands for, m/s.
    #[func]
    fn flow_foam_full_speed() -> f64 {
        watershed::FLOW_FOAM_FULL_SPEED_M_S
    }

    /// Ground layers (`FORMAT_RGBA8`): weights of bed, bank, grass and rock, summing to 255
    /// — HTerrain's classic4 splat map.
    #[func]
    fn get_splat(&self) -> Option<Gd<Image>> {
        self.image(Format::RGBA8, |m| m.splat.concat())
    }

    /// Terrain3D's control map (`FORMAT_RF` holding its 32-bit words): texture ids 0 bed,
    /// 1 bank, 2 grass, 3 rock.
    #[func]
    fn get_control(&self) -> Option<Gd<Image>> {
        self.float_image(|m| m.control.iter().map(|&w| f32::from_bits(w)).collect())
    }

    /// Edge length of a cell of the maps handed back, metres (changes with `output_side`).
    #[func]
    fn get_map_cell_m(&self) -> f64 {
        self.built.as_ref().map_or(self.cell_m, |b| b.maps.cell_m)
    }

    /// The figures of the last build, the core's `HeightmapStats` field for field:
    /// `shoreline_mismatches` and `water_steps` (with the worst, `worst_shoreline_m` and
    /// `worst_step_m`, metres), `uphill_water`, `rivers_under_sea`, `lakes`,
    /// `largest_catchment_m2`, cells under river, lake and sea (`river_cells`, `lake_cells`,
    /// `sea_cells`), `reaches`, cells raised by sediment (`settled_cells`), what fitting the
    /// water to its ground changed (`lifted_cells`, `lowered_cells`, `dried_cells`,
    /// `worst_lowering_m`); and beside the record `timings_ms` by stage. Empty before a build.
    #[func]
    fn get_stats(&self) -> VarDictionary {
        let Some(built) = self.built.as_ref() else { return VarDictionary::new() };
        let mut d = record_to_dictionary(&built.stats);
        let mut timings = VarDictionary::new();
        for (stage, ms) in &built.timings_ms {
            timings.set(*stage, &ms.to_variant());
        }
        d.set("timings_ms", &timings.to_variant());
        d
    }

    /// The carved ground as a mesh, every `step`-th cell a vertex (x along a row, y up,
    /// z down the rows, metres), coloured by the splat map; null before a build.
    #[func]
    fn terrain_mesh(&self, step: i64) -> Option<Gd<ArrayMesh>> {
        let m = &self.built.as_ref()?.maps;
        Some(array_mesh(&ground_mesh(m.rows, m.cols, m.cell_m, &m.heights, &m.splat, to_step(step))))
    }

    /// The water surface as a mesh over every quad touching a wet cell, laid like
    /// `terrain_mesh`; null before a build.
    #[func]
    fn water_mesh(&self, step: i64) -> Option<Gd<ArrayMesh>> {
        let m = &self.built.as_ref()?.maps;
        Some(array_mesh(&water_mesh(m.rows, m.cols, m.cell_m, &m.water_level, &m.water_mask, to_step(step))))
    }

    /// A ground mesh from exported maps: `heights` (`FORMAT_RF`/`RH`, metres) and,
    /// optionally, a `splat` map of the same size (`FORMAT_RGBA8`) for its colours; laid
    /// like `terrain_mesh`. Null (with an error) for images of the wrong format or size.
    #[func]
    fn terrain_mesh_from(
        heights: Option<Gd<Image>>,
        splat: Option<Gd<Image>>,
        cell_m: f64,
        step: i64,
    ) -> Option<Gd<ArrayMesh>> {
        let (rows, cols, h) = float_pixels(heights, "HeightmapWatershed.terrain_mesh_from")?;
        let splat = match splat {
            Some(splat) => rgba_pixels(splat, rows, cols, "HeightmapWatershed.terrain_mesh_from")?,
            None => Vec::new(),
        };
        let cell_m = positive_cell(cell_m, "HeightmapWatershed.terrain_mesh_from")?;
        Some(array_mesh(&ground_mesh(rows, cols, cell_m, &h, &splat, to_step(step))))
    }

    /// A water mesh from exported maps: `level` (`FORMAT_RF`/`RH`, metres) and `mask`
    /// (`FORMAT_RGBA8`, alpha set on water) of the same size; laid like `water_mesh`.
    #[func]
    fn water_mesh_from(
        level: Option<Gd<Image>>,
        mask: Option<Gd<Image>>,
        cell_m: f64,
        step: i64,
    ) -> Option<Gd<ArrayMesh>> {
        let who = "HeightmapWatershed.water_mesh_from";
        let (rows, cols, l) = float_pixels(level, who)?;
        let Some(mask) = mask else {
            godot_error!("{who}: no mask image");
            return None;
        };
        let mask = rgba_pixels(mask, rows, cols, who)?;
        let cell_m = positive_cell(cell_m, who)?;
        Some(array_mesh(&water_mesh(rows, cols, cell_m, &l, &mask, to_step(step))))
    }

    /// The HTerrain side (513, 1025, 2049 or 4097) closest to the longer side of a
    /// `rows` × `cols` map.
    #[func]
    fn hterrain_side(rows: i64, cols: i64) -> i64 {
        let side = |n: i64| usize::try_from(n).unwrap_or(0);
        hterrain_side(side(rows), side(cols)) as i64
    }
}

impl HeightmapWatershed {
    /// Keeps a finished build and announces it.
    fn finish(&mut self, built: Arc<Built>) {
        self.built = Some(built);
        self.progress_done = 1.0;
        let stats = self.get_stats();
        emit_deferred(self.to_gd().upcast(), "finished", &[stats.to_variant()]);
    }

    /// An image of the built maps' size in `format` from the bytes `pixels` makes.
    fn image(&self, format: Format, pixels: impl Fn(&GridMaps) -> Vec<u8>) -> Option<Gd<Image>> {
        let m = &self.built.as_ref()?.maps;
        image_from_bytes(m.cols, m.rows, format, pixels(m))
    }

    /// A `FORMAT_RF` image of the built maps' size from the floats `values` makes.
    fn float_image(&self, values: impl Fn(&GridMaps) -> Vec<f32>) -> Option<Gd<Image>> {
        let m = &self.built.as_ref()?.maps;
        float_image(m.cols, m.rows, &values(m))
    }
}

/// The grid of `cell_m` cells and the heights of `image`, checked; `None` with an error
/// naming what is wrong.
fn read_heights(image: Option<Gd<Image>>, cell_m: f64) -> Option<(Grid, Vec<f64>)> {
    let who = "HeightmapWatershed.start";
    let (rows, cols, pixels) = float_pixels(image, who)?;
    let heights: Vec<f64> = pixels.into_iter().map(f64::from).collect();
    if let Err(e) = check_heightmap(rows, cols, &heights) {
        godot_error!("{who}: {e}");
        return None;
    }
    Some((Grid { width: cols, height: rows, cell_m }, heights))
}

/// `cell_m` when it is a positive finite number; `None` with an error otherwise.
fn positive_cell(cell_m: f64, who: &str) -> Option<f64> {
    if cell_m.is_finite() && cell_m > 0.0 {
        Some(cell_m)
    } else {
        godot_error!("{who}: cell size {cell_m} m is not a positive number");
        None
    }
}

/// A mesh step of at least one cell.
fn to_step(step: i64) -> usize {
    usize::try_from(step).unwrap_or(1).max(1)
}
