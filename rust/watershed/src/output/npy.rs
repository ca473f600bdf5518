//! NumPy `.npy` files: read a 2-D float array, write flat arrays, little-endian, row-major.

use std::fmt::Write as _;

/// Why a `.npy` file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NpyError {
    /// The magic string or header is missing or malformed.
    #[error("not a .npy file: {0}")]
    Format(String),
    /// The element type is not one this reader accepts.
    #[error("unsupported dtype '{0}': expected little-endian f4 or f8 ('<f4', '<f8')")]
    Dtype(String),
    /// The array is not 2-D (its shape is given).
    #[error("expected a 2-D array, got shape {0:?}")]
    Shape(Vec<usize>),
    /// The array has no elements.
    #[error("the array is empty (shape {0} x {1})")]
    Empty(usize, usize),
    /// A value is NaN or infinite (row, column).
    #[error("value at row {0}, column {1} is not finite")]
    NotFinite(usize, usize),
    /// Column-major data.
    #[error("fortran_order arrays are not supported; save with numpy.ascontiguousarray")]
    FortranOrder,
    /// The file could not be read to its end (what the reader said).
    #[error("cannot read: {0}")]
    Read(String),
}

/// A row-major 2-D array of f64 read from a `.npy` file.
#[derive(Debug, Clone, PartialEq)]
pub struct Array2 {
    /// Rows (the first axis).
    pub rows: usize,
    /// Columns (the second axis).
    pub cols: usize,
    /// `rows * cols` values, row by row.
    pub data: Vec<f64>,
}

/// Reads a 2-D little-endian f32 or f64 array; every value must be finite.
///
/// Nothing is allocated from the header's word alone: the shape is checked against the
/// bytes actually present first, so the memory used is at most twice the file's size.
///
/// # Errors
/// [`NpyError`] naming what is wrong: header, dtype, shape (including one whose byte count
/// overflows or exceeds the data present), emptiness or a non-finite value.
pub fn read_array2(bytes: &[u8]) -> Result<Array2, NpyError> {
    let (start, text_len) = header_span(bytes)?;
    let (header, data) = bytes[start..]
        .split_at_checked(text_len)
        .ok_or_else(|| NpyError::Format("truncated header".into()))?;
    let layout = Layout::of(header, data.len() as u64)?;
    let mut values = Vec::with_capacity(layout.rows * layout.cols);
    layout.convert(&data[..layout.bytes()], &mut values);
    layout.finite(values)
}

/// Bytes [`read_array2_from`] reads at a time: a whole number of values of either width.
const READ_CHUNK_BYTES: usize = 1 << 20;

/// [`read_array2`] of the `len` bytes `reader` holds (a file, say, of its length), read a
/// chunk at a time straight into the values: no copy of the whole file is kept.
///
/// # Errors
/// As [`read_array2`], and [`NpyError::Read`] if `reader` fails or ends early.
pub fn read_array2_from(reader: &mut impl std::io::Read, len: u64) -> Result<Array2, NpyError> {
    let read = |e: std::io::Error| NpyError::Read(e.to_string());
    // The longest preamble, magic to header length. A version 1 preamble is two bytes
    // shorter: a header text that short holds no dtype, and is refused below.
    let mut head = vec![0; 12];
    if len < head.len() as u64 {
        return Err(NpyError::Format("truncated".into()));
    }
    reader.read_exact(&mut head).map_err(read)?;
    let (start, text_len) = header_span(&head)?;
    let end = start + text_len;
    let Some(data_len) = len.checked_sub(end as u64) else {
        return Err(NpyError::Format("truncated header".into()));
    };
    if end > head.len() {
        let read_so_far = head.len();
        head.resize(end, 0);
        reader.read_exact(&mut head[read_so_far..]).map_err(read)?;
    }
    let layout = Layout::of(&head[start..end], data_len)?;
    let mut values = Vec::with_capacity(layout.rows * layout.cols);
    let mut chunk = vec![0; READ_CHUNK_BYTES.min(layout.bytes())];
    let mut left = layout.bytes();
    while left > 0 {
        let piece = &mut chunk[..left.min(READ_CHUNK_BYTES)];
        reader.read_exact(piece).map_err(read)?;
        layout.convert(piece, &mut values);
        left -= piece.len();
    }
    layout.finite(values)
}

