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
	var alive := solver.is_solved() and not is_nan(planet.height_at(Vector3.UP))
	_lib.check("bad_input/engine_alive", alive, alive, "still answering")
	_lib.finish(self)


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
