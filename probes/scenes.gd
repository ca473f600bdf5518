extends SceneTree
## scenes: every scene and script in the project, as the engine sees it.
##
## Without arguments: every `.gd` under res:// is loaded (the engine's own parser and
## analyzer, stricter than gdparse) and every `.tscn` is listed as a `SCENE res://…` line.
## With `-- --scene=res://x.tscn`: that scene is instantiated, each DrainageSolver in it is
## given time to solve, and the scene runs for FRAMES more frames. A scene whose node types
## this engine lacks (godot_voxel's) is skipped with the reason. run.sh plays each listed
## scene in its own process and fails on any error line in the engine's output.

const Lib := preload("res://probes/probe_lib.gd")
const FRAMES := 300
const SOLVE_TIMEOUT_MS := 60000


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var lib := Lib.new()
	var scene := ""
	for arg in OS.get_cmdline_user_args():
		if arg.begins_with("--scene="):
			scene = arg.trim_prefix("--scene=")
	if scene.is_empty():
		_load_everything(lib)
	else:
		await _play(lib, scene)
	lib.finish(self)


## Loads every script and lists every scene.
func _load_everything(lib: RefCounted) -> void:
	var scripts := _files("res://", ".gd")
	var broken: Array[String] = []
	var loaded := 0
	for path in scripts:
		var base := _missing_base(path)
		if not base.is_empty():
			lib.skip("scenes/%s" % path.get_file(), "this engine lacks %s" % base)
			continue
		var script := load(path) as Script
		loaded += 1
		if script == null or not script.can_instantiate():
			broken.append(path)
	lib.check("scenes/scripts_load", broken.is_empty(), "%d scripts" % loaded, broken)
	var scenes := _files("res://", ".tscn")
	for path in scenes:
		print("SCENE %s" % path)
	lib.check("scenes/found", scenes.size() >= 2, "%d scenes" % scenes.size(), ">= 2")


## What `path` needs that this engine lacks: the class it extends (godot_voxel's generator
## base in an engine built without it), or the editor for the add-on's editor scripts;
## empty otherwise.
func _missing_base(path: String) -> String:
	if path.contains("/editor/") and not ClassDB.class_exists("EditorInterface"):
		return "the editor (an editor-only script)"
	var text := FileAccess.get_file_as_string(path)
	var base := text.get_slice("extends ", 1).get_slice("\n", 0).strip_edges()
	if base.is_empty() or base.begins_with("\"") or ClassDB.class_exists(base):
		return ""
	return base


## Plays `path` headless: instantiated, solved, FRAMES frames.
func _play(lib: RefCounted, path: String) -> void:
	var missing := _missing_types(path)
	if not missing.is_empty():
		lib.skip("scenes/%s" % path.get_file(), "this engine lacks %s" % ", ".join(missing))
		return
	var packed := load(path) as PackedScene
	if packed == null:
		lib.check("scenes/%s" % path.get_file(), false, "did not load", "a scene")
		return
	var node := packed.instantiate()
	root.add_child(node)
	var started := Time.get_ticks_msec()
	var solvers := node.find_children("*", "DrainageSolver", true, false)
	if node is DrainageSolver:
		solvers.append(node)
	for solver: DrainageSolver in solvers:
		await lib.wait_until(self, solver.is_solved, SOLVE_TIMEOUT_MS, started)
	var solved := solvers.filter(func(s: DrainageSolver) -> bool: return s.is_solved()).size()
	await lib.wait_frames(self, FRAMES)
	var alive := is_instance_valid(node) and node.is_inside_tree()
	var what := "%d frames, %d of %d solvers solved" % [FRAMES, solved, solvers.size()]
	lib.check("scenes/%s" % path.get_file(), alive and solved == solvers.size(), what, "all")
	node.queue_free()
	await process_frame


## Node and resource types named in the scene file that this engine does not have.
func _missing_types(path: String) -> Array[String]:
	var missing: Array[String] = []
	var text := FileAccess.get_file_as_string(path)
	var regex := RegEx.create_from_string("type=\"(\\w+)\"")
	for found in regex.search_all(text):
		var type := found.get_string(1)
		if not ClassDB.class_exists(type) and not missing.has(type):
			missing.append(type)
	return missing


## Every file under `dir` ending in `suffix`, sorted; hidden folders (the engine's .godot)
## left out.
func _files(dir: String, suffix: String) -> Array[String]:
	var out: Array[String] = []
	var access := DirAccess.open(dir)
	if access == null:
		return out
	for sub in access.get_directories():
		if not sub.begins_with("."):
			out.append_array(_files(dir.path_join(sub), suffix))
	for file in access.get_files():
		if file.ends_with(suffix):
			out.append(dir.path_join(file))
	out.sort()
	return out
