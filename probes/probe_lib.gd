extends "res://probes/probe_checks.gd"
## Shared by the probes: probe_checks.gd's check lines, a planet built and solved from
## worlds.json, and the exit code.


## Adds a PlanetHeight, DrainageSolver and WaterTable for world `world_name` under `root`
## and returns them once solved: {"planet", "solver", "water"}; empty when it failed.
func solve_world(root: Node, world_name: String) -> Dictionary:
	var catalog := WorldCatalog.new()
	if not catalog.load("res://worlds.json"):
		return {}
	var settings := catalog.get_world(world_name)
	if settings == null:
		return {}
	return await solve_settings(root, settings)


## Adds a PlanetHeight with `settings`, a DrainageSolver and a WaterTable under `root` and
## returns them once solved: {"planet", "solver", "water"}; empty when it failed.
func solve_settings(root: Node, settings: WorldSettings) -> Dictionary:
	var planet := PlanetHeight.new()
	planet.settings = settings
	root.add_child(planet)
	var solver := DrainageSolver.new()
	solver.auto_solve = false
	solver.planet = planet
	root.add_child(solver)
	var water := WaterTable.new()
	water.solver = solver
	root.add_child(water)
	if not solver.solve():
		return {}
	await solver.solved
	return {"planet": planet, "solver": solver, "water": water}


## `solve_world()` under `tree`'s root; when it fails, records `<probe>/solve` as failed and
## finishes the probe, returning an empty dictionary.
func solve_or_finish(tree: SceneTree, probe: String, world_name: String) -> Dictionary:
	var world := await solve_world(tree.root, world_name)
	if world.is_empty():
		check("%s/solve" % probe, false, "no solve", "a solved world")
		finish(tree)
	return world


## Prints the summary line and quits `tree` with 1 on any failure.
func finish(tree: SceneTree) -> void:
	print("probe: %d passed, %d failed" % [passes, failures])
	tree.quit(1 if failures > 0 else 0)
