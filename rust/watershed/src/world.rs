//! One planet, solved: settings → ground field → lattice → heights → drainage.

use crate::cancel;
use crate::carve::{Carve, CarveStats, ReachEnd};
use crate::digest::digest_f64;
use crate::drainage::{self, Drainage, DrainageParams, NodeKind, Stopwatch};
use crate::height::PlanetHeight;
use crate::lattice::FibonacciLattice;
use crate::settings::{hex, WorldSettings};
use crate::sphere;
use crate::water::WaterTable;
use crate::waves::SeaState;
use glam::DVec3;
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::sync::atomic::AtomicBool;

/// A world's ground and drainage on its Fibonacci lattice.
#[derive(Debug, Clone)]
pub struct World {
    /// The settings it was built from.
    pub settings: WorldSettings,
    /// The ground field.
    pub planet: PlanetHeight,
    /// The lattice (`settings.lattice_nodes` points).
    pub lattice: FibonacciLattice,
    /// Ground height at every lattice node, metres.
    pub heights: Vec<f64>,
    /// The drainage solve.
    pub drainage: Drainage,
    /// The river channels.
    pub carve: Carve,
    /// Every water level, computed once.
    pub water: WaterTable,
    /// Wall-clock milliseconds per stage (lattice, heights, the solve's stages, carve, water).
    pub timings_ms: Vec<(&'static str, f64)>,
}

impl World {
    /// Builds the lattice, evaluates the ground at every node, solves the drainage, cuts
    /// the channels and computes the water table.
    pub fn build(settings: &WorldSettings) -> Self {
        Self::build_with_progress(settings, &|_, _| {})
    }

