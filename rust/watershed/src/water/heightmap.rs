//! Heightmap worlds: the planet's river pipeline on a [`Grid`] — settled hollows, the
//! drainage, the carve, the water table — with the carved ground, the water and the flow
//! read at every cell, the water then fitted to the cells' ground ([`fit_to_ground`]), and
//! the figures that say whether it fits.
//!
//! Every stage but the fit is the planet's own code on a [`GridSurface`]: one carve profile,
//! one bell, one backwater pass, one rule for where water stands.

use crate::cancel;
use crate::carve::{Carve, CarveParams, Reach};
use crate::drainage::{self, Drainage, DrainageParams, NodeKind};
use crate::erosion::sediment::settle_heightmap;
use crate::ground::grid::Grid;
use crate::ground::surface::{GridSurface, Surface};
use crate::ground::topology::Topology;
use crate::stopwatch::Stopwatch;
use crate::water::drawn::{cut_course, drawn_course, Sprung};
use crate::water::fit::{fit_to_ground, FitReport};
use crate::water::heightmap_params::HeightmapParams;
use crate::water::levels::{mean_flow, Body, WaterLevels, WaterParams};
use crate::water::view::WaterView;
use glam::DVec3;
use rayon::prelude::*;
use std::sync::atomic::AtomicBool;

/// Water standing more than this above the dry ground of a neighbouring cell is a shoreline
/// mismatch, metres.
pub const SHORE_MISMATCH_M: f64 = 0.5;
/// Neighbouring wet cells whose levels differ by more than this (beyond the drop of the
/// ground between them) are a water step, metres.
pub const WATER_STEP_M: f64 = 1.0;

/// Smallest side of a heightmap the pipeline takes, cells.
pub const MIN_HEIGHTMAP_SIDE: usize = 3;

/// Whether `heights` (row-major, metres) make a heightmap of `rows` × `cols` cells the
/// pipeline takes.
///
/// # Errors
/// The count does not match, a side is under [`MIN_HEIGHTMAP_SIDE`], or a value is not
/// finite (naming its row and column).
pub fn check_heightmap(rows: usize, cols: usize, heights: &[f64]) -> Result<(), String> {
    if heights.len() != rows.saturating_mul(cols) {
        return Err(format!("{} heights for {rows} x {cols} cells", heights.len()));
    }
    if rows < MIN_HEIGHTMAP_SIDE || cols < MIN_HEIGHTMAP_SIDE {
        return Err(format!(
            "{rows} x {cols} cells; the pipeline needs at least {MIN_HEIGHTMAP_SIDE} x {MIN_HEIGHTMAP_SIDE}"
        ));
    }
    check_finite(cols, heights)
}

/// Whether every value of a row-major map `cols` wide is finite.
///
/// # Errors
/// The first value that is not, by row and column.
pub fn check_finite(cols: usize, values: &[f64]) -> Result<(), String> {
    match values.iter().position(|v| !v.is_finite()) {
        Some(i) => Err(format!("value at row {}, column {} is not finite", i / cols.max(1), i % cols.max(1))),
        None => Ok(()),
    }
}

/// What covers a cell, as the exported masks code it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Cover {
    /// Dry ground.
    Dry = 0,
    /// A river channel's water.
    River = 1,
    /// A lake at its spill level.
    Lake = 2,
    /// The sea.
    Sea = 3,
}

