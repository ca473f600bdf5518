extends SceneTree
## demo: the demo's main scene played headless, as a player would meet it. The home world
## solves; the walker stands on dry ground at the spawn; after 10 s of physics the crate
## floats at the sea's live surface (not fallen through the planet, not flown away); the
## mill turns; a boat floats on the largest river and drifts downstream; teleporting to
## every named place lands on dry ground or in water as the place says, and in a river or
## lake the terrain draws that water's surface around the walker;
## every world has PlanetLife's village with the mill on its river and PlanetLife's spawn,
## trees or rocks stand around the walker and the status line names the biome under the
## walker.
## Then two other worlds are picked from the world picker and the same is checked.
## Run with `--fixed-fps 60` (run.sh does) so 600 physics frames are 10 s of physics.

const Lib := preload("res://probes/probe_lib.gd")
const OTHER_WORLDS: Array[String] = ["archipelago", "highlands"]
const SOLVE_TIMEOUT_MS := 60000
const PHYSICS_FRAMES := 600
const SETTLE_FRAMES := 90
## The walker's centre stands this far above the carved ground on dry land (capsule 1.8 m).
const STANDING_M := Vector2(0.0, 2.5)
## A floating body's centre stays this close to the live water surface, metres.
const FLOATING_M := 1.5
## Places in a river or lake: the terrain draws that water's surface around the walker.
const INLAND_WATER: Array[String] = ["lake", "mill", "downstream"]
## How near the walker the drawn surface is looked for, metres.
const DRAWN_WITHIN_M := 20.0

var _lib := Lib.new()
var _main: Node3D
var _solver: DrainageSolver
var _water: WaterTable
var _planet: PlanetHeight
var _solves := 0


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var started := Time.get_ticks_msec()
	_main = (load("res://main.tscn") as PackedScene).instantiate() as Node3D
	_solver = _main.get_node("Planet/DrainageSolver")
	_water = _main.get_node("Planet/WaterTable")
	_planet = _main.get_node("Planet/PlanetHeight")
	root.add_child(_main)
	_solver.solved.connect(func(_stats: Dictionary) -> void: _solves += 1)
	await _check_world("home", started)
	var picker: OptionButton = _main.get_node("UI/Panel/Rows/WorldPicker")
	for world_name in OTHER_WORLDS:
		var index := -1
		for i in picker.item_count:
			if picker.get_item_text(i) == world_name:
				index = i
		_lib.check("demo/%s/in_picker" % world_name, index >= 0, index, "listed")
		if index < 0:
			continue
		started = Time.get_ticks_msec()
		picker.select(index)
		picker.item_selected.emit(index)
		await _check_world(world_name, started)
	_lib.finish(self)


## Waits for `world_name`'s solve (started at `started` ms) and checks the walker, the
## crate, the mill and every place.
func _check_world(world_name: String, started: int) -> void:
	var p := "demo/%s" % world_name
	await _until_solved(started)
	var solved: bool = _solver.is_solved() and _planet.settings.world_name == world_name
	var took := "%.2f s" % ((Time.get_ticks_msec() - started) / 1000.0)
	_lib.check("%s/solved" % p, solved, took, "a solve within %d s" % (SOLVE_TIMEOUT_MS / 1000))
	if not solved:
		return
	var status: Label = _main.get_node("UI/Panel/Rows/Status")
	_lib.check("%s/status" % p, status.text.contains("river nodes"), status.text, "the counts")
	var places: Dictionary = _main.get("places")
	_lib.check("%s/places" % p, places.has("spawn"), places.keys(), "at least a spawn")
	await _physics(SETTLE_FRAMES)
	_check_walker("%s/spawn" % p, "spawn")
	await _physics(PHYSICS_FRAMES - SETTLE_FRAMES)
	var life: PlanetLife = _main.get_node("Planet/PlanetLife")
	var village := life.village_site()
	var sited: bool = village != Vector3.ZERO and places.get("village", Vector3.ZERO) == village
	_lib.check("%s/village" % p, sited, places.keys(), "PlanetLife's village site")
	var mill_site := life.village_mill_site()
	var whose := "the village's mill site"
	if mill_site == Vector3.ZERO:
		var water: WaterTable = _main.get_node("Planet/WaterTable")
		mill_site = water.mill_site()
		whose = "the largest river's mill site (none beside the village)"
	var mill: Node3D = _main.get_node("Mill")
	var mill_off := (mill.global_position.normalized() - mill_site).length() * _planet.radius_m()
	var at_site := mill_site != Vector3.ZERO and mill.visible and mill_off < 5.0
	var mill_what := "%.1f m from %s" % [mill_off, whose]
	_lib.check("%s/village_mill" % p, at_site, mill_what, "the mill at the village")
	var spawned: bool = places["spawn"] == life.spawn_site()
	_lib.check("%s/spawn_site" % p, spawned, places["spawn"], "PlanetLife's spawn")
	var scatter: Node3D = _main.get_node("Planet/PlanetScatter")
	var things: int = scatter.call("instance_count")
	var chunks: int = scatter.call("chunk_count")
	var what := "%d trees and rocks in %d chunks" % [things, chunks]
	_lib.check("%s/scatter" % p, chunks > 0 and things > 0, what, "trees or rocks around the walker")
	var biomes := ["beach", "grassland", "forest", "wetland", "rock", "alpine", "snow", "desert"]
	biomes.append_array(["tundra", "water"])
	var named := biomes.any(func(b: String) -> bool: return status.text.ends_with("; " + b))
	_lib.check("%s/status_biome" % p, named, status.text, "the biome under the walker")
	_check_crate(p)
	_check_boat(p)
	_check_mill(p)
	for place: String in places:
		_main.call("teleport", place)
		await _physics(SETTLE_FRAMES)
		_check_walker("%s/teleport_%s" % [p, place], place)
		var picker := _main.get_node("UI/Panel/Rows/PlacePicker") as OptionButton
		var shown := picker.get_item_text(picker.selected) if picker.selected >= 0 else ""
		_lib.check("%s/picker_%s" % [p, place], shown == place, shown, place)
		if INLAND_WATER.has(place):
			_check_water_drawn("%s/water_drawn_%s" % [p, place])


