//! Stream-power erosion on any [`Topology`]: uplift, detachment-limited incision
//! `dz/dt = U − K·A^m·S` solved implicitly in receiver order (Braun & Willett 2013, n = 1),
//! linear hillslope diffusion, and depressions filled to their spill level every step
//! (lakes fill with sediment, then spill), so no step leaves a false sink.

use super::{ErosionReport, FrameSink};
use crate::drainage::{order_and_catchment_into, DrainageParams, OrderScratch, Outlet, Router};
use crate::ground::grid::Grid;
use crate::ground::topology::Topology;
use rayon::prelude::*;

/// Years one erosion step of a world stands for (`erosion_steps` counts these).
pub const STEP_YEARS: f64 = 10_000.0;

/// The model's constants. Time is in years, lengths in metres.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StreamPower {
    /// Erodibility `K`, per year (for area in m² raised to `m`).
    pub k: f64,
    /// Area exponent `m` (0.5 is the usual choice; the slope exponent is 1).
    pub m: f64,
    /// Rock uplift `U`, metres per year (0: the ground only wears down).
    pub uplift_m_per_yr: f64,
    /// Hillslope diffusivity, m²/yr.
    pub diffusion_m2_per_yr: f64,
    /// Length of one step, years.
    pub dt_yr: f64,
    /// Depressions deeper than this (metres) stay lakes; shallower ones fill with sediment
    /// to their spill level. Infinite: every pit fills.
    pub lake_min_depth_m: f64,
    /// Catchment below which water runs off a hillslope as a sheet, m²: a node that gathers
    /// less cuts as one that gathers this much, so hillslopes keep one steepest slope,
    /// `U / (K·channel_head^m)`, whatever the node spacing (0: every node cuts by its own
    /// catchment).
    pub channel_head_m2: f64,
}

impl Default for StreamPower {
    /// Constants that cut valleys into a few hundred metres of relief within a hundred steps.
    fn default() -> Self {
        StreamPower {
            k: 2.0e-5,
            m: 0.5,
            uplift_m_per_yr: 0.0,
            diffusion_m2_per_yr: 0.01,
            dt_yr: STEP_YEARS,
            lake_min_depth_m: f64::INFINITY,
            channel_head_m2: 0.0,
        }
    }
}

/// Where the rock rises during a run, what stays put and how low the ground may go.
#[derive(Debug, Clone, PartialEq)]
pub struct Tectonics {
    /// Share of the model's uplift rate each node gets, 0..=1 (one per node, or empty: all
    /// of it everywhere).
    pub uplift_share: Vec<f64>,
    /// Nodes that keep their height (one per node, or empty: none): a basin shaped on
    /// purpose.
    pub held: Vec<bool>,
    /// No eroding node goes below this, metres: the sea level, so land stays land.
    pub floor_m: f64,
}

impl Tectonics {
    /// The same uplift everywhere, nothing held, no floor.
    pub fn uniform() -> Self {
        Tectonics { uplift_share: Vec::new(), held: Vec::new(), floor_m: f64::NEG_INFINITY }
    }

    /// Whether node `i` keeps its height.
    fn holds(&self, i: usize) -> bool {
        self.held.get(i).copied().unwrap_or(false)
    }

    /// How far node `i` rises in `dt_yr` years at `rate` (the model's uplift, metres per year).
    fn lift_m(&self, i: usize, rate: f64, dt_yr: f64) -> f64 {
        self.uplift_share.get(i).copied().unwrap_or(1.0) * rate * dt_yr
    }
}

/// Runs `steps` steps of stream-power erosion on `heights` (metres, one per node of
/// `topo`) with the same uplift everywhere, calling `frame` after each. Outlet nodes (sea,
/// map edge, the terminal sink of `outlets`) hold their height: they are the base level.
///
/// # Panics
/// If `heights.len() != topo.len()`.
pub fn erode_stream_power<T: Topology>(
    topo: &T,
    heights: &mut [f64],
    model: &StreamPower,
    outlets: &DrainageParams,
    steps: usize,
    frame: FrameSink,
) -> ErosionReport {
    let before = heights.to_vec();
    let tectonics = Tectonics::uniform();
    let mut buffers = StepBuffers::default();
    for step in 0..steps {
        stream_power_step(topo, heights, model, outlets, &tectonics, &mut buffers);
        frame(step + 1, heights, &[]);
    }
    ErosionReport::between(topo, &before, heights, steps)
}

