//! Meshes of a heightmap: the ground, and the water over it, as triangle grids a game draws
//! without any terrain add-on — every `step`-th cell a vertex, x along a row, y up, z down
//! the rows, in metres from the map's first cell.

use crate::output::mesh::MeshArrays;
use glam::DVec3;

/// Colour of each ground layer of a splat map (bed, bank, grass, rock), RGB 0..=1.
pub const LAYER_COLORS: [[f32; 3]; 4] =
    [[0.36, 0.31, 0.24], [0.72, 0.66, 0.50], [0.33, 0.50, 0.24], [0.50, 0.48, 0.45]];
/// Colour of water: river, lake, sea (RGB 0..=1).
pub const WATER_COLORS: [[f32; 3]; 3] = [[0.22, 0.52, 0.70], [0.16, 0.40, 0.62], [0.10, 0.30, 0.52]];

/// A heightmap of `rows` × `cols` cells of `cell_m` with `heights` (row-major, metres) as a
/// mesh of every `step`-th row and column (and always the last), coloured by `colors` (one
/// per cell; white when empty). A quad is kept only when `keep` holds for one of its four
/// corner cells.
pub fn grid_mesh(
    rows: usize,
    cols: usize,
    cell_m: f64,
    heights: &[f32],
    colors: &[[f32; 3]],
    step: usize,
    keep: &dyn Fn(usize) -> bool,
) -> MeshArrays {
    let samples = |n: usize| -> Vec<usize> {
        let mut at: Vec<usize> = (0..n).step_by(step.max(1)).collect();
        if at.last().is_some_and(|&last| last + 1 != n) {
            at.push(n - 1);
        }
        at
    };
    let (ys, xs) = (samples(rows), samples(cols));
    let mut mesh = MeshArrays::default();
    if ys.len() < 2 || xs.len() < 2 {
        return mesh;
    }
    let at = |r: usize, c: usize| f64::from(heights[r * cols + c]);
    for (j, &r) in ys.iter().enumerate() {
        for (k, &c) in xs.iter().enumerate() {
            let (r0, r1) = (ys[j.saturating_sub(1)], ys[(j + 1).min(ys.len() - 1)]);
            let (c0, c1) = (xs[k.saturating_sub(1)], xs[(k + 1).min(xs.len() - 1)]);
            let dx = (at(r, c1) - at(r, c0)) / ((c1 - c0) as f64 * cell_m);
            let dz = (at(r1, c) - at(r0, c)) / ((r1 - r0) as f64 * cell_m);
            let normal = DVec3::new(-dx, 1.0, -dz).normalize();
            mesh.positions.push([(c as f64 * cell_m) as f32, at(r, c) as f32, (r as f64 * cell_m) as f32]);
            mesh.normals.push([normal.x as f32, normal.y as f32, normal.z as f32]);
            mesh.colors.push(colors.get(r * cols + c).copied().unwrap_or([1.0; 3]));
        }
    }
    let width = xs.len();
    for j in 0..ys.len() - 1 {
        for k in 0..width - 1 {
            let corners = [(j, k), (j, k + 1), (j + 1, k), (j + 1, k + 1)];
            if !corners.iter().any(|&(a, b)| keep(ys[a] * cols + xs[b])) {
                continue;
            }
            let v = |(a, b): (usize, usize)| (a * width + b) as u32;
            let [tl, tr, bl, br] = corners.map(v);
            // Counter-clockwise seen from above (+y), the front face in Godot.
            mesh.indices.extend_from_slice(&[tl, bl, tr, tr, bl, br]);
        }
    }
    mesh
}

/// The ground of a map as a mesh ([`grid_mesh`], every quad kept), coloured by its splat
/// weights (one per cell, as [`splat_color`] mixes them; white when `splat` is empty).
pub fn ground_mesh(
    rows: usize,
    cols: usize,
    cell_m: f64,
    heights: &[f32],
    splat: &[[u8; 4]],
    step: usize,
) -> MeshArrays {
    let colors: Vec<[f32; 3]> = splat.iter().map(|&w| splat_color(w)).collect();
    grid_mesh(rows, cols, cell_m, heights, &colors, step, &|_| true)
}

