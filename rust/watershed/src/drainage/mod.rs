//! The drainage solve: every node drains to a strictly lower neighbour or is a sink.
//!
//! Generic over [`Topology`], so the sphere lattice and the D8 grid share every line:
//! priority flood from the outlets (the sea, the map edge, or the lowest node of a dry world)
//! gives each node its spill level; receivers follow the lowest strictly lower neighbour on
//! the routing surface (the fill plus an ulp ramp across flats, so lakes route to their
//! outlet); depressions deeper than the minimum become lakes unless their level is under the
//! sea's storm crest, which makes them bays; flow accumulates area in topological order.

pub mod grid;
mod order;
mod radix;

use crate::cancel;
use crate::ground::topology::{NodeId, Topology};
use crate::settings::WorldSettings;
pub(crate) use order::{order_and_catchment_into, OrderScratch};
use radix::RadixHeap;
use rayon::prelude::*;
use std::cmp::Ordering;
use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;

/// Where a node's water goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outlet {
    /// The node is sea: its water has arrived.
    Sea,
    /// The node is on the map edge of a grid and water leaves the map there.
    Edge,
    /// The node is a terminal sink (the lowest node of a world without sea or edge).
    Sink,
    /// The node drains to this strictly lower neighbour.
    Flows(NodeId),
}

impl Outlet {
    /// The receiving node, if the water flows on.
    pub fn receiver(self) -> Option<NodeId> {
        match self {
            Outlet::Flows(n) => Some(n),
            _ => None,
        }
    }

    /// The receiving node's index, -1 where the water stops (sea, edge, sink): the form
    /// file formats and engines take.
    pub fn receiver_index(self) -> i64 {
        self.receiver().map_or(-1, |n| i64::from(n.0))
    }
}

/// Where the water of an outlet node stops: the [`Outlet`]s that are not a flow, one byte a
/// node where the flood marks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Terminal {
    Sea,
    Edge,
    Sink,
}

impl From<Terminal> for Outlet {
    fn from(terminal: Terminal) -> Self {
        match terminal {
            Terminal::Sea => Outlet::Sea,
            Terminal::Edge => Outlet::Edge,
            Terminal::Sink => Outlet::Sink,
        }
    }
}

/// What a node is, as the export's `kind.npy` codes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum NodeKind {
    /// Dry ground that carries no river.
    Land = 0,
    /// Under the sea (or a bay that joined it).
    Sea = 1,
    /// Standing water at a lake's level.
    Lake = 2,
    /// Land whose catchment passes the river threshold.
    River = 3,
}

/// What the solve needs to know about the water, in the heights' units (metres).
#[derive(Debug, Clone, PartialEq)]
pub struct DrainageParams {
    /// Nodes strictly under this level are sea; `None` for a world without a sea.
    pub sea_level_m: Option<f64>,
    /// The highest the sea can stand above its level; lakes under it are bays.
    pub storm_crest_m: f64,
    /// Whether depressions hold lakes.
    pub lakes: bool,
    /// A depression is a lake when it is filled by more than this, metres.
    pub lake_min_depth_m: f64,
    /// Whether rivers form.
    pub rivers: bool,
    /// Catchment from which a land node is river, m².
    pub river_catchment_m2: f64,
    /// Whether edge nodes of a grid are outlets.
    pub edge_outlets: bool,
}

impl DrainageParams {
    /// The parameters a world's settings give (sea, lakes, rivers, thresholds), with the
    /// sea's storm crest in metres above its level from the caller (the sea's waves are a
    /// later stage: `SeaState::storm_crest_m`).
    /// Outlets only, for routing water over a surface (erosion, heightmaps): the sea below
    /// `sea_level_m` (if any) and, with `edge_outlets`, the map edge; every depression counts
    /// as a lake, no rivers are marked.
    pub fn outlets(sea_level_m: Option<f64>, edge_outlets: bool) -> Self {
        DrainageParams {
            sea_level_m,
            storm_crest_m: 0.0,
            lakes: true,
            lake_min_depth_m: 0.0,
            rivers: false,
            river_catchment_m2: f64::INFINITY,
            edge_outlets,
        }
    }