/// What stream-power steps on one surface work in, kept from one step to the next so no
/// step allocates or works it out again. One set serves steps on one surface.
#[derive(Debug, Default)]
pub(crate) struct StepBuffers {
    router: Router,
    /// Every node after the nodes that drain into it.
    order: Vec<u32>,
    /// Each node's catchment (m²), then, worked out from it in place, its incision factor
    /// `K·dt·A^m / d`, d its distance to its receiver (dimensionless; 0 where the node has
    /// no receiver).
    incision: Vec<f64>,
    scratch: OrderScratch,
    fixed: Vec<bool>,
    other: Vec<f64>,
    inverse_squares: InverseSquares,
    distances: ReceiverDistances,
    /// The largest diffusion stiffness of the whole surface, per m², when the steps run on
    /// part of it: the sub-steps are those of the whole.
    pub(crate) whole_stiffness: Option<f64>,
}

/// One step: route, uplift and incise in receiver order (outlets first), fill what became
/// a shallow pit, then diffuse. Held nodes and outlets keep their height.
pub(crate) fn stream_power_step<T: Topology>(
    topo: &T,
    heights: &mut [f64],
    model: &StreamPower,
    outlets: &DrainageParams,
    tectonics: &Tectonics,
    buffers: &mut StepBuffers,
) {
    let StepBuffers {
        router,
        order,
        incision,
        scratch,
        fixed,
        other,
        inverse_squares,
        distances,
        whole_stiffness,
    } = buffers;
    debug_assert!(
        [tectonics.uplift_share.len(), tectonics.held.len()].iter().all(|&len| len == 0 || len == topo.len()),
        "tectonics lists hold one value per node, or none"
    );
    // The order still holds the last step's, of the receivers the router holds.
    let (receivers, filled_m) = router.receivers(topo, heights, outlets, order);
    order_and_catchment_into(topo, receivers, order, incision, scratch);
    let dt = model.dt_yr;
    distances.update(topo, receivers);
    incision_factors(receivers, model, distances, incision);
    for i in order.iter().rev().map(|&i| i as usize) {
        let Outlet::Flows(r) = receivers[i] else { continue };
        if tectonics.holds(i) {
            continue;
        }
        let r = r.index();
        let lifted = heights[i] + tectonics.lift_m(i, model.uplift_m_per_yr, dt);
        if filled_m[i] > heights[i] {
            heights[i] = if filled_m[i] - heights[i] > model.lake_min_depth_m {
                lifted // deep enough to stay a lake: only the rock moves
            } else {
                // A shallow pit: it fills with sediment up to its receiver's new height, so the
                // flood sees a flat, not a pit, also where this step lifted the spill above
                // the old fill.
                lifted.max(heights[r])
            };
            continue;
        }
        let f = incision[i];
        heights[i] = ((lifted + f * heights[r]) / (1.0 + f)).max(heights[r]).max(tectonics.floor_m);
    }
    if model.diffusion_m2_per_yr > 0.0 {
        fixed.clear();
        fixed.extend(receivers.iter().enumerate().map(|(i, o)| tectonics.holds(i) || o.receiver().is_none()));
        if topo.grid().is_none() {
            inverse_squares.fill(topo);
        }
        let laplacian = Laplacian::new(topo, inverse_squares);
        diffuse(&laplacian, heights, fixed, model.diffusion_m2_per_yr * dt, *whole_stiffness, other);
        if tectonics.floor_m > f64::NEG_INFINITY {
            for (h, _) in heights.iter_mut().zip(fixed.iter()).filter(|(_, &fixed)| !fixed) {
                *h = h.max(tectonics.floor_m);
            }
        }
    }
}