/// The water of a map as a mesh ([`grid_mesh`]) over every quad touching a cell whose
/// `mask` alpha is set, at `level`, coloured by what the water is ([`WATER_COLORS`]: river
/// where red is set, lake where green is, else sea).
pub fn water_mesh(
    rows: usize,
    cols: usize,
    cell_m: f64,
    level: &[f32],
    mask: &[[u8; 4]],
    step: usize,
) -> MeshArrays {
    let colors: Vec<[f32; 3]> = mask
        .iter()
        .map(|m| match (m[0], m[1]) {
            (r, _) if r > 127 => WATER_COLORS[0],
            (_, l) if l > 127 => WATER_COLORS[1],
            _ => WATER_COLORS[2],
        })
        .collect();
    grid_mesh(rows, cols, cell_m, level, &colors, step, &|i| mask[i][3] > 127)
}

/// The colour of a cell from its splat weights (bed, bank, grass, rock; summing to 255).
pub fn splat_color(weights: [u8; 4]) -> [f32; 3] {
    let mut c = [0.0f32; 3];
    for (w, layer) in weights.iter().zip(LAYER_COLORS) {
        for (out, channel) in c.iter_mut().zip(layer) {
            *out += f32::from(*w) / 255.0 * channel;
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plane_meshes_with_upward_normals_and_kept_quads_only() {
        let (rows, cols) = (5, 7);
        let heights: Vec<f32> = (0..rows * cols).map(|i| 0.5 * (i % cols) as f32).collect();
        let all = grid_mesh(rows, cols, 2.0, &heights, &[], 2, &|_| true);
        // Rows 0, 2, 4 and columns 0, 2, 4, 6: 12 vertices, 2 x 3 quads.
        assert_eq!((all.positions.len(), all.indices.len()), (12, 36));
        assert_eq!(all.positions[11], [12.0, 3.0, 8.0]);
        let expected = DVec3::new(-0.25, 1.0, 0.0).normalize();
        for n in &all.normals {
            assert!((n[0] - expected.x as f32).abs() < 1e-6 && (n[1] - expected.y as f32).abs() < 1e-6);
        }
        // Counter-clockwise from above: the first triangle's normal points up.
        let p = |i: u32| DVec3::from(all.positions[i as usize].map(f64::from));
        let (a, b, c) = (p(all.indices[0]), p(all.indices[1]), p(all.indices[2]));
        assert!((b - a).cross(c - a).y > 0.0);
        let (a, b, c) = (p(all.indices[3]), p(all.indices[4]), p(all.indices[5]));
        assert!((b - a).cross(c - a).y > 0.0);
        let one = grid_mesh(rows, cols, 2.0, &heights, &[], 2, &|i| i == 0);
        assert_eq!(one.indices.len(), 6, "only the quad touching cell 0");
        let last_row = grid_mesh(rows, cols, 2.0, &heights, &[], 3, &|_| true);
        assert_eq!(last_row.positions.len(), 3 * 3, "rows 0, 3 and the last, 4; columns 0, 3, 6");
    }

    #[test]
    fn water_meshes_cover_the_masked_cells_in_their_colours() {
        let (rows, cols) = (3, 3);
        let level = vec![1.0; 9];
        let mut mask = vec![[0u8; 4]; 9];
        mask[0] = [255, 0, 0, 255];
        mask[8] = [0, 255, 0, 255];
        let mesh = water_mesh(rows, cols, 1.0, &level, &mask, 1);
        assert_eq!(mesh.indices.len(), 12, "the two quads touching a wet corner");
        assert_eq!(
            (mesh.colors[0], mesh.colors[8], mesh.colors[4]),
            (WATER_COLORS[0], WATER_COLORS[1], WATER_COLORS[2])
        );
        let ground = ground_mesh(rows, cols, 1.0, &level, &[[0, 0, 255, 0]; 9], 1);
        assert_eq!((ground.indices.len(), ground.colors[4]), (24, LAYER_COLORS[2]));
    }

    #[test]
    fn splat_colours_mix_the_layers() {
        assert_eq!(splat_color([255, 0, 0, 0]), LAYER_COLORS[0]);
        let half = splat_color([0, 0, 128, 127]);
        for k in 0..3 {
            let want = (128.0 * LAYER_COLORS[2][k] + 127.0 * LAYER_COLORS[3][k]) / 255.0;
            assert!((half[k] - want).abs() < 1e-6);
        }
    }
}
