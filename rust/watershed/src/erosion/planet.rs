//! The planet's erosion: rock rises in coastal ranges and where the natural ground is high,
//! rivers cut it down by stream power, and the land that results is scaled to the world's
//! relief. The natural ground is the start (flattened to a tenth of its relief, so the
//! rivers, not the noise, decide where the valleys go) and the pattern of uplift; the sea
//! is the base level and land stays land.

use super::stream_power::{
    stream_power_step, worst_stiffness, StepBuffers, StreamPower, Tectonics, STEP_YEARS,
};
use super::FrameSink;
use crate::cancel;
use crate::drainage::walk::cheapest_costs;
use crate::drainage::{hollows, DrainageParams};
use crate::ground::topology::Topology;
use crate::settings::WorldSettings;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::sync::atomic::AtomicBool;

/// Share of the natural ground's relief above the sea that the run starts from.
pub const START_RELIEF: f64 = 0.1;

/// Rock uplift at the crest of the pattern, metres per year.
pub const PEAK_UPLIFT_M_PER_YR: f64 = 1.0e-3;

/// Catchment at which hillslope runoff gathers into a channel, m²: one hectare, within the
/// 10³–10⁵ m² measured at channel heads (Montgomery & Dietrich 1988). Below it the ground
/// wears as a hillslope of one steepest slope, so a finer lattice resolves the same hills
/// rather than sharper ridges (a node of the shipped 90,000-node `home` already gathers more).
pub const CHANNEL_HEAD_M2: f64 = 1.0e4;

/// Neighbour-averaging passes that smooth the natural ground into its share of the uplift.
const SMOOTHING_PASSES: usize = 10;

/// How a world erodes: the model and where the rock rises.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlanetErosion {
    /// Steps of [`STEP_YEARS`] each.
    pub steps: usize,
    /// Stream power and diffusion constants (the uplift rate is the pattern's crest).
    pub model: StreamPower,
    /// Distance inland at which the coastal uplift peaks, metres.
    pub range_m: f64,
    /// Share of the uplift that follows the distance from the coast (0..=1); the rest
    /// follows the natural ground's height.
    pub coastal: f64,
}

impl PlanetErosion {
    /// The erosion `settings` ask for; `None` when the world does not erode.
    pub fn for_world(settings: &WorldSettings) -> Option<Self> {
        settings.erosion.then_some(PlanetErosion {
            steps: settings.erosion_steps,
            model: StreamPower {
                k: settings.erosion_k,
                m: settings.erosion_m,
                uplift_m_per_yr: PEAK_UPLIFT_M_PER_YR,
                diffusion_m2_per_yr: settings.erosion_diffusion_m2_yr,
                dt_yr: STEP_YEARS,
                // Every hollow fills with sediment while the land wears (lakes are the basins
                // shaped on purpose and those the worn land keeps): which hollows would stay
                // lakes for 300,000 years hangs on how finely the lattice resolves them.
                lake_min_depth_m: f64::INFINITY,
                channel_head_m2: CHANNEL_HEAD_M2,
            },
            range_m: settings.erosion_range_m,
            coastal: settings.erosion_coastal,
        })
    }
}

