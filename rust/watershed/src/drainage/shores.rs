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
    /// reaches `p`, a point in `node`'s cell with natural ground `natural_m`, metres: from the
    /// edge of the lake node's cell without crossing natural ground at or above the level,
    /// and over natural ground under it at `p` (a channel cut through the lake's rim is the
    /// river's). A lake that spills
    /// over `node` does not reach `p` on the side of `node` away from the lake (the ground
    /// falls away from the rim there). `keep` (the lake's level, the node it spills to)
    /// picks the lakes worth the walk over the ground.
    pub(crate) fn lakes_beside<'a, S: Surface>(
        &'a self,
        surface: &'a S,
        p: DVec3,
        natural_m: f64,
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
                && natural_m < level
                && surface.stays_under(p, cell_edge_towards(p, at_node, at_j), level))
            .then_some(level)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::drainage::NodeKind;
    use crate::ground::surface::{Surface, LAKE_REACH_STEP_M};
    use crate::ground::topology::Topology;
    use crate::testkit::{self, QUICK_WORLD};

    /// Across each dry neighbour's cell of every lake node, a lake reaches only points whose
    /// natural ground lies under its level, and it does reach some: where the ground rises
    /// over the level within a step of the lake cell's edge (too close for the walk to read
    /// it between), the point is still dry.
    #[test]
    fn a_lake_beside_reaches_only_ground_under_it() {
        let world = testkit::built(QUICK_WORLD);
        let surface = world.terrain.surface();
        let d = &world.terrain.drainage;
        let at = |i: usize| surface.position(i);
        let (mut reached, mut above_near_edge) = (0, 0);
        for j in (0..d.kind.len()).filter(|&j| d.kind[j] == NodeKind::Lake) {
            let level = d.water_level_m(j);
            for n in surface.neighbors(j).filter(|&n| d.kind[n] != NodeKind::Lake) {
                let spacing_m = surface.distance_m(j, n);
                for k in 0..=10 {
                    let t = 0.5 + 0.05 * k as f64;
                    let p = surface.onto(at(j) * (1.0 - t) + at(n) * t);
                    let natural = surface.natural_near(p, n);
                    let levels: Vec<f64> = d.lakes_beside(&surface, p, natural, n, |_, _| true).collect();
                    for &l in &levels {
                        assert!(natural < l, "node {n} at {t}: ground {natural} m under a lake at {l} m");
                    }
                    reached += usize::from(levels.contains(&level));
                    let from_edge_m = (t - 0.5) * spacing_m;
                    above_near_edge += usize::from(natural >= level && from_edge_m < LAKE_REACH_STEP_M);
                }
            }
        }
        assert!(reached > 0, "the lake reaches some dry neighbours' cells");
        assert!(above_near_edge > 0, "some cells rise over the level next to the lake");
    }
}
