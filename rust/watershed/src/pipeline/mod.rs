//! How a world is made, in the order the water flows: settings → lattice → natural ground →
//! erosion → sediment → the ground folded into one function → drainage → channels → water
//! table → life. Every stage is one call into its folder; [`Pipeline`] runs them, reports
//! progress, stops when asked and shows the ground as erosion works it.

use crate::cancel;
use crate::carve::terrain::Terrain;
use crate::carve::{Carve, CarveParams};
use crate::drainage::{self, DrainageParams};
use crate::erosion::planet::{erode_planet, PlanetErosion};
use crate::erosion::sediment::settle;
use crate::erosion::worked::WorkedGround;
use crate::erosion::ErosionReport;
use crate::ground::height::PlanetHeight;
use crate::ground::lattice::FibonacciLattice;
use crate::ground::surface::PlanetSurface;
use crate::life::Life;
use crate::settings::WorldSettings;
use crate::stopwatch::Stopwatch;
use crate::water::levels::WaterLevels;
use crate::water::waves::SeaState;
use crate::water::world::World;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Share of a world's build (as its progress reports it) that the ground takes.
const GROUND_SHARE: f64 = 0.6;

/// A flag nobody sets: the cancellation of a build that runs to the end.
static NEVER: AtomicBool = AtomicBool::new(false);

/// The ground on the lattice as a build works it, shown to a frame sink.
#[derive(Debug, Clone, Copy)]
pub struct GroundFrame<'a> {
    /// Which moment of the build this is.
    pub stage: FrameStage,
    /// The lattice the heights stand on.
    pub lattice: &'a FibonacciLattice,
    /// The ground at every node, metres.
    pub heights: &'a [f64],
}

/// The moments a build shows the ground at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrameStage {
    /// The natural ground, before erosion.
    Natural,
    /// After erosion step `step` of `steps` (before the land is scaled back to the natural
    /// relief).
    Eroding {
        /// Steps done, 1..=`steps`.
        step: usize,
        /// Steps the run takes.
        steps: usize,
    },
    /// The eroded ground with sediment settled in its hollows: what the drainage solves on.
    Settled,
}

