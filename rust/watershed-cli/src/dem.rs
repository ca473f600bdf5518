//! Heightmaps in the formats terrain tools use, read into metres: NumPy `.npy` (f32 or f64),
//! 16-bit greyscale PNG, raw R16 and R32 (square, little-endian, row-major) and OpenEXR (the
//! first float channel). Every error names the file and what is wrong with it.

use exr::prelude::{
    read, AnyChannel, AnyChannels, Encoding, FlatSamples, Image, Layer, LayerAttributes, LineOrder,
    ReadChannels, ReadLayers, SmallVec, Vec2, WritableImage,
};
use std::io::Cursor;
use std::path::Path;
use watershed::{read_array2, read_array2_from, Array2};

/// The file formats a heightmap may come in, by extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `.npy`: a 2-D f32 or f64 array in metres.
    Npy,
    /// `.png`: 16-bit greyscale, 0..=65535 over `--height-range`.
    Png16,
    /// `.r16` or `.raw`: 16-bit unsigned little-endian, 0..=65535 over `--height-range`.
    R16,
    /// `.r32`: 32-bit float little-endian, metres.
    R32,
    /// `.exr`: the first float channel, metres.
    Exr,
}

impl Format {
    /// The format `path`'s extension names.
    ///
    /// # Errors
    /// An extension that is none of these, naming the file and the ones it could be.
    pub fn of(path: &Path) -> Result<Self, String> {
        let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
        match ext.as_deref() {
            Some("npy") => Ok(Format::Npy),
            Some("png") => Ok(Format::Png16),
            Some("r16" | "raw") => Ok(Format::R16),
            Some("r32") => Ok(Format::R32),
            Some("exr") => Ok(Format::Exr),
            _ => Err(format!(
                "{}: unknown heightmap format; expected .npy, .png (16-bit), .r16/.raw, .r32 or .exr",
                path.display()
            )),
        }
    }

    /// Whether the format stores whole numbers that need `--height-range` to become metres.
    pub fn needs_range(self) -> bool {
        matches!(self, Format::Png16 | Format::R16)
    }
}

/// Reads the heightmap at `path` (its format from the extension), refusing a file over
/// `limit` bytes as too large for `what`; `height_range` as for [`read_dem`]. A `.npy` file
/// is read a chunk at a time straight into its values.
///
/// # Errors
/// An unreadable or too large file, or any error of [`read_dem`]: one message naming the file.
pub fn load(path: &Path, height_range: Option<(f64, f64)>, limit: u64, what: &str) -> Result<Array2, String> {
    if Format::of(path) == Ok(Format::Npy) {
        // Only a plain file's length is known up front; anything else is read whole.
        if let (mut file, Some(len)) = crate::open_bounded(path, limit, what)? {
            return read_array2_from(&mut file, len).map_err(|e| format!("{}: {e}", path.display()));
        }
    }
    let bytes = crate::read_bounded(path, limit, what)?;
    read_dem(path, &bytes, height_range)
}

