//! Solved worlds by handle: plain Rust data any thread may read.
//!
//! A handle is a positive integer Godot code can pass around (to voxel worker threads, say);
//! it stays valid until the node that registered it releases it.

use std::sync::{Arc, LazyLock, PoisonError, RwLock};
use watershed::World;

static WORLDS: LazyLock<RwLock<Vec<Option<Arc<World>>>>> = LazyLock::new(|| RwLock::new(Vec::new()));

/// Registers a solved world; returns its handle (1 or more).
pub fn register(world: Arc<World>) -> i64 {
    let mut worlds = WORLDS.write().unwrap_or_else(PoisonError::into_inner);
    worlds.push(Some(world));
    worlds.len() as i64
}

/// The world behind `handle`, if it is registered.
pub fn get(handle: i64) -> Option<Arc<World>> {
    let index = usize::try_from(handle).ok()?.checked_sub(1)?;
    WORLDS.read().unwrap_or_else(PoisonError::into_inner).get(index).cloned().flatten()
}

/// Forgets `handle`; later lookups find nothing.
pub fn release(handle: i64) {
    let Some(index) = usize::try_from(handle).ok().and_then(|h| h.checked_sub(1)) else { return };
    if let Some(slot) = WORLDS.write().unwrap_or_else(PoisonError::into_inner).get_mut(index) {
        *slot = None;
    }
}