    /// The drainage of a world's lattice under `settings`, with the sea's storm crest.
    pub fn for_world(settings: &WorldSettings, storm_crest_m: f64) -> Self {
        DrainageParams {
            sea_level_m: settings.sea.then_some(settings.sea_level_m),
            storm_crest_m,
            lakes: settings.lakes,
            lake_min_depth_m: settings.lake_min_depth_m,
            rivers: settings.rivers,
            river_catchment_m2: settings.river_catchment_m2,
            edge_outlets: false,
        }
    }
}

/// One lake: a depression deeper than the minimum whose level stands clear of the sea.
#[derive(Debug, Clone, PartialEq)]
pub struct Lake {
    /// Water level (the spill level), metres.
    pub level_m: f64,
    /// Level minus the lowest ground under the lake, metres.
    pub depth_m: f64,
    /// The node outside the lake its water spills to.
    pub outlet: Outlet,
    /// Number of nodes under the lake.
    pub nodes: usize,
    /// Surface area, m².
    pub area_m2: f64,
}

/// Counts for reports and the invariant tests.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DrainageStats {
    /// Nodes in the solve.
    pub nodes: usize,
    /// Sea nodes (bays included).
    pub sea: usize,
    /// Dry land nodes that are not river.
    pub land: usize,
    /// Lake nodes.
    pub lake: usize,
    /// River nodes.
    pub river: usize,
    /// Lakes.
    pub lakes: usize,
    /// Depressions that would be lakes but sit under the storm crest, joined to the sea.
    pub bays: usize,
    /// River nodes that drain into the sea.
    pub mouths: usize,
    /// Highest Strahler order of any river node.
    pub max_strahler: u8,
    /// Largest catchment that reaches an outlet, m² (and in nodes' worth of area).
    pub largest_catchment_m2: f64,
    /// Nodes whose area makes up the largest catchment.
    pub largest_catchment_nodes: usize,
    /// Invariant (0): land nodes whose receiver is not strictly lower on the routing surface.
    pub uphill: usize,
    /// Invariant (0): land nodes from which no path of receivers reaches an outlet.
    pub no_path: usize,
    /// Invariant (0): river nodes under the sea surface.
    pub underwater_rivers: usize,
    /// Dry nodes (land and river) whose receiver stands at or above them on the ground
    /// itself, not only on the routing surface: hollows and flats nothing filled (0 on a
    /// settled world with lakes).
    pub ground_uphill: usize,
}

/// The solved drainage of one surface.
#[derive(Debug, Clone)]
pub struct Drainage {
    /// Where each node drains.
    pub receivers: Vec<Outlet>,
    /// Catchment area draining through each node, itself included, m².
    pub catchment_m2: Vec<f64>,
    /// What each node is.
    pub kind: Vec<NodeKind>,
    /// The sea level the solve drained to, metres (`None`: no sea).
    pub sea_level_m: Option<f64>,
    /// 0 outside lakes, otherwise 1 + the index into `lakes`.
    pub lake_id: Vec<u32>,
    /// The lakes, ordered by their lowest node index.
    pub lakes: Vec<Lake>,
    /// Every node ordered after all the nodes that drain into it (sources first, outlets
    /// last); a node on a receiver cycle would be left out (`stats.no_path` counts them).
    pub order: Vec<u32>,
    /// Strahler order of river nodes (0 elsewhere).
    pub strahler: Vec<u8>,
    /// River nodes that drain into the sea, ascending.
    pub mouths: Vec<NodeId>,
    /// Counts and invariants.
    pub stats: DrainageStats,
    /// Wall-clock milliseconds per stage of the solve, in order (not part of any digest).
    pub timings_ms: Vec<(&'static str, f64)>,
}

impl Drainage {
    /// Standing water level at `node`, metres: the sea level on sea nodes, the lake's level
    /// on lake nodes, NaN elsewhere (rivers get their levels from the water table).
    pub fn water_level_m(&self, node: usize) -> f64 {
        match self.kind[node] {
            NodeKind::Sea => self.sea_level_m.unwrap_or(f64::NAN),
            NodeKind::Lake => {
                let lake = (self.lake_id[node] as usize).checked_sub(1).and_then(|k| self.lakes.get(k));
                lake.map_or(f64::NAN, |lake| lake.level_m)
            }
            NodeKind::Land | NodeKind::River => f64::NAN,
        }
    }

