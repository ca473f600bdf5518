//! Where people live on a solved world: the village on flat, dry ground a short walk from a
//! river or lake and above its flood level, hamlets at the next best sites, a mill on a
//! reach with enough flow beside the village, and the spawn on land near the coast within
//! sight of the village.

use crate::drainage::NodeKind;
use crate::ground::lattice::FibonacciLattice;
use crate::ground::surface::PlanetSurface;
use crate::ground::topology::Topology;
use crate::life::biome::node_slope_deg;
use crate::life::distance::{cheapest_sources_from, Cheapest, Starts, NO_SOURCE, WALKED_NODES};
use crate::math::rings::Rings;
use crate::math::sphere;
use crate::water::levels::Body;
use crate::water::view::WaterView;
use crate::water::world::World;
use glam::DVec3;
use rayon::prelude::*;
use std::collections::HashMap;

/// What makes a good site. Lengths in metres, angles in degrees.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SiteRules {
    /// The steepest ground a village stands on.
    pub max_slope_deg: f64,
    /// How far the village's ground stands above the nearest water's level, at least.
    pub flood_margin_m: f64,
    /// The longest walk (along the lattice) from the village to a river or lake.
    pub walk_m: f64,
    /// The nearest a village comes to a waterfall.
    pub fall_clearance_m: f64,
    /// Radius of a village's footprint, checked for slope and water.
    pub footprint_m: f64,
    /// The nearest two sites come to each other.
    pub spacing_m: f64,
    /// How many sites (the village and its hamlets) to keep.
    pub count: usize,
    /// The least discharge that turns a mill wheel, m³/s.
    pub mill_discharge_m3_s: f64,
    /// The steepest ground the spawn stands on.
    pub spawn_slope_deg: f64,
    /// The furthest the spawn may be from the village and still see it.
    pub sight_m: f64,
    /// The steepest ground a walker crosses; land steeper than this is impassable.
    pub walkable_slope_deg: f64,
}

impl Default for SiteRules {
    fn default() -> Self {
        SiteRules {
            max_slope_deg: 8.0,
            flood_margin_m: 2.0,
            walk_m: 400.0,
            fall_clearance_m: 150.0,
            footprint_m: 30.0,
            spacing_m: 800.0,
            count: 6,
            mill_discharge_m3_s: 0.5,
            spawn_slope_deg: 20.0,
            sight_m: 2000.0,
            walkable_slope_deg: 35.0,
        }
    }
}

/// One place to settle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Site {
    /// The lattice node it stands on.
    pub node: u32,
    /// Unit direction of its centre.
    pub dir: DVec3,
    /// Ground height at the centre, metres above the datum.
    pub height_m: f64,
    /// How good it is, 0..=1: flat (30%), close to its river or lake (20%), beside a big
    /// river or a lake (20%), near the coast, where the spawn must see it from (30%, falling
    /// off as `exp(-walk / COAST_REACH_M)`).
    pub score: f64,
    /// Steepest slope across the footprint, degrees.
    pub slope_deg: f64,
    /// Walk to the nearest river or lake, metres.
    pub walk_to_water_m: f64,
    /// Height above that water's level, metres.
    pub above_water_m: f64,
}

/// Where the player starts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spawn {
    /// Unit direction.
    pub dir: DVec3,
    /// Ground height, metres above the datum.
    pub height_m: f64,
    /// Walk to the sea (or, on a world without one, to any water), metres.
    pub to_coast_m: f64,
    /// Straight distance to the village, metres (`None` without a village).
    pub to_village_m: Option<f64>,
}

/// The sites of a world and the figures that say how playable it is.
#[derive(Debug, Clone, PartialEq)]
pub struct Sites {
    /// The best site, or `None` (then `why_not` says why).
    pub village: Option<Site>,
    /// The next best sites, at least `spacing_m` from the village and from each other.
    pub hamlets: Vec<Site>,
    /// Why there is no village.
    pub why_not: Option<String>,
    /// Nodes that passed every village rule, among those a site may stand on: every node of
    /// a lattice up to a million nodes, one in each of a million even cells on a finer one.
    pub candidates: usize,
    /// Middle of the mill's reach (unit direction) and that reach's index.
    pub mill: Option<(DVec3, usize)>,
    /// Where the player starts (`None` on a world with no dry, gentle ground).
    pub spawn: Option<Spawn>,
    /// Share of the dry land a walker crosses (slope under `walkable_slope_deg`).
    pub walkable: f64,
    /// Share of the dry land too steep to cross.
    pub impassable: f64,
}

