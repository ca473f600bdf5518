//! Droplet (particle) hydraulic erosion on a heightmap grid, after Beyer's thesis (2015) and
//! the implementations that followed it: each droplet runs downhill with inertia, picks up
//! sediment up to a capacity set by its speed, water and the fall, and drops it where it
//! slows or climbs.
//!
//! Deterministic with any thread count: droplets run in fixed batches, each droplet against
//! the ground as the batch found it and with its own seeded generator; the batch's changes
//! are then applied in droplet order (rows in parallel, each row's changes in that order).

use super::{ErosionReport, FrameSink};
use crate::ground::grid::Grid;
use crate::ground::topology::Topology;
use crate::math::batch::grid_z_order;
use crate::math::rng::SplitMix64;
use rayon::prelude::*;

/// The droplet constants; heights in metres, distances in cells.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Droplets {
    /// How much of its direction a droplet keeps each step (0..=1).
    pub inertia: f64,
    /// Sediment a droplet can carry per unit of fall, speed and water.
    pub capacity: f64,
    /// The fall that counts at least, so a droplet on a flat still carries a little.
    pub min_slope: f64,
    /// Fraction of the free capacity picked up per step (0..=1).
    pub erode: f64,
    /// Fraction of the excess sediment dropped per step (0..=1).
    pub deposit: f64,
    /// Fraction of the water lost per step (0..=1).
    pub evaporate: f64,
    /// Gravity, speeding droplets up on the way down.
    pub gravity: f64,
    /// Radius of the patch a droplet erodes, cells.
    pub radius: usize,
    /// Steps before a droplet stops.
    pub max_lifetime: usize,
    /// Water a droplet starts with.
    pub initial_water: f64,
    /// Speed a droplet starts with, cells per step.
    pub initial_speed: f64,
}

impl Droplets {
    /// The constants of the common implementations.
    pub const DEFAULT: Droplets = Droplets {
        inertia: 0.05,
        capacity: 4.0,
        min_slope: 0.01,
        erode: 0.3,
        deposit: 0.3,
        evaporate: 0.01,
        gravity: 4.0,
        radius: 3,
        max_lifetime: 30,
        initial_water: 1.0,
        initial_speed: 1.0,
    };
}

impl Default for Droplets {
    /// [`Droplets::DEFAULT`].
    fn default() -> Self {
        Droplets::DEFAULT
    }
}

/// Droplets that run against the same ground before their changes are applied.
const BATCH: usize = 8192;

/// One change a droplet made: `amount` metres added (negative: taken) at `cell`.
type Change = (u32, f64);

/// Runs `count` droplets from `seed` over `heights` (row-major, `grid.len()` of them),
/// calling `frame` after every `every` batches (0: never).
///
/// # Panics
/// If `heights.len() != grid.len()`.
pub fn erode_droplets(
    grid: &Grid,
    heights: &mut [f64],
    model: &Droplets,
    count: usize,
    seed: u64,
    every: usize,
    frame: FrameSink,
) -> ErosionReport {
    assert_eq!(heights.len(), grid.len(), "one height per cell");
    let before = heights.to_vec();
    let brush = Brush::new(model, grid.width);
    let (w, h) = (grid.width, grid.height);
    let mut done = 0;
    let mut batch_no = 0;
    while done < count && w >= 2 && h >= 2 {
        let end = (done + BATCH).min(count);
        let ground: &[f64] = heights;
        // The batch runs its droplets in the order of their starts along a Z-order curve
        // (each thread a stretch of it), so the ground they read is still in the cache.
        // Each droplet reads the ground as the batch found it: the order changes no bits.
        let mut order: Vec<(u64, usize)> = (done..end)
            .map(|d| {
                let (x, y) = start(grid, seed, d as u64);
                (grid_z_order(y as u32, x as u32), d)
            })
            .collect();
        order.sort_unstable();
        let ran: Vec<Vec<Change>> = order
            .par_iter()
            .map_init(
                || Patch::new(model),
                |patch, &(_, d)| run(grid, ground, model, &brush, seed, d as u64, patch),
            )
            .collect();
        let mut changes = vec![Vec::new(); end - done];
        for (&(_, d), ran) in order.iter().zip(ran) {
            changes[d - done] = ran;
        }
        apply(heights, w, &changes);
        done = end;
        batch_no += 1;
        if every > 0 && batch_no % every == 0 {
            frame(done, heights, &[]);
        }
    }
    ErosionReport::between(grid, &before, heights, count)
}