/// Erodes `natural` (metres, one per node of `topo`) and returns the eroded heights: land
/// (at or above the sea of `outlets`, or the lowest node without a sea) starts at
/// [`START_RELIEF`] of its height above the sea, rises and wears for `erosion.steps` steps,
/// and is scaled at the end so its highest node stands as high as the natural ground's.
/// The sea floor keeps its natural height; `held` nodes (a basin shaped on purpose) keep
/// their shape and move with the land around them.
/// `frame` sees every step's heights before that scaling. `None` soon after `cancel` is set
/// (read between steps).
///
/// # Panics
/// If `natural` or `held` does not have one entry per node.
pub fn erode_planet<T: Topology>(
    topo: &T,
    natural: &[f64],
    held: &[bool],
    erosion: &PlanetErosion,
    outlets: &DrainageParams,
    cancel: &AtomicBool,
    frame: FrameSink,
) -> Option<Vec<f64>> {
    assert_eq!(natural.len(), topo.len(), "one height per node");
    assert_eq!(held.len(), topo.len(), "one flag per node");
    let base = base_level(natural, outlets);
    let top = natural.iter().copied().fold(base, f64::max);
    let land: Vec<bool> = natural.iter().map(|&h| h >= base).collect();
    let mut z: Vec<f64> = natural
        .iter()
        .zip(&land)
        .zip(held)
        .map(|((&h, &on_land), &held)| if on_land && !held { base + START_RELIEF * (h - base) } else { h })
        .collect();
    match islands(topo, &land, rayon::current_num_threads()) {
        Some(groups) => {
            let start = Start { natural, land: &land, held, z: &z, base, top };
            let whole_stiffness = (erosion.model.diffusion_m2_per_yr > 0.0).then(|| worst_stiffness(topo));
            let mut parts: Vec<Part<'_, T>> = groups
                .into_par_iter()
                .with_max_len(1)
                .map(|nodes| Part::new(topo, nodes, &start, erosion, whole_stiffness))
                .collect();
            for step in 1..=erosion.steps {
                if cancel::requested(cancel) {
                    return None;
                }
                parts.par_iter_mut().with_max_len(1).for_each(|part| part.step(&erosion.model, outlets));
                for part in &parts {
                    for (&i, &h) in part.shore.nodes.iter().zip(&part.z) {
                        z[i as usize] = h;
                    }
                }
                frame(step, &z, &[]);
            }
        }
        None => {
            let mut buffers = StepBuffers::default();
            let tectonics = Tectonics {
                uplift_share: uplift_share(topo, natural, &land, base, top, erosion),
                held: held.to_vec(),
                floor_m: base,
            };
            run_steps(topo, &mut z, erosion, outlets, &tectonics, &mut buffers, cancel, &mut |step, z| {
                frame(step, z, &[])
            })?
        }
    }
    let worn_top =
        (0..z.len()).filter(|&i| land[i] && !held[i]).map(|i| z[i]).fold(f64::NEG_INFINITY, f64::max);
    if worn_top > base {
        let scale = (top - base) / (worn_top - base);
        for i in (0..z.len()).filter(|&i| land[i] && !held[i]) {
            z[i] = base + (z[i] - base) * scale;
        }
    }
    carry_held(topo, held, &land, natural, base, &mut z);
    fill_unheld_lakes(topo, held, outlets, &mut z);
    Some(z)
}

/// Fills every lake of `z` under `outlets` to its level but the one holding the lowest
/// `held` node (the floor of the basin shaped on purpose): the steps filled every hollow
/// with sediment as it formed, and scaling the land to its relief or carrying the held
/// basin can leave a few more beside it, accidents of the node spacing.
fn fill_unheld_lakes<T: Topology>(topo: &T, held: &[bool], outlets: &DrainageParams, z: &mut [f64]) {
    if !outlets.lakes {
        return;
    }
    let hollows = hollows(topo, z, outlets);
    let floor = (0..z.len()).filter(|&i| held[i]).min_by(|&a, &b| z[a].total_cmp(&z[b]).then(a.cmp(&b)));
    let kept = floor.map_or(0, |i| hollows.lake_id[i]);
    for (i, &id) in hollows.lake_id.iter().enumerate() {
        if id > 0 && id != kept {
            z[i] = z[i].max(hollows.lakes[id as usize - 1].level_m);
        }
    }
}

/// Runs `erosion.steps` steps on `z` (one height per node of `topo`), calling `after` with
/// each step's number and heights; `None` soon after `cancel` is set (read between steps).
#[allow(clippy::too_many_arguments)]
fn run_steps<T: Topology>(
    topo: &T,
    z: &mut [f64],
    erosion: &PlanetErosion,
    outlets: &DrainageParams,
    tectonics: &Tectonics,
    buffers: &mut StepBuffers,
    cancel: &AtomicBool,
    after: &mut dyn FnMut(usize, &[f64]),
) -> Option<()> {
    for step in 0..erosion.steps {
        if cancel::requested(cancel) {
            return None;
        }
        stream_power_step(topo, z, &erosion.model, outlets, tectonics, buffers);
        after(step + 1, z);
    }
    Some(())
}

