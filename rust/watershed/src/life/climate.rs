//! Climate on a solved planet: temperature from latitude, altitude and the world's climate
//! bias; moisture from the water nearby (sea, lakes, rivers by their catchment) and the
//! rain shadow of higher ground upwind of the prevailing winds.

use crate::drainage::NodeKind;
use crate::ground::topology::Topology;
use crate::life::distance::{cheapest_from, WALKED_NODES};
use crate::math::geometry::smoothstep;
use crate::math::rings::Rings;
use crate::math::sphere;
use crate::settings::{LookFamily, WorldSettings};
use crate::water::world::World;
use glam::DVec3;
use rayon::prelude::*;

/// Temperature at the datum on the equator of a world with climate bias 0, °C.
pub const EQUATOR_C: f64 = 26.0;
/// How much colder the datum is at the poles than at the equator, °C (a glacial world:
/// [`GLACIAL_POLAR_FACTOR`] times this).
pub const POLAR_DROP_C: f64 = 20.0;
/// How much warmer a world with climate bias +1 is than one with 0, °C (-1: this much colder).
pub const CLIMATE_BIAS_C: f64 = 6.0;
/// How much more the poles cool on a glacial world than on others.
pub const GLACIAL_POLAR_FACTOR: f64 = 2.0;
/// How much warmer a desert world is, °C.
pub const DESERT_WARMING_C: f64 = 4.0;
/// The share of the moisture a desert world keeps.
pub const DESERT_MOISTURE: f64 = 0.35;
/// How far water's moisture reaches inland, as a share of the planet's radius: at this
/// distance from the sea the air holds 1/e of what it holds on the shore.
pub const MOISTURE_REACH: f64 = 0.04;
/// How much of the moisture a full rain shadow takes away.
pub const SHADOW_DRYING: f64 = 0.6;
/// Height of the ground upwind above a node, as a share of the relief, at which its rain
/// shadow is full.
pub const FULL_SHADOW: f64 = 0.25;

/// Temperature and moisture at every node of a world's lattice.
#[derive(Debug, Clone, PartialEq)]
pub struct Climate {
    /// Temperature at each node's ground (or water surface), °C.
    pub temperature_c: Vec<f64>,
    /// Moisture at each node, 0 (dry) ..= 1 (wet).
    pub moisture: Vec<f64>,
    /// How much of each node's rain the ground upwind takes, 0 (none) ..= 1 (a full shadow).
    pub shadow: Vec<f64>,
}

/// Temperature at `height_m` above the datum at latitude `lat_rad` on `settings`' world, °C.
///
/// On a world with climate bias 0 the equator freezes at `snow_line` × `relief_m` above
/// the datum (the look key says where snow starts); the datum cools towards the poles, and
/// the bias warms (+1) or cools (-1) everything by `CLIMATE_BIAS_C` (6 °C).
pub fn temperature_c(settings: &WorldSettings, height_m: f64, lat_rad: f64) -> f64 {
    let polar = libm::sin(lat_rad);
    let (drop, warming) = match settings.look.family {
        LookFamily::Glacial => (POLAR_DROP_C * GLACIAL_POLAR_FACTOR, 0.0),
        LookFamily::Desert => (POLAR_DROP_C, DESERT_WARMING_C),
        LookFamily::Temperate | LookFamily::Volcanic => (POLAR_DROP_C, 0.0),
    };
    let lapse_c_per_m = EQUATOR_C / (settings.look.snow_line * settings.relief_m).max(1.0);
    EQUATOR_C - drop * polar * polar + CLIMATE_BIAS_C * settings.climate + warming - lapse_c_per_m * height_m
}

/// The world's wetness before any water or shadow: 0 for climate bias -1 up to 1 for +1.
fn wetness(settings: &WorldSettings) -> f64 {
    0.5 + 0.5 * settings.climate
}

