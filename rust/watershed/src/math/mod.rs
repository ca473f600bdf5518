//! Shared arithmetic every stage may use: directions on the sphere (`sphere`), the
//! cube-sphere quadtree of chunks (`cube`), reach
//! geometry and smooth profiles (`geometry`), seeded random numbers (`rng`), batches of
//! queries evaluated nearby points together (`batch`).

pub(crate) mod batch;
pub mod cube;
pub mod geometry;
pub mod rng;
pub mod sphere;
