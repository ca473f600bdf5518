extends SceneTree
## heightmap: HeightmapWatershed as an editor script or a game would use it. A valley
## heightmap falling into a sea goes through the pipeline on the worker thread (progress
## for each stage, `finished` once); the maps come back as Images of the documented formats
## and sizes (water level never NaN, flow a unit direction, Terrain3D's control words
## naming the heaviest splat layer), resample to an HTerrain side, and the meshes drawn from
## the maps are the meshes drawn from the same maps saved to files and loaded back — the
## example scene's way in. Bad input is refused with one error line each. With
## `-- --export=DIR` (a folder `watershed grid-world` wrote), the example scene loads it.

const Lib := preload("res://probes/probe_lib.gd")
const Example := preload("res://examples/heightmap/heightmap_example.tscn")
const SIDE := 96
const TIMEOUT_MS := 60000

var _lib := Lib.new()
var _stages: Array[String] = []
var _finished := 0


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var valley := _valley(SIDE)
	var hw := HeightmapWatershed.new()
	hw.cell_m = 2.0
	hw.has_sea = true
	hw.custom_river_catchment = true
	hw.river_catchment_m2 = 1600.0
	hw.channel_depth_m = 2.0
	hw.custom_channel_half_width = true
	hw.channel_half_width_m = 3.0
	hw.progress.connect(func(stage: String, _f: float) -> void: _stages.append(stage))
	hw.finished.connect(func(_s: Dictionary) -> void: _finished += 1)
	_lib.check("heightmap/start", hw.start(valley), "started", "started")
	await _lib.wait_until(self, hw.poll, TIMEOUT_MS)
	await process_frame
	_lib.check("heightmap/built", hw.is_built() and not hw.is_running(), hw.is_built(), true)
	_lib.check("heightmap/finished_once", _finished == 1, _finished, 1)
	var staged := ["settle", "drainage", "carve", "water table", "maps"].all(
		func(s: String) -> bool: return s in _stages
	)
	_lib.check("heightmap/stages", staged, _stages, "settle .. maps")
	_lib.check("heightmap/progress_done", hw.get_progress() == 1.0, hw.get_progress(), 1.0)
	var stats := hw.get_stats()
	_lib.info("heightmap/stats", stats)
	_lib.check("heightmap/uphill_water", stats["uphill_water"] == 0, stats["uphill_water"], 0)
	var fits: Array = [stats["shoreline_mismatches"], stats["water_steps"]]
	_lib.check("heightmap/water_fits", fits == [0, 0], fits, "0 shoreline mismatches, 0 steps")
	var wet_kinds: bool = stats["river_cells"] > 0 and stats["sea_cells"] > 0
	_lib.check("heightmap/river_and_sea", wet_kinds, stats, "river and sea cells")
	_check_maps(hw)
	await _check_files(hw)
	_check_resized(valley)
	_check_bad_input(valley)
	_check_erosion(valley)
	await _check_example()
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--export="):
			await _check_export(arg.trim_prefix("--export="))
	_lib.finish(self)


## A valley `side` cells square falling towards its last row, under a sea at 0 m there.
func _valley(side: int) -> Image:
	var heights := PackedFloat32Array()
	heights.resize(side * side)
	for row in side:
		for col in side:
			heights[row * side + col] = ((side - row) * 0.3 - 4.0 + absf(col - side / 2.0) * 0.4)
	return Image.create_from_data(side, side, false, Image.FORMAT_RF, heights.to_byte_array())


