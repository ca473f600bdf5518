@tool
extends EditorPlugin
## The "Rivers for this terrain" probe (probes/clients.sh enables it in its scratch project
## beside Watershed, HTerrain and Terrain3D): in the editor, on an HTerrain and on a
## Terrain3D holding a made-up valley, selects the terrain, presses the run through the
## Watershed toolbar button and checks that the heights changed where the rivers are (rivers
## and lakes from a separate HeightmapWatershed run on the same ground), that the water child
## is drawn by the shipped flow shader, that one undo gives back every cell and no water,
## that redo gives the run back, that running again is idempotent, that a run with other
## settings starts from the ground before the first run, and that a Path3D child is cut in
## as a river. The heights are read
## through each add-on's own API. Prints PASS/FAIL lines and quits.
##
## With the environment variable FRAME set (and a renderer: the editor under Xvfb) it also
## writes there a frame of the HTerrain after its run, its rivers and lakes drawn by the
## shipped water shader and its ground by HTerrain's classic4 shader from the splat map.

const Checks := preload("res://probes/probe_checks.gd")
const Valley := preload("res://addons/watershed_rivers_probe/valley.gd")
const TerrainRivers := preload("res://addons/watershed/terrain/terrain_rivers.gd")
const FlowShader := preload("res://addons/watershed/terrain/flow_water.gdshader")
const SCENE := "res://rivers_probe.tscn"
const RUN_TIMEOUT_MS := 120000
## HTerrain's side (2ⁿ + 1) and cell, Terrain3D's size (two regions) and vertex spacing.
const HTERRAIN_SIDE := 257
const HTERRAIN_CELL_M := 4.0
const TERRAIN3D_SIZE := Vector2i(512, 256)
const TERRAIN3D_CELL_M := 2.0
## The frame's size, pixels, and the plain colours given to HTerrain's four ground textures:
## the splat map's bed, bank, grass and rock.
const FRAME_SIZE := Vector2i(1280, 720)
const GROUND_COLORS: Array[Color] = [
	Color(0.2, 0.16, 0.11), Color(0.42, 0.36, 0.25), Color(0.16, 0.24, 0.08), Color(0.3, 0.29, 0.27)
]

var _lib := Checks.new()


func _enter_tree() -> void:
	_run.call_deferred()


func _run() -> void:
	await _lib.wait_frames(get_tree(), 10)
	var holder := Node3D.new()
	holder.name = "Rivers"
	var packed := PackedScene.new()
	packed.pack(holder)
	holder.free()
	ResourceSaver.save(packed, SCENE)
	EditorInterface.open_scene_from_path(SCENE)
	await _lib.wait_frames(get_tree(), 2)
	var scene := EditorInterface.get_edited_scene_root()
	var found := EditorInterface.get_base_control().find_children(
		"WatershedTerrainButton", "", true, false
	)
	_lib.check("rivers/button", found.size() == 1, found.size(), "one toolbar button")
	if scene == null or found.size() != 1:
		_finish()
		return
	var button: Control = found[0]
	var hterrain := _hterrain(scene)
	await _case("hterrain", hterrain, button)
	if OS.get_environment("FRAME") != "":
		await _write_frame(hterrain, OS.get_environment("FRAME"))
	var terrain3d := await _terrain3d(scene)
	if terrain3d != null:
		await _case("terrain3d", terrain3d, button)
	_finish()


