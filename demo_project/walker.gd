extends CharacterBody3D
## Walks on the planet with gravity toward its centre, swims where WaterTable says the
## water is, and looks around with the mouse. WASD to move, space to jump or swim up. The
## planet's centre is the world origin. It holds still where the ground has not streamed in.

const SPEED := 6.0
const SWIM_SPEED := 2.5
const JUMP := 5.0
const GRAVITY := 9.81
const MOUSE_SENSITIVITY := 0.003

@export var water_table: WaterTable

var _pitch := 0.0

@onready var _camera: Camera3D = $Camera3D


func _unhandled_input(event: InputEvent) -> void:
	var motion := event as InputEventMouseMotion
	if motion != null and Input.mouse_mode == Input.MOUSE_MODE_CAPTURED:
		rotate_object_local(Vector3.UP, -motion.relative.x * MOUSE_SENSITIVITY)
		_pitch = clampf(_pitch - motion.relative.y * MOUSE_SENSITIVITY, -1.4, 1.4)
		_camera.rotation.x = _pitch
	elif event is InputEventMouseButton:
		Input.mouse_mode = Input.MOUSE_MODE_CAPTURED
	elif event.is_action_pressed("ui_cancel"):
		Input.mouse_mode = Input.MOUSE_MODE_VISIBLE


func _physics_process(delta: float) -> void:
	var up := global_position.normalized()
	if up == Vector3.ZERO:
		return
	up_direction = up
	_align_to(up)
	var swimming := water_table != null and water_table.is_underwater(global_position)
	if not swimming and not is_on_floor() and not _ground_streamed_in():
		velocity = Vector3.ZERO
		return
	var input := Vector2(
		float(Input.is_physical_key_pressed(KEY_D)) - float(Input.is_physical_key_pressed(KEY_A)),
		float(Input.is_physical_key_pressed(KEY_S)) - float(Input.is_physical_key_pressed(KEY_W))
	)
	var wish := (global_basis.x * input.x + global_basis.z * input.y).normalized()
	var vertical := velocity.dot(up)
	var speed := SWIM_SPEED if swimming else SPEED
	if swimming:
		vertical = lerpf(vertical, 1.5 if Input.is_physical_key_pressed(KEY_SPACE) else 0.4, 0.1)
	elif is_on_floor():
		vertical = JUMP if Input.is_physical_key_pressed(KEY_SPACE) else 0.0
	else:
		vertical -= GRAVITY * delta
	velocity = wish * speed + up * vertical
	move_and_slide()


## Puts the walker at `point` (metres from the planet's centre), at rest. It holds there
## until the ground under it has streamed in.
func teleport_to(point: Vector3) -> void:
	global_position = point
	velocity = Vector3.ZERO


## Turns the walker, level, toward `point` (metres from the planet's centre).
func face(point: Vector3) -> void:
	var up := global_position.normalized()
	var forward := point - global_position
	forward -= up * forward.dot(up)
	if forward.length() > 0.001 and up != Vector3.ZERO:
		global_basis = Basis.looking_at(forward.normalized(), up)


## Whether any collider lies between the walker and the planet's centre (the terrain
## streams its collision in around the walker a few frames after a teleport).
func _ground_streamed_in() -> bool:
	var query := PhysicsRayQueryParameters3D.create(global_position, Vector3.ZERO)
	query.exclude = [get_rid()]
	return not get_world_3d().direct_space_state.intersect_ray(query).is_empty()


func _align_to(up: Vector3) -> void:
	var forward := -global_basis.z
	forward = (forward - up * forward.dot(up)).normalized()
	if forward == Vector3.ZERO:
		forward = up.cross(Vector3.RIGHT).normalized()
	global_basis = Basis.looking_at(forward, up)
