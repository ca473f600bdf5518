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
use std::iter::StepBy;
use std::ops::Range;

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

impl WaterSediment {
    /// The model's default dials: channels and fans on metre-scale relief.
    pub const DEFAULT: WaterSediment = WaterSediment {
        rain_m: 0.01,
        evaporate: 0.05,
        carry: 0.5,
        pickup: 0.1,
        max_cut_m: 0.05,
        settle: 0.3,
        wrap: false,
    };
}

impl Default for WaterSediment {
    fn default() -> Self {
        WaterSediment::DEFAULT
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

/// What `L` cells side by side decided at the start of a step: their ground and sediment
/// after picking up or settling, the fraction of their water that leaves, and that fraction
/// over the sum of their squared drops (the share a neighbour gets is this times the
/// squared drop towards it).
struct Decided<const L: usize> {
    ground: [f64; L],
    sediment: [f64; L],
    leaving: [f64; L],
    per_square: [f64; L],
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

/// Inner cells worked out together: enough for the compiler to keep their sums in vector
/// registers while it walks the eight neighbours.
const LANES: usize = 4;

/// The columns `first..last` as the first columns of as many whole blocks of [`LANES`] as
/// fit, and the columns left after them.
fn in_blocks(first: usize, last: usize) -> (StepBy<Range<usize>>, Range<usize>) {
    let end = first + (last - first) / LANES * LANES;
    ((first..end).step_by(LANES), end..last)
}

/// One row's share of what every cell decided, and its new ground, indexed by column.
struct DecidedRow<'a> {
    ground: &'a mut [f64],
    sediment: &'a mut [f64],
    leaving: &'a mut [f64],
    per_square: &'a mut [f64],
}

impl DecidedRow<'_> {
    /// Stores what the cells from column `col` on decided.
    #[inline(always)]
    fn set<const L: usize>(&mut self, col: usize, cells: Decided<L>) {
        self.ground[col..col + L].copy_from_slice(&cells.ground);
        self.sediment[col..col + L].copy_from_slice(&cells.sediment);
        self.leaving[col..col + L].copy_from_slice(&cells.leaving);
        self.per_square[col..col + L].copy_from_slice(&cells.per_square);
    }
}

/// Every cell's new ground (into `b.next`) and what it sends on (into `b.decided`).
fn decide(grid: &Grid, s: &State, model: &WaterSediment, b: &mut Buffers) {
    let w = grid.width;
    let DecidedCells { sediment, leaving, per_square } = &mut b.decided;
    let decided = sediment.par_chunks_mut(w).zip(leaving.par_chunks_mut(w)).zip(per_square.par_chunks_mut(w));
    decided.zip(b.next.ground.par_chunks_mut(w)).enumerate().for_each(
        |(row, (((sediment, leaving), per_square), ground))| {
            let mut out = DecidedRow { ground, sediment, leaving, per_square };
            let (first, last) = grid.inner_columns(row);
            for col in (0..first).chain(last..w) {
                let i = row * w + col;
                let around = neighbours(grid, model.wrap, row, col).into_iter().flatten();
                let drops = drops_towards(&s.surface, i, around).map(|d| [d]);
                let water = [s.water[i] + model.rain_m];
                out.set(col, decide_cells(model, water, [s.ground[i]], [s.sediment[i]], drops));
            }
            let (blocks, rest) = in_blocks(first, last);
            for col in blocks {
                out.set(col, decide_block::<LANES>(grid, s, model, row * w + col));
            }
            for col in rest {
                out.set(col, decide_block::<1>(grid, s, model, row * w + col));
            }
        },
    );
}

/// What the `L` inner cells from `i` on decide ([`decide_cells`]), their drops taken side by
/// side in [`drops_towards`]'s order.
#[inline(always)]
fn decide_block<const L: usize>(grid: &Grid, s: &State, model: &WaterSediment, i: usize) -> Decided<L> {
    let here = &s.surface[i..i + L];
    let (mut total, mut squares, mut biggest) = ([0.0; L], [0.0; L], [0.0_f64; L]);
    for j in grid.inner_neighbours(i) {
        let there = &s.surface[j..j + L];
        for l in 0..L {
            let drop = (here[l] - there[l]).max(0.0);
            total[l] += drop;
            squares[l] += drop * drop;
            biggest[l] = biggest[l].max(drop);
        }
    }
    let (water, ground, sediment) = (&s.water[i..i + L], &s.ground[i..i + L], &s.sediment[i..i + L]);
    let water = std::array::from_fn(|l| water[l] + model.rain_m);
    let (ground, sediment) = (std::array::from_fn(|l| ground[l]), std::array::from_fn(|l| sediment[l]));
    decide_cells(model, water, ground, sediment, [total, squares, biggest])
}

/// Cell `i`'s drops of the water `surface` towards `around`: their sum, the sum of their
/// squares and the biggest, metres (m² for the squares).
#[inline(always)]
fn drops_towards(surface: &[f64], i: usize, around: impl Iterator<Item = usize>) -> [f64; 3] {
    let (mut total, mut squares, mut biggest) = (0.0, 0.0, 0.0_f64);
    for j in around {
        let drop = (surface[i] - surface[j]).max(0.0);
        total += drop;
        squares += drop * drop;
        biggest = biggest.max(drop);
    }
    [total, squares, biggest]
}

/// What `L` cells side by side decide: for each, holding `water` (this step's rain
/// included), `ground` and `sediment`, metres, with its drops towards its neighbours
/// ([`drops_towards`]), its new ground and what it sends on. Both outcomes, picking up and
/// settling, are worked out and one is kept, and each line runs over all the cells, so the
/// cells' sums vectorise.
#[inline(always)]
fn decide_cells<const L: usize>(
    model: &WaterSediment,
    water: [f64; L],
    ground: [f64; L],
    sediment: [f64; L],
    [total, squares, biggest]: [[f64; L]; 3],
) -> Decided<L> {
    let capacity: [f64; L] = std::array::from_fn(|l| model.carry * total[l].sqrt() * water[l]);
    let pick: [f64; L] =
        std::array::from_fn(|l| ((capacity[l] - sediment[l]) * model.pickup).min(model.max_cut_m));
    let settle: [f64; L] = std::array::from_fn(|l| (sediment[l] - capacity[l]) * model.settle);
    let picking: [bool; L] = std::array::from_fn(|l| sediment[l] < capacity[l]);
    // At most half the biggest drop leaves, so the surface never falls below a neighbour's.
    let share: [f64; L] = std::array::from_fn(|l| (0.5 * biggest[l]).min(water[l]) / water[l]);
    let leaving: [f64; L] =
        std::array::from_fn(|l| if (water[l] > 0.0) & (squares[l] > 0.0) { share[l] } else { 0.0 });
    let per_square: [f64; L] = std::array::from_fn(|l| leaving[l] / squares[l]);
    Decided {
        ground: std::array::from_fn(|l| if picking[l] { ground[l] - pick[l] } else { ground[l] + settle[l] }),
        sediment: std::array::from_fn(|l| {
            if picking[l] {
                sediment[l] + pick[l]
            } else {
                sediment[l] - settle[l]
            }
        }),
        leaving,
        per_square: std::array::from_fn(|l| if squares[l] > 0.0 { per_square[l] } else { 0.0 }),
    }
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
            let (blocks, rest) = in_blocks(first, last);
            for col in blocks {
                let (water, sediment) = gather_block::<LANES>(grid, d, now, model, row * w + col);
                waters[col..col + LANES].copy_from_slice(&water);
                sediments[col..col + LANES].copy_from_slice(&sediment);
            }
            for col in rest {
                let ([water], [sediment]) = gather_block::<1>(grid, d, now, model, row * w + col);
                (waters[col], sediments[col]) = (water, sediment);
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

/// [`gather_cell`] for the `L` inner cells from `i` on, side by side: the same sums in the
/// same order.
#[inline(always)]
fn gather_block<const L: usize>(
    grid: &Grid,
    d: &DecidedCells,
    s: &State,
    model: &WaterSediment,
    i: usize,
) -> ([f64; L], [f64; L]) {
    let (here, leaving) = (&s.surface[i..i + L], &d.leaving[i..i + L]);
    let (water_here, sediment_here) = (&s.water[i..i + L], &d.sediment[i..i + L]);
    let mut water: [f64; L] = std::array::from_fn(|l| (water_here[l] + model.rain_m) * (1.0 - leaving[l]));
    let mut sediment: [f64; L] = std::array::from_fn(|l| sediment_here[l] * (1.0 - leaving[l]));
    for j in grid.inner_neighbours(i) {
        let (there, per_square) = (&s.surface[j..j + L], &d.per_square[j..j + L]);
        let (water_there, sediment_there) = (&s.water[j..j + L], &d.sediment[j..j + L]);
        for l in 0..L {
            let drop = (there[l] - here[l]).max(0.0);
            let share = per_square[l] * drop * drop;
            water[l] += (water_there[l] + model.rain_m) * share;
            sediment[l] += sediment_there[l] * share;
        }
    }
    (water, sediment)
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

    /// A state with uneven ground, water, sediment and surface, so that some cells pick
    /// ground up and others let sediment settle.
    fn uneven(grid: &Grid) -> State {
        let n = grid.width * grid.height;
        let wave = |k: usize, scale: f64| {
            (0..n).map(|i| (((i * k) % 13) as f64 * 0.37).sin().abs() * scale).collect::<Vec<_>>()
        };
        State { ground: wave(3, 2.0), water: wave(7, 0.2), sediment: wave(5, 0.3), surface: wave(11, 3.0) }
    }

    /// Three cells worked out by hand: one picks ground up (capacity 0.5 · √4 · 0.2 = 0.2
    /// over its 0.1 of sediment, a tenth of the gap), one lets a third of its excess settle,
    /// and a flat one, which can carry nothing, lets a third of its sediment settle and sends
    /// no water on.
    #[test]
    fn cells_pick_up_settle_or_keep_their_water_as_worked_out_by_hand() {
        let model = WaterSediment::default();
        let drops = [[4.0, 4.0, 0.0], [2.0, 2.0, 0.0], [1.0, 1.0, 0.0]];
        let cells = decide_cells(&model, [0.2, 0.2, 0.2], [1.0; 3], [0.1, 0.3, 0.1], drops);
        let near = |got: [f64; 3], want: [f64; 3]| got.iter().zip(want).all(|(g, w)| (g - w).abs() < 1e-12);
        assert!(near(cells.ground, [0.99, 1.03, 1.03]), "{:?}", cells.ground);
        assert!(near(cells.sediment, [0.11, 0.27, 0.07]), "{:?}", cells.sediment);
        assert!(near(cells.leaving, [1.0, 1.0, 0.0]), "{:?}", cells.leaving);
        assert!(near(cells.per_square, [0.5, 0.5, 0.0]), "{:?}", cells.per_square);
    }

    /// Away from the rim the offsets name the same cells, in the same order, as the general
    /// rule, closed or wrapped, and inner cells decided and gathered one at a time or side by
    /// side get what each gets on its own by the general rule, bit for bit. The first and
    /// last rows have no inner columns.
    #[test]
    fn inner_cells_side_by_side_get_what_each_gets_alone() {
        let grid = Grid { width: 11, height: 5, cell_m: 1.0 };
        let (w, n) = (grid.width, grid.width * grid.height);
        let (s, model) = (uneven(&grid), WaterSediment::default());
        let around = |row: usize, col: usize| neighbours(&grid, false, row, col).into_iter().flatten();
        let alone: Vec<Decided<1>> = (0..n)
            .map(|i| {
                let drops = drops_towards(&s.surface, i, around(i / w, i % w)).map(|x| [x]);
                decide_cells(&model, [s.water[i] + model.rain_m], [s.ground[i]], [s.sediment[i]], drops)
            })
            .collect();
        let field = |f: fn(&Decided<1>) -> f64| alone.iter().map(f).collect::<Vec<f64>>();
        let ground = field(|c| c.ground[0]);
        let d = DecidedCells {
            sediment: field(|c| c.sediment[0]),
            leaving: field(|c| c.leaving[0]),
            per_square: field(|c| c.per_square[0]),
        };
        let bits = |x: &[f64]| x.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        let (mut picking, mut settling) = (0, 0);
        for row in 0..grid.height {
            let (first, last) = grid.inner_columns(row);
            assert_eq!(first == last, row == 0 || row + 1 == grid.height);
            for col in first..last {
                let i = row * w + col;
                for wrap in [false, true] {
                    let general: Vec<usize> =
                        neighbours(&grid, wrap, row, col).into_iter().flatten().collect();
                    assert_eq!(general, grid.inner_neighbours(i), "cell {i}, wrap {wrap}");
                }
                picking += usize::from(ground[i] < s.ground[i]);
                settling += usize::from(ground[i] > s.ground[i]);
                let one = decide_block::<1>(&grid, &s, &model, i);
                let alone = [ground[i], d.sediment[i], d.leaving[i], d.per_square[i]].map(f64::to_bits);
                assert_eq!(
                    [one.ground[0], one.sediment[0], one.leaving[0], one.per_square[0]].map(f64::to_bits),
                    alone
                );
                let ([water], [sediment]) = gather_block::<1>(&grid, &d, &s, &model, i);
                let general = gather_cell(&d, &s.surface, &s.water, &model, i, around(row, col));
                assert_eq!(
                    [water, sediment].map(f64::to_bits),
                    [general.0, general.1].map(f64::to_bits),
                    "cell {i}"
                );
            }
            for col in (first..last).filter(|col| col + LANES <= last) {
                let cells = row * w + col..row * w + col + LANES;
                let block = decide_block::<LANES>(&grid, &s, &model, cells.start);
                assert_eq!(bits(&block.ground), bits(&ground[cells.clone()]), "cells {cells:?}");
                assert_eq!(bits(&block.sediment), bits(&d.sediment[cells.clone()]), "cells {cells:?}");
                assert_eq!(bits(&block.leaving), bits(&d.leaving[cells.clone()]), "cells {cells:?}");
                assert_eq!(bits(&block.per_square), bits(&d.per_square[cells.clone()]), "cells {cells:?}");
                let (water, sediment) = gather_block::<LANES>(&grid, &d, &s, &model, cells.start);
                for (l, i) in cells.enumerate() {
                    let one = gather_cell(&d, &s.surface, &s.water, &model, i, around(row, col + l));
                    assert_eq!(
                        [water[l], sediment[l]].map(f64::to_bits),
                        [one.0, one.1].map(f64::to_bits),
                        "cell {i}"
                    );
                }
            }
        }
        assert!(picking >= 4 && settling >= 4, "{picking} inner cells pick up, {settling} settle");
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