## One terrain through the button: run, undo, redo, run again.
func _case(kind: String, terrain: Node3D, button: Control) -> void:
	EditorInterface.get_selection().clear()
	EditorInterface.get_selection().add_node(terrain)
	await _lib.wait_frames(get_tree(), 2)
	_lib.check(
		"rivers/%s_button_shown" % kind, button.visible, button.visible, "shown for the terrain"
	)
	var original := _heights(terrain)
	var started := Time.get_ticks_msec()
	var ran: bool = await _press(button, terrain)
	_lib.check("rivers/%s_run" % kind, ran, "%d ms" % (Time.get_ticks_msec() - started), "a run in")
	if not ran:
		return
	var carved := _heights(terrain)
	_check_carved(kind, terrain, original, carved)
	var water := TerrainRivers.water_of(terrain)
	var drawn: bool = (
		water != null
		and water.mesh != null
		and water.mesh.get_surface_count() > 0
		and water.material_override is ShaderMaterial
		and water.material_override.shader == FlowShader
	)
	_lib.check("rivers/%s_water" % kind, drawn, water, "a water child drawn by flow_water.gdshader")
	_lib.check(
		"rivers/%s_water_owned" % kind,
		water != null and water.owner == terrain.owner,
		water.owner if water != null else null,
		"saved with the scene"
	)
	var history := get_undo_redo().get_history_undo_redo(
		get_undo_redo().get_object_history_id(terrain)
	)
	history.undo()
	var undone := _heights(terrain)
	_lib.check(
		"rivers/%s_undo" % kind,
		undone == original and TerrainRivers.water_of(terrain) == null,
		(
			"%d cells differ, water %s"
			% [_differing(undone, original), TerrainRivers.water_of(terrain)]
		),
		"every cell back and no water"
	)
	history.redo()
	var redone := _heights(terrain)
	_lib.check(
		"rivers/%s_redo" % kind,
		redone == carved and TerrainRivers.water_of(terrain) == water,
		"%d cells differ" % _differing(redone, carved),
		"the run back"
	)
	ran = await _press(button, terrain)
	var again := _heights(terrain)
	var waters := terrain.get_children().filter(func(c: Node) -> bool: return c == water)
	_lib.check(
		"rivers/%s_idempotent" % kind,
		ran and again == carved and waters.size() == 1 and TerrainRivers.water_of(terrain) == water,
		"%d cells differ from the first run" % _differing(again, carved),
		"the same heights and the same water child"
	)
	history.undo()
	_lib.check(
		"rivers/%s_undo_second" % kind,
		_heights(terrain) == carved and TerrainRivers.water_of(terrain) == water,
		"%d cells differ" % _differing(_heights(terrain), carved),
		"the first run's heights and water"
	)
	await _check_other_settings(kind, terrain, button, carved)
	await _check_drawn_river(kind, terrain, button, original, carved)


## Non-destructive: a run with other settings (droplet erosion, shallower channels) changes
## the heights, and a run with the first settings again gives the first run's heights back,
## since each run starts from the terrain's heights before the first.
func _check_other_settings(
	kind: String, terrain: Node3D, button: Control, carved: PackedFloat32Array
) -> void:
	var settings: Resource = button.settings_of(terrain)
	settings.set("erosion_model", 1)
	settings.set("erosion_steps", 20000)
	settings.set("channel_depth_m", 4.0)
	var ran: bool = await _press(button, terrain)
	var other := _heights(terrain)
	_lib.check(
		"rivers/%s_other_settings" % kind,
		ran and other != carved,
		"%d cells differ from the first run" % _differing(other, carved),
		"droplet erosion and 4 m channels change the heights"
	)
	for knob: String in ["erosion_model", "erosion_steps", "channel_depth_m"]:
		settings.set(knob, settings.property_get_revert(knob))
	ran = await _press(button, terrain)
	var back := _heights(terrain)
	_lib.check(
		"rivers/%s_from_original" % kind,
		ran and back == carved,
		"%d cells differ from the first run" % _differing(back, carved),
		"the first settings again give the first run's heights"
	)


## A river drawn as a Path3D child down the valley's flank: the run gives the heights of a
## HeightmapWatershed told of the same curve in cells (so the button hands the curve over
## where it lies on the map), water along most of it, and without the path the first run's
## heights again.
func _check_drawn_river(
	kind: String,
	terrain: Node3D,
	button: Control,
	original: PackedFloat32Array,
	carved: PackedFloat32Array
) -> void:
	var size := _size(terrain)
	var cells := PackedVector2Array(
		[
			Vector2(0.16, 0.86) * Vector2(size),
			Vector2(0.24, 0.5) * Vector2(size),
			Vector2(0.18, 0.16) * Vector2(size)
		]
	)
	var path := Path3D.new()
	path.name = "DrawnRiver"
	path.curve = Curve3D.new()
	for cell in cells:
		path.curve.add_point(Vector3(cell.x, 0.0, cell.y) * _cell_m(terrain))
	terrain.add_child(path)
	var ran: bool = await _press(button, terrain)
	var drawn := _heights(terrain)
	var reference := HeightmapWatershed.new()
	reference.cell_m = _cell_m(terrain)
	var curve := PackedVector2Array()
	for point in path.curve.get_baked_points():
		curve.append(Vector2(point.x, point.z) / _cell_m(terrain))
	reference.set_drawn_rivers([curve])
	var ground := Image.create_from_data(
		size.x, size.y, false, Image.FORMAT_RF, original.to_byte_array()
	)
	var built := reference.build(ground)
	var expected := reference.get_heights().get_data().to_float32_array() if built else []
	var mask := reference.get_water_mask() if built else null
	var wet := 0
	for point in curve:
		var at := Vector2i(point.round())
		if mask != null and mask.get_pixelv(at.clamp(Vector2i.ZERO, size - Vector2i.ONE)).a > 0.5:
			wet += 1
	_lib.check(
		"rivers/%s_drawn_river" % kind,
		ran and built and drawn == expected and drawn != carved and wet * 10 >= curve.size() * 7,
		(
			"%d cells differ from the reference, %d from the first run; %d of %d curve points wet"
			% [_differing(drawn, expected), _differing(drawn, carved), wet, curve.size()]
		),
		"the curve cut and made a river, as HeightmapWatershed makes it"
	)
	terrain.remove_child(path)
	path.free()
	ran = await _press(button, terrain)
	_lib.check(
		"rivers/%s_drawn_river_removed" % kind,
		ran and _heights(terrain) == carved,
		"%d cells differ from the first run" % _differing(_heights(terrain), carved),
		"without the path, the first run's heights"
	)


