extends SceneTree
## capture: what a player sees. Where a renderer is available (run.sh runs the editor
## build, or godot-gl, under Xvfb at 640×360), opens the demo, waits for the solve, and at
## each named view waits for the terrain around the walker to stream in, writes the frame to
## user://capture_<view>.png and checks it: not washed out; the sky above the ground or the
## water where the view looks out over the country (the horizon is in the frame); blue-green
## sea where it looks over the sea; the mill wheel in the frame where it looks at the mill,
## the boat where it looks at the boat; no crate, mill, boat or village house covering more
## than a fifth of the frame; terrain triangles at a walker on dry ground no longer than
## MAX_TRIANGLE_M; the place picker naming the view, the status line what the walker stands
## in; the UI panel's words, where the engine draws text; the ground near the walker
## textured, not flat colour; river and lake water moving, its meshes carrying the water's
## flow. Then the UI's pickers and status line (inside its panel), and a contact sheet of
## every frame (user://capture_sheet.png, or the path after `--sheet`). Headless there is
## nothing to capture: it says so and passes.

const Lib := preload("res://probes/probe_lib.gd")
const VIEWS: Array[String] = [
	"spawn", "village", "downstream", "mouth", "lake", "sea", "forest", "snow", "boat"
]
## Views that look out over the country: the sky shows above it.
const HORIZON_VIEWS: Array[String] = ["spawn", "village", "mouth", "lake", "sea"]
## Views that look out over the sea: the lower part of the frame is water.
const SEA_VIEWS: Array[String] = ["mouth", "sea"]
## Views at a biome: the status line names it as the frame is taken (wet views: "water").
const BIOME_VIEWS: Array[String] = ["forest", "snow"]
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
## The ground near the walker is textured: the mean luminance difference (0..1) between
## neighbouring ground pixels in the lower half of the frame (ground found by drawing the
## terrain once in MASK_GROUND) is at least this. Measured at 640×360 in home's views with
## the flat vertex-coloured material: 0.0000-0.0005 (the boat view's banks 0.0033); with
## shaders/ground.gdshader: 0.0066 (village) to 0.0140 (boat).
const MIN_GROUND_DETAIL := 0.0045
## Ground pixels (a share of the lower half) below which a view shows too little ground
## near the walker to judge its texture (the lake and the open sea: water to the horizon).
const MIN_GROUND_SHARE := 0.015
## River and lake water moves: two frames WATER_FRAMES apart (a second at --fixed-fps 60),
## the walker and its camera held still between them, differ on the water's pixels (found
## by drawing it once in MASK_WATER, before and after) by at least this mean per channel
## (0..1), and by more than twice what the ground between them does. Nothing in the flat
## river material moves; with shaders/river.gdshader, measured at 640×360 in home's views:
## 0.022 (the lake, where only the wind drifts the ripples) to 0.084 (boat), the ground
## 0.000-0.008.
const MIN_WATER_CHANGE := 0.01
const WATER_FRAMES := 60
## Water pixels (a share of the frame) below which a view shows no river or lake to judge.
const MIN_WATER_SHARE := 0.02
## The flat, unlit colours the terrain and its river and lake water are drawn in for the
## masks, and how near a pixel must come to one to count as it.
const MASK_GROUND := Color(0, 1, 0)
const MASK_WATER := Color(1, 0, 1)
const MASK_NEAR := 0.35
const MASK_SHADER := """
shader_type spatial;
render_mode unshaded, fog_disabled, cull_disabled;
uniform vec3 mask_color;
void fragment() {
	ALBEDO = mask_color;
}
"""

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
		_check_status(view)
		_check_frame(view, image)
		await _check_surfaces(view, image)
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
	var objects := {"crate": _main.get_node("Crate"), "mill": _main.get_node("Mill")}
	objects["boat"] = _main.get_node("Boat")
	var village := _main.get_node_or_null("Village")
	if village != null:
		for house in village.get_children():
			objects["village_%s" % house.name.to_lower()] = house
	var within := "<= %.2f" % MAX_OBJECT_SHARE
	for object in objects:
		var share := _object_share(objects[object])
		_lib.check("%s/%s_share" % [p, object], share <= MAX_OBJECT_SHARE, "%.3f" % share, within)
	var looked_at := {"mill": "Mill/Wheel", "boat": "Boat/Mesh"}
	for object in looked_at:
		if (WHEEL_VIEWS if object == "mill" else BOAT_VIEWS).has(view):
			var share := _object_share(_main.get_node(looked_at[object]))
			var seen := "%.3f" % share
			var least := ">= %.3f" % MIN_WHEEL_SHARE
			_lib.check("%s/%s_in_view" % [p, object], share >= MIN_WHEEL_SHARE, seen, least)
	if not _main.place_is_wet(view):
		var walker: Node3D = _main.get_node("Walker")
		var longest := _triangle_size_near(walker.global_position, TRIANGLE_REACH_M)
		var fine := longest > 0.0 and longest <= MAX_TRIANGLE_M
		_lib.check("%s/terrain_triangles" % p, fine, "%.2f m" % longest, "<= %.1f m" % MAX_TRIANGLE_M)


