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

/// The state of one run: ground, water and sediment per cell, and the water surface the
/// next step sees (ground + water + that step's rain).
struct State {
    ground: Vec<f64>,
    water: Vec<f64>,
    sediment: Vec<f64>,
    surface: Vec<f64>,
}

impl State {
    /// Dry `ground` before the first step.
    fn dry(ground: &[f64], model: &WaterSediment) -> Self {
        let n = ground.len();
        let surface = ground.iter().map(|g| g + model.rain_m).collect();
        State { ground: ground.to_vec(), water: vec![0.0; n], sediment: vec![0.0; n], surface }
    }
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
    let mut state = State::dry(heights, model);
    let mut buffers = Buffers::new(n);
    for step in 1..=steps {
        step_once(grid, &mut state, model, &mut buffers);
        if every > 0 && step % every == 0 {
            frame(step, &state.ground, &state.water);
        }
    }
    heights.copy_from_slice(&state.ground);
    (ErosionReport::between(grid, &before, heights, steps), state.water)
}

/// The eight neighbours of the cell at `(row, col)` in [`D8`] order, `None` off a closed
/// edge.
#[inline]
fn neighbours(grid: &Grid, wrap: bool, row: usize, col: usize) -> [Option<usize>; 8] {
    let (w, h) = (grid.width as isize, grid.height as isize);
    D8.map(|(dr, dc)| {
        let (r, c) = (row as isize + dr, col as isize + dc);
        if wrap {
            Some((r.rem_euclid(h) * w + c.rem_euclid(w)) as usize)
        } else {
            (r >= 0 && r < h && c >= 0 && c < w).then(|| (r * w + c) as usize)
        }
    })
}

/// What one cell decided at the start of a step: its ground and sediment after picking up
/// or settling, the fraction of its water that leaves, and that fraction over the sum of
/// its squared drops (the share a neighbour gets is this times the squared drop towards it).
#[derive(Clone, Copy)]
struct Decided {
    sediment: f64,
    leaving: f64,
    per_square: f64,
}

/// What every cell decided, one array per field of [`Decided`], so a row's cells are read
/// side by side.
struct DecidedCells {
    sediment: Vec<f64>,
    leaving: Vec<f64>,
    per_square: Vec<f64>,
}

/// The buffers of a run, reused every step: what each cell decided and the next state.
struct Buffers {
    decided: DecidedCells,
    next: State,
}

impl Buffers {
    fn new(n: usize) -> Self {
        let next = State {
            ground: vec![0.0; n],
            water: vec![0.0; n],
            sediment: vec![0.0; n],
            surface: vec![0.0; n],
        };
        let decided =
            DecidedCells { sediment: vec![0.0; n], leaving: vec![0.0; n], per_square: vec![0.0; n] };
        Buffers { decided, next }
    }
}

/// Every cell's new ground (into `b.next`) and what it sends on (into `b.decided`).
fn decide(grid: &Grid, s: &State, model: &WaterSediment, b: &mut Buffers) {
    let w = grid.width;
    let surface = &s.surface;
    let DecidedCells { sediment, leaving, per_square } = &mut b.decided;
    let decided = sediment.par_chunks_mut(w).zip(leaving.par_chunks_mut(w)).zip(per_square.par_chunks_mut(w));
    decided.zip(b.next.ground.par_chunks_mut(w)).enumerate().for_each_init(
        || Drops::new(w),
        |drops, (row, (((sediments, leavings), per_squares), next))| {
            let mut store = |col: usize, (ground, cell): (f64, Decided)| {
                next[col] = ground;
                (sediments[col], leavings[col], per_squares[col]) =
                    (cell.sediment, cell.leaving, cell.per_square);
            };
            let (first, last) = grid.inner_columns(row);
            for col in (0..first).chain(last..w) {
                let i = row * w + col;
                let around = neighbours(grid, model.wrap, row, col).into_iter().flatten();
                let (total, squares, biggest) = drops_towards(surface, i, around);
                store(col, decide_cell(s, model, i, total, squares, biggest));
            }
            drops.inner_row(grid, surface, row, first, last);
            for col in first..last {
                let i = row * w + col;
                let (total, squares, biggest) = (drops.total[col], drops.squares[col], drops.biggest[col]);
                store(col, decide_cell(s, model, i, total, squares, biggest));
            }
        },
    );
}

/// One row's drops of the water surface towards the eight neighbours, per column: their
/// sum, the sum of their squares and the biggest, metres (m² for the squares).
struct Drops {
    total: Vec<f64>,
    squares: Vec<f64>,
    biggest: Vec<f64>,
}

impl Drops {
    fn new(width: usize) -> Self {
        Drops { total: vec![0.0; width], squares: vec![0.0; width], biggest: vec![0.0; width] }
    }

