extends SceneTree
## mill: the demo's wheel at WaterTable.mill_site() on home. Its measured rate (turns over
## time) against the rule ω = v / r with v the flow speed at the paddle's dip; then doubled
## flow turns it twice as fast.

const Lib := preload("res://probes/probe_lib.gd")
const MillScript := preload("res://mill.gd")


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	var lib := Lib.new()
	var world := await lib.solve_or_finish(self, "mill", "home")
	if world.is_empty():
		return
	var water: WaterTable = world["water"]
	var site := water.mill_site()
	lib.check("mill/site", site != Vector3.ZERO, str(site), "a river reach")
	var mill := Node3D.new()
	mill.set_script(MillScript)
	var wheel := Node3D.new()
	wheel.name = "Wheel"
	mill.add_child(wheel)
	mill.set("water_table", water)
	mill.set("planet", world["planet"])
	root.add_child(mill)
	mill.call("place_at", site)
	var rates := []
	for factor in [1.0, 2.0]:
		mill.set("flow_factor", factor)
		mill.set("turned", 0.0)
		mill.set("elapsed", 0.0)
		await lib.wait_frames(self, 30)
		rates.append(float(mill.get("turned")) / maxf(float(mill.get("elapsed")), 1e-9))
	var radius: float = mill.get("radius_m")
	var dip: float = mill.get("dip_m")
	var rule := water.flow_speed_at_depth(mill.global_position, dip) / radius
	var close := absf(rates[0] - rule) <= 1e-6 * maxf(rule, 1.0)
	lib.check("mill/rate", close, "%.5f rad/s" % rates[0], "%.5f rad/s (the rule)" % rule)
	var doubled := absf(rates[1] - 2.0 * rates[0]) <= 1e-6 * maxf(rates[0], 1.0)
	lib.check("mill/doubled_flow", doubled, "%.5f rad/s" % rates[1], "twice %.5f" % rates[0])
	lib.finish(self)
