//! The planet's ground: `height(dir)` in metres above the datum for any direction.
//!
//! A small graph of fields, all evaluated in f64 and pure per point:
//! a slow continental field decides where high ground may exist; a ridge field of cubed
//! `(1 - |n|)` octaves stands creases up as spines;
//! a mesa mask terraces ridges into plateaus with cliff bands; craters are cut in; a basin is
//! shaped at the world's lake location. The sum is saturated smoothly into `±relief_m`.
//! When the world erodes, what erosion did on the lattice ([`ErodedField`]) is added last.
//! The sea is not part of this field: it is a sphere at `sea_level_m`.

use crate::ground::eroded::ErodedField;
use crate::ground::perlin::Perlin;
use crate::math::geometry::smoothstep;
use crate::math::rng::SplitMix64;
use crate::math::sphere;
use crate::settings::WorldSettings;
use glam::DVec3;
use rayon::prelude::*;

/// One noise octave: its own permutation, a random rotation and offset, a frequency.
///
/// The rotation and offset keep octaves from sharing lattice axes and hide the period of
/// `noise`'s 256-entry permutation table.
#[derive(Debug, Clone)]
struct Octave {
    perlin: Perlin,
    /// Rows of a rotation matrix, pre-multiplied by the frequency (cycles per unit radius).
    rows: [DVec3; 3],
    offset: DVec3,
}

impl Octave {
    fn new(rng: &mut SplitMix64, frequency: f64) -> Self {
        // Uniform random rotation from a random unit quaternion (Shoemake).
        let (u1, u2, u3) =
            (rng.next_f64(), rng.range(0.0, std::f64::consts::TAU), rng.range(0.0, std::f64::consts::TAU));
        let (a, b) = ((1.0 - u1).sqrt(), u1.sqrt());
        let (x, y, z, w) = (a * libm::sin(u2), a * libm::cos(u2), b * libm::sin(u3), b * libm::cos(u3));
        let rows = [
            DVec3::new(1.0 - 2.0 * (y * y + z * z), 2.0 * (x * y - z * w), 2.0 * (x * z + y * w)),
            DVec3::new(2.0 * (x * y + z * w), 1.0 - 2.0 * (x * x + z * z), 2.0 * (y * z - x * w)),
            DVec3::new(2.0 * (x * z - y * w), 2.0 * (y * z + x * w), 1.0 - 2.0 * (x * x + y * y)),
        ]
        .map(|r| r * frequency);
        let offset = DVec3::new(rng.range(-500.0, 500.0), rng.range(-500.0, 500.0), rng.range(-500.0, 500.0));
        let seed = (rng.next_u64() >> 32) as u32;
        Octave { perlin: Perlin::new(seed), rows, offset }
    }

    /// Noise at unit direction `p`, roughly in -1..=1.
    #[inline]
    fn at(&self, p: DVec3) -> f64 {
        self.perlin.get(self.point(p))
    }

    /// `[self.at(p), other.at(p)]`, bit for bit, the two computed side by side.
    #[inline]
    fn at_pair(&self, other: &Octave, p: DVec3) -> [f64; 2] {
        self.perlin.get_pair(&other.perlin, self.point(p), other.point(p))
    }

    /// Where unit direction `p` reads this octave's noise.
    #[inline]
    fn point(&self, p: DVec3) -> [f64; 3] {
        [
            self.rows[0].dot(p) + self.offset.x,
            self.rows[1].dot(p) + self.offset.y,
            self.rows[2].dot(p) + self.offset.z,
        ]
    }
}

/// Each octave's noise at unit direction `p`, in order, two at a time where it can.
#[inline]
fn each_octave(octaves: &[Octave], p: DVec3, mut f: impl FnMut(f64)) {
    let mut pairs = octaves.chunks_exact(2);
    for pair in &mut pairs {
        let [first, second] = pair[0].at_pair(&pair[1], p);
        f(first);
        f(second);
    }
    for octave in pairs.remainder() {
        f(octave.at(p));
    }
}

