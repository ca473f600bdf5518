extends SceneTree
## bad_input: hostile values into the add-on's functions, as a game script or a mistyped
## inspector value would send them. Each call must return its documented empty value (NaN,
## an empty array, false, -1 or null) and print exactly one error line (run.sh counts them
## between the EXPECT markers), and the engine must still be running at the end: no size a
## caller passes is allocated before it is checked, no zero, NaN or infinite direction is
## quietly turned into some other direction.

const Lib := preload("res://probes/probe_lib.gd")
const HUGE := Vector3i(100000, 100000, 100000)

var _lib := Lib.new()


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var world := await _lib.solve_or_finish(self, "bad_input", "pebble")
	if world.is_empty():
		return
	var planet: PlanetHeight = world["planet"]
	var solver: DrainageSolver = world["solver"]
	var water: WaterTable = world["water"]
	var handle := solver.world_handle()
	var bad_vectors := {
		"zero": Vector3.ZERO, "nan": Vector3(NAN, 0, 0), "inf": Vector3(INF, 1, 0)
	}
	for what: String in bad_vectors:
		var v: Vector3 = bad_vectors[what]
		_nan("PlanetHeight.height_at(%s)" % what, func() -> float: return planet.height_at(v))
		_nan_vector(
			"PlanetHeight.surface_point(%s)" % what,
			func() -> Vector3: return planet.surface_point(v)
		)
		_empty(
			"PlanetHeight.heights(%s)" % what,
			func() -> int: return planet.heights(PackedVector3Array([Vector3.UP, v])).size()
		)
		_is(
			"DrainageSolver.nearest_node(%s)" % what,
			func() -> Variant: return solver.nearest_node(v),
			-1
		)
		_nan("DrainageSolver.ground_at(%s)" % what, func() -> float: return solver.ground_at(v))
		_nan("WaterTable.level_at(%s)" % what, func() -> float: return water.level_at(v))
		_empty(
			"WaterTable.levels_at(%s)" % what,
			func() -> int: return water.levels_at(PackedVector3Array([v])).size()
		)
		_nan("WaterTable.depth_at(%s)" % what, func() -> float: return water.depth_at(v))
		_is(
			"WaterTable.is_underwater(%s)" % what,
			func() -> Variant: return water.is_underwater(v),
			false
		)
		_nan_vector("WaterTable.flow_at(%s)" % what, func() -> Vector3: return water.flow_at(v))
		_nan(
			"WaterTable.wave_height_at(%s)" % what,
			func() -> float: return water.wave_height_at(v, 0.0)
		)
		_empty(
			"WaterTable.submersion(%s)" % what,
			func() -> int: return water.submersion(PackedVector3Array([v]), 0.0).size()
		)
		_empty(
			"WaterTable.hull_forces(%s)" % what,
			func() -> int:
				return water.hull_forces(PackedVector3Array([v]), Vector3.ZERO, Vector3.ONE, 900.0, 0.0).size()
		)
		_nan(
			"WaterTable.mill_rate(%s)" % what,
			func() -> float: return water.mill_rate(v, 1.5, 0.3)
		)
		_nan(
			"WaterTable.flow_speed_at_depth(%s)" % what,
			func() -> float: return water.flow_speed_at_depth(v, 0.3)
		)
	var up := Vector3.UP * 10000.0
	_nan("WaterTable.wave_height_at(time nan)", func() -> float: return water.wave_height_at(up, NAN))
	_nan("WaterTable.mill_rate(radius -1)", func() -> float: return water.mill_rate(up, -1.0, 0.3))
	_nan("WaterTable.mill_rate(dip inf)", func() -> float: return water.mill_rate(up, 1.5, INF))
	var at_sea := PackedVector3Array([up])
	for size: Vector3 in [Vector3.ZERO, Vector3(1, -1, 1), Vector3(1, NAN, 1), Vector3.ONE * 1e6]:
		_empty(
			"WaterTable.hull_forces(size %s)" % size,
			func() -> int: return water.hull_forces(at_sea, Vector3.ZERO, size, 900.0, 0.0).size()
		)
		_empty(
			"WaterTable.cuboid_samples(%s)" % size,
			func() -> int: return water.cuboid_samples(size).size()
		)
	_empty(
		"WaterTable.hull_forces(velocity inf)",
		func() -> int:
			return water.hull_forces(at_sea, Vector3(INF, 0, 0), Vector3.ONE, 900.0, 0.0).size()
	)
	_empty(
		"WaterTable.hull_forces(drag -1)",
		func() -> int: return water.hull_forces(at_sea, Vector3.ZERO, Vector3.ONE, -1.0, 0.0).size()
	)
	for width in [-5, 0, 1, 1 << 40]:
		_is(
			"WaterTable.depth_map(%d)" % width,
			func() -> Variant: return water.depth_map(width),
			null
		)
	for size: Vector3i in [HUGE, Vector3i(-1, 16, 16), Vector3i(0, 0, 0)]:
		_empty(
			"WatershedVoxel.fill_sdf(%s)" % size,
			func() -> int: return WatershedVoxel.fill_sdf(handle, Vector3.ZERO, size, 0, 32).size()
		)
		_empty(
			"WatershedVoxel.generate_sdf(%s)" % size,
			func() -> int: return WatershedVoxel.generate_sdf(handle, Vector3.ZERO, size, 0, 32).size()
		)
		_nan(
			"WatershedVoxel.uniform_sdf(%s)" % size,
			func() -> float: return WatershedVoxel.uniform_sdf(handle, Vector3.ZERO, size, 0)
		)
		_empty(
			"PlanetHeight.sdf_block(%s)" % size,
			func() -> int: return planet.sdf_block(Vector3.ZERO, size, 0).size()
		)
	var block := Vector3i(8, 8, 8)
	_empty(
		"WatershedVoxel.fill_sdf(lod 99)",
		func() -> int: return WatershedVoxel.fill_sdf(handle, Vector3.ZERO, block, 99, 32).size()
	)
	_empty(
		"WatershedVoxel.fill_sdf(bits 7)",
		func() -> int: return WatershedVoxel.fill_sdf(handle, Vector3.ZERO, block, 0, 7).size()
	)
	_empty(
		"WatershedVoxel.fill_sdf(origin inf)",
		func() -> int: return WatershedVoxel.fill_sdf(handle, Vector3.INF, block, 0, 32).size()
	)
	_empty(
		"WatershedVoxel.fill_sdf(unknown handle)",
		func() -> int: return WatershedVoxel.fill_sdf(987654321, Vector3.ZERO, block, 0, 32).size()
	)
	_nan(
		"WatershedVoxel.sdf_at(unknown handle)",
		func() -> float: return WatershedVoxel.sdf_at(987654321, Vector3.ZERO)
	)
	_nan(
		"WatershedVoxel.sdf_at(nan)",
		func() -> float: return WatershedVoxel.sdf_at(handle, Vector3(NAN, 0, 0))
	)
	for pair: Array in [[0, 0], [0, -1], [-1, 4], [4, 4], [1 << 40, 4]]:
		_nan_vector(
			"PlanetHeight.fibonacci_direction(%d, %d)" % pair,
			func() -> Vector3: return PlanetHeight.fibonacci_direction(pair[0], pair[1])
		)
	await _nodes_and_resources(solver)
	var alive := solver.is_solved() and not is_nan(planet.height_at(Vector3.UP))
	_lib.check("bad_input/engine_alive", alive, alive, "still answering")
	_lib.finish(self)


