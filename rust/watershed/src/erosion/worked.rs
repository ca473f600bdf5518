//! The ground as a world makes it (the pipeline stage runs the steps): the natural field on
//! the lattice, worn by stream power when the world erodes, then settled (hollows that hold
//! no water filled with sediment). What that did is stored on the lattice and added to the
//! field, so the drainage, the voxel SDF, the meshes and every picture read one ground
//! function.

use super::planet::START_RELIEF;
use super::ErosionReport;
use crate::ground::eroded::ErodedField;
use crate::ground::height::PlanetHeight;
use crate::ground::lattice::FibonacciLattice;
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
    /// The ground `natural_field` gives at the nodes of `lattice` (`natural`, metres), worked
    /// to `worked` by erosion (`erosion`, when the world erodes) and sediment
    /// (`settled_nodes` raised), folded back into one ground function.
    pub fn fold(
        natural_field: PlanetHeight,
        lattice: Arc<FibonacciLattice>,
        natural: Vec<f64>,
        worked: &[f64],
        erosion: Option<ErosionReport>,
        settled_nodes: usize,
    ) -> Self {
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
        WorkedGround { planet, lattice, heights, erosion, settled_nodes }
    }
}
