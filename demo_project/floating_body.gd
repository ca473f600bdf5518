extends RigidBody3D
## A box that floats: every physics frame, the add-on's hull model (WaterTable.hull_forces
## at the centres of its eight octants) against the live waves and the river's flow, and
## gravity toward the planet's centre. The crate and the boat are both this.

const GRAVITY := 9.81

## The box's size, metres (width, height, length).
@export var size := Vector3.ONE
## Drag of the whole box under water, newtons per m/s through the water.
@export var drag := 900.0
@export var water_table: WaterTable
@export var planet: PlanetHeight

var _samples := PackedVector3Array()


func _physics_process(_delta: float) -> void:
	var up := global_position.normalized()
	apply_central_force(-up * GRAVITY * mass)
	if water_table == null:
		return
	if _samples.is_empty():
		_samples = water_table.cuboid_samples(size)
	var points := PackedVector3Array()
	for sample in _samples:
		points.append(global_transform * sample)
	var forces := water_table.hull_forces(points, linear_velocity, size, drag, water_table.time)
	if forces.size() != points.size():
		return  # no water yet: the world is still solving
	for i in points.size():
		apply_force(forces[i], points[i] - global_position)