impl Climate {
    /// The climate at every lattice node of `world`, worked out on the current rayon pool
    /// ([`Life::of`](crate::Life::of) gives it one of its own).
    pub fn of(world: &World) -> Self {
        let settings = &world.terrain.settings;
        let drainage = &world.terrain.drainage;
        let lattice = &*world.terrain.lattice;
        let surface: Vec<f64> = (0..lattice.len())
            .into_par_iter()
            .map(|i| {
                let level = drainage.water_level_m(i);
                if level.is_nan() {
                    world.terrain.heights[i]
                } else {
                    level.max(world.terrain.heights[i])
                }
            })
            .collect();
        let reach_m = MOISTURE_REACH * settings.radius_m;
        // The shadow reaches as far in metres on any lattice. Its walks are the largest
        // thing life holds, so the moisture's field waits for them.
        let steps = ((reach_m / (lattice.spacing() * settings.radius_m)).round() as usize).max(2);
        let mut shadow = if lattice.len() <= WALKED_NODES {
            upwind_highs(lattice, &surface, steps)
        } else {
            upwind_highs_in_rings(lattice, &surface, reach_m, WALKED_NODES)
        };
        let strength: Vec<f64> = (0..lattice.len())
            .into_par_iter()
            .map(|i| match drainage.kind[i] {
                NodeKind::Sea | NodeKind::Lake => 1.0,
                NodeKind::River => river_strength(drainage.catchment_m2[i], settings.river_catchment_m2),
                NodeKind::Land => 0.0,
            })
            .collect();
        let near = near_water(strength, reach_m, |start| cheapest_from(lattice, start));
        // Each node's upwind high becomes its shadow in place, and its nearness to water its
        // moisture, in one pass.
        let relief = settings.relief_m.max(1.0);
        let family = if settings.look.family == LookFamily::Desert { DESERT_MOISTURE } else { 1.0 };
        let wet = wetness(settings);
        let mut moisture = near;
        moisture.par_iter_mut().zip(&mut shadow).zip(&surface).for_each(|((m, s), &here)| {
            *s = smoothstep(0.0, FULL_SHADOW * relief, *s - here);
            *m =
                ((0.25 + 0.75 * *m) * (0.4 + 1.2 * wet) * (1.0 - SHADOW_DRYING * *s) * family).clamp(0.0, 1.0)
        });
        // The surface's last use: each node's temperature is written over its height.
        let mut temperature = surface;
        temperature
            .par_iter_mut()
            .zip(lattice.positions())
            .for_each(|(h, &p)| *h = temperature_c(settings, *h, sphere::lat_rad(p)));
        Climate { temperature_c: temperature, moisture, shadow }
    }

    /// Moisture at direction `dir`, 0..=1: the nodes around it weighted by how near they
    /// are, so colour changes smoothly between nodes.
    pub fn moisture_at(&self, lattice: &crate::ground::lattice::FibonacciLattice, dir: DVec3) -> f64 {
        let p = sphere::unit(dir);
        let nearest = lattice.nearest_node(p).index();
        let reach2 = (1.5 * lattice.spacing()).powi(2);
        let (mut sum, mut weight) = (0.0, 0.0);
        for j in std::iter::once(nearest).chain(lattice.neighbors(nearest)) {
            let t = (1.0 - lattice.positions()[j].distance_squared(p) / reach2).max(0.0);
            let w = t * t;
            sum += w * self.moisture[j];
            weight += w;
        }
        if weight > 0.0 {
            sum / weight
        } else {
            self.moisture[nearest]
        }
    }
}

/// How much moisture a river node gives, 0.5 (a river just past the threshold) ..= 1
/// (a hundred times the threshold's catchment or more).
fn river_strength(catchment_m2: f64, threshold_m2: f64) -> f64 {
    let decades = libm::log10(catchment_m2.max(1.0) / threshold_m2.max(1.0));
    0.5 + 0.5 * smoothstep(0.0, 2.0, decades)
}

/// At each node, the strongest water source's strength times `exp(-distance / reach_m)`,
/// distances in metres found by `distances` (each node's cheapest `start + distance`,
/// given the starts).
fn near_water(
    mut strength: Vec<f64>,
    reach_m: f64,
    distances: impl FnOnce(Vec<f64>) -> Vec<f64>,
) -> Vec<f64> {
    // As a cost, `reach·ln(1/strength) + distance`: the cheapest walk is the strongest source.
    strength
        .par_iter_mut()
        .for_each(|s| *s = if *s > 0.0 { reach_m * libm::log(1.0 / *s) } else { f64::INFINITY });
    let mut near = distances(strength);
    near.par_iter_mut().for_each(|c| *c = if c.is_finite() { libm::exp(-*c / reach_m) } else { 0.0 });
    near
}

