extends RigidBody3D
## A small boat that floats and drifts: every physics frame, the add-on's hull model
## (WaterTable.hull_forces at the centres of its hull's eight octants) against the live
## water and the river's flow, a helm that pushes it towards the channel's centre line
## (WaterTable.channel_offset), and gravity toward the planet's centre. The core's
## World::drift runs the same model in `watershed probe`.

const GRAVITY := 9.81
## Width, height and length of the hull, metres.
const SIZE := Vector3(1.5, 0.6, 3.0)
const DRAG := 1600.0
## The helm's push, newtons per metre off the channel's centre line.
const HELM := 200.0

@export var water_table: WaterTable
@export var planet: PlanetHeight

var _samples := PackedVector3Array()


## Puts the boat on the water at `direction`, half a metre above the surface, at rest and
## upright.
func launch_at(direction: Vector3) -> void:
	if planet == null or water_table == null:
		return
	var dir := direction.normalized()
	var level := water_table.level_at(dir)
	if is_nan(level):
		level = planet.height_at(dir)
	var up := dir
	var side := up.cross(Vector3.UP).normalized()
	if side == Vector3.ZERO:
		side = Vector3.RIGHT
	global_transform = Transform3D(
		Basis(side, up, side.cross(up)), dir * (planet.radius_m() + level + 0.5)
	)
	linear_velocity = Vector3.ZERO
	angular_velocity = Vector3.ZERO


func _physics_process(_delta: float) -> void:
	var up := global_position.normalized()
	apply_central_force(-up * GRAVITY * mass)
	if water_table == null:
		return
	if _samples.is_empty():
		_samples = water_table.cuboid_samples(SIZE)
	var points := PackedVector3Array()
	for sample in _samples:
		points.append(global_transform * sample)
	var forces := water_table.hull_forces(points, linear_velocity, SIZE, DRAG, water_table.time)
	if forces.size() != points.size():
		return  # no water yet: the world is still solving
	for i in points.size():
		apply_force(forces[i], points[i] - global_position)
	apply_central_force(water_table.channel_offset(global_position) * HELM)
