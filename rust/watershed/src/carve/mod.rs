//! River channels cut into the ground: reaches, their beds, and the carved ground.
//!
//! A reach is one river edge (node → receiver). Its depth and width follow its catchment on
//! a log scale. Bed levels at the nodes never rise downstream; a tributary settles to its
//! main stream's level before the main stream's banks (plus 2 m); no face falls more than
//! [`MAX_FACE_SLOPE`]. The carved ground is the natural ground with every channel's bell
//! cross-section cut in, the nearer bed winning where channels overlap.

mod build;
pub mod terrain;

use crate::drainage::Drainage;
use crate::ground::grid::Grid;
use crate::ground::surface::Surface;
use crate::ground::topology::NodeId;
use crate::math::geometry::{bell, csr, segment_projection, smoothstep, Rows};
use crate::math::sphere;
use crate::settings::WorldSettings;
use build::{Layout, Sizing};
use glam::DVec3;
use rayon::prelude::*;

/// Steepest a bed may fall, metres per metre along the stream (about 80°).
pub const MAX_FACE_SLOPE: f64 = 6.0;
/// A channel leaving a lake is cut at most this far under the lake's level at its outlet,
/// metres: the lake's sill.
pub const SILL_DEPTH_M: f64 = 0.3;
/// Below a lake's sill the bed deepens no faster than this, metres per metre.
pub const SILL_SLOPE: f64 = 0.5;
/// A reach whose ground drops more than this is a waterfall (unless it drops into the sea), m.
pub const FALL_DROP_M: f64 = 8.0;
/// How far beyond the main stream's bank a tributary is already at the main stream's level, m.
pub const SETTLE_MARGIN_M: f64 = 2.0;
/// Where two channels' distances past their bed edges differ by less than this, the lower
/// one wins, metres.
pub const OVERLAP_M: f64 = 0.5;
/// The smallest river cuts this fraction of the world's channel depth.
const MIN_DEPTH_FRACTION: f64 = 0.3;
/// Width of the flat bed as a fraction of the channel's width.
const CORE_FRACTION: f64 = 0.3;

/// A reach's index in [`Carve::reaches`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ReachId(pub u32);

/// Where a reach's water goes at its lower end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReachEnd {
    /// Into another river node.
    River,
    /// Into a lake.
    Lake,
    /// Into the sea: the reach is a mouth and its shore gets a beach collar.
    Sea,
}

/// One river edge with its channel.
#[derive(Debug, Clone, PartialEq)]
pub struct Reach {
    /// The upstream node.
    pub from: NodeId,
    /// The node it drains into.
    pub to: NodeId,
    /// Unit direction of the upstream end.
    pub start: DVec3,
    /// Unit direction of the downstream end.
    pub end: DVec3,
    /// Length along the ground, metres.
    pub length_m: f64,
    /// Catchment at the upstream node, m².
    pub catchment_m2: f64,
    /// Channel depth under the natural ground, metres.
    pub depth_m: f64,
    /// Half the channel's width (centre line to bank), metres.
    pub half_width_m: f64,
    /// Bed levels at evenly spaced points from start to end (at most [`BED_STEP_M`] apart,
    /// at least [`MIN_BED_PIECES`] pieces), metres above the datum; never rising downstream.
    pub beds: Vec<f64>,
    /// Natural ground (before carving) under each bed point, metres above the datum.
    pub banks: Vec<f64>,
    /// The lower natural ground at the channel's two bank edges, where its water's edge
    /// may fall, beside each bed point (one per bed point), metres above the datum: read every
    /// [`BANK_SPACING_M`] and interpolated between, except between readings that differ by
    /// more than [`BANK_REFINE_M`], where it is read beside every bed point.
    pub low_banks: Vec<f64>,
    /// How far before its end the bed is already at the level of what it flows into (the
    /// receiving channel's bed, or the lake's or sea's floor), metres.
    pub settle_m: f64,
    /// The level of the lake that spills into the upstream node, when it is a lake's outlet,
    /// metres: the reach starts at that lake's sill ([`SILL_DEPTH_M`] under it) and the
    /// water in its channel is the river's, not the lake's.
    pub leaves_lake_m: Option<f64>,
    /// What the reach drains into.
    pub ends_in: ReachEnd,
    /// Natural ground drop from start to end, metres (heights before carving).
    pub drop_m: f64,
    /// Whether the reach is a waterfall: a drop over [`FALL_DROP_M`] not into the sea.
    pub fall: bool,
}