/// Where the header text of the `.npy` file starting with `bytes` starts, and its length
/// in bytes (from its preamble alone).
fn header_span(bytes: &[u8]) -> Result<(usize, usize), NpyError> {
    let rest = bytes.strip_prefix(b"\x93NUMPY").ok_or_else(|| NpyError::Format("missing magic".into()))?;
    let (major, rest) = rest.split_at_checked(2).ok_or_else(|| NpyError::Format("truncated".into()))?;
    match major[0] {
        1 => {
            let l = rest.get(..2).ok_or_else(|| NpyError::Format("truncated".into()))?;
            Ok((10, usize::from(u16::from_le_bytes([l[0], l[1]]))))
        }
        2 | 3 => {
            let l = rest.get(..4).ok_or_else(|| NpyError::Format("truncated".into()))?;
            Ok((12, u32::from_le_bytes([l[0], l[1], l[2], l[3]]) as usize))
        }
        v => Err(NpyError::Format(format!("unknown version {v}"))),
    }
}

/// What a `.npy` header says of its 2-D array, checked against the data present.
#[derive(Debug, Clone, Copy)]
struct Layout {
    rows: usize,
    cols: usize,
    /// Bytes per value: 4 or 8.
    width: usize,
}

impl Layout {
    /// The layout the header text `header` gives, for a file with `data_len` bytes after it.
    fn of(header: &[u8], data_len: u64) -> Result<Layout, NpyError> {
        let header =
            std::str::from_utf8(header).map_err(|_| NpyError::Format("header is not text".into()))?;
        let descr = field(header, "descr").ok_or_else(|| NpyError::Format("no descr".into()))?;
        let descr = descr.trim().trim_matches(|c| c == '\'' || c == '"').to_owned();
        let width = match descr.as_str() {
            "<f4" => 4,
            "<f8" => 8,
            _ => return Err(NpyError::Dtype(descr)),
        };
        if field(header, "fortran_order").is_some_and(|v| v.trim().starts_with("True")) {
            return Err(NpyError::FortranOrder);
        }
        let shape_text = header
            .split_once("'shape':")
            .and_then(|(_, s)| s.split_once('('))
            .and_then(|(_, s)| s.split_once(')'))
            .map(|(s, _)| s)
            .ok_or_else(|| NpyError::Format("no shape".into()))?;
        let shape: Vec<usize> = shape_text
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().map_err(|_| NpyError::Format(format!("bad shape ({shape_text})"))))
            .collect::<Result<_, _>>()?;
        let [rows, cols] = shape[..] else {
            if shape.len() > 32 {
                return Err(NpyError::Format(format!("a shape of {} dimensions", shape.len())));
            }
            return Err(NpyError::Shape(shape));
        };
        if rows == 0 || cols == 0 {
            return Err(NpyError::Empty(rows, cols));
        }
        // Checked before anything is allocated: the header's claim is only a claim.
        let bytes_needed = rows.checked_mul(cols).and_then(|c| c.checked_mul(width));
        if bytes_needed.is_none_or(|b| b as u64 > data_len) {
            return Err(NpyError::Format(format!(
                "shape ({rows}, {cols}) of {width}-byte values needs {} data bytes, the file has {data_len}",
                bytes_needed.map_or_else(|| "more than 2^64".to_owned(), |b| b.to_string()),
            )));
        }
        Ok(Layout { rows, cols, width })
    }

    /// Bytes of the array's values.
    fn bytes(self) -> usize {
        self.rows * self.cols * self.width
    }

    /// Appends the values in `data` (whole values) to `values`.
    fn convert(self, data: &[u8], values: &mut Vec<f64>) {
        // One loop per width, each over chunks of a size the compiler knows.
        match self.width {
            4 => values.extend(
                data.chunks_exact(4).map(|c| f64::from(f32::from_le_bytes([c[0], c[1], c[2], c[3]]))),
            ),
            _ => values.extend(
                data.chunks_exact(8)
                    .map(|c| f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])),
            ),
        }
    }

    /// The array of `values`, if every one is finite.
    fn finite(self, values: Vec<f64>) -> Result<Array2, NpyError> {
        if let Some(i) = values.iter().position(|v| !v.is_finite()) {
            return Err(NpyError::NotFinite(i / self.cols, i % self.cols));
        }
        Ok(Array2 { rows: self.rows, cols: self.cols, data: values })
    }
}