func _check_maps(hw: HeightmapWatershed) -> void:
	var expected := {
		"heights": Image.FORMAT_RF,
		"water_level": Image.FORMAT_RF,
		"water_mask": Image.FORMAT_RGBA8,
		"flow": Image.FORMAT_RGBF,
		"foam": Image.FORMAT_L8,
		"splat": Image.FORMAT_RGBA8,
		"control": Image.FORMAT_RF,
	}
	var images := {
		"heights": hw.get_heights(),
		"water_level": hw.get_water_level(),
		"water_mask": hw.get_water_mask(),
		"flow": hw.get_flow(),
		"foam": hw.get_foam(),
		"splat": hw.get_splat(),
		"control": hw.get_control(),
	}
	for name: String in expected:
		var image: Image = images[name]
		var ok: bool = (
			image != null
			and image.get_format() == expected[name]
			and image.get_size() == Vector2i(SIDE, SIDE)
		)
		var got := "null" if image == null else "%s %s" % [image.get_format(), image.get_size()]
		_lib.check("heightmap/image_%s" % name, ok, got, "%s %dx%d" % [expected[name], SIDE, SIDE])
	var level: PackedByteArray = images["water_level"].get_data()
	var mask: PackedByteArray = images["water_mask"].get_data()
	var heights: PackedByteArray = images["heights"].get_data()
	var flow: PackedByteArray = images["flow"].get_data()
	var splat: PackedByteArray = images["splat"].get_data()
	var control: PackedByteArray = images["control"].get_data()
	var bad := []
	var wet := 0
	for i in SIDE * SIDE:
		var l := level.decode_float(i * 4)
		if is_nan(l):
			bad.append("NaN level at %d" % i)
		if mask[i * 4 + 3] == 255:
			wet += 1
			if l <= heights.decode_float(i * 4):
				bad.append("water under its ground at %d" % i)
		var fx := flow.decode_float(i * 12)
		var fy := flow.decode_float(i * 12 + 4)
		var speed := flow.decode_float(i * 12 + 8)
		if speed > 0.0 and absf(Vector2(fx, fy).length() - 1.0) > 1e-4:
			bad.append("flow not a unit direction at %d" % i)
		var word := control.decode_u32(i * 4)
		var base := (word >> 27) & 0x1F
		var heaviest := 0
		for k in 4:
			heaviest = maxi(heaviest, splat[i * 4 + k])
		if splat[i * 4 + base] != heaviest:
			bad.append("control base %d is not the heaviest layer at %d" % [base, i])
		if bad.size() > 5:
			break
	_lib.check("heightmap/maps_agree", bad.is_empty() and wet > 0, "%d wet cells" % wet, bad)
	var terrain := hw.terrain_mesh(1)
	var water := hw.water_mesh(1)
	var triangles := (SIDE - 1) * (SIDE - 1) * 2
	var faces := terrain.get_faces().size() / 3
	_lib.check("heightmap/terrain_mesh", faces == triangles, faces, triangles)
	var water_faces := water.get_faces().size() / 3
	_lib.check(
		"heightmap/water_mesh", water_faces > 0 and water_faces < triangles, water_faces, "some"
	)
	var coarse := hw.terrain_mesh(4).get_faces().size() / 3
	_lib.check("heightmap/mesh_step", coarse == 24 * 24 * 2, coarse, 24 * 24 * 2)


## The maps saved as files (EXR and PNG, as grid-world writes them) load back into the same
## meshes.
func _check_files(hw: HeightmapWatershed) -> void:
	var dir := OS.get_user_data_dir().path_join("heightmap_probe")
	DirAccess.make_dir_recursive_absolute(dir)
	hw.get_heights().save_exr(dir.path_join("heights.exr"))
	hw.get_water_level().save_exr(dir.path_join("water_level.exr"))
	hw.get_splat().save_png(dir.path_join("splat.png"))
	hw.get_water_mask().save_png(dir.path_join("water_mask.png"))
	var info := FileAccess.open(dir.path_join("import.json"), FileAccess.WRITE)
	info.store_string(JSON.stringify({"vertex_spacing_m": hw.get_map_cell_m()}))
	info.close()
	var loaded_level := Image.load_from_file(dir.path_join("water_level.exr"))
	var mask := Image.load_from_file(dir.path_join("water_mask.png"))
	var from_files := HeightmapWatershed.water_mesh_from(loaded_level, mask, 2.0, 1)
	var same := from_files.get_faces() == hw.water_mesh(1).get_faces()
	_lib.check("heightmap/files_same_water_mesh", same, from_files.get_faces().size(), "equal")
	var scene := Example.instantiate()
	scene.export_folder = dir
	root.add_child(scene)
	await process_frame
	var faces: int = scene.get_node("Terrain").mesh.get_faces().size() / 3
	var expected := (SIDE - 1) * (SIDE - 1) * 2
	_lib.check("heightmap/example_loads_files", faces == expected, faces, expected)
	scene.queue_free()


