extends RefCounted
## A made-up heightmap for the terrain probes: a valley falling towards its open end with
## noise on its sides, so rivers gather in it and leave at the map's edge.


## `cols` × `rows` heights in metres (`FORMAT_RF`) for cells of `cell_m` metres.
static func heights(cols: int, rows: int, cell_m: float) -> Image:
	var noise := FastNoiseLite.new()
	noise.seed = 7
	noise.frequency = 0.004 * cell_m
	noise.fractal_octaves = 5
	var values := PackedFloat32Array()
	values.resize(cols * rows)
	for z in rows:
		for x in cols:
			var across := absf(x - 0.5 * cols) / (0.5 * cols)
			var down := float(z) / rows
			var ground := 20.0 + 60.0 * down + 45.0 * across * across
			values[z * cols + x] = ground + 14.0 * noise.get_noise_2d(x, z)
	return Image.create_from_data(cols, rows, false, Image.FORMAT_RF, values.to_byte_array())