/// Some nodes of a surface with the neighbour relation among them (each list in the
/// surface's order, the nodes numbered in the surface's order): what a [`Part`] steps on.
struct Shore<'a, T: Topology> {
    topo: &'a T,
    /// Each node's index on `topo`, ascending.
    nodes: Vec<u32>,
    /// `neighbors[offsets[i]..offsets[i + 1]]` are node i's neighbours here.
    offsets: Vec<u32>,
    neighbors: Vec<u32>,
}

impl<'a, T: Topology> Shore<'a, T> {
    /// The part of `topo` holding `nodes` (ascending).
    fn of(topo: &'a T, nodes: Vec<u32>) -> Self {
        let n = topo.len();
        let mut here = vec![u32::MAX; n];
        for (k, &i) in nodes.iter().enumerate() {
            here[i as usize] = k as u32;
        }
        let mut offsets = Vec::with_capacity(nodes.len() + 1);
        offsets.push(0);
        let mut neighbors = Vec::new();
        for &i in &nodes {
            neighbors.extend(topo.neighbors(i as usize).map(|j| here[j]).filter(|&k| k != u32::MAX));
            offsets.push(neighbors.len() as u32);
        }
        Shore { topo, nodes, offsets, neighbors }
    }

    /// The values of `whole` (one per node of the surface) at this part's nodes.
    fn pick<V: Copy>(&self, whole: &[V]) -> Vec<V> {
        self.nodes.iter().map(|&i| whole[i as usize]).collect()
    }
}

impl<T: Topology> Topology for Shore<'_, T> {
    fn len(&self) -> usize {
        self.nodes.len()
    }

    fn neighbors(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.neighbors[self.offsets[i] as usize..self.offsets[i + 1] as usize].iter().map(|&j| j as usize)
    }

    fn area_m2(&self, i: usize) -> f64 {
        self.topo.area_m2(self.nodes[i] as usize)
    }

    fn distance_m(&self, a: usize, b: usize) -> f64 {
        self.topo.distance_m(self.nodes[a] as usize, self.nodes[b] as usize)
    }

    fn on_edge(&self, i: usize) -> bool {
        self.topo.on_edge(self.nodes[i] as usize)
    }
}

/// Whole land masses of a surface and the sea beside them, eroded on their own: no water
/// and no diffusion crosses the sea between them, so steps on each give the heights of
/// steps on the whole surface, bit for bit, and the parts run side by side.
struct Part<'a, T: Topology> {
    shore: Shore<'a, T>,
    tectonics: Tectonics,
    /// Heights of the part's nodes, metres.
    z: Vec<f64>,
    buffers: StepBuffers,
}

/// The surface as a run starts: what every part is cut from (one value per node).
struct Start<'s> {
    /// The natural ground, metres.
    natural: &'s [f64],
    land: &'s [bool],
    held: &'s [bool],
    /// The heights the run starts from, metres.
    z: &'s [f64],
    /// The sea level (the lowest height without a sea), metres.
    base: f64,
    /// The highest natural ground, metres.
    top: f64,
}

impl<'a, T: Topology> Part<'a, T> {
    /// The part of `topo` holding `nodes` (ascending: whole land masses and the sea beside
    /// them) as `start` has it, with its share of the uplift of `erosion`: the whole
    /// surface's, since the smoothing reads no farther than the sea beside the land and the
    /// distance inland is measured to it. No node erodes below the sea.
    fn new(
        topo: &'a T,
        nodes: Vec<u32>,
        start: &Start<'_>,
        erosion: &PlanetErosion,
        whole_stiffness: Option<f64>,
    ) -> Self {
        let shore = Shore::of(topo, nodes);
        let [land, held] = [start.land, start.held].map(|flags| shore.pick(flags));
        let [natural, z] = [start.natural, start.z].map(|values| shore.pick(values));
        let uplift_share = uplift_share(&shore, &natural, &land, start.base, start.top, erosion);
        let tectonics = Tectonics { uplift_share, held, floor_m: start.base };
        let mut buffers = StepBuffers::default();
        buffers.whole_stiffness = whole_stiffness;
        Part { shore, tectonics, z, buffers }
    }