/// Reads the heightmap `bytes` of `path` (its format from the extension); `height_range` is
/// the metres that 0 and 65535 stand for in the 16-bit formats.
///
/// # Errors
/// Unknown format, a 16-bit format without a range, wrong sample type, a raw file that is
/// not square, a non-finite value or an unreadable file: one message naming the file.
pub fn read_dem(path: &Path, bytes: &[u8], height_range: Option<(f64, f64)>) -> Result<Array2, String> {
    let format = Format::of(path)?;
    let name = path.display();
    let range = match (format.needs_range(), height_range) {
        (true, None) => {
            return Err(format!("{name}: 16-bit heights need --height-range MIN,MAX (metres of 0 and 65535)"))
        }
        (_, range) => range.unwrap_or((0.0, 1.0)),
    };
    let scale = |v: u16| range.0 + (range.1 - range.0) * f64::from(v) / 65535.0;
    let array = match format {
        Format::Npy => read_array2(bytes).map_err(|e| e.to_string()),
        Format::Png16 => png16(bytes).map(|(rows, cols, values)| Array2 {
            rows,
            cols,
            data: values.into_iter().map(scale).collect(),
        }),
        Format::R16 => {
            let values: Vec<u16> = bytes.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])).collect();
            square(bytes.len(), 2).map(|side| Array2 {
                rows: side,
                cols: side,
                data: values.into_iter().map(scale).collect(),
            })
        }
        Format::R32 => square(bytes.len(), 4).map(|side| Array2 {
            rows: side,
            cols: side,
            data: bytes
                .chunks_exact(4)
                .map(|b| f64::from(f32::from_le_bytes([b[0], b[1], b[2], b[3]])))
                .collect(),
        }),
        Format::Exr => exr_heights(bytes),
    }
    .map_err(|e| format!("{name}: {e}"))?;
    // The npy reader refuses a non-finite value itself, with the same message.
    if format != Format::Npy {
        watershed::check_finite(array.cols, &array.data).map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(array)
}

/// The side of a square of `len` bytes of `width`-byte samples.
fn square(len: usize, width: usize) -> Result<usize, String> {
    if len == 0 || !len.is_multiple_of(width) {
        return Err(format!("{len} bytes is not a whole number of {width}-byte samples"));
    }
    let n = len / width;
    let side = (n as f64).sqrt().round() as usize;
    if side * side != n {
        return Err(format!("{n} samples do not make a square; raw heightmaps must be square"));
    }
    Ok(side)
}

/// A 16-bit greyscale PNG: (rows, cols, values).
fn png16(bytes: &[u8]) -> Result<(usize, usize, Vec<u16>), String> {
    let image = image::load_from_memory_with_format(bytes, image::ImageFormat::Png)
        .map_err(|e| format!("not a readable PNG: {e}"))?;
    match image {
        image::DynamicImage::ImageLuma16(grey) => {
            let (w, h) = grey.dimensions();
            Ok((h as usize, w as usize, grey.into_raw()))
        }
        other => Err(format!("expected a 16-bit greyscale PNG, got {:?}", other.color())),
    }
}

/// The first float channel (f32 or f16) of an EXR's first layer, in metres.
fn exr_heights(bytes: &[u8]) -> Result<Array2, String> {
    let image = first_layer(bytes)?;
    let layer = &image.layer_data;
    let (cols, rows) = (layer.size.width(), layer.size.height());
    let channel = layer
        .channel_data
        .list
        .iter()
        .find(|c| matches!(c.sample_data, FlatSamples::F32(_) | FlatSamples::F16(_)))
        .ok_or_else(|| "the EXR has no float channel".to_owned())?;
    let data = channel.sample_data.values_as_f32().map(f64::from).collect();
    Ok(Array2 { rows, cols, data })
}

/// `values` (row-major, `rows` × `cols`, metres) as a single-channel 32-bit float EXR
/// (channel `R`, which Godot loads as `FORMAT_RF`), the heightmap format Terrain3D imports.
///
/// # Errors
/// When the encoder fails (it does not for finite input).
pub fn exr_bytes<T: Copy + Into<f64>>(rows: usize, cols: usize, values: &[T]) -> Result<Vec<u8>, String> {
    // Heights hardly compress (their low bits are noise): the fast lossless encoding writes
    // them several times quicker for a few per cent more bytes.
    let heights = vec![("R", values.iter().map(|&v| v.into() as f32).collect())];
    exr_channels(rows, cols, heights, Encoding::FAST_LOSSLESS)
}

