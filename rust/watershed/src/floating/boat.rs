//! Boats: a box hull kept upright, floated by [`Hull`] on the live water and dragged along
//! by the water's own flow, stepped with a fixed-step integrator; and a drift down a river
//! from its source, to test that the water carries a boat where it drains.

use crate::floating::hull::Hull;
use crate::math::sphere;
use crate::water::levels::Body;
use crate::water::waves::GRAVITY_M_S2 as GRAVITY;
use crate::water::world::World;
use glam::DVec3;

/// A boat: an upright box hull.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Boat {
    /// Width, height and length, metres.
    pub size_m: DVec3,
    /// Mass, kg.
    pub mass_kg: f64,
    /// Drag of the whole hull fully under water, newtons per m/s through the water.
    pub drag_n_s_per_m: f64,
    /// The helm on a river: a sideways push towards the nearest channel's centre line,
    /// newtons per metre off it (0: the boat only drifts).
    pub helm_n_per_m: f64,
}

impl Default for Boat {
    /// A small rowing boat: 1.5 m × 0.6 m × 3 m, 600 kg, that settles 0.13 m deep and is
    /// steered gently towards the middle of a river.
    fn default() -> Self {
        Boat {
            size_m: DVec3::new(1.5, 0.6, 3.0),
            mass_kg: 600.0,
            drag_n_s_per_m: 1600.0,
            helm_n_per_m: 200.0,
        }
    }
}

impl Boat {
    /// The hull the buoyancy reads.
    pub fn hull(&self) -> Hull {
        Hull::cuboid(self.size_m, self.drag_n_s_per_m)
    }

    /// How deep the boat floats on still water, metres: where the water it displaces
    /// weighs what it does.
    pub fn displacement_depth_m(&self) -> f64 {
        self.mass_kg / (crate::floating::hull::WATER_DENSITY * self.size_m.x * self.size_m.z)
    }
}

/// Where a boat is and how it moves, in the planet's frame (metres, m/s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoatState {
    /// The hull's centre, metres from the planet's centre.
    pub position: DVec3,
    /// Velocity, m/s.
    pub velocity: DVec3,
}

/// How a drift ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Drift {
    /// The standing water the boat reached (the sea or a lake), `None` if it did not.
    pub reached: Option<Body>,
    /// Simulated seconds until then (or until it stopped).
    pub seconds: f64,
    /// Whether the keel touched the ground.
    pub grounded: bool,
    /// Whether the boat ended over dry land.
    pub left_water: bool,
    /// The least clearance under the keel met on the way, metres.
    pub least_clearance_m: f64,
    /// Straight distance from the start to the end, metres.
    pub distance_m: f64,
}

impl Boat {
    /// One step of `dt` seconds at time `t` (the waves' clock): the hull's eight sample
    /// points upright around `state.position`, their forces, gravity and, on a river, the
    /// helm's push towards the channel's centre line; semi-implicit Euler.
    pub fn step(&self, world: &World, state: &mut BoatState, t: f64, dt: f64) {
        let up = sphere::unit(state.position);
        let (east, north) = sphere::east_north(up);
        let points: Vec<DVec3> = Hull::cuboid_samples(self.size_m)
            .iter()
            .map(|s| state.position + east * s.x + up * s.y + north * s.z)
            .collect();
        let water: DVec3 = self.hull().forces(world, &points, state.velocity, t).iter().sum();
        let helm = world.water().channel_offset(up).map_or(DVec3::ZERO, |off| off * self.helm_n_per_m);
        let force = water + helm;
        state.velocity += (force / self.mass_kg - up * GRAVITY) * dt;
        state.position += state.velocity * dt;
    }

    /// Where the boat's centre is, metres from the planet's centre, when it floats at rest on
    /// the still water over `dir` (at its displacement depth); on dry ground, where it would
    /// float if the water stood at the ground.
    pub fn afloat_at(&self, world: &World, dir: DVec3) -> DVec3 {
        let dir = sphere::unit(dir);
        let level = world.water().level_at(dir).unwrap_or_else(|| world.terrain.ground(dir));
        let lift = self.size_m.y / 2.0 - self.displacement_depth_m();
        dir * (world.terrain.settings.radius_m + level + lift)
    }

