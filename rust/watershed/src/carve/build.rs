//! How [`Carve::build`](super::Carve::build) cuts the channels, as named passes over one
//! [`Layout`] of the river nodes: the natural ground under every bed point, the lower ground
//! beside every channel, the beds cut upstream first, the lakes' sills, then mouth first the
//! settled joins and the face limit, and last the reaches themselves.

use super::{
    profile_at, Reach, ReachEnd, BANK_REFINE_M, BANK_SPACING_M, BED_STEP_M, FALL_DROP_M, MAX_FACE_SLOPE,
    MIN_BED_PIECES, MIN_DEPTH_FRACTION, SETTLE_MARGIN_M, SILL_DEPTH_M, SILL_SLOPE,
};
use crate::drainage::{Drainage, NodeKind};
use crate::ground::surface::Surface;
use crate::ground::topology::NodeId;
use glam::DVec3;
use rayon::prelude::*;

/// Per reach, values along it (bed points or bank samples), in reach order.
pub(super) type AlongReaches = Vec<Vec<f64>>;

/// A channel's size from its catchment: depth and half width on a log scale between the
/// world's smallest and largest river catchments.
#[derive(Debug, Clone, Copy)]
pub(super) struct Sizing {
    log_lo: f64,
    span: f64,
    channel_depth_m: f64,
    half_width_m: Option<f64>,
}

impl Sizing {
    /// The sizing of `drainage`'s rivers for a world whose largest channel is
    /// `channel_depth_m` deep (`half_width_m`: every channel's half width, or `None` for
    /// widths that grow with the catchment).
    pub(super) fn of(drainage: &Drainage, channel_depth_m: f64, half_width_m: Option<f64>) -> Self {
        let kind = &drainage.kind;
        let rivers =
            (0..kind.len()).filter(|&i| kind[i] == NodeKind::River).map(|i| drainage.catchment_m2[i]);
        let (lo, hi) = rivers.fold((f64::INFINITY, 0.0f64), |(lo, hi), c| (lo.min(c), hi.max(c)));
        let span = (libm::log(hi) - libm::log(lo)).max(1e-9);
        Sizing { log_lo: libm::log(lo), span, channel_depth_m, half_width_m }
    }

    /// Where catchment `c` (m²) lies between the smallest and largest river's, 0..=1.
    fn scale(&self, c: f64) -> f64 {
        ((libm::log(c) - self.log_lo) / self.span).clamp(0.0, 1.0)
    }

    /// Channel depth for catchment `c` (m²), metres.
    pub(super) fn depth(&self, c: f64) -> f64 {
        self.channel_depth_m * (MIN_DEPTH_FRACTION + (1.0 - MIN_DEPTH_FRACTION) * self.scale(c))
    }

    /// Half a channel's width for catchment `c` (m²), metres.
    pub(super) fn half_width(&self, c: f64) -> f64 {
        self.half_width_m.unwrap_or_else(|| self.depth(c) * (1.0 + self.scale(c)))
    }
}

/// The river nodes of one solve and how the passes find them: the nodes that drain on (one
/// reach each, ascending) before those where the water leaves the map, and each river node's
/// slot among them, so the passes hold their scratch per river node, not per node.
pub(super) struct Layout<'a, S: Surface> {
    pub(super) surface: &'a S,
    /// Natural ground at every node, metres above the datum.
    pub(super) heights: &'a [f64],
    pub(super) drainage: &'a Drainage,
    pub(super) sizing: Sizing,
    /// Metres per unit of the surface's positions.
    pub(super) radius: f64,
    /// The river nodes: the first `reach_count` start a reach each.
    river_nodes: Vec<usize>,
    pub(super) reach_count: usize,
    slot: Vec<u32>,
}

