//! `WatershedVoxel`: the SDF of a solved world for godot_voxel, callable from any thread.
//!
//! godot_voxel calls generators from worker threads. These functions are static, take a
//! world handle (`DrainageSolver.world_handle()`) and plain values, read only the thread-safe
//! registry and return packed arrays; they touch no engine object. The extension is built
//! with gdext's `experimental-threads` feature, without which gdext refuses calls from
//! threads other than the main one.

use crate::convert::to_dvec3;
use crate::registry;
use godot::prelude::*;
use watershed::{encode_sdf, Block, BlockFill, SdfDepth};

/// Thread-safe SDF access for voxel generators (static functions only).
#[derive(GodotClass)]
#[class(init, base = RefCounted)]
pub struct WatershedVoxel {
    base: Base<RefCounted>,
}

/// The block at `origin` (voxel 0, metres from the planet's centre), `size` voxels, `2^lod`
/// metres apart; `None` after one error naming `func` and the limit when it is out of bounds.
fn block(origin: Vector3, size: Vector3i, lod: i64, func: &str) -> Option<Block> {
    let size = [size.x, size.y, size.z].map(i64::from);
    Block::checked(to_dvec3(origin), size, lod).map_err(|e| godot_error!("WatershedVoxel.{func}: {e}")).ok()
}

/// The solved world behind `handle`; `None` after one error naming `func` when there is none.
fn world(handle: i64, func: &str) -> Option<std::sync::Arc<watershed::World>> {
    let world = registry::get(handle);
    if world.is_none() {
        godot_error!("WatershedVoxel.{func}: no solved world has handle {handle}");
    }
    world
}

/// The block's SDF values and what the fill found, with the channel format for `bits`;
/// `None` after one error naming `func` for an unknown handle or a bad block.
fn fill(
    handle: i64,
    origin: Vector3,
    size: Vector3i,
    lod: i64,
    bits: i64,
    func: &str,
) -> Option<(Vec<f32>, BlockFill, SdfDepth)> {
    let world = world(handle, func)?;
    let depth = sdf_depth(bits, func)?;
    let b = block(origin, size, lod, func)?;
    let mut values = vec![0f32; b.voxels()];
    match world.terrain.fill_block(&b, &mut values) {
        Ok(fill) => Some((values, fill, depth)),
        Err(e) => {
            godot_error!("WatershedVoxel.{func}: {e}");
            None
        }
    }
}

/// The SDF channel format for `bits` (16 or 32); `None` after one error naming `func`.
fn sdf_depth(bits: i64, func: &str) -> Option<SdfDepth> {
    match bits {
        16 => Some(SdfDepth::Bits16),
        32 => Some(SdfDepth::Bits32),
        _ => {
            godot_error!("WatershedVoxel.{func}: bits must be 16 or 32, got {bits}");
            None
        }
    }
}

#[godot_api]
impl WatershedVoxel {
    /// The uniform SDF value of a block that lies wholly outside (positive) or inside
    /// (negative) the ground, in metres; NaN when the block is mixed or the handle unknown.
    #[func]
    fn uniform_sdf(handle: i64, origin: Vector3, size: Vector3i, lod: i64) -> f64 {
        let Some(world) = world(handle, "uniform_sdf") else { return f64::NAN };
        let Some(b) = block(origin, size, lod, "uniform_sdf") else { return f64::NAN };
        let mut scratch = vec![0f32; b.voxels()];
        match world.terrain.fill_block(&b, &mut scratch) {
            Ok(BlockFill::Uniform(v)) => f64::from(v),
            _ => f64::NAN,
        }
    }

    /// The SDF of every voxel of the block in godot_voxel's Z-X-Y order, encoded for an SDF
    /// channel of `bits` (16: snorm `sdf * 0.002`; 32: float metres), ready for
    /// `VoxelBuffer.set_channel_from_byte_array`. Empty for an unknown handle or bad block.
    #[func]
    fn fill_sdf(handle: i64, origin: Vector3, size: Vector3i, lod: i64, bits: i64) -> PackedByteArray {
        let filled = fill(handle, origin, size, lod, bits, "fill_sdf");
        PackedByteArray::from(filled.map_or_else(Vec::new, |(values, fill, depth)| match fill {
            BlockFill::Mixed => encode_sdf(&values, depth),
            BlockFill::Uniform(v) => encode_sdf(&vec![v; values.len()], depth),
        }))
    }

    /// One call per block for a generator: the block's SDF channel bytes as `fill_sdf`
    /// gives them, or — when the whole block lies outside or inside the ground — 4 bytes,
    /// that uniform value in metres as a little-endian 32-bit float, to fill the channel
    /// with (`bytes.decode_float(0)`). Empty for an unknown handle or bad block.
    #[func]
    fn generate_sdf(handle: i64, origin: Vector3, size: Vector3i, lod: i64, bits: i64) -> PackedByteArray {
        let filled = fill(handle, origin, size, lod, bits, "generate_sdf");
        PackedByteArray::from(filled.map_or_else(Vec::new, |(values, fill, depth)| match fill {
            BlockFill::Mixed => encode_sdf(&values, depth),
            BlockFill::Uniform(v) => v.to_le_bytes().to_vec(),
        }))
    }

    /// Signed distance at `position` (metres from the planet's centre) to the carved ground;
    /// NaN for an unknown handle.
    #[func]
    fn sdf_at(handle: i64, position: Vector3) -> f64 {
        let Some(world) = world(handle, "sdf_at") else { return f64::NAN };
        let p = to_dvec3(position);
        if !p.is_finite() {
            godot_error!("WatershedVoxel.sdf_at: a position must be finite, got {position}");
            return f64::NAN;
        }
        world.terrain.sdf(p)
    }
}
