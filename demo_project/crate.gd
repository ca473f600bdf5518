extends RigidBody3D
## A 1 m crate that floats: every physics frame, buoyancy at its eight corners from
## WaterTable.submersion() against the live waves, and gravity toward the planet's centre.

const GRAVITY := 9.81
const WATER_DENSITY := 1000.0
const HALF := 0.5
const DRAG := 900.0

@export var water_table: WaterTable
@export var planet: PlanetHeight


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
	var corners := PackedVector3Array()
	for x in [-HALF, HALF]:
		for y in [-HALF, HALF]:
			for z in [-HALF, HALF]:
				corners.append(global_transform * Vector3(x, y, z))
	var depths := water_table.submersion(corners, water_table.time)
	if depths.size() != corners.size():
		return  # no water yet: the world is still solving
	# Each corner stands for an eighth of the crate, wet from the moment the water reaches
	# half a metre below it (the middle of that eighth's column) to fully under.
	var eighth := WATER_DENSITY * GRAVITY * (2.0 * HALF) ** 3 / corners.size()
	for i in corners.size():
		var depth := depths[i]
		if is_nan(depth):
			continue
		var wet := clampf(depth / (2.0 * HALF) + 0.5, 0.0, 1.0)
		var drag := -linear_velocity * DRAG / corners.size() * wet
		apply_force(up * eighth * wet + drag, corners[i] - global_position)
