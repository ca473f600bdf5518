@tool
extends VoxelGeneratorScript
## Fills godot_voxel blocks from a solved Watershed world in one Rust call per block: a
## uniform block (wholly air or ground) comes back as its one value, any other as the
## channel's bytes.
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
	if world_handle == 0:
		out_buffer.fill_f(1.0, VoxelBuffer.CHANNEL_SDF)
		return
	var size: Vector3i = out_buffer.get_size()
	var depth: int = out_buffer.get_channel_depth(VoxelBuffer.CHANNEL_SDF)
	var bits := 16 if depth == VoxelBuffer.DEPTH_16_BIT else 32
	var origin := Vector3(origin_in_voxels)
	var bytes := WatershedVoxel.generate_sdf(world_handle, origin, size, lod, bits)
	if bytes.size() == 4:
		out_buffer.fill_f(bytes.decode_float(0), VoxelBuffer.CHANNEL_SDF)
	elif bytes.is_empty():
		out_buffer.fill_f(1.0, VoxelBuffer.CHANNEL_SDF)
	else:
		out_buffer.set_channel_from_byte_array(VoxelBuffer.CHANNEL_SDF, bytes)
