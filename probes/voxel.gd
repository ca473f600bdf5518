extends SceneTree
## voxel: a block filled through the bridge's Rust call reads inside under the ground and
## outside above it; a block far above is uniform air. With godot_voxel installed, the same
## through a real VoxelBuffer and the add-on's generator.

const Lib := preload("res://probes/probe_lib.gd")
const SIZE := 17


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var lib := Lib.new()
	var world := await lib.solve_or_finish(self, "voxel", "home")
	if world.is_empty():
		return
	var handle: int = world["solver"].world_handle()
	var planet: PlanetHeight = world["planet"]
	var dir := Vector3(0.3, 0.5, 0.8).normalized()
	var ground := planet.surface_point(dir)
	var origin := ground - Vector3.ONE * (SIZE / 2)
	var bytes := WatershedVoxel.fill_sdf(handle, origin, Vector3i(SIZE, SIZE, SIZE), 0, 32)
	var expected := SIZE * SIZE * SIZE * 4
	lib.check("voxel/bytes", bytes.size() == expected, bytes.size(), expected)
	var below := _sdf_at(bytes, origin, ground - dir * 5.0)
	var above := _sdf_at(bytes, origin, ground + dir * 5.0)
	lib.check("voxel/inside_below", below < 0.0, below, "negative")
	lib.check("voxel/outside_above", above > 0.0, above, "positive")
	var sky := WatershedVoxel.uniform_sdf(handle, dir * 20000.0, Vector3i(SIZE, SIZE, SIZE), 0)
	lib.check("voxel/uniform_air", sky > 0.0, sky, "positive")
	if ClassDB.class_exists("VoxelBuffer"):
		_through_godot_voxel(lib, handle, origin, ground, dir)
	else:
		lib.skip("voxel/godot_voxel", "godot_voxel is not installed")
	lib.finish(self)


## The SDF stored for the voxel nearest to `point` (Z-X-Y order, 32-bit floats).
func _sdf_at(bytes: PackedByteArray, origin: Vector3, point: Vector3) -> float:
	var v := Vector3i((point - origin).round())
	v = v.clamp(Vector3i.ZERO, Vector3i.ONE * (SIZE - 1))
	return bytes.decode_float(4 * (v.y + SIZE * (v.x + SIZE * v.z)))


func _through_godot_voxel(
	lib: RefCounted, handle: int, origin: Vector3, ground: Vector3, dir: Vector3
) -> void:
	var generator = load("res://addons/watershed/voxel/watershed_voxel_generator.gd").new()
	generator.world_handle = handle
	var buffer = ClassDB.instantiate("VoxelBuffer")
	buffer.create(SIZE, SIZE, SIZE)
	generator.generate_block(buffer, Vector3i(origin), 0)
	var channel := ClassDB.class_get_integer_constant("VoxelBuffer", "CHANNEL_SDF")
	var below := Vector3i((ground - dir * 5.0 - origin).round())
	var above := Vector3i((ground + dir * 5.0 - origin).round())
	var sdf_below: float = buffer.get_voxel_f(below.x, below.y, below.z, channel)
	var sdf_above: float = buffer.get_voxel_f(above.x, above.y, above.z, channel)
	lib.check("voxel/generator_inside", sdf_below < 0.0, sdf_below, "negative")
	lib.check("voxel/generator_outside", sdf_above > 0.0, sdf_above, "positive")