/// The text after `'key':` up to the next top-level comma.
fn field<'a>(header: &'a str, key: &str) -> Option<&'a str> {
    let (_, rest) = header.split_once(&format!("'{key}':"))?;
    Some(rest.split(',').next().unwrap_or(rest))
}

/// An element type this writer can emit.
pub trait NpyElement: Copy {
    /// The dtype string, e.g. `<f8`.
    const DESCR: &'static str;
    /// Writes the little-endian bytes of `self` into `out`, which holds exactly as many.
    fn put(self, out: &mut [u8]);
}

macro_rules! element {
    ($t:ty, $d:literal) => {
        impl NpyElement for $t {
            const DESCR: &'static str = $d;
            fn put(self, out: &mut [u8]) {
                out.copy_from_slice(&self.to_le_bytes());
            }
        }
    };
}
element!(f64, "<f8");
element!(i64, "<i8");
element!(i32, "<i4");
element!(u8, "|u1");

/// A version 1.0 `.npy` file holding `values` with `shape` (row-major).
///
/// # Panics
/// If the shape's product is not `values.len()`.
pub fn write<T: NpyElement>(shape: &[usize], values: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(128 + values.len() * 8);
    match write_to(&mut out, shape, values.iter().copied()) {
        Ok(()) => out,
        Err(e) => unreachable!("writing to memory cannot fail: {e}"),
    }
}

/// Bytes a writer gets at a time from [`write_to`].
const WRITE_CHUNK_BYTES: usize = 1 << 20;