/// A stack of octaves with frequency ratios near but never exactly 2.
fn octaves(rng: &mut SplitMix64, count: usize, base_frequency: f64) -> Vec<Octave> {
    let mut frequency = base_frequency;
    (0..count)
        .map(|_| {
            let o = Octave::new(rng, frequency);
            frequency *= rng.range(1.93, 2.11);
            o
        })
        .collect()
}

/// One crater: centre, angular size and depth.
#[derive(Debug, Clone)]
struct Crater {
    centre: DVec3,
    /// Chord length of the crater's radius on the unit sphere.
    chord: f64,
    /// Dot product with the centre beyond which the crater has no effect.
    min_dot: f64,
    /// Metres of ground removed at the floor.
    depth_m: f64,
}

/// Crater profile constants (fractions of the radius and of the depth).
const RIM_WIDTH: f64 = 0.6;
const RIM_STEEPNESS: f64 = 0.4;
const CRATER_FLOOR: f64 = -0.6;
const CRATER_SMOOTH: f64 = 0.25;

impl Crater {
    /// Height change in metres at unit direction `p` (zero outside the rim's reach).
    #[inline]
    fn at(&self, p: DVec3) -> f64 {
        let dot = p.dot(self.centre);
        if dot < self.min_dot {
            return 0.0;
        }
        let d = (2.0 - 2.0 * dot).max(0.0).sqrt() / self.chord;
        let cavity = d * d - 1.0;
        let rim_x = (d - 1.0 - RIM_WIDTH).min(0.0);
        let rim = RIM_STEEPNESS * rim_x * rim_x;
        let shape = smooth_max(smooth_min(cavity, rim, CRATER_SMOOTH), CRATER_FLOOR, CRATER_SMOOTH);
        shape * (self.depth_m / -CRATER_FLOOR)
    }
}

fn craters(settings: &WorldSettings) -> Vec<Crater> {
    if !settings.craters || settings.crater_depth_m <= 0.0 {
        return Vec::new();
    }
    let mut rng = SplitMix64::new(settings.seed, 3);
    let (r_min, r_max) = (0.012_f64, 0.16_f64);
    let mut out: Vec<Crater> = (0..90)
        .map(|_| {
            let centre =
                sphere::unit(DVec3::new(rng.range(-1.0, 1.0), rng.range(-1.0, 1.0), rng.range(-1.0, 1.0)));
            // Many small craters, few large: radius log-uniform, skewed small.
            let u = rng.next_f64();
            let radius = r_min * libm::pow(r_max / r_min, u * u);
            let depth_m =
                settings.crater_depth_m * (0.35 + 0.65 * (radius / r_max).sqrt()) * rng.range(0.8, 1.0);
            let reach = (radius * (1.0 + RIM_WIDTH)).min(std::f64::consts::PI);
            Crater { centre, chord: 2.0 * libm::sin(radius / 2.0), min_dot: libm::cos(reach), depth_m }
        })
        .collect();
    // Largest first: a fixed order for the sum, independent of the draw.
    out.sort_by(|a, b| b.chord.total_cmp(&a.chord));
    out
}

/// The basin shaped at the world's lake location: a bowl inside a closed rim.
#[derive(Debug, Clone)]
struct LakeBasin {
    centre: DVec3,
    /// Chord length of the bowl's radius on the unit sphere.
    chord: f64,
    /// Pre-saturation metres: the rim crest and the bowl's centre.
    rim_pre: f64,
    floor_pre: f64,
}

/// Fractions of the bowl radius: rim crest band, and where the field returns to nature.
const LAKE_RIM_OUTER: f64 = 1.3;
const LAKE_BLEND_END: f64 = 1.8;

