@tool
extends Node3D
## The demo: the planet, its sea, a walker, the village with its mill, a crate and a boat
## (WaterBody3D), a world picker and named places to teleport to. Everything below reads
## the add-on's nodes. In the editor the planet solves as the scene opens and the same
## places are set out as soon as it has (the village's houses, the mill, the crate, the
## boat and the walker at the spawn), so the scene shows the country a player lands in.

const Buildings := preload("res://buildings.gd")
## The sea depth map's width, pixels: 2048 gives about 30 m a pixel on home, fine enough
## for the shallows and the surf along a coast.
const DEPTH_MAP_WIDTH := 2048
## The distance haze: a far hill this many planet radii away is half hidden in it.
const HAZE_HALF_RADII := 0.15
## Named places that stand in water; the walker lands on dry ground at every other one.
const WET_PLACES: Array[String] = ["sea", "lake", "mill", "downstream", "mouth", "boat"]
## The crate floats this far from the open-sea place towards the river mouth, metres: in
## front of a walker arriving at the sea, not on top of it.
const CRATE_OFFSET_M := 12.0
## The crate is dropped this far above where it floats, metres.
const CRATE_DROP_M := 3.0
## What the walker faces on arriving at a place: another place. From the open sea it looks
## back at the coast where the river comes out, over the crate, to the shallows and the surf.
const FACING := {
	"spawn": "village",
	"village": "mill",
	"downstream": "mill",
	"mill": "village",
	"mouth": "sea",
	"sea": "mouth",
}
## How often the status line reads the biome under the walker, seconds.
const BIOME_EVERY_S := 0.5
## The settlement's houses: how many, between these distances from its centre (metres),
## the smallest and largest (metres: width, wall height, depth), and how far a house may
## turn from facing the centre (radians).
const HOUSES := 7
const HOUSE_RING_M := Vector2(20.0, 30.0)
const HOUSE_MIN := Vector3(4.0, 2.6, 5.0)
const HOUSE_MAX := Vector3(6.5, 3.6, 8.0)
const HOUSE_TURN := 0.45

## Name -> unit direction from the planet's centre, filled when a world is solved
## (PlanetLife.places()).
var places: Dictionary = {}
## Where the boat is let go on the largest river (Vector3.ZERO: no river to launch on).
var boat_launch := Vector3.ZERO
var _catalog: WorldCatalog
var _counts := ""
var _biome_clock := 0.0

@onready var _planet: PlanetHeight = $Planet/PlanetHeight
@onready var _solver: DrainageSolver = $Planet/DrainageSolver
@onready var _water: WaterTable = $Planet/WaterTable
@onready var _life: PlanetLife = $Planet/PlanetLife
@onready var _sea: MeshInstance3D = $Planet/Sea
@onready var _walker: Node3D = $Walker
@onready var _crate: WaterBody3D = $Crate
@onready var _boat: WaterBody3D = $Boat
@onready var _mill: Node3D = $Mill
@onready var _world_picker: OptionButton = $UI/Panel/Rows/WorldPicker
@onready var _place_picker: OptionButton = $UI/Panel/Rows/PlacePicker
@onready var _status: Label = $UI/Panel/Rows/Status


func _ready() -> void:
	_solver.solved.connect(_on_solved)
	if Engine.is_editor_hint():
		return
	_catalog = WorldCatalog.new()
	if _catalog.load(""):
		for world_name in _catalog.names():
			_world_picker.add_item(world_name)
	_world_picker.item_selected.connect(_on_world_selected)
	_place_picker.item_selected.connect(_on_place_selected)
	_solver.estimated.connect(_on_estimated)
	_solver.progress.connect(_on_progress)
	pick_world("home")


## Every BIOME_EVERY_S, the status line shows the solve's counts and the biome under the
## walker.
func _process(delta: float) -> void:
	if Engine.is_editor_hint():
		return
	_biome_clock += delta
	if _counts == "" or _biome_clock < BIOME_EVERY_S:
		return
	_show_biome()


## The status line: the solve's counts and the biome under the walker ("water" in water).
func _show_biome() -> void:
	_biome_clock = 0.0
	var under := _walker.global_position
	if _counts == "" or under == Vector3.ZERO:
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
## FACING names; at "boat", facing the boat let go again at its launch.
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
	_show_place(place)
	_show_biome()
	var target: String = FACING.get(place, "")
	if places.has(target):
		_walker.call("face", places[target] * _planet.radius_m())
	if place == "boat" and boat_launch != Vector3.ZERO:
		# The boat is let go again, so the walker watches it drift off.
		_boat.place_on_water(boat_launch, 0.0)
		_walker.call("face", boat_launch * _planet.radius_m())
	if place == "mouth" and _life.mouth_out() != Vector3.ZERO:
		# Out of the river into the sea: the nearest open sea may lie behind a headland.
		_walker.call("face", _life.mouth_out() * _planet.radius_m())


