//! Life on a solved planet: its climate and biomes, read from the ground and the water and
//! never written back.

pub mod biome;
pub mod climate;
pub mod sites;
