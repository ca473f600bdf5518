extends SceneTree
## capture: what a player sees. Where a renderer is available (run.sh runs the editor
## build, or godot-gl, under Xvfb at 640×360), opens the demo, waits for the solve, and at
## each named view waits for the terrain around the walker to stream in, writes the frame to
## user://capture_<view>.png and checks it: not washed out; the sky above the ground or the
## water where the view looks out over the country (the horizon is in the frame); blue-green
## sea where it looks over the sea; the mill wheel in the frame where it looks at the mill,
## the boat where it looks at the boat; no crate, wheel or boat covering more than a fifth
## of the frame; terrain triangles at a walker on dry ground no longer than MAX_TRIANGLE_M;
## the place picker naming the view; the UI panel's words, where the engine draws text. Then
## the UI's pickers and status line (inside its panel), and a contact sheet of every frame
## (user://capture_sheet.png, or the path after `--sheet`). Headless there is nothing to
## capture: it says so and passes.

const Lib := preload("res://probes/probe_lib.gd")
const VIEWS: Array[String] = [
	"spawn", "village", "downstream", "mouth", "lake", "sea", "forest", "snow", "boat"
]
## Views that look out over the country: the sky shows above it.
const HORIZON_VIEWS: Array[String] = ["spawn", "village", "mouth", "lake", "sea"]
## Views that look out over the sea: the lower part of the frame is water.
const SEA_VIEWS: Array[String] = ["mouth", "sea"]
## Views that look at the mill wheel, and at the boat: it must be in the frame.
const WHEEL_VIEWS: Array[String] = ["downstream"]
const BOAT_VIEWS: Array[String] = ["boat"]
## The least of a frame a wheel or a boat in view covers.
const MIN_WHEEL_SHARE := 0.002
const SOLVE_TIMEOUT_MS := 120000
## Frames to wait after a teleport before asking whether the terrain has settled, and the
## most to wait for it.
const TELEPORT_FRAMES := 5
const STREAM_FRAMES := 300
## Frames the settled view is drawn before it is captured (lights, physics, waves).
const SETTLE_FRAMES := 20
## The most of a frame that may be near-white (each channel at least WHITE).
const MAX_WHITE_SHARE := 0.2
const WHITE := 0.96
## The most of a frame one object may cover.
const MAX_OBJECT_SHARE := 0.2
## The longest horizontal edge of a terrain triangle within TRIANGLE_REACH_M of the walker.
const MAX_TRIANGLE_M := 2.0
const TRIANGLE_REACH_M := 6.0
## The UI panel's corner: pixels left of and above it are not the scene.
const UI_CORNER := Vector2i(340, 125)
## Where the engine draws text, the least share of the UI panel's pixels in text colour
## (light and grey, TEXT_LIGHT and within TEXT_GREY): the world's and the place's names and
## the status line. Measured at 640×360: 0.035-0.042 with the editor build's text server in
## all nine views of home, 0.000 with godot-gl's Dummy one (panels without words).
const MIN_TEXT_SHARE := 0.02
const TEXT_LIGHT := 0.7
const TEXT_GREY := 0.1

var _lib := Lib.new()
var _main: Node


func _initialize() -> void:
	_run.call_deferred()


func _run() -> void:
	if DisplayServer.get_name() == "headless":
		_lib.skip("capture/frames", "headless: no renderer, nothing to capture")
		_lib.finish(self)
		return
	_main = (load("res://main.tscn") as PackedScene).instantiate()
	root.add_child(_main)
	var solver: DrainageSolver = _main.get_node("Planet/DrainageSolver")
	await _lib.wait_until(self, solver.is_solved, SOLVE_TIMEOUT_MS)
	_lib.check("capture/solved", solver.is_solved(), solver.is_solved(), true)
	if not solver.is_solved():
		_lib.finish(self)
		return
	var frames: Array[Image] = []
	for view in VIEWS:
		if not _main.places.has(view):
			_lib.skip("capture/%s" % view, "this world has no %s" % view)
			continue
		var image := await _capture(view)
		frames.append(image)
		_check_words(view, image)
		var picker: OptionButton = _main.get_node("UI/Panel/Rows/PlacePicker")
		var shown := picker.get_item_text(picker.selected) if picker.selected >= 0 else ""
		_lib.check("capture/%s/picker" % view, shown == view, shown, view)
		_check_frame(view, image)
	_check_ui()
	_write_sheet(frames)
	_lib.finish(self)


## Teleports to `view`, waits for the terrain, saves and returns the frame.
func _capture(view: String) -> Image:
	_main.teleport(view)
	var terrain: Node = _main.get_node("Planet/PlanetTerrain")
	await _lib.wait_frames(self, TELEPORT_FRAMES)
	var waited := 0
	while not terrain.is_settled() and waited < STREAM_FRAMES:
		await process_frame
		waited += 1
	_lib.check("capture/%s/terrain_streamed" % view, terrain.is_settled(), waited, "settled")
	await _lib.wait_frames(self, SETTLE_FRAMES)
	var image := root.get_viewport().get_texture().get_image()
	image.convert(Image.FORMAT_RGB8)
	var path := "user://capture_%s.png" % view
	var saved := image.save_png(path)
	_lib.check("capture/%s/frame" % view, saved == OK, ProjectSettings.globalize_path(path), "a PNG")
	return image