impl Sites {
    /// The sites of `world` under `rules`.
    pub fn of(world: &World, rules: &SiteRules) -> Self {
        let lattice = &*world.terrain.lattice;
        let slope: Vec<f64> =
            (0..lattice.len()).map(|i| node_slope_deg(lattice, &world.terrain.heights, i)).collect();
        Sites::with_slopes(world, rules, &slope)
    }

    /// [`Sites::of`] with each node's slope (degrees, [`node_slope_deg`]) already worked out,
    /// as [`Biomes`](crate::life::biome::Biomes) holds it.
    pub(crate) fn with_slopes(world: &World, rules: &SiteRules, slope: &[f64]) -> Self {
        let lattice = &*world.terrain.lattice;
        let kind = &world.terrain.drainage.kind;
        let n = lattice.len();
        let radius = world.terrain.settings.radius_m;
        let is_land = |i: usize| kind[i] == NodeKind::Land;
        let land = (0..n).into_par_iter().filter(|&i| is_land(i)).count();
        let walkable =
            (0..n).into_par_iter().filter(|&i| is_land(i) && slope[i] < rules.walkable_slope_deg).count();
        let share = |count: usize| count as f64 / land.max(1) as f64;
        let (walkable, impassable) = (share(walkable), share(land - walkable));

        let is_fresh = |i: usize| matches!(kind[i], NodeKind::River | NodeKind::Lake);
        // Only walks up to `walk_m` are read: a site needs one, and so does `why_no_village`.
        // The land they reach is kept, with its walk and its water, before the coast is
        // walked: the two whole-planet fields are never held at once.
        let walk = walks(lattice, &is_fresh, &is_land, rules.walk_m);
        let within_walk = (0..n).into_par_iter().any(|i| walk.at(i).0 <= rules.walk_m);
        let site_nodes = SiteNodes::of(lattice);
        // The node's slope spans its neighbours, coarser than a footprint: a loose first cut.
        let near_water: Vec<(usize, f64, usize)> = (0..n)
            .into_par_iter()
            .filter(|&i| is_land(i) && slope[i] < 2.0 * rules.max_slope_deg && site_nodes.holds(i))
            .filter_map(|i| match walk.at(i) {
                (walk_m, source) if walk_m <= rules.walk_m && source != NO_SOURCE => {
                    Some((i, walk_m, source as usize))
                }
                _ => None,
            })
            .collect();
        drop(walk);
        let to_coast = coast_walks(world, &is_land);
        let falls = Points::new(
            world.terrain.carve.reaches.iter().filter(|r| r.fall).map(|r| r.start),
            rules.fall_clearance_m / radius,
        );
        let lake_or_big = |s: usize| match kind[s] {
            NodeKind::Lake => 1.0,
            _ => {
                let decades = (world.terrain.drainage.catchment_m2[s]
                    / world.terrain.settings.river_catchment_m2)
                    .max(1.0);
                (libm::log10(decades) / 2.0).min(1.0)
            }
        };
        let mut scored: Vec<Site> = near_water
            .par_iter()
            .filter_map(|&(i, walk_m, src)| {
                let dir = lattice.positions()[i];
                let level = water_level_near(world, src)?;
                let foot = Footprint::around(world, dir, i);
                // The footprint's dry middle is the site's ground.
                let height_m = foot.middle()?;
                let above_water_m = height_m - level;
                if above_water_m < rules.flood_margin_m
                    || falls.any_within(dir, |f| chord_m(f, dir, radius) < rules.fall_clearance_m)
                {
                    return None;
                }
                let slope_deg = foot.slope_below(height_m, rules.footprint_m, rules.max_slope_deg)?;
                let coast_m = to_coast.at(i).0;
                let coastal = if coast_m.is_finite() { libm::exp(-coast_m / COAST_REACH_M) } else { 0.0 };
                let score = 0.3 * (1.0 - slope_deg / rules.max_slope_deg)
                    + 0.2 * (1.0 - walk_m / rules.walk_m.max(1.0))
                    + 0.2 * lake_or_big(src)
                    + 0.3 * coastal;
                Some(Site {
                    node: i as u32,
                    dir,
                    height_m,
                    score,
                    slope_deg,
                    walk_to_water_m: walk_m,
                    above_water_m,
                })
            })
            .collect();
        let candidates = scored.len();
        scored.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.node.cmp(&b.node)));
        let mut chosen: Vec<Site> = Vec::new();
        for site in scored {
            if chosen.len() >= rules.count {
                break;
            }
            if chosen.iter().all(|c| chord_m(c.dir, site.dir, radius) >= rules.spacing_m) {
                chosen.push(site);
            }
        }
        let village = chosen.first().copied();
        let hamlets = chosen.iter().skip(1).copied().collect();
        let why_not = village.is_none().then(|| why_no_village(world, land > 0, within_walk, rules));
        let mill = village.and_then(|v| mill_near(world, v.dir, rules));
        let spawn = spawn_near(world, slope, &to_coast, village.as_ref(), rules);
        Sites { village, hamlets, why_not, candidates, mill, spawn, walkable, impassable }
    }
}

