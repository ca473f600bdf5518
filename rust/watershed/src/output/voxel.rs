//! The carved ground as a signed distance field: point queries, voxel block fills in
//! godot_voxel's layout, and per-reach channel volumes for engines that carve with modifiers.
//!
//! Positions are metres from the planet's centre. Negative is inside the ground.

use crate::carve::terrain::Terrain;
use crate::carve::{Reach, ReachId};
use crate::ground::height::PlanetHeight;
use crate::math::sphere;
use glam::DVec3;

/// A box of voxels: `size` voxels along x, y and z, `step_m` apart, the first at `origin`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Block {
    /// Position of voxel (0, 0, 0), metres from the planet's centre.
    pub origin: DVec3,
    /// Voxels along x, y and z.
    pub size: [usize; 3],
    /// Distance between neighbouring voxels, metres (godot_voxel: `1 << lod`).
    pub step_m: f64,
}

/// Most voxels along one side of a block a caller may ask for.
pub const MAX_BLOCK_SIDE: usize = 256;
/// Deepest level of detail a block may ask for (voxels `2^lod` metres apart).
pub const MAX_BLOCK_LOD: u32 = 20;

impl Block {
    /// A block from a caller's numbers: `size` voxels along x, y and z (each 1 to
    /// [`MAX_BLOCK_SIDE`]), `2^lod` metres apart (`lod` 0 to [`MAX_BLOCK_LOD`]), the first at
    /// `origin` (finite, metres from the planet's centre). Checked before anything is
    /// allocated for it.
    ///
    /// # Errors
    /// [`VoxelError::OutOfBounds`] naming the limit and the value.
    pub fn checked(origin: DVec3, size: [i64; 3], lod: i64) -> Result<Block, VoxelError> {
        let side = |s: i64| usize::try_from(s).ok().filter(|&s| (1..=MAX_BLOCK_SIDE).contains(&s));
        let (Some(x), Some(y), Some(z)) = (side(size[0]), side(size[1]), side(size[2])) else {
            return Err(VoxelError::OutOfBounds(format!(
                "block size must be 1 to {MAX_BLOCK_SIDE} voxels along each axis, got {size:?}"
            )));
        };
        let Some(lod) = u32::try_from(lod).ok().filter(|&l| l <= MAX_BLOCK_LOD) else {
            return Err(VoxelError::OutOfBounds(format!("lod must be 0 to {MAX_BLOCK_LOD}, got {lod}")));
        };
        if !origin.is_finite() {
            return Err(VoxelError::OutOfBounds(format!("block origin must be finite, got {origin}")));
        }
        Ok(Block { origin, size: [x, y, z], step_m: f64::from(1u32 << lod) })
    }

    /// Voxels in the block.
    pub fn voxels(&self) -> usize {
        self.size.iter().product()
    }
}

/// What a block fill found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BlockFill {
    /// The whole block is this far outside (positive) or inside (negative) the ground, at
    /// least: the caller may fill it with one value. The buffer is left untouched.
    Uniform(f32),
    /// The buffer holds one SDF value per voxel.
    Mixed,
}

/// Why a voxel request could not be served.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum VoxelError {
    /// The buffer's length is not the block's voxel count.
    #[error("buffer holds {got} values, the block has {expected} voxels")]
    BufferSize {
        /// Voxels in the block.
        expected: usize,
        /// Values in the buffer.
        got: usize,
    },
    /// The block has a zero or non-finite dimension or step.
    #[error("block size {size:?} with step {step_m} m is empty or not finite")]
    BadBlock {
        /// The requested size.
        size: [usize; 3],
        /// The requested step, metres.
        step_m: f64,
    },
    /// A caller asked for a block outside the limits; the message names the limit and the
    /// value.
    #[error("{0}")]
    OutOfBounds(String),
    /// No such reach.
    #[error("no reach {0}")]
    NoReach(u32),
    /// Every bake read outside the channel at the channel's own centre.
    #[error("reach {reach}: bake reads outside the channel at its centre after {tries} grid sizes")]
    Hollow {
        /// The reach.
        reach: u32,
        /// Grid sizes tried.
        tries: usize,
    },
}