    /// The drops of the inner columns `first..last` of `row`, one cell after another with
    /// all eight neighbours' rows read side by side (the sums in the same order as
    /// [`drops_towards`]), in a loop with no jumps, so the cells' sums vectorise.
    fn inner_row(&mut self, grid: &Grid, surface: &[f64], row: usize, first: usize, last: usize) {
        if first >= last {
            return;
        }
        let len = last - first;
        let start = row * grid.width + first;
        let centre = &surface[start..start + len];
        let around = grid.inner_neighbours(start).map(|j| &surface[j..j + len]);
        let (total, squares, biggest) =
            (&mut self.total[first..last], &mut self.squares[first..last], &mut self.biggest[first..last]);
        for c in 0..len {
            let (mut t, mut q, mut b) = (0.0, 0.0, 0.0_f64);
            for other in &around {
                let drop = (centre[c] - other[c]).max(0.0);
                t += drop;
                q += drop * drop;
                b = b.max(drop);
            }
            (total[c], squares[c], biggest[c]) = (t, q, b);
        }
    }
}

/// Cell `i`'s drops of the water `surface` towards `around`: their sum, the sum of their
/// squares and the biggest, metres (m² for the squares).
#[inline(always)]
fn drops_towards(surface: &[f64], i: usize, around: impl Iterator<Item = usize>) -> (f64, f64, f64) {
    let (mut total, mut squares, mut biggest) = (0.0, 0.0, 0.0_f64);
    for j in around {
        let drop = (surface[i] - surface[j]).max(0.0);
        total += drop;
        squares += drop * drop;
        biggest = biggest.max(drop);
    }
    (total, squares, biggest)
}

/// Cell `i`'s new ground and what it decided, from its drops towards its neighbours
/// ([`drops_towards`]).
#[inline(always)]
fn decide_cell(
    s: &State,
    model: &WaterSediment,
    i: usize,
    total: f64,
    squares: f64,
    biggest: f64,
) -> (f64, Decided) {
    let water = s.water[i] + model.rain_m;
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
    let per_square = if squares > 0.0 { leaving / squares } else { 0.0 };
    (ground, Decided { sediment, leaving, per_square })
}

/// One step: `s` becomes the state after it.
fn step_once(grid: &Grid, s: &mut State, model: &WaterSediment, b: &mut Buffers) {
    decide(grid, s, model, b);
    let w = grid.width;
    let (d, now) = (&b.decided, &*s);
    let (surface, water_in) = (&now.surface, &now.water);
    let next = &mut b.next;
    let outputs =
        next.water.par_chunks_mut(w).zip(next.sediment.par_chunks_mut(w)).zip(next.surface.par_chunks_mut(w));
    outputs.zip(next.ground.par_chunks(w)).enumerate().for_each(
        |(row, (((waters, sediments), surfaces), grounds))| {
            let (first, last) = grid.inner_columns(row);
            for col in (0..first).chain(last..w) {
                let around = neighbours(grid, model.wrap, row, col).into_iter().flatten();
                (waters[col], sediments[col]) =
                    gather_cell(d, surface, water_in, model, row * w + col, around);
            }
            if first < last {
                gather_inner_row(
                    grid,
                    d,
                    now,
                    model,
                    row,
                    &mut waters[first..last],
                    &mut sediments[first..last],
                );
            }
            for ((water, surface), ground) in waters.iter_mut().zip(surfaces.iter_mut()).zip(grounds) {
                *water *= 1.0 - model.evaporate;
                *surface = ground + *water + model.rain_m;
            }
        },
    );
    std::mem::swap(s, &mut b.next);
}

/// Cell `i`'s water and sediment after the step: what it kept plus what runs in from
/// `around`, before evaporation.
#[inline(always)]
fn gather_cell(
    d: &DecidedCells,
    surface: &[f64],
    water_in: &[f64],
    model: &WaterSediment,
    i: usize,
    around: impl Iterator<Item = usize>,
) -> (f64, f64) {
    let kept = 1.0 - d.leaving[i];
    let (mut water, mut sediment) = ((water_in[i] + model.rain_m) * kept, d.sediment[i] * kept);
    for j in around {
        let drop = (surface[j] - surface[i]).max(0.0);
        let share = d.per_square[j] * drop * drop;
        water += (water_in[j] + model.rain_m) * share;
        sediment += d.sediment[j] * share;
    }
    (water, sediment)
}