/// The nodes a site may stand on: every node of a lattice up to [`WALKED_NODES`]; on a finer
/// one the first node (the lowest number) in each of about that many even cells, so sites are
/// sought about as far apart on any finer lattice (35 m on a 10 km planet, near a footprint's
/// radius) and scored at a coarse lattice's cost.
enum SiteNodes {
    Every,
    FirstInCell { rings: Rings, first: Vec<u32>, n: usize },
}

impl SiteNodes {
    fn of(lattice: &FibonacciLattice) -> Self {
        let n = lattice.len();
        if n <= WALKED_NODES {
            return SiteNodes::Every;
        }
        let rings = Rings::new(WALKED_NODES);
        // A ring's nodes are a run of numbers: the first met in a cell is its lowest.
        let first = (0..rings.rings())
            .into_par_iter()
            .flat_map_iter(|r| {
                let mut first = vec![u32::MAX; rings.count(r)];
                for i in rings.fibonacci_span(r, n) {
                    let k = rings.cell_in_ring_of_fibonacci(r, i) - rings.first(r);
                    first[k] = first[k].min(i as u32);
                }
                first
            })
            .collect();
        SiteNodes::FirstInCell { rings, first, n }
    }

    /// Whether a site may stand on node `i`.
    fn holds(&self, i: usize) -> bool {
        match self {
            SiteNodes::Every => true,
            SiteNodes::FirstInCell { rings, first, n } => first[rings.cell_of_fibonacci(i, *n)] as usize == i,
        }
    }
}

/// Points bucketed in cubes of one edge, so those near a point are found without reading
/// the others.
struct Points {
    /// Cube edge, in the points' units.
    edge: f64,
    cubes: HashMap<[i64; 3], Vec<DVec3>>,
}

impl Points {
    /// `points` in cubes of `edge` (positive, in the points' units).
    fn new(points: impl Iterator<Item = DVec3>, edge: f64) -> Self {
        let mut cubes: HashMap<[i64; 3], Vec<DVec3>> = HashMap::new();
        for p in points {
            cubes.entry(cube_of(p, edge)).or_default().push(p);
        }
        Points { edge, cubes }
    }

    /// Whether `near` holds for any point in the cube of `p` or a cube beside it: for every
    /// point `near` can only hold within one edge of `p`.
    fn any_within(&self, p: DVec3, near: impl Fn(DVec3) -> bool) -> bool {
        let [x, y, z] = cube_of(p, self.edge);
        (-1..=1).any(|dx| {
            (-1..=1).any(|dy| {
                (-1..=1).any(|dz| {
                    self.cubes.get(&[x + dx, y + dy, z + dz]).is_some_and(|c| c.iter().any(|&q| near(q)))
                })
            })
        })
    }
}

/// The cube of edge `edge` holding `p`.
fn cube_of(p: DVec3, edge: f64) -> [i64; 3] {
    (p / edge).floor().to_array().map(|c| c as i64)
}

/// Straight distance between two unit directions on a sphere of `radius_m`, metres.
fn chord_m(a: DVec3, b: DVec3, radius_m: f64) -> f64 {
    (a - b).length() * radius_m
}

