extends SceneTree
## drainage: for every shipped world, uphill receivers (0), underwater river nodes (0), the
## largest catchment, lakes and mouths.

const Lib := preload("res://probes/probe_lib.gd")


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var lib := Lib.new()
	var catalog := WorldCatalog.new()
	catalog.load("res://worlds.json")
	for world_name in catalog.names():
		var world := await lib.solve_world(root, world_name)
		if world.is_empty():
			lib.check("%s/solve" % world_name, false, "no solve", "a solved world")
			continue
		var stats: Dictionary = world["solver"].stats()
		lib.check("%s/uphill_receivers" % world_name, stats["uphill"] == 0, stats["uphill"], 0)
		lib.check("%s/no_path_to_outlet" % world_name, stats["no_path"] == 0, stats["no_path"], 0)
		var underwater: int = stats["underwater_rivers"]
		lib.check("%s/underwater_rivers" % world_name, underwater == 0, underwater, 0)
		var km2: float = stats["largest_catchment_m2"] / 1e6
		lib.check("%s/largest_catchment" % world_name, km2 > 0.0, "%.2f km2" % km2, "a catchment")
		lib.check("%s/lakes" % world_name, true, stats["lakes"], "a count")
		lib.check("%s/mouths" % world_name, true, stats["mouths"], "a count")
		for node in world.values():
			node.queue_free()
	lib.finish(self)