## Shows `place` in the place picker, however the teleport came (the picker, a script).
func _show_place(place: String) -> void:
	for i in _place_picker.item_count:
		if _place_picker.get_item_text(i) == place:
			_place_picker.select(i)
			return


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
	places = _life.places()
	boat_launch = _life.boat_launch()
	_place_houses(places.get("village", Vector3.ZERO))
	_mill.visible = places.has("mill")
	if _mill.visible:
		_mill.call("place_at", places["mill"])
	var sea: Vector3 = places.get("sea", places["spawn"])
	var crate_at := _toward(sea, places.get("mouth", sea), CRATE_OFFSET_M)
	_boat.visible = boat_launch != Vector3.ZERO
	if Engine.is_editor_hint():
		# The sea's uniforms and depth map stay the game's: set here, they would be saved
		# into the scene's material.
		_set_out(_walker, places["spawn"], 1.0)
		_set_out(_crate, crate_at, 0.0)
		if _boat.visible:
			_set_out(_boat, boat_launch, 0.0)
		return
	_dress_sea()
	_dress_ground()
	_dress_sky()
	var counts := [stats["river"], stats["lakes"], stats["mouths"]]
	_counts = "%d river nodes, %d lakes, %d mouths" % counts
	_status.text = _counts
	_place_picker.clear()
	for place in places:
		_place_picker.add_item(place)
	teleport("spawn")
	_crate.place_on_water(crate_at, CRATE_DROP_M)
	_boat.freeze = not _boat.visible
	if _boat.visible:
		_boat.place_on_water(boat_launch, 0.0)


## The ground shader's planet radius (its heights are metres above it), from the world.
func _dress_ground() -> void:
	var terrain := get_node("Planet/PlanetTerrain")
	var material := terrain.get("material") as ShaderMaterial
	if material != null:
		material.set_shader_parameter("radius_m", _planet.radius_m())


## The sky, the sun's colour and the distance haze from the world's look (`sky_color`): the
## horizon and far hills fade into the sky's colour.
func _dress_sky() -> void:
	var sky_color: Color = _planet.settings.sky_color
	var horizon := sky_color.lerp(Color.WHITE, 0.3)
	var environment := ($WorldEnvironment as WorldEnvironment).environment
	var sky := environment.sky.sky_material as ProceduralSkyMaterial
	if sky != null:
		sky.sky_top_color = sky_color.darkened(0.3)
		sky.sky_horizon_color = horizon
		sky.ground_horizon_color = horizon
		sky.ground_bottom_color = sky_color.darkened(0.2)
	environment.fog_enabled = true
	environment.fog_light_color = horizon
	environment.fog_density = log(2.0) / (HAZE_HALF_RADII * _planet.radius_m())
	environment.fog_sky_affect = 0.0
	($Sun as DirectionalLight3D).light_color = Color(1.0, 0.96, 0.88).lerp(sky_color, 0.1)


## The sea's colours, waves and depth map from the solved world.
func _dress_sea() -> void:
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


## In the editor: stands `node` upright at `dir`, `above_m` metres over the water where
## water stands there and over the carved ground elsewhere (a game drops the bodies and the
## walker there itself).
func _set_out(node: Node3D, dir: Vector3, above_m: float) -> void:
	var ground := _solver.ground_at(dir)
	var level := _water.level_at(dir)
	var surface := level if not is_nan(level) and level > ground else ground
	var up := dir.normalized()
	var axes := _east_north(up)
	var basis := Basis(axes[0], up, axes[1])
	node.global_transform = Transform3D(basis, up * (_planet.radius_m() + surface + above_m))


## HOUSES houses around the settlement at `site`, each on its own plot (a sector of the
## ring), of its own size, turned its own way towards the centre, standing on the carved
## ground on a plinth down to its lowest corner; none in water, none without a settlement
## (Vector3.ZERO). The same site gives the same village.
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
	var look := RandomNumberGenerator.new()
	look.seed = hash(site)
	var axes := _east_north(site)
	for k in HOUSES:
		var a := TAU * (k + look.randf_range(-0.3, 0.3)) / HOUSES
		var ring := look.randf_range(HOUSE_RING_M.x, HOUSE_RING_M.y)
		var dir := _toward(site, axes[0] * sin(a) + axes[1] * cos(a), ring)
		var size := Vector3(
			look.randf_range(HOUSE_MIN.x, HOUSE_MAX.x),
			look.randf_range(HOUSE_MIN.y, HOUSE_MAX.y),
			look.randf_range(HOUSE_MIN.z, HOUSE_MAX.z)
		)
		var frame := _plot(dir, site, look.randf_range(-HOUSE_TURN, HOUSE_TURN))
		var corners := PackedFloat64Array()
		for corner in [Vector3(-1, 0, -1), Vector3(1, 0, -1), Vector3(-1, 0, 1), Vector3(1, 0, 1)]:
			var at: Vector3 = frame * (corner * size / 2.0)
			corners.append(_solver.ground_at(at))
		var wet := _water.level_at(dir)
		if not is_nan(wet) and wet > _solver.ground_at(dir):
			continue
		var floor_m: float = Array(corners).max()
		var house := Buildings.house(size, floor_m - Array(corners).min(), look)
		house.name = "House%d" % k
		house.transform = Transform3D(frame.basis, dir * (_planet.radius_m() + floor_m))
		village.add_child(house)


## The frame of a plot at unit direction `dir`: +Y up, +Z (the door) towards `centre`
## turned by `turn` radians, its origin `dir` on the planet (radius_m from its centre).
func _plot(dir: Vector3, centre: Vector3, turn: float) -> Transform3D:
	var up := dir.normalized()
	var facing := centre - up * centre.dot(up)
	if facing.length() < 1e-9:
		facing = _east_north(up)[1]
	var front := facing.normalized().rotated(up, turn)
	var basis := Basis(up.cross(front), up, front)
	return Transform3D(basis, up * _planet.radius_m())


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


## East and north along the ground at unit direction `dir` (any two perpendicular
## horizontal axes at the poles).
func _east_north(dir: Vector3) -> Array[Vector3]:
	var east := dir.cross(Vector3.UP).normalized()
	if east == Vector3.ZERO:
		east = dir.cross(Vector3.RIGHT).normalized()
	return [east, east.cross(dir)]
