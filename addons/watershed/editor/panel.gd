@tool
extends VBoxContainer
## The Watershed panel at the bottom of the editor: for the planet being edited, the solve's
## progress by stage while it runs, then its shaded map (a click frames that spot in the 3D
## viewport), its headline figures (PlanetLife.figures(), the same record as report.json's
## `figures`), Regenerate, and exports of the map and of the settings as a worlds.json entry.
## A toggle draws the rivers and lakes over the planet in the viewport.

const View := preload("res://addons/watershed/editor/view.gd")
const Overlay := preload("res://addons/watershed/editor/overlay.gd")

## The figures shown, in order: the record's field and its label.
const FIGURES := [
	["river_nodes", "River nodes"],
	["reaches", "Reaches"],
	["lakes", "Lakes"],
	["mouths", "Mouths"],
	["largest_catchment_km2", "Largest catchment, km²"],
	["max_strahler", "Strahler order"],
	["bank_mismatches", "Bank misfits"],
	["lake_shore_mismatches", "Lake shore misfits"],
	["water_steps", "Water steps over 1 m"],
	["uphill", "Uphill receivers"],
	["village", "Village"],
	["hamlets", "Hamlets"],
	["why_no_village", "Why no village"],
]
## The map's width in the panel, pixels (as drawn by PlanetLife.map()).
const MAP_WIDTH := 1024
## The width of an exported map, pixels (as `watershed generate` writes map.png).
const EXPORT_MAP_WIDTH := 2048
## A click on the map looks at that spot from this far, metres, and this far off the
## vertical, degrees.
const CLICK_VIEW_M := 2500.0
const CLICK_TILT_DEG := 35.0
## A newly opened planet is looked at from this far above the spawn (or the village),
## metres, tilted off the vertical by this much, degrees.
const OPENING_VIEW_M := 6000.0
const OPENING_TILT_DEG := 30.0

## The solver the panel shows (null: the scene has none).
var solver: DrainageSolver
## The figures of the last solve shown (empty before one).
var figures: Dictionary = {}

var _planet: PlanetHeight
var _life: PlanetLife
var _own_life: PlanetLife
var _overlay: MeshInstance3D
var _map_image: Image
## [direction, colour] of each place marked on the map.
var _marks: Array = []
var _title: Label
var _stage: Label
var _progress: ProgressBar
var _map: TextureRect
var _table: GridContainer
var _show_water: CheckBox
var _save_dialog: EditorFileDialog
var _saving := ""


func _init() -> void:
	name = "Watershed"
	custom_minimum_size = Vector2(0, 200)
	_build()


func _exit_tree() -> void:
	show_planet(null)


## Shows `new_solver`'s planet (null: none), following its solves.
func show_planet(new_solver: DrainageSolver) -> void:
	if new_solver == solver:
		return
	if solver != null and is_instance_valid(solver):
		_disconnect_from(solver)
	if _overlay != null and is_instance_valid(_overlay):
		_overlay.queue_free()
	_overlay = null
	if _own_life != null:
		_own_life.free()
		_own_life = null
	solver = new_solver
	_planet = null
	_life = null
	figures = {}
	_map_image = null
	_marks = []
	_map.texture = null
	_fill_table({})
	if solver == null:
		_title.text = "No planet in the edited scene: add a DrainageSolver."
		_stage.text = ""
		_progress.value = 0.0
		return
	_planet = solver.planet
	_life = _life_of(solver)
	solver.estimated.connect(_on_estimated)
	solver.progress.connect(_on_progress)
	solver.solved.connect(_on_solved)
	_title.text = _world_title()
	if solver.is_solved():
		_on_solved(solver.stats())
	elif solver.is_solving():
		_stage.text = "solving…"
	else:
		_stage.text = "not solved yet"


## Looks at the planet's `dir` (a unit direction from its centre) from `distance_m` away,
## tilted `tilt_deg` off the vertical there. False when there is no 3D view or planet.
func look_at_direction(dir: Vector3, distance_m: float, tilt_deg: float) -> bool:
	if _planet == null or not solver.is_solved():
		return false
	var up := dir.normalized()
	var ground := maxf(solver.ground_at(up), _level_at(up))
	var centre := _planet.global_position
	var target := centre + up * (_planet.radius_m() + ground)
	var side := up.cross(Vector3.UP)
	if side.length() < 1e-6:
		side = up.cross(Vector3.RIGHT)
	# Tilted toward the planet's north where there is one, so north is up in the view.
	var back := side.cross(up).normalized() * -1.0
	var tilt := deg_to_rad(tilt_deg)
	var eye := target + (up * cos(tilt) + back * sin(tilt)) * distance_m
	return View.look_at(eye, target)


