//! `watershed export` and `watershed grid-drain`: solves written as `.npy` arrays.

use std::path::Path;
use watershed::{
    drain_grid, read_array2, write_npy, Drainage, Grid, GridOptions, NpyElement, World, WorldSettings,
};

fn save<T: NpyElement>(dir: &Path, name: &str, shape: &[usize], values: &[T]) -> Result<(), String> {
    let path = dir.join(name);
    std::fs::write(&path, write_npy(shape, values))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Receivers as flat indices, -1 where the water stops (sea, edge, sink).
fn receivers(d: &Drainage) -> Vec<i64> {
    d.receivers.iter().map(|r| r.receiver().map_or(-1, |n| i64::from(n.0))).collect()
}

/// Writes the world's lattice solve into `out`.
pub fn sphere(world: &WorldSettings, out: &Path) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let solved = World::build(world);
    let n = solved.heights.len();
    let d = &solved.drainage;
    let positions: Vec<f64> = solved.lattice.positions().iter().flat_map(|p| p.to_array()).collect();
    let (offsets, neighbors) = solved.lattice.csr();
    let offsets: Vec<i64> = offsets.iter().map(|&o| i64::from(o)).collect();
    let neighbors: Vec<i64> = neighbors.iter().map(|&o| i64::from(o)).collect();
    let kind: Vec<u8> = d.kind.iter().map(|&k| k as u8).collect();
    save(out, "positions.npy", &[n, 3], &positions)?;
    save(out, "heights.npy", &[n], &solved.heights)?;
    save(out, "neighbor_offsets.npy", &[n + 1], &offsets)?;
    save(out, "neighbors.npy", &[neighbors.len()], &neighbors)?;
    save(out, "receivers.npy", &[n], &receivers(d))?;
    save(out, "catchment_m2.npy", &[n], &d.catchment_m2)?;
    save(out, "water_level.npy", &[n], &d.water_level_m)?;
    save(out, "kind.npy", &[n], &kind)?;
    println!("{}: {n} nodes -> {}", world.name, out.display());
    Ok(())
}

/// Drains the heightmap at `dem` and writes filled, receivers, accum and lake_id into `out`.
pub fn grid(dem: &Path, cell_m: f64, options: &GridOptions, out: &Path) -> Result<(), String> {
    if !(cell_m.is_finite() && cell_m > 0.0) {
        return Err(format!("--cell-m must be a positive number of metres, got {cell_m}"));
    }
    if options.sea_level_m.is_some_and(|s| !s.is_finite()) {
        return Err("--sea-level must be a finite number of metres".into());
    }
    let bytes = std::fs::read(dem).map_err(|e| format!("cannot read {}: {e}", dem.display()))?;
    let array = read_array2(&bytes).map_err(|e| format!("{}: {e}", dem.display()))?;
    let grid = Grid { width: array.cols, height: array.rows, cell_m };
    let t = std::time::Instant::now();
    let d = drain_grid(&grid, &array.data, options);
    let solve_ms = t.elapsed().as_secs_f64() * 1e3;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let shape = [array.rows, array.cols];
    let lake_id: Vec<i32> = d.lake_id.iter().map(|&l| l as i32).collect();
    save(out, "filled.npy", &shape, &d.filled_m)?;
    save(out, "receivers.npy", &shape, &receivers(&d))?;
    save(out, "accum.npy", &shape, &d.catchment_m2)?;
    save(out, "lake_id.npy", &shape, &lake_id)?;
    println!(
        "{}: {}x{} cells, {} lakes, uphill {}, no path {}, {solve_ms:.0} ms -> {}",
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
