//! Shared arithmetic every stage may use: directions on the sphere (`sphere`), the
//! cube-sphere quadtree of chunks (`cube`), reach geometry and smooth profiles
//! (`geometry`), a cover of even cells (`rings`) and the cheapest of many weighted sources
//! at any point read from it (`nearest`), seeded random numbers (`rng`), batches of queries
//! evaluated nearby points together (`batch`).

pub(crate) mod batch;
pub mod cube;
pub mod geometry;
pub(crate) mod nearest;
pub(crate) mod rings;
pub mod rng;
pub mod sphere;