impl<'a, S: Surface> Layout<'a, S> {
    /// The layout of `drainage`'s rivers on `surface` over the natural `heights`.
    pub(super) fn new(surface: &'a S, heights: &'a [f64], drainage: &'a Drainage, sizing: Sizing) -> Self {
        let kind = &drainage.kind;
        let n = kind.len();
        let (mut river_nodes, leaving): (Vec<usize>, Vec<usize>) = (0..n)
            .filter(|&i| kind[i] == NodeKind::River)
            .partition(|&i| drainage.receivers[i].receiver().is_some());
        let reach_count = river_nodes.len();
        river_nodes.extend(leaving);
        let mut slot = vec![u32::MAX; n];
        for (k, &i) in river_nodes.iter().enumerate() {
            slot[i] = k as u32;
        }
        let radius = surface.metres_per_unit();
        Layout { surface, heights, drainage, sizing, radius, river_nodes, reach_count, slot }
    }

    /// The river nodes that start a reach, in reach order.
    pub(super) fn rivers(&self) -> &[usize] {
        &self.river_nodes[..self.reach_count]
    }

    /// The reach starting at node `i`, if it starts one.
    pub(super) fn reach_of(&self, i: usize) -> Option<usize> {
        Some(self.slot[i] as usize).filter(|&k| k < self.reach_count)
    }

    /// The slot of river node `i` (any river node, one that leaves the map included).
    fn slot_of(&self, i: usize) -> usize {
        self.slot[i] as usize
    }

    pub(super) fn is_river(&self, i: usize) -> bool {
        self.drainage.kind[i] == NodeKind::River
    }

    pub(super) fn position(&self, i: usize) -> DVec3 {
        self.surface.position(i)
    }

    /// Where node `i` drains (itself at an outlet).
    pub(super) fn receiver(&self, i: usize) -> usize {
        self.drainage.receivers[i].receiver().map_or(i, NodeId::index)
    }

    /// Length of the reach from node `i`, metres.
    pub(super) fn length(&self, i: usize) -> f64 {
        self.position(i).distance(self.position(self.receiver(i))) * self.radius
    }

    /// Pieces the bed of the reach from node `i` is cut into.
    fn pieces(&self, i: usize) -> usize {
        ((self.length(i) / BED_STEP_M).ceil() as usize).max(MIN_BED_PIECES)
    }

    /// How far before its end the reach from node `i` is already at the level of what it
    /// flows into: the receiving channel's bank plus a margin (its own for a lake or the
    /// sea), at most 0.8 of its length, metres.
    pub(super) fn settle(&self, i: usize) -> f64 {
        let r = self.receiver(i);
        let catchment = self.drainage.catchment_m2[if self.is_river(r) { r } else { i }];
        (self.sizing.half_width(catchment) + SETTLE_MARGIN_M).min(0.8 * self.length(i))
    }
}

/// Natural ground under every bed point of every reach (the ends are the nodes' own
/// heights), each point's nearest node searched from the last one's.
pub(super) fn natural_under_beds<S: Surface>(layout: &Layout<S>) -> AlongReaches {
    let surface = layout.surface;
    layout
        .rivers()
        .par_iter()
        .map(|&i| {
            let r = layout.receiver(i);
            let (a, b, n) = (layout.position(i), layout.position(r), layout.pieces(i));
            let mut near = i;
            (0..=n)
                .map(|k| match k {
                    0 => layout.heights[i],
                    _ if k == n => layout.heights[r],
                    _ => {
                        let p = surface.onto(a + (b - a) * (k as f64 / n as f64));
                        near = surface.nearest_node_from(p, near);
                        surface.natural_near(p, near)
                    }
                })
                .collect()
        })
        .collect()
}