/// Offsets within `radius` cells and their weights (summing to 1).
fn brush(radius: usize) -> Vec<(isize, isize, f64)> {
    let r = radius as isize;
    let mut cells = Vec::new();
    for dy in -r..=r {
        for dx in -r..=r {
            let d = ((dx * dx + dy * dy) as f64).sqrt();
            if d <= radius as f64 {
                cells.push((dx, dy, radius as f64 + 1.0 - d));
            }
        }
    }
    let total: f64 = cells.iter().map(|c| c.2).sum();
    cells.iter().map(|&(dx, dy, w)| (dx, dy, w / total)).collect()
}

/// The cells a droplet erodes around the cell it stands on, with their weights.
struct Brush {
    radius: usize,
    cells: Vec<BrushCell>,
}

/// One cell of a [`Brush`]: its offset in columns and rows, its weight, and how far it lies
/// from the centre in the map's cells and in a [`Patch`]'s.
struct BrushCell {
    dx: isize,
    dy: isize,
    weight: f64,
    step: isize,
    local_step: isize,
}

impl Brush {
    /// The brush of `model` on a map `width` cells wide.
    fn new(model: &Droplets, width: usize) -> Self {
        let side = Patch::size(model).1 as isize;
        let cells = brush(model.radius)
            .into_iter()
            .map(|(dx, dy, weight)| BrushCell {
                dx,
                dy,
                weight,
                step: dy * width as isize + dx,
                local_step: dy * side + dx,
            })
            .collect();
        Brush { radius: model.radius, cells }
    }

    /// Wears the ground around the cell at `(row, col)`: each cell of the brush on the map
    /// gives a bite of its weight times `take` metres, never below zero, into `patch`
    /// (`ground` as the batch found it). Returns the sediment `carried` (metres) plus the
    /// bites, added one by one.
    fn wear(
        &self,
        patch: &mut Patch,
        grid: &Grid,
        ground: &[f64],
        (row, col): (usize, usize),
        take: f64,
        mut carried: f64,
    ) -> f64 {
        let r = self.radius;
        // Mostly the whole brush is on the map, and its cells lie at fixed steps from the
        // centre, on the map and in the patch alike.
        let inside = row >= r && col >= r && row + r < grid.height && col + r < grid.width;
        let (centre, local) = (row * grid.width + col, patch.local(row, col));
        let at = |cell: &BrushCell| {
            (centre.wrapping_add_signed(cell.step), local.wrapping_add_signed(cell.local_step))
        };
        if inside {
            for cell in &self.cells {
                let (i, l) = at(cell);
                carried += patch.bite(ground, i, l, take * cell.weight);
            }
        } else {
            let on_map = |cell: &&BrushCell| {
                let (y, x) = (row as isize + cell.dy, col as isize + cell.dx);
                y >= 0 && x >= 0 && y < grid.height as isize && x < grid.width as isize
            };
            for cell in self.cells.iter().filter(on_map) {
                let (i, l) = at(cell);
                carried += patch.bite(ground, i, l, take * cell.weight);
            }
        }
        carried
    }
}

/// A droplet's own changes so far, so it meets the ground it has already worn: a square of
/// cells around where it started (it moves at most a cell a step) and the cells it touched,
/// in the order it first touched them. One per thread, cleared after each droplet.
struct Patch {
    side: usize,
    half: isize,
    row0: isize,
    col0: isize,
    delta: Vec<f64>,
    touched: Vec<(u32, u32)>,
}

