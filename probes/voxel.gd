extends SceneTree
## voxel: a block filled through the bridge's Rust call reads inside under the ground and
## outside above it; a block far above is uniform air. With godot_voxel installed, the same
## through a real VoxelBuffer and the add-on's generator; a VoxelLodTerrain fed by that
## generator meshes around a viewer and a ray from above hits the carved ground; and the
## generator's median time per 35³ block is printed beside godot_voxel's own
## VoxelGeneratorGraph (a sphere minus six-octave ridged noise) on the same blocks. The
## add-on's example voxel planet, once solved, colours its terrain by the biome rules:
## planet_ground.gdshader with PlanetLife's ground map.

const Lib := preload("res://probes/probe_lib.gd")
const SIZE := 17
const BLOCK := 35
const TIMED_BLOCKS := 24
const MESH_TIMEOUT_MS := 60000
## The ray may end this far from the carved ground, metres.
const RAY_TOLERANCE_M := 1.0
const EXAMPLE := "res://addons/watershed/voxel/example_voxel_planet.tscn"


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
		await _lod_terrain(lib, handle, planet, dir)
		_block_timing(lib, handle, planet)
		await _example_material(lib)
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
	var generator := _generator(handle)
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


## A VoxelLodTerrain with the add-on's generator meshes around a viewer standing at
## `dir`, and a ray cast down from 100 m above meets the carved ground there.
func _lod_terrain(lib: RefCounted, handle: int, planet: PlanetHeight, dir: Vector3) -> void:
	var terrain = ClassDB.instantiate("VoxelLodTerrain")
	terrain.mesher = ClassDB.instantiate("VoxelMesherTransvoxel")
	terrain.generator = _generator(handle)
	terrain.view_distance = 512
	terrain.lod_count = 6
	root.add_child(terrain)
	var ground := planet.surface_point(dir)
	var viewer := ClassDB.instantiate("VoxelViewer") as Node3D
	viewer.position = ground + dir * 20.0
	root.add_child(viewer)
	var started := Time.get_ticks_msec()
	var origin := ground + dir * 100.0
	# The ray's hit, once the terrain has meshed under it (a lambda cannot assign a local).
	var hits := [null]
	var ray_hits := func() -> bool:
		if terrain.debug_get_mesh_block_count() > 0:
			hits[0] = terrain.get_voxel_tool().raycast(origin, -dir, 200.0)
		return hits[0] != null
	await process_frame
	await lib.wait_until(self, ray_hits, MESH_TIMEOUT_MS, started)
	var hit = hits[0]
	var blocks: int = terrain.debug_get_mesh_block_count()
	var took := (Time.get_ticks_msec() - started) / 1000.0
	lib.check("voxel/lod_meshes", blocks > 0, "%d mesh blocks in %.1f s" % [blocks, took], "> 0")
	if hit == null:
		lib.check("voxel/ray_hits_ground", false, "no hit", "a hit")
	else:
		var point: Vector3 = origin - dir * float(hit.distance)
		var off := WatershedVoxel.sdf_at(handle, point)
		var natural := point.length() - (planet.radius_m() + planet.height_at(dir))
		var what := "%.3f m from the carved ground (%.3f m from height_at)" % [off, natural]
		lib.check("voxel/ray_hits_ground", absf(off) <= RAY_TOLERANCE_M, what, "within 1 m")
	viewer.queue_free()
	terrain.queue_free()
	await process_frame


## Median ms per 35³ block straddling the surface: the add-on's generator (through its
## GDScript) and a VoxelGeneratorGraph of the same planet's size, on the same blocks.
func _block_timing(lib: RefCounted, handle: int, planet: PlanetHeight) -> void:
	var ours := _generator(handle)
	var graph := _graph_generator(planet.radius_m())
	lib.check("voxel/graph_compiles", graph != null, graph != null, "a compiled graph")
	if graph == null:
		return
	var ours_ms: Array[float] = []
	var graph_ms: Array[float] = []
	var mixed := 0
	for i in TIMED_BLOCKS:
		var dir := PlanetHeight.fibonacci_direction(i, TIMED_BLOCKS)
		var origin := Vector3i(planet.surface_point(dir)) - Vector3i.ONE * (BLOCK / 2)
		for turn in 2:
			var buffer = ClassDB.instantiate("VoxelBuffer")
			buffer.create(BLOCK, BLOCK, BLOCK)
			var generator: Object = ours if turn == 0 else graph
			var t0 := Time.get_ticks_usec()
			generator.generate_block(buffer, origin, 0)
			var ms := (Time.get_ticks_usec() - t0) / 1000.0
			if turn == 0:
				ours_ms.append(ms)
				mixed += int(not buffer.is_uniform(VoxelBuffer.CHANNEL_SDF))
			else:
				graph_ms.append(ms)
	var ours_median := _median(ours_ms)
	var graph_median := _median(graph_ms)
	var what := "watershed %.2f ms, VoxelGeneratorGraph %.2f ms per %d³ block (%d of %d mixed)" % [
		ours_median, graph_median, BLOCK, mixed, TIMED_BLOCKS
	]
	lib.info("voxel/block_ms", what)
	lib.check("voxel/timed_blocks_mixed", mixed > 0, mixed, "> 0 blocks straddling the ground")


