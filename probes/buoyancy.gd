extends SceneTree
## buoyancy: a 1 m WaterBody3D crate dropped on the home world's open sea settles to ride
## the wave surface at its position (within half a metre over its last second); a
## WaterBody3D boat (1.5 × 0.6 × 3 m, 600 kg) let go on the deepest lake settles at its
## displacement depth (within 2 cm of 0.133 m).

const Lib := preload("res://probes/probe_lib.gd")
const SETTLE_FRAMES := 1800
const BOAT_SIZE := Vector3(1.5, 0.6, 3.0)
const BOAT_MASS := 600.0
const WATER_DENSITY := 1000.0


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var lib := Lib.new()
	var world := await lib.solve_or_finish(self, "buoyancy", "home")
	if world.is_empty():
		return
	var water: WaterTable = world["water"]
	var planet: PlanetHeight = world["planet"]
	var solver: DrainageSolver = world["solver"]
	var kinds := solver.kinds()
	var heights := solver.heights()
	var positions := solver.positions()
	var sea := Vector3.ZERO
	var lake := Vector3.ZERO
	var deepest := 0.0
	for i in kinds.size():
		if kinds[i] == DrainageSolver.KIND_SEA and heights[i] < planet.settings.sea_level_m - 30.0:
			if sea == Vector3.ZERO:
				sea = positions[i]
		elif kinds[i] == DrainageSolver.KIND_LAKE:
			var depth := water.level_at(positions[i]) - heights[i]
			if depth > deepest:
				deepest = depth
				lake = positions[i]
	var crate := _body(water, Vector3.ONE, 500.0, 900.0)
	crate.place_on_water(sea, 3.0)
	var boat := _body(water, BOAT_SIZE, BOAT_MASS, 1600.0)
	boat.place_on_water(lake, 0.5)
	var worst := 0.0
	for frame in SETTLE_FRAMES:
		await physics_frame
		if frame > SETTLE_FRAMES - 60:
			var surface := water.wave_height_at(crate.global_position, water.time)
			var height := crate.global_position.length() - planet.radius_m()
			worst = maxf(worst, absf(height - surface))
	lib.check("buoyancy/rides_the_wave", worst < 0.5, "%.2f m off the surface" % worst, "under 0.5 m")
	var expected := BOAT_MASS / (WATER_DENSITY * BOAT_SIZE.x * BOAT_SIZE.z)
	var keel := boat.global_position.length() - planet.radius_m() - BOAT_SIZE.y / 2.0
	var draft := water.level_at(boat.global_position) - keel
	var what := "draft %.3f m on a %.1f m deep lake (displacement depth %.3f m)" % [
		draft, deepest, expected
	]
	lib.check("buoyancy/boat_settles", absf(draft - expected) < 0.02, what, "within 0.02 m")
	lib.finish(self)


## A WaterBody3D box of `size` metres and `mass` kg on `water`, in the tree.
func _body(water: WaterTable, size: Vector3, mass: float, drag: float) -> WaterBody3D:
	var body := WaterBody3D.new()
	body.mass = mass
	body.hull_size = size
	body.drag = drag
	body.water_table = water
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = size
	shape.shape = box
	body.add_child(shape)
	root.add_child(body)
	return body