/// Each node's catchment `A` (m², one per node in `incision`) turned in place into its
/// incision factor `K·dt·max(A, channel head)^m / d`, d its distance to its receiver
/// (metres, from `distances`); 0 where it has no receiver. The power is the square root,
/// correctly rounded on every machine, for the usual `m = 0.5`. Worked out in node order
/// beside one another, so the receiver-order walk reads one number per node.
fn incision_factors(
    receivers: &[Outlet],
    model: &StreamPower,
    distances: &ReceiverDistances,
    incision: &mut [f64],
) {
    const CHUNK: usize = 4096;
    let kdt = model.k * model.dt_yr;
    incision.par_chunks_mut(CHUNK).enumerate().for_each(|(chunk, out)| {
        let first = chunk * CHUNK;
        // A hillslope node cuts as one at the channel head.
        let head = model.channel_head_m2;
        if model.m == 0.5 {
            out.iter_mut().for_each(|f| *f = f.max(head).sqrt());
        } else {
            out.iter_mut().for_each(|f| *f = libm::pow(f.max(head), model.m));
        }
        for ((f, o), d) in out.iter_mut().zip(&receivers[first..]).zip(&distances.metres[first..]) {
            *f = match o {
                Outlet::Flows(_) => kdt * *f / d,
                _ => 0.0,
            };
        }
    });
}

/// Each node's distance to its receiver, metres, kept from step to step with the receiver
/// it was measured to: most receivers stay from one step to the next, and on a large surface
/// a distance costs two reads far apart in memory.
#[derive(Debug, Default)]
struct ReceiverDistances {
    /// The receiver each distance was measured to (`u32::MAX`: none yet).
    to: Vec<u32>,
    /// The distances, metres (stale where `to` is not the node's receiver).
    metres: Vec<f64>,
}

impl ReceiverDistances {
    /// Measures again the distances to `receivers` (one per node of `topo`) that changed.
    fn update<T: Topology>(&mut self, topo: &T, receivers: &[Outlet]) {
        const CHUNK: usize = 4096;
        if self.to.len() != topo.len() {
            self.to = vec![u32::MAX; topo.len()];
            self.metres = vec![0.0; topo.len()];
        }
        let chunks = self.to.par_chunks_mut(CHUNK).zip(self.metres.par_chunks_mut(CHUNK));
        chunks.enumerate().for_each(|(chunk, (to, metres))| {
            let first = chunk * CHUNK;
            let nodes = receivers[first..].iter().zip(to.iter_mut().zip(metres)).enumerate();
            for (k, (o, (to, d))) in nodes {
                if let Outlet::Flows(r) = o {
                    if *to != r.0 {
                        *to = r.0;
                        *d = topo.distance_m(first + k, r.index());
                    }
                }
            }
        });
    }
}

/// The most explicit diffusion sub-steps in one erosion step.
pub const MAX_DIFFUSION_SUBSTEPS: usize = 4;

/// Linear diffusion `dz/dt = κ∇²z` for `kappa_dt` (m², κ times the time) in explicit
/// sub-steps, at most [`MAX_DIFFUSION_SUBSTEPS`]: where stability would need more (fine
/// cells, long steps) the step diffuses only as far as those sub-steps safely reach.
/// `fixed` nodes hold their height. The Laplacian at a node with k neighbours is
/// `(4/k)·Σ (z_j − z_i)/d²`, exact on grids of four or eight neighbours. `worst` is the
/// largest stiffness to bound the sub-steps by (per m²; `None`: the surface's own). `other`
/// is scratch.
fn diffuse<T: Topology>(
    laplacian: &Laplacian<'_, T>,
    heights: &mut [f64],
    fixed: &[bool],
    kappa_dt: f64,
    worst: Option<f64>,
    other: &mut Vec<f64>,
) {
    let topo = laplacian.topo;
    let worst = worst.unwrap_or_else(|| laplacian.worst_stiffness());
    let substeps = (kappa_dt * worst / 0.45).ceil().clamp(1.0, MAX_DIFFUSION_SUBSTEPS as f64);
    let h = (kappa_dt / substeps).min(0.45 / worst.max(f64::MIN_POSITIVE));
    // Sub-steps alternate between `heights` and a second buffer, every cell of which each
    // sub-step writes.
    other.resize(topo.len(), 0.0);
    let substeps = substeps as usize;
    for k in 0..substeps {
        match k % 2 {
            0 => laplacian.step(heights, fixed, h, other),
            _ => laplacian.step(other, fixed, h, heights),
        }
    }
    if substeps % 2 == 1 {
        heights.copy_from_slice(other);
    }
}

