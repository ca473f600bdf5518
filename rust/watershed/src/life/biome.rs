//! Biomes: what covers the ground, from its temperature, moisture, slope and height above
//! the sea. One rule for the lattice's nodes (the report, sites, scatter) and for any
//! point a picture or a mesh colours.

use crate::drainage::NodeKind;
use crate::ground::topology::Topology;
use crate::life::climate::{temperature_c, Climate};
use crate::life::sites::footprint_slope_deg;
use crate::math::sphere;
use crate::settings::WorldSettings;
use crate::water::world::World;
use glam::DVec3;
use rayon::prelude::*;

/// What covers a piece of dry ground.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Biome {
    /// Sand by the sea.
    Beach = 0,
    /// Open grass and scrub.
    Grassland = 1,
    /// Trees.
    Forest = 2,
    /// Waterlogged flats: reeds and bog.
    Wetland = 3,
    /// Bare rock on slopes too steep to hold soil.
    Rock = 4,
    /// Cold heights above the trees: short grass and stone.
    Alpine = 5,
    /// Snow and ice: the ground below freezing.
    Snow = 6,
    /// Hot and dry: sand and stone.
    Desert = 7,
    /// Cold lowland: moss and dwarf shrubs.
    Tundra = 8,
}

/// Every biome, in the order of their numbers.
pub const BIOMES: [Biome; 9] = [
    Biome::Beach,
    Biome::Grassland,
    Biome::Forest,
    Biome::Wetland,
    Biome::Rock,
    Biome::Alpine,
    Biome::Snow,
    Biome::Desert,
    Biome::Tundra,
];

/// Below this temperature the ground is snow, °C.
pub const SNOW_C: f64 = 0.0;
/// Below this temperature no trees grow and open ground is tundra or alpine, °C.
pub const TREE_LINE_C: f64 = 5.0;
/// Moisture from which trees grow.
pub const FOREST_MOISTURE: f64 = 0.5;
/// Moisture from which flat ground is wetland.
pub const WETLAND_MOISTURE: f64 = 0.9;
/// The steepest ground that can be wetland, degrees.
pub const WETLAND_SLOPE_DEG: f64 = 4.0;
/// Moisture under which warm ground is desert.
pub const DESERT_MOISTURE: f64 = 0.25;
/// The coolest desert, °C.
pub const DESERT_C: f64 = 12.0;
/// The steepest beach, degrees.
pub const BEACH_SLOPE_DEG: f64 = 12.0;

/// What the biome rule reads at one point of dry ground.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Conditions {
    /// Temperature, °C.
    pub temperature_c: f64,
    /// Moisture, 0..=1.
    pub moisture: f64,
    /// Slope of the ground, degrees.
    pub slope_deg: f64,
    /// Height above the sea surface, metres (`None` on a world without a sea).
    pub above_sea_m: Option<f64>,
    /// [`altitude`]: height above the shore as a share of the land's span, 0..=1.
    pub altitude: f64,
}

/// How high `height_m` (metres above the datum) stands between the shore (the sea level,
/// or `-relief_m` on a world without a sea) and `relief_m` above the datum, 0..=1.
pub fn altitude(settings: &WorldSettings, height_m: f64) -> f64 {
    let shore = if settings.sea { settings.sea_level_m } else { -settings.relief_m };
    ((height_m - shore) / (settings.relief_m - shore).max(1.0)).clamp(0.0, 1.0)
}

/// The height band above the sea that is beach, metres.
pub fn beach_band_m(settings: &WorldSettings) -> f64 {
    (0.015 * settings.relief_m).max(3.0)
}

