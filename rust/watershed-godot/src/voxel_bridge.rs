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
/// metres apart.
fn block(origin: Vector3, size: Vector3i, lod: i64) -> Block {
    Block {
        origin: to_dvec3(origin),
        size: [size.x, size.y, size.z].map(|s| usize::try_from(s).unwrap_or(0)),
        step_m: f64::from(1u32 << lod.clamp(0, 16)),
    }
}

#[godot_api]
impl WatershedVoxel {
    /// The uniform SDF value of a block that lies wholly outside (positive) or inside
    /// (negative) the ground, in metres; NaN when the block is mixed or the handle unknown.
    #[func]
    fn uniform_sdf(handle: i64, origin: Vector3, size: Vector3i, lod: i64) -> f64 {
        let Some(world) = registry::get(handle) else { return f64::NAN };
        let b = block(origin, size, lod);
        let mut scratch = vec![0f32; b.size.iter().product()];
        match world.fill_block(&b, &mut scratch) {
            Ok(BlockFill::Uniform(v)) => f64::from(v),
            _ => f64::NAN,
        }
    }

    /// The SDF of every voxel of the block in godot_voxel's Z-X-Y order, encoded for an SDF
    /// channel of `bits` (16: snorm `sdf * 0.002`; 32: float metres), ready for
    /// `VoxelBuffer.set_channel_from_byte_array`. Empty for an unknown handle or bad block.
    #[func]
    fn fill_sdf(handle: i64, origin: Vector3, size: Vector3i, lod: i64, bits: i64) -> PackedByteArray {
        let Some(world) = registry::get(handle) else { return PackedByteArray::new() };
        let depth = if bits == 16 { SdfDepth::Bits16 } else { SdfDepth::Bits32 };
        let b = block(origin, size, lod);
        let mut out = vec![0f32; b.size.iter().product()];
        match world.fill_block(&b, &mut out) {
            Ok(BlockFill::Mixed) => PackedByteArray::from(encode_sdf(&out, depth)),
            Ok(BlockFill::Uniform(v)) => PackedByteArray::from(encode_sdf(&vec![v; out.len()], depth)),
            Err(_) => PackedByteArray::new(),
        }
    }

    /// One call per block for a generator: the block's SDF channel bytes as `fill_sdf`
    /// gives them, or — when the whole block lies outside or inside the ground — 4 bytes,
    /// that uniform value in metres as a little-endian 32-bit float, to fill the channel
    /// with (`bytes.decode_float(0)`). Empty for an unknown handle or bad block.
    #[func]
    fn generate_sdf(handle: i64, origin: Vector3, size: Vector3i, lod: i64, bits: i64) -> PackedByteArray {
        let Some(world) = registry::get(handle) else { return PackedByteArray::new() };
        let depth = if bits == 16 { SdfDepth::Bits16 } else { SdfDepth::Bits32 };
        let b = block(origin, size, lod);
        let mut out = vec![0f32; b.size.iter().product()];
        match world.fill_block(&b, &mut out) {
            Ok(BlockFill::Mixed) => PackedByteArray::from(encode_sdf(&out, depth)),
            Ok(BlockFill::Uniform(v)) => PackedByteArray::from(&v.to_le_bytes()[..]),
            Err(_) => PackedByteArray::new(),
        }
    }

    /// Signed distance at `position` (metres from the planet's centre) to the carved ground;
    /// NaN for an unknown handle.
    #[func]
    fn sdf_at(handle: i64, position: Vector3) -> f64 {
        registry::get(handle).map_or(f64::NAN, |w| w.sdf(to_dvec3(position)))
    }
}