/// An orthonormal pair spanning the tangent plane at unit direction `n`.
fn tangents(n: DVec3) -> (DVec3, DVec3) {
    let e1 = sphere::unit(if n.y.abs() < 0.9 { DVec3::Y } else { DVec3::X }.cross(n));
    (e1, n.cross(e1))
}

impl Terrain {
    /// Signed distance (metres, negative inside) from `p` to the carved ground, divided by
    /// the slope's secant so it behaves like a true distance on slopes.
    pub fn sdf(&self, p: DVec3) -> f64 {
        let r = p.length();
        let dir = sphere::unit(p);
        let radius = self.settings.radius_m;
        let mut near = self.lattice.nearest_node(dir).index();
        let g = self.ground_from(dir, &mut near);
        let (t1, t2) = tangents(dir);
        let eps = 0.5 / radius;
        let gx = (self.ground_from(dir + t1 * eps, &mut near) - g) / 0.5;
        let gy = (self.ground_from(dir + t2 * eps, &mut near) - g) / 0.5;
        (r - radius - g) / (1.0 + gx * gx + gy * gy).sqrt()
    }

    /// Fills `out` with the SDF of every voxel of `block`, index `y + sy * (x + sx * z)`
    /// (godot_voxel's Z-X-Y layout), or reports that the whole block is far outside or inside.
    ///
    /// # Errors
    /// [`VoxelError::BufferSize`] when `out` does not match the block, [`VoxelError::BadBlock`]
    /// for an empty or non-finite block.
    ///
    /// # Complexity
    /// The ground is sampled on a 2-D grid over the block's footprint (two voxels apart) and
    /// interpolated per voxel; single-threaded, as voxel engines call it from their workers.
    pub fn fill_block(&self, block: &Block, out: &mut [f32]) -> Result<BlockFill, VoxelError> {
        let bound = self.settings.relief_m + self.settings.channel_depth_m;
        // The footprint is sampled row by row: each sample's node is searched from the last
        // one's.
        let near = std::cell::Cell::new(None);
        let ground = |dir: DVec3| {
            let mut node = near.get().unwrap_or_else(|| self.lattice.nearest_node(dir).index());
            let g = self.ground_from(dir, &mut node);
            near.set(Some(node));
            g
        };
        fill_block_with(&ground, self.settings.radius_m, bound, block, out)
    }

    /// Bakes reach `id`'s channel (the ground the carve removes) into a small SDF volume,
    /// negative inside the channel. The bake is read back at the channel's own centre; one
    /// that reads outside there is retried on a finer grid, twice, then reported.
    ///
    /// # Errors
    /// [`VoxelError::NoReach`] for an unknown id, [`VoxelError::Hollow`] when every grid
    /// size reads outside at the centre.
    pub fn bake_reach(&self, id: ReachId) -> Result<ReachVolume, VoxelError> {
        let reach = self.carve.reaches.get(id.0 as usize).ok_or(VoxelError::NoReach(id.0))?;
        const TRIES: usize = 3;
        for level in 0..TRIES {
            let volume = ReachVolume::bake(self, reach, level);
            if volume.reads_inside_at_centre(self, reach) {
                return Ok(volume);
            }
        }
        Err(VoxelError::Hollow { reach: id.0, tries: TRIES })
    }
}

/// [`Terrain::fill_block`] over `planet`'s natural (uncarved) ground, for a terrain that is
/// meshed before the rivers are solved.
///
/// # Errors
/// As [`Terrain::fill_block`].
pub fn fill_natural_block(
    planet: &PlanetHeight,
    block: &Block,
    out: &mut [f32],
) -> Result<BlockFill, VoxelError> {
    fill_block_with(&|dir| planet.height(dir), planet.radius_m(), planet.relief_m(), block, out)
}

