@tool
extends VoxelGeneratorScript
## Fills godot_voxel blocks from a solved Watershed world in one Rust call per block.
##
## godot_voxel calls this from its worker threads. The only Rust it reaches is
## WatershedVoxel's static functions, which read a thread-safe registry by handle and touch
## no engine object (the extension is built with gdext's experimental-threads feature).
## Needs godot_voxel: a project without it never loads this script.

## DrainageSolver.world_handle() of the solved planet; 0 leaves blocks empty (air).
@export var world_handle: int = 0


func _get_used_channels_mask() -> int:
	return 1 << VoxelBuffer.CHANNEL_SDF


func _generate_block(out_buffer: VoxelBuffer, origin_in_voxels: Vector3i, lod: int) -> void:
	var size: Vector3i = out_buffer.get_size()
	var origin := Vector3(origin_in_voxels)
	var uniform: float = WatershedVoxel.uniform_sdf(world_handle, origin, size, lod)
	if not is_nan(uniform):
		out_buffer.fill_f(uniform, VoxelBuffer.CHANNEL_SDF)
		return
	var depth: int = out_buffer.get_channel_depth(VoxelBuffer.CHANNEL_SDF)
	var bits := 16 if depth == VoxelBuffer.DEPTH_16_BIT else 32
	var bytes: PackedByteArray = WatershedVoxel.fill_sdf(world_handle, origin, size, lod, bits)
	if bytes.is_empty():
		out_buffer.fill_f(1.0, VoxelBuffer.CHANNEL_SDF)
		return
	out_buffer.set_channel_from_byte_array(VoxelBuffer.CHANNEL_SDF, bytes)
