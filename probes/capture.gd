extends SceneTree
## capture: where a renderer is available, opens the demo, waits for the solve and writes a
## frame of each named view (spawn, village, mouth, lake) to user://capture_<view>.png.
## Headless there is nothing to capture: it says so and passes.

const Lib := preload("res://probes/probe_lib.gd")
const SETTLE_FRAMES := 120


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var lib := Lib.new()
	if DisplayServer.get_name() == "headless":
		lib.skip("capture/frames", "headless: no renderer, nothing to capture")
		lib.finish(self)
		return
	var main: Node = load("res://main.tscn").instantiate()
	root.add_child(main)
	await main.get_node("Planet/DrainageSolver").solved
	for view in ["spawn", "village", "mouth", "lake"]:
		if not main.places.has(view):
			lib.skip("capture/%s" % view, "this world has no %s" % view)
			continue
		main.teleport(view)
		for frame in SETTLE_FRAMES:
			await process_frame
		var path := "user://capture_%s.png" % view
		var image := root.get_viewport().get_texture().get_image()
		var saved := image.save_png(path)
		lib.check("capture/%s" % view, saved == OK, ProjectSettings.globalize_path(path), "a PNG")
	lib.finish(self)