impl Patch {
    fn new(m: &Droplets) -> Self {
        let (half, side) = Patch::size(m);
        Patch { side, half, row0: 0, col0: 0, delta: vec![0.0; side * side], touched: Vec::new() }
    }

    /// How far a droplet of `m` and its brush reach from where it started, and the patch's
    /// side, cells.
    fn size(m: &Droplets) -> (isize, usize) {
        let half = (m.max_lifetime + m.radius + 2) as isize;
        (half, 2 * half as usize + 1)
    }

    fn start(&mut self, row: usize, col: usize) {
        (self.row0, self.col0) = (row as isize - self.half, col as isize - self.half);
    }

    fn local(&self, row: usize, col: usize) -> usize {
        (row as isize - self.row0) as usize * self.side + (col as isize - self.col0) as usize
    }

    fn get(&self, row: usize, col: usize) -> f64 {
        self.delta[self.local(row, col)]
    }

    fn add(&mut self, w: usize, row: usize, col: usize, amount: f64) {
        self.add_at(row * w + col, self.local(row, col), amount);
    }

    /// Adds `amount` metres at `cell` of the map, `l` of the patch.
    #[inline]
    fn add_at(&mut self, cell: usize, l: usize, amount: f64) {
        if self.delta[l] == 0.0 {
            self.touched.push((cell as u32, l as u32));
        }
        self.delta[l] += amount;
    }

    /// Takes a bite of at most `most` metres, and never below zero, from the worn ground at
    /// `cell` of the map (`ground`), `l` of the patch; the bite, metres.
    #[inline]
    fn bite(&mut self, ground: &[f64], cell: usize, l: usize, most: f64) -> f64 {
        let bite = most.min((ground[cell] + self.delta[l]).max(0.0));
        self.add_at(cell, l, -bite);
        bite
    }

    /// The droplet's changes, one per cell in first-touch order; the patch is clear again.
    fn finish(&mut self) -> Vec<Change> {
        let mut changes = Vec::with_capacity(self.touched.len());
        for &(cell, l) in &self.touched {
            let amount = std::mem::take(&mut self.delta[l as usize]);
            if amount != 0.0 {
                changes.push((cell, amount));
            }
        }
        self.touched.clear();
        changes
    }
}

/// Where droplet `d` of a run seeded `seed` starts: column and row, in cells.
fn start(grid: &Grid, seed: u64, d: u64) -> (f64, f64) {
    let mut rng = SplitMix64::new(seed, d);
    let x = rng.next_f64() * (grid.width - 1) as f64;
    (x, rng.next_f64() * (grid.height - 1) as f64)
}