/// Named 32-bit float channels (row-major, `rows` × `cols` each) as one EXR with the
/// lossless `encoding`; the bits of every sample are kept exactly, and its blocks are written
/// in increasing order whatever `encoding` says, so the same maps give the same bytes (the
/// encoder compresses blocks in parallel and writes an unspecified order as they finish).
///
/// # Errors
/// When the encoder fails (it does not for channels of the right length).
pub fn exr_channels(
    rows: usize,
    cols: usize,
    channels: Vec<(&str, Vec<f32>)>,
    encoding: Encoding,
) -> Result<Vec<u8>, String> {
    let list = channels.into_iter().map(|(name, v)| AnyChannel::new(name, FlatSamples::F32(v))).collect();
    let channels = AnyChannels::sort(SmallVec::from_vec(list));
    let encoding = Encoding { line_order: LineOrder::Increasing, ..encoding };
    let layer = Layer::new(Vec2(cols, rows), LayerAttributes::default(), encoding, channels);
    let mut out = Cursor::new(Vec::new());
    Image::from_layer(layer).write().to_buffered(&mut out).map_err(|e| format!("EXR: {e}"))?;
    Ok(out.into_inner())
}

/// `values` as raw R16 (little-endian, 0..=65535 from the lowest to the highest value) and
/// the metres 0 and 65535 stand for.
pub fn r16_bytes<T: Copy + Into<f64>>(values: &[T]) -> (Vec<u8>, (f64, f64)) {
    let range = values
        .iter()
        .map(|&v| v.into())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| (lo.min(v), hi.max(v)));
    (r16_bytes_over(values, range), range)
}

/// `values` as raw R16 (little-endian) with 0 and 65535 at `lo` and `hi` (values outside
/// are clamped).
pub fn r16_bytes_over<T: Copy + Into<f64>>(values: &[T], (lo, hi): (f64, f64)) -> Vec<u8> {
    let span = (hi - lo).max(f64::MIN_POSITIVE);
    values
        .iter()
        .flat_map(|&v| (((v.into() - lo) / span * 65535.0).round().clamp(0.0, 65535.0) as u16).to_le_bytes())
        .collect()
}

/// The first layer of an EXR, every channel, full resolution.
fn first_layer(bytes: &[u8]) -> Result<Image<Layer<AnyChannels<FlatSamples>>>, String> {
    read()
        .no_deep_data()
        .largest_resolution_level()
        .all_channels()
        .first_valid_layer()
        .all_attributes()
        .from_buffered(Cursor::new(bytes))
        .map_err(|e| format!("not a readable EXR: {e}"))
}

/// `values` as raw R32 (32-bit float little-endian, metres), which `--dem` reads.
#[cfg(test)]
pub(crate) fn r32_bytes<T: Copy + Into<f64>>(values: &[T]) -> Vec<u8> {
    values.iter().flat_map(|&v| (v.into() as f32).to_le_bytes()).collect()
}

