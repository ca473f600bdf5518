//! 3-D Perlin noise that gives exactly the bits of the pinned `noise` crate's
//! `Perlin::get` (0.9.0), faster: the permutation lookups of the eight corners share their
//! first levels, and each corner's gradient term is the sum of two of the point's twelve
//! signed offsets, picked from a table instead of a sixteen-way branch. The arithmetic is
//! the crate's (a product with ±1 is the offset or its negation, bit for bit), so every
//! height keeps its bytes. Two noises can be read together: their smoothings and blends run
//! side by side in the processor's two-wide lanes.

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
        let (corner, d) = cell(point);
        let g = self.gradients(corner, &offsets(d));
        let c = d.map(curve);
        let result = linear(
            linear(linear(g[0], g[4], c[2]), linear(g[2], g[6], c[2]), c[1]),
            linear(linear(g[1], g[5], c[2]), linear(g[3], g[7], c[2]), c[1]),
            c[0],
        ) * SCALE;
        result.clamp(-1.0, 1.0)
    }

    /// `[self.get(a), other.get(b)]`, bit for bit, with the two smoothings and blends side
    /// by side so the processor runs them together.
    #[inline]
    pub(crate) fn get_pair(&self, other: &Perlin, a: [f64; 3], b: [f64; 3]) -> [f64; 2] {
        let ((corner_a, da), (corner_b, db)) = (cell(a), cell(b));
        let (ga, gb) = (self.gradients(corner_a, &offsets(da)), other.gradients(corner_b, &offsets(db)));
        let g = |k: usize| [ga[k], gb[k]];
        let c = |axis: usize| [curve(da[axis]), curve(db[axis])];
        let blend =
            |x: [f64; 2], y: [f64; 2], t: [f64; 2]| [linear(x[0], y[0], t[0]), linear(x[1], y[1], t[1])];
        let (cx, cy, cz) = (c(0), c(1), c(2));
        let result = blend(
            blend(blend(g(0), g(4), cz), blend(g(2), g(6), cz), cy),
            blend(blend(g(1), g(5), cz), blend(g(3), g(7), cz), cy),
            cx,
        );
        result.map(|r| (r * SCALE).clamp(-1.0, 1.0))
    }

    /// Each corner's gradient term for the cell at `[x, y, z]` (bit 0 of the corner's index:
    /// x + 1, bit 1: y + 1, bit 2: z + 1), from the point's signed `offsets`.
    #[inline]
    fn gradients(&self, [x, y, z]: [usize; 3], offsets: &[f64; 12]) -> [f64; 8] {
        let (hx0, hx1) = (self.p(x), self.p(x.wrapping_add(1)));
        let (h00, h01) = (self.p(hx0 ^ (y & 0xff)), self.p(hx0 ^ (y.wrapping_add(1) & 0xff)));
        let (h10, h11) = (self.p(hx1 ^ (y & 0xff)), self.p(hx1 ^ (y.wrapping_add(1) & 0xff)));
        let (z0, z1) = (z & 0xff, z.wrapping_add(1) & 0xff);
        let gradient = |h: usize, corner: usize| {
            let [a, b] = CORNER_TERMS[h & 0xf][corner];
            offsets[usize::from(a)] + offsets[usize::from(b)]
        };
        [
            gradient(self.p(h00 ^ z0), 0b000),
            gradient(self.p(h10 ^ z0), 0b001),
            gradient(self.p(h01 ^ z0), 0b010),
            gradient(self.p(h11 ^ z0), 0b011),
            gradient(self.p(h00 ^ z1), 0b100),
            gradient(self.p(h10 ^ z1), 0b101),
            gradient(self.p(h01 ^ z1), 0b110),
            gradient(self.p(h11 ^ z1), 0b111),
        ]
    }
}

/// The crate's corner of the cell holding `point` (truncation, one lower at zero and below,
/// so -2.0 maps to -3) and the point's offsets from it, in 0..=1.
#[inline]
fn cell(point: [f64; 3]) -> ([usize; 3], [f64; 3]) {
    let corner = point.map(|x| if x <= 0.0 { x as isize - 1 } else { x as isize });
    let d = [point[0] - corner[0] as f64, point[1] - corner[1] as f64, point[2] - corner[2] as f64];
    ([corner[0] as usize, corner[1] as usize, corner[2] as usize], d)
}

/// A point's signed offsets from the corners, `[dx, dy, dz, dx − 1, dy − 1, dz − 1]` and
/// their negations (see [`CORNER_TERMS`]).
#[inline]
fn offsets(d: [f64; 3]) -> [f64; 12] {
    let e = [d[0] - 1.0, d[1] - 1.0, d[2] - 1.0];
    [d[0], d[1], d[2], e[0], e[1], e[2], -d[0], -d[1], -d[2], -e[0], -e[1], -e[2]]
}

/// The crate's quintic smoothing of an offset in 0..=1.
#[inline]
fn curve(t: f64) -> f64 {
    let t = t.clamp(0.0, 1.0);
    t * t * t * (t * (t * 6.0 - 15.0) + 10.0)
}

/// The crate's blend from `a` to `b` by `t`.
#[inline]
fn linear(a: f64, b: f64, t: f64) -> f64 {
    b * t + a * (1.0 - t)
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
            // Pairs: this seed's noise beside the next seed's, at the next point.
            let (next, next_theirs) =
                (Perlin::new(seed.wrapping_add(1)), noise::Perlin::new(seed.wrapping_add(1)));
            for (k, &q) in points.iter().enumerate() {
                assert_eq!(ours.get(q).to_bits(), theirs.get(q).to_bits(), "seed {seed} at {q:?}");
                let r = points[(k + 1) % points.len()];
                let pair = ours.get_pair(&next, q, r).map(f64::to_bits);
                assert_eq!(
                    pair,
                    [theirs.get(q), next_theirs.get(r)].map(f64::to_bits),
                    "seed {seed} at {q:?}, {r:?}"
                );
            }
        }
    }
}