impl LakeBasin {
    fn new(settings: &WorldSettings, centre: DVec3, natural_pre: f64) -> Self {
        let relief = settings.relief_m;
        let radius_m = (0.08 * settings.radius_m).clamp(200.0, 1000.0);
        let angle = radius_m / settings.radius_m;
        // The water must stand clear of the sea (and its storm crests): at least 20 m above it.
        // The whole bowl stays above the sea, so only the basin's own spill can drain it.
        let clear_m = (0.05 * relief).min(20.0);
        let rim_m = (0.02 * relief).max(4.0);
        let depth_m = (0.04 * relief).max(6.0);
        let lowest_pre = to_pre(settings.sea_level_m + clear_m + depth_m, relief);
        let level_pre = natural_pre.min(0.5 * relief).max(lowest_pre);
        LakeBasin {
            centre,
            chord: 2.0 * libm::sin(angle / 2.0),
            rim_pre: level_pre + rim_m,
            floor_pre: level_pre - depth_m,
        }
    }

    /// Whether `p` is within the bowl or on the rim's crest band.
    fn contains(&self, p: DVec3) -> bool {
        (p - self.centre).length_squared() < (LAKE_RIM_OUTER * self.chord).powi(2)
    }

    /// The pre-saturation height at `p`, given the field's own value there.
    #[inline]
    fn shape(&self, p: DVec3, natural_pre: f64) -> f64 {
        let chord2 = (p - self.centre).length_squared();
        let d2 = chord2 / (self.chord * self.chord);
        if d2 >= LAKE_BLEND_END * LAKE_BLEND_END {
            return natural_pre;
        }
        if d2 < 1.0 {
            // The bowl: under the rim, deeper where the ground already was, never below its
            // floor (which stands clear of the sea).
            let bowl = self.rim_pre - (self.rim_pre - self.floor_pre) * (1.0 - d2);
            return natural_pre.min(bowl).max(self.floor_pre);
        }
        // The rim: a closed ring at least as high as the crest, higher ground kept.
        let rim = natural_pre.max(self.rim_pre);
        let t = smoothstep(LAKE_RIM_OUTER, LAKE_BLEND_END, d2.sqrt());
        rim + (natural_pre - rim) * t
    }
}

/// Maps pre-saturation metres to metres: smooth, monotone, strictly inside `±relief`.
#[inline]
fn saturate(pre: f64, relief: f64) -> f64 {
    relief * libm::tanh(pre / relief)
}

/// The inverse of [`saturate`], for levels that must land at a given final height.
fn to_pre(height: f64, relief: f64) -> f64 {
    let x = (height / relief).clamp(-0.999, 0.999);
    relief * libm::atanh(x)
}

/// The planet's ground field for one world, ready to evaluate anywhere.
#[derive(Debug, Clone)]
pub struct PlanetHeight {
    radius_m: f64,
    relief_m: f64,
    eroded: Option<ErodedField>,
    continental: Vec<Octave>,
    ridge: Vec<Octave>,
    mesa: Option<Octave>,
    /// Breaks ridge loops into chains with passes between them, so valleys connect.
    passes: Octave,
    craters: Vec<Crater>,
    lake: Option<LakeBasin>,
}

impl PlanetHeight {
    /// Builds the field graph for `settings` (its seed, shape and subsystem switches).
    pub fn new(settings: &WorldSettings) -> Self {
        let mut rng = SplitMix64::new(settings.seed, 1);
        let continental = octaves(&mut rng, 3, 1.15);
        let ridge = octaves(&mut rng, 6, 7.5);
        let mesa_octave = Octave::new(&mut rng, 2.9);
        let passes = Octave::new(&mut rng, 17.0);
        let mut planet = PlanetHeight {
            radius_m: settings.radius_m,
            relief_m: settings.relief_m,
            eroded: None,
            continental,
            ridge,
            mesa: settings.mesas.then_some(mesa_octave),
            passes,
            craters: craters(settings),
            lake: None,
        };
        if let Some(at) = settings.lake_at {
            let centre = sphere::direction(at.lat_deg, at.lon_deg);
            let natural = planet.pre_height(centre);
            planet.lake = Some(LakeBasin::new(settings, centre, natural));
        }
        planet
    }

    /// Radius of the datum sphere, metres.
    pub fn radius_m(&self) -> f64 {
        self.radius_m
    }

