//! Heap accounting for the benches: the process's allocator, counting the bytes it has
//! handed out and the most it has held at once since the last [`reset_peak`]. Exact and the
//! same on every run, unlike the resident size, which also holds what the allocator keeps.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Bytes allocated and not yet freed.
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// The most bytes held at once since the last [`reset_peak`].
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counted.
struct Counting;

#[global_allocator]
static ALLOCATOR: Counting = Counting;

impl Counting {
    fn grew(by: usize) {
        let now = LIVE.fetch_add(by, Relaxed) + by;
        PEAK.fetch_max(now, Relaxed);
    }
}

// SAFETY: every call is passed straight to `System` with its own arguments; the counters are
// plain atomics and never touch the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        Self::grew(layout.size());
        // SAFETY: the caller's contract for `alloc` is `System::alloc`'s.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        Self::grew(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        // SAFETY: `ptr` came from this allocator, that is from `System`, with `layout`.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        match new_size >= layout.size() {
            true => Self::grew(new_size - layout.size()),
            false => {
                LIVE.fetch_sub(layout.size() - new_size, Relaxed);
            }
        }
        // SAFETY: as for `dealloc`, and `new_size` meets `realloc`'s contract by the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

/// Bytes on the heap now.
pub fn live_bytes() -> usize {
    LIVE.load(Relaxed)
}

/// The most bytes the heap held at once since the last [`reset_peak`] (or the start).
pub fn peak_bytes() -> usize {
    PEAK.load(Relaxed)
}

/// Starts a new peak from what the heap holds now.
pub fn reset_peak() {
    PEAK.store(LIVE.load(Relaxed), Relaxed);
}
