//! Cooperative cancellation: a long build reads a caller's flag between its stages and every
//! [`CHECK_EVERY`] nodes inside its long loops, and gives up (returns `None`) once it is set.

use std::sync::atomic::{AtomicBool, Ordering};

/// Nodes a long loop handles between two looks at its cancel flag.
pub(crate) const CHECK_EVERY: usize = 1 << 16;

/// Whether the caller asked to stop.
pub(crate) fn requested(flag: &AtomicBool) -> bool {
    flag.load(Ordering::Relaxed)
}
