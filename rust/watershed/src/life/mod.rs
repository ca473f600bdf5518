//! Life on a solved planet: its climate, biomes and sites (the village, hamlets, the mill
//! and the spawn), read from the ground and the water and never written back.

pub mod biome;
pub mod climate;
pub mod sites;
mod walk;
