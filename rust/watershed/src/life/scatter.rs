//! Trees of three kinds and rocks, scattered per chunk of the cube-sphere: one candidate in each cell of a
//! fixed grid on every cube face, jittered inside its cell (blue-noise-like: no two closer
//! than a third of a cell), kept by the biome's density and never in water, on slopes too
//! steep or in a village's clearing. Each cell draws from its own seed (the world seed and
//! the cell), so a chunk holds the same instances whichever chunks are asked for, in any
//! order, on any thread or peer.

use crate::life::biome::{biome_and_slope_at, Biome};
use crate::life::climate::Climate;
use crate::life::sites::Sites;
use crate::math::cube::{cube_to_sphere, ChunkKey};
use crate::math::rng::SplitMix64;
use crate::math::sphere;
use crate::water::world::World;
use glam::DVec3;

/// What is scattered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum ScatterKind {
    /// A conifer: a tall, narrow evergreen.
    Conifer = 0,
    /// A rock.
    Rock = 1,
    /// A broadleaf tree: a round crown on a trunk.
    Broadleaf = 2,
    /// A shrub: a low bush.
    Shrub = 3,
}

impl ScatterKind {
    /// The tree kinds, in the order [`tree_mix`] gives their shares.
    pub const TREES: [ScatterKind; 3] = [ScatterKind::Conifer, ScatterKind::Broadleaf, ScatterKind::Shrub];

    /// Whether this is a tree (of any kind), not a rock.
    pub fn is_tree(self) -> bool {
        self != ScatterKind::Rock
    }
}

/// One scattered thing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Instance {
    /// What it is.
    pub kind: ScatterKind,
    /// Unit direction of its foot.
    pub dir: DVec3,
    /// Ground height at its foot, metres above the datum.
    pub height_m: f64,
    /// Size relative to the mesh's own, 0.7..1.3.
    pub scale: f64,
    /// Turn about the local up axis, radians, 0..2π.
    pub yaw_rad: f64,
}

impl Instance {
    /// The thing's local axes, scaled: x and z along the ground (x turned `yaw_rad` from east
    /// towards north), y the local up; a right-handed frame, as an engine's basis columns.
    pub fn axes(&self) -> [DVec3; 3] {
        let up = self.dir;
        let (east, north) = sphere::east_north(up);
        let x = east * libm::cos(self.yaw_rad) + north * libm::sin(self.yaw_rad);
        let z = x.cross(up);
        [x * self.scale, up * self.scale, z * self.scale]
    }
}

/// How densely and where things are scattered. Lengths in metres, angles in degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ScatterRules {
    /// Side of a scatter cell along the ground (at most one thing per cell).
    pub spacing_m: f64,
    /// The steepest ground a tree grows on.
    pub tree_slope_deg: f64,
    /// The steepest ground a rock rests on.
    pub rock_slope_deg: f64,
    /// Radius around the village and each hamlet kept clear.
    pub clearing_m: f64,
}

impl Default for ScatterRules {
    fn default() -> Self {
        ScatterRules { spacing_m: 6.0, tree_slope_deg: 30.0, rock_slope_deg: 45.0, clearing_m: 60.0 }
    }
}

/// The chance a cell holds a tree and the chance it holds a rock in `biome`.
pub fn density(biome: Biome) -> (f64, f64) {
    match biome {
        Biome::Forest => (0.75, 0.02),
        Biome::Grassland => (0.06, 0.03),
        Biome::Wetland => (0.15, 0.0),
        Biome::Tundra => (0.01, 0.12),
        Biome::Alpine => (0.01, 0.25),
        Biome::Rock => (0.0, 0.3),
        Biome::Desert => (0.005, 0.08),
        Biome::Snow => (0.0, 0.04),
        Biome::Beach => (0.0, 0.01),
    }
}