/// A heightmap world, solved: its ground, drainage, channels and water table, and the
/// carved ground, water level, cover and flow at every cell (row-major like the input).
#[derive(Debug, Clone)]
pub struct HeightmapWorld {
    /// The grid.
    pub grid: Grid,
    /// The parameters it was built with, those that follow the map given their value on it
    /// ([`HeightmapParams::on`]).
    pub params: HeightmapParams,
    /// Ground before carving, after sediment filled the hollows that hold no lake (too
    /// shallow, or fed by less than the river threshold), with drawn rivers cut in and the
    /// pools of rivers cut through, metres.
    pub natural: Vec<f64>,
    /// Cells raised by sediment (a pool's cut lowers cells; it is not counted).
    pub settled_cells: usize,
    /// The drainage of the natural ground.
    pub drainage: Drainage,
    /// The river channels.
    pub carve: Carve,
    /// The water table.
    pub water: WaterLevels,
    /// Carved ground at every cell, metres.
    pub ground: Vec<f64>,
    /// Water surface at every wet cell, metres; the carved ground where dry.
    pub level: Vec<f64>,
    /// What covers every cell.
    pub cover: Vec<Cover>,
    /// What fitting the water to its ground changed.
    pub fit: FitReport,
    /// Wall-clock milliseconds per stage (not part of any result).
    pub timings_ms: Vec<(&'static str, f64)>,
}

/// Figures that say whether the water fits its ground. Its serde form is the one schema of
/// these names: `HeightmapWatershed.get_stats()`'s keys and `watershed grid-world`'s
/// `report.json` (at its top level), [`FitReport`]'s fields flattened in among the others.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct HeightmapStats {
    /// Wet cells whose level stands more than [`SHORE_MISMATCH_M`] above the ground of a dry
    /// neighbouring cell (8 neighbours).
    pub shoreline_mismatches: usize,
    /// The worst such difference, metres.
    pub worst_shoreline_m: f64,
    /// Pairs of neighbouring wet cells whose levels differ by more than [`WATER_STEP_M`]
    /// beyond the drop of the carved ground between them (8 neighbours, each pair once).
    pub water_steps: usize,
    /// The worst such difference (beyond the ground's drop), metres.
    pub worst_step_m: f64,
    /// Invariant (0): river cells whose receiver's water stands higher than their own.
    pub uphill_water: usize,
    /// Invariant (0): river cells of the drainage under the sea's level.
    pub rivers_under_sea: usize,
    /// Lakes.
    pub lakes: usize,
    /// Largest catchment reaching an outlet, m².
    pub largest_catchment_m2: f64,
    /// Cells under river water.
    pub river_cells: usize,
    /// Cells under lake water.
    pub lake_cells: usize,
    /// Cells under the sea.
    pub sea_cells: usize,
    /// River reaches (one per river cell that drains on).
    pub reaches: usize,
    /// Cells raised by sediment (as [`HeightmapWorld::settled_cells`]).
    pub settled_cells: usize,
    /// What fitting the water to its ground changed (see [`fit_to_ground`]); its fields
    /// serialize beside the others, not nested.
    #[serde(flatten)]
    pub fit: FitReport,
}

impl HeightmapWorld {
    /// Settles `heights` (metres, row-major, `grid.len()` of them), drains them, carves the
    /// channels, computes the water table and reads ground, water and cover at every cell.
    ///
    /// # Panics
    /// If `heights.len() != grid.len()`.
    pub fn build(grid: Grid, heights: Vec<f64>, params: &HeightmapParams) -> Self {
        let never = AtomicBool::new(false);
        match Self::build_cancellable(grid, heights, params, &|_, _| {}, &never) {
            Some(world) => world,
            None => unreachable!("a build nobody can cancel finishes"),
        }
    }