    /// [`Drainage::water_level_m`] of every node in index order, metres.
    pub fn water_levels_m(&self) -> impl ExactSizeIterator<Item = f64> + '_ {
        (0..self.kind.len()).map(|i| self.water_level_m(i))
    }

    /// Every node's receiver as a flat index, -1 where the water stops (sea, edge, sink):
    /// the form file formats and engines take.
    pub fn receiver_indices(&self) -> Vec<i64> {
        self.receiver_indices_iter().collect()
    }

    /// [`Drainage::receiver_indices`] one at a time, for writers that stream them.
    pub fn receiver_indices_iter(&self) -> impl ExactSizeIterator<Item = i64> + '_ {
        self.receivers.iter().map(|r| r.receiver_index())
    }
}

/// An unsigned integer that sorts like `x` under [`f64::total_cmp`].
#[inline]
fn level_key(x: f64) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

/// The solve's result before lakes and rivers: outlets, fill and routing surface.
struct Flood {
    outlet: Vec<Option<Terminal>>,
    filled: Vec<f64>,
    routing: Vec<f64>,
}

/// Priority flood (Barnes et al. 2014, with the ulp ramp) from the outlet nodes; `None` once
/// `cancel` is set (read every [`CHECK_EVERY`](cancel::CHECK_EVERY) nodes).
fn flood<T: Topology>(
    topo: &T,
    heights: &[f64],
    params: &DrainageParams,
    cancel: &AtomicBool,
) -> Option<Flood> {
    flood_ramped(topo, heights, params, 0.0, cancel)
}

/// Every node raised to at least `ramp_m` (metres; 0: one ulp) above the neighbour it drains
/// to, where it is not already higher: the priority flood's routing surface with a ramp a
/// walker can stand on. Sea and edge outlets keep their height.
pub(crate) fn ramped_surface<T: Topology>(
    topo: &T,
    heights: &[f64],
    params: &DrainageParams,
    ramp_m: f64,
) -> Vec<f64> {
    match flood_ramped(topo, heights, params, ramp_m, &AtomicBool::new(false)) {
        Some(flood) => flood.routing,
        None => unreachable!("nothing sets the flag"),
    }
}

/// [`flood`] with the ramp across flats and pits `ramp_m` metres per node (0: one ulp).
fn flood_ramped<T: Topology>(
    topo: &T,
    heights: &[f64],
    params: &DrainageParams,
    ramp_m: f64,
    cancel: &AtomicBool,
) -> Option<Flood> {
    let mut buffers = FloodBuffers::default();
    flood_into(topo, heights, params, ramp_m, cancel, Shortcuts::BOTH, &mut buffers)?;
    let FloodBuffers { outlet, filled, routing, .. } = buffers;
    Some(Flood { outlet, filled, routing })
}

/// Which of the flood's shortcuts to take (each gives the queue's own result, bit for bit).
#[derive(Debug, Clone, Copy)]
struct Shortcuts<'a> {
    /// Cells on a slope are taken at once instead of through the queue.
    slopes: bool,
    /// Whether nodes with a strictly falling path to an outlet start closed, and how they are
    /// found. The queue's own result with the ulp ramp (`ramp_m` 0), unless a whole falling
    /// path lies within a pit's few ulps of climb above its spill level. With a ramp in
    /// metres the queue alone lets a filled hollow's ramp climb over ground that already
    /// falls to an outlet, and on into the next hollow; here that ground keeps its height, as
    /// ground outside every hollow should, and every other node still drains to a strictly
    /// lower one.
    falling: Falling<'a>,
}

impl Shortcuts<'_> {
    /// Every shortcut, the falling nodes found by a walk: what a flood without an earlier
    /// drainage of its surface takes.
    const BOTH: Shortcuts<'static> = Shortcuts { slopes: true, falling: Falling::Walk };
}