## The classes around the solve: catalogs, settings, nodes without what they read, a reader
## whose solver was freed, and the quiet answers before a first solve.
func _nodes_and_resources(solver: DrainageSolver) -> void:
	var catalog := WorldCatalog.new()
	_is(
		"WorldCatalog.load(missing file)",
		func() -> Variant: return catalog.load("res://nope.json"),
		false
	)
	var shipped := WorldCatalog.new()
	shipped.load("")
	_is("WorldCatalog.get_world(unknown)", func() -> Variant: return shipped.get_world("nope"), null)
	var settings := shipped.get_world("pebble")
	settings.radius_m = NAN
	var problems := settings.validate()
	_lib.check("bad_input/WorldSettings.validate(nan)", problems.size() > 0, problems, "problems")
	var bare := PlanetHeight.new()
	root.add_child(bare)
	_nan("PlanetHeight.height_at(no settings)", func() -> float: return bare.height_at(Vector3.UP))
	bare.settings = settings
	_nan(
		"PlanetHeight.height_at(invalid settings)",
		func() -> float: return bare.height_at(Vector3.UP)
	)
	# The NaN edit reaches the planet at the end of the frame: one rebuild, one error.
	_lib.begin_expected("bad_input/edit_rebuilds_once")
	await _lib.wait_frames(self, 2)
	_lib.end_expected("bad_input/edit_rebuilds_once", 1)
	var lone := DrainageSolver.new()
	lone.auto_solve = false
	root.add_child(lone)
	_is("DrainageSolver.solve(no planet)", func() -> Variant: return lone.solve(), false)
	var huge := shipped.get_world("pebble")
	huge.radius_m = 1000000.0
	huge.relief_m = 600.0
	huge.lattice_nodes = 16000000
	huge.river_catchment_m2 = 1.0
	var giant := PlanetHeight.new()
	giant.settings = huge
	root.add_child(giant)
	lone.planet = giant
	_is("DrainageSolver.solve(more memory than the machine has)", lone.solve, false)
	lone.planet = null
	giant.queue_free()
	var carver := ReachCarver.new()
	carver.solver = solver
	root.add_child(carver)
	_empty("ReachCarver.reach_points(-1)", func() -> int: return carver.reach_points(-1).size())
	_empty(
		"ReachCarver.reach_points(huge)",
		func() -> int: return carver.reach_points(1 << 40).size()
	)
	# Before a first solve every query answers empty, quietly: a game polls while it streams.
	var idle := WaterTable.new()
	idle.solver = lone
	root.add_child(idle)
	_lib.begin_expected("bad_input/before_solve")
	var quiet := [
		is_nan(idle.level_at(Vector3.UP)), not idle.is_underwater(Vector3.UP * 10000.0),
		idle.submersion(PackedVector3Array([Vector3.UP]), 0.0).is_empty(),
		idle.hull_forces(PackedVector3Array([Vector3.UP]), Vector3.ZERO, Vector3.ONE, 9, 0).is_empty(),
		lone.positions().is_empty(), lone.nearest_node(Vector3.UP) == -1,
		is_nan(lone.ground_at(Vector3.UP)), lone.stats().is_empty()
	]
	_lib.end_expected("bad_input/before_solve", 0)
	_lib.check("bad_input/before_solve", not quiet.has(false), quiet, "all empty, no errors")
	var doomed := DrainageSolver.new()
	doomed.auto_solve = false
	root.add_child(doomed)
	idle.solver = doomed
	doomed.free()
	_nan("WaterTable.level_at(freed solver)", func() -> float: return idle.level_at(Vector3.UP))
	for node: Node in [bare, lone, carver, idle]:
		node.queue_free()
	await process_frame


## Runs `call` between EXPECT markers for exactly one error line; returns its value.
func _call(name: String, call: Callable) -> Variant:
	_lib.begin_expected("bad_input/%s" % name)
	var value: Variant = call.call()
	_lib.end_expected("bad_input/%s" % name, 1)
	return value


func _nan(name: String, call: Callable) -> void:
	var value: float = _call(name, call)
	_lib.check("bad_input/%s" % name, is_nan(value), value, "NaN")


func _nan_vector(name: String, call: Callable) -> void:
	var value: Vector3 = _call(name, call)
	var nan := is_nan(value.x) and is_nan(value.y) and is_nan(value.z)
	_lib.check("bad_input/%s" % name, nan, value, "a NaN vector")


func _empty(name: String, call: Callable) -> void:
	var size: int = _call(name, call)
	_lib.check("bad_input/%s" % name, size == 0, size, "empty")


func _is(name: String, call: Callable, expected: Variant) -> void:
	var value: Variant = _call(name, call)
	_lib.check("bad_input/%s" % name, value == expected, value, expected)
