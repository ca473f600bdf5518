extends SceneTree
## buoyancy: the demo's crate dropped on the home world's open sea settles to ride the wave
## surface at its position (within half a metre over its last second).

const Lib := preload("res://probes/probe_lib.gd")
const CrateScript := preload("res://crate.gd")
const SETTLE_FRAMES := 1800


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
	var sea := Vector3.ZERO
	for i in kinds.size():
		if kinds[i] == DrainageSolver.KIND_SEA and heights[i] < planet.settings.sea_level_m - 30.0:
			sea = solver.positions()[i]
			break
	var crate := RigidBody3D.new()
	crate.set_script(CrateScript)
	crate.mass = 500.0
	crate.gravity_scale = 0.0
	var shape := CollisionShape3D.new()
	var box := BoxShape3D.new()
	box.size = Vector3.ONE
	shape.shape = box
	crate.add_child(shape)
	crate.set("water_table", water)
	crate.set("planet", planet)
	root.add_child(crate)
	crate.call("drop_at", sea)
	var worst := 0.0
	for frame in SETTLE_FRAMES:
		await physics_frame
		if frame > SETTLE_FRAMES - 60:
			var surface := water.wave_height_at(crate.global_position, water.time)
			var height := crate.global_position.length() - planet.radius_m()
			worst = maxf(worst, absf(height - surface))
	lib.check("buoyancy/rides_the_wave", worst < 0.5, "%.2f m off the surface" % worst, "under 0.5 m")
	lib.finish(self)
