extends SceneTree
## Writes the demo's meshes to res://meshes/: the scatter's fir (conifer.tres), broadleaf
## tree (broadleaf.tres), bush (shrub.tres) and stone (rock.tres), each standing on its
## origin with +Y up, and the mill's wheel (wheel.tres), turning about +X; all built from
## the engine's primitive meshes, sizes in metres. Run it again after changing a shape:
##   godot --headless --path demo_project --script res://tools/meshes.gd

const BARK := Color(0.33, 0.24, 0.16)
const FIR := Color(0.12, 0.3, 0.13)
const LEAVES := Color(0.27, 0.44, 0.16)
const BUSH := Color(0.36, 0.42, 0.2)
const STONE := Color(0.48, 0.46, 0.43)
const WOOD := Color(0.42, 0.29, 0.17)
## The wheel: its radius (mill.gd's radius_m), width across the paddles, paddle count.
const WHEEL_RADIUS_M := 1.5
const WHEEL_WIDTH_M := 0.7
const PADDLES := 10


func _initialize() -> void:
	var out := {
		"conifer": _conifer(),
		"broadleaf": _broadleaf(),
		"shrub": _shrub(),
		"rock": _rock(),
		"wheel": _wheel(),
	}
	var failed := false
	for kind in out:
		var path := "res://meshes/%s.tres" % kind
		var err := ResourceSaver.save(out[kind], path)
		print("%s: %d surfaces, %s" % [path, out[kind].get_surface_count(), error_string(err)])
		failed = failed or err != OK
	quit(1 if failed else 0)


## A fir: a short trunk under three stacked cones, 10 m tall.
func _conifer() -> ArrayMesh:
	var mesh := ArrayMesh.new()
	_surface(mesh, BARK, [[_cylinder(0.22, 0.3, 2.0), Vector3(0, 1.0, 0)]])
	var crowns := []
	for tier in [[2.3, 4.0, 3.4], [1.8, 3.4, 5.6], [1.2, 2.8, 7.6]]:
		crowns.append([_cylinder(0.0, tier[0], tier[1]), Vector3(0, tier[2], 0)])
	_surface(mesh, FIR, crowns)
	return mesh


## A broadleaf tree: a trunk under a crown of four overlapping balls, 9 m tall.
func _broadleaf() -> ArrayMesh:
	var mesh := ArrayMesh.new()
	_surface(mesh, BARK, [[_cylinder(0.2, 0.32, 4.5), Vector3(0, 2.25, 0)]])
	_surface(
		mesh,
		LEAVES,
		[
			[_ball(2.6, 2.2), Vector3(0, 6.2, 0)],
			[_ball(1.8, 1.6), Vector3(1.4, 5.2, 0.6)],
			[_ball(1.7, 1.5), Vector3(-1.2, 5.4, -0.8)],
			[_ball(1.5, 1.4), Vector3(0.2, 7.4, 0.3)],
		]
	)
	return mesh


## A bush: three low balls, 1.6 m tall.
func _shrub() -> ArrayMesh:
	var mesh := ArrayMesh.new()
	_surface(
		mesh,
		BUSH,
		[
			[_ball(1.0, 0.8), Vector3(0, 0.7, 0)],
			[_ball(0.75, 0.6), Vector3(0.8, 0.5, 0.3)],
			[_ball(0.7, 0.6), Vector3(-0.6, 0.5, -0.5)],
		]
	)
	return mesh


## A stone: a flattened ball, sunk a little into the ground.
func _rock() -> ArrayMesh:
	var mesh := ArrayMesh.new()
	_surface(mesh, STONE, [[_ball(0.6, 0.4), Vector3(0, 0.15, 0)]])
	return mesh


## A water wheel about the X axis: two rims with their spokes, a hub and PADDLES paddles
## between the rims.
func _wheel() -> ArrayMesh:
	var parts := []
	var across := Basis(Vector3.BACK, PI / 2.0)
	var hub := _cylinder(0.18, 0.18, WHEEL_WIDTH_M + 0.3)
	parts.append([hub, Transform3D(across, Vector3.ZERO)])
	for side in [-1.0, 1.0]:
		var x: float = side * WHEEL_WIDTH_M / 2.0
		var rim := TorusMesh.new()
		rim.inner_radius = WHEEL_RADIUS_M - 0.12
		rim.outer_radius = WHEEL_RADIUS_M
		rim.rings = 24
		rim.ring_segments = 4
		parts.append([rim, Transform3D(across, Vector3(x, 0, 0))])
		for k in 4:
			var spoke := BoxMesh.new()
			spoke.size = Vector3(0.06, 2.0 * WHEEL_RADIUS_M - 0.1, 0.08)
			parts.append([spoke, Transform3D(Basis(Vector3.RIGHT, PI * k / 4.0), Vector3(x, 0, 0))])
	for k in PADDLES:
		var turn := Basis(Vector3.RIGHT, TAU * k / PADDLES)
		var paddle := BoxMesh.new()
		paddle.size = Vector3(WHEEL_WIDTH_M + 0.06, 0.45, 0.05)
		parts.append([paddle, Transform3D(turn, turn * Vector3(0, WHEEL_RADIUS_M - 0.22, 0))])
	var mesh := ArrayMesh.new()
	_surface(mesh, WOOD, parts)
	return mesh


## Adds one surface of `colour` to `mesh`, made of `parts` ([primitive mesh, offset or
## transform]).
func _surface(mesh: ArrayMesh, colour: Color, parts: Array) -> void:
	var tool := SurfaceTool.new()
	tool.begin(Mesh.PRIMITIVE_TRIANGLES)
	for part in parts:
		var at: Variant = part[1]
		tool.append_from(part[0], 0, at if at is Transform3D else Transform3D(Basis(), at))
	var material := StandardMaterial3D.new()
	material.albedo_color = colour
	material.roughness = 0.9
	tool.set_material(material)
	tool.commit(mesh)


## A cylinder or cone along +Y centred on its middle, radii and height in metres.
func _cylinder(top: float, bottom: float, height: float) -> CylinderMesh:
	var shape := CylinderMesh.new()
	shape.top_radius = top
	shape.bottom_radius = bottom
	shape.height = height
	shape.radial_segments = 8
	shape.rings = 1
	return shape


## A ball of `radius` squashed to `height`, metres, centred on its middle.
func _ball(radius: float, height: float) -> SphereMesh:
	var shape := SphereMesh.new()
	shape.radius = radius
	shape.height = height * 2.0
	shape.radial_segments = 10
	shape.rings = 5
	return shape
