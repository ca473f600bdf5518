//! What flows: catchment areas accumulated in topological order, the nodes that are rivers
//! and the mouths, and Strahler orders.

use super::order::{order_and_catchment_into, OrderScratch};
use super::types::{DrainageParams, DrainageStats, NodeKind, Outlet};
use crate::cancel;
use crate::ground::topology::{NodeId, Topology};
use crate::stopwatch::Stopwatch;
use std::cmp::Ordering;
use std::sync::atomic::AtomicBool;

/// The order water runs in over `receivers` and the catchments summed along it, with the
/// rivers marked in `kind` (lap `accumulation` on `clock`); `None` once `cancel` is set.
pub(super) fn accumulation<T: Topology>(
    topo: &T,
    receivers: &[Outlet],
    kind: &mut [NodeKind],
    params: &DrainageParams,
    cancel: &AtomicBool,
    clock: &mut Stopwatch,
) -> Option<(Vec<u32>, Vec<f64>)> {
    if cancel::requested(cancel) {
        return None;
    }
    let (order, catchment_m2) = order_and_catchment(topo, receivers);
    if params.rivers {
        for (kind, &area) in kind.iter_mut().zip(&catchment_m2) {
            if *kind == NodeKind::Land && area >= params.river_catchment_m2 {
                *kind = NodeKind::River;
            }
        }
    }
    clock.lap("accumulation");
    Some((order, catchment_m2))
}

/// Where the water of a solve goes: receivers, the order and the catchments (m²).
#[derive(Clone, Copy)]
pub(super) struct Flows<'a> {
    pub(super) receivers: &'a [Outlet],
    pub(super) order: &'a [u32],
    pub(super) catchment_m2: &'a [f64],
}

/// What the last stage of a solve adds: Strahler orders, mouths and counts.
pub(super) struct Rivers {
    pub(super) strahler: Vec<u8>,
    pub(super) mouths: Vec<NodeId>,
    /// Every count but the lakes and bays.
    pub(super) stats: DrainageStats,
}

/// The Strahler orders, mouths and counts of a solve's `flows` (lap `rivers` on `clock`).
pub(super) fn rivers<T: Topology>(
    topo: &T,
    heights: &[f64],
    routing: &[f64],
    flows: Flows<'_>,
    kind: &[NodeKind],
    params: &DrainageParams,
    clock: &mut Stopwatch,
) -> Rivers {
    let Flows { receivers, order, catchment_m2 } = flows;
    let n = topo.len();
    let strahler = strahler(order, receivers, kind);
    let mouths: Vec<NodeId> = (0..n)
        .filter(|&i| kind[i] == NodeKind::River)
        .filter(|&i| receivers[i].receiver().is_some_and(|r| kind[r.index()] == NodeKind::Sea))
        .map(|i| NodeId(i as u32))
        .collect();
    let mut stats = DrainageStats { nodes: n, mouths: mouths.len(), ..Default::default() };
    for i in 0..n {
        match kind[i] {
            NodeKind::Sea => stats.sea += 1,
            NodeKind::Land => stats.land += 1,
            NodeKind::Lake => stats.lake += 1,
            NodeKind::River => stats.river += 1,
        }
        if let Some(r) = receivers[i].receiver() {
            if routing[r.index()] >= routing[i] {
                stats.uphill += 1;
            }
            if matches!(kind[i], NodeKind::Land | NodeKind::River) && heights[r.index()] >= heights[i] {
                stats.ground_uphill += 1;
            }
            // A catchment reaches an outlet where the receiver is one.
            if receivers[r.index()].receiver().is_none() && catchment_m2[i] > stats.largest_catchment_m2 {
                stats.largest_catchment_m2 = catchment_m2[i];
                stats.largest_catchment_nodes = (catchment_m2[i] / topo.area_m2(i)).round() as usize;
            }
        }
        if kind[i] == NodeKind::River && params.sea_level_m.is_some_and(|s| heights[i] < s) {
            stats.underwater_rivers += 1;
        }
    }
    stats.no_path = n - order.len();
    stats.max_strahler = strahler.iter().copied().max().unwrap_or(0);
    clock.lap("rivers");
    Rivers { strahler, mouths, stats }
}

/// The order and catchments of [`order_and_catchment_into`], allocated anew.
fn order_and_catchment<T: Topology>(topo: &T, receivers: &[Outlet]) -> (Vec<u32>, Vec<f64>) {
    let (mut order, mut area) = (Vec::new(), Vec::new());
    order_and_catchment_into(topo, receivers, &mut order, &mut area, &mut OrderScratch::default());
    (order, area)
}

/// Strahler order of every river node: 1 at a source, +1 where two streams of the highest
/// incoming order meet.
pub(super) fn strahler(order: &[u32], receivers: &[Outlet], kind: &[NodeKind]) -> Vec<u8> {
    let n = receivers.len();
    let mut best = vec![0u8; n];
    let mut ties = vec![0u8; n];
    let mut out = vec![0u8; n];
    for i in order.iter().map(|&i| i as usize) {
        if kind[i] != NodeKind::River {
            continue;
        }
        out[i] = match (best[i], ties[i]) {
            (0, _) => 1,
            (b, t) if t >= 2 => b.saturating_add(1),
            (b, _) => b,
        };
        if let Some(r) = receivers[i].receiver() {
            let r = r.index();
            match out[i].cmp(&best[r]) {
                Ordering::Greater => {
                    best[r] = out[i];
                    ties[r] = 1;
                }
                Ordering::Equal => ties[r] = ties[r].saturating_add(1),
                Ordering::Less => {}
            }
        }
    }
    out
}