/// The lower bank (see [`bank_at`]) at either edge of every channel: read every
/// `BANK_SPACING_M` along it (the first result, per reach), and beside every bed point (the
/// second). A bed is cut a channel's depth under the readings, so on a slope across the
/// stream the water stays inside its banks; the water is capped under the ground at the
/// edge beside each bed point, where its surface ends (the channel's bell), so it meets the
/// ground there and never ends in a wall over a hollow inside the channel's width (beside
/// its centre line, as finer lattices resolve them). Beside a bed point the readings are
/// interpolated, except between two that differ by more than `BANK_REFINE_M` beyond what
/// the river falls between them: there a straight line can bridge a hollow beside the
/// channel (a trough a few metres wide between two cliff bands), so the ground is read
/// there too.
pub(super) fn low_banks<S: Surface>(layout: &Layout<S>) -> (AlongReaches, AlongReaches) {
    let surface = layout.surface;
    layout
        .rivers()
        .par_iter()
        .map(|&i| {
            let (a, b) = (layout.position(i), layout.position(layout.receiver(i)));
            let edge = layout.sizing.half_width(layout.drainage.catchment_m2[i]);
            let side = surface.metre_across(a, b);
            let count = ((layout.length(i) / BANK_SPACING_M).ceil() as usize).max(1);
            let pieces = layout.pieces(i);
            // Banks fall with the river: only a difference beyond that hints at a hollow.
            let fall_per_reading =
                (layout.heights[i] - layout.heights[layout.receiver(i)]).abs() / count as f64;
            // Each bank's nearest node is searched from the last one read on that side.
            let mut near = [i, i];
            let mut low_at = |t: f64| {
                let mut low = f64::INFINITY;
                for (n, x) in near.iter_mut().zip([edge, -edge]) {
                    let p = surface.onto(a + (b - a) * t + side * x);
                    *n = surface.nearest_node_from(p, *n);
                    low = low.min(bank_at(surface, layout.drainage, p, *n, i));
                }
                low
            };
            let read: Vec<f64> = (0..=count).map(|k| low_at(k as f64 / count as f64)).collect();
            let beside_beds = (0..=pieces)
                .map(|p| {
                    let t = p as f64 / pieces as f64;
                    let k = ((t * count as f64).floor() as usize).min(count - 1);
                    match (read[k] - read[k + 1]).abs() > BANK_REFINE_M + fall_per_reading {
                        true => low_at(t),
                        false => profile_at(&read, t),
                    }
                })
                .collect();
            (read, beside_beds)
        })
        .unzip()
}

/// The bank at `p` (nearest node `n`) of the channel leaving node `from`, metres: the
/// natural ground, or the level of a lake standing over it when higher (the lake at `n`, or
/// at a neighbour whose water reaches `p` without crossing higher ground), unless the lake
/// spills over `from` or, on its side away from the lake, over `n`: past its outlet the
/// water is the river's. A bank under a lake is the lake's surface: a channel cut a depth
/// under the ground there would drain the lake sideways, its water standing beside the
/// lake metres below it.
fn bank_at<S: Surface>(surface: &S, drainage: &Drainage, p: DVec3, n: usize, from: usize) -> f64 {
    let ground = surface.natural_near(p, n);
    let over_bank = |level: f64, outlet: Option<usize>| level > ground && outlet != Some(from);
    let own = (drainage.kind[n] == NodeKind::Lake)
        .then(|| drainage.water_level_m(n))
        .filter(|&level| over_bank(level, drainage.lake_outlet(n)));
    own.into_iter().chain(drainage.lakes_beside(surface, p, ground, n, over_bank)).fold(ground, f64::max)
}

/// The beds cut upstream first: each follows the natural ground down, a channel's depth
/// under it and under the ground beside it, and never rises; the receiver's bed is lowered
/// to meet it. Returns the beds and each river node's bed level (by slot).
pub(super) fn cut_beds<S: Surface>(
    layout: &Layout<S>,
    natural: &AlongReaches,
    low_banks: &AlongReaches,
) -> (AlongReaches, Vec<f64>) {
    let drainage = layout.drainage;
    let mut node_bed: Vec<f64> = layout
        .river_nodes
        .iter()
        .map(|&i| layout.heights[i] - layout.sizing.depth(drainage.catchment_m2[i]))
        .collect();
    let mut beds: AlongReaches = natural.iter().map(|n| vec![0.0; n.len()]).collect();
    let upstream_first = drainage.order.iter().map(|&i| i as usize);
    for (i, k) in upstream_first.filter_map(|i| layout.reach_of(i).map(|k| (i, k))) {
        let d = layout.sizing.depth(drainage.catchment_m2[i]);
        let b = &mut beds[k];
        let last = b.len() - 1;
        let r = layout.receiver(i);
        let floor = |p: usize| {
            if p == last && !layout.is_river(r) {
                natural[k][p]
            } else {
                natural[k][p].min(profile_at(&low_banks[k], p as f64 / last as f64)) - d
            }
        };
        b[0] = node_bed[k].min(floor(0));
        for p in 1..=last {
            b[p] = b[p - 1].min(floor(p));
        }
        if layout.is_river(r) {
            let s = layout.slot_of(r);
            node_bed[s] = node_bed[s].min(b[last]);
        }
    }
    (beds, node_bed)
}

