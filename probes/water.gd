extends SceneTree
## water: the teleport probe. Fixed points along the home world's rivers are measured, the
## viewer walks 200 m and back and then jumps across the planet while a ReachCarver streams
## reaches in and out, and the points are measured again: 0 m shift. The bank mismatches and
## water steps the core counts are printed as INFO lines (the erosion issue bounds them).

const Lib := preload("res://probes/probe_lib.gd")


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var lib := Lib.new()
	var world := await lib.solve_or_finish(self, "water", "home")
	if world.is_empty():
		return
	var water: WaterTable = world["water"]
	var planet: PlanetHeight = world["planet"]
	var viewer := Node3D.new()
	root.add_child(viewer)
	var carver := ReachCarver.new()
	carver.solver = world["solver"]
	carver.viewer = viewer
	root.add_child(carver)
	var points := PackedVector3Array()
	var kinds: PackedByteArray = world["solver"].kinds()
	var positions: PackedVector3Array = world["solver"].positions()
	for i in range(0, kinds.size(), 97):
		if kinds[i] == DrainageSolver.KIND_RIVER:
			points.append(positions[i])
	var before := water.levels_at(points)
	var start: Vector3 = points[0] if not points.is_empty() else Vector3.UP
	var east := start.cross(Vector3.UP).normalized()
	var radius := planet.radius_m()
	for step in range(-10, 11):
		var walk := (start + east * (absi(step) * 20.0 / radius)).normalized()
		viewer.position = planet.surface_point(walk) + walk * 2.0
		await process_frame
	viewer.position = -start * radius
	await process_frame
	var after := water.levels_at(points)
	var shift := 0.0
	for i in points.size():
		if not (is_nan(before[i]) and is_nan(after[i])):
			shift = maxf(shift, absf(after[i] - before[i]))
	var measured := "%s m over %d points" % [shift, points.size()]
	lib.check("water/teleport_shift", shift == 0.0, measured, 0)
	var stats := water.water_stats()
	var surfaces := "rising %d below %d" % [stats["rising"], stats["below_downstream"]]
	var clean: bool = stats["rising"] == 0 and stats["below_downstream"] == 0
	lib.check("water/surfaces", clean, surfaces, "0 and 0")
	var banks := "%d worst %.2f m" % [stats["bank_mismatches"], stats["worst_bank_m"]]
	lib.check("water/bank_mismatches", stats["bank_mismatches"] == 0, banks, "0 over 0.5 m")
	var steps := "%d worst %.2f m" % [stats["steps"], stats["worst_step_m"]]
	lib.check("water/steps", stats["steps"] == 0, steps, "0 over 1 m")
	var shores := "%d worst %.2f m" % [stats["lake_shore_mismatches"], stats["worst_lake_shore_m"]]
	lib.info("water/lake_shores", shores)
	lib.finish(self)
