//! Life on a solved planet: its climate, biomes, sites (the village, hamlets, the mill and
//! the spawn) and scatter (trees and rocks), read from the ground and the water and never written back.

pub mod biome;
pub mod climate;
pub mod scatter;
pub mod sites;
mod walk;
