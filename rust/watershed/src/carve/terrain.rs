//! The ground the water runs on, solved — worked ground, drainage and channels (built in
//! that order by the pipeline stage) — and the one carved-ground function the mesh, the
//! voxel SDF and the water table read.

use crate::carve::Carve;
use crate::drainage::Drainage;
use crate::erosion::ErosionReport;
use crate::ground::height::PlanetHeight;
use crate::ground::lattice::FibonacciLattice;
use crate::ground::surface::PlanetSurface;
use crate::math::sphere;
use crate::settings::WorldSettings;
use glam::DVec3;
use std::sync::Arc;

/// A world's ground, drainage and channels on its Fibonacci lattice: everything but the
/// water table.
#[derive(Debug, Clone)]
pub struct Terrain {
    /// The settings it was built from.
    pub settings: WorldSettings,
    /// The ground field (with what erosion and sediment did).
    pub planet: PlanetHeight,
    /// The lattice (`settings.lattice_nodes` points), shared with the ground field.
    pub lattice: Arc<FibonacciLattice>,
    /// Ground height at every lattice node, metres.
    pub heights: Vec<f64>,
    /// What erosion did (`None` when the world does not erode).
    pub erosion: Option<ErosionReport>,
    /// Nodes raised by sediment: filled hollows and flats given a fall.
    pub settled_nodes: usize,
    /// The drainage solve.
    pub drainage: Drainage,
    /// The river channels.
    pub carve: Carve,
}

impl Terrain {
    /// The planet's surface: its lattice and ground field, as the carve and water read them.
    pub fn surface(&self) -> PlanetSurface<'_> {
        PlanetSurface { planet: &self.planet, lattice: &self.lattice }
    }

    /// The carved ground in direction `dir`: the natural ground with every channel and
    /// beach collar cut in, metres above the datum. The one height function the mesh, the
    /// voxel SDF and the water read.
    pub fn ground(&self, dir: DVec3) -> f64 {
        self.ground_and_natural(dir).0
    }

    /// The carved and the natural ground in direction `dir`, metres above the datum.
    pub fn ground_and_natural(&self, dir: DVec3) -> (f64, f64) {
        self.carve.ground_at(&self.surface(), sphere::unit(dir))
    }

    /// [`Terrain::ground`] given `near`, the lattice node nearest a direction close by, which
    /// it moves to the node nearest `dir`: the same metres, with that node found in a step
    /// or two instead of a whole search.
    pub fn ground_from(&self, dir: DVec3, near: &mut usize) -> f64 {
        let p = sphere::unit(dir);
        *near = self.lattice.nearest_node_from(p, *near).index();
        self.carve.ground_near(&self.surface(), p, *near).0
    }
}
