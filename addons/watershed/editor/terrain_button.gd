@tool
extends HBoxContainer
## "Rivers for this terrain" in the 3D editor's toolbar, shown while an HTerrain or a
## Terrain3D (or its Watershed water) is selected: the button runs Watershed's erosion and
## river pipeline on the terrain's heightmap on a worker thread, with a progress bar, and
## writes the carved heights, the ground layers and the water child as one undoable action;
## "Settings" opens the run's WatershedRiverSettings in the inspector.

## Emitted when a run ends: applied (true) or failed or cancelled (false).
signal done(applied: bool)

const TerrainRivers := preload("res://addons/watershed/terrain/terrain_rivers.gd")
const SettingsScript := preload("res://addons/watershed/terrain/river_settings.gd")

## The terrain the button acts on (null: hidden).
var terrain: Node3D

var _undo_redo: EditorUndoRedoManager
var _run_button: Button
var _settings_button: Button
var _bar: ProgressBar
var _rivers: TerrainRivers
## Settings for terrains that have no water child yet, by instance id.
var _pending := {}


func _init(undo_redo: EditorUndoRedoManager) -> void:
	_undo_redo = undo_redo
	name = "WatershedTerrainButton"
	_run_button = Button.new()
	_run_button.text = "Rivers for this terrain"
	_run_button.tooltip_text = (
		"Erode the selected terrain, carve its rivers and lakes and add its water"
		+ " (one undoable step; each run starts from the heights before the first)"
	)
	_run_button.pressed.connect(_on_run_pressed)
	add_child(_run_button)
	_settings_button = Button.new()
	_settings_button.text = "Settings"
	_settings_button.tooltip_text = "The erosion and river settings of the next run"
	_settings_button.pressed.connect(_on_settings_pressed)
	add_child(_settings_button)
	_bar = ProgressBar.new()
	_bar.custom_minimum_size = Vector2(140, 0)
	_bar.max_value = 1.0
	_bar.visible = false
	add_child(_bar)
	visible = false
	set_process(false)


## Shows the button for `node` when it is a terrain (or a terrain's Watershed water), else
## hides it (a running build goes on).
func follow(node: Node) -> void:
	if node != null and not TerrainRivers.is_terrain(node) and node.get_parent() != null:
		if TerrainRivers.water_of(node.get_parent()) == node:
			node = node.get_parent()
	terrain = node if node != null and TerrainRivers.is_terrain(node) else null
	visible = terrain != null or is_running()


## The settings the next run on `node` uses: its water child's, else ones kept for it here.
func settings_of(node: Node3D) -> Resource:
	var water := TerrainRivers.water_of(node) if node != null else null
	if water != null:
		if water.settings == null:
			water.settings = SettingsScript.new()
		return water.settings
	var id := node.get_instance_id() if node != null else 0
	if not _pending.has(id):
		_pending[id] = SettingsScript.new()
	return _pending[id]


## Starts a run on `node`; false (with an error) when it cannot start.
func run(node: Node3D) -> bool:
	if is_running():
		push_warning("Watershed: a run is going; wait for it or press the button to cancel")
		return false
	_rivers = TerrainRivers.new()
	_rivers.progress.connect(_on_progress)
	if not _rivers.start(node, settings_of(node)):
		_rivers = null
		return false
	terrain = node
	_bar.value = 0.0
	_bar.visible = true
	_run_button.text = "Cancel"
	set_process(true)
	return true


## Whether a run is going.
func is_running() -> bool:
	return _rivers != null


func _process(_delta: float) -> void:
	if _rivers == null:
		return
	if not _rivers.poll():
		if _rivers.error != "":
			_end()
			done.emit(false)
		return
	var rivers := _rivers
	_end()
	var node := rivers.terrain
	_undo_redo.create_action("Watershed: rivers for %s" % node.name, UndoRedo.MERGE_DISABLE, node)
	_undo_redo.add_do_method(self, &"_apply", node, rivers.after)
	_undo_redo.add_undo_method(self, &"_apply", node, rivers.before)
	if rivers.before["water"] == null:
		_undo_redo.add_do_reference(rivers.after["water"])
	_undo_redo.commit_action()
	var figures := rivers.stats
	var catchment_km2: float = figures.get("largest_catchment_m2", 0.0) / 1e6
	print(
		(
			"Watershed: rivers for %s: %d river cells, %d lakes, largest catchment %.2f km²"
			% [node.name, figures.get("river_cells", 0), figures.get("lakes", 0), catchment_km2]
		)
	)
	done.emit(true)


func _apply(node: Node3D, state: Dictionary) -> void:
	TerrainRivers.apply(node, state)


func _on_run_pressed() -> void:
	if is_running():
		_rivers.cancel()
		_end()
		print("Watershed: run cancelled")
		done.emit(false)
	elif terrain != null:
		run(terrain)


func _on_settings_pressed() -> void:
	EditorInterface.edit_resource(settings_of(terrain))


func _on_progress(stage: String, share: float) -> void:
	_bar.value = share
	_bar.tooltip_text = stage


func _end() -> void:
	_rivers = null
	_bar.visible = false
	_run_button.text = "Rivers for this terrain"
	set_process(false)
	visible = terrain != null