/// How a flood finds the nodes with a strictly falling path to an outlet (the same nodes
/// every way).
#[derive(Debug, Clone, Copy)]
enum Falling<'a> {
    /// It does not: the queue floods them like any other node (what the tests compare the
    /// shortcuts with).
    #[cfg(test)]
    No,
    /// A walk up every strictly rising path from the outlets.
    Walk,
    /// Down an earlier drainage of the same surface first (`receivers`: each node's
    /// neighbour it drained to, or none; `order`: every node after the nodes draining into
    /// it), then a walk up from what that reached: far fewer steps where most of the
    /// earlier falls still fall, as from one erosion step to the next.
    Along { receivers: &'a [Outlet], order: &'a [u32] },
}

/// What a flood writes and works in, kept from one flood to the next of a surface of the
/// same size (erosion floods it every step) so no step allocates them again.
#[derive(Debug, Default)]
struct FloodBuffers {
    outlet: Vec<Option<Terminal>>,
    filled: Vec<f64>,
    routing: Vec<f64>,
    closed: Vec<bool>,
    stack: Vec<u32>,
    rims: Vec<u32>,
    pit: VecDeque<usize>,
    slope: Vec<usize>,
    /// Nodes the last flood found with a strictly falling path to an outlet (the outlets
    /// among them), when it looked for them.
    falling: usize,
}

/// The priority flood, with the `shortcuts` chosen (the queue alone with neither), into
/// `buffers`: their outlets, fill and routing surface are the flood's once it returns
/// `Some`.
fn flood_into<T: Topology>(
    topo: &T,
    heights: &[f64],
    params: &DrainageParams,
    ramp_m: f64,
    cancel: &AtomicBool,
    shortcuts: Shortcuts,
    buffers: &mut FloodBuffers,
) -> Option<()> {
    let above = |level: f64| (level + ramp_m).max(level.next_up());
    let n = topo.len();
    let FloodBuffers { outlet, filled, routing, closed, stack, rims, pit, slope, falling } = buffers;
    outlet.clear();
    outlet
        .extend(heights.iter().map(|&h| params.sea_level_m.is_some_and(|s| h < s).then_some(Terminal::Sea)));
    if params.edge_outlets {
        let mut edge = |i: usize| {
            if outlet[i].is_none() {
                outlet[i] = Some(Terminal::Edge);
            }
        };
        match topo.grid() {
            // A grid's rim row by row, without working out every cell's row and column.
            Some(grid) => {
                for row in 0..grid.height {
                    let (first, last) = grid.inner_columns(row);
                    (0..first).chain(last..grid.width).for_each(|col| edge(row * grid.width + col));
                }
            }
            None => (0..n).filter(|&i| topo.on_edge(i)).for_each(edge),
        }
    }
    if n > 0 && outlet.iter().all(Option::is_none) {
        let lowest = (0..n).min_by(|&a, &b| heights[a].total_cmp(&heights[b]).then(a.cmp(&b))).unwrap_or(0);
        outlet[lowest] = Some(Terminal::Sink);
    }
    filled.clear();
    filled.extend_from_slice(heights);
    routing.clear();
    routing.extend_from_slice(heights);
    // A node with a strictly falling path to an outlet is reached by the flood from below,
    // at its own height, before anything could fill it or (with the ulp ramp) ramp it: it
    // keeps its height on both surfaces. Those nodes start closed, and the queue floods only
    // the depressions, from their rims, with none of its work on slopes.
    closed.clear();
    closed.extend(outlet.iter().map(Option::is_some));
    match shortcuts.falling {
        #[cfg(test)]
        Falling::No => {
            rims.clear();
            rims.extend((0..n).filter(|&i| closed[i]).map(|i| i as u32));
        }
        Falling::Walk => {
            stack.clear();
            stack.extend((0..n).filter(|&i| closed[i]).map(|i| i as u32));
            rims.clear();
            // Each node reached is taken from the stack once: the count is theirs.
            *falling = walk_up(topo, heights, closed, stack, rims);
        }
        Falling::Along { receivers, order } => {
            *falling = falls_along(topo, heights, receivers, order, closed, stack, rims);
        }
    }
    // Ordered by level, then by node index: ties are broken the same way everywhere. Every
    // node queued stands higher than the one that queued it, so the queue is monotone.
    let mut heap = RadixHeap::new();
    for i in rims.iter().map(|&i| i as usize) {
        if topo.neighbors(i).any(|j| !closed[j]) {
            heap.push(level_key(heights[i]), i as u32);
        }
    }
    // A pit's ramp climbs at most `ramp_m` and an ulp per node above the level the queue
    // popped. A cell closed above its closer whose every open neighbour stands higher than it
    // by more than that is on a slope: whenever the queue would pop it, those neighbours
    // could only close above the water, as they close now. Such cells are taken at once
    // instead of through the queue (after Zhou et al. 2016): the same fill and routing
    // surface, bit for bit, with a quarter fewer queue moves or more.
    let highest = heights.iter().fold(0.0_f64, |m, h| m.max(h.abs()));
    let climb = n as f64 * (ramp_m + 4.0 * f64::EPSILON * highest + f64::from_bits(1));
    let on_slope = |closed: &[bool], j: usize| {
        let rim = heights[j] + climb;
        topo.neighbors(j).all(|k| closed[k] || heights[k] > rim)
    };
    pit.clear();
    slope.clear();
    for visited in 0.. {
        if visited % cancel::CHECK_EVERY == 0 && cancel::requested(cancel) {
            return None;
        }
        let c = match pit.pop_front().or_else(|| slope.pop()) {
            Some(c) => c,
            None => match heap.pop() {
                Some(c) => c as usize,
                None => break,
            },
        };
        for j in topo.neighbors(c) {
            if closed[j] {
                continue;
            }
            closed[j] = true;
            filled[j] = heights[j].max(filled[c]);
            if heights[j] <= routing[c] {
                routing[j] = above(routing[c]);
                pit.push_back(j);
            } else if shortcuts.slopes && on_slope(closed, j) {
                slope.push(j);
            } else {
                heap.push(level_key(routing[j]), j as u32);
            }
        }
    }
    Some(())
}

