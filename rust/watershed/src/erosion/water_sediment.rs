//! The water + sediment grid model: every cell holds ground, water and suspended sediment.
//! Each step it rains; each cell's water runs to its lower neighbours in proportion to the
//! squared drops of the water surface, taking its sediment along; where the water can carry
//! more (capacity = carry · √drop · water) it picks ground up, at most `max_cut` a step,
//! and where it carries too much the excess settles. Ground plus sediment is conserved.
//!
//! Deterministic with any thread count: every cell first decides what leaves it, then
//! every cell gathers what arrives, both from the state at the start of the step.

use super::{ErosionReport, FrameSink};
use crate::ground::grid::Grid;
use rayon::prelude::*;

/// The model's constants (per step; heights and water in metres).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WaterSediment {
    /// Rain added to every cell each step, metres.
    pub rain_m: f64,
    /// Fraction of the water that evaporates each step (0..=1).
    pub evaporate: f64,
    /// Sediment the water can carry per metre of water and √metre of drop.
    pub carry: f64,
    /// Fraction of the free capacity picked up each step (0..=1).
    pub pickup: f64,
    /// The most ground one cell loses in one step, metres.
    pub max_cut_m: f64,
    /// Fraction of the sediment over capacity that settles each step (0..=1).
    pub settle: f64,
    /// Whether the map wraps around (a torus) instead of having closed edges.
    pub wrap: bool,
}

impl Default for WaterSediment {
    fn default() -> Self {
        WaterSediment {
            rain_m: 0.01,
            evaporate: 0.05,
            carry: 0.5,
            pickup: 0.1,
            max_cut_m: 0.05,
            settle: 0.3,
            wrap: false,
        }
    }
}

/// Neighbour offsets (row, column), the order every cell uses.
const D8: [(isize, isize); 8] = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)];

/// The state of one run: ground, water and sediment per cell.
struct State {
    ground: Vec<f64>,
    water: Vec<f64>,
    sediment: Vec<f64>,
}

/// Runs `steps` steps of the model over `heights` (row-major, `grid.len()` of them),
/// calling `frame` (with the water) after every `every` steps (0: never). Returns the
/// report and the water depth left on each cell.
///
/// # Panics
/// If `heights.len() != grid.width * grid.height`.
pub fn erode_water_sediment(
    grid: &Grid,
    heights: &mut [f64],
    model: &WaterSediment,
    steps: usize,
    every: usize,
    frame: FrameSink,
) -> (ErosionReport, Vec<f64>) {
    let n = grid.width * grid.height;
    assert_eq!(heights.len(), n, "one height per cell");
    let before = heights.to_vec();
    let mut state = State { ground: heights.to_vec(), water: vec![0.0; n], sediment: vec![0.0; n] };
    for step in 1..=steps {
        state = step_once(grid, &state, model);
        if every > 0 && step % every == 0 {
            frame(step, &state.ground, &state.water);
        }
    }
    heights.copy_from_slice(&state.ground);
    (ErosionReport::between(grid, &before, heights, steps), state.water)
}

/// The neighbour of `i` at `(dr, dc)`, wrapping or not.
fn neighbour(grid: &Grid, wrap: bool, i: usize, (dr, dc): (isize, isize)) -> Option<usize> {
    let (w, h) = (grid.width as isize, grid.height as isize);
    let (r, c) = ((i / grid.width) as isize + dr, (i % grid.width) as isize + dc);
    if wrap {
        Some((r.rem_euclid(h) * w + c.rem_euclid(w)) as usize)
    } else {
        (r >= 0 && r < h && c >= 0 && c < w).then(|| (r * w + c) as usize)
    }
}

/// What one cell sends on: the fraction of its water leaving towards each neighbour, and
/// its ground and sediment after picking up or settling.
#[derive(Clone, Copy)]
struct Outflow {
    share: [f64; 8],
    ground: f64,
    sediment: f64,
    water: f64,
}

fn outflow(grid: &Grid, s: &State, model: &WaterSediment, i: usize) -> Outflow {
    let water = s.water[i] + model.rain_m;
    let surface = s.ground[i] + water;
    let mut drops = [0.0; 8];
    for (k, &d) in D8.iter().enumerate() {
        if let Some(j) = neighbour(grid, model.wrap, i, d) {
            drops[k] = (surface - s.ground[j] - s.water[j]).max(0.0);
        }
    }
    let total: f64 = drops.iter().sum();
    let squares: f64 = drops.iter().map(|d| d * d).sum();
    let biggest = drops.iter().copied().fold(0.0, f64::max);
    let (mut ground, mut sediment) = (s.ground[i], s.sediment[i]);
    let capacity = model.carry * total.sqrt() * water;
    if sediment < capacity {
        let pick = ((capacity - sediment) * model.pickup).min(model.max_cut_m);
        ground -= pick;
        sediment += pick;
    } else {
        let settle = (sediment - capacity) * model.settle;
        ground += settle;
        sediment -= settle;
    }
    // At most half the biggest drop leaves, so the surface never falls below a neighbour's.
    let leaving = if water > 0.0 && squares > 0.0 { (0.5 * biggest).min(water) / water } else { 0.0 };
    let share = drops.map(|d| if squares > 0.0 { leaving * d * d / squares } else { 0.0 });
    Outflow { share, ground, sediment, water }
}

