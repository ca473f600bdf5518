//! Heightmaps: a [`Grid`]'s heights drained with D8 receivers, the options of
//! `watershed grid-drain`.

use crate::drainage::{self, Drainage, DrainageParams, FloodSurfaces, HandOver};
use crate::ground::grid::Grid;

/// How a heightmap drains: the options of `watershed grid-drain`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GridOptions {
    /// Cells strictly under this height are sea (outlets); `None` for no sea.
    pub sea_level_m: Option<f64>,
    /// Whether the map edge is an outlet.
    pub edge_outlets: bool,
    /// A depression filled deeper than this is a lake, metres.
    pub lake_min_depth_m: f64,
}

/// Drains a heightmap (`grid.len()` heights in metres, row-major) with D8 receivers; with
/// the flood's surfaces (the filled heightmap an export writes).
///
/// # Panics
/// If `dem.len() != grid.len()`.
pub fn drain_grid(grid: &Grid, dem: &[f64], options: &GridOptions) -> (Drainage, FloodSurfaces) {
    drainage::solve_with_surfaces(grid, dem, &params(options))
}

/// [`drain_grid`] that hands each result to `hand_over` as soon as it is final, while the
/// drain goes on (see [`drainage::solve_handing_over`]): to write it out meanwhile.
///
/// # Panics
/// If `dem.len() != grid.len()`, or if `hand_over` panics.
pub fn drain_grid_handing_over(
    grid: &Grid,
    dem: &[f64],
    options: &GridOptions,
    hand_over: &HandOver<'_>,
) -> (Drainage, FloodSurfaces) {
    drainage::solve_handing_over(grid, dem, &params(options), hand_over)
}

/// The solve's parameters for `options`.
fn params(options: &GridOptions) -> DrainageParams {
    DrainageParams {
        lake_min_depth_m: options.lake_min_depth_m,
        ..DrainageParams::outlets(options.sea_level_m, options.edge_outlets)
    }
}
