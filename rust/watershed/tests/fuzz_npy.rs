//! Fuzzing the `.npy` reader `watershed grid-drain` feeds heightmaps through: random
//! headers and bodies never panic it, and nothing it allocates is sized by the header alone.
//!
//! A fixed budget: `CASES` inputs per family from the named seed, the same on every run.
//! This test binary counts allocations (see `Counting`) to pin the second claim.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Cursor;
use std::panic::{catch_unwind, AssertUnwindSafe};
use watershed::testkit::FUZZ_SEED;
use watershed::{read_array2, read_array2_from, write_npy, Array2, NpyError, SplitMix64};

/// Inputs per family.
const CASES: usize = 1500;

/// The system allocator, noting the largest single request made on a thread while that
/// thread is tracking (other test threads are not counted).
struct Counting;

thread_local! {
    static TRACKING: Cell<bool> = const { Cell::new(false) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn note(size: usize) {
    let _ = TRACKING.try_with(|t| {
        if t.get() {
            let _ = LARGEST.try_with(|l| l.set(l.get().max(size)));
        }
    });
}

// SAFETY: every call is passed unchanged to `System`; `note` only touches const thread
// locals, which never allocate.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Reads `bytes` whole and as a stream; a panic is a failure naming the input. Returns
/// both results and the largest single allocation either read made.
fn read(bytes: &[u8]) -> (Result<Array2, NpyError>, Result<Array2, NpyError>, usize) {
    LARGEST.with(|l| l.set(0));
    TRACKING.with(|t| t.set(true));
    let result = catch_unwind(AssertUnwindSafe(|| {
        (read_array2(bytes), read_array2_from(&mut Cursor::new(bytes), bytes.len() as u64))
    }));
    TRACKING.with(|t| t.set(false));
    let largest = LARGEST.with(Cell::get);
    match result {
        Ok((whole, streamed)) => (whole, streamed, largest),
        Err(_) => panic!(
            "read_array2 or read_array2_from panicked on {} bytes: {:?}",
            bytes.len(),
            String::from_utf8_lossy(&bytes[..bytes.len().min(200)])
        ),
    }
}

/// Reads `bytes` and checks what every read must hold: a consistent array or an error with
/// a message, and no allocation beyond twice the input (f4 values widen to f64) plus slack;
/// read as a stream, the same array or the same error (any error from under 12 bytes).
fn check(bytes: &[u8]) -> Result<Array2, NpyError> {
    let (result, streamed, largest) = read(bytes);
    let what = String::from_utf8_lossy(&bytes[..bytes.len().min(200)]).into_owned();
    if bytes.len() < 12 {
        assert!(result.is_err() && streamed.is_err(), "{what:?}");
    } else {
        assert_eq!(streamed, result, "{what:?}");
    }
    assert!(
        largest <= 2 * bytes.len() + 4096,
        "allocated {largest} bytes reading {} bytes: {what:?}",
        bytes.len()
    );
    match &result {
        Ok(a) => {
            assert_eq!(a.data.len(), a.rows * a.cols, "{what:?}");
            assert!(a.rows.saturating_mul(a.cols).saturating_mul(4) <= bytes.len(), "{what:?}");
            assert!(a.data.iter().all(|v| v.is_finite()), "{what:?}");
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    result
}

fn below(rng: &mut SplitMix64, n: usize) -> usize {
    (rng.next_u64() % n.max(1) as u64) as usize
}

fn pick<'a, T>(rng: &mut SplitMix64, items: &'a [T]) -> &'a T {
    &items[below(rng, items.len())]
}

/// A `.npy` file from parts: version, header text (padded like numpy's) and body.
fn assemble(version: u8, header: &str, body: &[u8]) -> Vec<u8> {
    let mut header = header.to_owned();
    let prefix = if version == 1 { 10 } else { 12 };
    header.push_str(&" ".repeat((64 - (prefix + header.len() + 1) % 64) % 64));
    header.push('\n');
    let mut out = b"\x93NUMPY".to_vec();
    out.extend_from_slice(&[version, 0]);
    if version == 1 {
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
    }
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(body);
    out
}

const DESCRS: &[&str] = &[
    "'<f8'",
    "'<f4'",
    "'>f8'",
    "'|u1'",
    "'<i8'",
    "'<f2'",
    "''",
    "'f8'",
    "'<f8",
    "<f8",
    "'<f8' '<f4'",
    "'🌊'",
    "None",
];

const SHAPES: &[&str] = &[
    "(2, 3)",
    "(3,)",
    "()",
    "(1, 1, 1)",
    "(0, 5)",
    "(-1, 5)",
    "(2**62, 2**62)",
    "(4611686018427387904, 4611686018427387904)",
    "(2305843009213693952, 1)",
    "(1000000000, 1000000000)",
    "(18446744073709551615, 2)",
    "(18446744073709551616, 1)",
    "(1, 100000000)",
    "(3, 2",
    "3, 2)",
    "(a, b)",
    "(+2, 3)",
    "( 2 ,  3 , )",
];

/// A header from random fields, some of them valid.
fn random_header(rng: &mut SplitMix64) -> String {
    let descr = pick(rng, DESCRS);
    let shape = pick(rng, SHAPES);
    let fortran = pick(rng, &["False", "True", "0", "Flase"]);
    match below(rng, 5) {
        0 => format!("{{'shape': {shape}, 'descr': {descr}, }}"),
        1 => format!("{{'descr': {descr}, 'fortran_order': {fortran}}}"),
        _ => format!("{{'descr': {descr}, 'fortran_order': {fortran}, 'shape': {shape}, }}"),
    }
}

fn random_bytes(rng: &mut SplitMix64, n: usize) -> Vec<u8> {
    (0..n).map(|_| rng.next_u64() as u8).collect()
}

/// A valid file: f8 written by the crate's writer or f4 assembled by hand.
fn valid_file(rng: &mut SplitMix64) -> Vec<u8> {
    let (rows, cols) = (1 + below(rng, 12), 1 + below(rng, 12));
    let values: Vec<f64> = (0..rows * cols).map(|_| rng.range(-500.0, 500.0)).collect();
    if rng.next_u64() & 1 == 0 {
        write_npy(&[rows, cols], &values)
    } else {
        let body: Vec<u8> = values.iter().flat_map(|&v| (v as f32).to_le_bytes()).collect();
        let header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({rows}, {cols}), }}");
        assemble(1, &header, &body)
    }
}

