@tool
extends EditorPlugin
## The editor probe (probes/editor.sh enables it in a fresh copy of the demo): opens
## main.tscn as a designer does and checks what the editor shows of it — the planet solved,
## its places set out (the walker at the spawn, the village's houses, the mill, the crate and
## the boat), the camera out of the planet, the rivers and lakes drawn, the Watershed panel's
## map and figures (equal to `watershed generate --world home`'s report.json), a click on the
## map, the exports, the inspector's groups and ranges, an edit through undo/redo and its
## undo (the same planet back), and the lake handle. Prints PASS/FAIL lines and quits.
## With the environment variable FRAME set, it only writes a frame of the editor there.

const Lib := preload("res://probes/probe_lib.gd")
const SCENE := "res://main.tscn"
const REPORT := "res://probes/home_report.json"
const SOLVE_TIMEOUT_MS := 120000
## The inspector's groups of WorldSettings, in order.
const GROUPS: Array[String] = ["Identity", "Shape", "Subsystems", "Erosion", "Climate", "Look"]

var _lib := Lib.new()
var _solves := 0
## The panel (once found) and the stage lines it showed while the probe waited for solves.
var _panel_node: Control
var _stages_seen := {}


func _enter_tree() -> void:
	_run.call_deferred()


func _run() -> void:
	await _lib.wait_frames(get_tree(), 10)
	EditorInterface.open_scene_from_path(SCENE)
	await get_tree().process_frame
	var root := EditorInterface.get_edited_scene_root()
	_lib.check("editor/scene_open", root != null and root.scene_file_path == SCENE, root, SCENE)
	if root == null:
		_lib.finish(get_tree())
		return
	var solver: DrainageSolver = root.get_node("Planet/DrainageSolver")
	solver.solved.connect(func(_stats: Dictionary) -> void: _solves += 1)
	var started := Time.get_ticks_msec()
	await _until(func() -> bool: return solver.is_solved(), started)
	_lib.check("editor/solved", solver.is_solved(), _since(started), "a solve in the editor")
	if not solver.is_solved():
		_lib.finish(get_tree())
		return
	# main.gd and the panel act on `solved` first; give them a few frames.
	await _lib.wait_frames(get_tree(), 5)
	var panel := _panel()
	_panel_node = panel
	if OS.get_environment("FRAME") != "":
		await _write_frame(panel, OS.get_environment("FRAME"))
		return
	_check_places(root)
	_check_panel(panel, root)
	await _check_click(panel, root)
	_check_exports(panel)
	var settings: WorldSettings = root.get_node("Planet/PlanetHeight").settings
	_check_inspector(settings)
	await _check_undo_redo(settings, solver)
	var stages := _stages_seen.keys().filter(func(t: String) -> bool: return t.begins_with("solving"))
	_lib.check("editor/panel_progress", stages.size() >= 2, stages, "the solve's stages as it ran")
	await _check_lake_handle(root, settings)
	_lib.finish(get_tree())


## The places main.gd sets out in the editor once the planet has solved.
func _check_places(root: Node) -> void:
	var life: PlanetLife = root.get_node("Planet/PlanetLife")
	var planet: PlanetHeight = root.get_node("Planet/PlanetHeight")
	var radius := planet.radius_m()
	var places := life.places()
	for pair in [["Walker", "spawn"], ["Mill", "mill"]]:
		var node: Node3D = root.get_node(pair[0])
		var place: Vector3 = places[pair[1]]
		var off := (node.global_position.normalized() - place).length() * radius
		var what := "at PlanetLife's %s" % pair[1]
		_lib.check("editor/set_out_%s" % pair[1], off < 5.0, "%.2f m" % off, what)
	var village := root.get_node_or_null("Village")
	var houses := village.get_child_count() if village != null else 0
	var planned: int = root.get_script().get_script_constant_map()["HOUSES"]
	_lib.check("editor/houses", houses == planned, houses, "main.gd's HOUSES: %d" % planned)
	var walker: Node3D = root.get_node("Walker")
	var up := walker.global_basis.y.normalized().dot(walker.global_position.normalized())
	_lib.check("editor/walker_upright", up > 0.999, up, "its up along the planet's up")
	for body in ["Crate", "Boat"]:
		var node: Node3D = root.get_node(body)
		var altitude := node.global_position.length() - radius
		var floating := absf(altitude - _surface(root, node.global_position.normalized())) < 0.5
		_lib.check("editor/%s_on_water" % body.to_lower(), floating, "%.2f m" % altitude, "on the water")
	var saved := village == null or village.owner == null
	_lib.check("editor/houses_not_saved", saved, village.owner if village else null, "no owner")


