//! Mills: where a world's mill stands (on the river with the most water that is still a
//! river at its middle) and how fast a wheel in its flow turns.

use crate::carve::ReachId;
use crate::water::levels::Body;
use crate::water::world::World;
use glam::DVec3;

/// The mills of one world ([`World::mills`]).
#[derive(Debug, Clone, Copy)]
pub struct Mills<'a> {
    pub(crate) world: &'a World,
}

impl Mills<'_> {
    /// Where the mill stands: the middle of [`Mills::reach`], a unit direction; `None` on a
    /// world without such a reach.
    pub fn site(&self) -> Option<DVec3> {
        self.reach().map(|id| self.world.terrain.carve.reaches[id.0 as usize].middle())
    }

    /// The reach the mill stands on: the one with the largest catchment (ties by the lower
    /// id) whose middle holds river water, not the sea or a lake; `None` on a world without
    /// one.
    pub fn reach(&self) -> Option<ReachId> {
        let reaches = &self.world.terrain.carve.reaches;
        let water = self.world.water();
        let mut ids: Vec<usize> = (0..reaches.len()).collect();
        ids.sort_by(|&a, &b| reaches[b].catchment_m2.total_cmp(&reaches[a].catchment_m2).then(a.cmp(&b)));
        ids.into_iter().map(|id| ReachId(id as u32)).find(|id| {
            let site = reaches[id.0 as usize].middle();
            water.at(site).is_some_and(|w| w.body == Body::River) && water.reach_flow_at(site).is_some()
        })
    }

    /// Rate of a wheel of radius `radius_m` standing in the river at `dir` with its lowest
    /// paddle `dip_m` under the live surface, radians per second (`None` off rivers).
    pub fn rate_rad_s(&self, dir: DVec3, radius_m: f64, dip_m: f64) -> Option<f64> {
        self.world.water().reach_flow_at(dir).map(|f| f.mill_rate_rad_s(radius_m, dip_m))
    }
}