/// Where a build shows its ground frames.
pub type GroundSink<'a> = &'a mut dyn FnMut(GroundFrame<'_>);

/// Progress as a build reports it: the stage just done and the share of the build done
/// (0..=1), from the building thread.
pub type Progress<'a> = &'a (dyn Fn(&'static str, f64) + Sync);

/// The drainage a world is solved with: its sea, lakes and rivers, lakes under the sea's
/// storm crest counted as bays. The only place the crest is worked out.
pub fn drainage_params(settings: &WorldSettings) -> DrainageParams {
    DrainageParams::for_world(settings, SeaState::for_world(settings).storm_crest_m())
}

/// One build of one world's settings: what to report, when to stop and what to show.
pub struct Pipeline<'a> {
    settings: &'a WorldSettings,
    progress: Progress<'a>,
    cancel: &'a AtomicBool,
    frames: Option<GroundSink<'a>>,
    erosion: Option<PlanetErosion>,
}

impl<'a> Pipeline<'a> {
    /// A build of `settings` that reports nothing, runs to the end and shows no frames.
    pub fn new(settings: &'a WorldSettings) -> Self {
        Pipeline { settings, progress: &|_, _| {}, cancel: &NEVER, frames: None, erosion: None }
    }

    /// Reports each stage to `progress`.
    pub fn progress(self, progress: Progress<'a>) -> Self {
        Pipeline { progress, ..self }
    }

    /// Gives up, returning `None`, soon after `cancel` is set: it is read between stages
    /// and erosion steps, and every 65,536 nodes inside the lattice, height and flood loops.
    pub fn cancel(self, cancel: &'a AtomicBool) -> Self {
        Pipeline { cancel, ..self }
    }

    /// Shows the ground to `sink` before, during and after erosion.
    pub fn frames(self, sink: GroundSink<'a>) -> Self {
        Pipeline { frames: Some(sink), ..self }
    }

    /// Erodes with `erosion` instead of what the settings ask for (the CLI's constants and
    /// step count).
    pub fn erosion(self, erosion: PlanetErosion) -> Self {
        Pipeline { erosion: Some(erosion), ..self }
    }

    /// The worked ground alone — lattice, natural heights, erosion, sediment, folded into
    /// one ground function — its progress running from 0 to 1.
    pub fn ground(mut self) -> Option<WorkedGround> {
        let progress = self.progress;
        self.worked_ground(&drainage_params(self.settings), progress, &mut Stopwatch::start())
    }

    /// The solved world: the worked ground, its drainage, channels and water table.
    pub fn world(mut self) -> Option<World> {
        let settings = self.settings;
        let (progress, cancel) = (self.progress, self.cancel);
        let go_on = || (!cancel::requested(cancel)).then_some(());
        let mut clock = Stopwatch::start();
        let params = drainage_params(settings);
        let ground =
            self.worked_ground(&params, &|stage, done| progress(stage, GROUND_SHARE * done), &mut clock)?;
        let WorkedGround { planet, lattice, heights, erosion, settled_nodes } = ground;

        let drainage = drainage::solve_cancellable(&*lattice, &heights, &params, cancel)?;
        clock.laps.extend(drainage.timings_ms.iter().copied());
        clock.lap_from_here();
        progress("drainage", 0.7);
        go_on()?;

        let surface = PlanetSurface { planet: &planet, lattice: &lattice };
        let carve = Carve::build(&CarveParams::for_world(settings), &surface, &heights, &drainage);
        clock.lap("carve");
        progress("carve", 0.85);
        go_on()?;

        let terrain = Terrain {
            settings: settings.clone(),
            planet,
            lattice,
            heights,
            erosion,
            settled_nodes,
            drainage,
            carve,
        };
        let levels = WaterLevels::build(&terrain, settings.sea.then(|| SeaState::for_world(settings)));
        clock.lap("water");
        progress("water", 1.0);
        Some(World { terrain, levels, timings_ms: clock.laps })
    }

    /// The solved world and the life on it (climate, biomes, sites), worked out last.
    pub fn world_and_life(self) -> Option<(World, Life)> {
        let world = self.world()?;
        let life = Life::of(&world);
        Some((world, life))
    }

    /// Lattice, natural heights, erosion and sediment under the drainage `params`, folded
    /// into one ground function; each stage timed on `clock` and reported to `progress` with
    /// the share of this part done.
    fn worked_ground(
        &mut self,
        params: &DrainageParams,
        progress: &(dyn Fn(&'static str, f64) + Sync),
        clock: &mut Stopwatch,
    ) -> Option<WorkedGround> {
        let (settings, cancel) = (self.settings, self.cancel);
        let go_on = || (!cancel::requested(cancel)).then_some(());
        let mut show = |stage: FrameStage, lattice: &FibonacciLattice, heights: &[f64]| {
            if let Some(sink) = self.frames.as_mut() {
                sink(GroundFrame { stage, lattice, heights });
            }
        };

        let natural_field = PlanetHeight::new(settings);
        let lattice =
            Arc::new(FibonacciLattice::new_cancellable(settings.lattice_nodes, settings.radius_m, cancel)?);
        clock.lap("lattice");
        progress("lattice", 0.15);

        let mut natural = Vec::with_capacity(lattice.positions().len());
        for chunk in lattice.positions().chunks(cancel::CHECK_EVERY) {
            go_on()?;
            natural.extend(natural_field.heights(chunk));
        }
        clock.lap("heights");
        progress("heights", 0.3);
        show(FrameStage::Natural, &lattice, &natural);

        let outlets = DrainageParams { rivers: false, ..*params };
        let mut worked = natural.clone();
        let mut eroded = None;
        if let Some(model) = self.erosion.or_else(|| PlanetErosion::for_world(settings)) {
            let held: Vec<bool> =
                lattice.positions().iter().map(|&p| natural_field.in_lake_basin(p)).collect();
            let steps = model.steps;
            worked =
                erode_planet(&*lattice, &natural, &held, &model, &outlets, cancel, &mut |step, z, _| {
                    show(FrameStage::Eroding { step, steps }, &lattice, z);
                    progress("erosion", 0.3 + 0.6 * step as f64 / steps as f64);
                })?;
            eroded = Some(ErosionReport::between(&*lattice, &natural, &worked, steps));
            clock.lap("erosion");
        }
        go_on()?;

        let mut settled_nodes = 0;
        if let Some(settled) = settle(&*lattice, &worked, &outlets) {
            settled_nodes = settled.iter().zip(&worked).filter(|(s, w)| s != w).count();
            worked = settled;
        }
        clock.lap("sediment");
        progress("sediment", 0.95);
        show(FrameStage::Settled, &lattice, &worked);

        let ground = WorkedGround::fold(natural_field, lattice, natural, &worked, eroded, settled_nodes);
        clock.lap("ground");
        progress("ground", 1.0);
        Some(ground)
    }
}

impl World {
    /// Builds the world `settings` describe, start to end ([`Pipeline::world`]).
    pub fn build(settings: &WorldSettings) -> Self {
        match Pipeline::new(settings).world() {
            Some(world) => world,
            None => unreachable!("nothing cancels a build without a flag"),
        }
    }
}
