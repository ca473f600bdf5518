extends Node3D
## The demo: the planet, its sea, a walker, a crate and a mill, a world picker and named
## places to teleport to. Everything below reads the add-on's nodes.

const DEPTH_MAP_WIDTH := 1024
## Named places that stand in water; the walker lands on dry ground at every other one.
const WET_PLACES: Array[String] = ["sea", "lake", "mill", "downstream", "mouth", "boat"]
## The steepest ground a walker is put on, degrees, measured over STANDABLE_SPAN_M metres.
const MAX_SLOPE_DEG := 25.0
const STANDABLE_SPAN_M := 6.0
## How far from the mill's river the village may stand, metres (searched outward).
const VILLAGE_SEARCH_M := [40.0, 60.0, 80.0, 120.0, 160.0, 240.0, 320.0, 480.0, 640.0]
## How far down the river from the mill a swimmer watches it turn, metres.
const DOWNSTREAM_M := 12.0
## How far down the river from the mill the boat is launched, and how far above the launch
## the "boat" place is (the boat drifts away from a swimmer there), metres.
const BOAT_LAUNCH_M := 40.0
const BOAT_PLACE_M := 32.0
## Compass bearings searched for the village around the mill, degrees.
const VILLAGE_BEARINGS_DEG := [90.0, 270.0, 45.0, 135.0, 225.0, 315.0, 0.0, 180.0]
## The crate floats this far from the open-sea place, away from the river mouth, metres: in
## front of a walker arriving at the sea, not on top of it.
const CRATE_OFFSET_M := 12.0
## What the walker faces on arriving at a place: another place.
const FACING := {
	"spawn": "mill", "village": "mill", "downstream": "mill", "mill": "village", "mouth": "sea"
}
## What the walker turns its back on arriving at a place: the open sea faces away from the
## mouth, out to the horizon and the crate.
const FACING_AWAY := {"sea": "mouth"}
const FACING_AWAY_M := 100.0
## The spawn stands on land this high above the sea, metres (lowest, highest).
const SPAWN_ABOVE_SEA_M := Vector2(3.0, 60.0)
## How often the status line reads the biome under the walker, seconds.
const BIOME_EVERY_S := 0.5
## Biomes with a place of their own, found nearest the mill.
const BIOME_PLACES: Array[String] = ["forest", "snow"]
## The settlement's houses: how many, on a ring this far from its centre (metres), and
## each house's size (metres: width, height, depth).
const HOUSES := 6
const HOUSE_RING_M := 14.0
const HOUSE_SIZE := Vector3(4.0, 3.0, 5.0)

## Name -> unit direction from the planet's centre, filled when a world is solved.
var places: Dictionary = {}
## Where the boat was let go on the largest river (Vector3.ZERO: no river to launch on).
var boat_launch := Vector3.ZERO
var _catalog := WorldCatalog.new()
var _counts := ""
var _biome_clock := 0.0

@onready var _planet: PlanetHeight = $Planet/PlanetHeight
@onready var _solver: DrainageSolver = $Planet/DrainageSolver
@onready var _water: WaterTable = $Planet/WaterTable
@onready var _carver: ReachCarver = $Planet/ReachCarver
@onready var _life: PlanetLife = $Planet/PlanetLife
@onready var _sea: MeshInstance3D = $Planet/Sea
@onready var _walker: Node3D = $Walker
@onready var _crate: Node3D = $Crate
@onready var _boat: Node3D = $Boat
@onready var _mill: Node3D = $Mill
@onready var _world_picker: OptionButton = $UI/Panel/Rows/WorldPicker
@onready var _place_picker: OptionButton = $UI/Panel/Rows/PlacePicker
@onready var _status: Label = $UI/Panel/Rows/Status


func _ready() -> void:
	if _catalog.load(""):
		for world_name in _catalog.names():
			_world_picker.add_item(world_name)
	_world_picker.item_selected.connect(_on_world_selected)
	_place_picker.item_selected.connect(_on_place_selected)
	_solver.estimated.connect(_on_estimated)
	_solver.progress.connect(_on_progress)
	_solver.solved.connect(_on_solved)
	pick_world("home")


## Every BIOME_EVERY_S, the status line shows the solve's counts and the biome under the
## walker.
func _process(delta: float) -> void:
	_biome_clock += delta
	if _counts == "" or _biome_clock < BIOME_EVERY_S:
		return
	_biome_clock = 0.0
	var under := _walker.global_position
	if under == Vector3.ZERO:
		return
	var biome := _life.biome_at(under)
	_status.text = "%s; %s" % [_counts, biome if biome != "" else "water"]


## Loads the world `world_name` from worlds.json; the solver re-solves on its own.
func pick_world(world_name: String) -> void:
	var settings := _catalog.get_world(world_name)
	if settings != null:
		_planet.settings = settings