impl Reach {
    /// The unit direction a fraction `t` of the way from its start to its end (0 the start,
    /// 1 the end), along the chord between them.
    pub fn point_at(&self, t: f64) -> DVec3 {
        sphere::unit(self.chord_point(t))
    }

    /// The point a fraction `t` of the way along the chord from its start to its end, inside
    /// the unit sphere (not a unit direction: [`Reach::point_at`] is).
    pub fn chord_point(&self, t: f64) -> DVec3 {
        self.start + (self.end - self.start) * t
    }

    /// The unit direction halfway along the chord: where a mill stands on the reach.
    pub fn middle(&self) -> DVec3 {
        sphere::unit(self.start + self.end)
    }

    /// Downstream at the unit direction `dir`: the chord's direction in the plane level at
    /// `dir`, a unit vector.
    pub fn along_at(&self, dir: DVec3) -> DVec3 {
        let ab = self.end - self.start;
        sphere::unit(ab - dir * ab.dot(dir))
    }

    /// Across the stream, level at the reach's middle: the unit vector at right angles to
    /// its chord and to the up there, pointing to the right looking downstream.
    pub fn across(&self) -> DVec3 {
        sphere::unit((self.end - self.start).cross(self.start + self.end))
    }

    /// Bed level at the upstream end, metres above the datum.
    pub fn bed_start_m(&self) -> f64 {
        self.beds[0]
    }

    /// Bed level at the downstream end, metres above the datum.
    pub fn bed_end_m(&self) -> f64 {
        self.beds[self.pieces()]
    }

    /// Number of straight pieces the bed is made of.
    pub fn pieces(&self) -> usize {
        self.beds.len() - 1
    }

    /// Length of one bed piece, metres.
    pub fn step_m(&self) -> f64 {
        self.length_m / self.pieces() as f64
    }

    /// Bed level `s` metres downstream of the start: linear between bed points, each piece
    /// clipped between its two points' levels (no overshoot).
    pub fn bed_at(&self, s: f64) -> f64 {
        profile_at(&self.beds, (s / self.length_m.max(1e-9)).clamp(0.0, 1.0))
    }

    /// Half-width of the flat bed, metres.
    pub fn core_half_width_m(&self) -> f64 {
        CORE_FRACTION * self.half_width_m
    }

    /// Steepest fall of the bed between neighbouring bed points, metres per metre.
    pub fn face_slope(&self) -> f64 {
        let step = self.step_m();
        self.beds.windows(2).map(|w| (w[0] - w[1]) / step.max(1e-9)).fold(0.0, f64::max)
    }

    /// Whether the bed rises anywhere downstream.
    pub fn rises(&self) -> bool {
        self.beds.windows(2).any(|w| w[1] > w[0])
    }
}

/// A profile given at evenly spaced points from `t = 0` to `t = 1`, at `t`: linear between
/// points, and beyond the ends continued at the profile's mean slope (end to end).
pub fn profile_at(values: &[f64], t: f64) -> f64 {
    let (Some(&first), Some(&last)) = (values.first(), values.last()) else { return f64::NAN };
    if values.len() < 2 {
        return first;
    }
    if t < 0.0 {
        return first + (last - first) * t;
    }
    if t > 1.0 {
        return last + (last - first) * (t - 1.0);
    }
    let n = values.len() - 1;
    let x = t * n as f64;
    let k = (x.floor() as usize).min(n - 1);
    let (a, b) = (values[k], values[k + 1]);
    a + (b - a) * (x - k as f64)
}

/// Longest piece of a bed, metres. The bed follows the natural ground down at this spacing
/// instead of bridging dips as one straight line, and with the face limit no bed stands
/// more than `MAX_FACE_SLOPE * BED_STEP_M` above the ground below a cliff.
pub const BED_STEP_M: f64 = 1.0;
/// Fewest pieces a bed is cut into, however short the reach.
pub const MIN_BED_PIECES: usize = 16;
/// The ground beside a channel is read this far apart along it, metres (and at every bed
/// point between two readings that differ by more than [`BANK_REFINE_M`]).
pub const BANK_SPACING_M: f64 = 4.0;
/// Two readings of the ground beside a channel [`BANK_SPACING_M`] apart that differ by more
/// than this are not interpolated: the ground between them is read at every bed point,
/// metres. A steep or broken bank (a trough between two cliff bands a few metres wide) is
/// where a straight line between readings bridges ground metres lower.
pub const BANK_REFINE_M: f64 = 1.0;

