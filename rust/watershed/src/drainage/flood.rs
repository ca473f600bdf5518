//! Priority flood from the outlets: each node's spill level (the lowest level water rising
//! from it could leave at), with the shortcuts an erosion step takes along the falling
//! ground of the last step, and the ulp ramp across flats that the routing surface adds
//! (turned towards lower and away from higher ground by [`ramp_flats`]).

use super::flats::{ramp_flats, FlatScratch};
use super::radix::RadixHeap;
use super::types::{DrainageParams, Outlet, Terminal};
use crate::cancel;
use crate::ground::topology::Topology;
use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;

/// An unsigned integer that sorts like `x` under [`f64::total_cmp`].
#[inline]
pub(super) fn level_key(x: f64) -> u64 {
    let bits = x.to_bits();
    if bits >> 63 == 1 {
        !bits
    } else {
        bits | 1 << 63
    }
}

/// The solve's result before lakes and rivers: outlets, fill and routing surface.
pub(super) struct Flood {
    pub(super) outlet: Vec<Option<Terminal>>,
    pub(super) filled: Vec<f64>,
    pub(super) routing: Vec<f64>,
}

/// Priority flood (Barnes et al. 2014, with the ulp ramp) from the outlet nodes; `None` once
/// `cancel` is set (read every [`CHECK_EVERY`](cancel::CHECK_EVERY) nodes).
pub(super) fn flood<T: Topology>(
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
pub(super) struct Shortcuts<'a> {
    /// Cells on a slope are taken at once instead of through the queue.
    pub(super) slopes: bool,
    /// Whether nodes with a strictly falling path to an outlet start closed, and how they are
    /// found. The queue's own result with the ulp ramp (`ramp_m` 0), unless a whole falling
    /// path lies within a pit's few ulps of climb above its spill level. With a ramp in
    /// metres the queue alone lets a filled hollow's ramp climb over ground that already
    /// falls to an outlet, and on into the next hollow; here that ground keeps its height, as
    /// ground outside every hollow should, and every other node still drains to a strictly
    /// lower one.
    pub(super) falling: Falling<'a>,
}

impl Shortcuts<'_> {
    /// Every shortcut, the falling nodes found by a walk: what a flood without an earlier
    /// drainage of its surface takes.
    const BOTH: Shortcuts<'static> = Shortcuts { slopes: true, falling: Falling::Walk };
}

/// How a flood finds the nodes with a strictly falling path to an outlet (the same nodes
/// every way).
#[derive(Debug, Clone, Copy)]
pub(super) enum Falling<'a> {
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
pub(super) struct FloodBuffers {
    pub(super) outlet: Vec<Option<Terminal>>,
    pub(super) filled: Vec<f64>,
    pub(super) routing: Vec<f64>,
    pub(super) closed: Vec<bool>,
    pub(super) stack: Vec<u32>,
    pub(super) rims: Vec<u32>,
    pub(super) pit: VecDeque<usize>,
    pub(super) slope: Vec<usize>,
    /// Nodes the last flood found with a strictly falling path to an outlet (the outlets
    /// among them), when it looked for them.
    pub(super) falling: usize,
    /// The flats' ramps' scratch (the ulp ramp only).
    pub(super) flats: FlatScratch,
}

/// The priority flood, with the `shortcuts` chosen (the queue alone with neither), into
/// `buffers`: their outlets, fill and routing surface are the flood's once it returns
/// `Some`. With the ulp ramp (`ramp_m` 0) its flats then drain towards lower and away from
/// higher ground ([`ramp_flats`]); a ramp in metres stays as the queue laid it.
pub(super) fn flood_into<T: Topology>(
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
    let FloodBuffers { outlet, filled, routing, closed, stack, rims, pit, slope, falling, flats } = buffers;
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
    if ramp_m == 0.0 {
        ramp_flats(topo, heights, filled, outlet, routing, flats);
    }
    Some(())
}

/// Walks up from the nodes on `stack` (each marked in `reached`): marks every node a
/// strictly rising path leads to from them, and adds to `rims` each node taken from the
/// stack that had a neighbour neither reached nor higher then. Returns how many nodes it
/// took from the stack. With every outlet (and only those) reached and on the stack, it
/// marks every node with a path to an outlet along which the ground strictly falls, and
/// every reached node beside one left unreached is among the rims.
pub(super) fn walk_up<T: Topology>(
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

#[cfg(test)]
mod tests {
    use super::{flood_into, level_key, Falling, FloodBuffers, Shortcuts};
    use crate::drainage::routing::{lowest_of, lowest_of_ascending};
    use crate::drainage::{route, DrainageParams, Outlet};
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
            // The flats' ramps leave every node but the outlets a strictly lower neighbour.
            let routing: Vec<f64> = both.2.iter().map(|&b| f64::from_bits(b)).collect();
            for i in (0..topo.len()).filter(|&i| both.0[i].is_none()) {
                assert!(routing[i] >= z[i], "{case}: node {i} lowered");
                assert!(
                    topo.neighbors(i).any(|j| routing[j] < routing[i]),
                    "{case}: node {i} does not drain"
                );
            }
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
