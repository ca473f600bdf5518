//! Drainage across flats (Barnes, Lehman & Mulla 2014, "An efficient assignment of drainage
//! direction over flat surfaces in raster digital elevation models").
//!
//! The priority flood leaves every filled hollow and every stretch of exactly level ground
//! one flat of the fill, ramped an ulp a node outwards from where it was entered: water on
//! it runs in straight lines to that one spill point, side by side like the teeth of a comb.
//! Here each flat is ramped again, by two gradients: towards lower ground (every node at
//! the flat's edge beside ground at or below its level) and away from higher ground (every
//! node beside its rim). The first counts twice, so every node still has a strictly lower
//! neighbour, and water on a flat gathers into its middle and leaves by the nearest way
//! down, as it would on ground that keeps falling towards its lowest line.

use super::types::Terminal;
use crate::ground::topology::Topology;
use std::collections::VecDeque;

/// A node no flat holds (yet).
const NONE: u32 = u32::MAX;
/// A node of a flat already ramped.
const DONE: u32 = u32::MAX - 1;

/// What the flats' ramps work in, kept from one flood to the next.
#[derive(Debug, Default)]
pub(super) struct FlatScratch {
    /// Each node's place in the flat being ramped, [`DONE`] once its flat is, or [`NONE`].
    slot: Vec<u32>,
    /// The flat's nodes.
    members: Vec<u32>,
    /// Steps from lower ground, per member (1 beside it).
    towards: Vec<u32>,
    /// Steps from higher ground, per member (1 beside it; 0 on a flat without a rim).
    away: Vec<u32>,
    /// The flat's routing levels before its ramp, per member.
    before: Vec<f64>,
    queue: VecDeque<u32>,
}

/// An integer that orders finite levels as `<` does, with both zeros one value.
fn ordinal(x: f64) -> i64 {
    let magnitude = (x.to_bits() & !(1 << 63)) as i64;
    if x.is_sign_negative() {
        -magnitude
    } else {
        magnitude
    }
}

/// `steps` representable levels above `x` (finite), both zeros counted once.
fn ulps_above(x: f64, steps: u32) -> f64 {
    let o = ordinal(x) + i64::from(steps);
    if o < 0 {
        f64::from_bits(o.unsigned_abs() | 1 << 63)
    } else {
        f64::from_bits(o as u64)
    }
}

/// Ramps every flat of the flood's ulp-ramped `routing` surface (the nodes it raised above
/// their `heights`) towards lower ground and away from higher ground. `filled` is the
/// flood's fill; `outlet` its outlets. A flat whose new ramp would leave some node beside
/// it without a strictly lower neighbour (ground within a few ulps of the fill) keeps the
/// flood's ramp.
pub(super) fn ramp_flats<T: Topology>(
    topo: &T,
    heights: &[f64],
    filled: &[f64],
    outlet: &[Option<Terminal>],
    routing: &mut [f64],
    scratch: &mut FlatScratch,
) {
    let n = topo.len();
    let FlatScratch { slot, members, towards, away, before, queue } = scratch;
    slot.clear();
    slot.resize(n, NONE);
    let on_flat = |routing: &[f64], i: usize| routing[i] != heights[i];
    for start in 0..n {
        if slot[start] != NONE || !on_flat(routing, start) {
            continue;
        }
        // The flat: every raised node joined to `start` through raised nodes.
        members.clear();
        members.push(start as u32);
        slot[start] = 0;
        let mut next = 0;
        while next < members.len() {
            let c = members[next] as usize;
            next += 1;
            for j in topo.neighbors(c) {
                if slot[j] == NONE && on_flat(routing, j) {
                    slot[j] = members.len() as u32;
                    members.push(j as u32);
                }
            }
        }
        let level = members.iter().map(|&i| filled[i as usize]).fold(f64::NEG_INFINITY, f64::max);
        // Lower ground: a neighbour off the flat at or below its level; higher: above it.
        let beside = |i: usize, lower: bool| {
            topo.neighbors(i).any(|j| !on_flat(routing, j) && (heights[j] <= level) == lower)
        };
        let mut distances = |seeds_lower: bool, steps: &mut Vec<u32>| -> u32 {
            steps.clear();
            steps.resize(members.len(), 0);
            queue.clear();
            for (k, &i) in members.iter().enumerate() {
                if beside(i as usize, seeds_lower) {
                    steps[k] = 1;
                    queue.push_back(k as u32);
                }
            }
            let mut most = 0;
            while let Some(k) = queue.pop_front() {
                let d = steps[k as usize];
                most = most.max(d);
                for j in topo.neighbors(members[k as usize] as usize) {
                    let m = slot[j];
                    if (m as usize) < steps.len() && steps[m as usize] == 0 {
                        steps[m as usize] = d + 1;
                        queue.push_back(m);
                    }
                }
            }
            most
        };
        distances(true, towards);
        let highest = distances(false, away);
        before.clear();
        before.extend(members.iter().map(|&i| routing[i as usize]));
        for (k, &i) in members.iter().enumerate() {
            routing[i as usize] = ulps_above(level, 2 * towards[k] + highest - away[k]);
        }
        if !all_drain(topo, outlet, routing, members) {
            for (&i, &r) in members.iter().zip(before.iter()) {
                routing[i as usize] = r;
            }
        }
        for &i in members.iter() {
            slot[i as usize] = DONE;
        }
    }
}