## The ground near the walker has texture and the river and lake water in view moves: the
## terrain and its water are drawn once in flat mask colours to find their pixels, and
## again a second later.
func _check_surfaces(view: String, image: Image) -> void:
	var p := "capture/%s" % view
	var size := image.get_size()
	var mask_before := await _mask_frame()
	var ground := _masked(mask_before, MASK_GROUND)
	var lower := Rect2i(0, size.y / 2, size.x, size.y - size.y / 2)
	var share := _count(ground, size.x, lower) / float(lower.get_area())
	var detail := _neighbour_difference(image, ground, lower)
	var seen := "%.4f mean luminance step over %.3f of the lower half" % [detail, share]
	if share < MIN_GROUND_SHARE:
		_lib.skip("%s/ground_texture" % p, "too little ground near the walker (%s)" % seen)
	else:
		var floor_text := ">= %.4f" % MIN_GROUND_DETAIL
		_lib.check("%s/ground_texture" % p, detail >= MIN_GROUND_DETAIL, seen, floor_text)
	# The walker (and its camera) holds still for the second, so only what moves by itself
	# (the water's ripples, the wheel, the boat) changes between the two frames.
	var walker: Node = _main.get_node("Walker")
	walker.process_mode = Node.PROCESS_MODE_DISABLED
	var first := _frame()
	await _lib.wait_frames(self, WATER_FRAMES)
	var second := _frame()
	walker.process_mode = Node.PROCESS_MODE_INHERIT
	var mask_after := await _mask_frame()
	var water := _both(_masked(mask_before, MASK_WATER), _masked(mask_after, MASK_WATER))
	var still := _both(ground, _masked(mask_after, MASK_GROUND))
	var whole := Rect2i(Vector2i.ZERO, size)
	var water_share := _count(water, size.x, whole) / float(whole.get_area())
	var change := _frame_difference(first, second, water)
	var control := _frame_difference(first, second, still)
	seen = "water %.4f over %.2f of the frame, ground %.4f" % [change, water_share, control]
	if water_share < MIN_WATER_SHARE:
		_lib.skip("%s/water_moves" % p, "no river or lake in view (%s)" % seen)
		return
	var moves := change >= MIN_WATER_CHANGE and change > 2.0 * control
	var least := ">= %.4f and twice the ground's" % MIN_WATER_CHANGE
	_lib.check("%s/water_moves" % p, moves, seen, least)
	var flows := _water_flows()
	var carried := "%d of %d water meshes, fastest %.2f m/s" % [flows.x, flows.y, flows.z]
	var all_carry := flows.y > 0 and flows.x == flows.y
	_lib.check("%s/water_flow" % p, all_carry, carried, "every water mesh carries its flow")


## The terrain's river and lake meshes: how many carry the water's flow (CUSTOM0), how many
## there are, and the fastest flow among them, m/s.
func _water_flows() -> Vector3:
	var with_flow := 0
	var meshes := 0
	var fastest := 0.0
	for chunk in _main.get_node("Planet/PlanetTerrain").get_children():
		var water := chunk.get_node_or_null("Water") as MeshInstance3D
		if water == null or water.mesh == null or water.mesh.get_surface_count() == 0:
			continue
		meshes += 1
		if (water.mesh.surface_get_format(0) & Mesh.ARRAY_FORMAT_CUSTOM0) == 0:
			continue
		with_flow += 1
		var flow: PackedFloat32Array = water.mesh.surface_get_arrays(0)[Mesh.ARRAY_CUSTOM0]
		for k in range(0, flow.size(), 4):
			fastest = maxf(fastest, Vector3(flow[k], flow[k + 1], flow[k + 2]).length())
	return Vector3(with_flow, meshes, fastest)


## The frame with the terrain drawn in MASK_GROUND and its river and lake water in
## MASK_WATER, flat; the materials are put back and drawn again after.
func _mask_frame() -> Image:
	var terrain: Node = _main.get_node("Planet/PlanetTerrain")
	var shader := Shader.new()
	shader.code = MASK_SHADER
	var masks := {}
	for colour: Color in [MASK_GROUND, MASK_WATER]:
		var material := ShaderMaterial.new()
		material.shader = shader
		material.set_shader_parameter("mask_color", colour)
		masks[colour] = material
	for chunk in terrain.get_children():
		_set_material(chunk, masks[MASK_GROUND])
		_set_material(chunk.get_node_or_null("Water"), masks[MASK_WATER])
	await _lib.wait_frames(self, 2)
	var image := _frame()
	for chunk in terrain.get_children():
		_set_material(chunk, terrain.material)
		_set_material(chunk.get_node_or_null("Water"), terrain.water_material)
	await _lib.wait_frames(self, 2)
	return image


## The frame drawn last, in FORMAT_RGB8.
func _frame() -> Image:
	var image := root.get_viewport().get_texture().get_image()
	image.convert(Image.FORMAT_RGB8)
	return image


func _set_material(node: Node, material: Material) -> void:
	var instance := node as MeshInstance3D
	if instance != null:
		instance.material_override = material


