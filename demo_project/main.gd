extends Node3D
## The demo: the planet, its sea, a walker, a crate and a mill, a world picker and named
## places to teleport to. Everything below reads the add-on's nodes.

const DEPTH_MAP_WIDTH := 1024

var places: Dictionary = {}
var _catalog := WorldCatalog.new()

@onready var _planet: PlanetHeight = $Planet/PlanetHeight
@onready var _solver: DrainageSolver = $Planet/DrainageSolver
@onready var _water: WaterTable = $Planet/WaterTable
@onready var _carver: ReachCarver = $Planet/ReachCarver
@onready var _sea: MeshInstance3D = $Planet/Sea
@onready var _walker: Node3D = $Walker
@onready var _crate: Node3D = $Crate
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
	_solver.progress.connect(_on_progress)
	_solver.solved.connect(_on_solved)
	pick_world("home")


## Loads the world `world_name` from worlds.json; the solver re-solves on its own.
func pick_world(world_name: String) -> void:
	var settings := _catalog.get_world(world_name)
	if settings != null:
		_planet.settings = settings


## Moves the walker to a named place ("spawn", "village", "mouth", "lake").
func teleport(place: String) -> void:
	if places.has(place):
		_walker.call("teleport_to", places[place])


func _on_world_selected(index: int) -> void:
	pick_world(_world_picker.get_item_text(index))


func _on_place_selected(index: int) -> void:
	teleport(_place_picker.get_item_text(index))


func _on_progress(stage: String, fraction: float) -> void:
	_status.text = "solving: %s (%d%%)" % [stage, int(fraction * 100.0)]


func _on_solved(stats: Dictionary) -> void:
	var counts := [stats["river"], stats["lakes"], stats["mouths"]]
	_status.text = "%d river nodes, %d lakes, %d mouths" % counts
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
	_crate.call("drop_at", places.get("sea", places["spawn"]))
	_mill.call("place_at", places.get("mill", places["spawn"]))


## Named places from the solve: dry ground for the spawn, the largest river for the mill
## with a village on its bank, a river mouth, a lake and the open sea.
func _find_places() -> void:
	places.clear()
	var kinds := _solver.kinds()
	var positions := _solver.positions()
	var heights := _solver.heights()
	var catchment := _solver.catchment()
	var sea_level: float = _planet.settings.sea_level_m
	var best_river := -1
	for i in kinds.size():
		match kinds[i]:
			0:
				if not places.has("spawn") and heights[i] > sea_level + 10.0:
					places["spawn"] = positions[i]
			1:
				if not places.has("sea") and heights[i] < sea_level - 30.0:
					places["sea"] = positions[i]
			2:
				if not places.has("lake"):
					places["lake"] = positions[i]
			3:
				if best_river < 0 or catchment[i] > catchment[best_river]:
					best_river = i
	if best_river >= 0:
		var site: Vector3 = positions[best_river]
		places["mill"] = site
		var side := site.cross(Vector3.UP).normalized()
		places["village"] = (site + side * (40.0 / _planet.radius_m())).normalized()
	var mouths := _carver.mouths()
	if not mouths.is_empty():
		var ends := _carver.reach_points(mouths[0])
		places["mouth"] = ends[0].normalized()
	if not places.has("spawn"):
		places["spawn"] = Vector3.UP
