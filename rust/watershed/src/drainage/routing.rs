//! Receivers: each node's lowest strictly lower neighbour on the routing surface, and the
//! router that keeps its flood buffers between the many routings of an erosion run.

use super::flood::{flood_into, Falling, FloodBuffers, Shortcuts};
use super::order::{order_and_catchment_into, OrderScratch};
use super::types::{DrainageParams, Outlet, Terminal};
use crate::ground::topology::{NodeId, Topology};
use rayon::prelude::*;
use std::sync::atomic::AtomicBool;

/// The lowest strictly lower neighbour on the routing surface, ties by index.
fn lowest_lower<T: Topology>(topo: &T, routing: &[f64], i: usize) -> Option<usize> {
    lowest_of(routing, i, topo.neighbors(i))
}

/// The lowest of `around` strictly lower than node `i` on the routing surface, ties by index.
#[inline(always)]
pub(super) fn lowest_of(routing: &[f64], i: usize, around: impl Iterator<Item = usize>) -> Option<usize> {
    // `best` is node i itself until a lower neighbour turns up. Which neighbour is lower is
    // a coin toss to the CPU, so the loop picks with an index select and reads the level
    // back, with no jump; a neighbour level with node i is never taken.
    let mut best = i;
    for j in around {
        let (z, low) = (routing[j], routing[best]);
        let better = (z < low) | ((z == low) & (j < best) & (best != i));
        best = if better { j } else { best };
    }
    (best != i).then_some(best)
}

/// [`lowest_of`] for neighbours in ascending index order, as a grid's inner cells have
/// them: the first of the lowest is the one with the lowest index, so no index is compared.
#[inline(always)]
pub(super) fn lowest_of_ascending(routing: &[f64], i: usize, around: [usize; 8]) -> Option<usize> {
    let (mut best, mut low) = (i, routing[i]);
    for j in around {
        let z = routing[j];
        (best, low) = if z < low { (j, z) } else { (best, low) };
    }
    (best != i).then_some(best)
}

/// Where water goes on a surface, without lakes or rivers: what erosion needs every step.
#[derive(Debug, Clone, Default)]
pub struct Routing {
    /// Where each node drains; depressions drain across their fill to the spill point.
    pub receivers: Vec<Outlet>,
    /// Plain priority-flood fill: the lowest level at which water leaves the node, metres.
    pub filled_m: Vec<f64>,
    /// Every node after all the nodes that drain into it (sources first, outlets last).
    pub order: Vec<u32>,
    /// Area draining through each node, itself included, m².
    pub catchment_m2: Vec<f64>,
}

/// Routes water over `heights` on `topo`: the priority flood, receivers, order and
/// accumulation of [`solve`](super::solve), without lakes, rivers or Strahler orders.
///
/// # Panics
/// If `heights.len() != topo.len()`.
pub fn route<T: Topology>(topo: &T, heights: &[f64], params: &DrainageParams) -> Routing {
    let mut router = Router::default();
    router.route(topo, heights, params);
    router.routing
}

/// Routes the same surface again and again (erosion's steps), each time into the memory
/// the last routing used: the same [`Routing`] as [`route`], without allocating it anew.
#[derive(Debug, Default)]
pub(crate) struct Router {
    routing: Routing,
    flood: FloodBuffers,
    order: OrderScratch,
}

impl Router {
    /// [`route`], into this router's memory.
    ///
    /// # Panics
    /// If `heights.len() != topo.len()`.
    pub(crate) fn route<T: Topology>(
        &mut self,
        topo: &T,
        heights: &[f64],
        params: &DrainageParams,
    ) -> &Routing {
        self.receivers(topo, heights, params, &[]);
        let Routing { receivers, order, catchment_m2, .. } = &mut self.routing;
        order_and_catchment_into(topo, receivers, order, catchment_m2, &mut self.order);
        &self.routing
    }

    /// The receivers and the fill of [`route`] alone, into this router's memory, for a
    /// caller that orders the nodes itself: (receivers, fill in metres). `last_order` is
    /// that caller's order of this router's last receivers (every node after the nodes
    /// draining into it), or empty: the flood follows them down first to find the ground
    /// that still falls.
    ///
    /// # Panics
    /// If `heights.len() != topo.len()`, or if `last_order` names a node `topo` has not.
    pub(crate) fn receivers<T: Topology>(
        &mut self,
        topo: &T,
        heights: &[f64],
        params: &DrainageParams,
        last_order: &[u32],
    ) -> (&[Outlet], &[f64]) {
        assert_eq!(heights.len(), topo.len(), "one height per node");
        let never = AtomicBool::new(false);
        let last = &self.routing.receivers;
        // Following them saves steps where most of the ground fell last time (an eroding
        // planet); where most of it lay in hollows (a rough heightmap), the walk up from the
        // outlets meets fewer nodes than the ground left in the hollows.
        let mostly_falling = 2 * self.flood.falling > topo.len();
        let falling = match last.len() == topo.len() && !last_order.is_empty() && mostly_falling {
            true => Falling::Along { receivers: last, order: last_order },
            false => Falling::Walk,
        };
        let shortcuts = Shortcuts { slopes: true, falling };
        if flood_into(topo, heights, params, 0.0, &never, shortcuts, &mut self.flood).is_none() {
            unreachable!("nothing sets the flag")
        }
        let Routing { receivers, filled_m, .. } = &mut self.routing;
        std::mem::swap(filled_m, &mut self.flood.filled);
        receivers_into(topo, &self.flood.outlet, &self.flood.routing, receivers);
        (receivers, filled_m)
    }
}

/// Each node's outlet, or its lowest strictly lower neighbour on the routing surface.
pub(super) fn receivers_on<T: Topology>(
    topo: &T,
    outlet: &[Option<Terminal>],
    routing: &[f64],
) -> Vec<Outlet> {
    let mut receivers = Vec::new();
    receivers_into(topo, outlet, routing, &mut receivers);
    receivers
}

/// [`receivers_on`] into `receivers`.
fn receivers_into<T: Topology>(
    topo: &T,
    outlet: &[Option<Terminal>],
    routing: &[f64],
    receivers: &mut Vec<Outlet>,
) {
    let flows = |lower: Option<usize>| lower.map_or(Outlet::Sink, |j| Outlet::Flows(NodeId(j as u32)));
    let n = topo.len();
    // Every node's receiver is written below: the old ones need not be cleared.
    receivers.resize(n, Outlet::Sink);
    let Some(grid) = topo.grid() else {
        receivers.par_iter_mut().enumerate().for_each(|(i, out)| {
            *out = outlet[i].map_or_else(|| flows(lowest_lower(topo, routing, i)), Outlet::from)
        });
        return;
    };
    // On a grid, inner cells reach their neighbours by index offsets: the same cells in the
    // same order.
    let w = grid.width;
    receivers.par_chunks_mut(w).enumerate().for_each(|(row, out)| {
        let (first, last) = grid.inner_columns(row);
        for col in (0..first).chain(last..w) {
            let i = row * w + col;
            out[col] = outlet[i].map_or_else(|| flows(lowest_lower(topo, routing, i)), Outlet::from);
        }
        for (col, out) in out.iter_mut().enumerate().take(last).skip(first) {
            let i = row * w + col;
            *out = outlet[i].map_or_else(
                || flows(lowest_of_ascending(routing, i, grid.inner_neighbours(i))),
                Outlet::from,
            );
        }
    });
}
