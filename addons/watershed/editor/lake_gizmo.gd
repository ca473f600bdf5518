@tool
extends EditorNode3DGizmoPlugin
## A handle over every PlanetHeight's guaranteed lake basin (its WorldSettings' `lake_*`
## properties): drag it over the planet to move the basin; letting go is one undoable edit,
## and the planet re-solves once. The handle floats above the highest ground, on a stem down
## to the sea level, so it is never buried and never waits for the ground to be built.

const HANDLE_LIFT_M := 100.0
const STEM_COLOR := Color(0.1, 0.35, 1.0)

var _undo: EditorUndoRedoManager
## PlanetHeight instance id -> Vector2(lat_deg, lon_deg) of the basin while it is dragged.
var _dragged := {}


func _init(undo: EditorUndoRedoManager) -> void:
	_undo = undo
	create_handle_material("handles")
	create_material("stem", STEM_COLOR)


func _get_gizmo_name() -> String:
	return "Watershed lake basin"


func _has_gizmo(node: Node3D) -> bool:
	return node is PlanetHeight


func _redraw(gizmo: EditorNode3DGizmo) -> void:
	gizmo.clear()
	var planet := gizmo.get_node_3d() as PlanetHeight
	var settings: WorldSettings = planet.settings
	if settings == null or not settings.lake_guaranteed:
		return
	var lat_lon: Vector2 = _dragged.get(
		planet.get_instance_id(), Vector2(settings.lake_lat_deg, settings.lake_lon_deg)
	)
	var dir := PlanetHeight.direction(lat_lon.x, lat_lon.y)
	var top := dir * _handle_radius(settings)
	var foot := dir * (settings.radius_m + minf(settings.sea_level_m, 0.0))
	gizmo.add_lines(PackedVector3Array([foot, top]), get_material("stem", gizmo))
	gizmo.add_handles(PackedVector3Array([top]), get_material("handles", gizmo), PackedInt32Array())


func _get_handle_name(_gizmo: EditorNode3DGizmo, _id: int, _secondary: bool) -> String:
	return "Lake basin"


func _get_handle_value(gizmo: EditorNode3DGizmo, _id: int, _secondary: bool) -> Variant:
	var settings: WorldSettings = (gizmo.get_node_3d() as PlanetHeight).settings
	return Vector2(settings.lake_lat_deg, settings.lake_lon_deg)


func _set_handle(
	gizmo: EditorNode3DGizmo, _id: int, _secondary: bool, camera: Camera3D, point: Vector2
) -> void:
	var planet := gizmo.get_node_3d() as PlanetHeight
	var settings: WorldSettings = planet.settings
	var to_planet := planet.global_transform.affine_inverse()
	var origin := to_planet * camera.project_ray_origin(point)
	var ray := (to_planet.basis * camera.project_ray_normal(point)).normalized()
	var hit := PlanetHeight.ray_sphere(origin, ray, _handle_radius(settings))
	if hit == Vector3.INF:
		return
	_dragged[planet.get_instance_id()] = PlanetHeight.lat_lon(hit)
	planet.update_gizmos()


func _commit_handle(
	gizmo: EditorNode3DGizmo, _id: int, _secondary: bool, restore: Variant, cancel: bool
) -> void:
	var planet := gizmo.get_node_3d() as PlanetHeight
	var dragged: Variant = _dragged.get(planet.get_instance_id())
	_dragged.erase(planet.get_instance_id())
	var settings: WorldSettings = planet.settings
	if cancel or dragged == null or settings == null:
		planet.update_gizmos()
		return
	_undo.create_action("Move the lake basin")
	_undo.add_do_property(settings, "lake_lat_deg", dragged.x)
	_undo.add_do_property(settings, "lake_lon_deg", dragged.y)
	_undo.add_undo_property(settings, "lake_lat_deg", restore.x)
	_undo.add_undo_property(settings, "lake_lon_deg", restore.y)
	_undo.add_do_method(planet, "update_gizmos")
	_undo.add_undo_method(planet, "update_gizmos")
	_undo.commit_action()


func _handle_radius(settings: WorldSettings) -> float:
	return settings.radius_m + settings.relief_m + HANDLE_LIFT_M
