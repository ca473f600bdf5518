extends RefCounted
## Houses built from the engine's primitive meshes: plastered or timber walls on a plinth
## that reaches down to the lowest corner of the ground, a gabled roof, a door, framed
## windows and a chimney. Sizes in metres; a house's origin is the middle of its floor, +Y
## up, its door on the +Z wall.

## Wall colours: whitewash, ochre, timber, grey stone.
const WALLS: Array[Color] = [
	Color(0.76, 0.73, 0.66), Color(0.74, 0.6, 0.38), Color(0.5, 0.37, 0.25), Color(0.57, 0.55, 0.51)
]
## Roof colours: red tile, slate, thatch.
const ROOFS: Array[Color] = [Color(0.52, 0.2, 0.14), Color(0.24, 0.26, 0.3), Color(0.5, 0.41, 0.24)]
const DOOR := Color(0.3, 0.19, 0.11)
const GLASS := Color(0.12, 0.16, 0.22)
const FRAME := Color(0.8, 0.78, 0.72)
const CHIMNEY := Color(0.42, 0.38, 0.36)
## How far the roof overhangs the walls, and the plinth below the floor.
const EAVES_M := 0.35
const PLINTH_M := 0.3
const DOOR_SIZE := Vector3(1.0, 2.0, 0.12)
const WINDOW_SIZE := Vector3(0.8, 0.9, 0.12)
const FRAME_M := 0.1
## Windows along a side wall: one per this many metres of it.
const WINDOW_EVERY_M := 2.4

## One material per colour, shared by every house.
static var _materials := {}


## A house `size` (width along X, wall height, depth along Z) whose walls reach `plinth_m`
## below its floor; `look` picks its colours and roof pitch (random draws).
static func house(size: Vector3, plinth_m: float, look: RandomNumberGenerator) -> Node3D:
	var node := Node3D.new()
	var wall := _material(WALLS[look.randi() % WALLS.size()])
	var roof := _material(ROOFS[look.randi() % ROOFS.size()])
	var bottom := -(plinth_m + PLINTH_M)
	var walls := Vector3(size.x, size.y - bottom, size.z)
	_box(node, walls, Vector3(0, (size.y + bottom) / 2.0, 0), wall)
	# The gable roof: its ridge runs front to back, over the door.
	var pitch := look.randf_range(0.35, 0.55) * size.x
	var prism := PrismMesh.new()
	prism.size = Vector3(size.x + 2.0 * EAVES_M, pitch, size.z + 2.0 * EAVES_M)
	_part(node, prism, Vector3(0, size.y + pitch / 2.0, 0), roof)
	var chimney := Vector3(0.6, pitch + 0.6, 0.6)
	var chimney_x := size.x * look.randf_range(-0.25, 0.25)
	var chimney_at := Vector3(chimney_x, size.y + chimney.y / 2.0, -size.z / 4.0)
	_box(node, chimney, chimney_at, _material(CHIMNEY))
	var door_x := size.x * look.randf_range(-0.2, 0.2)
	var front := size.z / 2.0
	_box(node, DOOR_SIZE, Vector3(door_x, DOOR_SIZE.y / 2.0, front), _material(DOOR))
	var sill := 1.0 + WINDOW_SIZE.y / 2.0
	var beside := door_x - signf(door_x + 0.01) * size.x * 0.3
	_window(node, Vector3(beside, sill, front), Basis())
	var per_side := maxi(1, int(size.z / WINDOW_EVERY_M))
	for k in per_side:
		var z := -front + size.z * (k + 0.5) / per_side
		for side in [-1.0, 1.0]:
			var across := Basis(Vector3.UP, side * PI / 2.0)
			_window(node, Vector3(side * size.x / 2.0, sill, z), across)
	return node


## A framed window on a wall at `at`, facing out along `facing`'s +Z.
static func _window(node: Node3D, at: Vector3, facing: Basis) -> void:
	var frame := WINDOW_SIZE + Vector3(2.0 * FRAME_M, 2.0 * FRAME_M, -0.04)
	_box(node, frame, at, _material(FRAME), facing)
	_box(node, WINDOW_SIZE, at + facing * Vector3(0, 0, 0.01), _material(GLASS), facing)


static func _box(
	node: Node3D, size: Vector3, at: Vector3, material: Material, turn := Basis()
) -> void:
	var box := BoxMesh.new()
	box.size = size
	_part(node, box, at, material, turn)


static func _part(
	node: Node3D, mesh: Mesh, at: Vector3, material: Material, turn := Basis()
) -> void:
	var part := MeshInstance3D.new()
	part.mesh = mesh
	part.material_override = material
	part.transform = Transform3D(turn, at)
	node.add_child(part)


static func _material(colour: Color) -> StandardMaterial3D:
	if not _materials.has(colour):
		var material := StandardMaterial3D.new()
		material.albedo_color = colour
		material.roughness = 0.85
		_materials[colour] = material
	return _materials[colour]
