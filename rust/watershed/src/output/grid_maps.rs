//! Maps of a solved heightmap world for terrain add-ons and water shaders: the carved
//! heights, a water level with no holes and its mask, flow direction and speed, foam, a
//! four-layer splat map and Terrain3D's control map — and all of them resampled to the
//! sizes HTerrain takes.

use crate::ground::topology::Topology;
use crate::water::heightmap::{Cover, HeightmapWorld};
use rayon::prelude::*;

/// The sides HTerrain accepts (2ⁿ + 1 cells), smallest first.
pub const HTERRAIN_SIDES: [usize; 4] = [513, 1025, 2049, 4097];
/// Water this fast is all foam, m/s.
pub const FOAM_SPEED_M_S: f64 = 2.5;
/// A water surface falling this much per metre to its lowest wet neighbour is all foam.
pub const FOAM_FALL: f64 = 0.5;
/// Foam along every shore (a wet cell beside a dry one), 0..=1.
pub const SHORE_FOAM: f64 = 0.3;
/// Slopes between which rock replaces grass or bank, degrees.
pub const ROCK_SLOPE_DEG: (f64, f64) = (30.0, 45.0);
/// Ground lowered by more than this by the carve is bank (where dry), metres.
pub const BANK_CUT_M: f64 = 0.05;
/// The speed a full byte stands for in [`GridMaps::flow_foam`], m/s (faster is clamped).
pub const FLOW_FOAM_FULL_SPEED_M_S: f64 = 5.0;

/// The four ground layers of [`GridMaps::splat`], in channel order (R, G, B, A); also the
/// texture ids of [`GridMaps::control`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Layer {
    /// Under any water: river and lake beds and the sea floor.
    Bed = 0,
    /// Dry ground the carve cut or beside the water.
    Bank = 1,
    /// Everything else that is not steep.
    Grass = 2,
    /// Slopes steeper than [`ROCK_SLOPE_DEG`].
    Rock = 3,
}

/// The maps of a heightmap world, every one row-major over `rows` × `cols` cells.
#[derive(Debug, Clone, PartialEq)]
pub struct GridMaps {
    /// Rows.
    pub rows: usize,
    /// Cells a row.
    pub cols: usize,
    /// Edge length of a cell, metres.
    pub cell_m: f64,
    /// Carved ground, metres (32-bit, as the files and images carry it).
    pub heights: Vec<f32>,
    /// Water surface, metres: the level on wet cells; on a dry cell beside water the lowest
    /// level of its wet neighbours (so a water mesh reaches under the bank), elsewhere the
    /// ground. Never NaN. 32-bit.
    pub water_level: Vec<f32>,
    /// Water mask: river, lake, sea, any water (R, G, B, A), 0 or 255.
    pub water_mask: Vec<[u8; 4]>,
    /// Flow: the unit direction in the grid's plane (x along a row, y down the rows) and the
    /// speed, m/s; zeros where the water stands still or the cell is dry. 32-bit.
    pub flow: Vec<[f32; 3]>,
    /// Foam, 0 (none) to 255 (white water): fast water, falls and shores.
    pub foam: Vec<u8>,
    /// Weights of the four [`Layer`]s, summing to 255.
    pub splat: Vec<[u8; 4]>,
    /// Terrain3D's control map: base texture id, overlay id and blend as its 32-bit bit
    /// field (see [`control_word`]), texture ids the [`Layer`]s.
    pub control: Vec<u32>,
}