/// Fills `out` for `block` from a ground function (metres above the datum for any
/// direction) on a planet of `radius_m` whose ground stays within `±bound_m`.
fn fill_block_with(
    ground: &dyn Fn(DVec3) -> f64,
    radius_m: f64,
    bound_m: f64,
    block: &Block,
    out: &mut [f32],
) -> Result<BlockFill, VoxelError> {
    let [sx, sy, sz] = block.size;
    let step = block.step_m;
    if sx == 0 || sy == 0 || sz == 0 || !(step.is_finite() && step > 0.0) || !block.origin.is_finite() {
        return Err(VoxelError::BadBlock { size: block.size, step_m: step });
    }
    let expected = sx * sy * sz;
    if out.len() != expected {
        return Err(VoxelError::BufferSize { expected, got: out.len() });
    }
    let radius = radius_m;
    let far = block.origin + DVec3::new((sx - 1) as f64, (sy - 1) as f64, (sz - 1) as f64) * step;
    let (lo, hi) = (block.origin.min(far), block.origin.max(far));
    let r_min = DVec3::ZERO.clamp(lo, hi).length();
    let r_max = [lo.x, hi.x]
        .iter()
        .flat_map(|&x| [lo.y, hi.y].map(|y| (x, y)))
        .flat_map(|(x, y)| [lo.z, hi.z].map(|z| DVec3::new(x, y, z).length()))
        .fold(0.0, f64::max);
    let margin = 2.0 * step;
    if r_min > radius + bound_m + margin {
        return Ok(BlockFill::Uniform((r_min - radius - bound_m) as f32));
    }
    if r_max < radius - bound_m - margin {
        return Ok(BlockFill::Uniform((r_max - radius + bound_m) as f32));
    }
    let grid = FootprintGrid::new(ground, radius, lo, hi, 2.0 * step);
    if r_min > radius + grid.max + margin {
        return Ok(BlockFill::Uniform((r_min - radius - grid.max) as f32));
    }
    if r_max < radius + grid.min - margin {
        return Ok(BlockFill::Uniform((r_max - radius - grid.min) as f32));
    }
    let mut places = ColumnPlaces::new(sy);
    for z in 0..sz {
        for x in 0..sx {
            let base = sy * (x + sx * z);
            let column = block.origin + DVec3::new(x as f64, 0.0, z as f64) * step;
            grid.fill_column(column, step, radius, &mut places, &mut out[base..base + sy]);
        }
    }
    Ok(BlockFill::Mixed)
}

/// Bit depth of a voxel engine's SDF channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SdfDepth {
    /// 16-bit signed normalised, `sdf * 0.002` (godot_voxel's `QUANTIZED_SDF_16_BITS_SCALE`).
    Bits16,
    /// 32-bit float, metres.
    Bits32,
}

/// Scale godot_voxel applies before storing an SDF value in 16 bits.
pub const SDF_16_BIT_SCALE: f32 = 0.002;

/// SDF values encoded for a voxel channel of `depth`, little-endian, in the same order.
pub fn encode_sdf(values: &[f32], depth: SdfDepth) -> Vec<u8> {
    match depth {
        SdfDepth::Bits32 => values.iter().flat_map(|v| v.to_le_bytes()).collect(),
        SdfDepth::Bits16 => values
            .iter()
            .flat_map(|v| (((v * SDF_16_BIT_SCALE).clamp(-1.0, 1.0) * 32767.0) as i16).to_le_bytes())
            .collect(),
    }
}

/// The carved ground sampled on a gnomonic grid over a block's footprint.
struct FootprintGrid {
    normal: DVec3,
    e1: DVec3,
    e2: DVec3,
    u0: f64,
    w0: f64,
    du: f64,
    nu: usize,
    nw: usize,
    /// The `(nu − 1)·(nw − 1)` cells between the samples, row by row.
    cells: Vec<Cell>,
    min: f64,
    max: f64,
}