/// Walking distance (metres, along the lattice's edges; [`cheapest_sources_from`]) from each
/// node where `read` holds to the nearest node where `target` holds, and which node that is;
/// infinite and [`NO_SOURCE`] where none is reached within `limit_m`, and at every other node.
fn walks<'r>(
    lattice: &'r FibonacciLattice,
    target: &'r (dyn Fn(usize) -> bool + Sync),
    read: &'r (dyn Fn(usize) -> bool + Sync),
    limit_m: f64,
) -> Cheapest<'r> {
    cheapest_sources_from(lattice, Starts::Free(Box::new(target)), limit_m, read)
}

/// The water level at or beside water node `node`, metres: the lake's level, or the river's
/// surface from the water table.
fn water_level_near(world: &World, node: usize) -> Option<f64> {
    let level = world.terrain.drainage.water_level_m(node);
    if level.is_finite() {
        return Some(level);
    }
    world.water().view().water_near(world.terrain.lattice.positions()[node], node).map(|w| w.level_m)
}

/// Steepest slope across a footprint of `radius_m` around `dir` (the centre and eight points
/// on its rim, each pair's rise over their distance), degrees; `None` where any of those
/// points is under water.
pub fn footprint_slope_deg(world: &World, dir: DVec3, radius_m: f64) -> Option<f64> {
    let near = world.terrain.lattice.nearest_node(dir).index();
    footprint_below(world, dir, radius_m, near, f64::INFINITY)
}

/// [`footprint_slope_deg`] where it is under `below_deg`, `None` where it is not, given
/// `near`, the lattice node nearest `dir` or one close by.
fn footprint_below(world: &World, dir: DVec3, radius_m: f64, near: usize, below_deg: f64) -> Option<f64> {
    let foot = Footprint::around(world, dir, near);
    foot.slope_below(foot.middle()?, radius_m, below_deg)
}

/// The ground around one place, read where `Terrain::ground` and `WorldWater::at` read (at
/// each point made unit), each point's node found from the middle's in a step or two.
struct Footprint<'w> {
    world: &'w World,
    water: WaterView<'w, PlanetSurface<'w>>,
    /// Unit direction of the middle.
    up: DVec3,
    /// The lattice node nearest the middle.
    centre: usize,
}

impl<'w> Footprint<'w> {
    /// The footprint around `dir`, given `near`, the lattice node nearest it or one close by.
    fn around(world: &'w World, dir: DVec3, near: usize) -> Self {
        let up = sphere::unit(dir);
        let centre = world.terrain.lattice.nearest_node_from(up, near).index();
        Footprint { world, water: world.water().view(), up, centre }
    }

    /// The ground at `p`, metres; `None` under water.
    fn ground(&self, p: DVec3) -> Option<f64> {
        let p = sphere::unit(p);
        let node = self.world.terrain.lattice.nearest_node_from(p, self.centre).index();
        match self.water.ground_and_water_near(p, node) {
            (_, Some(_)) => None,
            (ground, None) => Some(ground),
        }
    }

    /// The ground at the middle, metres; `None` under water.
    fn middle(&self) -> Option<f64> {
        self.ground(self.up)
    }

    /// The steepest slope from the middle's ground `middle_m` to eight points `radius_m`
    /// round it, degrees, where it is under `below_deg`; `None` where it is not (found at the
    /// first rim point that reaches it) or where a rim point is under water.
    fn slope_below(&self, middle_m: f64, radius_m: f64, below_deg: f64) -> Option<f64> {
        let (east, north) = sphere::east_north(self.up);
        let angle = radius_m / self.world.terrain.settings.radius_m;
        // Rises clear of the limit's tangent by far more than rounding are settled without
        // an arc tangent; the rest are measured in degrees as the limit is.
        let limit = libm::tan(below_deg.to_radians());
        let mut steepest = 0.0f64;
        for k in 0..8 {
            let a = k as f64 * std::f64::consts::FRAC_PI_4;
            let rim =
                self.ground(sphere::unit(self.up + (east * libm::cos(a) + north * libm::sin(a)) * angle))?;
            let rise = (rim - middle_m).abs() / radius_m;
            let reaches = if rise < limit * (1.0 - 1e-9) {
                false
            } else if rise > limit * (1.0 + 1e-9) {
                true
            } else {
                libm::atan(rise).to_degrees() >= below_deg
            };
            if reaches {
                return None;
            }
            steepest = steepest.max(rise);
        }
        Some(libm::atan(steepest).to_degrees())
    }
}

