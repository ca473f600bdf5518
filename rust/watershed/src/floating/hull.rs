//! Floating bodies: one buoyancy model for every crate, barrel and boat, in the Godot demo
//! and in the CLI probe alike.
//!
//! A body is sampled at points (a crate at the centres of its eight octants); each stands
//! for an equal share of its volume, as a column `column_m` tall centred on the point. A
//! column is wet from the moment the water reaches its foot to fully under, so an upright
//! box on still water displaces exactly the volume under the surface, and the body floats
//! where its weight equals the water it displaces. Drag opposes the body's velocity relative to the
//! water's own flow, so a body in a river drifts downstream.

use crate::water::waves::GRAVITY_M_S2 as GRAVITY;
use crate::water::world::World;
use glam::DVec3;
use rayon::prelude::*;

/// Density of water, kg/m³.
pub const WATER_DENSITY: f64 = 1000.0;

/// How a floating body meets the water.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Hull {
    /// The body's volume, m³ (a 1 m crate: 1).
    pub volume_m3: f64,
    /// Height of the column each sample point stands for, metres (a 1 m crate: 1).
    pub column_m: f64,
    /// Drag of the whole body fully under water, newtons per m/s of velocity relative to
    /// the water.
    pub drag_n_s_per_m: f64,
}

impl Hull {
    /// A box of `size_m` (x, y up, z; metres) sampled at [`Hull::cuboid_samples`].
    pub fn cuboid(size_m: DVec3, drag_n_s_per_m: f64) -> Self {
        Hull { volume_m3: size_m.x * size_m.y * size_m.z, column_m: size_m.y / 2.0, drag_n_s_per_m }
    }

    /// The centres of a box's eight octants, in the box's frame (metres from its centre).
    pub fn cuboid_samples(size_m: DVec3) -> [DVec3; 8] {
        std::array::from_fn(|i| {
            let side = |bit: usize| if i >> bit & 1 == 1 { 0.25 } else { -0.25 };
            DVec3::new(side(0), side(1), side(2)) * size_m
        })
    }

    /// The wet fraction (0..=1) of a column whose centre is `depth_m` under the surface
    /// (negative above it).
    pub fn wet_fraction(&self, depth_m: f64) -> f64 {
        (depth_m / self.column_m + 0.5).clamp(0.0, 1.0)
    }

    /// The force on one of `count` sample points, newtons: lift along `up` (unit, away from
    /// the planet's centre) and drag against `relative_velocity` (body minus water, m/s),
    /// both scaled by the point's wet fraction at `depth_m`.
    pub fn force(&self, depth_m: f64, count: usize, up: DVec3, relative_velocity: DVec3) -> DVec3 {
        let share = 1.0 / count.max(1) as f64;
        let wet = self.wet_fraction(depth_m);
        let lift = WATER_DENSITY * GRAVITY * self.volume_m3 * share * wet;
        up * lift - relative_velocity * (self.drag_n_s_per_m * share * wet)
    }
}

impl Hull {
    /// The force of `world`'s water on each sample point of this hull, floating, at time `t`
    /// (seconds), newtons in the planet's frame: `points` are metres from the planet's
    /// centre, `velocity` is the body's, m/s. Zero over dry ground and above the water.
    pub fn forces(&self, world: &World, points: &[DVec3], velocity: DVec3, t: f64) -> Vec<DVec3> {
        let water = world.water();
        let depths = water.each(points, |w, p| w.submersion_at(p, t));
        points
            .par_iter()
            .zip(depths)
            .map(|(&p, depth)| match depth {
                Some(d) => self.force(d, points.len(), p.normalize_or_zero(), velocity - water.flow_at(p)),
                None => DVec3::ZERO,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An upright box on still water: the lift is the weight of exactly the water under the
    /// surface, from just touching to fully under.
    #[test]
    fn a_box_displaces_the_volume_under_the_surface() {
        let size = DVec3::new(2.0, 1.0, 3.0);
        let hull = Hull::cuboid(size, 0.0);
        for sunk in [0.0, 0.1, 0.25, 0.5, 0.8, 1.0] {
            // The box's centre stands `0.5 - sunk` over the water.
            let lift: f64 = Hull::cuboid_samples(size)
                .iter()
                .map(|s| hull.force(sunk - 0.5 - s.y, 8, DVec3::Y, DVec3::ZERO).y)
                .sum();
            let expected = WATER_DENSITY * GRAVITY * size.x * size.z * sunk;
            assert!((lift - expected).abs() < 1e-9 * expected.max(1.0), "sunk {sunk}: {lift} vs {expected}");
        }
    }

    #[test]
    fn drag_opposes_the_motion_through_the_water_only_where_wet() {
        let hull = Hull::cuboid(DVec3::ONE, 800.0);
        let v = DVec3::new(2.0, 0.0, 0.0);
        assert_eq!(hull.force(1.0, 4, DVec3::Y, v).x, -800.0 * 2.0 / 4.0);
        assert_eq!(hull.force(-1.0, 4, DVec3::Y, v), DVec3::ZERO);
    }
}