    /// [`HeightmapWorld::build`], calling `progress` with each stage's name and the share of
    /// the work done (0..=1) as it finishes; `None` as soon as `cancel` is set between two
    /// stages.
    ///
    /// # Panics
    /// If `heights.len() != grid.len()`.
    pub fn build_cancellable(
        grid: Grid,
        heights: Vec<f64>,
        params: &HeightmapParams,
        progress: &(dyn Fn(&'static str, f64) + Sync),
        cancel: &AtomicBool,
    ) -> Option<Self> {
        Self::build_drawn(grid, heights, params, &[], progress, cancel)
    }

    /// [`HeightmapWorld::build_cancellable`] with rivers a designer drew: each curve of
    /// `drawn` (points in cell units, x along a row and y down the rows, either end first)
    /// is cut into the ground before it drains ([`drawn_course`], [`cut_course`]) and its
    /// source given a spring of the river threshold, so the solve makes it a river from end
    /// to end and the ground around drains into it. Curves off the map are left out.
    ///
    /// # Panics
    /// If `heights.len() != grid.len()`.
    pub fn build_drawn(
        grid: Grid,
        mut heights: Vec<f64>,
        params: &HeightmapParams,
        drawn: &[Vec<[f64; 2]>],
        progress: &(dyn Fn(&'static str, f64) + Sync),
        cancel: &AtomicBool,
    ) -> Option<Self> {
        assert_eq!(heights.len(), grid.len(), "one height per cell");
        let params = &params.on(&grid);
        let (mut sources, mut courses) = (Vec::new(), Vec::new());
        for curve in drawn {
            let course = drawn_course(&grid, &heights, curve, params.sea_level_m, params.edge_outlets);
            cut_course(&grid, &mut heights, &course);
            sources.extend(course.first());
            courses.extend(course);
        }
        sources.sort_unstable();
        sources.dedup();
        courses.sort_unstable();
        let stage = |name: &'static str, done: f64| {
            progress(name, done);
            (!cancel::requested(cancel)).then_some(())
        };
        let mut clock = Stopwatch::start();
        let drain = DrainageParams {
            sea_level_m: params.sea_level_m,
            storm_crest_m: 0.0,
            lakes: true,
            lake_min_depth_m: params.lake_min_depth_m,
            rivers: true,
            river_catchment_m2: params.river_catchment_on(&grid),
            edge_outlets: params.edge_outlets,
        };
        let width_cells = (2.0 * params.channel_half_width_on(&grid) / grid.cell_m).ceil().max(1.0) as usize;
        let fed = params.lake_min_catchment_on(&grid);
        let (natural, settled_cells) =
            match settle_heightmap(&grid, &heights, &drain, fed, width_cells, &courses) {
                Some(settled) => {
                    let raised = settled.iter().zip(&heights).filter(|(s, h)| s > h).count();
                    drop(heights);
                    (settled, raised)
                }
                None => (heights, 0),
            };
        clock.lap("settle");
        stage("settle", 0.35)?;
        let drainage = if sources.is_empty() {
            drainage::solve(&grid, &natural, &drain)
        } else {
            let spring_m2 = drain.river_catchment_m2;
            drainage::solve(&Sprung { grid: &grid, sources, spring_m2 }, &natural, &drain)
        };
        clock.laps.extend(drainage.timings_ms.iter().copied());
        clock.lap_from_here();
        stage("drainage", 0.65)?;
        let surface = GridSurface { grid: &grid, heights: &natural };
        let carve_params = CarveParams {
            channel_depth_m: params.channel_depth_m,
            half_width_m: params.channel_half_width_m,
            sea_level_m: params.sea_level_m,
        };
        let carve = Carve::build(&carve_params, &surface, &natural, &drainage);
        clock.lap("carve");
        stage("carve", 0.75)?;
        let water_params = WaterParams {
            river_fill: params.river_fill,
            sea_level_m: params.sea_level_m,
            runoff_m_s: params.runoff_m_s,
        };
        let water = WaterLevels::build_on(&water_params, &surface, &drainage, &carve);
        clock.lap("water table");
        stage("water table", 0.85)?;
        let view = WaterView {
            surface,
            drainage: &drainage,
            carve: &carve,
            water: &water,
            sea_level_m: params.sea_level_m,
        };
        let n = grid.len();
        let (mut ground, mut level, mut cover) = (vec![0.0; n], vec![0.0; n], vec![Cover::Dry; n]);
        ground.par_iter_mut().zip(&mut level).zip(&mut cover).enumerate().for_each(|(i, ((g, l), c))| {
            let (carved, water) = view.ground_and_water_near(surface.position(i), i);
            *g = carved;
            (*l, *c) = match water {
                Some(w) => (w.level_m, cover_of(w.body)),
                None => (carved, Cover::Dry),
            };
        });
        clock.lap("cells");
        let fit = fit_to_ground(&grid, &drainage, &ground, &mut level, &mut cover);
        clock.lap("fit");
        progress("cells", 1.0);
        Some(HeightmapWorld {
            grid,
            params: *params,
            natural,
            settled_cells,
            drainage,
            carve,
            water,
            ground,
            level,
            cover,
            fit,
            timings_ms: clock.laps,
        })
    }

    /// The grid with its natural ground, as the carve and the water read it.
    pub fn surface(&self) -> GridSurface<'_> {
        GridSurface { grid: &self.grid, heights: &self.natural }
    }

    /// Water depth at every cell (level minus carved ground; 0 where dry), metres.
    pub fn depths(&self) -> Vec<f64> {
        self.level.iter().zip(&self.ground).map(|(l, g)| (l - g).max(0.0)).collect()
    }

    /// Flow velocity at cell `i`, m/s, in the grid's plane (x along a row, y down the
    /// rows): on river water the bell-weighted average of the nearby reaches' mean flow
    /// along each reach; zero elsewhere.
    pub fn flow_at(&self, i: usize) -> DVec3 {
        if self.cover[i] != Cover::River {
            return DVec3::ZERO;
        }
        let p = self.surface().position(i);
        let ids = self.carve.reaches_near(i);
        let along = |reach: &Reach| (reach.end - reach.start).normalize_or_zero();
        mean_flow(&self.carve.reaches, &self.water.reach_flows, ids, p, 1.0, along)
    }

    /// The main river's cells from its source to its mouth: the longest water course of the
    /// largest basin. Its mouth is the river or lake cell with the largest catchment (where
    /// the largest basin's water leaves the map, meets the sea or ends); from there it goes
    /// up, through rivers and lakes alike, the donor whose longest course above it is the
    /// longest (the lower index among equals). Empty without rivers or lakes.
    pub fn main_river(&self) -> Vec<usize> {
        let d = &self.drainage;
        let water = |i: usize| matches!(d.kind[i], NodeKind::River | NodeKind::Lake);
        let Some(mouth) = (0..self.grid.len()).filter(|&i| water(i)).reduce(|a, b| {
            if d.catchment_m2[b] > d.catchment_m2[a] {
                b
            } else {
                a
            }
        }) else {
            return Vec::new();
        };
        let width = self.grid.width;
        let apart = |a: usize, b: usize| {
            let (dr, dc) = ((a / width) as f64 - (b / width) as f64, (a % width) as f64 - (b % width) as f64);
            dr.hypot(dc)
        };
        // The longest course above each water cell, in cells, and the donor it comes through;
        // `order` puts every donor before its receiver.
        let mut above = vec![0.0f64; self.grid.len()];
        let mut longest_donor = vec![usize::MAX; self.grid.len()];
        for i in d.order.iter().map(|&i| i as usize).filter(|&i| water(i)) {
            let Some(r) = d.receivers[i].receiver().map(|r| r.index()).filter(|&r| water(r)) else {
                continue;
            };
            let course = above[i] + apart(i, r);
            let best = longest_donor[r];
            if best == usize::MAX || course > above[r] || (course == above[r] && i < best) {
                above[r] = course;
                longest_donor[r] = i;
            }
        }
        let mut path = vec![mouth];
        while let Some(&up) = path.last().map(|&i| &longest_donor[i]).filter(|&&u| u != usize::MAX) {
            path.push(up);
        }
        path.reverse();
        path
    }

    /// Whether the water fits its ground, cell by cell.
    pub fn stats(&self) -> HeightmapStats {
        let grid = &self.grid;
        let wet = |i: usize| self.cover[i] != Cover::Dry;
        // Each cell against its neighbours with a higher index (every pair once) for steps,
        // and against every dry neighbour for shorelines.
        let per_cell = |i: usize| -> (usize, f64, usize, f64) {
            let (mut shore, mut worst_shore, mut steps, mut worst_step) = (0, 0.0f64, 0, 0.0f64);
            if !wet(i) {
                return (0, 0.0, 0, 0.0);
            }
            for j in grid.neighbors(i) {
                if !wet(j) {
                    let over = self.level[i] - self.ground[j];
                    if over > SHORE_MISMATCH_M {
                        shore += 1;
                        worst_shore = worst_shore.max(over);
                    }
                } else if j > i {
                    let beyond =
                        (self.level[i] - self.level[j]).abs() - (self.ground[i] - self.ground[j]).abs();
                    if beyond > WATER_STEP_M {
                        steps += 1;
                        worst_step = worst_step.max(beyond);
                    }
                }
            }
            (shore.min(1), worst_shore, steps, worst_step)
        };
        let totals = (0..grid.len())
            .into_par_iter()
            .map(per_cell)
            .collect::<Vec<_>>()
            .into_iter()
            .fold((0, 0.0f64, 0, 0.0f64), |a, b| (a.0 + b.0, a.1.max(b.1), a.2 + b.2, a.3.max(b.3)));
        let d = &self.drainage;
        let uphill_water = (0..grid.len())
            .filter(|&i| d.kind[i] == NodeKind::River && self.cover[i] == Cover::River)
            .filter(|&i| {
                d.receivers[i].receiver().is_some_and(|r| {
                    self.cover[r.index()] == Cover::River && self.level[r.index()] > self.level[i]
                })
            })
            .count();
        let count = |c: Cover| self.cover.iter().filter(|&&k| k == c).count();
        HeightmapStats {
            shoreline_mismatches: totals.0,
            worst_shoreline_m: totals.1,
            water_steps: totals.2,
            worst_step_m: totals.3,
            uphill_water,
            rivers_under_sea: d.stats.underwater_rivers,
            lakes: d.lakes.len(),
            largest_catchment_m2: d.stats.largest_catchment_m2,
            river_cells: count(Cover::River),
            lake_cells: count(Cover::Lake),
            sea_cells: count(Cover::Sea),
            reaches: self.carve.reaches.len(),
            settled_cells: self.settled_cells,
            fit: self.fit,
        }
    }
}

/// The cover a body of water gives a cell.
fn cover_of(body: Body) -> Cover {
    match body {
        Body::River => Cover::River,
        Body::Lake => Cover::Lake,
        Body::Sea => Cover::Sea,
    }
}