## Runs the button on `terrain` and waits for it; whether the run was applied.
func _press(button: Control, terrain: Node3D) -> bool:
	var outcome := []
	var on_done := func(applied: bool) -> void: outcome.append(applied)
	button.done.connect(on_done)
	var started: bool = button.run(terrain)
	if started:
		var finished := func() -> bool: return not outcome.is_empty()
		await _lib.wait_until(get_tree(), finished, RUN_TIMEOUT_MS)
	button.done.disconnect(on_done)
	return started and outcome == [true]


## The carved heights against the original: changed, and mostly on or beside water (rivers
## and lakes of a separate HeightmapWatershed run on the original ground).
func _check_carved(
	kind: String, terrain: Node3D, original: PackedFloat32Array, carved: PackedFloat32Array
) -> void:
	var size := _size(terrain)
	var watershed := HeightmapWatershed.new()
	watershed.cell_m = _cell_m(terrain)
	var bytes := original.to_byte_array()
	var ground := Image.create_from_data(size.x, size.y, false, Image.FORMAT_RF, bytes)
	if not watershed.build(ground):
		_lib.check("rivers/%s_reference" % kind, false, "no build", "a reference run")
		return
	var mask := watershed.get_water_mask()
	var changed := 0
	var by_water := 0
	var wet_changed := 0
	for z in size.y:
		for x in size.x:
			var i := z * size.x + x
			if absf(carved[i] - original[i]) < 1e-3:
				continue
			changed += 1
			if mask.get_pixel(x, z).a > 0.5:
				wet_changed += 1
			if _beside_water(mask, x, z):
				by_water += 1
	_lib.check(
		"rivers/%s_carved" % kind,
		wet_changed > 0 and by_water * 2 >= changed,
		"%d cells changed, %d under water, %d on or beside it" % [changed, wet_changed, by_water],
		"changes where the rivers and lakes are"
	)


## Whether cell (x, z) or a neighbour is wet in `mask`.
func _beside_water(mask: Image, x: int, z: int) -> bool:
	for dz in range(-1, 2):
		for dx in range(-1, 2):
			var at := Vector2i(x + dx, z + dz)
			if at.x >= 0 and at.y >= 0 and at.x < mask.get_width() and at.y < mask.get_height():
				if mask.get_pixelv(at).a > 0.5:
					return true
	return false


func _differing(a: PackedFloat32Array, b: PackedFloat32Array) -> int:
	if a.size() != b.size():
		return maxi(a.size(), b.size())
	var count := 0
	for i in a.size():
		if a[i] != b[i]:
			count += 1
	return count


## An HTerrain in `scene` holding the valley, made through HTerrain's own data class.
func _hterrain(scene: Node) -> Node3D:
	var data: Resource = load("res://addons/zylann.hterrain/hterrain_data.gd").new()
	data.call("resize", HTERRAIN_SIDE)
	var height: Image = data.call("get_image", 0)
	var valley := Valley.heights(HTERRAIN_SIDE, HTERRAIN_SIDE, HTERRAIN_CELL_M)
	valley.convert(height.get_format())
	height.copy_from(valley)
	data.call("notify_full_change")
	var terrain: Node3D = load("res://addons/zylann.hterrain/hterrain.gd").new()
	terrain.name = "HTerrain"
	terrain.set("map_scale", Vector3(HTERRAIN_CELL_M, 1.0, HTERRAIN_CELL_M))
	terrain.call("set_data", data)
	scene.add_child(terrain)
	terrain.owner = scene
	return terrain


