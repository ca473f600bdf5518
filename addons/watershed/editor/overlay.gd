@tool
extends MeshInstance3D
## The rivers and lakes of a solved planet drawn as lines over its ground in the editor's
## viewport (DrainageSolver.water_lines): rivers light blue, lakes deep blue, drawn over the
## terrain near them so a river in its channel stays in sight. An internal child of the
## planet's centre node, never saved with the scene.

## How far above the water the lines run, metres.
const LIFT_M := 4.0
const RIVER_COLOR := Color(0.35, 0.85, 1.0)
const LAKE_COLOR := Color(0.1, 0.35, 1.0)
## The lines are drawn as if this share of the way nearer the camera, so the ground's coarse
## far-off chunks do not hide them, while the far side of the planet still does.
const PULL_TOWARD_CAMERA := 0.01

const SHADER := """
shader_type spatial;
render_mode unshaded, cull_disabled, fog_disabled;

uniform float pull = 0.01;

void vertex() {
	vec4 view = MODELVIEW_MATRIX * vec4(VERTEX, 1.0);
	view.xyz *= 1.0 - pull;
	POSITION = PROJECTION_MATRIX * view;
}

void fragment() {
	ALBEDO = COLOR.rgb;
}
"""


func _init() -> void:
	name = "WatershedOverlay"
	cast_shadow = GeometryInstance3D.SHADOW_CASTING_SETTING_OFF
	var material := ShaderMaterial.new()
	var shader := Shader.new()
	shader.code = SHADER
	material.shader = shader
	material.set_shader_parameter("pull", PULL_TOWARD_CAMERA)
	material_override = material


## Draws `solver`'s rivers and lakes (nothing before its first solve).
func draw(solver: DrainageSolver) -> void:
	var lines := solver.water_lines(LIFT_M)
	var vertices := PackedVector3Array()
	var colors := PackedColorArray()
	for kind: String in ["lakes", "rivers"]:
		var points: PackedVector3Array = lines.get(kind, PackedVector3Array())
		vertices.append_array(points)
		var block := PackedColorArray()
		block.resize(points.size())
		block.fill(LAKE_COLOR if kind == "lakes" else RIVER_COLOR)
		colors.append_array(block)
	if vertices.is_empty():
		mesh = null
		return
	var arrays := []
	arrays.resize(Mesh.ARRAY_MAX)
	arrays[Mesh.ARRAY_VERTEX] = vertices
	arrays[Mesh.ARRAY_COLOR] = colors
	var lines_mesh := ArrayMesh.new()
	lines_mesh.add_surface_from_arrays(Mesh.PRIMITIVE_LINES, arrays)
	mesh = lines_mesh

