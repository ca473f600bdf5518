extends RigidBody3D
## A 1 m crate that floats: every physics frame, the add-on's hull model
## (WaterTable.hull_forces at the centres of its eight octants) against the live waves and
## the river's flow, and gravity toward the planet's centre.

const GRAVITY := 9.81
const SIZE := Vector3.ONE
const DRAG := 900.0

@export var water_table: WaterTable
@export var planet: PlanetHeight

var _samples := PackedVector3Array()


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
