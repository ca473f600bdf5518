@tool
extends RefCounted
## "Rivers for this terrain" on an HTerrain or a Terrain3D node: reads the terrain's
## heightmap (HTerrain's height map in `map_scale` metres; Terrain3D's regions, the rectangle
## spanning them), runs HeightmapWatershed with a WatershedRiverSettings on a worker thread,
## and gives back the terrain as it was (`before`) and as the run leaves it (`after`): the
## carved heights, the ground layers (HTerrain's splat map, Terrain3D's control map) and the
## WatershedTerrainWater child with the water surface. `apply(terrain, state)` sets either;
## the plugin wraps the two in one undoable action, a game calls it once.
##
## Each run starts from the heightmap as it was before Watershed first carved it (kept on
## the water child), unless the terrain was edited since the last run: then from the heights
## as they are, which become the new original. A Path3D child of the terrain is a river the
## designer drew: the run cuts its bed (never rising downstream) and makes it a river of
## the solve (see HeightmapWatershed.set_drawn_rivers).
##
##     var rivers := TerrainRivers.new()
##     rivers.start(terrain, settings)
##     while not rivers.poll():
##         await get_tree().process_frame
##     TerrainRivers.apply(terrain, rivers.after)

## Emitted from `poll()` as each stage of the run finishes, with the share done (0..1).
signal progress(stage: String, fraction: float)

const WaterScript := preload("res://addons/watershed/terrain/terrain_water.gd")
const SettingsScript := preload("res://addons/watershed/terrain/river_settings.gd")
## The water child's name.
const WATER_NAME := &"WatershedWater"
## HTerrainData's channels (its CHANNEL_HEIGHT and CHANNEL_SPLAT).
const HTERRAIN_HEIGHT := 0
const HTERRAIN_SPLAT := 2
## Terrain3DRegion.TYPE_MAX: `update_maps` on every map type.
const TERRAIN3D_ALL_MAPS := 3

## The terrain of the running or last run.
var terrain: Node3D
## The terrain before the run and as the run leaves it, for `apply` (`after` is empty until
## `poll()` returns true): `heights` and `layers` in the terrain's own formats (`layers`
## null: left as they are), `water` the water child (null: none), `water_state` its
## WatershedTerrainWater state, and where Terrain3D's regions sit in the maps
## (`region_low`, the least region location, and `region_side`, cells; 0 for HTerrain).
var before: Dictionary
var after: Dictionary
## HeightmapWatershed's figures of the run (`get_stats()`), empty until it is in.
var stats: Dictionary
## Why the last `start` or run failed, empty when it did not.
var error := ""

var _settings: Resource
var _watershed: HeightmapWatershed
var _map: Dictionary
var _base: Image


## Whether `node` is a terrain this works on: an HTerrain or a Terrain3D.
static func is_terrain(node: Object) -> bool:
	return _is_hterrain(node) or _is_terrain3d(node)


## The WatershedTerrainWater child of `node`, null when it has none.
static func water_of(node: Node) -> MeshInstance3D:
	for child in node.get_children():
		if child.get_script() == WaterScript:
			return child
	return null


## Sets `terrain`'s heights, ground layers and water child to `state` (`before` or `after`).
static func apply(node: Node3D, state: Dictionary) -> void:
	if _is_hterrain(node):
		_write_hterrain(node, state)
	else:
		_write_terrain3d(node, state)
	var current := water_of(node)
	var wanted: MeshInstance3D = state.get("water")
	if current != wanted:
		if current != null:
			node.remove_child(current)
		if wanted != null:
			node.add_child(wanted)
			wanted.owner = node.owner if node.owner != null else node
	if wanted != null:
		wanted.set_state(state["water_state"])


## Starts a run on `node` with `settings` (null: the water child's, else the defaults) on a
## worker thread. False, with `error` saying why, when `node` is not a terrain with a
## heightmap or the settings are refused.
func start(node: Node3D, settings: Resource = null) -> bool:
	error = ""
	after = {}
	stats = {}
	if not is_terrain(node):
		return _fail("select an HTerrain or a Terrain3D node")
	terrain = node
	var water := water_of(node)
	_settings = settings
	if _settings == null and water != null:
		_settings = water.settings
	if _settings == null:
		_settings = SettingsScript.new()
	_map = _read_hterrain(node) if _is_hterrain(node) else _read_terrain3d(node)
	if _map.is_empty():
		return false
	before = {
		"heights": _map["heights"],
		"layers": _map["layers"],
		"water": water,
		"water_state": water.get_state() if water != null else {},
		"region_low": _map["region_low"],
		"region_side": _map["region_side"],
	}
	_base = _map["metres"]
	if water != null and water.original_heights != null:
		var unchanged: bool = hash(_map["heights"].get_data()) == water.carved_digest
		if unchanged and water.original_heights.get_size() == _base.get_size():
			_base = water.original_heights
		else:
			print(
				"Watershed: %s was edited since the last run; starting from its heights as they are"
				% node.name
			)
	_watershed = _settings.new_watershed(_map["cell_m"])
	_watershed.set_drawn_rivers(drawn_rivers(node, _map["transform"], _map["cell_m"]))
	_watershed.progress.connect(func(stage: String, share: float) -> void: progress.emit(stage, share))
	if not _watershed.start(_base):
		return _fail("HeightmapWatershed refused the heightmap or the settings (see the errors above)")
	return true


