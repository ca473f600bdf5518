//! One planet, solved: its [`Terrain`] and the [`WaterLevels`] on it, and every question a
//! game asks of them — where the water stands, how deep, how fast, how a hull floats.

use crate::cancel;
use crate::carve::terrain::Terrain;
use crate::drainage::{NodeKind, Stopwatch};
use crate::ground::topology::NodeId;
use crate::math::batch::map_nearby_together;
use crate::math::geometry::{chord_fraction, segment_projection};
use crate::math::sphere;
use crate::settings::WorldSettings;
use crate::water::levels::{
    reach_contribution, reach_weight, Body, ReachFlow, Water, WaterLevels, SEA_CLEARANCE_M,
};
use crate::water::waves::SeaState;
use glam::DVec3;
use std::ops::Deref;
use std::sync::atomic::AtomicBool;

/// How far apart the ground is read between a point and a lake's node, metres.
pub const LAKE_REACH_STEP_M: f64 = 4.0;

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

    /// The still water over direction `dir`: the sea where it covers the carved ground, else
    /// a lake or a river where its level stands above the carved ground; `None` when dry.
    pub fn water_at(&self, dir: DVec3) -> Option<Water> {
        let p = sphere::unit(dir);
        let node = self.lattice.nearest_node(p).index();
        let natural = self.planet.height_unit_near(p, node);
        let sea = Some(Water { level_m: self.settings.sea_level_m, body: Body::Sea });
        // The carve never raises the ground: under the sea before it, under the sea after.
        if self.settings.sea && natural < self.settings.sea_level_m {
            return sea;
        }
        let near = self.carve.reaches_near(&self.lattice, node);
        let ground = self.carve.cut_near(p, natural, &near);
        if self.settings.sea && ground < self.settings.sea_level_m {
            return sea;
        }
        let river = self.river_level(p, &near);
        let lake = self.lake_level(p, node, &near, ground, river);
        match (river, lake) {
            (Some(r), Some(l)) if r > l && r > ground => Some(Water { level_m: r, body: Body::River }),
            (_, Some(l)) if l > ground => Some(Water { level_m: l, body: Body::Lake }),
            (Some(r), _) if r > ground => Some(Water { level_m: r, body: Body::River }),
            _ => None,
        }
    }

    /// The level of a lake over unit direction `p` (nearest node `node`, carved ground
    /// `ground_m` and river level `river_m` there): that node's lake; or, where the ground
    /// lies under it and no river stands higher, a lake at a neighbouring node (not past the
    /// node it spills over: down the channel leaving it, or beyond its rim) or a
    /// lake holding up a river in `near` (see [`WaterLevels::lake_held`]) whose water reaches
    /// `p` from that node's cell or the river's centre line without crossing higher ground.
    fn lake_level(
        &self,
        p: DVec3,
        node: usize,
        near: &[u32],
        ground_m: f64,
        river_m: Option<f64>,
    ) -> Option<f64> {
        let d = &self.drainage;
        if d.kind[node] == NodeKind::Lake {
            return Some(d.water_level_m[node]);
        }
        // Only a lake above both the ground and the river here can show: skip the others
        // before walking the ground between.
        let shows = |lake: f64| lake > ground_m && river_m.is_none_or(|r| lake >= r);
        // Past the node a lake spills over the water is no longer the lake's: not down the
        // channel leaving it (the river's), nor on the side of that node away from the lake
        // (the ground falls away from the rim).
        let positions = self.lattice.positions();
        let past_outlet = |j: usize| {
            let Some(outlet) = d.lakes[d.lake_id[j] as usize - 1].outlet.receiver().map(NodeId::index) else {
                return false;
            };
            let over_rim = outlet == node && (p - positions[node]).dot(positions[j] - positions[node]) < 0.0;
            over_rim
                || near.iter().map(|&id| &self.carve.reaches[id as usize]).any(|r| {
                    r.from.index() == outlet
                        && chord_fraction(r.start, r.end, p) > 0.0
                        && segment_projection(r.start, r.end, p).1 * self.settings.radius_m < r.half_width_m
                })
        };
        let beside = (self.lattice.neighbor_slice(node).iter().map(|&j| j as usize))
            .filter(|&j| d.kind[j] == NodeKind::Lake && shows(d.water_level_m[j]) && !past_outlet(j))
            .filter(|&j| {
                let toward = cell_edge_towards(p, positions[node], positions[j]);
                self.under_water_between(p, toward, d.water_level_m[j])
            })
            .map(|j| d.water_level_m[j]);
        near.iter()
            .filter_map(|&id| Some((&self.carve.reaches[id as usize], self.water.lake_held[id as usize]?)))
            .filter(|&(r, lake)| {
                let (t, _) = segment_projection(r.start, r.end, p);
                shows(lake) && self.under_water_between(p, r.start + (r.end - r.start) * t, lake)
            })
            .map(|(_, lake)| lake)
            .chain(beside)
            .reduce(f64::max)
    }

    /// Whether the natural ground stays under `level_m` all the way from unit direction `p`
    /// to direction `to` (read every [`LAKE_REACH_STEP_M`], the ends excepted): water at that
    /// level at `to` reaches `p` without crossing a rim. Channels do not count: a lake's
    /// outlet is cut through its rim, but the lake stands at the rim's level.
    fn under_water_between(&self, p: DVec3, to: DVec3, level_m: f64) -> bool {
        let length_m = (to - p).length() * self.settings.radius_m;
        let steps = (length_m / LAKE_REACH_STEP_M).ceil().max(1.0) as usize;
        (1..steps).all(|k| self.planet.height(p + (to - p) * (k as f64 / steps as f64)) < level_m)
    }

    /// The river level at unit direction `p`: the bell-weighted average of the level
    /// profiles of the reaches in `near` whose banks reach `p` (each continued past its ends,
    /// see [`reach_contribution`]).
    fn river_level(&self, p: DVec3, near: &[u32]) -> Option<f64> {
        let radius = self.settings.radius_m;
        let (mut sum, mut weights) = (0.0, 0.0);
        for &id in near {
            let reach = &self.carve.reaches[id as usize];
            let next = self.carve.reach_from(reach.to.index()).map(|next| {
                (&self.carve.reaches[next.0 as usize], self.water.reach_levels[next.0 as usize].as_slice())
            });
            if let Some((w, level)) =
                reach_contribution(reach, &self.water.reach_levels[id as usize], next, p, radius)
            {
                sum += w * level;
                weights += w;
            }
        }
        (weights > 0.0).then(|| sum / weights)
    }

    /// The surface a river or lake water mesh draws over `dir`: the river or lake level
    /// (ignoring the sea), held [`SEA_CLEARANCE_M`] under the sea surface where the sea also
    /// covers the ground, so the two never draw the same pixel; `None` when no river or lake.
    pub fn inland_surface_at(&self, dir: DVec3) -> Option<f64> {
        let p = sphere::unit(dir);
        let node = self.lattice.nearest_node(p).index();
        let near = self.carve.reaches_near(&self.lattice, node);
        let ground = self.carve.cut_near(p, self.planet.height_unit_near(p, node), &near);
        let river = self.river_level(p, &near);
        let level = match (river, self.lake_level(p, node, &near, ground, river)) {
            (Some(r), Some(l)) => r.max(l),
            (r, l) => r.or(l)?,
        };
        match self.settings.sea {
            true if ground < self.settings.sea_level_m => {
                Some(level.min(self.settings.sea_level_m - SEA_CLEARANCE_M))
            }
            _ => (level > ground).then_some(level),
        }
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
        let radius = self.settings.radius_m;
        let (mut sum, mut weights) = (DVec3::ZERO, 0.0);
        for &id in self.carve.reaches_at(node) {
            let reach = &self.carve.reaches[id as usize];
            let ab = reach.end - reach.start;
            let across = segment_projection(reach.start, reach.end, dir).1 * radius;
            let w = reach_weight(across, 0.0, reach.half_width_m);
            if w > 0.0 {
                let along = sphere::unit(ab - dir * ab.dot(dir));
                sum += along * (w * self.water.reach_flows[id as usize].mean_speed_m_s());
                weights += w;
            }
        }
        if weights > 0.0 {
            sum / weights
        } else {
            DVec3::ZERO
        }
    }

    /// [`World::flow_at`] for many points, in parallel, nearby points together.
    pub fn flows_at(&self, points: &[DVec3]) -> Vec<DVec3> {
        map_nearby_together(points, |p| self.flow_at(p))
    }

    /// The flow of the reach whose channel is nearest to `dir`, if any reach's banks reach it.
    pub fn reach_flow_at(&self, dir: DVec3) -> Option<ReachFlow> {
        let p = sphere::unit(dir);
        let node = self.lattice.nearest_node(p).index();
        let radius = self.settings.radius_m;
        let mut best: Option<(f64, usize)> = None;
        for &id in self.carve.reaches_at(node) {
            let reach = &self.carve.reaches[id as usize];
            let across = segment_projection(reach.start, reach.end, p).1 * radius;
            if across < reach.half_width_m && best.is_none_or(|(d, _)| across < d) {
                best = Some((across, id as usize));
            }
        }
        best.map(|(_, id)| self.water.reach_flows[id])
    }

    /// Where a mill stands: the middle of the reach with the largest catchment (ties by the
    /// lower id) whose middle holds river water, not the sea or a lake; a unit direction,
    /// `None` on a world without such a reach.
    pub fn mill_site(&self) -> Option<DVec3> {
        let reaches = &self.carve.reaches;
        let mut ids: Vec<usize> = (0..reaches.len()).collect();
        ids.sort_by(|&a, &b| reaches[b].catchment_m2.total_cmp(&reaches[a].catchment_m2).then(a.cmp(&b)));
        ids.into_iter().map(|id| sphere::unit(reaches[id].start + reaches[id].end)).find(|&site| {
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

/// Where the line from unit direction `p` (in the cell of the node at `own`) to the node at
/// `other` crosses into that node's half: equally far from both nodes.
fn cell_edge_towards(p: DVec3, own: DVec3, other: DVec3) -> DVec3 {
    let u = other - p;
    let t = (p.distance_squared(other) - p.distance_squared(own)) / (2.0 * u.dot(other - own));
    p + u * if t.is_finite() { t.clamp(0.0, 1.0) } else { 1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cell_edge_is_equally_far_from_both_nodes() {
        let (own, other) =
            (sphere::unit(DVec3::new(0.0, 0.0, 1.0)), sphere::unit(DVec3::new(0.02, 0.0, 1.0)));
        for p in [DVec3::new(0.001, 0.003, 1.0), DVec3::new(-0.004, -0.002, 1.0), DVec3::new(0.009, 0.0, 1.0)]
        {
            let p = sphere::unit(p);
            let edge = cell_edge_towards(p, own, other);
            assert!((edge.distance(own) - edge.distance(other)).abs() < 1e-12, "{p:?} -> {edge:?}");
            assert!((edge - p).cross(other - p).length() < 1e-12, "on the line from p to the node");
        }
        // Already past the edge: the point itself.
        let past = sphere::unit(DVec3::new(0.015, 0.0, 1.0));
        assert_eq!(cell_edge_towards(past, own, other), past);
    }
}