/// What a voxel over one cell of the footprint grid reads: the value at the cell's first
/// corner, the rise to the next column, then the same one row on; each a pair of the ground
/// (metres) and its flatness (the cosine of its slope, `1/√(1 + |∇g|²)`), which a voxel
/// interpolates together.
#[derive(Debug, Clone, Copy)]
struct Cell([[f64; 2]; 4]);

impl FootprintGrid {
    fn new(ground_at: &dyn Fn(DVec3) -> f64, radius: f64, lo: DVec3, hi: DVec3, spacing_m: f64) -> Self {
        let normal = sphere::unit((lo + hi) * 0.5);
        let (e1, e2) = tangents(normal);
        let corners = [lo.x, hi.x]
            .into_iter()
            .flat_map(|x| [lo.y, hi.y].map(|y| (x, y)))
            .flat_map(|(x, y)| [lo.z, hi.z].map(|z| DVec3::new(x, y, z)));
        let (mut u0, mut u1, mut w0, mut w1) =
            (f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
        for c in corners {
            let vn = c.dot(normal).max(1e-9);
            let (u, w) = (c.dot(e1) / vn, c.dot(e2) / vn);
            (u0, u1, w0, w1) = (u0.min(u), u1.max(u), w0.min(w), w1.max(w));
        }
        let du = spacing_m / radius;
        let nu = ((u1 - u0) / du).ceil() as usize + 2;
        let nw = ((w1 - w0) / du).ceil() as usize + 2;
        let ground: Vec<f64> = (0..nu * nw)
            .map(|k| {
                let (i, j) = (k % nu, k / nu);
                ground_at(normal + e1 * (u0 + i as f64 * du) + e2 * (w0 + j as f64 * du))
            })
            .collect();
        let at = |i: usize, j: usize| ground[j.min(nw - 1) * nu + i.min(nu - 1)];
        let flatness: Vec<f64> = (0..nu * nw)
            .map(|k| {
                let (i, j) = (k % nu, k / nu);
                let (i0, i1, j0, j1) =
                    (i.saturating_sub(1), (i + 1).min(nu - 1), j.saturating_sub(1), (j + 1).min(nw - 1));
                let gx = (at(i1, j) - at(i0, j)) / ((i1 - i0).max(1) as f64 * spacing_m);
                let gy = (at(i, j1) - at(i, j0)) / ((j1 - j0).max(1) as f64 * spacing_m);
                1.0 / (1.0 + gx * gx + gy * gy).sqrt()
            })
            .collect();
        let cells = (0..(nu - 1) * (nw - 1))
            .map(|c| {
                let k = c / (nu - 1) * nu + c % (nu - 1);
                let pair = |k: usize| [ground[k], flatness[k]];
                let rise = |k: usize| [ground[k + 1] - ground[k], flatness[k + 1] - flatness[k]];
                Cell([pair(k), rise(k), pair(k + nu), rise(k + nu)])
            })
            .collect();
        let min = ground.iter().copied().fold(f64::INFINITY, f64::min);
        let max = ground.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        FootprintGrid { normal, e1, e2, u0, w0, du, nu, nw, cells, min, max }
    }

    /// The SDF of a column of voxels `step_m` apart up the Y axis from `bottom` (metres from
    /// the planet's centre) into `out`: height over the ground (bilinear in the grid) times
    /// the ground's flatness there, so it behaves like a true distance on slopes.
    fn fill_column(
        &self,
        bottom: DVec3,
        step_m: f64,
        radius: f64,
        places: &mut ColumnPlaces,
        out: &mut [f32],
    ) {
        // Along the column every dot product and the squared length change linearly or
        // quadratically with y: no vector work per voxel, one division.
        let (n0, u_0, w_0) = (bottom.dot(self.normal), bottom.dot(self.e1), bottom.dot(self.e2));
        let (dn, du, dw) = (self.normal.y * step_m, self.e1.y * step_m, self.e2.y * step_m);
        let scale = 1.0 / self.du;
        let (top_u, top_w) = ((self.nu - 1) as f64, (self.nw - 1) as f64);
        let (last_u, last_w) = ((self.nu - 2) as f64, (self.nw - 2) as f64);
        let row = (self.nu - 1) as f64;
        let (squared, twice_y) = (bottom.length_squared(), 2.0 * bottom.y);
        // Which cell each voxel falls in, where in that cell, and how far the voxel stands
        // from the centre: the same arithmetic on floats for every voxel, so the processor
        // runs several at once.
        let ColumnPlaces { a, b, cell, length } = places;
        let n = a.len();
        let (b, cell, length) = (&mut b[..n], &mut cell[..n], &mut length[..n]);
        for k in 0..n {
            // Far below 2³² voxels in a column: through u32, the conversion runs in lanes too.
            let y = f64::from(k as u32);
            let h = y * step_m;
            let inverse = 1.0 / (n0 + dn * y).max(1e-9);
            let fu = (((u_0 + du * y) * inverse - self.u0) * scale).clamp(0.0, top_u);
            let fw = (((w_0 + dw * y) * inverse - self.w0) * scale).clamp(0.0, top_w);
            // The last row and column of samples start no cell: a voxel on them reads the
            // cell before, at its far edge.
            let (i, j) = (whole_part(lesser(fu, last_u)), whole_part(lesser(fw, last_w)));
            (a[k], b[k]) = (fu - i, fw - j);
            cell[k] = j * row + i + TWO_POW_52;
            length[k] = (squared + h * (twice_y + h)).sqrt();
        }
        for (k, out) in out.iter_mut().enumerate() {
            let (a, b) = (a[k], b[k]);
            // A whole number below 2³² plus 2⁵² holds that number in its low 32 bits.
            let Cell([c0, c1, c2, c3]) = self.cells[cell[k].to_bits() as u32 as usize];
            let top = [c0[0] + c1[0] * a, c0[1] + c1[1] * a];
            let bottom = [c2[0] + c3[0] * a, c2[1] + c3[1] * a];
            let (ground, flatness) = (top[0] + (bottom[0] - top[0]) * b, top[1] + (bottom[1] - top[1]) * b);
            *out = ((length[k] - radius - ground) * flatness) as f32;
        }
    }
}

/// Where the voxels of one column fall on the footprint grid, reused from column to column:
/// the place in the cell along u and w, the cell's index plus [`TWO_POW_52`], and the
/// distance from the planet's centre, metres.
struct ColumnPlaces {
    a: Vec<f64>,
    b: Vec<f64>,
    cell: Vec<f64>,
    length: Vec<f64>,
}

impl ColumnPlaces {
    /// Room for a column of `voxels`.
    fn new(voxels: usize) -> Self {
        let room = || vec![0.0; voxels];
        ColumnPlaces { a: room(), b: room(), cell: room(), length: room() }
    }
}

/// 2⁵², the float from which on every whole number is exact and no fraction is.
const TWO_POW_52: f64 = 4_503_599_627_370_496.0;

/// The whole part of `x` (0 to 2⁵¹), in float arithmetic only, so a loop of them runs in
/// vector lanes. The lattice's `floor` does the like for any `x`, with an integer cast.
fn whole_part(x: f64) -> f64 {
    let nearest = (x + TWO_POW_52) - TWO_POW_52;
    nearest - if nearest > x { 1.0 } else { 0.0 }
}

/// The lesser of `x` and `y` (`y` when `x` is NaN): one instruction on x86, where `f64::min`
/// takes several to treat NaN.
fn lesser(x: f64, y: f64) -> f64 {
    if x < y {
        x
    } else {
        y
    }
}

/// A reach's channel baked on a small grid aligned with the reach: x along the stream,
/// y up (sheared along the bed line), z across; values in godot_voxel's Z-X-Y order.
#[derive(Debug, Clone, PartialEq)]
pub struct ReachVolume {
    /// Position of sample (0, 0, 0), metres from the planet's centre.
    pub origin: DVec3,
    /// Unit axes: along the stream, up, across.
    pub axes: [DVec3; 3],
    /// Shear: sample (x, y, z) lies `rise * x * cell_m[0]` metres higher along `axes[1]`
    /// than an unsheared grid would put it (the bed line's slope, metres per metre).
    pub rise: f64,
    /// Sample spacing along each axis, metres.
    pub cell_m: [f64; 3],
    /// Samples along each axis.
    pub dims: [usize; 3],
    /// SDF of the channel (negative inside the removed ground), index `y + dy * (x + dx * z)`.
    pub sdf: Vec<f32>,
}

impl ReachVolume {
    /// Bytes of SDF data.
    pub fn bytes(&self) -> usize {
        self.sdf.len() * std::mem::size_of::<f32>()
    }

