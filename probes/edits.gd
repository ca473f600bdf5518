extends SceneTree
## edits: a designer drags a slider. Twelve seed edits two frames apart on an auto-solving
## home world must end in one `solved`, for the last seed, equal to a fresh solve of it;
## every superseded solve is cancelled, so the edits settle in about one solve's time.

const Lib := preload("res://probes/probe_lib.gd")
const EDITS := 12
const TIMEOUT_MS := 60000

var _solves := 0


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var lib := Lib.new()
	var catalog := WorldCatalog.new()
	catalog.load("")
	var settings := catalog.get_world("home")
	var planet := PlanetHeight.new()
	planet.settings = settings
	root.add_child(planet)
	var solver := DrainageSolver.new()
	solver.planet = planet
	root.add_child(solver)
	solver.solved.connect(func(_stats: Dictionary) -> void: _solves += 1)
	var started := Time.get_ticks_msec()
	var solved := func() -> bool: return _solves > 0
	await lib.wait_until(self, solved, TIMEOUT_MS, started)
	var one_solve_ms := Time.get_ticks_msec() - started
	_solves = 0
	started = Time.get_ticks_msec()
	for edit in EDITS:
		settings.seed = 1000 + edit
		await lib.wait_frames(self, 2)
	await lib.wait_until(self, solved, TIMEOUT_MS, started)
	var settle_ms := Time.get_ticks_msec() - started
	await lib.wait_frames(self, 30)
	lib.check("edits/one_solved", _solves == 1, _solves, 1)
	var last := settings.seed
	var fresh_settings := catalog.get_world("home")
	fresh_settings.seed = last
	var fresh := await lib.solve_settings(root, fresh_settings)
	var expected: Dictionary = {} if fresh.is_empty() else fresh["solver"].digests()
	var same := not expected.is_empty() and solver.digests() == expected
	lib.check("edits/last_seed", same, "seed %d" % last, "digests of a fresh solve of seed %d" % last)
	var what := "%d ms for %d edits (one solve: %d ms)" % [settle_ms, EDITS, one_solve_ms]
	lib.info("edits/settle_ms", what)
	lib.finish(self)
