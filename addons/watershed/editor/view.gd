@tool
extends RefCounted
## The 3D editor viewport's camera, moved for the Watershed panel: look at a spot on a
## planet from above, and see as far as a planet needs. Godot offers no call for this; the
## viewport adopts a camera moved by a script as its own view (its orbit pivot then lies
## `distance` in front of the camera), and the view distance is the one its View > Settings
## dialog sets. Both are reached through the editor's own controls.

## The farthest the editor camera sees once a planet is framed, metres (the editor's default
## is 4,000: a planet 10 km across would be cut off).
const FAR_M := 100000.0


## Points the first 3D viewport's camera at `target` (global) from `eye` (global), roll-free,
## and makes it see at least `far_m`. The orbit pivot is set on `target` where the editor lets
## it (up to a quarter of the view distance, at most 10 km). Returns false when there is no
## 3D viewport (a headless editor has one too).
static func look_at(eye: Vector3, target: Vector3, far_m: float = FAR_M) -> bool:
	var viewport := EditorInterface.get_editor_viewport_3d(0)
	if viewport == null or viewport.get_camera_3d() == null:
		return false
	EditorInterface.set_main_screen_editor("3D")
	_set_view_distance(far_m)
	_set_pivot_distance(viewport, eye.distance_to(target))
	var forward := (target - eye).normalized()
	var up := Vector3.UP
	if absf(forward.dot(up)) > 0.999:
		# Straight down or up: the editor's camera has no roll, so lean it a little.
		forward = (forward + Vector3(0.0, 0.0, -0.05)).normalized()
	viewport.get_camera_3d().global_transform = Transform3D(Basis.looking_at(forward, up), eye)
	return true


## The camera of the first 3D viewport, global (null without one).
static func camera() -> Camera3D:
	var viewport := EditorInterface.get_editor_viewport_3d(0)
	return null if viewport == null else viewport.get_camera_3d()


## Raises the 3D editor's view distance (View > Settings > View Z-Far) to at least `far_m`.
static func _set_view_distance(far_m: float) -> void:
	var dialog := _settings_dialog()
	if dialog == null:
		return
	var boxes := dialog.find_children("*", "SpinBox", true, false)
	# The dialog's spin boxes are the field of view, Z-near and Z-far, in that order.
	var z_far: SpinBox = boxes[2]
	if z_far.value < far_m:
		z_far.max_value = maxf(z_far.max_value, far_m)
		z_far.value = far_m
		dialog.confirmed.emit()


## The 3D editor's View > Settings dialog: the confirmation dialog under the 3D editor that
## holds the three view spin boxes (null when it cannot be found).
static func _settings_dialog() -> ConfirmationDialog:
	var main := EditorInterface.get_editor_main_screen()
	for editor in main.find_children("*", "Node3DEditor", true, false):
		for dialog: ConfirmationDialog in editor.find_children("*", "ConfirmationDialog", true, false):
			if dialog.find_children("*", "SpinBox", true, false).size() == 3:
				return dialog
	return null


## Sets the orbit pivot's distance in front of the camera to `distance_m` (within the
## editor's limits), as a zoom with the mouse wheel would: one wheel step all the way in,
## then one out by the factor that reaches the distance.
static func _set_pivot_distance(viewport: SubViewport, distance_m: float) -> void:
	var surface := _surface(viewport)
	if surface == null:
		return
	var centre := surface.size / 2.0
	var zoom_in := InputEventMouseButton.new()
	zoom_in.button_index = MOUSE_BUTTON_WHEEL_UP
	zoom_in.pressed = true
	zoom_in.factor = 1.0e6
	zoom_in.position = centre
	surface.gui_input.emit(zoom_in)
	var camera := viewport.get_camera_3d()
	# The editor's nearest pivot distance: four times Z-near (and 1 cm at least).
	var nearest := maxf(camera.near * 4.0, 0.01)
	var zoom_out := InputEventMouseButton.new()
	zoom_out.button_index = MOUSE_BUTTON_WHEEL_DOWN
	zoom_out.pressed = true
	# One wheel step scales the distance by 1 + 0.08 × factor.
	zoom_out.factor = maxf(distance_m / nearest - 1.0, 0.0) / 0.08
	zoom_out.position = centre
	surface.gui_input.emit(zoom_out)


## The control of `viewport`'s Node3DEditorViewport that takes its mouse and keys: the
## SubViewportContainer's sibling that fills it.
static func _surface(viewport: SubViewport) -> Control:
	var container := viewport.get_parent()
	var editor_viewport := container.get_parent() if container != null else null
	if editor_viewport == null:
		return null
	for child in editor_viewport.get_children():
		if child != container and child is Control and child.get_class() == "Control":
			return child
	return null