impl GridMaps {
    /// The maps of `world`: each read in the world's 64 bits, stored in 32.
    pub fn of(world: &HeightmapWorld) -> Self {
        let grid = &world.grid;
        let wet = |i: usize| world.cover[i] != Cover::Dry;
        let water_level = (0..grid.len())
            .into_par_iter()
            .map(|i| {
                if wet(i) {
                    return world.level[i] as f32;
                }
                let beside = grid.neighbors(i).filter(|&j| wet(j)).map(|j| world.level[j]).reduce(f64::min);
                beside.unwrap_or(world.ground[i]) as f32
            })
            .collect();
        let water_mask = world
            .cover
            .iter()
            .map(|&c| {
                let on = |b: bool| if b { 255 } else { 0 };
                [on(c == Cover::River), on(c == Cover::Lake), on(c == Cover::Sea), on(c != Cover::Dry)]
            })
            .collect();
        // Flow and foam in one pass, so foam reads the speed in 64 bits.
        let (flow, foam): (Vec<[f32; 3]>, Vec<u8>) = (0..grid.len())
            .into_par_iter()
            .map(|i| {
                let v = world.flow_at(i).truncate();
                let speed = v.length();
                let unit = if speed > 0.0 { v / speed } else { v };
                ([unit.x as f32, unit.y as f32, speed as f32], foam_at(world, i, speed))
            })
            .unzip();
        let splat = (0..grid.len())
            .into_par_iter()
            .map(|i| {
                let rock = unit_byte(smoothstep(ROCK_SLOPE_DEG, slope_deg(world, i)));
                let mut weights = [0u8; 4];
                let base = if wet(i) {
                    weights[Layer::Bed as usize] = 255;
                    return weights;
                } else if world.natural[i] - world.ground[i] > BANK_CUT_M || grid.neighbors(i).any(wet) {
                    Layer::Bank
                } else {
                    Layer::Grass
                };
                weights[base as usize] = 255 - rock;
                weights[Layer::Rock as usize] = rock;
                weights
            })
            .collect::<Vec<_>>();
        let control = splat.iter().map(|w| control_of(*w)).collect();
        GridMaps {
            rows: grid.height,
            cols: grid.width,
            cell_m: grid.cell_m,
            heights: world.ground.iter().map(|&g| g as f32).collect(),
            water_level,
            water_mask,
            flow,
            foam,
            splat,
            control,
        }
    }

    /// Flow and foam packed in one RGBA8 map for a water shader, row-major: R and G the
    /// unit direction (x along a row, y down the rows) as `127.5 + 127.5·d` rounded, B the
    /// speed over [`FLOW_FOAM_FULL_SPEED_M_S`] as 0..=255, A the foam.
    pub fn flow_foam(&self) -> Vec<[u8; 4]> {
        let axis = |d: f32| (127.5 + 127.5 * f64::from(d)).round().clamp(0.0, 255.0) as u8;
        self.flow
            .iter()
            .zip(&self.foam)
            .map(|(&[x, y, speed], &foam)| {
                [axis(x), axis(y), unit_byte(f64::from(speed) / FLOW_FOAM_FULL_SPEED_M_S), foam]
            })
            .collect()
    }

    /// These maps on `side` × `side` cells spanning the same square of ground (corners on
    /// corners): heights and water level read bilinearly, the rest from the nearest cell;
    /// the cell grows or shrinks to fit. `None` when the maps are not square.
    pub fn resized(&self, side: usize) -> Option<GridMaps> {
        if self.rows != self.cols {
            return None;
        }
        let side = side.max(2);
        Some(GridMaps {
            rows: side,
            cols: side,
            cell_m: self.cell_m * (self.cols.max(2) - 1) as f64 / (side - 1) as f64,
            heights: resample_bilinear(&self.heights, self.rows, self.cols, side),
            water_level: resample_bilinear(&self.water_level, self.rows, self.cols, side),
            water_mask: resample_nearest(&self.water_mask, self.rows, self.cols, side),
            flow: resample_nearest(&self.flow, self.rows, self.cols, side),
            foam: resample_nearest(&self.foam, self.rows, self.cols, side),
            splat: resample_nearest(&self.splat, self.rows, self.cols, side),
            control: resample_nearest(&self.control, self.rows, self.cols, side),
        })
    }
}

/// The HTerrain side (one of [`HTERRAIN_SIDES`]) closest to the longer side of a
/// `rows` × `cols` map; the larger of two equally close.
pub fn hterrain_side(rows: usize, cols: usize) -> usize {
    let n = rows.max(cols);
    HTERRAIN_SIDES.into_iter().min_by_key(|&s| (s.abs_diff(n), usize::MAX - s)).unwrap_or(HTERRAIN_SIDES[0])
}