    /// The boat let go on the water at direction `start` and stepped by `dt` seconds until
    /// it reaches the sea or a lake, grounds, leaves the water or `max_s` seconds pass.
    pub fn drift(&self, world: &World, start: DVec3, dt: f64, max_s: f64) -> Drift {
        let r = world.terrain.settings.radius_m;
        let start = sphere::unit(start);
        let mut state = BoatState { position: self.afloat_at(world, start), velocity: DVec3::ZERO };
        let mut drift = Drift {
            reached: None,
            seconds: 0.0,
            grounded: false,
            left_water: false,
            least_clearance_m: f64::INFINITY,
            distance_m: 0.0,
        };
        let steps = (max_s / dt).ceil() as usize;
        for step in 1..=steps {
            self.step(world, &mut state, drift.seconds, dt);
            drift.seconds = step as f64 * dt;
            let dir = sphere::unit(state.position);
            drift.distance_m = (dir - start).length() * r;
            let keel = state.position.length() - r - self.size_m.y / 2.0;
            drift.least_clearance_m = drift.least_clearance_m.min(keel - world.terrain.ground(dir));
            match world.water().at(dir) {
                None => drift.left_water = true,
                Some(w) if w.body != Body::River => drift.reached = Some(w.body),
                Some(_) => {}
            }
            drift.grounded = drift.least_clearance_m < 0.0;
            if drift.grounded || drift.left_water || drift.reached.is_some() {
                break;
            }
        }
        drift
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit;

    /// On still water (a lake, or the sea on a calm clock where there is no lake) a boat
    /// settles at its displacement depth, where `afloat_at` puts it.
    #[test]
    fn a_boat_on_still_water_settles_at_its_displacement_depth() {
        let world = testkit::built(testkit::QUICK_WORLD);
        let d = &world.terrain.drainage;
        let lake = (0..d.kind.len()).find(|&i| {
            d.kind[i] == crate::drainage::NodeKind::Lake
                && d.water_level_m(i) - world.terrain.heights[i] > 2.0
        });
        let node = lake.expect("the quick world has a lake deeper than 2 m");
        let dir = world.terrain.lattice.positions()[node];
        let boat = Boat::default();
        let level = d.water_level_m(node);
        let r = world.terrain.settings.radius_m;
        let mut state = BoatState { position: dir * (r + level + 0.5), velocity: DVec3::ZERO };
        for step in 0..600 {
            boat.step(world, &mut state, step as f64 * 0.05, 0.05);
        }
        let bottom = state.position.length() - r - boat.size_m.y / 2.0;
        let draft = level - bottom;
        let expected = boat.displacement_depth_m();
        assert!((draft - expected).abs() < 0.01, "draft {draft:.4} m, displacement depth {expected:.4} m");
        assert!(state.velocity.length() < 0.01, "at rest: {}", state.velocity.length());
        let afloat = boat.afloat_at(world, dir);
        assert!(
            (afloat - state.position).length() < 0.01,
            "afloat_at is where it settles: {afloat} {}",
            state.position
        );
    }

    /// Let go at the source of archipelago's main river, the boat reaches the sea afloat.
    #[test]
    fn a_boat_drifts_from_the_source_to_the_sea() {
        let world = testkit::built("archipelago");
        let reach = &world.terrain.carve.reaches[world.terrain.carve.main_stem_source().expect("rivers")];
        let drift = Boat::default().drift(world, reach.start + reach.end, 0.1, 4.0 * 3600.0);
        assert_eq!(drift.reached, Some(Body::Sea), "{drift:?}");
        assert!(!drift.grounded && !drift.left_water && drift.least_clearance_m > 0.0, "{drift:?}");
        let pure = Boat { helm_n_per_m: 0.0, ..Boat::default() };
        let drifting = pure.drift(world, reach.start + reach.end, 0.1, 60.0);
        assert!(drifting.distance_m > 1.0, "the current alone carries it: {drifting:?}");
    }

    #[test]
    fn the_channel_offset_points_back_to_the_centre_line() {
        let world = testkit::built(testkit::QUICK_WORLD);
        let reach = &world.terrain.carve.reaches[world.terrain.carve.main_stem_source().expect("rivers")];
        let (mid, side) = (reach.middle(), reach.across());
        let off_by = 0.5 * reach.half_width_m / world.terrain.settings.radius_m;
        let beside = sphere::unit(mid + side * off_by);
        let back = world.water().channel_offset(beside).expect("inside the channel");
        assert!((back.length() - 0.5 * reach.half_width_m).abs() < 0.05 * reach.half_width_m, "{back}");
        assert!(back.dot(side) < 0.0, "towards the centre line");
        assert!(world.water().channel_offset(mid).is_some_and(|o| o.length() < 1e-6));
    }

    #[test]
    fn the_main_stem_source_is_a_reach_nothing_flows_into() {
        let world = testkit::built(testkit::QUICK_WORLD);
        let k = world.terrain.carve.main_stem_source().expect("the quick world has rivers");
        let reaches = &world.terrain.carve.reaches;
        assert!(!reaches.iter().any(|r| r.to == reaches[k].from), "nothing flows into the source");
    }
}
