//! `watershed export` and `watershed grid-drain`: solves written as `.npy` arrays.

use std::path::Path;
use std::sync::{Mutex, PoisonError};
use watershed::{
    drain_grid_handing_over, write_npy_to, Grid, GridOptions, NpyElement, Settled, World, WorldSettings,
};

fn save<T: NpyElement>(dir: &Path, name: &str, shape: &[usize], values: &[T]) -> Result<(), String> {
    save_from(dir, name, shape, values.iter().copied())
}

/// Writes `values` as `dir/name`, converted as they are written.
fn save_from<T: NpyElement>(
    dir: &Path,
    name: &str,
    shape: &[usize],
    values: impl ExactSizeIterator<Item = T>,
) -> Result<(), String> {
    let path = dir.join(name);
    std::fs::File::create(&path)
        .and_then(|mut file| write_npy_to(&mut file, shape, values))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Writes the world's lattice solve into `out`.
pub fn sphere(world: &WorldSettings, out: &Path) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let solved = World::build(world);
    let n = solved.terrain.heights.len();
    let d = &solved.terrain.drainage;
    let positions: Vec<f64> = solved.terrain.lattice.positions().iter().flat_map(|p| p.to_array()).collect();
    let (offsets, neighbors) = solved.terrain.lattice.csr();
    let offsets: Vec<i64> = offsets.iter().map(|&o| i64::from(o)).collect();
    let neighbors: Vec<i64> = neighbors.iter().map(|&o| i64::from(o)).collect();
    let kind: Vec<u8> = d.kind.iter().map(|&k| k as u8).collect();
    save(out, "positions.npy", &[n, 3], &positions)?;
    save(out, "heights.npy", &[n], &solved.terrain.heights)?;
    save(out, "neighbor_offsets.npy", &[n + 1], &offsets)?;
    save(out, "neighbors.npy", &[neighbors.len()], &neighbors)?;
    save(out, "receivers.npy", &[n], &d.receiver_indices())?;
    save(out, "catchment_m2.npy", &[n], &d.catchment_m2)?;
    save_from(out, "water_level.npy", &[n], d.water_levels_m())?;
    save(out, "kind.npy", &[n], &kind)?;
    println!("{}: {n} nodes -> {}", world.name, out.display());
    Ok(())
}

/// Bytes of memory per byte of heightmap file: the file itself, its values widened to f64
/// and the drainage of every cell, for a file of 4-byte values (the densest).
const MEMORY_PER_FILE_BYTE: u64 = watershed::GRID_BYTES_PER_CELL / 4;
/// The largest heightmap file read when the machine's memory is unknown.
const MAX_DEM_FILE_BYTES: u64 = 16 << 30;

/// Drains the heightmap at `dem` (any format of [`crate::dem`]; `height_range` for 16-bit
/// ones) and writes filled, receivers, accum and lake_id into `out`,
/// refusing a heightmap whose drainage would need more than `available_bytes` of memory.
/// `cell_m` and `options` are checked by the argument parser.
pub fn grid(
    dem: &Path,
    height_range: Option<(f64, f64)>,
    cell_m: f64,
    options: &GridOptions,
    out: &Path,
    available_bytes: Option<u64>,
) -> Result<(), String> {
    let limit = available_bytes.map_or(MAX_DEM_FILE_BYTES, |a| a / MEMORY_PER_FILE_BYTE);
    let array = crate::dem::load(dem, height_range, limit, "a heightmap this machine can drain")?;
    let (rows, cols) = (array.rows, array.cols);
    watershed::check_grid_memory(rows, cols, available_bytes)
        .map_err(|e| format!("{}: {e}", dem.display()))?;
    if rows * cols > u32::MAX as usize {
        return Err(format!(
            "{}: {rows} x {cols} cells; at most {} cells can drain",
            dem.display(),
            u32::MAX
        ));
    }
    let grid = Grid { width: cols, height: rows, cell_m };
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let shape = [rows, cols];
    // The four files are written on the other core while the drain goes on, each as soon
    // as the drain has settled it.
    let failed = Mutex::new(None);
    let write = |settled: Settled<'_>| {
        let written = match settled {
            Settled::Filled(filled) => save(out, "filled.npy", &shape, filled),
            Settled::Receivers(r) => {
                save_from(out, "receivers.npy", &shape, r.iter().map(|r| r.receiver_index()))
            }
            Settled::LakeIds(ids) => save_from(out, "lake_id.npy", &shape, ids.iter().map(|&l| l as i32)),
            Settled::Catchment(accum) => save(out, "accum.npy", &shape, accum),
        };
        if let Err(e) = written {
            failed.lock().unwrap_or_else(PoisonError::into_inner).get_or_insert(e);
        }
    };
    let t = std::time::Instant::now();
    let (d, _) = drain_grid_handing_over(&grid, &array.data, options, &write);
    let drained_ms = t.elapsed().as_secs_f64() * 1e3;
    if let Some(e) = failed.into_inner().unwrap_or_else(PoisonError::into_inner) {
        return Err(e);
    }
    println!(
        "{}: {}x{} cells, {} lakes, uphill {}, no path {}, drained and written in {drained_ms:.0} ms -> {}",
        dem.display(),
        array.cols,
        array.rows,
        d.lakes.len(),
        d.stats.uphill,
        d.stats.no_path,
        out.display()
    );
    Ok(())
}
