//! One planet, solved: its [`Terrain`] and the [`WaterLevels`] on it, and the water a game
//! asks about — where it stands, how deep, how fast — through [`World::water`].

use crate::carve::terrain::Terrain;
use crate::carve::Reach;
use crate::ground::surface::PlanetSurface;
use crate::math::batch::map_nearby_together;
use crate::math::geometry::segment_projection;
use crate::math::sphere;
use crate::water::levels::{mean_flow, Body, ReachFlow, Water, WaterLevels};
use crate::water::mills::Mills;
use crate::water::view::WaterView;
use glam::DVec3;

/// A world: its terrain (ground, drainage, channels) and its water table. Built by the
/// pipeline stage (`Pipeline::world`, or `World::build`).
#[derive(Debug, Clone)]
pub struct World {
    /// The ground, drainage and channels.
    pub terrain: Terrain,
    /// Every water level, computed once from the terrain.
    pub levels: WaterLevels,
    /// Wall-clock milliseconds per stage (lattice, heights, the solve's stages, carve, water).
    pub timings_ms: Vec<(&'static str, f64)>,
}

impl World {
    /// The water of this world, read at points.
    pub fn water(&self) -> WorldWater<'_> {
        WorldWater { world: self }
    }

    /// Where a mill stands on this world and how fast its wheel turns.
    pub fn mills(&self) -> Mills<'_> {
        Mills { world: self }
    }
}

/// The water of one world, read at points: the still water, its depth, its flow and the
/// live sea surface. Directions need not be unit; points are metres from the centre.
#[derive(Debug, Clone, Copy)]
pub struct WorldWater<'a> {
    world: &'a World,
}

impl<'a> WorldWater<'a> {
    /// `f` of this water at each of `points`, in parallel, nearby points together (the same
    /// bytes with any thread count and in any order): the batch form of every question here.
    pub fn each<T: Copy + Send + Sync>(
        &self,
        points: &[DVec3],
        f: impl Fn(&Self, DVec3) -> T + Sync + Send,
    ) -> Vec<T> {
        map_nearby_together(points, |p| f(self, p))
    }

    /// The still water over direction `dir`: the sea where it covers the carved ground, else
    /// a lake or a river where its level stands above the carved ground; `None` when dry.
    pub fn at(&self, dir: DVec3) -> Option<Water> {
        let p = sphere::unit(dir);
        self.view().water_near(p, self.world.terrain.lattice.nearest_node(p).index())
    }

    /// The surface a river or lake water mesh draws over `dir`: the river or lake level
    /// (ignoring the sea), held [`SEA_CLEARANCE_M`](crate::SEA_CLEARANCE_M) under the sea
    /// surface where the sea also covers the ground, so the two never draw the same pixel;
    /// `None` when no river or lake.
    pub fn inland_surface_at(&self, dir: DVec3) -> Option<f64> {
        let p = sphere::unit(dir);
        self.view().inland_surface_near(p, self.world.terrain.lattice.nearest_node(p).index())
    }

    /// Still water level over `dir`, metres above the datum, or `None` when dry.
    pub fn level_at(&self, dir: DVec3) -> Option<f64> {
        self.at(dir).map(|w| w.level_m)
    }

    /// How far `p` (metres from the planet's centre) is under the still water surface over
    /// it, metres (negative above the surface); `None` over dry ground.
    pub fn depth_at(&self, p: DVec3) -> Option<f64> {
        let height = p.length() - self.world.terrain.settings.radius_m;
        self.level_at(p).map(|level| level - height)
    }

    /// Whether `p` (metres from the planet's centre) is under still water.
    pub fn is_underwater(&self, p: DVec3) -> bool {
        self.depth_at(p).is_some_and(|d| d > 0.0)
    }

    /// Water velocity at `p` (metres from the planet's centre), m/s along the stream: the
    /// bell-weighted average of the nearby reaches' mean flow; zero outside rivers.
    pub fn flow_at(&self, p: DVec3) -> DVec3 {
        let dir = sphere::unit(p);
        if self.at(dir).is_none_or(|w| w.body != Body::River) {
            return DVec3::ZERO;
        }
        let terrain = &self.world.terrain;
        let node = terrain.lattice.nearest_node(dir).index();
        let along = |reach: &Reach| reach.along_at(dir);
        let ids = terrain.carve.reaches_at(node);
        let flows = &self.world.levels.reach_flows;
        mean_flow(&terrain.carve.reaches, flows, ids, dir, terrain.settings.radius_m, along)
    }

    /// The flow of the reach whose channel is nearest to `dir`, if any reach's banks reach it.
    pub fn reach_flow_at(&self, dir: DVec3) -> Option<ReachFlow> {
        self.nearest_channel(dir).map(|(id, _)| self.world.levels.reach_flows[id])
    }

    /// How deep `p` (metres from the planet's centre) is under the live water at time `t`
    /// (seconds): the sea's moving surface where the sea covers, the still river or lake
    /// level elsewhere. Negative above the surface; `None` over dry ground.
    pub fn submersion_at(&self, p: DVec3, t: f64) -> Option<f64> {
        let height = p.length() - self.world.terrain.settings.radius_m;
        let water = self.at(p)?;
        let surface = match (&self.world.levels.sea, water.body) {
            (Some(sea), Body::Sea) => sea.surface_height_m(p, t),
            _ => water.level_m,
        };
        Some(surface - height)
    }

    /// From `dir` to the nearest point of the centre line of the nearest river channel that
    /// holds it, along the ground, metres; `None` off the rivers.
    pub fn channel_offset(&self, dir: DVec3) -> Option<DVec3> {
        let dir = sphere::unit(dir);
        let (id, along) = self.nearest_channel(dir)?;
        let off = self.world.terrain.carve.reaches[id].point_at(along) - dir;
        Some((off - dir * off.dot(dir)) * self.world.terrain.settings.radius_m)
    }

    /// The reach whose channel is nearest to `dir` among those whose banks reach it (ties:
    /// the first at `dir`'s nearest node), and where along its centre line `dir` lies (0 at
    /// its start, 1 at its end).
    pub(crate) fn nearest_channel(&self, dir: DVec3) -> Option<(usize, f64)> {
        let terrain = &self.world.terrain;
        let p = sphere::unit(dir);
        let node = terrain.lattice.nearest_node(p).index();
        let radius = terrain.settings.radius_m;
        let mut best: Option<(f64, usize, f64)> = None;
        for &id in terrain.carve.reaches_at(node) {
            let reach = &terrain.carve.reaches[id as usize];
            let (along, across) = segment_projection(reach.start, reach.end, p);
            let across = across * radius;
            if across < reach.half_width_m && best.is_none_or(|(d, _, _)| across < d) {
                best = Some((across, id as usize, along));
            }
        }
        best.map(|(_, id, along)| (id, along))
    }

    /// The water read at any point of this world's surface, by the rule heightmaps share.
    pub(crate) fn view(&self) -> WaterView<'a, PlanetSurface<'a>> {
        let terrain = &self.world.terrain;
        WaterView {
            surface: terrain.surface(),
            drainage: &terrain.drainage,
            carve: &terrain.carve,
            water: &self.world.levels,
            sea_level_m: terrain.settings.sea.then_some(terrain.settings.sea_level_m),
        }
    }
}