/// Every named channel of an EXR's first layer, in the file's (sorted) order, its samples
/// as f32.
///
/// # Errors
/// An unreadable EXR.
#[cfg(test)]
pub(crate) fn exr_float_channels(bytes: &[u8]) -> Result<Vec<(String, Vec<f32>)>, String> {
    let image = first_layer(bytes)?;
    let layer = &image.layer_data;
    let channels = (layer.channel_data.list.iter())
        .map(|c| (c.name.to_string(), c.sample_data.values_as_f32().collect()))
        .collect();
    Ok(channels)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(rows: usize, cols: usize) -> Vec<f64> {
        (0..rows * cols).map(|i| ((i * 37) % 101) as f64 * 1.25 - 40.0).collect()
    }

    #[test]
    fn exr_round_trips_within_f32() {
        let values = field(7, 9);
        let bytes = exr_bytes(7, 9, &values).expect("encode");
        let back = read_dem(Path::new("h.exr"), &bytes, None).expect("decode");
        assert_eq!((back.rows, back.cols), (7, 9));
        assert!(back.data.iter().zip(&values).all(|(a, b)| *a == f64::from(*b as f32)));
    }

    #[test]
    fn exr_blocks_are_written_in_order() {
        let values = field(300, 200);
        for encoding in [Encoding::FAST_LOSSLESS, Encoding::SMALL_LOSSLESS] {
            let encode = || {
                let channels = vec![("R", values.iter().map(|&v| v as f32).collect())];
                exr_channels(300, 200, channels, encoding).expect("encode")
            };
            let bytes = encode();
            let layer = first_layer(&bytes).expect("decode").layer_data;
            assert_eq!(layer.encoding.line_order, LineOrder::Increasing);
            assert!((0..4).all(|_| encode() == bytes), "the same maps give the same bytes");
        }
    }

    #[test]
    fn r16_round_trips_within_a_step() {
        let values = field(16, 16);
        let (bytes, range) = r16_bytes(&values);
        let back = read_dem(Path::new("h.r16"), &bytes, Some(range)).expect("decode");
        let step = (range.1 - range.0) / 65535.0;
        assert!(back.data.iter().zip(&values).all(|(a, b)| (a - b).abs() <= step / 2.0 + 1e-9));
    }

    #[test]
    fn png16_and_r32_round_trip() {
        let values = field(5, 5);
        let (raw, range) = r16_bytes(&values);
        let levels: Vec<u16> = raw.chunks_exact(2).map(|b| u16::from_le_bytes([b[0], b[1]])).collect();
        let mut png = Vec::new();
        image::ImageBuffer::<image::Luma<u16>, _>::from_raw(5, 5, levels)
            .expect("buffer")
            .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
            .expect("png");
        let from_png = read_dem(Path::new("h.png"), &png, Some(range)).expect("png");
        let from_r16 = read_dem(Path::new("h.raw"), &raw, Some(range)).expect("raw");
        assert_eq!(from_png.data, from_r16.data);
        let r32 = r32_bytes(&values);
        let from_r32 = read_dem(Path::new("h.r32"), &r32, None).expect("r32");
        assert_eq!(from_r32.data, values.iter().map(|&v| f64::from(v as f32)).collect::<Vec<_>>());
    }

    #[test]
    fn bad_heightmaps_are_named_and_explained() {
        // File name, bytes, height range, the start of the message.
        type Case = (&'static str, Vec<u8>, Option<(f64, f64)>, &'static str);
        let cases: [Case; 6] = [
            ("a.r16", vec![0; 6], Some((0.0, 1.0)), "a.r16: 3 samples do not make a square"),
            ("b.r16", vec![0; 8], None, "b.r16: 16-bit heights need --height-range"),
            ("c.r32", vec![0; 7], None, "c.r32: 7 bytes is not a whole number of 4-byte samples"),
            ("d.r32", f32::NAN.to_le_bytes().to_vec(), None, "d.r32: value at row 0, column 0 is not finite"),
            ("e.exr", b"not an exr".to_vec(), None, "e.exr: not a readable EXR"),
            ("f.tif", vec![], None, "f.tif: unknown heightmap format"),
        ];
        for (name, bytes, range, expected) in cases {
            let err = read_dem(Path::new(name), &bytes, range).expect_err(name);
            assert!(err.starts_with(expected), "{name}: {err}");
        }
        let grey8 = {
            let mut png = Vec::new();
            image::GrayImage::new(2, 2)
                .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
                .expect("png");
            png
        };
        let err = read_dem(Path::new("g.png"), &grey8, Some((0.0, 1.0))).expect_err("8-bit");
        assert!(err.contains("expected a 16-bit greyscale PNG"), "{err}");
        let ints = {
            let layer = Layer::new(
                Vec2(1, 1),
                LayerAttributes::default(),
                Encoding::UNCOMPRESSED,
                AnyChannels::sort(SmallVec::from_vec(vec![AnyChannel::new("Y", FlatSamples::U32(vec![7]))])),
            );
            let mut out = Cursor::new(Vec::new());
            Image::from_layer(layer).write().to_buffered(&mut out).expect("exr");
            out.into_inner()
        };
        let err = read_dem(Path::new("h.exr"), &ints, None).expect_err("u32 exr");
        assert_eq!(err, "h.exr: the EXR has no float channel");
    }
}
