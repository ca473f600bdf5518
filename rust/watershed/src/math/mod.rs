//! Shared arithmetic every stage may use: directions on the sphere (`sphere`), reach
//! geometry and smooth profiles (`geometry`), seeded random numbers (`rng`).

pub mod geometry;
pub mod rng;
pub mod sphere;
