@tool
extends Node3D
## A water mill: its wheel stands in a river and turns at the rim speed of the flow at its
## lowest paddle's depth, ω = v / r, read from WaterTable.mill_rate(); `flow_factor` scales
## the river's discharge (2 doubles it). The wheel's shaft runs across the river to the mill
## house on the nearer bank; two boards either side of the wheel make its race.

const Buildings := preload("res://buildings.gd")
## The mill house (metres: width along the shaft, wall height, depth along the river); a
## house on piles is smaller.
const HOUSE_SIZE := Vector3(6.0, 4.2, 7.0)
const PILE_HOUSE_SIZE := Vector3(4.5, 3.4, 5.5)
const PILE_SIZE := Vector3(0.3, 0.0, 0.3)
## How far across the river the bank is looked for, in steps of BANK_STEP_M.
const BANK_SEARCH_M := MAX_SHAFT_M
const BANK_STEP_M := 0.5
## The longest shaft to a house on the bank, metres; a house on piles stands PILES_M from
## the wheel, its floor FLOOR_ABOVE_WATER_M over the water.
const MAX_SHAFT_M := 6.0
const PILES_M := 0.8
const FLOOR_ABOVE_WATER_M := 0.8
const SHAFT_RADIUS_M := 0.12
## The race's boards: length along the river, height, thickness; their tops stand this far
## above the water.
const RACE_SIZE := Vector3(0.1, 1.0, 6.0)
const RACE_FREEBOARD_M := 0.3
## Half the wheel's width (meshes/wheel.tres), metres.
const WHEEL_HALF_WIDTH_M := 0.35
const WOOD := Color(0.42, 0.29, 0.17)

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
	_build_works(level)
	_placed = true


## The mill house on the nearer bank across the flow, the shaft to it and the race boards,
## under a "Works" child rebuilt at every placing; the water stands at `level` (m).
func _build_works(level: float) -> void:
	var old := get_node_or_null("Works")
	if old != null:
		remove_child(old)
		old.queue_free()
	var works := Node3D.new()
	works.name = "Works"
	add_child(works)
	var axle_above_water := radius_m - dip_m
	var wood := StandardMaterial3D.new()
	wood.albedo_color = WOOD
	for side in [-1.0, 1.0]:
		var board := BoxMesh.new()
		board.size = RACE_SIZE
		var y := RACE_FREEBOARD_M - RACE_SIZE.y / 2.0 - axle_above_water
		_add(
			works,
			board,
			Transform3D(Basis(), Vector3(side * (WHEEL_HALF_WIDTH_M + 0.15), y, 0)),
			wood
		)
	var bank := _bank()
	var on_piles := bank == 0.0
	var side := 1.0 if on_piles else signf(bank)
	var reach := WHEEL_HALF_WIDTH_M + PILES_M if on_piles else absf(bank)
	var size := PILE_HOUSE_SIZE if on_piles else HOUSE_SIZE
	var centre := side * (reach + size.x / 2.0)
	var corners: Array[Vector3] = []
	var grounds := PackedFloat64Array()
	for corner in [Vector2(-1, -1), Vector2(1, -1), Vector2(-1, 1), Vector2(1, 1)]:
		corners.append(Vector3(centre + corner.x * size.x / 2.0, 0, corner.y * size.z / 2.0))
		grounds.append(_ground(to_global(corners[-1])))
	var highest: float = Array(grounds).max()
	var lowest: float = Array(grounds).min()
	var floor_m := maxf(highest, level + FLOOR_ABOVE_WATER_M)
	var floor_y := floor_m - level - axle_above_water
	var look := RandomNumberGenerator.new()
	look.seed = hash(global_position)
	var below := 0.0 if on_piles else floor_m - lowest
	var house := Buildings.house(size, below, look)
	house.name = "House"
	# The house's door (+Z) faces away from the river.
	house.transform = Transform3D(Basis(Vector3.UP, side * PI / 2.0), Vector3(centre, floor_y, 0))
	works.add_child(house)
	if on_piles:
		for k in corners.size():
			var pile := BoxMesh.new()
			pile.size = PILE_SIZE + Vector3(0, floor_m - grounds[k], 0)
			var foot := corners[k] * Vector3(0.85, 0, 0.85) + Vector3(centre * 0.15, 0, 0)
			var pile_at := foot + Vector3(0, floor_y - pile.size.y / 2.0, 0)
			_add(works, pile, Transform3D(Basis(), pile_at), wood)
	var shaft := CylinderMesh.new()
	shaft.top_radius = SHAFT_RADIUS_M
	shaft.bottom_radius = SHAFT_RADIUS_M
	shaft.height = reach + 0.5
	var across := Basis(Vector3.BACK, PI / 2.0)
	_add(works, shaft, Transform3D(across, Vector3(side * (reach + 0.5) / 2.0, 0, 0)), wood)
	# The bearing post on the far side of the wheel, down to the river bed.
	var post := BoxMesh.new()
	post.size = Vector3(0.25, radius_m + 1.0, 0.25)
	var post_at := Vector3(-side * (WHEEL_HALF_WIDTH_M + 0.3), -post.size.y / 2.0 + 0.15, 0)
	_add(works, post, Transform3D(Basis(), post_at), wood)


## The nearer bank across the flow: metres from the wheel along +X (positive) or -X
## (negative) to the first ground above the water; 0 where none is within BANK_SEARCH_M.
func _bank() -> float:
	var steps := int(BANK_SEARCH_M / BANK_STEP_M)
	for k in range(1, steps + 1):
		var d := k * BANK_STEP_M
		for side in [1.0, -1.0]:
			var at := to_global(Vector3(side * d, 0, 0))
			var level := water_table.level_at(at)
			if is_nan(level) or _ground(at) >= level:
				return side * d
	return 0.0


## The carved ground under `at` (a position), metres above the datum.
func _ground(at: Vector3) -> float:
	var solver: DrainageSolver = water_table.get("solver")
	return solver.ground_at(at) if solver != null else planet.height_at(at)


func _add(parent: Node3D, mesh: Mesh, at: Transform3D, material: Material) -> void:
	var part := MeshInstance3D.new()
	part.mesh = mesh
	part.material_override = material
	part.transform = at
	parent.add_child(part)


func _process(delta: float) -> void:
	if Engine.is_editor_hint() or water_table == null or not _placed:
		return
	var omega := water_table.mill_rate(global_position, radius_m, dip_m)
	rate = 0.0 if is_nan(omega) else omega * flow_factor
	turned += rate * delta
	elapsed += delta
	_wheel.rotation.x = fmod(turned, TAU)