/// The direction the prevailing wind comes from at `p` (unit tangent, or zero at the
/// poles): from the east in the tropics and the polar caps, from the west between 30° and
/// 60° of latitude.
pub fn upwind(p: DVec3) -> DVec3 {
    let east = DVec3::Y.cross(p);
    if east.length_squared() < 1e-12 {
        return DVec3::ZERO;
    }
    let east = east.normalize();
    let lat = libm::asin(p.y.clamp(-1.0, 1.0)).to_degrees().abs();
    if (30.0..60.0).contains(&lat) {
        -east
    } else {
        east
    }
}

/// The neighbour of node `at` one step upwind: the one furthest along the wind's source
/// direction (ties: the lower index); `None` where none lies upwind (at the poles).
fn upwind_step(lattice: &crate::ground::lattice::FibonacciLattice, at: usize) -> Option<usize> {
    let positions = lattice.positions();
    let wind = upwind(positions[at]);
    lattice
        .neighbor_slice(at)
        .iter()
        .map(|&j| j as usize)
        .map(|j| (j, (positions[j] - positions[at]).dot(wind)))
        .filter(|&(_, along)| along > 0.0)
        .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))
        .map(|(j, _)| j)
}

/// At each node, the highest `surface` met walking `steps` nodes upwind from it (each step
/// [`upwind_step`]; the walk stops where there is none), or minus infinity where the first
/// step has nowhere to go.
///
/// # Complexity
/// O(n × (neighbours + log steps)): walks of a power of two steps are joined from two of
/// half that many, and each node's walk is made of those its step count's bits name.
fn upwind_highs(
    lattice: &crate::ground::lattice::FibonacciLattice,
    surface: &[f64],
    steps: usize,
) -> Vec<f64> {
    const NONE: u32 = u32::MAX;
    let n = lattice.len();
    // Walks of `span` steps from every node: where each ends (`NONE` once it stopped) and the
    // highest surface it met.
    let mut end: Vec<u32> =
        (0..n).into_par_iter().map(|i| upwind_step(lattice, i).map_or(NONE, |j| j as u32)).collect();
    let mut high: Vec<f64> =
        end.par_iter().map(|&e| if e == NONE { f64::NEG_INFINITY } else { surface[e as usize] }).collect();
    // Each node's own walk so far: where it stands and the highest surface it met.
    let mut at: Vec<u32> = (0..n as u32).collect();
    let mut highest = vec![f64::NEG_INFINITY; n];
    let mut left = steps;
    while left > 0 {
        if left & 1 == 1 {
            at.par_iter_mut().zip(&mut highest).for_each(|(a, h)| {
                if *a != NONE {
                    *h = h.max(high[*a as usize]);
                    *a = end[*a as usize];
                }
            });
        }
        left >>= 1;
        if left > 0 {
            let (joined_end, joined_high): (Vec<u32>, Vec<f64>) = (0..n)
                .into_par_iter()
                .map(|i| match end[i] {
                    NONE => (NONE, high[i]),
                    k => (end[k as usize], high[i].max(high[k as usize])),
                })
                .unzip();
            end = joined_end;
            high = joined_high;
        }
    }
    highest
}