/// Whether every node of `members` and every node beside them that is not an outlet has a
/// strictly lower neighbour on `routing`.
fn all_drain<T: Topology>(topo: &T, outlet: &[Option<Terminal>], routing: &[f64], members: &[u32]) -> bool {
    let drains = |i: usize| outlet[i].is_some() || topo.neighbors(i).any(|j| routing[j] < routing[i]);
    members.iter().all(|&i| drains(i as usize) && topo.neighbors(i as usize).all(drains))
}

#[cfg(test)]
mod tests {
    use super::{ordinal, ulps_above};
    use crate::drainage::{route, DrainageParams, Outlet};
    use crate::ground::grid::Grid;

    #[test]
    fn steps_above_a_level_rise_through_zero() {
        let mut x = -2.0 * f64::from_bits(1);
        let mut seen = vec![x];
        for _ in 0..4 {
            x = ulps_above(x, 1);
            seen.push(x);
        }
        assert!(seen.windows(2).all(|w| w[0] < w[1]), "{seen:?}");
        assert_eq!(ulps_above(1.0, 3), 1.0f64.next_up().next_up().next_up());
        assert_eq!(ordinal(-0.0), ordinal(0.0));
    }

    /// A level valley floor between two walls, open to the sea at its east end: the water on
    /// it gathers into one stream down the middle of the floor (the flood's ramp alone sent
    /// it all along the first wall the flood reached).
    #[test]
    fn a_level_valley_floor_drains_down_its_middle() {
        let (width, height) = (41, 11);
        let grid = Grid { width, height, cell_m: 1.0 };
        let heights: Vec<f64> = (0..width * height)
            .map(|i| {
                let (row, col) = (i / width, i % width);
                if col == width - 1 {
                    -5.0
                } else if row == 0 || row == height - 1 || col == 0 {
                    20.0
                } else {
                    10.0
                }
            })
            .collect();
        let routed = route(&grid, &heights, &DrainageParams::outlets(Some(0.0), false));
        for (i, outlet) in routed.receivers.iter().enumerate() {
            assert!(*outlet != Outlet::Sink, "cell {i} is a sink");
        }
        // Across column 10 the floor upstream (columns 1..=10, nine rows) leaves in one stream.
        let col = 10;
        let (row, most) = (1..height - 1)
            .map(|row| (row, routed.catchment_m2[row * width + col]))
            .fold((0, 0.0), |best, (row, a)| if a > best.1 { (row, a) } else { best });
        let floor = ((height - 2) * col) as f64;
        assert_eq!(row, height / 2, "the stream runs along row {row}");
        assert!(most >= 0.8 * floor, "the stream carries {most} of {floor} m²");
    }
}