impl Biome {
    /// The biome of dry ground under `c` on `settings`' world: cliffs are rock, frozen
    /// ground snow, cold ground alpine (high) or tundra (low), the sea's fringe beach, then
    /// by moisture wetland, forest, grassland or (warm and dry) desert.
    pub fn of(settings: &WorldSettings, c: &Conditions) -> Biome {
        if c.slope_deg >= settings.look.cliff_slope_deg {
            Biome::Rock
        } else if c.temperature_c < SNOW_C {
            Biome::Snow
        } else if c.temperature_c < TREE_LINE_C {
            if c.altitude > 0.5 {
                Biome::Alpine
            } else {
                Biome::Tundra
            }
        } else if c.above_sea_m.is_some_and(|a| a < beach_band_m(settings)) && c.slope_deg < BEACH_SLOPE_DEG {
            Biome::Beach
        } else if c.moisture >= WETLAND_MOISTURE && c.slope_deg < WETLAND_SLOPE_DEG {
            Biome::Wetland
        } else if c.moisture >= FOREST_MOISTURE {
            Biome::Forest
        } else if c.moisture < DESERT_MOISTURE && c.temperature_c >= DESERT_C {
            Biome::Desert
        } else {
            Biome::Grassland
        }
    }

    /// The biome named `name` ([`Biome::name`]), if any.
    pub fn from_name(name: &str) -> Option<Biome> {
        BIOMES.into_iter().find(|b| b.name() == name)
    }

    /// The biome's name as the report and the Godot status line write it (`"forest"`).
    pub fn name(self) -> &'static str {
        match self {
            Biome::Beach => "beach",
            Biome::Grassland => "grassland",
            Biome::Forest => "forest",
            Biome::Wetland => "wetland",
            Biome::Rock => "rock",
            Biome::Alpine => "alpine",
            Biome::Snow => "snow",
            Biome::Desert => "desert",
            Biome::Tundra => "tundra",
        }
    }

    /// The biome map's colour for it, 8-bit sRGB.
    pub fn legend_rgb(self) -> [u8; 3] {
        match self {
            Biome::Beach => [0xe6, 0xd3, 0x8c],
            Biome::Grassland => [0x8d, 0xbf, 0x5a],
            Biome::Forest => [0x2e, 0x6b, 0x2e],
            Biome::Wetland => [0x4f, 0x8a, 0x7b],
            Biome::Rock => [0x80, 0x76, 0x6c],
            Biome::Alpine => [0xb0, 0xa8, 0x8e],
            Biome::Snow => [0xf4, 0xf6, 0xfa],
            Biome::Desert => [0xd9, 0xa4, 0x5f],
            Biome::Tundra => [0x9c, 0xa8, 0x86],
        }
    }
}

/// What the biome rule reads at direction `dir` of `world` under `climate`, where the
/// ground stands `height_m` above the datum on a slope of `slope_deg`.
pub fn conditions_at(
    world: &World,
    climate: &Climate,
    dir: DVec3,
    height_m: f64,
    slope_deg: f64,
) -> Conditions {
    let settings = &world.terrain.settings;
    let (lat, _) = sphere::lat_lon_rad(dir);
    Conditions {
        temperature_c: temperature_c(settings, height_m, lat),
        moisture: climate.moisture_at(&world.terrain.lattice, dir),
        slope_deg,
        above_sea_m: settings.sea.then_some(height_m - settings.sea_level_m),
        altitude: altitude(settings, height_m),
    }
}

/// Metres between the points the slope under a point is read from.
const SLOPE_SPAN_M: f64 = 2.0;

/// The biome at direction `dir` of `world` under `climate`, on the carved ground and its
/// slope over a couple of metres; `None` where water stands.
pub fn biome_at(world: &World, climate: &Climate, dir: DVec3) -> Option<Biome> {
    biome_and_slope_at(world, climate, dir).map(|(biome, _, _)| biome)
}

/// [`biome_at`], with the ground height there (metres above the datum) and its slope
/// (degrees).
pub(crate) fn biome_and_slope_at(world: &World, climate: &Climate, dir: DVec3) -> Option<(Biome, f64, f64)> {
    let up = sphere::unit(dir);
    if world.water().at(up).is_some() {
        return None;
    }
    let (east, north) = sphere::east_north(up);
    let step = SLOPE_SPAN_M / world.terrain.settings.radius_m;
    let h = world.terrain.ground(up);
    let gx = (world.terrain.ground(sphere::unit(up + east * step)) - h) / SLOPE_SPAN_M;
    let gy = (world.terrain.ground(sphere::unit(up + north * step)) - h) / SLOPE_SPAN_M;
    let slope_deg = libm::atan(gx.hypot(gy)).to_degrees();
    Some((Biome::of(&world.terrain.settings, &conditions_at(world, climate, up, h, slope_deg)), h, slope_deg))
}

