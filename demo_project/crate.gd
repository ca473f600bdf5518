extends "res://floating_body.gd"
## A 1 m crate that floats on the sea (floating_body.gd: the add-on's hull model).


## Drops the crate three metres above the sea surface in `direction`.
func drop_at(direction: Vector3) -> void:
	if planet == null or water_table == null:
		return
	var dir := direction.normalized()
	var surface := water_table.wave_height_at(dir * planet.radius_m(), water_table.time)
	if is_nan(surface):
		surface = planet.height_at(dir)
	global_position = dir * (planet.radius_m() + surface + 3.0)
	linear_velocity = Vector3.ZERO
	angular_velocity = Vector3.ZERO