    /// Trilinear SDF at `p` (metres from the planet's centre); +∞ outside the volume.
    pub fn sample(&self, p: DVec3) -> f64 {
        let local = p - self.origin;
        let along = local.dot(self.axes[0]);
        let coords = [along, local.dot(self.axes[1]) - self.rise * along, local.dot(self.axes[2])];
        let mut f = [0.0; 3];
        for a in 0..3 {
            f[a] = coords[a] / self.cell_m[a];
            if !(0.0..=(self.dims[a] - 1) as f64).contains(&f[a]) {
                return f64::INFINITY;
            }
        }
        let [dx, dy, _] = self.dims;
        let idx = |x: usize, y: usize, z: usize| y + dy * (x + dx * z);
        let i = f.map(|v| v.floor() as usize);
        let i = [i[0].min(self.dims[0] - 2), i[1].min(self.dims[1] - 2), i[2].min(self.dims[2] - 2)];
        let t = [f[0] - i[0] as f64, f[1] - i[1] as f64, f[2] - i[2] as f64];
        let mut value = 0.0;
        for corner in 0..8 {
            let (ox, oy, oz) = (corner & 1, (corner >> 1) & 1, (corner >> 2) & 1);
            let w = (if ox == 1 { t[0] } else { 1.0 - t[0] })
                * (if oy == 1 { t[1] } else { 1.0 - t[1] })
                * (if oz == 1 { t[2] } else { 1.0 - t[2] });
            value += w * f64::from(self.sdf[idx(i[0] + ox, i[1] + oy, i[2] + oz)]);
        }
        value
    }