/// Counts for reports and the carve tests. Its serde form is the one schema of these names:
/// `report.json`'s `carve`.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct CarveStats {
    /// Reaches.
    pub reaches: usize,
    /// Invariant (0): reaches whose bed rises downstream.
    pub bed_rising: usize,
    /// Invariant (0): streams whose bed at a join is below the bed of the stream they join.
    pub tributary_below_main: usize,
    /// Invariant (0): reaches whose bed falls more steeply than [`MAX_FACE_SLOPE`].
    pub steep_faces: usize,
    /// Waterfalls.
    pub falls: usize,
    /// The tallest waterfall's drop, metres.
    pub tallest_fall_m: f64,
    /// Mouths, each with a beach collar.
    pub mouths_with_collar: usize,
    /// Invariant (0): stretches whose bed stands more than 6 m above the carved ground there
    /// (not counted where the sea, or the lake the stream ends in, covers the ground).
    pub floating_stretches: usize,
    /// Stretches whose channel is under 0.1 m deep.
    pub shallow_stretches: usize,
    /// Centre-line samples checked per reach for the last two counts.
    pub samples_per_reach: usize,
}

/// What a carve needs of its world besides the ground and the drainage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CarveParams {
    /// Depth of the largest river's channel, metres.
    pub channel_depth_m: f64,
    /// Half of every channel's width (centre line to bank), metres; `None` for widths that
    /// grow with the catchment (from the depth up to twice the depth).
    pub half_width_m: Option<f64>,
    /// The sea's level, metres above the datum; `None` without a sea.
    pub sea_level_m: Option<f64>,
}

impl CarveParams {
    /// A planet's carve parameters, from its settings.
    pub fn for_world(settings: &WorldSettings) -> Self {
        CarveParams {
            channel_depth_m: settings.channel_depth_m,
            half_width_m: None,
            sea_level_m: settings.sea.then_some(settings.sea_level_m),
        }
    }
}

/// Every channel of one world and an index to find them from any point.
#[derive(Debug, Clone)]
pub struct Carve {
    /// The reaches, in the order of their upstream node.
    pub reaches: Vec<Reach>,
    /// Reaches touching each node.
    touching: Rows,
    /// The reaches whose banks or collar may reach a point, found from its nearest node.
    near: Near,
    metres_per_unit: f64,
    sea_level_m: Option<f64>,
}

impl Carve {
    /// The source of the main stem of the river with the most catchment at its mouth (into
    /// the sea, or a lake on a world without mouths): walk up from that mouth, at each join
    /// taking the reach with the larger catchment (ties: the lower index), to a reach nothing
    /// flows into. The reach's index, `None` without rivers.
    pub fn main_stem_source(&self) -> Option<usize> {
        let reaches = &self.reaches;
        let ends = |e: ReachEnd| (0..reaches.len()).filter(move |&k| reaches[k].ends_in == e);
        let largest = |it: &mut dyn Iterator<Item = usize>| {
            it.max_by(|&a, &b| reaches[a].catchment_m2.total_cmp(&reaches[b].catchment_m2).then(b.cmp(&a)))
        };
        let mut at = largest(&mut ends(ReachEnd::Sea)).or_else(|| largest(&mut ends(ReachEnd::Lake)))?;
        for _ in 0..reaches.len() {
            let from = reaches[at].from;
            let ups =
                self.reaches_at(from.index()).iter().map(|&k| k as usize).filter(|&k| reaches[k].to == from);
            match largest(&mut ups.collect::<Vec<_>>().into_iter()) {
                Some(up) => at = up,
                None => break,
            }
        }
        Some(at)
    }