/// Why `world` has no village, given whether it has dry land and whether any of it lies
/// within the rules' walk of a river or lake.
fn why_no_village(world: &World, any_land: bool, within_walk: bool, rules: &SiteRules) -> String {
    let kind = &world.terrain.drainage.kind;
    if !any_land {
        "no dry land".to_string()
    } else if !kind.iter().any(|k| matches!(k, NodeKind::River | NodeKind::Lake)) {
        "no river or lake to settle beside".to_string()
    } else if !within_walk {
        format!("no dry land within {} m of a river or lake", rules.walk_m)
    } else {
        format!(
            "no ground within {} m of a river or lake is flatter than {}° and {} m above the water",
            rules.walk_m, rules.max_slope_deg, rules.flood_margin_m
        )
    }
}

/// The reach that turns the village's mill: a river reach (not a fall) within twice the walk
/// of `village` whose middle is river water carrying at least the rules' discharge, the one
/// with the largest catchment (ties: the lower index).
fn mill_near(world: &World, village: DVec3, rules: &SiteRules) -> Option<(DVec3, usize)> {
    let radius = world.terrain.settings.radius_m;
    world
        .terrain
        .carve
        .reaches
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.fall)
        .map(|(k, r)| (k, r, r.middle()))
        .filter(|&(_, _, mid)| chord_m(mid, village, radius) <= 2.0 * rules.walk_m)
        .filter(|&(_, _, mid)| {
            world.water().at(mid).is_some_and(|w| w.body == Body::River)
                && world
                    .water()
                    .reach_flow_at(mid)
                    .is_some_and(|f| f.discharge_m3_s >= rules.mill_discharge_m3_s)
        })
        .max_by(|a, b| a.1.catchment_m2.total_cmp(&b.1.catchment_m2).then(b.0.cmp(&a.0)))
        .map(|(k, _, mid)| (mid, k))
}

/// The spawn: a dry, gentle node (slope under the rules' limit at the node and across a
/// small footprint) from which the village is in sight, nearest the coast (then nearest the
/// village, then the lowest index). Without a village, the dry node nearest the coast.
fn spawn_near(
    world: &World,
    slope: &[f64],
    to_coast: &Cheapest,
    village: Option<&Site>,
    rules: &SiteRules,
) -> Option<Spawn> {
    let lattice = &*world.terrain.lattice;
    let kind = &world.terrain.drainage.kind;
    let radius = world.terrain.settings.radius_m;
    type Key = (f64, f64, usize);
    let first = |a: Option<Key>, b: Option<Key>| match (a, b) {
        (Some(a), Some(b)) => Some(if a <= b { a } else { b }),
        (a, b) => a.or(b),
    };
    // The least key of a qualifying node: each run of nodes checks a node's footprint and
    // sight only where its key beats the run's best so far.
    let best = (0..lattice.len())
        .into_par_iter()
        .filter(|&i| kind[i] == NodeKind::Land && slope[i] < rules.spawn_slope_deg)
        .fold(
            || None,
            |best: Option<Key>, i| {
                let dir = lattice.positions()[i];
                let to_village = village.map(|v| chord_m(v.dir, dir, radius));
                if to_village.is_some_and(|d| d > rules.sight_m) {
                    return best;
                }
                let key = (to_coast.at(i).0, to_village.unwrap_or(0.0), i);
                if best.is_some_and(|b| b <= key) {
                    return best;
                }
                let gentle = footprint_below(world, dir, 2.0, i, rules.spawn_slope_deg).is_some();
                if gentle && village.is_none_or(|v| in_sight(world, dir, v.dir)) {
                    Some(key)
                } else {
                    best
                }
            },
        )
        .reduce(|| None, first);
    best.map(|(to_coast_m, _, i)| {
        let dir = lattice.positions()[i];
        Spawn {
            dir,
            height_m: world.terrain.ground(dir),
            to_coast_m,
            to_village_m: village.map(|v| chord_m(v.dir, dir, radius)),
        }
    })
}

/// The walk from each node where `read` holds to the coast (the sea; on a world without one,
/// any water), metres ([`Cheapest::at`]'s cost); infinite where there is none.
fn coast_walks<'w>(world: &'w World, read: &'w (dyn Fn(usize) -> bool + Sync)) -> Cheapest<'w> {
    let kind = &world.terrain.drainage.kind;
    let has_sea = kind.contains(&NodeKind::Sea);
    let coast = move |i: usize| if has_sea { kind[i] == NodeKind::Sea } else { kind[i] != NodeKind::Land };
    cheapest_sources_from(&world.terrain.lattice, Starts::Free(Box::new(coast)), f64::INFINITY, read)
}