/// Foam, 0..=1, where water runs at `speed_m_s` and its surface falls `fall` metres a
/// metre to the steepest wet neighbour, `at_shore` beside dry ground: the larger of the
/// speed over [`FOAM_SPEED_M_S`], the fall over [`FOAM_FALL`] and [`SHORE_FOAM`] at a
/// shore. The one foam rule of the heightmap maps and the planet's water meshes.
pub fn foam(speed_m_s: f64, fall: f64, at_shore: bool) -> f64 {
    let shore = if at_shore { SHORE_FOAM } else { 0.0 };
    (speed_m_s / FOAM_SPEED_M_S).max(fall / FOAM_FALL).max(shore).clamp(0.0, 1.0)
}

/// Foam at cell `i` of `world` where the water runs at `speed_m_s`, 0..=255: fast water,
/// a falling surface and shores; none on dry ground.
fn foam_at(world: &HeightmapWorld, i: usize, speed_m_s: f64) -> u8 {
    let grid = &world.grid;
    let wet = |i: usize| world.cover[i] != Cover::Dry;
    if !wet(i) {
        return 0;
    }
    let mut at_shore = false;
    let mut fall = 0.0f64;
    for j in grid.neighbors(i) {
        if wet(j) {
            fall = fall.max((world.level[i] - world.level[j]) / grid.distance_m(i, j));
        } else {
            at_shore = true;
        }
    }
    unit_byte(foam(speed_m_s, fall, at_shore))
}

/// Terrain3D's 32-bit control word: base texture id (5 bits from bit 27), overlay texture
/// id (5 bits from bit 22) and the overlay's blend 0..=255 (8 bits from bit 14); UV angle,
/// scale, hole, navigation and autoshader bits 0.
pub fn control_word(base: u8, overlay: u8, blend: u8) -> u32 {
    (u32::from(base) & 0x1F) << 27 | (u32::from(overlay) & 0x1F) << 22 | u32::from(blend) << 14
}

/// The control word of one cell's splat weights: the heaviest layer as base, the next as
/// overlay blended by its weight (lower id first among equals).
fn control_of(weights: [u8; 4]) -> u32 {
    let mut order = [0u8, 1, 2, 3];
    order.sort_by_key(|&k| std::cmp::Reverse(weights[k as usize]));
    let (base, overlay) = (order[0], order[1]);
    if weights[overlay as usize] == 0 {
        control_word(base, base, 0)
    } else {
        control_word(base, overlay, weights[overlay as usize])
    }
}

/// The slope of the carved ground at cell `i` (central differences, one-sided at the
/// rim), degrees.
fn slope_deg(world: &HeightmapWorld, i: usize) -> f64 {
    let g = &world.grid;
    let (row, col) = (i / g.width, i % g.width);
    let at = |r: usize, c: usize| world.ground[r * g.width + c];
    let span = |lo: usize, hi: usize| ((hi - lo) as f64 * g.cell_m).max(f64::MIN_POSITIVE);
    let (c0, c1) = (col.saturating_sub(1), (col + 1).min(g.width - 1));
    let (r0, r1) = (row.saturating_sub(1), (row + 1).min(g.height - 1));
    let dx = if c1 > c0 { (at(row, c1) - at(row, c0)) / span(c0, c1) } else { 0.0 };
    let dy = if r1 > r0 { (at(r1, col) - at(r0, col)) / span(r0, r1) } else { 0.0 };
    dx.hypot(dy).atan().to_degrees()
}