/// How a biome's trees divide among [`ScatterKind::TREES`] (conifer, broadleaf, shrub),
/// shares summing to 1: evergreens where it is cold, broadleaves in the temperate
/// lowlands, shrubs where trees struggle (wet, dry or exposed ground).
pub fn tree_mix(biome: Biome) -> [f64; 3] {
    match biome {
        Biome::Forest => [0.55, 0.4, 0.05],
        Biome::Grassland => [0.1, 0.5, 0.4],
        Biome::Wetland => [0.0, 0.3, 0.7],
        Biome::Tundra => [0.3, 0.0, 0.7],
        Biome::Alpine => [0.6, 0.0, 0.4],
        Biome::Desert => [0.0, 0.0, 1.0],
        Biome::Rock | Biome::Snow | Biome::Beach => [1.0, 0.0, 0.0],
    }
}

/// The tree kind a `pick` (uniform in 0..1) chooses from the `mix` of [`tree_mix`].
fn tree_kind(mix: [f64; 3], pick: f64) -> ScatterKind {
    let mut below = 0.0;
    for (kind, share) in ScatterKind::TREES.into_iter().zip(mix) {
        below += share;
        if pick < below {
            return kind;
        }
    }
    ScatterKind::Shrub
}

/// A world's scatter: what each chunk holds.
pub struct Scatter<'a> {
    world: &'a World,
    climate: &'a Climate,
    clearings: Vec<DVec3>,
    rules: ScatterRules,
    /// Cells along each cube face's edge.
    cells: u32,
}

impl<'a> Scatter<'a> {
    /// The scatter of `world` under `climate`, clear of `sites`' village and hamlets.
    pub fn new(world: &'a World, climate: &'a Climate, sites: &Sites, rules: ScatterRules) -> Self {
        let clearings = sites.village.iter().chain(&sites.hamlets).map(|s| s.dir).collect();
        let face_m = world.terrain.settings.radius_m * std::f64::consts::FRAC_PI_2;
        let cells = (face_m / rules.spacing_m.max(0.1)).ceil().clamp(1.0, f64::from(1u32 << 24)) as u32;
        Scatter { world, climate, clearings, rules, cells }
    }

    /// Cells along each cube face's edge.
    pub fn cells_per_face(&self) -> u32 {
        self.cells
    }

    /// Everything in chunk `key`, cell by cell (rows, then columns).
    pub fn chunk(&self, key: ChunkKey) -> Vec<Instance> {
        let (cols, rows) = (self.span(key.x, key.level), self.span(key.y, key.level));
        let mut out = Vec::new();
        for j in rows {
            for i in cols.clone() {
                out.extend(self.cell(key.face, i, j));
            }
        }
        out
    }

    /// The cells `first..end` along a face edge that chunk column (or row) `at` of a level
    /// covers.
    fn span(&self, at: u32, level: u8) -> std::ops::Range<u32> {
        let per = u64::from(self.cells);
        let n = 1u64 << level.min(31);
        let edge = |k: u64| ((k * per).div_ceil(n)).min(per) as u32;
        edge(u64::from(at))..edge(u64::from(at) + 1)
    }