## Waits for the next `solved` (main.gd handles it first: places, crate, mill) or the
## timeout.
func _until_solved(started: int) -> void:
	var seen := _solves
	await _lib.wait_until(self, func() -> bool: return _solves != seen, SOLVE_TIMEOUT_MS, started)


func _physics(frames: int) -> void:
	await _lib.wait_frames(self, frames, true)


## The walker at `place`: on dry ground (its centre 0–2.5 m over the carved ground, not
## under water) or in the water (within FLOATING_M of the still surface).
func _check_walker(name: String, place: String) -> void:
	var walker: Node3D = _main.get_node("Walker")
	var pos := walker.global_position
	var above := WatershedVoxel.sdf_at(_solver.world_handle(), pos)
	var depth := _water.depth_at(pos)
	if _main.call("place_is_wet", place):
		var wet := not is_nan(depth) and absf(depth) <= FLOATING_M
		_lib.check(name, wet, "in water, %.2f m under the surface" % depth, "within 1.5 m")
	else:
		var standing: bool = walker.call("is_on_floor")
		var near := above >= STANDING_M.x and above <= STANDING_M.y
		var dry := not _water.is_underwater(pos)
		var what := "%.2f m over the carved ground, %s, %s" % [
			above, "standing" if standing else "not standing", "dry" if dry else "under water"
		]
		_lib.check(name, standing and near and dry, what, "standing 0-2.5 m over dry ground")


## The river or lake the walker swims in is drawn: a terrain chunk's water surface has a
## vertex within DRAWN_WITHIN_M of the walker at the water table's level there.
func _check_water_drawn(name: String) -> void:
	var walker: Node3D = _main.get_node("Walker")
	var pos := walker.global_position
	var best := INF
	for chunk in _main.get_node("Planet/PlanetTerrain").get_children():
		var surface := chunk.get_node_or_null("Water") as MeshInstance3D
		if surface == null:
			continue
		var vertices: PackedVector3Array = surface.mesh.surface_get_arrays(0)[Mesh.ARRAY_VERTEX]
		for v in vertices:
			if v.distance_to(pos) > DRAWN_WITHIN_M:
				continue
			var level := _water.level_at(v)
			if not is_nan(level):
				best = minf(best, absf(v.length() - _planet.radius_m() - level))
	var what := "nearest drawn vertex %.3f m off the level" % best if best < INF else "none drawn"
	_lib.check(name, best <= 0.05, what, "a surface vertex at the level within 20 m")


## The crate after 10 s of physics: its centre within FLOATING_M of the live sea surface.
func _check_crate(p: String) -> void:
	var crate: RigidBody3D = _main.get_node("Crate")
	var pos := crate.global_position
	var surface := _water.wave_height_at(pos, _water.time)
	if is_nan(surface):
		_lib.skip("%s/crate_floats" % p, "this world has no sea")
		return
	var off := pos.length() - (_planet.radius_m() + surface)
	var what := "%.2f m from the live surface, %.2f m/s" % [off, crate.linear_velocity.length()]
	_lib.check("%s/crate_floats" % p, absf(off) <= FLOATING_M, what, "within 1.5 m")


## The boat launched on the largest river floats at its surface and the current has
## carried it downstream.
func _check_boat(p: String) -> void:
	var launch: Vector3 = _main.get("boat_launch")
	if launch == Vector3.ZERO:
		_lib.skip("%s/boat_floats" % p, "no river to launch on")
		return
	var boat: RigidBody3D = _main.get_node("Boat")
	var pos := boat.global_position
	var level := _water.level_at(pos)
	var off := pos.length() - (_planet.radius_m() + level)
	var what := "%.2f m from the river's surface" % off if not is_nan(level) else "out of the water"
	var floats := not is_nan(level) and absf(off) <= FLOATING_M
	_lib.check("%s/boat_floats" % p, floats, what, "within 1.5 m")
	var moved := pos.normalized().distance_to(launch) * _planet.radius_m()
	var drift := "%.1f m from the launch, %.2f m/s" % [moved, boat.linear_velocity.length()]
	_lib.check("%s/boat_drifts" % p, moved > 1.0, drift, "carried downstream")


## The mill wheel turns in its river.
func _check_mill(p: String) -> void:
	var mill: Node3D = _main.get_node("Mill")
	var rate: float = mill.get("rate")
	var turned: float = mill.get("turned")
	var what := "%.3f rad/s, %.2f rad turned" % [rate, turned]
	_lib.check("%s/mill_turns" % p, rate > 0.0 and turned > 0.0, what, "turning")