/// 0 below `edges.0`, 1 above `edges.1`, smooth between.
fn smoothstep(edges: (f64, f64), x: f64) -> f64 {
    let t = ((x - edges.0) / (edges.1 - edges.0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// `x` in 0..=1 (clamped) as 0..=255.
fn unit_byte(x: f64) -> u8 {
    (x.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// Where output index `k` of `side` falls on an input axis of `n` cells (corners on
/// corners), in input cells.
fn source_coordinate(k: usize, side: usize, n: usize) -> f64 {
    if side <= 1 {
        return 0.0;
    }
    k as f64 * (n - 1) as f64 / (side - 1) as f64
}

/// `values` (`rows` × `cols`, row-major) on `side` × `side` cells, read bilinearly (in 64
/// bits).
pub fn resample_bilinear(values: &[f32], rows: usize, cols: usize, side: usize) -> Vec<f32> {
    (0..side * side)
        .into_par_iter()
        .map(|k| {
            let y = source_coordinate(k / side, side, rows);
            let x = source_coordinate(k % side, side, cols);
            let (r0, c0) = (y.floor() as usize, x.floor() as usize);
            let (r1, c1) = ((r0 + 1).min(rows - 1), (c0 + 1).min(cols - 1));
            let (fy, fx) = (y - r0 as f64, x - c0 as f64);
            let at = |r: usize, c: usize| f64::from(values[r * cols + c]);
            let top = at(r0, c0) + (at(r0, c1) - at(r0, c0)) * fx;
            let bottom = at(r1, c0) + (at(r1, c1) - at(r1, c0)) * fx;
            (top + (bottom - top) * fy) as f32
        })
        .collect()
}

/// `values` (`rows` × `cols`, row-major) on `side` × `side` cells, each from the nearest
/// input cell.
pub fn resample_nearest<T: Copy + Send + Sync>(
    values: &[T],
    rows: usize,
    cols: usize,
    side: usize,
) -> Vec<T> {
    (0..side * side)
        .into_par_iter()
        .map(|k| {
            let r = source_coordinate(k / side, side, rows).round() as usize;
            let c = source_coordinate(k % side, side, cols).round() as usize;
            values[r.min(rows - 1) * cols + c.min(cols - 1)]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hterrain_sides_are_the_nearest_power_of_two_plus_one() {
        assert_eq!(hterrain_side(2113, 2113), 2049);
        assert_eq!(hterrain_side(100, 40), 513);
        assert_eq!(hterrain_side(769, 769), 1025, "equally close to 513 and 1025: the larger");
        assert_eq!(hterrain_side(9000, 10), 4097);
    }

    #[test]
    fn flow_foam_packs_direction_speed_and_foam_in_bytes() {
        let maps = GridMaps {
            rows: 1,
            cols: 3,
            cell_m: 1.0,
            heights: vec![0.0; 3],
            water_level: vec![0.0; 3],
            water_mask: vec![[0; 4]; 3],
            flow: vec![[1.0, 0.0, 2.5], [0.0, -1.0, 9.0], [0.0, 0.0, 0.0]],
            foam: vec![10, 255, 0],
            splat: vec![[0; 4]; 3],
            control: vec![0; 3],
        };
        assert_eq!(maps.flow_foam(), vec![[255, 128, 128, 10], [128, 0, 255, 255], [128, 128, 0, 0]]);
    }

    #[test]
    fn control_words_follow_terrain3d_bit_layout() {
        let word = control_word(3, 17, 200);
        assert_eq!(word >> 27 & 0x1F, 3);
        assert_eq!(word >> 22 & 0x1F, 17);
        assert_eq!(word >> 14 & 0xFF, 200);
        assert_eq!(word & 0x3FFF, 0, "uv, hole, navigation and autoshader bits clear");
        assert_eq!(control_of([0, 0, 55, 200]), control_word(Layer::Rock as u8, Layer::Grass as u8, 55));
        assert_eq!(control_of([255, 0, 0, 0]), control_word(0, 0, 0));
    }

    #[test]
    fn bilinear_resampling_keeps_corners_and_planes() {
        let (rows, cols) = (5, 9);
        let plane: Vec<f32> =
            (0..rows * cols).map(|i| 2.0 * (i / cols) as f32 - 0.5 * (i % cols) as f32).collect();
        let out = resample_bilinear(&plane, rows, cols, 7);
        for (k, value) in out.iter().enumerate() {
            let (y, x) = (source_coordinate(k / 7, 7, rows), source_coordinate(k % 7, 7, cols));
            assert_eq!(*value, (2.0 * y - 0.5 * x) as f32, "cell {k}");
        }
        assert_eq!((out[0], out[48]), (plane[0], plane[rows * cols - 1]));
        let same = resample_nearest(&plane, 5, 9, 2);
        assert_eq!(same, vec![plane[0], plane[8], plane[36], plane[44]]);
    }
}
