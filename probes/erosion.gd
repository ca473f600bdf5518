extends SceneTree
## erosion: a designer's Regenerate on the home world. PlanetHeight rebuilds its ground on a
## worker thread (reporting each erosion step through `progress`), emits `regenerated` once,
## and then reads the eroded ground: equal to the drainage solve's node heights at the
## nodes. The eroded home drains into few lakes and large, branching river systems.

const Lib := preload("res://probes/probe_lib.gd")
const TIMEOUT_MS := 60000
## The home world before erosion had 258 lakes, a largest catchment of 15.7 km² and no river
## above Strahler order 3.
const MAX_LAKES := 50
const MIN_CATCHMENT_KM2 := 47.0
const MIN_STRAHLER := 4

var _stages: Dictionary = {}
var _regenerated := 0


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var lib := Lib.new()
	var catalog := WorldCatalog.new()
	catalog.load("")
	var planet := PlanetHeight.new()
	planet.settings = catalog.get_world("home")
	planet.progress.connect(func(stage: String, _done: float) -> void: _stages[stage] = true)
	planet.regenerated.connect(func() -> void: _regenerated += 1)
	root.add_child(planet)
	await _until_regenerated(lib)
	_stages.clear()
	_regenerated = 0
	var started := Time.get_ticks_msec()
	lib.check("erosion/regenerate", planet.regenerate(), "started", "started")
	lib.check("erosion/building", planet.is_building(), planet.is_building(), true)
	await _until_regenerated(lib)
	var ms := Time.get_ticks_msec() - started
	await lib.wait_frames(self, 10)
	lib.check("erosion/one_regenerated", _regenerated == 1, _regenerated, 1)
	var staged := _stages.has("erosion") and _stages.has("sediment")
	lib.check("erosion/stages", staged, _stages.keys(), "erosion, sediment")
	lib.info("erosion/regenerate_ms", ms)
	var solver := DrainageSolver.new()
	solver.auto_solve = false
	solver.planet = planet
	root.add_child(solver)
	solver.solve()
	await solver.solved
	var positions := solver.positions()
	var heights := solver.heights()
	var worst := 0.0
	for i in range(0, positions.size(), 97):
		worst = maxf(worst, absf(planet.height_at(positions[i]) - heights[i]))
	lib.check("erosion/one_ground", worst < 0.01, "%.4f m" % worst, "under 0.01 m at the nodes")
	var stats := solver.stats()
	var lakes: int = stats["lakes"]
	var km2: float = stats["largest_catchment_m2"] / 1e6
	var strahler: int = stats["max_strahler"]
	lib.check("erosion/lakes", lakes <= MAX_LAKES, lakes, "at most %d" % MAX_LAKES)
	var catchment := "%.1f km2" % km2
	var wanted := ">= %.0f km2" % MIN_CATCHMENT_KM2
	lib.check("erosion/largest_catchment", km2 >= MIN_CATCHMENT_KM2, catchment, wanted)
	lib.check("erosion/strahler", strahler >= MIN_STRAHLER, strahler, ">= %d" % MIN_STRAHLER)
	lib.finish(self)


func _until_regenerated(lib: Lib) -> void:
	await lib.wait_until(self, func() -> bool: return _regenerated > 0, TIMEOUT_MS)
