extends SceneTree
## determinism: solves the home world and prints its four digests (4,096 seeded directions,
## their heights, the drainage network, the river and lake sets) with the process id, the
## engine version and the SHA-256 of the extension library. probes/run.sh runs it twice, as
## two processes, and diffs the DIGEST lines.

const Lib := preload("res://probes/probe_lib.gd")
const LIBRARY := "res://addons/watershed/bin/libwatershed_godot.debug.so"


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var lib := Lib.new()
	var world := await lib.solve_world(root, "home")
	lib.check("determinism/solve", not world.is_empty(), "home", "a solved world")
	if not world.is_empty():
		var digests: Dictionary = world["solver"].digests()
		for key in ["directions", "heights", "network", "sets"]:
			print("DIGEST %s %s" % [key, digests.get(key, "")])
		lib.check("determinism/digests", digests.size() == 4, digests.size(), 4)
	print("INFO pid %d" % OS.get_process_id())
	print("INFO engine %s" % Engine.get_version_info()["string"])
	print("INFO library %s" % FileAccess.get_sha256(LIBRARY))
	lib.finish(self)