/// [`write()`] straight into `out` (a file, say), `values` converted a chunk at a time: no
/// copy of the whole array is made in memory.
///
/// # Errors
/// What `out` returns.
///
/// # Panics
/// If the shape's product is not the number of values.
pub fn write_to<T: NpyElement, W: std::io::Write>(
    out: &mut W,
    shape: &[usize],
    values: impl ExactSizeIterator<Item = T>,
) -> std::io::Result<()> {
    assert_eq!(shape.iter().product::<usize>(), values.len(), "shape does not match the values");
    let mut dims = String::new();
    for d in shape {
        let _ = write!(dims, "{d}, ");
    }
    if shape.len() > 1 {
        dims.truncate(dims.len() - 2);
    } else {
        dims.truncate(dims.len() - 1);
    }
    let mut header = format!("{{'descr': '{}', 'fortran_order': False, 'shape': ({dims}), }}", T::DESCR);
    // Pad so the data starts on a 64-byte boundary, ending the header with a newline.
    let total = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - total % 64) % 64));
    header.push('\n');
    let mut preamble = b"\x93NUMPY\x01\x00".to_vec();
    preamble.extend_from_slice(&(header.len() as u16).to_le_bytes());
    preamble.extend_from_slice(header.as_bytes());
    out.write_all(&preamble)?;
    // Each value goes straight into its own slot of the chunk, a fixed number of bytes.
    let size = std::mem::size_of::<T>();
    let mut values = values;
    let mut chunk = vec![0u8; WRITE_CHUNK_BYTES.min(values.len().saturating_mul(size)).max(size)];
    loop {
        let mut used = 0;
        for (slot, v) in chunk.chunks_exact_mut(size).zip(&mut values) {
            v.put(slot);
            used += size;
        }
        if used == 0 {
            return Ok(());
        }
        out.write_all(&chunk[..used])?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An array larger than a write chunk comes back whole and in order.
    #[test]
    fn round_trips_an_array_written_in_chunks() {
        let (rows, cols) = (600, 500);
        let values: Vec<f64> = (0..rows * cols).map(|k| k as f64 * 0.25 - 7.0).collect();
        assert!(values.len() * 8 > 2 * WRITE_CHUNK_BYTES);
        let mut bytes = Vec::new();
        write_to(&mut bytes, &[rows, cols], values.iter().copied()).expect("in memory");
        let a = read_array2(&bytes).expect("valid");
        assert_eq!((a.rows, a.cols), (rows, cols));
        assert_eq!(a.data, values);
        assert!(values.len() * 8 > 2 * READ_CHUNK_BYTES);
        let streamed = read_array2_from(&mut bytes.as_slice(), bytes.len() as u64).expect("valid");
        assert_eq!(streamed, a);
    }

    /// A reader that ends before the length it was said to hold is an error saying so.
    #[test]
    fn a_stream_that_ends_early_is_an_error() {
        let bytes = write(&[300, 200], &vec![1.5; 60_000]);
        let short = &bytes[..bytes.len() - 1];
        let e = read_array2_from(&mut &short[..], bytes.len() as u64).expect_err("one byte short");
        assert_eq!(e, NpyError::Read("failed to fill whole buffer".into()));
        assert_eq!(e.to_string(), "cannot read: failed to fill whole buffer");
    }

    #[test]
    fn round_trips_a_2d_f64_array() {
        let bytes = write(&[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.5]);
        assert_eq!((bytes.len() - 6 * 8) % 64, 0, "data starts on a 64-byte boundary");
        let a = read_array2(&bytes).expect("valid");
        assert_eq!((a.rows, a.cols), (2, 3));
        assert_eq!(a.data, [1.0, 2.0, 3.0, 4.0, 5.0, 6.5]);
    }

    #[test]
    fn header_of_a_1d_array_has_the_tuple_comma() {
        let bytes = write(&[3], &[1i64, -1, 2]);
        let text = String::from_utf8_lossy(&bytes[10..]);
        assert!(text.contains("'shape': (3,)"), "{text}");
    }

    #[test]
    fn bad_inputs_are_named() {
        assert_eq!(read_array2(&write(&[3], &[1.0, 2.0, 3.0])), Err(NpyError::Shape(vec![3])));
        assert_eq!(read_array2(&write(&[2, 2], &[1i64, 2, 3, 4])), Err(NpyError::Dtype("<i8".into())));
        assert_eq!(read_array2(&write::<f64>(&[0, 4], &[])), Err(NpyError::Empty(0, 4)));
        assert_eq!(read_array2(&write(&[2, 2], &[1.0, 2.0, f64::NAN, 4.0])), Err(NpyError::NotFinite(1, 0)));
        assert!(matches!(read_array2(b"hello"), Err(NpyError::Format(_))));
    }

    #[test]
    fn reads_f32() {
        let mut bytes = write(&[1, 2], &[0.0f64, 0.0]);
        // Rewrite as f4 by hand: header says <f4, data is two f32s.
        let header_end = bytes.iter().position(|&b| b == b'\n').expect("newline") + 1;
        let header = String::from_utf8(bytes[10..header_end].to_vec()).expect("text").replace("<f8", "<f4");
        bytes.truncate(10);
        bytes[8..10].copy_from_slice(&(header.len() as u16).to_le_bytes());
        bytes.extend_from_slice(header.as_bytes());
        bytes.extend_from_slice(&1.5f32.to_le_bytes());
        bytes.extend_from_slice(&(-2.0f32).to_le_bytes());
        assert_eq!(read_array2(&bytes).expect("f4").data, [1.5, -2.0]);
    }
}
