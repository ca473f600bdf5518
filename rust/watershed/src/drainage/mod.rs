//! The drainage solve: every node drains to a strictly lower neighbour or is a sink.
//!
//! Generic over [`Topology`], so the sphere lattice and the D8 grid share every line:
//! priority flood from the outlets (the sea, the map edge, or the lowest node of a dry world)
//! gives each node its spill level; receivers follow the lowest strictly lower neighbour on
//! the routing surface (the fill plus an ulp ramp across flats that leads towards lower and
//! away from higher ground, so lakes route to their outlet); depressions deeper than the minimum become lakes unless their level is under the
//! sea's storm crest, which makes them bays; flow accumulates area in topological order.

mod flats;
mod flood;
pub mod grid;
mod lakes;
mod order;
mod radix;
mod rivers;
mod routing;
mod shores;
mod types;
pub(crate) mod walk;

use crate::ground::topology::Topology;
use crate::stopwatch::Stopwatch;
pub(crate) use flood::ramped_surface;
use flood::{flood, Flood};
pub(crate) use lakes::standing_water;
pub use lakes::{hollows, Hollows};
use lakes::{receivers_and_lakes, Standing};
pub(crate) use order::{order_and_catchment_into, OrderScratch};
use rivers::{accumulation, rivers, Flows, Rivers};
pub(crate) use routing::Router;
pub use routing::{route, Routing};
use std::sync::atomic::AtomicBool;
pub use types::{Drainage, DrainageParams, DrainageStats, Lake, NodeKind, Outlet};

/// Solves drainage on `topo` with ground `heights` (metres, one per node).
///
/// # Panics
/// If `heights.len() != topo.len()`.
///
/// # Complexity
/// O(N) amortised: each node moves through at most 64 buckets of the flood's radix queue,
/// in practice a few; the k nodes the queue holds at one level are sorted by index once,
/// O(k log k).
pub fn solve<T: Topology>(topo: &T, heights: &[f64], params: &DrainageParams) -> Drainage {
    solve_with_surfaces(topo, heights, params).0
}

/// The surfaces of the priority flood a [`Drainage`] was routed over (one value per node):
/// what [`solve_with_surfaces`] gives besides it, for exports and checks.
#[derive(Debug, Clone)]
pub struct FloodSurfaces {
    /// Plain priority-flood fill: the lowest level at which water leaves the node, metres.
    pub filled_m: Vec<f64>,
    /// The fill plus an ulp ramp across flats; receivers are strictly lower on it, metres.
    pub routing_m: Vec<f64>,
}

/// [`solve`], also giving the flood's fill and routing surfaces.
///
/// # Panics
/// If `heights.len() != topo.len()`.
pub fn solve_with_surfaces<T: Topology>(
    topo: &T,
    heights: &[f64],
    params: &DrainageParams,
) -> (Drainage, FloodSurfaces) {
    match solve_in_full(topo, heights, params, &AtomicBool::new(false), None) {
        Some(solved) => solved,
        None => unreachable!("nothing sets the flag"),
    }
}

/// A result of a solve that will not change again, lent out while the solve goes on: what
/// a caller can write out on the other cores meanwhile (one value per node).
#[derive(Debug, Clone, Copy)]
pub enum Settled<'a> {
    /// The plain priority-flood fill ([`FloodSurfaces::filled_m`]), metres.
    Filled(&'a [f64]),
    /// Where each node drains ([`Drainage::receivers`]).
    Receivers(&'a [Outlet]),
    /// 0 outside lakes, otherwise the lake's number ([`Drainage::lake_id`]).
    LakeIds(&'a [u32]),
    /// The area draining through each node, itself included ([`Drainage::catchment_m2`]),
    /// m².
    Catchment(&'a [f64]),
}

/// What takes each [`Settled`] result of [`solve_handing_over`], on a thread of its own.
pub type HandOver<'a> = dyn Fn(Settled<'_>) + Sync + 'a;

/// [`solve_with_surfaces`] that hands each result in [`Settled`] to `hand_over` as soon as
/// it is final, on a thread of its own, and goes on with the solve meanwhile: the fill
/// after the flood, the receivers and lake ids after the lakes, the catchments before the
/// rivers' Strahler orders and counts. Returns once every `hand_over` has returned; the
/// results are those of [`solve_with_surfaces`].
///
/// # Panics
/// If `heights.len() != topo.len()`, or if `hand_over` panics.
pub fn solve_handing_over<T: Topology>(
    topo: &T,
    heights: &[f64],
    params: &DrainageParams,
    hand_over: &HandOver<'_>,
) -> (Drainage, FloodSurfaces) {
    match solve_in_full(topo, heights, params, &AtomicBool::new(false), Some(hand_over)) {
        Some(solved) => solved,
        None => unreachable!("nothing sets the flag"),
    }
}

/// [`solve`] that gives up, returning `None`, once `cancel` is set: read between its stages
/// and every 65,536 nodes of the priority flood.
///
/// # Panics
/// If `heights.len() != topo.len()`.
pub fn solve_cancellable<T: Topology>(
    topo: &T,
    heights: &[f64],
    params: &DrainageParams,
    cancel: &AtomicBool,
) -> Option<Drainage> {
    solve_in_full(topo, heights, params, cancel, None).map(|(drainage, _)| drainage)
}

/// [`solve_cancellable`] with the flood's surfaces; each surface handed to `hand_over` (on
/// a thread of its own, while the solve goes on) once nothing changes it any more.
fn solve_in_full<T: Topology>(
    topo: &T,
    heights: &[f64],
    params: &DrainageParams,
    cancel: &AtomicBool,
    hand_over: Option<&HandOver<'_>>,
) -> Option<(Drainage, FloodSurfaces)> {
    assert_eq!(heights.len(), topo.len(), "one height per node");
    let mut clock = Stopwatch::start();
    let Flood { outlet, filled, routing } = flood(topo, heights, params, cancel)?;
    clock.lap("flood");
    let drainage = std::thread::scope(|scope| {
        if let Some(hand_over) = hand_over {
            scope.spawn(|| hand_over(Settled::Filled(&filled)));
        }
        let Standing { receivers, mut kind, lake_id, lakes, bays } =
            receivers_and_lakes(topo, heights, &filled, &routing, outlet, params, cancel, &mut clock)?;
        let (order, catchment_m2, Rivers { strahler, mouths, mut stats }) = std::thread::scope(|scope| {
            if let Some(hand_over) = hand_over {
                scope.spawn(|| hand_over(Settled::Receivers(&receivers)));
                scope.spawn(|| hand_over(Settled::LakeIds(&lake_id)));
            }
            let (order, catchment_m2) =
                accumulation(topo, &receivers, &mut kind, params, cancel, &mut clock)?;
            let rivers = std::thread::scope(|scope| {
                if let Some(hand_over) = hand_over {
                    scope.spawn(|| hand_over(Settled::Catchment(&catchment_m2)));
                }
                let flows = Flows { receivers: &receivers, order: &order, catchment_m2: &catchment_m2 };
                rivers(topo, heights, &routing, flows, &kind, params, &mut clock)
            });
            Some((order, catchment_m2, rivers))
        })?;
        (stats.lakes, stats.bays) = (lakes.len(), bays);
        Some(Drainage {
            receivers,
            catchment_m2,
            kind,
            sea_level_m: params.sea_level_m,
            lake_id,
            lakes,
            order,
            strahler,
            mouths,
            stats,
            timings_ms: clock.laps,
        })
    })?;
    Some((drainage, FloodSurfaces { filled_m: filled, routing_m: routing }))
}