fn step_once(grid: &Grid, s: &State, model: &WaterSediment) -> State {
    let n = s.ground.len();
    let out: Vec<Outflow> = (0..n).into_par_iter().map(|i| outflow(grid, s, model, i)).collect();
    let gathered: Vec<(f64, f64, f64)> = (0..n)
        .into_par_iter()
        .map(|i| {
            let o = &out[i];
            let kept: f64 = 1.0 - o.share.iter().sum::<f64>();
            let (mut water, mut sediment) = (o.water * kept, o.sediment * kept);
            for (k, &(dr, dc)) in D8.iter().enumerate() {
                // The neighbour that sends to `i` along this direction sends along the opposite.
                if let Some(j) = neighbour(grid, model.wrap, i, (dr, dc)) {
                    let back = 7 - k;
                    water += out[j].water * out[j].share[back];
                    sediment += out[j].sediment * out[j].share[back];
                }
            }
            (o.ground, water * (1.0 - model.evaporate), sediment)
        })
        .collect();
    State {
        ground: gathered.iter().map(|g| g.0).collect(),
        water: gathered.iter().map(|g| g.1).collect(),
        sediment: gathered.iter().map(|g| g.2).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::drainage::{route, DrainageParams, Outlet};

    fn valley(grid: &Grid) -> Vec<f64> {
        (0..grid.width * grid.height)
            .map(|i| {
                let (x, y) = ((i % grid.width) as f64, (i / grid.width) as f64);
                0.05 * y + 0.02 * (x - grid.width as f64 / 2.0).abs() + 0.01 * (x * 1.3 + y * 0.7).sin()
            })
            .collect()
    }

    /// Ground plus sediment is conserved: rain adds only water.
    #[test]
    fn ground_and_sediment_are_conserved() {
        let grid = Grid { width: 32, height: 32, cell_m: 1.0 };
        let z = valley(&grid);
        let n = z.len();
        let mut state = State { ground: z.clone(), water: vec![0.0; n], sediment: vec![0.0; n] };
        let model = WaterSediment::default();
        for _ in 0..50 {
            state = step_once(&grid, &state, &model);
        }
        let mass = |s: &State| s.ground.iter().sum::<f64>() + s.sediment.iter().sum::<f64>();
        let start: f64 = z.iter().sum();
        assert!((mass(&state) - start).abs() < 1e-9 * start.abs().max(1.0), "{} vs {start}", mass(&state));
        assert!(state.ground != z, "the water moved some ground");
    }

    /// Raising the pick-up rate 16× moves far less than 16× the rock, and the drainage
    /// pattern hardly changes: the model throttles itself.
    #[test]
    fn sixteen_times_the_pickup_moves_far_less_than_sixteen_times_the_rock() {
        let grid = Grid { width: 48, height: 48, cell_m: 1.0 };
        let run = |pickup: f64| {
            let mut z = valley(&grid);
            let model = WaterSediment { pickup, ..WaterSediment::default() };
            let (report, _) = erode_water_sediment(&grid, &mut z, &model, 120, 0, &mut |_, _, _| {});
            (report, z)
        };
        let (slow, z_slow) = run(0.01);
        let (fast, z_fast) = run(0.16);
        let ratio = fast.eroded_m3 / slow.eroded_m3;
        assert!(ratio > 1.0 && ratio < 8.0, "16x the pick-up moved {ratio:.2}x the rock");
        let params = DrainageParams {
            sea_level_m: None,
            storm_crest_m: 0.0,
            lakes: true,
            lake_min_depth_m: 0.0,
            rivers: false,
            river_catchment_m2: f64::INFINITY,
            edge_outlets: true,
        };
        let (a, b) = (route(&grid, &z_slow, &params), route(&grid, &z_fast, &params));
        let same = a.receivers.iter().zip(&b.receivers).filter(|(x, y)| x == y).count();
        let share = same as f64 / a.receivers.len() as f64;
        assert!(share > 0.8, "only {:.0}% of the receivers agree", share * 100.0);
        assert!(a.receivers.iter().any(|r| matches!(r, Outlet::Flows(_))));
    }

    #[test]
    fn same_bytes_with_one_or_two_threads() {
        let grid = Grid { width: 40, height: 24, cell_m: 1.0 };
        let run_with = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("pool");
            pool.install(|| {
                let mut z = valley(&grid);
                let model = WaterSediment { wrap: true, ..WaterSediment::default() };
                erode_water_sediment(&grid, &mut z, &model, 30, 0, &mut |_, _, _| {});
                z
            })
        };
        assert!(run_with(1).iter().zip(&run_with(2)).all(|(a, b)| a.to_bits() == b.to_bits()));
    }
}