/// Walks up from the nodes on `stack` (each marked in `reached`): marks every node a
/// strictly rising path leads to from them, and adds to `rims` each node taken from the
/// stack that had a neighbour neither reached nor higher then. Returns how many nodes it
/// took from the stack. With every outlet (and only those) reached and on the stack, it
/// marks every node with a path to an outlet along which the ground strictly falls, and
/// every reached node beside one left unreached is among the rims.
fn walk_up<T: Topology>(
    topo: &T,
    heights: &[f64],
    reached: &mut [bool],
    stack: &mut Vec<u32>,
    rims: &mut Vec<u32>,
) -> usize {
    let mut count = 0;
    while let Some(c) = stack.pop() {
        count += 1;
        let c = c as usize;
        let mut rim = false;
        for j in topo.neighbors(c) {
            if !reached[j] {
                if heights[j] > heights[c] {
                    reached[j] = true;
                    stack.push(j as u32);
                } else {
                    rim = true;
                }
            }
        }
        if rim {
            rims.push(c as u32);
        }
    }
    count
}

/// The nodes a [`walk_up`] from the outlets marks, found with an earlier drainage of the
/// same surface (`receivers`: each node's neighbour it drained to, or none; `order`: every
/// node after the nodes draining into it): marks them in `reached` (the outlets on entry)
/// and lists in `rims`, once each and ascending, every reached node beside one left
/// unreached (and some whose unreached neighbours were reached later). `stack` is scratch.
/// Returns how many nodes `reached` marks.
fn falls_along<T: Topology>(
    topo: &T,
    heights: &[f64],
    receivers: &[Outlet],
    order: &[u32],
    reached: &mut [bool],
    stack: &mut Vec<u32>,
    rims: &mut Vec<u32>,
) -> usize {
    // Down the earlier receivers from the outlets: a node above a reached receiver falls.
    for i in order.iter().rev().map(|&i| i as usize) {
        if let Outlet::Flows(r) = receivers[i] {
            let r = r.index();
            if !reached[i] && reached[r] && heights[i] > heights[r] {
                reached[i] = true;
            }
        }
    }
    // Any node left that stands above a reached neighbour falls too, and so does the ground
    // rising from it: every node marked from here on is walked up from, so once the walk
    // ends no unreached node stands above a reached one. A node left unreached lists its
    // reached neighbours as rims; those reached later are listed as the walk's are.
    stack.clear();
    rims.clear();
    for i in 0..topo.len() {
        if reached[i] {
            continue;
        }
        let listed = rims.len();
        for j in topo.neighbors(i).filter(|&j| reached[j]) {
            if heights[j] < heights[i] {
                rims.truncate(listed);
                reached[i] = true;
                stack.push(i as u32);
                break;
            }
            rims.push(j as u32);
        }
    }
    walk_up(topo, heights, reached, stack, rims);
    rims.sort_unstable();
    rims.dedup();
    reached.iter().filter(|&&r| r).count()
}