## Moves the walker to a named place ("spawn", "village", "mouth", "lake"): a metre over the
## carved ground, or half a metre over the water where water stands there, facing what
## FACING names.
func teleport(place: String) -> void:
	if not places.has(place) or not _solver.is_solved():
		return
	var dir: Vector3 = places[place]
	var ground := _solver.ground_at(dir)
	var level := _water.level_at(dir)
	var altitude := ground + 1.0
	if not is_nan(level) and level > ground:
		altitude = level + 0.5
	_walker.call("teleport_to", dir * (_planet.radius_m() + altitude))
	var target: String = FACING.get(place, "")
	if places.has(target):
		_walker.call("face", places[target] * _planet.radius_m())
	if place == "boat" and boat_launch != Vector3.ZERO:
		_walker.call("face", boat_launch * _planet.radius_m())
	target = FACING_AWAY.get(place, "")
	if places.has(target):
		_walker.call("face", _toward(dir, places[target], -FACING_AWAY_M) * _planet.radius_m())


func _on_world_selected(index: int) -> void:
	pick_world(_world_picker.get_item_text(index))


func _on_place_selected(index: int) -> void:
	teleport(_place_picker.get_item_text(index))


func _on_estimated(bytes: int, seconds: float) -> void:
	_counts = ""
	_status.text = "solving: about %s, %.1f s" % [String.humanize_size(bytes), seconds]


func _on_progress(stage: String, fraction: float) -> void:
	_counts = ""
	_status.text = "solving: %s (%d%%)" % [stage, int(fraction * 100.0)]


func _on_solved(stats: Dictionary) -> void:
	var counts := [stats["river"], stats["lakes"], stats["mouths"]]
	_counts = "%d river nodes, %d lakes, %d mouths" % counts
	_status.text = _counts
	var settings: WorldSettings = _planet.settings
	_sea.visible = settings.sea
	var material := _sea.material_override as ShaderMaterial
	if material != null:
		_water.apply_uniforms(material)
		material.set_shader_parameter("sea_color", settings.sea_color)
		material.set_shader_parameter("shallows_color", settings.shallows_color)
		var depth := _water.depth_map(DEPTH_MAP_WIDTH)
		if depth != null:
			material.set_shader_parameter("depth_map", ImageTexture.create_from_image(depth))
	_find_places()
	_place_picker.clear()
	for place in places:
		_place_picker.add_item(place)
	teleport("spawn")
	var sea: Vector3 = places.get("sea", places["spawn"])
	_crate.call("drop_at", _toward(sea, places.get("mouth", sea), -CRATE_OFFSET_M))
	_mill.call("place_at", places.get("mill", places["spawn"]))
	_boat.visible = boat_launch != Vector3.ZERO
	_boat.set("freeze", not _boat.visible)
	if _boat.visible:
		_boat.call("launch_at", boat_launch)


## Named places from the solve, all near the mill on the largest river
## (WaterTable.mill_site) so every view shows the same country: the mill, the river just
## below it and a village beside it, the spawn on low standable land near it, the nearest
## river mouth, lake and open sea. Without a mill the first land node is the centre.
func _find_places() -> void:
	places.clear()
	boat_launch = Vector3.ZERO
	var kinds := _solver.kinds()
	var positions := _solver.positions()
	var heights := _solver.heights()
	var sea_level: float = _planet.settings.sea_level_m
	var centre := _water.mill_site()
	if centre != Vector3.ZERO:
		places["mill"] = centre
		var village := _dry_ground_beside(centre, sea_level)
		if village != Vector3.ZERO:
			places["village"] = village
		var level := _water.level_at(centre)
		var flow := _water.flow_at(centre * (_planet.radius_m() + level))
		if not is_nan(level) and flow.length() > 0.0:
			places["downstream"] = _toward(centre, flow, DOWNSTREAM_M)
			boat_launch = _toward(centre, flow, BOAT_LAUNCH_M)
			places["boat"] = _toward(centre, flow, BOAT_PLACE_M)
	else:
		centre = Vector3.UP
		for i in kinds.size():
			if kinds[i] == DrainageSolver.KIND_LAND:
				centre = positions[i]
				break
	var nearest := {"sea": -2.0, "lake": -2.0}
	var spawn_candidates: Array[Vector2] = []
	for i in kinds.size():
		var closeness := positions[i].dot(centre)
		match kinds[i]:
			DrainageSolver.KIND_LAND:
				var above := heights[i] - sea_level
				var low := above > SPAWN_ABOVE_SEA_M.x and above < SPAWN_ABOVE_SEA_M.y
				# Low land first, nearest first; higher land only where there is none.
				spawn_candidates.append(Vector2(closeness + (4.0 if low else 0.0), i))
			DrainageSolver.KIND_SEA:
				if heights[i] < sea_level - 30.0 and closeness > nearest["sea"]:
					nearest["sea"] = closeness
					places["sea"] = positions[i]
			DrainageSolver.KIND_LAKE:
				if closeness > nearest["lake"]:
					nearest["lake"] = closeness
					places["lake"] = positions[i]
	spawn_candidates.sort_custom(func(a: Vector2, b: Vector2) -> bool: return a.x > b.x)
	for candidate in spawn_candidates:
		var dir := positions[int(candidate.y)]
		if _standable(dir, sea_level):
			places["spawn"] = dir
			break
	var best := -2.0
	for reach in _carver.mouths():
		var mouth: Vector3 = _carver.reach_points(reach)[0].normalized()
		if mouth.dot(centre) > best:
			best = mouth.dot(centre)
			places["mouth"] = mouth
	if not places.has("spawn"):
		places["spawn"] = Vector3.UP
	# The settlement the siting pass chose: flat dry ground a short walk from the water.
	var settlement := _life.village_site()
	if settlement != Vector3.ZERO:
		places["settlement"] = settlement
	_place_houses(settlement)
	for biome in BIOME_PLACES:
		var found := _life.find_biome(biome, centre, MAX_SLOPE_DEG)
		if found != Vector3.ZERO:
			places[biome] = found