/// A lake's outlet is its sill: the channel leaving it starts `SILL_DEPTH_M` under the
/// lake's level, or as high as the streams joining there allow, and deepens from it no
/// faster than `SILL_SLOPE` until it meets its own bed, so the lake does not stand beside a
/// trench cut below its own surface. Returns, per reach, the level of the lake it leaves.
pub(super) fn cut_sills<S: Surface>(
    layout: &Layout<S>,
    natural: &AlongReaches,
    low_banks: &AlongReaches,
    beds: &mut AlongReaches,
) -> Vec<Option<f64>> {
    let mut spilling: Vec<Option<f64>> = vec![None; layout.reach_count];
    for lake in &layout.drainage.lakes {
        if let Some(o) = lake.outlet.receiver().and_then(|o| layout.reach_of(o.index())) {
            spilling[o] = Some(spilling[o].map_or(lake.level_m, |l| l.max(lake.level_m)));
        }
    }
    let rivers = layout.rivers();
    let mut joining = vec![f64::INFINITY; layout.reach_count];
    for (&i, b) in rivers.iter().zip(beds.iter()) {
        if let Some(next) = layout.reach_of(layout.receiver(i)) {
            joining[next] = joining[next].min(b[b.len() - 1]);
        }
    }
    for (k, &i) in rivers.iter().enumerate() {
        let Some(lake) = spilling[k] else { continue };
        let b = &mut beds[k];
        let last = b.len() - 1;
        let step = layout.length(i) / last as f64;
        let mut sill = (lake.min(layout.heights[i]) - SILL_DEPTH_M).min(joining[k]) + SILL_SLOPE * step;
        for (p, v) in b.iter_mut().enumerate() {
            // Beside the outlet itself one bank is the lake's floor.
            let beside = match p as f64 * step < BANK_SPACING_M {
                true => f64::INFINITY,
                false => profile_at(&low_banks[k], p as f64 / last as f64),
            };
            sill = (sill - SILL_SLOPE * step).min(natural[k][p].min(beside) - SILL_DEPTH_M);
            if *v >= sill {
                break;
            }
            *v = sill;
        }
    }
    spilling
}

/// Mouth first: ends meet their receiver's final bed, tributaries settle to their main
/// stream's level, and no face falls more than `MAX_FACE_SLOPE` (the fall cuts back).
pub(super) fn settle_joins<S: Surface>(layout: &Layout<S>, beds: &mut AlongReaches, node_bed: &mut [f64]) {
    let mouth_first = layout.drainage.order.iter().rev().map(|&i| i as usize);
    for (i, k) in mouth_first.filter_map(|i| layout.reach_of(i).map(|k| (i, k))) {
        let r = layout.receiver(i);
        let zone = layout.settle(i);
        let b = &mut beds[k];
        let last = b.len() - 1;
        let step = layout.length(i) / last as f64;
        let end_level = if layout.is_river(r) { node_bed[layout.slot_of(r)] } else { b[last] };
        for (p, v) in b.iter_mut().enumerate() {
            if (last - p) as f64 * step <= zone {
                *v = v.min(end_level);
            }
        }
        for p in (0..last).rev() {
            b[p] = b[p].min(b[p + 1] + MAX_FACE_SLOPE * step);
        }
        node_bed[k] = b[0];
    }
}