/// The lowest strictly lower neighbour on the routing surface, ties by index.
fn lowest_lower<T: Topology>(topo: &T, routing: &[f64], i: usize) -> Option<usize> {
    lowest_of(routing, i, topo.neighbors(i))
}

/// The lowest of `around` strictly lower than node `i` on the routing surface, ties by index.
#[inline(always)]
fn lowest_of(routing: &[f64], i: usize, around: impl Iterator<Item = usize>) -> Option<usize> {
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
fn lowest_of_ascending(routing: &[f64], i: usize, around: [usize; 8]) -> Option<usize> {
    let (mut best, mut low) = (i, routing[i]);
    for j in around {
        let z = routing[j];
        (best, low) = if z < low { (j, z) } else { (best, low) };
    }
    (best != i).then_some(best)
}

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

/// The order water runs in over `receivers` and the catchments summed along it, with the
/// rivers marked in `kind` (lap `accumulation` on `clock`); `None` once `cancel` is set.
fn accumulation<T: Topology>(
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
struct Flows<'a> {
    receivers: &'a [Outlet],
    order: &'a [u32],
    catchment_m2: &'a [f64],
}

/// What the last stage of a solve adds: Strahler orders, mouths and counts.
struct Rivers {
    strahler: Vec<u8>,
    mouths: Vec<NodeId>,
    /// Every count but the lakes and bays.
    stats: DrainageStats,
}

/// The Strahler orders, mouths and counts of a solve's `flows` (lap `rivers` on `clock`).
fn rivers<T: Topology>(
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

/// The standing water of a surface after its flood: the receivers, the sea, lakes and bays.
struct Standing {
    receivers: Vec<Outlet>,
    kind: Vec<NodeKind>,
    lake_id: Vec<u32>,
    lakes: Vec<Lake>,
    bays: usize,
}

/// The receivers over the flood's `routing` surface and the depressions of its `filled`
/// one (laps `receivers`, `lakes` on `clock`); `None` once `cancel` is set.
#[allow(clippy::too_many_arguments)]
fn receivers_and_lakes<T: Topology>(
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
/// accumulation of [`solve`], without lakes, rivers or Strahler orders.
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
fn receivers_on<T: Topology>(topo: &T, outlet: &[Option<Terminal>], routing: &[f64]) -> Vec<Outlet> {
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

/// Lap times of the stages of one solve.
pub(crate) struct Stopwatch {
    last: std::time::Instant,
    /// Stage names and their milliseconds, in order.
    pub laps: Vec<(&'static str, f64)>,
}

impl Stopwatch {
    pub(crate) fn start() -> Self {
        Stopwatch { last: std::time::Instant::now(), laps: Vec::new() }
    }

    /// Restarts the clock without recording a lap (after laps were copied in from elsewhere).
    pub(crate) fn lap_from_here(&mut self) {
        self.last = std::time::Instant::now();
    }

    pub(crate) fn lap(&mut self, stage: &'static str) {
        let now = std::time::Instant::now();
        self.laps.push((stage, (now - self.last).as_secs_f64() * 1e3));
        self.last = now;
    }
}

/// Groups filled nodes into depressions, keeps the lakes and turns bays into sea.
/// Returns the lake id per node, the lakes and the number of bays.
fn depressions<T: Topology>(
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

/// The order and catchments of [`order_and_catchment_into`], allocated anew.
fn order_and_catchment<T: Topology>(topo: &T, receivers: &[Outlet]) -> (Vec<u32>, Vec<f64>) {
    let (mut order, mut area) = (Vec::new(), Vec::new());
    order_and_catchment_into(topo, receivers, &mut order, &mut area, &mut OrderScratch::default());
    (order, area)
}

/// Strahler order of every river node: 1 at a source, +1 where two streams of the highest
/// incoming order meet.
fn strahler(order: &[u32], receivers: &[Outlet], kind: &[NodeKind]) -> Vec<u8> {
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

#[cfg(test)]
mod tests {
    use super::{
        flood_into, level_key, lowest_of, lowest_of_ascending, route, DrainageParams, Falling, FloodBuffers,
        Outlet, Shortcuts,
    };
    use crate::ground::grid::Grid;
    use crate::ground::lattice::FibonacciLattice;
    use crate::ground::topology::{NodeId, Topology};
    use crate::math::rng::SplitMix64;
    use std::sync::atomic::AtomicBool;

    /// Rough ground with pits, plateaus and exact ties: random bumps smoothed twice, then
    /// rounded to `step_m` (0: not rounded).
    fn rough<T: Topology>(topo: &T, seed: u64, step_m: f64) -> Vec<f64> {
        let mut rng = SplitMix64::new(seed, 3);
        let mut z: Vec<f64> = (0..topo.len()).map(|_| rng.range(-5.0, 40.0)).collect();
        for _ in 0..2 {
            z = (0..topo.len())
                .map(|i| {
                    let (sum, k) = topo.neighbors(i).fold((z[i], 1.0), |(s, k), j| (s + z[j], k + 1.0));
                    sum / k
                })
                .collect();
        }
        if step_m > 0.0 {
            z.iter_mut().for_each(|h| *h = (*h / step_m).round() * step_m);
        }
        z
    }

    /// The flood of `z` with each set of shortcuts, and with the falling nodes found along the
    /// drainage of another rough surface and along neighbours picked at random (from `seed`).
    fn same_flood<T: Topology>(
        topo: &T,
        z: &[f64],
        params: &DrainageParams,
        ramp_m: f64,
        seed: u64,
        case: &str,
    ) {
        let never = AtomicBool::new(false);
        let run = |slopes, falling| {
            let mut flood = FloodBuffers::default();
            if flood_into(topo, z, params, ramp_m, &never, Shortcuts { slopes, falling }, &mut flood)
                .is_none()
            {
                panic!("nothing cancels")
            }
            (
                flood.outlet,
                flood.filled.iter().map(|h| h.to_bits()).collect::<Vec<_>>(),
                flood.routing.iter().map(|h| h.to_bits()).collect::<Vec<_>>(),
            )
        };
        let queue = run(false, Falling::No);
        assert!(run(true, Falling::No) == queue, "{case}: taking slopes at once changed the flood");
        let both = run(true, Falling::Walk);
        let earlier = route(topo, &rough(topo, seed + 100, 1.0), params);
        let along = Falling::Along { receivers: &earlier.receivers, order: &earlier.order };
        assert!(
            run(true, along) == both,
            "{case}: the falling nodes found along a drainage changed the flood"
        );
        let mut rng = SplitMix64::new(seed, 5);
        let picked: Vec<Outlet> = (0..topo.len())
            .map(|i| {
                let around: Vec<usize> = topo.neighbors(i).collect();
                match rng.next_u64() % 4 {
                    0 => Outlet::Sink,
                    k => Outlet::Flows(NodeId(around[k as usize % around.len()] as u32)),
                }
            })
            .collect();
        let index_order: Vec<u32> = (0..topo.len() as u32).collect();
        let along = Falling::Along { receivers: &picked, order: &index_order };
        assert!(
            run(true, along) == both,
            "{case}: the falling nodes found along random falls changed the flood"
        );
        if ramp_m == 0.0 {
            assert!(
                run(false, Falling::Walk) == queue,
                "{case}: starting from the falling nodes changed the flood"
            );
            assert!(both == queue, "{case}: both shortcuts changed the flood");
            return;
        }
        // A ramp in metres stops at ground that already falls to an outlet (the queue alone
        // lets it climb over such ground and on into the next hollow): falling ground keeps
        // its height on both surfaces, and every other node is filled, never lowered, and
        // drains strictly down.
        let routing: Vec<f64> = both.2.iter().map(|&b| f64::from_bits(b)).collect();
        let mut falling: Vec<bool> = both.0.iter().map(Option::is_some).collect();
        let mut outlets: Vec<u32> = (0..topo.len()).filter(|&i| falling[i]).map(|i| i as u32).collect();
        super::walk_up(topo, z, &mut falling, &mut outlets, &mut Vec::new());
        for i in 0..topo.len() {
            if falling[i] {
                assert_eq!(routing[i], z[i], "{case}: falling node {i} was ramped");
                assert_eq!(both.1[i], z[i].to_bits(), "{case}: falling node {i} was filled");
            } else {
                assert!(f64::from_bits(both.1[i]) >= z[i], "{case}: node {i} filled under its ground");
                assert!(routing[i] >= z[i], "{case}: node {i} lowered");
                assert!(
                    topo.neighbors(i).any(|j| routing[j] < routing[i]),
                    "{case}: node {i} does not drain"
                );
            }
        }
    }

    /// The lowest strictly lower neighbour, ties to the lowest index, in whatever order the
    /// neighbours come (node 4 among nodes 0 to 8, so neighbours come on both sides of it);
    /// with all eight in ascending order the grid's pick agrees.
    #[test]
    fn the_lowest_lower_neighbour_is_taken_ties_by_index() {
        let mut rng = SplitMix64::new(11, 0);
        for _ in 0..20_000 {
            let routing: Vec<f64> = (0..9).map(|_| rng.range(0.0, 4.0).floor()).collect();
            let mut around: Vec<usize> = (0..9).filter(|&j| j != 4).collect();
            for k in (1..around.len()).rev() {
                around.swap(k, (rng.next_u64() % (k as u64 + 1)) as usize);
            }
            around.truncate(1 + (rng.next_u64() % 8) as usize);
            let expected = around
                .iter()
                .copied()
                .filter(|&j| routing[j] < routing[4])
                .min_by(|&a, &b| routing[a].total_cmp(&routing[b]).then(a.cmp(&b)));
            assert_eq!(lowest_of(&routing, 4, around.iter().copied()), expected, "{routing:?} {around:?}");
            let all = [0, 1, 2, 3, 5, 6, 7, 8];
            let expected = lowest_of(&routing, 4, all.into_iter());
            assert_eq!(lowest_of_ascending(&routing, 4, all), expected, "{routing:?}");
        }
    }

    /// The shortcuts give the queue's flood bit for bit, and the falling nodes found along
    /// any earlier drainage give the walk's: on grids and on the lattice, with continuous
    /// heights, with plateaus and exact ties, with the sea or the map edge as the outlet,
    /// and with a metre ramp.
    #[test]
    fn the_shortcuts_flood_like_the_queue() {
        let grid = Grid { width: 61, height: 47, cell_m: 1.0 };
        let lattice = FibonacciLattice::new(3_000, 1_000.0);
        for seed in 0..12 {
            for step_m in [0.0, 0.5, 4.0] {
                for (params, ramp_m) in [
                    (DrainageParams::outlets(None, true), 0.0),
                    (DrainageParams::outlets(Some(6.0), false), 0.0),
                    (DrainageParams::outlets(None, true), 0.05),
                ] {
                    let case = format!("seed {seed}, step {step_m} m, ramp {ramp_m} m");
                    same_flood(
                        &grid,
                        &rough(&grid, seed, step_m),
                        &params,
                        ramp_m,
                        seed,
                        &format!("grid, {case}"),
                    );
                    let z = rough(&lattice, seed, step_m);
                    same_flood(&lattice, &z, &params, ramp_m, seed, &format!("lattice, {case}"));
                }
            }
        }
    }

    #[test]
    fn level_keys_sort_like_total_cmp() {
        let values = [
            f64::NEG_INFINITY,
            -1e300,
            -2.5,
            -1.0,
            -f64::MIN_POSITIVE,
            -0.0,
            0.0,
            5e-324,
            1e-300,
            1.0,
            2.5,
            1e300,
            f64::INFINITY,
        ];
        for a in values {
            for b in values {
                assert_eq!(level_key(a).cmp(&level_key(b)), a.total_cmp(&b), "{a} vs {b}");
            }
        }
    }
}