    /// Builds the reaches and beds of a solved world on `surface` (`heights` are the natural
    /// ground at its nodes, before carving).
    pub fn build<S: Surface>(
        params: &CarveParams,
        surface: &S,
        heights: &[f64],
        drainage: &Drainage,
    ) -> Self {
        let sizing = Sizing::of(drainage, params.channel_depth_m, params.half_width_m);
        let layout = Layout::new(surface, heights, drainage, sizing);
        let natural = build::natural_under_beds(&layout);
        let (low_banks, beside_beds) = build::low_banks(&layout);
        let (mut beds, mut node_bed) = build::cut_beds(&layout, &natural, &low_banks);
        let spilling = build::cut_sills(&layout, &natural, &low_banks, &mut beds);
        build::settle_joins(&layout, &mut beds, &mut node_bed);
        let reaches = build::reaches(&layout, beds, natural, beside_beds, spilling);
        let (n, radius) = (drainage.kind.len(), layout.radius);
        let touching = index(n, &reaches);
        let near = match surface.grid() {
            Some(grid) => Near::Tiles(Tiles::build(grid, &reaches, params.sea_level_m.is_some())),
            None => Near::Nodes(near_nodes(surface, &reaches)),
        };
        Carve { reaches, touching, near, metres_per_unit: radius, sea_level_m: params.sea_level_m }
    }

    /// The bed level at river node `node`: where its own reach starts, metres (the natural
    /// ground if no reach starts there).
    pub fn bed_of(&self, node: NodeId) -> f64 {
        self.reaches_at(node.index())
            .iter()
            .map(|&id| &self.reaches[id as usize])
            .find(|r| r.from == node)
            .map_or(f64::INFINITY, Reach::bed_start_m)
    }

    /// Every reach whose banks or collar can reach a point whose nearest node is `node`,
    /// ascending: on the sphere the reaches touching the node or any of its neighbours; on a
    /// grid those listed for the node's tile.
    pub fn reaches_near(&self, node: usize) -> &[u32] {
        match &self.near {
            Near::Nodes(near) => near.row(node),
            Near::Tiles(tiles) => tiles.of_cell(node),
        }
    }

    /// The reach that starts at node `n` (the edge to its receiver), if `n` is a river node
    /// that drains somewhere.
    pub fn reach_from(&self, n: usize) -> Option<ReachId> {
        let starts_here = |&&k: &&u32| self.reaches[k as usize].from.index() == n;
        self.reaches_at(n).iter().find(starts_here).map(|&k| ReachId(k))
    }

    /// The main stream into node `n`: of the reaches ending there, the one with the largest
    /// catchment (ties: the lower index); `None` where no reach ends at `n`.
    pub fn main_reach_into(&self, n: usize) -> Option<ReachId> {
        let reaches = &self.reaches;
        (self.reaches_at(n).iter().map(|&k| k as usize))
            .filter(|&k| reaches[k].to.index() == n)
            .max_by(|&a, &b| reaches[a].catchment_m2.total_cmp(&reaches[b].catchment_m2).then(b.cmp(&a)))
            .map(|k| ReachId(k as u32))
    }

    /// Reaches touching node `n` (as upstream or downstream end), ascending.
    pub fn reaches_at(&self, n: usize) -> &[u32] {
        self.touching.row(n)
    }

    /// The carved and the natural ground at `p`, a point on `surface` (a unit direction on
    /// the sphere), metres above the datum. One nearest-node search serves both.
    ///
    /// # Invariants
    /// The carved ground is never above the natural; they are equal farther than a bank (or
    /// a collar) from any reach.
    pub fn ground_at<S: Surface>(&self, surface: &S, p: DVec3) -> (f64, f64) {
        if self.reaches.is_empty() {
            let natural = surface.natural_at(p);
            return (natural, natural);
        }
        self.ground_near(surface, p, surface.nearest_node(p))
    }

    /// [`Carve::ground_at`] with `node`, the node of `surface` nearest `p`, already found.
    pub fn ground_near<S: Surface>(&self, surface: &S, p: DVec3, node: usize) -> (f64, f64) {
        let natural = surface.natural_near(p, node);
        if self.reaches.is_empty() {
            return (natural, natural);
        }
        (self.cut_near(p, natural, self.reaches_near(node)), natural)
    }

    /// The carved ground at `p` given the natural ground `natural_m` there, metres, with the
    /// reaches near `p` already found ([`Carve::reaches_near`] of its nearest node).
    ///
    /// # Invariants
    /// Never above `natural_m`; equal to it farther than a bank (or a collar) from any reach.
    pub fn cut_near(&self, p: DVec3, natural_m: f64, near: &[u32]) -> f64 {
        let mut best: Option<(f64, f64)> = None;
        let mut ground = natural_m;
        for &id in near {
            let reach = &self.reaches[id as usize];
            if let Some(candidate) = self.channel(reach, p, natural_m) {
                best = match best {
                    Some(b) if !nearer_bed_wins(candidate, b) => Some(b),
                    _ => Some(candidate),
                };
            }
            if reach.ends_in == ReachEnd::Sea {
                ground = ground.min(self.collar(reach, p, natural_m));
            }
        }
        match best {
            Some((_, g)) => ground.min(g),
            None => ground,
        }
    }