    /// One step of `model` on the part.
    fn step(&mut self, model: &StreamPower, outlets: &DrainageParams) {
        stream_power_step(&self.shore, &mut self.z, model, outlets, &self.tectonics, &mut self.buffers);
    }
}

/// The land of `topo` (one flag per node) in at most `count` groups of whole land masses,
/// each with the sea nodes beside it, about equal in land nodes: the largest mass first
/// (of equals, the one with the lowest node), each to the group with the fewest land nodes
/// so far (of equals, the first). Each group's nodes, ascending. `None` when there is no
/// land, or when the open sea is under a tenth of the surface and parts would save little.
fn islands<T: Topology>(topo: &T, land: &[bool], count: usize) -> Option<Vec<Vec<u32>>> {
    let n = topo.len();
    // Each land node's mass (numbered by its lowest node), found by a walk over the land.
    let mut mass = vec![u32::MAX; n];
    let mut sizes: Vec<(usize, u32)> = Vec::new();
    let mut stack = Vec::new();
    for start in (0..n).filter(|&i| land[i]) {
        if mass[start] != u32::MAX {
            continue;
        }
        let id = sizes.len() as u32;
        mass[start] = id;
        stack.push(start);
        let mut size = 0;
        while let Some(c) = stack.pop() {
            size += 1;
            for j in topo.neighbors(c) {
                if land[j] && mass[j] == u32::MAX {
                    mass[j] = id;
                    stack.push(j);
                }
            }
        }
        sizes.push((size, id));
    }
    sizes.sort_by_key(|&(size, id)| (Reverse(size), id));
    let count = count.clamp(1, sizes.len().max(1));
    let mut load = vec![0usize; count];
    let mut group_of = vec![0u32; sizes.len()];
    for &(size, id) in &sizes {
        let lightest = (0..count).min_by_key(|&g| (load[g], g)).unwrap_or(0);
        load[lightest] += size;
        group_of[id as usize] = lightest as u32;
    }
    // A node belongs to the group of its own land mass, or, in the sea, to that of each
    // land mass beside it.
    let mut groups = vec![Vec::new(); count];
    let mut of_node = Vec::new();
    let mut in_any = 0;
    for i in 0..n {
        of_node.clear();
        if land[i] {
            of_node.push(group_of[mass[i] as usize]);
        }
        of_node.extend(topo.neighbors(i).filter(|&j| land[j]).map(|j| group_of[mass[j] as usize]));
        of_node.sort_unstable();
        of_node.dedup();
        for &g in &of_node {
            groups[g as usize].push(i as u32);
        }
        in_any += usize::from(!of_node.is_empty());
    }
    (in_any > 0 && in_any * 10 <= n * 9).then_some(groups)
}

/// Moves the held nodes as one block with the land around them, so a shaped basin sits in
/// the worn land instead of on a pedestal: by the median change of the land nodes next to
/// them, but never lowering the block's lowest node by more than half its height above
/// `base`.
fn carry_held<T: Topology>(
    topo: &T,
    held: &[bool],
    land: &[bool],
    natural: &[f64],
    base: f64,
    z: &mut [f64],
) {
    let mut around: Vec<f64> = (0..topo.len())
        .filter(|&i| land[i] && !held[i] && topo.neighbors(i).any(|j| held[j]))
        .map(|i| z[i] - natural[i])
        .collect();
    if around.is_empty() {
        return;
    }
    around.sort_by(f64::total_cmp);
    let lowest = (0..topo.len()).filter(|&i| held[i]).map(|i| natural[i]).fold(f64::INFINITY, f64::min);
    let shift = around[around.len() / 2].max(-0.5 * (lowest - base).max(0.0));
    for i in (0..topo.len()).filter(|&i| held[i]) {
        z[i] = natural[i] + shift;
    }
}