## One byte a pixel: 1 where `mask` (FORMAT_RGB8) is near `colour` and so are its four
## neighbours (the edges of a masked area left out), else 0.
func _masked(mask: Image, colour: Color) -> PackedByteArray:
	var width := mask.get_width()
	var rgb := mask.get_data()
	var target := Vector3(colour.r, colour.g, colour.b) * 255.0
	var reach := MASK_NEAR * 255.0
	var near := PackedByteArray()
	near.resize(rgb.size() / 3)
	for k in near.size():
		var c := Vector3(rgb[3 * k], rgb[3 * k + 1], rgb[3 * k + 2])
		near[k] = 1 if c.distance_to(target) < reach else 0
	var inner := PackedByteArray()
	inner.resize(near.size())
	for k in range(width, near.size() - width):
		inner[k] = near[k] & near[k - 1] & near[k + 1] & near[k - width] & near[k + width]
	return inner


## Pixels set in both masks.
func _both(a: PackedByteArray, b: PackedByteArray) -> PackedByteArray:
	var out := PackedByteArray()
	out.resize(a.size())
	for k in a.size():
		out[k] = a[k] & b[k]
	return out


## How many pixels of `rect` a mask of a frame `width` pixels wide sets.
func _count(mask: PackedByteArray, width: int, rect: Rect2i) -> int:
	var hits := 0
	for y in range(rect.position.y, rect.end.y):
		for x in range(rect.position.x, rect.end.x):
			hits += mask[y * width + x]
	return hits


## Each pixel's luminance, 0..255, of a FORMAT_RGB8 image.
func _luminance(image: Image) -> PackedFloat32Array:
	var rgb := image.get_data()
	var out := PackedFloat32Array()
	out.resize(rgb.size() / 3)
	for k in out.size():
		out[k] = 0.2126 * rgb[3 * k] + 0.7152 * rgb[3 * k + 1] + 0.0722 * rgb[3 * k + 2]
	return out


## The mean luminance difference (0..1) between each pixel of `rect` that `mask` sets and
## its right and lower neighbours that it sets too; 0 when there are none.
func _neighbour_difference(image: Image, mask: PackedByteArray, rect: Rect2i) -> float:
	var width := image.get_width()
	var lum := _luminance(image)
	var sum := 0.0
	var pairs := 0
	for y in range(rect.position.y, rect.end.y - 1):
		for x in range(rect.position.x, rect.end.x - 1):
			var k := y * width + x
			if mask[k] == 0:
				continue
			if mask[k + 1] == 1:
				sum += absf(lum[k] - lum[k + 1])
				pairs += 1
			if mask[k + width] == 1:
				sum += absf(lum[k] - lum[k + width])
				pairs += 1
	return sum / 255.0 / maxf(pairs, 1.0)


## The mean difference per colour channel (0..1) between two FORMAT_RGB8 frames over the
## pixels `mask` sets; 0 when it sets none.
func _frame_difference(a: Image, b: Image, mask: PackedByteArray) -> float:
	var da := a.get_data()
	var db := b.get_data()
	var sum := 0
	var count := 0
	for k in mask.size():
		if mask[k] == 0:
			continue
		for c in 3:
			sum += absi(da[3 * k + c] - db[3 * k + c])
		count += 1
	return sum / 255.0 / 3.0 / maxf(count, 1.0)


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


## The status line names what the walker stands in at `view` as the frame is taken, not
## what it stood in before the teleport: the view's biome, or water where it is wet.
func _check_status(view: String) -> void:
	var expected := "water" if _main.place_is_wet(view) else view
	if not (_main.place_is_wet(view) or BIOME_VIEWS.has(view)):
		return
	var status: Label = _main.get_node("UI/Panel/Rows/Status")
	var named := status.text.ends_with("; " + expected)
	_lib.check("capture/%s/status" % view, named, status.text, "ends with '; %s'" % expected)


## The UI's text: light and grey.
func _is_text(c: Color) -> bool:
	var spread := maxf(c.r, maxf(c.g, c.b)) - minf(c.r, minf(c.g, c.b))
	return c.get_luminance() >= TEXT_LIGHT and spread <= TEXT_GREY


## The demo's sky: blue over red, bright.
func _is_sky(c: Color) -> bool:
	return c.b > c.r + 0.12 and c.b >= 0.6


## The share of the viewport that `node` covers on screen: the projection of the box
## around every mesh in it (the whole frame when the camera is inside that box).
func _object_share(node: Node) -> float:
	var box := _bounds(node)
	if box.size == Vector3.ZERO:
		return 0.0
	var camera := root.get_viewport().get_camera_3d()
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


## The world-space box around every visible mesh in `node` and below it (empty: none).
func _bounds(node: Node) -> AABB:
	var box := AABB()
	var meshes: Array[Node] = [node]
	meshes.append_array(node.find_children("*", "MeshInstance3D", true, false))
	for part in meshes:
		var mesh := part as MeshInstance3D
		if mesh == null or not mesh.is_visible_in_tree():
			continue
		var around := mesh.global_transform * mesh.get_aabb()
		box = around if box.size == Vector3.ZERO else box.merge(around)
	return box


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