    /// Relief: the ground stays strictly within `±relief_m` of the datum.
    pub fn relief_m(&self) -> f64 {
        self.relief_m
    }

    /// Metres above the datum of the ground in direction `dir` (normalised first; a zero
    /// or non-finite vector reads as north).
    ///
    /// # Invariants
    /// `|height| < relief_m`; pure: the same direction always gives the same bits.
    pub fn height(&self, dir: DVec3) -> f64 {
        self.height_unit(sphere::unit(dir))
    }

    /// [`PlanetHeight::height`] for a direction already of unit length.
    #[inline]
    pub fn height_unit(&self, p: DVec3) -> f64 {
        self.worked(self.natural_unit(p), |field| field.at(p))
    }

    /// [`PlanetHeight::height_unit`] given the node of the world's lattice nearest to `p`
    /// (the lattice erosion was stored on): the same bits, one lattice search fewer.
    #[inline]
    pub(crate) fn height_unit_near(&self, p: DVec3, nearest: usize) -> f64 {
        self.worked(self.natural_unit(p), |field| field.at_from(p, nearest))
    }

    /// The ground whose natural part is `natural` metres, with the eroded field's `change`
    /// there added.
    #[inline]
    fn worked(&self, natural: f64, change: impl FnOnce(&ErodedField) -> f64) -> f64 {
        match &self.eroded {
            // The worked nodes stay within the natural range; the clamp holds the
            // invariant between nodes too.
            Some(field) => {
                let limit = self.relief_m * (1.0 - 1e-12);
                (field.natural_share() * natural + change(field)).clamp(-limit, limit)
            }
            None => natural,
        }
    }

    /// The ground before erosion and sediment at unit direction `p`, metres above the datum.
    #[inline]
    pub fn natural_unit(&self, p: DVec3) -> f64 {
        let natural = self.pre_height(p);
        let pre = match &self.lake {
            Some(lake) => lake.shape(p, natural),
            None => natural,
        };
        saturate(pre, self.relief_m)
    }

    /// This ground with `field` (what erosion and sediment did on a lattice) added.
    pub fn with_erosion(mut self, field: ErodedField) -> Self {
        self.eroded = Some(field);
        self
    }

    /// Whether unit direction `p` lies in the basin shaped for the world's lake (its bowl and
    /// rim): ground that erosion leaves as it is.
    pub fn in_lake_basin(&self, p: DVec3) -> bool {
        self.lake.as_ref().is_some_and(|lake| lake.contains(p))
    }

    /// The point on the ground in direction `dir`, in metres from the planet's centre.
    pub fn surface_point(&self, dir: DVec3) -> DVec3 {
        let p = sphere::unit(dir);
        p * (self.radius_m + self.height_unit(p))
    }

    /// Heights for many directions, evaluated in parallel; the same bytes with any thread count.
    pub fn heights(&self, dirs: &[DVec3]) -> Vec<f64> {
        dirs.par_iter().map(|&d| self.height(d)).collect()
    }

    /// The ground at every node of the lattice its erosion is stored on, given `natural`,
    /// the natural ground there (what this field without its erosion gives at each node's
    /// position, metres): the bytes of [`PlanetHeight::heights`] at the nodes' positions,
    /// without evaluating the natural field again or searching the lattice for each node.
    /// Without erosion, `natural` itself.
    ///
    /// # Panics
    /// If `natural` does not hold one height per node.
    pub fn heights_at_nodes(&self, natural: &[f64]) -> Vec<f64> {
        let Some(field) = &self.eroded else { return natural.to_vec() };
        let lattice = field.lattice();
        assert_eq!(natural.len(), lattice.positions().len(), "one natural height per node");
        lattice
            .positions()
            .par_iter()
            .zip(natural)
            .enumerate()
            .map(|(i, (&d, &natural))| {
                // The node is nearest its own position, however normalising rounds it.
                let p = sphere::unit(d);
                let nearest = lattice.nearest_node_from(p, i).index();
                self.worked(natural, |field| field.at_from(p, nearest))
            })
            .collect()
    }

