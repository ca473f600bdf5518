//! The ground as a world makes it: the natural field on the lattice, worn by stream power
//! when the world erodes, then settled (hollows that hold no water filled with sediment).
//! What that did is stored on the lattice and added to the field, so the drainage, the
//! voxel SDF, the meshes and every picture read one ground function.

use super::planet::{erode_planet, PlanetErosion, START_RELIEF};
use super::sediment::settle;
use super::ErosionReport;
use crate::cancel;
use crate::drainage::DrainageParams;
use crate::ground::eroded::ErodedField;
use crate::ground::height::PlanetHeight;
use crate::ground::lattice::FibonacciLattice;
use crate::settings::WorldSettings;
use crate::stopwatch::Stopwatch;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// A world's ground on its lattice, ready for the drainage.
#[derive(Debug, Clone)]
pub struct WorkedGround {
    /// The one ground function: natural field plus what erosion and sediment did.
    pub planet: PlanetHeight,
    /// The lattice (`settings.lattice_nodes` points), shared with the field.
    pub lattice: Arc<FibonacciLattice>,
    /// Ground height at every lattice node, metres (the ground function read at the nodes).
    pub heights: Vec<f64>,
    /// What erosion did (`None` when the world does not erode).
    pub erosion: Option<ErosionReport>,
    /// Nodes raised by sediment after erosion: filled hollows and flats given a fall.
    pub settled_nodes: usize,
}

impl WorkedGround {
    /// Builds the lattice, evaluates the natural ground, erodes it (when the world erodes)
    /// and settles it under the drainage `params` (`DrainageParams::for_world`), reporting
    /// each stage to `progress` (stage, share of this build done 0..=1); `None` soon after
    /// `cancel` is set (read between stages and erosion steps, and every 65,536 nodes inside
    /// the lattice and height loops).
    pub fn build_cancellable(
        settings: &WorldSettings,
        params: &DrainageParams,
        progress: &(dyn Fn(&'static str, f64) + Sync),
        cancel: &AtomicBool,
    ) -> Option<Self> {
        Self::build_timed(settings, params, progress, cancel, &mut Stopwatch::start())
    }

    /// [`WorkedGround::build_cancellable`] timing each stage on `clock`.
    pub(crate) fn build_timed(
        settings: &WorldSettings,
        params: &DrainageParams,
        progress: &(dyn Fn(&'static str, f64) + Sync),
        cancel: &AtomicBool,
        clock: &mut Stopwatch,
    ) -> Option<Self> {
        let go_on = || (!cancel::requested(cancel)).then_some(());
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
        let outlets = DrainageParams { rivers: false, ..*params };
        let mut worked = natural.clone();
        let mut erosion = None;
        if let Some(model) = PlanetErosion::for_world(settings) {
            let held: Vec<bool> =
                lattice.positions().iter().map(|&p| natural_field.in_lake_basin(p)).collect();
            let steps = model.steps as f64;
            worked =
                erode_planet(&*lattice, &natural, &held, &model, &outlets, cancel, &mut |step, _, _| {
                    progress("erosion", 0.3 + 0.6 * step as f64 / steps);
                })?;
            erosion = Some(ErosionReport::between(&*lattice, &natural, &worked, model.steps));
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
        // Where erosion remade the land, the natural field's detail between nodes is kept at
        // the share the run started from; sediment alone keeps all of it.
        let share = if erosion.is_some() { START_RELIEF } else { 1.0 };
        let changes: Vec<f64> = worked.iter().zip(&natural).map(|(w, n)| w - share * n).collect();
        let (planet, heights) = if erosion.is_none() && changes.iter().all(|&c| c == 0.0) {
            (natural_field, natural)
        } else {
            let planet = natural_field.with_erosion(ErodedField::new(Arc::clone(&lattice), share, changes));
            let heights = planet.heights_at_nodes(&natural);
            (planet, heights)
        };
        clock.lap("ground");
        progress("ground", 1.0);
        Some(WorkedGround { planet, lattice, heights, erosion, settled_nodes })
    }
}
