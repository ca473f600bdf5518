//! Life on a solved planet: its climate, biomes, sites (the village, hamlets, the mill and
//! the spawn), the named places around them and scatter (trees and rocks), read from the
//! ground and the water and never written back.

pub mod biome;
pub mod climate;
pub mod distance;
pub mod places;
pub mod scatter;
pub mod sites;

use crate::water::world::World;
use biome::Biomes;
use climate::Climate;
use sites::{SiteRules, Sites};

/// Everything that lives on one solved world, worked out together: what the engine's nodes
/// share.
#[derive(Debug, Clone, PartialEq)]
pub struct Life {
    /// Temperature and moisture at every node.
    pub climate: Climate,
    /// The biome of every dry node.
    pub biomes: Biomes,
    /// The village, hamlets, mill and spawn under the default rules.
    pub sites: Sites,
}

impl Life {
    /// The life of `world`, worked out on a rayon pool of its own, so the workers of the
    /// caller's pool may wait on it without holding up the work it waits on.
    pub fn of(world: &World) -> Self {
        let work = || {
            let climate = Climate::of(world);
            let biomes = Biomes::of(world, &climate);
            let sites = Sites::with_slopes(world, &SiteRules::default(), &biomes.slope_deg);
            Life { climate, biomes, sites }
        };
        match rayon::ThreadPoolBuilder::new().build() {
            Ok(pool) => pool.install(work),
            // No threads to be had for a pool: the caller's pool does it.
            Err(_) => work(),
        }
    }
}