## Whether the editor's camera is inside the planet (as it is in a scene never framed
## before: the editor starts at the origin, the planet's centre).
func camera_inside_planet() -> bool:
	var camera := View.camera()
	if camera == null or _planet == null:
		return false
	return camera.global_position.distance_to(_planet.global_position) < _planet.radius_m()


func _build() -> void:
	var top := HBoxContainer.new()
	add_child(top)
	_title = Label.new()
	_title.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	top.add_child(_title)
	_stage = Label.new()
	top.add_child(_stage)
	_progress = ProgressBar.new()
	_progress.max_value = 1.0
	_progress.step = 0.001
	_progress.custom_minimum_size = Vector2(200, 0)
	_progress.size_flags_vertical = Control.SIZE_SHRINK_CENTER
	top.add_child(_progress)
	var row := HBoxContainer.new()
	row.size_flags_vertical = Control.SIZE_EXPAND_FILL
	add_child(row)
	var frame := AspectRatioContainer.new()
	frame.ratio = 2.0
	frame.alignment_horizontal = AspectRatioContainer.ALIGNMENT_BEGIN
	frame.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	row.add_child(frame)
	_map = TextureRect.new()
	_map.expand_mode = TextureRect.EXPAND_IGNORE_SIZE
	_map.stretch_mode = TextureRect.STRETCH_SCALE
	_map.tooltip_text = "Click to look at that spot in the 3D viewport."
	_map.mouse_filter = Control.MOUSE_FILTER_STOP
	_map.gui_input.connect(_on_map_input)
	_map.draw.connect(_draw_marks)
	frame.add_child(_map)
	var side := VBoxContainer.new()
	side.size_flags_horizontal = Control.SIZE_EXPAND_FILL
	row.add_child(side)
	_table = GridContainer.new()
	_table.columns = 4
	_table.add_theme_constant_override("h_separation", 12)
	_table.add_theme_constant_override("v_separation", 0)
	side.add_child(_table)
	var buttons := HFlowContainer.new()
	side.add_child(buttons)
	_button(buttons, "Regenerate", _on_regenerate)
	_button(buttons, "Save map…", _on_save_map)
	_button(buttons, "Save worlds.json entry…", _on_save_entry)
	_button(buttons, "Copy entry", _on_copy_entry)
	_show_water = CheckBox.new()
	_show_water.text = "Rivers and lakes in the viewport"
	_show_water.button_pressed = true
	_show_water.toggled.connect(_on_show_water)
	buttons.add_child(_show_water)
	_save_dialog = EditorFileDialog.new()
	_save_dialog.file_mode = EditorFileDialog.FILE_MODE_SAVE_FILE
	_save_dialog.access = EditorFileDialog.ACCESS_FILESYSTEM
	_save_dialog.file_selected.connect(_on_save_path)
	add_child(_save_dialog)
	_fill_table({})


func _button(parent: Control, text: String, pressed: Callable) -> void:
	var button := Button.new()
	button.text = text
	button.pressed.connect(pressed)
	parent.add_child(button)


## The PlanetLife of the edited scene that reads `of_solver`, or one of the panel's own.
func _life_of(of_solver: DrainageSolver) -> PlanetLife:
	var root := of_solver.get_tree().edited_scene_root if of_solver.is_inside_tree() else null
	if root != null:
		for node in root.find_children("*", "PlanetLife", true, false):
			if node.solver == of_solver:
				return node
	_own_life = PlanetLife.new()
	_own_life.solver = of_solver
	return _own_life


func _disconnect_from(old: DrainageSolver) -> void:
	for pair in [
		[old.estimated, _on_estimated], [old.progress, _on_progress], [old.solved, _on_solved]
	]:
		if pair[0].is_connected(pair[1]):
			pair[0].disconnect(pair[1])


func _world_title() -> String:
	if _planet == null or _planet.settings == null:
		return "Planet without settings"
	var settings: WorldSettings = _planet.settings
	return "%s — seed %d, %d lattice nodes, radius %.0f m" % [
		settings.world_name, settings.seed, settings.lattice_nodes, settings.radius_m
	]


func _on_estimated(bytes: int, seconds: float) -> void:
	_title.text = _world_title()
	_stage.text = "solving: about %s, %.1f s" % [String.humanize_size(bytes), seconds]
	_progress.value = 0.0


func _on_progress(stage: String, fraction: float) -> void:
	_stage.text = "solving: %s" % stage
	_progress.value = fraction


