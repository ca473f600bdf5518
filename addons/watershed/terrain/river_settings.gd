@tool
class_name WatershedRiverSettings
extends Resource
## The settings of "Rivers for this terrain" (the Watershed toolbar button over a selected
## HTerrain or Terrain3D): every knob of HeightmapWatershed — the Erosion group, the sea,
## the river threshold, the channels — with the same names, ranges, units and defaults
## (the core's tables, as `watershed grid-world`'s flags), plus how the result is written
## back. The cell size comes from the terrain (HTerrain's `map_scale`, Terrain3D's
## `vertex_spacing`). Saved with the scene, on the terrain's WatershedTerrainWater child.

## HeightmapWatershed's properties that the terrain decides, not the designer.
const FROM_TERRAIN: Array[StringName] = [&"cell_m", &"output_side"]

## Write the ground layers too: HTerrain's splat map (bed, bank, grass, rock) or Terrain3D's
## control map (texture ids 0 bed, 1 bank, 2 grass, 3 rock). Off: only the heights change.
@export var write_ground_layers := true
## Vertex step of the water surface mesh, in cells (1: every cell).
@export_range(1, 16, 1) var water_mesh_step := 1

## The knobs' values, kept in a HeightmapWatershed of their own (it checks the ranges and
## applies the erosion presets as the node does).
var _knobs := HeightmapWatershed.new()


## A HeightmapWatershed set to these settings for cells of `cell_m` metres.
func new_watershed(cell_m: float) -> HeightmapWatershed:
	var watershed := HeightmapWatershed.new()
	for name in _knob_names():
		watershed.set(name, _knobs.get(name))
	watershed.cell_m = cell_m
	return watershed


func _get_property_list() -> Array[Dictionary]:
	var listed: Array[Dictionary] = []
	for property in _knobs.get_property_list():
		var usage: int = property["usage"]
		if usage & PROPERTY_USAGE_GROUP or usage & PROPERTY_USAGE_SUBGROUP:
			listed.append(property)
		elif _is_knob(property):
			listed.append(property)
	return listed


func _get(property: StringName) -> Variant:
	if property in _knob_names():
		return _knobs.get(property)
	return null


func _set(property: StringName, value: Variant) -> bool:
	if property in _knob_names():
		_knobs.set(property, value)
		emit_changed()
		return true
	return false


func _property_can_revert(property: StringName) -> bool:
	return property in _knob_names()


func _property_get_revert(property: StringName) -> Variant:
	return HeightmapWatershed.new().get(property)


## The names of the knobs, in HeightmapWatershed's order (a preset before the dials it sets).
func _knob_names() -> Array[StringName]:
	var names: Array[StringName] = []
	for property in _knobs.get_property_list():
		if _is_knob(property):
			names.append(StringName(property["name"]))
	return names


func _is_knob(property: Dictionary) -> bool:
	var usage: int = property["usage"]
	return (
		usage & PROPERTY_USAGE_EDITOR != 0
		and usage & PROPERTY_USAGE_STORAGE != 0
		and not StringName(property["name"]) in FROM_TERRAIN
		and property["name"] != "script"
	)