/// The largest diffusion stiffness of `topo`'s nodes, `(4/k)·Σ 1/d²`, per m²: what bounds
/// a stable diffusion sub-step there.
pub(crate) fn worst_stiffness<T: Topology>(topo: &T) -> f64 {
    Laplacian::new(topo, &InverseSquares::default()).worst_stiffness()
}

/// Every node's neighbours' `1/d²` (per m²), in neighbour order: node i's are
/// `values[starts[i]..starts[i + 1]]`. Worked out once for all the steps on one surface
/// off the grids, where a node's distances are not those of every other node.
#[derive(Debug, Default)]
struct InverseSquares {
    starts: Vec<u32>,
    values: Vec<f64>,
}

impl InverseSquares {
    /// Works out those of `topo`, unless they are already held (for as many nodes).
    fn fill<T: Topology>(&mut self, topo: &T) {
        if self.starts.len() == topo.len() + 1 {
            return;
        }
        self.values = (0..topo.len())
            .into_par_iter()
            .flat_map_iter(|i| topo.neighbors(i).map(move |j| topo.distance_m(i, j).powi(-2)))
            .collect();
        self.starts.clear();
        self.starts.push(0);
        for i in 0..topo.len() {
            let start = self.starts[i] as usize;
            self.starts.push((start + topo.neighbors(i).count()) as u32);
        }
    }

    /// Node `i`'s, if held.
    fn of(&self, i: usize) -> Option<&[f64]> {
        let (start, end) = (*self.starts.get(i)?, *self.starts.get(i + 1)?);
        Some(&self.values[start as usize..end as usize])
    }
}

/// The discrete Laplacian of a topology: at a node with k neighbours,
/// `(4/k)·Σ (z_j − z_i)/d²`, per m.
struct Laplacian<'a, T: Topology> {
    topo: &'a T,
    /// On a grid, the inner cells' neighbours and their `1/d²` (per m²), in neighbour order.
    inner: Option<(&'a Grid, [f64; 8])>,
    /// Every node's `1/d²`, when they were worked out ahead (none held: each is worked out
    /// as it is needed).
    inverse_squares: &'a InverseSquares,
}

impl<'a, T: Topology> Laplacian<'a, T> {
    fn new(topo: &'a T, inverse_squares: &'a InverseSquares) -> Self {
        let inner = topo.grid().and_then(|grid| {
            let i = (1..grid.height.saturating_sub(1)).find_map(|row| {
                let (first, last) = grid.inner_columns(row);
                (first < last).then_some(row * grid.width + first)
            })?;
            Some((grid, grid.inner_neighbours(i).map(|j| topo.distance_m(i, j).powi(-2))))
        });
        Laplacian { topo, inner, inverse_squares }
    }

    /// `(4/k)·Σ 1/d²` at node `i` with k neighbours, per m².
    fn stiffness(&self, i: usize) -> f64 {
        let (mut k, mut sum) = (0usize, 0.0);
        for j in self.topo.neighbors(i) {
            k += 1;
            sum += self.topo.distance_m(i, j).powi(-2);
        }
        4.0 / k.max(1) as f64 * sum
    }

    /// Node `i`'s neighbour count k and `Σ (z_j − z_i)/d²`, per m.
    fn pull(&self, i: usize, z: &[f64]) -> (f64, f64) {
        let (mut k, mut pull) = (0usize, 0.0);
        if let Some(inverse_squares) = self.inverse_squares.of(i) {
            for (j, inverse_square) in self.topo.neighbors(i).zip(inverse_squares) {
                k += 1;
                pull += (z[j] - z[i]) * inverse_square;
            }
            return (k.max(1) as f64, pull);
        }
        for j in self.topo.neighbors(i) {
            k += 1;
            pull += (z[j] - z[i]) * self.topo.distance_m(i, j).powi(-2);
        }
        (k.max(1) as f64, pull)
    }

