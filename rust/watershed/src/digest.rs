//! SHA-256 digests over raw IEEE bytes: the ruler for "same settings, same planet".

use crate::height::PlanetHeight;
use crate::settings::{hex, WorldSettings};
use crate::sphere;
use glam::DVec3;
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
