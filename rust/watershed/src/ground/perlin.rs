//! 3-D Perlin noise that gives exactly the bits of the pinned `noise` crate's
//! `Perlin::get` (0.9.0), faster: the permutation lookups of the eight corners share their
//! first levels, and each corner's gradient term is the sum of two of the point's twelve
//! signed offsets, picked from a table instead of a sixteen-way branch. The arithmetic is
//! the crate's (a product with ±1 is the offset or its negation, bit for bit), so every
//! height keeps its bytes.

use noise::permutationtable::{NoiseHasher, PermutationTable};

/// Gradient `h & 15` as (first axis, second axis, sign of first, sign of second): the
/// crate's `±a ± b` for its twelve edge directions (four repeated).
const GRADIENTS: [(usize, usize, f64, f64); 16] = [
    (0, 1, 1.0, 1.0),
    (0, 1, -1.0, 1.0),
    (0, 1, 1.0, -1.0),
    (0, 1, -1.0, -1.0),
    (0, 2, 1.0, 1.0),
    (0, 2, -1.0, 1.0),
    (0, 2, 1.0, -1.0),
    (0, 2, -1.0, -1.0),
    (1, 2, 1.0, 1.0),
    (1, 2, -1.0, 1.0),
    (1, 2, 1.0, -1.0),
    (1, 2, -1.0, -1.0),
    (0, 1, 1.0, 1.0),
    (0, 1, -1.0, 1.0),
    (1, 2, -1.0, 1.0),
    (1, 2, -1.0, -1.0),
];

/// Gradient `h & 15` at each corner of the cell (bit 0: x + 1, bit 1: y + 1, bit 2:
/// z + 1) as the two terms it sums, indices into the point's signed offsets from the
/// corners `[dx, dy, dz, dx − 1, dy − 1, dz − 1]` followed by their negations: the crate's
/// `±a ± b`, each term the same bits as its product with ±1.
const CORNER_TERMS: [[[u8; 2]; 8]; 16] = {
    let mut out = [[[0; 2]; 8]; 16];
    let mut h = 0;
    while h < 16 {
        let (a, b, sa, sb) = GRADIENTS[h];
        let mut corner = 0;
        while corner < 8 {
            out[h][corner] = [corner_term(corner, a, sa), corner_term(corner, b, sb)];
            corner += 1;
        }
        h += 1;
    }
    out
};

/// The index in a point's signed offsets of `sign` times its offset along `axis` from
/// `corner` (see [`CORNER_TERMS`]).
const fn corner_term(corner: usize, axis: usize, sign: f64) -> u8 {
    let shifted = (corner >> axis) & 1;
    (axis + 3 * shifted + if sign < 0.0 { 6 } else { 0 }) as u8
}

/// `2/√3`, the crate's scale to about -1..=1.
const SCALE: f64 = 1.154_700_538_379_251_5;

/// One seeded 3-D Perlin noise.
#[derive(Debug, Clone)]
pub(crate) struct Perlin {
    table: [u8; 256],
}

impl Perlin {
    /// The noise of `noise::Perlin::new(seed)`.
    pub(crate) fn new(seed: u32) -> Self {
        let permutation = PermutationTable::new(seed);
        Perlin { table: std::array::from_fn(|i| permutation.hash(&[i as isize]) as u8) }
    }

    #[inline]
    fn p(&self, i: usize) -> usize {
        usize::from(self.table[i & 0xff])
    }

    /// Noise at `point`, in -1..=1.
    #[inline]
    pub(crate) fn get(&self, point: [f64; 3]) -> f64 {
        // The crate's corner: truncation, one lower at zero and below (so -2.0 maps to -3).
        let corner = point.map(|x| if x <= 0.0 { x as isize - 1 } else { x as isize });
        let d = [point[0] - corner[0] as f64, point[1] - corner[1] as f64, point[2] - corner[2] as f64];
        let (x, y, z) = (corner[0] as usize, corner[1] as usize, corner[2] as usize);
        let (hx0, hx1) = (self.p(x), self.p(x.wrapping_add(1)));
        let (h00, h01) = (self.p(hx0 ^ (y & 0xff)), self.p(hx0 ^ (y.wrapping_add(1) & 0xff)));
        let (h10, h11) = (self.p(hx1 ^ (y & 0xff)), self.p(hx1 ^ (y.wrapping_add(1) & 0xff)));
        let (z0, z1) = (z & 0xff, z.wrapping_add(1) & 0xff);
        let offsets = [
            d[0],
            d[1],
            d[2],
            d[0] - 1.0,
            d[1] - 1.0,
            d[2] - 1.0,
            -d[0],
            -d[1],
            -d[2],
            -(d[0] - 1.0),
            -(d[1] - 1.0),
            -(d[2] - 1.0),
        ];
        let gradient = |h: usize, corner: usize| {
            let [a, b] = CORNER_TERMS[h & 0xf][corner];
            offsets[usize::from(a)] + offsets[usize::from(b)]
        };
        let g000 = gradient(self.p(h00 ^ z0), 0b000);
        let g100 = gradient(self.p(h10 ^ z0), 0b001);
        let g010 = gradient(self.p(h01 ^ z0), 0b010);
        let g110 = gradient(self.p(h11 ^ z0), 0b011);
        let g001 = gradient(self.p(h00 ^ z1), 0b100);
        let g101 = gradient(self.p(h10 ^ z1), 0b101);
        let g011 = gradient(self.p(h01 ^ z1), 0b110);
        let g111 = gradient(self.p(h11 ^ z1), 0b111);
        let curve = d.map(|t| {
            let t = t.clamp(0.0, 1.0);
            t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
        });
        let linear = |a: f64, b: f64, t: f64| b * t + a * (1.0 - t);
        let result = linear(
            linear(linear(g000, g001, curve[2]), linear(g010, g011, curve[2]), curve[1]),
            linear(linear(g100, g101, curve[2]), linear(g110, g111, curve[2]), curve[1]),
            curve[0],
        ) * SCALE;
        result.clamp(-1.0, 1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::rng::SplitMix64;
    use noise::NoiseFn;

    #[test]
    fn the_same_bits_as_the_noise_crate() {
        let mut rng = SplitMix64::new(99, 0);
        for seed in [0, 1, 7091, u32::MAX] {
            let ours = Perlin::new(seed);
            let theirs = noise::Perlin::new(seed);
            let mut points: Vec<[f64; 3]> = (0..200_000)
                .map(|_| [rng.range(-700.0, 700.0), rng.range(-700.0, 700.0), rng.range(-3.0, 3.0)])
                .collect();
            // Whole numbers, zeros and negative zeros, where the crate's corner is quirky.
            for a in [-2.0, -1.0, -0.0, 0.0, 0.5, 1.0, 255.0, 256.0, -256.0] {
                for b in [-2.0, -0.0, 0.0, 3.0] {
                    points.push([a, b, a + b]);
                    points.push([b, a, 0.25]);
                }
            }
            for q in points {
                assert_eq!(ours.get(q).to_bits(), theirs.get(q).to_bits(), "seed {seed} at {q:?}");
            }
        }
    }
}