## The panel: a map, the figures equal to report.json's, the camera out of the planet and the
## rivers and lakes drawn over it.
func _check_panel(panel: Control, root: Node) -> void:
	_lib.check("editor/panel", panel != null, panel, "the Watershed panel")
	if panel == null:
		return
	var map: TextureRect = panel.get("_map")
	var size := map.texture.get_size() if map.texture != null else Vector2.ZERO
	_lib.check("editor/panel_map", size == Vector2(1024, 512), size, Vector2(1024, 512))
	var report: Dictionary = JSON.parse_string(FileAccess.get_file_as_string(REPORT))
	var expected: Dictionary = report.get("figures", {})
	var shown: Dictionary = panel.get("figures")
	var differing: Array[String] = []
	for key in expected:
		if not _same(shown.get(key), expected[key]):
			differing.append("%s: %s vs %s" % [key, shown.get(key), expected[key]])
	var same_keys := shown.keys().size() == expected.keys().size()
	var ok := not expected.is_empty() and differing.is_empty() and same_keys
	_lib.check("editor/panel_figures", ok, "%d figures" % shown.size(), differing)
	_lib.info("editor/figures", JSON.stringify(shown))
	var planet: PlanetHeight = root.get_node("Planet/PlanetHeight")
	var camera := EditorInterface.get_editor_viewport_3d(0).get_camera_3d()
	var height := camera.global_position.distance_to(planet.global_position) - planet.radius_m()
	_lib.check("editor/camera_outside", height > 1000.0, "%.0f m above the datum" % height, "> 1000")
	_lib.check("editor/camera_far", camera.far >= 50000.0, camera.far, ">= 50000")
	var overlay := planet.get_children(true).filter(
		func(node: Node) -> bool: return node.name == "WatershedOverlay"
	)
	var lines := 0
	if not overlay.is_empty() and overlay[0].mesh != null:
		lines = overlay[0].mesh.surface_get_array_len(0) / 2
	var reaches: int = panel.get("figures").get("reaches", -1)
	_lib.check("editor/overlay", lines > reaches and reaches > 0, lines, "> %d reaches" % reaches)


## A click on the map at the village looks at the village.
func _check_click(panel: Control, root: Node) -> void:
	if panel == null:
		return
	var life: PlanetLife = root.get_node("Planet/PlanetLife")
	var village := life.village_site()
	var map: TextureRect = panel.get("_map")
	if map.size.x <= 0.0:
		map.size = Vector2(512, 256)
	var click := InputEventMouseButton.new()
	click.button_index = MOUSE_BUTTON_LEFT
	click.pressed = true
	click.position = PlanetLife.map_uv(village) * map.size
	map.gui_input.emit(click)
	await _lib.wait_frames(get_tree(), 3)
	var camera := EditorInterface.get_editor_viewport_3d(0).get_camera_3d()
	var planet: PlanetHeight = root.get_node("Planet/PlanetHeight")
	var spot := village * planet.radius_m()
	var seen := (-camera.global_basis.z).dot((spot - camera.global_position).normalized())
	var near := camera.global_position.distance_to(spot)
	var ok := seen > 0.99 and near < 4000.0
	var what := "%.0f m away, cos %.4f" % [near, seen]
	_lib.check("editor/map_click", ok, what, "looking at the village")


