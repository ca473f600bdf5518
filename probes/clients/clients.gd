extends SceneTree
## `watershed grid-world`'s exports through the heightmap add-ons' own importers, in a scratch
## project that holds them (probes/clients.sh builds it): HTerrain's
## `HTerrainData._edit_import_maps` (what its Terrain → Import dialog calls) and Terrain3D's
## `Terrain3DUtil.load_image` + `Terrain3DData.import_images` (what its importer calls). Every
## cell is read back from the add-on and compared with the run's `ground.npy`: EXR heights
## exact to f32, 16-bit heights within half a step of their range (plus f32 rounding), splat
## and control exact. Arguments after `--`: the grid-world output folder (absolute).
##
## The add-ons' classes are looked up at run time (load(), ClassDB), so this file parses in a
## project without them. One line per check (`PASS name value` / `FAIL name value expected`),
## figures as `INFO`, and a closing `clients: N passed, M failed`.

const HTERRAIN_DATA := "res://addons/zylann.hterrain/hterrain_data.gd"
const HTERRAIN_DIALOG := "res://addons/zylann.hterrain/tools/importer/importer_dialog.gd"

const Checks := preload("res://probes/probe_checks.gd")

var _lib := Checks.new()


func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	if args.is_empty():
		_lib.check("clients/args", false, "no output folder", "the grid-world folder after --")
	else:
		var out: String = args[0]
		var ground := read_npy(out.path_join("ground.npy"))
		_lib.check(
			"clients/ground_npy",
			not ground.is_empty(),
			ground.get("what", "unreadable"),
			"<f4 or <f8, 2-D"
		)
		if not ground.is_empty():
			hterrain(out, ground)
			await terrain3d(out, ground)
	print("clients: %d passed, %d failed" % [_lib.passes, _lib.failures])
	quit(1 if _lib.failures > 0 else 0)


## A 2-D little-endian float `.npy`: {rows, cols, data (PackedFloat64Array), what}; empty
## when it is anything else.
func read_npy(path: String) -> Dictionary:
	var bytes := FileAccess.get_file_as_bytes(path)
	if (
		bytes.size() < 12
		or bytes[0] != 0x93
		or bytes.slice(1, 6).get_string_from_ascii() != "NUMPY"
	):
		return {}
	var header_len := bytes.decode_u16(8) if bytes[6] == 1 else bytes.decode_u32(8)
	var start := 10 if bytes[6] == 1 else 12
	var header := bytes.slice(start, start + header_len).get_string_from_ascii()
	var descr := RegEx.create_from_string("'descr':\\s*'([^']+)'").search(header)
	var shape := RegEx.create_from_string("'shape':\\s*\\((\\d+),\\s*(\\d+)\\)").search(header)
	if descr == null or shape == null or header.contains("'fortran_order': True"):
		return {}
	var rows := shape.get_string(1).to_int()
	var cols := shape.get_string(2).to_int()
	var body := bytes.slice(start + header_len)
	var data := PackedFloat64Array()
	match descr.get_string(1):
		"<f8":
			data = body.to_float64_array()
		"<f4":
			data = PackedFloat64Array(Array(body.to_float32_array()))
		_:
			return {}
	if data.size() != rows * cols:
		return {}
	return {
		"rows": rows,
		"cols": cols,
		"data": data,
		"what": "%s %dx%d" % [descr.get_string(1), rows, cols]
	}


## A JSON file's object; empty when unreadable.
func read_json(path: String) -> Dictionary:
	var parsed: Variant = JSON.parse_string(FileAccess.get_file_as_string(path))
	return parsed if parsed is Dictionary else {}


## Compares `got` (a Callable of x, y giving the add-on's height) with `ground` on every cell:
## exact to f32 when `tolerance` is 0, else within it. Prints the worst and mean difference.
func compare_heights(name: String, ground: Dictionary, got: Callable, tolerance: float) -> void:
	var rows: int = ground.rows
	var cols: int = ground.cols
	var data: PackedFloat64Array = ground.data
	var as_f32 := PackedFloat32Array(Array(data))
	var worst := 0.0
	var total := 0.0
	var off := 0
	for y in rows:
		for x in cols:
			var h: float = got.call(x, y)
			var i := y * cols + x
			var d := absf(h - data[i])
			total += d
			worst = maxf(worst, d)
			if (tolerance == 0.0 and h != as_f32[i]) or (tolerance > 0.0 and not d <= tolerance):
				off += 1
	var what := (
		"worst %.6f m, mean %.6f m over %d cells" % [worst, total / (rows * cols), rows * cols]
	)
	if tolerance == 0.0:
		_lib.check(
			name,
			off == 0,
			"%s, %d not equal to f32(ground)" % [what, off],
			"every cell exact to f32"
		)
	else:
		_lib.check(
			name,
			off == 0,
			"%s, %d beyond %.6f m" % [what, off, tolerance],
			"every cell within %.6f m" % tolerance
		)