## output_side resamples a square map: 96 cells onto 33, each 2 m cell becoming 5.9375 m.
func _check_resized(valley: Image) -> void:
	var hw := HeightmapWatershed.new()
	hw.cell_m = 2.0
	hw.output_side = 33
	var built := hw.build(valley)
	var size := hw.get_water_mask().get_size() if built else Vector2i.ZERO
	_lib.check("heightmap/output_side", size == Vector2i(33, 33), size, Vector2i(33, 33))
	var cell := hw.get_map_cell_m()
	_lib.check("heightmap/output_cell", is_equal_approx(cell, 95.0 * 2.0 / 32.0), cell, 5.9375)
	_lib.check(
		"heightmap/hterrain_side",
		HeightmapWatershed.hterrain_side(2113, 2113) == 2049,
		HeightmapWatershed.hterrain_side(2113, 2113),
		2049
	)


## Each refused with false and one error line.
func _check_bad_input(valley: Image) -> void:
	var hw := HeightmapWatershed.new()
	var rgba := Image.create_empty(8, 8, false, Image.FORMAT_RGBA8)
	var nan := valley.duplicate()
	nan.set_pixel(5, 7, Color(NAN, 0, 0))
	var tiny := Image.create_empty(2, 2, false, Image.FORMAT_RF)
	var wide := Image.create_empty(40, 20, false, Image.FORMAT_RF)
	_lib.begin_expected("heightmap/bad_input")
	var refused := [hw.start(null), hw.start(rgba), hw.start(nan), hw.start(tiny)]
	hw.output_side = 513
	refused.append(hw.start(wide))
	var meshes := [
		HeightmapWatershed.terrain_mesh_from(rgba, null, 1.0, 1),
		HeightmapWatershed.water_mesh_from(valley, null, 1.0, 1),
		HeightmapWatershed.terrain_mesh_from(valley, null, -1.0, 1),
	]
	_lib.end_expected("heightmap/bad_input", 8)
	var all_refused := refused.all(func(r: bool) -> bool: return not r)
	_lib.check("heightmap/bad_input_refused", all_refused, refused, "all false")
	var no_mesh := meshes.all(func(m: Variant) -> bool: return m == null)
	_lib.check("heightmap/bad_input_no_mesh", no_mesh, meshes, "all null")
	_lib.check("heightmap/not_running", not hw.is_running(), hw.is_running(), false)


## The Erosion group: a preset sets the model's dials (and a preset the model lacks is
## refused with one error line, the dials kept); an eroded build's heights differ from an
## uneroded one's; a dial out of range refuses the start.
func _check_erosion(valley: Image) -> void:
	var hw := HeightmapWatershed.new()
	hw.cell_m = 2.0
	hw.erosion_model = 2
	var default_carry: float = hw.get("water_sediment_carry")
	hw.erosion_preset = "gorges"
	var gorges_carry: float = hw.get("water_sediment_carry")
	var set_by_preset := gorges_carry != default_carry and hw.erosion_preset == "gorges"
	var seen := "carry %s -> %s" % [default_carry, gorges_carry]
	_lib.check("heightmap/erosion_preset", set_by_preset, seen, "the gorges preset's carry")
	hw.erosion_model = 1
	var droplets_before: float = hw.get("droplets_carry")
	_lib.begin_expected("heightmap/erosion_bad_preset")
	hw.erosion_preset = "gpu-rocks"
	_lib.end_expected("heightmap/erosion_bad_preset", 1)
	var kept: bool = hw.get("droplets_carry") == droplets_before and hw.erosion_preset == "gorges"
	_lib.check("heightmap/erosion_bad_preset_kept", kept, hw.erosion_preset, "gorges, dials kept")
	var plain := HeightmapWatershed.new()
	plain.cell_m = 2.0
	var built := plain.build(valley) and hw.build(valley)
	var plain_heights := plain.get_heights() if built else null
	var eroded_heights := hw.get_heights() if built else null
	var moved := 0
	if built:
		for y in range(0, SIDE, 4):
			for x in range(0, SIDE, 4):
				if plain_heights.get_pixel(x, y).r != eroded_heights.get_pixel(x, y).r:
					moved += 1
	var cells := "%d of %d sampled cells differ" % [moved, (SIDE / 4) * (SIDE / 4)]
	_lib.check("heightmap/erosion_moves_ground", built and moved > 0, cells, "some")
	hw.set("droplets_radius", 1e9)
	_lib.begin_expected("heightmap/erosion_bad_dial")
	var refused := not hw.start(valley)
	_lib.end_expected("heightmap/erosion_bad_dial", 1)
	_lib.check("heightmap/erosion_bad_dial_refused", refused, refused, true)