#[test]
fn valid_files_read_back() {
    let mut rng = SplitMix64::new(FUZZ_SEED, 10);
    for _ in 0..200 {
        assert!(check(&valid_file(&mut rng)).is_ok());
    }
    let v2 = assemble(2, "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 2), }", &[0; 16]);
    assert_eq!(check(&v2).expect("version 2").data, [0.0, 0.0]);
}

#[test]
fn mutated_valid_files_never_panic() {
    let mut rng = SplitMix64::new(FUZZ_SEED, 11);
    for _ in 0..CASES {
        let mut bytes = valid_file(&mut rng);
        for _ in 0..1 + below(&mut rng, 3) {
            let at = below(&mut rng, bytes.len());
            match below(&mut rng, 6) {
                0 => bytes.truncate(at),
                1 => bytes[at] ^= 1 << below(&mut rng, 8),
                2 if bytes.len() > 10 => bytes[6 + below(&mut rng, 4)] = rng.next_u64() as u8,
                3 => {
                    let n = below(&mut rng, 64);
                    let extra = random_bytes(&mut rng, n);
                    bytes.extend_from_slice(&extra);
                }
                2 | 4 => {
                    let n = below(&mut rng, 16);
                    let garbage = random_bytes(&mut rng, n);
                    bytes.splice(at..at, garbage);
                }
                _ => bytes[at] = *pick(&mut rng, b"(),'-:9 \n\x00"),
            }
            if bytes.is_empty() {
                break;
            }
        }
        let _ = check(&bytes);
    }
}

#[test]
fn random_headers_and_bodies_never_panic() {
    let mut rng = SplitMix64::new(FUZZ_SEED, 12);
    for _ in 0..CASES {
        let version = *pick(&mut rng, &[1u8, 1, 2, 3, 0, 255]);
        let body_len = *pick(&mut rng, &[0usize, 1, 7, 8, 24, 48, 100, 4096]);
        let body = random_bytes(&mut rng, body_len);
        let _ = check(&assemble(version, &random_header(&mut rng), &body));
    }
}

#[test]
fn header_length_fields_beyond_the_file_are_errors() {
    let mut rng = SplitMix64::new(FUZZ_SEED, 13);
    for _ in 0..200 {
        let mut bytes = valid_file(&mut rng);
        let wide = rng.next_u64() & 1 == 0;
        bytes[6] = if wide { 2 } else { 1 };
        let claim = rng.next_u64();
        if wide {
            bytes.splice(8..10, (claim as u32).to_le_bytes());
        } else {
            bytes[8..10].copy_from_slice(&(claim as u16).to_le_bytes());
        }
        let _ = check(&bytes);
    }
    let mut huge = b"\x93NUMPY\x02\x00".to_vec();
    huge.extend_from_slice(&u32::MAX.to_le_bytes());
    huge.extend_from_slice(&[b' '; 100]);
    assert_eq!(check(&huge), Err(NpyError::Format("truncated header".into())));
}

#[test]
fn empty_and_tiny_inputs_are_errors() {
    for bytes in [
        &b""[..],
        b"\x93",
        b"\x93NUMPY",
        b"\x93NUMPY\x01",
        b"\x93NUMPY\x01\x00\xff",
        b"\x93NUMPY\x03\x00\x00\x00",
    ] {
        assert!(check(bytes).is_err(), "{bytes:?}");
    }
}

/// Bug: the byte count `rows * cols * width` was not checked for overflow. A header shape of
/// (2^61, 1) in f8 wrapped to zero bytes: a debug build panicked, a release build returned
/// an "array" of 2^61 rows and no data, which `drain_grid` then asserted on.
#[test]
fn shape_whose_byte_count_overflows_is_an_error() {
    for (descr, shape) in [
        ("<f8", "(2305843009213693952, 1)"),
        ("<f4", "(4611686018427387904, 1)"),
        ("<f8", "(1, 2305843009213693952)"),
    ] {
        let header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape}, }}");
        let e = check(&assemble(1, &header, &[0; 100])).expect_err(shape);
        assert!(e.to_string().contains("needs more than 2^64 data bytes, the file has 100"), "{e}");
    }
}

#[test]
fn header_claiming_a_billion_billion_values_fails_fast_without_allocating() {
    let header = "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000, 1000000000), }";
    let bytes = assemble(1, header, &[0; 100]);
    let started = std::time::Instant::now();
    let (result, streamed, largest) = read(&bytes);
    assert_eq!(streamed, result);
    assert!(started.elapsed().as_millis() < 100, "took {:?}", started.elapsed());
    assert!(largest < 4096, "allocated {largest} bytes");
    assert_eq!(
        result,
        Err(NpyError::Format(
            "shape (1000000000, 1000000000) of 8-byte values needs 8000000000000000000 data bytes, the file has 100"
                .into()
        ))
    );
}
