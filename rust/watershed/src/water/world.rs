//! One planet, solved: its [`Terrain`] and the [`WaterLevels`] on it, and every question a
//! game asks of them — where the water stands, how deep, how fast, how a hull floats.

use crate::cancel;
use crate::carve::terrain::Terrain;
use crate::carve::{Reach, ReachId};
use crate::ground::surface::PlanetSurface;
use crate::math::batch::map_nearby_together;
use crate::math::geometry::segment_projection;
use crate::math::sphere;
use crate::settings::WorldSettings;
use crate::stopwatch::Stopwatch;
use crate::water::levels::{mean_flow, Body, ReachFlow, Water, WaterLevels};
use crate::water::view::WaterView;
use crate::water::waves::SeaState;
use glam::DVec3;
use std::ops::Deref;
use std::sync::atomic::AtomicBool;

/// A world: its terrain (ground, drainage, channels; its fields read through `world.`) and
/// its water table.
#[derive(Debug, Clone)]
pub struct World {
    /// The ground, drainage and channels.
    pub terrain: Terrain,
    /// Every water level, computed once from the terrain.
    pub water: WaterLevels,
    /// Wall-clock milliseconds per stage (lattice, heights, the solve's stages, carve, water).
    pub timings_ms: Vec<(&'static str, f64)>,
}

impl Deref for World {
    type Target = Terrain;

    fn deref(&self) -> &Terrain {
        &self.terrain
    }
}

impl World {
    /// Builds the lattice, evaluates the ground at every node, solves the drainage, cuts
    /// the channels and computes the water table.
    pub fn build(settings: &WorldSettings) -> Self {
        Self::build_with_progress(settings, &|_, _| {})
    }