## Takes in the worker's progress; true once the run is in and `after` and `stats` are set
## (false while it runs, and after a failed `start`).
func poll() -> bool:
	if _watershed == null:
		return false
	if not _watershed.poll():
		if not _watershed.is_running() and not _watershed.is_built():
			_watershed = null
			_fail("the run stopped before it was in (see the errors above)")
		return false
	stats = _watershed.get_stats()
	var water: MeshInstance3D = before["water"]
	if water == null:
		water = WaterScript.new()
		water.name = WATER_NAME
		water.settings = _settings
	var heights := _native_heights(_watershed.get_heights())
	var cells := Vector2i(_base.get_width(), _base.get_height())
	var step: int = _settings.water_mesh_step
	after = {
		"heights": heights,
		"layers": _native_layers() if _settings.write_ground_layers else _map["layers"],
		"water": water,
		"water_state": {
			"mesh": _watershed.water_mesh(step),
			"flow_foam": _watershed.get_flow_foam(),
			"cell_m": _map["cell_m"],
			"map_cells": cells,
			"original_heights": _base,
			"carved_digest": hash(heights.get_data()),
			"transform": _map["transform"],
		},
		"region_low": _map["region_low"],
		"region_side": _map["region_side"],
	}
	_watershed = null
	return true


## The rivers drawn over `node` for a run: the curve of every Path3D child (two points or
## more), in cells of the map that `place` lays out (cell (c, r) at `place * (c, 0, r) *
## cell_m` in `node`'s space), source and mouth either way round.
static func drawn_rivers(
	node: Node3D, place: Transform3D, cell_m: float
) -> Array[PackedVector2Array]:
	var rivers: Array[PackedVector2Array] = []
	for child in node.get_children():
		var path := child as Path3D
		if path == null or path.curve == null or path.curve.point_count < 2:
			continue
		var to_node := node.global_transform.affine_inverse() * path.global_transform
		var to_map := place.affine_inverse() * to_node
		var cells := PackedVector2Array()
		for point in path.curve.get_baked_points():
			var at := to_map * point
			cells.append(Vector2(at.x, at.z) / cell_m)
		rivers.append(cells)
	return rivers


## Whether a run is going.
func is_running() -> bool:
	return _watershed != null and _watershed.is_running()


## Stops the running run; `after` stays empty.
func cancel() -> void:
	if _watershed != null:
		_watershed.cancel()
	_watershed = null


func _fail(why: String) -> bool:
	error = why
	push_error("Watershed: " + why)
	return false


## The carved heights (metres, `FORMAT_RF`) in the terrain's own height format.
func _native_heights(metres: Image) -> Image:
	var scale: float = _map["height_scale"]
	var heights := metres if scale == 1.0 else _scaled(metres, 1.0 / scale)
	heights.convert(_map["height_format"])
	return heights


## The run's ground layers in the terrain's format: HTerrain's splat map, Terrain3D's control
## map (null for an HTerrain without a splat map).
func _native_layers() -> Image:
	if not _is_hterrain(terrain):
		return _watershed.get_control()
	if _map["layers"] == null:
		return null
	var splat := _watershed.get_splat()
	splat.convert(_map["layers"].get_format())
	return splat


static func _is_hterrain(node: Object) -> bool:
	var script: Script = node.get_script() if node != null else null
	return script != null and script.get_global_name() == &"HTerrain"


static func _is_terrain3d(node: Object) -> bool:
	return node != null and node.is_class("Terrain3D")