    /// [`World::build`], calling `progress(stage, fraction done)` after each stage (from the
    /// calling thread; stages: lattice, heights, drainage, carve, water).
    pub fn build_with_progress(
        settings: &WorldSettings,
        progress: &(dyn Fn(&'static str, f64) + Sync),
    ) -> Self {
        let never = AtomicBool::new(false);
        match Self::build_cancellable(settings, progress, &never) {
            Some(world) => world,
            None => unreachable!("nothing sets the flag"),
        }
    }

    /// [`World::build_with_progress`] that gives up, returning `None`, soon after `cancel`
    /// is set: it is read between stages and every 65,536 nodes inside the lattice, height
    /// and flood loops, so a superseded build stops within a fraction of a stage.
    pub fn build_cancellable(
        settings: &WorldSettings,
        progress: &(dyn Fn(&'static str, f64) + Sync),
        cancel: &AtomicBool,
    ) -> Option<Self> {
        let go_on = || (!cancel::requested(cancel)).then_some(());
        let mut clock = Stopwatch::start();
        let planet = PlanetHeight::new(settings);
        let lattice = FibonacciLattice::new_cancellable(settings.lattice_nodes, settings.radius_m, cancel)?;
        clock.lap("lattice");
        progress("lattice", 0.15);
        let mut heights = Vec::with_capacity(lattice.positions().len());
        for chunk in lattice.positions().chunks(cancel::CHECK_EVERY) {
            go_on()?;
            heights.extend(planet.heights(chunk));
        }
        clock.lap("heights");
        progress("heights", 0.45);
        let params = DrainageParams::for_world(settings, SeaState::for_world(settings).storm_crest_m());
        let drainage = drainage::solve_cancellable(&lattice, &heights, &params, cancel)?;
        clock.laps.extend(drainage.timings_ms.iter().copied());
        clock.lap_from_here();
        progress("drainage", 0.6);
        go_on()?;
        let carve = Carve::build(settings, &planet, &lattice, &heights, &drainage);
        clock.lap("carve");
        progress("carve", 0.8);
        go_on()?;
        let mut world = World {
            settings: settings.clone(),
            planet,
            lattice,
            heights,
            drainage,
            carve,
            water: WaterTable::default(),
            timings_ms: Vec::new(),
        };
        world.water = WaterTable::build(&world);
        clock.lap("water");
        progress("water", 1.0);
        world.timings_ms = clock.laps;
        Some(world)
    }

    /// The carved ground in direction `dir`: the natural ground with every channel and
    /// beach collar cut in, metres above the datum. The one height function the mesh, the
    /// voxel SDF and the water read.
    pub fn ground(&self, dir: DVec3) -> f64 {
        self.ground_and_natural(dir).0
    }

    /// The carved and the natural ground in direction `dir`, metres above the datum.
    pub fn ground_and_natural(&self, dir: DVec3) -> (f64, f64) {
        let p = sphere::unit(dir);
        let natural = self.planet.height_unit(p);
        (self.carve.cut(&self.lattice, p, natural), natural)
    }

    /// Carve invariants and counts: beds, joins, faces, falls, collars, and `samples` points
    /// along every reach's centre line checked against the carved ground.
    pub fn carve_stats(&self, samples: usize) -> CarveStats {
        let reaches = &self.carve.reaches;
        let mut s = CarveStats { reaches: reaches.len(), samples_per_reach: samples, ..Default::default() };
        for reach in reaches {
            if reach.rises() {
                s.bed_rising += 1;
            }
            if reach.ends_in == ReachEnd::River && reach.bed_end_m() < self.carve.bed_of(reach.to) {
                s.tributary_below_main += 1;
            }
            if reach.face_slope() > crate::carve::MAX_FACE_SLOPE + 1e-9 {
                s.steep_faces += 1;
            }
            if reach.fall {
                s.falls += 1;
                s.tallest_fall_m = s.tallest_fall_m.max(reach.drop_m);
            }
            if reach.ends_in == ReachEnd::Sea {
                s.mouths_with_collar += 1;
            }
        }
        let per_reach: Vec<(usize, usize)> = reaches
            .par_iter()
            .map(|reach| {
                let (mut floating, mut shallow) = (0, 0);
                for k in 0..samples {
                    let t = (k as f64 + 0.5) / samples as f64;
                    let p = sphere::unit(reach.start + (reach.end - reach.start) * t);
                    let bed = reach.bed_at(t * reach.length_m);
                    let (ground, natural) = self.ground_and_natural(p);
                    // Where the sea covers the ground, the river has ended.
                    if self.settings.sea && natural < self.settings.sea_level_m {
                        continue;
                    }
                    if bed - ground > 6.0 {
                        floating += 1;
                    }
                    if natural - bed < 0.1 {
                        shallow += 1;
                    }
                }
                (floating, shallow)
            })
            .collect();
        for (f, sh) in per_reach {
            s.floating_stretches += f;
            s.shallow_stretches += sh;
        }
        s
    }

    /// SHA-256 (hex) of every reach's bed and channel: bed levels, settle length, depth and
    /// half-width (f64), and the fall flag, reach by reach.
    pub fn carve_digest(&self) -> String {
        let mut h = Sha256::new();
        for r in &self.carve.reaches {
            for v in r.beds.iter().chain([&r.settle_m, &r.depth_m, &r.half_width_m]) {
                h.update(v.to_le_bytes());
            }
            h.update([u8::from(r.fall)]);
        }
        hex(&h.finalize())
    }

    /// SHA-256 (hex) of the whole network: receivers (i64, -1 for outlets), catchments and
    /// water levels (f64), node by node, as raw little-endian bytes.
    pub fn network_digest(&self) -> String {
        let d = &self.drainage;
        let mut h = Sha256::new();
        for r in d.receiver_indices() {
            h.update(r.to_le_bytes());
        }
        for v in d.catchment_m2.iter().chain(&d.water_level_m) {
            h.update(v.to_le_bytes());
        }
        hex(&h.finalize())
    }

    /// SHA-256 (hex) of the river set then the lake set, as ascending u32 node indices
    /// (little-endian), the two separated by `u32::MAX`.
    pub fn sets_digest(&self) -> String {
        let kinds = &self.drainage.kind;
        let mut h = Sha256::new();
        for set in [NodeKind::River, NodeKind::Lake] {
            for (i, _) in kinds.iter().enumerate().filter(|(_, k)| **k == set) {
                h.update((i as u32).to_le_bytes());
            }
            h.update(u32::MAX.to_le_bytes());
        }
        hex(&h.finalize())
    }

    /// SHA-256 (hex) of the water table: each reach's surface profile, discharge, wetted
    /// area and depth (f64), reach by reach.
    pub fn water_digest(&self) -> String {
        let mut h = Sha256::new();
        for (levels, f) in self.water.reach_levels.iter().zip(&self.water.reach_flows) {
            for v in levels.iter().chain([&f.discharge_m3_s, &f.area_m2, &f.depth_m]) {
                h.update(v.to_le_bytes());
            }
        }
        hex(&h.finalize())
    }

    /// SHA-256 (hex) of the lattice heights, f64 node by node.
    pub fn heights_digest(&self) -> String {
        digest_f64(self.heights.iter().copied())
    }
}