## The panel's exports: the map as a PNG and the settings as a worlds.json entry.
func _check_exports(panel: Control) -> void:
	if panel == null:
		return
	var map_path := OS.get_user_data_dir().path_join("probe_map.png")
	var entry_path := OS.get_user_data_dir().path_join("probe_entry.json")
	var map_error: Error = panel.call("save_export", "map", map_path)
	var image := Image.load_from_file(map_path) if map_error == OK else null
	var size := image.get_size() if image != null else Vector2i.ZERO
	_lib.check("editor/export_map", size == Vector2i(2048, 1024), size, Vector2i(2048, 1024))
	var entry_error: Error = panel.call("save_export", "entry", entry_path)
	var entry: Variant = JSON.parse_string(FileAccess.get_file_as_string(entry_path))
	var named: Variant = entry.get("name") if entry is Dictionary else entry
	_lib.check("editor/export_entry", entry_error == OK and named == "home", named, "home")
	var catalog := WorldCatalog.new()
	var worlds_path := OS.get_user_data_dir().path_join("probe_worlds.json")
	var file := FileAccess.open(worlds_path, FileAccess.WRITE)
	file.store_string('{"worlds": [%s]}' % FileAccess.get_file_as_string(entry_path))
	file.close()
	var loads := catalog.load(worlds_path)
	_lib.check("editor/export_entry_loads", loads, catalog.errors(), "a valid worlds.json")


## The inspector shows the settings in their groups, with ranges and units.
func _check_inspector(settings: WorldSettings) -> void:
	EditorInterface.inspect_object(settings)
	var edited := EditorInterface.get_inspector().get_edited_object()
	_lib.check("editor/inspector", edited == settings, edited, settings)
	var groups: Array[String] = []
	var ranged := 0
	var with_unit := 0
	for property in settings.get_property_list():
		if property["usage"] & PROPERTY_USAGE_GROUP and property["name"] != "Resource":
			groups.append(property["name"])
		elif property["hint"] == PROPERTY_HINT_RANGE:
			ranged += 1
			if property["hint_string"].contains("suffix:"):
				with_unit += 1
	_lib.check("editor/inspector_groups", groups == GROUPS, groups, GROUPS)
	_lib.check("editor/inspector_ranges", ranged >= 20, ranged, ">= 20 range-checked fields")
	_lib.check("editor/inspector_units", with_unit >= 13, with_unit, ">= 13 with units")


## A seed edit through the editor's undo/redo re-solves to another planet; its undo brings
## the same planet back.
func _check_undo_redo(settings: WorldSettings, solver: DrainageSolver) -> void:
	var before: Dictionary = solver.digests()
	var undo_redo := get_undo_redo()
	var old_seed := settings.seed
	undo_redo.create_action("Probe: change the seed")
	undo_redo.add_do_property(settings, "seed", old_seed + 1)
	undo_redo.add_undo_property(settings, "seed", old_seed)
	undo_redo.commit_action()
	var edited := await _next_solve()
	var moved: bool = edited and solver.digests()["network"] != before["network"]
	_lib.check("editor/edit_resolves", moved, "seed %d" % settings.seed, "another planet")
	var history := undo_redo.get_history_undo_redo(undo_redo.get_object_history_id(settings))
	history.undo()
	var undone := await _next_solve()
	var back: bool = undone and settings.seed == old_seed and solver.digests() == before
	_lib.check("editor/undo_same_planet", back, "seed %d" % settings.seed, "the same digests")


