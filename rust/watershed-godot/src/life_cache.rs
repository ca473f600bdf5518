//! The life of each solved world (climate, biomes, sites), worked out once and shared by
//! every node that reads it: `PlanetTerrain`'s colours, `PlanetLife`'s answers and
//! `PlanetScatter`'s trees.

use std::sync::{Arc, LazyLock, Mutex, OnceLock, Weak};
use watershed::{Life, World};

/// A world's life, set once worked out.
type Pending = Arc<OnceLock<Life>>;

/// A world asked about (while it is alive) and its life.
type Entry = (Weak<World>, Pending);

/// The worlds asked about so far that are still alive, and their life.
static LIVES: LazyLock<Mutex<Vec<Entry>>> = LazyLock::new(|| Mutex::new(Vec::new()));

/// The life of `world`: set once worked out. The first call for a world starts the work on
/// a thread of its own, never a rayon worker, so chunk workers that wait for it cannot hold
/// up the work they wait on; later calls share it.
pub fn shared_life(world: &Arc<World>) -> Pending {
    let mut lives = LIVES.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    lives.retain(|(seen, _)| seen.strong_count() > 0);
    if let Some((_, life)) = lives.iter().find(|(seen, _)| std::ptr::eq(seen.as_ptr(), Arc::as_ptr(world))) {
        return life.clone();
    }
    let life = Arc::new(OnceLock::new());
    lives.push((Arc::downgrade(world), life.clone()));
    let (world, cell) = (world.clone(), life.clone());
    std::thread::spawn(move || {
        let _ = cell.set(Life::of(&world));
    });
    life
}