/// One droplet's life against `ground` (with its own changes in `patch`); its changes.
fn run(
    grid: &Grid,
    ground: &[f64],
    m: &Droplets,
    brush: &Brush,
    seed: u64,
    d: u64,
    patch: &mut Patch,
) -> Vec<Change> {
    let (w, h) = (grid.width, grid.height);
    let (mut x, mut y) = start(grid, seed, d);
    patch.start(y as usize, x as usize);
    let (mut dx, mut dy) = (0.0, 0.0);
    let (mut speed, mut water, mut sediment) = (m.initial_speed, m.initial_water, 0.0);
    let at = |patch: &Patch, row: usize, col: usize| ground[row * w + col] + patch.get(row, col);
    let bilinear = |patch: &Patch, x: f64, y: f64| {
        let (cx, cy) = (x as usize, y as usize);
        let (u, v) = (x - cx as f64, y - cy as f64);
        let (nw, ne) = (at(patch, cy, cx), at(patch, cy, cx + 1));
        let (sw, se) = (at(patch, cy + 1, cx), at(patch, cy + 1, cx + 1));
        (nw, ne, sw, se, u, v)
    };
    for _ in 0..m.max_lifetime {
        let (cx, cy) = (x as usize, y as usize);
        let (nw, ne, sw, se, u, v) = bilinear(patch, x, y);
        let weights = [(1.0 - u) * (1.0 - v), u * (1.0 - v), (1.0 - u) * v, u * v];
        let gx = (ne - nw) * (1.0 - v) + (se - sw) * v;
        let gy = (sw - nw) * (1.0 - u) + (se - ne) * u;
        let height = nw * weights[0] + ne * weights[1] + sw * weights[2] + se * weights[3];
        dx = dx * m.inertia - gx * (1.0 - m.inertia);
        dy = dy * m.inertia - gy * (1.0 - m.inertia);
        let len = (dx * dx + dy * dy).sqrt();
        if len == 0.0 {
            break;
        }
        (dx, dy) = (dx / len, dy / len);
        let (nx, ny) = (x + dx, y + dy);
        if nx < 0.0 || ny < 0.0 || nx >= (w - 1) as f64 || ny >= (h - 1) as f64 {
            break;
        }
        let (a, b, c, e, p, q) = bilinear(patch, nx, ny);
        let fall = height - (a * (1.0 - p) * (1.0 - q) + b * p * (1.0 - q) + c * (1.0 - p) * q + e * p * q);
        let capacity = fall.max(m.min_slope) * speed * water * m.capacity;
        if sediment > capacity || fall < 0.0 {
            // Climbing: fill the hollow behind (at most what it carries); else drop the excess.
            let drop = if fall < 0.0 { (-fall).min(sediment) } else { (sediment - capacity) * m.deposit };
            sediment -= drop;
            let corners = [(cy, cx), (cy, cx + 1), (cy + 1, cx), (cy + 1, cx + 1)];
            for ((row, col), weight) in corners.into_iter().zip(weights) {
                patch.add(w, row, col, drop * weight);
            }
        } else {
            let take = ((capacity - sediment) * m.erode).min(fall);
            sediment = brush.wear(patch, grid, ground, (cy, cx), take, sediment);
        }
        speed = (speed * speed + fall * m.gravity).max(0.0).sqrt();
        water *= 1.0 - m.evaporate;
        (x, y) = (nx, ny);
    }
    patch.finish()
}

/// Rows of the map one task applies changes to.
const STRIPE_ROWS: usize = 16;

/// Droplets whose changes one task deals out to the stripes.
const DEAL_GROUP: usize = 256;

