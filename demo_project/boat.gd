extends "res://floating_body.gd"
## A small boat that floats and drifts (floating_body.gd: the add-on's hull model against
## the live water and the river's flow), with a helm that pushes it towards the channel's
## centre line (WaterTable.channel_offset). The core's World::drift runs the same model in
## `watershed probe`.

## The helm's push, newtons per metre off the channel's centre line.
const HELM := 200.0


## Puts the boat on the water at `direction`, half a metre above the surface, at rest and
## upright.
func launch_at(direction: Vector3) -> void:
	if planet == null or water_table == null:
		return
	var dir := direction.normalized()
	var level := water_table.level_at(dir)
	if is_nan(level):
		level = planet.height_at(dir)
	var side := dir.cross(Vector3.UP).normalized()
	if side == Vector3.ZERO:
		side = Vector3.RIGHT
	global_transform = Transform3D(
		Basis(side, dir, side.cross(dir)), dir * (planet.radius_m() + level + 0.5)
	)
	linear_velocity = Vector3.ZERO
	angular_velocity = Vector3.ZERO


func _physics_process(delta: float) -> void:
	super(delta)
	if water_table != null:
		apply_central_force(water_table.channel_offset(global_position) * HELM)