## HOUSES box houses on a ring around the settlement at `site`, standing on the carved
## ground with their walls upright (none without a settlement: Vector3.ZERO).
func _place_houses(site: Vector3) -> void:
	var village := get_node_or_null("Village")
	if village != null:
		remove_child(village)
		village.queue_free()
	if site == Vector3.ZERO:
		return
	village = Node3D.new()
	village.name = "Village"
	add_child(village)
	var mesh := BoxMesh.new()
	mesh.size = HOUSE_SIZE
	var walls := StandardMaterial3D.new()
	walls.albedo_color = Color(0.72, 0.62, 0.48)
	mesh.material = walls
	var axes := _east_north(site)
	var radius := _planet.radius_m()
	for k in HOUSES:
		var a := TAU * k / HOUSES
		var dir := _toward(site, axes[0] * sin(a) + axes[1] * cos(a), HOUSE_RING_M)
		var house := MeshInstance3D.new()
		house.mesh = mesh
		var up := dir
		var facing := (site - dir * site.dot(dir)).normalized()
		var side := up.cross(facing).normalized()
		house.transform = Transform3D(Basis(side, up, side.cross(up)), Vector3.ZERO)
		var foot := radius + _solver.ground_at(dir)
		house.position = dir * (foot + HOUSE_SIZE.y / 2.0 - 0.3)
		village.add_child(house)


## The direction `distance_m` metres from `from` on the way to `to` (a place, or any vector
## pointing that way along the ground; `from` itself when there is no way to go).
func _toward(from: Vector3, to: Vector3, distance_m: float) -> Vector3:
	var way := to - from * to.dot(from)
	if way.length() < 1e-9:
		return from
	return (from + way.normalized() * (distance_m / _planet.radius_m())).normalized()


## Whether the walker lands in water at `place`.
func place_is_wet(place: String) -> bool:
	return WET_PLACES.has(place)


## The nearest standable ground around the river at `site`, searched outward on
## VILLAGE_BEARINGS_DEG; Vector3.ZERO when there is none within the search.
func _dry_ground_beside(site: Vector3, sea_level: float) -> Vector3:
	var axes := _east_north(site)
	for distance: float in VILLAGE_SEARCH_M:
		for bearing: float in VILLAGE_BEARINGS_DEG:
			var a := deg_to_rad(bearing)
			var dir := _toward(site, axes[0] * sin(a) + axes[1] * cos(a), distance)
			if _standable(dir, sea_level):
				return dir
	return Vector3.ZERO


## Whether a walker can stand in `dir`: the carved ground there is dry, above the sea, and
## no steeper than MAX_SLOPE_DEG over STANDABLE_SPAN_M either way.
func _standable(dir: Vector3, sea_level: float) -> bool:
	var ground := _solver.ground_at(dir)
	var radius := _planet.radius_m()
	if ground < sea_level + 2.0 or _water.is_underwater(dir * (radius + ground + 1.0)):
		return false
	var axes := _east_north(dir)
	var rise := tan(deg_to_rad(MAX_SLOPE_DEG)) * STANDABLE_SPAN_M
	for tangent: Vector3 in [axes[0], -axes[0], axes[1], -axes[1]]:
		var beside := (dir + tangent * (STANDABLE_SPAN_M / radius)).normalized()
		if absf(_solver.ground_at(beside) - ground) > rise:
			return false
	return true


## East and north along the ground at unit direction `dir` (any two perpendicular
## horizontal axes at the poles).
func _east_north(dir: Vector3) -> Array[Vector3]:
	var east := dir.cross(Vector3.UP).normalized()
	if east == Vector3.ZERO:
		east = dir.cross(Vector3.RIGHT).normalized()
	return [east, east.cross(dir)]