    /// Distance past the bed's edge and the carved ground of one reach at `p`, if `p` is
    /// within its banks.
    fn channel(&self, reach: &Reach, p: DVec3, natural_m: f64) -> Option<(f64, f64)> {
        let (s, d) = self.along_across(reach, p);
        if d >= reach.half_width_m {
            return None;
        }
        let bed = reach.bed_at(s);
        let core = reach.core_half_width_m();
        let out = d - core;
        let x = (out / (reach.half_width_m - core)).clamp(0.0, 1.0);
        let g = bed + (natural_m - bed) * (1.0 - bell(x));
        Some((out, g.min(natural_m)))
    }

    /// Metres along the reach from its start (clamped to the reach) and across from it.
    fn along_across(&self, reach: &Reach, p: DVec3) -> (f64, f64) {
        let (t, across) = segment_projection(reach.start, reach.end, p);
        (t * reach.length_m, across * self.metres_per_unit)
    }

    /// The beach collar around a mouth: ground eased down to just above the sea (never below
    /// the mouth's own bed inside its channel).
    fn collar(&self, reach: &Reach, p: DVec3, natural_m: f64) -> f64 {
        let Some(sea) = self.sea_level_m else { return natural_m };
        let beach = sea + 0.3;
        if natural_m <= beach {
            return natural_m;
        }
        let radius = collar_radius_m(reach);
        let d = (p - reach.end).length() * self.metres_per_unit;
        if d >= radius {
            return natural_m;
        }
        let eased = beach + (natural_m - beach) * smoothstep(0.0, 1.0, d / radius);
        // Inside the mouth's own channel the beach never cuts below the bed.
        let (s, across) = self.along_across(reach, p);
        if across < reach.half_width_m {
            eased.max(reach.bed_at(s))
        } else {
            eased
        }
    }
}

/// Whether channel `a` sets the ground over channel `b` where both cover a point; each is
/// (metres past its bed's edge, carved ground there). The stream whose bed is nearer wins;
/// the lower wins where both beds cover the point or the two are within [`OVERLAP_M`].
pub fn nearer_bed_wins(a: (f64, f64), b: (f64, f64)) -> bool {
    let lowest = (a.0 <= 0.0 && b.0 <= 0.0) || (a.0 - b.0).abs() < OVERLAP_M;
    if lowest {
        a.1 < b.1
    } else {
        a.0 < b.0
    }
}

/// How far from a mouth's end its beach collar reaches, metres.
fn collar_radius_m(reach: &Reach) -> f64 {
    2.5 * reach.half_width_m + 10.0
}

/// Where [`Carve::reaches_near`] looks.
#[derive(Debug, Clone)]
enum Near {
    /// On the sphere, every node's list.
    Nodes(Rows),
    /// On a grid, every tile's list.
    Tiles(Tiles),
}

/// Every reach whose banks, water or collar can reach a point whose nearest node is each
/// node of `surface`, ascending: the reaches touching the node or any of its neighbours,
/// and on the sphere finer than a channel is wide, those a few nodes away too.
fn near_nodes<S: Surface>(surface: &S, reaches: &[Reach]) -> Rows {
    let lists: Vec<Vec<u32>> = reaches.par_iter().map(|r| nodes_near_reach(surface, r)).collect();
    let pairs =
        || lists.iter().zip(0u32..).flat_map(|(nodes, k)| nodes.iter().map(move |&n| (n as usize, k)));
    let mut near = csr(surface.len(), pairs);
    near.dedup_rows();
    near
}