/// The biome of every dry lattice node of a world (`None` under the sea and lakes and on
/// river nodes: their cover is water).
#[derive(Debug, Clone, PartialEq)]
pub struct Biomes {
    /// Each node's biome, `None` on water.
    pub node: Vec<Option<Biome>>,
    /// Each dry node's slope across its neighbours, degrees; 0 on water, where no one walks.
    pub slope_deg: Vec<f64>,
}

impl Biomes {
    /// The biomes of `world`'s nodes under `climate`.
    pub fn of(world: &World, climate: &Climate) -> Self {
        let settings = &world.terrain.settings;
        let lattice = &*world.terrain.lattice;
        let heights = &world.terrain.heights;
        let dry = |i: usize| world.terrain.drainage.kind[i] == NodeKind::Land;
        let slope_deg: Vec<f64> = (0..lattice.len())
            .into_par_iter()
            .map(|i| if dry(i) { node_slope_deg(lattice, heights, i) } else { 0.0 })
            .collect();
        let node = (0..lattice.len())
            .into_par_iter()
            .map(|i| {
                if !dry(i) {
                    return None;
                }
                let c = Conditions {
                    temperature_c: climate.temperature_c[i],
                    moisture: climate.moisture[i],
                    slope_deg: slope_deg[i],
                    above_sea_m: settings.sea.then_some(heights[i] - settings.sea_level_m),
                    altitude: altitude(settings, heights[i]),
                };
                Some(Biome::of(settings, &c))
            })
            .collect();
        Biomes { node, slope_deg }
    }

    /// The node of `biome` nearest `dir` (ties: the lower index) on which a walker stands in
    /// that biome: dry, its slope across a 3 m footprint under `max_slope_deg`, and
    /// [`biome_at`] under `climate` there agreeing; `None` when no node of that biome is.
    pub fn nearest(
        &self,
        world: &World,
        climate: &Climate,
        biome: Biome,
        dir: DVec3,
        max_slope_deg: f64,
    ) -> Option<usize> {
        let positions = world.terrain.lattice.positions();
        let mut of_biome: Vec<(f64, usize)> = (0..self.node.len())
            .filter(|&i| self.node[i] == Some(biome) && self.slope_deg[i] < 2.0 * max_slope_deg)
            .map(|i| ((positions[i] - dir).length_squared(), i))
            .collect();
        of_biome.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        of_biome.into_iter().map(|(_, i)| i).find(|&i| {
            footprint_slope_deg(world, positions[i], 3.0).is_some_and(|s| s < max_slope_deg)
                && biome_at(world, climate, positions[i]) == Some(biome)
        })
    }

    /// The share of the dry nodes each biome covers, in [`BIOMES`] order (all zero when
    /// no node is dry).
    pub fn fractions(&self) -> [f64; 9] {
        let mut counts = [0usize; 9];
        for b in self.node.iter().flatten() {
            counts[*b as usize] += 1;
        }
        let dry = counts.iter().sum::<usize>().max(1) as f64;
        counts.map(|c| c as f64 / dry)
    }
}

