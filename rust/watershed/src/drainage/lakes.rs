//! Standing water: which filled depressions are lakes (deep enough, clear of the sea's storm
//! crest) and which are bays, and each node's receiver with the lakes routed to their outlets.

use super::flood::{flood, Flood};
use super::order::{order_and_catchment_into, OrderScratch};
use super::routing::receivers_on;
use super::types::{DrainageParams, Lake, NodeKind, Outlet, Terminal};
use crate::cancel;
use crate::ground::topology::Topology;
use crate::stopwatch::Stopwatch;
use std::sync::atomic::AtomicBool;

/// The standing water of a surface after its flood: the receivers, the sea, lakes and bays.
pub(super) struct Standing {
    pub(super) receivers: Vec<Outlet>,
    pub(super) kind: Vec<NodeKind>,
    pub(super) lake_id: Vec<u32>,
    pub(super) lakes: Vec<Lake>,
    pub(super) bays: usize,
}

/// The receivers over the flood's `routing` surface and the depressions of its `filled`
/// one (laps `receivers`, `lakes` on `clock`); `None` once `cancel` is set.
#[allow(clippy::too_many_arguments)]
pub(super) fn receivers_and_lakes<T: Topology>(
    topo: &T,
    heights: &[f64],
    filled: &[f64],
    routing: &[f64],
    outlet: Vec<Option<Terminal>>,
    params: &DrainageParams,
    cancel: &AtomicBool,
    clock: &mut Stopwatch,
) -> Option<Standing> {
    let mut receivers = receivers_on(topo, &outlet, routing);
    drop(outlet);
    clock.lap("receivers");
    if cancel::requested(cancel) {
        return None;
    }
    let mut kind: Vec<NodeKind> =
        receivers.iter().map(|o| if *o == Outlet::Sea { NodeKind::Sea } else { NodeKind::Land }).collect();
    let (lake_id, lakes, bays) = depressions(topo, heights, filled, &mut receivers, &mut kind, params);
    clock.lap("lakes");
    Some(Standing { receivers, kind, lake_id, lakes, bays })
}

/// What each node of `topo` is under `params` before rivers: sea, lake (or bay) or land —
/// the kinds [`solve`] gives, without its order, catchments and rivers.
///
/// # Panics
/// If `heights.len() != topo.len()`.
pub(crate) fn standing_water<T: Topology>(
    topo: &T,
    heights: &[f64],
    params: &DrainageParams,
) -> Vec<NodeKind> {
    assert_eq!(heights.len(), topo.len(), "one height per node");
    let never = AtomicBool::new(false);
    let mut clock = Stopwatch::start();
    let settled = flood(topo, heights, params, &never).and_then(|Flood { outlet, filled, routing }| {
        receivers_and_lakes(topo, heights, &filled, &routing, outlet, params, &never, &mut clock)
    });
    match settled {
        Some(settled) => settled.kind,
        None => unreachable!("nothing sets the flag"),
    }
}

/// The lakes of a surface as the solve makes them, with what drains into them, before the
/// rivers: [`hollows`] gives it.
#[derive(Debug, Clone)]
pub struct Hollows {
    /// Each node's receiver, lakes routed to their outlets.
    pub receivers: Vec<Outlet>,
    /// What each node is: sea (bays included), lake or land (no rivers yet).
    pub kind: Vec<NodeKind>,
    /// The lake of each node, 1-based (0: none), an index into `lakes` plus one.
    pub lake_id: Vec<u32>,
    /// The lakes.
    pub lakes: Vec<Lake>,
    /// The area draining through each node, itself included, m².
    pub catchment_m2: Vec<f64>,
}

/// The lakes of `heights` on `topo` under `params` and the catchments over its receivers —
/// the solve's flood, receivers, lakes and accumulation, without rivers.
///
/// # Panics
/// If `heights.len() != topo.len()`.
pub fn hollows<T: Topology>(topo: &T, heights: &[f64], params: &DrainageParams) -> Hollows {
    assert_eq!(heights.len(), topo.len(), "one height per node");
    let never = AtomicBool::new(false);
    let mut clock = Stopwatch::start();
    let standing = flood(topo, heights, params, &never).and_then(|Flood { outlet, filled, routing }| {
        receivers_and_lakes(topo, heights, &filled, &routing, outlet, params, &never, &mut clock)
    });
    let Some(Standing { receivers, kind, lake_id, lakes, .. }) = standing else {
        unreachable!("nothing sets the flag")
    };
    let (mut order, mut catchment_m2) = (Vec::new(), Vec::new());
    order_and_catchment_into(topo, &receivers, &mut order, &mut catchment_m2, &mut OrderScratch::default());
    Hollows { receivers, kind, lake_id, lakes, catchment_m2 }
}

/// Groups filled nodes into depressions, keeps the lakes and turns bays into sea.
/// Returns the lake id per node, the lakes and the number of bays.
pub(super) fn depressions<T: Topology>(
    topo: &T,
    heights: &[f64],
    filled: &[f64],
    receivers: &mut [Outlet],
    kind: &mut [NodeKind],
    params: &DrainageParams,
) -> (Vec<u32>, Vec<Lake>, usize) {
    let n = topo.len();
    let is_wet: Vec<bool> = (0..n).map(|i| filled[i] > heights[i] && kind[i] != NodeKind::Sea).collect();
    let wet = |i: usize| is_wet[i];
    let mut lake_id = vec![0u32; n];
    let mut seen = vec![false; n];
    let mut lakes = Vec::new();
    let mut bays = 0;
    let mut members = Vec::new();
    for start in 0..n {
        if seen[start] || !wet(start) {
            continue;
        }
        // One depression: connected filled nodes at the same spill level.
        members.clear();
        members.push(start);
        seen[start] = true;
        let mut k = 0;
        while k < members.len() {
            let c = members[k];
            k += 1;
            for j in topo.neighbors(c) {
                if !seen[j] && wet(j) && filled[j] == filled[c] {
                    seen[j] = true;
                    members.push(j);
                }
            }
        }
        let level = filled[start];
        let deepest = members
            .iter()
            .copied()
            .min_by(|&a, &b| heights[a].total_cmp(&heights[b]).then(a.cmp(&b)))
            .unwrap_or(start);
        let depth = level - heights[deepest];
        if !params.lakes || depth <= params.lake_min_depth_m {
            continue;
        }
        if params.sea_level_m.is_some_and(|s| level <= s + params.storm_crest_m) {
            bays += 1;
            for &m in &members {
                kind[m] = NodeKind::Sea;
                receivers[m] = Outlet::Sea;
            }
            continue;
        }
        // The outlet: follow receivers from the deepest node until they leave the lake.
        let mut at = deepest;
        let mut steps = 0;
        let outlet = loop {
            match receivers[at] {
                Outlet::Flows(r)
                    if filled[r.index()] == level && wet(r.index()) && steps <= members.len() =>
                {
                    at = r.index();
                    steps += 1;
                }
                other => break other,
            }
        };
        let id = lakes.len() as u32 + 1;
        for &m in &members {
            kind[m] = NodeKind::Lake;
            lake_id[m] = id;
        }
        lakes.push(Lake {
            level_m: level,
            depth_m: depth,
            outlet,
            nodes: members.len(),
            area_m2: members.iter().map(|&m| topo.area_m2(m)).sum(),
        });
    }
    (lake_id, lakes, bays)
}