## Half a 16-bit step of `range` (min_m..max_m) plus the rounding of f32 heights there.
func r16_tolerance(range_json: Dictionary) -> float:
	var lo: float = range_json.min_m
	var hi: float = range_json.max_m
	return (hi - lo) / 65535.0 / 2.0 + 4.0 * maxf(maxf(absf(lo), absf(hi)), 1.0) / 16777216.0


## HTerrain: heights.raw (16-bit, its range from heights.raw.json) and heights.exr, each
## with splat.png, through `_edit_import_maps`.
func hterrain(out: String, ground: Dictionary) -> void:
	var dir := out.path_join("hterrain")
	var import := read_json(dir.path_join("import.json"))
	var side := int(import.get("size", 0))
	_lib.check(
		"hterrain/side",
		side == ground.rows and side == ground.cols,
		side,
		"the ground's side (no resampling)"
	)
	if side != ground.rows or side != ground.cols:
		return
	var range_json := read_json(dir.path_join("heights.raw.json"))
	_lib.check(
		"hterrain/raw_json",
		range_json.get("bit_depth", 0) == 16 and range_json.get("big_endian", true) == false,
		range_json,
		"bit_depth 16, little-endian"
	)
	var data_script: GDScript = load(HTERRAIN_DATA)
	# What the Import dialog pre-selects as the bit depth when a user picks heights.raw.
	var dialog: GDScript = load(HTERRAIN_DIALOG)
	var depth: int = dialog.call("_estimate_bit_depth_for_raw_file", dir.path_join("heights.raw"))
	_lib.check(
		"hterrain/dialog_bit_depth",
		depth == data_script.BIT_DEPTH_16,
		depth,
		"16 (the dialog's guess)"
	)
	var splat := Image.load_from_file(dir.path_join("splat.png"))
	splat.convert(Image.FORMAT_RGBA8)
	for kind in ["raw", "exr"]:
		var data: Resource = data_script.new()
		var height_params := {
			"path": dir.path_join("heights." + kind),
			"min_height": range_json.get("min_m", 0.0),
			"max_height": range_json.get("max_m", 1.0),
			"big_endian": false,
			"bit_depth": data_script.BIT_DEPTH_16
		}
		var started := Time.get_ticks_msec()
		var ok: bool = data.call(
			"_edit_import_maps",
			{
				data_script.CHANNEL_HEIGHT: height_params,
				data_script.CHANNEL_SPLAT: {"path": dir.path_join("splat.png")}
			}
		)
		_lib.check(
			"hterrain/%s_import" % kind,
			ok,
			"_edit_import_maps %d ms" % (Time.get_ticks_msec() - started),
			true
		)
		if not ok:
			continue
		var heights: Image = data.call("get_image", data_script.CHANNEL_HEIGHT)
		_lib.check(
			"hterrain/%s_size" % kind,
			heights.get_width() == side and heights.get_height() == side,
			"%dx%d format %d" % [heights.get_width(), heights.get_height(), heights.get_format()],
			side
		)
		if heights.get_width() != side or heights.get_height() != side:
			continue
		var tolerance := 0.0 if kind == "exr" else r16_tolerance(range_json)
		compare_heights(
			"hterrain/%s_heights" % kind,
			ground,
			func(x: int, y: int) -> float: return heights.get_pixel(x, y).r,
			tolerance
		)
		var at: float = data.call("get_height_at", Vector2i(side / 2, side / 3))
		_lib.check(
			"hterrain/%s_get_height_at" % kind,
			at == heights.get_pixel(side / 2, side / 3).r,
			at,
			"the height image's value"
		)
		var got: Image = data.call("get_image", data_script.CHANNEL_SPLAT)
		got = got.duplicate()
		got.convert(Image.FORMAT_RGBA8)
		_lib.check(
			"hterrain/%s_splat" % kind,
			got.get_size() == splat.get_size() and mismatches(got, splat) == 0,
			"%d of %d cells differ" % [mismatches(got, splat), side * side],
			"0"
		)


## The cells where two RGBA8 images of one size differ (every cell when the sizes differ).
func mismatches(a: Image, b: Image) -> int:
	if a.get_size() != b.get_size():
		return a.get_width() * a.get_height()
	var da := a.get_data()
	var db := b.get_data()
	if da == db:
		return 0
	var n := 0
	for i in da.size() / 4:
		if da.decode_u32(i * 4) != db.decode_u32(i * 4):
			n += 1
	return n


