@tool
extends Node3D
## A mill wheel standing in a river: it turns at the rim speed of the flow at its lowest
## paddle's depth, ω = v / r, read from WaterTable.mill_rate(); `flow_factor` scales the
## river's discharge (2 doubles it).

@export var water_table: WaterTable
@export var planet: PlanetHeight
@export var radius_m := 1.5
@export var dip_m := 0.35
@export var flow_factor := 1.0

## The rate the wheel turns at now, rad/s.
var rate := 0.0
## How far the wheel has turned, radians.
var turned := 0.0
## How long it has been turning, seconds.
var elapsed := 0.0

var _placed := false

@onready var _wheel: Node3D = $Wheel


## Seats the wheel on the river at `direction`: its lowest paddle `dip_m` under the surface,
## its axle across the flow.
func place_at(direction: Vector3) -> void:
	if planet == null or water_table == null:
		return
	var dir := direction.normalized()
	var level := water_table.level_at(dir)
	if is_nan(level):
		level = planet.height_at(dir)
	global_position = dir * (planet.radius_m() + level + radius_m - dip_m)
	# The axle lies across the river: the wheel faces down the flow where there is one.
	var flow := water_table.flow_at(dir * (planet.radius_m() + level))
	var forward := flow - dir * flow.dot(dir)
	if forward.length() < 1e-6:
		forward = dir.cross(Vector3.UP)
	if forward.length() < 1e-6:
		forward = dir.cross(Vector3.RIGHT)
	global_basis = Basis.looking_at(forward.normalized(), dir)
	_placed = true


func _process(delta: float) -> void:
	if Engine.is_editor_hint() or water_table == null or not _placed:
		return
	var omega := water_table.mill_rate(global_position, radius_m, dip_m)
	rate = 0.0 if is_nan(omega) else omega * flow_factor
	turned += rate * delta
	elapsed += delta
	_wheel.rotation.x = fmod(turned, TAU)