/// The sea level of `outlets`, or the lowest height when there is no sea.
fn base_level(natural: &[f64], outlets: &DrainageParams) -> f64 {
    outlets.sea_level_m.unwrap_or_else(|| natural.iter().copied().fold(f64::INFINITY, f64::min))
}

/// Each node's share of the peak uplift, 0..=1 (0 under the sea): `coastal` of it rises
/// from the coast to a crest `range_m` inland and eases off beyond (`x·e^(1−x)` of the
/// distance in ranges), the rest is the natural height above the sea, smoothed.
fn uplift_share<T: Topology>(
    topo: &T,
    natural: &[f64],
    land: &[bool],
    base: f64,
    top: f64,
    erosion: &PlanetErosion,
) -> Vec<f64> {
    let span = (top - base).max(f64::MIN_POSITIVE);
    let smoothed = || {
        let mut height: Vec<f64> = natural
            .iter()
            .zip(land)
            .map(|(&h, &l)| if l { ((h - base) / span).min(1.0) } else { 0.0 })
            .collect();
        for _ in 0..SMOOTHING_PASSES {
            height = (0..topo.len())
                .into_par_iter()
                .map(|i| {
                    if !land[i] {
                        return 0.0;
                    }
                    let (sum, count) =
                        topo.neighbors(i).fold((height[i], 1.0), |(s, c), j| (s + height[j], c + 1.0));
                    sum / count
                })
                .collect();
        }
        height
    };
    // The walk inland runs on one thread while the smoothing takes the others.
    let (inland, height) = rayon::join(|| distance_inland_m(topo, land), smoothed);
    (0..topo.len())
        .into_par_iter()
        .map(|i| {
            if !land[i] {
                return 0.0;
            }
            let x = inland[i] / erosion.range_m;
            // No coast anywhere (a world without a sea): the pattern's limit far inland, 0.
            let coast = if x.is_finite() { x * libm::exp(1.0 - x) } else { 0.0 };
            erosion.coastal * coast + (1.0 - erosion.coastal) * height[i]
        })
        .collect()
}