/// The reaches, from the passes' results (each consumed in reach order).
pub(super) fn reaches<S: Surface>(
    layout: &Layout<S>,
    beds: AlongReaches,
    natural: AlongReaches,
    low_banks: AlongReaches,
    spilling: Vec<Option<f64>>,
) -> Vec<Reach> {
    let drainage = layout.drainage;
    layout
        .rivers()
        .iter()
        .zip(beds)
        .zip(natural)
        .zip(low_banks)
        .zip(spilling)
        .map(|((((&i, beds), banks), low_banks), leaves_lake_m)| {
            let r = layout.receiver(i);
            let ends_in = match drainage.kind[r] {
                NodeKind::Sea => ReachEnd::Sea,
                NodeKind::Lake => ReachEnd::Lake,
                _ => ReachEnd::River,
            };
            let drop_m = layout.heights[i] - layout.heights[r];
            let c = drainage.catchment_m2[i];
            Reach {
                from: NodeId(i as u32),
                to: NodeId(r as u32),
                start: layout.position(i),
                end: layout.position(r),
                length_m: layout.length(i),
                catchment_m2: c,
                depth_m: layout.sizing.depth(c),
                half_width_m: layout.sizing.half_width(c),
                beds,
                banks,
                low_banks,
                settle_m: layout.settle(i),
                leaves_lake_m,
                ends_in,
                drop_m,
                // Sea adjacency reads the drainage's kinds, decided on the uncarved heights.
                fall: drop_m > FALL_DROP_M && ends_in != ReachEnd::Sea,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::carve::terrain::Terrain;
    use crate::carve::{Carve, CarveParams};
    use crate::ground::surface::PlanetSurface;
    use crate::ground::topology::Topology;
    use crate::testkit::{self, QUICK_WORLD};

    /// Beside every bed point the water's bank is the straight line between the readings
    /// where two neighbouring readings agree within `BANK_REFINE_M`, and the ground read
    /// right beside the bed point where they do not (the oracle reads it from scratch).
    /// The quick world's carve layout, handed to `test` with the world's terrain.
    fn on_quick_layout(test: impl FnOnce(&Terrain, &Layout<'_, PlanetSurface<'_>>)) {
        let world = testkit::built(QUICK_WORLD);
        let surface = world.terrain.surface();
        let (heights, drainage) = (&world.terrain.heights, &world.terrain.drainage);
        let params = CarveParams::for_world(&world.terrain.settings);
        let layout =
            Layout::new(&surface, heights, drainage, Sizing::of(drainage, params.channel_depth_m, None));
        test(&world.terrain, &layout);
    }

    #[test]
    fn the_bank_beside_a_bed_point_is_read_where_readings_disagree() {
        on_quick_layout(|terrain, layout| {
            let surface = terrain.surface();
            let drainage = &terrain.drainage;
            let (read, beside) = low_banks(layout);
            let mut refined = 0;
            for (k, &i) in layout.rivers().iter().enumerate() {
                let (count, last) = (read[k].len() - 1, beside[k].len() - 1);
                assert_eq!(last, layout.pieces(i), "reach {k}: one bank beside every bed point");
                let (a, b) = (layout.position(i), layout.position(layout.receiver(i)));
                let side = surface.metre_across(a, b);
                let edge = layout.sizing.half_width(drainage.catchment_m2[i]);
                for (p, &low) in beside[k].iter().enumerate() {
                    let t = p as f64 / last as f64;
                    let span = ((t * count as f64).floor() as usize).min(count - 1);
                    let fall = (layout.heights[i] - layout.heights[layout.receiver(i)]).abs() / count as f64;
                    let expected = match (read[k][span] - read[k][span + 1]).abs() > BANK_REFINE_M + fall {
                        true => {
                            refined += 1;
                            let at = |x: f64| surface.natural_at(surface.onto(a + (b - a) * t + side * x));
                            at(edge).min(at(-edge))
                        }
                        false => profile_at(&read[k], t),
                    };
                    assert!((low - expected).abs() < 1e-9, "reach {k} point {p}: {low} m, read {expected} m");
                }
            }
            assert!(refined > 0, "the quick world has banks steep enough to be read at every bed point");
        });
    }

    /// A bank under a lake reads the lake's level: in a lake node's cell, and in a dry
    /// neighbour's cell where the lake's water reaches it; the natural ground elsewhere and
    /// on the river leaving the lake.
    #[test]
    fn a_bank_under_a_lake_reads_the_lake() {
        on_quick_layout(|terrain, _| {
            let surface = terrain.surface();
            let d = &terrain.drainage;
            let at = |i: usize| surface.position(i);
            let lake_nodes: Vec<usize> = (0..d.kind.len()).filter(|&i| d.kind[i] == NodeKind::Lake).collect();
            assert!(!lake_nodes.is_empty(), "the quick world has a lake");
            let (mut lifted, mut shore) = (0, 0);
            for &j in &lake_nodes {
                let level = d.water_level_m(j);
                let outlet = d.lake_outlet(j);
                assert!(bank_at(&surface, d, at(j), j, usize::MAX) >= level, "lake node {j}");
                for n in surface.neighbors(j).filter(|&n| d.kind[n] != NodeKind::Lake) {
                    // Just inside the dry neighbour's cell, towards the lake.
                    let p = surface.onto(at(n) * 0.55 + at(j) * 0.45);
                    let natural = surface.natural_at(p);
                    let bank = bank_at(&surface, d, p, n, usize::MAX);
                    assert!(bank == natural || bank >= level, "node {n}: {bank} m, ground {natural} m");
                    shore += 1;
                    lifted += usize::from(natural < level && bank >= level);
                    if let Some(o) = outlet {
                        assert_eq!(bank_at(&surface, d, p, n, o), natural, "the river leaving the lake");
                    }
                }
            }
            assert!(lifted > 0 && lifted < shore, "some of {shore} shore points under the lake: {lifted}");
            let far = (0..d.kind.len())
                .filter(|&i| surface.neighbors(i).chain([i]).all(|j| d.kind[j] != NodeKind::Lake))
                .step_by(97);
            for i in far {
                let p = surface.onto(at(i) * 0.7 + at(surface.neighbors(i).next().unwrap_or(i)) * 0.3);
                assert_eq!(bank_at(&surface, d, p, i, usize::MAX), surface.natural_at(p), "dry node {i}");
            }
        });
    }

    /// Each pass alone on the quick world: the beds cut upstream first never rise and lie a
    /// channel's depth under the ground below them; a sill only lowers a lake's outlet bed and
    /// never under its floor; settling only lowers and leaves no face steeper than the limit;
    /// and the passes in order give the world's own reaches.
    #[test]
    fn each_pass_does_its_one_thing() {
        on_quick_layout(|terrain, layout| {
            let surface = terrain.surface();
            let (heights, drainage) = (&terrain.heights, &terrain.drainage);
            let params = CarveParams::for_world(&terrain.settings);
            let natural = natural_under_beds(layout);
            let (low, beside_beds) = low_banks(layout);
            assert_eq!((natural.len(), low.len()), (layout.reach_count, layout.reach_count));
            let (mut beds, mut node_bed) = cut_beds(layout, &natural, &low);
            for (k, &i) in layout.rivers().iter().enumerate() {
                let b = &beds[k];
                assert!(b.windows(2).all(|w| w[1] <= w[0]), "reach {k} rises");
                let depth = layout.sizing.depth(drainage.catchment_m2[i]);
                assert!(b[0] <= natural[k][0] - depth + 1e-9, "reach {k} starts a channel's depth down");
            }
            let cut = beds.clone();
            let spilling = cut_sills(layout, &natural, &low, &mut beds);
            for k in 0..layout.reach_count {
                if spilling[k].is_none() {
                    assert_eq!(beds[k], cut[k], "a sill only where a lake spills");
                }
                assert!(beds[k].iter().zip(&cut[k]).all(|(s, c)| s >= c), "a sill raises the cut bed to it");
            }
            let sills = beds.clone();
            settle_joins(layout, &mut beds, &mut node_bed);
            for (k, &i) in layout.rivers().iter().enumerate() {
                let step = layout.length(i) / (beds[k].len() - 1) as f64;
                assert!(beds[k].iter().zip(&sills[k]).all(|(a, b)| a <= b), "settling only lowers");
                assert!(beds[k].windows(2).all(|w| w[0] - w[1] <= MAX_FACE_SLOPE * step + 1e-9), "reach {k}");
            }
            let reaches = reaches(layout, beds, natural, beside_beds, spilling);
            let built = Carve::build(&params, &surface, heights, drainage);
            assert_eq!(reaches, built.reaches);
            assert_eq!(reaches, terrain.carve.reaches);
        });
    }
}
