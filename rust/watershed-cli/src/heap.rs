//! Heap accounting for the benches: the process's allocator, which, once [`start`] is
//! called, counts the bytes it hands out and takes back and the most it has held at once
//! since the last [`reset_peak`]. Exact and the same on every run, unlike the resident size,
//! which also holds what the allocator keeps. Until then it only passes calls on.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicBool, AtomicIsize, Ordering::Relaxed};

/// Whether allocations are counted.
static COUNTING: AtomicBool = AtomicBool::new(false);
/// Bytes allocated minus bytes freed since counting started (negative when more memory
/// from before was freed than allocated since).
static LIVE: AtomicIsize = AtomicIsize::new(0);
/// The most [`LIVE`] has been since the last [`reset_peak`].
static PEAK: AtomicIsize = AtomicIsize::new(0);

/// The system allocator, counted once [`start`] is called.
struct Counting;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

impl Counting {
    /// Counts `bytes` more on the heap, if counting and the allocation succeeded.
    fn grew(bytes: usize, ptr: *mut u8) -> *mut u8 {
        if !ptr.is_null() && COUNTING.load(Relaxed) {
            let bytes = bytes as isize;
            let now = LIVE.fetch_add(bytes, Relaxed) + bytes;
            PEAK.fetch_max(now, Relaxed);
        }
        ptr
    }

    /// Counts `bytes` fewer on the heap, if counting.
    fn shrank(bytes: usize) {
        if COUNTING.load(Relaxed) {
            LIVE.fetch_sub(bytes as isize, Relaxed);
        }
    }
}

// SAFETY: every call is passed straight to `System` with its own arguments; the counters are
// plain atomics and never touch the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is `System::alloc`'s.
        Self::grew(layout.size(), unsafe { System.alloc(layout) })
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as for `alloc`.
        Self::grew(layout.size(), unsafe { System.alloc_zeroed(layout) })
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        Self::shrank(layout.size());
        // SAFETY: `ptr` came from this allocator, that is from `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: as for `dealloc`, and `new_size` meets `realloc`'s contract by the caller's.
        let moved = unsafe { System.realloc(ptr, layout, new_size) };
        if !moved.is_null() {
            Self::shrank(layout.size());
            Self::grew(new_size, moved);
        }
        moved
    }
}

/// Starts counting (from zero bytes, now). Calls after the first do nothing.
pub fn start() {
    COUNTING.store(true, Relaxed);
}

/// Bytes on the heap now, relative to when counting started.
pub fn live_bytes() -> isize {
    LIVE.load(Relaxed)
}

/// The most bytes the heap held at once since the last [`reset_peak`], relative to when
/// counting started.
pub fn peak_bytes() -> isize {
    PEAK.load(Relaxed)
}

/// Starts a new peak from what the heap holds now.
pub fn reset_peak() {
    PEAK.store(LIVE.load(Relaxed), Relaxed);
}