/// The nodes of `surface` whose cells `reach` can reach: its ends and their neighbours, and
/// every node joined to them through such nodes that stands no farther from the reach than
/// its banks, water or collar reach plus the node's longest edge (a point's nearest node is
/// no farther from it than that).
fn nodes_near_reach<S: Surface>(surface: &S, reach: &Reach) -> Vec<u32> {
    let scale = surface.metres_per_unit();
    // Banks and the water past the ends stay within √2 half-widths of the segment.
    let mut reach_m = 2.0 * reach.half_width_m;
    if reach.ends_in == ReachEnd::Sea {
        reach_m = reach_m.max(collar_radius_m(reach));
    }
    let mut nodes: Vec<u32> = Vec::new();
    for end in [reach.from.index(), reach.to.index()] {
        for n in std::iter::once(end).chain(surface.neighbors(end)) {
            if !nodes.contains(&(n as u32)) {
                nodes.push(n as u32);
            }
        }
    }
    let within = |j: usize| {
        let at = surface.position(j);
        let longest = surface.neighbors(j).map(|m| (surface.position(m) - at).length()).fold(0.0, f64::max);
        segment_projection(reach.start, reach.end, at).1 <= reach_m / scale + longest
    };
    let mut next = 0;
    while next < nodes.len() {
        let n = nodes[next] as usize;
        next += 1;
        for j in surface.neighbors(n) {
            if !nodes.contains(&(j as u32)) && within(j) {
                nodes.push(j as u32);
            }
        }
    }
    nodes
}

/// Edge of a square tile of grid cells in [`Tiles`], cells.
const TILE_CELLS: usize = 8;

/// On a grid, the reaches whose banks or collar may reach each tile of
/// [`TILE_CELLS`]² cells, ascending (a channel there is many cells wide).
#[derive(Debug, Clone)]
struct Tiles {
    /// Cells per grid row.
    width: usize,
    /// Tiles per row.
    across: usize,
    /// The reaches of each tile, row by row of tiles.
    reaches: Rows,
}

impl Tiles {
    /// Lists every reach in each tile within its reach (half-width, or collar for a mouth
    /// when there is a sea) plus a cell of its segment's bounding box.
    fn build(grid: &Grid, reaches: &[Reach], sea: bool) -> Self {
        let across = grid.width.div_ceil(TILE_CELLS);
        let down = grid.height.div_ceil(TILE_CELLS);
        let tile_m = TILE_CELLS as f64 * grid.cell_m;
        let span = |lo: f64, hi: f64, count: usize| {
            let first = (lo / tile_m).floor().clamp(0.0, (count - 1) as f64) as usize;
            let last = (hi / tile_m).floor().clamp(0.0, (count - 1) as f64) as usize;
            first..=last
        };
        let pairs = || {
            reaches.iter().zip(0u32..).flat_map(move |(r, k)| {
                let mut margin = r.half_width_m;
                if sea && r.ends_in == ReachEnd::Sea {
                    margin = margin.max(collar_radius_m(r));
                }
                let margin = margin + grid.cell_m;
                let (lo, hi) = (r.start.min(r.end) - margin, r.start.max(r.end) + margin);
                let columns = span(lo.x, hi.x, across);
                span(lo.y, hi.y, down)
                    .flat_map(move |row| columns.clone().map(move |col| (row * across + col, k)))
            })
        };
        Tiles { width: grid.width, across, reaches: csr(across * down, pairs) }
    }

    /// The reaches listed for the tile holding cell `i`.
    fn of_cell(&self, i: usize) -> &[u32] {
        let (row, col) = (i / self.width, i % self.width);
        let t = (row / TILE_CELLS) * self.across + col / TILE_CELLS;
        self.reaches.row(t)
    }
}

/// The reaches touching each of `n` nodes.
fn index(n: usize, reaches: &[Reach]) -> Rows {
    csr(n, || reaches.iter().zip(0u32..).flat_map(|(r, k)| [(r.from.index(), k), (r.to.index(), k)]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_nearer_bed_sets_the_ground() {
        // Both beds cover the point: the lower ground wins.
        assert!(nearer_bed_wins((-1.0, 3.0), (-0.5, 5.0)));
        assert!(!nearer_bed_wins((-1.0, 5.0), (-0.5, 3.0)));
        // A tributary's bed 0.2 m past its edge against a river 4 m past its bank-side edge:
        // the tributary is nearer and wins even though the river is 10 m lower.
        assert!(nearer_bed_wins((0.2, 20.0), (4.0, 10.0)));
        // Within 0.5 m of each other the lower wins.
        assert!(nearer_bed_wins((1.3, 10.0), (1.0, 20.0)));
        assert!(!nearer_bed_wins((1.3, 20.0), (1.0, 10.0)));
    }
}