func _on_solved(_stats: Dictionary) -> void:
	_title.text = _world_title()
	_stage.text = "solved"
	_progress.value = 1.0
	figures = _life.figures()
	_fill_table(figures)
	var counts := [figures["river_nodes"], figures["lakes"], figures["largest_catchment_km2"]]
	print("Watershed: %s solved: %d river nodes, %d lakes, largest catchment %.1f km²" % (
		[_planet.settings.world_name if _planet.settings != null else "planet"] + counts
	))
	_map_image = _life.map(MAP_WIDTH)
	_map.texture = ImageTexture.create_from_image(_map_image) if _map_image != null else null
	_draw_water()
	var places := _life.places()
	_marks = []
	for pair in [["spawn", Color.WHITE], ["village", Color.ORANGE]]:
		if places.has(pair[0]):
			_marks.append([places[pair[0]], pair[1]])
	_map.queue_redraw()
	if camera_inside_planet():
		var spot: Vector3 = places.get("village", places.get("spawn", Vector3.UP))
		look_at_direction(spot, OPENING_VIEW_M, OPENING_TILT_DEG)


func _fill_table(shown: Dictionary) -> void:
	for child in _table.get_children():
		_table.remove_child(child)
		child.queue_free()
	for figure in FIGURES:
		var label := Label.new()
		label.text = figure[1]
		_table.add_child(label)
		var value := Label.new()
		value.text = _format(shown.get(figure[0]), shown.is_empty())
		_table.add_child(value)


func _format(value: Variant, unknown: bool) -> String:
	if unknown:
		return "—"
	if value == null:
		return "none"
	if value is float:
		return "%.1f" % value
	if value is Dictionary:
		return "%.2f°, %.2f°" % [value["lat_deg"], value["lon_deg"]]
	return str(value)


## Marks the named places on the map: the village (a ring), the spawn (a dot).
func _draw_marks() -> void:
	if _life == null or _map.texture == null or solver == null or not solver.is_solved():
		return
	for mark in _marks:
		var at: Vector2 = PlanetLife.map_uv(mark[0]) * _map.size
		_map.draw_arc(at, 6.0, 0.0, TAU, 24, Color.BLACK, 3.0)
		_map.draw_arc(at, 6.0, 0.0, TAU, 24, mark[1], 1.5)


func _level_at(dir: Vector3) -> float:
	var level := -INF
	for node in _water_tables():
		var at: float = node.level_at(dir)
		if not is_nan(at):
			level = maxf(level, at)
	return level


func _water_tables() -> Array[Node]:
	var root := solver.get_tree().edited_scene_root if solver.is_inside_tree() else null
	if root == null:
		return []
	return root.find_children("*", "WaterTable", true, false).filter(
		func(node: Node) -> bool: return node.solver == solver
	)


func _draw_water() -> void:
	if _planet == null:
		return
	if _overlay == null or not is_instance_valid(_overlay):
		_overlay = Overlay.new()
		_planet.add_child(_overlay, false, Node.INTERNAL_MODE_BACK)
	_overlay.draw(solver)
	_overlay.visible = _show_water.button_pressed


func _on_show_water(shown: bool) -> void:
	if _overlay != null and is_instance_valid(_overlay):
		_overlay.visible = shown


func _on_map_input(event: InputEvent) -> void:
	var click := event as InputEventMouseButton
	if click == null or not click.pressed or click.button_index != MOUSE_BUTTON_LEFT:
		return
	if _map.size.x <= 0.0 or _map.size.y <= 0.0 or solver == null:
		return
	var dir := PlanetLife.map_direction(click.position / _map.size)
	look_at_direction(dir, CLICK_VIEW_M, CLICK_TILT_DEG)


func _on_regenerate() -> void:
	if solver != null:
		solver.solve_again()


func _on_save_map() -> void:
	_ask_path("map", "*.png ; PNG image", "map.png")


func _on_save_entry() -> void:
	_ask_path("entry", "*.json ; JSON", "world.json")


func _on_copy_entry() -> void:
	if _planet != null and _planet.settings != null:
		DisplayServer.clipboard_set(_entry_text())


func _ask_path(what: String, filter: String, file: String) -> void:
	if solver == null:
		return
	_saving = what
	_save_dialog.clear_filters()
	_save_dialog.add_filter(filter)
	_save_dialog.current_file = file
	_save_dialog.popup_file_dialog()


func _on_save_path(path: String) -> void:
	var error := save_export(_saving, path)
	if error != OK:
		push_error("Watershed: could not write %s (%s)" % [path, error_string(error)])


## Writes the export `what` ("map": the shaded map as `watershed generate`'s map.png;
## "entry": the settings as one worlds.json world object) to `path`.
func save_export(what: String, path: String) -> Error:
	match what:
		"map":
			var image := _life.map(EXPORT_MAP_WIDTH) if _life != null else null
			return ERR_UNCONFIGURED if image == null else image.save_png(path)
		"entry":
			var file := FileAccess.open(path, FileAccess.WRITE)
			if file == null:
				return FileAccess.get_open_error()
			file.store_string(_entry_text() + "\n")
			return OK
	return ERR_INVALID_PARAMETER


func _entry_text() -> String:
	var settings: WorldSettings = _planet.settings
	return settings.to_json()
