//! One planet, solved: settings → ground field → lattice → heights → drainage.

use crate::digest::digest_f64;
use crate::drainage::{self, Drainage, DrainageParams, NodeKind, Stopwatch};
use crate::height::PlanetHeight;
use crate::lattice::FibonacciLattice;
use crate::settings::{hex, WorldSettings};
use sha2::{Digest, Sha256};

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
    /// Wall-clock milliseconds per stage (lattice, heights, then the solve's stages).
    pub timings_ms: Vec<(&'static str, f64)>,
}

impl World {
    /// Builds the lattice, evaluates the ground at every node and solves the drainage.
    pub fn build(settings: &WorldSettings) -> Self {
        let mut clock = Stopwatch::start();
        let planet = PlanetHeight::new(settings);
        let lattice = FibonacciLattice::new(settings.lattice_nodes, settings.radius_m);
        clock.lap("lattice");
        let heights = planet.heights(lattice.positions());
        clock.lap("heights");
        let drainage = drainage::solve(&lattice, &heights, &DrainageParams::for_world(settings));
        let mut timings_ms = clock.laps;
        timings_ms.extend(drainage.timings_ms.iter().copied());
        World { settings: settings.clone(), planet, lattice, heights, drainage, timings_ms }
    }

    /// SHA-256 (hex) of the whole network: receivers (i64, -1 for outlets), catchments and
    /// water levels (f64), node by node, as raw little-endian bytes.
    pub fn network_digest(&self) -> String {
        let d = &self.drainage;
        let mut h = Sha256::new();
        for r in &d.receivers {
            h.update(r.receiver().map_or(-1i64, |n| i64::from(n.0)).to_le_bytes());
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

    /// SHA-256 (hex) of the lattice heights, f64 node by node.
    pub fn heights_digest(&self) -> String {
        digest_f64(self.heights.iter().copied())
    }
}