/// How far inland a village still counts as coastal, metres: the coastal share of its
/// score falls off as `exp(-walk to the coast / COAST_REACH_M)`.
pub const COAST_REACH_M: f64 = 1000.0;

/// Eye height of a walker, metres.
const EYE_M: f64 = 1.7;
/// Height of the village's roofs, metres: what the walker must see.
const ROOF_M: f64 = 6.0;

/// Whether a walker at `from` sees the roofs at `to`: the straight line between the eye and
/// the roofs passes over the ground at every one of 32 points between them.
pub fn in_sight(world: &World, from: DVec3, to: DVec3) -> bool {
    let radius = world.terrain.settings.radius_m;
    let eye = from * (radius + world.terrain.ground(from) + EYE_M);
    let roof = to * (radius + world.terrain.ground(to) + ROOF_M);
    (1..32).all(|k| {
        let p = eye.lerp(roof, k as f64 / 32.0);
        p.length() - radius > world.terrain.ground(p)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit;

    #[test]
    fn every_site_keeps_the_rules() {
        let world = World::build(&testkit::world(testkit::QUICK_WORLD));
        let rules = SiteRules::default();
        let sites = Sites::of(&world, &rules);
        let village = sites.village.expect("the quick world has rivers and flat dry ground beside them");
        assert!(sites.why_not.is_none());
        for site in std::iter::once(&village).chain(&sites.hamlets) {
            assert!(world.water().at(site.dir).is_none(), "never underwater");
            assert!(site.slope_deg < rules.max_slope_deg, "never steeper than the limit");
            assert!(site.walk_to_water_m <= rules.walk_m, "within the walk of water");
            assert!(site.above_water_m >= rules.flood_margin_m, "above the flood");
            assert!(site.score <= village.score);
            let steepest = footprint_slope_deg(&world, site.dir, rules.footprint_m);
            assert!(steepest.is_some_and(|s| s < rules.max_slope_deg));
        }
        let radius = world.terrain.settings.radius_m;
        for (k, a) in sites.hamlets.iter().enumerate() {
            assert!(chord_m(a.dir, village.dir, radius) >= rules.spacing_m);
            for b in &sites.hamlets[k + 1..] {
                assert!(chord_m(a.dir, b.dir, radius) >= rules.spacing_m);
            }
        }
        let (mill, reach) = sites.mill.expect("the quick world's village has a river beside it");
        assert!(world.water().at(mill).is_some_and(|w| w.body == Body::River), "the mill stands in a river");
        assert!(!world.terrain.carve.reaches[reach].fall, "not on a fall");
        let flow = world.water().reach_flow_at(mill).map_or(0.0, |f| f.discharge_m3_s);
        assert!(flow >= rules.mill_discharge_m3_s, "{flow} m³/s turns the wheel");
        assert!(chord_m(mill, village.dir, radius) <= 2.0 * rules.walk_m, "beside the village");
        let spawn = sites.spawn.expect("a spawn");
        assert!(world.water().at(spawn.dir).is_none(), "the spawn is dry");
        assert!(footprint_slope_deg(&world, spawn.dir, 2.0).is_some_and(|s| s < rules.spawn_slope_deg));
        assert!(spawn.to_village_m.is_some_and(|d| d <= rules.sight_m));
        assert!(in_sight(&world, spawn.dir, village.dir));
        assert!(
            (0.0..=1.0).contains(&sites.walkable) && (sites.walkable + sites.impassable - 1.0).abs() < 1e-12
        );
        assert_eq!(Sites::of(&world, &rules), sites, "deterministic");
    }

    #[test]
    fn a_world_without_fresh_water_says_why_it_has_no_village() {
        let world = World::build(&testkit::world("dry_moon"));
        let sites = Sites::of(&world, &SiteRules::default());
        assert_eq!(sites.village, None);
        assert_eq!(sites.why_not.as_deref(), Some("no river or lake to settle beside"));
        assert!(sites.spawn.is_some(), "a dry world still has a place to stand");
    }
}