/// [`gather_cell`] for the inner columns of `row` (see [`Grid::inner_columns`]) into
/// `waters` and `sediments`, with all eight neighbours' rows read side by side: the same
/// sums in the same order, in a loop with no jumps, so the cells' sums vectorise.
fn gather_inner_row(
    grid: &Grid,
    d: &DecidedCells,
    s: &State,
    model: &WaterSediment,
    row: usize,
    waters: &mut [f64],
    sediments: &mut [f64],
) {
    let (surface, water_in) = (&s.surface, &s.water);
    let len = waters.len();
    let start = row * grid.width + grid.inner_columns(row).0;
    let cells = start..start + len;
    let (here, leaving) = (&surface[cells.clone()], &d.leaving[cells.clone()]);
    let (sediment_here, water_here) = (&d.sediment[cells.clone()], &water_in[cells]);
    let around = grid.inner_neighbours(start).map(|j| {
        let cells = j..j + len;
        (&surface[cells.clone()], &d.per_square[cells.clone()], &d.sediment[cells.clone()], &water_in[cells])
    });
    for c in 0..len {
        let kept = 1.0 - leaving[c];
        let (mut water, mut sediment) = ((water_here[c] + model.rain_m) * kept, sediment_here[c] * kept);
        for (there, per_square, sediment_there, water_there) in &around {
            let drop = (there[c] - here[c]).max(0.0);
            let share = per_square[c] * drop * drop;
            water += (water_there[c] + model.rain_m) * share;
            sediment += sediment_there[c] * share;
        }
        (waters[c], sediments[c]) = (water, sediment);
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

    /// Away from the rim the offsets name the same cells, in the same order, as the general
    /// rule, closed or wrapped, and a row's drops taken a direction at a time are the
    /// cell-by-cell drops bit for bit; the first and last rows have no inner columns.
    #[test]
    fn inner_cells_have_the_same_neighbours_either_way() {
        let grid = Grid { width: 6, height: 5, cell_m: 1.0 };
        let surface: Vec<f64> =
            (0..grid.width * grid.height).map(|i| ((i * 37) % 11) as f64 * 0.3 + (i as f64).sin()).collect();
        let mut drops = Drops::new(grid.width);
        let mut sloping = 0;
        for row in 0..grid.height {
            let (first, last) = grid.inner_columns(row);
            assert_eq!(first == last, row == 0 || row + 1 == grid.height);
            drops.inner_row(&grid, &surface, row, first, last);
            for col in first..last {
                let i = row * grid.width + col;
                for wrap in [false, true] {
                    let general: Vec<usize> =
                        neighbours(&grid, wrap, row, col).into_iter().flatten().collect();
                    assert_eq!(general, grid.inner_neighbours(i), "cell {i}, wrap {wrap}");
                }
                let one = drops_towards(&surface, i, grid.inner_neighbours(i).into_iter());
                let row_wise = (drops.total[col], drops.squares[col], drops.biggest[col]);
                sloping += usize::from(one.1 > 0.0);
                assert_eq!(
                    [one.0, one.1, one.2].map(f64::to_bits),
                    [row_wise.0, row_wise.1, row_wise.2].map(f64::to_bits),
                    "cell {i}"
                );
            }
        }
        assert!(sloping >= 8, "most inner cells have a lower neighbour: {sloping}");
    }

    /// A row's inner cells gathered together, their neighbours' rows side by side, get what
    /// each cell gathers on its own, bit for bit.
    #[test]
    fn a_row_gathers_what_its_cells_gather() {
        let grid = Grid { width: 9, height: 4, cell_m: 1.0 };
        let n = grid.width * grid.height;
        let wave = |k: usize, scale: f64| {
            (0..n).map(|i| (((i * k) % 13) as f64 * 0.37).sin().abs() * scale).collect()
        };
        let state = State {
            ground: vec![0.0; n],
            water: wave(7, 0.2),
            sediment: vec![0.0; n],
            surface: wave(11, 3.0),
        };
        let d = DecidedCells { sediment: wave(5, 0.01), leaving: wave(3, 0.5), per_square: wave(17, 0.9) };
        let model = WaterSediment::default();
        let mut flowing = 0;
        for row in 1..grid.height - 1 {
            let (first, last) = grid.inner_columns(row);
            let (mut waters, mut sediments) = (vec![0.0; last - first], vec![0.0; last - first]);
            gather_inner_row(&grid, &d, &state, &model, row, &mut waters, &mut sediments);
            for col in first..last {
                let i = row * grid.width + col;
                let around = grid.inner_neighbours(i).into_iter();
                let (water, sediment) = gather_cell(&d, &state.surface, &state.water, &model, i, around);
                flowing += usize::from(water != (state.water[i] + model.rain_m) * (1.0 - d.leaving[i]));
                assert_eq!(
                    [waters[col - first], sediments[col - first]].map(f64::to_bits),
                    [water, sediment].map(f64::to_bits),
                    "cell {i}"
                );
            }
        }
        assert!(flowing >= 8, "water runs into most cells: {flowing}");
    }

    /// Ground plus sediment is conserved: rain adds only water.
    #[test]
    fn ground_and_sediment_are_conserved() {
        let grid = Grid { width: 32, height: 32, cell_m: 1.0 };
        let z = valley(&grid);
        let n = z.len();
        let model = WaterSediment::default();
        let mut state = State::dry(&z, &model);
        let mut buffers = Buffers::new(n);
        for _ in 0..50 {
            step_once(&grid, &mut state, &model, &mut buffers);
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
        let params = DrainageParams::outlets(None, true);
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
            crate::testkit::with_threads(threads, || {
                let mut z = valley(&grid);
                let model = WaterSediment { wrap: true, ..WaterSediment::default() };
                erode_water_sediment(&grid, &mut z, &model, 30, 0, &mut |_, _, _| {});
                z
            })
        };
        assert!(run_with(1).iter().zip(&run_with(2)).all(|(a, b)| a.to_bits() == b.to_bits()));
    }
}