/// Applies every droplet's changes in droplet order: groups of droplets deal their changes
/// to stripes of rows (in parallel, each group in droplet order), then each stripe applies
/// its groups' changes in group order (stripes in parallel), so each cell sees its changes
/// in the same order whatever the thread count.
fn apply(heights: &mut [f64], w: usize, changes: &[Vec<Change>]) {
    let stripe_cells = STRIPE_ROWS * w;
    let stripes = heights.len().div_ceil(stripe_cells);
    let dealt: Vec<Vec<Vec<Change>>> = changes
        .par_chunks(DEAL_GROUP)
        .map(|group| {
            let mut out: Vec<Vec<Change>> = vec![Vec::new(); stripes];
            for &(cell, amount) in group.iter().flatten() {
                out[cell as usize / stripe_cells].push((cell, amount));
            }
            out
        })
        .collect();
    heights.par_chunks_mut(stripe_cells).enumerate().for_each(|(k, cells)| {
        let first = k * stripe_cells;
        for group in &dealt {
            for &(cell, amount) in &group[k] {
                cells[cell as usize - first] += amount;
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hill(grid: &Grid) -> Vec<f64> {
        let c = (grid.width as f64 - 1.0) / 2.0;
        (0..grid.len())
            .map(|i| {
                let (x, y) = ((i % grid.width) as f64 - c, (i / grid.width) as f64 - c);
                40.0 - 0.02 * (x * x + y * y) + 0.3 * (x * 0.7).sin() * (y * 0.4).cos()
            })
            .collect()
    }

    #[test]
    fn same_bytes_with_one_or_two_threads() {
        let grid = Grid { width: 64, height: 64, cell_m: 1.0 };
        let run_with = |threads: usize| {
            crate::testkit::with_threads(threads, || {
                let mut z = hill(&grid);
                erode_droplets(&grid, &mut z, &Droplets::default(), 20_000, 7, 0, &mut |_, _, _| {});
                z
            })
        };
        let (one, two) = (run_with(1), run_with(2));
        assert!(one.iter().zip(&two).all(|(a, b)| a.to_bits() == b.to_bits()));
        assert_ne!(one, hill(&grid), "the droplets changed the ground");
    }

    #[test]
    fn droplets_move_rock_downhill_and_keep_most_of_it() {
        let grid = Grid { width: 64, height: 64, cell_m: 1.0 };
        let mut z = hill(&grid);
        let before: f64 = z.iter().sum();
        let report = erode_droplets(&grid, &mut z, &Droplets::default(), 20_000, 3, 0, &mut |_, _, _| {});
        assert!(report.eroded_m3 > 0.0 && report.deposited_m3 > 0.0 && report.deepest_cut_m > 0.0);
        // Droplets that leave the map take their sediment with them; the rest is laid down.
        let after: f64 = z.iter().sum();
        assert!(after <= before && after > before - report.eroded_m3);
        assert!(z.iter().all(|h| h.is_finite()));
    }

    /// The brush's fixed steps take the same bites, in the same order and into the same
    /// cells, as the rule written out (each cell of `brush` on the map, by its row and
    /// column), near the edges and away from them; a second, overlapping wear meets the
    /// first one's changes the same way.
    #[test]
    fn a_brush_wears_as_the_rule_written_out() {
        let grid = Grid { width: 40, height: 30, cell_m: 1.0 };
        let ground = hill(&grid);
        let model = Droplets::default();
        let stepped = Brush::new(&model, grid.width);
        let written_out = |patch: &mut Patch, (row, col): (usize, usize), take: f64, mut carried: f64| {
            for (dx, dy, weight) in brush(model.radius) {
                let (y, x) = (row as isize + dy, col as isize + dx);
                if y >= 0 && x >= 0 && y < grid.height as isize && x < grid.width as isize {
                    let (y, x) = (y as usize, x as usize);
                    let worn = ground[y * grid.width + x] + patch.get(y, x);
                    let bite = (take * weight).min(worn.max(0.0));
                    patch.add(grid.width, y, x, -bite);
                    carried += bite;
                }
            }
            carried
        };
        let mut inside = 0;
        for (row, col) in [(3, 3), (3, 35), (25, 3), (15, 20), (2, 20), (15, 0), (28, 38)] {
            let (mut rule, mut steps) = (Patch::new(&model), Patch::new(&model));
            rule.start(row, col);
            steps.start(row, col);
            let mut carried = [1.5, 1.5];
            for (k, centre) in [(row, col), (row + 1, col + 1)].into_iter().enumerate() {
                let take = 0.3 + 0.1 * k as f64;
                carried[0] = written_out(&mut rule, centre, take, carried[0]);
                carried[1] = stepped.wear(&mut steps, &grid, &ground, centre, take, carried[1]);
            }
            assert_eq!(carried[0].to_bits(), carried[1].to_bits(), "at {row}, {col}");
            assert!(carried[0] > 1.5, "the brush took ground up at {row}, {col}");
            assert_eq!(rule.touched, steps.touched, "at {row}, {col}");
            let bits = |p: &Patch| p.delta.iter().map(|d| d.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&rule), bits(&steps), "at {row}, {col}");
            inside += usize::from(row >= 3 && col >= 3 && row + 4 < grid.height && col + 4 < grid.width);
        }
        assert_eq!(inside, 4, "four centres keep both wears on the map");
    }

    #[test]
    fn the_brush_weights_sum_to_one() {
        let total: f64 = brush(3).iter().map(|c| c.2).sum();
        assert!((total - 1.0).abs() < 1e-12);
        assert_eq!(brush(0).len(), 1);
    }
}