## Terrain3D's control word of one cell's splat weights, as the exporter builds it from the
## same weights: the heaviest layer as base, the next as overlay blended by its weight (lower
## id first among equals); base << 27, overlay << 22, blend << 14.
func control_of(w: PackedByteArray) -> int:
	var order := [0, 1, 2, 3]
	# A stable order: by weight, heaviest first, lower id first among equals.
	order.sort_custom(func(a: int, b: int) -> bool: return w[a] > w[b] or (w[a] == w[b] and a < b))
	var base: int = order[0]
	var overlay: int = order[1]
	if w[overlay] == 0:
		return (base << 27) | (base << 22)
	return (base << 27) | (overlay << 22) | (w[overlay] << 14)


## Terrain3D: heights.exr and heights.r16 (its range and size from heights.r16.json), each
## with control.exr, through load_image + import_images on a Terrain3D in the tree.
func terrain3d(out: String, ground: Dictionary) -> void:
	var dir := out.path_join("terrain3d")
	if not ClassDB.class_exists("Terrain3D"):
		_lib.check("terrain3d/loaded", false, "no Terrain3D class", "the extension loaded")
		return
	var range_json := read_json(dir.path_join("heights.r16.json"))
	var rows := int(range_json.get("rows", 0))
	var cols := int(range_json.get("cols", 0))
	_lib.check(
		"terrain3d/r16_json",
		rows == ground.rows and cols == ground.cols and range_json.get("bit_depth", 0) == 16,
		range_json,
		"the ground's size, bit_depth 16"
	)
	# The expected control words, from the exported splat weights.
	var splat := Image.load_from_file(dir.path_join("splat.png"))
	splat.convert(Image.FORMAT_RGBA8)
	var weights := splat.get_data()
	var expected := PackedInt64Array()
	expected.resize(rows * cols)
	for i in rows * cols:
		expected[i] = control_of(weights.slice(i * 4, i * 4 + 4))
	var r16_range := Vector2(range_json.get("min_m", 0.0), range_json.get("max_m", 1.0))
	for kind in ["exr", "r16"]:
		var path := dir.path_join("heights." + kind)
		var height: Image = ClassDB.class_call_static(
			"Terrain3DUtil",
			"load_image",
			path,
			ResourceLoader.CACHE_MODE_IGNORE,
			r16_range,
			Vector2i(cols, rows)
		)
		var control: Image = ClassDB.class_call_static(
			"Terrain3DUtil",
			"load_image",
			dir.path_join("control.exr"),
			ResourceLoader.CACHE_MODE_IGNORE,
			Vector2.ZERO,
			Vector2i.ZERO
		)
		_lib.check(
			"terrain3d/%s_load_image" % kind,
			(
				height != null
				and control != null
				and height.get_width() == cols
				and height.get_height() == rows
			),
			"height %s, control %s" % [describe(height), describe(control)],
			"%dx%d images" % [cols, rows]
		)
		if height == null or control == null:
			continue
		# A headless run has no camera: the terrain follows a node instead (without one it
		# logs an error that its LODs will not be updated).
		var target := Node3D.new()
		root.add_child(target)
		var terrain: Node3D = ClassDB.instantiate("Terrain3D")
		terrain.call("set_clipmap_target", target)
		root.add_child(terrain)
		await process_frame
		var data: Object = terrain.get("data")
		var images: Array[Image] = [height, control, null]
		var started := Time.get_ticks_msec()
		data.call("import_images", images, Vector3.ZERO, 0.0, 1.0)
		var ms := Time.get_ticks_msec() - started
		var spacing: float = terrain.get("vertex_spacing")
		_lib.check(
			"terrain3d/%s_import" % kind,
			data.call("get_region_count") > 0,
			(
				"import_images %d ms, %d regions, vertex_spacing %s"
				% [ms, data.call("get_region_count"), spacing]
			),
			"regions"
		)
		var tolerance := 0.0 if kind == "exr" else r16_tolerance(range_json)
		compare_heights(
			"terrain3d/%s_heights" % kind,
			ground,
			func(x: int, y: int) -> float:
				return data.call("get_height", Vector3(x * spacing, 0.0, y * spacing)),
			tolerance
		)
		var off := 0
		for y in rows:
			for x in cols:
				var word: int = data.call("get_control", Vector3(x * spacing, 0.0, y * spacing))
				if word != expected[y * cols + x]:
					off += 1
		_lib.check(
			"terrain3d/%s_control" % kind,
			off == 0,
			"%d of %d cells differ" % [off, rows * cols],
			"0"
		)
		terrain.queue_free()
		target.queue_free()
		await process_frame


func describe(image: Image) -> String:
	if image == null:
		return "null"
	return "%dx%d format %d" % [image.get_width(), image.get_height(), image.get_format()]