## The example scene, as shipped: a noise heightmap through the pipeline, meshes in place.
func _check_example() -> void:
	var scene := Example.instantiate()
	var done := [false]
	scene.built.connect(func(_s: Dictionary) -> void: done[0] = true)
	root.add_child(scene)
	var started := Time.get_ticks_msec()
	await _lib.wait_until(self, func() -> bool: return done[0], TIMEOUT_MS, started)
	var terrain: Mesh = scene.get_node("Terrain").mesh
	var water: Mesh = scene.get_node("Water").mesh
	var ok: bool = done[0] and terrain != null and water != null and water.get_faces().size() > 0
	_lib.check("heightmap/example_builds", ok, done[0], true)
	_lib.info("heightmap/example_ms", Time.get_ticks_msec() - started)
	scene.queue_free()
	await process_frame


## What `watershed grid-world` wrote into `folder` (its terrain3d/): its report says the water
## fits the ground, the example scene draws it whole, and the control map loads as
## FORMAT_RF words naming texture ids 0 to 3.
func _check_export(folder: String) -> void:
	var report: Variant = JSON.parse_string(
		FileAccess.get_file_as_string(folder.path_join("../report.json"))
	)
	var fits: Array = (
		[report["shoreline_mismatches"], report["water_steps"], report["uphill_water"]]
		if report is Dictionary
		else []
	)
	_lib.check("heightmap/export_water_fits", fits == [0.0, 0.0, 0.0], fits, [0, 0, 0])
	var heights := Image.load_from_file(folder.path_join("heights.exr"))
	var control := Image.load_from_file(folder.path_join("control.exr"))
	var formats := [heights.get_format(), control.get_format()]
	var rf := formats == [Image.FORMAT_RF, Image.FORMAT_RF]
	_lib.check("heightmap/export_formats", rf, formats, [Image.FORMAT_RF, Image.FORMAT_RF])
	var words := control.get_data()
	var ids := {}
	for i in range(0, words.size(), 4 * 97):
		ids[(words.decode_u32(i) >> 27) & 0x1F] = true
	var known := ids.keys().all(func(id: int) -> bool: return id <= 3)
	_lib.check("heightmap/export_control_ids", known and not ids.is_empty(), ids.keys(), "0..3")
	var scene := Example.instantiate()
	scene.export_folder = folder
	root.add_child(scene)
	await process_frame
	var size := heights.get_size()
	var expected := (size.x - 1) * (size.y - 1) * 2
	var faces: int = scene.get_node("Terrain").mesh.get_faces().size() / 3
	_lib.check("heightmap/export_terrain", faces == expected, faces, expected)
	var water: Mesh = scene.get_node("Water").mesh
	var wet := water.get_faces().size() / 3
	_lib.check("heightmap/export_water", wet > 0, wet, "some")
	scene.queue_free()
	await process_frame