## Dragging the lake handle moves the basin as one undoable edit.
func _check_lake_handle(root: Node, settings: WorldSettings) -> void:
	var planet: PlanetHeight = root.get_node("Planet/PlanetHeight")
	var gizmo: EditorNode3DGizmo = null
	for g in planet.get_gizmos():
		var owner_plugin: Variant = g.get_plugin() if g is EditorNode3DGizmo else null
		if owner_plugin != null and owner_plugin.get_script() != null:
			if owner_plugin.call("_get_gizmo_name") == "Watershed lake basin":
				gizmo = g
	_lib.check("editor/lake_gizmo", gizmo != null, planet.get_gizmos().size(), "the lake gizmo")
	if gizmo == null:
		return
	var plugin := gizmo.get_plugin()
	var start := Vector2(settings.lake_lat_deg, settings.lake_lon_deg)
	var goal_dir := PlanetHeight.direction(start.x + 2.0, start.y + 2.0)
	var top := goal_dir * (settings.radius_m + settings.relief_m + 100.0)
	var camera := EditorInterface.get_editor_viewport_3d(0).get_camera_3d()
	var eye := top + goal_dir * 3000.0
	camera.global_transform = Transform3D(Basis.looking_at(top - eye, Vector3.UP), eye)
	var point := camera.unproject_position(planet.global_transform * top)
	plugin._set_handle(gizmo, 0, false, camera, point)
	plugin._commit_handle(gizmo, 0, false, start, false)
	var moved_to := Vector2(settings.lake_lat_deg, settings.lake_lon_deg)
	var moved := moved_to.distance_to(start + Vector2(2.0, 2.0)) < 0.05
	_lib.check("editor/lake_drag", moved, moved_to, start + Vector2(2.0, 2.0))
	await _next_solve()
	var history := get_undo_redo().get_history_undo_redo(
		get_undo_redo().get_object_history_id(settings)
	)
	history.undo()
	var back := Vector2(settings.lake_lat_deg, settings.lake_lon_deg) == start
	_lib.check("editor/lake_undo", back, Vector2(settings.lake_lat_deg, settings.lake_lon_deg), start)
	await _next_solve()


## Waits for the next `solved` (true) or the timeout (false).
func _next_solve() -> bool:
	var seen := _solves
	var started := Time.get_ticks_msec()
	await _until(func() -> bool: return _solves > seen, started)
	await _lib.wait_frames(get_tree(), 3)
	return _solves > seen


## Waits for `done` or the timeout from `started`, noting the panel's stage line each frame.
func _until(done: Callable, started: int) -> void:
	var noting := func() -> bool:
		if done.call():
			return true
		if _panel_node != null:
			_stages_seen[(_panel_node.get("_stage") as Label).text] = true
		return false
	await _lib.wait_until(get_tree(), noting, SOLVE_TIMEOUT_MS, started)


func _since(started: int) -> String:
	return "%.2f s" % ((Time.get_ticks_msec() - started) / 1000.0)


## The water's surface at `dir` where water stands there, the carved ground elsewhere.
func _surface(root: Node, dir: Vector3) -> float:
	var solver: DrainageSolver = root.get_node("Planet/DrainageSolver")
	var water: WaterTable = root.get_node("Planet/WaterTable")
	var ground := solver.ground_at(dir)
	var level := water.level_at(dir)
	return level if not is_nan(level) and level > ground else ground


func _same(a: Variant, b: Variant) -> bool:
	if (a is int or a is float) and (b is int or b is float):
		return is_equal_approx(float(a), float(b))
	if a is Dictionary and b is Dictionary:
		return a.keys().size() == b.keys().size() and a.keys().all(
			func(k: Variant) -> bool: return _same(a[k], b.get(k))
		)
	return a == b


## The Watershed panel the add-on's plugin put in the bottom panel (null when missing).
func _panel() -> Control:
	var base := EditorInterface.get_base_control()
	for node in base.find_children("Watershed", "VBoxContainer", true, false):
		var script: Script = node.get_script()
		if script != null and script.resource_path.ends_with("editor/panel.gd"):
			return node
	return null


## Shows the panel and the 3D view, waits for the frame to draw, and writes it to `path`.
func _write_frame(panel: Control, path: String) -> void:
	if panel != null:
		make_bottom_panel_item_visible(panel)
	var root := EditorInterface.get_edited_scene_root()
	var planet: PlanetHeight = root.get_node("Planet/PlanetHeight")
	EditorInterface.inspect_object(planet.settings)
	EditorInterface.set_main_screen_editor("3D")
	await _lib.wait_frames(get_tree(), 120)
	var image := EditorInterface.get_base_control().get_viewport().get_texture().get_image()
	var error := image.save_png(path)
	_lib.check("editor/frame", error == OK, path, "a PNG")
	_lib.finish(get_tree())
