//! Conversions between Godot's types and the core's.

use godot::classes::image::Format;
use godot::classes::mesh::PrimitiveType;
use godot::classes::{ArrayMesh, EditorInterface, Engine, Image};
use godot::prelude::*;
use watershed::{DVec3, MeshArrays, Rgb};

/// A Godot vector as an f64 vector.
pub fn to_dvec3(v: Vector3) -> DVec3 {
    DVec3::new(f64::from(v.x), f64::from(v.y), f64::from(v.z))
}

/// A caller's direction or position (from the planet's centre) as an f64 vector; `None`,
/// after one error naming `func`, when it is zero, NaN or infinite: it has no direction.
pub fn checked_direction(v: Vector3, func: &str) -> Option<DVec3> {
    let d = to_dvec3(v);
    if watershed::checked_unit(d).is_some() {
        return Some(d);
    }
    godot_error!("{func}: a direction or position must be finite and non-zero, got {v}");
    None
}

/// Every vector of `points` through [`checked_direction`]; `None` after one error naming
/// `func` and the first bad index when any is zero, NaN or infinite.
pub fn checked_directions(points: &PackedVector3Array, func: &str) -> Option<Vec<DVec3>> {
    let all: Vec<DVec3> = points.as_slice().iter().map(|&v| to_dvec3(v)).collect();
    if let Some(i) = all.iter().position(|&d| watershed::checked_unit(d).is_none()) {
        godot_error!(
            "{func}: a direction or position must be finite and non-zero, got {} at index {i}",
            points.as_slice()[i]
        );
        return None;
    }
    Some(all)
}

/// `value` when it is finite and within `range`; `None` after one error naming `func`,
/// `name`, the range and the value.
pub fn checked_number(
    value: f64,
    range: std::ops::RangeInclusive<f64>,
    func: &str,
    name: &str,
) -> Option<f64> {
    if value.is_finite() && range.contains(&value) {
        return Some(value);
    }
    godot_error!("{func}: {name} must be within {} to {}, got {value}", range.start(), range.end());
    None
}

/// A JSON value (a core record through serde) as a Godot value: objects become
/// dictionaries, arrays arrays, whole numbers integers, other numbers floats, null nil.
pub fn json_to_variant(value: &serde_json::Value) -> Variant {
    use serde_json::Value;
    match value {
        Value::Null => Variant::nil(),
        Value::Bool(b) => b.to_variant(),
        Value::Number(n) => {
            n.as_i64().map_or_else(|| n.as_f64().unwrap_or(f64::NAN).to_variant(), |i| i.to_variant())
        }
        Value::String(s) => GString::from(s.as_str()).to_variant(),
        Value::Array(items) => items.iter().map(json_to_variant).collect::<VarArray>().to_variant(),
        Value::Object(fields) => {
            let mut d = VarDictionary::new();
            for (key, field) in fields {
                d.set(key.as_str(), &json_to_variant(field));
            }
            d.to_variant()
        }
    }
}

/// A core record (`Figures`, a `*Stats`) as a dictionary of its serde form, through
/// [`json_to_variant`]: the record's field names are the keys, so there is one definition of
/// them. Empty if the record does not serialize to an object.
pub fn record_to_dictionary<T: serde::Serialize>(record: &T) -> VarDictionary {
    let value = serde_json::to_value(record).unwrap_or_default();
    json_to_variant(&value).try_to().unwrap_or_default()
}

/// An f64 vector as a Godot vector.
pub fn to_vector3(v: DVec3) -> Vector3 {
    Vector3::new(v.x as f32, v.y as f32, v.z as f32)
}

/// A core colour as a Godot colour (opaque).
pub fn to_color(c: Rgb) -> Color {
    let [r, g, b] = c.to_f64();
    Color::from_rgb(r as f32, g as f32, b as f32)
}

/// A Godot colour as a core colour (alpha dropped, channels rounded to 8 bits).
pub fn from_color(c: Color) -> Rgb {
    Rgb([c.r, c.g, c.b].map(|x| (x.clamp(0.0, 1.0) * 255.0).round() as u8))
}

