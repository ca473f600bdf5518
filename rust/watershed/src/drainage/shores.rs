//! Where a lake's water reaches past its own nodes: into the cells of the nodes beside it,
//! as far as the natural ground stays under its level. The water view reads the lakes over
//! a point this way, and the carve the lakes over a channel's bank.

use super::types::{Drainage, NodeKind};
use crate::ground::surface::Surface;
use crate::ground::topology::NodeId;
use crate::math::geometry::cell_edge_towards;
use glam::DVec3;

impl Drainage {
    /// The node the lake at lake node `j` spills to; `None` for a lake without an outlet.
    pub(crate) fn lake_outlet(&self, j: usize) -> Option<usize> {
        self.lakes[self.lake_id[j] as usize - 1].outlet.receiver().map(NodeId::index)
    }

    /// The levels of the lakes at the neighbours of `node` (on `surface`) whose water
    /// reaches `p`, a point in `node`'s cell, metres: from the edge of the lake node's cell
    /// without crossing natural ground at or above the level. A lake that spills over `node`
    /// does not reach `p` on the side of `node` away from the lake (the ground falls away
    /// from the rim there). `keep` (the lake's level, the node it spills to) picks the lakes
    /// worth the walk over the ground.
    pub(crate) fn lakes_beside<'a, S: Surface>(
        &'a self,
        surface: &'a S,
        p: DVec3,
        node: usize,
        keep: impl Fn(f64, Option<usize>) -> bool + 'a,
    ) -> impl Iterator<Item = f64> + 'a {
        let at_node = surface.position(node);
        surface.neighbors(node).filter_map(move |j| {
            if self.kind[j] != NodeKind::Lake {
                return None;
            }
            let level = self.water_level_m(j);
            let outlet = self.lake_outlet(j);
            let at_j = surface.position(j);
            let over_rim = outlet == Some(node) && (p - at_node).dot(at_j - at_node) < 0.0;
            (!over_rim
                && keep(level, outlet)
                && surface.stays_under(p, cell_edge_towards(p, at_node, at_j), level))
            .then_some(level)
        })
    }
}