## HTerrain's maps: `heights` and `layers` (its height and splat images, copied), `metres`
## (`FORMAT_RF`), `cell_m` and the water child's `transform`; empty (with `error`) when it
## has no data.
func _read_hterrain(node: Node3D) -> Dictionary:
	var data: Resource = node.call("get_data")
	if data == null:
		_fail("%s has no HTerrainData: create or import a terrain first" % node.name)
		return {}
	var raw: Image = data.call("get_image", HTERRAIN_HEIGHT)
	var scale: Vector3 = node.get("map_scale")
	var metres: Image = raw.duplicate()
	metres.convert(Image.FORMAT_RF)
	if scale.y != 1.0:
		metres = _scaled(metres, scale.y)
	var layers: Image = null
	if data.call("get_map_count", HTERRAIN_SPLAT) > 0:
		layers = data.call("get_image", HTERRAIN_SPLAT, 0).duplicate()
	var place := Transform3D(Basis.from_scale(Vector3(1.0, 1.0, scale.z / scale.x)), Vector3.ZERO)
	if node.get("centered"):
		var half := 0.5 * (raw.get_width() - 1.0)
		place.origin = -Vector3(half * scale.x, 0.0, half * scale.z)
	return {
		"heights": raw.duplicate(),
		"layers": layers,
		"metres": metres,
		"cell_m": scale.x,
		"height_scale": scale.y,
		"height_format": raw.get_format(),
		"transform": place,
		"region_low": Vector2i.ZERO,
		"region_side": 0,
	}


## Terrain3D's maps over the rectangle spanning its regions: `heights` and `layers` (height
## and control, `FORMAT_RF`), `metres` (the heights), `cell_m` (its `vertex_spacing`) and the
## water child's `transform`; empty (with `error`) when it has no regions.
func _read_terrain3d(node: Node3D) -> Dictionary:
	var data: Object = node.get("data")
	var locations: Array = data.call("get_region_locations") if data != null else []
	if locations.is_empty():
		_fail("%s has no regions: import or sculpt a heightmap first" % node.name)
		return {}
	var side: int = node.call("get_region_size")
	var spacing: float = node.get("vertex_spacing")
	var low: Vector2i = locations[0]
	var high: Vector2i = locations[0]
	for location: Vector2i in locations:
		low = low.min(location)
		high = high.max(location)
	var size := (high - low + Vector2i.ONE) * side
	var heights := Image.create_empty(size.x, size.y, false, Image.FORMAT_RF)
	var control := Image.create_empty(size.x, size.y, false, Image.FORMAT_RF)
	for location: Vector2i in locations:
		var region: Object = data.call("get_region", location)
		var at := (location - low) * side
		heights.blit_rect(region.call("get_height_map"), Rect2i(0, 0, side, side), at)
		control.blit_rect(region.call("get_control_map"), Rect2i(0, 0, side, side), at)
	var origin := Vector3(low.x, 0.0, low.y) * side * spacing
	return {
		"heights": heights,
		"layers": control,
		"metres": heights.duplicate(),
		"cell_m": spacing,
		"height_scale": 1.0,
		"height_format": Image.FORMAT_RF,
		"transform": Transform3D(Basis(), origin),
		"region_low": low,
		"region_side": side,
	}


static func _write_hterrain(node: Node3D, state: Dictionary) -> void:
	var data: Resource = node.call("get_data")
	var heights: Image = state["heights"]
	var whole := Rect2i(Vector2i.ZERO, heights.get_size())
	data.call("get_image", HTERRAIN_HEIGHT).copy_from(heights)
	data.call("notify_region_change", whole, HTERRAIN_HEIGHT)
	var layers: Image = state.get("layers")
	if layers != null and data.call("get_map_count", HTERRAIN_SPLAT) > 0:
		data.call("get_image", HTERRAIN_SPLAT, 0).copy_from(layers)
		data.call("notify_region_change", whole, HTERRAIN_SPLAT, 0)


## Sets each of Terrain3D's regions to its square of `state`'s heights and control map (its
## colour maps and instances stay as they are) and marks it modified, so it is saved.
static func _write_terrain3d(node: Node3D, state: Dictionary) -> void:
	var data: Object = node.get("data")
	var heights: Image = state["heights"]
	var layers: Image = state.get("layers")
	var side: int = state["region_side"]
	var whole := Rect2i(Vector2i.ZERO, heights.get_size())
	for location: Vector2i in data.call("get_region_locations"):
		var square := Rect2i((location - state["region_low"]) * side, Vector2i(side, side))
		if not whole.encloses(square):
			continue
		var region: Object = data.call("get_region", location)
		region.call("set_height_map", heights.get_region(square))
		if layers != null:
			region.call("set_control_map", layers.get_region(square))
		region.call("calc_height_range")
		region.call("set_modified", true)
	data.call("calc_height_range")
	data.call("update_maps", TERRAIN3D_ALL_MAPS, true, false)


## `image` (`FORMAT_RF`) with every value times `factor`.
static func _scaled(image: Image, factor: float) -> Image:
	var values := image.get_data().to_float32_array()
	for i in values.size():
		values[i] *= factor
	var size := image.get_size()
	return Image.create_from_data(size.x, size.y, false, Image.FORMAT_RF, values.to_byte_array())
