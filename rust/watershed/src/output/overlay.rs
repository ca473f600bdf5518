//! Lines that draw a solved world's rivers and lakes over its ground, for an editor to show
//! where the water goes without flying to it: each river reach from its start to its end,
//! and the lattice edges between the nodes of one lake.

use crate::ground::topology::Topology;
use crate::math::sphere;
use crate::water::world::World;
use glam::DVec3;

/// Line segments over a world's water, as pairs of points in metres from the planet's
/// centre (segment `k` runs from `[2k]` to `[2k + 1]`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Overlay {
    /// One segment per river reach, on its water surface.
    pub rivers: Vec<DVec3>,
    /// One segment per lattice edge joining two nodes of the same lake, at the lake's level.
    pub lakes: Vec<DVec3>,
}

impl Overlay {
    /// The rivers and lakes of `world`, `lift_m` metres above their water (or above the
    /// carved ground where a reach's end stands dry).
    pub fn of(world: &World, lift_m: f64) -> Self {
        let radius = world.terrain.settings.radius_m;
        let over_water = |dir: DVec3| {
            let dir = sphere::unit(dir);
            let surface = world.water().level_at(dir).unwrap_or_else(|| world.terrain.ground(dir));
            dir * (radius + surface + lift_m)
        };
        let rivers = world
            .terrain
            .carve
            .reaches
            .iter()
            .flat_map(|r| [over_water(r.start), over_water(r.end)])
            .collect();
        let lattice = &*world.terrain.lattice;
        let positions = lattice.positions();
        let lake_id = &world.terrain.drainage.lake_id;
        let mut lakes = Vec::new();
        for i in (0..lattice.len()).filter(|&i| lake_id[i] != 0) {
            let level = world.terrain.drainage.water_level_m(i);
            for j in lattice.neighbors(i).filter(|&j| j > i && lake_id[j] == lake_id[i]) {
                let at = |k: usize| positions[k] * (radius + level + lift_m);
                lakes.extend([at(i), at(j)]);
            }
        }
        Overlay { rivers, lakes }
    }
}
