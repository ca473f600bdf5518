//! Stage 2, the ground: the height field and the points it is sampled at (the Fibonacci
//! lattice on the sphere, a grid for heightmaps), both a [`topology::Topology`] to the
//! drainage.

pub mod eroded;
pub mod grid;
pub mod height;
pub mod lattice;
pub(crate) mod perlin;
pub mod region;
pub mod surface;
pub mod topology;