/// Optional metres as a float, NaN for none (Godot has no optional floats).
pub fn or_nan(v: Option<f64>) -> f64 {
    v.unwrap_or(f64::NAN)
}

/// The mesh's triangles as vertex indices in Godot's order. The core winds triangles
/// counter-clockwise seen from outside the planet; Godot's front faces (drawn, and solid to
/// its physics) wind clockwise.
fn godot_indices(mesh: &MeshArrays) -> impl Iterator<Item = u32> + '_ {
    mesh.indices.chunks_exact(3).flat_map(|t| [t[0], t[2], t[1]])
}

/// The mesh's triangles as a `ConcavePolygonShape3D`'s faces (three points each, front
/// faces outward).
pub fn collision_faces(mesh: &MeshArrays) -> PackedVector3Array {
    let point = |i: u32| {
        let p = mesh.positions[i as usize];
        Vector3::new(p[0], p[1], p[2])
    };
    PackedVector3Array::from(godot_indices(mesh).map(point).collect::<Vec<_>>())
}

/// Whether the mesh carries a flow for each vertex, uploaded as `CUSTOM0`.
fn has_flows(mesh: &MeshArrays) -> bool {
    !mesh.flows.is_empty() && mesh.flows.len() == mesh.positions.len()
}

/// Core mesh arrays as an `ArrayMesh` surface's arrays (vertex, normal, colour, index, and
/// the water's flow as `CUSTOM0` when the mesh has one per vertex: velocity m/s in xyz, foam
/// 0..=1 in w, read by a shader's `CUSTOM0`).
pub fn mesh_arrays(mesh: &MeshArrays) -> VarArray {
    use godot::classes::mesh::ArrayType;
    let v3 = |a: &[[f32; 3]]| {
        PackedVector3Array::from(a.iter().map(|p| Vector3::new(p[0], p[1], p[2])).collect::<Vec<_>>())
    };
    let colors: Vec<Color> = mesh.colors.iter().map(|c| Color::from_rgb(c[0], c[1], c[2])).collect();
    let indices: Vec<i32> = godot_indices(mesh).map(|i| i as i32).collect();
    let mut arrays = VarArray::new();
    arrays.resize(ArrayType::MAX.ord() as usize, &Variant::nil());
    arrays.set(ArrayType::VERTEX.ord() as usize, &v3(&mesh.positions).to_variant());
    arrays.set(ArrayType::NORMAL.ord() as usize, &v3(&mesh.normals).to_variant());
    arrays.set(ArrayType::COLOR.ord() as usize, &PackedColorArray::from(colors).to_variant());
    arrays.set(ArrayType::INDEX.ord() as usize, &PackedInt32Array::from(indices).to_variant());
    if has_flows(mesh) {
        let flows: Vec<f32> = mesh.flows.iter().flatten().copied().collect();
        arrays.set(ArrayType::CUSTOM0.ord() as usize, &PackedFloat32Array::from(flows).to_variant());
    }
    arrays
}

/// Emits `signal` with `args` on `object` at the end of the frame, after every bind of the
/// emitting instance is released, so handlers may call back into it.
pub fn emit_deferred(mut object: Gd<Object>, signal: &str, args: &[Variant]) {
    let mut all = vec![signal.to_variant()];
    all.extend_from_slice(args);
    object.call_deferred("emit_signal", &all);
}

/// Emits `object`'s `progress(stage, fraction)` signal on the main thread (see
/// [`emit_deferred`]): a stage of a worker's build finished, `fraction` of it done (0..=1).
pub fn emit_progress(object: Gd<Object>, stage: &str, fraction: f64) {
    emit_deferred(object, "progress", &[stage.to_variant(), fraction.to_variant()]);
}

/// Where the viewer is relative to `planet_node` (the planet's centre), metres: in the
/// editor, the 3D viewport's camera, so detail follows where the designer looks; in a game,
/// `viewer`. `None` unless both are in the scene tree.
pub fn viewer_offset(planet_node: &Gd<Node3D>, viewer: Option<&Gd<Node3D>>) -> Option<watershed::DVec3> {
    if !planet_node.is_inside_tree() {
        return None;
    }
    let at = if Engine::singleton().is_editor_hint() {
        let viewport = EditorInterface::singleton().get_editor_viewport_3d()?;
        viewport.get_camera_3d()?.get_global_position()
    } else {
        let viewer = viewer.filter(|v| v.is_inside_tree())?;
        viewer.get_global_position()
    };
    Some(to_dvec3(at - planet_node.get_global_position()))
}