    /// Bakes on grid `level` (0 the coarsest; each level a third more samples per axis).
    /// The grid is sheared to follow the bed's straight line from start to end, so a steep
    /// reach needs no taller a grid than a flat one.
    fn bake(world: &Terrain, reach: &Reach, level: usize) -> Self {
        let radius = world.settings.radius_m;
        let mid_dir = reach.middle();
        let up = mid_dir;
        let along = reach.along_at(up);
        let across = up.cross(along);
        let rise = (reach.bed_end_m() - reach.bed_start_m()) / reach.length_m.max(1e-9);
        let bed_mid = (reach.bed_start_m() + reach.bed_end_m()) / 2.0;
        // Height range around the bed line: down to the lowest bed point, up to the highest
        // natural ground (a bed cut through a sill lies far below its banks).
        let line = |t: f64| reach.bed_start_m() + (reach.bed_end_m() - reach.bed_start_m()) * t;
        let below = reach
            .beds
            .iter()
            .enumerate()
            .fold(0.0f64, |m, (k, &b)| m.min(b - line(k as f64 / reach.pieces() as f64)));
        let above = (0..=16).fold(reach.depth_m, |m, k| {
            let t = f64::from(k) / 16.0;
            m.max(world.planet.height(reach.chord_point(t)) - line(t))
        });
        let (below, above) = (below - 1.0, above + 1.0);
        let scale = (4.0f64 / 3.0).powi(level as i32);
        let half_along = reach.length_m / 2.0 + reach.half_width_m;
        let cell = [
            (2.0 * half_along / 12.0) / scale,
            ((above - below) / 6.0).max(0.25) / scale,
            (reach.half_width_m / 2.0) / scale,
        ];
        let half = [half_along + cell[0], 0.0, reach.half_width_m + cell[2]];
        let dims = [
            (2.0 * half[0] / cell[0]).ceil() as usize + 1,
            ((above - below) / cell[1]).ceil() as usize + 1,
            (2.0 * half[2] / cell[2]).ceil() as usize + 1,
        ];
        let origin =
            mid_dir * (radius + bed_mid + below) - along * half[0] - across * half[2] - up * (rise * half[0]);
        let axes = [along, up, across];
        let [dx, dy, dz] = dims;
        let mut sdf = vec![0f32; dx * dy * dz];
        for z in 0..dz {
            for x in 0..dx {
                let column = origin
                    + along * (x as f64 * cell[0])
                    + up * (rise * x as f64 * cell[0])
                    + across * (z as f64 * cell[2]);
                let (g, h) = world.ground_and_natural(column);
                for y in 0..dy {
                    let height = (column + up * (y as f64 * cell[1])).length() - radius;
                    sdf[y + dy * (x + dx * z)] = (g - height).max(height - h) as f32;
                }
            }
        }
        ReachVolume { origin, axes, rise, cell_m: cell, dims, sdf }
    }