## A Terrain3D in `scene` holding the valley over two regions, imported through its own
## `import_images`; null (with a FAIL) when the extension is not loaded.
func _terrain3d(scene: Node) -> Node3D:
	if not ClassDB.class_exists("Terrain3D"):
		_lib.check("rivers/terrain3d_loaded", false, "no Terrain3D class", "the extension loaded")
		return null
	var terrain: Node3D = ClassDB.instantiate("Terrain3D")
	terrain.name = "Terrain3D"
	terrain.set("vertex_spacing", TERRAIN3D_CELL_M)
	scene.add_child(terrain)
	terrain.owner = scene
	await _lib.wait_frames(get_tree(), 2)
	var valley := Valley.heights(TERRAIN3D_SIZE.x, TERRAIN3D_SIZE.y, TERRAIN3D_CELL_M)
	var images: Array[Image] = [valley, null, null]
	terrain.get("data").call("import_images", images, Vector3.ZERO, 0.0, 1.0)
	_lib.info("rivers/terrain3d_regions", terrain.get("data").call("get_region_count"))
	return terrain


## A frame of `terrain` and its water, seen from above the valley's head, to `path`.
func _write_frame(terrain: Node3D, path: String) -> void:
	var textures: Resource = terrain.call("get_texture_set")
	while textures.call("get_slots_count") < GROUND_COLORS.size():
		textures.call("insert_slot", -1)
	for slot in GROUND_COLORS.size():
		var plain := Image.create_empty(8, 8, false, Image.FORMAT_RGBA8)
		plain.fill(GROUND_COLORS[slot])
		textures.call("set_texture", slot, 0, ImageTexture.create_from_image(plain))
	var view := SubViewport.new()
	view.size = FRAME_SIZE
	view.world_3d = EditorInterface.get_editor_viewport_3d(0).world_3d
	view.render_target_update_mode = SubViewport.UPDATE_ALWAYS
	var camera := Camera3D.new()
	camera.fov = 50.0
	camera.far = 6000.0
	camera.environment = _frame_environment()
	view.add_child(camera)
	var sun := DirectionalLight3D.new()
	sun.rotation_degrees = Vector3(-40.0, 150.0, 0.0)
	sun.light_energy = 0.8
	sun.shadow_enabled = true
	view.add_child(sun)
	add_child(view)
	var side := (HTERRAIN_SIDE - 1) * HTERRAIN_CELL_M
	camera.look_at_from_position(
		Vector3(0.5 * side, 330.0, 1.25 * side), Vector3(0.5 * side, 40.0, 0.25 * side)
	)
	await _lib.wait_frames(get_tree(), 90)
	await RenderingServer.frame_post_draw
	var frame := view.get_texture().get_image()
	view.queue_free()
	var saved := frame.save_png(path)
	_lib.check("rivers/frame", saved == OK, path, "a frame of the HTerrain and its water")


func _frame_environment() -> Environment:
	var sky := Sky.new()
	var look := ProceduralSkyMaterial.new()
	look.ground_bottom_color = look.sky_horizon_color
	look.ground_horizon_color = look.sky_horizon_color
	sky.sky_material = look
	var environment := Environment.new()
	environment.background_mode = Environment.BG_SKY
	environment.sky = sky
	environment.ambient_light_source = Environment.AMBIENT_SOURCE_SKY
	environment.tonemap_mode = Environment.TONE_MAPPER_FILMIC
	return environment


func _size(terrain: Node3D) -> Vector2i:
	if terrain.is_class("Terrain3D"):
		return TERRAIN3D_SIZE
	return Vector2i(HTERRAIN_SIDE, HTERRAIN_SIDE)


func _cell_m(terrain: Node3D) -> float:
	return TERRAIN3D_CELL_M if terrain.is_class("Terrain3D") else HTERRAIN_CELL_M


## Every cell's height, metres, row by row, read through the add-on's own API.
func _heights(terrain: Node3D) -> PackedFloat32Array:
	if not terrain.is_class("Terrain3D"):
		var image: Image = terrain.call("get_data").call("get_image", 0).duplicate()
		image.convert(Image.FORMAT_RF)
		return image.get_data().to_float32_array()
	var data: Object = terrain.get("data")
	var values := PackedFloat32Array()
	values.resize(TERRAIN3D_SIZE.x * TERRAIN3D_SIZE.y)
	for z in TERRAIN3D_SIZE.y:
		for x in TERRAIN3D_SIZE.x:
			var at := Vector3(x, 0.0, z) * TERRAIN3D_CELL_M
			values[z * TERRAIN3D_SIZE.x + x] = data.call("get_height", at)
	return values


func _finish() -> void:
	print("rivers: %d passed, %d failed" % [_lib.passes, _lib.failures])
	get_tree().quit(1 if _lib.failures > 0 else 0)
