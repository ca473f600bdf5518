//! The still water at any point of a solved surface — the planet's or a heightmap's: the sea
//! where it covers the carved ground, else a lake or a river where its level stands above
//! it. One rule for both kinds of world.

use crate::carve::Carve;
use crate::drainage::{Drainage, NodeKind};
use crate::ground::surface::Surface;
use crate::math::geometry::{chord_fraction, segment_projection};
use crate::water::levels::{reach_contribution, Body, Water, WaterLevels, SEA_CLEARANCE_M};
use glam::DVec3;

/// A solved surface and its water table, read at points.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WaterView<'a, S: Surface> {
    /// The surface.
    pub surface: S,
    /// Its drainage.
    pub drainage: &'a Drainage,
    /// Its channels.
    pub carve: &'a Carve,
    /// Its water table.
    pub water: &'a WaterLevels,
    /// The sea's level, metres; `None` without a sea.
    pub sea_level_m: Option<f64>,
}

impl<S: Surface> WaterView<'_, S> {
    /// The still water over `p`, a point on the surface whose nearest node is `node`;
    /// `None` when dry.
    pub fn water_near(&self, p: DVec3, node: usize) -> Option<Water> {
        let natural = self.surface.natural_near(p, node);
        // The carve never raises the ground: under the sea before it, under the sea after.
        if let Some(level_m) = self.sea_level_m.filter(|&sea| natural < sea) {
            return Some(Water { level_m, body: Body::Sea });
        }
        let near = self.carve.reaches_near(node);
        let ground = self.carve.cut_near(p, natural, near);
        self.water_on(p, node, near, natural, ground)
    }

    /// The carved ground at `p` (nearest node `node`), metres, and the still water over it
    /// as [`WaterView::water_near`] gives it.
    pub fn ground_and_water_near(&self, p: DVec3, node: usize) -> (f64, Option<Water>) {
        let near = self.carve.reaches_near(node);
        let natural = self.surface.natural_near(p, node);
        let ground = self.carve.cut_near(p, natural, near);
        (ground, self.water_on(p, node, near, natural, ground))
    }

    /// The still water over carved ground `ground_m` (natural ground `natural_m`) at `p`
    /// (nearest node `node`, reaches `near`): the sea where it covers the ground, else the
    /// river or lake above it.
    fn water_on(&self, p: DVec3, node: usize, near: &[u32], natural_m: f64, ground_m: f64) -> Option<Water> {
        if let Some(level_m) = self.sea_level_m.filter(|&sea| ground_m < sea) {
            return Some(Water { level_m, body: Body::Sea });
        }
        let river = self.river_level(p, near);
        let lake = self.lake_level(p, node, near, natural_m, ground_m, river);
        water_over(ground_m, river, lake)
    }

    /// The surface a river or lake water mesh draws over `p` (nearest node `node`): the
    /// river or lake level (ignoring the sea), held [`SEA_CLEARANCE_M`] under the sea
    /// surface where the sea also covers the ground; `None` when no river or lake.
    pub fn inland_surface_near(&self, p: DVec3, node: usize) -> Option<f64> {
        let near = self.carve.reaches_near(node);
        let natural = self.surface.natural_near(p, node);
        let ground = self.carve.cut_near(p, natural, near);
        let river = self.river_level(p, near);
        let level = match (river, self.lake_level(p, node, near, natural, ground, river)) {
            (Some(r), Some(l)) => r.max(l),
            (r, l) => r.or(l)?,
        };
        match self.sea_level_m {
            Some(sea) if ground < sea => Some(level.min(sea - SEA_CLEARANCE_M)),
            _ => (level > ground).then_some(level),
        }
    }

    /// The level of a lake over `p` (nearest node `node`, natural ground `natural_m`, carved
    /// ground `ground_m` and river level `river_m` there): that node's lake; or, where the ground lies under it
    /// and no river stands higher, a lake at a neighbouring node (not past the node it
    /// spills over: down the channel leaving it, or beyond its rim) or a lake holding up a
    /// river in `near` (see [`WaterLevels::lake_held`]) whose water reaches `p` from that
    /// node's cell (over natural ground under it, see [`Drainage::lakes_beside`]) or the
    /// river's centre line without crossing higher ground.
    pub fn lake_level(
        &self,
        p: DVec3,
        node: usize,
        near: &[u32],
        natural_m: f64,
        ground_m: f64,
        river_m: Option<f64>,
    ) -> Option<f64> {
        let d = self.drainage;
        if d.kind[node] == NodeKind::Lake {
            return Some(d.water_level_m(node));
        }
        // Only a lake above both the ground and the river here can show: skip the others
        // before walking the ground between.
        let shows = |lake: f64| lake > ground_m && river_m.is_none_or(|r| lake >= r);
        // Past the node a lake spills over the water down the channel leaving it is the
        // river's (and `lakes_beside` leaves out that node's side away from the lake).
        let scale = self.surface.metres_per_unit();
        let down_outlet = |outlet: Option<usize>| {
            near.iter().map(|&id| &self.carve.reaches[id as usize]).any(|r| {
                outlet == Some(r.from.index())
                    && chord_fraction(r.start, r.end, p) > 0.0
                    && segment_projection(r.start, r.end, p).1 * scale < r.half_width_m
            })
        };
        let beside = d.lakes_beside(&self.surface, p, natural_m, node, |lake, outlet| {
            shows(lake) && !down_outlet(outlet)
        });
        near.iter()
            .filter_map(|&id| Some((&self.carve.reaches[id as usize], self.water.lake_held[id as usize]?)))
            .filter(|&(r, lake)| {
                let (t, _) = segment_projection(r.start, r.end, p);
                shows(lake) && self.surface.stays_under(p, r.chord_point(t), lake)
            })
            .map(|(_, lake)| lake)
            .chain(beside)
            .reduce(f64::max)
    }

    /// The river level at `p`: the bell-weighted average of the level profiles of the
    /// reaches in `near` whose banks reach `p` (each continued past its ends, see
    /// [`reach_contribution`]).
    pub fn river_level(&self, p: DVec3, near: &[u32]) -> Option<f64> {
        let scale = self.surface.metres_per_unit();
        let (mut sum, mut weights) = (0.0, 0.0);
        for &id in near {
            let reach = &self.carve.reaches[id as usize];
            let next = || {
                self.carve.reach_from(reach.to.index()).map(|next| {
                    (
                        &self.carve.reaches[next.0 as usize],
                        self.water.reach_levels[next.0 as usize].as_slice(),
                    )
                })
            };
            let prev = || {
                self.carve.main_reach_into(reach.from.index()).map(|prev| {
                    (
                        &self.carve.reaches[prev.0 as usize],
                        self.water.reach_levels[prev.0 as usize].as_slice(),
                    )
                })
            };
            if let Some((w, level)) =
                reach_contribution(reach, &self.water.reach_levels[id as usize], next, prev, p, scale)
            {
                sum += w * level;
                weights += w;
            }
        }
        (weights > 0.0).then(|| sum / weights)
    }
}

/// The water over carved ground `ground_m` given the river and lake levels there: the
/// higher of the two where it stands above the ground (the river where both are equal).
fn water_over(ground_m: f64, river: Option<f64>, lake: Option<f64>) -> Option<Water> {
    match (river, lake) {
        (Some(r), Some(l)) if r > l && r > ground_m => Some(Water { level_m: r, body: Body::River }),
        (_, Some(l)) if l > ground_m => Some(Water { level_m: l, body: Body::Lake }),
        (Some(r), _) if r > ground_m => Some(Water { level_m: r, body: Body::River }),
        _ => None,
    }
}