func _check_frame(view: String, image: Image) -> void:
	var p := "capture/%s" % view
	var size := image.get_size()
	var white := _share(image, Rect2i(Vector2i.ZERO, size), _is_white)
	var washed := "<= %.2f" % MAX_WHITE_SHARE
	_lib.check("%s/not_washed_out" % p, white <= MAX_WHITE_SHARE, "%.2f" % white, washed)
	# The top band right of the UI panel and the bottom band, a tenth of the frame each.
	var top := Rect2i(UI_CORNER.x, 0, size.x - UI_CORNER.x, size.y / 10)
	var bottom := Rect2i(0, size.y * 9 / 10, size.x, size.y / 10)
	if HORIZON_VIEWS.has(view):
		var sky := _share(image, top, _is_sky)
		var apart := _apart(_mean(image, top), _mean(image, bottom))
		var seen := "sky %.2f of the top, %.2f apart from the bottom" % [sky, apart]
		var horizon := sky >= 0.5 and apart > 0.15
		_lib.check("%s/horizon" % p, horizon, seen, "sky above, ground or water below")
	if SEA_VIEWS.has(view):
		var water := _mean(image, bottom)
		var blue_green := water.b > water.r + 0.1 and water.g > water.r and water.v < 0.85
		_lib.check("%s/sea_colour" % p, blue_green, water, "blue-green, not white")
	for path in ["Crate/Mesh", "Mill/Wheel", "Boat/Mesh"]:
		var share := _object_share(_main.get_node(path))
		var object: String = path.get_slice("/", 0).to_lower()
		var within := "<= %.2f" % MAX_OBJECT_SHARE
		_lib.check("%s/%s_share" % [p, object], share <= MAX_OBJECT_SHARE, "%.3f" % share, within)
		var looked_at := (object == "mill" and WHEEL_VIEWS.has(view)) or (
			object == "boat" and BOAT_VIEWS.has(view)
		)
		if looked_at:
			var seen := "%.3f" % share
			var least := ">= %.3f" % MIN_WHEEL_SHARE
			_lib.check("%s/%s_in_view" % [p, object], share >= MIN_WHEEL_SHARE, seen, least)
	if not _main.place_is_wet(view):
		var walker: Node3D = _main.get_node("Walker")
		var longest := _triangle_size_near(walker.global_position, TRIANGLE_REACH_M)
		var fine := longest > 0.0 and longest <= MAX_TRIANGLE_M
		_lib.check("%s/terrain_triangles" % p, fine, "%.2f m" % longest, "<= %.1f m" % MAX_TRIANGLE_M)


## The UI panel shows its words in the frame, where this engine draws text at all.
func _check_words(view: String, image: Image) -> void:
	var panel: Control = _main.get_node("UI/Panel")
	var rect := Rect2i(panel.get_global_rect()).intersection(Rect2i(Vector2i.ZERO, image.get_size()))
	var text := _share(image, rect, _is_text)
	var seen := "%.3f of the panel in text colour" % text
	if _draws_text():
		_lib.check("capture/%s/words" % view, text >= MIN_TEXT_SHARE, seen, ">= %.2f" % MIN_TEXT_SHARE)
	else:
		_lib.skip("capture/%s/words" % view, "this engine build draws no text (%s)" % seen)


## Whether the engine has a text server that draws glyphs (not the Dummy one).
func _draws_text() -> bool:
	return not _text_server() in ["Dummy", "none"]


## The engine's text server's name, "none" without one.
func _text_server() -> String:
	var server := TextServerManager.get_primary_interface()
	return server.get_name() if server != null else "none"


## The UI is filled: every world in the picker, every place in the other, the solve's counts
## in the status line. Whether this engine can draw the text is reported beside it.
func _check_ui() -> void:
	var worlds: OptionButton = _main.get_node("UI/Panel/Rows/WorldPicker")
	var places: OptionButton = _main.get_node("UI/Panel/Rows/PlacePicker")
	var status: Label = _main.get_node("UI/Panel/Rows/Status")
	var catalog := WorldCatalog.new()
	var names := catalog.names() if catalog.load("") else PackedStringArray()
	var listed := worlds.item_count == names.size() and names.size() > 0
	_lib.check("capture/ui/worlds", listed, worlds.item_count, names.size())
	var place_count: int = _main.places.size()
	_lib.check("capture/ui/places", places.item_count == place_count, places.item_count, place_count)
	var counts := status.text.contains("river nodes")
	_lib.check("capture/ui/status", counts, status.text, "the solve's counts")
	# The status line wraps inside its panel: no line runs past the panel's edge, none is cut.
	var panel: Control = _main.get_node("UI/Panel")
	var inside := panel.get_global_rect().encloses(status.get_global_rect())
	var lines := "%d of %d lines shown" % [status.get_visible_line_count(), status.get_line_count()]
	var whole := inside and status.get_visible_line_count() >= status.get_line_count()
	_lib.check("capture/ui/status_fits", whole, lines, "every line, inside the panel")
	var server_name := _text_server()
	if server_name == "Dummy":
		var why := "this engine build draws no text: the frames show the UI's panels, not its words"
		_lib.info("capture/ui/text_server", "Dummy: %s" % why)
	else:
		_lib.info("capture/ui/text_server", server_name)