    /// [`World::build`], calling `progress(stage, fraction done)` after each stage (from the
    /// calling thread; stages: lattice, heights, drainage, carve, water).
    pub fn build_with_progress(
        settings: &WorldSettings,
        progress: &(dyn Fn(&'static str, f64) + Sync),
    ) -> Self {
        let never = AtomicBool::new(false);
        match Self::build_cancellable(settings, progress, &never) {
            Some(world) => world,
            None => unreachable!("nothing sets the flag"),
        }
    }

    /// [`World::build_with_progress`] that gives up, returning `None`, soon after `cancel`
    /// is set: it is read between stages and every 65,536 nodes inside the lattice, height
    /// and flood loops, so a superseded build stops within a fraction of a stage.
    pub fn build_cancellable(
        settings: &WorldSettings,
        progress: &(dyn Fn(&'static str, f64) + Sync),
        cancel: &AtomicBool,
    ) -> Option<Self> {
        let mut clock = Stopwatch::start();
        let storm_crest_m = SeaState::for_world(settings).storm_crest_m();
        let terrain = Terrain::build_cancellable(settings, storm_crest_m, progress, cancel, &mut clock)?;
        if cancel::requested(cancel) {
            return None;
        }
        let water = WaterLevels::build(&terrain);
        clock.lap("water");
        progress("water", 1.0);
        Some(World { terrain, water, timings_ms: clock.laps })
    }

    /// The water read at any point of this world's surface.
    pub(crate) fn view(&self) -> WaterView<'_, PlanetSurface<'_>> {
        WaterView {
            surface: self.surface(),
            drainage: &self.drainage,
            carve: &self.carve,
            water: &self.water,
            sea_level_m: self.settings.sea.then_some(self.settings.sea_level_m),
        }
    }

    /// The still water over direction `dir`: the sea where it covers the carved ground, else
    /// a lake or a river where its level stands above the carved ground; `None` when dry.
    pub fn water_at(&self, dir: DVec3) -> Option<Water> {
        let p = sphere::unit(dir);
        self.view().water_near(p, self.lattice.nearest_node(p).index())
    }

    /// The surface a river or lake water mesh draws over `dir`: the river or lake level
    /// (ignoring the sea), held [`SEA_CLEARANCE_M`](crate::SEA_CLEARANCE_M) under the sea surface where the sea also
    /// covers the ground, so the two never draw the same pixel; `None` when no river or lake.
    pub fn inland_surface_at(&self, dir: DVec3) -> Option<f64> {
        let p = sphere::unit(dir);
        self.view().inland_surface_near(p, self.lattice.nearest_node(p).index())
    }

    /// Still water level over `dir`, metres above the datum, or `None` when dry.
    pub fn level_at(&self, dir: DVec3) -> Option<f64> {
        self.water_at(dir).map(|w| w.level_m)
    }

    /// Still water levels for many directions, in parallel, nearby directions together
    /// (same bytes with any thread count and in any order).
    pub fn levels_at(&self, dirs: &[DVec3]) -> Vec<Option<f64>> {
        map_nearby_together(dirs, |d| self.level_at(d))
    }

    /// How far `p` (metres from the planet's centre) is under the still water surface over
    /// it, metres (negative above the surface); `None` over dry ground.
    pub fn depth_at(&self, p: DVec3) -> Option<f64> {
        let height = p.length() - self.settings.radius_m;
        self.level_at(p).map(|level| level - height)
    }

    /// [`World::depth_at`] for many points, in parallel, nearby points together.
    pub fn depths_at(&self, points: &[DVec3]) -> Vec<Option<f64>> {
        map_nearby_together(points, |p| self.depth_at(p))
    }

    /// Whether `p` is under still water.
    pub fn is_underwater(&self, p: DVec3) -> bool {
        self.depth_at(p).is_some_and(|d| d > 0.0)
    }

    /// [`World::is_underwater`] for many points, in parallel, nearby points together.
    pub fn are_underwater(&self, points: &[DVec3]) -> Vec<bool> {
        map_nearby_together(points, |p| self.is_underwater(p))
    }

    /// Water velocity at `p` (metres from the planet's centre), m/s along the stream: the
    /// bell-weighted average of the nearby reaches' mean flow; zero outside rivers.
    pub fn flow_at(&self, p: DVec3) -> DVec3 {
        let dir = sphere::unit(p);
        if self.water_at(dir).is_none_or(|w| w.body != Body::River) {
            return DVec3::ZERO;
        }
        let node = self.lattice.nearest_node(dir).index();
        let along = |reach: &Reach| {
            let ab = reach.end - reach.start;
            sphere::unit(ab - dir * ab.dot(dir))
        };
        let ids = self.carve.reaches_at(node);
        mean_flow(&self.carve.reaches, &self.water.reach_flows, ids, dir, self.settings.radius_m, along)
    }

    /// [`World::flow_at`] for many points, in parallel, nearby points together.
    pub fn flows_at(&self, points: &[DVec3]) -> Vec<DVec3> {
        map_nearby_together(points, |p| self.flow_at(p))
    }

    /// The flow of the reach whose channel is nearest to `dir`, if any reach's banks reach it.
    pub fn reach_flow_at(&self, dir: DVec3) -> Option<ReachFlow> {
        self.nearest_channel(dir).map(|(id, _)| self.water.reach_flows[id])
    }

    /// The reach whose channel is nearest to `dir` among those whose banks reach it (ties:
    /// the first at `dir`'s nearest node), and where along its centre line `dir` lies (0 at
    /// its start, 1 at its end).
    pub(crate) fn nearest_channel(&self, dir: DVec3) -> Option<(usize, f64)> {
        let p = sphere::unit(dir);
        let node = self.lattice.nearest_node(p).index();
        let radius = self.settings.radius_m;
        let mut best: Option<(f64, usize, f64)> = None;
        for &id in self.carve.reaches_at(node) {
            let reach = &self.carve.reaches[id as usize];
            let (along, across) = segment_projection(reach.start, reach.end, p);
            let across = across * radius;
            if across < reach.half_width_m && best.is_none_or(|(d, _, _)| across < d) {
                best = Some((across, id as usize, along));
            }
        }
        best.map(|(_, id, along)| (id, along))
    }

    /// Where a mill stands: the middle of [`World::mill_reach`], a unit direction; `None` on
    /// a world without such a reach.
    pub fn mill_site(&self) -> Option<DVec3> {
        self.mill_reach().map(|id| middle(&self.carve.reaches[id.0 as usize]))
    }

    /// The reach a mill stands on: the one with the largest catchment (ties by the lower id)
    /// whose middle holds river water, not the sea or a lake; `None` on a world without one.
    pub fn mill_reach(&self) -> Option<ReachId> {
        let reaches = &self.carve.reaches;
        let mut ids: Vec<usize> = (0..reaches.len()).collect();
        ids.sort_by(|&a, &b| reaches[b].catchment_m2.total_cmp(&reaches[a].catchment_m2).then(a.cmp(&b)));
        ids.into_iter().map(|id| ReachId(id as u32)).find(|id| {
            let site = middle(&reaches[id.0 as usize]);
            self.water_at(site).is_some_and(|w| w.body == Body::River) && self.reach_flow_at(site).is_some()
        })
    }

    /// Rate of a mill wheel of radius `radius_m` standing in the river at `dir` with its
    /// lowest paddle `dip_m` under the live surface, radians per second (`None` off rivers).
    pub fn mill_rate_rad_s(&self, dir: DVec3, radius_m: f64, dip_m: f64) -> Option<f64> {
        self.reach_flow_at(dir).map(|f| f.mill_rate_rad_s(radius_m, dip_m))
    }

    /// How deep each hull point (metres from the planet's centre) is under the live water at
    /// time `t` (seconds): the sea's moving surface where the sea covers, the still river or
    /// lake level elsewhere. Negative above the surface; `None` over dry ground.
    pub fn submersion(&self, points: &[DVec3], t: f64) -> Vec<Option<f64>> {
        map_nearby_together(points, |p| {
            let height = p.length() - self.settings.radius_m;
            let water = self.water_at(p)?;
            let surface = match (&self.water.sea, water.body) {
                (Some(sea), Body::Sea) => sea.surface_height_m(p, t),
                _ => water.level_m,
            };
            Some(surface - height)
        })
    }
}

/// The unit direction halfway along `reach`'s chord: where a mill stands on it.
fn middle(reach: &Reach) -> DVec3 {
    sphere::unit(reach.start + reach.end)
}