    /// The largest stiffness over the nodes, per m²: what bounds a stable sub-step.
    fn worst_stiffness(&self) -> f64 {
        match self.inner {
            Some((grid, weights)) => {
                let inner = 4.0 / 8.0 * weights.iter().fold(0.0, |sum, w| sum + w);
                (0..grid.height)
                    .flat_map(|row| {
                        let (first, last) = grid.inner_columns(row);
                        (0..first).chain(last..grid.width).map(move |col| row * grid.width + col)
                    })
                    .map(|i| self.stiffness(i))
                    .fold(inner, f64::max)
            }
            None => (0..self.topo.len()).into_par_iter().map(|i| self.stiffness(i)).reduce(|| 0.0, f64::max),
        }
    }

    /// One explicit sub-step of length `h` (m², κ times the time) from `z` into `next`;
    /// `fixed` nodes keep their height.
    fn step(&self, z: &[f64], fixed: &[bool], h: f64, next: &mut [f64]) {
        let general = |i: usize| {
            if fixed[i] {
                z[i]
            } else {
                let (k, pull) = self.pull(i, z);
                z[i] + h * 4.0 / k * pull
            }
        };
        let Some((grid, weights)) = self.inner else {
            next.par_iter_mut().enumerate().for_each(|(i, out)| *out = general(i));
            return;
        };
        let w = grid.width;
        next.par_chunks_mut(w).enumerate().for_each(|(row, out)| {
            let (first, last) = grid.inner_columns(row);
            for col in (0..first).chain(last..w) {
                out[col] = general(row * w + col);
            }
            if first >= last {
                return;
            }
            // The rows above, at and below, read as slices: the neighbours of
            // `Grid::inner_neighbours`, summed in its order, one cell after another in a
            // loop with no jumps, so the cells' sums run side by side (and vectorise).
            let (up, at, down) =
                (&z[(row - 1) * w..row * w], &z[row * w..(row + 1) * w], &z[(row + 1) * w..(row + 2) * w]);
            let len = last - first;
            let around: [&[f64]; 8] = [
                &up[first - 1..][..len],
                &up[first..][..len],
                &up[first + 1..][..len],
                &at[first - 1..][..len],
                &at[first + 1..][..len],
                &down[first - 1..][..len],
                &down[first..][..len],
                &down[first + 1..][..len],
            ];
            let centre = &at[first..last];
            let fixed = &fixed[row * w + first..row * w + last];
            let rate = h * 4.0 / 8.0;
            let out = &mut out[first..last];
            for c in 0..len {
                let zi = centre[c];
                let mut pull = 0.0;
                for (row_j, inverse_square) in around.iter().zip(weights) {
                    pull += (row_j[c] - zi) * inverse_square;
                }
                out[c] = if fixed[c] { zi } else { zi + rate * pull };
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drainage::route;
    use crate::ground::grid::Grid;
    use crate::testkit::PlainGrid;

    fn edge_outlets() -> DrainageParams {
        DrainageParams::outlets(None, true)
    }

    /// Each node's distance is to its receiver of the latest step, also where the receiver
    /// changed between steps or the node had none before.
    #[test]
    fn receiver_distances_are_to_the_latest_receivers() {
        use crate::ground::topology::NodeId;
        let grid = Grid { width: 3, height: 3, cell_m: 2.0 };
        let flows = |r: u32| Outlet::Flows(NodeId(r));
        let first =
            [flows(1), Outlet::Sink, flows(1), flows(4), flows(1), flows(4), flows(4), flows(4), flows(4)];
        let mut distances = ReceiverDistances::default();
        distances.update(&grid, &first);
        let diagonal = 2.0 * std::f64::consts::SQRT_2;
        assert_eq!(distances.metres[0], 2.0, "to the side");
        assert_eq!(distances.metres[6], diagonal, "across the corner");
        // Node 0 turns to the corner across from it, node 1 gains a receiver.
        let second =
            [flows(4), flows(4), flows(1), flows(4), flows(1), flows(4), flows(4), flows(4), flows(4)];
        distances.update(&grid, &second);
        for (i, o) in second.iter().enumerate() {
            let Outlet::Flows(r) = o else { unreachable!() };
            assert_eq!(distances.metres[i], grid.distance_m(i, r.index()), "node {i}");
        }
    }

    /// One step of `model` on `grid` draining to its edge, the same uplift everywhere.
    fn one_step(grid: &Grid, z: &mut [f64], model: &StreamPower) {
        let tectonics = Tectonics::uniform();
        stream_power_step(grid, z, model, &edge_outlets(), &tectonics, &mut StepBuffers::default());
    }

    /// A one-cell-wide ramp draining to the edge: the node next to the outlet incises at
    /// the implicit rate `(z + F·z_r)/(1 + F)` with `F = K·dt·A^m/L` and its area.
    #[test]
    fn a_single_slope_incises_at_the_formula_rate() {
        let grid = Grid { width: 5, height: 3, cell_m: 10.0 };
        // A ridge row in the middle falling to the left edge; the rows either side are walls.
        let mut z = vec![500.0; 15];
        for (c, h) in [0.0, 1.0, 2.0, 3.0, 4.0].iter().enumerate() {
            z[5 + c] = *h;
        }
        let model = StreamPower { k: 1e-3, diffusion_m2_per_yr: 0.0, dt_yr: 10.0, ..StreamPower::default() };
        let routing = route(&grid, &z, &edge_outlets());
        let area = routing.catchment_m2[6];
        let mut eroded = z.clone();
        one_step(&grid, &mut eroded, &model);
        let f = 1e-3 * 10.0 * area.sqrt() / 10.0;
        let expected = (1.0 + f * 0.0) / (1.0 + f);
        assert!((eroded[6] - expected).abs() < 1e-12, "{} vs {expected}", eroded[6]);
        assert_eq!(eroded[5], 0.0, "the outlet is the base level");
    }

    /// A closed pit fills to its spill level and drains again: no false sink.
    #[test]
    fn a_closed_pit_fills_instead_of_becoming_a_sink() {
        let grid = Grid { width: 5, height: 5, cell_m: 1.0 };
        let mut z: Vec<f64> = (0..25).map(|i| if grid.on_edge(i) { 0.0 } else { 5.0 }).collect();
        z[12] = 1.0; // the pit in the middle, under its 5 m rim
        let model = StreamPower { k: 0.0, diffusion_m2_per_yr: 0.0, ..StreamPower::default() };
        one_step(&grid, &mut z, &model);
        assert_eq!(z[12], 5.0, "filled to the rim");
        let routing = route(&grid, &z, &edge_outlets());
        assert!(routing.filled_m.iter().zip(&z).all(|(f, h)| f <= h), "no node under its fill");
    }

    /// A pit deeper than `lake_min_depth_m` stays a lake; a shallower one fills.
    #[test]
    fn deep_pits_stay_lakes_shallow_ones_fill() {
        let grid = Grid { width: 5, height: 5, cell_m: 1.0 };
        let model =
            StreamPower { k: 0.0, diffusion_m2_per_yr: 0.0, lake_min_depth_m: 2.0, ..StreamPower::default() };
        for (floor, expected) in [(1.0, 1.0), (4.0, 5.0)] {
            let mut z: Vec<f64> = (0..25).map(|i| if grid.on_edge(i) { 0.0 } else { 5.0 }).collect();
            z[12] = floor;
            one_step(&grid, &mut z, &model);
            assert_eq!(z[12], expected, "a pit {} m deep", 5.0 - floor);
        }
    }

    /// Tectonics without lists are a full share everywhere with nothing held, bit for bit;
    /// with lists each node is read on its own: a held node keeps its height through the
    /// incision and the diffusion, and a node without a share of the uplift does not rise.
    #[test]
    fn tectonics_lists_are_read_node_by_node() {
        let grid = Grid { width: 9, height: 7, cell_m: 5.0 };
        let n = grid.len();
        // Rings falling one metre each to the edge, the outlets.
        let z0: Vec<f64> = (0..n).map(|i| (i / 9).min(i % 9).min(6 - i / 9).min(8 - i % 9) as f64).collect();
        let lifting = StreamPower { k: 0.0, uplift_m_per_yr: 1e-3, dt_yr: 100.0, ..StreamPower::default() };
        let still = StreamPower { diffusion_m2_per_yr: 0.0, ..lifting };
        let step = |model: &StreamPower, tectonics: &Tectonics| {
            let mut z = z0.clone();
            stream_power_step(&grid, &mut z, model, &edge_outlets(), tectonics, &mut StepBuffers::default());
            z
        };
        let bits = |z: &[f64]| z.iter().map(|z| z.to_bits()).collect::<Vec<_>>();
        let everywhere =
            Tectonics { uplift_share: vec![1.0; n], held: vec![false; n], ..Tectonics::uniform() };
        for model in [&lifting, &still] {
            assert_eq!(bits(&step(model, &Tectonics::uniform())), bits(&step(model, &everywhere)));
        }
        let (held, unlifted) = (2 * 9 + 2, 3 * 9 + 4);
        let mut listed = everywhere;
        (listed.held[held], listed.uplift_share[unlifted]) = (true, 0.0);
        let moved = step(&lifting, &listed);
        assert_eq!(moved[held], z0[held], "held through the diffusion");
        assert!(moved[held + 1] != z0[held + 1], "its neighbour moved");
        let lifted = step(&still, &listed);
        assert_eq!((lifted[held], lifted[unlifted]), (z0[held], z0[unlifted]));
        assert!((lifted[unlifted - 1] - z0[unlifted - 1] - 0.1).abs() < 1e-12, "the rest rose 0.1 m");
    }

    /// A list as long as another surface's is refused, not read as partly uniform.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "one value per node, or none")]
    fn tectonics_lists_of_another_length_are_refused() {
        let grid = Grid { width: 4, height: 4, cell_m: 1.0 };
        let tectonics = Tectonics { held: vec![false; 15], ..Tectonics::uniform() };
        let mut z = vec![1.0; 16];
        stream_power_step(
            &grid,
            &mut z,
            &StreamPower::default(),
            &edge_outlets(),
            &tectonics,
            &mut StepBuffers::default(),
        );
    }

    /// The grid's inner-cell offsets, and inverse squares worked out ahead, give the same
    /// bytes as the general rule, sub-step for sub-step, with fixed cells inside and on the
    /// rim.
    #[test]
    fn grid_diffusion_and_inverse_squares_ahead_match_the_general_rule() {
        for (width, height) in [(2, 5), (3, 3), (17, 11)] {
            let grid = Grid { width, height, cell_m: 1.5 };
            let n = grid.len();
            let z0: Vec<f64> =
                (0..n).map(|i| ((i * 7919) % 23) as f64 * 0.37 + (i as f64 * 0.1).sin()).collect();
            let fixed: Vec<bool> = (0..n).map(|i| i % 5 == 0).collect();
            let (mut fast, mut plain, mut ahead) = (z0.clone(), z0.clone(), z0.clone());
            let (none, mut held) = (InverseSquares::default(), InverseSquares::default());
            held.fill(&PlainGrid(grid));
            assert!(held.of(n - 1).is_some_and(|w| !w.is_empty()) && none.of(0).is_none());
            diffuse(&Laplacian::new(&grid, &none), &mut fast, &fixed, 3.0, None, &mut Vec::new());
            diffuse(&Laplacian::new(&PlainGrid(grid), &none), &mut plain, &fixed, 3.0, None, &mut Vec::new());
            diffuse(&Laplacian::new(&PlainGrid(grid), &held), &mut ahead, &fixed, 3.0, None, &mut Vec::new());
            assert_ne!(fast, z0, "{width}x{height}: something moved");
            let bits = |z: &[f64]| z.iter().map(|z| z.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&fast), bits(&plain), "{width}x{height}");
            assert_eq!(bits(&ahead), bits(&plain), "{width}x{height}, worked out ahead");
        }
    }

    #[test]
    fn diffusion_conserves_the_mound_and_flattens_it() {
        // Far enough from the fixed edges that nothing reaches them.
        let grid = Grid { width: 25, height: 25, cell_m: 1.0 };
        let mut z = vec![0.0; 625];
        z[312] = 9.0;
        let fixed: Vec<bool> = (0..625).map(|i| grid.on_edge(i)).collect();
        diffuse(
            &Laplacian::new(&grid, &InverseSquares::default()),
            &mut z,
            &fixed,
            0.5,
            None,
            &mut Vec::new(),
        );
        let total: f64 = z.iter().sum();
        assert!((total - 9.0).abs() < 1e-9, "volume kept: {total}");
        assert!(z[312] < 9.0 && z[313] > 0.0 && z[313] < z[312]);
    }
}