## Every frame side by side, two to a row, saved beside the frames and where `--sheet` says.
func _write_sheet(frames: Array[Image]) -> void:
	if frames.is_empty():
		return
	var size := frames[0].get_size()
	var rows := (frames.size() + 1) / 2
	var sheet := Image.create(size.x * 2, size.y * rows, false, Image.FORMAT_RGB8)
	for k in frames.size():
		var at := Vector2i((k % 2) * size.x, (k / 2) * size.y)
		sheet.blit_rect(frames[k], Rect2i(Vector2i.ZERO, size), at)
	var paths := ["user://capture_sheet.png"]
	var args := OS.get_cmdline_user_args()
	var at := args.find("--sheet")
	if at >= 0 and at + 1 < args.size():
		paths.append(args[at + 1])
	for path: String in paths:
		var saved := sheet.save_png(path)
		_lib.check("capture/sheet", saved == OK, ProjectSettings.globalize_path(path), "a PNG")


## The share of the pixels in `rect` for which `test` holds.
func _share(image: Image, rect: Rect2i, test: Callable) -> float:
	var hits := 0
	for y in range(rect.position.y, rect.end.y, 2):
		for x in range(rect.position.x, rect.end.x, 2):
			if test.call(image.get_pixel(x, y)):
				hits += 1
	var samples := ceili(rect.size.x / 2.0) * ceili(rect.size.y / 2.0)
	return float(hits) / maxf(samples, 1.0)


func _mean(image: Image, rect: Rect2i) -> Color:
	var sum := Color(0, 0, 0, 0)
	var count := 0
	for y in range(rect.position.y, rect.end.y, 2):
		for x in range(rect.position.x, rect.end.x, 2):
			sum += image.get_pixel(x, y)
			count += 1
	return sum / maxf(count, 1.0)


## How far apart two colours are, as points in RGB.
func _apart(a: Color, b: Color) -> float:
	return Vector3(a.r, a.g, a.b).distance_to(Vector3(b.r, b.g, b.b))


func _is_white(c: Color) -> bool:
	return c.r >= WHITE and c.g >= WHITE and c.b >= WHITE


## The UI's text: light and grey.
func _is_text(c: Color) -> bool:
	var spread := maxf(c.r, maxf(c.g, c.b)) - minf(c.r, minf(c.g, c.b))
	return c.get_luminance() >= TEXT_LIGHT and spread <= TEXT_GREY


## The demo's sky: blue over red, bright.
func _is_sky(c: Color) -> bool:
	return c.b > c.r + 0.12 and c.b >= 0.6


## The share of the viewport that `node`'s mesh covers on screen: its bounding box's
## projection (the whole frame when the camera is inside it).
func _object_share(node: Node) -> float:
	var mesh := node as MeshInstance3D
	if mesh == null or not mesh.is_visible_in_tree():
		return 0.0
	var camera := root.get_viewport().get_camera_3d()
	var box := mesh.global_transform * mesh.get_aabb()
	if box.grow(camera.near).has_point(camera.global_position):
		return 1.0
	var screen := Rect2(Vector2.ZERO, root.get_viewport().get_visible_rect().size)
	var covered := Rect2()
	var first := true
	for k in 8:
		var corner := box.get_endpoint(k)
		if camera.is_position_behind(corner):
			continue
		var at := camera.unproject_position(corner)
		covered = Rect2(at, Vector2.ZERO) if first else covered.expand(at)
		first = false
	if first:
		return 0.0
	return covered.intersection(screen).get_area() / screen.get_area()


## The longest horizontal edge (m) of the terrain triangles with a corner within `reach_m`
## of `point`; 0 when none is drawn there.
func _triangle_size_near(point: Vector3, reach_m: float) -> float:
	var up := point.normalized()
	var longest := 0.0
	for child in _main.get_node("Planet/PlanetTerrain").get_children():
		var instance := child as MeshInstance3D
		if instance == null or instance.mesh == null:
			continue
		if not (instance.global_transform * instance.get_aabb()).grow(reach_m).has_point(point):
			continue
		var arrays := instance.mesh.surface_get_arrays(0)
		var vertices: PackedVector3Array = arrays[Mesh.ARRAY_VERTEX]
		var indices: PackedInt32Array = arrays[Mesh.ARRAY_INDEX]
		for t in range(0, indices.size(), 3):
			var corners := [vertices[indices[t]], vertices[indices[t + 1]], vertices[indices[t + 2]]]
			if corners.all(func(c: Vector3) -> bool: return c.distance_to(point) > reach_m):
				continue
			for k in 3:
				var edge: Vector3 = corners[(k + 1) % 3] - corners[k]
				longest = maxf(longest, (edge - up * edge.dot(up)).length())
	return longest
