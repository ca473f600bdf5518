//! SHA-256 digests over raw IEEE bytes: the ruler for "same settings, same planet".

use crate::carve::terrain::Terrain;
use crate::drainage::NodeKind;
use crate::ground::height::PlanetHeight;
use crate::life::climate::Climate;
use crate::life::scatter::{Instance, Scatter, ScatterRules};
use crate::life::sites::{SiteRules, Sites};
use crate::math::cube::ChunkKey;
use crate::math::sphere;
use crate::settings::{hex, WorldSettings};
use crate::water::world::World;
use glam::DVec3;
use rayon::prelude::*;
use sha2::{Digest, Sha256};

/// How many pseudo-random directions the digests sample.
pub const DIGEST_SAMPLES: usize = 4096;

/// SHA-256 (hex) of `values` as consecutive little-endian f64 bytes.
pub fn digest_f64(values: impl IntoIterator<Item = f64>) -> String {
    let mut h = Sha256::new();
    for v in values {
        h.update(v.to_le_bytes());
    }
    hex(&h.finalize())
}

/// The digests of one world, each a lowercase hex SHA-256.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorldDigests {
    /// The sampled directions themselves (x, y, z per direction): the control.
    pub directions: String,
    /// The ground heights at those directions, metres.
    pub heights: String,
}

/// The [`DIGEST_SAMPLES`] directions drawn from the world seed.
pub fn digest_directions(settings: &WorldSettings) -> Vec<DVec3> {
    sphere::random_directions(settings.seed, DIGEST_SAMPLES)
}

/// Digests the world's direction sample and the heights there (evaluated in parallel).
pub fn world_digests(settings: &WorldSettings, planet: &PlanetHeight) -> WorldDigests {
    let dirs = digest_directions(settings);
    let heights = planet.heights(&dirs);
    WorldDigests {
        directions: digest_f64(dirs.iter().flat_map(|d| d.to_array())),
        heights: digest_f64(heights),
    }
}

impl Terrain {
    /// SHA-256 (hex) of every reach's bed and channel: bed levels, settle length, depth and
    /// half-width (f64), and the fall flag, reach by reach.
    pub fn carve_digest(&self) -> String {
        let mut h = Sha256::new();
        for r in &self.carve.reaches {
            for v in r.beds.iter().chain([&r.settle_m, &r.depth_m, &r.half_width_m]) {
                h.update(v.to_le_bytes());
            }
            h.update([u8::from(r.fall)]);
        }
        hex(&h.finalize())
    }

    /// SHA-256 (hex) of the whole network: receivers (i64, -1 for outlets), catchments and
    /// water levels (f64), node by node, as raw little-endian bytes.
    pub fn network_digest(&self) -> String {
        let d = &self.drainage;
        let mut h = Sha256::new();
        for r in d.receiver_indices() {
            h.update(r.to_le_bytes());
        }
        for v in d.catchment_m2.iter().copied().chain(d.water_levels_m()) {
            h.update(v.to_le_bytes());
        }
        hex(&h.finalize())
    }

    /// SHA-256 (hex) of the river set then the lake set, as ascending u32 node indices
    /// (little-endian), the two separated by `u32::MAX`.
    pub fn sets_digest(&self) -> String {
        let kinds = &self.drainage.kind;
        let mut h = Sha256::new();
        for set in [NodeKind::River, NodeKind::Lake] {
            for (i, _) in kinds.iter().enumerate().filter(|(_, k)| **k == set) {
                h.update((i as u32).to_le_bytes());
            }
            h.update(u32::MAX.to_le_bytes());
        }
        hex(&h.finalize())
    }

    /// SHA-256 (hex) of the lattice heights, f64 node by node.
    pub fn heights_digest(&self) -> String {
        digest_f64(self.heights.iter().copied())
    }
}

/// SHA-256 (hex) of the water table: each reach's surface profile, discharge, wetted
/// area and depth (f64), reach by reach.
pub fn water_digest(world: &World) -> String {
    let mut h = Sha256::new();
    for (levels, f) in world.levels.reach_levels.iter().zip(&world.levels.reach_flows) {
        for v in levels.iter().chain([&f.discharge_m3_s, &f.area_m2, &f.depth_m]) {
            h.update(v.to_le_bytes());
        }
    }
    hex(&h.finalize())
}

/// SHA-256 (hex) of the trees and rocks (default rules) in the chunks of
/// [`scatter_digest_chunks`]: each thing's kind (one byte), then its direction, height,
/// scale and turn (f64), chunk by chunk. The chunks are scattered in parallel and read
/// in order.
pub fn scatter_digest(world: &World) -> String {
    let climate = Climate::of(world);
    let sites = Sites::of(world, &SiteRules::default());
    let scatter = Scatter::new(world, &climate, &sites, ScatterRules::default());
    let chunks: Vec<Vec<Instance>> =
        scatter_digest_chunks(&sites).par_iter().map(|&key| scatter.chunk(key)).collect();
    let mut h = Sha256::new();
    for thing in chunks.iter().flatten() {
        h.update([thing.kind as u8]);
        for v in thing.dir.to_array().iter().chain(&[thing.height_m, thing.scale, thing.yaw_rad]) {
            h.update(v.to_le_bytes());
        }
    }
    hex(&h.finalize())
}

/// The chunks the scatter digest reads: the centre chunk of each cube face at level 6, and
/// the level-5 chunk nearest the village when there is one (wide enough to hold the
/// village's clearing and the country around it).
pub fn scatter_digest_chunks(sites: &Sites) -> Vec<ChunkKey> {
    let mut chunks: Vec<ChunkKey> = (0..6).map(|face| ChunkKey { face, level: 6, x: 32, y: 32 }).collect();
    if let Some(village) = &sites.village {
        let holding = (0..6u8)
            .flat_map(|face| {
                (0..32u32).flat_map(move |x| (0..32u32).map(move |y| ChunkKey { face, level: 5, x, y }))
            })
            .min_by(|a, b| {
                let d = |k: &ChunkKey| (k.centre() - village.dir).length_squared();
                d(a).total_cmp(&d(b)).then(a.cmp(b))
            });
        chunks.extend(holding);
    }
    chunks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digest_reads_raw_bytes() {
        // SHA-256 of no bytes, and 0.0 differs from -0.0 because the bytes differ.
        assert_eq!(digest_f64([]), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
        assert_ne!(digest_f64([0.0]), digest_f64([-0.0]));
    }
}