    /// Height before the lake basin and the saturation, metres (may exceed the relief).
    fn pre_height(&self, p: DVec3) -> f64 {
        let relief = self.relief_m;
        let mut c = 0.0;
        let mut amp = 1.0;
        each_octave(&self.continental, p, |n| {
            c += amp * n;
            amp *= 0.5;
        });
        let c = c * 1.1;
        let land = smoothstep(-0.1, 0.3, c);
        let base = relief * (-0.55 + 0.5 * land + 0.25 * c);
        let mut pre = base;
        // Mountains stand only where the continental field allows high ground.
        if land > 0.0 {
            // Ridges alone would close every valley into a basin: passes break them into chains.
            let (passes, mesa) = match &self.mesa {
                Some(mesa) => {
                    let [passes, mesa] = self.passes.at_pair(mesa, p);
                    (passes, Some(mesa))
                }
                None => (self.passes.at(p), None),
            };
            let mut ridge = self.ridge(p) * smoothstep(-0.1, 0.25, passes);
            if let Some(mesa) = mesa {
                let mask = smoothstep(0.12, 0.3, mesa);
                if mask > 0.0 {
                    ridge += mask * (mesa_profile(ridge) - ridge);
                }
            }
            pre += relief * 1.3 * land * land * ridge;
        }
        for crater in &self.craters {
            pre += crater.at(p);
        }
        pre
    }

    /// The ridge field in 0..=1: cubed `(1 - |n|)` octaves.
    #[inline]
    fn ridge(&self, p: DVec3) -> f64 {
        let mut sum = 0.0;
        let mut norm = 0.0;
        let mut amp = 1.0;
        each_octave(&self.ridge, p, |n| {
            // Stretched so creases are narrow and most ground lies between them.
            let s = 1.0 - (1.6 * n.abs()).min(1.0);
            let s = s * s * s;
            sum += amp * s;
            norm += amp;
            amp *= 0.5;
        });
        sum / norm
    }
}

/// Plateau with cliff bands: ridges lifted, terraced into treads and steep risers, capped flat.
#[inline]
fn mesa_profile(ridge: f64) -> f64 {
    const BANDS: f64 = 3.0;
    let x = (ridge * 1.8).min(0.8);
    let t = x * BANDS;
    let step = t.floor();
    (step + smoothstep(0.55, 0.95, t - step)) / BANDS
}

/// Polynomial smooth minimum with blend width `k`.
#[inline]
fn smooth_min(a: f64, b: f64, k: f64) -> f64 {
    let h = ((b - a + k) / (2.0 * k)).clamp(0.0, 1.0);
    a * h + b * (1.0 - h) - k * h * (1.0 - h)
}

/// Polynomial smooth maximum with blend width `k`.
#[inline]
fn smooth_max(a: f64, b: f64, k: f64) -> f64 {
    -smooth_min(-a, -b, k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mesa_profile_never_falls() {
        let mut last = mesa_profile(0.0);
        for i in 1..=1000 {
            let v = mesa_profile(i as f64 / 1000.0);
            assert!(v >= last, "mesa profile falls at {i}");
            last = v;
        }
        // Capped: the top is a flat plateau.
        assert_eq!(mesa_profile(0.9), mesa_profile(1.0));
    }

    #[test]
    fn saturation_round_trips() {
        for h in [-500.0, -90.0, 0.0, 12.5, 450.0] {
            assert!((saturate(to_pre(h, 600.0), 600.0) - h).abs() < 1e-9);
        }
    }

    #[test]
    fn smooth_min_and_max_bound_their_inputs() {
        for (a, b) in [(0.0, 1.0), (-0.3, -0.2), (2.0, -2.0)] {
            assert!(smooth_min(a, b, 0.25) <= a.min(b) + 1e-12);
            assert!(smooth_max(a, b, 0.25) >= a.max(b) - 1e-12);
        }
    }
}
