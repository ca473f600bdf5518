//! A square region of the planet's ground resampled onto a grid: a heightmap cut from a
//! world.

use crate::ground::grid::Grid;
use crate::ground::height::PlanetHeight;
use crate::math::sphere;
use glam::DVec3;
use rayon::prelude::*;

/// `cells` × `cells` heights of `planet` over a square `size_m` on a side centred at
/// `lat_deg` north, `lon_deg` east, with rows running north to south and columns west to
/// east; cell centres lie on the plane touching the sphere there, each read straight below.
/// Returns the grid (cell edge `size_m / (cells - 1)`) and its heights, metres.
///
/// # Panics
/// If `cells < 2`.
pub fn sample_region(
    planet: &PlanetHeight,
    lat_deg: f64,
    lon_deg: f64,
    size_m: f64,
    cells: usize,
) -> (Grid, Vec<f64>) {
    assert!(cells >= 2, "a region needs at least 2 cells a side");
    let centre = sphere::direction(lat_deg, lon_deg);
    let (east, north) = east_north(centre);
    let cell_m = size_m / (cells - 1) as f64;
    let radius = planet.radius_m();
    let half = size_m / 2.0;
    let heights = (0..cells * cells)
        .into_par_iter()
        .map(|i| {
            let (row, col) = (i / cells, i % cells);
            let x = col as f64 * cell_m - half;
            let y = half - row as f64 * cell_m;
            planet.height(centre + (east * x + north * y) / radius)
        })
        .collect();
    (Grid { width: cells, height: cells, cell_m }, heights)
}

/// Unit east and north at unit direction `up` (at a pole, east is +X).
fn east_north(up: DVec3) -> (DVec3, DVec3) {
    let east = DVec3::Y.cross(up);
    let east = if east.length_squared() < 1e-24 { DVec3::X } else { east.normalize() };
    (east, up.cross(east))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn east_and_north_point_the_right_way() {
        let up = sphere::direction(0.0, 0.0);
        let (east, north) = east_north(up);
        assert!((east - sphere::direction(0.0, 90.0)).length() < 1e-12, "{east:?}");
        assert!((north - DVec3::Y).length() < 1e-12, "{north:?}");
    }
}