/// The slope at node `i`, degrees: the mean steepness to its neighbours, scaled so a plane
/// reads its own slope (the mean of |cos| over directions is 2/π).
pub fn node_slope_deg<T: Topology>(topo: &T, heights: &[f64], i: usize) -> f64 {
    let (mut sum, mut k) = (0.0, 0usize);
    for j in topo.neighbors(i) {
        sum += (heights[j] - heights[i]).abs() / topo.distance_m(i, j);
        k += 1;
    }
    libm::atan(std::f64::consts::FRAC_PI_2 * sum / k.max(1) as f64).to_degrees()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::grid::Grid;
    use crate::testkit;

    fn mild() -> Conditions {
        Conditions {
            temperature_c: 15.0,
            moisture: 0.4,
            slope_deg: 5.0,
            above_sea_m: Some(50.0),
            altitude: 0.2,
        }
    }

    #[test]
    fn each_rule_picks_its_biome() {
        let w = testkit::world("home");
        let of = |c: Conditions| Biome::of(&w, &c);
        assert_eq!(of(mild()), Biome::Grassland);
        assert_eq!(of(Conditions { slope_deg: w.look.cliff_slope_deg, ..mild() }), Biome::Rock);
        assert_eq!(of(Conditions { temperature_c: -3.0, ..mild() }), Biome::Snow);
        assert_eq!(of(Conditions { temperature_c: 2.0, altitude: 0.8, ..mild() }), Biome::Alpine);
        assert_eq!(of(Conditions { temperature_c: 2.0, ..mild() }), Biome::Tundra);
        assert_eq!(of(Conditions { above_sea_m: Some(1.0), ..mild() }), Biome::Beach);
        assert_eq!(of(Conditions { above_sea_m: None, ..mild() }), Biome::Grassland);
        assert_eq!(of(Conditions { moisture: 0.95, slope_deg: 1.0, ..mild() }), Biome::Wetland);
        assert_eq!(of(Conditions { moisture: 0.95, ..mild() }), Biome::Forest);
        assert_eq!(of(Conditions { moisture: 0.1, temperature_c: 25.0, ..mild() }), Biome::Desert);
        assert_eq!(of(Conditions { moisture: 0.1, temperature_c: 8.0, ..mild() }), Biome::Grassland);
        let cliff_snow = Conditions { temperature_c: -10.0, slope_deg: 60.0, ..mild() };
        assert_eq!(of(cliff_snow), Biome::Rock, "snow does not hold on cliffs");
    }

    #[test]
    fn a_plane_reads_its_own_slope() {
        let grid = Grid { width: 3, height: 3, cell_m: 1.0 };
        let flat = node_slope_deg(&grid, &[0.0; 9], 4);
        assert_eq!(flat, 0.0);
        let tilted: Vec<f64> = (0..9).map(|i| (i % 3) as f64).collect();
        let slope = node_slope_deg(&grid, &tilted, 4);
        assert!((slope - 45.0).abs() < 6.0, "{slope}");
    }

    #[test]
    fn names_and_legend_colours_are_distinct() {
        for (k, a) in BIOMES.iter().enumerate() {
            assert_eq!(*a as usize, k);
            for b in &BIOMES[k + 1..] {
                assert_ne!(a.name(), b.name());
                assert_ne!(a.legend_rgb(), b.legend_rgb());
            }
        }
    }

    #[test]
    fn water_has_no_biome_and_the_fractions_sum_to_one() {
        let world = World::build(&testkit::world(testkit::QUICK_WORLD));
        let biomes = Biomes::of(&world, &Climate::of(&world));
        for (i, b) in biomes.node.iter().enumerate() {
            assert_eq!(b.is_some(), world.terrain.drainage.kind[i] == NodeKind::Land, "node {i}");
        }
        let climate = Climate::of(&world);
        for (i, &p) in world.terrain.lattice.positions().iter().enumerate().step_by(97) {
            let at = biome_at(&world, &climate, p);
            assert_eq!(at.is_none(), world.water().at(p).is_some(), "node {i}");
            if world.terrain.drainage.kind[i] == NodeKind::Sea {
                assert_eq!(at, None, "no biome under the sea");
            }
        }
        let total: f64 = biomes.fractions().iter().sum();
        for biome in BIOMES {
            assert_eq!(Biome::from_name(biome.name()), Some(biome));
            if let Some(i) =
                biomes.nearest(&world, &climate, biome, world.terrain.lattice.positions()[0], 25.0)
            {
                assert_eq!(biomes.node[i], Some(biome));
                let p = world.terrain.lattice.positions()[i];
                assert!(footprint_slope_deg(&world, p, 3.0).is_some_and(|s| s < 25.0));
            }
        }
        assert!(biomes
            .nearest(&world, &climate, Biome::Forest, world.terrain.lattice.positions()[0], 25.0)
            .is_some());
        assert_eq!(Biome::from_name("jungle"), None);
        assert!((total - 1.0).abs() < 1e-12, "{total}");
    }
}
