//! What the drainage solver sees of a surface: nodes, their neighbours and their areas.
//!
//! The Fibonacci lattice on the sphere and the regular grid both implement [`Topology`];
//! the solver never asks which one it has.

use crate::ground::grid::Grid;

/// A node index on a topology.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(pub u32);

impl NodeId {
    /// The index as a `usize`, for slicing per-node arrays.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A surface of nodes joined by a symmetric neighbour relation.
///
/// # Invariants
/// `b` is among `neighbors(a)` exactly when `a` is among `neighbors(b)`; no node is its own
/// neighbour; `area_m2` is positive.
pub trait Topology: Sync {
    /// Number of nodes.
    fn len(&self) -> usize;

    /// Whether there are no nodes.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The neighbours of node `i`, in a fixed order.
    fn neighbors(&self, i: usize) -> impl Iterator<Item = usize> + '_;

    /// The ground area node `i` stands for, m².
    fn area_m2(&self, i: usize) -> f64;

    /// Distance between neighbouring nodes `a` and `b` along the ground, metres.
    fn distance_m(&self, a: usize, b: usize) -> f64;

    /// Whether node `i` lies on the boundary of the surface (grids: the map edge; the sphere
    /// has none).
    fn on_edge(&self, i: usize) -> bool;

    /// The regular grid this surface is, if it is one: hot loops then reach a cell's inner
    /// neighbours by index offsets ([`Grid::inner_neighbours`]), with the same results.
    fn grid(&self) -> Option<&Grid> {
        None
    }
}
