@tool
class_name WatershedTerrainWater
extends MeshInstance3D
## The water "Rivers for this terrain" adds under an HTerrain or Terrain3D node: the rivers,
## lakes and sea of the last run as one mesh drawn by the shipped flow-map water shader
## (flow_water.gdshader), the run's settings (select this node to tune them, then press the
## button again), and the terrain's heightmap as it was before Watershed first carved it, so
## every run starts from the designer's ground and not from the last run's.

const FlowShader := preload("res://addons/watershed/terrain/flow_water.gdshader")
const RiverSettings := preload("res://addons/watershed/terrain/river_settings.gd")
## Side of the generated ripple normal maps, pixels.
const RIPPLE_SIDE := 256

## The settings of the next run (a new WatershedRiverSettings with the defaults when empty).
@export var settings: RiverSettings
## The heightmap before Watershed's first run, metres (`FORMAT_RF`), map cells as the
## terrain's; each run starts from it unless the terrain was edited since the last run.
@export_storage var original_heights: Image
## Edge of a map cell, metres, and the map's cells along x and z, as of the last run.
@export_storage var cell_m := 1.0
@export_storage var map_cells := Vector2i.ONE
## Hash of the terrain's heights as the last run left them (in the terrain's format): equal
## to the terrain's when nobody has edited it since.
@export_storage var carved_digest := 0
## Flow and foam of the last run (HeightmapWatershed.get_flow_foam()).
@export_storage var flow_foam: Image:
	set(value):
		flow_foam = value
		_dress()


func _ready() -> void:
	_dress()


## The material is made from the maps, so the scene stores the maps and not it too.
func _validate_property(property: Dictionary) -> void:
	if property["name"] == "material_override":
		property["usage"] &= ~PROPERTY_USAGE_STORAGE


## What one run set here: the `mesh`, `flow_foam`, `cell_m`, `map_cells`,
## `original_heights`, `carved_digest` and `transform`, to give back to `set_state` (undo
## keeps one of these).
func get_state() -> Dictionary:
	return {
		"mesh": mesh,
		"flow_foam": flow_foam,
		"cell_m": cell_m,
		"map_cells": map_cells,
		"original_heights": original_heights,
		"carved_digest": carved_digest,
		"transform": transform,
	}


## Sets what `get_state` gave, or a run's result in the same keys.
func set_state(state: Dictionary) -> void:
	mesh = state.get("mesh")
	cell_m = state.get("cell_m", 1.0)
	map_cells = state.get("map_cells", Vector2i.ONE)
	original_heights = state.get("original_heights")
	carved_digest = state.get("carved_digest", 0)
	transform = state.get("transform", Transform3D())
	flow_foam = state.get("flow_foam")


## The shader's material for the current maps (a new one each time the maps change).
func _dress() -> void:
	if flow_foam == null:
		material_override = null
		return
	var material := ShaderMaterial.new()
	material.shader = FlowShader
	material.set_shader_parameter("flow_foam", ImageTexture.create_from_image(flow_foam))
	material.set_shader_parameter("full_speed_m_s", HeightmapWatershed.flow_foam_full_speed())
	material.set_shader_parameter("map_cells", Vector2(map_cells))
	material.set_shader_parameter("cell_m", cell_m)
	material.set_shader_parameter("normal_a", _ripples(11))
	material.set_shader_parameter("normal_b", _ripples(29))
	material_override = material


## A tiling normal map of small ripples from noise seeded `seed`.
static func _ripples(seed: int) -> NoiseTexture2D:
	var noise := FastNoiseLite.new()
	noise.seed = seed
	noise.frequency = 0.02
	noise.fractal_octaves = 3
	var texture := NoiseTexture2D.new()
	texture.width = RIPPLE_SIDE
	texture.height = RIPPLE_SIDE
	texture.seamless = true
	texture.as_normal_map = true
	texture.bump_strength = 6.0
	texture.generate_mipmaps = true
	texture.noise = noise
	return texture