/// Image formats of float samples, whose red channel can be heights.
const FLOAT_FORMATS: [Format; 8] = [
    Format::RF,
    Format::RGF,
    Format::RGBF,
    Format::RGBAF,
    Format::RH,
    Format::RGH,
    Format::RGBH,
    Format::RGBAH,
];

/// The red channel of a float image (`FORMAT_RF`, `FORMAT_RH` or their two-, three- and
/// four-channel kin, as an EXR loads): (rows, cols, values); `None` with an error for no
/// image or an integer format.
pub fn float_pixels(image: Option<Gd<Image>>, who: &str) -> Option<(usize, usize, Vec<f32>)> {
    let Some(image) = image else {
        godot_error!("{who}: no image");
        return None;
    };
    let format = image.get_format();
    let image = if format == Format::RF {
        image
    } else if FLOAT_FORMATS.contains(&format) {
        let mut copy = image.duplicate_resource();
        copy.convert(Format::RF);
        copy
    } else {
        godot_error!("{who}: heights must be a float image (FORMAT_RF or FORMAT_RH), not {format:?}");
        return None;
    };
    let (cols, rows) = (image.get_width().max(0) as usize, image.get_height().max(0) as usize);
    let bytes = image.get_data();
    let values = bytes.as_slice().chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    Some((rows, cols, values.collect()))
}

/// The pixels of a `FORMAT_RGBA8` image of `rows` × `cols`; `None` with an error otherwise.
pub fn rgba_pixels(image: Gd<Image>, rows: usize, cols: usize, who: &str) -> Option<Vec<[u8; 4]>> {
    let size = (image.get_height().max(0) as usize, image.get_width().max(0) as usize);
    if image.get_format() != Format::RGBA8 || size != (rows, cols) {
        godot_error!(
            "{who}: expected a {cols} x {rows} FORMAT_RGBA8 image, got {} x {} {:?}",
            size.1,
            size.0,
            image.get_format()
        );
        return None;
    }
    Some(image.get_data().as_slice().chunks_exact(4).map(|p| [p[0], p[1], p[2], p[3]]).collect())
}

/// An `ArrayMesh` with the core mesh as its one surface (empty when it has no triangles);
/// its flows, where it has them, as `CUSTOM0` in four floats a vertex.
pub fn array_mesh(mesh: &watershed::MeshArrays) -> Gd<ArrayMesh> {
    use godot::classes::mesh::{ArrayCustomFormat, ArrayFormat};
    let mut out = ArrayMesh::new_gd();
    if !mesh.indices.is_empty() {
        let flags = if has_flows(mesh) {
            let rgba_float = ArrayCustomFormat::RGBA_FLOAT.ord() as u64;
            ArrayFormat::from_ord(rgba_float << ArrayFormat::CUSTOM0_SHIFT.ord())
        } else {
            ArrayFormat::default()
        };
        out.add_surface_from_arrays_ex(PrimitiveType::TRIANGLES, &mesh_arrays(mesh)).flags(flags).done();
    }
    out
}

/// An image of `width` × `height` pixels in `format` from `bytes`; `None` (with Godot's
/// error) when they do not fit.
pub fn image_from_bytes(width: usize, height: usize, format: Format, bytes: Vec<u8>) -> Option<Gd<Image>> {
    let (Ok(width), Ok(height)) = (i32::try_from(width), i32::try_from(height)) else {
        godot_error!("an image of {width} x {height} pixels is larger than Godot takes");
        return None;
    };
    Image::create_from_data(width, height, false, format, &PackedByteArray::from(bytes))
}

/// A `FORMAT_RF` image of `width` × `height` pixels from `values`, row by row.
pub fn float_image(width: usize, height: usize, values: &[f32]) -> Option<Gd<Image>> {
    image_from_bytes(width, height, Format::RF, values.iter().flat_map(|v| v.to_le_bytes()).collect())
}