/// [`upwind_highs`] for a lattice too fine to walk node by node, on about `cells` cells in
/// rings (where the winds blow along the rings): at each node, the highest `surface` in the
/// cells of its ring up to `reach_m` upwind of its own (minus infinity at a ring of one cell).
fn upwind_highs_in_rings(
    lattice: &crate::ground::lattice::FibonacciLattice,
    surface: &[f64],
    reach_m: f64,
    cells: usize,
) -> Vec<f64> {
    let rings = Rings::new(cells);
    let n = lattice.len();
    // Each ring's highest surface in each of its cells, ring by ring side by side.
    let top: Vec<f64> = (0..rings.rings())
        .into_par_iter()
        .flat_map_iter(|r| {
            let mut top = vec![f64::NEG_INFINITY; rings.count(r)];
            for i in rings.fibonacci_span(r, n) {
                let k = rings.cell_in_ring_of_fibonacci(r, i) - rings.first(r);
                top[k] = top[k].max(surface[i]);
            }
            top
        })
        .collect();
    let radius_m = lattice.radius_m();
    let upwind_top: Vec<f64> = (0..rings.rings())
        .into_par_iter()
        .flat_map_iter(|r| {
            let (first, m) = (rings.first(r), rings.count(r));
            let centre = rings.centre(first);
            // The rings run east: a wind from the east is met walking up the ring.
            let east = DVec3::Y.cross(centre);
            let ahead = if upwind(centre).dot(east) >= 0.0 { 1 } else { m - 1 };
            let width_m = east.length() * std::f64::consts::TAU * radius_m / m as f64;
            let span =
                if m > 1 { ((reach_m / width_m.max(1e-9)).round() as usize).clamp(1, m - 1) } else { 0 };
            let top = &top[first..first + m];
            (0..m)
                .map(move |k| (1..=span).map(|s| top[(k + s * ahead) % m]).fold(f64::NEG_INFINITY, f64::max))
        })
        .collect();
    (0..n).into_par_iter().map(|i| upwind_top[rings.cell_of_fibonacci(i, n)]).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drainage::walk::cheapest_costs;
    use crate::ground::grid::Grid;
    use crate::testkit;

    #[test]
    fn the_equator_freezes_at_the_snow_line_and_the_poles_are_colder() {
        let mut w = testkit::world("home");
        w.climate = 0.0;
        let line = w.look.snow_line * w.relief_m;
        assert!(temperature_c(&w, line, 0.0).abs() < 1e-9);
        assert!(temperature_c(&w, line - 10.0, 0.0) > 0.0);
        assert!(temperature_c(&w, 0.0, 1.2) < temperature_c(&w, 0.0, 0.3));
        assert!(temperature_c(&w, 0.0, -1.2) == temperature_c(&w, 0.0, 1.2), "the hemispheres match");
        let t0 = temperature_c(&w, 100.0, 0.5);
        w.climate = 1.0;
        assert!((temperature_c(&w, 100.0, 0.5) - t0 - CLIMATE_BIAS_C).abs() < 1e-9);
        w.look.family = LookFamily::Glacial;
        let glacial_pole = temperature_c(&w, 0.0, 1.5);
        w.look.family = LookFamily::Temperate;
        assert!(glacial_pole < temperature_c(&w, 0.0, 1.5) - 10.0);
    }

    #[test]
    fn moisture_falls_with_distance_from_the_strongest_source() {
        let grid = Grid { width: 9, height: 1, cell_m: 10.0 };
        let mut strength = vec![0.0; 9];
        strength[0] = 1.0;
        strength[8] = 0.5;
        let walk = |start: Vec<f64>| cheapest_costs(&grid, &start, f64::INFINITY);
        let near = near_water(strength, 20.0, walk);
        assert_eq!(near[0], 1.0);
        assert!((near[2] - libm::exp(-1.0)).abs() < 1e-12, "{}", near[2]);
        assert!((near[8] - 0.5).abs() < 1e-12, "a source keeps its own strength");
        assert!((near[7] - 0.5 * libm::exp(-0.5)).abs() < 1e-12, "the weaker source wins nearby");
        assert!(near[..5].windows(2).all(|w| w[0] > w[1]));
        assert_eq!(near_water(vec![0.0; 9], 20.0, walk), vec![0.0; 9], "no water, no moisture");
    }

    #[test]
    fn winds_blow_from_the_east_in_the_tropics_and_from_the_west_at_mid_latitudes() {
        let east_at_lon0 = DVec3::X;
        assert!(upwind(sphere::direction(10.0, 0.0)).dot(east_at_lon0) > 0.99);
        assert!(upwind(sphere::direction(-45.0, 0.0)).dot(east_at_lon0) < -0.99);
        assert!(upwind(sphere::direction(75.0, 0.0)).dot(east_at_lon0) > 0.99);
        assert_eq!(upwind(DVec3::Y), DVec3::ZERO);
    }

    #[test]
    fn shared_upwind_steps_meet_the_same_heights_as_walking_each_node() {
        let lattice = crate::ground::lattice::FibonacciLattice::new(5_000, 1000.0);
        let surface: Vec<f64> =
            lattice.positions().iter().map(|p| 100.0 * libm::sin(7.0 * p.x + 3.0 * p.z)).collect();
        for steps in [1, 2, 5, 16, 23, 64] {
            let highs = upwind_highs(&lattice, &surface, steps);
            for (i, &high) in highs.iter().enumerate() {
                // Each node's own walk, step by step.
                let (mut at, mut expected) = (i, f64::NEG_INFINITY);
                for _ in 0..steps {
                    let Some(j) = upwind_step(&lattice, at) else { break };
                    at = j;
                    expected = expected.max(surface[at]);
                }
                assert_eq!(high.to_bits(), expected.to_bits(), "node {i}, {steps} steps");
            }
        }
    }

    #[test]
    fn a_ridge_shadows_the_ground_downwind_of_it_in_rings() {
        let radius_m = 10_000.0;
        let lattice = crate::ground::lattice::FibonacciLattice::new(100_000, radius_m);
        // A ridge 300 m high and 300 m wide along the meridian at longitude 0, 45°S to 45°N.
        let half_width_m = 150.0;
        let surface: Vec<f64> = lattice
            .positions()
            .iter()
            .map(|&p| {
                let (lat, lon) = sphere::lat_lon_rad(p);
                let east_m = lon * libm::cos(lat) * radius_m;
                if east_m.abs() < half_width_m && lat.abs() < 0.8 {
                    300.0
                } else {
                    0.0
                }
            })
            .collect();
        let (reach_m, cells) = (1500.0, 10_000);
        let cell_m = (4.0 * std::f64::consts::PI / cells as f64).sqrt() * radius_m;
        let highs = upwind_highs_in_rings(&lattice, &surface, reach_m, cells);
        let (mut shadowed, mut clear) = (0, 0);
        for (i, &p) in lattice.positions().iter().enumerate() {
            let (lat, lon) = sphere::lat_lon_rad(p);
            // A ring takes the wind at its middle: leave out the rings where it turns.
            let turn = (lat.abs().to_degrees() - 30.0).abs().min((lat.abs().to_degrees() - 60.0).abs());
            if lat.abs() > 0.75 || turn.to_radians() * radius_m < cell_m {
                continue;
            }
            // Metres downwind of the ridge's middle: the wind comes from the east or the west.
            let east_m = lon * libm::cos(lat) * radius_m;
            let from_east = upwind(p).dot(DVec3::Y.cross(p)) > 0.0;
            let downwind_m = if from_east { -east_m } else { east_m };
            if (half_width_m + cell_m..reach_m - cell_m).contains(&downwind_m) {
                assert_eq!(highs[i], 300.0, "node {i}, {downwind_m} m downwind of the ridge");
                shadowed += 1;
            } else if downwind_m < -half_width_m - cell_m || downwind_m > reach_m + 2.0 * cell_m {
                assert!(highs[i] < 300.0, "node {i}, {downwind_m} m from the ridge: {}", highs[i]);
                clear += 1;
            }
        }
        assert!(shadowed > 100 && clear > 10_000, "{shadowed} shadowed, {clear} clear");
    }

    #[test]
    fn a_world_has_wet_shores_and_dry_shadows_within_bounds() {
        let world = World::build(&testkit::world(testkit::QUICK_WORLD));
        let climate = Climate::of(&world);
        let n = world.terrain.lattice.len();
        assert_eq!((climate.temperature_c.len(), climate.moisture.len()), (n, n));
        assert!(climate.moisture.iter().chain(&climate.shadow).all(|m| (0.0..=1.0).contains(m)));
        let mean = |kind: NodeKind| {
            let (sum, count) = (0..n)
                .filter(|&i| world.terrain.drainage.kind[i] == kind)
                .fold((0.0, 0), |(s, c), i| (s + climate.moisture[i], c + 1));
            sum / count.max(1) as f64
        };
        assert!(mean(NodeKind::Sea) > mean(NodeKind::Land), "the sea is wetter than dry land");
        assert!(climate.shadow.iter().any(|&s| s > 0.0), "some ground lies in a shadow");
        assert_eq!(Climate::of(&world), climate, "deterministic");
        let p = world.terrain.lattice.positions()[17];
        assert!((climate.moisture_at(&world.terrain.lattice, p) - climate.moisture[17]).abs() < 0.2);
    }
}
