extends Node3D
## Rivers on a heightmap without any terrain add-on. With `export_folder` empty, a noise
## heightmap goes through HeightmapWatershed on a worker thread (the status line shows each
## stage); with `export_folder` set to a folder `watershed grid-world` wrote (its terrain3d/
## or hterrain/), the exported maps are loaded instead. Either way the carved ground is drawn
## as a grid mesh coloured by its splat map and the water as a mesh of the level map over the
## cells the water mask marks.

## Emitted once the meshes are in place, with the figures (empty when loaded from files).
signal built(stats: Dictionary)

## A folder of maps written by `watershed grid-world` (terrain3d/ or hterrain/); empty:
## make a heightmap from noise and run the pipeline here.
@export_dir var export_folder := ""
## Cells a side of the noise heightmap.
@export_range(33, 1025, 1) var noise_side := 257
## Metres between the cells of the noise heightmap.
@export_range(0.25, 16.0, 0.25, "suffix:m") var cell_m := 2.0
## Seed of the noise heightmap.
@export var noise_seed := 7
## Every how many cells a mesh vertex.
@export_range(1, 16, 1) var mesh_step := 1

var _watershed: HeightmapWatershed

@onready var _terrain: MeshInstance3D = $Terrain
@onready var _water: MeshInstance3D = $Water
@onready var _camera: Camera3D = $Camera
@onready var _status: Label = $UI/Status


func _ready() -> void:
	if export_folder.is_empty():
		_run_pipeline()
	else:
		_load_export(export_folder)


func _process(_delta: float) -> void:
	if _watershed != null and _watershed.is_running():
		_watershed.poll()


## Starts the pipeline on a noise heightmap whose far edge dips under a sea at 0 m.
func _run_pipeline() -> void:
	_watershed = HeightmapWatershed.new()
	_watershed.cell_m = cell_m
	_watershed.has_sea = true
	_watershed.sea_level_m = 0.0
	_watershed.channel_depth_m = 4.0
	_watershed.custom_channel_half_width = true
	_watershed.channel_half_width_m = 2.0 * cell_m
	_watershed.custom_river_catchment = true
	_watershed.river_catchment_m2 = 5000.0
	_watershed.progress.connect(_on_progress)
	_watershed.finished.connect(_on_finished)
	if not _watershed.start(_noise_heightmap()):
		_status.text = "The heightmap was refused; see the output."


## A `noise_side`² FORMAT_RF heightmap, metres: fractal noise on a slope down to the sea.
func _noise_heightmap() -> Image:
	var noise := FastNoiseLite.new()
	noise.seed = noise_seed
	noise.frequency = 2.0 / (noise_side * cell_m)
	noise.fractal_octaves = 5
	var heights := PackedFloat32Array()
	heights.resize(noise_side * noise_side)
	for row in noise_side:
		var fall := 45.0 * (1.0 - float(row) / (noise_side - 1)) - 8.0
		for col in noise_side:
			var n := noise.get_noise_2d(col * cell_m, row * cell_m)
			heights[row * noise_side + col] = fall + 30.0 * n
	return Image.create_from_data(
		noise_side, noise_side, false, Image.FORMAT_RF, heights.to_byte_array()
	)


func _on_progress(stage: String, fraction: float) -> void:
	_status.text = "Watershed: %s (%d %%)" % [stage, roundi(fraction * 100.0)]


func _on_finished(stats: Dictionary) -> void:
	_terrain.mesh = _watershed.terrain_mesh(mesh_step)
	_water.mesh = _watershed.water_mesh(mesh_step)
	_status.text = (
		"%d river cells, %d lake cells, %d sea cells; shoreline mismatches %d, water steps %d"
		% [
			stats["river_cells"],
			stats["lake_cells"],
			stats["sea_cells"],
			stats["shoreline_mismatches"],
			stats["water_steps"],
		]
	)
	_frame(noise_side * cell_m)
	built.emit(stats)


## Loads the maps `watershed grid-world` wrote into `folder`.
func _load_export(folder: String) -> void:
	var info: Variant = JSON.parse_string(
		FileAccess.get_file_as_string(folder.path_join("import.json"))
	)
	if not info is Dictionary:
		_status.text = "No import.json in %s" % folder
		return
	var spacing: float = info.get("vertex_spacing_m", info.get("cell_m", 1.0))
	var heights := Image.load_from_file(folder.path_join("heights.exr"))
	var splat := Image.load_from_file(folder.path_join("splat.png"))
	var level := Image.load_from_file(folder.path_join("water_level.exr"))
	var mask := Image.load_from_file(folder.path_join("water_mask.png"))
	_terrain.mesh = HeightmapWatershed.terrain_mesh_from(heights, splat, spacing, mesh_step)
	_water.mesh = HeightmapWatershed.water_mesh_from(level, mask, spacing, mesh_step)
	_status.text = "Loaded %s" % folder
	_frame(heights.get_width() * spacing)
	built.emit({})


## Points the camera at the map from above its near edge.
func _frame(size_m: float) -> void:
	var centre := Vector3(size_m / 2.0, 0.0, size_m / 2.0)
	_camera.position = centre + Vector3(0.0, size_m * 0.45, size_m * 0.85)
	_camera.look_at(centre)
	_camera.far = size_m * 4.0