    /// What cell `(i, j)` of `face` holds, if anything.
    fn cell(&self, face: u8, i: u32, j: u32) -> Option<Instance> {
        let stream = (u64::from(face) << 56) ^ (u64::from(i) << 28) ^ u64::from(j);
        let mut rng = SplitMix64::new(self.world.terrain.settings.seed, stream);
        let n = f64::from(self.cells);
        let u = -1.0 + 2.0 * (f64::from(i) + rng.range(0.15, 0.85)) / n;
        let v = -1.0 + 2.0 * (f64::from(j) + rng.range(0.15, 0.85)) / n;
        let roll = rng.next_f64();
        let scale = rng.range(0.7, 1.3);
        let yaw_rad = rng.range(0.0, std::f64::consts::TAU);
        let pick = rng.next_f64();
        let dir = cube_to_sphere(face, u, v);
        let (biome, height_m, slope_deg) = biome_and_slope_at(self.world, self.climate, dir)?;
        let (tree, rock) = density(biome);
        let kind = if roll < tree && slope_deg <= self.rules.tree_slope_deg {
            tree_kind(tree_mix(biome), pick)
        } else if roll >= tree && roll < tree + rock && slope_deg <= self.rules.rock_slope_deg {
            ScatterKind::Rock
        } else {
            return None;
        };
        let radius = self.world.terrain.settings.radius_m;
        if self.clearings.iter().any(|&c| (c - dir).length() * radius < self.rules.clearing_m) {
            return None;
        }
        Some(Instance { kind, dir, height_m, scale, yaw_rad })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::life::sites::SiteRules;
    use crate::math::cube::select_chunks;
    use crate::testkit;

    #[test]
    fn chunks_tile_the_cells_and_hold_the_same_things_at_any_level() {
        let world = testkit::built(testkit::QUICK_WORLD);
        let climate = Climate::of(world);
        let sites = Sites::of(world, &SiteRules::default());
        let scatter = Scatter::new(
            world,
            &climate,
            &sites,
            ScatterRules { spacing_m: 20.0, ..ScatterRules::default() },
        );
        let parent = ChunkKey { face: 4, level: 3, x: 3, y: 5 };
        let whole = scatter.chunk(parent);
        let mut parts: Vec<Instance> = parent.children().iter().flat_map(|&c| scatter.chunk(c)).collect();
        let key = |a: &Instance| (a.dir.x.to_bits(), a.dir.y.to_bits(), a.dir.z.to_bits());
        let mut sorted = whole.clone();
        sorted.sort_by_key(key);
        parts.sort_by_key(key);
        assert_eq!(sorted, parts, "the children hold exactly the parent's things");
        let cells: u32 = (0..8).map(|x| scatter.span(x, 3).len() as u32).sum();
        assert_eq!(cells, scatter.cells_per_face(), "the spans tile the face edge");
    }

    #[test]
    fn each_biome_divides_its_trees_by_its_mix() {
        for biome in crate::life::biome::BIOMES {
            let mix = tree_mix(biome);
            assert!((mix.iter().sum::<f64>() - 1.0).abs() < 1e-12, "{biome:?}: {mix:?}");
            let mut counts = [0usize; 3];
            for k in 0..1000 {
                let kind = tree_kind(mix, (f64::from(k) + 0.5) / 1000.0);
                counts[ScatterKind::TREES.iter().position(|&t| t == kind).expect("a tree")] += 1;
            }
            for (count, share) in counts.iter().zip(mix) {
                assert!((*count as f64 / 1000.0 - share).abs() <= 0.001, "{biome:?}: {counts:?} for {mix:?}");
            }
        }
        assert_eq!(tree_mix(Biome::Desert), [0.0, 0.0, 1.0], "only shrubs in the desert");
    }

    #[test]
    fn nothing_stands_in_water_on_a_cliff_or_in_a_clearing() {
        let world = testkit::built(testkit::QUICK_WORLD);
        let climate = Climate::of(world);
        let sites = Sites::of(world, &SiteRules::default());
        let rules = ScatterRules { spacing_m: 8.0, ..ScatterRules::default() };
        let scatter = Scatter::new(world, &climate, &sites, rules);
        let village = sites.village.expect("the quick world has a village");
        let around = village.dir * world.terrain.settings.radius_m;
        let mut seen = [0usize; 4];
        for key in select_chunks(world.terrain.settings.radius_m, around, 1.5, 7) {
            if (key.centre() - village.dir).length() * world.terrain.settings.radius_m > 600.0 {
                continue;
            }
            for thing in scatter.chunk(key) {
                seen[thing.kind as usize] += 1;
                assert!(world.water().at(thing.dir).is_none(), "never in water");
                let (_, h, slope) = biome_and_slope_at(world, &climate, thing.dir).expect("dry");
                assert_eq!(h, thing.height_m);
                let limit = if thing.kind.is_tree() { rules.tree_slope_deg } else { rules.rock_slope_deg };
                assert!(slope <= limit, "{slope}° under a {:?}", thing.kind);
                assert!(
                    (thing.dir - village.dir).length() * world.terrain.settings.radius_m >= rules.clearing_m
                );
                assert!((0.7..1.3).contains(&thing.scale));
                let [x, y, z] = thing.axes();
                assert!((x.cross(y).dot(z) - thing.scale.powi(3)).abs() < 1e-9, "right-handed");
                assert!((y / thing.scale - thing.dir).length() < 1e-12, "up is up");
            }
        }
        assert!(seen[0] > 0 && seen[1] > 0, "conifers and rocks near the village: {seen:?}");
        assert!(seen[2] + seen[3] > 0, "more than one kind of tree near the village: {seen:?}");
    }
}