func _generator(handle: int) -> Object:
	var generator: Object = load("res://addons/watershed/voxel/watershed_voxel_generator.gd").new()
	generator.world_handle = handle
	return generator


## godot_voxel's own planet: a sphere of `radius_m` minus 600 m of six-octave ridged noise.
func _graph_generator(radius_m: float) -> Object:
	var graph: Object = ClassDB.instantiate("VoxelGeneratorGraph")
	var f = graph.get_main_function()
	var kind := func(name: String) -> int:
		return ClassDB.class_get_integer_constant("VoxelGraphFunction", name)
	var x: int = f.create_node(kind.call("NODE_INPUT_X"), Vector2.ZERO)
	var y: int = f.create_node(kind.call("NODE_INPUT_Y"), Vector2.ZERO)
	var z: int = f.create_node(kind.call("NODE_INPUT_Z"), Vector2.ZERO)
	var sphere: int = f.create_node(kind.call("NODE_SDF_SPHERE"), Vector2.ZERO)
	var noise: int = f.create_node(kind.call("NODE_FAST_NOISE_3D"), Vector2.ZERO)
	var scale: int = f.create_node(kind.call("NODE_MULTIPLY"), Vector2.ZERO)
	var sub: int = f.create_node(kind.call("NODE_SUBTRACT"), Vector2.ZERO)
	var out: int = f.create_node(kind.call("NODE_OUTPUT_SDF"), Vector2.ZERO)
	var fast = ClassDB.instantiate("ZN_FastNoiseLite")
	fast.fractal_type = ClassDB.class_get_integer_constant("ZN_FastNoiseLite", "FRACTAL_RIDGED")
	fast.fractal_octaves = 6
	fast.period = 2000.0
	f.set_node_default_input(sphere, 3, radius_m)
	f.set_node_param_by_name(noise, "noise", fast)
	f.set_node_default_input(scale, 1, 600.0)
	for input in [x, y, z]:
		var port := [x, y, z].find(input)
		f.add_connection(input, 0, sphere, port)
		f.add_connection(input, 0, noise, port)
	f.add_connection(noise, 0, scale, 0)
	f.add_connection(sphere, 0, sub, 0)
	f.add_connection(scale, 0, sub, 1)
	f.add_connection(sub, 0, out, 0)
	var compiled: Dictionary = graph.compile()
	return graph if compiled.get("success", false) else null


func _median(values: Array[float]) -> float:
	if values.is_empty():
		return NAN
	var sorted := values.duplicate()
	sorted.sort()
	return sorted[sorted.size() / 2]


## The example voxel planet, once solved, gives its VoxelLodTerrain planet_ground.gdshader
## with a ground_map_width × half ground map, and that map shows many colours.
func _example_material(lib: RefCounted) -> void:
	var scene: Node3D = load(EXAMPLE).instantiate()
	root.add_child(scene)
	var solver: DrainageSolver = scene.get_node("DrainageSolver")
	await lib.wait_until(self, solver.is_solved, MESH_TIMEOUT_MS)
	await process_frame
	var material = scene.get_node("VoxelLodTerrain").material
	var width: int = scene.get("ground_map_width")
	var what := "no ShaderMaterial on the terrain"
	var ok := false
	if material is ShaderMaterial:
		var texture: Texture2D = material.get_shader_parameter("ground_map")
		var shader_path: String = material.shader.resource_path
		ok = shader_path.ends_with("planet_ground.gdshader") and texture != null
		what = "%s, no ground map" % shader_path.get_file()
		if texture != null:
			ok = ok and texture.get_width() == width and texture.get_height() == width / 2
			var size := Vector2i(texture.get_width(), texture.get_height())
			what = "%s, ground map %d x %d" % [shader_path.get_file(), size.x, size.y]
	lib.check("voxel/biome_material", ok, what, "planet_ground.gdshader, %d x %d" % [width, width / 2])
	var life: PlanetLife = scene.get_node("PlanetLife")
	var image := life.ground_map(256)
	var colours := {}
	for y in range(0, image.get_height(), 8):
		for x in range(0, image.get_width(), 8):
			colours[image.get_pixel(x, y).to_html()] = true
	var many := "%d colours in %d samples" % [colours.size(), 32 * 16]
	lib.check("voxel/ground_map_colours", colours.size() >= 16, many, "at least 16")
	scene.queue_free()
	await process_frame