/// Distance along the neighbour graph from every land node to the nearest node that is not
/// land, metres (the cheapest walks from the sea). Land with no such node anywhere is
/// infinitely far.
fn distance_inland_m<T: Topology>(topo: &T, land: &[bool]) -> Vec<f64> {
    let start: Vec<f64> = land.iter().map(|&l| if l { f64::INFINITY } else { 0.0 }).collect();
    cheapest_costs(topo, &start, f64::INFINITY)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::grid::Grid;
    use crate::ground::lattice::FibonacciLattice;
    use glam::DVec3;

    fn sea_at_zero() -> DrainageParams {
        DrainageParams::outlets(Some(0.0), false)
    }

    fn erosion(steps: usize) -> PlanetErosion {
        PlanetErosion {
            steps,
            model: StreamPower { k: 1e-5, uplift_m_per_yr: PEAK_UPLIFT_M_PER_YR, ..StreamPower::default() },
            range_m: 3.0,
            coastal: 1.0,
        }
    }

    /// An island: a 9 × 9 mound in a 13 × 13 sea.
    fn island() -> (Grid, Vec<f64>) {
        let grid = Grid { width: 13, height: 13, cell_m: 1.0 };
        let z = (0..169)
            .map(|i| {
                let (x, y) = ((i % 13) as f64 - 6.0, (i / 13) as f64 - 6.0);
                if x.abs() <= 4.0 && y.abs() <= 4.0 {
                    10.0 - x.abs().max(y.abs())
                } else {
                    -5.0
                }
            })
            .collect();
        (grid, z)
    }

    /// A polar cap of land on a small lattice, the sea beside it and the open sea beyond,
    /// which the shore leaves out: the same uplift pattern, and the same heights bit for bit
    /// as steps on the whole lattice, with diffusion strong enough that its sub-steps are
    /// bounded by the whole lattice's stiffest node.
    #[test]
    fn steps_on_the_shore_give_the_whole_surfaces_heights() {
        let lattice = FibonacciLattice::new(2000, 10_000.0);
        let z: Vec<f64> =
            lattice.positions().iter().map(|p| 300.0 * (p.y - 0.6) + 40.0 * p.x * p.z).collect();
        let land: Vec<bool> = z.iter().map(|&h| h >= 0.0).collect();
        let mut erosion = erosion(12);
        erosion.range_m = 2000.0;
        erosion.model.diffusion_m2_per_yr = 1000.0;
        erosion.model.lake_min_depth_m = 0.5;
        let top = z.iter().copied().fold(0.0, f64::max);
        let tectonics = Tectonics {
            uplift_share: uplift_share(&lattice, &z, &land, 0.0, top, &erosion),
            held: vec![false; z.len()],
            floor_m: 0.0,
        };
        let never = AtomicBool::new(false);
        let mut whole = z.clone();
        let mut buffers = StepBuffers::default();
        run_steps(
            &lattice,
            &mut whole,
            &erosion,
            &sea_at_zero(),
            &tectonics,
            &mut buffers,
            &never,
            &mut |_, _| {},
        )
        .expect("not cancelled");

        let nodes =
            islands(&lattice, &land, 1).expect("the open sea is over a tenth of the lattice").remove(0);
        let shore = Shore::of(&lattice, nodes);
        let part = Tectonics {
            uplift_share: uplift_share(&shore, &shore.pick(&z), &shore.pick(&land), 0.0, top, &erosion),
            held: vec![false; shore.len()],
            floor_m: 0.0,
        };
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(
            bits(&part.uplift_share),
            bits(&shore.pick(&tectonics.uplift_share)),
            "the uplift pattern"
        );
        let mut buffers = StepBuffers::default();
        buffers.whole_stiffness = Some(worst_stiffness(&lattice));
        let mut part_z = shore.pick(&z);
        run_steps(&shore, &mut part_z, &erosion, &sea_at_zero(), &part, &mut buffers, &never, &mut |_, _| {})
            .expect("not cancelled");

        assert_ne!(whole, z, "the land wore");
        for (k, &i) in shore.nodes.iter().enumerate() {
            assert_eq!(part_z[k].to_bits(), whole[i as usize].to_bits(), "node {i}");
        }
        for i in (0..z.len()).filter(|&i| shore.nodes.binary_search(&(i as u32)).is_err()) {
            assert_eq!(whole[i], z[i], "open sea node {i} moved");
        }
    }

    /// Land masses on a small lattice: two polar caps, and two islands on the equator with
    /// a strait between them a node or so wide.
    fn land_masses() -> (FibonacciLattice, Vec<f64>) {
        let lattice = FibonacciLattice::new(3000, 10_000.0);
        let z = lattice
            .positions()
            .iter()
            .map(|&p| {
                let cap = 300.0 * (p.y.abs() - 0.6);
                let island = |z: f64| 400.0 * (0.13 - p.distance(DVec3::new(1.0, 0.0, z).normalize()));
                cap.max(island(0.2)).max(island(-0.2)) + 40.0 * p.x * p.z
            })
            .collect();
        (lattice, z)
    }

    /// The land masses are eroded in groups side by side, as many as the threads: with one
    /// thread one group (the shore, whose steps are the whole surface's) and with more the
    /// same heights and frames, bit for bit.
    #[test]
    fn land_masses_eroded_side_by_side_give_the_same_bits() {
        let (lattice, z) = land_masses();
        let land: Vec<bool> = z.iter().map(|&h| h >= 0.0).collect();
        let apart = islands(&lattice, &land, 8).expect("open sea");
        assert_eq!(apart.len(), 4, "four land masses");
        let shared =
            (0..z.len() as u32).filter(|i| apart.iter().filter(|g| g.contains(i)).count() > 1).count();
        assert!(shared > 0, "sea nodes in the strait lie beside both islands");
        let mut erosion = erosion(8);
        erosion.range_m = 2000.0;
        erosion.model.diffusion_m2_per_yr = 1000.0;
        erosion.model.lake_min_depth_m = 0.5;
        let held = vec![false; z.len()];
        let run = |threads: usize| {
            crate::testkit::with_threads(threads, || {
                let mut frames = Vec::new();
                let eroded = erode_planet(
                    &lattice,
                    &z,
                    &held,
                    &erosion,
                    &sea_at_zero(),
                    &AtomicBool::new(false),
                    &mut |step, z, _| frames.push((step, z.iter().map(|h| h.to_bits()).collect::<Vec<_>>())),
                )
                .expect("not cancelled");
                (eroded.iter().map(|h| h.to_bits()).collect::<Vec<_>>(), frames)
            })
        };
        let one = run(1);
        assert_eq!(one.1.len(), 8, "a frame a step");
        assert_ne!(one.0, z.iter().map(|h| h.to_bits()).collect::<Vec<_>>(), "the land wore");
        for threads in 2..=4 {
            assert!(run(threads) == one, "{threads} threads");
        }
    }

    /// Each land mass lies whole in one group with the sea beside it, and the groups are
    /// about equal in land.
    #[test]
    fn islands_keep_each_land_mass_whole_with_the_sea_beside_it() {
        // Three masses on a 16 × 5 grid: 6, 6 and 3 cells, apart, and open sea from column 12.
        let grid = Grid { width: 16, height: 5, cell_m: 1.0 };
        let land: Vec<bool> = (0..80)
            .map(|i| {
                let (row, col) = (i / 16, i % 16);
                (1..4).contains(&row) && ((1..3).contains(&col) || (5..7).contains(&col) || col == 10)
            })
            .collect();
        let groups = islands(&grid, &land, 2).expect("open sea");
        assert_eq!(groups.len(), 2);
        let land_in = |g: &[u32]| g.iter().filter(|&&i| land[i as usize]).count();
        // 6 and 6 to either group, then 3 to the first of the two equally light.
        assert_eq!((land_in(&groups[0]), land_in(&groups[1])), (9, 6), "largest first, to the lighter group");
        for group in &groups {
            assert!(group.windows(2).all(|w| w[0] < w[1]), "ascending: {group:?}");
            for &i in group {
                let mut around = grid.neighbors(i as usize);
                match land[i as usize] {
                    true => assert!(around.all(|j| group.contains(&(j as u32))), "all beside land {i}"),
                    false => assert!(around.any(|j| land[j] && group.contains(&(j as u32))), "sea {i}"),
                }
            }
        }
        for i in (0..80).filter(|&i| land[i]) {
            assert_eq!(groups.iter().filter(|g| g.contains(&(i as u32))).count(), 1, "land {i} in one group");
        }
        assert_eq!(islands(&grid, &land, 9).map(|g| g.len()), Some(3), "no more groups than land masses");
        assert_eq!(
            islands(&grid, &land, 1).map(|g| g[0].len()),
            Some(80 - 25),
            "one group: columns 8 and 12 to 15 out"
        );
        assert!(islands(&grid, &[false; 80], 2).is_none(), "no land");
        let widened: Vec<bool> = (0..80).map(|i| land[i] || (i % 16 != 8 && i % 16 != 4)).collect();
        assert!(islands(&grid, &widened, 2).is_none(), "no open sea: under a tenth");
    }

    #[test]
    fn distance_inland_counts_metres_from_the_shore() {
        let grid = Grid { width: 7, height: 1, cell_m: 2.0 };
        let land = [false, true, true, true, true, true, false];
        let d = distance_inland_m(&grid, &land);
        assert_eq!(d, vec![0.0, 2.0, 4.0, 6.0, 4.0, 2.0, 0.0]);
    }

    #[test]
    fn the_coastal_uplift_crests_one_range_inland() {
        let (grid, z) = island();
        let land: Vec<bool> = z.iter().map(|&h| h >= 0.0).collect();
        let share = uplift_share(&grid, &z, &land, 0.0, 10.0, &erosion(1));
        // Row through the middle: the shore cell is one cell in, the crest three cells in.
        let row: Vec<f64> = (0..13).map(|x| share[6 * 13 + x]).collect();
        assert_eq!(row[0], 0.0, "the sea does not rise");
        assert!((row[4] - 1.0).abs() < 1e-12, "crest of 1 at one range inland: {row:?}");
        assert!(row[5] < row[4] && row[2] < row[4]);
    }

    #[test]
    fn the_sea_floor_keeps_its_height_and_land_stays_land() {
        let (grid, z) = island();
        let mut held = vec![false; z.len()];
        held[6 * 13 + 6] = true;
        let eroded = erode_planet(
            &grid,
            &z,
            &held,
            &erosion(20),
            &sea_at_zero(),
            &AtomicBool::new(false),
            &mut |_, _, _| {},
        )
        .expect("not cancelled");
        for i in 0..z.len() {
            if z[i] < 0.0 {
                assert_eq!(eroded[i], z[i], "node {i}");
            } else {
                assert!(eroded[i] >= 0.0, "node {i} went under the sea: {}", eroded[i]);
            }
        }
        let top = (0..z.len()).filter(|&i| !held[i]).map(|i| eroded[i]).fold(f64::MIN, f64::max);
        assert!((top - 10.0).abs() < 1e-9, "scaled to the natural top: {top}");
    }

    /// Without a sea every node is land and none is near a coast: the rock still rises
    /// where the natural ground is high, and no height becomes NaN.
    #[test]
    fn a_world_without_a_sea_erodes_to_finite_heights() {
        let (grid, z) = island();
        let mut erosion = erosion(10);
        erosion.coastal = 0.85;
        let all_land = vec![true; z.len()];
        let share = uplift_share(&grid, &z, &all_land, -5.0, 10.0, &erosion);
        assert!(share.iter().all(|s| (0.0..=1.0).contains(s)), "{share:?}");
        let no_sea = DrainageParams::outlets(None, false);
        let held = vec![false; z.len()];
        let eroded =
            erode_planet(&grid, &z, &held, &erosion, &no_sea, &AtomicBool::new(false), &mut |_, _, _| {})
                .expect("not cancelled");
        assert!(eroded.iter().all(|h| h.is_finite()), "{eroded:?}");
        assert!(eroded != z, "the ground wore");
    }

    #[test]
    fn a_set_flag_stops_the_run() {
        let (grid, z) = island();
        let held = vec![false; z.len()];
        let run = erode_planet(
            &grid,
            &z,
            &held,
            &erosion(5),
            &sea_at_zero(),
            &AtomicBool::new(true),
            &mut |_, _, _| {},
        );
        assert!(run.is_none());
    }

    #[test]
    fn held_nodes_move_with_the_land_around_them() {
        // A 3-node basin (2 m deep) in the middle of a row whose land wore down by 4 m.
        let grid = Grid { width: 7, height: 1, cell_m: 1.0 };
        let natural = [0.0, 10.0, 10.0, 8.0, 10.0, 10.0, 0.0];
        let held = [false, false, true, true, true, false, false];
        let land: Vec<bool> = natural.iter().map(|&h| h > 0.0).collect();
        let mut z = vec![0.0, 6.0, 0.0, 0.0, 0.0, 6.0, 0.0];
        carry_held(&grid, &held, &land, &natural, 0.0, &mut z);
        assert_eq!(z, vec![0.0, 6.0, 6.0, 4.0, 6.0, 6.0, 0.0]);
        // Never more than half its height above the base: the basin floor stays dry land.
        let mut deep = vec![0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
        carry_held(&grid, &held, &land, &natural, 0.0, &mut deep);
        assert_eq!(deep[3], 4.0);
    }
}