    /// Whether the bake reads inside the channel halfway between bed and bank top at the
    /// reach's middle.
    fn reads_inside_at_centre(&self, world: &Terrain, reach: &Reach) -> bool {
        let mid_dir = reach.middle();
        let (_, natural) = world.ground_and_natural(mid_dir);
        let bed = reach.bed_at(reach.length_m / 2.0);
        let p = mid_dir * (world.settings.radius_m + (bed + natural) / 2.0);
        self.sample(p) < 0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sdf_encodings_match_godot_voxel() {
        let values = [0.0f32, 1.0, -2.5, 1000.0, -1000.0];
        let bytes = encode_sdf(&values, SdfDepth::Bits32);
        assert_eq!(bytes.len(), 20);
        assert_eq!(f32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]), -2.5);
        let bytes = encode_sdf(&values, SdfDepth::Bits16);
        let s16: Vec<i16> = bytes.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
        // 1 m is 0.002 of full scale; 1000 m and beyond saturate.
        assert_eq!(s16, [0, 65, -163, 32767, -32767]);
    }

    #[test]
    fn whole_parts_and_cell_indices_in_float_arithmetic() {
        let mut rng = crate::math::rng::SplitMix64::new(3, 0);
        let whole = (0..4096u32).map(f64::from).chain([2f64.powi(31), 2f64.powi(51)]);
        let near = whole.flat_map(|w| [w, w.next_down(), w.next_up(), w + 0.5]).filter(|&x| x >= 0.0);
        for x in near.chain((0..100_000).map(|_| rng.range(0.0, 3000.0))) {
            assert_eq!(whole_part(x).to_bits(), x.trunc().to_bits(), "{x}");
        }
        for k in (0..70_000u32).chain([u32::MAX - 1, u32::MAX]) {
            assert_eq!((f64::from(k) + TWO_POW_52).to_bits() as u32, k);
        }
        assert_eq!((lesser(1.0, 2.0), lesser(2.0, 1.0), lesser(f64::NAN, 3.0)), (1.0, 1.0, 3.0));
    }
}
